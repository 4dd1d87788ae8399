// SPDX-License-Identifier: MIT
// Minkowski — MK_API, the mark on the public headers' namespace blocks.
//
// The engine is compiled with hidden visibility. Built as a shared library (BUILD_SHARED_LIBS=ON, which
// defines MK_SHARED for the library and for everything that links it), it exports what the public
// headers declare, inside `namespace MK_API mk { ... }`, and none of its internals: the attribute on a
// namespace block gives every declaration in it (classes with their members, functions, variables)
// default visibility, so no declaration needs a mark of its own. Built static (the default), MK_API is
// empty and every engine symbol stays hidden, so a game's shared library or plugin that links the
// static library exports nothing of Minkowski's. ELF and Mach-O platforms only: PE (Windows) has no
// visibility, and a Windows DLL is not supported yet (the configure step says so).
#pragma once

#if defined(MK_SHARED) && (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define MK_API __attribute__((visibility("default")))
#define MK_HIDDEN __attribute__((visibility("hidden")))
#else
#define MK_API
#define MK_HIDDEN
#endif

/// \def MK_API
/// Default (exported) visibility for the public API's namespace blocks in a shared Minkowski; empty in
/// the static library (everything is hidden there) and where the platform has no symbol visibility.

/// \def MK_HIDDEN
/// Hidden visibility for the engine's own types that a public class declares (a pimpl), so their
/// members stay out of a shared Minkowski's exports; empty where MK_API is.
