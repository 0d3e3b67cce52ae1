/* SPDX-License-Identifier: MIT */
/*
 * fuzz_game_target.c - the fuzz target of one registered game, named at
 * build time by FUZZ_GAME_ID (meson builds one target per game of the
 * registry): the game's own fuzz_options hook picks its options, then the
 * shared driver (fuzz_game.c) plays and checks the game.
 */
#include "fuzz_game.h"

#ifndef FUZZ_GAME_ID
#error "FUZZ_GAME_ID names the game this target fuzzes"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_game_run(FUZZ_GAME_ID, data, size);
}
