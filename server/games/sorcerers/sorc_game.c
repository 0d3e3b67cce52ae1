/* SPDX-License-Identifier: MIT */
/*
 * sorc_game.c - the Sorcerers entry of the game registry: the `struct
 * game_ops sorc_game` table and the thin game.h entry points around the
 * core (init from parsed options, apply as decode then rules, legal as
 * enumerate then encode or write as text, the active seats). It owns the
 * order of the refusal checks of R-sorcerers-4.4 and nothing more: rules
 * live in sorc_rules.c, JSON in sorc_codec.c and sorc_view.c. It never
 * copies the state: the server hands apply a scratch copy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "sorc.h"

static int sorc_check_options(const json_t *options, int nseats, struct game_error *err)
{
    int seat;
    int max_turns;

    return sorc__options_parse(options, nseats, &seat, &max_turns, err);
}

static int sorc_init(void *state, const json_t *options, const struct game_setup *setup,
                     struct game_error *err)
{
    char names[2][SORC_NAME_MAX];
    int seat;
    int max_turns;
    int rc = sorc__options_parse(options, setup->nseats, &seat, &max_turns, err);

    if (rc != GAME_OK) {
        return rc;
    }
    memset(names, 0, sizeof(names));
    for (int i = 0; i < 2; i++) {
        snprintf(names[i], SORC_NAME_MAX, "%s", setup->names[i][0] ? setup->names[i] : "?");
    }
    sorc__setup(state, setup->seed, seat, max_turns, names[0], names[1]);
    return GAME_OK;
}

static int sorc_apply(void *state, int seat, const json_t *action, struct game_error *err)
{
    struct sorc_state *st = state;
    struct sorc_action a;

    /* R-sorcerers-4.4: game_over, not_your_turn, bad_action, then the rules. */
    int rc = sorc__may_act(st, seat, err);
    if (rc != GAME_OK) {
        return rc;
    }
    if (sorc_action_decode(action, &a, err) != GAME_OK) {
        return GAME_E_BAD_ACTION;
    }
    return sorc__rules_apply(st, seat, &a, err);
}

static json_t *sorc_legal(const void *state, int seat)
{
    struct sorc_legal *l = malloc(sizeof(*l));
    json_t *arr;

    if (!l) {
        return NULL;
    }
    sorc__legal_list(state, seat, l);
    arr = sorc__legal_encode(l);
    free(l);
    return arr;
}

/* The list sorc_legal() builds, written as text: the same enumeration
 * (sorc__legal_list), each action as sorc_action_encode() would give it. */
static void sorc_legal_text(struct game_text *out, const void *state, int seat)
{
    struct sorc_legal *l = malloc(sizeof(*l));

    if (!l) {
        if (out->err == 0) {
            out->err = -ENOMEM;
        }
        return;
    }
    sorc__legal_list(state, seat, l);
    sorc__legal_write(out, l);
    free(l);
}

static unsigned sorc_active(const void *state)
{
    const struct sorc_state *st = state;
    unsigned m = 0;

    if (st->over) {
        return 0;
    }
    for (int s = 0; s < 2; s++) {
        if (st->act[s]) {
            m |= 1u << sorc__seat(st, s);
        }
    }
    return m;
}

/* The Sorcerers rules core as the server sees it: the one symbol this folder
 * exports to the registry. Static data; no function in it keeps state. */
const struct game_ops sorc_game = {
    .id = "sorcerers",
    .title = "Sorcerers",
    .min_players = 2,
    .max_players = 2,
    .state_size = sizeof(struct sorc_state),
    .options_schema = sorc__options_schema,
    .check_options = sorc_check_options,
    .init = sorc_init,
    .apply = sorc_apply,
    .sections = sorc__sections,
    .nsections = SORC_NSECTIONS,
    .changed = sorc__changed,
    .parts_changed = sorc__parts_changed,
    .you = sorc__you,
    .legal = sorc_legal,
    .legal_text = sorc_legal_text,
    .active = sorc_active,
    .check_invariants = sorc__check_invariants,
    .forfeit = sorc__forfeit,
    .skip = sorc__skip,
    .undoable = sorc__undoable,
    .tests = &sorc_tests,
    .bot = &sorc_bot,
};
