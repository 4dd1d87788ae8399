// SPDX-License-Identifier: MIT
// Internal: the neighbouring floats of a float, inline (std::nextafter is a call into libm, and the
// broadphase rounds a bound outwards for every key it scans).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace mk {

/// The smallest float greater than x: std::nextafter(x, +infinity) for every x (NaN gives NaN,
/// +infinity gives +infinity, +-0 give the smallest positive subnormal).
inline float NextUp(float x) {
  if (std::isnan(x) || x == std::numeric_limits<float>::infinity()) return x;
  if (x == 0.0f) return std::numeric_limits<float>::denorm_min();
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
  // IEEE floats of one sign are ordered like their bit patterns: up is +1 ulp for a positive x and
  // -1 ulp of magnitude for a negative one.
  return std::bit_cast<float>(x > 0.0f ? bits + 1u : bits - 1u);
}

/// The largest float less than x: std::nextafter(x, -infinity).
inline float NextDown(float x) { return -NextUp(-x); }

}  // namespace mk
