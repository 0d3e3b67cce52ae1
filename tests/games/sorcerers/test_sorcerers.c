/* SPDX-License-Identifier: MIT */
/*
 * test_sorcerers.c - rule tests of the Sorcerers core through game.h and
 * common/game.c: the data scenarios of the scenarios folder (spec section 11
 * and the rulebook's examples), plus setup, options, sealed-combo secrecy,
 * refusal checks and the honesty of the view's change mask, written in C.
 * Every refusal is checked to leave the state byte-identical, and after
 * every scenario step and every action of the random playouts the view's
 * log_keys is held to the catalogue lang/sorcerers.json (the program's
 * second argument): each message's English template reads its log line. It owns
 * nothing of the core and must never reach into rule internals except
 * through sorc_state_load and sorc_state_dump to build positions.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "logkeys.h"
#include "sorc.h"

extern const struct game_ops sorc_game;

/* ---- Scenario loading ---- */

#define MAX_SCEN 256
static json_t *scenarios[MAX_SCEN];
static int nscen;
static json_t *catalogue; /* lang/sorcerers.json */

static void load_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char *names[64];
    int nn = 0;

    if (!d) {
        fprintf(stderr, "cannot open %s\n", dir);
        exit(1);
    }
    while ((e = readdir(d)) && nn < 64) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) {
            names[nn++] = strdup(e->d_name);
        }
    }
    closedir(d);
    for (int i = 0; i < nn; i++) {
        for (int j = i + 1; j < nn; j++) {
            if (strcmp(names[j], names[i]) < 0) {
                char *t = names[i];
                names[i] = names[j];
                names[j] = t;
            }
        }
    }
    for (int i = 0; i < nn; i++) {
        char path[1024];
        json_error_t jerr;
        json_t *arr;
        size_t k;
        json_t *s;
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        arr = json_load_file(path, 0, &jerr);
        if (!arr) {
            fprintf(stderr, "%s:%d: %s\n", path, jerr.line, jerr.text);
            exit(1);
        }
        json_array_foreach(arr, k, s) {
            if (nscen < MAX_SCEN) {
                scenarios[nscen++] = json_incref(s);
            }
        }
        json_decref(arr);
        free(names[i]);
    }
}

/* ---- Helpers ---- */

/* 1 when `exp` is a fragment of `act`: objects by key, arrays element by
 * element with the same length, scalars equal. */
static int matches(const json_t *exp, const json_t *act, char *where, size_t wlen)
{
    if (json_is_object(exp)) {
        const char *key;
        json_t *v;
        if (!json_is_object(act)) {
            snprintf(where, wlen, "not an object");
            return 0;
        }
        json_object_foreach((json_t *)exp, key, v) {
            if (!matches(v, json_object_get(act, key), where, wlen)) {
                size_t n = strlen(where);
                char tmp[512];
                snprintf(tmp, sizeof(tmp), "%s.%s", key, where);
                snprintf(where, wlen, "%s", tmp);
                (void)n;
                return 0;
            }
        }
        return 1;
    }
    if (json_is_array(exp)) {
        if (!json_is_array(act) || json_array_size(act) != json_array_size(exp)) {
            snprintf(where, wlen, "array size");
            return 0;
        }
        for (size_t i = 0; i < json_array_size(exp); i++) {
            if (!matches(json_array_get(exp, i), json_array_get(act, i), where, wlen)) {
                return 0;
            }
        }
        return 1;
    }
    if (json_is_integer(exp) && json_is_integer(act)) {
        return json_integer_value(exp) == json_integer_value(act);
    }
    if (!act || !json_equal((json_t *)exp, (json_t *)act)) {
        snprintf(where, wlen, "value");
        return 0;
    }
    return 1;
}

/* ---- The log's messages ---- */

/* How many of the catalogue's messages log_keys_read_the_log must meet
 * (its seeded games meet 45 of 51; forfeits, skips, loaded positions and a
 * few rare duel outcomes only the scenarios write). */
#define LOG_KEYS_MET 40

static const char *status_name(int rc)
{
    switch (rc) {
    case GAME_OK:
        return "ok";
    case GAME_E_ILLEGAL:
        return "illegal_action";
    case GAME_E_BAD_ACTION:
        return "bad_action";
    case GAME_E_NOT_TURN:
        return "not_your_turn";
    case GAME_E_OVER:
        return "game_over";
    default:
        return "other";
    }
}

/* Applies one action the server's way (game_apply: a scratch copy, kept
 * only on success), checking that a refusal leaves the state unchanged. */
static int apply_checked(struct sorc_state *st, int seat, json_t *action, struct game_error *err)
{
    struct sorc_state before;
    int rc;

    memcpy(&before, st, sizeof(before));
    rc = game_apply(&sorc_game, st, seat, action, err);
    if (rc != GAME_OK) {
        ck_assert_msg(memcmp(&before, st, sizeof(before)) == 0,
                      "a refused action changed the state");
    } else {
        struct game_error ierr;
        ck_assert_msg(sorc_game.check_invariants(st, &ierr) == 0, "invariant: %s", ierr.message);
    }
    return rc;
}

/* Expands the combo shorthand {spell, event, amplifiers, sacrifice, betray}
 * into the six steps; returns the number of accepted steps. */
static void send_combo(struct sorc_state *st, int seat, const json_t *c, const char *id)
{
    json_t *steps[6];
    const json_t *amps = json_object_get(c, "amplifiers");
    const json_t *sp = json_object_get(c, "spell");
    const json_t *ev = json_object_get(c, "event");
    const json_t *be = json_object_get(c, "betray");

    steps[0] = json_pack("{s:s, s:O}", "type", "combo_spell", "card", sp ? sp : json_null());
    steps[1] = json_pack("{s:s, s:O}", "type", "combo_event", "card", ev ? ev : json_null());
    for (int i = 0; i < 3; i++) {
        const json_t *a = json_array_get(amps, (size_t)i);
        steps[2 + i] = json_pack("{s:s, s:O}", "type", "combo_amp", "card", a ? a : json_null());
    }
    steps[5] =
        json_pack("{s:s, s:b, s:O}", "type", "combo_declare", "sacrifice",
                  json_is_true(json_object_get(c, "sacrifice")), "betray", be ? be : json_null());
    for (int i = 0; i < 6; i++) {
        struct game_error err;
        int rc = apply_checked(st, seat, steps[i], &err);
        ck_assert_msg(rc == GAME_OK, "%s: combo step %d refused: %s", id, i + 1, err.message);
        json_decref(steps[i]);
    }
}

/* Loads the scenario position, searching seeds when "find_seed" is given. */
static void load_position(struct sorc_state *st, const json_t *sc, const char *id)
{
    const json_t *pos = json_object_get(sc, "position");
    const json_t *want = json_object_get(sc, "find_seed");
    struct game_error err;
    char where[512];

    for (int seed = 1; seed < 5000; seed++) {
        json_t *p = json_deep_copy(pos);
        json_t *v;
        int ok;
        if (want) {
            json_object_set_new(p, "seed", json_integer(seed));
        }
        ck_assert_msg(sorc_state_load(st, p, &err) == 0, "%s: %s", id, err.message);
        json_decref(p);
        if (!want) {
            return;
        }
        v = game_view(&sorc_game, st, -1);
        ok = matches(want, v, where, sizeof(where));
        json_decref(v);
        if (ok) {
            return;
        }
    }
    ck_abort_msg("%s: no seed gives the wanted position", id);
}

/*
 * R-sorcerers-7.1: a clock's timeout ("forfeit" or "skip") for `seat`,
 * straight on the state as the server runs it on its scratch copy. A
 * refusal must leave the state byte for byte as it was.
 */
static int run_timeout(struct sorc_state *st, int seat, const char *op, struct game_error *err,
                       const char *id)
{
    struct sorc_state *before = malloc(sizeof(*before));
    int rc;

    memcpy(before, st, sizeof(*before));
    rc = strcmp(op, "forfeit") == 0 ? sorc_game.forfeit(st, seat, err)
                                    : sorc_game.skip(st, seat, err);
    if (rc != GAME_OK) {
        ck_assert_msg(memcmp(before, st, sizeof(*before)) == 0, "%s: refused %s changed the state",
                      id, op);
    } else {
        ck_assert_msg(sorc__check_invariants(st, err) == 0, "%s: after %s: %s", id, op,
                      err->message);
    }
    free(before);
    return rc;
}

/* The position dump (zones and counters, not the decision under way,
 * which it does not hold) reloads, started at the Recruit as
 * load_dump_roundtrip does, to the same zones and counters, keeping the
 * invariants and the result of a finished game. */
static void check_roundtrip(const struct sorc_state *st, const char *id)
{
    struct sorc_state *back = calloc(1, sizeof(*back));
    struct game_error err;
    json_t *d = sorc_state_dump(st);
    json_t *d2;
    json_t *r1;
    json_t *r2;

    json_object_set_new(d, "start", json_string("recruit"));
    ck_assert_msg(sorc_state_load(back, d, &err) == 0, "%s: the dump does not load: %s", id,
                  err.message);
    d2 = sorc_state_dump(back);
    json_object_set_new(d2, "start", json_string("recruit"));
    if (!st->over) {
        json_object_del(d, "phase");
        json_object_del(d2, "phase");
    }
    ck_assert_msg(json_equal(d, d2), "%s: the dump does not reload the same", id);
    r1 = game_result(&sorc_game, st);
    r2 = game_result(&sorc_game, back);
    ck_assert_msg((!r1 && !r2) || (r1 && r2 && json_equal(r1, r2)), "%s: the result differs", id);
    json_decref(r1);
    json_decref(r2);
    json_decref(d);
    json_decref(d2);
    free(back);
}

START_TEST(run_scenario)
{
    const json_t *sc = scenarios[_i];
    const char *id = json_string_value(json_object_get(sc, "id"));
    struct sorc_state *st = calloc(1, sizeof(*st));
    size_t k;
    const json_t *step;

    ck_assert_ptr_nonnull(id);
    load_position(st, sc, id);
    json_array_foreach(json_object_get(sc, "steps"), k, step) {
        const json_t *exp = json_object_get(step, "expect");
        json_t *action = json_object_get(step, "action");
        const json_t *combo = json_object_get(step, "combo");
        long seat = json_integer_value(json_object_get(step, "seat"));
        const json_t *as = json_object_get(step, "as");
        int view_seat = as ? (int)json_integer_value(as) : -1;
        char where[512];
        where[0] = '\0';

        const char *timeout = json_string_value(json_object_get(step, "timeout"));

        if (combo) {
            send_combo(st, (int)seat, combo, id);
        }
        if (action || timeout) {
            struct game_error err;
            int rc;
            const json_t *undo = json_object_get(step, "undoable");
            struct sorc_state *before = malloc(sizeof(*before));
            ck_assert_ptr_nonnull(before);
            memcpy(before, st, sizeof(*before));
            memset(&err, 0, sizeof(err));
            rc = action ? apply_checked(st, (int)seat, action, &err)
                        : run_timeout(st, (int)seat, timeout, &err, id);
            /* R-sorcerers-7.2: "undoable" is the game's word on taking the
             * accepted action back. */
            if (undo) {
                ck_assert_msg(rc == GAME_OK && action, "%s step %zu: undoable needs an action", id,
                              k);
                ck_assert_msg(sorc_game.undoable(before, st, (int)seat) == json_is_true(undo),
                              "%s step %zu: undoable is %d, want %d", id, k,
                              (int)sorc_game.undoable(before, st, (int)seat),
                              (int)json_is_true(undo));
            }
            free(before);
            if (exp && json_object_get(exp, "error")) {
                const char *want = json_string_value(json_object_get(exp, "error"));
                const char *tok = json_string_value(json_object_get(exp, "token"));
                ck_assert_msg(strcmp(status_name(rc), want) == 0,
                              "%s step %zu: got %s (%s), want %s", id, k, status_name(rc),
                              err.message, want);
                if (tok) {
                    ck_assert_msg(strstr(err.message, tok) != NULL,
                                  "%s step %zu: message '%s' lacks %s", id, k, err.message, tok);
                    ck_assert_msg(strstr(err.message, "R-sorcerers-") != NULL,
                                  "%s: message names no rule", id);
                }
            } else {
                ck_assert_msg(rc == GAME_OK, "%s step %zu: refused: %s", id, k, err.message);
            }
        }
        if (exp && json_object_get(exp, "view")) {
            json_t *v = game_view(&sorc_game, st, view_seat);
            int ok = matches(json_object_get(exp, "view"), v, where, sizeof(where));
            if (!ok) {
                char *d = json_dumps(v, JSON_COMPACT);
                fprintf(stderr, "%s step %zu view: %s\n", id, k, d);
                free(d);
            }
            json_decref(v);
            ck_assert_msg(ok, "%s step %zu: view mismatch at %s", id, k, where);
        }
        if (exp && json_object_get(exp, "legal")) {
            json_t *l =
                sorc_game.legal(st, (int)json_integer_value(json_object_get(exp, "legal_seat")));
            int ok = json_equal(l, json_object_get(exp, "legal"));
            if (!ok) {
                char *d = json_dumps(l, JSON_COMPACT);
                fprintf(stderr, "%s step %zu legal: %s\n", id, k, d);
                free(d);
            }
            json_decref(l);
            ck_assert_msg(ok, "%s step %zu: legal list differs", id, k);
        }
        if (exp && json_object_get(exp, "log_has")) {
            json_t *v = game_view(&sorc_game, st, -1);
            char *d = json_dumps(json_object_get(v, "log"), JSON_COMPACT);
            const char *want = json_string_value(json_object_get(exp, "log_has"));
            ck_assert_msg(d && strstr(d, want), "%s step %zu: log %s lacks %s", id, k, d, want);
            free(d);
            json_decref(v);
        }
        {
            /* Every step: the log's messages read its lines; "log_keys_has"
             * names one message ([key, arg...]) the log must hold. */
            json_t *v = game_view(&sorc_game, st, -1);
            const json_t *want = json_object_get(exp, "log_keys_has");
            char tag[160];
            snprintf(tag, sizeof(tag), "%s step %zu", id, k);
            log_keys_check(catalogue, v, tag, NULL);
            if (want) {
                json_t *one = json_pack("[O]", want);
                log_keys_has(v, one, tag);
                json_decref(one);
            }
            json_decref(v);
        }
        if (exp && json_is_true(json_object_get(exp, "roundtrip"))) {
            check_roundtrip(st, id);
        }
        if (exp && json_object_get(exp, "legal_count")) {
            json_t *l =
                sorc_game.legal(st, (int)json_integer_value(json_object_get(exp, "legal_seat")));
            long n = (long)json_array_size(l);
            json_decref(l);
            ck_assert_msg(n == json_integer_value(json_object_get(exp, "legal_count")),
                          "%s step %zu: %ld legal actions", id, k, n);
        }
    }
    free(st);
}
END_TEST

/* ---- C tests ---- */

static struct sorc_state *new_game(int merseat, uint8_t seedbyte)
{
    struct sorc_state *st = calloc(1, sizeof(*st));
    struct game_setup su;
    struct game_error err;
    json_t *opt = json_pack("{s:i}", "merlinian_seat", merseat);

    memset(&su, 0, sizeof(su));
    su.nseats = 2;
    snprintf(su.names[0], sizeof(su.names[0]), "Ann");
    snprintf(su.names[1], sizeof(su.names[1]), "Bob");
    memset(su.seed, seedbyte, sizeof(su.seed));
    ck_assert_int_eq(game_start(&sorc_game, st, opt, &su, &err), GAME_OK);
    json_decref(opt);
    return st;
}

/* sorcerers-11.T01: setup and first Lore. */
START_TEST(setup_first_lore)
{
    struct sorc_state *st = new_game(0, 3);
    json_t *v = game_view(&sorc_game, st, -1);
    json_t *exp = json_pack(
        "{s:s, s:[i], s:i, s:i, s:[], s:{s:i, s:i}, s:[{s:s, s:i, s:[{s:s, s:[s]}]}, "
        "{s:s, s:i, s:[{s:s, s:[]}]}], s:n}",
        "phase", "recruit", "active", 0, "turn", 1, "deck_size", 95, "discard", "markers", "dave",
        0, "morgana", 0, "seats", "faction", "merlinian", "hand_size", 7, "sorcerers", "card",
        "balthazar_blake", "objects", "grimhold", "faction", "morganian", "hand_size", 7,
        "sorcerers", "card", "maxim_horvath", "objects", "result");
    char where[256];

    ck_assert_msg(matches(exp, v, where, sizeof(where)), "setup view: %s", where);
    ck_assert_ptr_null(json_object_get(v, "you"));
    json_decref(v);
    json_decref(exp);
    free(st);
}
END_TEST

/* sorcerers-3: options and seat count. */
START_TEST(options_checked)
{
    struct game_error err;
    json_t *bad = json_pack("{s:i}", "colour", 1);
    json_t *badseat = json_pack("{s:i}", "merlinian_seat", 2);
    json_t *good = json_pack("{s:s, s:i}", "merlinian_seat", "random", "max_turns", 50);

    ck_assert_int_eq(sorc_game.check_options(NULL, 3, &err), GAME_E_BAD_OPTION);
    ck_assert_int_eq(sorc_game.check_options(NULL, 1, &err), GAME_E_BAD_OPTION);
    ck_assert_int_eq(sorc_game.check_options(bad, 2, &err), GAME_E_BAD_OPTION);
    ck_assert_int_eq(sorc_game.check_options(badseat, 2, &err), GAME_E_BAD_OPTION);
    ck_assert_int_eq(sorc_game.check_options(good, 2, &err), GAME_OK);
    ck_assert_int_eq(sorc_game.check_options(NULL, 2, &err), GAME_OK);
    json_decref(bad);
    json_decref(badseat);
    json_decref(good);
}
END_TEST

/* sorcerers-3 (I-43): merlinian_seat 1 gives seat 1 the Merlinians. */
START_TEST(seat_option)
{
    struct sorc_state *st = new_game(1, 3);
    json_t *v = game_view(&sorc_game, st, 1);

    ck_assert_str_eq(json_string_value(json_object_get(
                         json_array_get(json_object_get(v, "seats"), 1), "faction")),
                     "merlinian");
    ck_assert_int_eq(sorc_game.active(st), 2u);
    ck_assert_int_eq(json_array_size(json_object_get(json_object_get(v, "you"), "hand")), 7);
    json_decref(v);
    free(st);
}
END_TEST

/* sorcerers-8: the same seed and actions give the same game. */
START_TEST(deterministic)
{
    struct sorc_state *a = new_game(0, 9);
    struct sorc_state *b = new_game(0, 9);
    struct sorc_state *c = new_game(0, 10);

    ck_assert(memcmp(a, b, sizeof(*a)) == 0);
    ck_assert(memcmp(a->hand, c->hand, sizeof(a->hand)) != 0);
    free(a);
    free(b);
    free(c);
}
END_TEST

/* The public part of the view of `seat`, without its "you". */
static char *public_dump(const struct sorc_state *st, int seat)
{
    json_t *v = game_view(&sorc_game, st, seat);
    char *d;

    ck_assert_ptr_nonnull(v);
    json_object_del(v, "you");
    d = json_dumps(v, JSON_SORT_KEYS | JSON_COMPACT);
    json_decref(v);
    return d;
}

/* sorcerers-11.T34: sealed submissions stay hidden until both are in. */
START_TEST(sealed_combo_hidden)
{
    struct sorc_state *st = calloc(1, sizeof(*st));
    struct game_error lerr;
    json_t *pos = json_pack("{s:s, s:[s,s], s:[{s:s, s:[s]}, {s:s}], s:{s:[s,s,s], s:[s,s,s]}}",
                            "start", "duel", "duel", "balthazar_blake", "maxim_horvath", "play",
                            "card", "balthazar_blake", "objects", "grimhold", "card",
                            "maxim_horvath", "hands", "mer", "energy_bolts", "tessla_coils",
                            "car_chase", "mor", "black_magic", "ritual", "incense");
    const char *steps[6][2] = {{"combo_spell", "energy_bolts"},
                               {"combo_event", "car_chase"},
                               {"combo_amp", "tessla_coils"},
                               {"combo_amp", NULL},
                               {"combo_amp", NULL},
                               {"combo_declare", NULL}};
    char *mor_before;
    char *spec_before;
    struct game_error err;

    ck_assert_int_eq(sorc_state_load(st, pos, &lerr), 0);
    json_decref(pos);
    ck_assert_int_eq(sorc_game.active(st), 3u);
    mor_before = public_dump(st, 1);
    spec_before = public_dump(st, -1);
    for (int i = 0; i < 6; i++) {
        json_t *a =
            i < 5 ? json_pack("{s:s, s:s?}", "type", steps[i][0], "card", steps[i][1])
                  : json_pack("{s:s, s:b, s:n}", "type", "combo_declare", "sacrifice", 0, "betray");
        json_t *mine;
        json_t *theirs;
        char *dump;
        ck_assert_int_eq(apply_checked(st, 0, a, &err), GAME_OK);
        json_decref(a);
        mine = game_view(&sorc_game, st, 0);
        theirs = game_view(&sorc_game, st, 1);
        dump = json_dumps(theirs, JSON_COMPACT);
        /* The opponent's whole view (its "you" included) never names a card
         * of the draft. */
        ck_assert_ptr_null(strstr(dump, "energy_bolts"));
        ck_assert_ptr_null(strstr(dump, "car_chase"));
        ck_assert_ptr_null(strstr(dump, "tessla_coils"));
        free(dump);
        dump = public_dump(st, -1);
        ck_assert_ptr_null(strstr(dump, "energy_bolts"));
        free(dump);
        if (i < 5) {
            char *now = public_dump(st, 1);
            ck_assert_str_eq(now, mor_before);
            free(now);
            ck_assert_str_eq(json_string_value(json_object_get(
                                 json_object_get(json_object_get(mine, "you"), "draft"), "spell")),
                             "energy_bolts");
            ck_assert_int_eq(sorc_game.active(st), 3u);
        } else {
            json_t *seat0 = json_array_get(json_object_get(theirs, "seats"), 0);
            ck_assert(json_is_true(json_object_get(seat0, "submitted")));
            ck_assert_int_eq(json_integer_value(json_object_get(seat0, "hand_size")), 3);
            ck_assert_int_eq(sorc_game.active(st), 2u);
        }
        json_decref(mine);
        json_decref(theirs);
    }
    {
        /* Further MER actions: not_your_turn; a one-shot combo: bad_action. */
        json_t *again = json_pack("{s:s, s:n}", "type", "combo_spell", "card");
        json_t *oneshot = json_pack("{s:s, s:s}", "type", "combo", "spell", "black_magic");
        ck_assert_int_eq(apply_checked(st, 0, again, &err), GAME_E_NOT_TURN);
        ck_assert_int_eq(apply_checked(st, 1, oneshot, &err), GAME_E_BAD_ACTION);
        json_decref(again);
        json_decref(oneshot);
    }
    free(mor_before);
    free(spec_before);
    free(st);
}
END_TEST

/* sorcerers-4.4 (T46): refusal precedence and game_over. */
START_TEST(refusal_precedence)
{
    struct sorc_state *st = new_game(0, 5);
    struct game_error err;
    json_t *rec = json_pack("{s:s}", "type", "recruit");
    json_t *pass = json_pack("{s:s}", "type", "pass");
    json_t *junk = json_pack("[i]", 1);

    ck_assert_int_eq(apply_checked(st, 1, rec, &err), GAME_E_NOT_TURN);
    ck_assert_int_eq(apply_checked(st, 0, rec, &err), GAME_E_BAD_ACTION);
    ck_assert_int_eq(apply_checked(st, 0, junk, &err), GAME_E_BAD_ACTION);
    ck_assert_int_eq(apply_checked(st, 0, pass, &err), GAME_E_ILLEGAL);
    ck_assert_ptr_nonnull(strstr(err.message, "wrong_phase"));
    ck_assert_int_eq(apply_checked(st, 5, pass, &err), GAME_E_NOT_TURN);
    st->over = 1;
    st->act[0] = st->act[1] = 0;
    ck_assert_int_eq(apply_checked(st, 0, pass, &err), GAME_E_OVER);
    ck_assert_int_eq(apply_checked(st, 1, pass, &err), GAME_E_OVER);
    json_decref(rec);
    json_decref(pass);
    json_decref(junk);
    free(st);
}
END_TEST

/* Every legal action of a short game is accepted, and only active seats
 * have legal actions (a few hundred steps, deterministic). */
START_TEST(legal_accepted)
{
    struct sorc_state *st = new_game(0, 11);
    unsigned r = 12345;

    for (int n = 0; n < 600 && !st->over; n++) {
        unsigned m = sorc_game.active(st);
        int seat = (m & 1) ? 0 : 1;
        json_t *l = sorc_game.legal(st, seat);
        json_t *o = sorc_game.legal(st, seat ^ 1);
        struct game_error err;
        ck_assert_uint_gt(json_array_size(l), 0);
        if (!(m & (1u << (seat ^ 1)))) {
            ck_assert_uint_eq(json_array_size(o), 0);
        }
        r = r * 1103515245u + 12345u;
        ck_assert_int_eq(
            apply_checked(st, seat, json_array_get(l, (r >> 8) % json_array_size(l)), &err),
            GAME_OK);
        json_decref(l);
        json_decref(o);
    }
    free(st);
}
END_TEST

/* The position dump lists every card once and reloads to the same zones. */
START_TEST(load_dump_roundtrip)
{
    struct sorc_state *st = new_game(0, 4);
    struct sorc_state *back = calloc(1, sizeof(*back));
    json_t *d = sorc_state_dump(st);
    json_t *d2;
    struct game_error err;

    json_object_set_new(d, "start", json_string("recruit"));
    ck_assert_int_eq(sorc_state_load(back, d, &err), 0);
    d2 = sorc_state_dump(back);
    json_object_set_new(d2, "start", json_string("recruit"));
    ck_assert(json_equal(d, d2));
    json_decref(d);
    json_decref(d2);
    free(st);
    free(back);
}
END_TEST

/* ---- The view's sections and change mask ---- */

/* The sections are sorted by key bytes, all before "you", within the mask. */
START_TEST(sections_sorted)
{
    ck_assert_uint_gt(sorc_game.nsections, 0);
    ck_assert_uint_le(sorc_game.nsections, GAME_MAX_SECTIONS);
    for (size_t k = 0; k < sorc_game.nsections; k++) {
        ck_assert_int_lt(strcmp(sorc_game.sections[k].key, "you"), 0);
        if (k > 0) {
            ck_assert_int_lt(strcmp(sorc_game.sections[k - 1].key, sorc_game.sections[k].key), 0);
        }
    }
}
END_TEST

/* 1 when the JSON of `a` and `b` is equal; NULL (out of memory, or text that
 * is not canonical) is never equal. */
static int same_json(json_t *a, json_t *b)
{
    int eq = a && b && json_equal(a, b);

    json_decref(a);
    json_decref(b);
    return eq;
}

/* Checks every promise of changed(before, after): each section whose bit is
 * clear writes equal JSON from both positions, and so does each seat's
 * "you" when GAME_CHANGED_YOU is clear. Returns the number of sections
 * named in the mask. */
static int check_mask(const struct sorc_state *before, const struct sorc_state *after,
                      const char *where)
{
    uint64_t m = sorc_game.changed(before, after);
    int named = 0;

    for (size_t k = 0; k < sorc_game.nsections; k++) {
        const struct game_section *sec = &sorc_game.sections[k];
        if (m & (UINT64_C(1) << k)) {
            named++;
            continue;
        }
        ck_assert_msg(same_json(game_section_json(&sorc_game, before, (int)k, -1),
                                game_section_json(&sorc_game, after, (int)k, -1)),
                      "%s: section %s changed with its bit clear", where, sec->key);
    }
    if (!(m & GAME_CHANGED_YOU)) {
        for (int seat = 0; seat < 2; seat++) {
            ck_assert_msg(same_json(game_section_json(&sorc_game, before, -1, seat),
                                    game_section_json(&sorc_game, after, -1, seat)),
                          "%s: you of seat %d changed with GAME_CHANGED_YOU clear", where, seat);
        }
    }
    return named;
}

/* One step of a seeded random playout: saves `st` into `before`, then
 * applies a random legal action of a random active seat (drawn from *r);
 * returns that seat. */
static int random_step(struct sorc_state *st, struct sorc_state *before, unsigned *r)
{
    unsigned m = sorc_game.active(st);
    struct game_error err;
    *r = *r * 1103515245u + 12345u;
    int seat = m == 3u ? (int)((*r >> 16) & 1u) : (m & 1u) ? 0 : 1;
    json_t *l = sorc_game.legal(st, seat);
    ck_assert_uint_gt(json_array_size(l), 0);
    *r = *r * 1103515245u + 12345u;
    memcpy(before, st, sizeof(*st));
    ck_assert_int_eq(
        apply_checked(st, seat, json_array_get(l, (*r >> 8) % json_array_size(l)), &err), GAME_OK);
    json_decref(l);
    return seat;
}

/* game-view: changed() is honest over seeded random playouts. After every
 * accepted action, each section whose bit is clear is json_equal before and
 * after, and so is "you" of both seats when GAME_CHANGED_YOU is clear. The
 * mask of a position against itself is empty. */
START_TEST(changed_honest)
{
    long actions = 0;
    long named = 0;

    for (int g = 0; g < 6; g++) {
        struct sorc_state *st = new_game(g & 1, (uint8_t)(40 + g));
        struct sorc_state *before = calloc(1, sizeof(*before));
        unsigned r = 2024u + (unsigned)g;

        ck_assert_uint_eq(sorc_game.changed(st, st), 0);
        for (int n = 0; n < 3000 && !st->over; n++) {
            char where[64];
            (void)random_step(st, before, &r);
            snprintf(where, sizeof(where), "game %d action %d", g, n);
            named += check_mask(before, st, where);
            actions++;
            ck_assert_uint_eq(sorc_game.changed(st, st), 0);
        }
        ck_assert_msg(st->over, "game %d did not finish", g);
        free(before);
        free(st);
    }
    /* A typical action rebuilds only a few sections. */
    ck_assert_msg(named < actions * (long)sorc_game.nsections / 2,
                  "%ld sections named over %ld actions", named, actions);
}
END_TEST

/* R-sorcerers-7.2: undoable() is honest over seeded random playouts. When
 * it says an action may be taken back, no seat's "you" shows anything new
 * of a hidden zone (the other hand, Scry, Divination, the Track list, the
 * loser's hand, transfers between hands; for the other seat its sealed
 * answers too), the other hand and the deck size are as they were and the
 * game is not over; both answers occur. */
static void check_you_same(const struct sorc_state *before, const struct sorc_state *after,
                           int seat, int nkeys, const char *where)
{
    static const char *const keys[] = {"divination",       "opponent_hand",    "scry",
                                       "track_list",       "tracked",          "transfers",
                                       "submitted_choice", "submitted_negate", "submitted_defense"};
    json_t *v1 = game_view(&sorc_game, before, seat);
    json_t *v2 = game_view(&sorc_game, after, seat);
    json_t *y1 = json_object_get(v1, "you");
    json_t *y2 = json_object_get(v2, "you");
    for (int i = 0; i < nkeys; i++) {
        json_t *a = json_object_get(y1, keys[i]);
        json_t *b = json_object_get(y2, keys[i]);
        /* What the seat was shown may go away; nothing new may appear. */
        ck_assert_msg(!b || (a && json_equal(a, b)), "%s: seat %d's you.%s changed", where, seat,
                      keys[i]);
    }
    json_decref(v1);
    json_decref(v2);
}

START_TEST(undoable_honest)
{
    long yes = 0;
    long no = 0;

    for (int g = 0; g < 6; g++) {
        struct sorc_state *st = new_game(g & 1, (uint8_t)(70 + g));
        struct sorc_state *before = calloc(1, sizeof(*before));
        unsigned r = 7u + (unsigned)g;

        for (int n = 0; n < 3000 && !st->over; n++) {
            char where[64];
            int seat = random_step(st, before, &r);
            if (!sorc_game.undoable(before, st, seat)) {
                no++;
                continue;
            }
            yes++;
            snprintf(where, sizeof(where), "game %d action %d", g, n);
            int opp = sorc__side(before, seat) ^ 1;
            ck_assert_msg(!st->over, "%s: the game ended", where);
            ck_assert_msg(st->ndeck == before->ndeck && st->nhand[opp] == before->nhand[opp] &&
                              memcmp(st->hand[opp], before->hand[opp], sizeof(st->hand[opp])) == 0,
                          "%s: the deck or the other hand changed", where);
            /* The actor's own sealed answer shows in its own "you". */
            check_you_same(before, st, seat, 6, where);
            check_you_same(before, st, seat ^ 1, 9, where);
        }
        free(before);
        free(st);
    }
    ck_assert_msg(yes > 0 && no > 0, "undoable %ld, not %ld", yes, no);
}
END_TEST

/* The log's messages over seeded random playouts: after every accepted
 * action the view's log_keys reads its log, line for line (lang/README.md);
 * the games write most of the catalogue's messages. */
START_TEST(log_keys_read_the_log)
{
    json_t *seen = json_object();
    long lines = 0;

    for (int g = 0; g < 12; g++) {
        struct sorc_state *st = new_game(g & 1, (uint8_t)(100 + g));
        struct sorc_state *before = calloc(1, sizeof(*before));
        unsigned r = 99u + (unsigned)g;

        for (int n = 0; n < 3000 && !st->over; n++) {
            char where[64];
            (void)random_step(st, before, &r);
            snprintf(where, sizeof(where), "game %d action %d", g, n);
            json_t *v = game_view(&sorc_game, st, -1);
            lines += log_keys_check(catalogue, v, where, seen);
            json_decref(v);
        }
        free(before);
        free(st);
    }
    ck_assert_msg(json_object_size(seen) >= LOG_KEYS_MET, "%zu messages met in %ld lines",
                  json_object_size(seen), lines);
    json_decref(seen);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("sorcerers");
    TCase *tc = tcase_create("scenarios");
    TCase *tcc = tcase_create("engine");
    TCase *tcv = tcase_create("view");
    SRunner *sr;
    int failed;

    load_dir(argc > 1 ? argv[1] : "scenarios");
    catalogue = log_keys_catalogue(argc > 2 ? argv[2] : "lang/sorcerers.json");
    if (!catalogue) {
        return 1;
    }
    tcase_set_timeout(tc, 120);
    tcase_set_timeout(tcc, 120);
    tcase_set_timeout(tcv, 120);
    tcase_add_loop_test(tc, run_scenario, 0, nscen);
    tcase_add_test(tcc, setup_first_lore);
    tcase_add_test(tcc, options_checked);
    tcase_add_test(tcc, seat_option);
    tcase_add_test(tcc, deterministic);
    tcase_add_test(tcc, sealed_combo_hidden);
    tcase_add_test(tcc, refusal_precedence);
    tcase_add_test(tcc, legal_accepted);
    tcase_add_test(tcc, load_dump_roundtrip);
    tcase_add_test(tcv, sections_sorted);
    tcase_add_test(tcv, changed_honest);
    tcase_add_test(tcv, log_keys_read_the_log);
    tcase_add_test(tcc, undoable_honest);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcc);
    suite_add_tcase(s, tcv);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    for (int i = 0; i < nscen; i++) {
        json_decref(scenarios[i]);
    }
    json_decref(catalogue);
    printf("%d scenarios\n", nscen);
    return failed ? 1 : 0;
}
