/* SPDX-License-Identifier: MIT */
/*
 * net.h - the transports of conclaved. net.c: the TCP listener,
 * connections (read -> framer -> session; bounded write queue; idle and
 * hello timeouts), the connection limits every transport shares and the
 * timer that runs the sessions' due work (bot moves, room expiry). web.c:
 * HTTP and WebSocket on the same loop (web.h). This module and main.c are
 * the only users of libuv; it reaches the rest of the server only through
 * session.h.
 */
#ifndef CONCLAVE_NET_H
#define CONCLAVE_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "session.h"

/* A graceful close becomes a hard one after this. */
#define NET_GRACE_MS 2000
/* The end of each connection's write-queue bound is kept for the one error
 * line that tells a reader who is cut off why: other lines may fill the
 * queue up to write_queue_max - NET_ERROR_ROOM. */
#define NET_ERROR_ROOM 256

struct net_config {
    char host[256];
    int port;
    size_t max_line;        /* bytes per request line */
    size_t write_queue_max; /* unsent bytes per connection before it is cut off */
    unsigned max_conns;
    unsigned max_conns_per_addr;
    unsigned connect_rate; /* new connections per second per address (bursts of twice) */
    uint64_t idle_ms;      /* silence before a connection is closed */
    uint64_t hello_ms;     /* time allowed before hello */
};

struct net_server;

/* Binds and listens on cfg->host:cfg->port; every connection gets a
 * session of `hub`. Writes the bound address as "HOST:PORT" into `bound`
 * (IPv6 hosts in brackets). Returns 0 or a negative libuv error; on error
 * nothing is left open. Borrowed pointers must outlive the server. */
int net_server_start(uv_loop_t *loop, const struct net_config *cfg, struct sess_hub *hub,
                     struct net_server **ret_srv, char *bound, size_t boundlen);

/* Stops accepting, lets every connection finish its writes and closes it
 * (forcibly after `grace_ms`). The loop ends once everything is closed;
 * then call net_server_free(). */
void net_server_stop(struct net_server *srv, uint64_t grace_ms);

/* Frees the server after the loop has finished. Accepts NULL. */
void net_server_free(struct net_server *srv);

/* ---- Shared with the other transports ----
 * One client connection of any transport, as the connection limits count
 * it: --max-connections, --max-per-address and --connect-rate hold for
 * TCP and WebSocket connections together. */
enum net_transport {
    NET_TCP,
    NET_WEBSOCKET,
    NET_NTRANSPORTS,
};

extern const char *const net_transport_names[NET_NTRANSPORTS]; /* "tcp", "websocket" */

struct net_link {
    struct net_link *prev, *next;
    char addr[64]; /* the peer's address, as sess_set_address() got it */
    bool closing;  /* being closed: no longer counted per address */
    enum net_transport transport;
};

/* What the transports have done since the start, for /metrics. */
struct net_stats {
    uint64_t open[NET_NTRANSPORTS];     /* connections open now */
    uint64_t accepted[NET_NTRANSPORTS]; /* connections the limits admitted */
    uint64_t refused[NET_NTRANSPORTS];  /* connections the limits turned away */
    uint64_t bytes_in[NET_NTRANSPORTS]; /* protocol bytes received (WebSocket: message payloads) */
    uint64_t bytes_out[NET_NTRANSPORTS];
};

struct net_stats net_server_stats(const struct net_server *srv);

/* Counts bytes a transport received or sent on a client connection. */
void net_count_bytes(struct net_server *srv, enum net_transport t, size_t in, size_t out);

/* Counts `link` (its `addr` set) as a connection of `srv`. Returns NULL
 * when the limits admit it, else why not (the message of a server_busy
 * error for the client). Either way the link is counted until
 * net_link_remove(). */
const char *net_link_add(struct net_server *srv, struct net_link *link, uint64_t now);

void net_link_remove(struct net_server *srv, struct net_link *link);

/* A new session id, unique among every transport's connections. */
uint64_t net_server_next_id(struct net_server *srv);

/* The session hub and configuration connections of `srv` use. */
struct sess_hub *net_server_hub(struct net_server *srv);
const struct net_config *net_server_config(const struct net_server *srv);

/* After a transport handed requests to its sessions: brings the due-work
 * timer forward if they made work due earlier (a bot's turn, say). */
void net_due_poke(struct net_server *srv);

#endif
