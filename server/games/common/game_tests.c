/* SPDX-License-Identifier: MIT */
/*
 * game_tests.c - the JSON walk shared by the games' test hooks
 * (game_tests.h): every key and scalar of a view or of a JSON Patch, with
 * its JSON Pointer. Pure: it only reads the document it is handed.
 */
#include "game_tests.h"

#include <string.h>

/* Appends "/" and `seg` (n bytes) to `path` (len bytes used); returns the
 * new length, cutting at GAME_TESTS_PATH_MAX - 1. */
static size_t append(char *path, size_t len, const char *seg, size_t n)
{
    if (len + 1 < GAME_TESTS_PATH_MAX) {
        path[len++] = '/';
    }
    if (n > GAME_TESTS_PATH_MAX - 1 - len) {
        n = GAME_TESTS_PATH_MAX - 1 - len;
    }
    memcpy(path + len, seg, n);
    len += n;
    path[len] = '\0';
    return len;
}

/* Appends "/" and the decimal `i`. */
static size_t append_index(char *path, size_t len, size_t i)
{
    char num[GAME_DIGITS_MAX];
    size_t n;
    const char *d = game_digits(num, i, false, &n);

    return append(path, len, d, n);
}

static void walk(const json_t *v, char *path, size_t len, game_tests_visit_cb cb, void *ud)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *m;
        json_object_foreach((json_t *)v, k, m) {
            cb(ud, path, k, NULL);
            walk(m, path, append(path, len, k, strlen(k)), cb, ud);
            path[len] = '\0';
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *m;
        json_array_foreach(v, i, m) {
            walk(m, path, append_index(path, len, i), cb, ud);
            path[len] = '\0';
        }
    } else {
        cb(ud, path, NULL, v);
    }
}

/* Visits the segments of one patch operation's path as keys, then walks
 * its value under that path. */
static void walk_op(const json_t *op, game_tests_visit_cb cb, void *ud)
{
    const char *p = json_string_value(json_object_get(op, "path"));
    const json_t *value = json_object_get(op, "value");
    char parent[GAME_TESTS_PATH_MAX] = "";
    size_t plen = 0;

    if (!p) {
        return;
    }
    for (const char *seg = p; *seg == '/';) {
        const char *end = strchr(seg + 1, '/');
        size_t n = end ? (size_t)(end - seg - 1) : strlen(seg + 1);
        char key[GAME_TESTS_PATH_MAX];
        if (n > sizeof(key) - 1) {
            n = sizeof(key) - 1;
        }
        memcpy(key, seg + 1, n);
        key[n] = '\0';
        cb(ud, parent, key, NULL);
        plen = append(parent, plen, key, n);
        if (!end) {
            break;
        }
        seg = end;
    }
    if (value) {
        char path[GAME_TESTS_PATH_MAX];
        size_t n = strlen(p);
        if (n > sizeof(path) - 1) {
            n = sizeof(path) - 1;
        }
        memcpy(path, p, n);
        path[n] = '\0';
        walk(value, path, n, cb, ud);
    }
}

void game_tests_walk(const json_t *doc, bool is_patch, game_tests_visit_cb cb, void *ud)
{
    if (is_patch) {
        size_t i;
        json_t *op;
        json_array_foreach(doc, i, op) {
            walk_op(op, cb, ud);
        }
        return;
    }
    char path[GAME_TESTS_PATH_MAX] = "";
    walk(doc, path, 0, cb, ud);
}

bool game_tests_under(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);

    return strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

json_t *game_tests_patch_add(const char *path, json_t *value)
{
    return json_pack("[{s:s, s:s, s:o}]", "op", "add", "path", path, "value", value);
}

int game_tests_push(json_t *o, const char *key, json_t *value)
{
    json_t *a = json_object_get(o, key);

    if (!json_is_array(a) || json_array_append_new(a, value) != 0) {
        json_decref(value);
        return -1;
    }
    return 0;
}

int game_tests_rng_words(const struct game_rng *rng, uint64_t ret_words[GAME_TESTS_MAX_WORDS])
{
    int n = (int)(sizeof(rng->s) / sizeof(rng->s[0]));

    for (int i = 0; i < n; i++) {
        ret_words[i] = rng->s[i];
    }
    return n;
}
