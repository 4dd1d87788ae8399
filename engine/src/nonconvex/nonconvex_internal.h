// SPDX-License-Identifier: MIT
// Internal: the double-precision geometry and buffers the non-convex distance stages share
// (nonconvex_distance.cpp: validation, stage 1 GJK on vertex sets, driver; nonconvex_hash.cpp: the slab
// hash of stage 2; nonconvex_overlap.cpp: the outline trees for overlapping hulls).
#pragma once

#include "minkowski/nonconvex_distance.h"

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

/// A segment in the slab frame: its id, the t-range of its part inside the slab and its z-range (see
/// SlabHashDistance). Two such boxes bound the distance of their segments from below.
struct SlabBox {
  int segment;
  double tLow;
  double tHigh;
  double zLow;
  double zHigh;
};

/// Axis-aligned box in the world frame.
struct Box {
  DVec lo;
  DVec hi;
};

/// A pair of outline-tree nodes waiting in the overlap descent: each a (level, index) and the squared
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
  std::vector<detail::nc::SlabBox> candidatesA;  ///< stage 2: A segments still inside the slab
  std::vector<int> cellStart;                    ///< stage 2: CSR offsets, one per cell + 1
  std::vector<detail::nc::SlabBox> cellEntries;  ///< stage 2: A's boxes by cell
  std::vector<int> cellFill;                     ///< stage 2: next free entry per cell while filling
  std::vector<int> stamp;                        ///< last B segment tested against each A segment
  std::vector<detail::nc::Box> treeA;            ///< overlap: A's outline tree, level after level
  std::vector<detail::nc::Box> treeB;            ///< overlap: B's outline tree
  std::vector<detail::nc::NodePair> pending;     ///< overlap: the descent's stack
};

namespace detail::nc {

/// What stage 2 and the overlap descent need from the driver.
struct HashInput {
  WorldChain A;
  WorldChain B;
  double averageEdge;  ///< mean segment length over both chains (the paper's lower clamp of the cell)
  double slack;        ///< absolute rounding margin (1e-12 x the coordinate scale) added to every cull
};

/// Stage 2: the slab hash between separated hulls. `normal` is the unit separating direction (A to B),
/// `supportA` = max over A of Dot(x, normal), `supportB` = min over B (gap = supportB - supportA > 0);
/// `best` holds the stage 1 upper bound and is improved in place; B is visited from `startB` outwards.
void SlabHashDistance(const HashInput& in, DVec normal, double supportA, double supportB, int startB,
                      BestPair& best, NonConvexWorkspace::Buffers& buffers, NonConvexStats& stats,
                      NonConvexDebug* debug);

/// Beyond the paper: hulls overlap. Depth-first descent of two outline-order trees (nonconvex_overlap.cpp).
void OverlapTreeDistance(const HashInput& in, BestPair& best, NonConvexWorkspace::Buffers& buffers,
                         NonConvexStats& stats, NonConvexDebug* debug);

}  // namespace detail::nc
}  // namespace mk
