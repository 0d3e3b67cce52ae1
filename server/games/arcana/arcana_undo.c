/* SPDX-License-Identifier: MIT */
/*
 * arcana_undo.c - whether an action of Res Arcana may be taken back
 * (game.h `undoable`, R-arcana-16): it compares the position before and
 * after the action and answers yes only when nothing hidden moved or was
 * drawn. It reads the two states and changes nothing.
 */
#include <string.h>

#include "arcana.h"

/* Zones nobody sees into: the order of every deck, the monument deck, the
 * cards out of the game and the other faces of the Places of Power. */
static bool zone_secret(int loc)
{
    return loc == ARC_L_DECK || loc == ARC_L_MDECK || loc == ARC_L_OUT || loc == ARC_L_UNUSED;
}

/* Zones only their owner sees: the hand, a draft pack, kept cards, the two
 * mages dealt and the cards of an open look. */
static bool zone_private(int loc)
{
    return loc == ARC_L_HAND || loc == ARC_L_PACK || loc == ARC_L_KEPT || loc == ARC_L_MAGEOPT ||
           loc == ARC_L_LOOK;
}

/* 1 when a card, `b` before and `a` after, is in a zone `seat` may not
 * see into at either time. */
static bool card_hidden_from(const struct arc_cardst *b, const struct arc_cardst *a, int seat)
{
    return zone_secret(b->loc) || zone_secret(a->loc) ||
           (zone_private(b->loc) && b->owner != seat) || (zone_private(a->loc) && a->owner != seat);
}

/* 1 when what `p` knows of hidden zones, and the public record of its
 * last look, are the same in `q`. */
static bool knowledge_same(const struct arc_seat *p, const struct arc_seat *q)
{
    return p->known_own_n == q->known_own_n && p->known_mon_n == q->known_mon_n &&
           memcmp(p->known_own, q->known_own, sizeof(p->known_own)) == 0 &&
           memcmp(p->known_mon, q->known_mon, sizeof(p->known_mon)) == 0 &&
           p->looked_deck == q->looked_deck && p->looked_n == q->looked_n;
}

/*
 * Whether the action of `seat` that took `before` to `after` (both
 * borrowed arc_state blocks, after = before plus one accepted action of
 * `seat`) drew and revealed nothing hidden (R-arcana-16). No: when the
 * generator moved (a shuffle, a deal, a drawn First Player or face), when
 * a card in a zone hidden from `seat` moved or came into one (a draw, a
 * look, a monument claimed or the display refilled from the deck, the
 * packs passed or the mages revealed after the last secret choice), when
 * another seat's secret choice changed, when any seat's knowledge of a
 * deck top changed, or when a game ended (its result comes with the seed;
 * a duel's next game gathers and deals anew). Cards leaving the actor's
 * own hand face up, essences, turned cards, tokens and choices among
 * public options are all public, as is a secret choice of the actor's own
 * that nobody has seen yet.
 */
bool arc__undoable(const void *before, const void *after, int seat)
{
    const struct arc_core *b = &((const struct arc_state *)before)->c;
    const struct arc_core *a = &((const struct arc_state *)after)->c;
    if (seat < 0 || seat >= b->nseats || b->nseats != a->nseats || b->over || a->over) {
        return false;
    }
    if (memcmp(&b->rng, &a->rng, sizeof(b->rng)) != 0 || b->match.game != a->match.game ||
        b->match.ngames != a->match.ngames) {
        return false;
    }
    /* Most actions (a payment, a gain) move no card at all. */
    bool cards = memcmp(b->card, a->card, sizeof(b->card)) != 0;
    for (int i = 0; cards && i < ARC_NCARDS; i++) {
        const struct arc_cardst *kb = &b->card[i];
        const struct arc_cardst *ka = &a->card[i];
        if (card_hidden_from(kb, ka, seat) && memcmp(kb, ka, sizeof(*kb)) != 0) {
            return false;
        }
    }
    for (int s = 0; s < b->nseats; s++) {
        const struct arc_seat *p = &b->seat[s];
        const struct arc_seat *q = &a->seat[s];
        if (!knowledge_same(p, q)) {
            return false;
        }
        if (s != seat && (p->mage_pick != q->mage_pick || p->draft_pick != q->draft_pick)) {
            return false;
        }
    }
    return true;
}
