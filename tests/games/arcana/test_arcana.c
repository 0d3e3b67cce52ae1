/* SPDX-License-Identifier: MIT */
/*
 * test_arcana.c - rule tests of the Res Arcana core. Data-driven scenarios
 * (the .json files of scenarios/, one array of scenarios per file, each
 * citing its section of docs/rules/arcana.md and the test of the
 * specification it checks) run through the game_ops table of game.h and
 * game_apply(), the way the server does; refusals are checked byte for byte
 * with memcmp. A scenario is {"id", "rule", "title", "seats", "seed",
 * "options", "position", "steps"}: without a position the game is the one
 * init makes; a position (docs/rules/arcana.md 0.4) replaces it. A step
 * may hold "actions" (each applied by the one active seat, each must be
 * accepted), then "action" by "seat" (default: the lowest active seat)
 * with an optional "error" (the refusal's status; the state must stay
 * byte-identical and the action must not be listed) and "message_has",
 * then checks: "view" (JSON Pointer -> value in the view of "view_seat",
 * default the spectator), "legal_exact", "legal_has", "legal_lacks",
 * "legal_count" (the list of "legal_seat", default the lowest active
 * seat) and "active" (the array of active seats). A step's "timeout"
 * ("forfeit" or "skip", by "seat", with an optional "error") runs before
 * its "action" (see run_timeout). "auto": n applies the
 * first listed action of the lowest active seat n times, before "action". An accepted
 * "action" may be followed by "undoable": true or false, what undoable()
 * answers for it. Every listed action is applied to a copy and must be
 * accepted. After every step the view's "log_keys" holds one message per
 * line of "log", each of whose English template in lang/arcana.json (the
 * program's second argument) reads the line.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arcana.h"
#include "game.h"
#include "logkeys.h"
#include "scenarios.h"

static json_t *scenarios;
static json_t *catalogue; /* lang/arcana.json */

static void setup_names(struct game_setup *su, int nseats, int seed)
{
    static const char *names[] = {"Ann", "Bo", "Cy", "Di"};
    memset(su, 0, sizeof(*su));
    su->nseats = nseats;
    for (int s = 0; s < nseats; s++) {
        snprintf(su->names[s], GAME_NAME_MAX, "%s", names[s]);
    }
    for (int i = 0; i < GAME_SEED_BYTES; i++) {
        su->seed[i] = (uint8_t)(seed * 37 + i);
    }
}

static const char *status_name(int rc)
{
    switch (rc) {
    case GAME_OK:
        return "ok";
    case GAME_E_ILLEGAL:
        return "illegal";
    case GAME_E_BAD_ACTION:
        return "bad_action";
    case GAME_E_NOT_TURN:
        return "not_turn";
    case GAME_E_OVER:
        return "over";
    default:
        return "other";
    }
}

static int in_list(const json_t *list, const json_t *a)
{
    size_t i;
    json_t *x;
    json_array_foreach(list, i, x) {
        if (json_equal(x, (json_t *)a)) {
            return 1;
        }
    }
    return 0;
}

static int first_active(const struct arc_state *st)
{
    unsigned m = arcana_game.active(st);
    for (int s = 0; s < st->c.nseats; s++) {
        if (m & (1u << s)) {
            return s;
        }
    }
    return 0;
}

/* The value at a JSON Pointer (no escapes needed by the scenarios). */
static json_t *pointer(json_t *doc, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", path);
    json_t *cur = doc;
    char *save = NULL;
    for (char *tok = strtok_r(buf, "/", &save); tok && cur; tok = strtok_r(NULL, "/", &save)) {
        if (json_is_array(cur)) {
            cur = json_array_get(cur, (size_t)strtol(tok, NULL, 10));
        } else {
            cur = json_object_get(cur, tok);
        }
    }
    return cur;
}

static struct arc_state *build(const json_t *sc, const char *id)
{
    const struct game_ops *g = &arcana_game;
    json_t *opts = json_object_get(sc, "options");
    json_t *jn = json_object_get(sc, "seats");
    json_t *pos = json_object_get(sc, "position");
    int nseats = json_is_integer(jn) ? (int)json_integer_value(jn) : 2;
    if (json_is_array(json_object_get(pos, "seats"))) {
        nseats = (int)json_array_size(json_object_get(pos, "seats"));
    }
    json_t *js = json_object_get(sc, "seed");
    int seed = json_is_integer(js) ? (int)json_integer_value(js) : 1;
    struct game_setup su;
    setup_names(&su, nseats, seed);
    struct arc_state *st = calloc(1, g->state_size);
    struct game_error err;
    ck_assert_msg(game_start(g, st, opts, &su, &err) == GAME_OK, "%s: init failed: %s", id,
                  err.message);
    if (pos) {
        ck_assert_msg(arc__state_load(pos, st, &err) == GAME_OK, "%s: %s", id, err.message);
        arc__settle(st);
    }
    ck_assert_msg(g->check_invariants(st, &err) == 0, "%s: position breaks %s", id, err.message);
    return st;
}

static void check_list(const json_t *step, const struct arc_state *st, const char *tag)
{
    const struct game_ops *g = &arcana_game;
    json_t *ls = json_object_get(step, "legal_seat");
    int lseat = json_is_integer(ls) ? (int)json_integer_value(ls) : first_active(st);
    json_t *listed = g->legal(st, lseat);
    size_t i;
    json_t *a;
    ck_assert_ptr_nonnull(listed);
    json_array_foreach(json_object_get(step, "legal_has"), i, a) {
        char *t = json_dumps(a, JSON_COMPACT);
        char *l = json_dumps(listed, JSON_COMPACT);
        ck_assert_msg(in_list(listed, a), "%s: the list lacks %s: %s", tag, t, l);
        free(t);
        free(l);
    }
    json_array_foreach(json_object_get(step, "legal_lacks"), i, a) {
        char *t = json_dumps(a, JSON_COMPACT);
        ck_assert_msg(!in_list(listed, a), "%s: the list has %s", tag, t);
        free(t);
    }
    json_t *count = json_object_get(step, "legal_count");
    if (count) {
        char *l = json_dumps(listed, JSON_COMPACT);
        ck_assert_msg((json_int_t)json_array_size(listed) == json_integer_value(count),
                      "%s: %zu listed, want %lld: %s", tag, json_array_size(listed),
                      (long long)json_integer_value(count), l);
        free(l);
    }
    json_t *exact = json_object_get(step, "legal_exact");
    if (exact) {
        char *t = json_dumps(listed, JSON_COMPACT);
        ck_assert_msg(json_equal(exact, listed), "%s: the list is %s", tag, t);
        free(t);
    }
    json_array_foreach(listed, i, a) {
        struct arc_state *copy = malloc(sizeof(*copy));
        struct game_error err;
        memcpy(copy, st, sizeof(*copy));
        char *t = json_dumps(a, JSON_COMPACT);
        ck_assert_msg(game_apply(g, copy, lseat, a, &err) == GAME_OK, "%s: listed %s refused: %s",
                      tag, t, err.message);
        ck_assert_msg(g->check_invariants(copy, &err) == 0, "%s: after %s: %s", tag, t,
                      err.message);
        free(t);
        free(copy);
    }
    json_decref(listed);
}

/* A step's "timeout": "forfeit" or "skip" by "seat" (default the lowest
 * active seat), with an optional "error" as for an action. An accepted one
 * keeps the invariants and, run again on the position before, gives the
 * same bytes: what a restarted server's replay of it gives. */
static void run_timeout(struct arc_state *st, const json_t *step, const char *tag)
{
    const struct game_ops *g = &arcana_game;
    const char *op = json_string_value(json_object_get(step, "timeout"));
    if (!op) {
        return;
    }
    int (*fn)(void *, int, struct game_error *) = strcmp(op, "forfeit") == 0 ? g->forfeit : g->skip;
    ck_assert_ptr_nonnull(fn);
    json_t *js = json_object_get(step, "seat");
    int seat = json_is_integer(js) ? (int)json_integer_value(js) : first_active(st);
    const char *error = json_string_value(json_object_get(step, "error"));
    struct arc_state *before = malloc(sizeof(*before));
    memcpy(before, st, sizeof(*before));
    struct game_error err;
    int rc = fn(st, seat, &err);
    if (error) {
        ck_assert_msg(strcmp(status_name(rc), error) == 0, "%s: %s gave %s, want %s", tag, op,
                      status_name(rc), error);
        ck_assert_msg(memcmp(before, st, sizeof(*before)) == 0, "%s: refused %s changed the state",
                      tag, op);
        const char *want = json_string_value(json_object_get(step, "message_has"));
        ck_assert_msg(!want || strstr(err.message, want), "%s: message \"%s\" lacks \"%s\"", tag,
                      err.message, want ? want : "");
    } else {
        ck_assert_msg(rc == GAME_OK, "%s: %s refused (%s): %s", tag, op, status_name(rc),
                      err.message);
        ck_assert_int_eq(fn(before, seat, &err), GAME_OK);
        ck_assert_msg(memcmp(before, st, sizeof(*before)) == 0, "%s: %s replayed differs", tag, op);
    }
    free(before);
}

/* A step's "undoable": true or false, the answer undoable() must give for
 * its accepted "action" (`before` to `after`, by `seat`). */
static void check_undoable(const json_t *step, const struct arc_state *before,
                           const struct arc_state *after, int seat, const char *tag)
{
    json_t *want = json_object_get(step, "undoable");
    if (!want) {
        return;
    }
    ck_assert_msg(json_is_boolean(want), "%s: \"undoable\" is not a boolean", tag);
    bool got = arcana_game.undoable(before, after, seat);
    ck_assert_msg(got == json_is_true(want), "%s: undoable is %s, want %s", tag,
                  got ? "true" : "false", json_is_true(want) ? "true" : "false");
}

/* The view's log_keys against lang/arcana.json (logkeys.h). */
static void check_log_keys(const struct arc_state *st, const char *tag)
{
    json_t *v = game_view_public(&arcana_game, st);
    log_keys_check(catalogue, v, tag, NULL);
    json_decref(v);
}

static void run_step(struct arc_state *st, const json_t *step, const char *tag)
{
    const struct game_ops *g = &arcana_game;
    struct game_error err;
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(step, "actions"), i, a) {
        char *t = json_dumps(a, JSON_COMPACT);
        int rc = game_apply(g, st, first_active(st), a, &err);
        ck_assert_msg(rc == GAME_OK, "%s: %s refused (%s): %s", tag, t, status_name(rc),
                      err.message);
        free(t);
        ck_assert_msg(g->check_invariants(st, &err) == 0, "%s: %s", tag, err.message);
    }
    json_t *autos = json_object_get(step, "auto");
    for (json_int_t k = 0; autos && k < json_integer_value(autos); k++) {
        int seat = first_active(st);
        json_t *listed = g->legal(st, seat);
        ck_assert_msg(json_array_size(listed) > 0, "%s: auto step with nothing listed", tag);
        int rc = game_apply(g, st, seat, json_array_get(listed, 0), &err);
        ck_assert_msg(rc == GAME_OK, "%s: auto step refused: %s", tag, err.message);
        json_decref(listed);
    }
    run_timeout(st, step, tag);
    json_t *action = json_object_get(step, "action");
    if (action) {
        json_t *js = json_object_get(step, "seat");
        int seat = json_is_integer(js) ? (int)json_integer_value(js) : first_active(st);
        const char *error = json_string_value(json_object_get(step, "error"));
        struct arc_state *before = malloc(sizeof(*before));
        memcpy(before, st, sizeof(*before));
        int rc = game_apply(g, st, seat, action, &err);
        char *t = json_dumps(action, JSON_COMPACT);
        if (error) {
            ck_assert_msg(strcmp(status_name(rc), error) == 0, "%s: %s gave %s (%s), want %s", tag,
                          t, status_name(rc), rc ? err.message : "", error);
            ck_assert_msg(memcmp(before, st, sizeof(*before)) == 0,
                          "%s: refused %s changed the state", tag, t);
            const char *want = json_string_value(json_object_get(step, "message_has"));
            ck_assert_msg(!want || strstr(err.message, want), "%s: message \"%s\" lacks \"%s\"",
                          tag, err.message, want ? want : "");
            json_t *legal = g->legal(st, seat);
            ck_assert_msg(!in_list(legal, action), "%s: refused %s is listed", tag, t);
            json_decref(legal);
        } else {
            ck_assert_msg(rc == GAME_OK, "%s: %s refused (%s): %s", tag, t, status_name(rc),
                          err.message);
            check_undoable(step, before, st, seat, tag);
        }
        free(before);
        free(t);
    }
    ck_assert_msg(g->check_invariants(st, &err) == 0, "%s: %s", tag, err.message);
    check_log_keys(st, tag);
    check_list(step, st, tag);
    json_t *view = json_object_get(step, "view");
    if (view) {
        json_t *vs = json_object_get(step, "view_seat");
        json_t *v = game_view(g, st, json_is_integer(vs) ? (int)json_integer_value(vs) : -1);
        const char *path;
        json_t *want;
        ck_assert_ptr_nonnull(v);
        json_object_foreach(view, path, want) {
            json_t *got = pointer(v, path);
            char *w = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
            char *gt = got ? json_dumps(got, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
            ck_assert_msg(got && json_equal(got, want), "%s: %s is %s, want %s", tag, path,
                          gt ? gt : "(missing)", w);
            free(w);
            free(gt);
        }
        json_decref(v);
    }
    json_t *active = json_object_get(step, "active");
    if (active) {
        json_t *v = game_view_public(g, st);
        char *t = json_dumps(json_object_get(v, "active"), JSON_COMPACT);
        ck_assert_msg(json_equal(json_object_get(v, "active"), active), "%s: active is %s", tag, t);
        free(t);
        json_decref(v);
    }
}

START_TEST(test_scenario)
{
    json_t *sc = json_array_get(scenarios, (size_t)_i);
    const char *id = json_string_value(json_object_get(sc, "id"));
    ck_assert_msg(id && json_string_value(json_object_get(sc, "rule")),
                  "scenario %d lacks an id or a rule", _i);
    struct arc_state *st = build(sc, id);
    size_t k;
    json_t *step;
    json_array_foreach(json_object_get(sc, "steps"), k, step) {
        char tag[160];
        snprintf(tag, sizeof(tag), "%s (%s) step %zu", id,
                 json_string_value(json_object_get(sc, "title")), k);
        run_step(st, step, tag);
    }
    free(st);
}
END_TEST

/* Options: the values, the defaults and the refusals. */
START_TEST(test_options)
{
    const struct game_ops *g = &arcana_game;
    struct game_error err;
    static const char *ok[] = {"{}", "{\"setup\":\"standard\"}", "{\"setup\":\"first_game\"}",
                               "{\"setup\":\"draft\"}", "{\"duel\":false}"};
    static const char *bad[] = {"{\"setup\":\"x\"}", "{\"setup\":1}", "{\"duel\":1}",
                                "{\"colour\":\"x\"}", "[]"};
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        json_t *o = json_loads(ok[i], 0, NULL);
        for (int n = 2; n <= 4; n++) {
            ck_assert_int_eq(g->check_options(o, n, &err), GAME_OK);
        }
        ck_assert_int_eq(g->check_options(o, 1, &err), GAME_E_BAD_OPTION);
        ck_assert_int_eq(g->check_options(o, 5, &err), GAME_E_BAD_OPTION);
        json_decref(o);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        json_t *o = json_loads(bad[i], 0, NULL);
        ck_assert_int_eq(g->check_options(o, 2, &err), GAME_E_BAD_OPTION);
        json_decref(o);
    }
    json_t *duel = json_loads("{\"duel\":true}", 0, NULL);
    ck_assert_int_eq(g->check_options(duel, 2, &err), GAME_OK);
    ck_assert_int_eq(g->check_options(duel, 3, &err), GAME_E_BAD_OPTION);
    json_decref(duel);
}
END_TEST

int main(int argc, char **argv)
{
    scenarios = scenarios_load(argc > 1 ? argv[1] : "scenarios");
    catalogue = log_keys_catalogue(argc > 2 ? argv[2] : "lang/arcana.json");
    if (!catalogue) {
        return 1;
    }
    Suite *s = suite_create("arcana");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_options);
    tcase_add_loop_test(tc, test_scenario, 0, (int)json_array_size(scenarios));
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    json_decref(scenarios);
    json_decref(catalogue);
    return failed ? 1 : 0;
}
