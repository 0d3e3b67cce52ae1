/* SPDX-License-Identifier: MIT */
/*
 * bench_bots.c - strength and decision time of the bot levels, through
 * game.h and the bot engine only (no server).
 *
 * Plays seeded games of one game with one level on a "tested" seat and
 * another level on every other seat, the tested seat moving round the
 * table from game to game, and prints how often the tested level won (a
 * shared win counts 1/k), its fair share, and the decision times of each
 * level (median and 99th percentile, decisions with more than one choice).
 * A cooperative game prints the distribution of the table's result
 * ("title" in the result) instead. The searches spend passes only (no
 * time limit), so a run is the same on any machine; `--threads` plays
 * games side by side.
 *
 * usage: bench_bots GAME LEVEL VS_LEVEL [--games N] [--seats N]
 *                   [--options JSON] [--threads N] [--first N]
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "game.h"

#define MAX_STEPS 50000
#define MAX_TITLES 32

struct times {
    double *ms;
    size_t n, cap;
};

struct run {
    const struct game_ops *g;
    json_t *options;
    int nseats;
    int level, vs;
    int games;
    int first; /* seed of the first game */
    atomic_int next;
    pthread_mutex_t lock;
    double wins;  /* of the tested level */
    int finished; /* games that reached the end */
    int played;   /* games over, for the progress lines */
    int refused;  /* listed actions refused: must stay 0 */
    struct times t[BOT_NLEVELS];
    char titles[MAX_TITLES][48];
    int title_n[MAX_TITLES];
    int ntitles;
    double value_sum; /* cooperative: the tested seat's value at the end */
};

static void times_add(struct times *t, double ms)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->ms = realloc(t->ms, t->cap * sizeof(*t->ms));
        if (!t->ms) {
            abort();
        }
    }
    t->ms[t->n++] = ms;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(struct times *t, double p)
{
    if (t->n == 0) {
        return 0;
    }
    qsort(t->ms, t->n, sizeof(*t->ms), cmp_double);
    size_t i = (size_t)(p * (double)(t->n - 1) + 0.5);
    return t->ms[i];
}

static void note_title(struct run *r, const json_t *res)
{
    json_t *title = json_object_get(res, "title");
    char buf[48];

    if (!title) {
        return;
    }
    if (json_is_string(title)) {
        snprintf(buf, sizeof(buf), "%s", json_string_value(title));
    } else {
        char *s = json_dumps(title, JSON_COMPACT | JSON_ENCODE_ANY);
        snprintf(buf, sizeof(buf), "%s", s ? s : "?");
        free(s);
    }
    for (int i = 0; i < r->ntitles; i++) {
        if (strcmp(r->titles[i], buf) == 0) {
            r->title_n[i]++;
            return;
        }
    }
    if (r->ntitles < MAX_TITLES) {
        snprintf(r->titles[r->ntitles], sizeof(r->titles[0]), "%s", buf);
        r->title_n[r->ntitles++] = 1;
    }
}

/* Plays game number `k`: the tested level at seat k % nseats. */
static void play(struct run *r, int k)
{
    const struct game_ops *g = r->g;
    struct game_setup setup = {.nseats = r->nseats};
    struct game_error err;
    void *st = calloc(1, g->state_size);
    int tested = k % r->nseats;
    int levels[GAME_MAX_SEATS];
    uint32_t seed = (uint32_t)(r->first + k);

    for (int i = 0; i < r->nseats; i++) {
        levels[i] = i == tested ? r->level : r->vs;
        snprintf(setup.names[i], sizeof(setup.names[i]), "%s %d", bot_level_names[levels[i]], i);
    }
    memcpy(setup.seed, &seed, sizeof(seed));
    setup.seed[31] = 0x5a;
    if (!st || game_start(g, st, r->options, &setup, &err) != GAME_OK) {
        fprintf(stderr, "game %d does not start: %s\n", k, err.message);
        exit(2);
    }
    int steps = 0;
    int refused = 0;
    for (; steps < MAX_STEPS; steps++) {
        unsigned active = g->active(st);
        if (!active) {
            break;
        }
        int q = 0;
        while (!(active & (1u << q))) {
            q++;
        }
        struct bot_ask ask = {
            .game = g,
            .state = st,
            .nseats = r->nseats,
            .seat = q,
            .budget = {bot_level_budget(levels[q]).passes, 0},
            .random = levels[q] == BOT_RANDOM,
        };
        uint32_t words[3] = {seed, (uint32_t)steps, (uint32_t)q};
        memcpy(ask.seed, words, sizeof(words));
        ask.seed[31] = 0xb0;
        struct bot_stats bs;
        json_t *a = bot_decide(&ask, &bs);
        if (!a) {
            fprintf(stderr, "game %d: no action for seat %d\n", k, q);
            exit(2);
        }
        if (game_apply(g, st, q, a, &err) != GAME_OK) {
            fprintf(stderr, "game %d: the bot's action was refused: %s\n", k, err.message);
            exit(2);
        }
        json_decref(a);
        refused += (int)bs.refused;
        if (bs.searched) {
            pthread_mutex_lock(&r->lock);
            times_add(&r->t[levels[q]], bs.ms);
            pthread_mutex_unlock(&r->lock);
        }
    }
    json_t *res = game_result(g, st);
    json_t *w = json_object_get(res, "winners");
    double share = 0;
    for (size_t i = 0; i < json_array_size(w); i++) {
        if (json_integer_value(json_array_get(w, i)) == tested) {
            share = 1.0 / (double)json_array_size(w);
        }
    }
    double v[GAME_MAX_SEATS] = {0};
    if (g->bot && g->bot->value) {
        g->bot->value(st, v);
    }
    pthread_mutex_lock(&r->lock);
    r->finished += res != NULL;
    r->wins += share;
    r->refused += refused;
    r->value_sum += v[tested];
    note_title(r, res);
    if (++r->played % 10 == 0) {
        /* A long run says how it goes, so that a stopped one is not lost. */
        fprintf(stderr, "after %d of %d games: %.1f won by the tested level\n", r->played, r->games,
                r->wins);
    }
    pthread_mutex_unlock(&r->lock);
    json_decref(res);
    free(st);
}

static void *worker(void *arg)
{
    struct run *r = arg;

    for (;;) {
        int k = atomic_fetch_add(&r->next, 1);
        if (k >= r->games) {
            return NULL;
        }
        play(r, k);
    }
}

int main(int argc, char **argv)
{
    struct run r = {.games = 200, .nseats = 2, .first = 1};
    int threads = 1;

    if (argc < 4) {
        fprintf(stderr, "usage: bench_bots GAME LEVEL VS_LEVEL [--games N] [--seats N] "
                        "[--options JSON] [--threads N] [--first N]\n");
        return 2;
    }
    r.g = game_find(argv[1]);
    r.level = bot_level_parse(argv[2]);
    r.vs = bot_level_parse(argv[3]);
    if (!r.g || r.level < 0 || r.vs < 0) {
        fprintf(stderr, "unknown game or level\n");
        return 2;
    }
    for (int i = 4; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--games") == 0) {
            r.games = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--seats") == 0) {
            r.nseats = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--threads") == 0) {
            threads = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--first") == 0) {
            r.first = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "--options") == 0) {
            r.options = json_loads(argv[i + 1], 0, NULL);
            if (!r.options) {
                fprintf(stderr, "--options is not JSON\n");
                return 2;
            }
        }
    }
    struct game_error err;
    if (r.g->check_options(r.options, r.nseats, &err) != GAME_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    pthread_mutex_init(&r.lock, NULL);
    atomic_init(&r.next, 0);
    pthread_t tid[16];
    threads = threads < 1 ? 1 : threads > 16 ? 16 : threads;
    for (int i = 0; i < threads; i++) {
        pthread_create(&tid[i], NULL, worker, &r);
    }
    for (int i = 0; i < threads; i++) {
        pthread_join(tid[i], NULL);
    }
    char *opts = r.options ? json_dumps(r.options, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    printf("game %s, %d seats, options %s: %s against %s, %d games (%d finished)\n", r.g->id,
           r.nseats, opts ? opts : "{}", argv[2], argv[3], r.games, r.finished);
    printf("  %s won %.1f of %d: %.1f%% (fair share %.1f%%, ratio %.2f)\n", argv[2], r.wins,
           r.games, 100.0 * r.wins / r.games, 100.0 / r.nseats, r.wins / r.games * r.nseats);
    printf("  %s's mean value at the end: %.3f\n", argv[2], r.value_sum / r.games);
    for (int i = 0; i < r.ntitles; i++) {
        printf("  result %s: %d games\n", r.titles[i], r.title_n[i]);
    }
    for (int l = 0; l < BOT_NLEVELS; l++) {
        if (r.t[l].n) {
            printf("  %s: %zu searched decisions, median %.2f ms, p99 %.2f ms\n",
                   bot_level_names[l], r.t[l].n, pct(&r.t[l], 0.5), pct(&r.t[l], 0.99));
        }
    }
    if (r.refused) {
        printf("  %d listed actions were refused during searches\n", r.refused);
    }
    free(opts);
    json_decref(r.options);
    for (int l = 0; l < BOT_NLEVELS; l++) {
        free(r.t[l].ms);
    }
    return r.refused ? 1 : 0;
}
