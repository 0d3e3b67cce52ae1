/* SPDX-License-Identifier: MIT */
/*
 * test_json_util.c - the refusals of the games' strict action decoders
 * (server/games/common/json_util.c): game_json_only_keys() accepts exactly
 * the listed members and names the first other one; game_json_bad_field()
 * words a bad field; a key sent by a client is shown cut at a character
 * boundary, without quotes, backslashes or control characters; a log
 * line's message keeps its key and arguments, or nothing when they do not
 * fit.
 */
#include <stdarg.h>
#include <limits.h>
#include <string.h>

#include "ck_run.h"
#include "game.h"
#include "json_util.h"

static const char *const keys[] = {"type", "card", "to", NULL};

START_TEST(only_keys_accepts_the_listed_members)
{
    struct game_error err;
    json_t *full = json_pack("{s:s, s:s, s:n}", "type", "equip", "card", "cane", "to");
    json_t *empty = json_object();

    memset(&err, 0, sizeof(err));
    ck_assert_int_eq(game_json_only_keys(full, keys, "R-x-1", "equip", &err), GAME_OK);
    ck_assert_int_eq(game_json_only_keys(empty, keys, "R-x-1", "equip", &err), GAME_OK);
    ck_assert_str_eq(err.message, "");
    json_decref(full);
    json_decref(empty);
}
END_TEST

START_TEST(only_keys_names_the_first_other_member)
{
    struct game_error err;
    json_t *a = json_pack("{s:s, s:f, s:i}", "type", "done", "note", 1.5, "zzz", 1);
    json_t *b = json_pack("{s:s, s:i}", "type", "end_turn", "Type", 1);

    ck_assert_int_eq(game_json_only_keys(a, keys, "R-x-10", "done", &err), GAME_E_BAD_ACTION);
    ck_assert_int_eq(err.status, GAME_E_BAD_ACTION);
    ck_assert_str_eq(err.message, "R-x-10: unknown field \"note\" in a done action");
    /* Keys compare as bytes; a type starting with a vowel takes "an". */
    ck_assert_int_eq(game_json_only_keys(b, keys, NULL, "end_turn", &err), GAME_E_BAD_ACTION);
    ck_assert_str_eq(err.message, "unknown field \"Type\" in an end_turn action");
    json_decref(a);
    json_decref(b);
}
END_TEST

START_TEST(a_sent_key_is_shown_safely)
{
    struct game_error err;
    /* 37 ASCII bytes, then "é" (2 bytes) and "€" (3 bytes): the cut at 40
     * bytes falls inside the euro sign, so the key is shown up to "é". */
    const char *long_key = "abcdefghijklmnopqrstuvwxyz0123456789A\xc3\xa9\xe2\x82\xacxyz";
    json_t *a = json_object();
    json_t *b = json_object();

    json_object_set_new(a, long_key, json_integer(1));
    ck_assert_int_eq(game_json_only_keys(a, keys, NULL, "pass", &err), GAME_E_BAD_ACTION);
    ck_assert_str_eq(err.message, "unknown field \"abcdefghijklmnopqrstuvwxyz0123456789A\xc3\xa9"
                                  "...\" in a pass action");
    json_object_set_new(b, "a\"b\\c\nd\x7f", json_integer(1));
    ck_assert_int_eq(game_json_only_keys(b, keys, NULL, "pass", &err), GAME_E_BAD_ACTION);
    ck_assert_str_eq(err.message, "unknown field \"a?b?c?d?\" in a pass action");
    json_decref(a);
    json_decref(b);
}
END_TEST

START_TEST(bad_field_names_the_field)
{
    struct game_error err;

    ck_assert_int_eq(game_json_bad_field(&err, "R-x-10", "recruit", "card", "a known card id"),
                     GAME_E_BAD_ACTION);
    ck_assert_int_eq(err.status, GAME_E_BAD_ACTION);
    ck_assert_str_eq(err.message,
                     "R-x-10: field \"card\" of a recruit action must be a known card id");
    ck_assert_int_eq(game_json_bad_field(&err, NULL, "offer", "colour", "Y, G, B, R or N"),
                     GAME_E_BAD_ACTION);
    ck_assert_str_eq(err.message, "field \"colour\" of an offer action must be Y, G, B, R or N");
}
END_TEST

static void format(char *line, size_t len, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    game_format_line(line, len, fmt, ap);
    va_end(ap);
}

/* A log line too long for its slot is cut at a character boundary: never
 * in the middle of a name's UTF-8 sequence, which no client could read. */
START_TEST(format_line_cuts_at_a_character_boundary)
{
    char line[8];

    format(line, sizeof(line), "%s plays", "Ann");
    ck_assert_str_eq(line, "Ann pla");
    /* "ab" and three 3-byte characters: the slot holds 7 bytes, the cut
     * falls inside the second character, which is dropped whole. */
    format(line, sizeof(line), "ab%s", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e");
    ck_assert_str_eq(line, "ab\xe6\x97\xa5");
    /* A 4-byte character cut after its second byte goes too. */
    format(line, sizeof(line), "abcde%s", "\xf0\x9f\x82\xa1");
    ck_assert_str_eq(line, "abcde");
    /* What fits is left alone. */
    format(line, sizeof(line), "%d", 42);
    ck_assert_str_eq(line, "42");
}
END_TEST

/* The conversions a message carries are written without printf: the line
 * is the one snprintf() writes, at the ends of every integer's range and
 * cut at any length. */
START_TEST(format_line_writes_what_snprintf_writes)
{
    char line[128], whole[160];
    int n = snprintf(whole, sizeof(whole), "%s|%d|%d|%u|%ld|%ld|%lu|%%|%s.", "Ann", INT_MIN,
                     INT_MAX, UINT_MAX, LONG_MIN, LONG_MAX, ULONG_MAX, "");

    ck_assert_int_lt(n, (int)sizeof(line));
    for (size_t len = 1; len <= sizeof(line); len++) {
        size_t keep = (size_t)n < len - 1 ? (size_t)n : len - 1;
        format(line, len, "%s|%d|%d|%u|%ld|%ld|%lu|%%|%s.", "Ann", INT_MIN, INT_MAX, UINT_MAX,
               LONG_MIN, LONG_MAX, ULONG_MAX, "");
        ck_assert_uint_eq(strlen(line), keep);
        ck_assert_int_eq(memcmp(line, whole, keep), 0);
        /* The bytes past the line stay zero (game states compare whole). */
        for (size_t i = keep; i < len; i++) {
            ck_assert_int_eq(line[i], 0);
        }
    }
}
END_TEST

static void format_msg(char *line, size_t len, char *msg, size_t mlen, const char *key,
                       const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    game_format_msg(line, len, msg, mlen, key, fmt, ap);
    va_end(ap);
}

/* The text the view writes for a kept message. */
static void msg_text(const char *msg, char *out, size_t n)
{
    struct game_text t = {0};

    game_text_msg(&t, msg);
    ck_assert_int_eq(game_text_end(&t), 0);
    ck_assert_uint_lt(t.len, n);
    memcpy(out, t.data, t.len + 1);
    game_text_free(&t);
}

/* A log line's message holds its key and each argument as the line shows
 * it, so a client can write the same line in another language. */
START_TEST(format_msg_keeps_key_and_arguments)
{
    char line[64], msg[64], text[128];

    format_msg(line, sizeof(line), msg, sizeof(msg), "cast", "%s cast %s on zone %d (%u%%, %ld).",
               "Bo", "SPIN", 3, 7u, -2L);
    ck_assert_str_eq(line, "Bo cast SPIN on zone 3 (7%, -2).");
    msg_text(msg, text, sizeof(text));
    ck_assert_str_eq(text, "[\"cast\",\"Bo\",\"SPIN\",\"3\",\"7\",\"-2\"]");
    /* Empty arguments keep their places, the last one too. */
    format_msg(line, sizeof(line), msg, sizeof(msg), "k", "%s|%s|%s", "", "x", "");
    msg_text(msg, text, sizeof(text));
    ck_assert_str_eq(text, "[\"k\",\"\",\"x\",\"\"]");
    /* No argument: the key alone. */
    format_msg(line, sizeof(line), msg, sizeof(msg), "begins", "The game begins.");
    msg_text(msg, text, sizeof(text));
    ck_assert_str_eq(text, "[\"begins\"]");
}
END_TEST

/* A message that does not fit, or a conversion the message cannot carry,
 * leaves no message: clients then show the line as it is, which is still
 * written whole. */
START_TEST(format_msg_without_room_leaves_none)
{
    char line[64], msg[12], text[16];

    format_msg(line, sizeof(line), msg, sizeof(msg), "played", "%s played %s.", "Ann",
               "a long card name");
    ck_assert_str_eq(line, "Ann played a long card name.");
    ck_assert_str_eq(msg, "");
    msg_text(msg, text, sizeof(text));
    ck_assert_str_eq(text, "[]");
    format_msg(line, sizeof(line), msg, sizeof(msg), "w", "%5d", 42);
    ck_assert_str_eq(line, "   42");
    ck_assert_str_eq(msg, "");
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"only_keys_accepts_the_listed_members", only_keys_accepts_the_listed_members},
        {"only_keys_names_the_first_other_member", only_keys_names_the_first_other_member},
        {"a_sent_key_is_shown_safely", a_sent_key_is_shown_safely},
        {"bad_field_names_the_field", bad_field_names_the_field},
        {"format_line_cuts_at_a_character_boundary", format_line_cuts_at_a_character_boundary},
        {"format_line_writes_what_snprintf_writes", format_line_writes_what_snprintf_writes},
        {"format_msg_keeps_key_and_arguments", format_msg_keeps_key_and_arguments},
        {"format_msg_without_room_leaves_none", format_msg_without_room_leaves_none},
    };
    return CK_RUN("json_util", cases, NULL, NULL);
}
