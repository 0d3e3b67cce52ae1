/* SPDX-License-Identifier: MIT */
/*
 * arcana_codec.c - JSON at the edge of the Res Arcana core: the options,
 * the strict action decoder (R-arcana-0.2: an action holds only the fields
 * its type defines), the encoder the legal list uses and its writer as
 * canonical text, and the test positions the scenario tests load
 * (docs/rules/arcana.md 0.4). The rules never see JSON.
 */
#include <string.h>

#include "arcana.h"
#include "json_util.h"

#define RULE "R-arcana-0.2"

static const char *const setup_names[3] = {"standard", "first_game", "draft"};

json_t *arc__options_schema(void)
{
    return json_pack("{s:{s:s, s:[b,b], s:b}, s:{s:s, s:[s,s,s], s:s}}", "duel", "type", "enum",
                     "values", 0, 1, "default", 0, "setup", "type", "enum", "values", "standard",
                     "first_game", "draft", "default", "standard");
}

int arc__options_decode(const json_t *options, int nseats, int *ret_setup, int *ret_duel,
                        struct game_error *err)
{
    const char *key;
    const json_t *v;
    int setup = 0;
    int duel = 0;
    if (nseats < 2 || nseats > ARC_MAX_SEATS) {
        return game_error_set(err, GAME_E_BAD_OPTION,
                              "R-arcana-2: Res Arcana is played by 2 to 4 seats");
    }
    if (options && json_is_null(options)) {
        options = NULL;
    }
    if (options && !json_is_object(options)) {
        return game_error_set(err, GAME_E_BAD_OPTION, "R-arcana-2: options must be an object");
    }
    if (options) {
        json_object_foreach((json_t *)options, key, v) {
            if (strcmp(key, "setup") == 0) {
                int found = -1;
                for (int i = 0; i < 3 && json_is_string(v); i++) {
                    if (strcmp(json_string_value(v), setup_names[i]) == 0) {
                        found = i;
                    }
                }
                if (found < 0) {
                    return game_error_set(err, GAME_E_BAD_OPTION,
                                          "R-arcana-2: setup is \"standard\", \"first_game\" or "
                                          "\"draft\"");
                }
                setup = found;
            } else if (strcmp(key, "duel") == 0) {
                if (!json_is_boolean(v)) {
                    return game_error_set(err, GAME_E_BAD_OPTION,
                                          "R-arcana-10.2: duel is true or false");
                }
                duel = json_is_true(v);
            } else {
                return game_error_set(err, GAME_E_BAD_OPTION,
                                      "R-arcana-2: the options are \"setup\" and \"duel\"");
            }
        }
    }
    if (duel && nseats != 2) {
        return game_error_set(err, GAME_E_BAD_OPTION,
                              "R-arcana-10.2: a duel is played by exactly 2 seats");
    }
    *ret_setup = setup;
    *ret_duel = duel;
    return GAME_OK;
}

static const char *const action_name[ARC_A_COUNT] = {
    [ARC_A_PLACE] = "place",     [ARC_A_MONUMENT] = "monument", [ARC_A_POP] = "pop",
    [ARC_A_DISCARD] = "discard", [ARC_A_POWER] = "power",       [ARC_A_PASS] = "pass",
    [ARC_A_PAY] = "pay",         [ARC_A_SAME] = "same",         [ARC_A_MORE] = "more",
    [ARC_A_DONE] = "done",       [ARC_A_GAIN] = "gain",         [ARC_A_TARGET] = "target",
    [ARC_A_RIVAL] = "rival",     [ARC_A_DECK] = "deck",         [ARC_A_ORDER] = "order",
    [ARC_A_RESPOND] = "respond", [ARC_A_LOSE] = "lose",         [ARC_A_STATUE] = "statue",
    [ARC_A_ITEM] = "item",       [ARC_A_TAKE] = "take",         [ARC_A_LEAVE] = "leave",
    [ARC_A_FORGE] = "forge",     [ARC_A_MAGE] = "mage",         [ARC_A_DRAFT] = "draft",
    [ARC_A_FIRST] = "first",
};

static const char *const keys_none[] = {"type", NULL};
static const char *const keys_card[] = {"type", "card", NULL};
static const char *const keys_power[] = {"type", "card", "power", NULL};
static const char *const keys_ess[] = {"type", "essence", NULL};
static const char *const keys_seat[] = {"type", "seat", NULL};
static const char *const keys_deck[] = {"type", "deck", NULL};
static const char *const keys_respond[] = {"type", "with", "card", "power", NULL};
static const char *const keys_with[] = {"type", "with", NULL};
static const char *const keys_use[] = {"type", "use", NULL};

static const char *const *const action_keys[ARC_A_COUNT] = {
    [ARC_A_PLACE] = keys_card,      [ARC_A_MONUMENT] = keys_card, [ARC_A_POP] = keys_card,
    [ARC_A_DISCARD] = keys_card,    [ARC_A_POWER] = keys_power,   [ARC_A_PASS] = keys_none,
    [ARC_A_PAY] = keys_ess,         [ARC_A_SAME] = keys_ess,      [ARC_A_MORE] = keys_none,
    [ARC_A_DONE] = keys_none,       [ARC_A_GAIN] = keys_ess,      [ARC_A_TARGET] = keys_card,
    [ARC_A_RIVAL] = keys_seat,      [ARC_A_DECK] = keys_deck,     [ARC_A_ORDER] = keys_card,
    [ARC_A_RESPOND] = keys_respond, [ARC_A_LOSE] = keys_ess,      [ARC_A_STATUE] = keys_use,
    [ARC_A_ITEM] = keys_card,       [ARC_A_TAKE] = keys_none,     [ARC_A_LEAVE] = keys_none,
    [ARC_A_FORGE] = keys_with,      [ARC_A_MAGE] = keys_card,     [ARC_A_DRAFT] = keys_card,
    [ARC_A_FIRST] = keys_seat,
};

static int ess_find(const char *s)
{
    for (int e = 0; s && e < ARC_NESS; e++) {
        if (strcmp(s, arc_ess_name[e]) == 0) {
            return e;
        }
    }
    return -1;
}

int arc__action_decode(const json_t *j, struct arc_action *ret, struct game_error *err)
{
    struct arc_action a = {0, 0, 0, 0};
    if (!json_is_object(j)) {
        return game_error_set(err, GAME_E_BAD_ACTION, RULE ": an action is a JSON object");
    }
    const char *type = game_json_str(j, "type");
    for (int i = 1; type && i < ARC_A_COUNT; i++) {
        if (type[0] == action_name[i][0] && strcmp(type, action_name[i]) == 0) {
            a.type = (int8_t)i;
            break;
        }
    }
    if (a.type == ARC_A_NONE) {
        return game_error_set(err, GAME_E_BAD_ACTION,
                              RULE ": field \"type\" must name an action (see section 0)");
    }
    type = action_name[a.type];
    if (game_json_only_keys(j, action_keys[a.type], RULE, type, err) < 0) {
        return GAME_E_BAD_ACTION;
    }
    const char *s;
    long n;
    switch (a.type) {
    case ARC_A_PLACE:
    case ARC_A_MONUMENT:
    case ARC_A_POP:
    case ARC_A_DISCARD:
    case ARC_A_POWER:
    case ARC_A_TARGET:
    case ARC_A_ORDER:
    case ARC_A_ITEM:
    case ARC_A_MAGE:
    case ARC_A_DRAFT: {
        s = game_json_str(j, "card");
        int card = arc__card_find(s);
        if (a.type == ARC_A_MONUMENT && s && strcmp(s, "deck") == 0) {
            card = ARC_DECK_ARG;
        } else if (a.type == ARC_A_TARGET && s && strcmp(s, "none") == 0) {
            card = ARC_NONE_ARG;
        }
        if (card == -1 && !(a.type == ARC_A_TARGET && s && strcmp(s, "none") == 0)) {
            return game_json_bad_field(err, RULE, type, "card", "a card id");
        }
        a.a = (int8_t)card;
        if (a.type == ARC_A_POWER) {
            if (game_json_int(j, "power", 0, 1, &n) < 0) {
                return game_json_bad_field(err, RULE, type, "power", "0 or 1");
            }
            a.b = (int8_t)n;
        }
        break;
    }
    case ARC_A_PAY:
    case ARC_A_GAIN:
    case ARC_A_LOSE:
    case ARC_A_SAME: {
        s = game_json_str(j, "essence");
        int e = ess_find(s);
        if (a.type == ARC_A_SAME && s && strcmp(s, "none") == 0) {
            e = ARC_NONE_ARG;
        } else if (e < 0) {
            return game_json_bad_field(err, RULE, type, "essence", "an essence name");
        }
        a.a = (int8_t)e;
        break;
    }
    case ARC_A_RIVAL:
    case ARC_A_FIRST:
        if (game_json_int(j, "seat", 0, ARC_MAX_SEATS - 1, &n) < 0) {
            return game_json_bad_field(err, RULE, type, "seat", "a seat number");
        }
        a.a = (int8_t)n;
        break;
    case ARC_A_DECK:
        s = game_json_str(j, "deck");
        if (!s || (strcmp(s, "own") != 0 && strcmp(s, "monument") != 0)) {
            return game_json_bad_field(err, RULE, type, "deck", "\"own\" or \"monument\"");
        }
        a.a = strcmp(s, "own") == 0 ? 0 : 1;
        break;
    case ARC_A_RESPOND: {
        s = game_json_str(j, "with");
        bool has_card = json_object_get(j, "card") != NULL;
        bool has_power = json_object_get(j, "power") != NULL;
        if (s && (strcmp(s, "lose") == 0 || strcmp(s, "ignore") == 0) && !has_card && !has_power) {
            a.a = strcmp(s, "lose") == 0 ? 0 : 1;
        } else if (s && strcmp(s, "react") == 0) {
            int card = arc__card_find(game_json_str(j, "card"));
            if (card < 0) {
                return game_json_bad_field(err, RULE, type, "card", "a card id");
            }
            if (game_json_int(j, "power", 0, 1, &n) < 0) {
                return game_json_bad_field(err, RULE, type, "power", "0 or 1");
            }
            a.a = 2;
            a.b = (int8_t)n;
            a.c = (int8_t)card;
        } else {
            return game_json_bad_field(err, RULE, type, "with",
                                       "\"lose\", \"ignore\" or \"react\" (with card and power)");
        }
        break;
    }
    case ARC_A_STATUE: {
        const json_t *u = json_object_get(j, "use");
        if (!json_is_boolean(u)) {
            return game_json_bad_field(err, RULE, type, "use", "true or false");
        }
        a.a = json_is_true(u) ? 1 : 0;
        break;
    }
    case ARC_A_FORGE:
        s = game_json_str(j, "with");
        if (!s || (strcmp(s, "pay") != 0 && strcmp(s, "turn") != 0)) {
            return game_json_bad_field(err, RULE, type, "with", "\"pay\" or \"turn\"");
        }
        a.a = strcmp(s, "pay") == 0 ? 0 : 1;
        break;
    default:
        break;
    }
    *ret = a;
    return GAME_OK;
}

json_t *arc__action_encode(const struct arc_action *a)
{
    const char *type = action_name[a->type];
    switch (a->type) {
    case ARC_A_PLACE:
    case ARC_A_POP:
    case ARC_A_DISCARD:
    case ARC_A_ORDER:
    case ARC_A_ITEM:
    case ARC_A_MAGE:
    case ARC_A_DRAFT:
        return json_pack("{s:s, s:s}", "type", type, "card", arc_cards[a->a].id);
    case ARC_A_MONUMENT:
        return json_pack("{s:s, s:s}", "type", type, "card",
                         a->a == ARC_DECK_ARG ? "deck" : arc_cards[a->a].id);
    case ARC_A_TARGET:
        return json_pack("{s:s, s:s}", "type", type, "card",
                         a->a == ARC_NONE_ARG ? "none" : arc_cards[a->a].id);
    case ARC_A_POWER:
        return json_pack("{s:s, s:s, s:i}", "type", type, "card", arc_cards[a->a].id, "power",
                         a->b);
    case ARC_A_PAY:
    case ARC_A_GAIN:
    case ARC_A_LOSE:
        return json_pack("{s:s, s:s}", "type", type, "essence", arc_ess_name[a->a]);
    case ARC_A_SAME:
        return json_pack("{s:s, s:s}", "type", type, "essence",
                         a->a == ARC_NONE_ARG ? "none" : arc_ess_name[a->a]);
    case ARC_A_RIVAL:
    case ARC_A_FIRST:
        return json_pack("{s:s, s:i}", "type", type, "seat", a->a);
    case ARC_A_DECK:
        return json_pack("{s:s, s:s}", "type", type, "deck", a->a == 0 ? "own" : "monument");
    case ARC_A_RESPOND:
        if (a->a == 2) {
            return json_pack("{s:s, s:s, s:s, s:i}", "type", type, "with", "react", "card",
                             arc_cards[a->c].id, "power", a->b);
        }
        return json_pack("{s:s, s:s}", "type", type, "with", a->a == 0 ? "lose" : "ignore");
    case ARC_A_STATUE:
        return json_pack("{s:s, s:b}", "type", type, "use", a->a);
    case ARC_A_FORGE:
        return json_pack("{s:s, s:s}", "type", type, "with", a->a == 0 ? "pay" : "turn");
    default:
        return json_pack("{s:s}", "type", type);
    }
}

/* Writes the object arc__action_encode() builds for *a, in canonical
 * text. Keys in byte order: card, deck, essence, power, seat, type, use,
 * with; so "use" and "with" come after "type". */
void arc__action_write(struct game_text *w, const struct arc_action *a)
{
    const char *with = NULL;
    int use = -1;

    game_text_obj(w);
    switch (a->type) {
    case ARC_A_PLACE:
    case ARC_A_POP:
    case ARC_A_DISCARD:
    case ARC_A_ORDER:
    case ARC_A_ITEM:
    case ARC_A_MAGE:
    case ARC_A_DRAFT:
        game_text_kstr(w, "card", arc_cards[a->a].id);
        break;
    case ARC_A_MONUMENT:
        game_text_kstr(w, "card", a->a == ARC_DECK_ARG ? "deck" : arc_cards[a->a].id);
        break;
    case ARC_A_TARGET:
        game_text_kstr(w, "card", a->a == ARC_NONE_ARG ? "none" : arc_cards[a->a].id);
        break;
    case ARC_A_POWER:
        game_text_kstr(w, "card", arc_cards[a->a].id);
        game_text_kint(w, "power", a->b);
        break;
    case ARC_A_PAY:
    case ARC_A_GAIN:
    case ARC_A_LOSE:
        game_text_kstr(w, "essence", arc_ess_name[a->a]);
        break;
    case ARC_A_SAME:
        game_text_kstr(w, "essence", a->a == ARC_NONE_ARG ? "none" : arc_ess_name[a->a]);
        break;
    case ARC_A_RIVAL:
    case ARC_A_FIRST:
        game_text_kint(w, "seat", a->a);
        break;
    case ARC_A_DECK:
        game_text_kstr(w, "deck", a->a == 0 ? "own" : "monument");
        break;
    case ARC_A_RESPOND:
        if (a->a == 2) {
            game_text_kstr(w, "card", arc_cards[a->c].id);
            game_text_kint(w, "power", a->b);
            with = "react";
        } else {
            with = a->a == 0 ? "lose" : "ignore";
        }
        break;
    case ARC_A_STATUE:
        use = a->a != 0;
        break;
    case ARC_A_FORGE:
        with = a->a == 0 ? "pay" : "turn";
        break;
    default:
        break;
    }
    game_text_kstr(w, "type", action_name[a->type]);
    if (use >= 0) {
        game_text_kbool(w, "use", use);
    }
    if (with) {
        game_text_kstr(w, "with", with);
    }
    game_text_end_obj(w);
}

/* ---- Test positions (docs/rules/arcana.md 0.4) ---- */

static int load_bad(struct game_error *err, const char *what)
{
    return game_error_set(err, GAME_E_BAD_ACTION, "position: %s", what);
}

static int load_ess(const json_t *obj, int32_t *out)
{
    const char *key;
    const json_t *v;
    memset(out, 0, sizeof(int32_t) * ARC_NESS);
    if (!obj) {
        return 0;
    }
    if (!json_is_object(obj)) {
        return -1;
    }
    json_object_foreach((json_t *)obj, key, v) {
        int e = ess_find(key);
        if (e < 0 || !json_is_integer(v)) {
            return -1;
        }
        out[e] = (int32_t)json_integer_value(v);
    }
    return 0;
}

/* Puts the cards of `arr` at loc/owner; `top_first` lists a deck top first. */
static int load_list(struct arc_core *c, const json_t *arr, int loc, int owner, bool top_first)
{
    if (!arr) {
        return 0;
    }
    size_t n = json_array_size(arr);
    if (!json_is_array(arr)) {
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = top_first ? n - 1 - k : k;
        int card = arc__card_find(json_string_value(json_array_get(arr, i)));
        if (card < 0) {
            return -1;
        }
        c->card[card].loc = (uint8_t)loc;
        c->card[card].owner = (int8_t)owner;
        c->card[card].seq = ++c->seq;
        c->card[card].turned = 0;
        memset(c->card[card].ess, 0, sizeof(c->card[card].ess));
    }
    return 0;
}

/* A component in play: a card id or {"card","turned","essences"}. */
static int load_component(struct arc_core *c, const json_t *j, int seat)
{
    const json_t *id = json_is_object(j) ? json_object_get(j, "card") : j;
    int card = arc__card_find(json_string_value(id));
    if (card < 0) {
        return -1;
    }
    struct arc_cardst *k = &c->card[card];
    k->loc = ARC_L_PLAY;
    k->owner = (int8_t)seat;
    k->seq = ++c->seq;
    k->turned = json_is_object(j) && json_is_true(json_object_get(j, "turned"));
    if (json_is_object(j) && load_ess(json_object_get(j, "essences"), k->ess) < 0) {
        return -1;
    }
    if (arc_cards[card].kind == ARC_K_MAGE) {
        c->seat[seat].mage = (int8_t)card;
    } else if (arc_cards[card].kind == ARC_K_ITEM) {
        c->seat[seat].item = (int8_t)card;
    }
    return card;
}

int arc__state_load(const json_t *pos, struct arc_state *st, struct game_error *err)
{
    struct arc_core *c = &st->c;
    const json_t *seats = json_object_get(pos, "seats");
    if (!json_is_object(pos) || !json_is_array(seats) || json_array_size(seats) != c->nseats) {
        return load_bad(err, "needs one entry of \"seats\" per seat");
    }
    for (int i = 0; i < ARC_NCARDS; i++) {
        c->card[i].loc = ARC_L_OUT;
        c->card[i].owner = -1;
        c->card[i].turned = 0;
        memset(c->card[i].ess, 0, sizeof(c->card[i].ess));
    }
    long v;
    c->round = game_json_int(pos, "round", 1, ARC_ROUND_LIMIT, &v) == 0 ? (int16_t)v : 1;
    c->first = game_json_int(pos, "first", 0, c->nseats - 1, &v) == 0 ? (int8_t)v : 0;
    c->first_at_start = c->first;
    c->first_passed = json_is_true(json_object_get(pos, "first_passed"));
    for (int s = 0; s < c->nseats; s++) {
        const json_t *p = json_array_get(seats, (size_t)s);
        struct arc_seat *q = &c->seat[s];
        arc__reset_seat(q);
        if (load_ess(json_object_get(p, "pool"), q->pool) < 0) {
            return load_bad(err, "bad pool");
        }
        q->passed = json_is_true(json_object_get(p, "passed"));
        if (load_list(c, json_object_get(p, "hand"), ARC_L_HAND, s, false) < 0 ||
            load_list(c, json_object_get(p, "deck"), ARC_L_DECK, s, true) < 0 ||
            load_list(c, json_object_get(p, "discard"), ARC_L_DISCARD, s, false) < 0) {
            return load_bad(err, "bad card list");
        }
        const char *keys[] = {"mage", "item"};
        for (int k = 0; k < 2; k++) {
            const json_t *m = json_object_get(p, keys[k]);
            if (m && load_component(c, m, s) < 0) {
                return load_bad(err, "bad mage or item");
            }
        }
        const json_t *play = json_object_get(p, "play");
        for (size_t i = 0; i < json_array_size(play); i++) {
            if (load_component(c, json_array_get(play, i), s) < 0) {
                return load_bad(err, "bad component in play");
            }
        }
    }
    if (load_list(c, json_object_get(pos, "display"), ARC_L_DISPLAY, -1, false) < 0 ||
        load_list(c, json_object_get(pos, "monument_deck"), ARC_L_MDECK, -1, true) < 0) {
        return load_bad(err, "bad monuments");
    }
    const json_t *pops = json_object_get(pos, "pops");
    for (int i = ARC_FIRST_POP; i < ARC_NCARDS; i++) {
        if (c->card[i].loc == ARC_L_OUT) {
            c->card[i].loc = ARC_L_UNUSED;
        }
    }
    for (size_t i = 0; i < json_array_size(pops); i++) {
        int card = arc__card_find(json_string_value(json_array_get(pops, i)));
        if (card < ARC_FIRST_POP) {
            return load_bad(err, "bad place of power");
        }
        if (c->card[card].loc != ARC_L_PLAY) {
            c->card[card].loc = ARC_L_BOARD;
            c->card[card].seq = ++c->seq;
        }
    }
    for (int i = ARC_FIRST_ITEM; i < ARC_FIRST_MON; i++) {
        if (c->card[i].loc == ARC_L_OUT) {
            c->card[i].loc = ARC_L_SUPPLY;
            c->card[i].seq = ++c->seq;
        }
    }
    arc__reset_res(c);
    const json_t *match = json_object_get(pos, "match");
    if (match && c->match.on) {
        long g;
        const json_t *score = json_object_get(match, "score");
        const json_t *drafted = json_object_get(match, "drafted");
        if (game_json_int(match, "game", 1, 3, &g) == 0) {
            c->match.game = (uint8_t)g;
            c->match.ngames = (uint8_t)(g - 1);
        }
        for (int s = 0; s < 2; s++) {
            c->match.score[s] = (uint8_t)json_integer_value(json_array_get(score, (size_t)s));
            const json_t *list = json_array_get(drafted, (size_t)s);
            for (size_t i = 0; i < json_array_size(list); i++) {
                int card = arc__card_find(json_string_value(json_array_get(list, i)));
                if (card < 0 || card >= ARC_NART) {
                    return load_bad(err, "bad drafted card");
                }
                c->match.drafted[card] = (int8_t)(s + 1);
            }
        }
    }
    const char *phase = game_json_str(pos, "phase");
    c->cur = game_json_int(pos, "current", 0, c->nseats - 1, &v) == 0 ? (int8_t)v : c->first;
    if (phase && strcmp(phase, "collect") == 0) {
        arc__begin_collect(c);
        return GAME_OK;
    }
    c->phase = ARC_PH_ACTIONS;
    c->dec = ARC_D_TOP;
    c->dec_seat = c->cur;
    return GAME_OK;
}
