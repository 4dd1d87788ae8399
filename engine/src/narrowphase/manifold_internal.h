// SPDX-License-Identifier: MIT
// Internal: the pieces of manifold generation, shared by manifold.cpp, clip.cpp and collide_cores.cpp
// and reachable from tests. Everything here works in shape A's local frame: B's core is transformed
// into it once, so every dot product below is between plain local vectors.
#pragma once

#include "minkowski/manifold.h"
#include "narrowphase/gjk_internal.h"

namespace mk {

/// Cores closer than this (metres) count as overlapping and take the SAT branch (collide_cores.cpp,
/// chain_segment.cpp). GJK's witness points carry float noise of about 1e-6 m at 10 m from the origin;
/// this keeps the direction between them meaningful while the error of using a face axis instead of
/// the exact direction for a vertex-vertex pair (at most this distance) stays far below the solver's
/// linear slop (0.005 m).
inline constexpr float kCoreOverlapDistance = 1e-4f;

/// A witness direction within about 1.4 mrad of a face normal (1 - cos < 1e-6) is that face's normal.
inline constexpr float kParallelCosine = 1e-6f;

/// SAT keeps A's face (a chain segment's own face) as reference unless one of B's separates by more
/// than this (metres). Exactly parallel faces then always pick the same one, instead of flickering
/// with float noise (which would change the feature ids every step and defeat warm starting). The
/// reported deepest separation can be short of the exact SAT value by at most this much: 1/50 of the
/// linear slop.
inline constexpr float kReferenceTolerance = 1e-4f;

/// A convex core as the manifold code sees it: points, the outward unit normal of every edge
/// (edge i runs points[i] -> points[(i + 1) % count]) and the radius. A 1-point core has no edges,
/// a 2-point core has two (the segment seen from either side).
struct Core {
  const Vec2* points = nullptr;
  const Vec2* normals = nullptr;
  int count = 0;
  float radius = 0.0f;
};

/// A core copied into another frame (B's core in A's frame), or a core whose normals had to be
/// computed (capsules, segments, bare ShapeProxy points).
struct CoreBuffer {
  Vec2 points[kMaxPolygonVertices];
  Vec2 normals[kMaxPolygonVertices];
  Core core;
};

/// Copies `source` into `out`, transformed by `xf` (points and normals). Returns out.core.
const Core& TransformCore(const Core& source, const Transform& xf, CoreBuffer& out);

/// out[i] = Rotate(xf.q, in[i]) (+ xf.p with `translate`) for count >= kLanes / 2 vectors, kLanes / 2
/// per register as interleaved (x, y) pairs: R v = c (x, y) + (-s, s) (y, x), i.e. c times the pair
/// plus (-s, s) times the pair with x and y swapped, then the translation (added as +0 without
/// `translate`). The same products and sums as Rotate and TransformPoint, in the same order, so the
/// same float results. The last group ends at count, redoing a few vectors (the same values).
template <wide::LaneType F = wide::Float4>
inline void TransformVectors(const Vec2* in, Vec2* out, int count, const Transform& xf, bool translate) {
  constexpr int kPerRegister = F::kLanes / 2;
  const F c = F::Splat(xf.q.c);
  const F s = F::SplatPair(-xf.q.s, xf.q.s);
  const F t = translate ? F::SplatPair(xf.p.x, xf.p.y) : F::Zero();
  for (int i = 0; i < count; i += kPerRegister) {
    const int k = i + kPerRegister <= count ? i : count - kPerRegister;
    const F v = F::LoadPairs(in + k);
    StorePairs(out + k, (c * v + s * SwapPairs(v)) + t);
  }
}

/// Core of 1 or 2 points with computed normals (a 2-point core's normals: RightPerp of each side).
/// Points are copied, so `out` is self-contained. count must be 1 or 2.
const Core& MakeSmallCore(const Vec2* points, int count, float radius, CoreBuffer& out);

/// The argmax scan of support vertices and aligned faces (gjk_internal.h).
using detail::ArgMaxDot;

/// A manifold point in A's local frame.
struct LocalPoint {
  Vec2 point{0.0f, 0.0f};  ///< midway between the surfaces
  float separation = 0.0f;
  FeatureId id = 0;
};

/// A manifold in A's local frame.
struct LocalManifold {
  LocalPoint points[2];
  Vec2 normal{0.0f, 0.0f};  ///< unit, A -> B
  int count = 0;
};

/// A reference face placed in the working frame (A's): end points, outward unit normal, the face
/// and end-vertex indices on its own core, and that core's radius.
struct ReferenceFace {
  Vec2 v1{0.0f, 0.0f};
  Vec2 v2{0.0f, 0.0f};
  Vec2 normal{0.0f, 1.0f};
  int i1 = 0;  ///< face index = index of v1
  int i2 = 0;  ///< index of v2
  float radius = 0.0f;
};

/// Face `face` of `core` moved into the working frame by `xf`.
ReferenceFace MakeReferenceFace(const Core& core, int face, const Transform& xf);

/// Clips the incident edge of `incident` (its edge most anti-parallel to the reference normal)
/// against the side planes of `reference` and keeps the points whose separation is <= margin.
/// `incident` is in its own frame, placed in the working frame by `incidentToFrame`: only the two
/// incident vertices are ever transformed. `flip` = the reference face belongs to B: the normal is
/// negated and the feature bytes placed accordingly. A 1-point incident core is not clipped.
LocalManifold ClipToReferenceFace(const ReferenceFace& reference, const Core& incident,
                                  const Transform& incidentToFrame, bool flip, float margin);

/// Result of the core distance query.
struct CoreDistance {
  Vec2 pointA{0.0f, 0.0f};  ///< closest point on A's core
  Vec2 pointB{0.0f, 0.0f};  ///< closest point on B's core
  Vec2 normal{0.0f, 1.0f};  ///< unit direction from A's core to B's (meaningless when overlapping)
  float distance = 0.0f;    ///< >= 0; 0 when the cores overlap
};

/// GJK distance between core `a` (A's frame) and core `bLocal` (B's frame) placed by `bToA`,
/// warm-started by `cache` if not null (and written back). Results in A's frame.
CoreDistance ComputeCoreDistance(const Core& a, const Core& bLocal, const Transform& bToA,
                                 SimplexCache* cache);

/// The general path (see manifold.h): `a` in A's frame, `bLocal` in B's frame, `bToA` = B's frame
/// in A's frame. Result in A's frame.
LocalManifold CollideCores(const Core& a, const Core& bLocal, const Transform& bToA, SimplexCache* cache,
                           const ManifoldSettings& settings);

/// A segment, capsule or polygon core `a` (2 or more points) against a circle of `radiusB` centred at
/// `center` (A's frame), without GJK: the face of largest separation, then its end vertices' regions
/// (the closest feature of a convex core to a point is that face or one of its ends). The same
/// manifold as CollideCores gives (face normal and edge id inside a face's region or for a centre
/// within the core, the vertex direction and vertex id beyond a face's end), to float rounding.
/// Result in A's frame.
LocalManifold CollideCoreAndCircle(const Core& a, Vec2 center, float radiusB, float margin);

/// A chain segment (`chain`, type ChainSegment, A's frame) against core `bLocal` placed by `bToA`:
/// one-sided, with the ghost vertices shaping the normal at the segment's ends (chain_segment.cpp).
/// Result in A's frame; normal from the segment to B.
LocalManifold CollideChainSegmentCore(const ShapeGeometry& chain, const Core& bLocal, const Transform& bToA,
                                      SimplexCache* cache, float margin);

/// World manifold from a local one (A's frame) and the two transforms.
Manifold ToWorld(const LocalManifold& local, const Transform& xfA, const Transform& xfB);

}  // namespace mk
