// SPDX-License-Identifier: MIT
// Internal: the joint solver, every stage of it: prepare from the world's JointInputs, warm start,
// solve, relax, store. Joints are soft constraints solved in the same sub-step loop as contacts
// (RunSubSteps, solver.h; Catto, "Solver2D" 2024 and "Soft Step" GDC talks: the idea source; the
// derivations are ours and are written next to each joint):
//   per sub-step: warm start (apply last impulses), solve with soft bias (Biased pass), integrate
//   positions, solve rigid without bias (Relax pass).
// Classic mode runs one step of PGS instead: rigid velocity iterations (Classic pass), then, after the
// positions are integrated, position passes (Position pass, see SolveJointPositions).
//
// Position error during a step is tracked without recomputing transforms, exactly like contacts:
// anchors rA0, rB0 (from the centres of mass, world orientation) and the centre offset cB - cA are
// taken at the start of the step, and a body's accumulated motion (dp, dq) moves them:
//   rA = dqA rA0,  d = pB - pA = (cB - cA) + (dpB - dpA) + rB - rA.
// Joint angles likewise: angle = angle at the start of the step + angle(dqA^-1 dqB).
//
// Accumulated impulses are per sub-step (each sub-step re-applies them in its warm start), so the
// reaction force is impulse / h.
#pragma once

#include "minkowski/joint_types.h"
#include "solver/solver_types.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <span>

namespace mk {

/// Accumulated impulses of one joint (N s per sub-step; angular ones N m s). Which fields a joint
/// uses depends on its type; the rest stay zero.
struct JointImpulses {
  Vec2 linear{0.0f, 0.0f};     // point constraint: revolute, weld, mouse (world frame)
  float angular = 0.0f;        // weld angle, prismatic angle
  float perpendicular = 0.0f;  // prismatic, wheel: keeps anchor B on the axis
  float axial = 0.0f;          // rigid distance
  float spring = 0.0f;
  float motor = 0.0f;
  float lower = 0.0f;  // >= 0
  float upper = 0.0f;  // >= 0
};

/// A joint as the solver reads it each step: its definition (anchors and axis in its bodies' frames,
/// limits, motor, springs) and, carried between steps, the impulses and the reaction of the last step,
/// which StoreJointImpulses writes. Which fields a type uses: see the JointDefs (joint_types.h). The
/// world's Joint (world/world_state.h) extends it with the joint's edges and user data, so
/// PrepareJoints reads a joint in place (JointInput::joint), not from a copy.
struct JointData {
  Vec2 localAnchorA{0.0f, 0.0f}, localAnchorB{0.0f, 0.0f};  // from the body origins (m)
  Vec2 localAxisA{1.0f, 0.0f};                              // prismatic, wheel: unit, bodyA frame
  float referenceAngle = 0.0f;
  float constraintHertz = -1.0f, constraintDampingRatio = -1.0f;  // negative: world setting
  float lower = 0.0f, upper = 0.0f;                               // angle (rad) or translation / length (m)
  float length = 1.0f;                                            // distance: rest length
  float motorSpeed = 0.0f, maxMotor = 0.0f;                       // maxMotor: N m or N
  float hertz = 0.0f, dampingRatio = 0.0f;                        // spring (weld: linear; mouse: the pull)
  float angularHertz = 0.0f, angularDampingRatio = 0.0f;          // weld
  float maxForce = 0.0f;                                          // mouse, motor joint (N)
  Vec2 linearOffset{0.0f, 0.0f};                                  // motor joint: target in A's frame (m)
  float correctionFactor = 0.0f;                                  // motor joint
  float lowerSpringForce = 0.0f, upperSpringForce = 0.0f;         // distance spring bounds (N)
  JointImpulses impulses{};        // per sub-step impulses of the last step (warm start)
  Vec2 reactionForce{0.0f, 0.0f};  // on bodyB during the last step (N)
  float reactionTorque = 0.0f;     // N m
  float motorForce = 0.0f;         // the motor's force (N) or torque (N m) in the last step
  JointType type = JointType::Revolute;
  bool enableLimit = false, enableMotor = false, enableSpring = false;
};

/// One body of a joint as the world holds it at the start of the step. A mouse joint's body A is its
/// target: centre = the target, identity rotation, index -1.
struct JointBody {
  Rot q{};
  Pos center{0.0f, 0.0f};        // centre of mass, world (m)
  Vec2 localCenter{0.0f, 0.0f};  // centre of mass from the body origin, body frame (m)
  int index = -1;                // solver index; -1: not moving this step (static or asleep)
};

/// A joint with at least one body moving this step, gathered by the world.
struct JointInput {
  JointData* joint = nullptr;  // owned by the caller; StoreJointImpulses writes impulses and reaction
  JointBody bodyA, bodyB;
};

/// Per-step data of one joint, prepared from its JointInput into a reused array.
struct JointConstraint {
  JointImpulses impulses{};
  Vec2 rA0{0.0f, 0.0f}, rB0{0.0f, 0.0f};  // anchors from the centres of mass, world orientation (m)
  Vec2 deltaCenter{0.0f, 0.0f};           // cB - cA at the start of the step (mouse: cB - target)
  Vec2 axis0{1.0f, 0.0f};                 // prismatic, wheel: unit axis in world at the start of the step
  float deltaAngle = 0.0f;                // angleB - angleA - referenceAngle at the start of the step
  float invMassA = 0.0f, invIA = 0.0f, invMassB = 0.0f, invIB = 0.0f;
  float angularMass = 0.0f;    // 1 / (iA + iB), 0 when neither body can rotate
  Softness softness{};         // the positional constraint (joint or world hertz)
  Softness springSoftness{};   // spring (weld: linear spring; mouse: the pull)
  Softness angularSoftness{};  // weld: angular spring
  // Undamped distance, revolute, prismatic and wheel springs: w^2 h / 2 (1/s) when the spring runs as
  // velocity Verlet (UndampedSpring), 0 when it runs soft (SpringRow picks).
  float springKickRate = 0.0f;
  float lower = 0.0f, upper = 0.0f;  // angle (rad) or translation / length (m)
  float length = 0.0f;               // distance: rest length
  float motorSpeed = 0.0f;
  float maxMotorImpulse = 0.0f;                                // max motor torque / force times h
  float maxImpulse = 0.0f;                                     // mouse, motor joint: max force times h
  float lowerSpringImpulse = 0.0f, upperSpringImpulse = 0.0f;  // distance: spring force bounds times h
  float correction = 0.0f;                                     // motor joint: correctionFactor / h (1/s)
  int indexA = -1, indexB = -1;  // solver indices, -1 = static (or the mouse's world target)
  int input = -1;                // its JointInput (PrepareJoints), where StoreJointImpulses writes
  JointType type = JointType::Revolute;
  bool enableLimit = false, enableMotor = false, enableSpring = false;
  bool linearSpring = false, angularSpring = false;  // weld: soft by its own hertz
};

/// Which solve: soft with bias (sub-step), rigid without bias (relax), classic mode's rigid velocity
/// iterations, or classic mode's position pass (SolveJointPositions: the bodies at rest, only the
/// position rows, each removing classicBaumgarte of its error; springs and motors sit it out).
enum class JointPass : std::uint8_t { Biased, Relax, Classic, Position };

/// Into [-pi, pi] for an angle within one turn of that range (a difference of two wrapped angles).
inline float WrapAngle(float angle) {
  constexpr float pi = std::numbers::pi_v<float>;
  if (angle > pi) angle -= 2.0f * pi;
  if (angle < -pi) angle += 2.0f * pi;
  return angle;
}

/// Prepares every input's joint and marks its bodies non-ballistic. With colorHinges (ignored in
/// classic mode, which solves every joint one by one) a plain hinge that finds a colour goes straight
/// into a lane of solver.hinges (hinge_graph.h) and gets no JointConstraint; every other joint gets
/// one in solver.joints, in input order, listed in solver.hinges.scalar. After the bodies were
/// gathered (their BodyParams give the masses). The colouring runs on the calling thread, in input
/// order; filling the lanes and constraints is shared by context.tasks' workers when it has them (the
/// same results on any number). With workers, the last colouring is kept while every joint's bodies
/// and kind (SolverArrays::jointKeysVersion), the body count and the lane width stay the same
/// (SolverArrays::jointsColoredFrom).
void PrepareJoints(std::span<const JointInput> inputs, SolverArrays& solver, const StepContext& context,
                   bool colorHinges = true);

/// Applies the impulses carried over from the last sub-step / step.
void WarmStartJoints(SolverArrays& solver);

/// One pass over all joints.
void SolveJoints(SolverArrays& solver, const StepContext& context, JointPass pass);
/// WarmStartJoints and SolveJoints over the joints `order` lists, in that order (soft mode: those
/// the hinge graph leaves to the scalar path, hinge_graph.h).
void WarmStartJoints(SolverArrays& solver, std::span<const int> order);
void SolveJoints(SolverArrays& solver, const StepContext& context, JointPass pass,
                 std::span<const int> order);

/// Classic mode, after the positions are integrated: one non-linear Gauss-Seidel pass over the joints
/// (Box2D 2.x's SolvePositionConstraints, written through the velocity rows): each joint in turn sees
/// its bodies at rest, solves its position rows with the bias classicBaumgarte C / dt and impulses from
/// zero, and the resulting velocities times dt move the bodies (dp, dq), which the next joint then
/// sees. Velocities and accumulated impulses are left as they were.
void SolveJointPositions(SolverArrays& solver, const StepContext& context);

/// Writes each joint's impulses (warm start) back into its JointData, with the reaction force on
/// bodyB (N) and its pure torque (N m) from those impulses and the bodies' states at the end of the
/// step. (Prismatic and wheel: the torque is the angular row's only; the lever of the linear force is
/// not included.) The coloured hinges' impulses are read from their lanes (solver.hinges), the other
/// joints' from their constraints.
void StoreJointImpulses(std::span<const JointInput> inputs, const SolverArrays& solver,
                        const StepContext& context);

// --- Shared by the per-type solvers (joint_solver.cpp, *_joint.cpp) --------------------------------

namespace joint {

/// Bias, mass scale, impulse scale and kick for one solve of a scalar constraint with position error
/// C:   impulse = -massScale * m (Cdot + bias) - impulseScale * accumulated [+ m * kick].
/// The kick (m/s or rad/s) is a velocity change independent of Cdot: an explicit force times h / m,
/// used by undamped springs (UndampedSpring) only. Only a row solved with its kick (RowImpulse<true>,
/// chosen per joint by SpringKicks) pays for the term: 2% of a ragdoll scene's step when every row
/// paid it (callgrind, ragdolls, 100 steps).
struct Coefficients {
  float bias = 0.0f;
  float massScale = 1.0f;
  float impulseScale = 0.0f;
  float kick = 0.0f;
};

/// Equality constraint C = 0: soft in the biased pass; rigid without position feedback in relax and in
/// classic mode's velocity iterations; in classic mode's position pass (bodies at rest, invH = 1 / dt)
/// the impulse -m beta C / dt moves the bodies by -beta C along the row: Baumgarte's fraction beta of
/// the error, removed in positions, not fed back as a velocity (which throws bodies around, see
/// SolveContactsClassic).
inline Coefficients Equality(float C, const Softness& soft, JointPass pass, const StepContext& context) {
  switch (pass) {
    case JointPass::Biased:
      return {soft.biasRate * C, soft.massScale, soft.impulseScale};
    case JointPass::Position:
      return {context.settings.classicBaumgarte * context.invH * C, 1.0f, 0.0f};
    default:
      return {0.0f, 1.0f, 0.0f};  // Relax, Classic
  }
}

/// Inequality C >= 0: while C > 0 the constraint may only close the gap this sub-step (speculative,
/// like contacts); once violated it behaves like an equality.
inline Coefficients Inequality(float C, const Softness& soft, JointPass pass, const StepContext& context) {
  if (C > 0.0f) return {C * context.invH, 1.0f, 0.0f};  // may close the gap, not more, this sub-step
  return Equality(C, soft, pass, context);
}

/// A spring is physical, not a correction: the same soft coefficients in every pass.
inline Coefficients Spring(float C, const Softness& soft) {
  return {soft.biasRate * C, soft.massScale, soft.impulseScale};
}

/// An undamped spring (damping ratio exactly 0) as velocity Verlet instead of the soft step's implicit
/// Euler, which removes about (h w)^2 of the energy every pass (96% in 10 s at 1 Hz and 4 sub-steps):
/// half a kick -k C h / 2 at the sub-step's start positions (the biased pass: impulseScale 1 undoes
/// the warm start, so the accumulated impulse becomes that half kick) and half at its end positions
/// (the relax pass adds to it). The kick does not depend on Cdot, so no pass damps the motion, and the
/// oscillator keeps its energy to (h w)^2 / 4 (JointConstraint::springKickRate holds w^2 h / 2).
inline Coefficients UndampedSpring(float C, float kickRate, JointPass pass) {
  return {0.0f, 0.0f, pass == JointPass::Biased ? 1.0f : 0.0f, -kickRate * C};
}

/// Whether the joint's spring row runs undamped, as velocity Verlet (its row needs the kick term).
inline bool SpringKicks(const JointConstraint& c) { return c.springKickRate > 0.0f; }

/// The spring row of a distance, revolute, prismatic or wheel joint: Verlet when it runs undamped
/// (SpringKicks: solve it with the kick), the soft spring otherwise.
inline Coefficients SpringRow(float C, const JointConstraint& c, JointPass pass) {
  return SpringKicks(c) ? UndampedSpring(C, c.springKickRate, pass) : Spring(C, c.springSoftness);
}

/// The impulse of one scalar row of effective mass `mass` (see Coefficients); kWithKick adds the kick.
template <bool kWithKick = false>
inline float RowImpulse(const Coefficients& k, float mass, float cdot, float accumulated) {
  const float impulse = -k.massScale * mass * (cdot + k.bias) - k.impulseScale * accumulated;
  if constexpr (kWithKick) return impulse + mass * k.kick;
  return impulse;
}

/// Angle of dqB relative to dqA (rad, in (-pi, pi]).
inline float RelativeAngle(Rot qA, Rot qB) { return Angle(InvMulRot(qA, qB)); }

/// The joint's current geometry inside a sub-step: anchors from the centres of mass and the anchor
/// separation d = pB - pA.
struct Frame {
  Vec2 rA, rB, d;
};

inline Frame CurrentFrame(const JointConstraint& c, const BodyState& a, const BodyState& b) {
  Vec2 rA = Rotate(a.dq, c.rA0);
  Vec2 rB = Rotate(b.dq, c.rB0);
  return {rA, rB, c.deltaCenter + (b.dp - a.dp) + (rB - rA)};
}

/// Current joint angle (angleB - angleA - referenceAngle).
inline float CurrentAngle(const JointConstraint& c, const BodyState& a, const BodyState& b) {
  return c.deltaAngle + RelativeAngle(a.dq, b.dq);
}

/// Applies a linear impulse P (to B, -P to A) acting at arms armA / armB from the centres of mass,
/// plus a pure angular impulse L (to B, -L to A).
inline void ApplyWrench(const JointConstraint& c, BodyState& a, BodyState& b, Vec2 armA, Vec2 armB, Vec2 P,
                        float L) {
  a.v -= c.invMassA * P;
  a.w -= c.invIA * (Cross(armA, P) + L);
  b.v += c.invMassB * P;
  b.w += c.invIB * (Cross(armB, P) + L);
}

/// 2x2 symmetric solve K x = b; zero for a singular K.
Vec2 Solve22(float k11, float k12, float k22, Vec2 b);
/// Solve22 in double precision: for the rare row whose determinant, or a product of K with the
/// right-hand side, overflows float (bodies with a tiny mass or inertia held far from their centre,
/// where K's entries reach 1e19 and more).
Vec2 Solve22Wide(float k11, float k12, float k22, Vec2 b);

/// Solves one angular row (Cdot = wB - wA) with coefficients `k` and clamps the accumulated impulse
/// to [lo, hi]; applies the change. Returns the applied increment. kWithKick: an undamped spring row.
/// Inline, with Inequality and RelativeAngle: a limited, motored, sprung hinge calls them four times
/// and once an iteration. Compiled apart, the calls and what they kept the compiler from sharing
/// between one joint's rows cost rain's first 60 steps 535 M instructions against 477 M inline
/// (callgrind; the same results, bit for bit).
template <bool kWithKick = false>
inline float SolveAngular(const JointConstraint& c, BodyState& a, BodyState& b, float target, Coefficients k,
                          float& accumulated, float lo, float hi) {
  // Row Cdot = wB - wA (Jacobian [0, -1, 0, 1]), effective mass 1 / (iA + iB).
  float cdot = b.w - a.w - target;
  float impulse = RowImpulse<kWithKick>(k, c.angularMass, cdot, accumulated);
  float updated = std::clamp(accumulated + impulse, lo, hi);
  impulse = updated - accumulated;
  accumulated = updated;
  a.w -= c.invIA * impulse;
  b.w += c.invIB * impulse;
  return impulse;
}

/// The two-dimensional point constraint pB = pA (revolute, weld, mouse). `maxImpulse` >= 0 caps the
/// accumulated impulse's length (mouse); negative = no cap.
inline void SolvePoint(const JointConstraint& c, BodyState& a, BodyState& b, Vec2 rA, Vec2 rB, Vec2 bias,
                       float massScale, float impulseScale, Vec2& accumulated, float maxImpulse = -1.0f) {
  // C = pB - pA (two rows). Cdot = vB + wB x rB - vA - wA x rA. An impulse P (+P on B at rB, -P on A
  // at rA) changes Cdot by K P with
  //   K = (mA + mB) I + iA rA_perp rA_perp^T + iB rB_perp rB_perp^T,  r_perp = (-r.y, r.x),
  // since w x r = w r_perp and the angular impulse is r x P = r_perp . P.
  // Written out in scalars: this is the joint solver's hottest function (joint_grid: 160k calls per
  // step): inline, and component code compiles to fewer instructions than the Vec2 form.
  const float mA = c.invMassA, mB = c.invMassB, iA = c.invIA, iB = c.invIB;
  float cdx = (b.v.x - b.w * rB.y) - (a.v.x - a.w * rA.y) + bias.x;
  float cdy = (b.v.y + b.w * rB.x) - (a.v.y + a.w * rA.x) + bias.y;
  float m = mA + mB;
  float k11 = m + iA * rA.y * rA.y + iB * rB.y * rB.y;
  float k12 = -iA * rA.x * rA.y - iB * rB.x * rB.y;
  float k22 = m + iA * rA.x * rA.x + iB * rB.x * rB.x;
  float det = k11 * k22 - k12 * k12;
  float scale = det != 0.0f ? -massScale / det : 0.0f;  // K^-1 = [k22, -k12; -k12, k11] / det
  float px = scale * (k22 * cdx - k12 * cdy) - impulseScale * accumulated.x;
  float py = scale * (k11 * cdy - k12 * cdx) - impulseScale * accumulated.y;
  if (!std::isfinite(det + px + py)) [[unlikely]] {  // K or K times Cdot overflowed float: solve in double
    const Vec2 solved = Solve22Wide(k11, k12, k22, {cdx, cdy});
    px = -massScale * solved.x - impulseScale * accumulated.x;
    py = -massScale * solved.y - impulseScale * accumulated.y;
  }
  if (maxImpulse >= 0.0f) {  // force cap (mouse): clamp the accumulated impulse's length
    Vec2 updated = accumulated + Vec2{px, py};
    float len2 = LengthSquared(updated);
    if (len2 > maxImpulse * maxImpulse) updated *= maxImpulse / std::sqrt(len2);
    px = updated.x - accumulated.x;
    py = updated.y - accumulated.y;
  }
  accumulated.x += px;
  accumulated.y += py;
  a.v.x -= mA * px;
  a.v.y -= mA * py;
  a.w -= iA * (rA.x * py - rA.y * px);
  b.v.x += mB * px;
  b.v.y += mB * py;
  b.w += iB * (rB.x * py - rB.y * px);
}

void SolveRevolute(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass,
                   const StepContext& context);
void SolveMotorJoint(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass,
                     const StepContext& context);
void SolvePrismatic(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass,
                    const StepContext& context);
void SolveWheel(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass, const StepContext& context);
void SolveDistance(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass,
                   const StepContext& context);
void SolveWeld(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass, const StepContext& context);
void SolveMouse(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass, const StepContext& context);

}  // namespace joint

}  // namespace mk
