/* SPDX-License-Identifier: MIT */
/*
 * pool.c - bot searches on libuv's thread pool, never on the loop.
 *
 * Each job owns a copy of the position, so the loop may change or free the
 * room while its search runs; the owner checks on return whether the answer
 * still applies (the room's rev). At most `max_running` jobs run at a
 * time: libuv's pool has few threads and the journal's writes need them
 * too, so the rest wait here in order.
 */
#include "bot.h"

#include <stdlib.h>
#include <string.h>

#include <uv.h>

struct running {
    uv_work_t req;
    struct bot_job *job;
    struct bot_pool *pool;
    struct running *next; /* the pool's running list */
};

struct bot_pool {
    uv_loop_t *loop;
    unsigned max_running;
    unsigned running;
    unsigned queued;
    struct bot_job *head, *tail; /* waiting to run */
    struct running *run;         /* running */
    bot_done_cb done;
    void *ud;
};

struct bot_pool *bot_pool_new(uv_loop_t *loop, unsigned max_running, bot_done_cb done, void *ud)
{
    struct bot_pool *pool = calloc(1, sizeof(*pool));

    if (pool) {
        pool->loop = loop;
        pool->max_running = max_running ? max_running : 1;
        pool->done = done;
        pool->ud = ud;
    }
    return pool;
}

static void work(uv_work_t *req)
{
    struct bot_job *job = ((struct running *)req->data)->job;

    if (!atomic_load(&job->stop)) {
        job->action = bot_decide(&job->ask, &job->stats);
    }
}

static void start_next(struct bot_pool *pool);

static void after_work(uv_work_t *req, int status)
{
    struct running *r = req->data;
    struct bot_pool *pool = r->pool;
    struct bot_job *job = r->job;

    (void)status; /* a cancelled job comes back without an answer */
    for (struct running **p = &pool->run; *p; p = &(*p)->next) {
        if (*p == r) {
            *p = r->next;
            break;
        }
    }
    free(r);
    pool->running--;
    start_next(pool);
    pool->done(pool->ud, job);
}

/* Starts waiting jobs while fewer than max_running run. */
static void start_next(struct bot_pool *pool)
{
    while (pool->head && pool->running < pool->max_running) {
        struct bot_job *job = pool->head;
        struct running *r = calloc(1, sizeof(*r));
        if (!r) {
            return; /* tried again when a running job ends */
        }
        pool->head = job->next;
        if (!pool->head) {
            pool->tail = NULL;
        }
        pool->queued--;
        job->next = NULL;
        r->job = job;
        r->pool = pool;
        r->req.data = r;
        if (uv_queue_work(pool->loop, &r->req, work, after_work) != 0) {
            free(r);
            pool->done(pool->ud, job);
            continue;
        }
        pool->running++;
        r->next = pool->run;
        pool->run = r;
    }
}

void bot_pool_submit(struct bot_pool *pool, struct bot_job *job)
{
    job->next = NULL;
    if (pool->tail) {
        pool->tail->next = job;
    } else {
        pool->head = job;
    }
    pool->tail = job;
    pool->queued++;
    start_next(pool);
}

void bot_pool_stop_all(struct bot_pool *pool)
{
    /* Waiting jobs go back at once; running ones see `stop` and finish. */
    while (pool->head) {
        struct bot_job *job = pool->head;
        pool->head = job->next;
        pool->queued--;
        atomic_store(&job->stop, 1);
        pool->done(pool->ud, job);
    }
    pool->tail = NULL;
    for (struct running *r = pool->run; r; r = r->next) {
        atomic_store(&r->job->stop, 1);
    }
}

unsigned bot_pool_pending(const struct bot_pool *pool)
{
    return pool->running + pool->queued;
}

void bot_pool_free(struct bot_pool *pool)
{
    free(pool);
}
