/* SPDX-License-Identifier: MIT */
/*
 * sorc_state.c - setup of a Sorcerers game and the shared procedures on the
 * flat state: zones (deck, discard pile, hands, play), DRAW, REMOVE, object
 * attachment, ability lookup, hand limits and the duel power totals. It owns
 * the meaning of every state field; it must never decide who acts (that is
 * sorc_rules.c), never touch JSON and never use randomness other than the
 * generator inside the state.
 */
#include "json_util.h"
#include "sorc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Seats and sides ---- */

/* Side (SORC_MER or SORC_MOR) played by `seat` (0 or 1). */
int sorc__side(const struct sorc_state *st, int seat)
{
    return seat == st->mer_seat ? SORC_MER : SORC_MOR;
}

/* Seat that plays `side`. */
int sorc__seat(const struct sorc_state *st, int side)
{
    return side == SORC_MER ? st->mer_seat : 1 - st->mer_seat;
}

/* 1 when `card` is a sorcerer (either faction). */
int sorc__is_sorcerer(uint8_t card)
{
    return card < SORC_NCARDS &&
           (sorc_cards[card].type == SORC_T_MER || sorc_cards[card].type == SORC_T_MOR);
}

/* R-sorcerers-2.2: the side that controls a sorcerer card is its faction. */
int sorc__controller(uint8_t card)
{
    return sorc_cards[card].type == SORC_T_MER ? SORC_MER : SORC_MOR;
}

/* ---- Log ---- */

/* Appends one log line (printf style) and its message to the ring in the
 * state. */
void sorc__log(struct sorc_state *st, const char *key, const char *fmt, ...)
{
    int idx;
    va_list ap;

    if (st->log_n < SORC_LOG_LINES) {
        idx = (st->log_head + st->log_n) % SORC_LOG_LINES;
        st->log_n++;
    } else {
        idx = st->log_head;
        st->log_head = (uint8_t)((st->log_head + 1) % SORC_LOG_LINES);
    }
    st->log_seq++;
    va_start(ap, fmt);
    game_format_msg(st->log[idx], SORC_LOG_LEN, st->log_msg[idx], SORC_LOG_LEN, key, fmt, ap);
    va_end(ap);
}

/* Display name of the player of `side`. */
const char *sorc__name(const struct sorc_state *st, int side)
{
    return st->names[sorc__seat(st, side)];
}

/* ---- Zones ---- */

/* Position of `card` in side's hand, or -1. */
int sorc__hand_index(const struct sorc_state *st, int side, uint8_t card)
{
    for (int i = 0; i < st->nhand[side]; i++) {
        if (st->hand[side][i] == card) {
            return i;
        }
    }
    return -1;
}

/* Removes `card` from side's hand keeping the order; 0 or -1 if absent. */
int sorc__hand_take(struct sorc_state *st, int side, uint8_t card)
{
    int i = sorc__hand_index(st, side, card);

    if (i < 0) {
        return -1;
    }
    memmove(&st->hand[side][i], &st->hand[side][i + 1], (size_t)(st->nhand[side] - i - 1));
    st->nhand[side]--;
    st->hand[side][st->nhand[side]] = 0;
    return 0;
}

/* Appends `card` to side's hand. */
void sorc__hand_add(struct sorc_state *st, int side, uint8_t card)
{
    st->hand[side][st->nhand[side]++] = card;
}

/* Appends `card` to the discard pile. */
void sorc__discard(struct sorc_state *st, uint8_t card)
{
    st->discard[st->ndiscard++] = card;
}

/* Shuffles the whole deck with the state's generator (spec 8). */
void sorc__shuffle_deck(struct sorc_state *st)
{
    game_rng_shuffle(&st->rng, st->deck, st->ndeck, 1);
}

/* R-sorcerers-2.3: DRAW(side, n) with the reshuffle of the discard pile. */
void sorc__draw(struct sorc_state *st, int side, int n)
{
    for (int k = 0; k < n; k++) {
        if (st->ndeck == 0 && st->ndiscard > 0) {
            memcpy(st->deck, st->discard, st->ndiscard);
            st->ndeck = st->ndiscard;
            memset(st->discard, 0, sizeof(st->discard));
            st->ndiscard = 0;
            sorc__shuffle_deck(st);
        }
        if (st->ndeck == 0) {
            return;
        }
        st->ndeck--;
        sorc__hand_add(st, side, st->deck[st->ndeck]);
        st->deck[st->ndeck] = 0;
    }
}

/* Index of sorcerer `card` in play, or -1. */
int sorc__find_inplay(const struct sorc_state *st, uint8_t card)
{
    for (int i = 0; i < st->ninplay; i++) {
        if (st->inplay[i].card == card) {
            return i;
        }
    }
    return -1;
}

/* Index of the sorcerer carrying object `obj`, or -1; *ret_pos gets its slot. */
int sorc__carrier(const struct sorc_state *st, uint8_t obj, int *ret_pos)
{
    for (int i = 0; i < st->ninplay; i++) {
        for (int j = 0; j < st->inplay[i].nobj; j++) {
            if (st->inplay[i].obj[j] == obj) {
                if (ret_pos) {
                    *ret_pos = j;
                }
                return i;
            }
        }
    }
    return -1;
}

/* Inplay index of the Grimhold's carrier, or -1 when unattached. */
int sorc__grim_carrier(const struct sorc_state *st)
{
    return sorc__carrier(st, SORC_GRIMHOLD, NULL);
}

/* Removes object `obj` from its carrier; 0, or -1 when not attached. */
int sorc__detach(struct sorc_state *st, uint8_t obj)
{
    int pos = 0;
    int ip = sorc__carrier(st, obj, &pos);
    struct sorc_inplay *s;

    if (ip < 0) {
        return -1;
    }
    s = &st->inplay[ip];
    memmove(&s->obj[pos], &s->obj[pos + 1], (size_t)(s->nobj - pos - 1));
    s->nobj--;
    s->obj[s->nobj] = 0;
    return 0;
}

/* Appends object `obj` to the sorcerer at inplay index `ip`. */
void sorc__attach(struct sorc_state *st, int ip, uint8_t obj)
{
    struct sorc_inplay *s = &st->inplay[ip];

    if (s->nobj < SORC_MAX_OBJ) {
        s->obj[s->nobj++] = obj;
    }
}

/* Number of sorcerers `side` controls. */
int sorc__count_side(const struct sorc_state *st, int side)
{
    int n = 0;

    for (int i = 0; i < st->ninplay; i++) {
        if (sorc__controller(st->inplay[i].card) == side) {
            n++;
        }
    }
    return n;
}

/* R-sorcerers-2.5: puts `card` into play at the end of entry order; an
 * unattached Grimhold attaches to it at once. Returns its inplay index. */
int sorc__enter_play(struct sorc_state *st, uint8_t card)
{
    int ip = st->ninplay++;

    memset(&st->inplay[ip], 0, sizeof(st->inplay[ip]));
    st->inplay[ip].card = card;
    if (st->grim_loose) {
        st->grim_loose = 0;
        sorc__attach(st, ip, SORC_GRIMHOLD);
    }
    return ip;
}

/* R-sorcerers-2.7: REMOVE(s) for a sorcerer whose objects were already dealt
 * with. Prime Movers go into the deck, which is shuffled; the others go to
 * the discard pile; Dave's and Morgana's markers drop to 0. */
void sorc__remove(struct sorc_state *st, uint8_t card)
{
    int ip = sorc__find_inplay(st, card);

    if (ip < 0) {
        return;
    }
    memmove(&st->inplay[ip], &st->inplay[ip + 1],
            (size_t)(st->ninplay - ip - 1) * sizeof(st->inplay[0]));
    st->ninplay--;
    memset(&st->inplay[st->ninplay], 0, sizeof(st->inplay[0]));
    if (sorc_cards[card].kw & SORC_K_PRIME_MOVER) {
        st->deck[st->ndeck++] = card;
        sorc__shuffle_deck(st);
    } else {
        sorc__discard(st, card);
    }
    if (card == SORC_DAVE) {
        st->marker_dave = 0;
    }
    if (card == SORC_MORGANA) {
        st->marker_morgana = 0;
    }
}

/* ---- Abilities ---- */

/* R-sorcerers-2.8: 1 when the sorcerer at inplay index `ip` has keyword `kw`,
 * printed, imbued by one of its objects, or (First to Fight) given by Martyr. */
int sorc__has_kw(const struct sorc_state *st, int ip, uint64_t kw)
{
    const struct sorc_inplay *s = &st->inplay[ip];

    if (sorc_cards[s->card].kw & kw) {
        return 1;
    }
    if ((kw & SORC_K_FIRST_TO_FIGHT) && s->ftf_temp) {
        return 1;
    }
    for (int j = 0; j < s->nobj; j++) {
        if (sorc_cards[s->obj[j]].imbue & kw) {
            return 1;
        }
    }
    return 0;
}

/* Parameter of an ability held once per sorcerer (I-09): the printed card's
 * value if printed, else the first imbuing object's. `field` selects
 * 0 = bonus, 1 = draw, 2 = hand_bonus. */
static int kw_param(const struct sorc_state *st, int ip, uint64_t kw, int field)
{
    const struct sorc_inplay *s = &st->inplay[ip];
    const struct sorc_card *c = NULL;

    if (sorc_cards[s->card].kw & kw) {
        c = &sorc_cards[s->card];
    } else {
        for (int j = 0; j < s->nobj && !c; j++) {
            if (sorc_cards[s->obj[j]].imbue & kw) {
                c = &sorc_cards[s->obj[j]];
            }
        }
    }
    if (!c) {
        return 0;
    }
    return field == 0 ? c->bonus : field == 1 ? c->draw : c->hand_bonus;
}

/* R-sorcerers-5.1: extra Lore draws of `side` (Researcher, once per sorcerer). */
int sorc__researchers(const struct sorc_state *st, int side)
{
    int n = 0;

    for (int i = 0; i < st->ninplay; i++) {
        if (sorc__controller(st->inplay[i].card) == side &&
            sorc__has_kw(st, i, SORC_K_RESEARCHER)) {
            n += kw_param(st, i, SORC_K_RESEARCHER, 1);
        }
    }
    return n;
}

/* R-sorcerers-5.6: hand limit of `side`: 5 + 2 per Repository sorcerer. */
int sorc__hand_limit(const struct sorc_state *st, int side)
{
    int n = 5;

    for (int i = 0; i < st->ninplay; i++) {
        if (sorc__controller(st->inplay[i].card) == side &&
            sorc__has_kw(st, i, SORC_K_REPOSITORY)) {
            n += kw_param(st, i, SORC_K_REPOSITORY, 2);
        }
    }
    return n;
}

/* ---- Power totals ---- */

/* 1 when combo slot `slot` of `side` holds a counting card. */
static int counting(const struct sorc_state *st, int side, int slot)
{
    const struct sorc_combo *k = &st->combo[side];

    return k->slot[slot] != SORC_NONE && !k->negated[slot];
}

/* 1 when the card in `slot` is used as its printed type (it keeps its text). */
static int printed_slot(const struct sorc_state *st, int side, int slot)
{
    uint8_t c = st->combo[side].slot[slot];

    if (c == SORC_NONE) {
        return 0;
    }
    switch (slot) {
    case SORC_SLOT_SPELL:
        return sorc_cards[c].type == SORC_T_SPELL;
    case SORC_SLOT_EVENT:
        return sorc_cards[c].type == SORC_T_EVENT;
    case SORC_SLOT_DEFENSE:
    case SORC_SLOT_PROTECT:
        return sorc_cards[c].type == SORC_T_DEFENSE;
    default:
        return sorc_cards[c].type == SORC_T_AMP;
    }
}

/* 1 when `slot` of `side` holds a counting card used with its text that has
 * keyword `kw`. */
int sorc__slot_has(const struct sorc_state *st, int side, int slot, uint64_t kw)
{
    return counting(st, side, slot) && printed_slot(st, side, slot) &&
           (sorc_cards[st->combo[side].slot[slot]].kw & kw);
}

/* Slot power of the card in `slot` (spec 5.5.1, converted cards). */
static int slot_power(const struct sorc_state *st, int side, int slot)
{
    uint8_t c = st->combo[side].slot[slot];
    const struct sorc_card *cd = &sorc_cards[c];

    if (slot >= SORC_SLOT_AMP0 && slot <= SORC_SLOT_AMP2 && cd->type != SORC_T_AMP &&
        cd->use_as_power >= 0) {
        return cd->use_as_power;
    }
    return cd->power;
}

/* Class bits of the spell-slot card (0 when converted, I-24). */
static int spell_class(const struct sorc_state *st, int side)
{
    if (!printed_slot(st, side, SORC_SLOT_SPELL)) {
        return 0;
    }
    return sorc_cards[st->combo[side].slot[SORC_SLOT_SPELL]].classes;
}

/* Sum of spell modifiers of `whose` coming from `from`'s counting event and
 * amplifier-slot cards and its duelist's objects, for a spell of class `cls`. */
static int spell_mods(const struct sorc_state *st, int from, int whose, int cls)
{
    int sum = 0;
    int ip;

    for (int slot = SORC_SLOT_EVENT; slot <= SORC_SLOT_AMP2; slot++) {
        if (sorc__slot_has(st, from, slot, SORC_K_SPELL_MOD)) {
            const struct sorc_card *c = &sorc_cards[st->combo[from].slot[slot]];
            if (c->mod_whose == whose && (c->mod_class & cls)) {
                sum += c->mod_amount;
            }
        }
    }
    ip = sorc__find_inplay(st, st->combo[from].final);
    if (ip >= 0) {
        for (int j = 0; j < st->inplay[ip].nobj; j++) {
            const struct sorc_card *c = &sorc_cards[st->inplay[ip].obj[j]];
            if ((c->kw & SORC_K_SPELL_MOD) && c->mod_whose == whose && (c->mod_class & cls)) {
                sum += c->mod_amount;
            }
        }
    }
    return sum;
}

/* R-sorcerers-5.5.3: TOTAL(side). */
static int total(const struct sorc_state *st, int side)
{
    const struct sorc_combo *k = &st->combo[side];
    int opp = side ^ 1;
    int ip = sorc__find_inplay(st, k->final);
    int sum = 0;
    int greater = 0;
    int ampl = 0;

    if (k->final == SORC_NONE) {
        return 0;
    }
    /* 1. Base. */
    sum += sorc_cards[k->final].power;
    /* 2. Objects, with Sacred Dagger's bonus when no counting spell. */
    if (ip >= 0) {
        for (int j = 0; j < st->inplay[ip].nobj; j++) {
            const struct sorc_card *c = &sorc_cards[st->inplay[ip].obj[j]];
            sum += c->power;
            if ((c->kw & SORC_K_BONUS_IF_NO_SPELL) && !counting(st, side, SORC_SLOT_SPELL)) {
                sum += c->bonus;
            }
        }
    }
    /* 3. Spell slot with its modifiers, never below 0. */
    if (counting(st, side, SORC_SLOT_SPELL)) {
        int cls = spell_class(st, side);
        int sp = slot_power(st, side, SORC_SLOT_SPELL);
        if (cls) {
            sp += spell_mods(st, side, SORC_MOD_OWN, cls);
            sp += spell_mods(st, opp, SORC_MOD_OPPOSING, cls);
        }
        sum += sp > 0 ? sp : 0;
    }
    /* 4. Event slot. */
    if (counting(st, side, SORC_SLOT_EVENT)) {
        sum += slot_power(st, side, SORC_SLOT_EVENT);
    }
    /* 5. Amplifiers. */
    for (int i = 0; i < st->ninplay; i++) {
        if (sorc__controller(st->inplay[i].card) == side &&
            sorc__has_kw(st, i, SORC_K_GREATER_AMPLIFICATION)) {
            greater = kw_param(st, i, SORC_K_GREATER_AMPLIFICATION, 0);
        }
    }
    if (ip >= 0 && sorc__has_kw(st, ip, SORC_K_AMPLIFICATION)) {
        ampl = kw_param(st, ip, SORC_K_AMPLIFICATION, 0);
    }
    for (int slot = SORC_SLOT_AMP0; slot <= SORC_SLOT_AMP2; slot++) {
        if (!counting(st, side, slot)) {
            continue;
        }
        sum += slot_power(st, side, slot) + greater + ampl;
        for (int other = SORC_SLOT_AMP0; other <= SORC_SLOT_AMP2; other++) {
            if (other != slot && sorc__slot_has(st, side, other, SORC_K_AMP_MOD_OTHERS)) {
                sum += sorc_cards[k->slot[other]].bonus;
            }
        }
        if (sorc__slot_has(st, side, slot, SORC_K_DISCARD_FOR_POWER)) {
            sum += k->clear_mind * sorc_cards[k->slot[slot]].bonus;
        }
    }
    /* 6. Sorcerer abilities. */
    for (int i = 0; i < st->ninplay; i++) {
        if (i != ip && sorc__controller(st->inplay[i].card) == side &&
            sorc__has_kw(st, i, SORC_K_CHARISMA)) {
            sum += kw_param(st, i, SORC_K_CHARISMA, 0);
        }
    }
    if (ip >= 0 && sorc__has_kw(st, ip, SORC_K_CONFIDENCE)) {
        sum += sorc__count_side(st, side) - 1;
    }
    if (ip >= 0 && sorc__has_kw(st, ip, SORC_K_CONJURER) && counting(st, side, SORC_SLOT_SPELL) &&
        (spell_class(st, side) & sorc_cards[k->final].conjurer_class)) {
        sum += sorc_cards[k->final].bonus;
    }
    if (k->betrayed) {
        sum += sorc_cards[k->final].bonus;
    }
    /* 7. Defense card. */
    if (k->slot[SORC_SLOT_DEFENSE] != SORC_NONE) {
        sum += sorc_cards[k->slot[SORC_SLOT_DEFENSE]].power;
    }
    return sum;
}

/* Recomputes both duel totals into combo[].total. */
void sorc__totals(struct sorc_state *st)
{
    st->combo[SORC_MER].total = (int16_t)total(st, SORC_MER);
    st->combo[SORC_MOR].total = (int16_t)total(st, SORC_MOR);
}

/* ---- Reveal negations ---- */

/* R-sorcerers-5.5.2: 1 when `slot` of `side` holds a reveal negator used in
 * its printed slot. */
static int is_reveal_negator(const struct sorc_state *st, int side, int slot)
{
    uint8_t c = st->combo[side].slot[slot];

    return (slot == SORC_SLOT_SPELL || slot == SORC_SLOT_EVENT) && printed_slot(st, side, slot) &&
           (sorc_cards[c].kw & SORC_K_NEGATE) && sorc_cards[c].negate_timing == SORC_TIMING_REVEAL;
}

/* 1 when `target` is a legal target of the reveal negator in `slot` of `side`. */
int sorc__negate_target_ok(const struct sorc_state *st, int side, int slot, uint8_t target)
{
    const struct sorc_combo *o = &st->combo[side ^ 1];
    uint8_t c = st->combo[side].slot[slot];

    if (!is_reveal_negator(st, side, slot) || target == SORC_NONE) {
        return 0;
    }
    if (sorc_cards[c].negate_target == SORC_NEG_SPELL) {
        return o->slot[SORC_SLOT_SPELL] == target;
    }
    for (int s = SORC_SLOT_AMP0; s <= SORC_SLOT_AMP2; s++) {
        if (o->slot[s] == target) {
            return 1;
        }
    }
    return 0;
}

/* 1 when the card in `slot` of `side` is a reveal negator with a legal target. */
int sorc__negator_has_target(const struct sorc_state *st, int side, int slot)
{
    const struct sorc_combo *o = &st->combo[side ^ 1];

    if (!is_reveal_negator(st, side, slot)) {
        return 0;
    }
    for (int s = SORC_SLOT_SPELL; s <= SORC_SLOT_AMP2; s++) {
        if (o->slot[s] != SORC_NONE && sorc__negate_target_ok(st, side, slot, o->slot[s])) {
            return 1;
        }
    }
    return 0;
}

/* ---- Setup ---- */

/* R-sorcerers-3: builds the starting position and runs turn 1's Lore. */
void sorc__setup(struct sorc_state *st, const uint8_t seed[32], int merlinian_seat, int max_turns,
                 const char *name0, const char *name1)
{
    st->magic = SORC_MAGIC;
    game_rng_seed(&st->rng, seed);
    snprintf(st->names[0], SORC_NAME_MAX, "%s", name0);
    snprintf(st->names[1], SORC_NAME_MAX, "%s", name1);
    /* R-sorcerers-3 step 1 (I-43): the generator's first draw picks sides. */
    if (merlinian_seat < 0) {
        merlinian_seat = (int)game_rng_below(&st->rng, 2);
    }
    st->mer_seat = (uint8_t)merlinian_seat;
    st->max_turns = (uint16_t)max_turns;
    /* Step 2: the deck in list_index order without the three starting cards. */
    st->ndeck = 0;
    for (int c = 0; c < SORC_NCARDS; c++) {
        if (c != SORC_GRIMHOLD && c != SORC_BALTHAZAR && c != SORC_HORVATH) {
            st->deck[st->ndeck++] = (uint8_t)c;
        }
    }
    sorc__shuffle_deck(st);
    /* Step 3. */
    sorc__enter_play(st, SORC_BALTHAZAR);
    sorc__attach(st, 0, SORC_GRIMHOLD);
    sorc__enter_play(st, SORC_HORVATH);
    /* Step 4. */
    sorc__draw(st, SORC_MER, 5);
    sorc__draw(st, SORC_MOR, 5);
    /* Step 5. */
    for (int s = 0; s < 2; s++) {
        st->tracked[s] = SORC_NONE;
        memset(st->combo[s].slot, SORC_NONE, sizeof(st->combo[s].slot));
        st->combo[s].betray = SORC_NONE;
        st->combo[s].pick = SORC_NONE;
        st->combo[s].final = SORC_NONE;
        st->combo[s].def_card = SORC_NONE;
        st->combo[s].enc_sorc = SORC_NONE;
        st->combo[s].neg_target[0] = SORC_NONE;
        st->combo[s].neg_target[1] = SORC_NONE;
    }
    st->ea_card = SORC_NONE;
    st->turn = 1;
    st->stage = SORC_S_LORE;
    sorc__log(st, "game_begins", "Turn 1: %s plays the Merlinians, %s the Morganians.",
              sorc__name(st, SORC_MER), sorc__name(st, SORC_MOR));
    sorc__run(st);
}

/* ---- Names ---- */

static const char *const phase_names[SORC_P_COUNT] = {
    "lore_faust",      "recruit",        "event",        "event_track",
    "event_discard",   "encounter",      "duel_combo",   "duel_clear_mind",
    "duel_negate",     "duel_defense",   "duel_protect", "duel_steal",
    "object_overflow", "grimhold_place", "end_discard",  "over",
};

/* The state name of spec 4.5 for `phase`. */
const char *sorc__phase_name(int phase)
{
    return phase >= 0 && phase < SORC_P_COUNT ? phase_names[phase] : "over";
}

/* The result reason of spec 7. */
const char *sorc__reason_name(int reason)
{
    static const char *const names[] = {"none",
                                        "destroy_morgana",
                                        "prime_merlinian_succession",
                                        "rising_spell",
                                        "army_of_sorcerers",
                                        "simultaneous",
                                        "turn_limit",
                                        "forfeit"};

    return reason >= 0 && reason <= SORC_R_FORFEIT ? names[reason] : "none";
}
