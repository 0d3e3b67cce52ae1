/* SPDX-License-Identifier: MIT */
/*
 * render.c - the table of game renderers and the helpers they share: colour,
 * reading a member of a view, and splitting a typed command into words.
 */
#include "render.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lang.h"

static const struct render_ops *const renderers[] = {
    &render_stones, &render_sorcerers, &render_element, &render_arcana, NULL,
};

const char *render_sgr(const struct render_style *st, const char *seq, char buf[16])
{
    if (!st || !st->colour) {
        return "";
    }
    snprintf(buf, 16, "\033[%sm", seq);
    return buf;
}

const char *render_str(const json_t *o, const char *key, const char *dflt)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : dflt;
}

long render_num(const json_t *o, const char *key)
{
    return (long)json_integer_value(json_object_get(o, key));
}

int render_words(char *buf, char **tok, int max)
{
    int n = 0;
    char *save = NULL;

    for (char *p = strtok_r(buf, " \t", &save); p && n < max; p = strtok_r(NULL, " \t", &save)) {
        for (char *q = p; *q; q++) {
            *q = (char)tolower((unsigned char)*q);
        }
        tok[n++] = p;
    }
    return n;
}

void render_log(FILE *out, const char *game, const json_t *view, size_t from, const char *prefix)
{
    size_t n = json_array_size(json_object_get(view, "log"));
    char buf[1024];

    for (size_t i = from; i < n; i++) {
        fprintf(out, "%s%s\n", prefix, cli_log_line(game, view, i, buf, sizeof(buf)));
    }
}

const char *render_card_name(const char *game, const char *id, const char *en)
{
    const char *zh = cli_card_name(game, id);

    if (!zh && en) {
        zh = cli_card_name(game, en);
    }
    return zh ? zh : en ? en : id ? id : "?";
}

const struct render_ops *render_find(const char *game)
{
    if (!game) {
        return NULL;
    }
    for (size_t i = 0; renderers[i]; i++) {
        if (strcmp(renderers[i]->game, game) == 0) {
            return renderers[i];
        }
    }
    return NULL;
}
