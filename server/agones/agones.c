/* SPDX-License-Identifier: MIT */
/*
 * agones.c - the Agones SDK sidecar's REST API, spoken over plain HTTP/1.1
 * to localhost (see agones.h). The endpoints are those of the Agones SDK
 * REST gateway (sdk.swagger.json and beta.swagger.json of Agones 1.56):
 *   POST  /ready                              {}
 *   POST  /health                             {}
 *   PATCH /v1beta1/counters/rooms             {"count": "N"}
 *   POST  /v1beta1/lists/rooms:addValue       {"value": "CODE"}
 *   POST  /v1beta1/lists/rooms:removeValue    {"value": "CODE"}
 *   POST  /shutdown                           {}
 */
#include "agones.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

#define REQ_TIMEOUT_MS 5000
#define RETRY_MS 1000

enum req_kind {
    REQ_READY,
    REQ_HEALTH,
    REQ_COUNT,
    REQ_ADD,
    REQ_REMOVE,
    REQ_SHUTDOWN,
};

struct req {
    struct agones *ag;
    enum req_kind kind;
    uv_tcp_t tcp;
    uv_connect_t connect;
    uv_write_t write;
    uv_timer_t timer;
    int open_handles;
    char out[512];
    size_t outlen;
    char in[512];
    size_t inlen;
    char code[AGONES_CODE_LEN + 1];
    long long count;
    bool ok;
};

struct agones {
    uv_loop_t *loop;
    struct agones_config cfg;
    uv_timer_t health;
    uv_timer_t retry;
    bool ready_wanted, ready_done;
    bool health_due;
    bool shutdown_wanted, finished, closing;
    bool retrying;
    void (*done)(void *ud);
    void *ud;
    /* What the server holds, and what the sidecar has acknowledged. */
    char (*want)[AGONES_CODE_LEN + 1];
    size_t nwant, capwant;
    char (*told)[AGONES_CODE_LEN + 1];
    size_t ntold, captold;
    long long told_count; /* -1: not told yet */
    struct req *cur;
};

static void next(struct agones *ag);

static bool has(char (*set)[AGONES_CODE_LEN + 1], size_t n, const char *code)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(set[i], code) == 0) {
            return true;
        }
    }
    return false;
}

static int grow(void *p, size_t *cap, size_t need)
{
    char(**set)[AGONES_CODE_LEN + 1] = p;
    if (need <= *cap) {
        return 0;
    }
    size_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < need) {
        ncap *= 2;
    }
    void *np = realloc(*set, ncap * sizeof(**set));
    if (!np) {
        return -1;
    }
    *set = np;
    *cap = ncap;
    return 0;
}

static const char *kind_path(const struct req *r, const char **method)
{
    *method = "POST";
    switch (r->kind) {
    case REQ_READY:
        return "/ready";
    case REQ_HEALTH:
        return "/health";
    case REQ_COUNT:
        *method = "PATCH";
        return "/v1beta1/counters/rooms";
    case REQ_ADD:
        return "/v1beta1/lists/rooms:addValue";
    case REQ_REMOVE:
        return "/v1beta1/lists/rooms:removeValue";
    default:
        return "/shutdown";
    }
}

/* What a request changed once the sidecar acknowledged it. */
static void applied(struct agones *ag, const struct req *r)
{
    switch (r->kind) {
    case REQ_READY:
        ag->ready_done = true;
        log_event(LOG_INFO, "agones_ready", "port=%d", ag->cfg.port);
        break;
    case REQ_HEALTH:
        break;
    case REQ_COUNT:
        ag->told_count = r->count;
        break;
    case REQ_ADD:
        if (grow(&ag->told, &ag->captold, ag->ntold + 1) == 0) {
            memcpy(ag->told[ag->ntold++], r->code, sizeof(r->code));
        }
        break;
    case REQ_REMOVE:
        for (size_t i = 0; i < ag->ntold; i++) {
            if (strcmp(ag->told[i], r->code) == 0) {
                memcpy(ag->told[i], ag->told[--ag->ntold], sizeof(r->code));
                break;
            }
        }
        break;
    case REQ_SHUTDOWN:
        break;
    }
}

static void on_retry(uv_timer_t *t)
{
    struct agones *ag = t->data;

    ag->retrying = false;
    next(ag);
}

static void req_finish(struct req *r)
{
    struct agones *ag = r->ag;
    bool ok = r->ok;
    enum req_kind kind = r->kind;

    ag->cur = NULL;
    if (ok) {
        applied(ag, r);
    } else {
        const char *method;
        const char *path = kind_path(r, &method);
        log_event(LOG_WARN, "agones_request_failed", "method=%s path=%s", method, path);
    }
    free(r);
    if (kind == REQ_SHUTDOWN) {
        ag->finished = true;
        if (ag->done) {
            ag->done(ag->ud);
        }
        return;
    }
    if (kind == REQ_HEALTH && ok) {
        ag->health_due = false;
    }
    if (!ok && !ag->closing) {
        ag->retrying = true;
        uv_timer_start(&ag->retry, on_retry, RETRY_MS, 0);
        return;
    }
    next(ag);
}

static void on_req_close(uv_handle_t *h)
{
    struct req *r = h->data;

    if (--r->open_handles == 0) {
        req_finish(r);
    }
}

static void req_close(struct req *r)
{
    if (!uv_is_closing((uv_handle_t *)&r->tcp)) {
        uv_close((uv_handle_t *)&r->tcp, on_req_close);
        uv_close((uv_handle_t *)&r->timer, on_req_close);
    }
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    struct req *r = h->data;
    (void)suggested;
    if (r->inlen >= sizeof(r->in) - 1) {
        r->inlen = 0; /* only the status line matters; it came first */
    }
    *buf = uv_buf_init(r->in + r->inlen, (unsigned)(sizeof(r->in) - 1 - r->inlen));
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct req *r = s->data;
    (void)buf;

    if (n > 0) {
        if (!r->ok && r->inlen == 0 && n >= 12) {
            /* "HTTP/1.1 200 ..." */
            r->ok = strncmp(r->in, "HTTP/1.", 7) == 0 && strncmp(r->in + 9, "200", 3) == 0;
        }
        r->inlen += (size_t)n;
        return;
    }
    if (n < 0) {
        req_close(r); /* the end of the answer (Connection: close), or an error */
    }
}

static void on_write(uv_write_t *w, int status)
{
    struct req *r = w->data;

    if (status != 0 || uv_read_start((uv_stream_t *)&r->tcp, on_alloc, on_read) != 0) {
        req_close(r);
    }
}

static void on_connect(uv_connect_t *c, int status)
{
    struct req *r = c->data;

    if (status != 0) {
        req_close(r);
        return;
    }
    uv_buf_t b = uv_buf_init(r->out, (unsigned)r->outlen);
    r->write.data = r;
    if (uv_write(&r->write, (uv_stream_t *)&r->tcp, &b, 1, on_write) != 0) {
        req_close(r);
    }
}

static void on_timeout(uv_timer_t *t)
{
    req_close(t->data);
}

static void send_req(struct agones *ag, enum req_kind kind, const char *code, long long count)
{
    struct req *r = calloc(1, sizeof(*r));
    struct sockaddr_in addr;
    char body[64];
    const char *method;

    if (!r) {
        ag->retrying = true;
        uv_timer_start(&ag->retry, on_retry, RETRY_MS, 0);
        return;
    }
    r->ag = ag;
    r->kind = kind;
    if (code) {
        snprintf(r->code, sizeof(r->code), "%s", code);
    }
    r->count = count;
    if (kind == REQ_COUNT) {
        snprintf(body, sizeof(body), "{\"count\":\"%lld\"}", count);
    } else if (kind == REQ_ADD || kind == REQ_REMOVE) {
        snprintf(body, sizeof(body), "{\"value\":\"%s\"}", r->code);
    } else {
        snprintf(body, sizeof(body), "{}");
    }
    const char *path = kind_path(r, &method);
    int n = snprintf(r->out, sizeof(r->out),
                     "%s %s HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                     method, path, ag->cfg.host, ag->cfg.port, strlen(body), body);
    r->outlen = n > 0 && (size_t)n < sizeof(r->out) ? (size_t)n : 0;
    ag->cur = r;
    uv_tcp_init(ag->loop, &r->tcp);
    uv_timer_init(ag->loop, &r->timer);
    r->open_handles = 2;
    r->tcp.data = r;
    r->timer.data = r;
    r->connect.data = r;
    uv_timer_start(&r->timer, on_timeout, REQ_TIMEOUT_MS, 0);
    if (uv_ip4_addr(ag->cfg.host, ag->cfg.port, &addr) != 0 ||
        uv_tcp_connect(&r->connect, &r->tcp, (const struct sockaddr *)&addr, on_connect) != 0) {
        req_close(r);
    }
}

/* Sends the next thing the sidecar should hear, if nothing is in flight. */
static void next(struct agones *ag)
{
    if (ag->cur || ag->finished || ag->closing || ag->retrying) {
        return;
    }
    if (ag->shutdown_wanted) {
        send_req(ag, REQ_SHUTDOWN, NULL, 0);
        return;
    }
    if (ag->ready_wanted && !ag->ready_done) {
        send_req(ag, REQ_READY, NULL, 0);
        return;
    }
    if (!ag->ready_done) {
        return;
    }
    if (ag->health_due) {
        send_req(ag, REQ_HEALTH, NULL, 0);
        return;
    }
    for (size_t i = 0; i < ag->ntold; i++) {
        if (!has(ag->want, ag->nwant, ag->told[i])) {
            send_req(ag, REQ_REMOVE, ag->told[i], 0);
            return;
        }
    }
    for (size_t i = 0; i < ag->nwant; i++) {
        if (!has(ag->told, ag->ntold, ag->want[i])) {
            send_req(ag, REQ_ADD, ag->want[i], 0);
            return;
        }
    }
    if (ag->told_count != (long long)ag->nwant) {
        send_req(ag, REQ_COUNT, NULL, (long long)ag->nwant);
    }
}

static void on_health(uv_timer_t *t)
{
    struct agones *ag = t->data;

    ag->health_due = true;
    next(ag);
}

struct agones *agones_new(uv_loop_t *loop, const struct agones_config *cfg)
{
    struct agones *ag = calloc(1, sizeof(*ag));

    if (!ag) {
        return NULL;
    }
    ag->loop = loop;
    ag->cfg = *cfg;
    ag->told_count = -1;
    uv_timer_init(loop, &ag->health);
    uv_timer_init(loop, &ag->retry);
    ag->health.data = ag;
    ag->retry.data = ag;
    return ag;
}

void agones_ready(struct agones *ag)
{
    ag->ready_wanted = true;
    uv_timer_start(&ag->health, on_health, ag->cfg.health_ms, ag->cfg.health_ms);
    next(ag);
}

void agones_rooms(struct agones *ag, const char (*codes)[AGONES_CODE_LEN + 1], size_t n)
{
    if (grow(&ag->want, &ag->capwant, n) != 0) {
        return; /* kept as it was; tried again at the next call */
    }
    if (n > 0) {
        memcpy(ag->want, codes, n * sizeof(*codes));
    }
    ag->nwant = n;
    next(ag);
}

void agones_shutdown(struct agones *ag, void (*done)(void *ud), void *ud)
{
    ag->shutdown_wanted = true;
    ag->done = done;
    ag->ud = ud;
    uv_timer_stop(&ag->health);
    if (ag->retrying) {
        uv_timer_stop(&ag->retry);
        ag->retrying = false;
    }
    next(ag);
}

void agones_close(struct agones *ag)
{
    ag->closing = true;
    uv_close((uv_handle_t *)&ag->health, NULL);
    uv_close((uv_handle_t *)&ag->retry, NULL);
    if (ag->cur) {
        req_close(ag->cur);
    }
}

void agones_free(struct agones *ag)
{
    if (ag) {
        free(ag->want);
        free(ag->told);
        free(ag);
    }
}
