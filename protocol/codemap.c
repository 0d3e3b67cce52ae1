/* SPDX-License-Identifier: MIT */
/*
 * codemap.c - an index from room codes to pointers, for the lobby's rooms
 * and the journal's files, laid out as probe.c says.
 */
#include "proto.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a over the code's characters. Codes are random, so this spreads
 * them well; a typed code has been normalised before it gets here. */
static size_t code_hash(const char *code)
{
    uint32_t h = 2166136261u;

    for (int i = 0; i < PROTO_ROOM_CODE_LEN && code[i]; i++) {
        h = (h ^ (uint8_t)code[i]) * 16777619u;
    }
    return h;
}

static size_t slot_home(const void *slot)
{
    return code_hash(((const struct proto_code_slot *)slot)->code);
}

static bool slot_used(const void *slot)
{
    return ((const struct proto_code_slot *)slot)->val != NULL;
}

static const struct proto_probe layout = {sizeof(struct proto_code_slot), slot_home, slot_used};

/* The slot of `code`, or -1. */
static ptrdiff_t find(const struct proto_code_map *m, const char *code)
{
    if (!m->cap) {
        return -1;
    }
    for (size_t i = code_hash(code) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->slots[i].val) {
            return -1;
        }
        if (strncmp(m->slots[i].code, code, sizeof(m->slots[i].code)) == 0) {
            return (ptrdiff_t)i;
        }
    }
}

void *proto_code_map_get(const struct proto_code_map *m, const char *code)
{
    ptrdiff_t i = find(m, code);

    return i < 0 ? NULL : m->slots[i].val;
}

int proto_code_map_put(struct proto_code_map *m, const char *code, void *val)
{
    ptrdiff_t at;

    if (!val || strlen(code) > PROTO_ROOM_CODE_LEN) {
        return -EINVAL;
    }
    if (2 * (m->n + 1) > m->cap &&
        proto_probe_grow(&layout, (void **)&m->slots, &m->cap, m->cap ? m->cap * 2 : 64) != 0) {
        return -ENOMEM;
    }
    at = find(m, code);
    if (at < 0) {
        at = (ptrdiff_t)proto_probe_free_slot(&layout, m->slots, m->cap, code_hash(code));
        memcpy(m->slots[at].code, code, strlen(code) + 1);
        m->n++;
    }
    m->slots[at].val = val;
    return 0;
}

void proto_code_map_del(struct proto_code_map *m, const char *code)
{
    ptrdiff_t i = find(m, code);

    if (i >= 0) {
        m->n--;
        proto_probe_del(&layout, m->slots, m->cap, (size_t)i);
    }
}

void proto_code_map_free(struct proto_code_map *m)
{
    free(m->slots);
    memset(m, 0, sizeof(*m));
}
