/* SPDX-License-Identifier: MIT */
/*
 * test_journal.c - the libuv journal on a real event loop and a temporary
 * directory: sequence numbers, append failures, group commit per fsync
 * policy, a failing disk (writes and flushes that fail are retried, and no
 * record is reported durable before it is in its file), forget, stop, and
 * the reading of journals back through the restore hook.
 *
 * Every durable report is checked against the files at the moment it is
 * made: the journals must then hold at least that many records; where
 * they may lag behind the write-ahead file, the journals as a start would
 * mend them from it (on a copy of the directory).
 */
#include "ck_run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>
#include <uv.h>

#include "journal.h"
#include "wal.h"

#define DEADLINE_MS 10000

static char dir[PATH_MAX];
static char rooms[PATH_MAX + 8];
static uv_loop_t loop;
static struct store *st;

/* What the hooks saw. */
static uint64_t durable_seq;
static unsigned durable_calls;
static uint64_t failing_rooms; /* journals reported failing and not caught up */
static uint64_t failing_calls, caught_up_calls;
static unsigned restored;
static int restore_result;
static json_t *restored_records; /* array of each restore's records */
static size_t forgotten;         /* records of journals removed on purpose */
static bool lagging;             /* the journals may lag behind the write-ahead file */
static int append_on_durable;    /* records the durable hook is to append, one a report */
static int appended_on_durable;  /* and has appended */

/* The second run of these tests puts every write job on the thread pool. */
#ifdef JOURNAL_TEST_POOL_ONLY
static const bool pool_only = true;
#else
static const bool pool_only = false;
#endif

/* ---- Files ---- */

static void room_path(const char *code, char *out, size_t len)
{
    snprintf(out, len, "%s/%s.journal", rooms, code);
}

/* The records of the journal at `path` (new reference, empty when the
 * file is missing); *ret_len is the file's size. */
static json_t *read_records(const char *path, size_t *ret_len)
{
    FILE *f = fopen(path, "rb");
    json_t *out = NULL;
    size_t good = 0, len = 0;
    char *data = NULL;

    if (f) {
        fseek(f, 0, SEEK_END);
        len = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        data = malloc(len + 1);
        ck_assert_ptr_nonnull(data);
        ck_assert_uint_eq(fread(data, 1, len, f), len);
        fclose(f);
    }
    ck_assert_int_ge(store_journal_parse(data ? data : "", len, &out, &good), 0);
    free(data);
    if (ret_len) {
        *ret_len = len;
    }
    return out;
}

/* The records of room `code`'s journal; see read_records(). */
static json_t *read_journal(const char *code, size_t *ret_len)
{
    char path[PATH_MAX + 32];
    room_path(code, path, sizeof(path));
    return read_records(path, ret_len);
}

/* Copies every file of directory `from` into `to` (created). */
static void copy_dir(const char *from, const char *to)
{
    DIR *d = opendir(from);
    struct dirent *de;
    char buf[65536];

    ck_assert_ptr_nonnull(d);
    ck_assert(mkdir(to, 0700) == 0 || errno == EEXIST);
    while ((de = readdir(d))) {
        char src[PATH_MAX + 300], dst[PATH_MAX + 300];
        if (de->d_name[0] == '.') {
            continue;
        }
        snprintf(src, sizeof(src), "%s/%s", from, de->d_name);
        snprintf(dst, sizeof(dst), "%s/%s", to, de->d_name);
        int in = open(src, O_RDONLY), out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ck_assert_int_ge(in, 0);
        ck_assert_int_ge(out, 0);
        ssize_t n;
        while ((n = read(in, buf, sizeof(buf))) > 0) {
            ck_assert_int_eq(write(out, buf, (size_t)n), n);
        }
        close(in);
        close(out);
    }
    closedir(d);
}

static void remove_dir(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *de;

    while (d && (de = readdir(d))) {
        char p[PATH_MAX + 300];
        if (de->d_name[0] != '.') {
            snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
            (void)unlink(p);
        }
    }
    if (d) {
        closedir(d);
    }
    (void)rmdir(path);
}

/* Number of whole, valid records in every journal of directory `path`. */
static size_t records_in(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *de;
    size_t n = 0;

    ck_assert_ptr_nonnull(d);
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l > 8 && strcmp(de->d_name + l - 8, ".journal") == 0) {
            char file[PATH_MAX + 300];
            snprintf(file, sizeof(file), "%s/%s", path, de->d_name);
            json_t *r = read_records(file, NULL);
            n += json_array_size(r);
            json_decref(r);
        }
    }
    closedir(d);
    return n;
}

static size_t records_on_disk(void)
{
    return records_in(rooms);
}

/* The records a machine that stopped now would find after its next start:
 * the directory copied, and its write-ahead file written back into the
 * copy's journals. */
static size_t records_recoverable(void)
{
    char copy[PATH_MAX + 32];
    struct wal w;
    uint64_t frames;

    snprintf(copy, sizeof(copy), "%s/copy", dir);
    copy_dir(rooms, copy);
    ck_assert_int_eq(wal_recover(&w, copy, 0, &frames), 0);
    wal_close(&w);
    size_t n = records_in(copy);
    remove_dir(copy);
    return n;
}

static bool file_exists(const char *name)
{
    char path[PATH_MAX + 32];
    struct stat sb;

    snprintf(path, sizeof(path), "%s/%s", rooms, name);
    return stat(path, &sb) == 0;
}

/* ---- Hooks ---- */

static void on_durable(void *ctx, uint64_t seq)
{
    ck_assert_ptr_eq(ctx, &loop);
    ck_assert_uint_gt(seq, durable_seq);
    /* Nothing is reported durable that is not in its file (or, with
     * journals that lag, in the write-ahead file), but for the records of
     * a journal reported failing. */
    if (failing_rooms == 0) {
        ck_assert_uint_ge((lagging ? records_recoverable() : records_on_disk()) + forgotten, seq);
    }
    durable_seq = seq;
    durable_calls++;
    if (append_on_durable > 0) {
        char line[64];
        uint64_t next;
        int len = snprintf(line, sizeof(line), "{\"t\":\"act\",\"n\":%d}", ++appended_on_durable);
        append_on_durable--;
        ck_assert_int_eq(store_append(st, "BBBBBB", line, (size_t)len, &next), 0);
    }
}

static void on_failing(void *ctx, const char *code, bool failing)
{
    ck_assert_ptr_eq(ctx, &loop);
    ck_assert_uint_eq(strlen(code), 6);
    if (failing) {
        failing_rooms++;
        failing_calls++;
    } else {
        ck_assert_uint_gt(failing_rooms, 0);
        failing_rooms--;
        caught_up_calls++;
        /* Caught up: what was vouched for is on disk again. */
        if (failing_rooms == 0) {
            ck_assert_uint_ge((lagging ? records_recoverable() : records_on_disk()) + forgotten,
                              durable_seq);
        }
    }
}

static int on_restore(void *ctx, const json_t *records, uint64_t now, uint64_t age_ms, char *err,
                      size_t errlen)
{
    ck_assert_ptr_eq(ctx, &loop);
    ck_assert_uint_eq(now, 42);
    json_array_append(restored_records, (json_t *)records);
    if (restore_result < 0) {
        snprintf(err, errlen, "refused by the test");
        return -1;
    }
    if (restore_result > 0) {
        return 1; /* not kept, as a finished room long expired */
    }
    restored++;
    return 0;
}

/* ---- Fixture ---- */

static void setup(void)
{
    const char *tmp = getenv("TMPDIR");

    snprintf(dir, sizeof(dir), "%s/conclave-journal-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(rooms, sizeof(rooms), "%s/rooms", dir);
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    st = NULL;
    durable_seq = 0;
    durable_calls = 0;
    failing_rooms = failing_calls = caught_up_calls = 0;
    restored = 0;
    restore_result = 0;
    forgotten = 0;
    append_on_durable = appended_on_durable = 0;
    restored_records = json_array();
}

/* Stops and frees the store, letting the loop run to its end. */
static void close_store(void)
{
    if (st) {
        store_stop(st);
        ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0);
        store_free(st);
        st = NULL;
    }
}

static void teardown(void)
{
    close_store();
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    DIR *d = opendir(rooms);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        char path[PATH_MAX + 300];
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
            snprintf(path, sizeof(path), "%s/%s", rooms, de->d_name);
            (void)unlink(path);
        }
    }
    if (d) {
        closedir(d);
    }
    (void)rmdir(rooms);
    (void)rmdir(dir);
    json_decref(restored_records);
}

/* Opens the store; unless `cfg` asks for a lag of its own, its journals
 * are written at every job, so that the files show what each job did. */
static void open_store_cfg(struct store_config cfg)
{
    const struct store_hooks hooks = {
        .durable = on_durable, .restore = on_restore, .failing = on_failing, .ctx = &loop};

    snprintf(cfg.dir, sizeof(cfg.dir), "%s", dir);
    cfg.pool_only |= pool_only;
    if (!cfg.lag_bytes) {
        cfg.lag_bytes = 1;
    }
    lagging = cfg.lag_bytes > 1;
    ck_assert_int_eq(store_open(&loop, &cfg, &hooks, &st), 0);
}

static void open_store(enum store_fsync policy, uint64_t batch_ms)
{
    durable_seq = 0; /* numbers start again with each store */
    durable_calls = 0;
    open_store_cfg((struct store_config){.fsync = policy, .batch_ms = batch_ms, .retry_ms = 5});
}

static void open_store_bounded(enum store_fsync policy, uint64_t max_records, uint64_t max_bytes)
{
    open_store_cfg((struct store_config){.fsync = policy,
                                         .batch_ms = 1,
                                         .retry_ms = 5,
                                         .max_pending_records = max_records,
                                         .max_pending_bytes = max_bytes});
}

static void tick(uv_timer_t *t)
{
    (void)t;
}

/* Runs the loop until `*value` reaches `want` or DEADLINE_MS pass. */
static void run_until(const uint64_t *value, uint64_t want)
{
    uv_timer_t t;
    uint64_t end;

    uv_update_time(&loop);
    end = uv_now(&loop) + DEADLINE_MS;
    uv_timer_init(&loop, &t);
    uv_timer_start(&t, tick, 2, 2);
    while (*value < want && uv_now(&loop) < end) {
        uv_run(&loop, UV_RUN_ONCE);
    }
    uv_close((uv_handle_t *)&t, NULL);
    uv_run(&loop, UV_RUN_NOWAIT);
}

static uint64_t failures_now;

static void run_until_failures(uint64_t want)
{
    uv_timer_t t;
    uint64_t end;

    uv_update_time(&loop);
    end = uv_now(&loop) + DEADLINE_MS;
    uv_timer_init(&loop, &t);
    uv_timer_start(&t, tick, 1, 1);
    while ((failures_now = store_stats(st).failures) < want && uv_now(&loop) < end) {
        uv_run(&loop, UV_RUN_ONCE);
    }
    uv_timer_stop(&t);
    uv_close((uv_handle_t *)&t, NULL);
    uv_run(&loop, UV_RUN_NOWAIT);
}

static uint64_t append(const char *code, int n)
{
    char line[64];
    uint64_t seq = 0;
    int len = snprintf(line, sizeof(line), "{\"t\":\"act\",\"n\":%d}", n);

    ck_assert_int_eq(store_append(st, code, line, (size_t)len, &seq), 0);
    return seq;
}

/* Room `code`'s journal holds exactly records n = first .. last, in order. */
static void expect_journal(const char *code, int first, int last)
{
    json_t *r = read_journal(code, NULL);

    ck_assert_uint_eq(json_array_size(r), (size_t)(last - first + 1));
    for (int i = first; i <= last; i++) {
        const json_t *rec = json_array_get(r, (size_t)(i - first));
        ck_assert_int_eq(json_integer_value(json_object_get(rec, "n")), i);
    }
    json_decref(r);
}

/* ---- Tests ---- */

START_TEST(fsync_names)
{
    ck_assert_int_eq(store_fsync_parse("always"), STORE_FSYNC_ALWAYS);
    ck_assert_int_eq(store_fsync_parse("batch"), STORE_FSYNC_BATCH);
    ck_assert_int_eq(store_fsync_parse("never"), STORE_FSYNC_NEVER);
    ck_assert_int_eq(store_fsync_parse("sometimes"), -1);
}
END_TEST

START_TEST(append_numbers_records_and_reports_them_durable)
{
    open_store(STORE_FSYNC_BATCH, 1);
    ck_assert_uint_eq(append("AAAAAA", 1), 1);
    ck_assert_uint_eq(append("BBBBBB", 2), 2);
    ck_assert_uint_eq(append("AAAAAA", 3), 3);
    ck_assert_uint_eq(durable_calls, 0); /* never from inside append */
    struct store_stats s = store_stats(st);
    ck_assert_uint_eq(s.pending_records, 3);
    ck_assert_uint_gt(s.pending_bytes, 0);
    run_until(&durable_seq, 3);
    ck_assert_uint_eq(durable_seq, 3);
    s = store_stats(st);
    ck_assert_uint_eq(s.records, 3);
    ck_assert_uint_eq(s.durable_seq, 3);
    ck_assert_uint_eq(s.pending_records, 0);
    ck_assert_uint_eq(s.pending_bytes, 0);
    ck_assert_uint_ge(s.fsyncs, 1);
    ck_assert(!s.failing);
    json_t *a = read_journal("AAAAAA", NULL);
    ck_assert_uint_eq(json_array_size(a), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(a, 1), "n")), 3);
    json_decref(a);
    expect_journal("BBBBBB", 2, 2);
}
END_TEST

START_TEST(failed_append_appends_nothing)
{
    const struct store_fault fault = {.append_fail_at = 2};
    uint64_t seq = 77;

    open_store(STORE_FSYNC_BATCH, 1);
    store_set_fault(st, &fault);
    ck_assert_uint_eq(append("AAAAAA", 1), 1);
    ck_assert_int_eq(store_append(st, "AAAAAA", "{\"n\":0}", 7, &seq), -ENOMEM);
    ck_assert_uint_eq(seq, 77);                /* untouched */
    ck_assert_uint_eq(append("AAAAAA", 2), 2); /* no gap in the numbers */
    run_until(&durable_seq, 2);
    expect_journal("AAAAAA", 1, 2);
    struct store_stats s = store_stats(st);
    ck_assert_uint_eq(s.records, 2);
    ck_assert_uint_eq(s.refused, 1);
}
END_TEST

START_TEST(append_fault_reports_its_errno)
{
    const struct store_fault fault = {.append_fail_at = 1, .append_err = -ENOSPC};
    uint64_t seq = 0;

    open_store(STORE_FSYNC_BATCH, 1);
    store_set_fault(st, &fault);
    ck_assert_int_eq(store_append(st, "AAAAAA", "{}", 2, &seq), -ENOSPC);
    ck_assert_uint_eq(store_stats(st).pending_records, 0);
    ck_assert_uint_eq(store_stats(st).pending_bytes, 0);
}
END_TEST

START_TEST(append_refuses_a_code_that_is_no_file_name)
{
    uint64_t seq = 0;

    open_store(STORE_FSYNC_BATCH, 1);
    ck_assert_int_eq(store_append(st, "../x/y", "{}", 2, &seq), -EINVAL);
    ck_assert_int_eq(store_append(st, "ABCDEFG", "{}", 2, &seq), -EINVAL);
    ck_assert_int_eq(store_append(st, "", "{}", 2, &seq), -EINVAL);
    ck_assert_uint_eq(store_stats(st).refused, 3);
}
END_TEST

START_TEST(batch_groups_records_into_one_write)
{
    open_store(STORE_FSYNC_BATCH, 5);
    for (int i = 1; i <= 5; i++) {
        append("AAAAAA", i);
    }
    run_until(&durable_seq, 5);
    ck_assert_uint_eq(durable_seq, 5);
    ck_assert_uint_eq(durable_calls, 1);
    ck_assert_uint_eq(store_stats(st).writes, 1);
    ck_assert_uint_eq(store_stats(st).fsyncs, 1);
    expect_journal("AAAAAA", 1, 5);
}
END_TEST

START_TEST(many_journals_each_get_their_own_records)
{
    /* 300 rooms, then a second round for a few of them, then some
     * forgotten and their codes reused: every journal ends up with exactly
     * its own records, and each write job's duration is counted once. */
    char codes[300][16];
    open_store(STORE_FSYNC_BATCH, 5);
    for (int i = 0; i < 300; i++) {
        snprintf(codes[i], sizeof(codes[i]), "R%05d", i);
        append(codes[i], 1);
    }
    run_until(&durable_seq, 300);
    append(codes[5], 2);
    append(codes[150], 2);
    append(codes[299], 2);
    run_until(&durable_seq, 303);
    for (int i = 0; i < 300; i++) {
        expect_journal(codes[i], 1, i == 5 || i == 150 || i == 299 ? 2 : 1);
    }
    store_forget(st, codes[150]);
    store_forget(st, codes[7]);
    forgotten = 3;
    append(codes[150], 1);
    append(codes[8], 2);
    run_until(&durable_seq, 305);
    expect_journal(codes[150], 1, 1);
    expect_journal(codes[8], 1, 2);
    json_t *gone = read_journal(codes[7], NULL);
    ck_assert_uint_eq(json_array_size(gone), 0);
    json_decref(gone);

    struct store_stats s = store_stats(st);
    uint64_t jobs = 0;
    for (int k = 0; k < STORE_JOB_BUCKETS; k++) {
        jobs += s.job_us[k];
    }
    ck_assert_uint_eq(jobs, s.writes);
    uint64_t p50 = store_job_quantile_us(&s, 0.5), p99 = store_job_quantile_us(&s, 0.99);
    ck_assert_uint_gt(p50, 0);
    ck_assert_uint_le(p50, p99);
    ck_assert_uint_eq(p99 & (p99 - 1), 0);
}
END_TEST

/* The process's open descriptors. */
static int open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");

    ck_assert_ptr_nonnull(d);
    while (readdir(d)) {
        n++;
    }
    closedir(d);
    return n;
}

START_TEST(journals_beyond_max_open_close_between_writes)
{
    /* 60 rooms, 8 descriptors: each journal gets every record, written in
     * two rounds, whether its fd was kept or closed and opened again. */
    char codes[60][16];
    durable_seq = 0;
    durable_calls = 0;
    open_store_cfg((struct store_config){
        .fsync = STORE_FSYNC_BATCH, .batch_ms = 1, .retry_ms = 5, .max_open = 8});
    int before = open_fds();
    for (int round = 1; round <= 2; round++) {
        for (int i = 0; i < 60; i++) {
            snprintf(codes[i], sizeof(codes[i]), "F%05d", i);
            append(codes[i], round);
        }
        run_until(&durable_seq, 60u * (unsigned)round);
        ck_assert_int_le(open_fds(), before + 8);
    }
    for (int i = 0; i < 60; i++) {
        expect_journal(codes[i], 1, 2);
    }
}
END_TEST

START_TEST(always_starts_a_write_at_the_end_of_the_turn)
{
    /* The batch delay is never waited for: the records one loop turn
     * appends share one write, started once the turn's callbacks are
     * done; a record of a later turn gets its own. */
    open_store(STORE_FSYNC_ALWAYS, 600000);
    for (int i = 1; i <= 5; i++) {
        append("AAAAAA", i);
    }
    ck_assert_uint_eq(store_stats(st).writes, 0);
    run_until(&durable_seq, 5);
    ck_assert_uint_eq(durable_seq, 5);
    ck_assert_uint_eq(store_stats(st).writes, 1);
    ck_assert_uint_eq(store_stats(st).fsyncs, 1);
    run_until(&durable_seq, append("AAAAAA", 6));
    ck_assert_uint_eq(durable_seq, 6);
    ck_assert_uint_eq(store_stats(st).writes, 2);
    expect_journal("AAAAAA", 1, 6);
}
END_TEST

START_TEST(never_reports_durable_once_written_without_batch_wait)
{
    /* With a batch delay far beyond the deadline, only a write that starts
     * with the loop turn can report in time; the two records appended in
     * one turn share a write. */
    open_store(STORE_FSYNC_NEVER, 600000);
    append("AAAAAA", 1);
    run_until(&durable_seq, 1);
    ck_assert_uint_eq(durable_seq, 1);
    append("AAAAAA", 2);
    append("BBBBBB", 3);
    run_until(&durable_seq, 3);
    ck_assert_uint_eq(durable_seq, 3);
    struct store_stats s = store_stats(st);
    ck_assert_uint_eq(s.fsyncs, 0);
    ck_assert_uint_eq(s.writes, 2);
    expect_journal("AAAAAA", 1, 2);
    expect_journal("BBBBBB", 3, 3);
}
END_TEST

START_TEST(failed_writes_are_retried_and_reported_until_caught_up)
{
    /* Two writes fail after writing half their bytes: the room hears its
     * journal fails before any sequence number past its records is
     * reported; the tail is written on retry, once; then it hears its
     * journal caught up. */
    const struct store_fault fault = {
        .write_fails = 2, .write_partial = true, .write_errno = ENOSPC};

    open_store(STORE_FSYNC_ALWAYS, 1);
    store_set_fault(st, &fault);
    append("AAAAAA", 1);
    append("AAAAAA", 2);
    run_until_failures(1);
    ck_assert_uint_ge(failures_now, 1);
    struct store_stats s = store_stats(st);
    ck_assert_uint_eq(failing_calls, 1);
    ck_assert_uint_eq(failing_rooms, 1);
    ck_assert(s.failing);
    ck_assert_uint_eq(s.pending_records, 2);
    ck_assert_uint_gt(s.pending_bytes, 0);
    run_until(&caught_up_calls, 1);
    ck_assert_uint_eq(failing_rooms, 0);
    run_until(&durable_seq, 2);
    ck_assert_uint_eq(durable_seq, 2);
    s = store_stats(st);
    ck_assert_uint_eq(s.failures, 2);
    ck_assert_uint_eq(s.pending_records, 0);
    ck_assert_uint_eq(s.pending_bytes, 0);
    ck_assert(!s.failing);
    expect_journal("AAAAAA", 1, 2);
}
END_TEST

START_TEST(records_appended_while_failing_keep_their_order)
{
    /* Records keep arriving for two rooms while the disk fails; the retried
     * tail goes first, and what is reported durable is always on disk (the
     * durable hook checks it). */
    const struct store_fault fault = {.write_fails = 3, .write_partial = true};

    open_store(STORE_FSYNC_BATCH, 1);
    store_set_fault(st, &fault);
    int n = 0;
    for (int round = 0; round < 6; round++) {
        append("AAAAAA", ++n);
        append("AAAAAA", ++n);
        append("BBBBBB", 100 + n);
        run_until_failures(round < 3 ? (uint64_t)round + 1 : 3);
    }
    run_until(&durable_seq, 18);
    ck_assert_uint_eq(durable_seq, 18);
    run_until(&caught_up_calls, failing_calls);
    ck_assert_uint_eq(failing_rooms, 0);
    ck_assert_uint_eq(store_stats(st).failures, 3);
    ck_assert_uint_eq(store_stats(st).pending_bytes, 0);
    json_t *a = read_journal("AAAAAA", NULL);
    json_t *b = read_journal("BBBBBB", NULL);
    ck_assert_uint_eq(json_array_size(a), 12);
    ck_assert_uint_eq(json_array_size(b), 6);
    for (size_t i = 1; i < 12; i++) {
        ck_assert_int_lt(json_integer_value(json_object_get(json_array_get(a, i - 1), "n")),
                         json_integer_value(json_object_get(json_array_get(a, i), "n")));
    }
    for (size_t i = 1; i < 6; i++) {
        ck_assert_int_lt(json_integer_value(json_object_get(json_array_get(b, i - 1), "n")),
                         json_integer_value(json_object_get(json_array_get(b, i), "n")));
    }
    json_decref(a);
    json_decref(b);
}
END_TEST

START_TEST(one_failing_journal_does_not_hold_the_others)
{
    /* Only AAAAAA's writes fail: BBBBBB's records are reported durable
     * (and are on disk) while AAAAAA is failing; AAAAAA catches up once
     * the fault is gone, with every record once and in order. */
    struct store_fault fault = {.write_fails = 1000000};

    snprintf(fault.write_code, sizeof(fault.write_code), "AAAAAA");
    open_store(STORE_FSYNC_BATCH, 1);
    store_set_fault(st, &fault);
    append("AAAAAA", 1);
    append("BBBBBB", 2);
    run_until(&failing_calls, 1);
    ck_assert_uint_eq(failing_rooms, 1);
    uint64_t b3 = append("BBBBBB", 3);
    run_until(&durable_seq, b3);
    ck_assert_uint_ge(durable_seq, b3);
    expect_journal("BBBBBB", 2, 3);
    ck_assert_uint_eq(failing_rooms, 1);
    ck_assert(store_stats(st).failing);
    ck_assert_uint_ge(store_stats(st).pending_records, 1);
    append("AAAAAA", 4);
    store_set_fault(st, NULL);
    run_until(&caught_up_calls, 1);
    ck_assert_uint_eq(failing_rooms, 0);
    ck_assert(!store_stats(st).failing);
    ck_assert_uint_eq(store_stats(st).pending_records, 0);
    json_t *a = read_journal("AAAAAA", NULL);
    ck_assert_uint_eq(json_array_size(a), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(a, 0), "n")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(a, 1), "n")), 4);
    json_decref(a);
}
END_TEST

START_TEST(failed_sync_withholds_durable_without_writing_twice)
{
    const struct store_fault fault = {.sync_fails = 2};

    open_store(STORE_FSYNC_ALWAYS, 1);
    store_set_fault(st, &fault);
    append("AAAAAA", 1);
    run_until_failures(1);
    ck_assert_uint_ge(failures_now, 1);
    ck_assert_uint_eq(durable_calls, 0);
    ck_assert(store_stats(st).failing);
    ck_assert_uint_eq(store_stats(st).pending_records, 1);
    /* The bytes are in the file; only their flush failed. */
    ck_assert_uint_eq(records_on_disk(), 1);
    append("AAAAAA", 2);
    run_until(&durable_seq, 2);
    ck_assert_uint_eq(durable_seq, 2);
    ck_assert_uint_eq(store_stats(st).failures, 2);
    ck_assert(!store_stats(st).failing);
    /* The failed flush's frames may be missing from the write-ahead file:
     * the journals were flushed themselves. */
    ck_assert_uint_eq(store_stats(st).checkpoints, 1);
    expect_journal("AAAAAA", 1, 2);
}
END_TEST

START_TEST(failures_under_never_are_retried_too)
{
    const struct store_fault fault = {.write_fails = 1};

    open_store(STORE_FSYNC_NEVER, 600000);
    store_set_fault(st, &fault);
    append("AAAAAA", 1);
    run_until(&caught_up_calls, 1);
    run_until(&durable_seq, 1);
    ck_assert_uint_eq(durable_seq, 1);
    ck_assert_uint_eq(failing_calls, 1);
    ck_assert_uint_eq(store_stats(st).failures, 1);
    expect_journal("AAAAAA", 1, 1);
}
END_TEST

START_TEST(backlog_over_its_bound_refuses_appends_until_durable)
{
    const struct store_fault fault = {.write_fails = 1000000};
    uint64_t seq = 0;

    open_store_bounded(STORE_FSYNC_ALWAYS, 3, 0);
    store_set_fault(st, &fault);
    append("AAAAAA", 1);
    append("AAAAAA", 2);
    append("BBBBBB", 3);
    ck_assert_int_eq(store_append(st, "AAAAAA", "{}", 2, &seq), -ENOBUFS);
    run_until_failures(3);
    ck_assert_int_eq(store_append(st, "BBBBBB", "{}", 2, &seq), -ENOBUFS);
    ck_assert_uint_eq(seq, 0);
    ck_assert_uint_eq(store_stats(st).pending_records, 3);
    ck_assert_uint_eq(store_stats(st).refused, 2);
    ck_assert(store_stats(st).failing);
    store_set_fault(st, NULL); /* the disk recovers */
    run_until(&caught_up_calls, 2);
    ck_assert_uint_eq(failing_rooms, 0);
    run_until(&durable_seq, 3);
    ck_assert_uint_eq(durable_seq, 3);
    ck_assert_uint_eq(append("BBBBBB", 4), 4);
    run_until(&durable_seq, 4);
    expect_journal("AAAAAA", 1, 2);
    expect_journal("BBBBBB", 3, 4);
}
END_TEST

START_TEST(unwritten_bytes_over_their_bound_refuse_appends)
{
    const struct store_fault fault = {.write_fails = 1000000};
    uint64_t seq = 0;

    open_store_bounded(STORE_FSYNC_BATCH, 0, 200);
    store_set_fault(st, &fault);
    append("AAAAAA", 1); /* 32 + 1 + 17 + 1 bytes */
    append("AAAAAA", 2);
    append("AAAAAA", 3);
    ck_assert_uint_eq(store_stats(st).pending_bytes, 153);
    ck_assert_int_eq(store_append(st, "AAAAAA", "{\"t\":\"act\",\"n\":4}", 17, &seq), -ENOBUFS);
    ck_assert_int_eq(store_append(st, "AAAAAA", "{}", 2, &seq), 0);
    ck_assert_uint_eq(seq, 4);
    store_set_fault(st, NULL);
    run_until(&durable_seq, 4);
    ck_assert_uint_eq(store_stats(st).pending_bytes, 0);
}
END_TEST

START_TEST(forget_removes_the_journal)
{
    open_store(STORE_FSYNC_BATCH, 1);
    append("AAAAAA", 1);
    append("BBBBBB", 2);
    run_until(&durable_seq, 2);
    ck_assert(file_exists("AAAAAA.journal"));
    forgotten = 1;
    store_forget(st, "AAAAAA");
    append("BBBBBB", 3);
    run_until(&durable_seq, 3);
    ck_assert(!file_exists("AAAAAA.journal"));
    expect_journal("BBBBBB", 2, 3);
}
END_TEST

START_TEST(stop_writes_what_waits)
{
    open_store(STORE_FSYNC_BATCH, 600000);
    append("AAAAAA", 1);
    close_store();
    ck_assert_uint_eq(durable_seq, 1);
    expect_journal("AAAAAA", 1, 1);
}
END_TEST

START_TEST(forget_while_stopping_still_removes_the_journal)
{
    open_store(STORE_FSYNC_BATCH, 1);
    append("AAAAAA", 1);
    run_until(&durable_seq, 1);
    store_stop(st);
    forgotten = 1;
    store_forget(st, "AAAAAA");
    ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0);
    store_free(st);
    st = NULL;
    ck_assert(!file_exists("AAAAAA.journal"));
}
END_TEST

START_TEST(load_hands_each_journal_to_restore)
{
    open_store(STORE_FSYNC_BATCH, 1);
    append("AAAAAA", 1);
    append("BBBBBB", 2);
    append("AAAAAA", 3);
    close_store();

    open_store(STORE_FSYNC_BATCH, 1);
    ck_assert_int_eq(store_load(st, 42), 2);
    ck_assert_uint_eq(restored, 2);
    ck_assert_uint_eq(json_array_size(restored_records), 2);
    size_t total = json_array_size(json_array_get(restored_records, 0)) +
                   json_array_size(json_array_get(restored_records, 1));
    ck_assert_uint_eq(total, 3);
    /* Numbers go on from 1 in a new process; the lobby keeps its own. */
    ck_assert_uint_eq(append("AAAAAA", 4), 1);
    run_until(&durable_seq, 1);
}
END_TEST

START_TEST(load_truncates_a_torn_tail)
{
    open_store(STORE_FSYNC_BATCH, 1);
    append("AAAAAA", 1);
    append("AAAAAA", 2);
    close_store();
    char path[PATH_MAX + 32];
    size_t before;
    json_decref(read_journal("AAAAAA", &before));
    room_path("AAAAAA", path, sizeof(path));
    FILE *f = fopen(path, "ab");
    ck_assert_ptr_nonnull(f);
    fputs("0123456789abcdef0123456789abcdef {\"t\":\"ac", f);
    fclose(f);

    open_store(STORE_FSYNC_BATCH, 1);
    ck_assert_int_eq(store_load(st, 42), 1);
    ck_assert_uint_eq(json_array_size(json_array_get(restored_records, 0)), 2);
    size_t after;
    json_decref(read_journal("AAAAAA", &after));
    ck_assert_uint_eq(after, before);
}
END_TEST

START_TEST(load_sets_aside_a_journal_that_does_not_replay)
{
    open_store(STORE_FSYNC_BATCH, 1);
    append("AAAAAA", 1);
    close_store();

    restore_result = -1;
    open_store(STORE_FSYNC_BATCH, 1);
    ck_assert_int_eq(store_load(st, 42), 0);
    ck_assert(!file_exists("AAAAAA.journal"));
    ck_assert(file_exists("AAAAAA.journal.bad"));
}
END_TEST

START_TEST(load_removes_a_journal_its_owner_does_not_keep)
{
    uint64_t seq;

    open_store(STORE_FSYNC_BATCH, 1);
    append("AAAAAA", 1);
    ck_assert_int_eq(store_append(st, "AAAAAA", "{\"t\":\"end\"}", 11, &seq), 0);
    append("BBBBBB", 2);
    close_store();

    /* The owner reads the records and says what to keep; the store knows
     * no record's meaning. */
    restore_result = 1;
    open_store(STORE_FSYNC_BATCH, 1);
    ck_assert_int_eq(store_load(st, 42), 0);
    ck_assert_uint_eq(json_array_size(restored_records), 2);
    ck_assert(!file_exists("AAAAAA.journal"));
    ck_assert(!file_exists("BBBBBB.journal"));
    ck_assert(!file_exists("AAAAAA.journal.bad"));
}
END_TEST

/* store_read() of room `code` gives exactly records n = first .. last. */
static void expect_read(const char *code, int first, int last)
{
    json_t *r = NULL;

    ck_assert_int_eq(store_read(st, code, &r), 0);
    ck_assert_uint_eq(json_array_size(r), (size_t)(last - first + 1));
    for (int n = first; n <= last; n++) {
        json_t *rec = json_array_get(r, (size_t)(n - first));
        ck_assert_int_eq(json_integer_value(json_object_get(rec, "n")), n);
    }
    json_decref(r);
}

START_TEST(read_gives_every_record_wherever_it_is)
{
    json_t *r = NULL;

    /* Appended, not yet written. */
    open_store(STORE_FSYNC_BATCH, 600000);
    append("AAAAAA", 1);
    append("AAAAAA", 2);
    expect_read("AAAAAA", 1, 2);
    ck_assert_int_eq(store_read(st, "BBBBBB", &r), -ENOENT);
    close_store();

    /* On disk, then half of a record on disk and its other half kept for
     * the retry, then more behind it in memory. */
    open_store(STORE_FSYNC_ALWAYS, 1);
    expect_read("AAAAAA", 1, 2);
    const struct store_fault fault = {.write_fails = 1, .write_partial = true};
    store_set_fault(st, &fault);
    append("AAAAAA", 3);
    expect_read("AAAAAA", 1, 3); /* while its write job may be running */
    run_until_failures(1);
    expect_read("AAAAAA", 1, 3);
    append("AAAAAA", 4);
    expect_read("AAAAAA", 1, 4);
    run_until(&durable_seq, 2);
    expect_read("AAAAAA", 1, 4);
    for (int n = 5; n <= 40; n++) {
        append("AAAAAA", n);
        expect_read("AAAAAA", 1, n);
    }
    run_until(&durable_seq, 38);
    expect_journal("AAAAAA", 1, 40);
    expect_read("AAAAAA", 1, 40);

    /* A forgotten room has none. */
    store_forget(st, "AAAAAA");
    ck_assert_int_eq(store_read(st, "AAAAAA", &r), -ENOENT);
    ck_assert_int_eq(store_read(st, "no/such", &r), -EINVAL);
}
END_TEST

/* ---- The write-ahead file ---- */

/* What a machine that stops loses of a journal not yet flushed: its pages
 * from `from` on read as zeros (the size kept), or the file is shorter, or
 * it is gone. */
static void zero_journal(const char *code, size_t from)
{
    char path[PATH_MAX + 32];
    size_t len;
    json_decref(read_journal(code, &len));
    room_path(code, path, sizeof(path));
    int fd = open(path, O_WRONLY);
    ck_assert_int_ge(fd, 0);
    for (size_t i = from; i < len; i++) {
        ck_assert_int_eq(pwrite(fd, "", 1, (off_t)i), 1);
    }
    close(fd);
}

static void cut_journal(const char *code, size_t keep)
{
    char path[PATH_MAX + 32];
    room_path(code, path, sizeof(path));
    ck_assert_int_eq(truncate(path, (off_t)keep), 0);
}

static void remove_journal(const char *code)
{
    char path[PATH_MAX + 32];
    room_path(code, path, sizeof(path));
    ck_assert_int_eq(unlink(path), 0);
}

static off_t wal_size(void)
{
    struct stat sb;
    char path[PATH_MAX + 32];
    snprintf(path, sizeof(path), "%s/%s", rooms, WAL_NAME);
    ck_assert_int_eq(stat(path, &sb), 0);
    return sb.st_size;
}

/* CRC-32C bit by bit, as its definition says, for checking the frames'. */
static uint32_t crc32c_bitwise(uint32_t crc, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        crc ^= b[i];
        for (int k = 0; k < 8; k++) {
            crc = crc & 1 ? (crc >> 1) ^ UINT32_C(0x82f63b78) : crc >> 1;
        }
    }
    return crc;
}

START_TEST(a_frame_carries_the_crc32c_of_its_head_and_payload)
{
    /* The reference itself, on the standard check string. */
    ck_assert_uint_eq(~crc32c_bitwise(~UINT32_C(0), (const unsigned char *)"123456789", 9),
                      UINT32_C(0xe3069283));
    open_store(STORE_FSYNC_ALWAYS, 1);
    char payload[301];
    for (size_t i = 0; i < sizeof(payload); i++) {
        payload[i] = (char)(i * 37 + 11);
    }
    /* Every length from none to past a few 8-byte words, from an odd
     * address, so that both the words and the bytes left over count. */
    char frame[WAL_FRAME_SIZE(sizeof(payload))];
    for (size_t len = 0; len < sizeof(payload) - 1; len += len < 40 ? 1 : 13) {
        wal_frame(frame, 7, WAL_WRITE, "K7QF2M", 4096 + len, payload + 1, len);
        uint32_t sum;
        memcpy(&sum, frame + 12, sizeof(sum));
        unsigned char head[WAL_HEAD];
        memcpy(head, frame, WAL_HEAD);
        memset(head + 12, 0, 4);
        uint32_t want = crc32c_bitwise(~UINT32_C(0), head, WAL_HEAD);
        want = ~crc32c_bitwise(want, (const unsigned char *)payload + 1, len);
        ck_assert_msg(sum == want, "length %zu: sum %08x, CRC-32C %08x", len, sum, want);
    }
    close_store();
}
END_TEST

START_TEST(wal_gives_back_what_a_stopped_machine_lost)
{
    size_t a_len, c_len;

    open_store(STORE_FSYNC_ALWAYS, 1);
    append("AAAAAA", 1);
    append("BBBBBB", 1);
    run_until(&durable_seq, 2);
    append("AAAAAA", 2);
    append("CCCCCC", 1);
    run_until(&durable_seq, 4);
    append("AAAAAA", 3);
    append("CCCCCC", 2);
    run_until(&durable_seq, 6);
    /* Each job flushed the write-ahead file once, not the journals. */
    ck_assert_uint_eq(store_stats(st).fsyncs, store_stats(st).writes);
    ck_assert_uint_eq(store_stats(st).checkpoints, 0);
    close_store();
    json_decref(read_journal("AAAAAA", &a_len));
    json_decref(read_journal("CCCCCC", &c_len));

    zero_journal("AAAAAA", 10);
    remove_journal("BBBBBB");
    cut_journal("CCCCCC", 7);
    open_store(STORE_FSYNC_ALWAYS, 1);
    ck_assert_int_eq(store_load(st, 42), 3);
    expect_journal("AAAAAA", 1, 3);
    expect_journal("BBBBBB", 1, 1);
    expect_journal("CCCCCC", 1, 2);
    size_t len;
    json_decref(read_journal("AAAAAA", &len));
    ck_assert_uint_eq(len, a_len);
    json_decref(read_journal("CCCCCC", &len));
    ck_assert_uint_eq(len, c_len);
    /* Given back once: the next start has nothing to write again. */
    close_store();
    remove_journal("BBBBBB");
    open_store(STORE_FSYNC_ALWAYS, 1);
    ck_assert(!file_exists("BBBBBB.journal"));
}
END_TEST

START_TEST(wal_keeps_a_removed_journal_removed)
{
    open_store(STORE_FSYNC_ALWAYS, 1);
    append("AAAAAA", 1);
    append("AAAAAA", 2);
    append("DDDDDD", 1);
    run_until(&durable_seq, 3);
    forgotten = 3;
    store_forget(st, "AAAAAA");
    store_forget(st, "DDDDDD");
    /* A new room under the old code, and another room's record that
     * brings a flush. */
    append("AAAAAA", 7);
    append("BBBBBB", 1);
    run_until(&durable_seq, 5);
    close_store();

    remove_journal("AAAAAA");
    open_store(STORE_FSYNC_ALWAYS, 1);
    ck_assert(!file_exists("DDDDDD.journal"));
    expect_journal("AAAAAA", 7, 7);
    expect_journal("BBBBBB", 1, 1);
}
END_TEST

START_TEST(a_full_wal_flushes_the_journals_and_starts_again)
{
    /* Room for the frames of three records, not four. */
    const uint64_t size = WAL_DATA + 3 * WAL_FRAME_SIZE(STORE_RECORD_SIZE(17)) + 8;

    open_store_cfg(
        (struct store_config){.fsync = STORE_FSYNC_ALWAYS, .retry_ms = 5, .wal_bytes = size});
    for (int i = 1; i <= 9; i++) {
        append("AAAAAA", i);
        run_until(&durable_seq, (uint64_t)i);
    }
    ck_assert_uint_eq(durable_seq, 9);
    ck_assert_uint_eq(store_stats(st).checkpoints, 2);
    ck_assert_int_le(wal_size(), (off_t)size);
    close_store();

    /* Record 8 went with the second checkpoint (the journal flushed
     * itself), record 9 in a frame after it: that frame is what is given
     * back. */
    size_t len;
    json_decref(read_journal("AAAAAA", &len));
    cut_journal("AAAAAA", len - STORE_RECORD_SIZE(17));
    open_store_cfg(
        (struct store_config){.fsync = STORE_FSYNC_ALWAYS, .retry_ms = 5, .wal_bytes = size});
    expect_journal("AAAAAA", 1, 9);
}
END_TEST

START_TEST(frames_past_the_first_megabyte_are_given_back)
{
    /* Records of 40,000 bytes, one write job each: their frames pass the
     * zeros written ahead of them more than once. */
    enum { N = 60, BIG = 40000 };
    char *line = malloc(BIG + 64);
    ck_assert_ptr_nonnull(line);

    open_store(STORE_FSYNC_ALWAYS, 1);
    for (int i = 1; i <= N; i++) {
        int len = snprintf(line, BIG + 64, "{\"t\":\"act\",\"n\":%d,\"pad\":\"", i);
        memset(line + len, 'a' + i % 26, BIG);
        len += BIG;
        len += snprintf(line + len, 64, "\"}");
        uint64_t seq;
        ck_assert_int_eq(store_append(st, "AAAAAA", line, (size_t)len, &seq), 0);
        run_until(&durable_seq, (uint64_t)i);
    }
    free(line);
    ck_assert_uint_eq(store_stats(st).checkpoints, 0);
    ck_assert_int_gt(wal_size(), (off_t)(2u << 20));
    close_store();

    remove_journal("AAAAAA");
    open_store(STORE_FSYNC_ALWAYS, 1);
    expect_journal("AAAAAA", 1, N);
}
END_TEST

START_TEST(a_disk_without_room_for_the_file_shortens_its_lap)
{
    /* Files may not pass 640 KiB (the process's file size limit, as a
     * full disk would refuse them): the write-ahead file cannot reach its
     * first megabyte of zeros. */
    enum { ROOMS = 4, EACH = 150, PAD = 900 };
    const rlim_t limit = 640 * 1024;
    struct rlimit old, lim;
    char *line = malloc(PAD + 64);
    ck_assert_ptr_nonnull(line);
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = limit;
    signal(SIGXFSZ, SIG_IGN);
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);

    open_store(STORE_FSYNC_ALWAYS, 1);
    const char *codes[ROOMS] = {"AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD"};
    uint64_t n = 0;
    for (int i = 1; i <= EACH; i++) {
        for (int r = 0; r < ROOMS; r++) {
            int len = snprintf(line, PAD + 64, "{\"t\":\"act\",\"n\":%d,\"pad\":\"", i);
            memset(line + len, 'p', PAD);
            len += PAD;
            len += snprintf(line + len, 64, "\"}");
            uint64_t seq;
            ck_assert_int_eq(store_append(st, codes[r], line, (size_t)len, &seq), 0);
            n++;
        }
        run_until(&durable_seq, n);
    }
    free(line);
    ck_assert_uint_eq(durable_seq, n);
    /* No flush failed: the file started again within what it holds. */
    ck_assert_uint_eq(store_stats(st).failures, 0);
    ck_assert_uint_ge(store_stats(st).checkpoints, 1);
    ck_assert_int_le(wal_size(), (off_t)limit);
    close_store();
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
    for (int r = 0; r < ROOMS; r++) {
        expect_journal(codes[r], 1, EACH);
    }
}
END_TEST

START_TEST(a_torn_frame_ends_what_is_given_back)
{
    open_store(STORE_FSYNC_ALWAYS, 1);
    for (int i = 1; i <= 3; i++) {
        append("AAAAAA", i);
        run_until(&durable_seq, (uint64_t)i);
    }
    close_store();

    char path[PATH_MAX + 32];
    snprintf(path, sizeof(path), "%s/%s", rooms, WAL_NAME);
    int fd = open(path, O_WRONLY);
    ck_assert_int_ge(fd, 0);
    /* A byte of the third frame's record, as a torn write leaves it. */
    const off_t at = (off_t)(WAL_DATA + 2 * WAL_FRAME_SIZE(STORE_RECORD_SIZE(17)) + WAL_HEAD + 40);
    ck_assert_int_eq(pwrite(fd, "#", 1, at), 1);
    close(fd);
    remove_journal("AAAAAA");
    open_store(STORE_FSYNC_ALWAYS, 1);
    expect_journal("AAAAAA", 1, 2);
}
END_TEST

/* ---- Journals that lag behind the write-ahead file ---- */

static void open_lagging(uint64_t wal_bytes)
{
    open_store_cfg((struct store_config){.fsync = STORE_FSYNC_ALWAYS,
                                         .retry_ms = 5,
                                         .wal_bytes = wal_bytes,
                                         .lag_bytes = STORE_LAG_BYTES});
}

/* Runs the loop until a write job past the first `writes` is done and no
 * journal holds bytes back, or DEADLINE_MS pass. */
static void run_until_caught_up(uint64_t writes)
{
    uv_timer_t t;

    uv_update_time(&loop);
    uint64_t end = uv_now(&loop) + DEADLINE_MS;
    uv_timer_init(&loop, &t);
    uv_timer_start(&t, tick, 1, 1);
    while ((store_stats(st).writes <= writes || store_stats(st).lag_bytes > 0) &&
           uv_now(&loop) < end) {
        uv_run(&loop, UV_RUN_ONCE);
    }
    uv_close((uv_handle_t *)&t, NULL);
    uv_run(&loop, UV_RUN_NOWAIT);
}

static size_t record_size(int n)
{
    char line[64];
    return STORE_RECORD_SIZE((size_t)snprintf(line, sizeof(line), "{\"t\":\"act\",\"n\":%d}", n));
}

START_TEST(a_journal_lags_until_enough_of_it_waits)
{
    size_t held = 0, len;

    open_lagging(0);
    /* A new journal is made, with its first record, at once. */
    run_until(&durable_seq, append("AAAAAA", 1));
    expect_journal("AAAAAA", 1, 1);
    for (int n = 2;; n++) {
        held += record_size(n);
        run_until(&durable_seq, append("AAAAAA", n));
        ck_assert_uint_eq(durable_seq, (uint64_t)n);
        expect_read("AAAAAA", 1, n);
        json_decref(read_journal("AAAAAA", &len));
        if (held < STORE_LAG_BYTES) {
            /* Durable in the write-ahead file, not yet in the journal. */
            ck_assert_uint_eq(len, record_size(1));
            ck_assert_uint_eq(store_stats(st).lag_bytes, held);
            continue;
        }
        /* Enough waited: the job that took record n wrote them all. */
        ck_assert_uint_eq(len, record_size(1) + held);
        expect_journal("AAAAAA", 1, n);
        ck_assert_uint_eq(store_stats(st).lag_bytes, 0);
        ck_assert_int_gt(n, 10);
        break;
    }
    ck_assert_uint_eq(store_stats(st).checkpoints, 0);
}
END_TEST

START_TEST(release_writes_what_a_journal_held_back)
{
    open_lagging(0);
    run_until(&durable_seq, append("AAAAAA", 1));
    append("AAAAAA", 2);
    run_until(&durable_seq, append("AAAAAA", 3));
    expect_journal("AAAAAA", 1, 1);
    uint64_t writes = store_stats(st).writes;
    store_release(st, "AAAAAA");
    run_until_caught_up(writes);
    expect_journal("AAAAAA", 1, 3);
    /* Released and opened again: its next record goes after the three. */
    run_until(&durable_seq, append("AAAAAA", 4));
    expect_read("AAAAAA", 1, 4);
    close_store();
    expect_journal("AAAAAA", 1, 4);
}
END_TEST

START_TEST(stop_writes_every_journal_held_back)
{
    open_lagging(0);
    append("AAAAAA", 1);
    append("BBBBBB", 1);
    run_until(&durable_seq, append("CCCCCC", 1));
    append("AAAAAA", 2);
    append("BBBBBB", 2);
    append("AAAAAA", 3);
    run_until(&durable_seq, append("CCCCCC", 2));
    ck_assert_uint_eq(records_on_disk(), 3);
    ck_assert_uint_eq(records_recoverable(), 7);
    close_store();
    expect_journal("AAAAAA", 1, 3);
    expect_journal("BBBBBB", 1, 2);
    expect_journal("CCCCCC", 1, 2);
}
END_TEST

START_TEST(a_stopped_machine_loses_nothing_held_back)
{
    char crash[PATH_MAX + 32];

    open_lagging(0);
    append("AAAAAA", 1);
    run_until(&durable_seq, append("BBBBBB", 1));
    append("AAAAAA", 2);
    run_until(&durable_seq, append("AAAAAA", 3));
    /* The directory as a machine that stopped now leaves it. */
    snprintf(crash, sizeof(crash), "%s/crash", dir);
    copy_dir(rooms, crash);
    close_store();
    remove_dir(rooms);
    ck_assert_int_eq(rename(crash, rooms), 0);
    ck_assert_uint_eq(records_on_disk(), 2);
    open_lagging(0);
    ck_assert_int_eq(store_load(st, 42), 2);
    expect_journal("AAAAAA", 1, 3);
    expect_journal("BBBBBB", 1, 1);
}
END_TEST

/* Room in the write-ahead file for the frames of n records, not n + 1. */
#define WAL_FRAMES(n) (WAL_DATA + (n)*WAL_FRAME_SIZE(STORE_RECORD_SIZE(17)) + 8)

START_TEST(a_checkpoint_writes_every_journal_held_back)
{
    open_lagging(WAL_FRAMES(5));
    append("AAAAAA", 1);
    append("BBBBBB", 1);
    run_until(&durable_seq, append("CCCCCC", 1));
    run_until(&durable_seq, append("AAAAAA", 2));
    run_until(&durable_seq, append("BBBBBB", 2));
    ck_assert_uint_eq(records_on_disk(), 3);
    /* Its frame does not fit: the journals are written and flushed. */
    run_until(&durable_seq, append("CCCCCC", 2));
    ck_assert_uint_eq(durable_seq, 6);
    ck_assert_uint_eq(store_stats(st).checkpoints, 1);
    ck_assert_uint_eq(store_stats(st).lag_bytes, 0);
    expect_journal("AAAAAA", 1, 2);
    expect_journal("BBBBBB", 1, 2);
    expect_journal("CCCCCC", 1, 2);
}
END_TEST

START_TEST(a_held_back_journal_that_fails_holds_the_checkpoint)
{
    struct store_fault fault = {.write_fails = 1000000};

    open_lagging(WAL_FRAMES(4));
    append("AAAAAA", 1);
    run_until(&durable_seq, append("BBBBBB", 1));
    run_until(&durable_seq, append("AAAAAA", 2));
    run_until(&durable_seq, append("BBBBBB", 2));
    memcpy(fault.write_code, "AAAAAA", 7);
    store_set_fault(st, &fault);
    /* Room A's second record lives in the write-ahead file alone: the
     * checkpoint that would start the file again waits for it. */
    uint64_t seq = append("BBBBBB", 3);
    run_until_failures(3);
    ck_assert_uint_eq(durable_seq, 4);
    ck_assert_uint_eq(store_stats(st).checkpoints, 0);
    ck_assert_uint_eq(failing_rooms, 1);
    /* B's three are in its journal (not yet flushed), A's second in the
     * write-ahead file alone. */
    ck_assert_uint_eq(records_on_disk(), 4);
    ck_assert_uint_eq(records_recoverable(), 5);
    expect_journal("AAAAAA", 1, 1);
    expect_read("AAAAAA", 1, 2);
    expect_read("BBBBBB", 1, 3);
    store_set_fault(st, NULL);
    run_until(&durable_seq, seq);
    ck_assert_uint_eq(store_stats(st).checkpoints, 1);
    run_until(&caught_up_calls, 1);
    ck_assert_uint_eq(failing_rooms, 0);
    expect_journal("AAAAAA", 1, 2);
    expect_journal("BBBBBB", 1, 3);
}
END_TEST

static bool expired;

static void expire(uv_timer_t *t)
{
    (void)t;
    expired = true;
}

/* Runs the loop until `*value` reaches `want` or DEADLINE_MS pass, with
 * nothing else to wake it: a record left waiting for I/O that never comes
 * is not written until the deadline. */
static void run_quietly_until(const uint64_t *value, uint64_t want)
{
    uv_timer_t t;

    expired = false;
    uv_timer_init(&loop, &t);
    uv_timer_start(&t, expire, DEADLINE_MS, 0);
    while (*value < want && !expired) {
        uv_run(&loop, UV_RUN_ONCE);
    }
    uv_close((uv_handle_t *)&t, NULL);
    uv_run(&loop, UV_RUN_NOWAIT);
}

/* One record, and its write job: true when the job ran on the loop,
 * which must be exactly when the jobs' average before it was within
 * `bound` (and never with pool_only). */
static bool one_job(int n, uint64_t bound)
{
    struct store_stats before = store_stats(st);

    run_until(&durable_seq, append("AAAAAA", n));
    struct store_stats after = store_stats(st);
    ck_assert_uint_eq(after.writes, before.writes + 1);
    bool on_loop = after.loop_jobs > before.loop_jobs;
    ck_assert_int_eq(on_loop, !pool_only && before.work_avg_us <= bound);
    return on_loop;
}

START_TEST(quick_jobs_run_on_the_loop_and_slow_ones_on_the_pool)
{
    /* A bound of 20 ms, and a disk made three times slower than it: the
     * placement of each job is checked against the average the store
     * kept, whatever this machine's flushes take. */
    enum { BOUND_US = 20000 };
    open_store_cfg(
        (struct store_config){.fsync = STORE_FSYNC_ALWAYS, .retry_ms = 5, .loop_job_us = BOUND_US});
    int n = 0;
    ck_assert_int_eq(one_job(++n, BOUND_US), !pool_only); /* no average yet */
    one_job(++n, BOUND_US);

    /* Two slow jobs at most before the average passes the bound; then
     * the pool. */
    struct store_fault slow = {.work_delay_us = 3 * BOUND_US};
    store_set_fault(st, &slow);
    int on_loop = 0;
    for (int i = 0; i < 6; i++) {
        on_loop += one_job(++n, BOUND_US);
    }
    ck_assert_int_le(on_loop, 2);
    ck_assert_uint_gt(store_stats(st).work_avg_us, BOUND_US);

    /* Quick again: the pool's jobs bring the average down, and jobs come
     * back to the loop. */
    store_set_fault(st, NULL);
    bool back = false;
    while (!back && n < 500) {
        back = one_job(++n, BOUND_US);
    }
    ck_assert_int_eq(back, !pool_only);
    expect_journal("AAAAAA", 1, n);
}
END_TEST

/* The owner answers each durable report with a new record, as a room
 * does when a reply it sends makes a change: each is written with nothing
 * else happening on the loop. */
static void report_appends(enum store_fsync policy)
{
    open_store(policy, 600000);
    append_on_durable = 3;
    uv_update_time(&loop);
    run_quietly_until(&durable_seq, append("AAAAAA", 1) + 3);
    ck_assert_uint_eq(durable_seq, 4);
    ck_assert_int_eq(append_on_durable, 0);
    close_store();
    expect_journal("AAAAAA", 1, 1);
    expect_journal("BBBBBB", 1, 3);
}

START_TEST(records_the_durable_report_appends_are_flushed_without_more_io)
{
    report_appends(STORE_FSYNC_ALWAYS);
}
END_TEST

START_TEST(records_the_durable_report_appends_are_written_without_more_io)
{
    report_appends(STORE_FSYNC_NEVER);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"fsync_names", fsync_names},
        {"append_numbers_records_and_reports_them_durable",
         append_numbers_records_and_reports_them_durable},
        {"failed_append_appends_nothing", failed_append_appends_nothing},
        {"append_fault_reports_its_errno", append_fault_reports_its_errno},
        {"append_refuses_a_code_that_is_no_file_name", append_refuses_a_code_that_is_no_file_name},
        {"batch_groups_records_into_one_write", batch_groups_records_into_one_write},
        {"many_journals_each_get_their_own_records", many_journals_each_get_their_own_records},
        {"max_open", journals_beyond_max_open_close_between_writes},
        {"always_starts_a_write_at_the_end_of_the_turn",
         always_starts_a_write_at_the_end_of_the_turn},
        {"never_reports_durable_once_written_without_batch_wait",
         never_reports_durable_once_written_without_batch_wait},
        {"failed_writes_are_retried_and_reported_until_caught_up",
         failed_writes_are_retried_and_reported_until_caught_up},
        {"records_appended_while_failing_keep_their_order",
         records_appended_while_failing_keep_their_order},
        {"one_failing_journal_does_not_hold_the_others",
         one_failing_journal_does_not_hold_the_others},
        {"failed_sync_withholds_durable_without_writing_twice",
         failed_sync_withholds_durable_without_writing_twice},
        {"failures_under_never_are_retried_too", failures_under_never_are_retried_too},
        {"backlog_over_its_bound_refuses_appends_until_durable",
         backlog_over_its_bound_refuses_appends_until_durable},
        {"unwritten_bytes_over_their_bound_refuse_appends",
         unwritten_bytes_over_their_bound_refuse_appends},
        {"forget_removes_the_journal", forget_removes_the_journal},
        {"stop_writes_what_waits", stop_writes_what_waits},
        {"forget_while_stopping_still_removes_the_journal",
         forget_while_stopping_still_removes_the_journal},
        {"load_hands_each_journal_to_restore", load_hands_each_journal_to_restore},
        {"load_truncates_a_torn_tail", load_truncates_a_torn_tail},
        {"load_sets_aside_a_journal_that_does_not_replay",
         load_sets_aside_a_journal_that_does_not_replay},
        {"read_gives_every_record_wherever_it_is", read_gives_every_record_wherever_it_is},
        {"load_removes_a_journal_its_owner_does_not_keep",
         load_removes_a_journal_its_owner_does_not_keep},
        {"a_frame_carries_the_crc32c_of_its_head_and_payload",
         a_frame_carries_the_crc32c_of_its_head_and_payload},
        {"wal_gives_back_what_a_stopped_machine_lost", wal_gives_back_what_a_stopped_machine_lost},
        {"wal_keeps_a_removed_journal_removed", wal_keeps_a_removed_journal_removed},
        {"a_full_wal_flushes_the_journals_and_starts_again",
         a_full_wal_flushes_the_journals_and_starts_again},
        {"a_torn_frame_ends_what_is_given_back", a_torn_frame_ends_what_is_given_back},
        {"a_disk_without_room_for_the_file_shortens_its_lap",
         a_disk_without_room_for_the_file_shortens_its_lap},
        {"frames_past_the_first_megabyte_are_given_back",
         frames_past_the_first_megabyte_are_given_back},
        {"a_journal_lags_until_enough_of_it_waits", a_journal_lags_until_enough_of_it_waits},
        {"release_writes_what_a_journal_held_back", release_writes_what_a_journal_held_back},
        {"stop_writes_every_journal_held_back", stop_writes_every_journal_held_back},
        {"a_stopped_machine_loses_nothing_held_back", a_stopped_machine_loses_nothing_held_back},
        {"a_checkpoint_writes_every_journal_held_back",
         a_checkpoint_writes_every_journal_held_back},
        {"a_held_back_journal_that_fails_holds_the_checkpoint",
         a_held_back_journal_that_fails_holds_the_checkpoint},
        {"quick_jobs_run_on_the_loop_and_slow_ones_on_the_pool",
         quick_jobs_run_on_the_loop_and_slow_ones_on_the_pool},
        {"records_the_durable_report_appends_are_flushed_without_more_io",
         records_the_durable_report_appends_are_flushed_without_more_io},
        {"records_the_durable_report_appends_are_written_without_more_io",
         records_the_durable_report_appends_are_written_without_more_io},
    };
    if (sodium_init() < 0) {
        return EXIT_FAILURE;
    }
    return CK_RUN("journal", cases, setup, teardown);
}
