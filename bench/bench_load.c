/* SPDX-License-Identifier: MIT */
/*
 * bench_load.c - load on a real server over TCP: the server's CPU time per
 * accepted move, throughput, act round trip, peak memory, journal records
 * per fsync and memory per idle connection, for conclaved and for the strict
 * floor server (bench_floor) driven the same way in the same run, with the
 * first, jansson-built floor (bench_floor_jansson) as a second reference.
 *
 * Every measurement starts a fresh server process on 127.0.0.1:0 (a fresh
 * data directory for conclaved), drives ROOMS two-seat rooms, each seat its
 * own TCP connection, and reads the server's CPU time (utime + stime of all
 * its threads, through its process CPU clock) at the start and the end of
 * the measurement window. CPU per move = that CPU time / moves accepted in
 * the window. Modes (docs/performance.md has the reasoning):
 *
 *   legal    what the terminal client does, as a turn race: a seat asks
 *            `legal` after its own accepted act and after each diff while it
 *            waits (again if the list is older than the newest diff it saw);
 *            the seat that gets a non-empty list acts with its first action.
 *            Warm-up, then the window. Every accepted move is recorded (room,
 *            rev, seat, action).
 *   act      the act path alone: a second server replays the recorded games
 *            with `act` only, never `legal`. Both servers get the same create
 *            and join requests in the same order (rooms are set up one at a
 *            time), and conclaved runs with libbench_detrand.so preloaded, so
 *            they draw the same room codes and seeds and the games repeat
 *            exactly. The window holds exactly the moves of the legal window:
 *            every room is stopped at its window start (a barrier), the CPU
 *            time is read, the rooms play on to their window end. Any refused
 *            or diverging move is an error. With --target owed: conclaved's
 *            `legal` row (for its view, `you`, record and diff line sizes), the
 *            strict floor's (for the moves), then the owed floor's `act` row
 *            (as in compare).
 *   offered  open loop on the act path: the moves `legal` recorded are
 *            replayed as in `act`, but in the window each room's moves are
 *            due on a fixed schedule (RATE moves/s over all rooms); a move is
 *            sent when it is due (and its seat has seen the rev before it),
 *            and its latency counts from when it was due, so a server that
 *            falls behind shows it in p50/p99. The window ends when the first
 *            room runs out of recorded moves, so the offered rate holds to
 *            its end.
 *   offered-legal  open loop on the turn race of `legal` (not in compare):
 *            each act is sent when due, after the `legal` requests.
 *   idle     N connections that send hello and then stay idle; the server's
 *            resident memory (VmRSS) before and after gives KiB per connection.
 *   compare  all of the above for the floor and conclaved, interleaved, for
 *            each game, and one table; the open-loop row once more with
 *            conclaved on --fsync never (server "conclaved/never"), which shows
 *            what share of its latency is the wait for the disk; `legal` and
 *            `act` for floor/jansson too (when its binary is there); `act` for
 *            the owed floor (bench_floor --owed: the strict floor's moves with
 *            the view hash and a durable record before each reply, at the sizes
 *            of conclaved's run: the bytes of the public view a move's hash
 *            must read again, from the first byte the move changed, and each
 *            seat's `you`, measured by one seat in every 25th room following
 *            its view through the diffs of the `legal` row; the mean journal
 *            record; diff lines of the mean length of those the following seats
 *            received); then, for each game, a probe of the disk's own flush
 *            (in a directory beside the data directories, 2,000 steps or 2 s,
 *            each a record-sized write then fdatasync: in place in a file the
 *            size of conclaved's write-ahead file, as conclaved writes it, or
 *            appended to one as large as its largest journal when it has none);
 *            the same probe again, paced at one step every 2 ms, beside a
 *            second run of the `never` row (its figures not kept), to see the
 *            flush as the loaded machine gives it; and a table of the targets:
 *            ratios to the strict floor, and the durable act p99 against 2 x
 *            the flush p99 + the --fsync never p99; then what the flushes alone
 *            cost a move of the act path (the probe's CPU time a flush over the
 *            records conclaved's act row put in one flush), beside the strict
 *            floor's move.
 *
 * usage: bench_load [--mode compare|legal|act|offered|offered-legal|idle]
 *                   [--target conclaved|floor|owed] [--conclaved PATH] [--floor PATH]
 *                   [--floor-jansson PATH|none] [--preload PATH] [--game G]
 *                   [--games G,G] [--rooms N] [--fsync POLICY] [--warmup S]
 *                   [--seconds S] [--rate N] [--idle N] [--repeat N]
 *                   [--floor-diff-bytes N]
 * --floor-diff-bytes gives the strict floor's diff lines that length
 * (bench_floor --diff-bytes), to see what longer lines cost the kernel;
 * a compare run leaves it out. --repeat runs the whole sequence N times
 * (default 3 for compare, else 1); the table shows medians, which a busy
 * machine disturbs far less than a single run. PATH defaults: $CONCLAVED;
 * bench_floor, bench_floor_jansson (left out when absent) and
 * libbench_detrand.so next to this program. Runs are bounded in time and
 * stop by themselves.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "proto.h"

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

#define MAX_ROOMS 1000
#define IDLE_PER_WORKER 5000
#define ROWS_MAX 64 /* result rows per repetition */

/* Rooms a conclaved started here may hold (MAX_ROOMS of the load). */
#define BENCH_MAX_ROOMS (MAX_ROOMS + 24)

/* Connections a conclaved started here may hold: what the hard limit on
 * open files leaves after its rooms' journals and its own descriptors. */
static uint64_t server_max_conns(void)
{
    struct rlimit rl;
    uint64_t limit = 1000000;

    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_max != RLIM_INFINITY) {
        limit = (uint64_t)rl.rlim_max;
    }
    return limit > BENCH_MAX_ROOMS + 64 + 16 ? limit - BENCH_MAX_ROOMS - 64 : 16;
}

/* ---- Configuration and results ---- */

/* The servers a row can measure: the strict floor (bench_floor), the same
 * with what each move owes (bench_floor --owed: the view hash and a durable
 * record before the reply), the first floor built with jansson
 * (bench_floor_jansson) and conclaved. */
enum kind { K_CONCLAVED, K_FLOOR, K_FLOOR_OWED, K_FLOOR_JANSSON };

static const char *kind_name(enum kind k)
{
    return k == K_FLOOR           ? "floor"
           : k == K_FLOOR_OWED    ? "floor/owed"
           : k == K_FLOOR_JANSSON ? "floor/jansson"
                                  : "conclaved";
}

struct config {
    const char *conclaved;
    const char *floor;
    const char *floor_jansson; /* NULL: no floor/jansson rows */
    const char *preload;
    const char *game;
    const char *games;
    const char *fsync;
    const char *mode;
    const char *target;
    int rooms;
    double warmup;
    double seconds;
    double rate;
    int idle;
    int repeat; /* 0: 3 for compare, 1 otherwise */
    /* The owed floor's view, `you`, record and diff line sizes, from
     * conclaved's rows. */
    long long owed_view, owed_you, owed_record, owed_diff;
    long long floor_diff; /* the strict floor's diff lines (0: its own) */
};

struct result {
    char server[16];
    char game[16];
    char mode[24];
    bool ok;
    long moves;
    double secs;
    double cpu_us;              /* server CPU per accepted move, µs */
    double p50, p99;            /* ms */
    long hwm_kb;                /* server peak resident memory */
    double per_fsync;           /* journal records per fsync; < 0 when not known */
    double job_p99;             /* ms a journal write job took at p99 (upper bound); < 0 unknown */
    long long journal_max;      /* bytes of the largest journal file at the end; 0 unknown */
    long long journal_sum;      /* bytes of all journal files at the end */
    long long wal_bytes;        /* bytes of the write-ahead file at the end; 0 none */
    unsigned long long records; /* journal records written over the run */
    long refused;
    long legal_reqs; /* `legal` requests sent in the window */
    double gen_cpu;  /* this program's CPU in the window, share of one core */
    /* The views of the `state` events seen (one a seat at each game's
     * start), canonical and compact: bytes in all, of their `you`, and
     * how many. */
    long long view_sum, you_sum, nviews;
    /* The views after each move, followed by applying the diffs in the
     * sampled rooms (VIEW_SAMPLE): bytes in all, of their `you`, of the
     * public part from the first byte the move changed on (what the hash
     * must read again, however it keeps what it read before), and how many;
     * and the bytes of the diff lines that brought them, newline included. */
    long long move_view_sum, move_you_sum, move_tail_sum, nmove_views, move_line_sum;
};

static double self_cpu_s(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* ---- The server process ---- */

struct server {
    pid_t pid;
    int port;
    enum kind kind;
    char dir[64];
};

static void remove_dir(const char *dir)
{
    char cmd[128];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "bench_load: could not remove %s\n", dir);
    }
}

/* The servers' directories, removed when the run ends rather than after
 * each row. On an ext4 file system without a journal (this machine's), a
 * new file's inode is never one freed in the last one to two minutes: the
 * search for a free one walks past every inode a row just removed, and
 * opening a new room's journal cost conclaved 170 to 330 µs of CPU in the
 * rows that followed a row's removal, against 22 to 30 µs otherwise. The
 * write-ahead file (16 MiB a row) goes at once: one inode. */
static char (*doomed)[64];
static size_t ndoomed, doomed_cap;

static void remove_doomed(void)
{
    for (size_t i = 0; i < ndoomed; i++) {
        remove_dir(doomed[i]);
    }
    free(doomed);
    doomed = NULL;
    ndoomed = doomed_cap = 0;
}

static void doom_dir(const char *dir)
{
    char wal[128];

    snprintf(wal, sizeof(wal), "%s/data/rooms/journal.wal", dir);
    (void)unlink(wal);
    if (ndoomed == doomed_cap) {
        size_t cap = doomed_cap ? 2 * doomed_cap : 64;
        char(*grown)[64] = realloc(doomed, cap * sizeof(*grown));
        if (!grown) {
            remove_dir(dir);
            return;
        }
        if (!doomed) {
            atexit(remove_doomed);
        }
        doomed = grown;
        doomed_cap = cap;
    }
    snprintf(doomed[ndoomed++], sizeof(doomed[0]), "%s", dir);
}

/* Starts the server of kind `kind` on 127.0.0.1:0 with its output in a
 * fresh temporary directory, and waits for its "listening on" line.
 * Returns 0 and fills *s, or -1 (with a message on stderr). */
static int server_start(struct server *s, const struct config *cfg, enum kind kind)
{
    char data[96], conns[32], rooms[32], view[24], you[24], record[24], diff[24];
    bool floor = kind != K_CONCLAVED;
    char *bin = (char *)(kind == K_FLOOR || kind == K_FLOOR_OWED ? cfg->floor
                         : kind == K_FLOOR_JANSSON               ? cfg->floor_jansson
                                                                 : cfg->conclaved);

    memset(s, 0, sizeof(*s));
    s->kind = kind;
    if (bench_dir_make("bench_load", "/tmp/conclave-bench-XXXXXX", s->dir) != 0) {
        return -1;
    }
    snprintf(data, sizeof(data), "%s/data", s->dir);
    /* Every connection and room the server could be asked for must fit its
     * descriptor limit, or it does not start. */
    snprintf(conns, sizeof(conns), "%llu", (unsigned long long)server_max_conns());
    snprintf(rooms, sizeof(rooms), "%d", BENCH_MAX_ROOMS);
    char fdiff[24];
    snprintf(fdiff, sizeof(fdiff), "%lld", cfg->floor_diff);
    char *floor_argv[] = {bin, "--listen", "127.0.0.1:0", "--diff-bytes", fdiff, NULL};
    if (kind != K_FLOOR || cfg->floor_diff == 0) {
        floor_argv[3] = NULL; /* floor/jansson has no --diff-bytes */
    }
    snprintf(view, sizeof(view), "%lld", cfg->owed_view);
    snprintf(you, sizeof(you), "%lld", cfg->owed_you);
    snprintf(record, sizeof(record), "%lld", cfg->owed_record);
    snprintf(diff, sizeof(diff), "%lld", cfg->owed_diff);
    char *owed_argv[] = {
        bin,  "--listen",    "127.0.0.1:0", "--owed",         data,   "--view-bytes",
        view, "--you-bytes", you,           "--record-bytes", record, "--diff-bytes",
        diff, NULL};
    if (kind == K_FLOOR_OWED && mkdir(data, 0700) != 0) {
        fprintf(stderr, "bench_load: cannot make %s\n", data);
        remove_dir(s->dir);
        return -1;
    }
    char *argv[] = {bin,
                    "--listen",
                    "127.0.0.1:0",
                    "--data-dir",
                    data,
                    "--fsync",
                    (char *)cfg->fsync,
                    "--rate",
                    "1000000",
                    "--rate-burst",
                    "1000000",
                    "--max-connections",
                    conns,
                    "--max-per-address",
                    "1000000",
                    "--max-rooms",
                    rooms,
                    "--max-rooms-per-connection",
                    rooms,
                    "--max-rooms-per-address",
                    rooms,
                    "--connect-rate",
                    "1000000",
                    "--idle-timeout",
                    "3600",
                    "--hello-timeout",
                    "3600",
                    NULL};
    return bench_spawn("bench_load", s->dir,
                       kind == K_FLOOR_OWED ? owed_argv
                       : floor              ? floor_argv
                                            : argv,
                       floor ? NULL : cfg->preload, &s->pid, &s->port);
}

/* Adds the size of every journal (`*.journal`) under `dir` to *sum and
 * keeps the largest in *max; the write-ahead file's size goes to *wal. */
static void dir_sizes(const char *dir, long long *sum, long long *max, long long *wal)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    while (d && (e = readdir(d)) != NULL) {
        char path[512];
        struct stat st;
        if (e->d_name[0] == '.') {
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (lstat(path, &st) != 0) {
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            dir_sizes(path, sum, max, wal);
        } else if (S_ISREG(st.st_mode) && strcmp(e->d_name, "journal.wal") == 0) {
            *wal = (long long)st.st_size;
        } else if (S_ISREG(st.st_mode) && strlen(e->d_name) > 8 &&
                   strcmp(e->d_name + strlen(e->d_name) - 8, ".journal") == 0) {
            *sum += (long long)st.st_size;
            *max = (long long)st.st_size > *max ? (long long)st.st_size : *max;
        }
    }
    if (d) {
        closedir(d);
    }
}

/* Stops the server (SIGTERM, then SIGKILL after 10 s), reads journal records
 * per fsync and the write jobs' p99 from conclaved's closing log line into
 * res (-1 when unknown), the sizes of its data directory's files, and
 * removes its directory. */
static void server_stop(struct server *s, struct result *res)
{
    struct result ignored;

    if (!res) {
        res = &ignored;
    }
    res->per_fsync = -1;
    res->job_p99 = -1;
    res->journal_max = res->journal_sum = res->wal_bytes = 0;
    res->records = 0;
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
    char path[96], line[1024];
    snprintf(path, sizeof(path), "%s/stderr", s->dir);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof(line), f)) {
        unsigned long long records, writes, fsyncs;
        const char *j = strstr(line, "event=journal_summary ");
        const char *p99 = strstr(line, " job_ms_p99=");
        if (j && sscanf(j, "event=journal_summary records=%llu writes=%llu fsyncs=%llu", &records,
                        &writes, &fsyncs) == 3) {
            if (fsyncs > 0) {
                res->per_fsync = (double)records / (double)fsyncs;
            }
            res->records = records;
            if (!p99 || sscanf(p99, " job_ms_p99=%lf", &res->job_p99) != 1) {
                res->job_p99 = -1;
            }
        }
    }
    if (f) {
        fclose(f);
    }
    if (s->kind == K_CONCLAVED) {
        snprintf(path, sizeof(path), "%s/data", s->dir);
        dir_sizes(path, &res->journal_sum, &res->journal_max, &res->wal_bytes);
    }
    doom_dir(s->dir);
}

/* ---- Connections ---- */

enum cstate { C_IDLE, C_LEGAL, C_ACT, C_EVENT, C_HOLD };

struct pair;

struct conn {
    int fd;
    struct proto_framer fr;
    struct pair *pair;
    int seat;
    enum cstate st;
    long next_id;
    long pending;       /* id of the request whose reply is awaited, 0 none */
    long long seen_rev; /* highest rev seen in the current room */
    bool ended;         /* `ended` seen for the current room */
    double lat_base;    /* when the outstanding act started counting */
    char *action;       /* the action sent or held, JSON text */
    json_t *view;       /* sampled seats of `legal`: the view, diffs applied, */
    char *text;         /* and its canonical text */
};

static int conn_dial(struct conn *c, int port)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    int one = 1;

    memset(c, 0, sizeof(*c));
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
        return -1;
    }
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    proto_framer_init(&c->fr, PROTO_OUT_LINE_MAX + 1);
    c->next_id = 1;
    return 0;
}

static void conn_close(struct conn *c)
{
    if (c->fd > 0) {
        close(c->fd);
    }
    c->fd = -1;
    proto_framer_fini(&c->fr);
    free(c->action);
    c->action = NULL;
    json_decref(c->view);
    c->view = NULL;
    free(c->text);
    c->text = NULL;
}

/* Sends one request: `fmt` is the request without "id" and without the
 * braces' opening, e.g. "\"op\":\"legal\"". Returns the id used. */
static long conn_request(struct conn *c, const char *fmt, ...)
{
    char stack[4096], *buf = stack;
    long id = c->next_id++;
    int head = snprintf(stack, sizeof(stack), "{\"id\":%ld,", id);
    va_list ap;

    va_start(ap, fmt);
    int n = vsnprintf(stack + head, sizeof(stack) - (size_t)head, fmt, ap);
    va_end(ap);
    if ((size_t)(head + n + 2) >= sizeof(stack)) {
        buf = malloc((size_t)(head + n + 3));
        if (!buf) {
            return -1;
        }
        memcpy(buf, stack, (size_t)head);
        va_start(ap, fmt);
        vsnprintf(buf + head, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    buf[head + n] = '}';
    buf[head + n + 1] = '\n';
    (void)write_all(c->fd, buf, (size_t)(head + n + 2));
    if (buf != stack) {
        free(buf);
    }
    c->pending = id;
    return id;
}

/* Blocks until the reply to request `id` arrives; drops everything else.
 * New reference, or NULL when the connection fails. */
static json_t *conn_wait_reply(struct conn *c, long id)
{
    for (;;) {
        const char *line;
        size_t len;
        while (proto_framer_next(&c->fr, &line, &len) > 0) {
            json_t *m = json_loadb(line, len, 0, NULL);
            json_t *re = json_object_get(m, "re");
            if (re && json_integer_value(re) == id) {
                c->pending = 0;
                return m;
            }
            json_decref(m);
        }
        char buf[65536];
        ssize_t n = read(c->fd, buf, sizeof(buf));
        if (n <= 0 || proto_framer_feed(&c->fr, buf, (size_t)n) != 0) {
            return NULL;
        }
    }
}

static int conn_hello(struct conn *c)
{
    json_t *r =
        conn_wait_reply(c, conn_request(c, "\"op\":\"hello\",\"proto\":1,\"name\":\"bench\""));
    int ok = json_is_true(json_object_get(r, "ok"));

    json_decref(r);
    return ok ? 0 : -1;
}

/* ---- The recorded games ---- */

struct move {
    long long rev;
    int seat;
    char *action;
};

struct room_rec {
    char code[16];
    struct move *moves;
    size_t n, cap;
    size_t w0;  /* moves accepted before the window began */
    size_t w1;  /* moves accepted before the window ended */
    bool pre;   /* created before the window began */
    bool ended; /* both seats saw `ended` before the window ended */
};

struct recording {
    struct room_rec *rooms;
    size_t n, cap;
    size_t created_pre;
    size_t next_create; /* replay: next room to create */
};

static struct room_rec *rec_room_new(struct recording *r)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 128;
        struct room_rec *grown = realloc(r->rooms, cap * sizeof(*grown));
        if (!grown) {
            return NULL;
        }
        r->rooms = grown;
        r->cap = cap;
    }
    struct room_rec *room = &r->rooms[r->n++];
    memset(room, 0, sizeof(*room));
    return room;
}

static int rec_move_add(struct room_rec *room, long long rev, int seat, char *action)
{
    if (room->n == room->cap) {
        size_t cap = room->cap ? room->cap * 2 : 256;
        struct move *grown = realloc(room->moves, cap * sizeof(*grown));
        if (!grown) {
            return -1;
        }
        room->moves = grown;
        room->cap = cap;
    }
    room->moves[room->n++] = (struct move){.rev = rev, .seat = seat, .action = action};
    return 0;
}

static int cmp_move(const void *a, const void *b)
{
    const struct move *x = a, *y = b;
    return x->rev < y->rev ? -1 : x->rev > y->rev;
}

static void rec_free(struct recording *r)
{
    for (size_t i = 0; i < r->n; i++) {
        for (size_t k = 0; k < r->rooms[i].n; k++) {
            free(r->rooms[i].moves[k].action);
        }
        free(r->rooms[i].moves);
    }
    free(r->rooms);
    memset(r, 0, sizeof(*r));
}

/* ---- The play engine ---- */

enum mode { M_LEGAL, M_REPLAY, M_PACED, M_OFFERED };

enum pstate { P_QUEUED, P_CREATE, P_JOIN, P_START, P_PLAY, P_PAUSED, P_DONE };

struct pair {
    struct conn c[2];
    long room; /* index in the recording, -1 none */
    enum pstate st;
    size_t next;    /* replay: next move of the room */
    bool inflight;  /* replay: an act is outstanding */
    double due;     /* offered and paced: when the next move is due */
    bool scheduled; /* offered: the schedule has begun */
    bool hold;      /* paced: the next move waits for its time */
};

struct engine {
    enum mode mode;
    const struct config *cfg;
    const char *game;
    pid_t server;
    struct pair *pairs;
    int npairs;
    struct recording *rec;
    struct pair **queue;
    int qhead, qlen;
    struct pair *setting_up;
    int phase; /* 0 warm-up (replay: up to the barrier), 1 window, 2 over */
    /* Recording, after the window: only the replies to acts still in
     * flight are read (and recorded), nothing more is sent. */
    bool draining;
    double t0, t_start, t_end, gen0, gen1;
    double cpu0, cpu1; /* server CPU seconds at window start and end */
    long moves, refused, legal_reqs;
    double *lat;
    size_t nlat, lat_cap;
    double interval; /* offered and paced: seconds between two moves of one room */
    bool paced;      /* replay: the window's moves are sent on a schedule */
    bool failed;
    long long view_sum, you_sum, nviews; /* see struct result */
    long long move_view_sum, move_you_sum, move_tail_sum, nmove_views, move_line_sum;
    size_t line_len; /* of the line on_message() is given, newline included */
};

static void fail(struct engine *e, const char *fmt, ...)
{
    va_list ap;

    if (e->failed) {
        return;
    }
    e->failed = true;
    fprintf(stderr, "bench_load: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void lat_add(struct engine *e, double v)
{
    if (e->nlat == e->lat_cap) {
        size_t cap = e->lat_cap ? e->lat_cap * 2 : 65536;
        double *grown = realloc(e->lat, cap * sizeof(*grown));
        if (!grown) {
            return;
        }
        e->lat = grown;
        e->lat_cap = cap;
    }
    e->lat[e->nlat++] = v;
}

static struct room_rec *pair_room(struct engine *e, struct pair *p)
{
    return p->room >= 0 ? &e->rec->rooms[p->room] : NULL;
}

static void send_legal(struct engine *e, struct conn *c)
{
    c->st = C_LEGAL;
    conn_request(c, "\"op\":\"legal\"");
    if (e->phase == 1) {
        e->legal_reqs++;
    }
}

static void send_act(struct engine *e, struct conn *c, double base)
{
    c->st = C_ACT;
    c->lat_base = base;
    conn_request(c, "\"op\":\"act\",\"action\":%s", c->action);
}

static void setup_pump(struct engine *e)
{
    if (e->setting_up || e->qlen == 0 || e->failed) {
        return;
    }
    struct pair *p = e->queue[e->qhead];
    e->qhead = (e->qhead + 1) % e->npairs;
    e->qlen--;
    if (e->mode != M_REPLAY) {
        if (e->phase == 2) {
            p->st = P_DONE;
            return;
        }
        struct room_rec *room = rec_room_new(e->rec);
        if (!room) {
            fail(e, "out of memory");
            return;
        }
        room->pre = e->phase == 0;
        p->room = (long)(room - e->rec->rooms);
    }
    e->setting_up = p;
    p->st = P_CREATE;
    conn_request(&p->c[0], "\"op\":\"create\",\"game\":\"%s\",\"seats\":2", e->game);
}

/* Puts `p` in line for its next room. Rooms are set up one at a time, in
 * line order, so that the server draws its random numbers in the same order
 * in every run. */
static void setup_enqueue(struct engine *e, struct pair *p, long room)
{
    p->st = P_QUEUED;
    p->room = room;
    p->c[0].st = p->c[1].st = C_IDLE;
    e->queue[(e->qhead + e->qlen) % e->npairs] = p;
    e->qlen++;
    setup_pump(e);
}

/* Replay: sends the pair's next move when its turn has come, or moves the
 * pair on to its next room, the barrier, or the end. */
static void pair_step(struct engine *e, struct pair *p)
{
    struct recording *rec = e->rec;

    if (p->st != P_PLAY || e->failed) {
        return;
    }
    struct room_rec *room = pair_room(e, p);
    if (room) {
        size_t bound = e->phase == 0 ? (room->pre ? room->w0 : 0) : room->w1;
        if (p->next < bound) {
            if (p->inflight) {
                return;
            }
            struct move *m = &room->moves[p->next];
            struct conn *c = p->c[0].seat == m->seat ? &p->c[0] : &p->c[1];
            /* The seat sends once it has seen the rev before its move and,
             * when paced, once the move is due; a paced move's latency
             * counts from when it was due. */
            if (c->seen_rev >= m->rev - 1) {
                double t = now_s();
                bool paced = e->paced && e->phase == 1;
                p->hold = paced && t < p->due;
                if (p->hold) {
                    return;
                }
                p->inflight = true;
                c->st = C_ACT;
                c->lat_base = paced ? p->due : t;
                conn_request(c, "\"op\":\"act\",\"action\":%s", m->action);
            }
            return;
        }
        if (!(p->next == room->n && room->ended)) {
            p->st = e->phase == 0 ? P_PAUSED : P_DONE;
            return;
        }
        if (!p->c[0].ended || !p->c[1].ended) {
            return;
        }
    }
    size_t j = rec->next_create;
    if (j < rec->created_pre || (e->phase == 1 && j < rec->n)) {
        rec->next_create++;
        setup_enqueue(e, p, (long)j);
    } else if (e->phase == 0 && j < rec->n) {
        p->room = -1;
        p->st = P_PAUSED;
    } else {
        p->room = -1;
        p->st = P_DONE;
    }
}

static void on_setup_reply(struct engine *e, struct pair *p, struct conn *c, json_t *m)
{
    if (!json_is_true(json_object_get(m, "ok"))) {
        json_t *err = json_object_get(m, "error");
        fail(e, "setting up a room failed: %s: %s", json_string_value(json_object_get(err, "code")),
             json_string_value(json_object_get(err, "message")));
        return;
    }
    struct room_rec *room = pair_room(e, p);
    if (p->st == P_CREATE) {
        const char *code = json_string_value(json_object_get(m, "room"));
        if (!code || strlen(code) >= sizeof(room->code)) {
            fail(e, "create: no room code in the reply");
            return;
        }
        /* A room whose create was sent in the window but not answered
         * before its end has no recorded code. */
        if (e->mode == M_REPLAY && room->code[0] && strcmp(code, room->code) != 0) {
            fail(e, "the replay diverged: room %ld is %s, recorded as %s (is %s preloaded?)",
                 p->room, code, room->code, e->cfg->preload);
            return;
        }
        snprintf(room->code, sizeof(room->code), "%s", code);
        p->c[0].seat = (int)json_integer_value(json_object_get(m, "seat"));
        p->st = P_JOIN;
        conn_request(&p->c[1], "\"op\":\"join\",\"room\":\"%s\"", room->code);
    } else if (p->st == P_JOIN) {
        p->c[1].seat = (int)json_integer_value(json_object_get(m, "seat"));
        p->st = P_START;
        conn_request(&p->c[0], "\"op\":\"start\"");
    } else if (p->st == P_START) {
        long long rev = json_integer_value(json_object_get(m, "rev"));
        for (int i = 0; i < 2; i++) {
            p->c[i].seen_rev = rev;
            p->c[i].ended = false;
            p->c[i].pending = 0;
        }
        p->st = P_PLAY;
        p->next = 0;
        p->inflight = false;
        e->setting_up = NULL;
        if (!p->scheduled) {
            /* A pair's schedule begins when its first room starts, staggered
             * over one interval, so that setting up the first rooms one at a
             * time leaves no backlog to catch up on in the window. Later
             * rooms keep the pair's schedule: their set-up counts as lateness. */
            p->due = now_s() + e->interval * (double)(p - e->pairs) / e->npairs;
            p->scheduled = true;
        }
        if (e->mode == M_REPLAY) {
            pair_step(e, p);
        } else {
            send_legal(e, &p->c[0]);
            send_legal(e, &p->c[1]);
        }
        setup_pump(e);
    }
    (void)c;
}

static void on_legal_reply(struct engine *e, struct pair *p, struct conn *c, json_t *m)
{
    if (!json_is_true(json_object_get(m, "ok"))) {
        const char *code = json_string_value(json_object_get(json_object_get(m, "error"), "code"));
        if (code && (strcmp(code, "game_over") == 0 || strcmp(code, "not_in_game") == 0)) {
            c->st = C_EVENT;
            return;
        }
        fail(e, "legal refused: %s", code ? code : "?");
        return;
    }
    json_t *acts = json_object_get(m, "actions");
    if (json_array_size(acts) > 0) {
        free(c->action);
        c->action = json_dumps(json_array_get(acts, 0), JSON_COMPACT);
        if (!c->action) {
            fail(e, "out of memory");
            return;
        }
        if (e->mode == M_OFFERED) {
            if (now_s() < p->due) {
                c->st = C_HOLD;
            } else {
                send_act(e, c, p->due);
            }
        } else {
            send_act(e, c, now_s());
        }
    } else if (json_integer_value(json_object_get(m, "rev")) < c->seen_rev) {
        /* A diff came in after the list was made: ask again. */
        send_legal(e, c);
    } else {
        c->st = C_EVENT;
    }
}

static void on_act_reply(struct engine *e, struct pair *p, struct conn *c, json_t *m)
{
    double t = now_s();
    bool ok = json_is_true(json_object_get(m, "ok"));
    long long rev = json_integer_value(json_object_get(m, "rev"));
    struct room_rec *room = pair_room(e, p);

    if (e->mode == M_REPLAY) {
        struct move *mv = &room->moves[p->next];
        if (!ok || rev != mv->rev) {
            json_t *err = json_object_get(m, "error");
            fail(e, "the replay diverged in room %s at rev %lld: %s %s", room->code, mv->rev,
                 ok ? "accepted as rev" : json_string_value(json_object_get(err, "code")),
                 ok ? "" : json_string_value(json_object_get(err, "message")));
            return;
        }
        p->next++;
        p->inflight = false;
        if (e->paced && e->phase == 1) {
            p->due += e->interval;
        }
        if (rev > c->seen_rev) {
            c->seen_rev = rev;
        }
        c->st = C_IDLE;
        if (e->phase == 1) {
            e->moves++;
            lat_add(e, t - c->lat_base);
        }
        pair_step(e, p);
        return;
    }
    if (ok) {
        if (e->phase == 1) {
            e->moves++;
            lat_add(e, t - c->lat_base);
        }
        if (e->mode == M_LEGAL) {
            if (rec_move_add(room, rev, c->seat, c->action) != 0) {
                fail(e, "out of memory");
                return;
            }
            c->action = NULL;
        } else {
            p->due += e->interval;
        }
    } else if (e->phase == 1) {
        e->refused++;
    }
    if (e->draining) {
        c->st = C_IDLE;
        return;
    }
    send_legal(e, c);
}

/* One seat in VIEW_SAMPLE rooms (seat 0 of every VIEW_SAMPLE-th pair)
 * follows its view through the diffs in the `legal` row, to measure the
 * views that moves hash: few enough that this program's own work stays
 * small beside the 50 rooms' traffic. */
#define VIEW_SAMPLE 25

#define VIEW_FLAGS (JSON_COMPACT | JSON_SORT_KEYS)

/* Adds `view`'s canonical, compact size and its `you`'s to *all and *you,
 * and counts it. */
static void view_add(const json_t *view, long long *all, long long *you, long long *n)
{
    *all += (long long)json_dumpb(view, NULL, 0, VIEW_FLAGS);
    *you +=
        (long long)json_dumpb(json_object_get(view, "you"), NULL, 0, VIEW_FLAGS | JSON_ENCODE_ANY);
    (*n)++;
}

/* A sampled seat's diff: applied to the view it follows, whose new text
 * is measured against the one before. False when the diff does not apply. */
static bool view_follow(struct engine *e, struct conn *c, const json_t *patch)
{
    if (proto_patch_apply(&c->view, patch) != 0) {
        return false;
    }
    char *text = json_dumps(c->view, VIEW_FLAGS);
    if (!text) {
        return true;
    }
    size_t len = strlen(text);
    size_t you = json_dumpb(json_object_get(c->view, "you"), NULL, 0, VIEW_FLAGS | JSON_ENCODE_ANY);
    /* The public part: all but `,"you":` + its `you` + `}`, or the `}`. */
    size_t end = you ? you + 8 : 1;
    size_t pub = len > end ? len - end : 0;
    size_t same = 0;
    size_t old = c->text ? strlen(c->text) : 0;
    while (same < old && same < len && c->text[same] == text[same]) {
        same++;
    }
    e->move_view_sum += (long long)len;
    e->move_you_sum += (long long)you;
    e->move_tail_sum += (long long)(pub > same ? pub - same : 0);
    e->move_line_sum += (long long)e->line_len;
    e->nmove_views++;
    free(c->text);
    c->text = text;
    return true;
}

static void on_message(struct engine *e, struct conn *c, json_t *m)
{
    struct pair *p = c->pair;
    json_t *re = json_object_get(m, "re");

    if (re) {
        if (!c->pending || json_integer_value(re) != c->pending) {
            return;
        }
        c->pending = 0;
        if (e->draining && c->st != C_ACT) {
            c->st = C_IDLE;
            return;
        }
        if (p->st == P_CREATE || p->st == P_JOIN || p->st == P_START) {
            on_setup_reply(e, p, c, m);
        } else if (c->st == C_LEGAL) {
            on_legal_reply(e, p, c, m);
        } else if (c->st == C_ACT) {
            on_act_reply(e, p, c, m);
        }
        return;
    }
    const char *ev = json_string_value(json_object_get(m, "ev"));
    if (ev && strcmp(ev, "error") == 0) {
        fail(e, "error event: %s",
             json_string_value(json_object_get(json_object_get(m, "error"), "code")));
        return;
    }
    struct room_rec *room = pair_room(e, p);
    const char *code = json_string_value(json_object_get(m, "room"));
    if (!ev || !room || !code || strcmp(code, room->code) != 0 || p->st < P_PLAY) {
        return;
    }
    if (strcmp(ev, "diff") == 0 || strcmp(ev, "state") == 0) {
        long long rev = json_integer_value(json_object_get(m, "rev"));
        if (rev > c->seen_rev) {
            c->seen_rev = rev;
        }
        if (e->mode == M_REPLAY) {
            /* A whole state (sent instead of a diff when the server has
             * none to send) moves the replay on like a diff. */
            pair_step(e, p);
            return;
        }
        if (ev[0] != 'd') {
            json_t *view = json_object_get(m, "view");
            if (view) {
                view_add(view, &e->view_sum, &e->you_sum, &e->nviews);
                if (e->mode == M_LEGAL && c->seat == 0 && (p - e->pairs) % VIEW_SAMPLE == 0) {
                    json_decref(c->view);
                    free(c->text);
                    c->view = json_incref(view);
                    c->text = json_dumps(view, VIEW_FLAGS);
                }
            }
            return;
        }
        if (c->view && !view_follow(e, c, json_object_get(m, "patch"))) {
            fail(e, "a diff of room %s (rev %lld) does not apply to the view it follows", code,
                 rev);
            return;
        }
        if (c->st == C_EVENT && e->phase < 2) {
            send_legal(e, c);
        }
    } else if (strcmp(ev, "ended") == 0) {
        c->ended = true;
        if (e->mode == M_REPLAY) {
            pair_step(e, p);
            return;
        }
        c->st = C_IDLE;
        c->pending = 0;
        if (p->c[0].ended && p->c[1].ended && p->st == P_PLAY) {
            if (e->phase < 2) {
                room->ended = true;
            }
            if (!e->draining) {
                setup_enqueue(e, p, -1);
            }
        }
    }
}

/* Window bookkeeping for the legal and offered modes, by the clock. */
static void engine_tick(struct engine *e, double t)
{
    struct recording *rec = e->rec;

    if (e->phase == 0 && t >= e->t0 + e->cfg->warmup) {
        e->cpu0 = proc_cpu_s(e->server);
        e->gen0 = self_cpu_s();
        e->t_start = t;
        for (size_t i = 0; i < rec->n; i++) {
            rec->rooms[i].w0 = rec->rooms[i].n;
        }
        rec->created_pre = rec->n;
        e->phase = 1;
    } else if (e->phase == 1 && t >= e->t_start + e->cfg->seconds) {
        e->cpu1 = proc_cpu_s(e->server);
        e->gen1 = self_cpu_s();
        e->t_end = t;
        for (size_t i = 0; i < rec->n; i++) {
            rec->rooms[i].w1 = rec->rooms[i].n;
        }
        e->phase = 2;
    }
    if (e->mode == M_OFFERED && e->phase < 2) {
        for (int i = 0; i < e->npairs; i++) {
            struct pair *p = &e->pairs[i];
            for (int k = 0; k < 2; k++) {
                if (p->c[k].st == C_HOLD && t >= p->due) {
                    send_act(e, &p->c[k], p->due);
                }
            }
        }
    }
}

/* Replay: the barrier, then the end of the window, by the pairs' states.
 * Paced, the window also ends when the first pair has no move left (so the
 * offered rate holds to the end) or when the configured window is over, and
 * held moves leave when they are due. */
static void engine_replay_tick(struct engine *e, double t)
{
    int waiting = 0, done = 0;

    for (int i = 0; i < e->npairs; i++) {
        waiting += e->pairs[i].st == P_PAUSED || e->pairs[i].st == P_DONE;
        done += e->pairs[i].st == P_DONE;
    }
    if (e->paced && e->phase == 1) {
        if (done > 0 || t >= e->t_start + e->cfg->seconds) {
            waiting = e->npairs;
        } else {
            for (int i = 0; i < e->npairs; i++) {
                if (e->pairs[i].hold && t >= e->pairs[i].due) {
                    pair_step(e, &e->pairs[i]);
                }
            }
            return;
        }
    } else if (waiting < e->npairs || e->setting_up || e->qlen) {
        return;
    }
    if (e->phase == 0) {
        e->cpu0 = proc_cpu_s(e->server);
        e->gen0 = self_cpu_s();
        e->t_start = t;
        e->phase = 1;
        for (int i = 0; i < e->npairs; i++) {
            /* Paced, the pairs' schedules are staggered over one interval. */
            e->pairs[i].due = t + e->interval * (double)i / e->npairs;
            if (e->pairs[i].st == P_PAUSED) {
                e->pairs[i].st = P_PLAY;
                pair_step(e, &e->pairs[i]);
            }
        }
    } else if (e->phase == 1) {
        e->cpu1 = proc_cpu_s(e->server);
        e->gen1 = self_cpu_s();
        e->t_end = t;
        e->phase = 2;
    }
}

/* After a run that did not finish: what each unfinished pair waits for, on
 * stderr, so that a stall can be told from a slow server. */
static void engine_dump_stuck(struct engine *e)
{
    static const char *const pst[] = {"queued", "create", "join", "start",
                                      "play",   "paused", "done"};
    static const char *const cst[] = {"idle", "legal", "act", "event", "hold"};
    int shown = 0;

    fprintf(stderr, "bench_load: phase %d, %d pairs, setting up %s, %d queued\n", e->phase,
            e->npairs, e->setting_up ? "one" : "none", e->qlen);
    for (int i = 0; i < e->npairs && shown < 8; i++) {
        struct pair *p = &e->pairs[i];
        struct room_rec *room = pair_room(e, p);
        if (p->st == P_DONE || p->st == P_PAUSED) {
            continue;
        }
        shown++;
        fprintf(stderr,
                "  pair %d: %s, room %s, move %zu of %zu (rev %lld by seat %d), %s; "
                "seat %d %s seen %lld%s pending %ld; seat %d %s seen %lld%s pending %ld\n",
                i, pst[p->st], room ? room->code : "-", p->next, room ? room->n : 0,
                room && p->next < room->n ? room->moves[p->next].rev : -1,
                room && p->next < room->n ? room->moves[p->next].seat : -1,
                p->inflight ? "act in flight" : "no act in flight", p->c[0].seat, cst[p->c[0].st],
                p->c[0].seen_rev, p->c[0].ended ? " ended" : "", p->c[0].pending, p->c[1].seat,
                cst[p->c[1].st], p->c[1].seen_rev, p->c[1].ended ? " ended" : "", p->c[1].pending);
    }
}

/* Waits up to `timeout` ms for lines from the server and handles each.
 * Returns 0, or -1 once the run has failed. */
static int engine_read(struct engine *e, struct pollfd *pfd, int timeout)
{
    int n = poll(pfd, (nfds_t)e->npairs * 2, timeout);

    if (n < 0 && errno != EINTR) {
        fail(e, "poll: %s", strerror(errno));
        return -1;
    }
    for (int i = 0; n > 0 && i < e->npairs * 2 && !e->failed; i++) {
        if (!pfd[i].revents) {
            continue;
        }
        struct conn *c = &e->pairs[i / 2].c[i % 2];
        char buf[65536];
        ssize_t got = read(c->fd, buf, sizeof(buf));
        if (got <= 0 || proto_framer_feed(&c->fr, buf, (size_t)got) != 0) {
            fail(e, "the server closed a connection");
            return -1;
        }
        const char *line;
        size_t len;
        while (!e->failed && proto_framer_next(&c->fr, &line, &len) > 0) {
            json_t *m = json_loadb(line, len, 0, NULL);
            e->line_len = len + 1;
            if (m) {
                on_message(e, c, m);
            }
            json_decref(m);
        }
    }
    return e->failed ? -1 : 0;
}

/* After a recording's window: the acts still in flight are answered and
 * recorded, so that no room's recording lacks a move that one recorded
 * after it followed (its replay would wait for it forever). Nothing new is
 * sent; the window's counts are already taken. */
static void engine_drain(struct engine *e, struct pollfd *pfd)
{
    double end = now_s() + 30;

    e->draining = true;
    for (;;) {
        bool inflight = false;
        for (int i = 0; i < e->npairs * 2 && !inflight; i++) {
            inflight = e->pairs[i / 2].c[i % 2].st == C_ACT && e->pairs[i / 2].c[i % 2].pending;
        }
        if (!inflight || now_s() > end || engine_read(e, pfd, 100) != 0) {
            return;
        }
    }
}

/* Plays one measurement against the running server `srv`. For M_LEGAL the
 * recording is filled; for M_REPLAY it is played back. Fills the timing
 * fields of *res. Returns 0 or -1. */
static int engine_run(enum mode mode, const struct config *cfg, const char *game,
                      const struct server *srv, struct recording *rec, struct result *res)
{
    struct engine e = {.mode = mode == M_PACED ? M_REPLAY : mode,
                       .paced = mode == M_PACED,
                       .cfg = cfg,
                       .game = game,
                       .server = srv->pid,
                       .rec = rec};
    int rc = -1;

    mode = e.mode;

    e.npairs = cfg->rooms;
    e.pairs = calloc((size_t)e.npairs, sizeof(*e.pairs));
    e.queue = calloc((size_t)e.npairs, sizeof(*e.queue));
    struct pollfd *pfd = calloc((size_t)e.npairs * 2, sizeof(*pfd));
    if (!e.pairs || !e.queue || !pfd) {
        goto out;
    }
    for (int i = 0; i < e.npairs; i++) {
        for (int k = 0; k < 2; k++) {
            struct conn *c = &e.pairs[i].c[k];
            if (conn_dial(c, srv->port) != 0 || conn_hello(c) != 0) {
                fprintf(stderr, "bench_load: cannot connect to the server\n");
                goto out;
            }
            c->pair = &e.pairs[i];
            pfd[2 * i + k].fd = c->fd;
            pfd[2 * i + k].events = POLLIN;
        }
        e.pairs[i].room = -1;
    }
    e.t0 = now_s();
    e.interval = cfg->rate > 0 ? (double)cfg->rooms / cfg->rate : 0;
    if (mode == M_REPLAY) {
        rec->next_create = 0;
    }
    for (int i = 0; i < e.npairs; i++) {
        if (mode == M_REPLAY) {
            e.pairs[i].st = P_PLAY;
            pair_step(&e, &e.pairs[i]);
        } else {
            setup_enqueue(&e, &e.pairs[i], -1);
        }
    }
    double limit =
        mode == M_REPLAY ? 60 + 5 * (cfg->warmup + cfg->seconds) : 30 + cfg->warmup + cfg->seconds;
    while (e.phase < 2 && !e.failed) {
        double t = now_s();
        if (t - e.t0 > limit) {
            fail(&e, "the run did not finish within %.0f s", limit);
            engine_dump_stuck(&e);
            break;
        }
        /* Sleep until the next thing due: the window's edge or a held move. */
        int timeout = 100;
        bool paced = e.paced && e.phase == 1;
        if (paced || mode != M_REPLAY) {
            double next = e.phase == 0 ? e.t0 + cfg->warmup : e.t_start + cfg->seconds;
            for (int i = 0; i < e.npairs; i++) {
                struct pair *p = &e.pairs[i];
                bool held =
                    paced ? p->hold
                          : mode == M_OFFERED && (p->c[0].st == C_HOLD || p->c[1].st == C_HOLD);
                if (held && p->due < next) {
                    next = p->due;
                }
            }
            double ms = (next - t) * 1000;
            timeout = ms <= 0 ? 0 : ms > 100 ? 100 : (int)ms + (ms > (int)ms);
        }
        if (engine_read(&e, pfd, timeout) != 0) {
            break;
        }
        t = now_s();
        if (mode == M_REPLAY) {
            engine_replay_tick(&e, t);
        } else {
            engine_tick(&e, t);
        }
    }
    if (!e.failed && mode == M_LEGAL) {
        engine_drain(&e, pfd);
    }
    if (!e.failed) {
        if (mode == M_LEGAL) {
            for (size_t i = 0; i < rec->n; i++) {
                qsort(rec->rooms[i].moves, rec->rooms[i].n, sizeof(struct move), cmp_move);
            }
        }
        double secs = e.t_end - e.t_start;
        res->moves = e.moves;
        res->secs = secs;
        res->refused = e.refused;
        res->legal_reqs = e.legal_reqs;
        res->cpu_us = e.moves ? (e.cpu1 - e.cpu0) * 1e6 / (double)e.moves : 0;
        res->gen_cpu = secs > 0 ? (e.gen1 - e.gen0) / secs : 0;
        res->view_sum = e.view_sum;
        res->you_sum = e.you_sum;
        res->nviews = e.nviews;
        res->move_view_sum = e.move_view_sum;
        res->move_you_sum = e.move_you_sum;
        res->move_tail_sum = e.move_tail_sum;
        res->nmove_views = e.nmove_views;
        res->move_line_sum = e.move_line_sum;
        if (e.nlat) {
            qsort(e.lat, e.nlat, sizeof(double), cmp_double);
            res->p50 = 1000 * e.lat[e.nlat / 2];
            res->p99 = 1000 * e.lat[e.nlat * 99 / 100];
        }
        res->hwm_kb = proc_status_kb(srv->pid, "VmHWM");
        res->ok = e.moves > 0;
        rc = res->ok ? 0 : -1;
        if (!res->ok) {
            fprintf(stderr, "bench_load: no move was accepted in the window\n");
        }
    }
out:
    for (int i = 0; e.pairs && i < e.npairs; i++) {
        conn_close(&e.pairs[i].c[0]);
        conn_close(&e.pairs[i].c[1]);
    }
    free(e.pairs);
    free(e.queue);
    free(e.lat);
    free(pfd);
    return rc;
}

/* ---- Measurements ---- */

static void result_init(struct result *r, enum kind kind, const char *game, const char *mode)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->server, sizeof(r->server), "%s", kind_name(kind));
    snprintf(r->game, sizeof(r->game), "%s", game);
    snprintf(r->mode, sizeof(r->mode), "%s", mode);
    r->per_fsync = -1;
}

static void result_log(const struct result *r)
{
    if (!r->ok) {
        printf("  %-9s %-9s %-14s FAILED\n", r->server, r->game, r->mode);
        fflush(stdout);
        return;
    }
    printf("  %-9s %-9s %-14s %7ld moves in %5.2f s = %6.0f/s, server %6.1f us/move, "
           "act p50 %.2f ms p99 %.2f ms, %ld refused, %.2f legal/move, peak %.1f MiB, "
           "load generator %.0f%% of a core\n",
           r->server, r->game, r->mode, r->moves, r->secs, (double)r->moves / r->secs, r->cpu_us,
           r->p50, r->p99, r->refused, (double)r->legal_reqs / (double)r->moves,
           (double)r->hwm_kb / 1024, 100 * r->gen_cpu);
    fflush(stdout);
}

/* Legal mode on a fresh server; the moves go into `rec`. */
static void measure_legal(const struct config *cfg, enum kind kind, const char *game,
                          struct recording *rec, struct result *res)
{
    struct server srv;

    result_init(res, kind, game, "legal");
    if (server_start(&srv, cfg, kind) == 0) {
        if (engine_run(M_LEGAL, cfg, game, &srv, rec, res) != 0) {
            res->ok = false;
        }
        server_stop(&srv, res);
    }
    result_log(res);
}

/* Act mode on a fresh server: replays `rec`, which `legal` recorded. */
static void measure_act(const struct config *cfg, enum kind kind, const char *game,
                        struct recording *rec, const struct result *legal, struct result *res)
{
    struct server srv;

    result_init(res, kind, game, "act");
    if (legal->ok && server_start(&srv, cfg, kind) == 0) {
        if (engine_run(M_REPLAY, cfg, game, &srv, rec, res) != 0) {
            res->ok = false;
        } else if (res->moves != legal->moves) {
            fprintf(stderr, "bench_load: the replay window held %ld moves, the legal one %ld\n",
                    res->moves, legal->moves);
        }
        server_stop(&srv, res);
    }
    result_log(res);
}

/* Open loop on a fresh server. Paced: the act path, replaying `rec` (which
 * `legal` recorded) with the window's moves sent on the schedule. Otherwise
 * the turn race of `legal`, each act sent on the schedule. */
static void measure_offered(const struct config *cfg, enum kind kind, const char *game,
                            struct recording *rec, struct result *res)
{
    struct recording own = {0};
    struct server srv;
    char mode[24];

    snprintf(mode, sizeof(mode), "%s %.0f/s", rec ? "act offered" : "legal offered", cfg->rate);
    result_init(res, kind, game, mode);
    if (kind == K_CONCLAVED && strcmp(cfg->fsync, "never") == 0) {
        /* The same row without waiting for the disk: the server's own share
         * of the latency. */
        snprintf(res->server, sizeof(res->server), "conclaved/never");
    }
    if (server_start(&srv, cfg, kind) == 0) {
        if (engine_run(rec ? M_PACED : M_OFFERED, cfg, game, &srv, rec ? rec : &own, res) != 0) {
            res->ok = false;
        }
        server_stop(&srv, res);
    }
    result_log(res);
    rec_free(&own);
}

/* ---- The disk's own flush ---- */

/* What this disk's flush costs, measured on its own: the p50 and p99 (µs)
 * of one step, a record-sized write then fdatasync(), and the CPU time
 * (µs, user and kernel, of the thread that flushes) a step takes. */
struct probe {
    char game[16];
    bool ok;
    bool in_place; /* written over the file's own bytes, as conclaved's write-ahead file */
    bool loaded;   /* taken while a server ran under load, paced */
    long samples;
    long long file_bytes, record_bytes;
    double p50, p99;
    double cpu_us;
};

/* The CPU time of the calling thread, seconds. */
static double thread_cpu_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define PROBE_SAMPLES 2000
#define PROBE_SECONDS 2.0
#define PROBE_PACE_US 2000 /* between the steps of a probe taken under load */

/* Measures `pr`: a file in a fresh directory beside conclaved's data
 * directories (the same file system), grown to `file_bytes` and flushed,
 * then up to PROBE_SAMPLES steps (or `seconds`), each writing
 * `record_bytes` and calling fdatasync(), each step timed: appended to the
 * file, or with `in_place` written over its bytes from its 4 KiB on, as
 * conclaved writes its write-ahead file. Without `pace_us` no server runs
 * meanwhile: this is the flush of the disk alone. With it, the probe waits
 * `pace_us` between steps, so that it adds little to the load it runs
 * beside. */
static void probe_flush(struct probe *pr, long long file_bytes, long long record_bytes,
                        bool in_place, long pace_us, double seconds)
{
    char dir[64], path[96];
    double *lat = calloc(PROBE_SAMPLES, sizeof(*lat));
    char *rec = NULL;
    int fd = -1;
    long n = 0;

    pr->ok = false;
    pr->in_place = in_place;
    pr->loaded = pace_us > 0;
    pr->file_bytes = file_bytes;
    pr->record_bytes = record_bytes = record_bytes < 1 ? 1 : record_bytes;
    if (!lat || bench_dir_make("bench_load", "/tmp/conclave-bench-XXXXXX", dir) != 0) {
        free(lat);
        return;
    }
    snprintf(path, sizeof(path), "%s/journal", dir);
    fd = open(path, O_WRONLY | O_CREAT | (in_place ? 0 : O_APPEND) | O_CLOEXEC, 0600);
    rec = malloc((size_t)record_bytes);
    if (fd < 0 || !rec) {
        goto done;
    }
    memset(rec, 'x', (size_t)record_bytes);
    rec[record_bytes - 1] = '\n';
    char chunk[65536];
    memset(chunk, 'x', sizeof(chunk));
    for (long long left = file_bytes; left > 0;) {
        size_t k = left < (long long)sizeof(chunk) ? (size_t)left : sizeof(chunk);
        if (write_all(fd, chunk, k) != 0) {
            goto done;
        }
        left -= (long long)k;
    }
    if (fdatasync(fd) != 0) {
        goto done;
    }
    double end = now_s() + seconds;
    double cpu0 = thread_cpu_s();
    long long at = 4096;
    while (n < PROBE_SAMPLES && now_s() < end) {
        if (pace_us > 0) {
            usleep((useconds_t)pace_us);
        }
        double t0 = now_s();
        if (in_place && at + record_bytes > file_bytes) {
            at = 4096;
        }
        if ((in_place ? pwrite(fd, rec, (size_t)record_bytes, (off_t)at) != (ssize_t)record_bytes
                      : write_all(fd, rec, (size_t)record_bytes) != 0) ||
            fdatasync(fd) != 0) {
            goto done;
        }
        at += record_bytes;
        lat[n++] = (now_s() - t0) * 1e6;
    }
    pr->cpu_us = n > 0 ? (thread_cpu_s() - cpu0) * 1e6 / (double)n : 0;
    qsort(lat, (size_t)n, sizeof(*lat), cmp_double);
    pr->samples = n;
    pr->p50 = lat[n / 2];
    pr->p99 = lat[n * 99 / 100];
    pr->ok = n > 0;
done:
    if (fd >= 0) {
        close(fd);
    }
    free(rec);
    free(lat);
    remove_dir(dir);
    if (pr->ok) {
        printf("  disk      %-9s flush probe%s: %ld steps of %lld B %s then fdatasync on a "
               "%lld B file, p50 %.0f us p99 %.0f us, %.1f us of CPU a step\n",
               pr->game, pr->loaded ? " under load" : "", pr->samples, pr->record_bytes,
               pr->in_place ? "written in place" : "appended", pr->file_bytes, pr->p50, pr->p99,
               pr->cpu_us);
    } else {
        printf("  disk      %-9s flush probe FAILED\n", pr->game);
    }
    fflush(stdout);
}

/* A probe run beside a measured row, on its own thread: it waits `delay`
 * seconds (the server's start and the row's warmup), then probes paced
 * for `seconds`. */
struct probe_beside {
    pthread_t thread;
    struct probe *pr;
    long long file_bytes, record_bytes;
    bool in_place;
    double delay, seconds;
};

static void *probe_beside_run(void *arg)
{
    struct probe_beside *b = arg;

    usleep((useconds_t)(b->delay * 1e6));
    probe_flush(b->pr, b->file_bytes, b->record_bytes, b->in_place, PROBE_PACE_US, b->seconds);
    return NULL;
}

/* One worker of the idle test: opens `n` connections from source address
 * 127.0.0.`src`, each sends hello and reads the reply; then it reports on
 * `ready` and holds them until `hold` closes. Never returns. */
static void idle_worker(int port, int src, int n, int ready, int hold)
{
    struct rlimit rl;
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    struct sockaddr_in from = {.sin_family = AF_INET};
    char addr[32];
    static const char hello[] = "{\"id\":1,\"op\":\"hello\",\"proto\":1,\"name\":\"idle\"}\n";
    int one = 1, opened = 0;

    alarm(300);
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    snprintf(addr, sizeof(addr), "127.0.0.%d", src);
    inet_pton(AF_INET, addr, &from.sin_addr);
    for (int i = 0; i < n; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) {
            break;
        }
        setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one));
        if (bind(fd, (struct sockaddr *)&from, sizeof(from)) != 0 ||
            connect(fd, (struct sockaddr *)&to, sizeof(to)) != 0 ||
            write_all(fd, hello, sizeof(hello) - 1) != 0) {
            close(fd);
            break;
        }
        char buf[4096];
        bool line = false;
        while (!line) {
            ssize_t got = read(fd, buf, sizeof(buf));
            if (got <= 0) {
                break;
            }
            line = memchr(buf, '\n', (size_t)got) != NULL;
        }
        if (!line) {
            close(fd);
            break;
        }
        opened++;
    }
    char msg[32];
    int len = snprintf(msg, sizeof(msg), "%d\n", opened);
    (void)write_all(ready, msg, (size_t)len);
    char c;
    while (read(hold, &c, 1) > 0) {
    }
    _exit(0);
}

/* Opens cfg->idle idle connections (at most what the server's descriptor
 * limit allows) and returns the server's resident memory growth per
 * connection in KiB, or -1. *ret_n gets the number of connections. */
static double measure_idle(const struct config *cfg, bool floor, int *ret_n)
{
    struct rlimit rl;
    struct server srv;
    int want = cfg->idle;
    double kib = -1;

    *ret_n = 0;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        /* The server inherits this limit and needs a few descriptors of its
         * own besides one per connection. */
        if ((uint64_t)want > server_max_conns() - 16) {
            want = (int)(server_max_conns() - 16);
            fprintf(stderr,
                    "bench_load: %d idle connections, not %d: the descriptor limit is %llu\n", want,
                    cfg->idle, (unsigned long long)rl.rlim_max);
        }
    }
    if (want < 1 || server_start(&srv, cfg, floor ? K_FLOOR : K_CONCLAVED) != 0) {
        return -1;
    }
    /* One connection with hello first, so that what is measured is the
     * cost of one more connection, not the first one. */
    struct conn warm;
    if (conn_dial(&warm, srv.port) != 0 || conn_hello(&warm) != 0) {
        server_stop(&srv, NULL);
        return -1;
    }
    sleep_s(0.2);
    long before = proc_status_kb(srv.pid, "VmRSS");
    int nworkers = (want + IDLE_PER_WORKER - 1) / IDLE_PER_WORKER;
    int ready[2], hold[2];
    pid_t workers[64];
    int started = 0;
    if (nworkers > 64 || pipe(ready) != 0 || pipe(hold) != 0) {
        conn_close(&warm);
        server_stop(&srv, NULL);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    for (int w = 0; w < nworkers; w++) {
        int n = want - w * IDLE_PER_WORKER < IDLE_PER_WORKER ? want - w * IDLE_PER_WORKER
                                                             : IDLE_PER_WORKER;
        pid_t pid = fork();
        if (pid == 0) {
            close(ready[0]);
            close(hold[1]);
            idle_worker(srv.port, 2 + w, n, ready[1], hold[0]);
        }
        if (pid > 0) {
            workers[started++] = pid;
        }
    }
    close(ready[1]);
    close(hold[0]);
    FILE *r = fdopen(ready[0], "r");
    int opened = 0, reports = 0, v;
    while (r && reports < started && fscanf(r, "%d", &v) == 1) {
        opened += v;
        reports++;
    }
    sleep_s(0.5);
    long after = proc_status_kb(srv.pid, "VmRSS");
    if (opened == want) {
        kib = (double)(after - before) / opened;
    } else {
        fprintf(stderr, "bench_load: only %d of %d idle connections were accepted\n", opened, want);
    }
    *ret_n = opened;
    close(hold[1]);
    for (int i = 0; i < started; i++) {
        waitpid(workers[i], NULL, 0);
    }
    if (r) {
        fclose(r);
    }
    conn_close(&warm);
    server_stop(&srv, NULL);
    printf("  %-9s idle: %d connections, VmRSS %ld -> %ld KiB\n", floor ? "floor" : "conclaved",
           opened, before, after);
    fflush(stdout);
    return kib;
}

/* ---- The table ---- */

static void print_header(const struct config *cfg, int nrep)
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
    printf("bench_load --mode %s: %s, %s %s, %ld cores, load average %s at the start\n", cfg->mode,
           when, u.sysname, u.release, sysconf(_SC_NPROCESSORS_ONLN), load);
    printf("%d rooms, --fsync %s, warm-up %.0f s, window %.0f s, offered %.0f moves/s, %d "
           "repetition%s, jansson %s\n",
           cfg->rooms, cfg->fsync, cfg->warmup, cfg->seconds, cfg->rate, nrep, nrep == 1 ? "" : "s",
           JANSSON_VERSION);
    printf("conclaved: %s\nfloor:     %s\nfloor/jansson: %s\n\n",
           cfg->conclaved ? cfg->conclaved : "-", cfg->floor,
           cfg->floor_jansson ? cfg->floor_jansson : "-");
    fflush(stdout);
}

/* Index of the floor's row for the same game and mode as row `i`, or -1. */
static int floor_row(const struct result *rs, int nrows, int i)
{
    for (int k = 0; k < nrows; k++) {
        if (strcmp(rs[k].server, "floor") == 0 && strcmp(rs[k].game, rs[i].game) == 0 &&
            strcmp(rs[k].mode, rs[i].mode) == 0) {
            return k;
        }
    }
    return -1;
}

/* Index of the row of `server` for `game` whose mode starts with `mode`, or
 * -1. Every repetition has the same rows in the same order. */
static int find_row(const struct result *rs, int nrows, const char *server, const char *game,
                    const char *mode)
{
    for (int k = 0; k < nrows; k++) {
        if (strcmp(rs[k].server, server) == 0 && strcmp(rs[k].game, game) == 0 &&
            strncmp(rs[k].mode, mode, strlen(mode)) == 0) {
            return k;
        }
    }
    return -1;
}

/* The median over the repetitions of row `i`'s CPU per move divided by row
 * `f`'s in the same repetition; 0 when there is none. */
static double row_ratio(const struct result *rs, int nrep, int i, int f)
{
    double ratio[64];
    int n = 0;

    for (int r = 0; i >= 0 && f >= 0 && r < nrep && r < 64; r++) {
        const struct result *x = &rs[r * ROWS_MAX + i], *fl = &rs[r * ROWS_MAX + f];
        if (x->ok && fl->ok && fl->cpu_us > 0) {
            ratio[n++] = x->cpu_us / fl->cpu_us;
        }
    }
    return n ? median(ratio, n) : 0;
}

/* The same against the strict floor's row of the same game and mode. */
static double floor_ratio(const struct result *rs, int nrows, int nrep, int i)
{
    return row_ratio(rs, nrep, i, floor_row(rs, nrows, i));
}

/* What row_median() takes the median of. */
enum row_field { F_P99, F_CPU, F_PER_FSYNC };

/* The median over the repetitions of row `i`'s act p99 (ms), CPU per move
 * (µs) or journal records per fsync, over the repetitions that measured
 * it; -1 when none. */
static double row_median(const struct result *rs, int nrep, int i, enum row_field f)
{
    double v[64];
    int n = 0;

    for (int r = 0; i >= 0 && r < nrep && r < 64; r++) {
        const struct result *x = &rs[r * ROWS_MAX + i];
        double y = f == F_P99 ? x->p99 : f == F_CPU ? x->cpu_us : x->per_fsync;
        if (x->ok && (f == F_P99 || y > 0)) {
            v[n++] = y;
        }
    }
    return n ? median(v, n) : -1;
}

/* The table: rs holds nrep repetitions of nrows rows (rs[r * ROWS_MAX + i]).
 * Each figure is the median over the repetitions that succeeded; the ratio
 * to the strict floor is the median of the ratios within each repetition,
 * where the servers ran one after the other. */
static void print_table(const struct result *rs, int nrows, int nrep)
{
    printf("| server | game | mode | moves/s | CPU µs/move%s | × strict floor | act p50 / p99 ms | "
           "peak RSS | records/fsync | journal write p99 ms |\n",
           nrep > 1 ? " (min–max)" : "");
    printf("|---|---|---|---:|---:|---:|---|---:|---:|---:|\n");
    for (int i = 0; i < nrows; i++) {
        double rate[64], cpu[64], p50[64], p99[64], hwm[64], fs[64], jobs[64];
        int n = 0, nfs = 0, njobs = 0;
        double ratio = floor_ratio(rs, nrows, nrep, i);
        for (int r = 0; r < nrep && r < 64; r++) {
            const struct result *x = &rs[r * ROWS_MAX + i];
            if (!x->ok) {
                continue;
            }
            rate[n] = (double)x->moves / x->secs;
            cpu[n] = x->cpu_us;
            p50[n] = x->p50;
            p99[n] = x->p99;
            hwm[n] = (double)x->hwm_kb / 1024;
            n++;
            if (x->per_fsync >= 0) {
                fs[nfs++] = x->per_fsync;
            }
            if (x->job_p99 >= 0) {
                jobs[njobs++] = x->job_p99;
            }
        }
        const struct result *r0 = &rs[i];
        if (n == 0) {
            printf("| %s | %s | %s | failed | | | | | | |\n", r0->server, r0->game, r0->mode);
            continue;
        }
        double lo = cpu[0], hi = cpu[0];
        for (int k = 1; k < n; k++) {
            lo = cpu[k] < lo ? cpu[k] : lo;
            hi = cpu[k] > hi ? cpu[k] : hi;
        }
        char cpus[64], rat[32] = "–", fss[32] = "–", jps[32] = "–";
        if (n > 1) {
            snprintf(cpus, sizeof(cpus), "%.1f (%.1f–%.1f)", median(cpu, n), lo, hi);
        } else {
            snprintf(cpus, sizeof(cpus), "%.1f", cpu[0]);
        }
        if (ratio > 0) {
            snprintf(rat, sizeof(rat), "%.1f", ratio);
        }
        if (nfs) {
            snprintf(fss, sizeof(fss), "%.1f", median(fs, nfs));
        }
        if (njobs) {
            snprintf(jps, sizeof(jps), "< %.1f", median(jobs, njobs));
        }
        printf("| %s | %s | %s | %.0f | %s | %s | %.2f / %.2f | %.0f MiB | %s | %s |\n", r0->server,
               r0->game, r0->mode, median(rate, n), cpus, rat, median(p50, n), median(p99, n),
               median(hwm, n), fss, jps);
    }
}

/* The CPU that `legal` adds per move: legal-mode minus act-mode CPU per
 * move over the same moves, the median (and range) over the repetitions.
 * Where `legal` is cheap the range can cross zero: the difference is then
 * smaller than what the machine's noise moves a run by. */
static void print_derived(const struct result *rs, int nrows, int nrep)
{
    printf("\n");
    for (int i = 0; i < nrows; i++) {
        if (strcmp(rs[i].mode, "legal") != 0) {
            continue;
        }
        for (int k = 0; k < nrows; k++) {
            if (strcmp(rs[k].mode, "act") != 0 || strcmp(rs[k].server, rs[i].server) != 0 ||
                strcmp(rs[k].game, rs[i].game) != 0) {
                continue;
            }
            double d[64], reqs[64];
            int n = 0;
            for (int r = 0; r < nrep && r < 64; r++) {
                const struct result *l = &rs[r * ROWS_MAX + i], *a = &rs[r * ROWS_MAX + k];
                if (l->ok && a->ok) {
                    d[n] = l->cpu_us - a->cpu_us;
                    reqs[n] = (double)l->legal_reqs / (double)l->moves;
                    n++;
                }
            }
            if (n) {
                double lo = d[0], hi = d[0];
                for (int j = 1; j < n; j++) {
                    lo = d[j] < lo ? d[j] : lo;
                    hi = d[j] > hi ? d[j] : hi;
                }
                printf("%s %s: `legal` adds %.1f µs per move", rs[i].server, rs[i].game,
                       median(d, n));
                if (n > 1) {
                    printf(" (%.1f to %.1f)", lo, hi);
                }
                printf(", %.2f requests per move: legal-mode minus act-mode CPU over the same "
                       "moves\n",
                       median(reqs, n));
            }
        }
    }
}

/* The disk's flush and the targets, per game: `legal` then `act` within 3
 * and the act path within 2 times the strict floor's CPU per move, and the
 * durable act p99 at the offered rate within twice the disk's own flush
 * p99 plus the p99 of the same row on --fsync never. Figures are medians
 * over the repetitions (the probe's too). */
static void print_targets(const struct result *rs, int nrows, int nrep, const struct probe *ps,
                          const struct probe *loaded, int nprobes)
{
    char seen[ROWS_MAX][16];
    int ngames = 0;
    /* Per game, for the tables below this one. */
    double flush_cpu[ROWS_MAX], floor_act[ROWS_MAX], act_fsync[ROWS_MAX], act_cpu[ROWS_MAX];
    double alone99[ROWS_MAX], loaded99[ROWS_MAX], durable99[ROWS_MAX], never99[ROWS_MAX];

    printf("\n| game | disk flush p50 / p99 ms | file / record bytes | legal × strict floor "
           "(≤ 3) | act × strict floor (≤ 2) | act p99 durable / never ms | durable target ms "
           "(2 × flush p99 + never p99) | durable p99 / flush p99 | durable met |\n");
    printf("|---|---|---|---|---|---|---:|---:|---|\n");
    for (int i = 0; i < nrows; i++) {
        const char *g = rs[i].game;
        bool dup = false;
        for (int k = 0; k < ngames; k++) {
            dup |= strcmp(seen[k], g) == 0;
        }
        if (dup || ngames == ROWS_MAX) {
            continue;
        }
        snprintf(seen[ngames++], sizeof(seen[0]), "%s", g);

        double f50[64], f99[64], fcpu[64], l99[64];
        long long fb = 0, rb = 0;
        int nf = 0, nl = 0;
        for (int r = 0; r < nrep && r < 64; r++) {
            for (int k = 0; k < nprobes; k++) {
                const struct probe *p = &ps[r * ROWS_MAX + k];
                const struct probe *l = &loaded[r * ROWS_MAX + k];
                if (p->ok && strcmp(p->game, g) == 0) {
                    fcpu[nf] = p->cpu_us;
                    f50[nf] = p->p50 / 1000;
                    f99[nf] = p->p99 / 1000;
                    fb = p->file_bytes;
                    rb = p->record_bytes;
                    nf++;
                }
                if (l->ok && strcmp(l->game, g) == 0) {
                    l99[nl++] = l->p99 / 1000;
                }
            }
        }
        double lr = floor_ratio(rs, nrows, nrep, find_row(rs, nrows, "conclaved", g, "legal"));
        double ar = floor_ratio(rs, nrows, nrep, find_row(rs, nrows, "conclaved", g, "act"));
        double dp = row_median(rs, nrep, find_row(rs, nrows, "conclaved", g, "act offered"), F_P99);
        double np =
            row_median(rs, nrep, find_row(rs, nrows, "conclaved/never", g, "act offered"), F_P99);
        char flush[48] = "–", sizes[48] = "–", lrs[32] = "–", ars[32] = "–", ps99[48] = "–";
        char tgt[32] = "–", rel[32] = "–", met[16] = "–";
        if (nf) {
            double m99 = median(f99, nf);
            snprintf(flush, sizeof(flush), "%.2f / %.2f", median(f50, nf), m99);
            snprintf(sizes, sizeof(sizes), "%lld / %lld", fb, rb);
            if (dp >= 0 && np >= 0) {
                double target = 2 * m99 + np;
                snprintf(tgt, sizeof(tgt), "%.2f", target);
                snprintf(rel, sizeof(rel), "%.1f", dp / m99);
                snprintf(met, sizeof(met), "%s", dp <= target ? "met" : "not met");
            }
        }
        if (lr > 0) {
            snprintf(lrs, sizeof(lrs), "%.1f (%s)", lr, lr <= 3 ? "met" : "not met");
        }
        if (ar > 0) {
            snprintf(ars, sizeof(ars), "%.1f (%s)", ar, ar <= 2 ? "met" : "not met");
        }
        if (dp >= 0 || np >= 0) {
            snprintf(ps99, sizeof(ps99), "%.2f / %.2f", dp, np);
        }
        printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", g, flush, sizes, lrs, ars, ps99,
               tgt, rel, met);
        int ca = find_row(rs, nrows, "conclaved", g, "act");
        flush_cpu[ngames - 1] = nf ? median(fcpu, nf) : -1;
        floor_act[ngames - 1] =
            ca >= 0 ? row_median(rs, nrep, floor_row(rs, nrows, ca), F_CPU) : -1;
        act_fsync[ngames - 1] = row_median(rs, nrep, ca, F_PER_FSYNC);
        act_cpu[ngames - 1] = row_median(rs, nrep, ca, F_CPU);
        alone99[ngames - 1] = nf ? median(f99, nf) : -1;
        loaded99[ngames - 1] = nl ? median(l99, nl) : -1;
        durable99[ngames - 1] = dp;
        never99[ngames - 1] = np;
    }

    /* The act path against the owed floor: the strict floor plus the view
     * hash and a durable record before each reply, done as cheaply as
     * they can be. */
    printf("\n| game | strict floor act µs | owed floor act µs | owed floor × strict floor | owed "
           "floor records per flush | conclaved act µs | conclaved × owed floor |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < ngames; k++) {
        int oa = find_row(rs, nrows, "floor/owed", seen[k], "act");
        int ca = find_row(rs, nrows, "conclaved", seen[k], "act");
        double owed = row_median(rs, nrep, oa, F_CPU);
        if (oa < 0 || ca < 0 || owed <= 0 || floor_act[k] <= 0) {
            printf("| %s | – | – | – | – | – | – |\n", seen[k]);
            continue;
        }
        printf("| %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f |\n", seen[k], floor_act[k], owed,
               floor_ratio(rs, nrows, nrep, oa), row_median(rs, nrep, oa, F_PER_FSYNC), act_cpu[k],
               row_ratio(rs, nrep, ca, oa));
    }

    /* The flush as the loaded machine gives it: the paced probe beside the
     * `never` row, and the durable p99 against the target's formula with
     * that flush in place of the quiet disk's. */
    printf("\n| game | disk flush p99 ms, alone | disk flush p99 ms, beside the never row | "
           "durable act p99 ms | 2 × flush p99 beside the never row + never p99 ms | durable "
           "within it |\n");
    printf("|---|---:|---:|---:|---:|---|\n");
    for (int k = 0; k < ngames; k++) {
        if (alone99[k] < 0 || loaded99[k] < 0 || durable99[k] < 0 || never99[k] < 0) {
            printf("| %s | – | – | – | – | – |\n", seen[k]);
            continue;
        }
        double within = 2 * loaded99[k] + never99[k];
        printf("| %s | %.2f | %.2f | %.2f | %.2f | %s |\n", seen[k], alone99[k], loaded99[k],
               durable99[k], within, durable99[k] <= within ? "yes" : "no");
    }

    /* What the flushes alone cost a move of the act path: the probe's CPU
     * a flush over the records conclaved's act row put in one, beside the
     * strict floor's whole move. */
    printf("\n| game | disk flush CPU µs a step (probe) | records per flush (act row) | flush CPU "
           "µs a move | strict floor act µs | floor + flush, × strict floor | conclaved act µs "
           "less floor and flush |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < ngames; k++) {
        if (flush_cpu[k] < 0 || floor_act[k] <= 0 || act_fsync[k] <= 0 || act_cpu[k] <= 0) {
            printf("| %s | – | – | – | – | – | – |\n", seen[k]);
            continue;
        }
        double share = flush_cpu[k] / act_fsync[k];
        printf("| %s | %.1f | %.1f | %.1f | %.1f | %.2f | %.1f |\n", seen[k], flush_cpu[k],
               act_fsync[k], share, floor_act[k], (floor_act[k] + share) / floor_act[k],
               act_cpu[k] - floor_act[k] - share);
    }
}

/* ---- Options ---- */

static const char usage_text[] =
    "usage: bench_load [--mode compare|legal|act|offered|offered-legal|idle]\n"
    "                  [--target conclaved|floor|owed] [--conclaved PATH] [--floor PATH]\n"
    "                  [--floor-jansson PATH|none] [--preload PATH] [--game G]\n"
    "                  [--games G,G] [--rooms N] [--fsync POLICY] [--warmup S] [--seconds S]\n"
    "                  [--rate MOVES_PER_S] [--idle CONNECTIONS] [--repeat N]\n"
    "                  [--floor-diff-bytes N]\n";

static char *beside_self(const char *name)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) {
        return NULL;
    }
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash) {
        return NULL;
    }
    slash[1] = '\0';
    size_t len = strlen(self) + strlen(name) + 1;
    char *path = malloc(len);
    if (path) {
        snprintf(path, len, "%s%s", self, name);
    }
    return path;
}

static int parse_args(struct config *cfg, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v || strncmp(a, "--", 2) != 0) {
            return -1;
        }
        i++;
        if (strcmp(a, "--mode") == 0) {
            cfg->mode = v;
        } else if (strcmp(a, "--target") == 0) {
            cfg->target = v;
        } else if (strcmp(a, "--conclaved") == 0) {
            cfg->conclaved = v;
        } else if (strcmp(a, "--floor") == 0) {
            cfg->floor = v;
        } else if (strcmp(a, "--floor-jansson") == 0) {
            cfg->floor_jansson = v;
        } else if (strcmp(a, "--preload") == 0) {
            cfg->preload = v;
        } else if (strcmp(a, "--game") == 0) {
            cfg->game = v;
        } else if (strcmp(a, "--games") == 0) {
            cfg->games = v;
        } else if (strcmp(a, "--fsync") == 0) {
            cfg->fsync = v;
        } else if (strcmp(a, "--rooms") == 0) {
            cfg->rooms = atoi(v);
        } else if (strcmp(a, "--warmup") == 0) {
            cfg->warmup = atof(v);
        } else if (strcmp(a, "--seconds") == 0) {
            cfg->seconds = atof(v);
        } else if (strcmp(a, "--rate") == 0) {
            cfg->rate = atof(v);
        } else if (strcmp(a, "--idle") == 0) {
            cfg->idle = atoi(v);
        } else if (strcmp(a, "--repeat") == 0) {
            cfg->repeat = atoi(v);
        } else if (strcmp(a, "--floor-diff-bytes") == 0) {
            cfg->floor_diff = atoll(v);
        } else {
            return -1;
        }
    }
    if (cfg->rooms < 1 || cfg->rooms > MAX_ROOMS || cfg->warmup < 0 || cfg->seconds <= 0 ||
        cfg->rate <= 0 || cfg->idle < 1 || cfg->idle > 64 * IDLE_PER_WORKER || cfg->repeat < 0 ||
        cfg->repeat > 64 || cfg->floor_diff < 0 || cfg->floor_diff > 65536) {
        return -1;
    }
    return 0;
}

/* The mean journal record of conclaved's row `lr` (256 B when not known). */
static long long record_bytes(const struct result *lr)
{
    return lr->records > 0 && lr->journal_sum > 0 ? lr->journal_sum / (long long)lr->records : 256;
}

/* The owed floor replays the strict floor's moves with the view, `you`,
 * record and diff line sizes of conclaved's `legal` row `lr`. Its view is
 * what a move's hash must read: the public part from the first byte the
 * move changed (the part before it can be kept hashed), then each seat's
 * `you` with the `,"you":` and `}` the hash finishes with, as the sampled
 * seats followed their views. When no diff was followed, the mean view of
 * the row's `state` events (a game's start: views grow as a game goes
 * on). Its records are the mean journal record, its diff lines the mean
 * of those that brought the followed views (0, its own, when none was
 * followed). Prints the sizes. False when the row saw no view. */
static bool owed_config(const struct config *cfg, const char *game, const struct result *lr,
                        struct config *owed)
{
    if (lr->nviews <= 0) {
        return false;
    }
    *owed = *cfg;
    if (lr->nmove_views > 0) {
        long long tail = lr->move_tail_sum / lr->nmove_views;
        owed->owed_you = lr->move_you_sum / lr->nmove_views + 8;
        owed->owed_view = owed->owed_you + (tail > 0 ? tail : 1);
    } else {
        owed->owed_view = lr->view_sum / lr->nviews;
        owed->owed_you = lr->you_sum / lr->nviews + 8;
        if (owed->owed_you >= owed->owed_view) {
            owed->owed_you = owed->owed_view / 2;
        }
    }
    owed->owed_record = record_bytes(lr);
    owed->owed_diff = lr->nmove_views > 0 ? lr->move_line_sum / lr->nmove_views : 0;
    printf("  floor/owed %-9s views of %lld bytes after a move (%lld followed; %lld at a "
           "game's start): hashes %lld bytes of the public part and a you of %lld; records of "
           "%lld bytes; diff lines of %lld bytes\n",
           game, lr->nmove_views ? lr->move_view_sum / lr->nmove_views : 0, lr->nmove_views,
           lr->view_sum / lr->nviews, owed->owed_view - owed->owed_you, owed->owed_you,
           owed->owed_record, owed->owed_diff);
    return true;
}

/* Runs what cfg->mode asks for and prints it. Returns the exit status. */
static int run(const struct config *c)
{
    struct config cfg = *c;
    bool compare = strcmp(cfg.mode, "compare") == 0;
    bool owed = strcmp(cfg.target, "owed") == 0;
    bool floor = owed || strcmp(cfg.target, "floor") == 0;
    enum kind kind = floor ? K_FLOOR : K_CONCLAVED;
    if (owed && strcmp(cfg.mode, "act") != 0) {
        fprintf(stderr, "bench_load: --target owed is for --mode act\n");
        return 2;
    }
    if (compare && cfg.floor_diff) {
        fprintf(stderr, "bench_load: a compare run measures the strict floor as it is\n");
        return 2;
    }
    if ((compare || !floor || owed) && !cfg.conclaved) {
        fprintf(stderr, "bench_load: no conclaved (--conclaved PATH or $CONCLAVED)\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    int nrep = cfg.repeat > 0 ? cfg.repeat : compare ? 3 : 1;
    struct result *rs = calloc((size_t)nrep * ROWS_MAX, sizeof(*rs));
    int n = 0, status = 0;

    if (!rs) {
        return 1;
    }
    print_header(&cfg, nrep);
    if (!compare) {
        if (strcmp(cfg.mode, "idle") == 0) {
            int conns;
            double kib = measure_idle(&cfg, floor, &conns);
            free(rs);
            if (kib < 0) {
                return 1;
            }
            printf("\n%s: %d idle connections, %.1f KiB of server memory per connection\n",
                   floor ? "floor" : "conclaved", conns, kib);
            return 0;
        }
        for (int r = 0; r < nrep; r++) {
            struct result *row = &rs[r * ROWS_MAX];
            struct recording rec = {0};
            n = 0;
            if (strcmp(cfg.mode, "legal") == 0) {
                measure_legal(&cfg, kind, cfg.game, &rec, &row[n++]);
            } else if (owed) {
                /* conclaved's `legal` row for the sizes, the strict
                 * floor's for the moves, then the owed floor's act. */
                struct recording crec = {0};
                struct config o;
                measure_legal(&cfg, K_CONCLAVED, cfg.game, &crec, &row[n++]);
                rec_free(&crec);
                measure_legal(&cfg, K_FLOOR, cfg.game, &rec, &row[n++]);
                if (owed_config(&cfg, cfg.game, &row[0], &o)) {
                    measure_act(&o, K_FLOOR_OWED, cfg.game, &rec, &row[1], &row[n++]);
                }
            } else if (strcmp(cfg.mode, "act") == 0) {
                measure_legal(&cfg, kind, cfg.game, &rec, &row[n++]);
                measure_act(&cfg, kind, cfg.game, &rec, &row[0], &row[n++]);
            } else if (strcmp(cfg.mode, "offered") == 0) {
                struct result legal;
                measure_legal(&cfg, kind, cfg.game, &rec, &legal);
                if (legal.ok) {
                    measure_offered(&cfg, kind, cfg.game, &rec, &row[n++]);
                }
            } else if (strcmp(cfg.mode, "offered-legal") == 0) {
                measure_offered(&cfg, kind, cfg.game, NULL, &row[n++]);
            } else {
                fputs(usage_text, stderr);
                free(rs);
                return 2;
            }
            rec_free(&rec);
        }
        printf("\n");
        print_table(rs, n, nrep);
        print_derived(rs, n, nrep);
        for (int i = 0; i < nrep * ROWS_MAX; i++) {
            status |= i % ROWS_MAX < n && !rs[i].ok;
        }
        free(rs);
        return status;
    }

    /* compare: for each game and each mode the floor, then conclaved, each
     * on a fresh process, so that both see the machine at nearly the same
     * time; the whole sequence nrep times; then memory per idle
     * connection. */
    struct probe *probes = calloc((size_t)nrep * ROWS_MAX, sizeof(*probes));
    struct probe *loadeds = calloc((size_t)nrep * ROWS_MAX, sizeof(*loadeds));
    int np = 0;
    if (!probes || !loadeds) {
        free(probes);
        free(loadeds);
        free(rs);
        return 1;
    }
    bool fj = cfg.floor_jansson != NULL;
    for (int r = 0; r < nrep; r++) {
        struct result *row = &rs[r * ROWS_MAX];
        struct probe *probe = &probes[r * ROWS_MAX];
        struct probe *loaded = &loadeds[r * ROWS_MAX];
        char games[256];
        n = 0;
        np = 0;
        snprintf(games, sizeof(games), "%s", cfg.games);
        for (char *save = NULL, *g = strtok_r(games, ",", &save); g && n + 10 <= ROWS_MAX;
             g = strtok_r(NULL, ",", &save)) {
            struct recording rec_floor = {0}, rec_fj = {0}, rec = {0};
            int lf = n++, lj = fj ? n++ : -1, lc = n++;
            measure_legal(&cfg, K_FLOOR, g, &rec_floor, &row[lf]);
            if (fj) {
                measure_legal(&cfg, K_FLOOR_JANSSON, g, &rec_fj, &row[lj]);
            }
            measure_legal(&cfg, K_CONCLAVED, g, &rec, &row[lc]);
            measure_act(&cfg, K_FLOOR, g, &rec_floor, &row[lf], &row[n++]);
            if (fj) {
                measure_act(&cfg, K_FLOOR_JANSSON, g, &rec_fj, &row[lj], &row[n++]);
            }
            measure_act(&cfg, K_CONCLAVED, g, &rec, &row[lc], &row[n++]);
            /* The disk's flush is probed with records of the mean size
             * of conclaved's `legal` run (256 B when not known), written
             * as its flushes write them: in place in a file the size of
             * its write-ahead file, or else appended to a file as large
             * as its largest journal (64 KiB when not known). */
            const struct result *lr = &row[lc];
            bool in_place = lr->wal_bytes > 0;
            long long file = in_place              ? lr->wal_bytes
                             : lr->journal_max > 0 ? lr->journal_max
                                                   : 65536;
            long long recb = record_bytes(lr);
            struct config oc;
            if (owed_config(&cfg, g, lr, &oc)) {
                measure_act(&oc, K_FLOOR_OWED, g, &rec_floor, &row[lf], &row[n++]);
            }
            measure_offered(&cfg, K_FLOOR, g, &rec_floor, &row[n++]);
            measure_offered(&cfg, K_CONCLAVED, g, &rec, &row[n++]);
            snprintf(probe[np].game, sizeof(probe[np].game), "%s", g);
            snprintf(loaded[np].game, sizeof(loaded[np].game), "%s", g);
            if (strcmp(cfg.fsync, "never") != 0) {
                struct config never = cfg;
                never.fsync = "never";
                measure_offered(&never, K_CONCLAVED, g, &rec, &row[n++]);
                /* The same row once more, its figures not kept, with the
                 * probe paced beside it: the flush as the machine gives it
                 * under that load, with no flush of conclaved's to share
                 * the disk with. */
                struct result scratch = {0};
                struct probe_beside b = {.pr = &loaded[np],
                                         .file_bytes = file,
                                         .record_bytes = recb,
                                         .in_place = in_place,
                                         .delay = cfg.warmup + 1,
                                         .seconds = cfg.seconds > 3 ? cfg.seconds - 2 : 1};
                printf("  (the row again, with the disk probe beside it; not kept)\n");
                bool beside = pthread_create(&b.thread, NULL, probe_beside_run, &b) == 0;
                measure_offered(&never, K_CONCLAVED, g, &rec, &scratch);
                if (beside) {
                    pthread_join(b.thread, NULL);
                }
            }
            /* The disk alone. */
            probe_flush(&probe[np++], file, recb, in_place, 0, PROBE_SECONDS);
            rec_free(&rec_floor);
            rec_free(&rec_fj);
            rec_free(&rec);
        }
    }
    int idle_floor_n, idle_n;
    double idle_floor = measure_idle(&cfg, true, &idle_floor_n);
    double idle = measure_idle(&cfg, false, &idle_n);

    printf("\n");
    print_table(rs, n, nrep);
    print_derived(rs, n, nrep);
    print_targets(rs, n, nrep, probes, loadeds, np);
    free(probes);
    free(loadeds);
    printf("\nidle connections (hello, then silence): conclaved %.1f KiB per connection over %d "
           "connections; floor %.1f KiB per connection over %d\n",
           idle, idle_n, idle_floor, idle_floor_n);
    for (int i = 0; i < nrep * ROWS_MAX; i++) {
        status |= i % ROWS_MAX < n && !rs[i].ok;
    }
    free(rs);
    return status || idle < 0 || idle_floor < 0;
}

int main(int argc, char **argv)
{
    struct config cfg = {
        .conclaved = getenv("CONCLAVED"),
        .game = "stones",
        .games = "stones,sorcerers,element,arcana",
        .fsync = "always", /* the server's default */
        .mode = "compare",
        .target = "conclaved",
        .rooms = 50,
        .warmup = 2,
        .seconds = 10,
        .rate = 10000,
        .idle = 20000,
    };
    char *floor_path = NULL, *floor_jansson_path = NULL, *preload_path = NULL;

    if (parse_args(&cfg, argc, argv) != 0) {
        fputs(usage_text, stderr);
        return 2;
    }
    if (!cfg.floor) {
        cfg.floor = floor_path = beside_self("bench_floor");
    }
    if (!cfg.preload) {
        cfg.preload = preload_path = beside_self("libbench_detrand.so");
    }
    if (!cfg.floor_jansson) {
        cfg.floor_jansson = floor_jansson_path = beside_self("bench_floor_jansson");
        if (cfg.floor_jansson && access(cfg.floor_jansson, X_OK) != 0) {
            cfg.floor_jansson = NULL;
        }
    } else if (strcmp(cfg.floor_jansson, "none") == 0) {
        cfg.floor_jansson = NULL;
    }
    int status = cfg.floor ? run(&cfg) : 2;
    free(floor_path);
    free(floor_jansson_path);
    free(preload_path);
    return status;
}
