// SPDX-License-Identifier: MIT
// Minkowski — the "human" ragdoll of Box2D v3's rain benchmark: 11 capsule bodies joined by
// 10 revolute joints with limits, joint friction (a zero-speed motor) and a spring.
#pragma once

#include "minkowski/world.h"

#include <array>

namespace mk::scenes {

/// Bodies and joints of one ragdoll, in creation order: hip, torso, head, then left/right upper and
/// lower leg, then left/right upper and lower arm.
struct Ragdoll {
  static constexpr int kBodyCount = 11;
  static constexpr int kJointCount = 10;
  std::array<BodyId, kBodyCount> bodies{};
  std::array<JointId, kJointCount> joints{};
};

/// Creates a ragdoll (scale 1, unrotated) with its base at `position` (m): the hip sits 0.95 m above
/// it. `groupIndex` (< 0) is the collision group of all its shapes: shapes sharing it never collide.
Ragdoll CreateRagdoll(World& world, Vec2 position, int groupIndex);

/// Destroys the ragdoll's joints and bodies (stale ids are skipped).
void DestroyRagdoll(World& world, const Ragdoll& ragdoll);

}  // namespace mk::scenes
