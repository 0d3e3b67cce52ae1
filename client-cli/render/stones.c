/* SPDX-License-Identifier: MIT */
/*
 * stones.c - the terminal renderer of Sorcerer & Stones for `conclave`. It
 * draws a view (Alchemy Zone grid, tiles and Taoists, supply line, artifacts,
 * Element Zone with Spirits and rune stacks, players, the pending decision,
 * the log and the result) and turns short typed commands into action
 * objects, whole or as one step of a cast chosen step by step (the card
 * being chosen is read from the view's "pending"). It only reads views: it
 * never decides a rule, the server does.
 */
#include "render.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lang.h"

/* ---- Drawing ---- */

static const char *stone_sgr(char c)
{
    switch (c) {
    case 'Y':
        return "1;33";
    case 'G':
        return "1;32";
    case 'B':
        return "1;34";
    case 'R':
        return "1;31";
    case 'N':
        /* Bright black (grey): distinct from both yellows on 16 colours. */
        return "1;30";
    default:
        return "2";
    }
}

static void put_stone(FILE *out, const struct render_style *st, char c)
{
    char a[16];
    char b[16];
    fprintf(out, "%s%c%s", render_sgr(st, stone_sgr(c), a), c, render_sgr(st, "0", b));
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static long num(const json_t *o, const char *key)
{
    return (long)json_integer_value(json_object_get(o, key));
}

/* A word of the view (a colour, an element, a variant, a phase) in the
 * reader's language; another word as it is. */
static const char *word(const char *id)
{
    static const char *const words[] = {
        N_("yellow"),       N_("green"),  N_("blue"),        N_("red"),          N_("brown"),
        N_("Metal"),        N_("Wood"),   N_("Water"),       N_("Fire"),         N_("Earth"),
        N_("standard"),     N_("novice"), N_("cooperative"), N_("place_taoist"), N_("cast"),
        N_("choose_stone"), N_("offer"),  N_("move"),        N_("craft"),        N_("pay"),
        N_("reward"),       N_("over"),
    };

    const char *w = CLI_TR_AMONG(id, words);
    return w ? w : id ? id : "";
}

static void draw_board(FILE *out, const json_t *view, const struct render_style *st)
{
    const json_t *board = json_object_get(view, "board");
    const json_t *grid = json_object_get(board, "grid");
    char a[16];
    char b[16];
    fprintf(out, _("%sAlchemy Zone%s\n"), render_sgr(st, "1", a), render_sgr(st, "0", b));
    size_t ncols =
        grid && json_array_size(grid) ? strlen(json_string_value(json_array_get(grid, 0))) : 0;
    fprintf(out, "     ");
    for (size_t c = 0; c < ncols; c++) {
        fprintf(out, "%zu ", c);
    }
    fprintf(out, "\n");
    size_t i;
    json_t *row;
    json_array_foreach(grid, i, row) {
        const char *s = json_string_value(row);
        fprintf(out, "  %zu  ", i);
        for (size_t c = 0; s && s[c]; c++) {
            if (s[c] == ' ') {
                fprintf(out, "  ");
            } else {
                put_stone(out, st, s[c]);
                fprintf(out, " ");
            }
        }
        fprintf(out, "\n");
    }
    json_t *tile;
    json_array_foreach(json_object_get(board, "tiles"), i, tile) {
        const json_t *pos = json_object_get(tile, "pos");
        fprintf(out, _("  %s (%d) at (%lld,%lld): "), str(tile, "id"), (int)i + 1,
                (long long)json_integer_value(json_array_get(pos, 0)),
                (long long)json_integer_value(json_array_get(pos, 1)));
        size_t k;
        json_t *s;
        json_array_foreach(json_object_get(tile, "stones"), k, s) {
            put_stone(out, st, json_is_string(s) ? json_string_value(s)[0] : '.');
        }
        json_t *t;
        json_array_foreach(json_object_get(tile, "taoists"), k, t) {
            fprintf(out, " [%s]", word(json_string_value(t)));
        }
        fprintf(out, "\n");
    }
    fprintf(out, _("Supply (front first): "));
    json_t *s;
    json_array_foreach(json_object_get(view, "supply"), i, s) {
        put_stone(out, st, json_string_value(s) ? json_string_value(s)[0] : '?');
    }
    fprintf(out, "\n");
}

static void draw_artifact(FILE *out, const json_t *art, const struct render_style *st)
{
    char name[128];
    /* The name's column by its width on the screen (it may be Chinese). */
    fprintf(out, "  %s %s ", str(art, "id"),
            cli_pad(name, sizeof(name),
                    render_card_name("stones", str(art, "id"), str(art, "name")), 20));
    size_t k;
    json_t *c;
    json_array_foreach(json_object_get(art, "cost"), k, c) {
        put_stone(out, st, json_string_value(c)[0]);
    }
    fprintf(out, _("  %ld pts"), num(art, "points"));
    json_array_foreach(json_object_get(art, "symbols"), k, c) {
        fprintf(out, "%s%s", k ? ", " : "  [", word(json_string_value(c)));
    }
    fprintf(out, "%s\n", json_array_size(json_object_get(art, "symbols")) ? "]" : "");
}

static void draw_artifacts(FILE *out, const json_t *view, const struct render_style *st)
{
    const json_t *arts = json_object_get(view, "artifacts");
    fprintf(out, _("Artifacts (row, then deck top; %ld more below):\n"), num(arts, "deck_below"));
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(arts, "row"), i, a) {
        draw_artifact(out, a, st);
    }
    if (json_is_object(json_object_get(arts, "deck_top"))) {
        draw_artifact(out, json_object_get(arts, "deck_top"), st);
    }
    if (json_object_get(arts, "completed")) {
        fprintf(out, _("  team completed %zu, %ld stone(s) on the leftmost card\n"),
                json_array_size(json_object_get(arts, "completed")), num(arts, "placed"));
    }
}

static void draw_element(FILE *out, const json_t *view, const struct render_style *st)
{
    const json_t *el = json_object_get(view, "element");
    if (!json_is_object(el)) { /* null outside the standard game */
        return;
    }
    fprintf(out, _("Element Zone (lower case: rune sites; digits: Spirits)\n"));
    fprintf(out, "     0 1 2 3 4 5\n");
    const json_t *players = json_object_get(view, "players");
    size_t r;
    json_t *row;
    json_array_foreach(json_object_get(el, "map"), r, row) {
        const char *s = json_string_value(row);
        fprintf(out, "  %zu  ", r);
        for (size_t c = 0; s && s[c]; c++) {
            int who = -1;
            size_t p;
            json_t *pl;
            json_array_foreach(players, p, pl) {
                const json_t *sp = json_object_get(pl, "spirit");
                if (json_integer_value(json_array_get(sp, 0)) == (json_int_t)r &&
                    json_integer_value(json_array_get(sp, 1)) == (json_int_t)c) {
                    who = (int)num(pl, "seat");
                }
            }
            if (who >= 0) {
                char a[16];
                char b[16];
                fprintf(out, "%s%d%s ", render_sgr(st, "7", a), who, render_sgr(st, "0", b));
            } else if (islower((unsigned char)s[c])) {
                fprintf(out, "%c ", s[c]);
            } else {
                put_stone(out, st, s[c]);
                fprintf(out, " ");
            }
        }
        fprintf(out, "\n");
    }
    fprintf(out, _("Rune stacks:"));
    const char *key;
    json_t *stack;
    json_object_foreach((json_t *)json_object_get(el, "stacks"), key, stack) {
        fprintf(out, " %s[", word(key));
        size_t i;
        json_t *v;
        json_array_foreach(stack, i, v) {
            fprintf(out, "%s%lld", i ? " " : "", (long long)json_integer_value(v));
        }
        fprintf(out, "]");
    }
    fprintf(out, _("\nQi supply %ld; objectives"), num(view, "qi_supply"));
    size_t i;
    json_t *o;
    json_array_foreach(json_object_get(view, "objectives"), i, o) {
        fprintf(out, " %s", json_string_value(o));
    }
    fprintf(out, "\n");
}

static void draw_players(FILE *out, const json_t *view, int seat, const struct render_style *st)
{
    size_t i;
    json_t *pl;
    char a[16];
    char b[16];
    json_array_foreach(json_object_get(view, "players"), i, pl) {
        int mine = num(pl, "seat") == seat;
        fprintf(out, _("%s%s%s (%s, seat %ld)%s Taoist %s"), mine ? "* " : "  ",
                render_sgr(st, "1", a), str(pl, "name"), word(str(pl, "colour")), num(pl, "seat"),
                render_sgr(st, "0", b), str(pl, "taoist"));
        if (json_object_get(pl, "spirit")) {
            const json_t *sp = json_object_get(pl, "spirit");
            fprintf(out, _(", Spirit e(%lld,%lld), Qi %ld"),
                    (long long)json_integer_value(json_array_get(sp, 0)),
                    (long long)json_integer_value(json_array_get(sp, 1)), num(pl, "qi"));
            if (num(pl, "excess")) {
                fprintf(out, "+%ld", num(pl, "excess"));
            }
            fprintf(out, _(", score %ld"), num(pl, "score"));
        }
        fprintf(out, _("\n    cards:"));
        size_t k;
        json_t *c;
        json_array_foreach(json_object_get(pl, "row"), k, c) {
            fprintf(out, " %s", json_string_value(c));
        }
        fprintf(out, _("  (deck %ld)"), num(pl, "deck"));
        const json_t *res = json_object_get(pl, "reservoir");
        if (res) {
            fprintf(out, _("  reservoir "));
            const char *key;
            json_t *v;
            json_object_foreach((json_t *)res, key, v) {
                for (json_int_t n = 0; n < json_integer_value(v); n++) {
                    put_stone(out, st, key[0]);
                }
            }
        }
        json_array_foreach(json_object_get(pl, "runes"), k, c) {
            fprintf(out, "%s%s %lld", k ? ", " : _("  runes "), word(str(c, "element")),
                    (long long)json_integer_value(json_object_get(c, "value")));
        }
        json_array_foreach(json_object_get(pl, "crafted"), k, c) {
            fprintf(out, "%s%s", k ? " " : _("  crafted "), json_string_value(c));
        }
        fprintf(out, "\n");
    }
}

static void draw(FILE *out, const json_t *view, int seat, const struct render_style *st)
{
    char a[16];
    char b[16];
    const json_t *turn = json_object_get(view, "turn");
    fprintf(out, _("%sSorcerer & Stones%s (%s) - %s's turn, phase %s%s\n"), render_sgr(st, "1", a),
            render_sgr(st, "0", b), word(str(view, "variant")), word(str(turn, "colour")),
            word(str(view, "phase")),
            json_is_true(json_object_get(turn, "final_round")) ? _(" - FINAL ROUND") : "");
    draw_board(out, view, st);
    draw_artifacts(out, view, st);
    draw_element(out, view, st);
    draw_players(out, view, seat, st);
    const json_t *pending = json_object_get(view, "pending");
    if (json_object_size(pending) > 0) {
        char *t = json_dumps(pending, JSON_COMPACT);
        fprintf(out, _("Decision: %s\n"), t ? t : "");
        free(t);
    }
    const json_t *you = json_object_get(view, "you");
    if (you) {
        fprintf(out, _("You are seat %ld"), num(you, "seat"));
        size_t i;
        json_t *c;
        json_array_foreach(json_object_get(you, "colours"), i, c) {
            fprintf(out, "%s%s", i ? ", " : _(" playing "), word(json_string_value(c)));
        }
        fprintf(out, "\n");
    }
    render_log(out, "stones", view, 0, "  | ");
    const json_t *res = json_object_get(view, "result");
    if (json_is_object(res)) {
        char *t = json_dumps(res, JSON_COMPACT);
        fprintf(out, _("%sGame over:%s %s\n"), render_sgr(st, "1", a), render_sgr(st, "0", b),
                t ? t : "");
        free(t);
    }
}

/* ---- Parsing ---- */

#define MAX_WORDS 8

static const char *const tiles[] = {"Tn", "Tw", "Tc", "Te", "Ts"};

/* "Tc", "tc" or "3" -> "Tc"; NULL when unknown. */
static const char *tile_arg(const char *w)
{
    if (!w) {
        return NULL;
    }
    if (w[0] >= '1' && w[0] <= '5' && w[1] == 0) {
        return tiles[w[0] - '1'];
    }
    for (int i = 0; i < 5; i++) {
        if (strcasecmp(w, tiles[i]) == 0) {
            return tiles[i];
        }
    }
    return NULL;
}

static int colour_arg(const char *w, char out[2])
{
    if (!w || strlen(w) != 1 || !strchr("YGBRN", toupper((unsigned char)w[0]))) {
        return -1;
    }
    out[0] = (char)toupper((unsigned char)w[0]);
    out[1] = 0;
    return 0;
}

/* "tc.tl" -> "Tc.TL". */
static int slot_arg(const char *w, char out[8])
{
    if (!w || strlen(w) != 5 || w[2] != '.') {
        return -1;
    }
    char t[3] = {w[0], w[1], 0};
    const char *tile = tile_arg(t);
    if (!tile) {
        return -1;
    }
    char s[3] = {(char)toupper((unsigned char)w[3]), (char)toupper((unsigned char)w[4]), 0};
    if (strcmp(s, "TL") && strcmp(s, "TR") && strcmp(s, "BL") && strcmp(s, "BR")) {
        return -1;
    }
    snprintf(out, 8, "%s.%s", tile, s);
    return 0;
}

static int int_arg(const char *w, int *ret)
{
    if (!w) {
        return -1;
    }
    char *end;
    long v = strtol(w, &end, 10);
    if (*end || end == w || v < -20 || v > 20) {
        return -1;
    }
    *ret = (int)v;
    return 0;
}

/* The card of `kind` ("SPIN", "FLY", ...) to cast: the one being chosen
 * step by step (the view's pending "card") when it is of that kind, else
 * the first of that kind in the acting colour's row. */
static const char *card_of(const json_t *view, const char *kind, char buf[16])
{
    const char *chosen =
        json_string_value(json_object_get(json_object_get(view, "pending"), "card"));
    if (chosen && strncmp(chosen, kind, strlen(kind)) == 0 && chosen[strlen(kind)] == '-') {
        snprintf(buf, 16, "%s", chosen);
        return buf;
    }
    const json_t *turn = json_object_get(view, "turn");
    size_t i;
    json_t *pl;
    json_array_foreach(json_object_get(view, "players"), i, pl) {
        if (strcmp(str(pl, "colour"), str(turn, "colour")) != 0) {
            continue;
        }
        size_t k;
        json_t *c;
        json_array_foreach(json_object_get(pl, "row"), k, c) {
            const char *name = json_string_value(c);
            if (name && strncmp(name, kind, strlen(kind)) == 0 && name[strlen(kind)] == '-') {
                snprintf(buf, 16, "%s", name);
                return buf;
            }
        }
    }
    snprintf(buf, 16, "%s-1", kind);
    return buf;
}

static int fail(char *err, size_t errlen, const char *msg)
{
    snprintf(err, errlen, "%s", msg);
    return -1;
}

static int parse(const char *line, const json_t *view, int seat, json_t **ret_action, char *err,
                 size_t errlen)
{
    char copy[256];
    snprintf(copy, sizeof(copy), "%s", line);
    char *w[MAX_WORDS] = {0};
    int n = 0;
    for (char *tok = strtok(copy, " \t,"); tok && n < MAX_WORDS; tok = strtok(NULL, " \t,")) {
        w[n++] = tok;
    }
    if (n == 0) {
        return fail(err, errlen, _("empty command"));
    }
    const char *cmd = w[0];
    char cbuf[16];
    char col[2];
    char col2[2];
    char col3[2];
    char sa[8];
    char sb[8];
    int r;
    int c;
    json_t *a = NULL;
    if (!strcasecmp(cmd, "place") && tile_arg(w[1])) {
        a = json_pack("{s:s,s:s}", "type", "place_taoist", "tile", tile_arg(w[1]));
    } else if (!strcasecmp(cmd, "spin") && tile_arg(w[1])) {
        const char *dir = w[2] && !strcasecmp(w[2], "ccw") ? "ccw" : "cw";
        a = json_pack("{s:s,s:s,s:s,s:s}", "type", "cast", "card", card_of(view, "SPIN", cbuf),
                      "tile", tile_arg(w[1]), "dir", dir);
    } else if (!strcasecmp(cmd, "fly") && tile_arg(w[1])) {
        a = json_pack("{s:s,s:s,s:s}", "type", "cast", "card", card_of(view, "FLY", cbuf), "tile",
                      tile_arg(w[1]));
    } else if (!strcasecmp(cmd, "cast") && w[1] && !w[2]) {
        /* The first step of a cast: the card alone ("cast quake-2", or
         * "cast quake" for the first QUAKE in the row). */
        char card[16];
        snprintf(card, sizeof(card), "%s", w[1]);
        for (char *p = card; *p; p++) {
            *p = (char)toupper((unsigned char)*p);
        }
        if (!strchr(card, '-')) {
            snprintf(card, sizeof(card), "%s", card_of(view, card, cbuf));
        }
        a = json_pack("{s:s,s:s}", "type", "cast", "card", card);
    } else if (!strcasecmp(cmd, "cancel")) {
        a = json_pack("{s:s}", "type", "cancel");
    } else if (!strcasecmp(cmd, "quake") && tile_arg(w[1]) && !w[2]) {
        a = json_pack("{s:s,s:s,s:s}", "type", "cast", "card", card_of(view, "QUAKE", cbuf), "move",
                      tile_arg(w[1]));
    } else if (!strcasecmp(cmd, "quake") && tile_arg(w[1]) && !int_arg(w[2], &r) &&
               !int_arg(w[3], &c)) {
        a = json_pack("{s:s,s:s,s:s,s:[ii]}", "type", "cast", "card", card_of(view, "QUAKE", cbuf),
                      "move", tile_arg(w[1]), "to", r, c);
    } else if (!strcasecmp(cmd, "swap") && tile_arg(w[1]) && tile_arg(w[2])) {
        a = json_pack("{s:s,s:s,s:[ss]}", "type", "cast", "card", card_of(view, "QUAKE", cbuf),
                      "swap", tile_arg(w[1]), tile_arg(w[2]));
    } else if (!strcasecmp(cmd, "shift") && !colour_arg(w[1], col) && !slot_arg(w[2], sa) &&
               !w[3]) {
        char card[16];
        snprintf(card, sizeof(card), "SHIFT-%s", col);
        a = json_pack("{s:s,s:s,s:s}", "type", "cast", "card", card, "a", sa);
    } else if (!strcasecmp(cmd, "shift") && !colour_arg(w[1], col) && !slot_arg(w[2], sa) &&
               !slot_arg(w[3], sb)) {
        char card[16];
        snprintf(card, sizeof(card), "SHIFT-%s", col);
        a = json_pack("{s:s,s:s,s:s,s:s}", "type", "cast", "card", card, "a", sa, "b", sb);
    } else if (!strcasecmp(cmd, "discard") && w[1]) {
        char card[16];
        snprintf(card, sizeof(card), "%s", w[1]);
        for (char *p = card; *p; p++) {
            *p = (char)toupper((unsigned char)*p);
        }
        a = json_pack("{s:s,s:s}", "type", "discard", "card", card);
    } else if (!strcasecmp(cmd, "end")) {
        const char *ph = view ? str(view, "phase") : "";
        const char *type = !strcmp(ph, "craft")                                  ? "end_turn"
                           : (!strcmp(ph, "move") || !strcmp(ph, "reward_move")) ? "end_move"
                                                                                 : "end_cast";
        a = json_pack("{s:s}", "type", type);
    } else if (!strcasecmp(cmd, "endcast") || !strcasecmp(cmd, "endmove") ||
               !strcasecmp(cmd, "endturn")) {
        const char *type = !strcasecmp(cmd, "endcast")   ? "end_cast"
                           : !strcasecmp(cmd, "endmove") ? "end_move"
                                                         : "end_turn";
        a = json_pack("{s:s}", "type", type);
    } else if (!strcasecmp(cmd, "choose") && !slot_arg(w[1], sa)) {
        a = json_pack("{s:s,s:s}", "type", "choose_stone", "slot", sa);
    } else if (!strcasecmp(cmd, "offer") && !colour_arg(w[1], col)) {
        a = json_pack("{s:s,s:s}", "type", "offer", "colour", col);
    } else if ((!strcasecmp(cmd, "step") || !strcasecmp(cmd, "rstep")) && !int_arg(w[1], &r) &&
               !int_arg(w[2], &c)) {
        a = json_pack("{s:s,s:[ii]}", "type", !strcasecmp(cmd, "step") ? "step" : "reward_step",
                      "to", r, c);
    } else if (!strcasecmp(cmd, "paystep") && !colour_arg(w[1], col) && !colour_arg(w[2], col2) &&
               !w[3]) {
        /* The first step of an O7 paid step: its two stones. */
        a = json_pack("{s:s,s:[ss]}", "type", "pay_step", "stones", col, col2);
    } else if (!strcasecmp(cmd, "paystep") && !int_arg(w[1], &r) && !int_arg(w[2], &c)) {
        /* With the stones of a paid step already chosen, the cell alone
         * completes it. */
        const json_t *chosen = json_object_get(json_object_get(view, "pending"), "step_pair");
        if (w[3] && !colour_arg(w[3], col) && !colour_arg(w[4], col2)) {
            a = json_pack("{s:s,s:[ii],s:[ss]}", "type", "pay_step", "to", r, c, "stones", col,
                          col2);
        } else if (!w[3] && json_array_size(chosen) == 2) {
            a = json_pack("{s:s,s:[ii],s:O}", "type", "pay_step", "to", r, c, "stones",
                          (json_t *)chosen);
        } else if (!w[3]) {
            a = json_pack("{s:s,s:[ii]}", "type", "pay_step", "to", r, c);
        }
    } else if (!strcasecmp(cmd, "rune")) {
        a = json_pack("{s:s}", "type", "take_rune");
    } else if (!strcasecmp(cmd, "craft") && w[1]) {
        char id[8];
        int k;
        if (!int_arg(w[1], &k) && k >= 1 && k <= 14) {
            snprintf(id, sizeof(id), "A%02d", k);
        } else {
            snprintf(id, sizeof(id), "%c%.2s", toupper((unsigned char)w[1][0]), w[1] + 1);
        }
        a = json_pack("{s:s,s:s}", "type", "craft", "artifact", id);
    } else if (!strcasecmp(cmd, "pay") && !colour_arg(w[1], col)) {
        a = json_pack("{s:s,s:s}", "type", "pay", "colour", col);
    } else if (!strcasecmp(cmd, "pair") && !colour_arg(w[1], col) && !w[2]) {
        a = json_pack("{s:s,s:s}", "type", "pay_pair", "for", col);
    } else if (!strcasecmp(cmd, "pair") && !colour_arg(w[1], col) && !colour_arg(w[2], col2) &&
               !colour_arg(w[3], col3)) {
        a = json_pack("{s:s,s:s,s:[ss]}", "type", "pay_pair", "for", col, "stones", col2, col3);
    } else if (!strcasecmp(cmd, "rfly") && tile_arg(w[1])) {
        a = json_pack("{s:s,s:s}", "type", "reward_fly", "tile", tile_arg(w[1]));
    } else if (!strcasecmp(cmd, "skip")) {
        a = json_pack("{s:s}", "type", "reward_skip");
    }
    (void)seat;
    if (!a) {
        return fail(err, errlen, _("unknown or malformed command; type help"));
    }
    *ret_action = a;
    return 0;
}

/* ---- Cards ---- */

/* What `card NAME` says of a card: its label ("SPIN-1 / SPIN-2",
 * "Objective O1", "A01"), an artifact's English name (NULL for the
 * others) and what it is or does. */
static const struct {
    const char *id, *label, *name, *body;
} stones_cards[] = {
    {"SPIN", "SPIN-1 / SPIN-2", NULL,
     N_("turn any tile of the Alchemy Zone a quarter turn, clockwise or counter-clockwise. "
        "Always castable. (R-stones-5.1)")},
    {"FLY", "FLY-1 / FLY-2", NULL,
     N_("move your own Taoist to any tile (also the one it stands on). Always castable. "
        "(R-stones-5.2)")},
    {"QUAKE", "QUAKE-1 / QUAKE-2", NULL,
     N_("move a tile to another position, or swap two tiles. Always castable. (R-stones-5.3)")},
    {"SHIFT", "SHIFT-x", NULL,
     N_("exchange a stone of the card's colour x with a stone of another colour anywhere on the "
        "Alchemy Zone. Needs both on the board. (R-stones-5.4)")},
    {"O1", N_("Objective O1"), NULL,
     N_("the longest line touching the activated tile: 3 stones, 1 Qi; 4, 1 Qi and a free "
        "step; 5 or more, 4 Qi and a free step.")},
    {"O2", N_("Objective O2"), NULL,
     N_("stones gained in the turn: 2, 1 Qi; 3, 2 Qi; 4 or more, 4 Qi.")},
    {"O3", N_("Objective O3"), NULL, N_("two or more gained stones of one colour: 3 Qi.")},
    {"O4", N_("Objective O4"), NULL,
     N_("lines touching the activated tile: 2 or more, one free step.")},
    {"O5", N_("Objective O5"), NULL,
     N_("after a craft, one free step, or a FLY of your own Taoist, or nothing.")},
    {"O6", N_("Objective O6"), NULL,
     N_("once a turn in the move step, pay a reservoir stone to step onto a cell of that "
        "stone's colour.")},
    {"O7", N_("Objective O7"), NULL,
     N_("any two stones may be paid in place of one stone of any colour (crafting and O6).")},
    {"A01", "A01", "Nu Wa Rock", N_("cost N Y Y, 2 points, Earth.")},
    {"A02", "A02", "Wind-Fire Wheels", N_("cost R R G, 2 points, Fire.")},
    {"A03", "A03", "Sea-Calming Needle", N_("cost B B Y, 2 points, Water.")},
    {"A04", "A04", "Purple-Gold Gourd", N_("cost G G B, 2 points, Wood.")},
    {"A05", "A05", "Qiankun Ring", N_("cost N N R, 2 points, Metal.")},
    {"A06", "A06", "Fuxi Harp", N_("cost B G R Y, 3 points, Wood and Water.")},
    {"A07", "A07", "Shennong Cauldron", N_("cost G R N B, 3 points, Wood and Fire.")},
    {"A08", "A08", "Kunlun Mirror", N_("cost Y B N G, 3 points, Metal and Water.")},
    {"A09", "A09", "Haotian Pagoda", N_("cost N Y R B, 3 points, Earth and Metal.")},
    {"A10", "A10", "Kongtong Seal", N_("cost R G Y N, 3 points, Earth and Fire.")},
    {"A11", "A11", "Pangu Axe", N_("cost N N Y Y R, 5 points, Earth and Wood.")},
    {"A12", "A12", "Xuanyuan Sword", N_("cost Y Y R R B, 5 points, Metal and Fire.")},
    {"A13", "A13", "Donghuang Bell", N_("cost B B G G N, 5 points, Water and Metal.")},
    {"A14", "A14", "Demon-Refining Pot", N_("cost G G N R B, 5 points, Water and Wood.")},
};

#define NCARDS (sizeof(stones_cards) / sizeof(stones_cards[0]))

/* The entry of the table that catalogue card `c` is: by id ("A01",
 * "SPIN-1" for SPIN) or English name; -1 when none. */
static int entry_of(const struct cli_cat_card *c)
{
    for (size_t i = 0; c && i < NCARDS; i++) {
        size_t n = strlen(stones_cards[i].id);
        if (strcasecmp(c->id, stones_cards[i].id) == 0 ||
            (strncasecmp(c->id, stones_cards[i].id, n) == 0 && c->id[n] == '-') ||
            (stones_cards[i].name && ((c->en && strcmp(c->en, stones_cards[i].name) == 0) ||
                                      strcmp(c->id, stones_cards[i].name) == 0))) {
            return (int)i;
        }
    }
    return -1;
}

/* The catalogue's zh-CN name of entry `i`: by its id or English name,
 * or for a family of magic cards, the name of its first card without its
 * suffix ("旋转-1" for SPIN: "旋转"); NULL when it has none. */
static const char *zh_name(size_t i, char *buf, size_t len)
{
    static const char *const firsts[] = {"-1", "-Y"};
    const char *zh = cli_card_name("stones", stones_cards[i].id);

    if (!zh && stones_cards[i].name) {
        zh = cli_card_name("stones", stones_cards[i].name);
    }
    for (size_t k = 0; !zh && k < sizeof(firsts) / sizeof(firsts[0]); k++) {
        char first[16];
        snprintf(first, sizeof(first), "%s%s", stones_cards[i].id, firsts[k]);
        const char *one = cli_card_name("stones", first);
        const char *dash = one ? strrchr(one, '-') : NULL;
        if (dash) {
            snprintf(buf, len, "%.*s", (int)(dash - one), one);
            zh = buf;
        }
    }
    return zh;
}

/* The entry whose Chinese name `name` is, or the only one it starts;
 * -1 when none is. */
static int entry_by_zh(const char *name)
{
    int found = -1, count = 0;
    char buf[64];

    for (size_t i = 0; i < NCARDS; i++) {
        const char *zh = zh_name(i, buf, sizeof(buf));
        if (zh && strcmp(zh, name) == 0) {
            return (int)i;
        }
        if (zh && strncmp(zh, name, strlen(name)) == 0) {
            found = (int)i;
            count++;
        }
    }
    return count == 1 ? found : entry_of(cli_card_by_zh("stones", name, true));
}

/* A magic card by its family (SPIN-2 -> SPIN), an objective or an
 * artifact by its id, case aside; in zh-CN also by its Chinese name. */
static int card(FILE *out, const char *name)
{
    char key[16];
    char buf[64];
    size_t n = strcspn(name, "-");
    int at = -1;

    snprintf(key, sizeof(key), "%.*s", (int)(n < sizeof(key) - 1 ? n : sizeof(key) - 1), name);
    for (size_t i = 0; at < 0 && i < NCARDS; i++) {
        if (strcasecmp(key, stones_cards[i].id) == 0) {
            at = (int)i;
        }
    }
    if (at < 0 && cli_lang_get() == CLI_LANG_ZH_CN && !cli_is_ascii(name)) {
        at = entry_by_zh(name);
    }
    if (at < 0) {
        return -1;
    }
    const char *zh = zh_name((size_t)at, buf, sizeof(buf));
    const char *named = zh ? zh : stones_cards[at].name;
    fprintf(out, _("%s%s%s: %s\n"), _(stones_cards[at].label), named ? " " : "", named ? named : "",
            _(stones_cards[at].body));
    return 0;
}

/* A cell [r, c] as "e(r,c)", or a QUAKE target as "(r,c)". */
static void cell(const json_t *v, const char *prefix, char *out, size_t len)
{
    snprintf(out, len, "%s(%lld,%lld)", prefix, (long long)json_integer_value(json_array_get(v, 0)),
             (long long)json_integer_value(json_array_get(v, 1)));
}

static const char *colour_word(const char *c)
{
    static const char *const names[][2] = {{"Y", N_("yellow")},
                                           {"G", N_("green")},
                                           {"B", N_("blue")},
                                           {"R", N_("red")},
                                           {"N", N_("black")}};

    for (size_t i = 0; c && i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcmp(c, names[i][0]) == 0) {
            return _(names[i][1]);
        }
    }
    return c ? c : "?";
}

/* Field `k` of `a` as a string, "?" when it has none. */
static const char *field(const json_t *a, const char *k)
{
    const char *v = json_string_value(json_object_get(a, k));

    return v ? v : "?";
}

/* Each action of the rules document in a few words. */
static int phrase(const json_t *a, char *buf, size_t len)
{
    const char *type = json_string_value(json_object_get(a, "type"));
    const char *card = json_string_value(json_object_get(a, "card"));
    const char *tile = json_string_value(json_object_get(a, "tile"));
    const json_t *to = json_object_get(a, "to");
    const json_t *stones = json_object_get(a, "stones");
    char where[32] = "", with[64] = "";

    if (!type) {
        return -1;
    }
    if (json_is_array(stones)) {
        snprintf(with, sizeof(with), _(" paying %s and %s"),
                 colour_word(json_string_value(json_array_get(stones, 0))),
                 colour_word(json_string_value(json_array_get(stones, 1))));
    }
    if (json_is_array(to)) {
        cell(to, strcmp(type, "cast") == 0 ? "" : "e", where, sizeof(where));
    }
    if (strcmp(type, "place_taoist") == 0) {
        snprintf(buf, len, _("place your Taoist on %s"), tile ? tile : "?");
    } else if (strcmp(type, "cast") == 0 && card) {
        const char *dir = json_string_value(json_object_get(a, "dir"));
        const char *move = json_string_value(json_object_get(a, "move"));
        const json_t *swap = json_object_get(a, "swap");
        const char *sa = json_string_value(json_object_get(a, "a"));
        const char *sb = json_string_value(json_object_get(a, "b"));
        if (dir && tile) {
            snprintf(buf, len, _("cast %s on %s %s"), card, tile,
                     strcmp(dir, "cw") == 0 ? _("clockwise") : _("counter-clockwise"));
        } else if (tile) {
            snprintf(buf, len, _("cast %s: fly to %s"), card, tile);
        } else if (move && where[0]) {
            snprintf(buf, len, _("cast %s: move %s to %s"), card, move, where);
        } else if (move) {
            snprintf(buf, len, _("cast %s: choose to move %s"), card, move);
        } else if (json_is_array(swap)) {
            snprintf(buf, len, _("cast %s: swap %s and %s"), card,
                     json_string_value(json_array_get(swap, 0)),
                     json_string_value(json_array_get(swap, 1)));
        } else if (sa && sb) {
            snprintf(buf, len, _("cast %s: exchange %s and %s"), card, sa, sb);
        } else if (sa) {
            snprintf(buf, len, _("cast %s: choose the stone at %s"), card, sa);
        } else {
            snprintf(buf, len, _("choose %s to cast"), card);
        }
    } else if (strcmp(type, "end_cast") == 0) {
        snprintf(buf, len, _("stop casting"));
    } else if (strcmp(type, "discard") == 0) {
        snprintf(buf, len, _("discard %s"), card ? card : "?");
    } else if (strcmp(type, "cancel") == 0) {
        snprintf(buf, len, _("cancel what is being chosen"));
    } else if (strcmp(type, "choose_stone") == 0) {
        snprintf(buf, len, _("take the stone at %s"), field(a, "slot"));
    } else if (strcmp(type, "offer") == 0) {
        snprintf(buf, len, _("offer a %s stone"), colour_word(field(a, "colour")));
    } else if (strcmp(type, "step") == 0) {
        snprintf(buf, len, _("step to %s"), where);
    } else if (strcmp(type, "pay_step") == 0) {
        snprintf(buf, len, where[0] ? _("pay to step to %s%s") : _("choose the stones%s%s"), where,
                 with);
    } else if (strcmp(type, "take_rune") == 0) {
        snprintf(buf, len, _("take the rune"));
    } else if (strcmp(type, "end_move") == 0) {
        snprintf(buf, len, _("stop moving"));
    } else if (strcmp(type, "craft") == 0) {
        snprintf(buf, len, _("craft %s"), field(a, "artifact"));
    } else if (strcmp(type, "end_turn") == 0) {
        snprintf(buf, len, _("end the turn"));
    } else if (strcmp(type, "pay") == 0) {
        snprintf(buf, len, _("pay a %s stone"), colour_word(field(a, "colour")));
    } else if (strcmp(type, "pay_pair") == 0) {
        snprintf(buf, len, _("pay a pair for %s%s"), colour_word(field(a, "for")), with);
    } else if (strcmp(type, "reward_step") == 0) {
        snprintf(buf, len, _("reward: step to %s"), where);
    } else if (strcmp(type, "reward_fly") == 0) {
        snprintf(buf, len, _("reward: move your Taoist to %s"), tile ? tile : "?");
    } else if (strcmp(type, "reward_skip") == 0) {
        snprintf(buf, len, _("reward: decline"));
    } else {
        return -1;
    }
    return 0;
}

/* The breakdown of each player's score, as the variant counts it: the
 * Novice game counts crafted artifacts alone, so no points total is shown
 * beside it. */
static void end(FILE *out, const json_t *result, const char *const *names, int nseats)
{
    const char *scoring = json_string_value(json_object_get(result, "scoring"));
    bool novice = scoring && strcmp(scoring, "artifacts crafted") == 0;
    const json_t *title = json_object_get(result, "title");
    size_t i;
    json_t *b;

    if (json_object_get(result, "completed")) {
        fprintf(out, _("The team completed %lld artifacts: %s.\n"),
                (long long)json_integer_value(json_object_get(result, "completed")),
                json_is_string(title) ? json_string_value(title) : _("no title"));
        return;
    }
    json_array_foreach(json_object_get(result, "breakdown"), i, b) {
        int seat = (int)json_integer_value(json_object_get(b, "seat"));
        char who[160];
        /* The names' column by its width on the screen. */
        cli_pad(who, sizeof(who), seat >= 0 && seat < nseats ? names[seat] : "?", 20);
        if (novice) {
            fprintf(out, _("  %s %lld artifacts crafted\n"), who,
                    (long long)json_integer_value(json_object_get(b, "crafted")));
            continue;
        }
        fprintf(out,
                _("  %s runes %lld + artifacts %lld + Qi %lld + symbol bonus %lld + stone bonus "
                  "%lld = %lld points\n"),
                who, (long long)json_integer_value(json_object_get(b, "runes")),
                (long long)json_integer_value(json_object_get(b, "artifacts")),
                (long long)json_integer_value(json_object_get(b, "qi")),
                (long long)json_integer_value(json_object_get(b, "symbol_bonus")),
                (long long)json_integer_value(json_object_get(b, "stone_bonus")),
                (long long)json_integer_value(json_object_get(b, "total")));
    }
}

const struct render_ops render_stones = {
    .game = "stones",
    .draw = draw,
    .parse = parse,
    .phrase = phrase,
    .card = card,
    .end = end,
    .help =
        N_("place T            put your Taoist on tile T (Tn Tw Tc Te Ts, or 1-5)\n"
           "cast CARD          choose a card to cast, e.g. cast QUAKE-2 (then `legal` lists its\n"
           "                   choices; the commands below also cast in one go)\n"
           "cancel             drop the card, O7 pair or paid step being chosen\n"
           "spin T cw|ccw      cast SPIN on tile T\n"
           "fly T              cast FLY: your Taoist to tile T\n"
           "quake T [R C]      cast QUAKE: move tile T (to tile position (R,C))\n"
           "swap T U           cast QUAKE: swap tiles T and U\n"
           "shift X A [B]      cast SHIFT-X: exchange slot A (colour X) with slot B, e.g. shift R "
           "Tn.BR Tc.TL\n"
           "discard CARD       dead hand: discard a face-up card, e.g. discard SHIFT-N\n"
           "end                end the current step (casting, moving or the turn)\n"
           "endcast | endmove | endturn   the same, named explicitly\n"
           "choose S           take the stone in slot S, e.g. choose Tc.BL\n"
           "offer X            co-op: offer a gained stone of colour X (Y G B R N)\n"
           "step R C           move your Spirit to e(R,C)\n"
           "paystep R C [X Y]  O6: pay a stone (or two with O7) to step to e(R,C)\n"
           "paystep X Y        O6 with O7: first choose the two stones, then paystep R C\n"
           "rune               take the rune next to your Spirit\n"
           "craft A            craft artifact A (A01-A14, or 1-14)\n"
           "pay X              pay one stone of colour X\n"
           "pair X [Y Z]       O7: pay stones Y and Z for a cost stone X (or first choose X)\n"
           "rstep R C          O5 reward: free step to e(R,C)\n"
           "rfly T             O5 reward: move your Taoist to tile T\n"
           "skip               O5 reward: decline\n"),
};
