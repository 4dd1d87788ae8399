// SPDX-License-Identifier: MIT
// Internal: the SAT face scan of the manifold path (collide_cores.cpp), the separation of one core
// from every face of another, on wide floats. Templates over the lane type (core/wide_float.h) so the
// tests compare the SIMD scan with its scalar twin; the engine instantiates them on wide::Float4.
#pragma once

#include "core/wide_float.h"
#include "narrowphase/manifold_internal.h"

#include <cfloat>

namespace mk {

/// Smallest Dot(points[j], n). From kLanes points on: kLanes products at a time in groups starting
/// at 0, kLanes, 2 kLanes, ... and a last group ending at count (overlapping the one before it when
/// count is not a multiple of kLanes; a minimum does not mind seeing a point twice). No branch
/// depends on the data, so the SAT scan of every face against every point runs at full throughput
/// instead of stalling on mispredicted comparisons. A NaN product may be dropped by Min;
/// FindMaxSeparation copes with non-finite input either way (see there).
template <wide::LaneType F = wide::Float4>
[[gnu::always_inline]] inline float MinDot(const Vec2* points, int count, Vec2 n) {
  constexpr int kLanes = F::kLanes;
  if (count >= kLanes) {
    const F d = F::SplatPair(n.x, n.y);
    F m = detail::Dots(points, d);
    for (int k = kLanes; k + kLanes <= count; k += kLanes) m = Min(m, detail::Dots(points + k, d));
    if (count % kLanes != 0) m = Min(m, detail::Dots(points + count - kLanes, d));
    return FirstLane(ReduceMin(m));
  }
  float best = Dot(points[0], n);
  for (int j = 1; j < count; ++j) {
    float s = Dot(points[j], n);
    best = s < best ? s : best;
  }
  return best;
}

/// Separation of core `b` from face `face` of core `a`: min_j n.(b_j - v) = min_j n.b_j - n.v. Both
/// cores are in the working frame (A's), where coordinates are of the size of the shapes, so the
/// subtraction loses no more than the shapes' own float resolution.
template <wide::LaneType F = wide::Float4>
[[gnu::always_inline]] inline float FaceSeparation(const Core& a, int face, const Core& b) {
  Vec2 n = a.normals[face];
  return MinDot<F>(b.points, b.count, n) - Dot(a.points[face], n);
}

/// The face of largest separation of a scan.
struct SatResult {
  float separation = -3.4e38f;  ///< core separation, radii not included
  int face = -1;
  bool onB = false;  ///< the face is on core b of FindMaxSeparation (a flipped scan)
};

namespace detail {

/// kLanes faces of `a` (first..first + kLanes) as registers: normals' x and y lanes, and their
/// offsets n.v.
template <wide::LaneType F>
struct FaceLanes {
  F nx, ny, offset;
};

template <wide::LaneType F>
[[gnu::always_inline]] inline FaceLanes<F> LoadFaces(const Core& a, int first) {
  constexpr int kHalf = F::kLanes / 2;
  const F n0 = F::LoadPairs(a.normals + first), n1 = F::LoadPairs(a.normals + first + kHalf);
  const F v0 = F::LoadPairs(a.points + first), v1 = F::LoadPairs(a.points + first + kHalf);
  FaceLanes<F> f;
  f.nx = Evens(n0, n1);
  f.ny = Odds(n0, n1);
  f.offset = f.nx * Evens(v0, v1) + f.ny * Odds(v0, v1);
  return f;
}

/// n.p for kLanes faces at once, in Dot's order (x product plus y product).
template <wide::LaneType F>
[[gnu::always_inline]] inline F FaceDots(const FaceLanes<F>& f, F px, F py) {
  return f.nx * px + f.ny * py;
}

/// Separations of the face groups starting at first[0..kGroups) (kLanes faces each) of `a` from core
/// `b`: each point of `b` is broadcast once and tested against every group (two products, an add and
/// a min per group), so the scan has no data-dependent branch. Even and odd points keep separate
/// minima, halving the chain of dependent mins (its latency is what the scan waits on).
template <wide::LaneType F, int kGroups>
[[gnu::always_inline]] inline void GroupSeparations(const Core& a, const int (&first)[kGroups], const Core& b,
                                                    F (&out)[kGroups]) {
  FaceLanes<F> f[kGroups];
  F even[kGroups], odd[kGroups];
  for (int g = 0; g < kGroups; ++g) {
    f[g] = LoadFaces<F>(a, first[g]);
    even[g] = odd[g] = F::Splat(FLT_MAX);
  }
  int j = 0;
  for (; j + 2 <= b.count; j += 2) {
    const F px = F::Splat(b.points[j].x), py = F::Splat(b.points[j].y);
    const F qx = F::Splat(b.points[j + 1].x), qy = F::Splat(b.points[j + 1].y);
    for (int g = 0; g < kGroups; ++g) {
      even[g] = Min(even[g], FaceDots(f[g], px, py));
      odd[g] = Min(odd[g], FaceDots(f[g], qx, qy));
    }
  }
  if (j < b.count) {
    const F px = F::Splat(b.points[j].x), py = F::Splat(b.points[j].y);
    for (int g = 0; g < kGroups; ++g) even[g] = Min(even[g], FaceDots(f[g], px, py));
  }
  for (int g = 0; g < kGroups; ++g) out[g] = Min(even[g], odd[g]) - f[g].offset;
}

/// A scan's answer from wide::ArgMax: a NaN maximum leaves face -1, which FindMaxSeparation handles.
[[gnu::always_inline]] inline SatResult ToSatResult(wide::LaneMax best, bool onB) {
  SatResult r;
  r.onB = onB;
  r.face = best.index;
  r.separation = best.index >= 0 ? best.value : r.separation;
  return r;
}

}  // namespace detail

/// Face of largest separation among `a`'s faces from `b` (none for a 1-point core), the lowest index
/// on ties. `onB` is copied into the result. Inlined into its caller: returned from a call, g++ 12
/// packed the 12-byte result through the stack with narrow stores and wide loads, and the failed
/// store-to-load forwards were half of this function's samples (tumbler, perf).
template <wide::LaneType F = wide::Float4>
[[gnu::always_inline]] inline SatResult MaxFaceSeparation(const Core& a, const Core& b, bool onB) {
  constexpr int kLanes = F::kLanes;
  const int faces = a.count < 2 ? 0 : a.count;
  // kLanes..2 kLanes faces (boxes to octagons on Float4, the common case) stay in two registers: the
  // second group ends at `faces` and overlaps the first when faces < 2 kLanes (a face computed twice
  // gets the same value). Boxes, the commonest shape of all, fill one register.
  if (faces == kLanes) {
    F s[1];
    detail::GroupSeparations<F, 1>(a, {0}, b, s);
    return detail::ToSatResult(wide::ArgMax(s[0]), onB);
  }
  if (faces > kLanes && faces <= 2 * kLanes) {
    const int g1 = faces - kLanes;
    F s[2];
    detail::GroupSeparations<F, 2>(a, {0, g1}, b, s);
    return detail::ToSatResult(wide::ArgMax(s, {0, g1}), onB);
  }
  SatResult best;
  best.onB = onB;
  float separations[kMaxPolygonVertices];
  int computed = 0;
  // More faces: pairs of groups through memory, a group past the end moved back to end at `faces` as
  // above.
  if (faces > 2 * kLanes) {
    for (int first = 0; first < faces; first += 2 * kLanes) {
      const int g0 = first + kLanes <= faces ? first : faces - kLanes;
      const int g1 = first + 2 * kLanes <= faces ? first + kLanes : faces - kLanes;
      F s[2];
      detail::GroupSeparations<F, 2>(a, {g0, g1}, b, s);
      // Second group first: where the groups overlap both hold the same values anyway.
      Store(separations + g1, s[1]);
      Store(separations + g0, s[0]);
    }
    computed = faces;
  }
  for (int i = computed; i < faces; ++i) separations[i] = FaceSeparation<F>(a, i, b);
  // Conditional moves: which face wins is data-dependent, so a branch would mispredict often.
  for (int i = 0; i < faces; ++i) {
    bool better = separations[i] > best.separation;
    best.face = better ? i : best.face;
    best.separation = better ? separations[i] : best.separation;
  }
  return best;
}

}  // namespace mk
