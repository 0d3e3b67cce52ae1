/* SPDX-License-Identifier: MIT */
/*
 * job.c - a decision to be made away from the loop: the question (with its
 * own copy of the position and a fresh generator seed) and, once made, the
 * answer.
 */
#include "bot.h"

#include <stdlib.h>
#include <string.h>

#include <sodium.h>

struct bot_job *bot_job_new(const struct game_ops *game, const void *state, int nseats, int seat,
                            enum bot_level level)
{
    struct bot_job *job = calloc(1, sizeof(*job));

    if (!job || !(job->state = malloc(game->state_size))) {
        free(job);
        return NULL;
    }
    memcpy(job->state, state, game->state_size);
    job->ask.game = game;
    job->ask.state = job->state;
    job->ask.nseats = nseats;
    job->ask.seat = seat;
    job->ask.budget = bot_level_budget(level);
    job->ask.random = level == BOT_RANDOM;
    job->ask.stop = &job->stop;
    randombytes_buf(job->ask.seed, sizeof(job->ask.seed));
    atomic_init(&job->stop, 0);
    return job;
}

void bot_job_free(struct bot_job *job)
{
    if (job) {
        json_decref(job->action);
        free(job->state);
        free(job);
    }
}
