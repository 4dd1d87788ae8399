// SPDX-License-Identifier: MIT
// Internal: the pieces GJK, EPA and SAT share. Everything runs in shape A's local frame: B is
// transformed relative to A once per query (one rotation + translation per B vertex touched, none
// for A), which saves a transform per support and keeps coordinates small when both shapes are far
// from the world origin.
#pragma once

#include "core/wide_float.h"
#include "minkowski/distance.h"

#include <cfloat>
#include <cmath>

namespace mk::detail {

/// Float resolution used to scale every tolerance below (2^-23).
inline constexpr float kEpsilon = FLT_EPSILON;

/// The origin is "on" the simplex when its distance <= kOriginTolerance x (largest |w|): about 16
/// ulps of the coordinates the simplex was computed from, which is their rounding.
inline constexpr float kOriginTolerance = 16.0f * kEpsilon;

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
  Vec2 edge;  ///< ShapeEdge of a terminal segment simplex (its normal's edge)
  int iterations;
  bool overlap;  ///< origin inside the triangle, or on the simplex within tolerance
  bool capped;
};

/// Dot products of points[0..kLanes) with the direction held as F::SplatPair(x, y): two points per
/// half register multiplied, then the x and y products gathered and added, in Dot's order (the same
/// float results as Dot).
template <wide::LaneType F>
[[gnu::always_inline]] inline F Dots(const Vec2* points, F dirPair) {
  const F lo = F::LoadPairs(points) * dirPair;
  const F hi = F::LoadPairs(points + F::kLanes / 2) * dirPair;
  return Evens(lo, hi) + Odds(lo, hi);
}

/// Scan of kLanes..3 kLanes points (4..12 on Float4), kLanes dot products at a time, branch-free:
/// three groups starting at 0, min(kLanes, count - kLanes) and count - kLanes (overlapping when count
/// is not 3 kLanes, so nothing past count is read), and wide::ArgMax, whose ties go to the lowest
/// index as in the scalar scan. Which group holds the maximum is data-dependent, so no branch
/// decides it. A NaN maximum gives 0.
template <wide::LaneType F>
[[gnu::always_inline]] inline int ScanSupport(const Vec2* points, int count, Vec2 dir) {
  constexpr int kLanes = F::kLanes;
  const F d = F::SplatPair(dir.x, dir.y);
  const int last = count - kLanes;
  const int middle = last < kLanes ? last : kLanes;
  const F dots[3] = {Dots(points, d), Dots(points + middle, d), Dots(points + last, d)};
  const wide::LaneMax best = wide::ArgMax(dots, {0, middle, last});
  return best.index >= 0 ? best.index : 0;
}

/// Index of the vector among v[0..count) with the largest dot product with `direction` (the first on
/// ties): support vertices, and the faces most aligned with a direction. count >= 1. Branch-free
/// (which vector wins is data-dependent): ScanSupport for kLanes..3 kLanes vectors (4..12), a select
/// per vector otherwise.
template <wide::LaneType F = wide::Float4>
[[gnu::always_inline]] inline int ArgMaxDot(const Vec2* v, int count, Vec2 direction) {
  if (count >= F::kLanes && count <= 3 * F::kLanes) return ScanSupport<F>(v, count, direction);
  int best = 0;
  float bestDot = Dot(v[0], direction);
  for (int i = 1; i < count; ++i) {
    float d = Dot(v[i], direction);
    bool better = d > bestDot;
    best = better ? i : best;
    bestDot = better ? d : bestDot;
  }
  return best;
}

/// Index of the point farthest along dir. A scan for small sets (inlined: most cores have 1-8
/// points; ArgMaxDot); hill climbing from `start` for large polygons (geometry.h,
/// kHillClimbMinVertices).
[[gnu::always_inline]] inline int Support(const Vec2* points, int count, Vec2 dir, int start) {
  static_assert(kHillClimbMinVertices <= 3 * wide::Float4::kLanes + 1, "ArgMaxDot scans every size below it");
  if (count >= kHillClimbMinVertices) return FindSupportHillClimb({points, count, 0.0f}, dir, start);
  return ArgMaxDot(points, count, dir);
}

/// Index of the point farthest along dir by walking uphill from `start` ("3D Convex Collision Detection, Part
/// One: GJK"): the projection is unimodal around a convex polygon, so a local maximum is the global one. Used
/// by warm-started GJK, where `start` (the cached support) is almost always the answer already: 3 dot
/// products and two well-predicted branches instead of a scan of every vertex. At most `count` steps, so a
/// non-convex point set (a raw proxy) still ends, with a local maximum.
[[gnu::always_inline]] inline int ClimbSupport(const Vec2* points, int count, Vec2 dir, int start) {
  int best = start;
  float bestValue = Dot(points[best], dir);
  int next = best + 1 == count ? 0 : best + 1;
  int prev = best == 0 ? count - 1 : best - 1;
  float nextValue = Dot(points[next], dir);
  float prevValue = Dot(points[prev], dir);
  int step;
  if (nextValue > bestValue && nextValue >= prevValue) {
    step = 1;
    best = next;
    bestValue = nextValue;
  } else if (prevValue > bestValue) {
    step = count - 1;  // -1 modulo count
    best = prev;
    bestValue = prevValue;
  } else {
    return best;
  }
  for (int walked = 1; walked < count; ++walked) {
    int candidate = best + step;
    candidate = candidate >= count ? candidate - count : candidate;
    float value = Dot(points[candidate], dir);
    if (!(value > bestValue)) break;
    best = candidate;
    bestValue = value;
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
[[gnu::always_inline]] inline LocalVertex SupportVertex(const LocalPair& pair, Vec2 dir, int startA,
                                                        int startB) {
  int indexA = Support(pair.pointsA, pair.countA, dir, startA);
  int indexB = Support(pair.pointsB, pair.countB, InvRotate(pair.xf.q, -dir), startB);
  return MakeVertex(pair, indexA, indexB);
}

/// SupportVertex by hill climbing from the given indices (warm start: they are the cached supports).
[[gnu::always_inline]] inline LocalVertex ClimbVertex(const LocalPair& pair, Vec2 dir, int startA,
                                                      int startB) {
  int indexA = ClimbSupport(pair.pointsA, pair.countA, dir, startA);
  int indexB = ClimbSupport(pair.pointsB, pair.countB, InvRotate(pair.xf.q, -dir), startB);
  return MakeVertex(pair, indexA, indexB);
}

/// True when `cache` holds a simplex GJK can start from for cores of these sizes (a warm start).
[[gnu::always_inline]] inline bool IsCacheUsable(const SimplexCache& cache, int countA, int countB) {
  if (cache.count < 1 || cache.count > 3) return false;
  for (int i = 0; i < cache.count; ++i) {
    if (cache.indexA[i] >= countA || cache.indexB[i] >= countB) return false;
  }
  return true;
}

/// Stores the simplex's vertex indices and the iteration count (saturating at 255) in `cache`, if
/// any: what every GJK query leaves for the next one.
inline void WriteCache(const LocalSimplex& s, int iterations, SimplexCache* cache) {
  if (cache == nullptr) return;
  cache->count = static_cast<std::uint8_t>(s.count);
  cache->iterations = static_cast<std::uint8_t>(iterations < 255 ? iterations : 255);
  for (int i = 0; i < s.count; ++i) {
    cache->indexA[i] = static_cast<std::uint8_t>(s.v[i].indexA);
    cache->indexB[i] = static_cast<std::uint8_t>(s.v[i].indexB);
  }
}

/// What the outputs of separated cores are built from (A's frame).
struct LocalSeparation {
  Vec2 pointA;     ///< witness on A's core
  Vec2 pointB;     ///< witness on B's core
  Vec2 normal;     ///< unit, from A to B
  float distance;  ///< core distance
  float scale;     ///< largest |coordinate| of the simplex, for the Touching tolerance
};

[[gnu::always_inline]] inline float MaxAbs(Vec2 v, float m) {
  float x = std::fabs(v.x);
  float y = std::fabs(v.y);
  m = x > m ? x : m;
  return y > m ? y : m;
}

/// Separation from a point simplex: the two support points.
[[gnu::always_inline]] inline LocalSeparation PointSeparation(const LocalVertex& v0) {
  LocalSeparation sep;
  sep.pointA = v0.wA;
  sep.pointB = v0.wB;
  sep.distance = Length(v0.w);
  // |w| > 0 here (GJK reports the origin on the simplex otherwise), so 1 / |w| is at most ~3e22.
  // (A guarded select cost the circle pair's general path 8 ns of latency.)
  sep.normal = (1.0f / sep.distance) * (v0.wB - v0.wA);
  sep.scale = MaxAbs(v0.w, 0.0f);
  return sep;
}

/// The simplex edge v0 -> v1 of the difference (w1 - w0) as exactly as the shapes give it: formed
/// from each shape's own points rather than from the Minkowski points, A's part from A's points and
/// B's part rotated from B's own frame. Neither the size of the Minkowski coordinates (a 400 m ground
/// segment) nor B's translation enters its direction, so a vertex-edge pair (one index shared) gives
/// its shape's edge to one rounding of the rotation, an edge 1 cm long as exactly 100 m from A's
/// origin as at it. GJK searches along its perpendicular and reports that as the normal.
[[gnu::always_inline]] inline Vec2 ShapeEdge(const LocalPair& pair, const LocalVertex& v0,
                                             const LocalVertex& v1) {
  return (v1.wA - v0.wA) - Rotate(pair.xf.q, pair.pointsB[v1.indexB] - pair.pointsB[v0.indexB]);
}

/// Separation from a segment simplex v0-v1 that the origin projects inside, given its ShapeEdge `e`.
/// The normal is the perpendicular of the edge (Box2D v3 takes its distance normal the same way),
/// never the direction between witness points, which loses its digits when the cores nearly touch;
/// the distance is the edge line's distance from the origin, |e x w0| / |e|. A vertex-edge pair (the
/// usual case) has the vertex as one witness and its foot on the edge, one distance along the normal,
/// as the other; parallel edges (both indices differ) get the closest point's weight along the edge.
[[gnu::always_inline]] inline LocalSeparation SegmentSeparation(const LocalVertex& v0, const LocalVertex& v1,
                                                                Vec2 e) {
  const float c = Cross(e, v0.w);
  const float ee = Dot(e, e);
  const float invLength = 1.0f / std::sqrt(ee);
  LocalSeparation sep;
  // Towards the origin of A - B, i.e. from A to B: LeftPerp(e) . (-w0) = -c, so the side is -sign(c).
  sep.normal = std::copysign(invLength, -c) * LeftPerp(e);
  sep.distance = std::fabs(c) * invLength;
  if (v0.indexA == v1.indexA) {
    sep.pointA = v0.wA;
    sep.pointB = v0.wA + sep.distance * sep.normal;
  } else if (v0.indexB == v1.indexB) {
    sep.pointB = v0.wB;
    sep.pointA = v0.wB - sep.distance * sep.normal;
  } else {
    const float t = -Dot(v0.w, e) / ee;
    sep.pointA = v0.wA + t * (v1.wA - v0.wA);
    sep.pointB = v0.wB + t * (v1.wB - v0.wB);
  }
  sep.scale = MaxAbs(v1.w, MaxAbs(v0.w, 0.0f));
  return sep;
}

/// The separation of apart cores from GJK's terminal point or segment simplex and, for a segment,
/// its ShapeEdge (GjkResult::edge).
[[gnu::always_inline]] inline LocalSeparation Separation(const LocalSimplex& s, Vec2 edge) {
  if (s.count == 2) return SegmentSeparation(s.v[0], s.v[1], edge);
  return PointSeparation(s.v[0]);
}

/// The closest points on A's and B's cores: the simplex's support points weighted like the closest
/// point of the difference (Bittle, "GJK - Distance & Closest Points"). A's frame.
struct WitnessPoints {
  Vec2 pointA;
  Vec2 pointB;
};
[[gnu::always_inline]] inline WitnessPoints Witnesses(const LocalSimplex& s) {
  WitnessPoints w{s.v[0].a * s.v[0].wA, s.v[0].a * s.v[0].wB};
  for (int i = 1; i < s.count; ++i) {
    w.pointA += s.v[i].a * s.v[i].wA;
    w.pointB += s.v[i].a * s.v[i].wB;
  }
  return w;
}

/// x - x is 0 for finite x and NaN for an infinity or NaN; the NaN survives the add, and only NaN
/// compares unequal to itself.
template <wide::LaneType F>
[[gnu::always_inline]] inline bool FiniteLanes(F x, F y) {
  const F z = (x - x) + (y - y);
  return All(z == z);
}

/// True when both transforms and `extra` are finite (one 4-lane test).
template <wide::LaneType F = wide::Float4>
[[gnu::always_inline]] inline bool FiniteTransforms(const Transform& a, const Transform& b, float extra) {
  static_assert(F::kLanes == 4 && sizeof(Transform) == 4 * sizeof(float));
  const F xa = F::Load(&a.p.x);
  const F xb = F::Load(&b.p.x);
  const F r = F::Set(extra, 0.0f, 0.0f, 0.0f);
  return FiniteLanes(xa, (xb - xb) + (r - r));
}

/// True when the three vectors and `d` are finite.
template <wide::LaneType F = wide::Float4>
[[gnu::always_inline]] inline bool FiniteOutputs(Vec2 p, Vec2 q, Vec2 n, float d) {
  return FiniteLanes(F::Set(p.x, p.y, q.x, q.y), F::Set(n.x, n.y, d, 0.0f));
}

/// True when the input can be processed: proxies with 1..kMaxPolygonVertices points, finite
/// non-negative radii, finite transforms. Point coordinates are not scanned (that would cost on the
/// hot path); non-finite points are caught by checking the outputs instead.
bool IsValidInput(const DistanceInput& input);

LocalPair MakeLocalPair(const DistanceInput& input);

/// GJK distance on the cores, warm-started from `cache` when it is valid for these shapes.
GjkResult RunGjk(const LocalPair& pair, const SimplexCache* cache, GjkHistory* history, const Transform& xfA);

/// The same loop as RunGjk (so the same answer whenever the cores are not within rounding of
/// touching), which also stops, with overlap false, at the first separating axis it meets.
GjkResult RunGjkOverlap(const LocalPair& pair, const SimplexCache* cache);

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
