/* SPDX-License-Identifier: MIT */
/*
 * httpc.h - the server's outbound HTTP/1.1 client for its notices
 * (webhooks, Web Push): POSTs to URLs that people give, over HTTPS or
 * plain HTTP, on the server's libuv loop (libwebsockets). It owns the
 * policy of where such a request may go: a host name of the allow list,
 * or else a host whose addresses are all public, checked on the addresses
 * it then connects to (no second lookup, no redirects). It never reads
 * what the answer says beyond its status.
 */
#ifndef CONCLAVE_HTTPC_H
#define CONCLAVE_HTTPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#define HTTPC_URL_MAX 1024
#define HTTPC_BODY_MAX (1024 * 1024) /* a request's body at most */
#define HTTPC_HEADERS_MAX 8192       /* the extra headers, together */

/* XX(name, code, message): the errors, libuv's UV_ERRNO_MAP in small. */
#define HTTPC_ERR_MAP(XX)                                                                          \
    XX(BAD_URL, -1, "the URL is not one this client can use")                                      \
    XX(REFUSED, -2, "the URL's host is not one requests may go to")                                \
    XX(ADDRESS, -3, "the host resolved to an address that is not public")                          \
    XX(RESOLVE, -4, "the host could not be resolved")                                              \
    XX(CONNECT, -5, "the server could not be reached")                                             \
    XX(TLS, -6, "the server's certificate was not accepted")                                       \
    XX(TIMEOUT, -7, "the server did not answer in time")                                           \
    XX(TOO_MANY, -8, "too many requests are under way")                                            \
    XX(CLOSED, -9, "the client is closing")                                                        \
    XX(NOMEM, -10, "out of memory")                                                                \
    XX(BAD_HEADER, -11, "a header is not \"Name: value\", or is one the client sets itself")       \
    XX(TOO_BIG, -12, "the body or the headers are too long")

enum httpc_err {
#define HTTPC_ERR_ENUM(name, code, msg) HTTPC_ERR_##name = (code),
    HTTPC_ERR_MAP(HTTPC_ERR_ENUM)
#undef HTTPC_ERR_ENUM
};

struct httpc_config {
    uv_loop_t *loop;
    const char *ca_file;      /* PEM bundle to trust; NULL: the system's */
    const char *const *allow; /* host names allowed, NULL-terminated; NULL: any host whose
                                 addresses are all public */
    uint64_t timeout_ms;      /* a request's whole time (connect to answer); 0: 15000 */
    unsigned max_pending;     /* requests under way at once; 0: 64 */
};

/* The end of one request: its HTTP status (100-599), or a negative
 * HTTPC_ERR_*. */
typedef void (*httpc_done_fn)(void *arg, int status);

struct httpc;

struct httpc *httpc_new(const struct httpc_config *cfg);

int httpc_url_check(const struct httpc *c, const char *url, bool need_https, char *msg,
                    size_t msglen);

int httpc_post(struct httpc *c, const char *url, const char *const *headers, const void *body,
               size_t len, httpc_done_fn done, void *arg);

bool httpc_addr_public(const struct sockaddr *sa);

const char *httpc_strerror(int err);

struct httpc_stats {
    uint64_t sent;     /* requests taken by httpc_post() */
    uint64_t answered; /* ... that ended with an HTTP status */
    uint64_t failed;   /* ... that ended with an error */
    unsigned pending;  /* requests under way */
};

void httpc_stats(const struct httpc *c, struct httpc_stats *ret);

void httpc_close(struct httpc *c, void (*closed)(void *arg), void *arg);

void httpc_free(struct httpc *c);

#endif
