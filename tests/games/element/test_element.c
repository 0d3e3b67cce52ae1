/* SPDX-License-Identifier: MIT */
/*
 * test_element.c - rule tests of the Element core. Data-driven scenarios
 * (the .json files of scenarios/, one array of scenarios per file, each
 * citing its section of docs/rules/element.md and its test T-nn) run
 * through the game_ops table of game.h and game_apply(), the way the
 * server does; refusals are checked byte for byte with memcmp. A scenario
 * is {"id", "rule", "title", "seats", "options", "position", "steps"}:
 * the position overlays a game started by init (element_state_load), by
 * default P1 to act after the draw with five steps and the Sages on a11,
 * k1, k11 and a1; each step may hold "actions" (each must be accepted),
 * then "action" with an optional "error" (the refusal's status; the state
 * must stay byte-identical and the action must not be listed), and checks
 * of the result: "expect" (a subset of element_state_dump), "view" (a
 * subset of the public view), "listed_exact", "listed_has", "listed_lacks"
 * "listed_count" (the legal list of "legal_seat", default the seat to
 * act). A step's "timeout" ("forfeit" or "skip", by "seat", with an
 * optional "error") runs before its "action" (see run_timeout). A
 * scenario marked "invariants": false (a fixture that lists
 * only the stones that matter and sets the bag by hand) skips the stone
 * count checks. An accepted "action" may be followed by "undoable": true
 * or false, what undoable() answers for it. After every step the view's
 * "log_keys" is held to the message catalogue lang/element.json (one
 * message a line of "log", whose English template is the line), and a
 * step's "log_keys_has" lists messages it must hold. The scenario
 * directory is passed as argv[1] by meson, the catalogue as argv[2].
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "element.h"
#include "game.h"
#include "logkeys.h"
#include "scenarios.h"

static json_t *scenarios;
static const char *scen_dir;
static json_t *catalogue; /* lang/element.json */

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
    case GAME_E_BAD_OPTION:
        return "bad_option";
    default:
        return "other";
    }
}

/* Subset match: every member of `want` must be equal in `got`. */
static int match(const json_t *want, const json_t *got, char *path, size_t plen, char *why,
                 size_t wlen)
{
    if (json_is_object(want)) {
        if (!json_is_object(got)) {
            snprintf(why, wlen, "%s: not an object", path);
            return 0;
        }
        const char *key;
        json_t *val;
        json_object_foreach((json_t *)want, key, val) {
            size_t n = strlen(path);
            snprintf(path + n, plen - n, ".%s", key);
            if (json_is_null(val) && !json_object_get(got, key)) {
                path[n] = 0;
                continue; /* null: the member is absent (or null) */
            }
            if (!match(val, json_object_get(got, key), path, plen, why, wlen)) {
                return 0;
            }
            path[n] = 0;
        }
        return 1;
    }
    if (!got || !json_equal((json_t *)want, (json_t *)got)) {
        char *w = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
        char *g = got ? json_dumps(got, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        snprintf(why, wlen, "%s: want %s, got %s", path, w ? w : "?", g ? g : "(missing)");
        free(w);
        free(g);
        return 0;
    }
    return 1;
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

/* ---- Log messages ---- */

/* The public view of `st` against lang/element.json (logkeys.h), and the
 * messages of the step's "log_keys_has" (a NULL step: none). */
static void check_log_keys(const struct element_state *st, const json_t *step, const char *tag)
{
    json_t *v = game_view_public(&element_game, st);
    log_keys_check(catalogue, v, tag, NULL);
    log_keys_has(v, json_object_get(step, "log_keys_has"), tag);
    json_decref(v);
}

/* The position of a scenario over the defaults of docs/rules/element.md 9. */
static struct element_state *build(const json_t *sc, const char *id)
{
    const struct game_ops *g = &element_game;
    json_t *opts = json_object_get(sc, "options");
    int nseats = json_is_integer(json_object_get(sc, "seats"))
                     ? (int)json_integer_value(json_object_get(sc, "seats"))
                     : 2;
    int seed = json_is_integer(json_object_get(sc, "seed"))
                   ? (int)json_integer_value(json_object_get(sc, "seed"))
                   : 1;
    struct game_setup su;
    setup_names(&su, nseats, seed);
    struct element_state *st = calloc(1, g->state_size);
    struct game_error err;
    ck_assert_msg(g->init(st, opts, &su, &err) == GAME_OK, "%s: init failed: %s", id, err.message);
    json_t *given = json_object_get(sc, "position");
    if (json_is_false(given)) {
        return st; /* the game as init made it */
    }
    json_t *pos = json_pack("{s:{}, s:[ssss], s:i, s:i, s:s, s:i, s:i, s:i, s:i, s:{}}", "board",
                            "sages", "a11", "k1", "k11", "a1", "cur", 0, "first", 0, "phase", "act",
                            "steps", 5, "drawn", 0, "round", 1, "jumps", 0, "hand");
    json_array_remove(json_object_get(pos, "sages"), 3);
    if (nseats < 3) {
        json_array_remove(json_object_get(pos, "sages"), 2);
    }
    if (nseats == 4) {
        json_array_append_new(json_object_get(pos, "sages"), json_string("a1"));
    }
    if (given) {
        json_object_update(pos, given);
    }
    ck_assert_msg(element_state_load(pos, st) == 0, "%s: position does not load", id);
    json_decref(pos);
    if (!json_is_false(json_object_get(sc, "invariants"))) {
        ck_assert_msg(g->check_invariants(st, &err) == 0, "%s: position breaks %s", id,
                      err.message);
    }
    return st;
}

static void check_list(const json_t *step, const struct element_state *st, const char *tag)
{
    const struct game_ops *g = &element_game;
    int lseat = json_is_integer(json_object_get(step, "legal_seat"))
                    ? (int)json_integer_value(json_object_get(step, "legal_seat"))
                    : st->c.cur;
    json_t *listed = g->legal(st, lseat);
    size_t i;
    json_t *a;
    ck_assert_ptr_nonnull(listed);
    json_array_foreach(json_object_get(step, "listed_has"), i, a) {
        char *t = json_dumps(a, JSON_COMPACT);
        ck_assert_msg(in_list(listed, a), "%s: the list lacks %s", tag, t);
        free(t);
    }
    json_array_foreach(json_object_get(step, "listed_lacks"), i, a) {
        char *t = json_dumps(a, JSON_COMPACT);
        ck_assert_msg(!in_list(listed, a), "%s: the list has %s", tag, t);
        free(t);
    }
    json_t *count = json_object_get(step, "listed_count");
    if (count) {
        ck_assert_msg((json_int_t)json_array_size(listed) == json_integer_value(count),
                      "%s: %zu listed, want %lld", tag, json_array_size(listed),
                      (long long)json_integer_value(count));
    }
    json_t *exact = json_object_get(step, "listed_exact");
    if (exact) {
        char *t = json_dumps(listed, JSON_COMPACT);
        ck_assert_msg(json_equal(exact, listed), "%s: the list is %s", tag, t);
        free(t);
    }
    /* Every listed action is accepted as it is. */
    json_array_foreach(listed, i, a) {
        struct element_state *copy = malloc(sizeof(*copy));
        struct game_error err;
        memcpy(copy, st, sizeof(*copy));
        char *t = json_dumps(a, JSON_COMPACT);
        ck_assert_msg(game_apply(g, copy, lseat, a, &err) == GAME_OK, "%s: listed %s refused: %s",
                      tag, t, err.message);
        free(t);
        free(copy);
    }
    json_decref(listed);
}

/* A step's "timeout": "forfeit" or "skip" by "seat" (default the seat to
 * move), with an optional "error" as for an action. An accepted one, run
 * again on the position before, gives the same bytes (a restarted
 * server's replay), and its state dumped and loaded into a new game dumps
 * the same (the codec carries the result). */
static void run_timeout(struct element_state *st, const json_t *step, int seat, const char *tag)
{
    const struct game_ops *g = &element_game;
    const char *op = json_string_value(json_object_get(step, "timeout"));
    if (!op) {
        return;
    }
    int (*fn)(void *, int, struct game_error *) = strcmp(op, "forfeit") == 0 ? g->forfeit : g->skip;
    ck_assert_ptr_nonnull(fn);
    const char *error = json_string_value(json_object_get(step, "error"));
    struct element_state before;
    memcpy(&before, st, sizeof(before));
    struct game_error err;
    int rc = fn(st, seat, &err);
    if (error) {
        ck_assert_msg(strcmp(status_name(rc), error) == 0, "%s: %s gave %s, want %s", tag, op,
                      status_name(rc), error);
        ck_assert_msg(memcmp(&before, st, sizeof(before)) == 0, "%s: refused %s changed the state",
                      tag, op);
        const char *want = json_string_value(json_object_get(step, "message_has"));
        ck_assert_msg(!want || strstr(err.message, want), "%s: message \"%s\" lacks \"%s\"", tag,
                      err.message, want ? want : "");
        return;
    }
    ck_assert_msg(rc == GAME_OK, "%s: %s refused (%s): %s", tag, op, status_name(rc), err.message);
    ck_assert_int_eq(fn(&before, seat, &err), GAME_OK);
    ck_assert_msg(memcmp(&before, st, sizeof(before)) == 0, "%s: %s replayed differs", tag, op);
    struct game_setup su;
    setup_names(&su, st->c.nseats, 1);
    struct element_state *fresh = calloc(1, sizeof(*fresh));
    ck_assert_int_eq(g->init(fresh, NULL, &su, &err), GAME_OK);
    fresh->c.silver = st->c.silver;
    json_t *dump = element_state_dump(st);
    ck_assert_msg(element_state_load(dump, fresh) == 0, "%s: the dump does not load", tag);
    json_t *again = element_state_dump(fresh);
    char *t = json_dumps(dump, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_msg(json_equal(dump, again), "%s: the dump does not round-trip: %s", tag, t);
    free(t);
    json_decref(dump);
    json_decref(again);
    free(fresh);
}

/* A step's "undoable": true or false, the answer undoable() must give for
 * its accepted "action" (`before` to `after`, by `seat`). */
static void check_undoable(const json_t *step, const struct element_state *before,
                           const struct element_state *after, int seat, const char *tag)
{
    json_t *want = json_object_get(step, "undoable");
    if (!want) {
        return;
    }
    ck_assert_msg(json_is_boolean(want), "%s: \"undoable\" is not a boolean", tag);
    bool got = element_game.undoable(before, after, seat);
    ck_assert_msg(got == json_is_true(want), "%s: undoable is %s, want %s", tag,
                  got ? "true" : "false", json_is_true(want) ? "true" : "false");
}

static void run_step(struct element_state *st, const json_t *step, const char *tag, bool inv)
{
    const struct game_ops *g = &element_game;
    struct game_error err;
    size_t i;
    json_t *a;
    int seat = json_is_integer(json_object_get(step, "seat"))
                   ? (int)json_integer_value(json_object_get(step, "seat"))
                   : st->c.cur;

    json_array_foreach(json_object_get(step, "actions"), i, a) {
        char *t = json_dumps(a, JSON_COMPACT);
        int rc = game_apply(g, st, st->c.cur, a, &err);
        ck_assert_msg(rc == GAME_OK, "%s: %s refused (%s): %s", tag, t, status_name(rc),
                      err.message);
        free(t);
        ck_assert_msg(!inv || g->check_invariants(st, &err) == 0, "%s: %s", tag, err.message);
    }
    run_timeout(st, step, seat, tag);
    json_t *action = json_object_get(step, "action");
    if (action) {
        const char *error = json_string_value(json_object_get(step, "error"));
        struct element_state before;
        memcpy(&before, st, sizeof(before));
        int rc = game_apply(g, st, seat, action, &err);
        char *t = json_dumps(action, JSON_COMPACT);
        if (error) {
            ck_assert_msg(strcmp(status_name(rc), error) == 0, "%s: %s gave %s (%s), want %s", tag,
                          t, status_name(rc), rc ? err.message : "", error);
            ck_assert_msg(memcmp(&before, st, sizeof(before)) == 0,
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
            check_undoable(step, &before, st, seat, tag);
        }
        free(t);
    }
    ck_assert_msg(!inv || g->check_invariants(st, &err) == 0, "%s: %s", tag, err.message);
    check_list(step, st, tag);
    char path[256] = "";
    char why[512] = "";
    json_t *expect = json_object_get(step, "expect");
    if (expect) {
        json_t *dump = element_state_dump(st);
        ck_assert_msg(match(expect, dump, path, sizeof(path), why, sizeof(why)), "%s: %s", tag,
                      why);
        json_decref(dump);
    }
    json_t *view = json_object_get(step, "view");
    if (view) {
        json_t *v = game_view_public(g, st);
        path[0] = 0;
        ck_assert_msg(match(view, v, path, sizeof(path), why, sizeof(why)), "%s: view %s", tag,
                      why);
        json_decref(v);
    }
    check_log_keys(st, step, tag);
}

START_TEST(test_scenario)
{
    json_t *sc = json_array_get(scenarios, (size_t)_i);
    const char *id = json_string_value(json_object_get(sc, "id"));
    ck_assert_msg(id && json_string_value(json_object_get(sc, "rule")),
                  "scenario %d lacks an id "
                  "or a rule",
                  _i);
    struct element_state *st = build(sc, id);
    size_t k;
    json_t *step;
    json_array_foreach(json_object_get(sc, "steps"), k, step) {
        char tag[128];
        snprintf(tag, sizeof(tag), "%s (%s) step %zu", id,
                 json_string_value(json_object_get(sc, "title")), k);
        run_step(st, step, tag, !json_is_false(json_object_get(sc, "invariants")));
    }
    free(st);
}
END_TEST

/* Options: the five values, the defaults and the refusals. */
START_TEST(test_options)
{
    const struct game_ops *g = &element_game;
    struct game_error err;
    static const char *ok[] = {"{}",
                               "{\"silver\":\"none\"}",
                               "{\"silver\":\"lightning\"}",
                               "{\"silver\":\"wood\"}",
                               "{\"silver\":\"metal\"}",
                               "{\"silver\":\"random\"}"};
    static const char *bad[] = {"{\"silver\":\"gold\"}", "{\"silver\":1}", "{\"colour\":\"x\"}",
                                "[]"};
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
    ck_assert_int_eq(g->check_options(NULL, 2, &err), GAME_OK);
}
END_TEST

/* R-element-3: start squares, bag, first player, random Silver shown. */
START_TEST(test_setup)
{
    const struct game_ops *g = &element_game;
    struct game_error err;
    struct game_setup su;
    int seen[4] = {0, 0, 0, 0};
    for (int seed = 0; seed < 40; seed++) {
        for (int n = 2; n <= 4; n++) {
            struct element_state st;
            json_t *o = json_pack("{s:s}", "silver", "random");
            setup_names(&su, n, seed);
            ck_assert_int_eq(game_start(g, &st, o, &su, &err), GAME_OK);
            json_decref(o);
            ck_assert_int_ne(st.c.silver, ELEMENT_SILVER_NONE);
            seen[st.c.silver]++;
            ck_assert_int_eq(st.c.phase, ELEMENT_PH_DRAW);
            ck_assert_int_eq(st.c.cur, st.c.first);
            ck_assert_int_eq(st.c.round, 1);
            for (int s = 0; s < n; s++) {
                ck_assert_int_eq(st.c.sage[s], element_start_square[n - 2][s]);
            }
            for (int t = 0; t < ELEMENT_NTYPES; t++) {
                ck_assert_int_eq(st.c.bag[t], 30);
            }
            json_t *v = game_view_public(g, &st);
            ck_assert_str_eq(json_string_value(json_object_get(v, "silver")),
                             element_silver_name[st.c.silver]);
            ck_assert(json_is_null(json_object_get(v, "result")));
            json_decref(v);
        }
    }
    ck_assert(seen[1] > 0 && seen[2] > 0 && seen[3] > 0);
}
END_TEST

/* Seeded random games of every Silver option and seat count, a skipped
 * turn now and then: after every action each line of the log has its
 * message, whose English template is the line and whose typed arguments
 * the catalogue translates. */
START_TEST(test_log_keys_playouts)
{
    static const char *const silver[] = {"none", "lightning", "wood", "metal"};
    const struct game_ops *g = &element_game;
    uint64_t x = 7;
    for (int i = 0; i < 12; i++) {
        struct game_setup su;
        struct game_error err;
        struct element_state *st = calloc(1, g->state_size);
        struct element_state *scratch = malloc(g->state_size);
        json_t *o = json_pack("{s:s}", "silver", silver[i % 4]);
        setup_names(&su, 2 + i % 3, i);
        ck_assert_int_eq(g->init(st, o, &su, &err), GAME_OK);
        json_decref(o);
        for (int n = 0; n < 3000 && g->active(st); n++) {
            char tag[64];
            snprintf(tag, sizeof(tag), "%s game %d action %d", silver[i % 4], i, n);
            int seat = element__current_seat(st);
            x = x * 6364136223846793005u + 1442695040888963407u;
            if ((x >> 33) % 50 == 0) {
                memcpy(scratch, st, g->state_size);
                if (g->skip(scratch, seat, &err) == GAME_OK) {
                    memcpy(st, scratch, g->state_size);
                    check_log_keys(st, NULL, tag);
                    continue;
                }
            }
            json_t *legal = g->legal(st, seat);
            ck_assert_uint_gt(json_array_size(legal), 0);
            json_t *a = json_array_get(legal, (x >> 33) % json_array_size(legal));
            ck_assert_int_eq(game_apply(g, st, seat, a, &err), GAME_OK);
            json_decref(legal);
            check_log_keys(st, NULL, tag);
        }
        free(scratch);
        free(st);
    }
}
END_TEST

int main(int argc, char **argv)
{
    scen_dir = argc > 1 ? argv[1] : "scenarios";
    scenarios = scenarios_load(scen_dir);
    catalogue = log_keys_catalogue(argc > 2 ? argv[2] : "lang/element.json");
    if (!catalogue) {
        return 1;
    }
    Suite *s = suite_create("element");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_options);
    tcase_add_test(tc, test_setup);
    tcase_add_loop_test(tc, test_scenario, 0, (int)json_array_size(scenarios));
    tcase_add_test(tc, test_log_keys_playouts);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    json_decref(scenarios);
    json_decref(catalogue);
    return failed ? 1 : 0;
}
