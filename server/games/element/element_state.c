/* SPDX-License-Identifier: MIT */
/*
 * element_state.c - the names of Element's stones, phases and squares, the
 * setup of a new game (R-element-3: bag, start squares, the first player)
 * and the log window. Pure: no jansson, no I/O.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "element.h"

#include "json_util.h"

const char *const element_stone_name[ELEMENT_NSTONES] = {
    "fire", "water", "earth", "wind", "lightning", "wood", "metal",
};

const char *const element_kind_name[] = {
    "empty", "fire", "water", "earth", "wind", "lightning", "wood", "blaze", "metal",
};

const char *const element_phase_name[] = {
    "draw", "act", "chain", "flow", "grow", "magnet", "remove", "corrode", "over",
};

const char *const element_silver_name[] = {"none", "lightning", "wood", "metal"};

const char *const element_reason_name[] = {"", "surrounded", "bag_empty", "round_limit", "forfeit"};

const char *const element_action_name[ELEMENT_A_COUNT] = {
    "",          "draw",   "step",   "jump", "place",   "chain", "flow", "grow",
    "grow_done", "magnet", "remove", "keep", "corrode", "end",   "pick",
};

#define SQ(file, rank) ((rank - 1) * ELEMENT_SIDE + (file - 'a'))

/* I-03: start squares by seat count (2, 3, 4) and seat. */
const uint8_t element_start_square[3][ELEMENT_MAX_SEATS] = {
    {SQ('f', 5), SQ('f', 7), 0, 0},
    {SQ('c', 3), SQ('i', 3), SQ('i', 9), 0},
    {SQ('c', 3), SQ('i', 3), SQ('i', 9), SQ('c', 9)},
};

void element__sq_name(int sq, char buf[4])
{
    int rank = sq / ELEMENT_SIDE + 1;
    buf[0] = (char)('a' + sq % ELEMENT_SIDE);
    if (rank >= 10) {
        buf[1] = '1';
        buf[2] = (char)('0' + rank - 10);
        buf[3] = '\0';
    } else {
        buf[1] = (char)('0' + rank);
        buf[2] = '\0';
    }
}

int element__sq_parse(const char *s)
{
    if (!s || s[0] < 'a' || s[0] > 'k' || s[1] < '1' || s[1] > '9') {
        return -1;
    }
    int rank = s[1] - '0';
    if (s[2] != '\0') {
        if (rank != 1 || s[2] < '0' || s[2] > '1' || s[3] != '\0') {
            return -1;
        }
        rank = 10 + s[2] - '0';
    }
    return (rank - 1) * ELEMENT_SIDE + (s[0] - 'a');
}

void element__log(struct element_state *st, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    game_format_msg(st->log[st->log_head], ELEMENT_LOG_LEN, st->log_msg[st->log_head],
                    ELEMENT_LOG_LEN, key, fmt, ap);
    va_end(ap);
    st->log_head = (int8_t)((st->log_head + 1) % ELEMENT_LOG_N);
    st->log_seq++;
    if (st->log_n < ELEMENT_LOG_N) {
        st->log_n++;
    }
}

bool element__is_winner(const struct element_core *c, int seat)
{
    if (c->phase != ELEMENT_PH_OVER) {
        return false;
    }
    return c->forfeit >= 0 ? seat != c->forfeit : seat == c->winner;
}

void element__forfeit(struct element_state *st, int seat)
{
    struct element_core *c = &st->c;
    c->phase = ELEMENT_PH_OVER;
    c->pick = 0;
    c->reason = ELEMENT_R_FORFEIT;
    c->forfeit = (int8_t)seat;
    c->winner = (int8_t)(c->nseats == 2 ? 1 - seat : -1);
    if (c->winner >= 0) {
        element__log(st, "forfeit_win", "%s forfeits: %s wins.", st->names[seat],
                     st->names[c->winner]);
    } else {
        element__log(st, "forfeit_others_win", "%s forfeits: every other seat wins.",
                     st->names[seat]);
    }
}

int element__current_seat(const struct element_state *st)
{
    return st->c.phase == ELEMENT_PH_OVER ? -1 : st->c.cur;
}

/* R-element-3. `silver` is 0..3, or 4 for random (drawn first, then the
 * first player, I-35). */
void element__setup(struct element_state *st, int nseats, int silver,
                    const struct game_setup *setup)
{
    struct element_core *c = &st->c;
    memset(st, 0, sizeof(*st));
    game_rng_seed(&c->rng, setup->seed);
    if (silver > ELEMENT_SILVER_METAL) {
        silver = 1 + (int)game_rng_below(&c->rng, 3);
    }
    c->nseats = (uint8_t)nseats;
    c->silver = (uint8_t)silver;
    c->winner = -1;
    c->final_seat = -1;
    c->forfeit = -1;
    c->drawn = -1;
    for (int t = 0; t < ELEMENT_NTYPES; t++) {
        c->bag[t] = ELEMENT_PER_TYPE;
    }
    if (silver == ELEMENT_SILVER_NONE) {
        c->bag[ELEMENT_T_SILVER] = 0;
    }
    for (int s = 0; s < nseats; s++) {
        c->sage[s] = element_start_square[nseats - 2][s];
        snprintf(st->names[s], GAME_NAME_MAX, "%s", setup->names[s]);
    }
    c->first = (uint8_t)game_rng_below(&c->rng, (uint32_t)nseats);
    c->cur = c->first;
    if (silver != ELEMENT_SILVER_NONE) {
        element__log(st, "begins_silver", "Element with %s; %s starts.",
                     element_silver_name[silver], st->names[c->first]);
    } else {
        element__log(st, "begins", "Element begins; %s starts.", st->names[c->first]);
    }
    element__start_turn(c);
    element__settle(c);
}
