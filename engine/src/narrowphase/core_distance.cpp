// Core distance for the manifold code: GJK (gjk.cpp) run in A's frame through its internal entry
// point RunGjk, which takes B's core in B's own frame plus the relative transform. That lets a pair
// beyond the speculative distance leave without ever transforming B's polygon, and avoids the
// world-frame conversions and status classification of the public ShapeDistance.
#include "narrowphase/gjk_internal.h"
#include "narrowphase/manifold_internal.h"

namespace mk {

CoreDistance ComputeCoreDistance(const Core& a, const Core& bLocal, const Transform& bToA, SimplexCache* cache) {
  const detail::LocalPair pair{a.points, bLocal.points, a.count, bLocal.count, bToA};
  const detail::GjkResult gjk = detail::RunGjk(pair, cache, nullptr, Transform{});
  const detail::LocalSimplex& s = gjk.simplex;
  detail::WriteCache(s, gjk.iterations, cache);
  const detail::WitnessPoints witnesses = detail::Witnesses(s);
  CoreDistance out;
  out.pointA = witnesses.pointA;
  out.pointB = witnesses.pointB;
  if (gjk.overlap) return out;  // distance 0, normal unused
  if (s.count == 2) {
    // The simplex edge's perpendicular is a more accurate direction than the witness difference
    // (which loses digits when the cores nearly touch).
    // The Minkowski difference is A - B, so the direction from the simplex towards the origin is
    // the direction from A to B.
    Vec2 n = Normalize(LeftPerp(s.v[1].w - s.v[0].w));
    if (Dot(n, s.v[0].w) > 0.0f) n = -n;
    out.normal = n;
    out.distance = -Dot(n, s.v[0].w);
  } else {
    out.distance = Length(out.pointB - out.pointA);
    out.normal = out.distance > 0.0f ? (1.0f / out.distance) * (out.pointB - out.pointA) : Vec2{0.0f, 1.0f};
  }
  return out;
}

}  // namespace mk
