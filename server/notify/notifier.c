/* SPDX-License-Identifier: MIT */
/*
 * notifier.c - notices out (see notifier.h): each target of a notice is one
 * POST of the outbound client. A webhook gets the notice's JSON as it is,
 * with the headers ntfy reads for its title, text and link (the others
 * ignore them); a push subscription gets it encrypted to its keys
 * (aes128gcm) and signed for its push service's origin (VAPID).
 */
#include "notifier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "httpc.h"
#include "lobby.h"
#include "log.h"
#include "webpush.h"

/* How long a push service keeps a message for a browser that is off (s). */
#define PUSH_TTL_S 86400
/* A VAPID token's life: the push service accepts at most a day. */
#define VAPID_LIFE_S (12 * 3600)

struct notifier {
    struct httpc *http;
    struct notify_vapid *vapid;
    char contact[256];
    notifier_gone_fn gone;
    void *gone_arg;
    struct notifier_stats stats;
    void (*closed)(void *arg);
    void *closed_arg;
};

/* One delivery under way. */
struct delivery {
    struct notifier *n;
    bool push;
    int seat;
    char room[16];
    char endpoint[]; /* a push's, to drop it when it is gone */
};

struct notifier *notifier_new(const struct notifier_config *cfg, notifier_gone_fn gone,
                              void *gone_arg, char *err, size_t errlen)
{
    struct notifier *n = calloc(1, sizeof(*n));
    struct httpc_config hc = {
        .loop = cfg->loop,
        .ca_file = cfg->ca_file,
        .allow = cfg->allow,
        .timeout_ms = cfg->timeout_ms,
    };

    if (!n) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    n->gone = gone;
    n->gone_arg = gone_arg;
    snprintf(n->contact, sizeof(n->contact), "%s", cfg->contact);
    n->vapid = notify_vapid_open(cfg->key_path, err, errlen);
    if (!n->vapid) {
        free(n);
        return NULL;
    }
    n->http = httpc_new(&hc);
    if (!n->http) {
        snprintf(err, errlen, "the outbound HTTP client did not start");
        notify_vapid_free(n->vapid);
        free(n);
        return NULL;
    }
    return n;
}

const char *notifier_push_key(const struct notifier *n)
{
    return notify_vapid_public_key(n->vapid);
}

int notifier_check(void *ctx, const char *url, bool push, char *msg)
{
    struct notifier *n = ctx;

    return httpc_url_check(n->http, url, push, msg, GAME_MSG_MAX);
}

static void delivered(void *arg, int status)
{
    struct delivery *d = arg;
    struct notifier *n = d->n;

    if (status >= 200 && status < 300) {
        n->stats.delivered++;
    } else {
        n->stats.failed++;
        log_event(LOG_INFO, "notice_not_delivered", "room=%s seat=%d to=%s status=%d cause=%s",
                  d->room, d->seat, d->push ? "push" : "webhook", status,
                  status < 0 ? httpc_strerror(status) : "answer");
    }
    /* 404 and 410: the subscription expired or was taken back. */
    if (d->push && (status == 404 || status == 410)) {
        n->stats.gone++;
        if (n->gone) {
            n->gone(n->gone_arg, d->room, d->seat, d->endpoint);
        }
    }
    free(d);
}

/* POSTs `body` to `url` for seat `to`: false when it could not start. */
static bool post(struct notifier *n, const struct lobby_notice_to *to, bool push, const char *url,
                 const char *const *headers, const void *body, size_t len)
{
    size_t elen = push ? strlen(url) + 1 : 1;
    struct delivery *d = malloc(sizeof(*d) + elen);
    int rc;

    if (!d) {
        return false;
    }
    d->n = n;
    d->push = push;
    d->seat = to->seat;
    snprintf(d->room, sizeof(d->room), "%s", to->room);
    memcpy(d->endpoint, push ? url : "", elen);
    rc = httpc_post(n->http, url, headers, body, len, delivered, d);
    if (rc != 0) {
        log_event(LOG_INFO, "notice_not_sent", "room=%s seat=%d to=%s cause=%s", to->room, to->seat,
                  push ? "push" : "webhook", httpc_strerror(rc));
        n->stats.failed++;
        free(d);
        return false;
    }
    return true;
}

static void webhook(struct notifier *n, const struct lobby_notice_to *to, const char *body,
                    size_t len)
{
    /* ntfy fills its title and message from the body's members. */
    static const char *const headers[] = {"Content-Type: application/json", "X-Template: yes",
                                          "X-Title: {{.title}}", "X-Message: {{.text}}", NULL};

    n->stats.webhooks++;
    (void)post(n, to, false, to->webhook, headers, body, len);
}

static void push(struct notifier *n, const struct lobby_notice_to *to,
                 const struct lobby_push_sub *sub, const char *body, size_t len)
{
    unsigned char out[NOTIFY_BODY_MAX];
    size_t outlen = sizeof(out);
    char *auth = NULL;
    char ttl[32];
    int rc;

    n->stats.pushes++;
    rc = notify_webpush_encrypt(sub->p256dh, sub->auth, (const unsigned char *)body, len, out,
                                &outlen);
    if (rc == 0) {
        rc = notify_vapid_authorization(n->vapid, sub->endpoint, n->contact,
                                        (long long)time(NULL) + VAPID_LIFE_S, &auth);
    }
    if (rc != 0) {
        n->stats.failed++;
        log_event(LOG_INFO, "notice_not_sent", "room=%s seat=%d to=push cause=%s", to->room,
                  to->seat, notify_strerror(rc));
        return;
    }
    size_t alen = strlen("Authorization: ") + strlen(auth) + 1;
    char *authorization = malloc(alen);
    if (authorization) {
        snprintf(authorization, alen, "Authorization: %s", auth);
        snprintf(ttl, sizeof(ttl), "TTL: %d", PUSH_TTL_S);
        const char *const headers[] = {authorization,
                                       ttl,
                                       "Urgency: normal",
                                       "Content-Encoding: aes128gcm",
                                       "Content-Type: application/octet-stream",
                                       NULL};
        (void)post(n, to, true, sub->endpoint, headers, out, outlen);
    } else {
        n->stats.failed++;
    }
    free(authorization);
    free(auth);
}

void notifier_send(void *ctx, const struct lobby_notice_to *to, const char *body, size_t len)
{
    struct notifier *n = ctx;

    if (to->webhook) {
        webhook(n, to, body, len);
    }
    for (size_t i = 0; i < to->npush; i++) {
        push(n, to, &to->push[i], body, len);
    }
}

void notifier_stats(const struct notifier *n, struct notifier_stats *ret)
{
    *ret = n->stats;
}

static void http_closed(void *arg)
{
    struct notifier *n = arg;

    if (n->closed) {
        n->closed(n->closed_arg);
    }
}

void notifier_close(struct notifier *n, void (*closed)(void *arg), void *arg)
{
    n->closed = closed;
    n->closed_arg = arg;
    httpc_close(n->http, http_closed, n);
}

void notifier_free(struct notifier *n)
{
    if (!n) {
        return;
    }
    httpc_free(n->http);
    notify_vapid_free(n->vapid);
    free(n);
}
