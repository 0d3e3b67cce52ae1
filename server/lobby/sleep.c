/* SPDX-License-Identifier: MIT */
/*
 * sleep.c - rooms that sleep on disk. A started or finished room nobody is
 * connected to, with no bot due, nothing waiting for its journal and
 * `sleep_after_ms` of quiet, is dropped from memory: what stays is a
 * struct sleeper of a few hundred bytes (its code, game, status, seats'
 * tokens, creator), enough to count it, list its code and find its seats'
 * tokens. Its journal holds the rest. A `spectate` of its code or a
 * `resume` of one of its tokens wakes it: the journal is read back and its
 * records committed through the one path, as at start, so the room comes
 * back with the same code, tokens, rev, views and hashes.
 */
#include "lobby_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "log.h"

static void sleepers_link(struct lobby *lobby, struct sleeper *z)
{
    z->next = lobby->sleepers;
    if (z->next) {
        z->next->prev = &z->next;
    }
    z->prev = &lobby->sleepers;
    lobby->sleepers = z;
    lobby->nsleeping++;
}

static void sleepers_unlink(struct lobby *lobby, struct sleeper *z)
{
    *z->prev = z->next;
    if (z->next) {
        z->next->prev = z->prev;
    }
    lobby->nsleeping--;
    proto_code_map_del(&lobby->sleeping, z->code);
}

uint64_t lobby__sleeper_expiry(const struct lobby *lobby, const struct sleeper *z)
{
    if (z->status == ROOM_ENDED) {
        return z->ended_at + lobby->cfg.ended_ttl_ms;
    }
    return lobby->cfg.abandoned_ttl_ms ? z->idle_since + lobby->cfg.abandoned_ttl_ms : UINT64_MAX;
}

uint64_t lobby__sleeper_due(const struct lobby *lobby, const struct sleeper *z)
{
    uint64_t expiry = lobby__sleeper_expiry(lobby, z);

    return z->clock_due < expiry ? z->clock_due : expiry;
}

void lobby__room_sleep(struct lobby *lobby, struct room *room)
{
    struct sleeper *z = calloc(1, sizeof(*z) + (size_t)room->nseats * sizeof(z->token_hash[0]));

    if (!z) {
        return; /* it stays awake */
    }
    memcpy(z->code, room->code, sizeof(z->code));
    z->game = room->game;
    z->status = (uint8_t)room->status;
    z->nseats = (uint8_t)room->nseats;
    for (int i = 0; i < room->nseats; i++) {
        const struct seat *s = &room->seats[i];
        z->kinds[i] = (uint8_t)s->kind;
        if (s->has_token) {
            z->has_token |= (uint8_t)(1u << i);
            memcpy(z->token_hash[i], s->token_hash, sizeof(z->token_hash[i]));
        }
    }
    z->creator = room->who.creator;
    memcpy(z->creator_addr, room->who.creator_addr, sizeof(z->creator_addr));
    z->idle_since = room->who.idle_since;
    z->ended_at = room->ended_at;
    z->clock_since = room->clock.since;
    z->clock_due = room->status == ROOM_PLAYING ? lobby__clock_due(&room->clock, NULL) : UINT64_MAX;
    /* Not in the journal: a seat told of its turn before the sleep is not
     * told again after the wake. */
    z->told = room->notices.told;
    z->mentioned = room->notices.mentioned;
    if (proto_code_map_put(&lobby->sleeping, z->code, z) != 0) {
        free(z);
        return;
    }
    sleepers_link(lobby, z);
    if (lobby__sleeper_due(lobby, z) < lobby->sleep_due) {
        lobby->sleep_due = lobby__sleeper_due(lobby, z);
    }
    log_event(LOG_DEBUG, "room_sleeping", "room=%s status=%s rev=%lld", room->code,
              lobby__status_names[room->status], (long long)room->rev);
    lobby__room_unlink(lobby, room);
    lobby__room_free(room);
    if (lobby->store.release) {
        lobby->store.release(lobby->store.ctx, z->code);
    }
}

struct sleeper *lobby__sleeper_find(struct lobby *lobby, const char *code)
{
    return proto_code_map_get(&lobby->sleeping, code);
}

void lobby__sleeper_drop(struct lobby *lobby, struct sleeper *z, bool forget)
{
    sleepers_unlink(lobby, z);
    if (forget) {
        for (int i = 0; i < z->nseats; i++) {
            if (z->has_token & (1u << i)) {
                lobby__token_drop(lobby, z->token_hash[i], z->code);
            }
        }
        lobby__creator_release(lobby, &z->creator, z->creator_addr);
    }
    if (forget && lobby->has_store) {
        lobby->store.forget(lobby->store.ctx, z->code);
    }
    if (forget) {
        lobby__review_forget(lobby, z->code);
    }
    sodium_memzero(z->token_hash, (size_t)z->nseats * sizeof(z->token_hash[0]));
    free(z);
}

struct room *lobby__room_wake(struct lobby *lobby, struct sleeper *z, uint64_t now, char *msg)
{
    json_t *records = NULL;
    char err[GAME_MSG_MAX] = "";
    int rc = lobby->store.read(lobby->store.ctx, z->code, &records);
    struct room *room = NULL;

    if (rc == 0) {
        room = lobby__room_new(lobby, z->code);
        rc = room ? 0 : -ENOMEM;
    }
    if (rc == 0) {
        lobby->restoring = true;
        rc = lobby__replay(room, records, now, err);
        lobby->restoring = false;
    }
    json_decref(records);
    if (rc != 0) {
        if (room) {
            lobby__room_unlink(lobby, room);
            lobby__room_free(room);
        }
        log_event(LOG_ERROR, "room_wake_failed", "room=%s error=%s", z->code,
                  err[0] ? err : strerror(-rc));
        snprintf(msg, GAME_MSG_MAX, "room %s cannot be read back from its journal; try again",
                 z->code);
        return NULL;
    }
    room->who.creator = z->creator;
    memcpy(room->who.creator_addr, z->creator_addr, sizeof(room->who.creator_addr));
    room->ended_at = z->ended_at;
    room->who.idle_since = z->idle_since;
    if (room->clock.running) {
        room->clock.since = z->clock_since; /* the time asleep counts */
    }
    room->notices.told = z->told;
    room->notices.mentioned = z->mentioned;
    (void)lobby__views_build(room);
    log_event(LOG_DEBUG, "room_woken", "room=%s rev=%lld", room->code, (long long)room->rev);
    lobby__sleeper_drop(lobby, z, false);
    lobby->woken++;
    return room;
}

struct room *lobby__room_get(struct lobby *lobby, const char *code, uint64_t now, char *msg,
                             int *ret_err)
{
    struct room *room = lobby__room_find(lobby, code);
    struct sleeper *z;

    *ret_err = PROTO_OK;
    if (room || !(z = lobby__sleeper_find(lobby, code))) {
        if (!room) {
            snprintf(msg, GAME_MSG_MAX, "no room %s", code);
            *ret_err = PROTO_ERR_ROOM_NOT_FOUND;
        }
        return room;
    }
    room = lobby__room_wake(lobby, z, now, msg);
    if (!room) {
        *ret_err = PROTO_ERR_INTERNAL;
    }
    return room;
}

void lobby__sleepers_run_due(struct lobby *lobby, uint64_t now)
{
    uint64_t next = UINT64_MAX;

    if (now < lobby->sleep_due) {
        return;
    }
    for (struct sleeper *z = lobby->sleepers, *following; z; z = following) {
        following = z->next;
        uint64_t expiry = lobby__sleeper_expiry(lobby, z);
        if (expiry <= now) {
            if (z->status == ROOM_PLAYING) {
                log_event(LOG_WARN, "abandoned_game_dropped", "room=%s idle_s=%llu", z->code,
                          (unsigned long long)((now - z->idle_since) / 1000));
            }
            lobby__sleeper_drop(lobby, z, true);
        } else if (z->clock_due <= now) {
            /* A clock runs out: the room wakes to time the seat out (its
             * due work runs in this same pass). */
            char msg[GAME_MSG_MAX];
            if (!lobby__room_wake(lobby, z, now, msg) && now + LOBBY_WAKE_RETRY_MS < next) {
                next = now + LOBBY_WAKE_RETRY_MS; /* its journal could not be read: later */
            }
        } else if (lobby__sleeper_due(lobby, z) < next) {
            next = lobby__sleeper_due(lobby, z);
        }
    }
    lobby->sleep_due = next;
}
