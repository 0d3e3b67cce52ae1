/* SPDX-License-Identifier: MIT */
/*
 * arcana_invariants.c - the invariants of R-arcana-11.7, checked by the
 * property tests after every action: every card in exactly one place, one
 * mage and one magic item per seat once set up, the monument display full
 * as far as the deck allows, one face per Place of Power, one First Player,
 * every count between 0 and the cap, and every known deck top ([I-24])
 * naming the cards that really lie on top of that deck.
 */
#include "arcana.h"

static int fail(struct game_error *err, const char *what)
{
    return game_error_set(err, GAME_E_ILLEGAL, "invariant: %s", what), -1;
}

/* [I-24]: `known` (top first) is the top of zone `loc` of `owner`. */
static bool known_ok(const struct arc_core *c, const int8_t *known, int n, int loc, int owner)
{
    int8_t v[ARC_NCARDS];
    int nv = arc__zone(c, loc, owner, v);
    if (n > 3 || n > nv) {
        return false;
    }
    for (int j = 0; j < n; j++) {
        if (known[j] != v[nv - 1 - j]) {
            return false;
        }
    }
    return true;
}

int arc__check_invariants(const void *state, struct game_error *err)
{
    const struct arc_core *c = &((const struct arc_state *)state)->c;
    int n = c->nseats;
    if (n < 2 || n > ARC_MAX_SEATS || c->first < 0 || c->first >= n) {
        return fail(err, "seat count or First Player out of range");
    }
    int placing = 0;
    for (int i = 0; i < ARC_NCARDS; i++) {
        const struct arc_cardst *k = &c->card[i];
        if (k->loc > ARC_L_UNUSED || k->owner < -1 || k->owner >= n) {
            return fail(err, "a card is nowhere");
        }
        for (int e = 0; e < ARC_NESS; e++) {
            if (k->ess[e] < 0 || k->ess[e] > ARC_CAP) {
                return fail(err, "a count on a card is out of range");
            }
        }
        if (k->loc != ARC_L_PLAY &&
            (k->turned || k->ess[0] || k->ess[1] || k->ess[2] || k->ess[3] || k->ess[4])) {
            return fail(err, "a card out of play is turned or holds essences");
        }
        placing += k->loc == ARC_L_PLACING;
        if (k->loc == ARC_L_PLACING && c->res.placing != i) {
            return fail(err, "a card is being placed by no decision");
        }
    }
    if (placing > 1) {
        return fail(err, "two cards are being placed");
    }
    for (int s = 0; s < n; s++) {
        const struct arc_seat *p = &c->seat[s];
        for (int e = 0; e < ARC_NESS; e++) {
            if (p->pool[e] < 0 || p->pool[e] > ARC_CAP) {
                return fail(err, "a pool count is out of range");
            }
        }
        if (!known_ok(c, p->known_own, p->known_own_n, ARC_L_DECK, s) ||
            !known_ok(c, p->known_mon, p->known_mon_n, ARC_L_MDECK, -1)) {
            return fail(err, "a known deck top is not the top of that deck");
        }
    }
    bool set_up =
        c->phase == ARC_PH_COLLECT || c->phase == ARC_PH_ACTIONS || c->phase == ARC_PH_VICTORY;
    for (int s = 0; s < n && set_up; s++) {
        int mages = 0;
        int items = 0;
        for (int i = ARC_FIRST_MAGE; i < ARC_FIRST_MON; i++) {
            if (c->card[i].loc == ARC_L_PLAY && c->card[i].owner == s) {
                mages += arc_cards[i].kind == ARC_K_MAGE;
                items += arc_cards[i].kind == ARC_K_ITEM;
            }
        }
        bool swapping = c->res.kind == ARC_R_PASS && c->res.actor == s && c->dec == ARC_D_ITEM;
        if (mages != 1 || items != (swapping ? 0 : 1)) {
            return fail(err, "a seat lacks its one mage or one magic item");
        }
    }
    int display = 0;
    int mdeck = 0;
    for (int i = ARC_FIRST_MON; i < ARC_FIRST_POP; i++) {
        display += c->card[i].loc == ARC_L_DISPLAY;
        mdeck += c->card[i].loc == ARC_L_MDECK || c->card[i].loc == ARC_L_LOOK;
        if (c->card[i].loc != ARC_L_DISPLAY && c->card[i].loc != ARC_L_MDECK &&
            c->card[i].loc != ARC_L_PLAY && c->card[i].loc != ARC_L_LOOK) {
            return fail(err, "a monument is nowhere");
        }
    }
    int want = display + mdeck < 2 ? display + mdeck : 2;
    if (display != want && !(c->res.kind == ARC_R_CLAIM && c->res.from_display)) {
        return fail(err, "the monument display is not full");
    }
    for (int b = 1; b <= 5; b++) {
        int shown = 0;
        for (int i = ARC_FIRST_POP; i < ARC_NCARDS; i++) {
            if (arc_cards[i].pop_board == b) {
                shown += c->card[i].loc == ARC_L_BOARD || c->card[i].loc == ARC_L_PLAY;
            }
        }
        if (shown != 1) {
            return fail(err, "a Place of Power board shows no face or two");
        }
    }
    if (c->forfeit < -1 || c->forfeit >= n || (c->forfeit >= 0 && !c->over) ||
        (c->forfeit >= 0 && (c->winners & (1u << c->forfeit)))) {
        return fail(err, "a forfeit in a running game, or a forfeiting seat among the winners");
    }
    if (!c->over && c->dec == ARC_D_TOP && c->seat[c->cur].passed) {
        return fail(err, "the current player has passed");
    }
    if (!c->over && arc__active(c) == 0) {
        return fail(err, "nobody may act in a running game");
    }
    return 0;
}
