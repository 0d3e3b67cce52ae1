/* SPDX-License-Identifier: MIT */
/*
 * record.h - the journal's record format, with no event loop and no files:
 * one record per line, "<32 hex digits of BLAKE2b-128 of the payload>
 * <payload JSON>\n", and the reading of a journal's bytes back into
 * records, and the name of a room's journal. It knows nothing of what a
 * payload means; the libuv journal that writes these lines is journal.h.
 */
#ifndef CONCLAVE_STORE_RECORD_H
#define CONCLAVE_STORE_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#define STORE_SUM_HEX 32

/* The bytes of the journal line for a payload of `len` bytes. */
#define STORE_RECORD_SIZE(len) (STORE_SUM_HEX + 1 + (size_t)(len) + 1)

/* Writes the journal line for `payload` (len bytes, no newline) into `out`,
 * which has room for STORE_RECORD_SIZE(len) bytes; it ends in '\n'. */
void store_record_write(char *out, const char *payload, size_t len);

/* Formats one journal line for `payload` (len bytes, no newline) into a
 * malloc'ed buffer ending in '\n' that the caller frees; *ret_len set.
 * NULL on ENOMEM. */
char *store_record_format(const char *payload, size_t len, size_t *ret_len);

/* A room code as a journal's name: exactly PROTO_ROOM_CODE_LEN letters
 * and digits. */
bool store_is_code(const char *code);

/* Writes "<dir>/<code>.journal" into `out`; -1 when it does not fit. */
int store_journal_path(const char *dir, const char *code, char *out, size_t outlen);

/* Checks one line (without its '\n'); on success points *ret_payload into
 * it (borrowed from `line`) and returns 0; -1 when the checksum or the
 * shape is wrong. */
int store_record_check(const char *line, size_t len, const char **ret_payload, size_t *ret_plen);

/* Reads a journal's bytes: the records (JSON objects) of every whole,
 * valid line up to the first bad or unterminated one. New reference to an
 * array in *ret_records; *ret_good is the byte length of that valid
 * prefix. Returns 0 when the whole input was valid, 1 when a tail was
 * dropped (torn, failing its checksum, or a checksummed JSON value that is
 * not an object), -1 on ENOMEM or when a checksummed line does not parse
 * as JSON (which jansson cannot tell from running out of memory); nothing
 * is set then, and the caller must not truncate the journal. */
int store_journal_parse(const char *data, size_t len, json_t **ret_records, size_t *ret_good);

#endif
