/* SPDX-License-Identifier: MIT */
/*
 * test_framer.c - unit tests of protocol/framer.c: lines come out the same in
 * every chunking, CRLF and blank lines are handled, the limit is exact and an
 * oversize partial line is caught before its LF, and the buffer stays small.
 * The tests use only the public framer API plus the documented struct fields.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"

#include "proto.h"

#define MAX_LINES 64

struct lines {
    size_t count;
    char *text[MAX_LINES];
};

static void lines_free(struct lines *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->text[i]);
    }
    l->count = 0;
}

/* Takes every ready line into l; returns the last framer result. */
static int drain(struct proto_framer *f, struct lines *l)
{
    const char *line;
    size_t len;
    int r;
    while ((r = proto_framer_next(f, &line, &len)) > 0) {
        ck_assert_uint_eq(strlen(line), len);
        ck_assert_uint_lt(l->count, MAX_LINES);
        l->text[l->count] = strdup(line);
        ck_assert_ptr_nonnull(l->text[l->count]);
        l->count++;
    }
    return r;
}

static uint64_t rng_state;

static uint32_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static const char stream[] = "{\"op\":\"hello\",\"proto\":1}\n"
                             "\n"
                             "{\"op\":\"ping\"}\r\n"
                             "   \t \n"
                             "\r\n"
                             "{\"op\":\"chat\",\"text\":\"h\xc3\xa9llo\"}\n"
                             "x\n"
                             "tail without newline";

static const char *const expected[] = {
    "{\"op\":\"hello\",\"proto\":1}",
    "{\"op\":\"ping\"}",
    "{\"op\":\"chat\",\"text\":\"h\xc3\xa9llo\"}",
    "x",
};

static void check_expected(const struct lines *l)
{
    size_t n = sizeof(expected) / sizeof(expected[0]);
    ck_assert_uint_eq(l->count, n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(l->text[i], expected[i]);
    }
}

/* Feeds the stream in chunks of `chunk` bytes (0 = random sizes 1..40). */
static void run_chunked(size_t chunk)
{
    struct proto_framer f;
    struct lines l = {0};
    proto_framer_init(&f, 1024);
    size_t n = strlen(stream);
    for (size_t off = 0; off < n;) {
        size_t c = chunk != 0 ? chunk : 1 + rng_next() % 40;
        if (c > n - off) {
            c = n - off;
        }
        ck_assert_int_eq(proto_framer_feed(&f, stream + off, c), 0);
        ck_assert_int_eq(drain(&f, &l), 0);
        off += c;
    }
    check_expected(&l);
    lines_free(&l);
    proto_framer_fini(&f);
}

START_TEST(test_chunking_whole)
{
    run_chunked(strlen(stream));
}
END_TEST

START_TEST(test_chunking_bytewise)
{
    run_chunked(1);
}
END_TEST

START_TEST(test_chunking_random)
{
    rng_state = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 500; i++) {
        run_chunked(0);
    }
}
END_TEST

START_TEST(test_crlf)
{
    struct proto_framer f;
    struct lines l = {0};
    proto_framer_init(&f, 64);
    const char *in = "a\r\nb\r\r\nc\rd\n";
    ck_assert_int_eq(proto_framer_feed(&f, in, strlen(in)), 0);
    ck_assert_int_eq(drain(&f, &l), 0);
    ck_assert_uint_eq(l.count, 3);
    ck_assert_str_eq(l.text[0], "a");
    /* Only the CR right before the LF is dropped. */
    ck_assert_str_eq(l.text[1], "b\r");
    ck_assert_str_eq(l.text[2], "c\rd");
    lines_free(&l);
    proto_framer_fini(&f);
}
END_TEST

START_TEST(test_blank_lines)
{
    struct proto_framer f;
    struct lines l = {0};
    proto_framer_init(&f, 64);
    const char *in = "\n\n\r\n \n\t\r\n  x  \n\n";
    ck_assert_int_eq(proto_framer_feed(&f, in, strlen(in)), 0);
    ck_assert_int_eq(drain(&f, &l), 0);
    ck_assert_uint_eq(l.count, 1);
    ck_assert_str_eq(l.text[0], "  x  ");
    lines_free(&l);
    proto_framer_fini(&f);
}
END_TEST

START_TEST(test_limit_exact)
{
    struct proto_framer f;
    struct lines l = {0};
    char line[32];
    proto_framer_init(&f, 16);
    memset(line, 'a', 16);
    line[16] = '\n';
    ck_assert_int_eq(proto_framer_feed(&f, line, 17), 0);
    ck_assert_int_eq(drain(&f, &l), 0);
    ck_assert_uint_eq(l.count, 1);
    ck_assert_uint_eq(strlen(l.text[0]), 16);
    /* The CR of a CRLF does not count against the limit. */
    line[16] = '\r';
    line[17] = '\n';
    ck_assert_int_eq(proto_framer_feed(&f, line, 18), 0);
    ck_assert_int_eq(drain(&f, &l), 0);
    ck_assert_uint_eq(l.count, 2);
    ck_assert_uint_eq(strlen(l.text[1]), 16);
    ck_assert(!f.overflow);
    lines_free(&l);
    proto_framer_fini(&f);
}
END_TEST

START_TEST(test_limit_plus_one)
{
    struct proto_framer f;
    char line[32];
    const char *out;
    size_t len;
    proto_framer_init(&f, 16);
    memset(line, 'a', 17);
    line[17] = '\n';
    /* The whole line arrives in one chunk: next() refuses it. */
    ck_assert_int_eq(proto_framer_feed(&f, line, 18), 0);
    ck_assert_int_eq(proto_framer_next(&f, &out, &len), -E2BIG);
    ck_assert(f.overflow);
    ck_assert_int_eq(proto_framer_next(&f, &out, &len), -E2BIG);
    ck_assert_int_eq(proto_framer_feed(&f, "ok\n", 3), -E2BIG);
    proto_framer_fini(&f);
}
END_TEST

START_TEST(test_partial_over_limit)
{
    struct proto_framer f;
    const char *out;
    size_t len;
    proto_framer_init(&f, 16);
    /* Byte by byte: 16 bytes are fine, a CR as the 17th is still fine. */
    for (int i = 0; i < 16; i++) {
        ck_assert_int_eq(proto_framer_feed(&f, "a", 1), 0);
        ck_assert_int_eq(proto_framer_next(&f, &out, &len), 0);
    }
    ck_assert_int_eq(proto_framer_feed(&f, "\r", 1), 0);
    ck_assert_int_eq(proto_framer_next(&f, &out, &len), 0);
    /* The 18th byte without LF proves the line too long. */
    ck_assert_int_eq(proto_framer_feed(&f, "a", 1), -E2BIG);
    ck_assert(f.overflow);
    ck_assert_int_eq(proto_framer_next(&f, &out, &len), -E2BIG);
    proto_framer_fini(&f);

    /* 17 plain bytes are too long already. */
    proto_framer_init(&f, 16);
    ck_assert_int_eq(proto_framer_feed(&f, "aaaaaaaaaaaaaaaaa", 17), -E2BIG);
    proto_framer_fini(&f);
}
END_TEST

START_TEST(test_partial_after_lines)
{
    struct proto_framer f;
    struct lines l = {0};
    proto_framer_init(&f, 16);
    /* Whole lines before an oversize partial one are still delivered. */
    const char *in = "one\ntwo\naaaaaaaaaaaaaaaaaaaaaaaa";
    ck_assert_int_eq(proto_framer_feed(&f, in, strlen(in)), 0);
    ck_assert_int_eq(drain(&f, &l), -E2BIG);
    ck_assert_uint_eq(l.count, 2);
    ck_assert_str_eq(l.text[0], "one");
    ck_assert_str_eq(l.text[1], "two");
    ck_assert(f.overflow);
    lines_free(&l);
    proto_framer_fini(&f);
}
END_TEST

START_TEST(test_resumable)
{
    struct proto_framer f;
    const char *out;
    size_t len;
    proto_framer_init(&f, 64);
    ck_assert_int_eq(proto_framer_next(&f, &out, &len), 0);
    ck_assert_int_eq(proto_framer_feed(&f, "{\"op\":", 6), 0);
    ck_assert_int_eq(proto_framer_next(&f, &out, &len), 0);
    ck_assert_int_eq(proto_framer_feed(&f, "\"ping\"}", 7), 0);
    ck_assert_int_eq(proto_framer_next(&f, &out, &len), 0);
    ck_assert_int_eq(proto_framer_feed(&f, "\r", 1), 0);
    ck_assert_int_eq(proto_framer_next(&f, &out, &len), 0);
    ck_assert_int_eq(proto_framer_feed(&f, "\nnext", 5), 0);
    ck_assert_int_gt(proto_framer_next(&f, &out, &len), 0);
    ck_assert_str_eq(out, "{\"op\":\"ping\"}");
    ck_assert_uint_eq(len, 13);
    ck_assert_int_eq(proto_framer_next(&f, &out, &len), 0);
    ck_assert_int_eq(proto_framer_feed(&f, "\n", 1), 0);
    ck_assert_int_gt(proto_framer_next(&f, &out, &len), 0);
    ck_assert_str_eq(out, "next");
    ck_assert_int_eq(proto_framer_feed(&f, NULL, 0), 0);
    ck_assert_int_eq(proto_framer_next(&f, &out, &len), 0);
    proto_framer_fini(&f);
}
END_TEST

START_TEST(test_compaction)
{
    struct proto_framer f;
    const char *out;
    size_t len;
    char text[4096];
    size_t n = 0;
    proto_framer_init(&f, 64);
    for (int i = 0; i < 150; i++) {
        n += (size_t)snprintf(text + n, sizeof(text) - n, "{\"n\":%d}\n", i);
    }
    size_t cap_max = 0;
    long seen = 0;
    for (int round = 0; round < 100; round++) {
        for (size_t off = 0; off < n; off += 7) {
            size_t c = n - off < 7 ? n - off : 7;
            ck_assert_int_eq(proto_framer_feed(&f, text + off, c), 0);
            int r;
            while ((r = proto_framer_next(&f, &out, &len)) > 0) {
                ck_assert_int_eq(out[0], '{');
                seen++;
            }
            ck_assert_int_eq(r, 0);
            if (f.cap > cap_max) {
                cap_max = f.cap;
            }
        }
    }
    ck_assert_int_eq(seen, 150 * 100);
    /* Fifteen thousand lines went through a buffer that never grew past its
     * first allocation. */
    ck_assert_uint_le(cap_max, 256);
    proto_framer_fini(&f);
}
END_TEST

START_TEST(test_fini_twice)
{
    struct proto_framer f;
    memset(&f, 0, sizeof(f));
    proto_framer_fini(&f);
    proto_framer_init(&f, 8);
    ck_assert_int_eq(proto_framer_feed(&f, "abc", 3), 0);
    proto_framer_fini(&f);
    proto_framer_fini(&f);
    ck_assert_ptr_null(f.buf);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"chunking_whole", test_chunking_whole},
        {"chunking_bytewise", test_chunking_bytewise},
        {"chunking_random", test_chunking_random},
        {"crlf", test_crlf},
        {"blank_lines", test_blank_lines},
        {"limit_exact", test_limit_exact},
        {"limit_plus_one", test_limit_plus_one},
        {"partial_over_limit", test_partial_over_limit},
        {"partial_after_lines", test_partial_after_lines},
        {"resumable", test_resumable},
        {"compaction", test_compaction},
        {"fini_twice", test_fini_twice},
    };
    return CK_RUN("framer", cases, NULL, NULL);
}
