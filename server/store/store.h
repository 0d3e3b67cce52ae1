/* SPDX-License-Identifier: MIT */
/*
 * store.h - the journal: one append-only file per room in
 * DATA_DIR/rooms/<CODE>.journal, one record per line, each line
 * "<32 hex digits of BLAKE2b-128 of the payload> <payload JSON>\n".
 *
 * Records are appended in memory on the event loop and written (and
 * fsynced) on libuv's thread pool, many at a time (group commit); the
 * lobby is told which records are durable and only then lets the replies
 * and diffs that follow them go out. At start every journal is read back
 * and its room rebuilt by replaying it through the rules core.
 */
#ifndef CONCLAVE_STORE_H
#define CONCLAVE_STORE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <uv.h>

#include "lobby.h"

#define STORE_SUM_HEX 32

enum store_fsync {
    STORE_FSYNC_ALWAYS, /* a write + fsync starts as soon as a record waits */
    STORE_FSYNC_BATCH,  /* records gather for at most batch_ms, then write + fsync */
    STORE_FSYNC_NEVER,  /* written without fsync: survives a crash of the server, not of the machine */
};

struct store_config {
    char dir[PATH_MAX];
    enum store_fsync fsync;
    uint64_t batch_ms;
};

struct store_stats {
    uint64_t records;  /* records appended */
    uint64_t writes;   /* write jobs run */
    uint64_t fsyncs;   /* fsync calls */
    uint64_t failures; /* failed writes (retried) */
};

struct store;

/* ---- Records (record.c, no event loop) ---- */

/* Formats one journal line for `payload` (len bytes, no newline) into a
 * malloc'ed buffer ending in '\n'; *ret_len set. NULL on ENOMEM. */
char *store_record_format(const char *payload, size_t len, size_t *ret_len);

/* Checks one line (without its '\n'); on success points *ret_payload into
 * it and returns 0; -1 when the checksum or the shape is wrong. */
int store_record_check(const char *line, size_t len, const char **ret_payload,
                       size_t *ret_plen);

/* Reads a journal's bytes: the records of every whole, valid line up to
 * the first bad or unterminated one. New reference to an array in
 * *ret_records; *ret_good is the byte length of that valid prefix. Returns
 * 0 when the whole input was valid, 1 when a tail was dropped (torn or
 * corrupt), -1 on ENOMEM. */
int store_journal_parse(const char *data, size_t len, json_t **ret_records, size_t *ret_good);

/* The store's name for `--fsync` values; -1 when unknown. */
int store_fsync_parse(const char *name);

/* ---- The store (journal.c) ---- */

/* Opens (creating DATA_DIR/rooms when missing) the store. Returns 0 or a
 * negative errno; `lobby` is borrowed and must outlive the store. */
int store_open(uv_loop_t *loop, const struct store_config *cfg, struct lobby *lobby,
               struct store **ret_store);

/* Rebuilds every room from its journal into the lobby. Drops torn tails
 * (with a warning, truncating the file), removes finished rooms older than
 * `ended_ttl_ms`, and sets journals that do not replay aside as
 * <CODE>.journal.bad. Returns the number of rooms restored. */
int store_load(struct store *st, uint64_t now, uint64_t ended_ttl_ms);

/* The lobby_store table for this store (lobby_set_store). */
struct lobby_store store_lobby_ops(struct store *st);

/* Writes what waits now and stops the batch timer; the loop ends once the
 * last write is done. */
void store_stop(struct store *st);

/* Counters since open. */
struct store_stats store_stats(const struct store *st);

/* Frees the store after the loop has finished. Accepts NULL. */
void store_free(struct store *st);

#endif
