// SPDX-License-Identifier: MIT
// Command-line helpers the benchmark programs share.
#pragma once

#include <cstdlib>

namespace mk::bench {

/// Parses a whole decimal integer within [lo, hi] into `out`; false (out unchanged) otherwise.
inline bool ParseInt(const char* text, int& out, long lo = 1, long hi = 1000000) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < lo || value > hi) return false;
  out = static_cast<int>(value);
  return true;
}

}  // namespace mk::bench
