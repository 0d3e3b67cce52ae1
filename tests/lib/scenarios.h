/* SPDX-License-Identifier: MIT */
/*
 * scenarios.h - the loader of the data-driven rules scenarios: every
 * `*.json` file of a folder (each an array of scenarios), in file name
 * order, as one array.
 */
#ifndef CONCLAVE_TEST_SCENARIOS_H
#define CONCLAVE_TEST_SCENARIOS_H

#include <jansson.h>

/* The scenarios of every `*.json` file in `dir`, in byte order of the file
 * names, concatenated into one new array. A folder that cannot be read or
 * a file that is not a JSON array ends the program with a message naming
 * the file (and the line of a parse error). */
json_t *scenarios_load(const char *dir);

#endif
