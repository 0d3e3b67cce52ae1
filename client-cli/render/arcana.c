/* SPDX-License-Identifier: MIT */
/*
 * arcana.c - the Res Arcana renderer: the table at 80 columns (round, phase,
 * First Player, the monuments, the five Places of Power, the magic items in
 * the supply, each seat's pool, VP and components, your hand and what only
 * you see), the open decision in words, the duel and the log; short typed
 * commands for every action and decision step; each action in words; what a
 * card does, from texts generated from the card data (arcana_texts.c). It
 * reads views only (docs/rules/arcana.md, section 0) and never decides what
 * is legal: the server does.
 */
#include "render.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arcana_texts.h"
#include "lang.h"

static const char arcana_help[] =
    N_("place CARD                place an artifact from your hand\n"
       "claim CARD | claim deck   claim a monument (display or deck top) or a Place of Power;\n"
       "                          also: claim monument CARD|deck, claim pop CARD\n"
       "monument CARD|deck        claim a monument\n"
       "pop CARD                  claim a Place of Power\n"
       "discard CARD              discard a card from your hand for 1 Gold or 2 others\n"
       "use CARD [0|1]            use power 0 or 1 of your component (the only one if omitted)\n"
       "pass                      pass (you pick a new magic item next)\n"
       "pay ESS                   pay one essence: e(lan), l(ife), c(alm), d(eath), g(old)\n"
       "same ESS|none             the type of a same-type amount, or none (X = 0)\n"
       "more                      one more of that type\n"
       "done                      stop paying that type\n"
       "gain ESS                  gain one essence\n"
       "target CARD|none          choose a card (to destroy, turn, place, ...), or none\n"
       "rival SEAT                pick a rival (seat number or name)\n"
       "deck own|monument         the deck to look at\n"
       "order CARD                the next card from the top when putting cards back\n"
       "lose                      take a life loss\n"
       "ignore                    pay the attack's ignore cost\n"
       "react CARD [N]            answer a life loss with a React power\n"
       "lose ESS                  lose one essence (not Life)\n"
       "statue yes|no             use the Golden Statue at a victory check, or not\n"
       "item CARD                 take a magic item from the supply\n"
       "take                      Collect: take all essences off the card named\n"
       "keep | leave CARD         Collect: leave them on it (`leave` alone leaves the room)\n"
       "forge pay|turn            Collect: pay 1 Death for the Cursed Forge, or turn it\n"
       "mage CARD                 keep this mage\n"
       "draft CARD | pick CARD    draft a card\n"
       "first SEAT                duel: who is First Player of the next game (me, a seat)\n"
       "card NAME                 what a card does (e.g. card fire dragon, card vault)\n"
       "Cards: any unique prefix of a card's id or name (fire_d, Fire Dragon, vau).\n");

/* ---- Cards and essences ---- */

/* Each essence its letter, word and colour of the 16 (bold is the bright
 * half): Elan red, Life green, Calm blue, Death grey, Gold yellow. */
static const struct essence {
    const char *key;
    char letter;
    const char *word;
    const char *sgr;
} essences[] = {
    {"elan", 'E', N_("Elan"), "1;31"}, {"life", 'L', N_("Life"), "1;32"},
    {"calm", 'C', N_("Calm"), "1;34"}, {"death", 'D', N_("Death"), "1;30"},
    {"gold", 'G', N_("Gold"), "1;33"},
};
#define NESS (sizeof(essences) / sizeof(essences[0]))

static const struct essence *essence_of(const char *key)
{
    for (size_t i = 0; i < NESS; i++) {
        if (strcmp(essences[i].key, key) == 0) {
            return &essences[i];
        }
    }
    return NULL;
}

static const struct arcana_text *text_of(const char *id)
{
    for (size_t i = 0; id && i < arcana_ntexts; i++) {
        if (strcmp(arcana_texts[i].id, id) == 0) {
            return &arcana_texts[i];
        }
    }
    return NULL;
}

/* A card's printed name (in zh-CN the catalogue's Chinese name when it
 * has one), or its id when the table does not know it. */
static const char *name_of(const char *id)
{
    const struct arcana_text *t = text_of(id);

    return t ? render_card_name("arcana", t->id, t->name) : id ? id : "?";
}

static const char *name_at(const json_t *o, const char *key)
{
    return name_of(render_str(o, key, NULL));
}

/* ---- Drawing ---- */

#define WIDTH 79

/* Text written with the column kept, for lists that wrap at WIDTH. */
struct col_out {
    FILE *f;
    int col;
    int indent;
};

static void col_put(struct col_out *o, const char *s)
{
    fputs(s, o->f);
    o->col += cli_width(s);
}

static void col_line(struct col_out *o)
{
    fputc('\n', o->f);
    o->col = 0;
}

/* Writes `sep` and `item`, or a new line indented instead of `sep` when
 * the item would pass the right edge. */
static void col_item(struct col_out *o, const char *sep, const char *item)
{
    if (o->col > o->indent && o->col + cli_width(sep) + cli_width(item) > WIDTH) {
        fprintf(o->f, "%s\n%*s", strchr(sep, ',') ? "," : "", o->indent, "");
        o->col = o->indent;
    } else {
        col_put(o, sep);
    }
    col_put(o, item);
}

/* "E2 G1" for an essence map (coloured letters with counts), every type
 * when `zeros`, or only those present; "" when none is. */
static void essence_list(char *buf, size_t len, const json_t *map, bool zeros,
                         const struct render_style *st)
{
    size_t n = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < NESS && n < len; i++) {
        long v = render_num(map, essences[i].key);
        char a[16];
        char b[16];
        if (v == 0 && !zeros) {
            continue;
        }
        int k = snprintf(buf + n, len - n, "%s%s%c%ld%s", n ? " " : "",
                         render_sgr(st, essences[i].sgr, a), essences[i].letter, v,
                         render_sgr(st, "0", b));
        n += k > 0 ? (size_t)k : 0;
    }
}

/* A component in play: "Vault [G2] (turned)". */
static void component(char *buf, size_t len, const json_t *c, const char *mark,
                      const struct render_style *st)
{
    char ess[160];

    essence_list(ess, sizeof(ess), json_object_get(c, "essences"), false, st);
    snprintf(buf, len, "%s%s%s%s%s%s", name_at(c, "card"), mark, ess[0] ? " [" : "", ess,
             ess[0] ? "]" : "", json_is_true(json_object_get(c, "turned")) ? _(" (turned)") : "");
}

/* The names of the cards of `arr` after a space, each with its printed
 * cost when `costs`, wrapped; _(" (none)") when empty. */
static void card_items(struct col_out *o, const json_t *arr, bool costs)
{
    size_t i;
    const json_t *v;

    json_array_foreach(arr, i, v) {
        const struct arcana_text *t = text_of(json_string_value(v));
        char item[160];
        if (costs && t && t->cost[0]) {
            snprintf(item, sizeof(item), "%s (%s)", name_of(t->id), t->cost);
        } else {
            snprintf(item, sizeof(item), "%s", name_of(json_string_value(v)));
        }
        col_item(o, i ? ", " : " ", item);
    }
    if (json_array_size(arr) == 0) {
        col_put(o, _(" (none)"));
    }
}

/* `label` and the cards of `arr` (with their costs when `costs`) on a line
 * of their own. */
static void card_line(FILE *out, const char *label, const json_t *arr, bool costs)
{
    struct col_out o = {out, 0, 4};

    col_put(&o, label);
    card_items(&o, arr, costs);
    col_line(&o);
}

/* True when the UTF-8 character at `p` may not start a line (a closing
 * mark of Chinese punctuation), or, with `opening`, may not end one. */
static bool sticks(const char *p, bool opening)
{
    static const char *const closing[] = {"，", "。", "、", "；", "：", "！", "？",
                                          "）", "》", "」", "』", "”",  "’",  "…"};
    static const char *const opens[] = {"（", "《", "「", "『", "“", "‘"};
    const char *const *set = opening ? opens : closing;
    size_t n = opening ? sizeof(opens) / sizeof(opens[0]) : sizeof(closing) / sizeof(closing[0]);

    for (size_t i = 0; i < n; i++) {
        if (strncmp(p, set[i], strlen(set[i])) == 0) {
            return true;
        }
    }
    return false;
}

/* The length of the first piece of `word` (n bytes) that a line may not
 * break inside: a run of narrow characters, or one wide (Chinese)
 * character, each with the punctuation that clings to it. */
static size_t piece(const char *word, size_t n)
{
    size_t i = 0;
    int w;

    while (i < n) {
        size_t k = cli_char(word + i, &w);
        if (k == 0) {
            break;
        }
        bool open = sticks(word + i, true);
        if (i > 0 && (w == 2 || open) && !sticks(word + i, false)) {
            break; /* a wide character starts the next piece */
        }
        i += k;
        if ((w == 2 || open) && !open) {
            /* One wide character: and what clings after it. */
            while (i < n && sticks(word + i, false)) {
                i += cli_char(word + i, NULL);
            }
            break;
        }
    }
    return i ? i : n;
}

/* Each line of `text` wrapped at its spaces (a run of them kept where the
 * line does not break), and between Chinese characters, the lines it
 * breaks into indented by 4. */
static void wrap_text(FILE *out, const char *text)
{
    struct col_out o = {out, 0, 4};
    char word[256];
    char sep[8] = "";

    for (const char *p = text; *p;) {
        size_t n = strcspn(p, " \n");
        for (size_t at = 0; at < n;) {
            size_t k = piece(p + at, n - at);
            snprintf(word, sizeof(word), "%.*s", (int)k, p + at);
            col_item(&o, at ? "" : sep, word);
            at += k;
        }
        p += n;
        if (*p == '\n') {
            col_line(&o);
            p++;
            sep[0] = '\0';
            continue;
        }
        n = strspn(p, " ");
        snprintf(sep, sizeof(sep), "%.*s", (int)(n < sizeof(sep) ? n : sizeof(sep) - 1), p);
        p += n;
    }
    if (o.col > 0) {
        col_line(&o);
    }
}

/* Text written to a memory stream, then wrapped to the width: between
 * wrap_begin (NULL when out of memory) and wrap_end. */
struct wrap {
    FILE *m;
    char *text;
    size_t len;
};

static FILE *wrap_begin(struct wrap *w)
{
    w->text = NULL;
    w->len = 0;
    w->m = open_memstream(&w->text, &w->len);
    return w->m;
}

static void wrap_end(struct wrap *w, FILE *out)
{
    if (!w->m) {
        return;
    }
    fclose(w->m);
    if (w->text) {
        wrap_text(out, w->text);
    }
    free(w->text);
}

static const char *seat_name(const json_t *view, long seat)
{
    const json_t *s = json_array_get(json_object_get(view, "seats"), (size_t)seat);
    const char *n = render_str(s, "name", "");

    return *n ? n : "?";
}

static const char *phase_words(const char *phase)
{
    static const struct {
        const char *id, *words;
    } phases[] = {
        {"setup_mage", N_("choosing mages")},
        {"draft", N_("drafting artifacts")},
        {"setup_item", N_("picking magic items")},
        {"collect", N_("Collect")},
        {"actions", N_("Actions")},
        {"victory_check", N_("victory check")},
        {"match_first_player", N_("duel: choosing the next First Player")},
        {"match_draft", N_("duel: face-up draft")},
        {"ended", N_("game over")},
    };
    for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
        if (strcmp(phases[i].id, phase) == 0) {
            return _(phases[i].words);
        }
    }
    return phase;
}

static bool in_array(const json_t *arr, long v)
{
    size_t i;
    const json_t *x;

    json_array_foreach(arr, i, x) {
        if (json_integer_value(x) == v) {
            return true;
        }
    }
    return false;
}

static void draw_header(FILE *out, const json_t *view, int seat, const struct render_style *st)
{
    const json_t *board = json_object_get(view, "board");
    const json_t *match = json_object_get(view, "match");
    const json_t *active = json_object_get(view, "active");
    char a[16];
    char b[16];
    size_t i;
    const json_t *v;

    fprintf(out, _("%sRes Arcana%s  round %ld  %s"), render_sgr(st, "1", a), render_sgr(st, "0", b),
            render_num(view, "round"), phase_words(render_str(view, "phase", "?")));
    if (json_is_integer(json_object_get(board, "first"))) {
        fprintf(out, _("  First Player: %s%s"), seat_name(view, render_num(board, "first")),
                json_is_true(json_object_get(board, "first_passed")) ? _(" (passed side)") : "");
    }
    fputc('\n', out);
    if (json_is_object(match)) {
        const json_t *score = json_object_get(match, "score");
        fprintf(out, _("Duel, game %ld of 3: %s %lld - %lld %s"), render_num(match, "game"),
                seat_name(view, 0), (long long)json_integer_value(json_array_get(score, 0)),
                (long long)json_integer_value(json_array_get(score, 1)), seat_name(view, 1));
        json_array_foreach(json_object_get(match, "results"), i, v) {
            const json_t *w = json_object_get(v, "winners");
            fprintf(out, _("%s game %zu won by %s"), i ? "," : ";", i + 1,
                    json_array_size(w) == 1
                        ? seat_name(view, (long)json_integer_value(json_array_get(w, 0)))
                        : _("nobody (shared)"));
        }
        fputc('\n', out);
    }
    if (json_array_size(active) > 0) {
        fputs(_("To act:"), out);
        json_array_foreach(active, i, v) {
            long s = (long)json_integer_value(v);
            fprintf(out, "%s %s%s", i ? "," : "", seat_name(view, s), s == seat ? _(" (you)") : "");
        }
        fputc('\n', out);
    }
}

static void draw_board(FILE *out, const json_t *view, const struct render_style *st)
{
    const json_t *board = json_object_get(view, "board");
    const json_t *pops = json_object_get(board, "pops");
    size_t i;
    const json_t *p;

    if (!json_is_object(board)) {
        return;
    }
    struct col_out o = {out, 0, 4};
    char deck[64];
    col_put(&o, _("Monuments (4 Gold):"));
    card_items(&o, json_object_get(board, "display"), false);
    snprintf(deck, sizeof(deck), _("%ld face down in the deck"),
             render_num(board, "monument_deck"));
    col_item(&o, "; ", deck);
    col_line(&o);
    if (json_array_size(pops) > 0) {
        fputs(_("Places of Power:\n"), out);
    }
    json_array_foreach(pops, i, p) {
        char buf[256];
        component(buf, sizeof(buf), p, "", st);
        const json_t *owner = json_object_get(p, "owner");
        const struct arcana_text *t = text_of(render_str(p, "card", NULL));
        int pad = 36 - cli_width(buf);
        fprintf(out, "  %s%*s ", buf, pad > 0 ? pad : 0, "");
        if (json_is_integer(owner)) {
            fprintf(out, _("%s's\n"), seat_name(view, (long)json_integer_value(owner)));
        } else {
            fprintf(out, _("unclaimed, cost %s\n"), t ? t->cost : "?");
        }
    }
    card_line(out, _("Magic items in the supply:"), json_object_get(board, "supply"), false);
}

/* One seat: name, VP, pool, counts and marks; then its components, its
 * discard pile and what it looked at. */
static void draw_seat(FILE *out, const json_t *view, size_t i, const json_t *s, int me,
                      const struct render_style *st)
{
    const char *phase = render_str(view, "phase", "");
    const json_t *board = json_object_get(view, "board");
    char pool[160];
    char a[16];
    char b[16];
    size_t k;
    const json_t *c;

    struct col_out line = {out, 0, 4};
    char item[200];
    snprintf(item, sizeof(item), "%s%s%zu %s%s%s", me ? "> " : "  ", render_sgr(st, "1", a), i,
             render_str(s, "name", "?"), me ? _(" (you)") : "", render_sgr(st, "0", b));
    col_put(&line, item);
    snprintf(item, sizeof(item), _("VP %ld"), render_num(s, "vp"));
    col_item(&line, "  ", item);
    essence_list(pool, sizeof(pool), json_object_get(s, "pool"), true, st);
    snprintf(item, sizeof(item), _("pool %s"), pool);
    col_item(&line, "  ", item);
    snprintf(item, sizeof(item), _("hand %ld  deck %ld"), render_num(s, "hand"),
             render_num(s, "deck"));
    col_item(&line, "  ", item);
    if (json_is_true(json_object_get(s, "passed"))) {
        col_item(&line, "  ", _("PASSED"));
    }
    if (json_is_integer(json_object_get(board, "first")) && render_num(board, "first") == (long)i) {
        col_item(&line, "  ", _("[First Player]"));
    }
    col_line(&line);
    if (strcmp(phase, "setup_mage") == 0) {
        fprintf(out, _("    mage: %s\n"),
                json_is_true(json_object_get(s, "mage_chosen")) ? _("chosen")
                                                                : _("still choosing"));
    } else if (strcmp(phase, "draft") == 0) {
        fprintf(out, _("    kept %ld card%s; %s\n"), render_num(s, "kept"),
                render_num(s, "kept") == 1 ? "" : "s",
                json_is_true(json_object_get(s, "picked")) ? _("has picked") : _("still picking"));
    }
    if (json_array_size(json_object_get(s, "play")) > 0) {
        struct col_out o = {out, 0, 4};
        col_put(&o, _("    in play:"));
        json_array_foreach(json_object_get(s, "play"), k, c) {
            char buf[256];
            const char *id = render_str(c, "card", "");
            const char *mark = strcmp(id, render_str(s, "mage", "")) == 0   ? _(" (mage)")
                               : strcmp(id, render_str(s, "item", "")) == 0 ? _(" (item)")
                                                                            : "";
            component(buf, sizeof(buf), c, mark, st);
            col_item(&o, k ? ", " : " ", buf);
        }
        col_line(&o);
    } else if (json_is_string(json_object_get(s, "mage")) ||
               json_is_string(json_object_get(s, "item"))) {
        fprintf(out, _("    mage %s, magic item %s\n"), name_at(s, "mage"),
                json_is_string(json_object_get(s, "item")) ? name_at(s, "item") : _("none yet"));
    }
    if (json_array_size(json_object_get(s, "discard")) > 0) {
        card_line(out, _("    discard pile:"), json_object_get(s, "discard"), false);
    }
    const json_t *looked = json_object_get(s, "looked");
    if (json_is_object(looked)) {
        fprintf(out, _("    looked at %ld cards of %s\n"), render_num(looked, "count"),
                strcmp(render_str(looked, "deck", ""), "monument") == 0 ? _("the monument deck")
                                                                        : _("their own deck"));
    }
}

/* What only `you` shows: the hand and the private parts of setup, the
 * draft and a look at a deck. */
static void draw_you(FILE *out, const json_t *view, const struct render_style *st)
{
    const json_t *you = json_object_get(view, "you");
    char a[16];
    char b[16];
    char label[64];

    if (!json_is_object(you)) {
        return;
    }
    snprintf(label, sizeof(label), _("%sYour hand%s (%zu):"), render_sgr(st, "1;36", a),
             render_sgr(st, "0", b), json_array_size(json_object_get(you, "hand")));
    card_line(out, label, json_object_get(you, "hand"), true);
    static const struct {
        const char *key, *label;
        bool costs;
    } parts[] = {
        {"mages", N_("Your two mages to choose from:"), false},
        {"pack", N_("Your draft pack:"), true},
        {"kept", N_("You kept:"), false},
        {"looking", N_("You are looking at (top first):"), false},
        {"deck_top", N_("The known top of your deck:"), false},
        {"monument_top", N_("The known top of the monument deck:"), false},
    };
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        const json_t *arr = json_object_get(you, parts[i].key);
        if (json_array_size(arr) > 0) {
            card_line(out, _(parts[i].label), arr, parts[i].costs);
        }
    }
    if (json_is_string(json_object_get(you, "mage")) &&
        strcmp(render_str(view, "phase", ""), "setup_mage") == 0) {
        fprintf(out, _("Your mage (secret until all have chosen): %s\n"), name_at(you, "mage"));
    }
    if (json_is_string(json_object_get(you, "pick"))) {
        fprintf(out, _("Your pick (secret until all have picked): %s\n"), name_at(you, "pick"));
    }
}

/* "Fire Dragon's power 0" or "Fire Dragon" for what caused decision `d`;
 * N_("Collect") or _("the action") when it names no card. */
static void cause(char *buf, size_t len, const json_t *d, const char *phase)
{
    if (!json_is_string(json_object_get(d, "card"))) {
        snprintf(buf, len, strcmp(phase, "collect") == 0 ? _("Collect") : _("the action"));
    } else if (json_is_integer(json_object_get(d, "power"))) {
        snprintf(buf, len, _("%s's power %ld"), name_at(d, "card"), render_num(d, "power"));
    } else {
        snprintf(buf, len, "%s", name_at(d, "card"));
    }
}

/* What a card is chosen for (a decision's "why") in the reader's
 * language. */
static const char *purpose_word(const char *why)
{
    static const char *const words[] = {N_("destroy"),    N_("discard"), N_("place"),
                                        N_("straighten"), N_("turn"),    N_("choose")};

    const char *w = CLI_TR_AMONG(why, words);
    return w ? w : why;
}

/* The open decision in words, with the command that answers it, on one
 * line. */
static void decision_words(FILE *out, const json_t *view, int seat, const struct render_style *st)
{
    const json_t *d = json_object_get(view, "decision");
    const char *kind = render_str(d, "kind", "");
    long who = render_num(d, "seat");
    char why[128];
    char paid[160];
    char a[16];
    char b[16];

    if (!json_is_object(d)) {
        if (strcmp(render_str(view, "phase", ""), "actions") == 0 &&
            in_array(json_object_get(view, "active"), seat)) {
            fputs(_("Your turn: place, claim, discard, use or pass (`legal` lists them).\n"), out);
        }
        return;
    }
    cause(why, sizeof(why), d, render_str(view, "phase", ""));
    essence_list(paid, sizeof(paid), json_object_get(d, "paid"), false, st);
    /* Mages and draft picks are chosen by every seat at once. */
    if (strcmp(kind, "mage") == 0 || strcmp(kind, "draft") == 0) {
        fprintf(out, _("%sDecision%s for each player still choosing: "), render_sgr(st, "1;35", a),
                render_sgr(st, "0", b));
    } else {
        fprintf(out, _("%sDecision%s for %s%s: "), render_sgr(st, "1;35", a),
                render_sgr(st, "0", b), seat_name(view, who), who == seat ? _(" (you)") : "");
    }
    if (strcmp(kind, "pay") == 0) {
        if (json_is_string(json_object_get(d, "placing"))) {
            fprintf(out, _("pay for placing %s"), name_at(d, "placing"));
        } else {
            fprintf(out, _("pay for %s"), why);
        }
        fprintf(out, _(", %ld more to pay"), render_num(d, "left"));
        if (paid[0]) {
            fprintf(out, _(" (paid %s)"), paid);
        }
        fputs(_(" - `pay ESS`"), out);
    } else if (strcmp(kind, "same") == 0) {
        fprintf(out, _("which type to pay X essences of, for %s - `same ESS` or `same none`"), why);
    } else if (strcmp(kind, "same_more") == 0) {
        fprintf(out, _("pay one more of the same type for %s%s%s%s - `more` or `done`"), why,
                paid[0] ? _(" (paid ") : "", paid, paid[0] ? ")" : "");
    } else if (strcmp(kind, "gain") == 0) {
        fprintf(out, _("gain %ld more essence%s from %s - `gain ESS`"), render_num(d, "left"),
                render_num(d, "left") == 1 ? "" : "s", why);
    } else if (strcmp(kind, "gain_discard") == 0) {
        fprintf(out, _("gain for discarding %s: 1 Gold, or 2 others one at a time - `gain ESS`"),
                json_is_string(json_object_get(d, "card")) ? name_at(d, "card") : _("a card"));
    } else if (strcmp(kind, "target") == 0) {
        const char *purpose = render_str(d, "why", "choose");
        fprintf(out, _("choose a card to %s"),
                strcmp(purpose, "receive") == 0 ? _("receive the essence") : purpose_word(purpose));
        if (json_is_integer(json_object_get(d, "attacker"))) {
            /* Wind Dragon's and Sea Serpent's ignore costs. */
            fprintf(out, _(" and ignore the attack of %s's %s"),
                    seat_name(view, render_num(d, "attacker")), name_at(d, "card"));
        } else {
            fprintf(out, _(" for %s"), why);
        }
        fputs(_(" - `target CARD` or `target none`"), out);
    } else if (strcmp(kind, "rival") == 0) {
        fprintf(out, _("pick a rival for %s - `rival SEAT`"), why);
    } else if (strcmp(kind, "deck") == 0) {
        fprintf(out, _("which deck to look at for %s - `deck own` or `deck monument`"), why);
    } else if (strcmp(kind, "order") == 0) {
        fprintf(out,
                _("put the looked-at cards back, naming the next from the top - `order CARD`"));
    } else if (strcmp(kind, "respond") == 0) {
        fprintf(out, _("%s attacks with %s: lose %ld Life - `lose`, `ignore` or `react CARD`"),
                seat_name(view, render_num(d, "attacker")), why, render_num(d, "amount"));
    } else if (strcmp(kind, "lose") == 0) {
        fprintf(out, _("lose %ld more essence%s (not Life) - `lose ESS`"), render_num(d, "left"),
                render_num(d, "left") == 1 ? "" : "s");
    } else if (strcmp(kind, "statue") == 0) {
        fputs(_("use the Golden Statue (turn it, pay 3 Gold) for +3 VP at this check - `statue "
                "yes` or `statue no`"),
              out);
    } else if (strcmp(kind, "item") == 0) {
        fputs(_("take a magic item from the supply - `item CARD`"), out);
    } else if (strcmp(kind, "take") == 0) {
        fprintf(out, _("take all the essences off %s, or leave them - `take` or `keep`"),
                name_at(d, "card"));
    } else if (strcmp(kind, "forge") == 0) {
        fputs(_("pay 1 Death for the Cursed Forge, or turn it - `forge pay` or `forge turn`"), out);
    } else if (strcmp(kind, "mage") == 0) {
        fputs(_("keep one of your two mages - `mage CARD`"), out);
    } else if (strcmp(kind, "draft") == 0 || strcmp(kind, "match_draft") == 0) {
        fputs(_("draft a card - `draft CARD`"), out);
    } else if (strcmp(kind, "first") == 0) {
        fputs(_("who is First Player of the next game - `first SEAT`"), out);
    } else {
        fprintf(out, _("%s (`legal` lists the choices)"), kind);
    }
    fputc('\n', out);
}

static void draw_result(FILE *out, const json_t *view, const struct render_style *st)
{
    const json_t *res = json_object_get(view, "result");
    const json_t *scores = json_object_get(res, "scores");
    char a[16];
    char b[16];
    size_t i;
    const json_t *v;

    if (!json_is_object(res)) {
        return;
    }
    fprintf(out, _("%sGame over%s: "), render_sgr(st, "1", a), render_sgr(st, "0", b));
    json_array_foreach(json_object_get(res, "winners"), i, v) {
        fprintf(out, "%s%s", i ? _(" and ") : "", seat_name(view, (long)json_integer_value(v)));
    }
    fputs(json_array_size(json_object_get(res, "winners")) > 1 ? _(" share the win") : _(" wins"),
          out);
    fputs(json_object_get(res, "games") ? _(" the duel;") : ";", out);
    json_array_foreach(scores, i, v) {
        fprintf(out, "%s %s %lld", i ? "," : "", seat_name(view, (long)i),
                (long long)json_integer_value(v));
    }
    fputs(json_object_get(res, "games") ? _(" games won") : _(" VP"), out);
    if (json_is_true(json_object_get(res, "round_limit"))) {
        fputs(_(" (round limit)"), out);
    }
    fputc('\n', out);
}

#define LOG_SHOWN 8

static void draw(FILE *out, const json_t *view, int seat, const struct render_style *st)
{
    const json_t *log = json_object_get(view, "log");
    const json_t *match = json_object_get(view, "match");
    size_t n = json_array_size(log);
    size_t i;
    const json_t *s;
    struct wrap w;

    if (wrap_begin(&w)) {
        draw_header(w.m, view, seat, st);
    }
    wrap_end(&w, out);
    draw_board(out, view, st);
    json_array_foreach(json_object_get(view, "seats"), i, s) {
        draw_seat(out, view, i, s, (int)i == seat, st);
    }
    if (json_array_size(json_object_get(match, "pool")) > 0) {
        card_line(out, _("Face-up cards to draft:"), json_object_get(match, "pool"), true);
    }
    draw_you(out, view, st);
    if (wrap_begin(&w)) {
        decision_words(w.m, view, seat, st);
    }
    wrap_end(&w, out);
    render_log(out, "arcana", view, n > LOG_SHOWN ? n - LOG_SHOWN : 0, "  ");
    draw_result(out, view, st);
}

/* ---- Commands ---- */

#define TOK_MAX 12
#define CAND_MAX 256

/* `s` as a card is typed or named, for comparing: lower case, apostrophes
 * dropped, every other run of non-letters one '_' ("Dragon's Lair" and
 * "dragons lair" both give "dragons_lair"). */
static void fold(const char *s, char *out, size_t len)
{
    size_t o = 0;
    bool gap = false;

    for (; *s && o + 2 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'') {
            continue;
        }
        if (isalnum(c)) {
            if (gap && o > 0) {
                out[o++] = '_';
            }
            gap = false;
            out[o++] = (char)tolower(c);
        } else {
            gap = true;
        }
    }
    out[o] = '\0';
}

/* Collects the card ids of the view (the known ones, the log left out). */
static void collect(const json_t *v, const char **ids, int *n)
{
    size_t i;
    const char *k;
    json_t *e;

    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        for (int j = 0; j < *n; j++) {
            if (strcmp(ids[j], s) == 0) {
                return;
            }
        }
        if (*n < CAND_MAX && text_of(s)) {
            ids[(*n)++] = s;
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, e) {
            collect(e, ids, n);
        }
    } else if (json_is_object(v)) {
        json_object_foreach((json_t *)v, k, e) {
            if (strcmp(k, "log") != 0) {
                collect(e, ids, n);
            }
        }
    }
}

/* 2 when `typed` (folded) is the card's id or name, 1 a prefix of one,
 * else 0. */
static int matches(const char *typed, const struct arcana_text *t)
{
    char name[128];

    fold(t->name, name, sizeof(name));
    if (strcmp(typed, t->id) == 0 || strcmp(typed, name) == 0) {
        return 2;
    }
    size_t n = strlen(typed);
    return strncmp(typed, t->id, n) == 0 || strncmp(typed, name, n) == 0;
}

/* The card `typed` names among `ids` (of kind `kind` unless NULL): an exact
 * id or name, else the one card it is a prefix of. NULL with *ret_count
 * the number that matched (0, or 2 and more with two of them in
 * ret_some[0] and ret_some[1]). */
static const char *pick(const char *typed, const char *const *ids, int n, const char *kind,
                        int *ret_count, const char **ret_some)
{
    const char *found = NULL;
    int count = 0;

    for (int i = 0; i < n; i++) {
        const struct arcana_text *t = text_of(ids[i]);
        if (!t || (kind && strcmp(t->kind, kind) != 0)) {
            continue;
        }
        int m = matches(typed, t);
        if (m == 2) {
            *ret_count = 1;
            return t->id;
        }
        if (m == 1) {
            ret_some[count < 2 ? count : 1] = t->id;
            found = t->id;
            count++;
        }
    }
    *ret_count = count;
    return count == 1 ? found : NULL;
}

/* A kind of card ("place_of_power") in the reader's language. */
static const char *kind_word(const char *kind)
{
    static const char *const words[] = {N_("artifact"), N_("magic_item"), N_("monument"),
                                        N_("place_of_power"), N_("mage")};

    const char *w = CLI_TR_AMONG(kind, words);
    return w ? w : kind;
}

/* The card id that `typed` names: among the cards of the view first, then
 * among all cards. NULL with a message in err when none or several do. */
static const char *resolve(const char *typed, const json_t *view, const char *kind, char *err,
                           size_t errlen)
{
    const char *ids[CAND_MAX];
    const char *all[128];
    const char *some[2] = {NULL, NULL};
    char folded[128];
    int n = 0;
    int count = 0;
    const char *id;

    if (cli_lang_get() == CLI_LANG_ZH_CN && !cli_is_ascii(typed)) {
        /* A Chinese name, or the start of one. */
        const struct cli_cat_card *c = cli_card_by_zh("arcana", typed, true);
        const struct arcana_text *t = c ? text_of(c->id) : NULL;
        if (t && (!kind || strcmp(t->kind, kind) == 0)) {
            return t->id;
        }
        snprintf(err, errlen, _("no %s \"%s\""), kind ? kind_word(kind) : _("card"), typed);
        return NULL;
    }
    fold(typed, folded, sizeof(folded));
    if (!folded[0]) {
        snprintf(err, errlen, _("name a card"));
        return NULL;
    }
    collect(view, ids, &n);
    id = pick(folded, ids, n, kind, &count, some);
    if (!id && count == 0) {
        int na = 0;
        for (size_t i = 0; i < arcana_ntexts && na < 128; i++) {
            all[na++] = arcana_texts[i].id;
        }
        id = pick(folded, all, na, kind, &count, some);
    }
    if (id) {
        return id;
    }
    if (count == 0) {
        snprintf(err, errlen, _("no %s \"%s\""), kind ? kind_word(kind) : _("card"), typed);
    } else {
        snprintf(err, errlen, _("\"%s\" could be %s or %s%s: type more of the name"), typed,
                 name_of(some[0]), name_of(some[1]), count > 2 ? _(" or others") : "");
    }
    return NULL;
}

static const char *essence_arg(const char *w)
{
    size_t n = strlen(w);

    for (size_t i = 0; n > 0 && i < NESS; i++) {
        if ((n == 1 && tolower((unsigned char)w[0]) == tolower(essences[i].letter)) ||
            strncasecmp(w, essences[i].key, n) == 0) {
            return essences[i].key;
        }
    }
    return NULL;
}

/* A seat as typed: its number, "me", or a unique prefix of its name; -1. */
static long seat_arg(const char *w, const json_t *view, int seat)
{
    const json_t *seats = json_object_get(view, "seats");
    char *end = NULL;
    long v = strtol(w, &end, 10);
    long found = -1;
    int count = 0;
    size_t i;
    const json_t *s;

    if (end != w && !*end) {
        return v >= 0 && (!seats || v < (long)json_array_size(seats)) ? v : -1;
    }
    if ((strcmp(w, "me") == 0 || strcmp(w, "self") == 0) && seat >= 0) {
        return seat;
    }
    json_array_foreach(seats, i, s) {
        if (strncasecmp(render_str(s, "name", ""), w, strlen(w)) == 0) {
            found = (long)i;
            count++;
        }
    }
    return count == 1 ? found : -1;
}

/* The power index of card `id` for `use` or `react`: `typed` (a digit),
 * or the card's only one of that kind; -1 with a message. */
static int power_arg(const char *id, const char *typed, bool react, char *err, size_t errlen)
{
    const struct arcana_text *t = text_of(id);
    const char *list = t ? (react ? t->reacts : t->actions) : "";

    if (typed) {
        return atoi(typed);
    }
    if (strlen(list) == 1) {
        return list[0] - '0';
    }
    if (!list[0]) {
        snprintf(err, errlen, _("%s has no %s power"), name_of(id),
                 react ? _("React") : _("action"));
    } else {
        snprintf(err, errlen, _("%s has powers %c and %c: say which (e.g. %s %s %c)"), name_of(id),
                 list[0], list[1], react ? "react" : "use", id, list[1]);
    }
    return -1;
}

/* The words of tok[from..to) joined by spaces into buf. */
static const char *rest(char *const *tok, int from, int to, char *buf, size_t len)
{
    size_t n = 0;

    buf[0] = '\0';
    for (int i = from; i < to && n + 1 < len; i++) {
        int k = snprintf(buf + n, len - n, "%s%s", i > from ? " " : "", tok[i]);
        n += k > 0 ? (size_t)k : 0;
    }
    return buf;
}

static int fail(char *err, size_t errlen, const char *msg)
{
    snprintf(err, errlen, "%s", msg);
    return -1;
}

/* Commands of one card argument: the word, the action type, the kind of
 * card (NULL: any) and "none" allowed. */
static const struct {
    const char *word, *type, *kind;
    bool none;
} card_cmds[] = {
    {"place", "place", "artifact", false},   {"discard", "discard", "artifact", false},
    {"pop", "pop", "place_of_power", false}, {"target", "target", NULL, true},
    {"order", "order", NULL, false},         {"item", "item", "magic_item", false},
    {"mage", "mage", "mage", false},         {"draft", "draft", NULL, false},
    {"pick", "draft", NULL, false},
};

/* Commands without an argument, and their action; `named`: the card it
 * is about may follow, and is not sent (Collect's take and leave). */
static const struct {
    const char *word, *json;
    bool named;
} bare_cmds[] = {
    {"pass", "{\"type\":\"pass\"}", false},
    {"more", "{\"type\":\"more\"}", false},
    {"done", "{\"type\":\"done\"}", false},
    {"take", "{\"type\":\"take\"}", true},
    {"keep", "{\"type\":\"leave\"}", true},
    {"leave", "{\"type\":\"leave\"}", true},
    {"lose", "{\"type\":\"respond\",\"with\":\"lose\"}", false},
    {"ignore", "{\"type\":\"respond\",\"with\":\"ignore\"}", false},
};

/* Commands of one word from a fixed set. */
static const struct {
    const char *word, *arg, *json;
} word_cmds[] = {
    {"deck", "own", "{\"type\":\"deck\",\"deck\":\"own\"}"},
    {"deck", "mine", "{\"type\":\"deck\",\"deck\":\"own\"}"},
    {"deck", "monument", "{\"type\":\"deck\",\"deck\":\"monument\"}"},
    {"deck", "monuments", "{\"type\":\"deck\",\"deck\":\"monument\"}"},
    {"statue", "yes", "{\"type\":\"statue\",\"use\":true}"},
    {"statue", "use", "{\"type\":\"statue\",\"use\":true}"},
    {"statue", "no", "{\"type\":\"statue\",\"use\":false}"},
    {"statue", "decline", "{\"type\":\"statue\",\"use\":false}"},
    {"forge", "pay", "{\"type\":\"forge\",\"with\":\"pay\"}"},
    {"forge", "turn", "{\"type\":\"forge\",\"with\":\"turn\"}"},
    {"claim", "deck", "{\"type\":\"monument\",\"card\":\"deck\"}"},
    {"monument", "deck", "{\"type\":\"monument\",\"card\":\"deck\"}"},
};

static json_t *from_json(const char *text)
{
    return json_loads(text, 0, NULL);
}

/* `claim [monument|pop] CARD` (the kind from the card when not said) and
 * `monument CARD` (`monument` true). */
static int parse_claim(char *const *tok, int nt, const json_t *view, bool monument, json_t **ret,
                       char *err, size_t errlen)
{
    char buf[256];
    int from = 1;
    const char *kind = monument ? "monument" : NULL;

    if (!monument && nt > 2 && (strcmp(tok[1], "monument") == 0 || strcmp(tok[1], "pop") == 0)) {
        kind = tok[1][0] == 'm' ? "monument" : "place_of_power";
        from = 2;
    }
    if (nt <= from) {
        return fail(err, errlen, _("claim CARD: a monument, `deck` or a Place of Power"));
    }
    if (kind && kind[0] == 'm' && nt == from + 1 && strcmp(tok[from], "deck") == 0) {
        *ret = from_json("{\"type\":\"monument\",\"card\":\"deck\"}");
        return 0;
    }
    const char *id = resolve(rest(tok, from, nt, buf, sizeof(buf)), view, kind, err, errlen);
    const struct arcana_text *t = text_of(id);
    if (!t) {
        return -1;
    }
    if (strcmp(t->kind, "monument") != 0 && strcmp(t->kind, "place_of_power") != 0) {
        snprintf(err, errlen, _("%s is neither a monument nor a Place of Power"), name_of(t->id));
        return -1;
    }
    *ret = json_pack("{s:s, s:s}", "type", t->kind[0] == 'm' ? "monument" : "pop", "card", t->id);
    return 0;
}

/* `use CARD [N]` and `react CARD [N]`. */
static int parse_power(char *const *tok, int nt, const json_t *view, bool react, json_t **ret,
                       char *err, size_t errlen)
{
    char buf[256];
    const char *num = NULL;
    int to = nt;

    if (nt > 2 && strlen(tok[nt - 1]) == 1 && isdigit((unsigned char)tok[nt - 1][0])) {
        num = tok[nt - 1];
        to = nt - 1;
    }
    if (to < 2) {
        return fail(err, errlen, react ? _("react CARD [N]") : _("use CARD [0|1]"));
    }
    const char *id = resolve(rest(tok, 1, to, buf, sizeof(buf)), view, NULL, err, errlen);
    if (!id) {
        return -1;
    }
    int p = power_arg(id, num, react, err, errlen);
    if (p < 0) {
        return -1;
    }
    *ret = react ? json_pack("{s:s, s:s, s:s, s:i}", "type", "respond", "with", "react", "card", id,
                             "power", p)
                 : json_pack("{s:s, s:s, s:i}", "type", "power", "card", id, "power", p);
    return 0;
}

static int parse_line(const char *line, const json_t *view, int seat, json_t **ret_action,
                      char *err, size_t errlen)
{
    char buf[512];
    char words[256];
    char *tok[TOK_MAX];
    json_t *a = NULL;

    snprintf(buf, sizeof(buf), "%s", line);
    int nt = render_words(buf, tok, TOK_MAX);
    if (nt == 0) {
        return fail(err, errlen, _("empty command"));
    }
    const char *cmd = tok[0];
    for (size_t i = 0; i < sizeof(bare_cmds) / sizeof(bare_cmds[0]); i++) {
        if (strcmp(cmd, bare_cmds[i].word) == 0 && (nt == 1 || bare_cmds[i].named)) {
            a = from_json(bare_cmds[i].json);
        }
    }
    if (!a && nt == 2) {
        for (size_t i = 0; i < sizeof(word_cmds) / sizeof(word_cmds[0]); i++) {
            if (strcmp(cmd, word_cmds[i].word) == 0 && strcmp(tok[1], word_cmds[i].arg) == 0) {
                a = from_json(word_cmds[i].json);
            }
        }
    }
    if (a) {
        *ret_action = a;
        return 0;
    }
    if (strcmp(cmd, "pay") == 0 || strcmp(cmd, "gain") == 0 || strcmp(cmd, "same") == 0 ||
        strcmp(cmd, "lose") == 0) {
        const char *e = nt == 2 ? essence_arg(tok[1]) : NULL;
        if (strcmp(cmd, "same") == 0 && nt == 2 && strcmp(tok[1], "none") == 0) {
            e = "none";
        }
        if (!e) {
            snprintf(err, errlen,
                     _("%s takes one essence: e(lan), l(ife), c(alm), d(eath), g(old)%s"), cmd,
                     cmd[0] == 's' ? _(" or none") : "");
            return -1;
        }
        *ret_action = json_pack("{s:s, s:s}", "type", cmd, "essence", e);
        return 0;
    }
    if (strcmp(cmd, "use") == 0 || strcmp(cmd, "react") == 0) {
        return parse_power(tok, nt, view, cmd[0] == 'r', ret_action, err, errlen);
    }
    if (strcmp(cmd, "claim") == 0 || (strcmp(cmd, "monument") == 0 && nt > 1)) {
        return parse_claim(tok, nt, view, cmd[0] == 'm', ret_action, err, errlen);
    }
    if (strcmp(cmd, "rival") == 0 || strcmp(cmd, "first") == 0) {
        long s = nt == 2 ? seat_arg(tok[1], view, seat) : -1;
        if (s < 0) {
            snprintf(err, errlen, _("%s SEAT: a seat number%s or a player's name"), cmd,
                     cmd[0] == 'f' ? _(", me") : "");
            return -1;
        }
        *ret_action = json_pack("{s:s, s:i}", "type", cmd, "seat", (int)s);
        return 0;
    }
    for (size_t i = 0; i < sizeof(card_cmds) / sizeof(card_cmds[0]); i++) {
        if (strcmp(cmd, card_cmds[i].word) != 0) {
            continue;
        }
        if (nt < 2) {
            snprintf(err, errlen, _("%s needs a card%s"), cmd,
                     card_cmds[i].none ? _(" or none") : "");
            return -1;
        }
        const char *id = card_cmds[i].none && nt == 2 && strcmp(tok[1], "none") == 0
                             ? "none"
                             : resolve(rest(tok, 1, nt, words, sizeof(words)), view,
                                       card_cmds[i].kind, err, errlen);
        if (!id) {
            return -1;
        }
        *ret_action = json_pack("{s:s, s:s}", "type", card_cmds[i].type, "card", id);
        return 0;
    }
    static const char *const needs_word[] = {"deck", "statue", "forge", "claim", "monument",
                                             "keep", "pass",   "more",  "done",  "ignore"};
    for (size_t i = 0; i < sizeof(needs_word) / sizeof(needs_word[0]); i++) {
        if (strcmp(cmd, needs_word[i]) == 0) {
            snprintf(err, errlen, _("%s: not that way; type help"), cmd);
            return -1;
        }
    }
    snprintf(err, errlen, _("unknown command \"%s\""), cmd);
    return -1;
}

/* parse_line, with an action that could not be built (out of memory)
 * refused. */
static int parse(const char *line, const json_t *view, int seat, json_t **ret_action, char *err,
                 size_t errlen)
{
    json_t *a = NULL;

    if (parse_line(line, view, seat, &a, err, errlen) != 0) {
        return -1;
    }
    if (!a) {
        return fail(err, errlen, _("out of memory"));
    }
    *ret_action = a;
    return 0;
}

/* ---- Words ---- */

static const char *essence_word(const char *key)
{
    const struct essence *e = essence_of(key);

    return e ? _(e->word) : key;
}

static int phrase(const json_t *a, char *buf, size_t len)
{
    const char *t = render_str(a, "type", "");
    const char *card = render_str(a, "card", "");
    const char *ess = essence_word(render_str(a, "essence", "?"));
    const char *with = render_str(a, "with", "");

    if (strcmp(t, "place") == 0) {
        snprintf(buf, len, _("place %s"), name_of(card));
    } else if (strcmp(t, "monument") == 0) {
        if (strcmp(card, "deck") == 0) {
            snprintf(buf, len, _("claim the top monument of the deck (4 Gold)"));
        } else {
            snprintf(buf, len, _("claim the monument %s (4 Gold)"), name_of(card));
        }
    } else if (strcmp(t, "pop") == 0) {
        snprintf(buf, len, _("claim the Place of Power %s"), name_of(card));
    } else if (strcmp(t, "discard") == 0) {
        snprintf(buf, len, _("discard %s for 1 Gold or 2 other essences"), name_of(card));
    } else if (strcmp(t, "power") == 0) {
        snprintf(buf, len, _("use %s, power %ld"), name_of(card), render_num(a, "power"));
    } else if (strcmp(t, "pass") == 0) {
        snprintf(buf, len, _("pass (then pick a new magic item)"));
    } else if (strcmp(t, "pay") == 0 || strcmp(t, "gain") == 0 || strcmp(t, "lose") == 0) {
        snprintf(buf, len,
                 strcmp(t, "pay") == 0    ? _("pay 1 %s")
                 : strcmp(t, "gain") == 0 ? _("gain 1 %s")
                                          : _("lose 1 %s"),
                 ess);
    } else if (strcmp(t, "same") == 0) {
        if (strcmp(render_str(a, "essence", ""), "none") == 0) {
            snprintf(buf, len, _("pay none of one type (X = 0)"));
        } else {
            snprintf(buf, len, _("pay X in %s, starting with 1"), ess);
        }
    } else if (strcmp(t, "more") == 0) {
        snprintf(buf, len, _("pay one more of that type"));
    } else if (strcmp(t, "done") == 0) {
        snprintf(buf, len, _("stop paying that type"));
    } else if (strcmp(t, "target") == 0) {
        snprintf(buf, len, strcmp(card, "none") == 0 ? _("choose no card") : _("choose %s"),
                 name_of(card));
    } else if (strcmp(t, "rival") == 0) {
        snprintf(buf, len, _("pick seat %ld as the rival"), render_num(a, "seat"));
    } else if (strcmp(t, "deck") == 0) {
        snprintf(buf, len, _("look at %s"),
                 strcmp(render_str(a, "deck", ""), "own") == 0 ? _("your own deck")
                                                               : _("the monument deck"));
    } else if (strcmp(t, "order") == 0) {
        snprintf(buf, len, _("put %s next from the top"), name_of(card));
    } else if (strcmp(t, "respond") == 0 && strcmp(with, "lose") == 0) {
        snprintf(buf, len, _("take the life loss"));
    } else if (strcmp(t, "respond") == 0 && strcmp(with, "ignore") == 0) {
        snprintf(buf, len, _("pay the attack's ignore cost"));
    } else if (strcmp(t, "respond") == 0 && strcmp(with, "react") == 0) {
        snprintf(buf, len, _("react with %s, power %ld"), name_of(card), render_num(a, "power"));
    } else if (strcmp(t, "statue") == 0) {
        snprintf(buf, len,
                 json_is_true(json_object_get(a, "use"))
                     ? _("use the Golden Statue (3 Gold, +3 VP at this check)")
                     : _("do not use the Golden Statue"));
    } else if (strcmp(t, "item") == 0) {
        snprintf(buf, len, _("take the magic item %s"), name_of(card));
    } else if (strcmp(t, "take") == 0) {
        snprintf(buf, len, _("take the essences off the card"));
    } else if (strcmp(t, "leave") == 0) {
        snprintf(buf, len, _("leave the essences on the card"));
    } else if (strcmp(t, "forge") == 0) {
        snprintf(buf, len,
                 strcmp(with, "pay") == 0 ? _("pay 1 Death for the Cursed Forge")
                                          : _("turn the Cursed Forge"));
    } else if (strcmp(t, "mage") == 0) {
        snprintf(buf, len, _("keep the mage %s"), name_of(card));
    } else if (strcmp(t, "draft") == 0) {
        snprintf(buf, len, _("draft %s"), name_of(card));
    } else if (strcmp(t, "first") == 0) {
        snprintf(buf, len, _("seat %ld is First Player of the next game"), render_num(a, "seat"));
    } else {
        return -1;
    }
    return 0;
}

/* `text` with each "@{id}" in it replaced by the name of that card. */
static void with_names(FILE *out, const char *text)
{
    for (const char *p = text; *p;) {
        const char *at = strstr(p, "@{");
        const char *end = at ? strchr(at, '}') : NULL;
        char id[64];
        if (!end) {
            fputs(p, out);
            break;
        }
        fwrite(p, 1, (size_t)(at - p), out);
        snprintf(id, sizeof(id), "%.*s", (int)(end - at - 2), at + 2);
        fputs(name_of(id), out);
        p = end + 1;
    }
}

/* `card NAME`: the card whose id or name NAME is, or starts, if only one
 * does; in zh-CN its Chinese text, wrapped by the width of its
 * characters. */
static int card_text(FILE *out, const char *name)
{
    char err[128];
    const char *id = resolve(name, NULL, NULL, err, sizeof(err));
    const struct arcana_text *t = text_of(id);
    struct wrap w;

    if (!t) {
        return -1;
    }
    if (cli_lang_get() != CLI_LANG_ZH_CN) {
        fprintf(out, "%s\n", t->text);
        return 0;
    }
    if (wrap_begin(&w)) {
        fprintf(w.m, _("%s (%s): "), name_of(t->id), t->id);
        with_names(w.m, t->text_zh);
        fputc('\n', w.m);
    }
    wrap_end(&w, out);
    return 0;
}

/* How the scores of `result` were made, one line per point. */
static void end_words(FILE *out, const json_t *result, const char *const *names, int nseats)
{
    const json_t *scores = json_object_get(result, "scores");
    const json_t *tie = json_object_get(result, "tiebreak");
    const json_t *games = json_object_get(result, "games");
    long best = -1;
    int at_best = 0;
    size_t i;
    const json_t *v;

    json_array_foreach(scores, i, v) {
        long s = (long)json_integer_value(v);
        at_best = s > best ? 1 : s == best ? at_best + 1 : at_best;
        best = s > best ? s : best;
    }
    if (json_is_array(games)) {
        fputs(_("The scores are games won in the duel (best of three; a shared game counts "
                "for nobody).\n"),
              out);
        json_array_foreach(games, i, v) {
            const json_t *w = json_object_get(v, "winners");
            size_t k;
            const json_t *x;
            fprintf(out, _("  game %zu:"), i + 1);
            json_array_foreach(w, k, x) {
                long s = (long)json_integer_value(x);
                fprintf(out, "%s %s", k ? _(" and") : "", s >= 0 && s < nseats ? names[s] : "?");
            }
            fputs(json_array_size(w) > 1 ? _(" shared it")
                  : json_array_size(w)   ? _(" won")
                                         : " -",
                  out);
            json_array_foreach(json_object_get(v, "scores"), k, x) {
                fprintf(out, "%s %lld", k ? "," : _(";  VP"), (long long)json_integer_value(x));
            }
            fputs(json_is_true(json_object_get(v, "round_limit")) ? " (round limit)\n" : "\n", out);
        }
    } else if (at_best > 1 && json_array_size(tie) > 0) {
        fputs(_("Tied on VP: the pool decides (each Gold counts 2):"), out);
        json_array_foreach(tie, i, v) {
            fprintf(out, "%s %s %lld", i ? "," : "", (int)i < nseats ? names[i] : "?",
                    (long long)json_integer_value(v));
        }
        fputc('\n', out);
    }
    if (json_is_true(json_object_get(result, "round_limit"))) {
        fputs(_("Round 50 ended without 10 VP: the round limit ended the game, most VP won.\n"),
              out);
    }
}

/* The end screen's part: end_words wrapped to the width. */
static void end(FILE *out, const json_t *result, const char *const *names, int nseats)
{
    struct wrap w;

    if (wrap_begin(&w)) {
        end_words(w.m, result, names, nseats);
    }
    wrap_end(&w, out);
}

const struct render_ops render_arcana = {
    .game = "arcana",
    .draw = draw,
    .parse = parse,
    .help = arcana_help,
    .phrase = phrase,
    .card = card_text,
    .end = end,
};
