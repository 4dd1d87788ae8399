// SPDX-License-Identifier: MIT
// World API, bodies: creation, destruction, motion, forces and impulses, mass, flags; and a body's
// mass properties from its shapes. Every entry validates its ids and values first (MK_ASSERT +
// neutral result on misuse).
#include "minkowski/assert.h"
#include "minkowski/world.h"
#include "solver/solver_types.h"  // ClampLinearSpeed, ClampAngularSpeed: the solver's speed limits
#include "world/persistence/recorder.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mk {

std::uint8_t LocksOf(const MotionLocks& locks, bool fixedRotation) {
  return static_cast<std::uint8_t>((locks.linearX ? kLockLinearX : 0) | (locks.linearY ? kLockLinearY : 0) |
                                   (locks.angularZ || fixedRotation ? kLockAngular : 0));
}

// The velocities along newly locked axes become 0, the mass follows (UpdateBodyMass), and the solver's
// list of locked bodies is rebuilt at the next Step.
void SetBodyLocks(WorldState& world, int slot, int locks) {
  Body& body = world.bodies[slot];
  if (body.locks == locks) return;
  body.locks = static_cast<std::uint8_t>(locks);
  body.linearVelocity = LockedVelocity(body.locks, body.linearVelocity);
  if (body.locks & kLockAngular) body.angularVelocity = 0.0f;
  BodyMassChanged(world, slot);
  world.solverBodiesStale = true;
}

namespace {

bool ValidBodyDef(const BodyDef& def) {
  return def.type <= BodyType::Dynamic && ValidPosition(def.position) && IsFinite(def.angle) &&
         IsFinite(def.linearVelocity) && IsFinite(def.angularVelocity) && IsFinite(def.linearDamping) &&
         def.linearDamping >= 0.0f && IsFinite(def.angularDamping) && def.angularDamping >= 0.0f &&
         IsFinite(def.gravityScale) && IsFinite(def.sleepThreshold) && def.sleepThreshold >= 0.0f;
}

}  // namespace

MassData ShapeMass(const WorldState& world, int shapeSlot) {
  return ComputeMass(world.geometries[shapeSlot], world.shapes[shapeSlot].density).value;
}

void BodyMassSum::Add(const MassData& data) {
  if (data.mass <= 0.0f) return;
  mass += data.mass;
  moment += data.mass * data.center;
  inertiaAtOrigin += data.rotationalInertia + data.mass * LengthSquared(data.center);
}

namespace {

// The body's shapes in the order they were made (its list runs from the newest).
std::vector<int> ShapesOldestFirst(const WorldState& world, int bodySlot) {
  std::vector<int> order;
  for (int s = world.bodies[bodySlot].headShape; s != kNull; s = world.shapes[s].nextShape)
    order.push_back(s);
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace

BodyMassSum ShapeMassSumWith(const WorldState& world, int bodySlot, int shape, const MassData& mass) {
  BodyMassSum sum;
  for (int s : ShapesOldestFirst(world, bodySlot)) sum.Add(s == shape ? mass : ShapeMass(world, s));
  return sum;
}

BodyMassSum ShapeMassSumOf(const WorldState& world, int bodySlot) {
  const auto index = static_cast<std::size_t>(bodySlot);
  if (index < world.bodyShapeMass.size() && world.bodyShapeMass[index].known)
    return world.bodyShapeMass[index].sum;
  return ShapeMassSumWith(world, bodySlot, kNull, MassData{});  // no shape replaced
}

const BodyMassSum& ShapeMassSum(WorldState& world, int bodySlot) {
  const auto index = static_cast<std::size_t>(bodySlot);
  if (index >= world.bodyShapeMass.size()) world.bodyShapeMass.resize(index + 1);
  KnownMassSum& cached = world.bodyShapeMass[index];
  if (!cached.known) cached = {ShapeMassSumOf(world, bodySlot), true};
  return cached.sum;
}

void AddToShapeMassSum(WorldState& world, int bodySlot, const MassData& mass) {
  const auto index = static_cast<std::size_t>(bodySlot);
  if (index < world.bodyShapeMass.size() && world.bodyShapeMass[index].known)
    world.bodyShapeMass[index].sum.Add(mass);
}

bool SumStaysUsable(WorldState& world, int bodySlot, int shape, const MassData& mass) {
  if (world.bodies[bodySlot].type != BodyType::Dynamic) return true;  // no mass: the shape alone counts
  if (shape != kNull) return ShapeMassSumWith(world, bodySlot, shape, mass).Finite();
  BodyMassSum sum = ShapeMassSum(world, bodySlot);
  sum.Add(mass);
  return sum.Finite();
}

void ForgetShapeMassSum(WorldState& world, int bodySlot) {
  const auto index = static_cast<std::size_t>(bodySlot);
  if (index < world.bodyShapeMass.size()) world.bodyShapeMass[index].known = false;
}

// Mass, centre and inertia about it from the sum about the origin (parallel axis theorem).
static void ResolveMass(const BodyMassSum& sum, float& mass, Vec2& localCenter, float& inertia) {
  mass = sum.mass;
  localCenter = sum.mass > 0.0f ? sum.moment * (1.0f / sum.mass) : Vec2{0.0f, 0.0f};
  inertia = sum.inertiaAtOrigin - sum.mass * LengthSquared(localCenter);
}

// Mass and inertia within the world's bounds (world_types.h) with finite inverses when not 0.
static bool MassInBounds(float mass, float inertia) {
  return mass <= kMaxBodyMass && inertia <= kMaxBodyInertia && (mass == 0.0f || IsFinite(1.0f / mass)) &&
         (inertia <= 0.0f || IsFinite(1.0f / inertia));
}

bool MassIsUsable(const MassData& data) {
  return IsFinite(data.mass) && IsFinite(data.center) && IsFinite(data.rotationalInertia) &&
         MassInBounds(data.mass, data.rotationalInertia);
}

bool BodyMassSum::Finite() const {
  float m, i;
  Vec2 c;
  ResolveMass(*this, m, c, i);
  return IsFinite(m) && IsFinite(c) && IsFinite(i) && MassInBounds(m, i);
}

// Distance from the centre of a shape's core (the mean of its points) to its surface: the radius, plus
// for a polygon the nearest edge. What continuous collision compares a body's motion with.
namespace {
float InnerExtent(const ShapeGeometry& geometry) {
  const Vec2* points = geometry.Points();
  const int count = geometry.Count();
  Vec2 centre{0.0f, 0.0f};
  for (int i = 0; i < count; ++i) centre += points[i];
  centre *= 1.0f / static_cast<float>(count);
  float inner = 0.0f;
  if (geometry.Type() == ShapeType::Polygon) {
    inner = kMaxWorldLength;
    for (int i = 0; i < count; ++i) inner = std::min(inner, Dot(geometry.Normals()[i], points[i] - centre));
  }
  return geometry.Radius() + std::max(inner, 0.0f);
}
}  // namespace

// Sums the shapes' mass properties about the body origin, then moves the inertia to the centre of
// mass; or takes World::SetMassData's values while they override the shapes'. Only dynamic bodies
// have mass; a dynamic body without mass gets 1 kg so it still falls (Box2D's convention), with no
// rotational inertia. A rotation lock zeroes the inertia, both linear locks the inverse mass (the
// mass stays: GetMass reports it).
void UpdateBodyMass(WorldState& world, int bodySlot) {
  Body& body = world.bodies[bodySlot];
  body.mass = body.invMass = body.inertia = body.invInertia = 0.0f;
  body.localCenter = {0.0f, 0.0f};
  if (body.type != BodyType::Dynamic) {
    body.center = body.xf.p;
    return;
  }
  float mass, inertia;
  if (body.massOverride.mass > 0.0f) {
    mass = body.massOverride.mass;
    body.localCenter = body.massOverride.center;
    inertia = body.massOverride.rotationalInertia;
  } else {
    ResolveMass(ShapeMassSum(world, bodySlot), mass, body.localCenter, inertia);
  }
  if (mass > 0.0f) {
    body.mass = mass;
    body.invMass = 1.0f / mass;
    if (inertia > 0.0f && !(body.locks & kLockAngular)) {
      body.inertia = inertia;
      body.invInertia = 1.0f / inertia;
    }
  } else {
    body.mass = 1.0f;
    body.invMass = 1.0f;
  }
  if ((body.locks & kLockLinear) == kLockLinear) body.invMass = 0.0f;
  // Keep the body origin fixed; the centre of mass moves with the new local centre.
  body.center = TransformPoint(body.xf, body.localCenter);
  body.maxExtent = 0.0f;
  body.minExtent = kMaxWorldLength;
  body.turnExtent = 0.0f;
  for (int s = body.headShape; s != kNull; s = world.shapes[s].nextShape) {
    const ShapeGeometry& geometry = world.geometries[s];
    AABB box = ComputeAABB(geometry, Transform{});
    Vec2 far = Max(box.upper - body.localCenter, body.localCenter - box.lower);
    body.maxExtent = std::max(body.maxExtent, Length(far));
    body.minExtent = std::min(body.minExtent, InnerExtent(geometry));
    for (int i = 0; i < geometry.Count(); ++i) {
      body.turnExtent = std::max(body.turnExtent, Length(geometry.Points()[i] - body.localCenter));
    }
  }
  // The slop floor keeps a body of segments (no inside) from counting as fast at any speed.
  body.minExtent = std::max(body.minExtent, world.settings.linearSlop);
}

// Kept, impulses solved for the old mass come back at the first sub-step of the next step through
// warm starting: a body made a million times lighter gets them as a million times the speed change.
// fuzz_replay found a 1 kg body on a prismatic joint given a 3e-13 kg shape instead (a spin of
// 1e27 rad/s from the joint's angular impulse, then an overflow to NaN in the joint's next solve).
// They restart from zero, as a capped body's do (DropCappedImpulses, solver.cpp).
void BodyMassChanged(WorldState& world, int bodySlot) {
  const Body& body = world.bodies[bodySlot];
  const float invMass = body.invMass, invInertia = body.invInertia;
  UpdateBodyMass(world, bodySlot);
  if (body.invMass == invMass && body.invInertia == invInertia) return;
  for (int key = body.headContactEdge; key != kNull;) {
    Contact& contact = world.contacts[key >> 1];
    for (ManifoldPoint& point : contact.manifold.points) point.normalImpulse = point.tangentImpulse = 0.0f;
    key = contact.edges[key & 1].next;
  }
  for (int key = body.headJointEdge; key != kNull;) {
    Joint& joint = world.joints[key >> 1];
    joint.impulses = {};
    key = joint.edges[key & 1].next;
  }
}

// Speeds given to a body are clamped to the solver's limits (world_types.h) at the call, not only in
// the solver: products the solver forms with a velocity before it integrates (relative contact
// speeds, restitution) then stay finite.
BodyId World::CreateBody(const BodyDef& def) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateBody, def);
  MK_ASSERT(ValidBodyDef(def));
  if (!ValidBodyDef(def)) return {};
  WorldState& world = *state_;
  int slot = world.bodyIds.Allocate();
  if (slot >= static_cast<int>(world.bodies.size())) world.bodies.resize(slot + 1);
  Body& body = world.bodies[slot];
  body = Body{};
  ForgetShapeMassSum(world, slot);  // the slot's last body's
  if (static_cast<std::size_t>(slot) < world.bodyNames.size()) world.bodyNames[slot] = {};
  body.type = def.type;
  body.xf = MakeWorldTransform(ToInternal(world, def.position), def.angle);
  body.center = body.xf.p;
  body.locks = LocksOf(def.motionLocks, def.fixedRotation);
  if (def.type != BodyType::Static) {
    body.linearVelocity =
        LockedVelocity(body.locks, ClampLinearSpeed(def.linearVelocity, world.settings.maxLinearSpeed));
    body.angularVelocity = (body.locks & kLockAngular) ? 0.0f : ClampAngularSpeed(def.angularVelocity);
  }
  body.linearDamping = def.linearDamping;
  body.angularDamping = def.angularDamping;
  body.gravityScale = def.gravityScale;
  body.sleepThreshold = def.sleepThreshold;
  body.enableSleep = def.enableSleep;
  body.isBullet = def.isBullet;
  body.enabled = def.isEnabled;
  body.awake = def.type != BodyType::Static && def.isAwake;
  body.userData = def.userData;
  UpdateBodyMass(world, slot);
  if (!body.awake && def.type != BodyType::Static) {  // created asleep: an island of its own
    body.awake = true;
    PutIslandToSleep(world, slot);
  }
  SetBodyAwakeBit(world, slot);  // also clears a destroyed body's bit if this slot is reused
  const BodyId id = world.MakeBodyId(slot);
  // The replay's CreateBody record keeps the BodyDef of version 1 (replay_format.h): the locks follow as
  // a call of their own, which gives the same body (SetMotionLocks on a new body changes only them).
  if (def.motionLocks.linearX || def.motionLocks.linearY || def.motionLocks.angularZ)
    RecordCall(recorder_.get(), ReplayOp::SetMotionLocks, id, GetMotionLocks(id));
  return id;
}

bool World::DestroyBody(BodyId id) {
  if (RefuseIfLocked(*state_)) return false;
  RecordCall(recorder_.get(), ReplayOp::DestroyBody, id);
  MK_ASSERT(state_->IsBody(id));
  if (!state_->IsBody(id)) return false;
  WorldState& world = *state_;
  int slot = state_->BodySlot(id);
  // Waking first takes the body out of its sleep group (whose member list would otherwise keep
  // pointing at the freed slot) and wakes what it rested on or hung from.
  WakeBody(world, slot);
  DestroyJointsOfBody(world, slot);
  FreeChainsOfBody(world, slot);
  // The shapes' contacts as DestroyShapeInternal head first would end them, found in one walk of the
  // body's contacts; then the shapes.
  DestroyContactsOfBody(world, slot);
  while (world.bodies[slot].headShape != kNull)
    RemoveShapeWithoutContacts(world, world.bodies[slot].headShape, false);
  WakeTouchingBodies(world, slot);
  world.bodyIds.Free(slot);
  SetBodyAwakeBit(world, slot);
  return true;
}

bool World::IsValid(BodyId id) const { return state_->IsBody(id); }

BodyType World::GetBodyType(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->type : BodyType::Static;
}

Pos World::GetPosition(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? ToWorld(*state_, b->xf.p) : Pos{0.0f, 0.0f};
}

float World::GetAngle(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? Angle(b->xf.q) : 0.0f;
}

WorldTransform World::GetTransform(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? ToWorld(*state_, b->xf) : WorldTransform{};
}

void World::SetTransform(BodyId id, Pos position, float angle) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetTransform, id, position, angle);
  Body* b = FindBody(*state_, id);
  MK_ASSERT(ValidPosition(position) && IsFinite(angle));
  if (!b || !ValidPosition(position) || !IsFinite(angle)) return;
  b->xf = MakeWorldTransform(ToInternal(*state_, position), angle);
  b->center = TransformPoint(b->xf, b->localCenter);
  int slot = state_->BodySlot(id);
  UpdateBodyShapesInBroadphase(*state_, slot, /*teleport=*/true);
  if (b->type != BodyType::Static) WakeBody(*state_, slot);
}

Vec2 World::GetLinearVelocity(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->linearVelocity : Vec2{0.0f, 0.0f};
}

void World::SetLinearVelocity(BodyId id, Vec2 velocity) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetLinearVelocity, id, velocity);
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(velocity));
  if (!b || !IsFinite(velocity) || b->type == BodyType::Static) return;
  b->linearVelocity = LockedVelocity(b->locks, ClampLinearSpeed(velocity, state_->settings.maxLinearSpeed));
  if (LengthSquared(velocity) > 0.0f) WakeBody(*state_, state_->BodySlot(id));
}

float World::GetAngularVelocity(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->angularVelocity : 0.0f;
}

void World::SetAngularVelocity(BodyId id, float omega) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetAngularVelocity, id, omega);
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(omega));
  if (!b || !IsFinite(omega) || b->type == BodyType::Static || (b->locks & kLockAngular)) return;
  b->angularVelocity = ClampAngularSpeed(omega);
  if (omega != 0.0f) WakeBody(*state_, state_->BodySlot(id));
}

void World::ApplyForce(BodyId id, Vec2 force, Pos worldPoint, bool wake) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::ApplyForce, id, force, worldPoint, wake);
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(force) && IsFinite(worldPoint));
  if (!b || !IsFinite(force) || !IsFinite(worldPoint) || b->type != BodyType::Dynamic) return;
  int slot = state_->BodySlot(id);
  if (wake) WakeBody(*state_, slot);
  if (!b->awake) return;  // forces on sleeping bodies are dropped, as in Box2D
  const Vec2 newForce = b->force + force;
  const float newTorque = b->torque + Cross(ToInternal(*state_, worldPoint) - b->center, force);
  const bool finite = IsFinite(newForce) && IsFinite(newTorque);
  MK_ASSERT(finite);  // the accumulated force or torque would overflow
  if (!finite) return;
  b->force = newForce;
  b->torque = newTorque;
}

void World::ApplyForceToCenter(BodyId id, Vec2 force, bool wake) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::ApplyForceToCenter, id, force, wake);
  const PauseRecording pause(recorder_);  // the calls it makes are part of this one, not records
  Body* b = FindBody(*state_, id);
  if (b) ApplyForce(id, force, b->center, wake);
}

void World::ApplyTorque(BodyId id, float torque, bool wake) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::ApplyTorque, id, torque, wake);
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(torque));
  if (!b || !IsFinite(torque) || b->type != BodyType::Dynamic) return;
  if (wake) WakeBody(*state_, state_->BodySlot(id));
  if (!b->awake) return;
  const bool finite = IsFinite(b->torque + torque);
  MK_ASSERT(finite);  // the accumulated torque would overflow
  if (finite) b->torque += torque;
}

void World::ApplyLinearImpulse(BodyId id, Vec2 impulse, Pos worldPoint, bool wake) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::ApplyLinearImpulse, id, impulse, worldPoint, wake);
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(impulse) && IsFinite(worldPoint));
  if (!b || !IsFinite(impulse) || !IsFinite(worldPoint) || b->type != BodyType::Dynamic) return;
  if (wake) WakeBody(*state_, state_->BodySlot(id));
  if (!b->awake) return;
  const Vec2 v = b->linearVelocity + b->invMass * impulse;
  const float world =
      b->angularVelocity + b->invInertia * Cross(ToInternal(*state_, worldPoint) - b->center, impulse);
  const bool finite = IsFinite(v) && IsFinite(world);
  MK_ASSERT(finite);  // the impulse overflows the velocity
  if (!finite) return;
  b->linearVelocity = LockedVelocity(b->locks, ClampLinearSpeed(v, state_->settings.maxLinearSpeed));
  b->angularVelocity = ClampAngularSpeed(world);
}

void World::ApplyLinearImpulseToCenter(BodyId id, Vec2 impulse, bool wake) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::ApplyLinearImpulseToCenter, id, impulse, wake);
  const PauseRecording pause(recorder_);  // the calls it makes are part of this one, not records
  Body* b = FindBody(*state_, id);
  if (b) ApplyLinearImpulse(id, impulse, b->center, wake);
}

void World::ApplyAngularImpulse(BodyId id, float impulse, bool wake) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::ApplyAngularImpulse, id, impulse, wake);
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(impulse));
  if (!b || !IsFinite(impulse) || b->type != BodyType::Dynamic) return;
  if (wake) WakeBody(*state_, state_->BodySlot(id));
  if (!b->awake) return;
  const float world = b->angularVelocity + b->invInertia * impulse;
  MK_ASSERT(IsFinite(world));  // the impulse overflows the angular velocity
  if (IsFinite(world)) b->angularVelocity = ClampAngularSpeed(world);
}

float World::GetMass(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->mass : 0.0f;
}

float World::GetRotationalInertia(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->inertia : 0.0f;
}

Pos World::GetWorldCenterOfMass(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? ToWorld(*state_, b->center) : Pos{0.0f, 0.0f};
}

Vec2 World::GetLocalCenterOfMass(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->localCenter : Vec2{0.0f, 0.0f};
}

void World::SetLinearDamping(BodyId id, float damping) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetLinearDamping, id, damping);
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(damping) && damping >= 0.0f);
  if (b && IsFinite(damping) && damping >= 0.0f) b->linearDamping = damping;
}

void World::SetAngularDamping(BodyId id, float damping) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetAngularDamping, id, damping);
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(damping) && damping >= 0.0f);
  if (b && IsFinite(damping) && damping >= 0.0f) b->angularDamping = damping;
}

void World::SetGravityScale(BodyId id, float scale) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetGravityScale, id, scale);
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(scale));
  if (b && IsFinite(scale)) b->gravityScale = scale;
}

void World::SetFixedRotation(BodyId id, bool fixed) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetFixedRotation, id, fixed);
  Body* b = FindBody(*state_, id);
  if (!b) return;
  SetBodyLocks(*state_, state_->BodySlot(id), fixed ? b->locks | kLockAngular : b->locks & ~kLockAngular);
}

void World::SetAwake(BodyId id, bool awake) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetAwake, id, awake);
  Body* b = FindBody(*state_, id);
  if (!b || b->type == BodyType::Static) return;
  int slot = state_->BodySlot(id);
  if (awake) {
    WakeBody(*state_, slot);
  } else {
    PutIslandToSleep(*state_, slot);
  }
}

bool World::IsAwake(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->awake : false;
}

void World::SetSleepEnabled(BodyId id, bool enabled) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetSleepEnabled, id, enabled);
  Body* b = FindBody(*state_, id);
  if (!b) return;
  b->enableSleep = enabled;
  if (!enabled) WakeBody(*state_, state_->BodySlot(id));
}

void World::SetBullet(BodyId id, bool bullet) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetBullet, id, bullet);
  if (Body* b = FindBody(*state_, id)) b->isBullet = bullet;
}

bool World::IsBullet(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->isBullet : false;
}

void World::SetEnabled(BodyId id, bool enabled) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetEnabled, id, enabled);
  Body* b = FindBody(*state_, id);
  if (!b || b->enabled == enabled) return;
  int slot = state_->BodySlot(id);
  b->enabled = enabled;
  SetBodyAwakeBit(*state_, slot);  // a disabled body does not move
  SetBodyShapesInBroadphase(*state_, slot, enabled);
  if (enabled) WakeBody(*state_, slot);
}

bool World::IsEnabled(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->enabled : false;
}

void World::SetUserData(BodyId id, void* userData) {
  if (Body* b = FindBody(*state_, id)) b->userData = userData;
}

// Quiet on a stale id (no MK_ASSERT): games read it with ids from events, which may be stale.
void* World::GetUserData(BodyId id) const {
  const int slot = state_->BodySlot(id);
  return slot != kNull ? state_->bodies[slot].userData : nullptr;
}

}  // namespace mk
