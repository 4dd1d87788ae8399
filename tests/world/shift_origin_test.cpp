// SPDX-License-Identifier: MIT
// World::ShiftOrigin in the default build, where every position the world holds is moved (O(n), each
// rounded to float once): the same world left where it was is the independent answer. Right after the
// shift every held and published position is the old one minus the shift, to the float; afterwards
// the shifted world steps as the other does, within the rounding the move made.
#include "minkowski/world.h"
#include "quiet_asserts.h"
#include "test_util.h"
#include "world/world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;

// A settled stack of five, a box that lands with hit events on, and a body dragged by a mouse joint
// (from (-10, 1) towards (-8, 3), softly):
// everything ShiftOrigin moves (bodies, manifold points, the broadphase's boxes, joint targets,
// published events).
struct ShiftScene {
  World world;
  std::vector<BodyId> bodies;
  JointId mouse;

  ShiftScene() {
    bodies.push_back(test::AddGround(world));
    for (int i = 0; i < 5; ++i) bodies.push_back(test::AddBox(world, {0.0f, 0.5f + 1.0f * i}));
    bodies.push_back(test::AddBox(world, {10.0f, 2.0f}, 0.5f, {.enableHitEvents = true}));
    const BodyId dragged = test::AddBox(world, {-10.0f, 1.0f}, 0.25f);
    bodies.push_back(dragged);
    mouse = world.CreateJoint(
        MouseJointDef{.body = dragged, .target = Vec2{-8.0f, 3.0f}, .hertz = 1.0f, .maxForce = 200.0f});
  }
};

// Steps until the dropped box's landing is among the last step's hit events (it falls 1.5 m: about
// 33 steps), so the shift has a published hit to move.
void StepToTheLanding(World& world) {
  for (int i = 0; i < 120 && world.GetContactHitEvents().size() == 0; ++i) world.Step(kDt);
  REQUIRE(world.GetContactHitEvents().size() > 0);
}

// The slots of the shapes that overlap `box`, in order (ids carry their world's tag, so two worlds'
// ids for the same slot differ).
std::vector<std::uint32_t> ShapesIn(const World& world, const AABB& box) {
  std::vector<std::uint32_t> found;
  world.OverlapAABB(box, {}, [&](ShapeId shape) {
    found.push_back(shape.index1);
    return true;
  });
  std::sort(found.begin(), found.end());
  return found;
}

Vec2 Shifted(Vec2 p, Vec2 d) { return p - d; }  // as the engine moves a float position

}  // namespace

TEST_SUITE("world") {

TEST_CASE("ShiftOrigin moves every body contact point box and published event by the shift") {
  ShiftScene kept, moved;
  StepToTheLanding(kept.world);
  StepToTheLanding(moved.world);
  const Vec2 d{300.25f, -200.5f};
  moved.world.ShiftOrigin(d);

  for (std::size_t i = 0; i < kept.bodies.size(); ++i) {
    CAPTURE(i);
    const Vec2 p = kept.world.GetPosition(kept.bodies[i]);
    CHECK(moved.world.GetPosition(moved.bodies[i]) == Shifted(p, d));
    CHECK(moved.world.GetAngle(moved.bodies[i]) == kept.world.GetAngle(kept.bodies[i]));
    CHECK(moved.world.GetLinearVelocity(moved.bodies[i]) == kept.world.GetLinearVelocity(kept.bodies[i]));
  }
  // Manifold points are world points in this build: every touching contact's, body by body (both
  // worlds made the same contacts in the same order).
  int points = 0;
  for (std::size_t i = 0; i < kept.bodies.size(); ++i) {
    ContactData a[8], b[8];
    const int count = kept.world.GetBodyContactData(kept.bodies[i], a);
    REQUIRE(moved.world.GetBodyContactData(moved.bodies[i], b) == count);
    for (int c = 0; c < count; ++c) {
      REQUIRE(a[c].manifold.pointCount == b[c].manifold.pointCount);
      for (int k = 0; k < a[c].manifold.pointCount; ++k, ++points)
        CHECK(b[c].manifold.points[k].point == Shifted(a[c].manifold.points[k].point, d));
    }
  }
  CHECK(points >= 24);  // the stack's five pairs and the landed box, two points each, seen from both bodies
  // The last step's published events.
  const auto hitsA = kept.world.GetContactHitEvents(), hitsB = moved.world.GetContactHitEvents();
  REQUIRE(hitsA.size() == hitsB.size());
  for (std::size_t i = 0; i < hitsA.size(); ++i) CHECK(hitsB[i].point == Shifted(hitsA[i].point, d));
  const auto movesA = kept.world.GetBodyMoveEvents(), movesB = moved.world.GetBodyMoveEvents();
  REQUIRE(movesA.size() == movesB.size());
  CHECK(movesA.size() > 0);
  for (std::size_t i = 0; i < movesA.size(); ++i)
    CHECK(movesB[i].transform.p == Shifted(movesA[i].transform.p, d));
  // The broadphase's boxes: a query box moved by the shift finds the same shapes.
  for (const AABB& box : {AABB{{-1.0f, 0.0f}, {1.0f, 6.0f}}, AABB{{9.0f, -0.5f}, {11.0f, 1.5f}},
                          AABB{{-11.0f, 0.0f}, {-9.0f, 2.0f}}, AABB{{-60.0f, -3.0f}, {60.0f, 10.0f}}}) {
    const std::vector<std::uint32_t> before = ShapesIn(kept.world, box);
    CHECK(before.size() > 0);
    CHECK(ShapesIn(moved.world, {box.lower - d, box.upper - d}) == before);
  }
}

TEST_CASE("a shifted world steps on as the unshifted one within the rounding of the move") {
  ShiftScene kept, moved;
  for (int i = 0; i < 10; ++i) kept.world.Step(kDt), moved.world.Step(kDt);
  const Vec2 d{300.25f, -200.5f};
  moved.world.ShiftOrigin(d);
  // The mouse target moved too (else the dragged body, still on its way to it at 1 Hz, would be pulled
  // 360 m away).
  const BodyId dragged = kept.bodies.back();
  REQUIRE(moved.world.IsAwake(moved.bodies.back()));
  const Vec2 atShift = kept.world.GetPosition(dragged);
  int beginsA = 0, beginsB = 0, endsA = 0, endsB = 0;
  float worst = 0.0f;
  for (int step = 0; step < 120; ++step) {
    kept.world.Step(kDt);
    moved.world.Step(kDt);
    beginsA += static_cast<int>(kept.world.GetContactBeginEvents().size());
    beginsB += static_cast<int>(moved.world.GetContactBeginEvents().size());
    endsA += static_cast<int>(kept.world.GetContactEndEvents().size());
    endsB += static_cast<int>(moved.world.GetContactEndEvents().size());
    for (std::size_t i = 0; i < kept.bodies.size(); ++i) {
      const Vec2 a = kept.world.GetPosition(kept.bodies[i]);
      const Vec2 b = moved.world.GetPosition(moved.bodies[i]) + d;
      worst = std::max(worst, Distance(a, b));
    }
  }
  MESSAGE("largest difference over 120 steps: " << worst << " m");
  // 300 m out a float's spacing is 3e-5 m: the move rounds each position by up to half of it, and
  // the contacts' soft response carries that on without growing it far.
  CHECK(worst < 1e-3f);
  CHECK(Distance(kept.world.GetPosition(dragged), atShift) > 0.1f);  // the comparison saw it dragged
  CHECK(beginsA == beginsB);
  CHECK(endsA == endsB);
  for (std::size_t i = 0; i < kept.bodies.size(); ++i)
    CHECK(kept.world.IsAwake(kept.bodies[i]) == moved.world.IsAwake(moved.bodies[i]));
}

TEST_CASE("ShiftOrigin is refused while recording and beyond kMaxWorldPosition and for NaN") {
  test::QuietAsserts quiet;
  ShiftScene scene;
  const Vec2 p = scene.world.GetPosition(scene.bodies[1]);
  scene.world.ShiftOrigin(Vec2{2.0f * kMaxWorldPosition, 0.0f});
  scene.world.ShiftOrigin(Vec2{std::numeric_limits<float>::quiet_NaN(), 0.0f});
  CHECK(quiet.Count() == 2);
  CHECK(scene.world.GetPosition(scene.bodies[1]) == p);

  World recording;
  REQUIRE(recording.StartRecording());
  const BodyId box = test::AddBox(recording, {1.0f, 2.0f});
  recording.ShiftOrigin(Vec2{5.0f, 0.0f});
  CHECK(quiet.Count() == 3);
  CHECK(recording.GetPosition(box) == Vec2{1.0f, 2.0f});
}

}  // TEST_SUITE("world")
