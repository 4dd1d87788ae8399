// SPDX-License-Identifier: MIT
// The plugin's one entry point; the engine is inside this shared library.
#include "game.h"

extern "C" __attribute__((visibility("default"))) int GamePluginRun() { return RunGame("plugin"); }
