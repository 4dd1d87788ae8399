// SPDX-License-Identifier: MIT
// Internal: a segment against a box (the broadphase's ray and box casts, the narrowphase's swept-box
// test for closing pairs).
#pragma once

#include "minkowski/math.h"

#include <algorithm>
#include <utility>

namespace mk {

/// Entry fraction of the segment origin + t d, t in [0, tMax], into a closed box (slab method, Kay and
/// Kajiya 1986; Ericson, Real-Time Collision Detection, 5.3.3). Returns -1 on a miss. A box swept
/// along d meets another box when its centre's segment enters the other grown by its half extents.
inline float SegmentEntry(Vec2 origin, Vec2 d, float tMax, const AABB& box) {
  float tMin = 0.0f;
  for (int k = 0; k < 2; ++k) {
    if (d[k] == 0.0f) {
      if (origin[k] < box.lower[k] || origin[k] > box.upper[k]) return -1.0f;
      continue;
    }
    const float inv = 1.0f / d[k];
    float t1 = (box.lower[k] - origin[k]) * inv;
    float t2 = (box.upper[k] - origin[k]) * inv;
    if (t1 > t2) std::swap(t1, t2);
    tMin = std::max(tMin, t1);
    tMax = std::min(tMax, t2);
    if (tMin > tMax) return -1.0f;
  }
  return tMin;
}

}  // namespace mk
