// SPDX-License-Identifier: MIT
// QuietAsserts: counts the engine's MK_ASSERT failures in a scope instead of reporting them, for tests
// of refused input. Public API only (minkowski/assert.h), so every test program may use it.
#pragma once

#include "minkowski/assert.h"

namespace mk::test {

/// Installs an assert handler that only counts (restored on destruction).
class QuietAsserts {
 public:
  QuietAsserts()
      : previous_(SetAssertHandler([](const char*, const char*, int) {})), start_(AssertFailureCount()) {}
  ~QuietAsserts() { SetAssertHandler(previous_); }
  QuietAsserts(const QuietAsserts&) = delete;
  QuietAsserts& operator=(const QuietAsserts&) = delete;
  int Count() const { return AssertFailureCount() - start_; }

 private:
  AssertHandler previous_;
  int start_;
};

}  // namespace mk::test
