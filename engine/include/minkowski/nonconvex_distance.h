// SPDX-License-Identifier: MIT
// Minkowski — exact distance between non-convex outlines (closed simple polygons, concave allowed, or
// open polylines), each a chain of boundary segments under its own transform.
//
// The method is the two-stage scheme of the paper whose abstract begins "We present a novel approach
// for the computation of the minimum distance between arbitrarily shaped, triangulated objects" (GJK
// bounds + spatial hashing, from M. Teschner's group at Freiburg; its follow-up, M. Gissler and
// M. Teschner, "Adaptive surface decomposition for the distance computation of arbitrarily shaped
// objects", VMV 2008, builds on the same bounds; docs/nonconvex.md says what the 2D port keeps and
// changes), here on segments instead of triangles:
//   1. GJK on the two vertex sets gives the distance of the convex hulls, a rigorous lower bound, and a
//      separating direction; the support points lie on the real boundaries, so the segments next to them
//      give an upper bound. When GJK's terminal simplices are real boundary elements (a vertex, or a hull
//      edge that is a segment of the chain) the bounds meet and the answer is exact at once.
//   2. Otherwise the slab between the two hulls bounds the search: both outlines get a binary tree over
//      runs of consecutive segments (the outline's order is a free spatial sort, so the boxes are built
//      bottom-up in O(n) in the same pass that moves the points to the world frame), and a best-first
//      descent over pairs of nodes drops a pair when its boxes, or their projections on the separating
//      direction clamped by the hulls' supports, are at least the best distance so far apart. (The
//      paper hashes the slab instead; issue 33 measured that slower than the trees on every family.)
//   3. Beyond the paper (its hulls must be apart): when the hulls overlap, a few of B's segments are
//      probed down A's tree for a crossing (distance 0 ends the query), then the same descent without
//      the slab; exact (distance 0 with a witness when segments cross). The path keeps its name
//      OverlapGrid. See docs/nonconvex.md.
//
// Nothing is precomputed: vertices may change every call. Coordinates are transformed to the world
// frame in double precision and all geometry runs in double; outputs are rounded to float. A caller-
// owned NonConvexWorkspace holds every buffer, so repeated queries of similar size do not allocate.
#pragma once

#include "minkowski/export.h"
#include "minkowski/math.h"
#include "minkowski/owned_ptr.h"
#include "minkowski/span.h"

#include <cstdint>

namespace MK_API mk {

/// A chain of boundary segments in its local frame (metres). Segment i joins points[i] and
/// points[i + 1]; a closed chain also has segment count - 1 joining the last point to the first. The
/// points are read during the call only (the caller owns them). Simplicity of a closed chain is not
/// checked: a self-crossing outline gives the distance between the segment sets all the same.
struct SegmentChain {
  const Vec2* points = nullptr;  ///< `count` points, read during the call only
  int count = 0;                 ///< number of points: >= 3 when closed, >= 2 when open
  bool closed = true;            ///< true: closed polygon outline; false: open polyline
};

/// Two chains placed in the world.
struct NonConvexInput {
  SegmentChain chainA;   ///< A's outline in its local frame
  SegmentChain chainB;   ///< B's outline in its local frame
  Transform transformA;  ///< places A in the world
  Transform transformB;  ///< places B in the world
};

/// How a query ended.
enum class NonConvexStatus : std::uint8_t {
  Separated,     ///< the outlines are apart: distance > 0
  Intersecting,  ///< two segments touch or cross: distance 0, pointA = pointB is a common point
  Contained,     ///< both closed, outlines apart, one polygon inside the other: distance is the gap
                 ///< between the outlines (> 0), the solids overlap
  InvalidInput   ///< see NonConvexError; every output is neutral (zero, ids -1)
};

/// Why an input was rejected (MK_ASSERT fires as well).
enum class NonConvexError : std::uint8_t {
  None,
  NullPoints,         ///< points == nullptr with count > 0
  TooFewPoints,       ///< count < 3 for a closed chain, < 2 for an open one (empty sets included)
  NonFinite,          ///< a NaN or infinite coordinate or transform, or a world-frame point beyond 1e30 m
  ZeroLengthSegment,  ///< two consecutive points (the closing pair of a closed chain too) are equal
};

/// Which stage produced the answer.
enum class NonConvexPath : std::uint8_t {
  None,         ///< invalid input
  GjkExact,     ///< stage 1: GJK's terminal simplices lie on the real boundaries (bounds met)
  SlabHash,     ///< stage 2: separated hulls, the slab searched by outline trees (the name is historical)
  OverlapGrid,  ///< beyond the paper: the hulls overlap, outline-order trees (the name is historical)
};

/// Work counters of one query.
struct NonConvexStats {
  int gjkIterations = 0;    ///< GJK support queries on the vertex sets
  int pairsTested = 0;      ///< exact segment-segment distances computed (all stages)
  int pairsFromCells = 0;   ///< (A, B) segment pairs the trees' leaves (and probes) proposed, before the
                            ///< bounding-box cull
  int cells = 0;            ///< boxes of both outline trees (stages 2 and overlap; 0 after stage 1)
  int rehashes = 0;         ///< always 0 since the slab hash gave way to the trees (issue 33)
  int hashedSegments = 0;   ///< overlap: A's segment count; otherwise 0 (the slab hash's count, before)
  int queriedSegments = 0;  ///< always 0 since the slab hash gave way to the trees (issue 33)
};

/// Result of NonConvexDistance. World frame, metres.
struct NonConvexOutput {
  Vec2 pointA{0.0f, 0.0f};  ///< closest point on A's outline (on segment `segmentA`)
  Vec2 pointB{0.0f, 0.0f};  ///< closest point on B's outline (on segment `segmentB`)
  int segmentA = -1;        ///< index of A's segment holding pointA (-1 for invalid input)
  int segmentB = -1;        ///< index of B's segment holding pointB
  float distance = 0.0f;    ///< exact distance between the outlines (0 when they touch or cross)
  /// Stage 1 bounds: the hulls' distance (0 when the hulls overlap) and GJK's upper bound from the
  /// segments at the support points (equal to `distance` when path is GjkExact; 0 when hulls overlap).
  ///@{
  float lowerBound = 0.0f;
  float upperBound = 0.0f;
  ///@}
  Vec2 normal{0.0f, 0.0f};  ///< unit separating direction of the hulls, A to B; (0, 0) if they overlap
  NonConvexStatus status = NonConvexStatus::InvalidInput;  ///< how the query ended
  NonConvexError error = NonConvexError::None;             ///< why the input was refused, if it was
  NonConvexPath path = NonConvexPath::None;                ///< which stage gave the answer
  NonConvexStats stats;                                    ///< work counters of this query
};

/// What the sandbox draws (optional; filled only when a pointer is passed, which allocates).
struct NonConvexDebug {
  Vec2 hullPointA{0.0f, 0.0f};  ///< GJK's closest point on A's hull
  Vec2 hullPointB{0.0f, 0.0f};  ///< GJK's closest point on B's hull
  /// Stage 2's slab for the final distance: a point x has slab coordinate z = Dot(x, normal) -
  /// planeOffset (0 on the mid plane), row coordinate t = Dot(x, LeftPerp(normal)); only A's points
  /// with z >= slabMinZ and B's with z <= slabMaxZ could be closer. One cell (cellCount 1) covers t in
  /// [cellOrigin, cellOrigin + cellSize): the span of A's segments that got an exact test.
  ///@{
  Vec2 normal{0.0f, 0.0f};
  float planeOffset = 0.0f;
  float slabMinZ = 0.0f;
  float slabMaxZ = 0.0f;
  float cellOrigin = 0.0f;
  float cellSize = 0.0f;
  int cellCount = 0;
  ///@}
  /// Unused since the overlap path became outline-order trees (path OverlapGrid keeps its name): zero,
  /// and gridCells below is empty. Kept so the struct's layout and a game's code stay as they were.
  ///@{
  Vec2 gridOrigin{0.0f, 0.0f};
  float gridCellSize = 0.0f;
  ///@}
  /// Stage 2's lists, viewing the workspace's storage: valid until the next NonConvexDistance with
  /// the same workspace, or its destruction. @{
  Span<const std::int32_t> gridCells;  ///< empty (the overlap grid's cells, before the trees)
  Span<const int> hashedSegments;      ///< A's side of every segment pair given an exact test (stage 2)
  Span<const int> queriedSegments;     ///< B's side of the same pairs, in the same order
  ///@}
};

/// Caller-owned scratch memory for NonConvexDistance (world-frame points, the outline trees, a stack). Reuse
/// one per thread: after a query of a given size, queries of that size or smaller do not allocate. Not
/// thread-safe; move-only.
class NonConvexWorkspace {
 public:
  NonConvexWorkspace();
  ~NonConvexWorkspace();
  /// Moving transfers the buffers; the moved-from workspace may only be destroyed or assigned to.
  ///@{
  NonConvexWorkspace(NonConvexWorkspace&&) noexcept;
  NonConvexWorkspace& operator=(NonConvexWorkspace&&) noexcept;
  ///@}
  NonConvexWorkspace(const NonConvexWorkspace&) = delete;
  NonConvexWorkspace& operator=(const NonConvexWorkspace&) = delete;

  struct Buffers;  ///< internal (engine/src/nonconvex)
  Buffers& buffers() { return *buffers_; }

 private:
  OwnedPtr<Buffers> buffers_;
};

/// Exact distance between two segment chains (see the file comment). Invalid input (NonConvexError)
/// fails an MK_ASSERT and returns status InvalidInput with neutral outputs. `debug` may be nullptr.
/// Cost: one O(nA + nB) pass (world frame, checks, trees), then GJK on the trees and the descent over
/// node pairs the bounds do not drop.
NonConvexOutput NonConvexDistance(const NonConvexInput& input, NonConvexWorkspace& workspace,
                                  NonConvexDebug* debug = nullptr);

}  // namespace mk
