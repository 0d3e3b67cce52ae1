/* SPDX-License-Identifier: MIT */
/*
 * rematch.c - a finished game played again. The first player to ask makes
 * a new room with the finished one's game, options and seat count, and a
 * fresh seed; the seats move round by one, bots keep theirs (name and
 * level) and every other player's seat waits for it under its name,
 * without a token. Each player answers in the finished room: yes takes its
 * seat in the new room, no gives the seat up. The offer and the answers
 * are records of the finished room (event.c's rematch event), so that
 * they survive its sleep and a restart; the new room is made of ordinary
 * create and seat events.
 */
#include "lobby_int.h"

#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "log.h"

void lobby__rematch_tell(struct room *room, struct lobby_peer *peer)
{
    const struct room_rematch *m = &room->rematch;
    json_t *ev, *seats;

    if (!m->code[0]) {
        return;
    }
    ev = proto_event_new("rematch");
    seats = json_array();
    for (int i = 0; ev && seats && i < room->nseats; i++) {
        json_t *o = json_pack("{s:i, s:s, s:i, s:s}", "seat", i, "name", room->seats[i].name, "to",
                              LOBBY_REMATCH_SEAT(i, room->nseats), "answer",
                              lobby__rematch_answers[m->answer[i]]);
        if (!o || json_array_append_new(seats, o) != 0) {
            json_decref(seats);
            seats = NULL;
        }
    }
    if (ev && seats) {
        json_object_set_new(ev, "room", json_string(room->code));
        json_object_set_new(ev, "rematch", json_string(m->code));
        json_object_set_new(ev, "by", json_string(room->seats[m->by].name));
        json_object_set_new(ev, "seats", seats);
        seats = NULL;
        if (peer) {
            lobby__send_json(room, peer, ev);
        } else {
            lobby__broadcast(room, ev);
        }
    }
    json_decref(seats);
    json_decref(ev);
}

/* Records seat `seat`'s answer in the finished room. */
static int answer_record(struct room *old, int seat, const char *code, enum rematch_answer answer,
                         struct room_commit *c)
{
    struct room_event ev = {.type = ROOM_EV_REMATCH, .index = seat};

    memcpy(ev.rematch.code, code, sizeof(ev.rematch.code));
    ev.rematch.answer = (uint8_t)answer;
    return lobby__event_commit(old, &ev, c);
}

/* True when seat `to` of the new room waits for the player of the finished
 * room's seat that moves there: held without a token, or left by that
 * player (named so) whose connection has gone. */
static bool seat_waits(const struct room *nr, int to, const char *name)
{
    const struct seat *s = &nr->seats[to];

    return s->kind == SEAT_HUMAN && !s->peer && (!s->has_token || strcmp(s->name, name) == 0);
}

/* The new room: the finished one's game and options, its creator `peer`. */
static int rematch_open(struct room *old, struct lobby_peer *peer, const char *code,
                        struct room_commit *c, struct room **ret)
{
    struct room_event ev = {.type = ROOM_EV_CREATE};

    ev.create.game = old->game;
    ev.create.options = old->options;
    ev.create.is_public = old->is_public;
    ev.create.undo_off = !old->undo_on;
    ev.create.bot_level = old->bot_level;
    ev.create.nseats = old->nseats;
    ev.create.clock = old->clock.rules;
    return lobby__room_open(old->lobby, peer, code, &ev, c, ret);
}

/* Every seat of the new room but the asker's (`mine`, in the finished
 * room): a bot's to the same bot, a player's held under its name. */
static int seats_hold(struct room *old, struct room *nr, int mine, struct room_commit *c)
{
    for (int i = 0; i < old->nseats; i++) {
        const struct seat *s = &old->seats[i];
        struct room_event ev = {.type = ROOM_EV_SEAT, .index = LOBBY_REMATCH_SEAT(i, old->nseats)};
        if (i == mine) {
            continue;
        }
        /* A bot that kept a player's seat (it has the player's token)
         * holds it for the player again. */
        ev.seat.kind = s->kind == SEAT_BOT && !s->has_token ? SEAT_BOT : SEAT_HUMAN;
        ev.seat.level = s->level;
        memcpy(ev.seat.name, s->name, sizeof(ev.seat.name));
        int rc = lobby__event_commit(nr, &ev, c);
        if (rc != PROTO_OK) {
            return rc;
        }
    }
    return PROTO_OK;
}

/* A no: the seat held for the player in the new room is given up. */
static int rematch_decline(struct room *old, struct room *nr, struct lobby_peer *peer,
                           const json_t *id, struct room_commit *c)
{
    int seat = peer->seat;

    if (!old->rematch.code[0]) {
        snprintf(c->msg, GAME_MSG_MAX, "nobody has offered a rematch");
        return PROTO_ERR_BAD_REQUEST;
    }
    int rc = answer_record(old, seat, old->rematch.code, REMATCH_NO, c);
    if (rc != PROTO_OK) {
        return rc;
    }
    int to = LOBBY_REMATCH_SEAT(seat, old->nseats);
    if (nr && nr->status == ROOM_LOBBY && seat_waits(nr, to, old->seats[seat].name)) {
        struct room_commit nc = {.now = c->now, .msg = c->msg};
        struct room_event ev = {.type = ROOM_EV_SEAT, .index = to};
        ev.seat.kind = SEAT_EMPTY;
        if (lobby__event_commit(nr, &ev, &nc) == PROTO_OK) {
            lobby__commit_tail(nr, &nc);
        }
    }
    lobby__reply_bare(old, peer, id);
    lobby__rematch_tell(old, NULL);
    lobby__commit_tail(old, c);
    return PROTO_OK;
}

int lobby_rematch(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    const json_t *accept = json_object_get(rq->args, "accept");
    struct room *old = peer->room, *nr = NULL;
    struct room_commit c = {.now = rq->now, .msg = rq->msg};
    char *msg = rq->msg;
    int seat = peer->seat, rc;

    if (old->status != ROOM_ENDED) {
        snprintf(msg, GAME_MSG_MAX, "a rematch is for a game that has ended");
        return PROTO_ERR_GAME_NOT_OVER;
    }
    if (accept && !json_is_boolean(accept)) {
        snprintf(msg, GAME_MSG_MAX, "\"accept\" is true or false");
        return PROTO_ERR_BAD_REQUEST;
    }
    if (old->rematch.code[0]) {
        char code[PROTO_ROOM_CODE_LEN + 1];
        memcpy(code, old->rematch.code, sizeof(code));
        nr = lobby__room_get(lobby, code, rq->now, msg, &rc);
        if (!nr && rc == PROTO_ERR_INTERNAL) {
            return rc;
        }
    }
    if (json_is_false(accept)) {
        return rematch_decline(old, nr, peer, rq->id, &c);
    }
    if (nr && nr->status != ROOM_LOBBY) {
        snprintf(msg, GAME_MSG_MAX, "the rematch in %s has begun; spectate it", nr->code);
        return PROTO_ERR_ALREADY_STARTED;
    }
    int to = LOBBY_REMATCH_SEAT(seat, old->nseats);
    bool made = !nr;
    char code[PROTO_ROOM_CODE_LEN + 1];
    if (made) {
        /* The offer (or a new one, where the last one's room has gone). */
        if ((rc = lobby__room_may_open(lobby, peer, msg)) != PROTO_OK) {
            return rc;
        }
        lobby__room_code_pick(lobby, code);
    } else {
        memcpy(code, nr->code, sizeof(code));
        if (!seat_waits(nr, to, peer->name) && nr->seats[to].kind != SEAT_EMPTY) {
            to = -1;
            for (int i = 0; i < nr->nseats && to < 0; i++) {
                to = nr->seats[i].kind == SEAT_EMPTY ? i : -1;
            }
            if (to < 0) {
                snprintf(msg, GAME_MSG_MAX, "every seat of the rematch in %s is taken", code);
                return PROTO_ERR_ROOM_FULL;
            }
        }
    }
    if ((rc = answer_record(old, seat, code, REMATCH_YES, &c)) != PROTO_OK) {
        return rc;
    }
    struct room_commit nc = {.now = rq->now, .msg = msg};
    if (made && (rc = rematch_open(old, peer, code, &nc, &nr)) != PROTO_OK) {
        return rc;
    }
    /* The asker's seat first: its player hosts the new room. */
    char token[48];
    rc = lobby__seat_claim(nr, to, peer->name, token, &nc);
    if (rc == PROTO_OK && made) {
        rc = seats_hold(old, nr, seat, &nc);
    }
    if (rc != PROTO_OK) {
        sodium_memzero(token, sizeof(token));
        if (made) {
            lobby__room_drop(lobby, nr, true);
        }
        return rc;
    }
    if (made) {
        log_event(LOG_INFO, "rematch_offered", "room=%s rematch=%s seat=%d", old->code, nr->code,
                  seat);
    }
    lobby__peer_detach(lobby, peer, false, rq->now);
    lobby__rematch_tell(old, NULL);
    lobby__commit_tail(old, &c);
    lobby__seat_take(nr, to, peer, rq->id, token, old->code, &nc);
    return PROTO_OK;
}
