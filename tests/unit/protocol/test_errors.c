/* SPDX-License-Identifier: MIT */
/*
 * test_errors.c - unit tests of protocol/errors.c: the 27 wire names of
 * PROTOCOL.md section 8, in order and unique, their round trip through
 * proto_err_from_name(), the default messages, and out-of-range codes.
 */
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"

#include "proto.h"

/* PROTOCOL.md section 8, in the order of the enum. */
static const char *const names[] = {
    "bad_json",    "bad_request",     "unknown_op",     "hello_required",     "proto_unsupported",
    "bad_name",    "frame_too_large", "rate_limited",   "room_not_found",     "room_full",
    "seat_taken",  "already_started", "not_host",       "not_enough_players", "not_in_room",
    "not_in_game", "not_your_turn",   "illegal_action", "bad_action",         "stale",
    "game_over",   "game_not_over",   "bad_token",      "unknown_game",       "bad_option",
    "server_busy", "room_elsewhere",  "internal",
};

#define NAME_COUNT (sizeof(names) / sizeof(names[0]))

START_TEST(test_names_match_protocol)
{
    ck_assert_uint_eq(NAME_COUNT, 28);
    ck_assert_int_eq(PROTO_ERR__COUNT - 1, (int)NAME_COUNT);
    for (size_t i = 0; i < NAME_COUNT; i++) {
        ck_assert_str_eq(proto_err_name((enum proto_err)(i + 1)), names[i]);
    }
    ck_assert_int_eq(PROTO_ERR_BAD_JSON, 1);
    ck_assert_str_eq(proto_err_name(PROTO_ERR_ROOM_FULL), "room_full");
}
END_TEST

START_TEST(test_names_unique)
{
    for (int i = 1; i < PROTO_ERR__COUNT; i++) {
        for (int j = i + 1; j < PROTO_ERR__COUNT; j++) {
            ck_assert_str_ne(proto_err_name((enum proto_err)i), proto_err_name((enum proto_err)j));
        }
    }
}
END_TEST

START_TEST(test_from_name)
{
    for (int i = 1; i < PROTO_ERR__COUNT; i++) {
        ck_assert_int_eq(proto_err_from_name(proto_err_name((enum proto_err)i)), i);
    }
    ck_assert_int_eq(proto_err_from_name("no_such_code"), PROTO_OK);
    ck_assert_int_eq(proto_err_from_name(""), PROTO_OK);
    ck_assert_int_eq(proto_err_from_name("ROOM_FULL"), PROTO_OK);
    ck_assert_int_eq(proto_err_from_name(NULL), PROTO_OK);
}
END_TEST

START_TEST(test_messages)
{
    for (int i = 1; i < PROTO_ERR__COUNT; i++) {
        const char *m = proto_err_message((enum proto_err)i);
        ck_assert_ptr_nonnull(m);
        ck_assert_uint_gt(strlen(m), 0);
        ck_assert_ptr_null(strchr(m, '\n'));
    }
    ck_assert_str_eq(proto_err_message(PROTO_ERR_NOT_YOUR_TURN), "it is not your turn");
}
END_TEST

START_TEST(test_out_of_range)
{
    ck_assert_str_eq(proto_err_name(PROTO_OK), "internal");
    ck_assert_str_eq(proto_err_name(PROTO_ERR__COUNT), "internal");
    ck_assert_str_eq(proto_err_name((enum proto_err) - 1), "internal");
    ck_assert_str_eq(proto_err_name((enum proto_err)1000), "internal");
    ck_assert_str_eq(proto_err_message((enum proto_err)1000),
                     proto_err_message(PROTO_ERR_INTERNAL));
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"names_match_protocol", test_names_match_protocol},
        {"names_unique", test_names_unique},
        {"from_name", test_from_name},
        {"messages", test_messages},
        {"out_of_range", test_out_of_range},
    };
    return CK_RUN("errors", cases, NULL, NULL);
}
