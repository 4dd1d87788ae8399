// SPDX-License-Identifier: MIT
// Internal to mk_scenes: the small pieces the hard-case scenes (stacking_scenes.cpp,
// robustness_scenes.cpp, continuous_scenes.cpp, joint_scenes.cpp) build from.
#pragma once

#include "scene_builders.h"

#include <numbers>

namespace mk::scenes::helpers {

inline constexpr float kPi = std::numbers::pi_v<float>;

inline float F(int i) { return static_cast<float>(i); }

/// A static body at `center` holding one box (half extents in metres, angle in radians).
inline BodyId AddStaticBox(World& world, Vec2 center, float halfWidth, float halfHeight, float angle = 0.0f,
                           const ShapeDef& def = {}) {
  BodyId body = world.CreateBody({.position = center, .angle = angle});
  world.CreateShape(body, def, MakeBox(halfWidth, halfHeight).value);
  return body;
}

/// Static box ground 2 * halfWidth wide and 2 m thick whose top surface is y = 0.
inline BodyId AddGroundBox(World& world, float halfWidth, const ShapeDef& def = {}) {
  return AddStaticBox(world, {0.0f, -1.0f}, halfWidth, 1.0f, 0.0f, def);
}

/// Static two-sided segment ground along y = 0 from x = -halfWidth to +halfWidth.
inline BodyId AddGroundSegment(World& world, float halfWidth, const ShapeDef& def = {}) {
  BodyId body = world.CreateBody({});
  world.CreateShape(body, def, Segment{{-halfWidth, 0.0f}, {halfWidth, 0.0f}});
  return body;
}

/// A closed room of four static walls 1 m thick around the interior box `inner`; sets the scene's
/// figure bounds to that interior.
inline void AddRoom(World& world, SceneState& state, const AABB& inner, const ShapeDef& def = {}) {
  const Vec2 c = Center(inner);
  const float hw = 0.5f * (inner.upper.x - inner.lower.x), hh = 0.5f * (inner.upper.y - inner.lower.y);
  BodyId room = world.CreateBody({});
  world.CreateShape(room, def, MakeOffsetBox(hw + 1.0f, 0.5f, {c.x, inner.lower.y - 0.5f}, 0.0f).value);
  world.CreateShape(room, def, MakeOffsetBox(hw + 1.0f, 0.5f, {c.x, inner.upper.y + 0.5f}, 0.0f).value);
  world.CreateShape(room, def, MakeOffsetBox(0.5f, hh, {inner.lower.x - 0.5f, c.y}, 0.0f).value);
  world.CreateShape(room, def, MakeOffsetBox(0.5f, hh, {inner.upper.x + 0.5f, c.y}, 0.0f).value);
  state.bounds = inner;
}

/// A dynamic body with one shape, appended to state.bodies (and its shape to state.projectiles, drawn
/// in the sandbox's projectile colour, when `projectile`).
template <class Shape>
BodyId AddDynamic(World& world, SceneState& state, const BodyDef& def, const ShapeDef& shapeDef,
                  const Shape& shape, bool projectile = false) {
  BodyDef bodyDef = def;
  bodyDef.type = BodyType::Dynamic;
  BodyId body = world.CreateBody(bodyDef);
  ShapeId shapeId = world.CreateShape(body, shapeDef, shape);
  state.bodies.push_back(body);
  if (projectile) state.projectiles.push_back(shapeId);
  return body;
}

/// A joint whose anchors coincide (revolute or weld), appended to state.joints and recorded in
/// state.pointJoints for the figures' joint error.
template <class Def>
JointId AddPointJoint(World& world, SceneState& state, const Def& def) {
  JointId joint = world.CreateJoint(def);
  state.joints.push_back(joint);
  state.pointJoints.push_back({def.bodyA, def.bodyB, def.localAnchorA, def.localAnchorB});
  return joint;
}

/// Pyramid of square boxes of side 2 * half: row i (0-based) has base - i boxes whose centres are
/// `spacing` apart (0: 2 * half, touching), centred on x = centerX, the lowest row resting on y = bottom.
/// Rows are 2 * half - overlap apart (overlap 0: touching). Appends the bodies to state.bodies, row by
/// row from the bottom.
inline void AddBoxPyramid(World& world, SceneState& state, int base, float half, float centerX, float bottom,
                          const ShapeDef& def = {}, float spacing = 0.0f, float overlap = 0.0f) {
  const Polygon box = MakeBox(half, half).value;
  const float dx = spacing > 0.0f ? spacing : 2.0f * half;
  const float dy = 2.0f * half - overlap;
  for (int row = 0; row < base; ++row) {
    const int n = base - row;
    const float x0 = centerX - 0.5f * dx * F(n - 1);
    for (int i = 0; i < n; ++i)
      AddDynamic(world, state, {.position = {x0 + dx * F(i), bottom + half + dy * F(row)}}, def, box);
  }
}

}  // namespace mk::scenes::helpers
