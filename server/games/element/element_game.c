/* SPDX-License-Identifier: MIT */
/*
 * element_game.c - the `element_game` operations table, the one symbol the
 * server knows of Element, and the thin game.h entry points that join the
 * codec to the rules: init decodes the options and sets up, apply decodes
 * the action, runs the rules and the automatic steps and writes the log,
 * legal enumerates (stepwise, R-element-4.6) and encodes, active names
 * the seat to move, forfeit and skip serve a turn clock's timeout,
 * undoable tells the server whether an action may be taken back.
 */
#include <string.h>

#include "element.h"

static int ops_check_options(const json_t *options, int nseats, struct game_error *err)
{
    int silver;
    return element__options_decode(options, nseats, &silver, err);
}

static int ops_init(void *state, const json_t *options, const struct game_setup *setup,
                    struct game_error *err)
{
    int silver;
    int rc = element__options_decode(options, setup->nseats, &silver, err);
    if (rc == GAME_OK) {
        element__setup(state, setup->nseats, silver, setup);
    }
    return rc;
}

/* The log lines of one accepted action and what followed it by itself. */
static void log_action(struct element_state *st, const struct element_core *before, int seat,
                       const struct element_action *a)
{
    const struct element_core *c = &st->c;
    const char *who = st->names[seat];
    char sq[4];
    element__sq_name(a->sq, sq);
    switch (a->type) {
    case ELEMENT_A_DRAW:
        element__log(st, "draws", "%s draws %d: %d fire, %d water, %d earth, %d wind, %d silver.",
                     who, a->arg, before->cur == c->cur ? c->hand[0] : 0,
                     before->cur == c->cur ? c->hand[1] : 0, before->cur == c->cur ? c->hand[2] : 0,
                     before->cur == c->cur ? c->hand[3] : 0,
                     before->cur == c->cur ? c->hand[4] : 0);
        break;
    case ELEMENT_A_STEP:
        element__log(st, "steps", "%s steps to %s.", who, sq);
        break;
    case ELEMENT_A_JUMP:
        element__log(st, "jumps", "%s jumps to %s.", who, sq);
        break;
    case ELEMENT_A_PLACE:
        element__log(st, "places", "%s places %s on %s.", who, element_stone_name[a->arg], sq);
        break;
    case ELEMENT_A_GROW:
        element__log(st, "grows", "%s grows Wood on %s.", who, sq);
        break;
    case ELEMENT_A_REMOVE:
        element__log(st, "removes", "%s removes the Lightning on %s.", who, sq);
        break;
    case ELEMENT_A_CORRODE:
        element__log(st, "corrodes", "%s corrodes the Metal on %s.", who, sq);
        break;
    case ELEMENT_A_END: {
        int back = 0;
        for (int t = 0; t < ELEMENT_NTYPES; t++) {
            back += before->hand[t];
        }
        if (back > 0) {
            element__log(st, "ends_turn_return",
                         "%s ends the turn; the stones left in hand go back to the bag.", who);
        } else {
            element__log(st, "ends_turn", "%s ends the turn.", who);
        }
        break;
    }
    default:
        break;
    }
    if (c->phase == ELEMENT_PH_OVER) {
        if (c->winner >= 0) {
            element__log(st, "surrounded", "%s is surrounded: %s wins.",
                         st->names[element__target(c, c->winner)], st->names[c->winner]);
        } else {
            element__log(st, "no_winner", "The game ends with no winner (%s).",
                         element_reason_name[c->reason]);
        }
    } else if (c->cur != before->cur) {
        element__log(st, "turn", "%s's turn.", st->names[c->cur]);
    }
}

/* GAME_OK when `seat` is the seat to move; else the refusal apply,
 * forfeit and skip all give. */
static int check_seat(const struct element_state *st, int seat, struct game_error *err)
{
    if (st->c.phase == ELEMENT_PH_OVER) {
        return game_error_set(err, GAME_E_OVER, "R-element-7: the game is over");
    }
    if (seat != st->c.cur) {
        return game_error_set(err, GAME_E_NOT_TURN, "R-element-4.7: it is not your turn");
    }
    return GAME_OK;
}

/* Applies `a` of `seat`, the automatic steps after it and its log lines. */
static int act(struct element_state *st, int seat, const struct element_action *a,
               struct game_error *err)
{
    struct element_core before = st->c;
    int rc = element__act(&st->c, a, err);
    if (rc != GAME_OK) {
        return rc;
    }
    element__settle(&st->c);
    log_action(st, &before, seat, a);
    return GAME_OK;
}

static int ops_apply(void *state, int seat, const json_t *action, struct game_error *err)
{
    struct element_state *st = state;
    struct element_action a;
    int rc = check_seat(st, seat, err);
    if (rc != GAME_OK) {
        return rc;
    }
    rc = element_action_decode(action, &a, err);
    if (rc != GAME_OK) {
        return rc;
    }
    return act(st, seat, &a, err);
}

static int ops_forfeit(void *state, int seat, struct game_error *err)
{
    int rc = check_seat(state, seat, err);
    if (rc == GAME_OK) {
        element__forfeit(state, seat);
    }
    return rc;
}

/* The least action of the full list (R-element-12.2, 4.6): a pass where
 * the phase has one (end, grow_done, keep), else the first that is not a
 * Sage move (the lowest draw, the first placement with its square, the
 * first follow-up). */
struct least_pick {
    struct element_action a;
    int rank; /* 0 none yet, 1 a move, 2 another action, 3 a pass */
};

static void least_push(void *ud, const struct element_action *a)
{
    struct least_pick *p = ud;
    int rank = 2;
    if (a->type == ELEMENT_A_END || a->type == ELEMENT_A_GROW_DONE || a->type == ELEMENT_A_KEEP) {
        rank = 3;
    } else if (a->type == ELEMENT_A_STEP || a->type == ELEMENT_A_JUMP) {
        rank = 1;
    }
    if (rank > p->rank) {
        p->a = *a;
        p->rank = rank;
    }
}

static int ops_skip(void *state, int seat, struct game_error *err)
{
    struct element_state *st = state;
    int rc = check_seat(st, seat, err);
    if (rc != GAME_OK) {
        return rc;
    }
    struct least_pick p = {{0, 0, 0}, 0};
    element__enumerate(&st->c, least_push, &p);
    if (p.rank < 2) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-element-12.2: only a Sage move is left, and a skip never moves");
    }
    element__log(st, "turn_skipped", "%s's turn is skipped.", st->names[seat]);
    for (int guard = 0; guard < 1000 && p.rank >= 2; guard++) {
        rc = act(st, seat, &p.a, err);
        if (rc != GAME_OK || element__current_seat(st) != seat) {
            return rc;
        }
        p.rank = 0;
        element__enumerate(&st->c, least_push, &p);
    }
    return GAME_OK;
}

struct legal_list {
    json_t *arr;
    int failed;
};

static void legal_push(void *ud, const struct element_action *a)
{
    struct legal_list *l = ud;
    json_t *j = element_action_encode(a);
    if (!j || json_array_append_new(l->arr, j) != 0) {
        l->failed = 1;
    }
}

/* R-element-13: whether the action of `seat` that took `before` to
 * `after` (both borrowed) drew or revealed nothing hidden. Element hides
 * only the future draws: the bag has no order, its counts are public and
 * the generator picks each stone as it is drawn, so an action is undoable
 * exactly when the generator did not move (no stone was drawn: every
 * step, jump, placement, follow-up and end of turn, and a draw of 0) and
 * the game did not end (the result comes with the seed, which tells every
 * future draw). */
static bool ops_undoable(const void *before, const void *after, int seat)
{
    const struct element_core *b = &((const struct element_state *)before)->c;
    const struct element_core *a = &((const struct element_state *)after)->c;
    if (b->phase == ELEMENT_PH_OVER || a->phase == ELEMENT_PH_OVER || seat != b->cur) {
        return false;
    }
    return memcmp(&b->rng, &a->rng, sizeof(b->rng)) == 0;
}

static json_t *ops_legal(const void *state, int seat)
{
    const struct element_state *st = state;
    struct legal_list list = {json_array(), 0};
    if (!list.arr) {
        return NULL;
    }
    if (seat == element__current_seat(st)) {
        element__enumerate_stepwise(&st->c, legal_push, &list);
    }
    if (list.failed) {
        json_decref(list.arr);
        return NULL;
    }
    return list.arr;
}

static void legal_write(void *ud, const struct element_action *a)
{
    element_action_write(ud, a);
}

static void ops_legal_text(struct game_text *out, const void *state, int seat)
{
    const struct element_state *st = state;

    game_text_arr(out);
    if (seat == element__current_seat(st)) {
        element__enumerate_stepwise(&st->c, legal_write, out);
    }
    game_text_end_arr(out);
}

static unsigned ops_active(const void *state)
{
    int seat = element__current_seat(state);
    return seat < 0 ? 0u : 1u << seat;
}

const struct game_ops element_game = {
    .id = "element",
    .title = "Element",
    .min_players = 2,
    .max_players = ELEMENT_MAX_SEATS,
    .state_size = sizeof(struct element_state),
    .options_schema = element__options_schema,
    .check_options = ops_check_options,
    .init = ops_init,
    .apply = ops_apply,
    .sections = element__sections,
    .nsections = ELEMENT_NSECTIONS,
    .changed = element__changed,
    .you = element__you,
    .legal = ops_legal,
    .legal_text = ops_legal_text,
    .active = ops_active,
    .check_invariants = element__check_invariants,
    .forfeit = ops_forfeit,
    .skip = ops_skip,
    .undoable = ops_undoable,
    .tests = &element_tests,
    .bot = &element_bot,
};
