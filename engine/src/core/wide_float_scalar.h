// SPDX-License-Identifier: MIT
// Internal, part of core/wide_float.h (include that, not this): ScalarFloat<N>, the lane type
// without SIMD and the bit-for-bit twin of the SIMD types (the rules it follows: wide_float.h).
#pragma once

#include "minkowski/math.h"

#include <bit>
#include <cstring>

namespace mk::wide {

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

}  // namespace mk::wide
