// SPDX-License-Identifier: MIT
// The Box2D v3 benchmark scenes (all but rain, which is in rain.cpp), built exactly as Box2D v3 builds them
// defines them: the default SceneParams give the release-build sizes.
#include "scene_builders.h"

#include <cfloat>
#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

namespace mk::scenes {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

BodyId AddDynamic(World& world, Vec2 position) {
  return world.CreateBody({.type = BodyType::Dynamic, .position = position});
}

JointId AddMotorHinge(World& world, BodyId ground, BodyId body, Vec2 pivot, float speed, float torque) {
  RevoluteJointDef def;
  def.bodyA = ground;
  def.bodyB = body;
  def.localAnchorA = pivot;  // the ground sits at the origin, unrotated
  def.localAnchorB = pivot - world.GetPosition(body);
  def.enableMotor = true;
  def.motorSpeed = speed;
  def.maxMotorTorque = torque;
  return world.CreateJoint(def);
}

}  // namespace

void AddPyramid(World& world, int base, float left, float bottom, std::vector<BodyId>& out) {
  const Polygon box = MakeBox(0.5f, 0.5f).value;
  const ShapeDef def{.density = 1.0f, .friction = 0.6f};
  for (int i = 0; i < base; ++i) {
    for (int j = i; j < base; ++j) {
      // Each row shifts half a box right of the one below: boxes touch exactly, without gaps.
      Vec2 position{left + 0.5f * static_cast<float>(i) + static_cast<float>(j - i),
                    bottom + static_cast<float>(i) + 0.5f};
      BodyId body = AddDynamic(world, position);
      world.CreateShape(body, def, box);
      out.push_back(body);
    }
  }
}

// size = pyramid base (100).
std::unique_ptr<SceneState> BuildLargePyramid(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  const int base = params.size;
  const float groundHalfWidth = base > 100 ? static_cast<float>(base) : 100.0f;
  BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(ground, {}, MakeBox(groundHalfWidth, 1.0f).value);  // top surface y = 0
  state->bodies.reserve(static_cast<std::size_t>(base * (base + 1) / 2));
  AddPyramid(world, base, 0.5f - 0.5f * static_cast<float>(base), 0.0f, state->bodies);
  return state;
}

// size = pyramid base (10), count = pyramids per row and number of rows (20).
std::unique_ptr<SceneState> BuildManyPyramids(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  const int base = params.size, n = params.count;
  const float spacing = static_cast<float>(base + 1);              // 11 m: one free metre between pyramids
  const float halfWidth = 0.5f * spacing * static_cast<float>(n);  // 110 m
  BodyId ground = world.CreateBody({});
  for (int r = 0; r < n; ++r) {
    const float y = spacing * static_cast<float>(r);
    world.CreateShape(ground, {}, Segment{{-halfWidth, y}, {halfWidth, y}});
  }
  state->bodies.reserve(static_cast<std::size_t>(n * n * base * (base + 1) / 2));
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      const float centerX = -halfWidth + spacing * static_cast<float>(c) + 1.0f;
      AddPyramid(world, base, centerX, spacing * static_cast<float>(r), state->bodies);
    }
  }
  return state;
}

namespace {

// The drum's four walls, 20 m square inside, 1 m thick, on `drum`.
void AddDrumWalls(World& world, BodyId drum) {
  const ShapeDef wallDef{.density = 50.0f, .friction = 0.6f};
  world.CreateShape(drum, wallDef, MakeOffsetBox(0.5f, 10.0f, {10.0f, 0.0f}, 0.0f).value);
  world.CreateShape(drum, wallDef, MakeOffsetBox(0.5f, 10.0f, {-10.0f, 0.0f}, 0.0f).value);
  world.CreateShape(drum, wallDef, MakeOffsetBox(10.0f, 0.5f, {0.0f, 10.0f}, 0.0f).value);
  world.CreateShape(drum, wallDef, MakeOffsetBox(10.0f, 0.5f, {0.0f, -10.0f}, 0.0f).value);
}

// A count x count grid of 0.25 m boxes inside the drum.
void AddDrumContents(World& world, int count, SceneState& state) {
  const Polygon box = MakeBox(0.125f, 0.125f).value;
  const ShapeDef boxDef{.density = 1.0f, .friction = 0.6f};
  for (int i = 0; i < count; ++i) {
    for (int j = 0; j < count; ++j) {
      BodyId body =
          AddDynamic(world, {-9.0f + 0.4f * static_cast<float>(j), 1.0f + 0.4f * static_cast<float>(i)});
      world.CreateShape(body, boxDef, box);
      state.bodies.push_back(body);
    }
  }
}

}  // namespace

// count = side of the grid of small boxes (45).
std::unique_ptr<SceneState> BuildTumbler(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  BodyId ground = world.CreateBody({});
  BodyId tumbler = AddDynamic(world, {0.0f, 10.0f});
  AddDrumWalls(world, tumbler);
  state->bodies.push_back(tumbler);
  // 25 degrees per second counter-clockwise; the torque cap is high enough never to stall.
  state->joints.push_back(AddMotorHinge(world, ground, tumbler, {0.0f, 10.0f}, 25.0f * kPi / 180.0f, 1e8f));
  AddDrumContents(world, params.count, *state);
  return state;
}

// count = side of the grid of small boxes (20). The tumbler with a kinematic drum turning at the same
// 25 degrees per second: a body that turns in place for ever (it found kinematic bodies falling
// asleep, docs/design.md "Islands"), and every wall contact is with a body the solver reads and never
// moves. The drum is not in `bodies` (the figures watch the boxes).
std::unique_ptr<SceneState> BuildKinematicDrum(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  BodyId drum = world.CreateBody({.type = BodyType::Kinematic, .position = {0.0f, 10.0f}});
  world.SetAngularVelocity(drum, 25.0f * kPi / 180.0f);
  AddDrumWalls(world, drum);
  AddDrumContents(world, params.count, *state);
  return state;
}

// size = side of the grid (100). A pure joint-solver test: no shape ever collides.
std::unique_ptr<SceneState> BuildJointGrid(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  const int n = params.size;
  const int anchorLo = n / 2 - 3, anchorHi = n / 2 + 3;  // 47..53 for n = 100: seven static anchors
  ShapeDef def{.density = 1.0f};
  def.filter = {.categoryBits = 2, .maskBits = ~2u};
  const Circle circle{{0.0f, 0.0f}, 0.4f};
  std::vector<BodyId> grid(static_cast<std::size_t>(n * n));
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < n; ++i) {
      const bool anchor = i == 0 && k >= anchorLo && k <= anchorHi;
      BodyId body = world.CreateBody({.type = anchor ? BodyType::Static : BodyType::Dynamic,
                                      .position = {static_cast<float>(k), -static_cast<float>(i)}});
      world.CreateShape(body, def, circle);
      if (!anchor) state->bodies.push_back(body);
      grid[static_cast<std::size_t>(k * n + i)] = body;
      RevoluteJointDef joint;
      joint.bodyB = body;
      if (i > 0) {
        joint.bodyA = grid[static_cast<std::size_t>(k * n + i - 1)];
        joint.localAnchorA = {0.0f, -0.5f};
        joint.localAnchorB = {0.0f, 0.5f};
        state->joints.push_back(world.CreateJoint(joint));
      }
      if (k > 0) {
        joint.bodyA = grid[static_cast<std::size_t>((k - 1) * n + i)];
        joint.localAnchorA = {0.5f, 0.0f};
        joint.localAnchorB = {-0.5f, 0.0f};
        state->joints.push_back(world.CreateJoint(joint));
      }
    }
  }
  return state;
}

// size = target columns (120), count = target rows (80). Runs with zero gravity.
std::unique_ptr<SceneState> BuildSmash(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  BodyId projectile = world.CreateBody(
      {.type = BodyType::Dynamic, .position = {-20.0f, 0.0f}, .linearVelocity = {40.0f, 0.0f}});
  state->projectiles.push_back(world.CreateShape(projectile, {.density = 8.0f, .friction = 0.6f},
                                                 MakeBox(4.0f, 4.0f).value));  // 512 kg
  state->bodies.push_back(projectile);

  const Polygon box = MakeBox(0.2f, 0.2f).value;
  const ShapeDef def{.density = 1.0f, .friction = 0.6f};
  const int halfRows = params.count / 2;
  for (int i = 0; i < params.size; ++i) {
    for (int j = 0; j < params.count; ++j) {
      // Created asleep: the wall costs nothing until the projectile wakes it (impact near step 69).
      BodyId body = world.CreateBody(
          {.type = BodyType::Dynamic,
           .position = {30.0f + 0.4f * static_cast<float>(i), 0.4f * static_cast<float>(j - halfRows)},
           .isAwake = false});
      world.CreateShape(body, def, box);
      state->bodies.push_back(body);
    }
  }
  return state;
}

// count = number of small bodies (6076).
std::unique_ptr<SceneState> BuildSpinner(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  // Box2D v3's spinner: a closed one-sided chain, clockwise, so its normals point inwards.
  BodyId ground = world.CreateBody({});
  constexpr int kWallPoints = 360;
  const Vec2 center{0.0f, 32.0f};
  const float radius = 40.0f;
  std::vector<Vec2> wall(kWallPoints);
  for (int i = 0; i < kWallPoints; ++i) {
    const float angle = -2.0f * kPi * static_cast<float>(i) / kWallPoints;  // clockwise from (40, 32)
    wall[i] = center + radius * Vec2{Cos(angle), Sin(angle)};
  }
  world.CreateChain(ground, {.points = wall, .isLoop = true, .friction = 0.1f});

  BodyId spinner =
      world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 12.0f}, .enableSleep = false});
  world.CreateShape(spinner, {.density = 1.0f, .friction = 0.0f}, MakeRoundedBox(0.4f, 20.0f, 0.2f).value);
  state->bodies.push_back(spinner);
  state->joints.push_back(AddMotorHinge(world, ground, spinner, {0.0f, 12.0f}, 5.0f, FLT_MAX));

  const Capsule capsule{{-0.25f, 0.0f}, {0.25f, 0.0f}, 0.25f};
  const Circle circle{{0.0f, 0.0f}, 0.35f};
  const Polygon box = MakeBox(0.35f, 0.35f).value;
  const ShapeDef def{.density = 0.25f, .friction = 0.1f, .restitution = 0.1f};
  float x = -23.0f, y = 2.0f;
  for (int i = 0; i < params.count; ++i) {
    BodyId body = AddDynamic(world, {x, y});
    switch (i % 3) {
      case 0:
        world.CreateShape(body, def, capsule);
        break;
      case 1:
        world.CreateShape(body, def, circle);
        break;
      default:
        world.CreateShape(body, def, box);
        break;
    }
    state->bodies.push_back(body);
    x += 0.5f;
    if (x >= 23.0f) {  // rows of 92
      x = -23.0f;
      y += 0.5f;
    }
  }
  // Framed on the ring the bodies are churned around in, not on the rows they start in.
  state->view = {{center.x - radius - 1.0f, center.y - radius - 1.0f},
                 {center.x + radius + 1.0f, center.y + radius + 1.0f}};
  return state;
}

}  // namespace mk::scenes
