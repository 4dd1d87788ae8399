// SPDX-License-Identifier: MIT
// TimeOfImpact against analytic answers (a circle moving straight at a wall, a turning capsule under a
// ceiling), the safety property against independent GJK distance samples, and bad input.
#include "minkowski/time_of_impact.h"

#include "test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numbers>

using namespace mk;

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

Sweep Still(Vec2 position, float angle = 0.0f) { return {{0.0f, 0.0f}, position, position, angle, angle}; }

// Surface distance at fraction t, by an independent GJK query.
float SeparationAt(const ToiInput& in, float t) {
  DistanceOutput d =
      ShapeDistance({in.proxyA, in.proxyB, GetSweepTransform(in.sweepA, t), GetSweepTransform(in.sweepB, t)});
  return d.coresOverlap ? -(in.proxyA.radius + in.proxyB.radius)
                        : d.coreDistance - in.proxyA.radius - in.proxyB.radius;
}

}  // namespace

TEST_SUITE("narrowphase.time_of_impact") {
TEST_CASE("a circle moving straight at a wall stops at the target separation in front of it") {
  // Wall: a static box 10 cm thick whose face is x = 1. Ball radius 0.25 from x = 0 to x = 2: its
  // surface is target away from the face when its centre is at 1 - 0.25 - target, at t = that / 2.
  const Polygon wall = MakeBox(0.05f, 2.0f).value;
  const Circle ball{{0.0f, 0.0f}, 0.25f};
  ToiInput in;
  in.proxyA = MakeProxy(wall);
  in.proxyB = MakeProxy(ball);
  in.sweepA = Still({1.05f, 0.0f});
  in.sweepB = {{0.0f, 0.0f}, {0.0f, 0.0f}, {2.0f, 0.0f}, 0.0f, 0.0f};
  ToiOutput out = TimeOfImpact(in);
  CHECK(out.status == ToiStatus::Hit);
  const float exact = (1.0f - 0.25f - kToiDefaultTarget) / 2.0f;
  // The separation is within the tolerance of the target; it changes by 2 m per unit t.
  CHECK(std::fabs(out.fraction - exact) <= 0.5f * kToiDefaultTolerance + 1e-6f);
  CHECK(std::fabs(out.separation - kToiDefaultTarget) <= kToiDefaultTolerance);
  CHECK(out.iterations <= 3);
}

TEST_CASE("a turning capsule stops where its tip meets the ceiling") {
  // Capsule of half-length 1 and radius 0.05 turning about its centre from 0 to 90 degrees under a
  // ceiling whose face is y = 0.5: the top of the capsule is at sin(a) + 0.05, which is target below
  // the face at a = asin(0.5 - 0.05 - target).
  const Capsule bar{{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.05f};
  const Polygon ceiling = MakeBox(5.0f, 0.5f).value;
  ToiInput in;
  in.proxyA = MakeProxy(ceiling);
  in.proxyB = MakeProxy(bar);
  in.sweepA = Still({0.0f, 1.0f});
  in.sweepB = {{0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f, 0.5f * kPi};
  ToiOutput out = TimeOfImpact(in);
  CHECK(out.status == ToiStatus::Hit);
  const float angle = std::asin(0.5f - 0.05f - kToiDefaultTarget);
  const float exact = angle / (0.5f * kPi);
  // d(top)/dt = cos(a) * pi / 2, about 1.4 m per unit t here.
  const float slope = std::cos(angle) * 0.5f * kPi;
  CHECK(std::fabs(out.fraction - exact) <= kToiDefaultTolerance / slope + 1e-5f);
  CHECK(std::fabs(out.separation - kToiDefaultTarget) <= kToiDefaultTolerance);
  CHECK(out.iterations < kToiMaxIterations);
}

TEST_CASE("shapes moving apart or missing each other are separated at maxFraction") {
  const Circle c{{0.0f, 0.0f}, 0.5f};
  ToiInput in;
  in.proxyA = MakeProxy(c);
  in.proxyB = MakeProxy(c);
  in.sweepA = Still({0.0f, 0.0f});
  in.sweepB = {{0.0f, 0.0f}, {2.0f, 0.0f}, {5.0f, 0.0f}, 0.0f, 0.0f};  // away
  ToiOutput out = TimeOfImpact(in);
  CHECK(out.status == ToiStatus::Separated);
  CHECK(out.fraction == 1.0f);
  in.sweepB = {{0.0f, 0.0f}, {-5.0f, 2.0f}, {5.0f, 2.0f}, 0.0f, 0.0f};  // passes 1 m above the surface
  in.maxFraction = 0.75f;
  out = TimeOfImpact(in);
  CHECK(out.status == ToiStatus::Separated);
  CHECK(out.fraction == 0.75f);
}

TEST_CASE("shapes closer than the target at the start report overlapping at fraction 0") {
  const Polygon box = MakeBox(0.5f, 0.5f).value;
  ToiInput in;
  in.proxyA = MakeProxy(box);
  in.proxyB = MakeProxy(box);
  in.sweepA = Still({0.0f, 0.0f});
  in.sweepB = {{0.0f, 0.0f}, {0.9f, 0.0f}, {3.0f, 0.0f}, 0.0f, 0.0f};
  ToiOutput out = TimeOfImpact(in);
  CHECK(out.status == ToiStatus::Overlapping);
  CHECK(out.fraction == 0.0f);
}

TEST_CASE("NaN or infinite sweeps and bad settings are invalid input at fraction 0") {
  const Circle c{{0.0f, 0.0f}, 0.5f};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  ToiInput good;
  good.proxyA = MakeProxy(c);
  good.proxyB = MakeProxy(c);
  good.sweepA = Still({0.0f, 0.0f});
  good.sweepB = {{0.0f, 0.0f}, {3.0f, 0.0f}, {-3.0f, 0.0f}, 0.0f, 0.0f};
  CHECK(TimeOfImpact(good).status == ToiStatus::Hit);
  for (int k = 0; k < 8; ++k) {
    ToiInput in = good;
    switch (k) {
      case 0:
        in.sweepB.c2.x = nan;
        break;
      case 1:
        in.sweepA.c1.y = inf;
        break;
      case 2:
        in.sweepB.a2 = nan;
        break;
      case 3:
        in.sweepA.localCenter.x = nan;
        break;
      case 4:
        in.maxFraction = nan;
        break;
      case 5:
        in.maxFraction = 1.5f;
        break;
      case 6:
        in.tolerance = 0.0f;
        break;
      default:
        in.proxyB = ShapeProxy{};
        break;
    }
    ToiOutput out = TimeOfImpact(in);
    CHECK(out.status == ToiStatus::InvalidInput);
    CHECK(out.fraction == 0.0f);
  }
}

TEST_CASE("random sweeps never pass closer than the target before the reported fraction") {
  // Independent check: GJK distance sampled at 64 fractions before the answer stays above
  // target - tolerance, and a hit is within the tolerance of the target.
  test::Rng rng(1313);
  const Polygon box = MakeBox(0.4f, 0.1f).value;
  const Capsule capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.1f};
  const Circle circle{{0.1f, 0.0f}, 0.2f};
  const ShapeProxy proxies[3] = {MakeProxy(box), MakeProxy(capsule), MakeProxy(circle)};
  int hits = 0, caps = 0;
  for (int i = 0; i < 500; ++i) {
    ToiInput in;
    in.proxyA = proxies[rng.Int(0, 2)];
    in.proxyB = proxies[rng.Int(0, 2)];
    in.sweepA = {rng.InBox(0.2f), rng.InBox(3.0f), rng.InBox(3.0f), rng.Uniform(-3, 3), rng.Uniform(-3, 3)};
    in.sweepB = {rng.InBox(0.2f), rng.InBox(3.0f), rng.InBox(3.0f), rng.Uniform(-3, 3), rng.Uniform(-3, 3)};
    ToiOutput out = TimeOfImpact(in);
    REQUIRE(out.status != ToiStatus::InvalidInput);
    if (out.status == ToiStatus::Overlapping) continue;
    hits += out.status == ToiStatus::Hit ? 1 : 0;
    caps += out.status == ToiStatus::IterationCap ? 1 : 0;
    for (int k = 0; k < 64; ++k) {
      const float t = out.fraction * static_cast<float>(k) / 64.0f;
      CHECK(SeparationAt(in, t) >= in.target - in.tolerance);
    }
    if (out.status == ToiStatus::Hit) CHECK(std::fabs(out.separation - in.target) <= in.tolerance + 1e-5f);
  }
  MESSAGE("hits " << hits << ", iteration caps " << caps);
  CHECK(hits > 50);
}
}  // TEST_SUITE("narrowphase.time_of_impact")
