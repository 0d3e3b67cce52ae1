/* SPDX-License-Identifier: MIT */
/*
 * keys.c - an index keyed by 32-byte digests: the seats' token hashes (to
 * the room and seat each opens, awake or asleep) and the creators of open
 * rooms (a digest of a connection or an address, to how many it made),
 * laid out as the protocol's probe.c says, an entry's home taken from its
 * key's first bytes. Keys are BLAKE2b outputs of secrets or of server-made
 * names, so a client cannot choose where they land; they are compared with
 * sodium_memcmp.
 */
#include "lobby_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

static size_t key_home(const uint8_t key[32])
{
    uint64_t h;

    memcpy(&h, key, sizeof(h));
    return (size_t)h;
}

static size_t slot_home(const void *slot)
{
    return key_home(((const struct lobby_key *)slot)->key);
}

static bool slot_used(const void *slot)
{
    return ((const struct lobby_key *)slot)->used;
}

static const struct proto_probe layout = {sizeof(struct lobby_key), slot_home, slot_used};

int lobby__keys_reserve(struct lobby_keys *m, size_t more)
{
    size_t cap = m->cap ? m->cap : 64;

    while (2 * (m->n + more) > cap) {
        cap *= 2;
    }
    return cap == m->cap ? 0 : proto_probe_grow(&layout, (void **)&m->slots, &m->cap, cap);
}

struct lobby_key *lobby__keys_get(const struct lobby_keys *m, const uint8_t key[32])
{
    if (!m->cap) {
        return NULL;
    }
    for (size_t i = key_home(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->slots[i].used) {
            return NULL;
        }
        if (sodium_memcmp(m->slots[i].key, key, 32) == 0) {
            return &m->slots[i];
        }
    }
}

struct lobby_key *lobby__keys_put(struct lobby_keys *m, const uint8_t key[32])
{
    struct lobby_key *k = lobby__keys_get(m, key);

    if (k) {
        return k;
    }
    if (lobby__keys_reserve(m, 1) != 0) {
        return NULL;
    }
    k = &m->slots[proto_probe_free_slot(&layout, m->slots, m->cap, key_home(key))];
    memcpy(k->key, key, 32);
    k->used = true;
    m->n++;
    return k;
}

void lobby__keys_del(struct lobby_keys *m, struct lobby_key *k)
{
    m->n--;
    proto_probe_del(&layout, m->slots, m->cap, (size_t)(k - m->slots));
}

void lobby__keys_free(struct lobby_keys *m)
{
    if (m->slots) {
        sodium_memzero(m->slots, m->cap * sizeof(*m->slots));
    }
    free(m->slots);
    memset(m, 0, sizeof(*m));
}
