// SPDX-License-Identifier: MIT
// Minkowski — hookable assertions for programmer errors.
//
// MK_ASSERT checks a condition that only a bug in the caller (or in the engine) can break: a stale
// id, NaN passed where a finite value is required, an index out of range. It is active in every
// build type because such checks sit at the API edge and cost little. When it fails it calls the
// installed handler; the default handler prints the expression and location to stderr and returns,
// and the engine then takes its documented error path (an error value, an ignored call), so a
// release game keeps running. Tests and debug builds install a handler that records or aborts.
#pragma once

#include "minkowski/export.h"

namespace MK_API mk {

/// Called when an MK_ASSERT fails. `expression` and `file` are string literals; return to continue.
using AssertHandler = void (*)(const char* expression, const char* file, int line);

/// Install a handler (nullptr restores the default). Returns the previous handler. Not thread-safe:
/// set it once at start-up.
AssertHandler SetAssertHandler(AssertHandler handler);

/// Number of failed assertions since start-up (handy in tests and for a game's telemetry).
int AssertFailureCount();

namespace detail {
/// What a failed MK_ASSERT calls: counts the failure and runs the installed handler. Internal.
void ReportAssert(const char* expression, const char* file, int line);
}  // namespace detail

}  // namespace mk

/// Checks a programmer-error condition; see the file comment for what happens when it fails.
#define MK_ASSERT(condition)                                                      \
  do {                                                                            \
    if (!(condition)) ::mk::detail::ReportAssert(#condition, __FILE__, __LINE__); \
  } while (false)
