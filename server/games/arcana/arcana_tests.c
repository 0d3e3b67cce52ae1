/* SPDX-License-Identifier: MIT */
/*
 * arcana_tests.c - the Res Arcana hooks for the shared test suites
 * (game_tests.h). Hidden from everybody: the order of every deck, the
 * cards out of the game and the generator; hidden from all but their
 * holder: hands, the two mages dealt and the secret choice, draft packs,
 * kept cards, the cards of an open look and the known deck tops
 * (R-arcana-11.3). The scan reports any id of a hidden card outside "you"
 * and the log (its lines and their messages, which hold names, not ids),
 * any unknown member of "you" and any key naming the
 * generator. Pure: it reads the states it is handed and changes only the
 * copies the suites give it.
 */
#include <string.h>

#include "arcana.h"
#include "game_tests.h"

static bool card_hidden(const struct arc_core *c, int card)
{
    switch (c->card[card].loc) {
    case ARC_L_HAND:
    case ARC_L_DECK:
    case ARC_L_MDECK:
    case ARC_L_LOOK:
    case ARC_L_PACK:
    case ARC_L_MAGEOPT:
    case ARC_L_OUT:
    case ARC_L_UNUSED:
        return true;
    case ARC_L_KEPT:
        return !c->match.on || c->phase != ARC_PH_MATCH_DRAFT;
    default:
        return false;
    }
}

struct scan_ctx {
    const struct game_leak_doc *d;
    const struct game_tests_report *r;
    const struct arc_core *c;
};

static const char *const you_keys[] = {"deck_top", "hand",         "kept", "looking", "mage",
                                       "mages",    "monument_top", "pack", "pick",    "seat"};

static void visit(void *ud, const char *path, const char *key, const json_t *v)
{
    struct scan_ctx *x = ud;
    if (key) {
        if (strcmp(key, "rng") == 0 || strcmp(key, "seed") == 0 || strcmp(key, "order") == 0) {
            x->r->add(x->r->ud, "%s has a key \"%s\" naming hidden data", path, key);
        }
        if (strcmp(path, "/you") == 0) {
            bool known = false;
            for (size_t i = 0; i < sizeof(you_keys) / sizeof(you_keys[0]); i++) {
                known = known || strcmp(key, you_keys[i]) == 0;
            }
            if (!known) {
                x->r->add(x->r->ud, "\"you\" holds an unknown member \"%s\"", key);
            }
        }
        if (strcmp(path, "") == 0 && strcmp(key, "you") == 0 && x->d->seat < 0) {
            x->r->add(x->r->ud, "the spectator view has \"you\"");
        }
        return;
    }
    if (!json_is_string(v) || game_tests_under(path, "/you") || game_tests_under(path, "/log") ||
        game_tests_under(path, "/log_keys")) {
        return;
    }
    int card = arc__card_find(json_string_value(v));
    if (card >= 0 && card_hidden(x->c, card)) {
        x->r->add(x->r->ud, "%s names the hidden card %s", path, arc_cards[card].id);
    }
}

static void scan(const struct game_leak_doc *d, const struct game_tests_report *r)
{
    const struct arc_core *c = &((const struct arc_state *)d->state)->c;
    struct scan_ctx x = {d, r, c};
    game_tests_walk(d->doc, d->is_patch, visit, &x);
    if (d->is_patch) {
        return;
    }
    json_t *you = json_object_get(d->doc, "you");
    if (d->seat >= 0 &&
        (!json_is_object(you) || json_integer_value(json_object_get(you, "seat")) != d->seat)) {
        r->add(r->ud, "\"you\" of seat %d is not its own", d->seat);
    }
    json_t *seats = json_object_get(d->doc, "seats");
    for (int s = 0; s < c->nseats; s++) {
        json_t *p = json_array_get(seats, (size_t)s);
        int8_t v[ARC_NCARDS];
        if (json_integer_value(json_object_get(p, "hand")) != arc__zone(c, ARC_L_HAND, s, v) ||
            json_integer_value(json_object_get(p, "deck")) != arc__zone(c, ARC_L_DECK, s, v)) {
            r->add(r->ud, "seats/%d: hand or deck is not the true count", s);
        }
    }
}

static int secret_words(const void *state, uint64_t ret_words[GAME_TESTS_MAX_WORDS])
{
    return game_tests_rng_words(&((const struct arc_state *)state)->c.rng, ret_words);
}

/* Two cards of the given locations (owner -1: any) trade places. */
static int swap_cards(struct arc_core *c, int loc_a, int own_a, int loc_b, int own_b,
                      struct game_rng *rng, int first, int last)
{
    int8_t a[ARC_NCARDS];
    int8_t b[ARC_NCARDS];
    int na = 0;
    int nb = 0;
    for (int i = first; i < last; i++) {
        if (c->card[i].loc == loc_a && (own_a < 0 || c->card[i].owner == own_a)) {
            a[na++] = (int8_t)i;
        }
        if (c->card[i].loc == loc_b && (own_b < 0 || c->card[i].owner == own_b)) {
            b[nb++] = (int8_t)i;
        }
    }
    if (na == 0 || nb == 0) {
        return 0;
    }
    int x = a[game_rng_below(rng, (uint32_t)na)];
    int y = b[game_rng_below(rng, (uint32_t)nb)];
    if (x == y) {
        return 0;
    }
    struct arc_cardst t = c->card[x];
    c->card[x].loc = c->card[y].loc;
    c->card[x].owner = c->card[y].owner;
    c->card[x].seq = c->card[y].seq;
    c->card[y].loc = t.loc;
    c->card[y].owner = t.owner;
    c->card[y].seq = t.seq;
    return 1;
}

enum perturb_kind {
    PERTURB_RNG,
    PERTURB_HAND_DECK,
    PERTURB_DECK_OUT,
    PERTURB_MONUMENTS,
    PERTURB_MAGE_PICK,
    PERTURB_PACK_DECK,
    PERTURB_KEPT_DECK,
    PERTURB_MAGE_OPTION,
    PERTURB_COUNT,
};

static int perturb(void *state, const void *memo, int which, struct game_rng *rng,
                   unsigned *ret_may_see)
{
    struct arc_core *c = &((struct arc_state *)state)->c;
    int s = (int)game_rng_below(rng, c->nseats);
    (void)memo;
    *ret_may_see = 0;
    switch (which) {
    case PERTURB_RNG:
        for (int i = 0; i < 4; i++) {
            c->rng.s[i] ^= game_rng_next(rng) | 1;
        }
        return 1;
    case PERTURB_HAND_DECK:
        *ret_may_see = 1u << (s + 1);
        return swap_cards(c, ARC_L_HAND, s, ARC_L_DECK, s, rng, 0, ARC_NART);
    case PERTURB_DECK_OUT:
        if (c->match.on) {
            return 0; /* a duel's pool is public */
        }
        return swap_cards(c, ARC_L_DECK, s, ARC_L_OUT, -1, rng, 0, ARC_NART);
    case PERTURB_MONUMENTS:
        return swap_cards(c, ARC_L_MDECK, -1, ARC_L_MDECK, -1, rng, ARC_FIRST_MON, ARC_FIRST_POP);
    case PERTURB_PACK_DECK:
        /* A draft pack is its holder's to see; a deck nobody's. */
        *ret_may_see = 1u << (s + 1);
        return swap_cards(c, ARC_L_PACK, s, ARC_L_DECK, -1, rng, 0, ARC_NART);
    case PERTURB_KEPT_DECK:
        *ret_may_see = 1u << (s + 1);
        return swap_cards(c, ARC_L_KEPT, s, ARC_L_DECK, -1, rng, 0, ARC_NART);
    case PERTURB_MAGE_OPTION:
        if (c->phase != ARC_PH_SETUP_MAGE) {
            return 0; /* later, the options not picked are out of sight of all */
        }
        *ret_may_see = 1u << (s + 1);
        return swap_cards(c, ARC_L_MAGEOPT, s, ARC_L_OUT, -1, rng, ARC_FIRST_MAGE, ARC_FIRST_ITEM);
    case PERTURB_MAGE_PICK: {
        if (c->phase != ARC_PH_SETUP_MAGE || c->seat[s].mage_pick < 0) {
            return 0;
        }
        int8_t v[ARC_NCARDS];
        int n = arc__zone(c, ARC_L_MAGEOPT, s, v);
        for (int i = 0; i < n; i++) {
            if (v[i] != c->seat[s].mage_pick) {
                c->seat[s].mage_pick = v[i];
                *ret_may_see = 1u << (s + 1);
                return 1;
            }
        }
        return 0;
    }
    default:
        return 0;
    }
}

/* A pool changes: every view shows it. */
static int perturb_visible(void *state, const void *memo, struct game_rng *rng)
{
    struct arc_core *c = &((struct arc_state *)state)->c;
    (void)memo;
    c->seat[game_rng_below(rng, c->nseats)].pool[ARC_E] += 1;
    return 1;
}

enum plant {
    PLANT_HAND_ID,
    PLANT_SPECTATOR_YOU,
    PLANT_EXTRA_YOU,
    PLANT_DIFF_RNG,
    PLANT_COUNT,
};

static int plant(const void *state, const void *memo, json_t *const *views, int which,
                 struct game_leak_plant *ret)
{
    const struct arc_core *c = &((const struct arc_state *)state)->c;
    json_t *v = NULL;
    int rc = 0;
    (void)memo;
    ret->seat = 0;
    ret->is_patch = false;
    switch ((enum plant)which) {
    case PLANT_HAND_ID: {
        int8_t h[ARC_NCARDS];
        if (arc__zone(c, ARC_L_HAND, 1, h) == 0) {
            return -1;
        }
        ret->what = "a rival's hand card";
        v = json_deep_copy(views[1]);
        rc = json_object_set_new(json_array_get(json_object_get(v, "seats"), 1), "shown",
                                 json_string(arc_cards[h[0]].id));
        break;
    }
    case PLANT_SPECTATOR_YOU:
        ret->what = "you for a spectator";
        ret->seat = -1;
        v = json_deep_copy(views[0]);
        rc = json_object_set_new(v, "you", json_pack("{s:i}", "seat", 0));
        break;
    case PLANT_EXTRA_YOU:
        ret->what = "extra you member";
        v = json_deep_copy(views[1]);
        rc = json_object_set_new(json_object_get(v, "you"), "deck_order", json_array());
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
    static const char *const values[] = {"standard", "first_game", "draft", "bogus"};
    switch (selector % 9) {
    case 8:
        return NULL;
    case 7:
        return json_pack("{sb}", "duel", 1);
    case 6:
        return json_pack("{sssb}", "setup", "first_game", "duel", 1);
    case 5:
        return json_pack("{sssb}", "setup", "draft", "duel", 1);
    default:
        return json_pack("{ss}", "setup", values[selector % 4]);
    }
}

static const struct game_tests_setup alloc_setups[] = {
    {NULL, 2, 11},
    {"{\"setup\":\"first_game\"}", 3, 12},
    {"{\"setup\":\"draft\"}", 4, 13},
    {"{\"duel\":true}", 2, 14},
};

const struct game_tests arcana_tests = {
    .memo_size = 0,
    .memo_update = NULL,
    .scan = scan,
    .secret_words = secret_words,
    .nperturb = PERTURB_COUNT,
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
