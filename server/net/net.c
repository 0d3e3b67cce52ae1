/* SPDX-License-Identifier: MIT */
/*
 * net.c - listener and connections on libuv.
 *
 * Each connection embeds its TCP handle and its timer and is freed only when
 * both close callbacks have run; it is never freed inside its own read
 * callback. Lines go from the framer to the session; replies and events come
 * back as queued writes, bounded per connection: a reader that falls too far
 * behind is cut off, and nobody else waits for it. One timer runs the
 * sessions' due work (bot moves, room expiry).
 */
#include "net.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

#define READ_BUF_SIZE 65536

struct conn {
    uv_tcp_t tcp;
    uv_timer_t timer; /* idle / hello timeout, then the close grace period */
    uv_shutdown_t shutdown_req;
    struct net_server *srv;
    struct conn *prev, *next;
    struct proto_framer framer;
    struct sess sess;
    char addr[64];
    int handles_open;
    bool closing;
    bool in_session; /* sess_fini still owed */
};

struct write_req {
    uv_write_t req;
    size_t len;
    char data[];
};

struct net_server {
    uv_loop_t *loop;
    uv_tcp_t listener;
    uv_timer_t due_timer;
    uv_timer_t stop_timer;
    const struct net_config *cfg;
    struct sess_hub *hub;
    struct conn *conns;
    unsigned nconns;
    uint64_t next_id;
    uint64_t due_armed; /* when the due timer fires, UINT64_MAX: idle */
    bool stopping;
    char readbuf[READ_BUF_SIZE];
};

static void conn_close(struct conn *c, bool graceful);
static void due_poke(struct net_server *srv);
static void due_run(struct net_server *srv);

/* ---- Connection teardown ---- */

static void conn_free(struct conn *c)
{
    struct net_server *srv = c->srv;

    if (c->prev) {
        c->prev->next = c->next;
    } else {
        srv->conns = c->next;
    }
    if (c->next) {
        c->next->prev = c->prev;
    }
    srv->nconns--;
    proto_framer_fini(&c->framer);
    free(c);
    if (srv->stopping && srv->nconns == 0 && !uv_is_closing((uv_handle_t *)&srv->stop_timer)) {
        uv_close((uv_handle_t *)&srv->stop_timer, NULL);
    }
}

static void on_handle_closed(uv_handle_t *h)
{
    struct conn *c = h->data;

    if (--c->handles_open == 0) {
        conn_free(c);
    }
}

/* Ends the session (once) and closes both handles. */
static void conn_close_now(struct conn *c)
{
    struct net_server *srv = c->srv;

    if (c->in_session) {
        c->in_session = false;
        sess_fini(&c->sess, uv_now(srv->loop));
    }
    if (!uv_is_closing((uv_handle_t *)&c->tcp)) {
        uv_close((uv_handle_t *)&c->tcp, on_handle_closed);
    }
    if (!uv_is_closing((uv_handle_t *)&c->timer)) {
        uv_close((uv_handle_t *)&c->timer, on_handle_closed);
    }
}

static void on_shutdown(uv_shutdown_t *req, int status)
{
    conn_close_now(req->data);
}

static void on_grace_expired(uv_timer_t *t)
{
    conn_close_now(t->data);
}

/* Starts closing `c`. Graceful: pending writes go out first (bounded by a
 * grace timer). The session leaves its room in a later loop turn, never
 * inside the caller's stack, so the session code can close peers while it
 * iterates over them. */
static void conn_close(struct conn *c, bool graceful)
{
    if (c->closing) {
        if (!graceful) {
            conn_close_now(c);
        }
        return;
    }
    c->closing = true;
    c->sess.closing = true;
    uv_read_stop((uv_stream_t *)&c->tcp);
    uv_timer_stop(&c->timer);
    if (graceful) {
        c->shutdown_req.data = c;
        if (uv_shutdown(&c->shutdown_req, (uv_stream_t *)&c->tcp, on_shutdown) == 0) {
            uv_timer_start(&c->timer, on_grace_expired, 2000, 0);
            return;
        }
    }
    /* Closing is deferred to the timer so that it never runs inside a caller
     * that still holds the connection. */
    uv_timer_start(&c->timer, on_grace_expired, 0, 0);
}

/* ---- Writing ---- */

static void on_write(uv_write_t *req, int status)
{
    struct write_req *w = (struct write_req *)req;
    struct conn *c = req->data;

    free(w);
    if (status < 0 && !c->closing) {
        conn_close(c, false);
    }
}

static void conn_send(void *ctx, const char *line, size_t len)
{
    struct conn *c = ctx;
    struct write_req *w;
    uv_buf_t buf;

    if (c->closing) {
        return;
    }
    if (uv_stream_get_write_queue_size((uv_stream_t *)&c->tcp) + len > c->srv->cfg->write_queue_max) {
        log_warn("%s: write queue over %zu bytes; closing slow reader", c->addr,
                 c->srv->cfg->write_queue_max);
        conn_close(c, false);
        return;
    }
    w = malloc(sizeof(*w) + len);
    if (!w) {
        conn_close(c, false);
        return;
    }
    memcpy(w->data, line, len);
    w->len = len;
    w->req.data = c;
    buf = uv_buf_init(w->data, (unsigned)len);
    if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &buf, 1, on_write) != 0) {
        free(w);
        conn_close(c, false);
    }
}

static void conn_request_close(void *ctx)
{
    conn_close(ctx, true);
}

static const struct sess_io conn_io = {
    .send = conn_send,
    .close = conn_request_close,
};

static void send_event_error(struct conn *c, enum proto_err code, const char *message)
{
    json_t *ev = proto_event_error(code, message);
    size_t len;
    char *line = ev ? proto_line_dump(ev, &len) : NULL;

    if (line) {
        conn_send(c, line, len);
    }
    free(line);
    json_decref(ev);
}

/* ---- Reading ---- */

static void on_idle(uv_timer_t *t)
{
    struct conn *c = t->data;

    log_info("%s: closing after %s", c->addr, c->sess.hello ? "idle timeout" : "no hello");
    conn_close(c, true);
}

static void arm_idle(struct conn *c)
{
    uint64_t ms = c->sess.hello ? c->srv->cfg->idle_ms : c->srv->cfg->hello_ms;

    uv_timer_start(&c->timer, on_idle, ms, 0);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    struct conn *c = h->data;

    buf->base = c->srv->readbuf;
    buf->len = sizeof(c->srv->readbuf);
}

static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
    struct conn *c = stream->data;
    struct net_server *srv = c->srv;
    const char *line;
    size_t len;
    int rc;

    if (nread < 0) {
        conn_close(c, false);
        return;
    }
    if (nread == 0 || c->closing) {
        return;
    }
    rc = proto_framer_feed(&c->framer, buf->base, (size_t)nread);
    while (rc >= 0 && !c->closing) {
        rc = proto_framer_next(&c->framer, &line, &len);
        if (rc <= 0) {
            break;
        }
        sess_handle_line(&c->sess, line, len, uv_now(srv->loop));
    }
    if (rc == -E2BIG && !c->closing) {
        char msg[96];
        snprintf(msg, sizeof(msg), "a line may hold at most %zu bytes", srv->cfg->max_line);
        send_event_error(c, PROTO_ERR_FRAME_TOO_LARGE, msg);
        conn_close(c, true);
    } else if (rc < 0 && !c->closing) {
        send_event_error(c, PROTO_ERR_INTERNAL, NULL);
        conn_close(c, true);
    }
    if (!c->closing) {
        arm_idle(c);
    }
    due_poke(srv);
}

/* ---- Accepting ---- */

static unsigned conns_from(const struct net_server *srv, const char *addr)
{
    unsigned n = 0;

    for (const struct conn *c = srv->conns; c; c = c->next) {
        n += !c->closing && strcmp(c->addr, addr) == 0;
    }
    return n;
}

static void peer_address(uv_tcp_t *tcp, char *out, size_t outlen)
{
    struct sockaddr_storage ss;
    int len = sizeof(ss);

    snprintf(out, outlen, "?");
    if (uv_tcp_getpeername(tcp, (struct sockaddr *)&ss, &len) != 0) {
        return;
    }
    if (ss.ss_family == AF_INET) {
        uv_ip4_name((struct sockaddr_in *)&ss, out, outlen);
    } else if (ss.ss_family == AF_INET6) {
        uv_ip6_name((struct sockaddr_in6 *)&ss, out, outlen);
    }
}

static void on_connection(uv_stream_t *listener, int status)
{
    struct net_server *srv = listener->data;
    struct conn *c;

    if (status < 0 || srv->stopping) {
        return;
    }
    c = calloc(1, sizeof(*c));
    if (!c) {
        return;
    }
    c->srv = srv;
    uv_tcp_init(srv->loop, &c->tcp);
    uv_timer_init(srv->loop, &c->timer);
    c->tcp.data = c;
    c->timer.data = c;
    c->handles_open = 2;
    c->next = srv->conns;
    if (srv->conns) {
        srv->conns->prev = c;
    }
    srv->conns = c;
    srv->nconns++;
    proto_framer_init(&c->framer, srv->cfg->max_line);
    sess_hub_open(srv->hub, &c->sess, ++srv->next_id, &conn_io, c, uv_now(srv->loop));
    c->in_session = true;
    if (uv_accept(listener, (uv_stream_t *)&c->tcp) != 0) {
        conn_close_now(c);
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1);
    peer_address(&c->tcp, c->addr, sizeof(c->addr));
    if (srv->nconns > srv->cfg->max_conns) {
        send_event_error(c, PROTO_ERR_SERVER_BUSY, "the server has as many connections as it may");
        conn_close(c, true);
        return;
    }
    if (conns_from(srv, c->addr) > srv->cfg->max_conns_per_addr) {
        send_event_error(c, PROTO_ERR_SERVER_BUSY, "too many connections from your address");
        conn_close(c, true);
        return;
    }
    if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) != 0) {
        conn_close(c, false);
        return;
    }
    arm_idle(c);
}

/* ---- Due work ---- */

static void on_due_timer(uv_timer_t *t)
{
    due_run(t->data);
}

static void arm_due_timer(struct net_server *srv, uint64_t due)
{
    uint64_t now = uv_now(srv->loop);

    srv->due_armed = due;
    if (due == UINT64_MAX) {
        uv_timer_stop(&srv->due_timer);
    } else {
        uv_timer_start(&srv->due_timer, on_due_timer, due > now ? due - now : 0, 0);
    }
}

/* Runs the sessions' due work and re-arms the timer for the next item. */
static void due_run(struct net_server *srv)
{
    if (!srv->stopping) {
        arm_due_timer(srv, sess_hub_run_due(srv->hub, uv_now(srv->loop)));
    }
}

/* After requests: brings the timer forward when there is now work earlier
 * than it is armed for (a bot's turn, say). Costs no walk over the rooms. */
static void due_poke(struct net_server *srv)
{
    uint64_t due = sess_hub_next_due(srv->hub);

    if (!srv->stopping && due < srv->due_armed) {
        arm_due_timer(srv, due);
    }
}

/* ---- Server ---- */

int net_server_start(uv_loop_t *loop, const struct net_config *cfg, struct sess_hub *hub,
                     struct net_server **ret_srv, char *bound, size_t boundlen)
{
    struct sockaddr_storage ss;
    int len = sizeof(ss);
    char host[INET6_ADDRSTRLEN];
    struct net_server *srv;
    int rc;

    srv = calloc(1, sizeof(*srv));
    if (!srv) {
        return UV_ENOMEM;
    }
    srv->loop = loop;
    srv->cfg = cfg;
    srv->hub = hub;
    if (uv_ip4_addr(cfg->host, cfg->port, (struct sockaddr_in *)&ss) != 0 &&
        uv_ip6_addr(cfg->host, cfg->port, (struct sockaddr_in6 *)&ss) != 0) {
        free(srv);
        return UV_EINVAL;
    }
    uv_tcp_init(loop, &srv->listener);
    srv->listener.data = srv;
    rc = uv_tcp_bind(&srv->listener, (struct sockaddr *)&ss, 0);
    if (rc == 0) {
        rc = uv_listen((uv_stream_t *)&srv->listener, 511, on_connection);
    }
    if (rc == 0) {
        rc = uv_tcp_getsockname(&srv->listener, (struct sockaddr *)&ss, &len);
    }
    if (rc != 0) {
        uv_close((uv_handle_t *)&srv->listener, NULL);
        uv_run(loop, UV_RUN_NOWAIT);
        free(srv);
        return rc;
    }
    if (ss.ss_family == AF_INET6) {
        uv_ip6_name((struct sockaddr_in6 *)&ss, host, sizeof(host));
        snprintf(bound, boundlen, "[%s]:%d", host,
                 ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
    } else {
        uv_ip4_name((struct sockaddr_in *)&ss, host, sizeof(host));
        snprintf(bound, boundlen, "%s:%d", host, ntohs(((struct sockaddr_in *)&ss)->sin_port));
    }
    uv_timer_init(loop, &srv->due_timer);
    srv->due_timer.data = srv;
    srv->due_armed = UINT64_MAX;
    due_poke(srv); /* rooms restored from journals may have work */
    uv_timer_init(loop, &srv->stop_timer);
    srv->stop_timer.data = srv;
    *ret_srv = srv;
    return 0;
}

static void on_stop_timer(uv_timer_t *t)
{
    struct net_server *srv = t->data;
    struct conn *c = srv->conns;

    while (c) {
        struct conn *next = c->next;
        conn_close_now(c);
        c = next;
    }
}

void net_server_stop(struct net_server *srv, uint64_t grace_ms)
{
    if (srv->stopping) {
        return;
    }
    srv->stopping = true;
    uv_close((uv_handle_t *)&srv->listener, NULL);
    uv_close((uv_handle_t *)&srv->due_timer, NULL);
    for (struct conn *c = srv->conns; c; c = c->next) {
        conn_close(c, true);
    }
    if (srv->conns) {
        uv_timer_start(&srv->stop_timer, on_stop_timer, grace_ms, 0);
    } else {
        uv_close((uv_handle_t *)&srv->stop_timer, NULL);
    }
}

void net_server_free(struct net_server *srv)
{
    free(srv);
}
