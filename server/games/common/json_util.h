/* SPDX-License-Identifier: MIT */
/*
 * json_util.h - small helpers shared by the games' codecs and views, and
 * the refusals of a strict action decoder: an action object holds only the
 * fields its type defines, each of its JSON type, and anything else is
 * refused with GAME_E_BAD_ACTION and a sentence naming the field.
 */
#ifndef CONCLAVE_GAME_JSON_UTIL_H
#define CONCLAVE_GAME_JSON_UTIL_H

#include <stdarg.h>
#include <stddef.h>

#include <jansson.h>

struct game_error;
struct game_text;

/* Reads integer member `key` of `obj` into *ret; 0 on success, -1 when the
 * member is missing or not an integer in [lo, hi]. */
int game_json_int(const json_t *obj, const char *key, long lo, long hi, long *ret);

/* Borrowed string member `key` of `obj`, or NULL when missing or not a string. */
const char *game_json_str(const json_t *obj, const char *key);

/* Sets `key` of `obj` to `value`, stealing the reference; returns -1 when
 * value is NULL (a failed allocation upstream) or the set fails. */
int game_json_set(json_t *obj, const char *key, json_t *value);

/* Appends `value` to `arr`, stealing the reference; -1 on failure. */
int game_json_push(json_t *arr, json_t *value);

/* Writes a printf-style line into `line` (`len` bytes, zeroed first), cut
 * when too long at a character boundary, so that a log line never ends in
 * half a UTF-8 sequence (a name cut in the middle). */
void game_format_line(char *line, size_t len, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* The separator of a log message's key and arguments (views never hold
 * control characters, so no argument contains it). */
#define GAME_MSG_SEP '\x1f'

/* Writes a log line as game_format_line() does, and beside it in `msg`
 * (`mlen` bytes, zeroed first) the line's message, for clients that write
 * the log in their reader's language: `key`, then each argument of `fmt`
 * as the line shows it, each after GAME_MSG_SEP. `fmt` may use %s, %d,
 * %u, %ld, %lu and %%, with no flags, width or precision. A message that
 * does not fit, or a format beyond those, leaves `msg` empty: the line
 * then has no message and clients show it as it is. */
void game_format_msg(char *line, size_t len, char *msg, size_t mlen, const char *key,
                     const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

/* Writes a message kept by game_format_msg() as the JSON array
 * [key, arg, ...], or [] for an empty one. */
void game_text_msg(struct game_text *out, const char *msg);

/* ---- Strict action objects ----
 * `rule` is the section the game cites for malformed actions (e.g.
 * "R-sorcerers-10"; NULL: none) and `type` the action's type name, so that
 * every game words these refusals the same way. */

/* GAME_OK when every member of the object `obj` is named in `keys` (NULL-
 * terminated; a top-level action lists "type" there too). Otherwise sets
 * `err` to GAME_E_BAD_ACTION, 'unknown field "<key>" in a <type> action',
 * naming the first other member, and returns GAME_E_BAD_ACTION. The key is
 * shown cut to a few dozen bytes at a character boundary, with control
 * characters, quotes and backslashes as '?'. */
int game_json_only_keys(const json_t *obj, const char *const *keys, const char *rule,
                        const char *type, struct game_error *err);

/* Sets `err` to GAME_E_BAD_ACTION, 'field "<key>" of a <type> action must
 * be <must>', for a field that is missing, of the wrong JSON type or of an
 * unknown value; returns GAME_E_BAD_ACTION. */
int game_json_bad_field(struct game_error *err, const char *rule, const char *type, const char *key,
                        const char *must);

#endif
