/* SPDX-License-Identifier: MIT */
/*
 * metrics.c - the Prometheus text exposition format (see metrics.h).
 */
#include "metrics.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(struct metrics_text *t, const char *s, size_t n)
{
    if (t->err) {
        return;
    }
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + n + 1) {
            cap *= 2;
        }
        char *d = realloc(t->data, cap);
        if (!d) {
            t->err = -ENOMEM;
            return;
        }
        t->data = d;
        t->cap = cap;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

static void puts_(struct metrics_text *t, const char *s)
{
    put(t, s, strlen(s));
}

static void printf_(struct metrics_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void printf_(struct metrics_text *t, const char *fmt, ...)
{
    char buf[256];
    va_list ap;

    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    put(t, buf, n < 0 ? 0 : (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* A label value or HELP text with '\\', '"' (values only) and newlines
 * escaped. */
static void escaped(struct metrics_text *t, const char *s, int quotes)
{
    for (; *s; s++) {
        if (*s == '\\') {
            puts_(t, "\\\\");
        } else if (*s == '\n') {
            puts_(t, "\\n");
        } else if (*s == '"' && quotes) {
            puts_(t, "\\\"");
        } else {
            put(t, s, 1);
        }
    }
}

void metrics_family(struct metrics_text *t, const char *name, const char *type, const char *help)
{
    printf_(t, "# HELP %s ", name);
    escaped(t, help, 0);
    printf_(t, "\n# TYPE %s %s\n", name, type);
}

static void labels_put(struct metrics_text *t, const struct metrics_label *labels,
                       const char *extra_key, const char *extra_value)
{
    int n = 0;

    for (int i = 0; labels && i < METRICS_MAX_LABELS && labels[i].key; i++) {
        puts_(t, n++ ? "," : "{");
        printf_(t, "%s=\"", labels[i].key);
        escaped(t, labels[i].value, 1);
        puts_(t, "\"");
    }
    if (extra_key) {
        puts_(t, n++ ? "," : "{");
        printf_(t, "%s=\"%s\"", extra_key, extra_value);
    }
    if (n) {
        puts_(t, "}");
    }
}

static void value_put(struct metrics_text *t, double v)
{
    if (isinf(v)) {
        puts_(t, v > 0 ? " +Inf\n" : " -Inf\n");
    } else if (v == (double)(int64_t)v && fabs(v) < 9e15) {
        printf_(t, " %lld\n", (long long)v);
    } else {
        printf_(t, " %.9g\n", v);
    }
}

void metrics_sample(struct metrics_text *t, const char *name, const struct metrics_label *labels,
                    double value)
{
    puts_(t, name);
    labels_put(t, labels, NULL, NULL);
    value_put(t, value);
}

void metrics_histogram(struct metrics_text *t, const char *name, const struct metrics_label *labels,
                       const double *bounds, const uint64_t *counts, size_t n, double sum)
{
    uint64_t total = 0;
    char le[32];

    for (size_t k = 0; k <= n; k++) {
        total += counts[k];
        if (k < n) {
            snprintf(le, sizeof(le), "%.9g", bounds[k]);
        } else {
            snprintf(le, sizeof(le), "+Inf");
        }
        printf_(t, "%s_bucket", name);
        labels_put(t, labels, "le", le);
        value_put(t, (double)total);
    }
    printf_(t, "%s_sum", name);
    labels_put(t, labels, NULL, NULL);
    value_put(t, sum);
    printf_(t, "%s_count", name);
    labels_put(t, labels, NULL, NULL);
    value_put(t, (double)total);
}

void metrics_text_free(struct metrics_text *t)
{
    free(t->data);
    t->data = NULL;
    t->len = t->cap = 0;
    t->err = 0;
}
