// SPDX-License-Identifier: MIT
// The mover tests' independent answer: the exact separation of two placed shapes by GJK distance.
#pragma once

#include "minkowski/distance.h"

#include <cmath>

namespace mk::test {

/// Signed surface separation (m) of two placed shapes: the cores' GJK distance less both radii, or
/// -infinity when the cores overlap (an overlap no mover may ever reach).
inline float SurfaceSeparation(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                               const Transform& xfB) {
  DistanceInput input;
  input.proxyA = MakeProxy(a);
  input.transformA = xfA;
  input.proxyB = MakeProxy(b);
  input.transformB = xfB;
  const DistanceOutput out = ShapeDistance(input);
  return out.coresOverlap ? -INFINITY : out.coreDistance - a.Radius() - b.Radius();
}

}  // namespace mk::test
