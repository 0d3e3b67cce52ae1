/* SPDX-License-Identifier: MIT */
/*
 * stones_legal.c - enumeration of every legal action of the current player
 * (R-stones-4.1: what is listed is accepted). It generates a superset of
 * candidates for the current phase and keeps those that stones__validate()
 * accepts, so the list and apply() can never disagree. A cast is listed as
 * steps (R-stones-4.2): the card, then its follow-ups, and so are an O7
 * pair (R-stones-4.6): its colour, then its stones, and an O7 paid step
 * (R-stones-1.5): its stones, then its cell, so that every list stays
 * short; the whole one-shot forms are accepted but not listed. It
 * never changes the state and never touches JSON.
 */
#include "stones.h"

#include <string.h>

struct enum_ctx {
    const struct stones_state *st;
    int (*cb)(const struct stones_action *a, void *ctx);
    void *ctx;
    int count;
    int stop;
};

static void try_action(struct enum_ctx *e, const struct stones_action *a)
{
    if (e->stop) {
        return;
    }
    if (stones__validate(e->st, a, NULL) != GAME_OK) {
        return;
    }
    e->count++;
    if (e->cb(a, e->ctx)) {
        e->stop = 1;
    }
}

static void base(struct stones_action *a, int type)
{
    memset(a, 0, sizeof(*a));
    a->type = type;
}

/*
 * R-stones-4.2, the steps of a cast: the follow-ups of the cast being
 * chosen. SPIN and FLY list their whole casts; QUAKE lists the tiles that
 * can move (a step) and every swap, then the destinations of the chosen
 * tile; SHIFT lists the slots `a`, then the slots `b`.
 */
static void chosen_candidates(struct enum_ctx *e)
{
    const struct stones_state *st = e->st;
    int card = st->sel_card;
    int first = st->sel_first;
    struct stones_action a;
    if (card <= STONES_SPIN2) {
        for (int t = 0; t < STONES_NTILES; t++) {
            for (int d = 0; d < 2; d++) {
                base(&a, STONES_A_CAST);
                a.card = card;
                a.tile = t;
                a.dir = d;
                try_action(e, &a);
            }
        }
    } else if (card <= STONES_FLY2) {
        for (int t = 0; t < STONES_NTILES; t++) {
            base(&a, STONES_A_CAST);
            a.card = card;
            a.tile = t;
            try_action(e, &a);
        }
    } else if (card <= STONES_QUAKE2 && first < 0) {
        for (int t = 0; t < STONES_NTILES; t++) {
            base(&a, STONES_A_CAST);
            a.part = STONES_PART_SECOND;
            a.card = card;
            a.tile = t;
            try_action(e, &a);
        }
        for (int t = 0; t < STONES_NTILES; t++) {
            for (int u = 0; u < STONES_NTILES; u++) {
                base(&a, STONES_A_CAST);
                a.card = card;
                a.quake = STONES_QUAKE_SWAP;
                a.tile = t;
                a.tile2 = u;
                try_action(e, &a);
            }
        }
    } else if (card <= STONES_QUAKE2) {
        /* Any legal destination touches another tile, so it lies in
         * -1..5 in canonical coordinates (R-stones-2.1). */
        for (int r = -1; r <= 5; r++) {
            for (int c = -1; c <= 5; c++) {
                base(&a, STONES_A_CAST);
                a.card = card;
                a.tile = first;
                a.quake = STONES_QUAKE_MOVE;
                a.to_r = r;
                a.to_c = c;
                try_action(e, &a);
            }
        }
    } else {
        for (int sl = 0; sl < 20; sl++) {
            base(&a, STONES_A_CAST);
            a.card = card;
            if (first < 0) {
                a.part = STONES_PART_SECOND;
                a.slot_a = sl;
            } else {
                a.slot_a = first;
                a.slot_b = sl;
            }
            try_action(e, &a);
        }
    }
}

static void cell_candidates(struct enum_ctx *e, int type)
{
    const struct stones_player *pl = &e->st->pl[e->st->cur];
    static const int dr[4] = {-1, 0, 0, 1};
    static const int dc[4] = {0, -1, 1, 0};
    struct stones_action a;
    for (int k = 0; k < 4; k++) {
        base(&a, type);
        a.to_r = pl->spirit_r + dr[k];
        a.to_c = pl->spirit_c + dc[k];
        if (type == STONES_A_PAY_STEP && e->st->step_pair >= 0) {
            /* R-stones-1.5: the cells of the chosen O7 paid step. */
            a.npair = 2;
            a.pair[0] = e->st->step_pair / STONES_NCOL;
            a.pair[1] = e->st->step_pair % STONES_NCOL;
        }
        try_action(e, &a);
    }
}

/* R-stones-1.5: an O7 paid step is listed in two steps, its two stones
 * (at most 25 ordered pairs) and then its cells. */
static void step_pair_candidates(struct enum_ctx *e)
{
    struct stones_action a;
    for (int x = 0; x < STONES_NCOL; x++) {
        for (int y = 0; y < STONES_NCOL; y++) {
            base(&a, STONES_A_PAY_STEP);
            a.part = STONES_PART_FIRST;
            a.npair = 2;
            a.pair[0] = x;
            a.pair[1] = y;
            try_action(e, &a);
        }
    }
}

/*
 * Calls cb for every legal action of the current player in a fixed order
 * until cb returns non-zero. Returns the number of legal actions visited.
 * Visits nothing once the game is over. Never changes `st`.
 */
int stones__enumerate(const struct stones_state *st,
                      int (*cb)(const struct stones_action *a, void *ctx), void *ctx)
{
    struct enum_ctx e = {st, cb, ctx, 0, 0};
    struct stones_action a;
    const struct stones_player *pl = &st->pl[st->cur];
    switch (st->phase) {
    case STONES_PH_PLACE:
        for (int t = 0; t < STONES_NTILES; t++) {
            base(&a, STONES_A_PLACE);
            a.tile = t;
            try_action(&e, &a);
        }
        break;
    case STONES_PH_CAST:
        /* R-stones-4.2: a cast is chosen step by step, so that no list
         * grows long; while one is being chosen only its follow-ups and
         * cancel are listed. */
        if (st->sel_card >= 0) {
            chosen_candidates(&e);
            base(&a, STONES_A_CANCEL);
            try_action(&e, &a);
            break;
        }
        for (int i = 0; i < pl->row_n; i++) {
            base(&a, STONES_A_CAST);
            a.part = STONES_PART_FIRST;
            a.card = pl->row[i];
            try_action(&e, &a);
        }
        base(&a, STONES_A_END_CAST);
        try_action(&e, &a);
        for (int i = 0; i < pl->row_n; i++) {
            base(&a, STONES_A_DISCARD);
            a.card = pl->row[i];
            try_action(&e, &a);
        }
        break;
    case STONES_PH_CHOOSE:
        for (int s = 0; s < STONES_NSLOTS; s++) {
            base(&a, STONES_A_CHOOSE);
            a.slot_a = pl->taoist * 4 + s;
            try_action(&e, &a);
        }
        break;
    case STONES_PH_OFFER:
        for (int c = 0; c < STONES_NCOL; c++) {
            base(&a, STONES_A_OFFER);
            a.colour = c;
            try_action(&e, &a);
        }
        break;
    case STONES_PH_MOVE:
        if (st->step_pair >= 0) {
            cell_candidates(&e, STONES_A_PAY_STEP);
            base(&a, STONES_A_CANCEL);
            try_action(&e, &a);
            break;
        }
        cell_candidates(&e, STONES_A_STEP);
        cell_candidates(&e, STONES_A_PAY_STEP);
        step_pair_candidates(&e);
        base(&a, STONES_A_TAKE_RUNE);
        try_action(&e, &a);
        base(&a, STONES_A_END_MOVE);
        try_action(&e, &a);
        break;
    case STONES_PH_CRAFT: {
        int8_t av[4];
        int nav = stones__available(st, av);
        for (int i = 0; i < nav; i++) {
            base(&a, STONES_A_CRAFT);
            a.artifact = av[i];
            try_action(&e, &a);
        }
        base(&a, STONES_A_END_TURN);
        try_action(&e, &a);
        break;
    }
    case STONES_PH_PAY:
        /* R-stones-4.6: an O7 pair is paid in two steps, its colour and
         * then its stones, so that no list grows long. */
        if (st->pay_for < 0) {
            for (int c = 0; c < STONES_NCOL; c++) {
                base(&a, STONES_A_PAY);
                a.colour = c;
                try_action(&e, &a);
            }
            for (int c = 0; c < STONES_NCOL; c++) {
                base(&a, STONES_A_PAY_PAIR);
                a.part = STONES_PART_FIRST;
                a.colour = c;
                try_action(&e, &a);
            }
            break;
        }
        for (int x = 0; x < STONES_NCOL; x++) {
            for (int y = 0; y < STONES_NCOL; y++) {
                base(&a, STONES_A_PAY_PAIR);
                a.colour = st->pay_for;
                a.npair = 2;
                a.pair[0] = x;
                a.pair[1] = y;
                try_action(&e, &a);
            }
        }
        base(&a, STONES_A_CANCEL);
        try_action(&e, &a);
        break;
    case STONES_PH_REWARD:
        cell_candidates(&e, STONES_A_REWARD_STEP);
        for (int t = 0; t < STONES_NTILES; t++) {
            base(&a, STONES_A_REWARD_FLY);
            a.tile = t;
            try_action(&e, &a);
        }
        base(&a, STONES_A_REWARD_SKIP);
        try_action(&e, &a);
        break;
    default:
        break;
    }
    return e.count;
}
