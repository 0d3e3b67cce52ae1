/* SPDX-License-Identifier: MIT */
/*
 * rooms.c - the room as data, under everything else of the lobby: made,
 * found, freed; who is in it; its bots' next move; when it is due (a bot
 * move, its sleep, its expiry). The files above it (room.c's requests,
 * event.c's commit, commit.c's actions, sleep.c, restore.c) use it; it uses
 * only the views (views.c) and the post office (outbox.c) it frees.
 */
#include "lobby_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

struct room *lobby__room_find(struct lobby *lobby, const char *code)
{
    return proto_code_map_get(&lobby->index, code);
}

static bool room_has_human_connected(const struct room *room)
{
    for (int i = 0; i < room->nseats; i++) {
        if (room->seats[i].peer) {
            return true;
        }
    }
    return room->who.nspecs > 0;
}

void lobby__room_touch(struct room *room, uint64_t now)
{
    room->who.idle_since = room_has_human_connected(room) ? 0 : (now ? now : 1);
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
        lobby__seat_forget(&room->seats[i]);
    }
    for (size_t i = 0; i < room->who.nspecs; i++) {
        room->who.specs[i]->room = NULL;
        room->who.specs[i]->spectator = false;
    }
    if (room->bots.thinking) {
        /* Its answer comes back to a room that is gone, and is dropped. */
        atomic_store(&room->bots.thinking->stop, 1);
    }
    lobby__unqueue(room);
    free(room->out.items);
    free(room->who.specs);
    lobby__views_reset(room);
    json_decref(room->options);
    free(room->state);
    free(room->scratch);
    free(room);
}

void lobby__room_unlink(struct lobby *lobby, struct room *room)
{
    for (struct room **p = &lobby->rooms; *p; p = &(*p)->next) {
        if (*p == room) {
            *p = room->next;
            lobby->nrooms--;
            proto_code_map_del(&lobby->index, room->code);
            return;
        }
    }
}

int lobby__game_status_to_proto(int status)
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

/* A new room named `code` in the lobby's list, in the lobby state, with
 * nothing else yet: its create event makes it. NULL on ENOMEM. */
struct room *lobby__room_new(struct lobby *lobby, const char *code)
{
    struct room *room = calloc(1, sizeof(*room));

    if (!room) {
        return NULL;
    }
    room->lobby = lobby;
    snprintf(room->code, sizeof(room->code), "%s", code);
    room->bot_level = BOT_LEVEL_DEFAULT;
    room->serial = ++lobby->serials;
    room->host = -1;
    room->status = ROOM_LOBBY;
    for (int i = 0; i < GAME_MAX_SEATS; i++) {
        lobby__seat_forget(&room->seats[i]);
    }
    if (proto_code_map_put(&lobby->index, room->code, room) != 0) {
        lobby__room_free(room);
        return NULL;
    }
    room->next = lobby->rooms;
    lobby->rooms = room;
    lobby->nrooms++;
    return room;
}

enum bot_level lobby__room_level(const struct room *room)
{
    return room->bot_level < room->lobby->cfg.bot_level_max ? room->bot_level
                                                            : room->lobby->cfg.bot_level_max;
}

/* Arms the bot timer when a bot may act now. */
void lobby__schedule_bots(struct lobby *lobby, struct room *room, uint64_t now)
{
    unsigned active = room->status == ROOM_PLAYING ? room->game->active(room->state) : 0;

    room->bots.due = 0;
    for (int i = 0; i < room->nseats; i++) {
        if ((active & (1u << i)) && room->seats[i].kind == SEAT_BOT) {
            room->bots.due = now + lobby->cfg.bot_delay_ms;
            if (room->bots.due == 0) {
                room->bots.due = 1;
            }
            break;
        }
    }
    lobby__note_due(room);
}

static bool room_all_empty(const struct room *room)
{
    for (int i = 0; i < room->nseats; i++) {
        if (room->seats[i].kind != SEAT_EMPTY) {
            return false;
        }
    }
    return true;
}

uint64_t lobby__room_expiry(const struct lobby *lobby, const struct room *room)
{
    switch (room->status) {
    case ROOM_LOBBY:
        if (room->who.idle_since && room_all_empty(room)) {
            /* Everyone left before the start: nobody can come back to it. */
            return room->who.idle_since;
        }
        return room->who.idle_since ? room->who.idle_since + lobby->cfg.lobby_ttl_ms : UINT64_MAX;
    case ROOM_ENDED:
        return room->ended_at + lobby->cfg.ended_ttl_ms;
    case ROOM_PLAYING:
        return room->who.idle_since && lobby->cfg.abandoned_ttl_ms
                   ? room->who.idle_since + lobby->cfg.abandoned_ttl_ms
                   : UINT64_MAX;
    }
    return UINT64_MAX;
}

uint64_t lobby__room_due(const struct lobby *lobby, const struct room *room)
{
    uint64_t due = lobby__room_expiry(lobby, room);

    if (room->bots.due && room->status == ROOM_PLAYING && room->bots.due < due) {
        due = room->bots.due;
    }
    if (lobby__sleep_time(room) < due) {
        due = lobby__sleep_time(room);
    }
    return due;
}

void lobby__note_due(struct room *room)
{
    uint64_t due = lobby__room_due(room->lobby, room);

    if (due < room->lobby->next_due) {
        room->lobby->next_due = due;
    }
}

static bool room_quiet(const struct room *room)
{
    /* Records not yet durable are waited for by lobby_run_due(): a journal
     * failing then must reach a room awake. */
    return room->who.idle_since && room->who.nspecs == 0 && !room->bots.thinking &&
           !(room->status == ROOM_PLAYING && room->bots.due) && room->out.head == room->out.len &&
           !room->out.journal_failing;
}

uint64_t lobby__sleep_time(const struct room *room)
{
    const struct lobby *lobby = room->lobby;

    if (!lobby->cfg.sleep_after_ms || room->status == ROOM_LOBBY || !lobby->has_store ||
        !lobby->store.read || !room_quiet(room)) {
        return UINT64_MAX;
    }
    return room->who.idle_since + lobby->cfg.sleep_after_ms;
}
