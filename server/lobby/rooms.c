/* SPDX-License-Identifier: MIT */
/*
 * rooms.c - the room as data, under everything else of the lobby: made,
 * found, freed; who is in it; its bots' next move; when it is due (a bot
 * move, its sleep, its expiry). The files above it (room.c's requests,
 * event.c's commit, commit.c's actions, sleep.c, restore.c) use it; it uses
 * only the views (views.c) and the post office (outbox.c) it frees.
 */
#include "lobby_int.h"

#include <errno.h>
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
        lobby__notice_forget(room, i);
    }
    lobby__undo_clear(room, UNDO_WHY_NOTHING);
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
    room->undo.seat = -1;
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
    uint64_t due = room->out.head == room->out.len ? lobby__room_expiry(lobby, room) : UINT64_MAX;

    if (room->bots.due && room->status == ROOM_PLAYING && room->bots.due < due) {
        due = room->bots.due;
    }
    if (lobby__sleep_time(room) < due) {
        due = lobby__sleep_time(room);
    }
    if (room->status == ROOM_PLAYING && room->clock.running) {
        uint64_t clock = lobby__clock_due(&room->clock, NULL);
        uint64_t checkpoint = room->clock.since + LOBBY_CLOCK_CHECKPOINT_MS;
        clock = checkpoint < clock ? checkpoint : clock;
        clock = clock < room->clock.not_before ? room->clock.not_before : clock;
        due = clock < due ? clock : due;
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
    /* And every record durable: a journal failing then must reach a room
     * awake. */
    return room->who.idle_since && room->who.nspecs == 0 && !room->bots.thinking &&
           !(room->status == ROOM_PLAYING && room->bots.due) && room->out.head == room->out.len &&
           room->out.jseq <= room->lobby->durable && !room->out.journal_failing;
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

/* ---- The journal's word ---- */

void lobby_durable(struct lobby *lobby, uint64_t seq)
{
    if (seq <= lobby->durable) {
        return;
    }
    lobby->durable = seq;
    for (struct room *r = lobby->waiting, *next; r; r = next) {
        next = r->out.wait_next;
        if (lobby__flush(r)) {
            lobby__note_due(r); /* it may sleep, or go, now */
        }
    }
}

void lobby_journal_failing(struct lobby *lobby, const char *code, bool failing)
{
    struct room *room = lobby__room_find(lobby, code);

    if (room && lobby__journal_failing(room, failing)) {
        lobby__note_due(room);
    }
}

/* ---- Tokens and creators ---- */

const char *lobby__token_find(const struct lobby *lobby, const uint8_t hash[32], int *ret_seat)
{
    const struct lobby_key *k = lobby__keys_get(&lobby->tokens, hash);

    if (!k) {
        return NULL;
    }
    *ret_seat = k->seat;
    return k->code;
}

int lobby__token_reserve(struct lobby *lobby)
{
    return lobby__keys_reserve(&lobby->tokens, 1);
}

void lobby__token_set(struct lobby *lobby, const uint8_t hash[32], const char *code, int seat)
{
    struct lobby_key *k = lobby__keys_put(&lobby->tokens, hash);

    /* Reserved by the seat event's check: the put does not allocate. */
    if (k) {
        memcpy(k->code, code, sizeof(k->code));
        k->seat = (int8_t)seat;
    }
}

void lobby__token_drop(struct lobby *lobby, const uint8_t hash[32], const char *code)
{
    struct lobby_key *k = lobby__keys_get(&lobby->tokens, hash);

    if (k && strcmp(k->code, code) == 0) {
        lobby__keys_del(&lobby->tokens, k);
    }
}

/* The key of a creator: a connection ('c', its id) or an address ('a'). */
static void creator_key(uint8_t key[32], char kind, const void *name, size_t len)
{
    crypto_generichash_state st;

    crypto_generichash_init(&st, NULL, 0, 32);
    crypto_generichash_update(&st, (const unsigned char *)&kind, 1);
    crypto_generichash_update(&st, name, len);
    crypto_generichash_final(&st, key, 32);
}

static unsigned created(const struct lobby *lobby, char kind, const void *name, size_t len)
{
    uint8_t key[32];
    const struct lobby_key *k;

    creator_key(key, kind, name, len);
    k = lobby__keys_get(&lobby->creators, key);
    return k ? k->count : 0;
}

unsigned lobby__created_by_conn(const struct lobby *lobby, uint64_t id)
{
    return created(lobby, 'c', &id, sizeof(id));
}

unsigned lobby__created_by_addr(const struct lobby *lobby, const char *addr)
{
    return addr[0] ? created(lobby, 'a', addr, strlen(addr)) : 0;
}

int lobby__creator_set(struct room *room, const struct lobby_peer *peer)
{
    struct lobby *lobby = room->lobby;
    struct lobby_key *conn, *addr = NULL;
    uint8_t key[32];

    if (lobby__keys_reserve(&lobby->creators, 2) != 0) {
        return -ENOMEM;
    }
    creator_key(key, 'c', &peer->id, sizeof(peer->id));
    conn = lobby__keys_put(&lobby->creators, key);
    if (peer->addr[0]) {
        creator_key(key, 'a', peer->addr, strlen(peer->addr));
        addr = lobby__keys_put(&lobby->creators, key);
    }
    conn->count++;
    if (addr) {
        addr->count++;
    }
    room->who.creator = peer->id;
    snprintf(room->who.creator_addr, sizeof(room->who.creator_addr), "%s", peer->addr);
    return 0;
}

static void creator_less(struct lobby *lobby, char kind, const void *name, size_t len)
{
    uint8_t key[32];
    struct lobby_key *k;

    creator_key(key, kind, name, len);
    k = lobby__keys_get(&lobby->creators, key);
    if (k && --k->count == 0) {
        lobby__keys_del(&lobby->creators, k);
    }
}

void lobby__creator_gone(struct lobby *lobby, uint64_t id)
{
    uint8_t key[32];
    struct lobby_key *k;

    creator_key(key, 'c', &id, sizeof(id));
    k = lobby__keys_get(&lobby->creators, key);
    if (k) {
        lobby__keys_del(&lobby->creators, k);
    }
}

void lobby__creator_release(struct lobby *lobby, uint64_t *creator, const char *addr)
{
    if (*creator == 0) {
        return;
    }
    creator_less(lobby, 'c', creator, sizeof(*creator));
    if (addr[0]) {
        creator_less(lobby, 'a', addr, strlen(addr));
    }
    *creator = 0;
}

void lobby__room_drop(struct lobby *lobby, struct room *room, bool forget)
{
    lobby__room_unlink(lobby, room);
    for (int i = 0; i < room->nseats; i++) {
        if (room->seats[i].has_token) {
            lobby__token_drop(lobby, room->seats[i].token_hash, room->code);
        }
    }
    lobby__creator_release(lobby, &room->who.creator, room->who.creator_addr);
    if (forget && lobby->has_store) {
        lobby->store.forget(lobby->store.ctx, room->code);
    }
    lobby__review_forget(lobby, room->code);
    lobby__room_free(room);
}
