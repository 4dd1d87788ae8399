// SPDX-License-Identifier: MIT
// Internal: the bounding box of transformed points, inline for the step's hot callers.
#pragma once

#include "minkowski/geometry.h"

namespace mk {

/// Bounds of `count` >= 1 points under `xf`, grown by `radius` (m). Inlined where the box is stored:
/// returned from a call, g++ 12 packed the box into one register, stored it to the stack and read it
/// back in halves, and the failed store-to-load forwards were a fifth of its samples (the broadphase
/// update of every moving shape, every step: 1.8-2.7% of the pyramids' and joint_grid's steps, perf).
[[gnu::always_inline]] inline AABB PointsAABB(const Vec2* points, int count, const Transform& xf,
                                              float radius) {
  // Bounds of the rotated points, translated once at the end: rounding is monotonic, so
  // min_i fl(x_i + p) = fl(min_i x_i + p) and the box has the same bits as translating every point
  // (two adds a point fewer; this runs for every shape of every awake body every step). Ties keep
  // the earlier point as Min and Max do.
  const float c = xf.q.c, s = xf.q.s;
  float lowerX = c * points[0].x - s * points[0].y, lowerY = s * points[0].x + c * points[0].y;
  float upperX = lowerX, upperY = lowerY;
  for (int i = 1; i < count; ++i) {
    const float x = c * points[i].x - s * points[i].y, y = s * points[i].x + c * points[i].y;
    lowerX = lowerX < x ? lowerX : x;
    lowerY = lowerY < y ? lowerY : y;
    upperX = upperX > x ? upperX : x;
    upperY = upperY > y ? upperY : y;
  }
  return {{(lowerX + xf.p.x) - radius, (lowerY + xf.p.y) - radius},
          {(upperX + xf.p.x) + radius, (upperY + xf.p.y) + radius}};
}

/// ComputeAABB(const ShapeGeometry&, const Transform&), inline.
[[gnu::always_inline]] inline AABB ShapeAABB(const ShapeGeometry& shape, const Transform& xf) {
  return PointsAABB(shape.Points(), shape.Count(), xf, shape.Radius());
}

}  // namespace mk
