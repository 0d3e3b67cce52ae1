/* SPDX-License-Identifier: MIT */
/*
 * test_canonical.c - unit tests of protocol/canonical.c: key order by UTF-8
 * bytes, escaping, nesting, refusal of reals, and the view hash checked
 * against values computed outside this code base.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"

#include "proto.h"

static json_t *load(const char *text)
{
    json_error_t err;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &err);
    ck_assert_msg(v != NULL, "bad test JSON %s: %s", text, err.text);
    return v;
}

/* Canonical form of `text` must be exactly `want`. */
static void check_canonical(const char *text, const char *want)
{
    json_t *v = load(text);
    size_t len = 0;
    char *got = proto_canonical(v, &len);
    ck_assert_ptr_nonnull(got);
    ck_assert_uint_eq(len, strlen(want));
    ck_assert_str_eq(got, want);
    free(got);
    json_decref(v);
}

START_TEST(test_key_order)
{
    /* Bytes, not characters or insertion order: 'B' (0x42) < 'a' (0x61),
     * a prefix sorts first, and 'é' (0xc3 0xa9) after every ASCII key. */
    check_canonical("{\"\\u00e9\":1,\"aa\":2,\"a\":3,\"B\":4,\"\":5}",
                    "{\"\":5,\"B\":4,\"a\":3,\"aa\":2,\"\xc3\xa9\":1}");
    /* U+FF01 (ef bc 81) sorts before U+1F3B2 (f0 9f 8e b2) by bytes, unlike
     * UTF-16 order, where the surrogate d83c comes first. */
    check_canonical("{\"\\ud83c\\udfb2\":1,\"\\uff01\":2}",
                    "{\"\xef\xbc\x81\":2,\"\xf0\x9f\x8e\xb2\":1}");
}
END_TEST

START_TEST(test_escaping)
{
    /* Only '"' and '\' are escaped; '/' and non-ASCII stay raw. */
    check_canonical("[\"a\\\"b\\\\c/d\\u00e9\\u65e5\"]", "[\"a\\\"b\\\\c/d\xc3\xa9\xe6\x97\xa5\"]");
    /* Control characters never occur in views; if they do, \u00XX. */
    check_canonical("\"\\n\\u0001\\u001f\\u007f\"", "\"\\u000a\\u0001\\u001f\x7f\"");
    check_canonical("{\"k\\\"\":\"v\"}", "{\"k\\\"\":\"v\"}");
}
END_TEST

START_TEST(test_nested)
{
    check_canonical("{\"z\":[{\"b\":1,\"a\":[true,false,null]},[],{}],\"y\":{\"d\":{\"c\":-1}}}",
                    "{\"y\":{\"d\":{\"c\":-1}},\"z\":[{\"a\":[true,false,null],\"b\":1},[],{}]}");
    check_canonical("[-9223372036854775808,9223372036854775807,0]",
                    "[-9223372036854775808,9223372036854775807,0]");
    /* More keys than are sorted on the stack, given in reverse. */
    char in[1024] = "{";
    char want[1024] = "{";
    for (int i = 0; i < 40; i++) {
        char kv[32];
        snprintf(kv, sizeof(kv), "%s\"k%02d\":%d", i ? "," : "", 39 - i, 39 - i);
        strcat(in, kv);
        snprintf(kv, sizeof(kv), "%s\"k%02d\":%d", i ? "," : "", i, i);
        strcat(want, kv);
    }
    strcat(in, "}");
    strcat(want, "}");
    check_canonical(in, want);
    check_canonical("\"\"", "\"\"");
    check_canonical("null", "null");
}
END_TEST

START_TEST(test_reals_refused)
{
    json_t *v = load("{\"a\":[1,{\"b\":2.5}]}");
    size_t len = 0;
    char hash[PROTO_HASH_HEX_LEN + 1];
    errno = 0;
    ck_assert_ptr_null(proto_canonical(v, &len));
    ck_assert_int_eq(errno, EINVAL);
    ck_assert_int_eq(proto_view_hash(v, hash), -EINVAL);
    json_decref(v);
    v = load("1.0");
    ck_assert_ptr_null(proto_canonical(v, &len));
    json_decref(v);
}
END_TEST

START_TEST(test_hash_known)
{
    /* Expected values computed independently with Python 3:
     *   import hashlib, json
     *   s = json.dumps(doc, sort_keys=True, separators=(",", ":"),
     *                  ensure_ascii=False)
     *   hashlib.blake2b(s.encode(), digest_size=32).hexdigest()
     * with doc loaded (json.load) from the same text as `text` below. */
    static const char text[] =
        "{\"you\":{\"\\u00e9\":\"\\u65e5\\u672c\",\"aa\":0,\"a\":false,\"B\":true,"
        "\"hand\":[\"\\u00e9\",\"\\u00f6\"]},\"log\":[\"Bo cast SPIN on zone 3\"],"
        "\"result\":null,\"seats\":[{\"score\":-3,\"name\":\"Ann\"},"
        "{\"score\":12,\"name\":\"Bo \\\"the\\\" \\\\ best / slash\"}],\"active\":[1],"
        "\"phase\":\"play\",\"game\":\"stones\",\"big\":9007199254740993,"
        "\"neg\":-9223372036854775808,\"empty\":{},\"ea\":[]}";
    static const char canonical[] =
        "{\"active\":[1],\"big\":9007199254740993,\"ea\":[],\"empty\":{},\"game\":\"stones\","
        "\"log\":[\"Bo cast SPIN on zone 3\"],\"neg\":-9223372036854775808,\"phase\":\"play\","
        "\"result\":null,\"seats\":[{\"name\":\"Ann\",\"score\":-3},"
        "{\"name\":\"Bo \\\"the\\\" \\\\ best / slash\",\"score\":12}],"
        "\"you\":{\"B\":true,\"a\":false,\"aa\":0,\"hand\":[\"\xc3\xa9\",\"\xc3\xb6\"],"
        "\"\xc3\xa9\":\"\xe6\x97\xa5\xe6\x9c\xac\"}}";
    check_canonical(text, canonical);

    char hash[PROTO_HASH_HEX_LEN + 1];
    json_t *v = load(text);
    ck_assert_int_eq(proto_view_hash(v, hash), 0);
    ck_assert_str_eq(hash, "13504951d12dca8271c4066de1a25ba12d71b4a60626acc5dcd6fd5f449f4ac2");
    json_decref(v);
    /* The hash of the canonical text itself is the same. */
    proto_text_hash(canonical, strlen(canonical), hash);
    ck_assert_str_eq(hash, "13504951d12dca8271c4066de1a25ba12d71b4a60626acc5dcd6fd5f449f4ac2");

    /* hashlib.blake2b(b"{}", digest_size=32).hexdigest() */
    v = json_object();
    ck_assert_int_eq(proto_view_hash(v, hash), 0);
    ck_assert_str_eq(hash, "c09da522dac261c3d2566230bed10d2f3ef13f8e7654576c12e857e07f786098");
    json_decref(v);
}
END_TEST

START_TEST(test_hash_order_independent)
{
    char h1[PROTO_HASH_HEX_LEN + 1];
    char h2[PROTO_HASH_HEX_LEN + 1];
    json_t *a = load("{\"a\":1,\"b\":{\"c\":[1,2],\"d\":null}}");
    json_t *b = load("{\"b\":{\"d\":null,\"c\":[1,2]},\"a\":1}");
    json_t *c = load("{\"b\":{\"d\":null,\"c\":[2,1]},\"a\":1}");
    ck_assert_int_eq(proto_view_hash(a, h1), 0);
    ck_assert_int_eq(proto_view_hash(b, h2), 0);
    ck_assert_str_eq(h1, h2);
    ck_assert_int_eq(proto_view_hash(c, h2), 0);
    ck_assert_str_ne(h1, h2);
    ck_assert_uint_eq(strlen(h1), PROTO_HASH_HEX_LEN);
    json_decref(a);
    json_decref(b);
    json_decref(c);
}
END_TEST

START_TEST(test_hex)
{
    static const uint8_t bytes[] = {0x00, 0x0f, 0xa5, 0xff};
    char out[9];
    proto_hex(bytes, sizeof(bytes), out);
    ck_assert_str_eq(out, "000fa5ff");
    proto_hex(bytes, 0, out);
    ck_assert_str_eq(out, "");
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"key_order", test_key_order},
        {"escaping", test_escaping},
        {"nested", test_nested},
        {"reals_refused", test_reals_refused},
        {"hash_known", test_hash_known},
        {"hash_order_independent", test_hash_order_independent},
        {"hex", test_hex},
    };
    return CK_RUN("canonical", cases, NULL, NULL);
}
