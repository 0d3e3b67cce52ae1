/* SPDX-License-Identifier: MIT */
/*
 * test_roomcode.c - unit tests of protocol/roomcode.c: encoded codes use the
 * Crockford alphabet only, typed codes are normalised (case, '-', spaces,
 * I/L/O confusables) and anything else is refused, and encode/parse round
 * trip.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"

#include "proto.h"

static const char alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

START_TEST(test_encode)
{
    char code[PROTO_ROOM_CODE_LEN + 1];
    proto_room_code_encode(0, code);
    ck_assert_str_eq(code, "000000");
    proto_room_code_encode(0x3fffffffu, code);
    ck_assert_str_eq(code, "ZZZZZZ");
    /* Only the low 30 bits count. */
    proto_room_code_encode(0xc0000000u, code);
    ck_assert_str_eq(code, "000000");
    proto_room_code_encode(1u | (31u << 25), code);
    ck_assert_str_eq(code, "Z00001");
    uint32_t x = 12345;
    for (int i = 0; i < 10000; i++) {
        x = x * 1664525u + 1013904223u;
        proto_room_code_encode(x, code);
        ck_assert_uint_eq(strlen(code), PROTO_ROOM_CODE_LEN);
        ck_assert_uint_eq(strspn(code, alphabet), PROTO_ROOM_CODE_LEN);
    }
}
END_TEST

START_TEST(test_parse_normalises)
{
    char out[PROTO_ROOM_CODE_LEN + 1];
    ck_assert_int_eq(proto_room_code_parse("K7QF2M", out), 0);
    ck_assert_str_eq(out, "K7QF2M");
    ck_assert_int_eq(proto_room_code_parse("k7qf-2m", out), 0);
    ck_assert_str_eq(out, "K7QF2M");
    ck_assert_int_eq(proto_room_code_parse(" k7 qf - 2m ", out), 0);
    ck_assert_str_eq(out, "K7QF2M");
    ck_assert_int_eq(proto_room_code_parse("ILOilo", out), 0);
    ck_assert_str_eq(out, "110110");
    ck_assert_int_eq(proto_room_code_parse("--abcdez--", out), 0);
    ck_assert_str_eq(out, "ABCDEZ");
}
END_TEST

START_TEST(test_parse_refuses)
{
    char out[PROTO_ROOM_CODE_LEN + 1];
    static const char *const bad[] = {
        "K7QF2U", "u00000", "K7QF2",    "K7QF2MM",       "",        "------",
        "K7QF2!", "K7Q_F2", "K7QF\t2M", "K7QF2\xc3\x89", "K7.QF2M", "K7QF2M\n",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(proto_room_code_parse(bad[i], out) == -1, "accepted \"%s\"", bad[i]);
    }
    ck_assert_int_eq(proto_room_code_parse(NULL, out), -1);
}
END_TEST

START_TEST(test_round_trip)
{
    char code[PROTO_ROOM_CODE_LEN + 1];
    char out[PROTO_ROOM_CODE_LEN + 1];
    char typed[16];
    for (uint32_t v = 0; v < (1u << 30); v += 104729u) {
        proto_room_code_encode(v, code);
        ck_assert_int_eq(proto_room_code_parse(code, out), 0);
        ck_assert_str_eq(out, code);
        /* Typed in lower case with a dash in the middle. */
        for (int i = 0, o = 0; i < PROTO_ROOM_CODE_LEN; i++) {
            if (i == 3) {
                typed[o++] = '-';
            }
            char c = code[i];
            typed[o++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            typed[o] = '\0';
        }
        ck_assert_int_eq(proto_room_code_parse(typed, out), 0);
        ck_assert_str_eq(out, code);
        /* Decoding the characters gives back the 30 bits. */
        uint32_t back = 0;
        for (int i = 0; i < PROTO_ROOM_CODE_LEN; i++) {
            back = (back << 5) | (uint32_t)(strchr(alphabet, out[i]) - alphabet);
        }
        ck_assert_uint_eq(back, v);
    }
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"encode", test_encode},
        {"parse_normalises", test_parse_normalises},
        {"parse_refuses", test_parse_refuses},
        {"round_trip", test_round_trip},
    };
    return CK_RUN("roomcode", cases, NULL, NULL);
}
