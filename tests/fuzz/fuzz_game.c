/* SPDX-License-Identifier: MIT */
/*
 * fuzz_game.c - the driver behind the per-game fuzz targets (see
 * fuzz_game.h for the input layout). From the input it picks options (the
 * game's own fuzz_options hook, game_tests.h), a seat count the game
 * accepts and a seed, builds the game, plays the legal
 * moves the input selects, then applies the JSON at the end of the input as
 * an action of every seat, each time from the same position. It checks the
 * game.h contract and aborts on a breach: every listed legal action is
 * accepted, invariants hold after every accepted action, and on the
 * position the moves reach and after an accepted final action: only active
 * seats have legal actions, views of every seat and of spectators exist and
 * the result exists exactly when nobody may act. A refused action leaves
 * the state byte-identical and carries its status and a message.
 * Games are started with game_start(), actions applied with game_apply()
 * and views built with game_view(). It knows no game by name, frees
 * everything it builds and never writes a file.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_game.h"
#include "game_tests.h"

#define FUZZ_HEADER_BYTES 12
#define FUZZ_MAX_MOVES 1024

struct run {
    const struct game_ops *g;
    int nseats;
    void *st;
    void *backup;
};

/* Aborts unless the invariants of the game hold. */
static void check_invariants(const struct run *r)
{
    struct game_error err;
    memset(&err, 0, sizeof(err));
    if (r->g->check_invariants != NULL && r->g->check_invariants(r->st, &err) != 0) {
        fprintf(stderr, "%s: invariant broken: %s\n", r->g->id, err.message);
        abort();
    }
}

/* Aborts unless the game holds a position that obeys the contract:
 * invariants, views, legal lists and result. */
static void check_position(const struct run *r)
{
    const struct game_ops *g = r->g;
    check_invariants(r);
    for (int s = -1; s < r->nseats; s++) {
        json_t *v = game_view(g, r->st, s);
        if (v == NULL || !json_is_object(v)) {
            fprintf(stderr, "%s: no view for seat %d\n", g->id, s);
            abort();
        }
        json_decref(v);
    }
    unsigned active = g->active(r->st);
    if (active >> r->nseats != 0) {
        fprintf(stderr, "%s: active mask %#x names a missing seat\n", g->id, active);
        abort();
    }
    for (int s = 0; s < r->nseats; s++) {
        json_t *l = g->legal(r->st, s);
        if (l == NULL || !json_is_array(l)) {
            fprintf(stderr, "%s: no legal list for seat %d\n", g->id, s);
            abort();
        }
        if (!(active & (1u << s)) && json_array_size(l) != 0) {
            fprintf(stderr, "%s: inactive seat %d has legal actions\n", g->id, s);
            abort();
        }
        json_decref(l);
    }
    json_t *res = g->result(r->st);
    if ((res == NULL) != (active != 0)) {
        fprintf(stderr, "%s: result %s while the active mask is %#x\n", g->id,
                res != NULL ? "given" : "missing", active);
        abort();
    }
    json_decref(res);
}

/* Collects the legal actions of every active seat into one array of
 * [seat, action] pairs. New reference; NULL on ENOMEM. */
static json_t *all_legal(const struct run *r)
{
    json_t *all = json_array();
    if (all == NULL) {
        return NULL;
    }
    unsigned active = r->g->active(r->st);
    for (int s = 0; s < r->nseats; s++) {
        if (!(active & (1u << s))) {
            continue;
        }
        json_t *l = r->g->legal(r->st, s);
        if (l == NULL) {
            json_decref(all);
            return NULL;
        }
        size_t i;
        json_t *a;
        json_array_foreach(l, i, a) {
            json_t *pair = json_pack("[iO]", s, a);
            if (pair == NULL || json_array_append_new(all, pair) < 0) {
                json_decref(l);
                json_decref(all);
                return NULL;
            }
        }
        json_decref(l);
    }
    return all;
}

/* Applies the legal action that `choice` selects. Returns false when the
 * game is over (nothing was applied) or on ENOMEM. */
static bool play_move(const struct run *r, uint8_t choice)
{
    if (r->g->active(r->st) == 0) {
        return false;
    }
    json_t *all = all_legal(r);
    if (all == NULL) {
        return false;
    }
    if (json_array_size(all) == 0) {
        fprintf(stderr, "%s: seats may act but have no legal action\n", r->g->id);
        abort();
    }
    json_t *pair = json_array_get(all, choice % json_array_size(all));
    int seat = (int)json_integer_value(json_array_get(pair, 0));
    json_t *action = json_array_get(pair, 1);
    struct game_error err;
    memset(&err, 0, sizeof(err));
    int rc = game_apply(r->g, r->st, seat, action, &err);
    if (rc != GAME_OK) {
        char *text = json_dumps(action, JSON_COMPACT);
        fprintf(stderr, "%s: legal action %s of seat %d refused (%d): %s\n", r->g->id,
                text != NULL ? text : "?", seat, rc, err.message);
        free(text);
        abort();
    }
    json_decref(all);
    /* Views, legal lists and the result of every seat are checked on the
     * position the moves reach; here only the invariants, which are cheap,
     * so that long games stay fast to fuzz. */
    check_invariants(r);
    return true;
}

/* Prints the legal actions of the reached position, one per line. */
static void print_legal(const struct run *r)
{
    json_t *all = all_legal(r);
    size_t i;
    json_t *pair;
    json_array_foreach(all, i, pair) {
        json_t *line =
            json_pack("{sOsO}", "seat", json_array_get(pair, 0), "action", json_array_get(pair, 1));
        char *text = json_dumps(line, JSON_COMPACT | JSON_SORT_KEYS);
        if (text != NULL) {
            printf("%s\n", text);
            free(text);
        }
        json_decref(line);
    }
    json_decref(all);
    fflush(stdout);
}

/* Applies `action` for every seat, each from the reached position. */
static void try_action(const struct run *r, const json_t *action)
{
    size_t n = r->g->state_size;
    memcpy(r->backup, r->st, n);
    for (int s = 0; s < r->nseats; s++) {
        struct game_error err;
        memset(&err, 0, sizeof(err));
        int rc = game_apply(r->g, r->st, s, action, &err);
        if (rc == GAME_OK) {
            check_position(r);
            memcpy(r->st, r->backup, n);
            continue;
        }
        if (memcmp(r->st, r->backup, n) != 0) {
            fprintf(stderr, "%s: refused action (%d) of seat %d changed the state\n", r->g->id, rc,
                    s);
            abort();
        }
        if (rc < GAME_E_NOMEM || rc > GAME_E_ILLEGAL || err.status != rc ||
            err.message[0] == '\0' || memchr(err.message, '\0', sizeof(err.message)) == NULL) {
            fprintf(stderr, "%s: refusal %d of seat %d without its status or message\n", r->g->id,
                    rc, s);
            abort();
        }
    }
}

/* Picks a seat count the game accepts with `options`, starting from the
 * one `selector` names. Returns 0 when none is accepted. */
static int pick_seats(const struct game_ops *g, const json_t *options, uint8_t selector)
{
    int span = g->max_players - g->min_players + 1;
    if (span < 1) {
        return 0;
    }
    for (int k = 0; k < span; k++) {
        int n = g->min_players + (selector + k) % span;
        struct game_error err;
        if (n >= 1 && n <= GAME_MAX_SEATS && g->check_options(options, n, &err) == GAME_OK) {
            return n;
        }
    }
    return 0;
}

int fuzz_game_run(const char *id, const uint8_t *data, size_t size)
{
    const struct game_ops *g = game_find(id);
    if (g == NULL || g->tests == NULL || g->tests->fuzz_options == NULL) {
        fprintf(stderr, "fuzz: no game %s with fuzz options\n", id != NULL ? id : "(null)");
        abort();
    }
    if (size < FUZZ_HEADER_BYTES) {
        return 0;
    }
    json_t *opts = g->tests->fuzz_options(data[0]);
    struct run r = {.g = g, .nseats = pick_seats(g, opts, data[1])};
    if (r.nseats == 0) {
        json_decref(opts);
        return 0;
    }
    struct game_setup setup;
    memset(&setup, 0, sizeof(setup));
    setup.nseats = r.nseats;
    for (int s = 0; s < r.nseats; s++) {
        snprintf(setup.names[s], sizeof(setup.names[s]), "Seat %d", s + 1);
    }
    for (int i = 0; i < GAME_SEED_BYTES; i++) {
        setup.seed[i] = (uint8_t)(data[2 + i % 8] ^ (uint8_t)(i * 0x9d));
    }
    r.st = calloc(1, g->state_size);
    r.backup = calloc(1, g->state_size);
    struct game_error err;
    memset(&err, 0, sizeof(err));
    if (r.st == NULL || r.backup == NULL || game_start(g, r.st, opts, &setup, &err) != GAME_OK) {
        /* check_options accepted these options and seats, so init must. */
        if (r.st != NULL && r.backup != NULL) {
            fprintf(stderr, "%s: init refused accepted options: %s\n", g->id, err.message);
            abort();
        }
        free(r.st);
        free(r.backup);
        json_decref(opts);
        return 0;
    }
    check_position(&r);

    size_t pos = FUZZ_HEADER_BYTES;
    size_t moves = (size_t)(data[10] | (data[11] << 8)) % (FUZZ_MAX_MOVES + 1);
    for (size_t k = 0; k < moves && pos < size; k++) {
        (void)play_move(&r, data[pos++]);
    }
    check_position(&r);
    if (getenv("FUZZ_GAME_PRINT_LEGAL") != NULL) {
        print_legal(&r);
    }

    if (pos < size) {
        json_t *action = json_loadb((const char *)data + pos, size - pos,
                                    JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
        if (action != NULL) {
            try_action(&r, action);
            json_decref(action);
        }
    }
    free(r.st);
    free(r.backup);
    json_decref(opts);
    return 0;
}
