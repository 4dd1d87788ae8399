// SPDX-License-Identifier: MIT
// Motor joint: drives anchor B towards anchor A moved by the linear offset (both prepared into rA0,
// rB0, so the error is the frame's d = pB - pA), and the angle theta = angleB - angleA - angularOffset
// (the offset is the joint's referenceAngle) towards 0. Each is a velocity row whose target removes
// correctionFactor of the error per sub-step, Cdot -> -(correctionFactor / h) C, and whose
// accumulated impulse is capped: the angular one within +-maxTorque h, the linear one (a 2-vector,
// the point constraint's block) in length within maxForce h, so the body is never pushed harder than
// the caps. The requested speed is also capped at sqrt(2 a |C|), a = the cap over the pair's
// effective mass (translation: maxForce (1/mA + 1/mB); rotation: maxTorque (1/IA + 1/IB)): the speed
// from which the cap can still stop the body at the target. Without it a far target and a small cap
// (a body driven at full force until it reaches the target at speed) give an endless bang-bang
// oscillation through the target; with it the body brakes in time and arrives at rest, in the
// shortest rest-to-rest time 2 sqrt(d / a) (this differs from Box2D v3, whose drive overshoots).
// A drive, not a correction: the same rows in every velocity pass (the relax pass keeps the
// drive's velocity, as a spring's), none in classic mode's position pass.
#include "solver/joint_solver.h"

#include <algorithm>
#include <cmath>

namespace mk::joint {

namespace {

// The speed that removes `error` (m or rad) at the correction rate, capped by the braking speed
// sqrt(2 acceleration |error|); its sign is the error's.
float DriveSpeed(float correction, float error, float acceleration) {
  const float magnitude =
      std::min(correction * std::fabs(error), std::sqrt(2.0f * acceleration * std::fabs(error)));
  return std::copysign(magnitude, error);
}

}  // namespace

void SolveMotorJoint(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass,
                     const StepContext& context) {
  if (pass == JointPass::Position) return;
  const float invH = context.invH;  // impulses per sub-step over h: forces
  if (c.angularMass > 0.0f) {
    const float alpha = c.maxMotorImpulse * invH * (c.invIA + c.invIB);
    Coefficients k{DriveSpeed(c.correction, CurrentAngle(c, a, b), alpha), 1.0f, 0.0f};
    SolveAngular(c, a, b, 0.0f, k, c.impulses.angular, -c.maxMotorImpulse, c.maxMotorImpulse);
  }
  Frame f = CurrentFrame(c, a, b);
  const float error = Length(f.d);
  Vec2 bias{0.0f, 0.0f};
  if (error > 0.0f) {
    const float accel = c.maxImpulse * invH * (c.invMassA + c.invMassB);
    bias = (DriveSpeed(c.correction, error, accel) / error) * f.d;
  }
  SolvePoint(c, a, b, f.rA, f.rB, bias, 1.0f, 0.0f, c.impulses.linear, c.maxImpulse);
}

}  // namespace mk::joint
