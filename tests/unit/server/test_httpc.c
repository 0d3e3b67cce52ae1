/* SPDX-License-Identifier: MIT */
/*
 * test_httpc.c - the notices' outbound client on real loopback sockets: the
 * address table, the URL policy with and without an allow list, a POST to
 * an HTTP server of the test (what it receives, byte for byte), a server
 * that never answers, closing with a request under way, and HTTPS against
 * a TLS server of the test (OpenSSL) with certificates made by the
 * `openssl` command: the right name passes, another name or an unknown CA
 * fails.
 */
#include "ck_run.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <uv.h>

#include "httpc.h"

#define DEADLINE_MS 20000 /* a guard only: no test asserts a time */

static uv_loop_t loop;

/* ---- Running the loop ---- */

static bool expired;

static void on_deadline(uv_timer_t *t)
{
    expired = true;
}

/* Runs the loop until `*flag` (or the guard deadline). */
static void run_until(const bool *flag)
{
    uv_timer_t guard;

    expired = false;
    uv_timer_init(&loop, &guard);
    uv_timer_start(&guard, on_deadline, DEADLINE_MS, 0);
    while (!*flag && !expired) {
        uv_run(&loop, UV_RUN_ONCE);
    }
    uv_close((uv_handle_t *)&guard, NULL);
    uv_run(&loop, UV_RUN_NOWAIT);
    ck_assert_msg(*flag, "the loop's guard deadline passed");
}

struct result {
    bool done;
    int calls;
    int status;
    bool closed;
    bool done_before_closed;
};

static void on_done(void *arg, int status)
{
    struct result *r = arg;

    r->calls++;
    r->done = true;
    r->status = status;
}

static void on_closed(void *arg)
{
    struct result *r = arg;

    r->closed = true;
    r->done_before_closed = r->done;
}

/* Closes `c`, waits for `closed`, frees it. */
static void client_end(struct httpc *c, struct result *r)
{
    httpc_close(c, on_closed, r);
    run_until(&r->closed);
    httpc_free(c);
}

static void loop_end(void)
{
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
}

/* ---- An HTTP server on a loopback port ---- */

#define SRV_CONNS 4

struct srv;

struct sconn {
    uv_tcp_t h;
    struct srv *s;
    uv_write_t w;
    bool open;
};

struct srv {
    uv_tcp_t tcp;
    int port;
    bool answer; /* false: reads and never answers */
    char req[65536];
    size_t reqlen;
    bool complete; /* the whole request (headers and Content-Length bytes) */
    int nconns;
    struct sconn conns[SRV_CONNS];
};

static const char *header_end(const char *buf, size_t len)
{
    for (size_t i = 0; i + 4 <= len; i++) {
        if (memcmp(buf + i, "\r\n\r\n", 4) == 0) {
            return buf + i + 4;
        }
    }
    return NULL;
}

/* The value of header `name` in the request's head, or NULL. */
static const char *find_header(const char *req, const char *name, char *out, size_t outlen)
{
    size_t nlen = strlen(name);

    for (const char *p = strstr(req, "\r\n"); p && p[2] != '\r'; p = strstr(p + 2, "\r\n")) {
        const char *line = p + 2;
        if (strncasecmp(line, name, nlen) == 0 && line[nlen] == ':') {
            const char *v = line + nlen + 1;
            while (*v == ' ') {
                v++;
            }
            size_t vl = strcspn(v, "\r");
            if (vl >= outlen) {
                return NULL;
            }
            memcpy(out, v, vl);
            out[vl] = '\0';
            return out;
        }
    }
    return NULL;
}

static bool request_complete(const char *req, size_t len)
{
    const char *body = header_end(req, len);
    char cl[32];

    if (!body) {
        return false;
    }
    char head[8192];
    size_t hl = (size_t)(body - req);
    if (hl >= sizeof(head)) {
        return false;
    }
    memcpy(head, req, hl);
    head[hl] = '\0';
    size_t want = find_header(head, "content-length", cl, sizeof(cl)) ? strtoul(cl, NULL, 10) : 0;
    return len - hl >= want;
}

static void on_salloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    static char slab[65536];

    buf->base = slab;
    buf->len = sizeof(slab);
}

static void on_written(uv_write_t *w, int status)
{
}

static void on_sread(uv_stream_t *st, ssize_t n, const uv_buf_t *buf)
{
    struct sconn *k = st->data;
    struct srv *s = k->s;

    if (n < 0) {
        if (k->open) {
            k->open = false;
            uv_close((uv_handle_t *)&k->h, NULL);
        }
        return;
    }
    size_t room = sizeof(s->req) - 1 - s->reqlen;
    size_t take = (size_t)n < room ? (size_t)n : room;
    memcpy(s->req + s->reqlen, buf->base, take);
    s->reqlen += take;
    s->req[s->reqlen] = '\0';
    if (!s->complete && request_complete(s->req, s->reqlen)) {
        s->complete = true;
        if (s->answer) {
            /* No Content-Length: a 204 has no body, and the connection
             * stays open. */
            static char ans[] = "HTTP/1.1 204 No Content\r\n\r\n";
            uv_buf_t b = uv_buf_init(ans, sizeof(ans) - 1);
            uv_write(&k->w, st, &b, 1, on_written);
        }
    }
}

static void on_sconn(uv_stream_t *l, int status)
{
    struct srv *s = l->data;

    ck_assert_int_eq(status, 0);
    ck_assert_int_lt(s->nconns, SRV_CONNS);
    struct sconn *k = &s->conns[s->nconns++];
    k->s = s;
    uv_tcp_init(&loop, &k->h);
    k->h.data = k;
    ck_assert_int_eq(uv_accept(l, (uv_stream_t *)&k->h), 0);
    k->open = true;
    uv_read_start((uv_stream_t *)&k->h, on_salloc, on_sread);
}

static void srv_start(struct srv *s, bool answer)
{
    struct sockaddr_in a;
    struct sockaddr_storage got;
    int len = sizeof(got);

    memset(s, 0, sizeof(*s));
    s->answer = answer;
    uv_ip4_addr("127.0.0.1", 0, &a);
    uv_tcp_init(&loop, &s->tcp);
    s->tcp.data = s;
    ck_assert_int_eq(uv_tcp_bind(&s->tcp, (struct sockaddr *)&a, 0), 0);
    ck_assert_int_eq(uv_listen((uv_stream_t *)&s->tcp, 8, on_sconn), 0);
    uv_tcp_getsockname(&s->tcp, (struct sockaddr *)&got, &len);
    s->port = ntohs(((struct sockaddr_in *)&got)->sin_port);
}

static void srv_stop(struct srv *s)
{
    for (int i = 0; i < s->nconns; i++) {
        if (s->conns[i].open) {
            s->conns[i].open = false;
            uv_close((uv_handle_t *)&s->conns[i].h, NULL);
        }
    }
    uv_close((uv_handle_t *)&s->tcp, NULL);
}

/* ---- Addresses ---- */

struct addr_case {
    const char *addr;
    bool public;
};

static const struct addr_case addr_cases[] = {
    {"8.8.8.8", true},
    {"1.1.1.1", true},
    {"93.184.216.34", true},
    {"100.63.255.255", true},
    {"100.128.0.0", true},
    {"172.32.0.1", true},
    {"0.0.0.0", false},
    {"0.1.2.3", false},
    {"10.0.0.1", false},
    {"100.64.0.1", false},
    {"100.127.255.255", false},
    {"127.0.0.1", false},
    {"127.255.255.254", false},
    {"169.254.169.254", false},
    {"172.16.0.1", false},
    {"172.31.255.255", false},
    {"192.0.0.8", false},
    {"192.0.2.1", false},
    {"192.168.1.1", false},
    {"198.18.0.1", false},
    {"198.51.100.7", false},
    {"203.0.113.9", false},
    {"224.0.0.1", false},
    {"239.255.255.250", false},
    {"240.0.0.1", false},
    {"255.255.255.255", false},
    {"2606:4700:4700::1111", true},
    {"2001:4860:4860::8888", true},
    {"2a00:1450:4001::1", true},
    {"::ffff:8.8.8.8", true},
    {"64:ff9b::808:808", true},
    {"2002:808:808::1", true},
    {"::", false},
    {"::1", false},
    {"::ffff:127.0.0.1", false},
    {"::ffff:10.1.2.3", false},
    {"::ffff:192.168.0.1", false},
    {"::ffff:169.254.169.254", false},
    {"64:ff9b::a00:1", false},
    {"64:ff9b:1::1", false},
    {"::127.0.0.1", false},
    {"2002:a00:1::1", false},
    {"fc00::1", false},
    {"fd12:3456::1", false},
    {"fe80::1", false},
    {"febf::1", false},
    {"fec0::1", false},
    {"ff02::1", false},
    {"2001:db8::1", false},
    {"2001::1", false},
    {"3fff::1", false},
    {"100::1", false},
};

START_TEST(addr_public_table)
{
    for (size_t i = 0; i < sizeof(addr_cases) / sizeof(addr_cases[0]); i++) {
        struct sockaddr_storage ss;
        memset(&ss, 0, sizeof(ss));
        if (strchr(addr_cases[i].addr, ':')) {
            struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
            a6->sin6_family = AF_INET6;
            ck_assert_int_eq(inet_pton(AF_INET6, addr_cases[i].addr, &a6->sin6_addr), 1);
        } else {
            struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
            a4->sin_family = AF_INET;
            ck_assert_int_eq(inet_pton(AF_INET, addr_cases[i].addr, &a4->sin_addr), 1);
        }
        ck_assert_msg(httpc_addr_public((struct sockaddr *)&ss) == addr_cases[i].public,
                      "%s should %sbe public", addr_cases[i].addr,
                      addr_cases[i].public ? "" : "not ");
    }
    struct sockaddr un = {.sa_family = AF_UNIX};
    ck_assert(!httpc_addr_public(&un));
    ck_assert(!httpc_addr_public(NULL));
}
END_TEST

/* ---- URLs ---- */

struct url_case {
    const char *url;
    bool need_https;
    bool ok;
};

static const struct url_case open_cases[] = {
    {"https://example.com/hook", true, true},
    {"https://example.com", true, true},
    {"https://push.example.net:8443/p/abc?x=1&y=2", true, true},
    {"http://example.com/hook", false, true},
    {"HTTPS://Example.COM/", true, true},
    {"https://8.8.8.8/", true, true},
    {"https://[2606:4700:4700::1111]:443/x", true, true},
    {"http://example.com/hook", true, false},
    {"ftp://example.com/", false, false},
    {"example.com/hook", false, false},
    {"https://", false, false},
    {"https:///path", false, false},
    {"https://user:pw@example.com/", false, false},
    {"https://example.com:0/", false, false},
    {"https://example.com:65536/", false, false},
    {"https://example.com:x/", false, false},
    {"https://example.com:443x/", false, false},
    {"https://example.com?q", false, false},
    {"https://example.com/a b", false, false},
    {"https://example.com/a#frag", false, false},
    {"https://example.com/a\r\nX: y", false, false},
    {"https://exa_mple.com/", false, false},
    {"https://example..com/", false, false},
    {"https://example.com./", false, false},
    {"https://[::1/", false, false},
    {"https://[example.com]/", false, false},
    {"http://localhost/", false, false},
    {"http://LOCALHOST:8080/", false, false},
    {"http://api.localhost/", false, false},
    {"http://127.0.0.1/", false, false},
    {"http://127.1/", false, false},
    {"http://2130706433/", false, false},
    {"http://0x7f000001/", false, false},
    {"http://10.0.0.1/", false, false},
    {"http://169.254.169.254/latest/meta-data", false, false},
    {"http://[::1]/", false, false},
    {"http://[::ffff:127.0.0.1]/", false, false},
    {"http://[fe80::1]/", false, false},
    {"http://0.0.0.0/", false, false},
};

START_TEST(url_check_open)
{
    for (size_t i = 0; i < sizeof(open_cases) / sizeof(open_cases[0]); i++) {
        char msg[256] = "";
        int rc =
            httpc_url_check(NULL, open_cases[i].url, open_cases[i].need_https, msg, sizeof(msg));
        ck_assert_msg((rc == 0) == open_cases[i].ok, "%s: %d (%s)", open_cases[i].url, rc, msg);
        if (rc != 0) {
            ck_assert_msg(msg[0] != '\0', "%s: no message", open_cases[i].url);
        }
    }
    char big[HTTPC_URL_MAX + 64] = "https://example.com/";
    size_t n = strlen(big);
    memset(big + n, 'a', HTTPC_URL_MAX - n);
    big[HTTPC_URL_MAX] = '\0';
    ck_assert_int_eq(httpc_url_check(NULL, big, true, NULL, 0), 0);
    big[HTTPC_URL_MAX] = 'a';
    big[HTTPC_URL_MAX + 1] = '\0';
    ck_assert_int_eq(httpc_url_check(NULL, big, true, NULL, 0), -1);
    ck_assert_int_eq(httpc_url_check(NULL, NULL, false, NULL, 0), -1);
}
END_TEST

START_TEST(url_check_allow)
{
    static const char *const allow[] = {"localhost", "hooks.example.com", NULL};
    struct httpc_config cfg = {.loop = &loop, .allow = allow};
    struct result r = {0};
    char msg[256];

    uv_loop_init(&loop);
    struct httpc *c = httpc_new(&cfg);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(httpc_url_check(c, "http://localhost:8080/x", false, msg, sizeof(msg)), 0);
    ck_assert_int_eq(httpc_url_check(c, "https://HOOKS.example.com/x", true, msg, sizeof(msg)), 0);
    ck_assert_int_eq(httpc_url_check(c, "https://example.com/x", false, msg, sizeof(msg)), -1);
    ck_assert_ptr_nonnull(strstr(msg, "allow list"));
    ck_assert_int_eq(httpc_url_check(c, "https://8.8.8.8/x", false, msg, sizeof(msg)), -1);
    ck_assert_int_eq(httpc_url_check(c, "http://127.0.0.1/x", false, msg, sizeof(msg)), -1);
    ck_assert_int_eq(httpc_url_check(c, "http://localhost:8080/x", true, msg, sizeof(msg)), -1);
    ck_assert_int_eq(httpc_url_check(c, "https://localhost.evil.com/", true, msg, sizeof(msg)), -1);
    client_end(c, &r);
    loop_end();
}
END_TEST

/* ---- POST over HTTP ---- */

static const char *const allow_localhost[] = {"localhost", NULL};

/* A test's loop, its HTTP server, a client that allows localhost. */
struct local {
    struct srv s;
    struct httpc *c;
    struct result r;
    char url[128]; /* http://localhost:PORT then the path */
};

static void local_start(struct local *t, bool answer, struct httpc_config cfg, const char *path)
{
    memset(t, 0, sizeof(*t));
    uv_loop_init(&loop);
    srv_start(&t->s, answer);
    cfg.loop = &loop;
    cfg.allow = allow_localhost;
    t->c = httpc_new(&cfg);
    ck_assert_ptr_nonnull(t->c);
    snprintf(t->url, sizeof(t->url), "http://localhost:%d%s", t->s.port, path);
}

/* Closes the client (every request has had its one end), the server and
 * the loop, which must then have no handle left. */
static void local_end(struct local *t, int calls)
{
    client_end(t->c, &t->r);
    ck_assert_int_eq(t->r.calls, calls);
    srv_stop(&t->s);
    loop_end();
}

static void assert_stats(const struct httpc *c, uint64_t sent, uint64_t answered, uint64_t failed,
                         unsigned pending)
{
    struct httpc_stats st;

    httpc_stats(c, &st);
    ck_assert_uint_eq(st.sent, sent);
    ck_assert_uint_eq(st.answered, answered);
    ck_assert_uint_eq(st.failed, failed);
    ck_assert_uint_eq(st.pending, pending);
}

START_TEST(post_http)
{
    static const char *const headers[] = {"Content-Type: application/json", "X-Notice: room K7QF",
                                          NULL};
    static const char body[] = "{\"event\":\"your_turn\",\"room\":\"K7QF2M\"}";
    struct local t;
    char want[64], v[256];

    local_start(&t, true, (struct httpc_config){0}, "/hooks/turn?seat=1");
    ck_assert_int_eq(httpc_post(t.c, t.url, headers, body, strlen(body), on_done, &t.r), 0);
    ck_assert(!t.r.done); /* never inside httpc_post() */
    assert_stats(t.c, 1, 0, 0, 1);
    run_until(&t.r.done);
    ck_assert_int_eq(t.r.status, 204);

    const struct srv *s = &t.s;
    ck_assert(s->complete);
    ck_assert_msg(strncmp(s->req, "POST /hooks/turn?seat=1 HTTP/1.1\r\n", 34) == 0, "%s", s->req);
    snprintf(want, sizeof(want), "localhost:%d", s->port);
    ck_assert_str_eq(find_header(s->req, "host", v, sizeof(v)), want);
    ck_assert_str_eq(find_header(s->req, "content-type", v, sizeof(v)), "application/json");
    ck_assert_str_eq(find_header(s->req, "x-notice", v, sizeof(v)), "room K7QF");
    snprintf(want, sizeof(want), "%zu", strlen(body));
    ck_assert_str_eq(find_header(s->req, "content-length", v, sizeof(v)), want);
    const char *got = header_end(s->req, s->reqlen);
    ck_assert_ptr_nonnull(got);
    ck_assert_uint_eq(s->reqlen - (size_t)(got - s->req), strlen(body));
    ck_assert_mem_eq(got, body, strlen(body));
    assert_stats(t.c, 1, 1, 0, 0);
    local_end(&t, 1);
}
END_TEST

START_TEST(post_empty_body)
{
    struct local t;
    char v[64];

    local_start(&t, true, (struct httpc_config){0}, "");
    ck_assert_int_eq(httpc_post(t.c, t.url, NULL, NULL, 0, on_done, &t.r), 0);
    run_until(&t.r.done);
    ck_assert_int_eq(t.r.status, 204);
    ck_assert(strncmp(t.s.req, "POST / HTTP/1.1\r\n", 17) == 0);
    ck_assert_str_eq(find_header(t.s.req, "content-length", v, sizeof(v)), "0");
    local_end(&t, 1);
}
END_TEST

/* A name of this machine, not "localhost", that resolves to addresses none
 * of which is public; NULL if there is none. */
static const char *loopback_name(char *buf, size_t len)
{
    const char *cands[3] = {NULL, "ip6-localhost", "ip6-loopback"};

    if (gethostname(buf, len) == 0) {
        buf[len - 1] = '\0';
        cands[0] = buf;
    }
    for (size_t i = 0; i < 3; i++) {
        struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res;
        if (!cands[i] || getaddrinfo(cands[i], "80", &hints, &res) != 0) {
            continue;
        }
        bool any_public = false;
        for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
            any_public |= httpc_addr_public(ai->ai_addr);
        }
        freeaddrinfo(res);
        char url[300];
        snprintf(url, sizeof(url), "http://%s/", cands[i]);
        if (!any_public && httpc_url_check(NULL, url, false, NULL, 0) == 0) {
            return cands[i];
        }
    }
    return NULL;
}

START_TEST(refused_without_allow)
{
    struct httpc_config cfg = {.loop = &loop};
    struct result r = {0};
    struct srv s;
    char url[400], name[256];

    uv_loop_init(&loop);
    srv_start(&s, true);
    struct httpc *c = httpc_new(&cfg);
    snprintf(url, sizeof(url), "http://localhost:%d/", s.port);
    ck_assert_int_eq(httpc_url_check(c, url, false, NULL, 0), -1);
    ck_assert_int_eq(httpc_post(c, url, NULL, "x", 1, on_done, &r), HTTPC_ERR_REFUSED);
    snprintf(url, sizeof(url), "http://127.0.0.1:%d/", s.port);
    ck_assert_int_eq(httpc_post(c, url, NULL, "x", 1, on_done, &r), HTTPC_ERR_REFUSED);
    ck_assert_int_eq(httpc_post(c, "nonsense", NULL, "x", 1, on_done, &r), HTTPC_ERR_BAD_URL);

    /* A name that passes the URL check but resolves to loopback. */
    const char *lo = loopback_name(name, sizeof(name));
    if (lo) {
        snprintf(url, sizeof(url), "http://%s:%d/", lo, s.port);
        ck_assert_int_eq(httpc_post(c, url, NULL, "x", 1, on_done, &r), 0);
        run_until(&r.done);
        ck_assert_int_eq(r.status, HTTPC_ERR_ADDRESS);
        ck_assert_int_eq(s.nconns, 0); /* never connected */
    } else {
        fprintf(stderr, "refused_without_allow: no loopback name here, ADDRESS not tried\n");
    }
    ck_assert_int_eq(r.calls, lo ? 1 : 0);
    client_end(c, &r);
    srv_stop(&s);
    loop_end();
}
END_TEST

START_TEST(post_refusals)
{
    static const char *const inject[] = {"X-A: 1\r\nX-B: 2", NULL};
    static const char *const host[] = {"Host: evil.example", NULL};
    static const char *const noname[] = {": x", NULL};
    static const char *const nocolon[] = {"X-A 1", NULL};
    struct local t;
    struct result r2 = {0};

    local_start(&t, false, (struct httpc_config){.max_pending = 1}, "/");
    const char *url = t.url;
    ck_assert_int_eq(httpc_post(t.c, url, inject, "x", 1, on_done, &t.r), HTTPC_ERR_BAD_HEADER);
    ck_assert_int_eq(httpc_post(t.c, url, host, "x", 1, on_done, &t.r), HTTPC_ERR_BAD_HEADER);
    ck_assert_int_eq(httpc_post(t.c, url, noname, "x", 1, on_done, &t.r), HTTPC_ERR_BAD_HEADER);
    ck_assert_int_eq(httpc_post(t.c, url, nocolon, "x", 1, on_done, &t.r), HTTPC_ERR_BAD_HEADER);
    ck_assert_int_eq(httpc_post(t.c, url, NULL, "x", HTTPC_BODY_MAX + 1, on_done, &t.r),
                     HTTPC_ERR_TOO_BIG);
    ck_assert_int_eq(httpc_post(t.c, url, NULL, "x", 1, on_done, &t.r), 0);
    ck_assert_int_eq(httpc_post(t.c, url, NULL, "x", 1, on_done, &r2), HTTPC_ERR_TOO_MANY);
    ck_assert_str_eq(httpc_strerror(HTTPC_ERR_TOO_MANY), "too many requests are under way");
    local_end(&t, 1);
    ck_assert_int_eq(t.r.status, HTTPC_ERR_CLOSED);
    ck_assert_int_eq(r2.calls, 0);
}
END_TEST

START_TEST(post_timeout)
{
    struct local t;

    local_start(&t, false, (struct httpc_config){.timeout_ms = 300}, "/slow");
    ck_assert_int_eq(httpc_post(t.c, t.url, NULL, "x", 1, on_done, &t.r), 0);
    run_until(&t.r.done);
    ck_assert_int_eq(t.r.status, HTTPC_ERR_TIMEOUT);
    assert_stats(t.c, 1, 0, 1, 0);
    local_end(&t, 1);
}
END_TEST

START_TEST(close_pending)
{
    struct local t;
    struct result r2 = {0};

    local_start(&t, false, (struct httpc_config){0}, "/");
    ck_assert_int_eq(httpc_post(t.c, t.url, NULL, "hello", 5, on_done, &t.r), 0);
    run_until(&t.s.complete); /* the request is at the server, unanswered */
    ck_assert(!t.r.done);
    httpc_close(t.c, on_closed, &t.r);
    ck_assert(!t.r.done);
    ck_assert_int_eq(httpc_post(t.c, t.url, NULL, "x", 1, on_done, &r2), HTTPC_ERR_CLOSED);
    run_until(&t.r.closed);
    ck_assert_int_eq(t.r.status, HTTPC_ERR_CLOSED);
    ck_assert(t.r.done_before_closed);
    ck_assert_int_eq(r2.calls, 0);
    local_end(&t, 1); /* a second httpc_close() does nothing */
}
END_TEST

START_TEST(close_resolving)
{
    struct result r = {0};

    uv_loop_init(&loop);
    struct httpc *c = httpc_new(&(struct httpc_config){.loop = &loop, .allow = allow_localhost});
    ck_assert_int_eq(httpc_post(c, "http://localhost:9/", NULL, "x", 1, on_done, &r), 0);
    client_end(c, &r);
    ck_assert_int_eq(r.calls, 1);
    ck_assert_int_eq(r.status, HTTPC_ERR_CLOSED);
    ck_assert(r.done_before_closed);
    loop_end();
}
END_TEST

/* ---- HTTPS ---- */

static char tmpdir[64];

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(cmd, sizeof(cmd), fmt, ap);
    va_end(ap);
    ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

/* A CA and two certificates it signs, for DNS:localhost and for
 * DNS:other.example, and a second CA, in a new temporary folder. */
static void make_certs(void)
{
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_httpc.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    const char *ec = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
    for (int i = 0; i < 2; i++) {
        sh("cd %s && openssl req -x509 %s -keyout ca%d.key -out ca%d.pem -days 2 "
           "-subj /CN=test-ca-%d -addext basicConstraints=critical,CA:TRUE "
           "-addext keyUsage=critical,keyCertSign >/dev/null 2>&1",
           tmpdir, ec, i, i, i);
    }
    const char *names[] = {"localhost", "other.example"};
    for (int i = 0; i < 2; i++) {
        sh("cd %s && printf 'subjectAltName=DNS:%s\\n' > leaf%d.ext && "
           "openssl req %s -keyout leaf%d.key -out leaf%d.csr -subj /CN=%s >/dev/null 2>&1 && "
           "openssl x509 -req -in leaf%d.csr -CA ca0.pem -CAkey ca0.key -CAcreateserial "
           "-days 2 -extfile leaf%d.ext -out leaf%d.pem >/dev/null 2>&1",
           tmpdir, names[i], i, ec, i, i, names[i], i, i, i);
    }
}

static void remove_certs(void)
{
    sh("rm -rf %s", tmpdir);
}

struct tls_srv {
    int fd;
    int port;
    SSL_CTX *ctx;
    pthread_t th;
    bool handshake_ok;
    char req[8192];
    size_t reqlen;
};

/* One connection: the handshake, the request, a 204, the end. */
static void *tls_serve(void *arg)
{
    struct tls_srv *t = arg;
    struct pollfd p = {.fd = t->fd, .events = POLLIN};

    if (poll(&p, 1, DEADLINE_MS) != 1) {
        return NULL;
    }
    int fd = accept(t->fd, NULL, NULL);
    if (fd < 0) {
        return NULL;
    }
    SSL *ssl = SSL_new(t->ctx);
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) == 1) {
        t->handshake_ok = true;
        while (!request_complete(t->req, t->reqlen) && t->reqlen < sizeof(t->req) - 1) {
            int n = SSL_read(ssl, t->req + t->reqlen, (int)(sizeof(t->req) - 1 - t->reqlen));
            if (n <= 0) {
                break;
            }
            t->reqlen += (size_t)n;
            t->req[t->reqlen] = '\0';
        }
        static const char ans[] = "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n";
        SSL_write(ssl, ans, sizeof(ans) - 1);
        SSL_shutdown(ssl);
    }
    SSL_free(ssl);
    close(fd);
    return NULL;
}

static void tls_start(struct tls_srv *t, const char *leaf)
{
    char cert[128], key[128];
    struct sockaddr_in a = {.sin_family = AF_INET};
    socklen_t alen = sizeof(a);

    memset(t, 0, sizeof(*t));
    snprintf(cert, sizeof(cert), "%s/%s.pem", tmpdir, leaf);
    snprintf(key, sizeof(key), "%s/%s.key", tmpdir, leaf);
    t->ctx = SSL_CTX_new(TLS_server_method());
    ck_assert_ptr_nonnull(t->ctx);
    ck_assert_int_eq(SSL_CTX_use_certificate_file(t->ctx, cert, SSL_FILETYPE_PEM), 1);
    ck_assert_int_eq(SSL_CTX_use_PrivateKey_file(t->ctx, key, SSL_FILETYPE_PEM), 1);
    t->fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(t->fd, 0);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(bind(t->fd, (struct sockaddr *)&a, sizeof(a)), 0);
    ck_assert_int_eq(listen(t->fd, 4), 0);
    getsockname(t->fd, (struct sockaddr *)&a, &alen);
    t->port = ntohs(a.sin_port);
    ck_assert_int_eq(pthread_create(&t->th, NULL, tls_serve, t), 0);
}

static void tls_stop(struct tls_srv *t)
{
    pthread_join(t->th, NULL);
    close(t->fd);
    SSL_CTX_free(t->ctx);
}

/* A POST to https://localhost:PORT/ with the server showing `leaf`; the
 * client trusts `ca` (NULL: the system's CAs). The status done got. */
static int https_post(const char *leaf, const char *ca, struct tls_srv *t)
{
    static const char *const allow[] = {"localhost", NULL};
    static const char *const headers[] = {"Content-Type: application/octet-stream", NULL};
    char ca_path[128], url[128];
    struct httpc_config cfg = {.loop = &loop, .allow = allow};
    struct result r = {0};

    if (ca) {
        snprintf(ca_path, sizeof(ca_path), "%s/%s.pem", tmpdir, ca);
        cfg.ca_file = ca_path;
    }
    uv_loop_init(&loop);
    tls_start(t, leaf);
    struct httpc *c = httpc_new(&cfg);
    ck_assert_ptr_nonnull(c);
    snprintf(url, sizeof(url), "https://localhost:%d/push/abc", t->port);
    ck_assert_int_eq(httpc_post(c, url, headers, "secret", 6, on_done, &r), 0);
    run_until(&r.done);
    ck_assert_int_eq(r.calls, 1);
    client_end(c, &r);
    tls_stop(t);
    loop_end();
    return r.status;
}

START_TEST(https_ok)
{
    struct tls_srv t;
    char v[64];

    make_certs();
    ck_assert_int_eq(https_post("leaf0", "ca0", &t), 204);
    ck_assert(t.handshake_ok);
    ck_assert(strncmp(t.req, "POST /push/abc HTTP/1.1\r\n", 25) == 0);
    char want[64];
    snprintf(want, sizeof(want), "localhost:%d", t.port);
    ck_assert_str_eq(find_header(t.req, "host", v, sizeof(v)), want);
    const char *body = header_end(t.req, t.reqlen);
    ck_assert_ptr_nonnull(body);
    ck_assert_str_eq(body, "secret");
    remove_certs();
}
END_TEST

/* The certificate is signed by the trusted CA but names another host. */
START_TEST(https_wrong_name)
{
    struct tls_srv t;

    make_certs();
    ck_assert_int_eq(https_post("leaf1", "ca0", &t), HTTPC_ERR_TLS);
    ck_assert(!t.handshake_ok);
    ck_assert_uint_eq(t.reqlen, 0);
    remove_certs();
}
END_TEST

START_TEST(https_unknown_ca)
{
    struct tls_srv t;

    make_certs();
    ck_assert_int_eq(https_post("leaf0", "ca1", &t), HTTPC_ERR_TLS);
    ck_assert_uint_eq(t.reqlen, 0);
    ck_assert_int_eq(https_post("leaf0", NULL, &t), HTTPC_ERR_TLS);
    ck_assert_uint_eq(t.reqlen, 0);
    remove_certs();
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"addr_public_table", addr_public_table},
        {"url_check_open", url_check_open},
        {"url_check_allow", url_check_allow},
        {"post_http", post_http},
        {"post_empty_body", post_empty_body},
        {"refused_without_allow", refused_without_allow},
        {"post_refusals", post_refusals},
        {"post_timeout", post_timeout},
        {"close_pending", close_pending},
        {"close_resolving", close_resolving},
        {"https_ok", https_ok},
        {"https_wrong_name", https_wrong_name},
        {"https_unknown_ca", https_unknown_ca},
    };

    return ck_run("httpc", cases, sizeof(cases) / sizeof(cases[0]), NULL, NULL, 60);
}
