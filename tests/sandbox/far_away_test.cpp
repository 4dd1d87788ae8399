// SPDX-License-Identifier: MIT
// The far-away toggle (SceneSettings::farAway): a scene rebuilt at (d, d) m is drawn relative to the
// view's frame, so the DebugDraw sees the small floats it sees at the origin; the mouse picks and the
// camera frames as there. Built in both builds: the default one goes to 1e4 m, the large-world one
// (MK_LARGE_WORLDS) to 1e7 m.
#include "scene_view.h"
#include "settings.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

// Every point a DebugDraw call places, in the order drawn (solid shapes: their vertices or centres
// placed by the transform they came with).
class PointsDraw final : public DebugDraw {
 public:
  std::vector<Vec2> points;
  void DrawPolygon(const Vec2* v, int count, Color) override { points.insert(points.end(), v, v + count); }
  void DrawSolidPolygon(const Transform& xf, const Vec2* v, int count, float, Color) override {
    for (int i = 0; i < count; ++i) points.push_back(TransformPoint(xf, v[i]));
  }
  void DrawCircle(Vec2 c, float, Color) override { points.push_back(c); }
  void DrawSolidCircle(const Transform& xf, float, Color) override { points.push_back(xf.p); }
  void DrawSolidCapsule(Vec2 a, Vec2 b, float, Color) override { points.insert(points.end(), {a, b}); }
  void DrawSegment(Vec2 a, Vec2 b, Color) override { points.insert(points.end(), {a, b}); }
  void DrawTransform(const Transform& xf, float) override { points.push_back(xf.p); }
  void DrawPoint(Vec2 p, float, Color) override { points.push_back(p); }
  void DrawString(Vec2 p, const char*, Color) override { points.push_back(p); }
};

SceneSettings Far(const char* scene, float farAway) {
  SceneSettings s = DefaultSettings(*scenes::FindScene(scene));
  s.draw.aabbs = s.draw.contactPoints = s.draw.joints = s.draw.centersOfMass = true;
  s.farAway = farAway;
  return s;
}

std::vector<Vec2> Drawn(const SceneView& view) {
  PointsDraw draw;
  const AABB visible = view.Bounds();
  view.Draw(draw, visible, 0.05f);
  return draw.points;
}

float Largest(const std::vector<Vec2>& points) {
  float most = 0.0f;
  for (Vec2 p : points) most = std::max({most, std::fabs(p.x), std::fabs(p.y)});
  return most;
}

// The largest distance between the i-th points of two drawings of the same length.
float Apart(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  float most = 0.0f;
  for (size_t i = 0; i < a.size(); ++i) most = std::max(most, Length(a[i] - b[i]));
  return most;
}

// Far away, the default build's float positions round to their spacing at kMaxFarAway (1e4 m:
// 0.98 mm, half of it per rounding); the large-world build keeps them exactly (the world's frame
// moves with the scene, so it steps bit for bit as at the origin).
constexpr float kBuiltTolerance = kLargeWorlds ? 0.0f : 2e-3f;

}  // namespace

TEST_SUITE("sandbox.far_away") {

TEST_CASE("a scene far away hands the debug draw small points that match the origin's") {
  for (const char* scene : {"vertical_stack", "joint_grid", "large_pyramid"}) {
    CAPTURE(scene);
    SceneView origin(*scenes::FindScene(scene), Far(scene, 0.0f));
    SceneView far(*scenes::FindScene(scene), Far(scene, kMaxFarAway));
    CHECK(far.Frame() == Pos{kMaxFarAway, kMaxFarAway});
    const std::vector<Vec2> a = Drawn(origin), b = Drawn(far);
    REQUIRE(a.size() == b.size());
    REQUIRE(!a.empty());
    // Drawn relative to the view's frame: were it world coordinates, every point would lie near
    // kMaxFarAway (1e4 or 1e7 m).
    CHECK(Largest(b) < 1000.0f);
    CHECK(Apart(a, b) <= kBuiltTolerance);
  }
}

TEST_CASE("the large world build steps a far scene bit for bit and draws it the same") {
  if (!kLargeWorlds) return;  // the default build moves its floats: compared when just built above
  SceneView origin(*scenes::FindScene("large_pyramid"), Far("large_pyramid", 0.0f));
  SceneView far(*scenes::FindScene("large_pyramid"), Far("large_pyramid", kMaxFarAway));
  for (int i = 0; i < 60; ++i) {
    origin.StepOnce();
    far.StepOnce();
  }
  CHECK(origin.GetWorld().StateHash() == far.GetWorld().StateHash());
  const std::vector<Vec2> a = Drawn(origin), b = Drawn(far);
  REQUIRE(a.size() == b.size());
  CHECK(Apart(a, b) == 0.0f);
}

TEST_CASE("far away the mouse picks grabs and frames in view coordinates") {
  SceneView origin(*scenes::FindScene("vertical_stack"), Far("vertical_stack", 0.0f));
  SceneView far(*scenes::FindScene("vertical_stack"), Far("vertical_stack", kMaxFarAway));
  const AABB a = origin.Bounds(), b = far.Bounds();
  CHECK(std::fabs(a.lower.x - b.lower.x) <= kBuiltTolerance + 1e-4f);
  CHECK(std::fabs(a.upper.y - b.upper.y) <= kBuiltTolerance + 1e-4f);
  // The highest dynamic body under a grid over the framed box: picked in view coordinates.
  World& world = far.GetWorld();
  BodyId highest{};
  float highestY = -1e30f;
  for (float x = b.lower.x; x < b.upper.x; x += 0.25f) {
    for (float y = b.lower.y; y < b.upper.y; y += 0.25f) {
      const BodyId body = far.PickBody({x, y});
      if (body.IsNull() || world.GetBodyType(body) != BodyType::Dynamic) continue;
      const float at = far.ToView(world.GetPosition(body)).y;
      if (at > highestY) highestY = at, highest = body;
    }
  }
  REQUIRE(!highest.IsNull());
  const Vec2 grab = far.ToView(world.GetPosition(highest));
  CHECK(far.PickBody(grab) == highest);
  REQUIRE(far.MouseDown(grab, false));
  REQUIRE(far.IsGrabbing());
  far.MouseMove(grab + Vec2{0.0f, 3.0f});
  for (int i = 0; i < 30; ++i) far.StepOnce();
  CHECK(far.ToView(world.GetPosition(highest)).y > grab.y + 0.5f);
}

TEST_CASE("the far away setting takes zero to the build's bound and refuses beyond") {
  SceneSettings s;
  std::string error;
  CHECK(ApplySetting(s, "far_away", "0", error));
  CHECK(ApplySetting(s, "far_away", kLargeWorlds ? "1e7" : "1e4", error));
  CHECK(s.farAway == kMaxFarAway);
  CHECK_FALSE(ApplySetting(s, "far_away", kLargeWorlds ? "2e7" : "1e5", error));
  CHECK(error.find("far_away") != std::string::npos);
  CHECK(s.farAway == kMaxFarAway);
  CHECK_FALSE(ApplySetting(s, "far_away", "-1", error));
}

}  // TEST_SUITE("sandbox.far_away")
