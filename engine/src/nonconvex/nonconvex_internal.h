// SPDX-License-Identifier: MIT
// Internal: the double-precision geometry and buffers the non-convex distance stages share
// (nonconvex_distance.cpp: validation, stage 1 GJK on vertex sets, driver; nonconvex_hash.cpp: the slab
// hash of stage 2; nonconvex_overlap.cpp: the outline trees for overlapping hulls).
#pragma once

#include "minkowski/nonconvex_distance.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace mk::detail::nc {

/// World-frame point or vector in double: float inputs transformed once, so orientation tests and
/// distances carry about 29 more bits than the data.
struct DVec {
  double x;
  double y;
};
inline DVec operator+(DVec a, DVec b) { return {a.x + b.x, a.y + b.y}; }
inline DVec operator-(DVec a, DVec b) { return {a.x - b.x, a.y - b.y}; }
inline DVec operator*(double s, DVec a) { return {s * a.x, s * a.y}; }
inline double Dot(DVec a, DVec b) { return a.x * b.x + a.y * b.y; }
inline double Cross(DVec a, DVec b) { return a.x * b.y - a.y * b.x; }
inline Vec2 ToFloat(DVec a) { return {static_cast<float>(a.x), static_cast<float>(a.y)}; }

/// A chain in the world frame: points and how many segments it has.
struct WorldChain {
  const DVec* points;
  int pointCount;
  int segmentCount;  ///< pointCount when closed, pointCount - 1 when open
  bool closed;
  DVec Start(int segment) const { return points[segment]; }
  DVec End(int segment) const { return points[segment + 1 == pointCount ? 0 : segment + 1]; }
};

/// Closest pair between two segments: squared distance and a witness on each (equal when they meet).
struct SegmentPair {
  double distanceSquared;
  DVec pointA;
  DVec pointB;
};

/// Closest pair of segments a0-a1 and b0-b1. Two segments that touch or cross (orientation tests)
/// give 0 exactly; otherwise in 2D the closest pair has an endpoint of one segment, so the best of
/// the four endpoint-to-segment distances is exact (Ericson, Real-Time Collision Detection, 5.1.9).
SegmentPair SegmentDistance(DVec a0, DVec a1, DVec b0, DVec b1);

/// The best pair found so far and its segment ids.
struct BestPair {
  double distanceSquared;
  DVec pointA;
  DVec pointB;
  int segmentA;
  int segmentB;
};

/// Tests segment a of A against segment b of B, keeps the pair when closer; true when it improved.
inline bool TestPair(const WorldChain& A, const WorldChain& B, int a, int b, BestPair& best, int& tested) {
  ++tested;
  SegmentPair p = SegmentDistance(A.Start(a), A.End(a), B.Start(b), B.End(b));
  if (!(p.distanceSquared < best.distanceSquared)) return false;
  best = {p.distanceSquared, p.pointA, p.pointB, a, b};
  return true;
}

/// Axis-aligned box in the world frame.
struct Box {
  DVec lo;
  DVec hi;
};

/// Segments per leaf of an outline tree: a run of consecutive segments of the outline.
constexpr int kLeafSegments = 4;

/// Levels at most: level k holds runs of kLeafSegments 2^k segments, and counts are ints.
constexpr int kMaxLevels = 32;

/// Outline-order tree over one chain: level 0 boxes runs of kLeafSegments consecutive segments, box i of
/// level k + 1 bounds boxes 2i and 2i + 1 of level k. Consecutive segments are neighbours in space, so
/// the outline's order is a spatial sort for free: built bottom-up in O(n) in the same pass that moves
/// the points to the world frame (LoadChain), nothing kept between calls (the vertices may all move).
/// Levels are stored one after the other in `boxes`.
struct OutlineTree {
  WorldChain chain;
  const Box* boxes;
  int start[kMaxLevels];  ///< first box of each level in `boxes`
  int count[kMaxLevels];  ///< boxes per level
  int top;                ///< the root's level (one box)
  const Box& At(int level, int index) const { return boxes[start[level] + index]; }
  const Box& Root() const { return boxes[start[top]]; }
  int FirstSegment(int level, int index) const { return (index * kLeafSegments) << level; }
  int EndSegment(int level, int index) const {
    return std::min(((index + 1) * kLeafSegments) << level, chain.segmentCount);
  }
  int BoxCount() const { return start[top] + 1; }
};

/// Largest world coordinate accepted (metres): distances between points this far out still fit in a
/// float with room to spare.
constexpr double kMaxWorldCoordinate = 1e30;

/// Whether a box of finite world points lies within kMaxWorldCoordinate.
inline bool WithinWorld(const Box& b) {
  return b.lo.x >= -kMaxWorldCoordinate && b.lo.y >= -kMaxWorldCoordinate && b.hi.x <= kMaxWorldCoordinate &&
         b.hi.y <= kMaxWorldCoordinate;
}

/// The one pass over a chain's input: transforms every point to the world frame in double, boxes the
/// leaves and builds the levels above. Returns false when a point is not finite, lands beyond 1e30 m,
/// or lands on the next one (every zero-length segment, and rarely two distinct inputs that round to
/// one world point): the caller then names the error with the exact checks. `c` has at least 2 points
/// (3 when closed) and non-null points.
bool LoadChain(const SegmentChain& c, const Transform& xf, std::vector<DVec>& points, std::vector<Box>& boxes,
               OutlineTree& tree);

/// Index of a point of the chain with the largest Dot(x, d) (the lowest such index, as a linear scan
/// would give), found by descending the tree from the point `hint` and skipping boxes whose best corner
/// cannot beat it.
int TreeSupport(const OutlineTree& tree, DVec d, int hint);

/// Squared distance between two boxes: a lower bound for anything inside them.
inline double BoxDistanceSquared(const Box& a, const Box& b) {
  const double dx = std::max({0.0, b.lo.x - a.hi.x, a.lo.x - b.hi.x});
  const double dy = std::max({0.0, b.lo.y - a.hi.y, a.lo.y - b.hi.y});
  return dx * dx + dy * dy;
}

inline Box SegmentBox(const WorldChain& c, int s) {
  const DVec p = c.Start(s), q = c.End(s);
  return {{std::min(p.x, q.x), std::min(p.y, q.y)}, {std::max(p.x, q.x), std::max(p.y, q.y)}};
}

/// A pair of outline-tree nodes waiting in the descent: each a (level, index) and the squared
/// distance of their boxes.
struct NodePair {
  double distanceSquared;
  int levelA;
  int indexA;
  int levelB;
  int indexB;
};

}  // namespace mk::detail::nc

namespace mk {

/// Scratch memory of one NonConvexWorkspace (grows to the largest query, never shrinks).
struct NonConvexWorkspace::Buffers {
  // NonConvexDebug's lists, which its Spans view (filled only when a query asks for them).
  std::vector<std::int32_t> debugGridCells;
  std::vector<int> debugHashedSegments;
  std::vector<int> debugQueriedSegments;
  std::vector<detail::nc::DVec> pointsA;
  std::vector<detail::nc::DVec> pointsB;
  std::vector<detail::nc::Box> treeA;         ///< overlap: A's outline tree, level after level
  std::vector<detail::nc::Box> treeB;         ///< overlap: B's outline tree
  std::vector<detail::nc::NodePair> pending;  ///< the descent's heap, the probes' stack
};

namespace detail::nc {

/// The separated case's slab (the paper's bounds): every point of A has Dot(x, normal) <= supportA, every
/// point of B >= supportB, supportB - supportA > 0 being the hulls' distance.
struct Slab {
  DVec normal;
  double supportA;
  double supportB;
};

/// Best-first descent over pairs of nodes of the two trees (a min-heap on a lower bound of the pair's
/// distance: its boxes' distance and, with a slab, the gap of the boxes' projections on the normal,
/// clamped by the supports; the node with the larger box opened, its nearer child followed at once), a pair
/// dropped when its bound is at least the best so far plus `slack`; leaf pairs tested segment by segment.
/// Ends at once on a touching pair. `best` holds the upper bound on entry and is improved in place. Debug
/// lists are filled when `debug` is true.
void DescendPairs(const OutlineTree& ta, const OutlineTree& tb, const Slab* slab, double slack,
                  BestPair& best, NonConvexWorkspace::Buffers& buffers, NonConvexStats& stats, bool debug);

/// Beyond the paper: hulls overlap. Probes for a crossing, then DescendPairs (nonconvex_overlap.cpp).
void OverlapTreeDistance(const OutlineTree& ta, const OutlineTree& tb, double slack, BestPair& best,
                         NonConvexWorkspace::Buffers& buffers, NonConvexStats& stats, NonConvexDebug* debug);

}  // namespace detail::nc
}  // namespace mk
