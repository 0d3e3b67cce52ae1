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

int game_try_timeout(const struct game_ops *g, const void *state, void *scratch, int seat,
                     bool lose, struct game_error *err)
{
    int rc;

    memcpy(scratch, state, g->state_size);
    if (lose) {
        return g->forfeit ? g->forfeit(scratch, seat, err)
                          : game_error_set(err, GAME_E_ILLEGAL, "%s has no forfeit", g->title);
    }
    if (!g->skip) {
        return game_error_set(err, GAME_E_ILLEGAL, "%s cannot skip a turn", g->title);
    }
    for (int n = 0; n < GAME_SKIPS_MAX; n++) {
        rc = g->skip(scratch, seat, err);
        if (rc != GAME_OK || !(g->active(scratch) & (1u << seat))) {
            return rc;
        }
    }
    return game_error_set(err, GAME_E_ILLEGAL, "the turn does not end by skipping");
}

/* game_try() (action) or game_try_timeout() (no action: `lose`) through
 * a scratch block of its own, copied back on GAME_OK. */
static int apply_copied(const struct game_ops *g, void *state, int seat, const json_t *action,
                        bool lose, struct game_error *err)
{
    void *scratch = malloc(g->state_size);
    int rc;

    if (!scratch) {
        return game_error_set(err, GAME_E_NOMEM, "out of memory");
    }
    rc = action ? game_try(g, state, scratch, seat, action, err)
                : game_try_timeout(g, state, scratch, seat, lose, err);
    if (rc == GAME_OK) {
        memcpy(state, scratch, g->state_size);
    }
    free(scratch);
    return rc;
}

int game_apply(const struct game_ops *g, void *state, int seat, const json_t *action,
               struct game_error *err)
{
    if (!action) {
        return game_error_set(err, GAME_E_BAD_ACTION, "no action");
    }
    return apply_copied(g, state, seat, action, false, err);
}

int game_apply_timeout(const struct game_ops *g, void *state, int seat, bool lose,
                       struct game_error *err)
{
    return apply_copied(g, state, seat, NULL, lose, err);
}

int game_view_text(const struct game_ops *g, const void *state, int seat, struct game_text *out)
{
    game_text_obj(out);
    for (size_t k = 0; k < g->nsections; k++) {
        game_text_key(out, g->sections[k].key);
        game_section_write(out, &g->sections[k], state);
    }
    if (seat >= 0) {
        game_text_key(out, "you");
        g->you(out, state, seat);
    }
    game_text_end_obj(out);
    return game_text_end(out);
}

/* The value written in `t`, parsed; NULL when there is none. */
static json_t *text_json(struct game_text *t)
{
    json_t *v = NULL;

    if (game_text_end(t) == 0) {
        v = json_loadb(t->data, t->len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
    }
    game_text_free(t);
    return v;
}

json_t *game_view(const struct game_ops *g, const void *state, int seat)
{
    struct game_text t = {0};

    game_view_text(g, state, seat, &t);
    return text_json(&t);
}

json_t *game_view_public(const struct game_ops *g, const void *state)
{
    return game_view(g, state, -1);
}

json_t *game_section_json(const struct game_ops *g, const void *state, int section, int seat)
{
    struct game_text t = {0};

    if (section < 0) {
        g->you(&t, state, seat);
    } else {
        game_section_write(&t, &g->sections[section], state);
    }
    return text_json(&t);
}

json_t *game_result(const struct game_ops *g, const void *state)
{
    for (size_t k = 0; k < g->nsections; k++) {
        if (strcmp(g->sections[k].key, "result") == 0) {
            json_t *v = game_section_json(g, state, (int)k, -1);
            if (json_is_null(v)) {
                json_decref(v);
                return NULL;
            }
            return v;
        }
    }
    return NULL;
}
