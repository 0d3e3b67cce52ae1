/* SPDX-License-Identifier: MIT */
/*
 * outbuf.h - a connection's output bytes in one contiguous buffer, for
 * every transport. An empty buffer holds no memory: an idle connection
 * (most of them, at any time) costs nothing here.
 */
#ifndef CONCLAVE_OUTBUF_H
#define CONCLAVE_OUTBUF_H

#include <stddef.h>

struct outbuf {
    char *data;
    size_t len;
    size_t cap; /* allocated */
};

/* Empties `b` and gives its memory back. */
void outbuf_fini(struct outbuf *b);

/* Appends a copy of `len` bytes. Returns 0, or -ENOMEM with `b` unchanged. */
int outbuf_append(struct outbuf *b, const char *data, size_t len);

#endif
