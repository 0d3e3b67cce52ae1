/* SPDX-License-Identifier: MIT */
/*
 * bench_rules.c - speed of each rules core through game.h, and of the work
 * the server adds per accepted action (one view, one diff and one hash per
 * recipient).
 *
 * For every registered game it plays seeded random full games for about
 * `seconds` each and prints:
 *   games/s     random full games (legal + apply to the end)
 *   actions/s   validated actions (apply of a listed action, on a copy)
 *   publish/s   per-recipient whole view + JSON Patch + BLAKE2b hash (the
 *               naive publish; the server builds the public part once and
 *               only the sections an action changed)
 *
 * usage: bench_rules [SECONDS] [GAME_ID]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game.h"
#include "proto.h"
#include "rng.h"

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int default_seats(const struct game_ops *g)
{
    for (int n = 2; n <= g->max_players; n++) {
        struct game_error err;
        if (g->check_options(NULL, n, &err) == GAME_OK) {
            return n;
        }
    }
    return g->min_players;
}

/* Plays one random game; adds the number of actions to *actions and, when
 * `publish` is set, writes every recipient's whole view after each action,
 * diffs it against its previous text and hashes it (the naive publish, per
 * recipient and without sections), counting them in *views. Returns 0 or
 * -1. */
static int play(const struct game_ops *g, int nseats, uint64_t seed, bool publish, long *actions,
                long *views)
{
    struct game_setup setup = {.nseats = nseats};
    struct game_error err;
    struct game_rng rng;
    uint8_t rs[32] = {0};
    void *st = calloc(1, g->state_size);
    struct game_text prev[GAME_MAX_SEATS + 1] = {{0}};
    struct game_text now = {0};
    int rc = 0;

    memcpy(setup.seed, &seed, sizeof(seed));
    memcpy(rs, &seed, sizeof(seed));
    rs[31] = 1;
    game_rng_seed(&rng, rs);
    for (int i = 0; i < nseats; i++) {
        snprintf(setup.names[i], sizeof(setup.names[i]), "P%d", i);
    }
    if (!st || game_start(g, st, NULL, &setup, &err) != GAME_OK) {
        free(st);
        return -1;
    }
    for (int steps = 0; steps < 100000; steps++) {
        unsigned active = g->active(st);
        if (!active) {
            break;
        }
        int seat = 0;
        while (!(active & (1u << seat))) {
            seat++;
        }
        json_t *legal = g->legal(st, seat);
        size_t n = json_array_size(legal);
        if (n == 0) {
            json_decref(legal);
            rc = -1;
            break;
        }
        json_t *pick = json_array_get(legal, game_rng_below(&rng, (uint32_t)n));
        if (game_apply(g, st, seat, pick, &err) != GAME_OK) {
            json_decref(legal);
            rc = -1;
            break;
        }
        json_decref(legal);
        (*actions)++;
        if (publish) {
            for (int s = -1; s < nseats; s++) {
                struct game_text *p = &prev[s + 1];
                struct game_text swap;
                struct proto_text ops = {0};
                game_text_reset(&now);
                if (game_view_text(g, st, s, &now) != 0) {
                    rc = -1;
                    break;
                }
                if (p->len > 0) {
                    proto_patch_diff_text(&ops, NULL, p->data, p->len, now.data, now.len);
                }
                proto_text_free(&ops);
                char hash[PROTO_HASH_HEX_LEN + 1];
                proto_text_hash(now.data, now.len, hash);
                swap = *p;
                *p = now;
                now = swap;
                (*views)++;
            }
        }
    }
    game_text_free(&now);
    for (int s = 0; s <= GAME_MAX_SEATS; s++) {
        game_text_free(&prev[s]);
    }
    free(st);
    return rc;
}

/* Validated actions per second: apply a listed action to a fresh copy of a
 * mid-game position, over and over. */
static double apply_rate(const struct game_ops *g, int nseats, double seconds)
{
    struct game_setup setup = {.nseats = nseats};
    struct game_error err;
    void *st = calloc(1, g->state_size);
    void *copy = calloc(1, g->state_size);
    json_t *acts[64];
    int seats[64], nacts = 0;
    long done = 0;

    for (int i = 0; i < nseats; i++) {
        snprintf(setup.names[i], sizeof(setup.names[i]), "P%d", i);
    }
    setup.seed[0] = 7;
    game_start(g, st, NULL, &setup, &err);
    /* Collect positions' actions along one game: (seat, action) pairs that
     * are legal in the state reached just before them. */
    struct game_rng rng;
    game_rng_seed(&rng, setup.seed);
    void *positions = calloc(64, g->state_size);
    while (nacts < 64 && g->active(st)) {
        unsigned active = g->active(st);
        int seat = 0;
        while (!(active & (1u << seat))) {
            seat++;
        }
        json_t *legal = g->legal(st, seat);
        json_t *pick =
            json_array_get(legal, game_rng_below(&rng, (uint32_t)json_array_size(legal)));
        memcpy((char *)positions + (size_t)nacts * g->state_size, st, g->state_size);
        acts[nacts] = json_incref(pick);
        seats[nacts++] = seat;
        game_apply(g, st, seat, pick, &err);
        json_decref(legal);
    }
    double t0 = now_s();
    while (now_s() - t0 < seconds) {
        for (int i = 0; i < nacts; i++) {
            game_try(g, (char *)positions + (size_t)i * g->state_size, copy, seats[i], acts[i],
                     &err);
            done++;
        }
    }
    double rate = (double)done / (now_s() - t0);
    for (int i = 0; i < nacts; i++) {
        json_decref(acts[i]);
    }
    free(positions);
    free(st);
    free(copy);
    return rate;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    const char *only = argc > 2 ? argv[2] : NULL;

    printf("%-10s %6s %12s %14s %12s %14s\n", "game", "seats", "games/s", "actions/game",
           "actions/s", "publish/s");
    for (size_t i = 0; game_registry[i]; i++) {
        const struct game_ops *g = game_registry[i];
        int nseats = default_seats(g);
        long games = 0, actions = 0, views = 0, pactions = 0;
        uint64_t seed = 1;

        if (only && strcmp(only, g->id) != 0) {
            continue;
        }
        double t0 = now_s();
        while (now_s() - t0 < seconds) {
            if (play(g, nseats, seed++, false, &actions, &views) != 0) {
                fprintf(stderr, "%s: a random game failed\n", g->id);
                return 1;
            }
            games++;
        }
        double gps = (double)games / (now_s() - t0);
        double aps = apply_rate(g, nseats, seconds);
        t0 = now_s();
        while (now_s() - t0 < seconds) {
            if (play(g, nseats, seed++, true, &pactions, &views) != 0) {
                return 1;
            }
        }
        double vps = (double)views / (now_s() - t0);
        printf("%-10s %6d %12.1f %14.1f %12.0f %14.0f\n", g->id, nseats, gps,
               (double)actions / (double)games, aps, vps);
    }
    return 0;
}
