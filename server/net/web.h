/* SPDX-License-Identifier: MIT */
/*
 * web.h - HTTP and WebSocket on the server's own libuv loop, through
 * libwebsockets: the browser client's files (embedded at build time, or
 * read from a directory), /healthz, /metrics, and protocol v1 over WebSocket
 * (subprotocol "conclave.v1", one text frame per line) into the same
 * sessions, limits and close rules as TCP (net.h).
 */
#ifndef CONCLAVE_WEB_H
#define CONCLAVE_WEB_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "net.h"

#define WEB_SUBPROTOCOL "conclave.v1"
#define WEB_ORIGINS_MAX 8

struct web_config {
    char host[256];
    int port;
    char web_dir[PATH_MAX];  /* serve the page's files from here; "" = embedded */
    char tls_cert[PATH_MAX]; /* PEM; with tls_key, HTTPS and WSS */
    char tls_key[PATH_MAX];
    /* Origins allowed to open a WebSocket besides the page's own (the Host
     * the request was sent to), e.g. "https://games.example.org". */
    char origins[WEB_ORIGINS_MAX][256];
    unsigned norigins;
    /* GET /metrics: writes the Prometheus text exposition into a new
     * buffer (*ret_text, freed with free()); 0, or -1 (the answer is then
     * 500). NULL: /metrics is not found. */
    int (*metrics)(void *ctx, char **ret_text, size_t *ret_len);
    void *metrics_ctx;
    /* POST /review: bytes of records a second one client address may send
     * (bursts of twice that, and a record at most WEB_POST_MAX). */
    size_t review_rate;
};

/* One file of the page: its path under / and its bytes. */
struct web_asset {
    const char *path; /* "/index.html" */
    const unsigned char *data;
    size_t len;
};

/* The embedded files (web_assets.c, generated from web/ at build time). */
extern const struct web_asset web_assets[];
extern const size_t web_nassets;

struct web_server;

/* Starts HTTP (HTTPS with a certificate) on cfg->host:cfg->port; its
 * WebSocket connections are sessions of `net`'s hub, counted by `net`'s
 * connection limits. Writes the URL served, "http://HOST:PORT/", into
 * `url`. Returns 0, or -1 after logging why: the loop then holds handles
 * of a context libwebsockets has already torn down, and must not be run
 * again (the process leaves). Borrowed pointers must outlive the server. */
int web_server_start(uv_loop_t *loop, const struct web_config *cfg, struct net_server *net,
                     struct web_server **ret, char *url, size_t urllen);

/* Stops taking connections and closes every WebSocket after its queued
 * lines are sent (forcibly after `grace_ms`); then libwebsockets leaves the
 * loop. */
void web_server_stop(struct web_server *web, uint64_t grace_ms);

/* Frees the server once the loop has finished. Accepts NULL. */
void web_server_free(struct web_server *web);

#endif
