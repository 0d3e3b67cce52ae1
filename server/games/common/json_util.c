/* SPDX-License-Identifier: MIT */
/*
 * json_util.c - member access and reference-stealing setters that fail
 * cleanly on a NULL value, so view builders can chain them and check once;
 * and the refusals of the games' strict action decoders, worded once for
 * every game. Nothing here keeps state.
 */
#include "json_util.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "game.h"

#define KEY_SHOWN 40 /* bytes of a sent key shown in a refusal */

int game_json_int(const json_t *obj, const char *key, long lo, long hi, long *ret)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v)) {
        return -1;
    }
    json_int_t n = json_integer_value(v);
    if (n < lo || n > hi) {
        return -1;
    }
    *ret = (long)n;
    return 0;
}

const char *game_json_str(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

int game_json_set(json_t *obj, const char *key, json_t *value)
{
    if (!value) {
        return -1;
    }
    return json_object_set_new(obj, key, value);
}

int game_json_push(json_t *arr, json_t *value)
{
    if (!value) {
        return -1;
    }
    return json_array_append_new(arr, value);
}

/* ---- Strict action objects ---- */

/* Copies `key` into `out` (KEY_SHOWN + 4 bytes) for a refusal: cut at a
 * UTF-8 character boundary, "..." when cut, and every byte that could break
 * the sentence or the line (controls, quote, backslash, DEL) as '?'. */
static void key_shown(const char *key, char *out)
{
    size_t n = 0;
    const unsigned char *k = (const unsigned char *)key;

    while (k[n] && n < KEY_SHOWN) {
        n++;
    }
    if (k[n]) {
        while (n > 0 && (k[n] & 0xC0) == 0x80) {
            n--; /* k[n] continues a character: cut before that character */
        }
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = k[i];
        out[i] = (char)(c < 0x20 || c == 0x7F || c == '"' || c == '\\' ? '?' : c);
    }
    strcpy(out + n, k[n] ? "..." : "");
}

static const char *article(const char *word)
{
    return word[0] && strchr("aeiou", word[0]) ? "an" : "a";
}

int game_json_only_keys(const json_t *obj, const char *const *keys, const char *rule,
                        const char *type, struct game_error *err)
{
    const char *key;
    json_t *v;

    json_object_foreach((json_t *)obj, key, v) {
        size_t i = 0;
        while (keys[i] && strcmp(key, keys[i]) != 0) {
            i++;
        }
        if (!keys[i]) {
            char shown[KEY_SHOWN + 4];
            key_shown(key, shown);
            return game_error_set(err, GAME_E_BAD_ACTION,
                                  "%s%sunknown field \"%s\" in %s %s action", rule ? rule : "",
                                  rule ? ": " : "", shown, article(type), type);
        }
        (void)v;
    }
    return GAME_OK;
}

int game_json_bad_field(struct game_error *err, const char *rule, const char *type, const char *key,
                        const char *must)
{
    char shown[KEY_SHOWN + 4];

    key_shown(key, shown);
    return game_error_set(err, GAME_E_BAD_ACTION, "%s%sfield \"%s\" of %s %s action must be %s",
                          rule ? rule : "", rule ? ": " : "", shown, article(type), type, must);
}

/* One conversion of those a log message carries (%s, %d, %u, %ld, %lu) at
 * `spec` (just past its '%'): its text in *arg and *n (digits written into
 * num), and the length of the specifier; 0 for any other conversion, whose
 * argument is left unread. */
static size_t conv_arg(const char *spec, va_list *ap, char num[GAME_DIGITS_MAX], const char **arg,
                       size_t *n)
{
    bool is_long = spec[0] == 'l';

    switch (spec[is_long]) {
    case 's':
        *arg = va_arg(*ap, const char *);
        *n = strlen(*arg);
        break;
    case 'd': {
        long long v = is_long ? va_arg(*ap, long) : va_arg(*ap, int);
        *arg = game_digits_signed(num, v, n);
        break;
    }
    case 'u':
        *arg = game_digits(num, is_long ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned), false,
                           n);
        break;
    default:
        return 0;
    }
    return 1 + (size_t)is_long;
}

/* The line `fmt` makes, written as far as it fits into line[len] (zeroed
 * already) when every conversion is one conv_arg() takes; the length the
 * whole line has, or -1 (nothing written) for any other conversion. */
static long line_plain(char *line, size_t len, const char *fmt, va_list ap0)
{
    size_t at = 0, total = 0;
    va_list ap;

    va_copy(ap, ap0);
    for (const char *p = fmt; *p;) {
        char num[GAME_DIGITS_MAX];
        const char *arg = p;
        size_t n, k;
        if (*p != '%') {
            n = strcspn(p, "%");
            p += n;
        } else if (p[1] == '%') {
            n = 1;
            p += 2;
        } else if ((k = conv_arg(p + 1, &ap, num, &arg, &n)) != 0) {
            p += 1 + k;
        } else {
            va_end(ap);
            memset(line, 0, at);
            return -1;
        }
        if (at + 1 < len) {
            size_t c = n < len - 1 - at ? n : len - 1 - at;
            memcpy(line + at, arg, c);
            at += c;
        }
        total += n;
    }
    va_end(ap);
    return total > LONG_MAX ? LONG_MAX : (long)total;
}

void game_format_line(char *line, size_t len, const char *fmt, va_list ap)
{
    long n;

    if (len == 0) {
        return;
    }
    memset(line, 0, len);
    /* The conversions a message carries are written here; vsnprintf()
     * takes any other. */
    n = line_plain(line, len, fmt, ap);
    if (n < 0) {
        n = vsnprintf(line, len, fmt, ap);
    }
    if (n >= 0 && (size_t)n >= len) {
        /* Cut: drop a UTF-8 sequence left without its end. */
        size_t end = strlen(line);
        size_t k = end;
        while (k > 0 && ((unsigned char)line[k - 1] & 0xC0) == 0x80) {
            k--;
        }
        if (k > 0 && ((unsigned char)line[k - 1] & 0x80)) {
            unsigned char lead = (unsigned char)line[k - 1];
            size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
            if (end - (k - 1) < need) {
                line[k - 1] = '\0';
            }
        }
    }
}

/* Appends `n` bytes of `s` to the message at *at; false when they do not
 * fit with the terminating NUL. */
static bool msg_put(char *msg, size_t mlen, size_t *at, const char *s, size_t n)
{
    if (n >= mlen - *at) {
        return false;
    }
    memcpy(msg + *at, s, n);
    *at += n;
    return true;
}

/* Writes key and the arguments of `fmt` into msg (zeroed); false
 * when one does not fit or a conversion is not one game_format_msg()
 * takes. */
static bool msg_args(char *msg, size_t mlen, const char *key, const char *fmt, va_list *ap)
{
    const char sep = GAME_MSG_SEP;
    size_t at = 0;

    if (!msg_put(msg, mlen, &at, key, strlen(key))) {
        return false;
    }
    for (const char *p = strchr(fmt, '%'); p; p = strchr(p, '%')) {
        char num[GAME_DIGITS_MAX];
        const char *arg;
        size_t n, k;
        if (p[1] == '%') {
            p += 2;
            continue;
        }
        k = conv_arg(p + 1, ap, num, &arg, &n);
        if (k == 0 || !msg_put(msg, mlen, &at, &sep, 1) || !msg_put(msg, mlen, &at, arg, n)) {
            return false;
        }
        p += 1 + k;
    }
    return true;
}

void game_format_msg(char *line, size_t len, char *msg, size_t mlen, const char *key,
                     const char *fmt, va_list ap)
{
    va_list again;

    va_copy(again, ap);
    game_format_line(line, len, fmt, ap);
    memset(msg, 0, mlen);
    if (mlen == 0 || !msg_args(msg, mlen, key, fmt, &again)) {
        memset(msg, 0, mlen);
    }
    va_end(again);
}

void game_text_msg(struct game_text *out, const char *msg)
{
    game_text_arr(out);
    for (const char *p = msg; *p;) {
        const char *end = strchr(p, GAME_MSG_SEP);
        size_t n = end ? (size_t)(end - p) : strlen(p);
        game_text_strn(out, p, n);
        p += n + (end ? 1 : 0);
        if (end && !*p) {
            game_text_strn(out, "", 0);
        }
    }
    game_text_end_arr(out);
}
