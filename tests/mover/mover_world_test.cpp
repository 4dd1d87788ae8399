// SPDX-License-Identifier: MIT
// World::CollideMover and World::CastMover with the plane solver, as a game drives them: a capsule
// moved by the loop of mover.h's header comment through random static levels, checked against an
// exact distance to every shape (brute force, no broadphase), and against analytic slides.
#include "minkowski/mover.h"
#include "minkowski/world.h"
#include "mover/mover_oracle.h"
#include "test_util.h"
#include "world/world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace mk;
using mk::test::Near;
using mk::test::Rng;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr int kMaxPlanes = 8;
constexpr float kRadius = 0.3f;
constexpr float kHalfHeight = 0.4f;  // the capsule's core runs from (0, -h) to (0, h) about its position

Capsule MoverAt(Vec2 p) { return {p + Vec2{0.0f, -kHalfHeight}, p + Vec2{0.0f, kHalfHeight}, kRadius}; }

struct Frame {
  CollisionPlane planes[kMaxPlanes];
  PlaneResult found[kMaxPlanes];
  int count = 0;
};

// One frame of a character: up to four rounds of collide, solve, cast, move; then the velocity clip.
void Move(const World& world, Vec2& position, Vec2& velocity, Frame& frame) {
  const Vec2 target = position + kDt * velocity;
  for (int round = 0; round < 4; ++round) {
    const Capsule mover = MoverAt(position);
    frame.count = world.CollideMover(mover, {}, frame.found);
    for (int i = 0; i < frame.count; ++i) frame.planes[i] = {.plane = frame.found[i].plane};
    const PlaneSolverResult solved =
        SolvePlanes(target - position, {frame.planes, static_cast<std::size_t>(frame.count)});
    const float fraction = world.CastMover(mover, solved.delta, {});
    position += fraction * solved.delta;
    if (LengthSquared(fraction * solved.delta) < 1e-10f) break;
  }
  velocity = ClipVector(velocity, {frame.planes, static_cast<std::size_t>(frame.count)});
}

// The smallest separation (m) of the mover from any shape of `shapes`, by GJK on each: the cores'
// distance minus the radii, or -infinity when the cores overlap.
float MinSeparation(const World& world, const std::vector<ShapeId>& shapes, Vec2 position) {
  const Capsule mover = MoverAt(position);
  float least = INFINITY;
  for (ShapeId id : shapes) {
    least = std::min(
        least, mk::test::SurfaceSeparation(world.GetShapeGeometry(id), world.GetTransform(world.GetBody(id)),
                                           mover, Transform{}));
  }
  return least;
}

// A walled 24 x 16 m room with 40 random boxes, segments and hulls in it.
std::vector<ShapeId> BuildLevel(World& world, Rng& rng) {
  std::vector<ShapeId> shapes;
  const BodyId ground = world.CreateBody({});
  shapes.push_back(world.CreateShape(ground, {}, MakeOffsetBox(13.0f, 0.5f, {0.0f, -8.5f}, 0.0f).value));
  shapes.push_back(world.CreateShape(ground, {}, MakeOffsetBox(13.0f, 0.5f, {0.0f, 8.5f}, 0.0f).value));
  shapes.push_back(world.CreateShape(ground, {}, MakeOffsetBox(0.5f, 9.0f, {-12.5f, 0.0f}, 0.0f).value));
  shapes.push_back(world.CreateShape(ground, {}, MakeOffsetBox(0.5f, 9.0f, {12.5f, 0.0f}, 0.0f).value));
  for (int i = 0; i < 40; ++i) {
    const Vec2 centre{rng.Uniform(-11.0f, 11.0f), rng.Uniform(-7.0f, 7.0f)};
    const BodyId body = world.CreateBody({.position = centre, .angle = rng.Uniform(-3.14f, 3.14f)});
    switch (i % 3) {
      case 0:
        shapes.push_back(
            world.CreateShape(body, {}, MakeBox(rng.Uniform(0.1f, 1.5f), rng.Uniform(0.1f, 1.0f)).value));
        break;
      case 1:
        shapes.push_back(world.CreateShape(body, {}, MakeSegment(rng.InBox(1.5f), rng.InBox(1.5f)).value));
        break;
      default: {
        Vec2 points[6];
        for (Vec2& p : points) p = rng.InBox(1.2f);
        const GeometryResult<Polygon> hull = MakePolygon(points, rng.Uniform(0.0f, 0.1f));
        if (hull.ok()) shapes.push_back(world.CreateShape(body, {}, hull.value));
      }
    }
  }
  return shapes;
}

}  // namespace

TEST_SUITE("mover world") {
TEST_CASE("10000 random moves through random levels never end in overlap" * doctest::test_suite("long")) {
  Rng rng(29003);
  int moves = 0, blocked = 0;
  float least = INFINITY;
  for (int level = 0; level < 10; ++level) {
    World world;
    const std::vector<ShapeId> shapes = BuildLevel(world, rng);
    // A start the skin clear of everything.
    Vec2 position{0.0f, 0.0f};
    do position = {rng.Uniform(-11.0f, 11.0f), rng.Uniform(-7.0f, 7.0f)};
    while (MinSeparation(world, shapes, position) < kMoverSkin);
    Vec2 velocity{0.0f, 0.0f};
    Frame frame;
    for (int i = 0; i < 1000; ++i, ++moves) {
      // Mostly walking speeds, sometimes a dash that crosses several shapes in one frame.
      if (i % 10 == 0) velocity = rng.Uniform(0.0f, i % 100 == 0 ? 120.0f : 12.0f) * rng.Direction();
      const Vec2 wanted = position + kDt * velocity;
      Move(world, position, velocity, frame);
      bool pushed = Distance(wanted, position) > 1e-3f;
      for (int k = 0; k < frame.count; ++k) pushed = pushed || frame.planes[k].push > 0.0f;
      blocked += pushed ? 1 : 0;
      const float separation = MinSeparation(world, shapes, position);
      least = std::min(least, separation);
      // The cast keeps the skin, less kMoverEncroach while it slides: never an overlap.
      REQUIRE(separation >= 0.0f);
    }
  }
  MESSAGE(moves << " moves, " << blocked << " pressed against a shape, least separation " << least << " m");
  CHECK(moves == 10000);
  CHECK(blocked > 1000);  // the moves did meet the geometry
  CHECK(least >= kMoverSkin - 2.0f * kMoverEncroach - kShapeCastTolerance);
}

TEST_CASE("moving into a wall at an angle keeps the along-wall motion") {
  World world;
  const BodyId wall = world.CreateBody({});
  world.CreateShape(wall, {}, MakeOffsetBox(0.5f, 50.0f, {1.5f, 0.0f}, 0.0f).value);
  // Start against the wall (x = 1 face), the skin off it.
  Vec2 position{1.0f - kRadius - kMoverSkin, 0.0f};
  const float angle = 0.5f;  // radians from the wall's normal direction (+x)
  const Vec2 push = 5.0f * Vec2{std::cos(angle), std::sin(angle)};
  Frame frame;
  for (int step = 0; step < 60; ++step) {
    const float y0 = position.y;
    Vec2 velocity = push;
    Move(world, position, velocity, frame);
    CHECK(position.y - y0 == doctest::Approx(kDt * push.y).epsilon(1e-4));
    CHECK(position.x == doctest::Approx(1.0f - kRadius - kMoverSkin).epsilon(1e-4));
    CHECK(Near(velocity, {0.0f, push.y}, 1e-5f));
  }
}

// The game side of a walking character: it stands when a plane under it is flatter than the
// steepest walkable slope (then it ignores gravity), otherwise it falls and slides.
struct SlopeRun {
  float slideSpeed = 0.0f;    // along the slope at the end (m/s)
  float lastStepMove = 0.0f;  // how far it moved in the last step (m)
  int groundedSteps = 0;
};
SlopeRun RunOnSlope(float slope, int steps) {
  constexpr float kMaxWalkable = 0.8f;  // radians (46 degrees)
  World world;
  const BodyId ground = world.CreateBody({.angle = slope});
  world.CreateShape(ground, {}, MakeBox(30.0f, 1.0f).value);  // top face through the origin's normal
  const Vec2 up{-std::sin(slope), std::cos(slope)};
  // On the face, the skin above it: the capsule's lowest point is its bottom core point less the radius.
  Vec2 position = (1.0f + kMoverSkin + kRadius) * up + Vec2{0.0f, kHalfHeight};
  Vec2 velocity{0.0f, 0.0f};
  Frame frame;
  SlopeRun run;
  for (int step = 0; step < steps; ++step) {
    const Capsule mover = MoverAt(position);
    PlaneResult found[kMaxPlanes];
    const int n = world.CollideMover(mover, {}, found);
    bool grounded = false;
    for (int i = 0; i < n; ++i) {
      grounded = grounded || (found[i].plane.normal.y >= std::cos(kMaxWalkable) &&
                              found[i].separation <= 2.0f * kMoverSkin);
    }
    run.groundedSteps += grounded ? 1 : 0;
    if (grounded)
      velocity = {0.0f, 0.0f};
    else
      velocity += kDt * Vec2{0.0f, -10.0f};
    const Vec2 before = position;
    Move(world, position, velocity, frame);
    run.lastStepMove = Distance(before, position);
  }
  const Vec2 downhill{-std::cos(slope), -std::sin(slope)};
  run.slideSpeed = Dot(velocity, slope > 0.0f ? downhill : -downhill);
  return run;
}

TEST_CASE("a slope below the walkable angle holds the character still") {
  const SlopeRun run = RunOnSlope(0.5f, 120);  // 29 degrees
  CHECK(run.groundedSteps == 120);
  CHECK(run.lastStepMove == 0.0f);
}

TEST_CASE("a slope steeper than the walkable angle slides with g sin of its angle") {
  const float slope = 1.0f;  // 57 degrees
  const int steps = 60;
  const SlopeRun run = RunOnSlope(slope, steps);
  CHECK(run.groundedSteps == 0);
  // Each step adds g dt down; the clip keeps its along-slope part, g sin(slope) dt.
  CHECK(run.slideSpeed == doctest::Approx(steps * kDt * 10.0f * std::sin(slope)).epsilon(1e-3));
}

TEST_CASE("bad movers and translations are refused") {
  mk::test::AssertCounter asserts;
  World world;
  mk::test::AddGround(world);
  PlaneResult found[4];
  CHECK(world.CollideMover({{0.0f, 1.0f}, {0.0f, 2.0f}, -0.1f}, {}, found) == 0);
  CHECK(world.CollideMover({{NAN, 1.0f}, {0.0f, 2.0f}, 0.1f}, {}, found) == 0);
  CHECK(world.CastMover({{0.0f, 1.0f}, {0.0f, 2.0f}, 0.0f}, {1.0f, 0.0f}) == 0.0f);
  CHECK(world.CastMover({{0.0f, 1.0f}, {0.0f, 2.0f}, 0.5f}, {INFINITY, 0.0f}) == 0.0f);
  CHECK(world.CastMover({{0.0f, 1.0f}, {0.0f, 2.0f}, 0.5f}, {1e9f, 0.0f}) == 0.0f);
  CHECK(asserts.Count() == 5);
  // A valid mover on the ground: one plane, up, the skin-less separation as offset.
  CHECK(world.CollideMover({{0.0f, 0.52f}, {0.0f, 1.5f}, 0.5f}, {}, found) == 1);
  CHECK(Near(found[0].plane.normal, {0.0f, 1.0f}, 1e-5f));
  CHECK(found[0].separation == doctest::Approx(0.02f).epsilon(1e-3));
  CHECK(found[0].plane.offset == doctest::Approx(0.02f - kMoverSkin).epsilon(1e-3));
  // Falling 1 m onto it from 0.02 m: stops the skin off, at fraction (0.02 - skin) / 1.
  const float f = world.CastMover({{0.0f, 0.52f}, {0.0f, 1.5f}, 0.5f}, {0.0f, -1.0f});
  CHECK(f == doctest::Approx(0.02f - kMoverSkin).epsilon(0.02));
  CHECK(asserts.Count() == 5);
}
}  // TEST_SUITE("mover world")

TEST_SUITE("mover world") {
TEST_CASE("mover queries are refused inside a broadphase walk and work from an overlap visitor") {
  World world;
  mk::test::AddGround(world);
  const Capsule mover{{0.0f, 0.52f}, {0.0f, 1.5f}, 0.5f};
  PlaneResult found[2];
  int inWalk = -1, inOverlap = -1;
  float castInWalk = -1.0f;
  {
    mk::test::AssertCounter asserts;
    world.CastRay({0.0f, 5.0f}, {0.0f, -10.0f}, {}, [&](const CastHit& hit) {
      inWalk = world.CollideMover(mover, {}, found);
      castInWalk = world.CastMover(mover, {0.0f, -1.0f});
      return hit.fraction;
    });
    CHECK(asserts.Count() == 2);  // the ray walk is calling game code: both refused
  }
  CHECK(inWalk == 0);
  CHECK(castInWalk == 0.0f);
  mk::test::AssertCounter asserts;
  world.OverlapAABB({{-1.0f, -1.0f}, {1.0f, 1.0f}}, {}, [&](ShapeId) {
    inOverlap = world.CollideMover(mover, {}, found);  // candidates were collected first: allowed
    return true;
  });
  CHECK(asserts.Count() == 0);
  CHECK(inOverlap == 1);
}
}  // TEST_SUITE("mover world")
