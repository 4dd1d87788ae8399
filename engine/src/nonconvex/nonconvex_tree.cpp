// SPDX-License-Identifier: MIT
// Non-convex distance: the outline-order trees every stage runs on (built in the pass that moves the
// points to the world frame), support queries on them for stage 1's GJK, and the bounded descent over
// pairs of nodes that answers both the separated case (within the paper's slab) and overlapping hulls.
// See docs/nonconvex.md.
#include "nonconvex/nonconvex_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace mk::detail::nc {
namespace {

void Grow(Box& b, DVec p) {
  b.lo = {std::min(b.lo.x, p.x), std::min(b.lo.y, p.y)};
  b.hi = {std::max(b.hi.x, p.x), std::max(b.hi.y, p.y)};
}

Box Union(const Box& a, const Box& b) {
  return {{std::min(a.lo.x, b.lo.x), std::min(a.lo.y, b.lo.y)},
          {std::max(a.hi.x, b.hi.x), std::max(a.hi.y, b.hi.y)}};
}

/// Lays out the levels of a tree over `segments` segments; returns the number of boxes.
int LayOut(int segments, OutlineTree& t) {
  const int leaves = (segments + kLeafSegments - 1) / kLeafSegments;
  int total = 0;
  for (int level = 0, n = leaves;; n = (n + 1) / 2, ++level) {
    t.start[level] = total;
    t.count[level] = n;
    total += n;
    t.top = level;
    if (n == 1) break;
  }
  return total;
}

/// Largest Dot(x, d) over a box: its corner farthest along d. Rounding is monotone in each coordinate,
/// so this is at least the computed Dot of every point inside (the support search prunes exactly).
double MaxDot(const Box& b, DVec d) {
  return (d.x > 0.0 ? b.hi.x : b.lo.x) * d.x + (d.y > 0.0 ? b.hi.y : b.lo.y) * d.y;
}

/// LoadChain's running state: the transform, and the hints of bad input so far.
struct LoadState {
  double cs, sn, px, py;
  double sum;                  ///< sum of the coordinates: not finite exactly when one is not (see LoadChain)
  bool repeated;               ///< some input point has the magnitudes of the one before it
  std::uint64_t previousBits;  ///< the last input point's bits, signs cleared (MagnitudeBits)
};

/// The bits of a float point with both sign bits cleared: equal for equal points (0 and -0 included),
/// compared as one integer, which runs beside the transform's floating-point work.
inline std::uint64_t MagnitudeBits(Vec2 p) {
  static_assert(sizeof(Vec2) == sizeof(std::uint64_t));
  std::uint64_t bits;
  std::memcpy(&bits, &p, sizeof bits);
  return bits & 0x7fffffff7fffffffull;
}

/// One point to the world frame, with its hints.
inline DVec LoadPoint(Vec2 p, LoadState& st) {
  const DVec w{st.cs * p.x - st.sn * p.y + st.px, st.sn * p.x + st.cs * p.y + st.py};
  st.sum += w.x + w.y;
  const std::uint64_t bits = MagnitudeBits(p);
  st.repeated |= bits == st.previousBits;
  st.previousBits = bits;
  return w;
}

/// Transforms `count` >= 1 points to the world frame, returns their box and updates the hints.
inline Box LoadRun(const Vec2* in, DVec* out, int count, LoadState& st) {
  const DVec first = LoadPoint(in[0], st);
  out[0] = first;
  Box b{first, first};
  for (int k = 1; k < count; ++k) {
    const DVec w = LoadPoint(in[k], st);
    out[k] = w;
    Grow(b, w);
  }
  return b;
}

}  // namespace

bool LoadChain(const SegmentChain& c, const Transform& xf, std::vector<DVec>& points, std::vector<Box>& boxes,
               OutlineTree& tree) {
  const int n = c.count;
  const int segments = c.closed ? n : n - 1;
  points.resize(static_cast<std::size_t>(n));
  boxes.resize(static_cast<std::size_t>(LayOut(segments, tree)));
  DVec* out = points.data();
  Box* leaf = boxes.data();
  const int leaves = tree.count[0];
  // One sweep: leaf i holds points 4i .. 4i + 3 (the last leaf every point left), so each point is
  // transformed, checked and boxed once; the end point of a leaf's last segment, the next leaf's first
  // point, is added to it after the next leaf is transformed.
  // The checks are hints, kept cheap and branch-free (a query of 1,000 segments a side is mostly this
  // pass): the sum of the coordinates is finite exactly when every one is (a float times a float stays
  // below 1.2e77, so no count of finite terms reaches the double's range; one infinity or NaN stays
  // in it), the root box catches finite points beyond kMaxWorldCoordinate, and `repeated` flags
  // consecutive input points with equal coordinate magnitudes, which every zero-length segment has
  // (points that differ only in signs, as the corners of a centred square, are a false alarm). The
  // caller confirms any alarm with the exact checks, and also accepts two distinct inputs that round to
  // one world point, as it always did.
  LoadState st{xf.q.c, xf.q.s, xf.p.x, xf.p.y, 0.0, false, ~0ull};
  // Every leaf but the last has exactly kLeafSegments points: a fixed count the compiler unrolls.
  for (int i = 0; i + 1 < leaves; ++i) {
    const int first = i * kLeafSegments;
    leaf[i] = LoadRun(c.points + first, out + first, kLeafSegments, st);
    if (i > 0) Grow(leaf[i - 1], out[first]);
  }
  const int first = (leaves - 1) * kLeafSegments;
  leaf[leaves - 1] = LoadRun(c.points + first, out + first, n - first, st);
  if (leaves > 1) Grow(leaf[leaves - 2], out[first]);
  if (c.closed) {
    Grow(leaf[leaves - 1], out[0]);  // the closing segment ends at point 0
    st.repeated |= MagnitudeBits(c.points[0]) == st.previousBits;
  }
  for (int level = 1; level <= tree.top; ++level) {
    const Box* below = leaf + tree.start[level - 1];
    Box* here = leaf + tree.start[level];
    for (int i = 0; i < tree.count[level]; ++i)
      here[i] = 2 * i + 1 < tree.count[level - 1] ? Union(below[2 * i], below[2 * i + 1]) : below[2 * i];
  }
  tree.chain = {out, n, segments, c.closed};
  tree.boxes = leaf;
  return std::isfinite(st.sum) && !st.repeated && WithinWorld(tree.Root());
}

int TreeSupport(const OutlineTree& tree, DVec d, int hint) {
  const WorldChain& c = tree.chain;
  int best = hint;
  double bestDot = Dot(c.points[hint], d);
  // Starting from the hint (the previous support: GJK's directions change little), most boxes fail at
  // once. A box is kept while its best corner beats the best so far, or ties it with lower indices, and
  // a point wins on a larger value or an equal one with a lower index: the result is the lowest index
  // among the maxima, as a linear scan gives (stage 1's ties stay where they were). The child with the
  // better corner is visited first.
  int stackLevel[2 * kMaxLevels], stackIndex[2 * kMaxLevels];
  double stackBound[2 * kMaxLevels];
  int size = 0;
  stackLevel[size] = tree.top;
  stackIndex[size] = 0;
  stackBound[size++] = MaxDot(tree.Root(), d);
  auto open = [&](double bound, int level, int index) {
    return bound > bestDot || (bound == bestDot && tree.FirstSegment(level, index) < best);
  };
  while (size > 0) {
    --size;
    const int level = stackLevel[size], index = stackIndex[size];
    if (!open(stackBound[size], level, index)) continue;
    if (level == 0) {
      const int first = index * kLeafSegments;
      const int last = index + 1 == tree.count[0] ? c.pointCount - 1 : first + kLeafSegments - 1;
      for (int k = first; k <= last; ++k) {
        const double value = Dot(c.points[k], d);
        if (value > bestDot || (value == bestDot && k < best)) {
          bestDot = value;
          best = k;
        }
      }
      continue;
    }
    const int left = 2 * index, right = left + 1;
    const double leftBound = MaxDot(tree.At(level - 1, left), d);
    if (right >= tree.count[level - 1]) {
      stackLevel[size] = level - 1;
      stackIndex[size] = left;
      stackBound[size++] = leftBound;
      continue;
    }
    const double rightBound = MaxDot(tree.At(level - 1, right), d);
    // The better child goes on top of the stack.
    const bool leftFirst = leftBound >= rightBound;
    const int order[2] = {leftFirst ? right : left, leftFirst ? left : right};
    for (int k : order) {
      stackLevel[size] = level - 1;
      stackIndex[size] = k;
      stackBound[size++] = k == left ? leftBound : rightBound;
    }
  }
  return best;
}

namespace {

/// Lower bound of the squared distance between anything in node (la, ia) of A and node (lb, ib) of B:
/// the boxes' distance and, between separated hulls, the gap of their projections on the normal (A's
/// box reaches at most min(its far corner, supportA) along it, B's at least max(its near corner,
/// supportB)): the paper's slab, per node.
inline double PairBound(const OutlineTree& ta, int la, int ia, const OutlineTree& tb, int lb, int ib,
                        const Slab* slab) {
  const Box& a = ta.At(la, ia);
  const Box& b = tb.At(lb, ib);
  double d2 = BoxDistanceSquared(a, b);
  if (slab != nullptr) {
    const DVec n = slab->normal;
    const double topA = std::min(MaxDot(a, n), slab->supportA);
    const double bottomB = std::max(-MaxDot(b, {-n.x, -n.y}), slab->supportB);
    const double gap = bottomB - topA;
    if (gap > 0.0) d2 = std::max(d2, gap * gap);
  }
  return d2;
}

double HalfPerimeter(const Box& b) { return (b.hi.x - b.lo.x) + (b.hi.y - b.lo.y); }

/// Squared distance a lower bound must reach to drop a pair: the best so far widened by the rounding
/// slack, so that rounding in the bounds never drops a pair that ties or beats it.
double Cutoff(const BestPair& best, double slack) {
  const double d = std::sqrt(best.distanceSquared) + slack;
  return d * d;
}

/// Both nodes are leaves: every segment pair whose boxes can beat the best; true when it reached 0.
/// `cutoff` (Cutoff of `best`) follows every improvement.
bool TestLeaves(const OutlineTree& ta, const OutlineTree& tb, const NodePair& p, double slack, BestPair& best,
                double& cutoff, NonConvexWorkspace::Buffers& buffers, NonConvexStats& stats, bool debug) {
  const WorldChain& A = ta.chain;
  const WorldChain& B = tb.chain;
  // B's segment boxes once per leaf pair, not once per A segment.
  const int firstB = tb.FirstSegment(0, p.indexB), endB = tb.EndSegment(0, p.indexB);
  Box boxesB[kLeafSegments];
  for (int b = firstB; b < endB; ++b) boxesB[b - firstB] = SegmentBox(B, b);
  for (int a = ta.FirstSegment(0, p.indexA); a < ta.EndSegment(0, p.indexA); ++a) {
    const Box boxA = SegmentBox(A, a);
    for (int b = firstB; b < endB; ++b) {
      ++stats.pairsFromCells;
      if (BoxDistanceSquared(boxA, boxesB[b - firstB]) >= cutoff) continue;
      if (debug) {
        buffers.debugHashedSegments.push_back(a);
        buffers.debugQueriedSegments.push_back(b);
      }
      if (!TestPair(A, B, a, b, best, stats.pairsTested)) continue;
      if (best.distanceSquared == 0.0) return true;
      cutoff = Cutoff(best, slack);
    }
  }
  return false;
}

/// Opens node pair `p` (its larger box: half perimeter) and bounds its two children; returns how many can
/// beat `cutoff` (0, 1 or 2), the nearer in `near` and, when both can, the other in `far`.
int OpenPair(const OutlineTree& ta, const OutlineTree& tb, const NodePair& p, const Slab* slab, double cutoff,
             NodePair& near, NodePair& far) {
  // Open the larger box, not the higher level: when one outline is much smaller than the other (the
  // pocket family: a blob of 0.08 R beside an outline of R), splitting its nodes early multiplies the
  // pairs without tightening any bound until the other side's boxes are as small; by size both sides
  // shrink together whatever their segment counts (the pocket at 64k: 36 -> 20 M instructions a query).
  const bool openA = p.levelB == 0 || (p.levelA > 0 && HalfPerimeter(ta.At(p.levelA, p.indexA)) >=
                                                           HalfPerimeter(tb.At(p.levelB, p.indexB)));
  int kept = 0;
  for (int k = 0; k < 2; ++k) {
    NodePair c = p;
    if (openA) {
      c.levelA = p.levelA - 1;
      c.indexA = 2 * p.indexA + k;
      if (c.indexA >= ta.count[c.levelA]) continue;
    } else {
      c.levelB = p.levelB - 1;
      c.indexB = 2 * p.indexB + k;
      if (c.indexB >= tb.count[c.levelB]) continue;
    }
    c.distanceSquared = PairBound(ta, c.levelA, c.indexA, tb, c.levelB, c.indexB, slab);
    if (c.distanceSquared >= cutoff) continue;
    if (kept == 0) {
      near = c;
    } else if (c.distanceSquared < near.distanceSquared) {
      far = near;
      near = c;
    } else {
      far = c;
    }
    ++kept;
  }
  return kept;
}

}  // namespace

// Exact: a node pair is dropped only when a lower bound of the distance of everything inside it is at
// least the best pair found, so none of its pairs is closer. Distance 0 cannot be beaten, so the first
// touching or crossing pair ends the descent. Best-first (a min-heap on the bound): the pair popped is
// the one that can hold the closest segments, so the search ends as soon as the nearest pending bound
// reaches the best distance, and no pair is opened that a better order could have dropped (on the
// pocket family a depth-first, nearer-first order tested ten times more exact pairs).
void DescendPairs(const OutlineTree& ta, const OutlineTree& tb, const Slab* slab, double slack,
                  BestPair& best, NonConvexWorkspace::Buffers& buffers, NonConvexStats& stats, bool debug) {
  std::vector<NodePair>& heap = buffers.pending;
  heap.clear();
  double cutoff = Cutoff(best, slack);
  heap.push_back({PairBound(ta, ta.top, 0, tb, tb.top, 0, slab), ta.top, 0, tb.top, 0});
  const auto farther = [](const NodePair& u, const NodePair& v) {
    return u.distanceSquared > v.distanceSquared;
  };
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), farther);
    NodePair p = heap.back();
    heap.pop_back();
    if (p.distanceSquared >= cutoff) return;  // every pending pair is at least as far
    // Dive: follow the nearer child at once and queue only the other, so a descent to a leaf pair costs
    // one heap operation per level instead of two, and the first leaves tested (where the best pair
    // usually is) come sooner. Exactness does not depend on the order: a pair is only ever dropped on
    // its bound.
    while (p.levelA > 0 || p.levelB > 0) {
      NodePair near, far;
      const int kept = OpenPair(ta, tb, p, slab, cutoff, near, far);
      if (kept == 0) break;
      if (kept == 2) {
        heap.push_back(far);
        std::push_heap(heap.begin(), heap.end(), farther);
      }
      p = near;
    }
    if (p.levelA == 0 && p.levelB == 0 && TestLeaves(ta, tb, p, slack, best, cutoff, buffers, stats, debug))
      return;
  }
}

}  // namespace mk::detail::nc
