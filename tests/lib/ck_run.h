/* SPDX-License-Identifier: MIT */
/*
 * ck_run.h - the one way the project's Check programs build and run their
 * suite: a table of named tests, one TCase each (one behaviour per case),
 * an optional fixture, and the exit status from the failures.
 */
#ifndef CONCLAVE_CK_RUN_H
#define CONCLAVE_CK_RUN_H

#include <stddef.h>

#include <check.h>

struct ck_case {
    const char *name;
    const TTest *test;
};

/* Runs `cases` as suite `suite`, each in its own TCase with `setup` and
 * `teardown` (both may be NULL) as a checked fixture and `timeout` seconds
 * (0: Check's default). Returns EXIT_SUCCESS or EXIT_FAILURE. */
int ck_run(const char *suite, const struct ck_case *cases, size_t n, SFun setup, SFun teardown,
           double timeout);

#define CK_RUN(suite, cases, setup, teardown)                                                      \
    ck_run((suite), (cases), sizeof(cases) / sizeof((cases)[0]), (setup), (teardown), 0)

#endif
