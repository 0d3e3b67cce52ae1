/* SPDX-License-Identifier: MIT */
/*
 * test_leaks.c - secrecy of the views and diffs of every game. Seeded random
 * games of each game, over every seat count and option value it accepts,
 * build after every action the view of every seat and of a spectator and the
 * JSON Patch from each recipient's previous view, and check them against the
 * truth read from the game's own state struct: no view or diff shows another
 * seat's private cards (Sorcerers: hands, sealed drafts and answers), the
 * order of any hidden deck, hidden artifacts, removed runes or unrevealed
 * objectives (Stones), the generator or the seed. Besides scanning what is
 * sent, it changes the hidden parts of a copy of the state (the generator,
 * deck orders, another seat's hand and sealed answers) and requires every
 * view that may not know them to stay byte-identical. A self-test injects
 * each kind of leak into copies of real views and diffs and requires the
 * checks to report it. This file only reads game states it builds itself.
 *
 * usage: test_leaks GAME_ID [GAMES_PER_CONFIG]
 */
#include <check.h>

#include "report.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "proto.h"
#include "rng.h"
#include "sorc.h"
#include "stones.h"

#define MAX_STEPS 6000
#define PATH_MAX_LEN 512

static const char *game_id = "stones";
static int games_per_config;
static long total_steps;

/* ---- Reports ---- */


/* ---- Walking JSON with JSON Pointer paths ---- */

/* Called for every object key (value NULL, key set) and every scalar (key
 * NULL) of a document, with the pointer of the key's parent or the scalar. */
typedef void (*visit_cb)(void *ud, const char *path, const char *key, const json_t *v);

static void walk(const json_t *v, char *path, size_t len, visit_cb cb, void *ud)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *m;
        json_object_foreach((json_t *)v, k, m) {
            cb(ud, path, k, NULL);
            snprintf(path + len, PATH_MAX_LEN - len, "/%s", k);
            walk(m, path, strlen(path), cb, ud);
            path[len] = '\0';
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *m;
        json_array_foreach(v, i, m) {
            snprintf(path + len, PATH_MAX_LEN - len, "/%zu", i);
            walk(m, path, strlen(path), cb, ud);
            path[len] = '\0';
        }
    } else {
        cb(ud, path, NULL, v);
    }
}

/* Walks a whole document from the root. */
static void walk_doc(const json_t *v, visit_cb cb, void *ud)
{
    char path[PATH_MAX_LEN] = "";

    walk(v, path, 0, cb, ud);
}

/* Walks every operation of a JSON Patch: the keys named by its path, then
 * its value under that path. */
static void walk_patch(const json_t *patch, visit_cb cb, void *ud)
{
    size_t i;
    json_t *op;

    json_array_foreach(patch, i, op) {
        char path[PATH_MAX_LEN];
        const char *p = json_string_value(json_object_get(op, "path"));
        json_t *value = json_object_get(op, "value");

        if (!p) {
            continue;
        }
        /* Each segment of the path is a key of the recipient's document. */
        char parent[PATH_MAX_LEN] = "";
        const char *seg = p;
        while (*seg == '/') {
            const char *end = strchr(seg + 1, '/');
            size_t n = end ? (size_t)(end - seg - 1) : strlen(seg + 1);
            char key[PATH_MAX_LEN];
            snprintf(key, sizeof(key), "%.*s", (int)n, seg + 1);
            cb(ud, parent, key, NULL);
            size_t pl = strlen(parent);
            size_t kl = strlen(key);
            if (pl + 1 + kl < sizeof(parent)) {
                parent[pl] = '/';
                memcpy(parent + pl + 1, key, kl + 1);
            }
            if (!end) {
                break;
            }
            seg = end;
        }
        if (value) {
            snprintf(path, sizeof(path), "%s", p);
            walk(value, path, strlen(path), cb, ud);
        }
    }
}

/* 1 when `path` is `prefix` or lies below it. */
static bool under(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);

    return strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* ---- Secrets common to every game: the seed and the generator ---- */

struct secrets {
    char seed_hex[65];
    uint64_t words[8]; /* the seed's words and the generator's state */
};

static void secrets_init(struct secrets *sec, const struct game_setup *setup,
                         const struct game_rng *rng)
{
    proto_hex(setup->seed, GAME_SEED_BYTES, sec->seed_hex);
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--) {
            w = (w << 8) | setup->seed[8 * i + b];
        }
        sec->words[i] = w;
        sec->words[4 + i] = rng->s[i];
    }
}

/* Reports a string holding 16 or more hex digits of the seed in a row, or an
 * integer equal to a word of the seed or of the generator. */
static void check_secret_scalar(struct report *r, const struct secrets *sec, const char *path,
                                const json_t *v)
{
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        for (int i = 0; i + 16 <= 64; i += 4) {
            char window[17];
            memcpy(window, sec->seed_hex + i, 16);
            window[16] = '\0';
            if (strstr(s, window)) {
                report_add(r, "%s holds seed digits %s", path, window);
                return;
            }
        }
    } else if (json_is_integer(v)) {
        uint64_t n = (uint64_t)json_integer_value(v);
        for (int i = 0; i < 8; i++) {
            if (n == sec->words[i] && n > 0xffffffffu) {
                report_add(r, "%s holds a word of the %s", path, i < 4 ? "seed" : "generator");
            }
        }
    }
}

/* ---- Stones ---- */

/* What a Stones recipient may see, read from the state (R-stones-3.3 and
 * docs/rules/stones.md section 10). */
struct stones_truth {
    const struct stones_state *st;
    const struct secrets *sec;
    int seat;                   /* recipient, -1 spectator */
    bool art_visible[STONES_NART];
    int public_copies[STONES_NCARDS]; /* face-up row and discard, all colours */
    int seen_copies[STONES_NCARDS];   /* counted while walking */
    struct report *r;
};

static int stones_card_of(const char *s)
{
    for (int c = 0; c < STONES_NCARDS; c++) {
        if (strcmp(s, stones_card_name[c]) == 0) {
            return c;
        }
    }
    return -1;
}

static int stones_art_of(const char *s)
{
    for (int a = 0; a < STONES_NART; a++) {
        if (strcmp(s, stones_artifacts[a].id) == 0) {
            return a;
        }
    }
    return -1;
}

static void stones_truth_init(struct stones_truth *t, const struct stones_state *st,
                              const struct secrets *sec, int seat, struct report *r)
{
    memset(t, 0, sizeof(*t));
    t->st = st;
    t->sec = sec;
    t->seat = seat;
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

/* A magic card name may stand only in a player's face-up row or discard
 * pile, at the index where the state has it. */
static bool stones_card_in_place(const struct stones_state *st, const char *path, int card)
{
    int p, i, n = 0;
    char zone[16];

    if (sscanf(path, "/players/%d/%15[a-z]/%d%n", &p, zone, &i, &n) != 3 ||
        path[n] != '\0' || p < 0 || p >= st->np || i < 0) {
        return false;
    }
    if (strcmp(zone, "row") == 0) {
        return i < st->pl[p].row_n && st->pl[p].row[i] == card;
    }
    if (strcmp(zone, "discard") == 0) {
        return i < st->pl[p].discard_n && st->pl[p].discard[i] == card;
    }
    return false;
}

static void stones_visit(void *ud, const char *path, const char *key, const json_t *v)
{
    struct stones_truth *t = ud;
    const struct stones_state *st = t->st;

    if (key) {
        int a = stones_art_of(key);
        if (stones_card_of(key) >= 0 || (a >= 0 && !t->art_visible[a])) {
            report_add(t->r, "%s has a key naming hidden %s", path, key);
        }
        return;
    }
    check_secret_scalar(t->r, t->sec, path, v);
    if (!json_is_string(v)) {
        return;
    }
    const char *s = json_string_value(v);
    int card = stones_card_of(s);
    if (card >= 0) {
        t->seen_copies[card]++;
        if (!stones_card_in_place(st, path, card)) {
            report_add(t->r, "%s names magic card %s outside a face-up row or discard pile",
                       path, s);
        }
    }
    int art = stones_art_of(s);
    if (art >= 0 && !t->art_visible[art]) {
        report_add(t->r, "%s names artifact %s below the deck top", path, s);
    }
    for (int a = 0; a < STONES_NART; a++) {
        if (!t->art_visible[a] && (strstr(s, stones_artifacts[a].name) ||
                                   (art != a && strstr(s, stones_artifacts[a].id)))) {
            report_add(t->r, "%s mentions hidden artifact %s", path, stones_artifacts[a].id);
        }
    }
    int k, n = 0;
    if (sscanf(s, "O%d%n", &k, &n) == 1 && s[n] == '\0' && k >= 1 && k <= 7 &&
        !(st->objectives & (1 << (k - 1)))) {
        report_add(t->r, "%s names objective O%d, which is not revealed", path, k);
    }
}

/* Exact checks of a whole Stones view: counts instead of hidden lists. */
static void stones_check_view_exact(const struct stones_state *st, int seat, const json_t *v,
                                    struct report *r)
{
    json_t *players = json_object_get(v, "players");

    for (int p = 0; p < st->np; p++) {
        json_t *deck = json_object_get(json_array_get(players, (size_t)p), "deck");
        if (!json_is_integer(deck) || json_integer_value(deck) != st->pl[p].deck_n) {
            report_add(r, "players/%d/deck is not the count %d of the magic deck", p,
                       st->pl[p].deck_n);
        }
    }
    json_t *arts = json_object_get(v, "artifacts");
    int below = STONES_NART - st->art_top - 1;
    json_t *db = json_object_get(arts, "deck_below");
    if (!json_is_integer(db) || json_integer_value(db) != (below < 0 ? 0 : below)) {
        report_add(r, "artifacts/deck_below is not the count of the hidden artifacts");
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
                report_add(r, "element/stacks/%s is not the public rune stack",
                           stones_element_name[e]);
            }
        }
    }
    json_t *you = json_object_get(v, "you");
    if (seat < 0) {
        if (you) {
            report_add(r, "the spectator view has \"you\"");
        }
        return;
    }
    json_t *cols = json_array();
    for (int p = 0; p < st->np; p++) {
        if (st->pl[p].seat == seat) {
            json_array_append_new(cols, json_string(stones_colour_name[st->pl[p].colour]));
        }
    }
    json_t *want = json_pack("{s:i, s:o}", "seat", seat, "colours", cols);
    if (!json_equal(you, want)) {
        report_add(r, "\"you\" of seat %d holds more than its seat and colours", seat);
    }
    json_decref(want);
}

/* Scans a Stones view (full) or patch for what no recipient may see. */
static void stones_scan(const struct stones_state *st, const struct secrets *sec, int seat,
                        const json_t *doc, bool is_patch, struct report *r)
{
    struct stones_truth t;

    stones_truth_init(&t, st, sec, seat, r);
    if (is_patch) {
        walk_patch(doc, stones_visit, &t);
    } else {
        walk_doc(doc, stones_visit, &t);
        stones_check_view_exact(st, seat, doc, r);
    }
    for (int c = 0; c < STONES_NCARDS; c++) {
        if (t.seen_copies[c] > t.public_copies[c]) {
            report_add(r, "%d copies of %s shown, only %d face up or discarded",
                       t.seen_copies[c], stones_card_name[c], t.public_copies[c]);
        }
    }
}

/* Changes every hidden part of a copy of the state: each magic deck's
 * order, the artifact deck below its top, the removed runes and the
 * generator. */
static void stones_perturb(struct stones_state *st, struct game_rng *rng)
{
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
}

/* ---- Sorcerers ---- */

enum sorc_loc { LOC_DECK, LOC_HAND0, LOC_HAND1, LOC_PUBLIC };

/* Public knowledge about each card, carried from action to action. */
struct sorc_knowledge {
    uint8_t loc[SORC_NCARDS];   /* enum sorc_loc, by side for hands */
    bool known[SORC_NCARDS];    /* in a hand, but publicly known there */
    bool ever[SORC_NCARDS];     /* has been in a public zone */
    bool hidden_before[SORC_NCARDS]; /* not public before the last action */
};

static void sorc_locate(const struct sorc_state *st, uint8_t loc[SORC_NCARDS])
{
    for (int c = 0; c < SORC_NCARDS; c++) {
        loc[c] = LOC_PUBLIC;
    }
    for (int i = 0; i < st->ndeck; i++) {
        loc[st->deck[i]] = LOC_DECK;
    }
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < st->nhand[s]; i++) {
            loc[st->hand[s][i]] = (uint8_t)(LOC_HAND0 + s);
        }
    }
}

static bool sorc_hidden(const struct sorc_knowledge *k, int c)
{
    return k->loc[c] == LOC_DECK || (k->loc[c] != LOC_PUBLIC && !k->known[c]);
}

/* Updates the knowledge after `action` (NULL at the start). A card is
 * publicly known in a hand only when it was taken there from a public zone
 * by name (a find: `activate` with that `target`); a card that left a hand
 * for the deck within one action was public in the discard pile between,
 * and so may have been one that went from a hand to a hand across a
 * reshuffle. */
static void sorc_knowledge_update(struct sorc_knowledge *k, const struct sorc_state *st,
                                  const json_t *action)
{
    uint8_t loc[SORC_NCARDS];
    const char *target = json_string_value(json_object_get(action, "target"));
    const char *type = json_string_value(json_object_get(action, "type"));

    sorc_locate(st, loc);
    /* A reshuffle of the discard pile into the deck happened when a card
     * other than a Prime Mover leaving play entered the deck. */
    bool reshuffled = false;
    for (int c = 0; action && c < SORC_NCARDS; c++) {
        reshuffled |= loc[c] == LOC_DECK && k->loc[c] != LOC_DECK &&
                      !(sorc_cards[c].kw & SORC_K_PRIME_MOVER);
    }
    for (int c = 0; c < SORC_NCARDS; c++) {
        k->hidden_before[c] = action ? sorc_hidden(k, c) : true;
        if (reshuffled && loc[c] != LOC_DECK && loc[c] != LOC_PUBLIC &&
            k->loc[c] != LOC_DECK && k->loc[c] != LOC_PUBLIC) {
            /* From a hand to a hand across a reshuffle: it may have been
             * discarded (and named) and drawn again within the action. */
            k->ever[c] = true;
            k->hidden_before[c] = false;
        }
        if (loc[c] == LOC_PUBLIC) {
            k->known[c] = true;
            k->ever[c] = true;
        } else if (loc[c] == LOC_DECK) {
            k->known[c] = false;
            if (action && (k->loc[c] == LOC_HAND0 || k->loc[c] == LOC_HAND1)) {
                /* No rule moves a card from a hand into the deck directly: it
                 * went through the discard pile and a reshuffle. */
                k->ever[c] = true;
                k->hidden_before[c] = false;
            }
        } else if (!action || k->loc[c] == LOC_DECK) {
            k->known[c] = false;
        } else if (k->loc[c] == LOC_PUBLIC) {
            k->known[c] = type && strcmp(type, "activate") == 0 && target &&
                          strcmp(target, sorc_cards[c].id) == 0;
        }
        k->loc[c] = loc[c];
    }
}

static int sorc_card_of(const char *s)
{
    for (int c = 0; c < SORC_NCARDS; c++) {
        if (strcmp(s, sorc_cards[c].id) == 0) {
            return c;
        }
    }
    return -1;
}

/* 1 when the name of card `c` occurs in `s` other than inside the name of an
 * allowed card that contains it (e.g. "Escape" inside "Spirit Escape"). */
static bool sorc_name_in(const char *s, int c, const bool allowed[SORC_NCARDS])
{
    const char *name = sorc_cards[c].name;

    for (const char *p = strstr(s, name); p; p = strstr(p + 1, name)) {
        bool explained = false;
        for (int d = 0; d < SORC_NCARDS && !explained; d++) {
            const char *dn = sorc_cards[d].name;
            const char *in = d != c && allowed[d] ? strstr(dn, name) : NULL;
            for (; in && !explained; in = strstr(in + 1, name)) {
                size_t off = (size_t)(in - dn);
                explained = (size_t)(p - s) >= off && strncmp(p - off, dn, strlen(dn)) == 0;
            }
        }
        if (!explained) {
            return true;
        }
    }
    return false;
}

/* What one Sorcerers recipient may see, from the state and the knowledge. */
struct sorc_truth {
    const struct sorc_state *st;
    const struct sorc_knowledge *k;
    const struct secrets *sec;
    const json_t *prev_log; /* the recipient's previous log, NULL at the start */
    int seat;               /* recipient, -1 spectator */
    struct report *r;
};

static bool sorc_in(const uint8_t *cards, int n, int c)
{
    for (int i = 0; i < n; i++) {
        if (cards[i] == c) {
            return true;
        }
    }
    return false;
}

/* Cards the recipient's own "you" member may name under `key`. */
static bool sorc_you_allows(const struct sorc_truth *t, const char *key, int c)
{
    const struct sorc_state *st = t->st;
    int side = sorc__side(st, t->seat);
    int opp = side ^ 1;
    bool pub = t->k->loc[c] == LOC_PUBLIC;

    if (strcmp(key, "hand") == 0) {
        return sorc_in(st->hand[side], st->nhand[side], c);
    }
    if (strcmp(key, "draft") == 0 || strcmp(key, "submitted_defense") == 0) {
        return pub || sorc_in(st->hand[side], st->nhand[side], c);
    }
    if (strcmp(key, "submitted_choice") == 0 || strcmp(key, "submitted_negate") == 0) {
        return pub;
    }
    if (strcmp(key, "scry") == 0) {
        return sorc_in(st->scry[side], st->scry_n[side], c);
    }
    if (strcmp(key, "divination") == 0) {
        return sorc_in(st->div[side], st->div_n[side], c);
    }
    if (strcmp(key, "tracked") == 0) {
        return st->tracked[side] == c;
    }
    if (strcmp(key, "track_list") == 0) {
        return st->phase == SORC_P_EVENT_TRACK && st->cur_side == side &&
               sorc_in(st->deck, st->ndeck, c);
    }
    if (strcmp(key, "opponent_hand") == 0) {
        return st->phase == SORC_P_DUEL_STEAL && st->cur_side == side &&
               sorc_in(st->hand[opp], st->nhand[opp], c);
    }
    if (strcmp(key, "transfers") == 0) {
        return sorc_in(st->xfer_card, st->nxfer, c);
    }
    return false;
}

/* 1 for the members docs/rules/sorcerers.md section 9 lists under "you". */
static bool sorc_you_documented(const char *key)
{
    static const char *const keys[] = {
        "seat", "faction", "hand", "draft", "submitted_choice", "submitted_negate",
        "submitted_defense", "scry", "divination", "tracked", "track_list", "opponent_hand",
        "transfers",
    };
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        if (strcmp(key, keys[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* Paths of the public part that name cards of the past (the last duel, the
 * cards activated this Event phase) rather than where a card is now. */
static bool sorc_historic(const struct sorc_state *st, const char *path)
{
    if (under(path, "/event/activated")) {
        return true;
    }
    return under(path, "/duel") && st->phase != SORC_P_ENCOUNTER &&
           st->phase != SORC_P_DUEL_COMBO;
}

static bool sorc_log_line_new(const struct sorc_truth *t, const char *s)
{
    size_t i;
    json_t *l;

    if (!t->prev_log) {
        return true;
    }
    json_array_foreach(t->prev_log, i, l) {
        if (json_is_string(l) && strcmp(json_string_value(l), s) == 0) {
            return false;
        }
    }
    return true;
}

static void sorc_visit(void *ud, const char *path, const char *key, const json_t *v)
{
    struct sorc_truth *t = ud;
    const struct sorc_knowledge *k = t->k;
    bool in_you = under(path, "/you");

    if (key) {
        int c = sorc_card_of(key);
        /* The gates object is keyed by the four gated cards in every state;
         * any other key naming a card must name a public one. */
        if (c >= 0 && (sorc_hidden(k, c) || !k->ever[c]) &&
            !(strcmp(path, "/gates") == 0 && (sorc_cards[c].kw & SORC_K_GRIMHOLD_GATE))) {
            report_add(t->r, "%s has a key naming card %s", path, key);
        }
        if (strcmp(path, "") == 0 && strcmp(key, "you") == 0 && t->seat < 0) {
            report_add(t->r, "a spectator is sent \"you\"");
        }
        if (strcmp(path, "/you") == 0 && !sorc_you_documented(key)) {
            report_add(t->r, "/you/%s is not a documented private member", key);
        }
        return;
    }
    check_secret_scalar(t->r, t->sec, path, v);
    if (!json_is_string(v)) {
        return;
    }
    const char *s = json_string_value(v);
    int c = sorc_card_of(s);
    if (in_you) {
        char member[64] = "";
        sscanf(path, "/you/%63[^/]", member);
        if (t->seat < 0) {
            report_add(t->r, "%s: a spectator is sent private data", path);
        } else if (c >= 0 && !sorc_you_allows(t, member, c)) {
            report_add(t->r, "%s names %s, which seat %d may not know there", path, s, t->seat);
        }
        return;
    }
    if (c >= 0) {
        if (!k->ever[c]) {
            report_add(t->r, "%s names %s, which has never been public", path, s);
        } else if (sorc_hidden(k, c) && !sorc_historic(t->st, path)) {
            report_add(t->r, "%s names %s, which is in a %s", path, s,
                       k->loc[c] == LOC_DECK ? "deck" : "hand");
        }
        return;
    }
    /* Free text (the log): no name of a card the public has never seen, and
     * no new line naming a card hidden both before and after the action. */
    bool fresh = under(path, "/log") && sorc_log_line_new(t, s);
    bool allowed[SORC_NCARDS];
    for (int d = 0; d < SORC_NCARDS; d++) {
        allowed[d] = k->ever[d] && !(fresh && sorc_hidden(k, d) && k->hidden_before[d]);
    }
    for (int d = 0; d < SORC_NCARDS; d++) {
        if (!allowed[d] && strstr(s, sorc_cards[d].name) && sorc_name_in(s, d, allowed)) {
            report_add(t->r, "%s \"%s\" names hidden card %s", path, s, sorc_cards[d].name);
        }
    }
}

/* 1 when `a` is a JSON array of the card ids cards[0..n). */
static bool sorc_ids_equal(const json_t *a, const uint8_t *cards, int n)
{
    if (!json_is_array(a) || json_array_size(a) != (size_t)n) {
        return false;
    }
    for (int i = 0; i < n; i++) {
        const char *s = json_string_value(json_array_get(a, (size_t)i));
        if (!s || cards[i] >= SORC_NCARDS || strcmp(s, sorc_cards[cards[i]].id) != 0) {
            return false;
        }
    }
    return true;
}

/* Exact checks of a whole Sorcerers view against the state. */
static void sorc_check_view_exact(const struct sorc_state *st, int seat, const json_t *v,
                                  struct report *r)
{
    json_t *ds = json_object_get(v, "deck_size");

    if (!json_is_integer(ds) || json_integer_value(ds) != st->ndeck) {
        report_add(r, "deck_size is not the deck count %d", st->ndeck);
    }
    if (!sorc_ids_equal(json_object_get(v, "discard"), st->discard, st->ndiscard)) {
        report_add(r, "discard is not the discard pile");
    }
    for (int s = 0; s < 2; s++) {
        json_t *e = json_array_get(json_object_get(v, "seats"), (size_t)s);
        json_t *hs = json_object_get(e, "hand_size");
        if (!json_is_integer(hs) || json_integer_value(hs) != st->nhand[sorc__side(st, s)]) {
            report_add(r, "seats/%d/hand_size is not the hand count", s);
        }
    }
    /* Before the reveal a seat's combo is its own; afterwards it is public. */
    json_t *sides = json_object_get(json_object_get(v, "duel"), "sides");
    for (size_t i = 0; !st->revealed && i < json_array_size(sides); i++) {
        json_t *e = json_array_get(sides, i);
        if (json_object_get(e, "combo") || json_object_get(e, "total")) {
            report_add(r, "duel/sides/%zu shows a combo before the reveal", i);
        }
    }
    json_t *you = json_object_get(v, "you");
    if (seat < 0 || !you) {
        if (seat >= 0) {
            report_add(r, "seat %d has no \"you\"", seat);
        }
        return;
    }
    int side = sorc__side(st, seat);
    int opp = side ^ 1;
    if (!sorc_ids_equal(json_object_get(you, "hand"), st->hand[side], st->nhand[side])) {
        report_add(r, "you/hand of seat %d is not its hand", seat);
    }
    json_t *x;
    if ((x = json_object_get(you, "scry")) && !sorc_ids_equal(x, st->scry[side], st->scry_n[side])) {
        report_add(r, "you/scry of seat %d is not what it scried", seat);
    }
    if ((x = json_object_get(you, "divination")) &&
        !sorc_ids_equal(x, st->div[side], st->div_n[side])) {
        report_add(r, "you/divination of seat %d is not what it saw", seat);
    }
    if ((x = json_object_get(you, "opponent_hand")) &&
        (st->phase != SORC_P_DUEL_STEAL || st->cur_side != side ||
         !sorc_ids_equal(x, st->hand[opp], st->nhand[opp]))) {
        report_add(r, "you/opponent_hand of seat %d outside its steal", seat);
    }
    if ((x = json_object_get(you, "track_list"))) {
        uint8_t sorted[SORC_NCARDS];
        int n = 0;
        for (int c = 0; c < SORC_NCARDS; c++) {
            if (sorc_in(st->deck, st->ndeck, c)) {
                sorted[n++] = (uint8_t)c;
            }
        }
        if (st->phase != SORC_P_EVENT_TRACK || st->cur_side != side ||
            !sorc_ids_equal(x, sorted, n)) {
            report_add(r, "you/track_list of seat %d is not the deck in card-list order", seat);
        }
    }
    json_t *draft = json_object_get(you, "draft");
    if (draft && (st->phase != SORC_P_DUEL_COMBO || !st->combo[side].asked)) {
        report_add(r, "you/draft of seat %d outside its combo", seat);
    }
}

/* Scans a Sorcerers view (full) or patch for what its recipient may not see. */
static void sorc_scan(const struct sorc_state *st, const struct sorc_knowledge *k,
                      const struct secrets *sec, int seat, const json_t *prev_view,
                      const json_t *doc, bool is_patch, struct report *r)
{
    struct sorc_truth t = {st, k, sec, json_object_get(prev_view, "log"), seat, r};

    if (is_patch) {
        walk_patch(doc, sorc_visit, &t);
    } else {
        walk_doc(doc, sorc_visit, &t);
        sorc_check_view_exact(st, seat, doc, r);
    }
}

/* Changes the deck order and the generator of a copy of the state. */
static void sorc_perturb_public(struct sorc_state *st, struct game_rng *rng)
{
    if (st->ndeck > 1) {
        game_rng_shuffle(rng, st->deck, st->ndeck, 1);
    }
    for (int i = 0; i < 4; i++) {
        st->rng.s[i] ^= game_rng_next(rng) | 1;
    }
}

/* Changes what only `side` knows in a copy of the state: a private hand
 * card trades places with a deck card, and the sealed draft or answer it has
 * not revealed is scrambled. Returns 0 when nothing could be changed. */
static int sorc_perturb_side(struct sorc_state *st, const struct sorc_knowledge *k, int side,
                             struct game_rng *rng)
{
    int changed = 0;
    struct sorc_combo *cb = &st->combo[side];

    if (st->ndeck > 0 && st->nhand[side] > 0) {
        int i = (int)game_rng_below(rng, st->nhand[side]);
        int j = (int)game_rng_below(rng, st->ndeck);
        if (!k->known[st->hand[side][i]]) {
            uint8_t c = st->hand[side][i];
            st->hand[side][i] = st->deck[j];
            st->deck[j] = c;
            changed = 1;
        }
    }
    if (!cb->submitted && !cb->asked) {
        return changed;
    }
    switch (st->phase) {
    case SORC_P_ENCOUNTER:
        cb->enc_choice = (uint8_t)((cb->enc_choice + 1) % 3);
        cb->enc_sorc = (uint8_t)game_rng_below(rng, SORC_NCARDS);
        return 1;
    case SORC_P_DUEL_COMBO:
        for (int s = 0; s < SORC_NSLOTS; s++) {
            cb->slot[s] = (uint8_t)game_rng_below(rng, SORC_NCARDS);
        }
        cb->steps = (uint8_t)game_rng_below(rng, 7);
        cb->namp = (uint8_t)game_rng_below(rng, 4);
        cb->sacrifice ^= 1;
        cb->betray = (uint8_t)game_rng_below(rng, SORC_NCARDS);
        return 1;
    case SORC_P_DUEL_NEGATE:
        cb->neg_target[0] = (uint8_t)game_rng_below(rng, SORC_NCARDS);
        cb->neg_target[1] = (uint8_t)game_rng_below(rng, SORC_NCARDS);
        return 1;
    case SORC_P_DUEL_DEFENSE:
        cb->def_card = (uint8_t)game_rng_below(rng, SORC_NCARDS);
        return 1;
    default:
        return changed;
    }
}

/* ---- Playing ---- */

struct config {
    const struct game_ops *g;
    json_t *options; /* borrowed */
    int nseats;
};

struct game_run {
    const struct config *c;
    void *st;
    void *copy;
    struct game_setup setup;
    struct secrets sec;
    struct sorc_knowledge know;
    json_t *prev[GAME_MAX_SEATS + 1];
    struct game_rng rng;
    int step;
};

static bool is_sorc(const struct game_ops *g)
{
    return strcmp(g->id, "sorcerers") == 0;
}

/* Every leak check of one document sent to `seat`. */
static void scan_doc(const struct game_run *run, const void *st, int seat, const json_t *prev,
                     const json_t *doc, bool is_patch, struct report *r)
{
    if (is_sorc(run->c->g)) {
        sorc_scan(st, &run->know, &run->sec, seat, prev, doc, is_patch, r);
    } else {
        stones_scan(st, &run->sec, seat, doc, is_patch, r);
    }
}

/* The views of every recipient of `st` into views[seat + 1]. */
static void build_views(const struct game_run *run, const void *st, json_t **views)
{
    for (int s = -1; s < run->c->nseats; s++) {
        views[s + 1] = run->c->g->view(st, s);
        ck_assert_msg(views[s + 1] != NULL, "%s: view(%d) failed", run->c->g->id, s);
    }
}

static void free_views(json_t **views, int n)
{
    for (int i = 0; i <= n; i++) {
        json_decref(views[i]);
        views[i] = NULL;
    }
}

/* The number of views of `copy` that differ from `views`, leaving out the
 * recipients in `skip` (bit seat + 1), which may know what was changed. The
 * first difference is printed with `what` unless `what` is NULL. */
static int count_changed(const struct game_run *run, json_t **views, unsigned skip,
                         const char *what)
{
    json_t *again[GAME_MAX_SEATS + 1] = {0};
    int n = 0;

    build_views(run, run->copy, again);
    for (int s = -1; s < run->c->nseats; s++) {
        if (!(skip & (1u << (s + 1))) && !json_equal(views[s + 1], again[s + 1])) {
            if (n++ == 0 && what) {
                json_t *d = proto_patch_diff(views[s + 1], again[s + 1]);
                char *text = d ? json_dumps(d, JSON_COMPACT) : NULL;
                fprintf(stderr, "%s step %d: the view of %d changes with %s: %.600s\n",
                        run->c->g->id, run->step, s, what, text ? text : "?");
                free(text);
                json_decref(d);
            }
        }
    }
    free_views(again, run->c->nseats);
    return n;
}

static void check_unchanged(const struct game_run *run, json_t **views, unsigned skip,
                            const char *what)
{
    ck_assert_msg(count_changed(run, views, skip, what) == 0,
                  "%s step %d: a view that may not know it changes with %s", run->c->g->id,
                  run->step, what);
}

/* Non-interference: changing hidden parts of the state changes no view that
 * may not know them. */
static void check_hidden_parts(struct game_run *run, json_t **views)
{
    const struct game_ops *g = run->c->g;

    memcpy(run->copy, run->st, g->state_size);
    if (is_sorc(g)) {
        sorc_perturb_public(run->copy, &run->rng);
        check_unchanged(run, views, 0, "the deck order and the generator");
        for (int seat = 0; seat < 2; seat++) {
            const struct sorc_state *st = run->st;
            int side = sorc__side(st, seat);
            memcpy(run->copy, run->st, g->state_size);
            if (!sorc_perturb_side(run->copy, &run->know, side, &run->rng)) {
                continue;
            }
            /* The seat itself may see the change, and so may the other
             * seat while it steals from this hand (you.opponent_hand) or
             * tracks (you.track_list lists the deck, whose complement
             * holds this hand). */
            unsigned skip = 1u << (seat + 1);
            if ((st->phase == SORC_P_DUEL_STEAL || st->phase == SORC_P_EVENT_TRACK) &&
                st->cur_side != side) {
                skip |= 1u << ((seat ^ 1) + 1);
            }
            check_unchanged(run, views, skip, "a private hand card or sealed answer");
        }
    } else {
        stones_perturb(run->copy, &run->rng);
        check_unchanged(run, views, 0, "the deck orders, runes removed and the generator");
    }
}

/* All checks after an action (or at the start, `action` NULL). */
static void check_position(struct game_run *run, const json_t *action, bool deep)
{
    const struct game_ops *g = run->c->g;
    json_t *views[GAME_MAX_SEATS + 1] = {0};

    if (is_sorc(g)) {
        sorc_knowledge_update(&run->know, run->st, action);
    }
    build_views(run, run->st, views);
    for (int s = -1; s < run->c->nseats; s++) {
        struct report r = {0};
        json_t *prev = run->prev[s + 1];
        scan_doc(run, run->st, s, prev, views[s + 1], false, &r);
        ck_assert_msg(r.n == 0, "%s step %d: view of %d leaks: %s", g->id, run->step, s, r.text);
        if (prev) {
            json_t *patch = proto_patch_diff(prev, views[s + 1]);
            ck_assert_ptr_nonnull(patch);
            scan_doc(run, run->st, s, prev, patch, true, &r);
            ck_assert_msg(r.n == 0, "%s step %d: diff to %d leaks: %s", g->id, run->step, s,
                          r.text);
            json_decref(patch);
        }
    }
    if (deep) {
        check_hidden_parts(run, views);
    }
    for (int s = -1; s < run->c->nseats; s++) {
        json_decref(run->prev[s + 1]);
        run->prev[s + 1] = views[s + 1];
    }
}

static void run_start(struct game_run *run, const struct config *c, uint64_t seed)
{
    struct game_error err;
    uint8_t rseed[32] = {0};

    memset(run, 0, sizeof(*run));
    run->c = c;
    run->st = calloc(1, c->g->state_size);
    run->copy = calloc(1, c->g->state_size);
    ck_assert(run->st && run->copy);
    run->setup.nseats = c->nseats;
    for (int i = 0; i < 32; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        run->setup.seed[i] = (uint8_t)(seed >> 56);
        rseed[i] = (uint8_t)(seed >> 48);
    }
    game_rng_seed(&run->rng, rseed);
    static const char *const names[] = {"Kip Ueno", "Lu Ota", "Vy Nash", "Wes Oyo", "Ida Fenn",
                                        "Jo Pike"};
    for (int i = 0; i < c->nseats; i++) {
        snprintf(run->setup.names[i], GAME_NAME_MAX, "%s", names[i]);
    }
    ck_assert_msg(c->g->init(run->st, c->options, &run->setup, &err) == GAME_OK, "%s init: %s",
                  c->g->id, err.message);
    /* The generator right after setup is as secret as the seed. */
    const struct game_rng *grng = is_sorc(c->g) ? &((const struct sorc_state *)run->st)->rng
                                                : &((const struct stones_state *)run->st)->rng;
    secrets_init(&run->sec, &run->setup, grng);
}

static void run_finish(struct game_run *run)
{
    free_views(run->prev, run->c->nseats);
    free(run->st);
    free(run->copy);
}

/* One random action by a random active seat; returns it (new reference). */
static json_t *random_action(struct game_run *run, int *ret_seat)
{
    const struct game_ops *g = run->c->g;
    unsigned active = g->active(run->st);
    int seats[GAME_MAX_SEATS], n = 0;

    for (int s = 0; s < run->c->nseats; s++) {
        if (active & (1u << s)) {
            seats[n++] = s;
        }
    }
    ck_assert_msg(n > 0, "%s: nobody may act", g->id);
    int seat = seats[game_rng_below(&run->rng, (uint32_t)n)];
    json_t *legal = g->legal(run->st, seat);
    ck_assert_msg(json_array_size(legal) > 0, "%s: active seat %d has no action", g->id, seat);
    json_t *a = json_array_get(legal, game_rng_below(&run->rng, (uint32_t)json_array_size(legal)));
    json_incref(a);
    json_decref(legal);
    *ret_seat = seat;
    return a;
}

static void play_one(const struct config *c, uint64_t seed, bool deep)
{
    struct game_run run;
    struct game_error err;

    run_start(&run, c, seed);
    check_position(&run, NULL, true);
    while (c->g->active(run.st) != 0 && run.step < MAX_STEPS) {
        int seat;
        json_t *a = random_action(&run, &seat);
        ck_assert_msg(c->g->apply(run.st, seat, a, &err) == GAME_OK, "%s: legal action refused: %s",
                      c->g->id, err.message);
        run.step++;
        check_position(&run, a, deep || run.step % 8 == 0);
        json_decref(a);
    }
    total_steps += run.step;
    run_finish(&run);
}

/* The configurations of a game: every seat count it accepts with every
 * enum option value (and, for integer options, a spread of values). */
static json_t *configs_of(const struct game_ops *g)
{
    json_t *combos = json_array();
    json_t *schema = g->options_schema();
    const char *key;
    json_t *desc;

    json_array_append_new(combos, json_null());
    json_array_append_new(combos, json_object());
    json_object_foreach(schema, key, desc) {
        json_t *values = json_object_get(desc, "values");
        json_t *own = NULL;
        if (!json_is_array(values)) {
            /* An integer option: its minimum, small values and its default. */
            own = json_pack("[iiiO]", json_integer_value(json_object_get(desc, "min")), 1, 3,
                            json_object_get(desc, "default"));
            values = own;
        }
        json_t *next = json_array();
        size_t i, j;
        json_t *base, *val;
        json_array_foreach(combos, i, base) {
            if (json_is_null(base)) {
                json_array_append(next, base);
                continue;
            }
            json_array_append(next, base); /* the option left out */
            json_array_foreach(values, j, val) {
                json_t *o = json_deep_copy(base);
                json_object_set(o, key, val);
                json_array_append_new(next, o);
            }
        }
        json_decref(own);
        json_decref(combos);
        combos = next;
    }
    json_decref(schema);
    return combos;
}

START_TEST(random_games_leak_nothing)
{
    const struct game_ops *g = game_find(game_id);
    ck_assert_ptr_nonnull(g);
    json_t *combos = configs_of(g);
    size_t i;
    json_t *opts;
    int games = 0;

    json_array_foreach(combos, i, opts) {
        for (int n = g->min_players; n <= g->max_players; n++) {
            struct game_error err;
            struct config c = {g, opts, n};
            if (g->check_options(opts, n, &err) != GAME_OK) {
                continue;
            }
            for (int k = 0; k < games_per_config; k++) {
                play_one(&c, (uint64_t)(i * 7919 + (size_t)n * 131 + (size_t)k * 104729 + 17),
                         k == 0);
                games++;
            }
        }
    }
    json_decref(combos);
    printf("%s: %d games, %ld actions checked\n", game_id, games, total_steps);
    ck_assert_int_gt(games, 0);
}
END_TEST

/* ---- Self-test: every kind of leak is reported ---- */

/* Plays a Sorcerers game with all checks until it first reaches
 * `want_phase` (or 400 actions), and leaves the run there. */
static void reach_position(struct game_run *run, const struct config *c, int want_phase)
{
    struct game_error err;

    run_start(run, c, 4242);
    check_position(run, NULL, false);
    for (int i = 0; i < 400 && c->g->active(run->st) != 0; i++) {
        if (((const struct sorc_state *)run->st)->phase == want_phase) {
            break;
        }
        int seat;
        json_t *a = random_action(run, &seat);
        ck_assert_int_eq(c->g->apply(run->st, seat, a, &err), GAME_OK);
        run->step++;
        check_position(run, a, false);
        json_decref(a);
    }
}

/* Requires the scan of `doc` (a copy of a view, or a patch) to report. */
static void expect_report(const struct game_run *run, int seat, const json_t *doc, bool is_patch,
                          const char *what)
{
    struct report r = {0};

    scan_doc(run, run->st, seat, run->prev[seat + 1], doc, is_patch, &r);
    ck_assert_msg(r.n > 0, "%s: the injected leak (%s) was not reported", run->c->g->id, what);
}

/* A one-operation patch adding `value` (stolen) at `path`. */
static json_t *patch_add(const char *path, json_t *value)
{
    return json_pack("[{s:s, s:s, s:o}]", "op", "add", "path", path, "value", value);
}

START_TEST(sorcerers_leaks_are_reported)
{
    const struct game_ops *g = game_find("sorcerers");
    ck_assert_ptr_nonnull(g);
    struct config c = {g, NULL, 2};
    struct game_run run;

    reach_position(&run, &c, SORC_P_DUEL_COMBO);
    const struct sorc_state *st = run.st;
    int s0 = sorc__side(st, 0);
    ck_assert_int_gt(st->nhand[s0], 0);
    int secret = -1;
    for (int i = 0; i < st->nhand[s0] && secret < 0; i++) {
        if (!run.know.ever[st->hand[s0][i]]) {
            secret = st->hand[s0][i];
        }
    }
    ck_assert_msg(secret >= 0, "no never-public card in seat 0's hand");
    const char *id = sorc_cards[secret].id;
    const char *name = sorc_cards[secret].name;
    json_t *base = run.prev[1 + 1]; /* seat 1's view */
    json_t *v;

    /* Seat 0's card in the public discard list seen by seat 1. */
    v = json_deep_copy(base);
    json_array_append_new(json_object_get(v, "discard"), json_string(id));
    expect_report(&run, 1, v, false, "hand card in the discard");
    json_decref(v);
    /* Seat 0's card named in a new log line of the spectator. */
    v = json_deep_copy(run.prev[0]);
    char line[256];
    snprintf(line, sizeof(line), "Kip Ueno draws %s.", name);
    json_array_append_new(json_object_get(v, "log"), json_string(line));
    expect_report(&run, -1, v, false, "hand card named in the log");
    json_decref(v);
    /* Seat 0's card under seat 1's "you". */
    v = json_deep_copy(base);
    json_array_append_new(json_object_get(json_object_get(v, "you"), "hand"), json_string(id));
    expect_report(&run, 1, v, false, "other hand under you");
    json_decref(v);
    /* An undocumented private member naming the card. */
    v = json_deep_copy(base);
    json_object_set_new(json_object_get(v, "you"), "peek", json_string(id));
    expect_report(&run, 1, v, false, "undocumented you member");
    json_decref(v);
    /* A "you" sent to a spectator. */
    v = json_deep_copy(run.prev[0]);
    json_object_set_new(v, "you", json_object());
    expect_report(&run, -1, v, false, "you for a spectator");
    json_decref(v);
    /* The deck as a list. */
    v = json_deep_copy(base);
    json_t *deck = json_array();
    for (int i = 0; i < st->ndeck; i++) {
        json_array_append_new(deck, json_string(sorc_cards[st->deck[i]].id));
    }
    json_object_set_new(v, "deck", deck);
    expect_report(&run, 1, v, false, "deck list");
    json_decref(v);
    /* The count replaced by the list. */
    v = json_deep_copy(base);
    json_object_set_new(v, "deck_size", json_integer(st->ndeck + 1));
    expect_report(&run, 1, v, false, "wrong deck size");
    json_decref(v);
    /* A card id as an object key. */
    v = json_deep_copy(base);
    json_object_set_new(v, "hands", json_pack("{s:i}", id, 0));
    expect_report(&run, 1, v, false, "card id as key");
    json_decref(v);
    /* The seed, and a generator word. */
    v = json_deep_copy(base);
    json_object_set_new(v, "seed_commit", json_string(run.sec.seed_hex));
    expect_report(&run, 1, v, false, "seed hex");
    json_decref(v);
    for (int i = 0; i < 4; i++) {
        if (st->rng.s[i] > 0xffffffffu && st->rng.s[i] <= (uint64_t)INT64_MAX) {
            v = json_deep_copy(base);
            json_object_set_new(v, "nonce", json_integer((json_int_t)st->rng.s[i]));
            expect_report(&run, 1, v, false, "generator word");
            json_decref(v);
            break;
        }
    }
    /* The same leaks in diffs. */
    json_t *p = patch_add("/discard/-", json_string(id));
    expect_report(&run, 1, p, true, "hand card added to the discard by a diff");
    json_decref(p);
    p = patch_add("/log/0", json_string(line));
    expect_report(&run, -1, p, true, "hand card in a log line of a diff");
    json_decref(p);
    p = patch_add("/you/hand/0", json_string(id));
    expect_report(&run, 1, p, true, "other hand in a diff under you");
    json_decref(p);
    char path[PATH_MAX_LEN];
    snprintf(path, sizeof(path), "/hands/%s", id);
    p = json_pack("[{s:s, s:s}]", "op", "remove", "path", path);
    expect_report(&run, 1, p, true, "card id in a diff path");
    json_decref(p);
    /* A sealed draft shown to the other seat before the reveal. */
    v = json_deep_copy(base);
    json_t *sides = json_object_get(json_object_get(v, "duel"), "sides");
    if (st->phase == SORC_P_DUEL_COMBO && json_array_size(sides) == 2) {
        json_object_set_new(json_array_get(sides, 0), "combo", json_pack("{s:n}", "spell"));
        expect_report(&run, 1, v, false, "combo before the reveal");
    }
    json_decref(v);
    /* A view that depends on seat 0's hidden hand is caught by the
     * non-interference check: seat 0's own view does, so leaving it in the
     * compared set must report it. */
    memcpy(run.copy, run.st, g->state_size);
    ck_assert_int_eq(sorc_perturb_side(run.copy, &run.know, s0, &run.rng), 1);
    ck_assert_int_gt(count_changed(&run, run.prev, 0, NULL), 0);
    run_finish(&run);
}
END_TEST

START_TEST(stones_leaks_are_reported)
{
    const struct game_ops *g = game_find("stones");
    ck_assert_ptr_nonnull(g);
    struct config c = {g, NULL, 2};
    struct game_run run;

    run_start(&run, &c, 99);
    check_position(&run, NULL, false);
    const struct stones_state *st = run.st;
    ck_assert_int_lt(st->art_top + 1, STONES_NART);
    const struct stones_artifact *hidden = &stones_artifacts[st->art_deck[STONES_NART - 1]];
    const char *deck_card = stones_card_name[st->pl[0].deck[st->pl[0].deck_n - 1]];
    json_t *base = run.prev[1];
    json_t *v;
    json_t *p;

    /* The magic deck as a list instead of a count. */
    v = json_deep_copy(base);
    json_t *deck = json_array();
    for (int i = 0; i < st->pl[0].deck_n; i++) {
        json_array_append_new(deck, json_string(stones_card_name[st->pl[0].deck[i]]));
    }
    json_object_set_new(json_array_get(json_object_get(v, "players"), 0), "deck", deck);
    expect_report(&run, 0, v, false, "magic deck list");
    json_decref(v);
    /* The top of a magic deck named in the log. */
    v = json_deep_copy(base);
    json_array_append_new(json_object_get(v, "log"), json_string(deck_card));
    expect_report(&run, 0, v, false, "magic deck card");
    json_decref(v);
    /* A hidden artifact by id and by name. */
    v = json_deep_copy(base);
    json_object_set_new(json_object_get(v, "artifacts"), "next", json_string(hidden->id));
    expect_report(&run, 0, v, false, "hidden artifact id");
    json_decref(v);
    v = json_deep_copy(base);
    char line[256];
    snprintf(line, sizeof(line), "Next up: %s.", hidden->name);
    json_array_append_new(json_object_get(v, "log"), json_string(line));
    expect_report(&run, 0, v, false, "hidden artifact name");
    json_decref(v);
    /* An objective that is not revealed. */
    int unrevealed = 1;
    while (st->objectives & (1 << (unrevealed - 1))) {
        unrevealed++;
    }
    v = json_deep_copy(base);
    char obj[16];
    snprintf(obj, sizeof(obj), "O%d", unrevealed);
    json_array_append_new(json_object_get(v, "objectives"), json_string(obj));
    expect_report(&run, 0, v, false, "unrevealed objective");
    json_decref(v);
    /* A removed rune added to a stack. */
    v = json_deep_copy(base);
    json_array_append_new(json_object_get(json_object_get(json_object_get(v, "element"), "stacks"),
                                          "Metal"),
                          json_integer(st->rune_removed[STONES_Y]));
    expect_report(&run, 0, v, false, "removed rune");
    json_decref(v);
    /* Private data under a spectator's "you", and more under a seat's. */
    v = json_deep_copy(run.prev[0]);
    json_object_set_new(v, "you", json_pack("{s:i}", "seat", 0));
    expect_report(&run, -1, v, false, "you for a spectator");
    json_decref(v);
    v = json_deep_copy(base);
    json_object_set_new(json_object_get(v, "you"), "next_card", json_string("x"));
    expect_report(&run, 0, v, false, "extra you member");
    json_decref(v);
    /* The seed. */
    v = json_deep_copy(base);
    json_array_append_new(json_object_get(v, "log"), json_string(run.sec.seed_hex + 8));
    expect_report(&run, 0, v, false, "seed digits");
    json_decref(v);
    /* Diffs. */
    p = patch_add("/players/0/row/0", json_string(deck_card));
    if (st->pl[0].row[0] != st->pl[0].deck[st->pl[0].deck_n - 1]) {
        expect_report(&run, 0, p, true, "deck card in a diff");
    }
    json_decref(p);
    p = patch_add("/artifacts/row/0", json_pack("{s:s}", "id", hidden->id));
    expect_report(&run, 0, p, true, "hidden artifact in a diff");
    json_decref(p);
    p = patch_add("/players/0/deck", deck = json_array());
    for (int i = 0; i < st->pl[0].deck_n; i++) {
        json_array_append_new(deck, json_string(stones_card_name[st->pl[0].deck[i]]));
    }
    expect_report(&run, 0, p, true, "deck list in a diff");
    json_decref(p);
    /* The non-interference check sees a change that reaches the views: the
     * face-up card and the deck top trade places in a copy. */
    memcpy(run.copy, run.st, g->state_size);
    struct stones_player *pl = &((struct stones_state *)run.copy)->pl[0];
    int8_t top = pl->deck[pl->deck_n - 1];
    pl->deck[pl->deck_n - 1] = pl->row[0];
    pl->row[0] = top;
    if (top != pl->deck[pl->deck_n - 1]) {
        ck_assert_int_gt(count_changed(&run, run.prev, 0, NULL), 0);
    }
    run_finish(&run);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc > 1) {
        game_id = argv[1];
    }
    if (!game_find(game_id)) {
        fprintf(stderr, "unknown game %s\n", game_id);
        return EXIT_FAILURE;
    }
    games_per_config = is_sorc(game_find(game_id)) ? 10 : 5;
    if (argc > 2) {
        games_per_config = atoi(argv[2]);
    }
    Suite *s = suite_create("leaks");
    TCase *tc = tcase_create("detectors");
    tcase_add_test(tc, is_sorc(game_find(game_id)) ? sorcerers_leaks_are_reported
                                                   : stones_leaks_are_reported);
    suite_add_tcase(s, tc);
    tc = tcase_create("random_games");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, random_games_leak_nothing);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
