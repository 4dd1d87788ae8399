// SPDX-License-Identifier: MIT
// Prismatic and wheel joints: anchor B moves along an axis fixed in body A.
//
// With d = pB - pA and the world axis u (turning with A: du/dt = wA x u), the translation is
// C = u . d. Differentiating, with w x r = w r_perp and (w x u) . d = -w (d x u):
//   Cdot = u . (vB - vA) + wB (rB x u) - wA ((d + rA) x u),
// so the Jacobian is [-u, -a1, u, a2] with a1 = (d + rA) x u, a2 = rB x u, and the effective mass
// 1 / (mA + mB + iA a1^2 + iB a2^2). An impulse along u therefore acts on A at anchor B's position
// (arm d + rA). The perpendicular row is the same with n = perp(u): s1 = (d + rA) x n, s2 = rB x n.
//
// Axial rows (both joints): spring towards translation 0 (stiffness k = m_axial (2 pi f)^2 with
// m_axial the effective mass above), limits lower <= translation <= upper, and for the prismatic a
// motor on the translation rate. The prismatic also keeps the relative angle: its perpendicular and
// angular rows are solved together as one 2x2 block
//   K = [mA + mB + iA s1^2 + iB s2^2,  iA s1 + iB s2;  iA s1 + iB s2,  iA + iB],
// which converges much better than two scalar rows that share bodies. The wheel has no angular
// constraint; its motor drives wB - wA.
#include "solver/joint_solver.h"

#include <algorithm>

namespace mk::joint {

namespace {

struct AxialRow {
  Vec2 axis;
  float a1, a2;  // angular Jacobian entries of A (negated) and B
  float mass;    // effective mass (kg)
};

AxialRow MakeRow(const JointConstraint& c, const Frame& f, Vec2 axis) {
  float a1 = Cross(f.d + f.rA, axis), a2 = Cross(f.rB, axis);
  float k = c.invMassA + c.invMassB + c.invIA * a1 * a1 + c.invIB * a2 * a2;
  return {axis, a1, a2, k > 0.0f ? 1.0f / k : 0.0f};
}

float RowCdot(const AxialRow& row, const BodyState& a, const BodyState& b) {
  return Dot(row.axis, b.v - a.v) + row.a2 * b.w - row.a1 * a.w;
}

void ApplyRow(const JointConstraint& c, BodyState& a, BodyState& b, const AxialRow& row, float impulse) {
  a.v -= (c.invMassA * impulse) * row.axis;
  a.w -= c.invIA * impulse * row.a1;
  b.v += (c.invMassB * impulse) * row.axis;
  b.w += c.invIB * impulse * row.a2;
}

// One scalar row: Cdot -> target under coefficients k, accumulated impulse clamped to [lo, hi].
// kWithKick: an undamped spring row (RowImpulse).
template <bool kWithKick = false>
void SolveRow(const JointConstraint& c, BodyState& a, BodyState& b, const AxialRow& row, float target,
              Coefficients k, float& accumulated, float lo, float hi) {
  float cdot = RowCdot(row, a, b) - target;
  float impulse = RowImpulse<kWithKick>(k, row.mass, cdot, accumulated);
  float updated = std::clamp(accumulated + impulse, lo, hi);
  ApplyRow(c, a, b, row, updated - accumulated);
  accumulated = updated;
}

// Spring, (prismatic) motor and limits along the axis.
void SolveAxial(JointConstraint& c, BodyState& a, BodyState& b, const AxialRow& row, float translation,
                bool withMotor, JointPass pass, const StepContext& context) {
  JointImpulses& imp = c.impulses;
  const bool position = pass == JointPass::Position;  // springs and motors sit the position pass out
  if (c.enableSpring && !position) {
    const Coefficients spring = SpringRow(translation, c, pass);
    SpringKicks(c) ? SolveRow<true>(c, a, b, row, 0.0f, spring, imp.spring, -1e30f, 1e30f)
                   : SolveRow(c, a, b, row, 0.0f, spring, imp.spring, -1e30f, 1e30f);
  }
  if (withMotor && c.enableMotor && !position) {
    SolveRow(c, a, b, row, c.motorSpeed, {}, imp.motor, -c.maxMotorImpulse, c.maxMotorImpulse);
  }
  if (c.enableLimit) {
    SolveRow(c, a, b, row, 0.0f, Inequality(translation - c.lower, c.softness, pass, context), imp.lower,
             0.0f, 1e30f);
    // Upper: C = upper - translation >= 0 is the same row negated (see revolute_joint.cpp).
    float negated = -imp.upper;
    Coefficients k = Inequality(c.upper - translation, c.softness, pass, context);
    k.bias = -k.bias;
    SolveRow(c, a, b, row, 0.0f, k, negated, -1e30f, 0.0f);
    imp.upper = -negated;
  }
}

}  // namespace

void SolvePrismatic(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass,
                    const StepContext& context) {
  Frame f = CurrentFrame(c, a, b);
  Vec2 axis = Rotate(a.dq, c.axis0);
  SolveAxial(c, a, b, MakeRow(c, f, axis), Dot(axis, f.d), /*withMotor=*/true, pass, context);

  // Perpendicular + angle block.
  Vec2 n = LeftPerp(axis);
  float s1 = Cross(f.d + f.rA, n), s2 = Cross(f.rB, n);
  float k11 = c.invMassA + c.invMassB + c.invIA * s1 * s1 + c.invIB * s2 * s2;
  float k12 = c.invIA * s1 + c.invIB * s2;
  float k22 = c.invIA + c.invIB;
  if (k22 == 0.0f) k22 = 1.0f;  // neither body rotates: the angle row is inert, keep K invertible
  Vec2 cdot{Dot(n, b.v - a.v) + s2 * b.w - s1 * a.w, b.w - a.w};
  Vec2 C{Dot(n, f.d), CurrentAngle(c, a, b)};
  Coefficients k = Equality(1.0f, c.softness, pass, context);
  Vec2 accumulated{c.impulses.perpendicular, c.impulses.angular};
  Vec2 impulse = -k.massScale * Solve22(k11, k12, k22, cdot + k.bias * C) - k.impulseScale * accumulated;
  c.impulses.perpendicular += impulse.x;
  c.impulses.angular += impulse.y;
  Vec2 P = impulse.x * n;
  a.v -= c.invMassA * P;
  a.w -= c.invIA * (impulse.x * s1 + impulse.y);
  b.v += c.invMassB * P;
  b.w += c.invIB * (impulse.x * s2 + impulse.y);
}

void SolveWheel(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass, const StepContext& context) {
  // Motor first: it only turns the wheel relative to the chassis.
  if (c.enableMotor && c.angularMass > 0.0f && pass != JointPass::Position) {
    SolveAngular(c, a, b, c.motorSpeed, {}, c.impulses.motor, -c.maxMotorImpulse, c.maxMotorImpulse);
  }
  Frame f = CurrentFrame(c, a, b);
  Vec2 axis = Rotate(a.dq, c.axis0);
  SolveAxial(c, a, b, MakeRow(c, f, axis), Dot(axis, f.d), /*withMotor=*/false, pass, context);
  AxialRow perp = MakeRow(c, f, LeftPerp(axis));
  SolveRow(c, a, b, perp, 0.0f, Equality(Dot(perp.axis, f.d), c.softness, pass, context),
           c.impulses.perpendicular, -1e30f, 1e30f);
}

}  // namespace mk::joint
