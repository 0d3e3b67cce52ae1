/* SPDX-License-Identifier: MIT */
/*
 * test_playouts.c - seeded random full games of every registered game,
 * through game.h only, for every seat count and every value of every enum
 * option. After every action it checks what must always hold:
 *
 *   - some seat may act until the game ends, and every game ends;
 *   - every action `legal` lists is accepted by `apply` as it is;
 *   - a refused action (a non-active seat, a malformed or altered action)
 *     leaves the state byte-identical;
 *   - the game's own invariants hold;
 *   - every seat's view minus "you" equals the spectator view, which has
 *     no "you"; views hold integers only and never the seed;
 *   - the JSON Patch between consecutive views rebuilds the new view;
 *   - replaying the record (options, names, seed, actions) reproduces every
 *     view byte for byte.
 *
 * usage: test_playouts [GAMES_PER_CONFIG] [GAME_ID] [SEED_OFFSET]
 */
#include "ck_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "proto.h"
#include "rng.h"

#define MAX_STEPS 20000

static int games_per_config = 40;
static const char *only_game;
static int seed_offset;

struct config {
    const struct game_ops *game;
    json_t *options;
    int nseats;
};

/* Canonical bytes of the view of `seat`; malloc'ed. */
static char *view_bytes(const struct game_ops *g, const void *st, int seat, json_t **ret_view)
{
    json_t *v = g->view(st, seat);
    size_t len;
    char *s;

    ck_assert_msg(v != NULL, "%s: view(%d) failed", g->id, seat);
    s = proto_canonical(v, &len);
    ck_assert_msg(s != NULL, "%s: view of seat %d is not canonical (a real number?)", g->id, seat);
    if (ret_view) {
        *ret_view = v;
    } else {
        json_decref(v);
    }
    return s;
}

static void check_views(const struct config *c, const void *st, const char *seed_hex,
                        json_t **prev, int step)
{
    const struct game_ops *g = c->game;
    json_t *spec;
    char *spec_s = view_bytes(g, st, -1, &spec);

    ck_assert_msg(json_object_get(spec, "you") == NULL, "%s: spectator view has you", g->id);
    ck_assert_msg(strstr(spec_s, seed_hex) == NULL, "%s: view holds the seed", g->id);
    static const char *const keys[] = {"game", "phase", "active", "seats", "result", "log"};
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        ck_assert_msg(json_object_get(spec, keys[k]) != NULL, "%s: view lacks \"%s\"", g->id,
                      keys[k]);
    }
    for (int s = -1; s < c->nseats; s++) {
        json_t *v;
        char *vs = view_bytes(g, st, s, &v);
        ck_assert_msg(strstr(vs, seed_hex) == NULL, "%s: view of %d holds the seed", g->id, s);
        if (s >= 0) {
            json_t *pub = json_deep_copy(v);
            json_object_del(pub, "you");
            ck_assert_msg(json_equal(pub, spec), "%s step %d: public part of seat %d differs",
                          g->id, step, s);
            json_decref(pub);
        }
        /* The diff from the previous view rebuilds this one. */
        json_t **p = &prev[s + 1];
        if (*p) {
            json_t *patch = proto_patch_diff(*p, v);
            ck_assert_ptr_nonnull(patch);
            ck_assert_int_eq(proto_patch_apply(p, patch), 0);
            ck_assert_msg(json_equal(*p, v), "%s: patch does not rebuild the view", g->id);
            json_decref(patch);
        }
        json_decref(*p);
        *p = v;
        free(vs);
    }
    json_decref(spec);
    free(spec_s);
}

/* Tries actions that must be refused and checks they change nothing. */
static void check_refusals(const struct config *c, void *st, void *scratch, struct game_rng *rng,
                           const json_t *legal_action, unsigned active)
{
    const struct game_ops *g = c->game;
    struct game_error err;

    memcpy(scratch, st, g->state_size);
    for (int s = 0; s < c->nseats; s++) {
        if (!(active & (1u << s))) {
            json_t *l = g->legal(st, s);
            ck_assert_msg(json_array_size(l) == 0, "%s: inactive seat %d has legal actions",
                          g->id, s);
            json_decref(l);
            int rc = g->apply(st, s, legal_action, &err);
            ck_assert_msg(rc != GAME_OK, "%s: inactive seat %d was allowed to act", g->id, s);
            ck_assert_msg(memcmp(scratch, st, g->state_size) == 0, "%s: refusal changed state",
                          g->id);
        }
    }
    static const char *const junk[] = {
        "{}", "{\"type\":7}", "{\"type\":\"no-such-action\"}", "[]", "{\"type\":\"\"}",
    };
    for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
        json_t *a = json_loads(junk[i], JSON_DECODE_ANY, NULL);
        int seat = 0;
        while (!(active & (1u << seat))) {
            seat++;
        }
        int rc = g->apply(st, seat, a, &err);
        ck_assert_msg(rc == GAME_E_BAD_ACTION || rc == GAME_E_ILLEGAL,
                      "%s: junk action %s gave %d", g->id, junk[i], rc);
        ck_assert_msg(err.message[0] != '\0', "%s: refusal without a message", g->id);
        ck_assert_msg(memcmp(scratch, st, g->state_size) == 0, "%s: junk changed state", g->id);
        json_decref(a);
    }
    /* An altered legal action: every integer field bumped far out of range. */
    json_t *alt = json_deep_copy(legal_action);
    const char *key;
    json_t *v;
    bool changed = false;
    json_object_foreach(alt, key, v) {
        if (json_is_integer(v)) {
            json_integer_set(v, json_integer_value(v) + 1000 + (json_int_t)game_rng_below(rng, 5));
            changed = true;
        }
    }
    if (changed) {
        int seat = 0;
        while (!(active & (1u << seat))) {
            seat++;
        }
        if (g->apply(st, seat, alt, &err) == GAME_OK) {
            memcpy(st, scratch, g->state_size); /* accepted: the game may allow it; undo */
        } else {
            ck_assert_msg(memcmp(scratch, st, g->state_size) == 0, "%s: altered action changed state",
                          g->id);
        }
    }
    json_decref(alt);
}

static void play_one(const struct config *c, uint64_t game_seed, bool deep)
{
    const struct game_ops *g = c->game;
    struct game_setup setup;
    struct game_error err;
    struct game_rng rng;
    uint8_t rseed[32] = {0};
    void *st = calloc(1, g->state_size);
    void *scratch = calloc(1, g->state_size);
    json_t *actions = json_array();
    json_t *views = json_array(); /* canonical views per step, for replay */
    json_t *prev[GAME_MAX_SEATS + 1] = {0};
    char seed_hex[65];
    int steps = 0;

    memset(&setup, 0, sizeof(setup));
    setup.nseats = c->nseats;
    for (int i = 0; i < 8; i++) {
        rseed[i] = (uint8_t)(game_seed >> (8 * i));
        setup.seed[i] = (uint8_t)(game_seed >> (8 * i));
        setup.seed[31 - i] = (uint8_t)((game_seed * 0x9e3779b97f4a7c15ULL) >> (8 * i));
    }
    rseed[9] = 0x5a;
    game_rng_seed(&rng, rseed);
    for (int i = 0; i < c->nseats; i++) {
        snprintf(setup.names[i], sizeof(setup.names[i]), "Player %d", i + 1);
    }
    proto_hex(setup.seed, 32, seed_hex);
    ck_assert_msg(g->init(st, c->options, &setup, &err) == GAME_OK, "%s init: %s", g->id,
                  err.message);

    for (;;) {
        unsigned active = g->active(st);
        json_t *result = g->result(st);
        if (deep) {
            check_views(c, st, seed_hex, prev, steps);
        }
        {
            char *vb = view_bytes(g, st, steps % (c->nseats + 1) - 1, NULL);
            json_array_append_new(views, json_string(vb));
            free(vb);
        }
        if (g->check_invariants) {
            ck_assert_msg(g->check_invariants(st, &err) == 0, "%s step %d: invariant: %s", g->id,
                          steps, err.message);
        }
        if (result) {
            ck_assert_msg(active == 0, "%s: seats active after the end", g->id);
            ck_assert(json_is_array(json_object_get(result, "scores")));
            ck_assert(json_is_array(json_object_get(result, "winners")));
            json_decref(result);
            break;
        }
        ck_assert_msg(active != 0, "%s step %d: nobody may act and the game is not over", g->id,
                      steps);
        ck_assert_msg(steps < MAX_STEPS, "%s: no end after %d actions", g->id, MAX_STEPS);

        int seats[GAME_MAX_SEATS], n = 0;
        for (int s = 0; s < c->nseats; s++) {
            if (active & (1u << s)) {
                seats[n++] = s;
            }
        }
        int seat = seats[game_rng_below(&rng, (uint32_t)n)];
        json_t *legal = g->legal(st, seat);
        ck_assert_msg(json_array_size(legal) > 0, "%s step %d: active seat %d has no legal action",
                      g->id, steps, seat);
        json_t *pick = json_array_get(legal, game_rng_below(&rng, (uint32_t)json_array_size(legal)));
        if (deep) {
            check_refusals(c, st, scratch, &rng, pick, active);
        }
        int rc = g->apply(st, seat, pick, &err);
        if (rc != GAME_OK) {
            char *s = json_dumps(pick, JSON_COMPACT);
            ck_abort_msg("%s step %d: listed action %s refused: %s", g->id, steps, s, err.message);
        }
        json_array_append_new(actions, json_pack("{s:i, s:O}", "seat", seat, "action", pick));
        json_decref(legal);
        steps++;
    }

    /* Replay from the record: the same views, byte for byte. */
    void *again = calloc(1, g->state_size);
    ck_assert_int_eq(g->init(again, c->options, &setup, &err), GAME_OK);
    size_t i;
    json_t *step;
    json_array_foreach(actions, i, step) {
        char *vb = view_bytes(g, again, (int)(i % (size_t)(c->nseats + 1)) - 1, NULL);
        ck_assert_msg(strcmp(vb, json_string_value(json_array_get(views, i))) == 0,
                      "%s: replay differs at step %zu", g->id, i);
        free(vb);
        ck_assert_int_eq(g->apply(again, (int)json_integer_value(json_object_get(step, "seat")),
                                  json_object_get(step, "action"), &err),
                         GAME_OK);
    }
    ck_assert_msg(memcmp(again, st, g->state_size) == 0, "%s: replay ends in another state", g->id);
    free(again);
    for (int s = 0; s <= GAME_MAX_SEATS; s++) {
        json_decref(prev[s]);
    }
    json_decref(actions);
    json_decref(views);
    free(st);
    free(scratch);
}

/* Every combination of enum option values (the schema's "values"). */
static json_t *option_combos(const struct game_ops *g)
{
    json_t *schema = g->options_schema();
    json_t *combos = json_array();
    const char *key;
    json_t *desc;

    json_array_append_new(combos, json_object());
    json_object_foreach(schema, key, desc) {
        json_t *values = json_object_get(desc, "values");
        if (!json_is_array(values) || json_array_size(values) == 0) {
            continue;
        }
        json_t *next = json_array();
        size_t i, k;
        json_t *c, *val;
        json_array_foreach(combos, i, c) {
            json_array_foreach(values, k, val) {
                json_t *o = json_deep_copy(c);
                json_object_set(o, key, val);
                json_array_append_new(next, o);
            }
        }
        json_decref(combos);
        combos = next;
    }
    json_decref(schema);
    return combos;
}

START_TEST(random_playouts)
{
    int configs = 0;

    for (size_t gi = 0; game_registry[gi]; gi++) {
        const struct game_ops *g = game_registry[gi];
        if (only_game && strcmp(only_game, g->id) != 0) {
            continue;
        }
        json_t *combos = option_combos(g);
        size_t i;
        json_t *opts;
        json_array_foreach(combos, i, opts) {
            for (int n = 1; n <= GAME_MAX_SEATS; n++) {
                struct game_error err;
                struct config c = {g, opts, n};
                if (g->check_options(opts, n, &err) != GAME_OK) {
                    ck_assert_msg(n < g->min_players || n > g->max_players || err.message[0],
                                  "%s: seat count %d refused without reason", g->id, n);
                    continue;
                }
                ck_assert_msg(n >= g->min_players && n <= g->max_players,
                              "%s: %d seats accepted outside min/max", g->id, n);
                configs++;
                for (int k = 0; k < games_per_config; k++) {
                    uint64_t seed = (uint64_t)(gi * 1000003 + i * 7919 + (size_t)n * 131) +
                                    (uint64_t)(k + seed_offset) * 104729 + 1;
                    play_one(&c, seed, k < 3);
                }
            }
        }
        json_decref(combos);
    }
    ck_assert_int_gt(configs, 0);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc > 1) {
        games_per_config = atoi(argv[1]);
    }
    if (argc > 2) {
        only_game = argv[2];
    }
    if (argc > 3) {
        seed_offset = atoi(argv[3]);
    }
    const struct ck_case cases[] = {
        {"random", random_playouts},
    };
    return ck_run("playouts", cases, 1, NULL, NULL, 100000);
}
