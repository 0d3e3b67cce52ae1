/* SPDX-License-Identifier: MIT */
/*
 * ck_run.c - builds and runs a Check suite from a table of tests.
 */
#include "ck_run.h"

#include <stdlib.h>

int ck_run(const char *suite, const struct ck_case *cases, size_t n, SFun setup, SFun teardown,
           double timeout)
{
    Suite *s = suite_create(suite);

    for (size_t i = 0; i < n; i++) {
        TCase *tc = tcase_create(cases[i].name);
        if (setup || teardown) {
            tcase_add_checked_fixture(tc, setup, teardown);
        }
        if (timeout > 0) {
            tcase_set_timeout(tc, timeout);
        }
        tcase_add_test(tc, cases[i].test);
        suite_add_tcase(s, tc);
    }
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
