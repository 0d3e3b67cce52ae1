/* SPDX-License-Identifier: MIT */
/*
 * net.c - listener and connections on libuv.
 *
 * Each connection embeds its TCP handle and its timer and is freed only when
 * both close callbacks have run; it is never freed inside its own read
 * callback. Lines go from the framer to the session; replies and events come
 * back into the connection's output buffer, and a check handle flushes every
 * connection with output once per loop turn: one try-write, and only what the
 * kernel did not take is queued as one libuv write. Output is bounded per
 * connection: a reader that falls too far behind gets an error line and is
 * cut off, and nobody else waits for it. One timer runs the sessions' due
 * work (bot moves, room expiry).
 */
#include "net.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "log.h"
#include "outbuf.h"

#define READ_BUF_SIZE 65536

struct conn {
    struct net_link link; /* counted by the connection limits */
    uv_tcp_t tcp;
    uv_timer_t timer;     /* idle / hello timeout, then the close grace period */
    uv_write_t write_req; /* the one write in flight, if `writing` */
    uv_shutdown_t shutdown_req;
    struct net_server *srv;
    struct conn *prev, *next;
    struct conn *dirty_prev, *dirty_next; /* on srv->dirty while `dirty` */
    struct proto_framer framer;
    struct sess sess;
    struct outbuf out;    /* lines of this loop turn, not yet offered to the kernel */
    struct outbuf queued; /* what the kernel did not take: write_req's memory */
    int handles_open;
    bool closing;
    bool flushing;   /* closing gracefully: output still goes out, then a shutdown */
    bool shut;       /* the shutdown has been asked for */
    bool dirty;      /* the next flush has something to do */
    bool writing;    /* write_req is in flight */
    bool in_session; /* sess_fini still owed */
};

struct net_server {
    uv_loop_t *loop;
    struct bucket_table connect; /* new connections per address */
    uv_tcp_t listener;
    uv_timer_t due_timer;
    uv_timer_t stop_timer;
    uv_check_t flush_check;     /* flushes after the turn's I/O callbacks */
    uv_prepare_t flush_prepare; /* flushes what timers wrote before the loop waits */
    const struct net_config *cfg;
    struct sess_hub *hub;
    struct conn *conns;
    struct conn *dirty;     /* connections with output or a shutdown to flush */
    unsigned nconns;        /* TCP connections */
    struct net_link *links; /* connections of every transport */
    unsigned nlinks;
    struct net_stats stats;
    uint64_t next_id;
    uint64_t due_armed; /* when the due timer fires, UINT64_MAX: idle */
    bool stopping;
    char readbuf[READ_BUF_SIZE];
};

static void conn_close(struct conn *c, bool graceful);
static void due_run(struct net_server *srv);

/* ---- The dirty list ---- */

static void dirty_add(struct conn *c)
{
    struct net_server *srv = c->srv;

    if (c->dirty) {
        return;
    }
    c->dirty = true;
    c->dirty_prev = NULL;
    c->dirty_next = srv->dirty;
    if (srv->dirty) {
        srv->dirty->dirty_prev = c;
    }
    srv->dirty = c;
}

static void dirty_remove(struct conn *c)
{
    if (!c->dirty) {
        return;
    }
    c->dirty = false;
    if (c->dirty_prev) {
        c->dirty_prev->dirty_next = c->dirty_next;
    } else {
        c->srv->dirty = c->dirty_next;
    }
    if (c->dirty_next) {
        c->dirty_next->dirty_prev = c->dirty_prev;
    }
    c->dirty_prev = c->dirty_next = NULL;
}

/* ---- Connection teardown ---- */

static void conn_free(struct conn *c)
{
    struct net_server *srv = c->srv;

    dirty_remove(c);

    if (c->prev) {
        c->prev->next = c->next;
    } else {
        srv->conns = c->next;
    }
    if (c->next) {
        c->next->prev = c->prev;
    }
    srv->nconns--;
    net_link_remove(srv, &c->link);
    proto_framer_fini(&c->framer);
    outbuf_fini(&c->out);
    outbuf_fini(&c->queued);
    free(c);
    if (srv->stopping && srv->nconns == 0 && !uv_is_closing((uv_handle_t *)&srv->stop_timer)) {
        uv_close((uv_handle_t *)&srv->stop_timer, NULL);
        uv_close((uv_handle_t *)&srv->flush_check, NULL);
        uv_close((uv_handle_t *)&srv->flush_prepare, NULL);
    }
}

static void on_handle_closed(uv_handle_t *h)
{
    struct conn *c = h->data;

    if (--c->handles_open == 0) {
        conn_free(c);
    }
}

/* Ends the session (once) and closes both handles. Output not yet written
 * is dropped; with `reset`, so is what the kernel still holds, and the peer
 * gets a reset instead of an end of stream. */
static void conn_close_now(struct conn *c, bool reset)
{
    struct net_server *srv = c->srv;

    c->closing = true;
    c->link.closing = true;
    c->flushing = false;
    dirty_remove(c);
    if (c->in_session) {
        c->in_session = false;
        sess_fini(&c->sess, uv_now(srv->loop));
        /* Leaving may start a room's expiry clock (nobody connected). */
        net_due_poke(srv);
    }
    if (!uv_is_closing((uv_handle_t *)&c->tcp)) {
        /* libuv allows no reset once a shutdown has been asked for. */
        if (!reset || c->shut || uv_tcp_close_reset(&c->tcp, on_handle_closed) != 0) {
            uv_close((uv_handle_t *)&c->tcp, on_handle_closed);
        }
    }
    if (!uv_is_closing((uv_handle_t *)&c->timer)) {
        uv_close((uv_handle_t *)&c->timer, on_handle_closed);
    }
}

static void on_shutdown(uv_shutdown_t *req, int status)
{
    conn_close_now(req->data, false);
}

/* The end of a graceful close, or a deferred hard close. A graceful close
 * that has not handed everything to the kernel by now is a reader that does
 * not read: it is reset, so that the kernel does not keep sending it what
 * is left for as long as it keeps the window shut. */
static void on_grace_expired(uv_timer_t *t)
{
    struct conn *c = t->data;

    conn_close_now(c, c->flushing);
}

/* Starts closing `c`. Graceful: what is already buffered goes out, then
 * the write side is shut down by the next flush (bounded by a grace timer);
 * input is still read, and dropped, until the close, because bytes left
 * unread at close(2) make the kernel reset the connection and throw away
 * the output it has not sent yet, such as the error line that explains the
 * close. The session leaves its room in a later loop turn, never inside the
 * caller's stack, so the session code can close peers while it iterates
 * over them. */
static void conn_close(struct conn *c, bool graceful)
{
    if (c->closing) {
        if (!graceful) {
            conn_close_now(c, false);
        }
        return;
    }
    c->closing = true;
    c->link.closing = true;
    c->sess.closing = true;
    uv_timer_stop(&c->timer);
    if (graceful) {
        c->flushing = true;
        dirty_add(c);
        uv_timer_start(&c->timer, on_grace_expired, NET_GRACE_MS, 0);
        return;
    }
    uv_read_stop((uv_stream_t *)&c->tcp);
    /* Closing is deferred to the timer so that it never runs inside a caller
     * that still holds the connection. */
    uv_timer_start(&c->timer, on_grace_expired, 0, 0);
}

/* ---- Writing ---- */

/* Bytes accepted for `c` and not yet in the kernel: this turn's buffer plus
 * libuv's queue. */
static size_t conn_pending(struct conn *c)
{
    return c->out.len + uv_stream_get_write_queue_size((uv_stream_t *)&c->tcp);
}

static void on_write(uv_write_t *req, int status)
{
    struct conn *c = req->data;

    c->writing = false;
    outbuf_fini(&c->queued);
    if (status < 0) {
        conn_close(c, false);
        return;
    }
    if (c->out.len > 0 || c->flushing) {
        dirty_add(c);
    }
}

/* Hands `c`'s buffered output to the kernel: one try-write, and what the
 * kernel did not take becomes the connection's one queued write; lines
 * added meanwhile wait in `out` for its callback. A connection closing
 * gracefully is shut down once all its output is in the kernel. May close
 * `c` (never frees it). */
static void conn_flush(struct conn *c)
{
    uv_stream_t *stream = (uv_stream_t *)&c->tcp;

    if (c->closing && !c->flushing) {
        return;
    }
    if (!c->writing && c->out.len > 0) {
        uv_buf_t buf = uv_buf_init(c->out.data, (unsigned)c->out.len);
        int n = uv_try_write(stream, &buf, 1);

        net_count_bytes(c->srv, NET_TCP, 0, c->out.len);
        if (n == UV_EAGAIN) {
            n = 0;
        } else if (n < 0) {
            conn_close(c, false);
            return;
        }
        if ((size_t)n < c->out.len) {
            struct outbuf spare = c->queued;

            c->queued = c->out;
            c->out = spare;
            buf = uv_buf_init(c->queued.data + n, (unsigned)(c->queued.len - (size_t)n));
            c->write_req.data = c;
            if (uv_write(&c->write_req, stream, &buf, 1, on_write) != 0) {
                conn_close(c, false);
                return;
            }
            c->writing = true;
        } else {
            outbuf_fini(&c->out);
        }
    }
    if (c->flushing && !c->shut && !c->writing && c->out.len == 0) {
        c->shut = true;
        c->shutdown_req.data = c;
        if (uv_shutdown(&c->shutdown_req, stream, on_shutdown) != 0) {
            conn_close(c, false);
        }
    }
}

/* Flushes every connection with something to flush, each once. A flush that
 * closes a connection may give others output (its room hears that it left);
 * they are flushed in the same pass. */
static void flush_dirty(struct net_server *srv)
{
    struct conn *c;

    while ((c = srv->dirty) != NULL) {
        dirty_remove(c);
        conn_flush(c);
    }
}

static void on_flush_check(uv_check_t *h)
{
    flush_dirty(h->data);
}

static void on_flush_prepare(uv_prepare_t *h)
{
    flush_dirty(h->data);
}

/* `c` has more output waiting than its bound allows: it gets one error
 * line, when the bound still has room for it, and a graceful close.
 *
 * The wire code is server_busy: the server refuses to hold more unsent
 * output for this connection, a limit on its own memory like its other
 * capacity limits. rate_limited would be wrong: it answers requests sent
 * too fast and tells the client to slow down, but this output may be room
 * events the client never asked for, and it could not slow them down. */
static void conn_cut_off(struct conn *c, size_t wanted)
{
    size_t max = c->srv->cfg->write_queue_max;
    char msg[128];
    json_t *ev;
    char *line = NULL;
    size_t len;

    log_event(LOG_WARN, "slow_reader_cut_off", "addr=%s transport=tcp unsent_bytes=%zu bound=%zu",
              c->link.addr, wanted, max);
    snprintf(msg, sizeof(msg), "more than %zu bytes of output went unread; closing", max);
    ev = proto_event_error(PROTO_ERR_SERVER_BUSY, msg);
    if (ev) {
        line = proto_line_dump(ev, &len);
    }
    if (line && conn_pending(c) + len <= max && outbuf_append(&c->out, line, len) == 0) {
        dirty_add(c);
    }
    free(line);
    json_decref(ev);
    conn_close(c, true);
}

/* Buffers one line for `c`; the turn's flush writes it. Over the bound, `c`
 * is cut off instead (closed gracefully, never freed here). */
static void conn_send(void *ctx, const char *line, size_t len)
{
    struct conn *c = ctx;
    size_t max = c->srv->cfg->write_queue_max;
    size_t limit = max > NET_ERROR_ROOM ? max - NET_ERROR_ROOM : 0;
    size_t pending;

    if (c->closing) {
        return;
    }
    pending = conn_pending(c);
    if (pending + len > limit && c->out.len > 0 && !c->writing) {
        /* A turn with this much output offers it to the kernel now: the
         * bound is on what the reader leaves unread, not on one turn. */
        conn_flush(c);
        if (c->closing) {
            return;
        }
        pending = conn_pending(c);
    }
    if (pending + len > limit) {
        conn_cut_off(c, pending + len);
        return;
    }
    if (outbuf_append(&c->out, line, len) != 0) {
        conn_close(c, false);
        return;
    }
    dirty_add(c);
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

    log_event(LOG_INFO, "connection_timed_out", "addr=%s transport=tcp reason=%s", c->link.addr,
              c->sess.hello ? "idle" : "no_hello");
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
        /* At the end of the peer's input, what it is owed still goes out. */
        conn_close(c, nread == UV_EOF);
        return;
    }
    if (nread == 0 || c->closing) {
        return; /* a closing connection drops its input */
    }
    net_count_bytes(srv, NET_TCP, (size_t)nread, 0);
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
    /* Traffic restarts the idle timeout; only hello ends the hello
     * timeout, which keeps running from the accept until then. */
    if (!c->closing && c->sess.hello) {
        arm_idle(c);
    }
    net_due_poke(srv);
}

/* ---- Accepting ---- */

/* True when `addr` may open one more connection now (and takes a token). */
static bool connect_take(struct net_server *srv, const char *addr, uint64_t now)
{
    const double rate = srv->cfg->connect_rate;

    return bucket_take(&srv->connect, addr, now, rate, 2.0 * rate, 1.0);
}

static unsigned conns_from(const struct net_server *srv, const char *addr)
{
    unsigned n = 0;

    for (const struct net_link *l = srv->links; l; l = l->next) {
        n += !l->closing && strcmp(l->addr, addr) == 0;
    }
    return n;
}

const char *const net_transport_names[NET_NTRANSPORTS] = {"tcp", "websocket"};

struct net_stats net_server_stats(const struct net_server *srv)
{
    struct net_stats s = srv->stats;

    for (int t = 0; t < NET_NTRANSPORTS; t++) {
        s.open[t] = 0;
    }
    for (const struct net_link *l = srv->links; l; l = l->next) {
        s.open[l->transport] += !l->closing;
    }
    return s;
}

void net_count_bytes(struct net_server *srv, enum net_transport t, size_t in, size_t out)
{
    srv->stats.bytes_in[t] += in;
    srv->stats.bytes_out[t] += out;
}

/* Why the limits turn a new link away, or NULL. */
static const char *link_refusal(struct net_server *srv, struct net_link *link, uint64_t now)
{
    if (srv->nlinks > srv->cfg->max_conns) {
        return "the server has as many connections as it may";
    }
    if (!connect_take(srv, link->addr, now)) {
        return "too many new connections from your address; wait a moment";
    }
    if (conns_from(srv, link->addr) > srv->cfg->max_conns_per_addr) {
        return "too many connections from your address";
    }
    return NULL;
}

const char *net_link_add(struct net_server *srv, struct net_link *link, uint64_t now)
{
    link->prev = NULL;
    link->next = srv->links;
    if (srv->links) {
        srv->links->prev = link;
    }
    srv->links = link;
    srv->nlinks++;
    const char *why = link_refusal(srv, link, now);
    if (why) {
        srv->stats.refused[link->transport]++;
    } else {
        srv->stats.accepted[link->transport]++;
    }
    return why;
}

void net_link_remove(struct net_server *srv, struct net_link *link)
{
    if (link->prev) {
        link->prev->next = link->next;
    } else if (srv->links == link) {
        srv->links = link->next;
    } else {
        return; /* not counted */
    }
    if (link->next) {
        link->next->prev = link->prev;
    }
    link->prev = link->next = NULL;
    srv->nlinks--;
}

uint64_t net_server_next_id(struct net_server *srv)
{
    return ++srv->next_id;
}

struct sess_hub *net_server_hub(struct net_server *srv)
{
    return srv->hub;
}

const struct net_config *net_server_config(const struct net_server *srv)
{
    return srv->cfg;
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
        conn_close_now(c, false);
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1);
    peer_address(&c->tcp, c->link.addr, sizeof(c->link.addr));
    sess_set_address(&c->sess, c->link.addr);
    /* Read from the start, so that a refused connection drops what it
     * sends while its error line goes out (see conn_close). */
    if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) != 0) {
        conn_close(c, false);
        return;
    }
    const char *refused = net_link_add(srv, &c->link, uv_now(srv->loop));
    if (refused) {
        send_event_error(c, PROTO_ERR_SERVER_BUSY, refused);
        conn_close(c, true);
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
void net_due_poke(struct net_server *srv)
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
    if (srv && bucket_table_init(&srv->connect) != 0) {
        free(srv);
        srv = NULL;
    }
    if (!srv) {
        return UV_ENOMEM;
    }
    srv->loop = loop;
    srv->cfg = cfg;
    srv->hub = hub;
    if (uv_ip4_addr(cfg->host, cfg->port, (struct sockaddr_in *)&ss) != 0 &&
        uv_ip6_addr(cfg->host, cfg->port, (struct sockaddr_in6 *)&ss) != 0) {
        net_server_free(srv);
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
        net_server_free(srv);
        return rc;
    }
    if (ss.ss_family == AF_INET6) {
        uv_ip6_name((struct sockaddr_in6 *)&ss, host, sizeof(host));
        snprintf(bound, boundlen, "[%s]:%d", host, ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
    } else {
        uv_ip4_name((struct sockaddr_in *)&ss, host, sizeof(host));
        snprintf(bound, boundlen, "%s:%d", host, ntohs(((struct sockaddr_in *)&ss)->sin_port));
    }
    uv_timer_init(loop, &srv->due_timer);
    srv->due_timer.data = srv;
    srv->due_armed = UINT64_MAX;
    net_due_poke(srv); /* rooms restored from journals may have work */
    uv_timer_init(loop, &srv->stop_timer);
    srv->stop_timer.data = srv;
    /* The flush handles keep no loop alive by themselves; connections do. */
    uv_check_init(loop, &srv->flush_check);
    srv->flush_check.data = srv;
    uv_check_start(&srv->flush_check, on_flush_check);
    uv_unref((uv_handle_t *)&srv->flush_check);
    uv_prepare_init(loop, &srv->flush_prepare);
    srv->flush_prepare.data = srv;
    uv_prepare_start(&srv->flush_prepare, on_flush_prepare);
    uv_unref((uv_handle_t *)&srv->flush_prepare);
    *ret_srv = srv;
    return 0;
}

static void on_stop_timer(uv_timer_t *t)
{
    struct net_server *srv = t->data;
    struct conn *c = srv->conns;

    while (c) {
        struct conn *next = c->next;
        conn_close_now(c, false);
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
        uv_close((uv_handle_t *)&srv->flush_check, NULL);
        uv_close((uv_handle_t *)&srv->flush_prepare, NULL);
    }
}

void net_server_free(struct net_server *srv)
{
    if (srv) {
        bucket_table_fini(&srv->connect);
    }
    free(srv);
}
