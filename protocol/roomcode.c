/* SPDX-License-Identifier: MIT */
/*
 * roomcode.c - room codes: 30 bits written as 6 Crockford base32 characters,
 * and the normalisation of codes typed by people. Randomness is passed in by
 * the caller; this file must never draw random numbers, allocate or keep
 * state.
 */
#include "proto.h"

#include <string.h>

static const char alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* Encodes the low 30 bits of `bits`, most significant group first, as 6
 * characters of the alphabet plus a NUL into out. */
void proto_room_code_encode(uint32_t bits, char out[PROTO_ROOM_CODE_LEN + 1])
{
    for (int i = PROTO_ROOM_CODE_LEN - 1; i >= 0; i--) {
        out[i] = alphabet[bits & 31u];
        bits >>= 5;
    }
    out[PROTO_ROOM_CODE_LEN] = '\0';
}

/* Upper-case alphabet character for a typed character, after the Crockford
 * confusable mapping; 0 when it is not part of any code. */
static char normalise(char c)
{
    if (c >= 'a' && c <= 'z') {
        c = (char)(c - 'a' + 'A');
    }
    if (c == 'I' || c == 'L') {
        return '1';
    }
    if (c == 'O') {
        return '0';
    }
    if (c == 'U') {
        return 0;
    }
    if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')) {
        return c;
    }
    return 0;
}

/* Normalises a typed code into out (6 characters and a NUL). Returns 0, or
 * -1 for NULL, a foreign symbol or a length other than 6 once '-' and spaces
 * are dropped; out is then left with unspecified content. */
int proto_room_code_parse(const char *typed, char out[PROTO_ROOM_CODE_LEN + 1])
{
    if (typed == NULL) {
        return -1;
    }
    char code[PROTO_ROOM_CODE_LEN + 1];
    size_t n = 0;
    for (const char *p = typed; *p != '\0'; p++) {
        if (*p == '-' || *p == ' ') {
            continue;
        }
        char c = normalise(*p);
        if (c == 0 || n == PROTO_ROOM_CODE_LEN) {
            return -1;
        }
        code[n++] = c;
    }
    if (n != PROTO_ROOM_CODE_LEN) {
        return -1;
    }
    code[n] = '\0';
    /* Written only on success. */
    memcpy(out, code, sizeof(code));
    return 0;
}
