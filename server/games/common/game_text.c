/* SPDX-License-Identifier: MIT */
/*
 * game_text.c - the writer games write their views with: canonical JSON
 * text (PROTOCOL.md section 5) into a growable buffer that is kept between
 * uses. It places the commas and colons itself and refuses, once and for
 * good, anything that would not be canonical: keys out of order or not
 * plain identifiers, a value where a key belongs, containers closed out of
 * turn, a second top-level value. The strings it writes are escaped exactly
 * as protocol/canonical.c escapes them, so the bytes a game writes are the
 * bytes every client hashes.
 */
#include "game.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void fail(struct game_text *t, int err)
{
    if (t->err == 0) {
        t->err = err;
    }
}

/* reserve() when the buffer must grow, or refuse. */
static bool reserve_slow(struct game_text *t, size_t n)
{
    size_t need;
    size_t cap;
    char *data;

    if (t->err != 0) {
        return false;
    }
    if (n > UINT32_MAX / 2 || t->len > UINT32_MAX / 2) {
        /* Offsets of keys are kept in 32 bits: no view comes near. */
        fail(t, -ENOMEM);
        return false;
    }
    need = t->len + n + 1;
    if (need <= t->cap) {
        return true;
    }
    cap = t->cap < 256 ? 256 : t->cap;
    while (cap < need) {
        cap *= 2;
    }
    data = game_text_alloc_data(cap);
    if (!data) {
        fail(t, -ENOMEM);
        return false;
    }
    if (t->len > 0) {
        memcpy(data, t->data, t->len);
    }
    game_text_free_data(t->data);
    t->data = data;
    t->cap = cap;
    return true;
}

/* Room for n more bytes and the NUL; false (and t->err set) when none.
 * The common case, room already there, costs a few compares. */
static inline bool reserve(struct game_text *t, size_t n)
{
    if (t->err == 0 && n <= UINT32_MAX / 2 && t->len <= UINT32_MAX / 2 &&
        t->len + n + 1 <= t->cap) {
        return true;
    }
    return reserve_slow(t, n);
}

static inline void put(struct game_text *t, const char *s, size_t n)
{
    if (!reserve(t, n)) {
        return;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

/* Where a value may start: after a key, as the next item of an array, or
 * as the one top-level value. Writes the comma an item needs. */
static inline bool value_begin(struct game_text *t)
{
    if (t->err != 0) {
        return false;
    }
    if (t->depth == 0) {
        if (t->done) {
            fail(t, -EINVAL);
            return false;
        }
        return true;
    }
    if (t->open[t->depth - 1].kind == '{') {
        if (!t->after_key) {
            fail(t, -EINVAL);
            return false;
        }
        t->after_key = false;
        return true;
    }
    if (t->open[t->depth - 1].count++ > 0) {
        put(t, ",", 1);
    }
    return t->err == 0;
}

/* After a scalar or a closed container. */
static void value_end(struct game_text *t)
{
    if (t->depth == 0) {
        t->done = true;
    }
}

void game_text_reset(struct game_text *t)
{
    t->len = 0;
    t->err = 0;
    t->depth = 0;
    t->after_key = false;
    t->done = false;
    if (t->data) {
        t->data[0] = '\0';
    }
}

void game_text_free(struct game_text *t)
{
    game_text_free_data(t->data);
    memset(t, 0, sizeof(*t));
}

/* Through jansson's allocator, which the allocation-failure tests make
 * fail. */
char *game_text_alloc_data(size_t n)
{
    json_malloc_t alloc;
    json_free_t release;

    json_get_alloc_funcs(&alloc, &release);
    return alloc(n);
}

void game_text_free_data(char *data)
{
    json_malloc_t alloc;
    json_free_t release;

    if (data) {
        json_get_alloc_funcs(&alloc, &release);
        release(data);
    }
}

int game_text_end(const struct game_text *t)
{
    if (t->err != 0) {
        return t->err;
    }
    return t->depth == 0 && t->done ? 0 : -EINVAL;
}

static void open_container(struct game_text *t, char kind)
{
    if (!value_begin(t)) {
        return;
    }
    if (t->depth == GAME_TEXT_DEPTH) {
        fail(t, -EINVAL);
        return;
    }
    put(t, &kind, 1);
    t->open[t->depth].kind = kind;
    t->open[t->depth].count = 0;
    t->open[t->depth].key_len = 0;
    t->depth++;
}

static void close_container(struct game_text *t, char kind)
{
    if (t->err != 0) {
        return;
    }
    if (t->depth == 0 || t->open[t->depth - 1].kind != kind || t->after_key) {
        fail(t, -EINVAL);
        return;
    }
    put(t, kind == '{' ? "}" : "]", 1);
    t->depth--;
    value_end(t);
}

void game_text_obj(struct game_text *t)
{
    open_container(t, '{');
}

void game_text_end_obj(struct game_text *t)
{
    close_container(t, '{');
}

void game_text_arr(struct game_text *t)
{
    open_container(t, '[');
}

void game_text_end_arr(struct game_text *t)
{
    close_container(t, '[');
}

/* The bytes a key may hold: letters, digits and '_'. */
static const bool plain[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
    ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
    ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1,
    ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1,
    ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1,
    ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1,
    ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

/* Keys up to this length are checked, ordered and copied in one pass;
 * longer ones (none of the games writes one) take a second. */
#define KEY_FAST 32

/* Whether key k (n bytes) comes after key prev (m bytes) in byte order. */
static inline bool key_after(const char *prev, size_t m, const char *k, size_t n)
{
    size_t l = m < n ? m : n;
    int cmp = 0;

    for (size_t i = 0; i < l && cmp == 0; i++) {
        cmp = (int)(unsigned char)prev[i] - (int)(unsigned char)k[i];
    }
    return cmp < 0 || (cmp == 0 && m < n);
}

void game_text_key(struct game_text *t, const char *key)
{
    size_t n = 0;
    char *o;

    if (t->err != 0) {
        return;
    }
    if (t->depth == 0 || t->open[t->depth - 1].kind != '{' || t->after_key) {
        fail(t, -EINVAL);
        return;
    }
    struct game_text_open *top = &t->open[t->depth - 1];
    /* Room for a short key with its quotes, colon and comma; a longer
     * one asks for more below. */
    if (!reserve(t, KEY_FAST + 4)) {
        return;
    }
    o = t->data + t->len + (top->count > 0) + 1;
    /* Its length and its bytes checked as it is copied: a key ends at the
     * first byte that is not plain, which must be its NUL. */
    while (n < KEY_FAST && plain[(unsigned char)key[n]]) {
        o[n] = key[n];
        n++;
    }
    if (n == KEY_FAST) {
        while (plain[(unsigned char)key[n]]) {
            n++;
        }
        if (!reserve(t, n + 4)) {
            return;
        }
        o = t->data + t->len + (top->count > 0) + 1;
        memcpy(o, key, n);
    }
    if (n == 0 || key[n] != '\0') {
        fail(t, -EINVAL);
        return;
    }
    /* Plain keys need no escapes, so their bytes in the text are the
     * bytes the canonical order compares. */
    if (top->count > 0) {
        if (!key_after(t->data + top->key_off, top->key_len, o, n)) {
            fail(t, -EINVAL);
            return;
        }
        o[-2] = ',';
    }
    o[-1] = '"';
    top->key_off = (uint32_t)(o - t->data);
    top->key_len = (uint32_t)n;
    o += n;
    *o++ = '"';
    *o++ = ':';
    *o = '\0';
    t->len = (size_t)(o - t->data);
    top->count++;
    t->after_key = true;
}

const char *game_digits(char num[GAME_DIGITS_MAX], unsigned long long m, bool negative, size_t *n)
{
    size_t k = 0;

    do {
        num[GAME_DIGITS_MAX - 1 - k++] = (char)('0' + m % 10);
        m /= 10;
    } while (m > 0);
    if (negative) {
        num[GAME_DIGITS_MAX - 1 - k++] = '-';
    }
    *n = k;
    return num + GAME_DIGITS_MAX - k;
}

const char *game_digits_signed(char num[GAME_DIGITS_MAX], long long v, size_t *n)
{
    /* The magnitude as unsigned, so that LLONG_MIN has one too. */
    return game_digits(num, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, v < 0, n);
}

void game_text_int(struct game_text *t, long long v)
{
    char num[GAME_DIGITS_MAX];
    size_t n;
    const char *d;

    if (!value_begin(t)) {
        return;
    }
    d = game_digits_signed(num, v, &n);
    put(t, d, n);
    value_end(t);
}

void game_text_int_obj(struct game_text *t, const char *const *keys, const long long *v, int n)
{
    const char *prev = NULL;
    size_t prev_len = 0;
    char *o;

    if (t->err != 0) {
        return;
    }
    if (n < 0 || n > GAME_TEXT_INT_OBJ_MAX) {
        fail(t, -EINVAL);
        return;
    }
    /* Room for every member at its longest: ,"key": and 20 digits. */
    if (!value_begin(t) || !reserve(t, 2 + (size_t)n * (KEY_FAST + 4 + 20))) {
        return;
    }
    /* Each key checked (plain, at most KEY_FAST bytes, after the one
     * before) as it is copied; the text counts only once all are. */
    o = t->data + t->len;
    *o++ = '{';
    for (int i = 0; i < n; i++) {
        const char *k = keys[i];
        char num[GAME_DIGITS_MAX];
        size_t m = 0, nd;
        const char *d;
        if (i > 0) {
            *o++ = ',';
        }
        *o++ = '"';
        while (m < KEY_FAST && plain[(unsigned char)k[m]]) {
            o[m] = k[m];
            m++;
        }
        if (m == 0 || k[m] != '\0' || (prev && !key_after(prev, prev_len, o, m))) {
            t->data[t->len] = '\0';
            fail(t, -EINVAL);
            return;
        }
        prev = o;
        prev_len = m;
        o += m;
        *o++ = '"';
        *o++ = ':';
        d = game_digits_signed(num, v[i], &nd);
        memcpy(o, d, nd);
        o += nd;
    }
    *o++ = '}';
    *o = '\0';
    t->len = (size_t)(o - t->data);
    value_end(t);
}

void game_text_bool(struct game_text *t, bool v)
{
    if (value_begin(t)) {
        put(t, v ? "true" : "false", v ? 4 : 5);
        value_end(t);
    }
}

void game_text_null(struct game_text *t)
{
    if (value_begin(t)) {
        put(t, "null", 4);
        value_end(t);
    }
}

/* Whether any of the eight bytes of w needs an escape: below 0x20, '"'
 * or '\\' (bytes of 0x80 and above never match). */
static inline bool word_needs_escape(uint64_t w)
{
    const uint64_t ones = UINT64_C(0x0101010101010101);
    const uint64_t highs = UINT64_C(0x8080808080808080);
    uint64_t q = w ^ (ones * '"');           /* zero where w has '"' */
    uint64_t b = w ^ (ones * '\\');          /* zero where w has '\\' */
    uint64_t below = (w - ones * 0x20) & ~w; /* a byte below 0x20 */
    uint64_t zeros = ((q - ones) & ~q) | ((b - ones) & ~b);

    return ((below | zeros) & highs) != 0;
}

void game_text_strn(struct game_text *t, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t i = 0;
    char *o;

    /* At most six bytes per input byte, and the quotes. */
    if (!value_begin(t) || n > UINT32_MAX / 8 || !reserve(t, 6 * n + 2)) {
        fail(t, -ENOMEM);
        return;
    }
    o = t->data + t->len;
    *o++ = '"';
    /* Eight bytes at a time while none needs an escape (most strings are
     * names and ids), then byte by byte. */
    while (n - i >= 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (word_needs_escape(w)) {
            break;
        }
        i += 8;
    }
    memcpy(o, s, i);
    o += i;
    for (; i < n; i++) {
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
    value_end(t);
}

void game_text_str(struct game_text *t, const char *s)
{
    game_text_strn(t, s, strlen(s));
}

void game_text_str_or_null(struct game_text *t, const char *s)
{
    if (s) {
        game_text_str(t, s);
    } else {
        game_text_null(t);
    }
}

void game_text_kint(struct game_text *t, const char *key, long long v)
{
    game_text_key(t, key);
    game_text_int(t, v);
}

void game_text_kbool(struct game_text *t, const char *key, bool v)
{
    game_text_key(t, key);
    game_text_bool(t, v);
}

void game_text_knull(struct game_text *t, const char *key)
{
    game_text_key(t, key);
    game_text_null(t);
}

void game_text_kstr(struct game_text *t, const char *key, const char *s)
{
    game_text_key(t, key);
    game_text_str(t, s);
}

void game_text_kobj(struct game_text *t, const char *key)
{
    game_text_key(t, key);
    game_text_obj(t);
}

void game_text_karr(struct game_text *t, const char *key)
{
    game_text_key(t, key);
    game_text_arr(t);
}

void game_section_write(struct game_text *out, const struct game_section *sec, const void *state)
{
    if (sec->write) {
        sec->write(out, state);
        return;
    }
    int n = sec->nitems(state);
    game_text_arr(out);
    for (int i = 0; i < n; i++) {
        sec->write_item(out, state, i);
    }
    game_text_end_arr(out);
}

void game_text_fields(struct game_text *out, const struct game_section *sec, const void *state,
                      int item, uint32_t *ends)
{
    game_text_obj(out);
    for (int f = 0; f < sec->nfields; f++) {
        game_text_key(out, sec->field_keys[f]);
        sec->write_field(out, state, item, f);
        if (ends) {
            ends[f] = (uint32_t)out->len;
        }
    }
    game_text_end_obj(out);
}
