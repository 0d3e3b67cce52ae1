/* SPDX-License-Identifier: MIT */
/*
 * test_strict_actions.c - every game's action decoder is strict: an action
 * holds only the fields its type defines, each of its JSON type. Seeded
 * random games of every registered game, for every seat count and every
 * value of every enum option (each also left out), through game.h only; at
 * every position, for the actions `legal` lists to every seat that may act
 * (every one of a type listed at most PER_TYPE times; otherwise PER_TYPE of
 * that type picked by the seeded generator: actions of one type have the
 * same fields, which is what a strict decoder is about):
 *
 *   (a) the action with one more member ("zzz": 1) at its top level and in
 *       each object nested in it is refused with GAME_E_BAD_ACTION, by a
 *       message that names the extra key, and the state is byte-identical;
 *   (b) the action with one value (any member but the top-level "type",
 *       any array element, at any depth) replaced by one of another JSON
 *       type (a real, a string, an object) is refused with
 *       GAME_E_BAD_ACTION or GAME_E_ILLEGAL with a message, the state is
 *       byte-identical, and a GAME_E_BAD_ACTION message names the field;
 *   (c) the action as listed is still accepted.
 *
 * It knows no game by name: a game is covered by being in games.def.
 * Refusals go through game_apply() and are compared with memcmp(), as in
 * the playouts suite.
 *
 * usage: test_strict_actions [GAME_ID [GAMES_PER_CONFIG]]
 */
#include "ck_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combos.h"
#include "game.h"
#include "rng.h"

#define MAX_STEPS 20000
#define MAX_DEPTH 8
#define DEFAULT_GAMES 2
#define PER_TYPE 4 /* actions of one type altered per position */

static const char *only_game;
static int games_per_config = DEFAULT_GAMES;

/* A place inside an action: the keys and indexes from its top level. */
struct path {
    int depth;
    const char *key[MAX_DEPTH]; /* NULL: an array index */
    size_t index[MAX_DEPTH];
};

/* What one game's run has checked, for its summary line. */
struct tally {
    long positions;
    long actions;
    long refusals;
    json_t *types; /* the "type" values seen, as keys */
};

/* One listed action being checked at one position. */
struct probe {
    const struct game_ops *g;
    void *st;           /* the position; game_apply() must leave it unchanged */
    const void *before; /* a copy of it */
    int seat;
    const json_t *action; /* as listed (borrowed) */
    struct tally *tally;
};

static char *dump(const json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* The value at `p` inside `root` (borrowed), NULL when absent. */
static json_t *resolve(json_t *root, const struct path *p)
{
    json_t *v = root;

    for (int i = 0; v && i < p->depth; i++) {
        v = p->key[i] ? json_object_get(v, p->key[i]) : json_array_get(v, p->index[i]);
    }
    return v;
}

/* The key nearest to the end of `p`: the field a refusal should name. */
static const char *field_of(const struct path *p)
{
    for (int i = p->depth - 1; i >= 0; i--) {
        if (p->key[i]) {
            return p->key[i];
        }
    }
    return NULL;
}

/* `p` as a JSON Pointer, or "(top level)" for the action itself. */
static void path_text(const struct path *p, char *out, size_t len)
{
    size_t n = 0;

    snprintf(out, len, "%s", p->depth ? "" : "(top level)");
    for (int i = 0; i < p->depth && n < len; i++) {
        int w = p->key[i] ? snprintf(out + n, len - n, "/%s", p->key[i])
                          : snprintf(out + n, len - n, "/%zu", p->index[i]);
        n += w > 0 ? (size_t)w : 0;
    }
}

/* Applies `altered` at the probe's position and checks the refusal: one of
 * the codes `want` / `also` (0: none), a message, the state unchanged, and
 * a GAME_E_BAD_ACTION message naming `name` when it is not NULL. */
static void expect_refused(const struct probe *pr, const json_t *altered, int want, int also,
                           const char *name, const char *what)
{
    const struct game_ops *g = pr->g;
    struct game_error err;

    memset(&err, 0, sizeof(err));
    int rc = game_apply(g, pr->st, pr->seat, altered, &err);
    if (rc != want && (also == 0 || rc != also)) {
        char *a = dump(altered);
        ck_abort_msg("%s: %s %s gave %d (%s), not a refusal as bad_action", g->id, what, a, rc,
                     err.message);
    }
    ck_assert_msg(memcmp(pr->before, pr->st, g->state_size) == 0, "%s: %s changed the state", g->id,
                  what);
    ck_assert_msg(err.message[0] != '\0', "%s: %s refused without a message", g->id, what);
    if (rc == GAME_E_BAD_ACTION && name && !strstr(err.message, name)) {
        char *a = dump(altered);
        ck_abort_msg("%s: %s %s was refused by \"%s\", which does not name \"%s\"", g->id, what, a,
                     err.message, name);
    }
    pr->tally->refusals++;
}

/* (a): one member more in the object at `p`. */
static void try_extra_member(const struct probe *pr, const struct path *p)
{
    json_t *altered = json_deep_copy(pr->action);
    json_t *obj = resolve(altered, p);
    char key[16] = "zzz";
    char where[256];

    ck_assert_ptr_nonnull(obj);
    for (size_t n = 3; json_object_get(obj, key) && n + 1 < sizeof(key); n++) {
        key[n] = 'z';
        key[n + 1] = '\0';
    }
    ck_assert_int_eq(json_object_set_new(obj, key, json_integer(1)), 0);
    path_text(p, where, sizeof(where));
    char what[300];
    snprintf(what, sizeof(what), "an extra member \"%s\" at %s of", key, where);
    expect_refused(pr, altered, GAME_E_BAD_ACTION, 0, key, what);
    json_decref(altered);
}

/* (b): the value at `p` replaced by each value of another JSON type. */
static void try_wrong_types(const struct probe *pr, const struct path *p)
{
    const json_t *orig = resolve((json_t *)pr->action, p);
    json_t *const wrong[] = {json_real(1.5), json_string("zzz"), json_object()};
    char where[256];

    path_text(p, where, sizeof(where));
    for (size_t k = 0; k < sizeof(wrong) / sizeof(wrong[0]); k++) {
        ck_assert_ptr_nonnull(wrong[k]);
        if (json_typeof(wrong[k]) == json_typeof(orig)) {
            continue;
        }
        json_t *altered = json_deep_copy(pr->action);
        struct path parent = *p;
        parent.depth--;
        json_t *holder = resolve(altered, &parent);
        int d = p->depth - 1;
        int rc = p->key[d] ? json_object_set(holder, p->key[d], wrong[k])
                           : json_array_set(holder, p->index[d], wrong[k]);
        ck_assert_int_eq(rc, 0);
        char what[300];
        snprintf(what, sizeof(what), "a value of another type at %s of", where);
        expect_refused(pr, altered, GAME_E_BAD_ACTION, GAME_E_ILLEGAL, field_of(p), what);
        json_decref(altered);
    }
    for (size_t k = 0; k < sizeof(wrong) / sizeof(wrong[0]); k++) {
        json_decref(wrong[k]);
    }
}

/* Every mutation of the value at `p` and below it. */
static void walk(const struct probe *pr, struct path *p)
{
    const json_t *v = resolve((json_t *)pr->action, p);

    ck_assert_msg(p->depth < MAX_DEPTH, "%s: an action nested deeper than %d", pr->g->id,
                  MAX_DEPTH);
    if (json_is_object(v)) {
        const char *key;
        json_t *member;
        try_extra_member(pr, p);
        json_object_foreach((json_t *)v, key, member) {
            if (p->depth == 0 && strcmp(key, "type") == 0) {
                continue;
            }
            p->key[p->depth] = key;
            p->depth++;
            try_wrong_types(pr, p);
            walk(pr, p);
            p->depth--;
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *elem;
        json_array_foreach(v, i, elem) {
            p->key[p->depth] = NULL;
            p->index[p->depth] = i;
            p->depth++;
            try_wrong_types(pr, p);
            walk(pr, p);
            p->depth--;
        }
    }
}

/* (a), (b) and (c) for one listed action. */
static void check_action(struct probe *pr, void *scratch)
{
    const struct game_ops *g = pr->g;
    struct game_error err;
    struct path p = {0};

    ck_assert_msg(json_is_object(pr->action), "%s: a listed action is not an object", g->id);
    const char *type = json_string_value(json_object_get(pr->action, "type"));
    ck_assert_msg(type != NULL, "%s: a listed action has no string \"type\"", g->id);
    json_object_set_new(pr->tally->types, type, json_true());
    walk(pr, &p);
    if (game_try(g, pr->st, scratch, pr->seat, pr->action, &err) != GAME_OK) {
        char *a = dump(pr->action);
        ck_abort_msg("%s: listed action %s refused: %s", g->id, a, err.message);
    }
    pr->tally->actions++;
}

static void play_one(const struct game_ops *g, const json_t *options, int nseats, uint64_t seed,
                     struct tally *tally)
{
    struct game_setup setup;
    struct game_error err;
    struct game_rng rng;
    uint8_t rseed[32] = {0};
    void *st = calloc(1, g->state_size);
    void *before = calloc(1, g->state_size);
    void *scratch = calloc(1, g->state_size);

    ck_assert(st && before && scratch);
    memset(&setup, 0, sizeof(setup));
    setup.nseats = nseats;
    for (int i = 0; i < 8; i++) {
        rseed[i] = (uint8_t)(seed >> (8 * i));
        setup.seed[i] = (uint8_t)(seed >> (8 * i));
        setup.seed[31 - i] = (uint8_t)((seed * 0x9e3779b97f4a7c15ULL) >> (8 * i));
    }
    rseed[10] = 0xa5;
    game_rng_seed(&rng, rseed);
    for (int i = 0; i < nseats; i++) {
        snprintf(setup.names[i], sizeof(setup.names[i]), "Player %d", i + 1);
    }
    ck_assert_msg(game_start(g, st, options, &setup, &err) == GAME_OK, "%s init: %s", g->id,
                  err.message);
    for (int steps = 0;; steps++) {
        unsigned active = g->active(st);
        if (active == 0) {
            break;
        }
        ck_assert_msg(steps < MAX_STEPS, "%s: no end after %d actions", g->id, MAX_STEPS);
        memcpy(before, st, g->state_size);
        tally->positions++;
        json_t *lists[GAME_MAX_SEATS] = {0};
        int seats[GAME_MAX_SEATS] = {0};
        int n = 0;
        for (int s = 0; s < nseats; s++) {
            if (!(active & (1u << s))) {
                continue;
            }
            lists[s] = g->legal(st, s);
            ck_assert_msg(json_array_size(lists[s]) > 0, "%s: active seat %d has no legal action",
                          g->id, s);
            seats[n++] = s;
            /* From a random place in the list round to it again, each type
             * until PER_TYPE of it were altered. */
            size_t len = json_array_size(lists[s]);
            size_t start = game_rng_below(&rng, (uint32_t)len);
            json_t *seen = json_object();
            for (size_t k = 0; k < len; k++) {
                json_t *action = json_array_get(lists[s], (start + k) % len);
                const char *type = json_string_value(json_object_get(action, "type"));
                json_int_t done = json_integer_value(json_object_get(seen, type ? type : ""));
                if (done >= PER_TYPE) {
                    continue;
                }
                json_object_set_new(seen, type ? type : "", json_integer(done + 1));
                struct probe pr = {g, st, before, s, action, tally};
                check_action(&pr, scratch);
            }
            json_decref(seen);
        }
        int seat = seats[game_rng_below(&rng, (uint32_t)n)];
        json_t *pick = json_array_get(lists[seat],
                                      game_rng_below(&rng, (uint32_t)json_array_size(lists[seat])));
        ck_assert_int_eq(game_apply(g, st, seat, pick, &err), GAME_OK);
        for (int s = 0; s < nseats; s++) {
            json_decref(lists[s]);
        }
    }
    free(st);
    free(before);
    free(scratch);
}

START_TEST(listed_actions_altered_are_refused)
{
    int games = 0;

    for (size_t gi = 0; game_registry[gi]; gi++) {
        const struct game_ops *g = game_registry[gi];
        if (only_game && strcmp(only_game, g->id) != 0) {
            continue;
        }
        struct tally tally = {0, 0, 0, json_object()};
        json_t *schema = g->options_schema();
        json_t *combos = option_combos(schema, true);
        json_decref(schema);
        size_t i;
        json_t *opts;
        json_array_foreach(combos, i, opts) {
            for (int n = g->min_players; n <= g->max_players; n++) {
                struct game_error err;
                if (g->check_options(opts, n, &err) != GAME_OK) {
                    continue;
                }
                for (int k = 0; k < games_per_config; k++) {
                    uint64_t seed = (uint64_t)(gi * 1000003 + i * 7919 + (size_t)n * 131) +
                                    (uint64_t)k * 104729 + 5;
                    play_one(g, opts, n, seed, &tally);
                    games++;
                }
            }
        }
        json_decref(combos);
        printf("%s: action types seen:", g->id);
        const char *type;
        json_t *seen;
        json_object_foreach(tally.types, type, seen) {
            printf(" %s", type);
        }
        printf("\n");
        printf("%s: %ld positions, %ld listed actions of %zu types, %ld altered ones refused\n",
               g->id, tally.positions, tally.actions, json_object_size(tally.types),
               tally.refusals);
        ck_assert_msg(tally.refusals > 0, "%s: nothing was altered", g->id);
        json_decref(tally.types);
    }
    ck_assert_int_gt(games, 0);
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
    if (argc > 2) {
        games_per_config = atoi(argv[2]);
        if (games_per_config < 1) {
            fprintf(stderr, "GAMES_PER_CONFIG must be at least 1\n");
            return EXIT_FAILURE;
        }
    }
    const struct ck_case cases[] = {
        {"strict", listed_actions_altered_are_refused},
    };
    return ck_run("strict_actions", cases, 1, NULL, NULL, 100000);
}
