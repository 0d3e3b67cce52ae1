/* SPDX-License-Identifier: MIT */
/*
 * record.c - the journal's line format: a BLAKE2b-128 checksum of the
 * payload in hex, a space, the payload JSON, a newline. Reading stops at
 * the first line that is unterminated or fails its checksum, so a record
 * torn by a power cut is dropped and everything before it kept; and a
 * journal's name. No I/O.
 */
#include "record.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "proto.h"

bool store_is_code(const char *code)
{
    size_t i;

    for (i = 0; code[i]; i++) {
        if (i >= PROTO_ROOM_CODE_LEN || !isalnum((unsigned char)code[i])) {
            return false;
        }
    }
    return i == PROTO_ROOM_CODE_LEN;
}

int store_journal_path(const char *dir, const char *code, char *out, size_t outlen)
{
    size_t d = strlen(dir), c = strlen(code);
    static const char ext[] = ".journal";

    if (d + 1 + c + sizeof(ext) > outlen) {
        return -1;
    }
    memcpy(out, dir, d);
    out[d] = '/';
    memcpy(out + d + 1, code, c);
    memcpy(out + d + 1 + c, ext, sizeof(ext));
    return 0;
}

static void payload_sum(const char *payload, size_t len, char out[STORE_SUM_HEX + 1])
{
    uint8_t h[STORE_SUM_HEX / 2];

    crypto_generichash(h, sizeof(h), (const unsigned char *)payload, len, NULL, 0);
    proto_hex(h, sizeof(h), out);
}

void store_record_write(char *out, const char *payload, size_t len)
{
    char sum[STORE_SUM_HEX + 1];

    payload_sum(payload, len, sum);
    memcpy(out, sum, STORE_SUM_HEX);
    out[STORE_SUM_HEX] = ' ';
    memcpy(out + STORE_SUM_HEX + 1, payload, len);
    out[STORE_RECORD_SIZE(len) - 1] = '\n';
}

char *store_record_format(const char *payload, size_t len, size_t *ret_len)
{
    char *line = malloc(STORE_RECORD_SIZE(len));

    if (!line) {
        return NULL;
    }
    store_record_write(line, payload, len);
    *ret_len = STORE_RECORD_SIZE(len);
    return line;
}

int store_record_check(const char *line, size_t len, const char **ret_payload, size_t *ret_plen)
{
    char sum[STORE_SUM_HEX + 1];

    if (len < STORE_SUM_HEX + 2 || line[STORE_SUM_HEX] != ' ') {
        return -1;
    }
    payload_sum(line + STORE_SUM_HEX + 1, len - STORE_SUM_HEX - 1, sum);
    if (memcmp(sum, line, STORE_SUM_HEX) != 0) {
        return -1;
    }
    *ret_payload = line + STORE_SUM_HEX + 1;
    *ret_plen = len - STORE_SUM_HEX - 1;
    return 0;
}

int store_journal_parse(const char *data, size_t len, json_t **ret_records, size_t *ret_good)
{
    json_t *records = json_array();
    size_t pos = 0;

    if (!records) {
        return -1;
    }
    while (pos < len) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        const char *payload;
        size_t plen;
        json_t *rec;

        if (!nl) {
            break; /* torn: no newline */
        }
        if (store_record_check(data + pos, (size_t)(nl - data - pos), &payload, &plen) != 0) {
            break;
        }
        rec = json_loadb(payload, plen, 0, NULL);
        if (!rec) {
            /* The checksum vouches for these bytes, so the parser most
             * likely ran out of memory (jansson does not say so reliably).
             * Either way the journal must not be cut short for it. */
            json_decref(records);
            return -1;
        }
        if (!json_is_object(rec)) {
            json_decref(rec);
            break;
        }
        if (json_array_append_new(records, rec) != 0) {
            json_decref(records);
            return -1;
        }
        pos = (size_t)(nl - data) + 1;
    }
    *ret_records = records;
    *ret_good = pos;
    return pos == len ? 0 : 1;
}
