/* SPDX-License-Identifier: MIT */
/*
 * fuzz_game.h - the driver shared by the per-game fuzz targets: it turns an
 * input into a position of one registered rules core, taken from a table
 * the driver fills at first use by seeded random play, and a short
 * sequence of actions from there (listed ones, listed ones for another
 * seat, altered ones, and one decoded from the rest of the input), checking
 * the game.h contract on the way. It only uses the public game.h interface
 * and the game's fuzz_options hook (game_tests.h).
 */
#ifndef CONCLAVE_FUZZ_GAME_H
#define CONCLAVE_FUZZ_GAME_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "game.h"

/*
 * Runs one input against the game with wire id `id`. Layout:
 *   bytes 0-1   position: index (little endian, modulo the table's size)
 *               into the table of positions reached by play
 *   byte 2      number of steps S (modulo FUZZ_GAME_MAX_STEPS + 1)
 *   S x 5 bytes one step each, [kind, i0, i1, x, y]; i = i0 | i1 << 8
 *               picks one of the legal actions of all active seats (in
 *               seat order, then in `legal` order), modulo their number:
 *                 kind % 4 = 0, 1  apply action i; it must be accepted
 *                 kind % 4 = 2     apply action i as seat x % seats
 *                 kind % 4 = 3     apply action i altered: the mutation
 *                                  kind / 4 at its value number x, with
 *                                  y choosing among the values of the
 *                                  position's legal actions
 *   the rest    JSON (any value), applied as an action for every seat
 * Steps are skipped once the game is over. Aborts when the contract is
 * broken. The table depends only on the game's code, so an input always
 * means the same game. When the environment variable FUZZ_GAME_PRINT_LEGAL
 * is set, prints on stdout, for the position the steps reach, one line
 * {"position": p, "positions": n, "seats": s} and then its legal actions,
 * one {"seat": n, "action": ...} per line, in the order i indexes them.
 */
#define FUZZ_GAME_MAX_STEPS 8
int fuzz_game_run(const char *id, const uint8_t *data, size_t size);

/* Fills the table of positions of the game with wire id `id` now rather
 * than at the first input (seconds under the sanitizers). Aborts when the
 * game is unknown or its table cannot be filled. */
void fuzz_game_prepare(const char *id);

#endif
