/* SPDX-License-Identifier: MIT */
/*
 * stones_state.c - the static data of Sorcerer & Stones (artifacts, Element
 * Zone map, names), the seat and colour checks of decoded options, the log
 * ring and the seeded setup of a new game (R-stones-3). It owns the order in
 * which setup draws from the generator (R-stones-3.2) and must never read
 * anything but its arguments: no JSON, no I/O, no clock, no global mutable
 * state.
 */
#include "stones.h"

#include "json_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Static data ---- */

/* R-stones-1.4: the 14 artifact cards (ordered costs, points, symbols). */
const struct stones_artifact stones_artifacts[STONES_NART] = {
    {"A01", "Nu Wa Rock", {STONES_N, STONES_Y, STONES_Y, 0, 0}, 3, 2, {STONES_N, -1}, 1},
    {"A02", "Wind-Fire Wheels", {STONES_R, STONES_R, STONES_G, 0, 0}, 3, 2, {STONES_R, -1}, 1},
    {"A03", "Sea-Calming Needle", {STONES_B, STONES_B, STONES_Y, 0, 0}, 3, 2, {STONES_B, -1}, 1},
    {"A04", "Purple-Gold Gourd", {STONES_G, STONES_G, STONES_B, 0, 0}, 3, 2, {STONES_G, -1}, 1},
    {"A05", "Qiankun Ring", {STONES_N, STONES_N, STONES_R, 0, 0}, 3, 2, {STONES_Y, -1}, 1},
    {"A06",
     "Fuxi Harp",
     {STONES_B, STONES_G, STONES_R, STONES_Y, 0},
     4,
     3,
     {STONES_G, STONES_B},
     2},
    {"A07",
     "Shennong Cauldron",
     {STONES_G, STONES_R, STONES_N, STONES_B, 0},
     4,
     3,
     {STONES_G, STONES_R},
     2},
    {"A08",
     "Kunlun Mirror",
     {STONES_Y, STONES_B, STONES_N, STONES_G, 0},
     4,
     3,
     {STONES_Y, STONES_B},
     2},
    {"A09",
     "Haotian Pagoda",
     {STONES_N, STONES_Y, STONES_R, STONES_B, 0},
     4,
     3,
     {STONES_N, STONES_Y},
     2},
    {"A10",
     "Kongtong Seal",
     {STONES_R, STONES_G, STONES_Y, STONES_N, 0},
     4,
     3,
     {STONES_N, STONES_R},
     2},
    {"A11",
     "Pangu Axe",
     {STONES_N, STONES_N, STONES_Y, STONES_Y, STONES_R},
     5,
     5,
     {STONES_N, STONES_G},
     2},
    {"A12",
     "Xuanyuan Sword",
     {STONES_Y, STONES_Y, STONES_R, STONES_R, STONES_B},
     5,
     5,
     {STONES_Y, STONES_R},
     2},
    {"A13",
     "Donghuang Bell",
     {STONES_B, STONES_B, STONES_G, STONES_G, STONES_N},
     5,
     5,
     {STONES_B, STONES_Y},
     2},
    {"A14",
     "Demon-Refining Pot",
     {STONES_G, STONES_G, STONES_N, STONES_R, STONES_B},
     5,
     5,
     {STONES_B, STONES_G},
     2},
};

#define W (10 + STONES_G)
#define F (10 + STONES_R)
#define M (10 + STONES_Y)
#define A (10 + STONES_B)
#define E (10 + STONES_N)
/* R-stones-2.8: the Element Zone; sites are 10 + the element's colour. */
const int8_t stones_emap[STONES_EMAP][STONES_EMAP] = {
    {W, STONES_G, STONES_R, STONES_G, STONES_R, F},
    {STONES_G, STONES_Y, STONES_N, STONES_N, STONES_B, STONES_R},
    {STONES_B, STONES_N, E, E, STONES_N, STONES_Y},
    {STONES_G, STONES_N, E, E, STONES_N, STONES_R},
    {STONES_B, STONES_R, STONES_N, STONES_N, STONES_G, STONES_Y},
    {A, STONES_B, STONES_Y, STONES_B, STONES_Y, M},
};
#undef W
#undef F
#undef M
#undef A
#undef E

const char *const stones_colour_letter[STONES_NCOL] = {"Y", "G", "B", "R", "N"};
const char *const stones_colour_name[STONES_NCOL] = {"yellow", "green", "blue", "red", "brown"};
const char *const stones_element_name[STONES_NCOL] = {"Metal", "Wood", "Water", "Fire", "Earth"};
const char *const stones_tile_name[STONES_NTILES] = {"Tn", "Tw", "Tc", "Te", "Ts"};
const char *const stones_slot_name[STONES_NSLOTS] = {"TL", "TR", "BL", "BR"};
const char *const stones_card_name[STONES_NCARDS] = {
    "SPIN-1",  "SPIN-2",  "FLY-1",   "FLY-2",   "QUAKE-1", "QUAKE-2",
    "SHIFT-Y", "SHIFT-G", "SHIFT-B", "SHIFT-R", "SHIFT-N",
};
const char *const stones_phase_name[] = {
    "place_taoist", "cast", "choose_stone", "offer", "move", "craft", "pay", "reward", "over",
};
const char *const stones_end_name[] = {
    "none", "runes", "artifacts", "qi", "frozen", "novice", "cards", "forfeit",
};

/* R-stones-3 step 4: seat i plays the i-th of Red, Green, Blue, Yellow. */
static const int8_t player_colour[STONES_MAX_PLAYERS] = {STONES_R, STONES_G, STONES_B, STONES_Y};
/* R-stones-2.8: Spirit home cells by colour (Y G B R; brown has none). */
static const int8_t home_r[STONES_NCOL] = {4, 1, 4, 1, -1};
static const int8_t home_c[STONES_NCOL] = {4, 1, 1, 4, -1};
/* R-stones-2.2: the starting cross. */
static const int8_t cross_r[STONES_NTILES] = {0, 1, 1, 1, 2};
static const int8_t cross_c[STONES_NTILES] = {1, 0, 1, 2, 1};

/* ---- Seats and colours ---- */

/*
 * Checks the decoded options `variant` and `colours` (-1 when not given)
 * against `nseats` seats (R-stones-7.2, R-stones-8). On success writes the
 * number of colours in play to *ret_colours and returns GAME_OK; otherwise
 * returns GAME_E_BAD_OPTION with a message in err.
 */
int stones__check_setup(int variant, int colours, int nseats, int *ret_colours,
                        struct game_error *err)
{
    if (variant == STONES_COOP) {
        if (nseats < 1 || nseats > 4) {
            return game_error_set(err, GAME_E_BAD_OPTION,
                                  "R-stones-7.2: the cooperative game takes 1 to 4 seats");
        }
        if (colours < 0) {
            colours = 4;
        }
        if (colours < nseats) {
            return game_error_set(err, GAME_E_BAD_OPTION,
                                  "R-stones-7.2: colours must be at least the number of seats "
                                  "(%d)",
                                  nseats);
        }
    } else {
        if (nseats < 2 || nseats > 4) {
            return game_error_set(err, GAME_E_BAD_OPTION,
                                  "R-stones-8: the %s game takes 2 to 4 seats",
                                  variant == STONES_NOVICE ? "novice" : "standard");
        }
        if (colours >= 0) {
            return game_error_set(err, GAME_E_BAD_OPTION,
                                  "R-stones-7.2: option colours applies only to the cooperative "
                                  "variant");
        }
        colours = nseats;
    }
    *ret_colours = colours;
    return GAME_OK;
}

/* ---- Log ---- */

/*
 * Appends one line to the state's log ring (the last STONES_LOG_N lines),
 * truncating it to STONES_LOG_LEN - 1 bytes, and at the same index of
 * log_msg its message: `key` (lang/stones.json) and the arguments of `fmt`
 * (empty when they do not fit). Never fails.
 */
void stones__log(struct stones_state *st, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    game_format_msg(st->log[st->log_head], STONES_LOG_LEN, st->log_msg[st->log_head],
                    STONES_LOG_LEN, key, fmt, ap);
    va_end(ap);
    st->log_head = (int8_t)((st->log_head + 1) % STONES_LOG_N);
    st->log_seq++;
    if (st->log_n < STONES_LOG_N) {
        st->log_n++;
    }
}

/*
 * The display name of player `p` for the log: the name of the seat that
 * controls it (borrowed from st).
 */
const char *stones__pname(const struct stones_state *st, int p)
{
    return st->names[st->pl[p].seat];
}

/* ---- Setup ---- */

/* R-stones-3.1: the supply-line reference algorithm over counts `left`. */
static void build_supply(struct stones_state *st, int8_t left[STONES_NCOL])
{
    int n = 0;
    for (int c = 0; c < STONES_NCOL; c++) {
        n += left[c];
    }
    int prev = -1;
    st->supply_n = 0;
    while (n > 0) {
        int weight[STONES_NCOL] = {0};
        int total = 0;
        int rest = n - 1;
        for (int c = 0; c < STONES_NCOL; c++) {
            if (left[c] == 0 || c == prev) {
                continue;
            }
            int ok = (left[c] - 1) <= rest / 2;
            for (int o = 0; o < STONES_NCOL && ok; o++) {
                if (o != c && left[o] > (rest + 1) / 2) {
                    ok = 0;
                }
            }
            if (ok) {
                weight[c] = left[c];
                total += left[c];
            }
        }
        /* The counts always admit a candidate (R-stones-3 step 7); a zero
         * total cannot happen, but fall back to any other colour. */
        int pick = -1;
        if (total > 0) {
            uint32_t r = game_rng_below(&st->rng, (uint32_t)total);
            for (int c = 0; c < STONES_NCOL; c++) {
                if (r < (uint32_t)weight[c]) {
                    pick = c;
                    break;
                }
                r -= (uint32_t)weight[c];
            }
        } else {
            for (int c = 0; c < STONES_NCOL; c++) {
                if (left[c] > 0 && (c != prev || pick < 0)) {
                    pick = c;
                }
            }
        }
        st->supply[st->supply_n++] = (int8_t)pick;
        left[pick]--;
        prev = pick;
        n--;
    }
}

static void deal_magic(struct stones_state *st, struct stones_player *pl)
{
    for (int i = 0; i < STONES_NCARDS; i++) {
        pl->deck[i] = (int8_t)i;
    }
    game_rng_shuffle(&st->rng, pl->deck, STONES_NCARDS, 1);
    pl->deck_n = STONES_NCARDS;
    for (int i = 0; i < STONES_ROW; i++) {
        pl->row[i] = pl->deck[--pl->deck_n];
        pl->deck[pl->deck_n] = -1;
    }
    pl->row_n = STONES_ROW;
    for (int i = pl->deck_n; i < STONES_NCARDS; i++) {
        pl->deck[i] = -1;
    }
    for (int i = 0; i < STONES_NCARDS; i++) {
        pl->discard[i] = -1;
    }
}

/*
 * Builds the starting position of a new game into `st` (zeroed by the
 * caller): `variant`, `ncolours` colours in play, names and seed from
 * `setup`. Draws from the generator in the order of R-stones-3.2. Leaves
 * the game in the place_taoist phase.
 */
void stones__setup(struct stones_state *st, int variant, int ncolours,
                   const struct game_setup *setup)
{
    memset(st, 0, sizeof(*st));
    st->variant = (int8_t)variant;
    st->nseats = (int8_t)setup->nseats;
    st->np = (int8_t)ncolours;
    for (int s = 0; s < setup->nseats && s < STONES_MAX_PLAYERS; s++) {
        memcpy(st->names[s], setup->names[s], GAME_NAME_MAX);
        st->names[s][GAME_NAME_MAX - 1] = '\0';
    }
    game_rng_seed(&st->rng, setup->seed);
    st->pay_art = -1;
    st->sel_card = -1;
    st->forfeit = -1;
    st->forfeit_phase = -1;
    st->sel_first = -1;
    st->pay_for = -1;
    st->step_pair = -1;

    /* Start player (co-op: start colour). */
    st->start = (int8_t)game_rng_below(&st->rng, (uint32_t)st->np);
    st->cur = st->start;

    /* R-stones-3 step 2: artifacts. */
    for (int i = 0; i < STONES_NART; i++) {
        st->art_deck[i] = (int8_t)i;
        st->coop_done[i] = -1;
    }
    game_rng_shuffle(&st->rng, st->art_deck, STONES_NART, 1);
    for (int i = 0; i < STONES_ART_ROW; i++) {
        st->art_row[i] = st->art_deck[i];
    }
    st->art_row_n = STONES_ART_ROW;
    st->art_top = STONES_ART_ROW;

    /* R-stones-3 step 3: tiles and their stones. */
    int8_t left[STONES_NCOL] = {8, 8, 8, 8, 8};
    for (int t = 0; t < STONES_NTILES; t++) {
        st->tile_r[t] = cross_r[t];
        st->tile_c[t] = cross_c[t];
        int missing = (int)game_rng_below(&st->rng, STONES_NCOL);
        int8_t cols[4];
        int k = 0;
        for (int c = 0; c < STONES_NCOL; c++) {
            if (c != missing) {
                cols[k++] = (int8_t)c;
            }
        }
        game_rng_shuffle(&st->rng, cols, 4, 1);
        for (int s = 0; s < STONES_NSLOTS; s++) {
            st->slot[t][s] = cols[s];
            left[cols[s]]--;
        }
    }

    /* R-stones-3 step 7: supply line. */
    for (int i = 0; i < STONES_NSTONES; i++) {
        st->supply[i] = -1;
    }
    build_supply(st, left);

    /* R-stones-3 steps 4 and 6: players, magic decks. */
    for (int p = 0; p < STONES_MAX_PLAYERS; p++) {
        struct stones_player *pl = &st->pl[p];
        memset(pl, -1, sizeof(*pl));
        pl->row_n = pl->deck_n = pl->discard_n = pl->removed_n = pl->ncrafted = 0;
        pl->qi = pl->excess = 0;
        memset(pl->held, 0, sizeof(pl->held));
        memset(pl->rune_owned, 0, sizeof(pl->rune_owned));
        memset(pl->rune_val, 0, sizeof(pl->rune_val));
        if (p >= st->np) {
            continue;
        }
        pl->colour = player_colour[p];
        pl->seat = (int8_t)(p % st->nseats);
        deal_magic(st, pl);
        if (variant == STONES_STANDARD) {
            pl->rune_owned[pl->colour] = 1;
            pl->spirit_r = home_r[pl->colour];
            pl->spirit_c = home_c[pl->colour];
        }
    }

    if (variant == STONES_STANDARD) {
        /* R-stones-3 step 8: Qi by player count. */
        static const int16_t qi[5] = {0, 0, 30, 42, 56};
        st->qi_supply = st->qi_initial = qi[st->np];

        /* R-stones-3 step 9: runes, removal in the order Metal, Wood,
         * Water, Fire, Earth, which is the colour order Y G B R N. */
        for (int t = 0; t < STONES_NCOL; t++) {
            int n = t == STONES_N ? 4 : 3;
            int8_t vals[4] = {4, 3, 2, 1};
            int gone = (int)game_rng_below(&st->rng, (uint32_t)n);
            st->rune_removed[t] = vals[gone];
            int k = 0;
            for (int i = 0; i < n; i++) {
                if (i != gone) {
                    st->stack[t][k++] = vals[i];
                }
            }
            st->stack_n[t] = (int8_t)k;
            for (int i = k; i < 4; i++) {
                st->stack[t][i] = 0;
            }
        }

        /* R-stones-3 step 10: two objectives out of seven. */
        int8_t obj[7] = {1, 2, 3, 4, 5, 6, 7};
        game_rng_shuffle(&st->rng, obj, 7, 1);
        st->objectives = (int8_t)((1 << (obj[0] - 1)) | (1 << (obj[1] - 1)));
    }

    /* R-stones-3 step 5: Taoists are placed in reverse turn order. */
    st->phase = STONES_PH_PLACE;
    st->place_idx = 0;
    st->cur = (int8_t)((st->start + st->np - 1) % st->np);
    if (st->np > 1) {
        stones__log(st, "placing_order",
                    "Taoists are placed in reverse turn order: %s places first; %s takes the "
                    "first turn.",
                    stones__pname(st, st->cur), stones__pname(st, st->start));
    } else {
        stones__log(st, "game_begins", "The game begins; %s starts.", stones__pname(st, st->start));
    }
}
