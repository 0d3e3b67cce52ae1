/* SPDX-License-Identifier: MIT */
/*
 * render.h - one renderer per game for the `conclave` client. A renderer only
 * reads views (never rules): it draws a view as text and turns a short typed
 * command into an action object for `act`. The server decides legality.
 */
#ifndef CONCLAVE_RENDER_H
#define CONCLAVE_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* ANSI styling that collapses to nothing when colour is off. */
struct render_style {
    bool colour;
};

/* Returns the escape sequence `seq` (e.g. "1;31") as "\033[1;31m" when
 * colour is on, "" otherwise. `buf` must hold 16 bytes. */
const char *render_sgr(const struct render_style *st, const char *seq, char buf[16]);

/* The string member `key` of `o` (borrowed, lives as long as `o`), or
 * `dflt` when `o` is not an object or the member is absent or not a
 * string. */
const char *render_str(const json_t *o, const char *key, const char *dflt);

/* The integer member `key` of `o`, or 0 when it is absent or not an
 * integer. */
long render_num(const json_t *o, const char *key);

/* Splits the command line in `buf` (changed in place) at spaces and tabs
 * into at most `max` words, each in lower case, pointed to from `tok`.
 * Returns the number of words; more than `max` are dropped. */
int render_words(char *buf, char **tok, int max);

/* Prints the lines of the log of `view` (borrowed) of `game`, from line
 * `from` on, each after `prefix`, in the reader's language (a line's
 * message through the game's catalogue in zh-CN, else the line as it
 * is). */
void render_log(FILE *out, const char *game, const json_t *view, size_t from, const char *prefix);

/* The name of card `id` (English name `en`, may be NULL) of `game` as the
 * reader reads it: the catalogue's zh-CN name (by id, then by English
 * name) in zh-CN, else `en` (or `id` when `en` is NULL). */
const char *render_card_name(const char *game, const char *id, const char *en);

struct render_ops {
    const char *game; /* wire id */

    /* Draws `view` (borrowed) for `seat` (-1 spectator) to `out`. */
    void (*draw)(FILE *out, const json_t *view, int seat, const struct render_style *st);

    /* Turns a typed command line (already trimmed, not empty) into a new
     * action object in *ret_action. Returns 0, or -1 with a message in err
     * (for an unknown or malformed command). `view` may be NULL. */
    int (*parse)(const char *line, const json_t *view, int seat, json_t **ret_action, char *err,
                 size_t errlen);

    /* Help text listing every command, one per line. */
    const char *help;

    /* Optional: words `action` as a short phrase into buf; 0, or -1 to
     * leave it to the generic wording. */
    int (*phrase)(const json_t *action, char *buf, size_t len);

    /* Optional: prints what card `name` (as a player types it) does, 0;
     * or -1 when the game has no such card. */
    int (*card)(FILE *out, const char *name);

    /* Optional: the game's part of the end screen, after the winners and
     * scores: how the scores were made up, from `result` (borrowed), with
     * `names[seat]` the seats' names. */
    void (*end)(FILE *out, const json_t *result, const char *const *names, int nseats);
};

/* The renderer for `game`, or NULL. */
const struct render_ops *render_find(const char *game);

extern const struct render_ops render_stones;
extern const struct render_ops render_sorcerers;
extern const struct render_ops render_element;
extern const struct render_ops render_arcana;

#endif
