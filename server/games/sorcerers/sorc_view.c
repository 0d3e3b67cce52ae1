/* SPDX-License-Identifier: MIT */
/*
 * sorc_view.c - every piece of JSON a Sorcerers player or spectator sees
 * (spec 9), written as canonical text through struct game_text: the public
 * view as sections, each written from the state alone and the same for
 * every viewer, the result among them; the change mask that tells which
 * sections an action may have touched; and each seat's private "you" (a
 * hand, a sealed draft, Scry, Divination, Track, the loser's hand while
 * stealing, hand-to-hand moves). Every object's members are written in
 * increasing byte order of their keys. It must never show the deck order,
 * the generator, or another seat's hand or sealed submission outside that
 * seat's "you", and never change the state.
 */
#include <string.h>

#include "game.h"
#include "json_util.h"
#include "sorc.h"

/* A card's id, or null for SORC_NONE. */
static void cid(struct game_text *out, uint8_t c)
{
    game_text_str_or_null(out, c < SORC_NCARDS ? sorc_cards[c].id : NULL);
}

static void kcid(struct game_text *out, const char *key, uint8_t c)
{
    game_text_key(out, key);
    cid(out, c);
}

/* An array of the ids of `cards`. */
static void ids(struct game_text *out, const uint8_t *cards, int n)
{
    game_text_arr(out);
    for (int i = 0; i < n; i++) {
        cid(out, cards[i]);
    }
    game_text_end_arr(out);
}

static void kids(struct game_text *out, const char *key, const uint8_t *cards, int n)
{
    game_text_key(out, key);
    ids(out, cards, n);
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

static void write_sorcerer(struct game_text *out, const struct sorc_state *st, int i)
{
    const struct sorc_inplay *s = &st->inplay[i];

    game_text_obj(out);
    kcid(out, "card", s->card);
    game_text_kint(out, "controller", sorc__seat(st, sorc__controller(s->card)));
    game_text_kbool(out, "first_to_fight_temp", s->ftf_temp);
    kids(out, "objects", s->obj, s->nobj);
    game_text_end_obj(out);
}

/* The combo of `side`: its private draft (`with_draft`, in the owner's
 * "you") or the revealed combo, public after the reveal. */
static void write_combo(struct game_text *out, const struct sorc_state *st, int side,
                        int with_draft)
{
    const struct sorc_combo *k = &st->combo[side];

    game_text_obj(out);
    game_text_karr(out, "amplifiers");
    for (int s = SORC_SLOT_AMP0; s <= SORC_SLOT_AMP2; s++) {
        if (k->slot[s] != SORC_NONE) {
            cid(out, k->slot[s]);
        }
    }
    game_text_end_arr(out);
    if (with_draft) {
        kcid(out, "betray", k->steps >= 6 ? k->betray : SORC_NONE);
        kcid(out, "event", k->slot[SORC_SLOT_EVENT]);
        game_text_kbool(out, "sacrifice", k->steps >= 6 && k->sacrifice);
        kcid(out, "spell", k->slot[SORC_SLOT_SPELL]);
        game_text_kint(out, "steps", k->steps);
        game_text_end_obj(out);
        return;
    }
    kcid(out, "betray", k->betray);
    game_text_kint(out, "clear_mind", k->clear_mind);
    kcid(out, "defense", k->slot[SORC_SLOT_DEFENSE]);
    kcid(out, "event", k->slot[SORC_SLOT_EVENT]);
    game_text_karr(out, "negated");
    for (int s = 0; s < SORC_NSLOTS; s++) {
        if (k->negated[s] && k->slot[s] != SORC_NONE) {
            cid(out, k->slot[s]);
        }
    }
    game_text_end_arr(out);
    kcid(out, "protect", k->slot[SORC_SLOT_PROTECT]);
    game_text_kbool(out, "sacrifice", k->sacrifice);
    kcid(out, "spell", k->slot[SORC_SLOT_SPELL]);
    game_text_end_obj(out);
}

static void write_duel_block(struct game_text *out, const struct sorc_state *st)
{
    static const char *const outcomes[] = {"pending", "winner", "tie", "sacrifice", "no_duel"};
    int won = st->outcome == 1;

    game_text_obj(out);
    game_text_kbool(out, "destroy_morgana", st->destroy_morgana);
    if (won) {
        game_text_kint(out, "margin", st->margin);
    }
    game_text_kstr(out, "outcome", outcomes[st->outcome % 5]);
    if (won) {
        game_text_kbool(out, "protected", st->protected_);
    }
    game_text_kbool(out, "revealed", st->revealed);
    game_text_karr(out, "sides");
    for (int seat = 0; seat < 2; seat++) {
        int s = sorc__side(st, seat);
        const struct sorc_combo *k = &st->combo[s];
        game_text_obj(out);
        if (st->revealed) {
            game_text_key(out, "combo");
            write_combo(out, st, s, 0);
        }
        kcid(out, "pick", k->pick);
        kcid(out, "sorcerer", k->final);
        if (st->revealed) {
            game_text_kint(out, "total", k->total);
        }
        game_text_end_obj(out);
    }
    game_text_end_arr(out);
    if (won) {
        game_text_kint(out, "winner", sorc__seat(st, st->winner));
    }
    game_text_end_obj(out);
}

/* The private view of `seat`. See sorc.h. */
void sorc__you(struct game_text *out, const void *state, int seat)
{
    static const char *const ch[] = {"keep", "first_to_fight", "martyr"};
    const struct sorc_state *st = state;
    int side = sorc__side(st, seat);
    int opp = side ^ 1;
    const struct sorc_combo *k = &st->combo[side];
    int sealed = k->asked && k->submitted;

    game_text_obj(out);
    if (st->div_n[side] > 0) {
        kids(out, "divination", st->div[side], st->div_n[side]);
    }
    if (st->phase == SORC_P_DUEL_COMBO && k->asked) {
        game_text_key(out, "draft");
        write_combo(out, st, side, 1);
    }
    game_text_kstr(out, "faction", faction(side));
    kids(out, "hand", st->hand[side], st->nhand[side]);
    if (st->phase == SORC_P_DUEL_STEAL && st->cur_side == side) {
        kids(out, "opponent_hand", st->hand[opp], st->nhand[opp]);
    }
    if (st->scry_n[side] > 0) {
        kids(out, "scry", st->scry[side], st->scry_n[side]);
    }
    game_text_kint(out, "seat", seat);
    if (st->phase == SORC_P_ENCOUNTER && sealed) {
        game_text_kobj(out, "submitted_choice");
        game_text_kstr(out, "choice", ch[k->enc_choice % 3]);
        kcid(out, "sorcerer", k->enc_sorc);
        game_text_end_obj(out);
    }
    if (st->phase == SORC_P_DUEL_DEFENSE && sealed) {
        kcid(out, "submitted_defense", k->def_card);
    }
    if (st->phase == SORC_P_DUEL_NEGATE && sealed) {
        game_text_kobj(out, "submitted_negate");
        kcid(out, "event_negator", k->neg_target[1]);
        kcid(out, "spell_negator", k->neg_target[0]);
        game_text_end_obj(out);
    }
    if (st->phase == SORC_P_EVENT_TRACK && st->cur_side == side) {
        game_text_karr(out, "track_list");
        for (int c = 0; c < SORC_NCARDS; c++) {
            for (int i = 0; i < st->ndeck; i++) {
                if (st->deck[i] == c) {
                    cid(out, (uint8_t)c);
                }
            }
        }
        game_text_end_arr(out);
    }
    if (st->tracked[side] != SORC_NONE) {
        kcid(out, "tracked", st->tracked[side]);
    }
    game_text_karr(out, "transfers");
    for (int i = 0; i < st->nxfer; i++) {
        game_text_obj(out);
        kcid(out, "card", st->xfer_card[i]);
        game_text_kint(out, "from", sorc__seat(st, st->xfer_from[i]));
        game_text_kint(out, "to", sorc__seat(st, st->xfer_from[i] ^ 1));
        game_text_end_obj(out);
    }
    game_text_end_arr(out);
    game_text_end_obj(out);
}

/* ---- Sections ----
 * Each writes one value (null where the spec shows nothing) and reads only
 * the state fields that the matching comparison in sorc__changed()
 * compares. */

static void write_active(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    game_text_arr(out);
    for (int s = 0; s < 2; s++) {
        if (!st->over && st->act[sorc__side(st, s)]) {
            game_text_int(out, s);
        }
    }
    game_text_end_arr(out);
}

static void write_deck_size(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    game_text_int(out, st->ndeck);
}

static void write_discard(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    ids(out, st->discard, st->ndiscard);
}

/* Shown once an Encounter has picked (or skipped) a duel. */
static void write_duel(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    if (st->combo[0].pick != SORC_NONE || st->outcome == 4) {
        write_duel_block(out, st);
    } else {
        game_text_null(out);
    }
}

/* 1 in the states that show the Event block. */
static int event_shown(const struct sorc_state *st)
{
    return st->phase == SORC_P_EVENT || st->phase == SORC_P_EVENT_TRACK ||
           st->phase == SORC_P_EVENT_DISCARD ||
           (st->phase == SORC_P_OBJECT_OVERFLOW && st->ea_card != SORC_NONE);
}

static void write_event(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    if (!event_shown(st)) {
        game_text_null(out);
        return;
    }
    game_text_obj(out);
    game_text_karr(out, "activated");
    for (int c = 0; c < SORC_NCARDS; c++) {
        if (st->ea_used[c]) {
            cid(out, (uint8_t)c);
        }
    }
    game_text_end_arr(out);
    game_text_kint(out, "discard_left", st->phase == SORC_P_EVENT_DISCARD ? st->discard_left : 0);
    game_text_kint(out, "priority", sorc__seat(st, st->priority));
    kcid(out, "resolving", st->ea_card);
    game_text_end_obj(out);
}

static void write_game(struct game_text *out, const void *state)
{
    (void)state;
    game_text_str(out, "sorcerers");
}

/* The gated cards by id, in increasing byte order of their ids (the card
 * table is in list order). */
static void write_gates(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;
    uint8_t gated[SORC_NCARDS];
    int n = 0;

    for (int c = 0; c < SORC_NCARDS; c++) {
        if (sorc_cards[c].kw & SORC_K_GRIMHOLD_GATE) {
            int i = n++;
            while (i > 0 && strcmp(sorc_cards[gated[i - 1]].id, sorc_cards[c].id) > 0) {
                gated[i] = gated[i - 1];
                i--;
            }
            gated[i] = (uint8_t)c;
        }
    }
    game_text_obj(out);
    for (int i = 0; i < n; i++) {
        game_text_kbool(out, sorc_cards[gated[i]].id, st->gate_done[gated[i]]);
    }
    game_text_end_obj(out);
}

static void write_grimhold(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;
    int gc = sorc__grim_carrier(st);

    game_text_obj(out);
    if (gc < 0) {
        game_text_knull(out, "controller");
        game_text_knull(out, "on");
    } else {
        game_text_kint(out, "controller", sorc__seat(st, sorc__controller(st->inplay[gc].card)));
        kcid(out, "on", st->inplay[gc].card);
    }
    game_text_end_obj(out);
}

/* The log: its lines oldest first, as items (game_section.seq), and
 * beside them their messages. Line `i` is in the ring's slot log_slot(). */
static int log_slot(const struct sorc_state *st, int i)
{
    return (st->log_head + i) % SORC_LOG_LINES;
}

static int log_count(const void *state)
{
    return ((const struct sorc_state *)state)->log_n;
}

static uint32_t log_seq(const void *state)
{
    return ((const struct sorc_state *)state)->log_seq;
}

static void write_log_line(struct game_text *out, const void *state, int i)
{
    const struct sorc_state *st = state;
    game_text_str(out, st->log[log_slot(st, i)]);
}

/* One message per line of "log", in the same order (game_text_msg()). */
static void write_log_msg(struct game_text *out, const void *state, int i)
{
    const struct sorc_state *st = state;
    game_text_msg(out, st->log_msg[log_slot(st, i)]);
}

static void write_markers(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    game_text_obj(out);
    game_text_kint(out, "dave", st->marker_dave);
    game_text_kint(out, "morgana", st->marker_morgana);
    game_text_end_obj(out);
}

static void write_max_turns(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    game_text_int(out, st->max_turns);
}

static void write_moved_between_hands(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    game_text_int(out, st->nxfer);
}

static void write_phase(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    game_text_str(out, sorc__phase_name(st->phase));
}

static void write_play(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    game_text_arr(out);
    for (int i = 0; i < st->ninplay; i++) {
        write_sorcerer(out, st, i);
    }
    game_text_end_arr(out);
}

/* null while the game runs; once it is over, {"reason", "scores",
 * "winners"} (game.h), and "forfeit" after a forfeit. */
static void write_result(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;
    int ws;

    if (!st->over) {
        game_text_null(out);
        return;
    }
    ws = st->winner_side >= 0 ? sorc__seat(st, st->winner_side) : -1;
    game_text_obj(out);
    if (st->reason == SORC_R_FORFEIT) {
        /* R-sorcerers-7.1: the seat that forfeited, the loser. */
        game_text_kint(out, "forfeit", sorc__seat(st, st->winner_side ^ 1));
    }
    game_text_kstr(out, "reason", sorc__reason_name(st->reason));
    game_text_karr(out, "scores");
    game_text_int(out, ws == 0);
    game_text_int(out, ws == 1);
    game_text_end_arr(out);
    game_text_karr(out, "winners");
    if (ws >= 0) {
        game_text_int(out, ws);
    }
    game_text_end_arr(out);
    game_text_end_obj(out);
}

static int seat_count(const void *state)
{
    (void)state;
    return 2;
}

/* One seat's public part: an item of "seats". */
static void write_seat(struct game_text *out, const void *state, int seat)
{
    const struct sorc_state *st = state;
    int side = sorc__side(st, seat);

    game_text_obj(out);
    game_text_kstr(out, "faction", faction(side));
    game_text_kint(out, "hand_limit", sorc__hand_limit(st, side));
    game_text_kint(out, "hand_size", st->nhand[side]);
    game_text_kstr(out, "name", st->names[seat]);
    game_text_kint(out, "seat", seat);
    game_text_karr(out, "sorcerers");
    for (int i = 0; i < st->ninplay; i++) {
        if (sorc__controller(st->inplay[i].card) == side) {
            write_sorcerer(out, st, i);
        }
    }
    game_text_end_arr(out);
    if (sealed_phase(st->phase)) {
        game_text_kbool(out, "submitted", st->combo[side].submitted);
    }
    game_text_end_obj(out);
}

/* Shown while the duel's winner steals. */
static void write_steals_left(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    if (st->phase == SORC_P_DUEL_STEAL) {
        game_text_int(out, st->steal_left);
    } else {
        game_text_null(out);
    }
}

static void write_turn(struct game_text *out, const void *state)
{
    const struct sorc_state *st = state;

    game_text_int(out, st->turn);
}

const struct game_section sorc__sections[SORC_NSECTIONS] = {
    [SORC_SEC_ACTIVE] = {"active", write_active},
    [SORC_SEC_DECK_SIZE] = {"deck_size", write_deck_size},
    [SORC_SEC_DISCARD] = {"discard", write_discard},
    [SORC_SEC_DUEL] = {"duel", write_duel},
    [SORC_SEC_EVENT] = {"event", write_event},
    [SORC_SEC_GAME] = {"game", write_game},
    [SORC_SEC_GATES] = {"gates", write_gates},
    [SORC_SEC_GRIMHOLD] = {"grimhold", write_grimhold},
    [SORC_SEC_LOG] = {"log", NULL, log_count, write_log_line, log_seq},
    [SORC_SEC_LOG_KEYS] = {"log_keys", NULL, log_count, write_log_msg, log_seq},
    [SORC_SEC_MARKERS] = {"markers", write_markers},
    [SORC_SEC_MAX_TURNS] = {"max_turns", write_max_turns},
    [SORC_SEC_MOVED_BETWEEN_HANDS] = {"moved_between_hands", write_moved_between_hands},
    [SORC_SEC_PHASE] = {"phase", write_phase},
    [SORC_SEC_PLAY] = {"play", write_play},
    [SORC_SEC_RESULT] = {"result", write_result},
    [SORC_SEC_SEATS] = {"seats", NULL, seat_count, write_seat},
    [SORC_SEC_STEALS_LEFT] = {"steals_left", write_steals_left},
    [SORC_SEC_TURN] = {"turn", write_turn},
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

/* The sorcerers in play that `side` controls, in order, with their
 * objects and flags (its seat's "sorcerers" and hand limit). */
static int same_side_play(const struct sorc_state *b, const struct sorc_state *a, int side)
{
    int i = 0, j = 0;

    for (;;) {
        while (i < b->ninplay && sorc__controller(b->inplay[i].card) != side) {
            i++;
        }
        while (j < a->ninplay && sorc__controller(a->inplay[j].card) != side) {
            j++;
        }
        if (i == b->ninplay || j == a->ninplay) {
            return i == b->ninplay && j == a->ninplay;
        }
        if (memcmp(&b->inplay[i], &a->inplay[j], sizeof(b->inplay[i])) != 0) {
            return 0;
        }
        i++;
        j++;
    }
}

/* The item of "seats" of the seat playing `side`: its name, hand size,
 * sorcerers (and with them its hand limit) and, while combos are sealed,
 * whether it submitted (its faction follows the seating, compared
 * apart). */
static int same_seat(const struct sorc_state *b, const struct sorc_state *a, int side)
{
    int sealed = sealed_phase(b->phase);

    if (!SAME(names[sorc__seat(b, side)]) || !SAME(nhand[side]) || !same_side_play(b, a, side) ||
        sealed != sealed_phase(a->phase)) {
        return 0;
    }
    return !sealed || b->combo[side].submitted == a->combo[side].submitted;
}

/* What "you" of the seat playing `side` reads (same_you(), for one side;
 * the seating is the same). */
static int same_side_you(const struct sorc_state *b, const struct sorc_state *a, int side)
{
    int opp = side ^ 1;

    if (!SAME(phase) || !SAME(cur_side) || !SAME(combo[side]) || !SAME(scry_n[side]) ||
        !SAME(scry[side]) || !SAME(div_n[side]) || !SAME(div[side]) || !SAME(tracked[side]) ||
        !SAME(nxfer) || !SAME(xfer_card) || !SAME(xfer_from) ||
        !same_prefix(b->hand[side], b->nhand[side], a->hand[side], a->nhand[side])) {
        return 0;
    }
    /* The opponent's hand while stealing, the deck while tracking. */
    if (b->phase == SORC_P_DUEL_STEAL &&
        !same_prefix(b->hand[opp], b->nhand[opp], a->hand[opp], a->nhand[opp])) {
        return 0;
    }
    return b->phase != SORC_P_EVENT_TRACK || same_prefix(b->deck, b->ndeck, a->deck, a->ndeck);
}

/* The item and "you" masks of game.h, by seat. */
void sorc__parts_changed(const void *before, const void *after, unsigned *items, unsigned *you)
{
    const struct sorc_state *b = before;
    const struct sorc_state *a = after;

    *items = 0;
    *you = 0;
    if (!SAME(mer_seat)) {
        *items = *you = 3u;
        return;
    }
    for (int seat = 0; seat < 2; seat++) {
        int side = sorc__side(b, seat);
        if (!same_seat(b, a, side)) {
            *items |= 1u << seat;
        }
        if (!same_side_you(b, a, side)) {
            *you |= 1u << seat;
        }
    }
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
    /* A line and its message are written together. */
    if (!SAME(log_head) || !SAME(log_n) || !SAME(log) || !SAME(log_msg)) {
        m |= BIT(SORC_SEC_LOG) | BIT(SORC_SEC_LOG_KEYS);
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
    if (!SAME(mer_seat) || !same_seat(b, a, 0) || !same_seat(b, a, 1)) {
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
