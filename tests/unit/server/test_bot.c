/* SPDX-License-Identifier: MIT */
/*
 * test_bot.c - the bot engine (server/bot/search.c) on the test-only game
 * "Race to 10" (tests/lib/fake_game.c): seats add 1 or 2 to a total, and
 * whoever brings it to 10 wins, so the right move is known at every total
 * (leave the other seat a total of 1, 4 or 7). Each seat holds a secret
 * the bot's determinize redraws.
 */
#include <check.h>

#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "ck_run.h"
#include "fake_game.h"
#include "rng.h"

/* A two-seat race after adding `adds` in turn (n adds of 1 or 2). */
static void *race(const int *adds, int n)
{
    struct game_setup setup = {.nseats = 2};
    struct game_error err;
    void *st = calloc(1, fake_game.state_size);

    ck_assert_ptr_nonnull(st);
    memset(setup.seed, 7, sizeof(setup.seed));
    snprintf(setup.names[0], sizeof(setup.names[0]), "Ann");
    snprintf(setup.names[1], sizeof(setup.names[1]), "Bo");
    ck_assert_int_eq(game_start(&fake_game, st, NULL, &setup, &err), GAME_OK);
    for (int i = 0; i < n; i++) {
        json_t *a = json_pack("{s:s, s:i}", "type", "add", "n", adds[i]);
        ck_assert_int_eq(game_apply(&fake_game, st, i % 2, a, &err), GAME_OK);
        json_decref(a);
    }
    return st;
}

static struct bot_ask ask_for(const void *st, int seat, unsigned passes)
{
    struct bot_ask ask = {
        .game = &fake_game,
        .state = st,
        .nseats = 2,
        .seat = seat,
        .budget = {passes, 0},
    };
    memset(ask.seed, 0x11, sizeof(ask.seed));
    return ask;
}

static long added(const json_t *a)
{
    return (long)json_integer_value(json_object_get(a, "n"));
}

START_TEST(takes_the_winning_move)
{
    /* Total 8, seat 0 to move: adding 2 wins at once. */
    void *st = race((const int[]){2, 2, 2, 2}, 4);
    struct bot_ask ask = ask_for(st, 0, bot_level_budget(BOT_NORMAL).passes);
    struct bot_stats stats;
    json_t *a = bot_decide(&ask, &stats);

    ck_assert_int_eq(added(a), 2);
    ck_assert(stats.searched);
    ck_assert_uint_eq(stats.refused, 0);
    json_decref(a);
    free(st);
}
END_TEST

START_TEST(leaves_the_other_seat_a_losing_total)
{
    /* Total 6, seat 0 to move: adding 1 leaves 7, from which seat 1 loses
     * whatever it does; adding 2 leaves 8, from which it wins. */
    void *st = race((const int[]){2, 1, 1, 2}, 4);
    for (uint8_t s = 0; s < 8; s++) {
        struct bot_ask ask = ask_for(st, 0, bot_level_budget(BOT_NORMAL).passes);
        ask.seed[0] = s;
        json_t *a = bot_decide(&ask, NULL);
        ck_assert_int_eq(added(a), 1);
        json_decref(a);
    }
    free(st);
}
END_TEST

START_TEST(random_level_picks_a_listed_action_without_search)
{
    void *st = race(NULL, 0);
    struct bot_ask ask = ask_for(st, 0, 0);
    struct bot_stats stats;
    int seen[3] = {0};

    ask.random = true;
    for (uint8_t s = 0; s < 40; s++) {
        ask.seed[0] = s;
        json_t *a = bot_decide(&ask, &stats);
        ck_assert(added(a) == 1 || added(a) == 2);
        ck_assert(!stats.searched);
        seen[added(a)]++;
        json_decref(a);
    }
    ck_assert_int_gt(seen[1], 0);
    ck_assert_int_gt(seen[2], 0);
    free(st);
}
END_TEST

START_TEST(spends_exactly_its_passes)
{
    void *st = race((const int[]){1}, 1);
    struct bot_ask ask = ask_for(st, 1, 100);
    struct bot_stats stats;
    json_t *a = bot_decide(&ask, &stats);

    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(stats.passes, 100);
    ck_assert_uint_gt(stats.nodes, 1);
    json_decref(a);
    free(st);
}
END_TEST

START_TEST(stops_when_asked_and_still_answers)
{
    void *st = race((const int[]){1}, 1);
    atomic_int stop;
    struct bot_ask ask = ask_for(st, 1, 100000);
    struct bot_stats stats;

    atomic_init(&stop, 1);
    ask.stop = &stop;
    json_t *a = bot_decide(&ask, &stats);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_lt(stats.passes, 100);
    json_decref(a);
    free(st);
}
END_TEST

START_TEST(time_budget_ends_a_search_of_unlimited_passes)
{
    void *st = race(NULL, 0);
    struct bot_ask ask = ask_for(st, 0, 0);
    struct bot_stats stats;

    ask.budget.ms = 30;
    json_t *a = bot_decide(&ask, &stats);
    ck_assert_ptr_nonnull(a);
    ck_assert(stats.searched);
    ck_assert_uint_gt(stats.passes, 0);
    json_decref(a);
    free(st);
}
END_TEST

START_TEST(one_choice_or_none)
{
    /* Total 9: both adds win, but a game over has no action at all. */
    void *st = race((const int[]){2, 2, 2, 2, 1}, 5);
    struct bot_ask ask = ask_for(st, 1, 50);
    json_t *a = bot_decide(&ask, NULL);
    ck_assert_ptr_nonnull(a);
    struct game_error err;
    ck_assert_int_eq(game_apply(&fake_game, st, 1, a, &err), GAME_OK);
    json_decref(a);
    ck_assert_uint_eq(fake_game.active(st), 0);
    ask = ask_for(st, 0, 50);
    ck_assert_ptr_null(bot_decide(&ask, NULL));
    free(st);
}
END_TEST

START_TEST(decision_ignores_what_the_seat_cannot_see)
{
    /* The same race with another secret for seat 1 (redrawn through the
     * game's own determinize for seat 0): seat 0's view is the same, and so
     * is its decision for the same seed. */
    void *st = race((const int[]){1, 1}, 2);
    void *other = malloc(fake_game.state_size);
    struct game_rng rng;
    uint8_t seed[32] = {9};

    memcpy(other, st, fake_game.state_size);
    game_rng_seed(&rng, seed);
    fake_game.bot->determinize(other, 0, &rng);
    ck_assert(memcmp(st, other, fake_game.state_size) != 0);
    json_t *va = game_view(&fake_game, st, 0), *vb = game_view(&fake_game, other, 0);
    ck_assert(json_equal(va, vb));
    for (uint8_t s = 0; s < 6; s++) {
        struct bot_ask a1 = ask_for(st, 0, 40), a2 = ask_for(other, 0, 40);
        a1.seed[3] = a2.seed[3] = s;
        struct bot_stats s1, s2;
        json_t *x = bot_decide(&a1, &s1), *y = bot_decide(&a2, &s2);
        ck_assert(json_equal(x, y));
        ck_assert_uint_eq(s1.nodes, s2.nodes);
        json_decref(x);
        json_decref(y);
    }
    json_decref(va);
    json_decref(vb);
    free(other);
    free(st);
}
END_TEST

START_TEST(levels_by_name_and_budget)
{
    for (int l = 0; l < BOT_NLEVELS; l++) {
        ck_assert_int_eq(bot_level_parse(bot_level_names[l]), l);
    }
    ck_assert_int_eq(bot_level_parse("expert"), -1);
    ck_assert_int_eq(bot_level_parse(NULL), -1);
    ck_assert_uint_eq(bot_level_budget(BOT_RANDOM).passes, 0);
    ck_assert_uint_lt(bot_level_budget(BOT_EASY).passes, bot_level_budget(BOT_NORMAL).passes);
    ck_assert_uint_lt(bot_level_budget(BOT_NORMAL).passes, bot_level_budget(BOT_HARD).passes);
}
END_TEST

START_TEST(job_copies_the_position)
{
    void *st = race((const int[]){2, 2, 2, 2}, 4);
    struct bot_job *job = bot_job_new(&fake_game, st, 2, 0, BOT_EASY);

    ck_assert_ptr_nonnull(job);
    memset(st, 0, fake_game.state_size); /* the room moves on; the job keeps its copy */
    free(st);
    job->action = bot_decide(&job->ask, &job->stats);
    ck_assert_int_eq(added(job->action), 2);
    ck_assert_uint_eq(job->stats.passes, bot_level_budget(BOT_EASY).passes);
    bot_job_free(job);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"takes_the_winning_move", takes_the_winning_move},
        {"leaves_the_other_seat_a_losing_total", leaves_the_other_seat_a_losing_total},
        {"random_level_picks_a_listed_action_without_search",
         random_level_picks_a_listed_action_without_search},
        {"spends_exactly_its_passes", spends_exactly_its_passes},
        {"stops_when_asked_and_still_answers", stops_when_asked_and_still_answers},
        {"time_budget_ends_a_search_of_unlimited_passes",
         time_budget_ends_a_search_of_unlimited_passes},
        {"one_choice_or_none", one_choice_or_none},
        {"decision_ignores_what_the_seat_cannot_see", decision_ignores_what_the_seat_cannot_see},
        {"levels_by_name_and_budget", levels_by_name_and_budget},
        {"job_copies_the_position", job_copies_the_position},
    };
    return CK_RUN("bot", cases, NULL, NULL);
}
