/* SPDX-License-Identifier: MIT */
/*
 * sorc_view.c - builds the JSON view of a Sorcerers state for one seat or a
 * spectator (spec 9). Everything outside "you" is identical for every
 * viewer; private data (a hand, a sealed draft, Scry, Divination, Track,
 * the loser's hand while stealing, hand-to-hand moves) lies only under
 * "you". It must never show the deck order, the generator, or another
 * seat's hand or sealed submission, and never change the state.
 */
#include <string.h>

#include "game.h"
#include "json_util.h"
#include "sorc.h"
#include "sorc_codec.h"

static json_t *cid(uint8_t c)
{
    return c < SORC_NCARDS ? json_string(sorc_cards[c].id) : json_null();
}

static json_t *ids(const uint8_t *cards, int n)
{
    json_t *a = json_array();

    for (int i = 0; a && i < n; i++) {
        if (game_json_push(a, cid(cards[i])) < 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static const char *faction(int side)
{
    return side == SORC_MER ? "merlinian" : "morganian";
}

/* 1 in the sealed states, where the "submitted" flags are public. */
static int sealed_phase(int phase)
{
    return phase == SORC_P_ENCOUNTER || phase == SORC_P_DUEL_COMBO ||
           phase == SORC_P_DUEL_NEGATE || phase == SORC_P_DUEL_DEFENSE;
}

static json_t *sorcerer_json(const struct sorc_state *st, int i)
{
    const struct sorc_inplay *s = &st->inplay[i];

    return json_pack("{s:o, s:i, s:o, s:b}", "card", cid(s->card), "controller",
                     sorc__seat(st, sorc__controller(s->card)), "objects", ids(s->obj, s->nobj),
                     "first_to_fight_temp", s->ftf_temp);
}

/* The revealed combo of `side`, public after the reveal. */
static json_t *combo_json(const struct sorc_state *st, int side, int with_draft)
{
    const struct sorc_combo *k = &st->combo[side];
    json_t *amps = json_array();
    json_t *neg = json_array();
    int rc = (amps && neg) ? 0 : -1;

    for (int s = SORC_SLOT_AMP0; rc == 0 && s <= SORC_SLOT_AMP2; s++) {
        if (k->slot[s] != SORC_NONE) {
            rc |= game_json_push(amps, cid(k->slot[s]));
        }
    }
    for (int s = 0; rc == 0 && s < SORC_NSLOTS; s++) {
        if (k->negated[s] && k->slot[s] != SORC_NONE) {
            rc |= game_json_push(neg, cid(k->slot[s]));
        }
    }
    if (rc) {
        json_decref(amps);
        json_decref(neg);
        return NULL;
    }
    if (with_draft) {
        json_decref(neg);
        return json_pack("{s:i, s:o, s:o, s:o, s:b, s:o}", "steps", k->steps, "spell",
                         cid(k->slot[SORC_SLOT_SPELL]), "event", cid(k->slot[SORC_SLOT_EVENT]),
                         "amplifiers", amps, "sacrifice", k->steps >= 6 && k->sacrifice, "betray",
                         cid(k->steps >= 6 ? k->betray : SORC_NONE));
    }
    return json_pack("{s:o, s:o, s:o, s:b, s:o, s:o, s:i, s:o, s:o}", "spell",
                     cid(k->slot[SORC_SLOT_SPELL]), "event", cid(k->slot[SORC_SLOT_EVENT]),
                     "amplifiers", amps, "sacrifice", k->sacrifice, "betray", cid(k->betray),
                     "negated", neg, "clear_mind", k->clear_mind, "defense",
                     cid(k->slot[SORC_SLOT_DEFENSE]), "protect", cid(k->slot[SORC_SLOT_PROTECT]));
}

static json_t *duel_json(const struct sorc_state *st)
{
    static const char *const outcomes[] = {"pending", "winner", "tie", "sacrifice", "no_duel"};
    json_t *sides = json_array();
    json_t *d;
    int rc = sides ? 0 : -1;

    for (int seat = 0; rc == 0 && seat < 2; seat++) {
        int s = sorc__side(st, seat);
        const struct sorc_combo *k = &st->combo[s];
        json_t *e = json_pack("{s:o, s:o}", "pick", cid(k->pick), "sorcerer", cid(k->final));
        if (e && st->revealed) {
            rc |= game_json_set(e, "combo", combo_json(st, s, 0));
            rc |= game_json_set(e, "total", json_integer(k->total));
        }
        rc |= game_json_push(sides, e);
    }
    if (rc) {
        json_decref(sides);
        return NULL;
    }
    d = json_pack("{s:o, s:b, s:s, s:b}", "sides", sides, "revealed", st->revealed, "outcome",
                  outcomes[st->outcome % 5], "destroy_morgana", st->destroy_morgana);
    if (d && st->outcome == 1) {
        rc |= game_json_set(d, "winner", json_integer(sorc__seat(st, st->winner)));
        rc |= game_json_set(d, "margin", json_integer(st->margin));
        rc |= game_json_set(d, "protected", json_boolean(st->protected_));
    }
    if (rc) {
        json_decref(d);
        return NULL;
    }
    return d;
}

static json_t *you_json(const struct sorc_state *st, int seat)
{
    int side = sorc__side(st, seat);
    int opp = side ^ 1;
    json_t *y = json_pack("{s:i, s:s, s:o}", "seat", seat, "faction", faction(side), "hand",
                          ids(st->hand[side], st->nhand[side]));
    json_t *moves = json_array();
    int rc = 0;

    if (!y || !moves) {
        json_decref(y);
        json_decref(moves);
        return NULL;
    }
    if (st->phase == SORC_P_DUEL_COMBO && st->combo[side].asked) {
        rc |= game_json_set(y, "draft", combo_json(st, side, 1));
    }
    if (st->phase == SORC_P_ENCOUNTER && st->combo[side].asked && st->combo[side].submitted) {
        static const char *const ch[] = {"keep", "first_to_fight", "martyr"};
        rc |= game_json_set(y, "submitted_choice",
                      json_pack("{s:s, s:o}", "choice", ch[st->combo[side].enc_choice % 3],
                                "sorcerer", cid(st->combo[side].enc_sorc)));
    }
    if (st->phase == SORC_P_DUEL_NEGATE && st->combo[side].asked && st->combo[side].submitted) {
        rc |= game_json_set(y, "submitted_negate",
                      json_pack("{s:o, s:o}", "spell_negator", cid(st->combo[side].neg_target[0]),
                                "event_negator", cid(st->combo[side].neg_target[1])));
    }
    if (st->phase == SORC_P_DUEL_DEFENSE && st->combo[side].asked && st->combo[side].submitted) {
        rc |= game_json_set(y, "submitted_defense", cid(st->combo[side].def_card));
    }
    if (st->scry_n[side] > 0) {
        rc |= game_json_set(y, "scry", ids(st->scry[side], st->scry_n[side]));
    }
    if (st->div_n[side] > 0) {
        rc |= game_json_set(y, "divination", ids(st->div[side], st->div_n[side]));
    }
    if (st->tracked[side] != SORC_NONE) {
        rc |= game_json_set(y, "tracked", cid(st->tracked[side]));
    }
    if (st->phase == SORC_P_EVENT_TRACK && st->cur_side == side) {
        json_t *list = json_array();
        for (int c = 0; list && c < SORC_NCARDS; c++) {
            for (int i = 0; i < st->ndeck; i++) {
                if (st->deck[i] == c) {
                    rc |= game_json_push(list, cid((uint8_t)c));
                }
            }
        }
        rc |= game_json_set(y, "track_list", list);
    }
    if (st->phase == SORC_P_DUEL_STEAL && st->cur_side == side) {
        rc |= game_json_set(y, "opponent_hand", ids(st->hand[opp], st->nhand[opp]));
    }
    for (int i = 0; i < st->nxfer; i++) {
        rc |= game_json_push(moves,
                              json_pack("{s:o, s:i, s:i}", "card", cid(st->xfer_card[i]), "from",
                                        sorc__seat(st, st->xfer_from[i]), "to",
                                        sorc__seat(st, st->xfer_from[i] ^ 1)));
    }
    rc |= game_json_set(y, "transfers", moves);
    if (rc) {
        json_decref(y);
        return NULL;
    }
    return y;
}

/* The view of `seat` (-1 spectator); new reference or NULL. See game.h. */
json_t *sorc_view_json(const void *state, int seat)
{
    const struct sorc_state *st = state;
    json_t *v = json_object();
    json_t *seats = json_array();
    json_t *play = json_array();
    json_t *active = json_array();
    json_t *log = json_array();
    json_t *gates = json_object();
    json_t *res;
    int gc = sorc__grim_carrier(st);
    int rc = 0;

    if (!v || !seats || !play || !active || !log || !gates) {
        json_decref(v);
        json_decref(seats);
        json_decref(play);
        json_decref(active);
        json_decref(log);
        json_decref(gates);
        return NULL;
    }
    for (int s = 0; s < 2; s++) {
        if (!st->over && st->act[sorc__side(st, s)]) {
            rc |= game_json_push(active, json_integer(s));
        }
    }
    for (int seat_i = 0; seat_i < 2; seat_i++) {
        int side = sorc__side(st, seat_i);
        json_t *mine = json_array();
        json_t *e;
        for (int i = 0; mine && i < st->ninplay; i++) {
            if (sorc__controller(st->inplay[i].card) == side) {
                rc |= game_json_push(mine, sorcerer_json(st, i));
            }
        }
        e = json_pack("{s:i, s:s, s:s, s:i, s:i, s:o}", "seat", seat_i, "name",
                      st->names[seat_i], "faction", faction(side), "hand_size", st->nhand[side],
                      "hand_limit", sorc__hand_limit(st, side), "sorcerers", mine);
        if (e && sealed_phase(st->phase)) {
            rc |= game_json_set(e, "submitted", json_boolean(st->combo[side].submitted));
        }
        rc |= game_json_push(seats, e);
    }
    for (int i = 0; i < st->ninplay; i++) {
        rc |= game_json_push(play, sorcerer_json(st, i));
    }
    for (int c = 0; c < SORC_NCARDS; c++) {
        if (sorc_cards[c].kw & SORC_K_GRIMHOLD_GATE) {
            rc |= game_json_set(gates, sorc_cards[c].id, json_boolean(st->gate_done[c]));
        }
    }
    for (int i = 0; i < st->log_n; i++) {
        rc |= game_json_push(log, json_string(st->log[(st->log_head + i) % SORC_LOG_LINES]));
    }
    rc |= game_json_set(v, "game", json_string("sorcerers"));
    rc |= game_json_set(v, "phase", json_string(sorc__phase_name(st->phase)));
    rc |= game_json_set(v, "turn", json_integer(st->turn));
    rc |= game_json_set(v, "max_turns", json_integer(st->max_turns));
    rc |= game_json_set(v, "active", active);
    rc |= game_json_set(v, "seats", seats);
    rc |= game_json_set(v, "play", play);
    rc |= game_json_set(v, "grimhold",
                  json_pack("{s:o, s:o}", "on", gc >= 0 ? cid(st->inplay[gc].card) : json_null(),
                            "controller",
                            gc >= 0 ? json_integer(sorc__seat(
                                          st, sorc__controller(st->inplay[gc].card)))
                                    : json_null()));
    rc |= game_json_set(v, "deck_size", json_integer(st->ndeck));
    rc |= game_json_set(v, "discard", ids(st->discard, st->ndiscard));
    rc |= game_json_set(v, "markers",
                  json_pack("{s:i, s:i}", "dave", st->marker_dave, "morgana", st->marker_morgana));
    rc |= game_json_set(v, "gates", gates);
    rc |= game_json_set(v, "moved_between_hands", json_integer(st->nxfer));
    if (st->phase == SORC_P_EVENT || st->phase == SORC_P_EVENT_TRACK ||
        st->phase == SORC_P_EVENT_DISCARD ||
        (st->phase == SORC_P_OBJECT_OVERFLOW && st->ea_card != SORC_NONE)) {
        json_t *used = json_array();
        for (int c = 0; used && c < SORC_NCARDS; c++) {
            if (st->ea_used[c]) {
                rc |= game_json_push(used, cid((uint8_t)c));
            }
        }
        rc |= game_json_set(v, "event",
                      json_pack("{s:i, s:o, s:o, s:i}", "priority", sorc__seat(st, st->priority),
                                "activated", used, "resolving", cid(st->ea_card), "discard_left",
                                st->phase == SORC_P_EVENT_DISCARD ? st->discard_left : 0));
    }
    if (st->combo[0].pick != SORC_NONE || st->outcome == 4) {
        rc |= game_json_set(v, "duel", duel_json(st));
    }
    if (st->phase == SORC_P_DUEL_STEAL) {
        rc |= game_json_set(v, "steals_left", json_integer(st->steal_left));
    }
    /* Over means a result: a failed one fails the view, never reads as null. */
    res = st->over ? sorc_result_json(st) : json_null();
    rc |= game_json_set(v, "result", res);
    rc |= game_json_set(v, "log", log);
    if (seat == 0 || seat == 1) {
        rc |= game_json_set(v, "you", you_json(st, seat));
    }
    if (rc) {
        json_decref(v);
        return NULL;
    }
    return v;
}
