// SPDX-License-Identifier: MIT
// Feature scenes for the body API (issue 29): motion locks, a body switched between types at run time,
// and a kinematic platform driven along a path by SetTargetTransform. Built from the behaviour each
// feature promises, not from any other engine's samples.
#include "scene_builders.h"
#include "scenes.h"

#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

namespace mk::scenes {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

BodyId AddGroundBox(World& world) {
  const BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(ground, {}, MakeBox(40.0f, 1.0f).value);
  return ground;
}

BodyId AddDynamicBox(World& world, Vec2 position, float half, SceneState& state) {
  const BodyId box = world.CreateBody({.type = BodyType::Dynamic, .position = position});
  world.CreateShape(box, {.friction = 0.8f}, MakeBox(half, half).value);
  state.bodies.push_back(box);
  return box;
}

// Pushes the locked bodies about every second so the locks show: they move only along free axes.
class MotionLocksState final : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    if (step % 60 != 0) return;
    const float sign = (step / 60) % 2 == 0 ? 1.0f : -1.0f;
    for (BodyId body : locked) {
      const Pos c = world.GetWorldCenterOfMass(body);
      world.ApplyLinearImpulse(body, {3.0f * sign * world.GetMass(body), 4.0f * world.GetMass(body)},
                               c + Vec2{0.2f, 0.1f});
    }
  }
  std::vector<BodyId> locked;
};

// Switches the platform static -> kinematic -> dynamic -> static every two seconds, boxes on top.
class BodyTypeState final : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    if (step == 0 || step % 120 != 0) return;
    constexpr BodyType kCycle[] = {BodyType::Kinematic, BodyType::Dynamic, BodyType::Static};
    const BodyType type = kCycle[(step / 120 - 1) % 3];
    if (type == BodyType::Static) world.SetTransform(platform, {0.0f, 4.0f}, 0.0f);
    world.SetType(platform, type);
    if (type == BodyType::Kinematic) world.SetAngularVelocity(platform, 0.4f);
  }
  BodyId platform;
};

// Moves the platform along a figure of eight (10 s a lap), tilting with its heading, one target a step.
class KinematicState final : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    const float t = static_cast<float>(step + 1) / 60.0f;
    const float phase = 2.0f * kPi * t / 10.0f;
    const Vec2 p{3.0f * mk::Sin(phase), 4.0f + 0.8f * mk::Sin(2.0f * phase)};
    world.SetTargetTransform(platform, MakeWorldTransform(origin + p, 0.1f * mk::Cos(phase)), 1.0f / 60.0f);
  }
  BodyId platform;
};

}  // namespace

std::unique_ptr<SceneState> BuildMotionLocks(World& world, const SceneParams&) {
  auto state = std::make_unique<MotionLocksState>();
  AddGroundBox(world);
  // Left to right: x locked (slides up and down only), y locked (slides sideways), rotation locked,
  // both linear axes locked (spins in place, a pinwheel for the boxes falling on it).
  const MotionLocks kinds[] = {
      {.linearX = true}, {.linearY = true}, {.angularZ = true}, {.linearX = true, .linearY = true}};
  for (int i = 0; i < 4; ++i) {
    const BodyId body = world.CreateBody(
        {.type = BodyType::Dynamic, .position = {-9.0f + 6.0f * i, 3.0f}, .motionLocks = kinds[i]});
    world.CreateShape(body, {.friction = 0.8f}, MakeBox(1.5f, 0.3f).value);
    state->locked.push_back(body);
    state->bodies.push_back(body);
    for (int j = 0; j < 3; ++j)
      AddDynamicBox(world, {-9.5f + 6.0f * i + 0.5f * j, 5.0f + 1.2f * j}, 0.3f, *state);
  }
  return state;
}

std::unique_ptr<SceneState> BuildBodyType(World& world, const SceneParams&) {
  auto state = std::make_unique<BodyTypeState>();
  AddGroundBox(world);
  state->platform = world.CreateBody({.position = {0.0f, 4.0f}});
  world.CreateShape(state->platform, {.friction = 0.8f}, MakeBox(3.0f, 0.25f).value);
  state->bodies.push_back(state->platform);
  for (int i = 0; i < 5; ++i) AddDynamicBox(world, {-2.0f + 1.0f * i, 4.8f}, 0.4f, *state);
  return state;
}

std::unique_ptr<SceneState> BuildKinematic(World& world, const SceneParams&) {
  auto state = std::make_unique<KinematicState>();
  AddGroundBox(world);
  state->platform = world.CreateBody({.type = BodyType::Kinematic, .position = {0.0f, 4.0f}});
  world.CreateShape(state->platform, {.friction = 1.0f}, MakeBox(2.5f, 0.2f).value);
  world.SetName(state->platform, "platform");
  for (int i = 0; i < 3; ++i) AddDynamicBox(world, {-1.5f + 1.5f * i, 4.7f}, 0.45f, *state);
  // The whole figure of eight (x within 3 m, y 3.2..4.8 m) and the platform's 2.5 m half length.
  state->view = {{-6.5f, -0.5f}, {6.5f, 7.0f}};
  return state;
}

}  // namespace mk::scenes
