// SPDX-License-Identifier: MIT
// The general manifold path: core distance -> reference face -> clip. See manifold.h for the outline.
#include "narrowphase/face_scan.h"
#include "narrowphase/gjk_internal.h"
#include "narrowphase/manifold_internal.h"

namespace mk {

namespace {

// A witness point is on the interior of an edge (not at a vertex) when it lies farther than this
// fraction of the edge length from both end points. Calling a point near a vertex "vertex" is
// harmless (it makes a one-point manifold with the exact separation), so the margin is generous
// against GJK's noise; calling a true vertex "edge" would be wrong, and the margin prevents it.
constexpr float kEdgeInteriorFraction = 1e-3f;

// How far (metres) a clipped manifold's deepest separation may exceed the exact GJK separation
// (float rounding of the clip on coordinates of a few metres) before the clip is rejected.
constexpr float kClipAgreement = 1e-5f;

// True when `p` lies on the face away from both end points (see kEdgeInteriorFraction).
bool OnFaceInterior(const ReferenceFace& face, Vec2 p) {
  Vec2 e = face.v2 - face.v1;
  float ee = Dot(e, e);
  float t = Dot(p - face.v1, e);
  float margin = kEdgeInteriorFraction * ee;
  return t > margin && t < ee - margin;
}

// A face can be the reference when the witness point is inside it or the direction is its normal.
bool UsableFace(const ReferenceFace& face, Vec2 witness, Vec2 direction) {
  return OnFaceInterior(face, witness) || Dot(face.normal, direction) >= 1.0f - kParallelCosine;
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

// One point between the surfaces along the direction of the core witness points (vertex-vertex, or
// any pair with a 1-point core facing a vertex). Exact separation: distance - radii. `bToA` places
// B's core (its frame) in A's; the witnesses and the normal are in A's frame.
LocalManifold SinglePoint(const Core& a, const Core& b, const Transform& bToA, const CoreDistance& cd,
                          Vec2 normal, float margin) {
  LocalManifold out;
  float separation = cd.distance - a.radius - b.radius;
  if (separation > margin) return out;
  Vec2 surfaceA = cd.pointA + a.radius * normal;
  Vec2 surfaceB = cd.pointB - b.radius * normal;
  out.normal = normal;
  out.count = 1;
  out.points[0].point = 0.5f * (surfaceA + surfaceB);
  out.points[0].separation = separation;
  int vertexA = ArgMaxDot(a.points, a.count, normal);
  int vertexB = ArgMaxDot(b.points, b.count, InvRotate(bToA.q, -normal));
  out.points[0].id = MakeFeatureId(VertexFeature(vertexA), VertexFeature(vertexB));
  return out;
}

// Face of maximum separation over the faces of both cores; A's unless B's is clearly larger.
SatResult FindMaxSeparation(const Core& a, const Core& b) {
  SatResult best = MaxFaceSeparation(a, b, false);
  SatResult bestB = MaxFaceSeparation(b, a, true);
  // Non-finite coordinates (overflow far from the origin) make every separation NaN, so no face
  // wins a comparison: fall back to face 0 of a core that has faces (one always does here), giving
  // a defined, if meaningless, manifold instead of indexing face -1. Found by the fuzzer.
  if (best.face < 0 && bestB.face < 0) {
    return a.count >= 2 ? SatResult{FaceSeparation(a, 0, b), 0, false}
                        : SatResult{FaceSeparation(b, 0, a), 0, true};
  }
  // Which core holds the reference face is a coin flip on random contacts: a select, not a branch.
  const bool useB =
      best.face < 0 || (bestB.face >= 0 && bestB.separation > best.separation + kReferenceTolerance);
  return useB ? bestB : best;
}

// Clip for a SAT result, both cores already in A's frame.
LocalManifold ClipAgainst(const Core& a, const Core& b, const SatResult& sat, float margin) {
  const Transform identity{};
  return sat.onB ? ClipToReferenceFace(MakeReferenceFace(b, sat.face, identity), a, identity, true, margin)
                 : ClipToReferenceFace(MakeReferenceFace(a, sat.face, identity), b, identity, false, margin);
}

// Two 1-point cores at the same place: no direction is better than another; report +y.
LocalManifold CoincidentPoints(const Core& a, const Core& b, const Transform& bToA, float margin) {
  CoreDistance cd{a.points[0], TransformPoint(bToA, b.points[0]), {0.0f, 1.0f}, 0.0f};
  return SinglePoint(a, b, bToA, cd, {0.0f, 1.0f}, margin);
}

LocalManifold CollideGjk(const Core& a, const Core& bLocal, const Transform& bToA, SimplexCache* cache,
                         float margin) {
  const bool roundOnly = a.count < 2 && bLocal.count < 2;
  CoreDistance cd = ComputeCoreDistance(a, bLocal, bToA, cache);
  if (cd.distance - a.radius - bLocal.radius > margin) return {};
  if (cd.distance < kCoreOverlapDistance) {
    if (roundOnly) return CoincidentPoints(a, bLocal, bToA, margin);
    // Cores overlap: the reference face is the face of least penetration (SAT).
    CoreBuffer bufferB;
    const Core& b = TransformCore(bLocal, bToA, bufferB);
    return ClipAgainst(a, b, FindMaxSeparation(a, b), margin);
  }

  // Cores apart: name the features holding the witness points. A witness inside an edge means the
  // normal is that edge's normal (exact, unlike the witness direction); so does a witness direction
  // parallel to a face even when both witnesses sit at vertices (flush parallel edges, where GJK may
  // pick the end of the closest segment). Otherwise the closest features are two vertices: one point.
  // B stays in its own frame: only the faces and vertices used are moved into A's.
  const Vec2 normal = cd.normal;
  const float exactSeparation = cd.distance - a.radius - bLocal.radius;
  const Transform identity{};
  LocalManifold clipped;
  if (a.count >= 2) {
    ReferenceFace face = MakeReferenceFace(a, ArgMaxDot(a.normals, a.count, normal), identity);
    if (UsableFace(face, cd.pointA, normal) &&
        ClipMatches(ClipToReferenceFace(face, bLocal, bToA, false, margin), exactSeparation, clipped)) {
      return clipped;
    }
  }
  if (bLocal.count >= 2) {
    int faceIndex = ArgMaxDot(bLocal.normals, bLocal.count, InvRotate(bToA.q, -normal));
    ReferenceFace face = MakeReferenceFace(bLocal, faceIndex, bToA);
    if (UsableFace(face, cd.pointB, -normal) &&
        ClipMatches(ClipToReferenceFace(face, a, identity, true, margin), exactSeparation, clipped)) {
      return clipped;
    }
  }
  return SinglePoint(a, bLocal, bToA, cd, normal, margin);
}

// The deepest vertex of `core` against `normal` (the incident vertex of a SAT reference face).
int DeepestVertex(const Core& core, Vec2 normal) { return ArgMaxDot(core.points, core.count, -normal); }

// After SAT, a cache for the next query. Cores apart: the reference face's two vertices, each paired
// with the incident core's deepest vertex, which is GJK's terminal simplex for a face-vertex contact
// (and any simplex is a safe start: a stale cache never gives a wrong answer, only more iterations).
// Cores overlapping: a triangle, which is what GJK leaves for overlapping cores too and which tells
// Auto to go straight to SAT next time (see CollideCores). Auto never starts GJK from it (the next
// SAT reseeds a pair that has come apart), so it is only a marker: the reference face's vertices
// against incident vertices 0 and 1, with no search for the deepest one.
void SeedCache(const Core& a, const Core& b, const SatResult& sat, SimplexCache* cache) {
  const Core& reference = sat.onB ? b : a;
  const Core& incident = sat.onB ? a : b;
  const int i1 = sat.face;
  const int i2 = sat.face + 1 == reference.count ? 0 : sat.face + 1;
  const bool overlap = sat.separation < kCoreOverlapDistance;
  const int j = overlap ? 0 : DeepestVertex(incident, reference.normals[sat.face]);
  const int pairs[3][2] = {{i1, j}, {i2, j}, {i1, 1}};  // incident.count >= 2 on the SAT path
  cache->count = overlap ? 3 : 2;
  cache->iterations = 0;
  for (int k = 0; k < cache->count; ++k) {
    cache->indexA[k] = static_cast<std::uint8_t>(pairs[k][sat.onB ? 1 : 0]);
    cache->indexB[k] = static_cast<std::uint8_t>(pairs[k][sat.onB ? 0 : 1]);
  }
}

// Face axes only, no GJK, as long as that is exact: when the cores are apart and the incident
// vertex that realises the SAT separation was clipped away (a vertex-vertex pair: the clip would
// report more room than there is, or none at all), the pair goes to the GJK path instead. With
// `seed`, the cache is seeded for a warm GJK next time (the GJK fallback then starts from it too).
LocalManifold CollideSat(const Core& a, const Core& bLocal, const Transform& bToA, SimplexCache* cache,
                         float margin, bool seed) {
  CoreBuffer bufferB;
  const Core& b = TransformCore(bLocal, bToA, bufferB);
  SatResult sat = FindMaxSeparation(a, b);
  if (seed && cache != nullptr) SeedCache(a, b, sat, cache);
  const float radii = a.radius + b.radius;
  if (sat.separation - radii > margin) return {};
  LocalManifold m = ClipAgainst(a, b, sat, margin);
  if (sat.separation < kCoreOverlapDistance) return m;
  LocalManifold checked;
  if (ClipMatches(m, sat.separation - radii, checked)) return checked;
  // The GJK fallback starts from the SAT features: warm, it costs about a quarter of a cold start.
  // Only the Auto method hands them to the caller's cache; Sat leaves GJK's final simplex there.
  SimplexCache local;
  SimplexCache* start = seed && cache != nullptr ? cache : &local;
  if (start == &local) SeedCache(a, b, sat, &local);
  LocalManifold fallback = CollideGjk(a, bLocal, bToA, start, margin);
  if (cache != nullptr && start != cache) *cache = local;
  return fallback;
}

// A circle beyond the end vertex `index` of a's face: one point along the direction from it, into
// `out` (empty: no point within the margin).
void VertexAndCircle(const Core& a, int index, Vec2 center, float radiusB, float margin, LocalManifold& out) {
  const Vec2 offset = center - a.points[index];
  const float distance = Length(offset);
  const float separation = distance - a.radius - radiusB;
  if (separation > margin) return;
  const Vec2 normal = (1.0f / distance) * offset;  // distance > kCoreOverlapDistance: a direction
  out.normal = normal;
  out.count = 1;
  out.points[0].point = 0.5f * ((a.points[index] + a.radius * normal) + (center - radiusB * normal));
  out.points[0].separation = separation;
  out.points[0].id = MakeFeatureId(VertexFeature(index), VertexFeature(0));
}

}  // namespace

// Every return is `out`, so the compiler builds it in the caller's result (named return value): a
// return of another function's result made `out` a stack copy, moved out with wide loads over its
// narrow stores (failed store-to-load forwards: a fifth of this function's samples on the spinner).
LocalManifold CollideCoreAndCircle(const Core& a, Vec2 center, float radiusB, float margin) {
  // The face whose plane the centre is farthest above. For a 2-point core (segment, capsule) its two
  // faces are the segment seen from either side.
  int face = 0;
  float height = Dot(a.normals[0], center - a.points[0]);
  for (int i = 1; i < a.count; ++i) {
    const float h = Dot(a.normals[i], center - a.points[i]);
    if (h > height) {
      height = h;
      face = i;
    }
  }
  LocalManifold out;
  if (!(height - a.radius - radiusB <= margin)) return out;  // apart (or NaN: no contact)
  const int next = face + 1 == a.count ? 0 : face + 1;
  // Beyond an end of the face, the closest feature is that vertex: for a centre outside a polygon's
  // core, and for any centre against a segment's (one on its line beyond an end is above neither face).
  // A centre within kCoreOverlapDistance of the core takes the face, as CollideCores' SAT does.
  if (height > kCoreOverlapDistance || a.count == 2) {
    const Vec2 edge = a.points[next] - a.points[face];
    const int vertex = Dot(center - a.points[face], edge) <= 0.0f   ? face
                       : Dot(center - a.points[next], edge) >= 0.0f ? next
                                                                    : -1;
    const float reach = kCoreOverlapDistance;
    if (vertex >= 0 && LengthSquared(center - a.points[vertex]) > reach * reach) {
      VertexAndCircle(a, vertex, center, radiusB, margin, out);
      return out;
    }
  }
  // The face's region, or a centre within the core (the face of least penetration), as the clip of
  // a 1-point core against a reference face gives it.
  const Vec2 normal = a.normals[face];
  out.normal = normal;
  out.count = 1;
  out.points[0].point = center + (0.5f * (a.radius - radiusB - height)) * normal;
  out.points[0].separation = height - a.radius - radiusB;
  out.points[0].id = MakeFeatureId(EdgeFeature(face), VertexFeature(0));
  return out;
}

LocalManifold CollideCores(const Core& a, const Core& bLocal, const Transform& bToA, SimplexCache* cache,
                           const ManifoldSettings& settings) {
  const float margin = settings.speculativeDistance;
  // SAT needs faces on both sides: against a 1-point core (a circle's centre) the face axis is the
  // answer only in that face's region, not beyond its ends where the closest feature is a vertex,
  // and an unclipped single point cannot reveal that (ClipMatches sees the face separation it was
  // given). GJK is exact there and cheap (one point).
  const bool facesOnBoth = a.count >= 2 && bLocal.count >= 2;
  if (!facesOnBoth) return CollideGjk(a, bLocal, bToA, cache, margin);
  switch (settings.method) {
    case ManifoldMethod::Sat:
      return CollideSat(a, bLocal, bToA, cache, margin, false);
    case ManifoldMethod::Gjk:
      return CollideGjk(a, bLocal, bToA, cache, margin);
    default:
      // A cache GJK can start from means a persisting contact: warm GJK, unless it holds a triangle,
      // which GJK (and SeedCache) leave only for overlapping cores. Overlapping cores end on SAT
      // anyway (CollideGjk hands them over), so a resting pair of sharp polygons, which overlaps by
      // the solver's slop step after step, skips the GJK query. Otherwise SAT, seeding the cache.
      if (cache != nullptr && cache->count < 3 && detail::IsCacheUsable(*cache, a.count, bLocal.count)) {
        return CollideGjk(a, bLocal, bToA, cache, margin);
      }
      return CollideSat(a, bLocal, bToA, cache, margin, true);
  }
}

}  // namespace mk
