/* SPDX-License-Identifier: MIT */
/*
 * bench_load.c - load on a real conclaved: ROOMS two-player rooms whose
 * players act as fast as the server lets them, over TCP from one process.
 *
 * It starts the server (path in $CONCLAVED or argv[1]) on 127.0.0.1:0 with
 * a fresh data directory and the given --fsync policy, plays every room to
 * its end, then stops the server and prints accepted actions per second,
 * the act round trip (mean and 99th percentile), how many journal records
 * each fsync covered (from the server's closing log line), and the
 * server's peak resident memory.
 *
 * usage: bench_load [CONCLAVED] [ROOMS] [GAME] [FSYNC] [SECONDS]
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>

#include "proto.h"

#define MAX_CONNS 512

enum want { W_LEGAL, W_ACT, W_EVENT, W_DONE };

struct conn {
    int fd;
    struct proto_framer fr;
    enum want want;
    int diffs_since_legal;
    double sent_at;
};

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void send_line(struct conn *c, const char *fmt, const char *arg)
{
    char buf[8192];
    int n = snprintf(buf, sizeof(buf), fmt, arg);
    ssize_t off = 0;

    while (off < n) {
        ssize_t w = write(c->fd, buf + off, (size_t)(n - off));
        if (w <= 0) {
            if (errno == EINTR) {
                continue;
            }
            return;
        }
        off += w;
    }
}

/* Blocks until one whole message arrives on c. New reference or NULL. */
static json_t *read_msg(struct conn *c)
{
    for (;;) {
        const char *line;
        size_t len;
        if (proto_framer_next(&c->fr, &line, &len) > 0) {
            return json_loadb(line, len, 0, NULL);
        }
        char buf[65536];
        ssize_t n = read(c->fd, buf, sizeof(buf));
        if (n <= 0 || proto_framer_feed(&c->fr, buf, (size_t)n) != 0) {
            return NULL;
        }
    }
}

/* Sends a request and returns its reply, dropping events. */
static json_t *roundtrip(struct conn *c, const char *line, const char *arg)
{
    send_line(c, line, arg);
    for (;;) {
        json_t *m = read_msg(c);
        if (!m || json_object_get(m, "re")) {
            return m;
        }
        json_decref(m);
    }
}

static int dial(int port, struct conn *c)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};

    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
        return -1;
    }
    proto_framer_init(&c->fr, PROTO_OUT_LINE_MAX + 1);
    json_t *r = roundtrip(c, "{\"id\":1,\"op\":\"hello\",\"proto\":1,\"name\":\"%s\"}\n", "bench");
    int ok = json_is_true(json_object_get(r, "ok"));
    json_decref(r);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *bin = argc > 1 ? argv[1] : getenv("CONCLAVED");
    int rooms = argc > 2 ? atoi(argv[2]) : 50;
    const char *game = argc > 3 ? argv[3] : "stones";
    const char *fsync_policy = argc > 4 ? argv[4] : "batch";
    double limit = argc > 5 ? atof(argv[5]) : 20.0;
    char dir[] = "/tmp/conclave-bench-XXXXXX";
    int out[2], errp[2];
    static struct conn conns[MAX_CONNS];
    static double lat[1 << 20];
    size_t nlat = 0;
    long actions = 0;

    if (!bin || rooms < 1 || rooms * 2 > MAX_CONNS || !mkdtemp(dir)) {
        fprintf(stderr, "usage: bench_load CONCLAVED [ROOMS<=256] [GAME] [FSYNC] [SECONDS]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    if (pipe(out) != 0 || pipe(errp) != 0) {
        return 1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(errp[1], 2);
        close(out[0]);
        close(errp[0]);
        execl(bin, bin, "--listen", "127.0.0.1:0", "--data-dir", dir, "--fsync", fsync_policy,
              "--rate", "1000000", "--rate-burst", "1000000", "--max-per-address", "10000",
              (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    close(errp[1]);
    char line[256] = "";
    ssize_t n = read(out[0], line, sizeof(line) - 1);
    int port = 0;
    if (n <= 0 || sscanf(line, "listening on 127.0.0.1:%d", &port) != 1) {
        fprintf(stderr, "bench_load: the server did not start\n");
        return 1;
    }

    int nconns = rooms * 2;
    for (int r = 0; r < rooms; r++) {
        struct conn *a = &conns[2 * r], *b = &conns[2 * r + 1];
        char req[256];
        if (dial(port, a) != 0 || dial(port, b) != 0) {
            fprintf(stderr, "bench_load: connect failed\n");
            return 1;
        }
        snprintf(req, sizeof(req), "{\"id\":2,\"op\":\"create\",\"game\":\"%s\",\"seats\":2}\n", game);
        json_t *cr = roundtrip(a, "%s", req);
        const char *code = json_string_value(json_object_get(cr, "room"));
        if (!code) {
            fprintf(stderr, "bench_load: create failed\n");
            return 1;
        }
        json_decref(roundtrip(b, "{\"id\":2,\"op\":\"join\",\"room\":\"%s\"}\n", code));
        json_decref(cr);
    }
    double t0 = now_s();
    for (int r = 0; r < rooms; r++) {
        json_decref(roundtrip(&conns[2 * r], "{\"id\":3,\"op\":\"start\"}\n", ""));
    }
    for (int i = 0; i < nconns; i++) {
        conns[i].want = W_LEGAL;
        send_line(&conns[i], "{\"id\":10,\"op\":\"legal\"}\n", "");
        conns[i].diffs_since_legal = 0;
    }
    int done = 0;
    struct pollfd pfd[MAX_CONNS];
    while (done < nconns && now_s() - t0 < limit) {
        for (int i = 0; i < nconns; i++) {
            pfd[i].fd = conns[i].want == W_DONE ? -1 : conns[i].fd;
            pfd[i].events = POLLIN;
        }
        if (poll(pfd, (nfds_t)nconns, 1000) <= 0) {
            continue;
        }
        for (int i = 0; i < nconns; i++) {
            struct conn *c = &conns[i];
            if (!(pfd[i].revents & POLLIN)) {
                continue;
            }
            char buf[65536];
            ssize_t got = read(c->fd, buf, sizeof(buf));
            if (got <= 0 || proto_framer_feed(&c->fr, buf, (size_t)got) != 0) {
                c->want = W_DONE;
                done++;
                continue;
            }
            const char *ln;
            size_t len;
            while (c->want != W_DONE && proto_framer_next(&c->fr, &ln, &len) > 0) {
                json_t *m = json_loadb(ln, len, 0, NULL);
                const char *ev = json_string_value(json_object_get(m, "ev"));
                if (ev && strcmp(ev, "ended") == 0) {
                    c->want = W_DONE;
                    done++;
                } else if (ev && strcmp(ev, "diff") == 0) {
                    c->diffs_since_legal++;
                    if (c->want == W_EVENT) {
                        c->want = W_LEGAL;
                        c->diffs_since_legal = 0;
                        send_line(c, "{\"id\":10,\"op\":\"legal\"}\n", "");
                    }
                } else if (json_object_get(m, "re") && c->want == W_LEGAL) {
                    json_t *acts = json_object_get(m, "actions");
                    if (json_array_size(acts) > 0) {
                        char *a = json_dumps(json_array_get(acts, 0), JSON_COMPACT);
                        c->want = W_ACT;
                        c->sent_at = now_s();
                        send_line(c, "{\"id\":11,\"op\":\"act\",\"action\":%s}\n", a);
                        free(a);
                    } else if (c->diffs_since_legal > 0) {
                        c->diffs_since_legal = 0;
                        send_line(c, "{\"id\":10,\"op\":\"legal\"}\n", "");
                    } else {
                        c->want = W_EVENT;
                    }
                } else if (json_object_get(m, "re") && c->want == W_ACT) {
                    if (json_is_true(json_object_get(m, "ok"))) {
                        actions++;
                        if (nlat < sizeof(lat) / sizeof(lat[0])) {
                            lat[nlat++] = now_s() - c->sent_at;
                        }
                    }
                    c->want = W_LEGAL;
                    c->diffs_since_legal = 0;
                    send_line(c, "{\"id\":10,\"op\":\"legal\"}\n", "");
                }
                json_decref(m);
            }
        }
    }
    double elapsed = now_s() - t0;
    long hwm_kb = 0;
    {
        char path[64], buf[4096];
        snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
        FILE *f = fopen(path, "r");
        while (f && fgets(buf, sizeof(buf), f)) {
            if (sscanf(buf, "VmHWM: %ld kB", &hwm_kb) == 1) {
                break;
            }
        }
        if (f) {
            fclose(f);
        }
    }
    kill(pid, SIGTERM);
    char log[1 << 16];
    size_t have = 0;
    while ((n = read(errp[0], log + have, sizeof(log) - 1 - have)) > 0) {
        have += (size_t)n;
    }
    log[have] = '\0';
    waitpid(pid, NULL, 0);
    unsigned long long records = 0, writes = 0, fsyncs = 0;
    const char *j = strstr(log, "journal: ");
    if (j) {
        sscanf(j, "journal: %llu records in %llu writes, %llu fsyncs", &records, &writes, &fsyncs);
    }
    qsort(lat, nlat, sizeof(lat[0]), cmp_double);
    double sum = 0;
    for (size_t i = 0; i < nlat; i++) {
        sum += lat[i];
    }
    printf("game %s, %d rooms, fsync %s: %ld actions in %.2f s = %.0f actions/s\n", game, rooms,
           fsync_policy, actions, elapsed, (double)actions / elapsed);
    if (nlat) {
        printf("act round trip: mean %.2f ms, p50 %.2f ms, p99 %.2f ms\n", 1000 * sum / (double)nlat,
               1000 * lat[nlat / 2], 1000 * lat[nlat * 99 / 100]);
    }
    printf("journal: %llu records, %llu writes, %llu fsyncs (%.1f records per fsync)\n", records,
           writes, fsyncs, fsyncs ? (double)records / (double)fsyncs : 0.0);
    printf("server peak resident memory: %.1f MiB (%.0f KiB per room)\n", (double)hwm_kb / 1024.0,
           (double)hwm_kb / rooms);
    for (int i = 0; i < nconns; i++) {
        close(conns[i].fd);
        proto_framer_fini(&conns[i].fr);
    }
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : 1;
}
