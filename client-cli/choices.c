/* SPDX-License-Identifier: MIT */
/*
 * choices.c - a `legal` list as a person reads it: each action as a short
 * phrase (the game's renderer words it when it can; otherwise its type and
 * fields in plain words), grouped by kind, long kinds summarised with the
 * command that lists them. Numbers run over the whole list, so `#N` means
 * the same whether a kind was shown or summarised.
 */
#include "client.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lang.h"
#include "render.h"

/* Kinds with more entries than this are summarised when the whole list is
 * longer than LIST_MAX and has three kinds or more. */
#define KIND_SHOWN 4
#define LIST_MAX 15

/* "robert_fludd" -> "Robert Fludd"; other strings as they are. */
static void title(const char *id, char *out, size_t outlen)
{
    size_t o = 0;
    bool word_start = true;
    bool is_id = strchr(id, '_') != NULL || (islower((unsigned char)id[0]) && strlen(id) > 3);

    for (const char *p = id; *p && o + 1 < outlen; p++) {
        char c = *p == '_' ? ' ' : *p;
        if (is_id && word_start && islower((unsigned char)c)) {
            c = (char)toupper((unsigned char)c);
        }
        word_start = c == ' ';
        out[o++] = c;
    }
    out[o] = '\0';
}

static void add(char *buf, size_t len, const char *s)
{
    size_t n = strlen(buf);

    if (n + 1 < len) {
        snprintf(buf + n, len - n, "%s", s);
    }
}

/* The words of the generic wording (action types, field names and the
 * values of a few fields, as ids) that have a translation: `id` in the
 * reader's language, or NULL. */
static const char *id_words(const char *id)
{
    static const char *const words[] = {
        /* Action types (Sorcerers' and the generic ones). */
        N_("done"),
        N_("pass"),
        N_("encounter"),
        N_("deal"),
        N_("recruit"),
        N_("discard"),
        N_("protect"),
        N_("steal"),
        N_("clear mind"),
        N_("track"),
        N_("combo spell"),
        N_("combo event"),
        N_("combo amp"),
        N_("equip"),
        N_("defense"),
        N_("move object"),
        N_("discard object"),
        N_("place grimhold"),
        N_("activate"),
        N_("combo declare"),
        N_("negate"),
        /* Field names and values. */
        N_("sorcerer"),
        N_("sacrifice"),
        N_("betray"),
        N_("choices"),
        N_("keep"),
        N_("first to fight"),
        N_("martyr"),
    };
    char spaced[64];

    snprintf(spaced, sizeof(spaced), "%s", id);
    for (char *p = spaced; *p; p++) {
        *p = *p == '_' ? ' ' : *p;
    }
    return CLI_TR_AMONG(spaced, words);
}

/* A value of an action in words: in zh-CN, a card by its Chinese name or
 * a known id by its words; else "robert_fludd" as "Robert Fludd". */
static void value_words(const char *game, const char *id, char *out, size_t outlen)
{
    const char *zh = cli_lang_get() == CLI_LANG_ZH_CN ? cli_card_name(game, id) : NULL;

    if (!zh && cli_lang_get() == CLI_LANG_ZH_CN) {
        zh = id_words(id);
    }
    if (zh) {
        snprintf(out, outlen, "%s", zh);
    } else {
        title(id, out, outlen);
    }
}

static void add_value(char *buf, size_t len, const json_t *v, const char *game)
{
    char tmp[128];

    if (json_is_string(v)) {
        value_words(game, json_string_value(v), tmp, sizeof(tmp));
        add(buf, len, tmp);
    } else if (json_is_integer(v)) {
        snprintf(tmp, sizeof(tmp), "%lld", (long long)json_integer_value(v));
        add(buf, len, tmp);
    } else if (json_is_true(v) || json_is_false(v)) {
        add(buf, len, json_is_true(v) ? _("yes") : _("no"));
    } else if (json_is_null(v)) {
        add(buf, len, _("none"));
    } else if (json_is_array(v)) {
        size_t i;
        json_t *x;
        bool numbers = json_array_size(v) > 0 && json_is_integer(json_array_get(v, 0));
        add(buf, len, numbers ? "(" : "");
        json_array_foreach(v, i, x) {
            add(buf, len, i ? (numbers ? "," : _(" and ")) : "");
            add_value(buf, len, x, game);
        }
        add(buf, len, numbers ? ")" : "");
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        bool first = true;
        json_object_foreach((json_t *)v, k, x) {
            add(buf, len, first ? "" : " ");
            first = false;
            add_value(buf, len, x, game);
        }
    }
}

/* An action type ("move_object") in words: "move object", or in zh-CN
 * its translation when it has one. */
static void kind_words(const char *type, char *out, size_t outlen)
{
    const char *zh = cli_lang_get() == CLI_LANG_ZH_CN ? id_words(type) : NULL;

    snprintf(out, outlen, "%s", zh ? zh : type);
    for (char *p = out; !zh && *p; p++) {
        *p = *p == '_' ? ' ' : *p;
    }
}

void cli_action_phrase(const json_t *action, const char *game, char *buf, size_t len)
{
    const struct render_ops *ro = render_find(game);
    const char *type = json_string_value(json_object_get(action, "type"));
    const char *k;
    json_t *v;
    char verb[64];

    buf[0] = '\0';
    if (ro && ro->phrase && ro->phrase(action, buf, len) == 0) {
        return;
    }
    kind_words(type ? type : "?", verb, sizeof(verb));
    add(buf, len, verb);
    json_object_foreach((json_t *)action, k, v) {
        if (strcmp(k, "type") == 0) {
            continue;
        }
        /* The thing acted on follows the verb; other fields are named. */
        if (strcmp(k, "card") == 0 || strcmp(k, "object") == 0 || strcmp(k, "tile") == 0 ||
            strcmp(k, "choice") == 0 || strcmp(k, "artifact") == 0) {
            add(buf, len, " ");
        } else if (strcmp(k, "target") == 0) {
            add(buf, len, _(" on "));
        } else if (strcmp(k, "to") == 0) {
            add(buf, len, _(" to "));
        } else {
            const char *named = cli_lang_get() == CLI_LANG_ZH_CN ? id_words(k) : NULL;
            add(buf, len, ", ");
            add(buf, len, named ? named : k);
            add(buf, len, " ");
        }
        add_value(buf, len, v, game);
    }
}

/* The kind of an action: its type. */
static const char *kind_of(const json_t *a)
{
    const char *t = json_string_value(json_object_get(a, "type"));

    return t ? t : "?";
}

void cli_choices_print(const json_t *legal, const char *game, const char *only)
{
    size_t n = json_array_size(legal);
    size_t kinds = 0;
    char phrase[256];

    for (size_t i = 0; i < n; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) {
            seen =
                strcmp(kind_of(json_array_get(legal, j)), kind_of(json_array_get(legal, i))) == 0;
        }
        kinds += !seen;
    }
    /* A long list of many kinds is summarised; one of a kind or two (the
     * steps of one decision) is shown whole. */
    bool summarise = !only && n > LIST_MAX && kinds >= 3;

    if (n == 0) {
        printf(_("nothing to do now\n"));
        return;
    }
    /* Each kind in the order it first appears, its entries together. */
    for (size_t i = 0; i < n; i++) {
        const char *kind = kind_of(json_array_get(legal, i));
        size_t count = 0, first_seen = i;
        for (size_t j = 0; j < i; j++) {
            if (strcmp(kind_of(json_array_get(legal, j)), kind) == 0) {
                first_seen = j;
                break;
            }
        }
        if (first_seen != i || (only && strcmp(only, kind) != 0)) {
            continue;
        }
        for (size_t j = i; j < n; j++) {
            count += strcmp(kind_of(json_array_get(legal, j)), kind) == 0;
        }
        if (summarise && count > KIND_SHOWN) {
            char words[64];
            /* The kind in words; the command names it by its id. */
            if (cli_lang_get() == CLI_LANG_ZH_CN) {
                kind_words(kind, words, sizeof(words));
            } else {
                snprintf(words, sizeof(words), "%s", kind);
            }
            printf(_("  %s: %zu choices (`legal %s` lists them)\n"), words, count, kind);
            continue;
        }
        for (size_t j = i; j < n; j++) {
            const json_t *a = json_array_get(legal, j);
            if (strcmp(kind_of(a), kind) == 0) {
                cli_action_phrase(a, game, phrase, sizeof(phrase));
                printf("  #%zu %s\n", j + 1, phrase);
            }
        }
    }
    if (only) {
        bool any = false;
        for (size_t j = 0; j < n; j++) {
            any |= strcmp(kind_of(json_array_get(legal, j)), only) == 0;
        }
        if (!any) {
            printf(_("no \"%s\" choices now\n"), only);
        }
    }
}
