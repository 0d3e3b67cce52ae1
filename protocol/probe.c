/* SPDX-License-Identifier: MIT */
/*
 * probe.c - what every open-addressing table of the project shares: a
 * table of a power of two of fixed-size slots, linear probing from each
 * entry's home slot, growth by rehashing into a larger table, and deletion
 * by shifting back the entries that follow (no tombstones, so lookups stay
 * short however many entries come and go). Each table keeps its own key
 * type and its lookups; this is its layout.
 */
#include "proto.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void *slot_at(const struct proto_probe *p, void *slots, size_t i)
{
    return (char *)slots + i * p->size;
}

int proto_probe_grow(const struct proto_probe *p, void **slots, size_t *cap, size_t new_cap)
{
    char *fresh = calloc(new_cap, p->size);

    if (!fresh) {
        return -ENOMEM;
    }
    for (size_t i = 0; i < *cap; i++) {
        const void *s = slot_at(p, *slots, i);
        if (p->used(s)) {
            size_t j = p->home(s) & (new_cap - 1);
            while (p->used(fresh + j * p->size)) {
                j = (j + 1) & (new_cap - 1);
            }
            memcpy(fresh + j * p->size, s, p->size);
        }
    }
    free(*slots);
    *slots = fresh;
    *cap = new_cap;
    return 0;
}

size_t proto_probe_free_slot(const struct proto_probe *p, const void *slots, size_t cap,
                             size_t home)
{
    size_t i = home & (cap - 1);

    while (p->used((const char *)slots + i * p->size)) {
        i = (i + 1) & (cap - 1);
    }
    return i;
}

void proto_probe_del(const struct proto_probe *p, void *slots, size_t cap, size_t i)
{
    size_t mask = cap - 1;

    /* Shift back every entry of the run that follows and may move to the
     * hole: one whose home is not cyclically within (hole, j]. */
    for (size_t j = (i + 1) & mask; p->used(slot_at(p, slots, j)); j = (j + 1) & mask) {
        size_t home = p->home(slot_at(p, slots, j)) & mask;
        bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            memcpy(slot_at(p, slots, i), slot_at(p, slots, j), p->size);
            i = j;
        }
    }
    memset(slot_at(p, slots, i), 0, p->size);
}
