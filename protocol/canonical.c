/* SPDX-License-Identifier: MIT */
/*
 * canonical.c - the canonical serialisation of views (PROTOCOL.md section 5)
 * and the BLAKE2b-256 view hash computed over it. Keys are sorted by their
 * UTF-8 bytes, nothing is indented, strings are raw UTF-8 with only '"' and
 * '\\' escaped, and numbers are integers. It must never accept a real, depend
 * on jansson's key order, or change the bytes of the form: every client
 * hashes the same bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "proto.h"

struct key_ref {
    const char *key;
    size_t len;
    json_t *value;
};

/* ---- Text being built ---- */

/* Room for n more bytes and the NUL; false (and t->err set) when none. */
static bool text_reserve(struct proto_text *t, size_t n)
{
    if (t->err != 0) {
        return false;
    }
    if (n > SIZE_MAX / 4 - t->len) {
        t->err = -ENOMEM;
        return false;
    }
    size_t need = t->len + n + 1;
    if (need <= t->cap) {
        return true;
    }
    size_t cap = t->cap < 256 ? 256 : t->cap;
    while (cap < need) {
        cap *= 2;
    }
    char *data = realloc(t->data, cap);
    if (data == NULL) {
        t->err = -ENOMEM;
        return false;
    }
    t->data = data;
    t->cap = cap;
    return true;
}

void proto_text_reserve(struct proto_text *t, size_t n)
{
    if (t->err != 0 || t->cap > 0 || n > SIZE_MAX / 4) {
        (void)text_reserve(t, n);
        return;
    }
    t->data = malloc(t->len + n + 1);
    if (t->data == NULL) {
        t->err = -ENOMEM;
        return;
    }
    t->cap = t->len + n + 1;
    t->data[t->len] = '\0';
}

void proto_text_add(struct proto_text *t, const void *s, size_t n)
{
    if (!text_reserve(t, n)) {
        return;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

void proto_text_str(struct proto_text *t, const char *s)
{
    proto_text_add(t, s, strlen(s));
}

char *proto_dec(char buf[PROTO_DEC_MAX], uint64_t v, size_t *n)
{
    char *p = buf + PROTO_DEC_MAX;

    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    *n = (size_t)(buf + PROTO_DEC_MAX - p);
    return p;
}

char *proto_dec_signed(char buf[1 + PROTO_DEC_MAX], long long v, size_t *n)
{
    /* The magnitude as unsigned, so that LLONG_MIN has one too. */
    char *p = proto_dec(buf + 1, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, n);

    if (v < 0) {
        *--p = '-';
        ++*n;
    }
    return p;
}

void proto_text_int(struct proto_text *t, long long v)
{
    char num[1 + PROTO_DEC_MAX];
    size_t n;
    char *p = proto_dec_signed(num, v, &n);

    proto_text_add(t, p, n);
}

void proto_text_string(struct proto_text *t, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    char *o;

    /* At most six bytes per input byte, and the quotes. */
    if (n > SIZE_MAX / 8 || !text_reserve(t, 6 * n + 2)) {
        t->err = t->err ? t->err : -ENOMEM;
        return;
    }
    o = t->data + t->len;
    *o++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            *o++ = '\\';
            *o++ = (char)c;
        } else if (c < 0x20) {
            memcpy(o, "\\u00", 4);
            o[4] = hex[c >> 4];
            o[5] = hex[c & 15];
            o += 6;
        } else {
            *o++ = (char)c;
        }
    }
    *o++ = '"';
    *o = '\0';
    t->len = (size_t)(o - t->data);
}

char *proto_text_take(struct proto_text *t, size_t max, size_t *ret_len)
{
    char *data;

    /* An empty text still hands over its NUL. */
    text_reserve(t, 0);
    data = t->data;
    if (t->err != 0 || t->len > max) {
        free(data);
        data = NULL;
    } else {
        *ret_len = t->len;
    }
    t->data = NULL;
    t->len = t->cap = 0;
    t->err = 0;
    return data;
}

void proto_text_reset(struct proto_text *t)
{
    t->len = 0;
    t->err = 0;
    if (t->data) {
        t->data[0] = '\0';
    }
}

void proto_text_free(struct proto_text *t)
{
    free(t->data);
    t->data = NULL;
    t->len = t->cap = 0;
    t->err = 0;
}

/* ---- Canonical form ---- */

/* Byte order of keys: memcmp on the common length, shorter prefix first. */
static int key_cmp(const void *pa, const void *pb)
{
    const struct key_ref *a = pa;
    const struct key_ref *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->key, b->key, n);
    if (c != 0) {
        return c;
    }
    return (a->len > b->len) - (a->len < b->len);
}

/* Objects up to this size sort their keys on the stack. */
#define KEYS_ON_STACK 32

static void put_object(struct proto_text *t, const json_t *v)
{
    json_t *obj = (json_t *)v;
    size_t n = json_object_size(obj);
    struct key_ref small[KEYS_ON_STACK];
    struct key_ref *keys = small;
    size_t i = 0;

    if (n == 0) {
        proto_text_add(t, "{}", 2);
        return;
    }
    if (n > KEYS_ON_STACK && !(keys = malloc(n * sizeof(*keys)))) {
        t->err = t->err ? t->err : -ENOMEM;
        return;
    }
    for (void *it = json_object_iter(obj); it != NULL && i < n;
         it = json_object_iter_next(obj, it)) {
        struct key_ref k = {json_object_iter_key(it), json_object_iter_key_len(it),
                            json_object_iter_value(it)};
        /* Insertion sort: views hold small objects, mostly in order. */
        size_t j = i++;
        while (j > 0 && key_cmp(&keys[j - 1], &k) > 0) {
            keys[j] = keys[j - 1];
            j--;
        }
        keys[j] = k;
    }
    proto_text_add(t, "{", 1);
    for (size_t k = 0; k < i && t->err == 0; k++) {
        if (k > 0) {
            proto_text_add(t, ",", 1);
        }
        proto_text_string(t, keys[k].key, keys[k].len);
        proto_text_add(t, ":", 1);
        proto_text_canonical(t, keys[k].value);
    }
    proto_text_add(t, "}", 1);
    if (keys != small) {
        free(keys);
    }
}

void proto_text_canonical(struct proto_text *t, const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        put_object(t, v);
        return;
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        proto_text_add(t, "[", 1);
        for (size_t i = 0; i < n && t->err == 0; i++) {
            if (i > 0) {
                proto_text_add(t, ",", 1);
            }
            proto_text_canonical(t, json_array_get(v, i));
        }
        proto_text_add(t, "]", 1);
        return;
    }
    case JSON_STRING:
        proto_text_string(t, json_string_value(v), json_string_length(v));
        return;
    case JSON_INTEGER:
        proto_text_int(t, (long long)json_integer_value(v));
        return;
    case JSON_TRUE:
        proto_text_add(t, "true", 4);
        return;
    case JSON_FALSE:
        proto_text_add(t, "false", 5);
        return;
    case JSON_NULL:
        proto_text_add(t, "null", 4);
        return;
    case JSON_REAL:
    default:
        if (t->err == 0) {
            t->err = -EINVAL;
        }
        return;
    }
}

char *proto_canonical(const json_t *v, size_t *ret_len)
{
    struct proto_text t = {0};
    char *text;

    if (v == NULL) {
        errno = EINVAL;
        return NULL;
    }
    proto_text_canonical(&t, v);
    if (t.err != 0) {
        errno = -t.err;
        proto_text_free(&t);
        return NULL;
    }
    text = proto_text_take(&t, SIZE_MAX, ret_len);
    if (text == NULL) {
        errno = ENOMEM;
    }
    return text;
}

void proto_hex(const uint8_t *bytes, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex[bytes[i] >> 4];
        out[2 * i + 1] = hex[bytes[i] & 15];
    }
    out[2 * n] = '\0';
}

void proto_text_hash(const char *text, size_t len, char out[PROTO_HASH_HEX_LEN + 1])
{
    uint8_t digest[PROTO_HASH_HEX_LEN / 2];

    crypto_generichash(digest, sizeof(digest), (const unsigned char *)text, len, NULL, 0);
    proto_hex(digest, sizeof(digest), out);
}

int proto_view_hash(const json_t *v, char out[PROTO_HASH_HEX_LEN + 1])
{
    size_t len = 0;
    char *text = proto_canonical(v, &len);
    if (text == NULL) {
        return errno == EINVAL ? -EINVAL : -ENOMEM;
    }
    proto_text_hash(text, len, out);
    free(text);
    return 0;
}
