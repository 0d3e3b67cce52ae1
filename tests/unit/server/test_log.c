/* SPDX-License-Identifier: MIT */
/*
 * test_log.c - the log's lines as a reader of key=value fields sees them:
 * fields and quoted values as written, and a line too long for
 * LOG_LINE_MAX cut after its last whole field with truncated=yes.
 */
#include "ck_run.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

static char path[] = "/tmp/conclave-log-XXXXXX";
static int saved_stderr = -1;

static void setup(void)
{
    int fd = mkstemp(path);

    ck_assert_int_ge(fd, 0);
    fflush(stderr);
    saved_stderr = dup(STDERR_FILENO);
    ck_assert_int_ge(dup2(fd, STDERR_FILENO), 0);
    close(fd);
}

static void teardown(void)
{
    fflush(stderr);
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    unlink(path);
    strcpy(path, "/tmp/conclave-log-XXXXXX");
}

/* What the log holds so far (malloc'd, NUL-terminated). */
static char *written(void)
{
    fflush(stderr);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[4 * LOG_LINE_MAX];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strdup(buf);
}

/* Splits the fields after "ts=... level=... event=..." the way a reader
 * of the format does: spaces outside quotes, backslash escapes inside.
 * Checks every field is key=value with balanced quotes; returns how many. */
static int fields_of(const char *line, char fields[][LOG_QUOTE_MAX + 64], int max)
{
    int n = 0;
    const char *p = line;

    while (*p && *p != '\n') {
        const char *start = p;
        bool quoted = false;
        while (*p && *p != '\n' && (quoted || *p != ' ')) {
            if (quoted && *p == '\\') {
                p++;
            } else if (*p == '"') {
                quoted = !quoted;
            }
            p++;
        }
        ck_assert_msg(!quoted, "a quoted value runs to the end of the line");
        ck_assert_ptr_nonnull(memchr(start, '=', (size_t)(p - start)));
        ck_assert_int_lt(n, max);
        ck_assert_uint_lt((size_t)(p - start), LOG_QUOTE_MAX + 64);
        memcpy(fields[n], start, (size_t)(p - start));
        fields[n][p - start] = '\0';
        n++;
        if (*p == ' ') {
            p++;
        }
    }
    ck_assert_int_eq(*p, '\n');
    return n;
}

START_TEST(a_line_within_the_limit_is_written_whole)
{
    char q[LOG_QUOTE_MAX];

    log_event(LOG_WARN, "test_event", "room=K7QF2M name=%s n=%d",
              log_quote(q, sizeof(q), "Ann \"the\" = best"), 3);
    char *text = written();
    char fields[16][LOG_QUOTE_MAX + 64];
    int n = fields_of(text, fields, 16);
    ck_assert_int_eq(n, 6);
    ck_assert_str_eq(fields[1], "level=warn");
    ck_assert_str_eq(fields[2], "event=test_event");
    ck_assert_str_eq(fields[4], "name=\"Ann \\\"the\\\" = best\"");
    ck_assert_str_eq(fields[5], "n=3");
    free(text);
}
END_TEST

START_TEST(a_line_over_the_limit_keeps_its_whole_fields_and_says_so)
{
    /* Six quoted values of about 400 bytes with spaces and escaped quotes:
     * twice what a line holds, so the cut falls inside one of them. */
    char v[6][LOG_QUOTE_MAX];
    char value[420];
    for (int k = 0; k < 6; k++) {
        for (size_t i = 0; i < sizeof(value) - 1; i++) {
            value[i] = (char)(i % 7 == 3 ? ' ' : i % 11 == 5 ? '"' : 'a' + (i + (size_t)k) % 26);
        }
        value[sizeof(value) - 1] = '\0';
        log_quote(v[k], sizeof(v[k]), value);
    }
    log_event(LOG_INFO, "long_event", "a=%s b=%s c=%s d=%s e=%s f=%s", v[0], v[1], v[2], v[3], v[4],
              v[5]);
    char *text = written();
    size_t len = strlen(text);
    ck_assert_uint_le(len, LOG_LINE_MAX);
    ck_assert_int_eq(text[len - 1], '\n');
    ck_assert_ptr_eq(strchr(text, '\n'), text + len - 1); /* one line */

    char fields[16][LOG_QUOTE_MAX + 64];
    int n = fields_of(text, fields, 16);
    ck_assert_str_eq(fields[n - 1], "truncated=yes");
    /* The fields before it are the first ones written, each whole. */
    int kept = n - 4; /* ts, level, event, ..., truncated */
    ck_assert_int_ge(kept, 3);
    ck_assert_int_lt(kept, 6);
    for (int k = 0; k < kept; k++) {
        char want[sizeof(v) + 8];
        snprintf(want, sizeof(want), "%c=%s", 'a' + k, v[k]);
        ck_assert_str_eq(fields[3 + k], want);
    }
    /* As many as fit: the next one whole would not have. */
    ck_assert_uint_gt(len + strlen(v[kept]) + 3, (size_t)LOG_LINE_MAX - strlen(" truncated=yes"));
    free(text);
}
END_TEST

START_TEST(one_field_too_long_leaves_the_event)
{
    static char big[3 * LOG_LINE_MAX];
    memset(big, 'x', sizeof(big) - 1);
    log_event(LOG_ERROR, "huge", "blob=%s", big);
    char *text = written();
    ck_assert_ptr_nonnull(strstr(text, " level=error event=huge truncated=yes\n"));
    free(text);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"a_line_within_the_limit_is_written_whole", a_line_within_the_limit_is_written_whole},
        {"a_line_over_the_limit_keeps_its_whole_fields_and_says_so",
         a_line_over_the_limit_keeps_its_whole_fields_and_says_so},
        {"one_field_too_long_leaves_the_event", one_field_too_long_leaves_the_event},
    };
    return CK_RUN("log", cases, setup, teardown);
}
