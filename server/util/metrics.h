/* SPDX-License-Identifier: MIT */
/*
 * metrics.h - the Prometheus text exposition format (version 0.0.4),
 * written into a growing buffer: a family's HELP and TYPE lines, then its
 * samples, each with its labels. Names follow Prometheus' conventions
 * (snake_case, a unit suffix, `_total` for counters); label values are
 * escaped here. A failed allocation sets `err`, after which every call
 * does nothing.
 */
#ifndef CONCLAVE_METRICS_H
#define CONCLAVE_METRICS_H

#include <stddef.h>
#include <stdint.h>

#define METRICS_MAX_LABELS 4

struct metrics_text {
    char *data;
    size_t len;
    size_t cap;
    int err;
};

/* One label pair; a list ends at the first NULL key. */
struct metrics_label {
    const char *key;
    const char *value;
};

/* # HELP and # TYPE lines ("counter", "gauge", "histogram"). */
void metrics_family(struct metrics_text *t, const char *name, const char *type, const char *help);

/* One sample: name{labels} value. `labels` may be NULL. */
void metrics_sample(struct metrics_text *t, const char *name, const struct metrics_label *labels,
                    double value);

/* A whole histogram family's samples from cumulative-by-construction
 * buckets: counts[k] observations in (bounds[k-1], bounds[k]], k < n, and
 * counts[n] above bounds[n-1]; `sum` the sum of the observations. */
void metrics_histogram(struct metrics_text *t, const char *name, const struct metrics_label *labels,
                       const double *bounds, const uint64_t *counts, size_t n, double sum);

void metrics_text_free(struct metrics_text *t);

#endif
