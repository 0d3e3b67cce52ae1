/* SPDX-License-Identifier: MIT */
/*
 * views.c - the room's view cache and what it sends: `diff` and `state`
 * events. The public view is kept member by member (the game's sections and
 * the seed commitment), each as its canonical text; an action rewrites only
 * the members the game says it changed, into the lobby's scratch writer,
 * diffs them against the text they replace once, writes that patch once and
 * hashes the public part once. Of a section of items (a game section's
 * write_item: one per seat or per player), only the items the action may
 * have changed are written and diffed, and spliced into the part's text. No
 * tree is built on that path, and the
 * buffers are reused: the scratch and the replaced part change places. Each human
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

#include "log.h"

_Static_assert(sizeof(crypto_generichash_state) <= LOBBY_HASH_STATE,
               "room_view.hash holds a generichash state");

/* ---- Parts ---- */

/* The lobby's own parts, beside the game's sections. */
#define PART_SEED (-1)  /* "seed_commit" */
#define PART_CLOCK (-2) /* "clock", in a clocked room */

static int part_cmp(const void *a, const void *b)
{
    return strcmp(((const struct view_part *)a)->key, ((const struct view_part *)b)->key);
}

/* The number of fields of the items of part `p`'s section (0: none). */
static int part_fields(const struct room *room, const struct view_part *p)
{
    const struct game_section *sec;

    if (p->section < 0) {
        return 0;
    }
    sec = &room->game->sections[p->section];
    return sec->write_field && sec->nfields > 0 && sec->nfields <= GAME_FIELDS_MAX ? sec->nfields
                                                                                   : 0;
}

void lobby__views_reset(struct room *room)
{
    struct room_view *v = &room->view;

    for (size_t i = 0; i < v->nparts; i++) {
        game_text_free_data(v->parts[i].text);
        free(v->parts[i].item_end);
        free(v->parts[i].field_end);
    }
    free(v->parts);
    free(v->hash);
    free(v->first);
    v->parts = NULL;
    v->hash = NULL;
    v->first = NULL;
    v->nparts = 0;
    memset(v->mark, 0, sizeof(v->mark));
    memset(v->marked, 0, sizeof(v->marked));
    v->bytes = 0;
    v->valid = false;
}

/* The parts' keys, sorted; values empty. 0 or -ENOMEM. */
static int parts_init(struct room *room)
{
    struct room_view *v = &room->view;
    const struct game_ops *g = room->game;
    size_t n = g->nsections + 1 + (room->clock.rules.kind ? 1 : 0);

    v->parts = calloc(n, sizeof(*v->parts));
    v->hash = malloc((LOBBY_HASH_MARKS + 1) * sizeof(*v->hash));
    v->first = calloc(n, sizeof(*v->first));
    if (!v->parts || !v->hash || !v->first) {
        free(v->parts);
        free(v->hash);
        free(v->first);
        v->parts = NULL;
        v->hash = NULL;
        v->first = NULL;
        return -ENOMEM;
    }
    for (size_t k = 0; k < g->nsections; k++) {
        v->parts[k].key = g->sections[k].key;
        v->parts[k].section = (int)k;
    }
    v->parts[g->nsections].key = "seed_commit";
    v->parts[g->nsections].section = PART_SEED;
    if (room->clock.rules.kind) {
        v->parts[g->nsections + 1].key = "clock";
        v->parts[g->nsections + 1].section = PART_CLOCK;
    }
    v->nparts = n;
    qsort(v->parts, v->nparts, sizeof(*v->parts), part_cmp);
    return 0;
}

/* Keeps what `w` holds as the text of a part or a "you", in a buffer of
 * about its size (the writer's grows to the largest text it ever wrote): a
 * buffer is replaced only when the text outgrows it or would leave a
 * quarter of it unused. Through jansson's allocator, as the writer's, so
 * that the allocation-failure tests reach it. 0 or -ENOMEM (the old text
 * is kept). */
static int text_keep(struct game_text *w, char **text, size_t *len, size_t *cap)
{
    size_t need = w->len + 1;

    if (*cap < need || *cap - need > need / 4 + 16) {
        char *b = game_text_alloc_data(need);
        if (!b) {
            return -ENOMEM;
        }
        game_text_free_data(*text);
        *text = b;
        *cap = need;
    }
    memcpy(*text, w->data, need);
    *len = w->len;
    game_text_reset(w);
    return 0;
}

/* Keeps the text part_write() just wrote in the lobby's scratch writer as
 * part `p`'s, with where its items end. 0 or -ENOMEM. */
static int part_keep(struct room *room, struct view_part *p)
{
    struct room_view *v = &room->view;
    size_t old = p->len;

    if (text_keep(&room->lobby->scratch, &p->text, &p->len, &p->cap) != 0) {
        return -ENOMEM;
    }
    v->bytes = v->bytes - old + p->len;
    p->nitems = 0;
    if (p->section >= 0 && room->game->sections[p->section].seq) {
        p->seq = room->game->sections[p->section].seq(room->state);
    }
    if (room->lobby->nitem_at > 0) {
        uint32_t n = room->lobby->nitem_at;
        if (n > p->item_cap) {
            uint32_t *ends = realloc(p->item_end, n * sizeof(*ends));
            if (!ends) {
                /* Kept without its items: rewritten whole next time. */
                return 0;
            }
            p->item_end = ends;
            p->item_cap = n;
        }
        uint32_t nf = (uint32_t)part_fields(room, p);
        if (nf > 0 && n * nf > p->field_cap) {
            uint32_t *ends = realloc(p->field_end, n * nf * sizeof(*ends));
            if (!ends) {
                return 0;
            }
            p->field_end = ends;
            p->field_cap = n * nf;
        }
        memcpy(p->item_end, room->lobby->item_at, n * sizeof(*p->item_end));
        if (nf > 0) {
            memcpy(p->field_end, room->lobby->field_at, n * nf * sizeof(*p->field_end));
        }
        p->nitems = n;
    }
    return 0;
}

/* The result object in `w` with the seed revealed (fair randomness), its
 * canonical text in `w` again. Once per game: the result changes when the
 * game ends. 0 or -ENOMEM. */
static int result_add_seed(const struct room *room, struct game_text *w)
{
    char hex[GAME_SEED_BYTES * 2 + 1];
    json_t *result = json_loadb(w->data, w->len, 0, NULL);
    char *text = NULL;
    char *buf;
    size_t len;

    proto_hex(room->seed, sizeof(room->seed), hex);
    if (result && json_object_set_new(result, "seed", json_string(hex)) == 0) {
        text = proto_canonical(result, &len);
    }
    json_decref(result);
    if (!text) {
        return -ENOMEM;
    }
    /* Into a buffer of the writer's allocator, as the writer's text. */
    buf = game_text_alloc_data(len + 1);
    if (buf) {
        memcpy(buf, text, len + 1);
        game_text_free_data(w->data);
        w->data = buf;
        w->len = len;
        w->cap = len + 1;
    }
    free(text);
    return buf ? 0 : -ENOMEM;
}

/* Writes the current value of one part into the lobby's scratch writer.
 * 0, or a negative errno (a game that wrote no canonical value among
 * them: the view cannot be published). */
static int part_write(struct room *room, const struct view_part *p)
{
    struct game_text *w = &room->lobby->scratch;
    int rc;

    game_text_reset(w);
    room->lobby->nitem_at = 0;
    if (p->section == PART_SEED) {
        game_text_str(w, room->seed_commit);
        return game_text_end(w);
    }
    if (p->section == PART_CLOCK) {
        lobby__clock_write(w, &room->clock, room->nseats);
        return game_text_end(w);
    }
    const struct game_section *sec = &room->game->sections[p->section];
    int n = sec->write_item ? sec->nitems(room->state) : 0;
    if (n > 0 && n <= LOBBY_ITEMS_MAX) {
        /* Item by item, as game_section_write() would, noting where
         * each ends. */
        int nf = part_fields(room, p);
        game_text_arr(w);
        for (int i = 0; i < n; i++) {
            if (nf > 0) {
                game_text_fields(w, sec, room->state, i, &room->lobby->field_at[i * nf]);
            } else {
                sec->write_item(w, room->state, i);
            }
            room->lobby->item_at[i] = (uint32_t)w->len;
        }
        game_text_end_arr(w);
        room->lobby->nitem_at = (uint32_t)n;
    } else {
        game_section_write(w, sec, room->state);
    }
    rc = game_text_end(w);
    if (rc == 0 && w->data[0] == '{' && strcmp(p->key, "result") == 0) {
        rc = result_add_seed(room, w);
    }
    return rc;
}

/* Writes seat i's "you" into the lobby's scratch writer. 0 or a negative
 * errno. */
static int you_write(struct room *room, int i)
{
    struct game_text *w = &room->lobby->scratch;

    game_text_reset(w);
    room->game->you(w, room->state, i);
    return game_text_end(w);
}

/* "\"key\":" in canonical form: keys are the game's plain identifiers. */
static void key_add(struct proto_text *t, const char *key)
{
    proto_text_add(t, "\"", 1);
    proto_text_str(t, key);
    proto_text_add(t, "\":", 2);
}

/* Counts part `from` as the first an action changed, and moves the mark
 * of the part that was first least often to it when it has been first
 * more often. The mark is set by the rehash that follows, which starts
 * before it. */
static void marks_note(struct room_view *v, size_t from)
{
    int weak = 0;

    if (from == 0 || from >= v->nparts) {
        return; /* the rehash starts at the beginning anyway */
    }
    if (v->first[from] == UINT8_MAX) {
        for (size_t i = 0; i < v->nparts; i++) {
            v->first[i] /= 2;
        }
    }
    v->first[from]++;
    for (int m = 0; m < LOBBY_HASH_MARKS; m++) {
        if (v->mark[m] == from) {
            return;
        }
    }
    /* An unused mark (at 0, never first), else the least often first. */
    for (int m = 1; m < LOBBY_HASH_MARKS; m++) {
        if (v->first[v->mark[m]] < v->first[v->mark[weak]]) {
            weak = m;
        }
    }
    if (v->first[from] > v->first[v->mark[weak]]) {
        v->mark[weak] = (uint16_t)from;
        v->marked[weak] = false;
    }
}

/* Adds part i, with its key, to the public part's hash: ",\"key\":" (no
 * comma before the first) and the value, in one update when they fit
 * HASH_PART_JOIN bytes together (each update has its own cost, most parts
 * are short), else in two. */
#define HASH_PART_JOIN 256
static void hash_part(crypto_generichash_state *st, const struct room_view *v, size_t i)
{
    const struct view_part *p = &v->parts[i];
    unsigned char buf[HASH_PART_JOIN];
    size_t klen = strlen(p->key);
    size_t n = 0;

    if (klen + 4 > sizeof(buf)) {
        /* No game names a section so; hashed all the same. */
        crypto_generichash_update(st, (const unsigned char *)",\"" + (i == 0), i ? 2 : 1);
        crypto_generichash_update(st, (const unsigned char *)p->key, klen);
        crypto_generichash_update(st, (const unsigned char *)"\":", 2);
        crypto_generichash_update(st, (const unsigned char *)p->text, p->len);
        return;
    }
    if (i > 0) {
        buf[n++] = ',';
    }
    buf[n++] = '"';
    memcpy(buf + n, p->key, klen);
    n += klen;
    buf[n++] = '"';
    buf[n++] = ':';
    if (p->len <= sizeof(buf) - n) {
        memcpy(buf + n, p->text, p->len);
        crypto_generichash_update(st, buf, n + p->len);
        return;
    }
    crypto_generichash_update(st, buf, n);
    crypto_generichash_update(st, (const unsigned char *)p->text, p->len);
}

/* Rehashes the public part from the nearest mark before part `from` on
 * (0: all of it), setting the marks it passes. */
static void hash_public(struct room *room, size_t from)
{
    struct room_view *v = &room->view;
    size_t start = 0;
    int src = -1;
    crypto_generichash_state st;

    marks_note(v, from);
    for (int m = 0; m < LOBBY_HASH_MARKS; m++) {
        if (v->marked[m] && v->mark[m] <= from && v->mark[m] > start) {
            start = v->mark[m];
            src = m;
        }
    }
    if (src < 0) {
        crypto_generichash_init(&st, NULL, 0, crypto_generichash_BYTES);
        crypto_generichash_update(&st, (const unsigned char *)"{", 1);
    } else {
        memcpy(&st, v->hash[src], sizeof(st));
    }
    for (size_t i = start; i < v->nparts; i++) {
        for (int m = 0; m < LOBBY_HASH_MARKS; m++) {
            if (v->mark[m] == i && i > 0 && m != src) {
                memcpy(v->hash[m], &st, sizeof(st));
                v->marked[m] = true;
            }
        }
        hash_part(&st, v, i);
    }
    memcpy(v->hash[LOBBY_HASH_MARKS], &st, sizeof(st));
#ifdef CONCLAVE_CHECKED
    /* Test builds: the public part's hash is the one hashed from "{" on, or
     * a mark was stale. */
    uint8_t kept[crypto_generichash_BYTES], whole[crypto_generichash_BYTES];
    crypto_generichash_final(&st, kept, sizeof(kept));
    crypto_generichash_init(&st, NULL, 0, crypto_generichash_BYTES);
    crypto_generichash_update(&st, (const unsigned char *)"{", 1);
    for (size_t i = 0; i < v->nparts; i++) {
        hash_part(&st, v, i);
    }
    crypto_generichash_final(&st, whole, sizeof(whole));
    if (memcmp(kept, whole, sizeof(kept)) != 0) {
        log_event(LOG_ERROR, "view_hash_stale", "room=%s from=%zu", room->code, from);
        abort();
    }
#endif
}

/* The hash of a recipient's view: the public part's, then its "you"
 * (NULL for a spectator) and the closing brace. */
static void hash_finish(const struct room *room, const struct seat *s,
                        char out[PROTO_HASH_HEX_LEN + 1])
{
    crypto_generichash_state st;
    uint8_t h[crypto_generichash_BYTES];
    unsigned char buf[HASH_PART_JOIN];

    memcpy(&st, room->view.hash[LOBBY_HASH_MARKS], sizeof(st));
    if (s && s->you_len <= sizeof(buf) - 8) {
        /* ,"you":{...}} in one update */
        memcpy(buf, ",\"you\":", 7);
        memcpy(buf + 7, s->you_text, s->you_len);
        buf[7 + s->you_len] = '}';
        crypto_generichash_update(&st, buf, s->you_len + 8);
    } else {
        if (s) {
            crypto_generichash_update(&st, (const unsigned char *)",\"you\":", 7);
            crypto_generichash_update(&st, (const unsigned char *)s->you_text, s->you_len);
        }
        crypto_generichash_update(&st, (const unsigned char *)"}", 1);
    }
    crypto_generichash_final(&st, h, sizeof(h));
    proto_hex(h, sizeof(h), out);
}

/* Writes seat `i`'s "you" afresh. 0 or a negative errno. */
static int you_build(struct room *room, int i)
{
    struct seat *s = &room->seats[i];
    int rc = you_write(room, i);

    if (rc == 0) {
        rc = text_keep(&room->lobby->scratch, &s->you_text, &s->you_len, &s->you_cap);
    }
    return rc;
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
            struct view_part *p = &v->parts[i];
            if (part_write(room, p) != 0 || part_keep(room, p) != 0) {
                lobby__views_reset(room);
                return -ENOMEM;
            }
        }
        hash_public(room, 0);
        v->valid = true;
    }
    for (int i = 0; i < room->nseats; i++) {
        if (room->seats[i].kind == SEAT_HUMAN && room->seats[i].you_len == 0 &&
            you_build(room, i) != 0) {
            return -ENOMEM;
        }
    }
    return 0;
}

const char *lobby__views_result(struct room *room, size_t *ret_len)
{
    struct room_view *v = &room->view;

    if (lobby__views_build(room) != 0) {
        return NULL;
    }
    for (size_t i = 0; i < v->nparts; i++) {
        const struct view_part *p = &v->parts[i];
        if (strcmp(p->key, "result") == 0 && p->text[0] == '{') {
            *ret_len = p->len;
            return p->text;
        }
    }
    return NULL;
}

/* ---- Review ---- */

int lobby__views_review(struct room *room, struct proto_text *t)
{
    const struct room_view *v = &room->view;
    char hash[PROTO_HASH_HEX_LEN + 1];
    struct proto_text hashes = {0};

    if (lobby__views_build(room) != 0) {
        return -ENOMEM;
    }
    proto_text_str(t, "\"view\":{");
    for (size_t i = 0; i < v->nparts; i++) {
        if (i) {
            proto_text_add(t, ",", 1);
        }
        key_add(t, v->parts[i].key);
        proto_text_add(t, v->parts[i].text, v->parts[i].len);
    }
    hash_finish(room, NULL, hash);
    proto_text_str(t, "},\"hash\":\"");
    proto_text_str(t, hash);
    proto_text_str(t, "\",\"hands\":[");
    for (int i = 0; i < room->nseats; i++) {
        /* Every seat's, a bot's too: the game is over. */
        struct game_text *w = &room->lobby->scratch;
        struct seat hand = {.you_text = NULL};
        if (you_write(room, i) != 0) {
            proto_text_free(&hashes);
            return -ENOMEM;
        }
        hand.you_text = w->data;
        hand.you_len = w->len;
        hash_finish(room, &hand, hash);
        proto_text_add(t, ",", i > 0);
        proto_text_add(t, w->data, w->len);
        proto_text_add(&hashes, ",", i > 0);
        proto_text_add(&hashes, "\"", 1);
        proto_text_str(&hashes, hash);
        proto_text_add(&hashes, "\"", 1);
    }
    proto_text_str(t, "],\"hashes\":[");
    proto_text_add(t, hashes.data ? hashes.data : "", hashes.len);
    proto_text_add(t, "]", 1);
    int rc = hashes.err;
    proto_text_free(&hashes);
    return rc;
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

/* The `state` line of one recipient (`s` NULL: spectator) at `now`: in a
 * room whose clocks run, "clock_ms" says how long ago the view's clock
 * times were taken. Malloc'ed. */
static char *state_line(const struct room *room, const struct seat *s, int seat, uint64_t now,
                        size_t *ret_len)
{
    const struct room_view *v = &room->view;
    char hash[PROTO_HASH_HEX_LEN + 1];
    struct proto_text t = {0};

    event_head(&t, room, "state");
    if (room->clock.running) {
        proto_text_str(&t, ",\"clock_ms\":");
        proto_text_int(&t, (long long)lobby__clock_elapsed(&room->clock, now));
    }
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

void lobby__views_send_state(struct room *room, struct lobby_peer *peer, uint64_t now)
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
    if (lobby__views_build(room) != 0 ||
        (s && s->you_len == 0 && you_build(room, peer->seat) != 0)) {
        /* Out of memory: the peer reconnects and asks again. */
        peer->close(peer);
        return;
    }
    line = state_line(room, s, s ? peer->seat : -1, now, &len);
    if (!line) {
        peer->close(peer);
        return;
    }
    lobby__out(room, peer, line, len);
    free(line);
}

/* ---- Diffs ---- */

static void hist_drop(struct seat *s, struct diff_line *d)
{
    s->hist_bytes -= d->line ? d->len : 0;
    free(d->line);
    d->line = NULL;
    d->rev = -1;
}

/* Keeps the diff of `rev` (its line is taken) for a resume, within the
 * seat's share of the room's LOBBY_RESUME_BYTES and within what a `state`
 * line of the seat would take (beyond that, the whole view costs less to
 * send than the diffs):
 * the oldest go first, the newest stays. Out of memory, it is not kept. */
static void hist_push(const struct room *room, struct seat *s, int64_t rev, char *line, size_t len)
{
    size_t share =
        (room->lobby->cfg.resume_bytes ? room->lobby->cfg.resume_bytes : LOBBY_RESUME_BYTES) /
        (size_t)room->nseats;
    /* What a state line of the seat would take. */
    size_t view = room->view.bytes + s->you_len + LOBBY_STATE_ENVELOPE;
    struct diff_line *d;

    if (!s->hist) {
        s->hist = malloc(LOBBY_DIFF_KEEP * sizeof(*s->hist));
        if (!s->hist) {
            free(line);
            return;
        }
        for (int i = 0; i < LOBBY_DIFF_KEEP; i++) {
            s->hist[i] = (struct diff_line){.rev = -1};
        }
    }
    if (view < share) {
        share = view;
    }
    d = &s->hist[rev % LOBBY_DIFF_KEEP];
    hist_drop(s, d);
    d->rev = rev;
    d->line = line; /* diff_line() made it of its exact length */
    d->len = len;
    s->hist_bytes += len;
    for (int64_t r = rev - LOBBY_DIFF_KEEP + 1; r < rev && s->hist_bytes > share; r++) {
        struct diff_line *old =
            &s->hist[((r % LOBBY_DIFF_KEEP) + LOBBY_DIFF_KEEP) % LOBBY_DIFF_KEEP];
        if (old->rev == r) {
            hist_drop(s, old);
        }
    }
}

static void hist_clear(struct seat *s)
{
    for (int i = 0; s->hist && i < LOBBY_DIFF_KEEP; i++) {
        free(s->hist[i].line);
        s->hist[i].line = NULL;
        s->hist[i].rev = -1;
    }
    s->hist_bytes = 0;
}

bool lobby__views_resend(struct room *room, struct lobby_peer *peer, int seat, int64_t from)
{
    const struct seat *s = &room->seats[seat];

    if (!s->hist || s->you_len == 0 || from > room->rev || room->rev - from > LOBBY_DIFF_KEEP) {
        return false;
    }
    for (int64_t r = from + 1; r <= room->rev; r++) {
        const struct diff_line *d = &s->hist[r % LOBBY_DIFF_KEEP];
        if (d->rev != r || !d->line) {
            return false;
        }
    }
    for (int64_t r = from + 1; r <= room->rev; r++) {
        const struct diff_line *d = &s->hist[r % LOBBY_DIFF_KEEP];
        lobby__out(room, peer, d->line, d->len);
    }
    return true;
}

/* The `diff` line of one recipient from the shared public ops and its own,
 * in a buffer of exactly its length (a seat keeps it for `resume`). */
static char *diff_line(const struct room *room, const struct seat *s, const char *pub,
                       size_t pub_len, const char *own, size_t own_len, size_t *ret_len)
{
    static const char head[] = "{\"ev\":\"diff\",\"room\":\"";
    static const char rev[] = "\",\"rev\":";
    static const char patch[] = ",\"patch\":[";
    static const char hash_key[] = "],\"hash\":\"";
    static const char tail[] = "\"}\n";
    char num[PROTO_DEC_MAX];
    size_t nd;
    const char *d = proto_dec(num, room->rev < 0 ? 0 : (uint64_t)room->rev, &nd);
    size_t code_len = strlen(room->code);
    size_t len = sizeof(head) - 1 + code_len + sizeof(rev) - 1 + nd + sizeof(patch) - 1 + pub_len +
                 (pub_len && own_len) + own_len + sizeof(hash_key) - 1 + PROTO_HASH_HEX_LEN +
                 sizeof(tail) - 1;
    char *line, *o;

    if (len > PROTO_OUT_LINE_MAX || !(line = malloc(len + 1))) {
        return NULL;
    }
    /* The line written straight into a buffer of its exact length. */
    o = proto_put(line, head, sizeof(head) - 1);
    o = proto_put(o, room->code, code_len);
    o = proto_put(o, rev, sizeof(rev) - 1);
    o = proto_put(o, d, nd);
    o = proto_put(o, patch, sizeof(patch) - 1);
    o = proto_put(o, pub, pub_len);
    if (pub_len && own_len) {
        *o++ = ',';
    }
    o = proto_put(o, own, own_len);
    o = proto_put(o, hash_key, sizeof(hash_key) - 1);
    hash_finish(room, s, o);
    o += PROTO_HASH_HEX_LEN;
    memcpy(o, tail, sizeof(tail));
    *ret_len = len;
    return line;
}

/* Everyone lost track (out of memory): the cache is dropped and every
 * member is closed, so that it resumes and gets a full state. */
static void publish_failed(struct room *room)
{
    lobby__views_reset(room);
    for (int i = 0; i < room->nseats; i++) {
        struct seat *s = &room->seats[i];
        s->you_len = 0;
        hist_clear(s);
        if (s->peer) {
            s->peer->close(s->peer);
        }
    }
    for (size_t k = 0; k < room->who.nspecs; k++) {
        room->who.specs[k]->close(room->who.specs[k]);
    }
}

/* Replaces the bytes [at, at + n) of part `p`'s text with the m bytes at
 * `with`. 0 or -ENOMEM (the text is as it was). */
static int part_splice(struct room_view *v, struct view_part *p, size_t at, size_t n,
                       const char *with, size_t m)
{
    size_t len = p->len - n + m;

    if (len + 1 > p->cap) {
        size_t cap = len + 1 + len / 4;
        char *b = game_text_alloc_data(cap);
        if (!b) {
            return -ENOMEM;
        }
        memcpy(b, p->text, p->len + 1);
        game_text_free_data(p->text);
        p->text = b;
        p->cap = cap;
    }
    memmove(p->text + at + m, p->text + at + n, p->len - at - n + 1);
    memcpy(p->text + at, with, m);
    p->len = len;
    v->bytes = v->bytes - n + m;
    return 0;
}

/* Test builds: the items a part kept are the section as written whole
 * now, or the game broke its promise (parts_changed(), or a log's seq()).
 * Leaves the scratch writer empty. */
static void items_check(struct room *room, struct view_part *p)
{
    struct game_text *w = &room->lobby->scratch;

    game_text_reset(w);
#ifdef CONCLAVE_CHECKED
    size_t nf = (size_t)part_fields(room, p);
    if (part_write(room, p) != 0 || w->len != p->len || memcmp(w->data, p->text, p->len) != 0 ||
        (nf > 0 && memcmp(room->lobby->field_at, p->field_end,
                          p->nitems * nf * sizeof(*p->field_end)) != 0)) {
        log_event(LOG_ERROR, "view_items_stale", "room=%s part=%s", room->code, p->key);
        abort();
    }
    game_text_reset(w);
#else
    (void)room;
    (void)p;
#endif
}

/* The ends kept in part `p` from item i's on (its fields' from field f
 * on), and every later item's, moved by the `delta` bytes item i's text
 * grew by. */
static void ends_move(struct view_part *p, int nf, uint32_t i, int f, size_t delta)
{
    for (uint32_t j = i; j < p->nitems; j++) {
        p->item_end[j] = (uint32_t)(p->item_end[j] + delta);
    }
    for (size_t k = (size_t)i * (size_t)nf + (size_t)f; k < (size_t)p->nitems * (size_t)nf; k++) {
        p->field_end[k] = (uint32_t)(p->field_end[k] + delta);
    }
}

/* Rewrites the fields `m` of item i of a part whose items have fields
 * (nf of them); writes their ops to `patch`. 1 when one changed, 0 when
 * none did, or a negative errno. */
static int publish_fields(struct room *room, struct view_part *p, int nf, uint32_t i, uint32_t m,
                          struct proto_text *patch)
{
    struct game_text *w = &room->lobby->scratch;
    const struct game_section *sec = &room->game->sections[p->section];
    uint32_t *end = &p->field_end[(size_t)i * (size_t)nf];
    size_t item_at = i == 0 ? 1 : p->item_end[i - 1] + 1;
    int any = 0;

    for (int f = 0; f < nf; f++) {
        if (!(m & (UINT32_C(1) << f))) {
            continue;
        }
        /* {"key":value, or ,"key":value */
        const char *key = sec->field_keys[f];
        size_t at = (f == 0 ? item_at + 1 : end[f - 1] + 1) + strlen(key) + 3;
        size_t n = end[f] - at;
        int rc;
        game_text_reset(w);
        sec->write_field(w, room->state, (int)i, f);
        rc = game_text_end(w);
        if (rc != 0) {
            return rc;
        }
        if (w->len == n && memcmp(w->data, p->text + at, n) == 0) {
            continue;
        }
        rc = proto_patch_diff_field(patch, p->key, (int)i, key, p->text + at, n, w->data, w->len);
        if (rc == 0) {
            rc = part_splice(&room->view, p, at, n, w->data, w->len);
        }
        if (rc != 0) {
            return rc;
        }
        ends_move(p, nf, i, f, w->len - n);
        any = 1;
    }
    return any;
}

/* Rewrites, in a part of items, the items not in `same` (of an item with
 * fields, the fields `fields` names); writes their ops to `patch`. 1 when
 * an item changed, 0 when none did, or a negative errno. */
static int publish_items(struct room *room, struct view_part *p, unsigned same,
                         const uint32_t *fields, struct proto_text *patch)
{
    struct game_text *w = &room->lobby->scratch;
    const struct game_section *sec = &room->game->sections[p->section];
    int nf = part_fields(room, p);
    uint32_t all = nf == 32 ? UINT32_MAX : (UINT32_C(1) << nf) - 1;
    uint32_t at_field[GAME_FIELDS_MAX];
    int any = 0;

    for (uint32_t i = 0; i < p->nitems; i++) {
        size_t at = i == 0 ? 1 : p->item_end[i - 1] + 1;
        size_t n = p->item_end[i] - at;
        int rc;
        if (same & (1u << i)) {
            continue;
        }
        if (nf > 0 && (fields[i] & all) != all) {
            rc = publish_fields(room, p, nf, i, fields[i] & all, patch);
            if (rc < 0) {
                return rc;
            }
            any |= rc;
            continue;
        }
        game_text_reset(w);
        if (nf > 0) {
            game_text_fields(w, sec, room->state, (int)i, at_field);
        } else {
            sec->write_item(w, room->state, (int)i);
        }
        rc = game_text_end(w);
        if (rc != 0) {
            return rc;
        }
        if (w->len == n && memcmp(w->data, p->text + at, n) == 0) {
            continue;
        }
        rc = proto_patch_diff_item(patch, p->key, (int)i, p->text + at, n, w->data, w->len);
        if (rc == 0) {
            rc = part_splice(&room->view, p, at, n, w->data, w->len);
        }
        if (rc != 0) {
            return rc;
        }
        /* The later items' ends move; this one's fields end anew. */
        ends_move(p, nf, i, nf, w->len - n);
        for (int f = 0; f < nf; f++) {
            p->field_end[(size_t)i * (size_t)nf + (size_t)f] = (uint32_t)(at + at_field[f]);
        }
        any = 1;
    }
    items_check(room, p);
    return any;
}

/* Rewrites a log section (game_section.seq) from the items it kept: the
 * oldest go from the front, and only the items appended since its text
 * was written are written and sent. 1 when it changed, 0 when it did
 * not, -EAGAIN when the kept items cannot be followed (the part is then
 * rewritten whole), or -ENOMEM. */
static int publish_log(struct room *room, struct view_part *p, struct proto_text *patch)
{
    struct game_text *w = &room->lobby->scratch;
    const struct game_section *sec = &room->game->sections[p->section];
    int n = sec->nitems(room->state);
    uint32_t seq = sec->seq(room->state);
    uint32_t added = seq - p->seq;
    uint32_t keep, drop;
    int rc;

    if (n < 0 || n > LOBBY_ITEMS_MAX || (p->nitems == 0 && p->len != 2)) {
        return -EAGAIN; /* items not kept */
    }
    keep = added < (uint32_t)n ? (uint32_t)n - added : 0;
    if (keep > p->nitems) {
        return -EAGAIN;
    }
    drop = p->nitems - keep;
    if (drop == 0 && keep == (uint32_t)n) {
        p->seq = seq;
        return 0;
    }
    if ((uint32_t)n > p->item_cap) {
        uint32_t *ends = realloc(p->item_end, (size_t)n * sizeof(*ends));
        if (!ends) {
            return -EAGAIN;
        }
        p->item_end = ends;
        p->item_cap = (uint32_t)n;
    }
    /* The oldest go, each from the front. */
    for (uint32_t i = 0; i < drop; i++) {
        rc = proto_patch_item_op(patch, p->key, 0, NULL, 0);
        if (rc != 0) {
            return rc;
        }
    }
    if (drop > 0) {
        /* Their text with their commas: from just after "[" through the
         * comma after the last to go, or up to "]" when none stays. */
        size_t gone = keep > 0 ? p->item_end[drop - 1] : p->len - 2;
        if (part_splice(&room->view, p, 1, gone, "", 0) != 0) {
            return -ENOMEM;
        }
        for (uint32_t i = 0; i < keep; i++) {
            p->item_end[i] = (uint32_t)(p->item_end[drop + i] - gone);
        }
    }
    p->nitems = keep;
    for (uint32_t i = keep; i < (uint32_t)n; i++) {
        game_text_reset(w);
        sec->write_item(w, room->state, (int)i);
        rc = game_text_end(w);
        if (rc == 0) {
            rc = proto_patch_item_op(patch, p->key, (int)i, w->data, w->len);
        }
        if (rc == 0 && i > 0) {
            rc = part_splice(&room->view, p, p->len - 1, 0, ",", 1);
        }
        if (rc == 0) {
            rc = part_splice(&room->view, p, p->len - 1, 0, w->data, w->len);
        }
        if (rc != 0) {
            return rc;
        }
        p->item_end[i] = (uint32_t)(p->len - 1);
        p->nitems = i + 1;
    }
    p->seq = seq;
    items_check(room, p);
    return 1;
}

/* Rewrites the parts `changed` names; writes their ops to `patch`. */
static int publish_public(struct room *room, uint64_t changed, unsigned items_same,
                          const uint32_t *fields, struct proto_text *patch)
{
    struct room_view *v = &room->view;
    struct game_text *w = &room->lobby->scratch;
    size_t first = v->nparts;

    for (size_t i = 0; i < v->nparts; i++) {
        struct view_part *p = &v->parts[i];
        int rc;
        uint64_t bit = p->section == PART_CLOCK ? LOBBY_CHANGED_CLOCK
                       : p->section < 0         ? 0
                                                : UINT64_C(1) << p->section;
        if (!(changed & bit)) {
            continue;
        }
        if (p->section >= 0 && room->game->sections[p->section].seq) {
            rc = publish_log(room, p, patch);
            if (rc != -EAGAIN) {
                if (rc < 0) {
                    return rc;
                }
                if (rc > 0 && i < first) {
                    first = i;
                }
                continue;
            }
        } else if (p->nitems > 0 && items_same &&
                   room->game->sections[p->section].nitems(room->state) == (int)p->nitems) {
            rc = publish_items(room, p, items_same, fields, patch);
            if (rc < 0) {
                return rc;
            }
            if (rc > 0 && i < first) {
                first = i;
            }
            continue;
        }
        rc = part_write(room, p);
        if (rc != 0) {
            return rc;
        }
        if (w->len == p->len && memcmp(w->data, p->text, w->len) == 0) {
            /* Named by the mask, but equal: nothing to send or hash. */
            continue;
        }
        rc = proto_patch_diff_text(patch, p->key, p->text, p->len, w->data, w->len);
        if (rc != 0) {
            return rc;
        }
        rc = part_keep(room, p);
        if (rc != 0) {
            return rc;
        }
        if (i < first) {
            first = i;
        }
    }
    if (first < v->nparts) {
        hash_public(room, first);
    }
    return 0;
}

/* Seat i's diff line after the public ops `pub`: with its "you" written
 * and diffed again when `changed` names it and `same` does not vouch for
 * it. NULL on ENOMEM. */
static char *publish_seat(struct room *room, int i, uint64_t changed, bool same, const char *pub,
                          size_t pub_len, size_t *ret_len)
{
    struct seat *s = &room->seats[i];
    struct game_text *w = &room->lobby->scratch;
    struct proto_text *own = &room->lobby->own;

    proto_text_reset(own);
#ifdef CONCLAVE_CHECKED
    /* Test builds: a "you" the game vouched for is the one kept, or its
     * parts_changed() broke its promise. */
    if ((changed & GAME_CHANGED_YOU) && same &&
        (you_write(room, i) != 0 || w->len != s->you_len ||
         memcmp(w->data, s->you_text, w->len) != 0)) {
        log_event(LOG_ERROR, "view_you_stale", "room=%s seat=%d", room->code, i);
        abort();
    }
#endif
    if ((changed & GAME_CHANGED_YOU) && !same) {
        if (you_write(room, i) != 0) {
            return NULL;
        }
        if (w->len != s->you_len || memcmp(w->data, s->you_text, w->len) != 0) {
            if (proto_patch_diff_text(own, "you", s->you_text, s->you_len, w->data, w->len) != 0 ||
                own->err != 0) {
                return NULL;
            }
            if (text_keep(w, &s->you_text, &s->you_len, &s->you_cap) != 0) {
                return NULL;
            }
        }
    }
    return diff_line(room, s, pub, pub_len, own->data ? own->data : "", own->len, ret_len);
}

void lobby__views_publish(struct room *room, const struct room_commit *c)
{
    struct proto_text *patch = &room->lobby->patch;
    uint64_t changed = c->changed;
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
                lobby__views_send_state(room, room->seats[i].peer, room->clock.since);
            }
        }
        for (size_t k = 0; k < room->who.nspecs; k++) {
            lobby__views_send_state(room, room->who.specs[k], room->clock.since);
        }
        return;
    }
    proto_text_reset(patch);
    if (publish_public(room, changed, c->items_same, c->fields, patch) != 0 || patch->err != 0) {
        publish_failed(room);
        return;
    }
    pub = patch->data ? patch->data : "";
    for (int i = 0; i < room->nseats; i++) {
        struct seat *s = &room->seats[i];
        char *line;
        size_t len;
        if (s->kind != SEAT_HUMAN) {
            continue;
        }
        if (s->you_len == 0) {
            /* A seat without a published view (a player back from a bot)
             * gets the whole of it. */
            hist_clear(s);
            if (s->peer) {
                lobby__views_send_state(room, s->peer, room->clock.since);
            }
            continue;
        }
        line = publish_seat(room, i, changed, c->you_same & (1u << i), pub, patch->len, &len);
        if (!line) {
            publish_failed(room);
            return;
        }
        lobby__out(room, s->peer, line, len);
        hist_push(room, s, room->rev, line, len);
    }
    if (room->who.nspecs > 0) {
        size_t len;
        char *line = diff_line(room, NULL, pub, patch->len, "", 0, &len);
        if (!line) {
            publish_failed(room);
            return;
        }
        for (size_t k = 0; k < room->who.nspecs; k++) {
            lobby__out(room, room->who.specs[k], line, len);
        }
        free(line);
    }
}

/* ---- Seats ---- */

void lobby__seat_forget(struct seat *s)
{
    game_text_free_data(s->you_text);
    s->you_text = NULL;
    s->you_len = 0;
    s->you_cap = 0;
    hist_clear(s);
    free(s->hist);
    s->hist = NULL;
}
