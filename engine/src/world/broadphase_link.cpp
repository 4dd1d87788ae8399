// The world's side of the broadphase: one proxy per shape of an enabled body (user data = shape slot),
// filters from the shape and body, and begun / ended pairs turned into contacts.
#include "minkowski/assert.h"
#include "world/world_internal.h"

#include <algorithm>

namespace mk {

namespace {

ProxyFilter MakeProxyFilter(const Shape& shape) {
  ProxyFilter filter;
  filter.bodyId = static_cast<std::uint32_t>(shape.body);
  filter.categoryBits = shape.filter.categoryBits;
  filter.maskBits = shape.filter.maskBits;
  filter.groupIndex = shape.filter.groupIndex;
  return filter;
}

// The broadphase checks same body and filter bits; this adds the rules that need the world: a
// contact needs at least one dynamic body (kinematic and static bodies never push each other), and
// bodies joined by a joint with collideConnected = false never collide.
bool ShouldCollideCallback(std::uint64_t userDataA, std::uint64_t userDataB, void* context) {
  const WorldState& w = *static_cast<const WorldState*>(context);
  return ShouldShapesCollide(w, static_cast<int>(userDataA), static_cast<int>(userDataB));
}

}  // namespace

bool ShouldShapesCollide(const WorldState& w, int shapeA, int shapeB) {
  const Body& a = w.bodies[w.shapes[shapeA].body];
  const Body& b = w.bodies[w.shapes[shapeB].body];
  if (a.type != BodyType::Dynamic && b.type != BodyType::Dynamic) return false;
  // Only bodies that both have joints need the walk over A's joint list (most have none or a few).
  int bodyA = w.shapes[shapeA].body, bodyB = w.shapes[shapeB].body;
  if (a.headJointEdge == kNull || b.headJointEdge == kNull) return true;
  return !JointBlocksCollision(w, bodyA, bodyB);
}

void RefilterBodyPairs(WorldState& w, int bodySlot) {
  for (int s = w.bodies[bodySlot].headShape; s != kNull; s = w.shapes[s].nextShape) {
    if (!w.shapes[s].proxy.IsNull()) w.broadphase.RefilterProxy(w.shapes[s].proxy);
  }
}

void AddShapeToBroadphase(WorldState& w, int slot) {
  Shape& shape = w.shapes[slot];
  const Body& body = w.bodies[shape.body];
  // The callback reads the world through this pointer; WorldState lives behind a unique_ptr and
  // never moves, so setting it on every add is cheap insurance rather than a necessity.
  w.broadphase.SetShouldCollide(ShouldCollideCallback, &w);
  ProxyDef def;
  def.aabb = shape.aabb;
  def.userData = static_cast<std::uint64_t>(slot);
  def.type = body.type == BodyType::Static ? ProxyType::Static : ProxyType::Moving;
  def.awake = body.awake;
  def.filter = MakeProxyFilter(shape);
  ProxyResult result = w.broadphase.CreateProxy(def);
  MK_ASSERT(result.ok());
  shape.proxy = result.id;
}

void RemoveShapeFromBroadphase(WorldState& w, int slot) {
  Shape& shape = w.shapes[slot];
  if (shape.proxy.IsNull()) return;
  w.broadphase.DestroyProxy(shape.proxy);
  shape.proxy = {};
}

void UpdateBodyShapesInBroadphase(WorldState& w, int bodySlot, bool teleport) {
  const Body& body = w.bodies[bodySlot];
  for (int s = body.headShape; s != kNull; s = w.shapes[s].nextShape) {
    Shape& shape = w.shapes[s];
    shape.aabb = ComputeAABB(w.geometries[s], body.xf);
    if (shape.proxy.IsNull()) continue;
    w.broadphase.MoveProxy(shape.proxy, shape.aabb);
    (void)teleport;  // MoveProxy handles any distance; the broadphase re-sorts as needed
  }
}

void SetBodyShapesInBroadphase(WorldState& w, int bodySlot, bool enabled) {
  for (int s = w.bodies[bodySlot].headShape; s != kNull; s = w.shapes[s].nextShape) {
    if (enabled) {
      w.shapes[s].aabb = ComputeAABB(w.geometries[s], w.bodies[bodySlot].xf);
      AddShapeToBroadphase(w, s);
    } else {
      DestroyContactsOfShape(w, s);
      RemoveShapeFromBroadphase(w, s);
    }
  }
}

void SetBodyProxiesAwake(WorldState& w, int bodySlot, bool awake) {
  for (int s = w.bodies[bodySlot].headShape; s != kNull; s = w.shapes[s].nextShape) {
    if (!w.shapes[s].proxy.IsNull()) w.broadphase.SetProxyAwake(w.shapes[s].proxy, awake);
  }
}

void RefilterShape(WorldState& w, int slot) {
  Shape& shape = w.shapes[slot];
  if (shape.proxy.IsNull()) return;
  w.broadphase.SetProxyFilter(shape.proxy, MakeProxyFilter(shape));
}

void UpdatePairs(WorldState& w) {
  w.broadphase.UpdatePairs();
  // Ended first: a pair can end and begin again in one update only if its proxy was recreated.
  for (const ProxyPair& pair : w.broadphase.EndedPairs()) {
    int contact = w.contactByShapes.Find(
        PairMap::Key(static_cast<int>(pair.userDataA), static_cast<int>(pair.userDataB)));
    if (contact != -1) DestroyContact(w, contact, true);
  }
  // Contacts are created in shape-slot order, not proxy order: the solver visits contacts by slot, so
  // this keeps results independent of how the broadphase happened to number its proxies (e.g. after
  // unrelated proxies were created and destroyed).
  std::vector<std::uint64_t>& begun = w.begunPairScratch;
  begun.clear();
  for (const ProxyPair& pair : w.broadphase.BegunPairs()) {
    begun.push_back(PairMap::Key(static_cast<int>(pair.userDataA), static_cast<int>(pair.userDataB)));
  }
  std::sort(begun.begin(), begun.end());
  for (std::uint64_t key : begun) {
    CreateContact(w, static_cast<int>(key >> 32), static_cast<int>(key & 0xFFFFFFFFu));
  }
}

}  // namespace mk
