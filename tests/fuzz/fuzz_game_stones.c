/* SPDX-License-Identifier: MIT */
/*
 * fuzz_game_stones.c - fuzz target for the Sorcerer & Stones rules core
 * through game.h: the options selector picks the variant (standard, novice,
 * cooperative) and the number of colours (absent or 1 to 4), then the
 * shared driver (fuzz_game.c) plays and checks the game.
 */
#include "fuzz_game.h"

static json_t *stones_options(uint8_t selector)
{
    static const char *const variants[] = {"standard", "novice", "cooperative"};
    json_t *opts = json_pack("{ss}", "variant", variants[selector % 3]);
    int colours = (selector / 3) % 5;
    if (opts != NULL && colours > 0) {
        (void)json_object_set_new(opts, "colours", json_integer(colours));
    }
    return opts;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_game_run("stones", stones_options, data, size);
}
