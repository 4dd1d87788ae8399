// SPDX-License-Identifier: MIT
// GJK distance and overlap between convex cores (Gilbert, Johnson and Keerthi 1988; in 2D as William
// Bittle's GJK articles and the "GJK Algorithm" tutorial explain it).
//
// The simplex is reduced with the 2D signed-area (barycentric) sub-algorithm: for the segment and
// the triangle, the signs of the barycentric coordinates of the origin's projection say which
// Voronoi region the origin lies in (Montanari, Petrinic, Barbieri 2017, "Improving the GJK algorithm
// for faster and more reliable distance queries between convex objects", specialised to 2D; Ericson,
// RTCD 3.4 and 5.1.5).
//
// Precision. The Minkowski points w = a - b are as large as the shapes (hundreds of metres for a
// ground segment) while the distance may be a millimetre, so nothing the loop decides may be
// computed from a combination of them whose rounding (eps |w|) is not small against what it is
// compared with. In particular the closest point is never formed as the barycentric combination of
// the simplex (whose rounding, eps |w|, swamped |v|^2 in the old progress test v.v - v.w, which then
// stopped GJK far from the answer: issue 2). Instead, as Montanari et al. (section 4) and Box2D v3
// advise:
//  - a segment's search direction p is the perpendicular of its edge on the origin's side, the edge
//    taken from the shapes' own points (ShapeEdge), and its distance |e x w0| / |e|; the reported
//    normal is the same perpendicular, of the same edge;
//  - the progress of a support point w is measured as the gap g = p . (w - w0), with w - w0 formed
//    as (a - a0) - (b - b0): exact when the new point shares a vertex with w0, otherwise rounded
//    like B's placed points, not like |w|;
//  - the query works in A's frame (gjk_internal.h): A's points are exact, B's carry one rotation and
//    translation, and both shapes may be far from the world origin.
//
// Termination, in the order tested:
//  1. the origin lies on the simplex (distance <= kOriginTolerance x largest |w|) or inside the
//     triangle: the cores touch or overlap;
//  2. the support vertex repeats a vertex of the simplex (same index pair): exact convergence on
//     point sets, which is all GJK sees, so polygon pairs usually end here with an exact answer;
//  3. the gap is within rounding: g <= kGapTolerance |p| |w - w0| (no real progress is possible);
//  4. the support is a vertex this pass's reduction dropped, with a gap within the rounding of the
//     Minkowski coordinates (kGapTolerance |p| |w|max). With exact reductions a dropped vertex
//     cannot come back with a positive gap (the new closest point is the closest point of the hull
//     that held it), so this is float noise between tied vertices (parallel edges, where B's
//     vertices carry the rounding of its translation and test 3's bound is too fine), which would
//     otherwise cycle. A dropped vertex returning with a larger gap was dropped by a rounded region
//     test, and taking it again is progress;
//  5. the iteration cap kGjkMaxIterations.
// There is deliberately no relative-progress test (stop when g < 1e-6 |v|^2) and no "the distance
// did not decrease" test: near-collinear polygon vertices let a chord across them match the true
// edge's distance to float resolution while its normal is off by 1e-4 rad (issue 3), and either
// test would stop there. Only a certificate that nothing lies beyond the simplex ends the query.
#include "minkowski/distance.h"
#include "narrowphase/gjk_internal.h"

#include <cmath>

namespace mk {

namespace detail {

namespace {

/// A support point improves on the simplex only when its gap g = p . (w - w0) exceeds this fraction
/// of |p| |w - w0|: the rounding of g (a few ulps of its two factors, each formed from the shapes'
/// own points). Below it, float arithmetic cannot tell w from the simplex.
constexpr float kGapTolerance = 4.0f * kEpsilon;

/// What the loop knows of a reduced point or segment simplex: the search direction p (from the
/// simplex towards the origin, not normalised), |p|^2, and the squared distance of the simplex from
/// the origin, all free of the cancellation of a barycentric closest point.
struct Descent {
  Vec2 p;
  float pp;
  float distanceSquared;
  Vec2 edge;  ///< a segment's ShapeEdge, kept for the reported normal
};

/// A point simplex within 2^-32 m of the origin: the direction -w scaled by 2^64 (exact), because
/// the gap tests multiply |p|^2 by squared lengths and underflowed to 0 <= 0 here, ending GJK on a
/// vertex 1e-19 m from the origin while the cores overlapped by 0.1 mm (narrowphase fuzzer,
/// tests/fuzz/corpus/regression_tiny_point_gap_underflow).
[[gnu::noinline, gnu::cold]] Descent TinyPointDescent(Vec2 w, float ww) {
  const Vec2 p = -0x1p64f * w;
  return {p, Dot(p, p), ww, {0.0f, 0.0f}};
}

/// Reductions reorder the simplex rather than overwrite it: the vertices they drop stay in the slots
/// past `count`, where the repeated-vertex test still sees them (until the next support is stored).
[[gnu::always_inline]] inline void Swap(LocalVertex& a, LocalVertex& b) {
  LocalVertex t = a;
  a = b;
  b = t;
}

[[gnu::always_inline]] inline Descent PointDescent(LocalSimplex& s) {
  s.v[0].a = 1.0f;
  const float ww = Dot(s.v[0].w, s.v[0].w);
  if (ww < 0x1p-64f) [[unlikely]]
    return TinyPointDescent(s.v[0].w, ww);
  return {-s.v[0].w, ww, ww, {0.0f, 0.0f}};
}

// Segment v0-v1: the unnormalised barycentric coordinates of the origin's projection, u1 = -w0.e
// for v1 and u0 = w1.e for v0, each from the end it is small near (not u0 = e.e - u1, which cancels
// when the origin projects next to v1). A non-positive one means the origin is beyond that end, and
// only the other end stays. Inside: weights, and the edge's perpendicular on the origin's side,
// where LeftPerp(e) . (-w0) = -c with c = e x w0, so |c| / |e| is the distance (e.e = u0 + u1, a
// sum of two positive numbers).
[[gnu::always_inline]] inline Descent Solve2(const LocalPair& pair, LocalSimplex& s) {
  const Vec2 w0 = s.v[0].w;
  const Vec2 e = ShapeEdge(pair, s.v[0], s.v[1]);
  const float u1 = -Dot(w0, e);
  if (!(u1 > 0.0f)) {
    s.count = 1;
    return PointDescent(s);
  }
  const float u0 = Dot(s.v[1].w, e);
  if (!(u0 > 0.0f)) {
    Swap(s.v[0], s.v[1]);
    s.count = 1;
    return PointDescent(s);
  }
  const float ee = u0 + u1;
  const float inv = 1.0f / ee;
  s.v[0].a = u0 * inv;
  s.v[1].a = u1 * inv;
  const float c = Cross(e, w0);
  return {std::copysign(1.0f, -c) * LeftPerp(e), ee, c * inv * c, e};
}

// Keeps vertices i < j of a triangle in slots 0 and 1, the third in slot 2.
[[gnu::always_inline]] inline void KeepEdge(LocalSimplex& s, int i, int j) {
  if (i == 1) Swap(s.v[0], s.v[1]);  // (1, 2): now (0, 2) with the old v0 in slot 1
  if (j == 2) Swap(s.v[1], s.v[2]);
  s.count = 2;
}

// A collinear (zero-area) triangle, e.g. from a stale cache: keep the closest of its three edges.
void SolveFlatTriangle(const LocalPair& pair, LocalSimplex& s) {
  static constexpr int kEdges[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  int best = 0;
  float bestSquared = 0.0f;
  for (int e = 0; e < 3; ++e) {
    LocalSimplex edge;
    edge.v[0] = s.v[kEdges[e][0]];
    edge.v[1] = s.v[kEdges[e][1]];
    edge.count = 2;
    const float squared = Solve2(pair, edge).distanceSquared;
    if (e == 0 || squared < bestSquared) {
      best = e;
      bestSquared = squared;
    }
  }
  KeepEdge(s, kEdges[best][0], kEdges[best][1]);
}

// Triangle w1 w2 w3: edge barycentrics as in Solve2, and the signed areas of the sub-triangles
// (origin, w2, w3), (origin, w3, w1), (origin, w1, w2) times the orientation n, which are positive
// for the vertex opposite an edge the origin lies inside of. Regions are tested vertex, edge, then
// interior; each test only passes for its own Voronoi region. A vertex or an edge is only selected
// here; Solve2 and PointDescent give it its weights and direction.
void Solve3(const LocalPair& pair, LocalSimplex& s) {
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
    if (i != 0) Swap(s.v[0], s.v[i]);
    s.count = 1;
  };
  auto keep2 = [&s](int i, int j) { KeepEdge(s, i, j); };

  if (v12 <= 0.0f && v13 <= 0.0f) return keep1(0);
  if (u12 > 0.0f && v12 > 0.0f && w123 <= 0.0f) return keep2(0, 1);
  if (u13 > 0.0f && v13 > 0.0f && v123 <= 0.0f) return keep2(0, 2);
  if (u12 <= 0.0f && v23 <= 0.0f) return keep1(1);
  if (u13 <= 0.0f && u23 <= 0.0f) return keep1(2);
  if (u23 > 0.0f && v23 > 0.0f && u123 <= 0.0f) return keep2(1, 2);

  // Interior. A (nearly) collinear triangle makes the areas meaningless; fall back to its edges.
  float sum = u123 + v123 + w123;
  float scale = LengthSquared(e12) * LengthSquared(e13);
  if (!(n * n > kEpsilon * kEpsilon * scale) || !(sum > 0.0f)) return SolveFlatTriangle(pair, s);
  float inv = 1.0f / sum;
  s.v[0].a = u123 * inv;
  s.v[1].a = v123 * inv;
  s.v[2].a = w123 * inv;
  s.count = 3;
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
[[gnu::always_inline]] inline bool StartSimplex(const LocalPair& pair, const SimplexCache* cache,
                                                LocalSimplex& s) {
  if (cache != nullptr && IsCacheUsable(*cache, pair.countA, pair.countB)) {
    s.count = cache->count;
    for (int i = 0; i < s.count; ++i) s.v[i] = MakeVertex(pair, cache->indexA[i], cache->indexB[i]);
    return true;
  }
  s.count = 1;
  s.v[0] = SupportVertex(pair, pair.xf.p, 0, 0);
  return false;
}

// Recording for the sandbox, out of line so it costs nothing when history is off. The closest point
// is shown as -distance along the unit direction (exact), not as the barycentric combination.
[[gnu::noinline]] void Record(GjkHistory* history, const LocalSimplex& s, const Descent* descent,
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
  Vec2 direction{0.0f, 0.0f};
  Vec2 closest{0.0f, 0.0f};
  if (descent != nullptr && descent->pp > 0.0f) {
    direction = descent->p;
    closest = -std::sqrt(descent->distanceSquared / descent->pp) * descent->p;
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

// The GJK loop, shared by the distance and the boolean query so that both decide alike; kRecord
// compiles the history out of the common path, kBoolean adds the separating-axis exit.
template <bool kRecord, bool kBoolean>
GjkResult RunGjkImpl(const LocalPair& pair, const SimplexCache* cache, GjkHistory* history,
                     const Transform& xfA) {
  GjkResult result;  // no zero fill: every field is written below
  result.iterations = 0;
  result.overlap = false;
  result.capped = false;
  LocalSimplex& s = result.simplex;  // no zero fill: vertices past count are never read
  // A warm start's supports are near the cached ones: hill climbing from them beats a full scan.
  const bool warm = StartSimplex(pair, cache, s);
  if constexpr (kRecord) history->count = 0;

  float largestSquared = LargestSquared(s);  // of every vertex seen: bounds the simplex's |w|
  for (;;) {
    // The simplex before its reduction, which only reorders it (tests 2 and 4 below).
    const int seenCount = s.count;

    if (s.count == 3) {
      Solve3(pair, s);
      if (s.count == 3) {
        if constexpr (kRecord) Record(history, s, nullptr, xfA);
        result.overlap = true;
        break;
      }
    }
    const Descent d = s.count == 2 ? Solve2(pair, s) : PointDescent(s);
    result.edge = d.edge;
    if constexpr (kRecord) Record(history, s, &d, xfA);
    if (d.distanceSquared <= kOriginTolerance * kOriginTolerance * largestSquared || d.pp == 0.0f) {
      result.overlap = true;
      break;
    }
    if (result.iterations == kGjkMaxIterations) {
      result.capped = true;
      break;
    }
    const LocalVertex& v0 = s.v[0];
    const LocalVertex& last = s.v[s.count - 1];
    const LocalVertex w = warm ? ClimbVertex(pair, d.p, last.indexA, last.indexB)
                               : SupportVertex(pair, d.p, last.indexA, last.indexB);
    // Boolean GJK ("GJK Algorithm"; Bittle, "GJK"): nothing of the difference beyond the origin along p is a
    // separating axis.
    if constexpr (kBoolean) {
      if (Dot(w.w, d.p) < 0.0f) break;
    }
    bool repeated = false;
    for (int i = 0; i < s.count; ++i) {
      repeated = repeated || (s.v[i].indexA == w.indexA && s.v[i].indexB == w.indexB);
    }
    if (repeated) break;
    // Not even NaN may loop: a NaN gap fails the first comparison and stops.
    const Vec2 offset = (w.wA - v0.wA) - (w.wB - v0.wB);
    const float gap = Dot(d.p, offset);
    const float gapSquared = gap * gap;
    constexpr float kGap2 = kGapTolerance * kGapTolerance;
    if (!(gap > 0.0f) || gapSquared <= kGap2 * d.pp * Dot(offset, offset)) break;
    // Slots [count, seenCount) hold what the reduction dropped; only looked at for a small gap.
    if (gapSquared <= kGap2 * d.pp * largestSquared) [[unlikely]] {
      bool returned = false;
      for (int i = s.count; i < seenCount; ++i) {
        returned = returned || (s.v[i].indexA == w.indexA && s.v[i].indexB == w.indexB);
      }
      if (returned) break;
    }
    s.v[s.count++] = w;
    const float wSquared = Dot(w.w, w.w);
    largestSquared = wSquared > largestSquared ? wSquared : largestSquared;
    ++result.iterations;
  }
  return result;
}

}  // namespace

GjkResult RunGjk(const LocalPair& pair, const SimplexCache* cache, GjkHistory* history,
                 const Transform& xfA) {
  if (history != nullptr) return RunGjkImpl<true, false>(pair, cache, history, xfA);
  return RunGjkImpl<false, false>(pair, cache, nullptr, xfA);
}

GjkResult RunGjkOverlap(const LocalPair& pair, const SimplexCache* cache) {
  return RunGjkImpl<false, true>(pair, cache, nullptr, Transform{});
}

}  // namespace detail

}  // namespace mk
