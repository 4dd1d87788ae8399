// SPDX-License-Identifier: MIT
#include "game.h"

#ifndef GAME_NAME
#define GAME_NAME "game"
#endif

int main() { return RunGame(GAME_NAME); }
