/* SPDX-License-Identifier: MIT */
/*
 * fuzz_game_sorcerers.c - fuzz target for the Sorcerers rules core through
 * game.h: the options selector picks merlinian_seat ("random", 0 or 1) and
 * max_turns (absent, or a small limit so that the end of the game is
 * reached), then the shared driver (fuzz_game.c) plays and checks the game.
 */
#include "fuzz_game.h"

static json_t *sorcerers_options(uint8_t selector)
{
    static const int max_turns[] = {-1, 0, 1, 2, 5, 100};
    json_t *opts = json_object();
    if (opts == NULL) {
        return NULL;
    }
    int m = selector % 3;
    (void)json_object_set_new(opts, "merlinian_seat",
                              m == 0 ? json_string("random") : json_integer(m - 1));
    int t = max_turns[(selector / 3) % 6];
    if (t >= 0) {
        (void)json_object_set_new(opts, "max_turns", json_integer(t));
    }
    return opts;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_game_run("sorcerers", sorcerers_options, data, size);
}
