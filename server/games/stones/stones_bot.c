/* SPDX-License-Identifier: MIT */
/*
 * stones_bot.c - what the bots of Sorcerer & Stones search with (struct
 * game_bot, game.h): the redraw of everything no seat may see (section 12
 * of docs/rules/stones.md), a light playout policy over the listed actions
 * and the worth of a position to every seat. The game has no private
 * information of one seat, so the redraw is the same for every seat. Pure:
 * it changes only the state it is handed and draws only from the generator
 * it is handed; it reads the legal list (JSON) but builds none.
 */
#include <string.h>

#include "stones.h"

/* ---- Redrawing what no seat sees ---- */

/*
 * R-stones-3.3: a magic deck shows only its count. Its cards are those of
 * the colour neither face up nor in the discard pile; in co-op the cards
 * that left the game are counted but not named, so the deck is deck_n of
 * the cards not face up. They are taken in id order, shuffled and dealt.
 */
static void redraw_decks(struct stones_state *st, struct game_rng *rng)
{
    for (int p = 0; p < st->np; p++) {
        struct stones_player *pl = &st->pl[p];
        bool shown[STONES_NCARDS] = {false};
        for (int i = 0; i < pl->row_n; i++) {
            shown[pl->row[i]] = true;
        }
        for (int i = 0; i < pl->discard_n; i++) {
            shown[pl->discard[i]] = true;
        }
        int8_t pool[STONES_NCARDS];
        int n = 0;
        for (int card = 0; card < STONES_NCARDS; card++) {
            if (!shown[card]) {
                pool[n++] = (int8_t)card;
            }
        }
        if (n < pl->deck_n) {
            continue; /* not a position of the game */
        }
        game_rng_shuffle(rng, pool, (uint32_t)n, 1);
        for (int i = 0; i < STONES_NCARDS; i++) {
            pl->deck[i] = i < pl->deck_n ? pool[i] : -1;
        }
    }
}

/*
 * The artifact deck below its face-up top: every artifact not in the row,
 * not the top, not crafted and not completed, in id order, shuffled. The
 * slots before the top (cards drawn long ago) are cleared to -1.
 */
static void redraw_artifacts(struct stones_state *st, struct game_rng *rng)
{
    bool shown[STONES_NART] = {false};
    for (int i = 0; i < st->art_row_n; i++) {
        shown[st->art_row[i]] = true;
    }
    if (st->art_top < STONES_NART) {
        shown[st->art_deck[st->art_top]] = true;
    }
    for (int p = 0; p < st->np; p++) {
        for (int i = 0; i < st->pl[p].ncrafted; i++) {
            shown[st->pl[p].crafted[i]] = true;
        }
    }
    for (int i = 0; i < st->coop_done_n; i++) {
        shown[st->coop_done[i]] = true;
    }
    int8_t pool[STONES_NART];
    int n = 0;
    for (int a = 0; a < STONES_NART; a++) {
        if (!shown[a]) {
            pool[n++] = (int8_t)a;
        }
    }
    int first = st->art_top + 1;
    if (first > STONES_NART || n != STONES_NART - first) {
        return; /* not a position of the game */
    }
    for (int i = 0; i < st->art_top && i < STONES_NART; i++) {
        st->art_deck[i] = -1;
    }
    game_rng_shuffle(rng, pool, (uint32_t)n, 1);
    memcpy(&st->art_deck[first], pool, (size_t)n);
}

/*
 * R-stones-1.6: the removed rune of each type is never named, but it is
 * the one value of the type found neither in the public stack nor among
 * the runes the players took, so it is set from those. The Novice and
 * co-op games have no runes: zero.
 */
static void redraw_runes(struct stones_state *st)
{
    if (st->variant != STONES_STANDARD) {
        memset(st->rune_removed, 0, sizeof(st->rune_removed));
        return;
    }
    for (int t = 0; t < STONES_NCOL; t++) {
        bool seen[5] = {false};
        for (int i = 0; i < st->stack_n[t] && i < 4; i++) {
            if (st->stack[t][i] >= 1 && st->stack[t][i] <= 4) {
                seen[st->stack[t][i]] = true;
            }
        }
        for (int p = 0; p < st->np; p++) {
            int v = st->pl[p].rune_val[t];
            if (st->pl[p].rune_owned[t] && v >= 1 && v <= 4) {
                seen[v] = true;
            }
        }
        int lowest = t == STONES_N ? 1 : 2;
        for (int v = 4; v >= lowest; v--) {
            if (!seen[v]) {
                st->rune_removed[t] = (int8_t)v;
                break;
            }
        }
    }
}

/*
 * Redraws the hidden parts of `state` for `seat`: every magic deck's order
 * (and in co-op its cards), the artifact deck below its top, the removed
 * runes and the state's generator, from what the views show and draws of
 * `rng` alone. Every seat sees the same, so `seat` does not matter.
 */
static void bot_determinize(void *state, int seat, struct game_rng *rng)
{
    struct stones_state *st = state;
    (void)seat;

    redraw_decks(st, rng);
    redraw_artifacts(st, rng);
    redraw_runes(st);
    for (int i = 0; i < 4; i++) {
        st->rng.s[i] = game_rng_next(rng);
    }
    if ((st->rng.s[0] | st->rng.s[1] | st->rng.s[2] | st->rng.s[3]) == 0) {
        st->rng.s[0] = 1;
    }
}

/* ---- Playout policy ---- */

/* How much a playout likes an action type: what scores (a craft, a rune, a
 * reward) over what passes it up; `cancel` only undoes a choice, so a
 * playout never takes it while anything else is listed. */
static int type_weight(const char *type)
{
    static const struct {
        const char *type;
        int weight;
    } w[] = {
        {"craft", 4},    {"take_rune", 4}, {"reward_step", 2}, {"reward_fly", 1}, {"step", 1},
        {"cast", 1},     {"pay", 1},       {"pay_step", 0},    {"pay_pair", 0},   {"end_turn", 0},
        {"end_move", 0}, {"end_cast", 0},  {"reward_skip", 0}, {"cancel", -100},
    };
    if (!type) {
        return 0;
    }
    for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
        if (strcmp(type, w[i].type) == 0) {
            return w[i].weight;
        }
    }
    return 0;
}

/*
 * One time in four a uniform pick among the actions other than `cancel`;
 * else the best-liked type, ties broken at random.
 */
static size_t bot_playout(const void *state, int seat, const json_t *legal, struct game_rng *rng)
{
    (void)state;
    (void)seat;
    size_t n = json_array_size(legal);
    bool uniform = game_rng_below(rng, 4) == 0;
    size_t pick = 0;
    int best = -1000;
    uint32_t ties = 0;

    for (size_t i = 0; i < n; i++) {
        json_t *type = json_object_get(json_array_get(legal, i), "type");
        int w = type_weight(json_string_value(type));
        if (uniform && w > -100) {
            w = 0;
        }
        if (w > best) {
            best = w;
            pick = i;
            ties = 1;
        } else if (w == best && game_rng_below(rng, ++ties) == 0) {
            pick = i;
        }
    }
    return pick;
}

/* ---- Value ---- */

/* Co-op (R-stones-7.2): the title for `n` artifacts completed as a fraction
 * of the best (Apprentice 1/4 .. Master 1), and below a title a small share
 * that grows with n, so that a playout still prefers a nearer miss. Linear
 * between whole numbers, for the estimates. */
static double coop_grade(double n)
{
    if (n <= 5.0) {
        return n < 0.0 ? 0.0 : 0.04 * n;
    }
    if (n <= 6.0) {
        return 0.2 + 0.05 * (n - 5.0);
    }
    return n >= 9.0 ? 1.0 : 0.25 * (n - 5.0);
}

/* The estimate of the artifacts the team will complete: those done, the
 * share of the leftmost card filled, and the cards still to play at the
 * rate so far (with a prior of one card in six). */
static double coop_estimate(const struct stones_state *st)
{
    double done = st->coop_done_n;
    int art = stones__leftmost_artifact(st);
    if (art >= 0 && stones_artifacts[art].ncost > 0) {
        done += (double)st->coop_filled / stones_artifacts[art].ncost;
    }
    int left = 0;
    int used = 0;
    for (int p = 0; p < st->np; p++) {
        left += st->pl[p].row_n + st->pl[p].deck_n;
        used += st->pl[p].removed_n;
    }
    return done + left * (done + 0.5) / (used + 3.0);
}

/* A player's standing before the end: the score so far and a little for
 * each stone held, which pays for artifacts (standard); artifacts crafted
 * and a little for stones held (Novice). */
static double standing(const struct stones_state *st, int p)
{
    int parts[6];
    int total = stones__score(st, p, parts);
    int held = 0;
    for (int c = 0; c < STONES_NCOL; c++) {
        held += st->pl[p].held[c];
    }
    if (st->variant == STONES_NOVICE) {
        return parts[5] + 0.15 * (held < 6 ? held : 6);
    }
    return total + 0.25 * held;
}

/* A sigmoid from the reals onto (-1, 1), like tanh without libm. */
static double squash(double x)
{
    return x / (1.0 + (x < 0.0 ? -x : x));
}

/*
 * Over: 1/k to each of k players with the best score (Novice: artifacts
 * crafted), 0 to the others; after a forfeit 1/k to each of the k winners
 * (none in co-op); co-op: the title's grade for every seat.
 * Before: co-op grades the estimate; otherwise 0.5 + 0.5 squash(lead /
 * scale), the lead being over the best other player.
 */
static void bot_value(const void *state, double ret[GAME_MAX_SEATS])
{
    const struct stones_state *st = state;
    bool over = st->phase == STONES_PH_OVER;

    for (int s = 0; s < GAME_MAX_SEATS; s++) {
        ret[s] = 0.0;
    }
    if (over && st->forfeit >= 0) {
        /* R-stones-6.3: the winners share the win, whatever the scores. */
        unsigned mask = stones__winners(st);
        int n = 0;
        for (int s = 0; s < st->nseats; s++) {
            n += (mask >> s) & 1u;
        }
        for (int s = 0; s < st->nseats; s++) {
            ret[s] = mask & (1u << s) ? 1.0 / n : 0.0;
        }
        return;
    }
    if (st->variant == STONES_COOP) {
        double g = coop_grade(over ? st->coop_done_n : coop_estimate(st));
        for (int s = 0; s < st->nseats; s++) {
            ret[s] = g;
        }
        return;
    }
    double v[STONES_MAX_PLAYERS];
    for (int p = 0; p < st->np; p++) {
        int parts[6];
        int total = stones__score(st, p, parts);
        v[p] = over ? (st->variant == STONES_NOVICE ? parts[5] : total) : standing(st, p);
    }
    double scale = st->variant == STONES_NOVICE ? 1.5 : 6.0;
    int nbest = 0;
    double best = -1e9;
    for (int p = 0; p < st->np; p++) {
        if (v[p] > best) {
            best = v[p];
            nbest = 1;
        } else if (v[p] == best) {
            nbest++;
        }
    }
    for (int p = 0; p < st->np; p++) {
        int seat = st->pl[p].seat;
        if (over) {
            ret[seat] = v[p] == best ? 1.0 / nbest : 0.0;
            continue;
        }
        double other = -1e9;
        for (int q = 0; q < st->np; q++) {
            if (q != p && v[q] > other) {
                other = v[q];
            }
        }
        ret[seat] = st->np < 2 ? 0.5 : 0.5 + 0.5 * squash((v[p] - other) / scale);
    }
}

/* A random game is about a thousand actions (casts and payments are chosen
 * in steps, R-stones-9.1); a playout is valued after two or three turns. */
const struct game_bot stones_bot = {
    .determinize = bot_determinize,
    .playout = bot_playout,
    .value = bot_value,
    .playout_depth = 32,
};
