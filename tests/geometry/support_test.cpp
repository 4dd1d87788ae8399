// SPDX-License-Identifier: MIT
#include "minkowski/geometry.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <vector>

using namespace mk;

namespace {

// Minkowski-difference support as the seeds define it: support(A, d) - support(B, -d).
Vec2 MinkowskiSupport(const ShapeProxy& a, const ShapeProxy& b, Vec2 d) {
  return SupportPoint(a, Transform{}, d) - SupportPoint(b, Transform{}, -d);
}

// Largest projection on `dir` over a dense sampling of the shape's boundary: the core's points and
// edges, and around every core point an arc of the radius sampled every `arcStep` radians.
float SampledMaxProjection(const ShapeProxy& proxy, const Transform& xf, Vec2 dir) {
  constexpr int kArcSamples = 4096;  // arc error r (1 - cos(pi / 4096)) ~ 3e-7 r
  float best = -1e30f;
  for (int i = 0; i < proxy.count; ++i) {
    Vec2 p = TransformPoint(xf, proxy.points[i]);
    Vec2 q = TransformPoint(xf, proxy.points[(i + 1) % proxy.count]);
    for (int k = 0; k <= 8; ++k) best = std::max(best, Dot(Lerp(p, q, k / 8.0f), dir));
    if (proxy.radius > 0.0f) {
      for (int k = 0; k < kArcSamples; ++k) {
        double a = 2.0 * std::numbers::pi * k / kArcSamples;
        Vec2 offset{static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))};
        best = std::max(best, Dot(p + proxy.radius * offset, dir));
      }
    }
  }
  return best;
}

Polygon RandomPolygon(test::Rng& rng, int maxCount, float radius) {
  for (;;) {
    int count = rng.Int(3, maxCount);
    std::vector<Vec2> ring(count);
    for (int i = 0; i < count; ++i) {
      double a = 2.0 * std::numbers::pi * (i + 0.4 * rng.Unit()) / count;
      float r = rng.Uniform(0.6f, 1.0f);
      ring[i] = {static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))};
    }
    GeometryResult<Polygon> polygon = MakePolygon(ring, radius);
    if (polygon.ok()) return polygon.value;
  }
}

}  // namespace

TEST_SUITE("geometry.support") {

// Seed 004's shapes: triangle (4,11), (9,9), (4,5) and quadrilateral (5,7), (12,7), (10,2), (7,3).
// Two of its directions hit ties ((4,5)/(4,11) for d = (-1,0); (5,7)/(12,7) for d = (0,-1)); the
// seed takes the first vertex in hull order, which is also our documented tie rule (lowest index).
TEST_CASE("Bittle's GJK article's Minkowski difference points for the four axis directions") {
  std::vector<Vec2> triangle = {{4, 11}, {9, 9}, {4, 5}};
  std::vector<Vec2> quad = {{5, 7}, {12, 7}, {10, 2}, {7, 3}};
  Polygon a = MakePolygon(triangle).value, b = MakePolygon(quad).value;
  ShapeProxy pa = MakeProxy(a), pb = MakeProxy(b);
  CHECK(MinkowskiSupport(pa, pb, {1, 0}) == Vec2(4, 2));
  CHECK(MinkowskiSupport(pa, pb, {-1, 0}) == Vec2(-8, -2));
  CHECK(MinkowskiSupport(pa, pb, {0, 1}) == Vec2(-6, 9));
  CHECK(MinkowskiSupport(pa, pb, {0, -1}) == Vec2(-1, -2));
}

// Seed 000's shapes: triangle (4,5), (9,9), (4,11) and quadrilateral (8,6), (15,6), (13,1), (10,2).
TEST_CASE("Bittle's distance article's support calls") {
  std::vector<Vec2> triangle = {{4, 5}, {9, 9}, {4, 11}};
  std::vector<Vec2> quad = {{8, 6}, {15, 6}, {13, 1}, {10, 2}};
  Polygon a = MakePolygon(triangle).value, b = MakePolygon(quad).value;
  ShapeProxy pa = MakeProxy(a), pb = MakeProxy(b);
  CHECK(MinkowskiSupport(pa, pb, {6.0f, -4.5f}) == Vec2(1, 3));
  CHECK(MinkowskiSupport(pa, pb, {-6.0f, 4.5f}) == Vec2(-9, 10));
  CHECK(MinkowskiSupport(pa, pb, {-1, -3}) == Vec2(-11, -1));
  CHECK(MinkowskiSupport(pa, pb, {0.8f, -2.4f}) == Vec2(-4, -1));
  // The seed's last call uses d = (1.07, -1.34), the rounded normal of edge (-4,-1)-(1,3): in exact
  // arithmetic (4,5) and (9,9) tie, so only the projection is determined.
  Vec2 d = RightPerp(Vec2(1, 3) - Vec2(-4, -1));
  CHECK(Dot(MinkowskiSupport(pa, pb, d), d) == doctest::Approx(Dot(Vec2(1, 3), d)));
}

TEST_CASE("support projection equals the maximum over a dense boundary sampling for every shape" *
          doctest::test_suite("long")) {
  test::Rng rng(4049);
  // Kinds: circle, capsule, segment, sharp and rounded polygons (3..12 vertices: mostly the linear
  // scan), and large sharp and rounded polygons (up to the maximum: the hill-climbing path).
  for (int shapeKind = 0; shapeKind < 7; ++shapeKind) {
    for (int trial = 0; trial < 1000; ++trial) {
      Circle circle{rng.InBox(0.5f), rng.Uniform(0.05f, 1.0f)};
      Capsule capsule{rng.InBox(1.0f), rng.InBox(1.0f), rng.Uniform(0.05f, 1.0f)};
      Segment segment{rng.InBox(1.0f), rng.InBox(1.0f)};
      Polygon sharp = RandomPolygon(rng, 12, 0.0f);
      Polygon rounded = RandomPolygon(rng, 12, rng.Uniform(0.05f, 0.5f));
      Polygon largeSharp = shapeKind >= 5 ? RandomPolygon(rng, kMaxPolygonVertices, 0.0f) : sharp;
      Polygon largeRounded =
          shapeKind >= 5 ? RandomPolygon(rng, kMaxPolygonVertices, rng.Uniform(0.05f, 0.5f)) : rounded;
      ShapeProxy proxies[7] = {MakeProxy(circle),      MakeProxy(capsule), MakeProxy(segment),
                               MakeProxy(sharp),       MakeProxy(rounded), MakeProxy(largeSharp),
                               MakeProxy(largeRounded)};
      const ShapeProxy& proxy = proxies[shapeKind];
      Transform xf = MakeTransform(rng.InBox(10.0f), rng.Uniform(-4.0f, 4.0f));
      Vec2 dir = rng.Direction();
      float support = Dot(SupportPoint(proxy, xf, dir), dir);
      float sampled = SampledMaxProjection(proxy, xf, dir);
      CHECK_MESSAGE(std::fabs(support - sampled) <= 1e-5f * (1.0f + std::fabs(sampled)),
                    "kind " << shapeKind << " trial " << trial);
    }
  }
}

TEST_CASE("hill climbing finds the same support as a linear scan on polygons up to the maximum size") {
  test::Rng rng(1);
  for (int trial = 0; trial < 2000; ++trial) {
    Polygon polygon = RandomPolygon(rng, kMaxPolygonVertices, 0.0f);
    ShapeProxy proxy = MakeProxy(polygon);
    Vec2 dir = rng.Direction();
    int start = rng.Int(0, polygon.count - 1);
    int climbed = FindSupportHillClimb(proxy, dir, start);
    int scanned = FindSupportScan(proxy, dir);
    CHECK(Dot(proxy.points[climbed], dir) == Dot(proxy.points[scanned], dir));
  }
}

TEST_CASE("hill climbing from every start vertex handles exact ties (directions along edge normals)") {
  for (int count : {kHillClimbMinVertices, 16, 33, kMaxPolygonVertices}) {
    Polygon polygon = MakeRegularPolygon(count, 1.5f).value;
    ShapeProxy proxy = MakeProxy(polygon);
    std::vector<Vec2> directions = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    for (int i = 0; i < polygon.count; ++i) directions.push_back(polygon.normals[i]);
    int mismatches = 0;
    for (Vec2 dir : directions) {
      const float best = Dot(proxy.points[FindSupportScan(proxy, dir)], dir);
      for (int start = 0; start < polygon.count; ++start) {
        mismatches += Dot(proxy.points[FindSupportHillClimb(proxy, dir, start)], dir) == best ? 0 : 1;
      }
    }
    CHECK_MESSAGE(mismatches == 0, count << " vertices");
  }
}

TEST_CASE("world AABB of a transformed shape bounds a dense boundary sampling tightly") {
  test::Rng rng(9);
  for (int trial = 0; trial < 200; ++trial) {
    Polygon polygon = RandomPolygon(rng, 10, rng.Uniform(0.0f, 0.3f));
    Transform xf = MakeTransform(rng.InBox(20.0f), rng.Uniform(-4.0f, 4.0f));
    AABB box = ComputeAABB(polygon, xf);
    ShapeProxy proxy = MakeProxy(polygon);
    // The box's faces are exactly the support projections along the axes.
    CHECK(box.upper.x == doctest::Approx(SampledMaxProjection(proxy, xf, {1, 0})).epsilon(1e-5));
    CHECK(box.upper.y == doctest::Approx(SampledMaxProjection(proxy, xf, {0, 1})).epsilon(1e-5));
    CHECK(-box.lower.x == doctest::Approx(SampledMaxProjection(proxy, xf, {-1, 0})).epsilon(1e-5));
    CHECK(-box.lower.y == doctest::Approx(SampledMaxProjection(proxy, xf, {0, -1})).epsilon(1e-5));
  }
}

}  // TEST_SUITE("geometry.support")
