// SPDX-License-Identifier: MIT
// Non-convex distance when the hulls overlap (beyond the paper, whose hulls must be apart): a depth-first
// descent of two outline-order trees, with the best distance so far as the bound and an exit on the
// first touching or crossing pair. See docs/nonconvex.md.
#include "nonconvex/nonconvex_internal.h"

#include <algorithm>

namespace mk::detail::nc {
namespace {

/// Segments per leaf: a run of consecutive segments of the outline.
constexpr int kLeafSegments = 4;

/// Levels at most: level k holds runs of kLeafSegments 2^k segments, and counts are ints.
constexpr int kMaxLevels = 32;

/// Outline-order tree over one chain: level 0 boxes runs of kLeafSegments consecutive segments, box i of
/// level k + 1 bounds boxes 2i and 2i + 1 of level k. Consecutive segments are neighbours in space, so
/// the outline's order is a spatial sort for free: built bottom-up in O(n), nothing kept between calls
/// (the vertices may all move). Levels are stored one after the other in `boxes`.
struct OutlineTree {
  const WorldChain* chain;
  const Box* boxes;
  int start[kMaxLevels];  ///< first box of each level in `boxes`
  int count[kMaxLevels];  ///< boxes per level
  int top;                ///< the root's level (one box)
  const Box& At(int level, int index) const { return boxes[start[level] + index]; }
  int FirstSegment(int level, int index) const { return (index * kLeafSegments) << level; }
  int EndSegment(int level, int index) const {
    return std::min(((index + 1) * kLeafSegments) << level, chain->segmentCount);
  }
};

Box SegmentBox(const WorldChain& c, int s) {
  const DVec p = c.Start(s), q = c.End(s);
  return {{std::min(p.x, q.x), std::min(p.y, q.y)}, {std::max(p.x, q.x), std::max(p.y, q.y)}};
}

Box Union(const Box& a, const Box& b) {
  return {{std::min(a.lo.x, b.lo.x), std::min(a.lo.y, b.lo.y)},
          {std::max(a.hi.x, b.hi.x), std::max(a.hi.y, b.hi.y)}};
}

/// Squared distance between two boxes: a lower bound for anything inside them.
double BoxDistanceSquared(const Box& a, const Box& b) {
  const double dx = std::max({0.0, b.lo.x - a.hi.x, a.lo.x - b.hi.x});
  const double dy = std::max({0.0, b.lo.y - a.hi.y, a.lo.y - b.hi.y});
  return dx * dx + dy * dy;
}

double HalfPerimeter(const Box& b) { return (b.hi.x - b.lo.x) + (b.hi.y - b.lo.y); }

OutlineTree BuildTree(const WorldChain& c, std::vector<Box>& boxes) {
  OutlineTree t{&c, nullptr, {}, {}, 0};
  const int leaves = (c.segmentCount + kLeafSegments - 1) / kLeafSegments;
  int total = 0;
  for (int level = 0, n = leaves;; n = (n + 1) / 2, ++level) {
    t.start[level] = total;
    t.count[level] = n;
    total += n;
    t.top = level;
    if (n == 1) break;
  }
  boxes.resize(static_cast<std::size_t>(total));
  for (int i = 0; i < leaves; ++i) {
    Box b = SegmentBox(c, i * kLeafSegments);
    for (int s = i * kLeafSegments + 1; s < std::min((i + 1) * kLeafSegments, c.segmentCount); ++s)
      b = Union(b, SegmentBox(c, s));
    boxes[i] = b;
  }
  for (int level = 1; level <= t.top; ++level) {
    const Box* below = boxes.data() + t.start[level - 1];
    Box* here = boxes.data() + t.start[level];
    for (int i = 0; i < t.count[level]; ++i)
      here[i] = 2 * i + 1 < t.count[level - 1] ? Union(below[2 * i], below[2 * i + 1]) : below[2 * i];
  }
  t.boxes = boxes.data();
  return t;
}

/// Both nodes are leaves: every segment pair whose boxes can beat the best; true when it reached 0.
bool TestLeaves(const OutlineTree& ta, const OutlineTree& tb, const NodePair& p, BestPair& best,
                NonConvexStats& stats) {
  const WorldChain& A = *ta.chain;
  const WorldChain& B = *tb.chain;
  for (int a = ta.FirstSegment(0, p.indexA); a < ta.EndSegment(0, p.indexA); ++a) {
    const Box boxA = SegmentBox(A, a);
    for (int b = tb.FirstSegment(0, p.indexB); b < tb.EndSegment(0, p.indexB); ++b) {
      ++stats.pairsFromCells;
      if (BoxDistanceSquared(boxA, SegmentBox(B, b)) >= best.distanceSquared) continue;
      TestPair(A, B, a, b, best, stats.pairsTested);
      if (best.distanceSquared == 0.0) return true;
    }
  }
  return false;
}

/// Whether segment p0-p1 meets box b (slab clipping on both axes).
bool SegmentMeetsBox(DVec p0, DVec p1, const Box& b) {
  double t0 = 0.0, t1 = 1.0;
  const DVec d = p1 - p0;
  const double dir[2] = {d.x, d.y}, from[2] = {p0.x, p0.y}, lo[2] = {b.lo.x, b.lo.y},
               hi[2] = {b.hi.x, b.hi.y};
  for (int axis = 0; axis < 2; ++axis) {
    if (dir[axis] == 0.0) {
      if (from[axis] < lo[axis] || from[axis] > hi[axis]) return false;
      continue;
    }
    double u = (lo[axis] - from[axis]) / dir[axis], v = (hi[axis] - from[axis]) / dir[axis];
    if (u > v) std::swap(u, v);
    t0 = std::max(t0, u);
    t1 = std::min(t1, v);
  }
  return t0 <= t1;
}

/// Probe: B's segment `s` down A's tree through the boxes it passes through (a crossing can only be
/// there), testing the leaves' segments; true when a touching or crossing pair was found. Only a search
/// for a good upper bound: every pair it tests is real, and what it skips the descent still covers.
bool ProbeSegment(const OutlineTree& ta, const WorldChain& B, int s, BestPair& best,
                  std::vector<NodePair>& stack, NonConvexStats& stats) {
  const DVec p0 = B.Start(s), p1 = B.End(s);
  stack.clear();
  stack.push_back({0.0, ta.top, 0, 0, s});
  while (!stack.empty()) {
    const NodePair p = stack.back();
    stack.pop_back();
    if (!SegmentMeetsBox(p0, p1, ta.At(p.levelA, p.indexA))) continue;
    if (p.levelA > 0) {
      for (int k = 0; k < 2; ++k) {
        if (2 * p.indexA + k < ta.count[p.levelA - 1])
          stack.push_back({0.0, p.levelA - 1, 2 * p.indexA + k, 0, s});
      }
      continue;
    }
    for (int a = ta.FirstSegment(0, p.indexA); a < ta.EndSegment(0, p.indexA); ++a) {
      ++stats.pairsFromCells;
      TestPair(*ta.chain, B, a, s, best, stats.pairsTested);
      if (best.distanceSquared == 0.0) return true;
    }
  }
  return false;
}

/// B segments probed before the descent (evenly spread along B's outline).
constexpr int kProbes = 32;

}  // namespace

// Exact: a node pair is dropped only when its boxes are at least as far apart as the best pair found,
// and every segment pair inside lies inside the boxes, so none of them is closer. Distance 0 cannot be
// beaten, so the first touching or crossing pair ends the query (status Intersecting, its common point).
// Depth-first, nearer child pair first: when the outlines cross, the descent follows overlapping boxes
// down to a crossing after O(log n) nodes in the typical case instead of visiting every close pair.
void OverlapTreeDistance(const HashInput& in, BestPair& best, NonConvexWorkspace::Buffers& b,
                         NonConvexStats& stats, NonConvexDebug* debug) {
  if (debug != nullptr) {
    // The tree has no cells to draw: the grid fields stay empty.
    debug->gridCellSize = 0.0f;
    b.debugGridCells.clear();
    b.debugHashedSegments.clear();
    b.debugQueriedSegments.clear();
  }
  const OutlineTree ta = BuildTree(in.A, b.treeA);
  const OutlineTree tb = BuildTree(in.B, b.treeB);
  stats.cells = static_cast<int>(b.treeA.size() + b.treeB.size());
  stats.hashedSegments = in.A.segmentCount;
  std::vector<NodePair>& stack = b.pending;
  // Better upper bound first (and the usual answer when the outlines cross): a few of B's segments that
  // meet A's box, each followed down A's tree through the boxes it passes through. On crossing outlines
  // this finds a crossing in O(log n) boxes per probe, where the descent by box distance alone may scan
  // many overlapping but disjoint leaves first (spiky outlines: every leaf box overlaps near the centre).
  const Box& rootA = ta.At(ta.top, 0);
  const int stride = std::max(1, in.B.segmentCount / kProbes);
  for (int s = 0; s < in.B.segmentCount; s += stride) {
    if (BoxDistanceSquared(SegmentBox(in.B, s), rootA) > 0.0) continue;
    if (ProbeSegment(ta, in.B, s, best, stack, stats)) return;
  }
  stack.clear();
  stack.push_back({BoxDistanceSquared(ta.At(ta.top, 0), tb.At(tb.top, 0)), ta.top, 0, tb.top, 0});
  while (!stack.empty()) {
    const NodePair p = stack.back();
    stack.pop_back();
    if (p.distanceSquared >= best.distanceSquared) continue;
    if (p.levelA == 0 && p.levelB == 0) {
      if (TestLeaves(ta, tb, p, best, stats)) break;
      continue;
    }
    // Open the higher node (the larger box when level with the other), so the two sides stay balanced.
    const Box& boxA = ta.At(p.levelA, p.indexA);
    const Box& boxB = tb.At(p.levelB, p.indexB);
    const bool openA =
        p.levelB == 0 ||
        (p.levelA > 0 &&
         (p.levelA > p.levelB || (p.levelA == p.levelB && HalfPerimeter(boxA) >= HalfPerimeter(boxB))));
    NodePair child[2];
    int children = 0;
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
      c.distanceSquared = BoxDistanceSquared(ta.At(c.levelA, c.indexA), tb.At(c.levelB, c.indexB));
      if (c.distanceSquared < best.distanceSquared) child[children++] = c;
    }
    // The nearer pair goes on top of the stack, so it is opened first.
    if (children == 2 && child[0].distanceSquared < child[1].distanceSquared) std::swap(child[0], child[1]);
    for (int k = 0; k < children; ++k) stack.push_back(child[k]);
  }
}

}  // namespace mk::detail::nc
