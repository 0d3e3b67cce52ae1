/* SPDX-License-Identifier: MIT */
/*
 * event.c - the room's events and the one path that commits them.
 *
 * Every change of a room is an event of ROOM_EVENT_MAP (lobby_int.h): a
 * player's request, a bot's move or the server's own decision. Each event
 * has an encoder (its journal record), a decoder (the record back), an
 * optional check (what must hold, and the work that may fail, done where
 * nothing shows: an action is tried on the lobby's spare state, a start builds
 * its game aside) and an apply that cannot fail. lobby__event_commit() runs
 * them in that order, appending the record between check and apply, so a
 * record that is not taken leaves the room exactly as it was. Restoring a
 * room from its journal is decoding each record and committing it through
 * the same function (the lobby then writes no journal and sends nothing).
 * What a change means for the members (the room event, the views' diffs,
 * the end of the game, the bots) is gathered in a struct room_commit and
 * done once by lobby__commit_tail(), after the caller's reply.
 */
#include "lobby_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "log.h"

/* ---- Records ---- */

/* A record written as a jansson object: its compact line without the
 * newline. NULL (errno set) when it cannot be; steals `rec`. */
static char *record_text(json_t *rec, size_t *ret_len)
{
    char *line;

    if (!rec) {
        errno = ENOMEM;
        return NULL;
    }
    line = proto_line_dump(rec, ret_len);
    json_decref(rec);
    if (line) {
        line[--*ret_len] = '\0'; /* the store takes the line without its newline */
    } else if (errno == EINVAL) {
        errno = EDOM; /* a real number, which the wire never carries */
    }
    return line;
}

/* A seat number of `room` in member "seat" of `rec`, -1 allowed when
 * `nobody` is. -2 when it is missing or out of range. */
static int record_seat(const struct room *room, const json_t *rec, bool nobody)
{
    const json_t *js = json_object_get(rec, "seat");

    if (!json_is_integer(js) || json_integer_value(js) < (nobody ? -1 : 0) ||
        json_integer_value(js) >= room->nseats) {
        return -2;
    }
    return (int)json_integer_value(js);
}

/* A bot level of a record, as this server runs it: levels stronger than
 * it runs play at its strongest; journals from before bot levels have
 * none and get `dflt`. */
static enum bot_level record_level(const struct room *room, const json_t *j, enum bot_level dflt)
{
    int level = bot_level_parse(json_string_value(j));
    enum bot_level l = level >= 0 ? (enum bot_level)level : dflt;

    return l > room->lobby->cfg.bot_level_max ? room->lobby->cfg.bot_level_max : l;
}

/* The milliseconds a record charges the clocks ("ms"; 0 without). 0, or
 * -1 when it is not an integer of 0 or more. */
static int record_ms(const json_t *rec, int64_t *ms)
{
    const json_t *j = json_object_get(rec, "ms");

    *ms = json_is_integer(j) ? (int64_t)json_integer_value(j) : 0;
    return (j && !json_is_integer(j)) || *ms < 0 ? -1 : 0;
}

/* ---- create ---- */

static char *create_encode(const struct room *room, const struct room_event *ev, size_t *len)
{
    char seed_hex[GAME_SEED_BYTES * 2 + 1];
    json_t *rec;

    proto_hex(ev->create.seed, sizeof(ev->create.seed), seed_hex);
    rec = json_pack("{s:s, s:s, s:s, s:O, s:b, s:s, s:i, s:s}", "t", "create", "room", room->code,
                    "game", ev->create.game->id, "options", ev->create.options, "public",
                    ev->create.is_public, "bot_level", bot_level_names[ev->create.bot_level],
                    "seats", ev->create.nseats, "seed", seed_hex);
    sodium_memzero(seed_hex, sizeof(seed_hex));
    if (rec && ev->create.undo_off && json_object_set_new(rec, "undo", json_false()) != 0) {
        json_decref(rec);
        rec = NULL;
    }
    if (rec && ev->create.clock.kind) {
        json_t *clock = lobby__clock_rules_json(&ev->create.clock);
        if (!clock || json_object_set_new(rec, "clock", clock) != 0) {
            json_decref(rec);
            rec = NULL;
        }
    }
    return record_text(rec, len);
}

static int create_decode(const struct room *room, const json_t *rec, struct room_event *ev,
                         char *err)
{
    const char *typed = json_string_value(json_object_get(rec, "room"));
    const char *seed_hex = json_string_value(json_object_get(rec, "seed"));
    const json_t *jseats = json_object_get(rec, "seats");
    const json_t *opts = json_object_get(rec, "options");
    char code[PROTO_ROOM_CODE_LEN + 1];
    struct game_error gerr = {0};
    size_t len = 0;

    ev->create.game =
        game_find_in(room->lobby->cfg.games, json_string_value(json_object_get(rec, "game")));
    if (!typed || proto_room_code_parse(typed, code) != 0 || strcmp(code, room->code) != 0 ||
        !ev->create.game || !seed_hex || !json_is_integer(jseats) || !json_is_object(opts) ||
        sodium_hex2bin(ev->create.seed, sizeof(ev->create.seed), seed_hex, strlen(seed_hex), NULL,
                       &len, NULL) != 0 ||
        len != sizeof(ev->create.seed)) {
        snprintf(err, GAME_MSG_MAX, "the journal does not begin with a valid create record");
        return -1;
    }
    ev->create.nseats = (int)json_integer_value(jseats);
    if (ev->create.nseats < 1 || ev->create.nseats > GAME_MAX_SEATS ||
        ev->create.game->check_options(opts, ev->create.nseats, &gerr) != GAME_OK) {
        snprintf(err, GAME_MSG_MAX, "the room's options are refused: %.200s", gerr.message);
        return -1;
    }
    if (lobby__clock_parse(json_object_get(rec, "clock"), &ev->create.clock, err) != 0) {
        return -1;
    }
    ev->create.options = opts;
    ev->create.is_public = json_is_true(json_object_get(rec, "public"));
    ev->create.undo_off = json_is_false(json_object_get(rec, "undo"));
    ev->create.bot_level = BOT_LEVEL_DEFAULT;
    int level = bot_level_parse(json_string_value(json_object_get(rec, "bot_level")));
    if (level >= 0) {
        ev->create.bot_level = (enum bot_level)level;
    }
    return 0;
}

static int create_check(struct room *room, struct room_event *ev, char *msg)
{
    if (room->game) {
        snprintf(msg, GAME_MSG_MAX, "the room exists already");
        return PROTO_ERR_INTERNAL;
    }
    ev->create.options_copy = json_deep_copy(ev->create.options);
    return ev->create.options_copy ? PROTO_OK : PROTO_ERR_INTERNAL;
}

static void create_discard(struct room *room, struct room_event *ev)
{
    json_decref(ev->create.options_copy);
    ev->create.options_copy = NULL;
    (void)room;
}

static void create_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    uint8_t h[32];

    room->game = ev->create.game;
    room->options = ev->create.options_copy;
    ev->create.options_copy = NULL;
    room->is_public = ev->create.is_public;
    room->undo_on = !ev->create.undo_off;
    room->bot_level = ev->create.bot_level;
    room->nseats = ev->create.nseats;
    room->clock.rules = ev->create.clock;
    memcpy(room->seed, ev->create.seed, GAME_SEED_BYTES);
    crypto_generichash(h, sizeof(h), room->seed, sizeof(room->seed), NULL, 0);
    proto_hex(h, sizeof(h), room->seed_commit);
    (void)c;
}

/* ---- seat ---- */

static char *seat_encode(const struct room *room, const struct room_event *ev, size_t *len)
{
    const struct seat_change *s = &ev->seat;
    json_t *rec = json_pack("{s:s, s:i, s:s, s:s}", "t", "seat", "seat", ev->index, "kind",
                            lobby__kind_names[s->kind], "name", s->name);
    char hex[65];

    if (rec && s->kind == SEAT_BOT) {
        json_object_set_new(rec, "level", json_string(bot_level_names[s->level]));
    }
    if (rec && s->has_token) {
        proto_hex(s->token_hash, sizeof(s->token_hash), hex);
        json_object_set_new(rec, "token", json_string(hex));
    }
    (void)room;
    return record_text(rec, len);
}

static int seat_decode(const struct room *room, const json_t *rec, struct room_event *ev, char *err)
{
    const char *kind = json_string_value(json_object_get(rec, "kind"));
    const char *name = json_string_value(json_object_get(rec, "name"));
    const char *token = json_string_value(json_object_get(rec, "token"));
    struct seat_change *s = &ev->seat;
    size_t len = 0;

    ev->index = record_seat(room, rec, false);
    if (ev->index < 0 || !kind || !name) {
        snprintf(err, GAME_MSG_MAX, "a seat record without seat, kind or name");
        return -1;
    }
    s->kind = strcmp(kind, "human") == 0 ? SEAT_HUMAN
              : strcmp(kind, "bot") == 0 ? SEAT_BOT
                                         : SEAT_EMPTY;
    snprintf(s->name, sizeof(s->name), "%s", name);
    s->level = record_level(room, json_object_get(rec, "level"), room->bot_level);
    s->has_token = token &&
                   sodium_hex2bin(s->token_hash, sizeof(s->token_hash), token, strlen(token), NULL,
                                  &len, NULL) == 0 &&
                   len == sizeof(s->token_hash);
    return 0;
}

/* The token index has room for the seat's token. */
static int seat_check(struct room *room, struct room_event *ev, char *msg)
{
    if (ev->seat.has_token && lobby__token_reserve(room->lobby) != 0) {
        snprintf(msg, GAME_MSG_MAX, "out of memory");
        return PROTO_ERR_INTERNAL;
    }
    return PROTO_OK;
}

/* The seat becomes what the event says, its token filed in the lobby's
 * index (the one it had, if another, taken out); a player's seat given to
 * nobody before makes it the host (not a seat a rematch holds, without a
 * token, for a player who has not answered). */
static void seat_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    struct seat *s = &room->seats[ev->index];

    if (s->has_token) {
        lobby__token_drop(room->lobby, s->token_hash, room->code);
    }
    if (ev->seat.kind != SEAT_HUMAN || !ev->seat.has_token || !s->has_token ||
        memcmp(s->token_hash, ev->seat.token_hash, sizeof(s->token_hash)) != 0) {
        lobby__notice_forget(room, ev->index); /* another player's seat now */
    }
    s->kind = ev->seat.kind;
    s->level = ev->seat.level;
    memcpy(s->name, ev->seat.name, sizeof(s->name));
    s->has_token = ev->seat.has_token;
    memcpy(s->token_hash, ev->seat.token_hash, sizeof(s->token_hash));
    if (s->has_token) {
        lobby__token_set(room->lobby, s->token_hash, room->code, ev->index);
    }
    if (s->kind != SEAT_HUMAN) {
        lobby__seat_forget(s);
    }
    if (s->kind == SEAT_HUMAN && s->has_token && room->host < 0) {
        room->host = ev->index;
    }
    (void)c;
}

/* ---- host (written by journals of older versions: host changes now
 * follow from seat and leave) ---- */

static int host_decode(const struct room *room, const json_t *rec, struct room_event *ev, char *err)
{
    ev->index = record_seat(room, rec, true);
    if (ev->index < -1) {
        snprintf(err, GAME_MSG_MAX, "a host record with a bad seat");
        return -1;
    }
    return 0;
}

static void host_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    room->host = ev->index;
    (void)c;
}

/* ---- leave ---- */

static char *leave_encode(const struct room *room, const struct room_event *ev, size_t *len)
{
    (void)room;
    return record_text(json_pack("{s:s, s:i}", "t", "leave", "seat", ev->index), len);
}

static int leave_decode(const struct room *room, const json_t *rec, struct room_event *ev,
                        char *err)
{
    ev->index = record_seat(room, rec, false);
    if (ev->index < 0) {
        snprintf(err, GAME_MSG_MAX, "a leave record with a bad seat");
        return -1;
    }
    return 0;
}

static int leave_check(struct room *room, struct room_event *ev, char *msg)
{
    if (room->seats[ev->index].kind != SEAT_HUMAN || room->status == ROOM_ENDED) {
        snprintf(msg, GAME_MSG_MAX, "seat %d has no player to leave", ev->index);
        return PROTO_ERR_NOT_IN_GAME;
    }
    return PROTO_OK;
}

/* In a lobby the seat is freed, its token void, and a leaving host hands
 * the room to the next player's seat (one with a token: not a seat a
 * rematch holds for a player who has not answered); in a running game a bot keeps the seat
 * (at the room's level) until its token resumes it. */
static void leave_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    struct seat *s = &room->seats[ev->index];

    lobby__notice_forget(room, ev->index);
    if (room->status == ROOM_PLAYING) {
        s->kind = SEAT_BOT;
        s->level = lobby__room_level(room);
        lobby__seat_forget(s);
        c->flags |= EV_BOTS;
        return;
    }
    s->kind = SEAT_EMPTY;
    if (s->has_token) {
        lobby__token_drop(room->lobby, s->token_hash, room->code);
    }
    s->has_token = false;
    s->name[0] = '\0';
    if (room->host == ev->index) {
        room->host = -1;
        for (int k = 1; k <= room->nseats; k++) {
            int i = (ev->index + k) % room->nseats;
            if (room->seats[i].kind == SEAT_HUMAN && room->seats[i].has_token) {
                room->host = i;
                break;
            }
        }
    }
}

/* ---- start ---- */

static char *start_encode(const struct room *room, const struct room_event *ev, size_t *len)
{
    json_t *rec = json_pack("{s:s}", "t", "start");
    json_t *bots = ev->start.nfill ? json_array() : NULL;

    for (int i = 0; rec && i < ev->start.nfill; i++) {
        const struct start_fill *f = &ev->start.fill[i];
        if (!bots || json_array_append_new(bots, json_pack("{s:i, s:s, s:s}", "seat", f->seat,
                                                           "level", bot_level_names[f->level],
                                                           "name", f->name)) != 0) {
            json_decref(rec);
            rec = NULL;
        }
    }
    if (rec && bots && json_object_set(rec, "bots", bots) != 0) {
        json_decref(rec);
        rec = NULL;
    }
    json_decref(bots);
    (void)room;
    return record_text(rec, len);
}

static int start_decode(const struct room *room, const json_t *rec, struct room_event *ev,
                        char *err)
{
    const json_t *bots = json_object_get(rec, "bots");
    size_t i;
    const json_t *b;

    ev->start.nfill = 0;
    if (bots && (!json_is_array(bots) || json_array_size(bots) > (size_t)room->nseats)) {
        snprintf(err, GAME_MSG_MAX, "a start record with bad bots");
        return -1;
    }
    json_array_foreach(bots, i, b) {
        struct start_fill *f = &ev->start.fill[ev->start.nfill++];
        const char *name = json_string_value(json_object_get(b, "name"));
        f->seat = record_seat(room, b, false);
        if (f->seat < 0 || !name) {
            snprintf(err, GAME_MSG_MAX, "a start record with a bad bot");
            return -1;
        }
        f->level = record_level(room, json_object_get(b, "level"), room->bot_level);
        snprintf(f->name, sizeof(f->name), "%s", name);
    }
    return 0;
}

static void start_discard(struct room *room, struct room_event *ev)
{
    free(ev->start.state);
    ev->start.state = NULL;
    (void)room;
}

/* The part of a change mask that names the game's sections. */
#define SECTION_BITS ((UINT64_C(1) << GAME_MAX_SECTIONS) - 1)

/* Adds the parts an event changed to the commit: `changed`, a game change
 * mask, the items and the seats' "you" it left equal (0: none known), and
 * the fields of the other items that it may have changed (NULL: all). */
static void commit_changed(struct room_commit *c, uint64_t changed, unsigned items_same,
                           unsigned you_same, const uint32_t *fields)
{
    bool again = (c->changed & SECTION_BITS) != 0;

    /* A seat's part is known equal only where every event that named it
     * said so, and a field only where every event left it. */
    for (int i = 0; i < LOBBY_ITEMS_MAX; i++) {
        uint32_t f = fields ? fields[i] : UINT32_MAX;
        c->fields[i] = again ? c->fields[i] | f : f;
    }
    c->items_same = again ? c->items_same & items_same : items_same;
    c->you_same = c->changed & GAME_CHANGED_YOU ? c->you_same & you_same : you_same;
    c->changed |= changed;
}

/* The items and the seats' "you" the game says the step from `before` to
 * room->state left equal (0 when it cannot say), and for each other item
 * of its section with fields, the fields that may differ. */
static void parts_same(const struct room *room, const void *before, unsigned *items_same,
                       unsigned *you_same, uint32_t fields[LOBBY_ITEMS_MAX])
{
    const struct game_ops *g = room->game;
    unsigned seats = room->nseats >= 32 ? ~0u : (1u << room->nseats) - 1;
    unsigned items = ~0u, you = ~0u;
    const struct game_section *sec = NULL;

    if (g->parts_changed) {
        g->parts_changed(before, room->state, &items, &you);
    }
    *items_same = ~items;
    *you_same = ~you & seats;
    for (size_t k = 0; k < g->nsections && !sec; k++) {
        sec = g->sections[k].fields_changed ? &g->sections[k] : NULL;
    }
    int n = sec ? sec->nitems(room->state) : 0;
    for (int i = 0; i < LOBBY_ITEMS_MAX; i++) {
        fields[i] =
            i < n && (items & (1u << i)) ? sec->fields_changed(before, room->state, i) : UINT32_MAX;
    }
}

/* Builds the game aside from the seats as they will be. */
static int start_check(struct room *room, struct room_event *ev, char *msg)
{
    struct game_setup setup;
    struct game_error gerr = {0};

    if (room->status != ROOM_LOBBY) {
        snprintf(msg, GAME_MSG_MAX, "the game has already started");
        return PROTO_ERR_ALREADY_STARTED;
    }
    memset(&setup, 0, sizeof(setup));
    setup.nseats = room->nseats;
    for (int i = 0; i < room->nseats; i++) {
        snprintf(setup.names[i], sizeof(setup.names[i]), "%s", room->seats[i].name);
    }
    for (int i = 0; i < ev->start.nfill; i++) {
        const struct start_fill *f = &ev->start.fill[i];
        snprintf(setup.names[f->seat], sizeof(setup.names[f->seat]), "%s", f->name);
    }
    ev->start.state = malloc(room->game->state_size);
    if (!ev->start.state) {
        start_discard(room, ev);
        snprintf(msg, GAME_MSG_MAX, "out of memory");
        return PROTO_ERR_INTERNAL;
    }
    memcpy(setup.seed, room->seed, sizeof(setup.seed));
    int rc = game_start(room->game, ev->start.state, room->options, &setup, &gerr);
    sodium_memzero(&setup.seed, sizeof(setup.seed));
    if (rc != GAME_OK) {
        start_discard(room, ev);
        snprintf(msg, GAME_MSG_MAX, "%s", gerr.message);
        return lobby__game_status_to_proto(rc);
    }
    return PROTO_OK;
}

static void start_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    for (int i = 0; i < ev->start.nfill; i++) {
        const struct start_fill *f = &ev->start.fill[i];
        struct seat *s = &room->seats[f->seat];
        s->kind = SEAT_BOT;
        s->level = f->level;
        memcpy(s->name, f->name, sizeof(s->name));
        lobby__seat_forget(s);
    }
    room->state = ev->start.state;
    ev->start.state = NULL;
    room->status = ROOM_PLAYING;
    room->rev = 1;
    lobby__clock_start(&room->clock, room->nseats, room->game->active(room->state), c->now);
    commit_changed(c, GAME_CHANGED_ALL, 0, 0, NULL);
}

/* ---- act ---- */

/* {"action":...,"seat":n,"t":"act"}, written from the action's canonical
 * text. */
static char *act_encode(const struct room *room, const struct room_event *ev, size_t *len)
{
    struct proto_text t = {0};

    proto_text_str(&t, "{\"action\":");
    proto_text_canonical(&t, ev->act.action);
    if (room->clock.rules.kind) {
        proto_text_str(&t, ",\"ms\":");
        proto_text_int(&t, (long long)ev->ms);
    }
    proto_text_str(&t, ",\"seat\":");
    proto_text_int(&t, ev->index);
    proto_text_str(&t, ",\"t\":\"act\"}");
    (void)room;
    if (t.err == -EINVAL) {
        proto_text_free(&t);
        errno = EDOM;
        return NULL;
    }
    errno = ENOMEM;
    return proto_text_take(&t, SIZE_MAX, len);
}

static int act_decode(const struct room *room, const json_t *rec, struct room_event *ev, char *err)
{
    ev->index = record_seat(room, rec, false);
    ev->act.action = json_object_get(rec, "action");
    if (ev->index < 0 || !json_is_object(ev->act.action) || record_ms(rec, &ev->ms) != 0) {
        snprintf(err, GAME_MSG_MAX, "an act record without seat or action");
        return -1;
    }
    return 0;
}

/* The lobby's spare state block for the room's game, made at its first
 * use; NULL (msg set, when given) when it cannot be made. */
static void **spare_of(struct room *room, char *msg)
{
    struct lobby *lobby = room->lobby;
    size_t g = 0;

    while (lobby->cfg.games[g] && lobby->cfg.games[g] != room->game) {
        g++;
    }
    if (lobby->cfg.games[g] && !lobby->spare[g]) {
        lobby->spare[g] = malloc(room->game->state_size);
    }
    if (!lobby->cfg.games[g] || !lobby->spare[g]) {
        if (msg) {
            snprintf(msg, GAME_MSG_MAX, "out of memory");
        }
        return NULL;
    }
    return &lobby->spare[g];
}

/* The state the spare became takes the room's place; the room's state
 * becomes the spare, and is returned: the position before. */
static void *spare_commit(struct room *room)
{
    void **spare = spare_of(room, NULL);
    void *before = room->state;

    room->state = *spare;
    *spare = before;
    return before;
}

/* Tries the action on the spare state block. */
static int act_check(struct room *room, struct room_event *ev, char *msg)
{
    struct game_error gerr = {0};
    void **spare;
    int rc;

    if (room->status != ROOM_PLAYING) {
        snprintf(msg, GAME_MSG_MAX, "the game is not running");
        return room->status == ROOM_ENDED ? PROTO_ERR_GAME_OVER : PROTO_ERR_NOT_IN_GAME;
    }
    if (!(spare = spare_of(room, msg))) {
        return PROTO_ERR_INTERNAL;
    }
    rc = game_try(room->game, room->state, *spare, ev->index, ev->act.action, &gerr);
    if (rc != GAME_OK) {
        snprintf(msg, GAME_MSG_MAX, "%s", gerr.message);
        return lobby__game_status_to_proto(rc);
    }
    return PROTO_OK;
}

/* The tried state becomes the room's. A game the action ends is over:
 * the room ends with it (the end record that follows marks it). */
static void act_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    struct lobby *lobby = room->lobby;
    void *before;

    lobby__clock_charge(&room->clock, ev->ms, ev->index);
    before = spare_commit(room);
    room->rev++;
    lobby__clock_settle(&room->clock, ev->index, room->game->active(room->state), c->now);
    for (unsigned g = 0; !lobby->restoring && g < LOBBY_STATS_GAMES && lobby->cfg.games[g]; g++) {
        lobby->actions[g] += lobby->cfg.games[g] == room->game;
    }
    uint64_t changed = room->game->changed(before, room->state);
    unsigned items_same, you_same;
    uint32_t fields[LOBBY_ITEMS_MAX];
    parts_same(room, before, &items_same, &you_same, fields);
    commit_changed(c, changed, items_same, you_same, fields);
    lobby__undo_after_act(room, before, ev->index, changed, you_same);
    if (room->clock.rules.kind) {
        c->changed |= LOBBY_CHANGED_CLOCK;
    }
    if (room->game->active(room->state) == 0) {
        lobby__room_end(room, c);
    }
    (void)ev;
}

/* ---- end ---- */

static char *end_encode(const struct room *room, const struct room_event *ev, size_t *len)
{
    (void)room;
    (void)ev;
    return record_text(json_pack("{s:s}", "t", "end"), len);
}

static int end_decode(const struct room *room, const json_t *rec, struct room_event *ev, char *err)
{
    (void)room;
    (void)rec;
    (void)ev;
    (void)err;
    return 0;
}

static int end_check(struct room *room, struct room_event *ev, char *msg)
{
    (void)ev;
    if (room->status == ROOM_LOBBY ||
        (room->status == ROOM_PLAYING && room->game->active(room->state) != 0)) {
        snprintf(msg, GAME_MSG_MAX, "an end record of a game that is not over");
        return PROTO_ERR_INTERNAL;
    }
    return PROTO_OK;
}

void lobby__room_end(struct room *room, struct room_commit *c)
{
    room->status = ROOM_ENDED;
    room->ended_at = c->now ? c->now : 1;
    lobby__creator_release(room->lobby, &room->who.creator, room->who.creator_addr);
    if (!room->lobby->restoring) {
        lobby__ended_note(room);
    }
    c->flags |= EV_ENDED | EV_ANNOUNCE;
}

static void end_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    if (room->status != ROOM_ENDED) {
        lobby__room_end(room, c);
    }
    (void)ev;
}

/* ---- timeout: a seat's time ran out ---- */

const char *const lobby__timeout_deeds[] = {"plays_on", "bot", "lose", "skip"};

static char *timeout_encode(const struct room *room, const struct room_event *ev, size_t *len)
{
    (void)room;
    return record_text(json_pack("{s:s, s:i, s:I, s:s}", "t", "timeout", "seat", ev->index, "ms",
                                 (json_int_t)ev->ms, "do", lobby__timeout_deeds[ev->deed]),
                       len);
}

/* {"do":...}; a record of older journals has "bot": true or false. */
static int timeout_decode(const struct room *room, const json_t *rec, struct room_event *ev,
                          char *err)
{
    const char *deed = json_string_value(json_object_get(rec, "do"));

    ev->index = record_seat(room, rec, false);
    if (ev->index < 0 || record_ms(rec, &ev->ms) != 0) {
        snprintf(err, GAME_MSG_MAX, "a timeout record without seat or time");
        return -1;
    }
    ev->deed = json_is_true(json_object_get(rec, "bot")) ? TIMEOUT_BOT : TIMEOUT_PLAYS_ON;
    for (uint8_t d = 0; deed && d < sizeof(lobby__timeout_deeds) / sizeof(char *); d++) {
        if (strcmp(deed, lobby__timeout_deeds[d]) == 0) {
            ev->deed = d;
            return 0;
        }
    }
    if (deed) {
        snprintf(err, GAME_MSG_MAX, "a timeout record that does \"%.20s\"", deed);
        return -1;
    }
    return 0;
}

/* A loss or a skip is tried on the spare state block. One the game cannot
 * make falls back, when the server decides (not in a replay, which does
 * what the record says), to what a room without the policy does. */
static int timeout_check(struct room *room, struct room_event *ev, char *msg)
{
    if (room->status != ROOM_PLAYING || !(room->clock.running & (1u << ev->index))) {
        snprintf(msg, GAME_MSG_MAX, "seat %d has no clock running", ev->index);
        return PROTO_ERR_INTERNAL;
    }
    if (ev->deed == TIMEOUT_LOSE || ev->deed == TIMEOUT_SKIP) {
        struct game_error gerr = {0};
        void **spare = spare_of(room, msg);
        if (!spare) {
            return PROTO_ERR_INTERNAL;
        }
        if (game_try_timeout(room->game, room->state, *spare, ev->index, ev->deed == TIMEOUT_LOSE,
                             &gerr) == GAME_OK) {
            return PROTO_OK;
        }
        if (room->lobby->restoring) {
            snprintf(msg, GAME_MSG_MAX, "seat %d's timeout cannot %s", ev->index,
                     lobby__timeout_deeds[ev->deed]);
            return PROTO_ERR_INTERNAL;
        }
        ev->deed = lobby__timeout_fallback(room, ev->index);
    }
    return PROTO_OK;
}

/* The seat's clock stops at 0. It loses (the game ends), or its turn is
 * skipped and its clock runs again at its next turn with what the rules
 * give a turn; or it runs no more, and a bot at the room's level plays a
 * seat whose player is not there (the token kept: a resume takes it
 * back, without a clock) while one who is there plays on, untimed.
 * Which, is in the record, so that a replay does the same. */
static void timeout_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    struct seat *s = &room->seats[ev->index];

    lobby__clock_charge(&room->clock, ev->ms, -1);
    room->rev++; /* the view changes: its clock, who plays the seat, or the game */
    if (ev->deed == TIMEOUT_LOSE || ev->deed == TIMEOUT_SKIP) {
        void *before = spare_commit(room);
        unsigned items_same, you_same;
        uint32_t fields[LOBBY_ITEMS_MAX];
        parts_same(room, before, &items_same, &you_same, fields);
        commit_changed(c, room->game->changed(before, room->state), items_same, you_same, fields);
        lobby__undo_clear(room, UNDO_WHY_OTHERS);
        room->clock.left[ev->index] = 0;
        lobby__clock_settle(&room->clock, ev->index, room->game->active(room->state), c->now);
        if (room->game->active(room->state) == 0) {
            lobby__room_end(room, c);
        }
    } else {
        lobby__clock_flag(&room->clock, ev->index);
        lobby__clock_settle(&room->clock, -1, room->game->active(room->state), c->now);
    }
    if (s->kind == SEAT_HUMAN && ev->deed == TIMEOUT_BOT) {
        s->kind = SEAT_BOT;
        s->level = lobby__room_level(room);
        lobby__seat_forget(s);
    }
    if (!room->lobby->restoring) {
        log_event(LOG_INFO, "clock_timeout", "room=%s seat=%d did=%s played_by=%s", room->code,
                  ev->index, lobby__timeout_deeds[ev->deed],
                  s->kind == SEAT_BOT ? bot_level_names[s->level] : "its_player");
    }
    c->changed |= LOBBY_CHANGED_CLOCK;
}

/* ---- clock: the running clocks charged, for the journal ---- */

static char *clock_encode(const struct room *room, const struct room_event *ev, size_t *len)
{
    (void)room;
    return record_text(json_pack("{s:s, s:I}", "t", "clock", "ms", (json_int_t)ev->ms), len);
}

static int clock_decode(const struct room *room, const json_t *rec, struct room_event *ev,
                        char *err)
{
    (void)room;
    if (record_ms(rec, &ev->ms) != 0) {
        snprintf(err, GAME_MSG_MAX, "a clock record without its time");
        return -1;
    }
    return 0;
}

static void clock_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    lobby__clock_charge(&room->clock, ev->ms, -1);
    room->clock.since = c->now;
    room->rev++; /* the view's clock changes */
    c->changed |= LOBBY_CHANGED_CLOCK;
}

/* ---- notify: where a seat's notices go ---- */

/* {"push"?:[...],"seat":n,"t":"notify","webhook"?:url}: the seat's whole
 * set of targets, each record replacing the last. */
static char *notify_encode(const struct room *room, const struct room_event *ev, size_t *len)
{
    json_t *rec = json_pack("{s:s, s:i}", "t", "notify", "seat", ev->index);

    (void)room;
    if (rec && json_object_update(rec, ev->notify.targets) != 0) {
        json_decref(rec);
        rec = NULL;
    }
    return record_text(rec, len);
}

static int notify_decode(const struct room *room, const json_t *rec, struct room_event *ev,
                         char *err)
{
    ev->index = record_seat(room, rec, false);
    ev->notify.rec = rec;
    if (ev->index < 0) {
        snprintf(err, GAME_MSG_MAX, "a notify record without a seat");
        return -1;
    }
    return 0;
}

/* The targets of the record, copied: a webhook's URL, and up to
 * LOBBY_PUSH_MAX subscriptions of three strings each. */
static int notify_check(struct room *room, struct room_event *ev, char *msg)
{
    const json_t *hook = json_object_get(ev->notify.rec, "webhook");
    const json_t *push = json_object_get(ev->notify.rec, "push");
    const json_t *sub;
    size_t i;
    bool ok = room->seats[ev->index].kind == SEAT_HUMAN && (!hook || json_is_string(hook)) &&
              (!push || json_is_array(push)) && json_array_size(push) <= LOBBY_PUSH_MAX;

    json_array_foreach(push, i, sub) {
        ok = ok && json_is_string(json_object_get(sub, "endpoint")) &&
             json_is_string(json_object_get(sub, "p256dh")) &&
             json_is_string(json_object_get(sub, "auth"));
    }
    if (!ok) {
        snprintf(msg, GAME_MSG_MAX, "seat %d cannot have these notices", ev->index);
        return PROTO_ERR_BAD_REQUEST;
    }
    ev->notify.targets = json_object();
    if (!ev->notify.targets ||
        (hook && json_object_set(ev->notify.targets, "webhook", (json_t *)hook) != 0) ||
        (json_array_size(push) &&
         json_object_set_new(ev->notify.targets, "push", json_deep_copy(push)) != 0)) {
        json_decref(ev->notify.targets);
        ev->notify.targets = NULL;
        return PROTO_ERR_INTERNAL;
    }
    return PROTO_OK;
}

static void notify_discard(struct room *room, struct room_event *ev)
{
    (void)room;
    json_decref(ev->notify.targets);
    ev->notify.targets = NULL;
}

/* The seat's targets become the record's (none: they go). */
static void notify_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    struct seat *s = &room->seats[ev->index];

    json_decref(s->notice);
    s->notice = json_object_size(ev->notify.targets) ? ev->notify.targets : NULL;
    if (!s->notice) {
        json_decref(ev->notify.targets);
    }
    ev->notify.targets = NULL;
    (void)c;
}

/* ---- undo: a seat takes back its last action ---- */

static char *undo_encode(const struct room *room, const struct room_event *ev, size_t *len)
{
    json_t *rec = json_pack("{s:s, s:i}", "t", "undo", "seat", ev->index);

    if (rec && room->clock.rules.kind &&
        json_object_set_new(rec, "ms", json_integer((json_int_t)ev->ms)) != 0) {
        json_decref(rec);
        rec = NULL;
    }
    return record_text(rec, len);
}

static int undo_decode(const struct room *room, const json_t *rec, struct room_event *ev, char *err)
{
    ev->index = record_seat(room, rec, false);
    if (ev->index < 0 || record_ms(rec, &ev->ms) != 0) {
        snprintf(err, GAME_MSG_MAX, "an undo record without a seat");
        return -1;
    }
    return 0;
}

static int undo_check(struct room *room, struct room_event *ev, char *msg)
{
    return lobby__undo_can(room, ev->index, msg);
}

/* The position before the seat's last action comes back, its clocks
 * charged the time spent (the time is not given back). */
static void undo_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    lobby__clock_charge(&room->clock, ev->ms, ev->index);
    lobby__undo_pop(room);
    room->rev++;
    lobby__clock_settle(&room->clock, -1, room->game->active(room->state), c->now);
    commit_changed(c, GAME_CHANGED_ALL, 0, 0, NULL);
}

/* ---- rematch: a rematch offered, a player's answer ---- */

const char *const lobby__rematch_answers[] = {"waiting", "yes", "no", "bot"};

static char *rematch_encode(const struct room *room, const struct room_event *ev, size_t *len)
{
    (void)room;
    return record_text(json_pack("{s:s, s:s, s:i, s:s}", "t", "rematch", "room", ev->rematch.code,
                                 "seat", ev->index, "answer",
                                 lobby__rematch_answers[ev->rematch.answer]),
                       len);
}

static int rematch_decode(const struct room *room, const json_t *rec, struct room_event *ev,
                          char *err)
{
    const char *typed = json_string_value(json_object_get(rec, "room"));
    const char *answer = json_string_value(json_object_get(rec, "answer"));

    ev->index = record_seat(room, rec, false);
    if (ev->index < 0 || !typed || proto_room_code_parse(typed, ev->rematch.code) != 0 || !answer ||
        (strcmp(answer, "yes") != 0 && strcmp(answer, "no") != 0)) {
        snprintf(err, GAME_MSG_MAX, "a rematch record without its room, seat or answer");
        return -1;
    }
    ev->rematch.answer = strcmp(answer, "yes") == 0 ? REMATCH_YES : REMATCH_NO;
    return 0;
}

static int rematch_check(struct room *room, struct room_event *ev, char *msg)
{
    (void)ev;
    if (room->status != ROOM_ENDED) {
        snprintf(msg, GAME_MSG_MAX, "a rematch is for a game that has ended");
        return PROTO_ERR_GAME_NOT_OVER;
    }
    return PROTO_OK;
}

/* A new room code is a new offer, by the seat that answers yes first:
 * every other player's answer waits again (a bot's is a bot's). */
static void rematch_apply(struct room *room, struct room_event *ev, struct room_commit *c)
{
    struct room_rematch *m = &room->rematch;

    if (strcmp(m->code, ev->rematch.code) != 0) {
        memcpy(m->code, ev->rematch.code, sizeof(m->code));
        m->by = (int8_t)ev->index;
        for (int i = 0; i < room->nseats; i++) {
            const struct seat *s = &room->seats[i];
            m->answer[i] = s->kind == SEAT_BOT && !s->has_token ? REMATCH_BOT : REMATCH_WAITING;
        }
    }
    m->answer[ev->index] = ev->rematch.answer;
    (void)c;
}

/* ---- The table ---- */

struct event_def {
    const char *name; /* the record's "t" */
    unsigned flags;   /* what the tail does after it (EV_*) */
    /* The record of `ev` (a compact JSON object without newline, malloc'd),
     * or NULL with errno set (EDOM: it holds a real number). NULL encode:
     * the event is only read from older journals. */
    char *(*encode)(const struct room *room, const struct room_event *ev, size_t *len);
    int (*decode)(const struct room *room, const json_t *rec, struct room_event *ev, char *err);
    /* What must hold, and the work that may fail, without changing the
     * room. PROTO_OK or an error with a message. NULL: nothing. */
    int (*check)(struct room *room, struct room_event *ev, char *msg);
    /* Releases what check prepared, when the event is not applied. */
    void (*discard)(struct room *room, struct room_event *ev);
    void (*apply)(struct room *room, struct room_event *ev, struct room_commit *c);
};

#define host_encode NULL
#define host_check NULL
#define seat_discard NULL
#define host_discard NULL
#define leave_discard NULL
#define act_discard NULL
#define end_discard NULL
#define timeout_discard NULL
#define clock_check NULL
#define clock_discard NULL
#define undo_discard NULL
#define rematch_discard NULL

static const struct event_def events[] = {
#define X(NAME, name, flags)                                                                       \
    [ROOM_EV_##NAME] = {#name,        flags,          name##_encode, name##_decode,                \
                        name##_check, name##_discard, name##_apply},
    ROOM_EVENT_MAP(X)
#undef X
};

/* ---- What members are told ---- */

void lobby__room_announce(struct room *room)
{
    json_t *ev = proto_event_new("room");
    json_t *seats = json_array();

    if (!ev || !seats) {
        goto out;
    }
    for (int i = 0; i < room->nseats; i++) {
        const struct seat *s = &room->seats[i];
        json_t *o = json_pack(
            "{s:i, s:s, s:s, s:b}", "seat", i, "name", s->kind == SEAT_EMPTY ? "" : s->name, "kind",
            lobby__kind_names[s->kind], "connected", s->kind == SEAT_BOT || s->peer != NULL);
        if (o && s->kind == SEAT_BOT) {
            json_object_set_new(o, "level", json_string(bot_level_names[s->level]));
        }
        if (!o || json_array_append_new(seats, o) != 0) {
            goto out;
        }
    }
    json_object_set_new(ev, "room", json_string(room->code));
    json_object_set_new(ev, "game", json_string(room->game->id));
    json_object_set_new(ev, "status", json_string(lobby__status_names[room->status]));
    json_object_set_new(ev, "host", json_integer(room->host));
    json_object_set_new(ev, "seats", seats);
    seats = NULL;
    json_object_set_new(ev, "spectators", json_integer((json_int_t)room->who.nspecs));
    lobby__broadcast(room, ev);
out:
    json_decref(seats);
    json_decref(ev);
}

/* ---- The one path ---- */

/* Appends one record (`len` bytes, no newline) to the room's journal;
 * what the room sends afterwards waits until it is durable (outbox.c holds
 * it behind room->out.jseq). 0 or a negative errno when it was not taken. */
static int journal_append(struct room *room, const char *line, size_t len)
{
    struct lobby *lobby = room->lobby;
    uint64_t seq = 0;
    int rc = lobby->store.append(lobby->store.ctx, room->code, line, len, &seq);

    if (rc == 0) {
        lobby__out_record(room, seq);
    }
    return rc;
}

int lobby__event_commit(struct room *room, struct room_event *ev, struct room_commit *c)
{
    const struct event_def *d = &events[ev->type];
    struct lobby *lobby = room->lobby;
    int rc = d->check ? d->check(room, ev, c->msg) : PROTO_OK;

    if (rc != PROTO_OK) {
        return rc;
    }
    if (!lobby->restoring && lobby->has_store) {
        size_t len = 0;
        char *line = d->encode ? d->encode(room, ev, &len) : NULL;
        int err = line ? journal_append(room, line, len) : errno == EDOM ? -EDOM : -ENOMEM;
        free(line);
        if (err != 0) {
            if (d->discard) {
                d->discard(room, ev);
            }
            if (err == -EDOM) {
                snprintf(c->msg, GAME_MSG_MAX, "an action holds integers only, never real numbers");
                return PROTO_ERR_BAD_ACTION;
            }
            log_event(LOG_WARN, "event_not_journaled", "room=%s event=%s cause=%s", room->code,
                      d->name, err == -ENOMEM ? "out_of_memory" : "journal_failed");
            snprintf(c->msg, GAME_MSG_MAX, "the change could not be recorded; try again");
            return PROTO_ERR_INTERNAL;
        }
    }
    d->apply(room, ev, c);
    c->flags |= d->flags;
    return PROTO_OK;
}

int lobby__event_decode(struct room *room, const json_t *rec, struct room_event *ev, char *err)
{
    const char *t = json_string_value(json_object_get(rec, "t"));

    memset(ev, 0, sizeof(*ev));
    if (!t) {
        snprintf(err, GAME_MSG_MAX, "a record without a type");
        return -1;
    }
    for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
        if (strcmp(t, events[i].name) == 0) {
            ev->type = (enum room_ev)i;
            return events[i].decode(room, rec, ev, err);
        }
    }
    snprintf(err, GAME_MSG_MAX, "an unknown record type \"%.20s\"", t);
    return -1;
}

/* The `ended` event, written around the published "result" (the seed
 * revealed in it). */
static void send_ended(struct room *room)
{
    struct proto_text t = {0};
    const char *result;
    size_t len;
    char *line;

    result = lobby__views_result(room, &len);
    if (!result) {
        /* Out of memory: the members have the result in their views, and
         * were closed to resume to it. */
        return;
    }
    proto_text_str(&t, "{\"ev\":\"ended\",\"result\":");
    proto_text_add(&t, result, len);
    proto_text_str(&t, ",\"room\":\"");
    proto_text_str(&t, room->code);
    proto_text_str(&t, "\"}\n");
    line = proto_text_take(&t, PROTO_OUT_LINE_MAX, &len);
    if (line) {
        lobby__broadcast_line(room, line, len);
        free(line);
    }
}

void lobby__commit_tail(struct room *room, struct room_commit *c)
{
    if (room->lobby->restoring) {
        return;
    }
    /* The room event comes before the views (a start: the game has
     * begun, then its state), but after the end (the last diff, the
     * result, then the room as it now is). */
    bool late = c->flags & EV_ENDED;
    if ((c->flags & EV_ANNOUNCE) && !late) {
        lobby__room_announce(room);
    }
    if (c->flags & EV_PUBLISH) {
        lobby__views_publish(room, c);
    }
    if (c->flags & EV_ENDED) {
        send_ended(room);
    }
    if ((c->flags & EV_ANNOUNCE) && late) {
        lobby__room_announce(room);
    }
    if (c->flags & EV_BOTS) {
        lobby__schedule_bots(room->lobby, room, c->now);
    }
    lobby__notices_after(room, c);
    lobby__note_due(room);
    c->flags = 0;
    c->changed = 0;
    c->items_same = 0;
    c->you_same = 0;
}

bool lobby__record_publishes(const json_t *rec)
{
    const char *t = json_string_value(json_object_get(rec, "t"));

    for (size_t i = 0; t && i < sizeof(events) / sizeof(events[0]); i++) {
        if (strcmp(t, events[i].name) == 0) {
            return events[i].flags & EV_PUBLISH;
        }
    }
    return false;
}

int lobby__replay_one(struct room *room, const json_t *rec, size_t i, struct room_commit *c)
{
    struct room_event ev;
    char *err = c->msg;
    int rc = 0;

    if (lobby__event_decode(room, rec, &ev, err) != 0) {
        rc = -1;
    } else if ((i == 0) != (ev.type == ROOM_EV_CREATE)) {
        snprintf(err, GAME_MSG_MAX, "%s",
                 i == 0 ? "the journal does not begin with a create" : "a second create record");
        rc = -1;
    } else if (lobby__event_commit(room, &ev, c) != PROTO_OK) {
        /* The check's reason is in err; say which record it was. */
        char why[GAME_MSG_MAX];
        snprintf(why, sizeof(why), "%s", err);
        snprintf(err, GAME_MSG_MAX, "record %zu (rev %lld) refused on replay: %.180s", i + 1,
                 (long long)room->rev, why);
        rc = -1;
    }
    sodium_memzero(&ev, sizeof(ev)); /* a create's seed */
    c->flags = 0;
    c->changed = 0;
    c->items_same = 0;
    c->you_same = 0;
    return rc;
}

int lobby__replay(struct room *room, const json_t *records, uint64_t now, char *err)
{
    struct room_commit c = {.now = now, .msg = err};
    const json_t *rec;
    size_t i;

    json_array_foreach(records, i, rec) {
        if (lobby__replay_one(room, rec, i, &c) != 0) {
            return -1;
        }
    }
    return 0;
}
