// SPDX-License-Identifier: MIT
// World API, shapes: creation with validation, destruction, material, filter, user data; shape AABBs.
// Every entry validates its ids and values first (MK_ASSERT + neutral result on misuse).
#include "minkowski/assert.h"
#include "minkowski/world.h"
#include "world/persistence/recorder.h"
#include "world/world_internal.h"

#include <cmath>

namespace mk {

bool ValidCoefficient(float x) { return x >= 0.0f && x <= kMaxMaterialCoefficient; }

namespace {

bool ValidShapeDef(const ShapeDef& def) {
  return IsFinite(def.density) && def.density >= 0.0f && ValidMaterial(MaterialOf(def));
}

}  // namespace

bool ValidMaterial(const SurfaceMaterial& m) {
  return ValidCoefficient(m.friction) && ValidCoefficient(m.restitution) &&
         ValidCoefficient(m.rollingResistance) && m.tangentSpeed >= -kMaxTangentSpeed &&
         m.tangentSpeed <= kMaxTangentSpeed;
}

SurfaceMaterial MaterialOf(const ShapeDef& def) {
  return {def.friction,     def.restitution,    def.rollingResistance,
          def.tangentSpeed, def.userMaterialId, def.customColor};
}

void SetShapeMaterial(WorldState& world, Shape& shape, const SurfaceMaterial& m) {
  if (m.rollingResistance != 0.0f || m.tangentSpeed != 0.0f) world.maySurfaceShapes = true;
  shape.friction = m.friction;
  shape.restitution = m.restitution;
  shape.rollingResistance = m.rollingResistance;
  shape.tangentSpeed = m.tangentSpeed;
  shape.userMaterialId = m.userMaterialId;
  shape.customColor = m.customColor;
}

SurfaceMaterial GetShapeMaterial(const Shape& s) {
  return {s.friction, s.restitution, s.rollingResistance, s.tangentSpeed, s.userMaterialId, s.customColor};
}

namespace {

// The shape at the head of its body's list.
void LinkShape(WorldState& world, int shapeSlot) {
  Body& body = world.bodies[world.shapes[shapeSlot].body];
  world.shapes[shapeSlot].nextShape = body.headShape;
  world.shapePrev[shapeSlot] = kNull;
  if (body.headShape != kNull) world.shapePrev[body.headShape] = shapeSlot;
  body.headShape = shapeSlot;
}

// The shape out of its body's list, its neighbours joined.
void UnlinkShape(WorldState& world, int shapeSlot) {
  Body& body = world.bodies[world.shapes[shapeSlot].body];
  const int prev = world.shapePrev[shapeSlot];
  const int next = world.shapes[shapeSlot].nextShape;
  MK_ASSERT(prev != kNull || body.headShape == shapeSlot);
  if (prev == kNull) {
    // Only the head has no back link; a broken list is left as it is rather than cut further.
    if (body.headShape == shapeSlot) body.headShape = next;
  } else {
    world.shapes[prev].nextShape = next;
  }
  if (next != kNull) world.shapePrev[next] = prev;
  world.shapes[shapeSlot].nextShape = kNull;
  world.shapePrev[shapeSlot] = kNull;
}

}  // namespace

void RebuildShapePrev(WorldState& world) {
  world.shapePrev.assign(world.shapes.size(), kNull);
  for (std::size_t b = 0; b < world.bodies.size(); ++b) {
    if (!world.bodyIds.IsLive(static_cast<int>(b))) continue;
    int prev = kNull;
    for (int s = world.bodies[b].headShape; s != kNull; s = world.shapes[s].nextShape) {
      world.shapePrev[s] = prev;
      prev = s;
    }
  }
}

void DestroyShapeInternal(WorldState& world, int shapeSlot, bool updateMass) {
  DestroyContactsOfShape(world, shapeSlot);
  RemoveShapeWithoutContacts(world, shapeSlot, updateMass);
}

void RemoveShapeWithoutContacts(WorldState& world, int shapeSlot, bool updateMass) {
  Shape& shape = world.shapes[shapeSlot];
  RemoveShapeFromBroadphase(world, shapeSlot);
  UnlinkShape(world, shapeSlot);
  int bodySlot = shape.body;
  shape.body = kNull;
  world.shapeIds.Free(shapeSlot);
  ForgetShapeMassSum(world, bodySlot);
  if (updateMass) {
    world.bodies[bodySlot].massOverride = {};  // the shapes changed: their mass again (SetMassData)
    BodyMassChanged(world, bodySlot);
  }
}

int InsertShape(WorldState& world, int bodySlot, const ShapeDef& def, const ShapeGeometry& geometry) {
  int slot = world.shapeIds.Allocate();
  if (slot >= static_cast<int>(world.shapes.size())) {
    world.shapes.resize(slot + 1);
    world.geometries.resize(slot + 1);
    world.shapePrev.resize(slot + 1, kNull);
  }
  Shape& shape = world.shapes[slot];
  shape = Shape{};
  world.geometries[slot] = geometry;
  shape.extent = ShapeExtent(geometry);
  shape.oneSided = geometry.Type() == ShapeType::ChainSegment;
  shape.density = def.density;
  SetShapeMaterial(world, shape, MaterialOf(def));
  shape.filter = def.filter;
  shape.isSensor = def.isSensor;
  shape.enableContactEvents = def.enableContactEvents;
  shape.enableHitEvents = def.enableHitEvents;
  shape.enableSensorEvents = def.enableSensorEvents;
  shape.enablePreSolveEvents = def.enablePreSolveEvents;
  shape.enableCustomFiltering = def.enableCustomFiltering;
  shape.userData = def.userData;
  Body& body = world.bodies[bodySlot];
  shape.body = bodySlot;
  LinkShape(world, slot);
  shape.aabb = ComputeBoxAABB(world.geometries[slot], body.xf);
  if (body.enabled) AddShapeToBroadphase(world, slot);
  return slot;
}

// The geometry checks of each shape type: finite, within kMaxWorldLength, and what its Make*
// constructor (or ValidatePolygon) requires.
bool ValidGeometry(const Circle& c) {
  return ValidPoint(c.center) && ValidLength(c.radius) && MakeCircle(c.center, c.radius).ok();
}
bool ValidGeometry(const Capsule& c) {
  return ValidPoint(c.p1) && ValidPoint(c.p2) && ValidLength(c.radius) &&
         MakeCapsule(c.p1, c.p2, c.radius).ok();
}
bool ValidGeometry(const Segment& s) {
  return ValidPoint(s.p1) && ValidPoint(s.p2) && MakeSegment(s.p1, s.p2).ok();
}
bool ValidGeometry(const Polygon& p) {
  if (ValidatePolygon(p) != GeometryError::None || !ValidLength(p.radius)) return false;
  for (int i = 0; i < p.count; ++i) {
    if (!ValidPoint(p.vertices[i])) return false;
  }
  return true;
}
// What CreateChain makes: a segment no shorter than kMinChainSegmentLength, ghosts off its end points.
// A ghost is a chain point, or an open end's point moved back by the segment's length (chain.cpp), so
// it may lie beyond kMaxWorldLength by up to the longest segment, 2 sqrt(2) kMaxWorldLength (issue 28:
// the world fuzzer's snapshot check found a chain ending at y = -1e5 whose ghost was at -100010).
bool ValidGeometry(const ChainSegment& c) {
  const Segment& s = c.segment;
  const auto same = [](Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; };
  const auto validGhost = [](Vec2 g) {
    return std::fabs(g.x) <= 4.0f * kMaxWorldLength && std::fabs(g.y) <= 4.0f * kMaxWorldLength;
  };
  return ValidPoint(s.p1) && ValidPoint(s.p2) && validGhost(c.ghost1) && validGhost(c.ghost2) &&
         Distance(s.p1, s.p2) >= kMinChainSegmentLength && !same(c.ghost1, s.p1) && !same(c.ghost2, s.p2);
}

template <class Geometry>
static ShapeId AddShape(WorldState& world, BodyId bodyId, const ShapeDef& def, const Geometry& geometry) {
  bool valid = world.IsBody(bodyId) && ValidShapeDef(def) && ValidGeometry(geometry);
  MassData mass;
  if (valid) {  // the shape's mass usable, and a dynamic body's with it too
    const GeometryResult<MassData> computed = ComputeMass(geometry, def.density);
    mass = computed.value;
    valid = computed.ok() && MassIsUsable(mass) && SumStaysUsable(world, world.BodySlot(bodyId), kNull, mass);
  }
  MK_ASSERT(valid);
  if (!valid) return {};
  const int bodySlot = world.BodySlot(bodyId);
  const int slot = InsertShape(world, bodySlot, def, ShapeGeometry(geometry));
  AddToShapeMassSum(world, bodySlot, mass);
  world.bodies[bodySlot].massOverride = {};  // the shapes changed: their mass again (SetMassData)
  BodyMassChanged(world, bodySlot);
  return world.MakeShapeId(slot);
}

ShapeId AddChainSegmentShape(WorldState& world, BodyId body, const ShapeDef& def,
                             const ChainSegment& segment) {
  return AddShape(world, body, def, segment);
}

ShapeId World::CreateShape(BodyId body, const ShapeDef& def, const Circle& circle) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateCircle, body, def, circle);
  return AddShape(*state_, body, def, circle);
}

ShapeId World::CreateShape(BodyId body, const ShapeDef& def, const Capsule& capsule) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateCapsule, body, def, capsule);
  return AddShape(*state_, body, def, capsule);
}

ShapeId World::CreateShape(BodyId body, const ShapeDef& def, const Segment& segment) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateSegment, body, def, segment);
  return AddShape(*state_, body, def, segment);
}

ShapeId World::CreateShape(BodyId body, const ShapeDef& def, const Polygon& polygon) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreatePolygon, body, def, polygon);
  return AddShape(*state_, body, def, polygon);
}

bool World::DestroyShape(ShapeId id) {
  if (RefuseIfLocked(*state_)) return false;
  RecordCall(recorder_.get(), ReplayOp::DestroyShape, id);
  MK_ASSERT(state_->IsShape(id));
  if (!state_->IsShape(id)) return false;
  const bool inChain = state_->shapes[state_->ShapeSlot(id)].chain != kNull;
  MK_ASSERT(!inChain && "a chain's segment goes with its chain: DestroyChain");
  if (inChain) return false;
  DestroyShapeInternal(*state_, state_->ShapeSlot(id), true);
  return true;
}

bool World::IsValid(ShapeId id) const { return state_->IsShape(id); }

static Shape* FindShape(WorldState& world, ShapeId id) {
  bool live = world.IsShape(id);
  MK_ASSERT(live);
  return live ? &world.shapes[world.ShapeSlot(id)] : nullptr;
}

void World::SetUserData(ShapeId id, void* userData) {
  if (Shape* s = FindShape(*state_, id)) s->userData = userData;
}

// Quiet on a stale id (no MK_ASSERT): games read it with ids from events, which may be stale.
void* World::GetUserData(ShapeId id) const {
  const int slot = state_->ShapeSlot(id);
  return slot != kNull ? state_->shapes[slot].userData : nullptr;
}

BodyId World::GetBody(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? state_->MakeBodyId(s->body) : BodyId{};
}

ShapeType World::GetShapeType(ShapeId id) const {
  return FindShape(*state_, id) ? state_->geometries[state_->ShapeSlot(id)].Type() : ShapeType::Count;
}

// Friction and restitution: checked the same way, stored in the shape, and the shape's contacts mixed
// again (so a material changed under a resting body acts at once, as in Box2D v3).
static void SetCoefficient(WorldState& world, ShapeId id, float Shape::*field, float value) {
  Shape* s = FindShape(world, id);
  MK_ASSERT(ValidCoefficient(value));
  if (!s || !ValidCoefficient(value)) return;
  s->*field = value;
  RemixContactsOfShape(world, world.ShapeSlot(id));
}

static float GetCoefficient(WorldState& world, ShapeId id, float Shape::*field) {
  const Shape* s = FindShape(world, id);
  return s ? s->*field : 0.0f;
}

void World::SetFriction(ShapeId id, float friction) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetFriction, id, friction);
  SetCoefficient(*state_, id, &Shape::friction, friction);
}
float World::GetFriction(ShapeId id) const { return GetCoefficient(*state_, id, &Shape::friction); }

void World::SetRestitution(ShapeId id, float restitution) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetRestitution, id, restitution);
  SetCoefficient(*state_, id, &Shape::restitution, restitution);
}
float World::GetRestitution(ShapeId id) const { return GetCoefficient(*state_, id, &Shape::restitution); }

void World::SetMaterial(ShapeId id, const SurfaceMaterial& material) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetMaterial, id, material);
  Shape* s = FindShape(*state_, id);
  MK_ASSERT(ValidMaterial(material));
  if (!s || !ValidMaterial(material)) return;
  SetShapeMaterial(*state_, *s, material);
  RemixContactsOfShape(*state_, state_->ShapeSlot(id));
}

SurfaceMaterial World::GetMaterial(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? GetShapeMaterial(*s) : SurfaceMaterial{};
}

void World::SetDensity(ShapeId id, float density) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetDensity, id, density);
  Shape* s = FindShape(*state_, id);
  if (!s) return;
  bool valid = IsFinite(density) && density >= 0.0f;
  if (valid) {  // the body's mass properties with the new density must stay finite
    const MassData mass = ComputeMass(state_->geometries[state_->ShapeSlot(id)], density).value;
    valid = MassIsUsable(mass) && SumStaysUsable(*state_, s->body, state_->ShapeSlot(id), mass);
  }
  MK_ASSERT(valid);
  if (!valid) return;
  s->density = density;
  ForgetShapeMassSum(*state_, s->body);
  state_->bodies[s->body].massOverride = {};  // the shapes changed: their mass again (SetMassData)
  BodyMassChanged(*state_, s->body);
}

void World::EnablePreSolveEvents(ShapeId id, bool enable) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::EnablePreSolveEvents, id, enable);
  if (Shape* s = FindShape(*state_, id)) s->enablePreSolveEvents = enable;
}

bool World::IsPreSolveEnabled(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? s->enablePreSolveEvents : false;
}

void World::SetFilter(ShapeId id, const Filter& filter) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetFilter, id, filter);
  Shape* s = FindShape(*state_, id);
  if (!s) return;
  s->filter = filter;
  RefilterShape(*state_, state_->ShapeSlot(id));
}

Filter World::GetFilter(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? s->filter : Filter{};
}

AABB World::GetAABB(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? BroadphaseBoxToWorld(s->aabb, state_->origin) : AABB{};
}

AABB World::GetAABB(ShapeId id, Pos origin) const {
  const bool valid = ValidPosition(origin);
  MK_ASSERT(valid);
  const Shape* s = valid ? FindShape(*state_, id) : nullptr;
  return s ? BroadphaseBoxAbout(s->aabb, origin, state_->origin) : AABB{};
}

}  // namespace mk
