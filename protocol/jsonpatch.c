/* SPDX-License-Identifier: MIT */
/*
 * jsonpatch.c - RFC 6902 JSON Patch: a minimal diff between two documents
 * and the application of a patch, over RFC 6901 JSON Pointers (with the ~0
 * and ~1 escapes and "-" for the end of an array).
 *
 * The diff reads two documents in the canonical form (canonical.c) as text
 * and writes its ops as text: in that form two values are equal exactly
 * when their bytes are, so it compares spans with memcmp and walks only
 * into containers whose bytes differ, building no tree and allocating only
 * the path and the item spans of the arrays it walks. The apply works on
 * jansson values; it never borrows from the patch into the document (values
 * are copied) and never leaves a reference leaked or dangling on any error
 * path, though a failed patch may leave the document partly changed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- Reading canonical text ---- */

/* A document being diffed and its index: for every byte that opens a
 * string, an object or an array, the offset just past the value it opens.
 * One pass builds it, and then skipping a value costs one lookup, however
 * deep the walk goes: walking into a changed container does not read its
 * bytes again at every level. */
struct text {
    const char *base;
    uint32_t *end; /* set at the offsets of '"', '{' and '[' only */
};

/* A value (or a key, quotes included) inside a document. */
struct span {
    const char *p;
    size_t n;
    const struct text *t;
};

static bool span_eq(struct span a, struct span b)
{
    return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

/* How deep the index follows containers; views nest far less. */
#define INDEX_DEPTH 256

/* Where the index is: inside a string (which opened at str_at) or not, and
 * the containers open around it. */
struct index_state {
    bool in_str;
    uint32_t str_at;
    int depth;
    uint32_t open[INDEX_DEPTH];
};

/* Takes the byte at i, one of '"', '{', '[', '}' and ']', outside a string
 * or the '"' that ends one. 0 or -EINVAL. */
static int index_byte(struct index_state *st, const char *s, uint32_t i, uint32_t *end)
{
    char c = s[i];

    if (c == '"') {
        if (st->in_str) {
            end[st->str_at] = i + 1;
        } else {
            st->str_at = i;
        }
        st->in_str = !st->in_str;
    } else if (c == '{' || c == '[') {
        if (st->depth == INDEX_DEPTH) {
            return -EINVAL;
        }
        st->open[st->depth++] = i;
    } else {
        if (st->depth == 0 || s[st->open[st->depth - 1]] != (c == '}' ? '{' : '[')) {
            return -EINVAL;
        }
        end[st->open[--st->depth]] = i + 1;
    }
    return 0;
}

/* Indexes s[i, stop) byte by byte, and on past `stop` to the end of an
 * escape that straddles it; where it stopped, or -EINVAL. */
static long index_bytes(struct index_state *st, const char *s, size_t i, size_t stop, size_t n,
                        uint32_t *end)
{
    while (i < stop) {
        char c = s[i];
        if (st->in_str && c == '\\') {
            i += 2;
            continue;
        }
        if (c == '"' || (!st->in_str && (c == '{' || c == '[' || c == '}' || c == ']'))) {
            if (index_byte(st, s, (uint32_t)i, end) != 0) {
                return -EINVAL;
            }
        }
        i++;
    }
    return i <= n ? (long)i : -EINVAL;
}

/* The bytes of s[0, 64) that are '"', '\\', '{' or '[', and '}' or ']',
 * one bit each. */
struct block {
    uint64_t quote, bslash, open, close;
};

static void block_read(const char *s, struct block *b)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i bslash = _mm_set1_epi8('\\');
    const __m128i lower = _mm_set1_epi8(0x20);
    const __m128i open = _mm_set1_epi8('{');  /* '[' | 0x20 */
    const __m128i close = _mm_set1_epi8('}'); /* ']' | 0x20 */

    *b = (struct block){0};
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * k));
        __m128i f = _mm_or_si128(v, lower);
        int sh = 16 * k;
        b->quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << sh;
        b->bslash |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, bslash)) << sh;
        b->open |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(f, open)) << sh;
        b->close |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(f, close)) << sh;
    }
#else
    *b = (struct block){0};
    for (int k = 0; k < 64; k++) {
        unsigned char c = (unsigned char)s[k];
        uint64_t bit = UINT64_C(1) << k;
        b->quote |= c == '"' ? bit : 0;
        b->bslash |= c == '\\' ? bit : 0;
        b->open |= (c | 0x20) == '{' ? bit : 0;
        b->close |= (c | 0x20) == '}' ? bit : 0;
    }
#endif
}

/* Each bit set when an odd number of the bits up to it (itself included)
 * are: the bytes from a string's opening quote to its last byte. */
static uint64_t prefix_xor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/* Indexes the n bytes at s, which must hold exactly one value. 0,
 * -ENOMEM, or -EINVAL for text that does not: an unterminated string,
 * brackets that do not match, or more than one value.
 *
 * It reads 64 bytes at a time (the last block padded): the quotes of a
 * block without a backslash say which of its bytes lie in strings, and
 * only the brackets outside strings are looked at one by one. A block with
 * a backslash is read byte by byte. */
static int text_index(struct text *t, const char *s, size_t n, uint32_t *end)
{
    struct index_state st;
    size_t i = 0;

    if (n == 0 || n >= UINT32_MAX) {
        return -EINVAL;
    }
    t->base = s;
    t->end = end;
    st.in_str = false;
    st.str_at = 0;
    st.depth = 0;
    while (i < n) {
        struct block b;
        uint64_t inside, opens, closes, ev;
        if (n - i >= 64) {
            block_read(s + i, &b);
        } else {
            /* The last bytes, padded with NULs, which are none of those
             * looked for. */
            char tail[64] = {0};
            memcpy(tail, s + i, n - i);
            block_read(tail, &b);
        }
        if (b.bslash) {
            long r = index_bytes(&st, s, i, n - i >= 64 ? i + 64 : n, n, end);
            if (r < 0) {
                return -EINVAL;
            }
            i = (size_t)r;
            continue;
        }
        inside = prefix_xor(b.quote) ^ (st.in_str ? ~UINT64_C(0) : 0);
        /* The quotes alternate: a string's end, then pairs of a start and
         * an end, then perhaps a start that ends in a later block. */
        opens = b.quote & inside;
        closes = b.quote & ~inside;
        if (st.in_str && closes) {
            end[st.str_at] = (uint32_t)(i + (size_t)__builtin_ctzll(closes)) + 1;
            closes &= closes - 1;
            st.in_str = false;
        }
        while (opens && closes) {
            end[i + (size_t)__builtin_ctzll(opens)] =
                (uint32_t)(i + (size_t)__builtin_ctzll(closes)) + 1;
            opens &= opens - 1;
            closes &= closes - 1;
        }
        if (opens) {
            st.str_at = (uint32_t)(i + (size_t)__builtin_ctzll(opens));
            st.in_str = true;
        }
        ev = (b.open | b.close) & ~inside;
        while (ev) {
            if (index_byte(&st, s, (uint32_t)(i + (size_t)__builtin_ctzll(ev)), end) != 0) {
                return -EINVAL;
            }
            ev &= ev - 1;
        }
        i += 64;
    }
    if (st.in_str || st.depth != 0) {
        return -EINVAL;
    }
    if (s[0] == '"' || s[0] == '{' || s[0] == '[') {
        return end[0] == n ? 0 : -EINVAL;
    }
    /* A scalar: nothing of a string or a container in it. */
    for (i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == ',' || s[i] == '{' || s[i] == '[' || s[i] == '}' ||
            s[i] == ']') {
            return -EINVAL;
        }
    }
    return 0;
}

/* The end of the value starting at s (no further than `end`); NULL when
 * it is cut short. */
static const char *skip_value(const struct text *t, const char *s, const char *end)
{
    if (s >= end) {
        return NULL;
    }
    if (*s == '"' || *s == '{' || *s == '[') {
        const char *e = t->base + t->end[s - t->base];
        return e <= end ? e : NULL;
    }
    while (s < end && *s != ',' && *s != ']' && *s != '}') {
        s++;
    }
    return s;
}

/* Walks the members of an object or the items of an array. */
struct walk {
    const char *p;
    const char *end; /* the closing bracket */
    const struct text *t;
    bool first;
};

static void walk_init(struct walk *w, struct span v)
{
    w->p = v.p + 1;
    w->end = v.p + v.n - 1;
    w->t = v.t;
    w->first = true;
}

/* The next item (key NULL) or member. 1, 0 at the end, -EINVAL when the
 * text is not what the canonical form writes. */
static int walk_next(struct walk *w, struct span *key, struct span *value)
{
    const char *e;

    if (w->p >= w->end) {
        return 0;
    }
    if (!w->first && *w->p++ != ',') {
        return -EINVAL;
    }
    w->first = false;
    if (key) {
        if (*w->p != '"' || !(e = skip_value(w->t, w->p, w->end)) || e >= w->end || *e != ':') {
            return -EINVAL;
        }
        key->p = w->p;
        key->n = (size_t)(e - w->p);
        key->t = w->t;
        w->p = e + 1;
    }
    e = skip_value(w->t, w->p, w->end);
    if (!e || e == w->p) {
        return -EINVAL;
    }
    value->p = w->p;
    value->n = (size_t)(e - w->p);
    value->t = w->t;
    w->p = e;
    return 1;
}

/* The next byte a key stands for, reading its escapes; -1 at the end. */
static int key_byte(struct span k, size_t *i)
{
    unsigned char c;

    if (*i >= k.n - 1) {
        return -1;
    }
    c = (unsigned char)k.p[(*i)++];
    if (c != '\\' || *i >= k.n - 1) {
        return c;
    }
    c = (unsigned char)k.p[(*i)++];
    switch (c) {
    case 'b':
        return '\b';
    case 'f':
        return '\f';
    case 'n':
        return '\n';
    case 'r':
        return '\r';
    case 't':
        return '\t';
    case 'u': {
        /* The canonical form writes \u00XX for control characters only. */
        int v = 0;
        for (int j = 0; j < 4 && *i < k.n - 1; j++) {
            char h = k.p[(*i)++];
            v = v * 16 + (h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
        }
        return v & 0xff;
    }
    default:
        return c;
    }
}

/* Compares two keys (quoted, escaped) by the bytes they stand for: the
 * order of the canonical form. */
static int key_cmp(struct span a, struct span b)
{
    size_t i = 1;
    size_t j = 1;

    if (span_eq(a, b)) {
        /* The same bytes stand for the same key. */
        return 0;
    }
    if (!memchr(a.p + 1, '\\', a.n - 2) && !memchr(b.p + 1, '\\', b.n - 2)) {
        /* No escapes: the bytes between the quotes are the key's. */
        size_t n = a.n < b.n ? a.n : b.n;
        int cmp = memcmp(a.p + 1, b.p + 1, n - 2);
        return cmp ? cmp : (a.n > b.n) - (a.n < b.n);
    }

    for (;;) {
        int ca = key_byte(a, &i);
        int cb = key_byte(b, &j);
        if (ca != cb || ca < 0) {
            return ca - cb;
        }
    }
}

/* ---- Diff ---- */

/* Item spans a diff keeps on its own stack before it allocates. */
#define ITEMS_ON_STACK 64

/* Bytes of a pointer a diff keeps on its own stack before it allocates. */
#define PATH_ON_STACK 256

/* The pointer being walked, escaped for a JSON string, NUL-terminated. */
struct path {
    char *p; /* `small` until it outgrows it */
    size_t len;
    size_t cap;
    int err;
    char small[PATH_ON_STACK];
};

struct differ {
    struct proto_text *out;
    struct path path;
    struct span *items; /* a stack of the item spans of open arrays */
    size_t nitems;
    size_t cap;
    struct span small[ITEMS_ON_STACK]; /* the items while they fit */
};

static void path_add(struct differ *d, const char *s, size_t n)
{
    struct path *p = &d->path;

    if (p->err != 0) {
        return;
    }
    if (p->len + n + 1 > p->cap) {
        size_t cap = 2 * p->cap > p->len + n + 1 ? 2 * p->cap : p->len + n + 1;
        char *b = p->p == p->small ? malloc(cap) : realloc(p->p, cap);
        if (!b) {
            p->err = -ENOMEM;
            return;
        }
        if (p->p == p->small) {
            memcpy(b, p->small, p->len + 1);
        }
        p->p = b;
        p->cap = cap;
    }
    memcpy(p->p + p->len, s, n);
    p->len += n;
    p->p[p->len] = '\0';
}

/* Appends "/" and a key (quoted, escaped as in the text), with "~" and "/"
 * written as "~0" and "~1". */
static void path_key(struct differ *d, struct span key)
{
    const char *s = key.p + 1;
    const char *end = key.p + key.n - 1;

    path_add(d, "/", 1);
    while (s < end) {
        const char *q = s;
        while (q < end && *q != '~' && *q != '/') {
            q++;
        }
        path_add(d, s, (size_t)(q - s));
        if (q < end) {
            path_add(d, *q == '~' ? "~0" : "~1", 2);
            q++;
        }
        s = q;
    }
}

static void path_index(struct differ *d, size_t i)
{
    char num[1 + PROTO_DEC_MAX];
    size_t n;
    char *p = proto_dec(num + 1, i, &n);

    *--p = '/';
    path_add(d, p, n + 1);
}

static void path_cut(struct differ *d, size_t mark)
{
    d->path.len = mark;
    d->path.p[mark] = '\0';
}

/* {"op":op,"path":path,"value":value?}, after a comma when `out` holds
 * something already. */
static void emit(struct differ *d, const char *op, const struct span *value)
{
    static const char head[] = ",{\"op\":\"";
    static const char mid[] = "\",\"path\":\"";
    static const char val[] = "\",\"value\":";
    struct proto_text *t = d->out;
    size_t oplen = strlen(op);
    bool comma = t->len > 0;
    char *o;

    /* One reservation for the whole op, then its pieces copied in. */
    proto_text_reserve(t, sizeof(head) + oplen + sizeof(mid) + d->path.len + sizeof(val) +
                              (value ? value->n : 0));
    if (t->err != 0) {
        return;
    }
    o = proto_put(t->data + t->len, head + !comma, sizeof(head) - 1 - !comma);
    o = proto_put(o, op, oplen);
    o = proto_put(o, mid, sizeof(mid) - 1);
    o = proto_put(o, d->path.p, d->path.len);
    if (value) {
        o = proto_put(o, val, sizeof(val) - 1);
        o = proto_put(o, value->p, value->n);
    } else {
        *o++ = '"';
    }
    *o++ = '}';
    *o = '\0';
    t->len = (size_t)(o - t->data);
}

static int diff_value(struct differ *d, struct span a, struct span b);

static int diff_object(struct differ *d, struct span a, struct span b)
{
    struct walk wa;
    struct walk wb;
    struct span ka, va, kb, vb;
    size_t mark = d->path.len;
    int ha, hb;

    walk_init(&wa, a);
    walk_init(&wb, b);
    ha = walk_next(&wa, &ka, &va);
    hb = walk_next(&wb, &kb, &vb);
    while (ha > 0 || hb > 0) {
        int cmp = ha <= 0 ? 1 : hb <= 0 ? -1 : key_cmp(ka, kb);
        int r = 0;
        if (cmp < 0) {
            path_key(d, ka);
            emit(d, "remove", NULL);
        } else if (cmp > 0) {
            path_key(d, kb);
            emit(d, "add", &vb);
        } else if (!span_eq(va, vb)) {
            path_key(d, ka);
            r = diff_value(d, va, vb);
        }
        path_cut(d, mark);
        if (r < 0) {
            return r;
        }
        if (cmp <= 0) {
            ha = walk_next(&wa, &ka, &va);
        }
        if (cmp >= 0) {
            hb = walk_next(&wb, &kb, &vb);
        }
    }
    return ha < 0 || hb < 0 ? -EINVAL : 0;
}

/* Pushes the items of array `v` on the item stack; their number, or a
 * negative errno. */
static long items_push(struct differ *d, struct span v)
{
    struct walk w;
    struct span item;
    size_t base = d->nitems;
    int r;

    walk_init(&w, v);
    while ((r = walk_next(&w, NULL, &item)) > 0) {
        if (d->nitems == d->cap) {
            size_t cap = 2 * d->cap;
            struct span *items = d->items == d->small ? malloc(cap * sizeof(*items))
                                                      : realloc(d->items, cap * sizeof(*items));
            if (!items) {
                return -ENOMEM;
            }
            if (d->items == d->small) {
                memcpy(items, d->small, sizeof(d->small));
            }
            d->items = items;
            d->cap = cap;
        }
        d->items[d->nitems++] = item;
    }
    return r < 0 ? r : (long)(d->nitems - base);
}

/* How far a window may slide and still be recognised. */
#define SHIFT_MAX 16

/* The smallest s > 0 such that b starts with a[s..]: the array lost s
 * items at its head and may have gained some at its tail (a log window that
 * slid). 0 when there is none, or when sliding would not save ops. Only
 * arrays whose first new item is a scalar or an array are looked at (a
 * window of log lines, or of their messages); in place, an array item that
 * differs costs at least the one op counted for it. */
static size_t head_shift(const struct span *a, size_t na, const struct span *b, size_t nb)
{
    if (na < 2 || nb == 0 || b[0].p[0] == '{' || span_eq(a[0], b[0])) {
        return 0;
    }
    for (size_t s = 1; s < na && s <= nb && s <= SHIFT_MAX; s++) {
        size_t keep = na - s;
        bool same = keep <= nb;
        for (size_t i = 0; same && i < keep; i++) {
            same = span_eq(a[s + i], b[i]);
        }
        if (!same) {
            continue;
        }
        /* s removes and nb - keep adds, against what the diff in place
         * would send: a replace per differing item and the length change. */
        size_t common = na < nb ? na : nb;
        size_t in_place = nb > na ? nb - na : na - nb;
        for (size_t i = 0; i < common; i++) {
            in_place += !span_eq(a[i], b[i]);
        }
        return s + (nb - keep) < in_place ? s : 0;
    }
    return 0;
}

static int diff_array(struct differ *d, struct span a, struct span b)
{
    size_t base = d->nitems;
    long na = items_push(d, a);
    long nb = na < 0 ? na : items_push(d, b);
    size_t mark = d->path.len;
    size_t shift;
    int r = 0;

    if (na < 0 || nb < 0) {
        d->nitems = base;
        return na < 0 ? (int)na : (int)nb;
    }
    /* Spans are read by index: a nested array may move the stack. */
#define A(i) (d->items[base + (i)])
#define B(i) (d->items[base + (size_t)na + (i)])
    shift = head_shift(&A(0), (size_t)na, &B(0), (size_t)nb);
    if (shift > 0) {
        /* The head went away; what stays is equal; the rest is new. */
        for (size_t i = 0; i < shift; i++) {
            path_index(d, 0);
            emit(d, "remove", NULL);
            path_cut(d, mark);
        }
        for (size_t i = (size_t)na - shift; i < (size_t)nb; i++) {
            path_index(d, i);
            emit(d, "add", &B(i));
            path_cut(d, mark);
        }
    } else {
        /* What both keep at their head and at their tail is left alone;
         * between them items are diffed in place, and what one has more
         * is removed (from the last backwards, so that each index holds)
         * or added. An item taken out of the middle is one remove, not a
         * replace of every item after it. */
        size_t common = (size_t)(na < nb ? na : nb);
        size_t head = 0, tail = 0;
        while (head < common && span_eq(A(head), B(head))) {
            head++;
        }
        while (tail < common - head &&
               span_eq(A((size_t)na - 1 - tail), B((size_t)nb - 1 - tail))) {
            tail++;
        }
        size_t ma = (size_t)na - tail, mb = (size_t)nb - tail;
        size_t both = ma < mb ? ma : mb;
        for (size_t i = head; r == 0 && i < both; i++) {
            if (span_eq(A(i), B(i))) {
                continue;
            }
            path_index(d, i);
            r = diff_value(d, A(i), B(i));
            path_cut(d, mark);
        }
        for (size_t i = ma; r == 0 && i > mb; i--) {
            path_index(d, i - 1);
            emit(d, "remove", NULL);
            path_cut(d, mark);
        }
        for (size_t i = ma; r == 0 && i < mb; i++) {
            path_index(d, i);
            emit(d, "add", &B(i));
            path_cut(d, mark);
        }
    }
#undef A
#undef B
    d->nitems = base;
    return r;
}

static int diff_value(struct differ *d, struct span a, struct span b)
{
    if (span_eq(a, b)) {
        return 0;
    }
    if (a.p[0] == '{' && b.p[0] == '{') {
        return diff_object(d, a, b);
    }
    if (a.p[0] == '[' && b.p[0] == '[') {
        return diff_array(d, a, b);
    }
    emit(d, "replace", &b);
    return 0;
}

/* Index entries a diff keeps on the stack before it allocates: the two
 * texts of a view's part or of a seat's "you" fit. */
#define ENDS_ON_STACK 4096

/* Keys up to this length are quoted on the stack. */
#define KEY_ON_STACK 64

/* Appends "/" and `key` (a NUL-terminated member name) to the path. */
static void path_member(struct differ *d, const char *key)
{
    size_t n = strlen(key);
    char quoted[KEY_ON_STACK + 2];
    bool plain = n <= KEY_ON_STACK;

    for (size_t i = 0; plain && i < n; i++) {
        unsigned char c = (unsigned char)key[i];
        plain = c >= 0x20 && c != '"' && c != '\\';
    }
    if (plain) {
        /* Nothing to escape: the quoted form is the bytes between quotes. */
        quoted[0] = '"';
        memcpy(quoted + 1, key, n);
        quoted[n + 1] = '"';
        path_key(d, (struct span){quoted, n + 2, NULL});
        return;
    }
    struct proto_text k = {0};
    proto_text_string(&k, key, n);
    if (k.err == 0) {
        path_key(d, (struct span){k.data, k.len, NULL});
    }
    d->path.err = d->path.err ? d->path.err : k.err;
    proto_text_free(&k);
}

/* A differ writing to `out`, at the root. Its `small` is written only as
 * items are pushed. */
static void differ_init(struct differ *d, struct proto_text *out)
{
    d->out = out;
    d->path.p = d->path.small;
    d->path.len = 0;
    d->path.cap = PATH_ON_STACK;
    d->path.err = 0;
    d->path.small[0] = '\0';
    d->items = d->small;
    d->nitems = 0;
    d->cap = ITEMS_ON_STACK;
}

static void differ_fini(struct differ *d)
{
    if (d->path.p != d->path.small) {
        free(d->path.p);
    }
    if (d->items != d->small) {
        free(d->items);
    }
}

/* proto_patch_diff_text, under "/key/index" when index >= 0, and
 * "/key/index/member" when `member` is set too. */
static int diff_text_at(struct proto_text *out, const char *key, long index, const char *member,
                        const char *a, size_t alen, const char *b, size_t blen)
{
    struct differ d;
    struct text ta, tb;
    struct span sa = {a, alen, &ta};
    struct span sb = {b, blen, &tb};
    size_t mark = out->len;
    uint32_t small[ENDS_ON_STACK];
    uint32_t *ends = small;
    size_t nends;
    int r = 0;

    if ((a && alen > UINT32_MAX / 2) || (b && blen > UINT32_MAX / 2)) {
        return -EINVAL;
    }
    differ_init(&d, out);
    nends = (a ? alen : 0) + (b ? blen : 0) + 1;
    if (nends > ENDS_ON_STACK && !(ends = malloc(nends * sizeof(*ends)))) {
        return -ENOMEM;
    }
    if ((a && (r = text_index(&ta, a, alen, ends)) != 0) ||
        (b && (r = text_index(&tb, b, blen, ends + (a ? alen : 0))) != 0)) {
        if (ends != small) {
            free(ends);
        }
        return r;
    }
    if (key) {
        path_member(&d, key);
    }
    if (index >= 0) {
        path_index(&d, (size_t)index);
        if (member) {
            path_member(&d, member);
        }
    }
    if (d.path.err == 0) {
        if (a && b) {
            r = diff_value(&d, sa, sb);
        } else if (b) {
            emit(&d, "add", &sb);
        } else if (a) {
            emit(&d, "remove", NULL);
        }
    }
    if (r == 0) {
        r = d.path.err ? d.path.err : out->err;
    }
    if (r == -EINVAL && out->err == 0) {
        /* Text that is not canonical: none of its ops go out. */
        out->len = mark;
        if (out->data) {
            out->data[mark] = '\0';
        }
    }
    differ_fini(&d);
    if (ends != small) {
        free(ends);
    }
    return r;
}

int proto_patch_diff_text(struct proto_text *out, const char *key, const char *a, size_t alen,
                          const char *b, size_t blen)
{
    return diff_text_at(out, key, -1, NULL, a, alen, b, blen);
}

int proto_patch_diff_item(struct proto_text *out, const char *key, int index, const char *a,
                          size_t alen, const char *b, size_t blen)
{
    return diff_text_at(out, key, index < 0 ? 0 : index, NULL, a, alen, b, blen);
}

int proto_patch_diff_field(struct proto_text *out, const char *key, int index, const char *member,
                           const char *a, size_t alen, const char *b, size_t blen)
{
    return diff_text_at(out, key, index < 0 ? 0 : index, member, a, alen, b, blen);
}

int proto_patch_item_op(struct proto_text *out, const char *key, int index, const char *v, size_t n)
{
    struct differ d;
    struct span sv = {v, n, NULL};
    int r;

#ifdef CONCLAVE_CHECKED
    /* Test builds: the value is one value as the canonical form writes it,
     * as a diff would have found. */
    if (v) {
        struct text t;
        uint32_t *ends = n > 0 && n < UINT32_MAX / 2 ? malloc(n * sizeof(*ends)) : NULL;
        r = ends ? text_index(&t, v, n, ends) : n > 0 && n < UINT32_MAX / 2 ? -ENOMEM : -EINVAL;
        free(ends);
        if (r != 0) {
            return r;
        }
    }
#endif
    differ_init(&d, out);
    path_member(&d, key);
    path_index(&d, index < 0 ? 0 : (size_t)index);
    if (d.path.err == 0) {
        emit(&d, v ? "add" : "remove", v ? &sv : NULL);
    }
    r = d.path.err ? d.path.err : out->err;
    differ_fini(&d);
    return r;
}

json_t *proto_patch_diff(const json_t *a, const json_t *b)
{
    struct proto_text ops = {0};
    struct proto_text arr = {0};
    size_t alen, blen;
    char *ta = proto_canonical(a, &alen);
    char *tb = ta ? proto_canonical(b, &blen) : NULL;
    json_t *patch = NULL;

    if (tb && proto_patch_diff_text(&ops, NULL, ta, alen, tb, blen) == 0) {
        proto_text_add(&arr, "[", 1);
        proto_text_add(&arr, ops.data ? ops.data : "", ops.len);
        proto_text_add(&arr, "]", 1);
        if (arr.err == 0) {
            patch = json_loadb(arr.data, arr.len, 0, NULL);
        }
    }
    proto_text_free(&arr);
    proto_text_free(&ops);
    free(ta);
    free(tb);
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
