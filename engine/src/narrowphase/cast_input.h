// SPDX-License-Identifier: MIT
// Internal: the input checks the casts (ray_cast.cpp) and the world's queries (world/queries.cpp)
// share, so that both refuse the same values.
#pragma once

#include "minkowski/ray_cast.h"

#include <cmath>

namespace mk {

/// Finite, with both coordinates within kMaxCastLength.
inline bool InCastRange(Vec2 v) {
  return IsFinite(v) && std::fabs(v.x) <= kMaxCastLength && std::fabs(v.y) <= kMaxCastLength;
}

/// A finite transform whose position is within kMaxCastLength.
inline bool IsValidCastTransform(const Transform& xf) {
  return InCastRange(xf.p) && IsFinite(xf.q.c) && IsFinite(xf.q.s);
}

/// A geometry a cast or an overlap can take: a real type, at least one point, every point within
/// kMaxCastLength and a finite radius >= 0. O(points); a world's own geometries always pass.
inline bool IsValidCastShape(const ShapeGeometry& shape) {
  if (shape.Type() == ShapeType::Count || shape.Count() < 1 || !IsFinite(shape.Radius()) ||
      shape.Radius() < 0.0f || shape.Radius() > kMaxCastLength)
    return false;
  for (int i = 0; i < shape.Count(); ++i) {
    if (!InCastRange(shape.Points()[i])) return false;
  }
  return true;
}

/// A proxy a shape cast can take: 1..kMaxPolygonVertices points, every one within kMaxCastLength,
/// and a finite radius in [0, kMaxCastLength]. O(points).
inline bool IsValidCastProxy(const ShapeProxy& proxy) {
  if (proxy.points == nullptr || proxy.count < 1 || proxy.count > kMaxPolygonVertices ||
      !IsFinite(proxy.radius) || proxy.radius < 0.0f || proxy.radius > kMaxCastLength)
    return false;
  for (int i = 0; i < proxy.count; ++i) {
    if (!InCastRange(proxy.points[i])) return false;
  }
  return true;
}

/// RayCastShape without its input checks, for callers whose inputs passed them already (the world's
/// ray cast: its shapes are valid, the ray was checked once per query).
CastOutput RayCastShapeUnchecked(const ShapeGeometry& shape, const Transform& xf, const RayCastInput& input);

}  // namespace mk
