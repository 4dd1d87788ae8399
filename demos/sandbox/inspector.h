// SPDX-License-Identifier: MIT
// The replay's inspector: one body of a world as the public World API reports it (state, touching
// contacts, joints), and the panel's lines for it, of fixed width (panel_text.h) so no figure pushes
// a line past the panel. No ImGui here: tests compare an inspection with the world it came from.
#pragma once

#include "minkowski/world.h"

#include <cstddef>
#include <string>
#include <vector>

namespace mk::sandbox {

/// One touching contact of the inspected body, seen from it.
struct InspectedContact {
  BodyId other{};              ///< the body on the other side
  int points = 0;              ///< manifold points
  float separation = 0.0f;     ///< m: the smallest of the points' (negative: overlap)
  Vec2 normal{0.0f, 0.0f};     ///< unit, from the inspected body towards the other
  float normalImpulse = 0.0f;  ///< N s: summed over the points, last step
};

/// One joint of the inspected body.
struct InspectedJoint {
  JointId joint{};
  JointType type = JointType::Revolute;
  BodyId other{};          ///< the joint's other body; null for a mouse joint (its other side is the world)
  Vec2 force{0.0f, 0.0f};  ///< N: reaction force on body B, last step
};

/// What the inspector shows of one body. `valid` is false for a null or stale id (a body destroyed
/// at the step shown), and then nothing else is filled in.
struct BodyInspection {
  bool valid = false;
  BodyId body{};
  std::string name;
  BodyType type = BodyType::Static;
  bool awake = false;
  Pos position{0.0f, 0.0f};   ///< m: the body origin (double in the large-world build)
  float angle = 0.0f;         ///< rad
  Vec2 velocity{0.0f, 0.0f};  ///< m/s: the centre of mass
  float angularVelocity = 0.0f;
  float mass = 0.0f;  ///< kg (0 for static and kinematic bodies)
  std::vector<InspectedContact> contacts;
  std::vector<InspectedJoint> joints;
};

/// Reads `body` from `world` (World::GetBodyContactData, World::GetJoints and the body getters).
BodyInspection InspectBody(const World& world, BodyId body);

/// The inspector's lines: the body and its state, then its contacts and joints, at most `listed` of
/// each ("and 12 more" after them). Every line fits kPanelColumns.
std::vector<std::string> InspectorLines(const BodyInspection& inspection, size_t listed);

/// "revolute", "prismatic", ... (lower case, at most 9 characters).
const char* JointTypeName(JointType type);

}  // namespace mk::sandbox
