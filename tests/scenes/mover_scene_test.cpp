// SPDX-License-Identifier: MIT
// The character_mover scene (demos/scenes/mover_scenes.cpp): its scripted character, moved only by
// the public mover API, does what the script asks, and never overlaps the level (exact GJK distance
// to every other shape, brute force, after every step).
#include "minkowski/mover.h"
#include "mover/mover_oracle.h"
#include "scene_test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace mk;

namespace {

float LeastSeparation(const World& world, ShapeId self, const std::vector<ShapeId>& level) {
  const ShapeGeometry mover = world.GetShapeGeometry(self);
  const Transform moverXf = world.GetTransform(world.GetBody(self));
  float least = INFINITY;
  for (ShapeId id : level) {
    least =
        std::min(least, mk::test::SurfaceSeparation(world.GetShapeGeometry(id),
                                                    world.GetTransform(world.GetBody(id)), mover, moverXf));
  }
  return least;
}

}  // namespace

TEST_SUITE("scenes.features") {

TEST_CASE("the character_mover character climbs and stands and rides and never overlaps the level") {
  const scenes::SceneInfo* info = scenes::FindScene("character_mover");
  REQUIRE(info != nullptr);
  scenes::SceneRun run(*info);
  World& world = run.GetWorld();
  const BodyId character = run.State().bodies.at(0);
  std::vector<ShapeId> level;
  ShapeId self{};
  world.QueryAABB({{-100.0f, -100.0f}, {100.0f, 100.0f}}, [&](ShapeId id) {
    (world.GetBody(id) == character ? self : level.emplace_back()) = id;
    return true;
  });
  REQUIRE(level.size() == 9);  // ground, 3 steps, ramp, ledge, landing, wall, platform
  Vec2 previous = world.GetPosition(character);
  float least = INFINITY;
  int still = 0, stillOnSlope = 0, carried = 0, longestCarried = 0;
  for (int step = 0; step < info->defaultSteps; ++step) {
    run.Step();
    const Vec2 p = world.GetPosition(character);
    least = std::min(least, LeastSeparation(world, self, level));
    // Standing on the 25 degree ramp (x from 6 to 9) without sliding.
    still = p == previous ? still + 1 : 0;
    if (p.x > 6.5f && p.x < 8.5f) stillOnSlope = std::max(stillOnSlope, still);
    // Carried: moving at the platform's speed with no input of its own (the script stands still).
    carried =
        std::fabs(p.x - previous.x - 2.0f * scenes::kTimeStep) < 1e-4f && p.y == previous.y ? carried + 1 : 0;
    longestCarried = std::max(longestCarried, carried);
    previous = p;
  }
  MESSAGE("least separation " << least << " m, still on the slope " << stillOnSlope << " steps, carried "
                              << longestCarried << " steps, end " << previous.x << " " << previous.y);
  // The cast keeps the skin, less kMoverEncroach while sliding (the platform moves into the character
  // only from below, which the character rides).
  CHECK(least >= kMoverSkin - 2.0f * kMoverEncroach - kShapeCastTolerance);
  CHECK(stillOnSlope >= 90);
  CHECK(longestCarried >= 60);
  // The end: on the landing (top 0.3 + 3 tan(0.436) m), the capsule's half height, radius and skin above it.
  const float landing = 0.3f + 3.0f * std::tan(0.436f);
  CHECK(previous.x == doctest::Approx(21.0f).epsilon(0.01));
  CHECK(previous.y == doctest::Approx(landing + 0.45f + 0.3f + kMoverSkin).epsilon(1e-4));
}
}  // TEST_SUITE("scenes.features")
