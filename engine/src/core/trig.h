// SPDX-License-Identifier: MIT
// Internal: the engine's own sine, cosine and arctangent in double (the float ones in math.h round
// these). Built from + - * / and IEEE remainder only, each rounded separately (-ffp-contract=off), so
// the bits do not depend on the compiler, its constant folding or the C library: a scene gives the same
// state hash under gcc and clang (docs/design.md section 3).
//
// Accuracy (tests/core/trig_test.cpp measures it against long double at 1.9 million fixed-seed
// arguments): for |x| <= kTrigAccurateRange, Sin and Cos are within 2.5 ulp of double (measured 1.43
// up to 100 rad, 2.18 up to 1e6 rad, where the reduction's last rounding shows), Atan2 within 2.5 ulp
// (measured 1.93). Rounded to float, every tested result is the correctly rounded float.
// Beyond kTrigAccurateRange the angle is first folded by remainder(x, 2 pi rounded to double): still
// deterministic and in [-1, 1], but no longer the sine of x (float angles there are 1/16 rad apart).
// Special values as C's Annex F: Sin(+-0) = +-0, Cos(+-0) = 1, Sin/Cos of +-Inf or NaN is NaN, and
// Atan2 follows atan2's table for zeros and infinities of either sign.
#pragma once

namespace mk::trig {

/// Radians; beyond this magnitude Sin and Cos reduce the angle deterministically but inexactly.
constexpr double kTrigAccurateRange = 1.0e6;

/// sin(x) and cos(x) from one argument reduction.
struct SinCosResult {
  double s = 0.0;
  double c = 1.0;
};
SinCosResult SinCos(double x);

/// The angle of (x, y) from the +x axis in [-pi, pi] radians.
double Atan2(double y, double x);

// The kernels on the reduced range, exposed so that tests can evaluate the same polynomials with
// every operation rounded on its own and compare bits (a contraction to fused multiply-add would
// show there). kSinTaylor[i] is (-1)^(i+1) / (2i + 3)!, kCosTaylor[i] is (-1)^(i+1) / (2i + 2)!,
// kAtanTaylor[i] is (-1)^(i+1) / (2i + 3): Taylor series, truncated where the next term is below
// 1e-17 of the result on the kernel's range.
constexpr int kSinTerms = 8;
constexpr int kCosTerms = 8;
constexpr int kAtanTerms = 6;
extern const double kSinTaylor[kSinTerms];
extern const double kCosTaylor[kCosTerms];
extern const double kAtanTaylor[kAtanTerms];

/// sin(r) for |r| <= pi/4 (plus rounding).
double SinKernel(double r);
/// cos(r) for |r| <= pi/4 (plus rounding).
double CosKernel(double r);
/// atan(u) for |u| <= 1/16.
double AtanKernel(double u);

}  // namespace mk::trig
