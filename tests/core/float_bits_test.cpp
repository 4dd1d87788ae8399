// SPDX-License-Identifier: MIT
// NextUp / NextDown against the C library's std::nextafter, bit for bit.
#include "core/float_bits.h"

#include "test_util.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

using namespace mk;

namespace {

// Equal bit patterns, except that any NaN equals any NaN (payloads are not specified).
bool SameFloat(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

}  // namespace

TEST_SUITE("core.float_bits") {

TEST_CASE("NextUp and NextDown equal std::nextafter on special values") {
  using L = std::numeric_limits<float>;
  const float specials[] = {0.0f,          -0.0f,          L::denorm_min(), -L::denorm_min(), L::min(),
                            -L::min(),     1.0f,           -1.0f,           L::max(),         -L::max(),
                            L::infinity(), -L::infinity(), L::quiet_NaN(),  1e-30f,           -3.5e12f};
  for (float x : specials) {
    CAPTURE(x);
    CHECK(SameFloat(NextUp(x), std::nextafter(x, L::infinity())));
    CHECK(SameFloat(NextDown(x), std::nextafter(x, -L::infinity())));
  }
}

TEST_CASE("NextUp and NextDown equal std::nextafter on a million random bit patterns") {
  test::Rng rng(20261126);
  int mismatches = 0;
  for (int i = 0; i < 1000000; ++i) {
    const float x = std::bit_cast<float>(static_cast<std::uint32_t>(rng.Next()));
    mismatches += SameFloat(NextUp(x), std::nextafter(x, std::numeric_limits<float>::infinity())) ? 0 : 1;
    mismatches += SameFloat(NextDown(x), std::nextafter(x, -std::numeric_limits<float>::infinity())) ? 0 : 1;
  }
  CHECK(mismatches == 0);
}

}  // TEST_SUITE("core.float_bits")
