// SPDX-License-Identifier: MIT
// The engine's sine, cosine and arctangent (see trig.h for why and how accurate). Constants are hex
// literals computed with 300-bit arithmetic (mpmath), so every compiler reads the same bits.
#include "core/trig.h"

#include "minkowski/math.h"

#include <cmath>
#include <cstdint>

namespace mk::trig {
namespace {

// pi/2 in three parts (Cody and Waite): the first two have 33 significant bits, so k * part is exact
// for |k| < 2^20, and x - k * kHalfPi1 is exact too (Sterbenz: the two are within a factor of two).
constexpr double kHalfPi1 = 0x1.921fb54400000p+0;
constexpr double kHalfPi2 = 0x1.0b4611a600000p-34;
constexpr double kHalfPi3 = 0x1.3198a2e037073p-69;
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kTwoPi = 0x1.921fb54442d18p+2;
// pi and pi/2 as a double plus the double nearest the rest.
constexpr double kPiHi = 0x1.921fb54442d18p+1;
constexpr double kPiLo = 0x1.1a62633145c07p-53;
constexpr double kHalfPiHi = 0x1.921fb54442d18p+0;
constexpr double kHalfPiLo = 0x1.1a62633145c07p-54;
constexpr double kQuarterPi = 0x1.921fb54442d18p-1;
constexpr double kThreeQuarterPi = 0x1.2d97c7f3321d2p+1;
// atan(k / 8) for k = 0..8, the centres of the arctangent's table reduction.
constexpr double kAtanEighths[9] = {0.0,
                                    0x1.fd5ba9aac2f6ep-4,
                                    0x1.f5b75f92c80ddp-3,
                                    0x1.6f61941e4def1p-2,
                                    0x1.dac670561bb4fp-2,
                                    0x1.1e00babdefeb4p-1,
                                    0x1.4978fa3269ee1p-1,
                                    0x1.700a7c5784634p-1,
                                    0x1.921fb54442d18p-1};

// Below this magnitude sin x rounds to x and cos x to 1 (x^2 / 6 < 2^-54).
constexpr double kTiny = 0x1p-27;
// Adding and subtracting 1.5 * 2^52 rounds a double of magnitude < 2^51 to the nearest integer (ties to
// even) with two IEEE additions: no libm, no dependence on how a compiler lowers nearbyint.
constexpr double kRoundMagic = 0x1.8p52;
double RoundToInteger(double v) { return (v + kRoundMagic) - kRoundMagic; }

// Horner's rule over a coefficient table, highest power first.
template <int N>
double Horner(const double (&coefficients)[N], double z) {
  double sum = coefficients[N - 1];
  for (int i = N - 2; i >= 0; --i) sum = coefficients[i] + z * sum;
  return sum;
}

}  // namespace

const double kSinTaylor[kSinTerms] = {-0x1.5555555555555p-3,  0x1.1111111111111p-7,   -0x1.a01a01a01a01ap-13,
                                      0x1.71de3a556c734p-19,  -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33,
                                      -0x1.ae7f3e733b81fp-41, 0x1.952c77030ad4ap-49};
const double kCosTaylor[kCosTerms] = {-0x1.0000000000000p-1,  0x1.5555555555555p-5,   -0x1.6c16c16c16c17p-10,
                                      0x1.a01a01a01a01ap-16,  -0x1.27e4fb7789f5cp-22, 0x1.1eed8eff8d898p-29,
                                      -0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45};
const double kAtanTaylor[kAtanTerms] = {-0x1.5555555555555p-2, 0x1.999999999999ap-3,  -0x1.2492492492492p-3,
                                        0x1.c71c71c71c71cp-4,  -0x1.745d1745d1746p-4, 0x1.3b13b13b13b14p-4};

// sin r = r + r^3 (s3 + r^2 (s5 + ...)): adding r last keeps the small terms' rounding small.
double SinKernel(double r) {
  double r2 = r * r;
  return r + r * (r2 * Horner(kSinTaylor, r2));
}

double CosKernel(double r) {
  double r2 = r * r;
  return 1.0 + r2 * Horner(kCosTaylor, r2);
}

double AtanKernel(double u) {
  double u2 = u * u;
  return u + u * (u2 * Horner(kAtanTaylor, u2));
}

SinCosResult SinCos(double x) {
  if (!std::isfinite(x)) {
    double nan = x - x;  // NaN for +-Inf and NaN alike
    return {nan, nan};
  }
  if (std::fabs(x) < kTiny) return {x, 1.0};
  // IEEE remainder is exact (the result is representable), so this fold is the same on every library.
  if (std::fabs(x) > kTrigAccurateRange) x = std::remainder(x, kTwoPi);
  // x = k pi/2 + r with |r| <= pi/4 (plus rounding); k's last two bits pick the quadrant.
  double k = RoundToInteger(x * kTwoOverPi);
  double r = ((x - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3;
  double s = SinKernel(r), c = CosKernel(r);
  switch (static_cast<std::int64_t>(k) & 3) {
    case 0:
      return {s, c};
    case 1:
      return {c, -s};
    case 2:
      return {-s, -c};
    default:
      return {-c, s};
  }
}

// atan t for 0 <= t <= 1: t = c + small with c = k/8, atan t = atan c + atan((t - c) / (1 + t c)),
// whose argument is at most 1/16, where the series converges in six terms.
[[gnu::always_inline]] inline double AtanUnit(double t) {
  double k = RoundToInteger(8.0 * t);
  // t <= 1/16, the common case (a joint's relative turn within a step, RelativeAngle): c = 0, so
  // u = (t - 0) / (1 + t 0) = t exactly and the table's entry is 0; the kernel alone gives the same
  // bits without the division.
  if (k == 0.0) return AtanKernel(t);
  double c = 0.125 * k;
  double u = (t - c) / (1.0 + t * c);  // t - c is exact (Sterbenz) once k >= 1
  return kAtanEighths[static_cast<int>(k)] + AtanKernel(u);
}

double Atan2(double y, double x) {
  if (std::isnan(x) || std::isnan(y)) return x + y;
  // Zeros and infinities: C's Annex F table (the sign of y carries through).
  if (y == 0.0) return std::signbit(x) ? std::copysign(kPiHi, y) : y;
  if (std::isinf(x)) {
    if (std::isinf(y)) return std::copysign(std::signbit(x) ? kThreeQuarterPi : kQuarterPi, y);
    return std::signbit(x) ? std::copysign(kPiHi, y) : std::copysign(0.0, y);
  }
  if (x == 0.0 || std::isinf(y)) return std::copysign(kHalfPiHi, y);
  double ax = std::fabs(x), ay = std::fabs(y);
  // The angle of (ax, ay) in [0, pi/2] from the octant's arctangent, then mirrored into x's half-plane.
  double a = ay <= ax ? AtanUnit(ay / ax) : (kHalfPiHi - AtanUnit(ax / ay)) + kHalfPiLo;
  if (x < 0.0) a = (kPiHi - a) + kPiLo;
  return std::copysign(a, y);
}

}  // namespace mk::trig

namespace mk {

float Sin(float radians) { return static_cast<float>(trig::SinCos(radians).s); }

float Cos(float radians) { return static_cast<float>(trig::SinCos(radians).c); }

float Atan2(float y, float x) { return static_cast<float>(trig::Atan2(y, x)); }

Rot MakeRot(float angle) {
  trig::SinCosResult sc = trig::SinCos(angle);
  return {static_cast<float>(sc.c), static_cast<float>(sc.s)};
}

}  // namespace mk
