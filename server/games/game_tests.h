/* SPDX-License-Identifier: MIT */
/*
 * game_tests.h - the hooks a game folder declares for the shared test
 * suites (secrecy, allocation failure, fuzzing, random playouts), so that
 * each suite iterates over the registry and knows no game by name. A game
 * points `game_ops.tests` at one `struct game_tests`. The hooks are pure
 * like the rest of a rules core: no I/O, no clocks, no mutable statics, no
 * rand(); they report what they find through a callback and draw any
 * randomness from a generator the caller hands them. Only test programs
 * call them. common/game_tests.c holds the JSON walk they share. The option
 * sets the suites iterate over come from options_schema() (every enum
 * value, a spread of each integer option), so a game declares none here.
 */
#ifndef CONCLAVE_GAME_TESTS_H
#define CONCLAVE_GAME_TESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "game.h"
#include "rng.h"

#define GAME_TESTS_MAX_WORDS 8  /* secret words a game may name (secret_words) */
#define GAME_TESTS_PATH_MAX 512 /* bytes of a JSON Pointer built by the walk */

/* Where a check reports what it finds: `add` is called once per finding
 * with `ud` and a printf-style sentence. */
struct game_tests_report {
    void (*add)(void *ud, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    void *ud;
};

/* A game started for a test: options as JSON text (NULL: the defaults),
 * the seat count and a seed the suite expands into the 32 seed bytes. */
struct game_tests_setup {
    const char *options;
    int nseats;
    uint64_t seed;
};

/* One document the server would send to one recipient, as the leak suite
 * hands it to `scan`. Every pointer is borrowed for the call. */
struct game_leak_doc {
    const void *state;  /* the position the document was built from */
    const void *memo;   /* the run's memory (memo_size bytes), see memo_update */
    int seat;           /* the recipient: a seat, or -1 for a spectator */
    const json_t *prev; /* the recipient's previous whole view; NULL at the start */
    const json_t *doc;  /* a whole view (game_view) or the JSON Patch from prev */
    bool is_patch;
};

/* A leak planted by `plant` for the leak suite's self-test. */
struct game_leak_plant {
    int seat;         /* the recipient whose scan must report it (-1 spectator) */
    bool is_patch;    /* doc is a JSON Patch from views[seat + 1] */
    json_t *doc;      /* new reference: a leaking copy of views[seat + 1], or a patch */
    const char *what; /* static words naming the kind of leak */
};

struct game_tests {
    /* ---- Secrecy (tests/leak) ---- */

    /* Bytes of the public memory a leak run carries from action to action
     * (e.g. which hidden cards were ever public); 0 when the game needs
     * none. The suite zeroes it before the first memo_update. */
    size_t memo_size;

    /* Updates `memo` after `action` (borrowed; NULL at the start) was
     * applied, giving `state`. Called before the views of `state` are
     * scanned. May be NULL when memo_size is 0. */
    void (*memo_update)(void *memo, const void *state, const json_t *action);

    /* Reports through `r` everything in `d->doc` that its recipient may not
     * see at `d->state`: other seats' private data, hidden orders, hidden
     * cards named in keys, values or free text, and, for a whole view,
     * every member that must equal the truth exactly (counts instead of
     * hidden lists). The seed and the words of secret_words are the
     * suite's business. Reports nothing for a clean document. */
    void (*scan)(const struct game_leak_doc *d, const struct game_tests_report *r);

    /* Writes the integers right after init() that are as secret as the
     * seed (the words of the state's generator) into `ret_words`; returns
     * how many (0 .. GAME_TESTS_MAX_WORDS). */
    int (*secret_words)(const void *state, uint64_t ret_words[GAME_TESTS_MAX_WORDS]);

    /* The number of kinds of hidden change `perturb` makes. */
    int nperturb;

    /* Changes the hidden part `which` (0 <= which < nperturb) of `state`,
     * a copy of a position of the run, drawing from `rng`. Sets
     * *ret_may_see to the recipients (bit seat + 1; bit 0 the spectators)
     * whose views may show the change; every other view must stay equal.
     * Returns 1 when it changed something, 0 when the position has nothing
     * of that kind. */
    int (*perturb)(void *state, const void *memo, int which, struct game_rng *rng,
                   unsigned *ret_may_see);

    /* Self-test of the non-interference check: changes `state` (a copy of
     * the probe position) in a way some view must show. Returns 1 when it
     * did, 0 when this position allows no such change (the check is then
     * skipped), -1 when the probe position lacks what it needs. */
    int (*perturb_visible)(void *state, const void *memo, struct game_rng *rng);

    /* Where the planted-leak self-test runs: the game started from
     * `leak_probe`, played by random legal actions until probe_reached()
     * says yes (NULL: the start) or 400 actions. */
    struct game_tests_setup leak_probe;
    bool (*probe_reached)(const void *state);

    /* The number of kinds of leak `plant` makes. */
    int nplants;

    /* Plants leak `which` (0 <= which < nplants) at the probe position
     * `state`, whose whole views are views[seat + 1] (seat -1 .. nseats-1,
     * borrowed): fills `ret` with a document that `scan` must report.
     * Returns 1 when planted, 0 when this kind does not apply at this
     * position, -1 when the position lacks what the plant needs or on
     * ENOMEM (the self-test fails). */
    int (*plant)(const void *state, const void *memo, json_t *const *views, int which,
                 struct game_leak_plant *ret);

    /* Seeded random games the leak suite plays per configuration (seat
     * count times option set). */
    int leak_games_per_config;

    /* ---- Allocation failure (tests/alloc) ---- */

    /* Games the allocation suite plays to the end; it fails every jansson
     * allocation of the calls made at the start, the middle, the last
     * position before the end and the end of each. At least one. */
    const struct game_tests_setup *alloc_setups;
    size_t nalloc_setups;

    /* ---- Fuzzing (tests/fuzz) ---- */

    /* The options of a fuzzed game from one selector byte of the input,
     * spread over every option and value the game accepts (and a few it
     * refuses). New reference, or NULL for the defaults. */
    json_t *(*fuzz_options)(uint8_t selector);

    /* ---- Random playouts (tests/property) ---- */

    /* Seeded random full games per configuration, split over the runs
     * that meson starts. */
    int playouts_per_config;
};

/* ---- Shared by the hooks (common/game_tests.c) ---- */

/* Called for every object key (value NULL, key set) and every scalar (key
 * NULL) of a document, with the JSON Pointer of the key's parent object
 * or of the scalar. */
typedef void (*game_tests_visit_cb)(void *ud, const char *path, const char *key, const json_t *v);

/* Walks `doc` (borrowed): a whole document, or when `is_patch` a JSON
 * Patch, whose path segments are visited as keys of the recipient's
 * document and whose values are walked under their paths. Pointers longer
 * than GAME_TESTS_PATH_MAX are cut. */
void game_tests_walk(const json_t *doc, bool is_patch, game_tests_visit_cb cb, void *ud);

/* 1 when the JSON Pointer `path` is `prefix` or lies below it. */
bool game_tests_under(const char *path, const char *prefix);

/* For secret_words: the words of a game's generator, as secret as the
 * seed. Writes them to `ret_words` and returns how many. */
int game_tests_rng_words(const struct game_rng *rng, uint64_t ret_words[GAME_TESTS_MAX_WORDS]);

/* For planted leaks: a one-operation patch adding `value` (stolen) at
 * `path`. New reference, NULL on ENOMEM. */
json_t *game_tests_patch_add(const char *path, json_t *value);

/* For planted leaks: appends `value` (stolen) to the array `key` of the
 * object `o`. 0, or -1 when there is no such array (value freed). */
int game_tests_push(json_t *o, const char *key, json_t *value);

#endif
