// SPDX-License-Identifier: MIT
// Internal: wide floats, the one place SIMD intrinsics appear. A register of float lanes (and a mask
// of the same width) with the few operations the kernels need, in two implementations of one
// interface:
//   - Sse2Float4: SSE2, the x86-64 baseline (every x86-64 CPU has it; no compiler flag needed);
//   - ScalarFloat<N>: N plain floats. The build uses it when MK_DISABLE_SIMD is defined (CMake
//     option of the same name) or SSE2 is missing (ARM, ...), and every kernel is tested against it.
// Kernels are templates over the lane type F (`template <class F = wide::Float4>`) using only what is
// below, so one build instantiates a kernel on both types and a test compares them bit for bit
// (tests/core/wide_float_test.cpp, tests/narrowphase/lane_kernels_test.cpp).
//
// Same bits on both: every ScalarFloat operation does, lane by lane, the IEEE operation of the SSE2
// instruction. + - * round alike; Min and Max are minps and maxps, (a < b ? a : b) and (a > b ? a : b),
// so a NaN or a tie of -0 and +0 yields the second operand; the reductions follow the same butterfly;
// Select is exact. Our targets build with -ffp-contract=off, so no multiply-add is fused on either side.
//
// Widths. F::kLanes is the lane count; Float4 is this build's 4-lane type. Float8 (Avx2Float8,
// __m256) exists where MK_AVX2_KERNELS is defined (x86-64 builds by GCC or Clang, not MinGW), and its
// operations only in the translation units compiled with -mavx2: the contact and hinge kernels run on
// Float4 or on Float8, chosen at world creation by what the CPU has (core/simd_dispatch.h).
// ScalarFloat<8> is Avx2Float8's twin. The narrowphase kernels stay on Float4 (their shapes have few
// vertices), though those written in terms of kLanes (MinDot, the SAT face groups, TransformVectors,
// ScanSupport) run on ScalarFloat<8> in the tests. An 8-lane type's Low and High halves are its Half
// type, and Combine joins two.
//
// Loads and stores are unaligned and touch exactly kLanes floats (kLanes / 2 Vec2s).
//
// Files: this header (the build's choice of types, the interface every type meets, ArgMax),
// wide_float_scalar.h (ScalarFloat) and wide_float_x86.h (Sse2Float4, Avx2Float8).
#pragma once

#include "minkowski/math.h"

#include <bit>
#include <concepts>
#include <cstring>

// The implementations, one header each: ScalarFloat<N>, then the x86 types.
#include "core/wide_float_scalar.h"
#include "core/wide_float_x86.h"

namespace mk::wide {

static_assert(sizeof(Vec2) == 2 * sizeof(float), "LoadPairs and StorePairs see a Vec2 as two floats");

/// The largest lane of a set of registers and the lowest element index holding it (see ArgMax).
struct LaneMax {
  int index;    ///< -1 when no lane equals the maximum (a NaN maximum)
  float value;  ///< the maximum (lane 0 of the reduction)
};

// ---------------------------------------------------------------------------------------------
// This build's types, and what every implementation shares
// ---------------------------------------------------------------------------------------------

#if defined(__SSE2__) && !defined(MK_DISABLE_SIMD)
using Float4 = Sse2Float4;
#else
using Float4 = ScalarFloat<4>;
#endif
#if defined(MK_AVX2_KERNELS) && defined(__SSE2__) && !defined(MK_DISABLE_SIMD)
/// The 8-lane type of the contact and hinge kernels, run where the CPU has AVX2 (simd_dispatch.h).
/// Its operations are defined only in files compiled for AVX2.
using Float8 = Avx2Float8;
#define MK_HAS_FLOAT8 1
#endif

/// The operations every lane type provides, for the kernels' templates.
template <class F>
concept LaneType = requires(F a, const float* p, const Vec2* q, float* out, Vec2* outPairs) {
  { F::kLanes } -> std::convertible_to<int>;
  { F::Splat(1.0f) } -> std::same_as<F>;
  { F::Zero() } -> std::same_as<F>;
  { F::SplatPair(1.0f, 2.0f) } -> std::same_as<F>;
  { F::Load(p) } -> std::same_as<F>;
  { F::LoadPairs(q) } -> std::same_as<F>;
  { a + a } -> std::same_as<F>;
  { a - a } -> std::same_as<F>;
  { a* a } -> std::same_as<F>;
  { Min(a, a) } -> std::same_as<F>;
  { Max(a, a) } -> std::same_as<F>;
  { a == a } -> std::same_as<typename F::Mask>;
  { a < a } -> std::same_as<typename F::Mask>;
  { a <= a } -> std::same_as<typename F::Mask>;
  { a > a } -> std::same_as<typename F::Mask>;
  { a >= a } -> std::same_as<typename F::Mask>;
  { (a == a) & (a == a) } -> std::same_as<typename F::Mask>;
  { (a == a) | (a == a) } -> std::same_as<typename F::Mask>;
  { Select(a == a, a, a) } -> std::same_as<F>;
  { Bits(a == a) } -> std::same_as<unsigned>;
  { Any(a == a) } -> std::same_as<bool>;
  { All(a == a) } -> std::same_as<bool>;
  { Evens(a, a) } -> std::same_as<F>;
  { Odds(a, a) } -> std::same_as<F>;
  { SwapPairs(a) } -> std::same_as<F>;
  { Neg(a) } -> std::same_as<F>;
  { ReduceMin(a) } -> std::same_as<F>;
  { ReduceMax(a) } -> std::same_as<F>;
  { FirstLane(a) } -> std::same_as<float>;
  Store(out, a);
  StorePairs(outPairs, a);
};
static_assert(LaneType<Float4> && LaneType<ScalarFloat<4>> && LaneType<ScalarFloat<8>>);
#if defined(MK_HAS_FLOAT8) && defined(__AVX2__)
static_assert(LaneType<Float8>);
#endif

/// The largest lane over `groups`, registers holding the elements offsets[g] .. offsets[g] + kLanes
/// of one sequence (they may overlap, holding the same values where they do), and the lowest element
/// index holding it: the answer of a scalar scan that keeps the first of equal values. The maximum
/// is Max over the groups in order, then ReduceMax; each group's lanes equal to it become bits at
/// their element indices, and the lowest set bit wins. No branch depends on the data. A NaN maximum
/// matches no lane: index -1. Offsets + kLanes must stay within 32 (the bits of an unsigned).
template <LaneType F, int G>
[[gnu::always_inline]] inline LaneMax ArgMax(const F (&groups)[G], const int (&offsets)[G]) {
  F best = groups[0];
  for (int g = 1; g < G; ++g) best = Max(best, groups[g]);
  best = ReduceMax(best);
  unsigned bits = 0;
  for (int g = 0; g < G; ++g) bits |= Bits(groups[g] == best) << offsets[g];
  // Finite input always matches a lane: say so, or the compiler lays the NaN case out as the fast path.
  if (bits == 0) [[unlikely]]
    return {-1, FirstLane(best)};
  return {std::countr_zero(bits), FirstLane(best)};
}

/// ArgMax of one register: the lowest lane holding its maximum.
template <LaneType F>
[[gnu::always_inline]] inline LaneMax ArgMax(F x) {
  return ArgMax<F, 1>({x}, {0});
}

}  // namespace mk::wide
