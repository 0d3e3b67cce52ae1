/* SPDX-License-Identifier: MIT */
/*
 * stones_codec.c - the JSON edge of the Sorcerer & Stones core: decoding
 * action objects into struct stones_action and encoding them back (one
 * spelling per action, R-stones-4.1), the options schema and the decoding
 * of options, the encoding of the legal list, and the test-position overlay
 * loader and state dump. It must never decide a rule itself: legality lives
 * in stones_rules.c; this file only refuses malformed objects (bad_action,
 * bad_option).
 */
#include "stones.h"

#include <stdio.h>
#include <string.h>

#include "json_util.h"

/* ---- Names ---- */

static const char *const type_name[STONES_A_COUNT] = {
    "place_taoist", "cast",     "end_cast",    "discard",    "choose_stone", "offer",
    "step",         "pay_step", "take_rune",   "end_move",   "craft",        "end_turn",
    "pay",          "pay_pair", "reward_step", "reward_fly", "reward_skip",  "cancel",
};

static int find_name(const char *s, const char *const *names, int n)
{
    if (!s) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (strcmp(s, names[i]) == 0) {
            return i;
        }
    }
    return -1;
}

static int colour_of(const char *s)
{
    return find_name(s, stones_colour_letter, STONES_NCOL);
}

static int tile_of(const char *s)
{
    return find_name(s, stones_tile_name, STONES_NTILES);
}

/* "Tc.TL" -> tile * 4 + slot, or -1. */
static int slot_of(const char *s)
{
    if (!s || strlen(s) != 5 || s[2] != '.') {
        return -1;
    }
    char t[3] = {s[0], s[1], 0};
    int tile = tile_of(t);
    int sl = find_name(s + 3, stones_slot_name, STONES_NSLOTS);
    return tile < 0 || sl < 0 ? -1 : tile * 4 + sl;
}

static int artifact_of(const char *s)
{
    for (int i = 0; s && i < STONES_NART; i++) {
        if (strcmp(s, stones_artifacts[i].id) == 0) {
            return i;
        }
    }
    return -1;
}

static int player_of(const struct stones_state *st, const char *name)
{
    for (int p = 0; name && p < st->np; p++) {
        if (strcmp(name, stones_colour_name[st->pl[p].colour]) == 0) {
            return p;
        }
    }
    return -1;
}

/* ---- Decoding ---- */

/* The section malformed actions cite. */
#define RULE "R-stones-9"

static int get_cell(const json_t *obj, const char *key, int *r, int *c)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_integer(json_array_get(v, 0)) ||
        !json_is_integer(json_array_get(v, 1))) {
        return -1;
    }
    json_int_t a = json_integer_value(json_array_get(v, 0));
    json_int_t b = json_integer_value(json_array_get(v, 1));
    if (a < -20 || a > 20 || b < -20 || b > 20) {
        return -1;
    }
    *r = (int)a;
    *c = (int)b;
    return 0;
}

/* Reads a two-element array of names found by `of` into out[0], out[1]. */
static int get_two(const json_t *obj, const char *key, int (*of)(const char *), int out[2])
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_array(v) || json_array_size(v) != 2) {
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        out[i] = of(json_string_value(json_array_get(v, i)));
        if (out[i] < 0) {
            return -1;
        }
    }
    return 0;
}

static int card_of(const char *s)
{
    return find_name(s, stones_card_name, STONES_NCARDS);
}

static int dir_of(const char *s)
{
    static const char *const dirs[] = {"cw", "ccw"};
    return find_name(s, dirs, 2);
}

/* What an action field holds (R-stones-9). */
enum field_kind {
    F_TILE,
    F_CARD,
    F_SLOT,
    F_COLOUR,
    F_ARTIFACT,
    F_DIR,
    F_CELL,  /* [row, col] */
    F_PAIR,  /* [colour, colour] */
    F_TILES, /* [tile, tile] */
};

static const char *const field_must[] = {
    [F_TILE] = "a tile: Tn, Tw, Tc, Te or Ts",
    [F_CARD] = "a magic card: SPIN-1, SPIN-2, FLY-1, FLY-2, QUAKE-1, QUAKE-2 or SHIFT-Y, -G, "
               "-B, -R, -N",
    [F_SLOT] = "a slot such as \"Tc.TL\"",
    [F_COLOUR] = "a colour: Y, G, B, R or N",
    [F_ARTIFACT] = "an artifact: A01 to A14",
    [F_DIR] = "\"cw\" or \"ccw\"",
    [F_CELL] = "a cell [row, col] of the Element Zone, two integers",
    [F_PAIR] = "two colours such as [\"N\", \"B\"]",
    [F_TILES] = "two tiles such as [\"Tn\", \"Tc\"]",
};

/* Reads field `key` of the `type` action `obj` as a `kind` into out[0],
 * and out[1] for the kinds of two (F_CELL, F_PAIR, F_TILES): 0, or
 * GAME_E_BAD_ACTION naming the field when it is missing, of another JSON
 * type or no such name. */
static int field(const json_t *obj, const char *key, enum field_kind kind, const char *type,
                 int *out, struct game_error *err)
{
    static int (*const name_of[])(const char *) = {
        [F_TILE] = tile_of,     [F_CARD] = card_of,         [F_SLOT] = slot_of,
        [F_COLOUR] = colour_of, [F_ARTIFACT] = artifact_of, [F_DIR] = dir_of,
    };
    int rc;

    if (kind == F_CELL) {
        rc = get_cell(obj, key, &out[0], &out[1]);
    } else if (kind == F_PAIR) {
        rc = get_two(obj, key, colour_of, out);
    } else if (kind == F_TILES) {
        rc = get_two(obj, key, tile_of, out);
    } else {
        out[0] = name_of[kind](game_json_str(obj, key));
        rc = out[0] < 0 ? -1 : 0;
    }
    return rc ? game_json_bad_field(err, RULE, type, key, field_must[kind]) : 0;
}

static int has(const json_t *obj, const char *key)
{
    return json_object_get(obj, key) != NULL;
}

/* The fields of a cast, by the card's family (R-stones-9). */
static const char *const k_spin[] = {"type", "card", "tile", "dir", NULL};
static const char *const k_fly[] = {"type", "card", "tile", NULL};
static const char *const k_quake[] = {"type", "card", "move", "to", "swap", NULL};
static const char *const k_shift[] = {"type", "card", "a", "b", NULL};

static int decode_cast(const json_t *obj, struct stones_action *a, struct game_error *err)
{
    const char *t = "cast";
    int v[2] = {0, 0};

    if (field(obj, "card", F_CARD, t, v, err)) {
        return GAME_E_BAD_ACTION;
    }
    a->card = v[0];
    const char *const *keys = a->card <= STONES_SPIN2    ? k_spin
                              : a->card <= STONES_FLY2   ? k_fly
                              : a->card <= STONES_QUAKE2 ? k_quake
                                                         : k_shift;
    if (game_json_only_keys(obj, keys, RULE, t, err)) {
        return GAME_E_BAD_ACTION;
    }
    if (json_object_size(obj) == 2) {
        /* R-stones-4.2: {"type":"cast","card":..} chooses the card alone. */
        a->part = STONES_PART_FIRST;
        return 0;
    }
    if (a->card <= STONES_SPIN2) {
        if (field(obj, "tile", F_TILE, t, &a->tile, err) || field(obj, "dir", F_DIR, t, v, err)) {
            return GAME_E_BAD_ACTION;
        }
        a->dir = v[0];
        return 0;
    }
    if (a->card <= STONES_FLY2) {
        return field(obj, "tile", F_TILE, t, &a->tile, err);
    }
    if (a->card <= STONES_QUAKE2) {
        if (has(obj, "swap")) {
            if (has(obj, "move") || has(obj, "to")) {
                return game_json_bad_field(err, RULE, t, has(obj, "move") ? "move" : "to",
                                           "absent from a QUAKE swap");
            }
            if (field(obj, "swap", F_TILES, t, v, err)) {
                return GAME_E_BAD_ACTION;
            }
            a->quake = STONES_QUAKE_SWAP;
            a->tile = v[0];
            a->tile2 = v[1];
            return 0;
        }
        a->quake = STONES_QUAKE_MOVE;
        if (field(obj, "move", F_TILE, t, &a->tile, err)) {
            return GAME_E_BAD_ACTION;
        }
        if (!has(obj, "to")) {
            a->part = STONES_PART_SECOND; /* the tile to move, the destination to come */
            return 0;
        }
        if (field(obj, "to", F_CELL, t, v, err)) {
            return GAME_E_BAD_ACTION;
        }
        a->to_r = v[0];
        a->to_c = v[1];
        return 0;
    }
    if (field(obj, "a", F_SLOT, t, &a->slot_a, err)) {
        return GAME_E_BAD_ACTION;
    }
    if (!has(obj, "b")) {
        a->part = STONES_PART_SECOND; /* the slot a, the slot b to come */
        return 0;
    }
    return field(obj, "b", F_SLOT, t, &a->slot_b, err);
}

/* The fields of every other type (R-stones-9); cast is decode_cast's. */
static const char *const k_none[] = {"type", NULL};
static const char *const k_tile[] = {"type", "tile", NULL};
static const char *const k_card[] = {"type", "card", NULL};
static const char *const k_slot[] = {"type", "slot", NULL};
static const char *const k_colour[] = {"type", "colour", NULL};
static const char *const k_to[] = {"type", "to", NULL};
static const char *const k_paystep[] = {"type", "to", "stones", NULL};
static const char *const k_art[] = {"type", "artifact", NULL};
static const char *const k_pair[] = {"type", "for", "stones", NULL};

static const char *const *const type_keys[STONES_A_COUNT] = {
    [STONES_A_PLACE] = k_tile,       [STONES_A_END_CAST] = k_none,  [STONES_A_DISCARD] = k_card,
    [STONES_A_CHOOSE] = k_slot,      [STONES_A_OFFER] = k_colour,   [STONES_A_STEP] = k_to,
    [STONES_A_PAY_STEP] = k_paystep, [STONES_A_TAKE_RUNE] = k_none, [STONES_A_END_MOVE] = k_none,
    [STONES_A_CRAFT] = k_art,        [STONES_A_END_TURN] = k_none,  [STONES_A_PAY] = k_colour,
    [STONES_A_PAY_PAIR] = k_pair,    [STONES_A_REWARD_STEP] = k_to, [STONES_A_REWARD_FLY] = k_tile,
    [STONES_A_REWARD_SKIP] = k_none, [STONES_A_CANCEL] = k_none,
};

/*
 * Decodes action object `obj` (borrowed) into *ret. Returns 0, or
 * GAME_E_BAD_ACTION with a sentence naming the field when the object is
 * malformed (unknown type, a field its type does not define, a missing
 * field, a field of another JSON type or an unknown name; R-stones-9).
 * Legality is not checked here. *ret is written only on success.
 */
int stones_action_decode(const json_t *obj, struct stones_action *ret, struct game_error *err)
{
    struct stones_action a;
    memset(&a, 0, sizeof(a));
    if (!json_is_object(obj)) {
        return game_error_set(err, GAME_E_BAD_ACTION, RULE ": an action is a JSON object");
    }
    a.type = find_name(game_json_str(obj, "type"), type_name, STONES_A_COUNT);
    if (a.type < 0) {
        return game_error_set(err, GAME_E_BAD_ACTION,
                              RULE ": field \"type\" must name an action such as \"end_turn\"");
    }
    const char *t = type_name[a.type];
    if (a.type != STONES_A_CAST && game_json_only_keys(obj, type_keys[a.type], RULE, t, err)) {
        return GAME_E_BAD_ACTION;
    }
    int v[2] = {0, 0};
    int rc = 0;
    switch (a.type) {
    case STONES_A_PLACE:
    case STONES_A_REWARD_FLY:
        rc = field(obj, "tile", F_TILE, t, &a.tile, err);
        break;
    case STONES_A_CAST:
        rc = decode_cast(obj, &a, err);
        break;
    case STONES_A_DISCARD:
        rc = field(obj, "card", F_CARD, t, &a.card, err);
        break;
    case STONES_A_CHOOSE:
        rc = field(obj, "slot", F_SLOT, t, &a.slot_a, err);
        break;
    case STONES_A_OFFER:
    case STONES_A_PAY:
        rc = field(obj, "colour", F_COLOUR, t, &a.colour, err);
        break;
    case STONES_A_STEP:
    case STONES_A_REWARD_STEP:
        rc = field(obj, "to", F_CELL, t, v, err);
        a.to_r = v[0];
        a.to_c = v[1];
        break;
    case STONES_A_PAY_STEP:
        if (!has(obj, "to") && has(obj, "stones")) {
            a.part = STONES_PART_FIRST; /* R-stones-1.5: the stones, the cell to come */
        } else {
            rc = field(obj, "to", F_CELL, t, v, err);
            a.to_r = v[0];
            a.to_c = v[1];
        }
        if (!rc && has(obj, "stones")) {
            rc = field(obj, "stones", F_PAIR, t, a.pair, err);
            a.npair = 2;
        }
        break;
    case STONES_A_CRAFT:
        rc = field(obj, "artifact", F_ARTIFACT, t, &a.artifact, err);
        break;
    case STONES_A_PAY_PAIR:
        rc = field(obj, "for", F_COLOUR, t, &a.colour, err);
        if (!rc && !has(obj, "stones")) {
            a.part = STONES_PART_FIRST; /* R-stones-4.6: the colour, the two stones to come */
        } else if (!rc) {
            rc = field(obj, "stones", F_PAIR, t, a.pair, err);
            a.npair = 2;
        }
        break;
    default:
        break;
    }
    if (rc) {
        return GAME_E_BAD_ACTION;
    }
    *ret = a;
    return 0;
}

/* ---- Encoding ---- */

static json_t *cell_json(int r, int c)
{
    return json_pack("[ii]", r, c);
}

static json_t *slot_json(int s)
{
    char buf[8];
    snprintf(buf, sizeof(buf), "%s.%s", stones_tile_name[(s / 4) % 5], stones_slot_name[s % 4]);
    return json_string(buf);
}

/*
 * Encodes `a` in the one spelling apply() accepts. Returns a new reference,
 * NULL on allocation failure.
 */
json_t *stones_action_encode(const struct stones_action *a)
{
    json_t *o = json_object();
    if (!o) {
        return NULL;
    }
    int rc = game_json_set(o, "type", json_string(type_name[a->type]));
    switch (a->type) {
    case STONES_A_PLACE:
    case STONES_A_REWARD_FLY:
        rc |= game_json_set(o, "tile", json_string(stones_tile_name[a->tile]));
        break;
    case STONES_A_CAST:
        rc |= game_json_set(o, "card", json_string(stones_card_name[a->card]));
        if (a->part == STONES_PART_FIRST) {
            break;
        }
        if (a->part == STONES_PART_SECOND) {
            if (a->card <= STONES_QUAKE2) {
                rc |= game_json_set(o, "move", json_string(stones_tile_name[a->tile]));
            } else {
                rc |= game_json_set(o, "a", slot_json(a->slot_a));
            }
            break;
        }
        if (a->card <= STONES_SPIN2) {
            rc |= game_json_set(o, "tile", json_string(stones_tile_name[a->tile]));
            rc |= game_json_set(o, "dir", json_string(a->dir ? "ccw" : "cw"));
        } else if (a->card <= STONES_FLY2) {
            rc |= game_json_set(o, "tile", json_string(stones_tile_name[a->tile]));
        } else if (a->card <= STONES_QUAKE2) {
            if (a->quake == STONES_QUAKE_SWAP) {
                rc |= game_json_set(
                    o, "swap",
                    json_pack("[ss]", stones_tile_name[a->tile], stones_tile_name[a->tile2]));
            } else {
                rc |= game_json_set(o, "move", json_string(stones_tile_name[a->tile]));
                rc |= game_json_set(o, "to", cell_json(a->to_r, a->to_c));
            }
        } else {
            rc |= game_json_set(o, "a", slot_json(a->slot_a));
            rc |= game_json_set(o, "b", slot_json(a->slot_b));
        }
        break;
    case STONES_A_DISCARD:
        rc |= game_json_set(o, "card", json_string(stones_card_name[a->card]));
        break;
    case STONES_A_CHOOSE:
        rc |= game_json_set(o, "slot", slot_json(a->slot_a));
        break;
    case STONES_A_OFFER:
    case STONES_A_PAY:
        rc |= game_json_set(o, "colour", json_string(stones_colour_letter[a->colour]));
        break;
    case STONES_A_STEP:
    case STONES_A_REWARD_STEP:
        rc |= game_json_set(o, "to", cell_json(a->to_r, a->to_c));
        break;
    case STONES_A_PAY_STEP:
        if (a->part == STONES_PART_WHOLE) {
            rc |= game_json_set(o, "to", cell_json(a->to_r, a->to_c));
        }
        if (a->npair == 2) {
            rc |= game_json_set(o, "stones",
                                json_pack("[ss]", stones_colour_letter[a->pair[0]],
                                          stones_colour_letter[a->pair[1]]));
        }
        break;
    case STONES_A_CRAFT:
        rc |= game_json_set(o, "artifact", json_string(stones_artifacts[a->artifact].id));
        break;
    case STONES_A_PAY_PAIR:
        rc |= game_json_set(o, "for", json_string(stones_colour_letter[a->colour]));
        if (a->part == STONES_PART_WHOLE) {
            rc |= game_json_set(o, "stones",
                                json_pack("[ss]", stones_colour_letter[a->pair[0]],
                                          stones_colour_letter[a->pair[1]]));
        }
        break;
    default:
        break;
    }
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* ---- Test positions: overlay loader and dump ---- */

static int letters(const char *s, int8_t *out, int max)
{
    int n = 0;
    for (; s && *s && n < max; s++) {
        char b[2] = {*s, 0};
        out[n++] = (int8_t)(*s == '.' ? -1 : colour_of(b));
        if (*s != '.' && out[n - 1] < 0) {
            return -1;
        }
    }
    return n;
}

static void counts_from(const char *s, int8_t counts[STONES_NCOL])
{
    memset(counts, 0, STONES_NCOL);
    int8_t tmp[40];
    int n = letters(s, tmp, 40);
    for (int i = 0; i < n; i++) {
        if (tmp[i] >= 0) {
            counts[tmp[i]]++;
        }
    }
}

static int card_list(const json_t *arr, int8_t *out, int max)
{
    int n = 0;
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        int c = find_name(json_string_value(v), stones_card_name, STONES_NCARDS);
        if (c < 0 || n >= max) {
            return -1;
        }
        out[n++] = (int8_t)c;
    }
    return n;
}

static int load_player(struct stones_state *st, int p, const json_t *o)
{
    struct stones_player *pl = &st->pl[p];
    json_t *v;
    if ((v = json_object_get(o, "taoist"))) {
        pl->taoist = json_is_null(v) ? -1 : (int8_t)tile_of(json_string_value(v));
    }
    int r;
    int c;
    if (json_object_get(o, "spirit") && get_cell(o, "spirit", &r, &c) == 0) {
        pl->spirit_r = (int8_t)r;
        pl->spirit_c = (int8_t)c;
    }
    if ((v = json_object_get(o, "held"))) {
        counts_from(json_string_value(v), pl->held);
    }
    if ((v = json_object_get(o, "qi"))) {
        pl->qi = (int16_t)json_integer_value(v);
    }
    if ((v = json_object_get(o, "excess"))) {
        pl->excess = (int16_t)json_integer_value(v);
    }
    if ((v = json_object_get(o, "runes"))) {
        for (int t = 0; t < STONES_NCOL; t++) {
            pl->rune_owned[t] = st->variant == STONES_STANDARD && t == pl->colour;
            pl->rune_val[t] = 0;
        }
        const char *key;
        json_t *val;
        json_object_foreach(v, key, val) {
            int t = colour_of(key);
            if (t < 0) {
                return -1;
            }
            pl->rune_owned[t] = 1;
            pl->rune_val[t] = (int8_t)json_integer_value(val);
        }
    }
    if ((v = json_object_get(o, "crafted"))) {
        pl->ncrafted = 0;
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) {
            int art = artifact_of(json_string_value(x));
            if (art < 0 || pl->ncrafted >= STONES_NART) {
                return -1;
            }
            pl->crafted[pl->ncrafted++] = (int8_t)art;
        }
    }
    json_t *row = json_object_get(o, "row");
    json_t *deck = json_object_get(o, "deck");
    json_t *disc = json_object_get(o, "discard");
    if (row || deck || disc) {
        int8_t rw[STONES_NCARDS];
        int8_t dk[STONES_NCARDS];
        int8_t ds[STONES_NCARDS];
        int nr = row ? card_list(row, rw, STONES_ROW) : -2;
        int nd = deck ? card_list(deck, dk, STONES_NCARDS) : -2;
        int nds = disc ? card_list(disc, ds, STONES_NCARDS) : 0;
        if (nr == -2) {
            nr = pl->row_n;
            memcpy(rw, pl->row, STONES_ROW);
        }
        if (nr < 0 || nd == -1 || nds < 0) {
            return -1;
        }
        if (nd == -2) {
            /* Every other card, lowest id on top. */
            nd = 0;
            for (int k = 0; k < STONES_NCARDS; k++) {
                int used = 0;
                for (int i = 0; i < nr; i++) {
                    used |= rw[i] == k;
                }
                for (int i = 0; i < nds; i++) {
                    used |= ds[i] == k;
                }
                if (!used && st->variant != STONES_COOP) {
                    dk[nd++] = (int8_t)k;
                }
            }
        }
        memset(pl->row, -1, sizeof(pl->row));
        memset(pl->deck, -1, sizeof(pl->deck));
        memset(pl->discard, -1, sizeof(pl->discard));
        memcpy(pl->row, rw, (size_t)nr);
        pl->row_n = (int8_t)nr;
        for (int i = 0; i < nd; i++) {
            pl->deck[nd - 1 - i] = dk[i]; /* listed top first */
        }
        pl->deck_n = (int8_t)nd;
        memcpy(pl->discard, ds, (size_t)nds);
        pl->discard_n = (int8_t)nds;
        pl->removed_n = st->variant == STONES_COOP ? (int8_t)(STONES_NCARDS - nr - nd) : 0;
    }
    return 0;
}

/* Rebuilds the supply so that 8 stones of each colour exist in all. */
static void auto_supply(struct stones_state *st, const int8_t *front, int nfront)
{
    int left[STONES_NCOL] = {8, 8, 8, 8, 8};
    for (int t = 0; t < STONES_NTILES; t++) {
        for (int s = 0; s < STONES_NSLOTS; s++) {
            if (st->slot[t][s] >= 0) {
                left[st->slot[t][s]]--;
            }
        }
    }
    for (int p = 0; p < st->np; p++) {
        for (int c = 0; c < STONES_NCOL; c++) {
            left[c] -= st->pl[p].held[c];
            left[c] -= st->pending[c] * (p == 0);
        }
    }
    int art = stones__leftmost_artifact(st);
    for (int i = 0; art >= 0 && i < st->coop_filled; i++) {
        left[stones_artifacts[art].cost[i]]--;
    }
    st->supply_n = 0;
    memset(st->supply, -1, sizeof(st->supply));
    for (int i = 0; i < nfront; i++) {
        st->supply[st->supply_n++] = front[i];
        left[front[i]]--;
    }
    int more = 1;
    while (more) {
        more = 0;
        for (int c = 0; c < STONES_NCOL; c++) {
            if (left[c] > 0 && st->supply_n < STONES_NSTONES) {
                st->supply[st->supply_n++] = (int8_t)c;
                left[c]--;
                more = 1;
            }
        }
    }
}

static int phase_of(const char *s)
{
    static const int n = STONES_PH_OVER + 1;
    return find_name(s, stones_phase_name, n);
}

/*
 * Overlays test position `pos` (borrowed) onto `st`, which holds a game
 * built by init(). Every key is optional: "current", "start", "phase",
 * "objectives", "tiles", "supply", "supply_front", "qi_supply", "end",
 * "forfeit" {seat, phase},
 * "artifacts" {row, deck}, "completed", "coop_filled", "stacks", "players"
 * {colour: {taoist, spirit, held, qi, excess, runes, crafted, row, deck,
 * discard}}, "turn" {casts, grants, free_steps, batch, batch_steps,
 * o6_used, owed, pay_art, gained, pending, metrics}, "advance". Without
 * "supply" the supply is rebuilt so that the 40 stones add up
 * ("supply_front" then fixes its first stones, and "park": colour moves
 * the rest into that player's reservoir). Returns 0, or -1 on a malformed position. Used
 * by tests only; the server never calls it.
 */
int stones_state_load(const json_t *pos, struct stones_state *st)
{
    json_t *v;
    if (!json_is_object(pos)) {
        return -1;
    }
    if ((v = json_object_get(pos, "objectives"))) {
        st->objectives = 0;
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) {
            const char *s = json_string_value(x);
            if (!s || s[0] != 'O' || s[1] < '1' || s[1] > '7') {
                return -1;
            }
            st->objectives = (int8_t)(st->objectives | (1 << (s[1] - '1')));
        }
    }
    if ((v = json_object_get(pos, "tiles"))) {
        const char *key;
        json_t *val;
        json_object_foreach(v, key, val) {
            int t = tile_of(key);
            if (t < 0) {
                return -1;
            }
            const char *stones =
                json_is_string(val) ? json_string_value(val) : game_json_str(val, "stones");
            if (stones && letters(stones, st->slot[t], 4) != 4) {
                return -1;
            }
            int r;
            int c;
            if (json_is_object(val) && get_cell(val, "pos", &r, &c) == 0) {
                st->tile_r[t] = (int8_t)r;
                st->tile_c[t] = (int8_t)c;
            }
        }
    }
    if ((v = json_object_get(pos, "start"))) {
        int p = player_of(st, json_string_value(v));
        if (p < 0) {
            return -1;
        }
        st->start = (int8_t)p;
    }
    if ((v = json_object_get(pos, "stacks"))) {
        const char *key;
        json_t *val;
        json_object_foreach(v, key, val) {
            int t = colour_of(key);
            if (t < 0 || !json_is_array(val) || json_array_size(val) > 4) {
                return -1;
            }
            memset(st->stack[t], 0, 4);
            st->stack_n[t] = (int8_t)json_array_size(val);
            for (size_t i = 0; i < json_array_size(val); i++) {
                st->stack[t][i] = (int8_t)json_integer_value(json_array_get(val, i));
            }
        }
    }
    if ((v = json_object_get(pos, "players"))) {
        const char *key;
        json_t *val;
        json_object_foreach(v, key, val) {
            int p = player_of(st, key);
            if (p < 0 || load_player(st, p, val)) {
                return -1;
            }
        }
    }
    if ((v = json_object_get(pos, "completed"))) {
        st->coop_done_n = 0;
        memset(st->coop_done, -1, sizeof(st->coop_done));
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) {
            int art = artifact_of(json_string_value(x));
            if (art < 0) {
                return -1;
            }
            st->coop_done[st->coop_done_n++] = (int8_t)art;
        }
    }
    if ((v = json_object_get(pos, "artifacts"))) {
        json_t *row = json_object_get(v, "row");
        json_t *deck = json_object_get(v, "deck");
        int8_t used[STONES_NART] = {0};
        for (int p = 0; p < st->np; p++) {
            for (int i = 0; i < st->pl[p].ncrafted; i++) {
                used[st->pl[p].crafted[i]] = 1;
            }
        }
        for (int i = 0; i < st->coop_done_n; i++) {
            used[st->coop_done[i]] = 1;
        }
        memset(st->art_row, -1, sizeof(st->art_row));
        st->art_row_n = 0;
        size_t i;
        json_t *x;
        json_array_foreach(row, i, x) {
            int art = artifact_of(json_string_value(x));
            if (art < 0 || st->art_row_n >= STONES_ART_ROW) {
                return -1;
            }
            st->art_row[st->art_row_n++] = (int8_t)art;
            used[art] = 1;
        }
        int8_t dk[STONES_NART];
        int nd = 0;
        json_array_foreach(deck, i, x) {
            int art = artifact_of(json_string_value(x));
            if (art < 0) {
                return -1;
            }
            dk[nd++] = (int8_t)art;
            used[art] = 1;
        }
        if (!deck || json_object_get(v, "fill")) {
            for (int k = 0; k < STONES_NART; k++) {
                if (!used[k]) {
                    dk[nd++] = (int8_t)k;
                }
            }
        }
        memset(st->art_deck, -1, sizeof(st->art_deck));
        st->art_top = (int8_t)(STONES_NART - nd);
        memcpy(st->art_deck + st->art_top, dk, (size_t)nd);
    }
    if ((v = json_object_get(pos, "coop_filled"))) {
        st->coop_filled = (int8_t)json_integer_value(v);
    }
    if ((v = json_object_get(pos, "current"))) {
        int p = player_of(st, json_string_value(v));
        if (p < 0) {
            return -1;
        }
        st->cur = (int8_t)p;
        /* The Taoists not yet placed stand on tiles, unless the game
         * ended while they were placed (R-stones-6.3). */
        json_t *f = json_object_get(pos, "forfeit");
        const char *fph = json_is_object(f) ? game_json_str(f, "phase") : NULL;
        if (st->phase == STONES_PH_PLACE && !(fph && strcmp(fph, "place_taoist") == 0)) {
            for (int q = 0; q < st->np; q++) {
                if (st->pl[q].taoist < 0) {
                    st->pl[q].taoist = (int8_t)q;
                }
            }
        }
        st->turn_no--;
        stones__begin_turn(st);
    }
    if ((v = json_object_get(pos, "phase"))) {
        int ph = phase_of(json_string_value(v));
        if (ph < 0) {
            return -1;
        }
        st->phase = (int8_t)ph;
    }
    if ((v = json_object_get(pos, "turn"))) {
        json_t *x;
        if ((x = json_object_get(v, "casts"))) {
            st->casts = (int8_t)json_integer_value(x);
        }
        if ((x = json_object_get(v, "grants"))) {
            counts_from(json_string_value(x), st->grant);
        }
        if ((x = json_object_get(v, "gained"))) {
            counts_from(json_string_value(x), st->gained);
        }
        if ((x = json_object_get(v, "pending"))) {
            counts_from(json_string_value(x), st->pending);
        }
        if ((x = json_object_get(v, "free_steps"))) {
            st->free_steps = (int8_t)json_integer_value(x);
        }
        if ((x = json_object_get(v, "batch"))) {
            st->batch = (int8_t)json_integer_value(x);
        }
        if ((x = json_object_get(v, "batch_steps"))) {
            st->batch_steps = (int8_t)json_integer_value(x);
        }
        if ((x = json_object_get(v, "o6_used"))) {
            st->o6_used = (int8_t)json_is_true(x);
        }
        if ((x = json_object_get(v, "metrics"))) {
            st->m_gained = (int8_t)json_integer_value(json_array_get(x, 0));
            st->m_same = (int8_t)json_integer_value(json_array_get(x, 1));
            st->m_maxline = (int8_t)json_integer_value(json_array_get(x, 2));
            st->m_lines = (int8_t)json_integer_value(json_array_get(x, 3));
        }
        if ((x = json_object_get(v, "pay_art"))) {
            st->pay_art = (int8_t)artifact_of(json_string_value(x));
        }
        if ((x = json_object_get(v, "owed"))) {
            counts_from(json_string_value(x), st->owed);
        }
    }
    if ((v = json_object_get(pos, "qi_supply"))) {
        st->qi_supply = (int16_t)json_integer_value(v);
    }
    int qi = st->qi_supply;
    for (int p = 0; p < st->np; p++) {
        qi += st->pl[p].qi;
    }
    st->qi_initial = (int16_t)qi;
    if ((v = json_object_get(pos, "supply"))) {
        int8_t tmp[STONES_NSTONES];
        int n = letters(json_string_value(v), tmp, STONES_NSTONES);
        if (n < 0) {
            return -1;
        }
        memset(st->supply, -1, sizeof(st->supply));
        memcpy(st->supply, tmp, (size_t)n);
        st->supply_n = (int8_t)n;
    } else {
        int8_t tmp[STONES_NSTONES];
        int n = 0;
        if ((v = json_object_get(pos, "supply_front"))) {
            n = letters(json_string_value(v), tmp, STONES_NSTONES);
            if (n < 0) {
                return -1;
            }
        }
        auto_supply(st, tmp, n);
        int park = player_of(st, game_json_str(pos, "park"));
        if (park >= 0) {
            /* The rest of the supply goes to a reservoir, leaving the front. */
            while (st->supply_n > n) {
                st->pl[park].held[st->supply[--st->supply_n]]++;
                st->supply[st->supply_n] = -1;
            }
        }
    }
    if ((v = json_object_get(pos, "final_round"))) {
        st->final_round = (int8_t)json_is_true(v);
    }
    if ((v = json_object_get(pos, "end"))) {
        int e = find_name(json_string_value(v), stones_end_name, STONES_END_FORFEIT + 1);
        if (e < 0) {
            return -1;
        }
        st->end_reason = (int8_t)e;
    }
    if ((v = json_object_get(pos, "forfeit")) && !json_is_null(v)) {
        /* R-stones-6.3: {"seat": s, "phase": the decision it ended}. */
        json_t *seat = json_object_get(v, "seat");
        int ph = phase_of(game_json_str(v, "phase"));
        if (!json_is_integer(seat) || json_integer_value(seat) < 0 ||
            json_integer_value(seat) >= st->nseats || ph < 0) {
            return -1;
        }
        st->forfeit = (int8_t)json_integer_value(seat);
        st->forfeit_phase = (int8_t)ph;
    }
    if (json_object_get(pos, "start") && st->phase == STONES_PH_PLACE) {
        st->cur = (int8_t)((st->start + 2 * st->np - 1 - st->place_idx) % st->np);
    }
    if (st->variant == STONES_STANDARD) {
        /* The removed rune of each type is whatever the stacks and the
         * players do not hold (when exactly one value is left). */
        for (int t = 0; t < STONES_NCOL; t++) {
            int have[5] = {0};
            for (int i = 0; i < st->stack_n[t]; i++) {
                have[st->stack[t][i]] = 1;
            }
            for (int p = 0; p < st->np; p++) {
                if (st->pl[p].rune_owned[t] && st->pl[p].colour != t) {
                    have[st->pl[p].rune_val[t]] = 1;
                }
            }
            int missing = 0;
            int which = 0;
            for (int val = t == STONES_N ? 1 : 2; val <= 4; val++) {
                if (!have[val]) {
                    missing++;
                    which = val;
                }
            }
            if (missing == 1) {
                st->rune_removed[t] = (int8_t)which;
            }
        }
    }
    if (json_is_true(json_object_get(pos, "advance"))) {
        stones__advance(st);
    }
    return 0;
}

static json_t *letters_json(const int8_t *v, int n)
{
    char buf[STONES_NSTONES + 1];
    int k = 0;
    for (int i = 0; i < n && k < STONES_NSTONES; i++) {
        buf[k++] = v[i] < 0 ? '.' : stones_colour_letter[v[i]][0];
    }
    buf[k] = 0;
    return json_string(buf);
}

static json_t *counts_json(const int8_t counts[STONES_NCOL])
{
    char buf[STONES_NSTONES + 1];
    int k = 0;
    for (int c = 0; c < STONES_NCOL; c++) {
        for (int i = 0; i < counts[c] && k < STONES_NSTONES; i++) {
            buf[k++] = stones_colour_letter[c][0];
        }
    }
    buf[k] = 0;
    return json_string(buf);
}

/* The names of n magic cards, in order or (reverse) from the last. New
 * reference, NULL on ENOMEM. */
static json_t *cards_json(const int8_t *v, int n, int reverse)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++) {
        int c = reverse ? v[n - 1 - i] : v[i];
        if (game_json_push(a, json_string(stones_card_name[c]))) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *arts_json(const int8_t *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++) {
        if (game_json_push(a, json_string(stones_artifacts[v[i]].id))) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

/*
 * Dumps the whole state, hidden parts included, in the key layout that
 * stones_state_load() reads, plus "over", "end" and "scores". New
 * reference, NULL on allocation failure. Test use only: never send it to a
 * client.
 */
json_t *stones_state_dump(const struct stones_state *st)
{
    json_t *o = json_object();
    if (!o) {
        return NULL;
    }
    int rc = 0;
    static const char *const vname[] = {"standard", "novice", "cooperative"};
    rc |= game_json_set(o, "variant", json_string(vname[st->variant]));
    rc |= game_json_set(o, "phase", json_string(stones_phase_name[st->phase]));
    rc |= game_json_set(o, "current", json_string(stones_colour_name[st->pl[st->cur].colour]));
    rc |= game_json_set(o, "start", json_string(stones_colour_name[st->pl[st->start].colour]));
    rc |= game_json_set(o, "over", json_boolean(st->phase == STONES_PH_OVER));
    rc |= game_json_set(o, "end", json_string(stones_end_name[st->end_reason]));
    rc |= game_json_set(o, "final_round", json_boolean(st->final_round));
    rc |= game_json_set(o, "forfeit",
                        st->forfeit < 0 ? json_null()
                                        : json_pack("{s:i,s:s}", "seat", st->forfeit, "phase",
                                                    stones_phase_name[st->forfeit_phase]));
    json_t *obj = json_array();
    for (int k = 1; obj && k <= 7; k++) {
        if (st->objectives & (1 << (k - 1))) {
            char b[16];
            snprintf(b, sizeof(b), "O%d", k);
            rc |= game_json_push(obj, json_string(b));
        }
    }
    rc |= game_json_set(o, "objectives", obj);
    json_t *tiles = json_object();
    for (int t = 0; tiles && t < STONES_NTILES; t++) {
        rc |= game_json_set(tiles, stones_tile_name[t],
                            json_pack("{s:[ii],s:o}", "pos", st->tile_r[t], st->tile_c[t], "stones",
                                      letters_json(st->slot[t], 4)));
    }
    rc |= game_json_set(o, "tiles", tiles);
    rc |= game_json_set(o, "supply", letters_json(st->supply, st->supply_n));
    rc |= game_json_set(o, "qi_supply", json_integer(st->qi_supply));
    rc |=
        game_json_set(o, "artifacts",
                      json_pack("{s:o,s:o}", "row", arts_json(st->art_row, st->art_row_n), "deck",
                                arts_json(st->art_deck + st->art_top, STONES_NART - st->art_top)));
    rc |= game_json_set(o, "completed", arts_json(st->coop_done, st->coop_done_n));
    rc |= game_json_set(o, "coop_filled", json_integer(st->coop_filled));
    json_t *stacks = json_object();
    for (int t = 0; stacks && t < STONES_NCOL; t++) {
        json_t *s = json_array();
        for (int i = 0; s && i < st->stack_n[t]; i++) {
            rc |= game_json_push(s, json_integer(st->stack[t][i]));
        }
        rc |= game_json_set(stacks, stones_colour_letter[t], s);
    }
    rc |= game_json_set(o, "stacks", stacks);
    json_t *players = json_object();
    for (int p = 0; players && p < st->np; p++) {
        const struct stones_player *pl = &st->pl[p];
        json_t *runes = json_object();
        for (int t = 0; runes && t < STONES_NCOL; t++) {
            if (pl->rune_owned[t] && t != pl->colour) {
                rc |= game_json_set(runes, stones_colour_letter[t], json_integer(pl->rune_val[t]));
            }
        }
        int parts[6];
        int total = stones__score(st, p, parts);
        json_t *po = json_pack(
            "{s:i,s:s?,s:[ii],s:o,s:i,s:i,s:o,s:o,s:o,s:o,s:o,s:i,s:i}", "seat", pl->seat, "taoist",
            pl->taoist >= 0 ? stones_tile_name[pl->taoist] : NULL, "spirit", pl->spirit_r,
            pl->spirit_c, "held", counts_json(pl->held), "qi", pl->qi, "excess", pl->excess,
            "runes", runes, "crafted", arts_json(pl->crafted, pl->ncrafted), "row",
            cards_json(pl->row, pl->row_n, 0), "deck", cards_json(pl->deck, pl->deck_n, 1),
            "discard", cards_json(pl->discard, pl->discard_n, 0), "removed", pl->removed_n, "score",
            total);
        rc |= game_json_set(
            po, "ncards", json_pack("[iiii]", pl->row_n, pl->deck_n, pl->discard_n, pl->removed_n));
        rc |= game_json_set(players, stones_colour_name[pl->colour], po);
    }
    rc |= game_json_set(o, "players", players);
    json_t *turn = json_pack(
        "{s:i,s:o,s:o,s:o,s:i,s:i,s:i,s:b,s:[iiii],s:o,s:i}", "casts", st->casts, "grants",
        counts_json(st->grant), "gained", counts_json(st->gained), "pending",
        counts_json(st->pending), "free_steps", st->free_steps, "batch", st->batch, "batch_steps",
        st->batch_steps, "o6_used", st->o6_used, "metrics", st->m_gained, st->m_same, st->m_maxline,
        st->m_lines, "owed", counts_json(st->owed), "group", st->group_cur);
    rc |= game_json_set(o, "turn", turn);
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* ---- Options ---- */

/*
 * The options schema for `hello` (R-stones-7.2): variant and, for the
 * cooperative game, colours. New reference, NULL on allocation failure.
 */
json_t *stones__options_schema(void)
{
    return json_pack("{s:{s:s,s:[sss],s:s},s:{s:s,s:[iiii],s:i,s:s}}", "variant", "type", "enum",
                     "values", "standard", "novice", "cooperative", "default", "standard",
                     "colours", "type", "enum", "values", 1, 2, 3, 4, "default", 4, "variant",
                     "cooperative");
}

/*
 * Decodes `options` (borrowed, may be NULL or null: defaults): keys
 * "variant" and "colours" only. On success writes the variant and the
 * colours asked for (-1 when not given) and returns GAME_OK; otherwise
 * returns GAME_E_BAD_OPTION with a message in err. The seat count is
 * checked by stones__check_setup().
 */
int stones__options_decode(const json_t *options, int *ret_variant, int *ret_colours,
                           struct game_error *err)
{
    int variant = STONES_STANDARD;
    int colours = -1;
    if (options && !json_is_null(options)) {
        if (!json_is_object(options)) {
            return game_error_set(err, GAME_E_BAD_OPTION, "options must be an object");
        }
        const char *key;
        json_t *val;
        json_object_foreach((json_t *)options, key, val) {
            if (strcmp(key, "variant") == 0) {
                const char *v = json_string_value(val);
                if (v && strcmp(v, "standard") == 0) {
                    variant = STONES_STANDARD;
                } else if (v && strcmp(v, "novice") == 0) {
                    variant = STONES_NOVICE;
                } else if (v && strcmp(v, "cooperative") == 0) {
                    variant = STONES_COOP;
                } else {
                    return game_error_set(err, GAME_E_BAD_OPTION,
                                          "option variant must be \"standard\", \"novice\" or "
                                          "\"cooperative\"");
                }
            } else if (strcmp(key, "colours") == 0) {
                if (!json_is_integer(val) || json_integer_value(val) < 1 ||
                    json_integer_value(val) > 4) {
                    return game_error_set(err, GAME_E_BAD_OPTION,
                                          "option colours must be an integer from 1 to 4");
                }
                colours = (int)json_integer_value(val);
            } else {
                return game_error_set(err, GAME_E_BAD_OPTION,
                                      "unknown option \"%.64s\" (stones knows variant and "
                                      "colours)",
                                      key);
            }
        }
    }
    *ret_variant = variant;
    *ret_colours = colours;
    return GAME_OK;
}

/* `a` as the canonical text of stones_action_encode()'s object, written
 * straight: keys in byte order (a, artifact, b, card, colour, dir, for,
 * move, slot, stones, swap, tile, to, type). */
static void slot_write(struct game_text *w, const char *key, int s)
{
    char buf[16];
    snprintf(buf, sizeof(buf), "%s.%s", stones_tile_name[(s / 4) % 5], stones_slot_name[s % 4]);
    game_text_kstr(w, key, buf);
}

static void cell_write(struct game_text *w, int r, int c)
{
    game_text_karr(w, "to");
    game_text_int(w, r);
    game_text_int(w, c);
    game_text_end_arr(w);
}

static void pair_write(struct game_text *w, const char *key, const char *x, const char *y)
{
    game_text_karr(w, key);
    game_text_str(w, x);
    game_text_str(w, y);
    game_text_end_arr(w);
}

void stones_action_write(struct game_text *w, const struct stones_action *a)
{
    game_text_obj(w);
    switch (a->type) {
    case STONES_A_PLACE:
    case STONES_A_REWARD_FLY:
        game_text_kstr(w, "tile", stones_tile_name[a->tile]);
        break;
    case STONES_A_CAST:
        if (a->part == STONES_PART_FIRST) {
            game_text_kstr(w, "card", stones_card_name[a->card]);
        } else if (a->part == STONES_PART_SECOND) {
            if (a->card <= STONES_QUAKE2) {
                game_text_kstr(w, "card", stones_card_name[a->card]);
                game_text_kstr(w, "move", stones_tile_name[a->tile]);
            } else {
                slot_write(w, "a", a->slot_a);
                game_text_kstr(w, "card", stones_card_name[a->card]);
            }
        } else if (a->card <= STONES_SPIN2) {
            game_text_kstr(w, "card", stones_card_name[a->card]);
            game_text_kstr(w, "dir", a->dir ? "ccw" : "cw");
            game_text_kstr(w, "tile", stones_tile_name[a->tile]);
        } else if (a->card <= STONES_FLY2) {
            game_text_kstr(w, "card", stones_card_name[a->card]);
            game_text_kstr(w, "tile", stones_tile_name[a->tile]);
        } else if (a->card <= STONES_QUAKE2) {
            game_text_kstr(w, "card", stones_card_name[a->card]);
            if (a->quake == STONES_QUAKE_SWAP) {
                pair_write(w, "swap", stones_tile_name[a->tile], stones_tile_name[a->tile2]);
            } else {
                game_text_kstr(w, "move", stones_tile_name[a->tile]);
                cell_write(w, a->to_r, a->to_c);
            }
        } else {
            slot_write(w, "a", a->slot_a);
            slot_write(w, "b", a->slot_b);
            game_text_kstr(w, "card", stones_card_name[a->card]);
        }
        break;
    case STONES_A_DISCARD:
        game_text_kstr(w, "card", stones_card_name[a->card]);
        break;
    case STONES_A_CHOOSE:
        slot_write(w, "slot", a->slot_a);
        break;
    case STONES_A_OFFER:
    case STONES_A_PAY:
        game_text_kstr(w, "colour", stones_colour_letter[a->colour]);
        break;
    case STONES_A_STEP:
    case STONES_A_REWARD_STEP:
        cell_write(w, a->to_r, a->to_c);
        break;
    case STONES_A_PAY_STEP:
        if (a->npair == 2) {
            pair_write(w, "stones", stones_colour_letter[a->pair[0]],
                       stones_colour_letter[a->pair[1]]);
        }
        if (a->part == STONES_PART_WHOLE) {
            cell_write(w, a->to_r, a->to_c);
        }
        break;
    case STONES_A_CRAFT:
        game_text_kstr(w, "artifact", stones_artifacts[a->artifact].id);
        break;
    case STONES_A_PAY_PAIR:
        game_text_kstr(w, "for", stones_colour_letter[a->colour]);
        if (a->part == STONES_PART_WHOLE) {
            pair_write(w, "stones", stones_colour_letter[a->pair[0]],
                       stones_colour_letter[a->pair[1]]);
        }
        break;
    default:
        break;
    }
    game_text_kstr(w, "type", type_name[a->type]);
    game_text_end_obj(w);
}

/* The stones__enumerate() callback of stones__legal_write: `a` appended to
 * the text list of `ctx` (a struct game_text). Always 0: a failed writer
 * keeps its error and does nothing more. */
int stones__legal_write(const struct stones_action *a, void *ctx)
{
    stones_action_write(ctx, a);
    return 0;
}

/* ---- Legal list ---- */

/*
 * The stones__enumerate() callback that appends the encoding of `a` to the
 * array of `ctx` (a struct stones_legal_list). Returns 0 to go on, or 1
 * after setting `failed` when an allocation failed.
 */
int stones__legal_push(const struct stones_action *a, void *ctx)
{
    struct stones_legal_list *list = ctx;
    if (game_json_push(list->arr, stones_action_encode(a))) {
        list->failed = 1;
        return 1;
    }
    return 0;
}
