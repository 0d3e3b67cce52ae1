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
 *
 * A view is built in two parts. The public part is a JSON object whose
 * top-level members are the game's sections, each written on its own from
 * the state; it is the same for every seat and spectator, so the server
 * writes, diffs and hashes it once per accepted action, and only the
 * sections that `changed()` names. The private part is the value of "you"
 * for one seat. The whole view of a seat is the public object plus
 * {"you": you(seat)}; a spectator's view has no "you".
 *
 * Games write their views as canonical JSON text (PROTOCOL.md section 5)
 * through `struct game_text`, straight into a buffer the server reuses:
 * no tree is built, serialised or freed on the path of an action.
 */
#ifndef CONCLAVE_GAME_H
#define CONCLAVE_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define GAME_MAX_SEATS 6
#define GAME_NAME_MAX 129 /* bytes, including the NUL: 32 characters of up to 4 bytes */
#define GAME_SEED_BYTES 32
#define GAME_MSG_MAX 256
#define GAME_MAX_SECTIONS 62 /* bits 0..61 of a change mask */
#define GAME_TEXT_DEPTH 24   /* containers a view may nest */

/* The change-mask bit that says a seat's "you" may differ. */
#define GAME_CHANGED_YOU (UINT64_C(1) << 63)
/* A mask naming every section and "you": always a correct answer. */
#define GAME_CHANGED_ALL (~UINT64_C(0))

/* Why a call was refused. The server maps each to a wire error code. */
enum game_status {
    GAME_OK = 0,
    GAME_E_ILLEGAL = -1,    /* illegal_action: well-formed, but the rules say no */
    GAME_E_BAD_ACTION = -2, /* bad_action: malformed action object */
    GAME_E_NOT_TURN = -3,   /* not_your_turn: this seat may not act now */
    GAME_E_OVER = -4,       /* game_over: the game has ended */
    GAME_E_BAD_OPTION = -5, /* bad_option: create options or seat count refused */
    GAME_E_NOMEM = -6,      /* internal: an allocation failed */
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

/* ---- Canonical JSON text (common/game_text.c) ----
 *
 * A writer of one JSON value in the canonical form: no whitespace, the
 * members of an object in increasing byte order of their keys, strings as
 * raw UTF-8 with '"', '\\' and control characters escaped, integers only.
 * Commas and colons are placed by the writer. A game writes keys in order;
 * the writer checks that it did, and that containers are closed as they
 * were opened, and refuses anything else by setting `err` (-EINVAL; -ENOMEM
 * when the buffer cannot grow), after which every call does nothing. So a
 * writer checks once, at the end, with game_text_end().
 *
 * Zero-initialised means empty. game_text_reset() empties it and keeps the
 * buffer, which is how the server writes every view without allocating.
 * The buffer grows through jansson's allocator (json_get_alloc_funcs), so
 * that the tests that make that allocator fail reach it too; a buffer
 * taken out of a writer is freed with game_text_free_data(). */
struct game_text {
    char *data; /* NUL-terminated once anything is written */
    size_t len;
    size_t cap;
    int err;
    int depth;      /* containers open */
    bool after_key; /* an object member's key is written, its value is next */
    bool done;      /* a whole top-level value is written */
    struct game_text_open {
        char kind;        /* '{' or '[' */
        uint32_t count;   /* members or items so far */
        uint32_t key_off; /* where the last key's bytes start in data */
        uint32_t key_len;
    } open[GAME_TEXT_DEPTH];
};

void game_text_reset(struct game_text *t);
void game_text_free(struct game_text *t);
void game_text_free_data(char *data);
/* n bytes from the allocator a writer's buffer comes from, for text kept
 * beside a writer's and freed with game_text_free_data(); NULL when it
 * fails. */
char *game_text_alloc_data(size_t n);

/* 0 when one whole value was written; else t->err, or -EINVAL when a
 * container is still open or nothing was written. */
int game_text_end(const struct game_text *t);

void game_text_obj(struct game_text *t); /* { */
void game_text_end_obj(struct game_text *t);
void game_text_arr(struct game_text *t); /* [ */
void game_text_end_arr(struct game_text *t);

/* An object member's key: letters, digits and '_' only, each key of an
 * object greater (by bytes) than the one before. The value comes next. */
void game_text_key(struct game_text *t, const char *key);

void game_text_int(struct game_text *t, long long v);

/* Room for the decimal digits of any long long or unsigned long long,
 * with a sign. */
#define GAME_DIGITS_MAX 24

/* Writes the decimal digits of m, after a '-' when `negative`, so that
 * they end at num + GAME_DIGITS_MAX; returns where they start, and their
 * count in *n (no NUL). */
const char *game_digits(char num[GAME_DIGITS_MAX], unsigned long long m, bool negative, size_t *n);

/* game_digits() for a signed v, its '-' included. */
const char *game_digits_signed(char num[GAME_DIGITS_MAX], long long v, size_t *n);
void game_text_bool(struct game_text *t, bool v);
void game_text_null(struct game_text *t);
void game_text_str(struct game_text *t, const char *s); /* valid UTF-8 */
void game_text_strn(struct game_text *t, const char *s, size_t n);
/* A string, or null when `s` is NULL. */
void game_text_str_or_null(struct game_text *t, const char *s);

/* Members an object of integers written in one call may have. */
#define GAME_TEXT_INT_OBJ_MAX 16

/* The object {keys[0]: v[0], ...} of n integer members, keys plain and in
 * increasing byte order (as game_text_key() takes them) and of at most 32
 * bytes each, in one call. */
void game_text_int_obj(struct game_text *t, const char *const *keys, const long long *v, int n);

/* A key and its value in one call. */
void game_text_kint(struct game_text *t, const char *key, long long v);
void game_text_kbool(struct game_text *t, const char *key, bool v);
void game_text_knull(struct game_text *t, const char *key);
void game_text_kstr(struct game_text *t, const char *key, const char *s);
void game_text_kobj(struct game_text *t, const char *key); /* key, { */
void game_text_karr(struct game_text *t, const char *key); /* key, [ */

/* One top-level member of the public view. */
struct game_section {
    const char *key; /* its key; every key sorts (by bytes) before "you" */
    /* Writes the member's value for `state` (one JSON value; null is a
     * value). A function of the state alone. NULL for a section of items,
     * whose value is their array (game_section_write()). */
    void (*write)(struct game_text *out, const void *state);
    /* Optional, for a member that is an array of items, one per seat or
     * per player (their public state): nitems() of them, each written by
     * write_item(); its value is the array of items 0 .. nitems()-1. With
     * the game's parts_changed() the server then rewrites and diffs only
     * the items an action may have changed. */
    int (*nitems)(const void *state);
    void (*write_item)(struct game_text *out, const void *state, int item);
    /* Optional, for a section of items that is a log: an item, once
     * written, never changes; an action only appends items at the back
     * and drops the oldest from the front. seq() counts every item ever
     * appended (wrapping is fine), so that the server writes and sends only
     * the new items. Such a section is not named by parts_changed()'s
     * item mask. */
    uint32_t (*seq)(const void *state);
    /* Optional, for a section of items each an object of the same
     * members, its fields: nfields of them (at most GAME_FIELDS_MAX),
     * their keys in field_keys (sorted by bytes), and write_field()
     * writing the value of field `field` of item `item`, so that
     * write_item writes exactly {"key 0":<field 0>,"key 1":<field 1>,..}
     * (a write_item that calls game_text_fields()). fields_changed() names
     * the fields of item `item` that may differ between `before` and
     * `after` (as parts_changed(): bit f for field f, a clear bit a
     * promise); the server then rewrites and diffs only those of an item
     * that changed. At most one section of a game has fields. */
    int nfields;
    const char *const *field_keys;
    void (*write_field)(struct game_text *out, const void *state, int item, int field);
    uint32_t (*fields_changed)(const void *before, const void *after, int item);
};

/* The fields a section of items may have (game_section.nfields). */
#define GAME_FIELDS_MAX 32

/* Writes the value of section `sec` for `state`: its `write`, or the
 * array of its items. */
void game_section_write(struct game_text *out, const struct game_section *sec, const void *state);

/* Writes item `item` of section `sec` as the object of its fields (its
 * field_keys and write_field()); with `ends`, notes in ends[f] where the
 * value of field f ends in `out`. */
void game_text_fields(struct game_text *out, const struct game_section *sec, const void *state,
                      int item, uint32_t *ends);

struct game_tests; /* test hooks, game_tests.h */
struct game_rng;   /* the games' generator, common/rng.h */

/* ---- What a bot needs (optional) ----
 *
 * The bot engine (server/bot/) searches a position for one seat through
 * game_ops alone: it copies the state, lists `legal`, calls `apply`. Before
 * each pass it redraws what the seat cannot see, so that it never plays on
 * knowledge its seat does not have. A game without this table gets the
 * random bot at every level. */
struct game_bot {
    /* Redraws in `state` everything `seat` may not see (other seats'
     * hands, deck orders, bag contents, sealed choices not yet revealed,
     * the state's own generator) from what is consistent with that seat's
     * view, drawing only from `rng` (the bot's own generator). The result
     * is a position the game can go on from, whose view for `seat` is the
     * one it had, and it is a function of that view and of the draws alone:
     * two states whose views for `seat` are equal come out byte for byte
     * equal for the same generator. */
    void (*determinize)(void *state, int seat, struct game_rng *rng);

    /* The playout policy: which of the `legal` actions of `seat` (an array
     * of n > 0, borrowed) a playout takes at `state`. A few lines of
     * heuristics drawn from `rng`; NULL: a uniform pick. */
    size_t (*playout)(const void *state, int seat, const json_t *legal, struct game_rng *rng);

    /* The worth of `state` to every seat, each in [0, 1], into ret[0 ..
     * nseats-1]. Once the game is over it is the outcome (1 for a sole
     * winner, 0 for a loser; a cooperative game grades the table's
     * result); before, an estimate, which lets a playout stop after
     * `playout_depth` actions. */
    void (*value)(const void *state, double ret[GAME_MAX_SEATS]);

    /* Actions a playout takes before it is valued (0: to the end). */
    int playout_depth;
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

    /* Builds the starting position in `state` (state_size bytes, zeroed by
     * the caller). Returns GAME_OK, GAME_E_BAD_OPTION or GAME_E_NOMEM. */
    int (*init)(void *state, const json_t *options, const struct game_setup *setup,
                struct game_error *err);

    /* Validates `action` (borrowed) for `seat` and applies it to `state`.
     * Returns GAME_OK or a refusal in `err`. The caller always hands a
     * scratch copy (game_try()) and drops it on a refusal, so apply need
     * not undo what it did before it found the action illegal. */
    int (*apply)(void *state, int seat, const json_t *action, struct game_error *err);

    /* The public view's sections, sorted by key bytes, and their number
     * (at most GAME_MAX_SECTIONS). Together they hold "game", "phase",
     * "active", "seats", "result" and "log". "result" is null while the
     * game runs and, once it is over, an object {"scores": [...],
     * "winners": [...], ...} without a member "seed". The server adds
     * "seed_commit", and "seed" inside an object "result". */
    const struct game_section *sections;
    size_t nsections;

    /* Which parts of the view may differ between the positions `before`
     * and `after` (after = before plus one accepted action): bit k for
     * sections[k], GAME_CHANGED_YOU when any seat's "you" may. A clear bit
     * is a promise that the part is equal; GAME_CHANGED_ALL is always
     * correct. */
    uint64_t (*changed)(const void *before, const void *after);

    /* Optional: which items and which seats' "you" may differ between
     * `before` and `after`: bit n of *items for item n of every section
     * with a `write_item` that changed() names (items past the 32nd are
     * always rewritten), bit n of *you for seat n's "you" when changed()
     * names GAME_CHANGED_YOU. A clear bit is a promise that the part is
     * equal. NULL: all may differ. */
    void (*parts_changed)(const void *before, const void *after, unsigned *items, unsigned *you);

    /* Writes the value of "you" for `seat` (0 <= seat < nseats):
     * everything that seat alone may see. */
    void (*you)(struct game_text *out, const void *state, int seat);

    /* Every action `seat` may submit now, each accepted unchanged by apply().
     * New reference to an array (empty when the seat may not act), NULL on
     * ENOMEM. */
    json_t *(*legal)(const void *state, int seat);

    /* Optional: writes the list legal() gives, as its canonical text,
     * without building it as a tree first (for a game whose lists are
     * long). The server serialises legal() where it is NULL; the property
     * suite holds the two to the same bytes. */
    void (*legal_text)(struct game_text *out, const void *state, int seat);

    /* Bitmask of the seats that may act now (bit n = seat n); 0 exactly
     * when the game is over, that is when the "result" section is not
     * null (the fuzz and property suites hold every game to it). */
    unsigned (*active)(const void *state);

    /* Test builds: 0 when every invariant of the spec holds, else -1 with a
     * description in `err`. May be NULL. */
    int (*check_invariants)(const void *state, struct game_error *err);

    /* ---- What a clock's timeout needs (optional) ----
     *
     * Both are called on a scratch copy, as apply() is, only for a seat
     * in active(), and only by the server (a timeout is never a player's
     * action). A game without one does not offer that policy; a room
     * asking for it is refused at create. */

    /* `seat` loses now: the game ends, every other seat's result is as if
     * it had won against `seat` (a two-seat game: the other seat wins),
     * "result" gets the member "forfeit": seat, and the log says so.
     * GAME_OK, or GAME_E_OVER when the game has ended. */
    int (*forfeit)(void *state, int seat, struct game_error *err);

    /* `seat` gives up its turn, as the rules let a player who passes or
     * does nothing: the least the rules allow it to do (its decision is
     * ended with no effect, or the cheapest legal action where the rules
     * oblige one), and the log says it was skipped. Never reveals to
     * anyone what the seat itself would have to reveal by choosing.
     * GAME_OK, or GAME_E_ILLEGAL where the rules give no way to pass at
     * this point (the server then falls back to a bot). */
    int (*skip)(void *state, int seat, struct game_error *err);

    /* ---- What an undo needs (optional) ----
     *
     * Whether the action that took `before` to `after` (after = before
     * plus one action of `seat` that apply() accepted) drew or revealed
     * nothing hidden: no draw of the game's generator, no card or piece
     * out of a hidden zone (a deck, a bag, another seat's hand or a
     * sealed choice) into anyone's sight, the acting seat's included.
     * Then taking it back tells nobody anything they could not have known
     * without it. The server checks besides that every other seat's "you"
     * is unchanged and that no other seat has acted since. NULL: this
     * game's actions are never undone. */
    bool (*undoable)(const void *before, const void *after, int seat);

    /* The game's hooks for the shared test suites (game_tests.h). */
    const struct game_tests *tests;

    /* What its bots search with; NULL: the random bot. */
    const struct game_bot *bot;
};

/* ---- Registry ---- */

/* The games offered by this server, NULL-terminated. */
extern const struct game_ops *const game_registry[];

/* Finds a game by wire id in a NULL-terminated list; NULL when unknown. */
const struct game_ops *game_find_in(const struct game_ops *const *games, const char *id);

/* game_find_in(game_registry, id). */
const struct game_ops *game_find(const char *id);

/* Sets err to `status` with a printf-style message; returns `status`. */
int game_error_set(struct game_error *err, enum game_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- The one way to start and advance a game (common/game.c) ----
 * The server's action pipeline, its boot replay and `conclave replay`
 * all go through these. */

/* Zeroes `state` (state_size bytes) and runs init. */
int game_start(const struct game_ops *g, void *state, const json_t *options,
               const struct game_setup *setup, struct game_error *err);

/* Copies `state` into `scratch` (both state_size bytes) and applies the
 * action there. On GAME_OK the caller commits by taking `scratch` as the
 * new state; on a refusal `state` was never touched. */
int game_try(const struct game_ops *g, const void *state, void *scratch, int seat,
             const json_t *action, struct game_error *err);

/* A skip is repeated at most this many times for one timeout. */
#define GAME_SKIPS_MAX 64

/* Copies `state` into `scratch`, where seat `seat`'s time running out is
 * played: it forfeits (`lose`), or it skips, again while it still has
 * to act, until its turn is over. GAME_E_ILLEGAL where the game cannot
 * (no such op, or a turn it cannot skip to its end). */
int game_try_timeout(const struct game_ops *g, const void *state, void *scratch, int seat,
                     bool lose, struct game_error *err);

/* game_try() through a scratch block of its own, then copied back: the
 * convenience for tests and tools. GAME_E_NOMEM when no scratch. */
int game_apply(const struct game_ops *g, void *state, int seat, const json_t *action,
               struct game_error *err);

/* game_try_timeout() through a scratch block of its own, then copied back:
 * a record's timeout step, as a tool replays it. */
int game_apply_timeout(const struct game_ops *g, void *state, int seat, bool lose,
                       struct game_error *err);

/* Writes the canonical text of the whole view of `seat` (-1: spectator):
 * every section, then "you". Returns game_text_end(out). */
int game_view_text(const struct game_ops *g, const void *state, int seat, struct game_text *out);

/* The public view: an object of every section. New reference or NULL. */
json_t *game_view_public(const struct game_ops *g, const void *state);

/* The whole view of `seat` (-1: spectator) as a jansson value: the public
 * view plus "you". New reference or NULL (out of memory, or a view that
 * is not canonical text). Tools and tests; the server assembles views
 * from their parts. */
json_t *game_view(const struct game_ops *g, const void *state, int seat);

/* NULL while the game runs; once over, the value of its "result"
 * section (a new reference; NULL too when out of memory). */
json_t *game_result(const struct game_ops *g, const void *state);

/* One section's, or "you"'s (`section` -1), value as a jansson value: new
 * reference or NULL, as game_view(). */
json_t *game_section_json(const struct game_ops *g, const void *state, int section, int seat);

#endif
