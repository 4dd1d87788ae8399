// SPDX-License-Identifier: MIT
// The shape API (minkowski/shape_api.h): geometry changed in place (Box2D v3's b2Shape_SetCircle and
// its siblings), the typed geometry getters and standalone chain segments (b2CreateChainSegmentShape).
// What a change does, and why it differs from v3 on mass: shape_api.h; docs/design.md, Geometry
// changed in place and Standalone chain segments.
#include "minkowski/assert.h"
#include "minkowski/shape_api.h"
#include "minkowski/world.h"
#include "world/persistence/recorder.h"
#include "world/world_internal.h"

namespace mk {

/// The recorder of a World, for the shape API's records (World befriends it).
struct ShapeAccess {
  static Recorder* RecorderOf(World& world) { return world.recorder_.get(); }
};

namespace {

// Wakes the body of every resting (static or sleeping) proxy the box meets: the shape of a static body
// grew into a sleeping body it had no contact with, and a contact between a static and a sleeping body
// is never updated, so without this the sleeper would stay asleep inside it.
void WakeRestingBodiesIn(WorldState& world, const AABB& box) {
  struct Context {
    WorldState* world;
  } context{&world};
  world.broadphase.QueryRestingAABB(
      box,
      [](ProxyId, std::uint64_t userData, void* c) {
        WorldState& w = *static_cast<Context*>(c)->world;
        WakeBody(w, w.shapes[static_cast<int>(userData)].body);
        return true;
      },
      &context);
}

// Replaces the geometry of a live shape that is not a chain's segment. As a new shape would: the
// geometry must pass CreateShape's checks and keep the body's mass finite. Then, in this order: the
// shape's contacts are destroyed (touching ones raise end events with the next Step and wake both
// bodies), its proxy is destroyed and created again at the new box (so the next Step's broadphase
// reports every pair it now has, as new pairs: contacts are made again there), the body is woken and
// its mass recomputed from its shapes (a SetMassData override is dropped, as SetDensity does).
template <class Geometry>
void ModifyGeometry(WorldState& world, ShapeId id, const Geometry& geometry) {
  const int slot = world.ShapeSlot(id);
  MK_ASSERT(slot != kNull);
  if (slot == kNull) return;
  Shape& shape = world.shapes[slot];
  const bool inChain = shape.chain != kNull;
  MK_ASSERT(!inChain && "a chain's segment belongs to its chain: its geometry cannot change");
  if (inChain) return;
  bool valid = ValidGeometry(geometry);
  if (valid) {  // the body's mass properties with the new geometry must stay finite
    const GeometryResult<MassData> mass = ComputeMass(geometry, shape.density);
    valid = mass.ok() && MassIsUsable(mass.value) && SumStaysUsable(world, shape.body, slot, mass.value);
  }
  MK_ASSERT(valid);
  if (!valid) return;
  const int bodySlot = shape.body;
  DestroyContactsOfShape(world, slot);
  RemoveShapeFromBroadphase(world, slot);
  world.geometries[slot] = ShapeGeometry(geometry);
  ForgetShapeMassSum(world, bodySlot);
  shape.oneSided = world.geometries[slot].Type() == ShapeType::ChainSegment;
  Body& body = world.bodies[bodySlot];
  shape.extent = ShapeExtent(world.geometries[slot]);
  shape.aabb = ComputeBoxAABB(world.geometries[slot], body.xf);
  WakeBody(world, bodySlot);  // before the proxy is made: it is made awake
  if (body.enabled) {
    AddShapeToBroadphase(world, slot);
    if (body.type == BodyType::Static) WakeRestingBodiesIn(world, shape.aabb);
  }
  body.massOverride = {};  // the shapes changed: their mass again (SetMassData)
  BodyMassChanged(world, bodySlot);
}

// The shape's geometry when it is of `type`; MK_ASSERT and null otherwise (stale id or another type).
const ShapeGeometry* GeometryOfType(const WorldState& world, ShapeId id, ShapeType type) {
  const int slot = world.ShapeSlot(id);
  const bool found = slot != kNull && world.geometries[slot].Type() == type;
  MK_ASSERT(found);
  return found ? &world.geometries[slot] : nullptr;
}

}  // namespace

void SetCircle(World& world, ShapeId shape, const Circle& circle) {
  if (RefuseIfLocked(world.State())) return;
  RecordCall(ShapeAccess::RecorderOf(world), ReplayOp::SetCircle, shape, circle);
  ModifyGeometry(world.State(), shape, circle);
}

void SetCapsule(World& world, ShapeId shape, const Capsule& capsule) {
  if (RefuseIfLocked(world.State())) return;
  RecordCall(ShapeAccess::RecorderOf(world), ReplayOp::SetCapsule, shape, capsule);
  ModifyGeometry(world.State(), shape, capsule);
}

void SetSegment(World& world, ShapeId shape, const Segment& segment) {
  if (RefuseIfLocked(world.State())) return;
  RecordCall(ShapeAccess::RecorderOf(world), ReplayOp::SetSegment, shape, segment);
  ModifyGeometry(world.State(), shape, segment);
}

void SetPolygon(World& world, ShapeId shape, const Polygon& polygon) {
  if (RefuseIfLocked(world.State())) return;
  RecordCall(ShapeAccess::RecorderOf(world), ReplayOp::SetPolygon, shape, polygon);
  ModifyGeometry(world.State(), shape, polygon);
}

void SetChainSegment(World& world, ShapeId shape, const ChainSegment& segment) {
  if (RefuseIfLocked(world.State())) return;
  RecordCall(ShapeAccess::RecorderOf(world), ReplayOp::SetChainSegment, shape, segment);
  ModifyGeometry(world.State(), shape, segment);
}

ShapeId CreateChainSegmentShape(World& world, BodyId body, const ShapeDef& def, const ChainSegment& segment) {
  if (RefuseIfLocked(world.State())) return {};
  RecordCall(ShapeAccess::RecorderOf(world), ReplayOp::CreateChainSegmentShape, body, def, segment);
  return AddChainSegmentShape(world.State(), body, def, segment);
}

Circle GetCircle(const World& world, ShapeId shape) {
  const ShapeGeometry* g = GeometryOfType(world.State(), shape, ShapeType::Circle);
  return g ? g->AsCircle() : Circle{};
}

Capsule GetCapsule(const World& world, ShapeId shape) {
  const ShapeGeometry* g = GeometryOfType(world.State(), shape, ShapeType::Capsule);
  return g ? g->AsCapsule() : Capsule{};
}

Segment GetSegment(const World& world, ShapeId shape) {
  const ShapeGeometry* g = GeometryOfType(world.State(), shape, ShapeType::Segment);
  return g ? g->AsSegment() : Segment{};
}

Polygon GetPolygon(const World& world, ShapeId shape) {
  const ShapeGeometry* g = GeometryOfType(world.State(), shape, ShapeType::Polygon);
  return g ? g->AsPolygon() : Polygon{};
}

ChainSegment GetChainSegment(const World& world, ShapeId shape) {
  const ShapeGeometry* g = GeometryOfType(world.State(), shape, ShapeType::ChainSegment);
  return g ? g->AsChainSegment() : ChainSegment{};
}

}  // namespace mk
