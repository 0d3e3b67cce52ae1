/* SPDX-License-Identifier: MIT */
/*
 * test_session.c - a session looking for rooms on other servers of a fleet,
 * through a fake finder whose answers the test gives: which requests become
 * lookups, what the answers become on the wire, and the requests that wait
 * behind a lookup (in order, bounded, dropped with the connection).
 */
#include "ck_run.h"
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "fake_game.h"
#include "session.h"

struct tconn {
    struct sess s;
    json_t *msgs; /* every line received, parsed, in order */
    bool closed;
};

static void tc_send(void *ctx, const char *line, size_t len)
{
    struct tconn *c = ctx;
    json_error_t err;
    json_t *m = json_loadb(line, len, JSON_DISABLE_EOF_CHECK, &err);

    ck_assert_msg(json_is_object(m), "not a JSON object: %.*s", (int)len, line);
    json_array_append_new(c->msgs, m);
}

static void tc_close(void *ctx)
{
    ((struct tconn *)ctx)->closed = true;
}

static const struct sess_io io = {tc_send, tc_close};

/* The fake finder: remembers what it was asked; the test answers. */
static struct {
    char code[PROTO_ROOM_CODE_LEN + 1];
    struct sess *who;
    int asked, cancelled;
    bool refuse; /* find returns NULL */
} finder_log;

static int handle_token;

static void *fake_find(void *ctx, const char *code, struct sess *s)
{
    (void)ctx;
    if (finder_log.refuse) {
        return NULL;
    }
    snprintf(finder_log.code, sizeof(finder_log.code), "%s", code);
    finder_log.who = s;
    finder_log.asked++;
    return &handle_token;
}

static void fake_cancel(void *ctx, void *handle)
{
    (void)ctx;
    ck_assert_ptr_eq(handle, &handle_token);
    finder_log.cancelled++;
}

static const struct sess_finder finder = {fake_find, fake_cancel, NULL};

static const struct game_ops *const fake_games[] = {&fake_game, NULL};
static const struct lobby_config lcfg = {
    .games = fake_games,
    .max_rooms = 8,
    .max_rooms_per_conn = 4,
    .max_rooms_per_addr = 8,
    .max_spectators = 8,
    .outbox_max = 1u << 20,
    .lobby_ttl_ms = 100000,
    .ended_ttl_ms = 100000,
    .abandoned_ttl_ms = 100000,
    .bot_level_max = BOT_HARD,
};
static const struct sess_config scfg = {
    .rate_per_sec = 1000, .rate_burst = 1000, .abuse_limit = 1000, .idle_ms = 60000};

static struct lobby *lobby;
static struct sess_hub hub;
static struct tconn conns[3];
static uint64_t next_id;

static void open_conn(struct tconn *c)
{
    c->msgs = json_array();
    c->closed = false;
    sess_hub_open(&hub, &c->s, ++next_id, &io, c, 1000);
}

static void setup(void)
{
    ck_assert_int_ge(sodium_init(), 0);
    memset(&finder_log, 0, sizeof(finder_log));
    lobby = lobby_new(&lcfg);
    ck_assert_ptr_nonnull(lobby);
    sess_hub_init(&hub, lobby, &scfg);
    sess_hub_set_finder(&hub, &finder);
    for (int i = 0; i < 3; i++) {
        open_conn(&conns[i]);
    }
}

static void teardown(void)
{
    for (int i = 0; i < 3; i++) {
        sess_fini(&conns[i].s, 2000);
        json_decref(conns[i].msgs);
    }
    lobby_free(lobby);
}

static void line(struct tconn *c, const char *text)
{
    sess_handle_line(&c->s, text, strlen(text), 1000);
}

static void hello(struct tconn *c)
{
    line(c, "{\"id\":0,\"op\":\"hello\",\"proto\":1,\"name\":\"Ann\"}");
    json_array_clear(c->msgs);
}

/* The n-th message received (borrowed). */
static const json_t *msg(const struct tconn *c, size_t n)
{
    ck_assert_uint_gt(json_array_size(c->msgs), n);
    return json_array_get(c->msgs, n);
}

static const char *err_code(const json_t *m)
{
    return json_string_value(json_object_get(json_object_get(m, "error"), "code"));
}

START_TEST(join_of_a_room_held_elsewhere_is_redirected)
{
    struct tconn *c = &conns[0];

    hello(c);
    line(c, "{\"id\":1,\"op\":\"join\",\"room\":\"k7qf-2m\"}");
    ck_assert_int_eq(finder_log.asked, 1);
    ck_assert_str_eq(finder_log.code, "K7QF2M");
    ck_assert_uint_eq(json_array_size(c->msgs), 0); /* the reply waits */
    sess_found(&c->s, SESS_FOUND_ELSEWHERE, "10.0.0.7:7301", "10.0.0.7:7302");
    ck_assert_uint_eq(json_array_size(c->msgs), 1);
    const json_t *r = msg(c, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(r, "re")), 1);
    ck_assert_str_eq(err_code(r), "room_elsewhere");
    const json_t *e = json_object_get(r, "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "server")), "10.0.0.7:7301");
    ck_assert_str_eq(json_string_value(json_object_get(e, "web")), "10.0.0.7:7302");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(e, "message")), "K7QF2M"));
    ck_assert_ptr_null(c->s.peer.room);
    ck_assert_uint_eq(hub.stats.refused[PROTO_ERR_ROOM_ELSEWHERE], 1);
}
END_TEST

START_TEST(answers_nowhere_and_unknown)
{
    struct tconn *c = &conns[0];

    hello(c);
    line(c, "{\"id\":1,\"op\":\"spectate\",\"room\":\"K7QF2M\"}");
    sess_found(&c->s, SESS_FOUND_NOWHERE, "", "");
    line(c, "{\"id\":2,\"op\":\"join\",\"room\":\"K7QF2M\"}");
    sess_found(&c->s, SESS_FOUND_UNKNOWN, "", "");
    ck_assert_int_eq(finder_log.asked, 2);
    ck_assert_str_eq(err_code(msg(c, 0)), "room_not_found");
    ck_assert_str_eq(err_code(msg(c, 1)), "server_busy");
    ck_assert_ptr_null(json_object_get(json_object_get(msg(c, 0), "error"), "server"));
}
END_TEST

START_TEST(no_lookup_for_a_malformed_code_a_room_held_here_or_without_a_finder)
{
    struct tconn *host = &conns[0], *c = &conns[1];

    hello(host);
    hello(c);
    line(c, "{\"id\":1,\"op\":\"join\",\"room\":\"not a code\"}");
    ck_assert_str_eq(err_code(msg(c, 0)), "room_not_found");
    line(host, "{\"id\":1,\"op\":\"create\",\"game\":\"fake\",\"seats\":3}");
    const char *room = json_string_value(json_object_get(msg(host, 0), "room"));
    ck_assert_ptr_nonnull(room);
    char text[160];
    /* A token that opens no seat, for a room this server holds. */
    snprintf(text, sizeof(text), "{\"id\":2,\"op\":\"resume\",\"token\":\"%s\",\"room\":\"%s\"}",
             "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", room);
    line(c, text);
    ck_assert_str_eq(err_code(msg(c, 1)), "bad_token");
    /* Refusals that are not about the room's whereabouts. */
    snprintf(text, sizeof(text), "{\"id\":3,\"op\":\"join\",\"room\":\"%s\",\"seat\":0}", room);
    line(c, text);
    ck_assert_str_eq(err_code(msg(c, 2)), "seat_taken");
    ck_assert_int_eq(finder_log.asked, 0);

    /* A session opened without a finder answers at once. */
    sess_hub_set_finder(&hub, NULL);
    sess_fini(&conns[2].s, 1000);
    json_decref(conns[2].msgs);
    open_conn(&conns[2]);
    hello(&conns[2]);
    line(&conns[2], "{\"id\":1,\"op\":\"join\",\"room\":\"K7QF2M\"}");
    ck_assert_str_eq(err_code(msg(&conns[2], 0)), "room_not_found");
    ck_assert_int_eq(finder_log.asked, 0);
}
END_TEST

START_TEST(resume_with_its_room_is_looked_up)
{
    struct tconn *c = &conns[0];

    hello(c);
    line(c, "{\"id\":1,\"op\":\"resume\",\"token\":"
            "\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}");
    ck_assert_str_eq(err_code(msg(c, 0)), "bad_token");
    ck_assert_int_eq(finder_log.asked, 0);
    line(c, "{\"id\":2,\"op\":\"resume\",\"token\":"
            "\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\"room\":\"Q2Q2Q2\"}");
    ck_assert_int_eq(finder_log.asked, 1);
    ck_assert_str_eq(finder_log.code, "Q2Q2Q2");
    sess_found(&c->s, SESS_FOUND_ELSEWHERE, "h:1", "");
    ck_assert_str_eq(err_code(msg(c, 1)), "room_elsewhere");
    ck_assert_ptr_null(json_object_get(json_object_get(msg(c, 1), "error"), "web"));
}
END_TEST

START_TEST(requests_behind_a_lookup_wait_in_order_and_are_bounded)
{
    struct tconn *c = &conns[0];
    char text[64];

    hello(c);
    line(c, "{\"id\":\"j\",\"op\":\"join\",\"room\":\"K7QF2M\"}");
    for (int i = 0; i < SESS_WAIT_LINES + 3; i++) {
        snprintf(text, sizeof(text), "{\"id\":%d,\"op\":\"ping\"}", i);
        line(c, text);
    }
    /* Beyond the bound, refused at once, before the lookup's answer. */
    ck_assert_uint_eq(json_array_size(c->msgs), 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_str_eq(err_code(msg(c, (size_t)i)), "rate_limited");
        ck_assert_int_eq(json_integer_value(json_object_get(msg(c, (size_t)i), "re")),
                         SESS_WAIT_LINES + i);
    }
    sess_found(&c->s, SESS_FOUND_NOWHERE, "", "");
    ck_assert_uint_eq(json_array_size(c->msgs), 3 + 1 + SESS_WAIT_LINES);
    ck_assert_str_eq(json_string_value(json_object_get(msg(c, 3), "re")), "j");
    for (int i = 0; i < SESS_WAIT_LINES; i++) {
        const json_t *m = msg(c, (size_t)(4 + i));
        ck_assert(json_is_true(json_object_get(m, "ok")));
        ck_assert_int_eq(json_integer_value(json_object_get(m, "re")), i);
    }
}
END_TEST

START_TEST(a_waiting_request_may_start_the_next_lookup)
{
    struct tconn *c = &conns[0];

    hello(c);
    line(c, "{\"id\":1,\"op\":\"join\",\"room\":\"K7QF2M\"}");
    line(c, "{\"id\":2,\"op\":\"spectate\",\"room\":\"Q2Q2Q2\"}");
    line(c, "{\"id\":3,\"op\":\"ping\"}");
    sess_found(&c->s, SESS_FOUND_NOWHERE, "", "");
    /* The spectate asked in turn; the ping waits behind it. */
    ck_assert_int_eq(finder_log.asked, 2);
    ck_assert_str_eq(finder_log.code, "Q2Q2Q2");
    ck_assert_uint_eq(json_array_size(c->msgs), 1);
    sess_found(&c->s, SESS_FOUND_ELSEWHERE, "h:1", "h:2");
    ck_assert_uint_eq(json_array_size(c->msgs), 3);
    ck_assert_str_eq(err_code(msg(c, 1)), "room_elsewhere");
    ck_assert_int_eq(json_integer_value(json_object_get(msg(c, 2), "re")), 3);
}
END_TEST

START_TEST(a_finder_that_cannot_start_is_server_busy)
{
    struct tconn *c = &conns[0];

    hello(c);
    finder_log.refuse = true;
    line(c, "{\"id\":1,\"op\":\"join\",\"room\":\"K7QF2M\"}");
    ck_assert_str_eq(err_code(msg(c, 0)), "server_busy");
    line(c, "{\"id\":2,\"op\":\"ping\"}");
    ck_assert(json_is_true(json_object_get(msg(c, 1), "ok")));
}
END_TEST

START_TEST(a_connection_gone_during_a_lookup_cancels_it)
{
    struct tconn *c = &conns[0];

    hello(c);
    line(c, "{\"id\":1,\"op\":\"join\",\"room\":\"K7QF2M\"}");
    line(c, "{\"id\":2,\"op\":\"ping\"}");
    sess_fini(&c->s, 1500);
    ck_assert_int_eq(finder_log.cancelled, 1);
    ck_assert_uint_eq(json_array_size(c->msgs), 0);
    /* A fresh session for the teardown to end. */
    sess_hub_open(&hub, &c->s, ++next_id, &io, c, 1000);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"join_of_a_room_held_elsewhere_is_redirected",
         join_of_a_room_held_elsewhere_is_redirected},
        {"answers_nowhere_and_unknown", answers_nowhere_and_unknown},
        {"no_lookup_for_a_malformed_code_a_room_held_here_or_without_a_finder",
         no_lookup_for_a_malformed_code_a_room_held_here_or_without_a_finder},
        {"resume_with_its_room_is_looked_up", resume_with_its_room_is_looked_up},
        {"requests_behind_a_lookup_wait_in_order_and_are_bounded",
         requests_behind_a_lookup_wait_in_order_and_are_bounded},
        {"a_waiting_request_may_start_the_next_lookup",
         a_waiting_request_may_start_the_next_lookup},
        {"a_finder_that_cannot_start_is_server_busy", a_finder_that_cannot_start_is_server_busy},
        {"a_connection_gone_during_a_lookup_cancels_it",
         a_connection_gone_during_a_lookup_cancels_it},
    };
    return CK_RUN("session", cases, setup, teardown);
}
