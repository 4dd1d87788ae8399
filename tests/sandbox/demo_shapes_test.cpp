// SPDX-License-Identifier: MIT
#include "demo_shapes.h"

#include "camera.h"
#include "shape_gallery.h"
#include "test_util.h"
#include "view_host.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

// Records what the demo asks to draw.
struct ShapeRecorder final : DebugDraw {
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
  ShapeRecorder all;
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
    std::string drawn = all.strings[i];
    std::replace(drawn.begin(), drawn.end(), '\n', ' ');
    CHECK(drawn == shapes[i].label);
  }
  ShapeRecorder bare;
  DrawDemoShapes(shapes, t, {.aabbs = false, .centersOfMass = false, .transforms = false, .labels = false},
                 bare);
  CHECK(bare.shapeCalls == static_cast<int>(n));
  CHECK(bare.outlines.empty());
  CHECK(bare.points.empty());
  CHECK(bare.strings.empty());
  CHECK(bare.transforms == 0);
}

// At 900 x 560 "rounded triangle" ran into "rounded hexagon" and "64-gon".
TEST_CASE("every label line fits its column of the gallery at the smallest window size it is shown at") {
  std::vector<std::string> errors;
  const std::vector<DemoShape> shapes = MakeDemoShapes(errors);
  ShapeGalleryLab gallery;
  Camera camera;
  camera.width = 900.0f;
  camera.height = 560.0f;
  camera = FitBoundsBeside(camera, gallery.Bounds(), kPanelPixels);
  float pitch = 1e9f;  // metres between neighbours in a row
  for (const DemoShape& a : shapes) {
    for (const DemoShape& b : shapes) {
      if (&a != &b && a.position.y == b.position.y)
        pitch = std::min(pitch, std::fabs(a.position.x - b.position.x));
    }
  }
  constexpr float kCharPixels = 7.0f;  // ProggyClean's advance at 13 px
  size_t longest = 0;
  for (const DemoShape& s : shapes) {
    std::string lines = LabelLines(s.label);
    for (size_t start = 0, end = 0; start <= lines.size(); start = end + 1) {
      end = std::min(lines.find('\n', start), lines.size());
      longest = std::max(longest, end - start);
    }
  }
  INFO("column pitch " << pitch * camera.pixelsPerMetre << " px, longest line " << longest << " characters");
  CHECK(longest <= kLabelLineChars);
  CHECK(static_cast<float>(longest + 1) * kCharPixels <= pitch * camera.pixelsPerMetre);  // a character apart
}

}  // TEST_SUITE("sandbox.demo_shapes")
