/* SPDX-License-Identifier: MIT */
/*
 * game_error.c - filling a refusal. Shared by every rules core.
 */
#include "game.h"

#include <stdarg.h>
#include <stdio.h>

int game_error_set(struct game_error *err, enum game_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->status = status;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof(err->message), fmt, ap);
        va_end(ap);
    }
    return status;
}
