/* SPDX-License-Identifier: MIT */
/*
 * review.c - finished games after the end: their records, the list of the
 * latest public ones, and the review of one at any rev. A finished game is
 * rebuilt aside from its journal (or from a record a client sends), in a
 * lobby of its own that is restoring: each record is committed through
 * event.c's one path, as at a restart, so every view and hash is the one
 * play produced. The last few rebuilt games are kept, each where its
 * replay stopped, so that stepping forward through a game commits one more
 * record rather than the whole journal again.
 */
#include "lobby_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

/* ---- The latest public games to finish ---- */

void lobby__ended_note(struct room *room)
{
    struct lobby *lobby = room->lobby;
    struct ended_game *slot = NULL;

    if (!room->is_public) {
        return;
    }
    for (size_t i = 0; i < LOBBY_ENDED_LIST; i++) {
        struct ended_game *e = &lobby->ended[i];
        if (strcmp(e->code, room->code) == 0 || !e->code[0]) {
            slot = e;
            break;
        }
        if (!slot || e->ended_at < slot->ended_at) {
            slot = e;
        }
    }
    if (slot->code[0] && strcmp(slot->code, room->code) != 0 && slot->ended_at > room->ended_at) {
        return; /* older than every one kept */
    }
    memcpy(slot->code, room->code, sizeof(slot->code));
    slot->game = room->game;
    slot->ended_at = room->ended_at;
    slot->nseats = (uint8_t)room->nseats;
    for (int i = 0; i < room->nseats; i++) {
        memcpy(slot->names[i], room->seats[i].name, sizeof(slot->names[i]));
    }
}

static int ended_cmp(const void *a, const void *b)
{
    const struct ended_game *x = *(const struct ended_game *const *)a;
    const struct ended_game *y = *(const struct ended_game *const *)b;

    return (x->ended_at < y->ended_at) - (x->ended_at > y->ended_at);
}

json_t *lobby__ended_json(struct lobby *lobby, uint64_t now)
{
    const struct ended_game *sorted[LOBBY_ENDED_LIST];
    size_t n = 0;
    json_t *a = json_array();

    for (size_t i = 0; i < LOBBY_ENDED_LIST; i++) {
        struct ended_game *e = &lobby->ended[i];
        if (e->code[0] && !lobby_holds(lobby, e->code)) {
            e->code[0] = '\0'; /* dropped since */
        }
        if (e->code[0]) {
            sorted[n++] = e;
        }
    }
    qsort(sorted, n, sizeof(sorted[0]), ended_cmp);
    for (size_t i = 0; a && i < n; i++) {
        const struct ended_game *e = sorted[i];
        json_t *names = json_array();
        for (int s = 0; names && s < e->nseats; s++) {
            if (json_array_append_new(names, json_string(e->names[s])) != 0) {
                json_decref(names);
                names = NULL;
            }
        }
        json_t *o =
            names ? json_pack("{s:s, s:s, s:o, s:I}", "room", e->code, "game", e->game->id, "seats",
                              names, "ago",
                              (json_int_t)(now > e->ended_at ? (now - e->ended_at) / 1000 : 0))
                  : NULL;
        if (!o || json_array_append_new(a, o) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    return a;
}

/* ---- Games rebuilt aside ---- */

/* A kept game's key: its room code, or for a client's record '#' and the
 * hex of the first 16 bytes of the record's BLAKE2b. */
#define ASIDE_KEY_LEN 33

struct review_aside {
    char key[ASIDE_KEY_LEN + 1];
    struct lobby *lobby; /* its own, restoring, without a store */
    struct room *room;
    json_t *records;    /* the journal, or the records made of a client's record */
    size_t next;        /* the next record to commit */
    int64_t last;       /* the game's last rev */
    const json_t *step; /* the record that made room->rev (borrowed from records) */
    uint64_t used;      /* for the least recently used to go first */
};

static void aside_free(struct review_aside *a)
{
    if (a) {
        lobby_free(a->lobby);
        json_decref(a->records);
        free(a);
    }
}

void lobby__reviews_free(struct lobby *lobby)
{
    for (size_t i = 0; i < LOBBY_REVIEW_KEEP; i++) {
        aside_free(lobby->reviews[i]);
        lobby->reviews[i] = NULL;
    }
}

void lobby__review_forget(struct lobby *lobby, const char *code)
{
    for (size_t i = 0; i < LOBBY_REVIEW_KEEP; i++) {
        if (lobby->reviews[i] && strcmp(lobby->reviews[i]->key, code) == 0) {
            aside_free(lobby->reviews[i]);
            lobby->reviews[i] = NULL;
        }
    }
}

/* A game rebuilt from `records` (stolen) up to its start: NULL with a
 * message when it cannot be. */
static struct review_aside *aside_new(struct lobby *lobby, const char *key, json_t *records,
                                      char *msg)
{
    struct review_aside *a = calloc(1, sizeof(*a));
    const char *typed = json_string_value(json_object_get(json_array_get(records, 0), "room"));
    char rcode[PROTO_ROOM_CODE_LEN + 1];
    const json_t *rec;
    size_t i;

    if (!a || !(a->lobby = lobby_new(&lobby->cfg))) {
        free(a);
        json_decref(records);
        snprintf(msg, GAME_MSG_MAX, "out of memory");
        return NULL;
    }
    a->records = records;
    snprintf(a->key, sizeof(a->key), "%s", key);
    a->lobby->restoring = true;
    json_array_foreach(records, i, rec) {
        a->last += lobby__record_publishes(rec);
    }
    if (!typed || proto_room_code_parse(typed, rcode) != 0) {
        snprintf(msg, GAME_MSG_MAX, "the journal does not begin with a valid create record");
    } else if (!(a->room = lobby__room_new(a->lobby, rcode))) {
        snprintf(msg, GAME_MSG_MAX, "out of memory");
    } else {
        return a;
    }
    aside_free(a);
    return NULL;
}

/* Commits records up to where the room is at `rev` and the next record
 * would move it on (the end, and anything else that does not change the
 * views, is committed with the last step). 0, or -1 with a message. */
static int aside_advance(struct review_aside *a, int64_t rev, uint64_t now, char *msg)
{
    struct room_commit c = {.now = now, .msg = msg};
    size_t n = json_array_size(a->records), from = a->next;

    while (a->next < n) {
        const json_t *rec = json_array_get(a->records, a->next);
        bool moves = lobby__record_publishes(rec);
        if (moves && a->room->rev == rev) {
            break;
        }
        if (lobby__replay_one(a->room, rec, a->next, &c) != 0) {
            return -1;
        }
        a->step = moves ? rec : a->step;
        a->next++;
    }
    if (a->next != from) {
        /* Nothing is published while restoring: the views are built
         * again, once, for the position reached. */
        lobby__views_reset(a->room);
    }
    return 0;
}

/* Where a finished game, awake or asleep, is held: PROTO_OK, or
 * room_not_found or game_not_over with a message. */
static int finished_held(struct lobby *lobby, const char *code, char *msg)
{
    const struct room *room = lobby__room_find(lobby, code);
    const struct sleeper *z = room ? NULL : lobby__sleeper_find(lobby, code);

    if (!room && !z) {
        snprintf(msg, GAME_MSG_MAX, "no room %s", code);
        return PROTO_ERR_ROOM_NOT_FOUND;
    }
    if ((room ? room->status : (enum room_status)z->status) != ROOM_ENDED) {
        snprintf(msg, GAME_MSG_MAX, "the game in %s is not over; it may be reviewed once it ends",
                 code);
        return PROTO_ERR_GAME_NOT_OVER;
    }
    return PROTO_OK;
}

static json_t *record_journal(const json_t *record, char *msg);

/* The game kept under `key` rebuilt at `rev` (-1: its last): the one kept
 * aside when it is there and not past `rev`, else rebuilt from room
 * `key`'s journal (`record` NULL) or from `record`. PROTO_OK with *ret,
 * or an error with a message: bad_request (a record that is none, a rev
 * the game does not have), illegal_action (a record's step the rules
 * refuse), internal (a journal that cannot be read or replayed). */
static int aside_get(struct lobby *lobby, const char *key, const json_t *record, int64_t rev,
                     uint64_t now, struct review_aside **ret, char *msg)
{
    struct review_aside **slot = NULL;

    for (size_t i = 0; i < LOBBY_REVIEW_KEEP; i++) {
        struct review_aside *a = lobby->reviews[i];
        if (a && strcmp(a->key, key) == 0) {
            slot = &lobby->reviews[i];
            break;
        }
        if (!slot || (*slot && (!a || a->used < (*slot)->used))) {
            slot = &lobby->reviews[i]; /* an empty one, else the least recently used */
        }
    }
    if (*slot && (strcmp((*slot)->key, key) != 0 || (rev >= 0 && (*slot)->room->rev > rev))) {
        aside_free(*slot);
        *slot = NULL;
    }
    if (!*slot) {
        json_t *records = NULL;
        if (record) {
            if (!(records = record_journal(record, msg))) {
                return PROTO_ERR_BAD_REQUEST;
            }
        } else {
            int err = lobby->has_store && lobby->store.read
                          ? lobby->store.read(lobby->store.ctx, key, &records)
                          : -ENOENT;
            if (err != 0) {
                snprintf(msg, GAME_MSG_MAX, "the game's journal cannot be read (%s)",
                         strerror(-err));
                return PROTO_ERR_INTERNAL;
            }
        }
        if (!(*slot = aside_new(lobby, key, records, msg))) {
            return PROTO_ERR_INTERNAL;
        }
    }
    struct review_aside *a = *slot;
    a->used = ++lobby->reviews_used;
    if (rev > a->last) {
        snprintf(msg, GAME_MSG_MAX, "the game has revs 1 to %lld", (long long)a->last);
        return PROTO_ERR_BAD_REQUEST;
    }
    if (aside_advance(a, rev < 0 ? a->last : rev, now, msg) != 0) {
        aside_free(a);
        *slot = NULL;
        return record ? PROTO_ERR_ILLEGAL_ACTION : PROTO_ERR_INTERNAL;
    }
    *ret = a;
    return PROTO_OK;
}

/* The finished game of room `code`, awake or asleep, at `rev`, as
 * aside_get() gives it; room_not_found or game_not_over too. */
static int aside_of_room(struct lobby *lobby, const char *code, int64_t rev, uint64_t now,
                         struct review_aside **ret, char *msg)
{
    int rc = finished_held(lobby, code, msg);

    return rc != PROTO_OK ? rc : aside_get(lobby, code, NULL, rev, now, ret, msg);
}

/* A client's record at `rev`, kept under its digest, as aside_get() gives
 * it. */
static int aside_of_record(struct lobby *lobby, const json_t *record, int64_t rev, uint64_t now,
                           struct review_aside **ret, char *msg)
{
    unsigned char h[16];
    char key[ASIDE_KEY_LEN + 1] = "#";
    char *text = json_dumps(record, JSON_COMPACT | JSON_SORT_KEYS);

    if (!text) {
        snprintf(msg, GAME_MSG_MAX, "out of memory");
        return PROTO_ERR_INTERNAL;
    }
    crypto_generichash(h, sizeof(h), (const unsigned char *)text, strlen(text), NULL, 0);
    free(text);
    proto_hex(h, sizeof(h), key + 1);
    return aside_get(lobby, key, record, rev, now, ret, msg);
}

/* The journal records a client's record stands for: its create (a room of
 * its own, "000000", no clock checkpoints), a seat record per seat, the
 * start, and one record per step. NULL with a message when it is not a
 * record. */
static json_t *record_journal(const json_t *record, char *msg)
{
    const json_t *seats = json_object_get(record, "seats");
    const json_t *steps = json_object_get(record, "actions");
    const json_t *clock = json_object_get(record, "clock");
    const json_t *step, *s;
    json_t *out = json_array();
    size_t i;

    if (!json_is_object(record) || !json_is_string(json_object_get(record, "game")) ||
        !json_is_object(json_object_get(record, "options")) ||
        !json_is_string(json_object_get(record, "seed")) || !json_is_array(seats) ||
        json_array_size(seats) < 1 || json_array_size(seats) > GAME_MAX_SEATS ||
        !json_is_array(steps)) {
        snprintf(msg, GAME_MSG_MAX,
                 "\"record\" is a game's record: {\"game\", \"options\", \"seats\", \"seed\", "
                 "\"actions\"}");
        json_decref(out);
        return NULL;
    }
    json_t *create = json_pack(
        "{s:s, s:s, s:O, s:O, s:b, s:I, s:O}", "t", "create", "room", "000000", "game",
        json_object_get(record, "game"), "options", json_object_get(record, "options"), "public", 0,
        "seats", (json_int_t)json_array_size(seats), "seed", json_object_get(record, "seed"));
    if (create && clock) {
        json_object_set(create, "clock", (json_t *)clock);
    }
    json_array_append_new(out, create);
    json_array_foreach(seats, i, s) {
        /* Every seat a player's, so that an undo of one a bot kept at the
         * end replays; the names are the record's. */
        const char *name = json_string_value(json_object_get(s, "name"));
        json_array_append_new(out,
                              json_pack("{s:s, s:I, s:s, s:s}", "t", "seat", "seat", (json_int_t)i,
                                        "kind", "human", "name", name ? name : ""));
    }
    json_array_append_new(out, json_pack("{s:s}", "t", "start"));
    json_array_foreach(steps, i, step) {
        const json_t *seat = json_object_get(step, "seat");
        const json_t *action = json_object_get(step, "action");
        const char *deed = json_string_value(json_object_get(step, "timeout"));
        json_t *r;
        if (!json_is_integer(seat)) {
            r = NULL;
        } else if (action) {
            r = json_pack("{s:s, s:O, s:O}", "t", "act", "seat", seat, "action", action);
        } else if (json_is_true(json_object_get(step, "undo"))) {
            r = json_pack("{s:s, s:O}", "t", "undo", "seat", seat);
        } else if (deed) {
            r = json_pack("{s:s, s:O, s:i, s:s}", "t", "timeout", "seat", seat, "ms", 0, "do",
                          deed);
        } else {
            r = NULL;
        }
        if (!r) {
            snprintf(msg, GAME_MSG_MAX,
                     "step %zu of the record is not {\"seat\", \"action\"}, an undo or a timeout",
                     i + 1);
            json_decref(out);
            return NULL;
        }
        json_array_append_new(out, r);
    }
    if (json_array_size(out) != 2 + json_array_size(seats) + json_array_size(steps)) {
        snprintf(msg, GAME_MSG_MAX, "out of memory");
        json_decref(out);
        return NULL;
    }
    return out;
}

/* ---- record ---- */

/* The game's actions, [{"seat", "action"}] (a timeout that lost or skipped:
 * {"seat", "timeout": "lose"|"skip"}; an undo: {"seat", "undo": true}),
 * from its journal records. NULL on ENOMEM. */
static json_t *record_actions(const json_t *records)
{
    json_t *actions = json_array();
    const json_t *r;
    size_t i;

    json_array_foreach(records, i, r) {
        const char *t = json_string_value(json_object_get(r, "t"));
        const char *deed = json_string_value(json_object_get(r, "do"));
        json_t *a = NULL;
        if (t && strcmp(t, "act") == 0) {
            a = json_pack("{s:O, s:O}", "seat", json_object_get(r, "seat"), "action",
                          json_object_get(r, "action"));
        } else if (t && strcmp(t, "undo") == 0) {
            /* Taken back: the seat's last action is undone. */
            a = json_pack("{s:O, s:b}", "seat", json_object_get(r, "seat"), "undo", 1);
        } else if (t && strcmp(t, "timeout") == 0 && deed &&
                   (strcmp(deed, "lose") == 0 || strcmp(deed, "skip") == 0)) {
            /* A timeout that changed the game is one of its steps. */
            a = json_pack("{s:O, s:s}", "seat", json_object_get(r, "seat"), "timeout", deed);
        } else {
            continue;
        }
        if (actions && json_array_append_new(actions, a) != 0) {
            json_decref(actions);
            actions = NULL;
        }
    }
    return actions;
}

/* The seats of a room, [{"name", "kind"}]. NULL on ENOMEM. */
static json_t *seats_json(const struct room *room)
{
    json_t *seats = json_array();

    for (int i = 0; seats && i < room->nseats; i++) {
        if (json_array_append_new(seats,
                                  json_pack("{s:s, s:s}", "name", room->seats[i].name, "kind",
                                            lobby__kind_names[room->seats[i].kind])) != 0) {
            json_decref(seats);
            seats = NULL;
        }
    }
    return seats;
}

/* The record of a finished room, from its journal records. */
static json_t *record_json(const struct room *room, const json_t *records)
{
    char hex[GAME_SEED_BYTES * 2 + 1];
    json_t *rec;

    proto_hex(room->seed, sizeof(room->seed), hex);
    rec = json_pack("{s:s, s:O, s:o, s:s, s:o}", "game", room->game->id, "options", room->options,
                    "seats", seats_json(room), "seed", hex, "actions", record_actions(records));
    sodium_memzero(hex, sizeof(hex));
    if (rec && room->clock.rules.kind) {
        json_t *clock = lobby__clock_rules_json(&room->clock.rules);
        if (!clock || json_object_set_new(rec, "clock", clock) != 0) {
            json_decref(rec);
            rec = NULL;
        }
    }
    return rec;
}

/* Sends a reply built as text, or says why it could not be. */
static int reply_text(struct lobby_peer *peer, struct proto_text *t, const char *what, char *msg)
{
    size_t len = 0;
    char *line;

    errno = ENOMEM;
    line = proto_text_take(t, PROTO_OUT_LINE_MAX, &len);
    if (!line) {
        if (errno == E2BIG) {
            snprintf(msg, GAME_MSG_MAX, "the %s is longer than the %u bytes a line may hold", what,
                     PROTO_OUT_LINE_MAX);
        }
        return PROTO_ERR_INTERNAL;
    }
    lobby_peer_send(peer, line, len);
    free(line);
    return PROTO_OK;
}

/* Writes {"re":id,"ok":true,"<key>": and the members of `head` (stolen)
 * without its closing brace. */
static void reply_head(struct proto_text *t, const json_t *id, const char *key, json_t *head)
{
    char *text = head ? json_dumps(head, JSON_COMPACT) : NULL;

    proto_text_str(t, "{");
    if (id) {
        proto_text_str(t, "\"re\":");
        lobby__id_add(t, id);
        proto_text_str(t, ",");
    }
    proto_text_str(t, "\"ok\":true,\"");
    proto_text_str(t, key);
    proto_text_str(t, "\":");
    if (text) {
        proto_text_add(t, text, strlen(text) - 1);
    } else {
        t->err = -ENOMEM;
    }
    free(text);
    json_decref(head);
}

/* The room code a request names (typed loosely): PROTO_OK, or
 * room_not_found with a message. */
static int code_wanted(const json_t *jroom, char code[PROTO_ROOM_CODE_LEN + 1], char *msg)
{
    const char *typed = json_string_value(jroom);

    if (!typed) {
        snprintf(msg, GAME_MSG_MAX, "\"room\" must be a room code string");
        return PROTO_ERR_BAD_REQUEST;
    }
    if (proto_room_code_parse(typed, code) != 0) {
        snprintf(msg, GAME_MSG_MAX, "no room %.12s", typed);
        return PROTO_ERR_ROOM_NOT_FOUND;
    }
    return PROTO_OK;
}

int lobby_record(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *jroom = json_object_get(rq->args, "room");
    char *msg = rq->msg;
    char code[PROTO_ROOM_CODE_LEN + 1];
    struct review_aside *a = NULL;
    int rc;

    if (!jroom) {
        if (!peer->room) {
            return PROTO_ERR_NOT_IN_ROOM;
        }
        memcpy(code, peer->room->code, sizeof(code));
    } else if ((rc = code_wanted(jroom, code, msg)) != PROTO_OK) {
        return rc;
    }
    if ((rc = aside_of_room(lobby, code, -1, rq->now, &a, msg)) != PROTO_OK) {
        if (rc == PROTO_ERR_GAME_NOT_OVER) {
            snprintf(msg, GAME_MSG_MAX, "the record is available once the game has ended");
        }
        return rc;
    }
    json_t *reply = proto_reply_ok(rq->id);
    json_t *rec = record_json(a->room, a->records);
    char *line = NULL;
    size_t len = 0;
    errno = ENOMEM;
    if (reply && rec && json_object_set_new(reply, "record", rec) == 0) {
        rec = NULL;
        line = proto_line_dump(reply, &len);
    }
    json_decref(rec);
    json_decref(reply);
    if (!line) {
        /* Whatever its size, the request is answered: a record too big
         * for one line says so and names the limit. */
        if (errno == E2BIG) {
            snprintf(msg, GAME_MSG_MAX,
                     "the record is longer than the %u bytes a line may hold; the room's "
                     "journal keeps it",
                     PROTO_OUT_LINE_MAX);
        }
        return PROTO_ERR_INTERNAL;
    }
    lobby_peer_send(peer, line, len);
    free(line);
    return PROTO_OK;
}

/* ---- review ---- */

/* Writes the review of `a` at its room's rev as a whole line: a reply to
 * `id`, or (`id` NULL) an answer of its own. */
static void review_write(struct review_aside *a, const json_t *id, struct proto_text *t)
{
    const struct room *room = a->room;
    char hex[GAME_SEED_BYTES * 2 + 1];

    proto_hex(room->seed, sizeof(room->seed), hex);
    json_t *head = json_pack(
        "{s:o, s:s, s:o, s:I, s:i, s:I, s:O, s:s, s:s}", "room",
        a->key[0] != '#' ? json_string(a->key) : json_null(), "game", room->game->id, "seats",
        seats_json(room), "rev", (json_int_t)room->rev, "first", 1, "last", (json_int_t)a->last,
        "step", a->step ? a->step : json_null(), "seed", hex, "seed_commit", room->seed_commit);
    sodium_memzero(hex, sizeof(hex));
    reply_head(t, id, "review", head);
    proto_text_str(t, ",");
    if (lobby__views_review(a->room, t) != 0) {
        t->err = -ENOMEM;
    }
    proto_text_str(t, "}}\n");
}

/* The rev a request asks for (-1: the last): PROTO_OK, or bad_request. */
static int rev_wanted(const json_t *jrev, int64_t *rev, char *msg)
{
    if (jrev && (!json_is_integer(jrev) || json_integer_value(jrev) < 1)) {
        snprintf(msg, GAME_MSG_MAX, "\"rev\" must be an integer, 1 or more");
        return PROTO_ERR_BAD_REQUEST;
    }
    *rev = jrev ? (int64_t)json_integer_value(jrev) : -1;
    return PROTO_OK;
}

int lobby_review(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *jroom = json_object_get(rq->args, "room");
    const json_t *record = json_object_get(rq->args, "record");
    char *msg = rq->msg;
    char code[PROTO_ROOM_CODE_LEN + 1];
    struct review_aside *a = NULL;
    struct proto_text t = {0};
    int64_t rev;
    int rc;

    if (!jroom == !record) {
        snprintf(msg, GAME_MSG_MAX, "a review names a \"room\" or carries a \"record\"");
        return PROTO_ERR_BAD_REQUEST;
    }
    if ((rc = rev_wanted(json_object_get(rq->args, "rev"), &rev, msg)) != PROTO_OK) {
        return rc;
    }
    if (jroom) {
        if ((rc = code_wanted(jroom, code, msg)) == PROTO_OK) {
            rc = aside_of_room(lobby, code, rev, rq->now, &a, msg);
        }
    } else {
        rc = aside_of_record(lobby, record, rev, rq->now, &a, msg);
    }
    if (rc != PROTO_OK) {
        return rc;
    }
    review_write(a, rq->id, &t);
    return reply_text(peer, &t, "review", msg);
}

int lobby_review_text(struct lobby *lobby, const char *body, size_t len, int64_t rev, uint64_t now,
                      char **ret_text, size_t *ret_len)
{
    char msg[GAME_MSG_MAX] = "";
    json_error_t jerr;
    struct review_aside *a = NULL;
    struct proto_text t = {0};
    json_t *record = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    int rc;

    if (!json_is_object(record)) {
        snprintf(msg, sizeof(msg), "the body is not a game's record (JSON object): %.120s",
                 record ? "not an object" : jerr.text);
        rc = PROTO_ERR_BAD_REQUEST;
    } else if (rev == 0 || rev < -1) {
        snprintf(msg, sizeof(msg), "\"rev\" must be an integer, 1 or more");
        rc = PROTO_ERR_BAD_REQUEST;
    } else {
        rc = aside_of_record(lobby, record, rev, now, &a, msg);
    }
    json_decref(record);
    if (rc == PROTO_OK) {
        review_write(a, NULL, &t);
        if ((*ret_text = proto_text_take(&t, PROTO_OUT_LINE_MAX, ret_len))) {
            return PROTO_OK;
        }
        snprintf(msg, sizeof(msg), "the review is longer than the %u bytes an answer may hold",
                 PROTO_OUT_LINE_MAX);
        rc = PROTO_ERR_INTERNAL;
    }
    json_t *err = proto_reply_error(NULL, rc, msg[0] ? msg : proto_err_message(rc));
    *ret_text = err ? proto_line_dump(err, ret_len) : NULL;
    json_decref(err);
    return rc;
}
