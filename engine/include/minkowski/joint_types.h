// SPDX-License-Identifier: MIT
// Minkowski — joint definitions. A joint connects two bodies (or, for the mouse joint, one body and a
// world target) at anchors given in each body's local frame. Joints are soft constraints solved in the
// same sub-step loop as contacts; each joint's stiffness and damping default to the world's
// SolverSettings::jointHertz / jointDampingRatio (kUseWorldSetting, the default, = use the world's
// value; 0 is a real 0: no damping, or 0 Hz = rigid without position feedback). Every spring
// stiffness (hertz fields) is in 0..kMaxHertz and every damping ratio in 0..kMaxDampingRatio; values
// outside the documented ranges are refused by World::CreateJoint (MK_ASSERT, null id).
//
// Limits of the solver (one iteration per sub-step): a soft constraint closes an error C at
// w C / (2 zeta + h w) per second (w = 2 pi hertz, zeta its damping ratio, h the sub-step; 68 /s at
// the world's 60 Hz and 2), so a joint created metres from satisfied pulls at hundreds of m/s;
// and a body whose radius of gyration is tiny against the joint's lever (a 5 cm disc 16 m from its
// anchor) is turned rather than moved by every row, which the sub-steps cannot resolve: such a joint
// may not hold. The world stays finite and every body within the speed caps (SolverSettings::
// maxLinearSpeed) whatever the valid parameters.
#pragma once

#include "minkowski/export.h"
#include "minkowski/math.h"
#include "minkowski/world_types.h"

#include <limits>

namespace MK_API mk {

/// JointBase::constraintHertz / constraintDampingRatio: take the world's SolverSettings::jointHertz /
/// jointDampingRatio (the default). Any other negative value is refused.
inline constexpr float kUseWorldSetting = -1.0f;

/// A force or torque threshold that is never exceeded (JointBase::forceThreshold, the default).
inline constexpr float kNoThreshold = std::numeric_limits<float>::max();

/// What every joint has.
struct JointBase {
  BodyId bodyA{};  ///< the first body
  BodyId bodyB{};  ///< the second body (reaction forces are those on it)
  Vec2 localAnchorA{
      0.0f,
      0.0f};  ///< metres, in bodyA's frame (body origin, not centre of mass); |x|, |y| <= kMaxWorldLength
  Vec2 localAnchorB{0.0f, 0.0f};  ///< metres, in bodyB's frame; |x|, |y| <= kMaxWorldLength
  bool collideConnected = false;  ///< let the two bodies' shapes collide with each other
  /// Stiffness of the positional constraint (Hz, 0..kMaxHertz) or kUseWorldSetting (the world's
  /// jointHertz). 0 Hz: rigid, with no position correction (errors are kept, not removed).
  float constraintHertz = kUseWorldSetting;
  /// Damping ratio of the positional constraint (0..kMaxDampingRatio; 0 = undamped) or
  /// kUseWorldSetting (the world's jointDampingRatio).
  float constraintDampingRatio = kUseWorldSetting;
  /// Breaking: when the joint's reaction force on bodyB (N, GetJointReactionForce's length) exceeds
  /// forceThreshold, or its reaction torque's magnitude (N m) exceeds torqueThreshold, at the end of
  /// a Step, that Step lists a JointEvent (World::GetJointEvents); with destroyOnBreak the world also
  /// destroys the joint then (once), else the event repeats every Step the load stays above. Both
  /// >= 0 (not NaN); kNoThreshold (the default) = never.
  ///@{
  float forceThreshold = kNoThreshold;
  float torqueThreshold = kNoThreshold;
  ///@}
  bool destroyOnBreak = false;  ///< the world destroys the joint when a threshold is exceeded
  void* userData = nullptr;     ///< the game's; the world only stores it (World::GetUserData)
};

/// Pins two bodies together at a point; they rotate freely about it (a hinge).
struct RevoluteJointDef : JointBase {
  float referenceAngle = 0.0f;  ///< angleB - angleA (rad) at which the joint angle is zero; any finite value,
                                ///< wrapped into [-pi, pi]
  bool enableLimit = false;     ///< keep the joint angle within [lowerAngle, upperAngle]
  float lowerAngle = 0.0f;      ///< rad, <= upperAngle
  float upperAngle = 0.0f;      ///< rad
  bool enableMotor = false;     ///< drive the joint angle at motorSpeed
  float motorSpeed = 0.0f;      ///< rad/s, counter-clockwise positive, |speed| <= kMaxAngularSpeed
  float maxMotorTorque = 0.0f;  ///< N m, >= 0 (a motor with speed 0 acts as joint friction)
  bool enableSpring = false;    ///< pull the joint angle towards zero (hertz, dampingRatio)
  float hertz = 0.0f;           ///< angular spring towards the zero joint angle (Hz)
  /// 0..kMaxDampingRatio; 0 = undamped: keeps its energy (up to 19 Hz at 4 sub-steps; design.md)
  float dampingRatio = 0.0f;
  /// rad, finite: the rotation of local frame A in bodyA (SetLocalFrames writes it). It moves nothing
  /// (referenceAngle is the frames' relative angle); the joint keeps it for GetJointLocalFrameA / B.
  float frameAngleA = 0.0f;
};

/// Lets bodyB slide along an axis fixed in bodyA, without relative rotation.
struct PrismaticJointDef : JointBase {
  Vec2 localAxisA{1.0f, 0.0f};    ///< axis in bodyA's frame, any non-zero length: normalised by CreateJoint
  float referenceAngle = 0.0f;    ///< angleB - angleA (rad) that the joint holds
  bool enableLimit = false;       ///< keep the translation within [lowerTranslation, upperTranslation]
  float lowerTranslation = 0.0f;  ///< m, <= upperTranslation; |value| <= kMaxWorldLength
  float upperTranslation = 0.0f;  ///< m, |value| <= kMaxWorldLength
  bool enableMotor = false;       ///< drive the translation at motorSpeed
  float motorSpeed = 0.0f;        ///< m/s, |speed| <= kMaxWorldLength (per second)
  float maxMotorForce = 0.0f;     ///< N, >= 0
  bool enableSpring = false;      ///< pull the translation towards zero (hertz, dampingRatio)
  float hertz = 0.0f;             ///< spring towards zero translation (Hz)
  /// 0..kMaxDampingRatio; 0 = undamped: keeps its energy (up to 19 Hz at 4 sub-steps; design.md)
  float dampingRatio = 0.0f;
};

/// Keeps the anchors at a distance: a rod (rigid), a spring, or a rope (min/max limits).
struct DistanceJointDef : JointBase {
  /// Lengths in metres; values beyond kMaxWorldLength are clamped to it (so the default maxLength
  /// means "no upper limit").
  float length = 1.0f;                ///< rest length (m), > 0
  bool enableLimit = false;           ///< keep the length within [minLength, maxLength]
  float minLength = 0.0f;             ///< m, >= 0
  float maxLength = kMaxWorldLength;  ///< m, >= minLength
  bool enableSpring = false;          ///< false = rigid rod at `length`
  float hertz = 0.0f;                 ///< spring stiffness (Hz, 0..kMaxHertz; 0 = no spring force)
  /// 0..kMaxDampingRatio; 0 = undamped: keeps its energy (up to 19 Hz at 4 sub-steps; design.md)
  float dampingRatio = 0.0f;
  /// Bounds of the spring's force along the anchors' line (N; positive pushes the anchors apart,
  /// negative pulls them together): lower <= upper, neither NaN; the defaults leave it unbounded. A
  /// spring that only pulls (an elastic rope): upperSpringForce = 0.
  ///@{
  float lowerSpringForce = -std::numeric_limits<float>::max();
  float upperSpringForce = std::numeric_limits<float>::max();
  ///@}
  /// Motor on the length's rate of change (m/s, |speed| <= kMaxWorldLength), with force up to
  /// maxMotorForce (N, >= 0). Works with the spring or the limits (with a rigid rod it has nothing
  /// to move).
  ///@{
  bool enableMotor = false;
  float motorSpeed = 0.0f;
  float maxMotorForce = 0.0f;
  ///@}
};

/// Glues two bodies together, optionally softly.
struct WeldJointDef : JointBase {
  float referenceAngle = 0.0f;       ///< angleB - angleA (rad) that the joint holds
  float linearHertz = 0.0f;          ///< 0 = as stiff as the constraint softness allows
  float angularHertz = 0.0f;         ///< Hz, 0..kMaxHertz; 0 = as stiff as the constraint softness allows
  float linearDampingRatio = 0.0f;   ///< 0..kMaxDampingRatio
  float angularDampingRatio = 0.0f;  ///< 0..kMaxDampingRatio
  /// rad, finite: the rotation of local frame A in bodyA (SetLocalFrames writes it). It moves nothing
  /// (referenceAngle is the frames' relative angle); the joint keeps it for GetJointLocalFrameA / B.
  float frameAngleA = 0.0f;
};

/// A wheel on a suspension: bodyB slides along an axis of bodyA on a spring and spins freely.
struct WheelJointDef : JointBase {
  /// suspension axis in bodyA's frame, any non-zero length: normalised by CreateJoint (as Box2D v3
  /// does); translations, limits and the spring are measured along the unit axis
  Vec2 localAxisA{0.0f, 1.0f};
  bool enableSpring = true;  ///< the suspension spring along the axis (hertz, dampingRatio)
  float hertz = 1.0f;        ///< suspension stiffness (Hz)
  /// 0..kMaxDampingRatio; 0 = undamped: keeps its energy (up to 19 Hz at 4 sub-steps; design.md)
  float dampingRatio = 0.7f;
  bool enableLimit = false;       ///< keep the translation along the axis within the bounds below
  float lowerTranslation = 0.0f;  ///< m, <= upperTranslation; |value| <= kMaxWorldLength
  float upperTranslation = 0.0f;  ///< m, |value| <= kMaxWorldLength
  bool enableMotor = false;       ///< drive bodyB's spin at motorSpeed
  float motorSpeed = 0.0f;        ///< rad/s of bodyB relative to bodyA, |speed| <= kMaxAngularSpeed
  float maxMotorTorque = 0.0f;    ///< N m
};

/// Drives bodyB's pose relative to bodyA towards a target: bodyB's anchor (localAnchorB) towards
/// bodyA's anchor moved by linearOffset (in bodyA's frame), and the angle angleB - angleA towards
/// angularOffset, with force and torque caps. Uses: top-down friction (a motor joint to a static
/// ground body with offsets 0 and the friction force as maxForce), moving platforms, animated bodies.
/// The error closes at correctionFactor / h per second (h the sub-step) while the caps allow.
struct MotorJointDef : JointBase {
  Vec2 linearOffset{0.0f, 0.0f};  ///< m, in bodyA's frame; |x|, |y| <= kMaxWorldLength
  float angularOffset = 0.0f;     ///< rad, any finite value (wrapped into [-pi, pi])
  float maxForce = 1.0f;          ///< N, >= 0 (finite)
  float maxTorque = 1.0f;         ///< N m, >= 0 (finite)
  float correctionFactor = 0.3f;  ///< 0..1: fraction of the position error removed per sub-step
  /// rad, finite: the rotation of local frame A in bodyA (SetLocalFrames writes it). It moves nothing
  /// (referenceAngle is the frames' relative angle); the joint keeps it for GetJointLocalFrameA / B.
  float frameAngleA = 0.0f;
};

/// Connects two bodies only so that their shapes do not collide (Box2D v3's filter joint): no
/// constraint, no force, and it does not tie the bodies into one island. collideConnected is
/// ignored (always false); the anchors are kept for drawing.
struct FilterJointDef : JointBase {};

/// Drags a point of a body towards a world target with a soft spring and a force cap (the sandbox's
/// mouse). The grabbed body point is the one under `target` at creation.
struct MouseJointDef {
  BodyId body{};              ///< the body dragged
  Pos target{0.0f, 0.0f};     ///< world point the body point is pulled to (m); the grabbed point starts here
  float hertz = 5.0f;         ///< spring stiffness (Hz, 0..kMaxHertz)
  float dampingRatio = 0.7f;  ///< 0..kMaxDampingRatio
  float maxForce = 1000.0f;   ///< N; scale with the body's weight
  void* userData = nullptr;   ///< the game's; the world only stores it (World::GetUserData)
};

// --- Local frames (Box2D v3.2's b2JointDef::localFrameA / localFrameB) ----------------------------------
//
// A joint frame is a Transform in its body's frame (from the body origin, metres; a unit rotation).
// A pair of frames says what the anchors, referenceAngle, axis and offsets say: the anchors are the
// frames' origins; the joint angle is frame B's angle relative to frame A's, so referenceAngle =
// angle(frameA.q) - angle(frameB.q); the prismatic and wheel axis is frame A's x axis (note: the
// default WheelJointDef axis, (0, 1), is a frame A turned by pi / 2); a motor joint drives frame B onto
// frame A (its linearOffset becomes 0 and its angularOffset the relative angle). Only the difference
// of the two rotations acts, so the defs without an axis keep frame A's own rotation in frameAngleA,
// which moves nothing but lets GetJointLocalFrameA / B (joint_api.h) give back the frames set. A
// distance or filter joint has no angle: its frames' rotations are dropped here (the runtime setters
// keep them).

/// Fills a def's anchors, axis, referenceAngle, offsets and frameAngleA from two local frames (m,
/// in bodyA's and bodyB's frames). Returns false (MK_ASSERT; the def unchanged) for a non-finite
/// frame, an origin beyond kMaxWorldLength, or a rotation whose squared length is not within 1e-3 of
/// 1 (a nearly unit rotation is normalised). The other fields are left as they are.
///@{
bool SetLocalFrames(RevoluteJointDef& def, const Transform& frameA, const Transform& frameB);
bool SetLocalFrames(PrismaticJointDef& def, const Transform& frameA, const Transform& frameB);
bool SetLocalFrames(DistanceJointDef& def, const Transform& frameA, const Transform& frameB);
bool SetLocalFrames(WeldJointDef& def, const Transform& frameA, const Transform& frameB);
bool SetLocalFrames(WheelJointDef& def, const Transform& frameA, const Transform& frameB);
bool SetLocalFrames(MotorJointDef& def, const Transform& frameA, const Transform& frameB);
bool SetLocalFrames(FilterJointDef& def, const Transform& frameA, const Transform& frameB);
///@}

/// The kinds of joint.
enum class JointType : std::uint8_t { Revolute = 0, Prismatic, Distance, Weld, Wheel, Mouse, Motor, Filter };

}  // namespace mk
