/* SPDX-License-Identifier: MIT */
/*
 * fake_game.c - "Race to 10", the lobby tests' game (see fake_game.h).
 */
#include "fake_game.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json_util.h"
#include "rng.h"

/* Lines the log shows: an "add 2" logs two, so that it wraps. */
#define FAKE_LOG_N 3

struct fake_state {
    struct game_rng rng;
    int nseats;
    int total;
    int turn;
    int run;     /* adds a seat makes before the turn passes (option "run") */
    int in_run;  /* made so far in this turn */
    int winner;  /* -1 while running */
    int forfeit; /* the seat that lost on time, -1: none */
    int secret[GAME_MAX_SEATS];
    /* What each seat has added, each time (at most 10: the race ends
     * at 10). */
    int adds[GAME_MAX_SEATS][10];
    int nadds[GAME_MAX_SEATS];
    char names[GAME_MAX_SEATS][GAME_NAME_MAX];
    /* The log: its last FAKE_LOG_N lines, line k of all ever logged
     * (log_seq of them) in log[k % FAKE_LOG_N]. */
    char log[FAKE_LOG_N][GAME_MSG_MAX];
    uint32_t log_seq;
};

/* Appends a line to the log. */
static void fake_log(struct fake_state *s, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(s->log[s->log_seq % FAKE_LOG_N], GAME_MSG_MAX, fmt, ap);
    va_end(ap);
    s->log_seq++;
}

static json_t *fake_schema(void)
{
    return json_pack("{s:{s:s, s:i, s:i}, s:{s:s, s:i, s:i}}", "target", "type", "int", "default",
                     10, "max", 10, "run", "type", "int", "default", 1, "max", 10);
}

static int fake_check(const json_t *options, int nseats, struct game_error *err)
{
    const char *key;
    json_t *v;

    if (nseats < 2 || nseats > 4) {
        return game_error_set(err, GAME_E_BAD_OPTION, "Race to 10 takes 2 to 4 seats");
    }
    json_object_foreach((json_t *)options, key, v) {
        if (strcmp(key, "run") != 0) {
            return game_error_set(err, GAME_E_BAD_OPTION, "unknown option \"%s\"", key);
        }
        if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 10) {
            return game_error_set(err, GAME_E_BAD_OPTION, "\"run\" is 1 to 10 adds a turn");
        }
    }
    return GAME_OK;
}

static int fake_init(void *state, const json_t *options, const struct game_setup *setup,
                     struct game_error *err)
{
    struct fake_state *s = state;

    if (fake_check(options, setup->nseats, err) != GAME_OK) {
        return err->status;
    }
    memset(s, 0, sizeof(*s));
    game_rng_seed(&s->rng, setup->seed);
    s->nseats = setup->nseats;
    s->run = json_is_integer(json_object_get(options, "run"))
                 ? (int)json_integer_value(json_object_get(options, "run"))
                 : 1;
    s->winner = -1;
    s->forfeit = -1;
    for (int i = 0; i < s->nseats; i++) {
        s->secret[i] = (int)game_rng_below(&s->rng, 1000);
        memcpy(s->names[i], setup->names[i], GAME_NAME_MAX);
    }
    return GAME_OK;
}

static int fake_apply(void *state, int seat, const json_t *action, struct game_error *err)
{
    struct fake_state *s = state;
    const char *type = game_json_str(action, "type");
    long n;

    if (s->winner >= 0) {
        return game_error_set(err, GAME_E_OVER, "the race is over");
    }
    if (seat != s->turn) {
        return game_error_set(err, GAME_E_NOT_TURN, "it is %s's turn", s->names[s->turn]);
    }
    if (!type || strcmp(type, "add") != 0 || game_json_int(action, "n", -100, 100, &n) != 0) {
        return game_error_set(err, GAME_E_BAD_ACTION, "an action is {\"type\":\"add\",\"n\":1|2}");
    }
    if (n != 1 && n != 2) {
        return game_error_set(err, GAME_E_ILLEGAL, "R-fake-1: you may add 1 or 2, not %ld", n);
    }
    s->total += (int)n;
    s->adds[seat][s->nadds[seat]++] = (int)n;
    fake_log(s, "%s added %ld", s->names[seat], n);
    if (n == 2) {
        fake_log(s, "the total is %d", s->total);
    }
    if (s->total >= 10) {
        s->winner = seat;
    } else if (++s->in_run >= s->run) {
        s->in_run = 0;
        s->turn = (s->turn + 1) % s->nseats;
    }
    return GAME_OK;
}

/* The seat loses: the next seat wins. */
static int fake_forfeit(void *state, int seat, struct game_error *err)
{
    struct fake_state *s = state;

    if (s->winner >= 0) {
        return game_error_set(err, GAME_E_OVER, "the race is over");
    }
    s->forfeit = seat;
    s->winner = (seat + 1) % s->nseats;
    fake_log(s, "%s lost on time", s->names[seat]);
    return GAME_OK;
}

/* The turn passes on, but not before anybody has added (so that a test
 * sees a skip the game refuses). */
static int fake_skip(void *state, int seat, struct game_error *err)
{
    struct fake_state *s = state;

    if (s->winner >= 0) {
        return game_error_set(err, GAME_E_OVER, "the race is over");
    }
    if (seat != s->turn || s->total == 0) {
        return game_error_set(err, GAME_E_ILLEGAL, "R-fake-2: the first turn may not pass");
    }
    fake_log(s, "%s was skipped", s->names[seat]);
    s->in_run = 0;
    s->turn = (s->turn + 1) % s->nseats;
    return GAME_OK;
}

/* Adding 1 may be taken back; adding 2 counts, for the tests, as an
 * action that drew something hidden. */
static bool fake_undoable(const void *before, const void *after, int seat)
{
    const struct fake_state *b = before, *a = after;

    (void)seat;
    return a->total - b->total == 1;
}

static unsigned fake_active(const void *state)
{
    const struct fake_state *s = state;

    return s->winner >= 0 ? 0 : 1u << s->turn;
}

/* ---- The view, in sections ---- */

static void sec_active(struct game_text *w, const void *state)
{
    const struct fake_state *s = state;

    game_text_arr(w);
    if (s->winner < 0) {
        game_text_int(w, s->turn);
    }
    game_text_end_arr(w);
}

static void sec_game(struct game_text *w, const void *state)
{
    (void)state;
    game_text_str(w, "fake");
}

/* The log, oldest line first, as the items of a log section. */
static int log_count(const void *state)
{
    const struct fake_state *s = state;

    return s->log_seq < FAKE_LOG_N ? (int)s->log_seq : FAKE_LOG_N;
}

static uint32_t log_seq(const void *state)
{
    return ((const struct fake_state *)state)->log_seq;
}

static void log_line(struct game_text *w, const void *state, int i)
{
    const struct fake_state *s = state;

    game_text_str(w, s->log[(s->log_seq - (uint32_t)log_count(s) + (uint32_t)i) % FAKE_LOG_N]);
}

static void sec_phase(struct game_text *w, const void *state)
{
    const struct fake_state *s = state;

    game_text_str(w, s->winner >= 0 ? "over" : "race");
}

static void sec_result(struct game_text *w, const void *state)
{
    const struct fake_state *s = state;

    if (s->winner < 0) {
        game_text_null(w);
        return;
    }
    game_text_obj(w);
    if (s->forfeit >= 0) {
        game_text_kint(w, "forfeit", s->forfeit);
    }
    game_text_karr(w, "scores");
    for (int i = 0; i < s->nseats; i++) {
        game_text_int(w, i == s->winner);
    }
    game_text_end_arr(w);
    game_text_karr(w, "winners");
    game_text_int(w, s->winner);
    game_text_end_arr(w);
    game_text_end_obj(w);
}

/* The seats, items of two fields: what each has added, each time, and
 * its name. */
static const char *const seat_fields[] = {"adds", "name"};

static void seat_field(struct game_text *w, const void *state, int i, int f)
{
    const struct fake_state *s = state;

    if (f == 0) {
        game_text_arr(w);
        for (int k = 0; k < s->nadds[i]; k++) {
            game_text_int(w, s->adds[i][k]);
        }
        game_text_end_arr(w);
    } else {
        game_text_str(w, s->names[i]);
    }
}

static int seat_count(const void *state)
{
    return ((const struct fake_state *)state)->nseats;
}

static void seat_item(struct game_text *w, const void *state, int i);

/* A seat's name never changes after setup: only its adds may. */
static uint32_t seat_fields_changed(const void *before, const void *after, int i)
{
    (void)before;
    (void)after;
    (void)i;
    return 1u << 0;
}

static void sec_total(struct game_text *w, const void *state)
{
    const struct fake_state *s = state;

    game_text_int(w, s->total);
}

static const struct game_section fake_sections[] = {
    {.key = "active", .write = sec_active},
    {.key = "game", .write = sec_game},
    {.key = "log", .nitems = log_count, .write_item = log_line, .seq = log_seq},
    {.key = "phase", .write = sec_phase},
    {.key = "result", .write = sec_result},
    {.key = "seats",
     .nitems = seat_count,
     .write_item = seat_item,
     .nfields = 2,
     .field_keys = seat_fields,
     .write_field = seat_field,
     .fields_changed = seat_fields_changed},
    {.key = "total", .write = sec_total},
};

static void seat_item(struct game_text *w, const void *state, int i)
{
    game_text_fields(w, &fake_sections[5], state, i, NULL);
}

/* The game's id and the seats' secrets never change after setup;
 * everything else moves with each action, so the other sections are
 * always named. */
static uint64_t fake_changed(const void *before, const void *after)
{
    (void)before;
    (void)after;
    return (UINT64_C(1) << 7) - 1 - (UINT64_C(1) << 1);
}

/* Only the seat that added has a seat item that changed; no "you" does. */
static void fake_parts_changed(const void *before, const void *after, unsigned *items,
                               unsigned *you)
{
    const struct fake_state *b = before, *a = after;

    *items = 0;
    for (int i = 0; i < a->nseats; i++) {
        *items |= (unsigned)(b->nadds[i] != a->nadds[i]) << i;
    }
    *you = 0;
}

static void fake_you(struct game_text *w, const void *state, int seat)
{
    const struct fake_state *s = state;

    game_text_obj(w);
    game_text_kint(w, "secret", s->secret[seat]);
    game_text_end_obj(w);
}

static json_t *fake_legal(const void *state, int seat)
{
    const struct fake_state *s = state;

    if (s->winner >= 0 || seat != s->turn) {
        return json_array();
    }
    return json_pack("[{s:s, s:i}, {s:s, s:i}]", "type", "add", "n", 1, "type", "add", "n", 2);
}

/* ---- Bots ---- */

/* The other seats' secrets and the generator are redrawn; the total and
 * whose turn it is are public. */
static void fake_determinize(void *state, int seat, struct game_rng *rng)
{
    struct fake_state *s = state;

    for (int i = 0; i < s->nseats; i++) {
        if (i != seat) {
            s->secret[i] = (int)game_rng_below(rng, 1000);
        }
    }
    for (int i = 0; i < 4; i++) {
        s->rng.s[i] = game_rng_next(rng) | 1;
    }
}

static const struct game_bot fake_bot = {
    .determinize = fake_determinize,
};

const struct game_ops fake_game = {
    .id = "fake",
    .title = "Race to 10",
    .min_players = 2,
    .max_players = 4,
    .state_size = sizeof(struct fake_state),
    .options_schema = fake_schema,
    .check_options = fake_check,
    .init = fake_init,
    .apply = fake_apply,
    .sections = fake_sections,
    .nsections = sizeof(fake_sections) / sizeof(fake_sections[0]),
    .changed = fake_changed,
    .parts_changed = fake_parts_changed,
    .you = fake_you,
    .legal = fake_legal,
    .active = fake_active,
    .forfeit = fake_forfeit,
    .skip = fake_skip,
    .undoable = fake_undoable,
    .check_invariants = NULL,
    .bot = &fake_bot,
};
