/* SPDX-License-Identifier: MIT */
/*
 * journal.c - group commit of room journals, on libuv's thread pool or on
 * the loop itself, and the reading of journals at start. It never reads
 * the lobby: it reports durability and hands journals back through
 * `struct store_hooks`.
 *
 * On the loop thread, store_append() formats a record into its room's
 * pending buffer and gives it the next sequence number. One write job at a
 * time takes every pending buffer, appends each to its file and flushes it
 * (per the policy), then reports on the loop thread the highest sequence
 * number now durable. A job runs on the thread pool, or, while the jobs'
 * own time averages at most STORE_LOOP_JOB_US, on the loop itself just
 * before it waits for I/O (after the turn's replies went out): then no
 * thread is woken and nothing is handed back. Records that arrive while a
 * job runs wait for the next one, so under load one flush covers many
 * actions. With `batch` a job starts when the oldest waiting record has
 * waited batch_ms; with `always` and `never` it starts at the end of the
 * loop turn that appended the record (a check handle, after the turn's I/O
 * callbacks, or a prepare handle, before the loop waits), so that the
 * records of one turn share it (a job that runs on the loop starts at the
 * prepare handle alone); `never` reports the records durable as soon as
 * write() returned.
 *
 * A failed write keeps its unwritten tail (in the buffer it was in, with no
 * new allocation) as the file's retry buffer, and is retried every
 * retry_ms; nothing is reported durable that is not, and nothing is written
 * twice. A job's journals are made durable through the write-ahead file
 * (wal.h): the job appends what it wrote to that one file and flushes it
 * with one fdatasync(), however many journals it wrote. When the file is
 * full, or after a failed flush, the job flushes the journals themselves
 * with one syncfs() of the data directory's file system instead, and the
 * write-ahead file starts its next generation. The worker touches only the
 * job it is given (and the name of the rooms directory, which never
 * changes); the store keeps that one job from job to job.
 *
 * A journal may lag behind the write-ahead file: a job that takes few
 * bytes of a room frames them into that file without writing them to the
 * room's own, and hands them back as the room's held-back bytes (`lag`),
 * durable already. They are written with the room's next bytes once
 * lag_bytes wait, or when the room is released, the store stops or the
 * write-ahead file is full. Before that file starts its next generation,
 * every journal is written and flushed: held-back bytes live only in the
 * old generation's frames until then, so a checkpoint waits while any of
 * them cannot be written.
 */
#define _GNU_SOURCE /* syncfs */
#include "journal.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "proto.h"
#include "wal.h"

struct jfile {
    struct jfile *next, **prev; /* every file of the store */
    /* Its place in the list of files holding bytes to write (`buf` or
     * `retry`); held_prev NULL when it holds none. Jobs look at these
     * only, so an idle journal costs nothing per write. */
    struct jfile *held_next, **held_prev;
    char code[PROTO_ROOM_CODE_LEN + 1];
    int fd; /* -1 until the worker opens it */
    /* Records appended since the last job took this file's buffer. */
    char *buf;
    size_t len, cap;
    /* Bytes framed by earlier jobs and not yet written to the file:
     * lag[0, lag_len), after its `done` bytes and before `buf`. Never
     * beside `retry` (a job that writes a file takes them along). */
    char *lag;
    size_t lag_len, lag_cap;
    uint64_t lag_nrec;
    /* The unwritten tail of a failed write: bytes retry[retry_off,
     * retry_len), older than `buf`, written first. NULL when none. */
    char *retry;
    size_t retry_off, retry_len;
    /* retry[retry_off, retry_acked) were durable through the write-ahead
     * file before their write failed: no checkpoint may pass them. */
    size_t retry_acked;
    bool release; /* its room was released: dropped once nothing waits */
    bool in_job;  /* a write job holds this file's fd and a buffer */
    /* What store_read() puts together, on the loop thread: the file's
     * first `done` bytes are written and complete; while in a job, the
     * job's bytes job_buf[job_off, job_len) follow (read, never written,
     * here), then the retry tail, then `buf`. */
    uint64_t done;
    const char *job_buf;
    size_t job_off, job_len;
    bool forgotten; /* its room was dropped while in a job: free afterwards */
    /* Its last write failed: its room's records are not on disk, though
     * the sequence numbers of other rooms' records pass them. The file is
     * retried from `retry_at` (loop time) on; the owner hears when it
     * fails and when it has caught up. */
    bool failing;
    bool caught_up; /* written again in the job that just ended */
    /* Its place among the files whose fd is open, least recently written
     * first (lru_prev NULL: its fd is closed, or a job holds it). */
    struct jfile *lru_next, **lru_prev;
    uint64_t nrec, retry_nrec; /* records in `buf`, in `retry` */
    uint64_t retry_at;
};

struct jent {
    struct jfile *file; /* NULL for a forget entry */
    char code[PROTO_ROOM_CODE_LEN + 1];
    int fd;
    char *buf; /* owned; bytes [off, len) are to be written */
    size_t off, len, cap;
    /* buf[off, frame_from) were framed by earlier jobs (held-back bytes,
     * or a retry's start); the job frames the rest as far as it writes,
     * or all of it when it does not write. */
    size_t frame_from;
    size_t acked;      /* buf[off, acked) were durable before this job */
    bool write;        /* written to the journal; else framed only, and held back */
    uint64_t file_off; /* where buf[off] goes in the journal */
    size_t written;    /* absolute position in buf reached so far */
    bool forget;
    bool retry;        /* the unwritten tail of an earlier failure */
    bool close_after;  /* opened beyond max_open: closed once written (and flushed) */
    uint64_t nrec;     /* records in buf[frame_from, len) (a retry: in buf) */
    uint64_t lag_nrec; /* records in buf[off, frame_from) */
    int err;
    int fault_errno; /* test hook: fail this write */
    bool fault_partial;
    bool fault_used;
};

struct job {
    uv_work_t req;
    struct store *st;
    uint64_t started; /* uv_hrtime() when the job was started */
    uint64_t work_us; /* the worker's own time: writes and flush */
    bool on_loop;     /* run on the loop thread, not the pool */
    const char *dir;  /* the store's rooms_dir, which never changes */
    struct jent *ents;
    size_t n;
    uint64_t seq;     /* durable once this job succeeds */
    uint64_t records; /* records appended since the job before */
    enum store_fsync policy;
    uint64_t fsyncs;
    bool force_sync; /* an earlier flush failed: this job's checkpoint owes it */
    int sync_err;
    int sync_fault;    /* test hook: fail the flush with this errno */
    uint64_t delay_us; /* test hook: sleep first, as a slow disk would */
    bool sync_fault_used;
    struct wal wal;      /* the store's, lent to the worker for the job */
    bool checkpoint_due; /* every journal is written, then flushed: no frames */
    bool may_checkpoint; /* no held-back byte is outside this job, or unwritten */
    bool checkpoint;     /* the journals were flushed themselves */
};

struct store {
    uv_loop_t *loop;
    struct store_config cfg;
    struct store_hooks hooks;
    char rooms_dir[PATH_MAX];
    struct jfile *files;
    struct jfile *held; /* files holding bytes to write */
    /* Files whose fd is open between jobs, least recently written first,
     * at most cfg.max_open of them once a job is done. */
    struct jfile *lru, **lru_end;
    size_t nopen;
    struct proto_code_map index; /* every file of `files`, by room code */
    struct jent *forgets;        /* closed files to unlink in the next job */
    size_t nforgets, capforgets;
    uint64_t next_seq;
    uint64_t job_seq; /* next_seq when the last job started */
    uint64_t durable;
    uint64_t held_bytes; /* appended and not yet written to a file */
    uint64_t unwritten;  /* records appended and not yet written to a file */
    uint64_t nfailing;   /* journals whose last write failed */
    uint64_t lag_bytes;  /* held back by files (not in a job) */
    uint64_t nacked;     /* files whose retry holds bytes durable before */
    uint64_t append_calls;
    bool sync_owed; /* bytes are written but their sync failed */
    bool failing;
    bool job_running;
    struct job *running; /* the job on the thread pool, or NULL */
    /* The jobs' own time, a moving average (weight 1/4, checkpoints left
     * out): whether the next job may run on the loop. */
    uint64_t work_avg_us;
    bool timer_armed;
    bool stopping;
    bool timer_closed;
    uv_timer_t timer;
    /* A write job that is due starts once the loop turn's callbacks are
     * done (after its I/O, or before it waits), so that every record the
     * turn appended goes into it. */
    uv_check_t turn_check;
    uv_prepare_t turn_prepare;
    bool turn_armed;
    struct store_stats stats;
    struct store_fault fault;
    struct wal wal; /* its position is the worker's while a job runs */
    /* The one write job that runs at a time, and the room for its
     * entries, both kept from job to job. */
    struct job job;
    struct jent *job_ents;
    size_t job_ents_cap;
};

static bool job_start(struct store *st, bool may_loop);
static void turn_end(struct store *st, bool may_loop);

/* ---- Paths ---- */

static int journal_path(const struct store *st, const char *code, char *out, size_t outlen)
{
    return store_journal_path(st->rooms_dir, code, out, outlen);
}

/* ---- Worker (thread pool) ---- */

static void write_entry(struct jent *e)
{
    size_t stop = e->len;

    if (e->fault_errno) {
        e->fault_used = true;
        stop = e->fault_partial ? e->written + (e->len - e->written) / 2 : e->written;
    }
    while (e->written < stop) {
        ssize_t w = write(e->fd, e->buf + e->written, stop - e->written);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            e->err = w < 0 ? errno : EIO;
            return;
        }
        e->written += (size_t)w;
    }
    if (e->fault_errno) {
        e->err = e->fault_errno;
    }
}

static void work_sync(struct job *job, int last_fd);

static void work_files(struct job *job)
{
    char path[PATH_MAX];

    /* Forgets first, so that a code reused by a new room starts afresh. */
    for (size_t i = 0; i < job->n; i++) {
        struct jent *e = &job->ents[i];
        if (!e->forget) {
            continue;
        }
        if (e->fd >= 0) {
            close(e->fd);
            e->fd = -1;
        }
        if (store_journal_path(job->dir, e->code, path, sizeof(path)) != 0) {
            e->err = ENAMETOOLONG;
        } else if (unlink(path) != 0 && errno != ENOENT) {
            e->err = errno;
        }
    }
    int last_fd = -1;
    struct jent *to_close = NULL; /* written, closed once another is */
    for (size_t i = 0; i < job->n; i++) {
        struct jent *e = &job->ents[i];
        if (e->forget || !e->write) {
            continue;
        }
        if (to_close && last_fd != to_close->fd) {
            close(to_close->fd);
            to_close->fd = -1;
            to_close = NULL;
        }
        if (e->fd < 0) {
            if (store_journal_path(job->dir, e->code, path, sizeof(path)) != 0) {
                e->err = ENAMETOOLONG;
                continue;
            }
            /* A new journal's directory entry needs no flush of its own:
             * its frames in the write-ahead file make it again. */
            e->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
            if (e->fd < 0) {
                e->err = errno;
                continue;
            }
        }
        write_entry(e);
        if (!e->err) {
            last_fd = e->fd;
        }
        if (e->close_after) {
            if (to_close) {
                close(to_close->fd);
                to_close->fd = -1;
            }
            /* The last one written stays open for the flush below. */
            to_close = e;
        }
    }
    work_sync(job, last_fd);
    if (to_close) {
        close(to_close->fd);
        to_close->fd = -1;
    }
}

/* A job's work, on a pool thread or on the loop: its files, timed. */
static void work(uv_work_t *req)
{
    struct job *job = req->data;
    uint64_t t0 = uv_hrtime();

    if (job->delay_us) {
        struct timespec ts = {.tv_sec = (time_t)(job->delay_us / 1000000),
                              .tv_nsec = (long)(job->delay_us % 1000000) * 1000};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
    }
    work_files(job);
    job->work_us = (uv_hrtime() - t0) / 1000;
}

/* Where the bytes entry `e` frames in this job end: all it holds when
 * its journal waits, else as far as its write went. They start at
 * e->frame_from. */
static size_t frame_end(const struct jent *e)
{
    if (!e->write) {
        return e->len;
    }
    return e->written > e->frame_from ? e->written : e->frame_from;
}

/* The frames of what a job did, for the write-ahead file: each removal,
 * then each journal's new bytes. NULL (with *ret_len 0) when there is
 * nothing, or on ENOMEM (with *ret_len the bytes wanted). */
static char *job_frames(const struct job *job, size_t *ret_len)
{
    size_t len = 0, at = 0;

    for (size_t i = 0; i < job->n; i++) {
        const struct jent *e = &job->ents[i];
        if (e->forget || frame_end(e) > e->frame_from) {
            len += WAL_FRAME_SIZE(e->forget ? 0 : frame_end(e) - e->frame_from);
        }
    }
    *ret_len = len;
    char *out = len ? malloc(len) : NULL;
    if (!out) {
        return NULL;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < job->n; i++) {
            const struct jent *e = &job->ents[i];
            if (pass == 0 && e->forget) {
                wal_frame(out + at, job->wal.gen, WAL_FORGET, e->code, 0, NULL, 0);
                at += WAL_FRAME_SIZE(0);
            } else if (pass == 1 && !e->forget && frame_end(e) > e->frame_from) {
                size_t n = frame_end(e) - e->frame_from;
                wal_frame(out + at, job->wal.gen, WAL_WRITE, e->code,
                          e->file_off + (e->frame_from - e->off), e->buf + e->frame_from, n);
                at += WAL_FRAME_SIZE(n);
            }
        }
    }
    return out;
}

/* The journals themselves made durable: one syncfs() of their file system
 * (reached through a journal just written when there is one), then the
 * write-ahead file's next generation. Not while a byte that was durable
 * through the old generation alone failed its write: the error is then
 * the job's, and a later job tries again. */
static int work_checkpoint(struct job *job, int last_fd)
{
    for (size_t i = 0; i < job->n; i++) {
        const struct jent *e = &job->ents[i];
        if (!e->forget && e->written < e->acked) {
            return e->err ? e->err : EIO;
        }
    }
    int dfd = last_fd >= 0 ? -1 : open(job->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc = last_fd >= 0 ? syncfs(last_fd) : dfd < 0 ? -1 : syncfs(dfd);
    int err = rc == 0 ? 0 : errno ? errno : EIO;

    if (dfd >= 0) {
        close(dfd);
    }
    job->checkpoint = true;
    return err ? err : wal_checkpoint(&job->wal);
}

/* The flush of what a job did, as its policy says: its frames appended
 * to the write-ahead file and flushed, or a checkpoint when the loop found
 * they would not fit or an earlier flush failed (its frames may be missing
 * from the file). Frames that do not fit after all (a disk without room
 * for the file), or cannot be made, take a checkpoint too when no
 * held-back byte waits outside the job; else the flush fails, and the
 * next job checkpoints. A job that only removed journals appends their
 * frames without a flush: a later flush carries them, and until then a
 * machine that stops may find such a room again (as it may find any
 * removed file whose directory was not flushed). */
static void work_sync(struct job *job, int last_fd)
{
    bool forgets = false, framed = false;

    for (size_t i = 0; i < job->n; i++) {
        const struct jent *e = &job->ents[i];
        forgets |= e->forget;
        framed |= !e->forget && frame_end(e) > e->frame_from;
    }
    if (job->policy == STORE_FSYNC_NEVER || (!framed && !job->checkpoint_due && !forgets)) {
        return;
    }
    int err;
    bool flush = framed || job->checkpoint_due;
    if (job->sync_fault && flush) {
        job->sync_fault_used = true;
        err = job->sync_fault;
    } else if (job->checkpoint_due) {
        err = work_checkpoint(job, last_fd);
    } else {
        size_t len;
        char *frames = job_frames(job, &len);
        if (frames && wal_room(&job->wal, len)) {
            err = wal_append(&job->wal, frames, len, flush);
        } else if (job->may_checkpoint) {
            err = work_checkpoint(job, last_fd);
            flush = true;
        } else {
            err = frames ? ENOSPC : ENOMEM;
        }
        free(frames);
    }
    if (flush) {
        job->fsyncs++;
    }
    if (err) {
        /* The bytes are in the files; only their durability is unknown.
         * They are not written again (replay would see them twice): the
         * sync is retried until it succeeds. */
        job->sync_err = err;
    }
}

/* ---- Loop thread ---- */

static void on_timer(uv_timer_t *t)
{
    struct store *st = t->data;

    st->timer_armed = false;
    turn_end(st, true);
}

static void arm(struct store *st, uint64_t ms)
{
    if (st->timer_armed || st->timer_closed) {
        return;
    }
    st->timer_armed = true;
    uv_timer_start(&st->timer, on_timer, ms, 0);
}

static uint64_t retry_ms(const struct store *st)
{
    return st->cfg.retry_ms ? st->cfg.retry_ms : STORE_RETRY_MS;
}

static size_t lag_limit(const struct store *st)
{
    return st->cfg.lag_bytes ? st->cfg.lag_bytes : STORE_LAG_BYTES;
}

/* True when file `f` has bytes a job may take now: a failing file waits
 * for its retry time; a released one has its held-back bytes written. */
static bool file_ready(const struct store *st, const struct jfile *f)
{
    return ((f->len > 0 || f->retry) && (!f->failing || uv_now(st->loop) >= f->retry_at)) ||
           (f->lag_len > 0 && f->release);
}

/* True when file `f` goes into a job that starts now; with `all` (a
 * checkpoint, or the store stopping) every held-back byte goes too, and
 * every retry that holds bytes durable before. */
static bool file_taken(const struct store *st, const struct jfile *f, bool all)
{
    return file_ready(st, f) ||
           (all && (f->lag_len > 0 || (f->retry && f->retry_acked > f->retry_off)));
}

/* Puts `f` in the list of files holding bytes, or takes it out, as its
 * buffers say. Called after every change to them. */
static void file_held_update(struct store *st, struct jfile *f)
{
    bool holds = f->len > 0 || f->retry || (f->lag_len > 0 && f->release);

    if (holds && !f->held_prev) {
        f->held_next = st->held;
        if (st->held) {
            st->held->held_prev = &f->held_next;
        }
        st->held = f;
        f->held_prev = &st->held;
    } else if (!holds && f->held_prev) {
        *f->held_prev = f->held_next;
        if (f->held_next) {
            f->held_next->held_prev = f->held_prev;
        }
        f->held_next = NULL;
        f->held_prev = NULL;
    }
}

static bool has_pending(const struct store *st)
{
    if (st->nforgets > 0 || st->sync_owed || (st->stopping && st->lag_bytes > 0)) {
        return true;
    }
    for (const struct jfile *f = st->held; f; f = f->held_next) {
        if (file_ready(st, f)) {
            return true;
        }
    }
    return false;
}

/* Arms the timer for the earliest retry of a failing file, if any. */
static void arm_file_retry(struct store *st)
{
    uint64_t now = uv_now(st->loop);
    uint64_t first = UINT64_MAX;

    for (const struct jfile *f = st->held; f; f = f->held_next) {
        if (f->failing && f->retry_at < first) {
            first = f->retry_at;
        }
    }
    if (first != UINT64_MAX) {
        arm(st, first > now ? first - now : 0);
    }
}

static void file_set_failing(struct store *st, struct jfile *f, bool failing)
{
    if (failing) {
        f->retry_at = uv_now(st->loop) + retry_ms(st);
    }
    if (f->failing == failing) {
        return;
    }
    f->failing = failing;
    st->nfailing += failing ? 1 : -1;
    if (!failing) {
        log_event(LOG_INFO, "journal_written_again", "room=%s", f->code);
    }
    if (st->hooks.failing) {
        st->hooks.failing(st->hooks.ctx, f->code, failing);
    }
}

/* Keeps the unwritten tail of a failed entry as its file's retry buffer:
 * the entry's own buffer, so nothing is allocated and nothing is lost. */
static void keep_unwritten(struct store *st, struct jent *e)
{
    struct jfile *f = e->file;

    if (e->written == e->len) {
        free(e->buf);
        return;
    }
    assert(!f->retry); /* a job takes the retry buffer it finds */
    f->retry = e->buf;
    f->retry_nrec = e->nrec;
    f->retry_off = e->written;
    f->retry_len = e->len;
    f->retry_acked = e->acked > e->written ? e->acked : 0;
    st->nacked += f->retry_acked > 0;
    file_held_update(st, f);
}

/* ---- Open descriptors: the least recently written closed first ---- */

static void lru_remove(struct store *st, struct jfile *f)
{
    if (!f->lru_prev) {
        return;
    }
    *f->lru_prev = f->lru_next;
    if (f->lru_next) {
        f->lru_next->lru_prev = f->lru_prev;
    } else {
        st->lru_end = f->lru_prev;
    }
    f->lru_next = NULL;
    f->lru_prev = NULL;
    st->nopen--;
}

/* `f` was just written: its open fd goes last in line. */
static void lru_touch(struct store *st, struct jfile *f)
{
    lru_remove(st, f);
    if (f->fd < 0) {
        return;
    }
    if (!st->lru) {
        st->lru_end = &st->lru;
    }
    f->lru_next = NULL;
    f->lru_prev = st->lru_end;
    *st->lru_end = f;
    st->lru_end = &f->lru_next;
    st->nopen++;
}

/* Closes the fds of the least recently written files beyond max_open
 * (the next write opens them again), so that a server holding many rooms
 * awake holds few journal descriptors. A file with bytes waiting keeps
 * its fd: its job comes soon. */
static size_t store_max_open(const struct store *st)
{
    return st->cfg.max_open ? st->cfg.max_open : STORE_MAX_OPEN;
}

static void lru_trim(struct store *st)
{
    size_t max = store_max_open(st);
    struct jfile *f = st->lru;

    while (st->nopen > max && f) {
        struct jfile *next = f->lru_next;
        if (!f->in_job && !f->len && !f->retry && !f->failing) {
            lru_remove(st, f);
            close(f->fd);
            f->fd = -1;
        }
        f = next;
    }
}

/* ---- Held-back bytes ---- */

static void file_unlink(struct jfile *f);

/* A buffer of records a job is done with goes back to its file for the
 * next ones when the file has none and it is small; else it is freed. */
#define STORE_RECYCLE_MAX 1024

static void buf_recycle(struct jfile *f, struct jent *e)
{
    if (!f->buf && e->cap <= STORE_RECYCLE_MAX) {
        f->buf = e->buf;
        f->cap = e->cap;
        f->len = 0;
    } else {
        free(e->buf);
    }
    e->buf = NULL;
}

/* Makes room in `f`'s held-back buffer for `more` bytes after those it
 * holds, before a job takes the file: the job's end then adds them without
 * allocating. A file holding none needs no room (its job's buffer becomes
 * it). It grows by whole STORE_LAG_STEP bytes rather than doubling, so
 * that a room awake keeps little more than what it holds back. False when
 * out of memory. */
#define STORE_LAG_STEP 512

static bool lag_reserve(struct jfile *f, size_t more)
{
    size_t need = f->lag_len + more;

    if (!f->lag || need <= f->lag_cap) {
        return true;
    }
    size_t cap = (need + STORE_LAG_STEP - 1) / STORE_LAG_STEP * STORE_LAG_STEP;
    char *nb = realloc(f->lag, cap);
    if (!nb) {
        return false;
    }
    f->lag = nb;
    f->lag_cap = cap;
    return true;
}

/* Keeps the bytes of entry `e`, framed and not written, as `f`'s
 * held-back bytes, after those it holds (lag_reserve() made room). */
static void lag_take(struct store *st, struct jfile *f, struct jent *e)
{
    if (!f->lag) {
        f->lag = e->buf;
        f->lag_cap = e->cap;
        f->lag_len = e->len;
        e->buf = NULL;
    } else {
        assert(f->lag_len + e->len <= f->lag_cap);
        memcpy(f->lag + f->lag_len, e->buf, e->len);
        f->lag_len += e->len;
        buf_recycle(f, e);
    }
    f->lag_nrec += e->nrec;
    st->lag_bytes += e->len;
    st->unwritten -= e->nrec;
}

/* True when `f` holds nothing and no job has it: it may be dropped. */
static bool file_idle(const struct jfile *f)
{
    return !f->in_job && !f->len && !f->retry && !f->failing && !f->lag_len && !f->held_prev;
}

/* Closes `f` and frees it (file_idle() said so); the next append opens it
 * again and counts its bytes from the file. */
static void file_drop(struct store *st, struct jfile *f)
{
    lru_remove(st, f);
    if (f->fd >= 0) {
        close(f->fd);
    }
    proto_code_map_del(&st->index, f->code);
    file_unlink(f);
    free(f->buf);
    free(f->lag);
    free(f);
}

static void after_work(uv_work_t *req, int status)
{
    char q[LOG_QUOTE_MAX];
    struct job *job = req->data;
    struct store *st = job->st;
    bool failed = status != 0;
    size_t ncaught = 0; /* files that caught up in this job */

    st->stats.writes++;
    if (!failed && !job->checkpoint) {
        st->work_avg_us = st->work_avg_us - st->work_avg_us / 4 + job->work_us / 4;
    }
    bool on_loop = job->on_loop;
    uint64_t us = (uv_hrtime() - job->started) / 1000;
    int bucket = 0;
    while (bucket < STORE_JOB_BUCKETS - 1 && us >= (UINT64_C(1) << bucket)) {
        bucket++;
    }
    st->stats.job_us[bucket]++;
    st->stats.job_us_sum += us;
    for (bucket = 0; bucket < STORE_JOB_BUCKETS - 1 && job->records >= (UINT64_C(1) << bucket);) {
        bucket++;
    }
    st->stats.job_records[bucket]++;
    st->stats.job_records_sum += job->records;
    st->stats.fsyncs += job->fsyncs;
    st->stats.checkpoints += job->checkpoint && !job->sync_err;
    for (size_t i = 0; i < job->n; i++) {
        struct jent *e = &job->ents[i];
        if (e->forget) {
            if (e->err) {
                log_event(LOG_WARN, "journal_remove_failed", "room=%s error=%s", e->code,
                          log_quote(q, sizeof(q), strerror(e->err)));
            }
            continue;
        }
        struct jfile *f = e->file;
        if (e->fault_used && st->fault.write_fails > 0) {
            st->fault.write_fails--;
        }
        /* Bytes appended since the job before: counted in held_bytes. */
        size_t fresh = e->retry ? 0 : e->len - e->frame_from;
        f->fd = e->fd;
        f->in_job = false;
        lru_touch(st, f);
        f->done += e->written - e->off;
        f->job_buf = NULL;
        if (f->forgotten) {
            /* Its room is gone; what was not written is dropped. */
            lru_remove(st, f);
            st->held_bytes -= e->retry ? e->len - e->off : fresh;
            st->unwritten -= e->nrec;
            if (e->fd >= 0) {
                close(e->fd);
            }
            free(e->buf);
            free(f->buf);
            free(f);
            e->file = NULL;
            continue;
        }
        st->held_bytes -= e->retry ? e->written - e->off : fresh;
        if (!e->write) {
            /* Framed, not written: held back until more wait. */
            lag_take(st, f, e);
        } else if (e->err || status != 0) {
            st->stats.failures++;
            log_event(LOG_ERROR, "journal_write_failed", "room=%s error=%s kept_bytes=%zu", f->code,
                      log_quote(q, sizeof(q), e->err ? strerror(e->err) : "write cancelled"),
                      e->len - e->written);
            if (!e->retry) {
                /* Its held-back bytes are unwritten again, with the new. */
                st->held_bytes += e->len - e->written;
                st->unwritten += e->lag_nrec;
                e->nrec += e->lag_nrec;
            }
            if (e->written == e->len) {
                st->unwritten -= e->nrec;
            }
            keep_unwritten(st, e);
            if (status != 0) {
                failed = true;
            } else {
                /* This room alone: the others' records go on. */
                file_set_failing(st, f, true);
            }
        } else {
            buf_recycle(f, e);
            st->unwritten -= e->nrec;
            /* A failing file has caught up once what it held is written
             * and nothing newer waits: its room hears it after `durable`
             * below vouches for the job. */
            if (f->failing && (!e->retry || f->len == 0)) {
                f->caught_up = true;
                ncaught++;
            }
        }
    }
    for (size_t i = 0; i < job->n; i++) {
        struct jfile *f = job->ents[i].forget ? NULL : job->ents[i].file;
        if (f) {
            file_held_update(st, f);
            if (f->release && file_idle(f)) {
                file_drop(st, f);
            }
        }
    }
    if (status != 0) {
        /* The worker did not run: bytes held back by this job were not
         * framed, so the next job checkpoints. */
        st->sync_owed = true;
    }
    if (job->sync_fault_used && st->fault.sync_fails > 0) {
        st->fault.sync_fails--;
    }
    if (job->sync_err && status == 0) {
        failed = true;
        st->stats.failures++;
        st->sync_owed = true;
        log_event(LOG_ERROR, "journal_sync_failed", "error=%s",
                  log_quote(q, sizeof(q), strerror(job->sync_err)));
    } else if (status == 0 && !job->sync_err && job->force_sync) {
        st->sync_owed = false;
    }
    /* The worker moved the write-ahead file's position only for what
     * succeeded. */
    st->wal = job->wal;
    st->job_running = false;
    st->running = NULL;
    st->failing = failed;
    uint64_t seq = job->seq;
    bool report = !failed && seq > st->durable;
    if (report) {
        st->durable = seq;
    }
    lru_trim(st);
    /* The next flush starts before the owner hears of this one, so that
     * the replies it sends out do not delay the records waiting; after a
     * job on the loop, the caller starts it once they are out. */
    bool next = !failed && !on_loop && has_pending(st);
    if (next) {
        job_start(st, false);
    }
    if (report && st->hooks.durable) {
        st->hooks.durable(st->hooks.ctx, seq);
    }
    for (struct jfile *f = ncaught ? st->files : NULL; f; f = f->next) {
        if (f->caught_up) {
            f->caught_up = false;
            if (!failed) {
                file_set_failing(st, f, false);
            }
        }
    }
    if (next || st->job_running) {
        return;
    }
    if (!has_pending(st)) {
        arm_file_retry(st);
    } else if (!failed) {
        if (!on_loop) {
            job_start(st, false);
        }
    } else if (!st->stopping) {
        arm(st, retry_ms(st));
    } else {
        log_event(LOG_ERROR, "journal_stopped_unsynced", "records=%llu",
                  (unsigned long long)(st->next_seq - st->durable));
    }
}

/* Counts the files a job takes (from the held list, or every file with
 * `all`), adds their frames' bytes to *frames, and makes room for the
 * bytes each will hold back after it. False when out of memory. */
static bool job_count(struct store *st, bool all, size_t *ret_n, size_t *frames)
{
    size_t n = 0;

    for (struct jfile *f = all ? st->files : st->held; f; f = all ? f->next : f->held_next) {
        if (!file_taken(st, f, all)) {
            continue;
        }
        n++;
        *frames += WAL_FRAME_SIZE(f->retry ? f->retry_len - f->retry_off : f->len);
        if (!f->retry && !lag_reserve(f, f->len)) {
            return false;
        }
    }
    *ret_n = n;
    return true;
}

/* Fills entry `e` with what file `f` holds for this job: its retry alone,
 * or its new records, after its held-back bytes when it is written now
 * (`all`, or enough held back), else framed only. */
static void job_take(struct store *st, struct job *job, struct jfile *f, struct jent *e, bool all)
{
    bool never = job->policy == STORE_FSYNC_NEVER;

    e->file = f;
    e->fd = f->fd;
    e->file_off = f->done; /* no other job has bytes of it */
    if (f->retry) {
        /* The older bytes go alone; records appended since wait for
         * the next job. The file is failing, so its room holds back
         * what follows them until it has caught up, whatever
         * sequence number this job vouches for. */
        e->buf = f->retry;
        e->retry = true;
        e->write = true;
        e->nrec = f->retry_nrec;
        f->retry_nrec = 0;
        e->off = e->written = e->frame_from = f->retry_off;
        e->len = e->cap = f->retry_len;
        e->acked = f->retry_acked;
        st->nacked -= f->retry_acked > 0;
        f->retry_acked = 0;
        f->retry = NULL;
    } else {
        /* A new journal is made by the job that takes its first records,
         * so that one that cannot be made is found at once. */
        e->write = all || never || f->release || f->failing || (f->done == 0 && !f->lag) ||
                   f->lag_len + f->len >= lag_limit(st);
        e->nrec = f->nrec;
        f->nrec = 0;
        if (e->write && f->lag) {
            if (f->len) {
                memcpy(f->lag + f->lag_len, f->buf, f->len);
            }
            e->buf = f->lag;
            e->cap = f->lag_cap;
            e->len = f->lag_len + f->len;
            e->frame_from = e->acked = f->lag_len;
            e->lag_nrec = f->lag_nrec;
            st->lag_bytes -= f->lag_len;
            f->lag = NULL;
            f->lag_len = f->lag_cap = 0;
            f->lag_nrec = 0;
            f->len = 0; /* its buffer stays, for the next records */
        } else {
            e->buf = f->buf;
            e->cap = f->cap;
            e->len = f->len;
            if (!e->write) {
                e->file_off = f->done + f->lag_len;
            }
            f->buf = NULL;
            f->len = f->cap = 0;
        }
    }
}

/* True when the next write job may run on the loop thread: jobs have
 * been quick, and nothing is failing or stopping. */
static bool loop_ok(const struct store *st)
{
    uint64_t bound = st->cfg.loop_job_us ? st->cfg.loop_job_us : STORE_LOOP_JOB_US;

    return !st->cfg.pool_only && !st->stopping && !st->failing && !st->sync_owed &&
           st->nfailing == 0 && st->work_avg_us <= bound;
}

/* Starts a write job of what waits, if none runs: on the loop itself (to
 * its end) when `may_loop` and loop_ok() allow and no checkpoint is due,
 * else on the thread pool. True when a job ran on the loop. */
static bool job_start(struct store *st, bool may_loop)
{
    struct job *job;
    size_t n, frames = 0;

    if (st->job_running || !has_pending(st)) {
        return false;
    }
    for (size_t i = 0; i < st->nforgets; i++) {
        frames += WAL_FRAME_SIZE(0);
    }
    bool ok = job_count(st, false, &n, &frames);
    /* A checkpoint when the frames would not fit, or an earlier flush
     * failed; then, as when the store stops, every journal is written. */
    bool due = st->cfg.fsync != STORE_FSYNC_NEVER &&
               (st->sync_owed || st->wal.off + frames > st->wal.size);
    bool all = due || st->stopping;
    if (ok && all) {
        ok = job_count(st, true, &n, &frames);
    }
    n += st->nforgets;
    if (ok && (n > st->job_ents_cap || !st->job_ents)) {
        size_t cap = st->job_ents_cap ? st->job_ents_cap : 16;
        struct jent *ents;
        while (cap < n) {
            cap *= 2;
        }
        ents = realloc(st->job_ents, cap * sizeof(*ents));
        if (ents) {
            st->job_ents = ents;
            st->job_ents_cap = cap;
        }
        ok = ents != NULL;
    }
    if (!ok) {
        log_event(LOG_ERROR, "journal_out_of_memory", "during=write");
        arm(st, retry_ms(st));
        return false;
    }
    job = &st->job;
    *job = (struct job){.ents = st->job_ents, .dir = st->rooms_dir};
    memset(job->ents, 0, n * sizeof(*job->ents));
    job->st = st;
    job->policy = st->cfg.fsync;
    job->seq = st->next_seq;
    job->records = job->seq - st->job_seq;
    st->job_seq = job->seq;
    job->force_sync = st->sync_owed;
    job->checkpoint_due = due;
    job->delay_us = st->fault.work_delay_us;
    if (st->fault.sync_fails > 0 && job->policy != STORE_FSYNC_NEVER) {
        job->sync_fault = st->fault.sync_errno ? st->fault.sync_errno : EIO;
    }
    job->wal = st->wal;
    for (size_t i = 0; i < st->nforgets; i++) {
        job->ents[job->n++] = st->forgets[i];
    }
    st->nforgets = 0;
    uint64_t faults = st->fault.write_fails;
    size_t opened = 0;
    bool held_back = false;
    for (struct jfile *f = all ? st->files : st->held, *next; f; f = next) {
        next = all ? f->next : f->held_next;
        if (!file_taken(st, f, all)) {
            continue;
        }
        struct jent *e = &job->ents[job->n++];
        job_take(st, job, f, e, all);
        held_back |= !e->write;
        /* A journal opened for this job beyond the descriptors kept open
         * is closed again once written, so that a job never holds more
         * than max_open (and one) journals open. */
        e->close_after = e->write && f->fd < 0 && ++opened + st->nopen > store_max_open(st);
        if (e->write && faults > 0 &&
            (!st->fault.write_code[0] || strcmp(st->fault.write_code, f->code) == 0)) {
            faults--;
            e->fault_errno = st->fault.write_errno ? st->fault.write_errno : EIO;
            e->fault_partial = st->fault.write_partial;
        }
        f->in_job = true;
        f->job_buf = e->buf;
        f->job_off = e->off;
        f->job_len = e->len;
        memcpy(e->code, f->code, sizeof(e->code));
        file_held_update(st, f);
    }
    job->may_checkpoint = !held_back && st->lag_bytes == 0 && st->nacked == 0;
    job->req.data = job;
    job->started = uv_hrtime();
    job->on_loop = may_loop && !due && loop_ok(st);
    st->job_running = true;
    st->running = job;
    if (job->on_loop) {
        st->stats.loop_jobs++;
        work(&job->req);
        after_work(&job->req, 0);
        return true;
    }
    if (uv_queue_work(st->loop, &job->req, work, after_work) != 0) {
        /* Cannot happen with a valid loop; treat as a failed write. */
        after_work(&job->req, UV_ECANCELED);
    }
    return false;
}

static void turn_disarm(struct store *st)
{
    if (st->turn_armed) {
        st->turn_armed = false;
        uv_check_stop(&st->turn_check);
        uv_prepare_stop(&st->turn_prepare);
    }
}

/* The loop turn that appended records is done: their write job starts.
 * Records that the report of a job on the loop made (its owner's answer
 * to them) go to the pool, so that the loop sends the replies first and
 * is woken when they are durable. */
static void turn_end(struct store *st, bool may_loop)
{
    turn_disarm(st);
    if (job_start(st, may_loop) && !st->job_running && !st->failing && has_pending(st)) {
        turn_disarm(st);
        job_start(st, false);
    }
}

/* After the turn's I/O: a job for the pool starts now; one that may run
 * on the loop waits for the prepare handle, after the turn's replies
 * went out (the network layer's check handle) and the next turn's timers
 * added their records. */
static void on_turn_check(uv_check_t *h)
{
    struct store *st = h->data;

    if (loop_ok(st)) {
        uv_check_stop(&st->turn_check);
        return;
    }
    turn_end(st, false);
}

static void on_turn_prepare(uv_prepare_t *h)
{
    turn_end(h->data, true);
}

/* Something new waits: arms the end of the loop turn, or the batch's
 * timer, to start a write. Once stopping there is neither, so the write
 * starts at once. */
static void schedule(struct store *st)
{
    if (st->job_running) {
        return; /* after_work starts the next one */
    }
    if (st->stopping) {
        job_start(st, false);
    } else if (st->failing) {
        arm(st, retry_ms(st)); /* already armed: the retry goes first */
    } else if (st->cfg.fsync != STORE_FSYNC_BATCH) {
        if (!st->turn_armed) {
            st->turn_armed = true;
            uv_check_start(&st->turn_check, on_turn_check);
            uv_prepare_start(&st->turn_prepare, on_turn_prepare);
        }
    } else {
        arm(st, st->cfg.batch_ms);
    }
}

/* Records not yet durable: those after the durable sequence number, or
 * those not yet in their file (a failing journal's), whichever is more. */
static uint64_t pending_records(const struct store *st)
{
    uint64_t after = st->next_seq - st->durable;

    return after > st->unwritten ? after : st->unwritten;
}

static void file_link(struct store *st, struct jfile *f)
{
    f->next = st->files;
    if (st->files) {
        st->files->prev = &f->next;
    }
    st->files = f;
    f->prev = &st->files;
}

static void file_unlink(struct jfile *f)
{
    *f->prev = f->next;
    if (f->next) {
        f->next->prev = f->prev;
    }
}

/* True when room `code`'s file is to be removed, or is being removed, by
 * a write job. */
static bool forget_pending(const struct store *st, const char *code)
{
    for (size_t i = 0; i < st->nforgets; i++) {
        if (strcmp(st->forgets[i].code, code) == 0) {
            return true;
        }
    }
    for (size_t i = 0; st->running && i < st->running->n; i++) {
        if (st->running->ents[i].forget && strcmp(st->running->ents[i].code, code) == 0) {
            return true;
        }
    }
    return false;
}

/* The bytes of room `code`'s file as the loop thread first sees it: those
 * of a journal restored at start, 0 for a new room (or one whose old file
 * a job is about to remove). */
static uint64_t file_size_now(const struct store *st, const char *code)
{
    char path[PATH_MAX];
    struct stat sb;

    if (forget_pending(st, code) || journal_path(st, code, path, sizeof(path)) != 0 ||
        stat(path, &sb) != 0) {
        return 0;
    }
    return (uint64_t)sb.st_size;
}

static struct jfile *file_get(struct store *st, const char *code)
{
    struct jfile *f = proto_code_map_get(&st->index, code);

    if (f) {
        return f;
    }
    f = calloc(1, sizeof(*f));
    if (!f) {
        return NULL;
    }
    memcpy(f->code, code, sizeof(f->code));
    if (proto_code_map_put(&st->index, f->code, f) != 0) {
        free(f);
        return NULL;
    }
    f->fd = -1;
    f->done = file_size_now(st, code);
    file_link(st, f);
    return f;
}

/* Appends one record to room `code`'s journal; see journal.h. Nothing is
 * changed when it fails. */
int store_append(void *ctx, const char *code, const char *line, size_t len, uint64_t *ret_seq)
{
    struct store *st = ctx;
    size_t total = STORE_RECORD_SIZE(len);

    st->append_calls++;
    if (st->fault.append_fail_at && st->append_calls == st->fault.append_fail_at) {
        st->stats.refused++;
        return st->fault.append_err ? st->fault.append_err : -ENOMEM;
    }
    if (!store_is_code(code)) {
        st->stats.refused++;
        return -EINVAL;
    }
    if ((st->cfg.max_pending_records && pending_records(st) >= st->cfg.max_pending_records) ||
        (st->cfg.max_pending_bytes && st->held_bytes + total > st->cfg.max_pending_bytes)) {
        st->stats.refused++;
        return -ENOBUFS;
    }
    struct jfile *f = file_get(st, code);
    if (!f) {
        st->stats.refused++;
        return -ENOMEM;
    }
    if (f->len + total > f->cap) {
        /* From a small start: most rooms append a record at a time. */
        size_t cap = f->cap ? f->cap : 256;
        while (cap < f->len + total) {
            cap *= 2;
        }
        char *nb = realloc(f->buf, cap);
        if (!nb) {
            st->stats.refused++;
            return -ENOMEM;
        }
        f->buf = nb;
        f->cap = cap;
    }
    store_record_write(f->buf + f->len, line, len);
    f->len += total;
    f->nrec++;
    f->release = false;
    st->unwritten++;
    st->held_bytes += total;
    st->stats.records++;
    *ret_seq = ++st->next_seq;
    file_held_update(st, f);
    schedule(st);
    return 0;
}

/* Appends n bytes of `b` to data[*len...] (room for them was made). */
static void take(char *data, size_t *len, const char *b, size_t n)
{
    if (n) {
        memcpy(data + *len, b, n);
        *len += n;
    }
}

int store_read(void *ctx, const char *code, json_t **ret_records)
{
    struct store *st = ctx;
    char path[PATH_MAX];
    struct stat sb;
    size_t len = 0, good = 0;
    int fd, rc;

    if (!store_is_code(code) || journal_path(st, code, path, sizeof(path)) != 0) {
        return -EINVAL;
    }
    struct jfile *f = proto_code_map_get(&st->index, code);
    if (!f && forget_pending(st, code)) {
        return -ENOENT;
    }
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && (errno != ENOENT || !f)) {
        return -errno;
    }
    uint64_t disk = 0;
    if (fd >= 0) {
        if (fstat(fd, &sb) != 0) {
            rc = -errno;
            close(fd);
            return rc;
        }
        /* A job may be appending past what is known to be written. */
        disk = f && f->done < (uint64_t)sb.st_size ? f->done : (uint64_t)sb.st_size;
    }
    size_t mem = f ? f->lag_len + (f->in_job && f->job_buf ? f->job_len - f->job_off : 0) +
                         (f->retry ? f->retry_len - f->retry_off : 0) + f->len
                   : 0;
    char *data = malloc((size_t)disk + mem + 1);
    if (!data) {
        if (fd >= 0) {
            close(fd);
        }
        return -ENOMEM;
    }
    while (len < disk) {
        ssize_t r = read(fd, data + len, (size_t)disk - len);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            rc = r < 0 ? -errno : -EIO;
            close(fd);
            free(data);
            return rc;
        }
        len += (size_t)r;
    }
    if (fd >= 0) {
        close(fd);
    }
    if (f) {
        take(data, &len, f->lag, f->lag_len);
    }
    if (f && f->in_job && f->job_buf) {
        take(data, &len, f->job_buf + f->job_off, f->job_len - f->job_off);
    }
    if (f && f->retry) {
        take(data, &len, f->retry + f->retry_off, f->retry_len - f->retry_off);
    }
    if (f) {
        take(data, &len, f->buf, f->len);
    }
    rc = store_journal_parse(data, len, ret_records, &good);
    free(data);
    return rc < 0 ? -EIO : 0;
}

void store_release(void *ctx, const char *code)
{
    struct store *st = ctx;
    struct jfile *f = store_is_code(code) ? proto_code_map_get(&st->index, code) : NULL;

    if (!f) {
        return;
    }
    /* A journal with bytes to write, or in a job, is dropped once the job
     * that writes them is done; its held-back bytes go in the next one. */
    f->release = true;
    if (file_idle(f)) {
        file_drop(st, f);
        return;
    }
    file_held_update(st, f);
    if (f->lag_len > 0 && !f->in_job) {
        schedule(st);
    }
}

/* Schedules the removal of room `code`'s journal; see journal.h. */
void store_forget(void *ctx, const char *code)
{
    struct store *st = ctx;
    struct jfile *f;

    if (!store_is_code(code)) {
        return;
    }
    if (st->nforgets == st->capforgets) {
        size_t cap = st->capforgets ? st->capforgets * 2 : 8;
        struct jent *n = realloc(st->forgets, cap * sizeof(*n));
        if (!n) {
            log_event(LOG_ERROR, "journal_out_of_memory", "during=forget room=%s", code);
            return;
        }
        st->forgets = n;
        st->capforgets = cap;
    }
    struct jent *e = &st->forgets[st->nforgets++];
    memset(e, 0, sizeof(*e));
    e->forget = true;
    e->fd = -1;
    memcpy(e->code, code, sizeof(e->code));
    f = proto_code_map_get(&st->index, code);
    if (f) {
        proto_code_map_del(&st->index, code);
        file_unlink(f);
        lru_remove(st, f);
        /* Records still pending for a dropped room are not worth writing. */
        st->held_bytes -= f->len;
        st->unwritten -= f->nrec + f->retry_nrec;
        if (f->failing) {
            st->nfailing--;
        }
        free(f->buf);
        f->buf = NULL;
        f->len = f->cap = 0;
        if (f->retry) {
            st->held_bytes -= f->retry_len - f->retry_off;
            st->nacked -= f->retry_acked > 0;
            free(f->retry);
            f->retry = NULL;
        }
        st->lag_bytes -= f->lag_len;
        free(f->lag);
        f->lag = NULL;
        f->lag_len = f->lag_cap = 0;
        f->lag_nrec = 0;
        file_held_update(st, f);
        if (f->in_job) {
            /* The running job owns its fd and buffer; after_work frees
             * them and the file. */
            f->forgotten = true;
        } else {
            e->fd = f->fd;
            free(f);
        }
    }
    schedule(st);
}

/* ---- Open, load, stop ---- */

int store_fsync_parse(const char *name)
{
    if (strcmp(name, "always") == 0) {
        return STORE_FSYNC_ALWAYS;
    }
    if (strcmp(name, "batch") == 0) {
        return STORE_FSYNC_BATCH;
    }
    if (strcmp(name, "never") == 0) {
        return STORE_FSYNC_NEVER;
    }
    return -1;
}

/* Opens the store; see journal.h. */
int store_open(uv_loop_t *loop, const struct store_config *cfg, const struct store_hooks *hooks,
               struct store **ret_store)
{
    struct store *st = calloc(1, sizeof(*st));

    if (!st) {
        return -ENOMEM;
    }
    st->loop = loop;
    st->cfg = *cfg;
    if (hooks) {
        st->hooks = *hooks;
    }
    size_t dl = strnlen(cfg->dir, sizeof(cfg->dir));
    if (dl + sizeof("/rooms/") + PROTO_ROOM_CODE_LEN + sizeof(".journal.bad") >
        sizeof(st->rooms_dir)) {
        free(st);
        return -ENAMETOOLONG;
    }
    memcpy(st->rooms_dir, cfg->dir, dl);
    memcpy(st->rooms_dir + dl, "/rooms", sizeof("/rooms"));
    if (mkdir(st->rooms_dir, 0700) != 0 && errno != EEXIST) {
        int e = errno;
        free(st);
        return -e;
    }
    uint64_t frames;
    int rc = wal_recover(&st->wal, st->rooms_dir, cfg->wal_bytes, &frames);
    if (rc != 0) {
        free(st);
        return rc;
    }
    rc = uv_timer_init(loop, &st->timer);
    if (rc != 0) {
        wal_close(&st->wal);
        free(st);
        return rc;
    }
    st->timer.data = st;
    uv_check_init(loop, &st->turn_check);
    uv_prepare_init(loop, &st->turn_prepare);
    st->turn_check.data = st;
    st->turn_prepare.data = st;
    *ret_store = st;
    return 0;
}

static char *read_all(const char *path, size_t *ret_len, time_t *ret_mtime)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    char *data = NULL;
    size_t got = 0;

    if (fd < 0) {
        return NULL;
    }
    if (fstat(fd, &sb) != 0 || !(data = malloc((size_t)sb.st_size + 1))) {
        close(fd);
        return NULL;
    }
    while (got < (size_t)sb.st_size) {
        ssize_t r = read(fd, data + got, (size_t)sb.st_size - got);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            break;
        }
        got += (size_t)r;
    }
    close(fd);
    *ret_len = got;
    *ret_mtime = sb.st_mtime;
    return data;
}

static void set_aside(const char *path)
{
    char bad[PATH_MAX + 8];

    snprintf(bad, sizeof(bad), "%s.bad", path);
    if (rename(path, bad) != 0) {
        char q[LOG_QUOTE_MAX], qp[LOG_QUOTE_MAX];
        log_event(LOG_ERROR, "journal_set_aside_failed", "path=%s error=%s",
                  log_quote(qp, sizeof(qp), path), log_quote(q, sizeof(q), strerror(errno)));
    }
}

/* Reads every journal back through the `restore` hook; see journal.h. */
int store_load(struct store *st, uint64_t now)
{
    char q[LOG_QUOTE_MAX], qp[LOG_QUOTE_MAX];
    DIR *d;
    struct dirent *de;
    int restored = 0;

    if (!st->hooks.restore) {
        return 0;
    }
    d = opendir(st->rooms_dir);
    if (!d) {
        log_event(LOG_ERROR, "journal_read_failed", "path=%s error=%s",
                  log_quote(qp, sizeof(qp), st->rooms_dir),
                  log_quote(q, sizeof(q), strerror(errno)));
        return 0;
    }
    while ((de = readdir(d))) {
        char path[PATH_MAX];
        char code[PROTO_ROOM_CODE_LEN + 1];
        size_t nlen = strlen(de->d_name), len = 0, good = 0;
        time_t mtime = 0;
        json_t *records = NULL;
        char err[STORE_ERR_MAX] = "";

        if (nlen != PROTO_ROOM_CODE_LEN + 8 ||
            strcmp(de->d_name + PROTO_ROOM_CODE_LEN, ".journal") != 0) {
            continue;
        }
        memcpy(code, de->d_name, PROTO_ROOM_CODE_LEN);
        code[PROTO_ROOM_CODE_LEN] = '\0';
        if (!store_is_code(code) || journal_path(st, code, path, sizeof(path)) != 0) {
            continue;
        }
        char *data = read_all(path, &len, &mtime);
        if (!data) {
            log_event(LOG_ERROR, "journal_read_failed", "path=%s error=%s",
                      log_quote(qp, sizeof(qp), path), log_quote(q, sizeof(q), strerror(errno)));
            continue;
        }
        int rc = store_journal_parse(data, len, &records, &good);
        free(data);
        if (rc < 0) {
            log_event(LOG_ERROR, "journal_unreadable", "room=%s kept=yes", code);
            continue;
        }
        if (rc == 1) {
            log_event(LOG_WARN, "journal_tail_dropped", "room=%s bytes=%zu records_kept=%zu", code,
                      len - good, json_array_size(records));
            /* Flushed at once: frames written later at this offset
             * must not find the dropped tail again after a crash. */
            int tfd = open(path, O_WRONLY | O_CLOEXEC);
            if (tfd < 0 || ftruncate(tfd, (off_t)good) != 0 || fdatasync(tfd) != 0) {
                log_event(LOG_ERROR, "journal_truncate_failed", "room=%s error=%s", code,
                          log_quote(q, sizeof(q), strerror(errno)));
            }
            if (tfd >= 0) {
                close(tfd);
            }
        }
        time_t wall = time(NULL);
        uint64_t age_ms = wall > mtime ? (uint64_t)(wall - mtime) * 1000 : 0;
        if (json_array_size(records) == 0) {
            (void)unlink(path);
            json_decref(records);
            continue;
        }
        rc = st->hooks.restore(st->hooks.ctx, records, now, age_ms, err, sizeof(err));
        if (rc < 0) {
            err[sizeof(err) - 1] = '\0';
            log_event(LOG_ERROR, "journal_does_not_replay", "room=%s reason=%s set_aside=.bad",
                      code, log_quote(q, sizeof(q), err));
            set_aside(path);
        } else if (rc > 0) {
            (void)unlink(path);
        } else {
            restored++;
        }
        json_decref(records);
    }
    closedir(d);
    return restored;
}

/* Flushes what waits and closes the timer; see journal.h. */
void store_stop(struct store *st)
{
    st->stopping = true;
    if (st->timer_armed) {
        uv_timer_stop(&st->timer);
        st->timer_armed = false;
    }
    if (!st->timer_closed) {
        st->timer_closed = true;
        uv_close((uv_handle_t *)&st->timer, NULL);
        st->turn_armed = false;
        uv_close((uv_handle_t *)&st->turn_check, NULL);
        uv_close((uv_handle_t *)&st->turn_prepare, NULL);
    }
    job_start(st, false);
}

/* Counters and what waits now; see journal.h. */
struct store_stats store_stats(const struct store *st)
{
    struct store_stats s = st->stats;

    s.durable_seq = st->durable;
    s.work_avg_us = st->work_avg_us;
    s.pending_records = pending_records(st);
    s.pending_bytes = st->held_bytes;
    s.lag_bytes = st->lag_bytes;
    s.failing = st->failing || st->nfailing > 0;
    return s;
}

uint64_t store_job_quantile_us(const struct store_stats *s, double q)
{
    uint64_t total = 0, seen = 0;

    for (int k = 0; k < STORE_JOB_BUCKETS; k++) {
        total += s->job_us[k];
    }
    for (int k = 0; k < STORE_JOB_BUCKETS && total > 0; k++) {
        seen += s->job_us[k];
        if ((double)seen >= q * (double)total) {
            return UINT64_C(1) << k;
        }
    }
    return 0;
}

/* Test hook: the faults to inject from now on; see journal.h. */
void store_set_fault(struct store *st, const struct store_fault *fault)
{
    if (fault) {
        st->fault = *fault;
    } else {
        memset(&st->fault, 0, sizeof(st->fault));
    }
    st->append_calls = 0;
}

/* Frees the store and closes its files; see journal.h. */
void store_free(struct store *st)
{
    if (!st) {
        return;
    }
    proto_code_map_free(&st->index);
    while (st->files) {
        struct jfile *f = st->files;
        st->files = f->next;
        if (f->fd >= 0) {
            close(f->fd);
        }
        free(f->buf);
        free(f->lag);
        free(f->retry);
        free(f);
    }
    for (size_t i = 0; i < st->nforgets; i++) {
        if (st->forgets[i].fd >= 0) {
            close(st->forgets[i].fd);
        }
    }
    free(st->forgets);
    free(st->job_ents);
    wal_close(&st->wal);
    free(st);
}
