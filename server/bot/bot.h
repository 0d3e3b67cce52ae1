/* SPDX-License-Identifier: MIT */
/*
 * bot.h - the bots: one engine for every game, through game.h only.
 *
 * A bot at level random picks uniformly among the legal actions. Above it,
 * the bot runs an information-set Monte Carlo tree search (search.c): every
 * pass copies the position, redraws what the bot's seat cannot see with the
 * game's determinize() and the bot's own generator, walks the tree of
 * actions by UCB over the statistics the passes share, plays out with the
 * game's playout policy and values the end with the game's value(). Seats
 * that act at the same time (sealed choices) choose independently at one
 * node, each from its own statistics, so that none learns the others'
 * choice in the tree. A level is a budget: passes and milliseconds.
 *
 * search.c is pure computation (a clock only for the budget) and may run on
 * any thread, on a copy of the state it owns. pool.c runs searches on
 * libuv's thread pool for the server.
 */
#ifndef CONCLAVE_BOT_H
#define CONCLAVE_BOT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "game.h"

enum bot_level {
    BOT_RANDOM,
    BOT_EASY,
    BOT_NORMAL,
    BOT_HARD,
    BOT_NLEVELS,
};

#define BOT_LEVEL_DEFAULT BOT_NORMAL

/* "random", "easy", "normal", "hard". */
extern const char *const bot_level_names[BOT_NLEVELS];

/* The level named `name`; -1 when none is. */
int bot_level_parse(const char *name);

/* What one decision may spend: passes, and milliseconds (0: no limit). */
struct bot_budget {
    unsigned passes;
    unsigned ms;
};

/* The budget of a level (random: none). */
struct bot_budget bot_level_budget(enum bot_level level);

/* What a search did. */
struct bot_stats {
    unsigned passes;  /* search passes run */
    unsigned nodes;   /* tree nodes made */
    unsigned refused; /* listed actions the game refused (a rules bug) */
    double ms;        /* wall time of the decision */
    bool searched;    /* false: random level, one choice, or no bot table */
};

/* One decision to make. */
struct bot_ask {
    const struct game_ops *game;
    const void *state; /* the position, borrowed; never written */
    int nseats;
    int seat; /* the seat that decides; it may act now */
    struct bot_budget budget;
    bool random;                   /* the random bot: a uniform pick, no search */
    uint8_t seed[GAME_SEED_BYTES]; /* the bot's generator */
    const atomic_int *stop;        /* when set (non-zero), stop searching; may be NULL */
};

/* The action the bot takes for ask->seat: a new reference to one of the
 * actions legal() lists for it, or NULL when it has none or memory ran
 * out. Fills *ret_stats (may be NULL). With the same ask (seed included),
 * a budget of passes alone and a position whose view for the seat is the
 * same, the answer is the same. */
json_t *bot_decide(const struct bot_ask *ask, struct bot_stats *ret_stats);

/* ---- Searching away from the loop (pool.c) ---- */

struct bot_pool;
struct uv_loop_s;

/* A decision the pool makes for its owner. The owner fills `ask` (with a
 * state of its own in `state`, freed with the job) and `owner`; the pool
 * fills `action` and `stats` and hands the job back through `done`. */
struct bot_job {
    struct bot_ask ask;
    void *state; /* ask.state, owned by the job */
    atomic_int stop;
    json_t *action; /* the answer (new reference) or NULL */
    struct bot_stats stats;
    /* The owner's own: which room, at which revision. */
    char room[16];
    uint64_t room_serial;
    int64_t rev;
    struct bot_job *next; /* the pool's queue */
};

/* Called on the loop's thread with a finished job; the callee owns it
 * (bot_job_free). */
typedef void (*bot_done_cb)(void *ud, struct bot_job *job);

/* A pool that runs at most `max_running` searches at a time on libuv's
 * thread pool (the rest wait in order), so that searches never hold every
 * thread the journal needs. NULL on ENOMEM. */
struct bot_pool *bot_pool_new(struct uv_loop_s *loop, unsigned max_running, bot_done_cb done,
                              void *ud);

/* Queues `job` (taken): it comes back through `done`, with an answer
 * unless it was stopped or could not be run. */
void bot_pool_submit(struct bot_pool *pool, struct bot_job *job);

/* Asks every queued and running search to stop soon; their jobs still
 * come back through `done`, without an answer. */
void bot_pool_stop_all(struct bot_pool *pool);

/* Jobs queued or running. */
unsigned bot_pool_pending(const struct bot_pool *pool);

/* Frees a pool with no pending job. */
void bot_pool_free(struct bot_pool *pool);

/* A new job deciding for `seat` at `state` (copied). NULL on ENOMEM. */
struct bot_job *bot_job_new(const struct game_ops *game, const void *state, int nseats, int seat,
                            enum bot_level level);

void bot_job_free(struct bot_job *job);

#endif
