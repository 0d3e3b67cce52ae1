/* SPDX-License-Identifier: MIT */
/*
 * json_util.c - member access and reference-stealing setters that fail
 * cleanly on a NULL value, so view builders can chain them and check once;
 * and the refusals of the games' strict action decoders, worded once for
 * every game. Nothing here keeps state.
 */
#include "json_util.h"

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

void game_format_line(char *line, size_t len, const char *fmt, va_list ap)
{
    int n;

    memset(line, 0, len);
    n = vsnprintf(line, len, fmt, ap);
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

/* The arguments of `fmt` after the key, each as the line shows it. false
 * when one does not fit or a conversion is not one game_format_msg()
 * takes. */
static bool msg_args(char *msg, size_t mlen, const char *key, const char *fmt, va_list ap)
{
    const char sep = GAME_MSG_SEP;
    size_t at = 0;

    if (!msg_put(msg, mlen, &at, key, strlen(key))) {
        return false;
    }
    for (const char *p = strchr(fmt, '%'); p; p = strchr(p, '%')) {
        char num[24];
        const char *arg = num;
        bool is_long = p[1] == 'l';
        char conv = p[1 + is_long];
        int n;
        if (is_long && conv != 'd' && conv != 'u') {
            return false;
        }
        switch (conv) {
        case '%':
            p += 2;
            continue;
        case 's':
            arg = va_arg(ap, const char *);
            n = (int)strlen(arg);
            break;
        case 'd':
            n = is_long ? snprintf(num, sizeof(num), "%ld", va_arg(ap, long))
                        : snprintf(num, sizeof(num), "%d", va_arg(ap, int));
            break;
        case 'u':
            n = is_long ? snprintf(num, sizeof(num), "%lu", va_arg(ap, unsigned long))
                        : snprintf(num, sizeof(num), "%u", va_arg(ap, unsigned));
            break;
        default:
            return false;
        }
        if (!msg_put(msg, mlen, &at, &sep, 1) || !msg_put(msg, mlen, &at, arg, (size_t)n)) {
            return false;
        }
        p += 2 + is_long;
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
    if (mlen == 0 || !msg_args(msg, mlen, key, fmt, again)) {
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
