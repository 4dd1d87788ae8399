// SPDX-License-Identifier: MIT
// Joints in the world: creation with validation, destruction, the bodies' joint lists, the
// collide-connected rule, and waking a moving body's sleeping partners before a step. The step
// gathers joints in world/solve.cpp; the constraint math, from prepare to store, is in
// engine/src/solver/*joint*.cpp.
#include "core/parallel.h"
#include "minkowski/assert.h"
#include "solver/solver_types.h"
#include "world/persistence/recorder.h"
#include "world/world_internal.h"
#include "world/world_state.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numbers>

namespace mk {

namespace {

bool NonNegative(float x) { return IsFinite(x) && x >= 0.0f; }

bool ValidHertz(float hertz) { return ValidJointHertz(hertz); }
bool ValidDamping(float ratio) { return ValidJointDamping(ratio); }
// The positional constraint's: a value or kUseWorldSetting.
bool ValidTuning(float hertz, float ratio) {
  return (hertz == kUseWorldSetting || ValidHertz(hertz)) &&
         (ratio == kUseWorldSetting || ValidDamping(ratio));
}

// Motor speeds: a motor at a huge speed with a huge torque would hand its bodies velocities whose
// products overflow inside the sub-step, before the speed clamps apply. Rotation: kMaxAngularSpeed;
// translation: kMaxWorldLength per second, far beyond any SolverSettings::maxLinearSpeed.
bool ValidAngularSpeed(float speed) { return std::fabs(speed) <= kMaxAngularSpeed; }
bool ValidLinearSpeed(float speed) { return std::fabs(speed) <= kMaxWorldLength; }

// A translation or length range within the world's bounds.
bool ValidRange(float lower, float upper) {
  return ValidLength(lower) && ValidLength(upper) && lower <= upper;
}

bool ValidBase(const WorldState& world, const JointBase& def) {
  return world.IsBody(def.bodyA) && world.IsBody(def.bodyB) && def.bodyA != def.bodyB &&
         ValidPoint(def.localAnchorA) && ValidPoint(def.localAnchorB) &&
         ValidTuning(def.constraintHertz, def.constraintDampingRatio) && ValidThreshold(def.forceThreshold) &&
         ValidThreshold(def.torqueThreshold);
}

// An axis direction: any finite vector of length > 1e-6, normalised in double so that neither a
// huge one (whose squared length overflows float) nor a tiny one loses its direction. A float's square
// is exact in double and never overflows or underflows there, so this is one rounded sum and a
// correctly rounded sqrt (std::hypot's last bit is the C library's choice).
double AxisLength(Vec2 axis) {
  const double x = axis.x, y = axis.y;
  return std::sqrt(x * x + y * y);
}
bool ValidAxis(Vec2 axis) { return IsFinite(axis) && AxisLength(axis) > 1e-6; }
Vec2 UnitAxis(Vec2 axis) {
  const double length = AxisLength(axis);
  return {static_cast<float>(axis.x / length), static_cast<float>(axis.y / length)};
}

// A joint's ends in its bodies' joint lists (a mouse joint has only end 1).
void LinkJointEdge(WorldState& world, int joint, int side) {
  LinkEdge(world.joints, world.bodies[world.joints[joint].edges[side].body].headJointEdge, joint, side);
}

void UnlinkJointEdge(WorldState& world, int joint, int side) {
  UnlinkEdge(world.joints, world.bodies[world.joints[joint].edges[side].body].headJointEdge, joint, side);
}

int ShapeCount(const WorldState& world, int body) {
  int n = 0;
  for (int s = world.bodies[body].headShape; s != kNull; s = world.shapes[s].nextShape) ++n;
  return n;
}

// After a joint that blocks collision appears or goes, the broadphase re-runs its filter on the pairs
// of one body's shapes (the one with fewer shapes is enough: a pair has a shape on each body).
void RefilterJointBodies(WorldState& world, const Joint& j) {
  int a = j.edges[0].body, b = j.edges[1].body;
  if (j.collideConnected || a == kNull) return;
  RefilterBodyPairs(world, ShapeCount(world, a) <= ShapeCount(world, b) ? a : b);
}

// Allocates a joint between body slots a (kNull for the mouse's world) and b with the base values.
int NewJoint(WorldState& world, JointType type, int a, int b) {
  int slot = world.jointIds.Allocate();
  if (slot >= static_cast<int>(world.joints.size())) {
    world.joints.resize(slot + 1);
    world.jointEnds.resize(slot + 1);
  }
  // A filter joint is never solved: no ends for the gather (solve.cpp) and WakeJointPartners to see.
  world.jointEnds[slot] = type == JointType::Filter ? WorldState::JointEnds{} : WorldState::JointEnds{a, b};
  Joint& j = world.joints[slot];
  j = Joint{};
  j.type = type;
  j.edges[0].body = a;
  j.edges[1].body = b;
  if (a != kNull) LinkJointEdge(world, slot, 0);
  LinkJointEdge(world, slot, 1);
  return slot;
}

JointId FinishJoint(WorldState& world, int slot) {
  const Joint& j = world.joints[slot];
  if (j.edges[0].body != kNull) WakeBody(world, j.edges[0].body);
  WakeBody(world, j.edges[1].body);
  RefilterJointBodies(world, j);
  return world.MakeJointId(slot);
}

int NewJoint(WorldState& world, JointType type, const JointBase& def) {
  int slot = NewJoint(world, type, world.BodySlot(def.bodyA), world.BodySlot(def.bodyB));
  Joint& j = world.joints[slot];
  j.localAnchorA = def.localAnchorA;
  j.localAnchorB = def.localAnchorB;
  j.collideConnected = def.collideConnected;
  j.constraintHertz = def.constraintHertz;
  j.constraintDampingRatio = def.constraintDampingRatio;
  j.forceThreshold = def.forceThreshold;
  j.torqueThreshold = def.torqueThreshold;
  j.destroyOnBreak = def.destroyOnBreak;
  world.mayBreakJoints =
      world.mayBreakJoints || def.forceThreshold < kNoThreshold || def.torqueThreshold < kNoThreshold;
  j.userData = def.userData;
  return slot;
}

Joint* FindJoint(WorldState& world, JointId id) {
  bool live = world.IsJoint(id);
  MK_ASSERT(live);
  return live ? &world.joints[world.JointSlot(id)] : nullptr;
}

// A reference angle of any finite size, into [-pi, pi] (in double, so 1e30 rad still wraps): the
// joint angle is measured from it with WrapAngle, which only handles one turn either way. IEEE 754
// defines remainder exactly (its result is representable), so every C library gives the same bits.
float UnwindAngle(float angle) {
  return static_cast<float>(std::remainder(static_cast<double>(angle), 2.0 * std::numbers::pi));
}

// Joint::localAxisA of a def without an axis: local frame A's x axis (its frameAngleA), kept for the
// local-frame getters (joint_frames.cpp); an angle of 0 (the default) skips the sine and cosine.
Vec2 FrameAxisA(float angle) {
  if (angle == 0.0f) return {1.0f, 0.0f};
  const Rot q = MakeRot(UnwindAngle(angle));
  return {q.c, q.s};
}

Rot BodyRot(const WorldState& world, int body) { return body == kNull ? Rot{} : world.bodies[body].xf.q; }

// World anchor points of a joint (mouse: A's anchor is the target).
void WorldAnchors(const WorldState& world, const Joint& j, Pos& pA, Pos& pB) {
  int a = j.edges[0].body;
  pA = a == kNull ? j.target : TransformPoint(world.bodies[a].xf, j.localAnchorA);
  pB = TransformPoint(world.bodies[j.edges[1].body].xf, j.localAnchorB);
}

}  // namespace

// --- Internal operations (world_internal.h) -------------------------------------------------------

// A stiffness (Hz) and damping ratio the softness coefficients can take without overflow (kMaxHertz,
// kMaxDampingRatio, world_types.h).
bool ValidJointHertz(float hertz) { return NonNegative(hertz) && hertz <= kMaxHertz; }
bool ValidJointDamping(float ratio) { return NonNegative(ratio) && ratio <= kMaxDampingRatio; }
bool ValidThreshold(float threshold) { return threshold >= 0.0f; }  // false for NaN; +inf allowed
float UnwindJointAngle(float angle) { return UnwindAngle(angle); }

void BreakJoints(WorldState& world) {
  world.jointEvents.clear();
  if (!world.mayBreakJoints) return;
  // Only the joints this Step solved have a new reaction. Their inputs point into world.joints,
  // which destroying a joint does not move.
  for (const JointInput& input : world.jointInputs) {
    Joint& j = static_cast<Joint&>(*input.joint);
    const bool exceeded =
        Length(j.reactionForce) > j.forceThreshold || std::fabs(j.reactionTorque) > j.torqueThreshold;
    if (!exceeded) continue;
    const int slot = static_cast<int>(&j - world.joints.data());
    world.jointEvents.push_back(
        {world.MakeJointId(slot), j.userData, j.reactionForce, j.reactionTorque, j.destroyOnBreak});
    if (j.destroyOnBreak) DestroyJointInternal(world, slot);
  }
}

void DestroyJointInternal(WorldState& world, int slot) {
  Joint& j = world.joints[slot];
  for (int side = 0; side < 2; ++side) {
    if (j.edges[side].body == kNull) continue;
    WakeBody(world, j.edges[side].body);
    UnlinkJointEdge(world, slot, side);
  }
  RefilterJointBodies(world, j);
  world.jointIds.Free(slot);
}

void DestroyJointsOfBody(WorldState& world, int body) {
  while (world.bodies[body].headJointEdge != kNull)
    DestroyJointInternal(world, world.bodies[body].headJointEdge >> 1);
}

bool JointBlocksCollision(const WorldState& world, int bodyA, int bodyB) {
  for (int key = world.bodies[bodyA].headJointEdge; key != kNull;) {
    const Joint& j = world.joints[key >> 1];
    if (!j.collideConnected && j.edges[(key & 1) ^ 1].body == bodyB) return true;
    key = j.edges[key & 1].next;
  }
  return false;
}

namespace {

// Whether a joint's awake end `other` keeps its partner going: a dynamic body, or a moving kinematic.
bool Drives(const WorldState& world, int other) {
  const Body& b = world.bodies[other];
  if (!b.awake || !b.enabled) return false;
  return b.type == BodyType::Dynamic || LengthSquared(b.linearVelocity) > 0.0f || b.angularVelocity != 0.0f;
}

bool WakesSleeper(const WorldState& world, int sleeper, int other) {
  const Body& body = world.bodies[sleeper];
  return !body.awake && body.enabled && body.type == BodyType::Dynamic && Drives(world, other);
}

// Whether joint `slot` would wake one of its ends now.
bool JointWakes(const WorldState& world, int slot) {
  if (!world.jointIds.IsLive(slot)) return false;
  const auto [a, b] = world.jointEnds[slot];
  return a != kNull && (WakesSleeper(world, a, b) || WakesSleeper(world, b, a));
}

// Whether any joint would wake one of its ends, read on the workers. A read-only OR, the same for any
// split.
bool AnyJointWakes(const WorldState& world) {
  std::atomic<bool> any{false};
  ParallelFor(&world.tasks, world.jointIds.Capacity(), kMinJointsPerRange, [&](int begin, int end) {
    bool found = false;
    for (int slot = begin; slot < end && !found; ++slot) found = JointWakes(world, slot);
    if (found) any.store(true, std::memory_order_relaxed);
  });
  return any.load(std::memory_order_relaxed);
}

}  // namespace

void WakeJointPartners(WorldState& world) {
  // A sleeping dynamic body jointed to an awake dynamic body, or to a moving kinematic one, wakes
  // (with its sleep group). Kinematic bodies are never woken by what hangs on them.
  if (!MayHaveSleepers(world)) return;
  // Almost every step wakes nobody. With workers, they read the joints first (two bodies' lines a
  // joint: rain's 10,000 ragdoll joints were 0.7% of its calling thread's samples on two workers),
  // and the pass below runs only when some joint wakes a body. It stays serial: a body woken early,
  // with its sleep group, changes what the joints after it see.
  if (HasWorkers(&world.tasks) && world.jointIds.Capacity() > kMinJointsPerRange && !AnyJointWakes(world))
    return;
  for (int slot = 0; slot < world.jointIds.Capacity(); ++slot) {
    if (!world.jointIds.IsLive(slot)) continue;
    const auto [a, b] = world.jointEnds[slot];
    if (a == kNull) continue;
    for (auto [sleeper, other] : {std::pair{a, b}, std::pair{b, a}}) {
      if (WakesSleeper(world, sleeper, other)) WakeBody(world, sleeper);
    }
  }
}

// --- API ------------------------------------------------------------------------------------------

JointId World::CreateJoint(const RevoluteJointDef& def) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateRevoluteJoint, def);
  WorldState& world = *state_;
  bool valid = ValidBase(world, def) && IsFinite(def.referenceAngle) && IsFinite(def.frameAngleA) &&
               ValidRange(def.lowerAngle, def.upperAngle) && ValidAngularSpeed(def.motorSpeed) &&
               NonNegative(def.maxMotorTorque) && ValidHertz(def.hertz) && ValidDamping(def.dampingRatio);
  MK_ASSERT(valid);
  if (!valid) return {};
  int slot = NewJoint(world, JointType::Revolute, def);
  Joint& j = world.joints[slot];
  j.referenceAngle = UnwindAngle(def.referenceAngle);
  j.localAxisA = FrameAxisA(def.frameAngleA);
  j.enableLimit = def.enableLimit, j.lower = def.lowerAngle, j.upper = def.upperAngle;
  j.enableMotor = def.enableMotor, j.motorSpeed = def.motorSpeed, j.maxMotor = def.maxMotorTorque;
  j.enableSpring = def.enableSpring, j.hertz = def.hertz, j.dampingRatio = def.dampingRatio;
  return FinishJoint(world, slot);
}

JointId World::CreateJoint(const PrismaticJointDef& def) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreatePrismaticJoint, def);
  WorldState& world = *state_;
  bool valid = ValidBase(world, def) && ValidAxis(def.localAxisA) && IsFinite(def.referenceAngle) &&
               ValidRange(def.lowerTranslation, def.upperTranslation) && ValidLinearSpeed(def.motorSpeed) &&
               NonNegative(def.maxMotorForce) && ValidHertz(def.hertz) && ValidDamping(def.dampingRatio);
  MK_ASSERT(valid);
  if (!valid) return {};
  int slot = NewJoint(world, JointType::Prismatic, def);
  Joint& j = world.joints[slot];
  j.localAxisA = UnitAxis(def.localAxisA);
  j.referenceAngle = UnwindAngle(def.referenceAngle);
  j.enableLimit = def.enableLimit, j.lower = def.lowerTranslation, j.upper = def.upperTranslation;
  j.enableMotor = def.enableMotor, j.motorSpeed = def.motorSpeed, j.maxMotor = def.maxMotorForce;
  j.enableSpring = def.enableSpring, j.hertz = def.hertz, j.dampingRatio = def.dampingRatio;
  return FinishJoint(world, slot);
}

JointId World::CreateJoint(const DistanceJointDef& def) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateDistanceJoint, def);
  WorldState& world = *state_;
  // Lengths past kMaxWorldLength are clamped, not refused: maxLength's default means "no limit".
  bool valid = ValidBase(world, def) && IsFinite(def.length) && def.length > 0.0f &&
               NonNegative(def.minLength) && !(def.maxLength < def.minLength) && !std::isnan(def.maxLength) &&
               ValidHertz(def.hertz) && ValidDamping(def.dampingRatio) &&
               def.lowerSpringForce <= def.upperSpringForce && ValidLinearSpeed(def.motorSpeed) &&
               NonNegative(def.maxMotorForce);
  MK_ASSERT(valid);
  if (!valid) return {};
  int slot = NewJoint(world, JointType::Distance, def);
  Joint& j = world.joints[slot];
  j.length = std::min(def.length, kMaxWorldLength);
  j.enableLimit = def.enableLimit;
  j.lower = std::min(def.minLength, kMaxWorldLength);
  j.upper = std::min(def.maxLength, kMaxWorldLength);
  j.enableSpring = def.enableSpring, j.hertz = def.hertz, j.dampingRatio = def.dampingRatio;
  j.lowerSpringForce = def.lowerSpringForce, j.upperSpringForce = def.upperSpringForce;
  j.enableMotor = def.enableMotor, j.motorSpeed = def.motorSpeed, j.maxMotor = def.maxMotorForce;
  return FinishJoint(world, slot);
}

JointId World::CreateJoint(const WeldJointDef& def) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateWeldJoint, def);
  WorldState& world = *state_;
  bool valid = ValidBase(world, def) && IsFinite(def.referenceAngle) && IsFinite(def.frameAngleA) &&
               ValidHertz(def.linearHertz) && ValidHertz(def.angularHertz) &&
               ValidDamping(def.linearDampingRatio) && ValidDamping(def.angularDampingRatio);
  MK_ASSERT(valid);
  if (!valid) return {};
  int slot = NewJoint(world, JointType::Weld, def);
  Joint& j = world.joints[slot];
  j.referenceAngle = UnwindAngle(def.referenceAngle);
  j.localAxisA = FrameAxisA(def.frameAngleA);
  j.hertz = def.linearHertz, j.dampingRatio = def.linearDampingRatio;
  j.angularHertz = def.angularHertz, j.angularDampingRatio = def.angularDampingRatio;
  return FinishJoint(world, slot);
}

JointId World::CreateJoint(const WheelJointDef& def) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateWheelJoint, def);
  WorldState& world = *state_;
  bool valid = ValidBase(world, def) && ValidAxis(def.localAxisA) && ValidHertz(def.hertz) &&
               ValidDamping(def.dampingRatio) && ValidRange(def.lowerTranslation, def.upperTranslation) &&
               ValidAngularSpeed(def.motorSpeed) && NonNegative(def.maxMotorTorque);
  MK_ASSERT(valid);
  if (!valid) return {};
  int slot = NewJoint(world, JointType::Wheel, def);
  Joint& j = world.joints[slot];
  j.localAxisA = UnitAxis(def.localAxisA);
  j.enableSpring = def.enableSpring, j.hertz = def.hertz, j.dampingRatio = def.dampingRatio;
  j.enableLimit = def.enableLimit, j.lower = def.lowerTranslation, j.upper = def.upperTranslation;
  j.enableMotor = def.enableMotor, j.motorSpeed = def.motorSpeed, j.maxMotor = def.maxMotorTorque;
  return FinishJoint(world, slot);
}

JointId World::CreateJoint(const MouseJointDef& def) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateMouseJoint, def);
  WorldState& world = *state_;
  bool valid = world.IsBody(def.body) && ValidPosition(def.target) && ValidHertz(def.hertz) &&
               ValidDamping(def.dampingRatio) && NonNegative(def.maxForce);
  MK_ASSERT(valid);
  if (!valid) return {};
  int body = state_->BodySlot(def.body);
  int slot = NewJoint(world, JointType::Mouse, kNull, body);
  Joint& j = world.joints[slot];
  j.target = ToInternal(world, def.target);
  j.localAnchorB = InvTransformPoint(world.bodies[body].xf, j.target);  // the grabbed point
  j.hertz = def.hertz, j.dampingRatio = def.dampingRatio, j.maxForce = def.maxForce;
  j.collideConnected = true;  // nothing to collide with
  j.userData = def.userData;
  return FinishJoint(world, slot);
}

JointId World::CreateJoint(const MotorJointDef& def) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateMotorJoint, def);
  WorldState& world = *state_;
  bool valid = ValidBase(world, def) && ValidPoint(def.linearOffset) && IsFinite(def.angularOffset) &&
               IsFinite(def.frameAngleA) && NonNegative(def.maxForce) && NonNegative(def.maxTorque) &&
               def.correctionFactor >= 0.0f && def.correctionFactor <= 1.0f;
  MK_ASSERT(valid);
  if (!valid) return {};
  int slot = NewJoint(world, JointType::Motor, def);
  Joint& j = world.joints[slot];
  j.linearOffset = def.linearOffset;
  j.referenceAngle = UnwindAngle(def.angularOffset);  // the solver's joint angle is measured from it
  j.localAxisA = FrameAxisA(def.frameAngleA);
  j.maxForce = def.maxForce, j.maxMotor = def.maxTorque, j.correctionFactor = def.correctionFactor;
  return FinishJoint(world, slot);
}

JointId World::CreateJoint(const FilterJointDef& def) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateFilterJoint, def);
  WorldState& world = *state_;
  bool valid = ValidBase(world, def);
  MK_ASSERT(valid);
  if (!valid) return {};
  int slot = NewJoint(world, JointType::Filter, def);
  world.joints[slot].collideConnected = false;  // its one purpose
  return FinishJoint(world, slot);
}

Span<const JointEvent> World::GetJointEvents() const { return state_->jointEvents; }

bool World::DestroyJoint(JointId id) {
  if (RefuseIfLocked(*state_)) return false;
  RecordCall(recorder_.get(), ReplayOp::DestroyJoint, id);
  MK_ASSERT(state_->IsJoint(id));
  if (!state_->IsJoint(id)) return false;
  DestroyJointInternal(*state_, state_->JointSlot(id));
  return true;
}

bool World::IsValid(JointId id) const { return state_->IsJoint(id); }

JointType World::GetJointType(JointId id) const {
  const Joint* j = FindJoint(*state_, id);
  return j ? j->type : JointType::Revolute;
}

void World::SetUserData(JointId id, void* userData) {
  if (Joint* j = FindJoint(*state_, id)) j->userData = userData;
}

// Quiet on a stale id (no MK_ASSERT): games read it with ids from events, which may be stale.
void* World::GetUserData(JointId id) const {
  const int slot = state_->JointSlot(id);
  return slot != kNull ? state_->joints[slot].userData : nullptr;
}

Vec2 World::GetJointReactionForce(JointId id) const {
  const Joint* j = FindJoint(*state_, id);
  return j ? j->reactionForce : Vec2{0.0f, 0.0f};
}

float World::GetJointReactionTorque(JointId id) const {
  const Joint* j = FindJoint(*state_, id);
  return j ? j->reactionTorque : 0.0f;
}

float World::GetRevoluteAngle(JointId id) const {
  const Joint* j = FindJoint(*state_, id);
  bool ok = j && j->type == JointType::Revolute;
  MK_ASSERT(!j || ok);
  if (!ok) return 0.0f;
  return WrapAngle(Angle(InvMulRot(BodyRot(*state_, j->edges[0].body), BodyRot(*state_, j->edges[1].body))) -
                   j->referenceAngle);
}

float World::GetPrismaticTranslation(JointId id) const {
  const Joint* j = FindJoint(*state_, id);
  bool ok = j && (j->type == JointType::Prismatic || j->type == JointType::Wheel);
  MK_ASSERT(!j || ok);
  if (!ok) return 0.0f;
  Pos pA, pB;
  WorldAnchors(*state_, *j, pA, pB);
  return Dot(Rotate(BodyRot(*state_, j->edges[0].body), j->localAxisA), pB - pA);
}

float World::GetDistanceJointLength(JointId id) const {
  const Joint* j = FindJoint(*state_, id);
  bool ok = j && j->type == JointType::Distance;
  MK_ASSERT(!j || ok);
  if (!ok) return 0.0f;
  Pos pA, pB;
  WorldAnchors(*state_, *j, pA, pB);
  return Length(pB - pA);
}

void World::SetMotorSpeed(JointId id, float speed) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetMotorSpeed, id, speed);
  Joint* j = FindJoint(*state_, id);
  const bool linear = j && (j->type == JointType::Prismatic || j->type == JointType::Distance);
  bool ok = j && (linear ? ValidLinearSpeed(speed) : ValidAngularSpeed(speed)) &&
            (j->type == JointType::Revolute || j->type == JointType::Wheel || linear);
  MK_ASSERT(!j || ok);
  if (!ok || j->motorSpeed == speed) return;
  j->motorSpeed = speed;
  WakeBody(*state_, j->edges[0].body);
  WakeBody(*state_, j->edges[1].body);
}

void World::SetMouseTarget(JointId id, Pos target) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetMouseTarget, id, target);
  Joint* j = FindJoint(*state_, id);
  bool ok = j && ValidPosition(target) && j->type == JointType::Mouse;
  MK_ASSERT(!j || ok);
  if (!ok) return;
  j->target = ToInternal(*state_, target);
  WakeBody(*state_, j->edges[1].body);
}

}  // namespace mk
