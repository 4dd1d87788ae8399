// SPDX-License-Identifier: MIT
// World API, chains: a polyline or loop of one-sided segment shapes with ghost vertices (ChainDef in
// world_types.h; the collision in narrowphase/chain_segment.cpp). A chain is a list of ordinary shapes
// of type ChainSegment that belong to it: contacts, events, filters and queries need nothing new.
#include "minkowski/assert.h"
#include "minkowski/world.h"
#include "world/persistence/recorder.h"
#include "world/world_internal.h"

#include <span>
#include <vector>

namespace mk {

namespace {

// Every point finite and within kMaxWorldLength, enough of them, and no segment (including the
// closing one of a loop) shorter than kMinChainSegmentLength.
bool ValidChainPoints(std::span<const Vec2> points, bool isLoop) {
  const std::size_t n = points.size();
  if (n < (isLoop ? 3u : 2u)) return false;
  for (const Vec2& p : points) {
    if (!ValidPoint(p)) return false;
  }
  const std::size_t segments = isLoop ? n : n - 1;
  for (std::size_t i = 0; i < segments; ++i) {
    if (!(Distance(points[i], points[(i + 1) % n]) >= kMinChainSegmentLength)) return false;
  }
  return true;
}

bool ValidChainDef(const ChainDef& def) {
  if (!ValidCoefficient(def.friction) || !ValidCoefficient(def.restitution) ||
      !ValidChainPoints(def.points, def.isLoop))
    return false;
  const std::size_t segments = def.isLoop ? def.points.size() : def.points.size() - 1;
  if (def.materials.size() > 1 && def.materials.size() != segments) return false;
  for (const SurfaceMaterial& m : def.materials) {
    if (!ValidMaterial(m)) return false;
  }
  return true;
}

// Segment i's surface: ChainDef::materials documents the three cases.
SurfaceMaterial SegmentMaterial(const ChainDef& def, std::size_t i) {
  if (def.materials.empty()) return {.friction = def.friction, .restitution = def.restitution};
  return def.materials[def.materials.size() == 1 ? 0 : i];
}

// `end` moved back by `back`. A segment of a few millimetres far out (5 mm at 1e5 m, where a float's
// spacing is 7.8 mm) may be shorter than its coordinates resolve, and the ghost would round onto the
// end, where it gives no direction: then it goes 1 m along `back` instead.
Vec2 GhostBehind(Vec2 end, Vec2 back) {
  const Vec2 ghost = end + back;
  if (ghost.x != end.x || ghost.y != end.y) return ghost;
  return end + (1.0f / Length(back)) * back;
}

// Segment i of the chain with its ghost vertices.
ChainSegment MakeChainSegment(std::span<const Vec2> points, bool isLoop, std::size_t i) {
  const std::size_t n = points.size();
  const Vec2 p1 = points[i];
  const Vec2 p2 = points[(i + 1) % n];
  ChainSegment segment;
  segment.segment = {p1, p2};
  const bool firstOpen = !isLoop && i == 0;
  const bool lastOpen = !isLoop && i + 2 == n;
  // An open end's ghost lies behind the end, along the back normal (-RightPerp(p2 - p1)): the end is
  // then a right-angled convex corner (ChainDef documents what that does).
  const Vec2 back = -RightPerp(p2 - p1);
  segment.ghost1 = firstOpen ? GhostBehind(p1, back) : points[(i + n - 1) % n];
  segment.ghost2 = lastOpen ? GhostBehind(p2, back) : points[(i + 2) % n];
  return segment;
}

}  // namespace

ChainId World::CreateChain(BodyId bodyId, const ChainDef& def) {
  if (RefuseIfLocked(*state_)) return {};
  RecordCall(recorder_.get(), ReplayOp::CreateChain, bodyId, def);
  WorldState& world = *state_;
  const bool valid = world.IsBody(bodyId) && ValidChainDef(def);
  MK_ASSERT(valid);
  if (!valid) return {};
  const int bodySlot = world.BodySlot(bodyId);
  const int chainSlot = world.chainIds.Allocate();
  if (chainSlot >= static_cast<int>(world.chains.size())) world.chains.resize(chainSlot + 1);
  Chain& chain = world.chains[chainSlot];
  chain.body = bodySlot;
  chain.shapes.clear();
  ShapeDef shapeDef;
  shapeDef.density = 0.0f;
  shapeDef.filter = def.filter;
  shapeDef.enableSensorEvents = def.enableSensorEvents;
  shapeDef.userData = def.userData;
  const std::size_t n = def.points.size();
  const std::size_t segments = def.isLoop ? n : n - 1;
  for (std::size_t i = 0; i < segments; ++i) {
    const int slot = InsertShape(world, bodySlot, shapeDef, MakeChainSegment(def.points, def.isLoop, i));
    SetShapeMaterial(world, world.shapes[slot], SegmentMaterial(def, i));
    world.shapes[slot].chain = chainSlot;
    chain.shapes.push_back(slot);
  }
  world.bodies[bodySlot].massOverride = {};  // the shapes changed: their mass again (SetMassData)
  UpdateBodyMass(world, bodySlot);
  return world.MakeChainId(chainSlot);
}

bool World::DestroyChain(ChainId id) {
  if (RefuseIfLocked(*state_)) return false;
  RecordCall(recorder_.get(), ReplayOp::DestroyChain, id);
  WorldState& world = *state_;
  MK_ASSERT(world.IsChain(id));
  if (!world.IsChain(id)) return false;
  Chain& chain = world.chains[world.ChainSlot(id)];
  DestroyContactsOfShapes(world, chain.body, chain.shapes);  // as each segment's in turn, in one walk
  for (int shape : chain.shapes) RemoveShapeWithoutContacts(world, shape, false);
  world.bodies[chain.body].massOverride = {};  // the shapes changed: their mass again (SetMassData)
  UpdateBodyMass(world, chain.body);
  chain.shapes.clear();
  chain.body = kNull;
  world.chainIds.Free(world.ChainSlot(id));
  return true;
}

void FreeChainsOfBody(WorldState& world, int bodySlot) {
  // Every segment of a chain is on the chain's body, so the body's shapes name all its chains: one
  // walk of them, not of every chain slot (a level's bodies destroyed one by one would be quadratic).
  // The order the slots are freed in changes nothing: a new chain takes the lowest free slot.
  for (int s = world.bodies[bodySlot].headShape; s != kNull; s = world.shapes[s].nextShape) {
    const int chain = world.shapes[s].chain;
    if (chain == kNull || world.chains[chain].body != bodySlot) continue;  // freed at an earlier segment
    world.chains[chain].shapes.clear();
    world.chains[chain].body = kNull;
    world.chainIds.Free(chain);
  }
}

bool World::IsValid(ChainId id) const { return state_->IsChain(id); }

int World::GetChainSegments(ChainId id, Span<ShapeId> out) const {
  MK_ASSERT(state_->IsChain(id));
  if (!state_->IsChain(id)) return 0;
  const std::vector<int>& shapes = state_->chains[state_->ChainSlot(id)].shapes;
  const std::size_t count = std::min(shapes.size(), out.size());
  for (std::size_t i = 0; i < count; ++i) out[i] = state_->MakeShapeId(shapes[i]);
  return static_cast<int>(count);
}

int World::GetChainSegmentCount(ChainId id) const {
  MK_ASSERT(state_->IsChain(id));
  if (!state_->IsChain(id)) return 0;
  return static_cast<int>(state_->chains[state_->ChainSlot(id)].shapes.size());
}

ChainId World::GetChain(ShapeId id) const {
  MK_ASSERT(state_->IsShape(id));
  if (!state_->IsShape(id)) return {};
  const int chain = state_->shapes[state_->ShapeSlot(id)].chain;
  return chain == kNull ? ChainId{} : state_->MakeChainId(chain);
}

BodyId World::GetBody(ChainId id) const {
  MK_ASSERT(state_->IsChain(id));
  if (!state_->IsChain(id)) return {};
  return state_->MakeBodyId(state_->chains[state_->ChainSlot(id)].body);
}

}  // namespace mk
