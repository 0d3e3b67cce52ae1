/* SPDX-License-Identifier: MIT */
/*
 * web.c - HTTP and WebSocket through libwebsockets on the server's libuv
 * loop (LWS_SERVER_OPTION_LIBUV with the loop given as a foreign loop: no
 * second loop, no thread).
 *
 * HTTP answers GET and HEAD for the page's files and /healthz, and POST
 * /review (a game's record, reviewed at a rev: longer than a protocol line
 * may be), with the same security headers on every answer. A WebSocket upgrade is taken only
 * at /ws with the subprotocol conclave.v1, from the page's own origin or
 * one the operator allowed (a client that sends no Origin is no browser,
 * and is taken as a TCP client would be).
 *
 * A WebSocket connection is a session like a TCP one: the connection
 * limits count it (net_link_add), each text message goes through the same
 * framer as a TCP stream followed by a line end, so a message holds one
 * line (or several, or a blank one) exactly as a stretch of TCP would and
 * the line limit is the same; each line the session sends leaves as one
 * text frame without its line end. Output is bounded per connection as on
 * TCP; a graceful close sends what is queued and then a close frame.
 */
#include "web.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "bucket.h"
#include "log.h"
#include "lwslog.h"
#include "lwstls.h"
#include "outbuf.h"
#include "session.h"

#define WEB_FILE_MAX (16u * 1024u * 1024u) /* largest file served from web_dir */
#define HTTP_CHUNK 16384
#define WEB_POST_MAX (4u * 1024u * 1024u) /* a record sent to POST /review */

static const char *const security_headers[][2] = {
    {"content-security-policy:",
     "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
     "frame-ancestors 'none'"},
    {"x-content-type-options:", "nosniff"},
    {"x-frame-options:", "DENY"},
    {"referrer-policy:", "no-referrer"},
};

struct wconn {
    struct net_link link;
    struct web_server *web;
    struct wconn *prev, *next; /* the server's WebSocket connections */
    struct lws *wsi;
    struct proto_framer framer;
    struct sess sess;
    struct outbuf out; /* lines to send, each ending in '\n', from `sent` on */
    size_t sent;
    bool in_session;
    bool closing; /* close once `out` is sent (or the grace timer ends it) */
    bool dead;    /* close at the next callback, sending nothing more */
};

/* One HTTP answer's body, written in chunks as the socket takes it, and a
 * POST's body as it comes. */
struct http_req {
    const unsigned char *body;
    size_t len, off;
    unsigned char *owned; /* a file read from web_dir, the metrics, a review */
    char *in;             /* the request's body, in_want bytes when whole */
    size_t in_len, in_want;
    int64_t rev;  /* POST /review?rev=N; -1: the last */
    bool limited; /* over its address's share: the body is read, not kept */
};

struct web_server {
    uv_loop_t *loop;
    const struct web_config *cfg;
    struct net_server *net;
    struct lws_context *ctx;
    void *tls; /* its client TLS context (lwstls.h), with --tls-cert */
    struct wconn *conns;
    unsigned nconns;
    uv_timer_t stop_timer;
    bool stopping;
    bool destroyed;
    unsigned char *scratch; /* LWS_PRE + one frame */
    size_t scratch_cap;
    uint64_t *etags;             /* one per embedded asset */
    struct bucket_table reviews; /* POST /review bytes per address */
};

/* ---- Files ---- */

static uint64_t fnv64(const unsigned char *p, size_t n)
{
    uint64_t h = 14695981039346656037ull;

    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 1099511628211ull;
    }
    return h;
}

static const char *mime_type(const char *path)
{
    static const char *const types[][2] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".json", "application/json"},
        {".txt", "text/plain; charset=utf-8"},
        {".woff2", "font/woff2"},
        {".ico", "image/x-icon"},
    };
    const char *dot = strrchr(path, '.');

    for (size_t i = 0; dot && i < sizeof(types) / sizeof(types[0]); i++) {
        if (strcmp(dot, types[i][0]) == 0) {
            return types[i][1];
        }
    }
    return "application/octet-stream";
}

/* A request path names a file only with plain segments: letters, digits,
 * '-', '_' and '.', no segment starting with '.'. */
static bool path_plain(const char *path)
{
    bool seg_start = true;

    if (path[0] != '/') {
        return false;
    }
    for (const char *p = path + 1; *p; p++) {
        if (*p == '/') {
            if (seg_start) {
                return false;
            }
            seg_start = true;
            continue;
        }
        if (seg_start && *p == '.') {
            return false;
        }
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_' || *p == '.')) {
            return false;
        }
        seg_start = false;
    }
    return !seg_start;
}

/* Reads web_dir/path into a new buffer. 0, or -1 when there is no such
 * regular file. */
static int file_read(const char *dir, const char *path, unsigned char **ret, size_t *ret_len)
{
    char full[PATH_MAX + 256];
    struct stat st;
    unsigned char *buf;
    size_t got = 0;
    int fd;

    if ((size_t)snprintf(full, sizeof(full), "%s%s", dir, path) >= sizeof(full)) {
        return -1;
    }
    fd = open(full, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > WEB_FILE_MAX ||
        !(buf = malloc((size_t)st.st_size + 1))) {
        close(fd);
        return -1;
    }
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    close(fd);
    *ret = buf;
    *ret_len = got;
    return 0;
}

/* ---- HTTP ---- */

/* Writes the status line and headers; `type` NULL for no body. 0, or -1
 * when the connection is to be closed. */
static int http_head(struct lws *wsi, unsigned code, const char *type, size_t len,
                     const char *cache, uint64_t etag)
{
    unsigned char buf[LWS_PRE + 2048];
    unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof(buf) - 1;
    char tag[24];

    if (lws_add_http_common_headers(wsi, code, type, type ? (lws_filepos_t)len : 0, &p, end)) {
        return -1;
    }
    for (size_t i = 0; i < sizeof(security_headers) / sizeof(security_headers[0]); i++) {
        const char *v = security_headers[i][1];
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)security_headers[i][0],
                                        (const unsigned char *)v, (int)strlen(v), &p, end)) {
            return -1;
        }
    }
    if (lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)cache, (int)strlen(cache), &p, end)) {
        return -1;
    }
    if (etag) {
        int n = snprintf(tag, sizeof(tag), "\"%016llx\"", (unsigned long long)etag);
        if (lws_add_http_header_by_name(
                wsi, (const unsigned char *)"etag:", (const unsigned char *)tag, n, &p, end)) {
            return -1;
        }
    }
    return lws_finalize_write_http_header(wsi, start, &p, end) ? -1 : 0;
}

/* Answers a request without a body to follow, or with `body` written by
 * the writeable callback. Returns what the callback returns. */
static int http_answer(struct lws *wsi, struct http_req *req, unsigned code, const char *type,
                       const unsigned char *body, size_t len, const char *cache, uint64_t etag,
                       bool head)
{
    if (http_head(wsi, code, type, len, cache, etag) != 0) {
        return -1;
    }
    if (head || !type || len == 0) {
        free(req->owned);
        req->owned = NULL;
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    req->body = body;
    req->len = len;
    req->off = 0;
    lws_callback_on_writable(wsi);
    return 0;
}

static int http_text(struct lws *wsi, struct http_req *req, unsigned code, const char *text,
                     bool head)
{
    return http_answer(wsi, req, code, "text/plain; charset=utf-8", (const unsigned char *)text,
                       strlen(text), "no-store", 0, head);
}

/* The answer to a review over its address's share of bytes (429). */
static const char review_limited[] =
    "{\"ok\":false,\"error\":{\"code\":\"rate_limited\",\"message\":\"too many bytes of "
    "records from this address: wait a little\"}}";

/* The client's address as the TCP transport writes it: an IPv4 peer of
 * a dual-stack socket is the same address as on TCP; "?" when unknown. */
static void peer_addr(struct lws *wsi, char *out, size_t outlen)
{
    if (!lws_get_peer_simple(wsi, out, outlen)) {
        snprintf(out, outlen, "?");
    }
    if (strncmp(out, "::ffff:", 7) == 0 && strchr(out + 7, '.')) {
        memmove(out, out + 7, strlen(out + 7) + 1);
    }
}

/* ---- POST /review ---- */

/* A POST: only /review, with a Content-Length of at most WEB_POST_MAX and
 * a `rev` that is a number when given. The body is then read
 * (on_post_body) and answered when whole (on_post_done). */
static int on_post(struct web_server *web, struct lws *wsi, struct http_req *req, const char *uri)
{
    char buf[64], addr[BUCKET_ADDR_MAX];
    const char *arg;
    char *end;
    unsigned long long want;

    if (strcmp(uri, "/review") != 0) {
        return http_answer(wsi, req, 405, NULL, NULL, 0, "no-store", 0, true);
    }
    if (lws_hdr_copy(wsi, buf, sizeof(buf), WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0) {
        return http_text(wsi, req, 411, "a game's record, with its Content-Length\n", false);
    }
    errno = 0;
    want = strtoull(buf, &end, 10);
    if (errno || *end || end == buf || want == 0) {
        return http_text(wsi, req, 400, "a bad Content-Length\n", false);
    }
    if (want > WEB_POST_MAX) {
        return http_text(wsi, req, 413, "a record is at most 4 MiB\n", false);
    }
    /* A review replays its record on the loop: each address gets its
     * share, counted in the bytes it sends, before any is read. A record
     * over the whole burst would never fit it. */
    double rate = (double)web->cfg->review_rate;
    if ((double)want > 2.0 * rate) {
        return http_text(wsi, req, 413,
                         "a record is larger than this server reviews at once (twice its "
                         "--review-rate)\n",
                         false);
    }
    peer_addr(wsi, addr, sizeof(addr));
    req->in_want = (size_t)want;
    req->in_len = 0;
    if (!bucket_take(&web->reviews, addr, uv_now(web->loop), rate, 2.0 * rate, (double)want)) {
        /* Answered once the body is in, so that the answer is read. */
        log_event(LOG_DEBUG, "review_rate_limited", "addr=%s bytes=%llu", addr, want);
        req->limited = true;
        return 0;
    }
    req->rev = -1;
    if ((arg = lws_get_urlarg_by_name(wsi, "rev=", buf, sizeof(buf)))) {
        long long rev;
        errno = 0;
        rev = strtoll(arg, &end, 10);
        if (errno || *end || end == arg || rev < 1) {
            return http_text(wsi, req, 400, "rev is a number, 1 or more\n", false);
        }
        req->rev = rev;
    }
    if (!(req->in = malloc((size_t)want))) {
        return http_text(wsi, req, 500, "out of memory\n", false);
    }
    return 0;
}

static int on_post_body(struct http_req *req, const void *in, size_t len)
{
    if ((!req->in && !req->limited) || len > req->in_want - req->in_len) {
        return -1; /* more than it said */
    }
    if (req->limited) {
        req->in_len += len;
        return 0;
    }
    memcpy(req->in + req->in_len, in, len);
    req->in_len += len;
    return 0;
}

static int on_post_done(struct web_server *web, struct lws *wsi, struct http_req *req)
{
    static const unsigned status[] = {[PROTO_ERR_BAD_REQUEST] = 400,
                                      [PROTO_ERR_ILLEGAL_ACTION] = 422,
                                      [PROTO_ERR_INTERNAL] = 500};
    char *text = NULL;
    size_t len = 0;
    int rc;

    if (req->limited) {
        req->limited = false;
        return http_answer(wsi, req, 429, "application/json", (const unsigned char *)review_limited,
                           sizeof(review_limited) - 1, "no-store", 0, false);
    }
    if (!req->in || req->in_len != req->in_want) {
        return -1;
    }
    rc = sess_hub_review(net_server_hub(web->net), req->in, req->in_len, req->rev,
                         uv_now(web->loop), &text, &len);
    free(req->in);
    req->in = NULL;
    if (!text) {
        return http_text(wsi, req, 500, "out of memory\n", false);
    }
    req->owned = (unsigned char *)text;
    return http_answer(wsi, req,
                       rc == PROTO_OK                                                  ? 200
                       : (size_t)rc < sizeof(status) / sizeof(status[0]) && status[rc] ? status[rc]
                                                                                       : 400,
                       "application/json", req->owned, len, "no-store", 0, false);
}

static int on_http(struct web_server *web, struct lws *wsi, struct http_req *req, const char *uri)
{
    bool head = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0;
    char inm[64] = "";
    const char *path = strcmp(uri, "/") == 0 ? "/index.html" : uri;
    const unsigned char *body = NULL;
    size_t len = 0;
    uint64_t etag = 0;

    if (lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0) {
        return on_post(web, wsi, req, uri);
    }
    if (!head && lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0) {
        /* No body: a request body may still be on its way, and nothing
         * here reads it. */
        return http_answer(wsi, req, 405, NULL, NULL, 0, "no-store", 0, true);
    }
    if (strcmp(path, "/healthz") == 0) {
        return http_text(wsi, req, 200, web->stopping ? "stopping\n" : "ok\n", head);
    }
    if (strcmp(path, "/metrics") == 0 && web->cfg->metrics) {
        char *text = NULL;
        if (web->cfg->metrics(web->cfg->metrics_ctx, &text, &len) != 0) {
            return http_text(wsi, req, 500, "metrics unavailable\n", head);
        }
        req->owned = (unsigned char *)text;
        return http_answer(wsi, req, 200, "text/plain; version=0.0.4; charset=utf-8", req->owned,
                           len, "no-store", 0, head);
    }
    if (!path_plain(path)) {
        return http_text(wsi, req, 404, "not found\n", head);
    }
    /* A file web_dir lacks is the embedded one: the games' catalogues
     * (/lang/) are built in from outside web/. */
    if (web->cfg->web_dir[0] && file_read(web->cfg->web_dir, path, &req->owned, &len) == 0) {
        body = req->owned;
        etag = fnv64(body, len) | 1;
    }
    for (size_t i = 0; i < web_nassets && !body; i++) {
        if (strcmp(web_assets[i].path, path) == 0) {
            body = web_assets[i].data;
            len = web_assets[i].len;
            etag = web->etags[i];
        }
    }
    if (!body) {
        return http_text(wsi, req, 404, "not found\n", head);
    }
    if (lws_hdr_copy(wsi, inm, sizeof(inm), WSI_TOKEN_HTTP_IF_NONE_MATCH) > 0) {
        char tag[24];
        snprintf(tag, sizeof(tag), "\"%016llx\"", (unsigned long long)etag);
        if (strstr(inm, tag)) {
            return http_answer(wsi, req, 304, NULL, NULL, 0, "no-cache", etag, head);
        }
    }
    /* no-cache: kept, but revalidated by its ETag on every use, so a new
     * version of the page's scripts is never mixed with an old one. */
    return http_answer(wsi, req, 200, mime_type(path), body, len, "no-cache", etag, head);
}

static int on_http_writeable(struct web_server *web, struct lws *wsi, struct http_req *req)
{
    unsigned char *buf;
    size_t n;
    bool last;

    if (!req->body) {
        return 0;
    }
    n = req->len - req->off;
    if (n > HTTP_CHUNK) {
        n = HTTP_CHUNK;
    }
    last = req->off + n == req->len;
    if (web->scratch_cap < LWS_PRE + HTTP_CHUNK) {
        unsigned char *p = realloc(web->scratch, LWS_PRE + HTTP_CHUNK);
        if (!p) {
            return -1;
        }
        web->scratch = p;
        web->scratch_cap = LWS_PRE + HTTP_CHUNK;
    }
    buf = web->scratch + LWS_PRE;
    memcpy(buf, req->body + req->off, n);
    if (lws_write(wsi, buf, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n) {
        return -1;
    }
    req->off += n;
    if (!last) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    req->body = NULL;
    free(req->owned);
    req->owned = NULL;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int cb_http(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                   size_t len)
{
    struct web_server *web = lws_context_user(lws_get_context(wsi));
    struct http_req *req = user;

    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        /* An upgrade that did not ask for conclave.v1. */
        return 1;
    case LWS_CALLBACK_HTTP:
        return on_http(web, wsi, req, in);
    case LWS_CALLBACK_HTTP_BODY:
        return on_post_body(req, in, len);
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return on_post_done(web, wsi, req);
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return on_http_writeable(web, wsi, req);
    case LWS_CALLBACK_CLOSED_HTTP:
        if (req) {
            free(req->owned);
            free(req->in);
            req->owned = NULL;
            req->in = NULL;
            req->body = NULL;
        }
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

/* ---- WebSocket connections ---- */

static void conn_unlist(struct wconn *c)
{
    struct web_server *web = c->web;

    if (c->prev) {
        c->prev->next = c->next;
    } else {
        web->conns = c->next;
    }
    if (c->next) {
        c->next->prev = c->prev;
    }
    web->nconns--;
}

static void stop_soon(struct web_server *web);

/* Starts closing `c`: gracefully (what is queued goes out first, within
 * the grace period) or at once. */
static void wconn_close(struct wconn *c, bool graceful)
{
    if (!graceful) {
        c->dead = true;
    }
    if (!c->closing) {
        c->closing = true;
        c->link.closing = true;
        c->sess.closing = true;
        lws_set_timer_usecs(c->wsi, (lws_usec_t)NET_GRACE_MS * 1000);
    }
    lws_callback_on_writable(c->wsi);
}

static void wconn_cut_off(struct wconn *c, size_t wanted)
{
    size_t max = net_server_config(c->web->net)->write_queue_max;
    char msg[128];
    json_t *ev;
    char *line = NULL;
    size_t len;

    log_event(LOG_WARN, "slow_reader_cut_off",
              "addr=%s transport=websocket unsent_bytes=%zu bound=%zu", c->link.addr, wanted, max);
    snprintf(msg, sizeof(msg), "more than %zu bytes of output went unread; closing", max);
    ev = proto_event_error(PROTO_ERR_SERVER_BUSY, msg);
    if (ev) {
        line = proto_line_dump(ev, &len);
    }
    if (line && c->out.len - c->sent + len <= max) {
        (void)outbuf_append(&c->out, line, len);
    }
    free(line);
    json_decref(ev);
    wconn_close(c, true);
}

static void wconn_send(void *ctx, const char *line, size_t len)
{
    struct wconn *c = ctx;
    size_t max = net_server_config(c->web->net)->write_queue_max;
    size_t limit = max > NET_ERROR_ROOM ? max - NET_ERROR_ROOM : 0;

    if (c->closing) {
        return;
    }
    if (c->out.len - c->sent + len > limit) {
        wconn_cut_off(c, c->out.len - c->sent + len);
        return;
    }
    if (c->sent > 0 && c->sent == c->out.len) {
        c->out.len = 0;
        c->sent = 0;
    }
    if (outbuf_append(&c->out, line, len) != 0) {
        wconn_close(c, false);
        return;
    }
    lws_callback_on_writable(c->wsi);
}

static void wconn_request_close(void *ctx)
{
    wconn_close(ctx, true);
}

static const struct sess_io wconn_io = {
    .send = wconn_send,
    .close = wconn_request_close,
};

static void wconn_error(struct wconn *c, enum proto_err code, const char *message)
{
    json_t *ev = proto_event_error(code, message);
    size_t len;
    char *line = ev ? proto_line_dump(ev, &len) : NULL;

    if (line) {
        wconn_send(c, line, len);
    }
    free(line);
    json_decref(ev);
}

static void arm_idle(struct wconn *c)
{
    const struct net_config *cfg = net_server_config(c->web->net);
    uint64_t ms = c->sess.hello ? cfg->idle_ms : cfg->hello_ms;

    lws_set_timer_usecs(c->wsi, (lws_usec_t)ms * 1000);
}

/* The Origin of an upgrade is the page's own (the Host it was sent to) or
 * one of the configured ones; no Origin at all is a client that is no
 * browser. */
static bool origin_allowed(const struct web_server *web, struct lws *wsi)
{
    char origin[256], host[256], own[300];

    if (lws_hdr_copy(wsi, origin, sizeof(origin), WSI_TOKEN_ORIGIN) <= 0) {
        return lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0;
    }
    /* HTTP/2 names the host :authority. */
    if (lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST) > 0 ||
        lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HTTP_COLON_AUTHORITY) > 0) {
        snprintf(own, sizeof(own), "%s://%s", web->cfg->tls_cert[0] ? "https" : "http", host);
        if (strcmp(origin, own) == 0) {
            return true;
        }
    }
    for (unsigned i = 0; i < web->cfg->norigins; i++) {
        if (strcmp(origin, web->cfg->origins[i]) == 0) {
            return true;
        }
    }
    return false;
}

static int on_ws_filter(struct web_server *web, struct lws *wsi)
{
    char uri[16] = "";

    /* Over HTTP/2 a WebSocket is an extended CONNECT (RFC 8441): its path
     * is :path, not a GET's. */
    if ((lws_hdr_copy(wsi, uri, sizeof(uri), WSI_TOKEN_GET_URI) <= 0 &&
         lws_hdr_copy(wsi, uri, sizeof(uri), WSI_TOKEN_HTTP_COLON_PATH) <= 0) ||
        strcmp(uri, "/ws") != 0) {
        return 1;
    }
    if (!origin_allowed(web, wsi)) {
        char origin[256] = "";
        lws_hdr_copy(wsi, origin, sizeof(origin), WSI_TOKEN_ORIGIN);
        char q[LOG_QUOTE_MAX];
        log_event(LOG_WARN, "websocket_origin_refused", "origin=%s",
                  log_quote(q, sizeof(q), origin));
        return 1;
    }
    return 0;
}

static int on_ws_established(struct web_server *web, struct lws *wsi, struct wconn **slot)
{
    struct net_server *net = web->net;
    const struct net_config *cfg = net_server_config(net);
    struct wconn *c = calloc(1, sizeof(*c));
    uint64_t now = uv_now(web->loop);

    if (!c) {
        return -1;
    }
    *slot = c;
    c->web = web;
    c->wsi = wsi;
    c->next = web->conns;
    if (web->conns) {
        web->conns->prev = c;
    }
    web->conns = c;
    web->nconns++;
    peer_addr(wsi, c->link.addr, sizeof(c->link.addr));
    proto_framer_init(&c->framer, cfg->max_line);
    sess_hub_open(net_server_hub(net), &c->sess, net_server_next_id(net), &wconn_io, c, now);
    c->in_session = true;
    sess_set_address(&c->sess, c->link.addr);
    log_event(LOG_DEBUG, "websocket_open", "addr=%s", c->link.addr);
    c->link.transport = NET_WEBSOCKET;
    const char *refused =
        web->stopping ? "the server is stopping" : net_link_add(net, &c->link, now);
    if (refused) {
        wconn_error(c, PROTO_ERR_SERVER_BUSY, refused);
        wconn_close(c, true);
        return 0;
    }
    arm_idle(c);
    return 0;
}

static int on_ws_receive(struct wconn *c, struct lws *wsi, const char *in, size_t len)
{
    const struct net_config *cfg = net_server_config(c->web->net);
    const char *line;
    size_t llen;
    int rc;

    net_count_bytes(c->web->net, NET_WEBSOCKET, len, 0);
    if (c->closing) {
        return 0; /* a closing connection drops its input */
    }
    if (lws_frame_is_binary(wsi)) {
        /* Say it once per message, not once per fragment. */
        if (lws_is_first_fragment(wsi)) {
            wconn_error(c, PROTO_ERR_BAD_REQUEST,
                        "binary frames carry nothing here: send each line as a text frame");
        }
        return 0;
    }
    rc = proto_framer_feed(&c->framer, in, len);
    if (rc == 0 && lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
        rc = proto_framer_feed(&c->framer, "\n", 1);
    }
    while (rc >= 0 && !c->closing) {
        rc = proto_framer_next(&c->framer, &line, &llen);
        if (rc <= 0) {
            break;
        }
        sess_handle_line(&c->sess, line, llen, uv_now(c->web->loop));
    }
    if (rc == -E2BIG && !c->closing) {
        char msg[96];
        snprintf(msg, sizeof(msg), "a line may hold at most %zu bytes", cfg->max_line);
        wconn_error(c, PROTO_ERR_FRAME_TOO_LARGE, msg);
        wconn_close(c, true);
    } else if (rc < 0 && !c->closing) {
        wconn_error(c, PROTO_ERR_INTERNAL, NULL);
        wconn_close(c, true);
    }
    if (!c->closing && c->sess.hello) {
        arm_idle(c);
    }
    net_due_poke(c->web->net);
    return 0;
}

/* Sends queued lines, one text frame each, while the socket takes them;
 * a closing connection with nothing left says goodbye. */
static int on_ws_writeable(struct wconn *c, struct lws *wsi)
{
    struct web_server *web = c->web;

    if (c->dead) {
        return -1;
    }
    while (c->sent < c->out.len && !lws_send_pipe_choked(wsi)) {
        const char *line = c->out.data + c->sent;
        const char *nl = memchr(line, '\n', c->out.len - c->sent);
        size_t n = nl ? (size_t)(nl - line) : c->out.len - c->sent;

        if (web->scratch_cap < LWS_PRE + n) {
            unsigned char *p = realloc(web->scratch, LWS_PRE + n);
            if (!p) {
                return -1;
            }
            web->scratch = p;
            web->scratch_cap = LWS_PRE + n;
        }
        memcpy(web->scratch + LWS_PRE, line, n);
        if (lws_write(wsi, web->scratch + LWS_PRE, n, LWS_WRITE_TEXT) < (int)n) {
            return -1;
        }
        net_count_bytes(web->net, NET_WEBSOCKET, 0, n);
        c->sent += n + (nl != NULL);
    }
    if (c->sent < c->out.len) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    outbuf_fini(&c->out);
    c->sent = 0;
    if (c->closing) {
        lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, NULL, 0);
        return -1;
    }
    return 0;
}

static void on_ws_closed(struct wconn *c)
{
    struct web_server *web = c->web;

    c->link.closing = true;
    if (c->in_session) {
        c->in_session = false;
        sess_fini(&c->sess, uv_now(web->loop));
        net_due_poke(web->net); /* a room's expiry clock may have started */
    }
    net_link_remove(web->net, &c->link);
    conn_unlist(c);
    proto_framer_fini(&c->framer);
    outbuf_fini(&c->out);
    free(c);
    if (web->stopping && web->nconns == 0) {
        stop_soon(web);
    }
}

static int cb_ws(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                 size_t len)
{
    struct web_server *web = lws_context_user(lws_get_context(wsi));
    struct wconn **slot = user;
    struct wconn *c = slot ? *slot : NULL;

    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return on_ws_filter(web, wsi);
    case LWS_CALLBACK_ESTABLISHED:
        return on_ws_established(web, wsi, slot);
    case LWS_CALLBACK_RECEIVE:
        return c ? on_ws_receive(c, wsi, in, len) : -1;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return c ? on_ws_writeable(c, wsi) : -1;
    case LWS_CALLBACK_TIMER:
        if (!c) {
            return -1;
        }
        if (c->closing) {
            return -1; /* the grace period is over */
        }
        log_event(LOG_INFO, "connection_timed_out", "addr=%s transport=websocket reason=%s",
                  c->link.addr, c->sess.hello ? "idle" : "no_hello");
        wconn_close(c, true);
        return 0;
    case LWS_CALLBACK_CLOSED:
        if (c) {
            *slot = NULL;
            on_ws_closed(c);
        }
        return 0;
    default:
        return 0;
    }
}

/* ---- Server ---- */

static const struct lws_protocols protocols[] = {
    {"http", cb_http, sizeof(struct http_req), 0, 0, NULL, 0},
    {WEB_SUBPROTOCOL, cb_ws, sizeof(struct wconn *), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

int web_server_start(uv_loop_t *loop, const struct web_config *cfg, struct net_server *net,
                     struct web_server **ret, char *url, size_t urllen)
{
    struct lws_context_creation_info info;
    struct web_server *web = calloc(1, sizeof(*web));
    void *loops[1] = {loop};
    bool tls = cfg->tls_cert[0] != '\0';

    if (!web || !(web->etags = calloc(web_nassets ? web_nassets : 1, sizeof(*web->etags))) ||
        bucket_table_init(&web->reviews) != 0) {
        if (web) {
            free(web->etags);
        }
        free(web);
        log_event(LOG_ERROR, "http_out_of_memory", "during=%s", "start");
        return -1;
    }
    for (size_t i = 0; i < web_nassets; i++) {
        web->etags[i] = fnv64(web_assets[i].data, web_assets[i].len) | 1;
    }
    web->loop = loop;
    web->cfg = cfg;
    web->net = net;
    lwslog_route();

    memset(&info, 0, sizeof(info));
    info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS |
                   LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
    info.foreign_loops = loops;
    info.port = cfg->port;
    info.iface = cfg->host;
    if (!strchr(cfg->host, ':')) {
        /* An IPv4 address: without this libwebsockets opens a dual-stack
         * IPv6 socket that listens on every interface. */
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    }
    info.protocols = protocols;
    info.user = web;
    info.pcontext = &web->ctx;
    info.vhost_name = "conclave";
    info.timeout_secs = 20;
    if (tls) {
        /* A client context of its own, never used, so that libwebsockets
         * makes none it could lose (lwstls.h). */
        web->tls = lwstls_client_new(NULL);
        if (!web->tls) {
            web_server_free(web);
            return -1;
        }
        info.provided_client_ssl_ctx = web->tls;
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.ssl_cert_filepath = cfg->tls_cert;
        info.ssl_private_key_filepath = cfg->tls_key;
        /* HTTP/1.1 only: libwebsockets 4.1 resets a browser's parallel
         * HTTP/2 streams for the page's files. */
        info.alpn = "http/1.1";
    }
    /* With FAIL_UPON_UNABLE_TO_BIND a port that is taken fails the
     * context, as a certificate that cannot be loaded does. libwebsockets
     * then tears the context down itself, but leaves its handles on the
     * loop: the caller must not run the loop again (web.h). */
    struct lws_context *ctx = lws_create_context(&info);
    struct lws_vhost *vh = ctx ? lws_get_vhost_by_name(ctx, "conclave") : NULL;
    if (!vh) {
        log_event(LOG_ERROR, "http_listen_failed", "host=%s port=%d tls=%s", cfg->host, cfg->port,
                  tls ? "yes" : "no");
        web->ctx = NULL;
        web_server_free(web);
        return -1;
    }
    web->ctx = ctx;
    int port = lws_get_vhost_listen_port(vh);
    bool v6 = strchr(cfg->host, ':') != NULL;
    snprintf(url, urllen, "%s://%s%s%s:%d/", tls ? "https" : "http", v6 ? "[" : "", cfg->host,
             v6 ? "]" : "", port);
    uv_timer_init(loop, &web->stop_timer);
    web->stop_timer.data = web;
    uv_unref((uv_handle_t *)&web->stop_timer);
    *ret = web;
    return 0;
}

static void on_stop_timer(uv_timer_t *t)
{
    struct web_server *web = t->data;

    if (!web->destroyed) {
        web->destroyed = true;
        /* Closes whatever is still open (each connection's session ends
         * in its close callback) and leaves the loop. */
        lws_context_destroy(web->ctx);
    }
    uv_close((uv_handle_t *)&web->stop_timer, NULL);
}

/* Destroys the context from the loop, never inside one of its callbacks. */
static void stop_soon(struct web_server *web)
{
    if (!web->destroyed && !uv_is_closing((uv_handle_t *)&web->stop_timer)) {
        uv_timer_start(&web->stop_timer, on_stop_timer, 0, 0);
    }
}

void web_server_stop(struct web_server *web, uint64_t grace_ms)
{
    if (web->stopping) {
        return;
    }
    web->stopping = true;
    for (struct wconn *c = web->conns; c; c = c->next) {
        wconn_close(c, true);
    }
    uv_ref((uv_handle_t *)&web->stop_timer);
    if (web->nconns == 0) {
        stop_soon(web);
    } else {
        uv_timer_start(&web->stop_timer, on_stop_timer, grace_ms, 0);
    }
}

void web_server_free(struct web_server *web)
{
    if (!web) {
        return;
    }
    if (web->ctx) {
        lws_context_destroy(web->ctx);
    }
    lwstls_client_free(web->tls);
    free(web->scratch);
    free(web->etags);
    bucket_table_fini(&web->reviews);
    free(web);
}
