// SPDX-License-Identifier: MIT
// Joint scenes: soft welds, chains of prismatic joints. Rebuilt after the descriptions of Box2D v3's
// joint samples (ideas only, no code). World defaults (the "aligned" settings) unless the table row
// says otherwise; the ground's top is y = 0.
#include "scene_helpers.h"

#include <memory>

namespace mk::scenes {

using namespace helpers;

// A soft body: 7 capsules (radius 0.25) as the chords of a ring of radius 1.5 m centred 10 m up, each
// welded to the next at their shared ring point with an angular spring of 5 Hz, damping 0
// (WeldJointDef::angularHertz, angularDampingRatio; the linear part rigid), dropped on the ground.
// Bodies: the capsules anticlockwise from the one under angle 0; joints (all in pointJoints): capsule
// i to i + 1.
std::unique_ptr<SceneState> BuildSoftBody(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 20.0f);
  constexpr int kCount = 7;
  constexpr float kRadius = 1.5f;
  const Vec2 center{0.0f, 10.0f};
  const float step = 2.0f * kPi / F(kCount);
  const float halfChord = kRadius * Sin(0.5f * step);
  const Capsule capsule{{-halfChord, 0.0f}, {halfChord, 0.0f}, 0.25f};
  for (int i = 0; i < kCount; ++i) {
    // Chord from the ring point at angle i step to the one at (i + 1) step; its direction is the
    // tangent at the middle angle.
    const float mid = (F(i) + 0.5f) * step;
    const Vec2 position = center + kRadius * Cos(0.5f * step) * Vec2{Cos(mid), Sin(mid)};
    AddDynamic(world, *state, {.position = position, .angle = mid + 0.5f * kPi}, {}, capsule);
  }
  for (int i = 0; i < kCount; ++i) {
    WeldJointDef def;
    def.bodyA = state->bodies[static_cast<std::size_t>(i)];
    def.bodyB = state->bodies[static_cast<std::size_t>((i + 1) % kCount)];
    def.localAnchorA = {halfChord, 0.0f};
    def.localAnchorB = {-halfChord, 0.0f};
    def.referenceAngle = step;
    def.angularHertz = 5.0f;
    def.angularDampingRatio = 0.0f;
    AddPointJoint(world, *state, def);
  }
  state->view = {{-7.0f, -0.5f}, {7.0f, 12.5f}};  // the drop and the ground it lands on
  return state;
}

// count = boxes (10). A column of 0.5 m boxes hanging from a static anchor 12 m up, each on a
// prismatic joint to the one above along the vertical, limited to hang 0.6 to 1 m below it: they all
// drop 0.4 m onto their lower limits at once, the limits carrying the whole column. Bodies and joints:
// top down (not in pointJoints: a prismatic joint's anchors separate along its axis).
std::unique_ptr<SceneState> BuildMultiplePrismatic(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 10.0f);
  BodyId previous = world.CreateBody({.position = {0.0f, 12.0f}});
  world.CreateShape(previous, {}, MakeBox(0.5f, 0.25f).value);
  const Polygon box = MakeBox(0.25f, 0.25f).value;
  for (int i = 0; i < params.count; ++i) {
    BodyId body = AddDynamic(world, *state, {.position = {0.0f, 12.0f - 0.6f * F(i + 1)}}, {}, box);
    PrismaticJointDef def;
    def.bodyA = previous;
    def.bodyB = body;
    def.localAxisA = {0.0f, 1.0f};
    def.enableLimit = true;
    def.lowerTranslation = -1.0f;
    def.upperTranslation = -0.6f;
    state->joints.push_back(world.CreateJoint(def));
    previous = body;
  }
  return state;
}

}  // namespace mk::scenes
