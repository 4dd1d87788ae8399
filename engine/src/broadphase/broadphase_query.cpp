// SPDX-License-Identifier: MIT
// Minkowski — broadphase queries (AABB, ordered ray cast) and debug drawing.
#include "broadphase/broadphase_impl.h"
#include "geometry/segment_box.h"
#include "minkowski/assert.h"
#include "minkowski/debug_draw.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace mk {

namespace {

// Min-heap order on (t, proxy): the visiting order, ties broken by slot for determinism.
bool HeapAfter(const RayItem& x, const RayItem& y) { return x.t > y.t || (x.t == y.t && x.proxy > y.proxy); }

}  // namespace

void BroadPhase::QueryAABB(const AABB& box, QueryFn fn, void* context) const {
  QueryAABBImpl(box, fn, context, /*restingOnly=*/false);
}

void BroadPhase::QueryRestingAABB(const AABB& box, QueryFn fn, void* context) const {
  QueryAABBImpl(box, fn, context, /*restingOnly=*/true);
}

void BroadPhase::QueryStaticAABB(const AABB& box, QueryFn fn, void* context) const {
  const bool valid = mk::IsValid(box) && fn != nullptr;
  MK_ASSERT(valid);
  if (!valid) return;
  // No Sync and no stamps: it writes nothing, so the continuous stage's sweeps may query from
  // several workers at once.
  const Impl& s = *impl_;
  s.ForEachOverlap</*kOnce=*/true>(
      box, [&](std::int32_t proxy) { return fn(s.IdOf(proxy), s.slots[proxy].userData, context); },
      /*restingOnly=*/true);
}

void BroadPhase::QueryAABBImpl(const AABB& box, QueryFn fn, void* context, bool restingOnly,
                               bool sync) const {
  const bool valid = mk::IsValid(box) && fn != nullptr;
  MK_ASSERT(valid);
  if (!valid) return;
  Impl& s = *impl_;
  if (sync) s.Sync();
  const std::uint32_t t = s.NextTag();
  s.ForEachOverlap(
      box,
      [&](std::int32_t proxy) {
        if (s.stamp[proxy] == t) return true;
        s.stamp[proxy] = t;
        return fn(s.IdOf(proxy), s.slots[proxy].userData, context);
      },
      restingOnly);
}

void BroadPhase::RayCast(const RayCastInput& input, RayCastFn fn, void* context) const {
  const bool valid = IsFinite(input.origin) && IsFinite(input.translation) &&
                     std::isfinite(input.maxFraction) && fn != nullptr;
  MK_ASSERT(valid);
  if (!valid || input.maxFraction < 0.0f) return;
  impl_->Sync();
  impl_->RayCast<false>(input, {0.0f, 0.0f}, fn, context);
}

void BroadPhase::BoxCast(const RayCastInput& input, Vec2 halfExtents, RayCastFn fn, void* context) const {
  const bool valid = IsFinite(input.origin) && IsFinite(input.translation) &&
                     std::isfinite(input.maxFraction) && IsFinite(halfExtents) && halfExtents.x >= 0.0f &&
                     halfExtents.y >= 0.0f && fn != nullptr;
  MK_ASSERT(valid);
  if (!valid || input.maxFraction < 0.0f) return;
  impl_->Sync();
  impl_->RayCast<true>(input, halfExtents, fn, context);
}

// Bands are visited in order along the ray. A proxy is listed in the band holding its entry point,
// so after scanning band b every proxy entered before the ray leaves band b has been found: the heap
// may then release those (minus a tolerance for the rounding of band edges). Early termination thus
// skips whole bands, not just callbacks. A box cast (extent > 0) walks the bands of the box's centre
// the same way; at each it scans the bands and the sweep range the box covers while its centre is in
// the band, where every fat box it touches there is listed.
template <bool kBox>
void BroadPhase::Impl::RayCast(const RayCastInput& input, Vec2 extent, RayCastFn fn, void* context) {
  const Vec2 p = input.origin, d = input.translation;
  float maxFraction = input.maxFraction;
  const std::uint32_t t = NextTag();
  heap.clear();
  auto consider = [&](std::int32_t proxy) {
    if (stamp[proxy] == t) return;
    float entry;
    if constexpr (kBox) {
      entry = SegmentEntry(p, d, maxFraction, AABB{fat[proxy].lower - extent, fat[proxy].upper + extent});
    } else {
      entry = SegmentEntry(p, d, maxFraction, fat[proxy]);
    }
    if (entry < 0.0f) return;
    stamp[proxy] = t;
    heap.push_back({entry, proxy});
    std::push_heap(heap.begin(), heap.end(), HeapAfter);
  };
  // Visits heap items entered at or before `limit`; returns false once the callback stopped the cast.
  auto release = [&](float limit) {
    while (!heap.empty() && heap.front().t <= limit && heap.front().t <= maxFraction) {
      const RayItem item = heap.front();
      std::pop_heap(heap.begin(), heap.end(), HeapAfter);
      heap.pop_back();
      const float answer = fn(IdOf(item.proxy), slots[item.proxy].userData, input, item.t, context);
      if (answer == 0.0f) return false;
      if (answer > 0.0f) maxFraction = std::min(maxFraction, answer);
    }
    return true;
  };
  for (std::int32_t proxy : large) consider(proxy);
  const int s = layout.axis, c = 1 - layout.axis;
  const double h = layout.height;
  const int first = BandOf(p[c]);
  const int last = BandOf(p[c] + maxFraction * d[c]);
  const int step = last >= first ? 1 : -1;
  for (int b = first;; b += step) {
    // The ray's t range inside band b, widened by a tolerance of the band-edge rounding.
    float t0 = 0.0f, t1 = maxFraction, tRelease = maxFraction;
    double leave = std::numeric_limits<double>::infinity();  // below this t the ray is still in band b
    if (d[c] != 0.0f && layout.count > 1) {
      const double lower = b == 0 ? -1e300 : layout.origin + b * h;
      const double upper = b == layout.count - 1 ? 1e300 : layout.origin + (b + 1) * h;
      const double tol = 1e-3 * h + 1e-6 * (std::fabs(lower) + std::fabs(upper));
      const double ta = (lower - p[c]) / d[c], tb = (upper - p[c]) / d[c];
      const double enter = std::min(ta, tb), exit = std::max(ta, tb);
      const double slack = tol / std::fabs(d[c]);
      t0 = static_cast<float>(std::max(0.0, enter - slack));
      t1 = static_cast<float>(std::min<double>(maxFraction, exit + slack));
      leave = exit - slack;
      tRelease = static_cast<float>(std::min<double>(maxFraction, leave));
    }
    if (t0 <= t1) {
      const float s0 = p[s] + t0 * d[s], s1 = p[s] + t1 * d[s];
      const float pad = 1e-5f * (std::fabs(s0) + std::fabs(s1)) + 1e-6f;
      float sLo = std::min(s0, s1) - pad, sHi = std::max(s0, s1) + pad;
      int bLo = b, bHi = b;
      if constexpr (kBox) {
        sLo -= extent[s];
        sHi += extent[s];
      }
      if (kBox && extent[c] > 0.0f) {
        const float c0 = p[c] + t0 * d[c], c1 = p[c] + t1 * d[c];
        const float cPad = 1e-5f * (std::fabs(c0) + std::fabs(c1)) + 1e-6f + extent[c];
        bLo = std::min(b, BandOf(std::min(c0, c1) - cPad));
        bHi = std::max(b, BandOf(std::max(c0, c1) + cPad));
      }
      for (int band = bLo; band <= bHi; ++band) {
        for (int kind = 0; kind < 2; ++kind) {
          const std::vector<BandEntry>& list = bands[band].list[kind];
          const int n = static_cast<int>(list.size());
          for (int i = LowerBound(list, ScanKey(sLo, bands[band].maxExtent[kind]));
               i < n && list[i].lo <= sHi; ++i) {
            if (list[i].hi >= sLo) consider(list[i].proxy);
          }
        }
      }
    }
    if (b == last) break;
    if (!release(tRelease)) return;
    if (leave > maxFraction) break;  // the (clipped) ray ends in this band
  }
  release(std::numeric_limits<float>::infinity());
}

void BroadPhase::Draw(DebugDraw& draw, const BroadPhaseDrawOptions& options) const {
  const Impl& s = *impl_;
  const int axis = s.layout.axis, cross = 1 - axis;
  float sweepLo = std::numeric_limits<float>::max(), sweepHi = -sweepLo;
  for (std::size_t i = 0; i < s.slots.size(); ++i) {
    const ProxySlot& slot = s.slots[i];
    if (!slot.alive) continue;
    const AABB& f = s.fat[i];
    sweepLo = std::min(sweepLo, f.lower[axis]);
    sweepHi = std::max(sweepHi, f.upper[axis]);
    if (!options.fatAABBs) continue;
    const Vec2 corners[4] = {f.lower, {f.upper.x, f.lower.y}, f.upper, {f.lower.x, f.upper.y}};
    const Color color = slot.type == ProxyType::Static ? colors::kStatic
                        : slot.awake                   ? colors::kAABB
                                                       : colors::kSleeping;
    draw.DrawPolygon(corners, 4, color);
  }
  if (options.bands && sweepLo <= sweepHi && s.layout.count > 1) {
    for (int b = 1; b < s.layout.count; ++b) {
      const float edge = static_cast<float>(s.layout.origin + b * s.layout.height);
      Vec2 p1, p2;
      p1[axis] = sweepLo;
      p2[axis] = sweepHi;
      p1[cross] = p2[cross] = edge;
      draw.DrawSegment(p1, p2, colors::kWhite);
    }
  }
  if (options.pairs) {
    for (const PairNode& node : s.pairs) {
      if (node.a >= 0) draw.DrawSegment(Center(s.fat[node.a]), Center(s.fat[node.b]), colors::kNormal);
    }
  }
}

}  // namespace mk
