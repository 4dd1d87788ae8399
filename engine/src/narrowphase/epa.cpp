// SPDX-License-Identifier: MIT
// EPA: penetration depth of overlapping cores (van den Bergen 2001, "Proximity queries and
// penetration depth computation on 3D game objects", in 2D).
//
// The polytope is a counter-clockwise polygon of Minkowski points (A - B) that contains the origin.
// Each iteration takes the edge closest to the origin and asks for the support point along its
// outward normal; when that point is no farther out than the edge (within tolerance) or repeats a
// vertex, the edge lies on the boundary of the difference and its distance is the depth. Otherwise
// the point is inserted between the edge's ends, which keeps the polygon convex (the point is the
// farthest along the edge normal, so it sees only that edge).
//
// GJK ends with a triangle around the origin in the common case, but touching or barely
// overlapping cores leave a point or a segment through the origin; StartPolytope blows those up
// into a polygon first. Whatever EPA cannot resolve (cap, a polygon with no usable edge, NaN) goes to
// SAT, which is exact for cores and only slower.
#include "minkowski/distance.h"
#include "narrowphase/gjk_internal.h"

#include <cmath>

namespace mk {

namespace {

/// EPA stops when the support point along the closest edge's normal is within this fraction of the
/// polytope's size beyond the edge: ~64 ulps, above the rounding of the support dot products. Cores
/// are point sets, so exact convergence (a repeated vertex) is the usual way out.
constexpr float kEpaTolerance = 64.0f * detail::kEpsilon;

/// Edges shorter than this fraction of the polytope's size have no reliable normal and are skipped.
constexpr float kEdgeTolerance = 4.0f * detail::kEpsilon;

using detail::LocalPair;
using detail::LocalPenetration;
using detail::LocalSimplex;
using detail::LocalVertex;

struct Polytope {
  LocalVertex vertices[kEpaMaxVertices];
  Vec2 normals[kEpaMaxVertices];     // outward unit normal of edge i -> i + 1
  float distances[kEpaMaxVertices];  // signed distance of that edge's line from the origin
  int count = 0;
  float scale = 0.0f;  // largest |w| coordinate: tolerances are relative to it
};

void ComputeEdge(Polytope& p, int i) {
  int j = i + 1 == p.count ? 0 : i + 1;
  Vec2 e = p.vertices[j].w - p.vertices[i].w;
  float length = Length(e);
  if (!(length > kEdgeTolerance * p.scale)) {
    p.normals[i] = {0.0f, 0.0f};
    p.distances[i] = FLT_MAX;
    return;
  }
  p.normals[i] = (1.0f / length) * RightPerp(e);
  p.distances[i] = Dot(p.normals[i], p.vertices[i].w);
}

void Grow(Polytope& p, const LocalVertex& v) {
  p.scale = std::fmax(p.scale, std::fmax(std::fabs(v.w.x), std::fabs(v.w.y)));
}

bool SameVertex(const LocalVertex& a, const LocalVertex& b) {
  return a.indexA == b.indexA && a.indexB == b.indexB;
}

// Point or segment simplex: add support points on both sides so the polygon encloses the origin (or
// has it on its boundary, when the cores only touch).
void StartPolytope(const LocalPair& pair, const LocalSimplex& start, Polytope& p) {
  LocalSimplex s = start;
  for (int i = 0; i < s.count; ++i) Grow(p, s.v[i]);
  if (s.count == 3) {
    Vec2 e1 = s.v[1].w - s.v[0].w;
    Vec2 e2 = s.v[2].w - s.v[0].w;
    float area = Cross(e1, e2);
    if (std::fabs(area) > kEdgeTolerance * Length(e1) * Length(e2)) {
      p.vertices[0] = s.v[0];
      p.vertices[1] = area > 0.0f ? s.v[1] : s.v[2];
      p.vertices[2] = area > 0.0f ? s.v[2] : s.v[1];
      p.count = 3;
      return;
    }
    // Flat triangle: keep its longest side and rebuild around it.
    int far = LengthSquared(e1) >= LengthSquared(e2) ? 1 : 2;
    if (DistanceSquared(s.v[1].w, s.v[2].w) > LengthSquared(far == 1 ? e1 : e2)) {
      s.v[0] = s.v[2];
    } else {
      s.v[1] = s.v[far];
    }
    s.count = 2;
  }
  if (s.count == 2 && SameVertex(s.v[0], s.v[1])) s.count = 1;
  if (s.count == 1) {
    // Any other vertex of the difference gives a segment from the origin's vertex.
    static constexpr Vec2 kProbes[4] = {{1.0f, 0.0f}, {-1.0f, 0.0f}, {0.0f, 1.0f}, {0.0f, -1.0f}};
    for (Vec2 probe : kProbes) {
      LocalVertex v = detail::SupportVertex(pair, probe, s.v[0].indexA, s.v[0].indexB);
      if (!SameVertex(v, s.v[0])) {
        s.v[1] = v;
        s.count = 2;
        break;
      }
    }
  }
  p.vertices[0] = s.v[0];
  p.count = 1;
  if (s.count == 1) return;  // the difference is one point: both cores are points
  Grow(p, s.v[1]);
  Vec2 n = LeftPerp(s.v[1].w - s.v[0].w);
  LocalVertex right = detail::SupportVertex(pair, -n, s.v[0].indexA, s.v[0].indexB);
  LocalVertex left = detail::SupportVertex(pair, n, s.v[1].indexA, s.v[1].indexB);
  // Counter-clockwise: w0, (right side), w1, (left side). A side with nothing beyond the segment's
  // line adds no vertex; the segment is then a boundary edge at distance ~0 (touching cores).
  if (!SameVertex(right, s.v[0]) && !SameVertex(right, s.v[1]) && Dot(right.w - s.v[0].w, -n) > 0.0f) {
    p.vertices[p.count++] = right;
    Grow(p, right);
  }
  p.vertices[p.count++] = s.v[1];
  if (!SameVertex(left, s.v[0]) && !SameVertex(left, s.v[1]) && Dot(left.w - s.v[0].w, n) > 0.0f) {
    p.vertices[p.count++] = left;
    Grow(p, left);
  }
}

// Drops vertices where the polygon does not turn left (collinear or reflex). They arise when the
// origin sits on a vertex or an edge of the start polygon: a new support point can then see two
// collinear edges, and keeping the middle vertex would make the polygon non-convex. Returns whether
// anything was removed (rare, so the caller then recomputes every edge).
bool RemoveReflex(Polytope& p) {
  bool removed = false;
  for (int pass = 0; pass < kEpaMaxVertices && p.count > 3; ++pass) {
    int reflex = -1;
    for (int i = 0; i < p.count; ++i) {
      Vec2 prev = p.vertices[i == 0 ? p.count - 1 : i - 1].w;
      Vec2 next = p.vertices[i + 1 == p.count ? 0 : i + 1].w;
      Vec2 here = p.vertices[i].w;
      if (Cross(here - prev, next - here) <= 0.0f) {
        reflex = i;
        break;
      }
    }
    if (reflex < 0) break;
    for (int i = reflex; i + 1 < p.count; ++i) p.vertices[i] = p.vertices[i + 1];
    --p.count;
    removed = true;
  }
  return removed;
}

[[gnu::noinline]] void RecordEpa(EpaHistory* history, const Polytope& p, int closest, const Transform& xfA) {
  if (history->count >= kEpaHistorySteps) return;
  EpaStep& step = history->steps[history->count++];
  step.count = p.count;
  for (int i = 0; i < p.count; ++i) step.vertices[i] = Rotate(xfA.q, p.vertices[i].w);
  step.closestEdge = closest;
  float d = closest >= 0 ? p.distances[closest] : 0.0f;
  step.closestPoint = closest >= 0 ? Rotate(xfA.q, d * p.normals[closest]) : Vec2{0.0f, 0.0f};
}

LocalPenetration Finish(const Polytope& p, int edge, int iterations) {
  LocalPenetration out{};
  int j = edge + 1 == p.count ? 0 : edge + 1;
  const LocalVertex& v1 = p.vertices[edge];
  const LocalVertex& v2 = p.vertices[j];
  Vec2 n = p.normals[edge];
  float depth = p.distances[edge];
  // The boundary point closest to the origin, as a weight along the edge (clamped for noise).
  Vec2 e = v2.w - v1.w;
  float t = Dot(depth * n - v1.w, e) / LengthSquared(e);
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  out.normal = n;
  out.pointA = Lerp(v1.wA, v2.wA, t);
  out.pointB = Lerp(v1.wB, v2.wB, t);
  out.depth = depth > 0.0f ? depth : 0.0f;
  out.iterations = iterations;
  out.status = PenetrationStatus::Epa;
  return out;
}

// EPA gave up after `iterations` expansions; the count still goes out, for callers' tallies.
LocalPenetration FailedEpa(int iterations) {
  LocalPenetration out{};
  out.iterations = iterations;
  out.status = PenetrationStatus::Failed;
  return out;
}

}  // namespace

namespace detail {

LocalPenetration RunEpa(const LocalPair& pair, const LocalSimplex& start, EpaHistory* history,
                        const Transform& xfA) {
  Polytope p;
  StartPolytope(pair, start, p);
  if (history != nullptr) history->count = 0;
  if (p.count < 2) {
    // Both cores are single points at the same place: depth 0, any normal (A's x axis).
    LocalPenetration out{};
    out.normal = {1.0f, 0.0f};
    out.pointA = p.vertices[0].wA;
    out.pointB = p.vertices[0].wB;
    out.status = PenetrationStatus::Epa;
    return out;
  }
  RemoveReflex(p);
  for (int i = 0; i < p.count; ++i) ComputeEdge(p, i);

  for (int iteration = 0; iteration <= kEpaMaxIterations; ++iteration) {
    int closest = -1;
    float best = FLT_MAX;
    for (int i = 0; i < p.count; ++i) {
      if (p.distances[i] < best) {
        best = p.distances[i];
        closest = i;
      }
    }
    if (history != nullptr) RecordEpa(history, p, closest, xfA);
    if (closest < 0 || !std::isfinite(best)) return FailedEpa(iteration);
    Vec2 n = p.normals[closest];
    int j = closest + 1 == p.count ? 0 : closest + 1;
    LocalVertex w = detail::SupportVertex(pair, n, p.vertices[j].indexA, p.vertices[j].indexB);
    bool repeated = false;
    for (int i = 0; i < p.count; ++i) repeated = repeated || SameVertex(p.vertices[i], w);
    if (repeated || Dot(w.w, n) - best <= kEpaTolerance * p.scale) return Finish(p, closest, iteration);
    if (iteration == kEpaMaxIterations || p.count == kEpaMaxVertices) return FailedEpa(iteration);
    // Insert w after vertex `closest`; edges closest and closest + 1 are new.
    for (int i = p.count; i > closest + 1; --i) {
      p.vertices[i] = p.vertices[i - 1];
      p.normals[i] = p.normals[i - 1];
      p.distances[i] = p.distances[i - 1];
    }
    p.vertices[closest + 1] = w;
    ++p.count;
    Grow(p, w);
    if (RemoveReflex(p)) {
      for (int i = 0; i < p.count; ++i) ComputeEdge(p, i);
    } else {
      ComputeEdge(p, closest);
      ComputeEdge(p, closest + 1);
    }
  }
  return FailedEpa(kEpaMaxIterations);
}

}  // namespace detail

PenetrationOutput ShapePenetration(const DistanceInput& input, const SimplexCache* cache,
                                   EpaHistory* history) {
  PenetrationOutput out;
  if (!detail::IsValidInput(input)) return out;
  const LocalPair pair = detail::MakeLocalPair(input);
  const Transform& xfA = input.transformA;
  detail::GjkResult gjk = detail::RunGjk(pair, cache, nullptr, xfA);
  if (!gjk.overlap) {
    out.status = PenetrationStatus::Separated;
    if (history != nullptr) history->count = 0;
    return out;
  }
  LocalPenetration local = detail::RunEpa(pair, gjk.simplex, history, xfA);
  bool finite = IsFinite(local.normal) && IsFinite(local.pointA) && IsFinite(local.pointB) &&
                std::isfinite(local.depth);
  if (local.status != PenetrationStatus::Epa || !finite) {
    int iterations = local.iterations;
    local = detail::RunSat(pair);
    local.iterations = iterations;
    finite = IsFinite(local.normal) && IsFinite(local.pointA) && IsFinite(local.pointB) &&
             std::isfinite(local.depth);
    if (local.status != PenetrationStatus::SatFallback || !finite) {
      out.iterations = iterations;
      out.status = PenetrationStatus::Failed;
      return out;
    }
  }
  const float radiusA = input.proxyA.radius;
  const float radiusB = input.proxyB.radius;
  out.normal = Rotate(xfA.q, local.normal);
  out.corePointA = TransformPoint(xfA, local.pointA);
  out.corePointB = TransformPoint(xfA, local.pointB);
  out.pointA = out.corePointA + radiusA * out.normal;
  out.pointB = out.corePointB - radiusB * out.normal;
  out.coreDepth = local.depth;
  out.depth = local.depth + radiusA + radiusB;
  out.iterations = local.iterations;
  out.status = local.status;
  // Huge (finite) coordinates can still overflow on the way back to world space: report, never NaN.
  if (!IsFinite(out.normal) || !IsFinite(out.pointA) || !IsFinite(out.pointB) || !IsFinite(out.corePointA) ||
      !IsFinite(out.corePointB) || !std::isfinite(out.depth)) {
    out = PenetrationOutput{.iterations = local.iterations, .status = PenetrationStatus::Failed};
  }
  return out;
}

}  // namespace mk
