// SPDX-License-Identifier: MIT
// What every test game does with the engine, whichever way it got it (add_subdirectory, FetchContent,
// an install prefix, from inside a shared plugin).
#pragma once

/// Checks the library's version against the headers', drops a box onto the ground and checks its fall
/// and its rest against closed forms. Prints what it measured and "<name> ok" or "<name> FAILED";
/// returns 0 when every check holds.
int RunGame(const char* name);
