/* SPDX-License-Identifier: MIT */
/*
 * room.c - the lobby: rooms, seats, host, spectators, membership and
 * expiry, and the operations on them. Actions, legal lists and bots are in
 * commit.c; views, diffs and state events in views.c; what rooms send goes
 * through outbox.c; rooms come back from their journals in restore.c. The
 * lobby never touches sockets or clocks: peers carry send/close callbacks
 * and callers pass the time in.
 */
#include "lobby_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "log.h"

const char *const lobby__status_names[] = {"lobby", "playing", "ended"};
const char *const lobby__kind_names[] = {"empty", "human", "bot"};

/* ---- Rooms ---- */

static int spec_add(struct room *room, struct lobby_peer *peer)
{
    if (room->who.nspecs == room->who.capspecs) {
        size_t cap = room->who.capspecs ? room->who.capspecs * 2 : 4;
        struct lobby_peer **n = realloc(room->who.specs, cap * sizeof(*n));
        if (!n) {
            return -ENOMEM;
        }
        room->who.specs = n;
        room->who.capspecs = cap;
    }
    room->who.specs[room->who.nspecs++] = peer;
    return 0;
}

static void spec_remove(struct room *room, struct lobby_peer *peer)
{
    for (size_t i = 0; i < room->who.nspecs; i++) {
        if (room->who.specs[i] == peer) {
            room->who.specs[i] = room->who.specs[--room->who.nspecs];
            return;
        }
    }
}

void lobby__peer_detach(struct lobby *lobby, struct lobby_peer *peer, bool gone, uint64_t now)
{
    struct room *room = peer->room;
    char msg[GAME_MSG_MAX];

    if (gone) {
        /* Nobody is left to send its lines to. After a `leave` they still
         * go out, before the reply to whatever it asks next. */
        lobby__scrub(peer);
    }
    if (!room) {
        return;
    }
    struct room_commit c = {.now = now, .msg = msg, .flags = EV_ANNOUNCE};
    if (peer->spectator) {
        spec_remove(room, peer);
    } else if (peer->seat >= 0 && peer->seat < room->nseats) {
        struct seat *s = &room->seats[peer->seat];
        if (s->peer == peer) {
            s->peer = NULL;
        }
        if (!gone && s->kind == SEAT_HUMAN && room->status != ROOM_ENDED) {
            /* A leave (event.c): a lobby's seat is freed, a running
             * game's kept by a bot. Not recorded, it is not made: the
             * seat then waits for its player, as after a lost
             * connection. */
            struct room_event ev = {.type = ROOM_EV_LEAVE, .index = peer->seat};
            (void)lobby__event_commit(room, &ev, &c);
        }
    }
    peer->room = NULL;
    peer->seat = -1;
    peer->spectator = false;
    lobby__room_touch(room, now);
    lobby__commit_tail(room, &c);
}

/* Binds `peer` to seat `seat` of `room`, replacing any older connection. */
static void seat_bind(struct room *room, int seat, struct lobby_peer *peer, uint64_t now)
{
    struct seat *s = &room->seats[seat];

    if (s->peer && s->peer != peer) {
        struct lobby_peer *old = s->peer;
        json_t *ev = proto_event_new("replaced");
        /* The old connection is closing: what it was still owed is
         * dropped, and it learns why at once. */
        lobby__scrub(old);
        if (ev) {
            json_object_set_new(ev, "room", json_string(room->code));
            json_object_set_new(ev, "message",
                                json_string("this seat was resumed from another connection"));
            lobby__send_json(NULL, old, ev);
            json_decref(ev);
        }
        old->room = NULL;
        old->seat = -1;
        old->close(old);
    }
    s->peer = peer;
    peer->room = room;
    peer->seat = seat;
    peer->spectator = false;
    lobby__notice_back(room, seat);
    lobby__room_touch(room, now);
}

static json_t *seat_reply(const struct room *room, int seat, const char *token)
{
    json_t *r = json_pack("{s:s, s:i, s:s, s:s, s:I}", "room", room->code, "seat", seat, "game",
                          room->game->id, "status", lobby__status_names[room->status], "rev",
                          (json_int_t)room->rev);
    if (r && token) {
        json_object_set_new(r, "token", json_string(token));
    }
    return r;
}

int lobby__seat_claim(struct room *room, int seat, const char *name, char *token,
                      struct room_commit *c)
{
    struct room_event ev = {.type = ROOM_EV_SEAT, .index = seat};
    int rc;

    ev.seat.kind = SEAT_HUMAN;
    ev.seat.level = room->seats[seat].level;
    snprintf(ev.seat.name, sizeof(ev.seat.name), "%s", name);
    ev.seat.has_token = true;
    lobby_token_new(token, ev.seat.token_hash);
    rc = lobby__event_commit(room, &ev, c);
    if (rc != PROTO_OK) {
        sodium_memzero(token, 48);
    }
    return rc;
}

/* True when seat `seat` of a room not yet started is held by nobody under
 * the name `name`: its holder's connection has gone, perhaps before the
 * reply that carried its token arrived. Joining again with the same name
 * takes it back with a new token. */
static bool seat_reclaimable(const struct room *room, int seat, const char *name)
{
    const struct seat *s = &room->seats[seat];

    return room->status == ROOM_LOBBY && s->kind == SEAT_HUMAN && !s->peer &&
           strcmp(s->name, name) == 0;
}

void lobby__seat_take(struct room *room, int seat, struct lobby_peer *peer, const json_t *id,
                      char *token, const char *from, struct room_commit *c)
{
    json_t *r = seat_reply(room, seat, token);

    if (r && from) {
        json_object_set_new(r, "from", json_string(from));
    }
    seat_bind(room, seat, peer, c->now);
    lobby__reply_ok(room, peer, id, r);
    sodium_memzero(token, 48);
    lobby__commit_tail(room, c);
}

bool lobby_holds(struct lobby *lobby, const char *code)
{
    return lobby__room_find(lobby, code) != NULL || lobby__sleeper_find(lobby, code) != NULL;
}

/* Finds the room named by the request's "room" (typed loosely). PROTO_OK
 * with *ret_room set, or an error with a message. */
static int room_lookup(struct lobby *lobby, const json_t *req, uint64_t now, struct room **ret_room,
                       char *msg)
{
    const char *typed = json_string_value(json_object_get(req, "room"));
    char code[PROTO_ROOM_CODE_LEN + 1];

    if (!typed) {
        snprintf(msg, GAME_MSG_MAX, "\"room\" must be a room code string");
        return PROTO_ERR_BAD_REQUEST;
    }
    if (proto_room_code_parse(typed, code) != 0) {
        char shown[16];
        size_t n = 0;
        for (const char *p = typed; *p && n < 12; p++) {
            shown[n++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
        }
        shown[n] = '\0';
        snprintf(msg, GAME_MSG_MAX, "no room %s", shown);
        return PROTO_ERR_ROOM_NOT_FOUND;
    }
    int rc;
    *ret_room = lobby__room_get(lobby, code, now, msg, &rc);
    return rc;
}

/* ---- Lobby ---- */

struct lobby *lobby_new(const struct lobby_config *cfg)
{
    struct lobby *lobby = calloc(1, sizeof(*lobby));
    size_t ngames = 0;

    while (cfg->games && cfg->games[ngames]) {
        ngames++;
    }
    if (lobby) {
        lobby->cfg = *cfg;
        lobby->next_due = UINT64_MAX;
        lobby->sleep_due = UINT64_MAX;
        lobby->spare = calloc(ngames + 1, sizeof(*lobby->spare));
    }
    if (lobby && !lobby->spare) {
        free(lobby);
        lobby = NULL;
    }
    return lobby;
}

void lobby_free(struct lobby *lobby)
{
    if (!lobby) {
        return;
    }
    while (lobby->rooms) {
        struct room *r = lobby->rooms;
        lobby->rooms = r->next;
        lobby__room_free(r);
    }
    while (lobby->sleepers) {
        lobby__sleeper_drop(lobby, lobby->sleepers, false);
    }
    proto_code_map_free(&lobby->sleeping);
    proto_code_map_free(&lobby->index);
    lobby__keys_free(&lobby->tokens);
    lobby__keys_free(&lobby->creators);
    game_text_free(&lobby->scratch);
    for (size_t g = 0; lobby->cfg.games && lobby->cfg.games[g]; g++) {
        free(lobby->spare[g]);
    }
    free(lobby->spare);
    proto_text_free(&lobby->undo_runs);
    proto_text_free(&lobby->reply);
    proto_text_free(&lobby->patch);
    proto_text_free(&lobby->own);
    lobby__reviews_free(lobby);
    free(lobby->push_key);
    free(lobby->public_url);
    free(lobby);
}

unsigned lobby_room_count(const struct lobby *lobby)
{
    return lobby->nrooms;
}

size_t lobby_room_codes(const struct lobby *lobby, char (*codes)[PROTO_ROOM_CODE_LEN + 1],
                        size_t max)
{
    size_t n = 0;

    for (const struct room *r = lobby->rooms; r; r = r->next, n++) {
        if (n < max) {
            memcpy(codes[n], r->code, sizeof(codes[n]));
        }
    }
    for (const struct sleeper *z = lobby->sleepers; z; z = z->next, n++) {
        if (n < max) {
            memcpy(codes[n], z->code, sizeof(codes[n]));
        }
    }
    return n;
}

void lobby_set_draining(struct lobby *lobby, bool draining)
{
    lobby->draining = draining;
}

void lobby_stats(const struct lobby *lobby, struct lobby_stats *ret)
{
    memset(ret, 0, sizeof(*ret));
    while (ret->ngames < LOBBY_STATS_GAMES && lobby->cfg.games[ret->ngames]) {
        ret->game_ids[ret->ngames] = lobby->cfg.games[ret->ngames]->id;
        ret->ngames++;
    }
    for (const struct room *r = lobby->rooms; r; r = r->next) {
        for (unsigned g = 0; g < ret->ngames; g++) {
            ret->rooms[g][r->status] += lobby->cfg.games[g] == r->game;
        }
        for (int i = 0; i < r->nseats; i++) {
            ret->seats_connected += r->seats[i].kind == SEAT_HUMAN && r->seats[i].peer;
        }
        ret->spectators += r->who.nspecs;
        ret->bots_thinking += r->bots.thinking != NULL;
    }
    for (const struct sleeper *z = lobby->sleepers; z; z = z->next) {
        for (unsigned g = 0; g < ret->ngames; g++) {
            ret->rooms[g][z->status] += lobby->cfg.games[g] == z->game;
        }
    }
    ret->sleeping = lobby->nsleeping;
    ret->woken = lobby->woken;
    memcpy(ret->actions, lobby->actions, sizeof(ret->actions));
    memcpy(ret->bot_moves, lobby->bot_moves, sizeof(ret->bot_moves));
    ret->restored = lobby->restored;
}

json_t *lobby_games_json(const struct lobby *lobby)
{
    json_t *games = json_array();

    for (size_t i = 0; games && lobby->cfg.games[i]; i++) {
        const struct game_ops *g = lobby->cfg.games[i];
        json_t *opts = g->options_schema();
        json_t *o = opts ? json_pack("{s:s, s:s, s:i, s:i, s:o}", "id", g->id, "title", g->title,
                                     "min_players", g->min_players, "max_players", g->max_players,
                                     "options", opts)
                         : NULL;
        if (!o || json_array_append_new(games, o) != 0) {
            json_decref(games);
            return NULL;
        }
    }
    return games;
}

json_t *lobby_bot_levels_json(const struct lobby *lobby)
{
    json_t *a = json_array();

    for (int i = 0; a && i <= (int)lobby->cfg.bot_level_max && i < BOT_NLEVELS; i++) {
        if (json_array_append_new(a, json_string(bot_level_names[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

/* A level named by a client, as this lobby runs it: -1 when it names none,
 * -2 when it is above what the lobby runs (a message in msg either way). */
/* A timeout policy the game can follow: a loss ends a game of two seats
 * (of more, the others would go on one short), a skip needs a game that
 * can pass a turn. 0, or -1 with a message. */
static int clock_policy_check(const struct game_ops *game, int nseats,
                              const struct clock_rules *clock, char *msg)
{
    if (clock->policy == CLOCK_ON_TIMEOUT_LOSE && (nseats != 2 || !game->forfeit)) {
        snprintf(msg, GAME_MSG_MAX, "clock \"timeout\": \"lose\" is for %s of two seats",
                 game->forfeit ? game->title : "games that can be forfeited,");
        return -1;
    }
    if (clock->policy == CLOCK_ON_TIMEOUT_SKIP && !game->skip) {
        snprintf(msg, GAME_MSG_MAX, "clock \"timeout\": %s cannot skip a turn", game->title);
        return -1;
    }
    return 0;
}

static int level_wanted(const struct lobby *lobby, const json_t *j, char *msg)
{
    int level = bot_level_parse(json_string_value(j));

    if (level < 0) {
        snprintf(msg, GAME_MSG_MAX, "a bot level is \"random\", \"easy\", \"normal\" or \"hard\"");
        return -1;
    }
    if (level > (int)lobby->cfg.bot_level_max) {
        snprintf(msg, GAME_MSG_MAX, "this server runs bots up to level \"%s\"",
                 bot_level_names[lobby->cfg.bot_level_max]);
        return -2;
    }
    return level;
}

/* True (with the reason in msg) when `peer`, or its address, has created
 * as many rooms still open (not ended) as it may. */
static bool rooms_created_over(const struct lobby *lobby, const struct lobby_peer *peer, char *msg)
{
    unsigned by_conn = lobby__created_by_conn(lobby, peer->id);
    unsigned by_addr = lobby__created_by_addr(lobby, peer->addr);

    if (by_conn >= lobby->cfg.max_rooms_per_conn) {
        snprintf(msg, GAME_MSG_MAX,
                 "this connection has created %u rooms that are still open; that is the most "
                 "it may",
                 by_conn);
        return true;
    }
    if (by_addr >= lobby->cfg.max_rooms_per_addr) {
        snprintf(msg, GAME_MSG_MAX,
                 "your address has created %u rooms that are still open; that is the most it "
                 "may",
                 by_addr);
        return true;
    }
    return false;
}

/* Makes room for a new room on a full server: drops the lobby nobody has
 * been connected to for longest, else the finished game nobody watches
 * that ended first. Such rooms hold a slot only while nobody needs it, so
 * connections that create rooms and go cannot fill the server; what stays
 * is bounded per address by max_rooms_per_addr (open rooms it created).
 * False when every room is in use. */
static bool room_evict(struct lobby *lobby)
{
    struct room *lobby_room = NULL, *ended = NULL;

    for (struct room *r = lobby->rooms; r; r = r->next) {
        if (!r->who.idle_since) {
            continue; /* someone is connected */
        }
        if (r->status == ROOM_LOBBY &&
            (!lobby_room || r->who.idle_since < lobby_room->who.idle_since)) {
            lobby_room = r;
        } else if (r->status == ROOM_ENDED && (!ended || r->ended_at < ended->ended_at)) {
            ended = r;
        }
    }
    struct room *victim = lobby_room ? lobby_room : ended;
    if (!victim) {
        return false;
    }
    log_event(LOG_INFO, "room_evicted", "room=%s status=%s rooms=%u", victim->code,
              lobby__status_names[victim->status], lobby->nrooms);
    lobby__room_drop(lobby, victim, true);
    return true;
}

int lobby__room_may_open(struct lobby *lobby, const struct lobby_peer *peer, char *msg)
{
    if (lobby->draining) {
        snprintf(msg, GAME_MSG_MAX,
                 "this server is shutting down and opens no new rooms; create it again "
                 "to have it placed on another");
        return PROTO_ERR_SERVER_BUSY;
    }
    if (lobby->nrooms >= lobby->cfg.max_rooms && !room_evict(lobby)) {
        snprintf(msg, GAME_MSG_MAX, "this server holds as many rooms as it may (%u)",
                 lobby->cfg.max_rooms);
        return PROTO_ERR_SERVER_BUSY;
    }
    return rooms_created_over(lobby, peer, msg) ? PROTO_ERR_SERVER_BUSY : PROTO_OK;
}

void lobby__room_code_pick(struct lobby *lobby, char code[PROTO_ROOM_CODE_LEN + 1])
{
    do {
        proto_room_code_encode(randombytes_uniform(1u << 30), code);
    } while (lobby_holds(lobby, code));
}

int lobby__room_open(struct lobby *lobby, const struct lobby_peer *peer, const char *code,
                     struct room_event *ev, struct room_commit *c, struct room **ret_room)
{
    struct room *room = lobby__room_new(lobby, code);
    int rc;

    if (!room) {
        return PROTO_ERR_INTERNAL;
    }
    randombytes_buf(ev->create.seed, sizeof(ev->create.seed));
    rc = lobby__event_commit(room, ev, c);
    sodium_memzero(ev->create.seed, sizeof(ev->create.seed));
    if (rc != PROTO_OK) {
        lobby__room_drop(lobby, room, false);
        return rc;
    }
    if (lobby__creator_set(room, peer) != 0) {
        lobby__room_drop(lobby, room, true);
        return PROTO_ERR_INTERNAL;
    }
    *ret_room = room;
    return PROTO_OK;
}

int lobby_create(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *req = rq->args;
    const json_t *id = rq->id;
    uint64_t now = rq->now;
    char *msg = rq->msg;
    const char *gid = json_string_value(json_object_get(req, "game"));
    const struct game_ops *game;
    json_t *jseats = json_object_get(req, "seats");
    json_t *jopts = json_object_get(req, "options");
    struct game_error gerr = {0};
    struct room *room;
    json_t *options;
    int nseats, rc;

    if (!gid) {
        snprintf(msg, GAME_MSG_MAX, "\"game\" must name a game");
        return PROTO_ERR_BAD_REQUEST;
    }
    game = game_find_in(lobby->cfg.games, gid);
    if (!game) {
        snprintf(msg, GAME_MSG_MAX, "no game \"%.40s\"", gid);
        return PROTO_ERR_UNKNOWN_GAME;
    }
    if (jopts && !json_is_object(jopts)) {
        snprintf(msg, GAME_MSG_MAX, "\"options\" must be an object");
        return PROTO_ERR_BAD_OPTION;
    }
    if (jseats && !json_is_integer(jseats)) {
        snprintf(msg, GAME_MSG_MAX, "\"seats\" must be an integer");
        return PROTO_ERR_BAD_OPTION;
    }
    nseats = jseats ? (int)json_integer_value(jseats) : game->min_players;
    if (!jseats && nseats < 2 && game->max_players >= 2) {
        nseats = 2;
    }
    if (nseats < 1 || nseats > GAME_MAX_SEATS || (jseats && json_integer_value(jseats) != nseats)) {
        snprintf(msg, GAME_MSG_MAX, "%s takes %d to %d seats", game->title, game->min_players,
                 game->max_players);
        return PROTO_ERR_BAD_OPTION;
    }
    json_t *pub = json_object_get(jopts, "public");
    if (pub && !json_is_boolean(pub)) {
        snprintf(msg, GAME_MSG_MAX, "option \"public\" is true or false");
        return PROTO_ERR_BAD_OPTION;
    }
    json_t *undo = json_object_get(jopts, "undo");
    if (undo && !json_is_boolean(undo)) {
        snprintf(msg, GAME_MSG_MAX, "option \"undo\" is true or false");
        return PROTO_ERR_BAD_OPTION;
    }
    json_t *jlevel = json_object_get(jopts, "bot_level");
    struct clock_rules clock;
    if (lobby__clock_parse(json_object_get(jopts, "clock"), &clock, msg) != 0 ||
        clock_policy_check(game, nseats, &clock, msg) != 0) {
        return PROTO_ERR_BAD_OPTION;
    }
    int level = jlevel ? level_wanted(lobby, jlevel, msg) : BOT_LEVEL_DEFAULT;
    if (level < 0) {
        return PROTO_ERR_BAD_OPTION;
    }
    options = jopts ? json_deep_copy(jopts) : json_object();
    if (!options) {
        return PROTO_ERR_INTERNAL;
    }
    json_object_del(options, "public");
    json_object_del(options, "undo");
    json_object_del(options, "bot_level");
    json_object_del(options, "clock");
    if (game->check_options(options, nseats, &gerr) != GAME_OK) {
        snprintf(msg, GAME_MSG_MAX, "%s", gerr.message);
        json_decref(options);
        return lobby__game_status_to_proto(gerr.status);
    }
    rc = lobby__room_may_open(lobby, peer, msg);
    if (rc != PROTO_OK) {
        json_decref(options);
        return rc;
    }
    struct room_event ev = {.type = ROOM_EV_CREATE};
    struct room_commit c = {.now = now, .msg = msg};
    char code[PROTO_ROOM_CODE_LEN + 1];
    ev.create.game = game;
    ev.create.options = options;
    ev.create.is_public = json_is_true(pub);
    ev.create.undo_off = json_is_false(undo);
    ev.create.bot_level = (enum bot_level)level;
    ev.create.nseats = nseats;
    ev.create.clock = clock;
    lobby__room_code_pick(lobby, code);
    rc = lobby__room_open(lobby, peer, code, &ev, &c, &room);
    json_decref(options);
    if (rc != PROTO_OK) {
        return rc;
    }
    char token[48];
    rc = lobby__seat_claim(room, 0, peer->name, token, &c);
    if (rc != PROTO_OK) {
        lobby__room_drop(lobby, room, true);
        return rc;
    }
    lobby__peer_detach(lobby, peer, false, now);
    lobby__seat_take(room, 0, peer, id, token, NULL, &c);
    return PROTO_OK;
}

int lobby_join(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *req = rq->args;
    const json_t *id = rq->id;
    uint64_t now = rq->now;
    char *msg = rq->msg;
    struct room *room = NULL;
    int rc = room_lookup(lobby, req, now, &room, msg);
    json_t *jseat = json_object_get(req, "seat");
    int seat = -1;

    if (rc != PROTO_OK) {
        return rc;
    }
    const char *code = room->code;
    if (room->status == ROOM_ENDED) {
        snprintf(msg, GAME_MSG_MAX,
                 "the game in %s has ended; spectate it to see the end and get its record", code);
        return PROTO_ERR_ALREADY_STARTED;
    }
    if (room->status != ROOM_LOBBY) {
        snprintf(msg, GAME_MSG_MAX, "the game in %s has started; spectate instead", code);
        return PROTO_ERR_ALREADY_STARTED;
    }
    if (jseat) {
        if (!json_is_integer(jseat) || json_integer_value(jseat) < 0 ||
            json_integer_value(jseat) >= room->nseats) {
            snprintf(msg, GAME_MSG_MAX, "\"seat\" must be 0 to %d", room->nseats - 1);
            return PROTO_ERR_BAD_REQUEST;
        }
        seat = (int)json_integer_value(jseat);
        if (room->seats[seat].kind != SEAT_EMPTY && !seat_reclaimable(room, seat, peer->name)) {
            snprintf(msg, GAME_MSG_MAX, "seat %d of %s is taken", seat, code);
            return PROTO_ERR_SEAT_TAKEN;
        }
    } else {
        /* The seat this name holds with nobody connected first: the same
         * player joining again (the reply to its first join may never have
         * reached it). Then the first empty one. */
        for (int i = 0; i < room->nseats && seat < 0; i++) {
            if (seat_reclaimable(room, i, peer->name)) {
                seat = i;
            }
        }
        for (int i = 0; i < room->nseats && seat < 0; i++) {
            if (room->seats[i].kind == SEAT_EMPTY) {
                seat = i;
            }
        }
        if (seat < 0) {
            snprintf(msg, GAME_MSG_MAX, "every seat of %s is taken", code);
            return PROTO_ERR_ROOM_FULL;
        }
    }
    if (peer->room == room && !peer->spectator) {
        snprintf(msg, GAME_MSG_MAX, "you already sit in %s", code);
        return PROTO_ERR_SEAT_TAKEN;
    }
    char token[48];
    bool reclaimed = room->seats[seat].kind != SEAT_EMPTY;
    struct room_commit c = {.now = now, .msg = msg};
    rc = lobby__seat_claim(room, seat, peer->name, token, &c);
    if (rc != PROTO_OK) {
        return rc;
    }
    if (reclaimed) {
        log_event(LOG_INFO, "seat_reclaimed", "room=%s seat=%d", room->code, seat);
    }
    lobby__peer_detach(lobby, peer, false, now);
    lobby__seat_take(room, seat, peer, id, token, NULL, &c);
    return PROTO_OK;
}

int lobby_spectate(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *req = rq->args;
    const json_t *id = rq->id;
    uint64_t now = rq->now;
    char *msg = rq->msg;
    struct room *room = NULL;
    int rc = room_lookup(lobby, req, now, &room, msg);

    if (rc != PROTO_OK) {
        return rc;
    }
    if (room->who.nspecs >= lobby->cfg.max_spectators && !(peer->room == room && peer->spectator)) {
        snprintf(msg, GAME_MSG_MAX, "%s has as many spectators as it may (%u)", room->code,
                 lobby->cfg.max_spectators);
        return PROTO_ERR_ROOM_FULL;
    }
    lobby__peer_detach(lobby, peer, false, now);
    if (spec_add(room, peer) != 0) {
        return PROTO_ERR_INTERNAL;
    }
    peer->room = room;
    peer->seat = -1;
    peer->spectator = true;
    lobby__room_touch(room, now);
    lobby__reply_ok(room, peer, id, seat_reply(room, -1, NULL));
    lobby__room_announce(room);
    lobby__views_send_state(room, peer, now);
    lobby__rematch_tell(room, peer);
    return PROTO_OK;
}

/* A seat a bot may take at the start: empty, or a human's that nobody
 * holds (its player's connection has gone). */
static bool seat_open_at_start(const struct seat *s)
{
    return s->kind == SEAT_EMPTY || (s->kind == SEAT_HUMAN && !s->peer);
}

/* Reads start's "bots" into fill[seat]: the level of the bot that takes
 * each open seat (seat_open_at_start()), -1 for none. "bots" is absent or
 * false (no bots), true (every open seat, at the room's bot_level), a
 * level (every open seat, at that level) or an array with one entry per
 * seat: a level for an open seat to fill, null for a seat to leave. A bot
 * keeps a human's seat, name and token: its player takes it back by
 * resuming. PROTO_OK or bad_request. */
static int start_bots(const struct room *room, const json_t *jb, int fill[GAME_MAX_SEATS],
                      char *msg)
{
    int all = -1;

    for (int i = 0; i < GAME_MAX_SEATS; i++) {
        fill[i] = -1;
    }
    if (!jb || json_is_false(jb)) {
        return PROTO_OK;
    }
    if (json_is_true(jb)) {
        all = (int)lobby__room_level(room);
    } else if (json_is_string(jb)) {
        if ((all = level_wanted(room->lobby, jb, msg)) < 0) {
            return PROTO_ERR_BAD_REQUEST;
        }
    } else if (!json_is_array(jb) || json_array_size(jb) != (size_t)room->nseats) {
        snprintf(msg, GAME_MSG_MAX,
                 "\"bots\" is true, a level, or an array of %d levels or nulls, one per seat",
                 room->nseats);
        return PROTO_ERR_BAD_REQUEST;
    }
    for (int i = 0; i < room->nseats; i++) {
        const json_t *e = json_is_array(jb) ? json_array_get(jb, (size_t)i) : NULL;
        if (json_is_null(e)) {
            continue;
        }
        int level = e ? level_wanted(room->lobby, e, msg) : all;
        if (level < 0) {
            return PROTO_ERR_BAD_REQUEST;
        }
        if (!seat_open_at_start(&room->seats[i])) {
            if (json_is_array(jb)) {
                snprintf(msg, GAME_MSG_MAX, "seat %d is taken: its entry in \"bots\" is null", i);
                return PROTO_ERR_BAD_REQUEST;
            }
            continue;
        }
        fill[i] = level;
    }
    return PROTO_OK;
}

int lobby_start(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *req = rq->args;
    const json_t *id = rq->id;
    uint64_t now = rq->now;
    char *msg = rq->msg;
    struct room *room = peer->room;
    int fill[GAME_MAX_SEATS];
    int filled = 0, nbots = 0;

    if (peer->spectator || peer->seat != room->host) {
        snprintf(msg, GAME_MSG_MAX, "only the host (seat %d) may start the game", room->host);
        return PROTO_ERR_NOT_HOST;
    }
    if (room->status != ROOM_LOBBY) {
        snprintf(msg, GAME_MSG_MAX, "the game has already started");
        return PROTO_ERR_ALREADY_STARTED;
    }
    int rc = start_bots(room, json_object_get(req, "bots"), fill, msg);
    if (rc != PROTO_OK) {
        return rc;
    }
    for (int i = 0; i < room->nseats; i++) {
        filled += room->seats[i].kind != SEAT_EMPTY || fill[i] >= 0;
    }
    if (filled < room->nseats) {
        snprintf(msg, GAME_MSG_MAX,
                 "%d of %d seats are filled; wait for friends or start with bots", filled,
                 room->nseats);
        return PROTO_ERR_NOT_ENOUGH_PLAYERS;
    }
    for (int i = 0; i < room->nseats; i++) {
        const struct seat *s = &room->seats[i];
        if (s->kind == SEAT_HUMAN && !s->peer && fill[i] < 0) {
            /* A game would wait for ever on a seat whose player may never
             * have received its token. */
            snprintf(msg, GAME_MSG_MAX,
                     "seat %d (%.32s) has nobody connected: wait for them to join again with "
                     "the same name, or start with bots to have one keep the seat",
                     i, s->name);
            return PROTO_ERR_NOT_ENOUGH_PLAYERS;
        }
    }
    struct room_event ev = {.type = ROOM_EV_START};
    bool kept[GAME_MAX_SEATS] = {false}; /* humans' seats a bot keeps */
    for (int i = 0; i < room->nseats; i++) {
        if (fill[i] >= 0) {
            struct start_fill *f = &ev.start.fill[ev.start.nfill++];
            kept[i] = room->seats[i].kind == SEAT_HUMAN;
            f->seat = i;
            f->level = (enum bot_level)fill[i];
            if (kept[i]) {
                memcpy(f->name, room->seats[i].name, sizeof(f->name));
            } else {
                snprintf(f->name, sizeof(f->name), "Bot %d", ++nbots);
            }
        }
    }
    struct room_commit c = {.now = now, .msg = msg};
    rc = lobby__event_commit(room, &ev, &c);
    if (rc != PROTO_OK) {
        return rc;
    }
    lobby__reply_ok(room, peer, id, json_pack("{s:I}", "rev", (json_int_t)room->rev));
    for (int i = 0; i < room->nseats; i++) {
        if (room->seats[i].kind == SEAT_BOT) {
            log_event(LOG_INFO, "bot_seat", "room=%s seat=%d bot_level=%s kept=%s", room->code, i,
                      bot_level_names[room->seats[i].level], kept[i] ? "yes" : "no");
        }
    }
    lobby__commit_tail(room, &c);
    return PROTO_OK;
}

int lobby_leave(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *id = rq->id;
    uint64_t now = rq->now;
    lobby__reply_bare(NULL, peer, id);
    lobby__peer_detach(lobby, peer, false, now);
    return PROTO_OK;
}

void lobby_peer_gone(struct lobby *lobby, struct lobby_peer *peer, uint64_t now)
{
    lobby__peer_detach(lobby, peer, true, now);
    lobby__creator_gone(lobby, peer->id);
}

int lobby_resume(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *req = rq->args;
    const json_t *id = rq->id;
    uint64_t now = rq->now;
    char *msg = rq->msg;
    const char *token = json_string_value(json_object_get(req, "token"));
    json_t *jrev = json_object_get(req, "rev");
    uint8_t hash[32];
    struct room *found = NULL;
    int seat = -1;

    if (!token || lobby_token_hash(token, hash) != 0) {
        snprintf(msg, GAME_MSG_MAX, "that token does not open any seat");
        return PROTO_ERR_BAD_TOKEN;
    }
    if (jrev && (!json_is_integer(jrev) || json_integer_value(jrev) < 0)) {
        snprintf(msg, GAME_MSG_MAX, "\"rev\" must be an integer, 0 or more");
        return PROTO_ERR_BAD_REQUEST;
    }
    const char *code = lobby__token_find(lobby, hash, &seat);
    if (code) {
        int err;
        char where[PROTO_ROOM_CODE_LEN + 1];
        snprintf(where, sizeof(where), "%s", code); /* a wake-up may move the index */
        found = lobby__room_get(lobby, where, now, msg, &err);
        if (!found && err == PROTO_ERR_INTERNAL) {
            return err;
        }
    }
    if (found && (seat >= found->nseats || !found->seats[seat].has_token ||
                  sodium_memcmp(found->seats[seat].token_hash, hash, 32) != 0)) {
        found = NULL; /* a stale entry: the index is told by the seat itself */
    }
    if (!found) {
        snprintf(msg, GAME_MSG_MAX, "that token does not open any seat");
        return PROTO_ERR_BAD_TOKEN;
    }
    struct room_commit c = {.now = now, .msg = msg, .flags = EV_ANNOUNCE};
    if (found->seats[seat].kind == SEAT_BOT) {
        /* The player is back: the bot that kept the seat steps aside. */
        const struct seat *s = &found->seats[seat];
        struct room_event ev = {.type = ROOM_EV_SEAT, .index = seat};
        ev.seat.kind = SEAT_HUMAN;
        ev.seat.level = s->level;
        memcpy(ev.seat.name, s->name, sizeof(ev.seat.name));
        ev.seat.has_token = true;
        memcpy(ev.seat.token_hash, s->token_hash, sizeof(ev.seat.token_hash));
        int rc = lobby__event_commit(found, &ev, &c);
        if (rc != PROTO_OK) {
            return rc;
        }
    }
    if (peer->room != found || peer->seat != seat) {
        lobby__peer_detach(lobby, peer, false, now);
    }
    /* A resume is the same player: the connection takes the seat's name,
     * the one the game's log and the other players know. */
    snprintf(peer->name, sizeof(peer->name), "%s", found->seats[seat].name);
    seat_bind(found, seat, peer, now);
    lobby__reply_ok(found, peer, id, seat_reply(found, seat, NULL));
    lobby__commit_tail(found, &c);
    if (found->status == ROOM_LOBBY) {
        return PROTO_OK;
    }
    /* 0 <= rev (checked above); one beyond the room's, or too far back,
     * gets the whole view. */
    /* While clocks run, the state says how long ago its times were
     * taken; kept diffs would not. */
    if (!jrev || found->clock.running ||
        !lobby__views_resend(found, peer, seat, (int64_t)json_integer_value(jrev))) {
        lobby__views_send_state(found, peer, now);
    }
    lobby__rematch_tell(found, peer);
    return PROTO_OK;
}

int lobby_list(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *id = rq->id;
    json_t *rooms = json_array();

    if (!rooms) {
        return PROTO_ERR_INTERNAL;
    }
    for (struct room *r = lobby->rooms; r; r = r->next) {
        int taken = 0;
        if (!r->is_public || r->status != ROOM_LOBBY) {
            continue;
        }
        for (int i = 0; i < r->nseats; i++) {
            taken += r->seats[i].kind != SEAT_EMPTY;
        }
        json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:s, s:O}", "room", r->code, "game",
                              r->game->id, "seats", r->nseats, "taken", taken, "host",
                              r->host >= 0 ? r->seats[r->host].name : "", "options", r->options);
        if (!o || json_array_append_new(rooms, o) != 0) {
            json_decref(rooms);
            return PROTO_ERR_INTERNAL;
        }
    }
    json_t *ended = lobby__ended_json(lobby, rq->now);
    if (!ended) {
        json_decref(rooms);
        return PROTO_ERR_INTERNAL;
    }
    lobby__reply_ok(NULL, peer, id, json_pack("{s:o, s:o}", "rooms", rooms, "ended", ended));
    return PROTO_OK;
}

int lobby_chat(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *req = rq->args;
    const json_t *id = rq->id;
    char *msg = rq->msg;
    const char *text = json_string_value(json_object_get(req, "text"));
    struct room *room = peer->room;
    char clean[PROTO_CHAT_MAX_CHARS * 4 + 1];
    size_t n = 0;

    if (!text || !*text) {
        snprintf(msg, GAME_MSG_MAX, "\"text\" must be a non-empty string");
        return PROTO_ERR_BAD_REQUEST;
    }
    if (proto_utf8_len(text) > PROTO_CHAT_MAX_CHARS || (n = strlen(text)) >= sizeof(clean)) {
        snprintf(msg, GAME_MSG_MAX, "a chat line holds at most %d characters",
                 PROTO_CHAT_MAX_CHARS);
        return PROTO_ERR_BAD_REQUEST;
    }
    /* Control characters (C0 and C1, newlines among them) become spaces. */
    proto_clean_text(text, n, clean);
    /* The line reaches everyone, the sender included, before the reply:
     * a client that has the reply has also shown its own line. */
    json_t *ev = proto_event_new("chat");
    if (ev) {
        json_object_set_new(ev, "room", json_string(room->code));
        json_object_set_new(ev, "seat", json_integer(peer->spectator ? -1 : peer->seat));
        json_object_set_new(ev, "name", json_string(peer->name));
        json_object_set_new(ev, "text", json_string(clean));
        lobby__broadcast(room, ev);
        json_decref(ev);
    }
    lobby__notices_chat(room, peer->spectator ? -1 : peer->seat, peer->name, clean);
    lobby__reply_bare(room, peer, id);
    (void)lobby;
    return PROTO_OK;
}

int lobby_sync(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *id = rq->id;
    struct room *room = peer->room;

    lobby__reply_ok(room, peer, id, json_pack("{s:I}", "rev", (json_int_t)room->rev));
    if (room->status == ROOM_LOBBY) {
        lobby__room_announce(room);
    } else {
        lobby__views_send_state(room, peer, rq->now);
        lobby__rematch_tell(room, peer);
    }
    (void)lobby;
    return PROTO_OK;
}

/* ---- Time-driven work ---- */

uint64_t lobby_next_due(const struct lobby *lobby)
{
    return lobby->next_due;
}

uint64_t lobby_run_due(struct lobby *lobby, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    struct room *room;

    lobby__sleepers_run_due(lobby, now);
    room = lobby->rooms;
    while (room) {
        struct room *following = room->next;
        if (room->bots.due && room->bots.due <= now && room->status == ROOM_PLAYING) {
            lobby__bot_move(lobby, room, now);
        }
        lobby__clock_run(room, now);
        /* Lines that still wait for the journal in its queue (a reply to
         * a last `leave`) go out before the room goes: lobby__room_due()
         * leaves its expiry out until then. */
        if (lobby__room_expiry(lobby, room) <= now && room->out.head == room->out.len) {
            lobby__room_drop(lobby, room, true);
        } else if (lobby__sleep_time(room) <= now) {
            lobby__room_sleep(lobby, room);
        } else if (lobby__room_due(lobby, room) < next) {
            next = lobby__room_due(lobby, room);
        }
        room = following;
    }
    if (lobby->sleep_due < next) {
        next = lobby->sleep_due;
    }
    lobby->next_due = next;
    return next;
}
