// SPDX-License-Identifier: MIT
// The public distance queries (distance.h) over GJK (gjk.cpp): ShapeDistance classifies GJK's result
// into separated, touching and overlapping and reports world-frame witnesses and normal; CoresOverlap,
// ShapesOverlap, MakeSimplexFromCache and ShapeSeparation (the signed distance, EPA when the cores
// overlap) are thin layers on the same entry points. The GJK loop itself, its precision rules and its
// termination tests are documented in gjk.cpp.
#include "minkowski/distance.h"
#include "narrowphase/gjk_internal.h"

#include <cmath>

namespace mk {

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
[[gnu::noinline]] DistanceOutput OverlapOutput(const DistanceInput& input, SimplexCache* cache,
                                               const LocalSimplex& s, DistanceOutput out) {
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

using detail::LocalSeparation;
using detail::LocalVertex;

// Warm start, common case: the cached simplex is a point or a segment of the difference, the origin
// projects inside it, and one support query per shape (hill climbing from the cached vertices)
// returns a vertex already in it. That is the general loop's first pass ending on its exact test (a
// repeated vertex), written out for a known simplex size so that it stays in registers and needs no
// cache write (the simplex is unchanged). Anything else (overlap, a new vertex, the origin beyond an
// end of the segment, coordinates beyond 1e9 m) returns false and the general loop runs.
//
// It takes the loop's edge (ShapeEdge), direction and region tests, and its outputs come from the
// same SegmentSeparation as the general path's, so both give the same answer for the same simplex.
// Where the arithmetic differs, it is by rounding only (tests compare both): the origin test
// "|v| <= kOriginTolerance |w|max" uses |v| = |c| / |e| (c = e x w0) squared and multiplied out.
[[gnu::always_inline]] inline bool WarmSeparation(const LocalPair& pair, const SimplexCache& cache,
                                                  LocalSeparation& sep) {
  // |w|^2 below this keeps every product below in float range (|w| < 1e9 m).
  constexpr float kLargestSquared = 1e18f;
  const int count = cache.count;
  const int iA0 = cache.indexA[0];
  const int iB0 = cache.indexB[0];
  if ((count - 1u) > 1u || iA0 >= pair.countA || iB0 >= pair.countB) return false;
  const LocalVertex v0 = detail::MakeVertex(pair, iA0, iB0);
  const float l0 = LengthSquared(v0.w);
  if (count == 1) {
    // The origin is on a point simplex only when |w0| = 0 (and Normalize's cut-off is |w0| < 1e-20).
    if (!(l0 >= FLT_MIN && l0 < kLargestSquared)) return false;
    int iA = detail::ClimbSupport(pair.pointsA, pair.countA, -v0.w, iA0);
    int iB = detail::ClimbSupport(pair.pointsB, pair.countB, InvRotate(pair.xf.q, v0.w), iB0);
    if (iA != iA0 || iB != iB0) return false;
    sep = detail::PointSeparation(v0);
    return true;
  }
  const int iA1 = cache.indexA[1];
  const int iB1 = cache.indexB[1];
  if (iA1 >= pair.countA || iB1 >= pair.countB) return false;
  const LocalVertex v1 = detail::MakeVertex(pair, iA1, iB1);
  const float l1 = LengthSquared(v1.w);
  const float largest = l1 > l0 ? l1 : l0;
  const Vec2 e = detail::ShapeEdge(pair, v0, v1);
  const float u1 = -Dot(v0.w, e);  // unnormalised weights of v1 and v0 (Solve2)
  const float u0 = Dot(v1.w, e);
  const float c = Cross(e, v0.w);
  const float ee = Dot(e, e);
  constexpr float kTolerance = detail::kOriginTolerance * detail::kOriginTolerance;
  if (!(u1 > 0.0f && u0 > 0.0f && largest < kLargestSquared && ee >= FLT_MIN &&
        c * c > kTolerance * largest * ee)) {
    return false;
  }
  // Towards the origin: the perpendicular on the origin's side (copysign: no branch on the side).
  const Vec2 direction = std::copysign(1.0f, -c) * LeftPerp(e);
  int iA = detail::ClimbSupport(pair.pointsA, pair.countA, direction, iA1);
  int iB = detail::ClimbSupport(pair.pointsB, pair.countB, InvRotate(pair.xf.q, -direction), iB1);
  bool repeated = (iA == iA0 && iB == iB0) || (iA == iA1 && iB == iB1);
  if (!repeated) return false;
  sep = detail::SegmentSeparation(v0, v1, e);
  return true;
}

// The outputs of separated cores in the world frame, with the status and the finiteness check.
[[gnu::always_inline]] inline DistanceOutput SeparatedOutput(const DistanceInput& input,
                                                             const LocalSeparation& sep, int iterations,
                                                             int simplexCount, bool capped) {
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
  if (!detail::FiniteOutputs(out.pointA, out.pointB, out.normal, coreDistance)) [[unlikely]]
    return InvalidDistance();
  return out;
}

// The general path: the GJK loop, then the outputs from its terminal simplex.
[[gnu::noinline]] DistanceOutput GeneralDistance(const DistanceInput& input, SimplexCache* cache,
                                                 GjkHistory* history) {
  const LocalPair pair = detail::MakeLocalPair(input);
  const Transform& xfA = input.transformA;
  const GjkResult gjk = detail::RunGjk(pair, cache, history, xfA);
  const LocalSimplex& s = gjk.simplex;
  detail::WriteCache(s, gjk.iterations, cache);

  if (gjk.overlap) [[unlikely]] {
    const detail::WitnessPoints witnesses = detail::Witnesses(s);
    DistanceOutput out;
    out.iterations = gjk.iterations;
    out.simplexCount = s.count;
    out.corePointA = TransformPoint(xfA, witnesses.pointA);
    out.corePointB = TransformPoint(xfA, witnesses.pointB);
    return OverlapOutput(input, cache, s, out);
  }
  const LocalSeparation sep = detail::Separation(s, gjk.edge);
  return SeparatedOutput(input, sep, gjk.iterations, s.count, gjk.capped);
}

}  // namespace

DistanceOutput ShapeDistance(const DistanceInput& input, SimplexCache* cache, GjkHistory* history) {
  if (!detail::IsValidInput(input)) [[unlikely]]
    return InvalidQuery(cache, history);
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
  // Boolean GJK ("GJK Algorithm"; Bittle, "GJK"): the distance query's loop, ended early by a separating
  // axis.
  const GjkResult gjk = detail::RunGjkOverlap(detail::MakeLocalPair(input), cache);
  detail::WriteCache(gjk.simplex, gjk.iterations, cache);
  return gjk.overlap;
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
