// Internal: the pieces GJK, EPA and SAT share. Everything runs in shape A's local frame: B is
// transformed relative to A once per query (one rotation + translation per B vertex touched, none
// for A), which saves a transform per support and keeps coordinates small when both shapes are far
// from the world origin.
#pragma once

#include "minkowski/distance.h"

#include <cfloat>

namespace mk::detail {

/// Float resolution used to scale every tolerance below (2^-23).
inline constexpr float kEpsilon = FLT_EPSILON;

/// The pair seen from A: A's core as is, B's core through `xf` (B's frame -> A's frame).
struct LocalPair {
  const Vec2* pointsA;
  const Vec2* pointsB;
  int countA;
  int countB;
  Transform xf;
};

/// One Minkowski vertex in A's frame: wA on A, wB on B, w = wA - wB, weight `a` in the closest point.
struct LocalVertex {
  Vec2 wA;
  Vec2 wB;
  Vec2 w;
  float a;
  int indexA;
  int indexB;
};

struct LocalSimplex {
  LocalVertex v[3];
  int count;
};

/// What RunGjk leaves behind: the terminal simplex (weights set), and why it stopped.
struct GjkResult {
  LocalSimplex simplex;
  int iterations;
  bool overlap;  ///< origin inside the triangle, or on the simplex within tolerance
  bool capped;
};

/// Index of the point farthest along dir. A plain scan for small sets (inlined: most cores have
/// 1-8 points); hill climbing from `start` for large polygons (geometry.h, kHillClimbMinVertices).
[[gnu::always_inline]] inline int Support(const Vec2* points, int count, Vec2 dir, int start) {
  if (count >= kHillClimbMinVertices) return FindSupportHillClimb({points, count, 0.0f}, dir, start);
  // Branch-free select: which vertex wins is data-dependent, so a branch would mispredict often.
  int best = 0;
  float bestValue = Dot(points[0], dir);
  for (int i = 1; i < count; ++i) {
    float value = Dot(points[i], dir);
    bool better = value > bestValue;
    best = better ? i : best;
    bestValue = better ? value : bestValue;
  }
  return best;
}

[[gnu::always_inline]] inline LocalVertex MakeVertex(const LocalPair& pair, int indexA, int indexB) {
  LocalVertex v;
  v.wA = pair.pointsA[indexA];
  v.wB = TransformPoint(pair.xf, pair.pointsB[indexB]);
  v.w = v.wA - v.wB;
  v.a = 1.0f;
  v.indexA = indexA;
  v.indexB = indexB;
  return v;
}

/// Minkowski vertex farthest along `dir` (A's frame): support(A, dir) - support(B, -dir).
[[gnu::always_inline]] inline LocalVertex SupportVertex(const LocalPair& pair, Vec2 dir, int startA, int startB) {
  int indexA = Support(pair.pointsA, pair.countA, dir, startA);
  int indexB = Support(pair.pointsB, pair.countB, InvRotate(pair.xf.q, -dir), startB);
  return MakeVertex(pair, indexA, indexB);
}

/// True when the input can be processed: proxies with 1..kMaxPolygonVertices points, finite
/// non-negative radii, finite transforms. Point coordinates are not scanned (that would cost on the
/// hot path); non-finite points are caught by checking the outputs instead.
bool IsValidInput(const DistanceInput& input);

LocalPair MakeLocalPair(const DistanceInput& input);

/// GJK distance on the cores, warm-started from `cache` when it is valid for these shapes.
GjkResult RunGjk(const LocalPair& pair, const SimplexCache* cache, GjkHistory* history,
                 const Transform& xfA);

/// Penetration in A's frame from a terminal GJK simplex that touches or contains the origin.
struct LocalPenetration {
  Vec2 normal;
  Vec2 pointA;
  Vec2 pointB;
  float depth;
  int iterations;
  PenetrationStatus status;
};
LocalPenetration RunEpa(const LocalPair& pair, const LocalSimplex& start, EpaHistory* history,
                        const Transform& xfA);

/// Minimum translation by separating axes over both cores' edge normals (both sides of a 2-point
/// core): exact for any pair of cores, O((nA + nB)^2). A's frame.
LocalPenetration RunSat(const LocalPair& pair);

}  // namespace mk::detail
