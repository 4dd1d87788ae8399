// Internal: the sub-stepped soft contact solver (DESIGN.md section 7) and body integration.
#pragma once

#include "minkowski/world_types.h"
#include "solver/solver_types.h"

#include <cmath>

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

/// q turned by a small angle (rad): the first-order update, renormalised. Exact to O(angle^2), cheap,
/// and stays unit.
inline Rot TurnRotation(Rot q, float angle) {
  Rot r{q.c - angle * q.s, q.s + angle * q.c};
  float inv = 1.0f / std::sqrt(r.c * r.c + r.s * r.s);
  return {r.c * inv, r.s * inv};
}

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

/// Classic mode: one PGS velocity iteration (friction, then the normal rows; a two-point manifold as
/// one 2x2 block). No position feedback here: only a speculative point's gap may close.
void SolveContactsClassic(SolverArrays& solver, const StepContext& context);

/// Classic mode, after the positions are integrated: one non-linear Gauss-Seidel pass moving the
/// bodies (dp, dq) to remove classicBaumgarte of each overlap beyond the slop; velocities untouched.
void SolveContactPositionsClassic(SolverArrays& solver, const StepContext& context);

/// Once per step after the sub-steps: bounce where the approach was faster than the threshold.
void ApplyRestitution(SolverArrays& solver, const StepContext& context);

}  // namespace mk
