/* SPDX-License-Identifier: MIT */
/*
 * views.c - the room's view cache and what it sends: `diff` and `state`
 * events. The public view is kept member by member (the game's sections and
 * the seed commitment), each as a jansson value and its canonical bytes; an
 * action rebuilds only the members the game says it changed, diffs them once,
 * serialises that patch once and hashes the public part once. Each human
 * seat keeps only its "you": its diff and the end of its hash are the only
 * per-recipient work. Lines are written as text straight from those parts;
 * nothing here touches a socket (outbox.c does the sending).
 *
 * The canonical form sorts keys by bytes and every public key sorts before
 * "you", so the canonical view of a seat is "{" + the public parts + ",\"you\":"
 * + its you + "}", and its BLAKE2b hash continues from the public part's
 * state.
 */
#include "lobby_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

_Static_assert(sizeof(crypto_generichash_state) <= LOBBY_HASH_STATE,
               "room_view.hash holds a generichash state");

/* ---- Parts ---- */

static int part_cmp(const void *a, const void *b)
{
    return strcmp(((const struct view_part *)a)->key, ((const struct view_part *)b)->key);
}

static void part_clear(struct view_part *p)
{
    json_decref(p->value);
    free(p->text);
    p->value = NULL;
    p->text = NULL;
    p->len = 0;
}

void lobby__views_reset(struct room *room)
{
    struct room_view *v = &room->view;

    for (size_t i = 0; i < v->nparts; i++) {
        part_clear(&v->parts[i]);
    }
    free(v->parts);
    free(v->hash);
    v->parts = NULL;
    v->hash = NULL;
    v->nparts = 0;
    v->valid = false;
}

/* The parts' keys, sorted; values empty. 0 or -ENOMEM. */
static int parts_init(struct room *room)
{
    struct room_view *v = &room->view;
    const struct game_ops *g = room->game;

    v->parts = calloc(g->nsections + 1, sizeof(*v->parts));
    v->hash = malloc((g->nsections + 2) * sizeof(*v->hash));
    if (!v->parts || !v->hash) {
        free(v->parts);
        free(v->hash);
        v->parts = NULL;
        v->hash = NULL;
        return -ENOMEM;
    }
    for (size_t k = 0; k < g->nsections; k++) {
        v->parts[k].key = g->sections[k].key;
        v->parts[k].section = (int)k;
    }
    v->parts[g->nsections].key = "seed_commit";
    v->parts[g->nsections].section = -1;
    v->nparts = g->nsections + 1;
    qsort(v->parts, v->nparts, sizeof(*v->parts), part_cmp);
    return 0;
}

/* The current value of one part. New reference or NULL. */
static json_t *part_build(const struct room *room, const struct view_part *p)
{
    json_t *value;

    if (p->section < 0) {
        return json_string(room->seed_commit);
    }
    value = room->game->sections[p->section].build(room->state);
    if (value && json_is_object(value) && strcmp(p->key, "result") == 0) {
        /* The server reveals the seed with the result (fair randomness). */
        char hex[GAME_SEED_BYTES * 2 + 1];
        proto_hex(room->seed, sizeof(room->seed), hex);
        if (json_object_set_new(value, "seed", json_string(hex)) != 0) {
            json_decref(value);
            return NULL;
        }
    }
    return value;
}

/* Takes `value` and its canonical bytes `text` (both stolen) as the
 * part's new value. */
static void part_take(struct view_part *p, json_t *value, char *text, size_t len)
{
    part_clear(p);
    p->value = value;
    p->text = text;
    p->len = len;
}

/* Takes `value` (stolen) as the part's new value with its canonical bytes. */
static int part_set(struct view_part *p, json_t *value)
{
    size_t len;
    char *text = proto_canonical(value, &len);

    if (!text) {
        json_decref(value);
        return -ENOMEM;
    }
    part_take(p, value, text, len);
    return 0;
}

/* "\"key\":" in canonical form: keys are the game's plain identifiers. */
static void key_add(struct proto_text *t, const char *key)
{
    proto_text_add(t, "\"", 1);
    proto_text_str(t, key);
    proto_text_add(t, "\":", 2);
}

/* Rehashes the public part from part `from` on (0: all of it). */
static void hash_public(struct room *room, size_t from)
{
    struct room_view *v = &room->view;
    crypto_generichash_state st;

    if (from == 0) {
        crypto_generichash_init(&st, NULL, 0, crypto_generichash_BYTES);
        crypto_generichash_update(&st, (const unsigned char *)"{", 1);
    } else {
        memcpy(&st, v->hash[from], sizeof(st));
    }
    for (size_t i = from; i < v->nparts; i++) {
        const struct view_part *p = &v->parts[i];
        size_t klen = strlen(p->key);
        memcpy(v->hash[i], &st, sizeof(st));
        /* ",\"key\":" (no comma before the first) */
        crypto_generichash_update(&st, (const unsigned char *)",\"" + (i == 0), i ? 2 : 1);
        crypto_generichash_update(&st, (const unsigned char *)p->key, klen);
        crypto_generichash_update(&st, (const unsigned char *)"\":", 2);
        crypto_generichash_update(&st, (const unsigned char *)p->text, p->len);
    }
    memcpy(v->hash[v->nparts], &st, sizeof(st));
}

/* The hash of a recipient's view: the public part's, then its "you"
 * (NULL for a spectator) and the closing brace. */
static void hash_finish(const struct room *room, const struct seat *s,
                        char out[PROTO_HASH_HEX_LEN + 1])
{
    crypto_generichash_state st;
    uint8_t h[crypto_generichash_BYTES];

    memcpy(&st, room->view.hash[room->view.nparts], sizeof(st));
    if (s) {
        crypto_generichash_update(&st, (const unsigned char *)",\"you\":", 7);
        crypto_generichash_update(&st, (const unsigned char *)s->you_text, s->you_len);
    }
    crypto_generichash_update(&st, (const unsigned char *)"}", 1);
    crypto_generichash_final(&st, h, sizeof(h));
    proto_hex(h, sizeof(h), out);
}

/* Builds seat `i`'s "you" afresh. 0 or -ENOMEM. */
static int you_build(struct room *room, int i)
{
    struct seat *s = &room->seats[i];
    json_t *you = room->game->you(room->state, i);
    size_t len;
    char *text = you ? proto_canonical(you, &len) : NULL;

    if (!text) {
        json_decref(you);
        return -ENOMEM;
    }
    json_decref(s->you);
    free(s->you_text);
    s->you = you;
    s->you_text = text;
    s->you_len = len;
    return 0;
}

int lobby__views_build(struct room *room)
{
    struct room_view *v = &room->view;

    if (!v->valid) {
        lobby__views_reset(room);
        if (parts_init(room) != 0) {
            return -ENOMEM;
        }
        for (size_t i = 0; i < v->nparts; i++) {
            json_t *value = part_build(room, &v->parts[i]);
            if (!value || part_set(&v->parts[i], value) != 0) {
                lobby__views_reset(room);
                return -ENOMEM;
            }
        }
        hash_public(room, 0);
        v->valid = true;
    }
    for (int i = 0; i < room->nseats; i++) {
        if (room->seats[i].kind == SEAT_HUMAN && !room->seats[i].you && you_build(room, i) != 0) {
            return -ENOMEM;
        }
    }
    return 0;
}

/* ---- State events ---- */

/* {"ev":"<ev>","room":"<code>","rev":<rev> */
static void event_head(struct proto_text *t, const struct room *room, const char *ev)
{
    proto_text_str(t, "{\"ev\":\"");
    proto_text_str(t, ev);
    proto_text_str(t, "\",\"room\":\"");
    proto_text_str(t, room->code);
    proto_text_str(t, "\",\"rev\":");
    proto_text_int(t, (long long)room->rev);
}

/* The `state` line of one recipient (`s` NULL: spectator). Malloc'ed. */
static char *state_line(const struct room *room, const struct seat *s, int seat, size_t *ret_len)
{
    const struct room_view *v = &room->view;
    char hash[PROTO_HASH_HEX_LEN + 1];
    struct proto_text t = {0};

    event_head(&t, room, "state");
    proto_text_str(&t, ",\"seat\":");
    proto_text_int(&t, seat);
    proto_text_str(&t, ",\"view\":{");
    for (size_t i = 0; i < v->nparts; i++) {
        if (i) {
            proto_text_add(&t, ",", 1);
        }
        key_add(&t, v->parts[i].key);
        proto_text_add(&t, v->parts[i].text, v->parts[i].len);
    }
    if (s) {
        proto_text_add(&t, ",\"you\":", 7);
        proto_text_add(&t, s->you_text, s->you_len);
    }
    hash_finish(room, s, hash);
    proto_text_str(&t, "},\"hash\":\"");
    proto_text_str(&t, hash);
    proto_text_str(&t, "\"}\n");
    return proto_text_take(&t, PROTO_OUT_LINE_MAX, ret_len);
}

void lobby__views_send_state(struct room *room, struct lobby_peer *peer)
{
    const struct seat *s = NULL;
    size_t len;
    char *line;

    if (room->status == ROOM_LOBBY) {
        return;
    }
    if (peer->seat >= 0 && !peer->spectator) {
        s = &room->seats[peer->seat];
    }
    if (lobby__views_build(room) != 0 || (s && !s->you && you_build(room, peer->seat) != 0)) {
        /* Out of memory: the peer reconnects and asks again. */
        peer->close(peer);
        return;
    }
    line = state_line(room, s, s ? peer->seat : -1, &len);
    if (!line) {
        peer->close(peer);
        return;
    }
    lobby__out(room, peer, line, len);
    free(line);
}

/* ---- Diffs ---- */

static void hist_push(struct seat *s, int64_t rev, char *line, size_t len)
{
    struct diff_line *d = &s->hist[rev % LOBBY_DIFF_KEEP];

    free(d->line);
    d->rev = rev;
    d->line = line;
    d->len = len;
}

static void hist_clear(struct seat *s)
{
    for (int i = 0; i < LOBBY_DIFF_KEEP; i++) {
        free(s->hist[i].line);
        s->hist[i].line = NULL;
        s->hist[i].rev = -1;
    }
}

/* The `diff` line of one recipient from the shared public ops and its own. */
static char *diff_line(const struct room *room, const struct seat *s, const char *pub,
                       size_t pub_len, const char *own, size_t own_len, size_t *ret_len)
{
    char hash[PROTO_HASH_HEX_LEN + 1];
    struct proto_text t = {0};

    event_head(&t, room, "diff");
    proto_text_str(&t, ",\"patch\":[");
    proto_text_add(&t, pub, pub_len);
    if (pub_len && own_len) {
        proto_text_add(&t, ",", 1);
    }
    proto_text_add(&t, own, own_len);
    hash_finish(room, s, hash);
    proto_text_str(&t, "],\"hash\":\"");
    proto_text_str(&t, hash);
    proto_text_str(&t, "\"}\n");
    return proto_text_take(&t, PROTO_OUT_LINE_MAX, ret_len);
}

/* Everyone lost track (out of memory): the cache is dropped and every
 * member is closed, so that it resumes and gets a full state. */
static void publish_failed(struct room *room)
{
    lobby__views_reset(room);
    for (int i = 0; i < room->nseats; i++) {
        struct seat *s = &room->seats[i];
        json_decref(s->you);
        free(s->you_text);
        s->you = NULL;
        s->you_text = NULL;
        hist_clear(s);
        if (s->peer) {
            s->peer->close(s->peer);
        }
    }
    for (size_t k = 0; k < room->nspecs; k++) {
        room->specs[k]->close(room->specs[k]);
    }
}

/* Rebuilds the parts `changed` names; writes their ops to `patch`. */
static int publish_public(struct room *room, uint64_t changed, struct proto_text *patch)
{
    struct room_view *v = &room->view;
    size_t first = v->nparts;

    for (size_t i = 0; i < v->nparts; i++) {
        struct view_part *p = &v->parts[i];
        json_t *value;
        char *text;
        size_t len;
        if (p->section < 0 || !(changed & (UINT64_C(1) << p->section))) {
            continue;
        }
        value = part_build(room, p);
        text = value ? proto_canonical(value, &len) : NULL;
        if (!text) {
            json_decref(value);
            return -ENOMEM;
        }
        if (len == p->len && memcmp(text, p->text, len) == 0) {
            /* Named by the mask, but equal: nothing to send or hash. */
            free(text);
            json_decref(value);
            continue;
        }
        if (proto_patch_diff_text(patch, p->key, p->value, value) != 0) {
            free(text);
            json_decref(value);
            return -ENOMEM;
        }
        part_take(p, value, text, len);
        if (i < first) {
            first = i;
        }
    }
    if (first < v->nparts) {
        hash_public(room, first);
    }
    return 0;
}

/* Seat i's diff line after the public ops `pub`. NULL on ENOMEM. */
static char *publish_seat(struct room *room, int i, uint64_t changed, const char *pub,
                          size_t pub_len, size_t *ret_len)
{
    struct seat *s = &room->seats[i];
    struct proto_text own = {0};
    char *line = NULL;

    if (changed & GAME_CHANGED_YOU) {
        json_t *you = room->game->you(room->state, i);
        size_t len;
        char *text = you ? proto_canonical(you, &len) : NULL;
        if (!text) {
            json_decref(you);
            return NULL;
        }
        if (len == s->you_len && memcmp(text, s->you_text, len) == 0) {
            free(text);
            json_decref(you);
        } else if (proto_patch_diff_text(&own, "you", s->you, you) != 0) {
            free(text);
            json_decref(you);
            proto_text_free(&own);
            return NULL;
        } else {
            json_decref(s->you);
            free(s->you_text);
            s->you = you;
            s->you_text = text;
            s->you_len = len;
        }
    }
    line = diff_line(room, s, pub, pub_len, own.data ? own.data : "", own.len, ret_len);
    proto_text_free(&own);
    return line;
}

void lobby__views_publish(struct room *room, uint64_t changed)
{
    struct proto_text patch = {0};
    const char *pub;

    if (!room->view.valid) {
        /* Nothing to diff from: everyone gets the whole view. */
        if (lobby__views_build(room) != 0) {
            publish_failed(room);
            return;
        }
        for (int i = 0; i < room->nseats; i++) {
            hist_clear(&room->seats[i]);
            if (room->seats[i].peer) {
                lobby__views_send_state(room, room->seats[i].peer);
            }
        }
        for (size_t k = 0; k < room->nspecs; k++) {
            lobby__views_send_state(room, room->specs[k]);
        }
        return;
    }
    if (publish_public(room, changed, &patch) != 0 || patch.err != 0) {
        proto_text_free(&patch);
        publish_failed(room);
        return;
    }
    pub = patch.data ? patch.data : "";
    for (int i = 0; i < room->nseats; i++) {
        struct seat *s = &room->seats[i];
        char *line;
        size_t len;
        if (s->kind != SEAT_HUMAN) {
            continue;
        }
        if (!s->you) {
            /* A seat without a published view (a player back from a bot)
             * gets the whole of it. */
            hist_clear(s);
            if (s->peer) {
                lobby__views_send_state(room, s->peer);
            }
            continue;
        }
        line = publish_seat(room, i, changed, pub, patch.len, &len);
        if (!line) {
            proto_text_free(&patch);
            publish_failed(room);
            return;
        }
        lobby__out(room, s->peer, line, len);
        hist_push(s, room->rev, line, len);
    }
    if (room->nspecs > 0) {
        size_t len;
        char *line = diff_line(room, NULL, pub, patch.len, "", 0, &len);
        if (!line) {
            proto_text_free(&patch);
            publish_failed(room);
            return;
        }
        for (size_t k = 0; k < room->nspecs; k++) {
            lobby__out(room, room->specs[k], line, len);
        }
        free(line);
    }
    proto_text_free(&patch);
}

/* ---- Seats ---- */

void lobby__seat_forget(struct seat *s)
{
    json_decref(s->you);
    free(s->you_text);
    s->you = NULL;
    s->you_text = NULL;
    s->you_len = 0;
    json_decref(s->legal);
    free(s->legal_text);
    s->legal = NULL;
    s->legal_text = NULL;
    s->legal_rev = -1;
    hist_clear(s);
}
