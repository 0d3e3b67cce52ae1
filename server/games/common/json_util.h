/* SPDX-License-Identifier: MIT */
/*
 * json_util.h - small helpers shared by the games' codecs and views.
 */
#ifndef CONCLAVE_GAME_JSON_UTIL_H
#define CONCLAVE_GAME_JSON_UTIL_H

#include <jansson.h>

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

#endif
