/* SPDX-License-Identifier: MIT */
/*
 * registry.c - the list of games this server offers. Adding a game means one
 * line here and its folder beside this file; no other server code changes.
 */
#include "game.h"

#include <string.h>

extern const struct game_ops stones_game;
extern const struct game_ops sorc_game;

const struct game_ops *const game_registry[] = {
    &stones_game,
    &sorc_game,
    NULL,
};

const struct game_ops *game_find(const char *id)
{
    if (!id) {
        return NULL;
    }
    for (size_t i = 0; game_registry[i]; i++) {
        if (strcmp(game_registry[i]->id, id) == 0) {
            return game_registry[i];
        }
    }
    return NULL;
}
