/* SPDX-License-Identifier: MIT */
/*
 * game_tests.h - the hooks a game folder declares for the shared test
 * suites (secrecy, allocation failure, fuzzing, random playouts), so that
 * each suite iterates over the registry and knows no game by name. Pure
 * code like the rest of a rules core; only test programs call it.
 */
#ifndef CONCLAVE_GAME_TESTS_H
#define CONCLAVE_GAME_TESTS_H

#include "game.h"

struct game_tests {
    int reserved; /* filled in by the test-hook work */
};

#endif
