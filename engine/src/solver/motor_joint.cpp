// Motor joint: drives anchor B towards anchor A moved by the linear offset (both prepared into rA0,
// rB0, so the error is the frame's d = pB - pA), and the angle theta = angleB - angleA - angularOffset
// (the offset is the joint's referenceAngle) towards 0. Each is a velocity row whose target removes
// correctionFactor of the error per sub-step, Cdot -> -(correctionFactor / h) C, and whose
// accumulated impulse is capped: the angular one within +-maxTorque h, the linear one (a 2-vector,
// the point constraint's block) in length within maxForce h, so the body is never pushed harder than
// the caps. A drive, not a correction: the same rows in every velocity pass (the relax pass keeps the
// drive's velocity, as a spring's), none in classic mode's position pass.
#include "solver/joint_solver.h"

namespace mk::joint {

void SolveMotorJoint(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass) {
  if (pass == JointPass::Position) return;
  if (c.angularMass > 0.0f) {
    Coefficients k{c.correction * CurrentAngle(c, a, b), 1.0f, 0.0f};
    SolveAngular(c, a, b, 0.0f, k, c.impulses.angular, -c.maxMotorImpulse, c.maxMotorImpulse);
  }
  Frame f = CurrentFrame(c, a, b);
  SolvePoint(c, a, b, f.rA, f.rB, c.correction * f.d, 1.0f, 0.0f, c.impulses.linear, c.maxImpulse);
}

}  // namespace mk::joint
