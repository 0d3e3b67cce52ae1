/* SPDX-License-Identifier: MIT */
/*
 * report.c - collects findings for an assertion message (report.h).
 */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void report_add(struct report *r, const char *fmt, ...)
{
    size_t len = strlen(r->text);

    if (r->n++ < REPORT_SHOWN && len + 3 < sizeof(r->text)) {
        va_list ap;
        va_start(ap, fmt);
        if (len > 0) {
            r->text[len++] = ';';
            r->text[len++] = ' ';
            r->text[len] = '\0';
        }
        vsnprintf(r->text + len, sizeof(r->text) - len, fmt, ap);
        va_end(ap);
    }
}
