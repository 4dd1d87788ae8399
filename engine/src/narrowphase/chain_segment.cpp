// SPDX-License-Identifier: MIT
// Chain segments against convex shapes: one-sided, with ghost vertices (the idea of Box2D's chain
// shape: each segment knows its neighbours' far points, so at a shared vertex it only reports the
// normals that vertex admits, and a body crossing from one segment to the next feels one surface).
//
// Everything is in the chain segment's frame (A), with B's core placed by bToA, like collide_cores.cpp.
//  - One-sided: B's core centroid behind the segment's line (the side opposite its normal) -> nothing.
//  - Cores apart: GJK names the closest features. A witness inside the segment, or a direction along
//    the segment's normal, is a face contact: B's incident edge clipped to the segment. A witness at an
//    end vertex is classified by the vertex's cone of normals (ClassifyAtVertex): a flat or concave
//    vertex admits only the face normal (the face contact, clipped, so the neighbour reports what lies
//    beyond the vertex); a convex vertex admits the normals between its two faces' normals (one point
//    at the vertex) and leaves those beyond the neighbour's normal to the neighbour.
//  - Cores overlapping: separating axes, restricted to the segment's normal and those of B's face
//    normals whose reverse the nearer vertex admits; the largest separation picks the reference face.
//  - A face contact's point at a flat vertex is dropped when B's near surface runs on past the vertex
//    (DropFlatVertexPoints): collinear segments then act as one surface, as a single segment would.
#include "narrowphase/manifold_internal.h"

#include <cmath>

namespace mk {

namespace {

// A vertex whose turn has a sine below this counts as flat (it admits only the face normals), so that
// collinear points with float noise never open a cone; 1e-4 rad is far below any visible corner.
constexpr float kFlatSine = 1e-4f;
// A normal up to this sine beyond the neighbour's face normal is still admitted at a convex vertex:
// the neighbour reports the same contact there as a face contact, and a duplicate is harmless where
// a gap would let the body in.
constexpr float kConeSine = 0.01f;

// What the segment knows about itself and its neighbours, in its own frame.
struct SmoothSegment {
  Vec2 p1, p2;
  Vec2 normal;   // the front normal, RightPerp(p2 - p1) / |p2 - p1|
  Vec2 normal0;  // the previous segment's normal (ghost1 -> p1)
  Vec2 normal2;  // the next segment's normal (p2 -> ghost2)
  bool convex1 = false, convex2 = false;
  bool flat1 = false, flat2 = false;  // the chain runs straight on at p1 / p2 (a turn below kFlatSine)
};

SmoothSegment MakeSmoothSegment(const ShapeGeometry& chain) {
  const Vec2* p = chain.Points();
  const Vec2* ghost = chain.Ghosts();
  SmoothSegment s;
  s.p1 = p[0];
  s.p2 = p[1];
  s.normal = chain.Normals()[0];
  const Vec2 e0 = Normalize(p[0] - ghost[0]);
  const Vec2 e1 = Normalize(p[1] - p[0]);
  const Vec2 e2 = Normalize(ghost[1] - p[1]);
  s.normal0 = RightPerp(e0);
  s.normal2 = RightPerp(e2);
  // Convex (seen from the front) = the chain turns left at the vertex, like a counter-clockwise polygon.
  const float turn1 = Cross(e0, e1), turn2 = Cross(e1, e2);
  s.convex1 = turn1 > kFlatSine;
  s.convex2 = turn2 > kFlatSine;
  s.flat1 = std::fabs(turn1) <= kFlatSine && Dot(e0, e1) > 0.0f;
  s.flat2 = std::fabs(turn2) <= kFlatSine && Dot(e1, e2) > 0.0f;
  return s;
}

enum class NormalType { Face, Admit, Skip };

// What the segment does with a contact normal `n` (A -> B) whose closest point is its vertex p1
// (`atP1`) or p2: the face normal always counts as the face; a convex vertex admits the normals
// between its faces' normals and skips those beyond the neighbour's; a flat or concave vertex snaps
// to the face (the contact is then clipped to the segment).
NormalType ClassifyAtVertex(const SmoothSegment& s, Vec2 n, bool atP1) {
  if (Dot(n, s.normal) >= 1.0f - kParallelCosine) return NormalType::Face;
  if (atP1) {
    if (!s.convex1) return NormalType::Face;
    // The cone runs clockwise from the face normal to normal0; beyond normal0 is the neighbour's.
    const bool towardsP1 = Dot(n, s.p2 - s.p1) <= 0.0f;
    return towardsP1 && Cross(s.normal0, n) >= -kConeSine ? NormalType::Admit : NormalType::Skip;
  }
  if (!s.convex2) return NormalType::Face;
  const bool towardsP2 = Dot(n, s.p2 - s.p1) >= 0.0f;
  return towardsP2 && Cross(s.normal2, n) <= kConeSine ? NormalType::Admit : NormalType::Skip;
}

// The segment as a 2-point core (face 0 = the front, p1 -> p2).
Core SegmentCore(const ShapeGeometry& chain) { return {chain.Points(), chain.Normals(), 2, 0.0f}; }

// Face contact: B's incident edge (or its one point) clipped to the segment's extent, normal = the
// segment's normal. A single point beyond the ends is dropped: the neighbour (or nothing, at an open
// end) answers there. A point exactly above p2 belongs to the next segment (which takes it at its p1)
// unless p2 is convex, so that a circle resting on a flat joint gets one contact, not two.
LocalManifold FaceContact(const ShapeGeometry& chain, const SmoothSegment& s, const Core& bLocal,
                          const Transform& bToA, float margin) {
  const ReferenceFace face = MakeReferenceFace(SegmentCore(chain), 0, Transform{});
  if (bLocal.count < 2) {
    const Vec2 c = TransformPoint(bToA, bLocal.points[0]);
    const Vec2 e = face.v2 - face.v1;
    const float t = Dot(c - face.v1, e), end = Dot(e, e);
    if (t < 0.0f || t > end || (t == end && !s.convex2)) return {};
  }
  return ClipToReferenceFace(face, bLocal, bToA, false, margin);
}

// One point at the segment's vertex along the GJK direction (an admitted normal at a convex vertex).
LocalManifold VertexContact(const Core& bLocal, const Transform& bToA, const CoreDistance& cd, bool atP1,
                            float margin) {
  LocalManifold out;
  const float separation = cd.distance - bLocal.radius;
  if (separation > margin) return out;
  const Vec2 surfaceB = cd.pointB - bLocal.radius * cd.normal;
  out.normal = cd.normal;
  out.count = 1;
  out.points[0].point = 0.5f * (cd.pointA + surfaceB);
  out.points[0].separation = separation;
  const int vertexB = ArgMaxDot(bLocal.points, bLocal.count, InvRotate(bToA.q, -cd.normal));
  out.points[0].id = MakeFeatureId(VertexFeature(atP1 ? 0 : 1), VertexFeature(vertexB));
  return out;
}

// Cores overlapping: SAT over the segment's normal and the admitted reverses of B's face normals.
LocalManifold CollideOverlapping(const ShapeGeometry& chain, const SmoothSegment& s, const Core& bLocal,
                                 const Transform& bToA, float margin) {
  CoreBuffer bufferB;
  const Core& b = TransformCore(bLocal, bToA, bufferB);
  float best = 3.4e38f;
  for (int j = 0; j < b.count; ++j) best = std::fmin(best, Dot(b.points[j] - s.p1, s.normal));
  int bestFace = -1;
  const int faces = b.count >= 2 ? b.count : 0;
  for (int i = 0; i < faces; ++i) {
    const Vec2 nb = b.normals[i];
    const float d1 = Dot(s.p1 - b.points[i], nb), d2 = Dot(s.p2 - b.points[i], nb);
    const float separation = std::fmin(d1, d2);
    if (separation <= best + kReferenceTolerance) continue;
    if (ClassifyAtVertex(s, -nb, d1 <= d2) != NormalType::Admit) continue;
    best = separation;
    bestFace = i;
  }
  if (best - b.radius > margin) return {};
  if (bestFace < 0) return FaceContact(chain, s, bLocal, bToA, margin);
  return ClipToReferenceFace(MakeReferenceFace(bLocal, bestFace, bToA), SegmentCore(chain), Transform{}, true,
                             margin);
}

// Centroid of B's core points, in A's frame (the one-sided test: Box2D tests the polygon's centroid).
Vec2 CoreCentroid(const Core& bLocal, const Transform& bToA) {
  Vec2 sum{0.0f, 0.0f};
  for (int i = 0; i < bLocal.count; ++i) sum += bLocal.points[i];
  return TransformPoint(bToA, (1.0f / static_cast<float>(bLocal.count)) * sum);
}

// A face contact clips B's face to the segment, so a face lying across a flat vertex gives a point at
// the vertex in each of the two segments, on top of the face's own ends in the segments they lie over.
// The points between a face's ends add nothing to how it is held, but the solver shares the load
// among all of them, one after the other, and the order decides how the load moves as the points
// come and go: a 1 m box sliding along a chain of 0.25 m segments rocked at 0.54 mm/s (median over
// 184 slides, worst 1.10) towards +x and 0.26 (0.31) towards -x, where a single segment holds it at
// 0.12; Box2D v3, which keeps the points, 0.25 (0.45) and 2.00 (3.37) (docs/benchmarks.md, "The
// swept body's margin and huge pages"). So a point at a flat vertex is dropped when B's near surface
// (its core points within the margin of the segment's line) reaches more than kRunOn past the vertex:
// the neighbour then holds a point of B at least that far inside it, which it keeps. Nearer than
// that, both segments keep their vertex points, so a face ending at the vertex is never left
// without its end.
constexpr float kRunOn = 1e-3f;  // m
// A clipped point at the vertex lies on it up to rounding; a point of B's own this near it counts too
// (dropping it moves the contact by less than this).
constexpr float kAtVertex = 1e-5f;  // m

void DropFlatVertexPoints(const SmoothSegment& s, const Core& bLocal, const Transform& bToA, float margin,
                          LocalManifold& m) {
  if (m.count != 2 || Dot(m.normal, s.normal) < 1.0f - kParallelCosine) return;
  if (!s.flat1 && !s.flat2) return;
  const Vec2 e = s.p2 - s.p1;
  const float length = Length(e);
  const Vec2 along = (1.0f / length) * e;
  // How far B's near surface reaches past p1 (before it, along the segment) and past p2.
  float pastP1 = 0.0f, pastP2 = 0.0f;
  for (int i = 0; i < bLocal.count; ++i) {
    const Vec2 p = TransformPoint(bToA, bLocal.points[i]);
    if (Dot(p - s.p1, s.normal) - bLocal.radius > margin) continue;
    const float x = Dot(p - s.p1, along);
    pastP1 = std::fmax(pastP1, -x);
    pastP2 = std::fmax(pastP2, x - length);
  }
  const bool drop1 = s.flat1 && pastP1 > kRunOn, drop2 = s.flat2 && pastP2 > kRunOn;
  int kept = 0;
  for (int j = 0; j < m.count; ++j) {
    const float x = Dot(m.points[j].point - s.p1, along);
    if ((drop1 && x <= kAtVertex) || (drop2 && x >= length - kAtVertex)) continue;
    m.points[kept++] = m.points[j];
  }
  m.count = kept;
}

}  // namespace

LocalManifold CollideChainSegmentCore(const ShapeGeometry& chain, const Core& bLocal, const Transform& bToA,
                                      SimplexCache* cache, float margin) {
  const SmoothSegment s = MakeSmoothSegment(chain);
  if (Dot(CoreCentroid(bLocal, bToA) - s.p1, s.normal) < 0.0f) return {};  // behind: one-sided
  const CoreDistance cd = ComputeCoreDistance(SegmentCore(chain), bLocal, bToA, cache);
  if (cd.distance - bLocal.radius > margin) return {};
  if (cd.distance < kCoreOverlapDistance) {
    LocalManifold m = CollideOverlapping(chain, s, bLocal, bToA, margin);
    DropFlatVertexPoints(s, bLocal, bToA, margin, m);
    return m;
  }
  // The witness on the segment: inside it, the contact is the face's; at an end, the vertex decides.
  const Vec2 e = s.p2 - s.p1;
  const float t = Dot(cd.pointA - s.p1, e) / Dot(e, e);
  constexpr float kInterior = 1e-3f;  // as kEdgeInteriorFraction in collide_cores.cpp
  const auto face = [&] {
    LocalManifold m = FaceContact(chain, s, bLocal, bToA, margin);
    DropFlatVertexPoints(s, bLocal, bToA, margin, m);
    return m;
  };
  if (t > kInterior && t < 1.0f - kInterior) return face();
  const bool atP1 = t <= 0.5f;
  switch (ClassifyAtVertex(s, cd.normal, atP1)) {
    case NormalType::Face:
      return face();
    case NormalType::Admit:
      return VertexContact(bLocal, bToA, cd, atP1, margin);
    default:
      return {};
  }
}

}  // namespace mk
