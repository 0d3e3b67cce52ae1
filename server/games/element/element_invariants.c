/* SPDX-License-Identifier: MIT */
/*
 * element_invariants.c - what must hold in every Element position (test
 * builds check it after every action): per type, board + bag + hand = 30
 * (silver: 30 with a Silver option, else 0); no Sage shares a square with a
 * stone or another Sage; every square holds a height its content allows and
 * only the Silver element in play; the phase, turn and result agree; a
 * picked stone (R-element-4.6) is in play and in hand, in the act phase.
 */
#include <string.h>

#include "element.h"

static int fail(struct game_error *err, const char *what)
{
    game_error_set(err, GAME_E_ILLEGAL, "element invariant: %s", what);
    return -1;
}

int element__check_invariants(const void *state, struct game_error *err)
{
    const struct element_core *c = &((const struct element_state *)state)->c;
    int counts[ELEMENT_NTYPES];

    if (c->nseats < 2 || c->nseats > ELEMENT_MAX_SEATS || c->cur >= c->nseats ||
        c->first >= c->nseats || c->phase > ELEMENT_PH_OVER || c->silver > ELEMENT_SILVER_METAL) {
        return fail(err, "seats, phase or option out of range");
    }
    element__board_counts(c, counts);
    for (int t = 0; t < ELEMENT_NTYPES; t++) {
        int total =
            t == ELEMENT_T_SILVER && c->silver == ELEMENT_SILVER_NONE ? 0 : ELEMENT_PER_TYPE;
        if (c->bag[t] < 0 || c->hand[t] < 0 || counts[t] + c->bag[t] + c->hand[t] != total) {
            return fail(err, "a stone type does not add up to its count");
        }
    }
    for (int s = 0; s < c->nseats; s++) {
        if (c->sage[s] >= ELEMENT_NSQ || c->kind[c->sage[s]] != ELEMENT_K_EMPTY) {
            return fail(err, "a Sage shares its square with a stone");
        }
        for (int o = 0; o < s; o++) {
            if (c->sage[o] == c->sage[s]) {
                return fail(err, "two Sages share a square");
            }
        }
    }
    static const uint8_t silver_of[] = {
        [ELEMENT_K_LIGHTNING] = ELEMENT_SILVER_LIGHTNING,
        [ELEMENT_K_WOOD] = ELEMENT_SILVER_WOOD,
        [ELEMENT_K_BLAZE] = ELEMENT_SILVER_WOOD,
        [ELEMENT_K_METAL] = ELEMENT_SILVER_METAL,
    };
    for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
        int k = c->kind[sq];
        int h = c->height[sq];
        bool ok;
        switch (k) {
        case ELEMENT_K_EMPTY:
            ok = h == 0;
            break;
        case ELEMENT_K_EARTH:
            ok = h >= 1 && h <= ELEMENT_EARTH_MAX;
            break;
        case ELEMENT_K_WIND:
            ok = h >= 1 && h <= ELEMENT_WIND_MAX;
            break;
        case ELEMENT_K_BLAZE:
            ok = h == 2;
            break;
        default:
            ok = k <= ELEMENT_K_METAL && h == 1;
            break;
        }
        if (!ok) {
            return fail(err, "a square holds an impossible stack");
        }
        if (k >= ELEMENT_K_LIGHTNING && silver_of[k] != c->silver) {
            return fail(err, "a Silver stone of another element is on the board");
        }
    }
    if (c->phase == ELEMENT_PH_OVER) {
        bool forfeit = c->reason == ELEMENT_R_FORFEIT;
        int want = forfeit && c->nseats == 2 ? 1 - c->forfeit : -1;
        if ((c->reason == ELEMENT_R_SURROUNDED) != (c->winner >= 0 && !forfeit) ||
            c->reason == ELEMENT_R_NONE || c->winner >= c->nseats || forfeit != (c->forfeit >= 0) ||
            c->forfeit >= c->nseats || (forfeit && c->winner != want)) {
            return fail(err, "the result does not match its reason");
        }
    } else if (c->winner != -1 || c->reason != ELEMENT_R_NONE || c->forfeit != -1) {
        return fail(err, "a running game has a result");
    }
    if (c->phase == ELEMENT_PH_DRAW && (c->drawn != -1 || c->steps != 0)) {
        return fail(err, "a turn before its draw has steps");
    }
    if (c->steps < 0 || c->steps > ELEMENT_MOVES || c->jumps < 0 || c->jumps > ELEMENT_JUMP_LIMIT ||
        c->round > ELEMENT_ROUND_LIMIT) {
        return fail(err, "steps, jumps or round out of range");
    }
    if (c->pick > 0 && (c->phase != ELEMENT_PH_ACT || c->pick > ELEMENT_NSTONES ||
                        !element__stone_in_play(c, c->pick - 1) ||
                        c->hand[element__stone_type(c->pick - 1)] <= 0)) {
        return fail(err, "a stone is picked outside the act phase or not in hand");
    }
    return 0;
}
