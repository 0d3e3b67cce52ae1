/* SPDX-License-Identifier: MIT */
/*
 * dispatch.c - the ops table and the checks every request passes before its
 * handler: parse, rate limit, known op, hello first, and what the op needs
 * of the peer's room and seat (checked once through lobby_check()). Room
 * ops are the lobby's own functions, listed in the table; this file never
 * touches sockets or games.
 */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op_flags {
    OP_BEFORE_HELLO = 1 << 0, /* allowed before hello */
    OP_FLEET = 1 << 1,        /* names a room that may live on another server */
};

/* A request line that waits for a lookup's answer. */
struct sess_line {
    struct sess_line *next;
    uint64_t now;
    size_t len;
    char text[];
};

typedef int (*op_session_fn)(struct sess *s, const json_t *req, const json_t *id, char *msg);

/* One op: handled by the session itself or by a lobby operation, after
 * the checks its flags and needs (enum lobby_need) ask for. */
struct op {
    const char *name;
    op_session_fn session;
    lobby_op_fn lobby;
    unsigned flags;
    unsigned need;
};

/* ---- Sending ---- */

void sess_send_json(struct sess *s, const json_t *msg)
{
    size_t len;
    char *line = msg ? proto_line_dump(msg, &len) : NULL;

    if (line) {
        /* Behind what the session is still owed by a room. */
        lobby_peer_send(&s->peer, line, len);
        free(line);
    }
}

static void send_error(struct sess *s, const json_t *id, enum proto_err code, const char *msg)
{
    json_t *r = proto_reply_error(id, code, msg && *msg ? msg : NULL);

    sess_send_json(s, r);
    json_decref(r);
}

static void peer_send(struct lobby_peer *peer, const char *line, size_t len)
{
    struct sess *s = (struct sess *)peer;

    s->io->send(s->io_ctx, line, len);
}

static void peer_close(struct lobby_peer *peer)
{
    struct sess *s = (struct sess *)peer;

    s->closing = true;
    s->io->close(s->io_ctx);
}

/* ---- Session ops ---- */

static int op_hello(struct sess *s, const json_t *req, const json_t *id, char *msg)
{
    json_t *jproto = json_object_get(req, "proto");
    const char *name = json_string_value(json_object_get(req, "name"));
    char clean[GAME_NAME_MAX];
    json_t *games, *r;

    if (jproto && (!json_is_integer(jproto) || json_integer_value(jproto) != PROTO_VERSION)) {
        snprintf(msg, GAME_MSG_MAX, "this server speaks protocol versions [1]");
        r = proto_reply_error(id, PROTO_ERR_PROTO_UNSUPPORTED, msg);
        if (r) {
            json_object_set_new(r, "versions", json_pack("[i]", PROTO_VERSION));
        }
        sess_send_json(s, r);
        json_decref(r);
        return PROTO_OK;
    }
    if (!name || proto_name_check(name, clean, sizeof(clean)) != 0) {
        snprintf(msg, GAME_MSG_MAX, "a name is 1 to 32 characters, without control characters");
        return PROTO_ERR_BAD_NAME;
    }
    games = lobby_games_json(s->lobby);
    if (!games) {
        return PROTO_ERR_INTERNAL;
    }
    snprintf(s->peer.name, sizeof(s->peer.name), "%s", clean);
    s->hello = true;
    r = proto_reply_ok(id);
    if (r) {
        json_object_set_new(r, "proto", json_integer(PROTO_VERSION));
        json_object_set_new(r, "server", json_string("conclaved/" CONCLAVE_VERSION));
        json_object_set(r, "games", games);
        json_object_set_new(r, "bot_levels", lobby_bot_levels_json(s->lobby));
        /* What a client must do to stay connected: send something at
         * least this often (in seconds). */
        json_object_set_new(r, "idle_timeout", json_integer((json_int_t)(s->cfg->idle_ms / 1000)));
        /* Where a seat's notices may go, when the server sends any. */
        json_t *notify = lobby_notifier_json(s->lobby);
        if (notify) {
            json_object_set_new(r, "notify", notify);
        }
    }
    json_decref(games);
    sess_send_json(s, r);
    json_decref(r);
    return PROTO_OK;
}

static int op_ping(struct sess *s, const json_t *req, const json_t *id, char *msg)
{
    json_t *r = proto_reply_ok(id);

    sess_send_json(s, r);
    json_decref(r);
    return PROTO_OK;
}

#define ROOM LOBBY_NEED_ROOM
#define PLAYING (LOBBY_NEED_ROOM | LOBBY_NEED_SEAT | LOBBY_NEED_STARTED)

static const struct op ops[] = {
    {"hello", op_hello, NULL, OP_BEFORE_HELLO, 0},
    {"ping", op_ping, NULL, OP_BEFORE_HELLO, 0},
    {"create", NULL, lobby_create, 0, 0},
    {"join", NULL, lobby_join, OP_FLEET, 0},
    {"spectate", NULL, lobby_spectate, OP_FLEET, 0},
    {"resume", NULL, lobby_resume, OP_FLEET, 0},
    {"list", NULL, lobby_list, 0, 0},
    {"start", NULL, lobby_start, 0, ROOM},
    {"leave", NULL, lobby_leave, 0, ROOM},
    {"chat", NULL, lobby_chat, 0, ROOM},
    {"sync", NULL, lobby_sync, 0, ROOM},
    {"record", NULL, lobby_record, 0, 0},
    {"review", NULL, lobby_review, 0, 0},
    {"rematch", NULL, lobby_rematch, 0, ROOM | LOBBY_NEED_SEAT},
    {"notify", NULL, lobby_notify, 0, ROOM | LOBBY_NEED_SEAT},
    {"legal", NULL, lobby_legal, 0, PLAYING},
    {"act", NULL, lobby_act, 0, PLAYING | LOBBY_NEED_TURN},
    {"undo", NULL, lobby_undo, 0, PLAYING},
};

#undef ROOM
#undef PLAYING

/* ---- Session ---- */

void sess_init(struct sess *s, uint64_t id, struct lobby *lobby, const struct sess_config *cfg,
               const struct sess_io *io, void *io_ctx, uint64_t now)
{
    memset(s, 0, sizeof(*s));
    s->peer.id = id;
    s->peer.seat = -1;
    s->peer.send = peer_send;
    s->peer.close = peer_close;
    s->lobby = lobby;
    s->cfg = cfg;
    s->io = io;
    s->io_ctx = io_ctx;
    s->tokens = cfg->rate_burst;
    s->patience = cfg->abuse_limit;
    s->last_ms = now;
}

void sess_set_address(struct sess *s, const char *addr)
{
    snprintf(s->peer.addr, sizeof(s->peer.addr), "%s", addr);
}

/* Token bucket: true when the request may run. A second bucket,
 * `patience`, refills at the same rate and loses one per refusal: a client
 * a little over the rate only sees rate_limited, one far over it for long
 * runs out of patience and is disconnected. */
static bool rate_take(struct sess *s, uint64_t now, double cost)
{
    if (now > s->last_ms) {
        double refill = (double)(now - s->last_ms) * s->cfg->rate_per_sec / 1000.0;
        s->tokens += refill;
        if (s->tokens > s->cfg->rate_burst) {
            s->tokens = s->cfg->rate_burst;
        }
        s->patience += refill;
        if (s->patience > s->cfg->abuse_limit) {
            s->patience = s->cfg->abuse_limit;
        }
        s->last_ms = now;
    }
    if (s->tokens < cost) {
        return false;
    }
    s->tokens -= cost;
    return true;
}

static void count_refusal(struct sess *s, enum proto_err rc, bool act)
{
    if (s->stats && rc > PROTO_OK && rc < PROTO_ERR__COUNT) {
        s->stats->rate_limited += rc == PROTO_ERR_RATE_LIMITED;
        s->stats->refused[rc]++;
        s->stats->act_refused[rc] += act;
    }
}

/* A join, spectate or resume that this server refused for want of the
 * room: when the room is named and not held here, and a finder is set, the
 * fleet is asked where it lives and the reply waits for the answer
 * (PROTO_OK). Otherwise the refusal stands (`rc`), or server_busy when no
 * lookup can start now. */
static int look_elsewhere(struct sess *s, const struct op *op, const json_t *req, const json_t *id,
                          int rc, char *msg)
{
    const char *typed = json_string_value(json_object_get(req, "room"));
    char code[PROTO_ROOM_CODE_LEN + 1];
    bool resume = op->lobby == lobby_resume;

    if (!s->finder || !(op->flags & OP_FLEET) || !typed ||
        rc != (resume ? PROTO_ERR_BAD_TOKEN : PROTO_ERR_ROOM_NOT_FOUND) ||
        proto_room_code_parse(typed, code) != 0 || lobby_holds(s->lobby, code)) {
        return rc;
    }
    s->finding = s->finder->find(s->finder->ctx, code, s);
    if (!s->finding) {
        snprintf(msg, GAME_MSG_MAX, "too many rooms are being looked for in the fleet; try again");
        return PROTO_ERR_SERVER_BUSY;
    }
    memcpy(s->find_code, code, sizeof(code));
    s->find_id = id ? json_incref((json_t *)id) : NULL;
    return PROTO_OK;
}

/* Keeps a line until the lookup under way has its answer. */
static void wait_line(struct sess *s, const char *line, size_t len, uint64_t now)
{
    struct sess_line *l = NULL;

    if (s->nwaiting < SESS_WAIT_LINES && s->waiting_bytes + len <= SESS_WAIT_BYTES) {
        l = malloc(sizeof(*l) + len);
    }
    if (!l) {
        struct proto_request req = {0};
        char msg[GAME_MSG_MAX];
        if (len <= SESS_BYTES_PER_REQUEST) {
            (void)proto_request_parse(line, len, &req, msg, sizeof(msg));
        }
        snprintf(msg, sizeof(msg),
                 "at most %d requests may wait while a room is looked for in the fleet",
                 SESS_WAIT_LINES);
        send_error(s, req.id, PROTO_ERR_RATE_LIMITED, msg);
        if (s->stats) {
            s->stats->requests++;
        }
        count_refusal(s, PROTO_ERR_RATE_LIMITED, false);
        proto_request_fini(&req);
        return;
    }
    l->next = NULL;
    l->now = now;
    l->len = len;
    memcpy(l->text, line, len);
    if (s->waiting_last) {
        s->waiting_last->next = l;
    } else {
        s->waiting = l;
    }
    s->waiting_last = l;
    s->nwaiting++;
    s->waiting_bytes += len;
}

static struct sess_line *unwait_line(struct sess *s)
{
    struct sess_line *l = s->waiting;

    if (l) {
        s->waiting = l->next;
        if (!s->waiting) {
            s->waiting_last = NULL;
        }
        s->nwaiting--;
        s->waiting_bytes -= l->len;
    }
    return l;
}

void sess_found(struct sess *s, enum sess_found answer, const char *server, const char *web)
{
    char msg[GAME_MSG_MAX];
    enum proto_err code;
    struct sess_line *l;

    s->finding = NULL;
    switch (answer) {
    case SESS_FOUND_ELSEWHERE:
        code = PROTO_ERR_ROOM_ELSEWHERE;
        snprintf(msg, sizeof(msg), "room %s is on server %s", s->find_code, server);
        break;
    case SESS_FOUND_NOWHERE:
        code = PROTO_ERR_ROOM_NOT_FOUND;
        snprintf(msg, sizeof(msg), "no room %s", s->find_code);
        break;
    default:
        code = PROTO_ERR_SERVER_BUSY;
        snprintf(msg, sizeof(msg), "the fleet could not be asked where room %s is; try again",
                 s->find_code);
        break;
    }
    json_t *r = proto_reply_error(s->find_id, code, msg);
    json_t *err = json_object_get(r, "error");
    if (err && code == PROTO_ERR_ROOM_ELSEWHERE) {
        json_object_set_new(err, "server", json_string(server));
        if (web && *web) {
            json_object_set_new(err, "web", json_string(web));
        }
    }
    sess_send_json(s, r);
    json_decref(r);
    json_decref(s->find_id);
    s->find_id = NULL;
    count_refusal(s, code, false);
    while (!s->finding && !s->closing && (l = unwait_line(s))) {
        sess_handle_line(s, l->text, l->len, l->now);
        free(l);
    }
}

void sess_handle_line(struct sess *s, const char *line, size_t len, uint64_t now)
{
    struct proto_request req = {0};
    char msg[GAME_MSG_MAX] = "";
    enum proto_err rc;
    const struct op *op = NULL;

    if (s->closing) {
        return;
    }
    if (s->finding) {
        wait_line(s, line, len, now);
        return;
    }
    /* A request costs one, and one more per KiB: charged before parsing,
     * so that long lines cannot buy the parser's time at the price of
     * short ones. A line refused here is parsed only when it is short
     * (to answer with its id). */
    double cost = 1.0 + (double)(len / SESS_BYTES_PER_REQUEST);
    if (!rate_take(s, now, cost)) {
        if (len <= SESS_BYTES_PER_REQUEST) {
            (void)proto_request_parse(line, len, &req, msg, sizeof(msg));
        }
        rc = PROTO_ERR_RATE_LIMITED;
        snprintf(msg, sizeof(msg),
                 "more than %.0f requests per second (a line counts one more per %d bytes); "
                 "slow down",
                 s->cfg->rate_per_sec, SESS_BYTES_PER_REQUEST);
        s->patience -= 1.0;
        if (s->patience <= 0) {
            send_error(s, req.id, rc, msg);
            proto_request_fini(&req);
            s->closing = true;
            s->io->close(s->io_ctx);
            return;
        }
    } else {
        rc = proto_request_parse(line, len, &req, msg, sizeof(msg));
    }
    if (rc == PROTO_OK) {
        for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
            if (strcmp(ops[i].name, req.op) == 0) {
                op = &ops[i];
                break;
            }
        }
        if (!op) {
            rc = PROTO_ERR_UNKNOWN_OP;
            snprintf(msg, sizeof(msg), "no op \"%.40s\"", req.op);
        } else if (!s->hello && !(op->flags & OP_BEFORE_HELLO)) {
            rc = PROTO_ERR_HELLO_REQUIRED;
        } else {
            struct lobby_req lreq = {req.msg, req.id, now, msg};
            msg[0] = '\0';
            rc = lobby_check(&s->peer, op->need, msg);
            if (rc == PROTO_OK) {
                rc = op->session ? op->session(s, req.msg, req.id, msg)
                                 : op->lobby(s->lobby, &s->peer, &lreq);
            }
            if (rc != PROTO_OK) {
                rc = look_elsewhere(s, op, req.msg, req.id, rc, msg);
            }
        }
    }
    if (rc != PROTO_OK) {
        send_error(s, req.id, rc, msg);
    }
    if (s->stats) {
        bool act = op && strcmp(op->name, "act") == 0;
        s->stats->requests++;
        s->stats->acts += act && rc == PROTO_OK;
        count_refusal(s, rc, act);
    }
    proto_request_fini(&req);
}

void sess_fini(struct sess *s, uint64_t now)
{
    struct sess_line *l;

    if (s->finding) {
        s->finder->cancel(s->finder->ctx, s->finding);
        s->finding = NULL;
    }
    json_decref(s->find_id);
    s->find_id = NULL;
    while ((l = unwait_line(s))) {
        free(l);
    }
    lobby_peer_gone(s->lobby, &s->peer, now);
}
