// SPDX-License-Identifier: MIT
// The scene figures (demos/scenes/scene_figures.h) against answers worked out by hand: a resting box,
// a dropped box, free fall, a body thrown out of bounds, circles created overlapping, a joint created
// apart.
#include "scene_figures.h"

#include "scene_test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>

using namespace mk;
using scenes::FiguresProbe;
using scenes::SceneFigures;
using scenes::SceneInfo;
using scenes::SceneRun;
using scenes::SceneState;

namespace {

constexpr WorldDef kNoGravity{.gravity = {0.0f, 0.0f}};

void AddGround(World& world) {
  BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(ground, {}, MakeBox(10.0f, 1.0f).value);
}

BodyId AddBox(World& world, SceneState& state, Vec2 position, Vec2 velocity = {0.0f, 0.0f}) {
  BodyId body =
      world.CreateBody({.type = BodyType::Dynamic, .position = position, .linearVelocity = velocity});
  world.CreateShape(body, {}, MakeBox(0.5f, 0.5f).value);  // 1 kg
  state.bodies.push_back(body);
  return body;
}

SceneFigures Measure(const scenes::BuildFn build, const WorldDef& def, int steps) {
  const SceneInfo info{"figures_test", "stress", "", steps, def, {}, "", build};
  SceneRun run(info);
  return scenes::MeasureFigures(run, steps);
}

}  // namespace

TEST_SUITE("scenes.figures") {

TEST_CASE("a box resting on the ground shows no penetration beyond the slop and no drift and falls asleep") {
  const SceneFigures f = Measure(
      [](World& world, const scenes::SceneParams&) {
        auto state = std::make_unique<SceneState>();
        AddGround(world);
        AddBox(world, *state, {0.0f, 0.5f});
        return state;
      },
      {}, 90);
  CHECK(f.steps == 90);
  CHECK(f.maxPenetration >= 0.0f);
  CHECK(f.maxPenetration < 0.01f);  // the linear slop is 5 mm
  CHECK(f.finalPenetration <= f.maxPenetration);
  CHECK(std::abs(f.topDrift) < 0.01f);
  CHECK(f.sideDrift < 1e-4f);
  CHECK(f.escaped == 0);
  CHECK(f.jointError == 0.0f);
  // timeToSleep is 0.5 s: 30 steps at rest.
  CHECK(f.sleepStep >= 30);
  CHECK(f.sleepStep <= 40);
  CHECK(f.finalMaxSpeed < 1e-3f);
  CHECK(f.energyKept == doctest::Approx(1.0f).epsilon(0.02));  // m g (0.5 - sink) / (m g 0.5)
}

TEST_CASE("a box dropped 1 m onto the ground has a top drift of 1 m and keeps a third of its energy") {
  const SceneFigures f = Measure(
      [](World& world, const scenes::SceneParams&) {
        auto state = std::make_unique<SceneState>();
        AddGround(world);
        AddBox(world, *state, {0.0f, 1.5f});
        return state;
      },
      {}, 120);
  CHECK(f.topDrift == doctest::Approx(1.0f).epsilon(0.01));
  CHECK(f.escaped == 0);
  CHECK(f.energyKept == doctest::Approx(1.0f / 3.0f).epsilon(0.02));  // rests at 0.5 m of 1.5 m
  CHECK(f.maxPenetration < 0.05f);
}

TEST_CASE(
    "a box falling past the lowest static shape escapes after an exact parabola that keeps its energy") {
  const SceneFigures f = Measure(
      [](World& world, const scenes::SceneParams&) {
        auto state = std::make_unique<SceneState>();
        BodyId far = world.CreateBody({});
        world.CreateShape(far, {}, Segment{{50.0f, 0.0f}, {60.0f, 0.0f}});  // the lowest static shape: y = 0
        AddBox(world, *state, {0.0f, 1.0f});
        return state;
      },
      {}, 60);
  // A body without constraints is integrated on the exact parabola (body_integrator.cpp): after 1 s
  // v = g t = 10 m/s and the drop g t^2 / 2 = 5 m, so kinetic 50 J + potential 10 (1 - 5) J = the 10 J
  // it started with. (Semi-implicit Euler would give 5.0208 m and 0.979.)
  CHECK(f.escaped == 1);
  CHECK(f.topDrift == doctest::Approx(5.0f).epsilon(1e-4));
  CHECK(f.finalMaxSpeed == doctest::Approx(10.0f).epsilon(1e-4));
  CHECK(f.energyKept == doctest::Approx(1.0f).epsilon(1e-4));
  CHECK(f.sleepStep == -1);
}

TEST_CASE("a box thrown out of the scene bounds escapes and keeps its speed and energy") {
  const SceneFigures f = Measure(
      [](World& world, const scenes::SceneParams&) {
        auto state = std::make_unique<SceneState>();
        AddBox(world, *state, {0.0f, 0.0f}, {10.0f, 0.0f});
        state->bounds = {{-5.0f, -5.0f}, {5.0f, 5.0f}};
        return state;
      },
      kNoGravity, 60);
  CHECK(f.escaped == 1);
  CHECK(f.sideDrift == doctest::Approx(10.0f).epsilon(1e-4));
  CHECK(std::abs(f.topDrift) < 1e-5f);
  CHECK(f.finalMaxSpeed == doctest::Approx(10.0f).epsilon(1e-5));
  CHECK(f.energyKept == doctest::Approx(1.0f).epsilon(1e-5));
  CHECK(f.maxPenetration == 0.0f);
}

TEST_CASE(
    "circles created 0.2 m into each other report that overlap as max penetration and are pushed apart") {
  const SceneFigures f = Measure(
      [](World& world, const scenes::SceneParams&) {
        auto state = std::make_unique<SceneState>();
        for (const float x : {-0.4f, 0.4f}) {
          BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {x, 0.0f}});
          world.CreateShape(body, {}, Circle{{0.0f, 0.0f}, 0.5f});
          state->bodies.push_back(body);
        }
        return state;
      },
      kNoGravity, 60);
  CHECK(f.maxPenetration == doctest::Approx(0.2f).epsilon(1e-4));
  CHECK(f.finalPenetration < 0.01f);
  CHECK(f.energyKept < 0.0f);  // nothing to keep: no gravity, at rest
  CHECK(f.escaped == 0);
}

TEST_CASE("a revolute joint created with its anchors 0.3 m apart reports that gap and then closes it") {
  const SceneInfo info{
      "figures_joint", "stress", "", 60, kNoGravity, {}, "", [](World& world, const scenes::SceneParams&) {
        auto state = std::make_unique<SceneState>();
        BodyId a = AddBox(world, *state, {0.0f, 0.0f});
        BodyId b = AddBox(world, *state, {1.3f, 0.0f});
        RevoluteJointDef def;
        def.bodyA = a;
        def.bodyB = b;
        def.localAnchorA = {0.5f, 0.0f};
        def.localAnchorB = {-0.5f, 0.0f};
        state->joints.push_back(world.CreateJoint(def));
        state->pointJoints.push_back({a, b, def.localAnchorA, def.localAnchorB});
        return state;
      }};
  SceneRun run(info);
  const SceneFigures f = scenes::MeasureFigures(run, 60);
  CHECK(f.jointError == doctest::Approx(0.3f).epsilon(1e-5));
  const FiguresProbe after(run);  // measured from now on: the gap has closed
  CHECK(after.Finish(run).jointError < 1e-3f);
}

}  // TEST_SUITE("scenes.figures")
