/* SPDX-License-Identifier: MIT */
/*
 * sorc_view.c - every piece of JSON a Sorcerers player or spectator sees
 * (spec 9): the public view as sections, each built from the state alone
 * and the same for every viewer; the change mask that tells which sections
 * an action may have touched; each seat's private "you" (a hand, a sealed
 * draft, Scry, Divination, Track, the loser's hand while stealing,
 * hand-to-hand moves); and the result. It must never show the deck order,
 * the generator, or another seat's hand or sealed submission outside that
 * seat's "you", and never change the state.
 */
#include <string.h>

#include "game.h"
#include "json_util.h"
#include "sorc.h"

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
    return phase == SORC_P_ENCOUNTER || phase == SORC_P_DUEL_COMBO || phase == SORC_P_DUEL_NEGATE ||
           phase == SORC_P_DUEL_DEFENSE;
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

/* The private view of `seat`; new reference or NULL. See sorc.h. */
json_t *sorc__you(const void *state, int seat)
{
    const struct sorc_state *st = state;
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
                            json_pack("{s:o, s:o}", "spell_negator",
                                      cid(st->combo[side].neg_target[0]), "event_negator",
                                      cid(st->combo[side].neg_target[1])));
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
        rc |= game_json_push(moves, json_pack("{s:o, s:i, s:i}", "card", cid(st->xfer_card[i]),
                                              "from", sorc__seat(st, st->xfer_from[i]), "to",
                                              sorc__seat(st, st->xfer_from[i] ^ 1)));
    }
    rc |= game_json_set(y, "transfers", moves);
    if (rc) {
        json_decref(y);
        return NULL;
    }
    return y;
}

/* The result object (see game.h); new reference, NULL while running. */
json_t *sorc__result(const void *state)
{
    const struct sorc_state *st = state;
    json_t *scores;
    json_t *winners;

    if (!st->over) {
        return NULL;
    }
    int ws = st->winner_side >= 0 ? sorc__seat(st, st->winner_side) : -1;
    scores = json_pack("[i,i]", ws == 0, ws == 1);
    winners = ws >= 0 ? json_pack("[i]", ws) : json_array();
    /* json_pack frees what it was given when any part is missing. */
    return json_pack("{s:o, s:o, s:s}", "scores", scores, "winners", winners, "reason",
                     sorc__reason_name(st->reason));
}

/* ---- Sections ----
 * Each builder returns a new reference (json_null() where the spec shows
 * nothing) or NULL on ENOMEM, and reads only the state fields that the
 * matching comparison in sorc__changed() compares. */

static json_t *build_active(const void *state)
{
    const struct sorc_state *st = state;
    json_t *active = json_array();

    for (int s = 0; active && s < 2; s++) {
        if (!st->over && st->act[sorc__side(st, s)] &&
            game_json_push(active, json_integer(s)) < 0) {
            json_decref(active);
            return NULL;
        }
    }
    return active;
}

static json_t *build_deck_size(const void *state)
{
    const struct sorc_state *st = state;

    return json_integer(st->ndeck);
}

static json_t *build_discard(const void *state)
{
    const struct sorc_state *st = state;

    return ids(st->discard, st->ndiscard);
}

/* Shown once an Encounter has picked (or skipped) a duel. */
static json_t *build_duel(const void *state)
{
    const struct sorc_state *st = state;

    if (st->combo[0].pick != SORC_NONE || st->outcome == 4) {
        return duel_json(st);
    }
    return json_null();
}

/* 1 in the states that show the Event block. */
static int event_shown(const struct sorc_state *st)
{
    return st->phase == SORC_P_EVENT || st->phase == SORC_P_EVENT_TRACK ||
           st->phase == SORC_P_EVENT_DISCARD ||
           (st->phase == SORC_P_OBJECT_OVERFLOW && st->ea_card != SORC_NONE);
}

static json_t *build_event(const void *state)
{
    const struct sorc_state *st = state;
    json_t *used;

    if (!event_shown(st)) {
        return json_null();
    }
    used = json_array();
    for (int c = 0; used && c < SORC_NCARDS; c++) {
        if (st->ea_used[c] && game_json_push(used, cid((uint8_t)c)) < 0) {
            json_decref(used);
            return NULL;
        }
    }
    /* json_pack frees `used` when it fails, and fails when `used` is NULL. */
    return json_pack("{s:i, s:o, s:o, s:i}", "priority", sorc__seat(st, st->priority), "activated",
                     used, "resolving", cid(st->ea_card), "discard_left",
                     st->phase == SORC_P_EVENT_DISCARD ? st->discard_left : 0);
}

static json_t *build_game(const void *state)
{
    return json_string("sorcerers");
}

static json_t *build_gates(const void *state)
{
    const struct sorc_state *st = state;
    json_t *gates = json_object();

    for (int c = 0; gates && c < SORC_NCARDS; c++) {
        if ((sorc_cards[c].kw & SORC_K_GRIMHOLD_GATE) &&
            game_json_set(gates, sorc_cards[c].id, json_boolean(st->gate_done[c])) < 0) {
            json_decref(gates);
            return NULL;
        }
    }
    return gates;
}

static json_t *build_grimhold(const void *state)
{
    const struct sorc_state *st = state;
    int gc = sorc__grim_carrier(st);

    if (gc < 0) {
        return json_pack("{s:n, s:n}", "on", "controller");
    }
    return json_pack("{s:o, s:i}", "on", cid(st->inplay[gc].card), "controller",
                     sorc__seat(st, sorc__controller(st->inplay[gc].card)));
}

static json_t *build_log(const void *state)
{
    const struct sorc_state *st = state;
    json_t *log = json_array();

    for (int i = 0; log && i < st->log_n; i++) {
        if (game_json_push(log, json_string(st->log[(st->log_head + i) % SORC_LOG_LINES])) < 0) {
            json_decref(log);
            return NULL;
        }
    }
    return log;
}

static json_t *build_markers(const void *state)
{
    const struct sorc_state *st = state;

    return json_pack("{s:i, s:i}", "dave", st->marker_dave, "morgana", st->marker_morgana);
}

static json_t *build_max_turns(const void *state)
{
    const struct sorc_state *st = state;

    return json_integer(st->max_turns);
}

static json_t *build_moved_between_hands(const void *state)
{
    const struct sorc_state *st = state;

    return json_integer(st->nxfer);
}

static json_t *build_phase(const void *state)
{
    const struct sorc_state *st = state;

    return json_string(sorc__phase_name(st->phase));
}

static json_t *build_play(const void *state)
{
    const struct sorc_state *st = state;
    json_t *play = json_array();

    for (int i = 0; play && i < st->ninplay; i++) {
        if (game_json_push(play, sorcerer_json(st, i)) < 0) {
            json_decref(play);
            return NULL;
        }
    }
    return play;
}

/* Over means a result: a failed one fails the view, never reads as null. */
static json_t *build_result(const void *state)
{
    const struct sorc_state *st = state;

    return st->over ? sorc__result(st) : json_null();
}

static json_t *build_seats(const void *state)
{
    const struct sorc_state *st = state;
    json_t *seats = json_array();
    int rc = seats ? 0 : -1;

    for (int seat = 0; rc == 0 && seat < 2; seat++) {
        int side = sorc__side(st, seat);
        json_t *mine = json_array();
        json_t *e;
        for (int i = 0; mine && i < st->ninplay; i++) {
            if (sorc__controller(st->inplay[i].card) == side) {
                rc |= game_json_push(mine, sorcerer_json(st, i));
            }
        }
        /* json_pack frees `mine` when it fails, and fails when it is NULL. */
        e = json_pack("{s:i, s:s, s:s, s:i, s:i, s:o}", "seat", seat, "name", st->names[seat],
                      "faction", faction(side), "hand_size", st->nhand[side], "hand_limit",
                      sorc__hand_limit(st, side), "sorcerers", mine);
        if (e && sealed_phase(st->phase)) {
            rc |= game_json_set(e, "submitted", json_boolean(st->combo[side].submitted));
        }
        rc |= game_json_push(seats, e);
    }
    if (rc) {
        json_decref(seats);
        return NULL;
    }
    return seats;
}

/* Shown while the duel's winner steals. */
static json_t *build_steals_left(const void *state)
{
    const struct sorc_state *st = state;

    return st->phase == SORC_P_DUEL_STEAL ? json_integer(st->steal_left) : json_null();
}

static json_t *build_turn(const void *state)
{
    const struct sorc_state *st = state;

    return json_integer(st->turn);
}

const struct game_section sorc__sections[SORC_NSECTIONS] = {
    [SORC_SEC_ACTIVE] = {"active", build_active},
    [SORC_SEC_DECK_SIZE] = {"deck_size", build_deck_size},
    [SORC_SEC_DISCARD] = {"discard", build_discard},
    [SORC_SEC_DUEL] = {"duel", build_duel},
    [SORC_SEC_EVENT] = {"event", build_event},
    [SORC_SEC_GAME] = {"game", build_game},
    [SORC_SEC_GATES] = {"gates", build_gates},
    [SORC_SEC_GRIMHOLD] = {"grimhold", build_grimhold},
    [SORC_SEC_LOG] = {"log", build_log},
    [SORC_SEC_MARKERS] = {"markers", build_markers},
    [SORC_SEC_MAX_TURNS] = {"max_turns", build_max_turns},
    [SORC_SEC_MOVED_BETWEEN_HANDS] = {"moved_between_hands", build_moved_between_hands},
    [SORC_SEC_PHASE] = {"phase", build_phase},
    [SORC_SEC_PLAY] = {"play", build_play},
    [SORC_SEC_RESULT] = {"result", build_result},
    [SORC_SEC_SEATS] = {"seats", build_seats},
    [SORC_SEC_STEALS_LEFT] = {"steals_left", build_steals_left},
    [SORC_SEC_TURN] = {"turn", build_turn},
};

/* ---- Change mask ----
 * Field comparisons between two positions. Each names the state fields one
 * section (or "you") reads, directly or through a derived value; a field
 * that only sometimes shows is compared always. */

#define SAME(f) (memcmp(&b->f, &a->f, sizeof(b->f)) == 0)

/* 1 when the first `n` bytes of two arrays whose lengths are `nb` and `na`
 * are equal and the lengths are too. */
static int same_prefix(const uint8_t *xb, int nb, const uint8_t *xa, int na)
{
    return nb == na && memcmp(xb, xa, (size_t)nb) == 0;
}

/* Sorcerers in play with their objects and Martyr flags (play, seats,
 * grimhold, hand_limit). */
static int same_play(const struct sorc_state *b, const struct sorc_state *a)
{
    return b->ninplay == a->ninplay &&
           memcmp(b->inplay, a->inplay, (size_t)b->ninplay * sizeof(b->inplay[0])) == 0;
}

/* The duel block: its presence, the picks, and the revealed combos. */
static int same_duel(const struct sorc_state *b, const struct sorc_state *a)
{
    if (!SAME(mer_seat) || !SAME(revealed) || !SAME(outcome) || !SAME(winner) || !SAME(margin) ||
        !SAME(protected_) || !SAME(destroy_morgana)) {
        return 0;
    }
    for (int s = 0; s < 2; s++) {
        const struct sorc_combo *kb = &b->combo[s];
        const struct sorc_combo *ka = &a->combo[s];
        if (kb->pick != ka->pick || kb->final != ka->final) {
            return 0;
        }
        /* Before the reveal the slots are a private draft, not shown here. */
        if (b->revealed && (memcmp(kb->slot, ka->slot, sizeof(kb->slot)) != 0 ||
                            memcmp(kb->negated, ka->negated, sizeof(kb->negated)) != 0 ||
                            kb->sacrifice != ka->sacrifice || kb->betray != ka->betray ||
                            kb->clear_mind != ka->clear_mind || kb->total != ka->total)) {
            return 0;
        }
    }
    return 1;
}

/* The Event block: null in both, or built from the same fields. */
static int same_event(const struct sorc_state *b, const struct sorc_state *a)
{
    if (!event_shown(b) && !event_shown(a)) {
        return 1;
    }
    return SAME(phase) && SAME(ea_card) && SAME(ea_used) && SAME(priority) && SAME(mer_seat) &&
           SAME(discard_left);
}

/* The seats: names, factions, hand sizes and limits, sorcerers, and the
 * "submitted" flags of the sealed states. */
static int same_seats(const struct sorc_state *b, const struct sorc_state *a)
{
    int sealed = sealed_phase(b->phase);

    if (!SAME(names) || !SAME(mer_seat) || !SAME(nhand) || !same_play(b, a) ||
        sealed != sealed_phase(a->phase)) {
        return 0;
    }
    return !sealed || (b->combo[0].submitted == a->combo[0].submitted &&
                       b->combo[1].submitted == a->combo[1].submitted);
}

/* The steals left: null outside duel_steal. */
static int same_steals_left(const struct sorc_state *b, const struct sorc_state *a)
{
    int vb = b->phase == SORC_P_DUEL_STEAL ? b->steal_left : -1;
    int va = a->phase == SORC_P_DUEL_STEAL ? a->steal_left : -1;

    return vb == va;
}

/* What "you" of either seat reads. */
static int same_you(const struct sorc_state *b, const struct sorc_state *a)
{
    if (!SAME(mer_seat) || !SAME(phase) || !SAME(cur_side) || !SAME(combo) || !SAME(scry_n) ||
        !SAME(scry) || !SAME(div_n) || !SAME(div) || !SAME(tracked) || !SAME(nxfer) ||
        !SAME(xfer_card) || !SAME(xfer_from)) {
        return 0;
    }
    for (int s = 0; s < 2; s++) {
        if (!same_prefix(b->hand[s], b->nhand[s], a->hand[s], a->nhand[s])) {
            return 0;
        }
    }
    /* The Track list names the cards of the deck. */
    return b->phase != SORC_P_EVENT_TRACK || same_prefix(b->deck, b->ndeck, a->deck, a->ndeck);
}

/* The change mask of game.h; see sorc.h. */
uint64_t sorc__changed(const void *before, const void *after)
{
    const struct sorc_state *b = before;
    const struct sorc_state *a = after;
    uint64_t m = 0;

#define BIT(k) (UINT64_C(1) << (k))
    if (!SAME(over) || !SAME(act) || !SAME(mer_seat)) {
        m |= BIT(SORC_SEC_ACTIVE);
    }
    if (!SAME(ndeck)) {
        m |= BIT(SORC_SEC_DECK_SIZE);
    }
    if (!same_prefix(b->discard, b->ndiscard, a->discard, a->ndiscard)) {
        m |= BIT(SORC_SEC_DISCARD);
    }
    if (!same_duel(b, a)) {
        m |= BIT(SORC_SEC_DUEL);
    }
    if (!same_event(b, a)) {
        m |= BIT(SORC_SEC_EVENT);
    }
    /* "game" never changes. */
    if (!SAME(gate_done)) {
        m |= BIT(SORC_SEC_GATES);
    }
    if (!same_play(b, a) || !SAME(mer_seat)) {
        m |= BIT(SORC_SEC_GRIMHOLD) | BIT(SORC_SEC_PLAY);
    }
    if (!SAME(log_head) || !SAME(log_n) || !SAME(log)) {
        m |= BIT(SORC_SEC_LOG);
    }
    if (!SAME(marker_dave) || !SAME(marker_morgana)) {
        m |= BIT(SORC_SEC_MARKERS);
    }
    if (!SAME(max_turns)) {
        m |= BIT(SORC_SEC_MAX_TURNS);
    }
    if (!SAME(nxfer)) {
        m |= BIT(SORC_SEC_MOVED_BETWEEN_HANDS);
    }
    if (!SAME(phase)) {
        m |= BIT(SORC_SEC_PHASE);
    }
    if (!SAME(over) || !SAME(winner_side) || !SAME(reason) || !SAME(mer_seat)) {
        m |= BIT(SORC_SEC_RESULT);
    }
    if (!same_seats(b, a)) {
        m |= BIT(SORC_SEC_SEATS);
    }
    if (!same_steals_left(b, a)) {
        m |= BIT(SORC_SEC_STEALS_LEFT);
    }
    if (!SAME(turn)) {
        m |= BIT(SORC_SEC_TURN);
    }
    if (!same_you(b, a)) {
        m |= GAME_CHANGED_YOU;
    }
#undef BIT
    return m;
}
