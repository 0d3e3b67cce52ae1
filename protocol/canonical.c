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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "proto.h"

struct sbuf {
    char *data;
    size_t len;
    size_t cap;
};

struct key_ref {
    const char *key;
    size_t len;
    json_t *value;
};

static int sbuf_reserve(struct sbuf *b, size_t n)
{
    if (n > SIZE_MAX - b->len - 1) {
        return -ENOMEM;
    }
    size_t need = b->len + n + 1;
    if (need <= b->cap) {
        return 0;
    }
    size_t cap = b->cap < 64 ? 64 : b->cap;
    while (cap < need) {
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    }
    char *data = realloc(b->data, cap);
    if (data == NULL) {
        return -ENOMEM;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

static int sbuf_put(struct sbuf *b, const char *s, size_t n)
{
    int r = sbuf_reserve(b, n);
    if (r < 0) {
        return r;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

static int put_string(struct sbuf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    if (sbuf_put(b, "\"", 1) < 0) {
        return -ENOMEM;
    }
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[6];
        size_t elen = 0;
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            elen = 2;
        } else if (c < 0x20) {
            memcpy(esc, "\\u00", 4);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            elen = 6;
        } else {
            continue;
        }
        if (sbuf_put(b, s + run, i - run) < 0 || sbuf_put(b, esc, elen) < 0) {
            return -ENOMEM;
        }
        run = i + 1;
    }
    if (sbuf_put(b, s + run, n - run) < 0 || sbuf_put(b, "\"", 1) < 0) {
        return -ENOMEM;
    }
    return 0;
}

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

static int put_value(struct sbuf *b, const json_t *v);

static int put_object(struct sbuf *b, const json_t *v)
{
    json_t *obj = (json_t *)v;
    size_t n = json_object_size(obj);
    if (n == 0) {
        return sbuf_put(b, "{}", 2);
    }
    struct key_ref *keys = malloc(n * sizeof(*keys));
    if (keys == NULL) {
        return -ENOMEM;
    }
    size_t i = 0;
    for (void *it = json_object_iter(obj); it != NULL && i < n;
         it = json_object_iter_next(obj, it)) {
        keys[i].key = json_object_iter_key(it);
        keys[i].len = json_object_iter_key_len(it);
        keys[i].value = json_object_iter_value(it);
        i++;
    }
    qsort(keys, i, sizeof(*keys), key_cmp);
    int r = sbuf_put(b, "{", 1);
    for (size_t k = 0; r == 0 && k < i; k++) {
        if (k > 0) {
            r = sbuf_put(b, ",", 1);
        }
        if (r == 0) {
            r = put_string(b, keys[k].key, keys[k].len);
        }
        if (r == 0) {
            r = sbuf_put(b, ":", 1);
        }
        if (r == 0) {
            r = put_value(b, keys[k].value);
        }
    }
    if (r == 0) {
        r = sbuf_put(b, "}", 1);
    }
    free(keys);
    return r;
}

static int put_value(struct sbuf *b, const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return put_object(b, v);
    case JSON_ARRAY: {
        int r = sbuf_put(b, "[", 1);
        size_t n = json_array_size(v);
        for (size_t i = 0; r == 0 && i < n; i++) {
            if (i > 0) {
                r = sbuf_put(b, ",", 1);
            }
            if (r == 0) {
                r = put_value(b, json_array_get(v, i));
            }
        }
        return r == 0 ? sbuf_put(b, "]", 1) : r;
    }
    case JSON_STRING:
        return put_string(b, json_string_value(v), json_string_length(v));
    case JSON_INTEGER: {
        char num[32];
        int n = snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        if (n < 0 || (size_t)n >= sizeof(num)) {
            return -EINVAL;
        }
        return sbuf_put(b, num, (size_t)n);
    }
    case JSON_TRUE:
        return sbuf_put(b, "true", 4);
    case JSON_FALSE:
        return sbuf_put(b, "false", 5);
    case JSON_NULL:
        return sbuf_put(b, "null", 4);
    case JSON_REAL:
    default:
        return -EINVAL;
    }
}

char *proto_canonical(const json_t *v, size_t *ret_len)
{
    if (v == NULL) {
        errno = EINVAL;
        return NULL;
    }
    struct sbuf b = {NULL, 0, 0};
    int r = sbuf_reserve(&b, 0);
    if (r == 0) {
        r = put_value(&b, v);
    }
    if (r < 0) {
        free(b.data);
        errno = -r;
        return NULL;
    }
    *ret_len = b.len;
    return b.data;
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

int proto_view_hash(const json_t *v, char out[PROTO_HASH_HEX_LEN + 1])
{
    size_t len = 0;
    char *text = proto_canonical(v, &len);
    if (text == NULL) {
        return errno == EINVAL ? -EINVAL : -ENOMEM;
    }
    uint8_t digest[PROTO_HASH_HEX_LEN / 2];
    int r = crypto_generichash(digest, sizeof(digest), (const unsigned char *)text, len, NULL, 0);
    free(text);
    if (r != 0) {
        return -EINVAL;
    }
    proto_hex(digest, sizeof(digest), out);
    return 0;
}
