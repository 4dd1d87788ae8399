// SPDX-License-Identifier: MIT
// Geometry changed in place (World::SetCircle, SetCapsule, SetSegment, SetPolygon; modify_geometry.cpp):
// the body's mass is that of a body made fresh with the new geometry (and the analytic value); a
// resting ball whose radius changes settles at its new radius; queries see the new extent, not the
// old; contact events fire for exactly the pairs a brute-force overlap test names; type changes keep
// snapshots exact; refused calls change nothing; a static shape that grows wakes the sleepers it meets.
#include "minkowski/replay.h"
#include "minkowski/world.h"
#include "minkowski/world_vector.h"
#include "test_util.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <set>
#include <span>
#include <utility>
#include <vector>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kPi = std::numbers::pi_v<float>;

bool SameMass(const MassData& a, const MassData& b) {
  return a.mass == b.mass && a.center == b.center && a.rotationalInertia == b.rotationalInertia;
}

// The mass data of a body at the origin made with `first` and then `second` (the order the body's
// shape list gets when `second` replaced a shape created after `first`).
template <class A, class B>
MassData FreshMass(const A& first, const B& second, float densityA, float densityB) {
  World world;
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic});
  world.CreateShape(body, {.density = densityA}, first);
  world.CreateShape(body, {.density = densityB}, second);
  return world.GetMassData(body);
}

// Signed distance (m) from a point to a box of half extents (hx, hy) centred at the origin: negative
// inside. Ericson, Real-Time Collision Detection, 5.1.3 (the outside part) and the deepest face inside.
float BoxDistance(Vec2 p, float hx, float hy) {
  const float dx = std::fabs(p.x) - hx, dy = std::fabs(p.y) - hy;
  if (dx <= 0.0f && dy <= 0.0f) return std::max(dx, dy);
  return std::hypot(std::max(dx, 0.0f), std::max(dy, 0.0f));
}

// Signed distance from a point to a capsule p1-p2 of radius r: the distance to the segment minus r.
float CapsuleDistance(Vec2 p, Vec2 p1, Vec2 p2, float r) {
  const Vec2 d = p2 - p1;
  const float t = std::clamp(Dot(p - p1, d) / Dot(d, d), 0.0f, 1.0f);
  return Length(p - (p1 + t * d)) - r;
}

using PairSet = std::set<std::pair<std::uint32_t, std::uint32_t>>;

// The other shape of each event that names `shape` (event pairs come in slot order).
template <class Event>
std::set<std::uint32_t> Partners(Span<const Event> events, ShapeId shape) {
  std::set<std::uint32_t> out;
  for (const Event& e : events) {
    if (e.shapeA == shape) out.insert(e.shapeB.index1);
    if (e.shapeB == shape) out.insert(e.shapeA.index1);
  }
  return out;
}

// The ground, a ball of 0.5 m at (0, 2) and a box falling on it; returns the ball's shape.
ShapeId AddBallUnderBox(World& world) {
  test::AddGround(world);
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 2.0f}});
  test::AddBox(world, {0.3f, 4.0f}, 0.3f);
  return world.CreateShape(body, {}, Circle{{0.0f, 0.0f}, 0.5f});
}

}  // namespace

TEST_SUITE("world.shape_geometry") {

TEST_CASE("mass after each geometry change equals a body made fresh with it and the analytic value") {
  World world;
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {3.0f, 4.0f}, .angle = 0.7f});
  const Polygon base = MakeOffsetBox(0.5f, 0.25f, {-1.0f, 0.0f}, 0.3f).value;
  world.CreateShape(body, {.density = 2.0f}, base);
  const ShapeId shape = world.CreateShape(body, {.density = 3.0f}, Circle{{0.0f, 0.0f}, 0.2f});

  const Circle circle{{0.5f, 0.25f}, 0.75f};
  SetCircle(world, shape, circle);
  CHECK(world.GetShapeType(shape) == ShapeType::Circle);
  CHECK(SameMass(world.GetMassData(body), FreshMass(base, circle, 2.0f, 3.0f)));

  const Capsule capsule{{-0.3f, 0.1f}, {0.6f, 0.4f}, 0.3f};
  SetCapsule(world, shape, capsule);
  CHECK(world.GetShapeType(shape) == ShapeType::Capsule);
  CHECK(SameMass(world.GetMassData(body), FreshMass(base, capsule, 2.0f, 3.0f)));

  const Polygon gon = MakeRegularPolygon(12, 0.9f, 0.05f).value;  // out-of-line storage
  SetPolygon(world, shape, gon);
  CHECK(world.GetShapeType(shape) == ShapeType::Polygon);
  CHECK(SameMass(world.GetMassData(body), FreshMass(base, gon, 2.0f, 3.0f)));

  const Segment segment{{0.0f, 0.0f}, {2.0f, 0.0f}};  // no area: only the box's mass is left
  SetSegment(world, shape, segment);
  CHECK(SameMass(world.GetMassData(body), FreshMass(base, segment, 2.0f, 3.0f)));

  SUBCASE("a lone circle and a lone box have their analytic mass") {
    World w;
    const BodyId b = w.CreateBody({.type = BodyType::Dynamic});
    const ShapeId s = w.CreateShape(b, {.density = 2.0f}, MakeBox(0.1f, 0.1f).value);
    SetCircle(w, s, {{0.5f, -0.25f}, 0.75f});
    const float m = 2.0f * kPi * 0.75f * 0.75f;
    CHECK(w.GetMass(b) == doctest::Approx(m).epsilon(1e-5));
    CHECK(test::Near(w.GetLocalCenterOfMass(b), {0.5f, -0.25f}, 1e-6f));
    CHECK(w.GetRotationalInertia(b) == doctest::Approx(0.5f * m * 0.75f * 0.75f).epsilon(1e-5));
    SetPolygon(w, s, MakeBox(1.5f, 0.5f).value);  // 3 m x 1 m
    CHECK(w.GetMass(b) == doctest::Approx(2.0f * 3.0f).epsilon(1e-5));
    CHECK(test::Near(w.GetLocalCenterOfMass(b), {0.0f, 0.0f}, 1e-6f));
    CHECK(w.GetRotationalInertia(b) == doctest::Approx(6.0f * (9.0f + 1.0f) / 12.0f).epsilon(1e-5));
  }
  SUBCASE("a SetMassData override is dropped for the shapes' mass") {
    world.SetMassData(body, {.mass = 50.0f, .center = {0.0f, 0.0f}, .rotationalInertia = 5.0f});
    SetCircle(world, shape, circle);
    CHECK(SameMass(world.GetMassData(body), FreshMass(base, circle, 2.0f, 3.0f)));
  }
  // The body origin stays where it was; the centre of mass follows the new shapes.
  CHECK(world.GetPosition(body) == Vec2{3.0f, 4.0f});
}

TEST_CASE("a ball resting on the ground settles at its new radius when the radius changes") {
  World world;
  test::AddGround(world);
  const float slop = world.GetSolverSettings().linearSlop;
  const BodyId ball = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 0.5f}});
  const ShapeId shape = world.CreateShape(ball, {}, Circle{{0.0f, 0.0f}, 0.5f});
  for (int i = 0; i < 300; ++i) world.Step(kDt);
  CHECK(!world.IsAwake(ball));  // at rest and asleep before the change
  CHECK(std::fabs(world.GetPosition(ball).y - 0.5f) <= slop);
  for (float radius : {1.0f, 0.25f, 0.6f}) {
    SetCircle(world, shape, {{0.0f, 0.0f}, radius});
    CHECK(world.IsAwake(ball));
    for (int i = 0; i < 180; ++i) world.Step(kDt);
    INFO("radius " << radius);
    CHECK(std::fabs(world.GetPosition(ball).y - radius) <= slop);
    CHECK(std::fabs(world.GetPosition(ball).x) <= slop);
  }
}

TEST_CASE("queries find the shape at its new extent and not at its old") {
  World world({.gravity = {0.0f, 0.0f}});
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 5.0f}});
  const ShapeId shape = world.CreateShape(body, {}, Circle{{0.0f, 0.0f}, 0.5f});
  world.Step(kDt);
  auto found = [&](auto&& overlap) {
    bool hit = false;
    overlap([&](ShapeId s) {
      hit = hit || s == shape;
      return true;
    });
    return hit;
  };
  auto atPoint = [&](Vec2 p) { return found([&](auto visit) { world.OverlapPoint(p, {}, visit); }); };
  auto inBox = [&](const AABB& box) { return found([&](auto visit) { world.QueryAABB(box, visit); }); };
  CHECK(atPoint({0.0f, 5.4f}));
  CHECK(!atPoint({1.5f, 5.0f}));
  // A flat box 4 m x 0.2 m: it reaches x = 1.5 and no longer y = 5.4; at once and after a Step.
  SetPolygon(world, shape, MakeBox(2.0f, 0.1f).value);
  for (int pass = 0; pass < 2; ++pass) {
    CHECK(atPoint({1.5f, 5.0f}));
    CHECK(!atPoint({0.0f, 5.4f}));
    CHECK(inBox({{1.8f, 4.9f}, {1.9f, 5.0f}}));
    const AABB box = world.GetAABB(shape);
    CHECK(test::Near(box.lower, {-2.0f, 4.9f}, 1e-5f));
    CHECK(test::Near(box.upper, {2.0f, 5.1f}, 1e-5f));
    const CastHit ray = world.CastRayClosest({1.9f, 7.0f}, {0.0f, -4.0f});
    CHECK(ray.hit);
    CHECK(ray.shape == shape);
    CHECK(ray.point.y == doctest::Approx(5.1f).epsilon(1e-5));
    world.Step(kDt);
  }
  // Back to a circle of 0.3 m: the broadphase box shrinks too (nothing at x = 1.5 any more).
  SetCircle(world, shape, {{0.0f, 0.0f}, 0.3f});
  CHECK(!inBox({{1.4f, 4.9f}, {1.6f, 5.1f}}));
  CHECK(world.CastRayClosest({0.0f, 7.0f}, {0.0f, -4.0f}).point.y == doctest::Approx(5.3f).epsilon(1e-5));
}

TEST_CASE("contact begin and end events name exactly the pairs a brute-force overlap test finds") {
  // A static body at the origin whose shape changes; 40 small balls around it, none touching another,
  // none within 0.1 m of touching or not touching the shape (so the oracle's answer is unambiguous),
  // no gravity. Changing the shape destroys its contacts: the next Step reports an end event for
  // every pair that touched, and a begin event for every pair the new geometry touches.
  World world({.gravity = {0.0f, 0.0f}});
  const BodyId center = world.CreateBody({});
  const ShapeId shape = world.CreateShape(center, {}, Circle{{0.0f, 0.0f}, 0.1f});
  constexpr float kR = 0.15f, kBand = 0.1f;
  const auto boxDistance = [](Vec2 p) { return BoxDistance(p, 1.8f, 0.6f) - kR; };
  const Vec2 c1{-1.0f, -0.4f}, c2{1.2f, 0.7f};
  test::Rng rng(29);
  std::vector<BodyId> balls;
  std::vector<ShapeId> ballShapes;
  std::vector<Vec2> centres;
  while (balls.size() < 40) {
    const Vec2 p = rng.InBox(2.5f);
    const float box = boxDistance(p), capsule = CapsuleDistance(p, c1, c2, 0.5f) - kR;
    if (std::fabs(box) < kBand || std::fabs(capsule) < kBand || Length(p) - kR < kBand) continue;
    if (std::any_of(centres.begin(), centres.end(), [&](Vec2 q) { return Distance(p, q) < 2 * kR + kBand; }))
      continue;
    centres.push_back(p);
    balls.push_back(world.CreateBody({.type = BodyType::Dynamic, .position = p, .enableSleep = false}));
    ballShapes.push_back(world.CreateShape(balls.back(), {}, Circle{{0.0f, 0.0f}, kR}));
  }
  // The oracle: the balls whose centres lie within kR of the geometry, by the analytic distance.
  auto oracle = [&](auto&& distance) {
    std::set<std::uint32_t> touching;
    for (std::size_t i = 0; i < balls.size(); ++i) {
      if (distance(world.GetPosition(balls[i])) < 0.0f) touching.insert(ballShapes[i].index1);
    }
    return touching;
  };

  SetPolygon(world, shape, MakeBox(1.8f, 0.6f).value);
  const std::set<std::uint32_t> boxTouching = oracle(boxDistance);
  CHECK(boxTouching.size() >= 5);
  world.Step(kDt);
  CHECK(Partners(world.GetContactBeginEvents(), shape) == boxTouching);
  CHECK(world.GetContactBeginEvents().size() == boxTouching.size());  // no ball touches another
  CHECK(world.GetContactEndEvents().empty());

  // A capsule, read at the balls' positions now (the box pushed some of them for one step, by at most
  // contactPushMaxSpeed x the step, 0.05 m: within the band): every box contact ends, the capsule's begin.
  const float pushPerStep = world.GetSolverSettings().contactPushMaxSpeed * kDt;
  for (std::size_t i = 0; i < balls.size(); ++i)
    REQUIRE(Distance(world.GetPosition(balls[i]), centres[i]) <= 1.001f * pushPerStep);
  const auto capsuleDistance = [&](Vec2 p) { return CapsuleDistance(p, c1, c2, 0.5f) - kR; };
  const std::set<std::uint32_t> capsuleTouching = oracle(capsuleDistance);
  SetCapsule(world, shape, {c1, c2, 0.5f});
  world.Step(kDt);
  CHECK(Partners(world.GetContactEndEvents(), shape) == boxTouching);
  CHECK(world.GetContactEndEvents().size() == boxTouching.size());
  CHECK(Partners(world.GetContactBeginEvents(), shape) == capsuleTouching);
  CHECK(capsuleTouching != boxTouching);

  // A small circle touches none: only end events.
  SetCircle(world, shape, {{0.0f, 0.0f}, 0.1f});
  world.Step(kDt);
  CHECK(Partners(world.GetContactEndEvents(), shape) == capsuleTouching);
  CHECK(Partners(world.GetContactBeginEvents(), shape).empty());
}

TEST_CASE("a static shape grown into a sleeping body wakes it and pushes it out") {
  World world({.gravity = {0.0f, 0.0f}});
  const BodyId post = world.CreateBody({});
  const ShapeId shape = world.CreateShape(post, {}, Circle{{0.0f, 0.0f}, 1.0f});
  const BodyId box =
      world.CreateBody({.type = BodyType::Dynamic, .position = {2.5f, 0.0f}, .isAwake = false});
  world.CreateShape(box, {}, MakeBox(0.5f, 0.5f).value);
  world.Step(kDt);
  CHECK(!world.IsAwake(box));
  SetCircle(world, shape, {{0.0f, 0.0f}, 2.5f});  // now reaches 0.5 m into the box
  CHECK(world.IsAwake(box));
  for (int i = 0; i < 120; ++i) world.Step(kDt);
  // Pushed out along x: its near face (x - 0.5) ends at the circle, within the slop.
  CHECK(world.GetPosition(box).x - 0.5f >= 2.5f - world.GetSolverSettings().linearSlop);
}

TEST_CASE("changing type circle polygon capsule segment keeps snapshots and their steps exact") {
  World world;
  const ShapeId shape = AddBallUnderBox(world);
  const BodyId body = world.GetBody(shape);
  std::vector<std::byte> snapshot;
  for (int phase = 0; phase < 4; ++phase) {
    for (int i = 0; i < 20; ++i) world.Step(kDt);
    if (phase == 0) SetPolygon(world, shape, MakeRegularPolygon(7, 0.6f).value);
    if (phase == 1) SetCapsule(world, shape, {{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.3f});
    if (phase == 2) SetPolygon(world, shape, MakeRegularPolygon(16, 0.5f).value);  // out of line
    if (phase == 3) SetSegment(world, shape, {{-0.5f, 0.0f}, {0.5f, 0.0f}});
    mk::SaveSnapshot(world, snapshot);
    World restored;
    INFO("phase " << phase);
    REQUIRE(restored.RestoreSnapshot(snapshot).ok());
    CHECK(restored.StateHash() == world.StateHash());
    // The restored world steps as the world that saved it does (which goes on to the next phase).
    for (int i = 0; i < 30; ++i) restored.Step(kDt), world.Step(kDt);
    CHECK(restored.StateHash() == world.StateHash());
  }
  CHECK(world.GetShapeType(shape) == ShapeType::Segment);
  CHECK(IsFinite(world.GetPosition(body)));
}

TEST_CASE("a restored world after a type change steps to the hash of the world that saved it") {
  World world;
  const ShapeId shape = AddBallUnderBox(world);
  for (int i = 0; i < 30; ++i) world.Step(kDt);
  SetPolygon(world, shape, MakeBox(0.8f, 0.2f).value);  // the contacts are gone until the next Step
  const std::vector<std::byte> snapshot = mk::SaveSnapshot(world);
  World restored;
  REQUIRE(restored.RestoreSnapshot(snapshot).ok());
  for (int i = 0; i < 60; ++i) {
    world.Step(kDt), restored.Step(kDt);
    if (i == 20) SetCapsule(world, shape, {{0.0f, -0.4f}, {0.0f, 0.4f}, 0.2f});
    if (i == 20) SetCapsule(restored, restored.AdoptId(shape), {{0.0f, -0.4f}, {0.0f, 0.4f}, 0.2f});
  }
  CHECK(restored.StateHash() == world.StateHash());
  CHECK(restored.GetShapeType(restored.AdoptId(shape)) == ShapeType::Capsule);
}

TEST_CASE("a recording of geometry changes replays to the same hash and a version 2 file may not hold one") {
  World world;
  world.StartRecording();
  const ShapeId shape = AddBallUnderBox(world);
  std::vector<std::uint64_t> hashes;
  for (int i = 0; i < 60; ++i) {
    if (i == 10) SetPolygon(world, shape, MakeRegularPolygon(5, 0.6f).value);
    if (i == 25) SetCapsule(world, shape, {{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.25f});
    if (i == 40) SetSegment(world, shape, {{-0.5f, 0.0f}, {0.5f, 0.0f}});
    if (i == 50) SetCircle(world, shape, {{0.0f, 0.1f}, 0.4f});
    world.Step(kDt);
    hashes.push_back(world.StateHash());
  }
  std::vector<std::byte> file = mk::StopRecording(world);
  Replay replay;
  REQUIRE(Replay::Load(file, replay) == ReplayError::None);
  ReplayPlayer player(std::move(replay));
  int mismatches = 0;
  for (std::size_t k = 1; k <= hashes.size(); ++k) {
    player.StepTo(k);
    mismatches += player.GetWorld().StateHash() == hashes[k - 1] ? 0 : 1;
  }
  CHECK(mismatches == 0);
  // The same bytes labelled version 2 (the checksum covers the body only): the opcodes are version 3's.
  file[8] = std::byte{2};
  Replay old;
  CHECK(Replay::Load(file, old) == ReplayError::BadRecord);
}

TEST_CASE("refused geometry changes leave the shape and body unchanged") {
  test::AssertCounter asserts;
  World world;
  test::AddGround(world);
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 1.0f}});
  const ShapeId shape = world.CreateShape(body, {.density = 1e6f}, MakeBox(0.5f, 0.5f).value);
  const std::array<Vec2, 3> points{Vec2{-2.0f, 0.0f}, Vec2{0.0f, 0.0f}, Vec2{2.0f, 0.0f}};
  const ChainId chain = world.CreateChain(world.CreateBody({}), {.points = points});
  const ShapeId segment = mk::GetChainSegments(world, chain)[0];
  world.Step(kDt);
  const MassData mass = world.GetMassData(body);
  const AABB box = world.GetAABB(shape);
  const Polygon before = GetPolygon(world, shape);
  const ChainSegment segmentBefore = GetChainSegment(world, segment);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Polygon collinear = MakeBox(0.5f, 0.5f).value;
  collinear.vertices[1] = {0.0f, -0.5f};
  Polygon inconsistent = MakeBox(0.5f, 0.5f).value;
  inconsistent.centroid = {3.0f, 0.0f};
  ShapeId stale = world.CreateShape(body, {}, Circle{});
  world.DestroyShape(stale);
  const int startAsserts = asserts.Count();

  SetCircle(world, shape, {{nan, 0.0f}, 0.5f});
  SetCircle(world, shape, {{0.0f, 0.0f}, 0.0f});
  SetCircle(world, shape, {{0.0f, 0.0f}, -1.0f});
  SetCircle(world, shape, {{2e5f, 0.0f}, 1.0f});  // beyond kMaxWorldLength
  SetCapsule(world, shape, {{1.0f, 1.0f}, {1.0f, 1.0f}, 0.2f});
  SetCapsule(world, shape, {{0.0f, 0.0f}, {1.0f, 0.0f}, std::numeric_limits<float>::infinity()});
  SetSegment(world, shape, {{0.0f, 0.0f}, {0.0f, 0.0f}});
  SetPolygon(world, shape, collinear);
  SetPolygon(world, shape, inconsistent);
  SetPolygon(world, shape, Polygon{});            // count 0
  SetCircle(world, shape, {{0.0f, 0.0f}, 9e4f});  // a valid radius, but 2.5e16 kg: past kMaxBodyMass
  SetCircle(world, stale, {{0.0f, 0.0f}, 0.5f});
  SetCircle(world, ShapeId{}, {{0.0f, 0.0f}, 0.5f});
  SetSegment(world, segment, {{-1.0f, 0.0f}, {1.0f, 0.0f}});  // a chain's segment
  SetCircle(world, segment, {{0.0f, 0.0f}, 0.5f});
  CHECK(asserts.Count() - startAsserts == 15);

  CHECK(world.GetShapeType(shape) == ShapeType::Polygon);
  const Polygon after = GetPolygon(world, shape);
  CHECK(after.count == before.count);
  CHECK(std::memcmp(after.vertices, before.vertices, sizeof(Vec2) * static_cast<std::size_t>(before.count)) ==
        0);
  CHECK(SameMass(world.GetMassData(body), mass));
  CHECK(world.GetAABB(shape).lower == box.lower);
  CHECK(world.GetAABB(shape).upper == box.upper);
  CHECK(world.GetShapeType(segment) == ShapeType::ChainSegment);
  CHECK(GetChainSegment(world, segment).segment.p1 == segmentBefore.segment.p1);
  CHECK(GetChainSegment(world, segment).segment.p2 == segmentBefore.segment.p2);

  SUBCASE("the typed getters refuse another type and a stale id with the type's default") {
    const int n = asserts.Count();
    CHECK(GetCircle(world, shape).radius == Circle{}.radius);
    CHECK(GetCapsule(world, shape).radius == Capsule{}.radius);
    CHECK(GetSegment(world, shape).p2 == Segment{}.p2);
    CHECK(GetPolygon(world, stale).count == 0);
    CHECK(GetChainSegment(world, shape).ghost2 == ChainSegment{}.ghost2);
    CHECK(asserts.Count() - n == 5);
  }
}

TEST_CASE("the typed getters return the geometry that was set") {
  World world;
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic});
  const ShapeId shape = world.CreateShape(body, {}, Circle{{0.0f, 0.0f}, 0.5f});
  SetCapsule(world, shape, {{-1.0f, 0.5f}, {1.0f, 0.25f}, 0.125f});
  const Capsule c = GetCapsule(world, shape);
  CHECK(c.p1 == Vec2{-1.0f, 0.5f});
  CHECK(c.p2 == Vec2{1.0f, 0.25f});
  CHECK(c.radius == 0.125f);
  SetSegment(world, shape, {{0.0f, 1.0f}, {2.0f, 3.0f}});
  CHECK(GetSegment(world, shape).p2 == Vec2{2.0f, 3.0f});
  const Polygon gon = MakeRegularPolygon(10, 0.5f, 0.1f).value;
  SetPolygon(world, shape, gon);
  const Polygon got = GetPolygon(world, shape);
  REQUIRE(got.count == 10);
  CHECK(got.radius == 0.1f);
  for (int i = 0; i < 10; ++i) CHECK(got.vertices[i] == gon.vertices[i]);
  SetCircle(world, shape, {{0.25f, 0.0f}, 0.75f});
  CHECK(GetCircle(world, shape).center == Vec2{0.25f, 0.0f});
  CHECK(GetCircle(world, shape).radius == 0.75f);
}

}  // TEST_SUITE("world.shape_geometry")
