/* SPDX-License-Identifier: MIT */
/*
 * notifier.h - the server's outbound notices: what the lobby asks to tell
 * a seat, sent as a webhook's JSON POST and as Web Push messages (RFC 8291
 * encrypted, RFC 8292 signed) through the outbound HTTP client on the
 * server's loop. The VAPID key pair lives in the data directory.
 */
#ifndef CONCLAVE_NOTIFIER_H
#define CONCLAVE_NOTIFIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

struct lobby_notice_to;

struct notifier_config {
    uv_loop_t *loop;
    const char *key_path;     /* the VAPID key pair (PEM), made when absent */
    const char *const *allow; /* the only hosts notices go to (NULL-terminated); NULL: any public */
    const char *ca_file;      /* certificates to trust; NULL: the system's */
    const char *contact;      /* VAPID "sub": mailto: or https: of the operator */
    uint64_t timeout_ms;      /* one delivery's time; 0: the client's default */
};

/* A push service said subscription `endpoint` of seat `seat` in room
 * `room` is gone (404 or 410). */
typedef void (*notifier_gone_fn)(void *arg, const char *room, int seat, const char *endpoint);

struct notifier;

/* NULL with a message in `err` when the key pair cannot be read or made,
 * or the client cannot start. */
struct notifier *notifier_new(const struct notifier_config *cfg, notifier_gone_fn gone,
                              void *gone_arg, char *err, size_t errlen);

/* The VAPID public key, base64url: the page's applicationServerKey. */
const char *notifier_push_key(const struct notifier *n);

/* lobby_notifier.check and .send, with the notifier as ctx. */
int notifier_check(void *ctx, const char *url, bool push, char *msg);
void notifier_send(void *ctx, const struct lobby_notice_to *to, const char *body, size_t len);

struct notifier_stats {
    uint64_t webhooks, pushes; /* deliveries asked */
    uint64_t delivered;        /* answered 2xx */
    uint64_t failed;           /* answered otherwise, or not at all */
    uint64_t gone;             /* subscriptions the push service said are gone */
};

void notifier_stats(const struct notifier *n, struct notifier_stats *ret);

/* Stops: deliveries under way are dropped; `closed(arg)` once every handle
 * is closed, when notifier_free() may be called. */
void notifier_close(struct notifier *n, void (*closed)(void *arg), void *arg);
void notifier_free(struct notifier *n);

#endif
