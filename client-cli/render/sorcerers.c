/* SPDX-License-Identifier: MIT */
/*
 * sorcerers.c - the terminal renderer of Sorcerers for the `conclave`
 * client: draws a view (both tableaux, your hand and private information,
 * counts, the duel, the log) as text and turns short typed commands into
 * action objects. It reads views only; it must never apply rules or decide
 * legality (the server does).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lang.h"
#include "render.h"
#include "sorc_texts.h"

#define TOK_MAX 8

static const char sorc_help[] =
    N_("deal CARD                 discard a card to Deal with the Devil (lore_faust)\n"
       "done                      end the step (lore_faust, recruit, clear your mind)\n"
       "recruit CARD              put a sorcerer from your hand into play\n"
       "equip CARD SORCERER       equip an object from your hand\n"
       "move OBJECT SORCERER      move an object between your sorcerers\n"
       "drop OBJECT               discard an object (recruit, object overflow)\n"
       "place SORCERER            place the Grimhold\n"
       "activate CARD [TARGET] [TO]  use an Event Ability\n"
       "pass                      pass (event, defense, protect)\n"
       "track CARD|none           take a card from the deck list\n"
       "discard CARD              discard a card (hex/illusion, hand limit)\n"
       "keep                      keep the random encounter pick\n"
       "ftf SORCERER              bring a First to Fight sorcerer forward\n"
       "martyr SORCERER           play Martyr for another sorcerer\n"
       "spell CARD|none           combo step 1\n"
       "event CARD|none           combo step 2\n"
       "amp CARD|none             combo steps 3-5 (once per step)\n"
       "declare [sacrifice] [betray SORCERER]  combo step 6\n"
       "clear CARD                discard a card for Clear your Mind\n"
       "negate CARD=TARGET|none ...  reveal negations, in slot order\n"
       "defense CARD TARGET       play a Defense negation card\n"
       "protect CARD              protect your defeated sorcerer\n"
       "steal CARD                take a card from the loser's hand\n"
       "help                      this list\n"
       "Card names may be abbreviated to any unique prefix of an id in the view.\n");

/* ---- Drawing ---- */

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "-";
}

static long num(const json_t *o, const char *key)
{
    return (long)json_integer_value(json_object_get(o, key));
}

/* A word of the view (a phase, a duel's outcome, the reason a game
 * ended) in the reader's language; another word as it is. */
static const char *word(const char *id)
{
    static const char *const words[] = {
        N_("lore_faust"),
        N_("recruit"),
        N_("event"),
        N_("event_track"),
        N_("event_discard"),
        N_("encounter"),
        N_("duel_combo"),
        N_("duel_clear_mind"),
        N_("duel_negate"),
        N_("duel_defense"),
        N_("duel_protect"),
        N_("duel_steal"),
        N_("object_overflow"),
        N_("grimhold_place"),
        N_("end_discard"),
        N_("over"),
        N_("pending"),
        N_("winner"),
        N_("tie"),
        N_("sacrifice"),
        N_("no_duel"),
        N_("destroy_morgana"),
        N_("prime_merlinian_succession"),
        N_("rising_spell"),
        N_("army_of_sorcerers"),
        N_("simultaneous"),
        N_("turn_limit"),
        N_("forfeit"),
    };

    const char *w = CLI_TR_AMONG(id, words);
    return w ? w : id ? id : "-";
}

/* A card of the view as the reader reads it: its id, or in zh-CN the
 * catalogue's Chinese name when it has one. */
static const char *shown(const char *id)
{
    const char *zh = cli_card_name("sorcerers", id);

    return zh ? zh : id;
}

static void print_ids(FILE *out, const json_t *arr)
{
    size_t i;
    const json_t *v;

    if (json_array_size(arr) == 0) {
        fputs(_("(none)"), out);
        return;
    }
    json_array_foreach(arr, i, v) {
        fprintf(out, "%s%s", i ? ", " : "", json_is_string(v) ? shown(json_string_value(v)) : "-");
    }
}

static void draw_seat(FILE *out, const json_t *seat, int me, const struct render_style *st)
{
    char b1[16];
    char b2[16];
    size_t i;
    const json_t *s;
    int mer = strcmp(str(seat, "faction"), "merlinian") == 0;

    fprintf(out, _("%s%s%s (%s)%s  hand %ld/%ld%s\n"), render_sgr(st, mer ? "1;36" : "1;35", b1),
            me ? "> " : "  ", str(seat, "name"), mer ? _("Merlinians") : _("Morganians"),
            render_sgr(st, "0", b2), num(seat, "hand_size"), num(seat, "hand_limit"),
            json_is_true(json_object_get(seat, "submitted")) ? _("  [submitted]") : "");
    json_array_foreach(json_object_get(seat, "sorcerers"), i, s) {
        fprintf(out, "    %s [", shown(str(s, "card")));
        print_ids(out, json_object_get(s, "objects"));
        fprintf(out, "]%s\n",
                json_is_true(json_object_get(s, "first_to_fight_temp")) ? _(" (first to fight)")
                                                                        : "");
    }
}

static void draw_duel(FILE *out, const json_t *duel, const struct render_style *st)
{
    size_t i;
    const json_t *side;
    char b1[16];
    char b2[16];

    fprintf(out, _("%sDuel%s (%s)"), render_sgr(st, "1;33", b1), render_sgr(st, "0", b2),
            word(str(duel, "outcome")));
    if (json_object_get(duel, "winner")) {
        fprintf(out, _(" winner seat %ld by %ld%s"), num(duel, "winner"), num(duel, "margin"),
                json_is_true(json_object_get(duel, "protected")) ? _(", protected") : "");
    }
    if (json_is_true(json_object_get(duel, "destroy_morgana"))) {
        fputs(_(" - Morgana destroyed"), out);
    }
    fputc('\n', out);
    json_array_foreach(json_object_get(duel, "sides"), i, side) {
        const json_t *c = json_object_get(side, "combo");
        fprintf(out, _("  seat %zu: %s (picked %s)"), i, shown(str(side, "sorcerer")),
                shown(str(side, "pick")));
        if (c) {
            fprintf(out, _(" total %ld\n    spell %s, event %s, amps "), num(side, "total"),
                    shown(str(c, "spell")), shown(str(c, "event")));
            print_ids(out, json_object_get(c, "amplifiers"));
            fprintf(out, _("; negated "));
            print_ids(out, json_object_get(c, "negated"));
            fprintf(out, _("; defense %s, protect %s%s%s"), shown(str(c, "defense")),
                    shown(str(c, "protect")),
                    json_is_true(json_object_get(c, "sacrifice")) ? _(", SACRIFICE") : "",
                    json_is_string(json_object_get(c, "betray")) ? _(", betrays ") : "");
            if (json_is_string(json_object_get(c, "betray"))) {
                fputs(shown(str(c, "betray")), out);
            }
        }
        fputc('\n', out);
    }
}

static void draw(FILE *out, const json_t *view, int seat, const struct render_style *st)
{
    const json_t *you = json_object_get(view, "you");
    const json_t *res = json_object_get(view, "result");
    const json_t *ev = json_object_get(view, "event");
    const json_t *duel = json_object_get(view, "duel");
    const json_t *grim = json_object_get(view, "grimhold");
    const json_t *markers = json_object_get(view, "markers");
    char b1[16];
    char b2[16];
    size_t i;
    const json_t *v;

    fprintf(out, _("%sSorcerers%s  turn %ld/%ld  phase %s  active:"), render_sgr(st, "1", b1),
            render_sgr(st, "0", b2), num(view, "turn"), num(view, "max_turns"),
            word(str(view, "phase")));
    json_array_foreach(json_object_get(view, "active"), i, v) {
        fprintf(out, " %ld%s", (long)json_integer_value(v),
                json_integer_value(v) == seat ? _(" (you)") : "");
    }
    fputc('\n', out);
    json_array_foreach(json_object_get(view, "seats"), i, v) {
        draw_seat(out, v, (int)i == seat, st);
    }
    fprintf(out, _("%s on %s; deck %ld; markers Dave %ld, Morgana %ld\n"),
            render_card_name("sorcerers", "grimhold", "Grimhold"), shown(str(grim, "on")),
            num(view, "deck_size"), num(markers, "dave"), num(markers, "morgana"));
    fprintf(out, _("Discard (%zu): "), json_array_size(json_object_get(view, "discard")));
    {
        const json_t *d = json_object_get(view, "discard");
        size_t n = json_array_size(d);
        for (size_t k = n > 6 ? n - 6 : 0; k < n; k++) {
            fprintf(out, "%s%s", k > (n > 6 ? n - 6 : 0) ? ", " : "",
                    shown(json_string_value(json_array_get(d, k))));
        }
        fputs(n ? "\n" : _("(empty)\n"), out);
    }
    /* "event" and "duel" are null outside their phases. */
    if (json_is_object(ev)) {
        fprintf(out, _("Event priority: seat %ld; activated: "), num(ev, "priority"));
        print_ids(out, json_object_get(ev, "activated"));
        fputc('\n', out);
    }
    if (json_is_object(duel)) {
        draw_duel(out, duel, st);
    }
    if (you) {
        const char *keys[] = {"scry", "divination", "track_list", "opponent_hand"};
        const char *labels[] = {N_("Opponent's hand (Vision)"), N_("Top of deck"),
                                N_("Deck (track)"), N_("Loser's hand")};
        fprintf(out, _("%sYour hand%s: "), render_sgr(st, "1;32", b1), render_sgr(st, "0", b2));
        print_ids(out, json_object_get(you, "hand"));
        fputc('\n', out);
        if (json_object_get(you, "draft")) {
            const json_t *d = json_object_get(you, "draft");
            fprintf(out, _("Your combo draft (%ld/6): spell %s, event %s, amps "), num(d, "steps"),
                    shown(str(d, "spell")), shown(str(d, "event")));
            print_ids(out, json_object_get(d, "amplifiers"));
            fputc('\n', out);
        }
        for (size_t k = 0; k < 4; k++) {
            if (json_object_get(you, keys[k])) {
                fprintf(out, "%s: ", _(labels[k]));
                print_ids(out, json_object_get(you, keys[k]));
                fputc('\n', out);
            }
        }
        json_array_foreach(json_object_get(you, "transfers"), i, v) {
            fprintf(out, _("Moved: %s from seat %ld to seat %ld\n"), shown(str(v, "card")),
                    num(v, "from"), num(v, "to"));
        }
    }
    render_log(out, "sorcerers", view, 0, "  ");
    if (json_is_object(res)) {
        fprintf(out, _("%sGame over%s: %s, winners "), render_sgr(st, "1;31", b1),
                render_sgr(st, "0", b2), word(str(res, "reason")));
        json_array_foreach(json_object_get(res, "winners"), i, v) {
            fprintf(out, "%s%ld", i ? ", " : "", (long)json_integer_value(v));
        }
        fputc('\n', out);
    }
}

/* ---- Parsing ---- */

/* Collects every string of `v` that looks like a card id into `out`. */
static void collect(const json_t *v, const char **out, int *n, int max)
{
    size_t i;
    const char *k;
    json_t *e;

    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (*n < max && strlen(s) > 2 && strspn(s, "abcdefghijklmnopqrstuvwxyz_") == strlen(s)) {
            out[(*n)++] = s;
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, e) {
            collect(e, out, n, max);
        }
    } else if (json_is_object(v)) {
        json_object_foreach((json_t *)v, k, e) {
            if (strcmp(k, "log") != 0) {
                collect(e, out, n, max);
            }
        }
    }
}

/* Resolves an abbreviated card name against the ids in the view. */
static json_t *card(const char *tok, const json_t *view)
{
    const char *ids[512];
    int n = 0;
    const char *found = NULL;
    int count = 0;

    if (strcmp(tok, "none") == 0 || strcmp(tok, "null") == 0) {
        return json_null();
    }
    if (view) {
        collect(view, ids, &n, 512);
    }
    if (cli_lang_get() == CLI_LANG_ZH_CN && !cli_is_ascii(tok)) {
        /* A card by its Chinese name, or the start of it: among the
         * cards of the view first, then among all. */
        const char *one = NULL;
        bool several = false;
        for (int i = 0; i < n; i++) {
            const char *zh = cli_card_name("sorcerers", ids[i]);
            if (!zh || strncmp(zh, tok, strlen(tok)) != 0) {
                continue;
            }
            if (!zh[strlen(tok)]) {
                return json_string(ids[i]);
            }
            several |= one && strcmp(one, ids[i]) != 0;
            one = ids[i];
        }
        if (one && !several) {
            return json_string(one);
        }
        const struct cli_cat_card *c = cli_card_by_zh("sorcerers", tok, true);
        return json_string(c ? c->id : tok);
    }
    for (int i = 0; i < n; i++) {
        if (strcmp(ids[i], tok) == 0) {
            return json_string(tok);
        }
    }
    for (int i = 0; i < n; i++) {
        if (strncmp(ids[i], tok, strlen(tok)) == 0) {
            if (!found) {
                found = ids[i];
                count = 1;
            } else if (strcmp(found, ids[i]) != 0) {
                count = 2;
            }
        }
    }
    return json_string(count == 1 && found ? found : tok);
}

static int parse(const char *line, const json_t *view, int seat, json_t **ret_action, char *err,
                 size_t errlen)
{
    char buf[512];
    char *tok[TOK_MAX];
    int nt = 0;
    char *save = NULL;
    json_t *a = NULL;
    const char *cmd;

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
#define NEED(n)                                                                                    \
    do {                                                                                           \
        if (nt < (n) + 1) {                                                                        \
            snprintf(err, errlen, _("%s needs %d argument(s); type help"), cmd, (n));              \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)
    if (strcmp(cmd, "done") == 0 || strcmp(cmd, "pass") == 0) {
        a = json_pack("{s:s}", "type", cmd);
    } else if (strcmp(cmd, "keep") == 0) {
        a = json_pack("{s:s, s:s}", "type", "encounter", "choice", "keep");
    } else if (strcmp(cmd, "ftf") == 0 || strcmp(cmd, "martyr") == 0) {
        NEED(1);
        a = json_pack("{s:s, s:s, s:o}", "type", "encounter", "choice",
                      cmd[0] == 'f' ? "first_to_fight" : "martyr", "sorcerer", card(tok[1], view));
    } else if (strcmp(cmd, "deal") == 0 || strcmp(cmd, "recruit") == 0 ||
               strcmp(cmd, "discard") == 0 || strcmp(cmd, "protect") == 0 ||
               strcmp(cmd, "steal") == 0 || strcmp(cmd, "clear") == 0 ||
               strcmp(cmd, "track") == 0) {
        NEED(1);
        a = json_pack("{s:s, s:o}", "type", strcmp(cmd, "clear") == 0 ? "clear_mind" : cmd, "card",
                      card(tok[1], view));
    } else if (strcmp(cmd, "spell") == 0 || strcmp(cmd, "event") == 0 || strcmp(cmd, "amp") == 0) {
        char type[32];
        snprintf(type, sizeof(type), "combo_%s", cmd);
        a = json_pack("{s:s, s:o}", "type", type, "card",
                      nt > 1 ? card(tok[1], view) : json_null());
    } else if (strcmp(cmd, "equip") == 0 || strcmp(cmd, "defense") == 0) {
        NEED(2);
        a = json_pack("{s:s, s:o, s:o}", "type", cmd, "card", card(tok[1], view),
                      cmd[0] == 'e' ? "to" : "target", card(tok[2], view));
    } else if (strcmp(cmd, "move") == 0) {
        NEED(2);
        a = json_pack("{s:s, s:o, s:o}", "type", "move_object", "object", card(tok[1], view), "to",
                      card(tok[2], view));
    } else if (strcmp(cmd, "drop") == 0) {
        NEED(1);
        a = json_pack("{s:s, s:o}", "type", "discard_object", "object", card(tok[1], view));
    } else if (strcmp(cmd, "place") == 0) {
        NEED(1);
        a = json_pack("{s:s, s:o}", "type", "place_grimhold", "to", card(tok[1], view));
    } else if (strcmp(cmd, "activate") == 0 || strcmp(cmd, "act") == 0) {
        NEED(1);
        a = json_pack("{s:s, s:o}", "type", "activate", "card", card(tok[1], view));
        if (a && nt > 2) {
            json_object_set_new(a, "target", card(tok[2], view));
        }
        if (a && nt > 3) {
            json_object_set_new(a, "to", card(tok[3], view));
        }
    } else if (strcmp(cmd, "declare") == 0) {
        int sac = 0;
        json_t *betray = json_null();
        for (int i = 1; i < nt; i++) {
            if (strcmp(tok[i], "sacrifice") == 0) {
                sac = 1;
            } else if (strcmp(tok[i], "betray") == 0 && i + 1 < nt) {
                json_decref(betray);
                betray = card(tok[++i], view);
            }
        }
        a = json_pack("{s:s, s:b, s:o}", "type", "combo_declare", "sacrifice", sac, "betray",
                      betray);
    } else if (strcmp(cmd, "negate") == 0) {
        json_t *choices = json_array();
        for (int i = 1; i < nt && choices; i++) {
            char *eq = strchr(tok[i], '=');
            if (!eq) {
                json_decref(choices);
                snprintf(err, errlen, _("write each negation as CARD=TARGET or CARD=none"));
                return -1;
            }
            *eq = '\0';
            json_array_append_new(choices, json_pack("{s:o, s:o}", "card", card(tok[i], view),
                                                     "target", card(eq + 1, view)));
        }
        a = json_pack("{s:s, s:o}", "type", "negate", "choices", choices);
    } else {
        snprintf(err, errlen, _("unknown command '%s'; type help"), cmd);
        return -1;
    }
#undef NEED
    if (!a) {
        snprintf(err, errlen, _("out of memory"));
        return -1;
    }
    *ret_action = a;
    return 0;
}

/* "Balthazar Blake", "balthazar_blake" or "balthazar blake" name the
 * same card. */
static bool same_name(const char *typed, const char *id, const char *name)
{
    size_t i = 0;

    if (strcasecmp(typed, name) == 0) {
        return true;
    }
    for (; typed[i] && id[i]; i++) {
        char t = typed[i] == ' ' ? '_' : (char)tolower((unsigned char)typed[i]);
        if (t != id[i]) {
            return false;
        }
    }
    return !typed[i] && !id[i];
}

/* `card NAME`: by the card's id or English name, or in zh-CN by its
 * Chinese name (or the start of it); its words in the reader's language. */
static int card_text(FILE *out, const char *name)
{
    bool zh = cli_lang_get() == CLI_LANG_ZH_CN;
    const struct cli_cat_card *named =
        zh && !cli_is_ascii(name) ? cli_card_by_zh("sorcerers", name, true) : NULL;

    for (size_t i = 0; i < sorc_ntexts; i++) {
        const struct sorc_text *t = &sorc_texts[i];
        if (same_name(name, t->id, t->name) || (named && strcmp(named->id, t->id) == 0)) {
            const char *classes = zh ? t->classes_zh : t->classes;
            fprintf(out, _("%s: %s%s%s%s, power %d. %s\n"),
                    render_card_name("sorcerers", t->id, t->name), zh ? t->type_zh : t->type,
                    classes[0] ? _(" (") : "", classes, classes[0] ? _(")") : "", t->power,
                    zh ? t->note_zh : t->note);
            return 0;
        }
    }
    return -1;
}

const struct render_ops render_sorcerers = {
    .game = "sorcerers",
    .draw = draw,
    .parse = parse,
    .help = sorc_help,
    .card = card_text,
};
