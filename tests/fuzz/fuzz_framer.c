/* SPDX-License-Identifier: MIT */
/*
 * fuzz_framer.c - fuzz target for the NDJSON framer (protocol/framer.c). The
 * first byte picks the line limit; the rest is a sequence of chunks, each a
 * length byte followed by that many bytes of stream. Every chunk is fed and
 * every ready line taken, and each result is checked against a plain model
 * of the framing rules kept over the same bytes: the lines come out in order
 * and unchanged (CR of CRLF dropped, blank lines skipped), none holds a LF
 * or exceeds the limit, the buffer stays bounded, and an oversize line puts
 * the framer into overflow, reported by both feed and next from then on and
 * never earlier. Any disagreement aborts. It never touches the network.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reports the check that failed and aborts, which is how a fuzzer sees it. */
static _Noreturn void fail(const char *what)
{
    fprintf(stderr, "fuzz_framer: check failed: %s\n", what);
    abort();
}

/* The model: the stream fed so far and the offset of its first byte not yet
 * framed. */
struct model {
    uint8_t *bytes;
    size_t len;
    size_t pos;
    size_t max_line;
};

static bool is_blank(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\v' && s[i] != '\f') {
            return false;
        }
    }
    return true;
}

/* What the framer must answer next: 1 with the line in *ret_at / *ret_n, 0
 * when more bytes are needed, -1 when an oversize line is pending. */
static int model_next(struct model *m, size_t *ret_at, size_t *ret_n)
{
    for (;;) {
        const uint8_t *rest = m->bytes + m->pos;
        size_t left = m->len - m->pos;
        const uint8_t *lf = left > 0 ? memchr(rest, '\n', left) : NULL;
        if (lf == NULL) {
            /* A partial line may be one byte over the limit when that byte
             * is the CR of a CRLF still to come. */
            if (left > m->max_line && !(left == m->max_line + 1 && rest[left - 1] == '\r')) {
                return -1;
            }
            return 0;
        }
        size_t n = (size_t)(lf - rest);
        size_t at = m->pos;
        if (n > 0 && rest[n - 1] == '\r') {
            n--;
        }
        if (n > m->max_line) {
            return -1;
        }
        m->pos += (size_t)(lf - rest) + 1;
        if (!is_blank(rest, n)) {
            *ret_at = at;
            *ret_n = n;
            return 1;
        }
    }
}

/* Takes every ready line and checks it against the model. Returns true
 * once the framer is in overflow. */
static bool drain(struct proto_framer *f, struct model *m)
{
    for (;;) {
        const char *line = NULL;
        size_t n = 0;
        int rc = proto_framer_next(f, &line, &n);
        size_t at = 0;
        size_t want_n = 0;
        int want = model_next(m, &at, &want_n);
        if (rc == -E2BIG) {
            if (want != -1 || !f->overflow) {
                fail("overflow from next that the model does not predict");
            }
            return true;
        }
        if (rc == 0) {
            if (want != 0 || f->overflow) {
                fail("next waits where the model has a line or an overflow");
            }
            /* Only a partial line within the limit (plus a CR) is held. */
            if (f->len - f->start > f->max_line + 1) {
                fail("the framer holds more than one partial line");
            }
            return false;
        }
        if (rc != 1 || want != 1 || line == NULL) {
            fail("next returned a line the model does not predict");
        }
        if (n != want_n || n > f->max_line || memchr(line, '\n', n) != NULL || line[n] != '\0' ||
            memcmp(line, m->bytes + at, n) != 0 || is_blank((const uint8_t *)line, n)) {
            fail("a line differs from the model's");
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    size_t max_line = data[0] == 0xff ? PROTO_LINE_MAX_DEFAULT : data[0];
    struct model m = {
        .bytes = malloc(size),
        .len = 0,
        .pos = 0,
        .max_line = max_line,
    };
    if (m.bytes == NULL) {
        return 0;
    }
    struct proto_framer f;
    proto_framer_init(&f, max_line);
    size_t i = 1;
    bool overflow = false;
    while (i < size && !overflow) {
        size_t chunk = data[i++];
        if (chunk > size - i) {
            chunk = size - i;
        }
        memcpy(m.bytes + m.len, data + i, chunk);
        m.len += chunk;
        int rc = proto_framer_feed(&f, (const char *)data + i, chunk);
        i += chunk;
        if (rc == -ENOMEM) {
            break;
        }
        if (rc == -E2BIG) {
            /* feed sees only a partial line, so the model must agree that
             * the pending bytes are already too long. */
            size_t at;
            size_t n;
            if (!f.overflow || model_next(&m, &at, &n) != -1) {
                fail("overflow from feed that the model does not predict");
            }
            overflow = true;
        } else if (rc != 0) {
            fail("feed returned an unexpected code");
        } else {
            overflow = drain(&f, &m);
        }
    }
    if (overflow) {
        const char *line = NULL;
        size_t n = 0;
        if (proto_framer_feed(&f, "x\n", 2) != -E2BIG ||
            proto_framer_next(&f, &line, &n) != -E2BIG || !f.overflow) {
            fail("overflow is not sticky");
        }
    }
    proto_framer_fini(&f);
    proto_framer_fini(&f);
    free(m.bytes);
    return 0;
}
