// SPDX-License-Identifier: MIT
// World API, bodies (Box2D v3's body features, issue 29): motion locks, changing the type at run time,
// mass data overrides, kinematic targets, sleep thresholds, the body's shapes and joints, frame
// conversions and names. Each entry validates ids and values first (MK_ASSERT + neutral result).
#include "minkowski/assert.h"
#include "minkowski/world.h"
#include "solver/solver_types.h"  // ClampLinearSpeed, ClampAngularSpeed, MakeStepContext
#include "world/persistence/recorder.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace mk {

namespace {

// A body's joints' other bodies woken (SetType: a body that changes type changes what they hang from).
void WakeJointPartners(WorldState& world, int slot) {
  for (int key = world.bodies[slot].headJointEdge; key != kNull;) {
    const Joint& joint = world.joints[key >> 1];
    const int other = joint.edges[(key & 1) ^ 1].body;
    if (other != kNull) WakeBody(world, other);
    key = joint.edges[key & 1].next;
  }
}

}  // namespace

void World::SetMotionLocks(BodyId id, MotionLocks locks) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetMotionLocks, id, locks);
  if (FindBody(*state_, id)) SetBodyLocks(*state_, state_->BodySlot(id), LocksOf(locks, false));
}

MotionLocks World::GetMotionLocks(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  if (!b) return {};
  return {(b->locks & kLockLinearX) != 0, (b->locks & kLockLinearY) != 0, (b->locks & kLockAngular) != 0};
}

// All of the body's contacts go with its proxies and come back from the next Step's broadphase as the
// pair rules for the new type allow (a proxy's static or moving kind follows the type), as v3 remakes
// the proxies. Waking first takes the body out of its sleep group.
void World::SetType(BodyId id, BodyType type) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetType, id, type);
  Body* b = FindBody(*state_, id);
  MK_ASSERT(type <= BodyType::Dynamic);
  if (!b || type > BodyType::Dynamic || b->type == type) return;
  WorldState& world = *state_;
  const int slot = world.BodySlot(id);
  // A static or kinematic body's shapes are checked alone (they give it no mass): their sum is
  // checked here, where it becomes the body's mass.
  const bool usable = type != BodyType::Dynamic || ShapeMassSum(world, slot).Finite();
  MK_ASSERT(usable && "the body's shapes together are heavier than kMaxBodyMass or kMaxBodyInertia");
  if (!usable) return;
  WakeBody(world, slot);
  WakeTouchingBodies(world, slot);
  WakeJointPartners(world, slot);
  if (b->enabled) SetBodyShapesInBroadphase(world, slot, false);
  b->type = type;
  b->massOverride = {};
  b->force = {0.0f, 0.0f};
  b->torque = 0.0f;
  b->sleepTime = 0.0f;
  if (type == BodyType::Static) {
    b->linearVelocity = {0.0f, 0.0f};
    b->angularVelocity = 0.0f;
  }
  b->awake = type != BodyType::Static;
  BodyMassChanged(world, slot);
  SetBodyAwakeBit(world, slot);
  if (b->enabled) SetBodyShapesInBroadphase(world, slot, true);
}

MassData World::GetMassData(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  if (!b) return {};
  // The inertia a rotation lock hides (Body::inertia is 0 then) is still the body's.
  float inertia = b->inertia;
  if ((b->locks & kLockAngular) && b->type == BodyType::Dynamic) {
    inertia = b->massOverride.rotationalInertia;
    if (b->massOverride.mass == 0.0f) {
      const BodyMassSum sum = ShapeMassSumOf(*state_, state_->BodySlot(id));
      inertia = std::max(sum.inertiaAtOrigin - sum.mass * LengthSquared(b->localCenter), 0.0f);
    }
  }
  return {b->mass, b->localCenter, inertia};
}

void World::SetMassData(BodyId id, const MassData& data) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetMassData, id, data.mass, data.center, data.rotationalInertia);
  Body* b = FindBody(*state_, id);
  const bool valid = IsFinite(data.mass) && data.mass > 0.0f && data.rotationalInertia >= 0.0f &&
                     ValidPoint(data.center) && MassIsUsable(data);
  MK_ASSERT(valid);
  if (!b || !valid) return;
  MK_ASSERT(b->type == BodyType::Dynamic);  // static and kinematic bodies have no mass
  if (b->type != BodyType::Dynamic) return;
  b->massOverride = data;
  BodyMassChanged(*state_, state_->BodySlot(id));
}

void World::ApplyMassFromShapes(BodyId id) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::ApplyMassFromShapes, id);
  Body* b = FindBody(*state_, id);
  if (!b) return;
  b->massOverride = {};
  BodyMassChanged(*state_, state_->BodySlot(id));
}

// The linear velocity is the centre's displacement over the step. The sub-steps turn a body by
// atan(h w) each (TurnRotation: the rotation (1, h w), normalised), so the n sub-steps of the Step turn
// it by the whole `turn` when w = tan(turn / n) / h, not turn / dt (which falls short by about
// (h w)^3 / 3 a sub-step: 0.02 rad for a turn of 1 rad in four sub-steps).
void World::SetTargetTransform(BodyId id, const WorldTransform& target, float timeStep) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetTargetTransform, id, target.p, target.q.c, target.q.s, timeStep);
  Body* b = FindBody(*state_, id);
  const float qLength2 = target.q.c * target.q.c + target.q.s * target.q.s;
  const bool valid = ValidPosition(target.p) && IsFinite(target.q.c) && IsFinite(target.q.s) &&
                     std::fabs(qLength2 - 1.0f) < 1e-3f && timeStep >= kMinTimeStep &&
                     timeStep <= kMaxTimeStep;
  MK_ASSERT(valid);
  if (!b || !valid) return;
  MK_ASSERT(b->type != BodyType::Static);
  if (b->type == BodyType::Static) return;
  const StepContext context = MakeStepContext(timeStep, state_->settings);
  const float subSteps = std::round(timeStep * context.invH);
  const Pos targetCenter = TransformPoint(ToInternal(*state_, target), b->localCenter);
  const float turn = Angle(InvMulRot(b->xf.q, target.q));
  const Vec2 v = (1.0f / timeStep) * (targetCenter - b->center);
  const float w = std::tan(turn / subSteps) * context.invH;
  b->linearVelocity = LockedVelocity(b->locks, ClampLinearSpeed(v, state_->settings.maxLinearSpeed));
  b->angularVelocity = (b->locks & kLockAngular) ? 0.0f : ClampAngularSpeed(w);
  WakeBody(*state_, state_->BodySlot(id));
}

bool World::IsSleepEnabled(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->enableSleep : false;
}

void World::SetSleepThreshold(BodyId id, float threshold) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetSleepThreshold, id, threshold);
  Body* b = FindBody(*state_, id);
  const bool valid = IsFinite(threshold) && threshold >= 0.0f;
  MK_ASSERT(valid);
  if (b && valid) b->sleepThreshold = threshold;
}

float World::GetSleepThreshold(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->sleepThreshold : 0.0f;
}

void World::WakeTouching(BodyId id) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::WakeTouching, id);
  if (FindBody(*state_, id)) WakeTouchingBodies(*state_, state_->BodySlot(id));
}

int World::GetShapeCount(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  int count = 0;
  for (int s = b ? b->headShape : kNull; s != kNull; s = state_->shapes[s].nextShape) ++count;
  return count;
}

int World::GetShapes(BodyId id, Span<ShapeId> out) const {
  const Body* b = FindBody(*state_, id);
  std::size_t count = 0;
  for (int s = b ? b->headShape : kNull; s != kNull && count < out.size(); s = state_->shapes[s].nextShape) {
    out[count++] = state_->MakeShapeId(s);
  }
  return static_cast<int>(count);
}

int World::GetJointCount(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  int count = 0;
  for (int key = b ? b->headJointEdge : kNull; key != kNull;
       key = state_->joints[key >> 1].edges[key & 1].next)
    ++count;
  return count;
}

int World::GetJoints(BodyId id, Span<JointId> out) const {
  const Body* b = FindBody(*state_, id);
  std::size_t count = 0;
  for (int key = b ? b->headJointEdge : kNull; key != kNull && count < out.size();
       key = state_->joints[key >> 1].edges[key & 1].next) {
    out[count++] = state_->MakeJointId(key >> 1);
  }
  return static_cast<int>(count);
}

Vec2 World::GetLocalPoint(BodyId id, Pos worldPoint) const {
  const Body* b = FindBody(*state_, id);
  return b ? InvTransformPoint(b->xf, ToInternal(*state_, worldPoint)) : Vec2{0.0f, 0.0f};
}

Pos World::GetWorldPoint(BodyId id, Vec2 localPoint) const {
  const Body* b = FindBody(*state_, id);
  return b ? ToWorld(*state_, TransformPoint(b->xf, localPoint)) : Pos{0.0f, 0.0f};
}

Vec2 World::GetLocalVector(BodyId id, Vec2 worldVector) const {
  const Body* b = FindBody(*state_, id);
  return b ? InvRotate(b->xf.q, worldVector) : Vec2{0.0f, 0.0f};
}

Vec2 World::GetWorldVector(BodyId id, Vec2 localVector) const {
  const Body* b = FindBody(*state_, id);
  return b ? Rotate(b->xf.q, localVector) : Vec2{0.0f, 0.0f};
}

Vec2 World::GetLocalPointVelocity(BodyId id, Vec2 localPoint) const {
  const Body* b = FindBody(*state_, id);
  return b ? GetWorldPointVelocity(id, ToWorld(*state_, TransformPoint(b->xf, localPoint)))
           : Vec2{0.0f, 0.0f};
}

Vec2 World::GetWorldPointVelocity(BodyId id, Pos worldPoint) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->linearVelocity + Cross(b->angularVelocity, ToInternal(*state_, worldPoint) - b->center)
           : Vec2{0.0f, 0.0f};
}

void World::SetName(BodyId id, const char* name) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetName, id, BodyName::Of(name));
  if (!FindBody(*state_, id)) return;
  const auto slot = static_cast<std::size_t>(state_->BodySlot(id));
  if (state_->bodyNames.size() <= slot) state_->bodyNames.resize(slot + 1);
  state_->bodyNames[slot] = BodyName::Of(name);
}

const char* World::GetName(BodyId id) const {
  if (!FindBody(*state_, id)) return "";
  const auto slot = static_cast<std::size_t>(state_->BodySlot(id));
  return slot < state_->bodyNames.size() ? state_->bodyNames[slot].text : "";
}

}  // namespace mk
