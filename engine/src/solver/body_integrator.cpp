// SPDX-License-Identifier: MIT
// Body integration, Box2D v3's solver.c stages: integrate velocities (gravity, forces, damping),
// integrate positions (the motion of a sub-step accumulated into dp, dq), and the speed caps on both.
// They go over params, one per body: during the sub-steps states also holds the contact graph's
// static slot after the bodies (contact_graph.h), which is not a body.
#include "solver/body_integrator.h"

#include "core/parallel.h"
#include "solver/solver.h"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace mk {

Vec2 ClampLinearSpeed(Vec2 v, float maxSpeed) {
  const float speed2 = LengthSquared(v);
  if (!(speed2 > maxSpeed * maxSpeed)) [[likely]]
    return v;
  if (std::isfinite(speed2)) return (maxSpeed / std::sqrt(speed2)) * v;
  // Too large to square in float: into range component-wise first, keeping the direction roughly.
  v = {std::clamp(v.x, -maxSpeed, maxSpeed), std::clamp(v.y, -maxSpeed, maxSpeed)};
  const float length = Length(v);
  return length > 0.0f ? (maxSpeed / length) * v : Vec2{0.0f, 0.0f};
}

float ClampAngularSpeed(float w) { return std::clamp(w, -kMaxAngularSpeed, kMaxAngularSpeed); }

void IntegrateVelocities(SolverArrays& solver, const StepContext& context) {
  IntegrateVelocities(solver, context, 0, static_cast<int>(solver.params.size()));
}

void IntegrateVelocities(SolverArrays& solver, const StepContext& context, int begin, int end) {
  const float h = context.h;
  const float maxSpeed = context.settings.maxLinearSpeed;
  for (size_t i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
    BodyState& s = solver.states[i];
    const BodyParams& p = solver.params[i];
    if (p.invMass == 0.0f && p.invInertia == 0.0f) continue;  // kinematic: keeps its velocity
    s.v = ClampLinearSpeed(p.linearDampingFactor * (s.v + h * p.linearAcceleration), maxSpeed);
    s.w = ClampAngularSpeed(p.angularDampingFactor * (s.w + h * p.angularAcceleration));
  }
}

namespace {

// The turn-rate cap of a sub-step: half a turn (kMaxRotation), and never above kMaxAngularSpeed.
float MaxAngularSpeed(const StepContext& context) {
  return std::min(kMaxRotation * context.invH, kMaxAngularSpeed);
}

// Clamps a dynamic body's velocity to the speed caps; true (and p.capped set) when a cap bit.
// Kinematic bodies move as they are told.
inline bool CapSpeed(BodyState& s, BodyParams& p, float maxSpeed, float maxAngularSpeed) {
  if (p.invMass == 0.0f && p.invInertia == 0.0f) return false;
  bool capped = false;
  if (LengthSquared(s.v) > maxSpeed * maxSpeed) {  // also a speed too large to square (Inf)
    s.v = ClampLinearSpeed(s.v, maxSpeed);
    capped = true;
  }
  if (std::fabs(s.w) > maxAngularSpeed) {
    s.w = std::copysign(maxAngularSpeed, s.w);
    capped = true;
  }
  if (capped) p.capped = true;  // cleared by whoever handles it (DropCappedImpulses)
  return capped;
}

}  // namespace

bool IntegratePositions(SolverArrays& solver, const StepContext& context) {
  return IntegratePositions(solver, context, 0, static_cast<int>(solver.params.size()));
}

bool IntegratePositions(SolverArrays& solver, const StepContext& context, int begin, int end) {
  const float h = context.h;
  const float maxSpeed = context.settings.maxLinearSpeed;
  const float maxAngularSpeed = MaxAngularSpeed(context);
  bool anyCapped = false;
  for (size_t i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
    BodyState& s = solver.states[i];
    // The constraints may have asked for more than the caps: the motion integrated is capped.
    anyCapped = CapSpeed(s, solver.params[i], maxSpeed, maxAngularSpeed) || anyCapped;
    // Semi-implicit Euler (x += h v_new) overshoots a constant acceleration a by h^2 a / 2 per
    // sub-step: 2 cm after 1 s of free fall at 240 Hz. A body with no constraint this step is
    // ballistic, and taking its acceleration at the sub-step average, x += h (v_new - h a / 2), makes
    // its path the exact parabola (trajectory previews in games match). Constrained bodies keep
    // x += h v_new: the soft step's contact and joint impulses act through v_new, and the correction
    // there would lift resting bodies by h^2 g / 2 every sub-step.
    Vec2 correction =
        solver.params[i].ballistic ? 0.5f * h * solver.params[i].linearAcceleration : Vec2{0.0f, 0.0f};
    s.dp += h * (s.v - correction);
    s.dq = TurnRotation(s.dq, h * s.w);
  }
  return anyCapped;
}

void ApplyMotionLocks(SolverArrays& solver) {
  for (const BodyLock& lock : solver.locks) {
    BodyState& s = solver.states[lock.index];
    if (lock.axes & 1) s.v.x = s.dp.x = 0.0f;
    if (lock.axes & 2) s.v.y = s.dp.y = 0.0f;
    if (lock.axes & 4) {
      s.w = 0.0f;
      s.dq = Rot{};
    }
  }
}

bool CapSpeeds(SolverArrays& solver, const StepContext& context) {
  const float maxSpeed = context.settings.maxLinearSpeed;
  const float maxAngularSpeed = MaxAngularSpeed(context);
  // Each body its own state and cap bit, "some body capped" an OR: the same result on any workers.
  std::atomic<bool> anyCapped{false};
  ParallelFor(context.tasks, static_cast<int>(solver.params.size()), kMinBodiesPerBlock,
              [&](int begin, int end) {
                bool capped = false;
                for (size_t i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i)
                  capped = CapSpeed(solver.states[i], solver.params[i], maxSpeed, maxAngularSpeed) || capped;
                if (capped) anyCapped.store(true, std::memory_order_relaxed);
              });
  return anyCapped.load(std::memory_order_relaxed);
}

}  // namespace mk
