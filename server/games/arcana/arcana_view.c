/* SPDX-License-Identifier: MIT */
/*
 * arcana_view.c - the public view of Res Arcana as canonical JSON text, one
 * writer per section (keys in increasing byte order), the change mask, and
 * "you": the seat's hand, setup and draft choices, the cards of an open
 * look and the known deck tops (R-arcana-11.3). No deck order, no hidden
 * card and nothing of the generator appears anywhere.
 */
#include <string.h>

#include "arcana.h"
#include "json_util.h"

const char *const arc_phase_name[] = {
    "setup_mage",         "draft",       "setup_item", "collect", "actions", "victory_check",
    "match_first_player", "match_draft", "ended",
};

const char *const arc_dec_name[ARC_D_COUNT] = {
    "none",   "top",   "pay",   "same",  "same_more", "gain",  "gain_discard",
    "target", "rival", "deck",  "order", "respond",   "lose",  "statue",
    "item",   "take",  "forge", "mage",  "draft",     "first", "match_draft",
};

const char *const arc_why_name[ARC_WHY_COUNT] = {
    "none", "destroy", "discard", "place", "straighten", "turn", "receive", "discard", "destroy",
};

/* An essence map in key order: calm, death, elan, gold, life. */
static void write_ess(struct game_text *out, const int32_t *v)
{
    static const int order[ARC_NESS] = {ARC_C, ARC_D, ARC_E, ARC_G, ARC_L};
    const char *keys[ARC_NESS];
    long long n[ARC_NESS];
    for (int i = 0; i < ARC_NESS; i++) {
        keys[i] = arc_ess_name[order[i]];
        n[i] = v[order[i]];
    }
    game_text_int_obj(out, keys, n, ARC_NESS);
}

static void write_ids(struct game_text *out, const int8_t *v, int n)
{
    game_text_arr(out);
    for (int i = 0; i < n; i++) {
        game_text_str(out, arc_cards[v[i]].id);
    }
    game_text_end_arr(out);
}

static void write_zone(struct game_text *out, const struct arc_core *c, int loc, int owner)
{
    int8_t v[ARC_NCARDS];
    write_ids(out, v, arc__zone(c, loc, owner, v));
}

static void write_component(struct game_text *out, const struct arc_core *c, int card)
{
    game_text_obj(out);
    game_text_kstr(out, "card", arc_cards[card].id);
    game_text_key(out, "essences");
    write_ess(out, c->card[card].ess);
    game_text_kbool(out, "turned", c->card[card].turned);
    game_text_end_obj(out);
}

static void write_active(struct game_text *out, const void *state)
{
    const struct arc_core *c = &((const struct arc_state *)state)->c;
    unsigned m = arc__active(c);
    game_text_arr(out);
    for (int s = 0; s < c->nseats; s++) {
        if (m & (1u << s)) {
            game_text_int(out, s);
        }
    }
    game_text_end_arr(out);
}

static void write_board(struct game_text *out, const void *state)
{
    const struct arc_core *c = &((const struct arc_state *)state)->c;
    game_text_obj(out);
    game_text_key(out, "display");
    write_zone(out, c, ARC_L_DISPLAY, -1);
    game_text_kint(out, "first", c->first);
    game_text_kbool(out, "first_passed", c->first_passed);
    game_text_kint(out, "monument_deck", arc__zone_count(c, ARC_L_MDECK, -1));
    game_text_karr(out, "pops");
    for (int i = ARC_FIRST_POP; i < ARC_NCARDS; i++) {
        const struct arc_cardst *k = &c->card[i];
        if (k->loc != ARC_L_BOARD && !(k->loc == ARC_L_PLAY)) {
            continue;
        }
        game_text_obj(out);
        game_text_kstr(out, "card", arc_cards[i].id);
        game_text_key(out, "essences");
        write_ess(out, k->ess);
        game_text_key(out, "owner");
        if (k->loc == ARC_L_PLAY) {
            game_text_int(out, k->owner);
        } else {
            game_text_null(out);
        }
        game_text_kbool(out, "turned", k->turned);
        game_text_end_obj(out);
    }
    game_text_end_arr(out);
    game_text_key(out, "supply");
    write_zone(out, c, ARC_L_SUPPLY, -1);
    game_text_end_obj(out);
}

static void write_card_or_null(struct game_text *out, int card)
{
    if (card >= 0 && card < ARC_NCARDS) {
        game_text_str(out, arc_cards[card].id);
    } else {
        game_text_null(out);
    }
}

static void write_decision(struct game_text *out, const void *state)
{
    const struct arc_core *c = &((const struct arc_state *)state)->c;
    const struct arc_res *r = &c->res;
    int d = c->dec;
    if (c->over || d == ARC_D_NONE || d == ARC_D_TOP) {
        game_text_null(out);
        return;
    }
    bool in_action = c->phase == ARC_PH_ACTIONS && r->kind != ARC_R_NONE;
    bool ll = d == ARC_D_RESPOND || d == ARC_D_LOSE ||
              (d == ARC_D_TARGET && (r->why == ARC_WHY_IG_DISCARD || r->why == ARC_WHY_IG_DESTROY));
    game_text_obj(out);
    if (ll) {
        game_text_kint(out, "amount", r->ll_amount);
        game_text_kint(out, "attacker", r->actor);
    }
    game_text_key(out, "card");
    if (d == ARC_D_TAKE) {
        write_card_or_null(out, c->col.list[c->col.i]);
    } else if (d == ARC_D_FORGE) {
        write_card_or_null(out, ARC_ID_CURSED_FORGE);
    } else if (d == ARC_D_STATUE) {
        write_card_or_null(out, ARC_ID_GOLDEN_STATUE);
    } else if (in_action && r->kind != ARC_R_PASS) {
        write_card_or_null(out, r->src);
    } else {
        game_text_null(out);
    }
    game_text_kstr(out, "kind", arc_dec_name[d]);
    if (d == ARC_D_PAY || d == ARC_D_GAIN || d == ARC_D_LOSE) {
        int left = r->left;
        if (d == ARC_D_GAIN && c->phase == ARC_PH_COLLECT) {
            left = c->col.gq_left[c->col.gq_i];
        }
        game_text_kint(out, "left", left);
    }
    if (d == ARC_D_PAY || d == ARC_D_SAME_MORE) {
        int32_t paid[ARC_NESS];
        memcpy(paid, r->paid, sizeof(paid));
        if (d == ARC_D_SAME_MORE) {
            memset(paid, 0, sizeof(paid));
            paid[r->bind_type] = r->bind_x;
        }
        game_text_key(out, "paid");
        write_ess(out, paid);
    }
    if (d == ARC_D_PAY) {
        game_text_key(out, "placing");
        write_card_or_null(out, r->paymode == 1 ? r->placing : -1);
    }
    game_text_key(out, "power");
    if (in_action && r->kind == ARC_R_POWER) {
        game_text_int(out, r->power);
    } else {
        game_text_null(out);
    }
    game_text_key(out, "seat");
    if (c->dec_seat >= 0) {
        game_text_int(out, c->dec_seat);
    } else {
        game_text_null(out);
    }
    if (d == ARC_D_TARGET) {
        game_text_kstr(out, "why", arc_why_name[r->why]);
    }
    game_text_end_obj(out);
}

static void write_game(struct game_text *out, const void *state)
{
    (void)state;
    game_text_str(out, "arcana");
}

/* The log: its lines oldest first, as items (game_section.seq), and
 * beside them their messages. Line `i` is in the ring's slot log_slot(). */
static int log_slot(const struct arc_state *st, int i)
{
    return (st->log_head - st->log_n + i + 2 * ARC_LOG_N) % ARC_LOG_N;
}

static int log_count(const void *state)
{
    return ((const struct arc_state *)state)->log_n;
}

static uint32_t log_seq(const void *state)
{
    return ((const struct arc_state *)state)->log_seq;
}

static void write_log_line(struct game_text *out, const void *state, int i)
{
    const struct arc_state *st = state;
    game_text_str(out, st->log[log_slot(st, i)]);
}

/* One message per line of "log", in the same order (game_text_msg()). */
static void write_log_msg(struct game_text *out, const void *state, int i)
{
    const struct arc_state *st = state;
    game_text_msg(out, st->log_msg[log_slot(st, i)]);
}

static void write_winner_list(struct game_text *out, unsigned mask, int n)
{
    game_text_arr(out);
    for (int s = 0; s < n; s++) {
        if (mask & (1u << s)) {
            game_text_int(out, s);
        }
    }
    game_text_end_arr(out);
}

static void write_match(struct game_text *out, const void *state)
{
    const struct arc_core *c = &((const struct arc_state *)state)->c;
    const struct arc_match *m = &c->match;
    if (!m->on) {
        game_text_null(out);
        return;
    }
    game_text_obj(out);
    game_text_kint(out, "game", m->game);
    game_text_key(out, "pool");
    write_zone(out, c, ARC_L_POOL, -1);
    game_text_karr(out, "results");
    for (int g = 0; g < m->ngames; g++) {
        game_text_obj(out);
        game_text_key(out, "winners");
        write_winner_list(out, (unsigned)m->winners[g], 2);
        game_text_end_obj(out);
    }
    game_text_end_arr(out);
    game_text_karr(out, "score");
    game_text_int(out, m->score[0]);
    game_text_int(out, m->score[1]);
    game_text_end_arr(out);
    game_text_end_obj(out);
}

static void write_phase(struct game_text *out, const void *state)
{
    const struct arc_core *c = &((const struct arc_state *)state)->c;
    game_text_str(out, arc_phase_name[c->phase]);
}

static void write_result(struct game_text *out, const void *state)
{
    const struct arc_core *c = &((const struct arc_state *)state)->c;
    if (!c->over) {
        game_text_null(out);
        return;
    }
    game_text_obj(out);
    if (c->forfeit >= 0) {
        game_text_kint(out, "forfeit", c->forfeit);
    }
    if (c->match.on) {
        game_text_karr(out, "games");
        for (int g = 0; g < c->match.ngames; g++) {
            game_text_obj(out);
            game_text_key(out, "winners");
            write_winner_list(out, (unsigned)c->match.winners[g], 2);
            game_text_end_obj(out);
        }
        game_text_end_arr(out);
    }
    if (c->forfeit >= 0) {
        int8_t rank[ARC_MAX_SEATS];
        int n = arc__ranking(c, rank);
        game_text_karr(out, "ranking");
        for (int i = 0; i < n; i++) {
            game_text_int(out, rank[i]);
        }
        game_text_end_arr(out);
    }
    game_text_kbool(out, "round_limit", c->round_limit);
    game_text_karr(out, "scores");
    for (int s = 0; s < c->nseats; s++) {
        game_text_int(out, c->match.on ? c->match.score[s] : c->final_vp[s]);
    }
    game_text_end_arr(out);
    game_text_karr(out, "tiebreak");
    for (int s = 0; s < c->nseats; s++) {
        game_text_int(out, c->final_tb[s]);
    }
    game_text_end_arr(out);
    game_text_key(out, "winners");
    write_winner_list(out, c->winners, c->nseats);
    game_text_end_obj(out);
}

static void write_round(struct game_text *out, const void *state)
{
    game_text_int(out, ((const struct arc_state *)state)->c.round);
}

/* A seat's item: an object of these fields (sorted by bytes). */
enum seat_field {
    F_DECK,
    F_DISCARD,
    F_HAND,
    F_ITEM,
    F_KEPT,
    F_LOOKED,
    F_MAGE,
    F_MAGE_CHOSEN,
    F_NAME,
    F_PASSED,
    F_PICKED,
    F_PLAY,
    F_POOL,
    F_VP,
    SEAT_NFIELDS
};

static const char *const seat_keys[SEAT_NFIELDS] = {
    [F_DECK] = "deck",     [F_DISCARD] = "discard",
    [F_HAND] = "hand",     [F_ITEM] = "item",
    [F_KEPT] = "kept",     [F_LOOKED] = "looked",
    [F_MAGE] = "mage",     [F_MAGE_CHOSEN] = "mage_chosen",
    [F_NAME] = "name",     [F_PASSED] = "passed",
    [F_PICKED] = "picked", [F_PLAY] = "play",
    [F_POOL] = "pool",     [F_VP] = "vp",
};

static void write_seat_field(struct game_text *out, const void *state, int s, int f)
{
    const struct arc_state *st = state;
    const struct arc_core *c = &st->c;
    const struct arc_seat *p = &c->seat[s];
    int8_t v[ARC_NCARDS];

    switch ((enum seat_field)f) {
    case F_DECK:
        game_text_int(out, arc__zone_count(c, ARC_L_DECK, s));
        break;
    case F_DISCARD:
        write_zone(out, c, ARC_L_DISCARD, s);
        break;
    case F_HAND:
        game_text_int(out, arc__zone_count(c, ARC_L_HAND, s));
        break;
    case F_ITEM:
        write_card_or_null(out, p->item);
        break;
    case F_KEPT:
        game_text_int(out, arc__zone_count(c, ARC_L_KEPT, s));
        break;
    case F_LOOKED:
        if (p->looked_deck >= 0) {
            game_text_obj(out);
            game_text_kint(out, "count", p->looked_n);
            game_text_kstr(out, "deck", p->looked_deck == 0 ? "own" : "monument");
            game_text_end_obj(out);
        } else {
            game_text_null(out);
        }
        break;
    case F_MAGE:
        write_card_or_null(out, p->mage);
        break;
    case F_MAGE_CHOSEN:
        game_text_bool(out, p->mage >= 0 || p->mage_pick >= 0);
        break;
    case F_NAME:
        game_text_str(out, st->names[s]);
        break;
    case F_PASSED:
        game_text_bool(out, p->passed);
        break;
    case F_PICKED:
        game_text_bool(out, p->draft_pick >= 0);
        break;
    case F_PLAY: {
        int n = arc__components(c, s, v);
        game_text_arr(out);
        for (int i = 0; i < n; i++) {
            write_component(out, c, v[i]);
        }
        game_text_end_arr(out);
        break;
    }
    case F_POOL:
        write_ess(out, p->pool);
        break;
    case F_VP:
    case SEAT_NFIELDS:
        game_text_int(out, arc__vp(c, s));
        break;
    }
}

static void write_seat(struct game_text *out, const void *state, int s)
{
    game_text_fields(out, &arc__sections[ARC_S_SEATS], state, s, NULL);
}

#define FIELD(f) (UINT32_C(1) << (f))

/* The field of a seat's item that shows the seat's cards at `loc`: its
 * deck, discard, hand and kept cards, its components in play. */
static uint32_t zone_field(int loc)
{
    switch (loc) {
    case ARC_L_DECK:
        return FIELD(F_DECK);
    case ARC_L_DISCARD:
        return FIELD(F_DISCARD);
    case ARC_L_HAND:
        return FIELD(F_HAND);
    case ARC_L_KEPT:
        return FIELD(F_KEPT);
    case ARC_L_PLAY:
        return FIELD(F_PLAY);
    default:
        return 0;
    }
}

/* The fields of seat s's item that may differ: each member of the seat
 * names the fields it is shown in; a card of the seat's (before or after)
 * that changed names the fields of the zones it was and is in; the
 * points, counted from much of the table, are always named. */
static uint32_t seat_fields_changed(const void *before, const void *after, int s)
{
    const struct arc_state *sa = before;
    const struct arc_state *sb = after;
    const struct arc_core *a = &sa->c;
    const struct arc_core *b = &sb->c;
    const struct arc_seat *pa, *pb;
    uint32_t m = FIELD(F_VP);

    if (a->nseats != b->nseats || s >= b->nseats) {
        return (UINT32_C(1) << SEAT_NFIELDS) - 1;
    }
    pa = &a->seat[s];
    pb = &b->seat[s];
    if (strcmp(sa->names[s], sb->names[s]) != 0) {
        m |= FIELD(F_NAME);
    }
    if (memcmp(pa->pool, pb->pool, sizeof(pa->pool)) != 0) {
        m |= FIELD(F_POOL);
    }
    if (pa->passed != pb->passed) {
        m |= FIELD(F_PASSED);
    }
    if (pa->mage != pb->mage) {
        m |= FIELD(F_MAGE) | FIELD(F_MAGE_CHOSEN);
    }
    if (pa->mage_pick != pb->mage_pick) {
        m |= FIELD(F_MAGE_CHOSEN);
    }
    if (pa->item != pb->item) {
        m |= FIELD(F_ITEM);
    }
    if (pa->draft_pick != pb->draft_pick) {
        m |= FIELD(F_PICKED);
    }
    if (pa->looked_deck != pb->looked_deck || pa->looked_n != pb->looked_n) {
        m |= FIELD(F_LOOKED);
    }
    for (int i = 0; i < ARC_NCARDS; i++) {
        const struct arc_cardst *ka = &a->card[i], *kb = &b->card[i];
        if ((ka->owner == s || kb->owner == s) && memcmp(ka, kb, sizeof(*ka)) != 0) {
            m |= (ka->owner == s ? zone_field(ka->loc) : 0) |
                 (kb->owner == s ? zone_field(kb->loc) : 0);
        }
    }
    return m;
}

static int seat_count(const void *state)
{
    return ((const struct arc_state *)state)->c.nseats;
}

const struct game_section arc__sections[ARC_NSECTIONS] = {
    [ARC_S_ACTIVE] = {"active", write_active},
    [ARC_S_BOARD] = {"board", write_board},
    [ARC_S_DECISION] = {"decision", write_decision},
    [ARC_S_GAME] = {"game", write_game},
    [ARC_S_LOG] = {"log", NULL, log_count, write_log_line, log_seq},
    [ARC_S_LOG_KEYS] = {"log_keys", NULL, log_count, write_log_msg, log_seq},
    [ARC_S_MATCH] = {"match", write_match},
    [ARC_S_PHASE] = {"phase", write_phase},
    [ARC_S_RESULT] = {"result", write_result},
    [ARC_S_ROUND] = {"round", write_round},
    [ARC_S_SEATS] = {"seats", NULL, seat_count, write_seat, .nfields = SEAT_NFIELDS,
                     .field_keys = seat_keys, .write_field = write_seat_field,
                     .fields_changed = seat_fields_changed},
};

#define BIT(k) (UINT64_C(1) << (k))
#define DIFF(f) (memcmp(&a->f, &b->f, sizeof(a->f)) != 0)

/* The bit of seat `s` in an item mask; none for no seat. */
static unsigned owner_bit(int s)
{
    return s >= 0 && s < ARC_MAX_SEATS ? 1u << s : 0;
}

/* Whether a card the board shows changed: a Place of Power (claimed or
 * not), or a card in or out of the monument display or deck or the magic
 * item supply. */
static bool board_cards_changed(const struct arc_core *a, const struct arc_core *b)
{
    for (int i = 0; i < ARC_NCARDS; i++) {
        if (memcmp(&a->card[i], &b->card[i], sizeof(a->card[i])) == 0) {
            continue;
        }
        uint8_t la = a->card[i].loc, lb = b->card[i].loc;
        if (i >= ARC_FIRST_POP || la == ARC_L_DISPLAY || la == ARC_L_MDECK || la == ARC_L_SUPPLY ||
            lb == ARC_L_DISPLAY || lb == ARC_L_MDECK || lb == ARC_L_SUPPLY) {
            return true;
        }
    }
    return false;
}

/* Each section names the parts of the state it is written from. */
uint64_t arc__changed(const void *before, const void *after)
{
    const struct arc_state *sa = before;
    const struct arc_state *sb = after;
    const struct arc_core *a = &sa->c;
    const struct arc_core *b = &sb->c;
    if (a->nseats != b->nseats) {
        return GAME_CHANGED_ALL;
    }
    bool cards = DIFF(card);
    bool seats = DIFF(seat);
    bool res = DIFF(res) || DIFF(col);
    bool flow = DIFF(phase) || DIFF(dec) || DIFF(dec_seat) || DIFF(over);
    bool token = DIFF(first) || DIFF(first_passed) || DIFF(statue_used);
    bool match = DIFF(match);
    uint64_t m = 0;
    if (flow || cards || seats) {
        m |= BIT(ARC_S_ACTIVE);
    }
    if (token || (cards && board_cards_changed(a, b))) {
        m |= BIT(ARC_S_BOARD);
    }
    if (flow || res || cards) {
        m |= BIT(ARC_S_DECISION);
    }
    /* A line and its message are written together: log and log_keys
     * change together. */
    if (memcmp(sa->log, sb->log, sizeof(sa->log)) != 0 ||
        memcmp(sa->log_msg, sb->log_msg, sizeof(sa->log_msg)) != 0 || sa->log_n != sb->log_n ||
        sa->log_head != sb->log_head) {
        m |= BIT(ARC_S_LOG) | BIT(ARC_S_LOG_KEYS);
    }
    if (match || cards) {
        m |= BIT(ARC_S_MATCH);
    }
    if (DIFF(phase)) {
        m |= BIT(ARC_S_PHASE);
    }
    if (match || DIFF(over) || DIFF(final_vp) || DIFF(final_tb) || DIFF(winners) || DIFF(forfeit) ||
        DIFF(round_limit) || DIFF(nseats)) {
        m |= BIT(ARC_S_RESULT);
    }
    if (DIFF(round)) {
        m |= BIT(ARC_S_ROUND);
    }
    if (cards || seats || token) {
        m |= BIT(ARC_S_SEATS);
    }
    if (cards || seats || res) {
        m |= GAME_CHANGED_YOU;
    }
    return m;
}

/* The zones a seat's "you" shows (arc__you). */
static bool you_zone(int loc)
{
    return loc == ARC_L_HAND || loc == ARC_L_KEPT || loc == ARC_L_LOOK || loc == ARC_L_MAGEOPT ||
           loc == ARC_L_PACK;
}

/* Whether the members of a seat that its "you" shows are the same. */
static bool same_you_seat(const struct arc_seat *a, const struct arc_seat *b)
{
    return a->known_own_n == b->known_own_n && a->known_mon_n == b->known_mon_n &&
           memcmp(a->known_own, b->known_own, sizeof(a->known_own)) == 0 &&
           memcmp(a->known_mon, b->known_mon, sizeof(a->known_mon)) == 0 &&
           a->mage_pick == b->mage_pick && a->draft_pick == b->draft_pick;
}

/* A seat's item is written from its own seat, its name, the cards it
 * owns (before or after), the first player's token and the Golden
 * Statue's points (its victory points); its "you" from what it shows of
 * its seat, the cards in and out of the zones it shows, and the cards it
 * looks at (the resolution's). */
void arc__parts_changed(const void *before, const void *after, unsigned *items, unsigned *you)
{
    const struct arc_state *sa = before;
    const struct arc_state *sb = after;
    const struct arc_core *a = &sa->c;
    const struct arc_core *b = &sb->c;
    unsigned own = 0, look = 0, shown = 0;

    if (a->nseats != b->nseats) {
        *items = *you = ~0u;
        return;
    }
    for (int s = 0; s < b->nseats; s++) {
        if (memcmp(&a->seat[s], &b->seat[s], sizeof(a->seat[s])) != 0) {
            own |= 1u << s;
            shown |= same_you_seat(&a->seat[s], &b->seat[s]) ? 0 : 1u << s;
        }
    }
    /* Most moves (a payment, a gain) move no card: one comparison of
     * them all first. */
    bool cards = DIFF(card), res = DIFF(res);
    for (int i = 0; cards && i < ARC_NCARDS; i++) {
        if (memcmp(&a->card[i], &b->card[i], sizeof(a->card[i])) != 0) {
            own |= owner_bit(a->card[i].owner) | owner_bit(b->card[i].owner);
            /* A card in or out of a zone its owner's "you" shows. */
            shown |= (you_zone(a->card[i].loc) ? owner_bit(a->card[i].owner) : 0) |
                     (you_zone(b->card[i].loc) ? owner_bit(b->card[i].owner) : 0);
        }
    }
    /* The cards looked at, whose owners' "you" show the resolution. */
    for (int i = 0; res && i < ARC_NCARDS; i++) {
        if (a->card[i].loc == ARC_L_LOOK) {
            look |= owner_bit(a->card[i].owner);
        }
        if (b->card[i].loc == ARC_L_LOOK) {
            look |= owner_bit(b->card[i].owner);
        }
    }
    *you = shown | look;
    for (int s = 0; s < b->nseats; s++) {
        if (strcmp(sa->names[s], sb->names[s]) != 0) {
            own |= 1u << s;
        }
    }
    if (a->first != b->first) {
        own |= owner_bit(a->first) | owner_bit(b->first);
    }
    if (a->statue_used != b->statue_used) {
        own |= owner_bit(a->card[ARC_ID_GOLDEN_STATUE].owner) |
               owner_bit(b->card[ARC_ID_GOLDEN_STATUE].owner);
    }
    *items = own;
}

void arc__you(struct game_text *out, const void *state, int seat)
{
    const struct arc_core *c = &((const struct arc_state *)state)->c;
    const struct arc_seat *p = &c->seat[seat];
    const struct arc_res *r = &c->res;
    game_text_obj(out);
    game_text_key(out, "deck_top");
    write_ids(out, p->known_own, p->known_own_n);
    game_text_key(out, "hand");
    write_zone(out, c, ARC_L_HAND, seat);
    game_text_key(out, "kept");
    write_zone(out, c, ARC_L_KEPT, seat);
    game_text_key(out, "looking");
    if (arc__zone_count(c, ARC_L_LOOK, seat) > 0) {
        write_ids(out, r->look_cards, r->look_n);
    } else {
        write_ids(out, r->look_cards, 0);
    }
    game_text_key(out, "mage");
    write_card_or_null(out, p->mage_pick);
    game_text_key(out, "mages");
    write_zone(out, c, ARC_L_MAGEOPT, seat);
    game_text_key(out, "monument_top");
    write_ids(out, p->known_mon, p->known_mon_n);
    game_text_key(out, "pack");
    write_zone(out, c, ARC_L_PACK, seat);
    game_text_key(out, "pick");
    write_card_or_null(out, p->draft_pick);
    game_text_kint(out, "seat", seat);
    game_text_end_obj(out);
}
