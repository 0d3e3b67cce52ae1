/* SPDX-License-Identifier: MIT */
/*
 * detrand.c - libbench_detrand.so: makes libsodium's random bytes
 * repeatable in a process that it is preloaded into (LD_PRELOAD).
 *
 * bench_load preloads it into conclaved so that two runs of the server that
 * receive the same sequence of create and join requests draw the same room
 * codes, seeds and tokens. That is what lets the generator replay, in a
 * second run, the very games it recorded in the first one. It changes where
 * the bytes come from, not what the server does with them.
 *
 * A constructor installs the implementation through libsodium's own
 * randombytes_set_implementation() before main() calls sodium_init(). The
 * stream is splitmix64 from BENCH_DETRAND_SEED (default 1). The bytes are
 * predictable by design: this library must never be loaded outside a
 * benchmark.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

static uint64_t state;

static uint64_t next(void)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const char *impl_name(void)
{
    return "bench-detrand";
}

static uint32_t impl_random(void)
{
    return (uint32_t)(next() >> 32);
}

static void impl_buf(void *const buf, const size_t size)
{
    unsigned char *p = buf;

    for (size_t off = 0; off < size; off += 8) {
        uint64_t v = next();
        size_t n = size - off < 8 ? size - off : 8;
        memcpy(p + off, &v, n);
    }
}

static randombytes_implementation impl = {
    .implementation_name = impl_name,
    .random = impl_random,
    .buf = impl_buf,
};

__attribute__((constructor)) static void install(void)
{
    const char *seed = getenv("BENCH_DETRAND_SEED");

    state = seed ? strtoull(seed, NULL, 10) : 1;
    randombytes_set_implementation(&impl);
}
