// SPDX-License-Identifier: MIT
// Mass properties of every shape, exact for rounded shapes.
//
// A polygon rounded by r is its core grown by r (a Minkowski sum with a disc). That region splits
// exactly into pieces we can integrate in closed form:
//   1. the core plus the rectangles its edges sweep: a simple (notched, not convex) polygon with the
//      three vertices v_i + r n_{i-1}, v_i, v_i + r n_i at every core vertex; the signed-area fan
//      formula is exact for any simple polygon;
//   2. one disc sector at every vertex v_i, of radius r, spanning the angle from n_{i-1} to n_i,
//      which fills the notch exactly.
// The sectors' angles add up to 2 pi, so the area is A + P r + pi r^2 as expected. A capsule is the
// same construction on a two-vertex core (its two sectors are half discs).
#include "core/trig.h"
#include "geometry/polygon_math.h"
#include "minkowski/geometry.h"

#include <cmath>
#include <numbers>

namespace mk {
namespace {

// Running sums of mass, first moment and second moment about the origin, so pieces can be added.
struct MassAccumulator {
  double mass = 0.0;
  double momentX = 0.0, momentY = 0.0;  // integral of x and y
  double inertiaOrigin = 0.0;           // integral of |x|^2 about the origin

  MassData Finish() const {
    MassData data;
    data.mass = static_cast<float>(mass);
    if (mass > 0.0) {
      double cx = momentX / mass, cy = momentY / mass;
      data.center = {static_cast<float>(cx), static_cast<float>(cy)};
      data.rotationalInertia = static_cast<float>(inertiaOrigin - mass * (cx * cx + cy * cy));
    }
    return data;
  }
};

// Adds a simple counter-clockwise polygon by a signed triangle fan around its first vertex (double
// precision: the notched polygons of thin shapes have sliver triangles).
void AddPolygon(MassAccumulator& acc, const Vec2* points, int count, double density) {
  const double ox = points[0].x, oy = points[0].y;
  double area = 0.0, mx = 0.0, my = 0.0, inertia = 0.0;  // relative to the origin o = points[0]
  for (int i = 1; i + 1 < count; ++i) {
    double ax = points[i].x - ox, ay = points[i].y - oy;
    double bx = points[i + 1].x - ox, by = points[i + 1].y - oy;
    double cross = ax * by - ay * bx;
    double triArea = 0.5 * cross;
    area += triArea;
    mx += triArea * (ax + bx) / 3.0;
    my += triArea * (ay + by) / 3.0;
    // Second moment of triangle (o, a, b) about o: area/6 * (a.a + a.b + b.b).
    inertia += triArea / 6.0 * (ax * ax + ax * bx + bx * bx + ay * ay + ay * by + by * by);
  }
  // Shift the second moment from o to the world origin: I_0 = I_o + 2 o.M_o + m |o|^2.
  acc.mass += density * area;
  acc.momentX += density * (mx + area * ox);
  acc.momentY += density * (my + area * oy);
  acc.inertiaOrigin += density * (inertia + 2.0 * (ox * mx + oy * my) + area * (ox * ox + oy * oy));
}

// Adds a disc sector with apex `apex`, radius r, from direction angle a0 spanning `span` radians.
// About its apex a sector has second moment r^4 span / 4 and first moment (2/3) r^3 sin(span/2)
// along its bisector.
void AddSector(MassAccumulator& acc, Vec2 apex, double r, double a0, double span, double density) {
  if (span <= 0.0 || r <= 0.0) return;
  double area = 0.5 * r * r * span;
  double bisector = a0 + 0.5 * span;
  double firstMoment = (2.0 / 3.0) * r * r * r * trig::SinCos(0.5 * span).s;  // = area * centroid distance
  trig::SinCosResult direction = trig::SinCos(bisector);
  double mx = firstMoment * direction.c, my = firstMoment * direction.s;
  double ax = apex.x, ay = apex.y;
  acc.mass += density * area;
  acc.momentX += density * (mx + area * ax);
  acc.momentY += density * (my + area * ay);
  acc.inertiaOrigin +=
      density * (0.25 * r * r * r * r * span + 2.0 * (ax * mx + ay * my) + area * (ax * ax + ay * ay));
}

// Angle from unit normal n0 counter-clockwise to unit normal n1, in [0, 2 pi).
double TurnAngle(Vec2 n0, Vec2 n1) {
  double angle = trig::Atan2(static_cast<double>(Cross(n0, n1)), static_cast<double>(Dot(n0, n1)));
  return angle < 0.0 ? angle + 2.0 * std::numbers::pi : angle;
}

// The rounded region of a convex core (count >= 2 points, CCW; normals[i] is the outward normal of
// edge i -> i+1). With count == 2 this is a capsule: two edges with opposite normals.
MassData RoundedMass(const Vec2* points, const Vec2* normals, int count, float radius, float density) {
  MassAccumulator acc;
  Vec2 notched[3 * kMaxPolygonVertices] = {};
  for (int i = 0; i < count; ++i) {
    Vec2 prevNormal = normals[(i + count - 1) % count];
    notched[3 * i] = points[i] + radius * prevNormal;
    notched[3 * i + 1] = points[i];
    notched[3 * i + 2] = points[i] + radius * normals[i];
  }
  AddPolygon(acc, notched, 3 * count, density);
  for (int i = 0; i < count; ++i) {
    Vec2 n0 = normals[(i + count - 1) % count];
    double a0 = trig::Atan2(static_cast<double>(n0.y), static_cast<double>(n0.x));
    AddSector(acc, points[i], radius, a0, TurnAngle(n0, normals[i]), density);
  }
  return acc.Finish();
}

template <class T>
GeometryResult<T> Fail(GeometryError error) {
  GeometryResult<T> result;
  result.error = error;
  return result;
}

GeometryError CheckDensity(float density) {
  if (!IsFinite(density)) return GeometryError::NonFinite;
  if (density < 0.0f) return GeometryError::NegativeDensity;
  return GeometryError::None;
}

}  // namespace

MassData ComputePolygonMass(const Vec2* points, int count, float density) {
  MassAccumulator unit;  // unit density, so a zero density still yields the area centroid
  AddPolygon(unit, points, count, 1.0);
  MassData data = unit.Finish();
  data.mass *= density;
  data.rotationalInertia *= density;
  if (!(unit.mass > 0.0)) {  // zero area: fall back to the vertex average as the centre
    Vec2 sum{0.0f, 0.0f};
    for (int i = 0; i < count; ++i) sum += points[i];
    data.center = sum / static_cast<float>(count > 0 ? count : 1);
  }
  return data;
}

GeometryResult<MassData> ComputeMass(const Circle& circle, float density) {
  if (GeometryError e = CheckDensity(density); e != GeometryError::None) return Fail<MassData>(e);
  double r2 = static_cast<double>(circle.radius) * circle.radius;
  double mass = density * std::numbers::pi * r2;
  return {MassData{static_cast<float>(mass), circle.center, static_cast<float>(0.5 * mass * r2)},
          GeometryError::None};
}

GeometryResult<MassData> ComputeMass(const Capsule& capsule, float density) {
  if (GeometryError e = CheckDensity(density); e != GeometryError::None) return Fail<MassData>(e);
  Vec2 points[2] = {capsule.p1, capsule.p2};
  Vec2 side = Normalize(RightPerp(capsule.p2 - capsule.p1));
  Vec2 normals[2] = {side, -side};
  return {RoundedMass(points, normals, 2, capsule.radius, density), GeometryError::None};
}

GeometryResult<MassData> ComputeMass(const Polygon& polygon, float density) {
  if (GeometryError e = CheckDensity(density); e != GeometryError::None) return Fail<MassData>(e);
  if (polygon.radius > 0.0f) {
    return {RoundedMass(polygon.vertices, polygon.normals, polygon.count, polygon.radius, density),
            GeometryError::None};
  }
  return {ComputePolygonMass(polygon.vertices, polygon.count, density), GeometryError::None};
}

GeometryResult<MassData> ComputeMass(const Segment& segment, float density) {
  if (GeometryError e = CheckDensity(density); e != GeometryError::None) return Fail<MassData>(e);
  return {MassData{0.0f, 0.5f * (segment.p1 + segment.p2), 0.0f}, GeometryError::None};
}

GeometryResult<MassData> ComputeMass(const ChainSegment& segment, float density) {
  return ComputeMass(segment.segment, density);
}

GeometryResult<MassData> ComputeMass(const ShapeGeometry& shape, float density) {
  switch (shape.Type()) {
    case ShapeType::Circle:
      return ComputeMass(shape.AsCircle(), density);
    case ShapeType::Capsule:
      return ComputeMass(shape.AsCapsule(), density);
    case ShapeType::Segment:
      return ComputeMass(shape.AsSegment(), density);
    case ShapeType::ChainSegment:
      return ComputeMass(shape.AsChainSegment(), density);
    case ShapeType::Polygon:
      break;
    default:
      return Fail<MassData>(GeometryError::TooFewPoints);
  }
  // The polygon's core in place (no 1 KB Polygon copy): the same arithmetic as the Polygon overload.
  if (GeometryError e = CheckDensity(density); e != GeometryError::None) return Fail<MassData>(e);
  if (shape.Radius() > 0.0f) {
    return {RoundedMass(shape.Points(), shape.Normals(), shape.Count(), shape.Radius(), density),
            GeometryError::None};
  }
  return {ComputePolygonMass(shape.Points(), shape.Count(), density), GeometryError::None};
}

}  // namespace mk
