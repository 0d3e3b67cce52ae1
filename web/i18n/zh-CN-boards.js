// SPDX-License-Identifier: MIT
// The words the four boards share (web/games/keys.js) in Simplified
// Chinese: each English phrase and its translation (our own). keys.js adds
// them to the page's phrases when it loads.

export const zhCNBoards = {
  ', a move can be chosen': '，有可选的行动',
};
