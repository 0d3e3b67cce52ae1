/* SPDX-License-Identifier: MIT */
/*
 * stones_undo.c - whether a Sorcerer & Stones action may be taken back
 * (game.h `undoable`, R-stones-6.4): it may when it drew nothing from the
 * generator and uncovered nothing of the game's hidden data, which is the
 * order and content of each colour's magic deck, the artifact deck below
 * its face-up top, the removed runes and the unused objectives. It compares
 * two states field by field and changes neither; what the action did to
 * the public table (tiles, stones, Spirits, Qi, runes taken, the face-up
 * cards) does not matter here.
 */
#include <string.h>

#include "stones.h"

#define SAME(f) (memcmp(&a->f, &b->f, sizeof(a->f)) == 0)

/* R-stones-6.4: the hidden data of `a` and `b` are equal, content and order. */
static bool same_hidden(const struct stones_state *a, const struct stones_state *b)
{
    /* The generator: a reshuffle of a discard pile draws from it. */
    if (!SAME(rng)) {
        return false;
    }
    /* Magic decks: the row refill after step 1 draws the top cards. */
    for (int p = 0; p < STONES_MAX_PLAYERS; p++) {
        if (!SAME(pl[p].deck) || !SAME(pl[p].deck_n)) {
            return false;
        }
    }
    /* The artifact deck: a craft or a completed co-op card moves its top
     * away and turns up the next one. */
    if (!SAME(art_deck) || !SAME(art_top)) {
        return false;
    }
    /* Fixed at setup; compared so that a change could never slip by. */
    return SAME(rune_removed) && SAME(objectives) && SAME(variant) && SAME(np);
}

#undef SAME

/*
 * game_ops.undoable: true when the action of `seat` that took `before` to
 * `after` (both struct stones_state, borrowed) drew and uncovered nothing
 * hidden (R-stones-6.4). False besides when the action ended the game,
 * since the end publishes the seed and with it every hidden order, and
 * when `seat` was not the seat to move in `before`. Reads both states only.
 */
bool stones__undoable(const void *before, const void *after, int seat)
{
    const struct stones_state *a = before;
    const struct stones_state *b = after;
    if (a->phase == STONES_PH_OVER || b->phase == STONES_PH_OVER) {
        return false;
    }
    if (seat < 0 || seat != stones__current_seat(a)) {
        return false;
    }
    return same_hidden(a, b);
}
