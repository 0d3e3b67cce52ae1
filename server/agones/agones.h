/* SPDX-License-Identifier: MIT */
/*
 * agones.h - conclaved as an Agones game server: a client of the Agones
 * SDK sidecar's REST API (the gateway it serves on localhost, port
 * $AGONES_SDK_HTTP_PORT, 9358 by default), on the server's libuv loop.
 *
 * It says Ready once the server listens, sends Health on a timer, keeps
 * the Counter "rooms" equal to the rooms held and the List "rooms" equal
 * to their codes (so that an allocation can select the server that holds
 * a code), and says Shutdown when asked. Requests go one at a time, in
 * order, each on its own connection; a failed one is logged and tried
 * again, and the Counter and List are brought to what the server holds
 * now rather than replayed step by step.
 */
#ifndef CONCLAVE_AGONES_H
#define CONCLAVE_AGONES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#define AGONES_CODE_LEN 6

struct agones_config {
    char host[64]; /* the sidecar: 127.0.0.1 */
    int port;      /* $AGONES_SDK_HTTP_PORT or 9358 */
    uint64_t health_ms;
};

struct agones;

/* Starts the client (nothing is sent until agones_ready()). NULL on ENOMEM. */
struct agones *agones_new(uv_loop_t *loop, const struct agones_config *cfg);

/* POST /ready, then /health every health_ms. */
void agones_ready(struct agones *ag);

/* The rooms held now (codes of AGONES_CODE_LEN characters, copied): the
 * Counter and the List are brought to them. */
void agones_rooms(struct agones *ag, const char (*codes)[AGONES_CODE_LEN + 1], size_t n);

/* POST /shutdown after whatever is queued; `done` (may be NULL) is called
 * once it is answered or has failed, and no more requests are made. */
void agones_shutdown(struct agones *ag, void (*done)(void *ud), void *ud);

/* Closes its handles (the loop then ends); free after the loop. */
void agones_close(struct agones *ag);
void agones_free(struct agones *ag);

#endif
