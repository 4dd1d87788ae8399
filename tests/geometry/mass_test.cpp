// SPDX-License-Identifier: MIT
#include "minkowski/geometry.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

using namespace mk;

namespace {

constexpr double kPi = std::numbers::pi;

void CheckRelative(double actual, double expected, double relative) {
  CHECK(std::fabs(actual - expected) <= relative * std::fabs(expected));
}

// Distance from p to a solid convex CCW polygon (0 inside): brute force over edges.
double DistanceToPolygon(const Polygon& polygon, Vec2 p) {
  bool inside = true;
  double best = 1e30;
  for (int i = 0; i < polygon.count; ++i) {
    Vec2 a = polygon.vertices[i], b = polygon.vertices[(i + 1) % polygon.count];
    Vec2 ab = b - a;
    if (Cross(ab, p - a) < 0.0f) inside = false;
    double t = std::clamp(static_cast<double>(Dot(p - a, ab)) / Dot(ab, ab), 0.0, 1.0);
    double dx = p.x - (a.x + t * ab.x), dy = p.y - (a.y + t * ab.y);
    best = std::min(best, std::sqrt(dx * dx + dy * dy));
  }
  return inside ? 0.0 : best;
}

// Midpoint-rule integration over a fine grid: an oracle that knows nothing of the closed forms.
MassData IntegrateOnGrid(const Polygon& polygon, float density, int cells) {
  AABB box = ComputeAABB(polygon, Transform{});
  double hx = (box.upper.x - box.lower.x) / cells, hy = (box.upper.y - box.lower.y) / cells;
  double mass = 0, mx = 0, my = 0, second = 0;
  for (int i = 0; i < cells; ++i) {
    for (int j = 0; j < cells; ++j) {
      double x = box.lower.x + (i + 0.5) * hx, y = box.lower.y + (j + 0.5) * hy;
      if (DistanceToPolygon(polygon, {static_cast<float>(x), static_cast<float>(y)}) > polygon.radius)
        continue;
      double dm = density * hx * hy;
      mass += dm;
      mx += dm * x;
      my += dm * y;
      second += dm * (x * x + y * y);
    }
  }
  double cx = mx / mass, cy = my / mass;
  return {static_cast<float>(mass),
          {static_cast<float>(cx), static_cast<float>(cy)},
          static_cast<float>(second - mass * (cx * cx + cy * cy))};
}

}  // namespace

TEST_SUITE("geometry.mass") {

TEST_CASE("box mass and inertia match m (w^2 + h^2) / 12") {
  const float hw = 1.5f, hh = 0.25f, density = 3.0f;
  MassData m = ComputeMass(MakeBox(hw, hh).value, density).value;
  double mass = density * 4.0 * hw * hh;
  CheckRelative(m.mass, mass, 1e-5);
  CheckRelative(m.rotationalInertia, mass * (4.0 * hw * hw + 4.0 * hh * hh) / 12.0, 1e-5);
  CHECK(test::Near(m.center, {0, 0}, 1e-6f));
}

TEST_CASE("offset box keeps its mass and inertia and moves its centre") {
  MassData m = ComputeMass(MakeOffsetBox(1.0f, 0.5f, {3.0f, -2.0f}, 0.7f).value, 2.0f).value;
  CheckRelative(m.mass, 2.0 * 2.0 * 1.0, 1e-5);
  CheckRelative(m.rotationalInertia, 4.0 * (4.0 + 1.0) / 12.0, 1e-5);
  CHECK(test::Near(m.center, {3.0f, -2.0f}, 1e-5f));
}

TEST_CASE("circle mass is density pi r^2 and inertia m r^2 / 2") {
  Circle circle{{0.5f, -1.0f}, 0.75f};
  MassData m = ComputeMass(circle, 2.0f).value;
  double mass = 2.0 * kPi * 0.75 * 0.75;
  CheckRelative(m.mass, mass, 1e-5);
  CheckRelative(m.rotationalInertia, 0.5 * mass * 0.75 * 0.75, 1e-5);
  CHECK(m.center == circle.center);
}

TEST_CASE("capsule matches a rectangle plus two half discs") {
  const double length = 2.0, r = 0.4, density = 1.5;
  Capsule capsule{{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.4f};
  MassData m = ComputeMass(capsule, static_cast<float>(density)).value;
  double rectMass = density * length * 2.0 * r;
  double halfDiscMass = density * kPi * r * r / 2.0;
  double d = 4.0 * r / (3.0 * kPi);  // half-disc centroid from its flat edge
  double halfDiscAboutCentre = halfDiscMass * r * r / 2.0 - halfDiscMass * d * d +
                               halfDiscMass * (length / 2.0 + d) * (length / 2.0 + d);
  double inertia = rectMass * (length * length + 4.0 * r * r) / 12.0 + 2.0 * halfDiscAboutCentre;
  CheckRelative(m.mass, rectMass + 2.0 * halfDiscMass, 1e-5);
  CheckRelative(m.rotationalInertia, inertia, 1e-5);
  CHECK(test::Near(m.center, {0, 0}, 1e-6f));

  // The same capsule rotated and moved keeps mass and inertia.
  Capsule turned{{2.0f, 1.0f}, {2.0f + 2.0f * 0.6f, 1.0f + 2.0f * 0.8f}, 0.4f};
  MassData t = ComputeMass(turned, static_cast<float>(density)).value;
  CheckRelative(t.rotationalInertia, inertia, 1e-5);
  CHECK(test::Near(t.center, 0.5f * (turned.p1 + turned.p2), 1e-5f));
}

TEST_CASE("rounded box matches two crossed rectangles plus four quarter discs") {
  const double hw = 1.0, hh = 0.5, r = 0.2, density = 2.0;
  MassData m = ComputeMass(MakeRoundedBox(1.0f, 0.5f, 0.2f).value, 2.0f).value;
  auto rect = [&](double w, double h) {  // full sizes; returns {mass, inertia about centre}
    double mass = density * w * h;
    return std::pair{mass, mass * (w * w + h * h) / 12.0};
  };
  auto [m1, i1] = rect(2 * (hw + r), 2 * hh);
  auto [m2, i2] = rect(2 * hw, 2 * (hh + r));
  auto [m0, i0] = rect(2 * hw, 2 * hh);
  double quarterMass = density * kPi * r * r / 4.0;
  double s = 4.0 * r / (3.0 * kPi);
  double quarterInertia = quarterMass * r * r / 2.0 - quarterMass * 2.0 * s * s +
                          quarterMass * ((hw + s) * (hw + s) + (hh + s) * (hh + s));
  CheckRelative(m.mass, m1 + m2 - m0 + 4.0 * quarterMass, 1e-5);
  CheckRelative(m.rotationalInertia, i1 + i2 - i0 + 4.0 * quarterInertia, 1e-5);
  CHECK(test::Near(m.center, {0, 0}, 1e-6f));
}

TEST_CASE("regular polygon inertia is m R^2 (1 + 2 cos^2(pi/n)) / 6") {
  for (int n : {3, 5, 8, 17, 64}) {
    const double radius = 1.3, density = 0.7;
    MassData m = ComputeMass(MakeRegularPolygon(n, 1.3f).value, 0.7f).value;
    double mass = density * 0.5 * n * radius * radius * std::sin(2.0 * kPi / n);
    double c = std::cos(kPi / n);
    CheckRelative(m.mass, mass, 1e-5);
    CheckRelative(m.rotationalInertia, mass * radius * radius * (1.0 + 2.0 * c * c) / 6.0, 1e-5);
    CHECK(test::Near(m.center, {0, 0}, 1e-5f));
  }
}

TEST_CASE("random sharp and rounded polygons match grid integration" * doctest::test_suite("long")) {
  test::Rng rng(77);
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<Vec2> cloud(rng.Int(3, 12));
    Vec2 offset = rng.InBox(1.0f);
    for (Vec2& p : cloud) p = offset + rng.InBox(1.0f);
    float radius = trial % 2 == 0 ? 0.0f : rng.Uniform(0.05f, 0.4f);
    GeometryResult<Polygon> polygon = MakePolygon(cloud, radius);
    if (!polygon.ok()) continue;
    MassData exact = ComputeMass(polygon.value, 1.7f).value;
    MassData grid = IntegrateOnGrid(polygon.value, 1.7f, 600);
    // The midpoint grid's boundary error is O(cell size / size) ~ 1e-3.
    CheckRelative(exact.mass, grid.mass, 2e-3);
    CheckRelative(exact.rotationalInertia, grid.rotationalInertia, 4e-3);
    CHECK(test::Near(exact.center, grid.center, 4e-3f));
  }
}

TEST_CASE("segments are massless and bad densities are refused") {
  Segment segment{{0, 0}, {2, 0}};
  MassData m = ComputeMass(segment, 1.0f).value;
  CHECK(m.mass == 0.0f);
  CHECK(m.center == Vec2(1, 0));
  Polygon box = MakeBox(1, 1).value;
  CHECK(ComputeMass(box, -1.0f).error == GeometryError::NegativeDensity);
  CHECK(ComputeMass(box, std::nanf("")).error == GeometryError::NonFinite);
  CHECK(ComputeMass(Circle{}, -0.5f).error == GeometryError::NegativeDensity);
  CHECK(ComputeMass(Capsule{}, std::numeric_limits<float>::infinity()).error == GeometryError::NonFinite);
  CHECK(ComputeMass(box, 0.0f).value.mass == 0.0f);
}

}  // TEST_SUITE("geometry.mass")
