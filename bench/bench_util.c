/* SPDX-License-Identifier: MIT */
/*
 * bench_util.c - what the load programs of bench/ share: clocks, a median,
 * whole writes, and a process's CPU time and memory read from /proc.
 */
#include "bench_util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void sleep_s(double s)
{
    struct timespec ts = {.tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)};

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double median(double *v, int n)
{
    if (n == 0) {
        return 0;
    }
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int write_all(int fd, const char *buf, size_t n)
{
    size_t off = 0;

    while (off < n) {
        ssize_t w = write(fd, buf + off, n - off);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        off += (size_t)w;
    }
    return 0;
}

/* CPU time (user + system, all threads) of process `pid` in seconds: the
 * utime + stime of /proc/PID/stat, read through the process's CPU clock,
 * which counts nanoseconds where /proc counts 10 ms ticks. Falls back to
 * /proc/PID/stat; 0 when neither can be read. */
double proc_cpu_s(pid_t pid)
{
    clockid_t clk;
    struct timespec ts;

    if (clock_getcpuclockid(pid, &clk) == 0 && clock_gettime(clk, &ts) == 0) {
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    }
    char path[64], buf[1024];
    unsigned long long ut = 0, st = 0;
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) {
        return 0;
    }
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* The command name may hold spaces; the fields after it do not. */
    char *p = strrchr(buf, ')');
    if (!p ||
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2) {
        return 0;
    }
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* A "Key:   123 kB" line of /proc/PID/status, in KiB, or 0. */
long proc_status_kb(pid_t pid, const char *key)
{
    char path[64], line[256];
    long v = 0;
    size_t kl = strlen(key);

    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof(line), f)) {
        if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
            v = atol(line + kl + 1);
            break;
        }
    }
    if (f) {
        fclose(f);
    }
    return v;
}

int bench_dir_make(const char *who, const char *pattern, char dir[64])
{
    snprintf(dir, 64, "%s", pattern);
    if (!mkdtemp(dir)) {
        fprintf(stderr, "%s: mkdtemp: %s\n", who, strerror(errno));
        return -1;
    }
    return 0;
}

int bench_spawn(const char *who, const char *dir, char *const argv[], const char *preload,
                pid_t *ret_pid, int *ret_port)
{
    char out[96], err[96];
    pid_t pid;

    snprintf(out, sizeof(out), "%s/stdout", dir);
    snprintf(err, sizeof(err), "%s/stderr", dir);
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "%s: fork: %s\n", who, strerror(errno));
        return -1;
    }
    if (pid == 0) {
        if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr)) {
            _exit(126);
        }
        signal(SIGPIPE, SIG_DFL);
        if (preload && *preload) {
            setenv("LD_PRELOAD", preload, 1);
            setenv("BENCH_DETRAND_SEED", "1", 1);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    double deadline = now_s() + 10;
    while (now_s() < deadline) {
        char line[256] = "";
        FILE *f = fopen(out, "r");
        if (f) {
            if (!fgets(line, sizeof(line), f)) {
                line[0] = '\0';
            }
            fclose(f);
        }
        if (sscanf(line, "listening on 127.0.0.1:%d", ret_port) == 1) {
            *ret_pid = pid;
            return 0;
        }
        if (waitpid(pid, NULL, WNOHANG) == pid) {
            break;
        }
        sleep_s(0.01);
    }
    fprintf(stderr, "%s: %s did not start (its output is in %s)\n", who, argv[0], dir);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}
