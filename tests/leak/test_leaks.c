/* SPDX-License-Identifier: MIT */
/*
 * test_leaks.c - secrecy of the views and diffs of every registered game.
 * Seeded random games of each game, over every seat count and option value
 * it accepts, build after every action the view of every seat and of a
 * spectator (game_view) and the JSON Patch from each recipient's previous
 * view, and check them: no view or diff holds the seed or a word of the
 * generator, and the game's own secrecy scan (game_tests.h `scan`, which
 * reads the truth from the game's state) finds nothing that recipient may
 * not see. Besides scanning what is sent, it changes the hidden parts of a
 * copy of the state (`perturb`) and requires every view that may not know
 * them to stay byte-identical. A self-test plants every kind of leak the
 * game declares (`plant`), and the seed and the generator, into copies of
 * real views and diffs and requires the checks to report each, and shows
 * that the non-interference check sees a visible change. An action the
 * server would take back (`undoable`, the others' "you" the same) must
 * have told nobody anything: the generator still, and the actor's view
 * after it the same whatever was hidden from it before. This file knows
 * no game by name and only reads game states it builds itself.
 *
 * usage: test_leaks [GAME_ID [RUN NRUNS [GAMES_PER_CONFIG]]]   (no GAME_ID: every game)
 *
 * With RUN and NRUNS the games are dealt over NRUNS runs, so that meson can
 * spread one game's over the cores: run RUN plays the games RUN, RUN +
 * NRUNS, ... of the sequence, and run 0 also runs the self-test.
 */
#include <check.h>

#include "report.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_tests.h"
#include "proto.h"
#include "rng.h"

#define MAX_STEPS 6000
#define PROBE_STEPS 400

static const char *only_game;
static int games_per_config; /* 0: each game's own count */
static int run_index, nruns = 1;
static long total_steps;

/* ---- Reports ---- */

/* game_tests_report callback into a struct report. */
static void report_cb(void *ud, const char *fmt, ...)
{
    char line[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    report_add(ud, "%s", line);
}

/* ---- Secrets common to every game: the seed and the generator ---- */

struct secrets {
    char seed_hex[65];
    uint64_t words[4 + GAME_TESTS_MAX_WORDS]; /* the seed's words, then the game's */
    int nwords;
};

static void secrets_init(struct secrets *sec, const struct game_ops *g,
                         const struct game_setup *setup, const void *st)
{
    proto_hex(setup->seed, GAME_SEED_BYTES, sec->seed_hex);
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--) {
            w = (w << 8) | setup->seed[8 * i + b];
        }
        sec->words[i] = w;
    }
    int n = g->tests->secret_words(st, sec->words + 4);
    ck_assert_msg(n >= 0 && n <= GAME_TESTS_MAX_WORDS, "%s: secret_words gave %d", g->id, n);
    sec->nwords = 4 + n;
}

struct secret_scan {
    const struct secrets *sec;
    struct report *r;
};

/* Reports a string holding 16 or more hex digits of the seed in a row, or an
 * integer equal to a word of the seed or of the generator. */
static void secret_visit(void *ud, const char *path, const char *key, const json_t *v)
{
    const struct secret_scan *s = ud;
    const struct secrets *sec = s->sec;

    if (key) {
        v = NULL;
    }
    if (json_is_string(v) || key) {
        const char *str = key ? key : json_string_value(v);
        for (int i = 0; i + 16 <= 64; i += 4) {
            char window[17];
            memcpy(window, sec->seed_hex + i, 16);
            window[16] = '\0';
            if (strstr(str, window)) {
                report_add(s->r, "%s holds seed digits %s", path, window);
                return;
            }
        }
    } else if (json_is_integer(v)) {
        uint64_t n = (uint64_t)json_integer_value(v);
        for (int i = 0; i < sec->nwords; i++) {
            if (n == sec->words[i] && n > 0xffffffffu) {
                report_add(s->r, "%s holds a word of the %s", path, i < 4 ? "seed" : "generator");
            }
        }
    }
}

/* ---- Playing ---- */

struct config {
    const struct game_ops *g;
    json_t *options; /* borrowed */
    int nseats;
};

struct game_run {
    const struct config *c;
    void *st;
    void *copy;
    void *before; /* the position before the last action */
    void *memo;   /* the game's memo_size bytes */
    struct game_setup setup;
    struct secrets sec;
    json_t *prev[GAME_MAX_SEATS + 1];
    struct game_rng rng;
    int step;
};

/* Every leak check of one document sent to `seat`: the seed and the
 * generator, then the game's own scan. */
static void scan_doc(const struct game_run *run, const void *st, int seat, const json_t *prev,
                     const json_t *doc, bool is_patch, struct report *r)
{
    struct secret_scan ss = {&run->sec, r};
    struct game_leak_doc d = {st, run->memo, seat, prev, doc, is_patch};
    struct game_tests_report out = {report_cb, r};

    game_tests_walk(doc, is_patch, secret_visit, &ss);
    run->c->g->tests->scan(&d, &out);
}

/* The views of every recipient of `st` into views[seat + 1]. */
static void build_views(const struct game_run *run, const void *st, json_t **views)
{
    for (int s = -1; s < run->c->nseats; s++) {
        views[s + 1] = game_view(run->c->g, st, s);
        ck_assert_msg(views[s + 1] != NULL, "%s: game_view(%d) failed", run->c->g->id, s);
    }
}

static void free_views(json_t **views, int n)
{
    for (int i = 0; i <= n; i++) {
        json_decref(views[i]);
        views[i] = NULL;
    }
}

/* The canonical text of the view of `seat` of `st`; malloc'ed. */
static char *view_text(const struct game_ops *g, const void *st, int seat)
{
    struct game_text t = {0};
    char *s;

    ck_assert_msg(game_view_text(g, st, seat, &t) == 0, "%s: the view of %d is not one value",
                  g->id, seat);
    s = strdup(t.data);
    ck_assert_ptr_nonnull(s);
    game_text_free(&t);
    return s;
}

/* The number of views of `copy` that differ from `views` (whose texts are
 * `texts`), leaving out the recipients in `skip` (bit seat + 1), which may
 * know what was changed. Views are compared as their canonical text: equal
 * exactly when the values are. The first difference is printed with `what`
 * unless `what` is NULL. */
static int count_changed(const struct game_run *run, json_t **views, char **texts, unsigned skip,
                         const char *what)
{
    int n = 0;

    for (int s = -1; s < run->c->nseats; s++) {
        char *again = skip & (1u << (s + 1)) ? NULL : view_text(run->c->g, run->copy, s);
        if (again && strcmp(texts[s + 1], again) != 0) {
            if (n++ == 0 && what) {
                json_t *other = json_loads(again, 0, NULL);
                json_t *d = other ? proto_patch_diff(views[s + 1], other) : NULL;
                char *text = d ? json_dumps(d, JSON_COMPACT) : NULL;
                fprintf(stderr, "%s step %d: the view of %d changes with %s: %.600s\n",
                        run->c->g->id, run->step, s, what, text ? text : "?");
                free(text);
                json_decref(d);
                json_decref(other);
            }
        }
        free(again);
    }
    return n;
}

/* Non-interference: changing hidden parts of the state changes no view that
 * may not know them. */
static void check_hidden_parts(struct game_run *run, json_t **views)
{
    const struct game_ops *g = run->c->g;
    char *texts[GAME_MAX_SEATS + 1] = {0};

    for (int s = -1; s < run->c->nseats; s++) {
        texts[s + 1] = view_text(g, run->st, s);
    }
    for (int k = 0; k < g->tests->nperturb; k++) {
        unsigned may_see = 0;
        memcpy(run->copy, run->st, g->state_size);
        if (!g->tests->perturb(run->copy, run->memo, k, &run->rng, &may_see)) {
            continue;
        }
        char what[64];
        snprintf(what, sizeof(what), "hidden change %d", k);
        ck_assert_msg(count_changed(run, views, texts, may_see, what) == 0,
                      "%s step %d: a view that may not know it changes with hidden change %d",
                      g->id, run->step, k);
    }
    for (int s = 0; s <= run->c->nseats; s++) {
        free(texts[s]);
    }
}

/* All checks after an action (or at the start, `action` NULL). */
static void check_position(struct game_run *run, const json_t *action, bool deep)
{
    const struct game_ops *g = run->c->g;
    json_t *views[GAME_MAX_SEATS + 1] = {0};

    if (g->tests->memo_update) {
        g->tests->memo_update(run->memo, run->st, action);
    }
    build_views(run, run->st, views);
    for (int s = -1; s < run->c->nseats; s++) {
        struct report r = {0};
        json_t *prev = run->prev[s + 1];
        scan_doc(run, run->st, s, prev, views[s + 1], false, &r);
        ck_assert_msg(r.n == 0, "%s step %d: view of %d leaks: %s", g->id, run->step, s, r.text);
        if (prev) {
            json_t *patch = proto_patch_diff(prev, views[s + 1]);
            ck_assert_ptr_nonnull(patch);
            scan_doc(run, run->st, s, prev, patch, true, &r);
            ck_assert_msg(r.n == 0, "%s step %d: diff to %d leaks: %s", g->id, run->step, s,
                          r.text);
            json_decref(patch);
        }
    }
    if (deep) {
        check_hidden_parts(run, views);
    }
    for (int s = -1; s < run->c->nseats; s++) {
        json_decref(run->prev[s + 1]);
        run->prev[s + 1] = views[s + 1];
    }
}

static void run_start(struct game_run *run, const struct config *c, uint64_t seed)
{
    struct game_error err;
    uint8_t rseed[32] = {0};

    memset(run, 0, sizeof(*run));
    run->c = c;
    run->st = calloc(1, c->g->state_size);
    run->copy = calloc(1, c->g->state_size);
    run->before = calloc(1, c->g->state_size);
    run->memo = calloc(1, c->g->tests->memo_size + 1);
    ck_assert(run->st && run->copy && run->before && run->memo);
    run->setup.nseats = c->nseats;
    for (int i = 0; i < 32; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        run->setup.seed[i] = (uint8_t)(seed >> 56);
        rseed[i] = (uint8_t)(seed >> 48);
    }
    game_rng_seed(&run->rng, rseed);
    static const char *const names[] = {"Kip Ueno", "Lu Ota",   "Vy Nash",
                                        "Wes Oyo",  "Ida Fenn", "Jo Pike"};
    for (int i = 0; i < c->nseats; i++) {
        snprintf(run->setup.names[i], GAME_NAME_MAX, "%s", names[i]);
    }
    ck_assert_msg(game_start(c->g, run->st, c->options, &run->setup, &err) == GAME_OK,
                  "%s init: %s", c->g->id, err.message);
    /* The generator right after setup is as secret as the seed. */
    secrets_init(&run->sec, c->g, &run->setup, run->st);
}

static void run_finish(struct game_run *run)
{
    free_views(run->prev, run->c->nseats);
    free(run->st);
    free(run->copy);
    free(run->before);
    free(run->memo);
}

/* One random action by a random active seat; returns it (new reference). */
static json_t *random_action(struct game_run *run, int *ret_seat)
{
    const struct game_ops *g = run->c->g;
    unsigned active = g->active(run->st);
    int seats[GAME_MAX_SEATS], n = 0;

    for (int s = 0; s < run->c->nseats; s++) {
        if (active & (1u << s)) {
            seats[n++] = s;
        }
    }
    ck_assert_msg(n > 0, "%s: nobody may act", g->id);
    int seat = seats[game_rng_below(&run->rng, (uint32_t)n)];
    json_t *legal = g->legal(run->st, seat);
    ck_assert_msg(json_array_size(legal) > 0, "%s: active seat %d has no action", g->id, seat);
    json_t *a = json_array_get(legal, game_rng_below(&run->rng, (uint32_t)json_array_size(legal)));
    json_incref(a);
    json_decref(legal);
    *ret_seat = seat;
    return a;
}

/* An action the server would take back (the game says undoable, and no
 * other seat's "you" changed) told nobody anything: the generator did not
 * move, and the acting seat's view after it is the same whatever the
 * parts hidden from that seat were before it (the action played again on
 * copies with those parts changed). */
static void check_undoable(struct game_run *run, int seat, const json_t *action)
{
    const struct game_ops *g = run->c->g;
    uint64_t w0[GAME_TESTS_MAX_WORDS], w1[GAME_TESTS_MAX_WORDS];
    struct game_error err;

    if (!g->undoable || !g->undoable(run->before, run->st, seat)) {
        return;
    }
    int n0 = g->tests->secret_words ? g->tests->secret_words(run->before, w0) : 0;
    int n1 = g->tests->secret_words ? g->tests->secret_words(run->st, w1) : 0;
    ck_assert_msg(n0 == n1 && memcmp(w0, w1, sizeof(w0[0]) * (size_t)n0) == 0,
                  "%s step %d: an undoable action moved the generator", g->id, run->step);
    /* The server takes back no action that changed another seat's "you". */
    bool others_same = true;
    for (int s = 0; s < run->c->nseats && others_same; s++) {
        struct game_text a = {0}, b = {0};
        if (s != seat) {
            g->you(&a, run->before, s);
            g->you(&b, run->st, s);
            others_same = a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
        }
        game_text_free(&a);
        game_text_free(&b);
    }
    if (!others_same) {
        return;
    }
    char *mine = view_text(g, run->st, seat);
    for (int k = 0; k < g->tests->nperturb; k++) {
        unsigned may_see = 0;
        memcpy(run->copy, run->before, g->state_size);
        if (!g->tests->perturb(run->copy, run->memo, k, &run->rng, &may_see) ||
            (may_see & (1u << (seat + 1))) ||
            game_apply(g, run->copy, seat, action, &err) != GAME_OK) {
            continue;
        }
        char *other = view_text(g, run->copy, seat);
        ck_assert_msg(strcmp(mine, other) == 0,
                      "%s step %d: an undoable action of seat %d shows it hidden change %d", g->id,
                      run->step, seat, k);
        free(other);
    }
    free(mine);
}

/* Applies one random legal action, then checks the position. */
static void step_once(struct game_run *run, bool deep)
{
    struct game_error err;
    int seat;
    json_t *a = random_action(run, &seat);

    memcpy(run->before, run->st, run->c->g->state_size);
    ck_assert_msg(game_apply(run->c->g, run->st, seat, a, &err) == GAME_OK,
                  "%s: legal action refused: %s", run->c->g->id, err.message);
    run->step++;
    if (deep) {
        check_undoable(run, seat, a);
    }
    check_position(run, a, deep);
    json_decref(a);
}

static void play_one(const struct config *c, uint64_t seed, bool deep)
{
    struct game_run run;

    run_start(&run, c, seed);
    check_position(&run, NULL, true);
    while (c->g->active(run.st) != 0 && run.step < MAX_STEPS) {
        step_once(&run, deep || run.step % 8 == 7);
    }
    total_steps += run.step;
    run_finish(&run);
}

/* The configurations of a game: every seat count it accepts with every
 * enum option value (and, for integer options, a spread of values). */
static json_t *configs_of(const struct game_ops *g)
{
    json_t *combos = json_array();
    json_t *schema = g->options_schema();
    const char *key;
    json_t *desc;

    json_array_append_new(combos, json_null());
    json_array_append_new(combos, json_object());
    json_object_foreach(schema, key, desc) {
        json_t *values = json_object_get(desc, "values");
        json_t *own = NULL;
        if (!json_is_array(values)) {
            /* An integer option: its minimum, small values and its default. */
            own = json_pack("[iiiO]", json_integer_value(json_object_get(desc, "min")), 1, 3,
                            json_object_get(desc, "default"));
            values = own;
        }
        json_t *next = json_array();
        size_t i, j;
        json_t *base, *val;
        json_array_foreach(combos, i, base) {
            if (json_is_null(base)) {
                json_array_append(next, base);
                continue;
            }
            json_array_append(next, base); /* the option left out */
            json_array_foreach(values, j, val) {
                json_t *o = json_deep_copy(base);
                json_object_set(o, key, val);
                json_array_append_new(next, o);
            }
        }
        json_decref(own);
        json_decref(combos);
        combos = next;
    }
    json_decref(schema);
    return combos;
}

/* 1 when `g` is one this run covers. */
static bool selected(const struct game_ops *g)
{
    return !only_game || strcmp(only_game, g->id) == 0;
}

START_TEST(random_games_leak_nothing)
{
    for (size_t gi = 0; game_registry[gi]; gi++) {
        const struct game_ops *g = game_registry[gi];
        if (!selected(g)) {
            continue;
        }
        int per_config = games_per_config > 0 ? games_per_config : g->tests->leak_games_per_config;
        json_t *combos = configs_of(g);
        size_t i;
        json_t *opts;
        int games = 0, dealt = 0;

        total_steps = 0;
        json_array_foreach(combos, i, opts) {
            for (int n = g->min_players; n <= g->max_players; n++) {
                struct game_error err;
                struct config c = {g, opts, n};
                if (g->check_options(opts, n, &err) != GAME_OK) {
                    continue;
                }
                for (int k = 0; k < per_config; k++) {
                    if (dealt++ % nruns != run_index) {
                        continue;
                    }
                    play_one(&c, (uint64_t)(i * 7919 + (size_t)n * 131 + (size_t)k * 104729 + 17),
                             k == 0);
                    games++;
                }
            }
        }
        json_decref(combos);
        printf("%s: %d games, %ld actions checked\n", g->id, games, total_steps);
        ck_assert_int_gt(games, 0);
    }
}
END_TEST

/* ---- Self-test: every kind of leak is reported ---- */

/* Plays the game's probe setup with all checks until probe_reached() says
 * yes (or PROBE_STEPS actions), and leaves the run there. */
static void reach_probe(struct game_run *run, const struct config *c)
{
    const struct game_tests *t = c->g->tests;

    run_start(run, c, t->leak_probe.seed);
    check_position(run, NULL, false);
    for (int i = 0; i < PROBE_STEPS && c->g->active(run->st) != 0; i++) {
        if (!t->probe_reached || t->probe_reached(run->st)) {
            break;
        }
        step_once(run, false);
    }
    ck_assert_msg(!t->probe_reached || t->probe_reached(run->st),
                  "%s: the probe position was not reached", c->g->id);
}

/* Requires the scan of `doc` (a copy of a view, or a patch) to report. */
static void expect_report(const struct game_run *run, int seat, const json_t *doc, bool is_patch,
                          const char *what)
{
    struct report r = {0};

    scan_doc(run, run->st, seat, run->prev[seat + 1], doc, is_patch, &r);
    ck_assert_msg(r.n > 0, "%s: the injected leak (%s) was not reported", run->c->g->id, what);
}

/* The leaks every game shares: the seed and the generator, in a view and
 * in a diff sent to seat 0. */
static void plant_common(const struct game_run *run)
{
    json_t *base = run->prev[0 + 1];
    json_t *v = json_deep_copy(base);
    json_object_set_new(v, "seed_commit", json_string(run->sec.seed_hex));
    expect_report(run, 0, v, false, "seed hex");
    json_decref(v);

    v = json_deep_copy(base);
    json_object_set_new(v, "note", json_string(run->sec.seed_hex + 8));
    expect_report(run, 0, v, false, "seed digits inside a string");
    json_decref(v);

    json_t *p = json_pack("[{s:s, s:s, s:s}]", "op", "add", "path", "/log/0", "value",
                          run->sec.seed_hex + 20);
    expect_report(run, 0, p, true, "seed digits in a diff");
    json_decref(p);

    int planted = 0;
    for (int i = 0; i < run->sec.nwords; i++) {
        uint64_t w = run->sec.words[i];
        if (w > 0xffffffffu && w <= (uint64_t)INT64_MAX) {
            v = json_deep_copy(base);
            json_object_set_new(v, "nonce", json_integer((json_int_t)w));
            expect_report(run, 0, v, false, i < 4 ? "seed word" : "generator word");
            json_decref(v);
            planted++;
        }
    }
    ck_assert_msg(planted > 0, "%s: no secret word to plant", run->c->g->id);
}

START_TEST(leaks_are_reported)
{
    for (size_t gi = 0; game_registry[gi]; gi++) {
        const struct game_ops *g = game_registry[gi];
        if (!selected(g)) {
            continue;
        }
        const struct game_tests *t = g->tests;
        json_t *opts = t->leak_probe.options ? json_loads(t->leak_probe.options, 0, NULL) : NULL;
        struct config c = {g, opts, t->leak_probe.nseats};
        struct game_run run;
        int planted = 0;

        ck_assert_msg(!t->leak_probe.options || opts, "%s: probe options are not JSON", g->id);
        reach_probe(&run, &c);
        plant_common(&run);
        for (int k = 0; k < t->nplants; k++) {
            struct game_leak_plant pl = {0};
            int rc = t->plant(run.st, run.memo, run.prev, k, &pl);
            ck_assert_msg(rc >= 0, "%s: leak %d could not be planted at the probe position", g->id,
                          k);
            if (rc == 0) {
                continue;
            }
            ck_assert(pl.seat >= -1 && pl.seat < c.nseats && pl.doc);
            expect_report(&run, pl.seat, pl.doc, pl.is_patch, pl.what);
            json_decref(pl.doc);
            planted++;
        }
        ck_assert_msg(planted > 0, "%s: no leak planted", g->id);
        /* The non-interference check sees a change that reaches the views. */
        memcpy(run.copy, run.st, g->state_size);
        int rc = t->perturb_visible(run.copy, run.memo, &run.rng);
        ck_assert_msg(rc >= 0, "%s: no visible change at the probe position", g->id);
        if (rc > 0) {
            char *texts[GAME_MAX_SEATS + 1] = {0};
            for (int s = -1; s < c.nseats; s++) {
                texts[s + 1] = view_text(g, run.st, s);
            }
            ck_assert_int_gt(count_changed(&run, run.prev, texts, 0, NULL), 0);
            for (int s = 0; s <= c.nseats; s++) {
                free(texts[s]);
            }
        }
        run_finish(&run);
        json_decref(opts);
    }
}
END_TEST

int main(int argc, char **argv)
{
    if (argc > 1) {
        only_game = argv[1];
        if (!game_find(only_game)) {
            fprintf(stderr, "unknown game %s\n", only_game);
            return EXIT_FAILURE;
        }
    }
    if (argc > 3) {
        run_index = atoi(argv[2]);
        nruns = atoi(argv[3]);
        if (nruns < 1 || run_index < 0 || run_index >= nruns) {
            fprintf(stderr, "RUN must be 0 to NRUNS - 1\n");
            return EXIT_FAILURE;
        }
    }
    if (argc > 4) {
        games_per_config = atoi(argv[4]);
    }
    Suite *s = suite_create("leaks");
    TCase *tc;
    if (run_index == 0) {
        tc = tcase_create("detectors");
        tcase_set_timeout(tc, 0);
        tcase_add_test(tc, leaks_are_reported);
        suite_add_tcase(s, tc);
    }
    tc = tcase_create("random_games");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, random_games_leak_nothing);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
