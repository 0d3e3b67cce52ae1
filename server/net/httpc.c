/* SPDX-License-Identifier: MIT */
/*
 * httpc.c - outbound POSTs for the server's notices (see httpc.h): each
 * request resolves its host with uv_getaddrinfo(), checks every address,
 * then has one connection of a client-only libwebsockets context on the
 * server's loop, to the numeric address it checked, while Host:, TLS SNI
 * and the certificate's name check use the URL's host name (libwebsockets
 * 4.1 takes those from lws_client_connect_info.host, the socket's peer
 * from .address). Redirects are not followed: a 3xx is the answer.
 *
 * A request lives in one of max_pending slots; its lookup and its
 * connection know it by a serial number, never by a pointer, so that a
 * lookup or a connection that outlives its request (timed out, closed)
 * finds nothing. Answers go out from a zero timer of the slot, never from
 * inside httpc_post(). The client never frees itself: httpc_close() ends
 * with `closed`, after which the caller frees.
 */
#include "httpc.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libwebsockets.h>

#include "log.h"
#include "lwslog.h"
#include "lwstls.h"

#define TIMEOUT_DEFAULT_MS 15000
#define PENDING_DEFAULT 64
#define ANSWER_READ_MAX (64 * 1024) /* answer bytes read (and dropped) at most */
#define HOST_MAX 256

enum slot_state {
    SLOT_FREE,
    SLOT_RESOLVING, /* its lookup is under way */
    SLOT_ASKING,    /* its connection is */
    SLOT_ANSWERED,  /* its end waits for the timer */
};

/* A URL taken apart; `host` without brackets. */
struct url {
    bool tls;
    char host[HOST_MAX];
    int port;
    const char *path; /* into the URL; "" for "/" */
};

struct slot {
    struct httpc *c;
    enum slot_state state;
    uint64_t serial; /* the lookup's and the connection's key; 0: none */
    uv_timer_t timer;
    struct lws *wsi;
    httpc_done_fn done;
    void *arg;
    struct url url;
    struct lookup *lookup; /* while resolving */
    char *path;            /* copied, "/" at least */
    char *hostarg;         /* Host: (with ":port" when it is not the scheme's) */
    char *headers;         /* "Name: value\r\n"..., copied */
    size_t headers_len;
    unsigned char *body; /* LWS_PRE bytes, then the body */
    size_t len;
    char addr[INET6_ADDRSTRLEN];
    bool sent_headers; /* the request's headers went out (TLS is up) */
    int status;        /* HTTP status, 0 before the answer's headers */
    size_t got;        /* answer body bytes read */
    int result;        /* what done hears */
};

/* One lookup; it outlives its slot when the request ends first. */
struct lookup {
    uv_getaddrinfo_t req;
    struct httpc *c;
    uint64_t serial;
};

struct httpc {
    uv_loop_t *loop;
    char **allow; /* copied, NULL-terminated; NULL: none */
    uint64_t timeout_ms;
    unsigned nslots;
    struct slot *slots;
    struct lws_context *ctx;
    void *tls; /* the context's client TLS context (lwstls.h), ours to free */
    uint64_t next_serial;
    uint64_t sent, answered, failed;
    unsigned lookups; /* uv_getaddrinfo() requests under way */
    /* The handles libwebsockets put on the loop with the context: once
     * none is left, every one of its handles is closed (see on_wait). */
    const uv_handle_t **lws_handles;
    size_t n_lws_handles;
    uv_timer_t stop_timer;
    uv_prepare_t wait;
    unsigned open_handles; /* ours, while closing */
    bool closing, destroyed;
    void (*closed)(void *arg);
    void *closed_arg;
};

/* ---- Addresses ---- */

static bool v4_public(uint32_t a)
{
    static const struct {
        uint32_t net;
        int bits;
    } no[] = {
        {0x00000000, 8},  /* 0/8 "this network" */
        {0x0a000000, 8},  /* 10/8 private */
        {0x64400000, 10}, /* 100.64/10 shared (CGNAT) */
        {0x7f000000, 8},  /* 127/8 loopback */
        {0xa9fe0000, 16}, /* 169.254/16 link-local */
        {0xac100000, 12}, /* 172.16/12 private */
        {0xc0000000, 24}, /* 192.0.0/24 IETF protocol assignments */
        {0xc0000200, 24}, /* 192.0.2/24 documentation */
        {0xc0586300, 24}, /* 192.88.99/24 6to4 relays (deprecated) */
        {0xc0a80000, 16}, /* 192.168/16 private */
        {0xc6120000, 15}, /* 198.18/15 benchmarking */
        {0xc6336400, 24}, /* 198.51.100/24 documentation */
        {0xcb007100, 24}, /* 203.0.113/24 documentation */
        {0xe0000000, 4},  /* 224/4 multicast */
        {0xf0000000, 4},  /* 240/4 reserved, and the broadcast address */
    };

    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
        uint32_t mask = 0xffffffffu << (32 - no[i].bits);
        if ((a & mask) == no[i].net) {
            return false;
        }
    }
    return true;
}

static uint32_t v4_at(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static bool v6_public(const uint8_t *b)
{
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    static const uint8_t nat64[12] = {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};

    /* ::ffff:a.b.c.d and the NAT64 well-known prefix 64:ff9b::/96 reach
     * the IPv4 address they hold. */
    if (memcmp(b, mapped, 12) == 0 || memcmp(b, nat64, 12) == 0) {
        return v4_public(v4_at(b + 12));
    }
    /* Only global unicast, 2000::/3, is public; within it, not 2001::/23
     * (IETF protocol assignments: Teredo, ORCHID, benchmarking),
     * 2001:db8::/32 and 3fff::/20 (documentation); 6to4 (2002::/16) as the
     * IPv4 address it holds. */
    if ((b[0] & 0xe0) != 0x20) {
        return false; /* ::, ::1, fc00::/7, fe80::/10, ff00::/8, 64:ff9b:1::/48... */
    }
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] < 0x02) {
        return false;
    }
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) {
        return false;
    }
    if (b[0] == 0x3f && (b[1] & 0xf0) == 0xf0) {
        return false;
    }
    if (b[0] == 0x20 && b[1] == 0x02) {
        return v4_public(v4_at(b + 2));
    }
    return true;
}

/* Whether `sa` (AF_INET or AF_INET6) is an address on the public
 * Internet: not loopback, private, shared (CGNAT), link-local, multicast,
 * unspecified, reserved or for documentation, nor an IPv6 form of one of
 * those IPv4 addresses. Any other family is not. */
bool httpc_addr_public(const struct sockaddr *sa)
{
    if (!sa) {
        return false;
    }
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        return v4_public(ntohl(in->sin_addr.s_addr));
    }
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        return v6_public(in6->sin6_addr.s6_addr);
    }
    return false;
}

/* The message of `err` (a negative HTTPC_ERR_*), or of an HTTP status.
 * Static text. */
const char *httpc_strerror(int err)
{
    switch (err) {
#define HTTPC_ERR_MSG(name, code, msg)                                                             \
    case HTTPC_ERR_##name:                                                                         \
        return msg;
        HTTPC_ERR_MAP(HTTPC_ERR_MSG)
#undef HTTPC_ERR_MSG
    default:
        return err >= 100 && err <= 599 ? "an HTTP status" : "unknown error";
    }
}

static const char *err_name(int err)
{
    switch (err) {
#define HTTPC_ERR_NAME(name, code, msg)                                                            \
    case HTTPC_ERR_##name:                                                                         \
        return #name;
        HTTPC_ERR_MAP(HTTPC_ERR_NAME)
#undef HTTPC_ERR_NAME
    default:
        return "UNKNOWN";
    }
}

/* ---- URLs ---- */

static bool is_allowed(const struct httpc *c, const char *host)
{
    for (char **a = c->allow; a && *a; a++) {
        if (strcasecmp(*a, host) == 0) {
            return true;
        }
    }
    return false;
}

/* Whether `host` is written as an address (IPv4 in any of the forms
 * inet_aton() takes, like "127.1", or IPv6); its address in `ss`. */
static bool literal_addr(const char *host, struct sockaddr_storage *ss)
{
    struct in_addr a4;

    memset(ss, 0, sizeof(*ss));
    if (inet_pton(AF_INET6, host, &((struct sockaddr_in6 *)ss)->sin6_addr) == 1) {
        ss->ss_family = AF_INET6;
        return true;
    }
    if (inet_aton(host, &a4)) {
        ss->ss_family = AF_INET;
        ((struct sockaddr_in *)ss)->sin_addr = a4;
        return true;
    }
    return false;
}

static bool host_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '-' || ch == '.';
}

/* Characters of a path and query: printable ASCII but space, '#' (no
 * fragment), '"', '<', '>', '\\', '^', '`', '{', '|', '}'. */
static bool path_char(unsigned char ch)
{
    return ch > 0x20 && ch < 0x7f && !strchr("#\"<>\\^`{|}", ch);
}

#define FAIL(code, ...)                                                                            \
    do {                                                                                           \
        if (msg && msglen) {                                                                       \
            snprintf(msg, msglen, __VA_ARGS__);                                                    \
        }                                                                                          \
        return (code);                                                                             \
    } while (0)

/* Takes `s` apart into `u` and checks it against the policy: 0, or
 * HTTPC_ERR_BAD_URL or HTTPC_ERR_REFUSED with a message in `msg`. */
static int url_parse(const struct httpc *c, const char *s, bool need_https, struct url *u,
                     char *msg, size_t msglen)
{
    size_t n = strnlen(s, HTTPC_URL_MAX + 1);
    const char *h;

    memset(u, 0, sizeof(*u));
    if (n > HTTPC_URL_MAX) {
        FAIL(HTTPC_ERR_BAD_URL, "the URL is longer than %d bytes", HTTPC_URL_MAX);
    }
    if (strncasecmp(s, "https://", 8) == 0) {
        u->tls = true;
        h = s + 8;
    } else if (strncasecmp(s, "http://", 7) == 0 && !need_https) {
        h = s + 7;
    } else {
        FAIL(HTTPC_ERR_BAD_URL, "the URL must start with %s",
             need_https ? "https://"
                        : "https://"
                          " or http://");
    }
    const char *hend;
    const char *after;
    if (h[0] == '[') {
        hend = strchr(h, ']');
        if (!hend) {
            FAIL(HTTPC_ERR_BAD_URL, "the URL's IPv6 address has no closing ']'");
        }
        after = hend + 1;
        h++;
    } else {
        hend = h + strcspn(h, ":/?#");
        after = hend;
    }
    size_t hlen = (size_t)(hend - h);
    if (hlen == 0 || hlen >= sizeof(u->host)) {
        FAIL(HTTPC_ERR_BAD_URL, "the URL has no host, or one too long");
    }
    memcpy(u->host, h, hlen);
    u->host[hlen] = '\0';
    bool bracketed = h[-1] == '[';
    struct sockaddr_storage ss;
    if (bracketed) {
        struct in6_addr a6;
        if (inet_pton(AF_INET6, u->host, &a6) != 1) {
            FAIL(HTTPC_ERR_BAD_URL, "the URL's host is not an IPv6 address");
        }
    } else {
        for (size_t i = 0; i < hlen; i++) {
            if (!host_char(u->host[i])) {
                FAIL(HTTPC_ERR_BAD_URL, "the URL's host has a character a host name cannot have");
            }
        }
        if (u->host[0] == '.' || u->host[0] == '-' || u->host[hlen - 1] == '.' ||
            strstr(u->host, "..")) {
            FAIL(HTTPC_ERR_BAD_URL, "the URL's host is not a host name");
        }
    }
    u->port = u->tls ? 443 : 80;
    if (*after == ':') {
        char *end;
        const char *p = after + 1;
        if (*p < '0' || *p > '9') {
            FAIL(HTTPC_ERR_BAD_URL, "the URL's port is not a number");
        }
        long port = strtol(p, &end, 10);
        if (port < 1 || port > 65535 || end - p > 5) {
            FAIL(HTTPC_ERR_BAD_URL, "the URL's port is not between 1 and 65535");
        }
        u->port = (int)port;
        after = end;
    }
    if (*after != '\0' && *after != '/') {
        FAIL(HTTPC_ERR_BAD_URL, "the URL's path must start with '/'");
    }
    for (const char *p = after; *p; p++) {
        if (!path_char((unsigned char)*p)) {
            FAIL(HTTPC_ERR_BAD_URL, "the URL's path has a space, a fragment or a character that "
                                    "must be percent-encoded");
        }
    }
    u->path = after;

    /* The policy. */
    if (c && c->allow) {
        if (!is_allowed(c, u->host)) {
            FAIL(HTTPC_ERR_REFUSED, "the host %s is not on the allow list", u->host);
        }
        return 0;
    }
    if (literal_addr(u->host, &ss) && !httpc_addr_public((struct sockaddr *)&ss)) {
        FAIL(HTTPC_ERR_REFUSED, "the URL's address is not a public one");
    }
    size_t ll = strlen("localhost");
    if (strcasecmp(u->host, "localhost") == 0 ||
        (hlen > ll && strcasecmp(u->host + hlen - ll - 1, ".localhost") == 0)) {
        FAIL(HTTPC_ERR_REFUSED, "the URL's host is this machine");
    }
    return 0;
}

/* Checks `url` as httpc_post() would before any lookup: http:// or
 * https:// (https:// only when `need_https`), a host, an optional port and
 * a path of at most HTTPC_URL_MAX bytes in all; with an allow list, a host
 * name on it; without, not an address that is not public, nor localhost.
 * `c` is only read (NULL: no allow list). Returns 0, or -1 with a sentence
 * for people in `msg` (`msglen` bytes; may be NULL). */
int httpc_url_check(const struct httpc *c, const char *url, bool need_https, char *msg,
                    size_t msglen)
{
    struct url u;

    if (!url) {
        FAIL(-1, "there is no URL");
    }
    return url_parse(c, url, need_https, &u, msg, msglen) == 0 ? 0 : -1;
}

/* "Name: value" strings as "Name: value\r\n" lines: a token, a colon, a
 * value of printable characters and tabs; not a header the client writes
 * itself. A new string in `*ret`, or an HTTPC_ERR_*. */
static int headers_join(const char *const *headers, char **ret, size_t *ret_len)
{
    static const char *const own[] = {"host",       "content-length", "transfer-encoding",
                                      "connection", "expect",         "upgrade"};
    size_t total = 0;

    for (const char *const *h = headers; h && *h; h++) {
        const char *colon = strchr(*h, ':');
        if (!colon || colon == *h) {
            return HTTPC_ERR_BAD_HEADER;
        }
        for (const char *p = *h; p < colon; p++) {
            if (!(host_char(*p) && *p != '.') && !strchr("!#$%&'*+^_`|~.", *p)) {
                return HTTPC_ERR_BAD_HEADER;
            }
        }
        for (const char *p = colon + 1; *p; p++) {
            unsigned char ch = (unsigned char)*p;
            if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
                return HTTPC_ERR_BAD_HEADER;
            }
        }
        size_t nlen = (size_t)(colon - *h);
        for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
            if (nlen == strlen(own[i]) && strncasecmp(*h, own[i], nlen) == 0) {
                return HTTPC_ERR_BAD_HEADER;
            }
        }
        total += strlen(*h) + 2;
        if (total > HTTPC_HEADERS_MAX) {
            return HTTPC_ERR_TOO_BIG;
        }
    }
    char *all = malloc(total + 1);
    if (!all) {
        return HTTPC_ERR_NOMEM;
    }
    size_t off = 0;
    for (const char *const *h = headers; h && *h; h++) {
        size_t l = strlen(*h);
        memcpy(all + off, *h, l);
        memcpy(all + off + l, "\r\n", 2);
        off += l + 2;
    }
    all[off] = '\0';
    *ret = all;
    *ret_len = off;
    return 0;
}

/* ---- Ends ---- */

static void slot_reset(struct slot *q)
{
    free(q->path);
    free(q->hostarg);
    free(q->headers);
    free(q->body);
    q->path = q->hostarg = q->headers = NULL;
    q->body = NULL;
    q->headers_len = q->len = q->got = 0;
    q->sent_headers = false;
    q->status = 0;
    q->serial = 0;
    q->lookup = NULL;
    q->wsi = NULL;
    q->done = NULL;
    q->arg = NULL;
    q->addr[0] = '\0';
    q->state = SLOT_FREE;
}

/* The slot is free before the caller hears, so that it may post again
 * from `done`. */
static void slot_deliver(struct slot *q)
{
    httpc_done_fn done = q->done;
    void *arg = q->arg;
    int result = q->result;

    slot_reset(q);
    if (done) {
        done(arg, result);
    }
}

static void on_answer_timer(uv_timer_t *t)
{
    struct slot *q = t->data;

    if (q->state == SLOT_ANSWERED) {
        slot_deliver(q);
    }
}

/* The request has its end: its connection is let go (it finds no slot any
 * more) and `result` goes out from the loop. */
static void slot_end(struct slot *q, int result)
{
    struct httpc *c = q->c;

    if (q->state != SLOT_RESOLVING && q->state != SLOT_ASKING) {
        return;
    }
    q->result = result;
    if (result > 0) {
        c->answered++;
    } else {
        c->failed++;
        log_event(LOG_DEBUG, "httpc_failed", "host=%s err=%s", q->url.host, err_name(result));
    }
    q->state = SLOT_ANSWERED;
    q->serial = 0;
    q->lookup = NULL;
    if (q->wsi) {
        lws_set_timeout(q->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        q->wsi = NULL;
    }
    uv_timer_stop(&q->timer);
    uv_timer_start(&q->timer, on_answer_timer, 0, 0);
}

static void on_timeout(uv_timer_t *t)
{
    struct slot *q = t->data;

    /* A server that gave its status but not the whole body has answered. */
    slot_end(q, q->status >= 100 ? q->status : HTTPC_ERR_TIMEOUT);
}

static struct slot *slot_by_serial(struct httpc *c, uint64_t serial, enum slot_state state)
{
    if (serial == 0) {
        return NULL;
    }
    for (unsigned i = 0; i < c->nslots; i++) {
        if (c->slots[i].state == state && c->slots[i].serial == serial) {
            return &c->slots[i];
        }
    }
    return NULL;
}

/* ---- The connection ---- */

static struct slot *slot_of(struct lws *wsi)
{
    struct httpc *c = lws_context_user(lws_get_context(wsi));
    uint64_t serial = (uint64_t)(uintptr_t)lws_get_opaque_user_data(wsi);

    return c ? slot_by_serial(c, serial, SLOT_ASKING) : NULL;
}

static int add_headers(struct slot *q, struct lws *wsi, void *in, size_t len)
{
    unsigned char **p = in, *end = *p + len;
    char n[24];

    q->sent_headers = true;
    if ((size_t)(end - *p) < q->headers_len + 64) {
        return -1;
    }
    memcpy(*p, q->headers, q->headers_len);
    *p += q->headers_len;
    snprintf(n, sizeof(n), "%zu", q->len);
    if (lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, (const unsigned char *)n,
                                     (int)strlen(n), p, end)) {
        return -1;
    }
    if (q->len > 0) {
        lws_client_http_body_pending(wsi, 1);
        lws_callback_on_writable(wsi);
    }
    return 0;
}

static int write_body(struct slot *q, struct lws *wsi)
{
    if (q->len == 0) {
        return 0;
    }
    lws_client_http_body_pending(wsi, 0);
    /* libwebsockets keeps what the socket does not take at once. */
    int n = lws_write(wsi, q->body + LWS_PRE, q->len, LWS_WRITE_HTTP_FINAL);
    return n == (int)q->len ? 0 : -1;
}

/* Which error a connection that failed before its answer gets. */
static int connect_error(const struct slot *q, const char *why)
{
    if (q->url.tls && !q->sent_headers && why &&
        (strstr(why, "SSL") || strstr(why, "cert") || strstr(why, "tls") ||
         strstr(why, "connect SYSCALL") || strstr(why, "connect unk"))) {
        return HTTPC_ERR_TLS;
    }
    return HTTPC_ERR_CONNECT;
}

static int cb_client(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                     size_t len)
{
    struct slot *q;

    switch (reason) {
    case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
    case LWS_CALLBACK_CLIENT_HTTP_WRITEABLE:
    case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
    case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
    case LWS_CALLBACK_RECEIVE_CLIENT_HTTP:
    case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
        q = slot_of(wsi);
        if (!q) {
            return -1; /* its request is over */
        }
        q->wsi = wsi;
        break;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
        q = slot_of(wsi);
        if (q) {
            q->wsi = NULL;
            if (reason == LWS_CALLBACK_CLIENT_CONNECTION_ERROR) {
                char why[LOG_QUOTE_MAX];
                log_event(LOG_DEBUG, "httpc_connect_failed", "host=%s reason=%s", q->url.host,
                          log_quote(why, sizeof(why), in ? (const char *)in : "unknown"));
            }
            slot_end(q, q->status >= 100 ? q->status : connect_error(q, in));
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
        if (q->status < 100 || q->status > 599) {
            slot_end(q, HTTPC_ERR_CONNECT);
            return -1;
        }
        if (q->status < 200 || q->status == 204 || q->status == 304) {
            /* No body follows; without a Content-Length libwebsockets
             * would wait for the server to hang up. */
            slot_end(q, q->status);
        }
        return 0;
    case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
        q->got += len;
        if (q->got > ANSWER_READ_MAX) {
            slot_end(q, q->status); /* enough of it: the status is the answer */
        }
        return 0;
    case LWS_CALLBACK_RECEIVE_CLIENT_HTTP: {
        char buf[LWS_PRE + 4096];
        char *p = buf + LWS_PRE;
        int n = (int)sizeof(buf) - LWS_PRE;
        return lws_http_client_read(wsi, &p, &n) < 0 ? -1 : 0;
    }
    case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
        q->wsi = NULL;
        slot_end(q, q->status);
        return -1; /* one request per connection */
    default:
        return 0;
    }
}

static const struct lws_protocols protocols[] = {
    {"conclave-httpc", cb_client, 0, 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* The first IPv4 address of `res`, else its first: every address must be
 * public unless the host is on the allow list. 0 with the numeric address
 * in `q->addr`, or an HTTPC_ERR_*. */
static int pick_addr(struct slot *q, const struct addrinfo *res)
{
    const struct addrinfo *pick = NULL;
    bool allowed = is_allowed(q->c, q->url.host);

    for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6) {
            continue;
        }
        if (!allowed && !httpc_addr_public(ai->ai_addr)) {
            return HTTPC_ERR_ADDRESS;
        }
        if (!pick || (pick->ai_family != AF_INET && ai->ai_family == AF_INET)) {
            pick = ai;
        }
    }
    if (!pick) {
        return HTTPC_ERR_RESOLVE;
    }
    if (pick->ai_family == AF_INET) {
        uv_ip4_name((const struct sockaddr_in *)pick->ai_addr, q->addr, sizeof(q->addr));
    } else {
        uv_ip6_name((const struct sockaddr_in6 *)pick->ai_addr, q->addr, sizeof(q->addr));
    }
    return 0;
}

static void slot_connect(struct slot *q)
{
    struct lws_client_connect_info ci;

    q->state = SLOT_ASKING;
    memset(&ci, 0, sizeof(ci));
    ci.context = q->c->ctx;
    ci.address = q->addr;
    ci.port = q->url.port;
    ci.ssl_connection = LCCSCF_HTTP_NO_FOLLOW_REDIRECT | (q->url.tls ? LCCSCF_USE_SSL : 0);
    ci.path = q->path;
    ci.host = q->hostarg;
    ci.method = "POST";
    ci.protocol = protocols[0].name;
    ci.alpn = "http/1.1";
    ci.opaque_user_data = (void *)(uintptr_t)q->serial;
    if (!lws_client_connect_via_info(&ci)) {
        /* Failed at once (the error callback may have ended it already). */
        slot_end(q, HTTPC_ERR_CONNECT);
    }
}

static void on_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
    struct lookup *l = req->data;
    struct httpc *c = l->c;
    struct slot *q = slot_by_serial(c, l->serial, SLOT_RESOLVING);

    c->lookups--;
    free(l);
    if (q) {
        q->lookup = NULL;
        int rc = status == 0 ? pick_addr(q, res) : HTTPC_ERR_RESOLVE;
        if (rc != 0) {
            slot_end(q, rc);
        } else {
            slot_connect(q);
        }
    }
    uv_freeaddrinfo(res);
}

/* POSTs `len` bytes of `body` (copied; may be NULL when `len` is 0) to
 * `url`, with `headers` ("Name: value" strings, NULL-terminated, copied;
 * may be NULL) and a Content-Length. The host is resolved on the loop;
 * unless it is on the allow list, a host with any address that is not
 * public ends with HTTPC_ERR_ADDRESS. Returns 0, after which `done(arg,
 * status)` is called exactly once from a later loop turn (never inside
 * this call), or a negative HTTPC_ERR_* (the URL, a header, the sizes, too
 * many under way, closing, memory), and `done` is never called. */
int httpc_post(struct httpc *c, const char *url, const char *const *headers, const void *body,
               size_t len, httpc_done_fn done, void *arg)
{
    struct slot *q = NULL;
    struct url u;

    if (c->closing) {
        return HTTPC_ERR_CLOSED;
    }
    if (!url || (len > 0 && !body)) {
        return HTTPC_ERR_BAD_URL;
    }
    int rc = url_parse(c, url, false, &u, NULL, 0);
    if (rc != 0) {
        return rc;
    }
    if (len > HTTPC_BODY_MAX) {
        return HTTPC_ERR_TOO_BIG;
    }
    for (unsigned i = 0; i < c->nslots && !q; i++) {
        q = c->slots[i].state == SLOT_FREE ? &c->slots[i] : NULL;
    }
    if (!q) {
        return HTTPC_ERR_TOO_MANY;
    }
    rc = headers_join(headers, &q->headers, &q->headers_len);
    if (rc != 0) {
        return rc;
    }
    bool v6 = strchr(u.host, ':') != NULL;
    bool default_port = u.port == (u.tls ? 443 : 80);
    size_t hostlen = strlen(u.host) + 16;
    struct lookup *l = malloc(sizeof(*l));
    q->path = strdup(u.path[0] ? u.path : "/");
    q->hostarg = malloc(hostlen);
    q->body = malloc(LWS_PRE + len);
    if (!l || !q->path || !q->hostarg || !q->body) {
        free(l);
        slot_reset(q);
        return HTTPC_ERR_NOMEM;
    }
    if (default_port) {
        snprintf(q->hostarg, hostlen, "%s%s%s", v6 ? "[" : "", u.host, v6 ? "]" : "");
    } else {
        snprintf(q->hostarg, hostlen, "%s%s%s:%d", v6 ? "[" : "", u.host, v6 ? "]" : "", u.port);
    }
    if (len > 0) {
        memcpy(q->body + LWS_PRE, body, len);
    }
    q->len = len;
    q->url = u;
    q->url.path = NULL; /* into the caller's string */
    q->done = done;
    q->arg = arg;
    q->serial = ++c->next_serial;
    q->state = SLOT_RESOLVING;

    struct addrinfo hints;
    char port[8];
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(port, sizeof(port), "%d", u.port);
    l->c = c;
    l->serial = q->serial;
    l->req.data = l;
    rc = uv_getaddrinfo(c->loop, &l->req, on_resolved, u.host, port, &hints);
    if (rc != 0) {
        free(l);
        slot_reset(q);
        return rc == UV_ENOMEM ? HTTPC_ERR_NOMEM : HTTPC_ERR_RESOLVE;
    }
    q->lookup = l;
    c->lookups++;
    c->sent++;
    uv_timer_start(&q->timer, on_timeout, c->timeout_ms, 0);
    return 0;
}

/* The requests since the start, by end, and those under way. */
void httpc_stats(const struct httpc *c, struct httpc_stats *ret)
{
    memset(ret, 0, sizeof(*ret));
    ret->sent = c->sent;
    ret->answered = c->answered;
    ret->failed = c->failed;
    for (unsigned i = 0; i < c->nslots; i++) {
        ret->pending += c->slots[i].state != SLOT_FREE;
    }
}

/* ---- The client ---- */

struct handle_set {
    const uv_handle_t **h;
    size_t n, cap;
    bool failed;
};

static void collect(uv_handle_t *h, void *arg)
{
    struct handle_set *s = arg;

    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        const uv_handle_t **nh = realloc(s->h, cap * sizeof(*nh));
        if (!nh) {
            s->failed = true;
            return;
        }
        s->h = nh;
        s->cap = cap;
    }
    s->h[s->n++] = h;
}

static bool set_has(const struct handle_set *s, const uv_handle_t *h)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->h[i] == h) {
            return true;
        }
    }
    return false;
}

/* Keeps, of the handles on the loop now, those that were not in `before`
 * and live in the context's own memory (timers, idle, prepare and check
 * handles; not the connections' poll handles, which are freed as they
 * close). libwebsockets 4.1 closes those only after every connection's
 * handle, and says nothing to a foreign loop when they are done. */
static int note_lws_handles(struct httpc *c, const struct handle_set *before)
{
    struct handle_set after = {0};

    uv_walk(c->loop, collect, &after);
    if (after.failed) {
        free(after.h);
        return -1;
    }
    c->lws_handles = calloc(after.n ? after.n : 1, sizeof(*c->lws_handles));
    if (!c->lws_handles) {
        free(after.h);
        return -1;
    }
    for (size_t i = 0; i < after.n; i++) {
        uv_handle_type t = after.h[i]->type;
        if ((t == UV_TIMER || t == UV_IDLE || t == UV_PREPARE || t == UV_CHECK) &&
            !set_has(before, after.h[i])) {
            c->lws_handles[c->n_lws_handles++] = after.h[i];
        }
    }
    free(after.h);
    return 0;
}

static char **strv_copy(const char *const *v)
{
    size_t n = 0;

    while (v[n]) {
        n++;
    }
    char **r = calloc(n + 1, sizeof(*r));
    for (size_t i = 0; r && i < n; i++) {
        r[i] = strdup(v[i]);
        if (!r[i]) {
            for (size_t j = 0; j < i; j++) {
                free(r[j]);
            }
            free(r);
            return NULL;
        }
    }
    return r;
}

static void strv_free(char **v)
{
    for (char **p = v; p && *p; p++) {
        free(*p);
    }
    free(v);
}

/* A client on `cfg->loop` (the config is copied; `loop` must outlive the
 * client). NULL on failure, logged: memory, or a context that could not
 * start (a CA file that cannot be loaded). */
struct httpc *httpc_new(const struct httpc_config *cfg)
{
    struct httpc *c = calloc(1, sizeof(*c));
    struct handle_set before = {0};
    struct lws_context_creation_info info;
    void *loops[1] = {cfg->loop};

    if (!c) {
        goto fail_alloc;
    }
    c->loop = cfg->loop;
    c->timeout_ms = cfg->timeout_ms ? cfg->timeout_ms : TIMEOUT_DEFAULT_MS;
    c->nslots = cfg->max_pending ? cfg->max_pending : PENDING_DEFAULT;
    c->slots = calloc(c->nslots, sizeof(*c->slots));
    if (!c->slots) {
        goto fail_alloc;
    }
    if (cfg->allow) {
        c->allow = strv_copy(cfg->allow);
        if (!c->allow) {
            goto fail_alloc;
        }
    }
    uv_walk(c->loop, collect, &before);
    if (before.failed) {
        goto fail_alloc;
    }

    lwslog_route();
    memset(&info, 0, sizeof(info));
    info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
    info.foreign_loops = loops;
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.user = c;
    info.pt_serv_buf_size = HTTPC_HEADERS_MAX + 4096;
    /* The client's own timer ends a request first. */
    info.timeout_secs = (unsigned)(c->timeout_ms / 1000 + 5);
    /* Its own client TLS context, which trusts `ca_file` or the system's
     * certificates (libwebsockets would lose one it made: lwstls.h). */
    c->tls = lwstls_client_new(cfg->ca_file);
    if (!c->tls) {
        goto fail_ctx;
    }
    info.provided_client_ssl_ctx = c->tls;
    c->ctx = lws_create_context(&info);
    if (!c->ctx) {
        char ca[LOG_QUOTE_MAX];
        log_event(LOG_ERROR, "httpc_start_failed", "ca_file=%s",
                  log_quote(ca, sizeof(ca), cfg->ca_file ? cfg->ca_file : "system"));
        goto fail_ctx;
    }
    if (note_lws_handles(c, &before) != 0) {
        goto fail_handles;
    }
    free(before.h);
    uv_timer_init(c->loop, &c->stop_timer);
    c->stop_timer.data = c;
    uv_unref((uv_handle_t *)&c->stop_timer);
    uv_prepare_init(c->loop, &c->wait);
    c->wait.data = c;
    for (unsigned i = 0; i < c->nslots; i++) {
        c->slots[i].c = c;
        uv_timer_init(c->loop, &c->slots[i].timer);
        c->slots[i].timer.data = &c->slots[i];
        uv_unref((uv_handle_t *)&c->slots[i].timer);
    }
    return c;

fail_handles:
    /* Out of memory with nothing connected: the context is told to close,
     * and, as for a web server that failed to start (web.h), the caller
     * must not run the loop again. */
    log_event(LOG_ERROR, "httpc_start_failed", "reason=nomem");
    lws_context_destroy(c->ctx);
    c->ctx = NULL;
fail_ctx:
    lwstls_client_free(c->tls);
    free(before.h);
    strv_free(c->allow);
    free(c->slots);
    free(c);
    return NULL;
fail_alloc:
    log_event(LOG_ERROR, "httpc_start_failed", "reason=nomem");
    if (c) {
        strv_free(c->allow);
        free(c->slots);
    }
    free(c);
    return NULL;
}

static void on_handle_closed(uv_handle_t *h)
{
    struct httpc *c = h->data;

    if (--c->open_handles == 0 && c->closed) {
        c->closed(c->closed_arg);
    }
}

static bool lws_closed(struct httpc *c)
{
    struct handle_set now = {0};
    bool done = true;

    uv_walk(c->loop, collect, &now);
    for (size_t i = 0; i < c->n_lws_handles && done; i++) {
        done = !set_has(&now, c->lws_handles[i]);
    }
    if (now.failed) {
        done = false; /* try again next turn */
    }
    free(now.h);
    return done;
}

/* Before each poll while closing: once the context's handles and every
 * lookup are gone, the client closes its own handles. */
static void on_wait(uv_prepare_t *p)
{
    struct httpc *c = p->data;

    if (c->lookups > 0 || !lws_closed(c)) {
        return;
    }
    uv_prepare_stop(&c->wait);
    for (unsigned i = 0; i < c->nslots; i++) {
        if (c->slots[i].state == SLOT_ANSWERED) {
            slot_deliver(&c->slots[i]); /* its timer has not run yet */
        }
    }
    c->open_handles = c->nslots + 2;
    uv_close((uv_handle_t *)&c->wait, on_handle_closed);
    uv_close((uv_handle_t *)&c->stop_timer, on_handle_closed);
    for (unsigned i = 0; i < c->nslots; i++) {
        c->slots[i].timer.data = c;
        uv_close((uv_handle_t *)&c->slots[i].timer, on_handle_closed);
    }
}

static void on_stop(uv_timer_t *t)
{
    struct httpc *c = t->data;

    /* Starts closing the context's connections and handles, from the
     * loop, never inside one of its callbacks; httpc_free() frees it. */
    c->destroyed = true;
    lws_context_destroy(c->ctx);
    uv_prepare_start(&c->wait, on_wait);
}

/* Stops the client: every request under way ends with HTTPC_ERR_CLOSED
 * (from a later loop turn), httpc_post() refuses new ones, and
 * `closed(arg)` (may be NULL) is called from the loop once the context
 * and every handle of the client are closed; then httpc_free() may be
 * called, from `closed` or after. A second call does nothing. */
void httpc_close(struct httpc *c, void (*closed)(void *arg), void *arg)
{
    if (!c || c->closing) {
        return;
    }
    c->closing = true;
    c->closed = closed;
    c->closed_arg = arg;
    for (unsigned i = 0; i < c->nslots; i++) {
        struct slot *q = &c->slots[i];
        if (q->state == SLOT_RESOLVING && q->lookup) {
            /* Its callback still comes, with UV_EAI_CANCELED if the
             * lookup had not started. */
            (void)uv_cancel((uv_req_t *)&q->lookup->req);
        }
        slot_end(q, HTTPC_ERR_CLOSED);
    }
    uv_ref((uv_handle_t *)&c->stop_timer);
    uv_timer_start(&c->stop_timer, on_stop, 0, 0);
}

/* Frees `c` (NULL is fine): after `closed`, or a client never started on
 * the loop. */
void httpc_free(struct httpc *c)
{
    if (!c) {
        return;
    }
    if (c->ctx) {
        lws_context_destroy(c->ctx);
    }
    lwstls_client_free(c->tls);
    for (unsigned i = 0; i < c->nslots; i++) {
        slot_reset(&c->slots[i]);
    }
    strv_free(c->allow);
    free(c->lws_handles);
    free(c->slots);
    free(c);
}
