/* SPDX-License-Identifier: MIT */
/*
 * floor_jansson.c - bench_floor_jansson: the first floor server, kept as a
 * second reference beside the strict floor (floor.c). It speaks the same
 * subset of protocol v1 as bench_floor and parses every request the same
 * way, but builds every message with jansson (json_pack, json_dumps) and
 * sends each with its own uv_write of a malloc'ed buffer, and its `legal`
 * reply lists three actions. Against the strict floor in the same run it
 * shows what building messages as JSON trees and writing each on its own
 * cost a server of this design: what conclaved paid before it wrote lines
 * as text and flushed once per connection per loop turn.
 *
 * It keeps no history, journals nothing, checks no rules and sends a fixed
 * placeholder where a real server sends the view hash. It must never be
 * used as a game server.
 *
 * usage: bench_floor_jansson [--listen HOST:PORT] [--moves N]
 * Prints "listening on HOST:PORT" once on stdout; stops on SIGINT/SIGTERM.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <uv.h>

#define FLOOR_LINE_MAX 65536
#define FLOOR_CODE_LEN 6
#define FLOOR_HASH "0000000000000000000000000000000000000000000000000000000000000000"

struct floor_conn;

struct floor_room {
    size_t index;
    char code[FLOOR_CODE_LEN + 1];
    struct floor_conn *seat[2];
    int playing;
    int ended;
    long long rev;
    int turn;
    long moves;
};

struct floor_conn {
    uv_tcp_t tcp;
    char *in;
    size_t len, cap;
    int hello;
    int closing;
    struct floor_room *room;
    int seat;
};

struct floor_write {
    uv_write_t req;
    char data[];
};

static struct floor_room **rooms;
static size_t nrooms, rooms_cap;
static long game_moves = 300;

static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

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

/* ---- Output ---- */

static void on_written(uv_write_t *req, int status)
{
    free(req);
}

/* Sends `msg` (consumed) as one line with one write. */
static void send_msg(struct floor_conn *c, json_t *msg)
{
    char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;

    json_decref(msg);
    if (!text || c->closing) {
        free(text);
        return;
    }
    size_t n = strlen(text);
    struct floor_write *w = malloc(sizeof(*w) + n + 1);
    if (w) {
        memcpy(w->data, text, n);
        w->data[n] = '\n';
        uv_buf_t buf = uv_buf_init(w->data, (unsigned)(n + 1));
        if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &buf, 1, on_written) != 0) {
            free(w);
        }
    }
    free(text);
}

static json_t *reply_ok(json_t *id)
{
    json_t *r = json_object();

    if (id) {
        json_object_set(r, "re", id);
    }
    json_object_set_new(r, "ok", json_true());
    return r;
}

static void reply_error(struct floor_conn *c, json_t *id, const char *code, const char *message)
{
    json_t *r = json_object();

    if (id) {
        json_object_set(r, "re", id);
    }
    json_object_set_new(r, "ok", json_false());
    json_object_set_new(r, "error", json_pack("{s:s, s:s}", "code", code, "message", message));
    send_msg(c, r);
}

/* ---- Requests ---- */

static void seat_reply(struct floor_conn *c, json_t *id)
{
    json_t *r = reply_ok(id);

    json_object_set_new(r, "room", json_string(c->room->code));
    json_object_set_new(r, "seat", json_integer(c->seat));
    json_object_set_new(r, "token", json_string(c->room->code));
    send_msg(c, r);
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
    r->playing = 1;
    r->rev = 1;
    json_t *rep = reply_ok(id);
    json_object_set_new(rep, "rev", json_integer(r->rev));
    send_msg(c, rep);
    for (int s = 0; s < 2; s++) {
        send_msg(r->seat[s], json_pack("{s:s, s:s, s:I, s:i, s:{s:i}, s:s}", "ev", "state", "room",
                                       r->code, "rev", (json_int_t)r->rev, "seat", s, "view",
                                       "turn", r->turn, "hash", FLOOR_HASH));
    }
}

static void op_legal(struct floor_conn *c, json_t *id)
{
    struct floor_room *r = c->room;

    if (!r || !r->playing) {
        reply_error(c, id, "not_in_game", "the game has not started");
        return;
    }
    json_t *rep = reply_ok(id);
    json_object_set_new(rep, "rev", json_integer(r->rev));
    if (r->turn == c->seat) {
        json_object_set_new(rep, "actions",
                            json_pack("[{s:s, s:i}, {s:s, s:i}, {s:s}]", "type", "move", "to", 1,
                                      "type", "move", "to", 2, "type", "pass"));
    } else {
        json_object_set_new(rep, "actions", json_array());
    }
    send_msg(c, rep);
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
        reply_error(c, id, "bad_action", "\"action\" must be an object with a \"type\" string");
        return;
    }
    if (r->turn != c->seat) {
        reply_error(c, id, "not_your_turn", "it is not your turn");
        return;
    }
    r->rev++;
    r->turn = 1 - r->turn;
    r->moves++;
    json_t *rep = reply_ok(id);
    json_object_set_new(rep, "rev", json_integer(r->rev));
    send_msg(c, rep);
    for (int s = 0; s < 2; s++) {
        if (r->seat[s]) {
            send_msg(r->seat[s],
                     json_pack("{s:s, s:s, s:I, s:[{s:s, s:s, s:i}], s:s}", "ev", "diff", "room",
                               r->code, "rev", (json_int_t)r->rev, "patch", "op", "replace", "path",
                               "/turn", "value", r->turn, "hash", FLOOR_HASH));
        }
    }
    if (r->moves >= game_moves) {
        r->playing = 0;
        r->ended = 1;
        for (int s = 0; s < 2; s++) {
            if (r->seat[s]) {
                send_msg(r->seat[s],
                         json_pack("{s:s, s:s, s:{s:[i,i], s:[]}}", "ev", "ended", "room", r->code,
                                   "result", "scores", 0, 0, "winners"));
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
        c->hello = 1;
        json_t *rep = reply_ok(id);
        json_object_set_new(rep, "proto", json_integer(1));
        json_object_set_new(rep, "server", json_string("bench_floor_jansson"));
        json_object_set_new(rep, "games", json_array());
        send_msg(c, rep);
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
        send_msg(c, reply_ok(id));
    } else {
        reply_error(c, id, "unknown_op", "no such op");
    }
    json_decref(req);
}

/* ---- Connections ---- */

static void on_closed(uv_handle_t *h)
{
    struct floor_conn *c = h->data;

    free(c->in);
    free(c);
}

static void conn_close(struct floor_conn *c)
{
    if (c->closing) {
        return;
    }
    c->closing = 1;
    room_leave(c);
    uv_close((uv_handle_t *)&c->tcp, on_closed);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    buf->base = malloc(65536);
    buf->len = buf->base ? 65536 : 0;
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
    struct floor_conn *c = s->data;

    if (nread < 0) {
        free(buf->base);
        conn_close(c);
        return;
    }
    if (c->len + (size_t)nread > c->cap) {
        size_t cap = c->len + (size_t)nread;
        char *grown = realloc(c->in, cap);
        if (!grown) {
            free(buf->base);
            conn_close(c);
            return;
        }
        c->in = grown;
        c->cap = cap;
    }
    if (nread > 0) {
        memcpy(c->in + c->len, buf->base, (size_t)nread);
        c->len += (size_t)nread;
    }
    free(buf->base);
    size_t start = 0;
    for (;;) {
        char *lf = c->closing ? NULL : memchr(c->in + start, '\n', c->len - start);
        if (!lf) {
            break;
        }
        size_t n = (size_t)(lf - (c->in + start));
        if (n > 0 && c->in[start + n - 1] == '\r') {
            n--;
        }
        if (n > 0) {
            handle_line(c, c->in + start, n);
        }
        start = (size_t)(lf - c->in) + 1;
    }
    memmove(c->in, c->in + start, c->len - start);
    c->len -= start;
    if (c->len > FLOOR_LINE_MAX) {
        conn_close(c);
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

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--listen") == 0 && i + 1 < argc) {
            const char *colon = strrchr(argv[++i], ':');
            size_t hl = colon ? (size_t)(colon - argv[i]) : 0;
            if (!colon || hl == 0 || hl >= sizeof(host)) {
                fprintf(stderr, "bench_floor_jansson: bad --listen %s\n", argv[i]);
                return 2;
            }
            memcpy(host, argv[i], hl);
            host[hl] = '\0';
            port = atoi(colon + 1);
        } else if (strcmp(argv[i], "--moves") == 0 && i + 1 < argc) {
            game_moves = atol(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_floor_jansson [--listen HOST:PORT] [--moves N]\n");
            return 2;
        }
    }
    if (game_moves < 1) {
        game_moves = 1;
    }
    signal(SIGPIPE, SIG_IGN);

    uv_loop_t *loop = uv_default_loop();
    uv_tcp_t server;
    struct sockaddr_storage addr;
    if (uv_ip4_addr(host, port, (struct sockaddr_in *)&addr) != 0 &&
        uv_ip6_addr(host, port, (struct sockaddr_in6 *)&addr) != 0) {
        fprintf(stderr, "bench_floor_jansson: bad address %s\n", host);
        return 2;
    }
    uv_tcp_init(loop, &server);
    int rc = uv_tcp_bind(&server, (const struct sockaddr *)&addr, 0);
    if (rc == 0) {
        rc = uv_listen((uv_stream_t *)&server, 4096, on_connection);
    }
    if (rc != 0) {
        fprintf(stderr, "bench_floor_jansson: cannot listen on %s:%d: %s\n", host, port,
                uv_strerror(rc));
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

    uv_signal_t sigint, sigterm;
    uv_signal_init(loop, &sigint);
    uv_signal_init(loop, &sigterm);
    uv_signal_start(&sigint, on_signal, SIGINT);
    uv_signal_start(&sigterm, on_signal, SIGTERM);
    uv_run(loop, UV_RUN_DEFAULT);
    return 0;
}
