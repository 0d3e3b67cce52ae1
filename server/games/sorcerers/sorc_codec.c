/* SPDX-License-Identifier: MIT */
/*
 * sorc_codec.c - the JSON edge of the Sorcerers core, views aside: action
 * decoding and encoding, the options schema and option parsing, the
 * encoding of the legal list, and the position load/dump pair used by the
 * scenario tests. It owns the wire spelling of actions and options; it must
 * never hold rules (those live in sorc_rules.c) and never do I/O.
 */
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "json_util.h"
#include "sorc.h"

static const char *const atype_names[SORC_A_COUNT] = {
    [SORC_A_DEAL] = "deal",
    [SORC_A_DONE] = "done",
    [SORC_A_RECRUIT] = "recruit",
    [SORC_A_EQUIP] = "equip",
    [SORC_A_MOVE_OBJECT] = "move_object",
    [SORC_A_DISCARD_OBJECT] = "discard_object",
    [SORC_A_PLACE_GRIMHOLD] = "place_grimhold",
    [SORC_A_ACTIVATE] = "activate",
    [SORC_A_PASS] = "pass",
    [SORC_A_TRACK] = "track",
    [SORC_A_DISCARD] = "discard",
    [SORC_A_ENCOUNTER] = "encounter",
    [SORC_A_COMBO_SPELL] = "combo_spell",
    [SORC_A_COMBO_EVENT] = "combo_event",
    [SORC_A_COMBO_AMP] = "combo_amp",
    [SORC_A_COMBO_DECLARE] = "combo_declare",
    [SORC_A_CLEAR_MIND] = "clear_mind",
    [SORC_A_NEGATE] = "negate",
    [SORC_A_DEFENSE] = "defense",
    [SORC_A_PROTECT] = "protect",
    [SORC_A_STEAL] = "steal",
};

static const char *const enc_names[3] = {"keep", "first_to_fight", "martyr"};

/* ---- Action decoding ---- */

/* The section malformed actions cite. */
#define RULE "R-sorcerers-10"

/* The fields each action type may hold, "type" included (R-sorcerers-10). */
static const char *const k_none[] = {"type", NULL};
static const char *const k_card[] = {"type", "card", NULL};
static const char *const k_card_to[] = {"type", "card", "to", NULL};
static const char *const k_object[] = {"type", "object", NULL};
static const char *const k_object_to[] = {"type", "object", "to", NULL};
static const char *const k_to[] = {"type", "to", NULL};
static const char *const k_activate[] = {"type", "card", "target", "to", NULL};
static const char *const k_card_target[] = {"type", "card", "target", NULL};
static const char *const k_encounter[] = {"type", "choice", "sorcerer", NULL};
static const char *const k_declare[] = {"type", "sacrifice", "betray", NULL};
static const char *const k_negate[] = {"type", "choices", NULL};
static const char *const k_choice[] = {"card", "target", NULL};

static const char *const *const atype_keys[SORC_A_COUNT] = {
    [SORC_A_DEAL] = k_card,
    [SORC_A_DONE] = k_none,
    [SORC_A_RECRUIT] = k_card,
    [SORC_A_EQUIP] = k_card_to,
    [SORC_A_MOVE_OBJECT] = k_object_to,
    [SORC_A_DISCARD_OBJECT] = k_object,
    [SORC_A_PLACE_GRIMHOLD] = k_to,
    [SORC_A_ACTIVATE] = k_activate,
    [SORC_A_PASS] = k_none,
    [SORC_A_TRACK] = k_card,
    [SORC_A_DISCARD] = k_card,
    [SORC_A_ENCOUNTER] = k_encounter,
    [SORC_A_COMBO_SPELL] = k_card,
    [SORC_A_COMBO_EVENT] = k_card,
    [SORC_A_COMBO_AMP] = k_card,
    [SORC_A_COMBO_DECLARE] = k_declare,
    [SORC_A_CLEAR_MIND] = k_card,
    [SORC_A_NEGATE] = k_negate,
    [SORC_A_DEFENSE] = k_card_target,
    [SORC_A_PROTECT] = k_card,
    [SORC_A_STEAL] = k_card,
};

/* Reads card field `key` of `obj`, part of a `type` action (`name` is how
 * the refusal names the field): 0 and *ret set (SORC_NONE for null or, when
 * `nullable`, absent), or GAME_E_BAD_ACTION in `err` when it is missing,
 * not a string (or null, when nullable) or no card's id. */
static int card_field(const json_t *obj, const char *key, const char *name, int nullable,
                      const char *type, uint8_t *ret, struct game_error *err)
{
    const json_t *v = json_object_get(obj, key);

    if (nullable && (!v || json_is_null(v))) {
        *ret = SORC_NONE;
        return 0;
    }
    *ret = sorc__card_find(json_string_value(v));
    if (*ret == SORC_NONE) {
        return game_json_bad_field(err, RULE, type, name,
                                   nullable ? "a known card id or null" : "a known card id");
    }
    return 0;
}

/* The negation choices of a negate action: an array of at most two
 * objects, each {"card": id, "target": id or null}. */
static int decode_choices(const json_t *json, struct sorc_action *a, struct game_error *err)
{
    const json_t *ch = json_object_get(json, "choices");
    size_t i;
    const json_t *e;

    if (!json_is_array(ch) || json_array_size(ch) > 2) {
        return game_json_bad_field(err, RULE, "negate", "choices",
                                   "an array of at most two objects {\"card\", \"target\"}");
    }
    json_array_foreach(ch, i, e) {
        char elem[48];
        char card[48];
        char target[48];
        snprintf(elem, sizeof(elem), "choices[%zu]", i);
        snprintf(card, sizeof(card), "choices[%zu].card", i);
        snprintf(target, sizeof(target), "choices[%zu].target", i);
        if (!json_is_object(e)) {
            return game_json_bad_field(err, RULE, "negate", elem,
                                       "an object {\"card\", \"target\"}");
        }
        if (game_json_only_keys(e, k_choice, RULE, "negate", err) < 0 ||
            card_field(e, "card", card, 0, "negate", &a->ch_card[i], err) < 0 ||
            card_field(e, "target", target, 1, "negate", &a->ch_target[i], err) < 0) {
            return GAME_E_BAD_ACTION;
        }
    }
    a->nchoices = (uint8_t)json_array_size(ch);
    return 0;
}

/* Decodes `json` into *ret_a: GAME_OK, or GAME_E_BAD_ACTION in `err`. See
 * sorc.h. */
int sorc_action_decode(const json_t *json, struct sorc_action *ret_a, struct game_error *err)
{
    struct sorc_action decoded;
    struct sorc_action *a = &decoded;
    const char *type;
    int t = 0;
    int rc = 0;

    memset(a, 0, sizeof(*a));
    a->card = a->to = a->target = a->object = a->sorcerer = a->betray = SORC_NONE;
    a->ch_card[0] = a->ch_card[1] = a->ch_target[0] = a->ch_target[1] = SORC_NONE;
    if (!json_is_object(json)) {
        return game_error_set(err, GAME_E_BAD_ACTION, RULE ": an action is a JSON object");
    }
    type = game_json_str(json, "type");
    for (int i = 1; type && i < SORC_A_COUNT; i++) {
        if (strcmp(type, atype_names[i]) == 0) {
            t = i;
        }
    }
    if (!t) {
        return game_error_set(err, GAME_E_BAD_ACTION,
                              RULE ": field \"type\" must name an action (see the action "
                                   "reference)");
    }
    a->type = (uint8_t)t;
    type = atype_names[t];
    if (game_json_only_keys(json, atype_keys[t], RULE, type, err) < 0) {
        return GAME_E_BAD_ACTION;
    }
    switch (t) {
    case SORC_A_DEAL:
    case SORC_A_RECRUIT:
    case SORC_A_DISCARD:
    case SORC_A_CLEAR_MIND:
    case SORC_A_PROTECT:
    case SORC_A_STEAL:
        rc = card_field(json, "card", "card", 0, type, &a->card, err);
        break;
    case SORC_A_EQUIP:
        rc = card_field(json, "card", "card", 0, type, &a->card, err);
        rc = rc ? rc : card_field(json, "to", "to", 0, type, &a->to, err);
        break;
    case SORC_A_MOVE_OBJECT:
        rc = card_field(json, "object", "object", 0, type, &a->object, err);
        rc = rc ? rc : card_field(json, "to", "to", 0, type, &a->to, err);
        break;
    case SORC_A_DISCARD_OBJECT:
        rc = card_field(json, "object", "object", 0, type, &a->object, err);
        break;
    case SORC_A_PLACE_GRIMHOLD:
        rc = card_field(json, "to", "to", 0, type, &a->to, err);
        break;
    case SORC_A_ACTIVATE:
        rc = card_field(json, "card", "card", 0, type, &a->card, err);
        rc = rc ? rc : card_field(json, "target", "target", 1, type, &a->target, err);
        rc = rc ? rc : card_field(json, "to", "to", 1, type, &a->to, err);
        break;
    case SORC_A_TRACK:
    case SORC_A_COMBO_SPELL:
    case SORC_A_COMBO_EVENT:
    case SORC_A_COMBO_AMP:
        rc = card_field(json, "card", "card", 1, type, &a->card, err);
        break;
    case SORC_A_DEFENSE:
        rc = card_field(json, "card", "card", 0, type, &a->card, err);
        rc = rc ? rc : card_field(json, "target", "target", 0, type, &a->target, err);
        break;
    case SORC_A_ENCOUNTER: {
        const char *c = game_json_str(json, "choice");
        int found = -1;
        for (int i = 0; c && i < 3; i++) {
            if (strcmp(c, enc_names[i]) == 0) {
                found = i;
            }
        }
        if (found < 0) {
            return game_json_bad_field(err, RULE, type, "choice",
                                       "\"keep\", \"first_to_fight\" or \"martyr\"");
        }
        a->choice = (uint8_t)found;
        /* "keep" names no sorcerer: the field may only be absent or null. */
        rc = card_field(json, "sorcerer", "sorcerer", found == SORC_ENC_KEEP, type, &a->sorcerer,
                        err);
        if (!rc && found == SORC_ENC_KEEP && a->sorcerer != SORC_NONE) {
            rc = game_json_bad_field(err, RULE, type, "sorcerer", "absent or null with \"keep\"");
        }
        break;
    }
    case SORC_A_COMBO_DECLARE: {
        const json_t *s = json_object_get(json, "sacrifice");
        if (s && !json_is_boolean(s) && !json_is_null(s)) {
            return game_json_bad_field(err, RULE, type, "sacrifice", "true, false or null");
        }
        a->sacrifice = s && json_is_true(s);
        rc = card_field(json, "betray", "betray", 1, type, &a->betray, err);
        break;
    }
    case SORC_A_NEGATE:
        rc = decode_choices(json, a, err);
        break;
    default:
        break;
    }
    if (rc) {
        return GAME_E_BAD_ACTION;
    }
    *ret_a = decoded;
    return GAME_OK;
}

static json_t *card_json(uint8_t c)
{
    return c < SORC_NCARDS ? json_string(sorc_cards[c].id) : json_null();
}

/* Encodes *a in canonical form; new reference or NULL. See sorc.h. */
json_t *sorc_action_encode(const struct sorc_action *a)
{
    json_t *o = json_object();
    int rc = 0;

    if (!o || a->type == 0 || a->type >= SORC_A_COUNT) {
        json_decref(o);
        return NULL;
    }
    rc |= game_json_set(o, "type", json_string(atype_names[a->type]));
    switch (a->type) {
    case SORC_A_DEAL:
    case SORC_A_RECRUIT:
    case SORC_A_DISCARD:
    case SORC_A_CLEAR_MIND:
    case SORC_A_PROTECT:
    case SORC_A_STEAL:
    case SORC_A_TRACK:
    case SORC_A_COMBO_SPELL:
    case SORC_A_COMBO_EVENT:
    case SORC_A_COMBO_AMP:
        rc |= game_json_set(o, "card", card_json(a->card));
        break;
    case SORC_A_EQUIP:
        rc |= game_json_set(o, "card", card_json(a->card));
        rc |= game_json_set(o, "to", card_json(a->to));
        break;
    case SORC_A_MOVE_OBJECT:
        rc |= game_json_set(o, "object", card_json(a->object));
        rc |= game_json_set(o, "to", card_json(a->to));
        break;
    case SORC_A_DISCARD_OBJECT:
        rc |= game_json_set(o, "object", card_json(a->object));
        break;
    case SORC_A_PLACE_GRIMHOLD:
        rc |= game_json_set(o, "to", card_json(a->to));
        break;
    case SORC_A_ACTIVATE: {
        int ea = a->card < SORC_NCARDS ? sorc_cards[a->card].ea : 0;
        rc |= game_json_set(o, "card", card_json(a->card));
        if (ea == SORC_EA_FIND || ea == SORC_EA_UP_IN_SMOKE || ea == SORC_EA_STEAL_OBJECT) {
            rc |= game_json_set(o, "target", card_json(a->target));
        }
        if (ea == SORC_EA_STEAL_OBJECT) {
            rc |= game_json_set(o, "to", card_json(a->to));
        }
        break;
    }
    case SORC_A_DEFENSE:
        rc |= game_json_set(o, "card", card_json(a->card));
        rc |= game_json_set(o, "target", card_json(a->target));
        break;
    case SORC_A_ENCOUNTER:
        rc |= game_json_set(o, "choice", json_string(enc_names[a->choice % 3]));
        if (a->choice != SORC_ENC_KEEP) {
            rc |= game_json_set(o, "sorcerer", card_json(a->sorcerer));
        }
        break;
    case SORC_A_COMBO_DECLARE:
        rc |= game_json_set(o, "sacrifice", json_boolean(a->sacrifice));
        rc |= game_json_set(o, "betray", card_json(a->betray));
        break;
    case SORC_A_NEGATE: {
        json_t *arr = json_array();
        rc |= game_json_set(o, "choices", arr);
        for (int i = 0; arr && i < a->nchoices; i++) {
            json_t *e = json_object();
            rc |= game_json_push(arr, e);
            if (e) {
                rc |= game_json_set(e, "card", card_json(a->ch_card[i]));
                rc |= game_json_set(e, "target", card_json(a->ch_target[i]));
            }
        }
        break;
    }
    default:
        break;
    }
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* A card's id, or null for none: card_json() as text. */
static void card_text(struct game_text *w, const char *key, uint8_t c)
{
    game_text_key(w, key);
    game_text_str_or_null(w, c < SORC_NCARDS ? sorc_cards[c].id : NULL);
}

/* Writes *a as sorc_action_encode() builds it, in canonical text; see
 * sorc.h. Keys in byte order: betray, card, choice, choices, object,
 * sacrifice, sorcerer, target, to, type; each choice's are card, target. */
void sorc_action_write(struct game_text *w, const struct sorc_action *a)
{
    game_text_obj(w);
    switch (a->type) {
    case SORC_A_DEAL:
    case SORC_A_RECRUIT:
    case SORC_A_DISCARD:
    case SORC_A_CLEAR_MIND:
    case SORC_A_PROTECT:
    case SORC_A_STEAL:
    case SORC_A_TRACK:
    case SORC_A_COMBO_SPELL:
    case SORC_A_COMBO_EVENT:
    case SORC_A_COMBO_AMP:
        card_text(w, "card", a->card);
        break;
    case SORC_A_EQUIP:
        card_text(w, "card", a->card);
        card_text(w, "to", a->to);
        break;
    case SORC_A_MOVE_OBJECT:
        card_text(w, "object", a->object);
        card_text(w, "to", a->to);
        break;
    case SORC_A_DISCARD_OBJECT:
        card_text(w, "object", a->object);
        break;
    case SORC_A_PLACE_GRIMHOLD:
        card_text(w, "to", a->to);
        break;
    case SORC_A_ACTIVATE: {
        int ea = a->card < SORC_NCARDS ? sorc_cards[a->card].ea : 0;
        card_text(w, "card", a->card);
        if (ea == SORC_EA_FIND || ea == SORC_EA_UP_IN_SMOKE || ea == SORC_EA_STEAL_OBJECT) {
            card_text(w, "target", a->target);
        }
        if (ea == SORC_EA_STEAL_OBJECT) {
            card_text(w, "to", a->to);
        }
        break;
    }
    case SORC_A_DEFENSE:
        card_text(w, "card", a->card);
        card_text(w, "target", a->target);
        break;
    case SORC_A_ENCOUNTER:
        game_text_kstr(w, "choice", enc_names[a->choice % 3]);
        if (a->choice != SORC_ENC_KEEP) {
            card_text(w, "sorcerer", a->sorcerer);
        }
        break;
    case SORC_A_COMBO_DECLARE:
        card_text(w, "betray", a->betray);
        game_text_kbool(w, "sacrifice", a->sacrifice);
        break;
    case SORC_A_NEGATE:
        game_text_karr(w, "choices");
        for (int i = 0; i < a->nchoices; i++) {
            game_text_obj(w);
            card_text(w, "card", a->ch_card[i]);
            card_text(w, "target", a->ch_target[i]);
            game_text_end_obj(w);
        }
        game_text_end_arr(w);
        break;
    default:
        break;
    }
    game_text_kstr(w, "type", atype_names[a->type]);
    game_text_end_obj(w);
}

/* ---- Options ---- */

/* The options schema of game.h; new reference or NULL. See sorc.h. */
json_t *sorc__options_schema(void)
{
    return json_pack("{s:{s:s, s:[s,i,i], s:s}, s:{s:s, s:i, s:i, s:i}}", "merlinian_seat", "type",
                     "enum", "values", "random", 0, 1, "default", "random", "max_turns", "type",
                     "int", "min", 0, "max", 10000, "default", 100);
}

/* Parses options into *ret_seat (-1 random) and *ret_max_turns; GAME_OK or
 * GAME_E_BAD_OPTION. See sorc.h. */
int sorc__options_parse(const json_t *options, int nseats, int *ret_seat, int *ret_max_turns,
                        struct game_error *err)
{
    const char *key;
    const json_t *v;
    int seat = -1;
    int max = 100;

    if (nseats != 2) {
        return game_error_set(err, GAME_E_BAD_OPTION,
                              "R-sorcerers-3: Sorcerers is played by exactly 2 seats");
    }
    if (options && json_is_null(options)) {
        options = NULL;
    }
    if (options && !json_is_object(options)) {
        return game_error_set(err, GAME_E_BAD_OPTION, "R-sorcerers-3: options must be an object");
    }
    if (options) {
        json_object_foreach((json_t *)options, key, v) {
            if (strcmp(key, "merlinian_seat") == 0) {
                if (json_is_string(v) && strcmp(json_string_value(v), "random") == 0) {
                    seat = -1;
                } else if (json_is_integer(v) &&
                           (json_integer_value(v) == 0 || json_integer_value(v) == 1)) {
                    seat = (int)json_integer_value(v);
                } else {
                    return game_error_set(err, GAME_E_BAD_OPTION,
                                          "R-sorcerers-3: merlinian_seat is \"random\", 0 or 1");
                }
            } else if (strcmp(key, "max_turns") == 0) {
                if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                    json_integer_value(v) > 10000) {
                    return game_error_set(err, GAME_E_BAD_OPTION,
                                          "R-sorcerers-7: max_turns is an integer from 0 to "
                                          "10000");
                }
                max = (int)json_integer_value(v);
            } else {
                return game_error_set(err, GAME_E_BAD_OPTION, "R-sorcerers-3: unknown option %s",
                                      key);
            }
        }
    }
    *ret_seat = seat;
    *ret_max_turns = max;
    return GAME_OK;
}

/* ---- Legal list ---- */

/* The actions of `l` encoded in list order; new reference or NULL. See
 * sorc.h. */
json_t *sorc__legal_encode(const struct sorc_legal *l)
{
    json_t *arr = json_array();

    for (int i = 0; arr && i < l->n; i++) {
        if (game_json_push(arr, sorc_action_encode(&l->a[i])) < 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

/* Writes the actions of `l` as sorc__legal_encode() builds them; see
 * sorc.h. */
void sorc__legal_write(struct game_text *w, const struct sorc_legal *l)
{
    game_text_arr(w);
    for (int i = 0; i < l->n; i++) {
        sorc_action_write(w, &l->a[i]);
    }
    game_text_end_arr(w);
}

/* ---- Positions (tests) ---- */

static const char *const start_names[] = {"lore",           "recruit",   "recruit_mor", "event",
                                          "event_priority", "encounter", "duel",        "end"};
static const uint8_t start_stages[] = {
    SORC_S_LORE,           SORC_S_RECRUIT_MER, SORC_S_RECRUIT_MOR, SORC_S_EVENT_START,
    SORC_S_EVENT_PRIORITY, SORC_S_ENCOUNTER,   SORC_S_COMBO,       SORC_S_END};

/* Reads an array of card ids into `out` (at most SORC_NCARDS); -1 on error. */
static int card_list(const json_t *arr, uint8_t *out, uint8_t *ret_n, uint8_t *seen)
{
    size_t i;
    const json_t *v;

    if (!arr) {
        *ret_n = 0;
        return 0;
    }
    if (!json_is_array(arr) || json_array_size(arr) > SORC_NCARDS) {
        return -1;
    }
    json_array_foreach(arr, i, v) {
        uint8_t c = sorc__card_find(json_string_value(v));
        if (c == SORC_NONE || seen[c]) {
            return -1;
        }
        seen[c] = 1;
        out[i] = c;
    }
    *ret_n = (uint8_t)json_array_size(arr);
    return 0;
}

/* Builds a position from `pos`; see sorc.h for the format. */
int sorc_state_load(struct sorc_state *st, const json_t *pos, struct game_error *err)
{
    uint8_t seen[SORC_NCARDS];
    uint8_t seed[32];
    uint8_t tmp[SORC_NCARDS];
    uint8_t n;
    long v;
    const char *start;
    const char *rest;
    int si = -1;
    const json_t *play;
    const json_t *hands;
    size_t i;
    const json_t *e;

    memset(st, 0, sizeof(*st));
    memset(seen, 0, sizeof(seen));
    memset(seed, 0, sizeof(seed));
#define LOAD_FAIL(what)                                                                            \
    do {                                                                                           \
        game_error_set(err, GAME_E_BAD_ACTION, "position: bad %s", what);                          \
        return -1;                                                                                 \
    } while (0)
    if (!json_is_object(pos)) {
        LOAD_FAIL("object");
    }
    v = 1;
    game_json_int(pos, "seed", 0, 0x7fffffffL, &v);
    for (int k = 0; k < 32; k++) {
        /* Spread the small integer over all 32 bytes (a multiplicative hash). */
        uint64_t x = ((uint64_t)v + 1) * UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)k * 0x632BE5ABu;
        seed[k] = (uint8_t)((x ^ (x >> 29)) >> (8 * (k % 7)));
    }
    st->magic = SORC_MAGIC;
    game_rng_seed(&st->rng, seed);
    snprintf(st->names[0], SORC_NAME_MAX, "%s", "North");
    snprintf(st->names[1], SORC_NAME_MAX, "%s", "South");
    v = 0;
    game_json_int(pos, "merlinian_seat", 0, 1, &v);
    st->mer_seat = (uint8_t)v;
    v = 1;
    game_json_int(pos, "turn", 1, 10000, &v);
    st->turn = (uint16_t)v;
    v = 100;
    game_json_int(pos, "max_turns", 0, 10000, &v);
    st->max_turns = (uint16_t)v;
    v = 0;
    game_json_int(pos, "dave", 0, 100, &v);
    st->marker_dave = (uint8_t)v;
    v = 0;
    game_json_int(pos, "morgana", 0, 100, &v);
    st->marker_morgana = (uint8_t)v;
    for (int s = 0; s < 2; s++) {
        st->tracked[s] = SORC_NONE;
        memset(st->combo[s].slot, SORC_NONE, sizeof(st->combo[s].slot));
        st->combo[s].betray = st->combo[s].pick = st->combo[s].final = SORC_NONE;
        st->combo[s].def_card = st->combo[s].enc_sorc = SORC_NONE;
        st->combo[s].neg_target[0] = st->combo[s].neg_target[1] = SORC_NONE;
    }
    st->ea_card = SORC_NONE;
    play = json_object_get(pos, "play");
    if (play && !json_is_array(play)) {
        LOAD_FAIL("play");
    }
    json_array_foreach(play, i, e) {
        uint8_t c = sorc__card_find(game_json_str(e, "card"));
        uint8_t objs[SORC_NCARDS];
        uint8_t no;
        int ip;
        if (c == SORC_NONE || !sorc__is_sorcerer(c) || seen[c]) {
            LOAD_FAIL("play card");
        }
        seen[c] = 1;
        ip = sorc__enter_play(st, c);
        if (card_list(json_object_get(e, "objects"), objs, &no, seen) < 0 || no > SORC_MAX_OBJ) {
            LOAD_FAIL("objects");
        }
        for (int k = 0; k < no; k++) {
            if (sorc_cards[objs[k]].type != SORC_T_OBJECT) {
                LOAD_FAIL("object type");
            }
            sorc__attach(st, ip, objs[k]);
        }
    }
    hands = json_object_get(pos, "hands");
    if (card_list(json_object_get(hands, "mer"), st->hand[0], &st->nhand[0], seen) < 0 ||
        card_list(json_object_get(hands, "mor"), st->hand[1], &st->nhand[1], seen) < 0) {
        LOAD_FAIL("hands");
    }
    if (card_list(json_object_get(pos, "discard"), st->discard, &st->ndiscard, seen) < 0) {
        LOAD_FAIL("discard");
    }
    /* The deck is written top first; the state keeps the top last. */
    if (card_list(json_object_get(pos, "deck"), tmp, &n, seen) < 0) {
        LOAD_FAIL("deck");
    }
    rest = game_json_str(pos, "rest");
    if (!seen[SORC_GRIMHOLD]) {
        seen[SORC_GRIMHOLD] = 1;
        st->grim_loose = 1;
    }
    /* Unlisted cards go under the deck (or to the discard pile), list order. */
    for (int c = SORC_NCARDS - 1; c >= 0; c--) {
        if (!seen[c] &&
            !(rest && (strcmp(rest, "discard") == 0 || strcmp(rest, "hand_mer") == 0))) {
            st->deck[st->ndeck++] = (uint8_t)c;
        }
    }
    for (int c = 0; c < SORC_NCARDS; c++) {
        if (!seen[c] && rest && strcmp(rest, "discard") == 0) {
            sorc__discard(st, (uint8_t)c);
        }
        if (!seen[c] && rest && strcmp(rest, "hand_mer") == 0) {
            sorc__hand_add(st, SORC_MER, (uint8_t)c);
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        st->deck[st->ndeck++] = tmp[k];
    }
    json_array_foreach(json_object_get(pos, "gates"), i, e) {
        uint8_t c = sorc__card_find(json_string_value(e));
        if (c == SORC_NONE) {
            LOAD_FAIL("gates");
        }
        st->gate_done[c] = 1;
    }
    start = game_json_str(pos, "start");
    for (size_t k = 0; start && k < sizeof(start_names) / sizeof(start_names[0]); k++) {
        if (strcmp(start, start_names[k]) == 0) {
            si = (int)k;
        }
    }
    if (si < 0) {
        LOAD_FAIL("start");
    }
    st->stage = start_stages[si];
    if (st->stage == SORC_S_EVENT_PRIORITY) {
        const char *p = game_json_str(pos, "priority");
        st->priority = p && strcmp(p, "mor") == 0 ? SORC_MOR : SORC_MER;
        st->last_pass = json_is_true(json_object_get(pos, "last_pass"));
    }
    if (st->stage == SORC_S_COMBO) {
        const json_t *d = json_object_get(pos, "duel");
        for (int s = 0; s < 2; s++) {
            uint8_t c = sorc__card_find(json_string_value(json_array_get(d, (size_t)s)));
            if (c == SORC_NONE || sorc__find_inplay(st, c) < 0 || sorc__controller(c) != s) {
                LOAD_FAIL("duel");
            }
            st->combo[s].pick = st->combo[s].final = c;
        }
    }
    sorc__log(st, "position_loaded", "Position loaded.");
    sorc__run(st);
    const json_t *res = json_object_get(pos, "result");
    if (res) {
        /* A finished game: {"reason", "winner": "mer" | "mor" | null}. */
        const char *w = game_json_str(res, "winner");
        const char *why = game_json_str(res, "reason");
        int r = SORC_R_NONE;
        for (int k = SORC_R_DESTROY_MORGANA; why && k <= SORC_R_FORFEIT; k++) {
            r = strcmp(why, sorc__reason_name(k)) == 0 ? k : r;
        }
        if (r == SORC_R_NONE || (w && strcmp(w, "mer") != 0 && strcmp(w, "mor") != 0)) {
            LOAD_FAIL("result");
        }
        st->over = 1;
        st->act[0] = st->act[1] = 0;
        st->phase = SORC_P_OVER;
        st->winner_side = (int8_t)(!w ? -1 : strcmp(w, "mor") == 0 ? SORC_MOR : SORC_MER);
        st->reason = (uint8_t)r;
    }
    return sorc__check_invariants(st, err);
#undef LOAD_FAIL
}

static json_t *ids_json(const uint8_t *cards, int n)
{
    json_t *a = json_array();

    for (int i = 0; a && i < n; i++) {
        json_array_append_new(a, json_string(sorc_cards[cards[i]].id));
    }
    return a;
}

/* Dumps zones and counters of `st` in the position format; new reference. */
json_t *sorc_state_dump(const struct sorc_state *st)
{
    json_t *o = json_object();
    json_t *play = json_array();
    json_t *gates = json_array();
    uint8_t deck[SORC_NCARDS];

    for (int i = 0; i < st->ndeck; i++) {
        deck[i] = st->deck[st->ndeck - 1 - i];
    }
    for (int i = 0; i < st->ninplay; i++) {
        json_array_append_new(play, json_pack("{s:s, s:o}", "card",
                                              sorc_cards[st->inplay[i].card].id, "objects",
                                              ids_json(st->inplay[i].obj, st->inplay[i].nobj)));
    }
    for (int c = 0; c < SORC_NCARDS; c++) {
        if (st->gate_done[c]) {
            json_array_append_new(gates, json_string(sorc_cards[c].id));
        }
    }
    game_json_set(o, "merlinian_seat", json_integer(st->mer_seat));
    game_json_set(o, "turn", json_integer(st->turn));
    game_json_set(o, "max_turns", json_integer(st->max_turns));
    game_json_set(o, "dave", json_integer(st->marker_dave));
    game_json_set(o, "morgana", json_integer(st->marker_morgana));
    game_json_set(o, "phase", json_string(sorc__phase_name(st->phase)));
    game_json_set(o, "play", play);
    game_json_set(o, "hands",
                  json_pack("{s:o, s:o}", "mer", ids_json(st->hand[0], st->nhand[0]), "mor",
                            ids_json(st->hand[1], st->nhand[1])));
    game_json_set(o, "discard", ids_json(st->discard, st->ndiscard));
    game_json_set(o, "deck", ids_json(deck, st->ndeck));
    game_json_set(o, "gates", gates);
    if (st->over) {
        const char *w = st->winner_side < 0 ? NULL : st->winner_side == SORC_MOR ? "mor" : "mer";
        game_json_set(
            o, "result",
            json_pack("{s:s, s:s?}", "reason", sorc__reason_name(st->reason), "winner", w));
    }
    return o;
}
