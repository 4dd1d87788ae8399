// SPDX-License-Identifier: MIT
// Helpers for the lane tests: every lane type of the build run on the same inputs, and exact
// comparisons (bits, so -0 and +0 or two NaNs differ).
#pragma once

#include "core/wide_float.h"
#include "test_util.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace mk::test {

/// Calls check.template operator()<F>() for every lane type this machine can run: the scalar twin
/// at 4 and 8 lanes and, on x86-64, SSE2 (whatever MK_DISABLE_SIMD says: the twin comparison needs
/// both in one build); AVX2 too in mk_avx2_lane_tests, the one test program compiled with -mavx2
/// (MK_TEST_AVX2_LANES, tests/core/CMakeLists.txt).
template <class Check>
void ForEachLaneType(Check&& check) {
  check.template operator()<wide::ScalarFloat<4>>();
  check.template operator()<wide::ScalarFloat<8>>();
#if defined(__SSE2__)
  check.template operator()<wide::Sse2Float4>();
#endif
#if defined(MK_TEST_AVX2_LANES)
  check.template operator()<wide::Avx2Float8>();
#endif
}

/// The 4-lane types: the twin first, then SSE2 where there is SSE2.
template <class Check>
void ForEachFourLaneType(Check&& check) {
  check.template operator()<wide::ScalarFloat<4>>();
#if defined(__SSE2__)
  check.template operator()<wide::Sse2Float4>();
#endif
}

template <class F>
const char* LaneTypeName() {
#if defined(__SSE2__)
  if constexpr (std::is_same_v<F, wide::Sse2Float4>) return "Sse2Float4";
#endif
#if defined(MK_TEST_AVX2_LANES)
  if constexpr (std::is_same_v<F, wide::Avx2Float8>) return "Avx2Float8";
#endif
  return F::kLanes == 4 ? "ScalarFloat<4>" : "ScalarFloat<8>";
}

template <class F>
std::array<float, F::kLanes> ToArray(F x) {
  std::array<float, F::kLanes> out;
  Store(out.data(), x);
  return out;
}

inline bool SameBits(float a, float b) {
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}
inline bool SameBits(Vec2 a, Vec2 b) { return SameBits(a.x, b.x) && SameBits(a.y, b.y); }

/// A float for lane tests: mostly ordinary values, often the edge cases a reduction or a compare
/// must get right: -0 and +0, a value repeated from `pool` (ties), huge, tiny and subnormal values,
/// and, with `nan`, NaN and infinities.
inline float EdgeFloat(Rng& rng, const float* pool, int poolSize, bool nan = false) {
  switch (rng.Int(0, nan ? 11 : 9)) {
    case 0:
      return 0.0f;
    case 1:
      return -0.0f;
    case 2:
      return poolSize > 0 ? pool[rng.Int(0, poolSize - 1)] : 1.0f;
    case 3:
      return poolSize > 0 ? -pool[rng.Int(0, poolSize - 1)] : -1.0f;
    case 4:
      return rng.Uniform(-1.0f, 1.0f) * 1e30f;
    case 5:
      return rng.Uniform(-1.0f, 1.0f) * 1e-30f;
    case 6:
      return rng.Uniform(-1.0f, 1.0f) * 1e-40f;  // subnormal
    case 7:
      return static_cast<float>(rng.Int(-3, 3));
    case 10:
      return std::nanf("");
    case 11:
      return rng.Int(0, 1) == 0 ? INFINITY : -INFINITY;
    default:
      return rng.Uniform(-10.0f, 10.0f);
  }
}

}  // namespace mk::test
