/* SPDX-License-Identifier: MIT */
/*
 * bucket.c - token buckets per client address; see bucket.h.
 */
#include "bucket.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bucket_table_init(struct bucket_table *t)
{
    t->slots = calloc(BUCKET_SLOTS, sizeof(*t->slots));
    return t->slots ? 0 : -1;
}

void bucket_table_fini(struct bucket_table *t)
{
    free(t->slots);
    t->slots = NULL;
}

static uint32_t addr_hash(const char *s)
{
    uint32_t h = 2166136261u;

    while (*s) {
        h = (h ^ (unsigned char)*s++) * 16777619u;
    }
    return h;
}

bool bucket_take(struct bucket_table *t, const char *addr, uint64_t now_ms, double rate,
                 double burst, double cost)
{
    struct bucket_slot *slot = &t->slots[addr_hash(addr) % BUCKET_SLOTS];

    /* The slot's address refills its bucket in burst / rate seconds:
     * after that it has nothing to remember and the slot changes hands. */
    if (strcmp(slot->addr, addr) != 0 &&
        (!slot->addr[0] || now_ms - slot->last_ms >= (uint64_t)(1000.0 * burst / rate))) {
        snprintf(slot->addr, sizeof(slot->addr), "%s", addr);
        slot->tokens = burst;
        slot->last_ms = now_ms;
    }
    slot->tokens += (double)(now_ms - slot->last_ms) * rate / 1000.0;
    if (slot->tokens > burst) {
        slot->tokens = burst;
    }
    slot->last_ms = now_ms;
    if (slot->tokens < cost) {
        return false;
    }
    slot->tokens -= cost;
    return true;
}
