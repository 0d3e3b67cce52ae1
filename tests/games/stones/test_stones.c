/* SPDX-License-Identifier: MIT */
/*
 * test_stones.c - rule tests of the Sorcerer & Stones core. Data-driven
 * scenarios (the .json files of scenarios/, one array of scenarios per
 * file, each citing its section of docs/rules/stones.md) run through the
 * game_ops table of game.h and the game_apply()/game_view() sequence of
 * common/game.c that the server uses; refusals are checked byte for byte
 * with memcmp. Separate cases test option checking, the setup of every
 * variant, the view's hiding of secret data, the order of the view's
 * sections and the honesty of the change mask over random playouts. Every
 * view's "log_keys" is held to the message catalogue lang/stones.json: one
 * message a line of "log", whose English template is the line. The
 * scenario directory is passed as argv[1] by meson, the catalogue as
 * argv[2]. This file never changes the core; it only drives it through
 * its interfaces.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "logkeys.h"
#include "stones.h"
#include "scenarios.h"

static json_t *scenarios; /* array of scenario objects, loaded once */
static json_t *catalogue; /* lang/stones.json, loaded once */
/* States saved by a scenario's "save" key, for "same_as" (per scenario). */
static struct stones_state saved[4];
static char saved_name[4][32];
static int nsaved;
static const char *scen_dir;

static const char *p0_tiles[5][2] = {
    {"Tn", "YGBR"}, {"Tw", "GRBN"}, {"Tc", "GNYB"}, {"Te", "YGRN"}, {"Ts", "GYNR"},
};

/* ---- Helpers ---- */

static void setup_names(struct game_setup *su, int nseats, int seed)
{
    static const char *names[] = {"Ann", "Bo", "Cy", "Di"};
    memset(su, 0, sizeof(*su));
    su->nseats = nseats;
    for (int s = 0; s < nseats; s++) {
        snprintf(su->names[s], GAME_NAME_MAX, s < 4 ? "%s" : "%s%d", names[s % 4], s / 4);
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
            if (!match(val, json_object_get(got, key), path, plen, why, wlen)) {
                return 0;
            }
            path[n] = 0;
        }
        return 1;
    }
    if (json_is_array(want) && json_is_array(got) &&
        json_array_size(want) == json_array_size(got)) {
        for (size_t i = 0; i < json_array_size(want); i++) {
            size_t n = strlen(path);
            snprintf(path + n, plen - n, "[%zu]", i);
            if (!match(json_array_get(want, i), json_array_get(got, i), path, plen, why, wlen)) {
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

/* ---- Log messages ---- */

/* The public view of `st` against lang/stones.json (logkeys.h), and the
 * messages of a step's "log_keys_has" (NULL: none). */
static void check_view_log(const void *st, const json_t *has, const char *tag)
{
    json_t *view = game_view_public(&stones_game, st);
    log_keys_check(catalogue, view, tag, NULL);
    log_keys_has(view, has, tag);
    json_decref(view);
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

/* 1 while a decision is being made step by step (R-stones-4.2, 4.6, 1.5):
 * a cast, a pay_pair or an O7 pay_step is partly chosen. */
static int choosing(const struct stones_state *s)
{
    return s->sel_card >= 0 || s->pay_for >= 0 || s->step_pair >= 0;
}

/*
 * Appends to `moves` the moves that the listed actions of `st` lead to:
 * a listed action that completes a decision is a move as it is; one that
 * only takes a step (the state is still choosing) is followed into the
 * list of the position after it, cancel aside. Every listed action must
 * be accepted. The result is what the one-shot forms of the rules allow,
 * so the legal_* keys of a scenario name moves, however they are listed.
 */
static void expand_moves(const void *st, int seat, json_t *moves, int depth)
{
    const struct game_ops *g = &stones_game;
    json_t *legal = g->legal(st, seat);
    void *next = malloc(g->state_size);
    ck_assert_ptr_nonnull(legal);
    ck_assert_int_lt(depth, 4);
    size_t i;
    json_t *a;
    json_array_foreach(legal, i, a) {
        if (strcmp(json_string_value(json_object_get(a, "type")), "cancel") == 0) {
            continue;
        }
        struct game_error err;
        char *t = json_dumps(a, JSON_COMPACT);
        ck_assert_msg(game_try(g, st, next, seat, a, &err) == GAME_OK, "listed %s refused: %s", t,
                      err.message);
        free(t);
        if (choosing(next) && stones__current_seat(next) == seat) {
            expand_moves(next, seat, moves, depth + 1);
        } else {
            json_array_append(moves, a);
        }
    }
    free(next);
    json_decref(legal);
}

/* The game of a scenario right after init(), before its position. */
static void *init_game(const json_t *sc, const char *id)
{
    const struct game_ops *g = &stones_game;
    const char *variant = json_string_value(json_object_get(sc, "variant"));
    json_t *opts = json_object_get(sc, "options");
    json_t *own = NULL;
    if (!opts) {
        own = json_pack("{s:s}", "variant", variant ? variant : "standard");
        opts = own;
    }
    int nseats = json_is_integer(json_object_get(sc, "seats"))
                     ? (int)json_integer_value(json_object_get(sc, "seats"))
                     : 4;
    int seed = json_is_integer(json_object_get(sc, "seed"))
                   ? (int)json_integer_value(json_object_get(sc, "seed"))
                   : 1;
    struct game_setup su;
    setup_names(&su, nseats, seed);
    void *st = calloc(1, g->state_size);
    struct game_error err;
    int rc = g->init(st, opts, &su, &err);
    json_decref(own);
    ck_assert_msg(rc == GAME_OK, "%s: init failed: %s", id, err.message);
    return st;
}

/* Builds the game of a scenario: init, then the position overlay. */
static void *build(const json_t *sc, const char *id)
{
    const struct game_ops *g = &stones_game;
    struct game_error err;
    void *st = init_game(sc, id);
    json_t *pos = json_deep_copy(json_object_get(sc, "position"));
    if (!pos) {
        pos = json_object();
    }
    struct stones_state *s = st;
    if (!json_is_false(json_object_get(pos, "p0"))) {
        json_t *tiles = json_object_get(pos, "tiles");
        if (!tiles) {
            tiles = json_object();
            json_object_set_new(pos, "tiles", tiles);
        }
        for (int t = 0; t < 5; t++) {
            if (!json_object_get(tiles, p0_tiles[t][0])) {
                json_object_set_new(tiles, p0_tiles[t][0], json_string(p0_tiles[t][1]));
            }
        }
    }
    json_object_del(pos, "p0");
    if (s->variant == STONES_STANDARD && !json_object_get(pos, "objectives")) {
        json_object_set_new(pos, "objectives", json_array());
    }
    /* Default rows: every player holds SPIN-1, FLY-1, QUAKE-1, FLY-2. */
    json_t *players = json_object_get(pos, "players");
    if (!players) {
        players = json_object();
        json_object_set_new(pos, "players", players);
    }
    for (int p = 0; p < s->np; p++) {
        const char *cn = stones_colour_name[s->pl[p].colour];
        json_t *po = json_object_get(players, cn);
        if (!po) {
            po = json_object();
            json_object_set_new(players, cn, po);
        }
        if (!json_object_get(po, "row") && !json_object_get(po, "deck")) {
            json_object_set_new(po, "row",
                                json_pack("[ssss]", "SPIN-1", "FLY-1", "QUAKE-1", "FLY-2"));
        }
    }
    if (!json_object_get(pos, "current") && !json_is_true(json_object_get(sc, "setup_phase"))) {
        json_object_set_new(pos, "current",
                            json_string(stones_colour_name[s->pl[s->start].colour]));
    }
    ck_assert_msg(stones_state_load(pos, st) == 0, "%s: position does not load", id);
    json_decref(pos);
    if (!json_is_false(json_object_get(sc, "invariants"))) {
        ck_assert_msg(g->check_invariants(st, &err) == 0, "%s: position breaks %s", id,
                      err.message);
    }
    return st;
}

static void apply_ok(void *st, int seat, json_t *a, const char *id)
{
    struct game_error err;
    int rc = game_apply(&stones_game, st, seat, a, &err);
    char *t = json_dumps(a, JSON_COMPACT);
    ck_assert_msg(rc == GAME_OK, "%s: %s refused (%s): %s", id, t, status_name(rc), err.message);
    free(t);
}

/*
 * R-stones-6.3: runs a clock's timeout ("forfeit" or "skip") for `seat`,
 * straight on the state as the server does on its scratch copy. With
 * `error` the refusal must have that status and leave the state as it was.
 */
static void run_timeout(void *st, int seat, const char *op, const char *error, const char *tag)
{
    const struct game_ops *g = &stones_game;
    struct stones_state before;
    struct game_error err;
    memcpy(&before, st, sizeof(before));
    int rc = strcmp(op, "forfeit") == 0 ? g->forfeit(st, seat, &err) : g->skip(st, seat, &err);
    if (error) {
        ck_assert_msg(strcmp(status_name(rc), error) == 0, "%s: %s gave %s, want %s", tag, op,
                      status_name(rc), error);
        ck_assert_msg(memcmp(&before, st, sizeof(before)) == 0, "%s: refused %s changed the state",
                      tag, op);
    } else {
        ck_assert_msg(rc == GAME_OK, "%s: %s refused (%s): %s", tag, op, status_name(rc),
                      err.message);
    }
}

/*
 * The position dump reloads, onto the scenario's game fresh from init(),
 * to a position that dumps the same, keeps the invariants and has the same
 * result.
 */
static void check_roundtrip(const void *st, const json_t *sc, const char *tag)
{
    const struct game_ops *g = &stones_game;
    struct game_error err;
    json_t *d = stones_state_dump(st);
    void *back = init_game(sc, tag);
    ck_assert_msg(stones_state_load(d, back) == 0, "%s: the dump does not load", tag);
    json_t *d2 = stones_state_dump(back);
    char *t1 = json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS);
    char *t2 = json_dumps(d2, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_msg(json_equal(d, d2), "%s: dump %s reloads as %s", tag, t1, t2);
    ck_assert_msg(g->check_invariants(back, &err) == 0, "%s: reloaded: %s", tag, err.message);
    json_t *r1 = game_result(g, st);
    json_t *r2 = game_result(g, back);
    ck_assert_msg((!r1 && !r2) || (r1 && r2 && json_equal(r1, r2)), "%s: the result differs", tag);
    json_decref(r1);
    json_decref(r2);
    free(t1);
    free(t2);
    json_decref(d);
    json_decref(d2);
    free(back);
}

static void run_step(void *st, const json_t *step, const json_t *sc, const char *id, int k)
{
    const struct game_ops *g = &stones_game;
    struct stones_state *s = st;
    char tag[96];
    snprintf(tag, sizeof(tag), "%s step %d", id, k);
    int seat = json_is_integer(json_object_get(step, "seat"))
                   ? (int)json_integer_value(json_object_get(step, "seat"))
                   : stones__current_seat(s);
    if (json_is_true(json_object_get(step, "activate"))) {
        /* Cast FLY-1 to the Taoist's own tile, then end step 1. */
        json_t *fly = json_pack("{s:s,s:s,s:s}", "type", "cast", "card", "FLY-1", "tile",
                                stones_tile_name[s->pl[s->cur].taoist]);
        apply_ok(st, seat, fly, tag);
        json_decref(fly);
        if (s->phase == STONES_PH_CAST) {
            json_t *end = json_pack("{s:s}", "type", "end_cast");
            apply_ok(st, seat, end, tag);
            json_decref(end);
        }
    }
    json_t *actions = json_object_get(step, "actions");
    size_t i;
    json_t *a;
    json_array_foreach(actions, i, a) {
        apply_ok(st, seat, a, tag);
    }
    json_t *action = json_object_get(step, "action");
    const char *error = json_string_value(json_object_get(step, "error"));
    const char *timeout = json_string_value(json_object_get(step, "timeout"));
    if (timeout) {
        run_timeout(st, seat, timeout, error, tag);
    }
    if (action) {
        struct stones_state before;
        memcpy(&before, st, sizeof(before));
        struct game_error err;
        int rc = game_apply(g, st, seat, action, &err);
        char *t = json_dumps(action, JSON_COMPACT);
        if (error) {
            ck_assert_msg(strcmp(status_name(rc), error) == 0, "%s: %s gave %s, want %s", tag, t,
                          status_name(rc), error);
            ck_assert_msg(memcmp(&before, st, sizeof(before)) == 0,
                          "%s: refused %s changed the state", tag, t);
            const char *want = json_string_value(json_object_get(step, "message_has"));
            ck_assert_msg(!want || strstr(err.message, want), "%s: message \"%s\" lacks \"%s\"",
                          tag, err.message, want ? want : "");
            /* A refused action is never listed, nor reached through steps. */
            json_t *legal = g->legal(st, seat);
            ck_assert_msg(!in_list(legal, action), "%s: refused %s is listed", tag, t);
            json_decref(legal);
            json_t *moves = json_array();
            if (stones__current_seat(s) == seat) {
                expand_moves(st, seat, moves, 0);
            }
            ck_assert_msg(!in_list(moves, action), "%s: refused %s is reachable", tag, t);
            json_decref(moves);
        } else {
            ck_assert_msg(rc == GAME_OK, "%s: %s refused (%s): %s", tag, t, status_name(rc),
                          err.message);
            /* R-stones-6.4: "undoable" is the game's word on taking it back. */
            json_t *undo = json_object_get(step, "undoable");
            if (undo) {
                ck_assert_msg(g->undoable(&before, st, seat) == json_is_true(undo),
                              "%s: %s undoable is %d, want %d", tag, t,
                              (int)g->undoable(&before, st, seat), (int)json_is_true(undo));
            }
        }
        free(t);
    }
    struct game_error err;
    ck_assert_msg(g->check_invariants(st, &err) == 0 ||
                      json_is_false(json_object_get(step, "invariants")),
                  "%s: %s", tag, err.message);
    int lseat = json_is_integer(json_object_get(step, "legal_seat"))
                    ? (int)json_integer_value(json_object_get(step, "legal_seat"))
                    : stones__current_seat(s);
    /* listed_* keys check the legal list as it is sent. */
    json_t *listed = g->legal(st, lseat);
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
    json_t *lexact = json_object_get(step, "listed_exact");
    if (lexact) {
        char *t = json_dumps(listed, JSON_COMPACT);
        ck_assert_msg(json_equal(lexact, listed), "%s: the list is %s", tag, t);
        free(t);
    }
    json_t *lcount = json_object_get(step, "listed_count");
    if (lcount) {
        ck_assert_msg((json_int_t)json_array_size(listed) == json_integer_value(lcount),
                      "%s: %zu listed actions, want %lld", tag, json_array_size(listed),
                      (long long)json_integer_value(lcount));
    }
    json_decref(listed);
    /* legal_* keys check the moves: the listed actions with every step
     * followed (expand_moves). */
    json_t *legal = json_array();
    if (lseat >= 0 && lseat == stones__current_seat(s)) {
        expand_moves(st, lseat, legal, 0);
    }
    json_array_foreach(json_object_get(step, "legal_has"), i, a) {
        char *t = json_dumps(a, JSON_COMPACT);
        ck_assert_msg(in_list(legal, a), "%s: legal lacks %s", tag, t);
        free(t);
    }
    json_array_foreach(json_object_get(step, "legal_lacks"), i, a) {
        char *t = json_dumps(a, JSON_COMPACT);
        ck_assert_msg(!in_list(legal, a), "%s: legal lists %s", tag, t);
        free(t);
    }
    json_t *exact = json_object_get(step, "legal_exact");
    if (exact) {
        char *t = json_dumps(legal, JSON_COMPACT);
        ck_assert_msg(json_array_size(exact) == json_array_size(legal), "%s: legal is %s", tag, t);
        json_array_foreach(exact, i, a) {
            ck_assert_msg(in_list(legal, a), "%s: legal is %s", tag, t);
        }
        free(t);
    }
    json_t *cm;
    json_array_foreach(json_object_get(step, "legal_count_match"), i, cm) {
        /* {"match": fragment, "count": n}: n legal actions contain the fragment. */
        size_t j;
        json_t *x;
        int n = 0;
        json_array_foreach(legal, j, x) {
            char p2[128] = "";
            char w2[256];
            n += match(json_object_get(cm, "match"), x, p2, sizeof(p2), w2, sizeof(w2));
        }
        char *t = json_dumps(json_object_get(cm, "match"), JSON_COMPACT);
        ck_assert_msg(n == json_integer_value(json_object_get(cm, "count")),
                      "%s: %d legal actions match %s, want %lld", tag, n, t,
                      (long long)json_integer_value(json_object_get(cm, "count")));
        free(t);
    }
    json_t *count = json_object_get(step, "legal_count");
    if (count) {
        ck_assert_msg((json_int_t)json_array_size(legal) == json_integer_value(count),
                      "%s: %zu legal actions, want %lld", tag, json_array_size(legal),
                      (long long)json_integer_value(count));
    }
    json_decref(legal);
    char path[256] = "";
    char why[512] = "";
    json_t *expect = json_object_get(step, "expect");
    if (expect) {
        json_t *dump = stones_state_dump(st);
        ck_assert_msg(match(expect, dump, path, sizeof(path), why, sizeof(why)), "%s: %s", tag,
                      why);
        json_decref(dump);
    }
    const char *same_as = json_string_value(json_object_get(step, "same_as"));
    if (same_as) {
        /* The state equals the one saved under that name, byte for byte. */
        int k2 = 0;
        while (k2 < nsaved && strcmp(saved_name[k2], same_as) != 0) {
            k2++;
        }
        ck_assert_msg(k2 < nsaved, "%s: nothing saved as %s", tag, same_as);
        ck_assert_msg(memcmp(&saved[k2], st, sizeof(saved[k2])) == 0,
                      "%s: the state differs from %s", tag, same_as);
    }
    const char *save = json_string_value(json_object_get(step, "save"));
    if (save) {
        ck_assert_int_lt(nsaved, 4);
        snprintf(saved_name[nsaved], sizeof(saved_name[nsaved]), "%s", save);
        memcpy(&saved[nsaved++], st, sizeof(saved[0]));
    }
    json_t *view_expect = json_object_get(step, "view");
    if (view_expect) {
        json_t *view = game_view(g, st, 0);
        path[0] = 0;
        ck_assert_msg(match(view_expect, view, path, sizeof(path), why, sizeof(why)), "%s: view %s",
                      tag, why);
        json_decref(view);
    }
    /* log_keys_has: messages [key, arg, ...] the view's log_keys holds. */
    check_view_log(st, json_object_get(step, "log_keys_has"), tag);
    const char *log_has = json_string_value(json_object_get(step, "log_has"));
    if (log_has) {
        json_t *view = game_view(g, st, -1);
        char *t = json_dumps(json_object_get(view, "log"), JSON_COMPACT);
        ck_assert_msg(t && strstr(t, log_has), "%s: log %s lacks \"%s\"", tag, t ? t : "", log_has);
        free(t);
        json_decref(view);
    }
    if (json_is_true(json_object_get(step, "roundtrip"))) {
        check_roundtrip(st, sc, tag);
    }
    json_t *res_expect = json_object_get(step, "result");
    if (res_expect) {
        json_t *res = game_result(g, st);
        path[0] = 0;
        ck_assert_msg(res != NULL, "%s: the game is not over", tag);
        ck_assert_msg(match(res_expect, res, path, sizeof(path), why, sizeof(why)), "%s: result %s",
                      tag, why);
        json_decref(res);
    }
}

START_TEST(test_scenario)
{
    json_t *sc = json_array_get(scenarios, (size_t)_i);
    const char *id = json_string_value(json_object_get(sc, "id"));
    ck_assert_msg(id && strncmp(id, "stones-", 7) == 0, "scenario %d has no stones- id", _i);
    void *st = build(sc, id);
    nsaved = 0;
    size_t k;
    json_t *step;
    json_array_foreach(json_object_get(sc, "steps"), k, step) {
        run_step(st, step, sc, id, (int)k);
    }
    free(st);
}
END_TEST

/* ---- Options and setup ---- */

START_TEST(test_options)
{
    const struct game_ops *g = &stones_game;
    struct game_error err;
    struct {
        const char *json;
        int seats;
        int want;
    } cases[] = {
        {"null", 2, GAME_OK},
        {"{}", 4, GAME_OK},
        {"{\"variant\":\"novice\"}", 3, GAME_OK},
        {"{\"variant\":\"cooperative\"}", 1, GAME_OK},
        {"{\"variant\":\"cooperative\",\"colours\":2}", 2, GAME_OK},
        {"{\"variant\":\"cooperative\",\"colours\":2}", 3, GAME_E_BAD_OPTION}, /* 9.53d */
        {"{\"variant\":\"cooperative\",\"colours\":5}", 1, GAME_E_BAD_OPTION},
        {"{\"variant\":\"cooperative\",\"colours\":\"4\"}", 1, GAME_E_BAD_OPTION},
        {"{\"variant\":\"standard\",\"colours\":2}", 2, GAME_E_BAD_OPTION},
        {"{}", 1, GAME_E_BAD_OPTION},
        {"{}", 5, GAME_E_BAD_OPTION},
        {"{\"variant\":\"novice\"}", 1, GAME_E_BAD_OPTION},
        {"{\"variant\":\"cooperative\"}", 5, GAME_E_BAD_OPTION},
        {"{\"variant\":\"expert\"}", 2, GAME_E_BAD_OPTION},
        {"{\"variant\":3}", 2, GAME_E_BAD_OPTION},
        {"{\"speed\":\"fast\"}", 2, GAME_E_BAD_OPTION},
        {"[1]", 2, GAME_E_BAD_OPTION},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *o = json_loads(cases[i].json, JSON_DECODE_ANY, NULL);
        int rc = g->check_options(o, cases[i].seats, &err);
        ck_assert_msg(rc == cases[i].want, "options %s with %d seats: %d (%s)", cases[i].json,
                      cases[i].seats, rc, err.message);
        if (rc != GAME_OK) {
            ck_assert_msg(strlen(err.message) > 10, "no message for %s", cases[i].json);
            void *st = calloc(1, g->state_size);
            struct game_setup su;
            setup_names(&su, cases[i].seats, 1);
            ck_assert_int_eq(g->init(st, o, &su, &err), GAME_E_BAD_OPTION);
            free(st);
        }
        json_decref(o);
    }
    json_t *schema = g->options_schema();
    ck_assert_str_eq(
        json_string_value(json_object_get(json_object_get(schema, "variant"), "default")),
        "standard");
    ck_assert_int_eq(json_array_size(json_object_get(json_object_get(schema, "variant"), "values")),
                     3);
    json_decref(schema);
    ck_assert_int_eq(g->min_players, 1);
    ck_assert_int_eq(g->max_players, 4);
}
END_TEST

static void *fresh(const char *opts, int nseats, int seed)
{
    json_t *o = json_loads(opts, 0, NULL);
    struct game_setup su;
    setup_names(&su, nseats, seed);
    void *st = calloc(1, stones_game.state_size);
    struct game_error err;
    ck_assert_int_eq(stones_game.init(st, o, &su, &err), GAME_OK);
    json_decref(o);
    ck_assert_msg(stones_game.check_invariants(st, &err) == 0, "%s", err.message);
    return st;
}

/* stones-6.3.20: games played by timeouts alone, as the server plays them
 * (game_try_timeout): every turn skips to its end and keeps the
 * invariants, and a forfeit at any of those positions ends the game. (A
 * seat that stays active from turn to turn, the solo game's, never ends
 * "its turn" by skipping: the server's repeat stops at GAME_SKIPS_MAX.) */
START_TEST(test_skip_whole_games)
{
    static const char *const opts[] = {"{}", "{\"variant\":\"novice\"}",
                                       "{\"variant\":\"cooperative\",\"colours\":2}"};
    const struct game_ops *g = &stones_game;
    void *scratch = malloc(g->state_size);
    for (int o = 0; o < 3; o++) {
        void *st = fresh(opts[o], o == 2 ? 2 : 3, 7 + o);
        for (int turn = 0; turn < 60 && g->active(st); turn++) {
            int seat = stones__current_seat(st);
            struct game_error err;
            ck_assert_int_eq(game_try_timeout(g, st, scratch, seat, true, &err), GAME_OK);
            ck_assert_msg(g->check_invariants(scratch, &err) == 0, "%s", err.message);
            ck_assert_uint_eq(g->active(scratch), 0);
            check_view_log(scratch, NULL, "forfeit");
            int rc = game_try_timeout(g, st, scratch, seat, false, &err);
            ck_assert_msg(rc == GAME_OK, "turn %d: %s", turn, err.message);
            ck_assert_msg(g->check_invariants(scratch, &err) == 0, "%s", err.message);
            check_view_log(scratch, NULL, "skip");
            memcpy(st, scratch, g->state_size);
        }
        free(st);
    }
    free(scratch);
}
END_TEST

/* stones-3: setup of the standard game for 2, 3 and 4 players. */
START_TEST(test_setup_standard)
{
    static const int qi[5] = {0, 0, 30, 42, 56};
    static const int8_t colour[4] = {STONES_R, STONES_G, STONES_B, STONES_Y};
    for (int n = 2; n <= 4; n++) {
        for (int seed = 0; seed < 20; seed++) {
            struct stones_state *st = fresh("{}", n, seed);
            ck_assert_int_eq(st->np, n);
            ck_assert_int_eq(st->qi_supply, qi[n]);
            ck_assert_int_eq(st->phase, STONES_PH_PLACE);
            ck_assert_int_eq(st->supply_n, 20);
            for (int i = 1; i < st->supply_n; i++) {
                ck_assert_msg(st->supply[i] != st->supply[i - 1], "R-stones-3.7: equal "
                                                                  "neighbours in the supply");
            }
            for (int t = 0; t < 5; t++) {
                int seen = 0;
                for (int s = 0; s < 4; s++) {
                    seen |= 1 << st->slot[t][s];
                }
                ck_assert_msg(__builtin_popcount((unsigned)seen) == 4, "a tile has a double");
            }
            ck_assert_int_eq(__builtin_popcount((unsigned)st->objectives), 2);
            for (int p = 0; p < n; p++) {
                ck_assert_int_eq(st->pl[p].colour, colour[p]); /* stones-9.52 */
                ck_assert_int_eq(st->pl[p].seat, p);
                ck_assert_int_eq(st->pl[p].row_n, 4);
                ck_assert_int_eq(st->pl[p].deck_n, 7);
            }
            for (int t = 0; t < 5; t++) {
                ck_assert_int_eq(st->stack_n[t], t == STONES_N ? 3 : 2);
            }
            /* Placement begins with the player on the start player's right. */
            ck_assert_int_eq(st->cur, (st->start + n - 1) % n);
            free(st);
        }
    }
}
END_TEST

/* stones-7.1 / 7.2: variant setups have no Qi, runes, objectives. */
START_TEST(test_setup_variants)
{
    struct stones_state *st = fresh("{\"variant\":\"novice\"}", 3, 4);
    ck_assert_int_eq(st->qi_supply, 0);
    ck_assert_int_eq(st->objectives, 0);
    ck_assert_int_eq(st->np, 3);
    for (int t = 0; t < 5; t++) {
        ck_assert_int_eq(st->stack_n[t], 0);
    }
    json_t *v = game_view(&stones_game, st, 0);
    ck_assert(json_is_null(json_object_get(v, "element")));
    ck_assert(json_is_null(json_object_get(v, "qi_supply")));
    ck_assert(json_is_null(json_object_get(v, "objectives")));
    json_decref(v);
    free(st);

    /* stones-9.53a: co-op, 1 seat, default 4 colours all on seat 0. */
    st = fresh("{\"variant\":\"cooperative\"}", 1, 5);
    ck_assert_int_eq(st->np, 4);
    for (int p = 0; p < 4; p++) {
        ck_assert_int_eq(st->pl[p].seat, 0);
    }
    ck_assert_uint_eq(stones_game.active(st), 1u);
    free(st);
    /* stones-9.53b: colours = 1. */
    st = fresh("{\"variant\":\"cooperative\",\"colours\":1}", 1, 5);
    ck_assert_int_eq(st->np, 1);
    free(st);
    /* stones-9.53c: 3 seats, 4 colours: seat 0 Red and Yellow. */
    st = fresh("{\"variant\":\"cooperative\"}", 3, 5);
    ck_assert_int_eq(st->pl[0].colour, STONES_R);
    ck_assert_int_eq(st->pl[0].seat, 0);
    ck_assert_int_eq(st->pl[3].colour, STONES_Y);
    ck_assert_int_eq(st->pl[3].seat, 0);
    ck_assert_int_eq(st->pl[1].seat, 1);
    ck_assert_int_eq(st->pl[2].seat, 2);
    free(st);
}
END_TEST

/* Plays random legal games; every one must end and the game record
 * must replay to the same bytes (stones-9.53b: one colour ends within 11
 * turns). */
START_TEST(test_coop_one_colour_ends)
{
    struct stones_state *st = fresh("{\"variant\":\"cooperative\",\"colours\":1}", 1, 9);
    int turns_seen = 0;
    int guard = 0;
    while (stones_game.active(st) && guard++ < 2000) {
        json_t *legal = stones_game.legal(st, 0);
        ck_assert_int_gt(json_array_size(legal), 0);
        struct game_error err;
        ck_assert_int_eq(game_apply(&stones_game, st, 0, json_array_get(legal, 0), &err), GAME_OK);
        json_decref(legal);
        turns_seen = st->turn_no;
    }
    ck_assert_int_eq(st->phase, STONES_PH_OVER);
    ck_assert_int_le(turns_seen, 11);
    ck_assert_int_eq(st->end_reason, STONES_END_CARDS);
    json_t *res = game_result(&stones_game, st);
    ck_assert_ptr_nonnull(res);
    ck_assert_int_eq(json_array_size(json_object_get(res, "scores")), 1);
    json_decref(res);
    free(st);
}
END_TEST

/* R-stones-3.3: the view hides deck orders and the unused objectives; it is
 * identical for every seat but "you"; spectators get no "you". */
START_TEST(test_view_hidden)
{
    struct stones_state *st = fresh("{}", 3, 11);
    json_t *v0 = game_view(&stones_game, st, 0);
    json_t *v1 = game_view(&stones_game, st, 1);
    json_t *vs = game_view(&stones_game, st, -1);
    ck_assert_ptr_nonnull(json_object_get(v0, "you"));
    ck_assert_ptr_null(json_object_get(vs, "you"));
    json_object_del(v0, "you");
    json_object_del(v1, "you");
    ck_assert(json_equal(v0, vs));
    ck_assert(json_equal(v1, vs));
    ck_assert_str_eq(json_string_value(json_object_get(vs, "game")), "stones");
    ck_assert(json_is_null(json_object_get(vs, "result")));
    json_t *p0 = json_array_get(json_object_get(vs, "players"), 0);
    ck_assert(json_is_integer(json_object_get(p0, "deck")));
    ck_assert_int_eq(json_array_size(json_object_get(vs, "objectives")), 2);
    char *txt = json_dumps(vs, JSON_COMPACT);
    /* The artifact deck below its top card is never named. */
    for (int i = st->art_top + 1; i < STONES_NART; i++) {
        ck_assert_msg(!strstr(txt, stones_artifacts[st->art_deck[i]].id),
                      "hidden artifact %s shown", stones_artifacts[st->art_deck[i]].id);
    }
    ck_assert_ptr_null(strstr(txt, "seed"));
    ck_assert_ptr_null(strstr(txt, "rng"));
    free(txt);
    json_decref(v0);
    json_decref(v1);
    json_decref(vs);
    free(st);
}
END_TEST

/* R-stones-4.1: refusals by code, state unchanged. */
START_TEST(test_refusal_codes)
{
    struct stones_state *st = fresh("{}", 2, 3);
    struct stones_state before;
    memcpy(&before, st, sizeof(before));
    struct game_error err;
    int seat = stones__current_seat(st);
    json_t *a = json_pack("{s:s,s:s}", "type", "place_taoist", "tile", "Tc");
    ck_assert_int_eq(game_apply(&stones_game, st, 1 - seat, a, &err), GAME_E_NOT_TURN);
    ck_assert_int_eq(game_apply(&stones_game, st, 7, a, &err), GAME_E_NOT_TURN);
    json_t *b = json_pack("{s:s,s:s}", "type", "place_taoist", "tile", "Tz");
    ck_assert_int_eq(game_apply(&stones_game, st, seat, b, &err), GAME_E_BAD_ACTION);
    json_t *c = json_pack("{s:s,s:s,s:i}", "type", "place_taoist", "tile", "Tc", "x", 1);
    ck_assert_int_eq(game_apply(&stones_game, st, seat, c, &err), GAME_E_BAD_ACTION);
    json_t *d = json_pack("{s:s}", "type", "end_cast");
    ck_assert_int_eq(game_apply(&stones_game, st, seat, d, &err), GAME_E_ILLEGAL);
    ck_assert_ptr_nonnull(strstr(err.message, "R-stones-"));
    json_t *e = json_string("place_taoist");
    ck_assert_int_eq(game_apply(&stones_game, st, seat, e, &err), GAME_E_BAD_ACTION);
    ck_assert_int_eq(memcmp(&before, st, sizeof(before)), 0);
    json_t *l = stones_game.legal(st, 1 - seat);
    ck_assert_int_eq(json_array_size(l), 0);
    json_decref(l);
    json_decref(a);
    json_decref(b);
    json_decref(c);
    json_decref(d);
    json_decref(e);
    free(st);
}
END_TEST

/* ---- Sections and the change mask ---- */

/* game.h: sections sorted by key bytes, every key before "you", and the
 * whole view the public object plus "you". */
START_TEST(test_sections_sorted)
{
    const struct game_ops *g = &stones_game;
    ck_assert_uint_le(g->nsections, GAME_MAX_SECTIONS);
    for (size_t k = 0; k < g->nsections; k++) {
        ck_assert(g->sections[k].write || g->sections[k].write_item);
        ck_assert_msg(strcmp(g->sections[k].key, "you") < 0, "%s", g->sections[k].key);
        if (k > 0) {
            ck_assert_msg(strcmp(g->sections[k - 1].key, g->sections[k].key) < 0, "%s, %s",
                          g->sections[k - 1].key, g->sections[k].key);
        }
    }
    struct stones_state *st = fresh("{}", 3, 2);
    json_t *v = game_view(g, st, 1);
    json_t *pub = game_view_public(g, st);
    json_t *you = game_section_json(g, st, -1, 1);
    ck_assert_uint_eq(json_object_size(v), g->nsections + 1);
    ck_assert(json_equal(json_object_get(v, "you"), you));
    json_object_del(v, "you");
    ck_assert(json_equal(v, pub));
    ck_assert_int_eq(json_integer_value(json_object_get(you, "seat")), 1);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(you, "colours"), 0)),
                     "green");
    json_decref(v);
    json_decref(pub);
    json_decref(you);
    free(st);
}
END_TEST

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Every section and every seat's "you" of `st`, built once. */
struct built {
    json_t *section[GAME_MAX_SECTIONS];
    json_t *you[GAME_MAX_SEATS];
};

static void build_all(const void *st, int nseats, struct built *b)
{
    const struct game_ops *g = &stones_game;
    for (size_t k = 0; k < g->nsections; k++) {
        b->section[k] = game_section_json(g, st, (int)k, -1);
        ck_assert_ptr_nonnull(b->section[k]);
    }
    for (int s = 0; s < nseats; s++) {
        b->you[s] = game_section_json(g, st, -1, s);
        ck_assert_ptr_nonnull(b->you[s]);
    }
}

static void free_all(int nseats, struct built *b)
{
    for (size_t k = 0; k < stones_game.nsections; k++) {
        json_decref(b->section[k]);
    }
    for (int s = 0; s < nseats; s++) {
        json_decref(b->you[s]);
    }
}

/* The setups the random playouts below go through: every variant, and
 * every seat count and colour choice that changes the game's shape. */
static const struct {
    const char *opts;
    int nseats;
} games[] = {
    {"{}", 2},
    {"{}", 3},
    {"{}", 4},
    {"{\"variant\":\"novice\"}", 2},
    {"{\"variant\":\"novice\"}", 4},
    {"{\"variant\":\"cooperative\"}", 1},
    {"{\"variant\":\"cooperative\",\"colours\":1}", 1},
    {"{\"variant\":\"cooperative\"}", 3},
    {"{\"variant\":\"cooperative\",\"colours\":2}", 2},
};

/* game.h changed(): over seeded random playouts of every variant, a clear
 * bit after an accepted action always means an equal section (or equal
 * "you" for every seat). The seating never changes, so neither does "you",
 * and a typical action leaves most sections alone. */
START_TEST(test_changed_honest)
{
    const struct game_ops *g = &stones_game;
    long actions = 0;
    long rebuilt = 0;
    for (int seed = 0; seed < 2; seed++) {
        for (size_t i = 0; i < sizeof(games) / sizeof(games[0]); i++) {
            int nseats = games[i].nseats;
            void *st = fresh(games[i].opts, nseats, seed * 10 + (int)i);
            void *scratch = malloc(g->state_size);
            uint64_t x = (uint64_t)(seed * 100 + (int)i);
            struct built before;
            build_all(st, nseats, &before);
            for (int n = 0; n < 20000 && g->active(st); n++) {
                int seat = __builtin_ctz(g->active(st));
                json_t *legal = g->legal(st, seat);
                ck_assert_uint_gt(json_array_size(legal), 0);
                json_t *a = json_array_get(legal, splitmix(&x) % json_array_size(legal));
                struct game_error err;
                ck_assert_int_eq(game_try(g, st, scratch, seat, a, &err), GAME_OK);
                json_decref(legal);
                uint64_t mask = g->changed(st, scratch);
                struct built after;
                build_all(scratch, nseats, &after);
                check_view_log(scratch, NULL, games[i].opts);
                for (size_t k = 0; k < g->nsections; k++) {
                    if (mask & (UINT64_C(1) << k)) {
                        rebuilt++;
                    } else {
                        ck_assert_msg(json_equal(before.section[k], after.section[k]),
                                      "%s seed %d action %d: \"%s\" changed, bit clear",
                                      games[i].opts, seed, n, g->sections[k].key);
                    }
                }
                ck_assert_msg(!(mask & GAME_CHANGED_YOU), "%s: \"you\" flagged", games[i].opts);
                for (int s = 0; s < nseats; s++) {
                    ck_assert(json_equal(before.you[s], after.you[s]));
                }
                free_all(nseats, &before);
                before = after;
                memcpy(st, scratch, g->state_size);
                actions++;
            }
            ck_assert_uint_eq(g->active(st), 0u);
            free_all(nseats, &before);
            free(scratch);
            free(st);
        }
    }
    /* Sections rebuilt per action, on average: a small part of the view. */
    ck_assert_msg(rebuilt < actions * (long)g->nsections / 2,
                  "%ld sections rebuilt for %ld "
                  "actions",
                  rebuilt, actions);
}
END_TEST

/* ---- Size of the legal list ---- */

#define LEGAL_BOUND 64

static void push_valid(const struct stones_state *st, const struct stones_action *a, json_t *out)
{
    if (stones__validate(st, a, NULL) == GAME_OK) {
        json_array_append_new(out, stones_action_encode(a));
    }
}

/* Every whole cast (or pay_pair, or pay_step) that the rules accept in
 * `st`, found by trying every combination of fields: the one-shot forms. */
static void oneshot_moves(const struct stones_state *st, json_t *out)
{
    struct stones_action a;
    const struct stones_player *pl = &st->pl[st->cur];
    if (st->phase == STONES_PH_MOVE) {
        static const int dr[4] = {-1, 0, 0, 1};
        static const int dc[4] = {0, -1, 1, 0};
        for (int k = 0; k < 4 * 26; k++) {
            memset(&a, 0, sizeof(a));
            a.type = STONES_A_PAY_STEP;
            a.to_r = pl->spirit_r + dr[k / 26];
            a.to_c = pl->spirit_c + dc[k / 26];
            if (k % 26 < 25) {
                a.npair = 2;
                a.pair[0] = k % 26 / STONES_NCOL;
                a.pair[1] = k % 26 % STONES_NCOL;
            }
            push_valid(st, &a, out);
        }
        return;
    }
    if (st->phase == STONES_PH_PAY) {
        for (int f = 0; f < STONES_NCOL; f++) {
            for (int x = 0; x < STONES_NCOL * STONES_NCOL; x++) {
                memset(&a, 0, sizeof(a));
                a.type = STONES_A_PAY_PAIR;
                a.colour = f;
                a.npair = 2;
                a.pair[0] = x / STONES_NCOL;
                a.pair[1] = x % STONES_NCOL;
                push_valid(st, &a, out);
            }
        }
        return;
    }
    for (int i = 0; i < pl->row_n; i++) {
        /* v runs over the other fields: dir, destination, second tile or
         * the slot pair, whichever the card has. */
        for (int v = 0; v < 5 * 400; v++) {
            memset(&a, 0, sizeof(a));
            a.type = STONES_A_CAST;
            a.card = pl->row[i];
            a.tile = v % STONES_NTILES;
            int w = v / STONES_NTILES;
            if (a.card <= STONES_FLY2) {
                a.dir = w;
                if (w > (a.card <= STONES_SPIN2 ? 1 : 0)) {
                    break;
                }
            } else if (a.card <= STONES_QUAKE2 && w < 49) {
                a.to_r = w / 7 - 1;
                a.to_c = w % 7 - 1;
            } else if (a.card <= STONES_QUAKE2) {
                a.quake = STONES_QUAKE_SWAP;
                a.tile2 = w - 49;
                if (a.tile2 >= STONES_NTILES) {
                    break;
                }
            } else {
                if (v >= 400) {
                    break;
                }
                a.tile = 0;
                a.slot_a = v / 20;
                a.slot_b = v % 20;
            }
            push_valid(st, &a, out);
        }
    }
}

/* Each of `a` is in `b` and the two are the same size (no duplicates). */
static int same_set(const json_t *a, const json_t *b)
{
    size_t i;
    json_t *x;
    if (json_array_size(a) != json_array_size(b)) {
        return 0;
    }
    json_array_foreach(a, i, x) {
        if (!in_list(b, x)) {
            return 0;
        }
    }
    return 1;
}

/* PROTOCOL 6 and R-stones-4.2, 4.6, 1.5: over seeded random playouts of
 * every variant, no position lists more than LEGAL_BOUND actions, every
 * listed action is accepted as it is, and in step 1, while paying and
 * while moving the Spirit the steps lead to exactly the whole casts, pairs
 * and paid steps the rules accept. The largest list seen is printed. */
START_TEST(test_legal_small)
{
    const struct game_ops *g = &stones_game;
    size_t largest = 0;
    long positions = 0;
    long checked = 0;
    long longest = 0;
    for (int seed = 0; seed < 4; seed++) {
        for (size_t i = 0; i < sizeof(games) / sizeof(games[0]); i++) {
            void *st = fresh(games[i].opts, games[i].nseats, 40 + seed * 10 + (int)i);
            void *scratch = malloc(g->state_size);
            uint64_t x = (uint64_t)(seed * 1000 + (int)i + 7);
            long n = 0;
            for (; n < 20000 && g->active(st); n++) {
                int seat = __builtin_ctz(g->active(st));
                json_t *legal = g->legal(st, seat);
                size_t len = json_array_size(legal);
                ck_assert_uint_gt(len, 0);
                largest = len > largest ? len : largest;
                positions++;
                size_t j;
                json_t *a;
                json_array_foreach(legal, j, a) {
                    struct game_error err;
                    int rc = game_try(g, st, scratch, seat, a, &err);
                    char *t = json_dumps(a, JSON_COMPACT);
                    ck_assert_msg(rc == GAME_OK, "%s seed %d: listed %s refused: %s", games[i].opts,
                                  seed, t, err.message);
                    free(t);
                }
                const struct stones_state *s = st;
                if (!choosing(s) &&
                    (s->phase == STONES_PH_CAST || s->phase == STONES_PH_PAY ||
                     s->phase == STONES_PH_MOVE) &&
                    (s->phase != STONES_PH_CAST || positions % 4 == 0)) {
                    /* Every move is reached through the steps: the moves
                     * they lead to are exactly the one-shot forms (every
                     * payment and Spirit move, one cast position in four,
                     * for time). */
                    json_t *all = json_array();
                    json_t *oneshot = json_array();
                    json_t *reached = json_array();
                    expand_moves(st, seat, all, 0);
                    oneshot_moves(s, oneshot);
                    json_array_foreach(all, j, a) {
                        const char *type = json_string_value(json_object_get(a, "type"));
                        if (!strcmp(type, "cast") || !strcmp(type, "pay_pair") ||
                            !strcmp(type, "pay_step")) {
                            json_array_append(reached, a);
                        }
                    }
                    int same = same_set(reached, oneshot);
                    if (!same) {
                        char *t1 = json_dumps(reached, JSON_COMPACT);
                        char *t2 = json_dumps(oneshot, JSON_COMPACT);
                        fprintf(stderr, "reached %s\none-shot %s\n", t1, t2);
                        free(t1);
                        free(t2);
                    }
                    ck_assert_msg(same,
                                  "%s seed %d: the steps reach %zu moves, %zu one-shot "
                                  "forms are legal",
                                  games[i].opts, seed, json_array_size(reached),
                                  json_array_size(oneshot));
                    checked++;
                    json_decref(all);
                    json_decref(oneshot);
                    json_decref(reached);
                }
                struct game_error err;
                json_t *pick = json_array_get(legal, splitmix(&x) % len);
                ck_assert_int_eq(game_apply(g, st, seat, pick, &err), GAME_OK);
                json_decref(legal);
            }
            ck_assert_uint_eq(g->active(st), 0u);
            longest = n > longest ? n : longest;
            free(scratch);
            free(st);
        }
    }
    fprintf(stderr,
            "stones: largest legal list %zu over %ld positions (%ld with every move "
            "reached through the steps); longest game %ld actions\n",
            largest, positions, checked, longest);
    ck_assert_uint_le(largest, LEGAL_BOUND);
}
END_TEST

/* ---- Loading ---- */

static Suite *stones_suite(void)
{
    Suite *s = suite_create("stones");
    TCase *tc = tcase_create("scenarios");
    tcase_add_loop_test(tc, test_scenario, 0, (int)json_array_size(scenarios));
    suite_add_tcase(s, tc);
    TCase *to = tcase_create("options_setup");
    tcase_add_test(to, test_options);
    tcase_add_test(to, test_setup_standard);
    tcase_add_test(to, test_setup_variants);
    tcase_add_test(to, test_coop_one_colour_ends);
    suite_add_tcase(s, to);
    TCase *tv = tcase_create("view_refusals");
    tcase_add_test(tv, test_view_hidden);
    tcase_add_test(tv, test_refusal_codes);
    tcase_add_test(tv, test_skip_whole_games);
    suite_add_tcase(s, tv);
    TCase *tc2 = tcase_create("sections_changed");
    tcase_add_test(tc2, test_sections_sorted);
    tcase_add_test(tc2, test_changed_honest);
    suite_add_tcase(s, tc2);
    TCase *tl = tcase_create("legal_size");
    tcase_add_test(tl, test_legal_small);
    tcase_set_timeout(tl, 240);
    suite_add_tcase(s, tl);
    return s;
}

int main(int argc, char **argv)
{
    scen_dir = argc > 1 ? argv[1] : "scenarios";
    scenarios = scenarios_load(scen_dir);
    catalogue = log_keys_catalogue(argc > 2 ? argv[2] : "lang/stones.json");
    if (!catalogue) {
        return 1;
    }
    fprintf(stderr, "stones: %zu scenarios from %s\n", json_array_size(scenarios), scen_dir);
    SRunner *sr = srunner_create(stones_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    json_decref(scenarios);
    json_decref(catalogue);
    return failed ? 1 : 0;
}
