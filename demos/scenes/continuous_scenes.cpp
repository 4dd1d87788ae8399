// SPDX-License-Identifier: MIT
// Continuous scenes: fast and thin bodies against thin static geometry, where the speculative
// contacts and the continuous stage (docs/design.md section 7) must keep bodies from passing through
// or catching on what they slide over (ghost collisions at the joints between shapes). Rebuilt after
// the descriptions of Box2D v3's "Continuous" samples (ideas only, no code). World defaults (the
// "aligned" settings, continuous on) unless the table row says otherwise; the ground's top is y = 0.
#include "scene_helpers.h"

#include <memory>
#include <vector>

namespace mk::scenes {

using namespace helpers;

namespace {

/// Static two-sided segments of length `length` end to end along y = 0, from x = x0 rightwards.
void AddSegmentRow(World& world, float x0, int count, float length, const ShapeDef& def = {}) {
  BodyId ground = world.CreateBody({});
  for (int i = 0; i < count; ++i)
    world.CreateShape(ground, def, Segment{{x0 + length * F(i), 0.0f}, {x0 + length * F(i + 1), 0.0f}});
}

}  // namespace

// A 4 m x 0.1 m box (density 1) falling flat at 50 m/s (initial velocity) from 4 m above a static
// platform 0.15 m thick (top at y = 2, 10 m wide) over a ground segment. It moves 0.83 m a step,
// eight times its thickness: the speculative contact must catch it or the continuous stage stop it.
// Bounds: a body ending below y = 1.5 went through the platform.
std::unique_ptr<SceneState> BuildSpeculativeFallback(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundSegment(world, 20.0f);
  AddStaticBox(world, {0.0f, 2.0f - 0.075f}, 5.0f, 0.075f);
  AddDynamic(world, *state, {.position = {0.0f, 6.05f}, .linearVelocity = {0.0f, -50.0f}}, {},
             MakeBox(2.0f, 0.05f).value, true);
  state->bounds = {{-20.0f, 1.5f}, {20.0f, 20.0f}};
  state->view = {{-5.0f, -1.0f}, {5.0f, 7.0f}};
  return state;
}

// A sliver: a triangle 2 m long and 0.1 m high at its thick end (0.1 m^2), tilted 0.3 rad, launched at
// 90 m/s straight down from 5 m at a ground segment: 1.5 m a step against a smallest extent of a few
// centimetres. The segment is 200 m wide, so a body below it went through, not off its end; a static
// box 1 m further down catches it then (bounds: below y = -0.5 is through).
std::unique_ptr<SceneState> BuildSpeculativeSliver(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundSegment(world, 100.0f);
  AddStaticBox(world, {0.0f, -2.0f}, 100.0f, 1.0f);
  state->bounds = {{-100.0f, -0.5f}, {100.0f, 50.0f}};
  const Vec2 points[3] = {{-1.0f, -0.033f}, {1.0f, -0.033f}, {0.9f, 0.067f}};
  AddDynamic(world, *state, {.position = {0.0f, 5.0f}, .angle = 0.3f, .linearVelocity = {0.0f, -90.0f}}, {},
             MakePolygon(points).value, true);
  state->view = {{-3.0f, -1.0f}, {3.0f, 6.0f}};
  return state;
}

// A 1 m box (friction 0.6) sliding at 20 m/s along a ground of 80 two-sided 1 m segments end to end:
// a third of a metre a step, so its speculative contacts reach the next segments' ends, which a
// naive manifold takes for walls (ghost collisions: the box hops or stops). It should slide 33 m.
std::unique_ptr<SceneState> BuildSpeculativeGhost(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddSegmentRow(world, -40.0f, 80, 1.0f);
  const BodyId box = AddDynamic(world, *state, {.position = {-35.0f, 0.5f}, .linearVelocity = {20.0f, 0.0f}},
                                {}, MakeBox(0.5f, 0.5f).value, true);
  // The box crosses the 80 m row in 4 s: the camera rides along over 16 m of it, seams in view.
  state->follow = box;
  state->view = {{-43.0f, -3.0f}, {-27.0f, 4.0f}};
  return state;
}

// A trough (static walls at x = -22 and x = 1) holding a column of five 0.5 m boxes against its right
// wall; a bullet (circle of radius 0.125) at 200 m/s from x = -20 into the column's third box; and a
// 10 cm box, a circle of radius 5 cm and a capsule of 20 cm dropped from 10 m beside the column.
// Bounds: the trough. Bodies: the boxes bottom up, the bullet, the three small shapes.
std::unique_ptr<SceneState> BuildDrop(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 30.0f);
  AddStaticBox(world, {1.5f, 6.0f}, 0.5f, 6.0f);
  AddStaticBox(world, {-22.5f, 6.0f}, 0.5f, 6.0f);
  const Polygon box = MakeBox(0.25f, 0.25f).value;
  for (int i = 0; i < 5; ++i) AddDynamic(world, *state, {.position = {0.74f, 0.25f + 0.5f * F(i)}}, {}, box);
  AddDynamic(world, *state, {.position = {-20.0f, 1.25f}, .linearVelocity = {200.0f, 0.0f}, .isBullet = true},
             {}, Circle{{0.0f, 0.0f}, 0.125f}, true);
  AddDynamic(world, *state, {.position = {-2.0f, 10.0f}}, {}, MakeBox(0.05f, 0.05f).value);
  AddDynamic(world, *state, {.position = {-3.0f, 10.0f}}, {}, Circle{{0.0f, 0.0f}, 0.05f});
  AddDynamic(world, *state, {.position = {-4.0f, 10.0f}}, {},
             Capsule{{-0.075f, 0.0f}, {0.075f, 0.0f}, 0.025f});
  state->bounds = {{-22.0f, -0.5f}, {1.0f, 30.0f}};
  return state;
}

// No gravity; a closed 20 m x 20 m room; a 4 m x 0.2 m bullet box with restitution 1 and friction 0
// (walls friction 0 too), thrown at (8, 6) m/s spinning at 1 rad/s. Every bounce should keep its
// kinetic energy (energy kept 1). Bounds: the room.
std::unique_ptr<SceneState> BuildBounceHouse(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  const ShapeDef def{.friction = 0.0f, .restitution = 1.0f};
  AddRoom(world, *state, {{-10.0f, -10.0f}, {10.0f, 10.0f}}, def);
  AddDynamic(world, *state,
             {.position = {0.0f, 0.0f},
              .angle = 0.3f,
              .linearVelocity = {8.0f, 6.0f},
              .angularVelocity = 1.0f,
              .isBullet = true},
             def, MakeBox(2.0f, 0.1f).value, true);
  state->view = {{-10.5f, -10.5f}, {10.5f, 10.5f}};  // the room: the box bounces all over it
  return state;
}

// Five sensor "coins" (static sensor circles of radius 0.5) 2 m apart at y = 1 from x = 0, and a
// capsule (1 m core, radius 0.25, sensor events on) at 80 m/s from x = -20, 1.5 m up: 1.3 m a step,
// so it overlaps each coin in one or two steps. It lands and stops against a wall at x = 40.
std::unique_ptr<SceneState> BuildSensorCoins(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 60.0f);
  AddStaticBox(world, {40.5f, 3.0f}, 0.5f, 3.0f);
  AddStaticBox(world, {-25.5f, 3.0f}, 0.5f, 3.0f);
  for (int i = 0; i < 5; ++i) {
    BodyId coin = world.CreateBody({.position = {2.0f * F(i), 1.0f}});
    world.CreateShape(coin, {.isSensor = true}, Circle{{0.0f, 0.0f}, 0.5f});
  }
  AddDynamic(world, *state, {.position = {-20.0f, 1.5f}, .linearVelocity = {80.0f, 0.0f}},
             {.enableSensorEvents = true}, Capsule{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.25f}, true);
  state->bounds = {{-25.0f, -0.5f}, {40.0f, 20.0f}};
  state->view = {{-26.0f, -1.0f}, {41.0f, 7.0f}};  // the capsule's run, walls to wall, coins between
  return state;
}

// An open chain along y = 0 from x = 20 to x = -20 (points 1 m apart, front side up), and a circle
// (radius 0.5), a 1 m box and a capsule (1 m core, radius 0.25) thrown down at 50 m/s from 4 m.
std::unique_ptr<SceneState> BuildChainDrop(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  std::vector<Vec2> points;
  for (int i = 0; i <= 40; ++i) points.push_back({20.0f - F(i), 0.0f});
  world.CreateChain(world.CreateBody({}), {.points = points});
  const BodyDef fall{.linearVelocity = {0.0f, -50.0f}};
  BodyDef def = fall;
  def.position = {-3.0f, 4.0f};
  AddDynamic(world, *state, def, {}, Circle{{0.0f, 0.0f}, 0.5f}, true);
  def.position = {0.0f, 4.0f};
  AddDynamic(world, *state, def, {}, MakeBox(0.5f, 0.5f).value, true);
  def.position = {3.0f, 4.0f};
  def.angle = 0.5f;
  AddDynamic(world, *state, def, {}, Capsule{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.25f}, true);
  return state;
}

// A valley-shaped open chain: walls 5 m high at x = -25 and x = 25 and a floor of 100 points 0.5 m
// apart between them. A 1 m box, a capsule and a circle start at x = -20 sliding right at 10 m/s
// with friction 0.1 (a metre a second squared): they cross some 90 chain joints and reach the far
// wall at about 3 m/s. Bodies: box, capsule, circle.
std::unique_ptr<SceneState> BuildChainSlide(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  std::vector<Vec2> points{{25.0f, 5.0f}};
  for (int i = 0; i <= 100; ++i) points.push_back({25.0f - 0.5f * F(i), 0.0f});
  points.push_back({-25.0f, 5.0f});
  world.CreateChain(world.CreateBody({}), {.points = points, .friction = 0.1f});
  const ShapeDef def{.friction = 0.1f};
  const BodyId box = AddDynamic(world, *state, {.position = {-20.0f, 0.5f}, .linearVelocity = {10.0f, 0.0f}},
                                def, MakeBox(0.5f, 0.5f).value);
  AddDynamic(world, *state, {.position = {-21.5f, 0.25f}, .linearVelocity = {10.0f, 0.0f}}, def,
             Capsule{{-0.4f, 0.0f}, {0.4f, 0.0f}, 0.25f});
  AddDynamic(world, *state, {.position = {-23.0f, 0.5f}, .linearVelocity = {10.0f, 0.0f}}, def,
             Circle{{0.0f, 0.0f}, 0.5f});
  state->bounds = {{-25.0f, -0.5f}, {25.0f, 30.0f}};
  // The camera rides with the leading box over 16 m of the 50 m track: the whole track framed the
  // shapes a few pixels wide (and alike to other scenes' screenshots).
  state->follow = box;
  state->view = {{-29.0f, -2.0f}, {-13.0f, 5.0f}};
  return state;
}

// A 30 degree ramp of 20 two-sided segments 0.5 m long (no chain: every joint is a bare vertex)
// running down into a flat row of 40 more, with 1 m boxes (friction 0.2) sliding down it from rest.
// Bodies: the boxes, top first.
std::unique_ptr<SceneState> BuildSegmentSlide(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  const float angle = 30.0f * kPi / 180.0f;
  const Vec2 down{Cos(angle), -Sin(angle)};
  const Vec2 top = -10.0f * down;  // the ramp ends at the origin
  BodyId ground = world.CreateBody({});
  const ShapeDef def{.friction = 0.2f};
  for (int i = 0; i < 20; ++i)
    world.CreateShape(ground, def, Segment{top + 0.5f * F(i) * down, top + 0.5f * F(i + 1) * down});
  AddSegmentRow(world, 0.0f, 40, 0.5f, def);
  const Vec2 normal{Sin(angle), Cos(angle)};
  BodyId lead{};
  for (int k = 0; k < 3; ++k) {
    lead = AddDynamic(world, *state,
                      {.position = top + (1.0f + 2.5f * F(k)) * down + 0.5f * normal, .angle = -angle}, def,
                      MakeBox(0.5f, 0.5f).value);
  }
  // The ramp, then the camera rides with the leading box along the 20 m row (framed whole, the boxes
  // ran off its right edge; framed with the row, they were too small to tell apart from pinball).
  state->follow = lead;
  state->view = {{-10.0f, -1.5f}, {6.0f, 6.5f}};
  return state;
}

// A ground of forty 1 m static boxes side by side (each its own shape, so every 1 m there is a corner
// under the surface) with a 1 m box, a circle (radius 0.5) and a capsule (1 m core, radius 0.25)
// sliding over it at 6 m/s with friction 0.1: any catch on a corner shows as a hop or a stop.
std::unique_ptr<SceneState> BuildGhostBumps(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  BodyId ground = world.CreateBody({});
  const ShapeDef def{.friction = 0.1f};
  for (int i = 0; i < 40; ++i)
    world.CreateShape(ground, def, MakeOffsetBox(0.5f, 0.5f, {-19.5f + F(i), -0.5f}, 0.0f).value);
  AddDynamic(world, *state, {.position = {-15.0f, 0.5f}, .linearVelocity = {6.0f, 0.0f}}, def,
             MakeBox(0.5f, 0.5f).value);
  AddDynamic(world, *state, {.position = {-17.0f, 0.5f}, .linearVelocity = {6.0f, 0.0f}}, def,
             Circle{{0.0f, 0.0f}, 0.5f});
  AddDynamic(world, *state, {.position = {-19.0f, 0.25f}, .linearVelocity = {6.0f, 0.0f}}, def,
             Capsule{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.25f});
  state->view = {{-20.5f, -1.5f}, {20.5f, 2.5f}};  // the whole floor: the shapes slide along it
  return state;
}

namespace {

/// Pinball: the flippers swing up for 20 steps of every 90 (a player's button), down otherwise.
class PinballState : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    const bool up = step % 90 >= 45 && step % 90 < 65;
    world.SetMotorSpeed(joints[0], up ? 15.0f : -15.0f);
    world.SetMotorSpeed(joints[1], up ? -15.0f : 15.0f);
  }
};

}  // namespace

// A pinball table: a clockwise chain loop (bodies stay inside) 10 m wide and 16 m high with a funnel
// to a drain between two flippers (1.8 m boxes on revolute joints with motors and +-0.4 rad limits,
// swung up for 20 steps of every 90) and a ball (bullet, radius 0.25). Bounds: the table.
std::unique_ptr<SceneState> BuildPinball(World& world, const SceneParams&) {
  auto state = std::make_unique<PinballState>();
  const Vec2 outline[] = {{-1.2f, 0.0f}, {-5.0f, 2.0f}, {-5.0f, 16.0f}, {5.0f, 16.0f},
                          {5.0f, 2.0f},  {1.2f, 0.0f},  {1.2f, -3.0f},  {-1.2f, -3.0f}};
  BodyId table = world.CreateBody({});
  world.CreateChain(table, {.points = outline, .isLoop = true});
  for (const float side : {-1.0f, 1.0f}) {
    const Vec2 pivot{side * 2.6f, 1.2f};
    BodyId flipper = world.CreateBody({.type = BodyType::Dynamic, .position = pivot});
    world.CreateShape(flipper, {}, MakeOffsetBox(0.9f, 0.1f, {-side * 0.9f, 0.0f}, 0.0f).value);
    state->bodies.push_back(flipper);
    RevoluteJointDef def;
    def.bodyA = table;
    def.bodyB = flipper;
    def.localAnchorA = pivot;
    def.enableLimit = true;
    def.lowerAngle = -0.4f;
    def.upperAngle = 0.4f;
    def.enableMotor = true;
    def.maxMotorTorque = 1000.0f;
    def.motorSpeed = side < 0.0f ? -15.0f : 15.0f;
    AddPointJoint(world, *state, def);
  }
  AddDynamic(world, *state, {.position = {1.0f, 12.0f}, .linearVelocity = {-3.0f, 0.0f}, .isBullet = true},
             {}, Circle{{0.0f, 0.0f}, 0.25f}, true);
  state->bounds = {{-5.0f, -3.0f}, {5.0f, 16.0f}};
  return state;
}

// A floor of 100 "pixels" (static 0.1 m boxes, each its own shape) whose tops alternate between y = 0
// and y = 1 mm, between two walls; a 0.4 m box slides over it at 3 m/s (friction 0.1) and a circle of
// radius 0.1 rolls at 2 m/s. Misaligned by a fifth of the linear slop, the pixel corners must not
// catch.
std::unique_ptr<SceneState> BuildPixelImperfect(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  BodyId ground = world.CreateBody({});
  const ShapeDef def{.friction = 0.1f};
  for (int i = 0; i < 100; ++i) {
    const float top = i % 2 == 0 ? 0.0f : 0.001f;
    world.CreateShape(ground, def,
                      MakeOffsetBox(0.05f, 0.05f, {-4.95f + 0.1f * F(i), top - 0.05f}, 0.0f).value);
  }
  world.CreateShape(ground, def, MakeOffsetBox(0.1f, 0.5f, {-5.1f, 0.4f}, 0.0f).value);
  world.CreateShape(ground, def, MakeOffsetBox(0.1f, 0.5f, {5.1f, 0.4f}, 0.0f).value);
  AddDynamic(world, *state, {.position = {-4.0f, 0.201f}, .linearVelocity = {3.0f, 0.0f}}, def,
             MakeBox(0.2f, 0.2f).value);
  AddDynamic(world, *state, {.position = {-4.6f, 0.101f}, .linearVelocity = {2.0f, 0.0f}}, def,
             Circle{{0.0f, 0.0f}, 0.1f});
  state->bounds = {{-5.0f, -0.5f}, {5.0f, 5.0f}};
  return state;
}

// Four balls (radius 0.25, restitution 1) dropped from heights where they hit the ground at 0.5, 0.9,
// 1.1 and 2 m/s: below the restitution threshold (1 m/s) a ball should stop dead, above it bounce back
// to where it started. Bodies: in that order.
std::unique_ptr<SceneState> BuildRestitutionThreshold(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 10.0f);
  const float speeds[4] = {0.5f, 0.9f, 1.1f, 2.0f};
  for (int k = 0; k < 4; ++k) {
    const float drop = speeds[k] * speeds[k] / 20.0f;  // v^2 / 2g
    AddDynamic(world, *state, {.position = {-3.0f + 2.0f * F(k), 0.25f + drop}}, {.restitution = 1.0f},
               Circle{{0.0f, 0.0f}, 0.25f});
  }
  return state;
}

// Two skinny boxes (2 m x 4 cm) thrown down at 40 m/s from 5 m at the ground: one flat, one spinning
// at 20 rad/s (its ends sweep faster than its centre falls).
std::unique_ptr<SceneState> BuildSkinnyBox(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 20.0f);
  const Polygon skinny = MakeBox(1.0f, 0.02f).value;
  AddDynamic(world, *state, {.position = {-3.0f, 5.0f}, .linearVelocity = {0.0f, -40.0f}}, {}, skinny, true);
  AddDynamic(
      world, *state,
      {.position = {3.0f, 5.0f}, .angle = 0.5f, .linearVelocity = {0.0f, -40.0f}, .angularVelocity = 20.0f},
      {}, skinny, true);
  state->view = {{-6.0f, -1.0f}, {6.0f, 6.0f}};
  return state;
}

}  // namespace mk::scenes
