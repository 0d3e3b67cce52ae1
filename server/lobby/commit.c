/* SPDX-License-Identifier: MIT */
/*
 * commit.c - actions, whoever makes them (a player or a bot): the room's
 * bounds, then the act event through the one commit of event.c (tried on
 * the scratch copy, journaled, applied) and the end that may follow; the
 * checks every request shares, legal lists written into reused buffers, and
 * bot moves. Whatever fails before the commit leaves the room exactly as
 * it was, and nothing is acknowledged.
 */
#include "lobby_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "log.h"

/* ---- Preconditions ---- */

int lobby_check(const struct lobby_peer *peer, unsigned need, char *msg)
{
    const struct room *room = peer->room;

    if (!need) {
        return PROTO_OK;
    }
    if (!room) {
        return PROTO_ERR_NOT_IN_ROOM;
    }
    if ((need & LOBBY_NEED_SEAT) && (peer->spectator || peer->seat < 0)) {
        snprintf(msg, GAME_MSG_MAX, "spectators may watch and chat, not play");
        return PROTO_ERR_NOT_IN_GAME;
    }
    if ((need & LOBBY_NEED_STARTED) && room->status == ROOM_LOBBY) {
        snprintf(msg, GAME_MSG_MAX, "the game has not started");
        return PROTO_ERR_NOT_IN_GAME;
    }
    if (need & LOBBY_NEED_TURN) {
        if (room->status == ROOM_ENDED) {
            snprintf(msg, GAME_MSG_MAX, "the game is over");
            return PROTO_ERR_GAME_OVER;
        }
        if (!(room->game->active(room->state) & (1u << peer->seat))) {
            snprintf(msg, GAME_MSG_MAX, "it is not your turn");
            return PROTO_ERR_NOT_YOUR_TURN;
        }
    }
    return PROTO_OK;
}

/* ---- The commit path ---- */

/* Over its outbox bound the room takes no action until the journal catches
 * up: its disk is failing, and queueing more would grow without limit. */
static bool room_over_bound(struct room *room)
{
    bool over = room->out.bytes > room->lobby->cfg.outbox_max;

    if (over != room->out.stalled) {
        room->out.stalled = over;
        if (over) {
            log_event(LOG_WARN, "room_stalled", "room=%s held_bytes=%zu", room->code,
                      room->out.bytes);
        } else {
            log_event(LOG_INFO, "room_unstalled", "room=%s", room->code);
        }
    }
    return over;
}

/* After an event that may have ended the game: the server's end record
 * marks the finished room. The end is implied by the events before it, so
 * a lost one costs nothing but the note. */
static void commit_end(struct room *room, uint64_t now)
{
    struct room_event end = {.type = ROOM_EV_END};
    char msg[GAME_MSG_MAX];
    struct room_commit c = {.now = now, .msg = msg};

    if (room->status == ROOM_ENDED && lobby__event_commit(room, &end, &c) != PROTO_OK) {
        log_event(LOG_WARN, "journal_record_lost", "room=%s record=end", room->code);
    }
}

int lobby__commit(struct lobby *lobby, struct room *room, int seat, const json_t *action,
                  struct lobby_peer *peer, const json_t *id, uint64_t now, char *msg)
{
    struct room_event ev = {.type = ROOM_EV_ACT,
                            .index = seat,
                            .act.action = action,
                            .ms = lobby__clock_elapsed(&room->clock, now)};
    struct room_commit c = {.now = now, .msg = msg};
    int rc;

    if (room->out.journal_failing) {
        snprintf(msg, GAME_MSG_MAX,
                 "this room's journal cannot be written to the disk; the server retries, "
                 "and takes actions again once it can");
        return PROTO_ERR_SERVER_BUSY;
    }
    if (room_over_bound(room)) {
        snprintf(msg, GAME_MSG_MAX,
                 "this room is waiting for its journal to reach the disk; "
                 "try again shortly");
        return PROTO_ERR_SERVER_BUSY;
    }
    rc = lobby__event_commit(room, &ev, &c);
    if (rc != PROTO_OK) {
        return rc;
    }
    commit_end(room, now);
    lobby__reply_rev(room, peer, id, room->rev);
    lobby__commit_tail(room, &c);
    (void)lobby;
    return PROTO_OK;
}

int lobby_act(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req)
{
    struct room *room = peer->room;
    json_t *action = json_object_get(req->args, "action");
    json_t *jrev = json_object_get(req->args, "rev");

    if (jrev && (!json_is_integer(jrev) || json_integer_value(jrev) != room->rev)) {
        snprintf(req->msg, GAME_MSG_MAX, "the room is at rev %lld; sync and try again",
                 (long long)room->rev);
        return PROTO_ERR_STALE;
    }
    if (!json_is_object(action) || !json_is_string(json_object_get(action, "type"))) {
        snprintf(req->msg, GAME_MSG_MAX, "\"action\" must be an object with a \"type\" string");
        return PROTO_ERR_BAD_ACTION;
    }
    return lobby__commit(lobby, room, peer->seat, action, peer, req->id, req->now, req->msg);
}

/* ---- Legal lists ---- */

/* The reply to `legal`: an empty list for a seat not in active(), else the
 * seat's list written by the game as text where it can, else serialised
 * from the list legal() builds. Written into the
 * lobby's reply buffer and its scratch writer, both reused: a list (Element
 * lists hundreds of placements) is not kept, nor allocated afresh, per
 * room or per request. */
int lobby_legal(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req)
{
    struct room *room = peer->room;
    struct proto_text *t = &lobby->reply;
    struct game_text *w = &lobby->scratch;

    proto_text_reset(t);
    proto_text_add(t, "{", 1);
    if (req->id) {
        proto_text_str(t, "\"re\":");
        lobby__id_add(t, req->id);
        proto_text_add(t, ",", 1);
    }
    proto_text_str(t, "\"ok\":true,\"rev\":");
    proto_text_int(t, (long long)room->rev);
    proto_text_str(t, ",\"actions\":");
    if (!(room->game->active(room->state) & (1u << peer->seat))) {
        /* A seat that may not act has no legal action (game.h; the
         * property suite holds every game to it): the list is not built. */
        proto_text_add(t, "[]", 2);
    } else if (room->game->legal_text) {
        game_text_reset(w);
        room->game->legal_text(w, room->state, peer->seat);
        if (game_text_end(w) != 0) {
            return PROTO_ERR_INTERNAL;
        }
        proto_text_add(t, w->data, w->len);
        game_text_reset(w);
    } else {
        json_t *legal = room->game->legal(room->state, peer->seat);
        if (!legal) {
            return PROTO_ERR_INTERNAL;
        }
        proto_text_canonical(t, legal);
        json_decref(legal);
    }
    proto_text_add(t, "}\n", 2);
    if (t->err != 0 || t->len > PROTO_OUT_LINE_MAX) {
        return PROTO_ERR_INTERNAL;
    }
    lobby__out(room, peer, t->data, t->len);
    return PROTO_OK;
}

/* ---- Bots ---- */

void lobby_set_bots(struct lobby *lobby, const struct lobby_bots *bots)
{
    lobby->bots = *bots;
    lobby->has_bots = true;
}

/* Plays a bot's answer for `seat`. */
static void bot_play(struct lobby *lobby, struct room *room, int seat, const json_t *action,
                     uint64_t now)
{
    char msg[GAME_MSG_MAX] = "";

    if (lobby__commit(lobby, room, seat, action, NULL, NULL, now, msg) != PROTO_OK) {
        char q[LOG_QUOTE_MAX];
        log_event(LOG_DEBUG, "bot_move_not_taken", "room=%s seat=%d reason=%s", room->code, seat,
                  log_quote(q, sizeof(q), msg));
    } else {
        lobby->bot_moves[room->seats[seat].level]++;
    }
}

/* The first seat a bot plays that may act now, or -1. */
static int bot_seat(const struct room *room)
{
    unsigned active = room->status == ROOM_PLAYING ? room->game->active(room->state) : 0;

    for (int i = 0; i < room->nseats; i++) {
        if ((active & (1u << i)) && room->seats[i].kind == SEAT_BOT) {
            return i;
        }
    }
    return -1;
}

void lobby__bot_move(struct lobby *lobby, struct room *room, uint64_t now)
{
    int seat = bot_seat(room);

    room->bots.due = 0;
    if (room->bots.thinking) {
        return; /* its answer plays when it is back */
    }
    if (seat >= 0) {
        const struct seat *s = &room->seats[seat];
        json_t *legal = room->game->legal(room->state, seat);
        size_t n = json_array_size(legal);
        struct bot_job *job = NULL;
        if (n > 1 && s->level != BOT_RANDOM && room->game->bot) {
            job = bot_job_new(room->game, room->state, room->nseats, seat, s->level);
        }
        if (job) {
            json_decref(legal); /* the search makes its own */
            snprintf(job->room, sizeof(job->room), "%s", room->code);
            job->room_serial = room->serial;
            job->rev = room->rev;
            if (lobby->has_bots) {
                room->bots.thinking = job;
                lobby->bots.think(lobby->bots.ctx, job);
                return;
            }
            job->action = bot_decide(&job->ask, &job->stats);
            if (job->action) {
                bot_play(lobby, room, seat, job->action, now);
            }
            bot_job_free(job);
        } else {
            /* The random bot, a single choice, or no memory for a search. */
            if (n > 0) {
                bot_play(lobby, room, seat, json_array_get(legal, randombytes_uniform((uint32_t)n)),
                         now);
            }
            json_decref(legal);
        }
    }
    /* One move per wake-up: the next is scheduled by the commit; a refused
     * one (a stalled journal) is tried again later. */
    if (room->status == ROOM_PLAYING && room->bots.due == 0) {
        lobby__schedule_bots(lobby, room, now);
    }
}

void lobby_bot_done(struct lobby *lobby, struct bot_job *job, uint64_t now)
{
    struct room *room = lobby__room_find(lobby, job->room);

    if (!room || room->serial != job->room_serial) {
        bot_job_free(job); /* the room is gone */
        return;
    }
    if (room->bots.thinking == job) {
        room->bots.thinking = NULL;
    }
    int seat = job->ask.seat;
    if (job->action && room->rev == job->rev && bot_seat(room) == seat) {
        log_event(LOG_DEBUG, "bot_decided", "room=%s seat=%d bot_level=%s ms=%.1f passes=%u",
                  room->code, seat, bot_level_names[room->seats[seat].level], job->stats.ms,
                  job->stats.passes);
        bot_play(lobby, room, seat, job->action, now);
    }
    /* An answer for an older rev is dropped: the position moved on. */
    bot_job_free(job);
    if (room->status == ROOM_PLAYING && room->bots.due == 0 && !room->bots.thinking) {
        lobby__schedule_bots(lobby, room, now);
    }
}

/* ---- Clocks ---- */

/* A clock event the journal refused is tried again this much later (ms). */
#define LOBBY_CLOCK_RETRY_MS 1000

void lobby__clock_run(struct room *room, uint64_t now)
{
    char msg[GAME_MSG_MAX] = "";
    struct room_commit c = {.now = now, .msg = msg};
    struct room_event ev = {.ms = lobby__clock_elapsed(&room->clock, now)};
    int seat = -1;

    if (room->status != ROOM_PLAYING || !room->clock.running || now < room->clock.not_before) {
        return;
    }
    if (lobby__clock_due(&room->clock, &seat) <= now) {
        static const uint8_t deeds[] = {
            [CLOCK_ON_TIMEOUT_LOSE] = TIMEOUT_LOSE, [CLOCK_ON_TIMEOUT_SKIP] = TIMEOUT_SKIP};
        ev.type = ROOM_EV_TIMEOUT;
        ev.index = seat;
        ev.deed = room->clock.rules.policy == CLOCK_ON_TIMEOUT_BOT
                      ? lobby__timeout_fallback(room, seat)
                      : deeds[room->clock.rules.policy];
    } else if (room->clock.since + LOBBY_CLOCK_CHECKPOINT_MS <= now) {
        ev.type = ROOM_EV_CLOCK;
    } else {
        return;
    }
    if (lobby__event_commit(room, &ev, &c) != PROTO_OK) {
        /* The journal did not take it: the room stays due, and tries
         * again LOBBY_CLOCK_RETRY_MS later. */
        log_event(LOG_WARN, "clock_event_not_taken", "room=%s reason=%s", room->code, msg);
        room->clock.not_before = now + LOBBY_CLOCK_RETRY_MS;
        lobby__note_due(room);
        return;
    }
    if (ev.type == ROOM_EV_TIMEOUT) {
        /* Every member's log says what the timeout did, before what
         * it changed. */
        json_t *e = proto_event_new("timeout");
        if (e) {
            json_object_set_new(e, "room", json_string(room->code));
            json_object_set_new(e, "seat", json_integer(seat));
            json_object_set_new(e, "name", json_string(room->seats[seat].name));
            json_object_set_new(e, "do", json_string(lobby__timeout_deeds[ev.deed]));
            lobby__broadcast(room, e);
            json_decref(e);
        }
    }
    commit_end(room, now);
    lobby__commit_tail(room, &c);
}

enum timeout_deed lobby__timeout_fallback(const struct room *room, int seat)
{
    const struct seat *s = &room->seats[seat];

    return s->kind == SEAT_HUMAN && !s->peer ? TIMEOUT_BOT : TIMEOUT_PLAYS_ON;
}
