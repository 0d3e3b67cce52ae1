/* SPDX-License-Identifier: MIT */
/*
 * sorc_invariants.c - the consistency check of a Sorcerers state used by
 * test builds (game_ops.check_invariants): card conservation over every
 * zone, zone typing, the Grimhold's place, object limits outside the states
 * that allow overflow, markers and the active seats. It must never modify
 * the state and never touch JSON.
 */
#include "sorc.h"

#include <string.h>

#include "game.h"

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        game_error_set(err, GAME_E_ILLEGAL, __VA_ARGS__);                                          \
        return -1;                                                                                 \
    } while (0)

/* Checks every invariant of the state; 0, or -1 with a description in `err`
 * (status GAME_E_ILLEGAL). See sorc.h. */
int sorc__check_invariants(const void *state, struct game_error *err)
{
    const struct sorc_state *st = state;
    int count[SORC_NCARDS];

    memset(count, 0, sizeof(count));
    if (st->magic != SORC_MAGIC) {
        FAIL("bad magic");
    }
    if (st->mer_seat > 1 || st->phase >= SORC_P_COUNT) {
        FAIL("bad seat or phase");
    }
    if (st->ndeck > SORC_NCARDS || st->ndiscard > SORC_NCARDS || st->nhand[0] > SORC_NCARDS ||
        st->nhand[1] > SORC_NCARDS || st->ninplay > SORC_MAX_INPLAY) {
        FAIL("zone size out of range");
    }
    for (int i = 0; i < st->ndeck; i++) {
        count[st->deck[i] % SORC_NCARDS]++;
    }
    for (int i = 0; i < st->ndiscard; i++) {
        count[st->discard[i] % SORC_NCARDS]++;
    }
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < st->nhand[s]; i++) {
            count[st->hand[s][i] % SORC_NCARDS]++;
        }
    }
    for (int i = 0; i < st->ninplay; i++) {
        const struct sorc_inplay *in = &st->inplay[i];
        if (!sorc__is_sorcerer(in->card)) {
            FAIL("a non-sorcerer is in play");
        }
        count[in->card]++;
        if (in->nobj > SORC_MAX_OBJ) {
            FAIL("too many objects");
        }
        for (int j = 0; j < in->nobj; j++) {
            if (in->obj[j] >= SORC_NCARDS || sorc_cards[in->obj[j]].type != SORC_T_OBJECT) {
                FAIL("a non-object is equipped");
            }
            count[in->obj[j]]++;
        }
        /* R-sorcerers-2.4: only the recruiting player's step and the
         * overflow state may show more than three objects. */
        if (in->nobj > 3 && st->phase != SORC_P_OBJECT_OVERFLOW &&
            !(st->phase == SORC_P_RECRUIT && sorc__controller(in->card) == st->cur_side)) {
            FAIL("%s carries more than three objects", sorc_cards[in->card].name);
        }
    }
    if (st->grim_loose) {
        count[SORC_GRIMHOLD]++;
    }
    if (st->ea_card != SORC_NONE) {
        count[st->ea_card % SORC_NCARDS]++;
    }
    if (st->duel_on && st->revealed) {
        for (int s = 0; s < 2; s++) {
            for (int k = 0; k < SORC_NSLOTS; k++) {
                uint8_t c = st->combo[s].slot[k];
                if (c != SORC_NONE && !st->combo[s].negated[k]) {
                    count[c % SORC_NCARDS]++;
                }
            }
        }
    }
    for (int c = 0; c < SORC_NCARDS; c++) {
        if (count[c] != 1) {
            FAIL("card %s is in %d zones", sorc_cards[c].id, count[c]);
        }
    }
    /* R-sorcerers-2.5: the Grimhold is in play, attached or unattached. */
    if (!st->grim_loose && sorc__grim_carrier(st) < 0) {
        FAIL("the Grimhold left play");
    }
    if (st->grim_loose && st->phase != SORC_P_GRIMHOLD_PLACE &&
        sorc__count_side(st, SORC_MER) + sorc__count_side(st, SORC_MOR) > 0) {
        int ok = 0;
        for (int s = 0; s < 2; s++) {
            ok |= sorc__count_side(st, s) == 0;
        }
        if (!ok) {
            FAIL("the Grimhold is unattached while both sides have sorcerers");
        }
    }
    /* R-sorcerers-2.2: each side controls only its own faction (by type). */
    if (st->marker_dave && sorc__find_inplay(st, SORC_DAVE) < 0) {
        FAIL("Dave's marker runs while he is out of play");
    }
    if (st->marker_morgana && sorc__find_inplay(st, SORC_MORGANA) < 0) {
        FAIL("Morgana's marker runs while she is out of play");
    }
    if (st->over) {
        if (st->act[0] || st->act[1]) {
            FAIL("a seat is active after the end");
        }
    } else if (!st->act[0] && !st->act[1]) {
        FAIL("nobody is active in a running game");
    }
    return 0;
}
