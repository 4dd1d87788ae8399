// SPDX-License-Identifier: MIT
// Shared test helpers: a fixed-seed RNG and approximate comparisons.
#pragma once

#include "minkowski/math.h"

#include <cmath>
#include <cstdint>

namespace mk::test {

/// Small, fast, fixed-seed generator (SplitMix64), identical on every platform, so property tests
/// see the same cases everywhere.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, 1).
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  /// Uniform float in [lo, hi).
  float Uniform(float lo, float hi) { return lo + static_cast<float>(Unit()) * (hi - lo); }

  /// Uniform integer in [lo, hi].
  int Int(int lo, int hi) { return lo + static_cast<int>(Next() % static_cast<std::uint64_t>(hi - lo + 1)); }

  /// Log-uniform in [lo, hi] (lo > 0): every order of magnitude equally likely.
  float LogUniform(float lo, float hi) {
    return static_cast<float>(lo * std::pow(static_cast<double>(hi) / lo, Unit()));
  }

  Vec2 InBox(float halfExtent) {
    return {Uniform(-halfExtent, halfExtent), Uniform(-halfExtent, halfExtent)};
  }

  /// Uniform direction on the unit circle.
  Vec2 Direction() {
    double a = 6.283185307179586 * Unit();
    return {static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))};
  }

 private:
  std::uint64_t state_;
};

inline bool Near(float a, float b, float tolerance) { return std::fabs(a - b) <= tolerance; }
inline bool Near(Vec2 a, Vec2 b, float tolerance) { return Distance(a, b) <= tolerance; }

}  // namespace mk::test
