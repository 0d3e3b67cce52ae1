/* SPDX-License-Identifier: MIT */
/*
 * game.c - the one sequence that starts and advances a game (setup, init,
 * apply on a scratch copy) and the assembly of whole views from their
 * parts, shared by the server, the replay tool and the tests. Pure: no
 * I/O, no globals.
 */
#include "game.h"

#include <stdlib.h>
#include <string.h>

int game_start(const struct game_ops *g, void *state, const json_t *options,
               const struct game_setup *setup, struct game_error *err)
{
    memset(state, 0, g->state_size);
    return g->init(state, options, setup, err);
}

int game_try(const struct game_ops *g, const void *state, void *scratch, int seat,
             const json_t *action, struct game_error *err)
{
    memcpy(scratch, state, g->state_size);
    return g->apply(scratch, seat, action, err);
}

int game_apply(const struct game_ops *g, void *state, int seat, const json_t *action,
               struct game_error *err)
{
    void *scratch = malloc(g->state_size);
    int rc;

    if (!scratch) {
        return game_error_set(err, GAME_E_NOMEM, "out of memory");
    }
    rc = game_try(g, state, scratch, seat, action, err);
    if (rc == GAME_OK) {
        memcpy(state, scratch, g->state_size);
    }
    free(scratch);
    return rc;
}

json_t *game_view_public(const struct game_ops *g, const void *state)
{
    json_t *v = json_object();

    for (size_t k = 0; v && k < g->nsections; k++) {
        json_t *member = g->sections[k].build(state);
        if (!member || json_object_set_new(v, g->sections[k].key, member) != 0) {
            json_decref(v);
            v = NULL;
        }
    }
    return v;
}

json_t *game_view(const struct game_ops *g, const void *state, int seat)
{
    json_t *v = game_view_public(g, state);

    if (v && seat >= 0) {
        json_t *you = g->you(state, seat);
        if (!you || json_object_set_new(v, "you", you) != 0) {
            json_decref(v);
            return NULL;
        }
    }
    return v;
}
