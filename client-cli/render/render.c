/* SPDX-License-Identifier: MIT */
/*
 * render.c - the table of game renderers and the helpers they share: colour,
 * reading a member of a view, and splitting a typed command into words.
 */
#include "render.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

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
