/* SPDX-License-Identifier: MIT */
/*
 * element_codec.c - JSON at the edge of the Element core: the options, the
 * strict action decoder (R-element-2.3: an action holds only the fields
 * its type defines), the encoder the legal list uses, and the test
 * positions (element_state_dump / element_state_load) the rule tests read
 * and write. The rules never see JSON.
 */
#include <stdio.h>
#include <string.h>

#include "element.h"
#include "json_util.h"

#define RULE "R-element-2.3"

json_t *element__options_schema(void)
{
    return json_pack("{s:{s:s, s:[s,s,s,s,s], s:s}}", "silver", "type", "enum", "values", "none",
                     "lightning", "wood", "metal", "random", "default", "none");
}

int element__options_decode(const json_t *options, int nseats, int *ret_silver,
                            struct game_error *err)
{
    static const char *const values[] = {"none", "lightning", "wood", "metal", "random"};
    const char *key;
    const json_t *v;
    int silver = ELEMENT_SILVER_NONE;

    if (nseats < 2 || nseats > ELEMENT_MAX_SEATS) {
        return game_error_set(err, GAME_E_BAD_OPTION,
                              "R-element-3: Element is played by 2 to 4 seats");
    }
    if (options && json_is_null(options)) {
        options = NULL;
    }
    if (options && !json_is_object(options)) {
        return game_error_set(err, GAME_E_BAD_OPTION, "R-element-3: options must be an object");
    }
    if (options) {
        json_object_foreach((json_t *)options, key, v) {
            if (strcmp(key, "silver") != 0) {
                return game_error_set(err, GAME_E_BAD_OPTION,
                                      "R-element-3: the only option is \"silver\"");
            }
            int found = -1;
            for (int i = 0; i < 5 && json_is_string(v); i++) {
                if (strcmp(json_string_value(v), values[i]) == 0) {
                    found = i;
                }
            }
            if (found < 0) {
                return game_error_set(err, GAME_E_BAD_OPTION,
                                      "R-element-3: silver is \"none\", \"lightning\", \"wood\", "
                                      "\"metal\" or \"random\"");
            }
            silver = found;
        }
    }
    *ret_silver = silver;
    return GAME_OK;
}

/* The fields of each action type, "type" first (R-element-2.3). */
static const char *const keys_none[] = {"type", NULL};
static const char *const keys_count[] = {"type", "count", NULL};
static const char *const keys_to[] = {"type", "to", NULL};
static const char *const keys_place[] = {"type", "stone", "at", NULL};
static const char *const keys_at[] = {"type", "at", NULL};
static const char *const keys_mode[] = {"type", "mode", NULL};
static const char *const keys_stone[] = {"type", "stone", NULL};

static const char *const *const action_keys[ELEMENT_A_COUNT] = {
    [ELEMENT_A_DRAW] = keys_count,  [ELEMENT_A_STEP] = keys_to,
    [ELEMENT_A_JUMP] = keys_to,     [ELEMENT_A_PLACE] = keys_place,
    [ELEMENT_A_CHAIN] = keys_at,    [ELEMENT_A_FLOW] = keys_to,
    [ELEMENT_A_GROW] = keys_at,     [ELEMENT_A_GROW_DONE] = keys_none,
    [ELEMENT_A_MAGNET] = keys_mode, [ELEMENT_A_REMOVE] = keys_at,
    [ELEMENT_A_KEEP] = keys_none,   [ELEMENT_A_CORRODE] = keys_at,
    [ELEMENT_A_END] = keys_none,    [ELEMENT_A_PICK] = keys_stone,
};

static const char *const mode_name[2] = {"attract", "repel"};

static int square_field(const json_t *json, const char *key, const char *type, uint8_t *ret,
                        struct game_error *err)
{
    int sq = element__sq_parse(game_json_str(json, key));
    if (sq < 0) {
        return game_json_bad_field(err, RULE, type, key, "a square \"a1\"..\"k11\"");
    }
    *ret = (uint8_t)sq;
    return GAME_OK;
}

int element_action_decode(const json_t *json, struct element_action *ret_a, struct game_error *err)
{
    struct element_action a = {0, 0, 0};
    if (!json_is_object(json)) {
        return game_error_set(err, GAME_E_BAD_ACTION, RULE ": an action is a JSON object");
    }
    const char *type = game_json_str(json, "type");
    for (int i = 1; type && i < ELEMENT_A_COUNT; i++) {
        if (strcmp(type, element_action_name[i]) == 0) {
            a.type = (uint8_t)i;
        }
    }
    if (a.type == ELEMENT_A_NONE) {
        return game_error_set(err, GAME_E_BAD_ACTION,
                              RULE ": field \"type\" must name an action (see the action "
                                   "reference)");
    }
    type = element_action_name[a.type];
    if (game_json_only_keys(json, action_keys[a.type], RULE, type, err) < 0) {
        return GAME_E_BAD_ACTION;
    }
    int rc = GAME_OK;
    switch (a.type) {
    case ELEMENT_A_DRAW: {
        long n;
        if (game_json_int(json, "count", 0, ELEMENT_MAX_DRAW, &n) < 0) {
            return game_json_bad_field(err, RULE, type, "count", "an integer 0 to 4");
        }
        a.arg = (uint8_t)n;
        break;
    }
    case ELEMENT_A_STEP:
    case ELEMENT_A_JUMP:
    case ELEMENT_A_FLOW:
        rc = square_field(json, "to", type, &a.sq, err);
        break;
    case ELEMENT_A_CHAIN:
    case ELEMENT_A_GROW:
    case ELEMENT_A_REMOVE:
    case ELEMENT_A_CORRODE:
        rc = square_field(json, "at", type, &a.sq, err);
        break;
    case ELEMENT_A_PLACE:
    case ELEMENT_A_PICK: {
        const char *s = game_json_str(json, "stone");
        int stone = -1;
        for (int i = 0; s && i < ELEMENT_NSTONES; i++) {
            if (strcmp(s, element_stone_name[i]) == 0) {
                stone = i;
            }
        }
        if (stone < 0) {
            return game_json_bad_field(err, RULE, type, "stone",
                                       "one of fire, water, earth, wind, lightning, wood, metal");
        }
        a.arg = (uint8_t)stone;
        if (a.type == ELEMENT_A_PLACE) {
            rc = square_field(json, "at", type, &a.sq, err);
        }
        break;
    }
    case ELEMENT_A_MAGNET: {
        const char *s = game_json_str(json, "mode");
        if (s && strcmp(s, "attract") == 0) {
            a.arg = 0;
        } else if (s && strcmp(s, "repel") == 0) {
            a.arg = 1;
        } else {
            return game_json_bad_field(err, RULE, type, "mode", "\"attract\" or \"repel\"");
        }
        break;
    }
    default:
        break;
    }
    if (rc == GAME_OK) {
        *ret_a = a;
    }
    return rc;
}

json_t *element_action_encode(const struct element_action *a)
{
    char sq[4];
    const char *type = element_action_name[a->type];
    element__sq_name(a->sq, sq);
    switch (a->type) {
    case ELEMENT_A_DRAW:
        return json_pack("{s:s, s:i}", "type", type, "count", (int)a->arg);
    case ELEMENT_A_STEP:
    case ELEMENT_A_JUMP:
    case ELEMENT_A_FLOW:
        return json_pack("{s:s, s:s}", "type", type, "to", sq);
    case ELEMENT_A_CHAIN:
    case ELEMENT_A_GROW:
    case ELEMENT_A_REMOVE:
    case ELEMENT_A_CORRODE:
        return json_pack("{s:s, s:s}", "type", type, "at", sq);
    case ELEMENT_A_PLACE:
        return json_pack("{s:s, s:s, s:s}", "type", type, "stone", element_stone_name[a->arg], "at",
                         sq);
    case ELEMENT_A_MAGNET:
        return json_pack("{s:s, s:s}", "type", type, "mode", mode_name[a->arg & 1]);
    case ELEMENT_A_PICK:
        return json_pack("{s:s, s:s}", "type", type, "stone", element_stone_name[a->arg]);
    default:
        return json_pack("{s:s}", "type", type);
    }
}

void element_action_write(struct game_text *w, const struct element_action *a)
{
    char sq[4];
    const char *type = element_action_name[a->type];

    /* Keys in byte order: at, count, mode, stone, to, type. */
    element__sq_name(a->sq, sq);
    game_text_obj(w);
    switch (a->type) {
    case ELEMENT_A_DRAW:
        game_text_kint(w, "count", (int)a->arg);
        break;
    case ELEMENT_A_STEP:
    case ELEMENT_A_JUMP:
    case ELEMENT_A_FLOW:
        game_text_kstr(w, "to", sq);
        break;
    case ELEMENT_A_CHAIN:
    case ELEMENT_A_GROW:
    case ELEMENT_A_REMOVE:
    case ELEMENT_A_CORRODE:
        game_text_kstr(w, "at", sq);
        break;
    case ELEMENT_A_PLACE:
        game_text_kstr(w, "at", sq);
        game_text_kstr(w, "stone", element_stone_name[a->arg]);
        break;
    case ELEMENT_A_MAGNET:
        game_text_kstr(w, "mode", mode_name[a->arg & 1]);
        break;
    case ELEMENT_A_PICK:
        game_text_kstr(w, "stone", element_stone_name[a->arg]);
        break;
    default:
        break;
    }
    game_text_kstr(w, "type", type);
    game_text_end_obj(w);
}

/* ---- Test positions ----
 *
 * A position is an object; every member is optional and overrides the
 * state built by init:
 *   "board": {"d4": "fire", "d5": "mountain", "e4": "wind2", ...}  the whole
 *            board (unnamed squares empty); names: fire water earth
 *            mountain wind wind2 wind3 wind4 lightning wood blaze metal
 *   "sages": ["a11", "k1", ...]            by seat
 *   "cur", "first", "round": integers;  "final_seat": integer or -1
 *   "phase": "draw" | "act" | ...
 *   "hand": {"fire": 1, "silver": 2, ...} by type
 *   "steps", "jumps", "drawn": integers
 *   "pick": the stone picked for the next placement, or null (none)
 *   "bag": {"fire": 3, ...}  counts per type; absent types (and the whole
 *          bag when absent) are 30 minus the stones on the board and in
 *          hand, so that a position keeps the stone count.
 */

static const char *const type_name[ELEMENT_NTYPES] = {"fire", "water", "earth", "wind", "silver"};

/* The position name of a square's content, into buf. */
static const char *content_name(const struct element_core *c, int sq, char buf[16])
{
    int k = c->kind[sq];
    if (k == ELEMENT_K_EARTH && c->height[sq] == 2) {
        return "mountain";
    }
    if (k == ELEMENT_K_WIND && c->height[sq] > 1) {
        snprintf(buf, 16, "wind%d", c->height[sq]);
        return buf;
    }
    return element_kind_name[k];
}

static int content_parse(const char *s, uint8_t *ret_kind, uint8_t *ret_height)
{
    if (!s) {
        return -1;
    }
    if (strcmp(s, "mountain") == 0) {
        *ret_kind = ELEMENT_K_EARTH;
        *ret_height = 2;
        return 0;
    }
    if (strncmp(s, "wind", 4) == 0 && s[4] >= '2' && s[4] <= '4' && s[5] == '\0') {
        *ret_kind = ELEMENT_K_WIND;
        *ret_height = (uint8_t)(s[4] - '0');
        return 0;
    }
    for (int k = 1; k <= ELEMENT_K_METAL; k++) {
        if (strcmp(s, element_kind_name[k]) == 0) {
            *ret_kind = (uint8_t)k;
            *ret_height = k == ELEMENT_K_BLAZE ? 2 : 1;
            return 0;
        }
    }
    return -1;
}

/* Stones of each type a square holds. */
static void square_types(const struct element_core *c, int sq, int counts[ELEMENT_NTYPES])
{
    switch (c->kind[sq]) {
    case ELEMENT_K_FIRE:
        counts[ELEMENT_T_FIRE]++;
        break;
    case ELEMENT_K_WATER:
        counts[ELEMENT_T_WATER]++;
        break;
    case ELEMENT_K_EARTH:
        counts[ELEMENT_T_EARTH] += c->height[sq];
        break;
    case ELEMENT_K_WIND:
        counts[ELEMENT_T_WIND] += c->height[sq];
        break;
    case ELEMENT_K_BLAZE:
        counts[ELEMENT_T_FIRE]++;
        counts[ELEMENT_T_SILVER]++;
        break;
    case ELEMENT_K_LIGHTNING:
    case ELEMENT_K_WOOD:
    case ELEMENT_K_METAL:
        counts[ELEMENT_T_SILVER]++;
        break;
    default:
        break;
    }
}

void element__board_counts(const struct element_core *c, int counts[ELEMENT_NTYPES])
{
    memset(counts, 0, sizeof(int) * ELEMENT_NTYPES);
    for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
        square_types(c, sq, counts);
    }
}

json_t *element_state_dump(const struct element_state *st)
{
    const struct element_core *c = &st->c;
    json_t *o = json_object();
    json_t *board = json_object();
    json_t *sages = json_array();
    json_t *bag = json_object();
    json_t *hand = json_object();
    char name[4];
    char buf[16];

    for (int sq = 0; sq < ELEMENT_NSQ; sq++) {
        if (c->kind[sq] != ELEMENT_K_EMPTY) {
            element__sq_name(sq, name);
            json_object_set_new(board, name, json_string(content_name(c, sq, buf)));
        }
    }
    for (int s = 0; s < c->nseats; s++) {
        element__sq_name(c->sage[s], name);
        json_array_append_new(sages, json_string(name));
    }
    for (int t = 0; t < ELEMENT_NTYPES; t++) {
        json_object_set_new(bag, type_name[t], json_integer(c->bag[t]));
        json_object_set_new(hand, type_name[t], json_integer(c->hand[t]));
    }
    json_object_set_new(o, "board", board);
    json_object_set_new(o, "sages", sages);
    json_object_set_new(o, "bag", bag);
    json_object_set_new(o, "hand", hand);
    json_object_set_new(o, "cur", json_integer(c->cur));
    json_object_set_new(o, "first", json_integer(c->first));
    json_object_set_new(o, "round", json_integer(c->round));
    json_object_set_new(o, "final_seat", json_integer(c->final_seat));
    json_object_set_new(o, "phase", json_string(element_phase_name[c->phase]));
    json_object_set_new(o, "steps", json_integer(c->steps));
    json_object_set_new(o, "jumps", json_integer(c->jumps));
    json_object_set_new(o, "drawn", json_integer(c->drawn));
    json_object_set_new(o, "pick",
                        c->pick > 0 ? json_string(element_stone_name[c->pick - 1]) : json_null());
    json_object_set_new(o, "silver", json_string(element_silver_name[c->silver]));
    json_object_set_new(o, "winner", json_integer(c->winner));
    json_object_set_new(o, "reason", json_string(element_reason_name[c->reason]));
    json_object_set_new(o, "forfeit", json_integer(c->forfeit));
    json_object_set_new(o, "over", json_boolean(c->phase == ELEMENT_PH_OVER));
    return o;
}

static int load_int(const json_t *pos, const char *key, int lo, int hi, int *v)
{
    json_t *x = json_object_get(pos, key);
    if (!x) {
        return 0;
    }
    if (!json_is_integer(x) || json_integer_value(x) < lo || json_integer_value(x) > hi) {
        return -1;
    }
    *v = (int)json_integer_value(x);
    return 0;
}

/* Member `key` of `pos`, one of the `n` words of `names`, into *v as its
 * index; 0 (v untouched) when absent, -1 when not one of the words. */
static int load_name(const json_t *pos, const char *key, const char *const *names, int n,
                     uint8_t *v)
{
    const char *s = json_string_value(json_object_get(pos, key));
    for (int i = 0; s && i < n; i++) {
        if (strcmp(s, names[i]) == 0) {
            *v = (uint8_t)i;
            return 0;
        }
    }
    return s || json_object_get(pos, key) ? -1 : 0;
}

int element_state_load(const json_t *pos, struct element_state *st)
{
    struct element_core *c = &st->c;
    const char *key;
    json_t *v;
    size_t i;
    int x;

    if (!json_is_object(pos)) {
        return -1;
    }
    json_t *board = json_object_get(pos, "board");
    if (board) {
        memset(c->kind, 0, sizeof(c->kind));
        memset(c->height, 0, sizeof(c->height));
        json_object_foreach(board, key, v) {
            int sq = element__sq_parse(key);
            if (sq < 0 || content_parse(json_string_value(v), &c->kind[sq], &c->height[sq]) < 0) {
                return -1;
            }
        }
    }
    json_array_foreach(json_object_get(pos, "sages"), i, v) {
        int sq = element__sq_parse(json_string_value(v));
        if (sq < 0 || i >= c->nseats) {
            return -1;
        }
        c->sage[i] = (uint8_t)sq;
    }
    json_t *hand = json_object_get(pos, "hand");
    if (hand) {
        memset(c->hand, 0, sizeof(c->hand));
        for (int t = 0; t < ELEMENT_NTYPES; t++) {
            json_t *n = json_object_get(hand, type_name[t]);
            c->hand[t] = (int8_t)(n ? json_integer_value(n) : 0);
        }
    }
    int counts[ELEMENT_NTYPES];
    element__board_counts(c, counts);
    json_t *bag = json_object_get(pos, "bag");
    for (int t = 0; t < ELEMENT_NTYPES; t++) {
        json_t *n = json_object_get(bag, type_name[t]);
        int total =
            t == ELEMENT_T_SILVER && c->silver == ELEMENT_SILVER_NONE ? 0 : ELEMENT_PER_TYPE;
        c->bag[t] = (int16_t)(n ? json_integer_value(n) : total - counts[t] - c->hand[t]);
        if (c->bag[t] < 0) {
            c->bag[t] = 0;
        }
    }
    x = c->cur;
    if (load_int(pos, "cur", 0, c->nseats - 1, &x) < 0) {
        return -1;
    }
    c->cur = (uint8_t)x;
    x = c->first;
    if (load_int(pos, "first", 0, c->nseats - 1, &x) < 0) {
        return -1;
    }
    c->first = (uint8_t)x;
    x = c->round;
    if (load_int(pos, "round", 0, ELEMENT_ROUND_LIMIT, &x) < 0) {
        return -1;
    }
    c->round = (int16_t)x;
    x = c->final_seat;
    if (load_int(pos, "final_seat", -1, c->nseats - 1, &x) < 0) {
        return -1;
    }
    c->final_seat = (int8_t)x;
    x = c->steps;
    if (load_int(pos, "steps", 0, ELEMENT_MOVES, &x) < 0) {
        return -1;
    }
    c->steps = (int8_t)x;
    x = c->jumps;
    if (load_int(pos, "jumps", 0, ELEMENT_JUMP_LIMIT, &x) < 0) {
        return -1;
    }
    c->jumps = (int8_t)x;
    x = c->drawn;
    if (load_int(pos, "drawn", -1, ELEMENT_MAX_DRAW, &x) < 0) {
        return -1;
    }
    c->drawn = (int8_t)x;
    x = c->winner;
    if (load_int(pos, "winner", -1, c->nseats - 1, &x) < 0) {
        return -1;
    }
    c->winner = (int8_t)x;
    x = c->forfeit;
    if (load_int(pos, "forfeit", -1, c->nseats - 1, &x) < 0) {
        return -1;
    }
    c->forfeit = (int8_t)x;
    json_t *pick = json_object_get(pos, "pick");
    if (json_is_null(pick)) {
        c->pick = 0;
    } else if (pick) {
        uint8_t stone;
        if (load_name(pos, "pick", element_stone_name, ELEMENT_NSTONES, &stone) < 0) {
            return -1;
        }
        c->pick = (uint8_t)(stone + 1);
    }
    if (load_name(pos, "reason", element_reason_name, ELEMENT_R_FORFEIT + 1, &c->reason) < 0 ||
        load_name(pos, "phase", element_phase_name, ELEMENT_PH_OVER + 1, &c->phase) < 0) {
        return -1;
    }
    return 0;
}
