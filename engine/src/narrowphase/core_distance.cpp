// Core distance for the manifold code.
//
// TEMPORARY: an exact brute-force distance (every edge pair) used until the GJK in
// minkowski/distance.h lands; it is then replaced by a thin adapter over GJK with the SimplexCache.
#include "narrowphase/manifold_internal.h"

namespace mk {

namespace {

struct PointPair {
  Vec2 a;
  Vec2 b;
  float distanceSquared;
};

// Closest point to p on segment s1-s2.
Vec2 ClosestOnSegment(Vec2 p, Vec2 s1, Vec2 s2) {
  Vec2 e = s2 - s1;
  float ee = Dot(e, e);
  if (ee <= 0.0f) return s1;
  float t = Dot(p - s1, e) / ee;
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  return s1 + t * e;
}

// Closest points of segments a1-a2 and b1-b2. In 2D, two segments that do not cross have a closest
// pair with at least one end point, so four point-segment queries plus a crossing test are exact.
PointPair SegmentSegment(Vec2 a1, Vec2 a2, Vec2 b1, Vec2 b2) {
  Vec2 ea = a2 - a1;
  Vec2 eb = b2 - b1;
  float denom = Cross(ea, eb);
  if (denom != 0.0f) {
    float s = Cross(b1 - a1, eb) / denom;
    float t = Cross(b1 - a1, ea) / denom;
    if (s >= 0.0f && s <= 1.0f && t >= 0.0f && t <= 1.0f) {
      Vec2 x = a1 + s * ea;
      return {x, x, 0.0f};
    }
  }
  PointPair best{a1, ClosestOnSegment(a1, b1, b2), 0.0f};
  best.distanceSquared = DistanceSquared(best.a, best.b);
  auto consider = [&best](Vec2 pa, Vec2 pb) {
    float d2 = DistanceSquared(pa, pb);
    if (d2 < best.distanceSquared) best = {pa, pb, d2};
  };
  consider(a2, ClosestOnSegment(a2, b1, b2));
  consider(ClosestOnSegment(b1, a1, a2), b1);
  consider(ClosestOnSegment(b2, a1, a2), b2);
  return best;
}

bool InsidePolygon(const Core& c, Vec2 p) {
  if (c.count < 3) return false;
  for (int i = 0; i < c.count; ++i) {
    if (Dot(p - c.points[i], c.normals[i]) > 0.0f) return false;
  }
  return true;
}

int EdgeCount(const Core& c) { return c.count == 1 ? 1 : (c.count == 2 ? 1 : c.count); }

}  // namespace

CoreDistance ComputeCoreDistance(const Core& a, const Core& b, SimplexCache* /*cache*/) {
  if (InsidePolygon(a, b.points[0])) return {b.points[0], b.points[0], 0.0f};
  if (InsidePolygon(b, a.points[0])) return {a.points[0], a.points[0], 0.0f};
  PointPair best{{0.0f, 0.0f}, {0.0f, 0.0f}, 3.4e38f};
  for (int i = 0; i < EdgeCount(a); ++i) {
    Vec2 a1 = a.points[i];
    Vec2 a2 = a.points[i + 1 < a.count ? i + 1 : 0];
    for (int j = 0; j < EdgeCount(b); ++j) {
      Vec2 b1 = b.points[j];
      Vec2 b2 = b.points[j + 1 < b.count ? j + 1 : 0];
      PointPair pair = SegmentSegment(a1, a2, b1, b2);
      if (pair.distanceSquared < best.distanceSquared) best = pair;
    }
  }
  return {best.a, best.b, std::sqrt(best.distanceSquared)};
}

}  // namespace mk
