/* SPDX-License-Identifier: MIT */
/*
 * stones_tests.c - the Sorcerer & Stones hooks for the shared test suites
 * (game_tests.h): what a recipient may see of a position (R-stones-3.3 and
 * docs/rules/stones.md section 10: magic decks and the artifacts below the
 * deck top are counts, removed runes and unrevealed objectives are never
 * named), how to change the hidden parts of a copy of a state, the leaks the
 * leak suite plants to prove its checks work, and the option sets and run
 * counts of the other suites. Pure: it reads the states it is handed and
 * reports through a callback; it changes only the copies the suites give it.
 */
#include <stdlib.h>
#include <string.h>

#include "game_tests.h"
#include "stones.h"

/* ---- What a recipient may see ---- */

struct truth {
    const struct stones_state *st;
    const struct game_tests_report *r;
    bool art_visible[STONES_NART];
    int public_copies[STONES_NCARDS]; /* face-up rows and discards, every colour */
    int seen_copies[STONES_NCARDS];   /* counted while walking */
};

static int card_of(const char *s)
{
    for (int c = 0; c < STONES_NCARDS; c++) {
        if (strcmp(s, stones_card_name[c]) == 0) {
            return c;
        }
    }
    return -1;
}

static int art_of(const char *s)
{
    for (int a = 0; a < STONES_NART; a++) {
        if (strcmp(s, stones_artifacts[a].id) == 0) {
            return a;
        }
    }
    return -1;
}

static void truth_init(struct truth *t, const struct stones_state *st,
                       const struct game_tests_report *r)
{
    memset(t, 0, sizeof(*t));
    t->st = st;
    t->r = r;
    for (int i = 0; i < st->art_row_n; i++) {
        t->art_visible[st->art_row[i]] = true;
    }
    if (st->art_top < STONES_NART) {
        t->art_visible[st->art_deck[st->art_top]] = true; /* the face-up deck top */
    }
    for (int p = 0; p < st->np; p++) {
        for (int i = 0; i < st->pl[p].ncrafted; i++) {
            t->art_visible[st->pl[p].crafted[i]] = true;
        }
        for (int i = 0; i < st->pl[p].row_n; i++) {
            t->public_copies[st->pl[p].row[i]]++;
        }
        for (int i = 0; i < st->pl[p].discard_n; i++) {
            t->public_copies[st->pl[p].discard[i]]++;
        }
    }
    for (int i = 0; i < st->coop_done_n; i++) {
        t->art_visible[st->coop_done[i]] = true;
    }
}

/* Reads a non-negative decimal at *s and moves past it; -1 when none. */
static int take_index(const char **s)
{
    char *end;
    long v = strtol(*s, &end, 10);

    if (end == *s || **s == '-' || **s == '+' || v > 1000) {
        return -1;
    }
    *s = end;
    return (int)v;
}

/* 1 when the current colour's face-up row holds `card`. */
static bool in_current_row(const struct stones_state *st, int card)
{
    const struct stones_player *pl = &st->pl[st->cur];

    for (int i = 0; i < pl->row_n; i++) {
        if (pl->row[i] == card) {
            return true;
        }
    }
    return false;
}

/* 1 when `path` is where the view names the cast being chosen step by step
 * (R-stones-4.2), and `card` is that cast: one of the current colour's
 * face-up cards, named a second time. */
static bool is_cast_in_choice(const struct stones_state *st, const char *path, int card)
{
    return strcmp(path, "/pending/card") == 0 && st->phase == STONES_PH_CAST &&
           st->sel_card == card && in_current_row(st, card);
}

/* 1 when `path` is an argument of a message of "log_keys",
 * /log_keys/I/J with J > 0, and `s` stands in line I of the log: the
 * message names nothing its line does not (a card cast, discarded or
 * crafted some time ago). */
static bool in_log_line(const struct stones_state *st, const char *path, const char *s)
{
    static const char prefix[] = "/log_keys/";
    const char *p = path;

    if (strncmp(p, prefix, sizeof(prefix) - 1) != 0) {
        return false;
    }
    p += sizeof(prefix) - 1;
    int i = take_index(&p);
    if (i < 0 || i >= st->log_n || *p != '/') {
        return false;
    }
    p++;
    int j = take_index(&p);
    if (j < 1 || *p != '\0') {
        return false;
    }
    return strstr(st->log[(st->log_head - st->log_n + i + 2 * STONES_LOG_N) % STONES_LOG_N], s) !=
           NULL;
}

/* A magic card name may stand only in a player's face-up row or discard
 * pile, at the index where the state has it: /players/P/row/I or
 * /players/P/discard/I. */
static bool card_in_place(const struct stones_state *st, const char *path, int card)
{
    static const char prefix[] = "/players/";
    const char *s = path;

    if (strncmp(s, prefix, sizeof(prefix) - 1) != 0) {
        return false;
    }
    s += sizeof(prefix) - 1;
    int p = take_index(&s);
    if (p < 0 || p >= st->np || *s != '/') {
        return false;
    }
    s++;
    bool row = strncmp(s, "row/", 4) == 0;
    bool discard = strncmp(s, "discard/", 8) == 0;
    if (!row && !discard) {
        return false;
    }
    s += row ? 4 : 8;
    int i = take_index(&s);
    if (i < 0 || *s != '\0') {
        return false;
    }
    if (row) {
        return i < st->pl[p].row_n && st->pl[p].row[i] == card;
    }
    return i < st->pl[p].discard_n && st->pl[p].discard[i] == card;
}

/* 1 when `s` is "O<k>" for an objective 1..7; sets *ret_k. */
static bool objective_of(const char *s, int *ret_k)
{
    if (s[0] == 'O' && s[1] >= '1' && s[1] <= '7' && s[2] == '\0') {
        *ret_k = s[1] - '0';
        return true;
    }
    return false;
}

static void visit(void *ud, const char *path, const char *key, const json_t *v)
{
    struct truth *t = ud;
    const struct stones_state *st = t->st;
    const struct game_tests_report *r = t->r;

    if (key) {
        int a = art_of(key);
        if (card_of(key) >= 0 || (a >= 0 && !t->art_visible[a])) {
            r->add(r->ud, "%s has a key naming hidden %s", path, key);
        }
        return;
    }
    if (!json_is_string(v)) {
        return;
    }
    const char *s = json_string_value(v);
    int card = card_of(s);
    if (card >= 0 && (is_cast_in_choice(st, path, card) || in_log_line(st, path, s))) {
        card = -1; /* a card named again, not another copy */
    }
    if (card >= 0) {
        t->seen_copies[card]++;
        if (!card_in_place(st, path, card)) {
            r->add(r->ud, "%s names magic card %s outside a face-up row or discard pile", path, s);
        }
    }
    int art = art_of(s);
    if (art >= 0 && !t->art_visible[art]) {
        r->add(r->ud, "%s names artifact %s below the deck top", path, s);
    }
    for (int a = 0; a < STONES_NART; a++) {
        if (!t->art_visible[a] && (strstr(s, stones_artifacts[a].name) ||
                                   (art != a && strstr(s, stones_artifacts[a].id)))) {
            r->add(r->ud, "%s mentions hidden artifact %s", path, stones_artifacts[a].id);
        }
    }
    int k;
    if (objective_of(s, &k) && !(st->objectives & (1 << (k - 1)))) {
        r->add(r->ud, "%s names objective O%d, which is not revealed", path, k);
    }
}

/* Exact checks of a whole view: counts instead of hidden lists, the public
 * rune stacks, and "you" holding only the seat and its colours. */
static void check_view_exact(const struct stones_state *st, int seat, const json_t *v,
                             const struct game_tests_report *r)
{
    json_t *players = json_object_get(v, "players");

    for (int p = 0; p < st->np; p++) {
        json_t *deck = json_object_get(json_array_get(players, (size_t)p), "deck");
        if (!json_is_integer(deck) || json_integer_value(deck) != st->pl[p].deck_n) {
            r->add(r->ud, "players/%d/deck is not the count %d of the magic deck", p,
                   st->pl[p].deck_n);
        }
    }
    json_t *arts = json_object_get(v, "artifacts");
    int below = STONES_NART - st->art_top - 1;
    json_t *db = json_object_get(arts, "deck_below");
    if (!json_is_integer(db) || json_integer_value(db) != (below < 0 ? 0 : below)) {
        r->add(r->ud, "artifacts/deck_below is not the count of the hidden artifacts");
    }
    if (st->variant == STONES_STANDARD) {
        json_t *stacks = json_object_get(json_object_get(v, "element"), "stacks");
        for (int e = 0; e < STONES_NCOL; e++) {
            json_t *a = json_object_get(stacks, stones_element_name[e]);
            bool same = json_array_size(a) == (size_t)st->stack_n[e];
            for (int i = 0; same && i < st->stack_n[e]; i++) {
                same = json_integer_value(json_array_get(a, (size_t)i)) == st->stack[e][i];
            }
            if (!same) {
                r->add(r->ud, "element/stacks/%s is not the public rune stack",
                       stones_element_name[e]);
            }
        }
    }
    json_t *you = json_object_get(v, "you");
    if (seat < 0) {
        if (you) {
            r->add(r->ud, "the spectator view has \"you\"");
        }
        return;
    }
    /* "you" is exactly {"seat": seat, "colours": [...]}, in player order. */
    bool exact = json_is_object(you) && json_object_size(you) == 2 &&
                 json_integer_value(json_object_get(you, "seat")) == seat &&
                 json_is_integer(json_object_get(you, "seat"));
    json_t *cols = json_object_get(you, "colours");
    size_t n = 0;
    for (int p = 0; exact && p < st->np; p++) {
        if (st->pl[p].seat == seat) {
            const char *c = json_string_value(json_array_get(cols, n++));
            exact = c && strcmp(c, stones_colour_name[st->pl[p].colour]) == 0;
        }
    }
    if (!exact || json_array_size(cols) != n) {
        r->add(r->ud, "\"you\" of seat %d holds more than its seat and colours", seat);
    }
}

static void scan(const struct game_leak_doc *d, const struct game_tests_report *r)
{
    const struct stones_state *st = d->state;
    struct truth t;

    truth_init(&t, st, r);
    game_tests_walk(d->doc, d->is_patch, visit, &t);
    if (!d->is_patch) {
        check_view_exact(st, d->seat, d->doc, r);
    }
    for (int c = 0; c < STONES_NCARDS; c++) {
        if (t.seen_copies[c] > t.public_copies[c]) {
            r->add(r->ud, "%d copies of %s shown, only %d face up or discarded", t.seen_copies[c],
                   stones_card_name[c], t.public_copies[c]);
        }
    }
}

static int secret_words(const void *state, uint64_t ret_words[GAME_TESTS_MAX_WORDS])
{
    const struct stones_state *st = state;

    return game_tests_rng_words(&st->rng, ret_words);
}

/* ---- Hidden changes ---- */

/* One kind: every magic deck's order, the artifact deck below its top, the
 * removed runes and the generator. No recipient may see any of it. */
static int perturb(void *state, const void *memo, int which, struct game_rng *rng,
                   unsigned *ret_may_see)
{
    struct stones_state *st = state;

    *ret_may_see = 0;
    for (int p = 0; p < st->np; p++) {
        if (st->pl[p].deck_n > 1) {
            game_rng_shuffle(rng, st->pl[p].deck, (uint32_t)st->pl[p].deck_n, 1);
        }
    }
    int first = st->art_top + 1;
    if (first < STONES_NART - 1) {
        game_rng_shuffle(rng, &st->art_deck[first], (uint32_t)(STONES_NART - first), 1);
    }
    for (int e = 0; e < STONES_NCOL; e++) {
        st->rune_removed[e] = (int8_t)(st->rune_removed[e] == 1 ? 2 : 1);
    }
    for (int i = 0; i < 4; i++) {
        st->rng.s[i] ^= game_rng_next(rng) | 1;
    }
    return 1;
}

/* The first face-up card of the first colour trades places with its deck
 * top: the rows of every view show it unless both are the same card. */
static int perturb_visible(void *state, const void *memo, struct game_rng *rng)
{
    struct stones_player *pl = &((struct stones_state *)state)->pl[0];

    if (pl->deck_n < 1 || pl->row_n < 1) {
        return -1;
    }
    int8_t top = pl->deck[pl->deck_n - 1];
    pl->deck[pl->deck_n - 1] = pl->row[0];
    pl->row[0] = top;
    return top != pl->deck[pl->deck_n - 1];
}

/* ---- Planted leaks ---- */

enum plant {
    PLANT_DECK_LIST,
    PLANT_DECK_CARD_LOG,
    PLANT_DECK_CARD_LOG_KEYS,
    PLANT_HIDDEN_ART_ID,
    PLANT_HIDDEN_ART_NAME,
    PLANT_OBJECTIVE,
    PLANT_REMOVED_RUNE,
    PLANT_SPECTATOR_YOU,
    PLANT_EXTRA_YOU,
    PLANT_DIFF_DECK_CARD,
    PLANT_DIFF_HIDDEN_ART,
    PLANT_DIFF_DECK_LIST,
    PLANT_COUNT,
};

static json_t *deck_list(const struct stones_player *pl)
{
    json_t *deck = json_array();

    for (int i = 0; deck && i < pl->deck_n; i++) {
        if (json_array_append_new(deck, json_string(stones_card_name[pl->deck[i]])) != 0) {
            json_decref(deck);
            return NULL;
        }
    }
    return deck;
}

static int plant(const void *state, const void *memo, json_t *const *views, int which,
                 struct game_leak_plant *ret)
{
    const struct stones_state *st = state;
    const struct stones_player *p0 = &st->pl[0];

    if (st->art_top + 1 >= STONES_NART || p0->deck_n < 1 || p0->row_n < 1) {
        return -1;
    }
    const struct stones_artifact *hidden = &stones_artifacts[st->art_deck[STONES_NART - 1]];
    const char *deck_card = stones_card_name[p0->deck[p0->deck_n - 1]];
    json_t *base = views[1]; /* seat 0's view */
    json_t *v = NULL;
    int rc = 0;

    ret->seat = 0;
    ret->is_patch = false;
    switch ((enum plant)which) {
    case PLANT_DECK_LIST:
        ret->what = "magic deck list";
        v = json_deep_copy(base);
        rc = json_object_set_new(json_array_get(json_object_get(v, "players"), 0), "deck",
                                 deck_list(p0));
        break;
    case PLANT_DECK_CARD_LOG:
        ret->what = "magic deck card in the log";
        v = json_deep_copy(base);
        rc = game_tests_push(v, "log", json_string(deck_card));
        break;
    case PLANT_DECK_CARD_LOG_KEYS:
        ret->what = "magic deck card in a message of the log";
        v = json_deep_copy(base);
        rc = game_tests_push(v, "log_keys",
                             json_pack("[sss]", "dead_hand_discard", st->names[0], deck_card));
        break;
    case PLANT_HIDDEN_ART_ID:
        ret->what = "hidden artifact id";
        v = json_deep_copy(base);
        rc = json_object_set_new(json_object_get(v, "artifacts"), "next", json_string(hidden->id));
        break;
    case PLANT_HIDDEN_ART_NAME:
        ret->what = "hidden artifact name";
        v = json_deep_copy(base);
        rc = game_tests_push(v, "log", json_sprintf("Next up: %s.", hidden->name));
        break;
    case PLANT_OBJECTIVE: {
        int k = 1;
        while (k <= 7 && (st->objectives & (1 << (k - 1)))) {
            k++;
        }
        if (k > 7) {
            return 0;
        }
        ret->what = "unrevealed objective";
        v = json_deep_copy(base);
        rc = game_tests_push(v, "objectives", json_sprintf("O%d", k));
        break;
    }
    case PLANT_REMOVED_RUNE:
        ret->what = "removed rune";
        v = json_deep_copy(base);
        rc = game_tests_push(json_object_get(json_object_get(v, "element"), "stacks"), "Metal",
                             json_integer(st->rune_removed[STONES_Y]));
        break;
    case PLANT_SPECTATOR_YOU:
        ret->what = "you for a spectator";
        ret->seat = -1;
        v = json_deep_copy(views[0]);
        rc = json_object_set_new(v, "you", json_pack("{s:i}", "seat", 0));
        break;
    case PLANT_EXTRA_YOU:
        ret->what = "extra you member";
        v = json_deep_copy(base);
        rc = json_object_set_new(json_object_get(v, "you"), "next_card", json_string("x"));
        break;
    case PLANT_DIFF_DECK_CARD:
        if (p0->row[0] == p0->deck[p0->deck_n - 1]) {
            return 0; /* the same card is face up: no leak */
        }
        ret->what = "deck card in a diff";
        ret->is_patch = true;
        v = game_tests_patch_add("/players/0/row/0", json_string(deck_card));
        break;
    case PLANT_DIFF_HIDDEN_ART:
        ret->what = "hidden artifact in a diff";
        ret->is_patch = true;
        v = game_tests_patch_add("/artifacts/row/0", json_pack("{s:s}", "id", hidden->id));
        break;
    case PLANT_DIFF_DECK_LIST:
        ret->what = "deck list in a diff";
        ret->is_patch = true;
        v = game_tests_patch_add("/players/0/deck", deck_list(p0));
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

/* ---- The other suites ---- */

/* The variant (standard, novice, cooperative) and the number of colours
 * (absent or 1 to 4). */
static json_t *fuzz_options(uint8_t selector)
{
    static const char *const variants[] = {"standard", "novice", "cooperative"};
    json_t *opts = json_pack("{ss}", "variant", variants[selector % 3]);
    int colours = (selector / 3) % 5;

    if (opts != NULL && colours > 0) {
        (void)json_object_set_new(opts, "colours", json_integer(colours));
    }
    return opts;
}

static const struct game_tests_setup alloc_setups[] = {
    {NULL, 4, 11},
    {"{\"variant\":\"cooperative\",\"colours\":4}", 2, 12},
    {"{\"variant\":\"novice\"}", 3, 13},
};

const struct game_tests stones_tests = {
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
    .leak_games_per_config = 1, /* stepwise casts make games about three times longer */
    .alloc_setups = alloc_setups,
    .nalloc_setups = sizeof(alloc_setups) / sizeof(alloc_setups[0]),
    .fuzz_options = fuzz_options,
    .playouts_per_config = 40,
};
