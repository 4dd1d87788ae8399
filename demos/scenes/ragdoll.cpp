// SPDX-License-Identifier: MIT
// The rain ragdoll, built from one table of bones (values from Box2D v3's rain benchmark).
#include "ragdoll.h"

#include <cstdint>
#include <numbers>

namespace mk::scenes {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

struct Bone {
  float py;              // body origin height above the base (m)
  float c1, c2, radius;  // capsule along y (m)
  float linearDamping;   // 1/s
  int parent;            // index into the bone table, -1 for the hip
  float pivotY;          // joint anchor height above the base (m)
  float lower, upper;    // joint limits (rad)
  float frictionScale;   // joint friction torque = 0.05 N m x this
  float frameAngle;      // rotation of the parent's joint frame (rad): the spring's rest angle
  bool foot;
};

// Order = Ragdoll::bodies order. Both legs (and both arms) coincide in the rest pose; they never
// touch because all shapes of a ragdoll share a negative group.
constexpr Bone kBones[Ragdoll::kBodyCount] = {
    {0.95f, -0.02f, 0.02f, 0.095f, 0.0f, -1, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, false},                  // hip
    {1.2f, -0.135f, 0.135f, 0.09f, 0.0f, 0, 1.0f, -0.25f * kPi, 0.0f, 0.5f, 0.0f, false},           // torso
    {1.475f, -0.038f, 0.039f, 0.075f, 0.1f, 1, 1.4f, -0.3f * kPi, 0.1f * kPi, 0.25f, 0.0f, false},  // head
    {0.775f, -0.125f, 0.125f, 0.06f, 0.0f, 0, 0.9f, -0.05f * kPi, 0.4f * kPi, 1.0f, 0.0f,
     false},  // upper leg L
    {0.475f, -0.155f, 0.125f, 0.045f, 0.0f, 3, 0.625f, -0.5f * kPi, -0.02f * kPi, 0.5f, 0.0f,
     true},  // lower leg L
    {0.775f, -0.125f, 0.125f, 0.06f, 0.0f, 0, 0.9f, -0.05f * kPi, 0.4f * kPi, 1.0f, 0.0f,
     false},  // upper leg R
    {0.475f, -0.155f, 0.125f, 0.045f, 0.0f, 5, 0.625f, -0.5f * kPi, -0.02f * kPi, 0.5f, 0.0f,
     true},  // lower leg R
    {1.225f, -0.125f, 0.125f, 0.035f, 0.0f, 1, 1.35f, -0.1f * kPi, 0.8f * kPi, 0.5f, 0.0f,
     false},  // upper arm L
    {0.975f, -0.125f, 0.125f, 0.03f, 0.1f, 7, 1.1f, -0.2f * kPi, 0.3f * kPi, 0.1f, 0.25f * kPi,
     false},  // lower arm L
    {1.225f, -0.125f, 0.125f, 0.035f, 0.0f, 1, 1.35f, -0.1f * kPi, 0.8f * kPi, 0.5f, 0.0f,
     false},  // upper arm R
    {0.975f, -0.125f, 0.125f, 0.03f, 0.1f, 9, 1.1f, -0.2f * kPi, 0.3f * kPi, 0.1f, 0.25f * kPi,
     false},  // lower arm R
};

constexpr float kJointFrictionTorque = 0.05f;  // N m at friction scale 1
constexpr float kSpringHertz = 5.0f;
constexpr float kSpringDampingRatio = 0.5f;
constexpr std::uint32_t kRagdollCategory = 2;
constexpr std::uint32_t kGroundCategory = 1;

void AddFoot(World& world, BodyId body, int groupIndex) {
  const Vec2 points[4] = {{-0.03f, -0.185f}, {0.11f, -0.185f}, {0.11f, -0.16f}, {-0.03f, -0.14f}};
  ShapeDef def{.friction = 0.05f};
  def.filter = {.categoryBits = kRagdollCategory, .maskBits = kGroundCategory, .groupIndex = groupIndex};
  world.CreateShape(body, def, MakePolygon(points, 0.015f).value);
}

JointId AddJoint(World& world, const Bone& bone, BodyId parent, BodyId child, float parentY) {
  RevoluteJointDef def;
  def.bodyA = parent;
  def.bodyB = child;
  // Bodies are created unrotated, so a local anchor is the pivot minus the body origin.
  def.localAnchorA = {0.0f, bone.pivotY - parentY};
  def.localAnchorB = {0.0f, bone.pivotY - bone.py};
  // A joint frame on A rotated by frameAngle measures angleB - angleA - frameAngle: our reference angle.
  def.referenceAngle = bone.frameAngle;
  def.enableLimit = true;
  def.lowerAngle = bone.lower;
  def.upperAngle = bone.upper;
  def.enableMotor = true;  // speed 0: the motor torque cap acts as joint friction
  def.motorSpeed = 0.0f;
  def.maxMotorTorque = kJointFrictionTorque * bone.frictionScale;
  def.enableSpring = true;
  def.hertz = kSpringHertz;
  def.dampingRatio = kSpringDampingRatio;
  return world.CreateJoint(def);
}

}  // namespace

Ragdoll CreateRagdoll(World& world, Vec2 position, int groupIndex) {
  Ragdoll ragdoll;
  ShapeDef capsuleDef{.density = 1.0f, .friction = 0.2f};
  capsuleDef.filter = {.categoryBits = kRagdollCategory,
                       .maskBits = kGroundCategory | kRagdollCategory,
                       .groupIndex = groupIndex};
  int joint = 0;
  for (int i = 0; i < Ragdoll::kBodyCount; ++i) {
    const Bone& bone = kBones[i];
    BodyId body = world.CreateBody({.type = BodyType::Dynamic,
                                    .position = position + Vec2{0.0f, bone.py},
                                    .linearDamping = bone.linearDamping,
                                    .sleepThreshold = 0.1f});
    world.CreateShape(body, capsuleDef, Capsule{{0.0f, bone.c1}, {0.0f, bone.c2}, bone.radius});
    if (bone.foot) AddFoot(world, body, groupIndex);
    ragdoll.bodies[i] = body;
    if (bone.parent >= 0) {
      ragdoll.joints[joint++] =
          AddJoint(world, bone, ragdoll.bodies[bone.parent], body, kBones[bone.parent].py);
    }
  }
  return ragdoll;
}

void DestroyRagdoll(World& world, const Ragdoll& ragdoll) {
  for (JointId joint : ragdoll.joints) {
    if (world.IsValid(joint)) world.DestroyJoint(joint);
  }
  for (BodyId body : ragdoll.bodies) {
    if (world.IsValid(body)) world.DestroyBody(body);
  }
}

}  // namespace mk::scenes
