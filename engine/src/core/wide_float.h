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
// Widths. F::kLanes is the lane count; Float4 is this build's 4-lane type, FloatW its widest. An AVX2
// type slots in beside Sse2Float4 with the same names: `Avx2Float8` (kLanes = 8, wrapping __m256, its
// Mask a __m256), each function below written once more on _mm256_* (the butterfly's third step,
// partner i ^ 4, is a _mm256_permute2f128_ps; Evens and Odds need a _mm256_permute4x64_pd after
// their in-lane shuffles to restore the order documented here; Bits is _mm256_movemask_ps).
// FloatW then becomes Avx2Float8 under __AVX2__ and !MK_DISABLE_SIMD, and ScalarFloat<8>, which
// exists already, is its twin. Kernels written in terms of kLanes (MinDot, the SAT face groups,
// TransformVectors, ScanSupport) already run on ScalarFloat<8> in the tests.
//
// Loads and stores are unaligned and touch exactly kLanes floats (kLanes / 2 Vec2s).
#pragma once

#include "minkowski/math.h"

#include <bit>
#include <concepts>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mk::wide {

static_assert(sizeof(Vec2) == 2 * sizeof(float), "LoadPairs and StorePairs see a Vec2 as two floats");

/// The largest lane of a set of registers and the lowest element index holding it (see ArgMax).
struct LaneMax {
  int index;    ///< -1 when no lane equals the maximum (a NaN maximum)
  float value;  ///< the maximum (lane 0 of the reduction)
};

// ---------------------------------------------------------------------------------------------
// ScalarFloat<N>: the twin, and the implementation without SIMD
// ---------------------------------------------------------------------------------------------

/// One bool per lane.
template <int N>
struct ScalarMask {
  static constexpr int kLanes = N;
  bool lane[N];
};

/// N floats, one IEEE operation per lane per call. N is a power of two (the reductions pair lane i
/// with lane i ^ step).
template <int N>
struct ScalarFloat {
  static_assert(N >= 2 && (N & (N - 1)) == 0, "a power of two, at least 2");
  static constexpr int kLanes = N;
  using Mask = ScalarMask<N>;

  float lane[N];

  [[gnu::always_inline]] static ScalarFloat Splat(float x) {
    ScalarFloat r;
    for (int i = 0; i < N; ++i) r.lane[i] = x;
    return r;
  }
  [[gnu::always_inline]] static ScalarFloat Zero() { return Splat(0.0f); }
  /// (x, y, x, y, ...): a direction or a translation for registers of interleaved Vec2s.
  [[gnu::always_inline]] static ScalarFloat SplatPair(float x, float y) {
    ScalarFloat r;
    for (int i = 0; i < N; i += 2) {
      r.lane[i] = x;
      r.lane[i + 1] = y;
    }
    return r;
  }
  /// Four given lanes (4-lane types only).
  [[gnu::always_inline]] static ScalarFloat Set(float a, float b, float c, float d) requires(N == 4) {
    return {{a, b, c, d}};
  }
  /// p[0..N).
  [[gnu::always_inline]] static ScalarFloat Load(const float* p) {
    ScalarFloat r;
    std::memcpy(r.lane, p, sizeof r.lane);
    return r;
  }
  /// p[0..N / 2) as x0, y0, x1, y1, ...
  [[gnu::always_inline]] static ScalarFloat LoadPairs(const Vec2* p) {
    ScalarFloat r;
    std::memcpy(r.lane, p, sizeof r.lane);
    return r;
  }
};

namespace scalar {

template <int N, class Op>
[[gnu::always_inline]] inline ScalarFloat<N> Map(ScalarFloat<N> a, ScalarFloat<N> b, Op op) {
  ScalarFloat<N> r;
  for (int i = 0; i < N; ++i) r.lane[i] = op(a.lane[i], b.lane[i]);
  return r;
}

template <int N, class Op>
[[gnu::always_inline]] inline ScalarMask<N> Compare(ScalarFloat<N> a, ScalarFloat<N> b, Op op) {
  ScalarMask<N> r;
  for (int i = 0; i < N; ++i) r.lane[i] = op(a.lane[i], b.lane[i]);
  return r;
}

// minps and maxps, operand order included.
[[gnu::always_inline]] inline float MinLane(float a, float b) { return a < b ? a : b; }
[[gnu::always_inline]] inline float MaxLane(float a, float b) { return a > b ? a : b; }

// Lane i becomes op(lane i, lane i ^ step) for step = 1, 2, ..., N / 2: every lane ends with the
// reduction of all, computed in the shuffle network's order.
template <int N, class Op>
[[gnu::always_inline]] inline ScalarFloat<N> Butterfly(ScalarFloat<N> a, Op op) {
  for (int step = 1; step < N; step *= 2) {
    ScalarFloat<N> r;
    for (int i = 0; i < N; ++i) r.lane[i] = op(a.lane[i], a.lane[i ^ step]);
    a = r;
  }
  return a;
}

}  // namespace scalar

template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> operator+(ScalarFloat<N> a, ScalarFloat<N> b) {
  return scalar::Map(a, b, [](float x, float y) { return x + y; });
}
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> operator-(ScalarFloat<N> a, ScalarFloat<N> b) {
  return scalar::Map(a, b, [](float x, float y) { return x - y; });
}
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> operator*(ScalarFloat<N> a, ScalarFloat<N> b) {
  return scalar::Map(a, b, [](float x, float y) { return x * y; });
}
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> Min(ScalarFloat<N> a, ScalarFloat<N> b) {
  return scalar::Map(a, b, scalar::MinLane);
}
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> Max(ScalarFloat<N> a, ScalarFloat<N> b) {
  return scalar::Map(a, b, scalar::MaxLane);
}

template <int N>
[[gnu::always_inline]] inline ScalarMask<N> operator==(ScalarFloat<N> a, ScalarFloat<N> b) {
  return scalar::Compare(a, b, [](float x, float y) { return x == y; });
}
template <int N>
[[gnu::always_inline]] inline ScalarMask<N> operator<(ScalarFloat<N> a, ScalarFloat<N> b) {
  return scalar::Compare(a, b, [](float x, float y) { return x < y; });
}
template <int N>
[[gnu::always_inline]] inline ScalarMask<N> operator<=(ScalarFloat<N> a, ScalarFloat<N> b) {
  return scalar::Compare(a, b, [](float x, float y) { return x <= y; });
}
template <int N>
[[gnu::always_inline]] inline ScalarMask<N> operator>(ScalarFloat<N> a, ScalarFloat<N> b) {
  return scalar::Compare(a, b, [](float x, float y) { return x > y; });
}
template <int N>
[[gnu::always_inline]] inline ScalarMask<N> operator>=(ScalarFloat<N> a, ScalarFloat<N> b) {
  return scalar::Compare(a, b, [](float x, float y) { return x >= y; });
}

template <int N>
[[gnu::always_inline]] inline ScalarMask<N> operator&(ScalarMask<N> a, ScalarMask<N> b) {
  ScalarMask<N> r;
  for (int i = 0; i < N; ++i) r.lane[i] = a.lane[i] && b.lane[i];
  return r;
}
template <int N>
[[gnu::always_inline]] inline ScalarMask<N> operator|(ScalarMask<N> a, ScalarMask<N> b) {
  ScalarMask<N> r;
  for (int i = 0; i < N; ++i) r.lane[i] = a.lane[i] || b.lane[i];
  return r;
}
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> Select(ScalarMask<N> m, ScalarFloat<N> a, ScalarFloat<N> b) {
  ScalarFloat<N> r;
  for (int i = 0; i < N; ++i) r.lane[i] = m.lane[i] ? a.lane[i] : b.lane[i];
  return r;
}
template <int N>
[[gnu::always_inline]] inline unsigned Bits(ScalarMask<N> m) {
  unsigned bits = 0;
  for (int i = 0; i < N; ++i) bits |= m.lane[i] ? 1u << i : 0u;
  return bits;
}
template <int N>
[[gnu::always_inline]] inline bool Any(ScalarMask<N> m) {
  return Bits(m) != 0;
}
template <int N>
[[gnu::always_inline]] inline bool All(ScalarMask<N> m) {
  return Bits(m) == (1u << N) - 1u;
}

template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> Evens(ScalarFloat<N> a, ScalarFloat<N> b) {
  ScalarFloat<N> r;
  for (int i = 0; i < N / 2; ++i) {
    r.lane[i] = a.lane[2 * i];
    r.lane[N / 2 + i] = b.lane[2 * i];
  }
  return r;
}
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> Odds(ScalarFloat<N> a, ScalarFloat<N> b) {
  ScalarFloat<N> r;
  for (int i = 0; i < N / 2; ++i) {
    r.lane[i] = a.lane[2 * i + 1];
    r.lane[N / 2 + i] = b.lane[2 * i + 1];
  }
  return r;
}
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> SwapPairs(ScalarFloat<N> a) {
  ScalarFloat<N> r;
  for (int i = 0; i < N; ++i) r.lane[i] = a.lane[i ^ 1];
  return r;
}
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> ReduceMin(ScalarFloat<N> a) {
  return scalar::Butterfly(a, scalar::MinLane);
}
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> ReduceMax(ScalarFloat<N> a) {
  return scalar::Butterfly(a, scalar::MaxLane);
}
template <int N>
[[gnu::always_inline]] inline float FirstLane(ScalarFloat<N> a) {
  return a.lane[0];
}
template <int N>
[[gnu::always_inline]] inline void Store(float* p, ScalarFloat<N> a) {
  std::memcpy(p, a.lane, sizeof a.lane);
}
template <int N>
[[gnu::always_inline]] inline void StorePairs(Vec2* p, ScalarFloat<N> a) {
  std::memcpy(static_cast<void*>(p), a.lane, sizeof a.lane);
}

// ---------------------------------------------------------------------------------------------
// Sse2Float4
// ---------------------------------------------------------------------------------------------

#if defined(__SSE2__)

/// All ones or all zeros per lane, as the SSE compares leave them.
struct Sse2Mask4 {
  static constexpr int kLanes = 4;
  __m128 v;
};

struct Sse2Float4 {
  static constexpr int kLanes = 4;
  using Mask = Sse2Mask4;

  __m128 v;

  [[gnu::always_inline]] static Sse2Float4 Splat(float x) { return {_mm_set1_ps(x)}; }
  [[gnu::always_inline]] static Sse2Float4 Zero() { return {_mm_setzero_ps()}; }
  [[gnu::always_inline]] static Sse2Float4 SplatPair(float x, float y) { return {_mm_setr_ps(x, y, x, y)}; }
  [[gnu::always_inline]] static Sse2Float4 Set(float a, float b, float c, float d) {
    return {_mm_setr_ps(a, b, c, d)};
  }
  // _mm_loadu_ps and _mm_storeu_ps go through a may_alias type: fine on float and Vec2 arrays.
  [[gnu::always_inline]] static Sse2Float4 Load(const float* p) { return {_mm_loadu_ps(p)}; }
  [[gnu::always_inline]] static Sse2Float4 LoadPairs(const Vec2* p) {
    return {_mm_loadu_ps(reinterpret_cast<const float*>(p))};
  }
};

[[gnu::always_inline]] inline Sse2Float4 operator+(Sse2Float4 a, Sse2Float4 b) {
  return {_mm_add_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Sse2Float4 operator-(Sse2Float4 a, Sse2Float4 b) {
  return {_mm_sub_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Sse2Float4 operator*(Sse2Float4 a, Sse2Float4 b) {
  return {_mm_mul_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Sse2Float4 Min(Sse2Float4 a, Sse2Float4 b) { return {_mm_min_ps(a.v, b.v)}; }
[[gnu::always_inline]] inline Sse2Float4 Max(Sse2Float4 a, Sse2Float4 b) { return {_mm_max_ps(a.v, b.v)}; }

[[gnu::always_inline]] inline Sse2Mask4 operator==(Sse2Float4 a, Sse2Float4 b) {
  return {_mm_cmpeq_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Sse2Mask4 operator<(Sse2Float4 a, Sse2Float4 b) {
  return {_mm_cmplt_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Sse2Mask4 operator<=(Sse2Float4 a, Sse2Float4 b) {
  return {_mm_cmple_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Sse2Mask4 operator>(Sse2Float4 a, Sse2Float4 b) {
  return {_mm_cmpgt_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Sse2Mask4 operator>=(Sse2Float4 a, Sse2Float4 b) {
  return {_mm_cmpge_ps(a.v, b.v)};
}

[[gnu::always_inline]] inline Sse2Mask4 operator&(Sse2Mask4 a, Sse2Mask4 b) { return {_mm_and_ps(a.v, b.v)}; }
[[gnu::always_inline]] inline Sse2Mask4 operator|(Sse2Mask4 a, Sse2Mask4 b) { return {_mm_or_ps(a.v, b.v)}; }
[[gnu::always_inline]] inline Sse2Float4 Select(Sse2Mask4 m, Sse2Float4 a, Sse2Float4 b) {
  return {_mm_or_ps(_mm_and_ps(m.v, a.v), _mm_andnot_ps(m.v, b.v))};
}
[[gnu::always_inline]] inline unsigned Bits(Sse2Mask4 m) {
  return static_cast<unsigned>(_mm_movemask_ps(m.v));
}
[[gnu::always_inline]] inline bool Any(Sse2Mask4 m) { return _mm_movemask_ps(m.v) != 0; }
[[gnu::always_inline]] inline bool All(Sse2Mask4 m) { return _mm_movemask_ps(m.v) == 0xF; }

[[gnu::always_inline]] inline Sse2Float4 Evens(Sse2Float4 a, Sse2Float4 b) {
  return {_mm_shuffle_ps(a.v, b.v, _MM_SHUFFLE(2, 0, 2, 0))};
}
[[gnu::always_inline]] inline Sse2Float4 Odds(Sse2Float4 a, Sse2Float4 b) {
  return {_mm_shuffle_ps(a.v, b.v, _MM_SHUFFLE(3, 1, 3, 1))};
}
[[gnu::always_inline]] inline Sse2Float4 SwapPairs(Sse2Float4 a) {
  return {_mm_shuffle_ps(a.v, a.v, _MM_SHUFFLE(2, 3, 0, 1))};
}
// The butterfly: partner i ^ 1, then i ^ 2; each step is op(self, partner).
[[gnu::always_inline]] inline Sse2Float4 ReduceMin(Sse2Float4 a) {
  __m128 m = _mm_min_ps(a.v, _mm_shuffle_ps(a.v, a.v, _MM_SHUFFLE(2, 3, 0, 1)));
  return {_mm_min_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)))};
}
[[gnu::always_inline]] inline Sse2Float4 ReduceMax(Sse2Float4 a) {
  __m128 m = _mm_max_ps(a.v, _mm_shuffle_ps(a.v, a.v, _MM_SHUFFLE(2, 3, 0, 1)));
  return {_mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)))};
}
[[gnu::always_inline]] inline float FirstLane(Sse2Float4 a) { return _mm_cvtss_f32(a.v); }
[[gnu::always_inline]] inline void Store(float* p, Sse2Float4 a) { _mm_storeu_ps(p, a.v); }
[[gnu::always_inline]] inline void StorePairs(Vec2* p, Sse2Float4 a) {
  _mm_storeu_ps(reinterpret_cast<float*>(p), a.v);
}

#endif  // __SSE2__

// ---------------------------------------------------------------------------------------------
// This build's types, and what every implementation shares
// ---------------------------------------------------------------------------------------------

#if defined(__SSE2__) && !defined(MK_DISABLE_SIMD)
using Float4 = Sse2Float4;
#else
using Float4 = ScalarFloat<4>;
#endif
/// The widest type of this build (Float4 until an 8-lane type exists; see the top of this file).
using FloatW = Float4;

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
  { ReduceMin(a) } -> std::same_as<F>;
  { ReduceMax(a) } -> std::same_as<F>;
  { FirstLane(a) } -> std::same_as<float>;
  Store(out, a);
  StorePairs(outPairs, a);
};
static_assert(LaneType<Float4> && LaneType<ScalarFloat<4>> && LaneType<ScalarFloat<8>>);

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
