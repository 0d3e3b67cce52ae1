/* SPDX-License-Identifier: MIT */
/*
 * sorc_rules.c - the Sorcerers turn machine: the automatic steps between
 * decisions (sorc__run) and the validation and application of every action
 * (sorc__rules_apply). It owns who is asked what and the order of resolution;
 * it works on a scratch copy handed in by the caller, so a refusal may leave
 * that copy half-changed but must report it. It must never touch JSON, do
 * I/O, or reveal hidden information in a refusal message.
 */
#include "sorc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game.h"

/* ---- Small helpers ---- */

/* Refuses with GAME_E_ILLEGAL and the message "R-sorcerers-<rule> <token>: <text>". */
static int refuse(struct game_error *err, const char *rule, const char *token, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int refuse(struct game_error *err, const char *rule, const char *token, const char *fmt, ...)
{
    char text[GAME_MSG_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    return game_error_set(err, GAME_E_ILLEGAL, "R-sorcerers-%s %s: %s", rule, token, text);
}

static const char *cname(uint8_t c)
{
    return c < SORC_NCARDS ? sorc_cards[c].name : "nothing";
}

/* Makes `side` the only seat to act, in `phase`. */
static void ask(struct sorc_state *st, int phase, int side)
{
    st->phase = (uint8_t)phase;
    st->act[0] = side == 0;
    st->act[1] = side == 1;
    st->cur_side = (uint8_t)side;
}

/* Opens a sealed step for the seats whose combo[].asked is set; returns 0
 * (nobody asked) or 1. */
static int ask_sealed(struct sorc_state *st, int phase)
{
    for (int s = 0; s < 2; s++) {
        st->combo[s].submitted = !st->combo[s].asked;
        st->act[s] = st->combo[s].asked;
    }
    if (!st->act[0] && !st->act[1]) {
        return 0;
    }
    st->phase = (uint8_t)phase;
    return 1;
}

/* The first sorcerer over three objects, or -1. */
static int overloaded(const struct sorc_state *st)
{
    for (int i = 0; i < st->ninplay; i++) {
        if (st->inplay[i].nobj > 3) {
            return i;
        }
    }
    return -1;
}

/* R-sorcerers-2.4: stops in object_overflow when some sorcerer carries more
 * than three objects; returns 1 then. st->stage holds where to resume. */
static int check_overflow(struct sorc_state *st)
{
    int ip = overloaded(st);

    if (ip < 0) {
        return 0;
    }
    ask(st, SORC_P_OBJECT_OVERFLOW, sorc__controller(st->inplay[ip].card));
    return 1;
}

/* Moves every object of sorcerer `from` to sorcerer `to` (appended). */
static void move_all_objects(struct sorc_state *st, uint8_t from, uint8_t to)
{
    int fi = sorc__find_inplay(st, from);
    int ti = sorc__find_inplay(st, to);

    if (fi < 0 || ti < 0) {
        return;
    }
    for (int j = 0; j < st->inplay[fi].nobj; j++) {
        sorc__attach(st, ti, st->inplay[fi].obj[j]);
    }
    memset(st->inplay[fi].obj, 0, sizeof(st->inplay[fi].obj));
    st->inplay[fi].nobj = 0;
}

/* The n-th sorcerer (entry order) that `side` controls. */
static uint8_t nth_own(const struct sorc_state *st, int side, int n)
{
    for (int i = 0; i < st->ninplay; i++) {
        if (sorc__controller(st->inplay[i].card) == side && n-- == 0) {
            return st->inplay[i].card;
        }
    }
    return SORC_NONE;
}

/* 1 when `side` controls sorcerer `card` in play. */
static int own_inplay(const struct sorc_state *st, int side, uint8_t card)
{
    return card < SORC_NCARDS && sorc__is_sorcerer(card) && sorc__find_inplay(st, card) >= 0 &&
           sorc__controller(card) == side;
}

/* 1 when `obj` is attached to a sorcerer of `side`. */
static int own_object(const struct sorc_state *st, int side, uint8_t obj)
{
    int ip;

    if (obj >= SORC_NCARDS) {
        return 0;
    }
    ip = sorc__carrier(st, obj, NULL);
    return ip >= 0 && sorc__controller(st->inplay[ip].card) == side;
}

/* Records a hand-to-hand move for both seats' `you` (I-48). */
static void xfer(struct sorc_state *st, uint8_t card, int from)
{
    if (st->nxfer < SORC_MAX_XFER) {
        st->xfer_card[st->nxfer] = card;
        st->xfer_from[st->nxfer] = (uint8_t)from;
        st->nxfer++;
    }
}

/* 1 when the dueling sorcerer of `side` may betray someone (spec 4.3). */
int sorc__can_betray(const struct sorc_state *st, int side)
{
    uint8_t fin = st->combo[side].final;
    int ip = sorc__find_inplay(st, fin);

    if (ip < 0 || !sorc__has_kw(st, ip, SORC_K_BETRAYER)) {
        return 0;
    }
    for (int i = 0; i < st->ninplay; i++) {
        uint8_t c = st->inplay[i].card;
        if (c != fin && sorc__controller(c) == side && c != sorc_cards[fin].betrayer_exclude) {
            return 1;
        }
    }
    return 0;
}

/* 1 when `side`'s other sorcerers (not the pick) include one with First to
 * Fight. */
static int other_ftf(const struct sorc_state *st, int side)
{
    for (int i = 0; i < st->ninplay; i++) {
        if (sorc__controller(st->inplay[i].card) == side &&
            st->inplay[i].card != st->combo[side].pick &&
            sorc__has_kw(st, i, SORC_K_FIRST_TO_FIGHT)) {
            return 1;
        }
    }
    return 0;
}

/* Resets one side's duel data (keeps nothing). */
static void combo_reset(struct sorc_combo *k)
{
    memset(k, 0, sizeof(*k));
    memset(k->slot, SORC_NONE, sizeof(k->slot));
    k->betray = SORC_NONE;
    k->neg_target[0] = SORC_NONE;
    k->neg_target[1] = SORC_NONE;
    k->def_card = SORC_NONE;
    k->enc_sorc = SORC_NONE;
    k->pick = SORC_NONE;
    k->final = SORC_NONE;
}

/* ---- Victory ---- */

/* R-sorcerers-7: the victory check at End; 1 when the game ended. */
static int victory(struct sorc_state *st)
{
    int nm = sorc__count_side(st, SORC_MER);
    int no = sorc__count_side(st, SORC_MOR);
    int mer = SORC_R_NONE;
    int mor = SORC_R_NONE;

    if (st->destroy_morgana) {
        mer = SORC_R_DESTROY_MORGANA;
    } else if (st->marker_dave >= 7) {
        mer = SORC_R_SUCCESSION;
    } else if (nm - no >= 6) {
        mer = SORC_R_ARMY;
    }
    if (st->marker_morgana >= 5) {
        mor = SORC_R_RISING_SPELL;
    } else if (no - nm >= 6) {
        mor = SORC_R_ARMY;
    }
    if (mer && mor) {
        st->winner_side = -1;
        st->reason = SORC_R_SIMULTANEOUS;
    } else if (mer || mor) {
        st->winner_side = mer ? SORC_MER : SORC_MOR;
        st->reason = (uint8_t)(mer ? mer : mor);
    } else if (st->max_turns && st->turn >= st->max_turns) {
        st->winner_side = -1;
        st->reason = SORC_R_TURN_LIMIT;
    } else {
        return 0;
    }
    st->over = 1;
    if (st->winner_side < 0) {
        sorc__log(st, "game_drawn", "The game ends in a draw (%s).", sorc__reason_name(st->reason));
    } else {
        sorc__log(st, "wins", "%s wins (%s).", sorc__name(st, st->winner_side),
                  sorc__reason_name(st->reason));
    }
    return 1;
}

/* R-sorcerers-5.6 step 3: per-turn data reset and the next turn's Lore. */
static void next_turn(struct sorc_state *st)
{
    st->turn++;
    st->destroy_morgana = 0;
    for (int i = 0; i < st->ninplay; i++) {
        st->inplay[i].ftf_temp = 0;
    }
    memset(st->moved, 0, sizeof(st->moved));
    memset(st->ea_used, 0, sizeof(st->ea_used));
    memset(st->scry, 0, sizeof(st->scry));
    memset(st->scry_n, 0, sizeof(st->scry_n));
    memset(st->div, 0, sizeof(st->div));
    memset(st->div_n, 0, sizeof(st->div_n));
    st->tracked[0] = st->tracked[1] = SORC_NONE;
    st->last_pass = 0;
    st->skip_duel = 0;
    st->stage = SORC_S_LORE;
    sorc__log(st, "turn_begins", "Turn %d begins.", st->turn);
}

/* ---- The automatic steps ---- */

/* R-sorcerers-5.5.5: the Sacrifice outcome; both duelists leave play. */
static int sacrifice(struct sorc_state *st)
{
    int grim_side = -1;

    st->outcome = 3;
    sorc__log(st, "sacrifice_outcome", "Sacrifice: both dueling sorcerers leave play.");
    for (int s = 0; s < 2; s++) {
        int ip = sorc__find_inplay(st, st->combo[s].final);
        struct sorc_inplay *in;
        if (ip < 0) {
            continue;
        }
        in = &st->inplay[ip];
        for (int j = 0; j < in->nobj; j++) {
            if (in->obj[j] == SORC_GRIMHOLD) {
                grim_side = s;
            } else {
                sorc__discard(st, in->obj[j]);
            }
        }
        memset(in->obj, 0, sizeof(in->obj));
        in->nobj = 0;
    }
    for (int s = 0; s < 2; s++) {
        sorc__remove(st, st->combo[s].final);
    }
    if (grim_side >= 0) {
        int n = sorc__count_side(st, grim_side);
        if (n == 0) {
            /* R-sorcerers-2.5 (I-06): unattached when its side has no sorcerer. */
            st->grim_loose = 1;
        } else if (n == 1) {
            sorc__attach(st, sorc__find_inplay(st, nth_own(st, grim_side, 0)), SORC_GRIMHOLD);
        } else {
            st->grim_loose = 1; /* until place_grimhold */
            ask(st, SORC_P_GRIMHOLD_PLACE, grim_side);
            return 1;
        }
    }
    return 0;
}

/* R-sorcerers-5.5.5: decides the duel after Defense. Returns 1 when a
 * decision (grimhold_place, object_overflow, duel_protect) is pending. */
static int outcome(struct sorc_state *st)
{
    struct sorc_combo *m = &st->combo[SORC_MER];
    struct sorc_combo *o = &st->combo[SORC_MOR];
    int sac = 0;
    int w = -1;
    int l;

    sorc__totals(st);
    for (int s = 0; s < 2; s++) {
        if (st->combo[s].sacrifice && (sorc__slot_has(st, s, SORC_SLOT_EVENT, SORC_K_SACRIFICE) ||
                                       sorc__slot_has(st, s, SORC_SLOT_SPELL, SORC_K_SACRIFICE))) {
            sac = 1;
        }
    }
    if (sac) {
        st->stage = SORC_S_CLEANUP;
        if (sacrifice(st)) {
            return 1;
        }
        return check_overflow(st);
    }
    if (sorc_cards[m->final].nemesis_of == o->final) {
        w = SORC_MER;
        sorc__log(st, "defeats_by_nemesis", "%s defeats %s by Nemesis.", cname(m->final),
                  cname(o->final));
    } else if (sorc_cards[o->final].nemesis_of == m->final) {
        w = SORC_MOR;
        sorc__log(st, "defeats_by_nemesis", "%s defeats %s by Nemesis.", cname(o->final),
                  cname(m->final));
    } else if (sorc__slot_has(st, SORC_MER, SORC_SLOT_SPELL, SORC_K_FREEZE) ||
               sorc__slot_has(st, SORC_MOR, SORC_SLOT_SPELL, SORC_K_FREEZE)) {
        w = -1;
        sorc__log(st, "freeze_tie", "Freeze: the duel is a tie (%d to %d).", m->total, o->total);
    } else if (m->total != o->total) {
        w = m->total > o->total ? SORC_MER : SORC_MOR;
        sorc__log(st, "defeats", "%s defeats %s, %d to %d.", cname(st->combo[w].final),
                  cname(st->combo[w ^ 1].final), st->combo[w].total, st->combo[w ^ 1].total);
    } else {
        sorc__log(st, "duel_tie", "The duel is a tie at %d.", m->total);
    }
    if (w < 0) {
        st->outcome = 2;
        st->stage = SORC_S_CLEANUP;
        return 0;
    }
    l = w ^ 1;
    st->outcome = 1;
    st->winner = (uint8_t)w;
    st->margin = (int16_t)(st->combo[w].total - st->combo[l].total);
    /* R-sorcerers-7 (I-36): Destroy Morgana needs the margin. */
    if (st->combo[l].final == SORC_MORGANA && st->margin >= 7 && w == SORC_MER) {
        st->destroy_morgana = 1;
    }
    st->protected_ = 0;
    st->stage = SORC_S_RESULT;
    if (st->nhand[l] > 0) {
        ask(st, SORC_P_DUEL_PROTECT, l);
        return 1;
    }
    return 0;
}

/* R-sorcerers-5.3 step 1: time markers at the start of the Event phase. */
static void markers(struct sorc_state *st)
{
    if (sorc__find_inplay(st, SORC_DAVE) >= 0) {
        st->marker_dave++;
    } else {
        st->marker_dave = 0;
    }
    if (sorc__find_inplay(st, SORC_MORGANA) >= 0) {
        st->marker_morgana++;
    } else {
        st->marker_morgana = 0;
    }
}

/* R-sorcerers-5.5.2 step 1: the log line of side `s`'s revealed combo, one
 * message for each form of it (an empty spell or event slot reads
 * "nothing"; a declared Sacrifice is added). Amplifiers need a spell, and
 * Sacrifice a card with it in the spell or event slot (do_combo), so an
 * empty spell slot has no amplifiers and two empty slots no Sacrifice. */
static void log_reveal(struct sorc_state *st, int s)
{
    const struct sorc_combo *k = &st->combo[s];
    const char *who = sorc__name(st, s);
    uint8_t sp = k->slot[SORC_SLOT_SPELL];
    uint8_t ev = k->slot[SORC_SLOT_EVENT];

    if (sp == SORC_NONE && ev == SORC_NONE) {
        sorc__log(st, "reveals_nothing",
                  "%s reveals: spell nothing, event nothing, %d amplifier(s).", who, k->namp);
    } else if (sp == SORC_NONE && k->sacrifice) {
        sorc__log(st, "reveals_no_spell_sacrifice",
                  "%s reveals: spell nothing, event %s, %d amplifier(s), Sacrifice.", who,
                  cname(ev), k->namp);
    } else if (sp == SORC_NONE) {
        sorc__log(st, "reveals_no_spell", "%s reveals: spell nothing, event %s, %d amplifier(s).",
                  who, cname(ev), k->namp);
    } else if (ev == SORC_NONE && k->sacrifice) {
        sorc__log(st, "reveals_no_event_sacrifice",
                  "%s reveals: spell %s, event nothing, %d amplifier(s), Sacrifice.", who,
                  cname(sp), k->namp);
    } else if (ev == SORC_NONE) {
        sorc__log(st, "reveals_no_event", "%s reveals: spell %s, event nothing, %d amplifier(s).",
                  who, cname(sp), k->namp);
    } else if (k->sacrifice) {
        sorc__log(st, "reveals_sacrifice",
                  "%s reveals: spell %s, event %s, %d amplifier(s), Sacrifice.", who, cname(sp),
                  cname(ev), k->namp);
    } else {
        sorc__log(st, "reveals", "%s reveals: spell %s, event %s, %d amplifier(s).", who, cname(sp),
                  cname(ev), k->namp);
    }
}

/* R-sorcerers-5.2 / 4.3: 1 when side's Recruit step is skipped. */
static int recruit_skipped(const struct sorc_state *st, int side)
{
    int any_obj = 0;

    if (st->nhand[side] > 0) {
        return 0;
    }
    for (int i = 0; i < st->ninplay; i++) {
        if (sorc__controller(st->inplay[i].card) == side && st->inplay[i].nobj > 0) {
            any_obj = 1;
        }
    }
    return !(any_obj && sorc__count_side(st, side) >= 2);
}

/* Runs the automatic steps until a seat must decide or the game is over. */
void sorc__run(struct sorc_state *st)
{
    for (;;) {
        if (st->over) {
            st->phase = SORC_P_OVER;
            st->act[0] = st->act[1] = 0;
            return;
        }
        switch (st->stage) {
        case SORC_S_LORE: {
            /* R-sorcerers-5.1. */
            int rm = sorc__researchers(st, SORC_MER);
            int ro = sorc__researchers(st, SORC_MOR);
            sorc__draw(st, SORC_MER, 2 + rm);
            sorc__draw(st, SORC_MOR, 2 + ro);
            st->stage = SORC_S_RECRUIT_MER;
            st->faust_dealt = 0;
            for (int i = 0; i < st->ninplay; i++) {
                int side = sorc__controller(st->inplay[i].card);
                if (sorc__has_kw(st, i, SORC_K_DEAL_WITH_THE_DEVIL) && st->nhand[side] > 0) {
                    ask(st, SORC_P_LORE_FAUST, side);
                    return;
                }
            }
            break;
        }
        case SORC_S_RECRUIT_MER:
        case SORC_S_RECRUIT_MOR: {
            /* R-sorcerers-5.2 (I-13): MER's step, then MOR's. */
            int side = st->stage == SORC_S_RECRUIT_MER ? SORC_MER : SORC_MOR;
            st->stage = side == SORC_MER ? SORC_S_RECRUIT_MOR : SORC_S_EVENT_START;
            st->recruited = 0;
            memset(st->moved, 0, sizeof(st->moved));
            if (!recruit_skipped(st, side)) {
                ask(st, SORC_P_RECRUIT, side);
                return;
            }
            break;
        }
        case SORC_S_EVENT_START:
            /* R-sorcerers-5.3. */
            markers(st);
            st->priority = SORC_MER;
            st->last_pass = 0;
            memset(st->ea_used, 0, sizeof(st->ea_used));
            st->stage = SORC_S_EVENT_PRIORITY;
            break;
        case SORC_S_EVENT_PRIORITY: {
            int p = st->priority;
            if (st->nhand[p] == 0) {
                /* An empty hand passes automatically; it counts as a pass. */
                if (st->last_pass) {
                    st->stage = SORC_S_ENCOUNTER;
                } else {
                    st->last_pass = 1;
                    st->priority = (uint8_t)(p ^ 1);
                }
                break;
            }
            ask(st, SORC_P_EVENT, p);
            return;
        }
        case SORC_S_EVENT_FINISH:
            /* I-17: the activated card reaches the discard pile last. */
            if (st->ea_card != SORC_NONE) {
                sorc__discard(st, st->ea_card);
                st->ea_card = SORC_NONE;
            }
            st->last_pass = 0;
            if (st->skip_duel) {
                st->stage = SORC_S_END;
            } else {
                st->priority = (uint8_t)(st->ea_side ^ 1);
                st->stage = SORC_S_EVENT_PRIORITY;
            }
            break;
        case SORC_S_ENCOUNTER: {
            /* R-sorcerers-5.4. */
            int asked = 0;
            for (int s = 0; s < 2; s++) {
                combo_reset(&st->combo[s]);
            }
            st->outcome = 0;
            st->revealed = 0;
            /* Hand-to-hand moves stay visible until the next encounter. */
            st->nxfer = 0;
            memset(st->xfer_card, 0, sizeof(st->xfer_card));
            memset(st->xfer_from, 0, sizeof(st->xfer_from));
            st->duel_on = 0;
            st->margin = 0;
            st->protected_ = 0;
            if (sorc__count_side(st, SORC_MER) == 0 || sorc__count_side(st, SORC_MOR) == 0) {
                /* I-23: no sorcerer, no duel. */
                st->outcome = 4;
                sorc__log(st, "no_encounter", "No encounter: a side has no sorcerer.");
                st->stage = SORC_S_END;
                break;
            }
            for (int s = 0; s < 2; s++) {
                int n = sorc__count_side(st, s);
                int r = n > 1 ? (int)game_rng_below(&st->rng, (uint32_t)n) : 0;
                st->combo[s].pick = nth_own(st, s, r);
                st->combo[s].final = st->combo[s].pick;
            }
            for (int s = 0; s < 2; s++) {
                st->combo[s].asked =
                    sorc__count_side(st, s) >= 2 && (st->nhand[s] > 0 || other_ftf(st, s));
                asked |= st->combo[s].asked;
            }
            sorc__log(st, "encounter_picks", "Encounter: %s picks %s, %s picks %s.",
                      sorc__name(st, SORC_MER), cname(st->combo[0].pick), sorc__name(st, SORC_MOR),
                      cname(st->combo[1].pick));
            st->stage = SORC_S_ENCOUNTER_RESOLVE;
            if (asked && ask_sealed(st, SORC_P_ENCOUNTER)) {
                return;
            }
            break;
        }
        case SORC_S_ENCOUNTER_RESOLVE:
            for (int s = 0; s < 2; s++) {
                struct sorc_combo *k = &st->combo[s];
                if (k->enc_choice == SORC_ENC_MARTYR) {
                    sorc__hand_take(st, s, SORC_MARTYR);
                    sorc__discard(st, SORC_MARTYR);
                    st->inplay[sorc__find_inplay(st, k->enc_sorc)].ftf_temp = 1;
                }
                if (k->enc_choice != SORC_ENC_KEEP) {
                    k->final = k->enc_sorc;
                    if (k->enc_choice == SORC_ENC_MARTYR) {
                        sorc__log(st, "puts_forward_martyr", "%s puts %s forward with Martyr.",
                                  sorc__name(st, s), cname(k->final));
                    } else {
                        sorc__log(st, "puts_forward", "%s puts %s forward.", sorc__name(st, s),
                                  cname(k->final));
                    }
                }
            }
            /* I-22: triggers of the final sorcerers, MER's first. */
            for (int s = 0; s < 2; s++) {
                int ip = sorc__find_inplay(st, st->combo[s].final);
                if (sorc__has_kw(st, ip, SORC_K_EXPERIENCE)) {
                    sorc__draw(st, s, sorc_cards[st->combo[s].final].draw);
                    sorc__log(st, "experience_draws", "Experience: %s draws 2 cards.",
                              sorc__name(st, s));
                }
                if (sorc__has_kw(st, ip, SORC_K_INNOCENT) && st->nhand[s ^ 1] > 0) {
                    int n = st->nhand[s ^ 1];
                    int r = n > 1 ? (int)game_rng_below(&st->rng, (uint32_t)n) : 0;
                    uint8_t c = st->hand[s ^ 1][r];
                    sorc__hand_take(st, s ^ 1, c);
                    sorc__discard(st, c);
                    sorc__log(st, "innocent_discards", "Innocent: %s discards %s at random.",
                              sorc__name(st, s ^ 1), cname(c));
                }
            }
            st->stage = SORC_S_COMBO;
            break;
        case SORC_S_COMBO:
            /* R-sorcerers-5.5.1. */
            st->duel_on = 1;
            for (int s = 0; s < 2; s++) {
                struct sorc_combo *k = &st->combo[s];
                memset(k->slot, SORC_NONE, sizeof(k->slot));
                k->steps = 0;
                k->namp = 0;
                k->asked = st->nhand[s] > 0 || sorc__can_betray(st, s);
            }
            st->stage = SORC_S_REVEAL;
            if (ask_sealed(st, SORC_P_DUEL_COMBO)) {
                return;
            }
            break;
        case SORC_S_REVEAL:
            /* R-sorcerers-5.5.2 steps 1-2. */
            st->revealed = 1;
            for (int s = 0; s < 2; s++) {
                struct sorc_combo *k = &st->combo[s];
                for (int slot = SORC_SLOT_SPELL; slot <= SORC_SLOT_AMP2; slot++) {
                    if (k->slot[slot] != SORC_NONE) {
                        sorc__hand_take(st, s, k->slot[slot]);
                    }
                }
                log_reveal(st, s);
            }
            for (int s = 0; s < 2; s++) {
                struct sorc_combo *k = &st->combo[s];
                if (k->betray != SORC_NONE) {
                    move_all_objects(st, k->betray, k->final);
                    sorc__remove(st, k->betray);
                    k->betrayed = 1;
                    sorc__log(st, "betrays", "%s betrays %s.", cname(k->final), cname(k->betray));
                }
            }
            st->clear_side = 0;
            st->stage = SORC_S_CLEAR_MIND;
            if (check_overflow(st)) {
                return;
            }
            break;
        case SORC_S_CLEAR_MIND:
            /* R-sorcerers-5.5.2 step 3 (I-27). */
            while (st->clear_side < 2) {
                int s = st->clear_side++;
                int has = 0;
                for (int slot = SORC_SLOT_AMP0; slot <= SORC_SLOT_AMP2; slot++) {
                    has |= sorc__slot_has(st, s, slot, SORC_K_DISCARD_FOR_POWER);
                }
                if (has && st->nhand[s] > 0) {
                    ask(st, SORC_P_DUEL_CLEAR_MIND, s);
                    return;
                }
            }
            st->stage = SORC_S_NEGATE;
            break;
        case SORC_S_NEGATE:
            /* R-sorcerers-5.5.2 step 4 (I-26). */
            for (int s = 0; s < 2; s++) {
                st->combo[s].asked = sorc__negator_has_target(st, s, SORC_SLOT_SPELL) ||
                                     sorc__negator_has_target(st, s, SORC_SLOT_EVENT);
                st->combo[s].neg_target[0] = SORC_NONE;
                st->combo[s].neg_target[1] = SORC_NONE;
            }
            st->stage = SORC_S_NEGATE_APPLY;
            if (ask_sealed(st, SORC_P_DUEL_NEGATE)) {
                return;
            }
            st->stage = SORC_S_DRAIN;
            break;
        case SORC_S_NEGATE_APPLY:
            for (int s = 0; s < 2; s++) {
                struct sorc_combo *o = &st->combo[s ^ 1];
                for (int n = 0; n < 2; n++) {
                    uint8_t t = st->combo[s].neg_target[n];
                    for (int slot = SORC_SLOT_SPELL; t != SORC_NONE && slot <= SORC_SLOT_AMP2;
                         slot++) {
                        if (o->slot[slot] == t) {
                            o->negated[slot] = 1;
                            sorc__log(st, "negates", "%s negates %s.", sorc__name(st, s), cname(t));
                        }
                    }
                }
            }
            /* I-47: negated cards reach the pile MER's first, in slot order. */
            for (int s = 0; s < 2; s++) {
                for (int slot = SORC_SLOT_SPELL; slot <= SORC_SLOT_AMP2; slot++) {
                    if (st->combo[s].negated[slot]) {
                        sorc__discard(st, st->combo[s].slot[slot]);
                    }
                }
            }
            st->stage = SORC_S_DRAIN;
            break;
        case SORC_S_DRAIN:
            /* R-sorcerers-5.5.2 step 5 (I-29). */
            for (int s = 0; s < 2; s++) {
                if (sorc__slot_has(st, s, SORC_SLOT_SPELL, SORC_K_DRAIN)) {
                    int cnt = sorc_cards[st->combo[s].slot[SORC_SLOT_SPELL]].count;
                    for (int i = 0; i < cnt && st->nhand[s ^ 1] > 0; i++) {
                        int n = st->nhand[s ^ 1];
                        int r = n > 1 ? (int)game_rng_below(&st->rng, (uint32_t)n) : 0;
                        uint8_t c = st->hand[s ^ 1][r];
                        sorc__hand_take(st, s ^ 1, c);
                        sorc__hand_add(st, s, c);
                        xfer(st, c, s ^ 1);
                        sorc__log(st, "drain_takes", "Drain: %s takes 1 card from %s's hand.",
                                  sorc__name(st, s), sorc__name(st, s ^ 1));
                    }
                }
            }
            st->stage = SORC_S_DEFENSE;
            break;
        case SORC_S_DEFENSE:
            /* R-sorcerers-5.5.4. */
            sorc__totals(st);
            for (int s = 0; s < 2; s++) {
                st->combo[s].asked = st->nhand[s] > 0;
                st->combo[s].def_card = SORC_NONE;
            }
            st->stage = SORC_S_DEFENSE_APPLY;
            if (ask_sealed(st, SORC_P_DUEL_DEFENSE)) {
                return;
            }
            st->stage = SORC_S_OUTCOME;
            break;
        case SORC_S_DEFENSE_APPLY:
            for (int s = 0; s < 2; s++) {
                uint8_t d = st->combo[s].def_card;
                if (d != SORC_NONE) {
                    sorc__hand_take(st, s, d);
                    st->combo[s].slot[SORC_SLOT_DEFENSE] = d;
                    st->combo[s ^ 1].negated[SORC_SLOT_SPELL] = 1;
                    sorc__log(st, "plays_defense", "%s plays %s on %s.", sorc__name(st, s),
                              cname(d), cname(st->combo[s ^ 1].slot[SORC_SLOT_SPELL]));
                }
            }
            for (int s = 0; s < 2; s++) {
                if (st->combo[s ^ 1].def_card != SORC_NONE) {
                    sorc__discard(st, st->combo[s].slot[SORC_SLOT_SPELL]);
                }
            }
            st->stage = SORC_S_OUTCOME;
            break;
        case SORC_S_OUTCOME:
            if (outcome(st)) {
                return;
            }
            break;
        case SORC_S_RESULT: {
            /* R-sorcerers-5.5.7 step 1 (I-38). */
            int w = st->winner;
            st->stage = SORC_S_RESULT_REMOVE;
            if (!st->protected_) {
                move_all_objects(st, st->combo[w ^ 1].final, st->combo[w].final);
                if (check_overflow(st)) {
                    return;
                }
            }
            break;
        }
        case SORC_S_RESULT_REMOVE: {
            int w = st->winner;
            uint8_t loser = st->combo[w ^ 1].final;
            int lip = sorc__find_inplay(st, loser);
            int wip;
            if (!st->protected_ && lip >= 0) {
                if (sorc__has_kw(st, lip, SORC_K_HARD_TO_KILL) &&
                    st->margin < sorc_cards[loser].margin) {
                    sorc__log(st, "hard_to_kill", "%s is hard to kill and stays in play.",
                              cname(loser));
                } else {
                    sorc__remove(st, loser);
                }
            }
            /* Step 2: Charlatan (I-37: also when protected). */
            if (sorc_cards[loser].kw & SORC_K_CHARLATAN) {
                while (st->nhand[w] > 0) {
                    uint8_t c = st->hand[w][0];
                    sorc__hand_take(st, w, c);
                    sorc__discard(st, c);
                }
                sorc__log(st, "charlatan_discards", "Charlatan: %s discards the whole hand.",
                          sorc__name(st, w));
            }
            /* Step 3: steals. */
            wip = sorc__find_inplay(st, st->combo[w].final);
            st->steal_left = 1;
            if (wip >= 0 && sorc__has_kw(st, wip, SORC_K_INQUISITION)) {
                st->steal_left = (uint8_t)(1 + sorc_cards[st->combo[w].final].steals);
            }
            st->stage = SORC_S_STEAL;
            break;
        }
        case SORC_S_STEAL:
            if (st->steal_left > 0 && st->nhand[st->winner ^ 1] > 0) {
                ask(st, SORC_P_DUEL_STEAL, st->winner);
                return;
            }
            st->stage = SORC_S_CLEANUP;
            break;
        case SORC_S_CLEANUP:
            /* R-sorcerers-5.5.8. */
            for (int s = 0; s < 2; s++) {
                for (int slot = 0; slot < SORC_NSLOTS; slot++) {
                    if (st->combo[s].slot[slot] != SORC_NONE && !st->combo[s].negated[slot]) {
                        sorc__discard(st, st->combo[s].slot[slot]);
                    }
                }
            }
            st->duel_on = 0;
            st->stage = SORC_S_END;
            break;
        case SORC_S_END:
            /* R-sorcerers-5.6 step 1. */
            st->stage = SORC_S_VICTORY;
            for (int s = 0; s < 2; s++) {
                st->act[s] = st->nhand[s] > sorc__hand_limit(st, s);
            }
            if (st->act[0] || st->act[1]) {
                st->phase = SORC_P_END_DISCARD;
                return;
            }
            break;
        case SORC_S_VICTORY:
            if (!victory(st)) {
                next_turn(st);
            }
            break;
        default:
            st->over = 1;
            break;
        }
    }
}

/* ---- Action handlers ---- */

/* Accepted action types per phase (spec 4.5). */
static int accepts(int phase, int type)
{
    switch (phase) {
    case SORC_P_LORE_FAUST:
        return type == SORC_A_DEAL || type == SORC_A_DONE;
    case SORC_P_RECRUIT:
        return type == SORC_A_RECRUIT || type == SORC_A_EQUIP || type == SORC_A_MOVE_OBJECT ||
               type == SORC_A_DISCARD_OBJECT || type == SORC_A_DONE;
    case SORC_P_EVENT:
        return type == SORC_A_ACTIVATE || type == SORC_A_PASS;
    case SORC_P_EVENT_TRACK:
        return type == SORC_A_TRACK;
    case SORC_P_EVENT_DISCARD:
    case SORC_P_END_DISCARD:
        return type == SORC_A_DISCARD;
    case SORC_P_ENCOUNTER:
        return type == SORC_A_ENCOUNTER;
    case SORC_P_DUEL_COMBO:
        return type == SORC_A_COMBO_SPELL || type == SORC_A_COMBO_EVENT ||
               type == SORC_A_COMBO_AMP || type == SORC_A_COMBO_DECLARE;
    case SORC_P_DUEL_CLEAR_MIND:
        return type == SORC_A_CLEAR_MIND || type == SORC_A_DONE;
    case SORC_P_DUEL_NEGATE:
        return type == SORC_A_NEGATE;
    case SORC_P_DUEL_DEFENSE:
        return type == SORC_A_DEFENSE || type == SORC_A_PASS;
    case SORC_P_DUEL_PROTECT:
        return type == SORC_A_PROTECT || type == SORC_A_PASS;
    case SORC_P_DUEL_STEAL:
        return type == SORC_A_STEAL;
    case SORC_P_OBJECT_OVERFLOW:
        return type == SORC_A_DISCARD_OBJECT;
    case SORC_P_GRIMHOLD_PLACE:
        return type == SORC_A_PLACE_GRIMHOLD;
    default:
        return 0;
    }
}

/* Marks a sealed submission of `side` complete; runs on when all are in. */
static void sealed_done(struct sorc_state *st, int side)
{
    st->combo[side].submitted = 1;
    st->act[side] = 0;
    if (!st->act[0] && !st->act[1]) {
        sorc__run(st);
    }
}

#define REFUSE(rule, token, ...) refuse(err, rule, token, __VA_ARGS__)

static int do_recruit(struct sorc_state *st, int side, const struct sorc_action *a,
                      struct game_error *err)
{
    switch (a->type) {
    case SORC_A_RECRUIT: {
        uint8_t c = a->card;
        int grim = sorc__grim_carrier(st);
        if (sorc__hand_index(st, side, c) < 0) {
            return REFUSE("5.2", "card_not_in_hand", "%s is not in your hand", cname(c));
        }
        if (!sorc__is_sorcerer(c)) {
            return REFUSE("5.2", "not_a_sorcerer", "%s is not a sorcerer", cname(c));
        }
        if (sorc__controller(c) != side) {
            return REFUSE("5.2", "wrong_faction", "you may recruit only %s sorcerers",
                          side == SORC_MER ? "Merlinian" : "Morganian");
        }
        if (st->recruited) {
            return REFUSE("5.2", "one_recruit",
                          "you may recruit only one sorcerer per Recruit step");
        }
        if ((sorc_cards[c].kw & SORC_K_GRIMHOLD_GATE) && !st->gate_done[c] && !st->grim_loose &&
            (grim < 0 || sorc__controller(st->inplay[grim].card) != side)) {
            return REFUSE("2.6", "grimhold_gate",
                          "the first recruit of %s needs the Grimhold on one of your sorcerers",
                          cname(c));
        }
        sorc__hand_take(st, side, c);
        sorc__enter_play(st, c);
        if (sorc_cards[c].kw & SORC_K_GRIMHOLD_GATE) {
            st->gate_done[c] = 1;
        }
        st->recruited = 1;
        sorc__log(st, "recruits", "%s recruits %s.", sorc__name(st, side), cname(c));
        return GAME_OK;
    }
    case SORC_A_EQUIP:
        if (sorc__hand_index(st, side, a->card) < 0) {
            return REFUSE("5.2", "card_not_in_hand", "%s is not in your hand", cname(a->card));
        }
        if (sorc_cards[a->card].type != SORC_T_OBJECT) {
            return REFUSE("5.2", "not_an_object", "%s is not an object", cname(a->card));
        }
        if (!own_inplay(st, side, a->to)) {
            return REFUSE("5.2", "not_your_sorcerer", "%s is not a sorcerer you control in play",
                          cname(a->to));
        }
        sorc__hand_take(st, side, a->card);
        sorc__attach(st, sorc__find_inplay(st, a->to), a->card);
        sorc__log(st, "equips", "%s equips %s with %s.", sorc__name(st, side), cname(a->to),
                  cname(a->card));
        return GAME_OK;
    case SORC_A_MOVE_OBJECT: {
        int ip;
        if (!own_object(st, side, a->object)) {
            return REFUSE("5.2", "not_your_object", "%s is not on one of your sorcerers",
                          cname(a->object));
        }
        if (!own_inplay(st, side, a->to)) {
            return REFUSE("5.2", "not_your_sorcerer", "%s is not a sorcerer you control in play",
                          cname(a->to));
        }
        if (st->moved[a->object]) {
            return REFUSE("5.2", "object_moved", "%s was already moved in this Recruit step",
                          cname(a->object));
        }
        ip = sorc__carrier(st, a->object, NULL);
        if (st->inplay[ip].card == a->to) {
            return REFUSE("5.2", "same_sorcerer", "%s already carries %s", cname(a->to),
                          cname(a->object));
        }
        sorc__detach(st, a->object);
        sorc__attach(st, sorc__find_inplay(st, a->to), a->object);
        st->moved[a->object] = 1;
        sorc__log(st, "moves_object", "%s moves %s to %s.", sorc__name(st, side), cname(a->object),
                  cname(a->to));
        return GAME_OK;
    }
    case SORC_A_DISCARD_OBJECT: {
        int ip;
        if (!own_object(st, side, a->object)) {
            return REFUSE("5.2", "not_your_object", "%s is not on one of your sorcerers",
                          cname(a->object));
        }
        if (a->object == SORC_GRIMHOLD) {
            return REFUSE("2.5", "grimhold_indestructible", "the Grimhold can never be discarded");
        }
        ip = sorc__carrier(st, a->object, NULL);
        if (st->inplay[ip].nobj <= 3) {
            return REFUSE("2.4", "object_limit",
                          "%s carries no more than three objects, so nothing may be dropped",
                          cname(st->inplay[ip].card));
        }
        sorc__detach(st, a->object);
        sorc__discard(st, a->object);
        sorc__log(st, "discards", "%s discards %s.", sorc__name(st, side), cname(a->object));
        return GAME_OK;
    }
    case SORC_A_DONE:
        for (int i = 0; i < st->ninplay; i++) {
            if (sorc__controller(st->inplay[i].card) == side && st->inplay[i].nobj > 3) {
                return REFUSE("2.4", "object_limit",
                              "%s carries more than three objects; discard or move one first",
                              cname(st->inplay[i].card));
            }
        }
        st->act[side] = 0;
        sorc__run(st);
        return GAME_OK;
    default:
        return REFUSE("4.5", "wrong_phase", "that action is not accepted in the %s state",
                      sorc__phase_name(st->phase));
    }
}

/* 1 when `card` matches a Track/Find `what`. */
static int matches(uint8_t card, int what)
{
    if (what == SORC_WHAT_SORCERER) {
        return sorc__is_sorcerer(card);
    }
    if (what == SORC_WHAT_OBJECT) {
        return sorc_cards[card].type == SORC_T_OBJECT;
    }
    return 1;
}

static int do_activate(struct sorc_state *st, int side, const struct sorc_action *a,
                       struct game_error *err)
{
    uint8_t c = a->card;
    const struct sorc_card *cd;
    int opp = side ^ 1;
    int decision = 0;

    if (sorc__hand_index(st, side, c) < 0) {
        return REFUSE("5.3", "card_not_in_hand", "%s is not in your hand", cname(c));
    }
    cd = &sorc_cards[c];
    if (!(cd->kw & SORC_K_EA)) {
        return REFUSE("5.3", "no_event_ability", "%s has no Event Ability", cname(c));
    }
    if (st->ea_used[c]) {
        return REFUSE("5.3", "ea_used", "%s was already activated in this Event phase (I-44)",
                      cname(c));
    }
    switch (cd->ea) {
    case SORC_EA_UP_IN_SMOKE:
        if (a->target == SORC_GRIMHOLD) {
            return REFUSE("2.5", "grimhold_indestructible", "the Grimhold cannot be destroyed");
        }
        if (a->target == SORC_NONE || sorc__carrier(st, a->target, NULL) < 0) {
            return REFUSE("5.3", "no_legal_target", "%s needs an object in play as its target",
                          cname(c));
        }
        break;
    case SORC_EA_FIND: {
        int found = 0;
        for (int i = 0; i < st->ndiscard; i++) {
            found |= st->discard[i] == a->target;
        }
        if (a->target == SORC_NONE || !found || !matches(a->target, cd->ea_what)) {
            return REFUSE("5.3", "no_legal_target",
                          "%s needs a matching card in the discard pile as its target", cname(c));
        }
        break;
    }
    case SORC_EA_STEAL_OBJECT:
        if (!own_object(st, opp, a->target)) {
            return REFUSE("5.3", "no_legal_target",
                          "%s needs an object on an opponent's sorcerer as its target", cname(c));
        }
        if (!own_inplay(st, side, a->to)) {
            return REFUSE("5.3", "not_your_sorcerer", "%s is not a sorcerer you control in play",
                          cname(a->to));
        }
        break;
    default:
        break;
    }
    sorc__hand_take(st, side, c);
    st->ea_card = c;
    st->ea_side = (uint8_t)side;
    st->ea_used[c] = 1;
    st->stage = SORC_S_EVENT_FINISH;
    sorc__log(st, "activates", "%s activates %s.", sorc__name(st, side), cname(c));
    switch (cd->ea) {
    case SORC_EA_SCRY:
        st->scry_n[side] = st->nhand[opp];
        memcpy(st->scry[side], st->hand[opp], SORC_NCARDS);
        break;
    case SORC_EA_DRAW:
        sorc__draw(st, side, cd->count);
        break;
    case SORC_EA_DIVINATION: {
        int n = st->ndeck < cd->count ? st->ndeck : cd->count;
        memset(st->div[side], 0, sizeof(st->div[side]));
        for (int i = 0; i < n && i < SORC_DIVINATION; i++) {
            st->div[side][i] = st->deck[st->ndeck - 1 - i];
        }
        st->div_n[side] = (uint8_t)n;
        break;
    }
    case SORC_EA_TRACK:
        if (st->ndeck > 0) {
            ask(st, SORC_P_EVENT_TRACK, side);
            decision = 1;
        }
        break;
    case SORC_EA_FIND:
        for (int i = 0; i < st->ndiscard; i++) {
            if (st->discard[i] == a->target) {
                memmove(&st->discard[i], &st->discard[i + 1], (size_t)(st->ndiscard - i - 1));
                st->ndiscard--;
                st->discard[st->ndiscard] = 0;
                break;
            }
        }
        sorc__hand_add(st, side, a->target);
        sorc__log(st, "takes_from_discard", "%s takes %s from the discard pile.",
                  sorc__name(st, side), cname(a->target));
        break;
    case SORC_EA_OPP_DISCARDS:
        if (st->nhand[opp] > 0) {
            st->discard_left = (uint8_t)cd->count;
            ask(st, SORC_P_EVENT_DISCARD, opp);
            decision = 1;
        }
        break;
    case SORC_EA_STEAL_OBJECT:
        sorc__detach(st, a->target);
        sorc__attach(st, sorc__find_inplay(st, a->to), a->target);
        sorc__log(st, "takes_object", "%s takes %s onto %s.", sorc__name(st, side),
                  cname(a->target), cname(a->to));
        decision = check_overflow(st);
        break;
    case SORC_EA_SKIP:
        st->skip_duel = 1;
        break;
    case SORC_EA_UP_IN_SMOKE:
        sorc__detach(st, a->target);
        sorc__discard(st, a->target);
        sorc__log(st, "up_in_smoke", "%s goes up in smoke.", cname(a->target));
        break;
    default:
        break;
    }
    if (!decision) {
        st->act[side] = 0;
        sorc__run(st);
    }
    return GAME_OK;
}

static int do_encounter(struct sorc_state *st, int side, const struct sorc_action *a,
                        struct game_error *err)
{
    struct sorc_combo *k = &st->combo[side];
    uint8_t s = a->sorcerer;

    if (a->choice != SORC_ENC_KEEP) {
        if (!own_inplay(st, side, s)) {
            return REFUSE("5.4", "not_your_sorcerer", "%s is not a sorcerer you control in play",
                          cname(s));
        }
        if (a->choice == SORC_ENC_FTF &&
            !sorc__has_kw(st, sorc__find_inplay(st, s), SORC_K_FIRST_TO_FIGHT)) {
            return REFUSE("5.4", "not_first_to_fight", "%s does not have First to Fight", cname(s));
        }
        if (a->choice == SORC_ENC_MARTYR && sorc__hand_index(st, side, SORC_MARTYR) < 0) {
            return REFUSE("5.4", "no_martyr", "Martyr is not in your hand");
        }
        if (s == k->pick) {
            return REFUSE("5.4", "same_sorcerer", "%s is already your encounter pick", cname(s));
        }
    }
    k->enc_choice = a->choice;
    k->enc_sorc = a->choice == SORC_ENC_KEEP ? SORC_NONE : s;
    sealed_done(st, side);
    return GAME_OK;
}

static int do_combo(struct sorc_state *st, int side, const struct sorc_action *a,
                    struct game_error *err)
{
    struct sorc_combo *k = &st->combo[side];
    int ip = sorc__find_inplay(st, k->final);
    int want;
    uint8_t c = a->card;

    want = k->steps == 0   ? SORC_A_COMBO_SPELL
           : k->steps == 1 ? SORC_A_COMBO_EVENT
           : k->steps < 5  ? SORC_A_COMBO_AMP
                           : SORC_A_COMBO_DECLARE;
    if (a->type != want) {
        return REFUSE("5.5.1", "step_order",
                      "the combo is built in order: spell, event, three "
                      "amplifier steps, then the declaration");
    }
    if (a->type == SORC_A_COMBO_DECLARE) {
        if (a->sacrifice && !sorc__slot_has(st, side, SORC_SLOT_EVENT, SORC_K_SACRIFICE) &&
            !(k->slot[SORC_SLOT_SPELL] != SORC_NONE &&
              sorc_cards[k->slot[SORC_SLOT_SPELL]].type == SORC_T_SPELL &&
              (sorc_cards[k->slot[SORC_SLOT_SPELL]].kw & SORC_K_SACRIFICE))) {
            return REFUSE("5.5.1", "no_sacrifice_card",
                          "Sacrifice needs Heroics as your event or Chinese Urn or Capture Soul "
                          "as your spell");
        }
        if (a->betray != SORC_NONE) {
            if (ip < 0 || !sorc__has_kw(st, ip, SORC_K_BETRAYER)) {
                return REFUSE("5.5.1", "not_betrayer", "%s is not a Betrayer", cname(k->final));
            }
            if (!own_inplay(st, side, a->betray) || a->betray == k->final ||
                a->betray == sorc_cards[k->final].betrayer_exclude) {
                return REFUSE("5.5.1", "betrayer_target",
                              "%s may betray only another of your sorcerers, never Morgan Le Fay",
                              cname(k->final));
            }
        }
        k->sacrifice = a->sacrifice;
        k->betray = a->betray;
        k->steps = 6;
        sorc__log(st, "combo_sealed", "%s has sealed the attack combo.", sorc__name(st, side));
        sealed_done(st, side);
        return GAME_OK;
    }
    if (c != SORC_NONE) {
        const struct sorc_card *cd = &sorc_cards[c];
        int ok;
        if (sorc__hand_index(st, side, c) < 0) {
            return REFUSE("5.5.1", "card_not_in_hand", "%s is not in your hand", cname(c));
        }
        for (int s = 0; s <= SORC_SLOT_AMP2; s++) {
            if (k->slot[s] == c) {
                return REFUSE("5.5.1", "duplicate_card", "%s is already in your combo", cname(c));
            }
        }
        if (a->type == SORC_A_COMBO_SPELL) {
            ok = cd->type == SORC_T_SPELL ||
                 (cd->type == SORC_T_AMP && ip >= 0 && sorc__has_kw(st, ip, SORC_K_ILLUSIONIST));
        } else if (a->type == SORC_A_COMBO_EVENT) {
            ok = cd->type == SORC_T_EVENT;
        } else {
            ok = cd->type == SORC_T_AMP || cd->use_as_power >= 0 ||
                 (cd->type == SORC_T_SPELL && ip >= 0 && sorc__has_kw(st, ip, SORC_K_REPURPOSE));
        }
        if (!ok) {
            return REFUSE("5.5.1", "slot_type", "%s cannot be used in that slot", cname(c));
        }
        if ((cd->kw & SORC_K_FACTION_ONLY) &&
            cd->faction_only != (side == SORC_MER ? SORC_T_MER : SORC_T_MOR)) {
            return REFUSE("5.5.1", "faction_only", "%s can only be used by %s", cname(c),
                          cd->faction_only == SORC_T_MER ? "Merlinians" : "Morganians");
        }
        if (a->type == SORC_A_COMBO_AMP && k->slot[SORC_SLOT_SPELL] == SORC_NONE) {
            return REFUSE("5.5.1", "amplifier_needs_spell",
                          "amplifiers may be played only with a spell");
        }
    }
    if (a->type == SORC_A_COMBO_SPELL) {
        k->slot[SORC_SLOT_SPELL] = c;
    } else if (a->type == SORC_A_COMBO_EVENT) {
        k->slot[SORC_SLOT_EVENT] = c;
    } else if (c != SORC_NONE) {
        k->slot[SORC_SLOT_AMP0 + k->namp++] = c;
    }
    k->steps++;
    return GAME_OK;
}

static int do_negate(struct sorc_state *st, int side, const struct sorc_action *a,
                     struct game_error *err)
{
    struct sorc_combo *k = &st->combo[side];
    int slots[2];
    int n = 0;

    if (sorc__negator_has_target(st, side, SORC_SLOT_SPELL)) {
        slots[n++] = SORC_SLOT_SPELL;
    }
    if (sorc__negator_has_target(st, side, SORC_SLOT_EVENT)) {
        slots[n++] = SORC_SLOT_EVENT;
    }
    if (a->nchoices == 2 && n == 2 && a->ch_card[0] == k->slot[slots[1]] &&
        a->ch_card[1] == k->slot[slots[0]]) {
        return game_error_set(err, GAME_E_BAD_ACTION,
                              "R-sorcerers-5.5.2: list the negation choices in slot order");
    }
    if (a->nchoices != n) {
        return REFUSE("5.5.2", "missing_choice",
                      "send exactly one choice for each of your reveal negators with a target");
    }
    for (int i = 0; i < n; i++) {
        if (a->ch_card[i] != k->slot[slots[i]]) {
            return REFUSE("5.5.2", "missing_choice",
                          "send exactly one choice for each of your reveal negators with a "
                          "target, in slot order");
        }
        if (a->ch_target[i] != SORC_NONE &&
            !sorc__negate_target_ok(st, side, slots[i], a->ch_target[i])) {
            return REFUSE("5.5.2", "illegal_negate_target", "%s cannot negate %s",
                          cname(a->ch_card[i]), cname(a->ch_target[i]));
        }
    }
    for (int i = 0; i < n; i++) {
        k->neg_target[slots[i] == SORC_SLOT_SPELL ? 0 : 1] = a->ch_target[i];
    }
    sealed_done(st, side);
    return GAME_OK;
}

/* 1 when defense card `d` of `side` may target the opposing spell `t`. */
int sorc__defense_ok(const struct sorc_state *st, int side, uint8_t d, uint8_t t)
{
    const struct sorc_combo *o = &st->combo[side ^ 1];
    uint8_t sp = o->slot[SORC_SLOT_SPELL];

    return t != SORC_NONE && sp == t && !o->negated[SORC_SLOT_SPELL] &&
           sorc_cards[sp].type == SORC_T_SPELL &&
           (sorc_cards[sp].classes & sorc_cards[d].negate_class);
}

/* 1 when `d` is a Defense negation card. */
int sorc__is_defense_negator(uint8_t d)
{
    return d < SORC_NCARDS && sorc_cards[d].type == SORC_T_DEFENSE &&
           (sorc_cards[d].kw & SORC_K_NEGATE) && sorc_cards[d].negate_timing == SORC_TIMING_DEFENSE;
}

/* Validates and applies one action; see sorc.h. */
int sorc__rules_apply(struct sorc_state *st, int seat, const struct sorc_action *a,
                      struct game_error *err)
{
    int side = sorc__side(st, seat);
    int opp = side ^ 1;

    if (!accepts(st->phase, a->type)) {
        return REFUSE("4.5", "wrong_phase", "that action is not accepted in the %s state",
                      sorc__phase_name(st->phase));
    }
    switch (st->phase) {
    case SORC_P_LORE_FAUST:
        if (a->type == SORC_A_DEAL) {
            if (sorc__hand_take(st, side, a->card) < 0) {
                return REFUSE("5.1", "card_not_in_hand", "%s is not in your hand", cname(a->card));
            }
            sorc__discard(st, a->card);
            st->faust_dealt++;
            sorc__log(st, "deals_to_devil", "%s deals %s to the Devil.", sorc__name(st, side),
                      cname(a->card));
            return GAME_OK;
        }
        sorc__draw(st, side, st->faust_dealt);
        sorc__log(st, "devil_draws", "%s draws %d card(s) from the Deal with the Devil.",
                  sorc__name(st, side), st->faust_dealt);
        st->act[side] = 0;
        sorc__run(st);
        return GAME_OK;
    case SORC_P_RECRUIT:
        return do_recruit(st, side, a, err);
    case SORC_P_EVENT:
        if (a->type == SORC_A_PASS) {
            sorc__log(st, "passes", "%s passes.", sorc__name(st, side));
            st->act[side] = 0;
            if (st->last_pass) {
                st->stage = SORC_S_ENCOUNTER;
            } else {
                st->last_pass = 1;
                st->priority = (uint8_t)opp;
            }
            sorc__run(st);
            return GAME_OK;
        }
        return do_activate(st, side, a, err);
    case SORC_P_EVENT_TRACK:
        if (a->card != SORC_NONE) {
            int at = -1;
            for (int i = 0; i < st->ndeck; i++) {
                if (st->deck[i] == a->card) {
                    at = i;
                }
            }
            if (at < 0) {
                return REFUSE("5.3", "not_in_deck", "%s is not in the deck", cname(a->card));
            }
            if (!matches(a->card, sorc_cards[st->ea_card].ea_what)) {
                return REFUSE("5.3", "wrong_card_type", "%s may track only a sorcerer",
                              cname(st->ea_card));
            }
            memmove(&st->deck[at], &st->deck[at + 1], (size_t)(st->ndeck - at - 1));
            st->ndeck--;
            st->deck[st->ndeck] = 0;
            sorc__hand_add(st, side, a->card);
            st->tracked[side] = a->card;
        }
        sorc__shuffle_deck(st);
        if (a->card != SORC_NONE) {
            sorc__log(st, "tracked_card", "%s tracked a card.", sorc__name(st, side));
        } else {
            sorc__log(st, "tracked_nothing", "%s tracked nothing.", sorc__name(st, side));
        }
        st->act[side] = 0;
        sorc__run(st);
        return GAME_OK;
    case SORC_P_EVENT_DISCARD:
    case SORC_P_END_DISCARD:
        if (sorc__hand_take(st, side, a->card) < 0) {
            return REFUSE(st->phase == SORC_P_END_DISCARD ? "5.6" : "5.3", "card_not_in_hand",
                          "%s is not in your hand", cname(a->card));
        }
        sorc__discard(st, a->card);
        sorc__log(st, "discards", "%s discards %s.", sorc__name(st, side), cname(a->card));
        if (st->phase == SORC_P_EVENT_DISCARD) {
            st->discard_left--;
            if (st->discard_left == 0 || st->nhand[side] == 0) {
                st->act[side] = 0;
                sorc__run(st);
            }
        } else {
            st->act[side] = st->nhand[side] > sorc__hand_limit(st, side);
            if (!st->act[0] && !st->act[1]) {
                sorc__run(st);
            }
        }
        return GAME_OK;
    case SORC_P_ENCOUNTER:
        return do_encounter(st, side, a, err);
    case SORC_P_DUEL_COMBO:
        return do_combo(st, side, a, err);
    case SORC_P_DUEL_CLEAR_MIND:
        if (a->type == SORC_A_CLEAR_MIND) {
            if (sorc__hand_take(st, side, a->card) < 0) {
                return REFUSE("5.5.2", "card_not_in_hand", "%s is not in your hand",
                              cname(a->card));
            }
            sorc__discard(st, a->card);
            st->combo[side].clear_mind++;
            sorc__log(st, "clear_mind_discards", "%s discards %s for Clear your Mind.",
                      sorc__name(st, side), cname(a->card));
            return GAME_OK;
        }
        st->act[side] = 0;
        sorc__run(st);
        return GAME_OK;
    case SORC_P_DUEL_NEGATE:
        return do_negate(st, side, a, err);
    case SORC_P_DUEL_DEFENSE:
        if (a->type == SORC_A_DEFENSE) {
            if (sorc__hand_index(st, side, a->card) < 0) {
                return REFUSE("5.5.4", "card_not_in_hand", "%s is not in your hand",
                              cname(a->card));
            }
            if (!sorc__is_defense_negator(a->card)) {
                return REFUSE("5.5.4", "not_negation_card", "%s is not a Defense negation card",
                              cname(a->card));
            }
            if (!sorc__defense_ok(st, side, a->card, a->target)) {
                return REFUSE("5.5.4", "illegal_negate_target",
                              "%s must target the opposing counting spell of its class",
                              cname(a->card));
            }
            st->combo[side].def_card = a->card;
        }
        sealed_done(st, side);
        return GAME_OK;
    case SORC_P_DUEL_PROTECT:
        if (a->type == SORC_A_PROTECT) {
            if (sorc__hand_index(st, side, a->card) < 0) {
                return REFUSE("5.5.6", "card_not_in_hand", "%s is not in your hand",
                              cname(a->card));
            }
            if (sorc_cards[a->card].type != SORC_T_DEFENSE ||
                !(sorc_cards[a->card].kw & SORC_K_PROTECT)) {
                return REFUSE("5.5.6", "not_protect_card", "%s is not a Protect card",
                              cname(a->card));
            }
            sorc__hand_take(st, side, a->card);
            st->combo[side].slot[SORC_SLOT_PROTECT] = a->card;
            st->protected_ = 1;
            sorc__log(st, "protects", "%s protects %s with %s.", sorc__name(st, side),
                      cname(st->combo[side].final), cname(a->card));
        } else {
            sorc__log(st, "no_protect", "%s does not protect.", sorc__name(st, side));
        }
        st->act[side] = 0;
        sorc__run(st);
        return GAME_OK;
    case SORC_P_DUEL_STEAL:
        if (sorc__hand_take(st, opp, a->card) < 0) {
            return REFUSE("5.5.7", "card_not_in_hand", "%s is not in the loser's hand",
                          cname(a->card));
        }
        sorc__hand_add(st, side, a->card);
        xfer(st, a->card, opp);
        st->steal_left--;
        sorc__log(st, "steals_card", "%s takes 1 card from %s's hand.", sorc__name(st, side),
                  sorc__name(st, opp));
        st->act[side] = 0;
        sorc__run(st);
        return GAME_OK;
    case SORC_P_OBJECT_OVERFLOW: {
        int ov = overloaded(st);
        int ip;
        if (!own_object(st, side, a->object)) {
            return REFUSE("2.4", "not_your_object", "%s is not on one of your sorcerers",
                          cname(a->object));
        }
        if (a->object == SORC_GRIMHOLD) {
            return REFUSE("2.5", "grimhold_indestructible", "the Grimhold can never be discarded");
        }
        ip = sorc__carrier(st, a->object, NULL);
        if (ip != ov) {
            return REFUSE("2.4", "object_limit", "%s is not the sorcerer over the limit",
                          cname(st->inplay[ip].card));
        }
        sorc__detach(st, a->object);
        sorc__discard(st, a->object);
        sorc__log(st, "discards_over_limit", "%s discards %s (object limit).", sorc__name(st, side),
                  cname(a->object));
        st->act[side] = 0;
        if (!check_overflow(st)) {
            sorc__run(st);
        }
        return GAME_OK;
    }
    case SORC_P_GRIMHOLD_PLACE:
        if (!own_inplay(st, side, a->to)) {
            return REFUSE("2.5", "not_your_sorcerer", "%s is not a sorcerer you control in play",
                          cname(a->to));
        }
        st->grim_loose = 0;
        sorc__attach(st, sorc__find_inplay(st, a->to), SORC_GRIMHOLD);
        sorc__log(st, "places_grimhold", "%s places the Grimhold on %s.", sorc__name(st, side),
                  cname(a->to));
        st->act[side] = 0;
        if (!check_overflow(st)) {
            sorc__run(st);
        }
        return GAME_OK;
    default:
        return REFUSE("4.5", "wrong_phase", "nothing can be done now");
    }
}

/* R-sorcerers-4.4: GAME_OK when `seat` has a decision now; else
 * GAME_E_OVER once the game has ended or GAME_E_NOT_TURN, with a message. */
int sorc__may_act(const struct sorc_state *st, int seat, struct game_error *err)
{
    if (st->over) {
        return game_error_set(err, GAME_E_OVER, "R-sorcerers-7: the game is over");
    }
    if (seat < 0 || seat > 1 || !st->act[sorc__side(st, seat)]) {
        return game_error_set(err, GAME_E_NOT_TURN, "R-sorcerers-4.2: it is not your decision now");
    }
    return GAME_OK;
}
