// SPDX-License-Identifier: MIT
// Separating axes for overlapping cores: the fallback when EPA fails.
//
// For convex polygons in 2D the boundary of A - B is made of the edges of A and of -B, so its
// closest boundary point to the origin lies on a line whose normal is an edge normal of A or of B
// (negated). The penetration along a unit direction n is the support function of the difference,
// h(n) = max_A n.a - min_B n.b; the minimum translation is the smallest h over those normals
// (Gottschalk 1996; Ericson, RTCD 4.4). A 2-point core (segment, capsule) is a flat polygon with
// both sides of its segment as edges; a 1-point core contributes no normal. O((nA + nB)^2): only
// for the rare EPA failure.
#include "narrowphase/gjk_internal.h"

#include <cfloat>

namespace mk::detail {

namespace {

struct Axis {
  Vec2 normal{1.0f, 0.0f};
  float depth = FLT_MAX;
  int indexA = 0;  // deepest vertex of A along normal
  int indexB = 0;  // deepest vertex of B against normal
  bool fromA = true;
};

void TestAxis(const LocalPair& pair, const Vec2* pointsB, Vec2 n, bool fromA, Axis& best) {
  int ia = 0;
  float maxA = Dot(n, pair.pointsA[0]);
  for (int i = 1; i < pair.countA; ++i) {
    float value = Dot(n, pair.pointsA[i]);
    if (value > maxA) {
      maxA = value;
      ia = i;
    }
  }
  int ib = 0;
  float minB = Dot(n, pointsB[0]);
  for (int i = 1; i < pair.countB; ++i) {
    float value = Dot(n, pointsB[i]);
    if (value < minB) {
      minB = value;
      ib = i;
    }
  }
  float depth = maxA - minB;
  if (depth < best.depth) best = {n, depth, ia, ib, fromA};
}

// Outward normals of a core's edges i -> i + 1 (for 2 points: both sides), tested as axes.
// `sign` = -1 for B's edges: B's outward normal m gives the axis -m in the A-to-B convention.
void TestEdges(const LocalPair& pair, const Vec2* pointsB, const Vec2* points, int count, float sign,
               Axis& best) {
  if (count < 2) return;
  for (int i = 0; i < count; ++i) {
    Vec2 e = points[i + 1 == count ? 0 : i + 1] - points[i];
    Vec2 n = Normalize(RightPerp(e));
    if (n.x == 0.0f && n.y == 0.0f) continue;
    TestAxis(pair, pointsB, sign * n, sign > 0.0f, best);
  }
}

}  // namespace

LocalPenetration RunSat(const LocalPair& pair) {
  LocalPenetration out{};
  out.status = PenetrationStatus::Failed;
  Vec2 pointsB[kMaxPolygonVertices];
  for (int i = 0; i < pair.countB; ++i) pointsB[i] = TransformPoint(pair.xf, pair.pointsB[i]);

  Axis best;
  TestEdges(pair, pointsB, pair.pointsA, pair.countA, 1.0f, best);
  TestEdges(pair, pointsB, pointsB, pair.countB, -1.0f, best);
  if (best.depth == FLT_MAX) {
    // Two single points: the difference is a point, the depth 0.
    out.normal = {1.0f, 0.0f};
    out.pointA = pair.pointsA[0];
    out.pointB = pointsB[0];
    out.status = PenetrationStatus::SatFallback;
    return out;
  }
  float depth = best.depth > 0.0f ? best.depth : 0.0f;
  out.normal = best.normal;
  out.depth = depth;
  // A witness on the reference side's face, the other at the deepest vertex (a - b = depth n).
  if (best.fromA) {
    out.pointB = pointsB[best.indexB];
    out.pointA = out.pointB + depth * best.normal;
  } else {
    out.pointA = pair.pointsA[best.indexA];
    out.pointB = out.pointA - depth * best.normal;
  }
  out.status = PenetrationStatus::SatFallback;
  return out;
}

}  // namespace mk::detail
