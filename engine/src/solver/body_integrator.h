// SPDX-License-Identifier: MIT
// Internal: body integration (Box2D v3's solver.c: integrate velocities, integrate positions) and the
// speed caps on every sub-step's motion.
#pragma once

#include "solver/solver_types.h"

#include <algorithm>

namespace mk {

/// A dynamic body's values at the start of a step, as the world holds them.
struct BodyInput {
  float invMass = 0.0f;                               // 1/kg
  float invInertia = 0.0f;                            // about the centre of mass, 1/(kg m^2)
  Vec2 gravity{0.0f, 0.0f};                           // the world's gravity times the body's scale (m/s^2)
  Vec2 force{0.0f, 0.0f};                             // N, at the centre of mass
  float torque = 0.0f;                                // N m
  float linearDamping = 0.0f, angularDamping = 0.0f;  // 1/s
};

/// A dynamic body's per-step parameters (a kinematic body's are the defaults: no mass, no
/// acceleration). Inline: the world's gather calls it once per moving body.
inline BodyParams MakeBodyParams(const BodyInput& body, const StepContext& context) {
  // Each term is clamped to what one sub-step can use: any more would be cut by the speed limits
  // anyway, and it keeps huge forces on light bodies finite (no Inf - Inf = NaN).
  const auto clampComponents = [](Vec2 v, float limit) {
    return Vec2{std::clamp(v.x, -limit, limit), std::clamp(v.y, -limit, limit)};
  };
  const float maxLinear = context.settings.maxLinearSpeed * context.invH;
  const float maxAngular = kMaxAngularSpeed * context.invH;
  BodyParams p;
  p.invMass = body.invMass;
  p.invInertia = body.invInertia;
  p.linearAcceleration =
      clampComponents(body.gravity, maxLinear) + clampComponents(body.invMass * body.force, maxLinear);
  p.angularAcceleration = std::clamp(body.invInertia * body.torque, -maxAngular, maxAngular);
  // Implicit damping, stable for any coefficient: v / (1 + h c) per sub-step.
  p.linearDampingFactor = 1.0f / (1.0f + context.h * body.linearDamping);
  p.angularDampingFactor = 1.0f / (1.0f + context.h * body.angularDamping);
  return p;
}

/// v += h a, then damping and the speed clamps (ClampLinearSpeed, ClampAngularSpeed). The range form
/// does the bodies [begin, end) (solver indices), for the parallel stages.
void IntegrateVelocities(SolverArrays& solver, const StepContext& context);
void IntegrateVelocities(SolverArrays& solver, const StepContext& context, int begin, int end);

/// Caps each dynamic body's speed (maxLinearSpeed) and turn rate (kMaxRotation per sub-step, at most
/// kMaxAngularSpeed), then dp += h v, dq turned by h w. True when a cap bit some body (its
/// BodyParams::capped is set until DropCappedImpulses, solver.h, clears it): the impulses accumulated
/// by its constraints no longer match its velocity and must be dropped, or warm starting re-applies
/// what the cap took away.
bool IntegratePositions(SolverArrays& solver, const StepContext& context);
bool IntegratePositions(SolverArrays& solver, const StepContext& context, int begin, int end);

/// Motion locks, a constraint solved last (as Box2D v3's): each locked body's velocity along a held
/// axis is 0 and its motion of the step along it (dp, dq) stays exactly none. After every position
/// integration and at the end of the step; a loop over SolverArrays::locks only.
void ApplyMotionLocks(SolverArrays& solver);

/// The same caps on the velocities alone (the step's final velocities); same return and flags.
bool CapSpeeds(SolverArrays& solver, const StepContext& context);

}  // namespace mk
