// SPDX-License-Identifier: MIT
// SweepClearOfSegmentLine, the continuous stage's test that lets a fast shape skip the time of impact
// against a static segment whose line it never comes near. The independent answer: the swept shape's
// distance to the line, computed exactly at 1001 fractions of the sweep (its core points' signed
// distances, less the radii), and the time of impact itself, which must find nothing whenever the test
// says the sweep is clear. Random boxes (rounded or not, centres of mass off their middle), segments
// with and without radius, moves up to 2 m and turns up to 4 rad (beyond half a turn too).
#include "world/body_sweep.h"

#include "minkowski/time_of_impact.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>

using namespace mk;

namespace {

struct SweptBox {
  std::array<Vec2, 4> points;
  ShapeProxy proxy;
  Sweep sweep;
};

SweptBox RandomSweptBox(test::Rng& rng) {
  SweptBox box;
  const float hx = rng.Uniform(0.05f, 1.0f), hy = rng.Uniform(0.05f, 1.0f);
  const Vec2 middle{rng.Uniform(-0.5f, 0.5f), rng.Uniform(-0.5f, 0.5f)};
  box.points = {middle + Vec2{-hx, -hy}, middle + Vec2{hx, -hy}, middle + Vec2{hx, hy},
                middle + Vec2{-hx, hy}};
  box.proxy = ShapeProxy{box.points.data(), 4, rng.Unit() < 0.5 ? 0.0f : rng.Uniform(0.0f, 0.2f)};
  box.sweep.localCenter = middle + Vec2{rng.Uniform(-0.2f, 0.2f), rng.Uniform(-0.2f, 0.2f)};
  // Centres from the segment's line (the x axis, below) to 3 m above or below it.
  box.sweep.c1 = {rng.Uniform(-2.0f, 2.0f), rng.Uniform(-3.0f, 3.0f)};
  box.sweep.c2 = box.sweep.c1 + Vec2{rng.Uniform(-2.0f, 2.0f), rng.Uniform(-2.0f, 2.0f)};
  box.sweep.a1 = rng.Uniform(-3.0f, 3.0f);
  box.sweep.a2 = box.sweep.a1 + rng.Uniform(-4.0f, 4.0f);
  return box;
}

// The shape's distance (m) to the line through the segment at fraction t: 0 or less when its core
// points lie on both sides.
float DistanceToLine(const SweptBox& box, const Vec2 segment[2], float segmentRadius, float t) {
  const Transform xf = GetSweepTransform(box.sweep, t);
  const Vec2 edge = segment[1] - segment[0];
  const Vec2 normal = (1.0f / Length(edge)) * Vec2{edge.y, -edge.x};
  float low = 1e30f, high = -1e30f;
  for (const Vec2 point : box.points) {
    const float side = Dot(normal, TransformPoint(xf, point) - segment[0]);
    low = std::min(low, side);
    high = std::max(high, side);
  }
  const float core = low > 0.0f ? low : (high < 0.0f ? -high : 0.0f);
  return core - box.proxy.radius - segmentRadius;
}

}  // namespace

TEST_SUITE("world.continuous") {
TEST_CASE(
    "a sweep called clear of a segment's line stays clear of it at every fraction where the time of impact "
    "finds nothing") {
  test::Rng rng(20261203);
  constexpr float kClearance = kToiDefaultTarget + 2.0f * kToiDefaultTolerance;
  int clearCalls = 0, farSweeps = 0, farCalledClear = 0;
  for (int trial = 0; trial < 12000; ++trial) {
    const SweptBox box = RandomSweptBox(rng);
    // A segment along its body's x axis; the body turned by up to 0.3 rad and moved by up to 0.5 m, so
    // that the line passes near the box's start.
    const Vec2 segment[2] = {{rng.Uniform(-4.0f, -0.5f), 0.0f}, {rng.Uniform(0.5f, 4.0f), 0.0f}};
    const float segmentRadius = rng.Unit() < 0.5 ? 0.0f : rng.Uniform(0.0f, 0.1f);
    const float segmentAngle = rng.Uniform(-0.3f, 0.3f);
    const Transform segmentXf{{rng.Uniform(-0.5f, 0.5f), rng.Uniform(-0.5f, 0.5f)}, MakeRot(segmentAngle)};
    const StillSegment still{ShapeProxy{segment, 2, segmentRadius}, segmentXf};
    const bool clear = SweepClearOfSegmentLine(still, box.proxy, box.sweep, MakeRot(box.sweep.a1),
                                               MakeRot(box.sweep.a2), kClearance);
    const Vec2 placed[2] = {TransformPoint(segmentXf, segment[0]), TransformPoint(segmentXf, segment[1])};
    float lowest = 1e30f;
    for (int i = 0; i <= 1000; ++i)
      lowest = std::min(lowest, DistanceToLine(box, placed, segmentRadius, i / 1000.0f));
    if (clear) {
      ++clearCalls;
      REQUIRE(lowest > kClearance);
      ToiInput input;
      input.proxyA = still.core;
      input.proxyB = box.proxy;
      input.sweepA = Sweep{{0.0f, 0.0f}, segmentXf.p, segmentXf.p, segmentAngle, segmentAngle};
      input.sweepB = box.sweep;
      REQUIRE(TimeOfImpact(input).status == ToiStatus::Separated);
    }
    // Not a test that never says clear: most sweeps that stay 0.5 m away while turning less than a
    // quarter turn are called clear (the bound gives up at most the turn's bulge).
    if (lowest > 0.5f && std::fabs(box.sweep.a2 - box.sweep.a1) < 1.5f) {
      ++farSweeps;
      farCalledClear += clear ? 1 : 0;
    }
  }
  MESSAGE("clear: ", clearCalls, " of 12000; far sweeps called clear: ", farCalledClear, " of ", farSweeps);
  CHECK(clearCalls > 1200);
  CHECK(farCalledClear > 0.8 * farSweeps);
}

TEST_CASE("a sweep across a segment's line or along it within the clearance is never called clear") {
  test::Rng rng(31);
  constexpr float kClearance = kToiDefaultTarget + 2.0f * kToiDefaultTolerance;
  const Vec2 segment[2] = {{-5.0f, 0.0f}, {5.0f, 0.0f}};
  const StillSegment still{ShapeProxy{segment, 2, 0.0f}, Transform{{0.0f, 0.0f}, MakeRot(0.0f)}};
  for (int trial = 0; trial < 2000; ++trial) {
    SweptBox box = RandomSweptBox(rng);
    // Its centre of mass in the box's middle, from above the line to below it: the box crosses it.
    box.sweep.localCenter = 0.25f * (box.points[0] + box.points[1] + box.points[2] + box.points[3]);
    box.sweep.c1.y = rng.Uniform(0.0f, 3.0f);
    box.sweep.c2.y = -rng.Uniform(0.0f, 3.0f);
    CHECK_FALSE(SweepClearOfSegmentLine(still, box.proxy, box.sweep, MakeRot(box.sweep.a1),
                                        MakeRot(box.sweep.a2), kClearance));
  }
  // A circle (one core point at its centre of mass) sliding along the line: clear exactly when its
  // surface stays more than the clearance above it, whatever its spin.
  const Vec2 centre{0.0f, 0.0f};
  for (const float gap : {0.5f * kClearance, 0.99f * kClearance, 1.01f * kClearance, 2.0f * kClearance}) {
    const ShapeProxy circle{&centre, 1, 0.25f};
    const Sweep slide{{0.0f, 0.0f}, {-2.0f, 0.25f + gap}, {2.0f, 0.25f + gap}, 0.0f, 3.0f};
    CHECK(SweepClearOfSegmentLine(still, circle, slide, MakeRot(slide.a1), MakeRot(slide.a2), kClearance) ==
          (gap > kClearance));
  }
}
}  // TEST_SUITE("world.continuous")
