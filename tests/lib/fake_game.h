/* SPDX-License-Identifier: MIT */
/*
 * fake_game.h - a tiny test-only game for the lobby's unit tests. It is
 * linked only into test programs and never registered in the server.
 *
 * "Race to 10": seats take turns adding 1 or 2 to a shared total; whoever
 * brings it to 10 or more wins; with the option "run" (1 to 10) a turn is
 * that many adds by the same seat. Each seat draws a secret number at setup
 * (shown only under its own "you"), so the tests can check that private
 * data never reaches another seat.
 */
#ifndef CONCLAVE_FAKE_GAME_H
#define CONCLAVE_FAKE_GAME_H

#include "game.h"

extern const struct game_ops fake_game;

#endif
