/* SPDX-License-Identifier: MIT */
/*
 * allocator.c - lookups of a room's server through the Agones allocator
 * service (see allocator.h): one HTTP/1.1 POST per lookup, each on its own
 * connection of a client-only libwebsockets context on the server's loop.
 *
 * A lookup lives in one of a fixed number of slots; the connection knows
 * its slot by a serial number (its opaque user data), never by a pointer,
 * so that a connection that outlives its lookup (timed out, cancelled)
 * finds nothing and is closed. Answers go out from a zero timer of the
 * slot, never from inside allocator_find().
 */
#include "allocator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <libwebsockets.h>

#include "log.h"
#include "lwslog.h"

#define NSLOTS 32
#define BODY_MAX (64 * 1024)
#define PATH "/gameserverallocation"

enum slot_state {
    SLOT_FREE,
    SLOT_ASKING,  /* the request is under way */
    SLOT_ANSWERED /* the answer waits for its timer */
};

struct allocator_query {
    struct allocator *a;
    enum slot_state state;
    uint64_t serial; /* the connection's key; 0: none */
    uv_timer_t timer;
    struct lws *wsi;
    allocator_done_fn done;
    void *arg;
    char code[16];
    char *req;
    size_t reqlen;
    char *body;
    size_t bodylen;
    bool overflow;
    int status; /* HTTP status, 0 before the headers */
    enum allocator_answer answer;
    char server[ALLOCATOR_ADDR_MAX];
    char web[ALLOCATOR_ADDR_MAX];
};

struct allocator {
    struct allocator_config cfg;
    char host[256];
    int port;
    bool tls;
    struct lws_context *ctx;
    uv_timer_t stop_timer;
    bool closing, destroyed;
    uint64_t next_serial;
    uint64_t answers[3]; /* by enum allocator_answer */
    struct allocator_query slots[NSLOTS];
};

/* ---- Answers ---- */

static void query_reset(struct allocator_query *q)
{
    free(q->req);
    free(q->body);
    q->req = q->body = NULL;
    q->reqlen = q->bodylen = 0;
    q->overflow = false;
    q->status = 0;
    q->serial = 0;
    q->wsi = NULL;
    q->done = NULL;
    q->state = SLOT_FREE;
}

static void on_answer_timer(uv_timer_t *t)
{
    struct allocator_query *q = t->data;
    allocator_done_fn done = q->done;
    void *arg = q->arg;
    enum allocator_answer answer = q->answer;
    char server[ALLOCATOR_ADDR_MAX], web[ALLOCATOR_ADDR_MAX];

    if (q->state != SLOT_ANSWERED) {
        return;
    }
    memcpy(server, q->server, sizeof(server));
    memcpy(web, q->web, sizeof(web));
    /* The slot is free before the caller hears, so that it may ask again
     * from its callback. */
    query_reset(q);
    if (done) {
        done(arg, answer, server, web);
    }
}

/* The lookup has its answer: its connection is let go (it finds no slot
 * any more) and the answer goes out from the loop. */
static void query_answer(struct allocator_query *q, enum allocator_answer answer)
{
    if (q->state != SLOT_ASKING) {
        return;
    }
    q->answer = answer;
    q->a->answers[answer]++;
    q->state = SLOT_ANSWERED;
    q->serial = 0;
    if (q->wsi) {
        lws_set_timeout(q->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        q->wsi = NULL;
    }
    if (answer == ALLOCATOR_FAILED) {
        log_event(LOG_WARN, "allocator_failed", "room=%s status=%d", q->code, q->status);
    }
    uv_timer_start(&q->timer, on_answer_timer, 0, 0);
}

static void on_timeout(uv_timer_t *t)
{
    query_answer(t->data, ALLOCATOR_FAILED);
}

/* "host:port" of the port named `name` in the allocation's `ports`. */
static bool port_addr(const json_t *ports, const char *address, const char *name, char *out,
                      size_t outlen)
{
    size_t i;
    json_t *p;
    bool v6 = strchr(address, ':') != NULL;

    out[0] = '\0';
    json_array_foreach(ports, i, p) {
        const char *pname = json_string_value(json_object_get(p, "name"));
        json_t *jport = json_object_get(p, "port");
        if (pname && strcmp(pname, name) == 0 && json_is_integer(jport) &&
            json_integer_value(jport) > 0 && json_integer_value(jport) < 65536) {
            int n = snprintf(out, outlen, "%s%s%s:%d", v6 ? "[" : "", address, v6 ? "]" : "",
                             (int)json_integer_value(jport));
            return n > 0 && (size_t)n < outlen;
        }
    }
    return false;
}

/* Reads the allocator's answer: 200 with the allocated server, or the
 * status it gives when no server matches (429 by default). */
static enum allocator_answer read_answer(struct allocator_query *q)
{
    struct allocator *a = q->a;

    if (q->status == 429 || q->status == 404) {
        return ALLOCATOR_NOT_FOUND;
    }
    if (q->status != 200 || q->overflow) {
        return ALLOCATOR_FAILED;
    }
    json_t *root = json_loadb(q->body ? q->body : "", q->bodylen, 0, NULL);
    const char *name = json_string_value(json_object_get(root, "gameServerName"));
    const char *address = json_string_value(json_object_get(root, "address"));
    json_t *ports = json_object_get(root, "ports");
    enum allocator_answer answer = ALLOCATOR_FAILED;

    if (name && a->cfg.self[0] && strcmp(name, a->cfg.self) == 0) {
        /* This server: its List was behind the room's end. */
        answer = ALLOCATOR_NOT_FOUND;
    } else if (address && address[0] && strlen(address) < 256 && json_is_array(ports) &&
               port_addr(ports, address, a->cfg.game_port, q->server, sizeof(q->server))) {
        port_addr(ports, address, a->cfg.http_port, q->web, sizeof(q->web));
        answer = ALLOCATOR_FOUND;
    }
    json_decref(root);
    return answer;
}

/* ---- The connection ---- */

static struct allocator_query *slot_of(struct lws *wsi)
{
    struct allocator *a = lws_context_user(lws_get_context(wsi));
    uint64_t serial = (uint64_t)(uintptr_t)lws_get_opaque_user_data(wsi);

    if (!a || serial == 0) {
        return NULL;
    }
    for (size_t i = 0; i < NSLOTS; i++) {
        if (a->slots[i].state == SLOT_ASKING && a->slots[i].serial == serial) {
            return &a->slots[i];
        }
    }
    return NULL;
}

static int add_headers(struct allocator_query *q, struct lws *wsi, void *in, size_t len)
{
    unsigned char **p = in, *end = *p + len;
    char n[24];

    snprintf(n, sizeof(n), "%zu", q->reqlen);
    if (lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE,
                                     (const unsigned char *)"application/json", 16, p, end) ||
        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, (const unsigned char *)n,
                                     (int)strlen(n), p, end)) {
        return -1;
    }
    lws_client_http_body_pending(wsi, 1);
    lws_callback_on_writable(wsi);
    return 0;
}

static int write_body(struct allocator_query *q, struct lws *wsi)
{
    unsigned char *buf = malloc(LWS_PRE + q->reqlen);

    if (!buf) {
        return -1;
    }
    memcpy(buf + LWS_PRE, q->req, q->reqlen);
    lws_client_http_body_pending(wsi, 0);
    int n = lws_write(wsi, buf + LWS_PRE, q->reqlen, LWS_WRITE_HTTP_FINAL);
    free(buf);
    return n == (int)q->reqlen ? 0 : -1;
}

static void take_body(struct allocator_query *q, const void *in, size_t len)
{
    if (q->bodylen + len > BODY_MAX) {
        q->overflow = true;
        return;
    }
    char *nb = realloc(q->body, q->bodylen + len + 1);
    if (!nb) {
        q->overflow = true;
        return;
    }
    memcpy(nb + q->bodylen, in, len);
    q->body = nb;
    q->bodylen += len;
}

static int cb_client(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                     size_t len)
{
    struct allocator_query *q;
    (void)user;

    switch (reason) {
    case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
    case LWS_CALLBACK_CLIENT_HTTP_WRITEABLE:
    case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
    case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
    case LWS_CALLBACK_RECEIVE_CLIENT_HTTP:
    case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
        q = slot_of(wsi);
        if (!q) {
            return -1; /* its lookup is over */
        }
        q->wsi = wsi;
        break;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
        q = slot_of(wsi);
        if (q) {
            char why[LOG_QUOTE_MAX];
            q->wsi = NULL;
            if (reason == LWS_CALLBACK_CLIENT_CONNECTION_ERROR) {
                log_event(LOG_WARN, "allocator_connect_failed", "room=%s reason=%s", q->code,
                          log_quote(why, sizeof(why), in ? (const char *)in : "unknown"));
            }
            query_answer(q, ALLOCATOR_FAILED);
        }
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }

    switch (reason) {
    case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
        return add_headers(q, wsi, in, len);
    case LWS_CALLBACK_CLIENT_HTTP_WRITEABLE:
        return write_body(q, wsi);
    case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
        q->status = (int)lws_http_client_http_response(wsi);
        return 0;
    case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
        take_body(q, in, len);
        return 0;
    case LWS_CALLBACK_RECEIVE_CLIENT_HTTP: {
        char buf[LWS_PRE + 4096];
        char *p = buf + LWS_PRE;
        int n = (int)sizeof(buf) - LWS_PRE;
        return lws_http_client_read(wsi, &p, &n) < 0 ? -1 : 0;
    }
    case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
        q->wsi = NULL;
        query_answer(q, read_answer(q));
        return -1; /* one request per connection */
    default:
        return 0;
    }
}

static const struct lws_protocols protocols[] = {
    {"conclave-allocator", cb_client, 0, 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- The client ---- */

static int parse_url(struct allocator *a, char *err)
{
    const char *u = a->cfg.url, *h;
    char *end;

    if (strncmp(u, "https://", 8) == 0) {
        a->tls = true;
        h = u + 8;
    } else if (strncmp(u, "http://", 7) == 0) {
        h = u + 7;
    } else {
        snprintf(err, 256, "the allocator's URL must start with https:// or http://");
        return -1;
    }
    const char *colon = h[0] == '[' ? strstr(h, "]:") : strrchr(h, ':');
    const char *hstart = h[0] == '[' ? h + 1 : h;
    if (!colon || colon == h) {
        snprintf(err, 256, "the allocator's URL must name a port: https://HOST:PORT");
        return -1;
    }
    size_t hlen = (size_t)(colon - hstart);
    long port = strtol(colon + (h[0] == '[' ? 2 : 1), &end, 10);
    if (hlen == 0 || hlen >= sizeof(a->host) || port <= 0 || port > 65535 ||
        (*end != '\0' && strcmp(end, "/") != 0)) {
        snprintf(err, 256, "the allocator's URL is not https://HOST:PORT");
        return -1;
    }
    memcpy(a->host, hstart, hlen);
    a->host[hlen] = '\0';
    a->port = (int)port;
    return 0;
}

struct allocator *allocator_new(uv_loop_t *loop, const struct allocator_config *cfg, char *err)
{
    struct allocator *a = calloc(1, sizeof(*a));
    struct lws_context_creation_info info;
    void *loops[1] = {loop};

    if (!a) {
        snprintf(err, 256, "out of memory");
        return NULL;
    }
    a->cfg = *cfg;
    if (parse_url(a, err) != 0) {
        free(a);
        return NULL;
    }
    lwslog_route();
    memset(&info, 0, sizeof(info));
    info.options = LWS_SERVER_OPTION_LIBUV;
    info.foreign_loops = loops;
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.user = a;
    info.timeout_secs = (unsigned)(cfg->timeout_ms / 1000 + 1);
    if (a->tls) {
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        if (cfg->ca[0]) {
            info.options |= LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS;
            info.client_ssl_ca_filepath = cfg->ca;
        }
        if (cfg->cert[0]) {
            info.client_ssl_cert_filepath = cfg->cert;
            info.client_ssl_private_key_filepath = cfg->key;
        }
    }
    a->ctx = lws_create_context(&info);
    if (!a->ctx) {
        snprintf(err, 256, "the allocator's client could not start (its certificate, key or CA?)");
        free(a);
        return NULL;
    }
    uv_timer_init(loop, &a->stop_timer);
    a->stop_timer.data = a;
    uv_unref((uv_handle_t *)&a->stop_timer);
    for (size_t i = 0; i < NSLOTS; i++) {
        a->slots[i].a = a;
        uv_timer_init(loop, &a->slots[i].timer);
        a->slots[i].timer.data = &a->slots[i];
        uv_unref((uv_handle_t *)&a->slots[i].timer);
    }
    log_event(LOG_INFO, "allocator_client", "host=%s port=%d tls=%s mtls=%s", a->host, a->port,
              a->tls ? "yes" : "no", a->tls && cfg->cert[0] ? "yes" : "no");
    return a;
}

static char *request_body(const struct allocator *a, const char *code, size_t *len)
{
    json_t *sel = json_array();

    for (int i = 0; i < 2 && sel; i++) {
        json_array_append_new(sel, json_pack("{s:{s:s},s:s,s:{s:{s:s}}}", "matchLabels",
                                             "agones.dev/fleet", a->cfg.fleet, "gameServerState",
                                             i == 0 ? "ALLOCATED" : "READY", "lists", "rooms",
                                             "containsValue", code));
    }
    json_t *root = json_pack("{s:s,s:o}", "namespace", a->cfg.ns, "gameServerSelectors", sel);
    char *s = root ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    *len = s ? strlen(s) : 0;
    return s;
}

struct allocator_query *allocator_find(struct allocator *a, const char *code,
                                       allocator_done_fn done, void *arg)
{
    struct allocator_query *q = NULL;
    struct lws_client_connect_info ci;

    if (a->closing || strlen(code) >= sizeof(q->code)) {
        return NULL;
    }
    for (size_t i = 0; i < NSLOTS && !q; i++) {
        q = a->slots[i].state == SLOT_FREE ? &a->slots[i] : NULL;
    }
    if (!q) {
        return NULL;
    }
    q->req = request_body(a, code, &q->reqlen);
    if (!q->req) {
        return NULL;
    }
    snprintf(q->code, sizeof(q->code), "%s", code);
    q->state = SLOT_ASKING;
    q->serial = ++a->next_serial;
    q->done = done;
    q->arg = arg;
    q->server[0] = q->web[0] = '\0';
    uv_timer_start(&q->timer, on_timeout, a->cfg.timeout_ms, 0);

    memset(&ci, 0, sizeof(ci));
    ci.context = a->ctx;
    ci.address = a->host;
    ci.port = a->port;
    ci.ssl_connection = a->tls ? LCCSCF_USE_SSL : 0;
    ci.path = PATH;
    ci.host = a->host;
    ci.method = "POST";
    ci.protocol = protocols[0].name;
    ci.alpn = "http/1.1";
    ci.opaque_user_data = (void *)(uintptr_t)q->serial;
    if (!lws_client_connect_via_info(&ci)) {
        /* Failed at once (the error callback may have answered already). */
        query_answer(q, ALLOCATOR_FAILED);
    }
    return q;
}

void allocator_cancel(struct allocator_query *q)
{
    if (q) {
        q->done = NULL;
    }
}

void allocator_stats(const struct allocator *a, struct allocator_stats *ret)
{
    memset(ret, 0, sizeof(*ret));
    memcpy(ret->answers, a->answers, sizeof(ret->answers));
    for (size_t i = 0; i < NSLOTS; i++) {
        ret->pending += a->slots[i].state == SLOT_ASKING;
    }
}

static void on_stop(uv_timer_t *t)
{
    struct allocator *a = t->data;

    /* Starts closing the context's handles; allocator_free() finishes
     * after the loop, as libwebsockets asks of a foreign loop. */
    a->destroyed = true;
    lws_context_destroy(a->ctx);
    uv_close((uv_handle_t *)&a->stop_timer, NULL);
    for (size_t i = 0; i < NSLOTS; i++) {
        uv_close((uv_handle_t *)&a->slots[i].timer, NULL);
    }
}

void allocator_close(struct allocator *a)
{
    if (!a || a->closing) {
        return;
    }
    a->closing = true;
    for (size_t i = 0; i < NSLOTS; i++) {
        struct allocator_query *q = &a->slots[i];
        q->done = NULL;
        uv_timer_stop(&q->timer);
        if (q->wsi) {
            lws_set_timeout(q->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        }
        query_reset(q);
    }
    /* The context is destroyed from the loop, never inside one of its
     * callbacks. */
    uv_ref((uv_handle_t *)&a->stop_timer);
    uv_timer_start(&a->stop_timer, on_stop, 0, 0);
}

void allocator_free(struct allocator *a)
{
    if (!a) {
        return;
    }
    if (a->ctx) {
        lws_context_destroy(a->ctx);
    }
    for (size_t i = 0; i < NSLOTS; i++) {
        query_reset(&a->slots[i]);
    }
    free(a);
}
