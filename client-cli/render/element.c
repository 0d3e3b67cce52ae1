/* SPDX-License-Identifier: MIT */
/*
 * element.c - the Element renderer: the 11 x 11 board with its stones,
 * stacks, ranges, storms and Sages, the bag's counts, the turn (drawn
 * stones, steps and jumps left), an open decision (a river to steer, Wood
 * to grow, a magnet to set, a Lightning to remove, a Metal to corrode), the
 * log and the end; short typed commands for every action (a whole
 * placement, or a pick of its stone first); the rules of each
 * element on request. It reads views only (docs/rules/element.md).
 */
#include "render.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lang.h"

#define SIDE 11

static const char element_help[] = N_(
    "draw N                    draw N stones (0 to 4); each one not drawn is one more step\n"
    "step SQ                   move your Sage one square (e.g. step f6); also: move SQ\n"
    "jump SQ                   jump your Sage over Wind to SQ (free)\n"
    "place STONE SQ            place a drawn stone (fire, water, earth, wind or the Silver one);\n"
    "                          also: fire SQ, water SQ, ...\n"
    "pick STONE                choose the stone to place next: the moves then list its squares\n"
    "chain SQ                  add a square to the river that flows (when asked)\n"
    "flow SQ                   steer the river's Headwater to SQ\n"
    "grow SQ                   grow a Wood on SQ (after a river fed a Wood)\n"
    "grow done                 stop growing\n"
    "attract | repel           what a Metal just placed does\n"
    "remove SQ | keep          remove another Lightning, or keep them all\n"
    "corrode SQ                the Metal that corrosion takes\n"
    "end                       end your turn; also: done\n"
    "card ELEMENT              the rules of fire, water, earth, wind, lightning, wood, metal,\n"
    "                          sage, end\n");

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static long num(const json_t *o, const char *key)
{
    return (long)json_integer_value(json_object_get(o, key));
}

/* ---- Drawing ---- */

/* A kind of stone: its letter on the board and its colour. */
struct kind {
    const char *name;
    char letter;
    const char *sgr;
};

/* Each kind its own letter and its own colour of the 16 (bold is the
 * bright half): fire red, water blue, earth yellow, wind cyan, lightning
 * bright yellow, wood green, blaze magenta, metal white. */
static const struct kind kinds[] = {
    {N_("fire"), 'F', "1;31"},  {N_("water"), 'W', "1;34"},     {N_("earth"), 'E', "33"},
    {N_("wind"), 'A', "1;36"},  {N_("lightning"), 'L', "1;33"}, {N_("wood"), 'T', "32"},
    {N_("blaze"), 'B', "1;35"}, {N_("metal"), 'M', "1;37"},
};

/* A word of the view (a stone, a phase, the reason a game ended) in the
 * reader's language; another word as it is. */
static const char *word(const char *id)
{
    static const char *const words[] = {
        N_("silver"),      N_("draw"),    N_("act"),        N_("chain"),
        N_("flow"),        N_("grow"),    N_("magnet"),     N_("remove"),
        N_("corrode"),     N_("over"),    N_("surrounded"), N_("bag_empty"),
        N_("round_limit"), N_("forfeit"), N_("attract"),    N_("repel"),
    };

    for (size_t i = 0; id && i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (strcmp(id, kinds[i].name) == 0) {
            return _(kinds[i].name);
        }
    }
    const char *w = CLI_TR_AMONG(id, words);
    return w ? w : id ? id : "";
}

static const struct kind *kind_of(const char *name)
{
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (strcmp(kinds[i].name, name) == 0) {
            return &kinds[i];
        }
    }
    return NULL;
}

/* The seat whose Sage stands on `sq`, or -1. */
static int sage_on(const json_t *seats, const char *sq)
{
    size_t i;
    const json_t *s;

    json_array_foreach(seats, i, s) {
        if (strcmp(str(s, "sage"), sq) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* One square, three columns: the letter, the height of a stack, and '^'
 * for a Range (immune Earth) or '*' for a Storm Wind; a Sage is '@' and
 * its seat number. */
static void draw_square(FILE *out, const json_t *view, const char *sq,
                        const struct render_style *st)
{
    const json_t *cell = json_object_get(json_object_get(view, "board"), sq);
    int sage = sage_on(json_object_get(view, "seats"), sq);
    char a[16];
    char b[16];

    if (sage >= 0) {
        fprintf(out, "%s@%d%s ", render_sgr(st, "1;7", a), sage, render_sgr(st, "0", b));
        return;
    }
    if (!cell) {
        fputs(".  ", out);
        return;
    }
    const struct kind *k = kind_of(str(cell, "stone"));
    long h = num(cell, "height");
    char mark = json_is_true(json_object_get(cell, "storm"))   ? '*'
                : json_is_true(json_object_get(cell, "range")) ? '^'
                                                               : ' ';
    fprintf(out, "%s%c%c%c%s", render_sgr(st, k ? k->sgr : "0", a), k ? k->letter : '?',
            h > 1 ? (char)('0' + h) : ' ', mark, render_sgr(st, "0", b));
}

static void draw_board(FILE *out, const json_t *view, const struct render_style *st)
{
    fputs("     a  b  c  d  e  f  g  h  i  j  k\n", out);
    for (int rank = SIDE; rank >= 1; rank--) {
        fprintf(out, "%3d  ", rank);
        for (int file = 0; file < SIDE; file++) {
            char sq[16];
            snprintf(sq, sizeof(sq), "%c%d", 'a' + file, rank);
            draw_square(out, view, sq, st);
        }
        fprintf(out, " %d\n", rank);
    }
    fputs("     a  b  c  d  e  f  g  h  i  j  k\n", out);
}

/* "fire 3, water 0, ..." from an object of counts, in the kinds' order. */
static void print_counts(FILE *out, const json_t *counts)
{
    const char *sep = "";

    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        const json_t *n = json_object_get(counts, kinds[i].name);
        if (json_is_integer(n)) {
            fprintf(out, "%s%s %lld", sep, _(kinds[i].name), (long long)json_integer_value(n));
            sep = ", ";
        }
    }
    if (!*sep) {
        fputs(_("nothing"), out);
    }
}

static void print_squares(FILE *out, const json_t *arr)
{
    size_t i;
    const json_t *v;

    json_array_foreach(arr, i, v) {
        fprintf(out, "%s%s", i ? " " : "", json_is_string(v) ? json_string_value(v) : "?");
    }
}

static const char *seat_name(const json_t *view, long seat)
{
    const char *n = str(json_array_get(json_object_get(view, "seats"), (size_t)seat), "name");
    return *n ? n : "?";
}

static void draw_pending(FILE *out, const json_t *view)
{
    const json_t *p = json_object_get(view, "pending");
    const char *phase = str(view, "phase");

    if (!json_is_object(p)) {
        return;
    }
    fprintf(out, _("Open: %s placed on %s"), word(str(p, "stone")), str(p, "at"));
    if (strcmp(phase, "chain") == 0) {
        fputs(_("; the river so far: "), out);
        print_squares(out, json_object_get(p, "chain"));
        fputs(_(" (`chain SQ` to add the next stone)"), out);
    } else if (strcmp(phase, "flow") == 0) {
        fprintf(out, _("; river of %ld: "), num(p, "length"));
        print_squares(out, json_object_get(p, "river"));
        fputs(_("; flowed through: "), out);
        print_squares(out, json_object_get(p, "entered"));
        fputs(_(" (`flow SQ` steers it)"), out);
    } else if (strcmp(phase, "grow") == 0) {
        fprintf(out, _("; %ld Wood may grow (`grow SQ`, `grow done`)"), num(p, "grow_left"));
    } else if (strcmp(phase, "magnet") == 0) {
        fputs(_(" (`attract` or `repel`)"), out);
    } else if (strcmp(phase, "remove") == 0) {
        fputs(_(" (`remove SQ` another Lightning, or `keep`)"), out);
    } else if (strcmp(phase, "corrode") == 0) {
        fputs(_(" (`corrode SQ`: the Metal that goes)"), out);
    }
    fputc('\n', out);
}

static void draw(FILE *out, const json_t *view, int seat, const struct render_style *st)
{
    const json_t *turn = json_object_get(view, "turn");
    const json_t *seats = json_object_get(view, "seats");
    const json_t *res = json_object_get(view, "result");
    const json_t *silver = json_object_get(view, "silver");
    const json_t *drawn = json_object_get(turn, "drawn");
    char a[16];
    char b[16];
    size_t i;
    const json_t *s;

    fprintf(out, _("%sElement%s%s%s  round %ld%s  phase %s  turn: %s\n"), render_sgr(st, "1", a),
            render_sgr(st, "0", b), json_is_string(silver) ? _(" + Silver ") : "",
            json_is_string(silver) ? word(json_string_value(silver)) : "", num(turn, "round"),
            json_is_true(json_object_get(turn, "final_round")) ? _(" (the last)") : "",
            word(str(view, "phase")), seat_name(view, num(turn, "seat")));
    draw_board(out, view, st);
    json_array_foreach(seats, i, s) {
        fprintf(out, _("%s@%zu %s%s: Sage on %s, hunts %s's Sage\n"), (int)i == seat ? "> " : "  ",
                i, str(s, "name"), (int)i == seat ? _(" (you)") : "", str(s, "sage"),
                seat_name(view, num(s, "target")));
    }
    fputs(_("Bag: "), out);
    print_counts(out, json_object_get(view, "bag"));
    fputc('\n', out);
    if (!json_is_object(res)) {
        fprintf(out, _("%s's turn: "), seat_name(view, num(turn, "seat")));
        if (json_is_integer(drawn)) {
            fprintf(out, _("drew %lld; to place: "), (long long)json_integer_value(drawn));
            print_counts(out, json_object_get(turn, "hand"));
            fprintf(out, _("; steps left %ld, jumps left %ld"), num(turn, "steps"),
                    num(turn, "jumps_left"));
            if (json_is_string(json_object_get(turn, "pick"))) {
                fprintf(out, _("; picked %s"), word(str(turn, "pick")));
            }
            fputc('\n', out);
        } else {
            fputs(_("to draw (`draw N`)\n"), out);
        }
    }
    draw_pending(out, view);
    fputs(_("Legend: F fire, W water, E earth (E2 Mountain, ^ Range), A wind (A2-A4 Whirlwind,\n"
            "        * Storm), L lightning, T wood, B blaze, M metal, @N the Sage of seat N\n"),
          out);
    render_log(out, "element", view, 0, "  ");
    if (json_is_object(res)) {
        fprintf(out, _("%sGame over%s: %s\n"), render_sgr(st, "1", a), render_sgr(st, "0", b),
                word(str(res, "reason")));
    }
}

/* ---- Commands ---- */

#define TOK_MAX 4

/* A square as typed ("F6", "f6") in the view's spelling, or NULL. */
static const char *square(char *tok)
{
    size_t n = strlen(tok);

    if (n < 2 || n > 3 || tolower((unsigned char)tok[0]) < 'a' ||
        tolower((unsigned char)tok[0]) > 'k') {
        return NULL;
    }
    tok[0] = (char)tolower((unsigned char)tok[0]);
    int rank = atoi(tok + 1);
    for (size_t i = 1; i < n; i++) {
        if (!isdigit((unsigned char)tok[i])) {
            return NULL;
        }
    }
    return rank >= 1 && rank <= SIDE && tok[1] != '0' ? tok : NULL;
}

static bool is_stone(const char *s)
{
    static const char *const stones[] = {"fire",      "water", "earth", "wind",
                                         "lightning", "wood",  "metal"};
    for (size_t i = 0; i < sizeof(stones) / sizeof(stones[0]); i++) {
        if (strcmp(s, stones[i]) == 0) {
            return true;
        }
    }
    return false;
}

static int parse(const char *line, const json_t *view, int seat, json_t **ret_action, char *err,
                 size_t errlen)
{
    char buf[256];
    char *tok[TOK_MAX];
    int nt = 0;
    char *save = NULL;
    const char *cmd;
    const char *sq = NULL;

    (void)view;
    (void)seat;
    snprintf(buf, sizeof(buf), "%s", line);
    for (char *p = strtok_r(buf, " \t", &save); p && nt < TOK_MAX;
         p = strtok_r(NULL, " \t", &save)) {
        for (char *q = p; *q; q++) {
            *q = (char)tolower((unsigned char)*q);
        }
        tok[nt++] = p;
    }
    if (nt == 0) {
        snprintf(err, errlen, _("empty command"));
        return -1;
    }
    cmd = tok[0];
    if (strcmp(cmd, "draw") == 0) {
        char *end = NULL;
        long n = nt == 2 ? strtol(tok[1], &end, 10) : -1;
        if (nt != 2 || !end || *end || n < 0 || n > 4) {
            snprintf(err, errlen, _("draw takes a number of stones from 0 to 4 (e.g. draw 2)"));
            return -1;
        }
        *ret_action = json_pack("{s:s, s:i}", "type", "draw", "count", (int)n);
        return *ret_action ? 0 : -1;
    }
    if (strcmp(cmd, "end") == 0 || strcmp(cmd, "done") == 0 || strcmp(cmd, "keep") == 0 ||
        (strcmp(cmd, "grow") == 0 && nt == 2 &&
         (strcmp(tok[1], "done") == 0 || strcmp(tok[1], "stop") == 0))) {
        const char *type = cmd[0] == 'k' ? "keep" : cmd[0] == 'g' ? "grow_done" : "end";
        *ret_action = json_pack("{s:s}", "type", type);
        return *ret_action ? 0 : -1;
    }
    if (strcmp(cmd, "attract") == 0 || strcmp(cmd, "repel") == 0) {
        *ret_action = json_pack("{s:s, s:s}", "type", "magnet", "mode", cmd);
        return *ret_action ? 0 : -1;
    }
    if (strcmp(cmd, "pick") == 0) {
        if (nt != 2 || !is_stone(tok[1])) {
            snprintf(err, errlen, _("pick STONE, e.g. pick fire"));
            return -1;
        }
        *ret_action = json_pack("{s:s, s:s}", "type", "pick", "stone", tok[1]);
        return *ret_action ? 0 : -1;
    }
    if (strcmp(cmd, "place") == 0 || is_stone(cmd)) {
        const char *stone = strcmp(cmd, "place") == 0 ? (nt > 1 ? tok[1] : "") : cmd;
        int at = strcmp(cmd, "place") == 0 ? 2 : 1;
        if (!is_stone(stone) || nt != at + 1 || !(sq = square(tok[at]))) {
            snprintf(err, errlen, _("place STONE SQUARE, e.g. place fire f6 (or: fire f6)"));
            return -1;
        }
        *ret_action = json_pack("{s:s, s:s, s:s}", "type", "place", "stone", stone, "at", sq);
        return *ret_action ? 0 : -1;
    }
    static const struct {
        const char *word;
        const char *type;
        const char *field;
    } one_square[] = {
        {"step", "step", "to"},     {"move", "step", "to"},       {"jump", "jump", "to"},
        {"flow", "flow", "to"},     {"chain", "chain", "at"},     {"grow", "grow", "at"},
        {"remove", "remove", "at"}, {"corrode", "corrode", "at"},
    };
    for (size_t i = 0; i < sizeof(one_square) / sizeof(one_square[0]); i++) {
        if (strcmp(cmd, one_square[i].word) == 0) {
            if (nt != 2 || !(sq = square(tok[1]))) {
                snprintf(err, errlen, _("%s needs one square, a1 to k11 (e.g. %s f6)"), cmd, cmd);
                return -1;
            }
            *ret_action =
                json_pack("{s:s, s:s}", "type", one_square[i].type, one_square[i].field, sq);
            return *ret_action ? 0 : -1;
        }
    }
    snprintf(err, errlen, _("unknown command \"%s\""), cmd);
    return -1;
}

/* ---- Words ---- */

static int phrase(const json_t *a, char *buf, size_t len)
{
    const char *t = str(a, "type");

    if (strcmp(t, "draw") == 0) {
        long n = num(a, "count");
        snprintf(buf, len, _("draw %ld stone%s (%ld extra step%s)"), n, n == 1 ? "" : "s", 4 - n,
                 4 - n == 1 ? "" : "s");
    } else if (strcmp(t, "step") == 0) {
        snprintf(buf, len, _("step to %s"), str(a, "to"));
    } else if (strcmp(t, "jump") == 0) {
        snprintf(buf, len, _("jump over Wind to %s"), str(a, "to"));
    } else if (strcmp(t, "place") == 0) {
        snprintf(buf, len, _("place %s on %s"), word(str(a, "stone")), str(a, "at"));
    } else if (strcmp(t, "pick") == 0) {
        snprintf(buf, len, _("pick %s to place"), word(str(a, "stone")));
    } else if (strcmp(t, "chain") == 0) {
        snprintf(buf, len, _("add %s to the river"), str(a, "at"));
    } else if (strcmp(t, "flow") == 0) {
        snprintf(buf, len, _("flow to %s"), str(a, "to"));
    } else if (strcmp(t, "grow") == 0) {
        snprintf(buf, len, _("grow Wood on %s"), str(a, "at"));
    } else if (strcmp(t, "grow_done") == 0) {
        snprintf(buf, len, _("stop growing Wood"));
    } else if (strcmp(t, "magnet") == 0) {
        snprintf(buf, len, _("%s the Metal"), word(str(a, "mode")));
    } else if (strcmp(t, "remove") == 0) {
        snprintf(buf, len, _("remove the Lightning on %s"), str(a, "at"));
    } else if (strcmp(t, "keep") == 0) {
        snprintf(buf, len, _("keep the other Lightning"));
    } else if (strcmp(t, "corrode") == 0) {
        snprintf(buf, len, _("corrode the Metal on %s"), str(a, "at"));
    } else if (strcmp(t, "end") == 0) {
        snprintf(buf, len, _("end the turn"));
    } else {
        return -1;
    }
    return 0;
}

static const struct {
    const char *name;
    const char *text;
} cards[] = {
    {N_("fire"),
     N_("Fire: on an empty square or on Wind (a whole Whirlwind burns). Placed in line\n"
        "with Fire (orthogonally), each line it joins spreads: a free Fire from the bag\n"
        "lands on the empty or Wind square beyond the far end. Water replaces Fire.")},
    {N_("water"),
     N_("Water: on an empty square or on Fire. Placed next to Water (orthogonally) it\n"
        "becomes the Headwater and the whole river must flow as many squares as it has\n"
        "stones, like a snake, turning as you steer it (`flow SQ`); it puts out Fire on\n"
        "its way. Earth replaces Water.")},
    {N_("earth"),
     N_("Earth: on an empty square or on Water. Earth on Earth makes a Mountain (two\n"
        "high); Earth touching a Mountain, even diagonally, is a Range. Mountains and\n"
        "Ranges cannot be replaced and block diagonal steps between them. Wind replaces\n"
        "single Earth.")},
    {N_("wind"), N_("Wind: on an empty square or on single Earth; Wind on Wind stacks into a\n"
                    "Whirlwind (up to four). A Sage next to Wind may jump it for free: the higher\n"
                    "the stack, the farther. Fire replaces Wind.")},
    {N_("lightning"),
     N_("Lightning (Silver): on any square without a Sage; everything there goes back\n"
        "to the bag. Placing one may remove another Lightning. Wind touching Lightning\n"
        "is a Storm and cannot be jumped.")},
    {N_("wood"),
     N_("Wood (Silver): only on an empty square. Fire on Wood is a Blaze, which makes\n"
        "its lines spread by two. Water on a Blaze removes both. A river flowing into Wood\n"
        "is absorbed, and each absorbed Water grows a new Wood where you choose.")},
    {N_("metal"),
     N_("Metal (Silver): only on an empty square; then it attracts or repels the Metal\n"
        "along its eight lines. Fire on Earth or Earth on Fire smelts into Metal. Wind on\n"
        "Water or Water on single Wind corrodes: both go, with a Metal of your choice.")},
    {N_("sage"),
     N_("Your Sage steps one square to any of the eight empty squares around it (not\n"
        "diagonally between two Mountain or Range stones), one step per stone you did not\n"
        "draw and one more; next to Wind it may jump over it for free, one square farther\n"
        "per Wind in the stack, onto an empty square.")},
    {N_("end"),
     N_("The game ends the moment a Sage has no step and no jump: the player who hunts\n"
        "it wins. You may never leave your own Sage without a move. When a turn starts\n"
        "with the bag empty, every player has one last turn; then, or after 300 rounds,\n"
        "the game ends without a winner.")},
};

/* `card NAME`: an element by its English name, or in zh-CN by its
 * Chinese one too. */
static int card_text(FILE *out, const char *name)
{
    for (size_t i = 0; i < sizeof(cards) / sizeof(cards[0]); i++) {
        if (strcasecmp(name, cards[i].name) == 0 ||
            (cli_lang_get() == CLI_LANG_ZH_CN && strcmp(name, _(cards[i].name)) == 0)) {
            fprintf(out, "%s\n", _(cards[i].text));
            return 0;
        }
    }
    return -1;
}

static void end(FILE *out, const json_t *result, const char *const *names, int nseats)
{
    const char *reason = str(result, "reason");

    (void)names;
    (void)nseats;
    if (strcmp(reason, "surrounded") == 0) {
        fputs(_("A Sage was surrounded: its hunter wins.\n"), out);
    } else if (strcmp(reason, "bag_empty") == 0) {
        fputs(_("The bag ran empty and the last round caught no Sage: nobody wins.\n"), out);
    } else if (strcmp(reason, "round_limit") == 0) {
        fputs(_("300 rounds were played without a Sage caught: nobody wins.\n"), out);
    }
}

const struct render_ops render_element = {
    .game = "element",
    .draw = draw,
    .parse = parse,
    .help = element_help,
    .phrase = phrase,
    .card = card_text,
    .end = end,
};
