// SPDX-License-Identifier: MIT
// Minkowski — the engine's version (semantic versioning: README, "Versioning"; CHANGELOG.md).
//
// The macros give the version of the headers a file was compiled with; GetVersion() gives the version
// of the library that was linked. A game that wants to catch a stale library at start-up compares
// the two. The top CMakeLists.txt refuses to configure when these macros and its project(VERSION)
// disagree, so the installed CMake package (find_package(minkowski 0.1)) says the same.
#pragma once

#include "minkowski/export.h"

/// The version of these headers: major, minor and patch, integer literals (kHeaderVersion).
///@{
#define MK_VERSION_MAJOR 0
#define MK_VERSION_MINOR 1
#define MK_VERSION_PATCH 0
///@}

namespace MK_API mk {

/// A semantic version: major.minor.patch.
struct Version {
  int major = 0;  ///< incompatible API changes
  int minor = 0;  ///< additions that keep the API compatible
  int patch = 0;  ///< fixes
  /// Equal when all three numbers are.
  friend bool operator==(const Version& a, const Version& b) {
    return a.major == b.major && a.minor == b.minor && a.patch == b.patch;
  }
  friend bool operator!=(const Version& a, const Version& b) { return !(a == b); }  ///< not ==
};

/// The version these headers belong to.
inline constexpr Version kHeaderVersion{MK_VERSION_MAJOR, MK_VERSION_MINOR, MK_VERSION_PATCH};

/// The version of the compiled library (its MK_VERSION_* when it was built).
Version GetVersion();

}  // namespace mk
