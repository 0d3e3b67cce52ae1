/* SPDX-License-Identifier: MIT */
/*
 * floor.c - bench_floor: the strict floor, the least a libuv + jansson NDJSON
 * server pays for the traffic bench_load sends, so that conclaved's cost per
 * move can be stated as a multiple of it on the same machine in the same run.
 *
 * It speaks just enough of protocol v1 for the load generator: hello,
 * create, join, start, legal and act, in two-seat rooms held in memory.
 * A room has a turn: `legal` lists two actions to the seat whose turn it is
 * and nothing to the other; `act` from that seat is accepted (reply with the
 * new rev, then a small `diff` event to both seats, and the turn passes),
 * from the other seat it gets not_your_turn. After --moves accepted moves the
 * game ends with an `ended` event, so the generator opens new rooms as it
 * does with real games.
 *
 * It is as lean as such a server can be while doing the work every server of
 * this design must do: every request is parsed with jansson (json_loadb) and
 * the fields it reads are checked; every reply and event is written as text
 * (snprintf, memcpy) into the connection's output buffer; a uv_check_t hands
 * each connection's buffer to the kernel once per loop turn (uv_try_write,
 * and what the kernel did not take as one queued uv_write); whole lines are
 * parsed where they were read, in one read buffer shared by every
 * connection. It keeps no history, journals nothing, checks no rules and
 * sends a fixed placeholder where a real server sends the view hash. It must
 * never be used as a game server.
 *
 * With --owed DIR it is the *owed floor*: besides the above, it does what
 * protocol v1 and the promise never to lose an accepted move owe for each
 * move, as cheaply as they can be done. Each move hashes --view-bytes
 * bytes with BLAKE2b (libsodium's crypto_generichash, as the protocol
 * asks): the public part once (what a move must hash again of it: bench_load
 * passes the bytes from the first one the move changed to the part's end,
 * as if the hash of the bytes before them were kept), then a finish with
 * each seat's last --you-bytes, whose hex goes in that seat's diff; and
 * each move appends a record of --record-bytes to one file in DIR, written
 * in place in its 16 MiB and flushed with one fdatasync() per loop turn
 * before the turn's replies leave (group commit, on the loop: no thread to
 * wake). It keeps no journal per room, no history and checks no rules.
 * On stop it writes "event=journal_summary records=R writes=W fsyncs=F" to
 * stderr, as conclaved's closing line does.
 *
 * With --diff-bytes N (strict or owed) each seat's diff line is N bytes
 * long, the turn's op followed by one that sets the view's "pad" to a
 * string as long as it takes; bench_load gives the owed floor the mean of
 * conclaved's. What a move's patch holds is the game's, but the bytes each
 * write hands the kernel are owed, and a loopback write costs more above a
 * few hundred bytes than below.
 *
 * usage: bench_floor [--listen HOST:PORT] [--moves N] [--diff-bytes N]
 *                    [--owed DIR --view-bytes N --you-bytes N --record-bytes N]
 * Prints "listening on HOST:PORT" once on stdout; stops on SIGINT/SIGTERM.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>
#include <unistd.h>
#include <uv.h>

#define FLOOR_LINE_MAX 65536
#define FLOOR_CODE_LEN 6
#define FLOOR_HASH "0000000000000000000000000000000000000000000000000000000000000000"

struct floor_conn;

struct floor_room {
    size_t index;
    char code[FLOOR_CODE_LEN + 1];
    struct floor_conn *seat[2];
    bool playing;
    bool ended;
    long long rev;
    int turn;
    long moves;
};

struct floor_buf {
    char *data;
    size_t len, cap;
};

struct floor_conn {
    uv_tcp_t tcp;
    uv_write_t write_req;
    struct floor_buf in;     /* bytes read and not yet a whole line */
    struct floor_buf out;    /* this turn's output */
    struct floor_buf queued; /* the one write in flight */
    struct floor_conn *dirty_next;
    bool dirty;
    bool writing;
    bool hello;
    bool closing;
    struct floor_room *room;
    int seat;
};

static struct floor_room **rooms;
static size_t nrooms, rooms_cap;
static long game_moves = 300;
static struct floor_conn *dirty; /* connections with output to flush */

static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* The owed floor's state (--owed). */
#define OWED_FILE_BYTES (16u << 20)
#define OWED_DATA 4096u

/* A diff line's length, newline included (--diff-bytes; 0: its own). */
static size_t diff_bytes;

static struct {
    bool on;
    int fd;
    uint64_t off;
    unsigned char *view; /* a view's text: the public part, then a seat's `you` */
    size_t view_bytes, you_bytes, record_bytes;
    struct floor_buf turn; /* records of this loop turn, not yet written */
    unsigned long long records, writes, fsyncs;
} owed = {.fd = -1};

/* ---- Rooms ---- */

static struct floor_room *room_new(void)
{
    if (nrooms == rooms_cap) {
        size_t cap = rooms_cap ? rooms_cap * 2 : 256;
        struct floor_room **grown = realloc(rooms, cap * sizeof(*rooms));
        if (!grown) {
            return NULL;
        }
        rooms = grown;
        rooms_cap = cap;
    }
    struct floor_room *r = calloc(1, sizeof(*r));
    if (!r) {
        return NULL;
    }
    r->index = nrooms;
    size_t v = nrooms;
    r->code[0] = 'F';
    for (int i = FLOOR_CODE_LEN - 1; i >= 1; i--) {
        r->code[i] = crockford[v % 32];
        v /= 32;
    }
    rooms[nrooms++] = r;
    return r;
}

static struct floor_room *room_find(const char *code)
{
    size_t v = 0;

    if (!code || strlen(code) != FLOOR_CODE_LEN || code[0] != 'F') {
        return NULL;
    }
    for (int i = 1; i < FLOOR_CODE_LEN; i++) {
        const char *p = strchr(crockford, code[i]);
        if (!p || !*p) {
            return NULL;
        }
        v = v * 32 + (size_t)(p - crockford);
    }
    return v < nrooms ? rooms[v] : NULL;
}

/* Takes `c` out of its room; frees the room once nobody sits in it. */
static void room_leave(struct floor_conn *c)
{
    struct floor_room *r = c->room;

    if (!r) {
        return;
    }
    r->seat[c->seat] = NULL;
    c->room = NULL;
    if (!r->seat[0] && !r->seat[1]) {
        rooms[r->index] = NULL;
        free(r);
    }
}

/* ---- Output: text into the connection's buffer ---- */

/* Makes room for `n` more bytes in `b`. Returns 0 or -ENOMEM. */
static int buf_reserve(struct floor_buf *b, size_t n)
{
    if (n <= b->cap - b->len) {
        return 0;
    }
    size_t cap = b->cap ? b->cap : 1024;
    while (cap - b->len < n) {
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p) {
        return -ENOMEM;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

static void conn_close(struct floor_conn *c);

static void dirty_add(struct floor_conn *c)
{
    if (!c->dirty) {
        c->dirty = true;
        c->dirty_next = dirty;
        dirty = c;
    }
}

/* Appends formatted text to `c`'s output; a connection that cannot get the
 * memory is closed. */
__attribute__((format(printf, 2, 3))) static void out_printf(struct floor_conn *c, const char *fmt,
                                                             ...)
{
    va_list ap;

    if (c->closing) {
        return;
    }
    for (;;) {
        size_t room = c->out.cap - c->out.len;
        va_start(ap, fmt);
        int n = vsnprintf(c->out.data ? c->out.data + c->out.len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            return;
        }
        if ((size_t)n < room) {
            c->out.len += (size_t)n;
            dirty_add(c);
            return;
        }
        if (buf_reserve(&c->out, (size_t)n + 1) != 0) {
            conn_close(c);
            return;
        }
    }
}

/* Writes `"re":ID,` for a request's id (nothing when it had none): the
 * generator's ids are integers, anything else is encoded by jansson. */
static void out_re(struct floor_conn *c, json_t *id)
{
    if (!id) {
        return;
    }
    if (json_is_integer(id)) {
        out_printf(c, "\"re\":%" JSON_INTEGER_FORMAT ",", json_integer_value(id));
        return;
    }
    char text[512];
    size_t n = json_dumpb(id, text, sizeof(text), JSON_COMPACT | JSON_ENCODE_ANY);
    if (n > 0 && n < sizeof(text)) {
        out_printf(c, "\"re\":%.*s,", (int)n, text);
    }
}

static void reply_error(struct floor_conn *c, json_t *id, const char *code, const char *message)
{
    out_printf(c, "{");
    out_re(c, id);
    out_printf(c, "\"ok\":false,\"error\":{\"code\":\"%s\",\"message\":\"%s\"}}\n", code, message);
}

/* Writes `{"re":ID,"ok":true` and leaves the object open. */
static void reply_open(struct floor_conn *c, json_t *id)
{
    out_printf(c, "{");
    out_re(c, id);
    out_printf(c, "\"ok\":true");
}

/* ---- Output: one write per connection per loop turn ---- */

static void on_written(uv_write_t *req, int status)
{
    struct floor_conn *c = req->data;

    c->writing = false;
    c->queued.len = 0;
    if (status < 0) {
        conn_close(c);
        return;
    }
    if (c->out.len > 0 && !c->closing) {
        dirty_add(c);
    }
}

/* Hands `c`'s output to the kernel: one try-write, and what the kernel did
 * not take becomes the connection's one queued write; output added while it
 * is in flight waits in `out` for its callback. */
static void conn_flush(struct floor_conn *c)
{
    if (c->closing || c->writing || c->out.len == 0) {
        return;
    }
    uv_buf_t buf = uv_buf_init(c->out.data, (unsigned)c->out.len);
    int n = uv_try_write((uv_stream_t *)&c->tcp, &buf, 1);
    if (n == UV_EAGAIN) {
        n = 0;
    } else if (n < 0) {
        conn_close(c);
        return;
    }
    if ((size_t)n == c->out.len) {
        c->out.len = 0;
        return;
    }
    struct floor_buf spare = c->queued;
    c->queued = c->out;
    c->out = spare;
    buf = uv_buf_init(c->queued.data + n, (unsigned)(c->queued.len - (size_t)n));
    c->write_req.data = c;
    if (uv_write(&c->write_req, (uv_stream_t *)&c->tcp, &buf, 1, on_written) != 0) {
        conn_close(c);
        return;
    }
    c->writing = true;
}

/* The owed floor's records of this turn, written and flushed before any of
 * the turn's output leaves. A failure stops the server: it must not reply
 * to a move it did not keep. */
static void owed_flush(uv_loop_t *loop)
{
    if (owed.turn.len == 0) {
        return;
    }
    if (owed.off + owed.turn.len > OWED_FILE_BYTES) {
        owed.off = OWED_DATA;
    }
    if (pwrite(owed.fd, owed.turn.data, owed.turn.len, (off_t)owed.off) != (ssize_t)owed.turn.len ||
        fdatasync(owed.fd) != 0) {
        fprintf(stderr, "bench_floor: the owed file cannot be written: %s\n", strerror(errno));
        uv_stop(loop);
        return;
    }
    owed.off += owed.turn.len;
    owed.turn.len = 0;
    owed.writes++;
    owed.fsyncs++;
}

/* The view hash of a move for both seats, as lowercase hex. */
static void owed_hash(const struct floor_room *r, char hex[2][crypto_generichash_BYTES * 2 + 1])
{
    size_t pub = owed.view_bytes - owed.you_bytes;
    crypto_generichash_state all, seat;
    unsigned char h[crypto_generichash_BYTES];

    /* The view changes with every move, somewhere in its public part. */
    owed.view[(size_t)r->rev % (pub ? pub : 1)] ^= 0x20;
    crypto_generichash_init(&all, NULL, 0, sizeof(h));
    crypto_generichash_update(&all, owed.view, pub);
    for (int s = 0; s < 2; s++) {
        seat = all;
        owed.view[pub] = (unsigned char)('0' + s); /* each seat's `you` differs */
        crypto_generichash_update(&seat, owed.view + pub, owed.you_bytes);
        crypto_generichash_final(&seat, h, sizeof(h));
        sodium_bin2hex(hex[s], crypto_generichash_BYTES * 2 + 1, h, sizeof(h));
    }
}

/* Appends the move's record to the turn's. Returns 0 or -ENOMEM. */
static int owed_record(const struct floor_room *r)
{
    if (buf_reserve(&owed.turn, owed.record_bytes) != 0) {
        return -ENOMEM;
    }
    char *rec = owed.turn.data + owed.turn.len;
    memset(rec, 'r', owed.record_bytes);
    snprintf(rec, owed.record_bytes, "%s %lld", r->code, r->rev);
    rec[owed.record_bytes - 1] = '\n';
    owed.turn.len += owed.record_bytes;
    owed.records++;
    return 0;
}

/* Opens the owed floor's file in `dir` and fills its 16 MiB with zeros,
 * flushed, so that its flushes find the blocks allocated. */
static int owed_open(const char *dir)
{
    char path[4096];
    static char zeros[1 << 16];

    snprintf(path, sizeof(path), "%s/owed.wal", dir);
    owed.fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (owed.fd < 0) {
        return -1;
    }
    for (uint64_t at = 0; at < OWED_FILE_BYTES; at += sizeof(zeros)) {
        if (pwrite(owed.fd, zeros, sizeof(zeros), (off_t)at) != (ssize_t)sizeof(zeros)) {
            return -1;
        }
    }
    if (fdatasync(owed.fd) != 0) {
        return -1;
    }
    owed.off = OWED_DATA;
    owed.view = malloc(owed.view_bytes);
    if (!owed.view) {
        return -1;
    }
    static const char text[] = "{\"abcdefghijklmnopqrstuvwxyz\":[0,1,2]}";
    for (size_t i = 0; i < owed.view_bytes; i++) {
        owed.view[i] = (unsigned char)text[i % (sizeof(text) - 1)];
    }
    return 0;
}

/* After the turn's I/O callbacks: flushes every connection given output. */
static void on_check(uv_check_t *h)
{
    struct floor_conn *c;

    if (owed.on) {
        owed_flush(h->loop);
    }
    while ((c = dirty) != NULL) {
        dirty = c->dirty_next;
        c->dirty = false;
        c->dirty_next = NULL;
        conn_flush(c);
    }
}

/* ---- Requests ---- */

static void seat_reply(struct floor_conn *c, json_t *id)
{
    reply_open(c, id);
    out_printf(c, ",\"room\":\"%s\",\"seat\":%d,\"token\":\"%s\"}\n", c->room->code, c->seat,
               c->room->code);
}

static void op_create(struct floor_conn *c, json_t *id)
{
    room_leave(c);
    struct floor_room *r = room_new();
    if (!r) {
        reply_error(c, id, "internal", "out of memory");
        return;
    }
    r->seat[0] = c;
    c->room = r;
    c->seat = 0;
    seat_reply(c, id);
}

static void op_join(struct floor_conn *c, json_t *req, json_t *id)
{
    struct floor_room *r = room_find(json_string_value(json_object_get(req, "room")));

    if (!r) {
        reply_error(c, id, "room_not_found", "no such room");
        return;
    }
    if (r->playing || r->ended) {
        reply_error(c, id, "already_started", "the game has started");
        return;
    }
    if (r->seat[1]) {
        reply_error(c, id, "room_full", "every seat of the room is taken");
        return;
    }
    room_leave(c);
    r->seat[1] = c;
    c->room = r;
    c->seat = 1;
    seat_reply(c, id);
}

static void op_start(struct floor_conn *c, json_t *id)
{
    struct floor_room *r = c->room;

    if (!r || c->seat != 0) {
        reply_error(c, id, "not_host", "only the host may do that");
        return;
    }
    if (r->playing || r->ended) {
        reply_error(c, id, "already_started", "the game has already started");
        return;
    }
    if (!r->seat[1]) {
        reply_error(c, id, "not_enough_players", "every seat must be filled");
        return;
    }
    r->playing = true;
    r->rev = 1;
    reply_open(c, id);
    out_printf(c, ",\"rev\":%lld}\n", r->rev);
    for (int s = 0; s < 2; s++) {
        out_printf(r->seat[s],
                   "{\"ev\":\"state\",\"room\":\"%s\",\"rev\":%lld,\"seat\":%d,"
                   "\"view\":{\"turn\":%d},\"hash\":\"" FLOOR_HASH "\"}\n",
                   r->code, r->rev, s, r->turn);
    }
}

static void op_legal(struct floor_conn *c, json_t *id)
{
    struct floor_room *r = c->room;

    if (!r || !r->playing) {
        reply_error(c, id, "not_in_game", "the game has not started");
        return;
    }
    reply_open(c, id);
    if (r->turn == c->seat) {
        out_printf(
            c, ",\"rev\":%lld,\"actions\":[{\"type\":\"move\",\"to\":1},{\"type\":\"pass\"}]}\n",
            r->rev);
    } else {
        out_printf(c, ",\"rev\":%lld,\"actions\":[]}\n", r->rev);
    }
}

/* A diff line of --diff-bytes bytes (or its own length, when longer): the
 * turn's op, then one setting the view's "pad" to a string as long as it
 * takes (an `add`, which applies whether or not the view has one yet). */
static void diff_padded(struct floor_conn *c, const struct floor_room *r, const char *hex)
{
    static const char tail[] = "\"}]}\n";
    size_t at = c->out.len;

    out_printf(c,
               "{\"ev\":\"diff\",\"room\":\"%s\",\"rev\":%lld,\"hash\":\"%s\",\"patch\":[{\"op\":"
               "\"replace\",\"path\":\"/turn\",\"value\":%d},{\"op\":\"add\",\"path\":"
               "\"/pad\",\"value\":\"",
               r->code, r->rev, hex, r->turn);
    if (c->closing) {
        return;
    }
    size_t head = c->out.len - at;
    size_t pad = diff_bytes > head + sizeof(tail) - 1 ? diff_bytes - head - (sizeof(tail) - 1) : 0;
    if (buf_reserve(&c->out, pad + sizeof(tail)) != 0) {
        conn_close(c);
        return;
    }
    memset(c->out.data + c->out.len, 'l', pad);
    memcpy(c->out.data + c->out.len + pad, tail, sizeof(tail) - 1);
    c->out.len += pad + sizeof(tail) - 1;
}

static void op_act(struct floor_conn *c, json_t *req, json_t *id)
{
    struct floor_room *r = c->room;
    json_t *action = json_object_get(req, "action");

    if (!r || (!r->playing && !r->ended)) {
        reply_error(c, id, "not_in_game", "the game has not started");
        return;
    }
    if (r->ended) {
        reply_error(c, id, "game_over", "the game is over");
        return;
    }
    if (!json_is_string(json_object_get(action, "type"))) {
        reply_error(c, id, "bad_action",
                    "\\\"action\\\" must be an object with a \\\"type\\\" string");
        return;
    }
    if (r->turn != c->seat) {
        reply_error(c, id, "not_your_turn", "it is not your turn");
        return;
    }
    r->rev++;
    r->turn = 1 - r->turn;
    r->moves++;
    char hex[2][crypto_generichash_BYTES * 2 + 1] = {FLOOR_HASH, FLOOR_HASH};
    if (owed.on) {
        owed_hash(r, hex);
        if (owed_record(r) != 0) {
            conn_close(c);
            return;
        }
    }
    reply_open(c, id);
    out_printf(c, ",\"rev\":%lld}\n", r->rev);
    for (int s = 0; s < 2; s++) {
        if (r->seat[s] && diff_bytes) {
            diff_padded(r->seat[s], r, hex[s]);
        } else if (r->seat[s]) {
            out_printf(r->seat[s],
                       "{\"ev\":\"diff\",\"room\":\"%s\",\"rev\":%lld,\"patch\":[{\"op\":"
                       "\"replace\",\"path\":\"/turn\",\"value\":%d}],\"hash\":\"%s\"}\n",
                       r->code, r->rev, r->turn, hex[s]);
        }
    }
    if (r->moves >= game_moves) {
        r->playing = false;
        r->ended = true;
        for (int s = 0; s < 2; s++) {
            if (r->seat[s]) {
                out_printf(r->seat[s],
                           "{\"ev\":\"ended\",\"room\":\"%s\",\"result\":{\"scores\":[0,0],"
                           "\"winners\":[]}}\n",
                           r->code);
            }
        }
    }
}

static void handle_line(struct floor_conn *c, const char *line, size_t len)
{
    json_t *req = json_loadb(line, len, 0, NULL);

    if (!json_is_object(req)) {
        reply_error(c, NULL, req ? "bad_request" : "bad_json", "not a JSON object");
        json_decref(req);
        return;
    }
    json_t *id = json_object_get(req, "id");
    const char *op = json_string_value(json_object_get(req, "op"));
    if (!op) {
        reply_error(c, id, "bad_request", "no op");
    } else if (strcmp(op, "hello") == 0) {
        c->hello = true;
        reply_open(c, id);
        out_printf(c, ",\"proto\":1,\"server\":\"bench_floor\",\"games\":[]}\n");
    } else if (!c->hello) {
        reply_error(c, id, "hello_required", "send hello first");
    } else if (strcmp(op, "act") == 0) {
        op_act(c, req, id);
    } else if (strcmp(op, "legal") == 0) {
        op_legal(c, id);
    } else if (strcmp(op, "create") == 0) {
        op_create(c, id);
    } else if (strcmp(op, "join") == 0) {
        op_join(c, req, id);
    } else if (strcmp(op, "start") == 0) {
        op_start(c, id);
    } else if (strcmp(op, "ping") == 0) {
        reply_open(c, id);
        out_printf(c, "}\n");
    } else {
        reply_error(c, id, "unknown_op", "no such op");
    }
    json_decref(req);
}

/* ---- Connections ---- */

static void on_closed(uv_handle_t *h)
{
    struct floor_conn *c = h->data;

    free(c->in.data);
    free(c->out.data);
    free(c->queued.data);
    free(c);
}

/* Closes `c`; it stays on the dirty list until the next flush passes it by,
 * and is freed in the close callback, which comes after that. */
static void conn_close(struct floor_conn *c)
{
    if (c->closing) {
        return;
    }
    c->closing = true;
    room_leave(c);
    uv_close((uv_handle_t *)&c->tcp, on_closed);
}

/* One read buffer for every connection: libuv reads into it and calls
 * on_read before it allocates again, so whole lines are parsed where they
 * were read and only a partial line is copied, into the connection's own
 * buffer. */
static char read_buf[65536];

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    buf->base = read_buf;
    buf->len = sizeof(read_buf);
}

/* Handles each whole line of data[0, len) and returns the bytes used. */
static size_t handle_lines(struct floor_conn *c, const char *data, size_t len)
{
    size_t start = 0;

    for (;;) {
        const char *lf = c->closing ? NULL : memchr(data + start, '\n', len - start);
        if (!lf) {
            return start;
        }
        size_t n = (size_t)(lf - (data + start));
        if (n > 0 && data[start + n - 1] == '\r') {
            n--;
        }
        if (n > 0) {
            handle_line(c, data + start, n);
        }
        start = (size_t)(lf - data) + 1;
    }
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
    struct floor_conn *c = s->data;
    const char *data = buf->base;
    size_t len = nread > 0 ? (size_t)nread : 0;

    if (nread < 0) {
        conn_close(c);
        return;
    }
    if (c->in.len > 0) {
        /* A partial line waits: the new bytes join it. */
        if (buf_reserve(&c->in, len) != 0) {
            conn_close(c);
            return;
        }
        memcpy(c->in.data + c->in.len, data, len);
        c->in.len += len;
        data = c->in.data;
        len = c->in.len;
    }
    size_t used = handle_lines(c, data, len);
    if (c->closing) {
        return;
    }
    if (len - used > FLOOR_LINE_MAX) {
        conn_close(c);
    } else if (data == c->in.data) {
        memmove(c->in.data, c->in.data + used, len - used);
        c->in.len = len - used;
    } else if (used < len) {
        if (buf_reserve(&c->in, len - used) != 0) {
            conn_close(c);
            return;
        }
        memcpy(c->in.data, data + used, len - used);
        c->in.len = len - used;
    }
}

static void on_connection(uv_stream_t *server, int status)
{
    if (status < 0) {
        return;
    }
    struct floor_conn *c = calloc(1, sizeof(*c));
    if (!c) {
        return;
    }
    uv_tcp_init(server->loop, &c->tcp);
    c->tcp.data = c;
    if (uv_accept(server, (uv_stream_t *)&c->tcp) != 0 ||
        uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) != 0) {
        conn_close(c);
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1);
}

static void on_signal(uv_signal_t *sig, int signum)
{
    uv_stop(sig->loop);
}

int main(int argc, char **argv)
{
    char host[256] = "127.0.0.1";
    int port = 7717;
    const char *owed_dir = NULL;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--listen") == 0 && i + 1 < argc) {
            const char *colon = strrchr(argv[++i], ':');
            size_t hl = colon ? (size_t)(colon - argv[i]) : 0;
            if (!colon || hl == 0 || hl >= sizeof(host)) {
                fprintf(stderr, "bench_floor: bad --listen %s\n", argv[i]);
                return 2;
            }
            memcpy(host, argv[i], hl);
            host[hl] = '\0';
            port = atoi(colon + 1);
        } else if (strcmp(argv[i], "--moves") == 0 && i + 1 < argc) {
            game_moves = atol(argv[++i]);
        } else if (strcmp(argv[i], "--owed") == 0 && i + 1 < argc) {
            owed_dir = argv[++i];
        } else if (strcmp(argv[i], "--view-bytes") == 0 && i + 1 < argc) {
            owed.view_bytes = (size_t)atol(argv[++i]);
        } else if (strcmp(argv[i], "--you-bytes") == 0 && i + 1 < argc) {
            owed.you_bytes = (size_t)atol(argv[++i]);
        } else if (strcmp(argv[i], "--record-bytes") == 0 && i + 1 < argc) {
            owed.record_bytes = (size_t)atol(argv[++i]);
        } else if (strcmp(argv[i], "--diff-bytes") == 0 && i + 1 < argc) {
            diff_bytes = (size_t)atol(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_floor [--listen HOST:PORT] [--moves N] [--diff-bytes N]\n"
                            "                   [--owed DIR --view-bytes N --you-bytes N "
                            "--record-bytes N]\n");
            return 2;
        }
    }
    if (game_moves < 1) {
        game_moves = 1;
    }
    if (diff_bytes > 65536) {
        fprintf(stderr, "bench_floor: --diff-bytes is at most 65536\n");
        return 2;
    }
    if (owed_dir) {
        if (owed.view_bytes < 2 || owed.you_bytes < 1 || owed.you_bytes >= owed.view_bytes ||
            owed.record_bytes < 2 || owed.record_bytes > 65536) {
            fprintf(stderr, "bench_floor: --owed needs --view-bytes > --you-bytes >= 1 and "
                            "--record-bytes from 2 to 65536\n");
            return 2;
        }
        if (sodium_init() < 0 || owed_open(owed_dir) != 0) {
            fprintf(stderr, "bench_floor: cannot set up %s: %s\n", owed_dir, strerror(errno));
            return 1;
        }
        owed.on = true;
    }
    signal(SIGPIPE, SIG_IGN);

    uv_loop_t *loop = uv_default_loop();
    uv_tcp_t server;
    struct sockaddr_storage addr;
    if (uv_ip4_addr(host, port, (struct sockaddr_in *)&addr) != 0 &&
        uv_ip6_addr(host, port, (struct sockaddr_in6 *)&addr) != 0) {
        fprintf(stderr, "bench_floor: bad address %s\n", host);
        return 2;
    }
    uv_tcp_init(loop, &server);
    int rc = uv_tcp_bind(&server, (const struct sockaddr *)&addr, 0);
    if (rc == 0) {
        rc = uv_listen((uv_stream_t *)&server, 4096, on_connection);
    }
    if (rc != 0) {
        fprintf(stderr, "bench_floor: cannot listen on %s:%d: %s\n", host, port, uv_strerror(rc));
        return 1;
    }
    struct sockaddr_storage bound;
    int blen = sizeof(bound);
    uv_tcp_getsockname(&server, (struct sockaddr *)&bound, &blen);
    char name[64] = "";
    if (bound.ss_family == AF_INET6) {
        uv_ip6_name((struct sockaddr_in6 *)&bound, name, sizeof(name));
        printf("listening on [%s]:%d\n", name, ntohs(((struct sockaddr_in6 *)&bound)->sin6_port));
    } else {
        uv_ip4_name((struct sockaddr_in *)&bound, name, sizeof(name));
        printf("listening on %s:%d\n", name, ntohs(((struct sockaddr_in *)&bound)->sin_port));
    }
    fflush(stdout);

    /* The flush handle keeps no loop alive by itself; connections do. */
    uv_check_t flush;
    uv_check_init(loop, &flush);
    uv_check_start(&flush, on_check);
    uv_unref((uv_handle_t *)&flush);

    uv_signal_t sigint, sigterm;
    uv_signal_init(loop, &sigint);
    uv_signal_init(loop, &sigterm);
    uv_signal_start(&sigint, on_signal, SIGINT);
    uv_signal_start(&sigterm, on_signal, SIGTERM);
    uv_run(loop, UV_RUN_DEFAULT);
    if (owed.on) {
        fprintf(stderr, "event=journal_summary records=%llu writes=%llu fsyncs=%llu\n",
                owed.records, owed.writes, owed.fsyncs);
        close(owed.fd);
        free(owed.view);
        free(owed.turn.data);
    }
    return 0;
}
