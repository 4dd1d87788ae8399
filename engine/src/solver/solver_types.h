// Internal: per-step solver data. Rebuilt every step into reused arrays (no allocation after warm-up).
// Bodies that move this step get a dense "solver index"; static bodies have none and read as a
// zero-velocity, infinite-mass body.
#pragma once

#include "minkowski/math.h"

#include <vector>

namespace mk {

/// Soft constraint coefficients for a spring of `hertz` and damping ratio `zeta` over a sub-step h.
/// From the implicit-Euler update of a mass-spring-damper (k = m w^2, c = 2 m zeta w; Catto, "Solver2D",
/// 2024): the constraint impulse becomes  -m_eff massScale (Cdot + biasRate C) - impulseScale * lambda.
struct Softness {
  float biasRate = 0.0f;      // 1/s
  float massScale = 1.0f;
  float impulseScale = 0.0f;
};

Softness MakeSoftness(float hertz, float zeta, float h);

/// Velocity and position change of a moving body during one step. dp and dq accumulate over the
/// sub-steps and are applied to the transform at the end of the step.
struct BodyState {
  Vec2 v{0.0f, 0.0f};
  float w = 0.0f;
  Vec2 dp{0.0f, 0.0f};  // change of the centre of mass this step (m)
  Rot dq{};             // rotation this step
};

/// Constant per step: mass properties and external acceleration.
struct BodyParams {
  float invMass = 0.0f;
  float invInertia = 0.0f;
  Vec2 linearAcceleration{0.0f, 0.0f};  // gravity * scale + force / m  (m/s^2)
  float angularAcceleration = 0.0f;     // torque / I (rad/s^2)
  float linearDampingFactor = 1.0f;     // per sub-step: 1 / (1 + h c)
  float angularDampingFactor = 1.0f;
  bool ballistic = true;  // no contact or joint constraint this step: integrate gravity exactly
  bool capped = false;    // a speed cap bit (IntegratePositions, CapSpeeds); DropCappedImpulses clears it
};

struct ContactConstraintPoint {
  Vec2 rA{0.0f, 0.0f}, rB{0.0f, 0.0f};  // anchors from the centres of mass, world orientation (m)
  // Lever arms about the normal and the tangent, r x n and r x t (m), fixed for the step like r: the
  // angular parts of every velocity and impulse along those axes are these times w or the impulse.
  float rnA = 0.0f, rnB = 0.0f, rtA = 0.0f, rtB = 0.0f;
  float adjustedSeparation = 0.0f;      // separation minus dot(rB - rA, n) at the start of the step
  float normalMass = 0.0f, tangentMass = 0.0f;
  float normalImpulse = 0.0f, tangentImpulse = 0.0f;  // accumulated this step (N s)
  float maxNormalImpulse = 0.0f;
  float relativeVelocity = 0.0f;  // normal approach speed at the start of the step (m/s), for restitution
};

struct ContactConstraint {
  ContactConstraintPoint points[2];
  Vec2 normal{0.0f, 0.0f};
  float invMassA = 0.0f, invIA = 0.0f, invMassB = 0.0f, invIB = 0.0f;
  float friction = 0.0f, restitution = 0.0f;
  Softness softness{};
  int indexA = -1, indexB = -1;  // solver indices, -1 = static
  int contact = -1;              // contact slot, to store impulses back
  int pointCount = 0;
};

struct SolverArrays {
  std::vector<BodyState> states;
  std::vector<BodyParams> params;
  std::vector<int> bodies;  // solver index -> body slot
  std::vector<ContactConstraint> contacts;
};

}  // namespace mk
