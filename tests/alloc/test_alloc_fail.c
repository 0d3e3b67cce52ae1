/* SPDX-License-Identifier: MIT */
/*
 * test_alloc_fail.c - allocation failures in every registered game and in the
 * protocol calls made on views. Each game names the games to play in its
 * test hooks (game_tests.h `alloc_setups`); the calls are made at the
 * start, the middle, the last position before the end and the end of each.
 * jansson's allocator hook (json_set_alloc_funcs) fails the N-th allocation
 * for N = 1, 2, 3, ... until a call runs without reaching N, once with only
 * that allocation failing and once with it and every later one failing.
 * Each call must then either report the failure (NULL, a negative status, a
 * non-OK game status) or return exactly what it returns without failures;
 * it must release everything it allocated, never change a state it only
 * reads, and a refused game_apply() must leave the state byte-identical.
 * Only jansson is hooked: libsodium and the C library allocate normally.
 * The normal allocator is restored after every call; this file changes no
 * game or protocol code and knows no game by name.
 *
 * usage: test_alloc_fail [GAME_ID]   (no GAME_ID: every game)
 */
#include <check.h>

#include "report.h"
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_tests.h"
#include "proto.h"
#include "rng.h"

static const char *only_game;

/* ---- The failing allocator ---- */

static long alloc_seen; /* allocations requested while armed */
static long fail_at;    /* the first allocation to fail (1-based) */
static bool fail_rest;  /* fail every allocation after fail_at too */
static long fail_count; /* allocations refused */
static long live;       /* hook allocations not yet freed */

static void *failing_malloc(size_t n)
{
    alloc_seen++;
    if (alloc_seen == fail_at || (fail_rest && alloc_seen > fail_at)) {
        fail_count++;
        return NULL;
    }
    void *p = malloc(n);
    if (p) {
        live++;
    }
    return p;
}

static void counting_free(void *p)
{
    if (p) {
        live--;
    }
    free(p);
}

/* Installs the hook failing allocation `n` (and the later ones if `rest`). */
static void arm(long n, bool rest)
{
    alloc_seen = 0;
    fail_at = n;
    fail_rest = rest;
    fail_count = 0;
    live = 0;
    json_set_alloc_funcs(failing_malloc, counting_free);
}

/* Restores the normal allocator. */
static void disarm(void)
{
    json_set_alloc_funcs(malloc, free);
}

/* ---- Findings ---- */

/* Adds `token` to the comma-separated list `out` unless it is there. */
static void add_token(char *out, size_t n, const char *token)
{
    size_t len = strlen(out);
    size_t tl = strlen(token);

    for (const char *p = strstr(out, token); p; p = strstr(p + 1, token)) {
        if ((p == out || p[-1] == ',') && (p[tl] == ',' || p[tl] == '\0')) {
            return;
        }
    }
    snprintf(out + len, n - len, "%s%s", len ? "," : "", token);
}

/* Adds to `out` the top-level members (objects) in which `got`, a value
 * returned under failure, differs from `want`; for arrays, their sizes. */
static void describe_difference(const json_t *want, const json_t *got, char *out, size_t n)
{
    if (json_is_object(want) && json_is_object(got)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)want, k, v) {
            json_t *g = json_object_get(got, k);
            if (!json_equal(v, g)) {
                char token[96];
                if (strcmp(k, "you") == 0 && json_is_object(v) && json_is_object(g)) {
                    const char *yk;
                    json_t *yv;
                    json_object_foreach(v, yk, yv) {
                        if (!json_equal(yv, json_object_get(g, yk))) {
                            snprintf(token, sizeof(token), "you.%s", yk);
                            add_token(out, n, token);
                        }
                    }
                } else {
                    snprintf(token, sizeof(token), "%s", k);
                    add_token(out, n, token);
                }
            }
        }
    } else if (json_is_array(want) && json_is_array(got)) {
        char token[64];
        snprintf(token, sizeof(token), "%zu of %zu elements", json_array_size(got),
                 json_array_size(want));
        add_token(out, n, token);
    } else {
        add_token(out, n, "the whole value");
    }
}

/* ---- Positions ---- */

struct position {
    const char *label;
    void *st;
    json_t *action; /* a legal action of `seat`, NULL when over */
    int seat;
};

struct fixture {
    const struct game_ops *g;
    int nseats;
    struct position pos[4];
    int npos;
};

/* Plays a seeded random game and keeps the start, a middle position, the
 * last position before the end and the end. */
static void fixture_init(struct fixture *f, const struct game_ops *g,
                         const struct game_tests_setup *ts)
{
    const char *options = ts->options;
    int nseats = ts->nseats;
    uint64_t seed = ts->seed;
    struct game_setup setup;
    struct game_error err;
    struct game_rng rng;
    uint8_t rseed[32] = {0};
    json_t *opts = options ? json_loads(options, 0, NULL) : NULL;
    ck_assert_msg(!options || opts, "%s: fixture options are not JSON", g->id);
    size_t cap = 256, n = 0;
    unsigned char *states = malloc(cap * g->state_size);
    json_t *actions = json_array();
    int *seats = malloc(cap * sizeof(int));

    memset(f, 0, sizeof(*f));
    f->g = g;
    f->nseats = nseats;
    memset(&setup, 0, sizeof(setup));
    setup.nseats = nseats;
    for (int i = 0; i < 32; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        setup.seed[i] = (uint8_t)(seed >> 56);
        rseed[i] = (uint8_t)(seed >> 40);
    }
    for (int i = 0; i < nseats; i++) {
        snprintf(setup.names[i], GAME_NAME_MAX, "Seat %d", i);
    }
    game_rng_seed(&rng, rseed);
    ck_assert_msg(game_start(g, states, opts, &setup, &err) == GAME_OK, "%s init: %s", g->id,
                  err.message);
    for (;;) {
        void *st = states + n * g->state_size;
        unsigned active = g->active(st);
        if (active == 0 || n >= 20000) {
            break;
        }
        int pick[GAME_MAX_SEATS], k = 0;
        for (int s = 0; s < nseats; s++) {
            if (active & (1u << s)) {
                pick[k++] = s;
            }
        }
        int seat = pick[game_rng_below(&rng, (uint32_t)k)];
        json_t *legal = g->legal(st, seat);
        json_t *a = json_array_get(legal, game_rng_below(&rng, (uint32_t)json_array_size(legal)));
        json_array_append(actions, a);
        json_decref(legal);
        if (n + 1 == cap) {
            cap *= 2;
            states = realloc(states, cap * g->state_size);
            seats = realloc(seats, cap * sizeof(int));
            ck_assert(states && seats);
            st = states + n * g->state_size;
        }
        seats[n] = seat;
        memcpy(states + (n + 1) * g->state_size, st, g->state_size);
        ck_assert_int_eq(game_apply(g, states + (n + 1) * g->state_size, seat, a, &err), GAME_OK);
        n++;
    }
    ck_assert_msg(g->active(states + n * g->state_size) == 0, "%s: the game did not end", g->id);
    ck_assert_int_ge(n, 3);
    static const char *const labels[] = {"start", "middle", "before the end", "end"};
    size_t at[] = {0, n / 2, n - 1, n};
    for (int i = 0; i < 4; i++) {
        struct position *p = &f->pos[f->npos++];
        p->label = labels[i];
        p->st = malloc(g->state_size);
        memcpy(p->st, states + at[i] * g->state_size, g->state_size);
        p->action = at[i] < n ? json_incref(json_array_get(actions, at[i])) : NULL;
        p->seat = at[i] < n ? seats[at[i]] : -1;
    }
    free(states);
    free(seats);
    json_decref(actions);
    json_decref(opts);
}

static void fixture_fini(struct fixture *f)
{
    for (int i = 0; i < f->npos; i++) {
        free(f->pos[i].st);
        json_decref(f->pos[i].action);
    }
}

/* ---- Driving a call through every failing allocation ---- */

/* One call under test: returns a new reference or NULL. */
typedef json_t *(*call_fn)(const void *ctx);

/* Runs `call` with the N-th allocation failing for every N, once failing only
 * that allocation and once failing the rest too. `want` is the value without
 * failures. `state`/`state_size` name memory the call must not change. */
static void run_failing(const char *what, call_fn call, const void *ctx, const json_t *want,
                        const void *state, size_t state_size, struct report *r)
{
    void *before = state ? malloc(state_size) : NULL;

    if (state) {
        memcpy(before, state, state_size);
    }
    for (int mode = 0; mode < 2; mode++) {
        const char *how = mode ? " and every later one" : "";
        long bad_n = 0, nbad = 0, leak_n = 0, nleak = 0, leak_blocks = 0;
        char bad_diff[512] = "";
        for (long n = 1;; n++) {
            arm(n, mode == 1);
            json_t *got = call(ctx);
            long failed = fail_count;
            bool complete = got == NULL || json_equal(got, want);
            /* Comparing allocates nothing; freeing goes through the hook so
             * that `live` counts what the call left behind. */
            fail_at = 0;
            fail_rest = false;
            if (!complete) {
                bad_n = nbad++ == 0 ? n : bad_n;
                describe_difference(want, got, bad_diff, sizeof(bad_diff));
            }
            json_decref(got);
            long leaked = live;
            disarm();
            if (leaked != 0 && nleak++ == 0) {
                leak_n = n;
                leak_blocks = leaked;
            }
            if (state && memcmp(before, state, state_size) != 0) {
                report_add(r, "%s changed the state it reads", what);
                memcpy((void *)state, before, state_size);
            }
            if (failed == 0) {
                break;
            }
        }
        if (nbad > 0) {
            report_add(r,
                       "%s returned a non-NULL but incomplete value in %ld case(s), first "
                       "when allocation %ld%s failed (members dropped or wrong: %s)",
                       what, nbad, bad_n, how, bad_diff);
        }
        if (nleak > 0) {
            report_add(r,
                       "%s leaked in %ld case(s), first %ld block(s) when allocation %ld%s "
                       "failed",
                       what, nleak, leak_blocks, leak_n, how);
        }
    }
    free(before);
}

/* ---- Game calls ---- */

struct game_call {
    const struct game_ops *g;
    const void *st;
    int seat;
};

/* The view's text as a JSON string: the writer's buffer grows through the
 * failing allocator; the text is compared byte for byte, and never parsed
 * under failures (jansson's own parser is not what this suite tests). */
static json_t *call_view(const void *ctx)
{
    const struct game_call *c = ctx;
    struct game_text t = {0};
    json_t *v = NULL;

    if (game_view_text(c->g, c->st, c->seat, &t) == 0) {
        v = json_stringn(t.data, t.len);
    }
    game_text_free(&t);
    return v;
}

static json_t *call_legal(const void *ctx)
{
    const struct game_call *c = ctx;
    return c->g->legal(c->st, c->seat);
}

static json_t *call_schema(const void *ctx)
{
    const struct game_call *c = ctx;
    return c->g->options_schema();
}

/* The games of `g`'s fixtures, played; returns how many (malloc'ed in *ret). */
static int fixtures_of(const struct game_ops *g, struct fixture **ret)
{
    const struct game_tests *t = g->tests;
    struct fixture *f = calloc(t->nalloc_setups, sizeof(*f));

    ck_assert_msg(t->nalloc_setups > 0, "%s: no allocation fixtures", g->id);
    ck_assert_ptr_nonnull(f);
    for (size_t i = 0; i < t->nalloc_setups; i++) {
        fixture_init(&f[i], g, &t->alloc_setups[i]);
    }
    *ret = f;
    return (int)t->nalloc_setups;
}

static void fixtures_fini(struct fixture *f, int n)
{
    for (int i = 0; i < n; i++) {
        fixture_fini(&f[i]);
    }
    free(f);
}

/* 1 when `g` is one this run covers. */
static bool selected(const struct game_ops *g)
{
    return !only_game || strcmp(only_game, g->id) == 0;
}

static void view_under_failures_of(const struct game_ops *g)
{
    struct fixture *f;
    int nf = fixtures_of(g, &f);
    struct report r = {0};

    for (int i = 0; i < nf; i++) {
        for (int p = 0; p < f[i].npos; p++) {
            for (int s = -1; s < f[i].nseats; s++) {
                struct game_call c = {g, f[i].pos[p].st, s};
                json_t *want = call_view(&c);
                char what[128];
                ck_assert_ptr_nonnull(want);
                snprintf(what, sizeof(what), "%s game_view(seat %d) at the %s", g->id, s,
                         f[i].pos[p].label);
                run_failing(what, call_view, &c, want, c.st, g->state_size, &r);
                json_decref(want);
            }
        }
    }
    fixtures_fini(f, nf);
    ck_assert_msg(r.n == 0, "%d finding(s):\n%s", r.n, r.text);
}

START_TEST(view_under_failures)
{
    for (size_t gi = 0; game_registry[gi]; gi++) {
        if (selected(game_registry[gi])) {
            view_under_failures_of(game_registry[gi]);
        }
    }
}
END_TEST

static void legal_under_failures_of(const struct game_ops *g)
{
    struct fixture *f;
    int nf = fixtures_of(g, &f);
    struct report r = {0};

    for (int i = 0; i < nf; i++) {
        for (int p = 0; p < f[i].npos; p++) {
            for (int s = 0; s < f[i].nseats; s++) {
                struct game_call c = {g, f[i].pos[p].st, s};
                json_t *want = g->legal(c.st, s);
                char what[128];
                ck_assert_ptr_nonnull(want);
                snprintf(what, sizeof(what), "%s legal(seat %d) at the %s", g->id, s,
                         f[i].pos[p].label);
                run_failing(what, call_legal, &c, want, c.st, g->state_size, &r);
                json_decref(want);
            }
        }
    }
    fixtures_fini(f, nf);
    ck_assert_msg(r.n == 0, "%d finding(s):\n%s", r.n, r.text);
}

START_TEST(legal_under_failures)
{
    for (size_t gi = 0; game_registry[gi]; gi++) {
        if (selected(game_registry[gi])) {
            legal_under_failures_of(game_registry[gi]);
        }
    }
}
END_TEST

static void result_and_schema_under_failures_of(const struct game_ops *g)
{
    struct fixture *f;
    int nf = fixtures_of(g, &f);
    struct report r = {0};
    struct game_call c = {g, NULL, 0};
    json_t *want = g->options_schema();

    ck_assert_ptr_nonnull(want);
    run_failing("options_schema()", call_schema, &c, want, NULL, 0, &r);
    json_decref(want);
    for (int i = 0; i < nf; i++) {
        for (int p = 0; p < f[i].npos; p++) {
            c.st = f[i].pos[p].st;
            /* The result is the "result" section, written under failures
             * with the whole view above. */
            want = game_result(g, c.st);
            ck_assert_msg((want != NULL) == (p == f[i].npos - 1), "%s: result() at the %s", g->id,
                          f[i].pos[p].label);
            json_decref(want);
        }
    }
    fixtures_fini(f, nf);
    ck_assert_msg(r.n == 0, "%d finding(s):\n%s", r.n, r.text);
}

START_TEST(result_and_schema_under_failures)
{
    for (size_t gi = 0; game_registry[gi]; gi++) {
        if (selected(game_registry[gi])) {
            result_and_schema_under_failures_of(game_registry[gi]);
        }
    }
}
END_TEST

/* game_apply() on a copy: all or nothing under every failing allocation. */
static void apply_under_failures_of(const struct game_ops *g)
{
    struct fixture *f;
    int nf = fixtures_of(g, &f);
    struct report r = {0};
    void *want = malloc(g->state_size);
    void *copy = malloc(g->state_size);
    long max_allocs = 0;

    for (int i = 0; i < nf; i++) {
        for (int p = 0; p < f[i].npos; p++) {
            const struct position *pos = &f[i].pos[p];
            struct game_error err;
            if (!pos->action) {
                continue;
            }
            memcpy(want, pos->st, g->state_size);
            ck_assert_int_eq(game_apply(g, want, pos->seat, pos->action, &err), GAME_OK);
            for (int mode = 0; mode < 2; mode++) {
                for (long n = 1;; n++) {
                    memcpy(copy, pos->st, g->state_size);
                    arm(n, mode == 1);
                    int rc = game_apply(g, copy, pos->seat, pos->action, &err);
                    long failed = fail_count;
                    long leaked = live;
                    long seen = alloc_seen;
                    disarm();
                    max_allocs = seen > max_allocs ? seen : max_allocs;
                    if (rc == GAME_OK && memcmp(copy, want, g->state_size) != 0) {
                        report_add(&r,
                                   "%s apply at the %s: accepted under failure %ld but the "
                                   "state differs",
                                   g->id, pos->label, n);
                    }
                    if (rc != GAME_OK && memcmp(copy, pos->st, g->state_size) != 0) {
                        report_add(&r,
                                   "%s apply at the %s: refused (%d) under failure %ld but "
                                   "changed the state",
                                   g->id, pos->label, rc, n);
                    }
                    if (rc != GAME_OK && failed == 0) {
                        report_add(&r, "%s apply at the %s: a legal action refused (%d)", g->id,
                                   pos->label, rc);
                    }
                    if (leaked != 0) {
                        report_add(&r, "%s apply at the %s leaked %ld block(s) under failure %ld",
                                   g->id, pos->label, leaked, n);
                    }
                    if (failed == 0) {
                        break;
                    }
                }
            }
        }
    }
    printf("%s: apply made at most %ld jansson allocation(s)\n", g->id, max_allocs);
    free(want);
    free(copy);
    fixtures_fini(f, nf);
    ck_assert_msg(r.n == 0, "%d finding(s):\n%s", r.n, r.text);
}

START_TEST(apply_under_failures)
{
    for (size_t gi = 0; game_registry[gi]; gi++) {
        if (selected(game_registry[gi])) {
            apply_under_failures_of(game_registry[gi]);
        }
    }
}
END_TEST

/* ---- Protocol calls on views ---- */

struct proto_call {
    const json_t *a;
    const json_t *b;
};

/* Results of the calls that do not return JSON. A call returns json_true()
 * (a constant that allocates nothing) on success and keeps its output in
 * `text` (libc memory), NULL when it reports ENOMEM, json_false() for any
 * other failure. */
static char *text;
static size_t text_len;

static json_t *keep_text(const char *s, size_t n)
{
    free(text);
    text = malloc(n + 1);
    ck_assert_ptr_nonnull(text);
    memcpy(text, s, n);
    text[n] = '\0';
    text_len = n;
    return json_true();
}

/* The ops between the canonical texts of the two views. */
static json_t *call_diff(const void *ctx)
{
    const struct proto_call *c = ctx;
    struct proto_text ops = {0};
    size_t alen, blen;
    char *a = proto_canonical(c->a, &alen);
    char *b = a ? proto_canonical(c->b, &blen) : NULL;
    json_t *got = NULL;
    int rc = b ? proto_patch_diff_text(&ops, NULL, a, alen, b, blen) : -ENOMEM;

    if (rc == 0) {
        got = keep_text(ops.data ? ops.data : "", ops.len);
    } else if (rc != -ENOMEM) {
        got = json_false();
    }
    proto_text_free(&ops);
    free(a);
    free(b);
    return got;
}

static json_t *call_hash(const void *ctx)
{
    const struct proto_call *c = ctx;
    char out[PROTO_HASH_HEX_LEN + 1];
    int rc = proto_view_hash(c->b, out);

    if (rc == -ENOMEM) {
        return NULL;
    }
    return rc == 0 ? keep_text(out, strlen(out)) : json_false();
}

static json_t *call_dump(const void *ctx)
{
    const struct proto_call *c = ctx;
    size_t len;

    errno = 0;
    char *line = proto_line_dump(c->b, &len);
    if (!line) {
        return errno == ENOMEM ? NULL : json_false();
    }
    json_t *ok = keep_text(line, len);
    free(line);
    return ok;
}

/* Runs a text-producing call under failures and compares its text. */
static void run_failing_text(const char *what, call_fn call, const void *ctx, struct report *r)
{
    ck_assert(call(ctx) == json_true());
    char *want = text;
    size_t want_len = text_len;
    text = NULL;

    for (int mode = 0; mode < 2; mode++) {
        const char *how = mode ? " and every later one" : "";
        long other_n = 0, nother = 0, diff_n = 0, ndiff = 0, leak_n = 0, nleak = 0;
        for (long n = 1;; n++) {
            arm(n, mode == 1);
            json_t *got = call(ctx);
            long failed = fail_count;
            long leaked = live;
            disarm();
            if (got == json_false() && nother++ == 0) {
                other_n = n;
            } else if (got && got != json_false() &&
                       (text_len != want_len || memcmp(text, want, want_len) != 0) &&
                       ndiff++ == 0) {
                diff_n = n;
            }
            if (leaked != 0 && nleak++ == 0) {
                leak_n = n;
            }
            free(text);
            text = NULL;
            if (failed == 0) {
                break;
            }
        }
        if (nother > 0) {
            report_add(r,
                       "%s reported an error other than ENOMEM in %ld case(s), first when "
                       "allocation %ld%s failed",
                       what, nother, other_n, how);
        }
        if (ndiff > 0) {
            report_add(r,
                       "%s returned different text in %ld case(s), first when allocation "
                       "%ld%s failed",
                       what, ndiff, diff_n, how);
        }
        if (nleak > 0) {
            report_add(r, "%s leaked in %ld case(s), first when allocation %ld%s failed", what,
                       nleak, leak_n, how);
        }
    }
    free(want);
}

static void protocol_on_views_under_failures_of(const struct game_ops *g)
{
    struct fixture *f;
    int nf = fixtures_of(g, &f);
    struct report r = {0};

    for (int i = 0; i < nf; i++) {
        for (int p = 1; p < f[i].npos; p++) {
            for (int s = -1; s < f[i].nseats; s++) {
                json_t *a = game_view(g, f[i].pos[p - 1].st, s);
                json_t *b = game_view(g, f[i].pos[p].st, s);
                json_t *msg = json_pack("{s:s, s:i, s:i, s:O}", "ev", "state", "rev", p, "seat", s,
                                        "view", b);
                struct proto_call c = {a, b};
                struct proto_call m = {NULL, msg};
                char what[160];
                ck_assert(a && b && msg);

                snprintf(what, sizeof(what), "proto_patch_diff_text(%s views of %d, to the %s)",
                         g->id, s, f[i].pos[p].label);
                run_failing_text(what, call_diff, &c, &r);

                snprintf(what, sizeof(what), "proto_view_hash(%s view of %d at the %s)", g->id, s,
                         f[i].pos[p].label);
                run_failing_text(what, call_hash, &c, &r);

                snprintf(what, sizeof(what), "proto_line_dump(%s state event of %d at the %s)",
                         g->id, s, f[i].pos[p].label);
                run_failing_text(what, call_dump, &m, &r);

                json_decref(a);
                json_decref(b);
                json_decref(msg);
            }
        }
    }
    fixtures_fini(f, nf);
    ck_assert_msg(r.n == 0, "%d finding(s):\n%s", r.n, r.text);
}

START_TEST(protocol_on_views_under_failures)
{
    for (size_t gi = 0; game_registry[gi]; gi++) {
        if (selected(game_registry[gi])) {
            protocol_on_views_under_failures_of(game_registry[gi]);
        }
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
    Suite *s = suite_create("alloc_fail");
    const struct {
        const char *name;
        const TTest *test;
    } cases[] = {
        {"view", view_under_failures},
        {"legal", legal_under_failures},
        {"apply", apply_under_failures},
        {"result_schema", result_and_schema_under_failures},
        {"protocol", protocol_on_views_under_failures},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_set_timeout(tc, 0);
        tcase_add_test(tc, cases[i].test);
        suite_add_tcase(s, tc);
    }
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
