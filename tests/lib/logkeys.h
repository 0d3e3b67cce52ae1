/* SPDX-License-Identifier: MIT */
/*
 * logkeys.h - a view's log messages against its game's catalogue
 * (lang/<game>.json, lang/README.md), for the games' rules tests and the
 * playouts.
 */
#ifndef CONCLAVE_TESTS_LOGKEYS_H
#define CONCLAVE_TESTS_LOGKEYS_H

#include <jansson.h>

/* The catalogue at `path` (a new reference); NULL, with the reason on
 * stderr, when it cannot be read. */
json_t *log_keys_catalogue(const char *path);

/* Checks that the view `view` has one message in "log_keys" per line of
 * "log", in the same order; that each message's key is in the catalogue's
 * "messages"; that each {i:type} argument is a word the catalogue
 * translates (an entry of terms[type], or for `card` a card's "en"); and
 * that the key's English template filled with the arguments is the line.
 * Fails the running test, naming `where`. Each key met is set in `seen`
 * (an object; NULL: none). Returns the number of messages. */
int log_keys_check(const json_t *catalogue, const json_t *view, const char *where, json_t *seen);

/* Checks that the view's "log_keys" holds each message of `want` (an
 * array of [key, arg, ...]; NULL: none). */
void log_keys_has(const json_t *view, const json_t *want, const char *where);

#endif
