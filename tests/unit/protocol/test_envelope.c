/* SPDX-License-Identifier: MIT */
/*
 * test_envelope.c - unit tests of protocol/envelope.c: request parsing (ids,
 * op, non-objects, bad JSON and UTF-8, nesting depth), the exact reply and
 * event lines, newline stripping in error messages, the line dump limits,
 * and display names. Hostile-input cases for the envelope live here.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"
#include "failalloc.h"

#include "proto.h"

static enum proto_err parse(const char *line, struct proto_request *req)
{
    char err[256];
    return proto_request_parse(line, strlen(line), req, err, sizeof(err));
}

/* Dumps msg with proto_line_dump, compares with want, frees msg. */
static void assert_line(json_t *msg, const char *want)
{
    ck_assert_ptr_nonnull(msg);
    size_t len = 0;
    char *line = proto_line_dump(msg, &len);
    ck_assert_ptr_nonnull(line);
    ck_assert_uint_eq(len, strlen(want));
    ck_assert_mem_eq(line, want, len);
    ck_assert_int_eq(line[len], '\0');
    free(line);
    json_decref(msg);
}

START_TEST(test_request_ok)
{
    struct proto_request req;
    ck_assert_int_eq(parse("{\"id\":7,\"op\":\"join\",\"room\":\"k7qf-2m\"}", &req), PROTO_OK);
    ck_assert_str_eq(req.op, "join");
    ck_assert(json_is_integer(req.id));
    ck_assert_int_eq(json_integer_value(req.id), 7);
    ck_assert_str_eq(json_string_value(json_object_get(req.msg, "room")), "k7qf-2m");
    proto_request_fini(&req);
    ck_assert_ptr_null(req.msg);

    ck_assert_int_eq(parse("  {\"op\":\"ping\"}  ", &req), PROTO_OK);
    ck_assert_ptr_null(req.id);
    proto_request_fini(&req);
    proto_request_fini(&req);
}
END_TEST

START_TEST(test_request_ids)
{
    struct proto_request req;
    char line[256];
    char id[80];

    ck_assert_int_eq(parse("{\"id\":-9007199254740993,\"op\":\"ping\"}", &req), PROTO_OK);
    ck_assert_int_eq(json_integer_value(req.id), -9007199254740993LL);
    proto_request_fini(&req);

    memset(id, 'x', 64);
    id[64] = '\0';
    snprintf(line, sizeof(line), "{\"id\":\"%s\",\"op\":\"ping\"}", id);
    ck_assert_int_eq(parse(line, &req), PROTO_OK);
    ck_assert_str_eq(json_string_value(req.id), id);
    proto_request_fini(&req);

    /* 65 bytes is one too many (the limit is in bytes, not characters). */
    id[64] = 'x';
    id[65] = '\0';
    snprintf(line, sizeof(line), "{\"id\":\"%s\",\"op\":\"ping\"}", id);
    ck_assert_int_eq(parse(line, &req), PROTO_ERR_BAD_REQUEST);
    ck_assert_ptr_null(req.id);
    proto_request_fini(&req);

    /* 32 two-byte characters are 64 bytes: accepted; 33 are not. */
    strcpy(line, "{\"op\":\"ping\",\"id\":\"");
    for (int i = 0; i < 32; i++) {
        strcat(line, "\xc3\xa9");
    }
    strcat(line, "\"}");
    ck_assert_int_eq(parse(line, &req), PROTO_OK);
    proto_request_fini(&req);
    line[strlen(line) - 2] = '\0';
    strcat(line, "\xc3\xa9\"}");
    ck_assert_int_eq(parse(line, &req), PROTO_ERR_BAD_REQUEST);
    proto_request_fini(&req);

    static const char *const wrong[] = {
        "{\"id\":1.5,\"op\":\"ping\"}",  "{\"id\":true,\"op\":\"ping\"}",
        "{\"id\":null,\"op\":\"ping\"}", "{\"id\":[1],\"op\":\"ping\"}",
        "{\"id\":{},\"op\":\"ping\"}",
    };
    for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
        ck_assert_int_eq(parse(wrong[i], &req), PROTO_ERR_BAD_REQUEST);
        ck_assert_ptr_null(req.id);
        proto_request_fini(&req);
    }
}
END_TEST

START_TEST(test_request_op)
{
    struct proto_request req;
    /* The id survives a missing op so that the error reply can carry it. */
    ck_assert_int_eq(parse("{\"id\":3}", &req), PROTO_ERR_BAD_REQUEST);
    ck_assert_int_eq(json_integer_value(req.id), 3);
    ck_assert_ptr_null(req.op);
    proto_request_fini(&req);

    ck_assert_int_eq(parse("{\"id\":\"a\",\"op\":5}", &req), PROTO_ERR_BAD_REQUEST);
    ck_assert_str_eq(json_string_value(req.id), "a");
    proto_request_fini(&req);

    ck_assert_int_eq(parse("{\"op\":null}", &req), PROTO_ERR_BAD_REQUEST);
    proto_request_fini(&req);
    ck_assert_int_eq(parse("{}", &req), PROTO_ERR_BAD_REQUEST);
    proto_request_fini(&req);
}
END_TEST

START_TEST(test_request_not_object)
{
    struct proto_request req;
    static const char *const lines[] = {"[1,2]", "3", "\"op\"", "null", "true", "[]"};
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        ck_assert_int_eq(parse(lines[i], &req), PROTO_ERR_BAD_REQUEST);
        ck_assert_ptr_null(req.id);
        proto_request_fini(&req);
    }
}
END_TEST

START_TEST(test_request_bad_json)
{
    struct proto_request req;
    char err[256];
    static const char *const lines[] = {
        "{",
        "nope",
        "",
        "{\"op\":\"ping\"} x",
        "{\"op\":\"ping\",}",
        "{'op':'ping'}",
        "{\"op\":\"a\\u0000b\"}",
        "{\"id\":99999999999999999999,\"op\":\"ping\"}",
    };
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        ck_assert_int_eq(proto_request_parse(lines[i], strlen(lines[i]), &req, err, sizeof(err)),
                         PROTO_ERR_BAD_JSON);
        ck_assert_ptr_null(req.msg);
        ck_assert_ptr_null(req.id);
        ck_assert_uint_gt(strlen(err), 0);
        proto_request_fini(&req);
    }
    /* A NUL byte inside the given length is not JSON. */
    ck_assert_int_eq(proto_request_parse("{\"op\":\"p\"}\0", 11, &req, NULL, 0),
                     PROTO_ERR_BAD_JSON);
    proto_request_fini(&req);
}
END_TEST

START_TEST(test_request_bad_utf8)
{
    struct proto_request req;
    static const char *const lines[] = {
        "{\"op\":\"\xff\"}",
        "{\"op\":\"\xc0\xaf\"}",
        "{\"op\":\"\xed\xa0\x80\"}",
        "{\"op\":\"\xf4\x90\x80\x80\"}",
        "{\"op\":\"ping\",\"x\xfe\":1}",
        "{\"op\":\"\xe2\x82\"}",
    };
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        ck_assert_int_eq(parse(lines[i], &req), PROTO_ERR_BAD_JSON);
        proto_request_fini(&req);
    }
}
END_TEST

/* A request whose deepest value sits at `depth` levels (the object itself is
 * level 1), with `[` and `{` inside a string as noise. */
static char *nested(int depth)
{
    size_t cap = (size_t)depth * 2 + 64;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    strcpy(s, "{\"op\":\"[[{{\",\"a\":");
    for (int i = 1; i < depth; i++) {
        strcat(s, "[");
    }
    for (int i = 1; i < depth; i++) {
        strcat(s, "]");
    }
    strcat(s, "}");
    return s;
}

START_TEST(test_request_depth)
{
    struct proto_request req;
    char err[256];
    char *ok = nested(64);
    ck_assert_int_eq(parse(ok, &req), PROTO_OK);
    proto_request_fini(&req);
    free(ok);

    char *deep = nested(65);
    ck_assert_int_eq(proto_request_parse(deep, strlen(deep), &req, err, sizeof(err)),
                     PROTO_ERR_BAD_JSON);
    ck_assert_ptr_nonnull(strstr(err, "nested too deep"));
    proto_request_fini(&req);
    free(deep);

    /* A megabyte of brackets is refused by the scan, cheaply. */
    size_t n = 1 << 20;
    char *huge = malloc(n);
    ck_assert_ptr_nonnull(huge);
    memset(huge, '[', n);
    ck_assert_int_eq(proto_request_parse(huge, n, &req, err, sizeof(err)), PROTO_ERR_BAD_JSON);
    proto_request_fini(&req);
    free(huge);

    /* Brackets inside strings, escaped quotes included, do not count. */
    char line[512];
    strcpy(line, "{\"op\":\"\\\"");
    for (int i = 0; i < 100; i++) {
        strcat(line, "[");
    }
    strcat(line, "\"}");
    ck_assert_int_eq(parse(line, &req), PROTO_OK);
    proto_request_fini(&req);
}
END_TEST

START_TEST(test_reply_shapes)
{
    json_t *id = json_integer(7);
    json_t *sid = json_string("a\"b");
    assert_line(proto_reply_ok(id), "{\"re\":7,\"ok\":true}\n");
    assert_line(proto_reply_ok(NULL), "{\"ok\":true}\n");
    assert_line(proto_reply_ok(sid), "{\"re\":\"a\\\"b\",\"ok\":true}\n");
    assert_line(proto_reply_error(id, PROTO_ERR_ROOM_NOT_FOUND, "no room K7QF2M"),
                "{\"re\":7,\"ok\":false,\"error\":{\"code\":\"room_not_found\","
                "\"message\":\"no room K7QF2M\"}}\n");
    assert_line(proto_reply_error(NULL, PROTO_ERR_STALE, NULL),
                "{\"ok\":false,\"error\":{\"code\":\"stale\",\"message\":\"your view is out of "
                "date; the room has moved on\"}}\n");
    assert_line(proto_event_new("diff"), "{\"ev\":\"diff\"}\n");
    assert_line(proto_event_error(PROTO_ERR_FRAME_TOO_LARGE, NULL),
                "{\"ev\":\"error\",\"error\":{\"code\":\"frame_too_large\",\"message\":\"the line "
                "is longer than the server accepts\"}}\n");
    /* The id is copied: the reply outlives the request. */
    json_t *reply = proto_reply_ok(id);
    json_decref(id);
    json_decref(sid);
    assert_line(reply, "{\"re\":7,\"ok\":true}\n");
}
END_TEST

START_TEST(test_error_newlines)
{
    assert_line(proto_reply_error(NULL, PROTO_ERR_ILLEGAL_ACTION, "line one\nline two\r\nend\t!"),
                "{\"ok\":false,\"error\":{\"code\":\"illegal_action\","
                "\"message\":\"line one line two  end !\"}}\n");
    /* Bytes that are not UTF-8 are replaced rather than failing the reply. */
    assert_line(proto_event_error(PROTO_ERR_BAD_NAME, "bad \xff name \xc3\xa9"),
                "{\"ev\":\"error\",\"error\":{\"code\":\"bad_name\","
                "\"message\":\"bad ? name \xc3\xa9\"}}\n");
}
END_TEST

START_TEST(test_line_dump)
{
    size_t len;
    json_t *msg = json_pack("{s:s, s:i, s:[b,n]}", "text", "h\xc3\xa9 \"\n", "n", -3, "a", 1);
    ck_assert_ptr_nonnull(msg);
    char *line = proto_line_dump(msg, &len);
    ck_assert_ptr_nonnull(line);
    static const char want[] = "{\"text\":\"h\xc3\xa9 \\\"\\n\",\"n\":-3,\"a\":[true,null]}\n";
    ck_assert_uint_eq(len, strlen(want));
    ck_assert_mem_eq(line, want, len);
    ck_assert_ptr_eq(memchr(line, '\n', len), line + len - 1);
    free(line);
    json_decref(msg);

    /* Reals never go on the wire. */
    msg = json_pack("{s:{s:f}}", "a", "b", 1.5);
    errno = 0;
    ck_assert_ptr_null(proto_line_dump(msg, &len));
    ck_assert_int_eq(errno, EINVAL);
    json_decref(msg);
}
END_TEST

START_TEST(test_line_dump_limit)
{
    size_t len;
    /* A root string dumps as its bytes, two quotes and the LF. */
    size_t n = PROTO_OUT_LINE_MAX - 3;
    char *text = malloc(n + 2);
    ck_assert_ptr_nonnull(text);
    memset(text, 'x', n + 1);
    json_t *s = json_stringn(text, n);
    char *line = proto_line_dump(s, &len);
    ck_assert_ptr_nonnull(line);
    ck_assert_uint_eq(len, PROTO_OUT_LINE_MAX);
    ck_assert_int_eq(line[len - 1], '\n');
    free(line);
    json_decref(s);

    s = json_stringn(text, n + 1);
    errno = 0;
    ck_assert_ptr_null(proto_line_dump(s, &len));
    ck_assert_int_eq(errno, E2BIG);
    json_decref(s);
    free(text);
}
END_TEST

START_TEST(test_names)
{
    char out[129];
    char name[256];
    ck_assert_int_eq(proto_name_check("  Ann  ", out, sizeof(out)), 0);
    ck_assert_str_eq(out, "Ann");
    ck_assert_int_eq(proto_name_check("Bo Li", out, sizeof(out)), 0);
    ck_assert_str_eq(out, "Bo Li");

    /* 32 two-byte characters fit, 33 do not. */
    name[0] = '\0';
    for (int i = 0; i < 32; i++) {
        strcat(name, "\xc3\xa9");
    }
    ck_assert_int_eq(proto_name_check(name, out, sizeof(out)), 0);
    ck_assert_str_eq(out, name);
    ck_assert_uint_eq(proto_utf8_len(out), 32);
    strcat(name, "\xc3\xa9");
    ck_assert_int_eq(proto_name_check(name, out, sizeof(out)), -1);

    /* 32 four-byte characters need the whole 129-byte buffer. */
    name[0] = '\0';
    for (int i = 0; i < 32; i++) {
        strcat(name, "\xf0\x9f\x8e\xb2");
    }
    ck_assert_int_eq(proto_name_check(name, out, sizeof(out)), 0);
    ck_assert_uint_eq(strlen(out), 128);
    ck_assert_int_eq(proto_name_check(name, out, 128), -1);

    /* Exactly 32 ASCII characters with spaces around them. */
    snprintf(name, sizeof(name), "   %s   ", "abcdefghijklmnopqrstuvwxyz012345");
    ck_assert_int_eq(proto_name_check(name, out, sizeof(out)), 0);
    ck_assert_str_eq(out, "abcdefghijklmnopqrstuvwxyz012345");
    ck_assert_int_eq(proto_name_check("abcdefghijklmnopqrstuvwxyz0123456", out, sizeof(out)), -1);
}
END_TEST

START_TEST(test_names_refused)
{
    char out[129];
    static const char *const bad[] = {
        "",          "   ",   "A\tB",      "A\nB",          "A\x7f",    "A\xc2\x85",
        "\x1b[31mX", "A\xff", "A\xc0\x80", "A\xed\xa0\x80", "\xe2\x82",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(proto_name_check(bad[i], out, sizeof(out)) == -1, "accepted case %zu", i);
    }
    ck_assert_int_eq(proto_name_check(NULL, out, sizeof(out)), -1);
}
END_TEST

START_TEST(test_utf8_len)
{
    ck_assert_uint_eq(proto_utf8_len(""), 0);
    ck_assert_uint_eq(proto_utf8_len("abc"), 3);
    ck_assert_uint_eq(proto_utf8_len("h\xc3\xa9llo"), 5);
    ck_assert_uint_eq(proto_utf8_len("\xe2\x82\xac\xf0\x9f\x8e\xb2"), 2);
}
END_TEST

START_TEST(test_out_of_memory)
{
    static const char line[] =
        "{\"id\":\"abc\",\"op\":\"act\",\"action\":{\"type\":\"x\",\"n\":[1,2]}}";
    json_t *id = json_integer(5);
    failalloc_install();
    bool parsed = false;
    bool replied = false;
    for (long budget = 0; budget < 10000 && !(parsed && replied); budget++) {
        struct proto_request req;
        failalloc_budget(budget);
        enum proto_err e = proto_request_parse(line, strlen(line), &req, NULL, 0);
        json_t *reply = proto_reply_error(id, PROTO_ERR_ILLEGAL_ACTION, "no\nway");
        failalloc_budget(-1);
        if (e == PROTO_OK) {
            ck_assert_str_eq(req.op, "act");
            parsed = true;
        } else {
            ck_assert(e == PROTO_ERR_INTERNAL || e == PROTO_ERR_BAD_JSON);
        }
        proto_request_fini(&req);
        if (reply != NULL) {
            size_t len;
            char *out = proto_line_dump(reply, &len);
            ck_assert_ptr_nonnull(out);
            ck_assert_str_eq(out, "{\"re\":5,\"ok\":false,\"error\":{\"code\":\"illegal_action\","
                                  "\"message\":\"no way\"}}\n");
            free(out);
            replied = true;
        }
        json_decref(reply);
    }
    failalloc_remove();
    ck_assert(parsed && replied);
    json_decref(id);
}
END_TEST

/* ---- The quick reader against jansson ---- */

/* A small deterministic generator (xorshift), so that a failure repeats. */
static uint64_t gen_state = 0x9e3779b97f4a7c15u;

static unsigned gen(unsigned n)
{
    gen_state ^= gen_state << 13;
    gen_state ^= gen_state >> 7;
    gen_state ^= gen_state << 17;
    return (unsigned)(gen_state % n);
}

struct gbuf {
    char data[4096];
    size_t len;
};

static void put(struct gbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n < sizeof(b->data)) {
        memcpy(b->data + b->len, s, n);
        b->len += n;
    }
}

static void put_space(struct gbuf *b)
{
    static const char *const spaces[] = {"", "", "", " ", "\t", "\r", "\n", "  "};
    put(b, spaces[gen(8)]);
}

/* A string's body: plain ASCII mostly, now and then what the quick
 * reader must leave to jansson (escapes, UTF-8, a control byte, DEL). */
static void put_chars(struct gbuf *b)
{
    static const char *const pieces[] = {
        "a",   "type",    "x",       " ",        "Z9",           "~",    "\x7f", "\\\"", "\\\\",
        "\\n", "\\u00e9", "\\u0000", "\xc3\xa9", "\xe2\x82\xac", "\xff", "\x01", "/",    "\\/"};
    int n = (int)gen(5);
    for (int i = 0; i < n; i++) {
        put(b, pieces[gen(5) ? gen(7) : gen(sizeof(pieces) / sizeof(pieces[0]))]);
    }
}

static void put_number(struct gbuf *b)
{
    static const char *const odd[] = {"0",   "-0",   "01", "-01", "1.5", "1e3",
                                      "2E1", "-2.0", "1.", "-",   ".5",  "00"};
    char digits[32];
    if (gen(4) == 0) {
        put(b, odd[gen(sizeof(odd) / sizeof(odd[0]))]);
        return;
    }
    int n = 1 + (int)gen(21); /* up to 21 digits: past what an integer holds */
    int at = 0;
    if (gen(3) == 0) {
        digits[at++] = '-';
    }
    digits[at++] = (char)('1' + gen(9));
    for (int i = 1; i < n; i++) {
        digits[at++] = (char)('0' + gen(10));
    }
    digits[at] = '\0';
    put(b, digits);
}

static void put_value(struct gbuf *b, int depth)
{
    static const char *const keys[] = {"op", "id", "action", "type", "rev", "", "n"};
    unsigned k = gen(depth > 3 ? 5 : 8);
    put_space(b);
    if (k == 0) {
        put(b, "\"");
        put_chars(b);
        put(b, "\"");
    } else if (k == 1) {
        put_number(b);
    } else if (k == 2) {
        static const char *const words[] = {"true", "false", "null", "tru", "nul", "falsey"};
        put(b, words[gen(8) ? gen(3) : gen(6)]);
    } else if (k == 3 || k == 4) {
        put(b, "[");
        int n = (int)gen(4);
        for (int i = 0; i < n; i++) {
            put_value(b, depth + 1);
            if (i + 1 < n || gen(12) == 0) {
                put(b, ",");
            }
        }
        put_space(b);
        put(b, "]");
    } else {
        put(b, "{");
        int n = (int)gen(5);
        for (int i = 0; i < n; i++) {
            put_space(b);
            put(b, "\"");
            if (gen(8) == 0) {
                put_chars(b);
            } else {
                put(b, keys[gen(sizeof(keys) / sizeof(keys[0]))]); /* repeats */
            }
            put(b, "\"");
            put_space(b);
            put(b, gen(30) ? ":" : "");
            put_value(b, depth + 1);
            if (i + 1 < n || gen(12) == 0) {
                put(b, ",");
            }
        }
        put_space(b);
        put(b, "}");
    }
    put_space(b);
}

/* Whatever the line, proto_request_parse() answers as json_loadb() and
 * the checks after it did before the quick reader: the same error code,
 * and on success the same tree with its keys in the same order. Lines
 * are random requests, some of them cut, spliced or with a byte changed. */
START_TEST(test_request_quick_reader)
{
    int accepted = 0, refused = 0;
    for (int round = 0; round < 60000; round++) {
        struct gbuf b = {.len = 0};
        if (gen(3)) {
            put(&b, "{\"op\":\"act\",\"id\":");
            put_number(&b);
            put(&b, ",\"action\":");
        }
        put_value(&b, 0);
        if (b.data[0] == '{' && gen(3)) {
            put(&b, "}");
        }
        unsigned damage = gen(10);
        if (damage == 0 && b.len > 1) {
            b.len = gen((unsigned)b.len);
        } else if (damage == 1 && b.len > 0) {
            b.data[gen((unsigned)b.len)] = "{}[]\",: 0-a.e\\"[gen(15)];
        } else if (damage == 2) {
            put(&b, gen(2) ? " x" : "{}");
        }

        struct proto_request req;
        char err[256];
        enum proto_err e = proto_request_parse(b.data, b.len, &req, err, sizeof(err));
        json_t *want = json_loadb(b.data, b.len, JSON_DECODE_ANY, NULL);
        if (!want) {
            ck_assert_int_eq(e, PROTO_ERR_BAD_JSON);
            ck_assert_ptr_null(req.msg);
        } else if (!json_is_object(want)) {
            ck_assert_int_eq(e, PROTO_ERR_BAD_REQUEST);
        } else {
            ck_assert_ptr_nonnull(req.msg);
            char *got_text = json_dumps(req.msg, JSON_COMPACT | JSON_ENCODE_ANY);
            char *want_text = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
            ck_assert_str_eq(got_text, want_text);
            free(got_text);
            free(want_text);
        }
        accepted += e == PROTO_OK;
        refused += e != PROTO_OK;
        json_decref(want);
        proto_request_fini(&req);
    }
    /* Both kinds of line are seen in numbers. */
    ck_assert_int_gt(accepted, 3000);
    ck_assert_int_gt(refused, 3000);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"request_ok", test_request_ok},
        {"request_ids", test_request_ids},
        {"request_op", test_request_op},
        {"request_not_object", test_request_not_object},
        {"request_bad_json", test_request_bad_json},
        {"request_bad_utf8", test_request_bad_utf8},
        {"request_depth", test_request_depth},
        {"reply_shapes", test_reply_shapes},
        {"error_newlines", test_error_newlines},
        {"line_dump", test_line_dump},
        {"line_dump_limit", test_line_dump_limit},
        {"names", test_names},
        {"names_refused", test_names_refused},
        {"utf8_len", test_utf8_len},
        {"out_of_memory", test_out_of_memory},
        {"request_quick_reader", test_request_quick_reader},
    };
    return CK_RUN("envelope", cases, NULL, NULL);
}
