/* SPDX-License-Identifier: MIT */
/*
 * log.c - key=value lines on stderr (see log.h). Never used by protocol/
 * or games/.
 */
#include "log.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int min_level = LOG_INFO;

static const char *const level_names[] = {"debug", "info", "warn", "error"};

void log_set_level(int level)
{
    min_level = level;
}

#define TRUNCATED " truncated=yes"

/* Where the last whole field of line[from, n) ends: at the last space
 * outside a quoted value (quotes escape '"' and '\\' with a backslash),
 * or `from` when there is none. */
static int last_field_end(const char *line, int from, int n)
{
    int end = from;
    bool quoted = false;

    for (int i = from; i < n; i++) {
        if (quoted) {
            if (line[i] == '\\') {
                i++;
            } else if (line[i] == '"') {
                quoted = false;
            }
        } else if (line[i] == '"') {
            quoted = true;
        } else if (line[i] == ' ') {
            end = i;
        }
    }
    return end;
}

void log_event(enum log_level level, const char *event, const char *fields, ...)
{
    char stamp[32], line[LOG_LINE_MAX];
    time_t t;
    struct tm tm;
    va_list ap;

    if ((int)level < min_level) {
        return;
    }
    t = time(NULL);
    gmtime_r(&t, &tm);
    strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
    int n = snprintf(line, sizeof(line), "ts=%s level=%s event=%s", stamp,
                     level_names[level <= LOG_ERROR ? level : LOG_ERROR], event);
    if (n > 0 && (size_t)n < sizeof(line) - 2 && fields[0]) {
        int head = n;
        line[n++] = ' ';
        va_start(ap, fields);
        int m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fields, ap);
        va_end(ap);
        n += m < 0 ? 0 : m;
        if ((size_t)n > sizeof(line) - 2) {
            /* Too long: the fields that fit whole, then a mark, so that
             * the line still reads as key=value fields. */
            n = last_field_end(line, head, (int)(sizeof(line) - sizeof(TRUNCATED) - 1));
            memcpy(line + n, TRUNCATED, sizeof(TRUNCATED) - 1);
            n += (int)sizeof(TRUNCATED) - 1;
        }
    }
    line[n++] = '\n';
    /* One write per line, so that lines of one process never interleave. */
    fwrite(line, 1, (size_t)n, stderr);
    fflush(stderr);
}

const char *log_quote(char *buf, size_t len, const char *s)
{
    bool plain = s[0] != '\0';
    size_t o = 0;

    for (const char *p = s; *p && plain; p++) {
        plain = (unsigned char)*p > ' ' && *p != '"' && *p != '=' && *p != '\\' && *p != 0x7f;
    }
    if (plain) {
        snprintf(buf, len, "%s", s);
        return buf;
    }
    buf[o++] = '"';
    for (const char *p = s; *p && o + 5 < len; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') {
            buf[o++] = '\\';
            buf[o++] = (char)c;
        } else if (c < ' ' || c == 0x7f) {
            o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
        } else {
            buf[o++] = (char)c;
        }
    }
    buf[o++] = '"';
    buf[o] = '\0';
    return buf;
}
