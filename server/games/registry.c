/* SPDX-License-Identifier: MIT */
/*
 * registry.c - the list of games this server offers, built from the lines
 * of games.def. Adding a game means one line there and its folder beside
 * this file; no other server code changes.
 */
#include "game.h"

#include <string.h>

#define GAME(id, prefix) extern const struct game_ops prefix##_game;
#include "games.def"
#undef GAME

const struct game_ops *const game_registry[] = {
#define GAME(id, prefix) &prefix##_game,
#include "games.def"
#undef GAME
    NULL,
};

const struct game_ops *game_find_in(const struct game_ops *const *games, const char *id)
{
    if (!id || !games) {
        return NULL;
    }
    for (size_t i = 0; games[i]; i++) {
        if (strcmp(games[i]->id, id) == 0) {
            return games[i];
        }
    }
    return NULL;
}

const struct game_ops *game_find(const char *id)
{
    return game_find_in(game_registry, id);
}
