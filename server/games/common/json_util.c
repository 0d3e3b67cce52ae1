/* SPDX-License-Identifier: MIT */
/*
 * json_util.c - member access and reference-stealing setters that fail
 * cleanly on a NULL value, so view builders can chain them and check once.
 */
#include "json_util.h"

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
