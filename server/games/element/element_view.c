/* SPDX-License-Identifier: MIT */
/*
 * element_view.c - the public view of Element as canonical JSON text, one
 * writer per section (keys in increasing byte order), the change mask, and
 * "you" (the seat only: Element hides nothing from a seat, R-element-4.7,
 * but the bag's future draws, which no view shows: the bag is counts).
 */
#include <stdio.h>
#include <string.h>

#include "element.h"

#include "json_util.h"

#define BIT(k) (UINT64_C(1) << (k))

/* Ranks in the byte order of their names: 1, 10, 11, 2, .., 9. */
static const int rank_order[ELEMENT_SIDE] = {1, 10, 11, 2, 3, 4, 5, 6, 7, 8, 9};

static void write_active(struct game_text *out, const void *state)
{
    int seat = element__current_seat(state);
    game_text_arr(out);
    if (seat >= 0) {
        game_text_int(out, seat);
    }
    game_text_end_arr(out);
}

/* Counts per type; the silver stones as one type (I-31). */
static void write_bag(struct game_text *out, const void *state)
{
    const struct element_core *c = &((const struct element_state *)state)->c;
    game_text_obj(out);
    game_text_kint(out, "earth", c->bag[ELEMENT_T_EARTH]);
    game_text_kint(out, "fire", c->bag[ELEMENT_T_FIRE]);
    game_text_kint(out, "silver", c->bag[ELEMENT_T_SILVER]);
    game_text_kint(out, "water", c->bag[ELEMENT_T_WATER]);
    game_text_kint(out, "wind", c->bag[ELEMENT_T_WIND]);
    game_text_end_obj(out);
}

/* The occupied squares: {"d4": {"height": 1, "stone": "fire"}, ...}, with
 * "range" on Mountain and Range squares and "storm" on Storm Winds. */
static void write_board(struct game_text *out, const void *state)
{
    const struct element_core *c = &((const struct element_state *)state)->c;
    uint8_t range[ELEMENT_NSQ];
    uint8_t storm[ELEMENT_NSQ];
    element__ranges(c, range);
    element__storms(c, storm);
    game_text_obj(out);
    for (int f = 0; f < ELEMENT_SIDE; f++) {
        for (int r = 0; r < ELEMENT_SIDE; r++) {
            int sq = (rank_order[r] - 1) * ELEMENT_SIDE + f;
            char name[4];
            if (c->kind[sq] == ELEMENT_K_EMPTY) {
                continue;
            }
            element__sq_name(sq, name);
            game_text_kobj(out, name);
            game_text_kint(out, "height", c->height[sq]);
            if (range[sq]) {
                game_text_kbool(out, "range", true);
            }
            game_text_kstr(out, "stone", element_kind_name[c->kind[sq]]);
            if (storm[sq]) {
                game_text_kbool(out, "storm", true);
            }
            game_text_end_obj(out);
        }
    }
    game_text_end_obj(out);
}

static void write_game(struct game_text *out, const void *state)
{
    (void)state;
    game_text_str(out, "element");
}

/* The log: its lines oldest first, as items (game_section.seq), and
 * beside them their messages. Line `i` is in the ring's slot log_slot(). */
static int log_slot(const struct element_state *st, int i)
{
    return (st->log_head - st->log_n + i + 2 * ELEMENT_LOG_N) % ELEMENT_LOG_N;
}

static int log_count(const void *state)
{
    return ((const struct element_state *)state)->log_n;
}

static uint32_t log_seq(const void *state)
{
    return ((const struct element_state *)state)->log_seq;
}

static void write_log_line(struct game_text *out, const void *state, int i)
{
    const struct element_state *st = state;
    game_text_str(out, st->log[log_slot(st, i)]);
}

/* One message per line of "log", in the same order (game_text_msg()). */
static void write_log_msg(struct game_text *out, const void *state, int i)
{
    const struct element_state *st = state;
    game_text_msg(out, st->log_msg[log_slot(st, i)]);
}

static void write_squares(struct game_text *out, const uint8_t *sq, int n)
{
    char name[4];
    game_text_arr(out);
    for (int i = 0; i < n; i++) {
        element__sq_name(sq[i], name);
        game_text_str(out, name);
    }
    game_text_end_arr(out);
}

static bool has_pending(const struct element_core *c)
{
    return c->phase >= ELEMENT_PH_CHAIN && c->phase <= ELEMENT_PH_CORRODE;
}

/* The open placement (I-37), or null. */
static void write_pending(struct game_text *out, const void *state)
{
    const struct element_core *c = &((const struct element_state *)state)->c;
    char name[4];
    if (!has_pending(c)) {
        game_text_null(out);
        return;
    }
    element__sq_name(c->p_at, name);
    game_text_obj(out);
    game_text_kstr(out, "at", name);
    if (c->phase == ELEMENT_PH_CHAIN) {
        game_text_key(out, "chain");
        write_squares(out, c->river + 1, c->r_n - 1);
    }
    if (c->phase == ELEMENT_PH_FLOW) {
        game_text_key(out, "entered");
        write_squares(out, c->entered, c->r_moved);
    }
    if (c->phase == ELEMENT_PH_GROW) {
        game_text_kint(out, "grow_left", c->grow_left);
    }
    if (c->phase == ELEMENT_PH_FLOW) {
        game_text_kint(out, "length", c->r_n);
        game_text_key(out, "river");
        write_squares(out, c->river, c->r_n);
    }
    game_text_kstr(out, "stone", element_stone_name[c->p_stone]);
    game_text_end_obj(out);
}

static void write_phase(struct game_text *out, const void *state)
{
    game_text_str(out, element_phase_name[((const struct element_state *)state)->c.phase]);
}

static void write_result(struct game_text *out, const void *state)
{
    const struct element_core *c = &((const struct element_state *)state)->c;
    if (c->phase != ELEMENT_PH_OVER) {
        game_text_null(out);
        return;
    }
    game_text_obj(out);
    if (c->forfeit >= 0) {
        game_text_kint(out, "forfeit", c->forfeit);
    }
    game_text_kstr(out, "reason", element_reason_name[c->reason]);
    game_text_karr(out, "scores");
    for (int s = 0; s < c->nseats; s++) {
        game_text_int(out, element__is_winner(c, s));
    }
    game_text_end_arr(out);
    game_text_karr(out, "winners");
    for (int s = 0; s < c->nseats; s++) {
        if (element__is_winner(c, s)) {
            game_text_int(out, s);
        }
    }
    game_text_end_arr(out);
    game_text_end_obj(out);
}

static void write_seats(struct game_text *out, const void *state)
{
    const struct element_state *st = state;
    const struct element_core *c = &st->c;
    char name[4];
    game_text_arr(out);
    for (int s = 0; s < c->nseats; s++) {
        element__sq_name(c->sage[s], name);
        game_text_obj(out);
        game_text_kstr(out, "name", st->names[s]);
        game_text_kstr(out, "sage", name);
        game_text_kint(out, "seat", s);
        game_text_kint(out, "target", element__target(c, s));
        game_text_end_obj(out);
    }
    game_text_end_arr(out);
}

static void write_silver(struct game_text *out, const void *state)
{
    const struct element_core *c = &((const struct element_state *)state)->c;
    if (c->silver == ELEMENT_SILVER_NONE) {
        game_text_null(out);
    } else {
        game_text_str(out, element_silver_name[c->silver]);
    }
}

/* The turn: who, the hand (public, I-21), steps and jumps, the stone
 * picked for the next placement (R-element-4.6), the rounds. */
static void write_turn(struct game_text *out, const void *state)
{
    const struct element_core *c = &((const struct element_state *)state)->c;
    game_text_obj(out);
    game_text_key(out, "drawn");
    if (c->drawn >= 0) {
        game_text_int(out, c->drawn);
    } else {
        game_text_null(out);
    }
    game_text_kbool(out, "final_round", c->final_seat >= 0);
    game_text_kint(out, "first", c->first);
    game_text_kobj(out, "hand");
    game_text_kint(out, "earth", c->hand[ELEMENT_T_EARTH]);
    game_text_kint(out, "fire", c->hand[ELEMENT_T_FIRE]);
    /* "lightning" and "metal" sort before "water", "wood" after "wind". */
    bool wood = c->silver == ELEMENT_SILVER_WOOD;
    if (c->silver != ELEMENT_SILVER_NONE && !wood) {
        game_text_kint(out, element_silver_name[c->silver], c->hand[ELEMENT_T_SILVER]);
    }
    game_text_kint(out, "water", c->hand[ELEMENT_T_WATER]);
    game_text_kint(out, "wind", c->hand[ELEMENT_T_WIND]);
    if (wood) {
        game_text_kint(out, "wood", c->hand[ELEMENT_T_SILVER]);
    }
    game_text_end_obj(out);
    game_text_kint(out, "jumps_left", ELEMENT_JUMP_LIMIT - c->jumps);
    game_text_key(out, "pick");
    game_text_str_or_null(out, c->pick > 0 ? element_stone_name[c->pick - 1] : NULL);
    game_text_kint(out, "round", c->round);
    game_text_kint(out, "seat", c->cur);
    game_text_kint(out, "steps", c->steps);
    game_text_end_obj(out);
}

const struct game_section element__sections[ELEMENT_NSECTIONS] = {
    [ELEMENT_S_ACTIVE] = {"active", write_active},
    [ELEMENT_S_BAG] = {"bag", write_bag},
    [ELEMENT_S_BOARD] = {"board", write_board},
    [ELEMENT_S_GAME] = {"game", write_game},
    [ELEMENT_S_LOG] = {"log", NULL, log_count, write_log_line, log_seq},
    [ELEMENT_S_LOG_KEYS] = {"log_keys", NULL, log_count, write_log_msg, log_seq},
    [ELEMENT_S_PENDING] = {"pending", write_pending},
    [ELEMENT_S_PHASE] = {"phase", write_phase},
    [ELEMENT_S_RESULT] = {"result", write_result},
    [ELEMENT_S_SEATS] = {"seats", write_seats},
    [ELEMENT_S_SILVER] = {"silver", write_silver},
    [ELEMENT_S_TURN] = {"turn", write_turn},
};

#define SAME(f) (memcmp(&a->f, &b->f, sizeof(a->f)) == 0)

uint64_t element__changed(const void *before, const void *after)
{
    const struct element_core *a = &((const struct element_state *)before)->c;
    const struct element_core *b = &((const struct element_state *)after)->c;
    const struct element_state *sa = before;
    const struct element_state *sb = after;
    uint64_t m = 0;

    if (!SAME(nseats) || !SAME(silver)) {
        return GAME_CHANGED_ALL;
    }
    if (!SAME(phase) || !SAME(cur)) {
        m |= BIT(ELEMENT_S_ACTIVE) | BIT(ELEMENT_S_PHASE) | BIT(ELEMENT_S_RESULT) |
             BIT(ELEMENT_S_PENDING);
    }
    if (!SAME(bag)) {
        m |= BIT(ELEMENT_S_BAG);
    }
    if (!SAME(kind) || !SAME(height)) {
        m |= BIT(ELEMENT_S_BOARD);
    }
    /* A line and its message are written together. */
    if (memcmp(sa->log, sb->log, sizeof(sa->log)) != 0 ||
        memcmp(sa->log_msg, sb->log_msg, sizeof(sa->log_msg)) != 0 || sa->log_n != sb->log_n ||
        sa->log_head != sb->log_head) {
        m |= BIT(ELEMENT_S_LOG) | BIT(ELEMENT_S_LOG_KEYS);
    }
    if (!SAME(p_stone) || !SAME(p_at) || !SAME(r_n) || !SAME(r_moved) || !SAME(river) ||
        !SAME(entered) || !SAME(grow_left)) {
        m |= BIT(ELEMENT_S_PENDING);
    }
    if (!SAME(winner) || !SAME(reason) || !SAME(forfeit)) {
        m |= BIT(ELEMENT_S_RESULT);
    }
    if (!SAME(sage)) {
        m |= BIT(ELEMENT_S_SEATS);
    }
    if (!SAME(drawn) || !SAME(final_seat) || !SAME(first) || !SAME(hand) || !SAME(jumps) ||
        !SAME(round) || !SAME(cur) || !SAME(steps) || !SAME(pick)) {
        m |= BIT(ELEMENT_S_TURN);
    }
    return m;
}

void element__you(struct game_text *out, const void *state, int seat)
{
    (void)state;
    game_text_obj(out);
    game_text_kint(out, "seat", seat);
    game_text_end_obj(out);
}
