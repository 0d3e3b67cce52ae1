/* SPDX-License-Identifier: MIT */
/*
 * bench_util.h - what the load programs of bench/ share.
 */
#ifndef CONCLAVE_BENCH_UTIL_H
#define CONCLAVE_BENCH_UTIL_H

#include <stddef.h>
#include <sys/types.h>

/* Seconds on the monotonic clock. */
double now_s(void);

/* Sleeps `s` seconds, through signals. */
void sleep_s(double s);

/* qsort's comparison of doubles. */
int cmp_double(const void *a, const void *b);

/* The median of v[0..n) (sorts v); 0 when n is 0. */
double median(double *v, int n);

/* Writes all n bytes (through EINTR and partial writes). 0 or -1. */
int write_all(int fd, const char *buf, size_t n);

/* CPU time (user + system, all threads) of process `pid` in seconds. */
double proc_cpu_s(pid_t pid);

/* A "Key:   123 kB" line of /proc/PID/status, in KiB, or 0. */
long proc_status_kb(pid_t pid, const char *key);

/* Makes a fresh directory from `pattern` (a mkdtemp template, at most 63
 * bytes) in dir[64]. 0, or -1 after saying why as `who`. */
int bench_dir_make(const char *who, const char *pattern, char dir[64]);

/* Starts argv[0] with `argv` (NULL-terminated), its stdout and stderr in
 * DIR/stdout and DIR/stderr, with `preload` as its LD_PRELOAD (and
 * BENCH_DETRAND_SEED=1) when not NULL, and waits up to 10 s for its
 * "listening on 127.0.0.1:PORT" line. 0 with *ret_pid and *ret_port set;
 * -1 after saying why as `who`, the process killed. */
int bench_spawn(const char *who, const char *dir, char *const argv[], const char *preload,
                pid_t *ret_pid, int *ret_port);

#endif
