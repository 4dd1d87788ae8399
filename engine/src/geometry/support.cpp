// SPDX-License-Identifier: MIT
// Support mapping and bounding boxes.
#include "geometry/points_aabb.h"
#include "minkowski/geometry.h"

#include <algorithm>
#include <cstddef>

namespace mk {

// Capsules and segments expose their two end points as a 2-point array; the layout makes that valid.
static_assert(offsetof(Capsule, p2) == offsetof(Capsule, p1) + sizeof(Vec2));
static_assert(offsetof(Segment, p2) == offsetof(Segment, p1) + sizeof(Vec2));

ShapeProxy MakeProxy(const Circle& circle) { return {&circle.center, 1, circle.radius}; }
ShapeProxy MakeProxy(const Capsule& capsule) { return {&capsule.p1, 2, capsule.radius}; }
ShapeProxy MakeProxy(const Segment& segment) { return {&segment.p1, 2, 0.0f}; }
ShapeProxy MakeProxy(const ChainSegment& segment) { return MakeProxy(segment.segment); }
ShapeProxy MakeProxy(const Polygon& polygon) { return {polygon.vertices, polygon.count, polygon.radius}; }
ShapeProxy MakeProxy(const ShapeGeometry& shape) { return {shape.Points(), shape.Count(), shape.Radius()}; }

int FindSupportScan(const ShapeProxy& proxy, Vec2 localDir) {
  int best = 0;
  float bestValue = Dot(proxy.points[0], localDir);
  for (int i = 1; i < proxy.count; ++i) {
    float value = Dot(proxy.points[i], localDir);
    if (value > bestValue) {
      best = i;
      bestValue = value;
    }
  }
  return best;
}

int FindSupportHillClimb(const ShapeProxy& proxy, Vec2 localDir, int startIndex) {
  const int n = proxy.count;
  int best = (startIndex >= 0 && startIndex < n) ? startIndex : 0;
  float bestValue = Dot(proxy.points[best], localDir);
  // Pick the uphill direction once, then walk while strictly improving. On a strictly convex
  // polygon the projection has a single maximum (or two equal neighbours), so this cannot stall
  // early; the walk is bounded by n steps regardless.
  int next = best + 1 == n ? 0 : best + 1;
  int prev = best == 0 ? n - 1 : best - 1;
  float nextValue = Dot(proxy.points[next], localDir);
  float prevValue = Dot(proxy.points[prev], localDir);
  int step = 0;
  if (nextValue > bestValue && nextValue >= prevValue) {
    step = 1;
  } else if (prevValue > bestValue) {
    step = n - 1;  // -1 modulo n
  }
  for (int walked = 0; step != 0 && walked < n; ++walked) {
    int candidate = (best + step) % n;
    float value = Dot(proxy.points[candidate], localDir);
    if (!(value > bestValue)) break;
    best = candidate;
    bestValue = value;
  }
  return best;
}

int FindSupport(const ShapeProxy& proxy, Vec2 localDir, int startIndex) {
  if (proxy.count < kHillClimbMinVertices) return FindSupportScan(proxy, localDir);
  return FindSupportHillClimb(proxy, localDir, startIndex);
}

Vec2 SupportPoint(const ShapeProxy& proxy, const Transform& xf, Vec2 worldDir) {
  Vec2 localDir = InvRotate(xf.q, worldDir);
  Vec2 core = TransformPoint(xf, proxy.points[FindSupport(proxy, localDir)]);
  return core + proxy.radius * Normalize(worldDir);
}

AABB ComputeAABB(const Circle& circle, const Transform& xf) {
  return PointsAABB(&circle.center, 1, xf, circle.radius);
}
AABB ComputeAABB(const Capsule& capsule, const Transform& xf) {
  return PointsAABB(&capsule.p1, 2, xf, capsule.radius);
}
AABB ComputeAABB(const Segment& segment, const Transform& xf) { return PointsAABB(&segment.p1, 2, xf, 0.0f); }
AABB ComputeAABB(const ChainSegment& segment, const Transform& xf) {
  return ComputeAABB(segment.segment, xf);
}
AABB ComputeAABB(const Polygon& polygon, const Transform& xf) {
  return PointsAABB(polygon.vertices, polygon.count, xf, polygon.radius);
}
AABB ComputeAABB(const ShapeGeometry& shape, const Transform& xf) { return ShapeAABB(shape, xf); }

}  // namespace mk
