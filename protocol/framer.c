/* SPDX-License-Identifier: MIT */
/*
 * framer.c - the NDJSON line framer: it turns a byte stream fed in any
 * chunking into whole lines, drops the CR of CRLF, skips blank lines and
 * enforces the line limit, detecting an oversize line before its LF arrives.
 * It owns one buffer and nothing else; it must never parse JSON, perform I/O
 * or grow without bound.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

#define FRAMER_MIN_CAP 256

void proto_framer_init(struct proto_framer *f, size_t max_line)
{
    memset(f, 0, sizeof(*f));
    f->max_line = max_line;
}

void proto_framer_fini(struct proto_framer *f)
{
    if (f == NULL) {
        return;
    }
    free(f->buf);
    f->buf = NULL;
    f->len = 0;
    f->cap = 0;
    f->start = 0;
    f->scan = 0;
}

/* True when a pending line of `pending` bytes without its LF is already
 * known to exceed the limit. One byte of slack is allowed for a final CR,
 * which is dropped once the LF arrives. */
static bool partial_too_long(const struct proto_framer *f, size_t pending)
{
    if (pending <= f->max_line) {
        return false;
    }
    if (pending == f->max_line + 1 && f->buf[f->start + pending - 1] == '\r') {
        return false;
    }
    return true;
}

/* Offset of the first LF at or after start + scan, or len when there is
 * none; scan is advanced over the bytes seen. */
static size_t find_lf(struct proto_framer *f)
{
    size_t from = f->start + f->scan;
    const char *lf = NULL;
    if (from < f->len) {
        lf = memchr(f->buf + from, '\n', f->len - from);
    }
    if (lf == NULL) {
        f->scan = f->len - f->start;
        return f->len;
    }
    size_t at = (size_t)(lf - f->buf);
    f->scan = at - f->start;
    return at;
}

/* Makes room for n more bytes: drops consumed bytes first, then grows. */
static int reserve(struct proto_framer *f, size_t n)
{
    if (f->start == f->len) {
        f->start = 0;
        f->len = 0;
    }
    if (n > SIZE_MAX - f->len) {
        return -ENOMEM;
    }
    if (f->len + n > f->cap && f->start > 0) {
        memmove(f->buf, f->buf + f->start, f->len - f->start);
        f->len -= f->start;
        f->start = 0;
    }
    size_t need = f->len + n;
    if (need <= f->cap) {
        return 0;
    }
    size_t cap = f->cap < FRAMER_MIN_CAP ? FRAMER_MIN_CAP : f->cap;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    char *buf = realloc(f->buf, cap);
    if (buf == NULL) {
        return -ENOMEM;
    }
    f->buf = buf;
    f->cap = cap;
    return 0;
}

int proto_framer_feed(struct proto_framer *f, const char *data, size_t n)
{
    if (f->overflow) {
        return -E2BIG;
    }
    if (n == 0) {
        return 0;
    }
    int r = reserve(f, n);
    if (r < 0) {
        return r;
    }
    memcpy(f->buf + f->len, data, n);
    f->len += n;
    /* Only a buffer without any LF is checked here; a partial line behind
     * whole lines is checked by proto_framer_next() once they are taken, so
     * the buffer stays bounded by the limit plus one chunk. */
    if (find_lf(f) == f->len && partial_too_long(f, f->scan)) {
        f->overflow = true;
        return -E2BIG;
    }
    return 0;
}

/* True when the bytes hold nothing but ASCII whitespace. */
static bool is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\v' && s[i] != '\f') {
            return false;
        }
    }
    return true;
}

int proto_framer_next(struct proto_framer *f, const char **ret_line, size_t *ret_len)
{
    for (;;) {
        if (f->start == f->len) {
            return f->overflow ? -E2BIG : 0;
        }
        size_t at = find_lf(f);
        if (at == f->len) {
            if (f->overflow || partial_too_long(f, f->scan)) {
                f->overflow = true;
                return -E2BIG;
            }
            return 0;
        }
        char *line = f->buf + f->start;
        size_t n = at - f->start;
        if (n > 0 && line[n - 1] == '\r') {
            n--;
        }
        if (n > f->max_line) {
            f->overflow = true;
            return -E2BIG;
        }
        line[n] = '\0';
        f->start = at + 1;
        f->scan = 0;
        if (is_blank(line, n)) {
            continue;
        }
        *ret_line = line;
        *ret_len = n;
        return 1;
    }
}
