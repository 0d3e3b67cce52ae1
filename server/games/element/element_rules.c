/* SPDX-License-Identifier: MIT */
/*
 * element_rules.c - the rules of Element on the core state: Sage geometry
 * (steps, the diagonal pinch, Wind jumps, ranges and storms), the Rule of
 * Replacement as one table, the effects of every placement (fire spread,
 * river flow, smelting, corrosion, magnetism, Lightning, New Growth), the
 * self-capture and capture checks, and one function that validates and
 * applies each action. Pure: no I/O, no jansson; randomness only from the
 * generator inside the core.
 */
#include <string.h>

#include "element.h"

/* Directions N, NE, E, SE, S, SW, W, NW (R-element-2.1). */
static const int8_t DC[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int8_t DR[8] = {1, 1, 0, -1, -1, -1, 0, 1};
/* The orthogonal ones, in the fixed order N, E, S, W. */
static const int ORTHO[4] = {0, 2, 4, 6};

static int nb(int sq, int d)
{
    int col = sq % ELEMENT_SIDE + DC[d];
    int row = sq / ELEMENT_SIDE + DR[d];
    if (col < 0 || col >= ELEMENT_SIDE || row < 0 || row >= ELEMENT_SIDE) {
        return -1;
    }
    return row * ELEMENT_SIDE + col;
}

int element__sage_on(const struct element_core *c, int sq)
{
    for (int s = 0; s < c->nseats; s++) {
        if (c->sage[s] == sq) {
            return s;
        }
    }
    return -1;
}

static bool is_empty(const struct element_core *c, int sq)
{
    return c->kind[sq] == ELEMENT_K_EMPTY && element__sage_on(c, sq) < 0;
}

int element__stone_type(int stone)
{
    return stone <= ELEMENT_S_WIND ? stone : ELEMENT_T_SILVER;
}

bool element__stone_in_play(const struct element_core *c, int stone)
{
    switch (stone) {
    case ELEMENT_S_LIGHTNING:
        return c->silver == ELEMENT_SILVER_LIGHTNING;
    case ELEMENT_S_WOOD:
        return c->silver == ELEMENT_SILVER_WOOD;
    case ELEMENT_S_METAL:
        return c->silver == ELEMENT_SILVER_METAL;
    default:
        return true;
    }
}

/* Sends what a square holds back to the bag and empties it. */
static void clear_to_bag(struct element_core *c, int sq)
{
    switch (c->kind[sq]) {
    case ELEMENT_K_FIRE:
        c->bag[ELEMENT_T_FIRE]++;
        break;
    case ELEMENT_K_WATER:
        c->bag[ELEMENT_T_WATER]++;
        break;
    case ELEMENT_K_EARTH:
        c->bag[ELEMENT_T_EARTH] += c->height[sq];
        break;
    case ELEMENT_K_WIND:
        c->bag[ELEMENT_T_WIND] += c->height[sq];
        break;
    case ELEMENT_K_BLAZE:
        c->bag[ELEMENT_T_FIRE]++;
        c->bag[ELEMENT_T_SILVER]++;
        break;
    case ELEMENT_K_LIGHTNING:
    case ELEMENT_K_WOOD:
    case ELEMENT_K_METAL:
        c->bag[ELEMENT_T_SILVER]++;
        break;
    default:
        break;
    }
    c->kind[sq] = ELEMENT_K_EMPTY;
    c->height[sq] = 0;
}

static void put(struct element_core *c, int sq, int kind, int height)
{
    c->kind[sq] = (uint8_t)kind;
    c->height[sq] = (uint8_t)height;
}

/* ---- Ranges and storms (R-element-2.2, I-15, I-23) ---- */

/* Marks the 8-connected group of squares of `kind` around `start`. */
static int flood(const struct element_core *c, int start, int kind, uint8_t *mark, uint8_t *list)
{
    int n = 0;
    mark[start] = 1;
    list[n++] = (uint8_t)start;
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < 8; d++) {
            int q = nb(list[i], d);
            if (q >= 0 && !mark[q] && c->kind[q] == kind) {
                mark[q] = 1;
                list[n++] = (uint8_t)q;
            }
        }
    }
    return n;
}

void element__ranges(const struct element_core *c, uint8_t ret_range[ELEMENT_NSQ])
{
    uint8_t mark[ELEMENT_NSQ] = {0};
    uint8_t list[ELEMENT_NSQ];
    memset(ret_range, 0, ELEMENT_NSQ);
    for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
        if (c->kind[sq] == ELEMENT_K_EARTH && c->height[sq] == ELEMENT_EARTH_MAX && !mark[sq]) {
            int n = flood(c, sq, ELEMENT_K_EARTH, mark, list);
            for (int i = 0; i < n; i++) {
                ret_range[list[i]] = 1;
            }
        }
    }
}

void element__storms(const struct element_core *c, uint8_t ret_storm[ELEMENT_NSQ])
{
    uint8_t mark[ELEMENT_NSQ] = {0};
    uint8_t list[ELEMENT_NSQ];
    memset(ret_storm, 0, ELEMENT_NSQ);
    if (c->silver != ELEMENT_SILVER_LIGHTNING) {
        return;
    }
    for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
        if (c->kind[sq] != ELEMENT_K_LIGHTNING) {
            continue;
        }
        for (int d = 0; d < 8; d++) {
            int q = nb(sq, d);
            if (q >= 0 && c->kind[q] == ELEMENT_K_WIND && !mark[q]) {
                int n = flood(c, q, ELEMENT_K_WIND, mark, list);
                for (int i = 0; i < n; i++) {
                    ret_storm[list[i]] = 1;
                }
            }
        }
    }
}

/* ---- Sage movement (R-element-6) ---- */

/* I-16: a diagonal move is pinched when both corner squares are Mountain
 * or Range stones. */
static bool pinched(int from, int d, const uint8_t *range)
{
    if (DC[d] == 0 || DR[d] == 0) {
        return false;
    }
    int col = from % ELEMENT_SIDE;
    int row = from / ELEMENT_SIDE;
    int a = row * ELEMENT_SIDE + col + DC[d];
    int b = (row + DR[d]) * ELEMENT_SIDE + col;
    return range[a] && range[b];
}

static bool step_ok(const struct element_core *c, int from, int d, const uint8_t *range)
{
    int to = nb(from, d);
    return to >= 0 && is_empty(c, to) && !pinched(from, d, range);
}

/* I-19, I-24: the flight over a stack of k Winds ends exactly k squares
 * past it; squares flown over may hold anything but Mountain, Range or
 * Storm; each diagonal leg passes the pinch test; the landing is empty. */
int element__jump_landing(const struct element_core *c, int from, int d, const uint8_t *range,
                          const uint8_t *storm)
{
    int w1 = nb(from, d);
    if (w1 < 0 || c->kind[w1] != ELEMENT_K_WIND || storm[w1] || pinched(from, d, range)) {
        return -1;
    }
    int k = c->height[w1];
    int cur = w1;
    for (int i = 1; i <= k; i++) {
        int next = nb(cur, d);
        if (next < 0 || pinched(cur, d, range)) {
            return -1;
        }
        if (i < k && (range[next] || storm[next])) {
            return -1;
        }
        cur = next;
    }
    return is_empty(c, cur) ? cur : -1;
}

bool element__has_move(const struct element_core *c, int sq)
{
    uint8_t range[ELEMENT_NSQ];
    uint8_t storm[ELEMENT_NSQ];
    /* An orthogonal step is never pinched: no ranges needed. */
    for (int i = 0; i < 4; i++) {
        int to = nb(sq, ORTHO[i]);
        if (to >= 0 && is_empty(c, to)) {
            return true;
        }
    }
    element__ranges(c, range);
    for (int d = 0; d < 8; d++) {
        if (step_ok(c, sq, d, range)) {
            return true;
        }
    }
    element__storms(c, storm);
    for (int d = 0; d < 8; d++) {
        if (element__jump_landing(c, sq, d, range, storm) >= 0) {
            return true;
        }
    }
    return false;
}

/* The self-capture test (R-element-4.5): the active seat's Sage can move. */
static bool placer_free(const struct element_core *c)
{
    return element__has_move(c, c->sage[c->cur]);
}

static int refuse_self_capture(struct game_error *err)
{
    return game_error_set(err, GAME_E_ILLEGAL,
                          "R-element-4.5: that would leave your own Sage with no move");
}

/* ---- Capture and the end of a placement (R-element-4.5, 7) ---- */

void element__finish_placement(struct element_core *c)
{
    int n = c->nseats;
    c->phase = ELEMENT_PH_ACT;
    /* I-08: the first surrounded Sage going round from the seat after the
     * actor decides the winner. */
    for (int i = 1; i < n; i++) {
        int s = (c->cur + i) % n;
        if (!element__has_move(c, c->sage[s])) {
            c->phase = ELEMENT_PH_OVER;
            c->reason = ELEMENT_R_SURROUNDED;
            c->winner = (int8_t)((s + n - 1) % n);
            return;
        }
    }
}

int element__target(const struct element_core *c, int seat)
{
    return (seat + 1) % c->nseats;
}

/* ---- Fire (R-element-5.3, 8.2) ---- */

static bool is_fire(const struct element_core *c, int sq)
{
    return sq >= 0 && (c->kind[sq] == ELEMENT_K_FIRE || c->kind[sq] == ELEMENT_K_BLAZE);
}

/* I-25: the run of Fire/Blaze squares through `p` along the axis of `d`
 * holds a Blaze other than `p`. */
static bool line_has_blaze(const struct element_core *c, int p, int d)
{
    for (int dir = d; dir == d || dir == (d + 4) % 8; dir = dir == d ? (d + 4) % 8 : 8) {
        for (int q = nb(p, dir); is_fire(c, q); q = nb(q, dir)) {
            if (c->kind[q] == ELEMENT_K_BLAZE) {
                return true;
            }
        }
    }
    return false;
}

/* I-10, I-11: each orthogonal line the new Fire joins spreads at its far
 * end; targets on a snapshot; free Fire never spreads further. */
static void fire_spread(struct element_core *c, int p)
{
    int target[4];
    int count[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        int d = ORTHO[i];
        target[i] = -2;
        if (!is_fire(c, nb(p, d))) {
            continue;
        }
        int q = nb(p, d);
        while (is_fire(c, q)) {
            q = nb(q, d);
        }
        target[i] = q;
        count[i] = c->silver == ELEMENT_SILVER_WOOD && line_has_blaze(c, p, d) ? 2 : 1;
    }
    for (int i = 0; i < 4; i++) {
        int q = target[i];
        for (int k = 0; q != -2 && k < count[i]; k++) {
            if (q < 0) {
                break;
            }
            if (c->bag[ELEMENT_T_FIRE] == 0) {
                return;
            }
            if (element__sage_on(c, q) >= 0) {
                break;
            }
            if (c->kind[q] == ELEMENT_K_EMPTY) {
                put(c, q, ELEMENT_K_FIRE, 1);
            } else if (c->kind[q] == ELEMENT_K_WIND) {
                clear_to_bag(c, q);
                put(c, q, ELEMENT_K_FIRE, 1);
            } else if (c->kind[q] == ELEMENT_K_WOOD) {
                put(c, q, ELEMENT_K_BLAZE, 2);
            } else {
                break;
            }
            c->bag[ELEMENT_T_FIRE]--;
            q = nb(q, ORTHO[i]);
        }
    }
}

/* ---- Metal (R-element-8.3) ---- */

static bool any_metal(const struct element_core *c)
{
    for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
        if (c->kind[sq] == ELEMENT_K_METAL) {
            return true;
        }
    }
    return false;
}

/* Moves the Metals of the eight fields of `x` (I-28); returns how many
 * Metals lay in the fields. mode 0 attracts, 1 repels. */
static int magnetise(struct element_core *c, int x, int mode)
{
    int total = 0;
    for (int d = 0; d < 8; d++) {
        int field[ELEMENT_SIDE];
        int nf = 0;
        int nm = 0;
        for (int q = nb(x, d); q >= 0; q = nb(q, d)) {
            if (element__sage_on(c, q) >= 0 ||
                (c->kind[q] != ELEMENT_K_EMPTY && c->kind[q] != ELEMENT_K_METAL)) {
                break;
            }
            nm += c->kind[q] == ELEMENT_K_METAL;
            field[nf++] = q;
        }
        total += nm;
        for (int i = 0; i < nf; i++) {
            put(c, field[i], ELEMENT_K_EMPTY, 0);
        }
        for (int i = 0; i < nm; i++) {
            put(c, field[mode == 0 ? i : nf - nm + i], ELEMENT_K_METAL, 1);
        }
    }
    return total;
}

/* Counts the Metals the magnet of `x` would move. */
static int metals_in_fields(const struct element_core *c, int x)
{
    struct element_core tmp = *c;
    return magnetise(&tmp, x, 0);
}

static bool magnet_mode_ok(const struct element_core *c, int mode)
{
    struct element_core tmp = *c;
    magnetise(&tmp, c->p_at, mode);
    return placer_free(&tmp);
}

/* After a Metal lands on p_at: the magnet decision, or none (I-39). */
static int start_magnet(struct element_core *c, struct game_error *err)
{
    if (metals_in_fields(c, c->p_at) == 0) {
        if (!placer_free(c)) {
            return refuse_self_capture(err);
        }
        element__finish_placement(c);
        return GAME_OK;
    }
    if (!magnet_mode_ok(c, 0) && !magnet_mode_ok(c, 1)) {
        return refuse_self_capture(err);
    }
    c->phase = ELEMENT_PH_MAGNET;
    return GAME_OK;
}

/* ---- Lightning (R-element-8.1) ---- */

static bool remove_ok(const struct element_core *c, int sq)
{
    struct element_core tmp = *c;
    if (sq >= 0) {
        clear_to_bag(&tmp, sq);
    }
    return placer_free(&tmp);
}

static int start_remove(struct element_core *c, struct game_error *err)
{
    bool other = false;
    bool ok = placer_free(c);
    for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
        if (sq != c->p_at && c->kind[sq] == ELEMENT_K_LIGHTNING) {
            other = true;
            ok = ok || remove_ok(c, sq);
        }
    }
    if (!ok) {
        return refuse_self_capture(err);
    }
    if (other) {
        c->phase = ELEMENT_PH_REMOVE;
    } else {
        element__finish_placement(c);
    }
    return GAME_OK;
}

/* ---- Rivers (R-element-5.4) ---- */

static bool in_river(const struct element_core *c, int sq)
{
    for (int i = 0; i < c->r_n; i++) {
        if (c->river[i] == sq) {
            return true;
        }
    }
    return false;
}

static int sort_small(uint8_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint8_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    }
    return n;
}

int element__chain_cands(const struct element_core *c, uint8_t ret[4])
{
    int n = 0;
    int end = c->river[c->r_n - 1];
    for (int i = 0; i < 4; i++) {
        int q = nb(end, ORTHO[i]);
        if (q >= 0 && c->kind[q] == ELEMENT_K_WATER && !in_river(c, q) &&
            c->r_n < ELEMENT_RIVER_MAX) {
            ret[n++] = (uint8_t)q;
        }
    }
    return sort_small(ret, n);
}

/* Moves the river one square into `y` (R-element-5.4 MOVE ONE SQUARE and
 * ABSORB); returns the number of Waters absorbed by Wood (0 when none). */
static int flow_move(struct element_core *c, int y)
{
    if (c->kind[y] == ELEMENT_K_FIRE || c->kind[y] == ELEMENT_K_BLAZE) {
        clear_to_bag(c, y);
    }
    c->entered[c->r_moved++] = (uint8_t)y;
    if (c->kind[y] == ELEMENT_K_WOOD) {
        /* I-27: the rest of the river follows into the Wood by itself. */
        int j = c->r_moved;
        int a = c->r_n - j + 1;
        for (int i = 0; i < c->r_n; i++) {
            if (c->old[c->river[i]]) {
                put(c, c->river[i], ELEMENT_K_EMPTY, 0);
            }
        }
        c->bag[ELEMENT_T_WATER] = (int16_t)(c->bag[ELEMENT_T_WATER] + a);
        for (int i = 0; i < j - 1; i++) {
            c->river[i] = c->entered[j - 2 - i];
        }
        c->r_n = (uint8_t)(j - 1);
        return a;
    }
    int tail = c->river[c->r_n - 1];
    for (int i = c->r_n - 1; i > 0; i--) {
        c->river[i] = c->river[i - 1];
    }
    c->river[0] = (uint8_t)y;
    put(c, y, ELEMENT_K_WATER, 1);
    put(c, tail, ELEMENT_K_EMPTY, 0);
    return 0;
}

int element__flow_cands(const struct element_core *c, uint8_t ret[4])
{
    int n = 0;
    if (c->r_moved >= c->r_n) {
        return 0;
    }
    int head = c->river[0];
    for (int i = 0; i < 4; i++) {
        int y = nb(head, ORTHO[i]);
        if (y < 0 || c->old[y] || element__sage_on(c, y) >= 0) {
            continue;
        }
        int k = c->kind[y];
        if (k != ELEMENT_K_EMPTY && k != ELEMENT_K_FIRE && k != ELEMENT_K_BLAZE &&
            k != ELEMENT_K_WOOD) {
            continue;
        }
        struct element_core tmp = *c;
        flow_move(&tmp, y);
        if (placer_free(&tmp)) {
            ret[n++] = (uint8_t)y;
        }
    }
    return sort_small(ret, n);
}

static void start_flow(struct element_core *c)
{
    memset(c->old, 0, sizeof(c->old));
    for (int i = 0; i < c->r_n; i++) {
        c->old[c->river[i]] = 1;
    }
    c->r_moved = 0;
    c->phase = ELEMENT_PH_FLOW;
}

/* New Growth (I-27): up to `a` Woods, as many as the bag holds. */
static void start_grow(struct element_core *c, int a)
{
    int n = a < c->bag[ELEMENT_T_SILVER] ? a : c->bag[ELEMENT_T_SILVER];
    c->grow_left = (uint8_t)n;
    if (n > 0) {
        c->phase = ELEMENT_PH_GROW;
    } else {
        element__finish_placement(c);
    }
}

/* ---- Placement: the Rule of Replacement (R-element-5.2) ---- */

enum effect {
    FX_NO = 0,  /* illegal */
    FX_PLACE,   /* onto an empty square */
    FX_REPLACE, /* the square's stones go to the bag first */
    FX_STACK,   /* one more stone on the stack */
    FX_BLAZE,   /* Fire on Wood */
    FX_SMELT,   /* Metal game: Fire with Earth */
    FX_CORRODE, /* Metal game: Wind with Water */
};

/* One table of what placing `stone` on the square does (R-element-5.2). */
static enum effect replacement(const struct element_core *c, int stone, int sq,
                               const uint8_t *range)
{
    int k = c->kind[sq];
    int h = c->height[sq];
    bool metal = c->silver == ELEMENT_SILVER_METAL;
    if (k == ELEMENT_K_EMPTY) {
        return FX_PLACE;
    }
    switch (stone) {
    case ELEMENT_S_FIRE:
        if (k == ELEMENT_K_WIND) {
            return FX_REPLACE; /* the whole Whirlwind (SIL FAQ 1) */
        }
        if (k == ELEMENT_K_WOOD) {
            return FX_BLAZE;
        }
        if (k == ELEMENT_K_EARTH && h == 1 && metal) {
            return FX_SMELT;
        }
        return FX_NO;
    case ELEMENT_S_WATER:
        if (k == ELEMENT_K_FIRE || k == ELEMENT_K_BLAZE) {
            return FX_REPLACE;
        }
        if (k == ELEMENT_K_WIND && h == 1 && metal) {
            return FX_CORRODE;
        }
        return FX_NO;
    case ELEMENT_S_EARTH:
        if (k == ELEMENT_K_WATER) {
            return FX_REPLACE;
        }
        if (k == ELEMENT_K_EARTH && h < ELEMENT_EARTH_MAX) {
            return FX_STACK; /* I-17: also on a Range stone */
        }
        if (k == ELEMENT_K_FIRE && metal) {
            return FX_SMELT;
        }
        return FX_NO;
    case ELEMENT_S_WIND:
        if (k == ELEMENT_K_EARTH && h == 1 && !range[sq]) {
            return FX_REPLACE;
        }
        if (k == ELEMENT_K_WIND && h < ELEMENT_WIND_MAX) {
            return FX_STACK;
        }
        if (k == ELEMENT_K_WATER && metal) {
            return FX_CORRODE;
        }
        return FX_NO;
    case ELEMENT_S_LIGHTNING:
        return FX_REPLACE; /* everything, Lightning too (I-22) */
    default:
        return FX_NO; /* Wood and Metal only on empty squares */
    }
}

bool element__may_place(const struct element_core *c, int stone, int sq, const uint8_t *range)
{
    return element__sage_on(c, sq) < 0 && replacement(c, stone, sq, range) != FX_NO;
}

static int place(struct element_core *c, int stone, int sq, struct game_error *err)
{
    uint8_t range[ELEMENT_NSQ];
    int type = element__stone_type(stone);

    if (c->phase != ELEMENT_PH_ACT) {
        return game_error_set(err, GAME_E_ILLEGAL, "R-element-4.7: you cannot place a stone now");
    }
    if (!element__stone_in_play(c, stone)) {
        return game_error_set(err, GAME_E_ILLEGAL, "R-element-8.0: %s is not in this game",
                              element_stone_name[stone]);
    }
    if (c->hand[type] == 0) {
        return game_error_set(err, GAME_E_ILLEGAL, "R-element-4.3: you hold no %s stone",
                              element_stone_name[stone]);
    }
    if (element__sage_on(c, sq) >= 0) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-element-5.1: no stone is ever placed on a Sage");
    }
    element__ranges(c, range);
    enum effect fx = replacement(c, stone, sq, range);
    if (fx == FX_NO) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-element-5.2: %s cannot be placed on that square",
                              element_stone_name[stone]);
    }
    if (fx == FX_SMELT && c->bag[ELEMENT_T_SILVER] == 0) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-element-8.3: smelting needs a Metal stone in the bag");
    }
    if (fx == FX_CORRODE && !any_metal(c)) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-element-8.3: corrosion needs a Metal stone on the board");
    }
    c->hand[type]--;
    c->p_stone = (uint8_t)stone;
    c->p_at = (uint8_t)sq;
    switch (fx) {
    case FX_SMELT:
        clear_to_bag(c, sq);
        c->bag[type]++;
        c->bag[ELEMENT_T_SILVER]--;
        put(c, sq, ELEMENT_K_METAL, 1);
        return start_magnet(c, err);
    case FX_CORRODE:
        clear_to_bag(c, sq);
        c->bag[type]++;
        c->phase = ELEMENT_PH_CORRODE; /* never closes in the placer (8.3) */
        return GAME_OK;
    case FX_STACK:
        c->height[sq]++;
        break;
    case FX_BLAZE:
        put(c, sq, ELEMENT_K_BLAZE, 2);
        break;
    case FX_REPLACE:
        clear_to_bag(c, sq);
        /* fall through */
    default: {
        static const uint8_t kind_of[ELEMENT_NSTONES] = {
            ELEMENT_K_FIRE,      ELEMENT_K_WATER, ELEMENT_K_EARTH, ELEMENT_K_WIND,
            ELEMENT_K_LIGHTNING, ELEMENT_K_WOOD,  ELEMENT_K_METAL,
        };
        put(c, sq, kind_of[stone], 1);
        break;
    }
    }
    if (stone == ELEMENT_S_FIRE) {
        fire_spread(c, sq);
    }
    if (stone == ELEMENT_S_LIGHTNING) {
        return start_remove(c, err);
    }
    if (stone == ELEMENT_S_METAL) {
        return start_magnet(c, err);
    }
    if (!placer_free(c)) {
        return refuse_self_capture(err);
    }
    if (stone == ELEMENT_S_WATER) {
        bool river = false;
        for (int i = 0; i < 4; i++) {
            int q = nb(sq, ORTHO[i]);
            river = river || (q >= 0 && c->kind[q] == ELEMENT_K_WATER);
        }
        if (river) {
            c->r_n = 1;
            c->r_moved = 0;
            c->river[0] = (uint8_t)sq;
            c->phase = ELEMENT_PH_CHAIN;
            return GAME_OK;
        }
    }
    element__finish_placement(c);
    return GAME_OK;
}

/* ---- Turn flow (R-element-4) ---- */

static int bag_total(const struct element_core *c)
{
    int n = 0;
    for (int t = 0; t < ELEMENT_NTYPES; t++) {
        n += c->bag[t];
    }
    return n;
}

/* I-36: one stone at a time, uniform over the stones in the bag. */
static void draw(struct element_core *c, int count)
{
    for (int i = 0; i < count; i++) {
        uint32_t r = game_rng_below(&c->rng, (uint32_t)bag_total(c));
        int t = 0;
        while (r >= (uint32_t)c->bag[t]) {
            r -= (uint32_t)c->bag[t];
            t++;
        }
        c->bag[t]--;
        c->hand[t]++;
    }
    c->drawn = (int8_t)count;
    c->steps = (int8_t)(ELEMENT_MOVES - count);
    c->phase = ELEMENT_PH_ACT;
}

/* R-element-4.1: the start of the turn of c->cur. */
static void start_turn(struct element_core *c)
{
    int n = c->nseats;
    c->drawn = -1;
    c->steps = 0;
    c->jumps = 0;
    c->phase = ELEMENT_PH_DRAW;
    if (!element__has_move(c, c->sage[c->cur])) {
        c->phase = ELEMENT_PH_OVER;
        c->reason = ELEMENT_R_SURROUNDED;
        c->winner = (int8_t)((c->cur + n - 1) % n);
        return;
    }
    if (c->cur == c->first) {
        if (c->round >= ELEMENT_ROUND_LIMIT) {
            c->phase = ELEMENT_PH_OVER;
            c->reason = ELEMENT_R_ROUND_LIMIT;
            return;
        }
        c->round++;
    }
    if (c->final_seat == c->cur) {
        c->phase = ELEMENT_PH_OVER;
        c->reason = ELEMENT_R_BAG_EMPTY;
        return;
    }
    if (c->final_seat < 0 && bag_total(c) == 0) {
        c->final_seat = (int8_t)c->cur; /* I-40 */
    }
}

void element__start_turn(struct element_core *c)
{
    start_turn(c);
}

static void end_turn(struct element_core *c)
{
    for (int t = 0; t < ELEMENT_NTYPES; t++) {
        c->bag[t] = (int16_t)(c->bag[t] + c->hand[t]);
        c->hand[t] = 0;
    }
    c->cur = (uint8_t)((c->cur + 1) % c->nseats);
    start_turn(c);
}

bool element__can_place(const struct element_core *c, int stone)
{
    uint8_t range[ELEMENT_NSQ];
    if (!element__stone_in_play(c, stone) || c->hand[element__stone_type(stone)] == 0) {
        return false;
    }
    element__ranges(c, range);
    for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
        struct element_core tmp;
        struct game_error e;
        if (!element__may_place(c, stone, sq, range)) {
            continue;
        }
        tmp = *c;
        if (place(&tmp, stone, sq, &e) == GAME_OK) {
            return true;
        }
    }
    return false;
}

/* 1 when some stone in hand has a legal placement (R-element-4.4). */
static bool any_place(const struct element_core *c)
{
    for (int stone = 0; stone < ELEMENT_NSTONES; stone++) {
        if (element__can_place(c, stone)) {
            return true;
        }
    }
    return false;
}

/* R-element-4.6: the stone the next placement takes. It changes nothing
 * but the pick, which the next action of any other type clears. */
static int pick(struct element_core *c, int stone, struct game_error *err)
{
    if (c->phase != ELEMENT_PH_ACT) {
        return game_error_set(err, GAME_E_ILLEGAL, "R-element-4.7: you cannot place a stone now");
    }
    if (!element__stone_in_play(c, stone)) {
        return game_error_set(err, GAME_E_ILLEGAL, "R-element-8.0: %s is not in this game",
                              element_stone_name[stone]);
    }
    if (c->hand[element__stone_type(stone)] == 0) {
        return game_error_set(err, GAME_E_ILLEGAL, "R-element-4.3: you hold no %s stone",
                              element_stone_name[stone]);
    }
    if (c->pick == stone + 1) {
        return game_error_set(err, GAME_E_ILLEGAL, "R-element-4.6: %s is already picked",
                              element_stone_name[stone]);
    }
    if (!element__can_place(c, stone)) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-element-5.1: no square can take %s now (R-element-4.5, 5.2)",
                              element_stone_name[stone]);
    }
    c->pick = (uint8_t)(stone + 1);
    return GAME_OK;
}

static int wrong_phase(struct game_error *err, const struct element_core *c)
{
    return game_error_set(err, GAME_E_ILLEGAL, "R-element-4.7: that action is not open now (%s)",
                          element_phase_name[c->phase]);
}

int element__act(struct element_core *c, const struct element_action *a, struct game_error *err)
{
    uint8_t cands[4];
    int sq = a->sq;

    if (a->type == ELEMENT_A_PICK) {
        return pick(c, a->arg, err);
    }
    /* R-element-4.6: a pick lasts until the next action, whatever it is. */
    c->pick = 0;
    switch (a->type) {
    case ELEMENT_A_DRAW:
        if (c->phase != ELEMENT_PH_DRAW) {
            return wrong_phase(err, c);
        }
        if (a->arg > bag_total(c)) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-element-4.2: the bag holds only %d stones", bag_total(c));
        }
        draw(c, a->arg);
        return GAME_OK;
    case ELEMENT_A_STEP: {
        uint8_t range[ELEMENT_NSQ];
        if (c->phase != ELEMENT_PH_ACT) {
            return wrong_phase(err, c);
        }
        if (c->steps <= 0) {
            return game_error_set(err, GAME_E_ILLEGAL, "R-element-4.2: no steps are left");
        }
        element__ranges(c, range);
        int from = c->sage[c->cur];
        for (int d = 0; d < 8; d++) {
            if (nb(from, d) == sq && step_ok(c, from, d, range)) {
                c->sage[c->cur] = (uint8_t)sq;
                c->steps--;
                element__finish_placement(c);
                return GAME_OK;
            }
        }
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-element-6.1: your Sage can step only to an adjacent empty "
                              "square that no range pinches");
    }
    case ELEMENT_A_JUMP: {
        uint8_t range[ELEMENT_NSQ];
        uint8_t storm[ELEMENT_NSQ];
        if (c->phase != ELEMENT_PH_ACT) {
            return wrong_phase(err, c);
        }
        if (c->jumps >= ELEMENT_JUMP_LIMIT) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-element-6.3: at most %d jumps a turn (I-42)",
                                  ELEMENT_JUMP_LIMIT);
        }
        element__ranges(c, range);
        element__storms(c, storm);
        int from = c->sage[c->cur];
        for (int d = 0; d < 8; d++) {
            if (element__jump_landing(c, from, d, range, storm) == sq) {
                c->sage[c->cur] = (uint8_t)sq;
                if (!placer_free(c)) {
                    return refuse_self_capture(err);
                }
                c->jumps++;
                element__finish_placement(c);
                return GAME_OK;
            }
        }
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-element-6.3: no Wind carries your Sage to that square");
    }
    case ELEMENT_A_PLACE:
        return place(c, a->arg, sq, err);
    case ELEMENT_A_END:
        if (c->phase != ELEMENT_PH_ACT) {
            return wrong_phase(err, c);
        }
        if (any_place(c)) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-element-4.4: every drawn stone that can be placed must be "
                                  "placed first");
        }
        end_turn(c);
        return GAME_OK;
    case ELEMENT_A_CHAIN: {
        if (c->phase != ELEMENT_PH_CHAIN) {
            return wrong_phase(err, c);
        }
        int n = element__chain_cands(c, cands);
        for (int i = 0; i < n; i++) {
            if (cands[i] == sq) {
                c->river[c->r_n++] = (uint8_t)sq;
                return GAME_OK;
            }
        }
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-element-5.4: the chain goes on only through Water touching its "
                              "end");
    }
    case ELEMENT_A_FLOW: {
        if (c->phase != ELEMENT_PH_FLOW) {
            return wrong_phase(err, c);
        }
        int n = element__flow_cands(c, cands);
        for (int i = 0; i < n; i++) {
            if (cands[i] == sq) {
                int absorbed = flow_move(c, sq);
                if (absorbed > 0) {
                    start_grow(c, absorbed);
                }
                return GAME_OK;
            }
        }
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-element-5.4: the Headwater cannot enter that square");
    }
    case ELEMENT_A_GROW: {
        if (c->phase != ELEMENT_PH_GROW) {
            return wrong_phase(err, c);
        }
        if (!is_empty(c, sq)) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-element-8.2: New Growth goes on empty squares only");
        }
        put(c, sq, ELEMENT_K_WOOD, 1);
        c->bag[ELEMENT_T_SILVER]--;
        if (!placer_free(c)) {
            return refuse_self_capture(err);
        }
        c->grow_left--;
        if (c->grow_left == 0 || c->bag[ELEMENT_T_SILVER] == 0) {
            element__finish_placement(c);
        }
        return GAME_OK;
    }
    case ELEMENT_A_GROW_DONE:
        if (c->phase != ELEMENT_PH_GROW) {
            return wrong_phase(err, c);
        }
        element__finish_placement(c);
        return GAME_OK;
    case ELEMENT_A_MAGNET:
        if (c->phase != ELEMENT_PH_MAGNET) {
            return wrong_phase(err, c);
        }
        magnetise(c, c->p_at, a->arg);
        if (!placer_free(c)) {
            return refuse_self_capture(err);
        }
        element__finish_placement(c);
        return GAME_OK;
    case ELEMENT_A_KEEP:
    case ELEMENT_A_REMOVE:
        if (c->phase != ELEMENT_PH_REMOVE) {
            return wrong_phase(err, c);
        }
        if (a->type == ELEMENT_A_REMOVE) {
            if (sq == c->p_at || c->kind[sq] != ELEMENT_K_LIGHTNING) {
                return game_error_set(err, GAME_E_ILLEGAL,
                                      "R-element-8.1: name another Lightning stone to remove");
            }
            clear_to_bag(c, sq);
        }
        if (!placer_free(c)) {
            return refuse_self_capture(err);
        }
        element__finish_placement(c);
        return GAME_OK;
    case ELEMENT_A_CORRODE:
        if (c->phase != ELEMENT_PH_CORRODE) {
            return wrong_phase(err, c);
        }
        if (c->kind[sq] != ELEMENT_K_METAL) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-element-8.3: corrosion removes a Metal stone");
        }
        clear_to_bag(c, sq);
        element__finish_placement(c);
        return GAME_OK;
    default:
        return game_error_set(err, GAME_E_BAD_ACTION, "R-element-2.3: unknown action");
    }
}

/* I-34: every automatic step until a player has a real decision. */
void element__settle(struct element_core *c)
{
    uint8_t cands[4];
    struct element_action only;
    struct game_error err;

    for (;;) {
        switch (c->phase) {
        case ELEMENT_PH_OVER:
            return;
        case ELEMENT_PH_DRAW:
            if (bag_total(c) > 0) {
                return;
            }
            draw(c, 0);
            break;
        case ELEMENT_PH_CHAIN: {
            int n = element__chain_cands(c, cands);
            if (n == 0) {
                start_flow(c);
            } else if (n == 1) {
                c->river[c->r_n++] = cands[0];
            } else {
                return;
            }
            break;
        }
        case ELEMENT_PH_FLOW: {
            int n = element__flow_cands(c, cands);
            if (n == 0) {
                element__finish_placement(c);
            } else if (n == 1) {
                int absorbed = flow_move(c, cands[0]);
                if (absorbed > 0) {
                    start_grow(c, absorbed);
                }
            } else {
                return;
            }
            break;
        }
        default:
            /* In the act phase only `end` is taken by itself. */
            if (element__count_legal(c, &only) != 1 ||
                (c->phase == ELEMENT_PH_ACT && only.type != ELEMENT_A_END) ||
                element__act(c, &only, &err) != GAME_OK) {
                return;
            }
            break;
        }
    }
}
