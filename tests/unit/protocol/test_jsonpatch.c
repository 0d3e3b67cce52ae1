/* SPDX-License-Identifier: MIT */
/*
 * test_jsonpatch.c - unit tests of protocol/jsonpatch.c: the examples of
 * RFC 6902 appendix A (successes and failures), pointer edge cases, exact
 * minimal diffs for hand-made cases, and a seeded property test that
 * apply(a, diff(a, b)) == b over thousands of random document pairs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"
#include "failalloc.h"

#include "proto.h"

static json_t *load(const char *text)
{
    json_error_t err;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &err);
    ck_assert_msg(v != NULL, "bad test JSON %s: %s", text, err.text);
    return v;
}

/* Applies `patch` to `doc`; expects result `want` (NULL: expects -EINVAL). */
static void check_apply(const char *doc, const char *patch, const char *want)
{
    json_t *d = load(doc);
    json_t *p = load(patch);
    int r = proto_patch_apply(&d, p);
    if (want == NULL) {
        ck_assert_msg(r == -EINVAL, "patch %s on %s gave %d", patch, doc, r);
    } else {
        json_t *w = load(want);
        ck_assert_msg(r == 0, "patch %s on %s gave %d", patch, doc, r);
        char *got = json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
        ck_assert_msg(json_equal(d, w), "patch %s on %s gave %s", patch, doc, got);
        free(got);
        json_decref(w);
    }
    json_decref(d);
    json_decref(p);
}

/* Diffs a and b; expects exactly the patch `want` (same order). */
static void check_diff(const char *a, const char *b, const char *want)
{
    json_t *ja = load(a);
    json_t *jb = load(b);
    json_t *w = load(want);
    json_t *p = proto_patch_diff(ja, jb);
    ck_assert_ptr_nonnull(p);
    char *got = json_dumps(p, JSON_COMPACT);
    ck_assert_msg(json_equal(p, w), "diff %s -> %s gave %s", a, b, got);
    free(got);
    ck_assert_int_eq(proto_patch_apply(&ja, p), 0);
    ck_assert(json_equal(ja, jb));
    json_decref(ja);
    json_decref(jb);
    json_decref(w);
    json_decref(p);
}

/* ---- RFC 6902 appendix A ---- */

START_TEST(test_rfc_add)
{
    /* A.1 Adding an Object Member */
    check_apply("{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\"}]",
                "{\"baz\":\"qux\",\"foo\":\"bar\"}");
    /* A.2 Adding an Array Element */
    check_apply("{\"foo\":[\"bar\",\"baz\"]}",
                "[{\"op\":\"add\",\"path\":\"/foo/1\",\"value\":\"qux\"}]",
                "{\"foo\":[\"bar\",\"qux\",\"baz\"]}");
    /* A.10 Adding a Nested Member Object */
    check_apply("{\"foo\":\"bar\"}",
                "[{\"op\":\"add\",\"path\":\"/child\",\"value\":{\"grandchild\":{}}}]",
                "{\"foo\":\"bar\",\"child\":{\"grandchild\":{}}}");
    /* A.11 Ignoring Unrecognized Elements */
    check_apply("{\"foo\":\"bar\"}",
                "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\",\"xyz\":123}]",
                "{\"foo\":\"bar\",\"baz\":\"qux\"}");
    /* A.16 Adding an Array Value */
    check_apply("{\"foo\":[\"bar\"]}",
                "[{\"op\":\"add\",\"path\":\"/foo/-\",\"value\":[\"abc\",\"def\"]}]",
                "{\"foo\":[\"bar\",[\"abc\",\"def\"]]}");
}
END_TEST

START_TEST(test_rfc_remove_replace)
{
    /* A.3 Removing an Object Member */
    check_apply("{\"baz\":\"qux\",\"foo\":\"bar\"}", "[{\"op\":\"remove\",\"path\":\"/baz\"}]",
                "{\"foo\":\"bar\"}");
    /* A.4 Removing an Array Element */
    check_apply("{\"foo\":[\"bar\",\"qux\",\"baz\"]}", "[{\"op\":\"remove\",\"path\":\"/foo/1\"}]",
                "{\"foo\":[\"bar\",\"baz\"]}");
    /* A.5 Replacing a Value */
    check_apply("{\"baz\":\"qux\",\"foo\":\"bar\"}",
                "[{\"op\":\"replace\",\"path\":\"/baz\",\"value\":\"boo\"}]",
                "{\"baz\":\"boo\",\"foo\":\"bar\"}");
}
END_TEST

START_TEST(test_rfc_move)
{
    /* A.6 Moving a Value */
    check_apply("{\"foo\":{\"bar\":\"baz\",\"waldo\":\"fred\"},\"qux\":{\"corge\":\"grault\"}}",
                "[{\"op\":\"move\",\"from\":\"/foo/waldo\",\"path\":\"/qux/thud\"}]",
                "{\"foo\":{\"bar\":\"baz\"},\"qux\":{\"corge\":\"grault\",\"thud\":\"fred\"}}");
    /* A.7 Moving an Array Element */
    check_apply("{\"foo\":[\"all\",\"grass\",\"cows\",\"eat\"]}",
                "[{\"op\":\"move\",\"from\":\"/foo/1\",\"path\":\"/foo/3\"}]",
                "{\"foo\":[\"all\",\"cows\",\"eat\",\"grass\"]}");
}
END_TEST

START_TEST(test_rfc_test)
{
    /* A.8 Testing a Value: Success */
    check_apply("{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}",
                "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"qux\"},"
                "{\"op\":\"test\",\"path\":\"/foo/1\",\"value\":2}]",
                "{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}");
    /* A.9 Testing a Value: Error */
    check_apply("{\"baz\":\"qux\"}", "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"bar\"}]",
                NULL);
    /* A.14 ~ Escape Ordering */
    check_apply("{\"/\":9,\"~1\":10}", "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":10}]",
                "{\"/\":9,\"~1\":10}");
    /* A.15 Comparing Strings and Numbers */
    check_apply("{\"/\":9,\"~1\":10}", "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":\"10\"}]",
                NULL);
    /* Numbers compare by value; objects ignore key order. */
    check_apply("{\"a\":1,\"b\":{\"x\":1,\"y\":[1,2]}}",
                "[{\"op\":\"test\",\"path\":\"/a\",\"value\":1.0},"
                "{\"op\":\"test\",\"path\":\"/b\",\"value\":{\"y\":[1,2],\"x\":1}}]",
                "{\"a\":1,\"b\":{\"x\":1,\"y\":[1,2]}}");
    check_apply("{\"a\":[1,2]}", "[{\"op\":\"test\",\"path\":\"/a\",\"value\":[2,1]}]", NULL);
    check_apply("{\"a\":1}", "[{\"op\":\"test\",\"path\":\"/b\",\"value\":null}]", NULL);
}
END_TEST

START_TEST(test_rfc_errors)
{
    /* A.12 Adding to a Nonexistent Target */
    check_apply("{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz/bat\",\"value\":\"qux\"}]",
                NULL);
    /* A.13 Invalid JSON Patch Document: the duplicate "op" member must not
     * produce an "add"; here the last member wins and the remove fails. */
    check_apply("{\"foo\":\"bar\"}",
                "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\",\"op\":\"remove\"}]", NULL);
    /* Missing targets for remove, replace, move and copy. */
    check_apply("{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"/b\"}]", NULL);
    check_apply("{\"a\":[1]}", "[{\"op\":\"remove\",\"path\":\"/a/1\"}]", NULL);
    check_apply("{\"a\":1}", "[{\"op\":\"replace\",\"path\":\"/b\",\"value\":2}]", NULL);
    check_apply("{\"a\":1}", "[{\"op\":\"move\",\"from\":\"/b\",\"path\":\"/c\"}]", NULL);
    check_apply("{\"a\":1}", "[{\"op\":\"copy\",\"from\":\"/b\",\"path\":\"/c\"}]", NULL);
}
END_TEST

START_TEST(test_apply_pointers)
{
    /* Escapes in object keys; "~" and "/" round trip through the pointer. */
    check_apply("{\"a/b\":1,\"m~n\":2}",
                "[{\"op\":\"replace\",\"path\":\"/a~1b\",\"value\":3},"
                "{\"op\":\"remove\",\"path\":\"/m~0n\"}]",
                "{\"a/b\":3}");
    /* The empty key and the whole document. */
    check_apply("{\"\":1}", "[{\"op\":\"replace\",\"path\":\"/\",\"value\":2}]", "{\"\":2}");
    check_apply("{\"a\":1}", "[{\"op\":\"replace\",\"path\":\"\",\"value\":[1]}]", "[1]");
    check_apply("{\"a\":1}", "[{\"op\":\"add\",\"path\":\"\",\"value\":3}]", "3");
    check_apply("{\"a\":1}", "[{\"op\":\"test\",\"path\":\"\",\"value\":{\"a\":1}}]", "{\"a\":1}");
    check_apply("[1,2]",
                "[{\"op\":\"add\",\"path\":\"/-\",\"value\":3},"
                "{\"op\":\"add\",\"path\":\"/0\",\"value\":0},"
                "{\"op\":\"add\",\"path\":\"/4\",\"value\":4}]",
                "[0,1,2,3,4]");
    /* Bad pointers and indices. */
    check_apply("{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"a\"}]", NULL);
    check_apply("{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"/~2\"}]", NULL);
    check_apply("{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"/a~\"}]", NULL);
    check_apply("[1,2]", "[{\"op\":\"remove\",\"path\":\"/01\"}]", NULL);
    check_apply("[1,2]", "[{\"op\":\"remove\",\"path\":\"/-\"}]", NULL);
    check_apply("[1,2]", "[{\"op\":\"remove\",\"path\":\"/-1\"}]", NULL);
    check_apply("[1,2]", "[{\"op\":\"add\",\"path\":\"/3\",\"value\":9}]", NULL);
    check_apply("[1,2]", "[{\"op\":\"replace\",\"path\":\"/2\",\"value\":9}]", NULL);
    check_apply("[1,2]", "[{\"op\":\"remove\",\"path\":\"/99999999999999999999999\"}]", NULL);
    check_apply("{\"a\":1}", "[{\"op\":\"add\",\"path\":\"/a/b\",\"value\":9}]", NULL);
    check_apply("{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"\"}]", NULL);
}
END_TEST

START_TEST(test_apply_move_copy)
{
    check_apply("{\"a\":{\"b\":[1,2]}}",
                "[{\"op\":\"copy\",\"from\":\"/a/b\",\"path\":\"/c\"},"
                "{\"op\":\"add\",\"path\":\"/c/-\",\"value\":3}]",
                "{\"a\":{\"b\":[1,2]},\"c\":[1,2,3]}");
    check_apply("{\"a\":{\"b\":1}}", "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/a\"}]",
                "{\"a\":{\"b\":1}}");
    check_apply("{\"a\":{\"b\":1}}", "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/a/c\"}]", NULL);
    check_apply("{\"a\":{\"b\":1},\"ab\":2}",
                "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/ab\"}]", "{\"ab\":{\"b\":1}}");
    check_apply("{\"a\":1}", "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"\"}]", "1");
}
END_TEST

START_TEST(test_apply_invalid_patch)
{
    check_apply("{}", "{\"op\":\"add\"}", NULL);
    check_apply("{}", "[1]", NULL);
    check_apply("{}", "[{\"path\":\"/a\",\"value\":1}]", NULL);
    check_apply("{}", "[{\"op\":\"add\",\"value\":1}]", NULL);
    check_apply("{}", "[{\"op\":\"add\",\"path\":\"/a\"}]", NULL);
    check_apply("{}", "[{\"op\":\"replace\",\"path\":\"\"}]", NULL);
    check_apply("{}", "[{\"op\":\"test\",\"path\":\"\"}]", NULL);
    check_apply("{}", "[{\"op\":\"move\",\"path\":\"/a\"}]", NULL);
    check_apply("{}", "[{\"op\":\"frob\",\"path\":\"/a\",\"value\":1}]", NULL);
    check_apply("{}", "[{\"op\":\"add\",\"path\":7,\"value\":1}]", NULL);
    /* The patch's values are copied, never shared with the document. */
    json_t *doc = load("{}");
    json_t *patch = load("[{\"op\":\"add\",\"path\":\"/a\",\"value\":{\"x\":1}}]");
    ck_assert_int_eq(proto_patch_apply(&doc, patch), 0);
    ck_assert_int_eq(json_object_set_new(json_object_get(doc, "a"), "y", json_true()), 0);
    ck_assert_uint_eq(json_object_size(json_object_get(json_array_get(patch, 0), "value")), 1);
    json_decref(doc);
    json_decref(patch);
}
END_TEST

/* ---- Minimal diffs ---- */

START_TEST(test_diff_objects)
{
    check_diff("{\"a\":1,\"b\":2}", "{\"a\":1,\"b\":2}", "[]");
    check_diff("{\"a\":1,\"b\":2}", "{\"a\":1,\"b\":3,\"c\":4}",
               "[{\"op\":\"replace\",\"path\":\"/b\",\"value\":3},"
               "{\"op\":\"add\",\"path\":\"/c\",\"value\":4}]");
    check_diff("{\"a\":{\"b\":{\"c\":1,\"d\":2}},\"e\":0}", "{\"a\":{\"b\":{\"c\":1}},\"e\":0}",
               "[{\"op\":\"remove\",\"path\":\"/a/b/d\"}]");
    check_diff("{\"a/b\":1,\"m~n\":1}", "{\"a/b\":2}",
               "[{\"op\":\"replace\",\"path\":\"/a~1b\",\"value\":2},"
               "{\"op\":\"remove\",\"path\":\"/m~0n\"}]");
    check_diff("{\"a\":[1]}", "{\"a\":{\"0\":1}}",
               "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":{\"0\":1}}]");
    check_diff("{\"a\":null}", "{\"a\":false}",
               "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":false}]");
    check_diff("{\"a\":1}", "[1]", "[{\"op\":\"replace\",\"path\":\"\",\"value\":[1]}]");
    check_diff("1", "2", "[{\"op\":\"replace\",\"path\":\"\",\"value\":2}]");
}
END_TEST

START_TEST(test_diff_arrays)
{
    check_diff("[1,2,3]", "[1,2,3]", "[]");
    check_diff("[1,2,3,4]", "[1]",
               "[{\"op\":\"remove\",\"path\":\"/3\"},{\"op\":\"remove\",\"path\":\"/2\"},"
               "{\"op\":\"remove\",\"path\":\"/1\"}]");
    check_diff("[1]", "[1,2,3]",
               "[{\"op\":\"add\",\"path\":\"/1\",\"value\":2},"
               "{\"op\":\"add\",\"path\":\"/2\",\"value\":3}]");
    check_diff("{\"x\":{\"y\":[1,2,3]}}", "{\"x\":{\"y\":[1,9]}}",
               "[{\"op\":\"replace\",\"path\":\"/x/y/1\",\"value\":9},"
               "{\"op\":\"remove\",\"path\":\"/x/y/2\"}]");
    check_diff("[{\"a\":1,\"b\":[true]}]", "[{\"a\":2,\"b\":[true,null]}]",
               "[{\"op\":\"replace\",\"path\":\"/0/a\",\"value\":2},"
               "{\"op\":\"add\",\"path\":\"/0/b/1\",\"value\":null}]");
    check_diff("[[1,2],[3]]", "[[1],[3,4],[]]",
               "[{\"op\":\"remove\",\"path\":\"/0/1\"},"
               "{\"op\":\"add\",\"path\":\"/1/1\",\"value\":4},"
               "{\"op\":\"add\",\"path\":\"/2\",\"value\":[]}]");
    check_diff("[]", "[]", "[]");
}
END_TEST

/* What both arrays keep at their head and tail stays; an item taken out
 * of the middle, or put in, is one op, not a replace of every item after
 * it. */
START_TEST(test_diff_array_middle)
{
    check_diff("[1,2,3,4,5]", "[1,2,4,5]", "[{\"op\":\"remove\",\"path\":\"/2\"}]");
    check_diff("[1,2,4,5]", "[1,2,3,4,5]", "[{\"op\":\"add\",\"path\":\"/2\",\"value\":3}]");
    check_diff("[1,2,3,4,5,6]", "[1,4,5,6]",
               "[{\"op\":\"remove\",\"path\":\"/2\"},{\"op\":\"remove\",\"path\":\"/1\"}]");
    check_diff("[{\"a\":1},{\"b\":2},{\"c\":3}]", "[{\"a\":1},{\"c\":3}]",
               "[{\"op\":\"remove\",\"path\":\"/1\"}]");
    check_diff("[1,2,3]", "[1,9,8,3]",
               "[{\"op\":\"replace\",\"path\":\"/1\",\"value\":9},"
               "{\"op\":\"add\",\"path\":\"/2\",\"value\":8}]");
    /* A supply row that lost its second stone. */
    check_diff("{\"supply\":[\"B\",\"R\",\"Y\",\"B\",\"R\",\"N\",\"G\"]}",
               "{\"supply\":[\"B\",\"Y\",\"B\",\"R\",\"N\",\"G\"]}",
               "[{\"op\":\"remove\",\"path\":\"/supply/1\"}]");
}
END_TEST

/* A log window that slid by one: one remove at the head, one add at the
 * tail, instead of a replace of every line. */
START_TEST(test_diff_sliding_window)
{
    check_diff("[\"a\",\"b\",\"c\",\"d\"]", "[\"b\",\"c\",\"d\",\"e\"]",
               "[{\"op\":\"remove\",\"path\":\"/0\"},"
               "{\"op\":\"add\",\"path\":\"/3\",\"value\":\"e\"}]");
    check_diff("{\"log\":[1,2,3,4,5]}", "{\"log\":[3,4,5,6,7]}",
               "[{\"op\":\"remove\",\"path\":\"/log/0\"},"
               "{\"op\":\"remove\",\"path\":\"/log/0\"},"
               "{\"op\":\"add\",\"path\":\"/log/3\",\"value\":6},"
               "{\"op\":\"add\",\"path\":\"/log/4\",\"value\":7}]");
    /* A window of messages slides the same way, rather than rewriting
     * each message's members in place. */
    check_diff("[[\"a\",\"Ann\"],[\"b\",\"Bo\",\"3\"],[\"a\",\"Cy\"]]",
               "[[\"b\",\"Bo\",\"3\"],[\"a\",\"Cy\"],[\"c\"]]",
               "[{\"op\":\"remove\",\"path\":\"/0\"},"
               "{\"op\":\"add\",\"path\":\"/2\",\"value\":[\"c\"]}]");
    /* A window that is still filling up only grows at its tail. */
    check_diff("[1,2]", "[1,2,3]", "[{\"op\":\"add\",\"path\":\"/2\",\"value\":3}]");
    /* Where sliding saves nothing, items are replaced in place. */
    check_diff("[1,2]", "[2,3]",
               "[{\"op\":\"replace\",\"path\":\"/0\",\"value\":2},"
               "{\"op\":\"replace\",\"path\":\"/1\",\"value\":3}]");
}
END_TEST

/* The comma-separated ops in `ops`, as a patch, turn *doc into `want`. */
static void check_ops_apply(const struct proto_text *ops, json_t **doc, const json_t *want)
{
    struct proto_text arr = {0};

    proto_text_add(&arr, "[", 1);
    proto_text_add(&arr, ops->data, ops->len);
    proto_text_add(&arr, "]", 1);
    json_t *patch = load(arr.data);
    ck_assert_int_eq(proto_patch_apply(doc, patch), 0);
    ck_assert(json_equal(*doc, want));
    json_decref(patch);
    proto_text_free(&arr);
}

/* Ops for one member of a document, written under its key from the
 * members' canonical texts: added, removed, changed, unchanged. */
START_TEST(test_diff_text_member)
{
    struct proto_text t = {0};
    const char *a = "{\"x\":1,\"y\":[\"a\\\"b\"]}";
    const char *b = "{\"x\":2,\"y\":[\"a\\\"b\",\"c\"]}";
    json_t *doc = load("{\"board\":{\"x\":1,\"y\":[\"a\\\"b\"]},\"a/b~\":0}");
    json_t *want = load("{\"board\":{\"x\":2,\"y\":[\"a\\\"b\",\"c\"]},\"n\":[3]}");

    ck_assert_int_eq(proto_patch_diff_text(&t, "board", a, strlen(a), b, strlen(b)), 0);
    ck_assert_str_eq(t.data, "{\"op\":\"replace\",\"path\":\"/board/x\",\"value\":2},"
                             "{\"op\":\"add\",\"path\":\"/board/y/1\",\"value\":\"c\"}");
    size_t len = t.len;
    ck_assert_int_eq(proto_patch_diff_text(&t, "same", b, strlen(b), b, strlen(b)), 0);
    ck_assert_uint_eq(t.len, len);
    ck_assert_int_eq(proto_patch_diff_text(&t, "a/b~", "0", 1, NULL, 0), 0);
    ck_assert_str_eq(t.data + len, ",{\"op\":\"remove\",\"path\":\"/a~1b~0\"}");
    ck_assert_int_eq(proto_patch_diff_text(&t, "n", NULL, 0, "[3]", 3), 0);

    /* The ops, as a patch, turn the document into the new one. */
    check_ops_apply(&t, &doc, want);

    /* Text that is not one whole value is refused, and writes nothing. */
    len = t.len;
    ck_assert_int_eq(proto_patch_diff_text(&t, "x", "[1", 2, "[2]", 3), -EINVAL);
    ck_assert_int_eq(proto_patch_diff_text(&t, "x", "1", 1, "2,3", 3), -EINVAL);
    ck_assert_int_eq(proto_patch_diff_text(&t, "x", "{\"a\":1}", 7, "{\"a\"1}", 6), -EINVAL);
    ck_assert_uint_eq(t.len, len);
    proto_text_free(&t);
    json_decref(doc);
    json_decref(want);
}
END_TEST

/* The ops of one item of an array member, under "/key/index". */
START_TEST(test_diff_item)
{
    struct proto_text t = {0};
    const char *a = "{\"n\":\"Ann\",\"vp\":3}";
    const char *b = "{\"n\":\"Ann\",\"vp\":4}";

    ck_assert_int_eq(proto_patch_diff_item(&t, "seats", 1, a, strlen(a), b, strlen(b)), 0);
    ck_assert_str_eq(t.data, "{\"op\":\"replace\",\"path\":\"/seats/1/vp\",\"value\":4}");
    ck_assert_int_eq(proto_patch_diff_item(&t, "a/b", 0, "[1]", 3, "2", 1), 0);
    ck_assert_str_eq(t.data, "{\"op\":\"replace\",\"path\":\"/seats/1/vp\",\"value\":4},"
                             "{\"op\":\"replace\",\"path\":\"/a~1b/0\",\"value\":2}");
    proto_text_free(&t);
}
END_TEST

/* An item known to be new or gone gets its op with no diff: `add` of its
 * text at "/key/index", or `remove` there; the ops apply as a patch. */
START_TEST(test_item_op)
{
    struct proto_text t = {0};
    json_t *doc = load("{\"a/b~\":[1,2],\"log\":[\"x\",\"y\",\"z\"]}");
    json_t *want = load("{\"a/b~\":[2],\"log\":[\"x\",\"y\",\"z\",\"Ann cast\"]}");

    ck_assert_int_eq(proto_patch_item_op(&t, "log", 3, "\"Ann cast\"", 10), 0);
    ck_assert_str_eq(t.data, "{\"op\":\"add\",\"path\":\"/log/3\",\"value\":\"Ann cast\"}");
    ck_assert_int_eq(proto_patch_item_op(&t, "a/b~", 0, NULL, 0), 0);
    ck_assert_str_eq(t.data, "{\"op\":\"add\",\"path\":\"/log/3\",\"value\":\"Ann cast\"},"
                             "{\"op\":\"remove\",\"path\":\"/a~1b~0/0\"}");
    check_ops_apply(&t, &doc, want);
#ifdef CONCLAVE_CHECKED
    /* Test builds check the value the caller vouches for. */
    size_t len = t.len;
    ck_assert_int_eq(proto_patch_item_op(&t, "log", 0, "[1", 2), -EINVAL);
    ck_assert_int_eq(proto_patch_item_op(&t, "log", 0, "1,2", 3), -EINVAL);
    ck_assert_uint_eq(t.len, len);
#endif
    proto_text_free(&t);
    json_decref(doc);
    json_decref(want);
}
END_TEST

/* A pointer longer than the diff keeps on its stack is written whole. */
START_TEST(test_diff_long_path)
{
    char key[301];
    char a[600], b[600], want[700];

    memset(key, 'k', 300);
    key[300] = '\0';
    snprintf(a, sizeof(a), "{\"%s\":{\"%s\":[1]}}", key, key + 200);
    snprintf(b, sizeof(b), "{\"%s\":{\"%s\":[2]}}", key, key + 200);
    snprintf(want, sizeof(want), "[{\"op\":\"replace\",\"path\":\"/%s/%s/0\",\"value\":2}]", key,
             key + 200);
    check_diff(a, b, want);
}
END_TEST

/* Keys are merged in the order of the bytes they stand for, escapes read:
 * "\\"" (0x22) sorts before "a", and a key that is a prefix before a
 * longer one. */
START_TEST(test_diff_text_escaped_keys)
{
    json_t *a = load("{\"\\\"q\":1,\"ab\":2,\"abc\":3,\"~\":4}");
    json_t *b = load("{\"\\\"q\":5,\"abc\":3,\"abd\":6,\"~\":4}");
    json_t *patch = proto_patch_diff(a, b);
    json_t *work = json_deep_copy(a);

    ck_assert_ptr_nonnull(patch);
    ck_assert_uint_eq(json_array_size(patch), 3);
    ck_assert_int_eq(proto_patch_apply(&work, patch), 0);
    ck_assert(json_equal(work, b));
    json_decref(patch);
    json_decref(work);
    json_decref(a);
    json_decref(b);
}
END_TEST

/* Texts longer than the 64 bytes the index reads at a time: a string
 * holding quotes, backslashes and brackets is one value wherever its
 * bytes fall against those blocks, and one changed member gives one op. */
START_TEST(test_diff_text_long)
{
    for (int pad = 0; pad < 140; pad++) {
        struct proto_text t = {0};
        struct proto_text a = {0};
        struct proto_text b = {0};
        char want[128];

        /* {"p":"<pad x>\"]}[{\\","q":[1,{"r":"<pad y>"}],"s":0} and s 1. */
        for (int k = 0; k < 2; k++) {
            struct proto_text *d = k == 0 ? &a : &b;
            proto_text_str(d, "{\"p\":\"");
            for (int i = 0; i < pad; i++) {
                proto_text_add(d, "x", 1);
            }
            proto_text_str(d, "\\\"]}[{\\\\\",\"q\":[1,{\"r\":\"");
            for (int i = 0; i < pad; i++) {
                proto_text_add(d, "y", 1);
            }
            proto_text_str(d, k == 0 ? "\"}],\"s\":0}" : "\"}],\"s\":1}");
        }
        ck_assert_int_eq(proto_patch_diff_text(&t, "v", a.data, a.len, b.data, b.len), 0);
        snprintf(want, sizeof(want), "{\"op\":\"replace\",\"path\":\"/v/s\",\"value\":1}");
        ck_assert_str_eq(t.data, want);

        /* Cut short inside the string, or with a bracket too many after
         * it: refused, wherever the fault falls. */
        t.len = 0;
        ck_assert_int_eq(proto_patch_diff_text(&t, "v", a.data, a.len, b.data, (size_t)pad + 8),
                         -EINVAL);
        proto_text_add(&b, "]", 1);
        ck_assert_int_eq(proto_patch_diff_text(&t, "v", a.data, a.len, b.data, b.len), -EINVAL);
        b.data[b.len - 1] = '\\';
        ck_assert_int_eq(proto_patch_diff_text(&t, "v", a.data, a.len, b.data, b.len), -EINVAL);
        ck_assert_uint_eq(t.len, 0);
        proto_text_free(&t);
        proto_text_free(&a);
        proto_text_free(&b);
    }
}
END_TEST

/* ---- Allocation failures ---- */

START_TEST(test_out_of_memory)
{
    json_t *a = load("{\"a\":[1,2,{\"b\":\"x\"}],\"c\":{\"d\":null,\"e\":[true]},\"f\":\"g\"}");
    json_t *b = load("{\"a\":[1,{\"z\":2}],\"c\":{\"e\":[true,false,{\"h\":[]}]},\"i/j\":\"k\"}");
    json_t *want = proto_patch_diff(a, b);
    ck_assert_ptr_nonnull(want);
    failalloc_install();

    /* Fail the first, second, ... allocation until the diff succeeds: every
     * failure returns NULL and leaks nothing. */
    bool done = false;
    for (long budget = 0; !done && budget < 10000; budget++) {
        failalloc_budget(budget);
        json_t *p = proto_patch_diff(a, b);
        failalloc_budget(-1);
        if (p != NULL) {
            ck_assert(json_equal(p, want));
            ck_assert_int_gt(budget, 0);
            done = true;
        }
        json_decref(p);
    }
    ck_assert(done);

    /* The same for apply: -ENOMEM until it succeeds. */
    done = false;
    for (long budget = 0; !done && budget < 10000; budget++) {
        json_t *doc = json_deep_copy(a);
        ck_assert_ptr_nonnull(doc);
        failalloc_budget(budget);
        int r = proto_patch_apply(&doc, want);
        failalloc_budget(-1);
        if (r == 0) {
            ck_assert(json_equal(doc, b));
            done = true;
        } else {
            ck_assert_int_eq(r, -ENOMEM);
        }
        json_decref(doc);
    }
    ck_assert(done);

    failalloc_remove();
    json_decref(want);
    json_decref(a);
    json_decref(b);
}
END_TEST

/* ---- Property test ---- */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
    /* xorshift64*: deterministic for a fixed seed. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32) % n;
}

static const char *const keys[] = {
    "a", "b", "c", "a/b", "~", "~1", "~0/", "/", "", "0", "1", "-", "\xc3\xa9", "seats", "you",
};

static json_t *random_value(int depth)
{
    uint32_t kind = rnd(depth > 0 ? 8 : 5);
    switch (kind) {
    case 0:
        return json_integer((json_int_t)rnd(7) - 3);
    case 1:
        return json_boolean(rnd(2));
    case 2:
        return json_null();
    case 3:
        return json_string(keys[rnd(sizeof(keys) / sizeof(keys[0]))]);
    case 4:
        return json_integer((json_int_t)rnd(1000000));
    case 5:
    case 6: {
        json_t *o = json_object();
        uint32_t n = rnd(5);
        for (uint32_t i = 0; i < n; i++) {
            json_object_set_new(o, keys[rnd(sizeof(keys) / sizeof(keys[0]))],
                                random_value(depth - 1));
        }
        return o;
    }
    default: {
        json_t *a = json_array();
        uint32_t n = rnd(5);
        for (uint32_t i = 0; i < n; i++) {
            json_array_append_new(a, random_value(depth - 1));
        }
        return a;
    }
    }
}

/* A random container somewhere inside v (v itself included), or NULL. */
static json_t *random_container(json_t *v)
{
    json_t *pick = json_is_object(v) || json_is_array(v) ? v : NULL;
    json_t *cur = v;
    for (int steps = 0; steps < 6; steps++) {
        json_t *next = NULL;
        if (json_is_object(cur) && json_object_size(cur) > 0) {
            uint32_t k = rnd((uint32_t)json_object_size(cur));
            void *it = json_object_iter(cur);
            while (k-- > 0) {
                it = json_object_iter_next(cur, it);
            }
            next = json_object_iter_value(it);
        } else if (json_is_array(cur) && json_array_size(cur) > 0) {
            next = json_array_get(cur, rnd((uint32_t)json_array_size(cur)));
        }
        if (next == NULL) {
            break;
        }
        cur = next;
        if ((json_is_object(cur) || json_is_array(cur)) && rnd(2) == 0) {
            pick = cur;
        }
    }
    return pick;
}

/* Applies one small random change inside the container c. */
static void mutate(json_t *c)
{
    const char *key = keys[rnd(sizeof(keys) / sizeof(keys[0]))];
    if (json_is_object(c)) {
        if (rnd(3) == 0 && json_object_size(c) > 0) {
            json_object_del(c, json_object_iter_key(json_object_iter(c)));
        } else {
            json_object_set_new(c, key, random_value(2));
        }
        return;
    }
    size_t n = json_array_size(c);
    switch (rnd(4)) {
    case 0:
        json_array_append_new(c, random_value(2));
        break;
    case 1:
        if (n > 0) {
            json_array_remove(c, rnd((uint32_t)n));
        }
        break;
    case 2:
        json_array_insert_new(c, n > 0 ? rnd((uint32_t)n) : 0, random_value(1));
        break;
    default:
        if (n > 0) {
            json_array_set_new(c, rnd((uint32_t)n), random_value(2));
        }
        break;
    }
}

START_TEST(test_property_roundtrip)
{
    rng_state = 0x0123456789abcdefull;
    for (int iter = 0; iter < 5000; iter++) {
        json_t *a = random_value(4);
        json_t *b;
        if (rnd(2) == 0) {
            b = random_value(4);
        } else {
            b = json_deep_copy(a);
            int changes = 1 + (int)rnd(4);
            for (int c = 0; c < changes; c++) {
                json_t *target = random_container(b);
                if (target != NULL) {
                    mutate(target);
                }
            }
        }
        ck_assert_ptr_nonnull(a);
        ck_assert_ptr_nonnull(b);

        json_t *patch = proto_patch_diff(a, b);
        ck_assert_ptr_nonnull(patch);
        json_t *work = json_deep_copy(a);
        ck_assert_int_eq(proto_patch_apply(&work, patch), 0);
        if (!json_equal(work, b)) {
            char *sa = json_dumps(a, JSON_COMPACT | JSON_ENCODE_ANY);
            char *sb = json_dumps(b, JSON_COMPACT | JSON_ENCODE_ANY);
            char *sp = json_dumps(patch, JSON_COMPACT);
            ck_abort_msg("iteration %d: a=%s b=%s patch=%s", iter, sa, sb, sp);
        }
        /* Equal documents diff to nothing; different ones never do. */
        json_t *same = proto_patch_diff(b, work);
        ck_assert_ptr_nonnull(same);
        ck_assert_uint_eq(json_array_size(same), 0);
        if (json_equal(a, b)) {
            ck_assert_uint_eq(json_array_size(patch), 0);
        } else {
            ck_assert_uint_gt(json_array_size(patch), 0);
        }
        json_decref(same);
        json_decref(work);
        json_decref(patch);
        json_decref(a);
        json_decref(b);
    }
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"rfc_add", test_rfc_add},
        {"rfc_remove_replace", test_rfc_remove_replace},
        {"rfc_move", test_rfc_move},
        {"rfc_test", test_rfc_test},
        {"rfc_errors", test_rfc_errors},
        {"apply_pointers", test_apply_pointers},
        {"apply_move_copy", test_apply_move_copy},
        {"apply_invalid_patch", test_apply_invalid_patch},
        {"diff_objects", test_diff_objects},
        {"diff_arrays", test_diff_arrays},
        {"diff_array_middle", test_diff_array_middle},
        {"diff_sliding_window", test_diff_sliding_window},
        {"diff_text_member", test_diff_text_member},
        {"diff_item", test_diff_item},
        {"item_op", test_item_op},
        {"diff_long_path", test_diff_long_path},
        {"diff_text_escaped_keys", test_diff_text_escaped_keys},
        {"diff_text_long", test_diff_text_long},
        {"out_of_memory", test_out_of_memory},
        {"property_roundtrip", test_property_roundtrip},
    };
    return ck_run("jsonpatch", cases, sizeof(cases) / sizeof(cases[0]), NULL, NULL, 120);
}
