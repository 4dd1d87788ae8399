// SPDX-License-Identifier: MIT
// Joint local frames (Box2D v3.2's localFrameA / localFrameB; joint_types.h and joint_api.h): the
// def helpers that turn two frames into anchors, axis, referenceAngle and offsets, and the runtime
// setters and getters.
//
// Representation. A joint keeps no frames: a pair of frames is mapped onto the fields the solver
// already reads, so a joint built from frames costs the step nothing. The origins are the anchors
// (a motor joint's frame A origin is localAnchorA + linearOffset); frame A's rotation is kept as
// Joint::localAxisA (its x axis: the slide axis of a prismatic or wheel joint, for the other types a
// field the solver does not read); frame B's rotation is the one whose relative angle to frame A is
// referenceAngle (a motor joint's angularOffset), qB = qA * rot(-referenceAngle). So both rotations
// survive a round trip and setting one frame keeps the other as the getter shows it, in any order,
// as in v3.2, where a joint stores both frames. A distance, wheel or filter joint ignores the
// rotations (the wheel only reads frame A's axis); they are kept all the same.
#include "minkowski/assert.h"
#include "minkowski/joint_api.h"
#include "world/persistence/recorder.h"
#include "world/world_internal.h"
#include "world/world_state.h"

#include <cmath>

namespace mk {

namespace {

// A frame the world accepts: finite, its origin within kMaxWorldLength, its rotation of squared
// length within 1e-3 of 1 (World::SetTargetTransform's rule), returned normalised (in double, so the
// result is correctly rounded).
bool UnitFrame(const Transform& frame, Transform& out) {
  const Rot q = frame.q;
  const bool valid = ValidPoint(frame.p) && IsFinite(q.c) && IsFinite(q.s) &&
                     std::fabs(q.c * q.c + q.s * q.s - 1.0f) < 1e-3f;
  MK_ASSERT(valid);
  if (!valid) return false;
  const double length = std::sqrt(static_cast<double>(q.c) * q.c + static_cast<double>(q.s) * q.s);
  out = {frame.p, {static_cast<float>(q.c / length), static_cast<float>(q.s / length)}};
  return true;
}

bool UnitFrames(const Transform& frameA, const Transform& frameB, Transform& a, Transform& b) {
  return UnitFrame(frameA, a) && UnitFrame(frameB, b);
}

// angle(qA) - angle(qB), in [-pi, pi]: the joint angle's reference (frame B's angle relative to frame
// A's is angleB - angleA - this).
float RelativeAngle(Rot qA, Rot qB) { return Angle(InvMulRot(qB, qA)); }

Rot FrameRotationA(const Joint& j) { return {j.localAxisA.x, j.localAxisA.y}; }
Rot FrameRotationB(const Joint& j) { return MulRot(FrameRotationA(j), MakeRot(-j.referenceAngle)); }

// The live joint of `id` that has frames (every type but the mouse joint), else null after MK_ASSERT.
template <class State>
auto* FramedJoint(State& state, JointId id) {
  const bool live = state.IsJoint(id);
  MK_ASSERT(live);
  if (!live) return static_cast<decltype(&state.joints[0])>(nullptr);
  auto& j = state.joints[state.JointSlot(id)];
  const bool framed = j.type != JointType::Mouse;
  MK_ASSERT(framed);
  return framed ? &j : nullptr;
}

void SetLocalFrame(World& world, JointId id, bool sideB, const Transform& frame) {
  WorldState& state = world.State();
  if (RefuseIfLocked(state)) return;
  RecordCall(JointRecorderOf(world), ReplayOp::SetJointLocalFrame, id, sideB, frame.p, frame.q.c, frame.q.s);
  Joint* j = FramedJoint(state, id);
  Transform f;
  if (j == nullptr || !UnitFrame(frame, f)) return;
  if (sideB) {
    j->localAnchorB = f.p;
    j->referenceAngle = RelativeAngle(FrameRotationA(*j), f.q);
  } else {
    const Rot qB = FrameRotationB(*j);  // kept: measured before frame A turns
    j->localAnchorA = f.p;
    j->linearOffset = {0.0f, 0.0f};  // a motor joint's frame A origin is its whole target
    j->localAxisA = {f.q.c, f.q.s};
    j->referenceAngle = RelativeAngle(f.q, qB);
  }
  if (j->edges[0].body != kNull) WakeBody(state, j->edges[0].body);
  WakeBody(state, j->edges[1].body);
}

}  // namespace

// --- Definitions -------------------------------------------------------------------------------------

namespace {

// Each def gets the fields it has: anchors always; the axis (prismatic, wheel); the reference angle
// (revolute, prismatic, weld) or a motor joint's offsets; frame A's own rotation where no axis holds it.
template <class Def>
bool FillFrames(Def& def, const Transform& frameA, const Transform& frameB) {
  Transform a, b;
  if (!UnitFrames(frameA, frameB, a, b)) return false;
  def.localAnchorA = a.p, def.localAnchorB = b.p;
  if constexpr (requires { def.localAxisA; }) def.localAxisA = {a.q.c, a.q.s};
  if constexpr (requires { def.referenceAngle; }) def.referenceAngle = RelativeAngle(a.q, b.q);
  if constexpr (requires { def.angularOffset; }) {
    def.angularOffset = RelativeAngle(a.q, b.q), def.linearOffset = {0.0f, 0.0f};
  }
  if constexpr (requires { def.frameAngleA; }) def.frameAngleA = Angle(a.q);
  return true;
}

}  // namespace

bool SetLocalFrames(RevoluteJointDef& def, const Transform& frameA, const Transform& frameB) {
  return FillFrames(def, frameA, frameB);
}
bool SetLocalFrames(PrismaticJointDef& def, const Transform& frameA, const Transform& frameB) {
  return FillFrames(def, frameA, frameB);
}
bool SetLocalFrames(DistanceJointDef& def, const Transform& frameA, const Transform& frameB) {
  return FillFrames(def, frameA, frameB);
}
bool SetLocalFrames(WeldJointDef& def, const Transform& frameA, const Transform& frameB) {
  return FillFrames(def, frameA, frameB);
}
bool SetLocalFrames(WheelJointDef& def, const Transform& frameA, const Transform& frameB) {
  return FillFrames(def, frameA, frameB);
}
bool SetLocalFrames(MotorJointDef& def, const Transform& frameA, const Transform& frameB) {
  return FillFrames(def, frameA, frameB);
}
bool SetLocalFrames(FilterJointDef& def, const Transform& frameA, const Transform& frameB) {
  return FillFrames(def, frameA, frameB);
}

// --- Runtime -----------------------------------------------------------------------------------------

void SetJointLocalFrameA(World& world, JointId joint, const Transform& frame) {
  SetLocalFrame(world, joint, false, frame);
}
void SetJointLocalFrameB(World& world, JointId joint, const Transform& frame) {
  SetLocalFrame(world, joint, true, frame);
}

Transform GetJointLocalFrameA(const World& world, JointId joint) {
  const Joint* j = FramedJoint(world.State(), joint);
  return j ? Transform{j->localAnchorA + j->linearOffset, FrameRotationA(*j)} : Transform{};
}
Transform GetJointLocalFrameB(const World& world, JointId joint) {
  const Joint* j = FramedJoint(world.State(), joint);
  return j ? Transform{j->localAnchorB, FrameRotationB(*j)} : Transform{};
}

}  // namespace mk
