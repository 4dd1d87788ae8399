// SPDX-License-Identifier: MIT
// Non-convex distance: input validation, stage 1 (GJK on the vertex sets: bounds, separating
// direction, exact early exit) and the driver that hands over to the hash stages (nonconvex_hash.cpp).
#include "minkowski/assert.h"
#include "nonconvex/nonconvex_internal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace mk {

NonConvexWorkspace::NonConvexWorkspace() : buffers_(OwnedPtr<Buffers>(new Buffers())) {}
NonConvexWorkspace::~NonConvexWorkspace() = default;
NonConvexWorkspace::NonConvexWorkspace(NonConvexWorkspace&&) noexcept = default;
NonConvexWorkspace& NonConvexWorkspace::operator=(NonConvexWorkspace&&) noexcept = default;

namespace detail::nc {
namespace {

/// Closest point of segment a-b to p (a zero-length segment is its point).
SegmentPair PointSegment(DVec p, DVec a, DVec b) {
  const DVec e = b - a;
  const double ee = Dot(e, e);
  double t = ee > 0.0 ? Dot(p - a, e) / ee : 0.0;
  t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
  const DVec q = a + t * e;
  const DVec d = p - q;
  return {Dot(d, d), q, p};
}

double Orient(DVec a, DVec b, DVec c) { return Cross(b - a, c - a); }

/// p is collinear with a-b (orientation 0): true when it lies within the segment's box.
bool WithinBox(DVec a, DVec b, DVec p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

bool Opposite(double u, double v) { return (u > 0.0 && v < 0.0) || (u < 0.0 && v > 0.0); }

}  // namespace

SegmentPair SegmentDistance(DVec a0, DVec a1, DVec b0, DVec b1) {
  const double o1 = Orient(a0, a1, b0);
  const double o2 = Orient(a0, a1, b1);
  const double o3 = Orient(b0, b1, a0);
  const double o4 = Orient(b0, b1, a1);
  if (Opposite(o1, o2) && Opposite(o3, o4)) {
    const DVec x = a0 + (o3 / (o3 - o4)) * (a1 - a0);
    return {0.0, x, x};
  }
  // Touching: an endpoint on the other segment (collinear overlaps land here too).
  if (o1 == 0.0 && WithinBox(a0, a1, b0)) return {0.0, b0, b0};
  if (o2 == 0.0 && WithinBox(a0, a1, b1)) return {0.0, b1, b1};
  if (o3 == 0.0 && WithinBox(b0, b1, a0)) return {0.0, a0, a0};
  if (o4 == 0.0 && WithinBox(b0, b1, a1)) return {0.0, a1, a1};
  // PointSegment returns (point on the segment, the query point): B's endpoints against A keep that
  // order, A's endpoints against B swap it.
  SegmentPair best = PointSegment(b0, a0, a1);
  SegmentPair p = PointSegment(b1, a0, a1);
  if (p.distanceSquared < best.distanceSquared) best = p;
  p = PointSegment(a0, b0, b1);
  if (p.distanceSquared < best.distanceSquared) best = {p.distanceSquared, p.pointB, p.pointA};
  p = PointSegment(a1, b0, b1);
  if (p.distanceSquared < best.distanceSquared) best = {p.distanceSquared, p.pointB, p.pointA};
  return best;
}

namespace {

// ---------------------------------------------------------------------------------------------
// Validation and the world frame
// ---------------------------------------------------------------------------------------------

NonConvexError CheckChain(const SegmentChain& c) {
  if (c.count > 0 && c.points == nullptr) return NonConvexError::NullPoints;
  if (c.count < (c.closed ? 3 : 2)) return NonConvexError::TooFewPoints;
  for (int i = 0; i < c.count; ++i) {
    if (!IsFinite(c.points[i])) return NonConvexError::NonFinite;
  }
  const int segments = c.closed ? c.count : c.count - 1;
  for (int i = 0; i < segments; ++i) {
    const Vec2 a = c.points[i];
    const Vec2 b = c.points[i + 1 == c.count ? 0 : i + 1];
    if (a.x == b.x && a.y == b.y) return NonConvexError::ZeroLengthSegment;
  }
  return NonConvexError::None;
}

bool FiniteTransform(const Transform& xf) {
  return IsFinite(xf.p) && std::isfinite(xf.q.c) && std::isfinite(xf.q.s);
}

NonConvexError CheckInput(const NonConvexInput& in) {
  if (!FiniteTransform(in.transformA) || !FiniteTransform(in.transformB)) return NonConvexError::NonFinite;
  const NonConvexError a = CheckChain(in.chainA);
  return a != NonConvexError::None ? a : CheckChain(in.chainB);
}

/// Largest world coordinate accepted (metres): distances between points this far out still fit in a
/// float with room to spare.
constexpr double kMaxWorldCoordinate = 1e30;

/// Transforms a chain to the world frame in double; false when a point lands beyond
/// kMaxWorldCoordinate.
bool ToWorld(const SegmentChain& c, const Transform& xf, std::vector<DVec>& out) {
  out.resize(static_cast<std::size_t>(c.count));
  const double cs = xf.q.c, sn = xf.q.s, px = xf.p.x, py = xf.p.y;
  bool finite = true;
  for (int i = 0; i < c.count; ++i) {
    const double x = c.points[i].x, y = c.points[i].y;
    out[i] = {cs * x - sn * y + px, sn * x + cs * y + py};
    finite =
        finite && std::fabs(out[i].x) <= kMaxWorldCoordinate && std::fabs(out[i].y) <= kMaxWorldCoordinate;
  }
  return finite;
}

WorldChain MakeChain(const std::vector<DVec>& points, bool closed) {
  const int n = static_cast<int>(points.size());
  return {points.data(), n, closed ? n : n - 1, closed};
}

double TotalLength(const WorldChain& c) {
  double sum = 0.0;
  for (int i = 0; i < c.segmentCount; ++i) {
    const DVec e = c.End(i) - c.Start(i);
    sum += std::sqrt(Dot(e, e));
  }
  return sum;
}

double MaxAbsCoordinate(const WorldChain& c) {
  double m = 0.0;
  for (int i = 0; i < c.pointCount; ++i)
    m = std::max({m, std::fabs(c.points[i].x), std::fabs(c.points[i].y)});
  return m;
}

// ---------------------------------------------------------------------------------------------
// Stage 1: GJK on the vertex sets
// ---------------------------------------------------------------------------------------------

/// GJK gives up after this many support queries. Every iteration adds a Minkowski vertex not yet in
/// the simplex and lowers |v| strictly, so it ends on its own; real outlines converge in 3-15.
constexpr int kPointGjkMaxIterations = 200;

/// Convergence: stop when |v|^2 - v.w <= kGjkRelativeTolerance |v|^2 (van den Bergen's test). Double
/// precision leaves |v| within ~1e-12 relative of the hulls' distance, far below the 1e-9 used to
/// accept the bounds as equal.
constexpr double kGjkRelativeTolerance = 1e-13;

struct PointVertex {
  DVec w;  ///< A[indexA] - B[indexB]
  int indexA;
  int indexB;
  double weight;
};

struct PointSimplex {
  PointVertex v[3];
  int count;
};

int SupportIndex(const WorldChain& c, DVec d) {
  int best = 0;
  double bestDot = Dot(c.points[0], d);
  for (int i = 1; i < c.pointCount; ++i) {
    const double value = Dot(c.points[i], d);
    if (value > bestDot) {
      bestDot = value;
      best = i;
    }
  }
  return best;
}

/// Reduces s to the vertices of its sub-simplex nearest the origin, sets the weights, returns the
/// closest point v. Origin inside a triangle: returns (0, 0) and keeps all three.
DVec SolveSegment(PointSimplex& s, int i, int j) {
  const DVec a = s.v[i].w, b = s.v[j].w, e = b - a;
  const double ee = Dot(e, e);
  const double t = ee > 0.0 ? -Dot(a, e) / ee : 0.0;
  if (t <= 0.0) {
    s.v[0] = s.v[i];
    s.v[0].weight = 1.0;
    s.count = 1;
    return a;
  }
  if (t >= 1.0) {
    s.v[0] = s.v[j];
    s.v[0].weight = 1.0;
    s.count = 1;
    return b;
  }
  const PointVertex vi = s.v[i], vj = s.v[j];
  s.v[0] = vi;
  s.v[1] = vj;
  s.v[0].weight = 1.0 - t;
  s.v[1].weight = t;
  s.count = 2;
  return a + t * e;
}

DVec SolveSimplex(PointSimplex& s) {
  if (s.count == 1) {
    s.v[0].weight = 1.0;
    return s.v[0].w;
  }
  if (s.count == 2) return SolveSegment(s, 0, 1);
  const DVec a = s.v[0].w, b = s.v[1].w, c = s.v[2].w;
  const double area = Cross(b - a, c - a);
  const double u = Cross(b, c), v = Cross(c, a), w = Cross(a, b);  // areas opposite a, b, c (x2)
  // A flat triangle (collinear points) encloses nothing: its edges answer.
  const bool inside =
      area != 0.0 && (area > 0.0 ? (u >= 0.0 && v >= 0.0 && w >= 0.0) : (u <= 0.0 && v <= 0.0 && w <= 0.0));
  if (inside) return {0.0, 0.0};
  // Outside: the closest point lies on an edge; take the best of the three (a triangle has no more).
  PointSimplex best = s;
  DVec bestV = SolveSegment(best, 0, 1);
  for (auto [i, j] : {std::pair{1, 2}, std::pair{0, 2}}) {
    PointSimplex trial = s;
    DVec v2 = SolveSegment(trial, i, j);
    if (Dot(v2, v2) < Dot(bestV, bestV)) {
      best = trial;
      bestV = v2;
    }
  }
  s = best;
  return bestV;
}

struct Stage1 {
  PointSimplex simplex;
  DVec v;  ///< closest point of the hulls' difference A - B to the origin
  int lastA;
  int lastB;
  double gap;  ///< rigorous lower bound: min over B of x.n - max over A of x.n (<= 0: hulls overlap)
  DVec normal;
  int iterations;
  bool overlap;
};

Stage1 RunPointGjk(const WorldChain& A, const WorldChain& B, double scale) {
  Stage1 r{};
  r.simplex.count = 1;
  r.simplex.v[0] = {A.points[0] - B.points[0], 0, 0, 1.0};
  const double tiny = 1e-24 * scale * scale;
  for (r.iterations = 0; r.iterations < kPointGjkMaxIterations; ++r.iterations) {
    r.v = SolveSimplex(r.simplex);
    const double vv = Dot(r.v, r.v);
    if (r.simplex.count == 3 || vv <= tiny) {
      r.overlap = true;
      return r;
    }
    const DVec d{-r.v.x, -r.v.y};
    const int ia = SupportIndex(A, d);
    const int ib = SupportIndex(B, r.v);
    const DVec w = A.points[ia] - B.points[ib];
    r.lastA = ia;
    r.lastB = ib;
    r.gap = Dot(w, r.v) / std::sqrt(vv);
    bool repeated = false;
    for (int i = 0; i < r.simplex.count; ++i)
      repeated |= r.simplex.v[i].indexA == ia && r.simplex.v[i].indexB == ib;
    if (repeated || vv - Dot(r.v, w) <= kGjkRelativeTolerance * vv) break;
    r.simplex.v[r.simplex.count++] = {w, ia, ib, 0.0};
  }
  const double len = std::sqrt(Dot(r.v, r.v));
  r.normal = {-r.v.x / len, -r.v.y / len};
  r.overlap = !(r.gap > 0.0);
  return r;
}

/// The segments at one side's support points: those meeting each support vertex (and so the hull edge
/// between two adjacent ones, when it is a real segment). Returns how many, at most 4.
int SupportSegments(const WorldChain& c, const int* vertices, int count, int out[4]) {
  int n = 0;
  for (int k = 0; k < count; ++k) {
    const int i = vertices[k];
    const int before = i > 0 ? i - 1 : (c.closed ? c.pointCount - 1 : -1);
    const int after = i < c.segmentCount ? i : -1;
    for (int s : {before, after}) {
      if (s >= 0 && std::find(out, out + n, s) == out + n) out[n++] = s;
    }
  }
  return n;
}

/// Stage 1 upper bound: exact distances among the segments at the support points (at most 4 x 4). The
/// paper takes the closest pair of support points; the segments through them can only be closer. When
/// the paper's exit test holds (each terminal simplex a vertex or a real segment), one of these pairs
/// realises the hulls' distance, so the bounds meet.
void UpperBoundFromSupports(const WorldChain& A, const WorldChain& B, const Stage1& s1, BestPair& best,
                            int& tested) {
  int va[2], vb[2], ca = 0, cb = 0;
  for (int i = 0; i < s1.simplex.count; ++i) {
    const PointVertex& v = s1.simplex.v[i];
    if (std::find(va, va + ca, v.indexA) == va + ca) va[ca++] = v.indexA;
    if (std::find(vb, vb + cb, v.indexB) == vb + cb) vb[cb++] = v.indexB;
  }
  int sa[4], sb[4];
  const int na = SupportSegments(A, va, ca, sa);
  const int nb = SupportSegments(B, vb, cb, sb);
  for (int i = 0; i < na; ++i) {
    for (int j = 0; j < nb; ++j) TestPair(A, B, sa[i], sb[j], best, tested);
  }
}

// ---------------------------------------------------------------------------------------------
// Containment (closed outlines that do not touch)
// ---------------------------------------------------------------------------------------------

/// Crossing-number test of p against a closed chain (p is not on the outline here).
bool InsidePolygon(const WorldChain& c, DVec p) {
  bool inside = false;
  for (int i = 0; i < c.segmentCount; ++i) {
    const DVec a = c.Start(i), b = c.End(i);
    if ((a.y > p.y) != (b.y > p.y)) {
      const double x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
      inside ^= p.x < x;
    }
  }
  return inside;
}

NonConvexOutput Finish(const BestPair& best, NonConvexOutput out) {
  out.distance = static_cast<float>(std::sqrt(best.distanceSquared));
  out.pointA = ToFloat(best.pointA);
  out.pointB = ToFloat(best.pointB);
  out.segmentA = best.segmentA;
  out.segmentB = best.segmentB;
  out.status = best.distanceSquared == 0.0 ? NonConvexStatus::Intersecting : NonConvexStatus::Separated;
  return out;
}

}  // namespace
}  // namespace detail::nc

namespace {

NonConvexOutput Distance(const NonConvexInput& input, NonConvexWorkspace& workspace, NonConvexDebug* debug) {
  using namespace detail::nc;
  NonConvexOutput out;
  out.error = CheckInput(input);
  NonConvexWorkspace::Buffers& buffers = workspace.buffers();
  if (out.error == NonConvexError::None && (!ToWorld(input.chainA, input.transformA, buffers.pointsA) ||
                                            !ToWorld(input.chainB, input.transformB, buffers.pointsB))) {
    out.error = NonConvexError::NonFinite;
  }
  MK_ASSERT(out.error == NonConvexError::None);
  if (out.error != NonConvexError::None) return out;

  const WorldChain A = MakeChain(buffers.pointsA, input.chainA.closed);
  const WorldChain B = MakeChain(buffers.pointsB, input.chainB.closed);
  const double scale = std::max(MaxAbsCoordinate(A), MaxAbsCoordinate(B)) + 1e-30;
  const HashInput hash{A, B, (TotalLength(A) + TotalLength(B)) / (A.segmentCount + B.segmentCount),
                       1e-12 * scale};
  BestPair best{std::numeric_limits<double>::infinity(), {0, 0}, {0, 0}, -1, -1};

  const Stage1 s1 = RunPointGjk(A, B, scale);
  out.stats.gjkIterations = s1.iterations;
  if (s1.overlap) {
    out.path = NonConvexPath::OverlapGrid;
    OverlapTreeDistance(hash, best, buffers, out.stats, debug);
    out = Finish(best, out);
    if (best.distanceSquared > 0.0 && A.closed && B.closed &&
        (InsidePolygon(A, B.points[0]) || InsidePolygon(B, A.points[0]))) {
      out.status = NonConvexStatus::Contained;
    }
    return out;
  }

  UpperBoundFromSupports(A, B, s1, best, out.stats.pairsTested);
  const double upper = std::sqrt(best.distanceSquared);
  out.lowerBound = static_cast<float>(s1.gap);
  out.upperBound = static_cast<float>(upper);
  out.normal = ToFloat(s1.normal);
  if (debug != nullptr) {
    DVec hullA{0, 0}, hullB{0, 0};
    for (int i = 0; i < s1.simplex.count; ++i) {
      hullA = hullA + s1.simplex.v[i].weight * A.points[s1.simplex.v[i].indexA];
      hullB = hullB + s1.simplex.v[i].weight * B.points[s1.simplex.v[i].indexB];
    }
    debug->hullPointA = ToFloat(hullA);
    debug->hullPointB = ToFloat(hullB);
  }
  // The paper's exact exit: when both terminal simplices are real boundary elements, a pair of support
  // segments realises the hulls' distance and the bounds meet. Tested as the bounds themselves meeting
  // (to 1e-9, GJK's double tolerance being 1e-13), which is what the paper's test implies and is proof
  // of exactness on its own: the hulls' distance is a lower bound and the pair is a real one.
  if (upper <= s1.gap * (1.0 + 1e-9) + hash.slack) {
    out.path = NonConvexPath::GjkExact;
    return Finish(best, out);
  }
  out.path = NonConvexPath::SlabHash;
  const double supportA = Dot(A.points[s1.lastA], s1.normal);
  const double supportB = Dot(B.points[s1.lastB], s1.normal);
  const int startB = std::min(s1.lastB, B.segmentCount - 1);
  SlabHashDistance(hash, s1.normal, supportA, supportB, startB, best, buffers, out.stats, debug);
  return Finish(best, out);
}

}  // namespace

NonConvexOutput NonConvexDistance(const NonConvexInput& input, NonConvexWorkspace& workspace,
                                  NonConvexDebug* debug) {
  const NonConvexOutput out = Distance(input, workspace, debug);
  if (debug != nullptr) {
    const NonConvexWorkspace::Buffers& buffers = workspace.buffers();
    debug->gridCells = buffers.debugGridCells;
    debug->hashedSegments = buffers.debugHashedSegments;
    debug->queriedSegments = buffers.debugQueriedSegments;
  }
  return out;
}

}  // namespace mk
