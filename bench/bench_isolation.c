/* SPDX-License-Identifier: MIT */
/*
 * bench_isolation.c - how much one abusive client disturbs a victim room, on
 * a fresh conclaved with its default limits (only the data directory and a
 * port of 127.0.0.1:0 are given).
 *
 * The victim is one two-seat room whose seats act at a steady pace: when a
 * move is due, the seat on turn (read from its view, kept up to date from the
 * state and diff events) asks `legal` and sends `act` with an action of the
 * list, drawn by a seeded generator. The act round trip (request written to
 * reply read) is recorded. When a game ends, the seats set up a new room and
 * play on. The default pace, 40 moves/s, is what the default rate limit
 * (50 requests/s per connection, a burst of 100) lets two seats play with
 * margin: each move costs the seat on turn two requests. The victim runs throughout while phases of
 * fixed length follow one another, each with at most one abuser, a child process that connects from
 * its own source address (127.0.0.2 by default):
 *
 *   idle      nothing else.
 *   control   a busy loop on the same cores for an abuser's duty cycle
 *             (default half a core, about what the busiest abusers below use
 *             on a two-core machine; each abuser's CPU is printed beside
 *             it), talking to nobody.
 *   garbage   one connection writing random bytes and broken JSON, line
 *             after line, as fast as the server takes them; reading and
 *             dropping what comes back; reconnecting when closed.
 *   max-size  the same with lines of exactly the server's line limit: valid
 *             JSON (a long string, thousands of keys, a long array) and
 *             invalid (an unterminated string).
 *   churn     connect, hello, wait for the reply, close, again.
 *   slow      a spectator of the victim room with a small receive buffer
 *             that asks for `sync` at the default rate limit and never
 *             reads; it follows the victim to each new room.
 *
 * Per phase it prints the victim's moves/s, act p50/p99/max and p99 over the
 * control phase's p99, the server's CPU, the abuser's CPU, bytes, lines and
 * connections, and what the server answered it. It only prints: nothing is
 * asserted. Runs are bounded in time and stop by themselves.
 *
 * usage: bench_isolation [--conclaved PATH] [--game G] [--seconds S] [--warmup S]
 *                        [--gap S] [--pace MOVES_PER_S] [--duty FRACTION]
 *                        [--slow-rate N] [--max-line BYTES] [--abuser-addr ADDR]
 *                        [--repeat N] [--seed N]
 *                        [--phases idle,control,garbage,maxline,churn,slow]
 * PATH defaults to $CONCLAVED; --phases runs a subset, in the order above.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "proto.h"

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

#define REPEAT_MAX 16
#define GARBAGE_BYTES (1u << 20)
#define SLOW_RCVBUF 4096

/* ---- Configuration and results ---- */

enum phase { PH_IDLE, PH_CONTROL, PH_GARBAGE, PH_MAXLINE, PH_CHURN, PH_SLOW, PH_COUNT };

static const char *const phase_name[PH_COUNT] = {
    "idle", "control", "garbage", "max-size lines", "churn", "slow reader",
};

/* The names --phases takes. */
static const char *const phase_key[PH_COUNT] = {
    "idle", "control", "garbage", "maxline", "churn", "slow",
};

struct config {
    const char *conclaved;
    const char *game;
    const char *abuser_addr; /* "" when the abuser may not bind its own */
    double seconds;
    double warmup;
    double gap;
    double pace;      /* victim moves per second */
    double duty;      /* control: share of one core */
    double slow_rate; /* slow reader: sync requests per second */
    size_t max_line;
    int repeat;
    unsigned seed;
    unsigned phases; /* bit per enum phase: the phases to run */
};

/* What one abuser did and heard, written by the child into a pipe. */
struct abuse_stats {
    uint64_t sent;                    /* bytes written */
    uint64_t lines;                   /* lines written */
    uint64_t received;                /* bytes read */
    uint64_t conns;                   /* connections made */
    uint64_t dial_fail;               /* connection attempts that failed */
    uint64_t closed;                  /* connections the server ended (end of stream or reset) */
    uint64_t ok;                      /* replies with "ok":true */
    uint64_t codes[PROTO_ERR__COUNT]; /* error replies and events by code */
    uint64_t held;                    /* slow reader: bytes still owed to it at the end */
};

struct phase_result {
    bool ran;
    long moves;
    double secs;
    double p50, p99, pmax; /* act round trip, ms */
    long refused;          /* victim requests refused */
    long rate_limited;     /* ... of which rate_limited */
    long games;            /* victim rooms started in the phase */
    double server_cpu;     /* share of one core */
    double server_wait;    /* server's loop thread: run-queue wait, share of the phase */
    double self_wait;      /* the victim's: run-queue wait, share of the phase */
    long rss_kb;           /* server VmRSS at the end of the phase */
    long hwm_kb;           /* server VmHWM at the end of the phase */
    double abuser_cpu;     /* share of one core */
    struct abuse_stats ab;
};

/* Milliseconds from now until `t`, at least 0 and at most `cap`. */
static int ms_until(double t, int cap)
{
    double ms = (t - now_s()) * 1000;

    if (ms <= 0) {
        return 0;
    }
    return ms >= cap ? cap : (int)ms + 1;
}

static double children_cpu_s(void)
{
    struct rusage ru;

    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* xorshift64*: the abusers' bytes and the victim's picks, repeatable. */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* ---- The server process ---- */

struct server {
    pid_t pid;
    int port;
    char dir[64];
};

/* Seconds the main thread of `pid` (0: this process) has spent runnable
 * but waiting for a core, from its schedstat; 0 when unknown. */
static double proc_wait_s(pid_t pid)
{
    char path[64];
    unsigned long long run = 0, wait = 0;

    if (pid) {
        snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
    } else {
        snprintf(path, sizeof(path), "/proc/self/schedstat");
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        return 0;
    }
    if (fscanf(f, "%llu %llu", &run, &wait) != 2) {
        wait = 0;
    }
    fclose(f);
    return (double)wait / 1e9;
}

/* Starts conclaved on 127.0.0.1:0 with a fresh data directory and no other
 * option, and waits for its "listening on" line. Returns 0 and fills *s, or
 * -1 with a message on stderr. */
static int server_start(struct server *s, const struct config *cfg)
{
    char data[96];

    memset(s, 0, sizeof(*s));
    if (bench_dir_make("bench_isolation", "/tmp/conclave-isolation-XXXXXX", s->dir) != 0) {
        return -1;
    }
    snprintf(data, sizeof(data), "%s/data", s->dir);
    char *argv[] = {(char *)cfg->conclaved, "--listen", "127.0.0.1:0", "--data-dir", data, NULL};
    return bench_spawn("bench_isolation", s->dir, argv, NULL, &s->pid, &s->port);
}

/* Counts the lines of conclaved's log that hold `needle`. */
static long log_count(const struct server *s, const char *needle)
{
    char path[96], line[1024];
    long n = 0;

    snprintf(path, sizeof(path), "%s/stderr", s->dir);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof(line), f)) {
        n += strstr(line, needle) != NULL;
    }
    if (f) {
        fclose(f);
    }
    return n;
}

/* Stops the server: SIGTERM, then SIGKILL after 10 s. */
static void server_stop(struct server *s)
{
    if (s->pid <= 0) {
        return;
    }
    kill(s->pid, SIGTERM);
    double deadline = now_s() + 10;
    while (waitpid(s->pid, NULL, WNOHANG) != s->pid) {
        if (now_s() > deadline) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, NULL, 0);
            break;
        }
        sleep_s(0.01);
    }
    s->pid = 0;
}

/* Removes the server's directory. */
static void server_remove(struct server *s)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "bench_isolation: could not remove %s\n", s->dir);
    }
}

/* ---- The victim room ---- */

struct seat {
    int fd;
    struct proto_framer fr;
    json_t *view;       /* this seat's view, NULL before the first state */
    long long view_rev; /* the rev of `view` */
    long next_id;
    long pending; /* id of the reply awaited, 0 none */
    bool ended;   /* `ended` seen for the current room */
    int no;       /* seat number in the room */
};

enum vstate { V_CREATE, V_JOIN, V_START, V_PLAY, V_LEGAL, V_ACT, V_OVER };

struct victim {
    struct seat s[2];
    enum vstate st;
    char room[16];
    long long rev; /* the room's rev after the last accepted act or start */
    int actor;     /* index in s[] of the seat moving now */
    double due;    /* when the next move begins */
    double interval;
    double sent_at; /* when the outstanding act was written */
    uint64_t rng;
    int room_fd; /* where new room codes go (the slow reader), or -1 */
    const char *game;
    bool recording;
    double *lat;
    size_t nlat, lat_cap;
    long moves, refused, rate_limited, games;
    bool failed;
};

static void victim_fail(struct victim *v, const char *fmt, ...)
{
    va_list ap;

    if (v->failed) {
        return;
    }
    v->failed = true;
    fprintf(stderr, "bench_isolation: victim: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static int dial(int port, const char *src, int rcvbuf)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    int one = 1;
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0) {
        return -1;
    }
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    if (rcvbuf > 0) {
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
    }
    if (src && *src) {
        struct sockaddr_in from = {.sin_family = AF_INET};
        inet_pton(AF_INET, src, &from.sin_addr);
        setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one));
        if (bind(fd, (struct sockaddr *)&from, sizeof(from)) != 0) {
            close(fd);
            return -1;
        }
    }
    if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
        close(fd);
        return -1;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return fd;
}

/* Sends one request on `s`: `fmt` is its members after "id", without
 * braces. Returns the id used. */
static long seat_request(struct victim *v, struct seat *s, const char *fmt, ...)
{
    char buf[8192];
    long id = s->next_id++;
    int head = snprintf(buf, sizeof(buf), "{\"id\":%ld,", id);
    va_list ap;

    va_start(ap, fmt);
    int n = vsnprintf(buf + head, sizeof(buf) - (size_t)head, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)(head + n + 2) >= sizeof(buf)) {
        victim_fail(v, "a request of more than %zu bytes", sizeof(buf));
        return 0;
    }
    buf[head + n] = '}';
    buf[head + n + 1] = '\n';
    if (write_all(s->fd, buf, (size_t)(head + n + 2)) != 0) {
        victim_fail(v, "writing to the server: %s", strerror(errno));
    }
    s->pending = id;
    return id;
}

static void room_begin(struct victim *v)
{
    for (int i = 0; i < 2; i++) {
        json_decref(v->s[i].view);
        v->s[i].view = NULL;
        v->s[i].view_rev = 0;
        v->s[i].ended = false;
    }
    v->room[0] = '\0';
    v->st = V_CREATE;
    seat_request(v, &v->s[0], "\"op\":\"create\",\"game\":\"%s\",\"seats\":2", v->game);
}

static const char *error_code(const json_t *m)
{
    const char *code = json_string_value(json_object_get(json_object_get(m, "error"), "code"));
    return code ? code : "?";
}

/* Index in s[] of the seat that may move now, by the public `active` list of
 * a view at the room's current rev; -1 when there is none (yet). */
static int victim_actor(const struct victim *v)
{
    for (int i = 0; i < 2; i++) {
        const struct seat *s = &v->s[i];
        if (!s->view || s->view_rev != v->rev) {
            continue;
        }
        json_t *active = json_object_get(s->view, "active");
        size_t k;
        json_t *a;
        json_array_foreach(active, k, a) {
            for (int j = 0; j < 2; j++) {
                if (json_integer_value(a) == v->s[j].no) {
                    return j;
                }
            }
        }
        return -1;
    }
    return -1;
}

/* Moves the victim on: a new room once both seats saw the end, or the next
 * move once it is due and a seat is known to be on turn. */
static void victim_step(struct victim *v, double t)
{
    if (v->failed || (v->st != V_PLAY && v->st != V_OVER)) {
        return;
    }
    if (v->s[0].ended && v->s[1].ended) {
        room_begin(v);
        return;
    }
    if (v->st != V_PLAY || t < v->due) {
        return;
    }
    int k = victim_actor(v);
    if (k >= 0) {
        v->actor = k;
        v->st = V_LEGAL;
        seat_request(v, &v->s[k], "\"op\":\"legal\"");
    }
}

static void victim_refused(struct victim *v, const json_t *m, double t)
{
    const char *code = error_code(m);

    if (v->recording) {
        v->refused++;
        v->rate_limited += strcmp(code, "rate_limited") == 0;
    }
    v->st = strcmp(code, "game_over") == 0 || strcmp(code, "not_in_game") == 0 ? V_OVER : V_PLAY;
    v->due = t + v->interval;
}

static void victim_on_reply(struct victim *v, struct seat *s, const json_t *m, double t)
{
    bool ok = json_is_true(json_object_get(m, "ok"));

    switch (v->st) {
    case V_CREATE:
    case V_JOIN:
    case V_START:
        if (!ok) {
            victim_fail(v, "setting up a room: %s", error_code(m));
            return;
        }
        if (v->st == V_CREATE) {
            const char *code = json_string_value(json_object_get(m, "room"));
            if (!code || strlen(code) >= sizeof(v->room)) {
                victim_fail(v, "create: no room code in the reply");
                return;
            }
            snprintf(v->room, sizeof(v->room), "%s", code);
            v->s[0].no = (int)json_integer_value(json_object_get(m, "seat"));
            v->st = V_JOIN;
            seat_request(v, &v->s[1], "\"op\":\"join\",\"room\":\"%s\"", v->room);
        } else if (v->st == V_JOIN) {
            v->s[1].no = (int)json_integer_value(json_object_get(m, "seat"));
            v->st = V_START;
            seat_request(v, &v->s[0], "\"op\":\"start\"");
        } else {
            v->rev = json_integer_value(json_object_get(m, "rev"));
            v->st = V_PLAY;
            v->games += v->recording;
            if (v->due < t) {
                v->due = t;
            }
            if (v->room_fd >= 0) {
                char line[24];
                int n = snprintf(line, sizeof(line), "%s\n", v->room);
                (void)write_all(v->room_fd, line, (size_t)n);
            }
        }
        return;
    case V_LEGAL: {
        json_t *acts = json_object_get(m, "actions");
        if (!ok) {
            victim_refused(v, m, t);
            return;
        }
        size_t n = json_array_size(acts);
        if (n == 0) {
            v->st = V_PLAY; /* its view was older than the room: ask again later */
            v->due = t + v->interval / 4;
            return;
        }
        char *text = json_dumps(json_array_get(acts, rng_next(&v->rng) % n), JSON_COMPACT);
        if (!text) {
            victim_fail(v, "out of memory");
            return;
        }
        v->st = V_ACT;
        v->sent_at = now_s();
        seat_request(v, s, "\"op\":\"act\",\"action\":%s", text);
        free(text);
        return;
    }
    case V_ACT:
        if (!ok) {
            victim_refused(v, m, t);
            return;
        }
        if (v->recording) {
            if (v->nlat == v->lat_cap) {
                size_t cap = v->lat_cap ? v->lat_cap * 2 : 4096;
                double *grown = realloc(v->lat, cap * sizeof(*grown));
                if (!grown) {
                    victim_fail(v, "out of memory");
                    return;
                }
                v->lat = grown;
                v->lat_cap = cap;
            }
            v->lat[v->nlat++] = t - v->sent_at;
            v->moves++;
        }
        v->rev = json_integer_value(json_object_get(m, "rev"));
        v->st = V_PLAY;
        v->due += v->interval;
        if (v->due < t) {
            v->due = t; /* behind: go on from now, no burst to catch up */
        }
        return;
    case V_PLAY:
    case V_OVER:
        return;
    }
}

static void victim_on_event(struct victim *v, struct seat *s, json_t *m)
{
    const char *ev = json_string_value(json_object_get(m, "ev"));
    const char *room = json_string_value(json_object_get(m, "room"));

    if (!ev) {
        return; /* the reply to a sync sent without an id */
    }
    if (strcmp(ev, "error") == 0) {
        victim_fail(v, "error event %s: %s", error_code(m),
                    json_string_value(json_object_get(json_object_get(m, "error"), "message")));
        return;
    }
    if (!room || strcmp(room, v->room) != 0) {
        return;
    }
    long long rev = json_integer_value(json_object_get(m, "rev"));
    if (strcmp(ev, "state") == 0) {
        json_decref(s->view);
        s->view = json_incref(json_object_get(m, "view"));
        s->view_rev = rev;
    } else if (strcmp(ev, "diff") == 0) {
        if (s->view && rev == s->view_rev + 1 &&
            proto_patch_apply(&s->view, json_object_get(m, "patch")) == 0) {
            s->view_rev = rev;
        } else if (s->view) {
            json_decref(s->view);
            s->view = NULL;
            (void)write_all(s->fd, "{\"op\":\"sync\"}\n", 14);
        }
    } else if (strcmp(ev, "ended") == 0) {
        s->ended = true;
    }
}

static void victim_read(struct victim *v, struct seat *s)
{
    char buf[65536];
    ssize_t n = read(s->fd, buf, sizeof(buf));

    if (n <= 0) {
        victim_fail(v, "the server closed a seat's connection");
        return;
    }
    if (proto_framer_feed(&s->fr, buf, (size_t)n) != 0) {
        victim_fail(v, "a line longer than the protocol allows");
        return;
    }
    const char *line;
    size_t len;
    while (!v->failed && proto_framer_next(&s->fr, &line, &len) > 0) {
        json_t *m = json_loadb(line, len, 0, NULL);
        double t = now_s();
        json_t *re = json_object_get(m, "re");
        if (re) {
            if (s->pending && json_integer_value(re) == s->pending) {
                s->pending = 0;
                victim_on_reply(v, s, m, t);
            }
        } else if (m) {
            victim_on_event(v, s, m);
        }
        json_decref(m);
        victim_step(v, t);
    }
}

/* Runs the victim until `until`, or until it fails. */
static void victim_run(struct victim *v, double until)
{
    struct pollfd pfd[2] = {{.fd = v->s[0].fd, .events = POLLIN},
                            {.fd = v->s[1].fd, .events = POLLIN}};

    for (double t = now_s(); t < until && !v->failed; t = now_s()) {
        victim_step(v, t);
        /* A move that is due but waits for the views to catch up waits for
         * their events, not in a busy loop. */
        double next = v->st == V_PLAY && v->due > t && v->due < until ? v->due : until;
        int n = poll(pfd, 2, ms_until(next, 20));
        if (n < 0 && errno != EINTR) {
            victim_fail(v, "poll: %s", strerror(errno));
        }
        for (int i = 0; n > 0 && i < 2 && !v->failed; i++) {
            if (pfd[i].revents) {
                victim_read(v, &v->s[i]);
            }
        }
    }
}

static int victim_open(struct victim *v, const struct config *cfg, int port)
{
    memset(v, 0, sizeof(*v));
    v->room_fd = -1;
    v->game = cfg->game;
    v->interval = 1.0 / cfg->pace;
    v->rng = 0x9e3779b97f4a7c15ull ^ cfg->seed;
    for (int i = 0; i < 2; i++) {
        struct seat *s = &v->s[i];
        s->fd = dial(port, NULL, 0);
        if (s->fd < 0) {
            fprintf(stderr, "bench_isolation: cannot connect to the server\n");
            return -1;
        }
        proto_framer_init(&s->fr, PROTO_OUT_LINE_MAX + 1);
        s->next_id = 1;
        seat_request(v, s, "\"op\":\"hello\",\"proto\":1,\"name\":\"victim %d\"", i);
    }
    /* The hello replies are read by the loop; the create goes after them on
     * the same connection. */
    v->st = V_CREATE;
    v->s[0].pending = 0;
    v->s[1].pending = 0;
    room_begin(v);
    return 0;
}

static void victim_close(struct victim *v)
{
    for (int i = 0; i < 2; i++) {
        if (v->s[i].fd >= 0) {
            close(v->s[i].fd);
        }
        proto_framer_fini(&v->s[i].fr);
        json_decref(v->s[i].view);
    }
    free(v->lat);
}

/* ---- The abusers (child processes) ---- */

struct abuser {
    const struct config *cfg;
    int port;
    double deadline;
    struct abuse_stats st;
    struct proto_framer fr;
    uint64_t heard; /* lines read, all connections */
};

static int abuser_dial(struct abuser *a, int rcvbuf)
{
    int fd = dial(a->port, a->cfg->abuser_addr, rcvbuf);

    if (fd < 0) {
        a->st.dial_fail++;
        return -1;
    }
    a->st.conns++;
    proto_framer_fini(&a->fr);
    proto_framer_init(&a->fr, PROTO_OUT_LINE_MAX + 1);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

/* Writes one whole line or nothing (a full send buffer drops it). Returns
 * -1 when the connection is gone. */
static int abuser_send(struct abuser *a, int fd, const char *line)
{
    size_t len = strlen(line);
    ssize_t w = write(fd, line, len);

    if (w < 0) {
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
    }
    a->st.sent += (uint64_t)w;
    a->st.lines += (size_t)w == len;
    return 0;
}

static void abuser_hear(struct abuser *a, const char *line)
{
    a->heard++;
    if (strstr(line, "\"ok\":true")) {
        a->st.ok++;
        return;
    }
    const char *c = strstr(line, "\"code\":\"");
    if (!c) {
        return;
    }
    char name[32];
    size_t n = 0;
    for (c += 8; c[n] && c[n] != '"' && n < sizeof(name) - 1; n++) {
        name[n] = c[n];
    }
    name[n] = '\0';
    a->st.codes[proto_err_from_name(name)]++; /* [PROTO_OK]: a code unknown here */
}

/* Reads what the server sent on `fd` (non-blocking) and tallies it. Returns
 * -1 when the server has ended the connection. */
static int abuser_drain(struct abuser *a, int fd)
{
    char buf[65536];

    for (;;) {
        ssize_t n = read(fd, buf, sizeof(buf));
        if (n > 0) {
            const char *line;
            size_t len;
            a->st.received += (uint64_t)n;
            if (proto_framer_feed(&a->fr, buf, (size_t)n) != 0) {
                proto_framer_fini(&a->fr);
                proto_framer_init(&a->fr, PROTO_OUT_LINE_MAX + 1);
            }
            while (proto_framer_next(&a->fr, &line, &len) > 0) {
                abuser_hear(a, line);
            }
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : -1;
    }
}

/* Writes `buf` round and round, as fast as the server takes it, on one
 * connection at a time; reads and tallies the replies; reconnects when the
 * server ends the connection. Each connection starts at the buffer's start,
 * which is a line's start. */
static void abuse_flood(struct abuser *a, const char *buf, size_t len)
{
    int fd = -1;
    size_t off = 0;

    while (now_s() < a->deadline) {
        if (fd < 0) {
            fd = abuser_dial(a, 0);
            if (fd < 0) {
                sleep_s(0.001);
                continue;
            }
            off = 0;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN | POLLOUT};
        if (poll(&p, 1, ms_until(a->deadline, 50)) <= 0) {
            continue;
        }
        bool gone = false;
        if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
            gone = abuser_drain(a, fd) != 0;
        }
        if (!gone && (p.revents & POLLOUT)) {
            ssize_t w = write(fd, buf + off, len - off);
            if (w > 0) {
                for (const char *q = buf + off, *end = buf + off + w;
                     (q = memchr(q, '\n', (size_t)(end - q))) != NULL; q++) {
                    a->st.lines++;
                }
                a->st.sent += (uint64_t)w;
                off = (off + (size_t)w) % len;
            } else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                gone = true;
            }
        }
        if (gone) {
            close(fd);
            fd = -1;
            a->st.closed++;
        }
    }
    if (fd >= 0) {
        close(fd);
    }
}

/* About GARBAGE_BYTES of lines: half random bytes (no LF, 1 to 200 of
 * them), half broken JSON of the kinds a buggy or hostile client sends. */
static char *garbage_make(uint64_t seed, size_t *ret_len)
{
    static const char *const broken[] = {
        "{\"op\":\"hello\",\"proto\":1,\"name\":",
        "{\"id\":1,\"op\":\"act\",\"action\":{\"type\":",
        "{\"op\":\"join\",\"room\":\"K7QF",
        "{\"op\":\"create\",,}",
        "{\"op\":tru}",
        "{'op':'hello'}",
        "{\"op\":\"hello\"}}",
        "\"\\u12\"",
        "{\"a\":1e999999999999}",
        "nul",
        "{\"op\":\"chat\",\"text\":\"\xff\xfe\"}",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    };
    size_t cap = GARBAGE_BYTES + 512, len = 0;
    char *buf = malloc(cap);
    uint64_t rng = seed | 1;

    if (!buf) {
        return NULL;
    }
    while (len < GARBAGE_BYTES) {
        uint64_t r = rng_next(&rng);
        if (r & 1) {
            size_t n = 1 + (size_t)(r >> 8) % 200;
            for (size_t i = 0; i < n; i++) {
                char ch = (char)(rng_next(&rng) >> 56);
                buf[len++] = ch == '\n' ? ' ' : ch;
            }
        } else {
            const char *s = broken[(r >> 8) % (sizeof(broken) / sizeof(broken[0]))];
            size_t n = strlen(s);
            memcpy(buf + len, s, n);
            len += n;
        }
        buf[len++] = '\n';
    }
    *ret_len = len;
    return buf;
}

/* Writes one line of exactly `max` bytes (and its LF) at `out`, of kind
 * `kind`: 0 a ping with one long string, 1 a ping with thousands of keys,
 * 2 an array of thousands of numbers (valid JSON, not a request), 3 a ping
 * whose string never ends (invalid JSON). */
static void maxline_fill(char *out, size_t max, int kind)
{
    size_t pos = 0;

    if (kind == 2) {
        out[pos++] = '[';
        while (max - pos > 3) {
            out[pos++] = '0';
            out[pos++] = ',';
        }
        if (max - pos == 3) {
            out[pos++] = '1';
        }
        out[pos++] = '0';
        out[pos++] = ']';
    } else {
        pos = (size_t)sprintf(out, "{\"op\":\"ping\"");
        for (unsigned k = 0; kind == 1 && pos + 12 + 10 <= max; k++) {
            pos += (size_t)sprintf(out + pos, ",\"k%06u\":0", k % 1000000);
        }
        pos += (size_t)sprintf(out + pos, ",\"pad\":\"");
        size_t tail = kind == 3 ? 0 : 2;
        while (pos < max - tail) {
            out[pos++] = 'x';
        }
        if (tail) {
            out[pos++] = '"';
            out[pos++] = '}';
        }
    }
    out[pos] = '\n';
}

static char *maxline_make(size_t max, size_t *ret_len)
{
    char *buf = malloc(4 * (max + 1) + 64);

    if (!buf) {
        return NULL;
    }
    for (int kind = 0; kind < 4; kind++) {
        maxline_fill(buf + (size_t)kind * (max + 1), max, kind);
    }
    *ret_len = 4 * (max + 1);
    return buf;
}

/* Connect, hello, wait for the reply (at most 1 s), close; again. */
static void abuse_churn(struct abuser *a)
{
    static const char hello[] = "{\"id\":1,\"op\":\"hello\",\"proto\":1,\"name\":\"churn\"}\n";

    while (now_s() < a->deadline) {
        int fd = abuser_dial(a, 0);
        if (fd < 0) {
            sleep_s(0.001);
            continue;
        }
        uint64_t before = a->heard;
        bool gone = abuser_send(a, fd, hello) != 0;
        double give_up = now_s() + 1;
        while (!gone && a->heard == before && now_s() < give_up) {
            struct pollfd p = {.fd = fd, .events = POLLIN};
            if (poll(&p, 1, ms_until(give_up, 1000)) > 0) {
                gone = abuser_drain(a, fd) != 0;
            }
        }
        a->st.closed += gone;
        close(fd);
    }
}

/* A spectator of the victim room that never reads: hello, spectate, then
 * `sync` at cfg->slow_rate per second; a new room code on `room_fd` makes it
 * spectate that room. At the end it reads what the server still owed it (at
 * most 3 s), which is what the server and the kernel held for it. */
static void abuse_slow(struct abuser *a, const char *first_room, int room_fd)
{
    char room[16], codes[256], line[128];
    size_t ncodes = 0;
    int fd = -1;
    double next = now_s(), every = 1.0 / a->cfg->slow_rate;

    snprintf(room, sizeof(room), "%s", first_room);
    fcntl(room_fd, F_SETFL, fcntl(room_fd, F_GETFL) | O_NONBLOCK);
    while (now_s() < a->deadline) {
        bool gone = false;
        if (fd < 0) {
            fd = abuser_dial(a, SLOW_RCVBUF);
            if (fd < 0) {
                sleep_s(0.001);
                continue;
            }
            gone = abuser_send(a, fd, "{\"op\":\"hello\",\"proto\":1,\"name\":\"slow\"}\n") != 0;
            if (!gone && room[0]) {
                snprintf(line, sizeof(line), "{\"op\":\"spectate\",\"room\":\"%s\"}\n", room);
                gone = abuser_send(a, fd, line) != 0;
            }
        }
        double wake = next < a->deadline ? next : a->deadline;
        struct pollfd p[2] = {{.fd = fd, .events = 0}, {.fd = room_fd, .events = POLLIN}};
        if (!gone && poll(p, 2, ms_until(wake, 50)) > 0) {
            gone = (p[0].revents & (POLLERR | POLLHUP)) != 0;
            ssize_t n = (p[1].revents & POLLIN)
                            ? read(room_fd, codes + ncodes, sizeof(codes) - 1 - ncodes)
                            : 0;
            ncodes += n > 0 ? (size_t)n : 0;
            codes[ncodes] = '\0';
            char *lf;
            while (!gone && (lf = strchr(codes, '\n')) != NULL) {
                *lf = '\0';
                snprintf(room, sizeof(room), "%.15s", codes);
                snprintf(line, sizeof(line), "{\"op\":\"spectate\",\"room\":\"%s\"}\n", room);
                gone = abuser_send(a, fd, line) != 0;
                ncodes -= (size_t)(lf + 1 - codes);
                memmove(codes, lf + 1, ncodes + 1);
            }
        }
        double t = now_s();
        if (!gone && t >= next) {
            gone = abuser_send(a, fd, "{\"op\":\"sync\"}\n") != 0;
            next += every;
            if (next < t - 1) {
                next = t;
            }
        }
        if (gone) {
            close(fd);
            fd = -1;
            a->st.closed++;
        }
    }
    if (fd >= 0) {
        double end = now_s() + 3;
        char buf[65536];
        for (;;) {
            struct pollfd p = {.fd = fd, .events = POLLIN};
            if (poll(&p, 1, ms_until(end, 300)) <= 0) {
                break;
            }
            ssize_t n = read(fd, buf, sizeof(buf));
            if (n <= 0 && !(n < 0 && (errno == EAGAIN || errno == EINTR))) {
                break;
            }
            a->st.held += n > 0 ? (uint64_t)n : 0;
        }
        close(fd);
    }
}

/* Burns `duty` of one core until `deadline`, in slices of 10 ms. */
static void abuse_control(double duty, double deadline)
{
    volatile uint64_t x = 0;
    const double slice = 0.01;

    while (now_s() < deadline) {
        double t0 = now_s();
        while (now_s() - t0 < duty * slice) {
            for (int i = 0; i < 1000; i++) {
                x += (uint64_t)i;
            }
        }
        if (duty < 1) {
            sleep_s(slice * (1 - duty));
        }
    }
}

/* The child's body: one abuse until `deadline`, its tally into `stats_fd`,
 * then _exit. Never returns. */
static void abuser_main(const struct config *cfg, int port, enum phase ph, double deadline,
                        const char *room, int room_fd, int stats_fd)
{
    struct abuser a = {.cfg = cfg, .port = port, .deadline = deadline};
    char *buf = NULL;
    size_t len = 0;

    proto_framer_init(&a.fr, PROTO_OUT_LINE_MAX + 1);
    switch (ph) {
    case PH_CONTROL:
        abuse_control(cfg->duty, deadline);
        break;
    case PH_GARBAGE:
        buf = garbage_make(cfg->seed + 1, &len);
        if (buf) {
            abuse_flood(&a, buf, len);
        }
        break;
    case PH_MAXLINE:
        buf = maxline_make(cfg->max_line, &len);
        if (buf) {
            abuse_flood(&a, buf, len);
        }
        break;
    case PH_CHURN:
        abuse_churn(&a);
        break;
    case PH_SLOW:
        abuse_slow(&a, room, room_fd);
        break;
    case PH_IDLE:
    case PH_COUNT:
        break;
    }
    free(buf);
    proto_framer_fini(&a.fr);
    (void)write_all(stats_fd, (const char *)&a.st, sizeof(a.st));
    _exit(0);
}

struct child {
    pid_t pid;
    int stats_fd;
};

/* Forks the abuser of phase `ph`; the slow reader also gets a pipe on which
 * the victim writes each new room code. Returns 0 or -1. */
static int child_start(struct child *c, const struct config *cfg, int port, enum phase ph,
                       double deadline, struct victim *v)
{
    int sp[2], rp[2] = {-1, -1};

    if (pipe(sp) != 0 || (ph == PH_SLOW && pipe(rp) != 0)) {
        perror("bench_isolation: pipe");
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    c->pid = fork();
    if (c->pid < 0) {
        perror("bench_isolation: fork");
        return -1;
    }
    if (c->pid == 0) {
        close(sp[0]);
        if (rp[1] >= 0) {
            close(rp[1]);
        }
        close(v->s[0].fd);
        close(v->s[1].fd);
        abuser_main(cfg, port, ph, deadline, v->room, rp[0], sp[1]);
    }
    close(sp[1]);
    c->stats_fd = sp[0];
    if (rp[0] >= 0) {
        close(rp[0]);
        v->room_fd = rp[1];
    }
    return 0;
}

/* Waits for the abuser to end, the victim playing on (unrecorded) until it
 * has and until `until` at least; an abuser still there 15 s later is
 * killed. Fills *st from its tally (zeros when there is none). */
static void child_finish(struct child *c, struct victim *v, double until, struct abuse_stats *st)
{
    double give_up = now_s() + 15;
    bool done = false;

    for (;;) {
        if (!done && waitpid(c->pid, NULL, WNOHANG) == c->pid) {
            done = true;
        }
        double t = now_s();
        if ((done && t >= until) || v->failed) {
            break;
        }
        if (!done && t >= give_up) {
            fprintf(stderr, "bench_isolation: the abuser did not stop; killing it\n");
            break;
        }
        victim_run(v, t + 0.05);
    }
    if (!done) {
        kill(c->pid, SIGKILL);
        waitpid(c->pid, NULL, 0);
    }
    memset(st, 0, sizeof(*st));
    if (read(c->stats_fd, st, sizeof(*st)) != (ssize_t)sizeof(*st)) {
        memset(st, 0, sizeof(*st));
    }
    close(c->stats_fd);
    if (v->room_fd >= 0) {
        close(v->room_fd);
        v->room_fd = -1;
    }
}

/* ---- One run ---- */

/* What conclaved logged in one run. */
struct run_log {
    long lines;
    long cut_off;  /* slow readers cut off */
    long no_hello; /* connections closed for sending no hello */
};

/* Plays every phase against a fresh server. Fills res[PH_COUNT] and *log.
 * Returns 0, or -1 when the run could not be completed. */
static int run_once(const struct config *cfg, struct phase_result *res, struct run_log *log)
{
    struct server srv;
    struct victim v;
    int rc = 0;

    memset(res, 0, PH_COUNT * sizeof(*res));
    if (server_start(&srv, cfg) != 0) {
        return -1;
    }
    if (victim_open(&v, cfg, srv.port) != 0) {
        victim_close(&v);
        server_stop(&srv);
        server_remove(&srv);
        return -1;
    }
    victim_run(&v, now_s() + cfg->warmup);
    for (int ph = 0; ph < PH_COUNT && !v.failed; ph++) {
        struct phase_result *r = &res[ph];
        if (!(cfg->phases & (1u << ph))) {
            continue;
        }
        struct child c = {.pid = 0};
        double cpu_children = children_cpu_s();
        double t0 = now_s(), end = t0 + cfg->seconds;

        if (ph != PH_IDLE && child_start(&c, cfg, srv.port, (enum phase)ph, end, &v) != 0) {
            rc = -1;
            break;
        }
        double server0 = proc_cpu_s(srv.pid);
        double swait0 = proc_wait_s(srv.pid), vwait0 = proc_wait_s(0);
        v.recording = true;
        v.nlat = 0;
        v.moves = v.refused = v.rate_limited = v.games = 0;
        victim_run(&v, end);
        v.recording = false;
        double t1 = now_s();
        r->secs = t1 - t0;
        r->server_cpu = (proc_cpu_s(srv.pid) - server0) / r->secs;
        r->server_wait = (proc_wait_s(srv.pid) - swait0) / r->secs;
        r->self_wait = (proc_wait_s(0) - vwait0) / r->secs;
        r->rss_kb = proc_status_kb(srv.pid, "VmRSS");
        r->hwm_kb = proc_status_kb(srv.pid, "VmHWM");
        r->moves = v.moves;
        r->refused = v.refused;
        r->rate_limited = v.rate_limited;
        r->games = v.games;
        if (v.nlat) {
            qsort(v.lat, v.nlat, sizeof(double), cmp_double);
            r->p50 = 1000 * v.lat[v.nlat / 2];
            r->p99 = 1000 * v.lat[v.nlat * 99 / 100];
            r->pmax = 1000 * v.lat[v.nlat - 1];
        }
        if (ph != PH_IDLE) {
            child_finish(&c, &v, t1 + cfg->gap, &r->ab);
            r->abuser_cpu = (children_cpu_s() - cpu_children) / r->secs;
        } else {
            victim_run(&v, t1 + cfg->gap);
        }
        r->ran = !v.failed && v.nlat > 0;
    }
    if (v.failed) {
        rc = -1;
    }
    victim_close(&v);
    server_stop(&srv);
    log->lines = log_count(&srv, "");
    log->cut_off = log_count(&srv, "cutting off a slow reader");
    log->no_hello = log_count(&srv, "closing after no hello");
    server_remove(&srv);
    return rc;
}

/* ---- Output ---- */

static void print_header(const struct config *cfg)
{
    struct utsname u;
    char load[64] = "?";
    FILE *f = fopen("/proc/loadavg", "r");

    if (f) {
        if (!fgets(load, sizeof(load), f)) {
            load[0] = '\0';
        }
        load[strcspn(load, " ")] = '\0';
        fclose(f);
    }
    if (uname(&u) != 0) {
        memset(&u, 0, sizeof(u));
    }
    time_t t = time(NULL);
    char when[64];
    strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&t));
    printf("bench_isolation: %s, %s %s, %ld cores, load average %s at the start\n", when, u.sysname,
           u.release, sysconf(_SC_NPROCESSORS_ONLN), load);
    printf("victim: one %s room, 2 seats, %.0f moves/s (legal then act), seed %u; phases of %.0f "
           "s after %.0f s of warm-up, %.0f s between phases\n",
           cfg->game, cfg->pace, cfg->seed, cfg->seconds, cfg->warmup, cfg->gap);
    printf("control: %.0f%% of one core; slow reader: sync %.0f/s, %d-byte receive buffer; "
           "max-size lines: %zu bytes; abuser from %s\n",
           100 * cfg->duty, cfg->slow_rate, SLOW_RCVBUF, cfg->max_line,
           *cfg->abuser_addr ? cfg->abuser_addr : "127.0.0.1 (the victim's address)");
    printf("conclaved: %s (default limits, a fresh data directory)\n\n", cfg->conclaved);
    fflush(stdout);
}

static void format_bytes(char *out, size_t n, uint64_t bytes)
{
    if (bytes >= 10u * 1024 * 1024) {
        snprintf(out, n, "%.0f MiB", (double)bytes / (1024.0 * 1024.0));
    } else if (bytes >= 1024 * 1024) {
        snprintf(out, n, "%.1f MiB", (double)bytes / (1024.0 * 1024.0));
    } else {
        snprintf(out, n, "%.0f KiB", (double)bytes / 1024.0);
    }
}

/* One repetition's phases, in full. */
static void print_run(const struct phase_result *res, const struct run_log *log, int rep)
{
    for (int ph = 0; ph < PH_COUNT; ph++) {
        const struct phase_result *r = &res[ph];
        const struct abuse_stats *a = &r->ab;
        char sent[32], got[32], held[32];
        if (!r->secs) {
            continue;
        }
        printf("  %d %-14s victim %4ld moves in %5.2f s = %5.1f/s, act p50 %6.2f p99 %6.2f max "
               "%7.2f ms, %ld refused (%ld rate_limited), %ld rooms; server %3.0f%% of a core, "
               "VmRSS %.1f MiB (peak %.1f); waiting for a core: server loop %.1f%%, victim "
               "%.1f%%\n",
               rep, phase_name[ph], r->moves, r->secs, (double)r->moves / r->secs, r->p50, r->p99,
               r->pmax, r->refused, r->rate_limited, r->games, 100 * r->server_cpu,
               (double)r->rss_kb / 1024, (double)r->hwm_kb / 1024, 100 * r->server_wait,
               100 * r->self_wait);
        if (ph == PH_IDLE) {
            continue;
        }
        if (ph == PH_CONTROL) {
            printf("    control: %.0f%% of a core\n", 100 * r->abuser_cpu);
            continue;
        }
        format_bytes(sent, sizeof(sent), a->sent);
        format_bytes(got, sizeof(got), a->received);
        format_bytes(held, sizeof(held), a->held);
        printf("    abuser: %.0f%% of a core, sent %s in %llu lines over %llu connections (%llu "
               "ended by the server, %llu refused by the kernel), read %s",
               100 * r->abuser_cpu, sent, (unsigned long long)a->lines,
               (unsigned long long)a->conns, (unsigned long long)a->closed,
               (unsigned long long)a->dial_fail, got);
        if (ph == PH_SLOW) {
            printf(", %s owed to it at the end", held);
        }
        printf("; heard %llu ok", (unsigned long long)a->ok);
        for (int k = 0; k < PROTO_ERR__COUNT; k++) {
            if (a->codes[k]) {
                printf(", %llu %s", (unsigned long long)a->codes[k],
                       k ? proto_err_name((enum proto_err)k) : "other");
            }
        }
        printf("\n");
    }
    printf("  %d conclaved logged %ld lines: %ld slow readers cut off, %ld connections closed for "
           "sending no hello\n",
           rep, log->lines, log->cut_off, log->no_hello);
    fflush(stdout);
}

/* The table: medians over the repetitions that ran; the ratio is the median
 * of the ratios within each repetition, whose control ran minutes before. */
static void print_table(struct phase_result (*res)[PH_COUNT], int nrep, unsigned phases)
{
    printf("| phase | victim moves/s | act p50 ms | act p99 ms | p99 / control | server CPU | "
           "abuser CPU | abuser sent | abuser lines (answered) | abuser connections |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int ph = 0; ph < PH_COUNT; ph++) {
        double rate[REPEAT_MAX], p50[REPEAT_MAX], p99[REPEAT_MAX], ratio[REPEAT_MAX];
        double scpu[REPEAT_MAX], acpu[REPEAT_MAX], sent[REPEAT_MAX], lines[REPEAT_MAX];
        double conns[REPEAT_MAX], answered[REPEAT_MAX];
        int n = 0, nr = 0;
        if (!(phases & (1u << ph))) {
            continue;
        }
        for (int r = 0; r < nrep; r++) {
            const struct phase_result *x = &res[r][ph], *ctl = &res[r][PH_CONTROL];
            if (!x->ran) {
                continue;
            }
            rate[n] = (double)x->moves / x->secs;
            p50[n] = x->p50;
            p99[n] = x->p99;
            scpu[n] = 100 * x->server_cpu;
            acpu[n] = 100 * x->abuser_cpu;
            sent[n] = (double)x->ab.sent;
            lines[n] = (double)x->ab.lines;
            answered[n] = (double)x->ab.ok;
            for (int k = 0; k < PROTO_ERR__COUNT; k++) {
                answered[n] += (double)x->ab.codes[k];
            }
            conns[n] = (double)x->ab.conns;
            n++;
            if (ctl->ran && ctl->p99 > 0) {
                ratio[nr++] = x->p99 / ctl->p99;
            }
        }
        if (n == 0) {
            printf("| %s | failed | | | | | | | | |\n", phase_name[ph]);
            continue;
        }
        char rat[16] = "–", sb[32] = "–", ls[64] = "–", cs[32] = "–", ac[16] = "–";
        if (nr) {
            snprintf(rat, sizeof(rat), "%.2f", median(ratio, nr));
        }
        if (ph >= PH_GARBAGE) {
            format_bytes(sb, sizeof(sb), (uint64_t)median(sent, n));
            snprintf(ls, sizeof(ls), "%.0f (%.0f)", median(lines, n), median(answered, n));
            snprintf(cs, sizeof(cs), "%.0f", median(conns, n));
        }
        if (ph >= PH_CONTROL) {
            snprintf(ac, sizeof(ac), "%.0f%%", median(acpu, n));
        }
        printf("| %s | %.1f | %.2f | %.2f | %s | %.0f%% | %s | %s | %s | %s |\n", phase_name[ph],
               median(rate, n), median(p50, n), median(p99, n), rat, median(scpu, n), ac, sb, ls,
               cs);
    }
    double idle[REPEAT_MAX], ctl[REPEAT_MAX], ratio[REPEAT_MAX];
    int n = 0;
    for (int r = 0; r < nrep; r++) {
        if (res[r][PH_IDLE].ran && res[r][PH_CONTROL].ran && res[r][PH_IDLE].p99 > 0) {
            idle[n] = res[r][PH_IDLE].p99;
            ctl[n] = res[r][PH_CONTROL].p99;
            ratio[n] = ctl[n] / idle[n];
            n++;
        }
    }
    if (n) {
        printf("\nidle act p99 %.2f ms, control act p99 %.2f ms: control / idle %.2f (target for "
               "every abuse: p99 / control <= 2)\n",
               median(idle, n), median(ctl, n), median(ratio, n));
    }
}

/* ---- Options ---- */

static const char usage_text[] =
    "usage: bench_isolation [--conclaved PATH] [--game G] [--seconds S] [--warmup S]\n"
    "                       [--gap S] [--pace MOVES_PER_S] [--duty FRACTION]\n"
    "                       [--slow-rate N] [--max-line BYTES] [--abuser-addr ADDR]\n"
    "                       [--repeat N] [--seed N]\n"
    "                       [--phases idle,control,garbage,maxline,churn,slow]\n";

static int parse_args(struct config *cfg, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v || strncmp(a, "--", 2) != 0) {
            return -1;
        }
        i++;
        if (strcmp(a, "--conclaved") == 0) {
            cfg->conclaved = v;
        } else if (strcmp(a, "--game") == 0) {
            cfg->game = v;
        } else if (strcmp(a, "--seconds") == 0) {
            cfg->seconds = atof(v);
        } else if (strcmp(a, "--warmup") == 0) {
            cfg->warmup = atof(v);
        } else if (strcmp(a, "--gap") == 0) {
            cfg->gap = atof(v);
        } else if (strcmp(a, "--pace") == 0) {
            cfg->pace = atof(v);
        } else if (strcmp(a, "--duty") == 0) {
            cfg->duty = atof(v);
        } else if (strcmp(a, "--slow-rate") == 0) {
            cfg->slow_rate = atof(v);
        } else if (strcmp(a, "--max-line") == 0) {
            cfg->max_line = (size_t)atol(v);
        } else if (strcmp(a, "--abuser-addr") == 0) {
            cfg->abuser_addr = v;
        } else if (strcmp(a, "--repeat") == 0) {
            cfg->repeat = atoi(v);
        } else if (strcmp(a, "--seed") == 0) {
            cfg->seed = (unsigned)atol(v);
        } else if (strcmp(a, "--phases") == 0) {
            char list[256];
            snprintf(list, sizeof(list), "%s", v);
            cfg->phases = 0;
            for (char *save = NULL, *k = strtok_r(list, ",", &save); k;
                 k = strtok_r(NULL, ",", &save)) {
                int ph = 0;
                while (ph < PH_COUNT && strcmp(k, phase_key[ph]) != 0) {
                    ph++;
                }
                if (ph == PH_COUNT) {
                    return -1;
                }
                cfg->phases |= 1u << ph;
            }
        } else {
            return -1;
        }
    }
    if (cfg->seconds <= 0 || cfg->seconds > 3600 || cfg->warmup < 0 || cfg->warmup > 600 ||
        cfg->gap < 0 || cfg->gap > 600 || cfg->pace <= 0 || cfg->pace > 100000 || cfg->duty <= 0 ||
        cfg->duty > 1 || cfg->slow_rate <= 0 || cfg->slow_rate > 100000 || cfg->max_line < 64 ||
        cfg->max_line > (64u << 20) || cfg->repeat < 1 || cfg->repeat > REPEAT_MAX ||
        strlen(cfg->game) > 32 || cfg->phases == 0) {
        return -1;
    }
    return 0;
}

/* Whether connections may come from `addr` (a loopback address other than
 * the victim's); otherwise the abusers use the victim's address. */
static bool can_bind(const char *addr)
{
    struct sockaddr_in sa = {.sin_family = AF_INET};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    bool ok = fd >= 0 && inet_pton(AF_INET, addr, &sa.sin_addr) == 1 &&
              bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;

    if (fd >= 0) {
        close(fd);
    }
    return ok;
}

int main(int argc, char **argv)
{
    struct config cfg = {
        .conclaved = getenv("CONCLAVED"),
        .game = "sorcerers",
        .abuser_addr = "127.0.0.2",
        .seconds = 10,
        .warmup = 2,
        .gap = 1,
        .pace = 40,
        .duty = 0.5,
        .slow_rate = 50,
        .max_line = PROTO_LINE_MAX_DEFAULT,
        .repeat = 1,
        .seed = 1,
        .phases = (1u << PH_COUNT) - 1,
    };

    if (parse_args(&cfg, argc, argv) != 0) {
        fputs(usage_text, stderr);
        return 2;
    }
    if (!cfg.conclaved) {
        fprintf(stderr, "bench_isolation: no conclaved (--conclaved PATH or $CONCLAVED)\n");
        return 2;
    }
    if (*cfg.abuser_addr && !can_bind(cfg.abuser_addr)) {
        fprintf(stderr, "bench_isolation: cannot bind %s; the abusers use 127.0.0.1\n",
                cfg.abuser_addr);
        cfg.abuser_addr = "";
    }
    signal(SIGPIPE, SIG_IGN);
    print_header(&cfg);

    static struct phase_result res[REPEAT_MAX][PH_COUNT];
    int status = 0;
    for (int r = 0; r < cfg.repeat; r++) {
        struct run_log log = {0};
        if (run_once(&cfg, res[r], &log) != 0) {
            status = 1;
        }
        print_run(res[r], &log, r + 1);
    }
    printf("\n");
    print_table(res, cfg.repeat, cfg.phases);
    return status;
}
