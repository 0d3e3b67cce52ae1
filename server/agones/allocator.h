/* SPDX-License-Identifier: MIT */
/*
 * allocator.h - where in the fleet a room lives: a client of the Agones
 * allocator service's REST API (POST /gameserverallocation, Agones 1.56
 * allocation.swagger.json), over HTTPS with a client certificate (mTLS)
 * or plain HTTP, on the server's libuv loop (libwebsockets).
 *
 * Each game server of the fleet keeps the codes of the rooms it holds in
 * its `rooms` List (agones.h), so the allocation whose selectors require
 * that List to contain a code (an Allocated server first, then a Ready
 * one) answers with the one server that holds it. The allocator answers
 * 429 when no server matches.
 */
#ifndef CONCLAVE_ALLOCATOR_H
#define CONCLAVE_ALLOCATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#define ALLOCATOR_ADDR_MAX 300 /* "host:port", with room for a DNS name */

struct allocator_config {
    char url[256];       /* https://HOST:PORT or http://HOST:PORT */
    char cert[256];      /* client certificate (PEM), for mTLS; may be empty */
    char key[256];       /* its private key (PEM) */
    char ca[256];        /* the CA that signed the allocator's certificate */
    char ns[64];         /* the fleet's namespace */
    char fleet[64];      /* the fleet's name (label agones.dev/fleet) */
    char self[128];      /* this game server's name (its pod's $HOSTNAME) */
    char game_port[32];  /* the name of the game server's TCP protocol port */
    char http_port[32];  /* ... and of its HTTP/WebSocket port */
    uint64_t timeout_ms; /* one lookup at most */
};

enum allocator_answer {
    ALLOCATOR_FOUND,     /* another server of the fleet holds the room */
    ALLOCATOR_NOT_FOUND, /* no server does (or only this one) */
    ALLOCATOR_FAILED,    /* the allocator could not be asked, or answered nonsense */
};

/* The answer to one lookup. `server` and `web` ("host:port"; `web` may be
 * empty when the server has no HTTP port) are set for ALLOCATOR_FOUND. */
typedef void (*allocator_done_fn)(void *arg, enum allocator_answer answer, const char *server,
                                  const char *web);

struct allocator;
struct allocator_query;

/* A client for `cfg` (copied). NULL with a reason in `err` (256 bytes) when
 * the URL is not one it can use or its TLS files cannot be loaded. */
struct allocator *allocator_new(uv_loop_t *loop, const struct allocator_config *cfg, char *err);

/* Looks up room `code`: `done` is called once, later, from the loop (never
 * inside this call), unless the query is cancelled first. NULL when too
 * many lookups are under way. */
struct allocator_query *allocator_find(struct allocator *a, const char *code,
                                       allocator_done_fn done, void *arg);

/* `done` will not be called for `q`. */
void allocator_cancel(struct allocator_query *q);

/* The lookups since the start, by answer, and those under way, for
 * /metrics. */
struct allocator_stats {
    uint64_t answers[3]; /* by enum allocator_answer */
    unsigned pending;
};

void allocator_stats(const struct allocator *a, struct allocator_stats *ret);

/* Cancels every lookup and closes the client's handles (the loop then
 * ends); free after the loop. */
void allocator_close(struct allocator *a);
void allocator_free(struct allocator *a);

#endif
