/* SPDX-License-Identifier: MIT */
/*
 * element_tests.c - the Element hooks for the shared test suites
 * (game_tests.h). Element hides only the future draws (R-element-4.7): the
 * bag has no order, the generator picks each stone when it is drawn, so a
 * view may show the bag as counts per type and nothing of the generator.
 * "you" holds the seat alone. Pure: it reads the states it is handed and
 * changes only the copies the suites give it.
 */
#include <string.h>

#include "element.h"
#include "game_tests.h"

static const char *const bag_key[ELEMENT_NTYPES] = {"fire", "water", "earth", "wind", "silver"};

struct scan_ctx {
    const struct game_leak_doc *d;
    const struct game_tests_report *r;
};

/* Keys that would name the generator or an order of the bag. */
static void visit(void *ud, const char *path, const char *key, const json_t *v)
{
    struct scan_ctx *x = ud;
    (void)v;
    if (!key) {
        return;
    }
    if (strcmp(key, "rng") == 0 || strcmp(key, "order") == 0 || strcmp(key, "next") == 0) {
        x->r->add(x->r->ud, "%s has a key \"%s\" naming hidden bag data", path, key);
    }
    if (game_tests_under(path, "/you") && strcmp(key, "seat") != 0) {
        x->r->add(x->r->ud, "\"you\" holds \"%s\" besides the seat", key);
    }
    if (game_tests_under(path, "/bag") && path[4] == '\0') {
        bool known = false;
        for (int t = 0; t < ELEMENT_NTYPES; t++) {
            known = known || strcmp(key, bag_key[t]) == 0;
        }
        if (!known) {
            x->r->add(x->r->ud, "the bag names \"%s\", not a type count", key);
        }
    }
}

static void scan(const struct game_leak_doc *d, const struct game_tests_report *r)
{
    const struct element_core *c = &((const struct element_state *)d->state)->c;
    struct scan_ctx x = {d, r};

    game_tests_walk(d->doc, d->is_patch, visit, &x);
    if (d->is_patch) {
        return;
    }
    json_t *bag = json_object_get(d->doc, "bag");
    for (int t = 0; t < ELEMENT_NTYPES; t++) {
        json_t *n = json_object_get(bag, bag_key[t]);
        if (!json_is_integer(n) || json_integer_value(n) != c->bag[t]) {
            r->add(r->ud, "bag/%s is not the count %d", bag_key[t], c->bag[t]);
        }
    }
    json_t *you = json_object_get(d->doc, "you");
    if (d->seat < 0 && you) {
        r->add(r->ud, "the spectator view has \"you\"");
    }
    if (d->seat >= 0 && (!json_is_object(you) || json_object_size(you) != 1 ||
                         !json_is_integer(json_object_get(you, "seat")) ||
                         json_integer_value(json_object_get(you, "seat")) != d->seat)) {
        r->add(r->ud, "\"you\" of seat %d is not exactly its seat", d->seat);
    }
}

static int secret_words(const void *state, uint64_t ret_words[GAME_TESTS_MAX_WORDS])
{
    return game_tests_rng_words(&((const struct element_state *)state)->c.rng, ret_words);
}

/* The one hidden thing: the generator that picks the next draws. */
static int perturb(void *state, const void *memo, int which, struct game_rng *rng,
                   unsigned *ret_may_see)
{
    struct element_state *st = state;
    (void)memo;
    (void)which;
    *ret_may_see = 0;
    for (int i = 0; i < 4; i++) {
        st->c.rng.s[i] ^= game_rng_next(rng) | 1;
    }
    return 1;
}

/* A stone moves from the bag to the board's first empty square away from
 * the Sages: the bag counts and the board of every view show it. */
static int perturb_visible(void *state, const void *memo, struct game_rng *rng)
{
    struct element_core *c = &((struct element_state *)state)->c;
    (void)memo;
    (void)rng;
    if (c->bag[ELEMENT_T_EARTH] == 0) {
        return 0;
    }
    for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
        if (c->kind[sq] == ELEMENT_K_EMPTY && element__sage_on(c, sq) < 0) {
            c->kind[sq] = ELEMENT_K_EARTH;
            c->height[sq] = 1;
            c->bag[ELEMENT_T_EARTH]--;
            return 1;
        }
    }
    return 0;
}

enum plant {
    PLANT_BAG_ORDER,
    PLANT_WRONG_COUNT,
    PLANT_SPECTATOR_YOU,
    PLANT_EXTRA_YOU,
    PLANT_DIFF_RNG,
    PLANT_COUNT,
};

static int plant(const void *state, const void *memo, json_t *const *views, int which,
                 struct game_leak_plant *ret)
{
    const struct element_core *c = &((const struct element_state *)state)->c;
    json_t *v = NULL;
    int rc = 0;
    (void)memo;

    ret->seat = 0;
    ret->is_patch = false;
    switch ((enum plant)which) {
    case PLANT_BAG_ORDER:
        ret->what = "the order of the bag";
        v = json_deep_copy(views[1]);
        rc = json_object_set_new(json_object_get(v, "bag"), "order",
                                 json_pack("[sss]", "fire", "wind", "water"));
        break;
    case PLANT_WRONG_COUNT:
        ret->what = "a bag count that is not the truth";
        v = json_deep_copy(views[1]);
        rc = json_object_set_new(json_object_get(v, "bag"), "fire",
                                 json_integer(c->bag[ELEMENT_T_FIRE] + 1));
        break;
    case PLANT_SPECTATOR_YOU:
        ret->what = "you for a spectator";
        ret->seat = -1;
        v = json_deep_copy(views[0]);
        rc = json_object_set_new(v, "you", json_pack("{s:i}", "seat", 0));
        break;
    case PLANT_EXTRA_YOU:
        ret->what = "extra you member";
        v = json_deep_copy(views[1]);
        rc = json_object_set_new(json_object_get(v, "you"), "next_stone", json_string("fire"));
        break;
    case PLANT_DIFF_RNG:
        ret->what = "generator words in a diff";
        ret->is_patch = true;
        v = game_tests_patch_add("/rng", json_pack("[I]", (json_int_t)(c->rng.s[0] >> 1)));
        break;
    default:
        return -1;
    }
    if (!v || rc != 0) {
        json_decref(v);
        return -1;
    }
    ret->doc = v;
    return 1;
}

static json_t *fuzz_options(uint8_t selector)
{
    static const char *const values[] = {"none", "lightning", "wood", "metal", "random", "gold"};
    if (selector % 7 == 6) {
        return NULL;
    }
    return json_pack("{ss}", "silver", values[selector % 7]);
}

static const struct game_tests_setup alloc_setups[] = {
    {NULL, 2, 11},
    {"{\"silver\":\"wood\"}", 3, 12},
    {"{\"silver\":\"metal\"}", 4, 13},
    {"{\"silver\":\"lightning\"}", 2, 14},
};

const struct game_tests element_tests = {
    .memo_size = 0,
    .memo_update = NULL,
    .scan = scan,
    .secret_words = secret_words,
    .nperturb = 1,
    .perturb = perturb,
    .perturb_visible = perturb_visible,
    .leak_probe = {NULL, 2, 99},
    .probe_reached = NULL,
    .nplants = PLANT_COUNT,
    .plant = plant,
    .leak_games_per_config = 1,
    .alloc_setups = alloc_setups,
    .nalloc_setups = sizeof(alloc_setups) / sizeof(alloc_setups[0]),
    .fuzz_options = fuzz_options,
    .playouts_per_config = 1,
};
