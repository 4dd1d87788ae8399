// SPDX-License-Identifier: MIT
// Shape constructors: validation of raw input and the derived data (normals, centroid) of polygons.
#include "core/trig.h"
#include "geometry/hull_tolerance.h"
#include "geometry/polygon_math.h"
#include "minkowski/assert.h"
#include "minkowski/geometry.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace mk {

const char* ToString(GeometryError error) {
  switch (error) {
    case GeometryError::None:
      return "no error";
    case GeometryError::TooFewPoints:
      return "fewer than 3 distinct points";
    case GeometryError::Collinear:
      return "all points are collinear";
    case GeometryError::NonFinite:
      return "a value is NaN or infinite";
    case GeometryError::NegativeRadius:
      return "radius is negative (or zero where it must be positive)";
    case GeometryError::NonPositiveSize:
      return "a size or count is zero or negative";
    case GeometryError::TooManyVertices:
      return "more than kMaxPolygonVertices hull vertices";
    case GeometryError::NegativeDensity:
      return "density is negative";
    case GeometryError::DegenerateSegment:
      return "segment end points coincide";
    case GeometryError::NotConvex:
      return "hull is not strictly convex and counter-clockwise";
    case GeometryError::TooManyPoints:
      return "more than kMaxHullInputPoints input points";
    case GeometryError::InconsistentPolygon:
      return "polygon normals or centroid do not match its vertices";
  }
  return "unknown geometry error";
}

namespace {

template <class T>
GeometryResult<T> Fail(GeometryError error) {
  GeometryResult<T> result;
  result.error = error;
  return result;
}

// Two end points are coincident when closer than the hull tolerance would weld them.
bool Coincident(Vec2 p1, Vec2 p2) {
  Vec2 pts[2] = {p1, p2};
  return Distance(p1, p2) <= HullTolerance(pts);
}

// Strictly convex and counter-clockwise: every corner turns left (the same float expression the hull
// tests check), and the edge directions make exactly one turn, which rules out star-shaped loops that
// turn left everywhere but wind two or more times.
bool IsStrictlyConvexCCW(const Hull& hull) {
  double turning = 0.0;
  for (int i = 0; i < hull.count; ++i) {
    Vec2 prev = hull.points[(i + hull.count - 1) % hull.count];
    Vec2 point = hull.points[i];
    Vec2 next = hull.points[(i + 1) % hull.count];
    float cross = Cross(point - prev, next - point);
    if (!(cross > 0.0f)) return false;
    turning += trig::Atan2(static_cast<double>(cross), static_cast<double>(Dot(point - prev, next - point)));
  }
  // Each turn is in (0, pi), so the total is a whole number of turns: 2 pi for a simple polygon.
  return turning < 3.0 * std::numbers::pi;
}

// An edge shorter than kMinFeatureLength: its two points count as one.
bool HasTinyEdge(const Hull& hull) {
  for (int i = 0; i < hull.count; ++i) {
    if (!(Distance(hull.points[(i + 1) % hull.count], hull.points[i]) >= kMinFeatureLength)) return true;
  }
  return false;
}

// Normals and centroid of a hull already known to be valid.
GeometryResult<Polygon> BuildPolygon(const Hull& hull, float radius) {
  GeometryResult<Polygon> result;
  Polygon& polygon = result.value;
  polygon.count = hull.count;
  polygon.radius = radius;
  for (int i = 0; i < hull.count; ++i) {
    polygon.vertices[i] = hull.points[i];
    Vec2 edge = hull.points[(i + 1) % hull.count] - hull.points[i];
    polygon.normals[i] = Normalize(RightPerp(edge));
  }
  polygon.centroid = ComputePolygonMass(polygon.vertices, polygon.count, 1.0f).center;
  return result;
}

GeometryError CheckRadius(float radius) {
  if (!IsFinite(radius)) return GeometryError::NonFinite;
  if (radius < 0.0f) return GeometryError::NegativeRadius;
  return GeometryError::None;
}

}  // namespace

ShapeProxy MakeProxy(const Vec2* points, int count, float radius) {
  bool valid =
      points != nullptr && count >= 1 && count <= kMaxPolygonVertices && IsFinite(radius) && radius >= 0.0f;
  for (int i = 0; valid && i < count; ++i) valid = IsFinite(points[i]);
  if (valid && count >= 3) {
    Hull hull;
    std::copy(points, points + count, hull.points);
    hull.count = count;
    valid = IsStrictlyConvexCCW(hull);
  }
  MK_ASSERT(valid && "MakeProxy: null, non-finite or non-convex points, or a bad count or radius");
  if (!valid) return {};
  return {points, count, radius};
}

GeometryError ValidatePolygon(const Polygon& polygon) {
  if (GeometryError error = CheckRadius(polygon.radius); error != GeometryError::None) return error;
  if (polygon.count < 3) return GeometryError::TooFewPoints;
  if (polygon.count > kMaxPolygonVertices) return GeometryError::TooManyVertices;
  Hull hull;
  hull.count = polygon.count;
  for (int i = 0; i < polygon.count; ++i) {
    if (!IsFinite(polygon.vertices[i]) || !IsFinite(polygon.normals[i])) return GeometryError::NonFinite;
    hull.points[i] = polygon.vertices[i];
  }
  if (!IsFinite(polygon.centroid)) return GeometryError::NonFinite;
  if (!IsStrictlyConvexCCW(hull)) return GeometryError::NotConvex;
  if (HasTinyEdge(hull)) return GeometryError::TooFewPoints;
  // The derived data must be what MakePolygon derives (a hand-copied normal with a sign slip or a
  // stale centroid would turn contacts inside out).
  const Polygon derived = BuildPolygon(hull, polygon.radius).value;
  float extent = 0.0f;
  for (int i = 0; i < polygon.count; ++i)
    extent = std::max(extent, Distance(derived.vertices[i], derived.centroid));
  constexpr float kTolerance = 1e-4f;
  for (int i = 0; i < polygon.count; ++i) {
    if (!(Distance(polygon.normals[i], derived.normals[i]) <= kTolerance))
      return GeometryError::InconsistentPolygon;
  }
  if (!(Distance(polygon.centroid, derived.centroid) <= kTolerance * std::max(1.0f, extent))) {
    return GeometryError::InconsistentPolygon;
  }
  return GeometryError::None;
}

// A hull is validated by its geometry, not by asking whether ComputeHull would reproduce it: the clean-up
// in ComputeHull measures removal errors against the raw cloud, so running it again on its own output
// (without the removed points) can drop one more vertex of a very flat hull. The old fixed-point check
// refused about 1% of flat clouds' hulls (see the regression test in tests/geometry/shapes_test.cpp).
GeometryResult<Polygon> MakePolygon(const Hull& hull, float radius) {
  if (GeometryError error = CheckRadius(radius); error != GeometryError::None) return Fail<Polygon>(error);
  if (hull.count < 3 || hull.count > kMaxPolygonVertices) {
    return Fail<Polygon>(hull.count < 3 ? GeometryError::TooFewPoints : GeometryError::TooManyVertices);
  }
  for (int i = 0; i < hull.count; ++i) {
    if (!IsFinite(hull.points[i])) return Fail<Polygon>(GeometryError::NonFinite);
  }
  const bool convex = IsStrictlyConvexCCW(hull);
  MK_ASSERT(convex);
  if (!convex) return Fail<Polygon>(GeometryError::NotConvex);
  if (HasTinyEdge(hull))
    return Fail<Polygon>(GeometryError::TooFewPoints);  // convex, but below float's reach
  return BuildPolygon(hull, radius);
}

GeometryResult<Polygon> MakePolygon(Span<const Vec2> points, float radius) {
  if (GeometryError error = CheckRadius(radius); error != GeometryError::None) return Fail<Polygon>(error);
  GeometryResult<Hull> hull = ComputeHull(points);
  if (!hull.ok()) return Fail<Polygon>(hull.error);
  return BuildPolygon(hull.value, radius);
}

GeometryResult<Polygon> MakeOffsetBox(float halfWidth, float halfHeight, Vec2 center, float angle) {
  if (!IsFinite(halfWidth) || !IsFinite(halfHeight) || !IsFinite(center) || !IsFinite(angle)) {
    return Fail<Polygon>(GeometryError::NonFinite);
  }
  if (!(halfWidth > 0.0f) || !(halfHeight > 0.0f)) return Fail<Polygon>(GeometryError::NonPositiveSize);
  Transform xf = MakeTransform(center, angle);
  Vec2 corners[4] = {
      {-halfWidth, -halfHeight}, {halfWidth, -halfHeight}, {halfWidth, halfHeight}, {-halfWidth, halfHeight}};
  for (Vec2& corner : corners) corner = TransformPoint(xf, corner);
  return MakePolygon(corners, 0.0f);
}

GeometryResult<Polygon> MakeBox(float halfWidth, float halfHeight) {
  return MakeOffsetBox(halfWidth, halfHeight, {0.0f, 0.0f}, 0.0f);
}

GeometryResult<Polygon> MakeRoundedBox(float halfWidth, float halfHeight, float radius) {
  GeometryResult<Polygon> box = MakeBox(halfWidth, halfHeight);
  if (!box.ok()) return box;
  if (!IsFinite(radius)) return Fail<Polygon>(GeometryError::NonFinite);
  if (radius < 0.0f) return Fail<Polygon>(GeometryError::NegativeRadius);
  box.value.radius = radius;
  return box;
}

GeometryResult<Polygon> MakeRegularPolygon(int count, float circumradius, float radius) {
  if (!IsFinite(circumradius) || !IsFinite(radius)) return Fail<Polygon>(GeometryError::NonFinite);
  if (count > kMaxPolygonVertices) return Fail<Polygon>(GeometryError::TooManyVertices);
  if (count < 3 || !(circumradius > 0.0f)) return Fail<Polygon>(GeometryError::NonPositiveSize);
  Vec2 points[kMaxPolygonVertices];
  for (int i = 0; i < count; ++i) {
    // Angles in double so the vertices are (all but) the correctly rounded cos/sin, not accumulated error.
    double angle = 2.0 * std::numbers::pi * i / count;
    trig::SinCosResult direction = trig::SinCos(angle);
    points[i] = {static_cast<float>(circumradius * direction.c),
                 static_cast<float>(circumradius * direction.s)};
  }
  return MakePolygon(Span<const Vec2>(points, static_cast<std::size_t>(count)), radius);
}

GeometryResult<Circle> MakeCircle(Vec2 center, float radius) {
  if (!IsFinite(center) || !IsFinite(radius)) return Fail<Circle>(GeometryError::NonFinite);
  if (!(radius > 0.0f)) return Fail<Circle>(GeometryError::NegativeRadius);
  return {Circle{center, radius}, GeometryError::None};
}

GeometryResult<Capsule> MakeCapsule(Vec2 p1, Vec2 p2, float radius) {
  if (!IsFinite(p1) || !IsFinite(p2) || !IsFinite(radius)) return Fail<Capsule>(GeometryError::NonFinite);
  if (!(radius > 0.0f)) return Fail<Capsule>(GeometryError::NegativeRadius);
  if (Coincident(p1, p2)) return Fail<Capsule>(GeometryError::DegenerateSegment);
  return {Capsule{p1, p2, radius}, GeometryError::None};
}

GeometryResult<Segment> MakeSegment(Vec2 p1, Vec2 p2) {
  if (!IsFinite(p1) || !IsFinite(p2)) return Fail<Segment>(GeometryError::NonFinite);
  if (Coincident(p1, p2)) return Fail<Segment>(GeometryError::DegenerateSegment);
  return {Segment{p1, p2}, GeometryError::None};
}

}  // namespace mk
