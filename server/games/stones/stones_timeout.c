/* SPDX-License-Identifier: MIT */
/*
 * stones_timeout.c - what a turn clock's timeout does to a Sorcerer &
 * Stones game (game.h `forfeit` and `skip`, R-stones-6.3): a forfeit ends
 * the game with the seat losing; a skip ends the seat's pending decision
 * the cheapest way the rules allow, through the same stones__apply() as a
 * player's action, so what it leaves is a position a player could have
 * reached. Like the rest of the rules it works on plain C state only, and
 * a refusal changes nothing. The game has no hidden per-seat data, so a
 * skip can reveal nothing of the seat's own.
 */
#include "stones.h"

/* The actions that close a decision with no effect (R-stones-4.1). */
static int is_pass(int type)
{
    return type == STONES_A_END_CAST || type == STONES_A_END_MOVE || type == STONES_A_END_TURN ||
           type == STONES_A_REWARD_SKIP;
}

/* What a skip picks from the legal list: the pass, or the first action. */
struct pick {
    struct stones_action pass;
    struct stones_action first;
    int has_pass;
    int has_first;
};

static int pick_cb(const struct stones_action *a, void *ctx)
{
    struct pick *k = ctx;
    if (is_pass(a->type)) {
        k->pass = *a;
        k->has_pass = 1;
        return 1;
    }
    if (a->type != STONES_A_CANCEL && !k->has_first) {
        k->first = *a;
        k->has_first = 1;
    }
    return 0;
}

/* 1 while a decision is being chosen step by step (R-stones-4.2, 4.6, 1.5). */
static int choosing(const struct stones_state *st)
{
    return st->sel_card >= 0 || st->pay_for >= 0 || st->step_pair >= 0;
}

/* R-stones-6.3: a forced cast that changes nothing on the board, a FLY of
 * the Taoist onto its own tile, when the row holds a FLY card. */
static int fly_in_place(const struct stones_state *st, struct stones_action *ret)
{
    const struct stones_player *pl = &st->pl[st->cur];
    for (int i = 0; i < pl->row_n; i++) {
        if (pl->row[i] == STONES_FLY1 || pl->row[i] == STONES_FLY2) {
            struct stones_action a = {.type = STONES_A_CAST, .card = pl->row[i]};
            a.tile = pl->taoist;
            if (stones__validate(st, &a, NULL) == GAME_OK) {
                *ret = a;
                return 1;
            }
        }
    }
    return 0;
}

/*
 * `seat` forfeits (R-stones-6.3): the game ends at once with every other
 * seat winning (co-op: the team loses), "result" gets "forfeit": seat and
 * the log says so. Whatever the seat had half chosen is dropped. Returns
 * GAME_OK, or GAME_E_OVER / GAME_E_NOT_TURN (message in err, state
 * unchanged) when the game has ended or `seat` is not the one to act.
 */
int stones__forfeit(void *state, int seat, struct game_error *err)
{
    struct stones_state *st = state;
    int rc = stones__may_act(st, seat, err);
    if (rc != GAME_OK) {
        return rc;
    }
    st->sel_card = -1;
    st->sel_first = -1;
    st->pay_for = -1;
    st->step_pair = -1;
    st->forfeit = (int8_t)seat;
    st->forfeit_phase = st->phase;
    st->phase = STONES_PH_OVER;
    st->end_reason = STONES_END_FORFEIT;
    stones__log(st, "forfeit", "%s forfeits; the game ends.", st->names[seat]);
    return GAME_OK;
}

/*
 * `seat` gives up its pending decision (R-stones-6.3): a step-by-step
 * choice is cancelled, then the decision is closed by its pass (end_cast,
 * end_move, end_turn, reward_skip) where it has one; where the rules oblige
 * an action (place_taoist, the first cast, a dead-hand discard,
 * choose_stone, offer, pay) the cheapest is taken: a FLY of the Taoist
 * onto its own tile for the first cast when the row holds one, else the
 * first action legal() lists, followed through its steps. The log says the
 * decision was skipped, then what was done. Returns GAME_OK, or
 * GAME_E_OVER / GAME_E_NOT_TURN (message in err, state unchanged).
 */
int stones__skip(void *state, int seat, struct game_error *err)
{
    struct stones_state *st = state;
    int rc = stones__may_act(st, seat, err);
    if (rc != GAME_OK) {
        return rc;
    }
    stones__log(st, "time_ran_out", "%s's time ran out; the %s decision is skipped.",
                st->names[seat], stones_phase_name[st->phase]);
    if (choosing(st)) {
        struct stones_action cancel = {.type = STONES_A_CANCEL};
        rc = stones__apply(st, seat, &cancel, err);
    }
    struct pick k = {0};
    stones__enumerate(st, pick_cb, &k);
    struct stones_action a = k.has_pass ? k.pass : k.first;
    if (!k.has_pass && st->phase == STONES_PH_CAST && st->casts == 0) {
        (void)fly_in_place(st, &a);
    }
    if (rc == GAME_OK) {
        rc = k.has_pass || k.has_first
                 ? stones__apply(st, seat, &a, err)
                 : game_error_set(err, GAME_E_ILLEGAL, "R-stones-4.1: nothing can be done");
    }
    /* A first step of a cast or a payment is followed to its end. */
    while (rc == GAME_OK && choosing(st) && stones__current_seat(st) == seat) {
        k = (struct pick){0};
        stones__enumerate(st, pick_cb, &k);
        rc = k.has_first ? stones__apply(st, seat, &k.first, err)
                         : game_error_set(err, GAME_E_ILLEGAL, "R-stones-4.1: nothing can be done");
    }
    return rc;
}
