// SPDX-License-Identifier: MIT
#include "geometry/hull_tolerance.h"
#include "minkowski/geometry.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace mk;

namespace {

// Signed distance of p from the hull's boundary, positive inside (min over edges of the inward
// distance). Independent of the engine: computed here from the raw points.
float InsideDistance(const Hull& hull, Vec2 p) {
  float inside = std::numeric_limits<float>::max();
  for (int i = 0; i < hull.count; ++i) {
    Vec2 a = hull.points[i], b = hull.points[(i + 1) % hull.count];
    inside = std::min(inside, Cross(b - a, p - a) / Length(b - a));
  }
  return inside;
}

}  // namespace

TEST_SUITE("geometry.hull") {

TEST_CASE("random clouds give strictly convex CCW hulls of input points containing every point" *
          doctest::test_suite("long")) {
  test::Rng rng(20261122);
  int checked = 0;
  for (int trial = 0; trial < 10000; ++trial) {
    const int count = rng.Int(3, 200);
    const float scale = rng.LogUniform(1e-2f, 1e2f);
    const Vec2 offset = rng.InBox(2.0f * scale);
    std::vector<Vec2> cloud(count);
    // Mix clouds in a disc with clouds on a circle (many hull vertices, exercising the 64 cap).
    const bool onCircle = rng.Unit() < 0.25;
    for (Vec2& p : cloud) p = offset + (onCircle ? scale * rng.Direction() : rng.InBox(scale));

    GeometryResult<Hull> result = ComputeHull(cloud);
    if (result.error == GeometryError::TooManyVertices) {
      // Only a cloud with more than the cap of points on its boundary may exceed the cap.
      CHECK((onCircle && count > kMaxPolygonVertices));
      continue;
    }
    REQUIRE_MESSAGE(result.ok(), "trial " << trial << ": " << ToString(result.error));
    const Hull& hull = result.value;
    REQUIRE(hull.count >= 3);
    REQUIRE(hull.count <= kMaxPolygonVertices);
    const float tolerance = HullTolerance(cloud);

    for (int i = 0; i < hull.count; ++i) {
      // Made of input points (exactly: the hull never invents coordinates).
      bool isInput = false;
      for (Vec2 p : cloud) isInput = isInput || (p == hull.points[i]);
      CHECK(isInput);
      // Strictly convex and CCW: every vertex is left of the previous edge by a positive margin.
      Vec2 prev = hull.points[(i + hull.count - 1) % hull.count];
      Vec2 next = hull.points[(i + 1) % hull.count];
      CHECK(Cross(hull.points[i] - prev, next - hull.points[i]) > 0.0f);
    }
    for (Vec2 p : cloud) CHECK(InsideDistance(hull, p) >= -tolerance);
    ++checked;
  }
  CHECK(checked > 8000);  // most clouds are in a disc and have far fewer hull vertices
}

TEST_CASE("a square with interior and edge points hulls to its four corners") {
  std::vector<Vec2> cloud = {{0, 0}, {1, 0}, {0.5f, 0}, {1, 1}, {0.5f, 0.5f}, {0, 1}, {0, 0.5f}};
  GeometryResult<Hull> hull = ComputeHull(cloud);
  REQUIRE(hull.ok());
  REQUIRE(hull.value.count == 4);
  CHECK(hull.value.points[0] == Vec2(0, 0));
  CHECK(hull.value.points[1] == Vec2(1, 0));
  CHECK(hull.value.points[2] == Vec2(1, 1));
  CHECK(hull.value.points[3] == Vec2(0, 1));
}

TEST_CASE("near-duplicate points are welded and nearly collinear points dropped") {
  std::vector<Vec2> cloud = {{0, 0}, {1e-6f, 1e-6f}, {2, 0}, {1, 1e-6f}, {2, 2}, {0, 2}};
  GeometryResult<Hull> hull = ComputeHull(cloud);
  REQUIRE(hull.ok());
  CHECK(hull.value.count == 4);
}

TEST_CASE("degenerate clouds return the documented errors") {
  std::vector<Vec2> none;
  CHECK(ComputeHull(none).error == GeometryError::TooFewPoints);
  std::vector<Vec2> one = {{1, 2}};
  CHECK(ComputeHull(one).error == GeometryError::TooFewPoints);
  std::vector<Vec2> two = {{1, 2}, {3, 4}};
  CHECK(ComputeHull(two).error == GeometryError::TooFewPoints);
  std::vector<Vec2> duplicates = {{1, 2}, {1, 2}, {1, 2}, {3, 4}, {3, 4}};
  CHECK(ComputeHull(duplicates).error == GeometryError::TooFewPoints);
  std::vector<Vec2> collinear = {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {-5, -5}};
  CHECK(ComputeHull(collinear).error == GeometryError::Collinear);
  std::vector<Vec2> nan = {{0, 0}, {1, 0}, {0, std::nanf("")}};
  CHECK(ComputeHull(nan).error == GeometryError::NonFinite);
  std::vector<Vec2> inf = {{0, 0}, {1, 0}, {0, std::numeric_limits<float>::infinity()}};
  CHECK(ComputeHull(inf).error == GeometryError::NonFinite);
}

TEST_CASE("hulls above kMaxPolygonVertices are refused and at the cap accepted") {
  for (int count : {kMaxPolygonVertices, kMaxPolygonVertices + 1}) {
    std::vector<Vec2> ring;
    for (int i = 0; i < count; ++i) {
      double a = 2.0 * 3.141592653589793 * i / count;
      ring.push_back({static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))});
    }
    GeometryResult<Hull> hull = ComputeHull(ring);
    if (count <= kMaxPolygonVertices) {
      REQUIRE(hull.ok());
      CHECK(hull.value.count == count);
    } else {
      CHECK(hull.error == GeometryError::TooManyVertices);
    }
  }
}

TEST_CASE("clouds longer than kMaxHullInputPoints are refused before any work") {
  // Regression: 10,000 points took 1.5 s of clean-up before TooManyVertices. The length is now
  // checked first: a NaN at the end of an over-long cloud is never looked at.
  std::vector<Vec2> cloud;
  for (int i = 0; i < 10000; ++i) {
    double a = 2.0 * 3.141592653589793 * i / 10000;
    cloud.push_back({static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))});
  }
  cloud.back().x = std::nanf("");
  CHECK(ComputeHull(cloud).error == GeometryError::TooManyPoints);
  CHECK(MakePolygon(cloud).error == GeometryError::TooManyPoints);
  // At the cap the cloud is hulled: a dense ring has too many vertices, a square with a dense
  // outline collapses to its four corners (the clean-up drops the collinear points).
  std::vector<Vec2> ring;
  for (int i = 0; i < kMaxHullInputPoints; ++i) {
    double a = 2.0 * 3.141592653589793 * i / kMaxHullInputPoints;
    ring.push_back({static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))});
  }
  CHECK(ComputeHull(ring).error == GeometryError::TooManyVertices);
  std::vector<Vec2> square;
  for (int i = 0; i < kMaxHullInputPoints / 4; ++i) {
    const float t = -1.0f + 2.0f * static_cast<float>(i) / static_cast<float>(kMaxHullInputPoints / 4);
    square.insert(square.end(), {{t, -1.0f}, {1.0f, t}, {-t, 1.0f}, {-1.0f, -t}});
  }
  REQUIRE(static_cast<int>(square.size()) == kMaxHullInputPoints);
  GeometryResult<Hull> hull = ComputeHull(square);
  REQUIRE(hull.ok());
  CHECK(hull.value.count == 4);
  for (int i = 0; i < 4; ++i) CHECK(std::fabs(hull.value.points[i].x) == 1.0f);
}

}  // TEST_SUITE("geometry.hull")
