// SPDX-License-Identifier: MIT
// Core distance for the manifold code: GJK (gjk.cpp) run in A's frame through its internal entry
// point RunGjk, which takes B's core in B's own frame plus the relative transform. That lets a pair
// beyond the speculative distance leave without ever transforming B's polygon, and avoids the
// world-frame conversions and status classification of the public ShapeDistance.
#include "narrowphase/gjk_internal.h"
#include "narrowphase/manifold_internal.h"

namespace mk {

CoreDistance ComputeCoreDistance(const Core& a, const Core& bLocal, const Transform& bToA,
                                 SimplexCache* cache) {
  const detail::LocalPair pair{a.points, bLocal.points, a.count, bLocal.count, bToA};
  const detail::GjkResult gjk = detail::RunGjk(pair, cache, nullptr, Transform{});
  const detail::LocalSimplex& s = gjk.simplex;
  detail::WriteCache(s, gjk.iterations, cache);
  CoreDistance out;
  if (gjk.overlap) {
    const detail::WitnessPoints witnesses = detail::Witnesses(s);
    out.pointA = witnesses.pointA;
    out.pointB = witnesses.pointB;
    return out;  // distance 0, normal unused
  }
  // The same outputs as ShapeDistance's (gjk_internal.h): the edge perpendicular as the normal.
  const detail::LocalSeparation sep = detail::Separation(s, gjk.edge);
  out.pointA = sep.pointA;
  out.pointB = sep.pointB;
  out.normal = sep.distance > 0.0f ? sep.normal : Vec2{0.0f, 1.0f};
  out.distance = sep.distance;
  return out;
}

}  // namespace mk
