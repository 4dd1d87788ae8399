// SPDX-License-Identifier: MIT
// Minkowski — contact manifolds between pairs of shapes, and the shape-pair dispatch table.
//
// A manifold is what the contact solver consumes for one touching pair: one unit normal from A to B
// and at most two points, each with its separation and a feature id that stays the same while the
// same features touch (so the solver can carry its impulses from one step to the next).
//
// How the general path works (docs/design.md section 5), all in shape A's local frame:
//  1. GJK distance between the *cores* (radii left out), warm-started from the pair's SimplexCache.
//  2. Cores apart: the GJK direction is the normal. If it is (within a hair) a face normal of A or B,
//     that face is the *reference face*; otherwise the closest features are two vertices and the
//     manifold is one point between the GJK witness points.
//     Cores overlapping: the reference face is the face of minimum penetration, found by SAT over
//     the face normals of both cores.
//     With the default method (ManifoldMethod::Auto) step 1 runs only for a persisting contact whose
//     cores were apart last time: a new contact (empty cache) and one whose cores overlapped (a
//     triangle in the cache) find the reference face by SAT directly, which also seeds the cache.
//  3. The *incident edge* is the edge of the other shape most anti-parallel to the reference normal.
//     It is clipped (Sutherland-Hodgman) to the two side planes through the reference face's end
//     points; clipped points deeper than the speculative distance are kept (dyn4j's "contact points
//     using clipping"; the same idea as box2d-lite).
// Circles, capsules and segments are cores of 1 and 2 points: a 2-point core has two faces, the
// segment seen from either side, numbered like a polygon with 2 vertices (face 0 runs p1 -> p2,
// face 1 runs p2 -> p1). So one code path serves all 16 pairs; analytic shortcuts replace it only
// where a test shows them equal and a benchmark shows them faster.
#pragma once

#include "minkowski/distance.h"
#include "minkowski/export.h"
#include "minkowski/geometry.h"

#include <cstdint>

namespace MK_API mk {

/// Contacts are made up to this separation (metres): speculative contacts let the solver stop a
/// body before it touches. 4 x the solver's linear slop (0.005 m), docs/design.md section 5.
inline constexpr float kDefaultSpeculativeDistance = 0.02f;

// ---------------------------------------------------------------------------------------------
// Feature ids
// ---------------------------------------------------------------------------------------------

/// Identifies which features of A and B made a manifold point: 16 bits, the high byte A's feature,
/// the low byte B's. A feature byte is `index | kFeatureEdge` for edge `index` (vertex index ->
/// index + 1) or plain `index` for a vertex; index < 64 = kMaxPolygonVertices. Circles have vertex 0,
/// capsules and segments vertices 0 (p1) and 1 (p2) and edges 0 (p1 -> p2) and 1 (p2 -> p1).
/// Two clipped points are named after the vertex pair at their end of the contact (reference vertex,
/// incident vertex), whether or not a side plane cut the point and whichever shape is the reference:
/// ids stay the same while the same two edges touch, and change when either edge changes. (Naming a
/// cut point after the cutting plane instead makes ids flicker for equal boxes stacked flush, whose
/// vertices sit exactly on each other's side planes.) A circle or a single vertex on a face is (face
/// edge, vertex); a single point between two vertices is (vertex, vertex). Swapping A and B swaps the bytes
/// (FlipFeatureId).
using FeatureId = std::uint16_t;

/// Set in a feature byte when the feature is an edge (clear: a vertex).
inline constexpr std::uint8_t kFeatureEdge = 0x80;

/// Feature byte of vertex `index` (0..63).
constexpr std::uint8_t VertexFeature(int index) { return static_cast<std::uint8_t>(index & 0x3F); }

/// Feature byte of edge `index` (0..63), the edge from vertex index to vertex index + 1.
constexpr std::uint8_t EdgeFeature(int index) {
  return static_cast<std::uint8_t>((index & 0x3F) | kFeatureEdge);
}

/// The id of a point made by feature bytes `featureA` of shape A and `featureB` of shape B.
constexpr FeatureId MakeFeatureId(std::uint8_t featureA, std::uint8_t featureB) {
  return static_cast<FeatureId>((featureA << 8) | featureB);
}

/// A's feature byte of an id.
constexpr std::uint8_t FeatureOfA(FeatureId id) { return static_cast<std::uint8_t>(id >> 8); }

/// B's feature byte of an id.
constexpr std::uint8_t FeatureOfB(FeatureId id) { return static_cast<std::uint8_t>(id & 0xFF); }

/// The same id seen with A and B swapped.
constexpr FeatureId FlipFeatureId(FeatureId id) { return MakeFeatureId(FeatureOfB(id), FeatureOfA(id)); }

// ---------------------------------------------------------------------------------------------
// Manifold
// ---------------------------------------------------------------------------------------------

/// One contact point.
struct ManifoldPoint {
  /// World point midway between the two surfaces (metres). In a World's contacts in the large-world
  /// build (MK_LARGE_WORLDS) it is relative to body A's origin instead (its world point is then
  /// OffsetPos(GetTransform(bodyA).p, anchorA)); anchorA and anchorB mean the same in both builds.
  Vec2 point{0.0f, 0.0f};
  /// `point` relative to the origin of shape A's transform (xfA.p), in world orientation (metres).
  /// The shape transform is the body transform, so this is the lever arm about the body origin; a
  /// solver working about the centre of mass subtracts Rotate(q, localCenter).
  Vec2 anchorA{0.0f, 0.0f};
  /// `point` relative to xfB.p, in world orientation (metres).
  Vec2 anchorB{0.0f, 0.0f};
  /// Signed distance between the surfaces along the normal (metres); < 0 means overlap.
  float separation = 0.0f;
  /// Normal impulse (N s) the solver stores for warm starting; Collide always writes 0.
  float normalImpulse = 0.0f;
  /// Tangent (friction) impulse (N s) the solver stores for warm starting; Collide writes 0.
  float tangentImpulse = 0.0f;
  /// Which features touch (see FeatureId); match ids across steps to carry impulses.
  FeatureId id = 0;
};

/// The contact between two shapes: 0, 1 or 2 points sharing one normal.
struct Manifold {
  ManifoldPoint points[2];  ///< the first pointCount are valid
  /// Unit world normal pointing from A to B; (0, 0) when pointCount is 0.
  Vec2 normal{0.0f, 0.0f};
  /// Number of valid entries in `points` (0 = no contact within the speculative distance).
  int pointCount = 0;
};

/// How pairs whose cores both have 2 or more points (polygons, capsules, segments) find the reference
/// face. A pair with a circle takes no method: against another circle or a segment, capsule or
/// polygon it is analytic (CollideCircles, CollidePolygonAndCircle, ...), and CollideGeneral gives it
/// the GJK path whatever the method.
enum class ManifoldMethod : std::uint8_t {
  Auto,  ///< The default: Gjk when the caller's cache holds a usable simplex (a persisting contact:
         ///< warm GJK is the cheapest exact query), Sat otherwise (a new contact or no cache: SAT's
         ///< scan has no data-dependent branches and beats a cold GJK), after which the cache is
         ///< seeded with the reference face and the incident vertex so the next query is warm.
  Gjk,   ///< GJK distance on the cores (warm-startable); SAT only when the cores overlap. Exact
         ///< separations for separated shapes, rounded corners included.
  Sat    ///< Separating axes over the face normals of both cores, no GJK (Box2D 2.4's approach), except
         ///< for separated vertex-vertex pairs, which SAT alone gets wrong: those go to the GJK path.
         ///< Same answers as Gjk (up to which exact face is reference for near-ties).
};

/// Tunables of manifold generation. Plain data; may change between calls.
struct ManifoldSettings {
  /// Points are produced while separation <= speculativeDistance (metres, >= 0).
  float speculativeDistance = kDefaultSpeculativeDistance;
  /// Reference-face search for pairs with a polygon, capsule or segment (see ManifoldMethod).
  ManifoldMethod method = ManifoldMethod::Auto;
};

// ---------------------------------------------------------------------------------------------
// Any pair of shapes: the pair table
// ---------------------------------------------------------------------------------------------

/// Manifold for any pair of shapes, through one 5x5 table indexed by (a.Type(), b.Type()); pairs that
/// have a typed function only in the other order are computed swapped and flipped back (normal
/// negated, anchors and id bytes swapped). Each typed function below passes its shapes' cores to the
/// same code, so Collide and the typed function agree bit for bit. `cache` (may be nullptr)
/// warm-starts GJK; keep one per pair and always call with the same order of A and B. Bad input (an
/// invalid ShapeGeometry, a core count wrong for its type, a non-finite transform, a negative
/// speculative distance) gives an empty manifold. Typed shapes convert implicitly:
/// Collide(box, xfA, ball, xfB, nullptr).
Manifold Collide(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b, const Transform& xfB,
                 SimplexCache* cache, const ManifoldSettings& settings = {});

/// Signature of an entry of the pair table.
using CollideFunction = Manifold (*)(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                                     const Transform& xfB, SimplexCache* cache,
                                     const ManifoldSettings& settings);

/// The table entry for a pair of types (never null for valid types; nullptr for ShapeType::Count).
/// Entries do not validate their input (Collide does): the world calls them directly on the shapes
/// it validated when they were created.
CollideFunction GetCollideFunction(ShapeType typeA, ShapeType typeB);

// ---------------------------------------------------------------------------------------------
// Typed functions (no input validation: pass finite transforms and shapes made by the Make*s)
// ---------------------------------------------------------------------------------------------

/// Two circles: analytic, at most 1 point, id (vertex 0, vertex 0).
Manifold CollideCircles(const Circle& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                        const ManifoldSettings& settings = {});

/// Any shape pair by the general path described at the top of this file (the reference the
/// shortcuts are tested against). Cores of any size; `cache` may be nullptr.
Manifold CollideGeneral(const ShapeProxy& a, const Transform& xfA, const ShapeProxy& b, const Transform& xfB,
                        SimplexCache* cache, const ManifoldSettings& settings = {});

/// Capsule A and circle B: analytic (the capsule's side or end facing the centre), at most 1 point.
Manifold CollideCapsuleAndCircle(const Capsule& a, const Transform& xfA, const Circle& b,
                                 const Transform& xfB, const ManifoldSettings& settings = {});

/// Segment A and circle B: analytic, as CollideCapsuleAndCircle.
Manifold CollideSegmentAndCircle(const Segment& a, const Transform& xfA, const Circle& b,
                                 const Transform& xfB, const ManifoldSettings& settings = {});

/// Polygon A (sharp or rounded) and circle B: analytic (the face the centre is farthest above, or a
/// vertex at its end), at most 1 point. `cache` is not used (kept for the signature's sake: it may be
/// nullptr, and a cache passed is left as it was).
Manifold CollidePolygonAndCircle(const Polygon& a, const Transform& xfA, const Circle& b,
                                 const Transform& xfB, SimplexCache* cache,
                                 const ManifoldSettings& settings = {});

/// Two capsules (lying on each other gives 2 points).
Manifold CollideCapsules(const Capsule& a, const Transform& xfA, const Capsule& b, const Transform& xfB,
                         SimplexCache* cache, const ManifoldSettings& settings = {});

/// Segment A and capsule B.
Manifold CollideSegmentAndCapsule(const Segment& a, const Transform& xfA, const Capsule& b,
                                  const Transform& xfB, SimplexCache* cache,
                                  const ManifoldSettings& settings = {});

/// Two segments (static geometry rarely needs this; provided so the table is complete).
Manifold CollideSegments(const Segment& a, const Transform& xfA, const Segment& b, const Transform& xfB,
                         SimplexCache* cache, const ManifoldSettings& settings = {});

/// Polygon A and capsule B.
Manifold CollidePolygonAndCapsule(const Polygon& a, const Transform& xfA, const Capsule& b,
                                  const Transform& xfB, SimplexCache* cache,
                                  const ManifoldSettings& settings = {});

/// Segment A and polygon B.
Manifold CollideSegmentAndPolygon(const Segment& a, const Transform& xfA, const Polygon& b,
                                  const Transform& xfB, SimplexCache* cache,
                                  const ManifoldSettings& settings = {});

/// Two polygons, sharp or rounded: GJK or SAT per settings.method, then clipping.
Manifold CollidePolygons(const Polygon& a, const Transform& xfA, const Polygon& b, const Transform& xfB,
                         SimplexCache* cache, const ManifoldSettings& settings = {});

/// Chain segment A (one-sided, with ghost vertices; see ChainSegment in geometry.h) and circle,
/// capsule or polygon (sharp or rounded) B. Nothing when B's core centroid is behind the segment. At
/// the segment's ends the normal stays in the cone its vertex admits: only the face normal at a flat
/// or concave vertex (the contact is clipped to the segment; the neighbour reports the rest), the
/// normals between the two faces' at a convex one. So a body crossing a joint between collinear
/// segments sees one flat surface (docs/design.md, narrowphase). Feature ids: the segment's vertices
/// 0 (p1) and 1 (p2), its face 0. Chain segments against segments or chain segments: no contact.
///@{
Manifold CollideChainSegmentAndCircle(const ChainSegment& a, const Transform& xfA, const Circle& b,
                                      const Transform& xfB, SimplexCache* cache,
                                      const ManifoldSettings& settings = {});
Manifold CollideChainSegmentAndCapsule(const ChainSegment& a, const Transform& xfA, const Capsule& b,
                                       const Transform& xfB, SimplexCache* cache,
                                       const ManifoldSettings& settings = {});
Manifold CollideChainSegmentAndPolygon(const ChainSegment& a, const Transform& xfA, const Polygon& b,
                                       const Transform& xfB, SimplexCache* cache,
                                       const ManifoldSettings& settings = {});
///@}

/// The same manifold seen with A and B swapped: normal negated, anchors and id bytes swapped.
Manifold FlipManifold(const Manifold& manifold);

}  // namespace mk
