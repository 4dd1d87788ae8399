// SPDX-License-Identifier: MIT
#include "minkowski/world.h"
#include "test_util.h"
#include "world/world_state.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace mk;

namespace {
const float kNaN = std::numeric_limits<float>::quiet_NaN();
}

TEST_SUITE("world.api") {

TEST_CASE("body mass and centre come from its shapes") {
  World world;
  BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {2, 3}});
  world.CreateShape(body, {.density = 2.0f}, MakeOffsetBox(0.5f, 0.5f, {1, 0}, 0).value);
  world.CreateShape(body, {.density = 2.0f}, MakeOffsetBox(0.5f, 0.5f, {-1, 0}, 0).value);
  CHECK(world.GetMass(body) == doctest::Approx(4.0f));
  // Two unit squares at x = +-1: I = 2 (m/6 + m * 1^2) with m = 2 kg.
  CHECK(world.GetRotationalInertia(body) == doctest::Approx(2.0f * (2.0f / 6.0f + 2.0f)));
  CHECK(test::Near(world.GetWorldCenterOfMass(body), {2, 3}, 1e-6f));
  world.CreateShape(body, {.density = 4.0f}, Circle{{0, 2}, 0.5f});
  float circleMass = 4.0f * 3.14159265f * 0.25f;
  CHECK(world.GetMass(body) == doctest::Approx(4.0f + circleMass));
  CHECK(world.GetLocalCenterOfMass(body).y == doctest::Approx(2.0f * circleMass / (4.0f + circleMass)));
}

TEST_CASE("stale ids are detected after destruction and slots are reused with a new generation") {
  World world;
  BodyId a = world.CreateBody({.type = BodyType::Dynamic});
  ShapeId s = world.CreateShape(a, {}, Circle{{0, 0}, 0.5f});
  CHECK(world.IsValid(a));
  CHECK(world.DestroyBody(a));
  CHECK_FALSE(world.IsValid(a));
  CHECK_FALSE(world.IsValid(s));
  BodyId b = world.CreateBody({.type = BodyType::Dynamic});
  CHECK(b.index1 == a.index1);  // slot reused
  CHECK(b.generation != a.generation);
  test::AssertCounter asserts;
  CHECK_FALSE(world.DestroyBody(a));          // destroying twice
  CHECK(world.GetPosition(a) == Vec2(0, 0));  // neutral answer
  world.SetLinearVelocity(a, {1, 0});         // ignored
  CHECK(world.GetLinearVelocity(b) == Vec2(0, 0));
  CHECK_FALSE(world.DestroyShape(s));
  CHECK(asserts.Count() == 4);
}

TEST_CASE("NaN input and bad steps are refused and the world stays valid") {
  World world;
  test::AddGround(world);
  BodyId box = test::AddBox(world, {0, 2});
  test::AssertCounter asserts;
  CHECK(world.CreateBody({.type = BodyType::Dynamic, .position = {kNaN, 0}}).IsNull());
  CHECK(world.CreateShape(box, {.density = -1.0f}, Circle{{0, 0}, 1.0f}).IsNull());
  CHECK(world.CreateShape(box, {}, Circle{{0, 0}, -1.0f}).IsNull());
  world.SetLinearVelocity(box, {kNaN, 0});
  world.ApplyForceToCenter(box, {0, kNaN});
  world.SetTransform(box, {0, kNaN}, 0);
  CHECK_FALSE(world.Step(0.0f));
  CHECK_FALSE(world.Step(-1.0f));
  CHECK_FALSE(world.Step(kNaN));
  CHECK(asserts.Count() == 9);
  CHECK(world.Step(1.0f / 60.0f));
  Vec2 p = world.GetPosition(box);
  CHECK(IsFinite(p));
  CHECK(p.y < 2.0f);  // it fell: the bad calls changed nothing
}

TEST_CASE("solver settings are clamped into range and NaN keeps the old value") {
  World world;
  SolverSettings s;
  s.subSteps = 0;
  s.contactHertz = kNaN;
  s.linearSlop = -1.0f;
  CHECK_FALSE(world.SetSolverSettings(s));
  CHECK(world.GetSolverSettings().subSteps == 1);
  CHECK(world.GetSolverSettings().contactHertz == 30.0f);
  CHECK(world.GetSolverSettings().linearSlop == 0.0f);
  CHECK(world.SetSolverSettings(SolverSettings{}));
}

// The contacts after one step of two resting boxes of half-size `half` whose tight boxes are `gap`
// apart, in a world whose margin is `margin` (from the WorldDef, or set after the world was made).
int ContactsAcrossGap(float gap, float margin, bool setLater, float half = 1.5f) {
  WorldDef def{.gravity = {0.0f, 0.0f}};
  if (!setLater) def.settings.aabbMargin = margin;
  World world(def);
  if (setLater) {
    SolverSettings s = world.GetSolverSettings();
    s.aabbMargin = margin;
    REQUIRE(world.SetSolverSettings(s));
  }
  CHECK(world.GetBroadPhase().Margin() == margin);
  for (float x : {0.0f, 2.0f * half + gap}) {
    const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {x, 0.0f}});
    world.CreateShape(body, {}, MakeBox(half, half).value);
  }
  world.Step(1.0f / 60.0f);
  return world.GetCounters().contacts;
}

// Each proxy box is the tight box grown by the speculative distance (0.02 m), its fat box that grown by
// the shape's margin: the smaller of aabbMargin and an eighth of the shape's reach from its body origin
// (a box's half diagonal). Two 3 m boxes (reach 2.12 m: the setting decides up to 0.265 m) 0.3 m apart
// pair when 2 (0.02 + margin) >= 0.3. Two 0.25 m boxes (reach 0.177 m) take 0.0221 m whatever the
// setting above it: they pair up to 2 (0.02 + 0.0221) = 0.084 m apart.
TEST_CASE(
    "the aabbMargin setting is the broadphase's fat-box margin and at most an eighth of a shape's reach") {
  for (bool setLater : {false, true}) {
    INFO("set after the world was made: " << setLater);
    CHECK(ContactsAcrossGap(0.3f, 0.1f, setLater) == 0);
    CHECK(ContactsAcrossGap(0.3f, 0.2f, setLater) == 1);
    CHECK(ContactsAcrossGap(0.3f, 0.0f, setLater) == 0);
    CHECK(ContactsAcrossGap(0.03f, 0.0f, setLater) == 1);
    CHECK(ContactsAcrossGap(0.080f, 0.1f, setLater, 0.125f) == 1);
    CHECK(ContactsAcrossGap(0.088f, 0.1f, setLater, 0.125f) == 0);
    CHECK(ContactsAcrossGap(0.088f, 0.0f, setLater, 0.125f) == 0);
    CHECK(ContactsAcrossGap(0.030f, 0.0f, setLater, 0.125f) == 1);  // the speculative distance alone
  }
  World world;
  SolverSettings s;
  s.aabbMargin = 20.0f;  // clamped to 10 m
  CHECK_FALSE(world.SetSolverSettings(s));
  CHECK(world.GetBroadPhase().Margin() == 10.0f);
  s.aabbMargin = kNaN;  // keeps the old value
  CHECK_FALSE(world.SetSolverSettings(s));
  CHECK(world.GetBroadPhase().Margin() == 10.0f);
}

TEST_CASE("user data of bodies and shapes and joints comes back as given and is null for stale ids") {
  World world;
  int tags[4] = {};
  BodyId a = world.CreateBody({.type = BodyType::Dynamic, .userData = &tags[0]});
  BodyId b = world.CreateBody({.type = BodyType::Dynamic, .position = {2, 0}});
  ShapeId s = world.CreateShape(a, {.userData = &tags[1]}, Circle{{0, 0}, 0.5f});
  JointId j = world.CreateJoint(DistanceJointDef{{.bodyA = a, .bodyB = b, .userData = &tags[2]}, 2.0f});
  CHECK(world.GetUserData(a) == &tags[0]);
  CHECK(world.GetUserData(b) == nullptr);
  CHECK(world.GetUserData(s) == &tags[1]);
  CHECK(world.GetUserData(j) == &tags[2]);
  world.SetUserData(s, &tags[3]);
  world.SetUserData(j, &tags[0]);
  CHECK(world.GetUserData(s) == &tags[3]);
  CHECK(world.GetUserData(j) == &tags[0]);
  world.DestroyBody(a);  // takes its shape and joint with it
  test::AssertCounter asserts;
  CHECK(world.GetUserData(s) == nullptr);
  CHECK(world.GetUserData(j) == nullptr);
  CHECK(asserts.Count() == 0);  // quietly: ids from events may be stale (issue 29)
}

TEST_CASE("thousands of create and destroy cycles do not grow the world") {
  World world;
  test::AddGround(world);
  for (int i = 0; i < 3000; ++i) {
    BodyId b = test::AddBox(world, {0, 1});
    world.Step(1.0f / 60.0f);
    world.DestroyBody(b);
  }
  world.Step(1.0f / 60.0f);
  CHECK(world.GetCounters().bodies == 1);
  CHECK(world.GetCounters().contacts == 0);
  CHECK(world.State().bodies.size() <= 2);
  CHECK(world.State().contacts.size() <= 2);
}

}  // TEST_SUITE("world.api")
