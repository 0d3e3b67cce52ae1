/* SPDX-License-Identifier: MIT */
/*
 * restore.c - rebuilds a room from its journal records at start, by
 * replaying them through the rules core: the same game_try() and commit as
 * in play, so the rebuilt room has the same state, rev and views. Sends
 * nothing and writes no journal while it replays.
 */
#include "lobby_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

/* Applies one journal record to a room being rebuilt. 0 or -1. */
static int restore_record(struct room *room, const json_t *rec, char *err)
{
    const char *t = json_string_value(json_object_get(rec, "t"));
    struct game_error gerr = {0};
    long seat = -1;

    if (!t) {
        snprintf(err, GAME_MSG_MAX, "a record without a type");
        return -1;
    }
    if (strcmp(t, "seat") == 0 || strcmp(t, "host") == 0) {
        json_t *js = json_object_get(rec, "seat");
        if (!json_is_integer(js) || json_integer_value(js) < -1 ||
            json_integer_value(js) >= room->nseats) {
            snprintf(err, GAME_MSG_MAX, "a %s record with a bad seat", t);
            return -1;
        }
        seat = (long)json_integer_value(js);
    }
    if (strcmp(t, "host") == 0) {
        room->host = (int)seat;
        return 0;
    }
    if (strcmp(t, "seat") == 0) {
        const char *kind = json_string_value(json_object_get(rec, "kind"));
        const char *name = json_string_value(json_object_get(rec, "name"));
        const char *token = json_string_value(json_object_get(rec, "token"));
        struct seat *s;
        size_t len = 0;
        if (seat < 0 || !kind || !name) {
            snprintf(err, GAME_MSG_MAX, "a seat record without seat, kind or name");
            return -1;
        }
        s = &room->seats[seat];
        s->kind = strcmp(kind, "human") == 0 ? SEAT_HUMAN
                  : strcmp(kind, "bot") == 0 ? SEAT_BOT
                                             : SEAT_EMPTY;
        snprintf(s->name, sizeof(s->name), "%s", name);
        /* Journals from before bot levels have none: the default. */
        int level = bot_level_parse(json_string_value(json_object_get(rec, "level")));
        s->level = level >= 0 ? (enum bot_level)level : room->bot_level;
        if (s->level > room->lobby->cfg.bot_level_max) {
            s->level = room->lobby->cfg.bot_level_max; /* the server runs no stronger */
        }
        s->has_token = token &&
                       sodium_hex2bin(s->token_hash, sizeof(s->token_hash), token, strlen(token),
                                      NULL, &len, NULL) == 0 &&
                       len == sizeof(s->token_hash);
        return 0;
    }
    if (strcmp(t, "start") == 0) {
        if (room->status != ROOM_LOBBY || lobby__room_begin(room, &gerr) != GAME_OK) {
            snprintf(err, GAME_MSG_MAX, "the game does not start: %.200s", gerr.message);
            return -1;
        }
        return 0;
    }
    if (strcmp(t, "act") == 0) {
        json_t *js = json_object_get(rec, "seat");
        json_t *action = json_object_get(rec, "action");
        if (room->status != ROOM_PLAYING || !json_is_integer(js)) {
            snprintf(err, GAME_MSG_MAX, "an action outside a running game");
            return -1;
        }
        if (game_try(room->game, room->state, room->scratch, (int)json_integer_value(js), action,
                     &gerr) != GAME_OK) {
            snprintf(err, GAME_MSG_MAX, "action %lld refused on replay: %.200s",
                     (long long)room->rev, gerr.message);
            return -1;
        }
        if (json_array_append_new(room->actions,
                                  json_pack("{s:O, s:O}", "seat", js, "action", action)) != 0) {
            snprintf(err, GAME_MSG_MAX, "out of memory");
            return -1;
        }
        void *before = room->state;
        room->state = room->scratch;
        room->scratch = before;
        room->rev++;
        if (room->game->active(room->state) == 0) {
            room->status = ROOM_ENDED;
        }
        return 0;
    }
    if (strcmp(t, "end") == 0) {
        return 0;
    }
    snprintf(err, GAME_MSG_MAX, "an unknown record type \"%.20s\"", t);
    return -1;
}

int lobby_restore(struct lobby *lobby, const json_t *records, uint64_t now, uint64_t age_ms,
                  char *err)
{
    const json_t *c = json_array_get(records, 0);
    const char *t = json_string_value(json_object_get(c, "t"));
    const char *typed = json_string_value(json_object_get(c, "room"));
    const struct game_ops *game =
        game_find_in(lobby->cfg.games, json_string_value(json_object_get(c, "game")));
    const char *seed_hex = json_string_value(json_object_get(c, "seed"));
    json_t *jseats = json_object_get(c, "seats");
    json_t *opts = json_object_get(c, "options");
    char code[PROTO_ROOM_CODE_LEN + 1];
    uint8_t seed[GAME_SEED_BYTES];
    struct game_error gerr = {0};
    size_t len = 0, i;
    struct room *room;
    const json_t *rec;
    int rc = 0;

    if (!t || strcmp(t, "create") != 0 || !typed || proto_room_code_parse(typed, code) != 0 ||
        !game || !seed_hex || !json_is_integer(jseats) || !json_is_object(opts) ||
        sodium_hex2bin(seed, sizeof(seed), seed_hex, strlen(seed_hex), NULL, &len, NULL) != 0 ||
        len != sizeof(seed)) {
        snprintf(err, GAME_MSG_MAX, "the journal does not begin with a valid create record");
        return -1;
    }
    if (lobby__room_find(lobby, code)) {
        snprintf(err, GAME_MSG_MAX, "room %s exists twice", code);
        return -1;
    }
    int nseats = (int)json_integer_value(jseats);
    if (nseats < 1 || nseats > GAME_MAX_SEATS ||
        game->check_options(opts, nseats, &gerr) != GAME_OK) {
        snprintf(err, GAME_MSG_MAX, "the room's options are refused: %.200s", gerr.message);
        return -1;
    }
    json_t *options = json_deep_copy(opts);
    if (!options) {
        snprintf(err, GAME_MSG_MAX, "out of memory");
        return -1;
    }
    room = lobby__room_new(lobby, code, game, options, json_is_true(json_object_get(c, "public")),
                           nseats, seed);
    sodium_memzero(seed, sizeof(seed));
    if (!room) {
        snprintf(err, GAME_MSG_MAX, "out of memory");
        return -1;
    }
    int level = bot_level_parse(json_string_value(json_object_get(c, "bot_level")));
    room->bot_level = level >= 0 ? (enum bot_level)level : BOT_LEVEL_DEFAULT;
    lobby->restoring = true;
    json_array_foreach(records, i, rec) {
        if (i > 0 && (rc = restore_record(room, rec, err)) != 0) {
            break;
        }
    }
    lobby->restoring = false;
    if (rc != 0) {
        /* Unlink without forgetting the journal: it stays for inspection. */
        lobby__room_unlink(lobby, room);
        lobby__room_free(room);
        return -1;
    }
    if (room->status == ROOM_ENDED) {
        room->ended_at = now > age_ms ? now - age_ms : 1;
    }
    if (room->status != ROOM_LOBBY) {
        /* Views as they were, so that the next action is a diff. A room
         * whose views cannot be built now builds them when next needed. */
        (void)lobby__views_build(room);
    }
    lobby__room_touch(room, now);
    lobby__schedule_bots(lobby, room, now);
    lobby->restored++;
    return 0;
}
