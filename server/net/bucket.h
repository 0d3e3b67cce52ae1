/* SPDX-License-Identifier: MIT */
/*
 * bucket.h - a token bucket per recent client address, in a small table
 * of slots where a full slot goes to a newcomer once its old address has
 * been quiet long enough to have refilled (an address that churns stays
 * in it). Until then a newcomer hashed to the same slot shares its budget:
 * the table bounds memory, not precision.
 */
#ifndef CONCLAVE_BUCKET_H
#define CONCLAVE_BUCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BUCKET_SLOTS 1024
#define BUCKET_ADDR_MAX 64

struct bucket_slot {
    char addr[BUCKET_ADDR_MAX];
    double tokens;
    uint64_t last_ms;
};

/* BUCKET_SLOTS slots, allocated by bucket_table_init(). */
struct bucket_table {
    struct bucket_slot *slots;
};

/* Allocates the slots; returns 0 or -1 (out of memory). */
int bucket_table_init(struct bucket_table *t);

void bucket_table_fini(struct bucket_table *t);

/* True when `addr` may spend `cost` tokens at `now_ms` from a bucket that
 * holds at most `burst` and refills `rate` a second (and spends them);
 * false, spending nothing, when it holds fewer. A cost over `burst` is
 * never allowed. */
bool bucket_take(struct bucket_table *t, const char *addr, uint64_t now_ms, double rate,
                 double burst, double cost);

#endif
