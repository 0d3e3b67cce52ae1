/* SPDX-License-Identifier: MIT */
/*
 * rng.h - the seeded generator that lives inside every game state.
 *
 * xoshiro256** seeded from the game's 32-byte seed. Plain data: copying the
 * struct copies the stream. No global state; every draw takes the generator.
 */
#ifndef CONCLAVE_GAME_RNG_H
#define CONCLAVE_GAME_RNG_H

#include <stdint.h>

struct game_rng {
    uint64_t s[4];
};

/* Seeds `rng` from 32 bytes (little-endian words; an all-zero seed is
 * replaced by a fixed non-zero one, which xoshiro requires). */
void game_rng_seed(struct game_rng *rng, const uint8_t seed[32]);

/* Next 64 random bits. */
uint64_t game_rng_next(struct game_rng *rng);

/* Uniform integer in [0, n), without modulo bias. n must be > 0. */
uint32_t game_rng_below(struct game_rng *rng, uint32_t n);

/* Fisher-Yates shuffle of n elements of `size` bytes each (size <= 64). */
void game_rng_shuffle(struct game_rng *rng, void *base, uint32_t n, uint32_t size);

#endif
