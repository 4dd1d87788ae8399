// SPDX-License-Identifier: MIT
// What continuous collision sweeps for a body and its shapes (body_sweep.h).
#include "world/body_sweep.h"

#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace mk {

// The turn of a body over the step (rad). The rotations only give it up to whole turns: the solver may
// turn a body by up to two turns in a step (half a turn per sub-step), so the whole turns come from
// the angular velocity, the multiple of 2 pi that brings the relative rotation closest to w dt. (Within
// half a turn, as before, a body spinning at 190 rad/s, 3.2 rad a step at 60 Hz, was swept turning 3.1
// rad the other way: its corner went into the surface it spun away from, and the body was stopped at
// 1% of the step, step after step.)
float StepTurn(const Body& body, float dt) {
  constexpr float kFullTurn = 2.0f * std::numbers::pi_v<float>;
  const float turn = Angle(InvMulRot(body.q0, body.xf.q));
  const float wholeTurns = std::round((body.angularVelocity * dt - turn) / kFullTurn);
  return turn + kFullTurn * wholeTurns;
}

Sweep MakeBodySweep(const Body& body, float dt, Pos origin) {
  Sweep sweep;
  sweep.localCenter = body.localCenter;
  sweep.c2 = body.center - origin;
  sweep.a2 = Angle(body.xf.q);
  if (body.type == BodyType::Static || body.solverIndex == kNull) {  // did not move this step
    sweep.c1 = sweep.c2;
    sweep.a1 = sweep.a2;
  } else {
    sweep.c1 = body.center0 - origin;
    sweep.a1 = sweep.a2 - StepTurn(body, dt);
  }
  return sweep;
}

// Mean of a shape's core points (local frame): the point continuous collision tracks.
Vec2 CoreCentre(const ShapeGeometry& geometry) {
  Vec2 centre{0.0f, 0.0f};
  for (int i = 0; i < geometry.Count(); ++i) centre += geometry.Points()[i];
  return (1.0f / static_cast<float>(geometry.Count())) * centre;
}

// The fast shape shrunk up to `depth` (m) under its surface, for a sweep that lets a shape sink that far
// into what it already touches but no further (SweepShapeAgainst). The radius gives what it can; a
// polygon's core gives the rest: each vertex moves in to where its two edges' lines, moved in by that
// much, meet, then towards the core centre as far as needed to lie within every moved-in edge (a sharp
// vertex's corner lies beyond another moved-in edge). Every point then lies at least that much under
// every edge, so the proxy (with what is left of the radius) is inside the shape shrunk by `depth`. A
// thin polygon's core moves in at most 90% of its inner extent, and a segment has no inside: `depth`
// says how far the proxy really is under the surface (0: it is the shape). `points`: room for
// kMaxPolygonVertices.
InsetProxy MakeInsetProxy(const ShapeGeometry& geometry, float depth, Vec2* points) {
  const int count = geometry.Count();
  const Vec2* core = geometry.Points();
  const float radius = geometry.Radius();
  float coreInset = depth - radius;
  if (coreInset <= 0.0f) return {ShapeProxy{core, count, radius - depth}, depth};
  if (geometry.Type() != ShapeType::Polygon) return {ShapeProxy{core, count, 0.0f}, radius};
  const Vec2* normals = geometry.Normals();
  const Vec2 centre = CoreCentre(geometry);
  float inner = coreInset / 0.9f;  // smallest core centre to edge distance, where it limits the inset
  for (int i = 0; i < count; ++i) inner = std::min(inner, Dot(normals[i], core[i] - centre));
  coreInset = std::min(coreInset, 0.9f * inner);
  if (!(coreInset > 0.0f)) return {ShapeProxy{core, count, 0.0f}, radius};
  for (int i = 0; i < count; ++i) {
    const Vec2 n0 = normals[i == 0 ? count - 1 : i - 1], n1 = normals[i];
    // (n0 + n1) / (1 + n0.n1) has a component of 1 along each normal: the moved-in lines' corner.
    const Vec2 corner = core[i] - (coreInset / std::max(1.0f + Dot(n0, n1), 1e-6f)) * (n0 + n1);
    float scale = 1.0f;
    for (int j = 0; j < count; ++j) {
      const float reach = Dot(normals[j], corner - centre);
      const float room = Dot(normals[j], core[j] - centre) - coreInset;
      if (reach > room) scale = std::min(scale, room / reach);
    }
    points[i] = centre + scale * (corner - centre);
  }
  return {ShapeProxy{points, count, 0.0f}, radius + coreInset};
}

// Chain segments are one-sided: a shape whose core centre starts the step behind one (or on its
// line) ignores it, as the narrowphase does.
bool BehindChainSegment(const ShapeGeometry& chain, const Transform& chainXf, const ShapeGeometry& geometry,
                        const Sweep& sweep) {
  const Vec2 centre = TransformPoint(GetSweepTransform(sweep, 0.0f), CoreCentre(geometry));
  const Vec2 local = InvTransformPoint(chainXf, centre);
  return Dot(local - chain.Points()[0], chain.Normals()[0]) <= 0.0f;
}

bool SweepClearOfSegmentLine(const StillSegment& segment, const ShapeProxy& proxy, const Sweep& sweep,
                             Rot start, Rot end, float clearance) {
  if (segment.core.count != 2) return false;
  const Vec2 a = TransformPoint(segment.xf, segment.core.points[0]);
  const Vec2 edge = TransformPoint(segment.xf, segment.core.points[1]) - a;
  const float length = Length(edge);
  if (!(length > 0.0f)) return false;
  const Vec2 normal = (1.0f / length) * Vec2{edge.y, -edge.x};
  // The core's extremes along the normal, relative to the centre of mass, at both ends of the step
  // (the normal turned into the body frame at each end: n.(q r) = (q^T n).r).
  const Vec2 normalAtStart = InvRotate(start, normal), normalAtEnd = InvRotate(end, normal);
  float low = kMaxWorldLength, high = -kMaxWorldLength, arm = 0.0f;
  for (int i = 0; i < proxy.count; ++i) {
    const Vec2 r = proxy.points[i] - sweep.localCenter;
    const float atStart = Dot(normalAtStart, r), atEnd = Dot(normalAtEnd, r);
    low = std::min({low, atStart, atEnd});
    high = std::max({high, atStart, atEnd});
    arm = std::max(arm, Dot(r, r));
  }
  arm = std::sqrt(arm);
  // Between the ends each core point r turns on an arc that leaves the chord of its end positions by
  // at most |r| (1 - cos(turn / 2)) for a turn of at most half a turn, and never goes beyond |r|; the
  // centre of mass moves on a straight line, so it is nearest the line at an end. cos(turn / 2) from
  // the relative rotation's cosine (ChordBulge).
  const float turn = std::fabs(sweep.a2 - sweep.a1);
  const float bulge = turn < std::numbers::pi_v<float> ? ChordBulge(arm, start, end) : arm;
  low = std::max(low - bulge, -arm);
  high = std::min(high + bulge, arm);
  const float centre1 = Dot(normal, sweep.c1 - a), centre2 = Dot(normal, sweep.c2 - a);
  const float reach = clearance + segment.core.radius + proxy.radius;
  // Clear of the line on the normal's side, or on the other.
  return std::min(centre1, centre2) + low > reach || std::max(centre1, centre2) + high < -reach;
}

float ChordBulge(float arm, Rot start, Rot end) {
  const float cosTurn = std::clamp(InvMulRot(start, end).c, -1.0f, 1.0f);
  return arm * (1.0f - std::sqrt(0.5f * (1.0f + cosTurn)));
}

// The end poses' boxes miss what a turning shape sweeps between them: a point r from the centre of
// mass leaves the chord between its end positions by at most r (1 - cos(turn / 2)) (m).
float TurnBulge(float maxExtent, float turn) { return maxExtent * (1.0f - Cos(0.5f * turn)); }

}  // namespace mk
