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
#include <vector>

namespace mk {

namespace {

bool IsValidPlacement(const ShapeGeometry& shape, const Transform& xf) {
  return IsValidCastShape(shape) && IsValidCastTransform(xf);
}

// Box2D v3's query rule: the shape's category must be in the query's mask and the query's category
// in the shape's mask.
bool Accepts(const QueryFilter& query, const Filter& shape) {
  return (shape.categoryBits & query.maskBits) != 0 && (query.categoryBits & shape.maskBits) != 0;
}

const Transform& ShapeTransform(const WorldState& world, int slot) {
  return world.bodies[world.shapes[slot].body].xf;
}

struct RayQuery {
  const WorldState* world;
  QueryFilter filter;
  float (*fn)(const CastHit&, void*);
  void* context;
  float maxFraction;
};

// The broadphase visits fat boxes in entry order; each shape gets its exact cast against the ray as
// clipped so far, and the caller's answer clips, ignores or stops as RayCastFn describes.
float RayCastProxy(ProxyId, std::uint64_t userData, const RayCastInput& input, float, void* context) {
  RayQuery& query = *static_cast<RayQuery*>(context);
  const WorldState& world = *query.world;
  const int slot = static_cast<int>(userData);
  const Shape& shape = world.shapes[slot];
  if (shape.isSensor || !Accepts(query.filter, shape.filter)) return -1.0f;
  RayCastInput clipped = input;
  clipped.maxFraction = query.maxFraction;
  const CastOutput out = RayCastShapeUnchecked(world.geometries[slot], ShapeTransform(world, slot), clipped);
  if (!out.hit) return -1.0f;
  const CastHit hit{world.MakeShapeId(slot), out.point, out.normal, out.fraction, true};
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

// Casts `shape` against every candidate of the swept box; calls onHit(CastHit) for each hit within
// maxFraction (a hit of fraction <= maxFraction(), re-read per candidate so a closest search shrinks).
template <class OnHit, class Bound>
void CastShapeCandidates(const WorldState& world, const ShapeGeometry& shape, const Transform& xf,
                         Vec2 translation, const QueryFilter& filter, Bound&& maxFraction, OnHit&& onHit) {
  const AABB start = ComputeAABB(shape, xf);
  const AABB end{start.lower + translation, start.upper + translation};
  std::vector<int> slots;
  CollectCandidates(world, Union(start, end), slots);
  for (int slot : slots) {
    const Shape& target = world.shapes[slot];
    if (target.isSensor || !Accepts(filter, target.filter)) continue;
    const CastOutput out =
        ShapeCast(world.geometries[slot], ShapeTransform(world, slot), shape, xf, translation, maxFraction());
    if (out.hit) onHit(CastHit{world.MakeShapeId(slot), out.point, out.normal, out.fraction, true});
  }
}

}  // namespace

void World::CastRayImpl(Vec2 origin, Vec2 translation, const QueryFilter& filter,
                        float (*fn)(const CastHit&, void*), void* context) const {
  const bool valid = InCastRange(origin) && InCastRange(translation) && fn != nullptr;
  MK_ASSERT(valid);
  if (!valid || (translation.x == 0.0f && translation.y == 0.0f)) return;
  RayQuery query{state_.get(), filter, fn, context, 1.0f};
  state_->broadphase.RayCast({origin, translation, 1.0f}, &RayCastProxy, &query);
}

CastHit World::CastRayClosest(Vec2 origin, Vec2 translation, const QueryFilter& filter) const {
  CastHit best;
  CastRay(origin, translation, filter, [&best](const CastHit& hit) {
    // The broadphase clips to this fraction, so a later hit is nearer (or equal, and then ignored).
    if (!best.hit || hit.fraction < best.fraction) best = hit;
    return hit.fraction;
  });
  return best;
}

std::vector<CastHit> World::CastRayAll(Vec2 origin, Vec2 translation, const QueryFilter& filter) const {
  std::vector<CastHit> hits;
  CastRay(origin, translation, filter, [&hits](const CastHit& hit) {
    hits.push_back(hit);
    return 1.0f;
  });
  std::sort(hits.begin(), hits.end(), HitBefore);
  return hits;
}

CastHit World::CastShapeClosest(const ShapeGeometry& shape, const Transform& xf, Vec2 translation,
                                const QueryFilter& filter) const {
  const bool valid = IsValidPlacement(shape, xf) && InCastRange(translation);
  MK_ASSERT(valid);
  if (!valid) return {};
  CastHit best;
  auto bound = [&best] { return best.hit ? best.fraction : 1.0f; };
  CastShapeCandidates(*state_, shape, xf, translation, filter, bound, [&best](const CastHit& hit) {
    if (!best.hit || HitBefore(hit, best)) best = hit;
  });
  return best;
}

void World::CastShapeImpl(const ShapeGeometry& shape, const Transform& xf, Vec2 translation,
                          const QueryFilter& filter, float (*fn)(const CastHit&, void*),
                          void* context) const {
  const bool valid = IsValidPlacement(shape, xf) && InCastRange(translation) && fn != nullptr;
  MK_ASSERT(valid);
  if (!valid) return;
  std::vector<CastHit> hits;
  CastShapeCandidates(
      *state_, shape, xf, translation, filter, [] { return 1.0f; },
      [&hits](const CastHit& hit) { hits.push_back(hit); });
  std::sort(hits.begin(), hits.end(), HitBefore);
  float clip = 1.0f;
  for (const CastHit& hit : hits) {
    if (hit.fraction > clip) break;
    const float answer = fn(hit, context);
    if (answer == 0.0f) return;
    if (answer > 0.0f) clip = std::min(clip, answer);
  }
}

void World::OverlapShapeImpl(const ShapeGeometry* shape, const Transform& xf, const AABB* box,
                             const QueryFilter& filter, bool (*visit)(ShapeId, void*), void* context) const {
  const bool valid =
      visit != nullptr && (shape != nullptr ? IsValidPlacement(*shape, xf)
                                            : box != nullptr && mk::IsValid(*box) &&
                                                  InCastRange(box->lower) && InCastRange(box->upper));
  MK_ASSERT(valid);
  if (!valid) return;
  const WorldState& world = *state_;
  // The query shape as GJK sees it: the given shape, or the box's four corners in world coordinates
  // (GJK takes any point set, so a box of zero width or height needs no special case).
  Vec2 corners[4];
  ShapeProxy proxy;
  Transform queryXf = xf;
  AABB bounds;
  if (shape != nullptr) {
    proxy = MakeProxy(*shape);
    bounds = ComputeAABB(*shape, xf);
  } else {
    corners[0] = box->lower;
    corners[1] = {box->upper.x, box->lower.y};
    corners[2] = box->upper;
    corners[3] = {box->lower.x, box->upper.y};
    proxy = ShapeProxy{corners, 4, 0.0f};
    queryXf = Transform{};
    bounds = *box;
  }
  std::vector<int> slots;
  CollectCandidates(world, bounds, slots);
  for (int slot : slots) {
    if (!Accepts(filter, world.shapes[slot].filter)) continue;
    DistanceInput input;
    input.proxyA = MakeProxy(world.geometries[slot]);
    input.transformA = ShapeTransform(world, slot);
    input.proxyB = proxy;
    input.transformB = queryXf;
    if (ShapesOverlap(input) && !visit(world.MakeShapeId(slot), context)) return;
  }
}

Vec2 World::GetClosestPoint(ShapeId shapeId, Vec2 target) const {
  const WorldState& world = *state_;
  const bool valid = world.IsShape(shapeId) && InCastRange(target);
  MK_ASSERT(valid);
  if (!valid) return {0.0f, 0.0f};
  const int slot = world.ShapeSlot(shapeId);
  DistanceInput input;
  input.proxyA = MakeProxy(world.geometries[slot]);
  input.transformA = ShapeTransform(world, slot);
  input.proxyB = ShapeProxy{&target, 1, 0.0f};
  input.transformB = Transform{};
  const DistanceOutput out = ShapeDistance(input);
  // Inside the core, or within the radius of it: the target is its own closest point.
  if (out.status == DistanceStatus::InvalidInput || out.coresOverlap || out.distance <= 0.0f) return target;
  return out.pointA;
}

ShapeGeometry World::GetShapeGeometry(ShapeId shapeId) const {
  const WorldState& world = *state_;
  const bool valid = world.IsShape(shapeId);
  MK_ASSERT(valid);
  if (!valid) return {};
  return world.geometries[world.ShapeSlot(shapeId)];
}

}  // namespace mk
