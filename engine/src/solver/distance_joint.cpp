// SPDX-License-Identifier: MIT
// Distance joint: the anchor distance L = |d|, d = pB - pA, with unit u = d / L.
//   Cdot = u . (vB + wB x rB - vA - wA x rA)   (the rotation of u itself is orthogonal to d),
// Jacobian [-u, -(rA x u), u, rB x u], effective mass 1 / (mA + mB + iA (rA x u)^2 + iB (rB x u)^2).
// Modes: enableSpring false = a rigid rod (L - length = 0 under the joint softness); enableSpring
// true = a spring towards `length` with stiffness k = m_eff (2 pi f)^2 (hertz 0: no force, a rope
// when combined with the limit), its accumulated impulse within the spring force bounds times h;
// enableLimit keeps minLength <= L <= maxLength in either mode; enableMotor drives dL/dt towards
// motorSpeed with an impulse within +-maxMotorForce h (after the spring, before the limits, so the
// limits win).
#include "solver/joint_solver.h"

#include <algorithm>

namespace mk::joint {

void SolveDistance(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass,
                   const StepContext& context) {
  Frame f = CurrentFrame(c, a, b);
  float len = Length(f.d);
  // Coincident anchors have no direction; any axis is as good, x keeps the result deterministic.
  Vec2 u = len > 1e-6f ? f.d / len : Vec2{1.0f, 0.0f};
  float crA = Cross(f.rA, u), crB = Cross(f.rB, u);
  float k = c.invMassA + c.invMassB + c.invIA * crA * crA + c.invIB * crB * crB;
  float mass = k > 0.0f ? 1.0f / k : 0.0f;
  JointImpulses& imp = c.impulses;

  // One row along u: Cdot -> 0 under coefficients kc, accumulated clamped to [lo, hi]; sign -1 flips
  // the row (upper limit: C = maxLength - L). kick: an undamped spring row (a constant at every call,
  // so the inlined lambda keeps the kick term only where it is true).
  auto row = [&](Coefficients kc, float& accumulated, float lo, float hi, float sign, bool kick = false) {
    Vec2 dv = (b.v + Cross(b.w, f.rB)) - (a.v + Cross(a.w, f.rA));
    float cdot = sign * Dot(u, dv);
    float impulse =
        kick ? RowImpulse<true>(kc, mass, cdot, accumulated) : RowImpulse(kc, mass, cdot, accumulated);
    float updated = std::clamp(accumulated + impulse, lo, hi);
    Vec2 P = (sign * (updated - accumulated)) * u;
    accumulated = updated;
    ApplyWrench(c, a, b, f.rA, f.rB, P, 0.0f);
  };

  if (!c.enableSpring) {
    row(Equality(len - c.length, c.softness, pass, context), imp.axial, -1e30f, 1e30f, 1.0f);
  } else if (c.springSoftness.biasRate > 0.0f && pass != JointPass::Position) {
    const Coefficients spring = SpringRow(len - c.length, c, pass);
    SpringKicks(c) ? row(spring, imp.spring, c.lowerSpringImpulse, c.upperSpringImpulse, 1.0f, true)
                   : row(spring, imp.spring, c.lowerSpringImpulse, c.upperSpringImpulse, 1.0f);
  }
  if (c.enableMotor && pass != JointPass::Position) {
    row({-c.motorSpeed, 1.0f, 0.0f}, imp.motor, -c.maxMotorImpulse, c.maxMotorImpulse, 1.0f);
  }
  if (c.enableLimit) {
    row(Inequality(len - c.lower, c.softness, pass, context), imp.lower, 0.0f, 1e30f, 1.0f);
    row(Inequality(c.upper - len, c.softness, pass, context), imp.upper, 0.0f, 1e30f, -1.0f);
  }
}

}  // namespace mk::joint
