/* SPDX-License-Identifier: MIT */
/*
 * fuzz_game_target.c - the fuzz target of one registered game, named at
 * build time by FUZZ_GAME_ID (meson builds one target per game of the
 * registry): the shared driver (fuzz_game.c) fills its table of positions
 * before the first input, where libFuzzer's per-input timeout does not
 * count it, then plays and checks the game from them.
 */
#include "fuzz_game.h"

#ifndef FUZZ_GAME_ID
#error "FUZZ_GAME_ID names the game this target fuzzes"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_game_prepare(FUZZ_GAME_ID);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_game_run(FUZZ_GAME_ID, data, size);
}
