/* SPDX-License-Identifier: MIT */
/*
 * failalloc.c - the failing jansson allocator of failalloc.h.
 */
#include "failalloc.h"

#include <stdlib.h>

#include <jansson.h>

static long alloc_budget = -1;

static void *limited_malloc(size_t n)
{
    if (alloc_budget == 0) {
        return NULL;
    }
    if (alloc_budget > 0) {
        alloc_budget--;
    }
    return malloc(n);
}

void failalloc_install(void)
{
    alloc_budget = -1;
    json_set_alloc_funcs(limited_malloc, free);
}

void failalloc_budget(long budget)
{
    alloc_budget = budget;
}

void failalloc_remove(void)
{
    alloc_budget = -1;
    json_set_alloc_funcs(malloc, free);
}
