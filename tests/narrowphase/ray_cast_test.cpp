// SPDX-License-Identifier: MIT
// RayCastShape and ShapeCast against independent answers: closed forms in double precision for
// circles and segments, and for every shape type a sphere trace in double over the exact signed
// distance of oracle.h (each step moves by the distance to the surface, so it never steps past the
// first entry). Also the uniform cast API (cast_types.h): ShapeCast on proxies, MakeProxy on raw
// points and the point cast, locally and through the World.
#include "minkowski/ray_cast.h"

#include "minkowski/distance.h"
#include "minkowski/world.h"
#include "narrowphase/oracle.h"
#include "test_util.h"
#include "world/world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace mk;
using oracle::DVec2;

TEST_SUITE("ray_cast") {
namespace {

// Random shape of the given type (0 circle, 1 capsule, 2 segment, 3 sharp polygon, 4 rounded polygon,
// 5 polygon of more than 8 vertices, stored out of line).
ShapeGeometry RandomShape(test::Rng& rng, int type) {
  switch (type) {
    case 0:
      return MakeCircle(rng.InBox(0.5f), rng.Uniform(0.1f, 2.0f)).value;
    case 1:
      return MakeCapsule(rng.InBox(1.0f), rng.InBox(1.0f) + Vec2{2.1f, 0.0f}, rng.Uniform(0.05f, 1.0f)).value;
    case 2:
      return MakeSegment(rng.InBox(1.5f), rng.InBox(1.5f) + Vec2{0.0f, 3.1f}).value;
    default: {
      std::vector<Vec2> points;
      const int n = type == 5 ? 40 : rng.Int(3, 8);
      for (int i = 0; i < n; ++i) points.push_back(rng.InBox(1.5f));
      GeometryResult<Polygon> polygon = MakePolygon(points, type == 4 ? rng.Uniform(0.02f, 0.8f) : 0.0f);
      if (!polygon.ok()) return MakeBox(0.7f, 0.4f).value;
      return polygon.value;
    }
  }
}

// The first entry of the ray into the placed shape, by sphere tracing in double; -1 for a miss or an
// origin inside; -2 when the ray grazes the shape too closely to decide.
double TraceEntry(const ShapeGeometry& shape, const Transform& xf, Vec2 origin, Vec2 translation,
                  double tMax) {
  const oracle::WorldShape placed = oracle::Place(MakeProxy(shape), xf);
  const DVec2 o{origin.x, origin.y}, d{translation.x, translation.y};
  const double length = oracle::DLength(d);
  if (oracle::SignedDistanceToSurface(placed, o) < 0.0) return -1.0;
  double t = 0.0;
  for (int step = 0; step < 20000; ++step) {
    const double f = oracle::SignedDistanceToSurface(placed, o + t * d);
    if (f < 1e-9) return t;
    t += f / length;
    if (t > tMax) return -1.0;
  }
  return -2.0;
}

// The smallest distance between the ray (t in [0, tMax]) and the shape's surface, sampled: tells a
// grazing ray (where float and double may disagree on hit or miss) from a clear one.
double ClosestApproach(const ShapeGeometry& shape, const Transform& xf, Vec2 origin, Vec2 translation,
                       double tMax) {
  const oracle::WorldShape placed = oracle::Place(MakeProxy(shape), xf);
  const DVec2 o{origin.x, origin.y}, d{translation.x, translation.y};
  double best = INFINITY;
  for (int i = 0; i <= 4000; ++i) {
    best = std::fmin(best, std::fabs(oracle::SignedDistanceToSurface(placed, o + (tMax * i / 4000.0) * d)));
  }
  return best;
}

}  // namespace

TEST_CASE("a ray against a circle enters where the closed form in double says") {
  test::Rng rng(11);
  int hits = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Vec2 center = rng.InBox(10.0f);
    const float radius = rng.LogUniform(0.01f, 5.0f);
    const Vec2 origin = rng.InBox(20.0f);
    const Vec2 aim = center + rng.InBox(1.2f * radius) - origin;
    const Vec2 translation = rng.Uniform(0.3f, 2.0f) * aim;
    const CastOutput out =
        RayCastShape(MakeCircle(center, radius).value, Transform{}, {origin, translation, 1.0f});
    // |o + t d - c| = r: a t^2 + 2 b t + c = 0, smaller root, in double.
    const double sx = double(origin.x) - center.x, sy = double(origin.y) - center.y;
    const double a = double(translation.x) * translation.x + double(translation.y) * translation.y;
    const double b = sx * translation.x + sy * translation.y;
    const double c = sx * sx + sy * sy - double(radius) * radius;
    const double disc = b * b - a * c;
    double expected = -1.0;
    if (c > 0.0 && disc >= 0.0) {
      const double t = (-b - std::sqrt(disc)) / a;
      if (t >= 0.0 && t <= 1.0) expected = t;
    }
    // Skip rays within float rounding of grazing the circle or of ending on it.
    const double margin = 1e-4 * radius;
    const double r2 = double(radius) * radius;
    if (std::fabs(std::sqrt(std::fmax(r2 - disc / a, 0.0)) - radius) < margin) continue;  // the line grazes
    if (std::fabs(std::sqrt(c + r2) - radius) < margin) continue;  // the origin is on the circle
    if (expected >= 0.0 && std::fabs(expected - 1.0) * std::sqrt(a) < margin) continue;
    REQUIRE(out.hit == (expected >= 0.0));
    if (!out.hit) continue;
    ++hits;
    CHECK(std::fabs(out.fraction - expected) <= 1e-5);
    CHECK(test::Near(out.point, origin + out.fraction * translation, 1e-5f * (1.0f + Length(origin))));
    const Vec2 expectedNormal = Normalize(out.point - center);
    CHECK(test::Near(out.normal, expectedNormal, 1e-3f));
  }
  CHECK(hits > 8000);
}

TEST_CASE("a ray against a segment hits from either side where the double intersection says") {
  test::Rng rng(12);
  int hits = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Vec2 p1 = rng.InBox(10.0f), p2 = rng.InBox(10.0f);
    if (Distance(p1, p2) < 0.1f) continue;
    const Vec2 origin = rng.InBox(20.0f);
    const Vec2 translation = rng.Uniform(0.5f, 2.0f) * (Lerp(p1, p2, rng.Uniform(-0.2f, 1.2f)) - origin);
    const CastOutput out = RayCastShape(MakeSegment(p1, p2).value, Transform{}, {origin, translation, 1.0f});
    const DVec2 o{origin.x, origin.y}, d{translation.x, translation.y}, a{p1.x, p1.y},
        e{p2.x - double(p1.x), p2.y - double(p1.y)};
    const double den = oracle::DCross(d, e);
    const double t = oracle::DCross(a - o, e) / den, s = oracle::DCross(a - o, d) / den;
    // Skip ends: rays that cross within rounding of an end point or of the ray's end.
    if (std::fabs(s) < 1e-4 || std::fabs(s - 1.0) < 1e-4 || std::fabs(t - 1.0) < 1e-4) continue;
    const bool expected = t >= 0.0 && t <= 1.0 && s >= 0.0 && s <= 1.0;
    REQUIRE(out.hit == expected);
    if (!out.hit) continue;
    ++hits;
    CHECK(std::fabs(out.fraction - t) <= 1e-5);
    CHECK(Dot(out.normal, translation) < 0.0f);
    CHECK(std::fabs(Dot(out.normal, p2 - p1)) <= 1e-5f * Distance(p1, p2));
    CHECK(std::fabs(Length(out.normal) - 1.0f) <= 1e-5f);
  }
  CHECK(hits > 4000);
}

TEST_CASE("a ray against every shape type enters where a double sphere trace of the exact distance does") {
  test::Rng rng(13);
  int hits = 0, checked = 0, grazing = 0;
  for (int trial = 0; trial < 12000; ++trial) {
    const int type = trial % 6;
    const ShapeGeometry shape = RandomShape(rng, type);
    const Transform xf = MakeTransform(rng.InBox(5.0f), rng.Uniform(-3.14f, 3.14f));
    const AABB box = ComputeAABB(shape, xf);
    const Vec2 origin = rng.InBox(12.0f);
    const Vec2 target =
        Lerp(box.lower, box.upper, rng.Uniform(-0.2f, 1.2f)) + Vec2{0.0f, rng.Uniform(-0.5f, 0.5f)};
    const Vec2 translation = rng.Uniform(0.5f, 2.0f) * (target - origin);
    const CastOutput out = RayCastShape(shape, xf, {origin, translation, 1.0f});
    const double expected = TraceEntry(shape, xf, origin, translation, 1.0);
    const bool expectedHit = expected >= 0.0;
    if (expected == -2.0 || out.hit != expectedHit) {
      // Only a ray that grazes the surface (or ends on it) may be decided differently in float.
      const double approach = ClosestApproach(shape, xf, origin, translation, 1.0);
      CHECK(approach < 1e-4);
      ++grazing;
      continue;
    }
    ++checked;
    if (!out.hit) continue;
    ++hits;
    INFO("type " << type << " trial " << trial);
    CHECK(std::fabs(out.fraction - expected) <= 1e-5);
    // The normal is the outward normal of the surface at the hit: moving along it leaves the shape.
    CHECK(std::fabs(Length(out.normal) - 1.0f) <= 1e-5f);
    CHECK(Dot(out.normal, translation) <= 0.0f);
    const oracle::WorldShape placed = oracle::Place(MakeProxy(shape), xf);
    const DVec2 p{out.point.x, out.point.y}, n{out.normal.x, out.normal.y};
    CHECK(oracle::SignedDistanceToSurface(placed, p + 1e-3 * n) > 0.9e-3);
  }
  CHECK(checked > 11900);
  CHECK(grazing < 20);
  CHECK(hits > 5000);
}

TEST_CASE("a ray stops at maxFraction / misses from inside / and ignores a zero translation") {
  const ShapeGeometry box = MakeBox(1.0f, 1.0f).value;
  const ShapeGeometry capsule = MakeCapsule({-1.0f, 0.0f}, {1.0f, 0.0f}, 0.5f).value;
  CastOutput out = RayCastShape(box, Transform{}, {{-5.0f, 0.0f}, {10.0f, 0.0f}, 1.0f});
  REQUIRE(out.hit);
  CHECK(out.fraction == doctest::Approx(0.4));
  CHECK(test::Near(out.normal, {-1.0f, 0.0f}, 1e-6f));
  CHECK_FALSE(RayCastShape(box, Transform{}, {{-5.0f, 0.0f}, {10.0f, 0.0f}, 0.39f}).hit);
  CHECK_FALSE(RayCastShape(box, Transform{}, {{0.0f, 0.0f}, {10.0f, 0.0f}, 1.0f}).hit);
  CHECK_FALSE(RayCastShape(capsule, Transform{}, {{1.2f, 0.1f}, {-10.0f, 0.0f}, 1.0f}).hit);
  CHECK_FALSE(RayCastShape(box, Transform{}, {{-5.0f, 0.0f}, {0.0f, 0.0f}, 1.0f}).hit);
  // A capsule's end cap: the ray along its axis enters the disc at x = -1.5.
  out = RayCastShape(capsule, MakeTransform({0.0f, 0.0f}, 0.0f), {{-4.0f, 0.0f}, {4.0f, 0.0f}, 1.0f});
  REQUIRE(out.hit);
  CHECK(out.fraction == doctest::Approx(2.5 / 4.0));
  CHECK(test::Near(out.normal, {-1.0f, 0.0f}, 1e-6f));
  // A rounded box's flat side at x = 1.25 and its rounded corner.
  const ShapeGeometry rounded = MakeRoundedBox(1.0f, 1.0f, 0.25f).value;
  out = RayCastShape(rounded, Transform{}, {{5.0f, 0.5f}, {-5.0f, 0.0f}, 1.0f});
  REQUIRE(out.hit);
  CHECK(out.fraction == doctest::Approx(3.75 / 5.0));
  out = RayCastShape(rounded, Transform{}, {{5.0f, 5.0f}, {-5.0f, -5.0f}, 1.0f});
  REQUIRE(out.hit);
  CHECK(out.point.x == doctest::Approx(1.0 + 0.25 / std::sqrt(2.0)).epsilon(1e-5));
  CHECK(test::Near(out.normal, Normalize({1.0f, 1.0f}), 1e-5f));
}

TEST_CASE("bad ray input asserts and hits nothing") {
  const ShapeGeometry box = MakeBox(1.0f, 1.0f).value;
  test::AssertCounter asserts;
  const float nan = std::nanf("");
  CHECK_FALSE(RayCastShape(box, Transform{}, {{nan, 0.0f}, {10.0f, 0.0f}, 1.0f}).hit);
  CHECK_FALSE(RayCastShape(box, Transform{}, {{-5.0f, 0.0f}, {nan, 0.0f}, 1.0f}).hit);
  CHECK_FALSE(RayCastShape(box, Transform{}, {{-5.0f, 0.0f}, {10.0f, 0.0f}, -1.0f}).hit);
  CHECK_FALSE(RayCastShape(box, Transform{}, {{-5.0f, 0.0f}, {1e30f, 0.0f}, 1.0f}).hit);
  CHECK_FALSE(RayCastShape(ShapeGeometry{}, Transform{}, {{-5.0f, 0.0f}, {10.0f, 0.0f}, 1.0f}).hit);
  CHECK_FALSE(ShapeCast(box, Transform{}, ShapeGeometry{}, Transform{}, {1.0f, 0.0f}).hit);
  CHECK_FALSE(ShapeCast(box, Transform{}, box, MakeTransform({5.0f, 0.0f}, 0.0f), {nan, 0.0f}).hit);
  Circle broken;
  broken.center = {nan, 0.0f};
  CHECK_FALSE(RayCastShape(broken, Transform{}, {{-5.0f, 0.0f}, {10.0f, 0.0f}, 1.0f}).hit);
  CHECK_FALSE(ShapeCast(box, Transform{}, broken, Transform{}, {1.0f, 0.0f}).hit);
  CHECK(asserts.Count() == 9);
}

TEST_CASE("a circle cast stops within the tolerance before the first contact - for every target type") {
  // A circle of radius rc swept along a translation touches a shape when its centre enters the
  // shape grown by rc: the double sphere trace on the grown shape gives the exact first contact.
  test::Rng rng(14);
  int hits = 0, grazing = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const int type = trial % 6;
    const ShapeGeometry shape = RandomShape(rng, type);
    const Transform xf = MakeTransform(rng.InBox(5.0f), rng.Uniform(-3.14f, 3.14f));
    const float rc = rng.Uniform(0.05f, 1.0f);
    const Vec2 start = rng.InBox(12.0f);
    const AABB box = ComputeAABB(shape, xf);
    const Vec2 translation =
        rng.Uniform(0.5f, 2.0f) * (Lerp(box.lower, box.upper, rng.Uniform(-0.3f, 1.3f)) - start);
    const CastOutput out =
        ShapeCast(shape, xf, MakeCircle({0.0f, 0.0f}, rc).value, MakeTransform(start, 0.0f), translation);
    // The grown shape, as the oracle sees it: the same core with radius + rc.
    oracle::WorldShape grown = oracle::Place(MakeProxy(shape), xf);
    grown.radius += rc;
    const DVec2 o{start.x, start.y}, d{translation.x, translation.y};
    double expected = -1.0;
    if (oracle::SignedDistanceToSurface(grown, o) <= 0.0) {
      expected = 0.0;
    } else {
      double t = 0.0;
      for (int step = 0; step < 20000 && t <= 1.0; ++step) {
        const double f = oracle::SignedDistanceToSurface(grown, o + t * d);
        if (f < 1e-9) {
          expected = t;
          break;
        }
        t += f / oracle::DLength(d);
      }
    }
    INFO("type " << type << " trial " << trial);
    if (out.hit != (expected >= 0.0)) {
      // Only grazing casts (within the tolerance of touching) may be decided either way.
      double approach = INFINITY;
      for (int i = 0; i <= 4000; ++i)
        approach = std::fmin(approach, oracle::SignedDistanceToSurface(grown, o + (i / 4000.0) * d));
      CHECK(std::fabs(approach) < 2.0 * kShapeCastTolerance);
      ++grazing;
      continue;
    }
    if (!out.hit) continue;
    ++hits;
    // Never past the first contact, and stopped with the surfaces within the tolerance.
    CHECK(out.fraction <= expected + 1e-6);
    const double gap = oracle::SignedDistanceToSurface(grown, o + double(out.fraction) * d);
    CHECK(gap <= kShapeCastTolerance + 1e-5);
    if (expected > 0.0) CHECK(gap >= -1e-5);
    if (expected > 0.0) CHECK(std::fabs(Length(out.normal) - 1.0f) <= 1e-4f);
  }
  CHECK(hits > 2000);
  CHECK(grazing < 20);
}

TEST_CASE("a box cast onto a box face stops at the gap - with the face's normal") {
  const ShapeGeometry box = MakeBox(1.0f, 1.0f).value;
  const CastOutput out = ShapeCast(box, Transform{}, MakeBox(0.5f, 0.5f).value,
                                   MakeTransform({5.0f, 0.3f}, 0.0f), {-8.0f, 0.0f});
  REQUIRE(out.hit);
  // The gap is 5 - 0.5 - 1 = 3.5 m of an 8 m translation, less at most the tolerance.
  CHECK(out.fraction <= 3.5f / 8.0f + 1e-6f);
  CHECK(out.fraction >= (3.5f - kShapeCastTolerance) / 8.0f - 1e-6f);
  CHECK(test::Near(out.normal, {1.0f, 0.0f}, 1e-5f));
  CHECK(out.point.x == doctest::Approx(1.0).epsilon(1e-5));
  // Moving away or passing by: no hit; starting in overlap: fraction 0.
  CHECK_FALSE(ShapeCast(box, Transform{}, box, MakeTransform({5.0f, 0.0f}, 0.0f), {8.0f, 0.0f}).hit);
  CHECK_FALSE(ShapeCast(box, Transform{}, box, MakeTransform({5.0f, 3.0f}, 0.0f), {-8.0f, 0.0f}).hit);
  const CastOutput overlap =
      ShapeCast(box, Transform{}, box, MakeTransform({0.5f, 0.0f}, 0.0f), {1.0f, 0.0f});
  CHECK(overlap.hit);
  CHECK(overlap.fraction == 0.0f);
}
// Issue 28: a box cast onto a large box stopped within the distance query's touching band, which grows
// with the pair's size (about 16 float ulps of it: 5e-5 m at 28 m), where GJK reports overlapping cores
// and gives no normal; the cast returned a hit with the normal (0, 0). A cast that advanced from a
// separated start has a contact normal: the touching normal, or the last separating one.
TEST_CASE("a cast onto a large shape far from the origin has the face's normal and the analytic fraction") {
  // The reported case: a 56 m wide static box, a 1 m box cast down onto its top face.
  const CastOutput reported =
      ShapeCast(MakeBox(28.0f, 1.0f).value, MakeTransform({0.0f, -1.0f}, 0.0f), MakeBox(0.5f, 0.5f).value,
                MakeTransform({0.2f, 3.0f}, 0.0f), {0.3f, -5.0f});
  REQUIRE(reported.hit);
  CHECK(test::Near(reported.normal, {0.0f, 1.0f}, 1e-5f));
  CHECK(reported.fraction == doctest::Approx(2.5 / 5.0).epsilon(1e-4));

  test::Rng rng(2810);
  int cases = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    // A: a box of half width 4..400 m, half height 0.2..5 m, turned, up to 2 km from the origin.
    const float halfWidth = rng.LogUniform(4.0f, 400.0f), halfHeight = rng.Uniform(0.2f, 5.0f);
    const float angle = rng.Uniform(-3.1f, 3.1f);
    const Transform xfA = MakeTransform(rng.InBox(2000.0f), angle);
    const Vec2 n = Rotate(xfA.q, {0.0f, 1.0f}), tangent = Rotate(xfA.q, {1.0f, 0.0f});
    // B: a small polygon (at most a tenth of the face) above the top face's middle, moving into it and
    // drifting sideways by at most a tenth of the face, so the face is what it meets first.
    const float size = rng.Uniform(0.1f, std::min(2.0f, 0.1f * halfWidth));
    const ShapeGeometry shapeB = rng.Int(0, 1) == 0 ? MakeBox(size, 0.5f * size).value
                                                    : MakeRegularPolygon(rng.Int(3, 8), size, 0.0f).value;
    const float along = rng.Uniform(-0.3f, 0.3f) * halfWidth;
    const float lift = halfHeight + 2.0f * size + rng.Uniform(0.01f, 5.0f);
    const Transform xfB = MakeTransform(xfA.p + along * tangent + lift * n, rng.Uniform(-3.1f, 3.1f));
    const float speed = rng.Uniform(1.0f, 3.0f) * lift;
    const Vec2 translation = -speed * n + rng.Uniform(-0.1f, 0.1f) * halfWidth * tangent;
    // In double: the gap along n from B's lowest vertex to the face plane, and the fraction that closes
    // it (the sideways drift does not change the gap).
    // (std::min, not std::fmin: Debian's g++-aarch64-linux-gnu 12 stops with an internal compiler error
    // vectorising an fmin reduction at -O3, vect_transform_reduction.)
    double lowest = INFINITY;
    for (int i = 0; i < shapeB.Count(); ++i) {
      const Vec2 p = TransformPoint(xfB, shapeB.Points()[i]);
      lowest = std::min(lowest, (double(p.x) - xfA.p.x) * n.x + (double(p.y) - xfA.p.y) * n.y);
    }
    const double gap = lowest - halfHeight;
    const double closing = -(double(translation.x) * n.x + double(translation.y) * n.y);
    const CastOutput out = ShapeCast(MakeBox(halfWidth, halfHeight).value, xfA, shapeB, xfB, translation);
    // The cast's tolerance, or the rounding of coordinates this far out (8 float ulps of them).
    const double slack = kShapeCastTolerance + 1e-6 * (Length(xfA.p) + halfWidth + lift);
    INFO("trial " << trial << " half width " << halfWidth << " at " << xfA.p.x << ", " << xfA.p.y);
    REQUIRE(out.hit);
    CHECK(std::fabs(Length(out.normal) - 1.0f) < 1e-4f);
    CHECK(Dot(out.normal, n) > 0.9999f);
    CHECK(out.fraction <= (gap + slack) / closing);
    CHECK(out.fraction >= (gap - slack) / closing);
    ++cases;
  }
  CHECK(cases == 4000);
}

TEST_CASE("a point cast on a one-point proxy stops where a double sphere trace enters the shape") {
  test::Rng rng(2911);
  int hits = 0, misses = 0, grazing = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const ShapeGeometry shape = RandomShape(rng, trial % 6);
    const Transform xf = MakeTransform(rng.InBox(4.0f), rng.Uniform(-3.1f, 3.1f));
    const Vec2 point = rng.InBox(10.0f);
    const AABB box = ComputeAABB(shape, xf);
    const Vec2 translation =
        rng.Uniform(0.5f, 2.0f) * (Lerp(box.lower, box.upper, rng.Uniform(-0.3f, 1.3f)) - point);
    ShapeCastInput input;
    input.proxyA = MakeProxy(shape);
    input.proxyB = MakeProxy(&point, 1, 0.0f);
    input.transformA = xf;
    input.translationB = translation;  // transformB is the identity: the point is in world coordinates
    const CastOutput out = ShapeCast(input);

    const oracle::WorldShape placed = oracle::Place(MakeProxy(shape), xf);
    const DVec2 o{point.x, point.y}, d{translation.x, translation.y};
    // The ray's exact entry (-1: it starts inside, or misses); a point inside is hit at once.
    const bool inside = oracle::SignedDistanceToSurface(placed, o) <= 0.0;
    const double expected = inside ? 0.0 : TraceEntry(shape, xf, point, translation, 1.0);
    if (expected == -2.0) continue;  // grazing too closely to call
    INFO("trial " << trial);
    if (out.hit != (expected >= 0.0)) {
      double approach = INFINITY;  // only a grazing point may be decided either way
      for (int i = 0; i <= 4000; ++i)
        approach = std::fmin(approach, oracle::SignedDistanceToSurface(placed, o + (i / 4000.0) * d));
      CHECK(std::fabs(approach) < 2.0 * kShapeCastTolerance);
      ++grazing;
      continue;
    }
    if (!out.hit) {
      ++misses;
      continue;
    }
    ++hits;
    CHECK(out.fraction <= expected + 1e-6);
    const double gap = oracle::SignedDistanceToSurface(placed, o + double(out.fraction) * d);
    CHECK(gap <= kShapeCastTolerance + 1e-5);
    if (expected > 0.0) CHECK(gap >= -1e-5);
  }
  CHECK(hits > 2000);
  CHECK(misses > 500);
  CHECK(grazing < 20);
}

TEST_CASE("raw proxies measure the closed-form distance of segments and capsules") {
  test::Rng rng(2912);
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec2 a[2] = {rng.InBox(3.0f), rng.InBox(3.0f)};
    const Vec2 b[2] = {rng.InBox(3.0f) + Vec2{7.0f, 0.0f}, rng.InBox(3.0f) + Vec2{7.0f, 0.0f}};
    const float ra = rng.Uniform(0.0f, 0.5f), rb = rng.Uniform(0.0f, 0.5f);
    DistanceInput input;
    input.proxyA = MakeProxy(a, 2, ra);
    input.proxyB = MakeProxy(b, 2, rb);
    REQUIRE(input.proxyA.count == 2);
    const DistanceOutput out = ShapeDistance(input, nullptr);
    const double exact = oracle::SegmentSegmentDistance({a[0].x, a[0].y}, {a[1].x, a[1].y}, {b[0].x, b[0].y},
                                                        {b[1].x, b[1].y}) -
                         ra - rb;
    INFO("trial " << trial);
    CHECK(out.distance == doctest::Approx(exact).epsilon(1e-5));
  }
}

TEST_CASE("MakeProxy on raw points refuses what support mapping cannot use") {
  test::AssertCounter asserts;
  const float nan = std::nanf("");
  const Vec2 ccw[4] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}};
  const Vec2 cw[3] = {{0.0f, 0.0f}, {0.0f, 1.0f}, {1.0f, 0.0f}};
  const Vec2 bowtie[4] = {{0.0f, 0.0f}, {1.0f, 1.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}};
  const Vec2 collinear[3] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {2.0f, 0.0f}};
  const Vec2 broken[2] = {{0.0f, 0.0f}, {nan, 1.0f}};
  std::vector<Vec2> many(kMaxPolygonVertices + 1);
  for (int i = 0; i < kMaxPolygonVertices + 1; ++i) many[i] = {std::cos(0.09f * i), std::sin(0.09f * i)};
  // Accepted: a point, a segment, a counter-clockwise convex polygon, each with any radius >= 0.
  CHECK(MakeProxy(ccw, 1, 0.0f).count == 1);
  CHECK(MakeProxy(ccw, 2, 0.3f).count == 2);
  CHECK(MakeProxy(ccw, 4, 0.0f).count == 4);
  CHECK(MakeProxy(ccw, 4, 0.0f).points == ccw);
  CHECK(asserts.Count() == 0);
  // Refused, each with one assert and an empty proxy.
  CHECK(MakeProxy(nullptr, 1, 0.0f).count == 0);
  CHECK(MakeProxy(ccw, 0, 0.0f).count == 0);
  CHECK(MakeProxy(many.data(), kMaxPolygonVertices + 1, 0.0f).count == 0);
  CHECK(MakeProxy(ccw, 2, -0.1f).count == 0);
  CHECK(MakeProxy(ccw, 2, nan).count == 0);
  CHECK(MakeProxy(broken, 2, 0.0f).count == 0);
  CHECK(MakeProxy(cw, 3, 0.0f).count == 0);
  CHECK(MakeProxy(bowtie, 4, 0.0f).count == 0);
  CHECK(MakeProxy(collinear, 3, 0.0f).count == 0);
  CHECK(asserts.Count() == 9);
  // Every query refuses the empty proxy rather than reading it.
  ShapeCastInput input;
  input.proxyA = MakeProxy(ccw, 4, 0.0f);
  input.translationB = {1.0f, 0.0f};
  CHECK_FALSE(ShapeCast(input).hit);
  CHECK(asserts.Count() == 10);
  DistanceInput distance;
  distance.proxyA = input.proxyA;
  CHECK(ShapeDistance(distance, nullptr).status == DistanceStatus::InvalidInput);
}

TEST_CASE("a point cast through the World stops where the World's exact ray enters") {
  // A zero-radius circle is a point for every query (MakeCircle refuses it only as a body's shape).
  World world;
  const BodyId ground = world.CreateBody({});
  test::Rng rng(2913);
  for (int i = 0; i < 30; ++i) {
    const Vec2 at = rng.InBox(20.0f);
    if (i % 2 == 0) {
      world.CreateShape(ground, {}, MakeOffsetBox(1.0f, 0.5f, at, rng.Uniform(-3.0f, 3.0f)).value);
    } else {
      world.CreateShape(ground, {}, MakeCircle(at, 0.8f).value);
    }
  }
  int hits = 0, grazing = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const Vec2 from = rng.InBox(25.0f), translation = rng.InBox(30.0f);
    bool inside = false;  // a ray from inside a shape passes it; the point cast stops there at once
    world.OverlapPoint(from, {}, [&](ShapeId) { return !(inside = true); });
    if (inside) continue;
    const CastHit ray = world.CastRayClosest(from, translation);
    const CastHit point = world.CastShapeClosest(Circle{from, 0.0f}, Transform{}, translation);
    INFO("trial " << trial);
    if (!ray.hit) {
      grazing += point.hit ? 1 : 0;  // a point passing within the cast tolerance of a shape stops there
      continue;
    }
    ++hits;
    REQUIRE(point.hit);
    CHECK(point.shape == ray.shape);
    CHECK(point.fraction <= ray.fraction + 1e-6f);
    // Stopped within the cast tolerance of the surface: measured along the surface normal at the
    // ray's entry, the gap the point leaves before it is at most the tolerance (plus rounding).
    CHECK((ray.fraction - point.fraction) * std::fabs(Dot(translation, ray.normal)) <=
          kShapeCastTolerance + 1e-5f);
  }
  CHECK(hits > 100);
  CHECK(grazing <= 2);
}
}  // TEST_SUITE("ray_cast")
