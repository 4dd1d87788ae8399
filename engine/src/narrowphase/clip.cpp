// SPDX-License-Identifier: MIT
// Reference/incident edge clipping (Sutherland-Hodgman against the two side planes of the reference
// face). The idea is dyn4j's "contact points using clipping" (also box2d-lite): the contact region
// of two faces is the incident edge cut to the reference face's extent.
#include "narrowphase/manifold_internal.h"

#include <utility>

namespace mk {

namespace {

// A point of the incident edge on its way through the clipper, with the features that made it.
struct ClipVertex {
  Vec2 point;
  std::uint8_t featureReference;
  std::uint8_t featureIncident;
};

// Keeps the part of segment v[0]-v[1] with Dot(p, axis) <= offset. A point made by the cut keeps
// the id of the incident vertex it replaces (see ClipToReferenceFace for why). Returns the number
// of points left (0 or 2).
int ClipSegment(ClipVertex v[2], Vec2 axis, float offset) {
  float d0 = Dot(v[0].point, axis) - offset;
  float d1 = Dot(v[1].point, axis) - offset;
  if (d0 > 0.0f && d1 > 0.0f) return 0;
  // At most one point is outside. Whether one is, and which, is a coin flip on contacts, so the cut
  // point is always computed and the selects below compile to blends instead of branches. The
  // denominator is nonzero whenever a cut is selected (the signs of d0 and d1 differ then).
  float denominator = d0 - d1;
  float t = denominator != 0.0f ? d0 / denominator : 0.0f;
  Vec2 cut = Lerp(v[0].point, v[1].point, t);
  v[0].point = d0 > 0.0f ? cut : v[0].point;
  v[1].point = d1 > 0.0f ? cut : v[1].point;
  return 2;
}

}  // namespace

ReferenceFace MakeReferenceFace(const Core& core, int face, const Transform& xf) {
  ReferenceFace f;
  f.i1 = face;
  f.i2 = face + 1 == core.count ? 0 : face + 1;
  f.v1 = TransformPoint(xf, core.points[f.i1]);
  f.v2 = TransformPoint(xf, core.points[f.i2]);
  f.normal = Rotate(xf.q, core.normals[face]);
  f.radius = core.radius;
  return f;
}

LocalManifold ClipToReferenceFace(const ReferenceFace& reference, const Core& incident,
                                  const Transform& incidentToFrame, bool flip, float margin) {
  const Vec2 v1 = reference.v1;
  const Vec2 normal = reference.normal;
  // Counter-clockwise winding: the edge runs along LeftPerp(normal).
  const Vec2 tangent = LeftPerp(normal);

  ClipVertex clip[2];
  int count = 0;
  if (incident.count < 2) {
    clip[0] = {TransformPoint(incidentToFrame, incident.points[0]), EdgeFeature(reference.i1),
               VertexFeature(0)};
    count = 1;
  } else {
    // The incident edge is searched among the incident core's own normals, with the reference
    // normal taken into its frame (one rotation instead of one per incident normal).
    const Vec2 localNormal = InvRotate(incidentToFrame.q, normal);
    const int edge = ArgMaxDot(incident.normals, incident.count, -localNormal);
    const int j2 = edge + 1 == incident.count ? 0 : edge + 1;
    // Ids name the two ends of the contact by the vertex pair there: the incident edge runs against
    // the reference edge, so its first vertex faces the reference's second and vice versa. A point
    // keeps its end's id whether or not a side plane cut it, and whichever shape is the reference.
    // With the features actually touching (vertex vs. cut edge) as ids instead, equal boxes stacked
    // flush, whose vertices sit exactly on each other's side planes, flip ids with float noise
    // every step and lose their warm-start impulses: measured, a 20-box stack toppled.
    clip[0] = {TransformPoint(incidentToFrame, incident.points[edge]), VertexFeature(reference.i2),
               VertexFeature(edge)};
    clip[1] = {TransformPoint(incidentToFrame, incident.points[j2]), VertexFeature(reference.i1),
               VertexFeature(j2)};
    // Side plane through v1 (keep Dot(p, t) >= Dot(v1, t)), then through v2 (keep <= Dot(v2, t)).
    count = ClipSegment(clip, -tangent, -Dot(v1, tangent));
    if (count == 2) count = ClipSegment(clip, tangent, Dot(reference.v2, tangent));
  }

  LocalManifold out;
  const float radiusReference = reference.radius;
  const float radiusIncident = incident.radius;
  for (int k = 0; k < count; ++k) {
    // Height of the incident core point above the reference face, then the surfaces are the
    // reference face pushed out by its radius and the incident point pulled in by its own.
    float coreSeparation = Dot(clip[k].point - v1, normal);
    float separation = coreSeparation - radiusReference - radiusIncident;
    // Written into the next slot either way and kept by counting it (whether a point lies within
    // the margin is data-dependent; a branch here mispredicts often). out.count <= k < 2.
    LocalPoint& p = out.points[out.count];
    p.point = clip[k].point + (0.5f * (radiusReference - radiusIncident - coreSeparation)) * normal;
    p.separation = separation;
    p.id = flip ? MakeFeatureId(clip[k].featureIncident, clip[k].featureReference)
                : MakeFeatureId(clip[k].featureReference, clip[k].featureIncident);
    out.count += separation <= margin ? 1 : 0;
  }
  // Points run from the reference edge's second end to its first. Two touching faces run opposite
  // ways, so with B's face as the reference that is the reverse of the order A's would give: put
  // them back in A's order. The solver takes a manifold's points in order (Gauss-Seidel), and a
  // pair whose reference face changes sides from one step to the next (a landing: GJK picks A's
  // face while apart, SAT B's once a tilt makes it the shallower) would otherwise solve the other
  // point first each time: the first point takes the larger impulse, so the asymmetry spun a 10 kg
  // box landing flat on a 1 kg box at 5 m/s up to 0.2 rad/s (Box2D v3, whose order does not change
  // there: 0.005).
  if (flip && out.count == 2) std::swap(out.points[0], out.points[1]);
  out.normal = flip ? -normal : normal;
  return out;
}

}  // namespace mk
