/* SPDX-License-Identifier: MIT */
/*
 * test_bots.c - the bots never peek, in every registered game.
 *
 * Seeded random games of each game, over every seat count and option set,
 * stop at positions along the way. At each, for every seat:
 *   - the game's own `perturb` hook (game_tests.h, written apart from the
 *     bot code) changes a copy of the position in ways that seat may not
 *     see; the seat's view must be the same in both (else the pair is not
 *     a pair);
 *   - determinize() of the position and of the changed copy, with the same
 *     generator, must come out byte for byte the same: nothing the seat
 *     cannot see survives into what the bot searches;
 *   - the redrawn position keeps the seat's view, passes the game's
 *     invariants, and (at some positions) plays on to the end with every
 *     listed action accepted;
 *   - where the seat may act, the bot's decision (a search with a fixed
 *     seed and a budget of passes) is the same in both.
 * This file knows no game by name.
 *
 * usage: test_bots [GAME_ID [GAMES_PER_CONFIG]]   (no GAME_ID: every game)
 */
#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "ck_run.h"
#include "combos.h"
#include "game.h"
#include "game_tests.h"
#include "rng.h"

#define MAX_STEPS 6000
#define STRIDE 29         /* actions between positions looked at */
#define DEEP_EVERY 6      /* every so many positions: play the redrawn one out */
#define DECIDE_EVERY 3    /* every so many positions: compare decisions */
#define DECIDE_PASSES 24  /* search passes of a compared decision */
#define PLAYOUT_CAP 20000 /* actions of a redrawn position played out */
#define MIN_GAMES 12      /* games per game at least, over its configurations */

static const char *only_game;
static int games_per_config; /* 0: enough for MIN_GAMES */

struct counts {
    long positions, pairs, playouts, decisions;
};

struct where {
    const struct game_ops *g;
    const char *opts;
    int nseats;
    uint64_t seed;
    int step;
};

static char *view_text(const struct game_ops *g, const void *st, int seat)
{
    struct game_text t = {0};
    char *s;

    ck_assert_int_eq(game_view_text(g, st, seat, &t), 0);
    s = strdup(t.data);
    game_text_free(&t);
    return s;
}

static size_t first_difference(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    size_t i = 0;

    while (i < n && x[i] == y[i]) {
        i++;
    }
    return i;
}

static void seed_rng(struct game_rng *rng, uint64_t a, uint64_t b)
{
    uint8_t seed[32] = {0};

    memcpy(seed, &a, sizeof(a));
    memcpy(seed + 8, &b, sizeof(b));
    seed[31] = 0x42;
    game_rng_seed(rng, seed);
}

/* Plays `st` on by uniform random picks to the end: every listed action
 * must be accepted. */
static void play_out(const struct where *w, void *st, struct game_rng *rng, int seat)
{
    const struct game_ops *g = w->g;

    for (int i = 0; i < PLAYOUT_CAP; i++) {
        unsigned active = g->active(st);
        if (!active) {
            return;
        }
        int q = 0;
        while (!(active & (1u << q))) {
            q++;
        }
        json_t *legal = g->legal(st, q);
        size_t n = json_array_size(legal);
        ck_assert_msg(n > 0,
                      "%s %s %d seats seed %llu step %d: after redrawing for seat %d, "
                      "active seat %d has no legal action",
                      g->id, w->opts, w->nseats, (unsigned long long)w->seed, w->step, seat, q);
        struct game_error err;
        const json_t *a = json_array_get(legal, game_rng_below(rng, (uint32_t)n));
        int rc = game_apply(g, st, q, a, &err);
        ck_assert_msg(rc == GAME_OK,
                      "%s %s %d seats seed %llu step %d: after redrawing for seat %d, a listed "
                      "action of seat %d was refused: %s",
                      g->id, w->opts, w->nseats, (unsigned long long)w->seed, w->step, seat, q,
                      err.message);
        json_decref(legal);
    }
}

/* The decision of the bot of `seat` at `st` with a fixed seed. */
static json_t *decide(const struct where *w, const void *st, int seat)
{
    struct bot_ask ask = {
        .game = w->g,
        .state = st,
        .nseats = w->nseats,
        .seat = seat,
        .budget = {DECIDE_PASSES, 0},
    };
    struct bot_stats stats;

    memset(ask.seed, 0x37, sizeof(ask.seed));
    ask.seed[0] = (uint8_t)w->step;
    json_t *a = bot_decide(&ask, &stats);
    ck_assert_msg(stats.refused == 0, "%s: %u listed actions were refused during a search",
                  w->g->id, stats.refused);
    return a;
}

/* Everything the file checks at one position, for every seat. */
static void check_position(const struct where *w, const void *st, const void *memo,
                           struct game_rng *rng, struct counts *c)
{
    const struct game_ops *g = w->g;
    size_t size = g->state_size;
    void *copy = malloc(size), *d1 = malloc(size), *d2 = malloc(size), *other = malloc(size);
    bool deep = c->positions % DEEP_EVERY == 0;
    bool compare = c->positions % DECIDE_EVERY == 0;

    ck_assert(copy && d1 && d2 && other);
    c->positions++;
    for (int seat = 0; seat < w->nseats; seat++) {
        char *mine = view_text(g, st, seat);
        bool have_other = false;
        struct game_rng dr;

        /* The position itself, redrawn: the same view, sound, playable. */
        memcpy(d1, st, size);
        seed_rng(&dr, w->seed, (uint64_t)w->step * 8 + (uint64_t)seat);
        g->bot->determinize(d1, seat, &dr);
        char *redrawn = view_text(g, d1, seat);
        ck_assert_msg(strcmp(mine, redrawn) == 0,
                      "%s %s %d seats seed %llu step %d: redrawing for seat %d changed its view\n"
                      "before: %s\nafter:  %s",
                      g->id, w->opts, w->nseats, (unsigned long long)w->seed, w->step, seat, mine,
                      redrawn);
        free(redrawn);
        if (g->check_invariants) {
            struct game_error err = {0};
            ck_assert_msg(g->check_invariants(d1, &err) == 0,
                          "%s %s %d seats seed %llu step %d: redrawn for seat %d, the position "
                          "breaks an invariant: %s",
                          g->id, w->opts, w->nseats, (unsigned long long)w->seed, w->step, seat,
                          err.message);
        }
        if (deep) {
            play_out(w, d1, rng, seat);
            c->playouts++;
        }

        /* Pairs that differ only in what the seat cannot see. */
        for (int k = 0; k < g->tests->nperturb; k++) {
            unsigned may_see = 0;
            memcpy(copy, st, size);
            if (!g->tests->perturb(copy, memo, k, rng, &may_see) ||
                (may_see & (1u << (seat + 1))) || memcmp(copy, st, size) == 0) {
                continue;
            }
            char *theirs = view_text(g, copy, seat);
            ck_assert_msg(strcmp(mine, theirs) == 0,
                          "%s: hidden change %d shows in seat %d's view (the pair is not a pair)",
                          g->id, k, seat);
            free(theirs);
            memcpy(d1, st, size);
            memcpy(d2, copy, size);
            struct game_rng r1, r2;
            seed_rng(&r1, w->seed ^ 0x5555,
                     (uint64_t)w->step * 64 + (uint64_t)k * 8 + (uint64_t)seat);
            r2 = r1;
            g->bot->determinize(d1, seat, &r1);
            g->bot->determinize(d2, seat, &r2);
            size_t at = first_difference(d1, d2, size);
            ck_assert_msg(at == size,
                          "%s %s %d seats seed %llu step %d: seat %d's redrawn positions differ "
                          "(at byte %zu of %zu) when the position differs only in hidden change "
                          "%d: the bot would see what its seat may not",
                          g->id, w->opts, w->nseats, (unsigned long long)w->seed, w->step, seat, at,
                          size, k);
            c->pairs++;
            memcpy(other, copy, size);
            have_other = true;
        }

        /* The decision is the same in both. */
        if (compare && have_other && (g->active(st) & (1u << seat))) {
            json_t *a = decide(w, st, seat);
            json_t *b = decide(w, other, seat);
            ck_assert_msg(a && b && json_equal(a, b),
                          "%s %s %d seats seed %llu step %d: seat %d's bot decides differently "
                          "when only what it may not see differs",
                          g->id, w->opts, w->nseats, (unsigned long long)w->seed, w->step, seat);
            json_decref(a);
            json_decref(b);
            c->decisions++;
        }
        free(mine);
    }
    free(copy);
    free(d1);
    free(d2);
    free(other);
}

/* Plays one seeded random game, checking positions along the way. */
static void play_one(const struct game_ops *g, const json_t *opts, int nseats, uint64_t seed,
                     struct counts *c)
{
    struct game_setup setup = {.nseats = nseats};
    struct game_error err;
    struct game_rng rng;
    void *st = calloc(1, g->state_size);
    void *memo = calloc(1, g->tests->memo_size + 1);
    char *otext = json_dumps(opts, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    struct where w = {g, otext, nseats, seed, 0};

    ck_assert(st && memo && otext);
    memcpy(setup.seed, &seed, sizeof(seed));
    for (int i = 0; i < nseats; i++) {
        snprintf(setup.names[i], sizeof(setup.names[i]), "P%d", i);
    }
    ck_assert_int_eq(game_start(g, st, opts, &setup, &err), GAME_OK);
    if (g->tests->memo_update) {
        g->tests->memo_update(memo, st, NULL);
    }
    seed_rng(&rng, seed, 99);
    int next = (int)(seed % STRIDE);
    for (w.step = 0; w.step < MAX_STEPS && g->active(st); w.step++) {
        if (w.step == next) {
            check_position(&w, st, memo, &rng, c);
            next += STRIDE;
        }
        unsigned active = g->active(st);
        int q = 0;
        while (!(active & (1u << q))) {
            q++;
        }
        json_t *legal = g->legal(st, q);
        ck_assert(json_array_size(legal) > 0);
        json_t *a = json_incref(
            json_array_get(legal, game_rng_below(&rng, (uint32_t)json_array_size(legal))));
        json_decref(legal);
        ck_assert_int_eq(game_apply(g, st, q, a, &err), GAME_OK);
        if (g->tests->memo_update) {
            g->tests->memo_update(memo, st, a);
        }
        json_decref(a);
    }
    free(otext);
    free(memo);
    free(st);
}

START_TEST(every_game_has_bots)
{
    for (size_t i = 0; game_registry[i]; i++) {
        const struct game_bot *b = game_registry[i]->bot;
        if (only_game && strcmp(only_game, game_registry[i]->id) != 0) {
            continue;
        }
        ck_assert_msg(b && b->determinize, "%s has no bot table", game_registry[i]->id);
    }
}
END_TEST

START_TEST(bots_never_peek)
{
    for (size_t gi = 0; game_registry[gi]; gi++) {
        const struct game_ops *g = game_registry[gi];
        if ((only_game && strcmp(only_game, g->id) != 0) || !g->bot) {
            continue;
        }
        json_t *schema = g->options_schema();
        json_t *combos = option_combos(schema, true);
        struct counts c = {0};
        size_t i;
        json_t *opts;
        int games = 0;

        json_array_append_new(combos, json_null());
        int nconfigs = 0;
        json_array_foreach(combos, i, opts) {
            for (int n = g->min_players; n <= g->max_players; n++) {
                struct game_error err;
                nconfigs += g->check_options(opts, n, &err) == GAME_OK;
            }
        }
        int per_config = games_per_config > 0
                             ? games_per_config
                             : (MIN_GAMES + nconfigs - 1) / (nconfigs ? nconfigs : 1);
        json_array_foreach(combos, i, opts) {
            for (int n = g->min_players; n <= g->max_players; n++) {
                struct game_error err;
                if (g->check_options(opts, n, &err) != GAME_OK) {
                    continue;
                }
                for (int k = 0; k < per_config; k++) {
                    play_one(g, opts, n,
                             (uint64_t)(i * 7919 + (size_t)n * 131 + (size_t)k * 104729 + 5), &c);
                    games++;
                }
            }
        }
        json_decref(combos);
        json_decref(schema);
        printf("%s: %d games, %ld positions, %ld hidden pairs, %ld redrawn positions played "
               "out, %ld decisions compared\n",
               g->id, games, c.positions, c.pairs, c.playouts, c.decisions);
        ck_assert_int_gt(c.pairs, 0);
        ck_assert_int_gt(c.decisions, 0);
    }
}
END_TEST

int main(int argc, char **argv)
{
    const struct ck_case cases[] = {
        {"every_game_has_bots", every_game_has_bots},
        {"bots_never_peek", bots_never_peek},
    };

    if (argc > 1) {
        only_game = argv[1];
        if (!game_find(only_game)) {
            fprintf(stderr, "no game %s\n", only_game);
            return 2;
        }
    }
    if (argc > 2) {
        games_per_config = atoi(argv[2]);
    }
    return ck_run("bots", cases, sizeof(cases) / sizeof(cases[0]), NULL, NULL, 1200);
}
