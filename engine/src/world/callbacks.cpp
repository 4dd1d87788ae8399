// SPDX-License-Identifier: MIT
// World API for games: the pre-solve callback, a body's contacts, a sensor's overlaps, explosions.
// The callback itself is called by the narrowphase (contacts.cpp) and the continuous stage
// (continuous.cpp); the getters here walk one body's contact edges, never the world's contacts.
#include "minkowski/assert.h"
#include "minkowski/distance.h"
#include "minkowski/world.h"
#include "world/persistence/recorder.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mk {

namespace {

// Calls visit(contact slot) for every contact in a body's edge list, head first.
template <class Visit>
void ForEachBodyContact(const WorldState& world, int body, Visit visit) {
  for (int key = world.bodies[body].headContactEdge; key != kNull;) {
    const int contact = key >> 1;
    const int next = world.contacts[contact].edges[key & 1].next;
    visit(contact);
    key = next;
  }
}

// The body slot of a live id, or kNull after an MK_ASSERT.
int CheckedBody(const WorldState& world, BodyId id) {
  const int slot = world.BodySlot(id);
  MK_ASSERT(slot != kNull);
  return slot;
}

// The slot of a live sensor shape; kNull for a shape that is not a sensor (no assert) or a stale id
// (MK_ASSERT).
int SensorSlot(const WorldState& world, ShapeId id) {
  const int slot = world.ShapeSlot(id);
  MK_ASSERT(slot != kNull);
  return slot != kNull && world.shapes[slot].isSensor ? slot : kNull;
}

// Calls visit(contact) for the sensor pairs of a sensor shape.
template <class Visit>
void ForEachSensorPair(const WorldState& world, int sensor, Visit visit) {
  ForEachBodyContact(world, world.shapes[sensor].body, [&](int slot) {
    const Contact& c = world.contacts[slot];
    if (c.sensorEvents && (c.shapeA == sensor || c.shapeB == sensor)) visit(c);
  });
}

// The width (m) a shape presents across the unit direction u: its extent, radius included, along
// the perpendicular of u.
float PresentedWidth(const ShapeGeometry& geometry, Rot q, Vec2 u) {
  const Vec2 across = LeftPerp(u);
  float lo = 0.0f, hi = 0.0f;
  for (int i = 0; i < geometry.Count(); ++i) {
    const float x = Dot(across, Rotate(q, geometry.Points()[i]));
    lo = i == 0 ? x : std::min(lo, x);
    hi = i == 0 ? x : std::max(hi, x);
  }
  return hi - lo + 2.0f * geometry.Radius();
}

bool ValidExplosion(const ExplosionDef& def) {
  return ValidPosition(def.position) && ValidLength(def.radius) && def.radius >= 0.0f &&
         ValidLength(def.falloff) && def.falloff >= 0.0f && IsFinite(def.impulsePerLength);
}

struct ExplosionQuery {
  const WorldState* world;
  std::vector<int>* found;
  std::uint64_t maskBits;
};

// Broadphase candidates: shapes of dynamic bodies in the mask, sensors left out.
bool CollectExplosionShape(ProxyId, std::uint64_t userData, void* contextPtr) {
  const ExplosionQuery& query = *static_cast<const ExplosionQuery*>(contextPtr);
  const WorldState& world = *query.world;
  const int slot = static_cast<int>(userData);
  const Shape& shape = world.shapes[slot];
  const bool accepted = !shape.isSensor && (shape.filter.categoryBits & query.maskBits) != 0 &&
                        world.bodies[shape.body].type == BodyType::Dynamic;
  if (accepted) query.found->push_back(slot);
  return true;
}

}  // namespace

void World::SetPreSolveCallback(PreSolveFn fn, void* context) {
  if (fn == nullptr) return SetPreSolveCallback(PreSolveCallable{});
  SetPreSolveCallback(
      [fn, context](const World&, ShapeId a, ShapeId b, const Manifold& m) { return fn(a, b, m, context); });
}

void World::SetPreSolveCallback(PreSolveCallable fn) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetPreSolveCallback, static_cast<bool>(fn));
  state_->preSolve = std::move(fn);
}

void World::SetFrictionCallback(MixFn fn) {
  if (RefuseIfLocked(*state_)) return;
  state_->frictionFn = fn;
}

void World::SetRestitutionCallback(MixFn fn) {
  if (RefuseIfLocked(*state_)) return;
  state_->restitutionFn = fn;
}

void World::SetCustomFilterCallback(CustomFilterFn fn, void* context) {
  if (RefuseIfLocked(*state_)) return;
  state_->customFilterFn = fn;
  state_->customFilterContext = fn != nullptr ? context : nullptr;
  AttachBroadphaseFilter(*state_);  // whether the pair search on the workers may ask the filter
}

void World::SetUserData(void* userData) {
  if (RefuseIfLocked(*state_)) return;
  state_->userData = userData;
}

void* World::GetUserData() const { return state_->userData; }

bool World::IsValid(ContactId id) const { return state_->ContactSlot(id) != kNull; }

ContactData World::GetContactData(ContactId id) const {
  const int slot = state_->ContactSlot(id);
  return slot != kNull ? MakeContactView(*state_, slot) : ContactData{};
}

int World::GetBodyContactCapacity(BodyId id) const {
  const WorldState& world = *state_;
  const int body = CheckedBody(world, id);
  if (body == kNull) return 0;
  int count = 0;
  ForEachBodyContact(world, body, [&](int) { ++count; });
  return count;
}

int World::GetBodyContactData(BodyId id, Span<ContactData> out) const {
  const WorldState& world = *state_;
  const int body = CheckedBody(world, id);
  if (body == kNull) return 0;
  int written = 0;
  ForEachBodyContact(world, body, [&](int slot) {
    if (world.contacts[slot].touching && written < static_cast<int>(out.size())) {
      out[written++] = MakeContactView(world, slot);
    }
  });
  return written;
}

int World::GetSensorCapacity(ShapeId id) const {
  const WorldState& world = *state_;
  const int sensor = SensorSlot(world, id);
  if (sensor == kNull) return 0;
  int count = 0;
  ForEachSensorPair(world, sensor, [&](const Contact&) { ++count; });
  return count;
}

int World::GetSensorOverlaps(ShapeId id, Span<ShapeId> out) const {
  const WorldState& world = *state_;
  const int sensor = SensorSlot(world, id);
  if (sensor == kNull) return 0;
  int written = 0;
  ForEachSensorPair(world, sensor, [&](const Contact& c) {
    if (c.sensorOverlap && written < static_cast<int>(out.size())) {
      out[written++] = world.MakeShapeId(c.shapeA == sensor ? c.shapeB : c.shapeA);
    }
  });
  return written;
}

void World::Explode(const ExplosionDef& def) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::Explode, def);
  const PauseRecording pause(recorder_);  // the calls it makes are part of this one, not records
  WorldState& world = *state_;
  const bool valid = ValidExplosion(def);
  MK_ASSERT(valid);
  if (!valid) return;
  const float reach = def.radius + def.falloff;
  const AABB box =
      OffsetBoxToBroadphase(ToInternal(world, def.position), {Vec2{-reach, -reach}, Vec2{reach, reach}});
  // Collect first: pushing wakes bodies, which moves proxies, which a running query must not see.
  world.explosionShapes.clear();
  ExplosionQuery query{&world, &world.explosionShapes, def.maskBits};
  world.broadphase.QueryAABB(box, CollectExplosionShape, &query);
  std::sort(world.explosionShapes.begin(), world.explosionShapes.end());  // slot order, not the tree's
  for (int slot : world.explosionShapes) {
    const Shape& shape = world.shapes[slot];
    const Body& body = world.bodies[shape.body];
    const Pos closest = GetClosestPoint(world.MakeShapeId(slot), def.position);
    const float d = Length(closest - def.position);
    if (d > reach) continue;
    // Inside the shape there is no closest direction: push away from the centre towards the body's mass.
    const Vec2 u = Normalize(d > 0.0f ? closest - def.position : ToWorld(world, body.center) - def.position);
    if (u.x == 0.0f && u.y == 0.0f) continue;
    const float scale = d <= def.radius ? 1.0f : 1.0f - (d - def.radius) / def.falloff;
    const float magnitude =
        def.impulsePerLength * PresentedWidth(world.geometries[slot], body.xf.q, u) * scale;
    ApplyLinearImpulse(world.MakeBodyId(shape.body), magnitude * u, closest, /*wake=*/true);
  }
}

}  // namespace mk
