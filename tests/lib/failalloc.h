/* SPDX-License-Identifier: MIT */
/*
 * failalloc.h - a jansson allocator that fails on demand, for the tests of
 * allocation failure: once installed, the next `budget` allocations succeed
 * and every one after them fails, until a new budget is set.
 */
#ifndef CONCLAVE_FAILALLOC_H
#define CONCLAVE_FAILALLOC_H

/* Routes jansson's allocations through the failing allocator (no limit). */
void failalloc_install(void);

/* Lets `budget` more allocations succeed, then fails; -1: no limit. */
void failalloc_budget(long budget);

/* Gives jansson malloc and free back. */
void failalloc_remove(void);

#endif
