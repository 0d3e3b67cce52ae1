/* SPDX-License-Identifier: MIT */
/*
 * session.h - one client session: the protocol state of a connection
 * (hello, name, rate budget) and the dispatch of its requests to the lobby.
 *
 * A session never touches sockets: its transport hands it whole lines and
 * gives it two callbacks, one to send a line and one to close. Every
 * precondition (hello first, rate limit, known op) is checked in one place,
 * sess_handle_line(), before an op's handler runs.
 */
#ifndef CONCLAVE_SESSION_H
#define CONCLAVE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lobby.h"

/* A request line costs one request of the rate budget, and one more for
 * each whole block of this many bytes. */
#define SESS_BYTES_PER_REQUEST 1024

struct sess_config {
    double rate_per_sec;  /* sustained requests per second */
    double rate_burst;    /* bucket size */
    unsigned abuse_limit; /* refusals (net of the refill at rate_per_sec) before a close */
    uint64_t idle_ms;     /* the transport's idle timeout, told to clients in hello */
};

struct sess_io {
    /* Queues one line (copied) for the client. */
    void (*send)(void *ctx, const char *line, size_t len);
    /* Closes the connection after what is queued has been written. */
    void (*close)(void *ctx);
};

/* What the sessions of a hub have answered since the start, for /metrics. */
struct sess_stats {
    uint64_t requests;                      /* request lines handled */
    uint64_t rate_limited;                  /* requests refused for the rate */
    uint64_t refused[PROTO_ERR__COUNT];     /* requests answered with an error, by code */
    uint64_t acts;                          /* `act` requests accepted */
    uint64_t act_refused[PROTO_ERR__COUNT]; /* `act` requests refused, by code */
};

struct sess {
    struct lobby_peer peer;   /* the session as a member of a room */
    struct sess_stats *stats; /* the hub's, or NULL */
    struct lobby *lobby;
    const struct sess_config *cfg;
    const struct sess_io *io;
    void *io_ctx;
    bool hello;
    bool closing;
    double tokens;   /* requests that may run now */
    double patience; /* refusals left before the connection is closed */
    uint64_t last_ms;
};

/* Initialises `s` (caller memory) for a new connection. `cfg`, `io` and
 * `lobby` are borrowed and must outlive the session. */
void sess_init(struct sess *s, uint64_t id, struct lobby *lobby, const struct sess_config *cfg,
               const struct sess_io *io, void *io_ctx, uint64_t now);

/* Records the client's address (for the lobby's per-address limits). */
void sess_set_address(struct sess *s, const char *addr);

/* Handles one request line. May send replies and events through the io
 * callbacks, and may ask for the connection to be closed. */
void sess_handle_line(struct sess *s, const char *line, size_t len, uint64_t now);

/* Sends one message (borrowed) to the client. */
void sess_send_json(struct sess *s, const json_t *msg);

/* The connection is gone: leaves the room as a disconnect. */
void sess_fini(struct sess *s, uint64_t now);

/* ---- Hub ----
 * What the sessions of one server share: the lobby and the session config.
 * A transport reaches the lobby only through the hub: it opens sessions on
 * it and runs the lobby's timed work (bot moves, room expiry) when due. */

struct sess_hub {
    struct lobby *lobby;
    const struct sess_config *cfg;
    struct sess_stats stats;
};

/* Initialises `hub` (caller memory). `lobby` and `cfg` are borrowed and must
 * outlive the hub and every session opened on it. */
void sess_hub_init(struct sess_hub *hub, struct lobby *lobby, const struct sess_config *cfg);

/* Initialises `s` (caller memory) as a session of `hub`, as sess_init()
 * does. `hub`, `io` and `io_ctx` are borrowed and must outlive the session. */
void sess_hub_open(struct sess_hub *hub, struct sess *s, uint64_t id, const struct sess_io *io,
                   void *io_ctx, uint64_t now);

/* Runs the work due at `now` (bot moves, room expiry); it may send lines to
 * sessions and ask for connections to be closed. Returns the absolute time
 * of the next due item, or UINT64_MAX when nothing is scheduled. */
uint64_t sess_hub_run_due(struct sess_hub *hub, uint64_t now);

/* No work is due before the returned time (UINT64_MAX: none). Costs no
 * walk over the rooms; it may be early, never late. */
uint64_t sess_hub_next_due(const struct sess_hub *hub);

#endif
