// SPDX-License-Identifier: MIT
// Feature scenes of issue 29's joints, each built from the behaviour a game expects (after the
// samples Box2D v3 names: Motor Joint, Filter Joint, Breakable, Door, Top Down Friction).
#include "scene_builders.h"

#include <cmath>
#include <memory>

namespace mk::scenes {

namespace {

BodyId AddGroundBox(World& world) {
  BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(ground, {}, MakeBox(40.0f, 1.0f).value);  // top surface y = 0
  return ground;
}

BodyId AddBox(World& world, Vec2 position, float hx, float hy, BodyDef def = {}) {
  def.type = BodyType::Dynamic;
  def.position = position;
  BodyId body = world.CreateBody(def);
  world.CreateShape(body, {.friction = 0.6f}, MakeBox(hx, hy).value);
  return body;
}

// The motor joint's target moves on a figure of eight and turns: the body follows within its caps.
class MotorJointState : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    const float t = static_cast<float>(step) / 60.0f;
    SetMotorLinearOffset(world, joints[0], {6.0f * mk::Sin(t), 4.0f + 2.0f * mk::Sin(2.0f * t)});
    SetMotorAngularOffset(world, joints[0], 0.5f * t);
  }
};

}  // namespace

std::unique_ptr<SceneState> BuildMotorJointFeature(World& world, const SceneParams&) {
  auto state = std::make_unique<MotorJointState>();
  BodyId ground = AddGroundBox(world);
  BodyId platform = AddBox(world, {0.0f, 4.0f}, 2.0f, 0.25f);
  MotorJointDef def{{.bodyA = ground, .bodyB = platform}};
  def.linearOffset = {0.0f, 4.0f}, def.maxForce = 500.0f, def.maxTorque = 500.0f;
  state->joints.push_back(world.CreateJoint(def));
  state->bodies.push_back(platform);
  for (int i = 0; i < 4; ++i) state->bodies.push_back(AddBox(world, {-1.5f + i, 5.0f}, 0.25f, 0.25f));
  // The whole figure of eight (x within 6 m, y 2..6 m) and the platform's 2 m half length beyond it.
  state->view = {{-9.0f, -0.5f}, {9.0f, 8.0f}};
  return state;
}

std::unique_ptr<SceneState> BuildFilterJointFeature(World& world, const SceneParams&) {
  // Pairs of boxes dropped overlapping: the filtered pairs pass through each other, the others not.
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world);
  for (int i = 0; i < 4; ++i) {
    const float x = -6.0f + 4.0f * static_cast<float>(i);
    BodyId a = AddBox(world, {x, 1.0f}, 1.0f, 0.5f), b = AddBox(world, {x + 0.5f, 4.0f}, 0.5f, 1.0f);
    if (i % 2 == 0) state->joints.push_back(world.CreateJoint(FilterJointDef{{.bodyA = a, .bodyB = b}}));
    state->bodies.push_back(a);
    state->bodies.push_back(b);
  }
  return state;
}

std::unique_ptr<SceneState> BuildBreakable(World& world, const SceneParams&) {
  // A bridge of 10 planks welded end to end between two posts; the welds break (destroyOnBreak) past
  // 600 N, which the heavy box dropped on the middle exceeds.
  auto state = std::make_unique<SceneState>();
  BodyId ground = AddGroundBox(world);
  BodyId previous = ground;
  for (int i = 0; i <= 10; ++i) {
    const float x = -5.0f + static_cast<float>(i);
    WeldJointDef weld{{.bodyA = previous, .bodyB = ground, .forceThreshold = 600.0f, .destroyOnBreak = true}};
    if (i < 10) {
      BodyId plank = AddBox(world, {x + 0.5f, 4.0f}, 0.5f, 0.125f);
      weld.bodyB = plank;
      weld.localAnchorB = {-0.5f, 0.0f};
      state->bodies.push_back(plank);
    } else {
      weld.localAnchorB = {x, 5.0f};  // the ground body sits at y = -1
    }
    weld.localAnchorA = previous == ground ? Vec2{x, 5.0f} : Vec2{0.5f, 0.0f};
    state->joints.push_back(world.CreateJoint(weld));
    previous = weld.bodyB;
  }
  BodyId weight = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 9.0f}});
  world.CreateShape(weight, {.density = 20.0f}, MakeBox(0.75f, 0.75f).value);
  state->bodies.push_back(weight);
  return state;
}

std::unique_ptr<SceneState> BuildDoor(World& world, const SceneParams&) {
  // A door on a hinge with limits 0..110 degrees and joint friction (a motor at speed 0 with a small
  // torque): the ball knocks it open and it stays where friction stops it.
  auto state = std::make_unique<SceneState>();
  BodyId ground = AddGroundBox(world);
  BodyId door = AddBox(world, {0.0f, 2.1f}, 0.1f, 2.0f);
  RevoluteJointDef hinge{
      {.bodyA = ground, .bodyB = door, .localAnchorA = {0.0f, 5.1f}, .localAnchorB = {0.0f, 2.0f}}};
  hinge.enableLimit = true, hinge.lowerAngle = 0.0f, hinge.upperAngle = 1.9f;
  hinge.enableMotor = true, hinge.motorSpeed = 0.0f, hinge.maxMotorTorque = 20.0f;
  state->joints.push_back(world.CreateJoint(hinge));
  BodyId ball = world.CreateBody(
      {.type = BodyType::Dynamic, .position = {-6.0f, 0.5f}, .linearVelocity = {12.0f, 0.0f}});
  world.CreateShape(ball, {.density = 4.0f}, Circle{{0.0f, 0.0f}, 0.5f});
  state->bodies.push_back(door);
  state->bodies.push_back(ball);
  return state;
}

std::unique_ptr<SceneState> BuildTopDownFriction(World& world, const SceneParams&) {
  // No gravity, seen from above: each body has a motor joint to the ground with offsets 0 and zero
  // correction, so it only resists motion with a force (friction) and torque cap. Thrown boxes and
  // discs slide, collide and come to rest.
  auto state = std::make_unique<SceneState>();
  BodyId ground = world.CreateBody({});
  const Vec2 walls[] = {{-10.0f, -10.0f}, {10.0f, -10.0f}, {10.0f, 10.0f}, {-10.0f, 10.0f}};
  for (int i = 0; i < 4; ++i) world.CreateShape(ground, {}, Segment{walls[i], walls[(i + 1) % 4]});
  for (int i = 0; i < 16; ++i) {
    const float x = -6.0f + 4.0f * static_cast<float>(i % 4), y = -6.0f + 4.0f * static_cast<float>(i / 4);
    BodyDef def{.type = BodyType::Dynamic, .position = {x, y}};
    // The engine's Sin and Cos, not the C library's: they give the same bits on every platform, and
    // every scene's state hash is compared across platforms (MinGW's cosf rounded one value apart).
    def.linearVelocity = {mk::Sin(1.7f * static_cast<float>(i)) * 8.0f,
                          mk::Cos(2.3f * static_cast<float>(i)) * 8.0f};
    def.angularVelocity = static_cast<float>(i % 5) - 2.0f;
    BodyId body = world.CreateBody(def);
    if (i % 2 == 0) {
      world.CreateShape(body, {}, MakeBox(0.5f, 0.5f).value);
    } else {
      world.CreateShape(body, {}, Circle{{0.0f, 0.0f}, 0.5f});
    }
    MotorJointDef friction{{.bodyA = ground, .bodyB = body, .collideConnected = true}};
    friction.maxForce = 5.0f, friction.maxTorque = 2.0f, friction.correctionFactor = 0.0f;
    friction.linearOffset = {0.0f, 0.0f};
    state->joints.push_back(world.CreateJoint(friction));
    state->bodies.push_back(body);
  }
  return state;
}

}  // namespace mk::scenes
