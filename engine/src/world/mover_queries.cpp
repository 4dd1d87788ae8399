// SPDX-License-Identifier: MIT
// The mover's world queries (World::CollideMover, World::CastMover; minkowski/mover.h): a capsule
// against every shape the broadphase finds near it, exactly (GJK distance, EPA when the capsule's core
// is inside a shape, conservative advancement for the cast). Nothing here changes the world and no
// game code runs during the broadphase walk, so the walk takes no lock.
#include "minkowski/assert.h"
#include "minkowski/distance.h"
#include "minkowski/mover.h"
#include "minkowski/ray_cast.h"
#include "narrowphase/cast_input.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>

namespace mk {

namespace {

bool IsValidMover(const Capsule& mover) {
  return InCastRange(mover.p1) && InCastRange(mover.p2) && IsFinite(mover.radius) && mover.radius > 0.0f &&
         mover.radius <= kMaxCastLength;
}

// A chain segment is one-sided: a mover whose centre is behind its front side does not see it (the
// plane would pull the mover through), as a body passing behind a chain feels nothing.
bool BehindChain(const ShapeGeometry& shape, const Transform& xf, const Capsule& mover) {
  if (shape.Type() != ShapeType::ChainSegment) return false;
  const Vec2 p1 = TransformPoint(xf, shape.Points()[0]), p2 = TransformPoint(xf, shape.Points()[1]);
  const Vec2 centre = 0.5f * (mover.p1 + mover.p2);
  return Dot(RightPerp(p2 - p1), centre - p1) < 0.0f;
}

// Walks the shapes whose fat boxes meet `box` and that the filter accepts (no sensors, not behind a
// chain), calling visit(slot, geometry, transform) for each.
template <class Visit>
void ForEachMoverCandidate(const WorldState& world, const AABB& box, const Capsule& mover,
                           const QueryFilter& filter, Visit visit) {
  struct Walk {
    const WorldState* world;
    const Capsule* mover;
    QueryFilter filter;
    Visit* visit;
  } walk{&world, &mover, filter, &visit};
  auto onProxy = [](ProxyId, std::uint64_t userData, void* context) {
    const Walk& w = *static_cast<const Walk*>(context);
    const int slot = static_cast<int>(userData);
    const Shape& shape = w.world->shapes[slot];
    if (shape.isSensor || !QueryAccepts(*w.world, w.filter, slot)) return true;
    const ShapeGeometry& geometry = w.world->geometries[slot];
    // Movers are given in float world coordinates (world.h), so are the shapes they meet (the
    // large-world build keeps its positions about WorldDef::origin: world_internal.h).
    const Transform xf = RelativeTo(ToWorld(*w.world, w.world->bodies[shape.body].xf), Pos{0.0f, 0.0f});
    if (!BehindChain(geometry, xf, *w.mover)) (*w.visit)(slot, geometry, xf);
    return true;
  };
  world.broadphase.QueryAABB(WorldBoxToBroadphase(box, world.origin), onProxy, &walk);
}

DistanceInput MoverInput(const ShapeGeometry& shape, const Transform& xf, const Capsule& mover) {
  DistanceInput input;
  input.proxyA = MakeProxy(shape);
  input.transformA = xf;
  input.proxyB = MakeProxy(mover);
  input.transformB = Transform{};
  return input;
}

AABB Grown(const AABB& box, float margin) {
  return {box.lower - Vec2{margin, margin}, box.upper + Vec2{margin, margin}};
}

}  // namespace

int World::CollideMover(const Capsule& mover, const QueryFilter& filter, Span<PlaneResult> out) const {
  const bool valid = IsValidMover(mover);
  MK_ASSERT(valid);
  if (!valid || RefuseIfWalking(*state_)) return 0;
  const WorldState& world = *state_;
  int count = 0;
  const AABB box = Grown(ComputeAABB(mover, Transform{}), kMoverCollideDistance);
  ForEachMoverCandidate(
      world, box, mover, filter, [&](int slot, const ShapeGeometry& shape, const Transform& xf) {
        // Shape A, mover B: the normal points from the shape to the mover.
        const SeparationOutput sep = ShapeSeparation(MoverInput(shape, xf, mover));
        if (!sep.valid || sep.separation > kMoverCollideDistance) return;
        const PlaneResult found{
            {sep.normal, sep.separation - kMoverSkin}, sep.pointA, sep.separation, world.MakeShapeId(slot)};
        if (count < static_cast<int>(out.size())) {
          out[static_cast<std::size_t>(count++)] = found;
          return;
        }
        // Full: the nearest shapes matter most; replace the farthest kept one if this one is nearer.
        auto farthest = std::max_element(
            out.begin(), out.end(),
            [](const PlaneResult& a, const PlaneResult& b) { return a.separation < b.separation; });
        if (farthest != out.end() && found.separation < farthest->separation) *farthest = found;
      });
  return count;
}

float World::CastMover(const Capsule& mover, Vec2 translation, const QueryFilter& filter) const {
  const bool valid = IsValidMover(mover) && InCastRange(translation);
  MK_ASSERT(valid);
  if (!valid || RefuseIfWalking(*state_)) return 0.0f;
  if (translation.x == 0.0f && translation.y == 0.0f) return 1.0f;
  const WorldState& world = *state_;
  const AABB start = ComputeAABB(mover, Transform{});
  const AABB swept{Min(start.lower, start.lower + translation), Max(start.upper, start.upper + translation)};
  float fraction = 1.0f;
  ForEachMoverCandidate(world, Grown(swept, kMoverSkin), mover, filter,
                        [&](int, const ShapeGeometry& shape, const Transform& xf) {
                          const DistanceOutput distance = ShapeDistance(MoverInput(shape, xf, mover));
                          if (distance.status == DistanceStatus::InvalidInput || distance.coresOverlap)
                            return;
                          const float s0 = distance.coreDistance - shape.Radius() - mover.radius;
                          // The separation this shape must keep: the skin, or a little less than now when
                          // already nearer.
                          const float target = std::min(kMoverSkin, s0 - kMoverEncroach);
                          const float inflated = mover.radius + target;
                          // Overlapping by nearly the radius or more: only the plane solver can help; the
                          // cast ignores it.
                          if (inflated <= 2.0f * kShapeCastTolerance) return;
                          const Capsule grown{mover.p1, mover.p2, inflated};
                          const CastOutput hit =
                              ShapeCast(shape, xf, grown, Transform{}, translation, fraction);
                          if (hit.hit) fraction = std::min(fraction, hit.fraction);
                        });
  return fraction;
}

}  // namespace mk
