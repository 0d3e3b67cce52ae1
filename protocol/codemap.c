/* SPDX-License-Identifier: MIT */
/*
 * codemap.c - an index from room codes to pointers, for the lobby's rooms
 * and the journal's files: open addressing with linear probing, a table of
 * a power of two that is at most half full, and deletion by shifting the
 * entries that follow back (no tombstones, so lookups stay short however
 * many rooms come and go).
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

static bool code_eq(const struct proto_code_slot *s, const char *code)
{
    return strncmp(s->code, code, sizeof(s->code)) == 0;
}

static int grow(struct proto_code_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    struct proto_code_slot *slots = calloc(cap, sizeof(*slots));

    if (!slots) {
        return -ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->slots[i].val) {
            size_t j = code_hash(m->slots[i].code) & (cap - 1);
            while (slots[j].val) {
                j = (j + 1) & (cap - 1);
            }
            slots[j] = m->slots[i];
        }
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

void *proto_code_map_get(const struct proto_code_map *m, const char *code)
{
    if (!m->cap) {
        return NULL;
    }
    for (size_t i = code_hash(code) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->slots[i].val) {
            return NULL;
        }
        if (code_eq(&m->slots[i], code)) {
            return m->slots[i].val;
        }
    }
}

int proto_code_map_put(struct proto_code_map *m, const char *code, void *val)
{
    if (!val || strlen(code) > PROTO_ROOM_CODE_LEN) {
        return -EINVAL;
    }
    if (2 * (m->n + 1) > m->cap && grow(m) != 0) {
        return -ENOMEM;
    }
    size_t i = code_hash(code) & (m->cap - 1);
    while (m->slots[i].val && !code_eq(&m->slots[i], code)) {
        i = (i + 1) & (m->cap - 1);
    }
    if (!m->slots[i].val) {
        m->n++;
        memcpy(m->slots[i].code, code, strlen(code) + 1);
    }
    m->slots[i].val = val;
    return 0;
}

void proto_code_map_del(struct proto_code_map *m, const char *code)
{
    size_t mask = m->cap - 1, i;

    if (!m->cap) {
        return;
    }
    for (i = code_hash(code) & mask; m->slots[i].val; i = (i + 1) & mask) {
        if (code_eq(&m->slots[i], code)) {
            break;
        }
    }
    if (!m->slots[i].val) {
        return;
    }
    m->n--;
    /* Shift back every entry of the run that follows and may move to the
     * hole: one whose home is not cyclically within (hole, j]. */
    for (size_t j = (i + 1) & mask; m->slots[j].val; j = (j + 1) & mask) {
        size_t home = code_hash(m->slots[j].code) & mask;
        bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            m->slots[i] = m->slots[j];
            i = j;
        }
    }
    memset(&m->slots[i], 0, sizeof(m->slots[i]));
}

void proto_code_map_free(struct proto_code_map *m)
{
    free(m->slots);
    memset(m, 0, sizeof(*m));
}
