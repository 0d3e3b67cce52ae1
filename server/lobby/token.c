/* SPDX-License-Identifier: MIT */
/*
 * token.c - resume tokens: 32 random bytes from libsodium, handed out as
 * base64url and kept only as their BLAKE2b-256 hash. A presented token is
 * hashed and compared with sodium_memcmp, so a stored hash never leaves the
 * server and a comparison takes the same time whatever the bytes.
 */
#include "lobby.h"

#include <string.h>

#include <sodium.h>

void lobby_token_new(char out[48], uint8_t hash[32])
{
    uint8_t raw[LOBBY_TOKEN_BYTES];

    randombytes_buf(raw, sizeof(raw));
    sodium_bin2base64(out, 48, raw, sizeof(raw), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    crypto_generichash(hash, 32, raw, sizeof(raw), NULL, 0);
    sodium_memzero(raw, sizeof(raw));
}

int lobby_token_hash(const char *token, uint8_t hash[32])
{
    uint8_t raw[LOBBY_TOKEN_BYTES];
    size_t len = 0;

    if (!token || strlen(token) != 43) {
        return -1;
    }
    if (sodium_base642bin(raw, sizeof(raw), token, 43, NULL, &len, NULL,
                          sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
        len != sizeof(raw)) {
        return -1;
    }
    crypto_generichash(hash, 32, raw, sizeof(raw), NULL, 0);
    sodium_memzero(raw, sizeof(raw));
    return 0;
}
