/* SPDX-License-Identifier: MIT */
/*
 * test_codemap.c - unit tests of protocol/codemap.c: the index from room
 * codes to pointers agrees with a plain list through long random runs of
 * insertions, replacements, lookups and deletions (growth and deletions in
 * the middle of probe runs included), and refuses what it cannot file.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"

#include "proto.h"

#define NCODES 3000

static char codes[NCODES][PROTO_ROOM_CODE_LEN + 1];
static int vals[NCODES];

static uint32_t next(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x >> 2;
}

/* Distinct codes, as the lobby draws them. */
static void make_codes(uint32_t seed)
{
    for (int i = 0; i < NCODES; i++) {
        bool again;
        do {
            proto_room_code_encode(next(&seed), codes[i]);
            again = false;
            for (int k = 0; k < i && !again; k++) {
                again = strcmp(codes[k], codes[i]) == 0;
            }
        } while (again);
    }
}

/* Random operations on `span` codes, checked against the model `in`. */
static void run_model(uint32_t seed, int span, int steps)
{
    struct proto_code_map m = {0};
    void *in[NCODES] = {0};
    size_t n = 0;

    for (int s = 0; s < steps; s++) {
        int i = (int)(next(&seed) % (uint32_t)span);
        switch (next(&seed) % 4) {
        case 0:
        case 1: {
            void *v = &vals[(i + s) % NCODES];
            ck_assert_int_eq(proto_code_map_put(&m, codes[i], v), 0);
            n += in[i] == NULL;
            in[i] = v;
            break;
        }
        case 2:
            proto_code_map_del(&m, codes[i]);
            n -= in[i] != NULL;
            in[i] = NULL;
            break;
        default:
            ck_assert_ptr_eq(proto_code_map_get(&m, codes[i]), in[i]);
        }
        ck_assert_uint_eq(m.n, n);
        ck_assert_uint_le(2 * m.n, m.cap);
    }
    for (int i = 0; i < span; i++) {
        ck_assert_ptr_eq(proto_code_map_get(&m, codes[i]), in[i]);
    }
    for (int i = 0; i < span; i++) {
        proto_code_map_del(&m, codes[i]);
        ck_assert_ptr_null(proto_code_map_get(&m, codes[i]));
    }
    ck_assert_uint_eq(m.n, 0);
    proto_code_map_free(&m);
    ck_assert_ptr_null(m.slots);
}

START_TEST(test_agrees_with_a_list)
{
    make_codes(7);
    /* Few codes in a small table: long probe runs that wrap around, and
     * deletions inside them. Many codes: growth under way. */
    run_model(1, 20, 20000);
    run_model(2, 200, 50000);
    run_model(3, NCODES, 60000);
}
END_TEST

START_TEST(test_empty_and_refusals)
{
    struct proto_code_map m = {0};
    int v = 0;

    ck_assert_ptr_null(proto_code_map_get(&m, "K7QF2M"));
    proto_code_map_del(&m, "K7QF2M");
    ck_assert_int_eq(proto_code_map_put(&m, "K7QF2M", NULL), -EINVAL);
    ck_assert_int_eq(proto_code_map_put(&m, "K7QF2MX", &v), -EINVAL);
    ck_assert_uint_eq(m.n, 0);
    ck_assert_int_eq(proto_code_map_put(&m, "K7QF2M", &v), 0);
    ck_assert_ptr_eq(proto_code_map_get(&m, "K7QF2M"), &v);
    /* A code is found only by its exact characters. */
    ck_assert_ptr_null(proto_code_map_get(&m, "K7QF2N"));
    ck_assert_ptr_null(proto_code_map_get(&m, "K7QF2"));
    proto_code_map_free(&m);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"agrees_with_a_list", test_agrees_with_a_list},
        {"empty_and_refusals", test_empty_and_refusals},
    };
    return CK_RUN("codemap", cases, NULL, NULL);
}
