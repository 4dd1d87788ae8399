// Internal: the sub-stepped soft contact solver (DESIGN.md section 7) and body integration.
#pragma once

#include "minkowski/world_types.h"
#include "solver/solver_types.h"

#include <cmath>
#include <numbers>

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

/// The stiffest position spring the sub-step resolves (Hz): a quarter of the sub-step rate. Contacts
/// and joint constraints are capped to it (not a joint's own spring, which is physical, nor the
/// mouse's pull). Why: the implicit-Euler spring of MakeSoftness is a spring only while a period spans
/// several sub-steps; stiffer, it tends to a rigid row that removes the whole error in one sub-step
/// (bias C / h), which pushes bodies apart faster than they met.
/// Four sub-steps per period (h omega = pi / 2): Box2D v3.0 caps its contact hertz the same way (its
/// joints at an eighth).
inline float MaxSoftHertz(const StepContext& context) { return 0.25f * context.invH; }

/// |v| <= maxSpeed (SolverSettings::maxLinearSpeed) for any finite v, even one too large to square
/// in float; the World API's setters use it too.
Vec2 ClampLinearSpeed(Vec2 v, float maxSpeed);
/// |w| <= kMaxAngularSpeed (world_types.h).
float ClampAngularSpeed(float w);

/// q turned by a small angle (rad): the first-order update, renormalised. Exact to O(angle^2), cheap,
/// and stays unit.
inline Rot TurnRotation(Rot q, float angle) {
  Rot r{q.c - angle * q.s, q.s + angle * q.c};
  float inv = 1.0f / std::sqrt(r.c * r.c + r.s * r.s);
  return {r.c * inv, r.s * inv};
}

/// The most a body turns in one sub-step (rad): half a turn, 754 rad/s at 60 Hz and 4 sub-steps.
/// Why a cap: a sub-step is linear in the rotation (anchors turned by dq, a joint's levers taken at
/// the sub-step's start), so a body that turns by radians within one (a small radius of gyration
/// against a long lever: a correction dv along a constraint spins it at up to dv / (2 r_gyration))
/// leaves its constraints' levers unrelated to the ones their impulses were solved with, and warm
/// starting re-applies those impulses through the new levers: energy grows geometrically (the fuzzed
/// wheel joint: 0.03 kg, r_gyration 3.5 cm, lever 16 m, NaN in 3 steps). Box2D v3 caps the turn at a
/// quarter of this per step (B2_MAX_ROTATION, "to prevent numerical problems"), 16 times lower at 4
/// sub-steps; half a turn per sub-step bounds the growth (with DropCappedImpulses: 4000 random joints
/// on bodies down to 3e-5 kg, none non-finite) and no scene comes near it (the spinner's debris peaks
/// at 408 rad/s, a motor test at 204), so every state hash stays the same.
constexpr float kMaxRotation = std::numbers::pi_v<float>;

/// v += h a, then damping and the speed clamps (ClampLinearSpeed, ClampAngularSpeed).
void IntegrateVelocities(SolverArrays& solver, const StepContext& context);

/// Caps each dynamic body's speed (maxLinearSpeed) and turn rate (kMaxRotation per sub-step, at most
/// kMaxAngularSpeed), then dp += h v, dq turned by h w. True when a cap bit some body (its BodyParams::capped is set until
/// DropCappedImpulses in world/solve.cpp clears it): the impulses accumulated by its constraints no
/// longer match its velocity and must be dropped, or warm starting re-applies what the cap took away.
bool IntegratePositions(SolverArrays& solver, const StepContext& context);

/// The same caps on the velocities alone (the step's final velocities); same return and flags.
bool CapSpeeds(SolverArrays& solver, const StepContext& context);

/// Applies the impulses carried over from the last step (scaled into this step's constraint).
void WarmStartContacts(SolverArrays& solver);

/// One pass over all contacts. With `useBias`, soft constraints push overlap out; without, a rigid
/// pass removes the approach velocity (the relax pass). Both passes solve the friction rows first,
/// which carry no bias either way, as Box2D v3 does; the bias only ever enters the normal rows.
void SolveContacts(SolverArrays& solver, const StepContext& context, bool useBias);

/// Classic mode: one PGS velocity iteration (friction, then the normal rows; a two-point manifold as
/// one 2x2 block). No position feedback here: only a speculative point's gap may close.
void SolveContactsClassic(SolverArrays& solver, const StepContext& context);

/// Classic mode, after the positions are integrated: one non-linear Gauss-Seidel pass moving the
/// bodies (dp, dq) to remove classicBaumgarte of each overlap beyond the slop; velocities untouched.
void SolveContactPositionsClassic(SolverArrays& solver, const StepContext& context);

/// Once per step after the sub-steps: bounce where the approach was faster than the threshold.
void ApplyRestitution(SolverArrays& solver, const StepContext& context);

}  // namespace mk
