/* SPDX-License-Identifier: MIT */
/*
 * test_sorc_bot.c - the Sorcerers bot table (sorc_bot.c) against the
 * contract of game.h's struct game_bot, on positions of seeded random games:
 * for every seat, a copy changed by every kind of the leak suite's hidden
 * change that the seat may not see determinizes to the same bytes as the
 * position itself; the result keeps the seat's view, passes the invariants,
 * and random play from it reaches the end with every listed action
 * accepted; the playout policy picks listed actions and the value stays in
 * [0, 1]. The states that show a seat more than usual (stealing, tracking)
 * and the sealed answers of the other seat are counted, so that the run is
 * known to have reached them. It owns nothing of the core and reads the
 * state only to tell which of those cases a position is.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_tests.h"
#include "rng.h"
#include "sorc.h"

extern const struct game_ops sorc_game;

#define MAX_STEPS 20000

/* Positions of each kind the run reached. */
enum reached {
    R_POSITIONS,
    R_PERTURBED,
    R_SEALED_ANSWER, /* the other seat had answered a sealed step */
    R_STEAL,         /* the seat saw the other hand */
    R_TRACK,         /* the seat saw the deck's cards */
    R_COUNT,
};

static const char *const reached_names[R_COUNT] = {
    "positions", "perturbed", "sealed answers", "steals", "tracks",
};

static char *view_text(const void *st, int seat)
{
    struct game_text t = {0};

    ck_assert_int_eq(game_view_text(&sorc_game, st, seat, &t), 0);
    char *s = strdup(t.data);
    ck_assert_ptr_nonnull(s);
    game_text_free(&t);
    return s;
}

static void seed_rng(struct game_rng *rng, uint64_t seed)
{
    uint8_t b[32] = {0};

    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(seed >> (8 * i));
    }
    b[17] = 0xb0;
    game_rng_seed(rng, b);
}

/* A uniform legal action of an active seat applied to `st`; 0 when the game
 * is over. */
static int random_step(void *st, struct game_rng *rng, json_t **ret_action)
{
    unsigned act = sorc_game.active(st);
    int seats[2];
    int n = 0;
    struct game_error err;

    for (int s = 0; s < 2; s++) {
        if (act & (1u << s)) {
            seats[n++] = s;
        }
    }
    if (n == 0) {
        return 0;
    }
    int seat = seats[game_rng_below(rng, (uint32_t)n)];
    json_t *legal = sorc_game.legal(st, seat);
    ck_assert_ptr_nonnull(legal);
    ck_assert_msg(json_array_size(legal) > 0, "active seat %d has no legal action", seat);
    json_t *a = json_incref(json_array_get(legal, game_rng_below(rng, json_array_size(legal))));
    json_decref(legal);
    int rc = game_apply(&sorc_game, st, seat, a, &err);
    ck_assert_msg(rc == GAME_OK, "a listed action was refused: %s", err.message);
    if (ret_action) {
        *ret_action = a;
    } else {
        json_decref(a);
    }
    return 1;
}

/* Random play from `st` (a determinized copy) to the end. */
static void play_out(void *st, struct game_rng *rng)
{
    int steps = 0;
    struct game_error err;

    while (random_step(st, rng, NULL)) {
        ck_assert_msg(sorc_game.check_invariants(st, &err) == 0, "invariants: %s", err.message);
        ck_assert_int_lt(++steps, MAX_STEPS);
    }
}

/* The policy and the value along a short playout from `st`. */
static void policy_walk(void *st, struct game_rng *rng)
{
    struct game_error err;

    for (int d = 0; d < sorc_bot.playout_depth && sorc_game.active(st); d++) {
        unsigned act = sorc_game.active(st);
        int seat = (act & 1u) ? 0 : 1;
        json_t *legal = sorc_game.legal(st, seat);
        ck_assert_ptr_nonnull(legal);
        size_t i = sorc_bot.playout(st, seat, legal, rng);
        ck_assert_uint_lt(i, json_array_size(legal));
        ck_assert_int_eq(game_apply(&sorc_game, st, seat, json_array_get(legal, i), &err), GAME_OK);
        json_decref(legal);
    }
    double v[GAME_MAX_SEATS];
    sorc_bot.value(st, v);
    for (int s = 0; s < 2; s++) {
        ck_assert(v[s] >= 0.0 && v[s] <= 1.0);
    }
    ck_assert(v[0] + v[1] > 0.999 && v[0] + v[1] < 1.001);
}

/* Checks one position for one seat; `deep` plays the result out. */
static void check_seat(const struct sorc_state *st, const void *memo, int seat, uint64_t salt,
                       bool deep, int reached[R_COUNT])
{
    const struct game_tests *t = sorc_game.tests;
    struct sorc_state *other = malloc(sizeof(*other));
    struct sorc_state *a = malloc(sizeof(*a));
    struct sorc_state *b = malloc(sizeof(*b));
    struct game_rng prng;
    struct game_rng r1;
    struct game_rng r2;
    struct game_error err;
    int side = sorc__side(st, seat);
    const struct sorc_combo *k = &st->combo[side ^ 1];

    ck_assert(other && a && b);
    seed_rng(&prng, salt);
    *other = *st;
    for (int which = 0; which < t->nperturb; which++) {
        unsigned may_see = 0;
        *a = *other;
        if (t->perturb(a, memo, which, &prng, &may_see) && !(may_see & (1u << (seat + 1)))) {
            *other = *a;
        }
    }
    char *v0 = view_text(st, seat);
    char *v1 = view_text(other, seat);
    ck_assert_msg(strcmp(v0, v1) == 0, "a hidden change shows in the view of seat %d (phase %s)",
                  seat, sorc__phase_name(st->phase));
    reached[R_PERTURBED] += memcmp(st, other, sizeof(*st)) != 0;
    reached[R_SEALED_ANSWER] +=
        (st->phase == SORC_P_ENCOUNTER || st->phase == SORC_P_DUEL_COMBO ||
         st->phase == SORC_P_DUEL_NEGATE || st->phase == SORC_P_DUEL_DEFENSE) &&
        k->asked && k->submitted;
    reached[R_STEAL] += st->phase == SORC_P_DUEL_STEAL && st->cur_side == side;
    reached[R_TRACK] += st->phase == SORC_P_EVENT_TRACK && st->cur_side == side;

    *a = *st;
    *b = *other;
    seed_rng(&r1, salt ^ 0x5eed);
    r2 = r1;
    sorc_bot.determinize(a, seat, &r1);
    sorc_bot.determinize(b, seat, &r2);
    ck_assert_msg(memcmp(a, b, sizeof(*a)) == 0,
                  "seat %d: determinize depends on what the seat cannot see (phase %s)", seat,
                  sorc__phase_name(st->phase));
    ck_assert(memcmp(&r1, &r2, sizeof(r1)) == 0);
    char *v2 = view_text(a, seat);
    ck_assert_msg(strcmp(v0, v2) == 0, "seat %d: determinize changed its view (phase %s)\n%s\n%s",
                  seat, sorc__phase_name(st->phase), v0, v2);
    ck_assert_msg(sorc_game.check_invariants(a, &err) == 0, "invariants: %s", err.message);
    ck_assert_uint_eq(sorc_game.active(a), sorc_game.active(st));
    if (deep) {
        *b = *a;
        policy_walk(b, &r1);
        play_out(a, &r1);
    }
    free(v0);
    free(v1);
    free(v2);
    free(other);
    free(a);
    free(b);
}

static const char *const configs[] = {
    NULL,
    "{\"merlinian_seat\":0}",
    "{\"merlinian_seat\":1,\"max_turns\":3}",
    "{\"max_turns\":12}",
};

/* Seeded random games of one option set, every position checked for both
 * seats, one in eight played out. */
static void run_config(int ci, int ngames, int reached[R_COUNT])
{
    const struct game_tests *t = sorc_game.tests;
    json_t *opts = configs[ci] ? json_loads(configs[ci], 0, NULL) : NULL;

    for (int g = 0; g < ngames; g++) {
        struct game_setup setup;
        struct game_error err;
        struct game_rng rng;
        struct sorc_state *st = calloc(1, sizeof(*st));
        void *memo = calloc(1, t->memo_size);
        uint64_t seed = (uint64_t)(ci * 1000 + g + 1);

        ck_assert(st && memo);
        memset(&setup, 0, sizeof(setup));
        setup.nseats = 2;
        for (int i = 0; i < 8; i++) {
            setup.seed[i] = (uint8_t)(seed >> (8 * i));
        }
        setup.seed[31] = 0x42;
        snprintf(setup.names[0], GAME_NAME_MAX, "Ann");
        snprintf(setup.names[1], GAME_NAME_MAX, "Bob");
        ck_assert_int_eq(game_start(&sorc_game, st, opts, &setup, &err), GAME_OK);
        seed_rng(&rng, seed * 7919);
        t->memo_update(memo, st, NULL);
        for (int step = 0;; step++) {
            reached[R_POSITIONS]++;
            for (int seat = 0; seat < 2; seat++) {
                check_seat(st, memo, seat, seed * 131 + (uint64_t)step * 2 + (uint64_t)seat,
                           step % 8 == 0, reached);
            }
            json_t *action = NULL;
            if (!random_step(st, &rng, &action)) {
                break;
            }
            t->memo_update(memo, st, action);
            json_decref(action);
            ck_assert_int_lt(step, MAX_STEPS);
        }
        double v[GAME_MAX_SEATS];
        sorc_bot.value(st, v);
        ck_assert(v[0] == 0.0 || v[0] == 0.5 || v[0] == 1.0);
        ck_assert(v[0] + v[1] == 1.0);
        free(st);
        free(memo);
    }
    json_decref(opts);
}

/* Every option set; then every kind of position counted was reached. */
START_TEST(determinize_contract)
{
    int reached[R_COUNT] = {0};

    for (int ci = 0; ci < (int)(sizeof(configs) / sizeof(configs[0])); ci++) {
        run_config(ci, 4, reached);
    }
    for (int r = 0; r < R_COUNT; r++) {
        ck_assert_msg(reached[r] > 0, "no position of the kind \"%s\" was reached",
                      reached_names[r]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sorcerers_bot");
    TCase *tc = tcase_create("determinize");
    SRunner *sr;
    int failed;

    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, determinize_contract);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
