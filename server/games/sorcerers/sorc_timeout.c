/* SPDX-License-Identifier: MIT */
/*
 * sorc_timeout.c - what a turn clock's timeout does to a Sorcerers game
 * (game.h `forfeit` and `skip`, R-sorcerers-7.1): a forfeit ends the game,
 * won by the other side; a skip ends the seat's pending decision the
 * cheapest way the rules allow, through the same sorc__rules_apply() as a
 * player's action. A skip never chooses a card of the seat's hidden hand:
 * a sealed combo is committed with empty slots, and a choice the rules
 * oblige from the hand (a discard), which would show a card the seat did
 * not choose to show, is refused. It never touches JSON.
 */
#include "sorc.h"

#include <stdlib.h>

#include "game.h"

/* R-sorcerers-7.1: `seat` (active now) loses; the other side wins at once.
 * GAME_OK, GAME_E_OVER once the game has ended, GAME_E_NOT_TURN when the
 * seat has no decision now; a refusal changes nothing. */
int sorc__forfeit(void *state, int seat, struct game_error *err)
{
    struct sorc_state *st = state;
    int rc = sorc__may_act(st, seat, err);

    if (rc != GAME_OK) {
        return rc;
    }
    int side = sorc__side(st, seat);
    st->over = 1;
    st->act[0] = st->act[1] = 0;
    st->phase = SORC_P_OVER;
    st->winner_side = (int8_t)(side ^ 1);
    st->reason = SORC_R_FORFEIT;
    sorc__log(st, "forfeits", "%s forfeits; %s wins (forfeit).", sorc__name(st, side),
              sorc__name(st, side ^ 1));
    return GAME_OK;
}

/* The action a skip takes from the list `l` of `side`: the pass where the
 * decision has one, else the first listed (an empty slot, no target, the
 * encounter kept), or -1 where that would pick a card of the seat's own
 * hidden hand (a discard, a deal). */
static int skip_pick(const struct sorc_state *st, int side, const struct sorc_legal *l)
{
    for (int i = 0; i < l->n; i++) {
        if (l->a[i].type == SORC_A_DONE || l->a[i].type == SORC_A_PASS) {
            return i;
        }
    }
    if (l->n == 0 || (l->a[0].card != SORC_NONE && sorc__hand_index(st, side, l->a[0].card) >= 0)) {
        return -1;
    }
    return 0;
}

/*
 * `seat` gives up its pending decision (R-sorcerers-7.1): done or pass
 * where the decision has one; a sealed combo gets empty slots and is
 * declared with no sacrifice and no betrayal, the cards already sealed
 * staying as sealed; negation names no target, the encounter is kept, a
 * Track takes nothing; the public choices the rules oblige (steal, object
 * overflow, the Grimhold) take the first listed. The log says it was
 * skipped. GAME_OK; GAME_E_ILLEGAL where the rules oblige a card of the
 * hand (a discard, a Faust deal without done): the server's bot decides
 * it; GAME_E_OVER, GAME_E_NOT_TURN as forfeit. On GAME_E_ILLEGAL the state
 * may hold the log line: the server drops its scratch copy.
 */
int sorc__skip(void *state, int seat, struct game_error *err)
{
    struct sorc_state *st = state;
    int rc = sorc__may_act(st, seat, err);

    if (rc != GAME_OK) {
        return rc;
    }
    struct sorc_legal *l = malloc(sizeof(*l));
    if (!l) {
        return game_error_set(err, GAME_E_NOMEM, "out of memory");
    }
    int side = sorc__side(st, seat);
    int phase = st->phase;
    sorc__legal_list(st, seat, l);
    int k = skip_pick(st, side, l);
    if (k < 0) {
        rc = game_error_set(err, GAME_E_ILLEGAL,
                            "R-sorcerers-7.1: a choice from the hand cannot be skipped");
    } else {
        sorc__log(st, "time_ran_out", "%s's time ran out; the %s decision is skipped.",
                  sorc__name(st, side), sorc__phase_name(phase));
        rc = sorc__rules_apply(st, seat, &l->a[k], err);
    }
    /* A sealed combo is committed slot by slot, up to its declaration. */
    while (rc == GAME_OK && phase == SORC_P_DUEL_COMBO && st->phase == SORC_P_DUEL_COMBO &&
           !st->over && st->act[side]) {
        sorc__legal_list(st, seat, l);
        k = skip_pick(st, side, l);
        rc = k >= 0 ? sorc__rules_apply(st, seat, &l->a[k], err)
                    : game_error_set(err, GAME_E_ILLEGAL,
                                     "R-sorcerers-7.1: a choice from the hand cannot be skipped");
    }
    free(l);
    return rc;
}
