// SPDX-License-Identifier: MIT
// Internal: the float frames the engine computes in, which differ between the default and the
// large-world build (docs/design.md, "Large worlds").
//
// Positions are Pos: floats in the default build, doubles with MK_LARGE_WORLDS. Everything local to
// a body, a contact or a query stays float: the narrowphase, the solver's deltas, shape geometry.
// Where world positions meet float code, the large-world build takes them relative to a nearby
// origin (a body's origin, a sweep's start, a query's origin) first, so the float math sees small
// numbers; the default build keeps its world-frame math, bit for bit (the origin is zero or absent).
#pragma once

#include "geometry/points_aabb.h"
#include "minkowski/geometry.h"
#include "minkowski/math.h"

#include <cmath>

namespace mk {

/// The float transforms a contact's manifold is computed and recycled with. Default build: the bodies'
/// world transforms themselves (references: nothing copied on the narrowphase's path). Large-world
/// build: both relative to body A's origin, so the manifold's points (ManifoldPoint::point) are relative
/// to it; the anchors (from each body's origin) mean the same in both builds.
///@{
#if defined(MK_LARGE_WORLDS)
inline Transform ContactTransformA(const WorldTransform& xfA) { return {Vec2{0.0f, 0.0f}, xfA.q}; }
inline Transform ContactTransformB(const WorldTransform& xfA, const WorldTransform& xfB) {
  return RelativeTo(xfB, xfA.p);
}
#else
inline const Transform& ContactTransformA(const Transform& xfA) { return xfA; }
inline const Transform& ContactTransformB(const Transform&, const Transform& xfB) { return xfB; }
#endif
///@}

/// A contact's manifold point (ManifoldPoint::point, computed with ContactTransforms) in the world.
inline Pos ContactPointInWorld([[maybe_unused]] const WorldTransform& xfA, Vec2 point) {
#if defined(MK_LARGE_WORLDS)
  return xfA.p + point;
#else
  return point;
#endif
}

/// A point of a frame about `origin` (FrameOrigin) in the world.
inline Pos FramePointToWorld(Vec2 point, [[maybe_unused]] Pos origin) {
#if defined(MK_LARGE_WORLDS)
  return origin + point;
#else
  return point;
#endif
}

/// The origin a frame near `p` is taken about: `p` in the large-world build, zero (world frame,
/// unchanged float math) in the default build.
inline Pos FrameOrigin([[maybe_unused]] Pos p) {
#if defined(MK_LARGE_WORLDS)
  return p;
#else
  return Pos{0.0f, 0.0f};
#endif
}

/// A transform of a frame about `origin` (FrameOrigin) in the world.
inline WorldTransform FrameToWorld(const Transform& xf, [[maybe_unused]] Pos origin) {
#if defined(MK_LARGE_WORLDS)
  return {origin + xf.p, xf.q};
#else
  return xf;
#endif
}

// --- The broadphase's boxes -----------------------------------------------------------------------
//
// The broadphase is float; its boxes (Shape::aabb, the proxies) are in the world's internal frame:
// world coordinates in the default build, about WorldDef::origin in the large-world build (where
// positions are kept relative to it: WorldState::origin). The public calls that take or return world
// boxes (GetAABB, QueryAABB, OverlapAABB) convert.

#if defined(MK_LARGE_WORLDS)
/// The largest float not above x, and the smallest not below: a float box that holds a double one.
///@{
inline float RoundDown(double x) {
  const float f = static_cast<float>(x);
  return static_cast<double>(f) > x ? std::nextafter(f, -INFINITY) : f;
}
inline float RoundUp(double x) {
  const float f = static_cast<float>(x);
  return static_cast<double>(f) < x ? std::nextafter(f, INFINITY) : f;
}
///@}

/// The box `box` (metres about the point (dx, dy)) as a float box that holds it.
inline AABB MoveBoxOutwards(const AABB& box, double dx, double dy) {
  return {
      {RoundDown(dx + static_cast<double>(box.lower.x)), RoundDown(dy + static_cast<double>(box.lower.y))},
      {RoundUp(dx + static_cast<double>(box.upper.x)), RoundUp(dy + static_cast<double>(box.upper.y))}};
}
#endif

/// The shape's box as the broadphase holds it.
inline AABB ComputeBoxAABB(const ShapeGeometry& geometry, const WorldTransform& xf) {
#if defined(MK_LARGE_WORLDS)
  // About the body origin, then moved in double and rounded outwards: two shapes that touch keep
  // boxes that overlap however far from the box origin they are (rounded to nearest, each box could
  // move by half a float's spacing, 0.5 m at 10,000 km, and part).
  const AABB local = ShapeAABB(geometry, Transform{Vec2{0.0f, 0.0f}, xf.q});
  return MoveBoxOutwards(local, xf.p.x, xf.p.y);
#else
  return ShapeAABB(geometry, xf);
#endif
}

/// origin + box (box in metres about `origin`) as the broadphase holds boxes.
inline AABB OffsetBoxToBroadphase(Pos origin, const AABB& box) {
#if defined(MK_LARGE_WORLDS)
  return MoveBoxOutwards(box, origin.x, origin.y);
#else
  return {origin + box.lower, origin + box.upper};
#endif
}

/// A box of a frame about `frameOrigin` (FrameOrigin: zero in the default build, where the box is
/// returned as it is) as the broadphase holds boxes.
inline AABB FrameBoxToBroadphase(const AABB& box, [[maybe_unused]] Pos frameOrigin) {
#if defined(MK_LARGE_WORLDS)
  return OffsetBoxToBroadphase(frameOrigin, box);
#else
  return box;
#endif
}

/// A broadphase box as a world box (World::GetAABB): rounded outwards in the large-world build.
inline AABB BroadphaseBoxToWorld(const AABB& box, [[maybe_unused]] Pos worldOrigin) {
#if defined(MK_LARGE_WORLDS)
  return MoveBoxOutwards(box, worldOrigin.x, worldOrigin.y);
#else
  return box;
#endif
}

/// A world box (World::QueryAABB, OverlapAABB) as the broadphase holds boxes: rounded outwards in the
/// large-world build.
inline AABB WorldBoxToBroadphase(const AABB& box, [[maybe_unused]] Pos worldOrigin) {
#if defined(MK_LARGE_WORLDS)
  return MoveBoxOutwards(box, -worldOrigin.x, -worldOrigin.y);
#else
  return box;
#endif
}

/// A box about the world point `boxOrigin` (World::QueryAABB's origin form) as the broadphase holds
/// boxes: moved by the origin's offset from the world's float frame, in double and rounded outwards
/// in the large-world build; moved in float in the default one (by zero: the box as it is).
inline AABB WorldBoxToBroadphase(Pos boxOrigin, const AABB& box, [[maybe_unused]] Pos worldOrigin) {
#if defined(MK_LARGE_WORLDS)
  return MoveBoxOutwards(box, boxOrigin.x - worldOrigin.x, boxOrigin.y - worldOrigin.y);
#else
  return {boxOrigin + box.lower, boxOrigin + box.upper};
#endif
}

/// A broadphase box as a box about the world point `boxOrigin` (World::GetAABB's origin form).
inline AABB BroadphaseBoxAbout(const AABB& box, [[maybe_unused]] Pos boxOrigin,
                               [[maybe_unused]] Pos worldOrigin) {
#if defined(MK_LARGE_WORLDS)
  return MoveBoxOutwards(box, worldOrigin.x - boxOrigin.x, worldOrigin.y - boxOrigin.y);
#else
  return {box.lower - boxOrigin, box.upper - boxOrigin};
#endif
}

}  // namespace mk
