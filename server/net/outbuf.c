/* SPDX-License-Identifier: MIT */
/* outbuf.c - see outbuf.h. */
#include "outbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void outbuf_fini(struct outbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

int outbuf_append(struct outbuf *b, const char *data, size_t len)
{
    if (len > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 1024;
        char *p;

        while (cap - b->len < len) {
            cap *= 2;
        }
        p = realloc(b->data, cap);
        if (!p) {
            return -ENOMEM;
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return 0;
}
