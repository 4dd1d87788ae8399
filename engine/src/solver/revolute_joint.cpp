// Revolute joint: a point constraint pB = pA plus optional rows on the joint angle
// theta = angleB - angleA - referenceAngle:
//   spring  theta -> 0, soft by the joint's hertz / damping ratio (k = I_eff (2 pi f)^2 with
//           I_eff = 1 / (iA + iB), the effective rotational inertia of the pair);
//   motor   d(theta)/dt -> motorSpeed, accumulated impulse within +-maxMotorTorque h;
//   limits  theta - lower >= 0 and upper - theta >= 0, accumulated impulses >= 0.
// All angular rows share the Jacobian [0, -1, 0, 1] (Cdot = wB - wA) and effective mass 1 / (iA + iB).
// Order: spring, motor, limits, point. The point row goes last so that it, the most important, is
// the least disturbed at the end of each pass (sequential impulses favour the last row solved).
#include "solver/joint_solver.h"

namespace mk::joint {

void SolveRevolute(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass,
                   const StepContext& context) {
  JointImpulses& imp = c.impulses;
  const bool position = pass == JointPass::Position;  // springs and motors sit the position pass out
  if (c.angularMass > 0.0f) {  // some body can rotate; else the angular rows have nothing to act on
    float angle = (c.enableSpring || c.enableLimit) ? CurrentAngle(c, a, b) : 0.0f;
    if (c.enableSpring && !position) {
      SolveAngular(c, a, b, 0.0f, Spring(angle, c.springSoftness), imp.spring, -1e30f, 1e30f);
    }
    if (c.enableMotor && !position) {
      SolveAngular(c, a, b, c.motorSpeed, {}, imp.motor, -c.maxMotorImpulse, c.maxMotorImpulse);
    }
    if (c.enableLimit) {
      // Lower: C = theta - lower >= 0, Cdot = wB - wA.
      SolveAngular(c, a, b, 0.0f, Inequality(angle - c.lower, c.softness, pass, context), imp.lower, 0.0f,
                   1e30f);
      // Upper: C = upper - theta >= 0, Cdot = wA - wB: the same row with the sign flipped, expressed
      // to SolveAngular as a non-positive accumulated impulse and a negated bias.
      float negated = -imp.upper;
      Coefficients k = Inequality(c.upper - angle, c.softness, pass, context);
      k.bias = -k.bias;
      SolveAngular(c, a, b, 0.0f, k, negated, -1e30f, 0.0f);
      imp.upper = -negated;
    }
  }

  Frame f = CurrentFrame(c, a, b);
  Coefficients k = Equality(1.0f, c.softness, pass, context);
  SolvePoint(c, a, b, f.rA, f.rB, k.bias * f.d, k.massScale, k.impulseScale, imp.linear);
}

}  // namespace mk::joint
