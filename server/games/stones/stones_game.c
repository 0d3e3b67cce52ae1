/* SPDX-License-Identifier: MIT */
/*
 * stones_game.c - the `stones_game` operations table, the one symbol the
 * server knows of Sorcerer & Stones, and the thin game.h entry points that
 * join the codec to the rules: init decodes the options and sets up, apply
 * decodes the action and runs the rules, legal enumerates and encodes,
 * active names the seat to move, forfeit and skip are stones_timeout.c's
 * and undoable is stones_undo.c's. It holds no rule and builds no view of
 * its own; it never copies the state (the server applies on its scratch
 * copy).
 */
#include "stones.h"

static int ops_check_options(const json_t *options, int nseats, struct game_error *err)
{
    int variant;
    int colours;
    int rc = stones__options_decode(options, &variant, &colours, err);
    if (rc == GAME_OK) {
        rc = stones__check_setup(variant, colours, nseats, &colours, err);
    }
    return rc;
}

static int ops_init(void *state, const json_t *options, const struct game_setup *setup,
                    struct game_error *err)
{
    int variant;
    int colours;
    int rc = stones__options_decode(options, &variant, &colours, err);
    if (rc == GAME_OK) {
        rc = stones__check_setup(variant, colours, setup->nseats, &colours, err);
    }
    if (rc == GAME_OK) {
        stones__setup(state, variant, colours, setup);
    }
    return rc;
}

static int ops_apply(void *state, int seat, const json_t *action, struct game_error *err)
{
    struct stones_action a;
    /* Who may act is refused before what was sent (not_your_turn first). */
    int rc = stones__may_act(state, seat, err);
    if (rc == GAME_OK) {
        rc = stones_action_decode(action, &a, err);
    }
    if (rc == GAME_OK) {
        rc = stones__apply(state, seat, &a, err);
    }
    return rc;
}

static json_t *ops_legal(const void *state, int seat)
{
    const struct stones_state *st = state;
    struct stones_legal_list list = {json_array(), 0};
    if (!list.arr) {
        return NULL;
    }
    if (st->phase != STONES_PH_OVER && seat == stones__current_seat(st)) {
        stones__enumerate(st, stones__legal_push, &list);
    }
    if (list.failed) {
        json_decref(list.arr);
        return NULL;
    }
    return list.arr;
}

static void ops_legal_text(struct game_text *out, const void *state, int seat)
{
    const struct stones_state *st = state;

    game_text_arr(out);
    if (st->phase != STONES_PH_OVER && seat == stones__current_seat(st)) {
        stones__enumerate(st, stones__legal_write, out);
    }
    game_text_end_arr(out);
}

static unsigned ops_active(const void *state)
{
    int seat = stones__current_seat(state);
    return seat < 0 ? 0u : 1u << seat;
}

const struct game_ops stones_game = {
    .id = "stones",
    .title = "Sorcerer & Stones",
    .min_players = 1,
    .max_players = 4,
    .state_size = sizeof(struct stones_state),
    .options_schema = stones__options_schema,
    .check_options = ops_check_options,
    .init = ops_init,
    .apply = ops_apply,
    .sections = stones__sections,
    .nsections = STONES_NSECTIONS,
    .changed = stones__changed,
    .parts_changed = stones__parts_changed,
    .you = stones__you,
    .legal = ops_legal,
    .legal_text = ops_legal_text,
    .active = ops_active,
    .check_invariants = stones__check_invariants,
    .forfeit = stones__forfeit,
    .skip = stones__skip,
    .undoable = stones__undoable,
    .tests = &stones_tests,
    .bot = &stones_bot,
};
