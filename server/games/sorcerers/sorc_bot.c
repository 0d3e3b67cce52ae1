/* SPDX-License-Identifier: MIT */
/*
 * sorc_bot.c - what a Sorcerers bot searches with (game.h, struct game_bot):
 * the determinizer, which redraws for one seat everything its view does not
 * show (the deck order, the other hand, the other side's sealed answers, the
 * generator) from the cards that seat cannot see; a light playout policy over
 * the legal list; and the worth of a position to both seats. Pure like the
 * rest of the core: it draws only from the generator it is handed, never
 * does I/O, and changes no state but the one it is handed. Of the legal
 * list (JSON) the policy reads only what it weighs: types, cards, the
 * declaration's fields and negation targets.
 * docs/rules/sorcerers.md section 12 describes the choices made here.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "sorc.h"

/* ---- Determinization ---- */

/* Draws an index below n (n > 0) from `rng`. */
static int below(struct game_rng *rng, int n)
{
    return n > 1 ? (int)game_rng_below(rng, (uint32_t)n) : 0;
}

/* Appends `c` to out[] when it is in the pool and not yet dealt, marking it
 * dealt; returns 1 when it did. */
static int take(uint8_t c, const bool pool[SORC_NCARDS], bool dealt[SORC_NCARDS], uint8_t *out,
                int *n)
{
    if (c >= SORC_NCARDS || !pool[c] || dealt[c]) {
        return 0;
    }
    dealt[c] = true;
    out[(*n)++] = c;
    return 1;
}

/* Redeals the cards `side` cannot see: the deck and, unless the view shows
 * it (stealing), the other side's hand. The pool of those cards is taken in
 * card-list order, never in the order the state holds them. The other hand
 * gets first the cards the side knows went there (hand-to-hand moves from
 * its own hand, newest first, then what its Scry showed); the deck gets on
 * top, in order, what its Divination showed; the rest is shuffled and dealt.
 * While the side tracks, the view lists the deck's cards, so the deck keeps
 * its set and only its order is redrawn. */
static void redeal(struct sorc_state *st, int side, struct game_rng *rng)
{
    int opp = side ^ 1;
    bool hand_seen = st->phase == SORC_P_DUEL_STEAL && st->cur_side == side;
    bool deck_seen = st->phase == SORC_P_EVENT_TRACK && st->cur_side == side;
    bool pool[SORC_NCARDS] = {false};
    bool in_deck[SORC_NCARDS] = {false};
    bool dealt[SORC_NCARDS] = {false};
    uint8_t hand[SORC_NCARDS];
    uint8_t top[SORC_NCARDS];
    uint8_t rest[SORC_NCARDS];
    int nd = st->ndeck;
    int nh = hand_seen ? 0 : st->nhand[opp];
    int hn = 0;
    int tn = 0;
    int rn = 0;

    for (int i = 0; i < nd; i++) {
        pool[st->deck[i]] = true;
        in_deck[st->deck[i]] = true;
    }
    for (int i = 0; i < nh; i++) {
        pool[st->hand[opp][i]] = true;
    }
    if (deck_seen) {
        /* The other hand is exactly what the listed deck leaves. */
        for (int c = 0; c < SORC_NCARDS; c++) {
            if (pool[c] && !in_deck[c]) {
                take((uint8_t)c, pool, dealt, hand, &hn);
            }
        }
    } else if (nh > 0) {
        for (int i = st->nxfer - 1; i >= 0 && hn < nh; i--) {
            if (st->xfer_from[i] == side) {
                take(st->xfer_card[i], pool, dealt, hand, &hn);
            }
        }
        for (int i = 0; i < st->scry_n[side] && hn < nh; i++) {
            take(st->scry[side][i], pool, dealt, hand, &hn);
        }
    }
    for (int i = 0; i < st->div_n[side] && i < SORC_DIVINATION && tn < nd; i++) {
        uint8_t c = st->div[side][i];
        if (!deck_seen || (c < SORC_NCARDS && in_deck[c])) {
            take(c, pool, dealt, top, &tn);
        }
    }
    for (int c = 0; c < SORC_NCARDS; c++) {
        take((uint8_t)c, pool, dealt, rest, &rn);
    }
    if (rn > 1) {
        game_rng_shuffle(rng, rest, (uint32_t)rn, 1);
    }
    /* rn == (nd - tn) + (nh - hn): the other hand's open places first. */
    int r = 0;
    while (hn < nh && r < rn) {
        hand[hn++] = rest[r++];
    }
    if (hn > 1 && !hand_seen) {
        game_rng_shuffle(rng, hand, (uint32_t)hn, 1);
    }
    memset(st->deck, 0, sizeof(st->deck));
    for (int i = 0; i < tn; i++) {
        st->deck[nd - 1 - i] = top[i];
    }
    for (int i = 0; r < rn; i++) {
        st->deck[nd - 1 - tn - i] = rest[r++];
    }
    if (!hand_seen) {
        memset(st->hand[opp], 0, sizeof(st->hand[opp]));
        memcpy(st->hand[opp], hand, (size_t)hn);
    }
}

/* The other side's private notes that name hidden cards, redrawn from the
 * redealt zones: the card it took by Track this turn (whether it took one is
 * announced; which one is not) becomes a random card of its hand, or the top
 * of the deck when its hand is empty, and its Divination the top of the
 * deck. */
static void redraw_notes(struct sorc_state *st, int side, struct game_rng *rng)
{
    int opp = side ^ 1;

    if (st->tracked[opp] < SORC_NCARDS) {
        if (st->nhand[opp] > 0) {
            st->tracked[opp] = st->hand[opp][below(rng, st->nhand[opp])];
        } else if (st->ndeck > 0) {
            st->tracked[opp] = st->deck[st->ndeck - 1];
        }
    }
    int n = st->div_n[opp] < st->ndeck ? st->div_n[opp] : st->ndeck;
    memset(st->div[opp], 0, sizeof(st->div[opp]));
    for (int i = 0; i < n && i < SORC_DIVINATION; i++) {
        st->div[opp][i] = st->deck[st->ndeck - 1 - i];
    }
    st->div_n[opp] = (uint8_t)n;
}

static size_t choose(const struct sorc_state *st, int side, const struct sorc_action *acts,
                     size_t n, struct game_rng *rng);

/* A fresh sealed answer for `side` (asked and submitted) in the current
 * sealed state, made with the playout policy on a copy of the state where it
 * had not answered; only the answer is kept. Falls back to the answer that
 * is always legal (keep, an empty combo, no negation, pass) when out of
 * memory. */
static void redraw_answer(struct sorc_state *st, int side, struct game_rng *rng)
{
    struct sorc_state *tmp = malloc(sizeof(*tmp));
    struct sorc_legal *l = malloc(sizeof(*l));
    int seat = sorc__seat(st, side);
    struct game_error err;

    if (tmp && l) {
        *tmp = *st;
        /* Both seats active: the answer completes no sealed step. */
        tmp->act[0] = tmp->act[1] = 1;
        tmp->combo[side].submitted = 0;
        for (int step = 0; step < 8 && !tmp->combo[side].submitted; step++) {
            sorc__legal_list(tmp, seat, l);
            if (l->n == 0) {
                break;
            }
            size_t i = choose(tmp, side, l->a, (size_t)l->n, rng);
            if (sorc__rules_apply(tmp, seat, &l->a[i], &err) != GAME_OK) {
                break;
            }
        }
        if (tmp->combo[side].submitted) {
            st->combo[side] = tmp->combo[side];
        }
    }
    if (st->phase == SORC_P_DUEL_COMBO && st->combo[side].steps != 6) {
        st->combo[side].steps = 6;
    }
    free(tmp);
    free(l);
}

/* The other side's sealed data in a sealed state: cleared to what it was
 * when the state opened, then, if it has answered, answered afresh. */
bool sorc__sealed_clear(struct sorc_combo *cb, int phase)
{
    switch (phase) {
    case SORC_P_ENCOUNTER:
        cb->enc_choice = SORC_ENC_KEEP;
        cb->enc_sorc = SORC_NONE;
        return true;
    case SORC_P_DUEL_COMBO:
        memset(cb->slot, SORC_NONE, sizeof(cb->slot));
        cb->steps = 0;
        cb->namp = 0;
        cb->sacrifice = 0;
        cb->betray = SORC_NONE;
        return true;
    case SORC_P_DUEL_NEGATE:
        cb->neg_target[0] = SORC_NONE;
        cb->neg_target[1] = SORC_NONE;
        return true;
    case SORC_P_DUEL_DEFENSE:
        cb->def_card = SORC_NONE;
        return true;
    default:
        return false;
    }
}

static void redraw_sealed(struct sorc_state *st, int side, struct game_rng *rng)
{
    int opp = side ^ 1;
    struct sorc_combo *k = &st->combo[opp];

    if (!sorc__sealed_clear(k, st->phase)) {
        return;
    }
    if (k->asked && k->submitted) {
        redraw_answer(st, opp, rng);
    }
}

/* game_bot.determinize: see game.h. */
static void sorc_determinize(void *state, int seat, struct game_rng *rng)
{
    struct sorc_state *st = state;
    int side = sorc__side(st, seat);

    redeal(st, side, rng);
    redraw_notes(st, side, rng);
    redraw_sealed(st, side, rng);
    do {
        for (int i = 0; i < 4; i++) {
            st->rng.s[i] = game_rng_next(rng);
        }
    } while ((st->rng.s[0] | st->rng.s[1] | st->rng.s[2] | st->rng.s[3]) == 0);
}

/* ---- Playout policy ---- */

/* A card's power in the slot of a combo step (`type`), as spec 5.5.1 counts
 * it: converted cards keep only their printed power. */
static int step_power(uint8_t c, int type)
{
    const struct sorc_card *cd = &sorc_cards[c];

    if (type == SORC_A_COMBO_AMP && cd->type != SORC_T_AMP && cd->use_as_power >= 0) {
        return cd->use_as_power;
    }
    return cd->power;
}

/* A uniform pick among the actions of `type` (any type when 0) that
 * satisfy `ok` (NULL: all); n when there is none. */
static size_t pick_type(const struct sorc_action *acts, size_t n, int type,
                        bool (*ok)(const struct sorc_action *), struct game_rng *rng)
{
    size_t m = 0;
    size_t found = n;

    for (size_t i = 0; i < n; i++) {
        if ((type == 0 || acts[i].type == type) && (!ok || ok(&acts[i]))) {
            /* Reservoir sampling: the m-th match replaces with chance 1/m. */
            if (below(rng, (int)++m) == 0) {
                found = i;
            }
        }
    }
    return found;
}

static bool has_card(const struct sorc_action *a)
{
    return a->card != SORC_NONE;
}

static bool plain_declare(const struct sorc_action *a)
{
    return !a->sacrifice && a->betray == SORC_NONE;
}

/* The combo step: the strongest card for the slot, one time in four
 * another card; the plain declaration three times in four. */
static size_t choose_combo(const struct sorc_action *acts, size_t n, struct game_rng *rng)
{
    size_t best = n;

    if (acts[0].type == SORC_A_COMBO_DECLARE) {
        best = below(rng, 4) ? pick_type(acts, n, 0, plain_declare, rng) : n;
        return best < n ? best : (size_t)below(rng, (int)n);
    }
    if (below(rng, 4) == 0) {
        best = pick_type(acts, n, 0, has_card, rng);
        if (best < n) {
            return best;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (acts[i].card != SORC_NONE &&
            (best == n ||
             step_power(acts[i].card, acts[i].type) > step_power(acts[best].card, acts[i].type))) {
            best = i;
        }
    }
    return best < n ? best : 0;
}

/* The weakest card to discard (ties: the first). */
static size_t choose_discard(const struct sorc_action *acts, size_t n)
{
    size_t worst = 0;

    for (size_t i = 1; i < n; i++) {
        if (acts[i].card < SORC_NCARDS && acts[worst].card < SORC_NCARDS &&
            sorc_cards[acts[i].card].power < sorc_cards[acts[worst].card].power) {
            worst = i;
        }
    }
    return worst;
}

/* Number of targets a negate action names. */
static int negations(const struct sorc_action *a)
{
    return (a->nchoices > 0 && a->ch_target[0] != SORC_NONE) +
           (a->nchoices > 1 && a->ch_target[1] != SORC_NONE);
}

/* The policy over decoded actions (n > 0): one action in eight is uniform;
 * otherwise recruit and equip before `done`, activate half the time, build
 * the strongest combo, negate, defend and protect whenever possible,
 * discard the weakest card. */
static size_t choose(const struct sorc_state *st, int side, const struct sorc_action *acts,
                     size_t n, struct game_rng *rng)
{
    size_t i = n;

    (void)side;
    if (n == 1) {
        return 0;
    }
    if (below(rng, 8) == 0) {
        return (size_t)below(rng, (int)n);
    }
    switch (st->phase) {
    case SORC_P_LORE_FAUST:
        i = pick_type(acts, n, SORC_A_DONE, NULL, rng);
        break;
    case SORC_P_RECRUIT:
        i = pick_type(acts, n, SORC_A_RECRUIT, NULL, rng);
        if (i == n && below(rng, 5) > 0) {
            i = pick_type(acts, n, SORC_A_EQUIP, NULL, rng);
        }
        if (i == n) {
            i = pick_type(acts, n, SORC_A_DONE, NULL, rng);
        }
        break;
    case SORC_P_EVENT:
        i = pick_type(acts, n, below(rng, 2) ? SORC_A_ACTIVATE : SORC_A_PASS, NULL, rng);
        break;
    case SORC_P_DUEL_COMBO:
        i = choose_combo(acts, n, rng);
        break;
    case SORC_P_DUEL_NEGATE: {
        int most = 0;
        for (size_t j = 0; j < n; j++) {
            most = negations(&acts[j]) > most ? negations(&acts[j]) : most;
        }
        for (size_t j = 0, m = 0; j < n; j++) {
            if (negations(&acts[j]) == most && below(rng, (int)++m) == 0) {
                i = j;
            }
        }
        break;
    }
    case SORC_P_DUEL_DEFENSE:
        i = pick_type(acts, n, SORC_A_DEFENSE, NULL, rng);
        break;
    case SORC_P_DUEL_PROTECT:
        i = pick_type(acts, n, SORC_A_PROTECT, NULL, rng);
        break;
    case SORC_P_DUEL_CLEAR_MIND:
        i = below(rng, 2) ? pick_type(acts, n, SORC_A_DONE, NULL, rng)
                          : choose_discard(acts, n - 1);
        break;
    case SORC_P_EVENT_DISCARD:
    case SORC_P_END_DISCARD:
        i = choose_discard(acts, n);
        break;
    default:
        break;
    }
    return i < n ? i : (size_t)below(rng, (int)n);
}

/* The card named by the string `key` of `o`, or SORC_NONE. */
static uint8_t card_at(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));

    if (!s) {
        return SORC_NONE;
    }
    for (int c = 0; c < SORC_NCARDS; c++) {
        if (s[0] == sorc_cards[c].id[0] && strcmp(s, sorc_cards[c].id) == 0) {
            return (uint8_t)c;
        }
    }
    return SORC_NONE;
}

/* The action type named `s`, or 0. */
static uint8_t type_of(const char *s)
{
    static const struct {
        const char *name;
        uint8_t type;
    } types[] = {
        {"recruit", SORC_A_RECRUIT},
        {"equip", SORC_A_EQUIP},
        {"done", SORC_A_DONE},
        {"activate", SORC_A_ACTIVATE},
        {"pass", SORC_A_PASS},
        {"combo_spell", SORC_A_COMBO_SPELL},
        {"combo_event", SORC_A_COMBO_EVENT},
        {"combo_amp", SORC_A_COMBO_AMP},
        {"combo_declare", SORC_A_COMBO_DECLARE},
        {"defense", SORC_A_DEFENSE},
        {"protect", SORC_A_PROTECT},
        {"clear_mind", SORC_A_CLEAR_MIND},
        {"discard", SORC_A_DISCARD},
        {"negate", SORC_A_NEGATE},
    };

    for (size_t i = 0; s && i < sizeof(types) / sizeof(types[0]); i++) {
        if (strcmp(s, types[i].name) == 0) {
            return types[i].type;
        }
    }
    return 0;
}

/* Legal lists longer than this are picked from uniformly. */
#define POLICY_MAX 256

/* game_bot.playout: decodes what the policy reads of each listed action
 * (type; card where the phase weighs cards; the declaration and negation
 * fields) and asks choose(). */
static size_t sorc_playout(const void *state, int seat, const json_t *legal, struct game_rng *rng)
{
    const struct sorc_state *st = state;
    struct sorc_action acts[POLICY_MAX];
    size_t n = json_array_size(legal);
    bool cards = st->phase == SORC_P_DUEL_COMBO || st->phase == SORC_P_DUEL_CLEAR_MIND ||
                 st->phase == SORC_P_EVENT_DISCARD || st->phase == SORC_P_END_DISCARD;

    if (n <= 1 || n > POLICY_MAX) {
        return n <= 1 ? 0 : (size_t)below(rng, (int)n);
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *o = json_array_get(legal, i);
        struct sorc_action *a = &acts[i];
        memset(a, 0, sizeof(*a));
        a->type = type_of(json_string_value(json_object_get(o, "type")));
        a->card = cards ? card_at(o, "card") : SORC_NONE;
        a->betray = SORC_NONE;
        a->ch_target[0] = a->ch_target[1] = SORC_NONE;
        if (a->type == SORC_A_COMBO_DECLARE) {
            a->sacrifice = json_is_true(json_object_get(o, "sacrifice"));
            a->betray = card_at(o, "betray");
        } else if (a->type == SORC_A_NEGATE) {
            const json_t *ch = json_object_get(o, "choices");
            a->nchoices = (uint8_t)(json_array_size(ch) < 2 ? json_array_size(ch) : 2);
            for (int j = 0; j < a->nchoices; j++) {
                a->ch_target[j] = card_at(json_array_get(ch, (size_t)j), "target");
            }
        }
    }
    return choose(st, sorc__side(st, seat), acts, n, rng);
}

/* ---- Value ---- */

/* The Merlinians' lead in a running game: sorcerers (the army victory at
 * six more), their dueling strength, hands, and the time markers toward
 * Dave's (7) and Morgana's (5) victories; Destroy Morgana wins at End. */
static double mer_lead(const struct sorc_state *st)
{
    double x = 0.0;

    for (int i = 0; i < st->ninplay; i++) {
        const struct sorc_inplay *in = &st->inplay[i];
        double w = 1.0 + 0.05 * sorc_cards[in->card].power;
        for (int j = 0; j < in->nobj; j++) {
            w += 0.05 * sorc_cards[in->obj[j]].power;
        }
        x += sorc__controller(in->card) == SORC_MER ? 0.3 * w : -0.3 * w;
    }
    x += 0.05 * (st->nhand[SORC_MER] - st->nhand[SORC_MOR]);
    if (sorc__find_inplay(st, SORC_DAVE) >= 0) {
        x += 1.2 * (st->marker_dave + 1) / 8.0;
    }
    if (sorc__find_inplay(st, SORC_MORGANA) >= 0) {
        x -= 1.2 * (st->marker_morgana + 1) / 6.0;
    }
    if (st->destroy_morgana) {
        x += 2.0;
    }
    return x;
}

/* game_bot.value: the outcome once over (1 the winner, 0 the loser, 1/2
 * each in a draw), else 1/2 + s(lead)/2 for the side ahead, where
 * s(x) = x / (1 + |x|) is a sigmoid that needs no libm. */
static void sorc_value(const void *state, double ret[GAME_MAX_SEATS])
{
    const struct sorc_state *st = state;
    double mer;

    if (st->over) {
        mer = st->winner_side < 0 ? 0.5 : st->winner_side == SORC_MER ? 1.0 : 0.0;
    } else {
        double x = mer_lead(st);
        mer = 0.5 + 0.5 * x / (1.0 + (x < 0 ? -x : x));
    }
    ret[sorc__seat(st, SORC_MER)] = mer;
    ret[sorc__seat(st, SORC_MOR)] = 1.0 - mer;
}

/* The Sorcerers bot table (game_ops.bot). */
const struct game_bot sorc_bot = {
    .determinize = sorc_determinize,
    .playout = sorc_playout,
    .value = sorc_value,
    .playout_depth = 24,
};
