/* SPDX-License-Identifier: MIT */
/*
 * arcana_game.c - the `arcana_game` operations table, the one symbol the
 * server knows of Res Arcana, and the thin game.h entry points that join
 * the codec to the rules: init decodes the options and sets up, apply
 * decodes the action and runs the step machine, legal enumerates and
 * encodes (legal_text writes the same list as text), active names the
 * seats that may act, forfeit and skip serve a turn clock's timeout;
 * undoable (arcana_undo.c) says whether an action may be taken back.
 */
#include "arcana.h"

static int ops_check_options(const json_t *options, int nseats, struct game_error *err)
{
    int setup;
    int duel;
    return arc__options_decode(options, nseats, &setup, &duel, err);
}

static int ops_init(void *state, const json_t *options, const struct game_setup *setup,
                    struct game_error *err)
{
    int mode;
    int duel;
    int rc = arc__options_decode(options, setup->nseats, &mode, &duel, err);
    if (rc == GAME_OK) {
        arc__setup(state, setup->nseats, mode, duel, setup);
    }
    return rc;
}

/* GAME_OK when `seat` may act now; else the refusal apply, forfeit and
 * skip all give. */
static int check_seat(const struct arc_state *st, int seat, struct game_error *err)
{
    if (st->c.over) {
        return game_error_set(err, GAME_E_OVER, "R-arcana-9: the game is over");
    }
    if (seat < 0 || seat >= st->c.nseats || !(arc__active(&st->c) & (1u << seat))) {
        return game_error_set(err, GAME_E_NOT_TURN, "R-arcana-11.5: it is not your turn");
    }
    return GAME_OK;
}

static int ops_apply(void *state, int seat, const json_t *action, struct game_error *err)
{
    struct arc_state *st = state;
    struct arc_action a;
    int rc = check_seat(st, seat, err);
    if (rc != GAME_OK) {
        return rc;
    }
    rc = arc__action_decode(action, &a, err);
    if (rc != GAME_OK) {
        return rc;
    }
    return arc__act(st, seat, &a, err);
}

static int ops_forfeit(void *state, int seat, struct game_error *err)
{
    int rc = check_seat(state, seat, err);
    if (rc == GAME_OK) {
        arc__forfeit(state, seat);
    }
    return rc;
}

static int ops_skip(void *state, int seat, struct game_error *err)
{
    int rc = check_seat(state, seat, err);
    return rc == GAME_OK ? arc__skip(state, seat, err) : rc;
}

static json_t *ops_legal(const void *state, int seat)
{
    const struct arc_state *st = state;
    struct arc_action opts[ARC_MAX_OPTS];
    json_t *arr = json_array();
    if (!arr) {
        return NULL;
    }
    int n = seat >= 0 && seat < st->c.nseats ? arc__options(&st->c, seat, opts, ARC_MAX_OPTS) : 0;
    for (int i = 0; i < n; i++) {
        json_t *j = arc__action_encode(&opts[i]);
        if (!j || json_array_append_new(arr, j) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

/* The list ops_legal() builds, written as text: the same enumeration
 * (arc__options), each action as arc__action_encode() would give it. */
static void ops_legal_text(struct game_text *out, const void *state, int seat)
{
    const struct arc_state *st = state;
    struct arc_action opts[ARC_MAX_OPTS];
    int n = seat >= 0 && seat < st->c.nseats ? arc__options(&st->c, seat, opts, ARC_MAX_OPTS) : 0;

    game_text_arr(out);
    for (int i = 0; i < n; i++) {
        arc__action_write(out, &opts[i]);
    }
    game_text_end_arr(out);
}

static unsigned ops_active(const void *state)
{
    return arc__active(&((const struct arc_state *)state)->c);
}

const struct game_ops arcana_game = {
    .id = "arcana",
    .title = "Res Arcana",
    .min_players = 2,
    .max_players = ARC_MAX_SEATS,
    .state_size = sizeof(struct arc_state),
    .options_schema = arc__options_schema,
    .check_options = ops_check_options,
    .init = ops_init,
    .apply = ops_apply,
    .sections = arc__sections,
    .nsections = ARC_NSECTIONS,
    .changed = arc__changed,
    .parts_changed = arc__parts_changed,
    .you = arc__you,
    .legal = ops_legal,
    .legal_text = ops_legal_text,
    .active = ops_active,
    .check_invariants = arc__check_invariants,
    .forfeit = ops_forfeit,
    .skip = ops_skip,
    .undoable = arc__undoable,
    .tests = &arcana_tests,
    .bot = &arcana_bot,
};
