// SPDX-License-Identifier: MIT
// Robustness scenes: what breaks an iterative soft-contact solver rather than what is slow for it
// (large mass ratios, stiff joints under a heavy chassis, bodies created overlapping, boxes near the
// linear slop, a box wedged between slopes). Rebuilt after the descriptions of Box2D v3's
// "Robustness" samples (ideas only, no code). Every scene runs at the world defaults (the "aligned"
// settings, SolverSettings) unless its table row says otherwise; the ground's top is y = 0.
#include "scene_helpers.h"

#include <memory>

namespace mk::scenes {

using namespace helpers;

// Three pyramids of base 4 (ten 1 m boxes, density 1) 8 m apart; each top box is heavier than the
// boxes under it: 10x at x = -8, 100x at x = 0, 300x at x = 8. The load spreads over the pyramid's
// rows, so the bottom contacts see a ratio of (9 + density) : 1 at most. Bodies: pyramid by pyramid,
// row by row (the top box is each pyramid's tenth body).
std::unique_ptr<SceneState> BuildHighMassRatio1(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 30.0f);
  const float densities[3] = {10.0f, 100.0f, 300.0f};
  const Polygon box = MakeBox(0.5f, 0.5f).value;
  for (int p = 0; p < 3; ++p) {
    const float cx = -8.0f + 8.0f * F(p);
    for (int row = 0; row < 4; ++row) {
      const int n = 4 - row;
      for (int i = 0; i < n; ++i) {
        const ShapeDef def{.density = row == 3 ? densities[p] : 1.0f};
        AddDynamic(world, *state, {.position = {cx - 0.5f * F(n - 1) + F(i), 0.5f + F(row)}}, def, box);
      }
    }
  }
  return state;
}

// A 20 m box (half extent 10, density 1: 400 kg) whose bottom starts 16 m above the ground falls onto
// two 1 m boxes (1 kg) 18 m apart, each under one end: 200 kg per 1 kg box, hitting at 17 m/s.
// Bodies: the two small boxes, then the big one.
std::unique_ptr<SceneState> BuildHighMassRatio2(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 40.0f);
  const Polygon small = MakeBox(0.5f, 0.5f).value;
  AddDynamic(world, *state, {.position = {-9.0f, 0.5f}}, {}, small);
  AddDynamic(world, *state, {.position = {9.0f, 0.5f}}, {}, small);
  AddDynamic(world, *state, {.position = {0.0f, 26.0f}}, {}, MakeBox(10.0f, 10.0f).value);
  return state;
}

// As high_mass_ratio_2 with two small triangles (1 m base, 1 m high, 0.5 kg) 18 m apart under the
// big box, whose bottom starts 4 m above the ground (3 m above the triangles' apexes): the load
// rests on two points. Bodies: the triangles, then the big box.
std::unique_ptr<SceneState> BuildHighMassRatio3(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 40.0f);
  // Centroid at the origin: base at y = -1/3, apex at y = 2/3.
  const Vec2 points[3] = {{-0.5f, -1.0f / 3.0f}, {0.5f, -1.0f / 3.0f}, {0.0f, 2.0f / 3.0f}};
  const Polygon triangle = MakePolygon(points).value;
  AddDynamic(world, *state, {.position = {-9.0f, 1.0f / 3.0f}}, {}, triangle);
  AddDynamic(world, *state, {.position = {9.0f, 1.0f / 3.0f}}, {}, triangle);
  AddDynamic(world, *state, {.position = {0.0f, 14.0f}}, {}, MakeBox(10.0f, 10.0f).value);
  return state;
}

// A 20 m box (400 kg) whose bottom starts 2 m above a single 1 m box (1 kg) resting on the ground,
// centred on it: 400:1 through one box. SolverSettings' notes predict a sink of about 13-18 cm at
// 300:1 to 400:1. Bodies: the small box, then the big one.
std::unique_ptr<SceneState> BuildHeavyOnLight(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 40.0f);
  AddDynamic(world, *state, {.position = {0.0f, 0.5f}}, {}, MakeBox(0.5f, 0.5f).value);
  AddDynamic(world, *state, {.position = {0.0f, 13.0f}}, {}, MakeBox(10.0f, 10.0f).value);
  return state;
}

// A 500 kg chassis (a 3 m x 0.5 m box) on two 1.6 kg wheels (circles of radius 0.4) on revolute
// joints 1 m either side of its centre and 0.5 m below it, dropped with the wheels' bottoms 1.75 m
// above the ground. The row sets 12 sub-steps and joints at 240 Hz, damping 0: 312:1 across each
// joint. Bodies: chassis, rear wheel, front wheel; joints (both in pointJoints): rear, front.
std::unique_ptr<SceneState> BuildCart(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 30.0f);
  constexpr float kWheelRadius = 0.4f, kDrop = 1.75f;
  const float wheelY = kDrop + kWheelRadius, chassisY = wheelY + 0.5f;
  const float chassisDensity = 500.0f / (3.0f * 0.5f);
  const float wheelDensity = 1.6f / (kPi * kWheelRadius * kWheelRadius);
  BodyId chassis = AddDynamic(world, *state, {.position = {0.0f, chassisY}}, {.density = chassisDensity},
                              MakeBox(1.5f, 0.25f).value);
  for (const float x : {-1.0f, 1.0f}) {
    BodyId wheel =
        AddDynamic(world, *state, {.position = {x, wheelY}}, {.density = wheelDensity, .friction = 0.9f},
                   Circle{{0.0f, 0.0f}, kWheelRadius});
    RevoluteJointDef def;
    def.bodyA = chassis;
    def.bodyB = wheel;
    def.localAnchorA = {x, -0.5f};
    AddPointJoint(world, *state, def);
  }
  return state;
}

// A pyramid of base 4 of 1 m boxes created overlapping: centres 0.75 m apart in x and y (a quarter
// of a box each way), the lowest row 0.25 m into the ground. The contacts' push-out cap (3 m/s)
// separates them; the figures show the largest overlap and how long it lasts.
std::unique_ptr<SceneState> BuildOverlapRecovery(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 20.0f);
  AddBoxPyramid(world, *state, 4, 0.5f, 0.0f, -0.25f, {}, 0.75f, 0.25f);
  return state;
}

// A pyramid of base 10 (55 boxes) of 2.5 cm boxes (half extent 0.0125 m, 2.5 times the linear slop).
std::unique_ptr<SceneState> BuildTinyPyramid(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 5.0f);
  AddBoxPyramid(world, *state, 10, 0.0125f, 0.0f, 0.0f);
  return state;
}

// A V of two static segments, from (-/+1.25, 3) down to (-/+0.25, 0), with nothing below: a 1 m box
// (friction 0.6) dropped from 4 m wedges where the V is 1 m wide (its bottom about 0.8 m up). It must
// stay there: slipping through the 0.5 m gap puts it below the static geometry (escaped).
std::unique_ptr<SceneState> BuildWedge(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  BodyId v = world.CreateBody({});
  world.CreateShape(v, {}, Segment{{-1.25f, 3.0f}, {-0.25f, 0.0f}});
  world.CreateShape(v, {}, Segment{{0.25f, 0.0f}, {1.25f, 3.0f}});
  AddDynamic(world, *state, {.position = {0.0f, 4.0f}}, {}, MakeBox(0.5f, 0.5f).value);
  state->view = {{-2.0f, -0.5f}, {2.0f, 5.0f}};  // the V the box falls into, not just its start
  return state;
}

}  // namespace mk::scenes
