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
// Widths. F::kLanes is the lane count; Float4 is this build's 4-lane type, FloatW its widest:
// Avx2Float8 (__m256) in builds with the CMake option MK_AVX2 (which compiles the engine with
// -mavx2), else Float4. ScalarFloat<8> is Avx2Float8's twin. Only the contact solver runs on FloatW;
// the narrowphase kernels stay on Float4 (their shapes have few vertices), though those written in
// terms of kLanes (MinDot, the SAT face groups, TransformVectors, ScanSupport) run on ScalarFloat<8>
// in the tests. An 8-lane type's Low and High halves are its Half type, and Combine joins two.
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
#if defined(MK_AVX2)
#include <immintrin.h>
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
  using Half = ScalarFloat<N / 2>;  // 8-lane types only: the halves Low and High return

  float lane[N];

  /// lo's lanes, then hi's (8-lane types only).
  [[gnu::always_inline]] static ScalarFloat Combine(Half lo, Half hi) requires(N == 8) {
    ScalarFloat r;
    std::memcpy(r.lane, lo.lane, sizeof lo.lane);
    std::memcpy(r.lane + N / 2, hi.lane, sizeof hi.lane);
    return r;
  }

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
[[gnu::always_inline]] inline ScalarFloat<N> operator/(ScalarFloat<N> a, ScalarFloat<N> b) {
  return scalar::Map(a, b, [](float x, float y) { return x / y; });
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
/// -a, lane by lane (the sign bit flipped: exact, and -0 for +0 as in scalar code).
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N> Neg(ScalarFloat<N> a) {
  ScalarFloat<N> r;
  for (int i = 0; i < N; ++i) r.lane[i] = -a.lane[i];
  return r;
}
/// The first and the second half of the lanes (8-lane types only).
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N / 2> Low(ScalarFloat<N> a) requires(N == 8) {
  ScalarFloat<N / 2> r;
  std::memcpy(r.lane, a.lane, sizeof r.lane);
  return r;
}
template <int N>
[[gnu::always_inline]] inline ScalarFloat<N / 2> High(ScalarFloat<N> a) requires(N == 8) {
  ScalarFloat<N / 2> r;
  std::memcpy(r.lane, a.lane + N / 2, sizeof r.lane);
  return r;
}
/// Rows to columns: lane j of row i becomes lane i of row j (4-lane types only).
template <int N>
[[gnu::always_inline]] inline void Transpose4(ScalarFloat<N>& r0, ScalarFloat<N>& r1, ScalarFloat<N>& r2,
                                              ScalarFloat<N>& r3) requires(N == 4) {
  ScalarFloat<N>* rows[4] = {&r0, &r1, &r2, &r3};
  float m[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m[j][i] = rows[i]->lane[j];
  for (int i = 0; i < 4; ++i) std::memcpy(rows[i]->lane, m[i], sizeof m[i]);
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
[[gnu::always_inline]] inline Sse2Float4 operator/(Sse2Float4 a, Sse2Float4 b) {
  return {_mm_div_ps(a.v, b.v)};
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
[[gnu::always_inline]] inline Sse2Float4 Neg(Sse2Float4 a) { return {_mm_xor_ps(a.v, _mm_set1_ps(-0.0f))}; }
[[gnu::always_inline]] inline void Transpose4(Sse2Float4& r0, Sse2Float4& r1, Sse2Float4& r2,
                                              Sse2Float4& r3) {
  _MM_TRANSPOSE4_PS(r0.v, r1.v, r2.v, r3.v);
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
// Avx2Float8: the contact solver's 8-lane type in MK_AVX2 builds
// ---------------------------------------------------------------------------------------------

#if defined(MK_AVX2) && !defined(MK_DISABLE_SIMD)
#if !defined(__AVX2__)
#error "MK_AVX2 needs the compiler's AVX2 target (-mavx2); the CMake option MK_AVX2 sets both"
#endif

struct Avx2Mask8 {
  static constexpr int kLanes = 8;
  __m256 v;
};

struct Avx2Float8 {
  static constexpr int kLanes = 8;
  using Mask = Avx2Mask8;
  using Half = Sse2Float4;

  __m256 v;

  [[gnu::always_inline]] static Avx2Float8 Splat(float x) { return {_mm256_set1_ps(x)}; }
  [[gnu::always_inline]] static Avx2Float8 Zero() { return {_mm256_setzero_ps()}; }
  [[gnu::always_inline]] static Avx2Float8 SplatPair(float x, float y) {
    return {_mm256_setr_ps(x, y, x, y, x, y, x, y)};
  }
  [[gnu::always_inline]] static Avx2Float8 Load(const float* p) { return {_mm256_loadu_ps(p)}; }
  [[gnu::always_inline]] static Avx2Float8 LoadPairs(const Vec2* p) {
    return {_mm256_loadu_ps(reinterpret_cast<const float*>(p))};
  }
  [[gnu::always_inline]] static Avx2Float8 Combine(Sse2Float4 lo, Sse2Float4 hi) {
    return {_mm256_insertf128_ps(_mm256_castps128_ps256(lo.v), hi.v, 1)};
  }
};

[[gnu::always_inline]] inline Sse2Float4 Low(Avx2Float8 a) { return {_mm256_castps256_ps128(a.v)}; }
[[gnu::always_inline]] inline Sse2Float4 High(Avx2Float8 a) { return {_mm256_extractf128_ps(a.v, 1)}; }

[[gnu::always_inline]] inline Avx2Float8 operator+(Avx2Float8 a, Avx2Float8 b) {
  return {_mm256_add_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Avx2Float8 operator-(Avx2Float8 a, Avx2Float8 b) {
  return {_mm256_sub_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Avx2Float8 operator*(Avx2Float8 a, Avx2Float8 b) {
  return {_mm256_mul_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Avx2Float8 operator/(Avx2Float8 a, Avx2Float8 b) {
  return {_mm256_div_ps(a.v, b.v)};
}
// vminps and vmaxps: the second operand on a tie or a NaN, as minps and maxps.
[[gnu::always_inline]] inline Avx2Float8 Min(Avx2Float8 a, Avx2Float8 b) { return {_mm256_min_ps(a.v, b.v)}; }
[[gnu::always_inline]] inline Avx2Float8 Max(Avx2Float8 a, Avx2Float8 b) { return {_mm256_max_ps(a.v, b.v)}; }
[[gnu::always_inline]] inline Avx2Float8 Neg(Avx2Float8 a) {
  return {_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f))};
}

// The SSE2 compares' predicates (ordered; lt and le signalling as cmpltps and cmpleps).
[[gnu::always_inline]] inline Avx2Mask8 operator==(Avx2Float8 a, Avx2Float8 b) {
  return {_mm256_cmp_ps(a.v, b.v, _CMP_EQ_OQ)};
}
[[gnu::always_inline]] inline Avx2Mask8 operator<(Avx2Float8 a, Avx2Float8 b) {
  return {_mm256_cmp_ps(a.v, b.v, _CMP_LT_OS)};
}
[[gnu::always_inline]] inline Avx2Mask8 operator<=(Avx2Float8 a, Avx2Float8 b) {
  return {_mm256_cmp_ps(a.v, b.v, _CMP_LE_OS)};
}
[[gnu::always_inline]] inline Avx2Mask8 operator>(Avx2Float8 a, Avx2Float8 b) {
  return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OS)};
}
[[gnu::always_inline]] inline Avx2Mask8 operator>=(Avx2Float8 a, Avx2Float8 b) {
  return {_mm256_cmp_ps(a.v, b.v, _CMP_GE_OS)};
}

[[gnu::always_inline]] inline Avx2Mask8 operator&(Avx2Mask8 a, Avx2Mask8 b) {
  return {_mm256_and_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Avx2Mask8 operator|(Avx2Mask8 a, Avx2Mask8 b) {
  return {_mm256_or_ps(a.v, b.v)};
}
[[gnu::always_inline]] inline Avx2Float8 Select(Avx2Mask8 m, Avx2Float8 a, Avx2Float8 b) {
  return {_mm256_blendv_ps(b.v, a.v, m.v)};
}
[[gnu::always_inline]] inline unsigned Bits(Avx2Mask8 m) {
  return static_cast<unsigned>(_mm256_movemask_ps(m.v));
}
[[gnu::always_inline]] inline bool Any(Avx2Mask8 m) { return _mm256_movemask_ps(m.v) != 0; }
[[gnu::always_inline]] inline bool All(Avx2Mask8 m) { return _mm256_movemask_ps(m.v) == 0xFF; }

// The in-lane shuffles leave (a0 a2 b0 b2 | a4 a6 b4 b6); the 64-bit permute restores the order.
[[gnu::always_inline]] inline Avx2Float8 Evens(Avx2Float8 a, Avx2Float8 b) {
  const __m256 s = _mm256_shuffle_ps(a.v, b.v, _MM_SHUFFLE(2, 0, 2, 0));
  return {_mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(s), _MM_SHUFFLE(3, 1, 2, 0)))};
}
[[gnu::always_inline]] inline Avx2Float8 Odds(Avx2Float8 a, Avx2Float8 b) {
  const __m256 s = _mm256_shuffle_ps(a.v, b.v, _MM_SHUFFLE(3, 1, 3, 1));
  return {_mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(s), _MM_SHUFFLE(3, 1, 2, 0)))};
}
[[gnu::always_inline]] inline Avx2Float8 SwapPairs(Avx2Float8 a) {
  return {_mm256_permute_ps(a.v, _MM_SHUFFLE(2, 3, 0, 1))};
}
// The butterfly: partner i ^ 1, i ^ 2, then i ^ 4 (the other 128-bit half).
template <class Op>
[[gnu::always_inline]] inline Avx2Float8 Butterfly8(Avx2Float8 a, Op op) {
  __m256 m = op(a.v, _mm256_permute_ps(a.v, _MM_SHUFFLE(2, 3, 0, 1)));
  m = op(m, _mm256_permute_ps(m, _MM_SHUFFLE(1, 0, 3, 2)));
  return {op(m, _mm256_permute2f128_ps(m, m, 1))};
}
[[gnu::always_inline]] inline Avx2Float8 ReduceMin(Avx2Float8 a) {
  return Butterfly8(a, [](__m256 x, __m256 y) { return _mm256_min_ps(x, y); });
}
[[gnu::always_inline]] inline Avx2Float8 ReduceMax(Avx2Float8 a) {
  return Butterfly8(a, [](__m256 x, __m256 y) { return _mm256_max_ps(x, y); });
}
[[gnu::always_inline]] inline float FirstLane(Avx2Float8 a) { return _mm256_cvtss_f32(a.v); }
[[gnu::always_inline]] inline void Store(float* p, Avx2Float8 a) { _mm256_storeu_ps(p, a.v); }
[[gnu::always_inline]] inline void StorePairs(Vec2* p, Avx2Float8 a) {
  _mm256_storeu_ps(reinterpret_cast<float*>(p), a.v);
}

#endif  // MK_AVX2

// ---------------------------------------------------------------------------------------------
// This build's types, and what every implementation shares
// ---------------------------------------------------------------------------------------------

#if defined(__SSE2__) && !defined(MK_DISABLE_SIMD)
using Float4 = Sse2Float4;
#else
using Float4 = ScalarFloat<4>;
#endif
/// The widest type of this build: Avx2Float8 in MK_AVX2 builds, else Float4. Only the contact
/// solver uses it (solver/contact_graph.h); the narrowphase kernels stay on Float4.
#if defined(MK_AVX2) && !defined(MK_DISABLE_SIMD)
using FloatW = Avx2Float8;
#else
using FloatW = Float4;
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
static_assert(LaneType<Float4> && LaneType<FloatW> && LaneType<ScalarFloat<4>> && LaneType<ScalarFloat<8>>);

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
