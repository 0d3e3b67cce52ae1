/* SPDX-License-Identifier: MIT */
/*
 * test_game_text.c - the writer games write their views with
 * (server/games/common/game_text.c): what it writes is the canonical form
 * every client hashes (the same bytes as protocol/canonical.c writes for
 * the same value), it places commas itself, and it refuses, for good, what
 * would not be canonical: keys out of order, repeated or not plain, a value
 * where a key belongs, containers closed out of turn, a second top-level
 * value, nesting past its depth.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "ck_run.h"
#include "game.h"
#include "proto.h"

/* Requires `t` to hold exactly `want`, written without error. */
static void expect(struct game_text *t, const char *want)
{
    ck_assert_int_eq(game_text_end(t), 0);
    ck_assert_str_eq(t->data, want);
    ck_assert_uint_eq(t->len, strlen(want));
}

START_TEST(writes_nested_values_with_their_commas)
{
    struct game_text t = {0};

    game_text_obj(&t);
    game_text_karr(&t, "a");
    game_text_int(&t, 1);
    game_text_arr(&t);
    game_text_end_arr(&t);
    game_text_obj(&t);
    game_text_end_obj(&t);
    game_text_null(&t);
    game_text_end_arr(&t);
    game_text_kbool(&t, "b", true);
    game_text_kobj(&t, "c");
    game_text_kint(&t, "x", -7);
    game_text_knull(&t, "y");
    game_text_end_obj(&t);
    game_text_key(&t, "d");
    game_text_str_or_null(&t, NULL);
    game_text_kstr(&t, "e", "hi");
    game_text_kbool(&t, "f", false);
    game_text_end_obj(&t);
    expect(&t, "{\"a\":[1,[],{},null],\"b\":true,\"c\":{\"x\":-7,\"y\":null},\"d\":null,"
               "\"e\":\"hi\",\"f\":false}");
    game_text_free(&t);
}
END_TEST

/* The writer holds the canonical form of v (which it takes, as it frees
 * the writer). */
static void expect_canonical(struct game_text *t, json_t *v)
{
    size_t len;
    char *want;

    ck_assert_ptr_nonnull(v);
    want = proto_canonical(v, &len);
    ck_assert_ptr_nonnull(want);
    expect(t, want);
    free(want);
    json_decref(v);
    game_text_free(t);
}

/* The bytes are those of the canonical form of the same value. */
START_TEST(strings_and_integers_are_written_as_the_canonical_form_writes_them)
{
    static const char *const strings[] = {
        "",
        "plain",
        "quote \" and \\ backslash",
        "tab\there\nnew line\x01\x1f",
        "caf\xc3\xa9 \xe5\xad\x90 \xf0\x9f\x82\xa1",
        "slash / stays",
        "\x7f del",
    };
    static const long long ints[] = {0, 1, -1, 42, 1000000007, LLONG_MAX, LLONG_MIN};
    struct game_text t = {0};
    json_t *v = json_array();

    game_text_arr(&t);
    for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
        game_text_str(&t, strings[i]);
        json_array_append_new(v, json_string(strings[i]));
    }
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
        game_text_int(&t, ints[i]);
        json_array_append_new(v, json_integer(ints[i]));
    }
    game_text_strn(&t, "cut here", 3);
    json_array_append_new(v, json_string("cut"));
    game_text_end_arr(&t);
    expect_canonical(&t, v);
}
END_TEST

/* A byte that needs an escape is escaped wherever it stands in a string,
 * in the first eight bytes or after any number of plain ones. */
START_TEST(every_byte_to_escape_is_escaped_at_any_place)
{
    static const char special[] = {'"', '\\', '\x01', '\x1f', '\n', '\0'};
    char s[40];

    for (size_t k = 0; k < sizeof(special); k++) {
        for (size_t at = 0; at < 24; at++) {
            struct game_text t = {0};
            /* Plain bytes (ASCII, then a UTF-8 sequence) around the one. */
            memcpy(s, "abcdefghijklmnopqrstuvwxyz0123456789\xc3\xa9!", 39);
            s[at] = special[k];
            game_text_strn(&t, s, 39);
            expect_canonical(&t, json_stringn(s, 39));
        }
    }
}
END_TEST

/* Each misuse leaves err set and the text no longer grows. */
static void refused(void (*misuse)(struct game_text *), const char *what)
{
    struct game_text t = {0};
    size_t len;

    misuse(&t);
    ck_assert_msg(game_text_end(&t) == -EINVAL, "%s: accepted (%d) as %s", what, t.err,
                  t.data ? t.data : "");
    len = t.len;
    game_text_int(&t, 1);
    game_text_end_arr(&t);
    game_text_end_obj(&t);
    ck_assert_msg(t.len == len, "%s: the writer went on after refusing", what);
    ck_assert_int_eq(game_text_end(&t), -EINVAL);
    game_text_free(&t);
}

static void keys_out_of_order(struct game_text *t)
{
    game_text_obj(t);
    game_text_kint(t, "b", 1);
    game_text_kint(t, "a", 2);
}

static void key_twice(struct game_text *t)
{
    game_text_obj(t);
    game_text_kint(t, "seat", 1);
    game_text_kint(t, "seat", 2);
}

static void longer_key_first(struct game_text *t)
{
    game_text_obj(t);
    game_text_kint(t, "ab", 1);
    game_text_kint(t, "a", 2);
}

static void upper_case_after_lower(struct game_text *t)
{
    /* Byte order: "Z" (0x5a) sorts before "a" (0x61). */
    game_text_obj(t);
    game_text_kint(t, "a", 1);
    game_text_kint(t, "Z", 2);
}

static void key_not_plain(struct game_text *t)
{
    game_text_obj(t);
    game_text_kint(t, "a-b", 1);
}

/* Keys longer than the one-pass length, which are checked again. */
#define LONG_A "a_key_longer_than_thirty_two_bytes_a"
#define LONG_B "a_key_longer_than_thirty_two_bytes_b"

static void long_key_not_plain(struct game_text *t)
{
    game_text_obj(t);
    game_text_kint(t, "a_key_longer_than_thirty_two_bytes-", 1);
}

static void long_keys_out_of_order(struct game_text *t)
{
    game_text_obj(t);
    game_text_kint(t, LONG_B, 1);
    game_text_kint(t, LONG_A, 2);
}

static void empty_key(struct game_text *t)
{
    game_text_obj(t);
    game_text_kint(t, "", 1);
}

static void value_without_key(struct game_text *t)
{
    game_text_obj(t);
    game_text_int(t, 1);
}

static void key_in_array(struct game_text *t)
{
    game_text_arr(t);
    game_text_key(t, "a");
}

static void key_without_value(struct game_text *t)
{
    game_text_obj(t);
    game_text_key(t, "a");
    game_text_end_obj(t);
}

static void two_keys_in_a_row(struct game_text *t)
{
    game_text_obj(t);
    game_text_key(t, "a");
    game_text_key(t, "b");
}

static void closed_out_of_turn(struct game_text *t)
{
    game_text_arr(t);
    game_text_end_obj(t);
}

static void closed_twice(struct game_text *t)
{
    game_text_arr(t);
    game_text_end_arr(t);
    game_text_end_arr(t);
}

static void left_open(struct game_text *t)
{
    game_text_obj(t);
    game_text_kint(t, "a", 1);
}

static void two_top_values(struct game_text *t)
{
    game_text_int(t, 1);
    game_text_int(t, 2);
}

static void int_obj_out_of_order(struct game_text *t)
{
    static const char *const keys[] = {"life", "gold"};
    const long long v[] = {1, 2};
    game_text_int_obj(t, keys, v, 2);
}

static void int_obj_not_plain(struct game_text *t)
{
    static const char *const keys[] = {"a-b"};
    const long long v[] = {1};
    game_text_int_obj(t, keys, v, 1);
}

static void int_obj_key_twice(struct game_text *t)
{
    static const char *const keys[] = {"gold", "gold"};
    const long long v[] = {1, 2};
    game_text_int_obj(t, keys, v, 2);
}

static void int_obj_prefix_after_key(struct game_text *t)
{
    static const char *const keys[] = {"golden", "gold"};
    const long long v[] = {1, 2};
    game_text_int_obj(t, keys, v, 2);
}

static void int_obj_key_too_long(struct game_text *t)
{
    static const char *const keys[] = {"a", "b23456789012345678901234567890123"};
    const long long v[] = {1, 2};
    game_text_int_obj(t, keys, v, 2);
}

static void int_obj_as_member_without_key(struct game_text *t)
{
    static const char *const keys[] = {"a"};
    const long long v[] = {1};
    game_text_obj(t);
    game_text_int_obj(t, keys, v, 1);
}

static void nested_too_deep(struct game_text *t)
{
    for (int i = 0; i <= GAME_TEXT_DEPTH; i++) {
        game_text_arr(t);
    }
}

START_TEST(refuses_what_would_not_be_canonical)
{
    refused(keys_out_of_order, "keys out of order");
    refused(key_twice, "a key twice");
    refused(longer_key_first, "a longer key before its prefix");
    refused(upper_case_after_lower, "\"Z\" after \"a\"");
    refused(key_not_plain, "a key with '-'");
    refused(long_key_not_plain, "a long key with '-' past its 32nd byte");
    refused(long_keys_out_of_order, "long keys that differ in their last byte, out of order");
    refused(empty_key, "an empty key");
    refused(value_without_key, "a member without a key");
    refused(key_in_array, "a key in an array");
    refused(key_without_value, "a key without its value");
    refused(two_keys_in_a_row, "two keys in a row");
    refused(closed_out_of_turn, "an array closed as an object");
    refused(closed_twice, "a container closed twice");
    refused(left_open, "an object left open");
    refused(two_top_values, "two top-level values");
    refused(nested_too_deep, "nesting past GAME_TEXT_DEPTH");
    refused(int_obj_out_of_order, "an object of integers with its keys out of order");
    refused(int_obj_not_plain, "an object of integers with a key with '-'");
    refused(int_obj_key_twice, "an object of integers with a key twice");
    refused(int_obj_prefix_after_key,
            "an object of integers with a key after a longer one it begins");
    refused(int_obj_key_too_long, "an object of integers with a key of 33 bytes");
    refused(int_obj_as_member_without_key, "an object of integers where a key belongs");
}
END_TEST

/* Keys of different objects are ordered each on their own. */
START_TEST(each_object_orders_its_own_keys)
{
    struct game_text t = {0};

    game_text_obj(&t);
    game_text_kobj(&t, "m");
    game_text_kint(&t, "z", 1);
    game_text_end_obj(&t);
    game_text_karr(&t, "n");
    game_text_obj(&t);
    game_text_kint(&t, "b", 1);
    game_text_end_obj(&t);
    game_text_obj(&t);
    game_text_kint(&t, "a", 2);
    game_text_end_obj(&t);
    game_text_end_arr(&t);
    game_text_end_obj(&t);
    expect(&t, "{\"m\":{\"z\":1},\"n\":[{\"b\":1},{\"a\":2}]}");
    game_text_free(&t);
}
END_TEST

/* Keys of any length are written whole and ordered by all their bytes. */
START_TEST(long_keys_are_written_whole)
{
    struct game_text t = {0};

    game_text_obj(&t);
    game_text_kint(&t, LONG_A, 1);
    game_text_kint(&t, LONG_B, 2);
    game_text_kint(&t, "b", 3);
    game_text_end_obj(&t);
    expect(&t, "{\"" LONG_A "\":1,\"" LONG_B "\":2,\"b\":3}");
    game_text_free(&t);
}
END_TEST

/* An object of integers in one call is the object written member by
 * member, wherever it stands. */
START_TEST(int_obj_is_the_object_member_by_member)
{
    static const char *const keys[] = {"calm", "death", "elan", "gold", "life"};
    const long long v[] = {0, -3, 12, LLONG_MIN, LLONG_MAX};
    struct game_text a = {0}, b = {0};

    game_text_arr(&a);
    game_text_int_obj(&a, keys, v, 5);
    game_text_int_obj(&a, keys, v, 0);
    game_text_end_arr(&a);
    game_text_arr(&b);
    game_text_obj(&b);
    for (int i = 0; i < 5; i++) {
        game_text_kint(&b, keys[i], v[i]);
    }
    game_text_end_obj(&b);
    game_text_obj(&b);
    game_text_end_obj(&b);
    game_text_end_arr(&b);
    ck_assert_int_eq(game_text_end(&b), 0);
    expect(&a, b.data);
    game_text_free(&a);
    game_text_free(&b);
}
END_TEST

/* A reset writer writes again into the buffer it kept, refusals gone. */
START_TEST(reset_keeps_the_buffer_and_forgets_the_rest)
{
    struct game_text t = {0};
    char *buf;

    game_text_arr(&t);
    game_text_str(&t, "first");
    game_text_end_arr(&t);
    buf = t.data;
    game_text_reset(&t);
    ck_assert_uint_eq(t.len, 0);
    /* Nothing written is not a value. */
    ck_assert_int_eq(game_text_end(&t), -EINVAL);
    game_text_int(&t, 1);
    game_text_int(&t, 2);
    ck_assert_int_eq(game_text_end(&t), -EINVAL);
    game_text_reset(&t);
    game_text_str(&t, "second");
    expect(&t, "\"second\"");
    ck_assert_ptr_eq(t.data, buf);
    game_text_free(&t);
    ck_assert_ptr_null(t.data);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"nested", writes_nested_values_with_their_commas},
        {"canonical_bytes", strings_and_integers_are_written_as_the_canonical_form_writes_them},
        {"escapes", every_byte_to_escape_is_escaped_at_any_place},
        {"refusals", refuses_what_would_not_be_canonical},
        {"objects_own_order", each_object_orders_its_own_keys},
        {"long_keys", long_keys_are_written_whole},
        {"reset", reset_keeps_the_buffer_and_forgets_the_rest},
        {"int_obj", int_obj_is_the_object_member_by_member},
    };

    return CK_RUN("game_text", cases, NULL, NULL);
}
