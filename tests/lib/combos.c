/* SPDX-License-Identifier: MIT */
/*
 * combos.c - the option sets a generic suite plays a game with.
 */
#include "combos.h"

json_t *option_combos(const json_t *schema, bool leave_out)
{
    json_t *combos = json_array();
    const char *key;
    json_t *desc;

    json_array_append_new(combos, json_object());
    json_object_foreach((json_t *)schema, key, desc) {
        json_t *values = json_object_get(desc, "values");
        if (!json_is_array(values) || json_array_size(values) == 0) {
            continue;
        }
        json_t *next = json_array();
        size_t i, k;
        json_t *c, *val;
        json_array_foreach(combos, i, c) {
            if (leave_out) {
                json_array_append(next, c);
            }
            json_array_foreach(values, k, val) {
                json_t *o = json_deep_copy(c);
                json_object_set(o, key, val);
                json_array_append_new(next, o);
            }
        }
        json_decref(combos);
        combos = next;
    }
    return combos;
}
