// Internal: the sub-stepped soft contact solver (DESIGN.md section 7) and body integration.
#pragma once

#include "minkowski/world_types.h"
#include "solver/solver_types.h"

namespace mk {

/// Constants of one step.
struct StepContext {
  float dt = 0.0f;     // step (s)
  float h = 0.0f;      // sub-step (s)
  float invH = 0.0f;   // 1/h
  SolverSettings settings{};
  Softness contactSoftness{};  // dynamic vs dynamic
  Softness staticSoftness{};   // against static bodies: stiffer
};

StepContext MakeStepContext(float dt, const SolverSettings& settings);

/// |v| <= maxSpeed (SolverSettings::maxLinearSpeed) and |w| <= kMaxAngularSpeed (world_types.h),
/// for any finite input. Applied after velocities are integrated, before positions are, and to the
/// final velocities of a step: the solve, relax and restitution passes can push a body past the
/// limits (only a degenerate constraint does, such as a joint holding a spinning body without
/// inertia), and the limits must bound both how far anything moves and what the next step starts from.
void ClampVelocity(Vec2& v, float& w, float maxSpeed);
/// The two halves of ClampVelocity, also used by the World API's setters.
Vec2 ClampLinearSpeed(Vec2 v, float maxSpeed);
float ClampAngularSpeed(float w);

/// v += h a, then damping and the speed clamp.
void IntegrateVelocities(SolverArrays& solver, const StepContext& context);

/// dp += h v, dq turned by h w.
void IntegratePositions(SolverArrays& solver, const StepContext& context);

/// Applies the impulses carried over from the last step (scaled into this step's constraint).
void WarmStartContacts(SolverArrays& solver);

/// One pass over all contacts. With `useBias`, soft constraints push overlap out; without, a rigid
/// pass removes the approach velocity (the relax pass). `applyFriction` adds the friction rows, which
/// carry no bias either way. The sub-step loop applies friction in both passes, as Box2D v3 does
/// (its contact solve runs the friction rows whatever useBias is); the bias only ever enters the
/// normal rows.
void SolveContacts(SolverArrays& solver, const StepContext& context, bool useBias, bool applyFriction);

/// Classic mode: one PGS iteration with Baumgarte velocity bias and friction.
void SolveContactsClassic(SolverArrays& solver, const StepContext& context);

/// Once per step after the sub-steps: bounce where the approach was faster than the threshold.
void ApplyRestitution(SolverArrays& solver, const StepContext& context);

}  // namespace mk
