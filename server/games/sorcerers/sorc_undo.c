/* SPDX-License-Identifier: MIT */
/*
 * sorc_undo.c - whether a Sorcerers action may be taken back (game.h
 * `undoable`, R-sorcerers-7.2): it may when it drew nothing from the
 * generator and brought nothing hidden into anyone's sight: the deck
 * (content and order), the other seat's hand, what a seat learns of them
 * (Scry, Divination, the Track list, the loser's hand while stealing) and
 * the sealed answers of encounter, combo, negation and defense until they
 * are revealed. A card the actor shows from its own hand (a recruit, an
 * equip, an activation, a discard) reveals nothing it did not choose to
 * show. It compares two states and changes neither.
 */
#include <string.h>

#include "sorc.h"

#define SAME(f) (memcmp(&a->f, &b->f, sizeof(a->f)) == 0)

/* The decisions whose answers are sealed until the last is in (4.2). */
static bool is_sealed(int phase)
{
    return phase == SORC_P_ENCOUNTER || phase == SORC_P_DUEL_COMBO || phase == SORC_P_DUEL_NEGATE ||
           phase == SORC_P_DUEL_DEFENSE;
}

/* R-sorcerers-7.2: the deck, the generator, the hand of `opp` and what
 * either seat was shown of hidden zones are the same in `a` and `b`. */
static bool same_hidden(const struct sorc_state *a, const struct sorc_state *b, int opp)
{
    /* Draws, reshuffles, Prime Mover returns, Track, Encounter picks,
     * Innocent and Drain all draw from the generator or the deck. */
    if (!SAME(rng) || !SAME(deck) || !SAME(ndeck)) {
        return false;
    }
    /* A steal, a Drain, a random discard: the other hand, in order. */
    if (!SAME(nhand[opp]) || !SAME(hand[opp]) || !SAME(nxfer) || !SAME(xfer_card) ||
        !SAME(xfer_from)) {
        return false;
    }
    /* Scry shows the other hand, Divination the deck top; a card taken by
     * Track is noted. */
    if (!SAME(scry_n) || !SAME(scry) || !SAME(div_n) || !SAME(div) || !SAME(tracked)) {
        return false;
    }
    /* Entering event_track shows the deck's cards to the tracker, and
     * duel_steal the loser's hand to the winner. */
    return b->phase != SORC_P_EVENT_TRACK && b->phase != SORC_P_DUEL_STEAL;
}

/* R-sorcerers-7.2: a sealed answer stays sealed: the decision is still
 * open (nothing ran on from it), so nobody has seen the other seat's
 * answer nor the actor's. */
static bool still_sealed(const struct sorc_state *a, const struct sorc_state *b, int opp)
{
    return SAME(phase) && SAME(stage) && SAME(turn) && SAME(revealed) && SAME(combo[opp]);
}

#undef SAME

/*
 * game_ops.undoable: true when the action of `seat` that took `before` to
 * `after` (both struct sorc_state, borrowed) drew and revealed nothing
 * hidden (R-sorcerers-7.2). A sealed answer is undoable while the sealed
 * decision is open and not once it was revealed. False as well when the
 * action ended the game (the end publishes the seed, and with it the deck)
 * and when `seat` had no decision in `before`. Reads both states only.
 */
bool sorc__undoable(const void *before, const void *after, int seat)
{
    const struct sorc_state *a = before;
    const struct sorc_state *b = after;
    struct game_error err;
    if (a->over || b->over || sorc__may_act(a, seat, &err) != GAME_OK) {
        return false;
    }
    int opp = sorc__side(a, seat) ^ 1;
    if (!same_hidden(a, b, opp)) {
        return false;
    }
    return !is_sealed(a->phase) || still_sealed(a, b, opp);
}
