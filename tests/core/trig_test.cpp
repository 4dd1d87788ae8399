// SPDX-License-Identifier: MIT
// The engine's own Sin, Cos and Atan2 (engine/src/core/trig.cpp) at fixed-seed random arguments against
// references whose error is far below a double ulp: sine and cosine in double-double arithmetic
// (core/trig_reference.h: exact on every platform, which MinGW's x87 sinl/cosl are not), atan2 from the
// C library's long double function (64-bit significands; x87 fpatan on MinGW, accurate there too);
// plus C's table of special values and the symmetries the functions must keep bit for bit.
#include "core/trig.h"

#include "core/trig_reference.h"
#include "minkowski/math.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>

using namespace mk;
namespace ref = mk::test::ref;

namespace {

constexpr float kPiF = std::numbers::pi_v<float>;

// |value - reference| in units in the last place of reference's binade, for floats (24-bit
// significands) or doubles (53-bit).
double UlpError(double value, ref::DoubleDouble reference, int significandBits) {
  const double ulp = std::ldexp(1.0, std::ilogb(reference.hi) - (significandBits - 1));
  return std::fabs(ref::Difference(value, reference)) / ulp;
}

bool SameBits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

struct ErrorTally {
  double maxFloatUlp = 0.0;     // the float function against the true value
  double maxDoubleUlp = 0.0;    // the double kernel against the true value
  int notCorrectlyRounded = 0;  // float results other than the true value rounded to float

  void Add(float f, double d, ref::DoubleDouble reference) {
    if (reference.hi == 0.0) return;
    maxFloatUlp = std::fmax(maxFloatUlp, UlpError(f, reference, 24));
    maxDoubleUlp = std::fmax(maxDoubleUlp, UlpError(d, reference, 53));
    if (f != ref::RoundToFloat(reference)) ++notCorrectlyRounded;
  }
};

// Sin and Cos over `count` angles uniform in [-range, range].
void CheckSinCos(float range, int count, std::uint64_t seed) {
  test::Rng rng(seed);
  ErrorTally sine, cosine;
  for (int i = 0; i < count; ++i) {
    const float x = rng.Uniform(-range, range);
    const trig::SinCosResult d = trig::SinCos(x);
    const ref::SinCosReference reference = ref::SinCos(x);
    sine.Add(Sin(x), d.s, reference.s);
    cosine.Add(Cos(x), d.c, reference.c);
  }
  INFO("range " << range << ": sin max " << sine.maxFloatUlp << " float ulp, " << sine.maxDoubleUlp
                << " double ulp; cos max " << cosine.maxFloatUlp << " float ulp, " << cosine.maxDoubleUlp
                << " double ulp");
  CHECK(sine.notCorrectlyRounded == 0);
  CHECK(cosine.notCorrectlyRounded == 0);
  CHECK(sine.maxDoubleUlp <= 2.5);
  CHECK(cosine.maxDoubleUlp <= 2.5);
}

// Each Horner step of a kernel rounded on its own (volatile stores keep the compiler from fusing a
// multiply with the add that follows): what the engine must compute without contraction.
double SeparatelyRoundedHorner(const double* coefficients, int count, double z) {
  volatile double sum = coefficients[count - 1];
  for (int i = count - 2; i >= 0; --i) {
    volatile double product = z * sum;
    sum = coefficients[i] + product;
  }
  volatile double high = z * sum;  // z (c0 + z (c1 + ...))
  return high;
}

// r + r * (r^2 P(r^2)), as SinKernel and AtanKernel.
double SeparatelyRoundedOdd(const double* coefficients, int count, double r) {
  volatile double high = SeparatelyRoundedHorner(coefficients, count, r * r);
  volatile double odd = r * high;
  return r + odd;
}

// 1 + r^2 P(r^2), as CosKernel.
double SeparatelyRoundedEven(const double* coefficients, int count, double r) {
  volatile double high = SeparatelyRoundedHorner(coefficients, count, r * r);
  return 1.0 + high;
}

}  // namespace

TEST_SUITE("trig") {
TEST_CASE("Sin and Cos are correctly rounded floats and within 2.5 double ulp near the origin") {
  CheckSinCos(0.25f * kPiF, 200000, 1);
  CheckSinCos(2.0f * kPiF, 200000, 2);
}

TEST_CASE("Sin and Cos are correctly rounded floats for angles up to a million radians") {
  CheckSinCos(100.0f, 200000, 3);
  CheckSinCos(1.0e6f, 200000, 4);
}

TEST_CASE("Sin and Cos of tiny angles follow sin x = x and cos x = 1 to the last bit") {
  test::Rng rng(5);
  ErrorTally sine, cosine;
  for (int i = 0; i < 100000; ++i) {
    const float x = (rng.Int(0, 1) ? 1.0f : -1.0f) * rng.LogUniform(1e-30f, 1.0f);
    const trig::SinCosResult d = trig::SinCos(x);
    const ref::SinCosReference reference = ref::SinCos(x);
    sine.Add(Sin(x), d.s, reference.s);
    cosine.Add(Cos(x), d.c, reference.c);
  }
  CHECK(sine.notCorrectlyRounded == 0);
  CHECK(cosine.notCorrectlyRounded == 0);
  CHECK(sine.maxDoubleUlp <= 2.5);
  CHECK(cosine.maxDoubleUlp <= 2.5);
}

TEST_CASE("Atan2 is correctly rounded in every quadrant over thirty orders of magnitude") {
  test::Rng rng(6);
  ErrorTally tally;
  for (int i = 0; i < 400000; ++i) {
    const float x = (rng.Int(0, 1) ? 1.0f : -1.0f) * rng.LogUniform(1e-15f, 1e15f);
    const float y = (rng.Int(0, 1) ? 1.0f : -1.0f) * rng.LogUniform(1e-15f, 1e15f);
    tally.Add(Atan2(y, x), trig::Atan2(y, x),
              ref::FromLongDouble(std::atan2(static_cast<long double>(y), static_cast<long double>(x))));
  }
  // Directions of unit length, as Angle(Rot) sees them.
  for (int i = 0; i < 400000; ++i) {
    const Vec2 d = rng.Direction();
    tally.Add(Atan2(d.y, d.x), trig::Atan2(d.y, d.x),
              ref::FromLongDouble(std::atan2(static_cast<long double>(d.y), static_cast<long double>(d.x))));
  }
  INFO("max " << tally.maxFloatUlp << " float ulp, " << tally.maxDoubleUlp << " double ulp");
  CHECK(tally.notCorrectlyRounded == 0);
  CHECK(tally.maxDoubleUlp <= 2.5);
}

TEST_CASE("Sin and Cos keep their symmetries and the values at zero and right angles") {
  CHECK(SameBits(Sin(0.0f), 0.0f));
  CHECK(SameBits(Sin(-0.0f), -0.0f));
  CHECK(Cos(0.0f) == 1.0f);
  CHECK(Cos(-0.0f) == 1.0f);
  // The float nearest pi/2 is 4.37e-8 past it: sin rounds to 1, cos is -4.37113883e-8 (to 9 digits).
  const float halfPi = 0.5f * kPiF;
  CHECK(Sin(halfPi) == 1.0f);
  CHECK(Sin(-halfPi) == -1.0f);
  CHECK(Cos(halfPi) == ref::RoundToFloat(ref::SinCos(halfPi).c));
  CHECK(Cos(halfPi) == doctest::Approx(-4.37113883e-8f).epsilon(1e-8));
  CHECK(Sin(kPiF) == ref::RoundToFloat(ref::SinCos(kPiF).s));
  CHECK(Cos(kPiF) == -1.0f);
  test::Rng rng(7);
  for (int i = 0; i < 10000; ++i) {
    const float x = rng.Uniform(-1000.0f, 1000.0f);
    REQUIRE(SameBits(Sin(-x), -Sin(x)));
    REQUIRE(SameBits(Cos(-x), Cos(x)));
    const Rot q = MakeRot(x);
    REQUIRE(SameBits(q.c, Cos(x)));
    REQUIRE(SameBits(q.s, Sin(x)));
  }
}

TEST_CASE("Sin and Cos of infinities and NaN are NaN") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(Sin(inf)));
  CHECK(std::isnan(Sin(-inf)));
  CHECK(std::isnan(Cos(inf)));
  CHECK(std::isnan(Cos(nan)));
  CHECK(std::isnan(Sin(nan)));
  const Rot q = MakeRot(nan);
  CHECK(std::isnan(q.c));
  CHECK(std::isnan(q.s));
}

TEST_CASE("Sin and Cos beyond a million radians stay deterministic values in range") {
  // Folded by remainder(x, 2 pi): not the true sine, but the same bits everywhere and |value| <= 1.
  test::Rng rng(8);
  for (int i = 0; i < 10000; ++i) {
    const float x = rng.LogUniform(1e6f, 3e38f);
    const Rot q = MakeRot(x);
    REQUIRE(std::fabs(q.c) <= 1.0f);
    REQUIRE(std::fabs(q.s) <= 1.0f);
    REQUIRE(std::fabs(q.c * q.c + q.s * q.s - 1.0f) <= 1e-6f);
  }
}

TEST_CASE("Atan2 follows C's table for signed zeros and infinities") {
  const float inf = std::numeric_limits<float>::infinity();
  const float pi = kPiF, halfPi = 0.5f * kPiF, quarterPi = 0.25f * kPiF;
  const float threeQuarterPi = static_cast<float>(0.75L * std::numbers::pi_v<long double>);
  CHECK(SameBits(Atan2(0.0f, 1.0f), 0.0f));
  CHECK(SameBits(Atan2(-0.0f, 1.0f), -0.0f));
  CHECK(SameBits(Atan2(0.0f, 0.0f), 0.0f));
  CHECK(SameBits(Atan2(-0.0f, 0.0f), -0.0f));
  CHECK(Atan2(0.0f, -0.0f) == pi);
  CHECK(Atan2(-0.0f, -0.0f) == -pi);
  CHECK(Atan2(0.0f, -1.0f) == pi);
  CHECK(Atan2(-0.0f, -1.0f) == -pi);
  CHECK(Atan2(1.0f, 0.0f) == halfPi);
  CHECK(Atan2(-1.0f, -0.0f) == -halfPi);
  CHECK(Atan2(1.0f, 1.0f) == quarterPi);
  CHECK(Atan2(1.0f, -1.0f) == threeQuarterPi);
  CHECK(Atan2(-1.0f, -1.0f) == -threeQuarterPi);
  CHECK(Atan2(-1.0f, 1.0f) == -quarterPi);
  CHECK(Atan2(inf, 1.0f) == halfPi);
  CHECK(Atan2(-inf, -1.0f) == -halfPi);
  CHECK(SameBits(Atan2(1.0f, inf), 0.0f));
  CHECK(SameBits(Atan2(-1.0f, inf), -0.0f));
  CHECK(Atan2(1.0f, -inf) == pi);
  CHECK(Atan2(-1.0f, -inf) == -pi);
  CHECK(Atan2(inf, inf) == quarterPi);
  CHECK(Atan2(-inf, inf) == -quarterPi);
  CHECK(Atan2(inf, -inf) == threeQuarterPi);
  CHECK(Atan2(-inf, -inf) == -threeQuarterPi);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(Atan2(nan, 1.0f)));
  CHECK(std::isnan(Atan2(1.0f, nan)));
  CHECK(std::isnan(Atan2(nan, nan)));
  test::Rng rng(9);
  for (int i = 0; i < 10000; ++i) {
    const float x = rng.Uniform(-10.0f, 10.0f), y = rng.Uniform(-10.0f, 10.0f);
    REQUIRE(SameBits(Atan2(-y, x), -Atan2(y, x)));
  }
}

TEST_CASE("Angle of MakeRot returns the angle in the half-open turn") {
  test::Rng rng(10);
  for (int i = 0; i < 10000; ++i) {
    const float a = rng.Uniform(-kPiF, kPiF);
    // Rounding cos and sin to float moves the direction by up to ~6e-8 rad.
    REQUIRE(std::fabs(Angle(MakeRot(a)) - a) <= 2.5e-7f);
  }
}

TEST_CASE("The kernels round every operation on its own as written") {
  // A build that fused a multiply and an add (FMA contraction: what -ffp-contract=off forbids)
  // would round once where this rounds twice, and most of these bits would differ. Meaningful where
  // the compiler may use FMA instructions (dev.sh's clang stage builds with -mfma for this).
  test::Rng rng(11);
  int differ = 0;
  for (int i = 0; i < 20000; ++i) {
    const double r = (2.0 * rng.Unit() - 1.0) * 0.25 * std::numbers::pi;
    const double u = (2.0 * rng.Unit() - 1.0) * 0.0625;
    differ += trig::SinKernel(r) != SeparatelyRoundedOdd(trig::kSinTaylor, trig::kSinTerms, r);
    differ += trig::CosKernel(r) != SeparatelyRoundedEven(trig::kCosTaylor, trig::kCosTerms, r);
    differ += trig::AtanKernel(u) != SeparatelyRoundedOdd(trig::kAtanTaylor, trig::kAtanTerms, u);
  }
  CHECK(differ == 0);
}
}  // TEST_SUITE("trig")
