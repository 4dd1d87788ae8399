// SPDX-License-Identifier: MIT
// The runtime joint API (minkowski/joint_api.h): every setter goes through SetJointValue, which
// holds the lock guard, the recording, the validation per joint type and the wake; the getters read
// the joint in place.
#include "minkowski/joint_api.h"

#include "minkowski/assert.h"
#include "world/persistence/recorder.h"
#include "world/world_internal.h"
#include "world/world_state.h"

#include <algorithm>
#include <cmath>

namespace mk {

struct JointAccess {
  static Recorder* RecorderOf(World& world) { return world.recorder_.get(); }
};

Recorder* JointRecorderOf(World& world) { return JointAccess::RecorderOf(world); }

namespace {

bool Is(const Joint& j, std::initializer_list<JointType> types) {
  return std::find(types.begin(), types.end(), j.type) != types.end();
}

constexpr std::initializer_list<JointType> kLimited = {JointType::Revolute, JointType::Prismatic,
                                                       JointType::Wheel, JointType::Distance};
constexpr std::initializer_list<JointType> kSprung = {JointType::Revolute, JointType::Prismatic,
                                                      JointType::Wheel, JointType::Distance, JointType::Weld};
constexpr std::initializer_list<JointType> kConstrained = {JointType::Revolute, JointType::Prismatic,
                                                           JointType::Wheel,    JointType::Distance,
                                                           JointType::Weld,     JointType::Motor};

bool Finite(float x) { return std::isfinite(x); }
bool FiniteNonNegative(float x) { return Finite(x) && x >= 0.0f; }
bool ValidTuning(float x, bool hertz) {
  return x == kUseWorldSetting || (hertz ? ValidJointHertz(x) : ValidJointDamping(x));
}
bool Flag(float x) { return x == 0.0f || x == 1.0f; }

// The joint for a getter: null (after MK_ASSERT) for a stale id or a type without the property.
const Joint* Read(const World& world, JointId id, std::initializer_list<JointType> types) {
  const WorldState& state = world.State();
  const bool live = state.IsJoint(id);
  MK_ASSERT(live);
  if (!live) return nullptr;
  const Joint& j = state.joints[state.JointSlot(id)];
  const bool ok = types.size() == 0 || Is(j, types);
  MK_ASSERT(ok);
  return ok ? &j : nullptr;
}

// Applies one property to a live joint; false when the type has no such property or the value is
// refused (nothing changed).
bool Apply(WorldState& world, Joint& j, JointValue what, float x, float y) {
  switch (what) {
    case JointValue::CollideConnected:
      if (!Flag(x) || Is(j, {JointType::Mouse, JointType::Filter})) return false;
      j.collideConnected = x != 0.0f;
      RefilterBodyPairs(world, j.edges[1].body);
      return true;
    case JointValue::WakeBodies:
      return true;
    case JointValue::ConstraintTuning:
      if (!ValidTuning(x, true) || !ValidTuning(y, false) || !Is(j, kConstrained)) return false;
      j.constraintHertz = x, j.constraintDampingRatio = y;
      return true;
    case JointValue::ForceThreshold:
    case JointValue::TorqueThreshold:
      if (!ValidThreshold(x)) return false;
      (what == JointValue::ForceThreshold ? j.forceThreshold : j.torqueThreshold) = x;
      world.mayBreakJoints = world.mayBreakJoints || x < kNoThreshold;
      return true;
    case JointValue::DestroyOnBreak:
      if (!Flag(x)) return false;
      j.destroyOnBreak = x != 0.0f;
      return true;
    case JointValue::EnableLimit:
      if (!Flag(x) || !Is(j, kLimited)) return false;
      j.enableLimit = x != 0.0f;
      return true;
    case JointValue::Limits:
      if (!Is(j, kLimited) || std::isnan(x) || std::isnan(y) || !(x <= y)) return false;
      if (j.type == JointType::Distance) {
        if (x < 0.0f) return false;
        x = std::min(x, kMaxWorldLength), y = std::min(y, kMaxWorldLength);
      } else if (!ValidLength(x) || !ValidLength(y)) {
        return false;
      }
      j.lower = x, j.upper = y;
      return true;
    case JointValue::EnableMotor:
      if (!Flag(x) || !Is(j, kLimited)) return false;
      j.enableMotor = x != 0.0f;
      if (!j.enableMotor) j.motorForce = 0.0f;
      return true;
    case JointValue::MaxMotorForce:
      if (!FiniteNonNegative(x) || !Is(j, kLimited)) return false;
      j.maxMotor = x;
      return true;
    case JointValue::EnableSpring:
      if (!Flag(x) || !Is(j, kLimited)) return false;
      j.enableSpring = x != 0.0f;
      return true;
    case JointValue::SpringHertz:
      if (!ValidJointHertz(x) || !Is(j, kSprung)) return false;
      j.hertz = x;
      return true;
    case JointValue::SpringDampingRatio:
      if (!ValidJointDamping(x) || !Is(j, kSprung)) return false;
      j.dampingRatio = x;
      return true;
    case JointValue::DistanceLength:
      if (!Finite(x) || !(x > 0.0f) || j.type != JointType::Distance) return false;
      j.length = std::min(x, kMaxWorldLength);
      return true;
    case JointValue::SpringForceRange:
      if (std::isnan(x) || std::isnan(y) || !(x <= y) || j.type != JointType::Distance) return false;
      j.lowerSpringForce = x, j.upperSpringForce = y;
      return true;
    case JointValue::WeldAngularHertz:
      if (!ValidJointHertz(x) || j.type != JointType::Weld) return false;
      j.angularHertz = x;
      return true;
    case JointValue::WeldAngularDampingRatio:
      if (!ValidJointDamping(x) || j.type != JointType::Weld) return false;
      j.angularDampingRatio = x;
      return true;
    case JointValue::MotorLinearOffset:
      if (!ValidPoint({x, y}) || j.type != JointType::Motor) return false;
      j.linearOffset = {x, y};
      return true;
    case JointValue::MotorAngularOffset:
      if (!Finite(x) || j.type != JointType::Motor) return false;
      j.referenceAngle = UnwindJointAngle(x);
      return true;
    case JointValue::MotorMaxForce:
    case JointValue::MotorMaxTorque:
      if (!FiniteNonNegative(x) || j.type != JointType::Motor) return false;
      (what == JointValue::MotorMaxForce ? j.maxForce : j.maxMotor) = x;
      return true;
    case JointValue::MotorCorrectionFactor:
      if (!(x >= 0.0f && x <= 1.0f) || j.type != JointType::Motor) return false;
      j.correctionFactor = x;
      return true;
    default:
      return false;
  }
}

float AsFlag(bool b) { return b ? 1.0f : 0.0f; }

}  // namespace

void SetJointValue(World& world, JointId id, JointValue what, float x, float y) {
  WorldState& state = world.State();
  if (RefuseIfLocked(state)) return;
  RecordCall(JointAccess::RecorderOf(world), ReplayOp::SetJointValue, id, what, x, y);
  const bool live = state.IsJoint(id);
  MK_ASSERT(live);
  if (!live) return;
  Joint& j = state.joints[state.JointSlot(id)];
  const bool applied = Apply(state, j, what, x, y);
  MK_ASSERT(applied);
  if (!applied) return;
  if (j.edges[0].body != kNull) WakeBody(state, j.edges[0].body);
  WakeBody(state, j.edges[1].body);
}

// --- Every joint type -------------------------------------------------------------------------------

BodyId GetJointBodyA(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {});
  return j && j->edges[0].body != kNull ? world.State().MakeBodyId(j->edges[0].body) : BodyId{};
}
BodyId GetJointBodyB(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {});
  return j ? world.State().MakeBodyId(j->edges[1].body) : BodyId{};
}
Vec2 GetJointLocalAnchorA(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {});
  return !j                            ? Vec2{}
         : j->type == JointType::Mouse ? ToVec2(ToWorld(world.State(), j->target))
                                       : j->localAnchorA;
}
Vec2 GetJointLocalAnchorB(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {});
  return j ? j->localAnchorB : Vec2{};
}
void SetJointCollideConnected(World& world, JointId joint, bool collide) {
  SetJointValue(world, joint, JointValue::CollideConnected, AsFlag(collide), 0.0f);
}
bool GetJointCollideConnected(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {});
  return j && j->collideConnected;
}
void WakeJointBodies(World& world, JointId joint) {
  SetJointValue(world, joint, JointValue::WakeBodies, 0.0f, 0.0f);
}
void SetJointConstraintTuning(World& world, JointId joint, float hertz, float dampingRatio) {
  SetJointValue(world, joint, JointValue::ConstraintTuning, hertz, dampingRatio);
}
float GetJointConstraintHertz(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kConstrained);
  return j ? j->constraintHertz : 0.0f;
}
float GetJointConstraintDampingRatio(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kConstrained);
  return j ? j->constraintDampingRatio : 0.0f;
}
void SetJointForceThreshold(World& world, JointId joint, float newtons) {
  SetJointValue(world, joint, JointValue::ForceThreshold, newtons, 0.0f);
}
void SetJointTorqueThreshold(World& world, JointId joint, float newtonMetres) {
  SetJointValue(world, joint, JointValue::TorqueThreshold, newtonMetres, 0.0f);
}
float GetJointForceThreshold(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {});
  return j ? j->forceThreshold : 0.0f;
}
float GetJointTorqueThreshold(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {});
  return j ? j->torqueThreshold : 0.0f;
}
void SetJointDestroyOnBreak(World& world, JointId joint, bool destroy) {
  SetJointValue(world, joint, JointValue::DestroyOnBreak, AsFlag(destroy), 0.0f);
}
bool GetJointDestroyOnBreak(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {});
  return j && j->destroyOnBreak;
}

// --- Limits, motors, springs ------------------------------------------------------------------------

void EnableJointLimit(World& world, JointId joint, bool enable) {
  SetJointValue(world, joint, JointValue::EnableLimit, AsFlag(enable), 0.0f);
}
bool IsJointLimitEnabled(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kLimited);
  return j && j->enableLimit;
}
void SetJointLimits(World& world, JointId joint, float lower, float upper) {
  SetJointValue(world, joint, JointValue::Limits, lower, upper);
}
float GetJointLowerLimit(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kLimited);
  return j ? j->lower : 0.0f;
}
float GetJointUpperLimit(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kLimited);
  return j ? j->upper : 0.0f;
}
void EnableJointMotor(World& world, JointId joint, bool enable) {
  SetJointValue(world, joint, JointValue::EnableMotor, AsFlag(enable), 0.0f);
}
bool IsJointMotorEnabled(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kLimited);
  return j && j->enableMotor;
}
float GetJointMotorSpeed(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kLimited);
  return j ? j->motorSpeed : 0.0f;
}
void SetJointMaxMotorForce(World& world, JointId joint, float maxForce) {
  SetJointValue(world, joint, JointValue::MaxMotorForce, maxForce, 0.0f);
}
float GetJointMaxMotorForce(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kLimited);
  return j ? j->maxMotor : 0.0f;
}
float GetJointMotorForce(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kLimited);
  return j && j->enableMotor ? j->motorForce : 0.0f;
}
void EnableJointSpring(World& world, JointId joint, bool enable) {
  SetJointValue(world, joint, JointValue::EnableSpring, AsFlag(enable), 0.0f);
}
bool IsJointSpringEnabled(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kLimited);
  return j && j->enableSpring;
}
void SetJointSpringHertz(World& world, JointId joint, float hertz) {
  SetJointValue(world, joint, JointValue::SpringHertz, hertz, 0.0f);
}
void SetJointSpringDampingRatio(World& world, JointId joint, float dampingRatio) {
  SetJointValue(world, joint, JointValue::SpringDampingRatio, dampingRatio, 0.0f);
}
float GetJointSpringHertz(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kSprung);
  return j ? j->hertz : 0.0f;
}
float GetJointSpringDampingRatio(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, kSprung);
  return j ? j->dampingRatio : 0.0f;
}

// --- Distance, weld, motor joints ------------------------------------------------------------------

void SetDistanceLength(World& world, JointId joint, float length) {
  SetJointValue(world, joint, JointValue::DistanceLength, length, 0.0f);
}
float GetDistanceLength(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {JointType::Distance});
  return j ? j->length : 0.0f;
}
void SetDistanceSpringForceRange(World& world, JointId joint, float lower, float upper) {
  SetJointValue(world, joint, JointValue::SpringForceRange, lower, upper);
}
float GetDistanceLowerSpringForce(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {JointType::Distance});
  return j ? j->lowerSpringForce : 0.0f;
}
float GetDistanceUpperSpringForce(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {JointType::Distance});
  return j ? j->upperSpringForce : 0.0f;
}
void SetWeldAngularHertz(World& world, JointId joint, float hertz) {
  SetJointValue(world, joint, JointValue::WeldAngularHertz, hertz, 0.0f);
}
void SetWeldAngularDampingRatio(World& world, JointId joint, float dampingRatio) {
  SetJointValue(world, joint, JointValue::WeldAngularDampingRatio, dampingRatio, 0.0f);
}
float GetWeldAngularHertz(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {JointType::Weld});
  return j ? j->angularHertz : 0.0f;
}
float GetWeldAngularDampingRatio(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {JointType::Weld});
  return j ? j->angularDampingRatio : 0.0f;
}
void SetMotorLinearOffset(World& world, JointId joint, Vec2 offset) {
  SetJointValue(world, joint, JointValue::MotorLinearOffset, offset.x, offset.y);
}
Vec2 GetMotorLinearOffset(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {JointType::Motor});
  return j ? j->linearOffset : Vec2{};
}
void SetMotorAngularOffset(World& world, JointId joint, float angle) {
  SetJointValue(world, joint, JointValue::MotorAngularOffset, angle, 0.0f);
}
float GetMotorAngularOffset(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {JointType::Motor});
  return j ? j->referenceAngle : 0.0f;
}
void SetMotorMaxForce(World& world, JointId joint, float maxForce) {
  SetJointValue(world, joint, JointValue::MotorMaxForce, maxForce, 0.0f);
}
float GetMotorMaxForce(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {JointType::Motor});
  return j ? j->maxForce : 0.0f;
}
void SetMotorMaxTorque(World& world, JointId joint, float maxTorque) {
  SetJointValue(world, joint, JointValue::MotorMaxTorque, maxTorque, 0.0f);
}
float GetMotorMaxTorque(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {JointType::Motor});
  return j ? j->maxMotor : 0.0f;
}
void SetMotorCorrectionFactor(World& world, JointId joint, float factor) {
  SetJointValue(world, joint, JointValue::MotorCorrectionFactor, factor, 0.0f);
}
float GetMotorCorrectionFactor(const World& world, JointId joint) {
  const Joint* j = Read(world, joint, {JointType::Motor});
  return j ? j->correctionFactor : 0.0f;
}

}  // namespace mk
