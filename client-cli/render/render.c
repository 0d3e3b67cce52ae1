/* SPDX-License-Identifier: MIT */
/*
 * render.c - the table of game renderers and the shared colour helper.
 */
#include "render.h"

#include <stdio.h>
#include <string.h>

static const struct render_ops *const renderers[] = {
    &render_stones,
    &render_sorcerers,
    &render_element,
    NULL,
};

const char *render_sgr(const struct render_style *st, const char *seq, char buf[16])
{
    if (!st || !st->colour) {
        return "";
    }
    snprintf(buf, 16, "\033[%sm", seq);
    return buf;
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
