// SPDX-License-Identifier: MIT
// Minkowski — the broadphase's part of a world snapshot: save as is, load and validate.
#include "broadphase/broadphase_snapshot.h"

#include "broadphase/broadphase_impl.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mk {

namespace {

// Band count the loader accepts: the automatic layout stops at 2^16 bands; a user limit may ask for
// more, up to this.
constexpr int kMaxSnapshotBands = kMaxBroadPhaseBands;

bool FiniteEntry(const BandEntry& e) {
  return std::isfinite(e.lo) && std::isfinite(e.hi) && std::isfinite(e.crossLo) && std::isfinite(e.crossHi);
}

bool ValidSlots(const BroadPhase::Impl& s) {
  const std::size_t n = s.slots.size();
  if (s.fat.size() != n || s.generation.size() != n || s.flags.size() != n || s.stamp.size() != n)
    return false;
  const std::int32_t pairNodes = static_cast<std::int32_t>(s.pairs.size());
  int alive = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const ProxySlot& slot = s.slots[i];
    if (!BoolByteOk(slot.alive) || !BoolByteOk(slot.awake) || !EnumOk(slot.type, 2) ||
        !EnumOk(slot.placement, 4) || s.stamp[i] > s.tag) {
      return false;
    }
    if (!slot.alive) {
      if (slot.pairHead != -1 || slot.placement != Placement::None) return false;
      continue;
    }
    ++alive;
    if (!IsValid(s.fat[i]) || slot.pairHead < -1 || slot.pairHead >= pairNodes) return false;
    if (slot.placement == Placement::Active || slot.placement == Placement::Resting) {
      if (slot.bandLo < 0 || slot.bandLo > slot.bandHi || slot.bandHi >= s.layout.count) return false;
    }
  }
  if (alive != s.proxyCount) return false;
  // The free list: dead slots only, each once, all of them.
  std::vector<bool> seen(n, false);
  int freeCount = 0;
  for (std::int32_t p = s.freeHead; p != -1; p = s.slots[static_cast<std::size_t>(p)].nextFree) {
    if (p < 0 || static_cast<std::size_t>(p) >= n || s.slots[p].alive || seen[p]) return false;
    seen[p] = true;
    ++freeCount;
  }
  return freeCount == static_cast<int>(n) - alive;
}

bool ValidLayout(const BroadPhase::Impl& s) {
  const LayoutParams& l = s.layout;
  if (l.axis < 0 || l.axis > 1 || l.count < 0 || l.count > kMaxSnapshotBands) return false;
  if (static_cast<std::size_t>(l.count) != s.bands.size()) return false;
  if (!std::isfinite(l.origin) || !std::isfinite(l.height) || !(l.height > 0.0) ||
      !std::isfinite(l.largeExtent))
    return false;
  const std::int32_t n = static_cast<std::int32_t>(s.slots.size());
  for (const Band& band : s.bands) {
    for (int kind = 0; kind < 2; ++kind) {
      if (!BoolByteOk(band.dirty[kind]) || !std::isfinite(band.maxExtent[kind]) ||
          band.maxExtent[kind] < 0.0f)
        return false;
      for (const BandEntry& e : band.list[kind]) {
        if (e.proxy < 0 || e.proxy >= n || !FiniteEntry(e)) return false;
      }
    }
  }
  // Every large-list proxy is alive, placed Large and listed once, and every Large proxy is listed
  // (DestroyProxy and Relocate erase it from the list by value).
  std::vector<bool> listed(s.slots.size(), false);
  for (std::int32_t p : s.large) {
    if (p < 0 || p >= n || listed[p] || !s.slots[p].alive || s.slots[p].placement != Placement::Large)
      return false;
    listed[p] = true;
  }
  for (std::int32_t p = 0; p < n; ++p) {
    if (s.slots[p].placement == Placement::Large && !listed[p]) return false;
  }
  for (std::int32_t key : s.dirtyKeys) {
    if (key < 0 || key >= 2 * l.count) return false;
  }
  for (std::int32_t p : s.relocate) {
    if (p < 0 || p >= n) return false;
  }
  for (std::int32_t p : s.moved) {
    if (p < 0 || p >= n) return false;
  }
  // Insertions only live inside Relocate; evaluation flags are plain bools.
  return s.insertions.empty() && BoolByteOk(s.evaluateDue) && BoolByteOk(s.layoutStale) &&
         s.countAtRebuild >= 0;
}

// Each used node lies in exactly its two proxies' lists with consistent back links; free nodes form
// one acyclic list. Every walk is bounded by the node count.
bool ValidPairs(const BroadPhase::Impl& s) {
  const std::int32_t n = static_cast<std::int32_t>(s.slots.size());
  const std::int32_t nodes = static_cast<std::int32_t>(s.pairs.size());
  std::vector<std::uint8_t> sides(s.pairs.size(), 0);
  int used = 0;
  for (const PairNode& node : s.pairs) {
    if (node.a == -1) continue;
    if (node.a < 0 || node.a >= node.b || node.b >= n || !s.slots[node.a].alive || !s.slots[node.b].alive)
      return false;
    ++used;
  }
  if (used != s.pairCount) return false;
  for (std::int32_t p = 0; p < n; ++p) {
    if (!s.slots[p].alive) continue;
    std::int32_t prev = -1;
    for (std::int32_t k = s.slots[p].pairHead; k != -1;) {
      if (k < 0 || k >= nodes) return false;
      const PairNode& node = s.pairs[k];
      const std::uint8_t side = node.a == p ? 1 : node.b == p ? 2 : 0;
      if (side == 0 || (sides[k] & side) != 0) return false;
      sides[k] |= side;
      if ((side == 1 ? node.prevA : node.prevB) != prev) return false;
      prev = k;
      k = side == 1 ? node.nextA : node.nextB;
    }
  }
  int freeCount = 0;
  for (std::int32_t k = s.pairFree; k != -1; k = s.pairs[k].nextA) {
    if (k < 0 || k >= nodes || s.pairs[k].a != -1 || sides[k] != 0) return false;
    sides[k] = 4;
    ++freeCount;
  }
  for (std::int32_t k = 0; k < nodes; ++k) {
    const bool ok = s.pairs[k].a == -1 ? sides[k] == 4 : sides[k] == 3;
    if (!ok) return false;
  }
  return freeCount + used == nodes;
}

}  // namespace

void BroadPhaseSnapshot::Save(const BroadPhase& broadphase, ByteWriter& out) {
  const BroadPhase::Impl& s = *broadphase.impl_;
  out.Put(s.margin);
  out.Put(s.axisMode);
  out.Put(s.maxBands);
  out.Put(s.reevaluateInterval);
  out.PutArray(s.slots);
  out.PutArray(s.fat);
  out.PutArray(s.generation);
  out.PutArray(s.flags);
  // The stamps and the tag only dedupe candidates inside one moved proxy's processing, and the update
  // on workers does not use them for most proxies (broadphase.cpp, MergeMoved), so they are no part of
  // the state: saved as zeros (a 0 stamp never matches a tag, which starts at 1), the same bytes after
  // a serial update and a parallel one.
  out.Put(static_cast<std::uint32_t>(s.stamp.size()));
  for (std::size_t i = 0; i < s.stamp.size(); ++i) out.Put(std::uint32_t{0});
  out.Put(std::uint32_t{0});
  out.Put(s.freeHead);
  out.Put(s.proxyCount);
  out.Put(s.layout);
  out.Put(static_cast<std::uint32_t>(s.bands.size()));
  for (const Band& band : s.bands) {
    out.PutArray(band.list[0]);
    out.PutArray(band.list[1]);
    out.Put(band.maxExtent);
    out.Put(band.dirty);
  }
  out.PutArray(s.large);
  out.PutArray(s.dirtyKeys);
  out.PutArray(s.insertions);
  out.PutArray(s.relocate);
  out.Put(s.evaluateDue);
  out.Put(s.layoutStale);
  out.Put(s.countAtRebuild);
  out.Put(s.fullRebuilds);
  out.PutArray(s.pairs);
  out.Put(s.pairFree);
  out.Put(s.pairCount);
  out.Put(s.pairChurn);
  out.Put(s.pairCompactions);
  out.PutArray(s.moved);
  out.PutArray(s.begun);
  out.PutArray(s.ended);
  out.PutArray(s.pendingEnded);
  out.Put(s.movedLastUpdate);
  out.Put(s.updateCount);
}

// Update resets the churn once it reaches the pair count (or a quarter of the slots), so a world holds
// far less; the bound keeps a loaded count from overflowing as pairs change.
constexpr std::int64_t kMaxPairChurn = std::int64_t{1} << 62;

bool BroadPhaseSnapshot::Load(ByteReader& in, BroadPhase& broadphase, std::uint32_t maxCount) {
  BroadPhase::Impl& s = *broadphase.impl_;
  in.Get(s.margin);
  in.Get(s.axisMode);
  in.Get(s.maxBands);
  in.Get(s.reevaluateInterval);
  if (in.Failed() || !std::isfinite(s.margin) || s.margin < 0.0f || !EnumOk(s.axisMode, 3) ||
      s.maxBands < 0 || s.maxBands > kMaxBroadPhaseBands || s.reevaluateInterval < 1) {
    return false;
  }
  in.GetArray(s.slots, maxCount);
  in.GetArray(s.fat, maxCount);
  in.GetArray(s.generation, maxCount);
  in.GetArray(s.flags, maxCount);
  in.GetArray(s.stamp, maxCount);
  in.Get(s.tag);
  // Not state (Save): an older snapshot's stamps are dropped, so every restored broadphase starts alike.
  std::fill(s.stamp.begin(), s.stamp.end(), 0u);
  s.tag = 0;
  in.Get(s.freeHead);
  in.Get(s.proxyCount);
  in.Get(s.layout);
  std::uint32_t bandCount = 0;
  // A band costs at least its two counts, extents and flags in the input.
  constexpr std::size_t kMinBandBytes =
      2 * sizeof(std::uint32_t) + sizeof(Band::maxExtent) + sizeof(Band::dirty);
  if (!in.GetCount(bandCount, std::min<std::uint32_t>(maxCount, kMaxSnapshotBands), kMinBandBytes))
    return false;
  s.bands.assign(bandCount, Band{});
  for (Band& band : s.bands) {
    in.GetArray(band.list[0], maxCount);
    in.GetArray(band.list[1], maxCount);
    in.Get(band.maxExtent);
    in.Get(band.dirty);
    if (in.Failed()) return false;
  }
  in.GetArray(s.large, maxCount);
  in.GetArray(s.dirtyKeys, maxCount);
  in.GetArray(s.insertions, maxCount);
  in.GetArray(s.relocate, maxCount);
  in.Get(s.evaluateDue);
  in.Get(s.layoutStale);
  in.Get(s.countAtRebuild);
  in.Get(s.fullRebuilds);
  in.GetArray(s.pairs, maxCount);
  in.Get(s.pairFree);
  in.Get(s.pairCount);
  in.Get(s.pairChurn);
  in.Get(s.pairCompactions);
  in.GetArray(s.moved, maxCount);
  in.GetArray(s.begun, maxCount);
  in.GetArray(s.ended, maxCount);
  in.GetArray(s.pendingEnded, maxCount);
  in.Get(s.movedLastUpdate);
  in.Get(s.updateCount);
  if (in.Failed()) return false;
  // Counts the broadphase compares and doubles (Sync) or increments: within what a world reaches, so
  // no arithmetic on them overflows. movedLastUpdate is a statistic Update overwrites (it counts moves
  // processed, which can exceed the slots), and fullRebuilds saturates at INT_MAX (FullRebuild): an
  // upper bound here would refuse what a world accepted under it reaches a step later, as
  // fuzz_snapshot found with a rebuild count at the old bound of 2^30.
  const int slotCount = static_cast<int>(s.slots.size());
  if (s.countAtRebuild < 0 || s.countAtRebuild > slotCount || s.movedLastUpdate < 0 || s.fullRebuilds < 0 ||
      s.pairChurn < 0 || s.pairChurn > kMaxPairChurn || s.pairCompactions < 0)
    return false;
  return ValidSlots(s) && ValidLayout(s) && ValidPairs(s);
}

bool BroadPhaseSnapshot::ProxyIs(const BroadPhase& broadphase, ProxyId id, const ProxyFilter& filter,
                                 ProxyType type) {
  const BroadPhase::Impl& s = *broadphase.impl_;
  if (!s.Live(id)) return false;
  const ProxySlot& slot = s.slots[id.index1 - 1];
  return slot.type == type && slot.filter.bodyId == filter.bodyId &&
         slot.filter.categoryBits == filter.categoryBits && slot.filter.maskBits == filter.maskBits &&
         slot.filter.groupIndex == filter.groupIndex;
}

}  // namespace mk
