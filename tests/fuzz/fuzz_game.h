/* SPDX-License-Identifier: MIT */
/*
 * fuzz_game.h - the driver shared by the per-game fuzz targets: it turns an
 * input into a game of one registered rules core, a position reached by
 * legal moves, and one action (decoded from the rest of the input) tried
 * for every seat, checking the game.h contract on the way. It only uses the
 * public game.h interface and the game's fuzz_options hook (game_tests.h).
 */
#ifndef CONCLAVE_FUZZ_GAME_H
#define CONCLAVE_FUZZ_GAME_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "game.h"

/*
 * Runs one input against the game with wire id `id`. Layout:
 *   byte 0      options selector, handed to the game's fuzz_options hook
 *   byte 1      seat count selector (the first count the game accepts,
 *               starting from min + byte % (max - min + 1))
 *   bytes 2-9   seed, spread over the 32 seed bytes
 *   bytes 10-11 number of moves M (little endian, modulo 1025)
 *   M bytes     one per move: which of the legal actions of all active
 *               seats (in seat order, then in `legal` order) is applied
 *   the rest    JSON (any value), applied as an action for every seat
 * Aborts when the contract is broken. When the environment variable
 * FUZZ_GAME_PRINT_LEGAL is set, prints the legal actions of the reached
 * position on stdout, one {"seat": n, "action": ...} per line.
 */
int fuzz_game_run(const char *id, const uint8_t *data, size_t size);

#endif
