// SPDX-License-Identifier: MIT
// Reference sine and cosine of float arguments in double-double arithmetic (about 100 significant
// bits), from IEEE double additions and multiplications only, so they are the same, and exact far below
// a double ulp, on every platform. The C library's long double sinl/cosl are not: MinGW's use the x87
// fsin/fcos instructions, whose built-in pi has 66 bits, and near multiples of pi at a million radians
// they are wrong by millions of double ulps (measured under wine64: up to 6e6).
//
// Method: Cody-Waite reduction x - k pi/2 with pi/2 in four 30-bit pieces (each k * piece is exact for
// |k| < 2^23, that is |x| < 1.3e7), then Taylor series of sin and cos in double-double until a term no
// longer changes the sum. Double-double operations after Dekker (1971) and Knuth (TAOCP 2, 4.2.2); the
// build's -ffp-contract=off keeps the compiler from fusing their products into FMAs, which would break
// the exact error terms.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>

namespace mk::test::ref {

/// The value hi + lo, |lo| at most half an ulp of hi.
struct DoubleDouble {
  double hi = 0.0;
  double lo = 0.0;
};

/// s + e == a + b exactly (Knuth's TwoSum).
inline DoubleDouble TwoSum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

/// p + e == a * b exactly (Dekker's product on Veltkamp's split).
inline DoubleDouble TwoProduct(double a, double b) {
  const auto split = [](double v) {
    const double c = 134217729.0 * v;  // 2^27 + 1
    const double high = c - (c - v);
    return DoubleDouble{high, v - high};
  };
  const double p = a * b;
  const DoubleDouble sa = split(a), sb = split(b);
  return {p, ((sa.hi * sb.hi - p) + sa.hi * sb.lo + sa.lo * sb.hi) + sa.lo * sb.lo};
}

inline DoubleDouble Normalize(double hi, double lo) {
  const double s = hi + lo;
  return {s, lo - (s - hi)};
}

inline DoubleDouble Add(DoubleDouble a, DoubleDouble b) {
  const DoubleDouble s = TwoSum(a.hi, b.hi), t = TwoSum(a.lo, b.lo);
  const DoubleDouble u = Normalize(s.hi, s.lo + t.hi);
  return Normalize(u.hi, u.lo + t.lo);
}

inline DoubleDouble Negate(DoubleDouble a) { return {-a.hi, -a.lo}; }

inline DoubleDouble Mul(DoubleDouble a, DoubleDouble b) {
  const DoubleDouble p = TwoProduct(a.hi, b.hi);
  return Normalize(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

inline DoubleDouble Div(DoubleDouble a, double b) {
  const double q1 = a.hi / b;
  const DoubleDouble r = Add(a, Negate(TwoProduct(q1, b)));
  return Normalize(q1, r.hi / b);
}

/// sin and cos of x (|x| < 1.3e7 radians, the reduction's range).
struct SinCosReference {
  DoubleDouble s, c;
};

inline SinCosReference SinCos(float x) {
  // pi/2 = kPiOver2[0] + ... + kPiOver2[3] + 1.0e-37, from pi's hexadecimal expansion
  // 3.243F6A8885A308D313198A2E03707344A (Machin's formula), cut into 30-bit pieces.
  constexpr double kPiOver2[4] = {0x1.921fb54p+0, 0x1.10b46118p-30, 0x1.313198ap-61, 0x1.701b8398p-92};
  const double xd = x;
  const double k = std::floor(xd * 0.63661977236758134 + 0.5);  // nearest k; exactness not needed
  DoubleDouble r{xd, 0.0};
  for (double piece : kPiOver2) r = Add(r, Negate(DoubleDouble{k * piece, 0.0}));
  const DoubleDouble r2 = Mul(r, r);
  // sin r = r - r^3/3! + ..., cos r = 1 - r^2/2! + ... (cos r >= 0.7): |r| <= pi/4 + tiny, so 20
  // terms are more than enough; stop once a term is below the sums' last bits.
  DoubleDouble sinSum = r, sinTerm = r, cosSum{1.0, 0.0}, cosTerm{1.0, 0.0};
  for (int n = 1; n <= 30; ++n) {
    sinTerm = Negate(Div(Mul(sinTerm, r2), (2.0 * n) * (2.0 * n + 1.0)));
    cosTerm = Negate(Div(Mul(cosTerm, r2), (2.0 * n - 1.0) * (2.0 * n)));
    sinSum = Add(sinSum, sinTerm);
    cosSum = Add(cosSum, cosTerm);
    if (std::fabs(sinTerm.hi) < 0x1p-110 * std::fabs(sinSum.hi) && std::fabs(cosTerm.hi) < 0x1p-110) break;
  }
  const std::int64_t quadrant = static_cast<std::int64_t>(k) & 3;  // two's complement: k mod 4
  switch (quadrant) {
    case 0:
      return {sinSum, cosSum};
    case 1:
      return {cosSum, Negate(sinSum)};
    case 2:
      return {Negate(sinSum), Negate(cosSum)};
    default:
      return {Negate(cosSum), sinSum};
  }
}

/// value - reference, rounded once to double (value within a few ulps of reference, so value - hi is
/// exact).
inline double Difference(double value, DoubleDouble reference) {
  return (value - reference.hi) - reference.lo;
}

/// The float nearest the reference (no double rounding through reference.hi).
inline float RoundToFloat(DoubleDouble reference) {
  const float f = static_cast<float>(reference.hi);
  float best = f;
  for (float g : {std::nextafter(f, -std::numeric_limits<float>::infinity()),
                  std::nextafter(f, std::numeric_limits<float>::infinity())}) {
    if (std::fabs(Difference(g, reference)) < std::fabs(Difference(best, reference))) best = g;
  }
  return best;
}

/// A long double as a double-double (exact where long double has at most 106 significant bits).
inline DoubleDouble FromLongDouble(long double v) {
  const double hi = static_cast<double>(v);
  return {hi, static_cast<double>(v - hi)};
}

}  // namespace mk::test::ref
