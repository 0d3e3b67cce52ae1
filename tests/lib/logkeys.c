/* SPDX-License-Identifier: MIT */
/*
 * logkeys.c - a view's log messages against its game's catalogue: what a
 * client writes from a message in English is what the view's log says,
 * and every word it translates is in the catalogue.
 */
#include "logkeys.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *log_keys_catalogue(const char *path)
{
    json_error_t jerr;
    json_t *catalogue = json_load_file(path, 0, &jerr);

    if (!catalogue) {
        fprintf(stderr, "%s:%d: %s\n", path, jerr.line, jerr.text);
    }
    return catalogue;
}

/* 1 when `arg` is a word the catalogue translates as a `type`. */
static bool translated(const json_t *catalogue, const char *type, size_t tlen, const char *arg)
{
    char kind[32];
    const char *id;
    json_t *card;

    snprintf(kind, sizeof(kind), "%.*s", (int)tlen, type);
    if (strcmp(kind, "card") != 0) {
        return json_object_get(json_object_get(json_object_get(catalogue, "terms"), kind), arg) !=
               NULL;
    }
    json_object_foreach(json_object_get(catalogue, "cards"), id, card) {
        const char *en = json_string_value(json_object_get(card, "en"));
        if (en && strcmp(en, arg) == 0) {
            return true;
        }
    }
    return false;
}

/* The English template `tmpl` filled with the arguments of `msg`;
 * malloc'ed. */
static char *english(const json_t *catalogue, const char *tmpl, const json_t *msg,
                     const char *where)
{
    const char *key = json_string_value(json_array_get(msg, 0));
    size_t cap = strlen(tmpl) + 1, len = 0;
    char *out = malloc(cap);

    ck_assert_ptr_nonnull(out);
    for (const char *p = tmpl; *p;) {
        const char *add = p;
        size_t n = 1;
        char *end = NULL;
        long i = *p == '{' ? strtol(p + 1, &end, 10) : -1;
        const char *close = i >= 0 && end != p + 1 ? strchr(end, '}') : NULL;
        if (close) {
            const char *type = *end == ':' ? end + 1 : close;
            add = json_string_value(json_array_get(msg, (size_t)i + 1));
            ck_assert_msg(add != NULL, "%s: message %s lacks argument %ld", where, key, i);
            ck_assert_msg(type == close || translated(catalogue, type, (size_t)(close - type), add),
                          "%s: message %s: \"%s\" is no %.*s the catalogue translates", where, key,
                          add, (int)(close - type), type);
            n = strlen(add);
            p = close + 1;
        } else {
            p++;
        }
        if (len + n + 1 > cap) {
            cap = 2 * (len + n + 1);
            out = realloc(out, cap);
            ck_assert_ptr_nonnull(out);
        }
        memcpy(out + len, add, n);
        len += n;
    }
    out[len] = '\0';
    return out;
}

int log_keys_check(const json_t *catalogue, const json_t *view, const char *where, json_t *seen)
{
    const json_t *log = json_object_get(view, "log");
    const json_t *keys = json_object_get(view, "log_keys");
    const json_t *messages = json_object_get(catalogue, "messages");
    size_t i;
    const json_t *msg;

    ck_assert_msg(json_is_array(log) && json_is_array(keys) &&
                      json_array_size(keys) == json_array_size(log),
                  "%s: log_keys is not one message per line of the log", where);
    json_array_foreach(keys, i, msg) {
        const char *line = json_string_value(json_array_get(log, i));
        const char *key = json_string_value(json_array_get(msg, 0));
        ck_assert_msg(key != NULL, "%s: the line \"%s\" has no message", where, line);
        const char *en = json_string_value(json_object_get(json_object_get(messages, key), "en"));
        ck_assert_msg(en != NULL, "%s: message %s is not in the catalogue", where, key);
        char *text = english(catalogue, en, msg, where);
        ck_assert_msg(line && strcmp(text, line) == 0,
                      "%s: message %s reads \"%s\", the log \"%s\"", where, key, text, line);
        free(text);
        if (seen) {
            json_object_set_new(seen, key, json_true());
        }
    }
    return (int)json_array_size(keys);
}

void log_keys_has(const json_t *view, const json_t *want, const char *where)
{
    const json_t *keys = json_object_get(view, "log_keys");
    size_t i, j;
    const json_t *w, *msg;

    json_array_foreach(want, i, w) {
        bool found = false;
        json_array_foreach(keys, j, msg) {
            found = found || json_equal(msg, w);
        }
        if (!found) {
            char *t = json_dumps(keys, JSON_COMPACT);
            char *m = json_dumps(w, JSON_COMPACT);
            ck_abort_msg("%s: log_keys %s lacks %s", where, t, m);
        }
    }
}
