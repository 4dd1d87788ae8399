// SPDX-License-Identifier: MIT
// World queries: ray casts, shape casts, exact overlaps and closest points. Each asks the broadphase
// for candidates (fat boxes), then tests every candidate exactly against the shape's geometry at its
// body's transform. Nothing here runs in Step or changes the world.
#include "minkowski/assert.h"
#include "minkowski/distance.h"
#include "minkowski/ray_cast.h"
#include "narrowphase/cast_input.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace mk {

namespace {

// A query's position (origin, placement, target): within kMaxCastLength in the default build, four
// times kMaxWorldPosition in the large-world build (what a ray across the whole world needs).
bool InWorldCastRange(Pos p) {
#if defined(MK_LARGE_WORLDS)
  return std::fabs(p.x) <= 4.0 * kMaxWorldPosition && std::fabs(p.y) <= 4.0 * kMaxWorldPosition;
#else
  return InCastRange(p);
#endif
}

bool IsValidPlacement(const ShapeGeometry& shape, const WorldTransform& xf) {
  return IsValidCastShape(shape) && InWorldCastRange(xf.p) && IsFinite(xf.q.c) && IsFinite(xf.q.s);
}

// A shape's transform in the query's frame (world/world_frames.h: the world frame in the default
// build, where `frame` is zero, and about the query's own position in the large-world build).
Transform ShapeTransform(const WorldState& world, int slot, Pos frame) {
  return RelativeTo(world.bodies[world.shapes[slot].body].xf, frame);
}

struct RayQuery {
  const WorldState* world;
  QueryFilter filter;
  float (*fn)(const CastHit&, void*);
  void* context;
  float maxFraction;
  Pos origin;  // the ray, exact (internal frame: world_internal.h)
  Vec2 translation;
  Pos frame;  // FrameOrigin(origin)
};

// The broadphase visits fat boxes in entry order; each shape gets its exact cast against the ray as
// clipped so far, and the caller's answer clips, ignores or stops as RayCastFn describes.
float RayCastProxy(ProxyId, std::uint64_t userData, const RayCastInput&, float, void* context) {
  RayQuery& query = *static_cast<RayQuery*>(context);
  const WorldState& world = *query.world;
  const int slot = static_cast<int>(userData);
  const Shape& shape = world.shapes[slot];
  if (shape.isSensor || !QueryAccepts(world, query.filter, slot)) return -1.0f;
  // The broadphase's input is the ray in float world coordinates: the exact one is the query's.
  const RayCastInput clipped{query.origin - query.frame, query.translation, query.maxFraction};
  const CastOutput out =
      RayCastShapeUnchecked(world.geometries[slot], ShapeTransform(world, slot, query.frame), clipped);
  if (!out.hit) return -1.0f;
  const CastHit hit{world.MakeShapeId(slot), ToWorld(world, FramePointToWorld(out.point, query.frame)),
                    out.normal, out.fraction, true};
  const float answer = query.fn(hit, query.context);
  if (answer == 0.0f) return 0.0f;
  if (answer < 0.0f) return -1.0f;
  query.maxFraction = std::min(query.maxFraction, answer);
  return answer;
}

bool HitBefore(const CastHit& a, const CastHit& b) {
  return a.fraction < b.fraction || (a.fraction == b.fraction && a.shape.index1 < b.shape.index1);
}

// Collects the broadphase proxies whose fat boxes overlap a box, as shape slots.
void CollectCandidates(const WorldState& world, const AABB& box, std::vector<int>& slots) {
  auto onProxy = [](ProxyId, std::uint64_t userData, void* context) {
    static_cast<std::vector<int>*>(context)->push_back(static_cast<int>(userData));
    return true;
  };
  world.broadphase.QueryAABB(box, onProxy, &slots);
}

// A lower bound on the fraction at which a shape whose bounding box is `cast`, translated by
// t * translation, comes within kShapeCastTolerance of a shape whose bounding box is `target`: the
// entry of the cast box's centre, as a ray, into `target` grown by the cast box's half extents (the
// Minkowski sum of the two boxes), as Box2D's tree shape cast orders its nodes. At a hit the two boxes
// are within the tolerance on both axes, so the grown box is padded by twice the tolerance plus a
// relative margin for the rounding of GJK, the boxes and this slab test (Ericson, Real-Time Collision
// Detection, 5.3.3): too low costs one ShapeCast more, too high would lose a hit. 2 means a miss.
float CastEntry(const AABB& cast, Vec2 translation, const AABB& target) {
  const Vec2 c = Center(cast), h = 0.5f * (cast.upper - cast.lower);
  float tMin = 0.0f, tMax = 1.0f;
  for (int k = 0; k < 2; ++k) {
    const float scale = std::fabs(c[k]) + std::fabs(h[k]) + std::fabs(translation[k]) +
                        std::max(std::fabs(target.lower[k]), std::fabs(target.upper[k]));
    const float pad = h[k] + 2.0f * kShapeCastTolerance + 1e-5f * scale;
    const float lo = target.lower[k] - pad, hi = target.upper[k] + pad;
    if (translation[k] == 0.0f) {
      if (c[k] < lo || c[k] > hi) return 2.0f;
      continue;
    }
    const float inv = 1.0f / translation[k];
    const float t1 = (lo - c[k]) * inv, t2 = (hi - c[k]) * inv;
    tMin = std::max(tMin, std::min(t1, t2));
    tMax = std::min(tMax, std::max(t1, t2));
    if (tMin > tMax) return 2.0f;
  }
  return tMin;
}

// One shape cast as the broadphase's box cast sees it.
struct ShapeCastQuery {
  const WorldState* world;
  const ShapeGeometry* shape;
  Transform xf;  // in the frame about `frame`
  Vec2 translation;
  QueryFilter filter;
  AABB castBox;  // the cast shape's bounding box at t = 0 (as the broadphase holds boxes)
  Pos frame;     // FrameOrigin of the cast's placement
};

ShapeCastQuery MakeShapeCastQuery(const WorldState* world, const ShapeGeometry& shape,
                                  const WorldTransform& xf, Vec2 translation, const QueryFilter& filter) {
  const WorldTransform at = ToInternal(*world, xf);
  const Pos frame = FrameOrigin(at.p);
  const Transform local = RelativeTo(at, frame);
  return {world, &shape, local, translation, filter, FrameBoxToBroadphase(ComputeAABB(shape, local), frame),
          frame};
}

// Walks the fat boxes the cast shape's bounding box meets, by entry fraction (Box2D's tree shape cast
// grows the tree's boxes by the cast box the same way). The extents are grown like CastEntry's pad, so
// a shape's fat-box entry never exceeds the fraction at which the cast touches it, and clipping the
// walk to a hit loses nothing before it.
void WalkCast(const ShapeCastQuery& query, RayCastFn fn, void* context) {
  const Vec2 c = Center(query.castBox), h = 0.5f * (query.castBox.upper - query.castBox.lower);
  Vec2 extent;
  for (int k = 0; k < 2; ++k) {
    const float scale = std::fabs(c[k]) + std::fabs(h[k]) + std::fabs(query.translation[k]);
    extent[k] = h[k] + 2.0f * kShapeCastTolerance + 1e-5f * scale;
  }
  query.world->broadphase.BoxCast({c, query.translation, 1.0f}, extent, fn, context);
}

// Whether the query takes the shape in `slot` (no sensor, filter passes); if so `entry` is the lower
// bound on the fraction at which the cast can touch it (CastEntry on its tight box).
bool TakeCandidate(const ShapeCastQuery& query, int slot, float& entry) {
  const WorldState& world = *query.world;
  const Shape& target = world.shapes[slot];
  if (target.isSensor || !QueryAccepts(world, query.filter, slot)) return false;
  entry = CastEntry(
      query.castBox, query.translation,
      FrameBoxToBroadphase(ComputeAABB(world.geometries[slot], ShapeTransform(world, slot, query.frame)),
                           query.frame));
  return true;
}

// ShapeCast of `shape` against one candidate. ShapeCast's fraction does not depend on maxFraction
// (conservative advancement only stops earlier when it passes it), so clipping never changes a hit.
CastOutput CastAgainst(const ShapeCastQuery& query, int slot, float maxFraction) {
  return ShapeCast(query.world->geometries[slot], ShapeTransform(*query.world, slot, query.frame),
                   *query.shape, query.xf, query.translation, maxFraction);
}

CastHit MakeCastHit(const ShapeCastQuery& query, int slot, const CastOutput& out) {
  return {query.world->MakeShapeId(slot), ToWorld(*query.world, FramePointToWorld(out.point, query.frame)),
          out.normal, out.fraction, true};
}

// Borrows a scratch vector of the world for one query, so that a callback that (against the rules)
// runs another query finds an empty one instead of pulling the storage from under this one.
template <class T>
struct Borrowed {
  std::vector<T>& home;
  std::vector<T> items;
  explicit Borrowed(std::vector<T>& scratch) : home(scratch), items(std::move(scratch)) { items.clear(); }
  ~Borrowed() {
    if (home.capacity() < items.capacity()) home = std::move(items);
  }
  Borrowed(const Borrowed&) = delete;
  Borrowed& operator=(const Borrowed&) = delete;
};

}  // namespace

void World::CastRayImpl(Pos origin, Vec2 translation, const QueryFilter& filter,
                        float (*fn)(const CastHit&, void*), void* context) const {
  const bool valid = InWorldCastRange(origin) && InCastRange(translation) && fn != nullptr;
  MK_ASSERT(valid);
  if (!valid || (translation.x == 0.0f && translation.y == 0.0f) || RefuseIfWalking(*state_)) return;
  const WorldLock lock(*state_, /*walk=*/true);  // fn runs inside the broadphase's ray walk
  const Pos at = ToInternal(*state_, origin);
  RayQuery query{state_.get(), filter, fn, context, 1.0f, at, translation, FrameOrigin(at)};
#if defined(MK_LARGE_WORLDS)
  // The broadphase is float: the ray's start rounds by up to half a float's spacing there, so the walk
  // is a box cast that wide (the boxes are rounded outwards already).
  const Vec2 start = ToVec2(at);
  const float pad = 1.2e-7f * std::max(std::fabs(start.x), std::fabs(start.y)) + 1e-6f;
  state_->broadphase.BoxCast({start, translation, 1.0f}, Vec2{pad, pad}, &RayCastProxy, &query);
#else
  state_->broadphase.RayCast({at, translation, 1.0f}, &RayCastProxy, &query);
#endif
}

CastHit World::CastRayClosest(Pos origin, Vec2 translation, const QueryFilter& filter) const {
  CastHit best;
  CastRay(origin, translation, filter, [&best](const CastHit& hit) {
    // The broadphase clips to this fraction, so a later hit is nearer (or equal, and then ignored).
    if (!best.hit || hit.fraction < best.fraction) best = hit;
    return hit.fraction;
  });
  return best;
}

int World::CastRayAll(Pos origin, Vec2 translation, const QueryFilter& filter, Span<CastHit> out) const {
  std::vector<CastHit>& hits = state_->rayHits;
  hits.clear();
  CastRay(origin, translation, filter, [&hits](const CastHit& hit) {
    hits.push_back(hit);
    return 1.0f;
  });
  std::sort(hits.begin(), hits.end(), HitBefore);
  std::copy_n(hits.begin(), std::min(hits.size(), out.size()), out.begin());
  return static_cast<int>(hits.size());
}

namespace {

// A clip for the broadphase walk at fraction f: f itself, or the least positive float for 0 (returning
// 0 would stop the walk, and another shape touched at 0 may still win by slot).
float ClipAt(float f) { return f > 0.0f ? f : std::numeric_limits<float>::min(); }

struct ClosestCast {
  ShapeCastQuery query;
  CastHit best;
};

// Candidates arrive by entry; the walk is clipped to the best hit, so a shape entered beyond it is
// never visited. One entered exactly at it may still tie, and win by slot.
float ClosestCastProxy(ProxyId, std::uint64_t userData, const RayCastInput&, float, void* context) {
  ClosestCast& cast = *static_cast<ClosestCast*>(context);
  const ShapeCastQuery& query = cast.query;
  const int slot = static_cast<int>(userData);
  const float bound = cast.best.hit ? cast.best.fraction : 1.0f;
  float entry = 0.0f;
  if (!TakeCandidate(query, slot, entry) || entry > bound) return -1.0f;
  const CastOutput out = CastAgainst(query, slot, bound);
  if (!out.hit) return -1.0f;
  const CastHit hit = MakeCastHit(query, slot, out);
  if (!cast.best.hit || HitBefore(hit, cast.best)) cast.best = hit;
  return ClipAt(cast.best.fraction);
}

// CastShape's walk: a hit waits in a min-heap (by fraction, then slot) until no candidate left can
// touch before it, i.e. until the walk's entry fraction passes it; the caller's clip clips the walk.
struct CallbackCast {
  ShapeCastQuery query;
  float (*fn)(const CastHit&, void*);
  void* context;
  std::vector<CastHit>* heap;
  float clip = 1.0f;
  bool stopped = false;

  static bool After(const CastHit& a, const CastHit& b) { return HitBefore(b, a); }

  // Reports the waiting hits of fraction below `limit`; false once fn stopped the cast.
  bool Release(float limit) {
    while (!heap->empty() && heap->front().fraction < limit) {
      std::pop_heap(heap->begin(), heap->end(), After);
      const CastHit hit = heap->back();
      heap->pop_back();
      if (hit.fraction > clip) continue;
      const float answer = fn(hit, context);
      if (answer == 0.0f) return !(stopped = true);
      if (answer > 0.0f) clip = std::min(clip, answer);
    }
    return true;
  }
};

float CallbackCastProxy(ProxyId, std::uint64_t userData, const RayCastInput&, float walkEntry,
                        void* context) {
  CallbackCast& cast = *static_cast<CallbackCast*>(context);
  const ShapeCastQuery& query = cast.query;
  if (!cast.Release(walkEntry)) return 0.0f;
  const int slot = static_cast<int>(userData);
  float entry = 0.0f;
  if (!TakeCandidate(query, slot, entry) || entry > cast.clip) return cast.clip;
  const CastOutput out = CastAgainst(query, slot, cast.clip);
  if (out.hit) {
    cast.heap->push_back(MakeCastHit(query, slot, out));
    std::push_heap(cast.heap->begin(), cast.heap->end(), CallbackCast::After);
  }
  return cast.clip;
}

}  // namespace

CastHit World::CastShapeClosest(const ShapeGeometry& shape, const WorldTransform& xf, Vec2 translation,
                                const QueryFilter& filter) const {
  const bool valid = IsValidPlacement(shape, xf) && InCastRange(translation);
  MK_ASSERT(valid);
  if (!valid || RefuseIfWalking(*state_)) return {};
  ClosestCast cast{MakeShapeCastQuery(state_.get(), shape, xf, translation, filter), {}};
  WalkCast(cast.query, &ClosestCastProxy, &cast);
  return cast.best;
}

void World::CastShapeImpl(const ShapeGeometry& shape, const WorldTransform& xf, Vec2 translation,
                          const QueryFilter& filter, float (*fn)(const CastHit&, void*),
                          void* context) const {
  const bool valid = IsValidPlacement(shape, xf) && InCastRange(translation) && fn != nullptr;
  MK_ASSERT(valid);
  if (!valid || RefuseIfWalking(*state_)) return;
  const WorldLock lock(*state_, /*walk=*/true);  // fn runs inside the broadphase's box walk
  Borrowed<CastHit> pending(state_->castHits);
  CallbackCast cast{MakeShapeCastQuery(state_.get(), shape, xf, translation, filter), fn, context,
                    &pending.items};
  WalkCast(cast.query, &CallbackCastProxy, &cast);
  if (!cast.stopped) cast.Release(std::numeric_limits<float>::infinity());
}

void World::OverlapShapeImpl(const ShapeGeometry* shape, const WorldTransform& xf, const AABB* box,
                             const QueryFilter& filter, bool (*visit)(ShapeId, void*), void* context) const {
  const bool valid =
      visit != nullptr && (shape != nullptr ? IsValidPlacement(*shape, xf)
                                            : box != nullptr && mk::IsValid(*box) && InWorldCastRange(xf.p) &&
                                                  InCastRange(box->lower) && InCastRange(box->upper));
  MK_ASSERT(valid);
  if (!valid || RefuseIfWalking(*state_)) return;
  // The candidates are collected before the first visit, so a visit may query again (no walk runs).
  const WorldLock lock(*state_, /*walk=*/false);
  const WorldState& world = *state_;
  // The query shape as GJK sees it: the given shape, or the box's four corners (GJK takes any point
  // set, so a box of zero width or height needs no special case). A box is given about xf.p (zero for
  // OverlapAABB, the point for OverlapPoint). All in the frame about `frame` (world/world_frames.h).
  const WorldTransform at = ToInternal(world, xf);
  const Pos frame = FrameOrigin(at.p);
  Vec2 corners[4];
  ShapeProxy proxy;
  Transform queryXf = RelativeTo(at, frame);
  AABB bounds;
  if (shape != nullptr) {
    proxy = MakeProxy(*shape);
    bounds = FrameBoxToBroadphase(ComputeAABB(*shape, queryXf), frame);
  } else {
    const Vec2 offset = at.p - frame;
    corners[0] = offset + box->lower;
    corners[1] = offset + Vec2{box->upper.x, box->lower.y};
    corners[2] = offset + box->upper;
    corners[3] = offset + Vec2{box->lower.x, box->upper.y};
    proxy = ShapeProxy{corners, 4, 0.0f};
    queryXf = Transform{};
    bounds = OffsetBoxToBroadphase(at.p, *box);
  }
  std::vector<int> slots;
  CollectCandidates(world, bounds, slots);
  for (int slot : slots) {
    if (!QueryAccepts(world, filter, slot)) continue;
    DistanceInput input;
    input.proxyA = MakeProxy(world.geometries[slot]);
    input.transformA = ShapeTransform(world, slot, frame);
    input.proxyB = proxy;
    input.transformB = queryXf;
    if (ShapesOverlap(input) && !visit(world.MakeShapeId(slot), context)) return;
  }
}

Pos World::GetClosestPoint(ShapeId shapeId, Pos target) const {
  const WorldState& world = *state_;
  const bool valid = world.IsShape(shapeId) && InWorldCastRange(target);
  MK_ASSERT(valid);
  if (!valid) return {0.0f, 0.0f};
  const int slot = world.ShapeSlot(shapeId);
  const Pos inside = ToInternal(world, target);
  const Pos frame = FrameOrigin(inside);
  const Vec2 point = inside - frame;
  DistanceInput input;
  input.proxyA = MakeProxy(world.geometries[slot]);
  input.transformA = ShapeTransform(world, slot, frame);
  input.proxyB = ShapeProxy{&point, 1, 0.0f};
  input.transformB = Transform{};
  const DistanceOutput out = ShapeDistance(input);
  // Inside the core, or within the radius of it: the target is its own closest point.
  if (out.status == DistanceStatus::InvalidInput || out.coresOverlap || out.distance <= 0.0f) return target;
  return ToWorld(world, FramePointToWorld(out.pointA, frame));
}

ShapeGeometry World::GetShapeGeometry(ShapeId shapeId) const {
  const WorldState& world = *state_;
  const bool valid = world.IsShape(shapeId);
  MK_ASSERT(valid);
  if (!valid) return {};
  return world.geometries[world.ShapeSlot(shapeId)];
}

}  // namespace mk
