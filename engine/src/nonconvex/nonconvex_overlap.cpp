// SPDX-License-Identifier: MIT
// Non-convex distance when the hulls overlap (beyond the paper, whose hulls must be apart): probes of
// B's segments down A's outline tree for a crossing, then the bounded descent of both trees
// (nonconvex_tree.cpp), ending on the first touching or crossing pair. See docs/nonconvex.md.
#include "nonconvex/nonconvex_internal.h"

#include <algorithm>
#include <cmath>

namespace mk::detail::nc {
namespace {

/// Whether segment p0-p1 meets box b: the separating axis test on the box's axes (the segment's box)
/// and on the segment's normal (the box's centre against its reach along the normal). Division-free,
/// unlike slab clipping: a probe makes a test per box it passes, and a division costs several
/// multiplications. Only the probes use it, whose choices do not affect exactness.
bool SegmentMeetsBox(DVec p0, DVec p1, const Box& b) {
  if (std::max(p0.x, p1.x) < b.lo.x || std::min(p0.x, p1.x) > b.hi.x || std::max(p0.y, p1.y) < b.lo.y ||
      std::min(p0.y, p1.y) > b.hi.y)
    return false;
  const DVec d = p1 - p0;
  const DVec centre = 0.5 * (b.lo + b.hi), half = 0.5 * (b.hi - b.lo);
  return std::fabs(Cross(d, centre - p0)) <= half.x * std::fabs(d.y) + half.y * std::fabs(d.x);
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
      TestPair(ta.chain, B, a, s, best, stats.pairsTested);
      if (best.distanceSquared == 0.0) return true;
    }
  }
  return false;
}

/// B segments probed before the descent (evenly spread along B's outline).
constexpr int kProbes = 32;

}  // namespace

// Probes first (a better upper bound, and the usual answer when the outlines cross), then the bounded
// descent over node pairs by box distance (DescendPairs, nonconvex_tree.cpp), which is what makes it exact.
void OverlapTreeDistance(const OutlineTree& ta, const OutlineTree& tb, double slack, BestPair& best,
                         NonConvexWorkspace::Buffers& b, NonConvexStats& stats, NonConvexDebug* debug) {
  if (debug != nullptr) {
    // The tree has no cells to draw: the grid fields stay empty.
    debug->gridCellSize = 0.0f;
    b.debugGridCells.clear();
    b.debugHashedSegments.clear();
    b.debugQueriedSegments.clear();
  }
  stats.cells = ta.BoxCount() + tb.BoxCount();
  stats.hashedSegments = ta.chain.segmentCount;
  // Better upper bound first (and the usual answer when the outlines cross): a few of B's segments that
  // meet A's box, each followed down A's tree through the boxes it passes through. On crossing outlines
  // this finds a crossing in O(log n) boxes per probe, where the descent by box distance alone may scan
  // many overlapping but disjoint leaves first (spiky outlines: every leaf box overlaps near the centre).
  const WorldChain& B = tb.chain;
  const int stride = std::max(1, B.segmentCount / kProbes);
  for (int s = 0; s < B.segmentCount; s += stride) {
    if (BoxDistanceSquared(SegmentBox(B, s), ta.Root()) > 0.0) continue;
    if (ProbeSegment(ta, B, s, best, b.pending, stats)) return;
  }
  DescendPairs(ta, tb, nullptr, slack, best, b, stats, false);
}

}  // namespace mk::detail::nc
