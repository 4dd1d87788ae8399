// SPDX-License-Identifier: MIT
// The world API games rely on: the pre-solve callback (one-way platforms), a body's contact data, a
// sensor's overlaps and explosions. Each is checked against an independent answer: ballistic flight
// and resting heights, brute force over every contact or every shape pair, and the explosion model's
// closed form for circles and boxes.
#include "minkowski/distance.h"
#include "minkowski/world.h"
#include "test_util.h"
#include "world/world_state.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kPi = std::numbers::pi_v<float>;

using ShapePair = std::pair<std::uint32_t, std::uint32_t>;  // index1 of shapeA, shapeB

ShapePair PairOf(ShapeId a, ShapeId b) { return {a.index1, b.index1}; }

// --- Pre-solve ------------------------------------------------------------------------------------

// A one-way platform as a game writes it: the contact counts only when the normal from the platform
// to the other shape points up.
struct OneWay {
  ShapeId platform;
  int calls = 0;
  std::vector<ShapePair> seen;  // every pair the callback was asked about, in call order
};

bool OneWayPreSolve(ShapeId a, ShapeId b, const Manifold& m, void* context) {
  OneWay& oneWay = *static_cast<OneWay*>(context);
  ++oneWay.calls;
  oneWay.seen.push_back(PairOf(a, b));
  const float sign = a == oneWay.platform ? 1.0f : (b == oneWay.platform ? -1.0f : 0.0f);
  if (sign == 0.0f) return true;
  return sign * m.normal.y > 0.7f;
}

bool AlwaysDisable(ShapeId, ShapeId, const Manifold&, void* context) {
  ++*static_cast<int*>(context);
  return false;
}

// A pre-solve call as the exactness test records it: the pair and its nearest point's separation.
struct PreSolveCall {
  ShapePair pair;
  float nearest = 0.0f;
};

bool RecordAndEnable(ShapeId a, ShapeId b, const Manifold& m, void* context) {
  auto& calls = *static_cast<std::vector<PreSolveCall>*>(context);
  float nearest = m.points[0].separation;
  for (int i = 1; i < m.pointCount; ++i) nearest = std::min(nearest, m.points[i].separation);
  calls.push_back({PairOf(a, b), nearest});
  CHECK(a.index1 < b.index1);
  CHECK(m.pointCount > 0);
  return true;
}

bool AlwaysEnable(ShapeId a, ShapeId b, const Manifold& m, void* context) {
  auto& seen = *static_cast<std::vector<ShapePair>*>(context);
  seen.push_back(PairOf(a, b));
  CHECK(a.index1 < b.index1);  // ordered as the contact: lower slot first
  CHECK(m.pointCount > 0);
  return true;
}

struct PlatformScene {
  World world{WorldDef{}};
  BodyId platformBody, box;
  ShapeId platform;
  OneWay oneWay;
};

// A static platform (half height `thickness` / 2, 4 m wide) whose centre is at y = 5, and a box of
// half size `h` at `start` moving up at `speed`.
void MakePlatformScene(PlatformScene& scene, float thickness, float h, Vec2 start, float speed,
                       bool presolve) {
  scene.platformBody = scene.world.CreateBody({.position = {0.0f, 5.0f}});
  scene.platform = scene.world.CreateShape(scene.platformBody, {.enablePreSolveEvents = presolve},
                                           MakeBox(2.0f, 0.5f * thickness).value);
  scene.box = scene.world.CreateBody(
      {.type = BodyType::Dynamic, .position = start, .linearVelocity = {0.0f, speed}, .fixedRotation = true});
  scene.world.CreateShape(scene.box, {}, MakeBox(h, h).value);
  scene.oneWay.platform = scene.platform;
  scene.world.SetPreSolveCallback(&OneWayPreSolve, &scene.oneWay);
}

// Runs `seconds` and returns the box's highest centre.
float RunAndTrackTop(PlatformScene& scene, float seconds) {
  float top = scene.world.GetPosition(scene.box).y;
  for (int i = 0; i < static_cast<int>(seconds / kDt); ++i) {
    scene.world.Step(kDt);
    top = std::max(top, scene.world.GetPosition(scene.box).y);
  }
  return top;
}

// Highest point of a body launched up at v (m/s) from y0 (m) under g = 10 m/s^2: y0 + v^2 / 2g. (The
// solver integrates constant gravity exactly; the step ends sample the apex within g dt^2 / 8.)
float Apex(float y0, float v) { return y0 + v * v / 20.0f; }

// --- Brute force over a random scene ------------------------------------------------------------------

struct RandomScene {
  World world{WorldDef{}};
  std::vector<BodyId> bodies;
  std::vector<ShapeId> shapes;
};

ShapeId AddRandomShape(World& world, BodyId body, test::Rng& rng, ShapeDef def = {}) {
  switch (rng.Int(0, 3)) {
    case 0:
      return world.CreateShape(body, def, Circle{{0.0f, 0.0f}, rng.Uniform(0.15f, 0.5f)});
    case 1:
      return world.CreateShape(body, def, MakeBox(rng.Uniform(0.15f, 0.6f), rng.Uniform(0.15f, 0.6f)).value);
    case 2:
      return world.CreateShape(body, def,
                               MakeCapsule({-rng.Uniform(0.1f, 0.5f), 0.0f}, {rng.Uniform(0.1f, 0.5f), 0.0f},
                                           rng.Uniform(0.1f, 0.3f))
                                   .value);
    default: {
      std::array<Vec2, 6> points;
      for (Vec2& p : points) p = rng.InBox(0.5f);
      auto polygon = MakePolygon(points);
      if (polygon.ok()) return world.CreateShape(body, def, polygon.value);
      return world.CreateShape(body, def, MakeBox(0.3f, 0.3f).value);
    }
  }
}

// A walled pit of random bodies (some with two shapes) falling onto each other.
void MakePit(RandomScene& scene, std::uint64_t seed, int count) {
  test::Rng rng(seed);
  World& world = scene.world;
  const BodyId ground = world.CreateBody({});
  world.CreateShape(ground, {}, MakeOffsetBox(6.0f, 0.5f, {0.0f, -0.5f}, 0.0f).value);
  world.CreateShape(ground, {}, MakeOffsetBox(0.5f, 10.0f, {-6.5f, 9.0f}, 0.0f).value);
  world.CreateShape(ground, {}, MakeOffsetBox(0.5f, 10.0f, {6.5f, 9.0f}, 0.0f).value);
  scene.bodies.push_back(ground);
  for (int i = 0; i < count; ++i) {
    const BodyId body = world.CreateBody({.type = BodyType::Dynamic,
                                          .position = {rng.Uniform(-5.0f, 5.0f), rng.Uniform(1.0f, 18.0f)},
                                          .angle = rng.Uniform(-kPi, kPi)});
    scene.bodies.push_back(body);
    scene.shapes.push_back(AddRandomShape(world, body, rng));
    if (rng.Int(0, 3) == 0) scene.shapes.push_back(AddRandomShape(world, body, rng));
  }
}

using ContactKey = std::tuple<ShapePair, int, float, float>;  // shapes, point count, normal

ContactKey KeyOf(const ContactView& view) {
  return {PairOf(view.shapeA, view.shapeB), view.manifold.pointCount, view.manifold.normal.x,
          view.manifold.normal.y};
}

// Brute force: every touching contact of the world whose shapes include one of the body's.
std::multiset<ContactKey> TouchingContactsOfBody(const World& world, BodyId body) {
  std::multiset<ContactKey> keys;
  world.ForEachTouchingContact([&](const ContactView& view) {
    if (world.GetBody(view.shapeA) == body || world.GetBody(view.shapeB) == body) keys.insert(KeyOf(view));
  });
  return keys;
}

std::multiset<ContactKey> ContactDataOfBody(const World& world, BodyId body) {
  std::vector<ContactData> data(world.GetBodyContactCapacity(body));
  const int n = world.GetBodyContactData(body, data);
  std::multiset<ContactKey> keys;
  for (int i = 0; i < n; ++i) keys.insert(KeyOf(data[i]));
  return keys;
}

// --- Sensors: brute force ----------------------------------------------------------------------------

enum class Overlap { Apart, Deep, Unsure };

// Independent of the narrowphase: GJK distance between the two shapes as they are now. Apart when
// farther than eps; deep when the visitor still touches the sensor moved by eps in each of 8
// directions; otherwise too close to call (the event rule, overlap of a zero-margin manifold, may go
// either way within rounding).
Overlap Classify(const World& world, ShapeId sensor, ShapeId visitor) {
  constexpr float kEps = 2e-3f;
  const ShapeGeometry a = world.GetShapeGeometry(sensor);
  const ShapeGeometry b = world.GetShapeGeometry(visitor);
  DistanceInput input{MakeProxy(a), MakeProxy(b), world.GetTransform(world.GetBody(sensor)),
                      world.GetTransform(world.GetBody(visitor))};
  const float d = ShapeDistance(input).distance;
  if (d > kEps) return Overlap::Apart;
  if (d > 0.0f) return Overlap::Unsure;
  const Vec2 origin = input.transformB.p;
  for (int i = 0; i < 8; ++i) {
    const float angle = 0.25f * kPi * static_cast<float>(i);
    input.transformB.p = origin + kEps * Vec2{std::cos(angle), std::sin(angle)};
    if (ShapeDistance(input).distance > 0.0f) return Overlap::Unsure;
  }
  return Overlap::Deep;
}

// Box2D's filter rule, written out again: groups first, then both masks.
bool FilterAllows(const Filter& a, const Filter& b) {
  if (a.groupIndex == b.groupIndex && a.groupIndex != 0) return a.groupIndex > 0;
  return (a.maskBits & b.categoryBits) != 0 && (a.categoryBits & b.maskBits) != 0;
}

// Whether the sensor events' rules let `visitor` be seen by `sensor` at all.
bool Eligible(const World& world, ShapeId sensor, ShapeId visitor, const std::set<std::uint32_t>& hidden) {
  const BodyId sb = world.GetBody(sensor), vb = world.GetBody(visitor);
  if (sb == vb || hidden.count(visitor.index1) ||
      !FilterAllows(world.GetFilter(sensor), world.GetFilter(visitor)))
    return false;
  return world.GetBodyType(sb) == BodyType::Dynamic || world.GetBodyType(vb) == BodyType::Dynamic;
}

struct SensorScene {
  World world{WorldDef{.gravity = {0.0f, 0.0f}}};
  std::vector<ShapeId> sensors;
  std::vector<ShapeId> visitors;   // every non-sensor shape still alive
  std::set<std::uint32_t> hidden;  // visitors with enableSensorEvents = false, or sensors
  std::vector<BodyId> movers;
};

// A 20 x 20 m walled box of random dynamic bodies bouncing about without gravity or friction, a few
// static sensors, one on a kinematic body and one on a dynamic body; some visitors hide from sensors
// and some filter them out. Sleep off, so every sensor pair is re-evaluated each step.
void MakeSensorScene(SensorScene& scene, std::uint64_t seed) {
  test::Rng rng(seed);
  World& world = scene.world;
  SolverSettings settings = world.GetSolverSettings();
  settings.enableSleep = false;
  world.SetSolverSettings(settings);
  const BodyId walls = world.CreateBody({});
  const ShapeDef wallDef{.friction = 0.0f, .restitution = 1.0f};
  for (Vec2 c : {Vec2{0.0f, -10.5f}, Vec2{0.0f, 10.5f}})  // the dynamic sensor may reach them
    scene.visitors.push_back(world.CreateShape(walls, wallDef, MakeOffsetBox(11.0f, 0.5f, c, 0.0f).value));
  for (Vec2 c : {Vec2{-10.5f, 0.0f}, Vec2{10.5f, 0.0f}})
    scene.visitors.push_back(world.CreateShape(walls, wallDef, MakeOffsetBox(0.5f, 11.0f, c, 0.0f).value));
  for (int i = 0; i < 5; ++i) {
    const BodyType type = i < 3 ? BodyType::Static : (i == 3 ? BodyType::Kinematic : BodyType::Dynamic);
    const BodyId body =
        world.CreateBody({.type = type,
                          .position = rng.InBox(6.0f),
                          .angle = rng.Uniform(-kPi, kPi),
                          .linearVelocity = type == BodyType::Static ? Vec2{} : rng.InBox(1.0f),
                          .angularVelocity = type == BodyType::Static ? 0.0f : 0.5f});
    const ShapeId sensor =
        world.CreateShape(body, {.isSensor = true}, MakeBox(rng.Uniform(1.0f, 3.0f), 1.5f).value);
    scene.sensors.push_back(sensor);
    scene.hidden.insert(sensor.index1);
    if (type == BodyType::Dynamic) scene.movers.push_back(body);
  }
  for (int i = 0; i < 50; ++i) {
    const BodyId body = world.CreateBody({.type = BodyType::Dynamic,
                                          .position = rng.InBox(9.0f),
                                          .angle = rng.Uniform(-kPi, kPi),
                                          .linearVelocity = rng.InBox(4.0f),
                                          .angularVelocity = rng.Uniform(-2.0f, 2.0f)});
    ShapeDef def{.friction = 0.0f, .restitution = 1.0f};
    def.enableSensorEvents = rng.Int(0, 9) != 0;
    if (rng.Int(0, 9) == 0) def.filter.maskBits = 0xFFFFFFFEu;  // does not collide with category 1
    const ShapeId shape = AddRandomShape(world, body, rng, def);
    scene.visitors.push_back(shape);
    if (!def.enableSensorEvents) scene.hidden.insert(shape.index1);
    scene.movers.push_back(body);
  }
}

std::set<std::uint32_t> OverlapsOf(const World& world, ShapeId sensor) {
  std::vector<ShapeId> out(world.GetSensorCapacity(sensor));
  const int n = world.GetSensorOverlaps(sensor, out);
  std::set<std::uint32_t> set;
  for (int i = 0; i < n; ++i) set.insert(out[i].index1);
  CHECK(static_cast<int>(set.size()) == n);  // no shape twice
  return set;
}

}  // namespace

TEST_SUITE("world.callbacks") {
TEST_CASE("one-way platform: a box launched from below passes through - falls back and rests on top") {
  // Box 0.5 m, launched at 12 m/s from y = 3 under a 0.2 m platform centred at y = 5 (top 5.1).
  PlatformScene scene;
  MakePlatformScene(scene, 0.2f, 0.25f, {0.0f, 3.0f}, 12.0f, /*presolve=*/true);
  const float top = RunAndTrackTop(scene, 4.0f);
  // It flew as if the platform were not there (apex of the discrete ballistic flight, within 1 cm:
  // the platform may push it only while its centre is above the platform's, at most 3 m/s upwards
  // for the few steps it overlaps, and a separating box gets no push).
  CHECK(top == doctest::Approx(Apex(3.0f, 12.0f)).epsilon(0.001));
  // Resting on top: centre at 5.1 + 0.25, within the linear slop (5 mm) plus the spring's sag.
  CHECK(test::Near(scene.world.GetPosition(scene.box).y, 5.35f, 0.006f));
  CHECK(std::fabs(scene.world.GetLinearVelocity(scene.box).y) < 0.05f);
  CHECK(scene.oneWay.calls > 0);

  // The control: without enablePreSolveEvents the callback is never asked and the box bounces off
  // the platform's underside.
  PlatformScene control;
  MakePlatformScene(control, 0.2f, 0.25f, {0.0f, 3.0f}, 12.0f, /*presolve=*/false);
  const float controlTop = RunAndTrackTop(control, 4.0f);
  CHECK(controlTop < 4.9f - 0.25f + 0.01f);
  CHECK(control.oneWay.calls == 0);
}

TEST_CASE("one-way platform: a fast body from below passes (continuous stage asks the callback)") {
  // A 0.2 m box at 30 m/s (0.5 m per step) under a 0.1 m platform: continuous collision would stop it
  // at the underside (the control), the callback asked at the time-of-impact pose lets it through;
  // it comes back down at about 30 m/s, is stopped on top and rests there.
  PlatformScene scene;
  MakePlatformScene(scene, 0.1f, 0.1f, {0.0f, 0.0f}, 30.0f, /*presolve=*/true);
  const float top = RunAndTrackTop(scene, 7.0f);
  CHECK(top == doctest::Approx(Apex(0.0f, 30.0f)).epsilon(0.001));
  CHECK(test::Near(scene.world.GetPosition(scene.box).y, 5.05f + 0.1f, 0.006f));
  CHECK(std::fabs(scene.world.GetLinearVelocity(scene.box).y) < 0.05f);

  // The same with a callback that allows everything: the platform is solid from below.
  PlatformScene solid;
  MakePlatformScene(solid, 0.1f, 0.1f, {0.0f, 0.0f}, 30.0f, /*presolve=*/true);
  std::vector<ShapePair> seen;
  solid.world.SetPreSolveCallback(&AlwaysEnable, &seen);
  const float solidTop = RunAndTrackTop(solid, 2.0f);
  CHECK(solidTop < 4.95f - 0.1f + 0.01f);
  CHECK_FALSE(seen.empty());
}

// Two boxes rest side by side on the ground, their faces touching. When the callback disables their
// contact, each is an island of its own (static ground joins no island); kept, they are one island.
int IslandsOfTwoTouchingBoxes(bool disableBetweenBoxes) {
  World world;
  const BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(ground, {}, MakeBox(50.0f, 1.0f).value);
  const ShapeDef def{.enablePreSolveEvents = true};
  test::AddBox(world, {-0.5f, 0.5f}, 0.5f, def);
  test::AddBox(world, {0.5f, 0.5f}, 0.5f, def);
  struct Context {
    BodyId ground;
    World* world;
    bool disable;
  } context{ground, &world, disableBetweenBoxes};
  world.SetPreSolveCallback(
      [](ShapeId a, ShapeId b, const Manifold&, void* raw) {
        const auto& c = *static_cast<const Context*>(raw);
        const bool betweenBoxes = c.world->GetBody(a) != c.ground && c.world->GetBody(b) != c.ground;
        return !(c.disable && betweenBoxes);
      },
      &context);
  // Islands are built once some body has rested timeToSleep (0.5 s): look at the step that builds them.
  int islands = 0;
  for (int i = 0; i < 120 && islands == 0; ++i) {
    world.Step(kDt);
    islands = world.GetCounters().islands;
  }
  return islands;
}

TEST_CASE("pre-solve: a disabled contact joins no island") {
  CHECK(IslandsOfTwoTouchingBoxes(false) == 1);
  CHECK(IslandsOfTwoTouchingBoxes(true) == 2);
}

TEST_CASE("pre-solve: a disabled contact is not touching: no push or events or contact data") {
  // A box falls onto the ground; the callback disables every contact: it falls freely through it.
  World world;
  const BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(ground, {.enablePreSolveEvents = true}, MakeBox(50.0f, 1.0f).value);
  const BodyId box = test::AddBox(world, {0.0f, 2.0f}, 0.5f, {.enableHitEvents = true});
  int calls = 0;
  world.SetPreSolveCallback(&AlwaysDisable, &calls);
  int events = 0, touching = 0, data = 0;
  for (int i = 0; i < 90; ++i) {
    world.Step(kDt);
    events += static_cast<int>(world.GetContactBeginEvents().size() + world.GetContactEndEvents().size() +
                               world.GetContactHitEvents().size());
    world.ForEachTouchingContact([&](const ContactView&) { ++touching; });
    std::array<ContactData, 4> out;
    data += world.GetBodyContactData(box, out) + world.GetBodyContactData(ground, out);
  }
  CHECK(calls > 10);
  CHECK(events == 0);
  CHECK(touching == 0);
  CHECK(data == 0);
  // Free fall for 1.5 s from y = 2: y = 2 - 5 t^2, v = -10 t, to rounding.
  CHECK(world.GetPosition(box).y == doctest::Approx(2.0f - 5.0f * 1.5f * 1.5f).epsilon(1e-5));
  CHECK(world.GetLinearVelocity(box).y == doctest::Approx(-15.0f).epsilon(1e-5));
}

TEST_CASE(
    "pre-solve: the callback sees exactly the contacts with points of flagged shapes / enabling all "
    "changes no bit") {
  // Two pits from the same seed; in one every tenth shape has pre-solve events and the callback
  // allows all. Each step the pairs it was asked about are the touching contacts with a flagged
  // shape (brute force over ForEachTouchingContact), in contact slot order, with between them the
  // pairs of moving bodies closing faster than the speculative distance a step, whose manifolds have
  // only farther points (contacts.cpp, CollideApproaching); and the state hashes stay equal to the
  // pit without a callback.
  RandomScene plain, screened;
  MakePit(plain, 21, 40);
  MakePit(screened, 21, 40);
  // Contacts of sleeping pairs are not re-evaluated, so not asked: keep everything awake.
  SolverSettings awake = plain.world.GetSolverSettings();
  awake.enableSleep = false;
  plain.world.SetSolverSettings(awake);
  screened.world.SetSolverSettings(awake);
  const float speculative = screened.world.GetSolverSettings().speculativeDistance;
  std::set<std::uint32_t> flagged;
  for (size_t i = 0; i < screened.shapes.size(); i += 10) {
    screened.world.EnablePreSolveEvents(screened.shapes[i], true);
    CHECK(screened.world.IsPreSolveEnabled(screened.shapes[i]));
    flagged.insert(screened.shapes[i].index1);
  }
  std::vector<PreSolveCall> seen;
  screened.world.SetPreSolveCallback(&RecordAndEnable, &seen);
  int totalCalls = 0, continuousCalls = 0, approachCalls = 0;
  for (int i = 0; i < 300; ++i) {
    seen.clear();
    plain.world.Step(kDt);
    screened.world.Step(kDt);
    REQUIRE(plain.world.StateHash() == screened.world.StateHash());
    std::vector<ShapePair> expected;  // creation (slot) order, as the narrowphase runs
    screened.world.ForEachTouchingContact([&](const ContactView& view) {
      if (flagged.count(view.shapeA.index1) || flagged.count(view.shapeB.index1))
        expected.push_back(PairOf(view.shapeA, view.shapeB));
    });
    // The narrowphase's calls first: the expected ones in order, and between or after them closing
    // pairs of moving bodies (never a wall: shapes 1 to 3 are static), all of whose points are beyond
    // the speculative distance. Then the continuous stage's, for fast bodies about to stop against a
    // flagged wall.
    size_t matched = 0;
    for (const PreSolveCall& call : seen) {
      if (matched < expected.size() && call.pair == expected[matched]) {
        ++matched;
      } else if (call.pair.first > 3) {
        CHECK(call.nearest > speculative);
        ++approachCalls;
      } else {
        CHECK(matched == expected.size());
        CHECK(screened.world.GetCounters().fastBodies > 0);
        ++continuousCalls;
      }
    }
    CHECK(matched == expected.size());
    totalCalls += static_cast<int>(seen.size());
  }
  MESSAGE(totalCalls << " calls, " << continuousCalls << " from the continuous stage, " << approachCalls
                     << " for closing pairs");
  CHECK(totalCalls > 100);
}

TEST_CASE("pre-solve: clearing the callback or the flag stops the calls") {
  World world;
  test::AddGround(world);
  const BodyId box = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 0.49f}});
  const ShapeId boxShape = world.CreateShape(box, {.enablePreSolveEvents = true}, MakeBox(0.5f, 0.5f).value);
  int calls = 0;
  world.SetPreSolveCallback(&AlwaysDisable, &calls);
  world.Step(kDt);
  CHECK(calls == 1);
  world.SetPreSolveCallback(nullptr, &calls);
  world.Step(kDt);
  CHECK(calls == 1);
  world.SetPreSolveCallback(&AlwaysDisable, &calls);
  world.EnablePreSolveEvents(boxShape, false);
  world.Step(kDt);
  CHECK(calls == 1);
  test::AssertCounter asserts;
  world.EnablePreSolveEvents(ShapeId{}, true);
  CHECK_FALSE(world.IsPreSolveEnabled(ShapeId{7, 0, 0}));
  CHECK(asserts.Count() == 2);
}

TEST_CASE("body contact data equals brute force over ForEachTouchingContact in random scenes") {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    RandomScene scene;
    MakePit(scene, seed, 60);
    int compared = 0, nonEmpty = 0;
    for (int i = 1; i <= 400; ++i) {
      scene.world.Step(kDt);
      if (i % 40 != 0) continue;
      for (BodyId body : scene.bodies) {
        const auto expected = TouchingContactsOfBody(scene.world, body);
        CHECK(ContactDataOfBody(scene.world, body) == expected);
        CHECK(scene.world.GetBodyContactCapacity(body) >= static_cast<int>(expected.size()));
        ++compared;
        nonEmpty += expected.empty() ? 0 : 1;
      }
    }
    CHECK(nonEmpty > compared / 2);  // the scene is a heap, most bodies touch something
  }
}

TEST_CASE("body contact data: a short span gets the first contacts / stale ids assert and give 0") {
  RandomScene scene;
  MakePit(scene, 5, 30);
  for (int i = 0; i < 200; ++i) scene.world.Step(kDt);
  const BodyId ground = scene.bodies[0];
  std::vector<ContactData> all(scene.world.GetBodyContactCapacity(ground));
  const int n = scene.world.GetBodyContactData(ground, all);
  REQUIRE(n >= 2);
  std::array<ContactData, 1> one;
  CHECK(scene.world.GetBodyContactData(ground, one) == 1);
  CHECK(KeyOf(one[0]) == KeyOf(all[0]));
  CHECK(scene.world.GetBodyContactData(ground, {}) == 0);
  const BodyId gone = scene.bodies[1];
  scene.world.DestroyBody(gone);
  test::AssertCounter asserts;
  CHECK(scene.world.GetBodyContactCapacity(gone) == 0);
  CHECK(scene.world.GetBodyContactData(gone, all) == 0);
  CHECK(scene.world.GetBodyContactCapacity(BodyId{1, 0, 12345}) == 0);
  CHECK(asserts.Count() == 3);
}

TEST_CASE("explosion: a circle gets impulsePerLength x 2r x scale along the centre-to-closest-point line") {
  // 200 random circles, each alone in a zero-gravity world, at random distances inside and beyond
  // the radius and the falloff. Answer: |dv| = k 2r scale / m along the direction from the centre,
  // no spin (the impulse acts through the circle's centre).
  test::Rng rng(31);
  int inRadius = 0, inFalloff = 0, outside = 0;
  for (int trial = 0; trial < 200; ++trial) {
    World world(WorldDef{.gravity = {0.0f, 0.0f}});
    const float r = rng.Uniform(0.1f, 1.0f);
    const Vec2 centre = rng.InBox(5.0f);
    const Vec2 at = centre + rng.Uniform(r + 0.01f, r + 6.0f) * rng.Direction();
    const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = at});
    world.CreateShape(body, {.density = rng.Uniform(0.5f, 3.0f)}, Circle{{0.0f, 0.0f}, r});
    const ExplosionDef def{.position = centre,
                           .radius = rng.Uniform(0.0f, 3.0f),
                           .falloff = rng.Uniform(0.0f, 3.0f),
                           .impulsePerLength = rng.Uniform(0.5f, 20.0f)};
    world.Explode(def);
    const float d = Distance(centre, at) - r;
    float scale = 0.0f;
    if (d <= def.radius) {
      scale = 1.0f;
      ++inRadius;
    } else if (d <= def.radius + def.falloff) {
      scale = 1.0f - (d - def.radius) / def.falloff;
      ++inFalloff;
    } else {
      ++outside;
    }
    const Vec2 expected =
        (def.impulsePerLength * 2.0f * r * scale / world.GetMass(body)) * Normalize(at - centre);
    const Vec2 v = world.GetLinearVelocity(body);
    CHECK(test::Near(v, expected, 1e-4f * (1.0f + Length(expected))));
    // No spin, up to rounding: the closest point (GJK, float) is off the centre line by a few float
    // steps of its coordinates, an angle of that over the shorter of r and d (the direction is
    // closest - centre, of length d), and the rim then turns at 2 |dv| times that angle.
    const float angle = 4.0f * 1.2e-7f * (1.0f + Length(at)) / std::min(r, d);
    CHECK(std::fabs(world.GetAngularVelocity(body)) * r <= 2.0f * Length(expected) * angle + 1e-6f);
  }
  CHECK(inRadius > 20);
  CHECK(inFalloff > 20);
  CHECK(outside > 20);
}

TEST_CASE("explosion: a box face-on gets k x its face - and an off-centre push turns it") {
  // A 1 x 4 m box (half 0.5 x 2) whose left face is at x = 3, centre at (3.5, yc); explosion at the
  // origin, radius 5. The closest point is (3, 0) while |yc| <= 2: the push is k x 4 along +x at
  // (3, 0), so dv = 4k / m and w = (r x J) / I with r = (3, 0) - (3.5, yc), I = m (1 + 16) / 12.
  for (float yc : {0.0f, 1.0f, -1.5f}) {
    World world(WorldDef{.gravity = {0.0f, 0.0f}});
    const BodyId box = world.CreateBody({.type = BodyType::Dynamic, .position = {3.5f, yc}});
    world.CreateShape(box, {.density = 2.0f}, MakeBox(0.5f, 2.0f).value);
    const float k = 3.0f;
    world.Explode({.position = {0.0f, 0.0f}, .radius = 5.0f, .falloff = 1.0f, .impulsePerLength = k});
    const float m = world.GetMass(box);
    CHECK(m == doctest::Approx(8.0f));
    const Vec2 impulse{4.0f * k, 0.0f};
    CHECK(test::Near(world.GetLinearVelocity(box), impulse / m, 1e-5f));
    const float inertia = m * (1.0f + 16.0f) / 12.0f;
    const float w = Cross(Vec2{3.0f, 0.0f} - Vec2{3.5f, yc}, impulse) / inertia;
    CHECK(world.GetAngularVelocity(box) == doctest::Approx(w).epsilon(1e-5));
  }
}

TEST_CASE("explosion: the mask and body types and sensors and sleepers and the centre itself") {
  World world(WorldDef{.gravity = {0.0f, 0.0f}});
  auto addCircle = [&](BodyType type, Vec2 at, ShapeDef def = {}) {
    const BodyId body = world.CreateBody({.type = type, .position = at});
    world.CreateShape(body, def, Circle{{0.0f, 0.0f}, 0.5f});
    return body;
  };
  const BodyId masked = addCircle(BodyType::Dynamic, {2.0f, 0.0f}, {.filter = {.categoryBits = 2}});
  const BodyId kinematic = addCircle(BodyType::Kinematic, {0.0f, 2.0f});
  const BodyId fixed = addCircle(BodyType::Static, {-2.0f, 0.0f});
  const BodyId sensor = addCircle(BodyType::Dynamic, {0.0f, -2.0f}, {.isSensor = true});
  const BodyId atCentre = addCircle(BodyType::Dynamic, {0.0f, 0.0f});
  // A box that holds the centre off its own: pushed from the centre towards its centre of mass.
  const BodyId holder = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 0.0f}});
  world.CreateShape(holder, {}, MakeOffsetBox(0.5f, 0.5f, {0.3f, 0.4f}, 0.0f).value);
  const BodyId sleeper = addCircle(BodyType::Dynamic, {-1.5f, 1.5f});
  world.SetAwake(sleeper, false);
  REQUIRE_FALSE(world.IsAwake(sleeper));

  world.Explode({.position = {0.0f, 0.0f}, .radius = 3.0f, .impulsePerLength = 1.0f, .maskBits = 1});
  CHECK(world.GetLinearVelocity(masked) == Vec2{0.0f, 0.0f});
  CHECK(world.GetLinearVelocity(kinematic) == Vec2{0.0f, 0.0f});
  CHECK(world.GetLinearVelocity(fixed) == Vec2{0.0f, 0.0f});
  CHECK(world.GetLinearVelocity(sensor) == Vec2{0.0f, 0.0f});
  // The circle centred on the blast has no direction to go: untouched, and finite.
  CHECK(world.GetLinearVelocity(atCentre) == Vec2{0.0f, 0.0f});
  CHECK(world.GetAngularVelocity(atCentre) == 0.0f);
  // The holder: along (0.3, 0.4) / 0.5, width across it of a 1 m square turned by atan(4/3):
  // |0.6| + |0.8| = 1.4 m, applied at the centre.
  const Vec2 u{0.6f, 0.8f};
  CHECK(test::Near(world.GetLinearVelocity(holder), (1.4f / world.GetMass(holder)) * u, 1e-5f));
  CHECK(std::fabs(world.GetAngularVelocity(holder)) < 1e-5f);  // through its centre of mass
  CHECK(world.IsAwake(sleeper));
  CHECK(test::Near(world.GetLinearVelocity(sleeper),
                   (1.0f / world.GetMass(sleeper)) * Normalize(Vec2{-1.5f, 1.5f}), 1e-5f));

  world.Explode({.position = {0.0f, 0.0f}, .radius = 3.0f, .impulsePerLength = 1.0f, .maskBits = 2});
  CHECK(test::Near(world.GetLinearVelocity(masked), Vec2{1.0f / world.GetMass(masked), 0.0f}, 1e-5f));
}

TEST_CASE("explosion: invalid definitions assert and change nothing") {
  World world(WorldDef{.gravity = {0.0f, 0.0f}});
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {1.0f, 0.0f}});
  world.CreateShape(body, {}, Circle{{0.0f, 0.0f}, 0.5f});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const ExplosionDef bad[] = {
      {.position = {nan, 0.0f}}, {.position = {0.0f, 2e5f}}, {.radius = -1.0f}, {.radius = nan},
      {.radius = inf},           {.falloff = -0.5f},         {.falloff = nan},  {.impulsePerLength = inf},
      {.impulsePerLength = nan}};
  test::AssertCounter asserts;
  for (const ExplosionDef& def : bad) world.Explode(def);
  CHECK(asserts.Count() == static_cast<int>(std::size(bad)));
  CHECK(world.GetLinearVelocity(body) == Vec2{0.0f, 0.0f});
  CHECK(world.GetAngularVelocity(body) == 0.0f);
  // An empty world and a zero radius are fine.
  World empty;
  empty.Explode({.radius = 0.0f});
  CHECK(asserts.Count() == static_cast<int>(std::size(bad)));
}

TEST_CASE("sensor overlaps equal brute force before each step and the set the events describe") {
  for (std::uint64_t seed : {41u, 42u}) {
    SensorScene scene;
    MakeSensorScene(scene, seed);
    test::Rng rng(seed + 100);
    std::map<std::uint32_t, std::set<std::uint32_t>> fromEvents;  // sensor -> visitors, by events
    int deep = 0, unsure = 0, listed = 0;
    for (int step = 0; step < 300; ++step) {
      // Brute force at the poses the next narrowphase will see.
      std::map<std::uint32_t, std::set<std::uint32_t>> mustHave, mayHave;
      for (ShapeId sensor : scene.sensors) {
        for (ShapeId visitor : scene.visitors) {
          if (!Eligible(scene.world, sensor, visitor, scene.hidden)) continue;
          const Overlap o = Classify(scene.world, sensor, visitor);
          if (o == Overlap::Deep) mustHave[sensor.index1].insert(visitor.index1);
          if (o != Overlap::Apart) mayHave[sensor.index1].insert(visitor.index1);
          deep += o == Overlap::Deep ? 1 : 0;
          unsure += o == Overlap::Unsure ? 1 : 0;
        }
      }
      scene.world.Step(kDt);
      for (const SensorEndEvent& e : scene.world.GetSensorEndEvents())
        CHECK(fromEvents[e.sensorShape.index1].erase(e.visitorShape.index1) == 1);
      for (const SensorBeginEvent& e : scene.world.GetSensorBeginEvents())
        CHECK(fromEvents[e.sensorShape.index1].insert(e.visitorShape.index1).second);
      for (ShapeId sensor : scene.sensors) {
        const std::set<std::uint32_t> got = OverlapsOf(scene.world, sensor);
        CHECK(got == fromEvents[sensor.index1]);
        for (std::uint32_t v : mustHave[sensor.index1]) CHECK(got.count(v) == 1);
        for (std::uint32_t v : got) CHECK(mayHave[sensor.index1].count(v) == 1);
        listed += static_cast<int>(got.size());
      }
      // Now and then destroy a visitor that overlaps a sensor: it leaves the overlaps at once, and its
      // end event comes with the next step.
      if (step % 25 == 10) {
        for (ShapeId sensor : scene.sensors) {
          const std::set<std::uint32_t> got = OverlapsOf(scene.world, sensor);
          const auto it = std::find_if(scene.visitors.begin(), scene.visitors.end(), [&](ShapeId v) {
            return got.count(v.index1) &&
                   scene.world.GetBodyType(scene.world.GetBody(v)) == BodyType::Dynamic;
          });
          if (it == scene.visitors.end()) continue;
          scene.world.DestroyShape(*it);
          scene.visitors.erase(it);
          CHECK(OverlapsOf(scene.world, sensor).size() == got.size() - 1);
          break;
        }
      }
    }
    MESSAGE("seed " << seed << ": " << deep << " deep pairs, " << unsure << " too close to call, " << listed
                    << " listed");
    CHECK(deep > 300);
    CHECK(unsure < deep / 20);
  }
}

TEST_CASE("sensor overlaps: not a sensor gives 0 / a short span the first / stale ids assert") {
  World world;
  const BodyId ground = world.CreateBody({});
  const ShapeId sensor = world.CreateShape(ground, {.isSensor = true}, MakeBox(3.0f, 3.0f).value);
  const ShapeId solid = world.CreateShape(ground, {}, MakeOffsetBox(1.0f, 1.0f, {10.0f, 0.0f}, 0.0f).value);
  std::vector<BodyId> boxes;
  for (int i = 0; i < 3; ++i)
    boxes.push_back(test::AddBox(world, {-1.0f + static_cast<float>(i), 0.0f}, 0.25f));
  world.Step(kDt);
  CHECK(world.GetSensorCapacity(sensor) == 3);
  std::array<ShapeId, 3> all;
  CHECK(world.GetSensorOverlaps(sensor, all) == 3);
  std::array<ShapeId, 2> two;
  CHECK(world.GetSensorOverlaps(sensor, two) == 2);
  CHECK(two[0] == all[0]);
  CHECK(two[1] == all[1]);
  CHECK(world.GetSensorCapacity(solid) == 0);
  CHECK(world.GetSensorOverlaps(solid, all) == 0);
  world.DestroyShape(sensor);
  test::AssertCounter asserts;
  CHECK(world.GetSensorCapacity(sensor) == 0);
  CHECK(world.GetSensorOverlaps(sensor, all) == 0);
  CHECK(world.GetSensorOverlaps(ShapeId{99, 1, 7}, all) == 0);
  CHECK(asserts.Count() == 3);
}
}  // TEST_SUITE("world.callbacks")
