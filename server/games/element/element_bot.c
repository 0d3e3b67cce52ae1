/* SPDX-License-Identifier: MIT */
/*
 * element_bot.c - what the bots of Element search with (struct game_bot,
 * game.h): the redraw of what no seat may see, which is only the
 * generator of the future draws (the bag and the hands are public counts),
 * a playout policy that closes in on the hunted Sage, and the worth of a
 * position read from how free each Sage is. Section ids refer to
 * docs/rules/element.md, whose section 11 describes this file. Pure: it
 * changes only the state it is handed and draws only from the generator it
 * is handed; it reads the legal list (JSON) but builds none.
 */
#include <string.h>

#include "element.h"

/* ---- Geometry ---- */

static const int8_t DC[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int8_t DR[8] = {1, 1, 0, -1, -1, -1, 0, 1};

/* The neighbour of `sq` in direction d, or -1 off the board. */
static int neighbour(int sq, int d)
{
    int col = sq % ELEMENT_SIDE + DC[d];
    int row = sq / ELEMENT_SIDE + DR[d];
    if (col < 0 || col >= ELEMENT_SIDE || row < 0 || row >= ELEMENT_SIDE) {
        return -1;
    }
    return row * ELEMENT_SIDE + col;
}

/* Chebyshev distance: 1 for the eight neighbours. */
static int distance(int a, int b)
{
    int dc = a % ELEMENT_SIDE - b % ELEMENT_SIDE;
    int dr = a / ELEMENT_SIDE - b / ELEMENT_SIDE;
    dc = dc < 0 ? -dc : dc;
    dr = dr < 0 ? -dr : dr;
    return dc > dr ? dc : dr;
}

/* The empty neighbours of `sq` (no stone, no Sage; `vacated`, a square a
 * Sage is leaving, counts as empty): a cheap measure of how free a Sage
 * standing there is, 0 to 8 (R-element-6.4 asks for one step or jump). */
static int freedom(const struct element_core *c, int sq, int vacated)
{
    int n = 0;
    for (int d = 0; d < 8; d++) {
        int to = neighbour(sq, d);
        if (to < 0) {
            continue;
        }
        if (to == vacated || (c->kind[to] == ELEMENT_K_EMPTY && element__sage_on(c, to) < 0)) {
            n++;
        }
    }
    return n;
}

/* ---- Redrawing what no seat sees ---- */

/*
 * R-element-4.2, 8.4: the bag is a public count per type and drawn stones
 * are public, so the one hidden thing is the generator that picks the next
 * draws; it is reseeded from `rng`. Outside a placement's follow-ups the
 * placement scratch (river, squares entered, New Growth left) is unused
 * and is cleared, so that it carries nothing of earlier turns. The same
 * for every seat.
 */
static void bot_determinize(void *state, int seat, struct game_rng *rng)
{
    struct element_core *c = &((struct element_state *)state)->c;
    (void)seat;

    for (int i = 0; i < 4; i++) {
        c->rng.s[i] = game_rng_next(rng);
    }
    if ((c->rng.s[0] | c->rng.s[1] | c->rng.s[2] | c->rng.s[3]) == 0) {
        c->rng.s[0] = 1;
    }
    if (c->phase == ELEMENT_PH_DRAW || c->phase == ELEMENT_PH_ACT || c->phase == ELEMENT_PH_OVER) {
        c->p_stone = 0;
        c->p_at = 0;
        c->r_n = 0;
        c->r_moved = 0;
        memset(c->river, 0, sizeof(c->river));
        memset(c->entered, 0, sizeof(c->entered));
        memset(c->old, 0, sizeof(c->old));
        c->grow_left = 0;
    }
}

/* ---- Playout policy ---- */

/* How much a playout likes `a` for `seat`: a stone (or New Growth Wood) on
 * an empty square next to the hunted Sage most, next to its own Sage
 * least; a step or jump by what it gains in freedom, less one, so that a
 * Sage does not wander. A pick (R-element-4.6) scores what its placement
 * may: next to the hunted Sage while it has a free neighbour; a pick that
 * changes the picked stone scores below every placement. */
static int score(const struct element_core *c, int seat, const struct element_action *a)
{
    int own = c->sage[seat];
    int target = c->sage[element__target(c, seat)];

    switch (a->type) {
    case ELEMENT_A_PICK:
        if (c->pick > 0) {
            return -5;
        }
        return freedom(c, target, -1) > 0 ? 5 : 0;
    case ELEMENT_A_PLACE:
    case ELEMENT_A_GROW: {
        bool empty = c->kind[a->sq] == ELEMENT_K_EMPTY;
        int dt = distance(a->sq, target);
        int s = dt == 1 ? (empty ? 6 : 1) : dt == 2 ? 2 : 0;
        if (distance(a->sq, own) == 1 && empty) {
            s -= 4;
        }
        return s;
    }
    case ELEMENT_A_STEP:
    case ELEMENT_A_JUMP:
        return freedom(c, a->sq, own) - freedom(c, own, -1) - 1;
    default:
        return 0;
    }
}

/* Actions a playout weighs in the act and grow phases, drawn at random
 * from the list (which may hold a hundred placements of the picked stone,
 * or of New Growth). */
#define SAMPLE 12

/*
 * Draw: a Sage with two free neighbours or fewer draws 0 to 2 stones and
 * keeps its steps; else 2 to 4. Act and grow: one time in five a uniform
 * pick, else the best of SAMPLE actions drawn from the list (all of them
 * when it is short), ties broken at random. The follow-ups of a river,
 * magnet, Lightning or corrosion: uniform.
 */
static size_t bot_playout(const void *state, int seat, const json_t *legal, struct game_rng *rng)
{
    const struct element_core *c = &((const struct element_state *)state)->c;
    size_t n = json_array_size(legal);

    if (n <= 1) {
        return 0;
    }
    if (c->phase == ELEMENT_PH_DRAW) {
        /* The list is draw 0 .. n - 1, in order (R-element-4.6). */
        if (freedom(c, c->sage[seat], -1) <= 2) {
            return game_rng_below(rng, n < 3 ? (uint32_t)n : 3u);
        }
        size_t low = n > 3 ? n - 3 : 0;
        return low + game_rng_below(rng, (uint32_t)(n - low));
    }
    if ((c->phase != ELEMENT_PH_ACT && c->phase != ELEMENT_PH_GROW) ||
        game_rng_below(rng, 5) == 0) {
        return game_rng_below(rng, (uint32_t)n);
    }
    bool all = n <= SAMPLE;
    size_t pick = 0;
    int best = -1000;
    uint32_t ties = 0;
    for (size_t k = 0; k < (all ? n : SAMPLE); k++) {
        size_t i = all ? k : game_rng_below(rng, (uint32_t)n);
        struct element_action a;
        struct game_error err;
        if (element_action_decode(json_array_get(legal, i), &a, &err) != GAME_OK) {
            continue;
        }
        int s = score(c, seat, &a);
        if (s > best) {
            best = s;
            pick = i;
            ties = 1;
        } else if (s == best && game_rng_below(rng, ++ties) == 0) {
            pick = i;
        }
    }
    return pick;
}

/* ---- Value ---- */

/* exp(-f / 2) for a Sage with f free neighbours: the weight of the chance
 * that it is the next to be surrounded. */
static const double danger[9] = {
    1.0, 0.606531, 0.367879, 0.223130, 0.135335, 0.082085, 0.049787, 0.030197, 0.018316,
};

/* The weight of the chance that nobody is surrounded before the bag or the
 * round limit ends the game. */
#define DRAW_WEIGHT 0.05

/*
 * Over: 1 to the winner and 0 to the others; a game without a winner
 * (bag_empty, round_limit) gives every seat 1/nseats, as a draw; a forfeit
 * shares 1 among the other seats. Before:
 * each Sage is surrounded next with a chance that grows as its free
 * neighbours go, and its hunter wins then; a seat is worth the chance of
 * its hunted Sage plus its share of the chance of a draw. The values sum
 * to 1.
 */
static void bot_value(const void *state, double ret[GAME_MAX_SEATS])
{
    const struct element_core *c = &((const struct element_state *)state)->c;
    int ns = c->nseats;

    for (int s = 0; s < GAME_MAX_SEATS; s++) {
        ret[s] = 0.0;
    }
    if (c->phase == ELEMENT_PH_OVER) {
        for (int s = 0; s < ns; s++) {
            if (c->forfeit >= 0) {
                ret[s] = s == c->forfeit ? 0.0 : 1.0 / (ns - 1);
            } else {
                ret[s] = c->winner < 0 ? 1.0 / ns : (s == c->winner ? 1.0 : 0.0);
            }
        }
        return;
    }
    double w[ELEMENT_MAX_SEATS];
    double total = DRAW_WEIGHT;
    for (int s = 0; s < ns; s++) {
        w[s] = danger[freedom(c, c->sage[s], -1)];
        total += w[s];
    }
    for (int s = 0; s < ns; s++) {
        ret[s] = (w[element__target(c, s)] + DRAW_WEIGHT / ns) / total;
    }
}

/* Listing the legal actions costs up to tens of microseconds in the act
 * phase (every placement of the picked stone is judged for self-capture,
 * R-element-4.5), so a playout is a few actions, about one turn (a draw
 * and two placements, each a pick and a place, R-element-4.6), and the
 * freedom of the Sages values it. */
const struct game_bot element_bot = {
    .determinize = bot_determinize,
    .playout = bot_playout,
    .value = bot_value,
    .playout_depth = 6,
};
