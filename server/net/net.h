/* SPDX-License-Identifier: MIT */
/*
 * net.h - the TCP side of conclaved: the listener, connections (read ->
 * framer -> session; bounded write queue; idle and hello timeouts), the
 * connection limits and the timer that runs the sessions' due work (bot
 * moves, room expiry). This module and main.c are the only users of libuv;
 * it reaches the rest of the server only through session.h.
 */
#ifndef CONCLAVE_NET_H
#define CONCLAVE_NET_H

#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "session.h"

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

#endif
