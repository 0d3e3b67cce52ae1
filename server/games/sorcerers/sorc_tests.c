/* SPDX-License-Identifier: MIT */
/*
 * sorc_tests.c - the Sorcerers hooks for the shared test suites
 * (game_tests.h): what the public knows of each card as a game goes on
 * (a card is hidden in the deck, hidden in a hand, known in a hand after it
 * was taken there by name, or public), what a recipient may see of a
 * position under it (docs/rules/sorcerers.md section 9: hands, sealed drafts
 * and answers, the deck order are private; "you" holds only the documented
 * members), how to change the hidden parts of a copy of a state, the leaks
 * the leak suite plants to prove its checks work, and the option sets and
 * run counts of the other suites. Pure: it reads the states it is handed
 * and reports through a callback; it changes only the copies the suites
 * give it.
 */
#include <stdlib.h>
#include <string.h>

#include "game_tests.h"
#include "sorc.h"

/* ---- Public knowledge of the cards (the leak suite's memo) ---- */

enum sorc_loc { LOC_DECK, LOC_HAND0, LOC_HAND1, LOC_PUBLIC };

/* Public knowledge about each card, carried from action to action. */
struct knowledge {
    uint8_t loc[SORC_NCARDS];        /* enum sorc_loc, by side for hands */
    bool known[SORC_NCARDS];         /* in a hand, but publicly known there */
    bool ever[SORC_NCARDS];          /* has been in a public zone */
    bool hidden_before[SORC_NCARDS]; /* not public before the last action */
};

static void locate(const struct sorc_state *st, uint8_t loc[SORC_NCARDS])
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

static bool hidden(const struct knowledge *k, int c)
{
    return k->loc[c] == LOC_DECK || (k->loc[c] != LOC_PUBLIC && !k->known[c]);
}

/* Updates the knowledge after `action` (NULL at the start). A card is
 * publicly known in a hand only when it was taken there from a public zone
 * by name (a find: `activate` with that `target`); a card that left a hand
 * for the deck within one action was public in the discard pile between,
 * and so may have been one that went from a hand to a hand across a
 * reshuffle. */
static void knowledge_update(struct knowledge *k, const struct sorc_state *st, const json_t *action)
{
    uint8_t loc[SORC_NCARDS];
    const char *target = json_string_value(json_object_get(action, "target"));
    const char *type = json_string_value(json_object_get(action, "type"));

    locate(st, loc);
    /* A reshuffle of the discard pile into the deck happened when a card
     * other than a Prime Mover leaving play entered the deck. */
    bool reshuffled = false;
    for (int c = 0; action && c < SORC_NCARDS; c++) {
        reshuffled |=
            loc[c] == LOC_DECK && k->loc[c] != LOC_DECK && !(sorc_cards[c].kw & SORC_K_PRIME_MOVER);
    }
    for (int c = 0; c < SORC_NCARDS; c++) {
        k->hidden_before[c] = action ? hidden(k, c) : true;
        if (reshuffled && loc[c] != LOC_DECK && loc[c] != LOC_PUBLIC && k->loc[c] != LOC_DECK &&
            k->loc[c] != LOC_PUBLIC) {
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

static int card_of(const char *s)
{
    /* Most strings of a view name no card: the first byte rules out most
     * ids without a call. */
    for (int c = 0; c < SORC_NCARDS; c++) {
        if (s[0] == sorc_cards[c].id[0] && strcmp(s, sorc_cards[c].id) == 0) {
            return c;
        }
    }
    return -1;
}

/* 1 when the name of card `c` occurs in `s` other than inside the name of an
 * allowed card that contains it (e.g. "Escape" inside "Spirit Escape"). */
static bool name_in(const char *s, int c, const bool allowed[SORC_NCARDS])
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
struct truth {
    const struct sorc_state *st;
    const struct knowledge *k;
    const json_t *prev_log; /* the recipient's previous log, NULL at the start */
    int seat;               /* recipient, -1 spectator */
    const struct game_tests_report *r;
};

static bool in_list(const uint8_t *cards, int n, int c)
{
    for (int i = 0; i < n; i++) {
        if (cards[i] == c) {
            return true;
        }
    }
    return false;
}

/* Cards the recipient's own "you" member may name under `key`. */
static bool you_allows(const struct truth *t, const char *key, int c)
{
    const struct sorc_state *st = t->st;
    int side = sorc__side(st, t->seat);
    int opp = side ^ 1;
    bool pub = t->k->loc[c] == LOC_PUBLIC;

    if (strcmp(key, "hand") == 0) {
        return in_list(st->hand[side], st->nhand[side], c);
    }
    /* A sealed answer may name the seat's own hand cards, which stay in the
     * hand until the reveal: its draft, its defense card, and Martyr, whose
     * id is also the word of the "martyr" encounter choice. */
    if (strcmp(key, "draft") == 0 || strcmp(key, "submitted_defense") == 0 ||
        strcmp(key, "submitted_choice") == 0) {
        return pub || in_list(st->hand[side], st->nhand[side], c);
    }
    if (strcmp(key, "submitted_negate") == 0) {
        return pub;
    }
    if (strcmp(key, "scry") == 0) {
        return in_list(st->scry[side], st->scry_n[side], c);
    }
    if (strcmp(key, "divination") == 0) {
        return in_list(st->div[side], st->div_n[side], c);
    }
    if (strcmp(key, "tracked") == 0) {
        return st->tracked[side] == c;
    }
    if (strcmp(key, "track_list") == 0) {
        return st->phase == SORC_P_EVENT_TRACK && st->cur_side == side &&
               in_list(st->deck, st->ndeck, c);
    }
    if (strcmp(key, "opponent_hand") == 0) {
        return st->phase == SORC_P_DUEL_STEAL && st->cur_side == side &&
               in_list(st->hand[opp], st->nhand[opp], c);
    }
    if (strcmp(key, "transfers") == 0) {
        return in_list(st->xfer_card, st->nxfer, c);
    }
    return false;
}

/* 1 for the members docs/rules/sorcerers.md section 9 lists under "you". */
static bool you_documented(const char *key)
{
    static const char *const keys[] = {
        "seat",
        "faction",
        "hand",
        "draft",
        "submitted_choice",
        "submitted_negate",
        "submitted_defense",
        "scry",
        "divination",
        "tracked",
        "track_list",
        "opponent_hand",
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
static bool historic(const struct sorc_state *st, const char *path)
{
    if (game_tests_under(path, "/event/activated")) {
        return true;
    }
    return game_tests_under(path, "/duel") && st->phase != SORC_P_ENCOUNTER &&
           st->phase != SORC_P_DUEL_COMBO;
}

static bool log_line_new(const struct truth *t, const char *s)
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

/* Copies the member name right under "/you" in `path` into `out`. */
static void you_member(const char *path, char *out, size_t n)
{
    if (strncmp(path, "/you/", 5) != 0) {
        out[0] = '\0';
        return;
    }
    const char *m = path + 5;
    size_t len = strcspn(m, "/");
    if (len > n - 1) {
        len = n - 1;
    }
    memcpy(out, m, len);
    out[len] = '\0';
}

static void visit(void *ud, const char *path, const char *key, const json_t *v)
{
    struct truth *t = ud;
    const struct knowledge *k = t->k;
    bool in_you = game_tests_under(path, "/you");

    if (key) {
        int c = card_of(key);
        /* The gates object is keyed by the four gated cards in every state;
         * any other key naming a card must name a public one. */
        if (c >= 0 && (hidden(k, c) || !k->ever[c]) &&
            !(strcmp(path, "/gates") == 0 && (sorc_cards[c].kw & SORC_K_GRIMHOLD_GATE))) {
            t->r->add(t->r->ud, "%s has a key naming card %s", path, key);
        }
        if (strcmp(path, "") == 0 && strcmp(key, "you") == 0 && t->seat < 0) {
            t->r->add(t->r->ud, "a spectator is sent \"you\"");
        }
        if (strcmp(path, "/you") == 0 && !you_documented(key)) {
            t->r->add(t->r->ud, "/you/%s is not a documented private member", key);
        }
        return;
    }
    if (!json_is_string(v)) {
        return;
    }
    const char *s = json_string_value(v);
    int c = card_of(s);
    if (in_you) {
        char member[64] = "";
        you_member(path, member, sizeof(member));
        if (t->seat < 0) {
            t->r->add(t->r->ud, "%s: a spectator is sent private data", path);
        } else if (c >= 0 && !you_allows(t, member, c)) {
            t->r->add(t->r->ud, "%s names %s, which seat %d may not know there", path, s, t->seat);
        }
        return;
    }
    if (c >= 0) {
        if (!k->ever[c]) {
            t->r->add(t->r->ud, "%s names %s, which has never been public", path, s);
        } else if (hidden(k, c) && !historic(t->st, path)) {
            t->r->add(t->r->ud, "%s names %s, which is in a %s", path, s,
                      k->loc[c] == LOC_DECK ? "deck" : "hand");
        }
        return;
    }
    /* Free text (the log): no name of a card the public has never seen, and
     * no new line naming a card hidden both before and after the action. */
    bool fresh = game_tests_under(path, "/log") && log_line_new(t, s);
    bool allowed[SORC_NCARDS];
    for (int d = 0; d < SORC_NCARDS; d++) {
        allowed[d] = k->ever[d] && !(fresh && hidden(k, d) && k->hidden_before[d]);
    }
    for (int d = 0; d < SORC_NCARDS; d++) {
        if (!allowed[d] && strstr(s, sorc_cards[d].name) && name_in(s, d, allowed)) {
            t->r->add(t->r->ud, "%s \"%s\" names hidden card %s", path, s, sorc_cards[d].name);
        }
    }
}

/* 1 when `a` is a JSON array of the card ids cards[0..n). */
static bool ids_equal(const json_t *a, const uint8_t *cards, int n)
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

/* The log's messages say no more than its lines: one message per line,
 * each argument written in its line. The scan of the lines' free text then
 * holds the messages too. */
static void check_log_keys(const json_t *v, const struct game_tests_report *r)
{
    json_t *log = json_object_get(v, "log");
    json_t *keys = json_object_get(v, "log_keys");
    size_t i;
    json_t *msg;

    if (json_array_size(keys) != json_array_size(log)) {
        r->add(r->ud, "log_keys does not have one message per log line");
        return;
    }
    json_array_foreach(keys, i, msg) {
        const char *line = json_string_value(json_array_get(log, i));
        for (size_t a = 1; a < json_array_size(msg); a++) {
            const char *arg = json_string_value(json_array_get(msg, a));
            if (!line || !arg || !strstr(line, arg)) {
                r->add(r->ud, "log_keys/%zu/%zu is not in its line \"%s\"", i, a, line ? line : "");
            }
        }
    }
}

/* Exact checks of a whole Sorcerers view against the state. */
static void check_view_exact(const struct sorc_state *st, int seat, const json_t *v,
                             const struct game_tests_report *r)
{
    json_t *ds = json_object_get(v, "deck_size");

    check_log_keys(v, r);

    if (!json_is_integer(ds) || json_integer_value(ds) != st->ndeck) {
        r->add(r->ud, "deck_size is not the deck count %d", st->ndeck);
    }
    if (!ids_equal(json_object_get(v, "discard"), st->discard, st->ndiscard)) {
        r->add(r->ud, "discard is not the discard pile");
    }
    for (int s = 0; s < 2; s++) {
        json_t *e = json_array_get(json_object_get(v, "seats"), (size_t)s);
        json_t *hs = json_object_get(e, "hand_size");
        if (!json_is_integer(hs) || json_integer_value(hs) != st->nhand[sorc__side(st, s)]) {
            r->add(r->ud, "seats/%d/hand_size is not the hand count", s);
        }
    }
    /* Before the reveal a seat's combo is its own; afterwards it is public. */
    json_t *sides = json_object_get(json_object_get(v, "duel"), "sides");
    for (size_t i = 0; !st->revealed && i < json_array_size(sides); i++) {
        json_t *e = json_array_get(sides, i);
        if (json_object_get(e, "combo") || json_object_get(e, "total")) {
            r->add(r->ud, "duel/sides/%zu shows a combo before the reveal", i);
        }
    }
    json_t *you = json_object_get(v, "you");
    if (seat < 0 || !you) {
        if (seat >= 0) {
            r->add(r->ud, "seat %d has no \"you\"", seat);
        }
        return;
    }
    int side = sorc__side(st, seat);
    int opp = side ^ 1;
    if (!ids_equal(json_object_get(you, "hand"), st->hand[side], st->nhand[side])) {
        r->add(r->ud, "you/hand of seat %d is not its hand", seat);
    }
    json_t *x;
    if ((x = json_object_get(you, "scry")) && !ids_equal(x, st->scry[side], st->scry_n[side])) {
        r->add(r->ud, "you/scry of seat %d is not what it scried", seat);
    }
    if ((x = json_object_get(you, "divination")) && !ids_equal(x, st->div[side], st->div_n[side])) {
        r->add(r->ud, "you/divination of seat %d is not what it saw", seat);
    }
    if ((x = json_object_get(you, "opponent_hand")) &&
        (st->phase != SORC_P_DUEL_STEAL || st->cur_side != side ||
         !ids_equal(x, st->hand[opp], st->nhand[opp]))) {
        r->add(r->ud, "you/opponent_hand of seat %d outside its steal", seat);
    }
    if ((x = json_object_get(you, "track_list"))) {
        uint8_t sorted[SORC_NCARDS];
        int n = 0;
        for (int c = 0; c < SORC_NCARDS; c++) {
            if (in_list(st->deck, st->ndeck, c)) {
                sorted[n++] = (uint8_t)c;
            }
        }
        if (st->phase != SORC_P_EVENT_TRACK || st->cur_side != side || !ids_equal(x, sorted, n)) {
            r->add(r->ud, "you/track_list of seat %d is not the deck in card-list order", seat);
        }
    }
    json_t *draft = json_object_get(you, "draft");
    if (draft && (st->phase != SORC_P_DUEL_COMBO || !st->combo[side].asked)) {
        r->add(r->ud, "you/draft of seat %d outside its combo", seat);
    }
}

/* Scans a whole view or a patch for what its recipient may not see. */
static void scan(const struct game_leak_doc *d, const struct game_tests_report *r)
{
    struct truth t = {d->state, d->memo, json_object_get(d->prev, "log"), d->seat, r};

    game_tests_walk(d->doc, d->is_patch, visit, &t);
    if (!d->is_patch) {
        check_view_exact(d->state, d->seat, d->doc, r);
    }
}

/* ---- Hidden changes ---- */

/* Changes the deck order and the generator of a copy of the state. */
static void perturb_public(struct sorc_state *st, struct game_rng *rng)
{
    if (st->ndeck > 1) {
        game_rng_shuffle(rng, st->deck, st->ndeck, 1);
    }
    for (int i = 0; i < 4; i++) {
        st->rng.s[i] ^= game_rng_next(rng) | 1;
    }
}

/* 1 in the states whose answers are sealed. */
static bool sealed_state(int phase)
{
    return phase == SORC_P_ENCOUNTER || phase == SORC_P_DUEL_COMBO || phase == SORC_P_DUEL_NEGATE ||
           phase == SORC_P_DUEL_DEFENSE;
}

/* Gives `side`, asked in the current sealed state, another sealed answer
 * (or, while it builds its combo, another draft of as many steps) made of
 * uniform legal choices from its current hand, so that the position stays
 * one the game can reach. The other seat is kept active on the copy, so no
 * answer completes the step. Returns -1 when out of memory. */
static int sealed_redo(struct sorc_state *st, int side, int steps, bool submitted,
                       struct game_rng *rng)
{
    struct sorc_state *tmp = malloc(sizeof(*tmp));
    struct sorc_legal *l = malloc(sizeof(*l));
    int seat = sorc__seat(st, side);
    struct game_error err;
    int rc = -1;

    if (tmp && l) {
        *tmp = *st;
        tmp->act[0] = tmp->act[1] = 1;
        tmp->combo[side].submitted = 0;
        for (int i = 0; i < 8 && !tmp->combo[side].submitted && (submitted || i < steps); i++) {
            sorc__legal_list(tmp, seat, l);
            if (l->n == 0 ||
                sorc__rules_apply(tmp, seat, &l->a[game_rng_below(rng, (uint32_t)l->n)], &err) !=
                    GAME_OK) {
                break;
            }
        }
        st->combo[side] = tmp->combo[side];
        rc = 0;
    }
    free(tmp);
    free(l);
    return rc;
}

/* Changes what only `side` knows in a copy of the state: a private hand
 * card trades places with a deck card, and a sealed answer or draft it has
 * not revealed is made again from its hand. Both keep the position one the
 * game can reach, so that play can go on from it. Returns 0 when nothing
 * changed. */
static int perturb_side(struct sorc_state *st, const struct knowledge *k, int side,
                        struct game_rng *rng)
{
    struct sorc_state saved = *st;
    struct sorc_combo *cb = &st->combo[side];
    struct sorc_combo before = *cb;
    bool sealed = sealed_state(st->phase) && cb->asked;
    int changed = 0;

    /* The answer is cleared first: it may name the hand card that moves. */
    if (sealed) {
        (void)sorc__sealed_clear(cb, st->phase);
    }
    if (st->ndeck > 0 && st->nhand[side] > 0) {
        int i = (int)game_rng_below(rng, st->nhand[side]);
        int j = (int)game_rng_below(rng, st->ndeck);
        if (!k->known[st->hand[side][i]]) {
            uint8_t c = st->hand[side][i];
            st->hand[side][i] = st->deck[j];
            st->deck[j] = c;
            changed = c != st->hand[side][i];
        }
    }
    if (sealed && (before.submitted || (st->phase == SORC_P_DUEL_COMBO && before.steps > 0))) {
        if (sealed_redo(st, side, before.steps, before.submitted, rng) < 0) {
            *st = saved;
            return 0;
        }
    }
    return changed || memcmp(cb, &before, sizeof(before)) != 0;
}

/* Hook form of knowledge_update. */
static void memo_update(void *memo, const void *state, const json_t *action)
{
    knowledge_update(memo, state, action);
}

static int secret_words(const void *state, uint64_t ret_words[GAME_TESTS_MAX_WORDS])
{
    const struct sorc_state *st = state;

    return game_tests_rng_words(&st->rng, ret_words);
}

/* Kind 0: the deck order and the generator, which nobody may see. Kinds 1
 * and 2: what only seat 0 or seat 1 knows; the seat itself may see the
 * change, and so may the other seat while it steals from this hand
 * (you.opponent_hand) or tracks (you.track_list lists the deck, whose
 * complement holds this hand). */
static int perturb(void *state, const void *memo, int which, struct game_rng *rng,
                   unsigned *ret_may_see)
{
    struct sorc_state *st = state;

    *ret_may_see = 0;
    if (which == 0) {
        perturb_public(st, rng);
        return 1;
    }
    int seat = which - 1;
    int side = sorc__side(st, seat);
    if (!perturb_side(st, memo, side, rng)) {
        return 0;
    }
    *ret_may_see = 1u << (seat + 1);
    if ((st->phase == SORC_P_DUEL_STEAL || st->phase == SORC_P_EVENT_TRACK) &&
        st->cur_side != side) {
        *ret_may_see |= 1u << ((seat ^ 1) + 1);
    }
    return 1;
}

/* What only seat 0 knows changes: its own view shows it. */
static int perturb_visible(void *state, const void *memo, struct game_rng *rng)
{
    struct sorc_state *st = state;

    return perturb_side(st, memo, sorc__side(st, 0), rng) ? 1 : -1;
}

/* The planted-leak position: the first sealed combo of a duel. */
static bool probe_reached(const void *state)
{
    return ((const struct sorc_state *)state)->phase == SORC_P_DUEL_COMBO;
}

/* ---- Planted leaks ---- */

enum plant {
    PLANT_HAND_IN_DISCARD,
    PLANT_HAND_IN_LOG,
    PLANT_OTHER_HAND_UNDER_YOU,
    PLANT_UNDOCUMENTED_YOU,
    PLANT_SPECTATOR_YOU,
    PLANT_DECK_LIST,
    PLANT_WRONG_DECK_SIZE,
    PLANT_CARD_KEY,
    PLANT_DIFF_DISCARD,
    PLANT_DIFF_LOG,
    PLANT_DIFF_YOU_HAND,
    PLANT_DIFF_CARD_PATH,
    PLANT_COMBO_BEFORE_REVEAL,
    PLANT_COUNT,
};

static int plant(const void *state, const void *memo, json_t *const *views, int which,
                 struct game_leak_plant *ret)
{
    const struct sorc_state *st = state;
    const struct knowledge *k = memo;
    int s0 = sorc__side(st, 0);
    int secret = -1;

    /* A card of seat 0's hand that has never been public. */
    for (int i = 0; i < st->nhand[s0] && secret < 0; i++) {
        if (!k->ever[st->hand[s0][i]]) {
            secret = st->hand[s0][i];
        }
    }
    if (secret < 0) {
        return -1;
    }
    const char *id = sorc_cards[secret].id;
    const char *name = sorc_cards[secret].name;
    json_t *base = views[1 + 1]; /* seat 1's view */
    json_t *v = NULL;
    int rc = 0;

    ret->seat = 1;
    ret->is_patch = false;
    switch ((enum plant)which) {
    case PLANT_HAND_IN_DISCARD:
        ret->what = "hand card in the discard";
        v = json_deep_copy(base);
        rc = game_tests_push(v, "discard", json_string(id));
        break;
    case PLANT_HAND_IN_LOG:
        ret->what = "hand card named in the log";
        ret->seat = -1;
        v = json_deep_copy(views[0]);
        rc = game_tests_push(v, "log", json_sprintf("%s draws %s.", st->names[0], name));
        break;
    case PLANT_OTHER_HAND_UNDER_YOU:
        ret->what = "other hand under you";
        v = json_deep_copy(base);
        rc = game_tests_push(json_object_get(v, "you"), "hand", json_string(id));
        break;
    case PLANT_UNDOCUMENTED_YOU:
        ret->what = "undocumented you member";
        v = json_deep_copy(base);
        rc = json_object_set_new(json_object_get(v, "you"), "peek", json_string(id));
        break;
    case PLANT_SPECTATOR_YOU:
        ret->what = "you for a spectator";
        ret->seat = -1;
        v = json_deep_copy(views[0]);
        rc = json_object_set_new(v, "you", json_object());
        break;
    case PLANT_DECK_LIST: {
        ret->what = "deck list";
        json_t *deck = json_array();
        for (int i = 0; deck && i < st->ndeck; i++) {
            if (json_array_append_new(deck, json_string(sorc_cards[st->deck[i]].id)) != 0) {
                json_decref(deck);
                deck = NULL;
            }
        }
        v = json_deep_copy(base);
        rc = json_object_set_new(v, "deck", deck);
        break;
    }
    case PLANT_WRONG_DECK_SIZE:
        ret->what = "wrong deck size";
        v = json_deep_copy(base);
        rc = json_object_set_new(v, "deck_size", json_integer(st->ndeck + 1));
        break;
    case PLANT_CARD_KEY:
        ret->what = "card id as key";
        v = json_deep_copy(base);
        rc = json_object_set_new(v, "hands", json_pack("{s:i}", id, 0));
        break;
    case PLANT_DIFF_DISCARD:
        ret->what = "hand card added to the discard by a diff";
        ret->is_patch = true;
        v = game_tests_patch_add("/discard/-", json_string(id));
        break;
    case PLANT_DIFF_LOG:
        ret->what = "hand card in a log line of a diff";
        ret->seat = -1;
        ret->is_patch = true;
        v = game_tests_patch_add("/log/0", json_sprintf("%s draws %s.", st->names[0], name));
        break;
    case PLANT_DIFF_YOU_HAND:
        ret->what = "other hand in a diff under you";
        ret->is_patch = true;
        v = game_tests_patch_add("/you/hand/0", json_string(id));
        break;
    case PLANT_DIFF_CARD_PATH: {
        ret->what = "card id in a diff path";
        ret->is_patch = true;
        json_t *path = json_sprintf("/hands/%s", id);
        v = path ? json_pack("[{s:s, s:o}]", "op", "remove", "path", path) : NULL;
        break;
    }
    case PLANT_COMBO_BEFORE_REVEAL: {
        /* A sealed draft shown to the other seat before the reveal. */
        json_t *sides = json_object_get(json_object_get(base, "duel"), "sides");
        if (st->phase != SORC_P_DUEL_COMBO || json_array_size(sides) != 2) {
            return 0;
        }
        ret->what = "combo before the reveal";
        v = json_deep_copy(base);
        sides = json_object_get(json_object_get(v, "duel"), "sides");
        rc = json_object_set_new(json_array_get(sides, 0), "combo", json_pack("{s:n}", "spell"));
        break;
    }
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

/* merlinian_seat ("random", 0 or 1) and max_turns (absent, or a small
 * limit so that the end of the game is reached). */
static json_t *fuzz_options(uint8_t selector)
{
    static const int max_turns[] = {-1, 0, 1, 2, 5, 100};
    json_t *opts = json_object();

    if (opts == NULL) {
        return NULL;
    }
    int m = selector % 3;
    (void)json_object_set_new(opts, "merlinian_seat",
                              m == 0 ? json_string("random") : json_integer(m - 1));
    int t = max_turns[(selector / 3) % 6];
    if (t >= 0) {
        (void)json_object_set_new(opts, "max_turns", json_integer(t));
    }
    return opts;
}

static const struct game_tests_setup alloc_setups[] = {
    {NULL, 2, 21},
    {"{\"merlinian_seat\":1,\"max_turns\":3}", 2, 22},
};

const struct game_tests sorc_tests = {
    .memo_size = sizeof(struct knowledge),
    .memo_update = memo_update,
    .scan = scan,
    .secret_words = secret_words,
    .nperturb = 3,
    .perturb = perturb,
    .perturb_visible = perturb_visible,
    .leak_probe = {NULL, 2, 4242},
    .probe_reached = probe_reached,
    .nplants = PLANT_COUNT,
    .plant = plant,
    .leak_games_per_config = 3,
    .alloc_setups = alloc_setups,
    .nalloc_setups = sizeof(alloc_setups) / sizeof(alloc_setups[0]),
    .fuzz_options = fuzz_options,
    .playouts_per_config = 80,
};
