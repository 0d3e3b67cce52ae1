/* SPDX-License-Identifier: MIT */
/*
 * restore.c - rebuilds a room from its journal at start: each record is
 * decoded into its event and committed through the one path of event.c,
 * as in play (the action tried by the rules core, the same apply), so the
 * rebuilt room has the same state, rev and views. The lobby writes no
 * journal and sends nothing while it replays.
 */
#include "lobby_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

int lobby_restore(struct lobby *lobby, const json_t *records, uint64_t now, uint64_t age_ms,
                  char *err)
{
    const json_t *first = json_array_get(records, 0);
    const char *typed = json_string_value(json_object_get(first, "room"));
    char code[PROTO_ROOM_CODE_LEN + 1];
    struct room *room;
    int rc;

    if (!typed || proto_room_code_parse(typed, code) != 0) {
        snprintf(err, GAME_MSG_MAX, "the journal does not begin with a valid create record");
        return -1;
    }
    if (lobby__room_find(lobby, code)) {
        snprintf(err, GAME_MSG_MAX, "room %s exists twice", code);
        return -1;
    }
    room = lobby__room_new(lobby, code);
    if (!room) {
        snprintf(err, GAME_MSG_MAX, "out of memory");
        return -1;
    }
    lobby->restoring = true;
    rc = lobby__replay(room, records, now, err);
    lobby->restoring = false;
    if (rc == 0 && room->status == ROOM_PLAYING && room->game->active(room->state) == 0) {
        /* The last action ended the game; its end record was lost. */
        room->status = ROOM_ENDED;
    }
    if (rc == 0 && room->status == ROOM_ENDED) {
        room->ended_at = now > age_ms ? now - age_ms : 1;
        if (age_ms >= lobby->cfg.ended_ttl_ms) {
            rc = 1; /* finished long enough ago: the journal goes */
        } else {
            lobby__ended_note(room);
        }
    }
    if (rc != 0) {
        /* Unlink without forgetting the journal: the store keeps it for
         * inspection, or removes an expired one itself. */
        lobby__room_drop(lobby, room, false);
        return rc;
    }
    if (room->status != ROOM_LOBBY) {
        /* Views as they were, so that the next action is a diff. A room
         * whose views cannot be built now builds them when next needed. */
        (void)lobby__views_build(room);
    }
    lobby__room_touch(room, now);
    lobby__schedule_bots(lobby, room, now);
    lobby->restored++;
    if (lobby__sleep_time(room) != UINT64_MAX) {
        /* Nobody is here yet: it sleeps until someone comes back. */
        lobby__room_sleep(lobby, room);
    }
    return 0;
}
