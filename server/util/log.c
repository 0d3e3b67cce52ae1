/* SPDX-License-Identifier: MIT */
/*
 * log.c - timestamped lines on stderr. Never used by protocol/ or games/.
 */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

static int min_level = 1;

void log_set_level(int level)
{
    min_level = level;
}

static void vlog(int level, const char *tag, const char *fmt, va_list ap)
{
    char stamp[32];
    time_t t;
    struct tm tm;

    if (level < min_level) {
        return;
    }
    t = time(NULL);
    gmtime_r(&t, &tm);
    strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(stderr, "%s %s ", stamp, tag);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

#define LOG_FN(fn, level, tag)                                                                     \
    void fn(const char *fmt, ...)                                                                  \
    {                                                                                              \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        vlog(level, tag, fmt, ap);                                                                 \
        va_end(ap);                                                                                \
    }

LOG_FN(log_debug, 0, "debug")
LOG_FN(log_info, 1, "info")
LOG_FN(log_warn, 2, "warn")
LOG_FN(log_error, 3, "error")
