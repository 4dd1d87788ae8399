// SPDX-License-Identifier: MIT
// Minkowski — the runtime joint API: setters and getters for every joint type, as free functions on
// a World (Box2D v3's b2RevoluteJoint_SetLimits(id, ...) is SetJointLimits(world, id, ...)). Why free
// functions with generic names: one call per property whatever the joint type (a limit is a limit on
// a revolute, prismatic, wheel or distance joint), so a port replaces v3's per-type prefixes with one
// name, and a wrong type is a checked error, not a missing overload; World's class stays the core.
//
// Every setter behaves like the World's: refused (MK_ASSERT, nothing changes) while the world is
// locked (inside Step or a callback), for a stale id, for a joint type without the property, or for
// a value CreateJoint would refuse (the ranges of joint_types.h); else it changes the joint, wakes
// both bodies (as Box2D v3 does) and is recorded in a replay. Getters of a stale id or of a type
// without the property: MK_ASSERT and 0 / false / a null id.
#pragma once

#include "minkowski/export.h"
#include "minkowski/joint_types.h"
#include "minkowski/math.h"
#include "minkowski/world_types.h"

namespace MK_API mk {

class World;

// --- Every joint type ---------------------------------------------------------------------------------

BodyId GetJointBodyA(const World& world, JointId joint);  ///< null for a mouse joint (its A is the world)
BodyId GetJointBodyB(const World& world, JointId joint);  ///< a mouse joint's body
Vec2 GetJointLocalAnchorA(const World& world, JointId joint);  ///< m, bodyA's frame (mouse: world target)
Vec2 GetJointLocalAnchorB(const World& world, JointId joint);  ///< m, bodyB's frame
/// Lets the two bodies' shapes collide (or not); the broadphase re-checks their pairs at the next
/// Step. Not for mouse or filter joints.
///@{
void SetJointCollideConnected(World& world, JointId joint, bool collide);
bool GetJointCollideConnected(const World& world, JointId joint);
///@}
/// Wakes both bodies (and their islands).
void WakeJointBodies(World& world, JointId joint);
/// The positional constraint's stiffness (Hz, 0..kMaxHertz) and damping ratio (0..kMaxDampingRatio),
/// each or kUseWorldSetting (JointBase). Not for mouse or filter joints.
///@{
void SetJointConstraintTuning(World& world, JointId joint, float hertz, float dampingRatio);
float GetJointConstraintHertz(const World& world, JointId joint);
float GetJointConstraintDampingRatio(const World& world, JointId joint);
///@}
/// Breaking (JointBase::forceThreshold): >= 0, not NaN (kNoThreshold = never). Any joint type.
///@{
void SetJointForceThreshold(World& world, JointId joint, float newtons);
void SetJointTorqueThreshold(World& world, JointId joint, float newtonMetres);
float GetJointForceThreshold(const World& world, JointId joint);
float GetJointTorqueThreshold(const World& world, JointId joint);
///@}
/// JointBase::destroyOnBreak: whether the world destroys the joint when it breaks. Any joint type.
///@{
void SetJointDestroyOnBreak(World& world, JointId joint, bool destroy);
bool GetJointDestroyOnBreak(const World& world, JointId joint);
///@}

// --- Local frames (Box2D v3.2's b2Joint_SetLocalFrameA / B; joint_types.h explains the mapping) ---------

/// Sets a joint's frame on bodyA / bodyB (m, from the body origin; a unit rotation): the anchor, and
/// with it the axis (prismatic, wheel: frame A's x axis), referenceAngle (or a motor joint's
/// angularOffset: angle(frame A) - angle(frame B)) and, for a motor joint's frame A, the target (its
/// linearOffset becomes 0). The other frame stays as GetJointLocalFrame* shows it, so either order of
/// the two calls gives the pair set. Refused (MK_ASSERT, nothing changes) as every setter is, and
/// for a mouse joint, a non-finite frame, an origin beyond kMaxWorldLength, or a rotation whose
/// squared length is not within 1e-3 of 1 (one within is normalised). Impulses are kept (as v3.2).
///@{
void SetJointLocalFrameA(World& world, JointId joint, const Transform& frame);
void SetJointLocalFrameB(World& world, JointId joint, const Transform& frame);
///@}
/// The frames the joint acts with: the anchors (a motor joint's frame A origin is localAnchorA +
/// linearOffset), frame A's rotation as last set (by SetLocalFrames' frameAngleA or a setter; else
/// the axis of a prismatic or wheel joint, else identity) and frame B's rotation at referenceAngle
/// from it. A distance or filter joint's def keeps no rotation: identity until a setter gives one.
/// Mouse joint or stale id: MK_ASSERT and the identity.
///@{
Transform GetJointLocalFrameA(const World& world, JointId joint);
Transform GetJointLocalFrameB(const World& world, JointId joint);
///@}

// --- Limits, motors, springs: revolute (rad, N m), prismatic (m, N), wheel (translation m; motor on
// the wheel's spin, rad/s and N m), distance (length m, N) ------------------------------------------------

/// Turns the limit on or off (revolute, prismatic, wheel, distance).
///@{
void EnableJointLimit(World& world, JointId joint, bool enable);
bool IsJointLimitEnabled(const World& world, JointId joint);
///@}
/// The limit's bounds: lower <= upper, |each| <= kMaxWorldLength; a distance joint's are its min /
/// max length (>= 0, clamped to kMaxWorldLength as in its def).
///@{
void SetJointLimits(World& world, JointId joint, float lower, float upper);
float GetJointLowerLimit(const World& world, JointId joint);
float GetJointUpperLimit(const World& world, JointId joint);
///@}

/// Turns the motor on or off (revolute, prismatic, wheel, distance).
///@{
void EnableJointMotor(World& world, JointId joint, bool enable);
bool IsJointMotorEnabled(const World& world, JointId joint);
///@}
/// The speed's setter is World::SetMotorSpeed.
float GetJointMotorSpeed(const World& world, JointId joint);
/// Max motor torque (N m: revolute, wheel) or force (N: prismatic, distance), >= 0 and finite.
///@{
void SetJointMaxMotorForce(World& world, JointId joint, float maxForce);
float GetJointMaxMotorForce(const World& world, JointId joint);
///@}
/// The motor's torque (N m) or force (N) in the last Step this joint was solved in.
float GetJointMotorForce(const World& world, JointId joint);

/// Springs of the revolute, prismatic, wheel and distance joints; a weld's hertz and damping ratio
/// are its linear spring's (0 Hz = rigid). Hertz 0..kMaxHertz, damping ratio 0..kMaxDampingRatio.
///@{
void SetJointSpringHertz(World& world, JointId joint, float hertz);
void SetJointSpringDampingRatio(World& world, JointId joint, float dampingRatio);
float GetJointSpringHertz(const World& world, JointId joint);
float GetJointSpringDampingRatio(const World& world, JointId joint);
///@}
/// Turns the spring on or off (revolute, prismatic, wheel, distance; not weld).
///@{
void EnableJointSpring(World& world, JointId joint, bool enable);
bool IsJointSpringEnabled(const World& world, JointId joint);
///@}

// --- Distance joint -------------------------------------------------------------------------------------

/// Rest length (m, > 0; clamped to kMaxWorldLength). World::GetDistanceJointLength is the current one.
///@{
void SetDistanceLength(World& world, JointId joint, float length);
float GetDistanceLength(const World& world, JointId joint);
///@}
/// The spring's force bounds (N, lower <= upper, not NaN; DistanceJointDef::lowerSpringForce).
///@{
void SetDistanceSpringForceRange(World& world, JointId joint, float lower, float upper);
float GetDistanceLowerSpringForce(const World& world, JointId joint);
float GetDistanceUpperSpringForce(const World& world, JointId joint);
///@}

// --- Weld joint: the angular spring (the linear one is the generic spring above) --------------------------

/// The angular spring's stiffness (Hz, 0..kMaxHertz; 0 = as stiff as the constraint
/// softness allows) and damping ratio (0..kMaxDampingRatio): WeldJointDef::angularHertz.
///@{
void SetWeldAngularHertz(World& world, JointId joint, float hertz);
void SetWeldAngularDampingRatio(World& world, JointId joint, float dampingRatio);
float GetWeldAngularHertz(const World& world, JointId joint);
float GetWeldAngularDampingRatio(const World& world, JointId joint);
///@}

// --- Motor joint (MotorJointDef) -------------------------------------------------------------------------

/// MotorJointDef::linearOffset: where bodyB's anchor is driven, from bodyA's anchor (m, bodyA's frame).
///@{
void SetMotorLinearOffset(World& world, JointId joint, Vec2 offset);
Vec2 GetMotorLinearOffset(const World& world, JointId joint);
///@}
/// MotorJointDef::angularOffset: the target angleB - angleA (rad, finite; wrapped into [-pi, pi]).
///@{
void SetMotorAngularOffset(World& world, JointId joint, float angle);
float GetMotorAngularOffset(const World& world, JointId joint);
///@}
/// MotorJointDef::maxForce (N, finite, >= 0).
///@{
void SetMotorMaxForce(World& world, JointId joint, float maxForce);
float GetMotorMaxForce(const World& world, JointId joint);
///@}
/// MotorJointDef::maxTorque (N m, finite, >= 0).
///@{
void SetMotorMaxTorque(World& world, JointId joint, float maxTorque);
float GetMotorMaxTorque(const World& world, JointId joint);
///@}
/// MotorJointDef::correctionFactor: the fraction of the position error removed per sub-step (0..1).
///@{
void SetMotorCorrectionFactor(World& world, JointId joint, float factor);
float GetMotorCorrectionFactor(const World& world, JointId joint);
///@}

}  // namespace mk
