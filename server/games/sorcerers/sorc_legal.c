/* SPDX-License-Identifier: MIT */
/*
 * sorc_legal.c - the list of every action a seat may send now, in canonical
 * form and in the order the rules fix (hand order, entry order, attachment
 * order, list_index order). Every listed action is accepted unchanged by
 * sorc__rules_apply; the list is built by trying candidates on a scratch copy
 * of the state, so the two can never disagree. It must never modify the
 * state it is given and never touch JSON.
 */
#include "sorc.h"

#include <string.h>

#include "game.h"

/* Appends `a` when apply accepts it on a scratch copy. */
static void try_add(const struct sorc_state *st, int seat, const struct sorc_action *a,
                    struct sorc_legal *out, struct sorc_state *scratch)
{
    struct game_error err;

    if (out->n >= SORC_MAX_LEGAL) {
        return;
    }
    memcpy(scratch, st, sizeof(*st));
    if (sorc__rules_apply(scratch, seat, a, &err) == GAME_OK) {
        out->a[out->n++] = *a;
    }
}

static struct sorc_action act0(int type)
{
    struct sorc_action a;

    memset(&a, 0, sizeof(a));
    a.type = (uint8_t)type;
    a.card = a.to = a.target = a.object = a.sorcerer = a.betray = SORC_NONE;
    a.ch_card[0] = a.ch_card[1] = a.ch_target[0] = a.ch_target[1] = SORC_NONE;
    return a;
}

/* Sorcerers of `side` in entry order into `out`; returns the count. */
static int own_sorcerers(const struct sorc_state *st, int side, uint8_t *out)
{
    int n = 0;

    for (int i = 0; i < st->ninplay; i++) {
        if (sorc__controller(st->inplay[i].card) == side) {
            out[n++] = st->inplay[i].card;
        }
    }
    return n;
}

/* Objects in play carried by `side`'s sorcerers (side -1: all), entry and
 * attachment order. */
static int objects_of(const struct sorc_state *st, int side, uint8_t *out)
{
    int n = 0;

    for (int i = 0; i < st->ninplay; i++) {
        if (side < 0 || sorc__controller(st->inplay[i].card) == side) {
            for (int j = 0; j < st->inplay[i].nobj; j++) {
                out[n++] = st->inplay[i].obj[j];
            }
        }
    }
    return n;
}

/* Fills `out` with every action `seat` may send now; see sorc.h. */
void sorc__legal_list(const struct sorc_state *st, int seat, struct sorc_legal *out)
{
    struct sorc_state *scratch;
    struct sorc_state buf;
    struct sorc_action a;
    int side;
    uint8_t own[SORC_MAX_INPLAY];
    uint8_t objs[SORC_NCARDS];
    int nown;
    int nobj;

    out->n = 0;
    if (st->over || seat < 0 || seat > 1) {
        return;
    }
    side = sorc__side(st, seat);
    if (!st->act[side]) {
        return;
    }
    scratch = &buf;
    nown = own_sorcerers(st, side, own);
    switch (st->phase) {
    case SORC_P_LORE_FAUST:
        for (int i = 0; i < st->nhand[side]; i++) {
            a = act0(SORC_A_DEAL);
            a.card = st->hand[side][i];
            try_add(st, seat, &a, out, scratch);
        }
        a = act0(SORC_A_DONE);
        try_add(st, seat, &a, out, scratch);
        break;
    case SORC_P_RECRUIT:
        for (int i = 0; i < st->nhand[side]; i++) {
            a = act0(SORC_A_RECRUIT);
            a.card = st->hand[side][i];
            if (sorc__is_sorcerer(a.card)) {
                try_add(st, seat, &a, out, scratch);
            }
        }
        for (int i = 0; i < st->nhand[side]; i++) {
            if (sorc_cards[st->hand[side][i]].type != SORC_T_OBJECT) {
                continue;
            }
            for (int j = 0; j < nown; j++) {
                a = act0(SORC_A_EQUIP);
                a.card = st->hand[side][i];
                a.to = own[j];
                try_add(st, seat, &a, out, scratch);
            }
        }
        nobj = objects_of(st, side, objs);
        for (int i = 0; i < nobj; i++) {
            for (int j = 0; j < nown; j++) {
                a = act0(SORC_A_MOVE_OBJECT);
                a.object = objs[i];
                a.to = own[j];
                try_add(st, seat, &a, out, scratch);
            }
        }
        for (int i = 0; i < nobj; i++) {
            a = act0(SORC_A_DISCARD_OBJECT);
            a.object = objs[i];
            try_add(st, seat, &a, out, scratch);
        }
        a = act0(SORC_A_DONE);
        try_add(st, seat, &a, out, scratch);
        break;
    case SORC_P_EVENT:
        for (int i = 0; i < st->nhand[side]; i++) {
            uint8_t c = st->hand[side][i];
            const struct sorc_card *cd = &sorc_cards[c];
            if (!(cd->kw & SORC_K_EA)) {
                continue;
            }
            a = act0(SORC_A_ACTIVATE);
            a.card = c;
            if (cd->ea == SORC_EA_FIND) {
                for (int j = 0; j < st->ndiscard; j++) {
                    a.target = st->discard[j];
                    try_add(st, seat, &a, out, scratch);
                }
            } else if (cd->ea == SORC_EA_UP_IN_SMOKE) {
                nobj = objects_of(st, -1, objs);
                for (int j = 0; j < nobj; j++) {
                    a.target = objs[j];
                    try_add(st, seat, &a, out, scratch);
                }
            } else if (cd->ea == SORC_EA_STEAL_OBJECT) {
                nobj = objects_of(st, side ^ 1, objs);
                for (int j = 0; j < nobj; j++) {
                    for (int k = 0; k < nown; k++) {
                        a.target = objs[j];
                        a.to = own[k];
                        try_add(st, seat, &a, out, scratch);
                    }
                }
            } else {
                try_add(st, seat, &a, out, scratch);
            }
        }
        a = act0(SORC_A_PASS);
        try_add(st, seat, &a, out, scratch);
        break;
    case SORC_P_EVENT_TRACK:
        a = act0(SORC_A_TRACK);
        try_add(st, seat, &a, out, scratch);
        /* I-19: the deck is listed in list_index order, never deck order. */
        for (int c = 0; c < SORC_NCARDS; c++) {
            for (int i = 0; i < st->ndeck; i++) {
                if (st->deck[i] == c) {
                    a.card = (uint8_t)c;
                    try_add(st, seat, &a, out, scratch);
                }
            }
        }
        break;
    case SORC_P_EVENT_DISCARD:
    case SORC_P_END_DISCARD:
    case SORC_P_DUEL_CLEAR_MIND:
        for (int i = 0; i < st->nhand[side]; i++) {
            a = act0(st->phase == SORC_P_DUEL_CLEAR_MIND ? SORC_A_CLEAR_MIND : SORC_A_DISCARD);
            a.card = st->hand[side][i];
            try_add(st, seat, &a, out, scratch);
        }
        if (st->phase == SORC_P_DUEL_CLEAR_MIND) {
            a = act0(SORC_A_DONE);
            try_add(st, seat, &a, out, scratch);
        }
        break;
    case SORC_P_ENCOUNTER:
        a = act0(SORC_A_ENCOUNTER);
        try_add(st, seat, &a, out, scratch);
        for (int j = 0; j < nown; j++) {
            a.choice = SORC_ENC_FTF;
            a.sorcerer = own[j];
            try_add(st, seat, &a, out, scratch);
        }
        for (int j = 0; j < nown; j++) {
            a.choice = SORC_ENC_MARTYR;
            a.sorcerer = own[j];
            try_add(st, seat, &a, out, scratch);
        }
        break;
    case SORC_P_DUEL_COMBO: {
        const struct sorc_combo *k = &st->combo[side];
        if (k->steps < 5) {
            a = act0(k->steps == 0   ? SORC_A_COMBO_SPELL
                     : k->steps == 1 ? SORC_A_COMBO_EVENT
                                     : SORC_A_COMBO_AMP);
            try_add(st, seat, &a, out, scratch);
            for (int i = 0; i < st->nhand[side]; i++) {
                a.card = st->hand[side][i];
                try_add(st, seat, &a, out, scratch);
            }
        } else {
            for (int sac = 0; sac < 2; sac++) {
                a = act0(SORC_A_COMBO_DECLARE);
                a.sacrifice = (uint8_t)sac;
                try_add(st, seat, &a, out, scratch);
                for (int j = 0; j < nown; j++) {
                    a.betray = own[j];
                    try_add(st, seat, &a, out, scratch);
                }
            }
        }
        break;
    }
    case SORC_P_DUEL_NEGATE: {
        const struct sorc_combo *k = &st->combo[side];
        const struct sorc_combo *o = &st->combo[side ^ 1];
        int slots[2];
        int n = 0;
        uint8_t cand[5];
        int ncand = 0;
        if (sorc__negator_has_target(st, side, SORC_SLOT_SPELL)) {
            slots[n++] = SORC_SLOT_SPELL;
        }
        if (sorc__negator_has_target(st, side, SORC_SLOT_EVENT)) {
            slots[n++] = SORC_SLOT_EVENT;
        }
        for (int s = SORC_SLOT_SPELL; s <= SORC_SLOT_AMP2; s++) {
            if (o->slot[s] != SORC_NONE) {
                cand[ncand++] = o->slot[s];
            }
        }
        a = act0(SORC_A_NEGATE);
        a.nchoices = (uint8_t)n;
        for (int i = 0; i < n; i++) {
            a.ch_card[i] = k->slot[slots[i]];
        }
        /* Every combination of (null or a target) per negator, null first. */
        for (int x = -1; x < ncand; x++) {
            a.ch_target[0] = x < 0 ? SORC_NONE : cand[x];
            if (x >= 0 && !sorc__negate_target_ok(st, side, slots[0], cand[x])) {
                continue;
            }
            if (n == 1) {
                try_add(st, seat, &a, out, scratch);
                continue;
            }
            for (int y = -1; y < ncand; y++) {
                a.ch_target[1] = y < 0 ? SORC_NONE : cand[y];
                if (y >= 0 && !sorc__negate_target_ok(st, side, slots[1], cand[y])) {
                    continue;
                }
                try_add(st, seat, &a, out, scratch);
            }
        }
        break;
    }
    case SORC_P_DUEL_DEFENSE:
        a = act0(SORC_A_PASS);
        try_add(st, seat, &a, out, scratch);
        for (int i = 0; i < st->nhand[side]; i++) {
            a = act0(SORC_A_DEFENSE);
            a.card = st->hand[side][i];
            a.target = st->combo[side ^ 1].slot[SORC_SLOT_SPELL];
            if (sorc__is_defense_negator(a.card) && a.target != SORC_NONE) {
                try_add(st, seat, &a, out, scratch);
            }
        }
        break;
    case SORC_P_DUEL_PROTECT:
        a = act0(SORC_A_PASS);
        try_add(st, seat, &a, out, scratch);
        for (int i = 0; i < st->nhand[side]; i++) {
            a = act0(SORC_A_PROTECT);
            a.card = st->hand[side][i];
            try_add(st, seat, &a, out, scratch);
        }
        break;
    case SORC_P_DUEL_STEAL:
        for (int i = 0; i < st->nhand[side ^ 1]; i++) {
            a = act0(SORC_A_STEAL);
            a.card = st->hand[side ^ 1][i];
            try_add(st, seat, &a, out, scratch);
        }
        break;
    case SORC_P_OBJECT_OVERFLOW:
        nobj = objects_of(st, side, objs);
        for (int i = 0; i < nobj; i++) {
            a = act0(SORC_A_DISCARD_OBJECT);
            a.object = objs[i];
            try_add(st, seat, &a, out, scratch);
        }
        break;
    case SORC_P_GRIMHOLD_PLACE:
        for (int j = 0; j < nown; j++) {
            a = act0(SORC_A_PLACE_GRIMHOLD);
            a.to = own[j];
            try_add(st, seat, &a, out, scratch);
        }
        break;
    default:
        break;
    }
}
