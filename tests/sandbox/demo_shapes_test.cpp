// SPDX-License-Identifier: MIT
#include "demo_shapes.h"

#include "test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

// Records what the demo asks to draw.
struct Recorder final : DebugDraw {
  int shapeCalls = 0;
  std::vector<std::vector<Vec2>> outlines;  // DrawPolygon calls (the AABBs)
  std::vector<Vec2> points;
  std::vector<std::string> strings;
  int transforms = 0;

  void DrawPolygon(const Vec2* v, int count, Color) override { outlines.emplace_back(v, v + count); }
  void DrawSolidPolygon(const Transform&, const Vec2*, int, float, Color) override { ++shapeCalls; }
  void DrawCircle(Vec2, float, Color) override { ++shapeCalls; }
  void DrawSolidCircle(const Transform&, float, Color) override { ++shapeCalls; }
  void DrawSolidCapsule(Vec2, Vec2, float, Color) override { ++shapeCalls; }
  void DrawSegment(Vec2, Vec2, Color) override { ++shapeCalls; }
  void DrawTransform(const Transform&, float) override { ++transforms; }
  void DrawPoint(Vec2 p, float, Color) override { points.push_back(p); }
  void DrawString(Vec2, const char* text, Color) override { strings.emplace_back(text); }
};

}  // namespace

TEST_SUITE("sandbox.demo_shapes") {

TEST_CASE("every demo shape is accepted and every kind of shape is shown") {
  std::vector<std::string> errors;
  std::vector<DemoShape> shapes = MakeDemoShapes(errors);
  CHECK(errors.empty());
  REQUIRE(shapes.size() == 15);
  int kinds[4] = {0, 0, 0, 0};
  int rounded = 0;
  for (const DemoShape& s : shapes) {
    ++kinds[s.shape.index()];
    if (const Polygon* p = std::get_if<Polygon>(&s.shape); p != nullptr && p->radius > 0.0f) ++rounded;
  }
  CHECK(kinds[0] >= 1);  // circle
  CHECK(kinds[1] >= 1);  // capsule
  CHECK(kinds[2] >= 1);  // segment
  CHECK(kinds[3] >= 1);  // polygon
  CHECK(rounded >= 3);
}

TEST_CASE("each shape draws once with its AABB and centre of mass and label when asked") {
  std::vector<std::string> errors;
  std::vector<DemoShape> shapes = MakeDemoShapes(errors);
  const float t = 2.5f;
  Recorder all;
  DrawDemoShapes(shapes, t, {.aabbs = true, .centersOfMass = true, .transforms = true, .labels = true}, all);
  const size_t n = shapes.size();
  CHECK(all.shapeCalls == static_cast<int>(n));
  REQUIRE(all.outlines.size() == n);
  REQUIRE(all.points.size() == n);
  CHECK(all.strings.size() == n);
  CHECK(all.transforms == static_cast<int>(n));
  for (size_t i = 0; i < n; ++i) {
    Transform xf = DemoTransform(shapes[i], t);
    CHECK(xf.q.c == doctest::Approx(std::cos(shapes[i].angularSpeed * t)));
    CHECK(xf.q.s == doctest::Approx(std::sin(shapes[i].angularSpeed * t)));
    AABB box = std::visit([&](const auto& shape) { return ComputeAABB(shape, xf); }, shapes[i].shape);
    REQUIRE(all.outlines[i].size() == 4);
    CHECK(all.outlines[i][0] == box.lower);
    CHECK(all.outlines[i][2] == box.upper);
    // The centre of mass lies inside the shape, hence inside its box.
    Vec2 c = all.points[i];
    CHECK(test::Near(c, TransformPoint(xf, shapes[i].mass.center), 1e-6f));
    CHECK(Contains(box, {c, c}));
    CHECK(all.strings[i] == shapes[i].label);
  }
  Recorder bare;
  DrawDemoShapes(shapes, t, {.aabbs = false, .centersOfMass = false, .transforms = false, .labels = false},
                 bare);
  CHECK(bare.shapeCalls == static_cast<int>(n));
  CHECK(bare.outlines.empty());
  CHECK(bare.points.empty());
  CHECK(bare.strings.empty());
  CHECK(bare.transforms == 0);
}

}  // TEST_SUITE("sandbox.demo_shapes")
