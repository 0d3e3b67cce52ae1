/* SPDX-License-Identifier: MIT */
/*
 * game.h - the one interface between the server and a rules core.
 *
 * Every game is a `struct game_ops` table listed by the registry. The server
 * knows nothing else about a game. A rules core is pure: it never does I/O,
 * reads clocks, touches global mutable state or calls rand(); its randomness
 * comes from a generator seeded from the 32-byte seed and kept inside the
 * state. The same (options, names, seed, actions) always gives the same game,
 * byte for byte.
 *
 * State is a flat, pointer-free block of `state_size` bytes. Copying it with
 * memcpy() copies the game; comparing it with memcmp() compares games. The
 * server owns the memory; a game only ever writes into what it is handed.
 */
#ifndef CONCLAVE_GAME_H
#define CONCLAVE_GAME_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define GAME_MAX_SEATS 6
#define GAME_NAME_MAX 128 /* bytes, including the NUL: 32 characters of UTF-8 */
#define GAME_SEED_BYTES 32
#define GAME_MSG_MAX 256

/* Why a call was refused. The server maps each to a wire error code. */
enum game_status {
    GAME_OK = 0,
    GAME_E_ILLEGAL = -1,     /* illegal_action: well-formed, but the rules say no */
    GAME_E_BAD_ACTION = -2,  /* bad_action: malformed action object */
    GAME_E_NOT_TURN = -3,    /* not_your_turn: this seat may not act now */
    GAME_E_OVER = -4,        /* game_over: the game has ended */
    GAME_E_BAD_OPTION = -5,  /* bad_option: create options or seat count refused */
    GAME_E_NOMEM = -6,       /* internal: an allocation failed */
};

/* A refusal: the status and one sentence for the player, naming the rule
 * (with its section of docs/rules/<game>.md, e.g. "R-stones-5.2"). */
struct game_error {
    enum game_status status;
    char message[GAME_MSG_MAX];
};

/* Setup handed to init(): everything the game needs besides the options. */
struct game_setup {
    int nseats;
    char names[GAME_MAX_SEATS][GAME_NAME_MAX]; /* display names, for the log */
    uint8_t seed[GAME_SEED_BYTES];
};

struct game_ops {
    const char *id;    /* wire id: "stones", "sorcerers", ... */
    const char *title; /* human title */
    int min_players;   /* over every option */
    int max_players;
    size_t state_size;

    /* Options schema for `hello`. New reference: an object of
     * {"<name>": {"type": "enum", "values": [...], "default": ...}, ...}. */
    json_t *(*options_schema)(void);

    /* Checks options (may be NULL: defaults) and the seat count without
     * building a game. GAME_OK or GAME_E_BAD_OPTION with a message. */
    int (*check_options)(const json_t *options, int nseats, struct game_error *err);

    /* Builds the starting position in `state` (state_size bytes, the game
     * zeroes it first). Returns GAME_OK, GAME_E_BAD_OPTION or GAME_E_NOMEM. */
    int (*init)(void *state, const json_t *options, const struct game_setup *setup,
                struct game_error *err);

    /* Validates `action` (borrowed) for `seat` and applies it, all or nothing:
     * on any refusal `state` is byte-identical to before the call. */
    int (*apply)(void *state, int seat, const json_t *action, struct game_error *err);

    /* The view of `seat` (-1: spectator). New reference, NULL on ENOMEM.
     * Private data lies only under "you"; everything else is identical for
     * every seat and spectators. Must hold "game", "phase", "active",
     * "seats", "result" and "log". */
    json_t *(*view)(const void *state, int seat);

    /* Every action `seat` may submit now, each accepted unchanged by apply().
     * New reference to an array (empty when the seat may not act), NULL on
     * ENOMEM. */
    json_t *(*legal)(const void *state, int seat);

    /* Bitmask of the seats that may act now (bit n = seat n); 0 when over. */
    unsigned (*active)(const void *state);

    /* NULL while the game runs; once over a new reference to
     * {"scores": [...], "winners": [...], ...}. */
    json_t *(*result)(const void *state);

    /* Test builds: 0 when every invariant of the spec holds, else -1 with a
     * description in `err`. May be NULL. */
    int (*check_invariants)(const void *state, struct game_error *err);
};

/* ---- Registry ---- */

/* The games offered by this server, NULL-terminated. */
extern const struct game_ops *const game_registry[];

/* Finds a game by wire id; NULL when unknown. */
const struct game_ops *game_find(const char *id);

/* Sets err to `status` with a printf-style message; returns `status`. */
int game_error_set(struct game_error *err, enum game_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
