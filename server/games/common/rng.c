/* SPDX-License-Identifier: MIT */
/*
 * rng.c - xoshiro256** for the rules cores. Deterministic and pure: the whole
 * generator state is the struct the caller keeps inside its game state.
 */
#include "rng.h"

#include <string.h>

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void game_rng_seed(struct game_rng *rng, const uint8_t seed[32])
{
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--) {
            w = (w << 8) | seed[i * 8 + b];
        }
        rng->s[i] = w;
    }
    if ((rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]) == 0) {
        rng->s[0] = UINT64_C(0x9e3779b97f4a7c15);
    }
}

uint64_t game_rng_next(struct game_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t game_rng_below(struct game_rng *rng, uint32_t n)
{
    /* Lemire's nearly divisionless method, with rejection for exactness. */
    uint64_t m = (uint64_t)(uint32_t)(game_rng_next(rng) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)-n % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(game_rng_next(rng) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

void game_rng_shuffle(struct game_rng *rng, void *base, uint32_t n, uint32_t size)
{
    unsigned char tmp[64];
    unsigned char *p = base;

    if (size > sizeof(tmp)) {
        return;
    }
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = game_rng_below(rng, i);
        if (j != i - 1) {
            memcpy(tmp, p + (size_t)j * size, size);
            memcpy(p + (size_t)j * size, p + (size_t)(i - 1) * size, size);
            memcpy(p + (size_t)(i - 1) * size, tmp, size);
        }
    }
}
