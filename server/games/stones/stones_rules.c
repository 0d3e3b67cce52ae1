/* SPDX-License-Identifier: MIT */
/*
 * stones_rules.c - validation and application of Sorcerer & Stones actions
 * and the automatic advance through the turn (R-stones-4, 4.1): activation,
 * Spirit movement, objectives, refill, crafting, end checks and scoring. It
 * works on plain C state only: it never builds or reads JSON, never does I/O
 * and never draws randomness from anything but the generator in the state.
 * An action is validated in full before anything changes, so a refused one
 * leaves the state as it was; the server applies it on a scratch copy of its
 * own (game_try()) all the same.
 */
#include "stones.h"

#include <stdio.h>
#include <string.h>

/* ---- Small helpers ---- */

/*
 * Reports whether objective Ok (1..7) is revealed in this game. Returns 1 or 0.
 */
int stones__has_obj(const struct stones_state *st, int k)
{
    return st->variant == STONES_STANDARD && (st->objectives & (1 << (k - 1))) != 0;
}

/*
 * The seat that must act now, or -1 when the game is over.
 */
int stones__current_seat(const struct stones_state *st)
{
    if (st->phase == STONES_PH_OVER) {
        return -1;
    }
    return st->pl[st->cur].seat;
}

/*
 * Fills `grid` (global cells, R-stones-2.1) with tile * 4 + slot, or -1 for
 * off-board cells. Returns 0.
 */
int stones__grid(const struct stones_state *st, int8_t grid[10][10])
{
    memset(grid, -1, 100);
    for (int t = 0; t < STONES_NTILES; t++) {
        for (int s = 0; s < STONES_NSLOTS; s++) {
            int r = 2 * st->tile_r[t] + s / 2;
            int c = 2 * st->tile_c[t] + s % 2;
            if (r >= 0 && r < 10 && c >= 0 && c < 10) {
                grid[r][c] = (int8_t)(t * 4 + s);
            }
        }
    }
    return 0;
}

static int cell_col(const struct stones_state *st, int8_t grid[10][10], int r, int c)
{
    if (r < 0 || r >= 10 || c < 0 || c >= 10 || grid[r][c] < 0) {
        return -1;
    }
    return st->slot[grid[r][c] / 4][grid[r][c] % 4];
}

/*
 * R-stones-6.1 step 6 affordability: 1 when a reservoir `held` can pay the
 * outstanding cost `owed` (counts by colour), with O7 pairs when `o7`.
 */
int stones__can_afford(const int8_t held[STONES_NCOL], const int8_t owed[STONES_NCOL], int o7)
{
    int d = 0;
    int size = 0;
    int total = 0;
    for (int c = 0; c < STONES_NCOL; c++) {
        d += held[c] < owed[c] ? held[c] : owed[c];
        size += owed[c];
        total += held[c];
    }
    if (d == size) {
        return 1;
    }
    return o7 && (total - d) >= 2 * (size - d);
}

static void art_owed(int art, int8_t owed[STONES_NCOL])
{
    memset(owed, 0, STONES_NCOL);
    for (int i = 0; i < stones_artifacts[art].ncost; i++) {
        owed[stones_artifacts[art].cost[i]]++;
    }
}

/*
 * Writes the available artifacts (row left to right, then the deck top) to
 * `out` and returns how many there are (0..4).
 */
int stones__available(const struct stones_state *st, int8_t out[4])
{
    int n = 0;
    for (int i = 0; i < st->art_row_n; i++) {
        out[n++] = st->art_row[i];
    }
    if (st->art_top < STONES_NART) {
        out[n++] = st->art_deck[st->art_top];
    }
    return n;
}

/*
 * The leftmost available artifact (R-stones-7.2), or -1 when none is left.
 */
int stones__leftmost_artifact(const struct stones_state *st)
{
    int8_t av[4];
    return stones__available(st, av) > 0 ? av[0] : -1;
}

static int tile_has_taoist(const struct stones_state *st, int t)
{
    for (int p = 0; p < st->np; p++) {
        if (st->pl[p].taoist == t) {
            return 1;
        }
    }
    return 0;
}

static int row_index(const struct stones_player *pl, int card)
{
    for (int i = 0; i < pl->row_n; i++) {
        if (pl->row[i] == card) {
            return i;
        }
    }
    return -1;
}

static int board_has(const struct stones_state *st, int colour, int other)
{
    for (int t = 0; t < STONES_NTILES; t++) {
        for (int s = 0; s < STONES_NSLOTS; s++) {
            int c = st->slot[t][s];
            if (c < 0) {
                continue;
            }
            if (!other && c == colour) {
                return 1;
            }
            if (other && c != colour) {
                return 1;
            }
        }
    }
    return 0;
}

/*
 * R-stones-5: whether `card` has a target now (only SHIFT can lack one).
 * Returns 1 or 0.
 */
int stones__card_castable(const struct stones_state *st, int card)
{
    if (card < STONES_SHIFT0) {
        return 1;
    }
    int x = card - STONES_SHIFT0;
    return board_has(st, x, 0) && board_has(st, x, 1);
}

static int row_castable(const struct stones_state *st)
{
    const struct stones_player *pl = &st->pl[st->cur];
    for (int i = 0; i < pl->row_n; i++) {
        if (stones__card_castable(st, pl->row[i])) {
            return 1;
        }
    }
    return 0;
}

/* R-stones-2.7: the five tile positions are edge-connected. */
static int tiles_connected(const int8_t tr[STONES_NTILES], const int8_t tc[STONES_NTILES])
{
    int seen = 1;
    int stack[STONES_NTILES];
    int n = 0;
    stack[n++] = 0;
    while (n > 0) {
        int t = stack[--n];
        for (int u = 0; u < STONES_NTILES; u++) {
            int dr = tr[u] - tr[t];
            int dc = tc[u] - tc[t];
            if (!(seen & (1 << u)) &&
                ((dr == 0 && (dc == 1 || dc == -1)) || (dc == 0 && (dr == 1 || dr == -1)))) {
                seen |= 1 << u;
                stack[n++] = u;
            }
        }
    }
    return seen == (1 << STONES_NTILES) - 1;
}

static int quake_move_check(const struct stones_state *st, int x, int r, int c,
                            struct game_error *err)
{
    if (r == st->tile_r[x] && c == st->tile_c[x]) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-2.7: QUAKE must move %s to a different place",
                              stones_tile_name[x]);
    }
    for (int t = 0; t < STONES_NTILES; t++) {
        if (t != x && st->tile_r[t] == r && st->tile_c[t] == c) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-2.7: that place is taken by %s; use a QUAKE swap "
                                  "to exchange tiles",
                                  stones_tile_name[t]);
        }
    }
    int8_t tr[STONES_NTILES];
    int8_t tc[STONES_NTILES];
    memcpy(tr, st->tile_r, sizeof(tr));
    memcpy(tc, st->tile_c, sizeof(tc));
    tr[x] = (int8_t)r;
    tc[x] = (int8_t)c;
    if (!tiles_connected(tr, tc)) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-2.7: QUAKE may not isolate a tile (the five tiles must "
                              "stay joined edge to edge)");
    }
    return GAME_OK;
}

/*
 * R-stones-2.7: whether `tile` has at least one legal QUAKE move. Any legal
 * destination touches another tile, so it lies in -1..5 in canonical
 * coordinates (R-stones-2.1). Returns 1 or 0.
 */
int stones__quake_movable(const struct stones_state *st, int tile)
{
    for (int r = -1; r <= 5; r++) {
        for (int c = -1; c <= 5; c++) {
            if (quake_move_check(st, tile, r, c, NULL) == GAME_OK) {
                return 1;
            }
        }
    }
    return 0;
}

/* R-stones-2.1: translate so the smallest tile row and column are 0. */
static void canonicalise(struct stones_state *st)
{
    int mr = 127;
    int mc = 127;
    for (int t = 0; t < STONES_NTILES; t++) {
        mr = st->tile_r[t] < mr ? st->tile_r[t] : mr;
        mc = st->tile_c[t] < mc ? st->tile_c[t] : mc;
    }
    for (int t = 0; t < STONES_NTILES; t++) {
        st->tile_r[t] = (int8_t)(st->tile_r[t] - mr);
        st->tile_c[t] = (int8_t)(st->tile_c[t] - mc);
    }
}

/* ---- Element Zone ---- */

static int spirit_at(const struct stones_state *st, int r, int c)
{
    for (int p = 0; p < st->np; p++) {
        if (st->pl[p].spirit_r == r && st->pl[p].spirit_c == c) {
            return p;
        }
    }
    return -1;
}

/* R-stones-2.9: can player p's Spirit step to e(r,c)? Colour not checked. */
static int step_cell_check(const struct stones_state *st, int p, int r, int c,
                           struct game_error *err)
{
    const struct stones_player *pl = &st->pl[p];
    if (r < 0 || r >= STONES_EMAP || c < 0 || c >= STONES_EMAP) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-2.9: e(%d,%d) is not on the Element Zone", r, c);
    }
    int dr = r - pl->spirit_r;
    int dc = c - pl->spirit_c;
    if (!((dr == 0 && (dc == 1 || dc == -1)) || (dc == 0 && (dr == 1 || dr == -1)))) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-2.9: the Spirit moves one orthogonal step; e(%d,%d) is "
                              "not next to it",
                              r, c);
    }
    if (STONES_SITE(stones_emap[r][c])) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-2.9: e(%d,%d) is a rune site; the Spirit may not enter it",
                              r, c);
    }
    if (spirit_at(st, r, c) >= 0) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-2.9: e(%d,%d) is occupied by another Spirit", r, c);
    }
    return GAME_OK;
}

/* The rune type player p may take from its Spirit's cell, or -1. */
static int rune_takeable(const struct stones_state *st, int p)
{
    const struct stones_player *pl = &st->pl[p];
    static const int dr[4] = {-1, 1, 0, 0};
    static const int dc[4] = {0, 0, -1, 1};
    for (int k = 0; k < 4; k++) {
        int r = pl->spirit_r + dr[k];
        int c = pl->spirit_c + dc[k];
        if (r < 0 || r >= STONES_EMAP || c < 0 || c >= STONES_EMAP) {
            continue;
        }
        int v = stones_emap[r][c];
        if (STONES_SITE(v)) {
            int t = v - 10;
            if (st->stack_n[t] > 0 && !pl->rune_owned[t]) {
                return t;
            }
            return -1;
        }
    }
    return -1;
}

static int held_total(const struct stones_player *pl)
{
    int n = 0;
    for (int c = 0; c < STONES_NCOL; c++) {
        n += pl->held[c];
    }
    return n;
}

static int holds_pair(const struct stones_player *pl, int a, int b)
{
    if (a < 0 || a >= STONES_NCOL || b < 0 || b >= STONES_NCOL) {
        return 0;
    }
    if (a == b) {
        return pl->held[a] >= 2;
    }
    return pl->held[a] >= 1 && pl->held[b] >= 1;
}

/* ---- Activation (R-stones-2.5) ---- */

/*
 * Computes, for the stones on `tile`, which slots are eligible (elig[s] = 1)
 * and the line metrics: the longest line touching the tile and the number of
 * lines touching it (R-stones-2.5 step 4).
 */
void stones__activation_metrics(const struct stones_state *st, int tile, int8_t elig[4],
                                int *maxline, int *lines)
{
    int8_t grid[10][10];
    stones__grid(st, grid);
    int8_t inline_[10][10];
    memset(inline_, 0, sizeof(inline_));
    static const int ddr[4] = {0, 1, 1, 1};
    static const int ddc[4] = {1, 0, 1, -1};
    int ml = 0;
    int nl = 0;
    for (int d = 0; d < 4; d++) {
        for (int r = 0; r < 10; r++) {
            for (int c = 0; c < 10; c++) {
                int col = cell_col(st, grid, r, c);
                if (col < 0 || cell_col(st, grid, r - ddr[d], c - ddc[d]) == col) {
                    continue;
                }
                int len = 0;
                int touches = 0;
                while (cell_col(st, grid, r + len * ddr[d], c + len * ddc[d]) == col) {
                    if (grid[r + len * ddr[d]][c + len * ddc[d]] / 4 == tile) {
                        touches = 1;
                    }
                    len++;
                }
                if (len >= 3) {
                    for (int i = 0; i < len; i++) {
                        inline_[r + i * ddr[d]][c + i * ddc[d]] = 1;
                    }
                    if (touches) {
                        nl++;
                        ml = len > ml ? len : ml;
                    }
                }
            }
        }
    }
    static const int odr[4] = {-1, 1, 0, 0};
    static const int odc[4] = {0, 0, -1, 1};
    for (int s = 0; s < STONES_NSLOTS; s++) {
        elig[s] = 0;
        int col = st->slot[tile][s];
        if (col < 0) {
            continue;
        }
        int r = 2 * st->tile_r[tile] + s / 2;
        int c = 2 * st->tile_c[tile] + s % 2;
        if (inline_[r][c]) {
            elig[s] = 1; /* R-stones-2.4 rule (b) */
            continue;
        }
        for (int k = 0; k < 4; k++) {
            int rr = r + odr[k];
            int cc = c + odc[k];
            if (rr < 0 || rr >= 10 || cc < 0 || cc >= 10 || grid[rr][cc] < 0) {
                continue;
            }
            if (grid[rr][cc] / 4 != tile && cell_col(st, grid, rr, cc) == col) {
                elig[s] = 1; /* R-stones-2.4 rule (a) */
            }
        }
    }
    *maxline = ml;
    *lines = nl;
}

/* Ends the game for `reason` (R-stones-6.1) and says why. A forfeit does
 * not come here: stones__forfeit() ends the game with its own line. */
static void end_game(struct stones_state *st, int reason)
{
    st->phase = STONES_PH_OVER;
    st->end_reason = (int8_t)reason;
    switch (reason) {
    case STONES_END_RUNES:
        stones__log(st, "end_runes",
                    "The game ends: a player owns all five rune types and the round is complete.");
        break;
    case STONES_END_ARTIFACTS:
        stones__log(st, "end_artifacts", "The game ends: the artifact supply is empty.");
        break;
    case STONES_END_QI:
        stones__log(st, "end_qi", "The game ends: the Qi supply is empty.");
        break;
    case STONES_END_FROZEN:
        stones__log(st, "end_frozen",
                    "The game ends: the position is frozen (nothing can change any more).");
        break;
    case STONES_END_NOVICE:
        stones__log(st, "end_novice", "The game ends: a fourth artifact was crafted.");
        break;
    case STONES_END_CARDS:
        stones__log(st, "end_cards", "The game ends: no magic card is left.");
        break;
    default:
        break;
    }
}

static void award_qi(struct stones_state *st, int p, int n)
{
    if (n <= 0 || st->variant != STONES_STANDARD) {
        return;
    }
    int take = n < st->qi_supply ? n : st->qi_supply;
    st->pl[p].qi = (int16_t)(st->pl[p].qi + take);
    st->pl[p].excess = (int16_t)(st->pl[p].excess + (n - take));
    st->qi_supply = (int16_t)(st->qi_supply - take);
}

/* R-stones-6.1 condition 3. Returns 1 when the game ended. */
static int qi_check(struct stones_state *st)
{
    if (st->variant == STONES_STANDARD && st->qi_supply <= 0) {
        end_game(st, STONES_END_QI);
        return 1;
    }
    return 0;
}

static void supply_push(struct stones_state *st, int colour)
{
    st->supply[st->supply_n++] = (int8_t)colour;
}

/* ---- Forward declarations of the turn flow ---- */

static void activation(struct stones_state *st);
static void finish_activation(struct stones_state *st);
static void offer_flow(struct stones_state *st);
static void step4(struct stones_state *st);
static void step5_6(struct stones_state *st);
static void end_turn(struct stones_state *st);
static void end_batch(struct stones_state *st);

static int has_decision_cb(const struct stones_action *a, void *ctx)
{
    int *found = ctx;
    if (a->type != STONES_A_END_CAST && a->type != STONES_A_END_MOVE &&
        a->type != STONES_A_END_TURN) {
        *found = 1;
        return 1;
    }
    return 0;
}

/* 1 when the current phase offers something besides its closing action. */
static int has_decision(const struct stones_state *st)
{
    int found = 0;
    stones__enumerate(st, has_decision_cb, &found);
    return found;
}

/* R-stones-4 step 1: refill the magic row once, after the casts. */
static void refill_row(struct stones_state *st)
{
    struct stones_player *pl = &st->pl[st->cur];
    while (pl->row_n < STONES_ROW) {
        if (pl->deck_n == 0) {
            if (st->variant == STONES_COOP || pl->discard_n == 0) {
                break;
            }
            /* R-stones-4 step 1: reshuffle the discard pile. */
            for (int i = 0; i < pl->discard_n; i++) {
                pl->deck[i] = pl->discard[i];
                pl->discard[i] = -1;
            }
            pl->deck_n = pl->discard_n;
            pl->discard_n = 0;
            game_rng_shuffle(&st->rng, pl->deck, (uint32_t)pl->deck_n, 1);
        }
        pl->row[pl->row_n++] = pl->deck[--pl->deck_n];
        pl->deck[pl->deck_n] = -1;
    }
}

static void end_cast(struct stones_state *st)
{
    refill_row(st);
    activation(st);
}

static int player_has_cards(const struct stones_player *pl)
{
    return pl->row_n + pl->deck_n > 0;
}

/*
 * Starts the turn of the current player (R-stones-4): resets the turn state
 * and goes to step 1, or straight to step 2 for a co-op colour without cards.
 */
void stones__begin_turn(struct stones_state *st)
{
    st->casts = 0;
    st->ngroups = 0;
    st->group_cur = 0;
    memset(st->group_mask, 0, sizeof(st->group_mask));
    memset(st->group_pick, -1, sizeof(st->group_pick));
    memset(st->gained, 0, sizeof(st->gained));
    memset(st->pending, 0, sizeof(st->pending));
    memset(st->grant, 0, sizeof(st->grant));
    memset(st->owed, 0, sizeof(st->owed));
    st->free_steps = 0;
    st->batch = 0;
    st->batch_steps = 0;
    st->o6_used = 0;
    st->m_gained = st->m_same = st->m_maxline = st->m_lines = 0;
    st->pay_art = -1;
    st->sel_card = -1;
    st->sel_first = -1;
    st->pay_for = -1;
    st->step_pair = -1;
    st->turn_no++;
    if (st->variant == STONES_COOP && !player_has_cards(&st->pl[st->cur])) {
        /* R-stones-7.2: a colour without cards skips step 1. */
        activation(st);
        return;
    }
    st->phase = STONES_PH_CAST;
}

static void activation(struct stones_state *st)
{
    int tile = st->pl[st->cur].taoist;
    int8_t elig[4];
    int ml;
    int nl;
    stones__activation_metrics(st, tile, elig, &ml, &nl);
    st->m_maxline = (int8_t)ml;
    st->m_lines = (int8_t)nl;
    /* R-stones-2.5 step 2: groups by colour and orthogonal contact on the tile. */
    int parent[4] = {0, 1, 2, 3};
    static const int pa[4] = {0, 0, 1, 2};
    static const int pb[4] = {1, 2, 3, 3};
    for (int k = 0; k < 4; k++) {
        int a = pa[k];
        int b = pb[k];
        if (st->slot[tile][a] >= 0 && st->slot[tile][a] == st->slot[tile][b]) {
            int ra = parent[a];
            int rb = parent[b];
            for (int s = 0; s < 4; s++) {
                if (parent[s] == rb) {
                    parent[s] = ra;
                }
            }
        }
    }
    st->ngroups = 0;
    memset(st->group_mask, 0, sizeof(st->group_mask));
    memset(st->group_pick, -1, sizeof(st->group_pick));
    int done = 0;
    for (int s = 0; s < 4; s++) {
        if (st->slot[tile][s] < 0 || (done & (1 << parent[s]))) {
            continue;
        }
        done |= 1 << parent[s];
        int mask = 0;
        for (int u = 0; u < 4; u++) {
            if (parent[u] == parent[s] && st->slot[tile][u] >= 0 && elig[u]) {
                mask |= 1 << u;
            }
        }
        if (mask == 0) {
            continue;
        }
        int g = st->ngroups++;
        st->group_mask[g] = (int8_t)mask;
        if ((mask & (mask - 1)) == 0) {
            for (int u = 0; u < 4; u++) {
                if (mask == (1 << u)) {
                    st->group_pick[g] = (int8_t)u;
                }
            }
        }
    }
    for (int g = 0; g < st->ngroups; g++) {
        if (st->group_pick[g] < 0) {
            st->group_cur = (int8_t)g;
            st->phase = STONES_PH_CHOOSE;
            return;
        }
    }
    finish_activation(st);
}

/* The line of the stones the current player gained from `tile`, colour by
 * colour in the order of the groups (R-stones-2.5: one to four). */
static void log_gained(struct stones_state *st, const int8_t got[STONES_NSLOTS], int tile)
{
    const char *who = stones__pname(st, st->cur);
    const char *const *c = stones_colour_letter;
    const char *t = stones_tile_name[tile];

    switch (st->ngroups) {
    case 1:
        stones__log(st, "gained_1", "%s gained %s from %s.", who, c[got[0]], t);
        break;
    case 2:
        stones__log(st, "gained_2", "%s gained %s %s from %s.", who, c[got[0]], c[got[1]], t);
        break;
    case 3:
        stones__log(st, "gained_3", "%s gained %s %s %s from %s.", who, c[got[0]], c[got[1]],
                    c[got[2]], t);
        break;
    case 4:
        stones__log(st, "gained_4", "%s gained %s %s %s %s from %s.", who, c[got[0]], c[got[1]],
                    c[got[2]], c[got[3]], t);
        break;
    default:
        break;
    }
}

static void finish_activation(struct stones_state *st)
{
    int p = st->cur;
    struct stones_player *pl = &st->pl[p];
    int tile = pl->taoist;
    int own = 0;
    int8_t got[STONES_NSLOTS];
    memset(st->gained, 0, sizeof(st->gained));
    for (int g = 0; g < st->ngroups; g++) {
        int s = st->group_pick[g];
        int col = st->slot[tile][s];
        st->slot[tile][s] = -1;
        st->gained[col]++;
        got[g] = (int8_t)col;
        if (st->variant == STONES_COOP) {
            st->pending[col]++;
        } else {
            pl->held[col]++;
            if (st->variant == STONES_STANDARD) {
                st->grant[col]++;
            }
            if (col == pl->colour) {
                own++;
            }
        }
    }
    st->m_gained = st->ngroups;
    st->m_same = 0;
    for (int c = 0; c < STONES_NCOL; c++) {
        st->m_same = st->gained[c] > st->m_same ? st->gained[c] : st->m_same;
    }
    log_gained(st, got, tile);
    if (st->variant == STONES_COOP) {
        offer_flow(st);
        return;
    }
    if (st->variant == STONES_NOVICE) {
        step5_6(st);
        return;
    }
    /* R-stones-4 step 2: own colour Qi, then the Qi check. */
    award_qi(st, p, own);
    if (qi_check(st)) {
        return;
    }
    /* R-stones-4 step 3. */
    st->phase = STONES_PH_MOVE;
    st->batch = STONES_BATCH_STEP3;
    st->batch_steps = 0;
    if (!has_decision(st)) {
        end_batch(st);
    }
}

/* R-stones-7.2: offer one stone of `col` to the leftmost artifact. */
static void offer_one(struct stones_state *st, int col)
{
    st->pending[col]--;
    int art = stones__leftmost_artifact(st);
    if (art < 0) {
        supply_push(st, col);
        return;
    }
    const struct stones_artifact *A = &stones_artifacts[art];
    if (A->cost[st->coop_filled] != col) {
        supply_push(st, col);
        return;
    }
    st->coop_filled++;
    if (st->coop_filled < A->ncost) {
        return;
    }
    /* Completed: stones back in placement order, display shifts left. */
    for (int i = 0; i < A->ncost; i++) {
        supply_push(st, A->cost[i]);
    }
    st->coop_filled = 0;
    st->coop_done[st->coop_done_n++] = (int8_t)art;
    if (st->art_row_n > 0) {
        for (int i = 0; i + 1 < st->art_row_n; i++) {
            st->art_row[i] = st->art_row[i + 1];
        }
        st->art_row_n--;
        st->art_row[st->art_row_n] = -1;
        if (st->art_top < STONES_NART) {
            st->art_row[st->art_row_n++] = st->art_deck[st->art_top++];
        }
    } else {
        st->art_top++;
    }
    stones__log(st, "team_completed", "The team completed %s (%d so far).", A->name,
                st->coop_done_n);
    if (st->coop_done_n == STONES_NART) {
        /* Remaining gained stones return to the supply. */
        for (int c = 0; c < STONES_NCOL; c++) {
            while (st->pending[c] > 0) {
                st->pending[c]--;
                supply_push(st, c);
            }
        }
        end_game(st, STONES_END_ARTIFACTS);
    }
}

static void offer_flow(struct stones_state *st)
{
    for (;;) {
        if (st->phase == STONES_PH_OVER) {
            return;
        }
        int distinct = 0;
        int last = -1;
        for (int c = 0; c < STONES_NCOL; c++) {
            if (st->pending[c] > 0) {
                distinct++;
                last = c;
            }
        }
        if (distinct == 0) {
            step5_6(st);
            return;
        }
        if (distinct >= 2) {
            st->phase = STONES_PH_OFFER;
            return;
        }
        offer_one(st, last);
    }
}

/* R-stones-4 step 4: objective rewards O1-O4. */
static void step4(struct stones_state *st)
{
    int qi = 0;
    int steps = 0;
    if (stones__has_obj(st, 1)) {
        if (st->m_maxline >= 5) {
            qi += 4;
            steps += 1;
        } else if (st->m_maxline == 4) {
            qi += 1;
            steps += 1;
        } else if (st->m_maxline == 3) {
            qi += 1;
        }
    }
    if (stones__has_obj(st, 2)) {
        if (st->m_gained >= 4) {
            qi += 4;
        } else if (st->m_gained == 3) {
            qi += 2;
        } else if (st->m_gained == 2) {
            qi += 1;
        }
    }
    if (stones__has_obj(st, 3) && st->m_same >= 2) {
        qi += 3;
    }
    if (stones__has_obj(st, 4) && st->m_lines >= 2) {
        steps += 1; /* Q-O4: tier 2 and tier 3 both grant one step. */
    }
    if (qi > 0) {
        award_qi(st, st->cur, qi);
        stones__log(st, "objectives_qi", "%s earned %d Qi from the objectives.",
                    stones__pname(st, st->cur), qi);
    }
    if (steps > 0) {
        st->phase = STONES_PH_MOVE;
        st->batch = STONES_BATCH_STEP4;
        st->batch_steps = 0;
        st->free_steps = (int8_t)steps;
        if (has_decision(st)) {
            return;
        }
        st->free_steps = 0;
    }
    if (qi_check(st)) {
        return;
    }
    step5_6(st);
}

/* R-stones-2.6: refill empty slots, column descending then row ascending. */
static void refill_board(struct stones_state *st)
{
    int8_t grid[10][10];
    stones__grid(st, grid);
    for (int c = 9; c >= 0; c--) {
        for (int r = 0; r < 10; r++) {
            int g = grid[r][c];
            if (g < 0 || st->slot[g / 4][g % 4] >= 0 || st->supply_n == 0) {
                continue;
            }
            st->slot[g / 4][g % 4] = st->supply[0];
            memmove(st->supply, st->supply + 1, (size_t)(st->supply_n - 1));
            st->supply_n--;
            st->supply[st->supply_n] = -1;
        }
    }
}

static void step5_6(struct stones_state *st)
{
    refill_board(st);
    if (st->variant == STONES_COOP) {
        end_turn(st);
        return;
    }
    st->phase = STONES_PH_CRAFT;
    if (!has_decision(st)) {
        end_turn(st);
    }
}

static void end_batch(struct stones_state *st)
{
    st->free_steps = 0;
    st->batch_steps = 0;
    memset(st->grant, 0, sizeof(st->grant));
    if (st->batch == STONES_BATCH_STEP3) {
        step4(st);
    } else if (st->batch == STONES_BATCH_STEP4) {
        if (qi_check(st)) {
            return;
        }
        step5_6(st);
    } else {
        end_turn(st);
    }
}

/* R-stones-6.1 condition 4: the frozen position. */
static int frozen(const struct stones_state *st)
{
    if (st->supply_n > 0) {
        return 0;
    }
    int count[STONES_NCOL] = {0};
    int tiles = 0;
    for (int t = 0; t < STONES_NTILES; t++) {
        int any = 0;
        for (int s = 0; s < STONES_NSLOTS; s++) {
            if (st->slot[t][s] >= 0) {
                count[st->slot[t][s]]++;
                any = 1;
            }
        }
        tiles += any;
    }
    int pair = 0;
    for (int c = 0; c < STONES_NCOL; c++) {
        pair |= count[c] >= 2;
    }
    if (pair && tiles > 1) {
        return 0;
    }
    int o7 = stones__has_obj(st, 7);
    int8_t av[4];
    int nav = stones__available(st, av);
    for (int p = 0; p < st->np; p++) {
        const struct stones_player *pl = &st->pl[p];
        for (int i = 0; i < nav; i++) {
            int8_t owed[STONES_NCOL];
            art_owed(av[i], owed);
            if (stones__can_afford(pl->held, owed, o7)) {
                return 0;
            }
        }
        if (stones__has_obj(st, 6)) {
            static const int dr[4] = {-1, 1, 0, 0};
            static const int dc[4] = {0, 0, -1, 1};
            for (int k = 0; k < 4; k++) {
                int r = pl->spirit_r + dr[k];
                int c = pl->spirit_c + dc[k];
                if (step_cell_check(st, p, r, c, NULL) != GAME_OK) {
                    continue;
                }
                if (pl->held[stones_emap[r][c]] > 0) {
                    return 0;
                }
                if (o7 && held_total(pl) >= 2) {
                    return 0;
                }
            }
        }
    }
    return 1;
}

static int all_cards_gone(const struct stones_state *st)
{
    for (int p = 0; p < st->np; p++) {
        if (player_has_cards(&st->pl[p])) {
            return 0;
        }
    }
    return 1;
}

static void end_turn(struct stones_state *st)
{
    if (st->phase == STONES_PH_OVER) {
        return;
    }
    if (st->variant == STONES_COOP) {
        if (all_cards_gone(st)) {
            end_game(st, STONES_END_CARDS);
            return;
        }
    } else {
        if (frozen(st)) {
            end_game(st, STONES_END_FROZEN);
            return;
        }
        if (st->final_round && st->cur == (st->start + st->np - 1) % st->np) {
            end_game(st, STONES_END_RUNES);
            return;
        }
    }
    st->cur = (int8_t)((st->cur + 1) % st->np);
    stones__begin_turn(st);
}

/* R-stones-6.1 step 6: the artifact is crafted once its cost is covered. */
static void craft_done(struct stones_state *st)
{
    int p = st->cur;
    struct stones_player *pl = &st->pl[p];
    int art = st->pay_art;
    pl->crafted[pl->ncrafted++] = (int8_t)art;
    st->pay_art = -1;
    int in_row = -1;
    for (int i = 0; i < st->art_row_n; i++) {
        if (st->art_row[i] == art) {
            in_row = i;
        }
    }
    if (in_row >= 0) {
        for (int i = in_row; i + 1 < st->art_row_n; i++) {
            st->art_row[i] = st->art_row[i + 1];
        }
        st->art_row_n--;
        st->art_row[st->art_row_n] = -1;
        if (st->art_top < STONES_NART) {
            st->art_row[st->art_row_n++] = st->art_deck[st->art_top++];
        }
    } else {
        st->art_top++;
    }
    stones__log(st, "crafted", "%s crafted %s.", stones__pname(st, p), stones_artifacts[art].name);
    if (st->variant == STONES_NOVICE && pl->ncrafted >= 4) {
        end_game(st, STONES_END_NOVICE);
        return;
    }
    if (st->art_row_n == 0 && st->art_top >= STONES_NART) {
        end_game(st, STONES_END_ARTIFACTS);
        return;
    }
    if (stones__has_obj(st, 5)) {
        st->phase = STONES_PH_REWARD;
        return;
    }
    end_turn(st);
}

static void take_rune(struct stones_state *st)
{
    int p = st->cur;
    struct stones_player *pl = &st->pl[p];
    int t = rune_takeable(st, p);
    pl->rune_owned[t] = 1;
    pl->rune_val[t] = st->stack[t][0];
    for (int i = 0; i + 1 < 4; i++) {
        st->stack[t][i] = st->stack[t][i + 1];
    }
    st->stack[t][3] = 0;
    st->stack_n[t]--;
    stones__log(st, "took_rune", "%s took the %s rune worth %d.", stones__pname(st, p),
                stones_element_name[t], pl->rune_val[t]);
    int all = 1;
    for (int c = 0; c < STONES_NCOL; c++) {
        all &= pl->rune_owned[c];
    }
    if (all && !st->final_round) {
        /* R-stones-6.1 condition 1: finish the round. */
        st->final_round = 1;
        stones__log(st, "final_round", "%s owns all five rune types: this is the final round.",
                    stones__pname(st, p));
    }
}

/* ---- Validation ---- */

static int wrong_phase(const struct stones_state *st, const char *what, struct game_error *err)
{
    return game_error_set(err, GAME_E_ILLEGAL, "R-stones-4.1: %s is not possible now (phase %s)",
                          what, stones_phase_name[st->phase]);
}

/* Names the cast being chosen, e.g. "QUAKE-1 (moving Tn)", into buf. */
static const char *chosen_name(const struct stones_state *st, char buf[48])
{
    int card = st->sel_card;
    int f = st->sel_first;
    if (f < 0) {
        snprintf(buf, 48, "%s", stones_card_name[card]);
    } else if (card <= STONES_QUAKE2) {
        snprintf(buf, 48, "%s (moving %s)", stones_card_name[card], stones_tile_name[f]);
    } else {
        snprintf(buf, 48, "%s (a = %s.%s)", stones_card_name[card], stones_tile_name[f / 4],
                 stones_slot_name[f % 4]);
    }
    return buf;
}

static int refuse_chosen(const struct stones_state *st, struct game_error *err)
{
    char buf[48];
    return game_error_set(err, GAME_E_ILLEGAL,
                          "R-stones-4.2: you are casting %s; complete that cast or cancel it "
                          "first",
                          chosen_name(st, buf));
}

/* How far a cast action goes: 1 card, 2 first choice, 3 whole cast. */
static int cast_depth(const struct stones_action *a)
{
    return a->part == STONES_PART_FIRST ? 1 : a->part == STONES_PART_SECOND ? 2 : 3;
}

/*
 * R-stones-4.2, the steps of a cast: while a cast is being chosen, a cast
 * action is accepted only when it goes further along the same choice (the
 * same card, the same first choice). With nothing chosen any cast action
 * may be sent, the whole one-shot form included.
 */
static int chosen_agrees(const struct stones_state *st, const struct stones_action *a,
                         struct game_error *err)
{
    if (st->sel_card < 0) {
        return GAME_OK;
    }
    int depth = st->sel_first >= 0 ? 2 : 1;
    if (a->card != st->sel_card || cast_depth(a) <= depth) {
        return refuse_chosen(st, err);
    }
    if (st->sel_first >= 0) {
        int first =
            a->card <= STONES_QUAKE2 ? (a->quake == STONES_QUAKE_MOVE ? a->tile : -1) : a->slot_a;
        if (first != st->sel_first) {
            return refuse_chosen(st, err);
        }
    }
    return GAME_OK;
}

/* R-stones-5.3 and 5.4: the first choice of a QUAKE move or of a SHIFT. */
static int validate_first(const struct stones_state *st, const struct stones_action *a,
                          struct game_error *err)
{
    int card = a->card;
    if (card == STONES_QUAKE1 || card == STONES_QUAKE2) {
        if (a->tile < 0 || a->tile >= STONES_NTILES) {
            return game_error_set(err, GAME_E_ILLEGAL, "R-stones-5.3: QUAKE needs a tile");
        }
        if (!stones__quake_movable(st, a->tile)) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-2.7: %s cannot move anywhere without isolating a "
                                  "tile; it can only swap",
                                  stones_tile_name[a->tile]);
        }
        return GAME_OK;
    }
    if (card < STONES_SHIFT0) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-4.2: only QUAKE and SHIFT are cast in three steps");
    }
    int x = card - STONES_SHIFT0;
    if (a->slot_a < 0 || a->slot_a >= 20 || st->slot[a->slot_a / 4][a->slot_a % 4] != x) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-5.4: the first slot of SHIFT-%s must hold a %s stone",
                              stones_colour_letter[x], stones_colour_name[x]);
    }
    if (!stones__card_castable(st, card)) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-5.4: SHIFT-%s needs a stone of another colour on the "
                              "Alchemy Zone",
                              stones_colour_letter[x]);
    }
    return GAME_OK;
}

static int validate_cast(const struct stones_state *st, const struct stones_action *a,
                         struct game_error *err)
{
    const struct stones_player *pl = &st->pl[st->cur];
    if (st->casts >= 2) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-4.2: at most two magic cards may be cast per turn");
    }
    if (a->card < 0 || a->card >= STONES_NCARDS || row_index(pl, a->card) < 0) {
        return game_error_set(
            err, GAME_E_ILLEGAL, "R-stones-4.2: %s is not among your face-up magic cards",
            a->card >= 0 && a->card < STONES_NCARDS ? stones_card_name[a->card] : "that card");
    }
    int card = a->card;
    int rc = chosen_agrees(st, a, err);
    if (rc != GAME_OK) {
        return rc;
    }
    if (a->part == STONES_PART_FIRST) {
        if (!stones__card_castable(st, card)) {
            int x = card - STONES_SHIFT0;
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-5.4: %s has no target: the Alchemy Zone needs a %s "
                                  "stone and a stone of another colour",
                                  stones_card_name[card], stones_colour_name[x]);
        }
        return GAME_OK;
    }
    if (a->part == STONES_PART_SECOND) {
        return validate_first(st, a, err);
    }
    if (card == STONES_SPIN1 || card == STONES_SPIN2) {
        if (a->tile < 0 || a->tile >= STONES_NTILES || a->dir < 0 || a->dir > 1) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-5.1: SPIN needs a tile and a "
                                  "direction");
        }
        return GAME_OK;
    }
    if (card == STONES_FLY1 || card == STONES_FLY2) {
        if (a->tile < 0 || a->tile >= STONES_NTILES) {
            return game_error_set(err, GAME_E_ILLEGAL, "R-stones-5.2: FLY needs a tile");
        }
        return GAME_OK;
    }
    if (card == STONES_QUAKE1 || card == STONES_QUAKE2) {
        if (a->tile < 0 || a->tile >= STONES_NTILES) {
            return game_error_set(err, GAME_E_ILLEGAL, "R-stones-5.3: QUAKE needs a tile");
        }
        if (a->quake == STONES_QUAKE_SWAP) {
            if (a->tile2 < 0 || a->tile2 >= STONES_NTILES || a->tile2 == a->tile) {
                return game_error_set(err, GAME_E_ILLEGAL,
                                      "R-stones-5.3: a QUAKE swap needs two different tiles");
            }
            return GAME_OK;
        }
        return quake_move_check(st, a->tile, a->to_r, a->to_c, err);
    }
    /* R-stones-5.4: SHIFT-x. */
    int x = card - STONES_SHIFT0;
    if (a->slot_a < 0 || a->slot_a >= 20 || a->slot_b < 0 || a->slot_b >= 20) {
        return game_error_set(err, GAME_E_ILLEGAL, "R-stones-5.4: SHIFT needs two board slots");
    }
    int ca = st->slot[a->slot_a / 4][a->slot_a % 4];
    int cb = st->slot[a->slot_b / 4][a->slot_b % 4];
    if (ca < 0 || cb < 0) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-5.4: SHIFT exchanges two stones; an empty slot cannot "
                              "be used");
    }
    if (ca != x) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-5.4: the first slot of SHIFT-%s must hold a %s stone",
                              stones_colour_letter[x], stones_colour_name[x]);
    }
    if (cb == x) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-5.4: SHIFT-%s exchanges a %s stone with a stone of "
                              "another colour",
                              stones_colour_letter[x], stones_colour_name[x]);
    }
    return GAME_OK;
}

static int validate_move(const struct stones_state *st, const struct stones_action *a,
                         struct game_error *err)
{
    const struct stones_player *pl = &st->pl[st->cur];
    if (st->step_pair >= 0 &&
        (a->type != STONES_A_PAY_STEP || a->part != STONES_PART_WHOLE || a->npair != 2 ||
         a->pair[0] * STONES_NCOL + a->pair[1] != st->step_pair)) {
        /* R-stones-1.5, an O7 paid step chosen step by step: only its cell
         * may follow. */
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-1.5: you are paying %s and %s for a step; name its cell "
                              "or cancel first",
                              stones_colour_letter[st->step_pair / STONES_NCOL],
                              stones_colour_letter[st->step_pair % STONES_NCOL]);
    }
    if (a->type == STONES_A_END_MOVE) {
        return GAME_OK;
    }
    if (a->type == STONES_A_TAKE_RUNE) {
        if (st->batch_steps < 1) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-2.9: a rune is taken only after the Spirit moved in "
                                  "this batch");
        }
        if (rune_takeable(st, st->cur) < 0) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-2.9: your Spirit is not next to a rune you may take "
                                  "(one rune per type, Starting Rune included)");
        }
        return GAME_OK;
    }
    if (a->type == STONES_A_STEP) {
        if (st->batch == STONES_BATCH_O5) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-4.6: the O5 reward gives one step only");
        }
        int rc = step_cell_check(st, st->cur, a->to_r, a->to_c, err);
        if (rc != GAME_OK) {
            return rc;
        }
        if (st->batch == STONES_BATCH_STEP4) {
            if (st->free_steps < 1) {
                return game_error_set(err, GAME_E_ILLEGAL, "R-stones-4.4: no free step is left");
            }
            return GAME_OK;
        }
        int col = stones_emap[a->to_r][a->to_c];
        if (st->grant[col] < 1) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-4.3: e(%d,%d) is %s, and you have no unused %s "
                                  "stone gained this turn to step there",
                                  a->to_r, a->to_c, stones_colour_name[col],
                                  stones_colour_name[col]);
        }
        return GAME_OK;
    }
    /* PAY_STEP (O6). */
    if (st->batch != STONES_BATCH_STEP3 || !stones__has_obj(st, 6)) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-1.5: a paid step needs objective O6, in step 3");
    }
    if (st->o6_used) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-1.5: the O6 paid step is allowed once per turn");
    }
    if (a->part == STONES_PART_FIRST) {
        /* The two stones alone, the cell to come. */
        if (!stones__has_obj(st, 7)) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-1.5: paying two stones for one needs objective O7");
        }
        if (!holds_pair(pl, a->pair[0], a->pair[1])) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-1.5: you do not hold those two stones");
        }
        static const int dr[4] = {-1, 0, 0, 1};
        static const int dc[4] = {0, -1, 1, 0};
        for (int k = 0; k < 4; k++) {
            if (step_cell_check(st, st->cur, pl->spirit_r + dr[k], pl->spirit_c + dc[k], NULL) ==
                GAME_OK) {
                return GAME_OK;
            }
        }
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-2.9: your Spirit has no cell next to it to step onto");
    }
    int rc = step_cell_check(st, st->cur, a->to_r, a->to_c, err);
    if (rc != GAME_OK) {
        return rc;
    }
    int col = stones_emap[a->to_r][a->to_c];
    if (a->npair == 2) {
        if (!stones__has_obj(st, 7)) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-1.5: paying two stones for one needs objective O7");
        }
        if (!holds_pair(pl, a->pair[0], a->pair[1])) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-1.5: you do not hold those two stones");
        }
        return GAME_OK;
    }
    if (pl->held[col] < 1) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-1.5: O6 needs a %s stone from your reservoir to step "
                              "onto e(%d,%d)",
                              stones_colour_name[col], a->to_r, a->to_c);
    }
    return GAME_OK;
}

static int validate_pay(const struct stones_state *st, const struct stones_action *a,
                        struct game_error *err);

/* 1 when some pair of held stones may pay for a cost stone of colour f. */
static int pair_exists(const struct stones_state *st, int f)
{
    struct stones_action a;
    memset(&a, 0, sizeof(a));
    a.type = STONES_A_PAY_PAIR;
    a.colour = f;
    a.npair = 2;
    for (int x = 0; x < STONES_NCOL; x++) {
        for (int y = 0; y < STONES_NCOL; y++) {
            a.pair[0] = x;
            a.pair[1] = y;
            if (validate_pay(st, &a, NULL) == GAME_OK) {
                return 1;
            }
        }
    }
    return 0;
}

static int validate_pay(const struct stones_state *st, const struct stones_action *a,
                        struct game_error *err)
{
    const struct stones_player *pl = &st->pl[st->cur];
    int f = a->colour;
    if (st->pay_for >= 0 &&
        (a->type != STONES_A_PAY_PAIR || a->part != STONES_PART_WHOLE || f != st->pay_for)) {
        /* R-stones-4.6, paid step by step: only the stones of the chosen
         * pair may follow. */
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-4.6: you are paying a pair for a %s stone; name its two "
                              "stones or cancel first",
                              stones_colour_name[st->pay_for]);
    }
    if (f < 0 || f >= STONES_NCOL || st->owed[f] < 1) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-4.6: that colour is not outstanding on %s",
                              stones_artifacts[st->pay_art].name);
    }
    if (a->type == STONES_A_PAY) {
        if (pl->held[f] < 1) {
            return game_error_set(err, GAME_E_ILLEGAL, "R-stones-4.6: you hold no %s stone",
                                  stones_colour_name[f]);
        }
        return GAME_OK;
    }
    if (!stones__has_obj(st, 7)) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-1.5: paying two stones for one needs objective O7");
    }
    if (a->part == STONES_PART_FIRST) {
        /* The colour alone: the first step of a pair. */
        if (!pair_exists(st, f)) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-4.6: no two of your stones can pay for the %s stone "
                                  "and leave the rest payable",
                                  stones_colour_name[f]);
        }
        return GAME_OK;
    }
    if (!holds_pair(pl, a->pair[0], a->pair[1])) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-1.5: you do not hold those two stones");
    }
    int8_t held[STONES_NCOL];
    int8_t owed[STONES_NCOL];
    memcpy(held, pl->held, sizeof(held));
    memcpy(owed, st->owed, sizeof(owed));
    held[a->pair[0]]--;
    held[a->pair[1]]--;
    owed[f]--;
    if (!stones__can_afford(held, owed, 1)) {
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-4.6: that pair would leave the rest of the cost "
                              "unpayable");
    }
    return GAME_OK;
}

/*
 * Checks that action `a` is legal for the current player now. Returns
 * GAME_OK, or GAME_E_ILLEGAL with a sentence naming the rule in err (err may
 * be NULL). Never changes `st`.
 */
int stones__validate(const struct stones_state *st, const struct stones_action *a,
                     struct game_error *err)
{
    const struct stones_player *pl = &st->pl[st->cur];
    int ph = st->phase;
    switch (a->type) {
    case STONES_A_PLACE:
        if (ph != STONES_PH_PLACE) {
            return wrong_phase(st, "placing a Taoist", err);
        }
        if (a->tile < 0 || a->tile >= STONES_NTILES) {
            return game_error_set(err, GAME_E_ILLEGAL, "R-stones-3.5: no such tile");
        }
        if (tile_has_taoist(st, a->tile)) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-3.5: during setup each tile holds one Taoist, and %s "
                                  "already has one",
                                  stones_tile_name[a->tile]);
        }
        return GAME_OK;
    case STONES_A_CAST:
        if (ph != STONES_PH_CAST) {
            return wrong_phase(st, "casting a card", err);
        }
        return validate_cast(st, a, err);
    case STONES_A_END_CAST:
        if (ph != STONES_PH_CAST) {
            return wrong_phase(st, "ending the casting step", err);
        }
        if (st->sel_card >= 0) {
            return refuse_chosen(st, err);
        }
        if (st->casts < 1) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-4.2: you must cast at least one magic card");
        }
        return GAME_OK;
    case STONES_A_DISCARD:
        if (ph != STONES_PH_CAST) {
            return wrong_phase(st, "discarding a card", err);
        }
        if (st->sel_card >= 0) {
            return refuse_chosen(st, err);
        }
        if (st->casts > 0 || row_castable(st)) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-4.2: a card may be discarded only when no face-up "
                                  "card can be cast and none was cast this turn");
        }
        if (a->card < 0 || a->card >= STONES_NCARDS || row_index(pl, a->card) < 0) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-4.2: that card is not among your face-up cards");
        }
        return GAME_OK;
    case STONES_A_CHOOSE: {
        if (ph != STONES_PH_CHOOSE) {
            return wrong_phase(st, "choosing a stone", err);
        }
        int mask = st->group_mask[st->group_cur];
        if (a->slot_a < 0 || a->slot_a >= 20 || a->slot_a / 4 != pl->taoist ||
            !(mask & (1 << (a->slot_a % 4)))) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-2.5: choose one of the eligible stones of the "
                                  "current group on %s",
                                  stones_tile_name[pl->taoist]);
        }
        return GAME_OK;
    }
    case STONES_A_OFFER:
        if (ph != STONES_PH_OFFER) {
            return wrong_phase(st, "offering a stone", err);
        }
        if (a->colour < 0 || a->colour >= STONES_NCOL || st->pending[a->colour] < 1) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-7.2: no gained stone of that colour is waiting");
        }
        return GAME_OK;
    case STONES_A_STEP:
    case STONES_A_PAY_STEP:
    case STONES_A_TAKE_RUNE:
    case STONES_A_END_MOVE:
        if (ph != STONES_PH_MOVE) {
            if (st->variant != STONES_STANDARD) {
                return game_error_set(err, GAME_E_ILLEGAL,
                                      "R-stones-7: the variants have no Spirit movement");
            }
            return wrong_phase(st, "moving the Spirit", err);
        }
        return validate_move(st, a, err);
    case STONES_A_CRAFT: {
        if (ph != STONES_PH_CRAFT) {
            return wrong_phase(st, "crafting", err);
        }
        int8_t av[4];
        int nav = stones__available(st, av);
        int found = 0;
        for (int i = 0; i < nav; i++) {
            found |= av[i] == a->artifact;
        }
        if (!found) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-4.6: only the three row artifacts and the deck top "
                                  "can be crafted");
        }
        int8_t owed[STONES_NCOL];
        art_owed(a->artifact, owed);
        if (!stones__can_afford(pl->held, owed, stones__has_obj(st, 7))) {
            return game_error_set(err, GAME_E_ILLEGAL,
                                  "R-stones-4.6: your reservoir cannot pay for %s",
                                  stones_artifacts[a->artifact].name);
        }
        return GAME_OK;
    }
    case STONES_A_END_TURN:
        if (ph != STONES_PH_CRAFT) {
            return wrong_phase(st, "ending the turn", err);
        }
        return GAME_OK;
    case STONES_A_PAY:
    case STONES_A_PAY_PAIR:
        if (ph != STONES_PH_PAY) {
            return wrong_phase(st, "paying", err);
        }
        return validate_pay(st, a, err);
    case STONES_A_REWARD_STEP:
        if (ph != STONES_PH_REWARD) {
            return wrong_phase(st, "an O5 reward", err);
        }
        return step_cell_check(st, st->cur, a->to_r, a->to_c, err);
    case STONES_A_REWARD_FLY:
        if (ph != STONES_PH_REWARD) {
            return wrong_phase(st, "an O5 reward", err);
        }
        if (a->tile < 0 || a->tile >= STONES_NTILES) {
            return game_error_set(err, GAME_E_ILLEGAL, "R-stones-1.5: no such tile");
        }
        return GAME_OK;
    case STONES_A_REWARD_SKIP:
        if (ph != STONES_PH_REWARD) {
            return wrong_phase(st, "an O5 reward", err);
        }
        return GAME_OK;
    case STONES_A_CANCEL:
        if ((ph == STONES_PH_CAST && st->sel_card >= 0) ||
            (ph == STONES_PH_PAY && st->pay_for >= 0) ||
            (ph == STONES_PH_MOVE && st->step_pair >= 0)) {
            return GAME_OK;
        }
        if (ph != STONES_PH_CAST && ph != STONES_PH_PAY && ph != STONES_PH_MOVE) {
            return wrong_phase(st, "cancelling a choice", err);
        }
        return game_error_set(err, GAME_E_ILLEGAL,
                              "R-stones-4.2: nothing is being chosen, so there is nothing to "
                              "cancel");
    default:
        return game_error_set(err, GAME_E_ILLEGAL, "R-stones-4.1: unknown action");
    }
}

/* ---- Execution ---- */

static void spin(struct stones_state *st, int t, int ccw)
{
    int8_t *s = st->slot[t];
    int8_t o[4] = {s[0], s[1], s[2], s[3]};
    if (!ccw) {
        s[0] = o[2];
        s[1] = o[0];
        s[2] = o[3];
        s[3] = o[1];
    } else {
        s[0] = o[1];
        s[1] = o[3];
        s[2] = o[0];
        s[3] = o[2];
    }
}

static void do_cast(struct stones_state *st, const struct stones_action *a)
{
    int p = st->cur;
    struct stones_player *pl = &st->pl[p];
    int i = row_index(pl, a->card);
    st->sel_card = -1;
    st->sel_first = -1;
    for (int k = i; k + 1 < pl->row_n; k++) {
        pl->row[k] = pl->row[k + 1];
    }
    pl->row_n--;
    pl->row[pl->row_n] = -1;
    if (st->variant == STONES_COOP) {
        pl->removed_n++;
    } else {
        pl->discard[pl->discard_n++] = (int8_t)a->card;
    }
    st->casts++;
    const char *who = stones__pname(st, p);
    int card = a->card;
    if (card <= STONES_SPIN2) {
        spin(st, a->tile, a->dir);
        stones__log(st, "cast_spin", "%s cast SPIN on %s %s.", who, stones_tile_name[a->tile],
                    a->dir ? "counter-clockwise" : "clockwise");
    } else if (card <= STONES_FLY2) {
        pl->taoist = (int8_t)a->tile;
        stones__log(st, "cast_fly", "%s cast FLY to %s.", who, stones_tile_name[a->tile]);
    } else if (card <= STONES_QUAKE2) {
        if (a->quake == STONES_QUAKE_SWAP) {
            int8_t r = st->tile_r[a->tile];
            int8_t c = st->tile_c[a->tile];
            st->tile_r[a->tile] = st->tile_r[a->tile2];
            st->tile_c[a->tile] = st->tile_c[a->tile2];
            st->tile_r[a->tile2] = r;
            st->tile_c[a->tile2] = c;
            stones__log(st, "cast_quake_swap", "%s cast QUAKE swapping %s and %s.", who,
                        stones_tile_name[a->tile], stones_tile_name[a->tile2]);
        } else {
            st->tile_r[a->tile] = (int8_t)a->to_r;
            st->tile_c[a->tile] = (int8_t)a->to_c;
            stones__log(st, "cast_quake_move", "%s cast QUAKE moving %s to (%d,%d).", who,
                        stones_tile_name[a->tile], a->to_r, a->to_c);
        }
        canonicalise(st);
    } else {
        int ta = a->slot_a / 4;
        int sa = a->slot_a % 4;
        int tb = a->slot_b / 4;
        int sb = a->slot_b % 4;
        int8_t tmp = st->slot[ta][sa];
        st->slot[ta][sa] = st->slot[tb][sb];
        st->slot[tb][sb] = tmp;
        stones__log(st, "cast_shift", "%s cast %s exchanging %s.%s and %s.%s.", who,
                    stones_card_name[card], stones_tile_name[ta], stones_slot_name[sa],
                    stones_tile_name[tb], stones_slot_name[sb]);
    }
    /* R-stones-4.2: after two casts, or when nothing else can be cast,
     * step 1 ends by itself. */
    if (st->casts >= 2 || !has_decision(st)) {
        end_cast(st);
    }
}

static void do_step(struct stones_state *st, const struct stones_action *a)
{
    struct stones_player *pl = &st->pl[st->cur];
    int col = stones_emap[a->to_r][a->to_c];
    if (a->type == STONES_A_PAY_STEP) {
        st->o6_used = 1;
        if (a->npair == 2) {
            pl->held[a->pair[0]]--;
            supply_push(st, a->pair[0]);
            pl->held[a->pair[1]]--;
            supply_push(st, a->pair[1]);
        } else {
            pl->held[col]--;
            supply_push(st, col);
        }
    } else if (st->batch == STONES_BATCH_STEP4) {
        st->free_steps--;
    } else {
        st->grant[col]--;
    }
    pl->spirit_r = (int8_t)a->to_r;
    pl->spirit_c = (int8_t)a->to_c;
    st->batch_steps++;
    if (a->type == STONES_A_PAY_STEP) {
        stones__log(st, "spirit_paid_step", "%s moved the Spirit to e(%d,%d) (paid step).",
                    stones__pname(st, st->cur), a->to_r, a->to_c);
    } else {
        stones__log(st, "spirit_step", "%s moved the Spirit to e(%d,%d).",
                    stones__pname(st, st->cur), a->to_r, a->to_c);
    }
}

static void execute(struct stones_state *st, const struct stones_action *a)
{
    int p = st->cur;
    struct stones_player *pl = &st->pl[p];
    switch (a->type) {
    case STONES_A_PLACE:
        pl->taoist = (int8_t)a->tile;
        stones__log(st, "placed_taoist", "%s placed the Taoist on %s.", stones__pname(st, p),
                    stones_tile_name[a->tile]);
        st->place_idx++;
        if (st->place_idx >= st->np) {
            st->cur = st->start;
            stones__begin_turn(st);
        } else {
            st->cur = (int8_t)(((st->start - 1 - st->place_idx) % st->np + st->np) % st->np);
        }
        break;
    case STONES_A_CAST:
        if (a->part == STONES_PART_WHOLE) {
            do_cast(st, a);
        } else {
            /* R-stones-4.2: a step of the cast, kept in the state; no log line. */
            st->sel_card = (int8_t)a->card;
            st->sel_first = -1;
            if (a->part == STONES_PART_SECOND) {
                st->sel_first = (int8_t)(a->card <= STONES_QUAKE2 ? a->tile : a->slot_a);
            }
        }
        break;
    case STONES_A_CANCEL:
        /* R-stones-4.2, 4.6, 1.5: back to the position before the first step. */
        st->sel_card = -1;
        st->sel_first = -1;
        st->pay_for = -1;
        st->step_pair = -1;
        break;
    case STONES_A_END_CAST:
        end_cast(st);
        break;
    case STONES_A_DISCARD: {
        int i = row_index(pl, a->card);
        for (int k = i; k + 1 < pl->row_n; k++) {
            pl->row[k] = pl->row[k + 1];
        }
        pl->row_n--;
        pl->row[pl->row_n] = -1;
        if (st->variant == STONES_COOP) {
            pl->removed_n++;
        } else {
            pl->discard[pl->discard_n++] = (int8_t)a->card;
        }
        stones__log(st, "dead_hand_discard", "%s discarded %s (no card could be cast).",
                    stones__pname(st, p), stones_card_name[a->card]);
        end_cast(st);
        break;
    }
    case STONES_A_CHOOSE:
        st->group_pick[st->group_cur] = (int8_t)(a->slot_a % 4);
        for (int g = st->group_cur + 1; g < st->ngroups; g++) {
            if (st->group_pick[g] < 0) {
                st->group_cur = (int8_t)g;
                return;
            }
        }
        finish_activation(st);
        break;
    case STONES_A_OFFER:
        offer_one(st, a->colour);
        offer_flow(st);
        break;
    case STONES_A_STEP:
    case STONES_A_PAY_STEP:
        if (a->part == STONES_PART_FIRST) {
            /* R-stones-1.5: the stones of an O7 paid step, its cell to come;
             * no log line. */
            st->step_pair = (int8_t)(a->pair[0] * STONES_NCOL + a->pair[1]);
            break;
        }
        st->step_pair = -1;
        do_step(st, a);
        if (!has_decision(st)) {
            end_batch(st);
        }
        break;
    case STONES_A_TAKE_RUNE:
        take_rune(st);
        end_batch(st);
        break;
    case STONES_A_END_MOVE:
        end_batch(st);
        break;
    case STONES_A_CRAFT:
        st->pay_art = (int8_t)a->artifact;
        art_owed(a->artifact, st->owed);
        st->phase = STONES_PH_PAY;
        break;
    case STONES_A_END_TURN:
        end_turn(st);
        break;
    case STONES_A_PAY:
    case STONES_A_PAY_PAIR: {
        if (a->part == STONES_PART_FIRST) {
            /* R-stones-4.6: the colour of a pair, its stones to come; no log line. */
            st->pay_for = (int8_t)a->colour;
            break;
        }
        st->pay_for = -1;
        st->owed[a->colour]--;
        if (a->type == STONES_A_PAY) {
            pl->held[a->colour]--;
            supply_push(st, a->colour);
        } else {
            pl->held[a->pair[0]]--;
            supply_push(st, a->pair[0]);
            pl->held[a->pair[1]]--;
            supply_push(st, a->pair[1]);
        }
        int left = 0;
        for (int c = 0; c < STONES_NCOL; c++) {
            left += st->owed[c];
        }
        if (left == 0) {
            craft_done(st);
        }
        break;
    }
    case STONES_A_REWARD_STEP:
        pl->spirit_r = (int8_t)a->to_r;
        pl->spirit_c = (int8_t)a->to_c;
        stones__log(st, "o5_step", "%s took the O5 free step to e(%d,%d).", stones__pname(st, p),
                    a->to_r, a->to_c);
        st->phase = STONES_PH_MOVE;
        st->batch = STONES_BATCH_O5;
        st->batch_steps = 1;
        if (!has_decision(st)) {
            end_batch(st);
        }
        break;
    case STONES_A_REWARD_FLY:
        pl->taoist = (int8_t)a->tile;
        stones__log(st, "o5_fly", "%s used the O5 reward to fly to %s.", stones__pname(st, p),
                    stones_tile_name[a->tile]);
        end_turn(st);
        break;
    case STONES_A_REWARD_SKIP:
        end_turn(st);
        break;
    default:
        break;
    }
}

/*
 * Checks that `seat` may act now (R-stones-6.1, R-stones-4). Returns GAME_OK,
 * or GAME_E_OVER or GAME_E_NOT_TURN with a message in err.
 */
int stones__may_act(const struct stones_state *st, int seat, struct game_error *err)
{
    if (st->phase == STONES_PH_OVER) {
        return game_error_set(err, GAME_E_OVER, "R-stones-6.1: the game is over");
    }
    int cs = stones__current_seat(st);
    if (seat != cs) {
        return game_error_set(err, GAME_E_NOT_TURN, "R-stones-4: it is %s's turn, not yours",
                              st->names[cs]);
    }
    return GAME_OK;
}

/*
 * Validates `a` for `seat` and applies it with every automatic step that
 * follows (R-stones-4.1). Returns GAME_OK, GAME_E_OVER, GAME_E_NOT_TURN or
 * GAME_E_ILLEGAL (message in err). Every check runs before the first change,
 * so on a refusal `st` is unchanged.
 */
int stones__apply(struct stones_state *st, int seat, const struct stones_action *a,
                  struct game_error *err)
{
    int rc = stones__may_act(st, seat, err);
    if (rc == GAME_OK) {
        rc = stones__validate(st, a, err);
    }
    if (rc == GAME_OK) {
        execute(st, a);
    }
    return rc;
}

/*
 * Kept for callers that change a position directly (tests): runs the
 * automatic advance of the current phase when it has nothing to decide.
 */
void stones__advance(struct stones_state *st)
{
    if (st->phase == STONES_PH_OVER || has_decision(st)) {
        return;
    }
    switch (st->phase) {
    case STONES_PH_CAST:
        if (st->casts > 0) {
            end_cast(st);
        }
        break;
    case STONES_PH_MOVE:
        end_batch(st);
        break;
    case STONES_PH_CRAFT:
        end_turn(st);
        break;
    default:
        break;
    }
}

/* ---- Scoring (R-stones-6.2) ---- */

/*
 * Scores player `p`: parts[0] runes, [1] artifacts, [2] Qi with excess,
 * [3] symbol bonus, [4] stone bonus, [5] artifacts crafted (count). Returns
 * the total of parts 0-4 (standard game scoring).
 */
int stones__score(const struct stones_state *st, int p, int parts[6])
{
    const struct stones_player *pl = &st->pl[p];
    memset(parts, 0, 6 * sizeof(int));
    for (int t = 0; t < STONES_NCOL; t++) {
        parts[0] += pl->rune_val[t];
        if (pl->rune_owned[t]) {
            parts[4] += pl->held[t];
        }
    }
    for (int i = 0; i < pl->ncrafted; i++) {
        const struct stones_artifact *A = &stones_artifacts[pl->crafted[i]];
        parts[1] += A->points;
        for (int k = 0; k < A->nsym; k++) {
            if (pl->rune_owned[A->symbols[k]]) {
                parts[3]++;
            }
        }
    }
    parts[2] = pl->qi + pl->excess;
    parts[5] = pl->ncrafted;
    return parts[0] + parts[1] + parts[2] + parts[3] + parts[4];
}

/*
 * The winners of a finished game as a mask of seats (bit n = seat n):
 * R-stones-6.2 the best score (ties share), 7.1 the most artifacts
 * crafted, 7.2 every seat when the team earned a title, none without one;
 * R-stones-6.3 after a forfeit every other seat, none in co-op. 0 while
 * the game runs.
 */
unsigned stones__winners(const struct stones_state *st)
{
    unsigned all = (1u << st->nseats) - 1;
    if (st->phase != STONES_PH_OVER) {
        return 0;
    }
    if (st->variant == STONES_COOP) {
        return st->forfeit < 0 && st->coop_done_n >= 6 ? all : 0;
    }
    if (st->forfeit >= 0) {
        return all & ~(1u << st->forfeit);
    }
    int score[STONES_MAX_PLAYERS];
    int best = -1;
    for (int p = 0; p < st->np; p++) {
        int parts[6];
        int total = stones__score(st, p, parts);
        score[p] = st->variant == STONES_NOVICE ? parts[5] : total;
        best = score[p] > best ? score[p] : best;
    }
    unsigned mask = 0;
    for (int p = 0; p < st->np; p++) {
        if (score[p] == best) {
            mask |= 1u << st->pl[p].seat;
        }
    }
    return mask;
}
