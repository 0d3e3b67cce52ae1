/* SPDX-License-Identifier: MIT */
/*
 * test_lobby.c - the lobby's rules of rooms, seats, tokens, views, diffs,
 * bots and expiry, driven through fake peers that record every line the
 * lobby sends them. The game is the test-only "Race to 10".
 */
#include "ck_run.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "failalloc.h"
#include "fake_game.h"
#include "lobby.h"

struct tpeer {
    struct lobby_peer peer;
    json_t *msgs; /* every message received, in order */
    bool closed;
    json_t *view; /* tracked from state + diffs */
    long rev;
    char last_msg[GAME_MSG_MAX]; /* the last refusal's words (call_undo) */
};

static void tp_send(struct lobby_peer *p, const char *line, size_t len)
{
    struct tpeer *t = (struct tpeer *)p;
    json_error_t err;
    json_t *m;

    ck_assert_msg(len > 0 && line[len - 1] == '\n', "line without newline");
    m = json_loadb(line, len - 1, 0, &err);
    ck_assert_msg(json_is_object(m), "not a JSON object: %.*s", (int)len, line);
    json_array_append_new(t->msgs, m);
}

static void tp_close(struct lobby_peer *p)
{
    ((struct tpeer *)p)->closed = true;
}

static const struct game_ops *const fake_games[] = {&fake_game, NULL};

static struct lobby_config cfg = {
    .games = fake_games,
    .max_rooms = 4,
    .max_rooms_per_conn = 2,
    .max_rooms_per_addr = 3,
    .max_spectators = 8,
    .outbox_max = 1u << 20,
    .lobby_ttl_ms = 1000,
    .ended_ttl_ms = 5000,
    .abandoned_ttl_ms = 100000,
    .bot_delay_ms = 0,
    .bot_level_max = BOT_HARD,
};

static struct lobby *lobby;
static struct tpeer peers[5];
static uint64_t clock_ms;

#define ROOM LOBBY_NEED_ROOM
#define PLAYING (LOBBY_NEED_ROOM | LOBBY_NEED_SEAT | LOBBY_NEED_STARTED)

/* Runs an operation as the session's dispatcher does: its needs first. */
static int run_op(lobby_op_fn op, unsigned need, struct lobby_peer *peer, const json_t *args,
                  char *msg)
{
    struct lobby_req rq = {args, NULL, clock_ms, msg};
    int rc = lobby_check(peer, need, msg);

    return rc != PROTO_OK ? rc : op(lobby, peer, &rq);
}

static void setup(void)
{
    ck_assert_int_ge(sodium_init(), 0);
    lobby = lobby_new(&cfg);
    clock_ms = 1000;
    for (int i = 0; i < 5; i++) {
        memset(&peers[i], 0, sizeof(peers[i]));
        peers[i].peer.id = (uint64_t)i + 1;
        peers[i].peer.seat = -1;
        peers[i].peer.send = tp_send;
        peers[i].peer.close = tp_close;
        snprintf(peers[i].peer.name, sizeof(peers[i].peer.name), "P%d", i);
        peers[i].msgs = json_array();
    }
}

static void teardown(void)
{
    lobby_free(lobby);
    for (int i = 0; i < 5; i++) {
        json_decref(peers[i].msgs);
        json_decref(peers[i].view);
    }
}

/* The last message of `t` that is a reply. Borrowed. */
static json_t *last_reply(struct tpeer *t)
{
    for (size_t i = json_array_size(t->msgs); i > 0; i--) {
        json_t *m = json_array_get(t->msgs, i - 1);
        if (json_object_get(m, "ok")) {
            return m;
        }
    }
    return NULL;
}

static int count_ev(struct tpeer *t, const char *ev)
{
    int n = 0;
    size_t i;
    json_t *m;

    json_array_foreach(t->msgs, i, m) {
        n += json_is_string(json_object_get(m, "ev")) &&
             strcmp(json_string_value(json_object_get(m, "ev")), ev) == 0;
    }
    return n;
}

/* Applies every state and diff the peer received since the last call,
 * checking revs and hashes. */
static void track(struct tpeer *t)
{
    size_t i;
    json_t *m;

    json_array_foreach(t->msgs, i, m) {
        const char *ev = json_string_value(json_object_get(m, "ev"));
        char hash[65];
        if (!ev || json_object_get(m, "_seen")) {
            continue;
        }
        json_object_set_new(m, "_seen", json_true());
        if (strcmp(ev, "state") == 0) {
            json_decref(t->view);
            t->view = json_deep_copy(json_object_get(m, "view"));
            t->rev = (long)json_integer_value(json_object_get(m, "rev"));
        } else if (strcmp(ev, "diff") == 0) {
            ck_assert_ptr_nonnull(t->view);
            ck_assert_int_eq(json_integer_value(json_object_get(m, "rev")), t->rev + 1);
            ck_assert_int_eq(proto_patch_apply(&t->view, json_object_get(m, "patch")), 0);
            t->rev++;
        } else {
            continue;
        }
        ck_assert_int_eq(proto_view_hash(t->view, hash), 0);
        ck_assert_str_eq(hash, json_string_value(json_object_get(m, "hash")));
    }
}

static uint64_t journal_seq; /* the test journal's last record, when one is attached */

/* Lets what the test journal holds become durable (nothing without one). */
static void settle(void)
{
    if (journal_seq) {
        lobby_durable(lobby, journal_seq);
    }
}

static int call_create(struct tpeer *t, int seats, json_t *opts)
{
    char msg[GAME_MSG_MAX] = "";
    json_t *req = json_pack("{s:s, s:i}", "game", "fake", "seats", seats);
    if (opts) {
        json_object_set_new(req, "options", opts);
    }
    int rc = run_op(lobby_create, 0, &t->peer, req, msg);
    json_decref(req);
    settle();
    return rc;
}

static int call_join(struct tpeer *t, const char *code, int seat)
{
    char msg[GAME_MSG_MAX] = "";
    json_t *req = json_pack("{s:s}", "room", code);
    if (seat >= 0) {
        json_object_set_new(req, "seat", json_integer(seat));
    }
    int rc = run_op(lobby_join, 0, &t->peer, req, msg);
    json_decref(req);
    settle();
    return rc;
}

static int call_act(struct tpeer *t, int n, long rev)
{
    char msg[GAME_MSG_MAX] = "";
    json_t *req = json_pack("{s:{s:s, s:i}}", "action", "type", "add", "n", n);
    if (rev >= 0) {
        json_object_set_new(req, "rev", json_integer(rev));
    }
    int rc = run_op(lobby_act, PLAYING | LOBBY_NEED_TURN, &t->peer, req, msg);
    json_decref(req);
    return rc;
}

static int call_start(struct tpeer *t, bool bots)
{
    char msg[GAME_MSG_MAX] = "";
    json_t *req = json_pack("{s:b}", "bots", bots);
    int rc = run_op(lobby_start, ROOM, &t->peer, req, msg);
    json_decref(req);
    settle();
    return rc;
}

static const char *room_code(struct tpeer *t)
{
    return json_string_value(json_object_get(last_reply(t), "room"));
}

/* Two players in a started game; returns the room code (static). */
static const char *two_player_game(void)
{
    static char code[8];

    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    snprintf(code, sizeof(code), "%s", room_code(&peers[0]));
    ck_assert_int_eq(call_join(&peers[1], code, -1), PROTO_OK);
    ck_assert_int_eq(call_start(&peers[0], false), PROTO_OK);
    track(&peers[0]);
    track(&peers[1]);
    return code;
}

START_TEST(create_gives_code_seat_and_token)
{
    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    json_t *r = last_reply(&peers[0]);
    char norm[7];
    ck_assert_int_eq(proto_room_code_parse(room_code(&peers[0]), norm), 0);
    ck_assert_str_eq(norm, room_code(&peers[0]));
    ck_assert_int_eq(json_integer_value(json_object_get(r, "seat")), 0);
    ck_assert_uint_eq(strlen(json_string_value(json_object_get(r, "token"))), 43);
    ck_assert_int_eq(count_ev(&peers[0], "room"), 1);
    /* The reply comes before the room event. */
    ck_assert_ptr_nonnull(json_object_get(json_array_get(peers[0].msgs, 0), "ok"));
}
END_TEST

START_TEST(join_by_typed_code_and_refusals)
{
    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    char typed[16];
    const char *code = room_code(&peers[0]);
    snprintf(typed, sizeof(typed), "%c%c%c-%c%c %c", code[0] | 0x20, code[1] | 0x20, code[2] | 0x20,
             code[3] | 0x20, code[4] | 0x20, code[5] | 0x20);
    ck_assert_int_eq(call_join(&peers[1], typed, 0), PROTO_ERR_SEAT_TAKEN);
    ck_assert_int_eq(call_join(&peers[1], typed, -1), PROTO_OK);
    ck_assert_int_eq(json_integer_value(json_object_get(last_reply(&peers[1]), "seat")), 1);
    ck_assert_int_eq(call_join(&peers[2], code, -1), PROTO_ERR_ROOM_FULL);
    ck_assert_int_eq(call_join(&peers[2], "ZZZZZZ", -1), PROTO_ERR_ROOM_NOT_FOUND);
    ck_assert_int_eq(call_join(&peers[2], "!!", -1), PROTO_ERR_ROOM_NOT_FOUND);
    /* Both members heard of the second seat being taken. */
    ck_assert_int_eq(count_ev(&peers[0], "room"), 2);
}
END_TEST

START_TEST(start_needs_host_and_players)
{
    ck_assert_int_eq(call_create(&peers[0], 3, NULL), PROTO_OK);
    ck_assert_int_eq(call_join(&peers[1], room_code(&peers[0]), -1), PROTO_OK);
    ck_assert_int_eq(call_start(&peers[1], true), PROTO_ERR_NOT_HOST);
    ck_assert_int_eq(call_start(&peers[0], false), PROTO_ERR_NOT_ENOUGH_PLAYERS);
    ck_assert_int_eq(count_ev(&peers[0], "state"), 0);
    ck_assert_int_eq(call_start(&peers[0], true), PROTO_OK);
    ck_assert_int_eq(count_ev(&peers[0], "state"), 1);
    ck_assert_int_eq(call_join(&peers[2], room_code(&peers[1]), -1), PROTO_ERR_ALREADY_STARTED);
}
END_TEST

START_TEST(bad_create_options)
{
    ck_assert_int_eq(call_create(&peers[0], 7, NULL), PROTO_ERR_BAD_OPTION);
    ck_assert_int_eq(call_create(&peers[0], 2, json_pack("{s:i}", "speed", 3)),
                     PROTO_ERR_BAD_OPTION);
    ck_assert_int_eq(call_create(&peers[0], 2, json_pack("{s:i}", "public", 3)),
                     PROTO_ERR_BAD_OPTION);
    ck_assert_int_eq(lobby_room_count(lobby), 0);
    ck_assert_int_eq(json_array_size(peers[0].msgs), 0);
}
END_TEST

START_TEST(views_private_only_under_you)
{
    const char *code = two_player_game();
    char msg[GAME_MSG_MAX];
    json_t *req = json_pack("{s:s}", "room", code);
    ck_assert_int_eq(run_op(lobby_spectate, 0, &peers[2].peer, req, msg), PROTO_OK);
    json_decref(req);
    track(&peers[2]);
    ck_assert_ptr_nonnull(peers[2].view);
    ck_assert_ptr_null(json_object_get(peers[2].view, "you"));
    for (int i = 0; i < 2; i++) {
        json_t *pub = json_deep_copy(peers[i].view);
        ck_assert_ptr_nonnull(json_object_get(pub, "you"));
        json_object_del(pub, "you");
        ck_assert(json_equal(pub, peers[2].view));
        ck_assert_ptr_nonnull(json_object_get(pub, "seed_commit"));
        json_decref(pub);
    }
}
END_TEST

START_TEST(refused_act_changes_nothing)
{
    two_player_game();
    size_t before0 = json_array_size(peers[0].msgs);
    size_t before1 = json_array_size(peers[1].msgs);
    ck_assert_int_eq(call_act(&peers[1], 1, -1), PROTO_ERR_NOT_YOUR_TURN);
    ck_assert_int_eq(call_act(&peers[0], 3, -1), PROTO_ERR_ILLEGAL_ACTION);
    ck_assert_int_eq(call_act(&peers[0], 1, 0), PROTO_ERR_STALE);
    ck_assert_uint_eq(json_array_size(peers[0].msgs), before0);
    ck_assert_uint_eq(json_array_size(peers[1].msgs), before1);
    ck_assert_int_eq(call_act(&peers[0], 1, 1), PROTO_OK);
    ck_assert_int_eq(json_integer_value(json_object_get(last_reply(&peers[0]), "rev")), 2);
}
END_TEST

START_TEST(diffs_rebuild_every_view)
{
    two_player_game();
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(call_act(&peers[k % 2], 2, -1), PROTO_OK);
    }
    track(&peers[0]);
    track(&peers[1]);
    ck_assert_int_eq(peers[0].rev, 4);
    ck_assert_int_eq(json_integer_value(json_object_get(peers[1].view, "total")), 6);
    /* What sync sends equals what the diffs built. */
    char msg[GAME_MSG_MAX];
    ck_assert_int_eq(run_op(lobby_sync, ROOM, &peers[1].peer, NULL, msg), PROTO_OK);
    json_t *tracked = json_deep_copy(peers[1].view);
    track(&peers[1]);
    ck_assert(json_equal(tracked, peers[1].view));
    json_decref(tracked);
}
END_TEST

static json_t *seen_by_spectator(struct lobby *l, const char *code);

/* The ops of the last diff peer `t` received whose paths start with
 * `prefix`. */
static json_t *last_ops(struct tpeer *t, const char *prefix)
{
    json_t *ops = json_array();

    for (size_t i = json_array_size(t->msgs); i > 0; i--) {
        json_t *m = json_array_get(t->msgs, i - 1);
        const char *ev = json_string_value(json_object_get(m, "ev"));
        size_t k;
        json_t *op;
        if (!ev || strcmp(ev, "diff") != 0) {
            continue;
        }
        json_array_foreach(json_object_get(m, "patch"), k, op) {
            if (strncmp(json_string_value(json_object_get(op, "path")), prefix, strlen(prefix)) ==
                0) {
                json_array_append(ops, op);
            }
        }
        break;
    }
    return ops;
}

/* The ops of the last diff `t` received under `prefix` are `want`
 * (taken). */
static void check_last_ops(struct tpeer *t, const char *prefix, json_t *want)
{
    json_t *ops = last_ops(t, prefix);
    char *got = json_dumps(ops, JSON_COMPACT);

    ck_assert_msg(json_equal(ops, want), "%s ops: %s", prefix, got);
    free(got);
    json_decref(ops);
    json_decref(want);
}

/* What the diffs built for the two players holds `value` (taken) at
 * `key`, and is the view a spectator of room `code` is sent whole. */
static void check_built_view(const char *code, const char *key, json_t *value)
{
    track(&peers[0]);
    track(&peers[1]);
    ck_assert(json_equal(json_object_get(peers[0].view, key), value));
    json_t *spec = seen_by_spectator(lobby, code);
    json_t *pub = json_deep_copy(peers[1].view);
    json_object_del(pub, "you");
    ck_assert(json_equal(json_object_get(spec, "view"), pub));
    json_decref(value);
    json_decref(spec);
    json_decref(pub);
}

START_TEST(a_log_sends_only_its_new_lines)
{
    const char *code = two_player_game();

    /* Seat 0 adds 1 (one line), seat 1 adds 2 (two lines: the log of
     * three is full), seat 0 adds 2: the two oldest go, two come. */
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    ck_assert_int_eq(call_act(&peers[1], 2, -1), PROTO_OK);
    ck_assert_int_eq(call_act(&peers[0], 2, -1), PROTO_OK);
    check_last_ops(&peers[1], "/log/",
                   json_pack("[{s:s, s:s}, {s:s, s:s}, {s:s, s:s, s:s}, {s:s, s:s, s:s}]", "op",
                             "remove", "path", "/log/0", "op", "remove", "path", "/log/0", "op",
                             "add", "path", "/log/1", "value", "P0 added 2", "op", "add", "path",
                             "/log/2", "value", "the total is 5"));
    /* Three lines, then one of one: the oldest of the three goes. */
    ck_assert_int_eq(call_act(&peers[1], 1, -1), PROTO_OK);
    check_last_ops(&peers[0], "/log/",
                   json_pack("[{s:s, s:s}, {s:s, s:s, s:s}]", "op", "remove", "path", "/log/0",
                             "op", "add", "path", "/log/2", "value", "P1 added 1"));
    check_built_view(code, "log",
                     json_pack("[s, s, s]", "P0 added 2", "the total is 5", "P1 added 1"));
}
END_TEST

/* A seat whose item changed in one field gets that field's op alone, and
 * the view the diffs build is the one a spectator is sent whole. */
START_TEST(a_seat_sends_only_its_changed_fields)
{
    const char *code = two_player_game();

    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    ck_assert_int_eq(call_act(&peers[1], 2, -1), PROTO_OK);
    check_last_ops(
        &peers[0], "/seats/",
        json_pack("[{s:s, s:s, s:i}]", "op", "add", "path", "/seats/1/adds/0", "value", 2));
    ck_assert_int_eq(call_act(&peers[0], 2, -1), PROTO_OK);
    check_last_ops(
        &peers[1], "/seats/",
        json_pack("[{s:s, s:s, s:i}]", "op", "add", "path", "/seats/0/adds/1", "value", 2));
    check_built_view(code, "seats",
                     json_pack("[{s:[i, i], s:s}, {s:[i], s:s}]", "adds", 1, 2, "name", "P0",
                               "adds", 2, "name", "P1"));
}
END_TEST

START_TEST(resume_with_rev_sends_missed_diffs)
{
    two_player_game();
    json_t *join_reply = NULL;
    size_t i;
    json_t *m;
    json_array_foreach(peers[1].msgs, i, m) {
        if (json_object_get(m, "token")) {
            join_reply = m;
        }
    }
    const char *token = json_string_value(json_object_get(join_reply, "token"));
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    ck_assert_int_eq(call_act(&peers[1], 1, -1), PROTO_OK);
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);

    char msg[GAME_MSG_MAX];
    json_t *req = json_pack("{s:s, s:i}", "token", token, "rev", 3);
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[3].peer, req, msg), PROTO_OK);
    json_decref(req);
    ck_assert_int_eq(count_ev(&peers[3], "state"), 0);
    ck_assert_int_eq(count_ev(&peers[3], "diff"), 1);
    ck_assert_int_eq(count_ev(&peers[1], "replaced"), 1);
    ck_assert(peers[1].closed);
    ck_assert_ptr_null(peers[1].peer.room);
    ck_assert_int_eq(peers[3].peer.seat, 1);

    /* Without rev: the whole state. */
    req = json_pack("{s:s}", "token", token);
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[4].peer, req, msg), PROTO_OK);
    json_decref(req);
    ck_assert_int_eq(count_ev(&peers[4], "state"), 1);

    req = json_pack("{s:s}", "token", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[2].peer, req, msg), PROTO_ERR_BAD_TOKEN);
    json_decref(req);
}
END_TEST

static void store_attach(struct lobby *l);
static void store_fini(void);

START_TEST(bots_finish_and_record_replays)
{
    char msg[GAME_MSG_MAX];
    store_attach(lobby); /* the record is read from the journal */
    ck_assert_int_eq(call_create(&peers[0], 4, NULL), PROTO_OK);
    ck_assert_int_eq(call_start(&peers[0], true), PROTO_OK);
    ck_assert_int_eq(run_op(lobby_record, ROOM, &peers[0].peer, NULL, msg),
                     PROTO_ERR_GAME_NOT_OVER);
    /* Seat 0 (the human) moves first: nothing is due until it has. */
    ck_assert_uint_eq(lobby_next_due(lobby), UINT64_MAX);
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    /* Then the bot of seat 1 is due at once (bot delay 0). */
    ck_assert_uint_le(lobby_next_due(lobby), clock_ms);
    for (int guard = 0; guard < 100 && count_ev(&peers[0], "ended") == 0; guard++) {
        track(&peers[0]);
        json_t *view = peers[0].view;
        if (json_integer_value(json_array_get(json_object_get(view, "active"), 0)) == 0 &&
            json_array_size(json_object_get(view, "active")) == 1) {
            ck_assert_int_eq(call_act(&peers[0], 2, -1), PROTO_OK);
        }
        clock_ms += 10;
        (void)lobby_run_due(lobby, clock_ms);
        settle();
    }
    ck_assert_int_eq(count_ev(&peers[0], "ended"), 1);
    track(&peers[0]);
    json_t *result = json_object_get(peers[0].view, "result");
    ck_assert_uint_eq(strlen(json_string_value(json_object_get(result, "seed"))), 64);

    ck_assert_int_eq(run_op(lobby_record, ROOM, &peers[0].peer, NULL, msg), PROTO_OK);
    settle();
    json_t *rec = json_object_get(last_reply(&peers[0]), "record");
    ck_assert_str_eq(json_string_value(json_object_get(rec, "game")), "fake");
    ck_assert_str_eq(json_string_value(
                         json_object_get(json_array_get(json_object_get(rec, "seats"), 1), "kind")),
                     "bot");
    /* Replaying the record from its seed reaches the same end. */
    struct game_setup gs = {.nseats = 4};
    uint8_t commit[32];
    char hex[65];
    size_t bin_len;
    ck_assert_int_eq(sodium_hex2bin(gs.seed, 32, json_string_value(json_object_get(rec, "seed")),
                                    64, NULL, &bin_len, NULL),
                     0);
    crypto_generichash(commit, 32, gs.seed, 32, NULL, 0);
    proto_hex(commit, 32, hex);
    ck_assert_str_eq(hex, json_string_value(json_object_get(peers[0].view, "seed_commit")));
    void *st = calloc(1, fake_game.state_size);
    struct game_error ge;
    json_t *opts = json_object();
    ck_assert_int_eq(game_start(&fake_game, st, opts, &gs, &ge), GAME_OK);
    size_t i;
    json_t *step;
    json_array_foreach(json_object_get(rec, "actions"), i, step) {
        ck_assert_int_eq(game_apply(&fake_game, st,
                                    (int)json_integer_value(json_object_get(step, "seat")),
                                    json_object_get(step, "action"), &ge),
                         GAME_OK);
    }
    json_t *again = game_result(&fake_game, st);
    json_object_del(result, "seed");
    ck_assert(json_equal(again, result));
    json_decref(again);
    json_decref(opts);
    free(st);
    store_fini();
}
END_TEST

START_TEST(host_passes_on_leave)
{
    char msg[GAME_MSG_MAX];
    ck_assert_int_eq(call_create(&peers[0], 3, NULL), PROTO_OK);
    const char *code = room_code(&peers[0]);
    ck_assert_int_eq(call_join(&peers[1], code, 2), PROTO_OK);
    ck_assert_int_eq(run_op(lobby_leave, ROOM, &peers[0].peer, NULL, msg), PROTO_OK);
    json_t *last = NULL;
    size_t i;
    json_t *m;
    json_array_foreach(peers[1].msgs, i, m) {
        if (json_object_get(m, "ev")) {
            last = m;
        }
    }
    ck_assert_int_eq(json_integer_value(json_object_get(last, "host")), 2);
    ck_assert_int_eq(call_start(&peers[1], true), PROTO_OK);
    ck_assert_int_eq(run_op(lobby_leave, ROOM, &peers[0].peer, NULL, msg), PROTO_ERR_NOT_IN_ROOM);
}
END_TEST

START_TEST(rooms_expire)
{
    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    lobby_peer_gone(lobby, &peers[0].peer, clock_ms);
    ck_assert_int_eq(lobby_room_count(lobby), 1);
    /* The lobby knows its next due time without a walk over the rooms. */
    ck_assert_uint_eq(lobby_next_due(lobby), clock_ms + cfg.lobby_ttl_ms);
    ck_assert_uint_le(lobby_run_due(lobby, clock_ms), clock_ms + cfg.lobby_ttl_ms);
    (void)lobby_run_due(lobby, clock_ms + cfg.lobby_ttl_ms - 1);
    ck_assert_int_eq(lobby_room_count(lobby), 1);
    (void)lobby_run_due(lobby, clock_ms + cfg.lobby_ttl_ms);
    ck_assert_int_eq(lobby_room_count(lobby), 0);
}
END_TEST

START_TEST(room_limit_is_server_busy)
{
    for (unsigned i = 0; i < cfg.max_rooms; i++) {
        ck_assert_int_eq(call_create(&peers[i % 5], 2, NULL), PROTO_OK);
    }
    ck_assert_int_eq(call_create(&peers[4], 2, NULL), PROTO_ERR_SERVER_BUSY);
}
END_TEST

START_TEST(chat_is_cleaned_and_bounded)
{
    char msg[GAME_MSG_MAX];
    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    ck_assert_int_eq(call_join(&peers[1], room_code(&peers[0]), -1), PROTO_OK);
    json_t *req = json_pack("{s:s}", "text", "gg\nwp");
    ck_assert_int_eq(run_op(lobby_chat, ROOM, &peers[0].peer, req, msg), PROTO_OK);
    json_decref(req);
    json_t *last = json_array_get(peers[1].msgs, json_array_size(peers[1].msgs) - 1);
    ck_assert_str_eq(json_string_value(json_object_get(last, "text")), "gg wp");
    ck_assert_str_eq(json_string_value(json_object_get(last, "name")), "P0");
    char big[520];
    memset(big, 'x', 501);
    big[501] = '\0';
    req = json_pack("{s:s}", "text", big);
    ck_assert_int_eq(run_op(lobby_chat, ROOM, &peers[0].peer, req, msg), PROTO_ERR_BAD_REQUEST);
    json_decref(req);
}
END_TEST

/* ---- The commit path under failures ---- */

/* A journal in memory that can be told to refuse records, and that makes
 * records durable only when the test says so. */
struct tstore {
    size_t records; /* records taken */
    bool attached;
    long fail_next; /* refuse this many appends from now */
    uint64_t seq;
    /* Every record taken, as written ("[rec,rec,...", with malloc: the
     * allocation tests fail only jansson's). */
    char *text;
    size_t len;
};

static struct tstore store;

static int ts_append(void *ctx, const char *code, const char *line, size_t len, uint64_t *ret_seq)
{
    struct tstore *ts = ctx;

    if (ts->fail_next > 0) {
        ts->fail_next--;
        return -EIO;
    }
    ts->records++;
    *ret_seq = ++ts->seq;
    journal_seq = ts->seq;
    char *t = realloc(ts->text, ts->len + len + 2);
    ck_assert_ptr_nonnull(t);
    ts->text = t;
    t[ts->len] = ts->len == 0 ? '[' : ',';
    ts->len++;
    memcpy(t + ts->len, line, len);
    ts->len += len;
    return 0;
}

/* Every record taken (a new array), of every room: the tests that read
 * records keep to one room. */
static json_t *ts_records(const struct tstore *ts)
{
    json_error_t err;
    char *t = malloc(ts->len + 3);
    ck_assert_ptr_nonnull(t);
    memcpy(t, ts->len ? ts->text : "[", ts->len ? ts->len : 1);
    size_t n = ts->len ? ts->len : 1;
    t[n++] = ']';
    json_t *recs = json_loadb(t, n, 0, &err);
    free(t);
    ck_assert_msg(json_is_array(recs), "the records do not parse: %s", err.text);
    return recs;
}

static int ts_read(void *ctx, const char *code, json_t **ret_records)
{
    *ret_records = ts_records(ctx);
    return 0;
}

static void ts_forget(void *ctx, const char *code)
{
}

static void store_attach(struct lobby *l)
{
    struct lobby_store ops = {ts_append, ts_forget, ts_read, NULL, &store};

    free(store.text);
    memset(&store, 0, sizeof(store));
    store.attached = true;
    journal_seq = 0;
    lobby_set_store(l, &ops);
}

static void store_fini(void)
{
    store.attached = false;
    journal_seq = 0;
    free(store.text);
    store.text = NULL;
    store.len = 0;
}

/* Everything each peer holds, to compare before and after a refusal. */
struct snapshot {
    size_t msgs[5];
    size_t records;
};

static void snap(struct snapshot *sn)
{
    for (int i = 0; i < 5; i++) {
        sn->msgs[i] = json_array_size(peers[i].msgs);
    }
    sn->records = store.records;
}

static void assert_unchanged(const struct snapshot *sn)
{
    for (int i = 0; i < 5; i++) {
        ck_assert_uint_eq(json_array_size(peers[i].msgs), sn->msgs[i]);
        ck_assert(!peers[i].closed);
    }
    ck_assert_uint_eq(store.records, sn->records);
}

/* A two-player game whose journal is durable up to now. */
static void journaled_game(void)
{
    store_attach(lobby);
    two_player_game();
    lobby_durable(lobby, store.seq);
    track(&peers[0]);
    track(&peers[1]);
}

START_TEST(act_refused_when_the_journal_fails)
{
    struct snapshot sn;
    char msg[GAME_MSG_MAX] = "";

    journaled_game();
    snap(&sn);
    store.fail_next = 1;
    ck_assert_int_eq(call_act(&peers[0], 2, -1), PROTO_ERR_INTERNAL);
    lobby_durable(lobby, store.seq);
    /* Nothing acknowledged, nothing sent, nothing journaled. */
    assert_unchanged(&sn);
    /* The room is where it was: the same seat plays the same move. */
    ck_assert_int_eq(run_op(lobby_sync, ROOM, &peers[1].peer, NULL, msg), PROTO_OK);
    lobby_durable(lobby, store.seq);
    track(&peers[1]);
    ck_assert_int_eq(peers[1].rev, peers[0].rev);
    ck_assert_int_eq(call_act(&peers[0], 2, peers[0].rev), PROTO_OK);
    lobby_durable(lobby, store.seq);
    track(&peers[0]);
    track(&peers[1]);
    ck_assert_int_eq(json_integer_value(json_object_get(peers[1].view, "total")), 2);
    ck_assert_uint_eq(store.records, sn.records + 1);
    store_fini();
}
END_TEST

/* Allocation N of an action fails, for N = 0, 1, 2, ...: before the commit
 * the action would be refused with nothing changed; after it, the action stands
 * (journaled once) and a seat that could not be sent its diff is closed, so
 * that it resumes to the full view. */
START_TEST(act_under_allocation_failures)
{
    json_t *req = json_pack("{s:{s:s, s:i}}", "action", "type", "add", "n", 1);
    int turn = 0, accepted = 0, refused = 0, closed = 0;

    journaled_game();
    failalloc_install();
    for (long budget = 0; accepted < 8 && budget < 1000; budget++) {
        struct snapshot sn;
        char msg[GAME_MSG_MAX] = "";
        long rev = peers[turn].rev;
        snap(&sn);
        failalloc_budget(budget);
        int rc = run_op(lobby_act, PLAYING | LOBBY_NEED_TURN, &peers[turn].peer, req, msg);
        failalloc_budget(-1);
        lobby_durable(lobby, store.seq);
        if (rc != PROTO_OK) {
            ck_assert_int_eq(rc, PROTO_ERR_INTERNAL);
            assert_unchanged(&sn);
            refused++;
            continue;
        }
        ck_assert_uint_eq(store.records, sn.records + 1);
        for (int i = 0; i < 2; i++) {
            if (peers[i].closed) {
                closed++;
                peers[i].closed = false;
                ck_assert_int_eq(run_op(lobby_sync, ROOM, &peers[i].peer, NULL, msg), PROTO_OK);
                lobby_durable(lobby, store.seq);
            }
            track(&peers[i]);
            ck_assert_int_eq(peers[i].rev, rev + 1);
        }
        ck_assert_int_eq(json_integer_value(json_object_get(peers[0].view, "total")), accepted + 1);
        turn ^= 1;
        accepted++;
    }
    failalloc_remove();
    ck_assert_int_eq(accepted, 8);
    /* Nothing before the commit allocates through jansson (the action is
     * tried on the flat state, its record written as text; the record is
     * not kept in memory), so no such failure refuses an action: each one
     * lands after the commit, where the action stands. */
    ck_assert_int_eq(refused, 0);
    ck_assert_int_gt(closed, 0);
    json_decref(req);
    store_fini();
}
END_TEST

/* Runs `op` with request id `id` (its reply then carries "re"). */
static int run_op_id(lobby_op_fn op, unsigned need, struct tpeer *t, json_t *args, int id)
{
    char msg[GAME_MSG_MAX] = "";
    json_t *jid = json_integer(id);
    struct lobby_req rq = {args, jid, clock_ms, msg};
    int rc = lobby_check(&t->peer, need, msg);

    if (rc == PROTO_OK) {
        rc = op(lobby, &t->peer, &rq);
    }
    json_decref(jid);
    json_decref(args);
    return rc;
}

/* The "re" of every reply `t` holds, in the order received. */
static void replies_in_order(struct tpeer *t, const int *want, size_t n)
{
    size_t i, k = 0;
    json_t *m;

    json_array_foreach(t->msgs, i, m) {
        json_t *re = json_object_get(m, "re");
        if (!re) {
            continue;
        }
        ck_assert_uint_lt(k, n);
        ck_assert_int_eq(json_integer_value(re), want[k]);
        k++;
    }
    ck_assert_uint_eq(k, n);
}

START_TEST(replies_keep_request_order_across_rooms)
{
    static const int want[] = {1, 2, 3};

    store_attach(lobby);
    two_player_game();
    json_array_clear(peers[0].msgs);
    /* act (its reply waits for the journal), then leave (no journal for
     * a started game's reply), then a line of the session's own. */
    ck_assert_int_eq(run_op_id(lobby_act, PLAYING | LOBBY_NEED_TURN, &peers[0],
                               json_pack("{s:{s:s, s:i}}", "action", "type", "add", "n", 1), 1),
                     PROTO_OK);
    ck_assert_int_eq(run_op_id(lobby_leave, ROOM, &peers[0], json_object(), 2), PROTO_OK);
    lobby_peer_send(&peers[0].peer, "{\"re\":3,\"ok\":true}\n", 19);
    /* Nothing overtakes the act's reply, and nothing is dropped. */
    replies_in_order(&peers[0], want, 0);
    lobby_durable(lobby, store.seq);
    replies_in_order(&peers[0], want, 3);
    ck_assert(!peers[0].closed);
    store_fini();
}
END_TEST

START_TEST(a_failing_journal_holds_its_room_only)
{
    store_attach(lobby);
    const char *code = two_player_game();
    char a[8];
    snprintf(a, sizeof(a), "%s", code);
    /* A second room, of two other players. */
    ck_assert_int_eq(call_create(&peers[2], 2, NULL), PROTO_OK);
    ck_assert_int_eq(call_join(&peers[3], room_code(&peers[2]), -1), PROTO_OK);
    ck_assert_int_eq(call_start(&peers[2], false), PROTO_OK);
    track(&peers[2]);
    lobby_journal_failing(lobby, a, true);
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_ERR_SERVER_BUSY);
    size_t before = json_array_size(peers[2].msgs);
    ck_assert_int_eq(call_act(&peers[2], 1, -1), PROTO_OK);
    lobby_durable(lobby, store.seq);
    ck_assert_uint_gt(json_array_size(peers[2].msgs), before);
    /* Lines of the failing room wait, whatever is durable... */
    lobby_journal_failing(lobby, a, false);
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    lobby_journal_failing(lobby, a, true);
    before = json_array_size(peers[0].msgs);
    lobby_durable(lobby, store.seq);
    ck_assert_uint_eq(json_array_size(peers[0].msgs), before);
    /* ... until its journal is written again. */
    lobby_journal_failing(lobby, a, false);
    ck_assert_uint_gt(json_array_size(peers[0].msgs), before);
    track(&peers[0]);
    store_fini();
}
END_TEST

START_TEST(rooms_per_connection_and_address_are_bounded)
{
    /* A lobby everyone left is dropped at once, so it stops counting. */
    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    ck_assert_int_eq(lobby_room_count(lobby), 2);
    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_ERR_SERVER_BUSY);
    (void)lobby_run_due(lobby, clock_ms);
    ck_assert_int_eq(lobby_room_count(lobby), 1);
    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    (void)lobby_run_due(lobby, clock_ms);
    ck_assert_int_eq(lobby_room_count(lobby), 1);
    /* Three connections of one address hold its three rooms. */
    for (int i = 1; i < 5; i++) {
        snprintf(peers[i].peer.addr, sizeof(peers[i].peer.addr), "192.0.2.7");
    }
    ck_assert_int_eq(call_create(&peers[1], 2, NULL), PROTO_OK);
    ck_assert_int_eq(call_create(&peers[2], 2, NULL), PROTO_OK);
    ck_assert_int_eq(call_create(&peers[3], 2, NULL), PROTO_OK);
    ck_assert_int_eq(call_create(&peers[4], 2, NULL), PROTO_ERR_SERVER_BUSY);
}
END_TEST

START_TEST(room_over_its_backlog_refuses_actions)
{
    struct lobby_config small = cfg;

    lobby_free(lobby);
    small.outbox_max = 600;
    lobby = lobby_new(&small);
    store_attach(lobby);
    two_player_game();
    /* The disk stops: records are taken but never become durable. */
    int rc = PROTO_OK;
    int accepted = 0;
    for (int i = 0; i < 20 && rc == PROTO_OK; i++) {
        rc = call_act(&peers[i % 2], 1, -1);
        accepted += rc == PROTO_OK;
    }
    ck_assert_int_eq(rc, PROTO_ERR_SERVER_BUSY);
    ck_assert_int_ge(accepted, 1);
    size_t records = store.records;
    ck_assert_int_eq(call_act(&peers[accepted % 2], 1, -1), PROTO_ERR_SERVER_BUSY);
    ck_assert_uint_eq(store.records, records);
    /* Once the records are durable the room plays on. */
    lobby_durable(lobby, store.seq);
    track(&peers[0]);
    track(&peers[1]);
    ck_assert_int_eq(call_act(&peers[accepted % 2], 1, -1), PROTO_OK);
    store_fini();
}
END_TEST

START_TEST(spectators_are_capped)
{
    struct lobby_config small = cfg;
    char msg[GAME_MSG_MAX] = "";

    lobby_free(lobby);
    small.max_spectators = 1;
    lobby = lobby_new(&small);
    const char *code = two_player_game();
    json_t *req = json_pack("{s:s}", "room", code);
    ck_assert_int_eq(run_op(lobby_spectate, 0, &peers[2].peer, req, msg), PROTO_OK);
    ck_assert_int_eq(run_op(lobby_spectate, 0, &peers[3].peer, req, msg), PROTO_ERR_ROOM_FULL);
    /* Asking again from the place one already has is not a second place. */
    ck_assert_int_eq(run_op(lobby_spectate, 0, &peers[2].peer, req, msg), PROTO_OK);
    json_decref(req);
}
END_TEST

START_TEST(legal_is_the_same_until_the_rev_moves)
{
    char msg[GAME_MSG_MAX] = "";

    two_player_game();
    ck_assert_int_eq(run_op(lobby_legal, PLAYING, &peers[0].peer, NULL, msg), PROTO_OK);
    json_t *first = json_deep_copy(last_reply(&peers[0]));
    ck_assert_int_eq(run_op(lobby_legal, PLAYING, &peers[0].peer, NULL, msg), PROTO_OK);
    ck_assert(json_equal(first, last_reply(&peers[0])));
    ck_assert_uint_eq(json_array_size(json_object_get(first, "actions")), 2);
    /* The other seat may do nothing now; after the move it may. */
    ck_assert_int_eq(run_op(lobby_legal, PLAYING, &peers[1].peer, NULL, msg), PROTO_OK);
    ck_assert_uint_eq(json_array_size(json_object_get(last_reply(&peers[1]), "actions")), 0);
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    ck_assert_int_eq(run_op(lobby_legal, PLAYING, &peers[1].peer, NULL, msg), PROTO_OK);
    ck_assert_uint_eq(json_array_size(json_object_get(last_reply(&peers[1]), "actions")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(last_reply(&peers[1]), "rev")),
                     json_integer_value(json_object_get(first, "rev")) + 1);
    /* A spectator or a seat before the start is told why not. */
    ck_assert_int_eq(run_op(lobby_legal, PLAYING, &peers[4].peer, NULL, msg),
                     PROTO_ERR_NOT_IN_ROOM);
    json_decref(first);
}
END_TEST

START_TEST(act_out_of_turn_or_after_the_end)
{
    two_player_game();
    ck_assert_int_eq(call_act(&peers[1], 1, -1), PROTO_ERR_NOT_YOUR_TURN);
    for (int i = 0; i < 20; i++) {
        if (call_act(&peers[i % 2], 2, -1) != PROTO_OK) {
            break;
        }
    }
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_ERR_GAME_OVER);
    ck_assert_int_eq(call_act(&peers[1], 1, -1), PROTO_ERR_GAME_OVER);
}
END_TEST

/* ---- Bot levels, and searches away from the lobby ---- */

static int call_start_with(struct tpeer *t, json_t *bots)
{
    char msg[GAME_MSG_MAX] = "";
    json_t *req = json_pack("{s:o}", "bots", bots);
    int rc = run_op(lobby_start, ROOM, &t->peer, req, msg);
    json_decref(req);
    settle();
    return rc;
}

/* The last `room` event of `t`. Borrowed. */
static json_t *last_room_event(struct tpeer *t)
{
    for (size_t i = json_array_size(t->msgs); i > 0; i--) {
        json_t *m = json_array_get(t->msgs, i - 1);
        const char *ev = json_string_value(json_object_get(m, "ev"));
        if (ev && strcmp(ev, "room") == 0) {
            return m;
        }
    }
    return NULL;
}

static const char *seat_level(struct tpeer *t, int seat)
{
    json_t *seats = json_object_get(last_room_event(t), "seats");
    return json_string_value(json_object_get(json_array_get(seats, (size_t)seat), "level"));
}

START_TEST(bot_levels_per_seat)
{
    ck_assert_int_eq(call_create(&peers[0], 3, json_pack("{s:s}", "bot_level", "expert")),
                     PROTO_ERR_BAD_OPTION);
    ck_assert_int_eq(call_create(&peers[0], 3, json_pack("{s:i}", "bot_level", 2)),
                     PROTO_ERR_BAD_OPTION);
    ck_assert_int_eq(call_create(&peers[0], 3, json_pack("{s:s}", "bot_level", "easy")), PROTO_OK);
    /* Refused starts change nothing: the room stays a lobby. */
    ck_assert_int_eq(call_start_with(&peers[0], json_pack("[s]", "hard")), PROTO_ERR_BAD_REQUEST);
    ck_assert_int_eq(call_start_with(&peers[0], json_pack("[s,n,n]", "easy")),
                     PROTO_ERR_BAD_REQUEST);
    ck_assert_int_eq(call_start_with(&peers[0], json_pack("[n,s,n]", "expert")),
                     PROTO_ERR_BAD_REQUEST);
    ck_assert_int_eq(call_start_with(&peers[0], json_string("expert")), PROTO_ERR_BAD_REQUEST);
    ck_assert_int_eq(call_start_with(&peers[0], json_integer(3)), PROTO_ERR_BAD_REQUEST);
    ck_assert_int_eq(call_start_with(&peers[0], json_pack("[n,s,n]", "hard")),
                     PROTO_ERR_NOT_ENOUGH_PLAYERS);
    ck_assert_str_eq(json_string_value(json_object_get(last_room_event(&peers[0]), "status")),
                     "lobby");
    ck_assert_int_eq(call_start_with(&peers[0], json_pack("[n,s,s]", "hard", "random")), PROTO_OK);
    ck_assert_ptr_null(seat_level(&peers[0], 0));
    ck_assert_str_eq(seat_level(&peers[0], 1), "hard");
    ck_assert_str_eq(seat_level(&peers[0], 2), "random");

    /* `true` fills empty seats at the room's level; a player who leaves a
     * running game is kept by a bot at that level too. */
    ck_assert_int_eq(call_create(&peers[1], 3, json_pack("{s:s}", "bot_level", "easy")), PROTO_OK);
    ck_assert_int_eq(call_join(&peers[2], room_code(&peers[1]), 1), PROTO_OK);
    ck_assert_int_eq(call_start(&peers[1], true), PROTO_OK);
    ck_assert_str_eq(seat_level(&peers[1], 2), "easy");
    char msg[GAME_MSG_MAX];
    ck_assert_int_eq(run_op(lobby_leave, ROOM, &peers[2].peer, NULL, msg), PROTO_OK);
    ck_assert_str_eq(seat_level(&peers[1], 1), "easy");
}
END_TEST

static struct bot_job *held[8];
static int nheld;

/* A `think` that keeps the job, as the thread pool would while it runs. */
static void hold_job(void *ctx, struct bot_job *job)
{
    (void)ctx;
    ck_assert_int_lt(nheld, 8);
    held[nheld++] = job;
}

/* Makes the held job's decision, as the pool's thread would. */
static void think_now(struct bot_job *job)
{
    job->action = bot_decide(&job->ask, &job->stats);
    ck_assert_ptr_nonnull(job->action);
}

/* A two-seat game of peers[0] against a bot whose search is held. */
static void bot_thinking_game(void)
{
    nheld = 0;
    lobby_set_bots(lobby, &(const struct lobby_bots){.think = hold_job});
    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    ck_assert_int_eq(call_start(&peers[0], true), PROTO_OK);
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    (void)lobby_run_due(lobby, clock_ms);
    ck_assert_int_eq(nheld, 1);
}

START_TEST(bot_answers_for_an_old_rev_are_dropped)
{
    bot_thinking_game();
    ck_assert_int_eq(held[0]->ask.seat, 1);
    /* One search per room at a time. */
    clock_ms += 10;
    (void)lobby_run_due(lobby, clock_ms);
    ck_assert_int_eq(nheld, 1);

    /* An answer for another rev is not played, and the bot thinks again. */
    track(&peers[0]);
    long rev = peers[0].rev;
    int diffs = count_ev(&peers[0], "diff");
    think_now(held[0]);
    held[0]->rev--;
    lobby_bot_done(lobby, held[0], clock_ms);
    ck_assert_int_eq(count_ev(&peers[0], "diff"), diffs);
    clock_ms += 10;
    (void)lobby_run_due(lobby, clock_ms);
    ck_assert_int_eq(nheld, 2);

    /* The fresh answer is played: one diff, and seat 0 is to move. */
    think_now(held[1]);
    lobby_bot_done(lobby, held[1], clock_ms);
    ck_assert_int_eq(count_ev(&peers[0], "diff"), diffs + 1);
    track(&peers[0]);
    ck_assert_int_eq(peers[0].rev, rev + 1);
    ck_assert_int_eq(
        json_integer_value(json_array_get(json_object_get(peers[0].view, "active"), 0)), 0);
}
END_TEST

START_TEST(bot_answers_for_a_dropped_room_are_dropped)
{
    char msg[GAME_MSG_MAX];

    bot_thinking_game();
    /* Nobody is left: the room is dropped as abandoned while the bot
     * thinks; the search is asked to stop, and its answer goes nowhere. */
    ck_assert_int_eq(run_op(lobby_leave, ROOM, &peers[0].peer, NULL, msg), PROTO_OK);
    clock_ms += cfg.abandoned_ttl_ms + 1;
    (void)lobby_run_due(lobby, clock_ms);
    ck_assert_uint_eq(lobby_room_count(lobby), 0);
    ck_assert_int_eq(atomic_load(&held[0]->stop), 1);
    think_now(held[0]);
    lobby_bot_done(lobby, held[0], clock_ms);
    ck_assert_uint_eq(lobby_room_count(lobby), 0);
}
END_TEST

/* ---- Events: every room change is a record that replays ---- */

/* What a newcomer sees of room `code` in lobby `l`: the spectator's view
 * and rev (or the room event before the start), as one JSON value (new
 * reference). */
static json_t *seen_by_spectator(struct lobby *l, const char *code)
{
    struct lobby *saved = lobby;
    struct tpeer t = {0};
    char msg[GAME_MSG_MAX];

    t.peer.id = 99;
    t.peer.seat = -1;
    t.peer.send = tp_send;
    t.peer.close = tp_close;
    snprintf(t.peer.name, sizeof(t.peer.name), "Watcher");
    t.msgs = json_array();
    lobby = l;
    json_t *req = json_pack("{s:s}", "room", code);
    ck_assert_int_eq(run_op(lobby_spectate, 0, &t.peer, req, msg), PROTO_OK);
    json_decref(req);
    lobby_durable(l, UINT64_MAX);
    json_t *room = json_deep_copy(last_room_event(&t));
    json_object_del(room, "spectators");
    size_t i;
    json_t *seat;
    json_array_foreach(json_object_get(room, "seats"), i, seat) {
        json_object_del(seat, "connected"); /* who is here is no part of the record */
    }
    track(&t);
    json_t *seen = json_pack("{s:o, s:O*, s:i}", "room", room, "view", t.view, "rev", t.rev);
    lobby_peer_gone(l, &t.peer, clock_ms);
    lobby = saved;
    json_decref(t.msgs);
    json_decref(t.view);
    return seen;
}

/* Restores `records` into a new lobby (returned) and checks it took them. */
static struct lobby *restored(const json_t *records)
{
    struct lobby *l = lobby_new(&cfg);
    char err[GAME_MSG_MAX] = "";

    ck_assert_msg(lobby_restore(l, records, clock_ms, 0, err) == 0, "restore: %s", err);
    return l;
}

/* Plays the room of peers[0] until its game ends: the humans seated add
 * 1 when it is their turn, the bots move when due. */
static void play_to_the_end(void)
{
    for (int guard = 0; guard < 200 && count_ev(&peers[0], "ended") == 0; guard++) {
        track(&peers[0]);
        for (int p = 0; p < 5; p++) {
            struct lobby_peer *lp = &peers[p].peer;
            if (lp->room && !lp->spectator && lp->seat >= 0 &&
                lobby_check(lp, PLAYING | LOBBY_NEED_TURN, (char[GAME_MSG_MAX]){0}) == PROTO_OK) {
                ck_assert_int_eq(call_act(&peers[p], 1, -1), PROTO_OK);
            }
        }
        settle();
        clock_ms += 10;
        (void)lobby_run_due(lobby, clock_ms);
        settle();
    }
    ck_assert_int_eq(count_ev(&peers[0], "ended"), 1);
}

START_TEST(every_event_replays_to_the_same_room)
{
    char msg[GAME_MSG_MAX];
    store_attach(lobby);

    /* create, seat (join), leave (in the lobby), seat again, a seat whose
     * player has gone, start with a bot keeping that seat and one filling
     * an empty seat, act, leave (in the game: a bot keeps it), seat (a
     * resume hands it back), the end. */
    ck_assert_int_eq(call_create(&peers[0], 4, NULL), PROTO_OK);
    char code[8];
    snprintf(code, sizeof(code), "%s", room_code(&peers[0]));
    ck_assert_int_eq(call_join(&peers[1], code, -1), PROTO_OK);
    char token1[64];
    snprintf(token1, sizeof(token1), "%s",
             json_string_value(json_object_get(last_reply(&peers[1]), "token")));
    ck_assert_int_eq(call_join(&peers[2], code, -1), PROTO_OK);
    ck_assert_int_eq(run_op(lobby_leave, ROOM, &peers[2].peer, NULL, msg), PROTO_OK);
    ck_assert_int_eq(call_join(&peers[2], code, -1), PROTO_OK);
    lobby_peer_gone(lobby, &peers[1].peer, clock_ms);
    ck_assert_int_eq(call_start(&peers[0], true), PROTO_OK);
    json_t *room = last_room_event(&peers[0]);
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_array_get(json_object_get(room, "seats"), 1), "name")),
                     "P1");
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_array_get(json_object_get(room, "seats"), 1), "kind")),
                     "bot");
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    ck_assert_int_eq(run_op(lobby_leave, ROOM, &peers[2].peer, NULL, msg), PROTO_OK);
    json_t *req = json_pack("{s:s}", "token", token1);
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[3].peer, req, msg), PROTO_OK);
    json_decref(req);
    settle();

    /* Midway and at the end, a room rebuilt from the records is the
     * room: the same seats, host, status, rev and view. */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            play_to_the_end();
        }
        json_t *records = ts_records(&store);
        struct lobby *again = restored(records);
        json_decref(records);
        json_t *want = seen_by_spectator(lobby, code);
        json_t *got = seen_by_spectator(again, code);
        char *w = json_dumps(want, JSON_SORT_KEYS), *g = json_dumps(got, JSON_SORT_KEYS);
        ck_assert_msg(json_equal(want, got), "restored room differs:\n%s\n%s", w, g);
        free(w);
        free(g);
        json_decref(want);
        json_decref(got);
        lobby_free(again);
    }
    /* Every kind of record the room wrote was one of the events. */
    json_t *all = ts_records(&store);
    const char *kinds[] = {"create", "seat", "leave", "start", "act", "end"};
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        bool seen = false;
        size_t i;
        json_t *r;
        json_array_foreach(all, i, r) {
            seen |= strcmp(json_string_value(json_object_get(r, "t")), kinds[k]) == 0;
        }
        ck_assert_msg(seen, "no %s record", kinds[k]);
    }
    json_decref(all);
    store_fini();
}
END_TEST

START_TEST(journals_of_the_older_records_replay)
{
    /* Before leave and start's bots were events of their own, a room
     * wrote a seat record for each bot and for each leave, and a host
     * record after it. */
    json_error_t jerr;
    const char *seed = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    char text[2048];
    snprintf(text, sizeof(text),
             "[{\"t\":\"create\",\"room\":\"K7QF2M\",\"game\":\"fake\",\"options\":{},"
             "\"public\":false,\"seats\":3,\"seed\":\"%s\"},"
             "{\"t\":\"seat\",\"seat\":0,\"kind\":\"human\",\"name\":\"Ann\"},"
             "{\"t\":\"host\",\"seat\":0},"
             "{\"t\":\"seat\",\"seat\":1,\"kind\":\"human\",\"name\":\"Bo\"},"
             "{\"t\":\"seat\",\"seat\":0,\"kind\":\"empty\",\"name\":\"\"},"
             "{\"t\":\"host\",\"seat\":1},"
             "{\"t\":\"seat\",\"seat\":0,\"kind\":\"bot\",\"name\":\"Bot 1\"},"
             "{\"t\":\"seat\",\"seat\":2,\"kind\":\"bot\",\"name\":\"Bot 2\","
             "\"level\":\"random\"},"
             "{\"t\":\"start\"},"
             "{\"action\":{\"n\":1,\"type\":\"add\"},\"seat\":0,\"t\":\"act\"}]",
             seed);
    json_t *records = json_loads(text, 0, &jerr);
    ck_assert_ptr_nonnull(records);
    struct lobby *l = restored(records);
    json_t *seen = seen_by_spectator(l, "K7QF2M");
    json_t *room = json_object_get(seen, "room");
    ck_assert_int_eq(json_integer_value(json_object_get(room, "host")), 1);
    ck_assert_str_eq(json_string_value(json_object_get(room, "status")), "playing");
    ck_assert_int_eq(json_integer_value(json_object_get(seen, "rev")), 2);
    const char *names[] = {"Bot 1", "Bo", "Bot 2"}, *kinds[] = {"bot", "human", "bot"};
    for (int i = 0; i < 3; i++) {
        json_t *s = json_array_get(json_object_get(room, "seats"), (size_t)i);
        ck_assert_str_eq(json_string_value(json_object_get(s, "name")), names[i]);
        ck_assert_str_eq(json_string_value(json_object_get(s, "kind")), kinds[i]);
    }
    json_decref(seen);
    lobby_free(l);
    /* A record the events do not know is refused, naming it. */
    json_array_append_new(records, json_pack("{s:s}", "t", "teleport"));
    l = lobby_new(&cfg);
    char err[GAME_MSG_MAX] = "";
    ck_assert_int_eq(lobby_restore(l, records, clock_ms, 0, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "teleport"));
    ck_assert_int_eq(lobby_room_count(l), 0);
    lobby_free(l);
    json_decref(records);
}
END_TEST

START_TEST(a_record_not_taken_changes_nothing)
{
    char msg[GAME_MSG_MAX];
    struct snapshot sn;
    store_attach(lobby);

    /* create */
    store.fail_next = 1;
    snap(&sn);
    ck_assert_int_eq(call_create(&peers[0], 3, NULL), PROTO_ERR_INTERNAL);
    ck_assert_int_eq(lobby_room_count(lobby), 0);
    ck_assert_int_eq(call_create(&peers[0], 3, NULL), PROTO_OK);
    char code[8];
    snprintf(code, sizeof(code), "%s", room_code(&peers[0]));
    /* seat: the join is refused, nobody is told, the seat stays free */
    store.fail_next = 1;
    track(&peers[0]);
    snap(&sn);
    ck_assert_int_eq(call_join(&peers[1], code, -1), PROTO_ERR_INTERNAL);
    ck_assert_uint_eq(json_array_size(peers[0].msgs), sn.msgs[0]);
    ck_assert_int_eq(call_join(&peers[1], code, -1), PROTO_OK);
    ck_assert_int_eq(json_integer_value(json_object_get(last_reply(&peers[1]), "seat")), 1);
    /* start: still a lobby, with no bot in it */
    store.fail_next = 1;
    ck_assert_int_eq(call_start(&peers[0], true), PROTO_ERR_INTERNAL);
    json_t *room = last_room_event(&peers[0]);
    ck_assert_str_eq(json_string_value(json_object_get(room, "status")), "lobby");
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_array_get(json_object_get(room, "seats"), 2), "kind")),
                     "empty");
    /* leave in the lobby: the seat waits for its player, as after a lost
     * connection */
    store.fail_next = 1;
    ck_assert_int_eq(run_op(lobby_leave, ROOM, &peers[1].peer, NULL, msg), PROTO_OK);
    room = last_room_event(&peers[0]);
    json_t *seat1 = json_array_get(json_object_get(room, "seats"), 1);
    ck_assert_str_eq(json_string_value(json_object_get(seat1, "kind")), "human");
    ck_assert(!json_is_true(json_object_get(seat1, "connected")));
    store_fini();
}
END_TEST

START_TEST(the_resume_window_is_bounded_in_bytes)
{
    char msg[GAME_MSG_MAX];
    struct lobby *saved = lobby;
    struct lobby_config small = cfg;

    /* A window of 1 KiB for two seats: about three of this game's diffs
     * each. */
    small.resume_bytes = 1024;
    lobby = lobby_new(&small);
    two_player_game();
    const char *token = NULL; /* join's reply */
    size_t k;
    json_t *m;
    json_array_foreach(peers[1].msgs, k, m) {
        if (!token) {
            token = json_string_value(json_object_get(m, "token"));
        }
    }
    ck_assert_ptr_nonnull(token);
    char tok[64];
    snprintf(tok, sizeof(tok), "%s", token);
    for (int i = 0; i < 8; i++) {
        ck_assert_int_eq(call_act(&peers[i % 2], 1, -1), PROTO_OK);
        track(&peers[0]);
        track(&peers[1]);
    }
    long rev = peers[1].rev;
    /* From one rev back: the diff. */
    json_t *req = json_pack("{s:s, s:I}", "token", tok, "rev", (json_int_t)(rev - 1));
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[2].peer, req, msg), PROTO_OK);
    json_decref(req);
    ck_assert_int_eq(count_ev(&peers[2], "diff"), 1);
    ck_assert_int_eq(count_ev(&peers[2], "state"), 0);
    /* From two back: this game's view is so small that its state line
     * takes fewer bytes than two of its diffs, so the diffs are not kept
     * beyond the newest and the resume gets the whole view. */
    size_t diffs = 0, state = 0;
    json_array_foreach(peers[1].msgs, k, m) {
        const char *ev = json_string_value(json_object_get(m, "ev"));
        char *line = json_dumps(m, JSON_COMPACT);
        if (ev && strcmp(ev, "diff") == 0 &&
            json_integer_value(json_object_get(m, "rev")) >= rev - 1) {
            diffs += strlen(line);
        } else if (ev && strcmp(ev, "state") == 0) {
            state = strlen(line);
        }
        free(line);
    }
    ck_assert_uint_gt(state, 0);
    ck_assert_uint_gt(diffs, state);
    req = json_pack("{s:s, s:I}", "token", tok, "rev", (json_int_t)(rev - 2));
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[4].peer, req, msg), PROTO_OK);
    json_decref(req);
    ck_assert_int_eq(count_ev(&peers[4], "diff"), 0);
    ck_assert_int_eq(count_ev(&peers[4], "state"), 1);
    /* From further back than the window holds: the whole view. */
    req = json_pack("{s:s, s:I}", "token", tok, "rev", (json_int_t)(rev - 7));
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[3].peer, req, msg), PROTO_OK);
    json_decref(req);
    ck_assert_int_eq(count_ev(&peers[3], "diff"), 0);
    ck_assert_int_eq(count_ev(&peers[3], "state"), 1);
    lobby_free(lobby);
    lobby = saved;
}
END_TEST

/* The first token among `t`'s replies. */
static void first_token(struct tpeer *t, char out[64])
{
    size_t k;
    json_t *m;

    out[0] = '\0';
    json_array_foreach(t->msgs, k, m) {
        const char *tok = json_string_value(json_object_get(m, "token"));
        if (tok && !out[0]) {
            snprintf(out, 64, "%s", tok);
        }
    }
    ck_assert(out[0]);
}

/* Runs a test on a lobby of its own made from `c`, with the test
 * journal; returns the lobby it stands in for, for own_lobby_end(). */
static struct lobby *own_lobby(const struct lobby_config *c)
{
    struct lobby *saved = lobby;

    lobby = lobby_new(c);
    store_attach(lobby);
    return saved;
}

static void own_lobby_end(struct lobby *saved)
{
    lobby_free(lobby);
    lobby = saved;
    store_fini();
}

/* A lobby of its own whose rooms sleep a second after everyone left. */
static struct lobby *own_sleepy_lobby(void)
{
    struct lobby_config c = cfg;

    c.sleep_after_ms = 1000;
    return own_lobby(&c);
}

START_TEST(rooms_sleep_on_disk_and_wake_the_same)
{
    char msg[GAME_MSG_MAX], tok0[64];
    struct lobby_stats ls;

    struct lobby *saved = own_sleepy_lobby();
    const char *code = two_player_game();
    char room[8];
    snprintf(room, sizeof(room), "%s", code);
    first_token(&peers[0], tok0);
    ck_assert_int_eq(call_act(&peers[0], 2, -1), PROTO_OK);
    settle();
    track(&peers[0]);
    json_t *view = json_deep_copy(peers[0].view);
    long rev = peers[0].rev;

    /* Everyone goes; a second later the room sleeps. */
    lobby_peer_gone(lobby, &peers[0].peer, clock_ms);
    lobby_peer_gone(lobby, &peers[1].peer, clock_ms);
    (void)lobby_run_due(lobby, clock_ms + 999);
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.sleeping, 0);
    ck_assert_uint_le(lobby_next_due(lobby), clock_ms + 1000);
    clock_ms += 1000;
    (void)lobby_run_due(lobby, clock_ms);
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.sleeping, 1);
    ck_assert_uint_eq(ls.rooms[0][ROOM_PLAYING], 1); /* still counted */
    ck_assert(lobby_holds(lobby, room));
    char codes[2][PROTO_ROOM_CODE_LEN + 1];
    ck_assert_uint_eq(lobby_room_codes(lobby, codes, 2), 1);
    ck_assert_str_eq(codes[0], room);

    /* Its token wakes it: the same rev and view, and the game goes on. */
    json_t *req = json_pack("{s:s}", "token", tok0);
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[2].peer, req, msg), PROTO_OK);
    json_decref(req);
    settle();
    track(&peers[2]);
    ck_assert_int_eq(peers[2].rev, rev);
    ck_assert(json_equal(peers[2].view, view));
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.sleeping, 0);
    ck_assert_uint_eq(ls.woken, 1);
    /* Seat 0 moved last: the turn is seat 1's, as before the sleep. */
    ck_assert_int_eq(call_act(&peers[2], 1, -1), PROTO_ERR_NOT_YOUR_TURN);

    /* A spectator wakes it too; a sleeping finished game keeps its record
     * until --ended-ttl, then goes with its journal. */
    lobby_peer_gone(lobby, &peers[2].peer, clock_ms);
    clock_ms += 1000;
    (void)lobby_run_due(lobby, clock_ms);
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.sleeping, 1);
    req = json_pack("{s:s}", "room", room);
    ck_assert_int_eq(run_op(lobby_spectate, 0, &peers[3].peer, req, msg), PROTO_OK);
    json_decref(req);
    settle();
    track(&peers[3]);
    ck_assert_int_ge(peers[3].rev, rev);
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.sleeping, 0);
    lobby_peer_gone(lobby, &peers[3].peer, clock_ms);
    json_decref(view);
    own_lobby_end(saved);
}
END_TEST

/* ---- Clocks ---- */

static unsigned both_go_and_wait(uint64_t ms);

/* two_player_game() with room option "clock" (stolen). */
static const char *clocked_game(json_t *clock)
{
    static char code[8];

    ck_assert_int_eq(call_create(&peers[0], 2, json_pack("{s:o}", "clock", clock)), PROTO_OK);
    snprintf(code, sizeof(code), "%s", room_code(&peers[0]));
    ck_assert_int_eq(call_join(&peers[1], code, -1), PROTO_OK);
    ck_assert_int_eq(call_start(&peers[0], false), PROTO_OK);
    settle();
    track(&peers[0]);
    track(&peers[1]);
    return code;
}

/* The kind of seat `seat` in the last room event `t` got. */
static const char *seat_kind(struct tpeer *t, int seat)
{
    return json_string_value(json_object_get(
        json_array_get(json_object_get(last_room_event(t), "seats"), seat), "kind"));
}

/* Member `key` of seat `seat`'s clock in `t`'s view. */
static long long clock_of(struct tpeer *t, int seat, const char *key)
{
    json_t *s = json_array_get(json_object_get(json_object_get(t->view, "clock"), "seats"), seat);
    json_t *v = json_object_get(s, key);

    ck_assert_msg(v != NULL, "no clock %s for seat %d", key, seat);
    return json_is_boolean(v) ? json_is_true(v) : json_integer_value(v);
}

START_TEST(clock_options_are_checked)
{
    static const char *const bad[] = {
        "\"fischer\"",
        "{\"base\":60}",
        "{\"type\":\"hourglass\",\"base\":60}",
        "{\"type\":\"fischer\"}",
        "{\"type\":\"fischer\",\"base\":0}",
        "{\"type\":\"fischer\",\"base\":60,\"increment\":-1}",
        "{\"type\":\"fischer\",\"base\":60,\"delay\":3}",
        "{\"type\":\"bank\",\"bank\":60}",
        "{\"type\":\"correspondence\",\"per_move\":30}",
        "{\"type\":\"correspondence\",\"per_move\":99999999999}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        json_t *c = json_loads(bad[i], JSON_DECODE_ANY, NULL);
        ck_assert_ptr_nonnull(c);
        ck_assert_msg(call_create(&peers[0], 2, json_pack("{s:o}", "clock", c)) ==
                          PROTO_ERR_BAD_OPTION,
                      "clock %s accepted", bad[i]);
    }
    ck_assert_int_eq(lobby_room_count(lobby), 0);
    (void)clocked_game(json_pack("{s:s, s:i}", "type", "correspondence", "per_move", 86400));
    /* Correspondence without a bank: each move has its per_move. */
    ck_assert_int_eq(clock_of(&peers[0], 0, "left"), 86400000);
    ck_assert_int_eq(clock_of(&peers[0], 0, "running"), 1);
    ck_assert_int_eq(clock_of(&peers[0], 1, "running"), 0);
}
END_TEST

START_TEST(fischer_charges_the_mover_less_its_lag_and_adds_its_increment)
{
    (void)clocked_game(json_pack("{s:s, s:i, s:i}", "type", "fischer", "base", 60, "increment", 5));
    ck_assert_int_eq(clock_of(&peers[0], 0, "left"), 60000);
    clock_ms += 10000;
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    track(&peers[0]);
    /* 10 s, less 0.5 s of lag from the quota, plus the 5 s increment. */
    ck_assert_int_eq(clock_of(&peers[0], 0, "left"), 60000 - 9500 + 5000);
    ck_assert_int_eq(clock_of(&peers[0], 0, "running"), 0);
    ck_assert_int_eq(clock_of(&peers[0], 1, "running"), 1);
    ck_assert_int_eq(clock_of(&peers[0], 1, "left"), 60000);
    /* Seat 1's clock runs: the next due time is when it runs out. */
    ck_assert_uint_le(lobby_next_due(lobby), clock_ms + 60000);
}
END_TEST

START_TEST(a_bank_spends_a_turn_s_free_time_first)
{
    (void)clocked_game(json_pack("{s:s, s:i, s:i}", "type", "bank", "move", 30, "bank", 60));
    clock_ms += 40000;
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    track(&peers[0]);
    /* 40 s less 0.5 s of lag: 30 s free, 9.5 s from the bank. */
    ck_assert_int_eq(clock_of(&peers[0], 0, "left"), 60000 - 9500);
    ck_assert_int_eq(clock_of(&peers[0], 1, "free"), 30000);
}
END_TEST

START_TEST(a_seat_out_of_time_is_timed_out_and_a_bot_plays_it)
{
    char tok0[64];
    char msg[GAME_MSG_MAX];
    struct lobby *saved = own_lobby(&cfg);

    (void)clocked_game(json_pack("{s:s, s:i}", "type", "fischer", "base", 60));
    first_token(&peers[0], tok0);
    lobby_peer_gone(lobby, &peers[0].peer, clock_ms); /* its player is not there */
    size_t records = store.records;
    /* Nothing before the time is up. */
    clock_ms += 59999;
    (void)lobby_run_due(lobby, clock_ms);
    ck_assert_str_eq(seat_kind(&peers[1], 0), "human");
    ck_assert_uint_eq(store.records, records);
    clock_ms += 1;
    ck_assert_uint_le(lobby_next_due(lobby), clock_ms);
    (void)lobby_run_due(lobby, clock_ms);
    settle();
    (void)lobby_run_due(lobby, clock_ms); /* the bot's move */
    settle();
    track(&peers[1]);
    ck_assert_uint_ge(store.records, records + 1);
    ck_assert_str_eq(seat_kind(&peers[1], 0), "bot");
    ck_assert_int_eq(clock_of(&peers[1], 0, "left"), 0);
    ck_assert_int_eq(clock_of(&peers[1], 0, "flag"), 1);
    /* The bot moved for seat 0: seat 1's clock runs. */
    ck_assert_int_eq(clock_of(&peers[1], 1, "running"), 1);
    /* The player takes the seat back, without a clock. */
    json_t *req = json_pack("{s:s}", "token", tok0);
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[2].peer, req, msg), PROTO_OK);
    json_decref(req);
    settle();
    track(&peers[2]);
    ck_assert_int_eq(clock_of(&peers[2], 0, "flag"), 1);
    ck_assert_int_eq(clock_of(&peers[2], 0, "running"), 0);
    own_lobby_end(saved);
}
END_TEST

START_TEST(a_player_who_is_there_plays_on_untimed)
{
    struct lobby *saved = own_lobby(&cfg);

    (void)clocked_game(json_pack("{s:s, s:i}", "type", "fischer", "base", 60));
    clock_ms += 60000;
    (void)lobby_run_due(lobby, clock_ms);
    settle();
    track(&peers[0]);
    /* Out of time, but connected: the seat stays the player's. */
    ck_assert_str_eq(seat_kind(&peers[1], 0), "human");
    ck_assert_int_eq(clock_of(&peers[0], 0, "flag"), 1);
    ck_assert_int_eq(clock_of(&peers[0], 0, "running"), 0);
    clock_ms += 3600000;
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    track(&peers[0]);
    ck_assert_int_eq(clock_of(&peers[0], 0, "left"), 0);
    ck_assert_int_eq(clock_of(&peers[0], 1, "running"), 1);
    own_lobby_end(saved);
}
END_TEST

/* The last record of type `t` among the journal's. New reference. */
static json_t *last_record(const char *t)
{
    json_t *recs = ts_records(&store);
    json_t *found = NULL;

    for (size_t i = json_array_size(recs); !found && i > 0; i--) {
        json_t *r = json_array_get(recs, i - 1);
        if (strcmp(json_string_value(json_object_get(r, "t")), t) == 0) {
            found = json_incref(r);
        }
    }
    json_decref(recs);
    ck_assert_msg(found != NULL, "no %s record", t);
    return found;
}

/* A lobby restored from `records` (stolen; NULL: the journal's) shows
 * room `code` as this one does: the same clocks, the same view. */
static void replays_the_same(const char *code, json_t *records)
{
    json_t *live = seen_by_spectator(lobby, code);
    records = records ? records : ts_records(&store);
    struct lobby *l = restored(records);
    json_t *again = seen_by_spectator(l, code);

    ck_assert_msg(json_equal(live, again), "room %s differs after a replay", code);
    json_decref(live);
    json_decref(again);
    json_decref(records);
    lobby_free(l);
}

START_TEST(a_timeout_policy_is_checked_at_create)
{
    json_t *c = json_pack("{s:s, s:i, s:s}", "type", "fischer", "base", 60, "timeout", "never");
    ck_assert_int_eq(call_create(&peers[0], 2, json_pack("{s:o}", "clock", c)),
                     PROTO_ERR_BAD_OPTION);
    /* A loss would leave a game of three one short. */
    c = json_pack("{s:s, s:i, s:s}", "type", "fischer", "base", 60, "timeout", "lose");
    ck_assert_int_eq(call_create(&peers[0], 3, json_pack("{s:o}", "clock", c)),
                     PROTO_ERR_BAD_OPTION);
    ck_assert_int_eq(lobby_room_count(lobby), 0);
    (void)clocked_game(
        json_pack("{s:s, s:i, s:s}", "type", "fischer", "base", 60, "timeout", "skip"));
    ck_assert_str_eq(
        json_string_value(json_object_get(json_object_get(peers[0].view, "clock"), "timeout")),
        "skip");
}
END_TEST

START_TEST(a_seat_that_loses_on_time_ends_the_game)
{
    struct lobby *saved = own_lobby(&cfg);
    const char *code = clocked_game(
        json_pack("{s:s, s:i, s:s}", "type", "fischer", "base", 60, "timeout", "lose"));
    clock_ms += 60000;
    (void)lobby_run_due(lobby, clock_ms);
    settle();
    track(&peers[1]);
    json_t *result = json_object_get(peers[1].view, "result");
    ck_assert_int_eq(json_integer_value(json_object_get(result, "forfeit")), 0);
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(result, "winners"), 0)), 1);
    ck_assert_uint_eq(count_ev(&peers[1], "ended"), 1);
    ck_assert_int_eq(clock_of(&peers[1], 0, "left"), 0);
    ck_assert_int_eq(clock_of(&peers[1], 1, "running"), 0);
    ck_assert_uint_eq(count_ev(&peers[1], "timeout"), 1);
    json_t *rec = last_record("timeout");
    ck_assert_str_eq(json_string_value(json_object_get(rec, "do")), "lose");
    json_decref(rec);
    /* The game over, no action is taken. */
    ck_assert_int_eq(call_act(&peers[1], 1, -1), PROTO_ERR_GAME_OVER);
    /* A replay ends it the same way. */
    replays_the_same(code, NULL);
    own_lobby_end(saved);
}
END_TEST

START_TEST(a_skipped_seat_keeps_its_seat_and_its_next_turn_s_time)
{
    struct lobby *saved = own_lobby(&cfg);
    const char *code = clocked_game(json_pack("{s:s, s:i, s:i, s:s}", "type", "fischer", "base", 60,
                                              "increment", 5, "timeout", "skip"));
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    lobby_peer_gone(lobby, &peers[1].peer, clock_ms); /* not there: still skipped */
    clock_ms += 60000;
    (void)lobby_run_due(lobby, clock_ms);
    settle();
    track(&peers[0]);
    ck_assert_str_eq(seat_kind(&peers[0], 1), "human");
    ck_assert_int_eq(
        json_integer_value(json_array_get(json_object_get(peers[0].view, "active"), 0)), 0);
    ck_assert_int_eq(clock_of(&peers[0], 1, "flag"), 0);
    ck_assert_int_eq(clock_of(&peers[0], 1, "left"), 5000); /* the turn's increment */
    ck_assert_int_eq(clock_of(&peers[0], 0, "running"), 1);
    json_t *rec = last_record("timeout");
    ck_assert_str_eq(json_string_value(json_object_get(rec, "do")), "skip");
    json_decref(rec);
    replays_the_same(code, NULL);
    own_lobby_end(saved);
}
END_TEST

START_TEST(a_skip_the_game_refuses_falls_back_to_a_bot)
{
    struct lobby *saved = own_lobby(&cfg);

    /* The race's first turn may not pass. */
    (void)clocked_game(
        json_pack("{s:s, s:i, s:s}", "type", "fischer", "base", 60, "timeout", "skip"));
    lobby_peer_gone(lobby, &peers[0].peer, clock_ms);
    clock_ms += 60000;
    (void)lobby_run_due(lobby, clock_ms);
    settle();
    track(&peers[1]);
    ck_assert_str_eq(seat_kind(&peers[1], 0), "bot");
    ck_assert_int_eq(clock_of(&peers[1], 0, "flag"), 1);
    json_t *rec = last_record("timeout");
    ck_assert_str_eq(json_string_value(json_object_get(rec, "do")), "bot");
    json_decref(rec);
    own_lobby_end(saved);
}
END_TEST

START_TEST(an_older_timeout_record_replays)
{
    struct lobby *saved = own_lobby(&cfg);
    const char *code = clocked_game(json_pack("{s:s, s:i}", "type", "fischer", "base", 60));

    lobby_peer_gone(lobby, &peers[0].peer, clock_ms);
    clock_ms += 60000;
    (void)lobby_run_due(lobby, clock_ms);
    settle();
    json_t *records = ts_records(&store);
    /* Journals written before timeout policies say "bot": true. */
    size_t i;
    json_t *r;
    json_array_foreach(records, i, r) {
        if (strcmp(json_string_value(json_object_get(r, "t")), "timeout") == 0) {
            ck_assert_str_eq(json_string_value(json_object_get(r, "do")), "bot");
            json_object_del(r, "do");
            json_object_set_new(r, "bot", json_true());
        }
    }
    replays_the_same(code, records);
    own_lobby_end(saved);
}
END_TEST

START_TEST(clocks_replay_from_the_journal_to_the_same_times)
{
    struct lobby *saved = own_lobby(&cfg);
    const char *code =
        clocked_game(json_pack("{s:s, s:i, s:i}", "type", "fischer", "base", 300, "increment", 2));
    for (int i = 0; i < 6; i++) {
        clock_ms += 1000 + 700 * (uint64_t)i;
        ck_assert_int_eq(call_act(&peers[i % 2], 1, -1), PROTO_OK);
        settle();
    }
    replays_the_same(code, NULL);
    own_lobby_end(saved);
}
END_TEST

START_TEST(a_sleeping_room_s_clock_runs_and_wakes_it_to_time_out)
{
    struct lobby_config c = cfg;
    struct lobby_stats ls;

    c.sleep_after_ms = 1000;
    c.abandoned_ttl_ms = 0;
    struct lobby *saved = own_lobby(&c);
    char code[8];
    snprintf(code, sizeof(code), "%s",
             clocked_game(json_pack("{s:s, s:i, s:i}", "type", "correspondence", "per_move", 3600,
                                    "bank", 7200)));
    ck_assert_uint_eq(both_go_and_wait(1000), 1);
    /* Asleep, nothing is due before seat 0's two hours run out. */
    ck_assert_uint_eq(lobby_next_due(lobby), clock_ms - 1000 + 7200000);
    clock_ms += 7200000 - 1000;
    (void)lobby_run_due(lobby, clock_ms);
    settle();
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.woken, 1);
    json_t *req = json_pack("{s:s}", "room", code);
    char msg[GAME_MSG_MAX];
    ck_assert_int_eq(run_op(lobby_spectate, 0, &peers[3].peer, req, msg), PROTO_OK);
    json_decref(req);
    settle();
    track(&peers[3]);
    ck_assert_int_eq(clock_of(&peers[3], 0, "flag"), 1);
    ck_assert_int_eq(clock_of(&peers[3], 0, "left"), 0);
    lobby_peer_gone(lobby, &peers[3].peer, clock_ms);
    own_lobby_end(saved);
}
END_TEST

/* Both players of two_player_game() go; `ms` later, the rooms asleep. */
static unsigned both_go_and_wait(uint64_t ms)
{
    struct lobby_stats ls;

    lobby_peer_gone(lobby, &peers[0].peer, clock_ms);
    lobby_peer_gone(lobby, &peers[1].peer, clock_ms);
    clock_ms += ms;
    (void)lobby_run_due(lobby, clock_ms);
    lobby_stats(lobby, &ls);
    return ls.sleeping;
}

START_TEST(a_room_asleep_counts_against_its_creator_until_dropped)
{
    char msg[GAME_MSG_MAX], tok0[64];
    struct lobby_config c = cfg;
    struct lobby_stats ls;

    c.sleep_after_ms = 1000;
    c.abandoned_ttl_ms = 5000;
    c.max_rooms_per_conn = 10;
    c.max_rooms_per_addr = 2;
    struct lobby *saved = own_lobby(&c);
    for (int i = 0; i < 4; i++) {
        snprintf(peers[i].peer.addr, sizeof(peers[i].peer.addr), "192.0.2.9");
    }
    (void)two_player_game();
    first_token(&peers[0], tok0);
    ck_assert_uint_eq(both_go_and_wait(1000), 1);
    /* Asleep, the game still counts against its creator's address. */
    ck_assert_int_eq(call_create(&peers[2], 2, NULL), PROTO_OK);
    ck_assert_int_eq(call_create(&peers[3], 2, NULL), PROTO_ERR_SERVER_BUSY);
    /* Abandoned past --abandoned-ttl, it goes, and so do its slot and its
     * seats' tokens. */
    clock_ms += 5000;
    (void)lobby_run_due(lobby, clock_ms);
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.sleeping, 0);
    ck_assert_int_eq(call_create(&peers[3], 2, NULL), PROTO_OK);
    json_t *req = json_pack("{s:s}", "token", tok0);
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[4].peer, req, msg), PROTO_ERR_BAD_TOKEN);
    json_decref(req);
    own_lobby_end(saved);
}
END_TEST

START_TEST(a_room_sleeps_only_once_its_records_are_durable)
{
    struct lobby_stats ls;

    struct lobby *saved = own_sleepy_lobby();
    two_player_game();
    char msg[GAME_MSG_MAX];
    json_t *req = json_pack("{s:{s:s, s:i}}", "action", "type", "add", "n", 1);
    ck_assert_int_eq(run_op(lobby_act, PLAYING | LOBBY_NEED_TURN, &peers[0].peer, req, msg),
                     PROTO_OK);
    json_decref(req);
    /* The act's record is not durable yet: a journal failing now must
     * reach a room awake. */
    ck_assert_uint_eq(both_go_and_wait(1000), 0);
    ck_assert_uint_eq(lobby_next_due(lobby), UINT64_MAX); /* nothing to poll for */
    /* Once they are, it is due to sleep at once. */
    lobby_durable(lobby, store.seq);
    ck_assert_uint_le(lobby_next_due(lobby), clock_ms);
    (void)lobby_run_due(lobby, clock_ms);
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.sleeping, 1);
    own_lobby_end(saved);
}
END_TEST

START_TEST(the_last_to_leave_a_lobby_gets_its_reply)
{
    char msg[GAME_MSG_MAX];
    struct lobby_config c = cfg;
    struct lobby *saved = own_lobby(&c);

    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    ck_assert_int_eq(call_join(&peers[1], room_code(&peers[0]), -1), PROTO_OK);
    /* Both leave before the journal has the first leave: the host's
     * notice and its own reply wait for it. */
    ck_assert_int_eq(run_op(lobby_leave, ROOM, &peers[1].peer, NULL, msg), PROTO_OK);
    size_t before = json_array_size(peers[0].msgs);
    ck_assert_int_eq(run_op(lobby_leave, ROOM, &peers[0].peer, NULL, msg), PROTO_OK);
    /* The empty lobby is due to go at once; not before its lines. */
    (void)lobby_run_due(lobby, clock_ms);
    ck_assert(!peers[0].closed);
    lobby_durable(lobby, store.seq);
    ck_assert(!peers[0].closed);
    ck_assert_uint_gt(json_array_size(peers[0].msgs), before);
    ck_assert_ptr_nonnull(last_reply(&peers[0]));
    ck_assert(json_is_true(json_object_get(last_reply(&peers[0]), "ok")));
    ck_assert_uint_le(lobby_next_due(lobby), clock_ms);
    (void)lobby_run_due(lobby, clock_ms);
    ck_assert_int_eq(lobby_room_count(lobby), 0);
    own_lobby_end(saved);
}
END_TEST

START_TEST(a_finished_game_sleeps_and_keeps_its_record)
{
    char msg[GAME_MSG_MAX], tok0[64];
    struct lobby_config c = cfg;
    struct lobby_stats ls;

    c.sleep_after_ms = 1000;
    struct lobby *saved = own_lobby(&c);
    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    char room[8];
    snprintf(room, sizeof(room), "%s", room_code(&peers[0]));
    first_token(&peers[0], tok0);
    ck_assert_int_eq(call_start(&peers[0], true), PROTO_OK);
    play_to_the_end();
    lobby_peer_gone(lobby, &peers[0].peer, clock_ms);
    clock_ms += 1000;
    (void)lobby_run_due(lobby, clock_ms);
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.sleeping, 1);
    ck_assert_uint_eq(ls.rooms[0][ROOM_ENDED], 1);
    /* Woken by its player, it gives its record, read from the journal. */
    json_t *req = json_pack("{s:s}", "token", tok0);
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[1].peer, req, msg), PROTO_OK);
    json_decref(req);
    ck_assert_int_eq(run_op(lobby_record, ROOM, &peers[1].peer, NULL, msg), PROTO_OK);
    settle();
    json_t *rec = json_object_get(last_reply(&peers[1]), "record");
    ck_assert_uint_gt(json_array_size(json_object_get(rec, "actions")), 0);
    lobby_peer_gone(lobby, &peers[1].peer, clock_ms);
    clock_ms += 1000;
    (void)lobby_run_due(lobby, clock_ms);
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.sleeping, 1);
    /* Past --ended-ttl it goes, journal and all. */
    clock_ms += c.ended_ttl_ms;
    (void)lobby_run_due(lobby, clock_ms);
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.sleeping, 0);
    ck_assert(!lobby_holds(lobby, room));
    own_lobby_end(saved);
}
END_TEST

/* ---- Notices ---- */

/* What the notifier was asked: [{"seat","webhook","push":[endpoints],"body"}]. */
static json_t *told;

static int tn_check(void *ctx, const char *url, bool push, char *msg)
{
    (void)ctx;
    if (strncmp(url, push ? "https://" : "http", push ? 8 : 4) != 0 || strstr(url, "10.0.0.1")) {
        snprintf(msg, GAME_MSG_MAX, "not a public address: %s", url);
        return -1;
    }
    return 0;
}

static void tn_send(void *ctx, const struct lobby_notice_to *to, const char *body, size_t len)
{
    json_t *eps = json_array();

    (void)ctx;
    for (size_t i = 0; i < to->npush; i++) {
        json_array_append_new(eps, json_string(to->push[i].endpoint));
    }
    json_array_append_new(told, json_pack("{s:s, s:i, s:s?, s:o, s:o}", "room", to->room, "seat",
                                          to->seat, "webhook", to->webhook, "push", eps, "body",
                                          json_loadb(body, len, 0, NULL)));
}

static void notices_on(struct lobby *l)
{
    struct lobby_notifier n = {tn_check, tn_send, "BKEY", "https://games.example.org/", NULL};

    lobby_set_notifier(l, &n);
    json_decref(told);
    told = json_array();
}

/* The `notify` op for `t` with `args` (stolen). */
static int call_notify(struct tpeer *t, json_t *args)
{
    char msg[GAME_MSG_MAX] = "";
    int rc = run_op(lobby_notify, ROOM | LOBBY_NEED_SEAT, &t->peer, args, msg);

    json_decref(args);
    return rc;
}

/* A subscription of the page's shape, to endpoint `ep`. */
static json_t *subscription(const char *ep)
{
    unsigned char point[65] = {4}, secret[16] = {1};
    char p256dh[100], auth[32];

    sodium_bin2base64(p256dh, sizeof(p256dh), point, sizeof(point),
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_bin2base64(auth, sizeof(auth), secret, sizeof(secret),
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    return json_pack("{s:s, s:{s:s, s:s}}", "endpoint", ep, "keys", "p256dh", p256dh, "auth", auth);
}

/* The reply's "notify" of `t`'s last reply. */
static json_t *notify_reply(struct tpeer *t)
{
    return json_object_get(last_reply(t), "notify");
}

START_TEST(notify_is_refused_without_notices)
{
    (void)two_player_game();
    ck_assert_ptr_null(lobby_notifier_json(lobby));
    ck_assert_int_eq(call_notify(&peers[1], json_pack("{s:s}", "webhook", "https://ntfy.sh/x")),
                     PROTO_ERR_BAD_REQUEST);
}
END_TEST

START_TEST(a_seat_s_targets_are_set_checked_and_journaled)
{
    struct lobby *saved = own_lobby(&cfg);

    notices_on(lobby);
    json_t *hello = lobby_notifier_json(lobby);
    ck_assert_str_eq(json_string_value(json_object_get(hello, "push")), "BKEY");
    json_decref(hello);
    const char *code = two_player_game();
    ck_assert_int_eq(call_notify(&peers[1], json_pack("{s:s}", "webhook", "https://ntfy.sh/bo")),
                     PROTO_OK);
    settle();
    ck_assert_str_eq(json_string_value(json_object_get(notify_reply(&peers[1]), "webhook")),
                     "https://ntfy.sh/bo");
    ck_assert_int_eq(
        call_notify(&peers[1], json_pack("{s:o}", "push", subscription("https://push.example/a"))),
        PROTO_OK);
    ck_assert_int_eq(
        call_notify(&peers[1], json_pack("{s:o}", "push", subscription("https://push.example/a"))),
        PROTO_OK);
    settle();
    /* The same endpoint again replaces it: one subscription, the webhook kept. */
    ck_assert_int_eq(json_integer_value(json_object_get(notify_reply(&peers[1]), "push")), 1);
    ck_assert_ptr_nonnull(json_object_get(notify_reply(&peers[1]), "webhook"));
    /* Refused: a private address, plain http for push, keys of the wrong
     * size, a webhook that is not a string; nothing changes. */
    size_t records = store.records;
    ck_assert_int_eq(call_notify(&peers[1], json_pack("{s:s}", "webhook", "http://10.0.0.1/")),
                     PROTO_ERR_BAD_REQUEST);
    ck_assert_int_eq(
        call_notify(&peers[1], json_pack("{s:o}", "push", subscription("http://push.example/b"))),
        PROTO_ERR_BAD_REQUEST);
    json_t *bad = subscription("https://push.example/c");
    json_object_set_new(json_object_get(bad, "keys"), "auth", json_string("AAAA"));
    ck_assert_int_eq(call_notify(&peers[1], json_pack("{s:o}", "push", bad)),
                     PROTO_ERR_BAD_REQUEST);
    ck_assert_int_eq(call_notify(&peers[1], json_pack("{s:i}", "webhook", 3)),
                     PROTO_ERR_BAD_REQUEST);
    ck_assert_uint_eq(store.records, records);
    /* Spectators have no seat to be told for. */
    json_t *req = json_pack("{s:s}", "room", code);
    char msg[GAME_MSG_MAX];
    ck_assert_int_eq(run_op(lobby_spectate, 0, &peers[3].peer, req, msg), PROTO_OK);
    json_decref(req);
    ck_assert_int_eq(call_notify(&peers[3], json_pack("{s:s}", "webhook", "https://ntfy.sh/s")),
                     PROTO_ERR_NOT_IN_GAME);
    /* Asking alone changes nothing. */
    ck_assert_int_eq(call_notify(&peers[1], json_object()), PROTO_OK);
    settle();
    ck_assert_uint_eq(store.records, records);
    ck_assert_int_eq(json_integer_value(json_object_get(notify_reply(&peers[1]), "push")), 1);
    /* The journal holds the targets: no view or record shows them. */
    json_t *rec = last_record("notify");
    ck_assert_str_eq(json_string_value(json_object_get(rec, "webhook")), "https://ntfy.sh/bo");
    ck_assert_int_eq(json_array_size(json_object_get(rec, "push")), 1);
    json_decref(rec);
    char *view = json_dumps(peers[0].view, 0);
    ck_assert_ptr_null(strstr(view, "ntfy.sh"));
    free(view);
    /* Off: every target goes. */
    ck_assert_int_eq(call_notify(&peers[1], json_pack("{s:b}", "off", 1)), PROTO_OK);
    settle();
    ck_assert(json_is_null(json_object_get(notify_reply(&peers[1]), "webhook")));
    ck_assert_int_eq(json_integer_value(json_object_get(notify_reply(&peers[1]), "push")), 0);
    lobby_peer_gone(lobby, &peers[3].peer, clock_ms);
    own_lobby_end(saved);
}
END_TEST

/* The notices told so far of event `ev` to seat `seat`. */
static size_t told_of(const char *ev, int seat)
{
    size_t n = 0, i;
    json_t *t;

    json_array_foreach(told, i, t) {
        const json_t *body = json_object_get(t, "body");
        n += json_integer_value(json_object_get(t, "seat")) == seat &&
             strcmp(json_string_value(json_object_get(body, "event")), ev) == 0;
    }
    return n;
}

/* Seat 1's player comes back with `token`, adds `n` and goes again. */
static void back_adds_and_goes(const char *token, int n)
{
    char msg[GAME_MSG_MAX];
    json_t *req = json_pack("{s:s}", "token", token);

    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[1].peer, req, msg), PROTO_OK);
    json_decref(req);
    settle();
    ck_assert_int_eq(call_act(&peers[1], n, -1), PROTO_OK);
    settle();
    lobby_peer_gone(lobby, &peers[1].peer, clock_ms);
}

START_TEST(a_player_who_is_away_is_told_of_the_turn_mentions_and_the_end)
{
    char msg[GAME_MSG_MAX], tok1[64];
    struct lobby *saved = own_lobby(&cfg);

    notices_on(lobby);
    const char *code = two_player_game();
    first_token(&peers[1], tok1);
    ck_assert_int_eq(
        call_notify(&peers[1], json_pack("{s:s, s:o}", "webhook", "https://ntfy.sh/bo", "push",
                                         subscription("https://push.example/a"))),
        PROTO_OK);
    settle();
    /* There, a player is told nothing. */
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    ck_assert_uint_eq(json_array_size(told), 0);
    ck_assert_int_eq(call_act(&peers[1], 1, -1), PROTO_OK);
    settle();
    lobby_peer_gone(lobby, &peers[1].peer, clock_ms);
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    /* Away, its turn: told once, on both its targets, with the room's link. */
    ck_assert_uint_eq(told_of("turn", 1), 1);
    json_t *t = json_array_get(told, 0);
    ck_assert_str_eq(json_string_value(json_object_get(t, "webhook")), "https://ntfy.sh/bo");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(t, "push"), 0)),
                     "https://push.example/a");
    json_t *body = json_object_get(t, "body");
    char url[64];
    snprintf(url, sizeof(url), "https://games.example.org/#%s", code);
    ck_assert_str_eq(json_string_value(json_object_get(body, "url")), url);
    ck_assert_str_eq(json_string_value(json_object_get(body, "room")), code);
    ck_assert_str_eq(json_string_value(json_object_get(body, "title")), "Conclave: your turn");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(body, "text")), "Race to 10"));
    /* A chat line naming it: told once of that too, not of one naming
     * somebody else. */
    json_t *req = json_pack("{s:s}", "text", "@p1 your move!");
    ck_assert_int_eq(run_op(lobby_chat, ROOM, &peers[0].peer, req, msg), PROTO_OK);
    json_decref(req);
    req = json_pack("{s:s}", "text", "@p10 and @P2 are not here");
    ck_assert_int_eq(run_op(lobby_chat, ROOM, &peers[0].peer, req, msg), PROTO_OK);
    json_decref(req);
    ck_assert_uint_eq(told_of("mention", 1), 1);
    body = json_object_get(json_array_get(told, json_array_size(told) - 1), "body");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(body, "text")), "your move!"));
    /* Back, then away again at its next turn: told again. */
    back_adds_and_goes(tok1, 1);
    ck_assert_int_eq(call_act(&peers[0], 2, -1), PROTO_OK);
    settle();
    ck_assert_uint_eq(told_of("turn", 1), 2);
    /* The end (at 10): told that the game is over. */
    back_adds_and_goes(tok1, 2);
    ck_assert_int_eq(call_act(&peers[0], 2, -1), PROTO_OK);
    settle();
    ck_assert_uint_eq(count_ev(&peers[0], "ended"), 1);
    ck_assert_uint_eq(told_of("end", 1), 1);
    ck_assert_uint_eq(told_of("end", 0), 0); /* there, and without targets */
    own_lobby_end(saved);
}
END_TEST

START_TEST(a_seat_told_of_its_turn_is_not_told_again_after_a_sleep)
{
    char msg[GAME_MSG_MAX], tok0[64];
    struct lobby_stats ls;

    struct lobby *saved = own_sleepy_lobby();
    notices_on(lobby);
    (void)two_player_game();
    first_token(&peers[0], tok0);
    ck_assert_int_eq(call_notify(&peers[1], json_pack("{s:s}", "webhook", "https://ntfy.sh/bo")),
                     PROTO_OK);
    settle();
    lobby_peer_gone(lobby, &peers[1].peer, clock_ms);
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    ck_assert_uint_eq(told_of("turn", 1), 1);
    /* The other player goes too: the room sleeps. Her token wakes it, and
     * her chat line changes the room while the turn is still seat 1's,
     * which it was told of before the sleep. */
    ck_assert_uint_eq(both_go_and_wait(1000), 1);
    json_t *req = json_pack("{s:s}", "token", tok0);
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[2].peer, req, msg), PROTO_OK);
    json_decref(req);
    settle();
    lobby_stats(lobby, &ls);
    ck_assert_uint_eq(ls.woken, 1);
    req = json_pack("{s:s}", "text", "still there?");
    ck_assert_int_eq(run_op(lobby_chat, ROOM, &peers[2].peer, req, msg), PROTO_OK);
    json_decref(req);
    settle();
    ck_assert_uint_eq(told_of("turn", 1), 1);
    own_lobby_end(saved);
}
END_TEST

START_TEST(targets_replay_and_go_with_the_player)
{
    char msg[GAME_MSG_MAX], tok0[64];
    struct lobby *saved = own_lobby(&cfg);

    notices_on(lobby);
    const char *code = two_player_game();
    first_token(&peers[0], tok0);
    ck_assert_int_eq(call_notify(&peers[1], json_pack("{s:o, s:s}", "push",
                                                      subscription("https://push.example/a"),
                                                      "webhook", "https://ntfy.sh/bo")),
                     PROTO_OK);
    settle();
    /* A restored lobby has the same targets; the push service saying the
     * subscription is gone takes it out, the webhook stays. */
    json_t *records = ts_records(&store);
    struct lobby *l = restored(records);
    json_decref(records);
    notices_on(l);
    struct lobby *mine = lobby;
    lobby = l;
    lobby_push_gone(l, code, 1, "https://push.example/a", clock_ms);
    json_t *req = json_pack("{s:s}", "token", tok0);
    ck_assert_int_eq(run_op(lobby_resume, 0, &peers[4].peer, req, msg), PROTO_OK);
    json_decref(req);
    ck_assert_int_eq(call_act(&peers[4], 1, -1), PROTO_OK);
    ck_assert_uint_eq(told_of("turn", 1), 1);
    json_t *t = json_array_get(told, 0);
    ck_assert_str_eq(json_string_value(json_object_get(t, "webhook")), "https://ntfy.sh/bo");
    ck_assert_int_eq(json_array_size(json_object_get(t, "push")), 0);
    lobby_peer_gone(l, &peers[4].peer, clock_ms);
    lobby_free(l);
    lobby = mine;
    own_lobby_end(saved);

    /* A player who leaves a room before it starts takes its targets along:
     * the next one in its seat is told nothing. */
    saved = own_lobby(&cfg);
    notices_on(lobby);
    ck_assert_int_eq(call_create(&peers[0], 2, NULL), PROTO_OK);
    char room[8];
    snprintf(room, sizeof(room), "%s", room_code(&peers[0]));
    ck_assert_int_eq(call_join(&peers[1], room, 1), PROTO_OK);
    ck_assert_int_eq(call_notify(&peers[1], json_pack("{s:s}", "webhook", "https://ntfy.sh/bo")),
                     PROTO_OK);
    ck_assert_int_eq(run_op(lobby_leave, ROOM, &peers[1].peer, NULL, msg), PROTO_OK);
    ck_assert_int_eq(call_join(&peers[2], room, 1), PROTO_OK);
    ck_assert_int_eq(call_start(&peers[0], false), PROTO_OK);
    settle();
    lobby_peer_gone(lobby, &peers[2].peer, clock_ms);
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    ck_assert_uint_eq(json_array_size(told), 0);
    own_lobby_end(saved);
}
END_TEST

/* ---- Undo ---- */

static int call_undo(struct tpeer *t)
{
    char msg[GAME_MSG_MAX] = "";
    int rc = run_op(lobby_undo, PLAYING, &t->peer, NULL, msg);

    if (rc != PROTO_OK) {
        snprintf(t->last_msg, sizeof(t->last_msg), "%s", msg);
    }
    return rc;
}

START_TEST(an_undo_gives_back_every_view_as_it_was)
{
    struct lobby *saved = own_lobby(&cfg);
    const char *code = two_player_game();

    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    track(&peers[0]);
    track(&peers[1]);
    json_t *v0 = json_deep_copy(peers[0].view), *v1 = json_deep_copy(peers[1].view);
    json_t *spec = seen_by_spectator(lobby, code);
    ck_assert_int_eq(call_act(&peers[1], 1, -1), PROTO_OK);
    settle();
    /* The reply says the move may come back. */
    ck_assert(json_is_true(json_object_get(last_reply(&peers[1]), "undo")));
    ck_assert_int_eq(call_undo(&peers[1]), PROTO_OK);
    settle();
    track(&peers[0]);
    track(&peers[1]);
    /* Byte for byte the views before the move, each seat's and the
     * public one, at a new rev; everyone is told. */
    ck_assert(json_equal(peers[0].view, v0));
    ck_assert(json_equal(peers[1].view, v1));
    json_t *again = seen_by_spectator(lobby, code);
    ck_assert(json_equal(json_object_get(again, "view"), json_object_get(spec, "view")));
    ck_assert_uint_eq(count_ev(&peers[0], "undo"), 1);
    json_t *rec = last_record("undo");
    ck_assert_int_eq(json_integer_value(json_object_get(rec, "seat")), 1);
    json_decref(rec);
    /* Seat 1 plays on; a replay gives the same room. */
    ck_assert_int_eq(call_act(&peers[1], 1, -1), PROTO_OK);
    settle();
    replays_the_same(code, NULL);
    json_decref(v0);
    json_decref(v1);
    json_decref(spec);
    json_decref(again);
    own_lobby_end(saved);
}
END_TEST

/* A seat's run of nine moves: the last eight come back one by one, each
 * to the views before it, and then undo is refused; a replay of the
 * journal gives the same room. */
START_TEST(a_run_of_moves_comes_back_eight_deep)
{
    struct lobby *saved = own_lobby(&cfg);
    json_t *before[9][2];

    ck_assert_int_eq(call_create(&peers[0], 2, json_pack("{s:i}", "run", 9)), PROTO_OK);
    char code[8];
    snprintf(code, sizeof(code), "%s", room_code(&peers[0]));
    ck_assert_int_eq(call_join(&peers[1], code, -1), PROTO_OK);
    ck_assert_int_eq(call_start(&peers[0], false), PROTO_OK);
    for (int i = 0; i < 9; i++) {
        track(&peers[0]);
        track(&peers[1]);
        before[i][0] = json_deep_copy(peers[0].view);
        before[i][1] = json_deep_copy(peers[1].view);
        ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
        settle();
        ck_assert(json_is_true(json_object_get(last_reply(&peers[0]), "undo")));
    }
    for (int i = 8; i >= 1; i--) {
        ck_assert_int_eq(call_undo(&peers[0]), PROTO_OK);
        settle();
        track(&peers[0]);
        track(&peers[1]);
        ck_assert(json_equal(peers[0].view, before[i][0]));
        ck_assert(json_equal(peers[1].view, before[i][1]));
    }
    /* The first move of the run was pushed out by the ninth. */
    ck_assert_int_eq(call_undo(&peers[0]), PROTO_ERR_ILLEGAL_ACTION);
    ck_assert(!json_equal(peers[0].view, before[0][0]));
    /* Seat 0 plays its run on; a replay gives the same room. */
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    replays_the_same(code, NULL);
    for (int i = 0; i < 9; i++) {
        json_decref(before[i][0]);
        json_decref(before[i][1]);
    }
    own_lobby_end(saved);
}
END_TEST

START_TEST(an_undo_is_refused_in_words_where_it_could_tell_something)
{
    struct lobby *saved = own_lobby(&cfg);
    (void)two_player_game();

    ck_assert_int_eq(call_undo(&peers[0]), PROTO_ERR_ILLEGAL_ACTION);
    ck_assert_ptr_nonnull(strstr(peers[0].last_msg, "no move of yours"));
    /* Adding 2 draws, in this game: it cannot come back. */
    ck_assert_int_eq(call_act(&peers[0], 2, -1), PROTO_OK);
    settle();
    ck_assert_ptr_null(json_object_get(last_reply(&peers[0]), "undo"));
    size_t records = store.records;
    ck_assert_int_eq(call_undo(&peers[0]), PROTO_ERR_ILLEGAL_ACTION);
    ck_assert_ptr_nonnull(strstr(peers[0].last_msg, "hidden"));
    /* Once another seat has moved, neither's earlier move comes back. */
    ck_assert_int_eq(call_act(&peers[1], 1, -1), PROTO_OK);
    settle();
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    ck_assert_int_eq(call_undo(&peers[1]), PROTO_ERR_ILLEGAL_ACTION);
    ck_assert_ptr_nonnull(strstr(peers[1].last_msg, "another seat"));
    ck_assert_uint_eq(store.records, records + 2);
    /* Nor does anyone outside the room. */
    ck_assert_int_eq(call_undo(&peers[3]), PROTO_ERR_NOT_IN_ROOM);
    own_lobby_end(saved);

    /* A room made without undo refuses it. */
    saved = own_lobby(&cfg);
    ck_assert_int_eq(call_create(&peers[0], 2, json_pack("{s:b}", "undo", 0)), PROTO_OK);
    char room[8];
    snprintf(room, sizeof(room), "%s", room_code(&peers[0]));
    ck_assert_int_eq(call_join(&peers[1], room, -1), PROTO_OK);
    ck_assert_int_eq(call_start(&peers[0], false), PROTO_OK);
    settle();
    ck_assert_int_eq(call_act(&peers[0], 1, -1), PROTO_OK);
    settle();
    ck_assert_int_eq(call_undo(&peers[0]), PROTO_ERR_ILLEGAL_ACTION);
    ck_assert_ptr_nonnull(strstr(peers[0].last_msg, "off"));
    ck_assert_int_eq(call_create(&peers[2], 2, json_pack("{s:i}", "undo", 1)),
                     PROTO_ERR_BAD_OPTION);
    own_lobby_end(saved);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"create", create_gives_code_seat_and_token},
        {"join", join_by_typed_code_and_refusals},
        {"start", start_needs_host_and_players},
        {"options", bad_create_options},
        {"views", views_private_only_under_you},
        {"refusal", refused_act_changes_nothing},
        {"diffs", diffs_rebuild_every_view},
        {"log_items", a_log_sends_only_its_new_lines},
        {"seat_fields", a_seat_sends_only_its_changed_fields},
        {"resume", resume_with_rev_sends_missed_diffs},
        {"bots", bots_finish_and_record_replays},
        {"leave", host_passes_on_leave},
        {"expiry", rooms_expire},
        {"limits", room_limit_is_server_busy},
        {"chat", chat_is_cleaned_and_bounded},
        {"journal_failure", act_refused_when_the_journal_fails},
        {"alloc_failure", act_under_allocation_failures},
        {"backlog", room_over_its_backlog_refuses_actions},
        {"reply_order", replies_keep_request_order_across_rooms},
        {"journal_failing", a_failing_journal_holds_its_room_only},
        {"room_bounds", rooms_per_connection_and_address_are_bounded},
        {"sleep_counts", a_room_asleep_counts_against_its_creator_until_dropped},
        {"clock_options", clock_options_are_checked},
        {"clock_fischer", fischer_charges_the_mover_less_its_lag_and_adds_its_increment},
        {"clock_bank", a_bank_spends_a_turn_s_free_time_first},
        {"clock_timeout", a_seat_out_of_time_is_timed_out_and_a_bot_plays_it},
        {"clock_replay", clocks_replay_from_the_journal_to_the_same_times},
        {"clock_untimed", a_player_who_is_there_plays_on_untimed},
        {"clock_policy", a_timeout_policy_is_checked_at_create},
        {"clock_lose", a_seat_that_loses_on_time_ends_the_game},
        {"clock_skip", a_skipped_seat_keeps_its_seat_and_its_next_turn_s_time},
        {"clock_skip_refused", a_skip_the_game_refuses_falls_back_to_a_bot},
        {"clock_older_timeout", an_older_timeout_record_replays},
        {"notify_off", notify_is_refused_without_notices},
        {"notify_targets", a_seat_s_targets_are_set_checked_and_journaled},
        {"notify_notices", a_player_who_is_away_is_told_of_the_turn_mentions_and_the_end},
        {"notify_after_sleep", a_seat_told_of_its_turn_is_not_told_again_after_a_sleep},
        {"notify_replay", targets_replay_and_go_with_the_player},
        {"undo", an_undo_gives_back_every_view_as_it_was},
        {"undo_run", a_run_of_moves_comes_back_eight_deep},
        {"undo_refused", an_undo_is_refused_in_words_where_it_could_tell_something},
        {"clock_sleep", a_sleeping_room_s_clock_runs_and_wakes_it_to_time_out},
        {"spectator_cap", spectators_are_capped},
        {"legal_cache", legal_is_the_same_until_the_rev_moves},
        {"turn_and_end", act_out_of_turn_or_after_the_end},
        {"bot_levels", bot_levels_per_seat},
        {"bot_stale_answer", bot_answers_for_an_old_rev_are_dropped},
        {"bot_dropped_room", bot_answers_for_a_dropped_room_are_dropped},
        {"events_replay", every_event_replays_to_the_same_room},
        {"older_records", journals_of_the_older_records_replay},
        {"record_not_taken", a_record_not_taken_changes_nothing},
        {"resume_window", the_resume_window_is_bounded_in_bytes},
        {"sleep", rooms_sleep_on_disk_and_wake_the_same},
        {"sleep_ended", a_finished_game_sleeps_and_keeps_its_record},
        {"sleep_durable", a_room_sleeps_only_once_its_records_are_durable},
        {"last_leave", the_last_to_leave_a_lobby_gets_its_reply},
    };
    return CK_RUN("lobby", cases, setup, teardown);
}
