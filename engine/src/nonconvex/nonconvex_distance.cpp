// SPDX-License-Identifier: MIT
// Non-convex distance: input validation, stage 1 (GJK on the vertex sets: bounds, separating
// direction, exact early exit) and the driver that hands over to the tree descents (nonconvex_tree.cpp,
// nonconvex_overlap.cpp).
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

/// Scale of the coordinates (largest magnitude), read off the trees' root boxes.
double Scale(const OutlineTree& a, const OutlineTree& b) {
  double m = 0.0;
  for (const Box* r : {&a.Root(), &b.Root()})
    m = std::max({m, std::fabs(r->lo.x), std::fabs(r->lo.y), std::fabs(r->hi.x), std::fabs(r->hi.y)});
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

/// Supports come from the outline trees (TreeSupport): the same points a linear scan finds, for a few
/// boxes per query instead of every point.
Stage1 RunPointGjk(const OutlineTree& ta, const OutlineTree& tb, double scale) {
  const WorldChain& A = ta.chain;
  const WorldChain& B = tb.chain;
  Stage1 r{};
  // Start from the supports along the line between the root boxes' centres rather than from the first
  // points: between separated outlines that vertex is already near the closest features, which saves a
  // few iterations (two support searches each) on round outlines, where GJK closes in slowly.
  const Box& rootA = ta.Root();
  const Box& rootB = tb.Root();
  const DVec towardB = 0.5 * ((rootB.lo + rootB.hi) - (rootA.lo + rootA.hi));
  r.lastA = TreeSupport(ta, towardB, 0);
  r.lastB = TreeSupport(tb, {-towardB.x, -towardB.y}, 0);
  r.simplex.count = 1;
  r.simplex.v[0] = {A.points[r.lastA] - B.points[r.lastB], r.lastA, r.lastB, 1.0};
  const double tiny = 1e-24 * scale * scale;
  for (r.iterations = 0; r.iterations < kPointGjkMaxIterations; ++r.iterations) {
    r.v = SolveSimplex(r.simplex);
    const double vv = Dot(r.v, r.v);
    if (r.simplex.count == 3 || vv <= tiny) {
      r.overlap = true;
      return r;
    }
    const DVec d{-r.v.x, -r.v.y};
    const int ia = TreeSupport(ta, d, r.lastA);
    const int ib = TreeSupport(tb, r.v, r.lastB);
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

/// Crossing-number test of p against a closed chain (p is not on the outline here): the ray from p
/// towards +x, counted on the segments it crosses. Only leaves whose boxes straddle p.y (a segment
/// entirely above or below the ray cannot cross it) and reach p.x (less `slack`, for the interpolated
/// crossing's rounding) can hold one, so the outline tree skips the rest.
bool InsidePolygon(const OutlineTree& t, DVec p, double slack) {
  const WorldChain& c = t.chain;
  bool inside = false;
  int stackLevel[2 * kMaxLevels], stackIndex[2 * kMaxLevels];
  int size = 0;
  stackLevel[size] = t.top;
  stackIndex[size++] = 0;
  while (size > 0) {
    --size;
    const int level = stackLevel[size], index = stackIndex[size];
    const Box& b = t.At(level, index);
    if (!(b.lo.y <= p.y && p.y < b.hi.y) || b.hi.x + slack < p.x) continue;
    if (level > 0) {
      for (int k = 0; k < 2 && 2 * index + k < t.count[level - 1]; ++k) {
        stackLevel[size] = level - 1;
        stackIndex[size++] = 2 * index + k;
      }
      continue;
    }
    for (int i = t.FirstSegment(0, index); i < t.EndSegment(0, index); ++i) {
      const DVec a = c.Start(i), e = c.End(i);
      if ((a.y > p.y) != (e.y > p.y)) {
        const double x = a.x + (p.y - a.y) / (e.y - a.y) * (e.x - a.x);
        inside ^= p.x < x;
      }
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

/// Checks the cheap parts of the input (transforms, null points, counts), then moves both chains to
/// the world frame and builds their trees in one pass each; only when that pass meets a bad point are
/// the full checks run, to name the error exactly as they always did.
NonConvexError Load(const NonConvexInput& input, NonConvexWorkspace::Buffers& b, detail::nc::OutlineTree& ta,
                    detail::nc::OutlineTree& tb) {
  using namespace detail::nc;
  if (!FiniteTransform(input.transformA) || !FiniteTransform(input.transformB))
    return NonConvexError::NonFinite;
  for (const SegmentChain* c : {&input.chainA, &input.chainB}) {
    if (c->count > 0 && c->points == nullptr) return CheckInput(input);
    if (c->count < (c->closed ? 3 : 2)) return CheckInput(input);
  }
  const bool okA = LoadChain(input.chainA, input.transformA, b.pointsA, b.treeA, ta);
  const bool okB = LoadChain(input.chainB, input.transformB, b.pointsB, b.treeB, tb);
  if (okA && okB) return NonConvexError::None;
  const NonConvexError e = CheckInput(input);
  if (e != NonConvexError::None) return e;
  // The inputs are finite and no segment has zero length: the alarm was a point beyond 1e30 m, or two
  // distinct inputs that round to one world point (accepted, as they always were).
  return WithinWorld(ta.Root()) && WithinWorld(tb.Root()) ? NonConvexError::None : NonConvexError::NonFinite;
}

/// Separated hulls that GJK's bounds did not settle: the descent of both trees within the slab.
void Separated(const detail::nc::OutlineTree& ta, const detail::nc::OutlineTree& tb,
               const detail::nc::Stage1& s1, double slack, detail::nc::BestPair& best,
               NonConvexWorkspace::Buffers& buffers, NonConvexOutput& out, NonConvexDebug* debug) {
  using namespace detail::nc;
  const Slab slab{s1.normal, Dot(ta.chain.points[s1.lastA], s1.normal),
                  Dot(tb.chain.points[s1.lastB], s1.normal)};
  if (debug != nullptr) {
    buffers.debugGridCells.clear();
    buffers.debugHashedSegments.clear();
    buffers.debugQueriedSegments.clear();
  }
  out.stats.cells = ta.BoxCount() + tb.BoxCount();
  DescendPairs(ta, tb, &slab, slack, best, buffers, out.stats, debug != nullptr);
  if (debug == nullptr) return;
  // The slab of the final bound, drawn as one cell over the t-range of the segments tested.
  const double gap = slab.supportB - slab.supportA, upper = std::sqrt(best.distanceSquared);
  const DVec along{-slab.normal.y, slab.normal.x};
  double tLow = Dot(best.pointA, along), tHigh = tLow;
  for (int s : buffers.debugHashedSegments) {
    for (DVec p : {ta.chain.Start(s), ta.chain.End(s)}) {
      tLow = std::min(tLow, Dot(p, along));
      tHigh = std::max(tHigh, Dot(p, along));
    }
  }
  debug->normal = ToFloat(slab.normal);
  debug->planeOffset = static_cast<float>(0.5 * (slab.supportA + slab.supportB));
  debug->slabMinZ = static_cast<float>(0.5 * gap - upper);
  debug->slabMaxZ = static_cast<float>(upper - 0.5 * gap);
  debug->cellOrigin = static_cast<float>(tLow);
  debug->cellSize = static_cast<float>(std::max(tHigh - tLow, 1e-30));
  debug->cellCount = 1;
}

NonConvexOutput Distance(const NonConvexInput& input, NonConvexWorkspace& workspace, NonConvexDebug* debug) {
  using namespace detail::nc;
  NonConvexOutput out;
  NonConvexWorkspace::Buffers& buffers = workspace.buffers();
  OutlineTree ta{}, tb{};
  out.error = Load(input, buffers, ta, tb);
  MK_ASSERT(out.error == NonConvexError::None);
  if (out.error != NonConvexError::None) return out;

  const WorldChain& A = ta.chain;
  const WorldChain& B = tb.chain;
  const double scale = Scale(ta, tb) + 1e-30;
  const double slack = 1e-12 * scale;
  BestPair best{std::numeric_limits<double>::infinity(), {0, 0}, {0, 0}, -1, -1};

  const Stage1 s1 = RunPointGjk(ta, tb, scale);
  out.stats.gjkIterations = s1.iterations;
  if (s1.overlap) {
    out.path = NonConvexPath::OverlapGrid;
    OverlapTreeDistance(ta, tb, slack, best, buffers, out.stats, debug);
    out = Finish(best, out);
    if (best.distanceSquared > 0.0 && A.closed && B.closed &&
        (InsidePolygon(ta, B.points[0], slack) || InsidePolygon(tb, A.points[0], slack))) {
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
  if (upper <= s1.gap * (1.0 + 1e-9) + slack) {
    out.path = NonConvexPath::GjkExact;
    return Finish(best, out);
  }
  out.path = NonConvexPath::SlabHash;
  Separated(ta, tb, s1, slack, best, buffers, out, debug);
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
