/* SPDX-License-Identifier: MIT */
/*
 * journal.h - the journal: one append-only file per room in
 * DATA_DIR/rooms/<CODE>.journal, in the line format of record.h.
 *
 * Records are appended in memory on the event loop and written (and, per
 * the fsync policy, flushed) on libuv's thread pool, many at a time (group
 * commit). A flush is one fdatasync() of the write-ahead file,
 * DATA_DIR/rooms/journal.wal (wal.h), which holds a copy of what the
 * journals were given since they were last flushed themselves; store_open()
 * writes that copy back into them. Once a record's copy is flushed there,
 * its journal may lag behind: a room's records are written into its own
 * file only once `lag_bytes` of them wait, when the room is released, when
 * the write-ahead file starts its next generation, or when the store stops;
 * until then store_read() finds them in memory. The store reports through its `durable` hook the
 * highest sequence number that is durable under the policy; its owner lets the replies that follow
 * a record go out only then. At start every journal is read back and handed to the `restore` hook,
 * which rebuilds the room.
 *
 * The store knows nothing of rooms beyond their codes: it reaches the rest
 * of the server only through `struct store_hooks`, and the append and
 * forget functions below have the shape of the lobby's journal table, so
 * the server's main() joins the two.
 *
 * A failing disk: a write or flush that fails keeps its bytes and is
 * retried every `retry_ms`; nothing is written twice. A failed write is
 * one room's fault: its journal is reported through the `failing` hook
 * (before any sequence number that passes its records is reported
 * durable), the other rooms' records go on, and the hook is called again
 * once that journal has caught up. Records already durable through the
 * write-ahead file stay so while their journal fails: the file does not
 * start its next generation (and the store reports nothing more durable
 * once it is full) until every such record is in its journal. A failed
 * flush is everyone's: nothing
 * is reported durable until one succeeds. While it fails, records pile up
 * in memory.
 * store_stats() tells how many records and bytes wait (`pending_records`,
 * `pending_bytes`) and whether the last attempt failed (`failing`), so the
 * owner can stop taking new changes until the disk catches up; and with
 * `max_pending_records` or `max_pending_bytes` set, store_append() itself
 * refuses a record over either bound with -ENOBUFS, appending nothing,
 * until the backlog is durable again.
 */
#ifndef CONCLAVE_STORE_JOURNAL_H
#define CONCLAVE_STORE_JOURNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <uv.h>

#include "record.h"

#define STORE_ERR_MAX 256   /* size of the reason buffer given to `restore` */
#define STORE_RETRY_MS 1000 /* default pause before a failed write is retried */

enum store_fsync {
    /* A write + fdatasync starts once the loop turn that appended a
     * record has run its callbacks, with every record of the turn;
     * records that arrive during a running write share the next one. */
    STORE_FSYNC_ALWAYS,
    /* Records gather for at most batch_ms, then write + fdatasync. */
    STORE_FSYNC_BATCH,
    /* A write starts as soon as a record waits, with no flush; a record is
     * durable once write() returned: it survives a crash of the server,
     * not of the machine. */
    STORE_FSYNC_NEVER,
};

/* How the store reaches its owner. Both are called on the loop thread. */
struct store_hooks {
    /* Every record up to sequence number `seq` is durable. Called from a
     * libuv callback, never from inside store_append(). May be NULL. */
    void (*durable)(void *ctx, uint64_t seq);
    /* Rebuilds one room from its journal's records (an array of JSON
     * objects, borrowed) during store_load(). `age_ms` is how long ago the
     * file was last written. Returns 0; 1 when the room is not to be kept
     * (the journal is then removed); or -1 with a reason (a C string of at
     * most errlen bytes) in `err` when the records do not make a room.
     * Required for store_load(). */
    int (*restore)(void *ctx, const json_t *records, uint64_t now, uint64_t age_ms, char *err,
                   size_t errlen);
    /* Room `code`'s journal cannot be written (`failing` true): records
     * of that room are not durable, whatever `durable` says, until it is
     * called again with false. May be NULL. */
    void (*failing)(void *ctx, const char *code, bool failing);
    void *ctx;
};

struct store_config {
    char dir[PATH_MAX]; /* the data directory; journals go in dir/rooms */
    enum store_fsync fsync;
    uint64_t batch_ms;            /* longest wait of a record for its batch (BATCH) */
    uint64_t retry_ms;            /* pause before a failed write is retried; 0: STORE_RETRY_MS */
    uint64_t max_pending_records; /* appends refused while this many wait; 0: no bound */
    uint64_t max_pending_bytes;   /* appends refused past this many unwritten bytes; 0: none */
    size_t max_open;              /* journal fds kept open between writes; 0: STORE_MAX_OPEN */
    uint64_t wal_bytes;           /* size of the write-ahead file; 0: WAL_DEFAULT_BYTES */
    /* A journal is written once this many of its durable bytes wait in
     * memory; 0: STORE_LAG_BYTES; 1: at every write job (no lag). */
    size_t lag_bytes;
    /* Every write job on the thread pool; else a job may run on the event
     * loop itself while the jobs' own time averages at most loop_job_us
     * (0: STORE_LOOP_JOB_US). */
    bool pool_only;
    uint64_t loop_job_us;
};

/* A write job runs on the event loop itself, just before the loop waits
 * for I/O, while the jobs' own time (their writes and flush, without the
 * hand-offs) averages at most this many microseconds: a flush that short
 * costs the loop less than a pool thread's wake-up and the report back.
 * Past it (a slow disk), and for checkpoints, after a failure and at stop,
 * jobs run on the thread pool, and the loop goes on meanwhile. */
#define STORE_LOOP_JOB_US 1000

/* Bytes of durable records a room's journal may hold back in memory
 * before the next write job appends them to its file: about twenty
 * records, so that a journal costs a write() per twenty moves rather than
 * one a move. */
#define STORE_LAG_BYTES 2048

/* Journal descriptors kept open between writes, the most recently written:
 * beyond them a journal is closed after its write and opened again for
 * the next, so that rooms awake cost no descriptor each. */
#define STORE_MAX_OPEN 256

/* Buckets of the write jobs' durations in store_stats.job_us. */
#define STORE_JOB_BUCKETS 24

struct store_stats {
    uint64_t records;         /* records appended */
    uint64_t refused;         /* appends that failed (nothing appended) */
    uint64_t writes;          /* write jobs run */
    uint64_t fsyncs;          /* flushes: of the write-ahead file, or checkpoints */
    uint64_t checkpoints;     /* journals flushed themselves (syncfs), the
                               * write-ahead file started again */
    uint64_t loop_jobs;       /* write jobs run on the event loop (the rest on the pool) */
    uint64_t work_avg_us;     /* the jobs' own time (writes, flush), a moving average */
    uint64_t failures;        /* failed writes and flushes (retried) */
    uint64_t durable_seq;     /* highest sequence number reported durable */
    uint64_t pending_records; /* records appended and not yet durable */
    uint64_t pending_bytes;   /* bytes waiting to be written */
    uint64_t lag_bytes;       /* durable bytes not yet in their journals */
    bool failing;             /* the last flush failed, or a room's journal write did */
    /* Write jobs by how long they took, from their start on the loop to
     * their report back (writes and flush included): bucket k counts the
     * jobs under 2^k microseconds, the last one every longer job. */
    uint64_t job_us[STORE_JOB_BUCKETS];
    uint64_t job_us_sum;
    /* Write jobs by the records they took: bucket k counts the jobs of
     * fewer than 2^k records (bucket 0: none, a flush alone). */
    uint64_t job_records[STORE_JOB_BUCKETS];
    uint64_t job_records_sum;
};

/* Test hook: failures to inject, for tests that show a failing disk is
 * handled. Compiled in every build; the server never sets it. Counts run
 * from the call to store_set_fault(); 0 disables a fault. */
struct store_fault {
    /* The append_fail_at-th store_append() from now fails with
     * append_err (a negative errno; -ENOMEM when 0), appending nothing. */
    uint64_t append_fail_at;
    int append_err;
    /* The next write_fails journal writes (one per journal per write job)
     * fail with write_errno (EIO when 0). With write_partial, each writes
     * the first half of its bytes before failing. */
    uint64_t write_fails;
    int write_errno;
    bool write_partial;
    /* With a code set, only that room's journal writes fail. */
    char write_code[8];
    /* The next sync_fails flushes fail with sync_errno (EIO when 0) after
     * the bytes were written. */
    uint64_t sync_fails;
    int sync_errno;
    /* Every write job's worker first sleeps this long (a slow disk). */
    uint64_t work_delay_us;
};

struct store;

/* The store's value for a `--fsync` name ("always", "batch", "never");
 * -1 when unknown. */
int store_fsync_parse(const char *name);

/* Opens the store, creating DATA_DIR/rooms when missing, and writes the
 * write-ahead file's frames back into the journals (after a machine
 * stopped before they were flushed), so that store_load() finds every
 * durable record. `cfg` and
 * `hooks` are copied; hooks->ctx is borrowed and must outlive the store.
 * Returns 0 and sets *ret_store, or a negative errno. */
int store_open(uv_loop_t *loop, const struct store_config *cfg, const struct store_hooks *hooks,
               struct store **ret_store);

/* Rebuilds every room from its journal through the `restore` hook. Drops
 * torn tails (with a warning, truncating the file), removes empty
 * journals and those the hook does not keep, and sets journals that do not
 * replay aside as <CODE>.journal.bad. The store reads no record's meaning.
 * Returns the number of rooms restored. */
int store_load(struct store *st, uint64_t now);

/* Appends one record (`len` bytes of `line`, a compact JSON object without
 * newline, copied) to room `code`'s journal. `ctx` is the struct store.
 * Returns 0 and sets *ret_seq to the record's sequence number (numbers
 * start at 1 and grow by one per record), or a negative errno when nothing
 * was appended, *ret_seq then untouched: -ENOMEM, -EINVAL for a code that
 * is not PROTO_ROOM_CODE_LEN letters and digits, -ENOBUFS over a
 * `max_pending_*` bound. Never calls a hook. Has the shape of the lobby's
 * `append`. */
int store_append(void *ctx, const char *code, const char *line, size_t len, uint64_t *ret_seq);

/* Reads room `code`'s journal as it stands: every record appended so far,
 * those on disk (read on the loop thread, up to what write jobs have
 * finished writing) and those still in memory, in order. `ctx` is the
 * struct store. Returns 0 and sets *ret_records (a new array of the
 * records' objects), or a negative errno: -ENOENT for a room without a
 * journal, -EIO for one that does not parse. Has the shape of the lobby's
 * `read`. */
int store_read(void *ctx, const char *code, json_t **ret_records);

/* Room `code`'s journal is not needed for a while: its file is closed and
 * its memory freed, at once or, when it has records to write, once the
 * next write job has written them (a later append keeps it). `ctx` is the
 * struct store. Has the shape of the lobby's `release`. */
void store_release(void *ctx, const char *code);

/* Removes room `code`'s journal (in the next write job); records of it
 * not yet written are dropped. `ctx` is the struct store. Has the shape of
 * the lobby's `forget`. */
void store_forget(void *ctx, const char *code);

/* Writes what waits now, every journal's held-back bytes included, and
 * stops the store's timer; the loop ends once the last write is done. A write that fails from then
 * on is not retried (logged with what is lost). */
void store_stop(struct store *st);

/* Counters since open, and what waits now. */
struct store_stats store_stats(const struct store *st);

/* An upper bound in microseconds of the q-quantile (0 < q <= 1) of the
 * write jobs' durations in `s`: the bound of the bucket that holds it. 0
 * when no job ran. */
uint64_t store_job_quantile_us(const struct store_stats *s, double q);

/* Test hook: replaces the faults to inject (copied; NULL clears them). */
void store_set_fault(struct store *st, const struct store_fault *fault);

/* Frees the store once store_stop() was called and the loop has run to
 * its end (no write job running, the timer closed). Accepts NULL. */
void store_free(struct store *st);

#endif
