/* SPDX-License-Identifier: MIT */
/*
 * combos.h - the option sets a generic suite plays a game with, from the
 * game's options schema.
 */
#ifndef CONCLAVE_COMBOS_H
#define CONCLAVE_COMBOS_H

#include <stdbool.h>

#include <jansson.h>

/* New reference: an array of option objects, every combination of the enum
 * options' values (the schema's "values"). With `leave_out`, each option
 * may also be absent, so that options that exclude each other (one that
 * only a value of another may go with) are all played. */
json_t *option_combos(const json_t *schema, bool leave_out);

#endif
