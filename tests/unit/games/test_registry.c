/* SPDX-License-Identifier: MIT */
/*
 * test_registry.c - the shape every registered game must have for the
 * server and the shared suites (game.h, game_tests.h): its public sections
 * sorted by key bytes, each key before "you", none twice, the required
 * keys present, at most GAME_MAX_SECTIONS of them; every op present; its
 * test hooks present and consistent, with fixtures the game accepts. It
 * knows no game by name.
 */
#include <string.h>

#include "ck_run.h"
#include "game.h"
#include "game_tests.h"

static const char *const required_keys[] = {"game", "phase", "active", "seats", "result", "log"};

START_TEST(registry_is_not_empty)
{
    ck_assert_ptr_nonnull(game_registry[0]);
    for (size_t i = 0; game_registry[i]; i++) {
        const struct game_ops *g = game_registry[i];
        ck_assert_msg(g->id && g->id[0] && g->title && g->title[0], "game %zu has no id", i);
        ck_assert_msg(game_find(g->id) == g, "%s: game_find finds another table", g->id);
        for (size_t j = 0; j < i; j++) {
            ck_assert_msg(strcmp(game_registry[j]->id, g->id) != 0, "%s listed twice", g->id);
        }
    }
    ck_assert_ptr_null(game_find("no-such-game"));
    ck_assert_ptr_null(game_find(NULL));
}
END_TEST

START_TEST(sections_are_sorted_and_complete)
{
    for (size_t i = 0; game_registry[i]; i++) {
        const struct game_ops *g = game_registry[i];
        ck_assert_msg(g->sections && g->nsections > 0, "%s has no sections", g->id);
        ck_assert_msg(g->nsections <= GAME_MAX_SECTIONS, "%s has %zu sections, over %d", g->id,
                      g->nsections, GAME_MAX_SECTIONS);
        for (size_t k = 0; k < g->nsections; k++) {
            const struct game_section *s = &g->sections[k];
            /* Its value written one way: `write`, or the array of its
             * items (nitems and write_item, no `write`). */
            ck_assert_msg(s->key && (s->write_item ? s->nitems && !s->write : s->write != NULL),
                          "%s: section %zu lacks its key, or has neither a writer nor items, or "
                          "both",
                          g->id, k);
            /* strcmp compares as unsigned char: the order of the key bytes. */
            ck_assert_msg(strcmp(s->key, "you") < 0,
                          "%s: section \"%s\" does not sort before "
                          "\"you\"",
                          g->id, s->key);
            if (k > 0) {
                int cmp = strcmp(g->sections[k - 1].key, s->key);
                ck_assert_msg(cmp != 0, "%s: section \"%s\" twice", g->id, s->key);
                ck_assert_msg(cmp < 0, "%s: section \"%s\" is listed after \"%s\"", g->id, s->key,
                              g->sections[k - 1].key);
            }
        }
        for (size_t r = 0; r < sizeof(required_keys) / sizeof(required_keys[0]); r++) {
            bool found = false;
            for (size_t k = 0; k < g->nsections && !found; k++) {
                found = strcmp(g->sections[k].key, required_keys[r]) == 0;
            }
            ck_assert_msg(found, "%s: no section \"%s\"", g->id, required_keys[r]);
        }
    }
}
END_TEST

START_TEST(ops_are_complete)
{
    for (size_t i = 0; game_registry[i]; i++) {
        const struct game_ops *g = game_registry[i];
        ck_assert_msg(g->min_players >= 1 && g->min_players <= g->max_players &&
                          g->max_players <= GAME_MAX_SEATS,
                      "%s: seats %d..%d", g->id, g->min_players, g->max_players);
        ck_assert_msg(g->state_size > 0, "%s: state_size 0", g->id);
        ck_assert_msg(g->options_schema && g->check_options && g->init && g->apply && g->changed &&
                          g->you && g->legal && g->active,
                      "%s: an op is missing", g->id);
    }
}
END_TEST

/* Requires `ts` to name options and a seat count `g` accepts. */
static void check_setup(const struct game_ops *g, const struct game_tests_setup *ts,
                        const char *what)
{
    json_t *opts = ts->options ? json_loads(ts->options, 0, NULL) : NULL;
    struct game_error err;

    ck_assert_msg(!ts->options || opts, "%s: %s options are not JSON: %s", g->id, what,
                  ts->options);
    ck_assert_msg(g->check_options(opts, ts->nseats, &err) == GAME_OK,
                  "%s: %s (%d seats) refused: %s", g->id, what, ts->nseats, err.message);
    json_decref(opts);
}

START_TEST(test_hooks_are_complete)
{
    for (size_t i = 0; game_registry[i]; i++) {
        const struct game_ops *g = game_registry[i];
        const struct game_tests *t = g->tests;
        ck_assert_msg(t != NULL, "%s declares no test hooks", g->id);
        ck_assert_msg(t->scan && t->secret_words && t->perturb_visible,
                      "%s: a leak hook is "
                      "missing",
                      g->id);
        ck_assert_msg(t->memo_size == 0 || t->memo_update, "%s: a memo without memo_update", g->id);
        ck_assert_msg(t->nperturb >= 1 && t->perturb, "%s: no hidden change", g->id);
        ck_assert_msg(t->nplants >= 1 && t->plant, "%s: no planted leak", g->id);
        ck_assert_msg(t->leak_games_per_config > 0 && t->playouts_per_config > 0,
                      "%s: run counts must be positive", g->id);
        ck_assert_msg(t->alloc_setups && t->nalloc_setups > 0, "%s: no allocation fixture", g->id);
        ck_assert_msg(t->fuzz_options != NULL, "%s: no fuzz options", g->id);
        check_setup(g, &t->leak_probe, "the leak probe");
        for (size_t k = 0; k < t->nalloc_setups; k++) {
            check_setup(g, &t->alloc_setups[k], "an allocation fixture");
        }
        for (int sel = 0; sel < 256; sel++) {
            json_t *o = t->fuzz_options((uint8_t)sel);
            ck_assert_msg(o == NULL || json_is_object(o),
                          "%s: fuzz options %d are not an "
                          "object",
                          g->id, sel);
            json_decref(o);
        }
    }
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"registry", registry_is_not_empty},
        {"sections", sections_are_sorted_and_complete},
        {"ops", ops_are_complete},
        {"test_hooks", test_hooks_are_complete},
    };
    return CK_RUN("registry", cases, NULL, NULL);
}
