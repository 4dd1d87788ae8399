// SPDX-License-Identifier: MIT
#include "minkowski/version.h"

namespace mk {

// Compiled into the library, so it reports the headers the library was built from, not the game's.
Version GetVersion() { return {MK_VERSION_MAJOR, MK_VERSION_MINOR, MK_VERSION_PATCH}; }

}  // namespace mk
