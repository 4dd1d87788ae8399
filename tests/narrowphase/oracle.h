// SPDX-License-Identifier: MIT
// Brute-force oracles for distance tests, in double precision and independent of GJK/EPA:
//  - core distance by exhaustive feature pairs (segment-segment distances, plus a containment test
//    for overlap), which is exact for convex cores of 1, 2 or more points;
//  - polygon penetration depth by separating axes over every edge normal of both polygons;
//  - signed distance from a point to a core (for "the witness point lies on the shape");
//  - the closest pair of points and the separating direction;
//  - the size (reach from the body origin) that accuracy is measured against.
// Shared read-only with the manifold tests.
#pragma once

#include "minkowski/geometry.h"
#include "test_util.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace mk::oracle {

struct DVec2 {
  double x = 0.0;
  double y = 0.0;
};

inline DVec2 operator-(DVec2 a, DVec2 b) { return {a.x - b.x, a.y - b.y}; }
inline DVec2 operator+(DVec2 a, DVec2 b) { return {a.x + b.x, a.y + b.y}; }
inline DVec2 operator*(double s, DVec2 a) { return {s * a.x, s * a.y}; }
inline double DDot(DVec2 a, DVec2 b) { return a.x * b.x + a.y * b.y; }
inline double DCross(DVec2 a, DVec2 b) { return a.x * b.y - a.y * b.x; }
inline double DLength(DVec2 a) { return std::sqrt(DDot(a, a)); }

/// A core in world coordinates (double), counter-clockwise when it has 3+ points, and its radius.
struct WorldShape {
  std::vector<DVec2> points;
  double radius = 0.0;
};

/// The proxy's points placed by the transform, computed in double from the float inputs.
inline WorldShape Place(const ShapeProxy& proxy, const Transform& xf) {
  WorldShape s;
  s.radius = proxy.radius;
  for (int i = 0; i < proxy.count; ++i) {
    double x = proxy.points[i].x;
    double y = proxy.points[i].y;
    double c = xf.q.c;
    double sn = xf.q.s;
    s.points.push_back({c * x - sn * y + xf.p.x, sn * x + c * y + xf.p.y});
  }
  return s;
}

inline double PointSegmentDistance(DVec2 p, DVec2 a, DVec2 b) {
  DVec2 e = b - a;
  double ee = DDot(e, e);
  double t = ee > 0.0 ? std::clamp(DDot(p - a, e) / ee, 0.0, 1.0) : 0.0;
  return DLength(p - (a + t * e));
}

inline bool SegmentsCross(DVec2 a, DVec2 b, DVec2 c, DVec2 d) {
  double d1 = DCross(b - a, c - a);
  double d2 = DCross(b - a, d - a);
  double d3 = DCross(d - c, a - c);
  double d4 = DCross(d - c, b - c);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

inline double SegmentSegmentDistance(DVec2 a, DVec2 b, DVec2 c, DVec2 d) {
  if (SegmentsCross(a, b, c, d)) return 0.0;
  return std::min({PointSegmentDistance(a, c, d), PointSegmentDistance(b, c, d),
                   PointSegmentDistance(c, a, b), PointSegmentDistance(d, a, b)});
}

/// Features of a core as segments: a point is a zero-length segment, 2 points one segment, a
/// polygon its edges.
inline int FeatureCount(const WorldShape& s) {
  return s.points.size() <= 2 ? 1 : static_cast<int>(s.points.size());
}
inline void Feature(const WorldShape& s, int i, DVec2& a, DVec2& b) {
  a = s.points[i];
  b = s.points.size() == 1 ? s.points[0] : s.points[(i + 1) % s.points.size()];
}

/// True when p is strictly inside a polygon core (3+ points, counter-clockwise).
inline bool Inside(const WorldShape& s, DVec2 p) {
  if (s.points.size() < 3) return false;
  for (size_t i = 0; i < s.points.size(); ++i) {
    if (DCross(s.points[(i + 1) % s.points.size()] - s.points[i], p - s.points[i]) <= 0.0) return false;
  }
  return true;
}

/// Distance between two cores (0 when they intersect): the minimum over feature pairs, after a
/// containment test (convex sets intersect iff their boundaries meet or one holds a vertex of the other).
inline double CoreDistance(const WorldShape& a, const WorldShape& b) {
  if (Inside(a, b.points[0]) || Inside(b, a.points[0])) return 0.0;
  double best = INFINITY;
  for (int i = 0; i < FeatureCount(a); ++i) {
    DVec2 a1, a2;
    Feature(a, i, a1, a2);
    for (int j = 0; j < FeatureCount(b); ++j) {
      DVec2 b1, b2;
      Feature(b, j, b1, b2);
      best = std::min(best, SegmentSegmentDistance(a1, a2, b1, b2));
    }
  }
  return best;
}

/// Signed distance from p to a core: negative inside a polygon core.
inline double SignedDistanceToCore(const WorldShape& s, DVec2 p) {
  double best = INFINITY;
  for (int i = 0; i < FeatureCount(s); ++i) {
    DVec2 a, b;
    Feature(s, i, a, b);
    best = std::min(best, PointSegmentDistance(p, a, b));
  }
  return Inside(s, p) ? -best : best;
}

/// Signed distance from p to the shape's surface (core + radius).
inline double SignedDistanceToSurface(const WorldShape& s, DVec2 p) {
  return SignedDistanceToCore(s, p) - s.radius;
}

/// Minimum translation distance of two overlapping polygon cores (3+ points each) by SAT over all
/// edge normals: min over axes n of (max_A n.a - min_B n.b). Negative when they are separated.
inline double PolygonPenetration(const WorldShape& a, const WorldShape& b, DVec2* normalOut = nullptr) {
  double best = INFINITY;
  auto test = [&](const WorldShape& s, double sign) {
    for (size_t i = 0; i < s.points.size(); ++i) {
      DVec2 e = s.points[(i + 1) % s.points.size()] - s.points[i];
      double len = DLength(e);
      if (len == 0.0) continue;
      DVec2 n = (sign / len) * DVec2{e.y, -e.x};
      double maxA = -INFINITY;
      double minB = INFINITY;
      for (DVec2 p : a.points) maxA = std::max(maxA, DDot(n, p));
      for (DVec2 p : b.points) minB = std::min(minB, DDot(n, p));
      if (maxA - minB < best) {
        best = maxA - minB;
        if (normalOut) *normalOut = n;
      }
    }
  };
  test(a, 1.0);
  test(b, -1.0);
  return best;
}

inline DVec2 ToD(Vec2 v) { return {v.x, v.y}; }

/// Penetration depth of two overlapping cores of any kind by separating axes: PolygonPenetration,
/// whose axes cover every edge direction of the Minkowski difference for any cores (a 2-point core
/// gives its segment's normal both ways, a 1-point core none). Two 1-point cores overlap only when
/// they coincide: depth 0.
inline double CorePenetration(const WorldShape& a, const WorldShape& b, DVec2* normalOut = nullptr) {
  if (a.points.size() == 1 && b.points.size() == 1) return 0.0;
  return PolygonPenetration(a, b, normalOut);
}

/// The "size" that accuracy is measured against (metres): the reach of the shape from its body
/// origin, max |core point| in the shape's own frame plus the radius. Float coordinates of the
/// shape are only as fine as eps x this, wherever the body is placed (queries run in A's frame).
/// For a centred segment of length L it is L / 2.
inline double Extent(const ShapeProxy& proxy) {
  double m = 0.0;
  for (int i = 0; i < proxy.count; ++i) m = std::max(m, DLength(ToD(proxy.points[i])));
  return m + proxy.radius;
}

/// The closest pair of points of two separated cores, found among every vertex-vertex pair and
/// every vertex against the inside of an edge of the other core (the foot of the perpendicular
/// strictly between the edge's ends), in double.
struct ClosestPair {
  double distance = INFINITY;
  DVec2 pointA;
  DVec2 pointB;
  bool vertexPair = false;  ///< the closest points are a vertex of each core
  /// Unit separating direction, from A to B.
  DVec2 Normal() const { return (1.0 / distance) * (pointB - pointA); }
};

inline ClosestPair Closest(const WorldShape& a, const WorldShape& b) {
  ClosestPair best;
  auto consider = [&best](DVec2 p, DVec2 q, bool vertexPair) {
    double d = DLength(q - p);
    if (d < best.distance) best = {d, p, q, vertexPair};
  };
  for (DVec2 p : a.points) {
    for (DVec2 q : b.points) consider(p, q, true);
  }
  // Vertex of `from` against the inside of each edge of `to` (a 2-point core has one edge).
  auto vertexEdge = [&consider](const WorldShape& from, const WorldShape& to, bool fromIsA) {
    if (to.points.size() < 2) return;
    for (int i = 0; i < FeatureCount(to); ++i) {
      DVec2 e1, e2;
      Feature(to, i, e1, e2);
      DVec2 e = e2 - e1;
      for (DVec2 p : from.points) {
        double t = DDot(p - e1, e) / DDot(e, e);
        if (!(t > 0.0 && t < 1.0)) continue;
        DVec2 foot = e1 + t * e;
        if (fromIsA) {
          consider(p, foot, false);
        } else {
          consider(foot, p, false);
        }
      }
    }
  };
  vertexEdge(a, b, true);
  vertexEdge(b, a, false);
  return best;
}

// ---------------------------------------------------------------------------------------------
// Random shapes of every kind, for property tests
// ---------------------------------------------------------------------------------------------

/// Circle, capsule, segment, sharp polygon, rounded polygon.
enum class Kind { Circle, Capsule, Segment, SharpPolygon, RoundedPolygon, Count };

/// A random test shape: its geometry, the kind it was drawn as (which tells sharp and rounded
/// polygons apart) and its rough radius `size` (metres).
struct TestShape {
  Kind kind = Kind::Circle;
  ShapeGeometry geometry;
  float size = 1.0f;

  ShapeProxy Proxy() const { return MakeProxy(geometry); }
};

/// A random convex polygon core of 3..maxCount vertices within `size` of the origin.
inline Polygon RandomPolygon(test::Rng& rng, float size, int maxCount, float radius) {
  for (;;) {
    int count = rng.Int(3, maxCount);
    std::vector<Vec2> ring(count);
    for (int i = 0; i < count; ++i) {
      double a = 2.0 * std::numbers::pi * (i + 0.6 * rng.Unit()) / count;
      float r = size * rng.Uniform(0.3f, 1.0f);
      ring[i] = {static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))};
    }
    GeometryResult<Polygon> polygon = MakePolygon(ring, radius);
    if (polygon.ok()) return polygon.value;
  }
}

/// A random shape of the given kind with its size log-uniform in [minSize, maxSize] metres.
inline TestShape RandomShape(test::Rng& rng, Kind kind, float minSize, float maxSize) {
  TestShape s;
  s.kind = kind;
  s.size = rng.LogUniform(minSize, maxSize);
  float radius = s.size * rng.Uniform(0.05f, 0.5f);
  Vec2 half = 0.5f * s.size * rng.Direction();
  switch (kind) {
    case Kind::Circle:
      s.geometry = Circle{0.3f * s.size * rng.Direction(), radius};
      break;
    case Kind::Capsule:
      s.geometry = Capsule{-half, half, radius};
      break;
    case Kind::Segment:
      s.geometry = Segment{-half, half};
      break;
    case Kind::SharpPolygon:
      s.geometry = RandomPolygon(rng, s.size, 10, 0.0f);
      break;
    default:
      s.geometry = RandomPolygon(rng, s.size, 10, radius);
      break;
  }
  return s;
}

}  // namespace mk::oracle
