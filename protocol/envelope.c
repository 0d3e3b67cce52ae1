/* SPDX-License-Identifier: MIT */
/*
 * envelope.c - the request/reply/event envelope of PROTOCOL.md section 2:
 * parsing and validating a request line (JSON, nesting depth, object, op,
 * id; the common requests through a quick reader that builds the tree
 * jansson's would, every other line through jansson), building replies and
 * events, dumping a message as one line, and the display-name and UTF-8
 * checks. It must never trust the bytes it is given, echo control
 * characters or newlines back in an error, or emit a line that breaks the
 * wire contract (more than 4 MiB, a non-integer number).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

#define PROTO_DEPTH_MAX 64

/* ---- UTF-8 ---- */

/* Decodes one strictly valid UTF-8 sequence (no overlong forms, no
 * surrogates, at most U+10FFFF) at s[0..n). Returns its length and sets *cp,
 * or 0 when the bytes are not valid UTF-8. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    if (n == 0) {
        return 0;
    }
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v;
    uint32_t min;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        v = c & 0x1fu;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        v = c & 0x0fu;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        v = c & 0x07u;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < len) {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
        v = (v << 6) | (s[i] & 0x3fu);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
        return 0;
    }
    *cp = v;
    return len;
}

static bool is_control(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

size_t proto_utf8_len(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        if ((*p & 0xc0) != 0x80) {
            n++;
        }
    }
    return n;
}

int proto_name_check(const char *name, char *out, size_t outlen)
{
    if (name == NULL || out == NULL) {
        return -1;
    }
    size_t n = strlen(name);
    size_t begin = 0;
    while (begin < n && name[begin] == ' ') {
        begin++;
    }
    while (n > begin && name[n - 1] == ' ') {
        n--;
    }
    if (n == begin) {
        return -1;
    }
    const unsigned char *s = (const unsigned char *)name + begin;
    size_t bytes = n - begin;
    size_t chars = 0;
    for (size_t i = 0; i < bytes;) {
        uint32_t cp = 0;
        size_t step = utf8_decode(s + i, bytes - i, &cp);
        if (step == 0 || is_control(cp)) {
            return -1;
        }
        i += step;
        if (++chars > PROTO_NAME_MAX_CHARS) {
            return -1;
        }
    }
    if (bytes + 1 > outlen) {
        return -1;
    }
    memcpy(out, s, bytes);
    out[bytes] = '\0';
    return 0;
}

/* ---- Requests ---- */

static void set_err(char *errbuf, size_t errlen, const char *fmt, ...)
{
    if (errbuf == NULL || errlen == 0) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(errbuf, errlen, fmt, ap);
    va_end(ap);
}

/* True when brackets outside strings nest deeper than the limit. The scan
 * only has to be right for valid JSON; anything else jansson refuses. */
static bool nested_too_deep(const char *s, size_t n)
{
    size_t depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_string) {
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > PROTO_DEPTH_MAX) {
                return true;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return false;
}

/* ---- The quick reader ---- */

/* A reader for the requests clients send most: ASCII strings without
 * escapes, integers of at most 18 digits, objects, arrays and the three
 * literals, between JSON's whitespace. It builds the tree json_loadb()
 * would (the same calls, in the same order, so a repeated key keeps its
 * first place and its last value) and declines anything else, a real
 * included, by returning NULL without a word: json_loadb() then reads the
 * line again and says what it thinks. */
struct quick {
    const char *p, *end;
};

static void quick_space(struct quick *q)
{
    while (q->p < q->end && (*q->p == ' ' || *q->p == '\t' || *q->p == '\n' || *q->p == '\r')) {
        q->p++;
    }
}

/* A string's bytes, after its opening quote: *len of them from the
 * returned start, or NULL when it holds an escape, a control byte or a
 * byte beyond ASCII, or does not end. */
static const char *quick_chars(struct quick *q, size_t *len)
{
    const char *start = q->p;

    while (q->p < q->end) {
        unsigned char c = (unsigned char)*q->p;
        if (c == '"') {
            *len = (size_t)(q->p++ - start);
            return start;
        }
        if (c < 0x20 || c >= 0x80 || c == '\\') {
            return NULL;
        }
        q->p++;
    }
    return NULL;
}

static json_t *quick_value(struct quick *q, int depth);

/* Skips whitespace, then takes `c` if it comes next. */
static bool quick_take(struct quick *q, char c)
{
    quick_space(q);
    if (q->p < q->end && *q->p == c) {
        q->p++;
        return true;
    }
    return false;
}

/* After a member or an element: 1 at the closing `close`, 0 at a comma
 * (each taken), -1 at anything else. */
static int quick_after(struct quick *q, char close)
{
    return quick_take(q, close) ? 1 : quick_take(q, ',') ? 0 : -1;
}

/* The members after `{`; NULL when declined (the object dropped). */
static json_t *quick_object(struct quick *q, int depth)
{
    json_t *obj = json_object();
    int at = obj && quick_take(q, '}') ? 1 : 0;

    while (obj && at == 0) {
        const char *key;
        size_t klen;
        json_t *v;
        if (!quick_take(q, '"') || !(key = quick_chars(q, &klen)) || !quick_take(q, ':') ||
            !(v = quick_value(q, depth)) || json_object_setn_new_nocheck(obj, key, klen, v) != 0) {
            at = -1;
        } else {
            at = quick_after(q, '}');
        }
    }
    if (at < 0) {
        json_decref(obj);
        obj = NULL;
    }
    return obj;
}

/* The elements after `[`; NULL when declined. */
static json_t *quick_array(struct quick *q, int depth)
{
    json_t *arr = json_array();
    int at = arr && quick_take(q, ']') ? 1 : 0;

    while (arr && at == 0) {
        json_t *v = quick_value(q, depth);
        at = v && json_array_append_new(arr, v) == 0 ? quick_after(q, ']') : -1;
    }
    if (at < 0) {
        json_decref(arr);
        arr = NULL;
    }
    return arr;
}

/* An integer of 1 to 18 digits, without a leading zero before another
 * digit, and not followed by a fraction or an exponent. */
static json_t *quick_integer(struct quick *q)
{
    bool minus = q->p < q->end && *q->p == '-';
    json_int_t v = 0;
    int digits = 0;

    q->p += minus;
    while (q->p < q->end && *q->p >= '0' && *q->p <= '9' && digits < 18) {
        v = v * 10 + (*q->p++ - '0');
        digits++;
    }
    if (digits == 0 || (digits > 1 && q->p[-digits] == '0') ||
        (q->p < q->end &&
         ((*q->p >= '0' && *q->p <= '9') || *q->p == '.' || *q->p == 'e' || *q->p == 'E'))) {
        return NULL;
    }
    return json_integer(minus ? -v : v);
}

static bool quick_word(struct quick *q, const char *word, size_t n)
{
    if ((size_t)(q->end - q->p) < n || memcmp(q->p, word, n) != 0) {
        return false;
    }
    q->p += n;
    return true;
}

static json_t *quick_value(struct quick *q, int depth)
{
    const char *chars;
    size_t len;

    quick_space(q);
    if (q->p >= q->end) {
        return NULL;
    }
    switch (*q->p) {
    case '{':
        q->p++;
        return depth < PROTO_DEPTH_MAX ? quick_object(q, depth + 1) : NULL;
    case '[':
        q->p++;
        return depth < PROTO_DEPTH_MAX ? quick_array(q, depth + 1) : NULL;
    case '"':
        q->p++;
        chars = quick_chars(q, &len);
        return chars ? json_stringn_nocheck(chars, len) : NULL;
    case 't':
        return quick_word(q, "true", 4) ? json_true() : NULL;
    case 'f':
        return quick_word(q, "false", 5) ? json_false() : NULL;
    case 'n':
        return quick_word(q, "null", 4) ? json_null() : NULL;
    default:
        return quick_integer(q);
    }
}

/* The line's value, or NULL: declined (or out of memory). */
static json_t *quick_load(const char *line, size_t len)
{
    struct quick q = {line, line + len};
    json_t *v = quick_value(&q, 0);

    quick_space(&q);
    if (v && q.p != q.end) {
        json_decref(v);
        return NULL;
    }
    return v;
}

static bool id_is_valid(const json_t *id)
{
    if (json_is_integer(id)) {
        return true;
    }
    return json_is_string(id) && json_string_length(id) <= PROTO_ID_MAX;
}

/* True when `v` holds a real anywhere. */
static bool has_real(const json_t *v)
{
    if (json_is_real(v)) {
        return true;
    }
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (has_real(json_array_get(v, i))) {
                return true;
            }
        }
    } else if (json_is_object(v)) {
        json_t *obj = (json_t *)v;
        for (void *it = json_object_iter(obj); it != NULL; it = json_object_iter_next(obj, it)) {
            if (has_real(json_object_iter_value(it))) {
                return true;
            }
        }
    }
    return false;
}

enum proto_err proto_request_parse(const char *line, size_t len, struct proto_request *req,
                                   char *errbuf, size_t errlen)
{
    req->msg = NULL;
    req->op = NULL;
    req->id = NULL;
    if (errbuf != NULL && errlen > 0) {
        errbuf[0] = '\0';
    }
    if (line == NULL) {
        set_err(errbuf, errlen, "empty line");
        return PROTO_ERR_BAD_JSON;
    }
    /* The quick reader declines what nests deeper than the limit; a line
     * it declines is scanned for that before jansson reads it. */
    json_error_t jerr;
    json_t *msg = quick_load(line, len);
    bool quick = msg != NULL;
    if (!quick && nested_too_deep(line, len)) {
        set_err(errbuf, errlen, "nested too deep (more than %d levels)", PROTO_DEPTH_MAX);
        return PROTO_ERR_BAD_JSON;
    }
    if (!quick) {
        msg = json_loadb(line, len, JSON_DECODE_ANY, &jerr);
    }
    if (msg == NULL) {
        if (json_error_code(&jerr) == json_error_out_of_memory) {
            set_err(errbuf, errlen, "out of memory");
            return PROTO_ERR_INTERNAL;
        }
        set_err(errbuf, errlen, "invalid JSON at column %d: %s", jerr.column, jerr.text);
        return PROTO_ERR_BAD_JSON;
    }
    if (!json_is_object(msg)) {
        json_decref(msg);
        set_err(errbuf, errlen, "a request must be a JSON object");
        return PROTO_ERR_BAD_REQUEST;
    }
    req->msg = msg;
    json_t *id = json_object_get(msg, "id");
    if (id != NULL) {
        if (!id_is_valid(id)) {
            set_err(errbuf, errlen, "id must be an integer or a string of at most %d bytes",
                    PROTO_ID_MAX);
            return PROTO_ERR_BAD_REQUEST;
        }
        req->id = id;
    }
    if (!quick && has_real(msg)) {
        /* Numbers on the wire are integers: a real is refused before any
         * handler sees it, so nothing can accept what the journal cannot
         * keep. */
        set_err(errbuf, errlen, "numbers must be integers (no fraction or exponent)");
        return PROTO_ERR_BAD_REQUEST;
    }
    json_t *op = json_object_get(msg, "op");
    if (!json_is_string(op)) {
        set_err(errbuf, errlen, "a request needs a string \"op\"");
        return PROTO_ERR_BAD_REQUEST;
    }
    req->op = json_string_value(op);
    return PROTO_OK;
}

void proto_request_fini(struct proto_request *req)
{
    if (req == NULL) {
        return;
    }
    json_decref(req->msg);
    req->msg = NULL;
    req->op = NULL;
    req->id = NULL;
}

/* ---- Replies and events ---- */

/* New reference: a string holding `text` with every control character
 * (newlines included) replaced by a space and every byte that is not valid
 * UTF-8 replaced by '?'. NULL on ENOMEM. */
size_t proto_clean_text(const char *in, size_t n, char *out)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t o = 0;

    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t step = utf8_decode(s + i, n - i, &cp);
        if (step == 0) {
            out[o++] = '?';
            i++;
        } else if (is_control(cp)) {
            out[o++] = ' ';
            i += step;
        } else {
            memcpy(out + o, s + i, step);
            o += step;
            i += step;
        }
    }
    out[o] = '\0';
    return o;
}

static json_t *clean_string(const char *text)
{
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    if (copy == NULL) {
        return NULL;
    }
    size_t o = proto_clean_text(text, n, copy);
    json_t *str = json_stringn(copy, o);
    free(copy);
    return str;
}

/* New reference: {"code": .., "message": ..}; NULL on ENOMEM. */
static json_t *error_object(enum proto_err code, const char *message)
{
    json_t *err = json_object();
    if (err == NULL) {
        return NULL;
    }
    if (json_object_set_new(err, "code", json_string(proto_err_name(code))) < 0 ||
        json_object_set_new(err, "message",
                            clean_string(message != NULL ? message : proto_err_message(code))) <
            0) {
        json_decref(err);
        return NULL;
    }
    return err;
}

/* Starts a reply with "re" (a copy of id, when given) and "ok". */
static json_t *reply_new(const json_t *id, bool ok)
{
    json_t *reply = json_object();
    if (reply == NULL) {
        return NULL;
    }
    if (id != NULL && json_object_set_new(reply, "re", json_deep_copy(id)) < 0) {
        json_decref(reply);
        return NULL;
    }
    if (json_object_set_new(reply, "ok", json_boolean(ok)) < 0) {
        json_decref(reply);
        return NULL;
    }
    return reply;
}

json_t *proto_reply_ok(const json_t *id)
{
    return reply_new(id, true);
}

json_t *proto_reply_error(const json_t *id, enum proto_err code, const char *message)
{
    json_t *reply = reply_new(id, false);
    if (reply == NULL) {
        return NULL;
    }
    if (json_object_set_new(reply, "error", error_object(code, message)) < 0) {
        json_decref(reply);
        return NULL;
    }
    return reply;
}

json_t *proto_event_new(const char *ev)
{
    json_t *event = json_object();
    if (event == NULL) {
        return NULL;
    }
    if (json_object_set_new(event, "ev", json_string(ev)) < 0) {
        json_decref(event);
        return NULL;
    }
    return event;
}

json_t *proto_event_error(enum proto_err code, const char *message)
{
    json_t *event = proto_event_new("error");
    if (event == NULL) {
        return NULL;
    }
    if (json_object_set_new(event, "error", error_object(code, message)) < 0) {
        json_decref(event);
        return NULL;
    }
    return event;
}

/* ---- Dumping ---- */

struct dump_buf {
    char *data;
    size_t len;
    size_t cap;
    int err;
};

static int dump_cb(const char *chunk, size_t n, void *data)
{
    struct dump_buf *b = data;
    /* The line keeps one byte for its LF; the buffer one more for a NUL. */
    if (n > PROTO_OUT_LINE_MAX - 1 - b->len) {
        b->err = E2BIG;
        return -1;
    }
    if (b->len + n + 2 > b->cap) {
        size_t cap = b->cap < 256 ? 256 : b->cap;
        while (cap < b->len + n + 2) {
            cap *= 2;
        }
        char *p = realloc(b->data, cap);
        if (p == NULL) {
            b->err = ENOMEM;
            return -1;
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, chunk, n);
    b->len += n;
    return 0;
}

char *proto_line_dump(const json_t *msg, size_t *ret_len)
{
    if (msg == NULL || has_real(msg)) {
        errno = EINVAL;
        return NULL;
    }
    struct dump_buf b = {NULL, 0, 0, 0};
    if (json_dump_callback(msg, dump_cb, &b, JSON_COMPACT | JSON_ENCODE_ANY) < 0 ||
        b.data == NULL) {
        free(b.data);
        /* Reals were refused above: what is left is jansson running out of
         * memory (or our buffer reporting its own error). */
        errno = b.err != 0 ? b.err : ENOMEM;
        return NULL;
    }
    b.data[b.len++] = '\n';
    b.data[b.len] = '\0';
    *ret_len = b.len;
    return b.data;
}
