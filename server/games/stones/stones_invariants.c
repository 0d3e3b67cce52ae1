/* SPDX-License-Identifier: MIT */
/*
 * stones_invariants.c - the conservation laws of R-stones-1.7 checked on a
 * state: 40 stones (8 per colour), 11 magic cards per colour, Qi, runes, 14
 * artifacts, tile layout, Taoists and Spirits, and the cast, O7 pair or
 * O7 paid step being chosen step by step (R-stones-4.2, 4.6, 1.5), and
 * the forfeit that ended a game (R-stones-6.3). Used
 * by test builds through game_ops.check_invariants; it only reads the
 * state.
 */
#include "stones.h"

#include <string.h>

static int fail(struct game_error *err, const char *what)
{
    game_error_set(err, GAME_E_ILLEGAL, "invariant broken: %s", what);
    return -1;
}

/* The phase whose laws hold: a game ended by a forfeit stays as it was at
 * the decision it ended (R-stones-6.3), e.g. a row short in step 1. */
static int laws_phase(const struct stones_state *st)
{
    return st->phase == STONES_PH_OVER && st->forfeit >= 0 ? st->forfeit_phase : st->phase;
}

/* R-stones-6.3: a forfeit names a seat and the phase it ended, or neither. */
static int check_forfeit(const struct stones_state *st, struct game_error *err)
{
    if (st->forfeit < 0) {
        return st->forfeit == -1 && st->forfeit_phase == -1 ? 0 : fail(err, "a stray forfeit");
    }
    if (st->forfeit >= st->nseats || st->phase != STONES_PH_OVER ||
        st->end_reason != STONES_END_FORFEIT || st->forfeit_phase < 0 ||
        st->forfeit_phase >= STONES_PH_OVER) {
        return fail(err, "R-stones-6.3: a forfeit ends the game at a decision");
    }
    return 0;
}

static int check_stones(const struct stones_state *st, struct game_error *err)
{
    int count[STONES_NCOL] = {0};
    for (int t = 0; t < STONES_NTILES; t++) {
        for (int s = 0; s < STONES_NSLOTS; s++) {
            int c = st->slot[t][s];
            if (c < -1 || c >= STONES_NCOL) {
                return fail(err, "a slot holds an unknown colour");
            }
            if (c >= 0) {
                count[c]++;
            }
        }
    }
    if (st->supply_n < 0 || st->supply_n > STONES_NSTONES) {
        return fail(err, "supply length out of range");
    }
    for (int i = 0; i < st->supply_n; i++) {
        if (st->supply[i] < 0 || st->supply[i] >= STONES_NCOL) {
            return fail(err, "the supply holds an unknown colour");
        }
        count[st->supply[i]]++;
    }
    for (int p = 0; p < st->np; p++) {
        for (int c = 0; c < STONES_NCOL; c++) {
            if (st->pl[p].held[c] < 0) {
                return fail(err, "a reservoir count is negative");
            }
            count[c] += st->pl[p].held[c];
        }
    }
    for (int c = 0; c < STONES_NCOL; c++) {
        count[c] += st->pending[c];
    }
    int art = stones__leftmost_artifact(st);
    if (st->coop_filled > 0) {
        if (art < 0 || st->coop_filled >= stones_artifacts[art].ncost) {
            return fail(err, "stones lie on a card that cannot hold them");
        }
        for (int i = 0; i < st->coop_filled; i++) {
            count[stones_artifacts[art].cost[i]]++;
        }
    }
    for (int c = 0; c < STONES_NCOL; c++) {
        if (count[c] != 8) {
            return fail(err, "R-stones-1.7: there must be 8 spirit stones of each colour");
        }
    }
    return 0;
}

static int check_cards(const struct stones_state *st, struct game_error *err)
{
    for (int p = 0; p < st->np; p++) {
        const struct stones_player *pl = &st->pl[p];
        int seen[STONES_NCARDS] = {0};
        if (pl->row_n < 0 || pl->row_n > STONES_ROW || pl->deck_n < 0 || pl->discard_n < 0 ||
            pl->deck_n > STONES_NCARDS || pl->discard_n > STONES_NCARDS) {
            return fail(err, "magic card counts out of range");
        }
        for (int i = 0; i < pl->row_n; i++) {
            seen[pl->row[i]]++;
        }
        for (int i = 0; i < pl->deck_n; i++) {
            seen[pl->deck[i]]++;
        }
        for (int i = 0; i < pl->discard_n; i++) {
            seen[pl->discard[i]]++;
        }
        int total = pl->row_n + pl->deck_n + pl->discard_n + pl->removed_n;
        if (total != STONES_NCARDS) {
            return fail(err, "R-stones-1.7: each colour has 11 magic cards");
        }
        if (st->variant != STONES_COOP) {
            for (int k = 0; k < STONES_NCARDS; k++) {
                if (seen[k] != 1) {
                    return fail(err, "R-stones-1.7: a magic card is missing or doubled");
                }
            }
            if (pl->removed_n != 0) {
                return fail(err, "cards left the game outside co-op");
            }
        } else if (pl->discard_n != 0) {
            return fail(err, "co-op has no discard pile");
        }
        int in_step1 = laws_phase(st) == STONES_PH_CAST && p == st->cur;
        int want = pl->row_n + pl->deck_n < STONES_ROW ? pl->row_n + pl->deck_n : STONES_ROW;
        if (!in_step1 && st->variant != STONES_COOP && pl->row_n != STONES_ROW) {
            return fail(err, "R-stones-1.7: the face-up row holds 4 cards outside step 1");
        }
        if (!in_step1 && st->variant == STONES_COOP && pl->row_n != want) {
            return fail(err, "R-stones-1.7: the co-op row holds min(4, cards left)");
        }
    }
    return 0;
}

static int check_runes_qi(const struct stones_state *st, struct game_error *err)
{
    if (st->variant != STONES_STANDARD) {
        return 0;
    }
    int qi = st->qi_supply;
    if (st->qi_supply < 0) {
        return fail(err, "the Qi supply is negative");
    }
    for (int p = 0; p < st->np; p++) {
        qi += st->pl[p].qi;
    }
    if (qi != st->qi_initial) {
        return fail(err, "R-stones-1.7: Qi supply plus players' Qi must stay constant");
    }
    for (int t = 0; t < STONES_NCOL; t++) {
        int seen[5] = {0};
        int n = t == STONES_N ? 4 : 3;
        for (int i = 0; i < st->stack_n[t]; i++) {
            if (i > 0 && st->stack[t][i] >= st->stack[t][i - 1]) {
                return fail(err, "R-stones-1.6: a rune stack is not in decreasing order");
            }
            if (st->stack[t][i] < 1 || st->stack[t][i] > 4) {
                return fail(err, "a rune value is out of range");
            }
            seen[st->stack[t][i]]++;
        }
        seen[st->rune_removed[t]]++;
        for (int p = 0; p < st->np; p++) {
            const struct stones_player *pl = &st->pl[p];
            if (t == pl->colour) {
                if (!pl->rune_owned[t] || pl->rune_val[t] != 0) {
                    return fail(err, "R-stones-1.7: the Starting Rune must be owned, worth 0");
                }
                continue;
            }
            if (pl->rune_owned[t]) {
                if (pl->rune_val[t] < 1 || pl->rune_val[t] > 4) {
                    return fail(err, "a taken rune has no value");
                }
                seen[pl->rune_val[t]]++;
            }
        }
        for (int v = 1; v <= 4; v++) {
            if (seen[v] != ((v >= 2 || n == 4) ? 1 : 0)) {
                return fail(err, "R-stones-1.7: each rune is in exactly one place");
            }
        }
    }
    return 0;
}

static int check_artifacts(const struct stones_state *st, struct game_error *err)
{
    int seen[STONES_NART] = {0};
    for (int i = 0; i < st->art_row_n; i++) {
        seen[st->art_row[i]]++;
    }
    for (int i = st->art_top; i < STONES_NART; i++) {
        seen[st->art_deck[i]]++;
    }
    for (int p = 0; p < st->np; p++) {
        for (int i = 0; i < st->pl[p].ncrafted; i++) {
            seen[st->pl[p].crafted[i]]++;
        }
    }
    for (int i = 0; i < st->coop_done_n; i++) {
        seen[st->coop_done[i]]++;
    }
    for (int k = 0; k < STONES_NART; k++) {
        if (seen[k] != 1) {
            return fail(err, "R-stones-1.7: each artifact is in exactly one place");
        }
    }
    if (st->art_row_n < STONES_ART_ROW && st->art_top < STONES_NART) {
        return fail(err, "R-stones-1.7: the artifact row is short while the deck has cards");
    }
    return 0;
}

static int check_layout(const struct stones_state *st, struct game_error *err)
{
    int mr = 99;
    int mc = 99;
    for (int t = 0; t < STONES_NTILES; t++) {
        mr = st->tile_r[t] < mr ? st->tile_r[t] : mr;
        mc = st->tile_c[t] < mc ? st->tile_c[t] : mc;
        if (st->tile_r[t] > 4 || st->tile_c[t] > 4) {
            return fail(err, "R-stones-2.1: a tile lies outside 0..4");
        }
        for (int u = 0; u < t; u++) {
            if (st->tile_r[t] == st->tile_r[u] && st->tile_c[t] == st->tile_c[u]) {
                return fail(err, "R-stones-1.7: two tiles share a position");
            }
        }
    }
    if (mr != 0 || mc != 0) {
        return fail(err, "R-stones-2.1: coordinates are not canonical");
    }
    int seen = 1;
    for (int round = 0; round < STONES_NTILES; round++) {
        for (int t = 0; t < STONES_NTILES; t++) {
            for (int u = 0; u < STONES_NTILES; u++) {
                int d = (st->tile_r[t] - st->tile_r[u]) * (st->tile_r[t] - st->tile_r[u]) +
                        (st->tile_c[t] - st->tile_c[u]) * (st->tile_c[t] - st->tile_c[u]);
                if (d == 1 && (seen & (1 << t))) {
                    seen |= 1 << u;
                }
            }
        }
    }
    if (seen != 31) {
        return fail(err, "R-stones-2.7: the tiles are not edge-connected");
    }
    for (int p = 0; p < st->np; p++) {
        const struct stones_player *pl = &st->pl[p];
        if (laws_phase(st) != STONES_PH_PLACE && (pl->taoist < 0 || pl->taoist >= STONES_NTILES)) {
            return fail(err, "R-stones-1.7: a Taoist is not on a tile");
        }
        if (st->variant != STONES_STANDARD) {
            continue;
        }
        if (pl->spirit_r < 0 || pl->spirit_r >= STONES_EMAP || pl->spirit_c < 0 ||
            pl->spirit_c >= STONES_EMAP || STONES_SITE(stones_emap[pl->spirit_r][pl->spirit_c])) {
            return fail(err, "R-stones-1.7: a Spirit is not on a symbol cell");
        }
        for (int q = 0; q < p; q++) {
            if (st->pl[q].spirit_r == pl->spirit_r && st->pl[q].spirit_c == pl->spirit_c) {
                return fail(err, "R-stones-1.7: two Spirits share a cell");
            }
        }
    }
    return 0;
}

/* R-stones-4.2: a cast chosen step by step is one the current player may
 * still make: in step 1, a face-up card with a target, and a first choice
 * only for QUAKE (a tile that can move) or SHIFT (a slot of its colour). */
static int check_chosen(const struct stones_state *st, struct game_error *err)
{
    int card = st->sel_card;
    int first = st->sel_first;
    if (card < 0) {
        return card == -1 && first == -1 ? 0 : fail(err, "a first choice without a card");
    }
    const struct stones_player *pl = &st->pl[st->cur];
    int in_row = 0;
    for (int i = 0; i < pl->row_n; i++) {
        in_row |= pl->row[i] == card;
    }
    if (st->phase != STONES_PH_CAST || st->casts >= 2 || card >= STONES_NCARDS || !in_row ||
        !stones__card_castable(st, card)) {
        return fail(err, "R-stones-4.2: the chosen card cannot be cast now");
    }
    if (first == -1) {
        return 0;
    }
    if (card == STONES_QUAKE1 || card == STONES_QUAKE2) {
        if (first < 0 || first >= STONES_NTILES || !stones__quake_movable(st, first)) {
            return fail(err, "R-stones-4.2: the chosen QUAKE tile cannot move");
        }
        return 0;
    }
    if (card < STONES_SHIFT0 || first < 0 || first >= 20 ||
        st->slot[first / 4][first % 4] != card - STONES_SHIFT0) {
        return fail(err, "R-stones-4.2: the first choice does not fit the chosen card");
    }
    return 0;
}

/* R-stones-4.6: an O7 pair paid step by step covers an outstanding colour. */
static int check_pay_for(const struct stones_state *st, struct game_error *err)
{
    int f = st->pay_for;
    if (f == -1) {
        return 0;
    }
    if (st->phase != STONES_PH_PAY || f < 0 || f >= STONES_NCOL || st->owed[f] < 1 ||
        !stones__has_obj(st, 7)) {
        return fail(err, "R-stones-4.6: the chosen pair pays for no outstanding colour");
    }
    return 0;
}

/* R-stones-1.5: an O7 paid step chosen step by step is one still allowed,
 * paid with two stones the player holds. */
static int check_step_pair(const struct stones_state *st, struct game_error *err)
{
    int k = st->step_pair;
    if (k == -1) {
        return 0;
    }
    const struct stones_player *pl = &st->pl[st->cur];
    int x = k / STONES_NCOL;
    int y = k % STONES_NCOL;
    if (k < 0 || k >= STONES_NCOL * STONES_NCOL || st->phase != STONES_PH_MOVE ||
        st->batch != STONES_BATCH_STEP3 || st->o6_used || !stones__has_obj(st, 6) ||
        !stones__has_obj(st, 7) || pl->held[x] < 1 + (x == y) || pl->held[y] < 1) {
        return fail(err, "R-stones-1.5: the chosen paid step is not one the player can make");
    }
    return 0;
}

/*
 * Checks every invariant of R-stones-1.7 on `state`. Returns 0, or -1 with
 * a description in err.
 */
int stones__check_invariants(const void *state, struct game_error *err)
{
    const struct stones_state *st = state;
    if (st->np < 1 || st->np > STONES_MAX_PLAYERS || st->cur < 0 || st->cur >= st->np) {
        return fail(err, "player counts out of range");
    }
    if (check_stones(st, err) || check_cards(st, err) || check_runes_qi(st, err) ||
        check_artifacts(st, err) || check_layout(st, err) || check_chosen(st, err) ||
        check_pay_for(st, err) || check_step_pair(st, err) || check_forfeit(st, err)) {
        return -1;
    }
    if (st->phase != STONES_PH_OVER && st->phase != STONES_PH_PLACE &&
        st->phase != STONES_PH_CAST && st->phase != STONES_PH_CHOOSE &&
        st->phase != STONES_PH_OFFER && st->phase != STONES_PH_MOVE &&
        st->phase != STONES_PH_CRAFT && st->phase != STONES_PH_PAY &&
        st->phase != STONES_PH_REWARD) {
        return fail(err, "unknown phase");
    }
    return 0;
}
