// SPDX-License-Identifier: MIT
#include "gjk_lab.h"

#include "lab_test_util.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

void Set(GjkLab& lab, const std::vector<std::string>& pairs) { ApplyLabSettings(lab, pairs); }

float PointSegmentDistance(Vec2 p, Vec2 a, Vec2 b) {
  Vec2 ab = b - a;
  float t = Dot(ab, ab) > 0.0f ? std::clamp(Dot(p - a, ab) / Dot(ab, ab), 0.0f, 1.0f) : 0.0f;
  return Length(p - (a + t * ab));
}

// Distance from the origin to a CCW convex polygon (0 inside), by brute force over its edges.
float OriginDistance(const std::vector<Vec2>& hull) {
  if (hull.size() == 1) return Length(hull[0]);
  bool inside = hull.size() >= 3;
  float best = 1e30f;
  for (size_t i = 0; i < hull.size(); ++i) {
    Vec2 a = hull[i], b = hull[(i + 1) % hull.size()];
    inside = inside && Cross(b - a, -a) >= 0.0f;
    best = std::min(best, PointSegmentDistance({0.0f, 0.0f}, a, b));
  }
  return inside ? 0.0f : best;
}

// Every world-frame core point of a lab shape.
std::vector<Vec2> CorePoints(const GjkLab& lab, int which) {
  const ShapeProxy proxy = MakeProxy(lab.Geometry(which));
  std::vector<Vec2> points;
  for (int i = 0; i < proxy.count; ++i) points.push_back(TransformPoint(lab.XForm(which), proxy.points[i]));
  return points;
}

// Both shapes of a random kind, up to `maxVertices`, placed within `reach` of the origin.
void RandomShapes(GjkLab& lab, test::Rng& rng, int maxVertices, float reach) {
  const char* types[] = {"circle", "capsule", "segment", "box", "polygon"};
  for (const char* side : {"a", "b"}) {
    std::string s = side;
    Set(lab, {"shape_" + s + "=" + types[rng.Int(0, 4)],
              "vertices_" + s + "=" + std::to_string(rng.Int(3, maxVertices)),
              "size_" + s + "=" + std::to_string(rng.Uniform(0.1f, 3.0f)),
              "radius_" + s + "=" + std::to_string(rng.Uniform(0.0f, 0.5f)),
              "x_" + s + "=" + std::to_string(rng.Uniform(-reach, reach)),
              "y_" + s + "=" + std::to_string(rng.Uniform(-reach, reach)),
              "angle_" + s + "=" + std::to_string(rng.Uniform(-180.0f, 180.0f))});
  }
}

}  // namespace

TEST_SUITE("sandbox.gjk_lab") {

TEST_CASE(
    "the Minkowski difference drawn holds every vertex difference and its distance to the origin is GJK's") {
  test::Rng rng(2024);
  int separated = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    GjkLab lab;
    RandomShapes(lab, rng, 64, 5.0f);
    const GjkLabResult& r = lab.Result();
    REQUIRE_FALSE(r.difference.empty());
    // Every pairwise difference lies inside or on the drawn hull.
    std::vector<Vec2> a = CorePoints(lab, 0), b = CorePoints(lab, 1);
    const float tol = 1e-4f * (1.0f + Length(lab.shapes[0].position) + Length(lab.shapes[1].position) + 6.0f);
    if (r.difference.size() >= 3) {
      for (Vec2 pa : a) {
        for (Vec2 pb : b) {
          Vec2 w = pa - pb;
          for (size_t i = 0; i < r.difference.size(); ++i) {
            Vec2 e0 = r.difference[i], e1 = r.difference[(i + 1) % r.difference.size()];
            CHECK(Cross(e1 - e0, w - e0) >= -tol * Length(e1 - e0));
          }
        }
      }
    }
    // The distance GJK reports is the origin's distance to the difference, minus the radii.
    const float hullDistance = OriginDistance(r.difference);
    if (hullDistance > tol) {
      ++separated;
      CHECK(r.distance.coreDistance == doctest::Approx(hullDistance).epsilon(1e-4).scale(1.0));
      CHECK(r.distance.distance == doctest::Approx(std::max(0.0f, hullDistance - r.radiusSum)).epsilon(1e-4));
    }
  }
  CHECK(separated > 1000);
}

TEST_CASE(
    "every GJK step's readout brackets the core distance and its support point is the farthest difference") {
  test::Rng rng(77);
  int steps = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    GjkLab lab;
    RandomShapes(lab, rng, 24, 6.0f);
    const GjkLabResult& r = lab.Result();
    const std::vector<Vec2> a = CorePoints(lab, 0), b = CorePoints(lab, 1);
    const float truth = OriginDistance(r.difference);  // brute force over the hull's edges
    const float tol = 1e-4f * (1.0f + Length(lab.shapes[0].position) + Length(lab.shapes[1].position) + 6.0f);
    for (int k = 0; k < r.gjk.count; ++k, ++steps) {
      const GjkStepReadout step = lab.StepReadout(k);
      CHECK(step.upperBound == doctest::Approx(Length(step.closestPoint)));
      if (step.upperBound == 0.0f) continue;
      // Oracle: the support of A - B in direction -v is the pairwise difference farthest along it.
      const Vec2 d = -step.closestPoint;
      float best = -1e30f;
      for (Vec2 pa : a)
        for (Vec2 pb : b) best = std::max(best, Dot(pa - pb, d));
      CHECK(Dot(lab.DifferenceSupport(d), d) == doctest::Approx(best).epsilon(1e-5).scale(1.0));
      CHECK(step.lowerBound <= truth + tol);
      CHECK(truth <= step.upperBound + tol);
      CHECK(step.gap == doctest::Approx(step.upperBound - step.lowerBound));
    }
  }
  CHECK(steps > 1500);
}

TEST_CASE(
    "a shape switched to capsule gets a radius and a start that is already closest takes 0 iterations") {
  GjkLab lab;
  Set(lab, {"shape_a=capsule"});
  CHECK(lab.shapes[0].radius == kDefaultCapsuleRadius);
  Set(lab, {"radius_a=0.5"});
  CHECK(lab.shapes[0].radius == 0.5f);
  // The default start with A a capsule: the first vertex pair is the closest pair, so the start
  // simplex's bounds already meet (gap 0 up to rounding) and GJK needs no support query.
  const GjkLabResult& r = lab.Result();
  REQUIRE(r.gjk.count >= 1);
  if (r.distance.iterations == 0) {
    const GjkStepReadout start = lab.StepReadout(0);
    CHECK(start.gap <= 1e-4f * start.upperBound);
    CHECK(start.upperBound == doctest::Approx(r.distance.coreDistance).epsilon(1e-5));
  } else {
    CHECK(lab.StepReadout(0).gap > 0.0f);  // an iteration ran only because the start was not closest
  }
}

TEST_CASE("a box corner facing a box face: exact closest points and distance") {
  GjkLab lab;
  Set(lab, {"shape_a=box", "size_a=1", "x_a=-3", "y_a=4", "angle_a=0", "radius_a=0", "shape_b=box",
            "size_b=1", "x_b=1", "y_b=4.3", "angle_b=45", "radius_b=0"});
  const DistanceOutput& d = lab.Result().distance;
  CHECK(d.distance == doctest::Approx(3.0f - std::sqrt(2.0f)).epsilon(1e-5));
  CHECK(test::Near(d.pointA, {-2.0f, 4.3f}, 1e-5f));
  CHECK(test::Near(d.pointB, {1.0f - std::sqrt(2.0f), 4.3f}, 1e-5f));
  CHECK(lab.Result().gjk.count >= 2);            // the start simplex and at least one iteration
  CHECK(lab.Result().manifold.pointCount == 0);  // 1.59 m apart: far beyond the speculative distance
}

TEST_CASE("overlapping boxes: EPA depth and its history and a two-point manifold") {
  GjkLab lab;
  Set(lab, {"shape_a=box", "size_a=1", "x_a=0", "y_a=0", "angle_a=0", "radius_a=0", "shape_b=box", "size_b=1",
            "x_b=1.5", "y_b=0.2", "angle_b=0", "radius_b=0"});
  const GjkLabResult& r = lab.Result();
  REQUIRE(r.distance.coresOverlap);
  // Overlap 0.5 m in x and 1.8 m in y: the way out is 0.5 m along +x.
  CHECK(r.penetration.depth == doctest::Approx(0.5f).epsilon(1e-5));
  CHECK(test::Near(r.penetration.normal, {1.0f, 0.0f}, 1e-5f));
  CHECK(r.epa.count >= 1);
  REQUIRE(r.manifold.pointCount == 2);
  for (int i = 0; i < 2; ++i) CHECK(r.manifold.points[i].separation == doctest::Approx(-0.5f).epsilon(1e-5));
}

TEST_CASE("the lab refuses bad settings and keeps its state") {
  GjkLab lab;
  const LabShape before = lab.shapes[0];
  std::string error;
  for (auto [key, value] : std::vector<std::pair<std::string, std::string>>{{"shape_a", "triangle"},
                                                                            {"vertices_a", "2"},
                                                                            {"vertices_a", "65"},
                                                                            {"size_a", "0"},
                                                                            {"radius_a", "-1"},
                                                                            {"x_a", "nan"},
                                                                            {"x_a", "1e9"},
                                                                            {"iteration", "-2"},
                                                                            {"warm", "yes"},
                                                                            {"colour_a", "1"},
                                                                            {"z", "1"}}) {
    INFO(key << "=" << value);
    CHECK_FALSE(lab.ApplySetting(key, value, error));
    CHECK_FALSE(error.empty());
  }
  CHECK(lab.shapes[0].type == before.type);
  CHECK(lab.shapes[0].size == before.size);
  CHECK(lab.shapes[0].position == before.position);
}

TEST_CASE("dragging moves the grabbed shape with the cursor and the wheel turns a shape under it") {
  GjkLab lab;
  const Vec2 start = lab.shapes[0].position + Vec2{0.3f, 0.2f};
  REQUIRE(lab.MouseDown(start, MouseButton::kLeft, false));
  lab.MouseMove(start + Vec2{2.0f, -1.0f});
  lab.MouseUp(start + Vec2{2.0f, -1.0f}, MouseButton::kLeft);
  CHECK(test::Near(lab.shapes[0].position, Vec2{-3.0f, 4.0f} + Vec2{2.0f, -1.0f}, 1e-5f));
  const float angle = lab.shapes[1].angle;
  CHECK(lab.MouseWheel(lab.shapes[1].position, 2.0f));
  CHECK(lab.shapes[1].angle == doctest::Approx(angle + 2.0f * 5.0f * 3.14159265f / 180.0f));
  CHECK_FALSE(lab.MouseWheel({50.0f, 50.0f}, 1.0f));  // empty space: the camera zooms instead
  CHECK_FALSE(lab.MouseDown({50.0f, 50.0f}, MouseButton::kLeft, false));
}

TEST_CASE("warm starting the lab's query needs fewer iterations than cold after a small motion") {
  GjkLab lab;
  Set(lab, {"warm=1"});
  int warm = 0, cold = 0;
  for (int i = 0; i < 50; ++i) {
    lab.shapes[1].position.x += 0.01f;
    lab.shapes[1].angle += 0.01f;
    lab.Update();
    warm += lab.Result().distance.iterations;
    cold += lab.Result().coldIterations;
  }
  CHECK(warm < cold);
}

}  // TEST_SUITE("sandbox.gjk_lab")
