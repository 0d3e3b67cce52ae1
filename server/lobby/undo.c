/* SPDX-License-Identifier: MIT */
/*
 * undo.c - a seat takes back its own last actions, when nothing it could
 * not have known is involved: the positions before each of the last run
 * of one seat's actions, kept while every one of them drew and revealed
 * nothing hidden (the game's `undoable`) and left every other seat's
 * "you" as it was. Any other change of the game (another seat's action, a
 * bot's, a timeout's, an action that drew or revealed) empties the stack,
 * and says why for the refusal that follows.
 *
 * The stack is a function of the room's events alone, so a replay of the
 * journal rebuilds it, and the undo records replay to the same positions.
 * Each position is kept as the bytes in which it differs from the one
 * after it (an action changes a few bytes of a state), and comes back by
 * writing them over the room's state.
 */
#include "lobby_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

static const char *const why_text[] = {
    [UNDO_WHY_NOTHING] = "there is no move of yours to take back",
    [UNDO_WHY_OTHERS] = "another seat has moved since: only your last moves of a turn come back",
    [UNDO_WHY_HIDDEN] = "that move drew or showed something hidden: it cannot be taken back",
    [UNDO_WHY_GAME] = "this game's moves cannot be taken back",
};

/* A position kept: runs of the bytes in which it differs from the
 * position after it, each an offset and a length (4 bytes each) and the
 * bytes. */
struct undo_delta {
    size_t len;
    unsigned char runs[];
};

/* Equal bytes closer than this between two that differ stay in one run. */
#define RUN_GAP 8

/* The first i >= at where a and b differ, n when none: 512 bytes at a
 * time through memcmp (most of a state is as it was), then 64, then byte
 * by byte. */
static size_t next_diff(const unsigned char *a, const unsigned char *b, size_t at, size_t n)
{
    while (at + 512 <= n && memcmp(a + at, b + at, 512) == 0) {
        at += 512;
    }
    while (at + 64 <= n && memcmp(a + at, b + at, 64) == 0) {
        at += 64;
    }
    while (at < n && a[at] == b[at]) {
        at++;
    }
    return at;
}

/* The position `before` as the runs that turn `after` back into it (n
 * bytes each), found in one pass into the lobby's buffer `t`; NULL on
 * ENOMEM. */
static struct undo_delta *delta_make(struct proto_text *t, const unsigned char *before,
                                     const unsigned char *after, size_t n)
{
    struct undo_delta *d;

    t->len = 0;
    t->err = 0;
    for (size_t i = next_diff(before, after, 0, n); i < n;) {
        size_t last = i;
        for (size_t j = i + 1; j < n && j - last <= RUN_GAP; j++) {
            if (before[j] != after[j]) {
                last = j;
            }
        }
        uint32_t head[2] = {(uint32_t)i, (uint32_t)(last + 1 - i)};
        proto_text_add(t, head, sizeof(head));
        proto_text_add(t, before + i, head[1]);
        i = next_diff(before, after, last + 1, n);
    }
    if (t->err != 0 || !(d = malloc(sizeof(*d) + t->len))) {
        return NULL;
    }
    d->len = t->len;
    if (t->len > 0) {
        memcpy(d->runs, t->data, t->len);
    }
    return d;
}

/* Writes the runs of `d` over `state`. */
static void delta_apply(const struct undo_delta *d, unsigned char *state)
{
    for (size_t at = 0; at < d->len;) {
        uint32_t off, len;
        memcpy(&off, d->runs + at, 4);
        memcpy(&len, d->runs + at + 4, 4);
        memcpy(state + off, d->runs + at + 8, len);
        at += 8 + len;
    }
}

void lobby__undo_clear(struct room *room, enum undo_why why)
{
    struct room_undo *u = &room->undo;

    for (int i = 0; i < u->n; i++) {
        free(u->states[i]);
        u->states[i] = NULL;
    }
    u->n = 0;
    u->seat = -1;
    u->why = why;
}

/* Whether `seat`'s "you" is the same text at `a` and `b`. */
static bool you_equal(struct room *room, const void *a, const void *b, int seat)
{
    struct game_text ta = {0}, tb = {0};
    bool same;

    room->game->you(&ta, a, seat);
    room->game->you(&tb, b, seat);
    same = !ta.err && !tb.err && ta.len == tb.len && memcmp(ta.data, tb.data, ta.len) == 0;
    game_text_free(&ta);
    game_text_free(&tb);
    return same;
}

void lobby__undo_after_act(struct room *room, const void *before, int seat, uint64_t changed,
                           unsigned you_same)
{
    struct room_undo *u = &room->undo;
    const struct game_ops *g = room->game;

    if (!room->undo_on || !g->undoable) {
        lobby__undo_clear(room, UNDO_WHY_GAME);
        return;
    }
    if (room->seats[seat].kind != SEAT_HUMAN) {
        lobby__undo_clear(room, UNDO_WHY_OTHERS);
        return;
    }
    if (u->seat != seat) {
        lobby__undo_clear(room, UNDO_WHY_OTHERS);
    }
    bool safe = g->undoable(before, room->state, seat);
    /* A clear GAME_CHANGED_YOU is the game's promise that no "you" moved,
     * a seat in `you_same` that its "you" did not. */
    for (int i = 0; safe && (changed & GAME_CHANGED_YOU) && i < room->nseats; i++) {
        safe = i == seat || (you_same & (1u << i)) || you_equal(room, before, room->state, i);
    }
    if (!safe) {
        lobby__undo_clear(room, UNDO_WHY_HIDDEN);
        return;
    }
    struct undo_delta *copy =
        delta_make(&room->lobby->undo_runs, before, room->state, g->state_size);
    if (!copy) {
        /* Out of memory: nothing can be taken back, which is always safe. */
        lobby__undo_clear(room, UNDO_WHY_NOTHING);
        return;
    }
    if (u->n == LOBBY_UNDO_MAX) {
        /* The oldest goes: the last LOBBY_UNDO_MAX moves come back. */
        free(u->states[0]);
        memmove(u->states, u->states + 1, sizeof(u->states[0]) * (LOBBY_UNDO_MAX - 1));
        u->n--;
    }
    u->states[u->n++] = copy;
    u->seat = seat;
    u->why = UNDO_WHY_NOTHING;
}

int lobby__undo_can(const struct room *room, int seat, char *msg)
{
    const struct room_undo *u = &room->undo;

    if (!room->undo_on) {
        snprintf(msg, GAME_MSG_MAX, "undo is off in this room");
        return PROTO_ERR_ILLEGAL_ACTION;
    }
    if (room->status != ROOM_PLAYING) {
        snprintf(msg, GAME_MSG_MAX, "the game is not running");
        return room->status == ROOM_ENDED ? PROTO_ERR_GAME_OVER : PROTO_ERR_NOT_IN_GAME;
    }
    if (u->n == 0 || u->seat != seat) {
        snprintf(msg, GAME_MSG_MAX, "%s",
                 why_text[u->n == 0 ? u->why : (enum undo_why)UNDO_WHY_OTHERS]);
        return PROTO_ERR_ILLEGAL_ACTION;
    }
    return PROTO_OK;
}

void lobby__undo_pop(struct room *room)
{
    struct room_undo *u = &room->undo;
    struct undo_delta *d = u->states[--u->n];

    u->states[u->n] = NULL;
    delta_apply(d, room->state);
    free(d);
}

int lobby_undo(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *rq)
{
    struct room *room = peer->room;
    struct room_event ev = {.type = ROOM_EV_UNDO,
                            .index = peer->seat,
                            .ms = lobby__clock_elapsed(&room->clock, rq->now)};
    struct room_commit c = {.now = rq->now, .msg = rq->msg};
    int rc = lobby__event_commit(room, &ev, &c);

    if (rc != PROTO_OK) {
        return rc;
    }
    lobby__reply_rev(room, peer, rq->id, room->rev);
    json_t *e = proto_event_new("undo");
    if (e) {
        json_object_set_new(e, "room", json_string(room->code));
        json_object_set_new(e, "seat", json_integer(peer->seat));
        json_object_set_new(e, "name", json_string(room->seats[peer->seat].name));
        lobby__broadcast(room, e);
        json_decref(e);
    }
    lobby__commit_tail(room, &c);
    (void)lobby;
    return PROTO_OK;
}
