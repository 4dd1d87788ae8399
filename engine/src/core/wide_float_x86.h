// SPDX-License-Identifier: MIT
// Internal, part of core/wide_float.h (include that, not this): the x86 lane types, Sse2Float4 (the
// x86-64 baseline) and Avx2Float8 (the 8-lane kernels chosen at run time on a CPU with AVX2), each a
// twin of ScalarFloat (wide_float.h says what "twin" promises).
#pragma once

#include "minkowski/math.h"

#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(MK_AVX2_KERNELS)
#include <immintrin.h>  // declares __m256 without -mavx2 too (the intrinsics need it)
#endif

namespace mk::wide {

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
// Avx2Float8: the 8-lane type of the contact and hinge kernels on a CPU with AVX2
// ---------------------------------------------------------------------------------------------
//
// MK_AVX2_KERNELS (CMake, x86-64 with GCC or Clang) declares the type everywhere, so that baseline
// code can hold and build its 8-lane graphs (they use only kLanes); its operations exist only where
// the compiler targets AVX2 (__AVX2__): in the -mavx2 translation units core/simd_dispatch.h lists,
// which alone run 8-lane kernels. A baseline file that used one would not compile.

#if defined(MK_AVX2_KERNELS) && defined(__SSE2__) && !defined(MK_DISABLE_SIMD)

struct Avx2Mask8 {
  static constexpr int kLanes = 8;
  __m256 v;
};

struct Avx2Float8 {
  static constexpr int kLanes = 8;
  using Mask = Avx2Mask8;
  using Half = Sse2Float4;

  __m256 v;

#if defined(__AVX2__)
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
#endif
};

#if defined(__AVX2__)

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

#endif  // __AVX2__
#endif  // MK_AVX2_KERNELS

}  // namespace mk::wide
