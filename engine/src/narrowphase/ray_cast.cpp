// SPDX-License-Identifier: MIT
// Casts against one shape: RayCastShape (exact per type) and ShapeCast (conservative advancement).
#include "minkowski/ray_cast.h"

#include "minkowski/assert.h"
#include "minkowski/distance.h"
#include "narrowphase/cast_input.h"

#include <cmath>

namespace mk {

namespace {

// A local-frame hit: t along the ray and the outward normal of the piece of surface entered.
struct LocalHit {
  float t = 0.0f;
  Vec2 normal{0.0f, 0.0f};
  bool hit = false;
};

// Entry of p + t d (t in [0, tMax]) into the disc (c, r), or no hit when the ray misses it, starts
// inside it or enters it beyond tMax. The closest approach of the ray's line to the centre is found
// first (the vector q), so the square root takes r^2 - |q|^2, which has no cancellation for rays that
// pass far from the centre (unlike the textbook discriminant b^2 - c).
LocalHit RayDisc(Vec2 p, Vec2 d, float tMax, Vec2 c, float r) {
  const float length = Length(d);
  const Vec2 s = p - c;
  if (length == 0.0f || Dot(s, s) < r * r) return {};
  const Vec2 u = (1.0f / length) * d;
  const float b = Dot(s, u);
  const Vec2 q = s - b * u;
  const float h2 = r * r - Dot(q, q);
  if (h2 < 0.0f) return {};
  const float t = (-b - std::sqrt(h2)) / length;
  if (t < 0.0f || t > tMax) return {};
  return {t, Normalize(s + t * d), true};
}

// Sharp convex polygon: the ray clipped against every edge's inner half-plane (Cyrus-Beck). The last
// entering edge that raised the lower bound is the one the ray crossed.
LocalHit RayPolygon(const ShapeGeometry& shape, Vec2 p, Vec2 d, float tMax) {
  const Vec2* v = shape.Points();
  const Vec2* n = shape.Normals();
  float lower = 0.0f, upper = tMax;
  int index = -1;
  for (int i = 0; i < shape.Count(); ++i) {
    const float num = Dot(n[i], v[i] - p);  // > 0 when p is inside this edge's half-plane
    const float den = Dot(n[i], d);
    if (den == 0.0f) {
      if (num < 0.0f) return {};  // parallel and outside
      continue;
    }
    const float t = num / den;
    if (den < 0.0f) {
      if (t >= lower) {
        lower = t;
        index = i;
      }
    } else if (t < upper) {
      upper = t;
    }
    if (upper < lower) return {};
  }
  // No entering edge raised the bound: the origin is inside (or the ray never enters).
  if (index < 0) return {};
  return {lower, n[index], true};
}

// A segment without thickness, hit from either side: solve p + t d = p1 + s e with cross products.
// In double: for rays nearly parallel to the segment, float cross products lose the digits that t
// depends on (an error of about eps / sin(angle)); double keeps t exact for the float inputs at the
// cost of a few conversions.
LocalHit RaySegment(const ShapeGeometry& shape, Vec2 p, Vec2 d, float tMax) {
  const Vec2 p1 = shape.Points()[0], p2 = shape.Points()[1];
  const double ex = double(p2.x) - p1.x, ey = double(p2.y) - p1.y;
  const double wx = double(p1.x) - p.x, wy = double(p1.y) - p.y;
  const double den = double(d.x) * ey - double(d.y) * ex;
  if (den == 0.0) return {};  // parallel, including along the segment's own line
  const double t = (wx * ey - wy * ex) / den;
  const double s = (wx * d.y - wy * d.x) / den;
  if (t < 0.0 || t > tMax || s < 0.0 || s > 1.0) return {};
  const Vec2 normal = Dot(shape.Normals()[0], d) <= 0.0f ? shape.Normals()[0] : shape.Normals()[1];
  return {static_cast<float>(t), normal, true};
}

// Squared distance from p to the segment a-b.
float DistanceSquaredToSegment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 e = b - a;
  const float ee = Dot(e, e);
  float s = ee > 0.0f ? Dot(p - a, e) / ee : 0.0f;
  s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
  return DistanceSquared(p, a + s * e);
}

// True when p lies strictly inside the rounded shape: closer to the core than the radius.
bool InsideRounded(const ShapeGeometry& shape, Vec2 p) {
  const Vec2* v = shape.Points();
  const int count = shape.Count();
  const float r2 = shape.Radius() * shape.Radius();
  if (count == 1) return DistanceSquared(p, v[0]) < r2;
  if (count == 2) return DistanceSquaredToSegment(p, v[0], v[1]) < r2;
  bool insideCore = true;
  float best = DistanceSquaredToSegment(p, v[count - 1], v[0]);
  for (int i = 0; i < count; ++i) {
    insideCore = insideCore && Dot(shape.Normals()[i], p - v[i]) <= 0.0f;
    if (i + 1 < count) best = std::fmin(best, DistanceSquaredToSegment(p, v[i], v[i + 1]));
  }
  return insideCore || best < r2;
}

// Rounded shape (core + radius > 0): the union of the core, the rectangles each edge sweeps along its
// normal and the discs at the core points. From outside, the ray enters that union first through an
// edge pushed out by the radius (crossed from its outer side, within the edge's extent) or through a
// disc; the earliest of those is the hit.
LocalHit RayRounded(const ShapeGeometry& shape, Vec2 p, Vec2 d, float tMax) {
  if (InsideRounded(shape, p)) return {};
  const Vec2* v = shape.Points();
  const Vec2* n = shape.Normals();
  const int count = shape.Count();
  const float r = shape.Radius();
  LocalHit best;
  best.t = tMax;
  for (int i = 0; i < count; ++i) {
    const LocalHit disc = RayDisc(p, d, best.t, v[i], r);
    if (disc.hit && (!best.hit || disc.t < best.t)) best = disc;
  }
  const int edges = count >= 2 ? count : 0;
  for (int i = 0; i < edges; ++i) {
    const float den = Dot(n[i], d);
    if (den >= 0.0f) continue;
    const float num = r - Dot(n[i], p - v[i]);  // <= 0 when p is outside the pushed-out edge
    if (num > 0.0f) continue;
    const float t = num / den;
    if (t > best.t || (best.hit && t == best.t)) continue;
    const Vec2 a = v[i], b = v[i + 1 < count ? i + 1 : 0];
    const float s = Dot(p + t * d - a, b - a), ee = Dot(b - a, b - a);
    if (s < 0.0f || s > ee) continue;  // beyond the edge's ends: the discs answer there
    best = {t, n[i], true};
  }
  return best;
}

// The normal of a cast that stopped with the cores overlapping. From a separated start that is
// rounding, not overlap: GJK calls sharp cores closer than about 16 float ulps of the pair's size
// "overlapping" (5e-5 m at 28 m, more than the cast's half-tolerance target: issue 28, a box cast
// onto a 56 m box returned (0, 0)). Its touching normal is used when it has one, else the normal of
// the last separated step, which the advance just followed to the contact. Only a cast that starts
// overlapping has no normal.
Vec2 OverlapNormal(const DistanceOutput& distance, Vec2 lastNormal) {
  if (distance.status == DistanceStatus::Touching) return distance.normal;
  return lastNormal;
}

}  // namespace

CastOutput RayCastShape(const ShapeGeometry& shape, const Transform& xf, const RayCastInput& input) {
  const bool valid = IsValidCastShape(shape) && IsValidCastTransform(xf) && InCastRange(input.origin) &&
                     InCastRange(input.translation) && IsFinite(input.maxFraction) &&
                     input.maxFraction >= 0.0f;
  MK_ASSERT(valid);
  if (!valid) return {};
  return RayCastShapeUnchecked(shape, xf, input);
}

CastOutput RayCastShapeUnchecked(const ShapeGeometry& shape, const Transform& xf, const RayCastInput& input) {
  if (input.translation.x == 0.0f && input.translation.y == 0.0f) return {};
  const Vec2 p = InvTransformPoint(xf, input.origin);
  const Vec2 d = InvRotate(xf.q, input.translation);
  LocalHit local;
  if (shape.Radius() > 0.0f) {
    local = RayRounded(shape, p, d, input.maxFraction);
  } else if (shape.Count() >= 3) {
    local = RayPolygon(shape, p, d, input.maxFraction);
  } else if (shape.Type() == ShapeType::ChainSegment) {
    // One-sided: only a ray from the front (strictly) can hit, and then only the front face.
    const bool front = Dot(p - shape.Points()[0], shape.Normals()[0]) > 0.0f;
    if (front) local = RaySegment(shape, p, d, input.maxFraction);
  } else if (shape.Count() == 2) {
    local = RaySegment(shape, p, d, input.maxFraction);
  }
  if (!local.hit) return {};
  CastOutput out;
  out.hit = true;
  out.fraction = local.t;
  out.point = input.origin + local.t * input.translation;
  out.normal = Rotate(xf.q, local.normal);
  return out;
}

CastOutput ShapeCast(const ShapeGeometry& shapeA, const Transform& xfA, const ShapeGeometry& shapeB,
                     const Transform& xfB, Vec2 translationB, float maxFraction) {
  // A geometry of type Count has no points: its empty proxy is refused below like any invalid one.
  return ShapeCast(ShapeCastInput{MakeProxy(shapeA), MakeProxy(shapeB), xfA, xfB, translationB, maxFraction});
}

CastOutput ShapeCast(const ShapeCastInput& cast) {
  const bool valid = IsValidCastProxy(cast.proxyA) && IsValidCastProxy(cast.proxyB) &&
                     IsValidCastTransform(cast.transformA) && IsValidCastTransform(cast.transformB) &&
                     InCastRange(cast.translationB) && IsFinite(cast.maxFraction) && cast.maxFraction >= 0.0f;
  MK_ASSERT(valid);
  if (!valid) return {};
  const Transform& xfB = cast.transformB;
  const Vec2 translationB = cast.translationB;
  const float maxFraction = cast.maxFraction;
  DistanceInput input;
  input.proxyA = cast.proxyA;
  input.proxyB = cast.proxyB;
  input.transformA = cast.transformA;
  input.transformB = xfB;
  SimplexCache cache;
  // Advance towards half the tolerance, so that a step lands inside the accepted band even when the
  // distance falls faster than its linear bound predicts, and never past the contact.
  constexpr float kTarget = 0.5f * kShapeCastTolerance;
  float t = 0.0f;
  Vec2 lastNormal{0.0f, 0.0f};  // the separating normal of the last step, (0, 0) before the first
  for (int iteration = 0; iteration < kShapeCastMaxIterations; ++iteration) {
    input.transformB.p = xfB.p + t * translationB;
    const DistanceOutput distance = ShapeDistance(input, &cache);
    if (distance.status == DistanceStatus::InvalidInput) {
      MK_ASSERT(false && "ShapeCast: GJK refused the shapes (float overflow)");
      return {};
    }
    if (distance.coresOverlap || distance.distance <= kShapeCastTolerance) {
      CastOutput out;
      out.hit = true;
      out.fraction = t;
      out.point = distance.pointA;
      out.normal = distance.coresOverlap ? OverlapNormal(distance, lastNormal) : distance.normal;
      out.iterations = iteration;
      return out;
    }
    lastNormal = distance.normal;
    // d(t + dt) >= d(t) + dt * Dot(translationB, normal): convexity in the translation.
    const float rate = Dot(translationB, distance.normal);
    if (rate >= 0.0f) return {};  // not approaching along the closest direction: never touches
    t += (distance.distance - kTarget) / -rate;
    if (t > maxFraction) return {};
  }
  return {};
}

}  // namespace mk
