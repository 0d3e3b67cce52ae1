/* SPDX-License-Identifier: MIT */
/*
 * notify.h - notices to a player who is not there: a small JSON POST to the
 * URL a seat gave (an ntfy topic, a Discord or Matrix webhook, any HTTP(S)
 * endpoint), sent by a client-only libwebsockets context on the server's
 * loop. A notice is sent once, or dropped with a log line: it is a nudge,
 * never a record.
 *
 * Where a notice may go: with an allow list (--notify-allow), only to its
 * hosts; without one, to any host whose addresses are all public, looked
 * up before the connection (so that a seat cannot make the server reach
 * its own network: loopback, private, link-local, shared or multicast
 * addresses are refused, by name or by number).
 */
#ifndef CONCLAVE_NOTIFY_H
#define CONCLAVE_NOTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#define NOTIFY_URL_MAX 512
#define NOTIFY_ALLOW_MAX 16

struct notify_config {
    bool off;                               /* --notify off: no notices at all */
    char allow[NOTIFY_ALLOW_MAX][256];      /* hosts notices may go to; none: any public one */
    int nallow;
    uint64_t timeout_ms;                    /* of one POST, connection included */
};

struct notify_stats {
    uint64_t sent, failed, refused, dropped;
};

struct notify;

/* NULL with a reason in err (256 bytes) when the client cannot start. */
struct notify *notify_new(uv_loop_t *loop, const struct notify_config *cfg, char *err);

/* Whether `url` may be given as a seat's notice address: 0, or -1 with
 * the reason in msg (`len` bytes). Checks the form, the scheme and what
 * can be known without a lookup (an allowed host; a number that is not
 * public). */
int notify_check(const struct notify *n, const char *url, char *msg, size_t len);

/* Queues a POST of `body` (`len` bytes of JSON, copied) to `url`. */
void notify_post(struct notify *n, const char *url, const char *body, size_t len);

struct notify_stats notify_stats(const struct notify *n);

/* Stops taking notices and closes what is under way (the loop then runs
 * until the handles are closed); notify_free() afterwards. */
void notify_close(struct notify *n);
void notify_free(struct notify *n);

#endif
