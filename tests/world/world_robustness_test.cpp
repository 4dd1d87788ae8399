// SPDX-License-Identifier: MIT
// What a game, a fuzzer and a careless caller do to a World: events read while destroying, ids from
// elsewhere (another world, a moved world, any 32-bit pattern), values at the edge of float, and
// polygons built by hand. Each case names the defect it guards against.
#include "minkowski/world.h"
#include "minkowski/world_vector.h"
#include "test_util.h"
#include "world/world_state.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <utility>
#include <vector>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kHugeValue = 1e30f;
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// True when every live body's position, rotation and velocities are finite.
bool AllFinite(const World& world) {
  const WorldState& state = world.State();
  for (int slot = 0; slot < state.bodyIds.Capacity(); ++slot) {
    if (!state.bodyIds.IsLive(slot)) continue;
    const Body& b = state.bodies[slot];
    if (!IsFinite(b.xf.p) || !IsFinite(b.xf.q.c) || !IsFinite(b.xf.q.s) || !IsFinite(b.linearVelocity) ||
        !IsFinite(b.angularVelocity) || !IsFinite(b.center)) {
      return false;
    }
  }
  return true;
}

// A row of boxes resting on the ground (touching contacts, events on).
std::vector<BodyId> RestingRow(World& world, int count) {
  std::vector<BodyId> boxes;
  for (int i = 0; i < count; ++i) boxes.push_back(test::AddBox(world, {-10.0f + 2.0f * i, 0.5f}));
  for (int i = 0; i < 10; ++i) world.Step(kDt);
  return boxes;
}

}  // namespace

TEST_SUITE("world.robustness") {

TEST_CASE("destroying bodies while iterating the events leaves the events untouched") {
  // Regression: DestroyContact appended to the very vector a range-for over GetContactEndEvents was
  // walking (ASan: heap use after free). The published events are now written only by Step.
  World world;
  BodyId ground = test::AddGround(world);
  std::vector<BodyId> boxes = RestingRow(world, 8);
  for (BodyId box : boxes) world.SetTransform(box, world.GetPosition(box) + Vec2{0.0f, 5.0f}, 0.0f);
  world.Step(kDt);  // the teleported boxes leave the ground
  for (BodyId box : boxes) world.SetTransform(box, world.GetPosition(box) - Vec2{0.0f, 5.0f}, 0.0f);
  world.Step(kDt);  // they land again: no end events left, 8 begin events
  for (BodyId box : boxes) world.SetTransform(box, world.GetPosition(box) + Vec2{0.0f, 5.0f}, 0.0f);
  world.Step(kDt);  // 8 end events to iterate
  const std::span<const ContactEndEvent> ends = world.GetContactEndEvents();
  REQUIRE(ends.size() == 8);
  const std::vector<ContactEndEvent> before(ends.begin(), ends.end());
  // Land them once more so that destroying them ends touching contacts (each raises an end event).
  for (BodyId box : boxes) world.SetTransform(box, world.GetPosition(box) - Vec2{0.0f, 5.0f}, 0.0f);
  int visited = 0;
  for (const ContactEndEvent& event : world.GetContactEndEvents()) {
    BodyId a = world.GetBody(event.shapeA), b = world.GetBody(event.shapeB);
    world.DestroyBody(a == ground ? b : a);
    ++visited;
  }
  CHECK(visited == 8);
  REQUIRE(world.GetContactEndEvents().size() == 8);  // the last Step's list is unchanged
  for (int i = 0; i < 8; ++i) {
    CHECK(world.GetContactEndEvents()[static_cast<std::size_t>(i)].shapeA ==
          before[static_cast<std::size_t>(i)].shapeA);
    CHECK(world.GetContactEndEvents()[static_cast<std::size_t>(i)].shapeB ==
          before[static_cast<std::size_t>(i)].shapeB);
  }
  CHECK(world.GetCounters().bodies == 9);  // counters are as of the last Step
}

TEST_CASE("end events of destroy calls between steps come with the next step") {
  World world;
  BodyId ground = test::AddGround(world);
  std::vector<BodyId> boxes = RestingRow(world, 3);
  REQUIRE(world.GetContactEndEvents().empty());
  world.DestroyBody(boxes[1]);
  world.DestroyBody(boxes[2]);
  CHECK(world.GetContactEndEvents().empty());
  world.Step(kDt);
  REQUIRE(world.GetContactEndEvents().size() == 2);
  for (const ContactEndEvent& e : world.GetContactEndEvents()) {
    // One side is the ground's shape, the other a destroyed (now stale) shape.
    CHECK(world.IsValid(e.shapeA) != world.IsValid(e.shapeB));
    CHECK(world.GetBody(world.IsValid(e.shapeA) ? e.shapeA : e.shapeB) == ground);
  }
  world.Step(kDt);
  CHECK(world.GetContactEndEvents().empty());
}

TEST_CASE("any 32-bit id is looked up safely: huge indices and generations are stale") {
  // Regression: index1 = 0x80000000 overflowed a signed int (UBSan) on the way to the slot.
  World world;
  BodyId body = world.CreateBody({.type = BodyType::Dynamic});
  test::AssertCounter asserts;
  for (std::uint32_t index1 : {0x80000000u, 0xFFFFFFFFu, 0x7FFFFFFFu, 2u}) {
    const BodyId id{index1, 1, body.world};
    CHECK_FALSE(world.IsValid(id));
    CHECK(world.GetPosition(id) == Vec2(0, 0));
    CHECK_FALSE(world.IsValid(ShapeId{index1, 1, body.world}));
    CHECK_FALSE(world.IsValid(JointId{index1, 1, body.world}));
  }
  CHECK_FALSE(world.IsValid(BodyId{body.index1, 0xFFFFFFFFu, body.world}));
  CHECK(asserts.Count() == 4);  // the four GetPosition calls; IsValid never asserts
  CHECK(world.IsValid(body));
}

TEST_CASE("ids from another world are refused and do not touch this world's objects") {
  // Regression: world B accepted world A's body id and acted on B's body in the same slot.
  World a, b;
  BodyId bodyA = a.CreateBody({.type = BodyType::Dynamic, .position = {1, 1}});
  BodyId bodyB = b.CreateBody({.type = BodyType::Dynamic, .position = {2, 2}});
  ShapeId shapeA = a.CreateShape(bodyA, {}, Circle{{0, 0}, 0.5f});
  b.CreateShape(bodyB, {}, Circle{{0, 0}, 0.5f});
  REQUIRE(bodyA.index1 == bodyB.index1);  // the same slot in both worlds
  REQUIRE(bodyA.generation == bodyB.generation);
  CHECK(bodyA.world != bodyB.world);
  test::AssertCounter asserts;
  CHECK_FALSE(b.IsValid(bodyA));
  CHECK_FALSE(b.IsValid(shapeA));
  b.SetLinearVelocity(bodyA, {5, 0});
  b.SetTransform(bodyA, {9, 9}, 0);
  CHECK_FALSE(b.DestroyBody(bodyA));
  CHECK_FALSE(b.DestroyShape(shapeA));
  CHECK(b.CreateShape(bodyA, {}, Circle{{0, 0}, 0.5f}).IsNull());
  CHECK(b.CreateJoint(DistanceJointDef{{.bodyA = bodyA, .bodyB = bodyB}}).IsNull());
  CHECK(asserts.Count() == 6);
  CHECK(b.GetPosition(bodyB) == Vec2(2, 2));
  CHECK(b.GetLinearVelocity(bodyB) == Vec2(0, 0));
  CHECK(b.GetCounters().bodies == 0);  // no Step yet; the world still has exactly its own body
  CHECK(b.State().bodyIds.LiveCount() == 1);
  CHECK(a.IsValid(bodyA));
}

TEST_CASE("a moved-from world is a new empty world and the moved-to world keeps the ids") {
  // Regression: Step on a moved-from World dereferenced null.
  World a;
  test::AddGround(a);
  BodyId box = test::AddBox(a, {0, 3});
  World b(std::move(a));
  CHECK(b.IsValid(box));
  CHECK(a.Step(kDt));  // NOLINT(bugprone-use-after-move): the behaviour under test
  test::AssertCounter asserts;
  CHECK_FALSE(a.IsValid(box));
  CHECK(a.GetPosition(box) == Vec2(0, 0));
  CHECK(asserts.Count() == 1);
  BodyId fresh = a.CreateBody({.type = BodyType::Dynamic});
  CHECK(a.IsValid(fresh));
  CHECK_FALSE(b.IsValid(fresh));
  CHECK(a.GetCounters().bodies == 0);
  a.Step(kDt);
  CHECK(a.GetCounters().bodies == 1);

  World c;
  c = std::move(b);
  CHECK(c.IsValid(box));
  CHECK_FALSE(b.IsValid(box));  // NOLINT(bugprone-use-after-move)
  for (int i = 0; i < 120; ++i) c.Step(kDt);
  CHECK(c.GetPosition(box).y == doctest::Approx(0.5f).epsilon(0.02));
  CHECK(b.Step(kDt));  // NOLINT(bugprone-use-after-move)
}

TEST_CASE("a filter change that removes a touching contact wakes what it held") {
  // Regression: a box asleep on a ground filtered away floated until woken by hand.
  World world;
  BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  ShapeId groundShape = world.CreateShape(ground, {}, MakeBox(50.0f, 1.0f).value);
  BodyId box = test::AddBox(world, {0, 0.5f});
  for (int i = 0; i < 120 && world.IsAwake(box); ++i) world.Step(kDt);
  REQUIRE_FALSE(world.IsAwake(box));
  world.SetFilter(groundShape, {.categoryBits = 2, .maskBits = 2});
  world.Step(kDt);
  CHECK(world.IsAwake(box));
  for (int i = 0; i < 30; ++i) world.Step(kDt);
  // Free fall from rest for 31 steps (the first one ended the contact): far below the old surface.
  CHECK(world.GetPosition(box).y < -0.5f);
}

TEST_CASE("a const world answers AABB queries and its broadphase casts rays") {
  World world;
  test::AddGround(world);
  std::vector<BodyId> boxes = RestingRow(world, 6);
  const World& view = world;
  const AABB box{{-9.0f, 0.0f}, {-5.0f, 2.0f}};
  std::vector<ShapeId> found;
  view.QueryAABB(box, [&](ShapeId s) {
    found.push_back(s);
    return true;
  });
  // Brute force over every shape's AABB: boxes at x = -10, -8, -6 (half width 0.5) and the ground.
  int expected = 0;
  for (int slot = 0; slot < world.State().shapeIds.Capacity(); ++slot) {
    if (world.State().shapeIds.IsLive(slot) && Overlaps(world.State().shapes[slot].aabb, box)) ++expected;
  }
  CHECK(static_cast<int>(found.size()) == expected);
  CHECK(expected == 3);  // x = -8 and -6 boxes, and the ground

  struct Hits {
    int count = 0;
  } hits;
  const RayCastInput ray{{-20.0f, 0.5f}, {40.0f, 0.0f}, 1.0f};  // horizontal, x from -20 to 20
  view.GetBroadPhase().RayCast(
      ray,
      [](ProxyId, std::uint64_t, const RayCastInput&, float, void* context) {
        ++static_cast<Hits*>(context)->count;
        return -1.0f;  // ignore and go on
      },
      &hits);
  std::vector<ProxyInfo> proxies;
  mk::CollectProxies(view.GetBroadPhase(), proxies);
  int crossed = 0;  // brute force: fat boxes spanning y = 0.5 inside x in [-20, 20]
  for (const ProxyInfo& p : proxies) {
    crossed += p.fatAABB.lower.y <= 0.5f && p.fatAABB.upper.y >= 0.5f && p.fatAABB.upper.x >= -20.0f &&
               p.fatAABB.lower.x <= 20.0f;
  }
  CHECK(crossed == 6);  // the six boxes; the ground's fat box ends below y = 0.5
  CHECK(hits.count == crossed);
}

TEST_CASE("huge or non-finite values are refused or clamped at the call and the world stays finite") {
  // Regression list of a world-API fuzzer: each of these was accepted and then spread NaN.
  World world;
  test::AddGround(world);
  BodyId a = test::AddBox(world, {0, 0.5f});
  BodyId b = test::AddBox(world, {0, 1.5f});
  BodyId far = test::AddBox(world, {45, 0.5f});
  test::AssertCounter asserts;
  int expectedAsserts = 0;

  // Clamped (documented): speeds.
  world.SetAngularVelocity(a, kHugeValue);
  CHECK(world.GetAngularVelocity(a) == kMaxAngularSpeed);
  world.SetLinearVelocity(b, {kHugeValue, 0});
  CHECK(world.GetLinearVelocity(b).x == world.GetSolverSettings().maxLinearSpeed);
  BodyId spinner =
      world.CreateBody({.type = BodyType::Dynamic, .position = {5, 5}, .angularVelocity = -kHugeValue});
  CHECK(world.GetAngularVelocity(spinner) == -kMaxAngularSpeed);

  // Accepted, bounded inside the step: a huge torque and angular impulse on a finite body.
  world.ApplyTorque(a, kHugeValue);
  world.ApplyAngularImpulse(b, kHugeValue);
  CHECK(world.GetAngularVelocity(b) == kMaxAngularSpeed);

  // Refused: accumulations that overflow, lengths beyond kMaxWorldLength, stiffness beyond kMaxHertz.
  world.ApplyForceToCenter(a, {3e38f, 0});
  world.ApplyForceToCenter(a, {3e38f, 0});  // the sum would be infinite
  ++expectedAsserts;
  world.SetTransform(a, {kHugeValue, 0}, 0);
  ++expectedAsserts;
  CHECK(world.CreateBody({.position = {0, 2e5f}}).IsNull());
  ++expectedAsserts;
  CHECK(world.CreateShape(a, {}, Circle{{0, 0}, kHugeValue}).IsNull());
  CHECK(world.CreateShape(a, {}, Capsule{{0, 0}, {1, 0}, kHugeValue}).IsNull());
  CHECK(world.CreateShape(a, {}, Segment{{0, 0}, {kHugeValue, 0}}).IsNull());
  Polygon bigBox = MakeBox(1, 1).value;
  bigBox.radius = kHugeValue;
  CHECK(world.CreateShape(a, {}, bigBox).IsNull());
  expectedAsserts += 4;
  RevoluteJointDef revolute{{.bodyA = a, .bodyB = b, .localAnchorA = {kHugeValue, 0}}};
  CHECK(world.CreateJoint(revolute).IsNull());
  revolute.localAnchorA = {0, 0};
  revolute.enableSpring = true;
  revolute.hertz = kHugeValue;
  CHECK(world.CreateJoint(revolute).IsNull());
  revolute.hertz = 1;
  revolute.constraintHertz = 2e6f;
  CHECK(world.CreateJoint(revolute).IsNull());
  expectedAsserts += 3;
  // The distance joint clamps its lengths (maxLength's default means "no limit", as in Box2D).
  BodyId ropeEnd = test::AddBox(world, {-1000, 0.5f});
  DistanceJointDef rope{{.bodyA = b, .bodyB = ropeEnd}, kHugeValue};
  rope.enableLimit = true;
  rope.maxLength = kHugeValue;
  JointId ropeId = world.CreateJoint(rope);
  CHECK_FALSE(ropeId.IsNull());
  CHECK(world.State().joints[world.State().JointSlot(ropeId)].length == kMaxWorldLength);
  // A motor at a huge speed is refused; at the fastest speed allowed, even a huge torque is bounded.
  revolute.hertz = 0;
  revolute.constraintHertz = kUseWorldSetting;
  revolute.enableSpring = false;
  revolute.enableMotor = true;
  revolute.motorSpeed = kHugeValue;
  revolute.maxMotorTorque = kHugeValue;
  CHECK(world.CreateJoint(revolute).IsNull());
  ++expectedAsserts;
  revolute.motorSpeed = kMaxAngularSpeed;
  JointId motor = world.CreateJoint(revolute);
  CHECK_FALSE(motor.IsNull());
  world.SetMotorSpeed(motor, -kHugeValue);
  ++expectedAsserts;
  CHECK(asserts.Count() == expectedAsserts);

  for (int i = 0; i < 120; ++i) {
    world.Step(kDt);
    INFO("step " << i);
    REQUIRE(AllFinite(world));
  }
  CHECK(world.GetPosition(far).y == doctest::Approx(0.5f).epsilon(0.05));  // 45 m away: at rest
}

TEST_CASE(
    "hand-built polygons with a NaN vertex / clockwise winding / zero area or wrong normals are refused") {
  World world;
  BodyId body = world.CreateBody({.type = BodyType::Dynamic});
  const Polygon box = MakeBox(0.5f, 0.5f).value;
  test::AssertCounter asserts;
  Polygon nanVertex = box;
  nanVertex.vertices[2].x = kNaN;
  CHECK(ValidatePolygon(nanVertex) == GeometryError::NonFinite);
  Polygon clockwise = box;
  std::reverse(clockwise.vertices, clockwise.vertices + clockwise.count);
  CHECK(ValidatePolygon(clockwise) == GeometryError::NotConvex);
  Polygon flat = box;
  for (int i = 0; i < flat.count; ++i) flat.vertices[i].y = 0.0f;
  CHECK(ValidatePolygon(flat) == GeometryError::NotConvex);
  Polygon wrongNormal = box;
  wrongNormal.normals[1] = -wrongNormal.normals[1];
  CHECK(ValidatePolygon(wrongNormal) == GeometryError::InconsistentPolygon);
  Polygon wrongCentroid = box;
  wrongCentroid.centroid = {3, 0};
  CHECK(ValidatePolygon(wrongCentroid) == GeometryError::InconsistentPolygon);
  Polygon empty;
  CHECK(ValidatePolygon(empty) == GeometryError::TooFewPoints);
  CHECK(asserts.Count() == 0);  // ValidatePolygon reports, it does not assert
  for (const Polygon* bad : {&nanVertex, &clockwise, &flat, &wrongNormal, &wrongCentroid, &empty}) {
    CHECK(world.CreateShape(body, {}, *bad).IsNull());
  }
  CHECK(asserts.Count() == 6);
  CHECK(ValidatePolygon(box) == GeometryError::None);
  CHECK(ValidatePolygon(MakeOffsetBox(1, 2, {3, 4}, 0.7f).value) == GeometryError::None);
  CHECK(ValidatePolygon(MakeRegularPolygon(64, 2.0f, 0.1f).value) == GeometryError::None);
  CHECK_FALSE(world.CreateShape(body, {}, box).IsNull());
}

TEST_CASE("a shape that would make its body heavier than kMaxBodyMass or kMaxBodyInertia is refused") {
  World world;
  BodyId body = world.CreateBody({.type = BodyType::Dynamic});
  ShapeId shape = world.CreateShape(body, {.density = 1.0f}, MakeBox(1, 1).value);  // 2 m x 2 m: 4 kg
  const float mass = world.GetMass(body);
  test::AssertCounter asserts;
  // 100 km box at 1e30 kg/m^2: mass 4e40 kg overflows float.
  CHECK(world.CreateShape(body, {.density = kHugeValue}, MakeBox(5e4f, 5e4f).value).IsNull());
  // Finite but past the bound: the same box at 1e12 kg/m^2 is 1e22 kg.
  CHECK(world.CreateShape(body, {.density = 1e12f}, MakeBox(5e4f, 5e4f).value).IsNull());
  // At the mass bound: 4 m^2 at 2.4e14 kg/m^2 gives 9.6e14 kg (accepted), at 2.6e14 kg/m^2 1.04e15 (refused).
  world.SetDensity(shape, 2.4e14f);
  CHECK(world.GetMass(body) == doctest::Approx(9.6e14f));
  world.SetDensity(shape, 2.6e14f);
  CHECK(world.GetMass(body) == doctest::Approx(9.6e14f));  // unchanged
  world.SetDensity(shape, 3e38f);                          // 1.2e39: overflows float
  // Within the mass bound, past the inertia bound: a 100 km square at 1e3 kg/m^2 is 1e13 kg, 1.7e22 kg m^2.
  CHECK(world.CreateShape(body, {.density = 1e3f}, MakeBox(5e4f, 5e4f).value).IsNull());
  CHECK(asserts.Count() == 5);
  world.SetDensity(shape, 1.0f);
  CHECK(world.GetMass(body) == mass);
  // Heavy bodies stay finite in contact: the impulses are masses times speeds.
  BodyId ground = world.CreateBody({.position = {0, -1}});
  world.CreateShape(ground, {}, MakeBox(50, 1).value);
  world.SetDensity(shape, 2.4e14f);
  world.SetTransform(body, {0, 1.5f}, 0);
  world.SetLinearVelocity(body, {0, -4});
  for (int i = 0; i < 60; ++i) world.Step(kDt);
  CHECK(IsFinite(world.GetPosition(body)));
  CHECK(world.GetPosition(body).y == doctest::Approx(1.0f).epsilon(0.05));
}

TEST_CASE("a new density or geometry that would make the body's shapes together too heavy is refused") {
  // Each shape alone within kMaxBodyMass, the two together past it: the check sums the body's other
  // shapes with the changed one's new mass (not its old one).
  World world;
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic});
  world.CreateShape(body, {.density = 1.5e14f}, MakeBox(1, 1).value);  // 4 m^2: 6e14 kg
  const ShapeId light = world.CreateShape(body, {.density = 1.0f}, MakeOffsetBox(1, 1, {3, 0}, 0).value);
  const float mass = world.GetMass(body);
  REQUIRE(mass == doctest::Approx(6e14f));
  test::AssertCounter asserts;
  world.SetDensity(light, 1.5e14f);  // 6e14 kg alone, 1.2e15 kg together
  CHECK(world.GetMass(body) == mass);
  SetPolygon(world, light, MakeOffsetBox(3e3f, 3e3f, {3, 0}, 0).value);  // 3.6e7 m^2 at 1 kg/m^2: 3.6e7 kg
  CHECK(world.GetMass(body) > mass);
  world.SetDensity(light, 1.0f / 3.6e7f);  // back to 1 kg
  SetPolygon(world, light, MakeOffsetBox(1, 1, {3, 0}, 0).value);
  world.SetDensity(light, 1.5e14f / 4.0f);  // 1.5e14 kg: 7.5e14 together, accepted
  CHECK(world.GetMass(body) == doctest::Approx(7.5e14f));
  SetPolygon(world, light, MakeOffsetBox(2, 1, {3, 0}, 0).value);  // 3e14 kg: 9e14 together, accepted
  CHECK(world.GetMass(body) == doctest::Approx(9e14f));
  SetPolygon(world, light, MakeOffsetBox(4, 1, {3, 0}, 0).value);  // 6e14 kg: 1.2e15 together, refused
  CHECK(world.GetMass(body) == doctest::Approx(9e14f));
  CHECK(asserts.Count() == 2);
}

TEST_CASE(
    "a static or kinematic body's shapes are checked alone and it turns dynamic only if they are usable "
    "together") {
  // They give the body no mass, so their sum is not needed while it stays so (a level's tiles on one
  // static body: no pass over the others for each new one). SetType checks it where it becomes a mass.
  for (BodyType type : {BodyType::Static, BodyType::Kinematic}) {
    CAPTURE(static_cast<int>(type));
    World world;
    const BodyId body = world.CreateBody({.type = type});
    test::AssertCounter asserts;
    CHECK(world.CreateShape(body, {.density = 3e14f}, MakeBox(1, 1).value).IsNull());  // 1.2e15 kg alone
    CHECK(asserts.Count() == 1);
    const ShapeId a = world.CreateShape(body, {.density = 1.5e14f}, MakeBox(1, 1).value);  // 6e14 kg
    const ShapeId b = world.CreateShape(body, {.density = 1.5e14f}, MakeOffsetBox(1, 1, {3, 0}, 0).value);
    REQUIRE(!a.IsNull());
    REQUIRE(!b.IsNull());
    world.SetDensity(b, 2e14f);  // 8e14 kg: alone usable, accepted
    CHECK(asserts.Count() == 1);
    world.SetType(body, BodyType::Dynamic);  // 1.4e15 kg together: refused
    CHECK(asserts.Count() == 2);
    CHECK(world.GetBodyType(body) == type);
    CHECK(world.GetMass(body) == 0.0f);
    world.SetDensity(b, 0.875e14f);  // 3.5e14 kg: 9.5e14 kg together
    world.SetType(body, BodyType::Dynamic);
    CHECK(world.GetBodyType(body) == BodyType::Dynamic);
    CHECK(world.GetMass(body) == doctest::Approx(9.5e14f));
    world.SetDensity(b, 2e14f);  // now dynamic: the sum counts, refused
    CHECK(world.GetMass(body) == doctest::Approx(9.5e14f));
    CHECK(asserts.Count() == 3);
    world.SetType(body, type);
    world.DestroyShape(a);
    world.SetDensity(b, 2e14f);
    world.SetType(body, BodyType::Dynamic);  // 8e14 kg alone
    CHECK(world.GetMass(body) == doctest::Approx(8e14f));
    CHECK(asserts.Count() == 3);
  }
}

// A joint between `a` (or the ground) and `b` of each kind the solver treats differently: the point
// constraint (revolute, weld, mouse; K's determinant scales as 1 / mass^2), the prismatic and wheel
// rows (1 / (mass inertia)), the distance row, and revolute and prismatic with motor and limit.
JointId AddJoint(World& world, int kind, BodyId a, BodyId b, Vec2 anchorA, Vec2 anchorB) {
  const JointBase base{.bodyA = a, .bodyB = b, .localAnchorA = anchorA, .localAnchorB = anchorB};
  switch (kind) {
    case 0:
      return world.CreateJoint(RevoluteJointDef{base});
    case 1:
      return world.CreateJoint(WeldJointDef{base});
    case 2:
      return world.CreateJoint(PrismaticJointDef{base});
    case 3:
      return world.CreateJoint(WheelJointDef{base});
    case 4:
      return world.CreateJoint(DistanceJointDef{base, 2.0f});
    case 5:
      return world.CreateJoint(MouseJointDef{.body = b, .target = world.GetPosition(b) + anchorB});
    case 6: {
      RevoluteJointDef d{base};
      d.enableLimit = d.enableMotor = true;
      d.motorSpeed = 1.0f, d.maxMotorTorque = 1e30f;
      return world.CreateJoint(d);
    }
    default: {
      PrismaticJointDef d{base};
      d.enableLimit = d.enableMotor = d.enableSpring = true;
      d.motorSpeed = 1.0f, d.maxMotorForce = 1e30f, d.hertz = 2.0f;
      return world.CreateJoint(d);
    }
  }
}

TEST_CASE("the heaviest bodies the world accepts stay finite on every kind of joint") {
  // fuzz_replay (CI, a mutated density) found a 4.3e19 kg body, within the old kMaxBodyMass of 1e20,
  // that a mouse joint made NaN at its first step: the point constraint's 2x2 determinant, about
  // (1 / mass)^2, fell below 1 / FLT_MAX, so its inverse was infinite and Inf * 0 = NaN. The
  // prismatic rows' determinant, about 1 / (mass inertia), did the same from 3e14 kg on a 100 km
  // body. Each shape here gets the density that puts its body just under whichever bound it meets
  // first; every joint kind, to the ground and between two such bodies, near and far.
  test::AssertCounter asserts;
  const Polygon shapes[] = {MakeBox(0.05f, 0.05f).value, MakeBox(1.0f, 1.0f).value, MakeBox(3e4f, 1e3f).value,
                            MakeBox(5e4f, 10.0f).value, MakeBox(5e4f, 5e4f).value};
  int worlds = 0;
  for (const Polygon& shape : shapes) {
    const MassData unit = ComputeMass(shape, 1.0f).value;
    const float density =
        0.99f * std::min(kMaxBodyMass / unit.mass, kMaxBodyInertia / unit.rotationalInertia);
    for (int kind = 0; kind < 8; ++kind) {
      for (bool twin : {false, true}) {
        for (float far : {1.0f, 1e5f}) {
          for (int subSteps : {3, 4}) {
            World world;
            SolverSettings settings = world.GetSolverSettings();
            settings.subSteps = subSteps;
            world.SetSolverSettings(settings);
            world.SetGravity({0.5f, -9.0f});
            auto heavy = [&](Vec2 p) {
              BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = p});
              REQUIRE_FALSE(world.CreateShape(body, {.density = density}, shape).IsNull());
              return body;
            };
            const BodyId b = heavy({0.0f, 3.0f});
            const BodyId a = twin ? heavy({far, 3.0f}) : world.CreateBody({});
            REQUIRE_FALSE(AddJoint(world, kind, a, b, {twin ? 0.0f : far, 3.0f}, {0.3f, 0.2f}).IsNull());
            for (int i = 0; i < 20; ++i) {
              world.Step(kDt);
              INFO("mass " << world.GetMass(b) << ", inertia " << world.GetRotationalInertia(b) << ", joint "
                           << kind << ", twin " << twin << ", at " << far << " m, sub-steps " << subSteps
                           << ", step " << i);
              REQUIRE(AllFinite(world));
            }
            ++worlds;
          }
        }
      }
    }
  }
  CHECK(worlds == 5 * 8 * 2 * 2 * 2);
  CHECK(asserts.Count() == 0);
}

TEST_CASE("the lightest bodies stay finite on every kind of joint beside a fast partner far away") {
  // fuzz_replay found a 4.5e-36 kg circle (density 1.3e-23 kg/m^2, radius 3.3e-7 m: its inertia
  // underflows to 0) on a prismatic joint to a body spinning 8 km from its own joints: K's entry
  // 1 / mass = 2.2e35 times a relative speed of 2.9e5 m/s overflowed float inside the 2x2 solve
  // although the determinant did not, and the body went NaN. Every joint kind, the tiny body as
  // body B next to a partner that spins at the cap with its anchor far from its centre.
  test::AssertCounter asserts;
  int worlds = 0;
  for (int kind = 0; kind < 8; ++kind) {
    for (float far : {10.0f, 8192.0f}) {
      World world;
      world.SetGravity({0.5f, -9.0f});
      const BodyId a = world.CreateBody({.type = BodyType::Dynamic,
                                         .position = {-far, 3.0f},
                                         .angularVelocity = kMaxAngularSpeed,
                                         .enableSleep = false});
      REQUIRE_FALSE(world.CreateShape(a, {}, MakeBox(0.5f, 0.5f).value).IsNull());
      const BodyId b = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 3.0f}});
      REQUIRE_FALSE(world.CreateShape(b, {.density = 1.3e-23f}, Circle{{0, 0}, 3.3e-7f}).IsNull());
      REQUIRE(world.GetMass(b) < 1e-35f);
      REQUIRE_FALSE(AddJoint(world, kind, a, b, {far, 0.0f}, {0.0f, 0.0f}).IsNull());
      for (int i = 0; i < 20; ++i) {
        world.Step(kDt);
        INFO("joint " << kind << ", at " << far << " m, step " << i);
        REQUIRE(AllFinite(world));
      }
      ++worlds;
    }
  }
  CHECK(worlds == 16);
  CHECK(asserts.Count() == 0);
}

TEST_CASE("fuzzer findings: each stays finite or is refused") {
  // Each case is a minimised program of the world-API fuzzer (tests/fuzz/world_program.h) that made
  // the world non-finite, named by what it did.
  test::AssertCounter asserts;
  SUBCASE("restitution 3.4e38 and friction beyond kMaxMaterialCoefficient are refused") {
    World world;
    BodyId body = world.CreateBody({.type = BodyType::Dynamic});
    CHECK(world.CreateShape(body, {.restitution = 3.4e38f}, Circle{{0, 0}, 0.5f}).IsNull());
    CHECK(
        world.CreateShape(body, {.friction = 2.0f * kMaxMaterialCoefficient}, Circle{{0, 0}, 0.5f}).IsNull());
    ShapeId shape = world.CreateShape(body, {.restitution = kMaxMaterialCoefficient}, Circle{{0, 0}, 0.5f});
    CHECK_FALSE(shape.IsNull());
    world.SetRestitution(shape, 3.4e38f);
    CHECK(world.GetRestitution(shape) == kMaxMaterialCoefficient);
    CHECK(asserts.Count() == 3);
  }
  SUBCASE("a mouse joint with a denormal hertz and no damping does not divide 0 by 0") {
    World world;
    BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {1, 2}});
    world.CreateShape(body, {}, Circle{{0, 0}, 0.5f});
    CHECK_FALSE(world
                    .CreateJoint(MouseJointDef{
                        .body = body, .target = {1, 2}, .hertz = 1.4013e-45f, .dampingRatio = 0.0f})
                    .IsNull());
    for (int i = 0; i < 10; ++i) world.Step(kDt);
    CHECK(AllFinite(world));
    CHECK(world.GetLinearVelocity(body).y ==
          doctest::Approx(-10.0f * 10.0f * kDt));  // no pull at all: free fall
  }
  SUBCASE("a 4.3e19 kg body on a mouse joint is refused: its joint went NaN") {
    // fuzz_replay: the replay sample with one density mutated to 1.38e19 (a 1 m circle, 4.3e19 kg,
    // under the old kMaxBodyMass of 1e20); the mouse joint's point constraint divided by a
    // determinant of (1 / mass)^2 = 5e-40 and the body went NaN at the first step.
    World world;
    world.SetGravity({0.5f, -9.0f});
    SolverSettings settings = world.GetSolverSettings();
    settings.subSteps = 3;
    world.SetSolverSettings(settings);
    BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {-4, 3}});
    const ShapeId heavy = world.CreateShape(body, {.density = 1.38351e19f}, Circle{{0, 0}, 1.0f});
    CHECK(heavy.IsNull());
    CHECK(asserts.Count() == 1);
    world.CreateShape(body, {}, Circle{{0, 0}, 1.0f});
    world.CreateJoint(MouseJointDef{.body = body, .target = {-4, 3}});
    for (int i = 0; i < 10; ++i) world.Step(kDt);
    CHECK(AllFinite(world));
  }
  SUBCASE("a body made 1e12 times lighter does not get its joint's old impulses back") {
    // fuzz_replay: a 1 kg body on a prismatic joint whose box was swapped for a 3e-13 kg circle got
    // the joint's last angular impulse back at its first sub-step through warm starting (1e27 rad/s),
    // and the joint's next solve overflowed to NaN. Here the stale impulses launched it at the speed
    // cap; a change of mass now drops its joints' and contacts' impulses.
    World world;
    BodyId ground = world.CreateBody({});
    BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {0, -1}, .enableSleep = false});
    ShapeId box = world.CreateShape(body, {}, MakeBox(0.5f, 0.5f).value);
    REQUIRE_FALSE(
        world
            .CreateJoint(PrismaticJointDef{
                {.bodyA = ground, .bodyB = body, .localAnchorA = {0.5f, -1}, .localAnchorB = {0.5f, 0}}})
            .IsNull());
    for (int i = 0; i < 30; ++i) world.Step(kDt);
    world.DestroyShape(box);
    REQUIRE_FALSE(world.CreateShape(body, {}, Circle{{0, 0}, 1e-6f}).IsNull());
    CHECK(world.GetMass(body) == doctest::Approx(3.14159e-12f));
    for (int i = 0; i < 3; ++i) {
      world.Step(kDt);
      REQUIRE(AllFinite(world));
      CHECK(Length(world.GetLinearVelocity(body)) < 1.0f);  // was 399.5 m/s: the speed cap
    }
    CHECK(asserts.Count() == 0);
  }
  SUBCASE("a damping ratio of 3.4e38 is refused") {
    World world;
    BodyId body = world.CreateBody({.type = BodyType::Dynamic});
    CHECK(world.CreateJoint(MouseJointDef{.body = body, .hertz = 1e-20f, .dampingRatio = 3.4e38f}).IsNull());
    CHECK(asserts.Count() == 1);
  }
  SUBCASE("a shape whose own mass or inertia has no finite inverse is refused") {
    // Density 1e-45 gives a denormal mass (1/m = Inf); once its partner shape was destroyed the body
    // had an infinite inverse mass. Every shape is now usable on its own, so every subset is.
    World world;
    BodyId body = world.CreateBody({.type = BodyType::Dynamic});
    ShapeId big = world.CreateShape(body, {.density = 1.0f}, MakeBox(1, 1).value);
    CHECK(world.CreateShape(body, {.density = 1e-45f}, Circle{{0, 0}, 0.5f}).IsNull());
    CHECK(world.CreateShape(body, {.density = 1e-30f}, Circle{{0, 0}, 1e-3f}).IsNull());  // I = 8e-43
    CHECK(asserts.Count() == 2);
    world.DestroyShape(big);
    CHECK(world.GetMass(body) == 1.0f);  // no shapes with mass: Box2D's 1 kg
  }
  SUBCASE("a huge joint axis keeps its direction") {
    World world;
    BodyId ground = world.CreateBody({});
    BodyId body = world.CreateBody({.type = BodyType::Dynamic});
    world.CreateShape(body, {}, MakeBox(0.5f, 0.5f).value);
    PrismaticJointDef d{{.bodyA = ground, .bodyB = body}};
    d.localAxisA = {3e38f, 3e38f};  // its squared length overflows float
    JointId joint = world.CreateJoint(d);
    REQUIRE_FALSE(joint.IsNull());
    const Vec2 axis = world.State().joints[world.State().JointSlot(joint)].localAxisA;
    CHECK(axis.x == doctest::Approx(std::sqrt(0.5f)));
    CHECK(axis.y == doctest::Approx(std::sqrt(0.5f)));
    for (int i = 0; i < 30; ++i) world.Step(kDt);
    // Gravity along the 45 degree slide: a free slide at g / sqrt 2 along it, so x = y.
    CHECK(world.GetPosition(body).x == doctest::Approx(world.GetPosition(body).y).epsilon(1e-3));
    CHECK(asserts.Count() == 0);
  }
  SUBCASE("a reference angle of 3.4e38 rad is wrapped, not carried into the joint angle") {
    World world;
    BodyId ground = world.CreateBody({});
    BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {0, -1}});
    world.CreateShape(body, {}, MakeBox(0.25f, 0.25f).value);
    RevoluteJointDef d{{.bodyA = ground, .bodyB = body, .localAnchorB = {0, 1}}};  // pinned at the origin
    d.referenceAngle = 3.4e38f;
    JointId joint = world.CreateJoint(d);
    REQUIRE_FALSE(joint.IsNull());
    const float wrapped = world.State().joints[world.State().JointSlot(joint)].referenceAngle;
    CHECK(std::fabs(wrapped) <= 3.14159275f);
    CHECK(std::fabs(world.GetRevoluteAngle(joint)) <= 3.14159275f);
    for (int i = 0; i < 30; ++i) world.Step(kDt);
    CHECK(AllFinite(world));
    // A revolute joint leaves the angle free: the pendulum hangs from the pin, 1 m below it.
    CHECK(Length(world.GetPosition(body)) == doctest::Approx(1.0f).epsilon(0.01));
  }
  SUBCASE("a spinning body without inertia on a prismatic joint stays bounded") {
    // No shapes: 1 kg, no rotational inertia, so the joint cannot stop its 10,000 rad/s spin, and its
    // perpendicular row chased an anchor sweeping at 1e5 m/s to 1e18 m/s within three steps.
    World world;
    BodyId ground = world.CreateBody({.position = {6.92913f, -6.92913f}});
    BodyId body =
        world.CreateBody({.type = BodyType::Dynamic, .position = {5.3f, 8.3f}, .angularVelocity = 1e4f});
    PrismaticJointDef d{{.bodyA = body, .bodyB = ground, .localAnchorA = {4.72441f, -9.68504f}}};
    d.enableLimit = true;
    d.upperTranslation = 8.66142f;
    REQUIRE_FALSE(world.CreateJoint(d).IsNull());
    const float maxSpeed = world.GetSolverSettings().maxLinearSpeed;
    Vec2 previous = world.GetPosition(body);
    for (int i = 0; i < 60; ++i) {
      world.Step(kDt);
      REQUIRE(AllFinite(world));
      // However wrong the constraint, no sub-step moves it faster than the speed limit.
      CHECK(Distance(world.GetPosition(body), previous) <= maxSpeed * kDt * 1.0001f);
      previous = world.GetPosition(body);
    }
  }
}

TEST_CASE("steps outside kMinTimeStep to kMaxTimeStep are refused") {
  World world;
  BodyId ball = world.CreateBody({.type = BodyType::Dynamic});
  world.CreateShape(ball, {}, Circle{{0, 0}, 0.5f});
  test::AssertCounter asserts;
  CHECK(world.Step(kMaxTimeStep));
  CHECK(world.Step(kMinTimeStep));
  CHECK_FALSE(world.Step(kMaxTimeStep * 1.5f));
  CHECK_FALSE(world.Step(std::numeric_limits<float>::infinity()));
  CHECK_FALSE(world.Step(1e-45f));  // a denormal step: 1/h would overflow
  CHECK_FALSE(world.Step(kMinTimeStep * 0.5f));
  CHECK(asserts.Count() == 4);
  CHECK(IsFinite(world.GetPosition(ball)));
  // Free fall over the two accepted steps: v = -g (1 s + 1 us).
  CHECK(world.GetLinearVelocity(ball).y == doctest::Approx(-10.0f * (kMaxTimeStep + kMinTimeStep)));
}

}  // TEST_SUITE("world.robustness")
