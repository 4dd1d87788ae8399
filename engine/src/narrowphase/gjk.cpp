// GJK distance and overlap between convex cores (Gilbert, Johnson, Keerthi 1988; seeds 000, 002, 004).
//
// The simplex is reduced with the 2D signed-area (barycentric) sub-algorithm: for the segment and
// the triangle, the signs of the barycentric coordinates of the origin's projection say which
// Voronoi region the origin lies in, and the positive ones are the weights of the closest point
// (Montanari, Petrinic, Barbieri 2017, "Improving the GJK algorithm for faster and more reliable
// distance queries between convex objects", specialised to 2D; Ericson, RTCD 3.4 and 5.1.5).
//
// Termination, in the order tested:
//  1. the origin lies on the simplex (closest point ~ 0): the cores touch or overlap;
//  2. the new support vertex repeats a simplex vertex (same index pair): exact for point sets, which
//     is all GJK ever sees here, so polygon pairs end on this test with an exact answer;
//  3. relative progress below kRelativeProgress (van den Bergen 1999, "A fast and robust GJK
//     implementation"): guards against float noise cycling between nearly equal vertices;
//  4. the closest point did not get closer (float noise again);
//  5. the iteration cap kGjkMaxIterations.
#include "minkowski/distance.h"

#include "narrowphase/gjk_internal.h"

#include <cmath>

namespace mk {

namespace detail {

namespace {

/// Stop when a new support vertex improves the lower bound by less than this fraction of |v|^2
/// (van den Bergen's eps_rel). 1e-6 is ~10 ulps of float: tighter only measures rounding noise.
constexpr float kRelativeProgress = 1e-6f;

/// The origin is "on" the simplex when |v| <= kOriginTolerance x (largest |w|): about 16 ulps of the
/// coordinates the closest point was computed from, which is the rounding error of that computation.
constexpr float kOriginTolerance = 16.0f * kEpsilon;

// Segment w1-w2: barycentric coordinates of the origin's projection (unnormalised: u1 for w1,
// u2 for w2). A non-positive one means the origin is beyond that end, so only the other end stays.
[[gnu::always_inline]] inline void Solve2(LocalSimplex& s) {
  Vec2 w1 = s.v[0].w;
  Vec2 w2 = s.v[1].w;
  Vec2 e12 = w2 - w1;
  float u2 = -Dot(w1, e12);
  if (u2 <= 0.0f) {
    s.v[0].a = 1.0f;
    s.count = 1;
    return;
  }
  float u1 = Dot(w2, e12);
  if (u1 <= 0.0f) {
    s.v[0] = s.v[1];
    s.v[0].a = 1.0f;
    s.count = 1;
    return;
  }
  float inv = 1.0f / (u1 + u2);
  s.v[0].a = u1 * inv;
  s.v[1].a = u2 * inv;
  s.count = 2;
}

[[gnu::always_inline]] inline Vec2 ClosestPoint(const LocalSimplex& s) {
  Vec2 v = s.v[0].a * s.v[0].w;
  for (int i = 1; i < s.count; ++i) v += s.v[i].a * s.v[i].w;
  return v;
}

float ClosestSquared(const LocalSimplex& s) {
  Vec2 v = ClosestPoint(s);
  return Dot(v, v);
}

// A collinear (zero-area) triangle, e.g. from a stale cache: keep the best of its three edges.
void SolveFlatTriangle(LocalSimplex& s) {
  LocalSimplex best{};
  float bestSquared = 0.0f;
  static constexpr int kEdges[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int e = 0; e < 3; ++e) {
    LocalSimplex edge{};
    edge.v[0] = s.v[kEdges[e][0]];
    edge.v[1] = s.v[kEdges[e][1]];
    edge.count = 2;
    Solve2(edge);
    float squared = ClosestSquared(edge);
    if (e == 0 || squared < bestSquared) {
      best = edge;
      bestSquared = squared;
    }
  }
  s = best;
}

// Triangle w1 w2 w3: edge barycentrics as in Solve2, and the signed areas of the sub-triangles
// (origin, w2, w3), (origin, w3, w1), (origin, w1, w2) times the orientation n, which are positive
// for the vertex opposite an edge the origin lies inside of. Regions are tested vertex, edge, then
// interior; each test only passes for its own Voronoi region.
void Solve3(LocalSimplex& s) {
  Vec2 w1 = s.v[0].w;
  Vec2 w2 = s.v[1].w;
  Vec2 w3 = s.v[2].w;

  Vec2 e12 = w2 - w1;
  float u12 = Dot(w2, e12);
  float v12 = -Dot(w1, e12);
  Vec2 e13 = w3 - w1;
  float u13 = Dot(w3, e13);
  float v13 = -Dot(w1, e13);
  Vec2 e23 = w3 - w2;
  float u23 = Dot(w3, e23);
  float v23 = -Dot(w2, e23);

  float n = Cross(e12, e13);
  float u123 = n * Cross(w2, w3);
  float v123 = n * Cross(w3, w1);
  float w123 = n * Cross(w1, w2);

  auto keep1 = [&s](int i) {
    s.v[0] = s.v[i];
    s.v[0].a = 1.0f;
    s.count = 1;
  };
  auto keep2 = [&s](int i, int j, float ui, float uj) {
    LocalVertex vi = s.v[i];
    LocalVertex vj = s.v[j];
    float inv = 1.0f / (ui + uj);
    s.v[0] = vi;
    s.v[0].a = ui * inv;
    s.v[1] = vj;
    s.v[1].a = uj * inv;
    s.count = 2;
  };

  if (v12 <= 0.0f && v13 <= 0.0f) return keep1(0);
  if (u12 > 0.0f && v12 > 0.0f && w123 <= 0.0f) return keep2(0, 1, u12, v12);
  if (u13 > 0.0f && v13 > 0.0f && v123 <= 0.0f) return keep2(0, 2, u13, v13);
  if (u12 <= 0.0f && v23 <= 0.0f) return keep1(1);
  if (u13 <= 0.0f && u23 <= 0.0f) return keep1(2);
  if (u23 > 0.0f && v23 > 0.0f && u123 <= 0.0f) return keep2(1, 2, u23, v23);

  // Interior. A (nearly) collinear triangle makes the areas meaningless; fall back to its edges.
  float sum = u123 + v123 + w123;
  float scale = LengthSquared(e12) * LengthSquared(e13);
  if (!(n * n > kEpsilon * kEpsilon * scale) || !(sum > 0.0f)) return SolveFlatTriangle(s);
  float inv = 1.0f / sum;
  s.v[0].a = u123 * inv;
  s.v[1].a = v123 * inv;
  s.v[2].a = w123 * inv;
  s.count = 3;
}


// Direction towards the origin from the simplex. For a segment the perpendicular of the edge is
// exact (no cancellation in the closest point), as Box2D also found.
[[gnu::always_inline]] inline Vec2 SearchDirection(const LocalSimplex& s, Vec2 closest) {
  if (s.count != 2) return -closest;
  Vec2 e = s.v[1].w - s.v[0].w;
  return Cross(e, -s.v[0].w) > 0.0f ? LeftPerp(e) : RightPerp(e);
}

[[gnu::always_inline]] inline float LargestSquared(const LocalSimplex& s) {
  float m = LengthSquared(s.v[0].w);
  for (int i = 1; i < s.count; ++i) {
    float l = LengthSquared(s.v[i].w);
    m = l > m ? l : m;
  }
  return m;
}

// The cached simplex when it is valid for these shapes, else a cold start. Returns true for a warm
// start.
//
// Cold start: the Minkowski vertex farthest along the line from A's origin to B's (A's point
// farthest towards B minus B's point farthest towards A). Shapes are built around their bodies'
// origins, so that pair of points is close to the closest pair: on octagons in contact it saves about
// one iteration (and most triangle solves) against starting from vertex 0 of each, for the price of
// one support scan. Coincident origins give a zero direction, where the scan returns vertex 0 of
// each, the plain start.
[[gnu::always_inline]] inline bool StartSimplex(const LocalPair& pair, const SimplexCache* cache, LocalSimplex& s) {
  if (cache != nullptr && IsCacheUsable(*cache, pair.countA, pair.countB)) {
    s.count = cache->count;
    for (int i = 0; i < s.count; ++i) s.v[i] = MakeVertex(pair, cache->indexA[i], cache->indexB[i]);
    return true;
  }
  s.count = 1;
  s.v[0] = SupportVertex(pair, pair.xf.p, 0, 0);
  return false;
}

// Recording for the sandbox, out of line so it costs nothing when history is off.
[[gnu::noinline]] void Record(GjkHistory* history, const LocalSimplex& s, Vec2 direction, Vec2 closest,
                              const Transform& xfA) {
  if (history->count >= kGjkMaxIterations + 1) return;
  GjkStep& step = history->steps[history->count++];
  step.simplex.count = s.count;
  for (int i = 0; i < s.count; ++i) {
    SimplexVertex& out = step.simplex.vertices[i];
    out.pointA = TransformPoint(xfA, s.v[i].wA);
    out.pointB = TransformPoint(xfA, s.v[i].wB);
    out.w = Rotate(xfA.q, s.v[i].w);
    out.lambda = s.v[i].a;
    out.indexA = s.v[i].indexA;
    out.indexB = s.v[i].indexB;
  }
  step.searchDirection = Rotate(xfA.q, direction);
  step.closestPoint = Rotate(xfA.q, closest);
}

}  // namespace

bool IsValidInput(const DistanceInput& input) {
  const ShapeProxy& a = input.proxyA;
  const ShapeProxy& b = input.proxyB;
  const Transform& xa = input.transformA;
  const Transform& xb = input.transformB;
  // One unsigned compare per count range; radius >= 0 is false for NaN, and the sum of the radii
  // being finite covers each radius (both are >= 0) and keeps rA + rB finite for the outputs.
  bool counts = static_cast<unsigned>(a.count - 1) < unsigned{kMaxPolygonVertices} &&
                static_cast<unsigned>(b.count - 1) < unsigned{kMaxPolygonVertices};
  return a.points != nullptr && b.points != nullptr && counts && a.radius >= 0.0f && b.radius >= 0.0f &&
         FiniteTransforms(xa, xb, a.radius + b.radius);
}

LocalPair MakeLocalPair(const DistanceInput& input) {
  return {input.proxyA.points, input.proxyB.points, input.proxyA.count, input.proxyB.count,
          InvMulTransforms(input.transformA, input.transformB)};
}

namespace {

// The GJK loop; kRecord compiles the history out of the common path.
template <bool kRecord>
GjkResult RunGjkImpl(const LocalPair& pair, const SimplexCache* cache, GjkHistory* history, const Transform& xfA) {
  GjkResult result;  // no zero fill: every field is written below
  result.iterations = 0;
  result.overlap = false;
  result.capped = false;
  LocalSimplex& s = result.simplex;  // no zero fill: vertices past count are never read
  // A warm start's supports are near the cached ones: hill climbing from them beats a full scan.
  const bool warm = StartSimplex(pair, cache, s);
  if constexpr (kRecord) history->count = 0;

  float previousSquared = FLT_MAX;
  float largestSquared = LargestSquared(s);  // of every vertex seen: bounds the simplex's |w|
  for (;;) {
    if (s.count == 2) {
      Solve2(s);
    } else if (s.count == 3) {
      Solve3(s);
    } else {
      s.v[0].a = 1.0f;
    }
    Vec2 closest = ClosestPoint(s);
    Vec2 direction = SearchDirection(s, closest);
    if constexpr (kRecord) Record(history, s, direction, closest, xfA);
    if (s.count == 3) {
      result.overlap = true;
      break;
    }
    float closestSquared = Dot(closest, closest);
    if (closestSquared <= kOriginTolerance * kOriginTolerance * largestSquared ||
        Dot(direction, direction) == 0.0f) {
      result.overlap = true;
      break;
    }
    // Not even NaN may loop: the cap below bounds it, and a non-decreasing distance stops here.
    if (!(closestSquared < previousSquared)) break;
    if (result.iterations == kGjkMaxIterations) {
      result.capped = true;
      break;
    }
    const LocalVertex& last = s.v[s.count - 1];
    LocalVertex w = warm ? ClimbVertex(pair, direction, last.indexA, last.indexB)
                         : SupportVertex(pair, direction, last.indexA, last.indexB);
    bool repeated = false;
    for (int i = 0; i < s.count; ++i) {
      repeated = repeated || (s.v[i].indexA == w.indexA && s.v[i].indexB == w.indexB);
    }
    if (repeated) break;
    if (closestSquared - Dot(closest, w.w) <= kRelativeProgress * closestSquared) break;
    s.v[s.count++] = w;
    float wSquared = Dot(w.w, w.w);
    largestSquared = wSquared > largestSquared ? wSquared : largestSquared;
    ++result.iterations;
    previousSquared = closestSquared;
  }
  return result;
}

}  // namespace

GjkResult RunGjk(const LocalPair& pair, const SimplexCache* cache, GjkHistory* history, const Transform& xfA) {
  if (history != nullptr) return RunGjkImpl<true>(pair, cache, history, xfA);
  return RunGjkImpl<false>(pair, cache, nullptr, xfA);
}

}  // namespace detail

using detail::GjkResult;
using detail::LocalPair;
using detail::LocalSimplex;

namespace {

/// Surfaces closer than this fraction of the pair's size (largest core extent + radii) are
/// reported Touching: about 64 ulps, above the rounding of transforms and witness points.
constexpr float kTouchingTolerance = 64.0f * detail::kEpsilon;

float PairScale(const LocalSimplex& s, float radii) {
  float m = 0.0f;
  for (int i = 0; i < s.count; ++i) {
    float x = std::fabs(s.v[i].w.x);
    float y = std::fabs(s.v[i].w.y);
    m = x > m ? x : m;
    m = y > m ? y : m;
  }
  return m + radii;
}

DistanceOutput InvalidDistance() {
  DistanceOutput out;
  out.status = DistanceStatus::InvalidInput;
  return out;
}

[[gnu::noinline, gnu::cold]] DistanceOutput InvalidQuery(SimplexCache* cache, GjkHistory* history) {
  if (cache != nullptr) cache->count = 0;  // whatever it held, it cannot describe these shapes
  if (history != nullptr) history->count = 0;
  return InvalidDistance();
}

// Cores overlap (or touch within GJK's tolerance): no normal from GJK. Off the common path.
[[gnu::noinline]] DistanceOutput OverlapOutput(const DistanceInput& input, SimplexCache* cache, const LocalSimplex& s,
                                               DistanceOutput out) {
  const float radii = input.proxyA.radius + input.proxyB.radius;
  out.coresOverlap = true;
  out.pointA = out.corePointA;
  out.pointB = out.corePointB;
  out.penetration = radii;
  out.status = DistanceStatus::Overlapping;
  // Sharp cores with the origin on the simplex (not strictly inside a triangle) may only touch:
  // EPA decides (rare: exact contact of sharp shapes).
  if (radii == 0.0f && s.count < 3) {
    PenetrationOutput pen = ShapePenetration(input, cache, nullptr);
    float scale = PairScale(s, radii);
    if (pen.status != PenetrationStatus::InvalidInput && pen.status != PenetrationStatus::Failed &&
        pen.coreDepth <= kTouchingTolerance * scale) {
      out.status = DistanceStatus::Touching;
      out.normal = pen.normal;
    }
  }
  return detail::FiniteOutputs(out.pointA, out.pointB, out.normal, 0.0f) ? out : InvalidDistance();
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

// Normal from a segment simplex w0-w1 that the origin projects inside: the edge perpendicular, which
// keeps all its digits however close the cores are (the witness difference loses them).
[[gnu::always_inline]] inline void SegmentNormal(Vec2 w0, Vec2 w1, LocalSeparation& sep) {
  Vec2 e = w1 - w0;
  sep.normal = Normalize(Cross(e, w0) > 0.0f ? RightPerp(e) : LeftPerp(e));
  sep.distance = -Dot(sep.normal, w0);
}

// Warm start, common case: the cached simplex is a point or a segment of the difference, the origin
// projects inside it, and one support query per shape (hill climbing from the cached vertices)
// returns a vertex already in it. That is the general loop's first pass ending on its exact test (a
// repeated vertex), written out for a known simplex size so that it stays in registers and needs no
// cache write (the simplex is unchanged). Anything else (overlap, a new vertex, the origin beyond an
// end of the segment, coordinates beyond 1e9 m) returns false and the general loop runs.
//
// Where the arithmetic differs from the general loop, it is by rounding only (tests compare both):
//  - the origin test "|v| <= kOriginTolerance |w|max" uses |v| = |c| / |e| for the segment's line
//    (c = e x w0), squared and multiplied out, so no closest point is formed;
//  - the core distance is |c| / |e| (the general path's -n.w0 is the same number);
//  - a vertex-edge simplex (one index repeated, the usual case) gives the vertex itself as its
//    witness and the other witness one core distance along the normal, without the barycentric
//    weights.
[[gnu::always_inline]] inline bool WarmSeparation(const LocalPair& pair, const SimplexCache& cache,
                                                  LocalSeparation& sep) {
  // |w|^2 below this keeps every product below in float range (|w| < 1e9 m).
  constexpr float kLargestSquared = 1e18f;
  const int count = cache.count;
  const int iA0 = cache.indexA[0];
  const int iB0 = cache.indexB[0];
  if ((count - 1u) > 1u || iA0 >= pair.countA || iB0 >= pair.countB) return false;
  const Vec2 a0 = pair.pointsA[iA0];
  const Vec2 b0 = TransformPoint(pair.xf, pair.pointsB[iB0]);
  const Vec2 w0 = a0 - b0;
  const float l0 = LengthSquared(w0);
  if (count == 1) {
    // The origin is on a point simplex only when |w0| = 0 (and Normalize's cut-off is |w0| < 1e-20).
    if (!(l0 >= FLT_MIN && l0 < kLargestSquared)) return false;
    int iA = detail::ClimbSupport(pair.pointsA, pair.countA, -w0, iA0);
    int iB = detail::ClimbSupport(pair.pointsB, pair.countB, InvRotate(pair.xf.q, w0), iB0);
    if (iA != iA0 || iB != iB0) return false;
    sep.pointA = a0;
    sep.pointB = b0;
    sep.distance = std::sqrt(l0);
    sep.normal = (-1.0f / sep.distance) * w0;
    sep.scale = MaxAbs(w0, 0.0f);
    return true;
  }
  const int iA1 = cache.indexA[1];
  const int iB1 = cache.indexB[1];
  if (iA1 >= pair.countA || iB1 >= pair.countB) return false;
  const Vec2 a1 = pair.pointsA[iA1];
  const Vec2 b1 = TransformPoint(pair.xf, pair.pointsB[iB1]);
  const Vec2 w1 = a1 - b1;
  const float l1 = LengthSquared(w1);
  const float largest = l1 > l0 ? l1 : l0;
  const Vec2 e = w1 - w0;
  const float u1 = -Dot(w0, e);  // unnormalised weight of w1 (Solve2)
  const float u0 = Dot(w1, e);   // unnormalised weight of w0
  const float c = Cross(e, w0);
  const float ee = Dot(e, e);
  constexpr float kTolerance = detail::kOriginTolerance * detail::kOriginTolerance;
  if (!(u1 > 0.0f && u0 > 0.0f && largest < kLargestSquared && ee >= FLT_MIN && c * c > kTolerance * largest * ee)) {
    return false;
  }
  // Towards the origin: the perpendicular on the origin's side (copysign: no branch on the side).
  const Vec2 direction = std::copysign(1.0f, -c) * LeftPerp(e);
  int iA = detail::ClimbSupport(pair.pointsA, pair.countA, direction, iA1);
  int iB = detail::ClimbSupport(pair.pointsB, pair.countB, InvRotate(pair.xf.q, -direction), iB1);
  bool repeated = (iA == iA0 && iB == iB0) || (iA == iA1 && iB == iB1);
  if (!repeated) return false;
  const float invLength = 1.0f / std::sqrt(ee);
  sep.normal = invLength * direction;  // towards the origin of A - B: from A to B
  sep.distance = std::fabs(c) * invLength;
  if (iA0 == iA1) {
    sep.pointA = a0;
    sep.pointB = a0 + sep.distance * sep.normal;
  } else if (iB0 == iB1) {
    sep.pointB = b0;
    sep.pointA = b0 - sep.distance * sep.normal;
  } else {
    // Both indices differ (parallel edges): barycentric weights, as in Solve2.
    const float inv = 1.0f / (u0 + u1);
    const float s0 = u0 * inv;
    const float s1 = u1 * inv;
    sep.pointA = s0 * a0;
    sep.pointA += s1 * a1;
    sep.pointB = s0 * b0;
    sep.pointB += s1 * b1;
  }
  sep.scale = MaxAbs(w1, MaxAbs(w0, 0.0f));
  return true;
}

// The outputs of separated cores in the world frame, with the status and the finiteness check.
[[gnu::always_inline]] inline DistanceOutput SeparatedOutput(const DistanceInput& input, const LocalSeparation& sep,
                                                             int iterations, int simplexCount, bool capped) {
  const Transform& xfA = input.transformA;
  const float radiusA = input.proxyA.radius;
  const float radiusB = input.proxyB.radius;
  const float radii = radiusA + radiusB;
  const float coreDistance = sep.distance;
  DistanceOutput out;
  out.iterations = iterations;
  out.simplexCount = simplexCount;
  out.corePointA = TransformPoint(xfA, sep.pointA);
  out.corePointB = TransformPoint(xfA, sep.pointB);
  out.normal = Rotate(xfA.q, sep.normal);
  out.coreDistance = coreDistance;
  out.distance = coreDistance > radii ? coreDistance - radii : 0.0f;
  out.penetration = coreDistance < radii ? radii - coreDistance : 0.0f;
  out.pointA = out.corePointA + radiusA * out.normal;
  out.pointB = out.corePointB - radiusB * out.normal;
  if (capped) [[unlikely]] {
    out.status = DistanceStatus::IterationCap;
  } else if (std::fabs(coreDistance - radii) <= kTouchingTolerance * (sep.scale + radii)) {
    out.status = DistanceStatus::Touching;
  } else {
    out.status = coreDistance > radii ? DistanceStatus::Separated : DistanceStatus::Overlapping;
  }
  // Points are not scanned on input, and huge finite ones can overflow: check the outputs. Finite
  // pointA/pointB imply finite core points (x + finite is finite only for finite x); the radii
  // are finite (IsValidInput), so coreDistance covers distance and penetration.
  if (!detail::FiniteOutputs(out.pointA, out.pointB, out.normal, coreDistance)) [[unlikely]] return InvalidDistance();
  return out;
}

// The general path: the GJK loop, then the outputs from its terminal simplex.
[[gnu::noinline]] DistanceOutput GeneralDistance(const DistanceInput& input, SimplexCache* cache, GjkHistory* history) {
  const LocalPair pair = detail::MakeLocalPair(input);
  const Transform& xfA = input.transformA;
  const GjkResult gjk = detail::RunGjk(pair, cache, history, xfA);
  const LocalSimplex& s = gjk.simplex;
  detail::WriteCache(s, gjk.iterations, cache);

  LocalSeparation sep;
  const detail::WitnessPoints witnesses = detail::Witnesses(s);
  sep.pointA = witnesses.pointA;
  sep.pointB = witnesses.pointB;
  if (gjk.overlap) [[unlikely]] {
    DistanceOutput out;
    out.iterations = gjk.iterations;
    out.simplexCount = s.count;
    out.corePointA = TransformPoint(xfA, sep.pointA);
    out.corePointB = TransformPoint(xfA, sep.pointB);
    return OverlapOutput(input, cache, s, out);
  }
  if (s.count == 2) {
    SegmentNormal(s.v[0].w, s.v[1].w, sep);
  } else {
    sep.normal = Normalize(sep.pointB - sep.pointA);
    sep.distance = Length(sep.pointB - sep.pointA);
  }
  sep.scale = PairScale(s, 0.0f);
  return SeparatedOutput(input, sep, gjk.iterations, s.count, gjk.capped);
}

}  // namespace

DistanceOutput ShapeDistance(const DistanceInput& input, SimplexCache* cache, GjkHistory* history) {
  if (!detail::IsValidInput(input)) [[unlikely]] return InvalidQuery(cache, history);
  if (cache != nullptr && history == nullptr) {
    // The pair is rebuilt by the general path (16 flops) rather than passed, so that it can stay in
    // registers here.
    const LocalPair pair = detail::MakeLocalPair(input);
    LocalSeparation sep;
    if (WarmSeparation(pair, *cache, sep)) {
      cache->iterations = 0;
      return SeparatedOutput(input, sep, 0, cache->count, false);
    }
  }
  return GeneralDistance(input, cache, history);
}

bool CoresOverlap(const DistanceInput& input, SimplexCache* cache) {
  if (!detail::IsValidInput(input)) {
    if (cache != nullptr) cache->count = 0;
    return false;
  }
  const LocalPair pair = detail::MakeLocalPair(input);
  // Boolean GJK (seeds 002, 004): the same simplex loop; a support vertex that does not reach past
  // the origin along the search direction is a separating axis and ends the query early.
  LocalSimplex s;
  detail::StartSimplex(pair, cache, s);
  bool overlap = false;
  float previousSquared = FLT_MAX;
  int supports = 0;  // support vertices added: the iterations, as RunGjk counts them
  for (int iteration = 0; iteration <= kGjkMaxIterations; ++iteration) {
    if (s.count == 2) {
      detail::Solve2(s);
    } else if (s.count == 3) {
      detail::Solve3(s);
    } else {
      s.v[0].a = 1.0f;
    }
    if (s.count == 3) {
      overlap = true;
      break;
    }
    Vec2 closest = detail::ClosestPoint(s);
    Vec2 direction = detail::SearchDirection(s, closest);
    float closestSquared = Dot(closest, closest);
    if (closestSquared <= detail::kOriginTolerance * detail::kOriginTolerance * detail::LargestSquared(s) ||
        Dot(direction, direction) == 0.0f) {
      overlap = true;
      break;
    }
    if (!(closestSquared < previousSquared)) break;
    const detail::LocalVertex& last = s.v[s.count - 1];
    detail::LocalVertex w = detail::SupportVertex(pair, direction, last.indexA, last.indexB);
    // Separating axis: nothing of the difference lies beyond the origin along `direction`.
    if (Dot(w.w, direction) < 0.0f) break;
    bool repeated = false;
    for (int i = 0; i < s.count; ++i) {
      repeated = repeated || (s.v[i].indexA == w.indexA && s.v[i].indexB == w.indexB);
    }
    if (repeated) break;
    s.v[s.count++] = w;
    ++supports;
    previousSquared = closestSquared;
  }
  detail::WriteCache(s, supports, cache);
  return overlap;
}

bool ShapesOverlap(const DistanceInput& input, SimplexCache* cache) {
  if (input.proxyA.radius == 0.0f && input.proxyB.radius == 0.0f) return CoresOverlap(input, cache);
  DistanceOutput out = ShapeDistance(input, cache);
  return out.status == DistanceStatus::Touching || out.status == DistanceStatus::Overlapping;
}

Simplex MakeSimplexFromCache(const DistanceInput& input, const SimplexCache& cache) {
  Simplex out;
  if (!detail::IsValidInput(input)) return out;
  const LocalPair pair = detail::MakeLocalPair(input);
  if (!detail::IsCacheUsable(cache, pair.countA, pair.countB)) return out;
  out.count = cache.count;
  for (int i = 0; i < cache.count; ++i) {
    detail::LocalVertex v = detail::MakeVertex(pair, cache.indexA[i], cache.indexB[i]);
    SimplexVertex& o = out.vertices[i];
    o.pointA = TransformPoint(input.transformA, v.wA);
    o.pointB = TransformPoint(input.transformA, v.wB);
    o.w = o.pointA - o.pointB;
    o.lambda = 1.0f / static_cast<float>(cache.count);
    o.indexA = v.indexA;
    o.indexB = v.indexB;
  }
  return out;
}

SeparationOutput ShapeSeparation(const DistanceInput& input, SimplexCache* cache) {
  SeparationOutput out;
  DistanceOutput distance = ShapeDistance(input, cache);
  if (distance.status == DistanceStatus::InvalidInput) {
    out.normal = {1.0f, 0.0f};
    return out;
  }
  if (!distance.coresOverlap) {
    out.normal = distance.normal;
    out.pointA = distance.pointA;
    out.pointB = distance.pointB;
    out.separation = distance.coreDistance - input.proxyA.radius - input.proxyB.radius;
    out.valid = true;
    return out;
  }
  PenetrationOutput pen = ShapePenetration(input, cache);
  if (pen.status == PenetrationStatus::InvalidInput || pen.status == PenetrationStatus::Failed) {
    out.normal = {1.0f, 0.0f};
    return out;
  }
  out.normal = pen.normal;
  out.pointA = pen.pointA;
  out.pointB = pen.pointB;
  out.separation = -pen.depth;
  out.valid = true;
  return out;
}

}  // namespace mk
