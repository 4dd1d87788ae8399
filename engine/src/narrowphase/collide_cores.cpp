// The general manifold path: core distance -> reference face -> clip. See manifold.h for the outline.
#include "narrowphase/manifold_internal.h"

namespace mk {

namespace {

// Cores closer than this (metres) count as overlapping and take the SAT branch. GJK's witness
// points carry float noise of about 1e-6 m at 10 m from the origin; this keeps the direction
// between them meaningful while the error of using a face axis instead of the exact direction for
// a vertex-vertex pair (at most this distance) stays far below the solver's linear slop (0.005 m).
constexpr float kCoreOverlapDistance = 1e-4f;

// A witness point is on the interior of an edge (not at a vertex) when it lies farther than this
// fraction of the edge length from both end points. Calling a point near a vertex "vertex" is
// harmless (it makes a one-point manifold with the exact separation), so the margin is generous
// against GJK's noise; calling a true vertex "edge" would be wrong, and the margin prevents it.
constexpr float kEdgeInteriorFraction = 1e-3f;

// A witness direction within about 1.4 mrad of a face normal (1 - cos < 1e-6) is that face's normal.
constexpr float kParallelCosine = 1e-6f;

// How far (metres) a clipped manifold's deepest separation may exceed the exact GJK separation
// (float rounding of the clip on coordinates of a few metres) before the clip is rejected.
constexpr float kClipAgreement = 1e-5f;

// SAT keeps A's face as reference unless B's separates by more than this (metres). Exactly parallel
// faces then always pick A, instead of flickering with float noise (which would change the feature
// ids every step and defeat warm starting). The reported deepest separation can be short of the
// exact SAT value by at most this much: 1/50 of the linear slop.
constexpr float kReferenceTolerance = 1e-4f;

// The face of `core` whose normal is most aligned with `direction`; -1 for a 1-point core.
int MostAlignedFace(const Core& core, Vec2 direction) {
  return core.count < 2 ? -1 : ArgMaxDot(core.normals, core.count, direction);
}

// True when `p` lies on face `face` of `core` away from both end points (see kEdgeInteriorFraction).
bool OnFaceInterior(const Core& core, int face, Vec2 p) {
  if (face < 0) return false;
  Vec2 v1 = core.points[face];
  Vec2 v2 = core.points[face + 1 == core.count ? 0 : face + 1];
  Vec2 e = v2 - v1;
  float ee = Dot(e, e);
  float t = Dot(p - v1, e);
  float margin = kEdgeInteriorFraction * ee;
  return t > margin && t < ee - margin;
}

// A face can be the reference when the witness point is inside it or the direction is its normal.
bool UsableFace(const Core& core, int face, Vec2 witness, Vec2 direction) {
  if (face < 0) return false;
  return OnFaceInterior(core, face, witness) || Dot(core.normals[face], direction) >= 1.0f - kParallelCosine;
}

// A clip is accepted only if its deepest point reproduces the exact GJK separation: a clip that
// missed the closest features (a vertex-vertex pair taken for a face) would report too much room.
bool ClipMatches(const LocalManifold& m, float exactSeparation, LocalManifold& out) {
  if (m.count == 0) return false;
  float deepest = m.points[0].separation;
  if (m.count == 2 && m.points[1].separation < deepest) deepest = m.points[1].separation;
  if (deepest > exactSeparation + kClipAgreement) return false;
  out = m;
  return true;
}

int SupportIndex(const Core& core, Vec2 direction) { return ArgMaxDot(core.points, core.count, direction); }

// One point between the surfaces along the direction of the core witness points (vertex-vertex, or
// any pair with a 1-point core facing a vertex). Exact separation: distance - radii.
LocalManifold SinglePoint(const Core& a, const Core& b, const CoreDistance& cd, Vec2 normal, float margin) {
  LocalManifold out;
  float separation = cd.distance - a.radius - b.radius;
  if (separation > margin) return out;
  Vec2 surfaceA = cd.pointA + a.radius * normal;
  Vec2 surfaceB = cd.pointB - b.radius * normal;
  out.normal = normal;
  out.count = 1;
  out.points[0].point = 0.5f * (surfaceA + surfaceB);
  out.points[0].separation = separation;
  out.points[0].id = MakeFeatureId(VertexFeature(SupportIndex(a, normal)), VertexFeature(SupportIndex(b, -normal)));
  return out;
}

struct SatResult {
  float separation = -3.4e38f;  // core separation, radii not included
  int face = -1;
  bool onB = false;
};

// Face of maximum separation over the faces of both cores; A's unless B's is clearly larger.
SatResult FindMaxSeparation(const Core& a, const Core& b) {
  SatResult best;
  for (int i = 0; i < (a.count < 2 ? 0 : a.count); ++i) {
    float s = FaceSeparation(a, i, b);
    if (s > best.separation) best = {s, i, false};
  }
  SatResult bestB;
  for (int i = 0; i < (b.count < 2 ? 0 : b.count); ++i) {
    float s = FaceSeparation(b, i, a);
    if (s > bestB.separation) bestB = {s, i, true};
  }
  if (best.face < 0 || bestB.separation > best.separation + kReferenceTolerance) return bestB;
  return best;
}

LocalManifold ClipAgainst(const Core& a, const Core& b, const SatResult& sat, float margin) {
  return sat.onB ? ClipToReferenceFace(b, sat.face, a, true, margin)
                 : ClipToReferenceFace(a, sat.face, b, false, margin);
}

// Two 1-point cores at the same place: no direction is better than another; report +y.
LocalManifold CoincidentPoints(const Core& a, const Core& b, float margin) {
  CoreDistance cd{a.points[0], b.points[0], {0.0f, 1.0f}, 0.0f};
  return SinglePoint(a, b, cd, {0.0f, 1.0f}, margin);
}

}  // namespace

float FaceSeparation(const Core& a, int face, const Core& b) {
  Vec2 n = a.normals[face];
  Vec2 v = a.points[face];
  float best = Dot(b.points[0] - v, n);
  for (int j = 1; j < b.count; ++j) {
    float s = Dot(b.points[j] - v, n);
    if (s < best) best = s;
  }
  return best;
}

namespace {

LocalManifold CollideGjk(const Core& a, const Core& bLocal, const Transform& bToA, SimplexCache* cache,
                         float margin) {
  const bool roundOnly = a.count < 2 && bLocal.count < 2;
  CoreDistance cd = ComputeCoreDistance(a, bLocal, bToA, cache);
  if (cd.distance - a.radius - bLocal.radius > margin) return {};
  // Only now, with a contact likely, is B's core moved into A's frame for the face work.
  CoreBuffer bufferB;
  const Core& b = TransformCore(bLocal, bToA, bufferB);
  if (cd.distance < kCoreOverlapDistance) {
    if (roundOnly) return CoincidentPoints(a, b, margin);
    // Cores overlap: the reference face is the face of least penetration (SAT).
    SatResult sat = FindMaxSeparation(a, b);
    return ClipAgainst(a, b, sat, margin);
  }

  // Cores apart: name the features holding the witness points. A witness inside an edge means the
  // normal is that edge's normal (exact, unlike the witness direction); so does a witness direction
  // parallel to a face even when both witnesses sit at vertices (flush parallel edges, where GJK may
  // pick the end of the closest segment). Otherwise the closest features are two vertices: one point.
  const Vec2 normal = cd.normal;
  const float exactSeparation = cd.distance - a.radius - b.radius;
  LocalManifold clipped;
  int faceA = MostAlignedFace(a, normal);
  if (UsableFace(a, faceA, cd.pointA, normal) &&
      ClipMatches(ClipToReferenceFace(a, faceA, b, false, margin), exactSeparation, clipped)) {
    return clipped;
  }
  int faceB = MostAlignedFace(b, -normal);
  if (UsableFace(b, faceB, cd.pointB, -normal) &&
      ClipMatches(ClipToReferenceFace(b, faceB, a, true, margin), exactSeparation, clipped)) {
    return clipped;
  }
  return SinglePoint(a, b, cd, normal, margin);
}

// Face axes only, no GJK, as long as that is exact: when the cores are apart and the incident
// vertex that realises the SAT separation was clipped away (a vertex-vertex pair: the clip would
// report more room than there is, or none at all), the pair goes to the GJK path instead.
LocalManifold CollideSat(const Core& a, const Core& bLocal, const Transform& bToA, SimplexCache* cache,
                         float margin) {
  CoreBuffer bufferB;
  const Core& b = TransformCore(bLocal, bToA, bufferB);
  SatResult sat = FindMaxSeparation(a, b);
  const float radii = a.radius + b.radius;
  if (sat.separation - radii > margin) return {};
  LocalManifold m = ClipAgainst(a, b, sat, margin);
  if (sat.separation < kCoreOverlapDistance) return m;
  LocalManifold checked;
  if (ClipMatches(m, sat.separation - radii, checked)) return checked;
  return CollideGjk(a, bLocal, bToA, cache, margin);
}

}  // namespace

LocalManifold CollideCores(const Core& a, const Core& bLocal, const Transform& bToA, SimplexCache* cache,
                           const ManifoldSettings& settings) {
  const float margin = settings.speculativeDistance;
  const bool roundOnly = a.count < 2 && bLocal.count < 2;
  if (settings.method == ManifoldMethod::Sat && !roundOnly) return CollideSat(a, bLocal, bToA, cache, margin);
  return CollideGjk(a, bLocal, bToA, cache, margin);
}

}  // namespace mk
