/* SPDX-License-Identifier: MIT */
/*
 * element_legal.c - every action the active seat may take now, in the fixed
 * order of R-element-4.6, as the full list (the placements with their
 * squares: what the rules accept, which the automatic steps and the skip
 * read) or as the stepwise list `legal` gives (a placement as `pick`, then
 * `place`): action types in the order of the phase's row,
 * counts upward, stones in the order fire .. metal, squares in index order
 * (a1, b1, .., k11), attract before repel. Each candidate is tried on a copy
 * of the core with element__act (a pick by the test element__act makes), so
 * the full list is exactly what apply accepts and the stepwise list a part
 * of it from which every placement is reached. Pure: no jansson.
 */
#include <string.h>

#include "element.h"

struct lister {
    element_emit_cb emit;
    void *ud;
    int limit; /* stop after this many (0: no limit) */
    int n;
    bool stepwise; /* placements as pick, then place (R-element-4.6) */
};

/* 1 when placing `stone` on the empty square `sq` surely passes: a stone
 * with no effect at placement (Water's river comes after, in its own
 * decisions) leaves the Sage an orthogonal step, which no pinch blocks. */
static bool plain_place_ok(const struct element_core *c, int stone, int sq)
{
    static const int8_t dc[4] = {0, 1, 0, -1};
    static const int8_t dr[4] = {1, 0, -1, 0};
    if (c->kind[sq] != ELEMENT_K_EMPTY || (stone != ELEMENT_S_WATER && stone != ELEMENT_S_EARTH &&
                                           stone != ELEMENT_S_WIND && stone != ELEMENT_S_WOOD)) {
        return false;
    }
    int from = c->sage[c->cur];
    for (int i = 0; i < 4; i++) {
        int col = from % ELEMENT_SIDE + dc[i];
        int row = from / ELEMENT_SIDE + dr[i];
        int to = row * ELEMENT_SIDE + col;
        if (col >= 0 && col < ELEMENT_SIDE && row >= 0 && row < ELEMENT_SIDE && to != sq &&
            c->kind[to] == ELEMENT_K_EMPTY && element__sage_on(c, to) < 0) {
            return true;
        }
    }
    return false;
}

/* Lists `a`, known to be accepted; 1 when the limit is reached. */
static bool emit(struct lister *l, const struct element_action *a)
{
    l->n++;
    if (l->emit) {
        l->emit(l->ud, a);
    }
    return l->limit > 0 && l->n >= l->limit;
}

/* Lists `a` when element__act accepts it on a copy; 1 when the limit is
 * reached. */
static bool try_emit(const struct element_core *c, struct lister *l, uint8_t type, int sq, int arg)
{
    struct element_action a = {type, (uint8_t)sq, (uint8_t)arg};
    struct game_error err;
    bool ok = type == ELEMENT_A_PLACE && plain_place_ok(c, arg, sq);
    if (!ok) {
        struct element_core tmp = *c;
        ok = element__act(&tmp, &a, &err) == GAME_OK;
    }
    return ok && emit(l, &a);
}

/* The placements of `stone` on every square, in index order; 1 when the
 * limit is reached. */
static bool emit_places(const struct element_core *c, struct lister *l, int stone,
                        const uint8_t *range)
{
    for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
        if (element__may_place(c, stone, sq, range) && try_emit(c, l, ELEMENT_A_PLACE, sq, stone)) {
            return true;
        }
    }
    return false;
}

/*
 * R-element-4.6, the stepwise list: `pick` for each stone that has a
 * placement and is not the one picked, then the placements of the picked
 * stone. Every placement of the full list is reached by a pick and one of
 * these, and a pick is listed exactly when its stone has a placement, so
 * this lists nothing exactly when the full list has no placement.
 */
static bool emit_stepwise(const struct element_core *c, struct lister *l, const uint8_t *range)
{
    for (int stone = 0; stone < ELEMENT_NSTONES; stone++) {
        struct element_action a = {ELEMENT_A_PICK, 0, (uint8_t)stone};
        if (c->pick != stone + 1 && element__can_place(c, stone) && emit(l, &a)) {
            return true;
        }
    }
    int stone = c->pick - 1;
    return c->pick > 0 && element__stone_in_play(c, stone) &&
           c->hand[element__stone_type(stone)] > 0 && emit_places(c, l, stone, range);
}

static void enumerate(const struct element_core *c, struct lister *l)
{
    uint8_t cands[4];
    int n;

    switch (c->phase) {
    case ELEMENT_PH_DRAW:
        for (int k = 0; k <= ELEMENT_MAX_DRAW; k++) {
            if (try_emit(c, l, ELEMENT_A_DRAW, 0, k)) {
                return;
            }
        }
        return;
    case ELEMENT_PH_ACT: {
        int from = c->sage[c->cur];
        int fc = from % ELEMENT_SIDE;
        int fr = from / ELEMENT_SIDE;
        if (c->steps > 0) {
            for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
                int dc = sq % ELEMENT_SIDE - fc;
                int dr = sq / ELEMENT_SIDE - fr;
                if (sq != from && dc >= -1 && dc <= 1 && dr >= -1 && dr <= 1 &&
                    try_emit(c, l, ELEMENT_A_STEP, sq, 0)) {
                    return;
                }
            }
        }
        if (c->jumps < ELEMENT_JUMP_LIMIT) {
            uint8_t range[ELEMENT_NSQ];
            uint8_t storm[ELEMENT_NSQ];
            uint8_t land[8];
            int nl = 0;
            element__ranges(c, range);
            element__storms(c, storm);
            for (int d = 0; d < 8; d++) {
                int to = element__jump_landing(c, from, d, range, storm);
                if (to >= 0) {
                    land[nl++] = (uint8_t)to;
                }
            }
            for (int i = 1; i < nl; i++) {
                for (int j = i; j > 0 && land[j - 1] > land[j]; j--) {
                    uint8_t t = land[j];
                    land[j] = land[j - 1];
                    land[j - 1] = t;
                }
            }
            for (int i = 0; i < nl; i++) {
                if (try_emit(c, l, ELEMENT_A_JUMP, land[i], 0)) {
                    return;
                }
            }
        }
        int before = l->n;
        uint8_t range[ELEMENT_NSQ];
        element__ranges(c, range);
        if (l->stepwise) {
            if (emit_stepwise(c, l, range)) {
                return;
            }
        } else {
            for (int stone = 0; stone < ELEMENT_NSTONES; stone++) {
                if (element__stone_in_play(c, stone) && c->hand[element__stone_type(stone)] > 0 &&
                    emit_places(c, l, stone, range)) {
                    return;
                }
            }
        }
        if (l->n == before) {
            (void)try_emit(c, l, ELEMENT_A_END, 0, 0);
        }
        return;
    }
    case ELEMENT_PH_CHAIN:
        n = element__chain_cands(c, cands);
        for (int i = 0; i < n; i++) {
            if (try_emit(c, l, ELEMENT_A_CHAIN, cands[i], 0)) {
                return;
            }
        }
        return;
    case ELEMENT_PH_FLOW:
        n = element__flow_cands(c, cands);
        for (int i = 0; i < n; i++) {
            if (try_emit(c, l, ELEMENT_A_FLOW, cands[i], 0)) {
                return;
            }
        }
        return;
    case ELEMENT_PH_GROW:
        for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
            if (c->kind[sq] == ELEMENT_K_EMPTY && try_emit(c, l, ELEMENT_A_GROW, sq, 0)) {
                return;
            }
        }
        (void)try_emit(c, l, ELEMENT_A_GROW_DONE, 0, 0);
        return;
    case ELEMENT_PH_MAGNET:
        for (int mode = 0; mode < 2; mode++) {
            if (try_emit(c, l, ELEMENT_A_MAGNET, 0, mode)) {
                return;
            }
        }
        return;
    case ELEMENT_PH_REMOVE:
        if (try_emit(c, l, ELEMENT_A_KEEP, 0, 0)) {
            return;
        }
        for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
            if (c->kind[sq] == ELEMENT_K_LIGHTNING && try_emit(c, l, ELEMENT_A_REMOVE, sq, 0)) {
                return;
            }
        }
        return;
    case ELEMENT_PH_CORRODE:
        for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
            if (c->kind[sq] == ELEMENT_K_METAL && try_emit(c, l, ELEMENT_A_CORRODE, sq, 0)) {
                return;
            }
        }
        return;
    default:
        return;
    }
}

void element__enumerate(const struct element_core *c, element_emit_cb cb, void *ud)
{
    struct lister l = {cb, ud, 0, 0, false};
    enumerate(c, &l);
}

void element__enumerate_stepwise(const struct element_core *c, element_emit_cb cb, void *ud)
{
    struct lister l = {cb, ud, 0, 0, true};
    enumerate(c, &l);
}

static void keep_first(void *ud, const struct element_action *a)
{
    struct element_action *ret = ud;
    if (ret->type == ELEMENT_A_NONE) {
        *ret = *a;
    }
}

int element__count_legal(const struct element_core *c, struct element_action *ret_a)
{
    struct element_action first;
    memset(&first, 0, sizeof(first));
    struct lister l = {keep_first, &first, 2, 0, false};
    enumerate(c, &l);
    if (l.n == 1) {
        *ret_a = first;
    }
    return l.n;
}
