/* SPDX-License-Identifier: MIT */
/*
 * test_record.c - the journal's line format: every record checked by its
 * checksum, reading stops at the first torn or corrupt line and keeps all
 * that precede it.
 */
#include "ck_run.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "failalloc.h"
#include "record.h"

static char *journal_of(const char *const *payloads, size_t n, size_t *ret_len)
{
    char *all = NULL;
    size_t len = 0;

    for (size_t i = 0; i < n; i++) {
        size_t l;
        char *line = store_record_format(payloads[i], strlen(payloads[i]), &l);
        ck_assert_ptr_nonnull(line);
        all = realloc(all, len + l);
        memcpy(all + len, line, l);
        len += l;
        free(line);
    }
    *ret_len = len;
    return all;
}

static const char *const recs[] = {
    "{\"t\":\"create\",\"room\":\"K7QF2M\"}",
    "{\"t\":\"seat\",\"seat\":0,\"name\":\"Ann\"}",
    "{\"t\":\"act\",\"seat\":0,\"action\":{\"type\":\"x\"}}",
};

START_TEST(format_then_check)
{
    size_t len;
    char *line = store_record_format(recs[0], strlen(recs[0]), &len);
    const char *p;
    size_t plen;

    ck_assert_int_eq(line[len - 1], '\n');
    ck_assert_int_eq(line[STORE_SUM_HEX], ' ');
    ck_assert_int_eq(store_record_check(line, len - 1, &p, &plen), 0);
    ck_assert_uint_eq(plen, strlen(recs[0]));
    ck_assert(memcmp(p, recs[0], plen) == 0);
    line[STORE_SUM_HEX + 5] ^= 1; /* one bit of the payload */
    ck_assert_int_eq(store_record_check(line, len - 1, &p, &plen), -1);
    free(line);
}
END_TEST

START_TEST(whole_journal_reads_back)
{
    size_t len, good;
    char *all = journal_of(recs, 3, &len);
    json_t *out;

    ck_assert_int_eq(store_journal_parse(all, len, &out, &good), 0);
    ck_assert_uint_eq(json_array_size(out), 3);
    ck_assert_uint_eq(good, len);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(out, 1), "name")), "Ann");
    json_decref(out);
    free(all);
}
END_TEST

START_TEST(torn_tail_is_dropped)
{
    size_t len, good;
    char *all = journal_of(recs, 3, &len);
    json_t *out;

    /* Cut in the middle of the last record: no newline. */
    for (size_t cut = 1; cut < 40; cut += 7) {
        ck_assert_int_eq(store_journal_parse(all, len - cut, &out, &good), 1);
        ck_assert_uint_eq(json_array_size(out), 2);
        ck_assert_uint_lt(good, len - cut + 1);
        json_decref(out);
    }
    free(all);
}
END_TEST

START_TEST(corrupt_record_ends_the_journal)
{
    size_t len, good;
    char *all = journal_of(recs, 3, &len);
    json_t *out;
    char *second = (char *)memchr(all, '\n', len) + 1;

    second[STORE_SUM_HEX + 3] ^= 0x20;
    ck_assert_int_eq(store_journal_parse(all, len, &out, &good), 1);
    ck_assert_uint_eq(json_array_size(out), 1);
    ck_assert_uint_eq(good, (size_t)(second - all));
    json_decref(out);
    free(all);
}
END_TEST

START_TEST(checksummed_non_object_is_refused)
{
    size_t len, good;
    char *line = store_record_format("[1,2]", 5, &len);
    json_t *out;

    ck_assert_int_eq(store_journal_parse(line, len, &out, &good), 1);
    ck_assert_uint_eq(json_array_size(out), 0);
    ck_assert_uint_eq(good, 0);
    json_decref(out);
    free(line);
}
END_TEST

START_TEST(checksummed_line_that_is_not_json_fails_the_read)
{
    size_t len, good = 99;
    char *line = store_record_format("{\"t\":", 5, &len);
    json_t *out = NULL;

    ck_assert_int_eq(store_journal_parse(line, len, &out, &good), -1);
    ck_assert_ptr_null(out);
    ck_assert_uint_eq(good, 99);
    free(line);
}
END_TEST

START_TEST(out_of_memory_is_not_a_torn_tail)
{
    /* With jansson's allocations failing at every point in turn, a valid
     * journal reads back whole or fails as out of memory; it is never cut
     * short as if torn, which would have the file truncated. */
    size_t len, good;
    char *all = journal_of(recs, 3, &len);
    bool whole = false;

    failalloc_install();
    for (long budget = 0; budget < 200 && !whole; budget++) {
        json_t *out = NULL;
        failalloc_budget(budget);
        int rc = store_journal_parse(all, len, &out, &good);
        failalloc_budget(-1);
        ck_assert_int_ne(rc, 1);
        if (rc == 0) {
            ck_assert_uint_eq(json_array_size(out), 3);
            ck_assert_uint_eq(good, len);
            whole = true;
        }
        json_decref(out);
    }
    failalloc_remove();
    ck_assert(whole);
    free(all);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"format_then_check", format_then_check},
        {"whole_journal_reads_back", whole_journal_reads_back},
        {"torn_tail_is_dropped", torn_tail_is_dropped},
        {"corrupt_record_ends_the_journal", corrupt_record_ends_the_journal},
        {"checksummed_non_object_is_refused", checksummed_non_object_is_refused},
        {"checksummed_line_that_is_not_json_fails_the_read",
         checksummed_line_that_is_not_json_fails_the_read},
        {"out_of_memory_is_not_a_torn_tail", out_of_memory_is_not_a_torn_tail},
    };
    if (sodium_init() < 0) {
        return EXIT_FAILURE;
    }
    return CK_RUN("record", cases, NULL, NULL);
}
