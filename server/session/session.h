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

/* The answer of a lookup in the fleet (struct sess_finder). */
enum sess_found {
    SESS_FOUND_ELSEWHERE, /* another server holds the room */
    SESS_FOUND_NOWHERE,   /* no server does */
    SESS_FOUND_UNKNOWN,   /* the fleet could not be asked */
};

struct sess;

/* Where rooms this server does not hold are looked for: the other servers
 * of a fleet. `find` starts a lookup of room `code` for `s` and returns a
 * handle (NULL when it cannot start one); its answer comes later, from the
 * loop, through sess_found(), unless `cancel` is called first. */
struct sess_finder {
    void *(*find)(void *ctx, const char *code, struct sess *s);
    void (*cancel)(void *ctx, void *handle);
    void *ctx;
};

/* Request lines that arrive while a lookup is under way wait for its
 * answer, so that replies keep the order of requests; beyond these bounds
 * a line is refused at once with rate_limited. */
#define SESS_WAIT_LINES 32
#define SESS_WAIT_BYTES (256 * 1024)

struct sess_line;

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
    const struct sess_finder *finder; /* the hub's, or NULL */
    void *finding;                    /* the finder's handle while a lookup is under way */
    json_t *find_id;                  /* the id of the request it answers */
    char find_code[PROTO_ROOM_CODE_LEN + 1];
    struct sess_line *waiting, *waiting_last; /* lines that arrived meanwhile */
    size_t nwaiting, waiting_bytes;
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

/* The answer of the lookup that `s`'s finder started: the request gets
 * room_elsewhere (with `server` and `web`, "host:port"), room_not_found or
 * server_busy, and the lines that waited are handled. */
void sess_found(struct sess *s, enum sess_found answer, const char *server, const char *web);

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
    const struct sess_finder *finder;
};

/* Initialises `hub` (caller memory). `lobby` and `cfg` are borrowed and must
 * outlive the hub and every session opened on it. */
void sess_hub_init(struct sess_hub *hub, struct lobby *lobby, const struct sess_config *cfg);

/* Initialises `s` (caller memory) as a session of `hub`, as sess_init()
 * does. `hub`, `io` and `io_ctx` are borrowed and must outlive the session. */
void sess_hub_open(struct sess_hub *hub, struct sess *s, uint64_t id, const struct sess_io *io,
                   void *io_ctx, uint64_t now);

/* A game's record sent as JSON text, reviewed at `rev` (-1: its last):
 * lobby_review_text(). */
int sess_hub_review(struct sess_hub *hub, const char *body, size_t len, int64_t rev, uint64_t now,
                    char **ret_text, size_t *ret_len);

/* Rooms this server does not hold are looked for through `finder`
 * (borrowed; NULL: nowhere) by the sessions opened from now on. */
void sess_hub_set_finder(struct sess_hub *hub, const struct sess_finder *finder);

/* Runs the work due at `now` (bot moves, room expiry); it may send lines to
 * sessions and ask for connections to be closed. Returns the absolute time
 * of the next due item, or UINT64_MAX when nothing is scheduled. */
uint64_t sess_hub_run_due(struct sess_hub *hub, uint64_t now);

/* No work is due before the returned time (UINT64_MAX: none). Costs no
 * walk over the rooms; it may be early, never late. */
uint64_t sess_hub_next_due(const struct sess_hub *hub);

#endif
