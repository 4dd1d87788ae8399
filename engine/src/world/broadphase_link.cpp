// SPDX-License-Identifier: MIT
// The world's side of the broadphase: one proxy per shape of an enabled body (user data = shape slot),
// filters from the shape and body, and begun / ended pairs turned into contacts.
#include "core/parallel.h"
#include "minkowski/assert.h"
#include "solver/solver_types.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mk {

ProxyFilter MakeProxyFilter(const Shape& shape) {
  ProxyFilter filter;
  filter.bodyId = static_cast<std::uint32_t>(shape.body);
  filter.categoryBits = shape.filter.categoryBits;
  filter.maskBits = shape.filter.maskBits;
  filter.groupIndex = shape.filter.groupIndex;
  return filter;
}

namespace {

// The broadphase checks same body and filter bits; this adds the rules that need the world: a
// contact needs at least one dynamic body (kinematic and static bodies never push each other), and
// bodies joined by a joint with collideConnected = false never collide.
bool ShouldCollideCallback(std::uint64_t userDataA, std::uint64_t userDataB, void* context) {
  const WorldState& world = *static_cast<const WorldState*>(context);
  return ShouldShapesCollide(world, static_cast<int>(userDataA), static_cast<int>(userDataB));
}

}  // namespace

bool ShouldShapesCollide(const WorldState& world, int shapeA, int shapeB) {
  const Body& a = world.bodies[world.shapes[shapeA].body];
  const Body& b = world.bodies[world.shapes[shapeB].body];
  if (a.type != BodyType::Dynamic && b.type != BodyType::Dynamic) return false;
  // Chain segments never collide with segments or other chain segments (surfaces without inside).
  // The shape fields are in hand already; the geometry is read only when a chain segment is involved.
  if (world.shapes[shapeA].oneSided || world.shapes[shapeB].oneSided) {
    const ShapeType typeA = world.geometries[shapeA].Type(), typeB = world.geometries[shapeB].Type();
    const auto thin = [](ShapeType t) { return t == ShapeType::Segment || t == ShapeType::ChainSegment; };
    if (thin(typeA) && thin(typeB)) return false;
  }
  // Only bodies that both have joints need the walk over A's joint list (most have none or a few).
  int bodyA = world.shapes[shapeA].body, bodyB = world.shapes[shapeB].body;
  if (a.headJointEdge != kNull && b.headJointEdge != kNull && JointBlocksCollision(world, bodyA, bodyB))
    return false;
  // Last, as Box2D v3: the game's filter sees only pairs every other rule lets through.
  if (world.customFilterFn != nullptr &&
      (world.shapes[shapeA].enableCustomFiltering || world.shapes[shapeB].enableCustomFiltering)) {
    if (shapeB < shapeA) std::swap(shapeA, shapeB);  // the contact's order
    return world.customFilterFn(world.MakeShapeId(shapeA), world.MakeShapeId(shapeB),
                                world.customFilterContext);
  }
  return true;
}

// Pure without a custom filter: the rules read only bodies, shapes and joints, which nothing changes
// while the broadphase updates, so the pair search on the workers may ask them (the spinner's merge on
// the calling thread spent 0.8% of its two-worker samples here). The game's filter keeps every call on
// the calling thread, in the serial order.
void AttachBroadphaseFilter(WorldState& world) {
  world.broadphase.SetShouldCollide(ShouldCollideCallback, &world, world.customFilterFn == nullptr);
}

void RefilterBodyPairs(WorldState& world, int bodySlot) {
  for (int s = world.bodies[bodySlot].headShape; s != kNull; s = world.shapes[s].nextShape) {
    if (!world.shapes[s].proxy.IsNull()) world.broadphase.RefilterProxy(world.shapes[s].proxy);
  }
}

// FitProxy: the box a shape's proxy must hold: its tight box grown by the speculative distance (as Box2D v3
// does). The fat box holds this box, so two shapes closer than the speculative distance always have
// overlapping fat boxes and a contact; with the tight box alone, two fat boxes re-centred long ago
// could sit a centimetre apart while their shapes were 1.85 cm apart, and the speculative point the
// narrowphase owed that pair was missing for a step (recycling_test's oracle caught it).
// A body that moves further than kApproachFactor speculative distances a step has that box swept
// along its last step's travel, at most its size, so a pair it will close on within the next step
// has a contact before it arrives (FastApproach in contacts.cpp; Box2D 2.x grew its moving proxies
// by their displacement the same way). The cap bounds what a fast body costs the broadphase (the
// spinner's 6,000 flung bodies, 30 steps: swept their whole travel, +0.50 G instructions; capped,
// +0.34 G); with the fat margin ahead of it the pair is still found by the step it meets. Sweeping
// the travel less the fat margin (which a body faster than the margin finds ahead of its box after
// every refit) cost the spinner 2.5% less, but the tumbler's deepest overlap went 0.14 -> 0.19 m and
// the kinematic drum's 0.15 -> 0.18 m: the margin ahead is not there when a tumbling body's velocity
// turns between steps.
// The fat margin around that box: the world's (WorldSettings::aabbMargin) for a large shape, an eighth
// of its reach for a small one, but at least the body's travel a step beyond the speculative distance.
// A fat box is a pair's region: in the tumbler's crowd of 0.25 m boxes, 0.1 m around each kept 17,000
// pairs of which 4,000 touched, making and ending 1,250 a step; these margins keep 11,000 and make
// about 460 a step (an eighth of the reach alone: 9,000 and 190), while most boxes re-centre their
// fat box every step either way (Box2D v3, since 2026, scales its margins with its shapes likewise).
// The travel keeps the pairs of closing bodies in time: two bodies approaching each other have fat
// boxes that meet the step before their shapes do, as the world's margin gave them (two 10 cm boxes
// closing at 5 to 9 m/s met 1 to 9 cm deep without it). A body swept as above reaches the world's
// margin ahead, past its size and its sweep, as the world's margin all round once gave it: a slow
// partner's small margin does not reach out to meet it (with the shape's margin ahead too, 10 cm
// boxes at 20 m/s went through a still one in 6 of 24 throws). Its sides and its back keep the
// shape's margin: with the world's all round, the spinner's flung bodies held 42,400 contacts at step
// 100 (now 38,700; Box2D v3 19,900) and its step took 4-6% longer (docs/benchmarks.md, "The swept
// body's margin landed").
// The reach (Shape::extent) is from the body origin: a shape far from it keeps the world's margin,
// which is only the slower choice.
ProxyFit FitProxy(const WorldState& world, const Shape& shape) {
  const AABB box = Inflate(shape.aabb, world.settings.speculativeDistance);
  const Body& body = world.bodies[shape.body];
  const float margin = world.settings.aabbMargin;
  // The last step's time step; before the first, the usual 60 Hz (a body made moving fast before
  // the world ever stepped still has its contacts in time for the first step).
  const float dt = world.narrowphaseDt > 0.0f ? world.narrowphaseDt : 1.0f / 60.0f;
  Vec2 travel = dt * body.linearVelocity;
  const float speculative = world.settings.speculativeDistance;
  const float squared = LengthSquared(travel);
  const float least = kApproachFactor * speculative;
  if (!(squared > least * least) || body.type == BodyType::Static) {
    // The travel beyond the speculative distance, which the box already holds.
    const float own = std::max(kMarginPerExtent * shape.extent, std::sqrt(squared) - speculative);
    return {box, std::min(margin, own)};
  }
  // The travel, at most the body's size (maxExtent, not yet set while a new body's shapes are added:
  // the shape's own box stands in) and the world's margin; then, ahead only, what the world's margin
  // has over the shape's, which the fat box does not add.
  const float own = std::min(margin, kMarginPerExtent * shape.extent);
  const float size = std::max(body.maxExtent, 0.5f * Length(shape.aabb.upper - shape.aabb.lower)) + margin;
  const float length = std::sqrt(squared);
  travel = ((std::min(length, size) + (margin - own)) / length) * travel;
  return {Union(box, {box.lower + travel, box.upper + travel}), own};
}

void AddShapeToBroadphase(WorldState& world, int slot) {
  Shape& shape = world.shapes[slot];
  const Body& body = world.bodies[shape.body];
  // The callback reads the world through this pointer; WorldState lives behind a unique_ptr and
  // never moves, so setting it on every add is cheap insurance rather than a necessity.
  AttachBroadphaseFilter(world);
  ProxyDef def;
  const ProxyFit fit = FitProxy(world, shape);
  def.aabb = fit.box;
  def.userData = static_cast<std::uint64_t>(slot);
  def.type = body.type == BodyType::Static ? ProxyType::Static : ProxyType::Moving;
  def.awake = body.awake;
  def.filter = MakeProxyFilter(shape);
  def.margin = fit.margin;
  ProxyResult result = world.broadphase.CreateProxy(def);
  MK_ASSERT(result.ok());
  shape.proxy = result.id;
}

void RemoveShapeFromBroadphase(WorldState& world, int slot) {
  Shape& shape = world.shapes[slot];
  if (shape.proxy.IsNull()) return;
  world.broadphase.DestroyProxy(shape.proxy);
  shape.proxy = {};
}

int RefitBodyProxies(WorldState& world, int bodySlot, ScatterRefits& refitted) {
  const Body& body = world.bodies[bodySlot];
  int count = 0;
  for (int s = body.headShape; s != kNull; s = world.shapes[s].nextShape) {
    Shape& shape = world.shapes[s];
    shape.aabb = ComputeBoxAABB(world.geometries[s], body.xf);
    if (shape.proxy.IsNull()) continue;
    bool moved = false;
    const ProxyFit fit = FitProxy(world, shape);
    world.broadphase.RefitProxy(shape.proxy, fit.box, fit.margin, moved);
    if (!moved) continue;
    if (count < kListedRefits) refitted.proxy[count] = shape.proxy;
    ++count;
  }
  return std::min(count, kListedRefits + 1);
}

void QueueBodyProxies(WorldState& world, int bodySlot) {
  for (int s = world.bodies[bodySlot].headShape; s != kNull; s = world.shapes[s].nextShape) {
    const Shape& shape = world.shapes[s];
    if (!shape.proxy.IsNull()) world.broadphase.QueueRefittedProxy(shape.proxy);
  }
}

void UpdateBodyShapesInBroadphase(WorldState& world, int bodySlot, bool teleport) {
  const Body& body = world.bodies[bodySlot];
  for (int s = body.headShape; s != kNull; s = world.shapes[s].nextShape) {
    Shape& shape = world.shapes[s];
    shape.aabb = ComputeBoxAABB(world.geometries[s], body.xf);
    if (shape.proxy.IsNull()) continue;
    const ProxyFit fit = FitProxy(world, shape);
    world.broadphase.MoveProxy(shape.proxy, fit.box, fit.margin);
    (void)teleport;  // MoveProxy handles any distance; the broadphase re-sorts as needed
  }
}

void SetBodyShapesInBroadphase(WorldState& world, int bodySlot, bool enabled) {
  // Taken out: the shapes' contacts first, in one walk of the body's contacts and in the order a walk
  // a shape gave (a tile level's body made dynamic or disabled walked its contacts once a tile).
  if (!enabled) DestroyContactsOfBody(world, bodySlot);
  for (int s = world.bodies[bodySlot].headShape; s != kNull; s = world.shapes[s].nextShape) {
    if (enabled) {
      world.shapes[s].aabb = ComputeBoxAABB(world.geometries[s], world.bodies[bodySlot].xf);
      AddShapeToBroadphase(world, s);
    } else {
      RemoveShapeFromBroadphase(world, s);
    }
  }
}

void SetBodyProxiesAwake(WorldState& world, int bodySlot, bool awake) {
  for (int s = world.bodies[bodySlot].headShape; s != kNull; s = world.shapes[s].nextShape) {
    if (!world.shapes[s].proxy.IsNull()) world.broadphase.SetProxyAwake(world.shapes[s].proxy, awake);
  }
}

void RefilterShape(WorldState& world, int slot) {
  Shape& shape = world.shapes[slot];
  if (shape.proxy.IsNull()) return;
  world.broadphase.SetProxyFilter(shape.proxy, MakeProxyFilter(shape));
}

void UpdatePairs(WorldState& world) {
  world.broadphase.UpdatePairs(world.tasks);  // the search for new pairs on the workers, if any
  // Ended first: a pair can end and begin again in one update only if its proxy was recreated.
  // The pair table's slots are prefetched a few pairs ahead: each lookup is a cache miss (the table is
  // cold after the solver), and tumbler makes and ends about 1,100 contacts a step. So are the
  // records of the contacts to destroy, a few ahead of each DestroyContact, which reads its flags and
  // body edges.
  constexpr std::size_t kLookahead = 8;
  const auto keyOf = [](const ProxyPair& pair) {
    return PairMap::Key(static_cast<int>(pair.userDataA), static_cast<int>(pair.userDataB));
  };
  const Span<const ProxyPair> ended = world.broadphase.EndedPairs();
  std::vector<int>& endedContacts = world.pairContactScratch;
  endedContacts.clear();
  for (std::size_t i = 0; i < ended.size(); ++i) {
    if (i + kLookahead < ended.size()) world.contactByShapes.Prefetch(keyOf(ended[i + kLookahead]));
    const int contact = world.contactByShapes.Find(keyOf(ended[i]));
    if (contact != -1) endedContacts.push_back(contact);
  }
  constexpr std::size_t kRecordLookahead = 4;
  for (std::size_t i = 0; i < endedContacts.size(); ++i) {
    if (i + kRecordLookahead < endedContacts.size())
      PrefetchContactRecord(world.contacts[static_cast<std::size_t>(endedContacts[i + kRecordLookahead])]);
    DestroyContact(world, endedContacts[i], true);
  }
  // Contacts are created in shape-slot order, not proxy order: the solver visits contacts by slot, so
  // this keeps results independent of how the broadphase happened to number its proxies (e.g. after
  // unrelated proxies were created and destroyed).
  std::vector<std::uint64_t>& begun = world.begunPairScratch;
  begun.clear();
  for (const ProxyPair& pair : world.broadphase.BegunPairs()) begun.push_back(keyOf(pair));
  std::sort(begun.begin(), begun.end());
  // With workers, this thread makes and links the contacts in order and the workers fill the new
  // records (each a few cache lines written, and both shapes' materials read): a third of what
  // tumbler's creations cost the calling thread. Alone, it fills each record as it makes it.
  const bool fillOnWorkers = HasWorkers(&world.tasks);
  std::vector<int>& made = world.pairContactScratch;
  made.clear();
  for (std::size_t i = 0; i < begun.size(); ++i) {
    if (i + kLookahead < begun.size()) world.contactByShapes.Prefetch(begun[i + kLookahead]);
    const int slot =
        CreateContactLinks(world, static_cast<int>(begun[i] >> 32), static_cast<int>(begun[i] & 0xFFFFFFFFu));
    if (slot == kNull) continue;
    if (fillOnWorkers) {
      made.push_back(slot);
    } else {
      FillNewContact(world, slot);
    }
  }
  ParallelFor(&world.tasks, static_cast<int>(made.size()), kMinContactsPerRange, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) FillNewContact(world, made[static_cast<std::size_t>(i)]);
  });
}

}  // namespace mk
