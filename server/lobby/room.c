/* SPDX-License-Identifier: MIT */
/*
 * room.c - the lobby: rooms, seats, host, spectators, the game each room
 * runs, per-seat views and diffs, bots and expiry. What rooms send goes
 * through outbox.c; rooms come back from their journals in restore.c.
 *
 * A room keeps every human seat's last view, so one accepted action costs
 * one new view and one diff per recipient (spectators share one). Each seat
 * also keeps its last LOBBY_DIFF_KEEP diff lines for resume. The lobby never
 * touches sockets or clocks: peers carry send/close callbacks and callers
 * pass the time in.
 */
#include "lobby_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

const char *const lobby__status_names[] = {"lobby", "playing", "ended"};
const char *const lobby__kind_names[] = {"empty", "human", "bot"};

/* The `room` event: membership, presence, host, status. */
static void room_announce(struct room *room)
{
    json_t *ev = proto_event_new("room");
    json_t *seats = json_array();

    if (!ev || !seats) {
        goto out;
    }
    for (int i = 0; i < room->nseats; i++) {
        const struct seat *s = &room->seats[i];
        json_t *o = json_pack("{s:i, s:s, s:s, s:b}", "seat", i, "name",
                              s->kind == SEAT_EMPTY ? "" : s->name, "kind", lobby__kind_names[s->kind],
                              "connected", s->kind == SEAT_BOT || s->peer != NULL);
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
    json_object_set_new(ev, "spectators", json_integer((json_int_t)room->nspecs));
    lobby__broadcast(room, ev);
out:
    json_decref(seats);
    json_decref(ev);
}

/* ---- Views ---- */

/* The view of `seat` (-1 spectator) with the server's additions: the seed
 * commitment always, the seed itself in the result once the game is over.
 * New reference or NULL. */
json_t *lobby__room_view(const struct room *room, int seat)
{
    json_t *v = room->game->view(room->state, seat);
    json_t *result;

    if (!v) {
        return NULL;
    }
    json_object_set_new(v, "seed_commit", json_string(room->seed_commit));
    result = json_object_get(v, "result");
    if (json_is_object(result)) {
        char hex[GAME_SEED_BYTES * 2 + 1];
        proto_hex(room->seed, sizeof(room->seed), hex);
        json_object_set_new(result, "seed", json_string(hex));
    }
    return v;
}

/* Sends a full `state` event of `view` (borrowed) to `peer`. */
static void send_state(struct room *room, struct lobby_peer *peer, int seat, const json_t *view)
{
    char hash[PROTO_HASH_HEX_LEN + 1];
    json_t *ev;

    if (!view || proto_view_hash(view, hash) != 0) {
        return;
    }
    ev = proto_event_new("state");
    if (!ev) {
        return;
    }
    json_object_set_new(ev, "room", json_string(room->code));
    json_object_set_new(ev, "rev", json_integer(room->rev));
    json_object_set_new(ev, "seat", json_integer(seat));
    json_object_set(ev, "view", (json_t *)view);
    json_object_set_new(ev, "hash", json_string(hash));
    lobby__send_json(room, peer, ev);
    json_decref(ev);
}

/* Sends the current state to one member: a seat's kept view, or the
 * spectators' shared view (computed when missing). */
static void room_send_state(struct room *room, struct lobby_peer *peer)
{
    if (room->status == ROOM_LOBBY) {
        return;
    }
    if (peer->seat >= 0) {
        struct seat *s = &room->seats[peer->seat];
        if (!s->view) {
            s->view = lobby__room_view(room, peer->seat);
        }
        send_state(room, peer, peer->seat, s->view);
        return;
    }
    if (!room->spec_view) {
        room->spec_view = lobby__room_view(room, -1);
    }
    send_state(room, peer, -1, room->spec_view);
}

/* Builds the diff event line from `old` to `now` (both borrowed). Malloc'ed
 * line, or NULL. */
static char *diff_line(const struct room *room, const json_t *old, const json_t *now,
                       size_t *ret_len)
{
    char hash[PROTO_HASH_HEX_LEN + 1];
    json_t *patch = proto_patch_diff(old, now);
    json_t *ev = proto_event_new("diff");
    char *line = NULL;

    if (patch && ev && proto_view_hash(now, hash) == 0) {
        json_object_set_new(ev, "room", json_string(room->code));
        json_object_set_new(ev, "rev", json_integer(room->rev));
        json_object_set(ev, "patch", patch);
        json_object_set_new(ev, "hash", json_string(hash));
        line = proto_line_dump(ev, ret_len);
    }
    json_decref(patch);
    json_decref(ev);
    return line;
}

static void hist_push(struct seat *s, int64_t rev, char *line, size_t len)
{
    struct diff_line *d = &s->hist[rev % LOBBY_DIFF_KEEP];

    free(d->line);
    d->rev = rev;
    d->line = line;
    d->len = len;
}

static void seat_clear_views(struct seat *s)
{
    json_decref(s->view);
    s->view = NULL;
    for (int i = 0; i < LOBBY_DIFF_KEEP; i++) {
        free(s->hist[i].line);
        s->hist[i].line = NULL;
        s->hist[i].rev = -1;
    }
}

/* After the state advanced to room->rev: one new view and one diff per
 * human seat (kept for resume, sent when connected), one shared public view
 * and diff for the spectators. A seat whose view cannot be built loses its
 * kept view, so that its next sync or resume sends a full state. */
static void room_publish(struct room *room)
{
    for (int i = 0; i < room->nseats; i++) {
        struct seat *s = &room->seats[i];
        json_t *now;
        char *line = NULL;
        size_t len = 0;

        if (s->kind != SEAT_HUMAN) {
            continue;
        }
        now = lobby__room_view(room, i);
        if (now && s->view) {
            line = diff_line(room, s->view, now, &len);
        }
        if (!line) {
            /* Resume from before this rev can no longer be served by diffs:
             * drop the history and send the whole view instead. */
            seat_clear_views(s);
            s->view = now;
            if (s->peer) {
                send_state(room, s->peer, i, now);
            }
            continue;
        }
        json_decref(s->view);
        s->view = now;
        lobby__out(room, s->peer, line, len);
        hist_push(s, room->rev, line, len);
    }
    if (room->nspecs == 0) {
        json_decref(room->spec_view);
        room->spec_view = NULL;
        return;
    }
    json_t *now = lobby__room_view(room, -1);
    size_t len = 0;
    char *line = (now && room->spec_view) ? diff_line(room, room->spec_view, now, &len) : NULL;
    json_decref(room->spec_view);
    room->spec_view = now;
    for (size_t k = 0; k < room->nspecs; k++) {
        if (line) {
            lobby__out(room, room->specs[k], line, len);
        } else {
            send_state(room, room->specs[k], -1, now);
        }
    }
    free(line);
}

/* ---- Rooms ---- */

struct room *lobby__room_find(struct lobby *lobby, const char *code)
{
    for (struct room *r = lobby->rooms; r; r = r->next) {
        if (strcmp(r->code, code) == 0) {
            return r;
        }
    }
    return NULL;
}

static bool room_has_human_connected(const struct room *room)
{
    for (int i = 0; i < room->nseats; i++) {
        if (room->seats[i].peer) {
            return true;
        }
    }
    return room->nspecs > 0;
}

void lobby__room_touch(struct room *room, uint64_t now)
{
    room->idle_since = room_has_human_connected(room) ? 0 : (now ? now : 1);
    lobby__note_due(room);
}

void lobby__room_free(struct room *room)
{
    if (!room) {
        return;
    }
    for (int i = 0; i < room->nseats; i++) {
        if (room->seats[i].peer) {
            room->seats[i].peer->room = NULL;
            room->seats[i].peer->seat = -1;
        }
        seat_clear_views(&room->seats[i]);
    }
    for (size_t i = 0; i < room->nspecs; i++) {
        room->specs[i]->room = NULL;
        room->specs[i]->spectator = false;
    }
    for (size_t i = room->out_head; i < room->out_len; i++) {
        free(room->out[i].line);
    }
    free(room->out);
    free(room->specs);
    json_decref(room->spec_view);
    json_decref(room->options);
    json_decref(room->actions);
    free(room->state);
    free(room);
}

static void lobby_drop(struct lobby *lobby, struct room *room)
{
    for (struct room **p = &lobby->rooms; *p; p = &(*p)->next) {
        if (*p == room) {
            *p = room->next;
            lobby->nrooms--;
            if (lobby->has_store) {
                lobby->store.forget(lobby->store.ctx, room->code);
            }
            lobby__room_free(room);
            return;
        }
    }
}

static int spec_add(struct room *room, struct lobby_peer *peer)
{
    if (room->nspecs == room->capspecs) {
        size_t cap = room->capspecs ? room->capspecs * 2 : 4;
        struct lobby_peer **n = realloc(room->specs, cap * sizeof(*n));
        if (!n) {
            return -ENOMEM;
        }
        room->specs = n;
        room->capspecs = cap;
    }
    room->specs[room->nspecs++] = peer;
    return 0;
}

static void spec_remove(struct room *room, struct lobby_peer *peer)
{
    for (size_t i = 0; i < room->nspecs; i++) {
        if (room->specs[i] == peer) {
            room->specs[i] = room->specs[--room->nspecs];
            return;
        }
    }
}

/* Takes `peer` out of its room. `gone` is a lost connection rather than a
 * `leave`: in the lobby a seat then stays reserved for resume. */
static void peer_detach(struct lobby *lobby, struct lobby_peer *peer, bool gone, uint64_t now)
{
    struct room *room = peer->room;

    if (!room) {
        return;
    }
    lobby__scrub(room, peer);
    if (peer->spectator) {
        spec_remove(room, peer);
    } else if (peer->seat >= 0 && peer->seat < room->nseats) {
        struct seat *s = &room->seats[peer->seat];
        if (s->peer == peer) {
            s->peer = NULL;
        }
        if (room->status == ROOM_LOBBY && !gone) {
            /* Leaving a lobby frees the seat and voids its token. */
            s->kind = SEAT_EMPTY;
            s->has_token = false;
            s->name[0] = '\0';
            lobby__journal_seat(room, peer->seat);
            if (room->host == peer->seat) {
                room->host = -1;
                for (int k = 1; k <= room->nseats; k++) {
                    int c = (peer->seat + k) % room->nseats;
                    if (room->seats[c].kind == SEAT_HUMAN) {
                        room->host = c;
                        break;
                    }
                }
                lobby__journal_host(room);
            }
        } else if (room->status == ROOM_PLAYING && !gone && s->kind == SEAT_HUMAN) {
            /* Leaving a running game: a bot plays the seat until its token
             * resumes it. A lost connection just waits for the player. */
            s->kind = SEAT_BOT;
            seat_clear_views(s);
            lobby__journal_seat(room, peer->seat);
            lobby__schedule_bots(lobby, room, now);
        }
    }
    peer->room = NULL;
    peer->seat = -1;
    peer->spectator = false;
    lobby__room_touch(room, now);
    room_announce(room);
}

/* Binds `peer` to seat `seat` of `room`, replacing any older connection. */
static void seat_bind(struct room *room, int seat, struct lobby_peer *peer, uint64_t now)
{
    struct seat *s = &room->seats[seat];

    if (s->peer && s->peer != peer) {
        struct lobby_peer *old = s->peer;
        json_t *ev = proto_event_new("replaced");
        if (ev) {
            json_object_set_new(ev, "room", json_string(room->code));
            json_object_set_new(ev, "message", json_string("this seat was resumed from another connection"));
            lobby__send_json(NULL, old, ev);
            json_decref(ev);
        }
        lobby__scrub(room, old);
        old->room = NULL;
        old->seat = -1;
        old->close(old);
    }
    s->peer = peer;
    peer->room = room;
    peer->seat = seat;
    peer->spectator = false;
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

/* Seats `peer` at `seat` as a human with a fresh token and replies. */
static void seat_take(struct room *room, int seat, struct lobby_peer *peer, const json_t *id,
                      uint64_t now)
{
    struct seat *s = &room->seats[seat];
    char token[48];

    lobby_token_new(token, s->token_hash);
    s->has_token = true;
    s->kind = SEAT_HUMAN;
    snprintf(s->name, sizeof(s->name), "%s", peer->name);
    seat_bind(room, seat, peer, now);
    lobby__journal_seat(room, seat);
    if (room->host < 0) {
        room->host = seat;
        lobby__journal_host(room);
    }
    lobby__reply_ok(room, peer, id, seat_reply(room, seat, token));
    sodium_memzero(token, sizeof(token));
    room_announce(room);
}

/* Finds the room named by the request's "room" (typed loosely). PROTO_OK
 * with *ret_room set, or an error with a message. */
static int room_lookup(struct lobby *lobby, const json_t *req, struct room **ret_room, char *msg)
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
    *ret_room = lobby__room_find(lobby, code);
    if (!*ret_room) {
        snprintf(msg, GAME_MSG_MAX, "no room %s", code);
        return PROTO_ERR_ROOM_NOT_FOUND;
    }
    return PROTO_OK;
}

static int game_status_to_proto(int status)
{
    switch (status) {
    case GAME_E_ILLEGAL:
        return PROTO_ERR_ILLEGAL_ACTION;
    case GAME_E_BAD_ACTION:
        return PROTO_ERR_BAD_ACTION;
    case GAME_E_NOT_TURN:
        return PROTO_ERR_NOT_YOUR_TURN;
    case GAME_E_OVER:
        return PROTO_ERR_GAME_OVER;
    case GAME_E_BAD_OPTION:
        return PROTO_ERR_BAD_OPTION;
    default:
        return PROTO_ERR_INTERNAL;
    }
}

/* A new room in the lobby's list, in the lobby state. Steals `options`
 * (freed on failure too). NULL on ENOMEM. */
struct room *lobby__room_new(struct lobby *lobby, const char *code, const struct game_ops *game,
                             json_t *options, bool is_public, int nseats,
                             const uint8_t seed[GAME_SEED_BYTES])
{
    struct room *room = calloc(1, sizeof(*room));
    uint8_t h[32];

    if (!room || !(room->actions = json_array())) {
        free(room);
        json_decref(options);
        return NULL;
    }
    room->lobby = lobby;
    snprintf(room->code, sizeof(room->code), "%s", code);
    room->game = game;
    room->options = options;
    room->is_public = is_public;
    room->nseats = nseats;
    room->host = -1;
    room->status = ROOM_LOBBY;
    for (int i = 0; i < GAME_MAX_SEATS; i++) {
        for (int k = 0; k < LOBBY_DIFF_KEEP; k++) {
            room->seats[i].hist[k].rev = -1;
        }
    }
    memcpy(room->seed, seed, GAME_SEED_BYTES);
    crypto_generichash(h, sizeof(h), room->seed, sizeof(room->seed), NULL, 0);
    proto_hex(h, sizeof(h), room->seed_commit);
    room->next = lobby->rooms;
    lobby->rooms = room;
    lobby->nrooms++;
    return room;
}

/* Builds the game from the seats as they are (no empty seat left) and
 * moves the room to playing at rev 1. GAME_OK or the game's refusal. */
int lobby__room_begin(struct room *room, struct game_error *gerr)
{
    struct game_setup setup;

    room->state = calloc(1, room->game->state_size);
    if (!room->state) {
        return game_error_set(gerr, GAME_E_NOMEM, "out of memory");
    }
    memset(&setup, 0, sizeof(setup));
    setup.nseats = room->nseats;
    memcpy(setup.seed, room->seed, sizeof(setup.seed));
    for (int i = 0; i < room->nseats; i++) {
        snprintf(setup.names[i], sizeof(setup.names[i]), "%s", room->seats[i].name);
    }
    int rc = room->game->init(room->state, room->options, &setup, gerr);
    sodium_memzero(&setup.seed, sizeof(setup.seed));
    if (rc != GAME_OK) {
        free(room->state);
        room->state = NULL;
        return rc;
    }
    room->status = ROOM_PLAYING;
    room->rev = 1;
    return GAME_OK;
}

/* ---- Lobby ---- */

struct lobby *lobby_new(const struct lobby_config *cfg)
{
    struct lobby *lobby = calloc(1, sizeof(*lobby));

    if (lobby) {
        lobby->cfg = *cfg;
        lobby->next_due = UINT64_MAX;
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
    free(lobby);
}

unsigned lobby_room_count(const struct lobby *lobby)
{
    return lobby->nrooms;
}

json_t *lobby_games_json(void)
{
    json_t *games = json_array();

    for (size_t i = 0; games && game_registry[i]; i++) {
        const struct game_ops *g = game_registry[i];
        json_t *opts = g->options_schema();
        json_t *o = opts ? json_pack("{s:s, s:s, s:i, s:i, s:o}", "id", g->id, "title", g->title,
                                     "min_players", g->min_players, "max_players",
                                     g->max_players, "options", opts)
                         : NULL;
        if (!o || json_array_append_new(games, o) != 0) {
            json_decref(games);
            return NULL;
        }
    }
    return games;
}

int lobby_create(struct lobby *lobby, struct lobby_peer *peer, const json_t *req,
                 const json_t *id, uint64_t now, char *msg)
{
    const char *gid = json_string_value(json_object_get(req, "game"));
    const struct game_ops *game;
    json_t *jseats = json_object_get(req, "seats");
    json_t *jopts = json_object_get(req, "options");
    struct game_error gerr = {0};
    struct room *room;
    json_t *options;
    int nseats;

    if (!gid) {
        snprintf(msg, GAME_MSG_MAX, "\"game\" must name a game");
        return PROTO_ERR_BAD_REQUEST;
    }
    game = game_find(gid);
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
    options = jopts ? json_deep_copy(jopts) : json_object();
    if (!options) {
        return PROTO_ERR_INTERNAL;
    }
    json_object_del(options, "public");
    if (game->check_options(options, nseats, &gerr) != GAME_OK) {
        snprintf(msg, GAME_MSG_MAX, "%s", gerr.message);
        json_decref(options);
        return game_status_to_proto(gerr.status);
    }
    if (lobby->nrooms >= lobby->cfg.max_rooms) {
        json_decref(options);
        snprintf(msg, GAME_MSG_MAX, "this server holds as many rooms as it may (%u)",
                 lobby->cfg.max_rooms);
        return PROTO_ERR_SERVER_BUSY;
    }
    uint8_t seed[GAME_SEED_BYTES];
    char code[PROTO_ROOM_CODE_LEN + 1];
    randombytes_buf(seed, sizeof(seed));
    do {
        proto_room_code_encode(randombytes_uniform(1u << 30), code);
    } while (lobby__room_find(lobby, code));
    room = lobby__room_new(lobby, code, game, options, json_is_true(pub), nseats, seed);
    if (!room) {
        return PROTO_ERR_INTERNAL;
    }
    char seed_hex[GAME_SEED_BYTES * 2 + 1];
    proto_hex(seed, sizeof(seed), seed_hex);
    lobby__journal(room, json_pack("{s:s, s:s, s:s, s:O, s:b, s:i, s:s}", "t", "create", "room", code,
                            "game", game->id, "options", options, "public", room->is_public,
                            "seats", nseats, "seed", seed_hex));
    sodium_memzero(seed, sizeof(seed));
    peer_detach(lobby, peer, false, now);
    seat_take(room, 0, peer, id, now);
    return PROTO_OK;
}

int lobby_join(struct lobby *lobby, struct lobby_peer *peer, const json_t *req,
               const json_t *id, uint64_t now, char *msg)
{
    struct room *room = NULL;
    int rc = room_lookup(lobby, req, &room, msg);
    json_t *jseat = json_object_get(req, "seat");
    int seat = -1;

    if (rc != PROTO_OK) {
        return rc;
    }
    const char *code = room->code;
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
        if (room->seats[seat].kind != SEAT_EMPTY) {
            snprintf(msg, GAME_MSG_MAX, "seat %d of %s is taken", seat, code);
            return PROTO_ERR_SEAT_TAKEN;
        }
    } else {
        for (int i = 0; i < room->nseats; i++) {
            if (room->seats[i].kind == SEAT_EMPTY) {
                seat = i;
                break;
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
    peer_detach(lobby, peer, false, now);
    seat_take(room, seat, peer, id, now);
    return PROTO_OK;
}

int lobby_spectate(struct lobby *lobby, struct lobby_peer *peer, const json_t *req,
                   const json_t *id, uint64_t now, char *msg)
{
    struct room *room = NULL;
    int rc = room_lookup(lobby, req, &room, msg);

    if (rc != PROTO_OK) {
        return rc;
    }
    peer_detach(lobby, peer, false, now);
    if (spec_add(room, peer) != 0) {
        return PROTO_ERR_INTERNAL;
    }
    peer->room = room;
    peer->seat = -1;
    peer->spectator = true;
    lobby__room_touch(room, now);
    lobby__reply_ok(room, peer, id, seat_reply(room, -1, NULL));
    room_announce(room);
    room_send_state(room, peer);
    return PROTO_OK;
}

/* Arms the bot timer when a bot may act now. */
void lobby__schedule_bots(struct lobby *lobby, struct room *room, uint64_t now)
{
    unsigned active = room->status == ROOM_PLAYING ? room->game->active(room->state) : 0;

    room->bot_due = 0;
    for (int i = 0; i < room->nseats; i++) {
        if ((active & (1u << i)) && room->seats[i].kind == SEAT_BOT) {
            room->bot_due = now + lobby->cfg.bot_delay_ms;
            if (room->bot_due == 0) {
                room->bot_due = 1;
            }
            break;
        }
    }
    lobby__note_due(room);
}

int lobby_start(struct lobby *lobby, struct lobby_peer *peer, const json_t *req,
                const json_t *id, uint64_t now, char *msg)
{
    struct room *room = peer->room;
    bool bots = json_is_true(json_object_get(req, "bots"));
    struct game_error gerr = {0};
    int filled = 0, nbots = 0;

    if (!room) {
        return PROTO_ERR_NOT_IN_ROOM;
    }
    if (peer->spectator || peer->seat != room->host) {
        snprintf(msg, GAME_MSG_MAX, "only the host (seat %d) may start the game", room->host);
        return PROTO_ERR_NOT_HOST;
    }
    if (room->status != ROOM_LOBBY) {
        snprintf(msg, GAME_MSG_MAX, "the game has already started");
        return PROTO_ERR_ALREADY_STARTED;
    }
    for (int i = 0; i < room->nseats; i++) {
        filled += room->seats[i].kind != SEAT_EMPTY;
    }
    if (filled < room->nseats && !bots) {
        snprintf(msg, GAME_MSG_MAX, "%d of %d seats are filled; wait for friends or start with bots",
                 filled, room->nseats);
        return PROTO_ERR_NOT_ENOUGH_PLAYERS;
    }
    for (int i = 0; i < room->nseats; i++) {
        struct seat *s = &room->seats[i];
        if (s->kind == SEAT_EMPTY) {
            s->kind = SEAT_BOT;
            snprintf(s->name, sizeof(s->name), "Bot %d", ++nbots);
        }
    }
    int rc = lobby__room_begin(room, &gerr);
    if (rc != GAME_OK) {
        for (int i = 0; i < room->nseats; i++) {
            if (room->seats[i].kind == SEAT_BOT) {
                room->seats[i].kind = SEAT_EMPTY;
                room->seats[i].name[0] = '\0';
            }
        }
        snprintf(msg, GAME_MSG_MAX, "%s", gerr.message);
        return game_status_to_proto(gerr.status);
    }
    for (int i = 0; i < room->nseats; i++) {
        if (room->seats[i].kind == SEAT_BOT) {
            lobby__journal_seat(room, i);
        }
    }
    lobby__journal(room, json_pack("{s:s}", "t", "start"));
    lobby__reply_ok(room, peer, id, json_pack("{s:I}", "rev", (json_int_t)room->rev));
    room_announce(room);
    for (int i = 0; i < room->nseats; i++) {
        struct seat *s = &room->seats[i];
        if (s->kind == SEAT_HUMAN) {
            s->view = lobby__room_view(room, i);
            if (s->peer) {
                send_state(room, s->peer, i, s->view);
            }
        }
    }
    for (size_t k = 0; k < room->nspecs; k++) {
        room_send_state(room, room->specs[k]);
    }
    lobby__schedule_bots(lobby, room, now);
    return PROTO_OK;
}

int lobby_leave(struct lobby *lobby, struct lobby_peer *peer, const json_t *id, uint64_t now,
                char *msg)
{
    if (!peer->room) {
        return PROTO_ERR_NOT_IN_ROOM;
    }
    lobby__reply_ok(NULL, peer, id, NULL);
    peer_detach(lobby, peer, false, now);
    return PROTO_OK;
}

void lobby_peer_gone(struct lobby *lobby, struct lobby_peer *peer, uint64_t now)
{
    peer_detach(lobby, peer, true, now);
}

int lobby_resume(struct lobby *lobby, struct lobby_peer *peer, const json_t *req,
                 const json_t *id, uint64_t now, char *msg)
{
    const char *token = json_string_value(json_object_get(req, "token"));
    json_t *jrev = json_object_get(req, "rev");
    uint8_t hash[32];
    struct room *found = NULL;
    int seat = -1;

    if (!token || lobby_token_hash(token, hash) != 0) {
        snprintf(msg, GAME_MSG_MAX, "that token does not open any seat");
        return PROTO_ERR_BAD_TOKEN;
    }
    for (struct room *r = lobby->rooms; r; r = r->next) {
        for (int i = 0; i < r->nseats; i++) {
            /* Every seat is compared, in constant time each. */
            if (r->seats[i].has_token && sodium_memcmp(r->seats[i].token_hash, hash, 32) == 0) {
                found = r;
                seat = i;
            }
        }
    }
    if (!found) {
        snprintf(msg, GAME_MSG_MAX, "that token does not open any seat");
        return PROTO_ERR_BAD_TOKEN;
    }
    if (jrev && !json_is_integer(jrev)) {
        snprintf(msg, GAME_MSG_MAX, "\"rev\" must be an integer");
        return PROTO_ERR_BAD_REQUEST;
    }
    if (peer->room != found || peer->seat != seat) {
        peer_detach(lobby, peer, false, now);
    }
    if (strcmp(found->seats[seat].name, peer->name) != 0 || found->seats[seat].kind == SEAT_BOT) {
        /* The player is back: the bot that kept the seat steps aside. */
        snprintf(found->seats[seat].name, sizeof(found->seats[seat].name), "%s", peer->name);
        found->seats[seat].kind = SEAT_HUMAN;
        lobby__journal_seat(found, seat);
    }
    seat_bind(found, seat, peer, now);
    lobby__reply_ok(found, peer, id, seat_reply(found, seat, NULL));
    room_announce(found);
    if (found->status == ROOM_LOBBY) {
        return PROTO_OK;
    }
    struct seat *s = &found->seats[seat];
    if (jrev && s->view) {
        int64_t from = (int64_t)json_integer_value(jrev);
        bool have = from <= found->rev && found->rev - from <= LOBBY_DIFF_KEEP;
        for (int64_t r = from + 1; have && r <= found->rev; r++) {
            const struct diff_line *d = &s->hist[r % LOBBY_DIFF_KEEP];
            have = d->rev == r && d->line;
        }
        if (have) {
            for (int64_t r = from + 1; r <= found->rev; r++) {
                const struct diff_line *d = &s->hist[r % LOBBY_DIFF_KEEP];
                lobby__out(found, peer, d->line, d->len);
            }
            return PROTO_OK;
        }
    }
    room_send_state(found, peer);
    return PROTO_OK;
}

int lobby_list(struct lobby *lobby, struct lobby_peer *peer, const json_t *id, char *msg)
{
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
    lobby__reply_ok(NULL, peer, id, json_pack("{s:o}", "rooms", rooms));
    return PROTO_OK;
}

int lobby_chat(struct lobby *lobby, struct lobby_peer *peer, const json_t *req,
               const json_t *id, char *msg)
{
    const char *text = json_string_value(json_object_get(req, "text"));
    struct room *room = peer->room;
    char clean[PROTO_CHAT_MAX_CHARS * 4 + 1];
    size_t n = 0;

    if (!room) {
        return PROTO_ERR_NOT_IN_ROOM;
    }
    if (!text || !*text) {
        snprintf(msg, GAME_MSG_MAX, "\"text\" must be a non-empty string");
        return PROTO_ERR_BAD_REQUEST;
    }
    if (proto_utf8_len(text) > PROTO_CHAT_MAX_CHARS) {
        snprintf(msg, GAME_MSG_MAX, "a chat line holds at most %d characters",
                 PROTO_CHAT_MAX_CHARS);
        return PROTO_ERR_BAD_REQUEST;
    }
    /* Control characters (newlines among them) become spaces. */
    for (const unsigned char *p = (const unsigned char *)text; *p && n < sizeof(clean) - 1; p++) {
        clean[n++] = (*p < 0x20 || *p == 0x7f) ? ' ' : (char)*p;
    }
    clean[n] = '\0';
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
    lobby__reply_ok(room, peer, id, NULL);
    (void)lobby;
    return PROTO_OK;
}

int lobby_sync(struct lobby *lobby, struct lobby_peer *peer, const json_t *id, char *msg)
{
    struct room *room = peer->room;

    if (!room) {
        return PROTO_ERR_NOT_IN_ROOM;
    }
    lobby__reply_ok(room, peer, id, json_pack("{s:I}", "rev", (json_int_t)room->rev));
    if (room->status == ROOM_LOBBY) {
        room_announce(room);
    } else {
        room_send_state(room, peer);
    }
    (void)lobby;
    return PROTO_OK;
}

int lobby_record(struct lobby *lobby, struct lobby_peer *peer, const json_t *id, char *msg)
{
    struct room *room = peer->room;
    char hex[GAME_SEED_BYTES * 2 + 1];
    json_t *seats, *rec;

    if (!room) {
        return PROTO_ERR_NOT_IN_ROOM;
    }
    if (room->status != ROOM_ENDED) {
        snprintf(msg, GAME_MSG_MAX, "the record is available once the game has ended");
        return PROTO_ERR_GAME_NOT_OVER;
    }
    seats = json_array();
    for (int i = 0; seats && i < room->nseats; i++) {
        if (json_array_append_new(seats, json_pack("{s:s, s:s}", "name", room->seats[i].name,
                                                   "kind", lobby__kind_names[room->seats[i].kind])) != 0) {
            json_decref(seats);
            seats = NULL;
        }
    }
    proto_hex(room->seed, sizeof(room->seed), hex);
    rec = seats ? json_pack("{s:s, s:O, s:o, s:s, s:O}", "game", room->game->id, "options",
                            room->options, "seats", seats, "seed", hex, "actions", room->actions)
                : NULL;
    if (!rec) {
        return PROTO_ERR_INTERNAL;
    }
    lobby__reply_ok(room, peer, id, json_pack("{s:o}", "record", rec));
    (void)lobby;
    return PROTO_OK;
}

int lobby_legal(struct lobby *lobby, struct lobby_peer *peer, const json_t *id, char *msg)
{
    struct room *room = peer->room;
    json_t *actions;

    if (!room) {
        return PROTO_ERR_NOT_IN_ROOM;
    }
    if (peer->spectator || peer->seat < 0) {
        return PROTO_ERR_NOT_IN_GAME;
    }
    if (room->status == ROOM_LOBBY) {
        snprintf(msg, GAME_MSG_MAX, "the game has not started");
        return PROTO_ERR_NOT_IN_GAME;
    }
    actions = room->game->legal(room->state, peer->seat);
    if (!actions) {
        return PROTO_ERR_INTERNAL;
    }
    lobby__reply_ok(room, peer, id, json_pack("{s:I, s:o}", "rev", (json_int_t)room->rev, "actions", actions));
    (void)lobby;
    return PROTO_OK;
}

/* Applies `action` (borrowed) for `seat`; on success advances the room,
 * records the action, replies to `peer` (may be NULL for bots) and
 * publishes the diffs. */
static int room_act(struct lobby *lobby, struct room *room, int seat, const json_t *action,
                    struct lobby_peer *peer, const json_t *id, uint64_t now, char *msg)
{
    struct game_error gerr = {0};
    json_t *entry;
    int rc;

    if (room->status == ROOM_ENDED) {
        snprintf(msg, GAME_MSG_MAX, "the game is over");
        return PROTO_ERR_GAME_OVER;
    }
    entry = json_pack("{s:i, s:O}", "seat", seat, "action", action);
    if (!entry) {
        return PROTO_ERR_INTERNAL;
    }
    rc = room->game->apply(room->state, seat, action, &gerr);
    if (rc != GAME_OK) {
        json_decref(entry);
        snprintf(msg, GAME_MSG_MAX, "%s", gerr.message);
        return game_status_to_proto(rc);
    }
    json_t *rec = json_pack("{s:s, s:i, s:O}", "t", "act", "seat", seat, "action", action);
    json_array_append_new(room->actions, entry);
    room->rev++;
    lobby__journal(room, rec);
    if (peer) {
        lobby__reply_ok(room, peer, id, json_pack("{s:I}", "rev", (json_int_t)room->rev));
    }
    room_publish(room);
    json_t *result = room->game->result(room->state);
    if (result) {
        char hex[GAME_SEED_BYTES * 2 + 1];
        proto_hex(room->seed, sizeof(room->seed), hex);
        json_object_set_new(result, "seed", json_string(hex));
        room->status = ROOM_ENDED;
        room->ended_at = now ? now : 1;
        lobby__journal(room, json_pack("{s:s}", "t", "end"));
        json_t *ev = proto_event_new("ended");
        if (ev) {
            json_object_set_new(ev, "room", json_string(room->code));
            json_object_set(ev, "result", result);
            lobby__broadcast(room, ev);
            json_decref(ev);
        }
        json_decref(result);
        room_announce(room);
    }
    lobby__schedule_bots(lobby, room, now);
    return PROTO_OK;
}

int lobby_act(struct lobby *lobby, struct lobby_peer *peer, const json_t *req,
              const json_t *id, uint64_t now, char *msg)
{
    struct room *room = peer->room;
    json_t *action = json_object_get(req, "action");
    json_t *jrev = json_object_get(req, "rev");

    if (!room) {
        return PROTO_ERR_NOT_IN_ROOM;
    }
    if (peer->spectator || peer->seat < 0) {
        snprintf(msg, GAME_MSG_MAX, "spectators may watch and chat, not act");
        return PROTO_ERR_NOT_IN_GAME;
    }
    if (room->status == ROOM_LOBBY) {
        snprintf(msg, GAME_MSG_MAX, "the game has not started");
        return PROTO_ERR_NOT_IN_GAME;
    }
    if (jrev && (!json_is_integer(jrev) || json_integer_value(jrev) != room->rev)) {
        snprintf(msg, GAME_MSG_MAX, "the room is at rev %lld; sync and try again",
                 (long long)room->rev);
        return PROTO_ERR_STALE;
    }
    if (!json_is_object(action) || !json_is_string(json_object_get(action, "type"))) {
        snprintf(msg, GAME_MSG_MAX, "\"action\" must be an object with a \"type\" string");
        return PROTO_ERR_BAD_ACTION;
    }
    return room_act(lobby, room, peer->seat, action, peer, id, now, msg);
}

/* ---- Time-driven work ---- */

static void room_bot_moves(struct lobby *lobby, struct room *room, uint64_t now)
{
    unsigned active = room->game->active(room->state);

    room->bot_due = 0;
    for (int i = 0; i < room->nseats && room->status == ROOM_PLAYING; i++) {
        char msg[GAME_MSG_MAX] = "";
        json_t *legal;
        size_t n;

        if (!(active & (1u << i)) || room->seats[i].kind != SEAT_BOT) {
            continue;
        }
        legal = room->game->legal(room->state, i);
        n = json_array_size(legal);
        if (n > 0) {
            json_t *pick = json_array_get(legal, randombytes_uniform((uint32_t)n));
            (void)room_act(lobby, room, i, pick, NULL, NULL, now, msg);
        }
        json_decref(legal);
        /* One move per bot per wake-up: the next is rescheduled by room_act. */
        break;
    }
    if (room->status == ROOM_PLAYING && room->bot_due == 0) {
        lobby__schedule_bots(lobby, room, now);
    }
}

static uint64_t room_expiry(const struct lobby *lobby, const struct room *room)
{
    switch (room->status) {
    case ROOM_LOBBY:
        return room->idle_since ? room->idle_since + lobby->cfg.lobby_ttl_ms : UINT64_MAX;
    case ROOM_ENDED:
        return room->ended_at + lobby->cfg.ended_ttl_ms;
    case ROOM_PLAYING:
        return room->idle_since ? room->idle_since + lobby->cfg.abandoned_ttl_ms : UINT64_MAX;
    }
    return UINT64_MAX;
}

/* The earliest time the room has work: a bot move or its expiry. */
static uint64_t room_due(const struct lobby *lobby, const struct room *room)
{
    uint64_t due = room_expiry(lobby, room);

    if (room->bot_due && room->status == ROOM_PLAYING && room->bot_due < due) {
        due = room->bot_due;
    }
    return due;
}

void lobby__note_due(struct room *room)
{
    uint64_t due = room_due(room->lobby, room);

    if (due < room->lobby->next_due) {
        room->lobby->next_due = due;
    }
}

uint64_t lobby_next_due(const struct lobby *lobby)
{
    return lobby->next_due;
}

uint64_t lobby_run_due(struct lobby *lobby, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    struct room *room = lobby->rooms;

    while (room) {
        struct room *following = room->next;
        if (room->bot_due && room->bot_due <= now && room->status == ROOM_PLAYING) {
            room_bot_moves(lobby, room, now);
        }
        if (room_expiry(lobby, room) <= now) {
            lobby_drop(lobby, room);
        } else if (room_due(lobby, room) < next) {
            next = room_due(lobby, room);
        }
        room = following;
    }
    lobby->next_due = next;
    return next;
}
