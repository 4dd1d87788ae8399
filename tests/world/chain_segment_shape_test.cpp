// SPDX-License-Identifier: MIT
// Standalone chain segments (CreateChainSegmentShape, SetChainSegment in minkowski/shape_api.h): they
// collide exactly as the same segment of a chain (bit for bit against a one-segment chain with the
// same ghosts), one-sidedly (a body from behind passes as through empty space, a ray from behind
// misses), have no mass, can be destroyed and moved alone while a chain's segment cannot, persist in
// snapshots and replays, and bad input changes nothing.
#include "minkowski/replay.h"
#include "minkowski/world_vector.h"
#include "world/world_fixture.h"
#include "world/world_state.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <span>
#include <vector>

using namespace mk;

TEST_SUITE("world_chain_segment_shape") {
namespace {

constexpr float kDt = 1.0f / 60.0f;

bool Same(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }

// A floor from x = 10 to x = -10 at y = 0 (right to left: the front side is up). An open chain's end
// ghosts lie behind its ends by the segment's length (ChainDef): 20 m down.
const std::array<Vec2, 2> kFloor{Vec2{10.0f, 0.0f}, Vec2{-10.0f, 0.0f}};
const ChainSegment kFloorSegment{{10.0f, -20.0f}, {{10.0f, 0.0f}, {-10.0f, 0.0f}}, {-10.0f, -20.0f}};

struct Pose {
  Vec2 position, velocity;
  float angle, angularVelocity;
};

Pose PoseOf(const World& world, BodyId body) {
  return {world.GetPosition(body), world.GetLinearVelocity(body), world.GetAngle(body),
          world.GetAngularVelocity(body)};
}

bool SamePose(const Pose& a, const Pose& b) {
  return Same(a.position, b.position) && Same(a.velocity, b.velocity) && a.angle == b.angle &&
         a.angularVelocity == b.angularVelocity;
}

// A world whose static floor is the one-segment chain (`standalone` false) or the standalone chain
// segment with the same points and ghosts, then a box at `start` with `velocity` and `angle`.
struct FloorWorld {
  World world;
  BodyId ground, box;
  ShapeId floor;
  FloorWorld(bool standalone, Vec2 start, Vec2 velocity, float angle) {
    ground = world.CreateBody({});
    if (standalone) {
      floor = CreateChainSegmentShape(world, ground, {.friction = 0.1f}, kFloorSegment);
    } else {
      const ChainId chain = world.CreateChain(ground, {.points = kFloor, .friction = 0.1f});
      floor = mk::GetChainSegments(world, chain).at(0);
    }
    box = world.CreateBody({.type = BodyType::Dynamic, .position = start, .angle = angle});
    world.CreateShape(box, {.friction = 0.1f}, MakeBox(0.5f, 0.5f).value);
    world.SetLinearVelocity(box, velocity);
  }
};

}  // namespace

TEST_CASE("the one-segment chain's ghosts are the ones the standalone segment is given") {
  FloorWorld chain(false, {0.0f, 5.0f}, {}, 0.0f);
  const ChainSegment g = GetChainSegment(chain.world, chain.floor);
  CHECK((Same(g.ghost1, kFloorSegment.ghost1) && Same(g.ghost2, kFloorSegment.ghost2)));
  CHECK((Same(g.segment.p1, kFloorSegment.segment.p1) && Same(g.segment.p2, kFloorSegment.segment.p2)));
}

TEST_CASE("a box dropped tumbling onto a standalone chain segment moves bit for bit as onto the chain") {
  // Dropped turned and thrown along the floor, it lands on a corner, slides and goes over the end at
  // x = -10 (the open end's corner): every step's pose must be the chain world's.
  FloorWorld chain(false, {-2.0f, 3.0f}, {-6.0f, 0.0f}, 0.6f);
  FloorWorld standalone(true, {-2.0f, 3.0f}, {-6.0f, 0.0f}, 0.6f);
  CHECK(standalone.world.GetChain(standalone.floor).IsNull());
  CHECK(!chain.world.GetChain(chain.floor).IsNull());
  int differing = 0;
  float lowest = 10.0f, slideError = 0.0f;
  for (int i = 0; i < 180; ++i) {
    chain.world.Step(kDt);
    standalone.world.Step(kDt);
    if (!SamePose(PoseOf(chain.world, chain.box), PoseOf(standalone.world, standalone.box))) ++differing;
    const Vec2 p = standalone.world.GetPosition(standalone.box);
    if (p.x > -9.0f) lowest = std::fmin(lowest, p.y);
    if (i >= 90 && p.x > -9.0f) slideError = std::fmax(slideError, std::fabs(p.y - 0.5f));
  }
  CHECK(differing == 0);
  // It stayed on the floor's front side: landing at 7.7 m/s its soft contact lets it in by 1.5 cm
  // (measured), far from falling through; sliding flat from 1.5 s on, its centre is half its height
  // above the floor (within the linear slop); then it leaves over the end.
  CHECK(lowest >= 0.45f);
  CHECK(slideError <= 0.005f);
  CHECK(standalone.world.GetPosition(standalone.box).x < -10.0f);
  CHECK(standalone.world.GetPosition(standalone.box).y < -1.0f);
}

TEST_CASE("a box thrown up from behind a standalone chain segment passes with its free-flight velocity") {
  // The oracle: the same box in a world with no floor at all, stepped alike (free flight). While the
  // box straddles the line its soft contact may nudge its position within a sub-step (its velocity is
  // relaxed back): measured 1.4 mm, as a chain does; the velocity it leaves with must be free flight's.
  FloorWorld standalone(true, {1.0f, -2.0f}, {0.5f, 12.0f}, 0.3f);
  FloorWorld chain(false, {1.0f, -2.0f}, {0.5f, 12.0f}, 0.3f);
  World empty;
  empty.CreateBody({});
  const BodyId box = empty.CreateBody({.type = BodyType::Dynamic, .position = {1.0f, -2.0f}, .angle = 0.3f});
  empty.CreateShape(box, {.friction = 0.1f}, MakeBox(0.5f, 0.5f).value);
  empty.SetLinearVelocity(box, {0.5f, 12.0f});
  int differingFromChain = 0, velocityDiffers = 0;
  float positionError = 0.0f;
  for (int i = 0; i < 40; ++i) {  // up through the floor (crossing it after 10 steps), still rising
    standalone.world.Step(kDt);
    chain.world.Step(kDt);
    empty.Step(kDt);
    if (!SamePose(PoseOf(chain.world, chain.box), PoseOf(standalone.world, standalone.box)))
      ++differingFromChain;
    const Pose a = PoseOf(standalone.world, standalone.box), b = PoseOf(empty, box);
    if (!Same(a.velocity, b.velocity) || a.angularVelocity != b.angularVelocity) ++velocityDiffers;
    positionError = std::fmax(positionError, Length(a.position - b.position));
  }
  CHECK(differingFromChain == 0);
  CHECK(velocityDiffers == 0);
  CHECK(positionError <= 0.002f);
  CHECK(standalone.world.GetPosition(standalone.box).y > 2.0f);
  // The control: from the front, the same throw downwards is stopped on the floor.
  FloorWorld front(true, {1.0f, 2.0f}, {0.5f, -12.0f}, 0.3f);
  for (int i = 0; i < 40; ++i) front.world.Step(kDt);
  CHECK(front.world.GetPosition(front.box).y > 0.45f);
}

TEST_CASE(
    "a ray from behind a standalone chain segment misses and from the front hits at the analytic point") {
  World world;
  const BodyId ground = world.CreateBody({.position = {1.0f, 2.0f}});
  const ShapeId shape = CreateChainSegmentShape(world, ground, {}, kFloorSegment);
  REQUIRE(!shape.IsNull());
  // Body-local y = 0 is world y = 2; the ray from (0.5, 7) down 10 m meets it at (0.5, 2): fraction 0.5.
  const CastHit front = world.CastRayClosest({0.5f, 7.0f}, {0.0f, -10.0f});
  CHECK(front.hit);
  CHECK(front.shape == shape);
  CHECK(front.point.x == doctest::Approx(0.5f).epsilon(1e-6));
  CHECK(front.point.y == doctest::Approx(2.0f).epsilon(1e-6));
  CHECK(front.fraction == doctest::Approx(0.5f).epsilon(1e-6));
  CHECK((front.normal.x == doctest::Approx(0.0f) && front.normal.y == doctest::Approx(1.0f)));
  CHECK(!world.CastRayClosest({0.5f, -3.0f}, {0.0f, 10.0f}).hit);
  // The control: a two-sided segment in its place is hit from below.
  SetSegment(world, shape, kFloorSegment.segment);
  CHECK(world.CastRayClosest({0.5f, -3.0f}, {0.0f, 10.0f}).hit);
}

TEST_CASE("a standalone chain segment has no mass and DestroyShape removes it alone") {
  World world;
  const BodyId body = test::AddBox(world, {0.0f, 5.0f});
  const float mass = world.GetMass(body);
  REQUIRE(mass == doctest::Approx(1.0f));  // 1 m^2 at 1 kg/m^2
  const ShapeId shape = CreateChainSegmentShape(world, body, {.density = 5.0f}, kFloorSegment);
  REQUIRE(!shape.IsNull());
  CHECK(world.GetMass(body) == mass);
  CHECK(world.GetShapeType(shape) == ShapeType::ChainSegment);

  const AABB around{{-1.0f, 4.5f}, {1.0f, 5.5f}};  // body-local y = 0 is world y = 5
  auto found = [&world, &around](ShapeId id) {
    bool seen = false;
    world.QueryAABB(around, [&](ShapeId s) {
      seen = seen || s == id;
      return true;
    });
    return seen;
  };
  CHECK(found(shape));
  CHECK(world.DestroyShape(shape));
  CHECK(!world.IsValid(shape));
  CHECK(!found(shape));
  CHECK(world.GetMass(body) == mass);

  // A chain's segment still cannot go alone.
  const BodyId ground = world.CreateBody({});
  const ChainId chain = world.CreateChain(ground, {.points = kFloor});
  const ShapeId segment = mk::GetChainSegments(world, chain).at(0);
  test::AssertCounter asserts;
  CHECK(!world.DestroyShape(segment));
  CHECK(asserts.Count() == 1);
  CHECK(world.IsValid(segment));
}

TEST_CASE("SetChainSegment moves a standalone chain segment - queries and bodies find it at its new place") {
  World world;
  const BodyId ground = world.CreateBody({});
  const ShapeId shape = CreateChainSegmentShape(world, ground, {}, kFloorSegment);
  const BodyId box = test::AddBox(world, {3.0f, 8.0f});
  const ChainSegment raised{{10.0f, -15.0f}, {{10.0f, 5.0f}, {-10.0f, 5.0f}}, {-10.0f, -15.0f}};
  SetChainSegment(world, shape, raised);
  CHECK(world.GetChain(shape).IsNull());
  const ChainSegment g = GetChainSegment(world, shape);
  CHECK((Same(g.segment.p1, raised.segment.p1) && Same(g.segment.p2, raised.segment.p2)));
  CHECK((Same(g.ghost1, raised.ghost1) && Same(g.ghost2, raised.ghost2)));
  auto count = [&world](const AABB& area) {
    int n = 0;
    world.QueryAABB(area, [&n](ShapeId) {
      ++n;
      return true;
    });
    return n;
  };
  CHECK(count({{-1.0f, -0.2f}, {1.0f, 0.2f}}) == 0);
  CHECK(count({{-1.0f, 4.8f}, {1.0f, 5.2f}}) == 1);
  for (int i = 0; i < 120; ++i) world.Step(kDt);
  // The box rests on the raised floor: its centre half a metre above y = 5 (within the linear slop).
  CHECK(world.GetPosition(box).y == doctest::Approx(5.5f).epsilon(0.002));
}

TEST_CASE("any shape turns into a standalone chain segment and back but a chain's segment does not") {
  World world;
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic});
  world.CreateShape(body, {}, MakeBox(0.5f, 0.5f).value);
  const ShapeId circle = world.CreateShape(body, {.density = 2.0f}, Circle{{3.0f, 0.0f}, 0.5f});
  const float boxMass = 1.0f, circleMass = 2.0f * 3.14159265f * 0.25f;
  CHECK(world.GetMass(body) == doctest::Approx(boxMass + circleMass).epsilon(1e-5));
  SetChainSegment(world, circle, kFloorSegment);
  CHECK(world.GetShapeType(circle) == ShapeType::ChainSegment);
  CHECK(world.GetMass(body) == doctest::Approx(boxMass).epsilon(1e-5));
  SetCircle(world, circle, {{3.0f, 0.0f}, 0.5f});
  CHECK(world.GetShapeType(circle) == ShapeType::Circle);
  CHECK(world.GetMass(body) == doctest::Approx(boxMass + circleMass).epsilon(1e-5));
  SetChainSegment(world, circle, kFloorSegment);
  SetPolygon(world, circle, MakeBox(0.5f, 0.5f).value);
  CHECK(world.GetShapeType(circle) == ShapeType::Polygon);

  const ChainId chain = world.CreateChain(world.CreateBody({}), {.points = kFloor});
  const ShapeId segment = mk::GetChainSegments(world, chain).at(0);
  const std::uint64_t hash = world.StateHash();
  test::AssertCounter asserts;
  SetChainSegment(world, segment, {{0.0f, -1.0f}, {{0.0f, 0.0f}, {1.0f, 0.0f}}, {1.0f, -1.0f}});
  SetCircle(world, segment, {{0.0f, 0.0f}, 1.0f});
  CHECK(asserts.Count() == 2);
  CHECK(world.StateHash() == hash);
  CHECK(Same(GetChainSegment(world, segment).segment.p1, kFloor[0]));
}

TEST_CASE("bad standalone chain segments are refused and change nothing") {
  World world;
  const BodyId ground = world.CreateBody({});
  const ShapeId shape = CreateChainSegmentShape(world, ground, {}, kFloorSegment);
  test::AddBox(world, {0.0f, 2.0f});
  world.Step(kDt);
  const std::uint64_t hash = world.StateHash();
  const int shapes = world.State().shapeIds.LiveCount();
  const float nan = std::nanf("");
  const ChainSegment bad[] = {
      {{-1.0f, 0.0f}, {{nan, 0.0f}, {1.0f, 0.0f}}, {2.0f, 0.0f}},       // NaN end
      {{-1.0f, 0.0f}, {{0.0f, 0.0f}, {1.0f, 0.0f}}, {INFINITY, 0.0f}},  // infinite ghost
      {{-1.0f, 0.0f}, {{0.0f, 0.0f}, {0.004f, 0.0f}}, {2.0f, 0.0f}},    // shorter than 5 mm
      {{0.0f, 0.0f}, {{0.0f, 0.0f}, {1.0f, 0.0f}}, {2.0f, 0.0f}},       // ghost on its end
      {{-1.0f, 0.0f}, {{0.0f, 0.0f}, {2e5f, 0.0f}}, {3e5f, 0.0f}},      // beyond kMaxWorldLength
      {{-1.0f, 0.0f}, {{0.0f, 0.0f}, {1.0f, 0.0f}}, {5e5f, 0.0f}},      // ghost beyond 4 kMaxWorldLength
  };
  test::AssertCounter asserts;
  int refused = 0;
  for (const ChainSegment& segment : bad) {
    refused += CreateChainSegmentShape(world, ground, {}, segment).IsNull() ? 1 : 0;
    SetChainSegment(world, shape, segment);
  }
  CHECK(refused == 6);
  CHECK(asserts.Count() == 12);
  CHECK(CreateChainSegmentShape(world, BodyId{}, {}, kFloorSegment).IsNull());                // null body
  CHECK(CreateChainSegmentShape(world, ground, {.density = -1.0f}, kFloorSegment).IsNull());  // bad def
  CHECK(CreateChainSegmentShape(world, ground, {.friction = nan}, kFloorSegment).IsNull());
  CHECK(asserts.Count() == 15);
  CHECK(world.StateHash() == hash);
  CHECK(world.State().shapeIds.LiveCount() == shapes);
  CHECK(Same(GetChainSegment(world, shape).ghost1, kFloorSegment.ghost1));
}

TEST_CASE("a world with a standalone chain segment restores from a snapshot to the same state hash") {
  FloorWorld a(true, {-2.0f, 3.0f}, {-3.0f, 0.0f}, 0.6f);
  for (int i = 0; i < 30; ++i) a.world.Step(kDt);
  World b;
  REQUIRE(b.RestoreSnapshot(mk::SaveSnapshot(a.world)).error == SnapshotError::None);
  CHECK(b.StateHash() == a.world.StateHash());
  CHECK(b.GetChain(b.AdoptId(a.floor)).IsNull());
  CHECK(b.GetShapeType(b.AdoptId(a.floor)) == ShapeType::ChainSegment);
  for (int i = 0; i < 60; ++i) a.world.Step(kDt), b.Step(kDt);
  CHECK(b.StateHash() == a.world.StateHash());
  // It is still a one-sided chain segment there: destroyable alone, one contact with the box.
  CHECK(b.DestroyShape(b.AdoptId(a.floor)));
}

TEST_CASE("the snapshot loader accepts a chain-less chain segment and still refuses inconsistent ones") {
  // `mutate` corrupts the saved world's state; the loader must answer `expected` and, when it refuses,
  // leave the target as it was.
  auto restore = [](void (*mutate)(WorldState&, int segment, int box), SnapshotError expected) {
    FloorWorld a(true, {-2.0f, 3.0f}, {-3.0f, 0.0f}, 0.6f);
    const BodyId ground = a.world.CreateBody({.position = {0.0f, -30.0f}});
    a.world.CreateChain(ground, {.points = kFloor});
    for (int i = 0; i < 10; ++i) a.world.Step(kDt);
    WorldState& state = a.world.State();
    mutate(state, state.ShapeSlot(a.floor), state.bodies[state.BodySlot(a.box)].headShape);
    World b;
    const std::uint64_t before = b.StateHash();
    const SnapshotResult result = b.RestoreSnapshot(mk::SaveSnapshot(a.world));
    INFO(ToString(result.error) << ": " << result.detail);
    CHECK(result.error == expected);
    if (expected != SnapshotError::None) CHECK(b.StateHash() == before);
    return result.error == SnapshotError::None &&
           b.State().shapes[b.State().ShapeSlot(b.AdoptId(a.floor))].oneSided;
  };
  // The one-sided flag is derived from the type, not read: a corrupted one is restored right.
  CHECK(restore([](WorldState& s, int segment, int) { s.shapes[segment].oneSided = false; },
                SnapshotError::None));
  // A box naming a live chain, a standalone segment naming a dead one: refused.
  restore([](WorldState& s, int, int box) { s.shapes[box].chain = 0; }, SnapshotError::Inconsistent);
  restore([](WorldState& s, int segment, int) { s.shapes[segment].chain = 5; }, SnapshotError::Inconsistent);
}

TEST_CASE("a recording with both calls replays to the recorded state hash at every step") {
  World world;
  REQUIRE(world.StartRecording());
  const BodyId ground = world.CreateBody({});
  const ShapeId floor = CreateChainSegmentShape(world, ground, {.friction = 0.2f}, kFloorSegment);
  const ShapeId other = world.CreateShape(ground, {}, Circle{{0.0f, -3.0f}, 0.5f});
  const BodyId box = test::AddBox(world, {0.0f, 2.0f});
  world.SetLinearVelocity(box, {2.0f, 0.0f});
  std::vector<std::uint64_t> hashes;
  for (int i = 0; i < 60; ++i) {
    if (i == 20)
      SetChainSegment(world, floor, {{10.0f, -20.0f}, {{10.0f, 0.5f}, {-10.0f, -0.5f}}, {-10.0f, -20.0f}});
    if (i == 30)
      SetChainSegment(world, other, {{-10.0f, -4.0f}, {{-10.0f, -1.0f}, {10.0f, -1.0f}}, {10.0f, -4.0f}});
    world.Step(kDt);
    hashes.push_back(world.StateHash());
  }
  Replay replay;
  REQUIRE(Replay::Load(mk::StopRecording(world), replay) == ReplayError::None);
  ReplayPlayer player(std::move(replay));
  int mismatches = 0;
  for (std::uint64_t k = 1; k <= hashes.size(); ++k) {
    player.StepTo(k);
    if (player.GetWorld().StateHash() != hashes[k - 1]) ++mismatches;
  }
  CHECK(mismatches == 0);
  CHECK(player.GetWorld().GetShapeType(player.GetWorld().AdoptId(other)) == ShapeType::ChainSegment);
  // The same bytes labelled version 3 (the checksum covers the body only): the opcodes are version 4's.
  const std::span<const std::byte> recorded = player.GetReplay().Bytes();
  std::vector<std::byte> file(recorded.begin(), recorded.end());
  file[8] = std::byte{3};
  Replay old;
  CHECK(Replay::Load(file, old) == ReplayError::BadRecord);
}

TEST_CASE("a sensor chain segment sees a shape overlapping it from the front and not from behind") {
  World world;
  const BodyId ground = world.CreateBody({});
  CreateChainSegmentShape(world, ground, {.isSensor = true}, kFloorSegment);
  // Both boxes straddle the line, held still (no gravity): one centred above it, one below.
  world.SetGravity({0.0f, 0.0f});
  const BodyId above = test::AddBox(world, {-3.0f, 0.2f});
  const BodyId below = test::AddBox(world, {3.0f, -0.2f});
  world.Step(kDt);
  int seenAbove = 0, seenBelow = 0;
  for (const SensorBeginEvent& e : world.GetSensorBeginEvents()) {
    seenAbove += world.GetBody(e.visitorShape) == above ? 1 : 0;
    seenBelow += world.GetBody(e.visitorShape) == below ? 1 : 0;
  }
  CHECK(seenAbove == 1);
  CHECK(seenBelow == 0);
}
}  // TEST_SUITE("world_chain_segment_shape")
