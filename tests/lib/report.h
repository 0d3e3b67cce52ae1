/* SPDX-License-Identifier: MIT */
/*
 * report.h - findings of one check: how many, and the first few in words,
 * for an assertion message that says what went wrong where.
 */
#ifndef CONCLAVE_REPORT_H
#define CONCLAVE_REPORT_H

#define REPORT_SHOWN 6

struct report {
    int n;
    char text[4096];
};

/* Counts one finding and keeps its words while fewer than REPORT_SHOWN
 * are kept; findings are separated by "; ". */
void report_add(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
