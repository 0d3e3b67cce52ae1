/* SPDX-License-Identifier: MIT */
/*
 * jsonpatch.c - RFC 6902 JSON Patch: a minimal diff between two documents
 * and the application of a patch, over RFC 6901 JSON Pointers (with the ~0
 * and ~1 escapes and "-" for the end of an array). It works on jansson
 * values only; it must never borrow from the patch into the document (values
 * are copied) and never leave a reference leaked or dangling on any error
 * path, though a failed patch may leave the document partly changed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

/* ---- Pointer paths for the diff ---- */

struct path {
    char *data;
    size_t len;
    size_t cap;
};

/* Appends "/" and the escaped token; returns 0 or -ENOMEM. */
static int path_push(struct path *p, const char *tok, size_t n)
{
    size_t need = p->len + 1 + 2 * n + 1;
    if (need > p->cap) {
        size_t cap = p->cap < 64 ? 64 : p->cap;
        while (cap < need) {
            cap *= 2;
        }
        char *data = realloc(p->data, cap);
        if (data == NULL) {
            return -ENOMEM;
        }
        p->data = data;
        p->cap = cap;
    }
    p->data[p->len++] = '/';
    for (size_t i = 0; i < n; i++) {
        if (tok[i] == '~') {
            p->data[p->len++] = '~';
            p->data[p->len++] = '0';
        } else if (tok[i] == '/') {
            p->data[p->len++] = '~';
            p->data[p->len++] = '1';
        } else {
            p->data[p->len++] = tok[i];
        }
    }
    p->data[p->len] = '\0';
    return 0;
}

static int path_push_index(struct path *p, size_t i)
{
    char num[24];
    size_t n = 0;
    do {
        num[sizeof(num) - 1 - n++] = (char)('0' + i % 10);
        i /= 10;
    } while (i > 0);
    return path_push(p, num + sizeof(num) - n, n);
}

/* ---- Diff ---- */

/* Where the ops of a diff go: jansson values appended to `patch`, or
 * canonical text appended to `text`. */
struct sink {
    json_t *patch;
    struct proto_text *text;
};

/* Appends {"op": op, "path": path, "value": value?} (the value copied). */
static int emit(struct sink *k, const char *op, const struct path *p, const json_t *value)
{
    if (k->text != NULL) {
        struct proto_text *t = k->text;
        if (t->len > 0) {
            proto_text_add(t, ",", 1);
        }
        proto_text_str(t, "{\"op\":\"");
        proto_text_str(t, op);
        proto_text_str(t, "\",\"path\":");
        proto_text_string(t, p->len > 0 ? p->data : "", p->len);
        if (value != NULL) {
            proto_text_str(t, ",\"value\":");
            proto_text_canonical(t, value);
        }
        proto_text_add(t, "}", 1);
        return t->err;
    }
    json_t *o = json_object();
    if (o == NULL) {
        return -ENOMEM;
    }
    if (json_object_set_new(o, "op", json_string(op)) < 0 ||
        json_object_set_new(o, "path", json_stringn(p->len > 0 ? p->data : "", p->len)) < 0 ||
        (value != NULL && json_object_set_new(o, "value", json_deep_copy(value)) < 0)) {
        json_decref(o);
        return -ENOMEM;
    }
    return json_array_append_new(k->patch, o) < 0 ? -ENOMEM : 0;
}

static int diff_value(struct sink *patch, struct path *p, const json_t *a, const json_t *b);

/* True for two equal scalars (or the very same value). Containers are never
 * compared whole here: the diff walks into them once, so that comparing is
 * linear in the size of the document rather than in size times depth. */
static bool same_scalar(const json_t *a, const json_t *b)
{
    if (a == b) {
        return true;
    }
    if (json_is_object(a) || json_is_array(a) || json_is_object(b) || json_is_array(b)) {
        return false;
    }
    return json_equal(a, b);
}

static int diff_object(struct sink *patch, struct path *p, const json_t *a, const json_t *b)
{
    json_t *oa = (json_t *)a;
    json_t *ob = (json_t *)b;
    size_t mark = p->len;
    for (void *it = json_object_iter(oa); it != NULL; it = json_object_iter_next(oa, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        json_t *va = json_object_iter_value(it);
        json_t *vb = json_object_getn(ob, key, klen);
        if (vb != NULL && same_scalar(va, vb)) {
            continue;
        }
        int r = path_push(p, key, klen);
        if (r == 0) {
            r = vb == NULL ? emit(patch, "remove", p, NULL) : diff_value(patch, p, va, vb);
        }
        p->len = mark;
        if (r < 0) {
            return r;
        }
    }
    for (void *it = json_object_iter(ob); it != NULL; it = json_object_iter_next(ob, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        if (json_object_getn(oa, key, klen) != NULL) {
            continue;
        }
        int r = path_push(p, key, klen);
        if (r == 0) {
            r = emit(patch, "add", p, json_object_iter_value(it));
        }
        p->len = mark;
        if (r < 0) {
            return r;
        }
    }
    return 0;
}

/* How far a window may slide and still be recognised. */
#define SHIFT_MAX 16

/* The smallest s > 0 such that b starts with a[s..]: the array lost s
 * items at its head and may have gained some at its tail (a log window that
 * slid). 0 when there is none, or when sliding would not save ops. Only
 * arrays of scalars are looked at (a window of log lines), so the search
 * costs a few string compares, never a deep comparison. */
static size_t head_shift(const json_t *a, const json_t *b)
{
    size_t na = json_array_size(a);
    size_t nb = json_array_size(b);
    const json_t *b0 = json_array_get(b, 0);

    if (na < 2 || nb == 0 || json_is_object(b0) || json_is_array(b0) ||
        same_scalar(json_array_get(a, 0), b0)) {
        return 0;
    }
    for (size_t s = 1; s < na && s <= nb && s <= SHIFT_MAX; s++) {
        size_t keep = na - s;
        bool same;
        if (keep > nb || !same_scalar(json_array_get(a, s), b0)) {
            continue;
        }
        same = true;
        for (size_t i = 1; same && i < keep; i++) {
            same = same_scalar(json_array_get(a, s + i), json_array_get(b, i));
        }
        if (!same) {
            continue;
        }
        /* s removes and nb - keep adds, against what the diff in place
         * would send: a replace per differing item and the length change. */
        size_t common = na < nb ? na : nb;
        size_t in_place = nb > na ? nb - na : na - nb;
        for (size_t i = 0; i < common; i++) {
            in_place += !same_scalar(json_array_get(a, i), json_array_get(b, i));
        }
        return s + (nb - keep) < in_place ? s : 0;
    }
    return 0;
}

static int diff_array(struct sink *patch, struct path *p, const json_t *a, const json_t *b)
{
    size_t na = json_array_size(a);
    size_t nb = json_array_size(b);
    size_t shift = head_shift(a, b);
    size_t mark = p->len;
    int r = 0;

    if (shift > 0) {
        /* The head went away; what stays is equal; the rest is new. */
        for (size_t i = 0; r == 0 && i < shift; i++) {
            r = path_push_index(p, 0);
            if (r == 0) {
                r = emit(patch, "remove", p, NULL);
            }
            p->len = mark;
        }
        for (size_t i = na - shift; r == 0 && i < nb; i++) {
            r = path_push_index(p, i);
            if (r == 0) {
                r = emit(patch, "add", p, json_array_get(b, i));
            }
            p->len = mark;
        }
        return r;
    }
    size_t common = na < nb ? na : nb;
    for (size_t i = 0; r == 0 && i < common; i++) {
        const json_t *va = json_array_get(a, i);
        const json_t *vb = json_array_get(b, i);
        if (same_scalar(va, vb)) {
            continue;
        }
        r = path_push_index(p, i);
        if (r == 0) {
            r = diff_value(patch, p, va, vb);
        }
        p->len = mark;
    }
    /* Tail removals go from the end backwards so each index stays valid. */
    for (size_t i = na; r == 0 && i > nb; i--) {
        r = path_push_index(p, i - 1);
        if (r == 0) {
            r = emit(patch, "remove", p, NULL);
        }
        p->len = mark;
    }
    for (size_t i = na; r == 0 && i < nb; i++) {
        r = path_push_index(p, i);
        if (r == 0) {
            r = emit(patch, "add", p, json_array_get(b, i));
        }
        p->len = mark;
    }
    return r;
}

static int diff_value(struct sink *patch, struct path *p, const json_t *a, const json_t *b)
{
    if (json_is_object(a) && json_is_object(b)) {
        return diff_object(patch, p, a, b);
    }
    if (json_is_array(a) && json_is_array(b)) {
        return diff_array(patch, p, a, b);
    }
    if (json_equal(a, b)) {
        return 0;
    }
    return emit(patch, "replace", p, b);
}

static int diff_member(struct sink *k, const char *key, const json_t *a, const json_t *b)
{
    struct path p = {NULL, 0, 0};
    int r = 0;

    if (key != NULL) {
        r = path_push(&p, key, strlen(key));
    }
    if (r == 0) {
        if (a == NULL && b == NULL) {
            r = 0;
        } else if (a == NULL) {
            r = emit(k, "add", &p, b);
        } else if (b == NULL) {
            r = emit(k, "remove", &p, NULL);
        } else {
            r = diff_value(k, &p, a, b);
        }
    }
    free(p.data);
    return r;
}

int proto_patch_diff_into(json_t *patch, const char *key, const json_t *a, const json_t *b)
{
    struct sink k = {patch, NULL};

    return diff_member(&k, key, a, b);
}

int proto_patch_diff_text(struct proto_text *out, const char *key, const json_t *a, const json_t *b)
{
    struct sink k = {NULL, out};
    int r = diff_member(&k, key, a, b);

    return r != 0 ? r : out->err;
}

json_t *proto_patch_diff(const json_t *a, const json_t *b)
{
    json_t *patch = json_array();

    if (patch == NULL) {
        return NULL;
    }
    if (proto_patch_diff_into(patch, NULL, a, b) < 0) {
        json_decref(patch);
        return NULL;
    }
    return patch;
}

/* ---- Pointer resolution for apply ---- */

/* Reads the next token of a pointer at *pp (which points at a '/') into tok,
 * unescaping ~0 and ~1, and advances *pp. Returns 0, or -EINVAL for a bad
 * escape or a pointer that does not start with '/'. */
static int next_token(const char **pp, char *tok)
{
    const char *p = *pp;
    if (*p != '/') {
        return -EINVAL;
    }
    p++;
    size_t n = 0;
    while (*p != '\0' && *p != '/') {
        if (*p == '~') {
            if (p[1] == '0') {
                tok[n++] = '~';
            } else if (p[1] == '1') {
                tok[n++] = '/';
            } else {
                return -EINVAL;
            }
            p += 2;
        } else {
            tok[n++] = *p++;
        }
    }
    tok[n] = '\0';
    *pp = p;
    return 0;
}

/* Parses an array index token: digits, no leading zero. Returns 0 and sets
 * *ret, or -EINVAL. */
static int parse_index(const char *tok, size_t *ret)
{
    if (tok[0] == '\0' || (tok[0] == '0' && tok[1] != '\0')) {
        return -EINVAL;
    }
    size_t v = 0;
    for (const char *c = tok; *c != '\0'; c++) {
        if (*c < '0' || *c > '9' || v > (SIZE_MAX - 9) / 10) {
            return -EINVAL;
        }
        v = v * 10 + (size_t)(*c - '0');
    }
    *ret = v;
    return 0;
}

/* Child of `cur` named by `tok`, or NULL. */
static json_t *step(json_t *cur, const char *tok)
{
    if (json_is_object(cur)) {
        return json_object_get(cur, tok);
    }
    if (json_is_array(cur)) {
        size_t i;
        if (parse_index(tok, &i) < 0) {
            return NULL;
        }
        return json_array_get(cur, i);
    }
    return NULL;
}

/* Resolves the parent container of a non-empty pointer: *ret_parent gets the
 * container and tok the last (unescaped) token. tok must hold strlen(ptr)+1
 * bytes. Returns 0 or -EINVAL. */
static int resolve_parent(json_t *doc, const char *ptr, json_t **ret_parent, char *tok)
{
    json_t *cur = doc;
    const char *p = ptr;
    for (;;) {
        if (next_token(&p, tok) < 0) {
            return -EINVAL;
        }
        if (*p == '\0') {
            *ret_parent = cur;
            return 0;
        }
        cur = step(cur, tok);
        if (cur == NULL) {
            return -EINVAL;
        }
    }
}

/* ---- Apply ---- */

/* Numeric-aware equality for "test": an integer and a real compare by value
 * (RFC 6902 section 4.6); everything else follows json_equal. */
static bool values_equal(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b)) {
        if (json_is_integer(a) && json_is_integer(b)) {
            return json_integer_value(a) == json_integer_value(b);
        }
        return json_number_value(a) == json_number_value(b);
    }
    if (json_typeof(a) != json_typeof(b)) {
        return false;
    }
    if (json_is_array(a)) {
        size_t n = json_array_size(a);
        if (n != json_array_size(b)) {
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            if (!values_equal(json_array_get(a, i), json_array_get(b, i))) {
                return false;
            }
        }
        return true;
    }
    if (json_is_object(a)) {
        json_t *oa = (json_t *)a;
        if (json_object_size(a) != json_object_size(b)) {
            return false;
        }
        for (void *it = json_object_iter(oa); it != NULL; it = json_object_iter_next(oa, it)) {
            json_t *vb =
                json_object_getn(b, json_object_iter_key(it), json_object_iter_key_len(it));
            if (vb == NULL || !values_equal(json_object_iter_value(it), vb)) {
                return false;
            }
        }
        return true;
    }
    return json_equal(a, b);
}

/* Returns the value at ptr (borrowed), or NULL. tok as for resolve_parent. */
static json_t *get_at(json_t *doc, const char *ptr, char *tok)
{
    if (ptr[0] == '\0') {
        return doc;
    }
    json_t *parent = NULL;
    if (resolve_parent(doc, ptr, &parent, tok) < 0) {
        return NULL;
    }
    return step(parent, tok);
}

/* Adds `value` (reference stolen, also on failure) at ptr. */
static int add_at(json_t **doc, const char *ptr, json_t *value, char *tok)
{
    if (ptr[0] == '\0') {
        json_decref(*doc);
        *doc = value;
        return 0;
    }
    json_t *parent = NULL;
    if (resolve_parent(*doc, ptr, &parent, tok) < 0) {
        json_decref(value);
        return -EINVAL;
    }
    if (json_is_object(parent)) {
        return json_object_set_new(parent, tok, value) < 0 ? -ENOMEM : 0;
    }
    if (json_is_array(parent)) {
        size_t n = json_array_size(parent);
        if (strcmp(tok, "-") == 0) {
            return json_array_append_new(parent, value) < 0 ? -ENOMEM : 0;
        }
        size_t i;
        if (parse_index(tok, &i) < 0 || i > n) {
            json_decref(value);
            return -EINVAL;
        }
        return json_array_insert_new(parent, i, value) < 0 ? -ENOMEM : 0;
    }
    json_decref(value);
    return -EINVAL;
}

/* Removes the value at a non-empty ptr. */
static int remove_at(json_t *doc, const char *ptr, char *tok)
{
    json_t *parent = NULL;
    if (ptr[0] == '\0' || resolve_parent(doc, ptr, &parent, tok) < 0) {
        return -EINVAL;
    }
    if (json_is_object(parent)) {
        return json_object_del(parent, tok) < 0 ? -EINVAL : 0;
    }
    if (json_is_array(parent)) {
        size_t i;
        if (parse_index(tok, &i) < 0 || i >= json_array_size(parent)) {
            return -EINVAL;
        }
        return json_array_remove(parent, i) < 0 ? -EINVAL : 0;
    }
    return -EINVAL;
}

/* Replaces the existing value at ptr with `value` (reference stolen). */
static int replace_at(json_t **doc, const char *ptr, json_t *value, char *tok)
{
    if (ptr[0] == '\0') {
        json_decref(*doc);
        *doc = value;
        return 0;
    }
    json_t *parent = NULL;
    if (resolve_parent(*doc, ptr, &parent, tok) < 0 || step(parent, tok) == NULL) {
        json_decref(value);
        return -EINVAL;
    }
    if (json_is_object(parent)) {
        return json_object_set_new(parent, tok, value) < 0 ? -ENOMEM : 0;
    }
    size_t i;
    if (parse_index(tok, &i) < 0) {
        json_decref(value);
        return -EINVAL;
    }
    return json_array_set_new(parent, i, value) < 0 ? -ENOMEM : 0;
}

/* True when pointer `a` is a proper prefix of pointer `b`. */
static bool is_proper_prefix(const char *a, const char *b)
{
    size_t n = strlen(a);
    return strncmp(a, b, n) == 0 && b[n] == '/';
}

static int apply_one(json_t **doc, const json_t *op, char *tok)
{
    const char *name = json_string_value(json_object_get(op, "op"));
    const char *path = json_string_value(json_object_get(op, "path"));
    const json_t *value = json_object_get(op, "value");
    const char *from = json_string_value(json_object_get(op, "from"));
    if (name == NULL || path == NULL) {
        return -EINVAL;
    }
    if (strcmp(name, "add") == 0 || strcmp(name, "replace") == 0) {
        if (value == NULL) {
            return -EINVAL;
        }
        json_t *copy = json_deep_copy(value);
        if (copy == NULL) {
            return -ENOMEM;
        }
        return name[0] == 'a' ? add_at(doc, path, copy, tok) : replace_at(doc, path, copy, tok);
    }
    if (strcmp(name, "remove") == 0) {
        return remove_at(*doc, path, tok);
    }
    if (strcmp(name, "test") == 0) {
        if (value == NULL) {
            return -EINVAL;
        }
        const json_t *target = get_at(*doc, path, tok);
        return target != NULL && values_equal(target, value) ? 0 : -EINVAL;
    }
    if (strcmp(name, "move") == 0 || strcmp(name, "copy") == 0) {
        if (from == NULL) {
            return -EINVAL;
        }
        json_t *source = get_at(*doc, from, tok);
        if (source == NULL) {
            return -EINVAL;
        }
        if (name[0] == 'c') {
            json_t *copy = json_deep_copy(source);
            if (copy == NULL) {
                return -ENOMEM;
            }
            return add_at(doc, path, copy, tok);
        }
        if (strcmp(from, path) == 0) {
            return 0;
        }
        if (is_proper_prefix(from, path)) {
            return -EINVAL;
        }
        json_incref(source);
        int r = remove_at(*doc, from, tok);
        if (r < 0) {
            json_decref(source);
            return r;
        }
        return add_at(doc, path, source, tok);
    }
    return -EINVAL;
}

int proto_patch_apply(json_t **doc, const json_t *patch)
{
    if (doc == NULL || *doc == NULL || !json_is_array(patch)) {
        return -EINVAL;
    }
    size_t n = json_array_size(patch);
    for (size_t i = 0; i < n; i++) {
        const json_t *op = json_array_get(patch, i);
        if (!json_is_object(op)) {
            return -EINVAL;
        }
        const char *path = json_string_value(json_object_get(op, "path"));
        const char *from = json_string_value(json_object_get(op, "from"));
        size_t need = (path != NULL ? strlen(path) : 0) + (from != NULL ? strlen(from) : 0) + 1;
        char *tok = malloc(need);
        if (tok == NULL) {
            return -ENOMEM;
        }
        int r = apply_one(doc, op, tok);
        free(tok);
        if (r < 0) {
            return r;
        }
    }
    return 0;
}
