// SPDX-License-Identifier: MIT
// Minkowski — broadphase structure: choosing the sweep axis and bands, keeping band lists sorted.
// [SECTION] Layout: axis by spread, band height by typical size
// [SECTION] Sync: relocating moved proxies, rebuilding dirty lists
#include "broadphase/broadphase_impl.h"
#include "core/float_bits.h"
#include "core/parallel.h"
#include "minkowski/assert.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

namespace mk {

namespace {

// Band height in typical proxy sizes (cross axis). Taller bands hold more proxies per sweep window;
// shorter ones put each proxy in more bands. Measured with demos/benchmark/broadphase_benchmark.
constexpr double kBandHeightFactor = 4.0;
// A proxy whose sweep extent exceeds this many typical sizes goes to the large list, so one long
// box (a ground) does not stretch every scan window of its bands.
constexpr double kLargeExtentFactor = 8.0;
// ... and so does one spanning more bands than this.
constexpr int kMaxBandsPerProxy = 8;
// Band count cap without a user limit: about one band per 4 proxies, at most 2^16.
constexpr int kMaxBandsAuto = 1 << 16;
// The sweep axis changes only when the other axis' variance is this many times larger.
constexpr double kAxisSwitchRatio = 1.5;
// Insertion sort gives up (and std::sort finishes) past this many shifts per entry.
constexpr std::size_t kInsertionShiftsPerEntry = 8;

// A list's order: by lo, ties by slot. A function object, not a function: std::sort given a function
// pointer called it out of line for every comparison (the spinner re-sorts lists every step).
struct EntryLess {
  bool operator()(const BandEntry& x, const BandEntry& y) const {
    return x.lo < y.lo || (x.lo == y.lo && x.proxy < y.proxy);
  }
};

// Rebuilds of a list that go straight to std::sort after its insertion sort gave up. In a flung
// crowd (the spinner) half the rebuilds gave up, each after its whole budget of shifts; a list that
// churns one step churns the next. Either sort gives the same order (EntryLess is a total order).
constexpr std::uint8_t kDirectSortsAfterGivingUp = 3;

// Calls visit(band, kind) for each band list a proxy placed so has an entry in: none for a large or
// an unplaced proxy. MarkDirty and the workers' relocation differ only in how they take the flag.
template <class Visit>
void ForEachList(Placement placement, int bandLo, int bandHi, Visit&& visit) {
  if (placement != Placement::Active && placement != Placement::Resting) return;
  const int kind = placement == Placement::Active ? kActiveList : kRestingList;
  for (int b = bandLo; b <= bandHi; ++b) visit(b, kind);
}

}  // namespace

// Insertion sort: O(n + shifts), the cheap path for coherent motion. Past the budget (a teleport far
// along the axis, bulk insertion) the array is still a permutation, and std::sort finishes it.
void SortBandEntries(std::vector<BandEntry>& list, std::uint8_t& directSorts) {
  if (directSorts > 0) {
    --directSorts;
    std::sort(list.begin(), list.end(), EntryLess{});
    return;
  }
  const std::size_t n = list.size();
  const std::size_t budget = kInsertionShiftsPerEntry * n + 64;
  std::size_t shifts = 0;
  for (std::size_t i = 1; i < n; ++i) {
    const BandEntry x = list[i];
    std::size_t j = i;
    while (j > 0 && EntryLess{}(x, list[j - 1])) {
      list[j] = list[j - 1];
      --j;
      if (++shifts > budget) {
        list[j] = x;
        std::sort(list.begin(), list.end(), EntryLess{});
        directSorts = kDirectSortsAfterGivingUp;
        return;
      }
    }
    list[j] = x;
  }
}

namespace {

// Rounded up so that it bounds the exact extent hi - lo.
float ExtentUp(const BandEntry& e) { return NextUp(e.hi - e.lo); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Layout: axis by spread, band height by typical size
// ---------------------------------------------------------------------------------------------

// A level of every search at a time: each search is a chain of loads, each waiting on the one before
// (a band list of 500 entries is 12 KB, so the deeper levels come from L2), and the chains are
// independent, so the processor has `count` loads in flight where one search had one. A step once a
// search is down to one entry moves nothing (half = 0), so every search runs the deepest one's count
// of levels. An empty list searches a sentinel whose lo is above every key.
void LowerBounds(const std::vector<BandEntry>* const* lists, const float* keys, int count, int* first) {
  MK_ASSERT(count >= 0 && count <= kMaxLowerBounds);
  static constexpr BandEntry kAboveAll{.lo = std::numeric_limits<float>::infinity()};
  const BandEntry* begin[kMaxLowerBounds];
  const BandEntry* base[kMaxLowerBounds];
  std::size_t size[kMaxLowerBounds];
  int levels = 0;
  for (int k = 0; k < count; ++k) {
    size[k] = lists[k] != nullptr ? lists[k]->size() : 0;
    begin[k] = base[k] = size[k] > 0 ? lists[k]->data() : &kAboveAll;
    if (size[k] > 1) levels = std::max(levels, static_cast<int>(std::bit_width(size[k] - 1)));
  }
  for (int level = 0; level < levels; ++level) {
    for (int k = 0; k < count; ++k) HalveSearch(base[k], size[k], keys[k]);
  }
  for (int k = 0; k < count; ++k) first[k] = SearchAnswer(begin[k], base[k], keys[k]);
}

// The active lists' searches apart from the resting lists': the deepest search of a batch sets its
// levels, and the resting lists are usually far shorter.
void BroadPhase::Impl::FindScanStarts(const std::int32_t* proxies, int count, ScanStarts* out) const {
  MK_ASSERT(count >= 0 && count <= kScanBatch);
  const std::vector<BandEntry>* lists[2][kScanBatch] = {};  // initialised: GCC cannot see count's bound
  float keys[2][kScanBatch] = {};
  int first[2][kScanBatch];
  const int s = layout.axis, c = 1 - s;
  for (int q = 0; q < count; ++q) {
    const AABB& box = fat[proxies[q]];
    out[q].band = layout.count > 0 ? BandOf(box.lower[c]) : -1;
    if (out[q].band < 0) continue;
    const Band& band = bands[out[q].band];
    for (int kind = 0; kind < 2; ++kind) {
      lists[kind][q] = &band.list[kind];
      keys[kind][q] = ScanKey(box.lower[s], band.maxExtent[kind]);
    }
  }
  for (int kind = 0; kind < 2; ++kind) {
    LowerBounds(lists[kind], keys[kind], count, first[kind]);
    for (int q = 0; q < count; ++q) out[q].first[kind] = first[kind][q];
  }
}

// One O(n) pass for the spread (variance of centres per axis) and the typical size (mean extent,
// trimmed of boxes over 4x the mean so a few grounds do not inflate it). Cheap enough to run every
// reevaluateInterval updates.
LayoutParams BroadPhase::Impl::IdealLayout() const {
  double sum[2] = {0, 0}, sumSq[2] = {0, 0}, ext[2] = {0, 0};
  double lo[2] = {std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
  double hi[2] = {-lo[0], -lo[1]};
  int n = 0;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (!slots[i].alive) continue;
    const AABB& f = fat[i];
    ++n;
    for (int k = 0; k < 2; ++k) {
      const double centre = 0.5 * (static_cast<double>(f.lower[k]) + f.upper[k]);
      sum[k] += centre;
      sumSq[k] += centre * centre;
      ext[k] += static_cast<double>(f.upper[k]) - f.lower[k];
      lo[k] = std::min(lo[k], centre);
      hi[k] = std::max(hi[k], centre);
    }
  }
  LayoutParams l;
  l.count = 1;
  if (n == 0) return l;
  double trimmed[2] = {0, 0};
  int trimmedCount[2] = {0, 0};
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (!slots[i].alive) continue;
    for (int k = 0; k < 2; ++k) {
      const double e = static_cast<double>(fat[i].upper[k]) - fat[i].lower[k];
      if (e <= 4.0 * ext[k] / n) {
        trimmed[k] += e;
        ++trimmedCount[k];
      }
    }
  }
  double mean[2], var[2], size[2];
  for (int k = 0; k < 2; ++k) {
    mean[k] = sum[k] / n;
    var[k] = std::max(0.0, sumSq[k] / n - mean[k] * mean[k]);
    size[k] = trimmedCount[k] > 0 ? trimmed[k] / trimmedCount[k] : ext[k] / n;
  }
  if (axisMode == SweepAxisMode::Auto) {
    // Hysteresis: in a square scene the spreads are about equal and either axis is as good; without
    // it the axis would flip back and forth, each flip a full rebuild.
    const int current = layout.count > 0 ? layout.axis : (var[1] > var[0] ? 1 : 0);
    l.axis = var[1 - current] > kAxisSwitchRatio * var[current] ? 1 - current : current;
  } else {
    l.axis = axisMode == SweepAxisMode::X ? 0 : 1;
  }
  const int c = 1 - l.axis;
  // Band range: the centres' extremes, but not beyond 4 standard deviations (one outlier far away
  // would otherwise spread the bands thin; it just lands in an end band).
  const double sigma = std::sqrt(var[c]);
  const double rangeLo = std::max(lo[c], mean[c] - 4.0 * sigma);
  const double rangeHi = std::min(hi[c], mean[c] + 4.0 * sigma);
  const double range = std::max(0.0, rangeHi - rangeLo);
  // maxBands is clamped where it is set; a snapshot's is checked by the loader. Bounded here too, as
  // the band array's size.
  const int limit =
      maxBands > 0 ? std::min(maxBands, kMaxBroadPhaseBands) : std::clamp(n / 4, 1, kMaxBandsAuto);
  double height = kBandHeightFactor * size[c];
  if (!(height > 0.0) || !std::isfinite(height)) height = std::max(range / std::sqrt(n), 1.0);
  double count = std::ceil(range / height);
  if (!(count >= 1.0)) count = 1.0;
  if (count > limit) {
    count = limit;
    height = range / limit;
  }
  l.count = static_cast<int>(count);
  l.height = height;
  l.origin = rangeLo;
  l.largeExtent = static_cast<float>(std::max(kLargeExtentFactor * size[l.axis], 1e-6));
  return l;
}

bool BroadPhase::Impl::NeedsRebuild(const LayoutParams& ideal) const {
  const LayoutParams& cur = layout;
  if (cur.count == 0 || ideal.axis != cur.axis) return true;
  const double ratio = ideal.height / cur.height;
  if (ratio > 2.0 || ratio < 0.5) return true;
  // The occupied range has grown well past the bands, or shrunk to a small part of them.
  const double idealEnd = ideal.origin + ideal.count * ideal.height;
  const double curEnd = cur.origin + cur.count * cur.height;
  if (ideal.origin < cur.origin - 2.0 * cur.height || idealEnd > curEnd + 2.0 * cur.height) return true;
  return ideal.count * 4 < cur.count;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Sync: relocating moved proxies, rebuilding dirty lists
// ---------------------------------------------------------------------------------------------

BandEntry BroadPhase::Impl::MakeEntry(std::int32_t proxy) const {
  const AABB& f = fat[proxy];
  const int s = layout.axis, c = 1 - layout.axis;
  return {f.lower[s], f.upper[s], f.lower[c], f.upper[c], proxy, generation[proxy]};
}

// Decides a proxy's placement and band range for the current layout (does not touch the lists).
void BroadPhase::Impl::PlaceProxy(std::int32_t proxy) {
  ProxySlot& slot = slots[proxy];
  const int s = layout.axis, c = 1 - layout.axis;
  const AABB& f = fat[proxy];
  const int b0 = BandOf(f.lower[c]), b1 = BandOf(f.upper[c]);
  const bool isLarge = f.upper[s] - f.lower[s] > layout.largeExtent || b1 - b0 >= kMaxBandsPerProxy;
  if (isLarge) {
    slot.placement = Placement::Large;
    slot.bandLo = 0;
    slot.bandHi = -1;
  } else {
    const bool resting = slot.type == ProxyType::Static || !slot.awake;
    slot.placement = resting ? Placement::Resting : Placement::Active;
    slot.bandLo = b0;
    slot.bandHi = b1;
  }
}

void BroadPhase::Impl::MarkDirty(Placement placement, int bandLo, int bandHi) {
  ForEachList(placement, bandLo, bandHi, [this](int b, int kind) {
    if (!bands[b].dirty[kind]) {
      bands[b].dirty[kind] = true;
      dirtyKeys.push_back(b * 2 + kind);
    }
  });
}

// A relocated proxy became large or stopped being large: it joins the end of the large list or leaves
// it. Both relocation passes apply these in proxy order, so the list's order is one.
void BroadPhase::Impl::JoinOrLeaveLarge(std::int32_t proxy) {
  if (slots[proxy].placement == Placement::Large) {
    large.push_back(proxy);
  } else {
    large.erase(std::find(large.begin(), large.end(), proxy));
  }
}

void BroadPhase::Impl::FullRebuild(const LayoutParams& ideal) {
  layout = ideal;
  countAtRebuild = proxyCount;
  if (fullRebuilds < std::numeric_limits<int>::max()) ++fullRebuilds;  // a statistic: saturates
  dirtyKeys.clear();
  large.clear();
  listSizes.assign(static_cast<std::size_t>(layout.count) * 2, 0);
  for (std::int32_t proxy = 0; proxy < static_cast<std::int32_t>(slots.size()); ++proxy) {
    flags[proxy] &= static_cast<std::uint8_t>(~kFlagRelocate);
    if (!slots[proxy].alive) continue;
    PlaceProxy(proxy);
    const ProxySlot& slot = slots[proxy];
    if (slot.placement == Placement::Large) continue;
    const int kind = slot.placement == Placement::Active ? kActiveList : kRestingList;
    for (int b = slot.bandLo; b <= slot.bandHi; ++b) ++listSizes[static_cast<std::size_t>(b * 2 + kind)];
  }
  RecycleBandLists();
  for (std::int32_t proxy = 0; proxy < static_cast<std::int32_t>(slots.size()); ++proxy) {
    if (!slots[proxy].alive) continue;
    const ProxySlot& slot = slots[proxy];
    if (slot.placement == Placement::Large) {
      large.push_back(proxy);
      continue;
    }
    const int kind = slot.placement == Placement::Active ? kActiveList : kRestingList;
    for (int b = slot.bandLo; b <= slot.bandHi; ++b) bands[b].list[kind].push_back(MakeEntry(proxy));
  }
  relocate.clear();
  for (Band& band : bands) {
    for (int kind = 0; kind < 2; ++kind) {
      std::sort(band.list[kind].begin(), band.list[kind].end(), EntryLess{});
      float maxExtent = 0.0f;
      for (const BandEntry& e : band.list[kind]) maxExtent = std::max(maxExtent, ExtentUp(e));
      band.maxExtent[kind] = maxExtent;
    }
  }
}

// Gives the new layout's lists (sized by listSizes) the storage the old lists had: every list goes
// to the spare pool, then the fullest new list takes the largest spare, and so on down. Band counts
// and populations change with every layout, and lists only grow, so without this a layout change
// would drop the storage of lost bands and regrow it entry by entry elsewhere (allocations inside a
// step, seen in a 100,000-step soak). A list whose spare is too small then grows (GrowList).
void BroadPhase::Impl::RecycleBandLists() {
  for (Band& band : bands) {
    for (std::vector<BandEntry>& list : band.list) {
      if (list.capacity() == 0) continue;
      list.clear();
      spareLists.push_back(std::move(list));
    }
  }
  bands.resize(static_cast<std::size_t>(layout.count));
  for (Band& band : bands) band = Band{};
  std::sort(spareLists.begin(), spareLists.end(),
            [](const auto& a, const auto& b) { return a.capacity() < b.capacity(); });
  listOrder.resize(listSizes.size());
  for (std::size_t key = 0; key < listOrder.size(); ++key) listOrder[key] = static_cast<std::int32_t>(key);
  // Ties broken by key, so the order is total (std::stable_sort would allocate a buffer).
  std::sort(listOrder.begin(), listOrder.end(), [this](std::int32_t a, std::int32_t b) {
    return listSizes[a] != listSizes[b] ? listSizes[a] > listSizes[b] : a < b;
  });
  for (std::int32_t key : listOrder) {
    if (spareLists.empty()) break;
    std::vector<BandEntry>& list = bands[key / 2].list[key % 2];
    list = std::move(spareLists.back());
    spareLists.pop_back();
  }
  for (std::int32_t key : listOrder) {
    GrowList(bands[key / 2].list[key % 2], static_cast<std::size_t>(listSizes[key]));
  }
}

// Makes `list` able to hold `needed` entries, keeping its contents: it takes the smallest spare that
// is large enough, else a new buffer with headroom (twice what it needs, so that growth is rare), and
// its old buffer becomes a spare. Storage is only ever added to the pool, never dropped, so once the
// pool covers what the lists have needed, layout changes and band traffic stop allocating.
void BroadPhase::Impl::GrowList(std::vector<BandEntry>& list, std::size_t needed) {
  if (needed <= list.capacity()) return;
  std::size_t best = spareLists.size();
  for (std::size_t i = 0; i < spareLists.size(); ++i) {
    const std::size_t capacity = spareLists[i].capacity();
    if (capacity >= needed && (best == spareLists.size() || capacity < spareLists[best].capacity())) best = i;
  }
  std::vector<BandEntry> grown;
  if (best < spareLists.size()) {
    std::swap(spareLists[best], spareLists.back());
    grown = std::move(spareLists.back());
    spareLists.pop_back();
  } else {
    grown.reserve(2 * needed + 16);
  }
  grown.assign(list.begin(), list.end());
  if (list.capacity() > 0) {
    list.clear();
    spareLists.push_back(std::move(list));
  }
  list = std::move(grown);
}

// Moves each relocated proxy to its new placement: dirty the lists it leaves and joins, queue an
// insertion for each list it joins. Lists it stays in refresh its entry during RebuildList.
// Below this many relocated proxies the serial loop costs less than a parallel-for.
constexpr int kMinRelocatedForWorkers = 256;
constexpr int kMinRelocatedPerRange = 128;

namespace {

// One live relocated proxy: its new placement, and what that changes, through the callbacks:
// joinedOrLeftLarge() when it joins or leaves the large list, markDirty(placement, lo, hi) for the
// lists it leaves and for those it enters (once if they are the same), insert(entry) for each list it
// enters. The serial and the parallel pass differ only in where these go.
template <class OnLarge, class MarkDirtyFn, class InsertFn>
[[gnu::always_inline]] inline void RelocateProxy(BroadPhase::Impl& s, std::int32_t proxy,
                                                 OnLarge&& joinedOrLeftLarge, MarkDirtyFn&& markDirty,
                                                 InsertFn&& insert) {
  const ProxySlot& slot = s.slots[proxy];
  const Placement oldPlacement = slot.placement;
  const int oldLo = slot.bandLo, oldHi = slot.bandHi;
  s.PlaceProxy(proxy);
  if ((oldPlacement == Placement::Large) != (slot.placement == Placement::Large)) joinedOrLeftLarge();
  markDirty(oldPlacement, oldLo, oldHi);
  // Most moves keep the placement and bands: the lists are marked already (about half the calls).
  const bool sameLists = oldPlacement == slot.placement && oldLo == slot.bandLo && oldHi == slot.bandHi;
  if (!sameLists) markDirty(slot.placement, slot.bandLo, slot.bandHi);
  if (slot.placement == Placement::Large) return;
  const int kind = slot.placement == Placement::Active ? kActiveList : kRestingList;
  for (int b = slot.bandLo; b <= slot.bandHi; ++b) {
    const bool stays = oldPlacement == slot.placement && b >= oldLo && b <= oldHi;
    if (!stays) insert((static_cast<std::int64_t>(b * 2 + kind) << 32) | proxy);
  }
}

}  // namespace

// Each relocated proxy in proxy order on this thread, its shared edits made as it goes.
void BroadPhase::Impl::RelocateInOrder() {
  for (std::int32_t proxy : relocate) {
    if (!slots[proxy].alive) continue;
    RelocateProxy(
        *this, proxy, [&] { JoinOrLeaveLarge(proxy); },
        [this](Placement placement, int lo, int hi) { MarkDirty(placement, lo, hi); },
        [this](std::int64_t entry) { insertions.push_back(entry); });
  }
}

namespace {

// A range's outputs, kept on its stack and copied out in batches at places claimed from a shared
// cursor: one atomic add per batch, not per item (the two cores would pass the cursor's line back and
// forth). The order of the batches is the schedule's; every output is sorted before it is used.
template <class T>
class BatchedOutput {
 public:
  BatchedOutput(std::vector<T>& out, std::atomic<std::size_t>& cursor) : out_(out), cursor_(cursor) {}
  ~BatchedOutput() { Flush(); }
  void Put(T value) {
    if (count_ == kBatch) Flush();
    batch_[count_++] = value;
  }

 private:
  static constexpr int kBatch = 64;
  void Flush() {
    if (count_ == 0) return;
    const std::size_t at = cursor_.fetch_add(static_cast<std::size_t>(count_), std::memory_order_relaxed);
    std::copy(batch_, batch_ + count_, out_.begin() + static_cast<std::ptrdiff_t>(at));
    count_ = 0;
  }
  std::vector<T>& out_;  // sized for every output beforehand
  std::atomic<std::size_t>& cursor_;
  T batch_[kBatch];
  int count_ = 0;
};

}  // namespace

// RelocateInOrder on the workers: the placements (each proxy's own slot) in ranges of `relocate`, which
// mostly meet the proxies whose boxes the same worker refitted (RefitProxy, the world's scatter). The
// shared edits become outputs in no order that give the serial loop's result once ordered: a list's
// dirty flag is taken by the first range to mark it (an atomic exchange), which lists the key; the
// insertions are sorted after, as the serial ones are; the large list's joins and leaves are applied
// here in proxy order, as the serial loop makes them. On two workers the serial loop read half the
// relocated proxies' lines from the other core (joint_grid: 0.17 ms a step on the calling thread, three
// times its one-worker cost; docs/benchmarks.md, "The joints' store by colour slices, the relocations
// on the workers").
void BroadPhase::Impl::RelocateOnWorkers(const TaskSystem* tasks) {
  const std::size_t count = relocate.size();
  // A proxy enters at most kMaxBandsPerProxy lists (one spanning more is large) and leaves as many.
  const std::size_t maxInserted = count * kMaxBandsPerProxy;
  const std::size_t maxDirtied =
      std::min(2 * count * kMaxBandsPerProxy, 2 * static_cast<std::size_t>(layout.count));
  if (relocateInserted.size() < maxInserted) relocateInserted.resize(maxInserted);
  if (relocateDirtied.size() < maxDirtied) relocateDirtied.resize(maxDirtied);
  if (relocateLarge.size() < count) relocateLarge.resize(count);
  std::atomic<std::size_t> inserted{0}, dirtied{0}, joinedOrLeft{0};
  ParallelFor(tasks, static_cast<int>(count), kMinRelocatedPerRange, [&](int begin, int end) {
    BatchedOutput<std::int64_t> insert(relocateInserted, inserted);
    BatchedOutput<std::int32_t> dirty(relocateDirtied, dirtied);
    BatchedOutput<std::int32_t> largeChange(relocateLarge, joinedOrLeft);
    const auto markDirty = [&](Placement placement, int bandLo, int bandHi) {
      ForEachList(placement, bandLo, bandHi, [&](int b, int kind) {
        std::atomic_ref<bool> flag(bands[static_cast<std::size_t>(b)].dirty[kind]);
        // A load first: the flags of a busy band are set early, and then only read.
        if (!flag.load(std::memory_order_relaxed) && !flag.exchange(true, std::memory_order_relaxed))
          dirty.Put(b * 2 + kind);
      });
    };
    for (int i = begin; i < end; ++i) {
      const std::int32_t proxy = relocate[static_cast<std::size_t>(i)];
      if (!slots[proxy].alive) continue;
      RelocateProxy(
          *this, proxy, [&] { largeChange.Put(proxy); }, markDirty,
          [&insert](std::int64_t entry) { insert.Put(entry); });
    }
  });
  // The parallel-for's end orders every write above before these reads.
  const auto changed = relocateLarge.begin() + static_cast<std::ptrdiff_t>(joinedOrLeft.load());
  std::sort(relocateLarge.begin(), changed);
  for (auto it = relocateLarge.begin(); it != changed; ++it) JoinOrLeaveLarge(*it);
  dirtyKeys.insert(dirtyKeys.end(), relocateDirtied.begin(),
                   relocateDirtied.begin() + static_cast<std::ptrdiff_t>(dirtied.load()));
  insertions.insert(insertions.end(), relocateInserted.begin(),
                    relocateInserted.begin() + static_cast<std::ptrdiff_t>(inserted.load()));
}

void BroadPhase::Impl::Relocate(const TaskSystem* tasks) {
  // In ascending proxy order, each once, so that the slots are read in memory order (a slot destroyed
  // and reused since the last update is queued twice). The bits, as for the moved list: rain's sort
  // here was 0.8% of its one-worker step, on the calling thread with workers too.
  if (QueueWantsBits(relocate.size())) {
    ListQueueByBits(relocate);
  } else {
    std::sort(relocate.begin(), relocate.end());
    relocate.erase(std::unique(relocate.begin(), relocate.end()), relocate.end());
  }
  if (HasWorkers(tasks) && static_cast<int>(relocate.size()) >= kMinRelocatedForWorkers) {
    RelocateOnWorkers(tasks);
  } else {
    RelocateInOrder();
  }
  std::sort(insertions.begin(), insertions.end());
  std::sort(dirtyKeys.begin(), dirtyKeys.end());
  // Each dirty list's run of insertions, and room for all of it: GrowList draws on the shared pool of
  // spare lists, so it runs here on this thread, and each rebuild below touches only its own list.
  const int dirtyCount = static_cast<int>(dirtyKeys.size());
  // Sized with dirtyKeys' capacity, so it grows only when that list does (never after warm-up).
  if (dirtyRuns.capacity() < dirtyKeys.capacity() + 1) dirtyRuns.reserve(dirtyKeys.capacity() + 1);
  dirtyRuns.resize(static_cast<std::size_t>(dirtyCount) + 1);
  std::size_t next = 0;
  for (int k = 0; k < dirtyCount; ++k) {
    const int key = dirtyKeys[k];
    dirtyRuns[k] = static_cast<std::int32_t>(next);
    while (next < insertions.size() && (insertions[next] >> 32) == key) ++next;
    std::vector<BandEntry>& list = bands[key / 2].list[key % 2];
    GrowList(list, list.size() + (next - static_cast<std::size_t>(dirtyRuns[k])));
  }
  dirtyRuns[dirtyCount] = static_cast<std::int32_t>(next);
  // A list's rebuild reads the proxies and writes its own list: the workers share the lists.
  constexpr int kMinDirtyListsPerRange = 2;
  ParallelFor(tasks, dirtyCount, kMinDirtyListsPerRange, [this](int begin, int end) {
    for (int k = begin; k < end; ++k)
      RebuildList(dirtyKeys[k], insertions.data() + dirtyRuns[k], dirtyRuns[k + 1] - dirtyRuns[k]);
  });
  for (std::int32_t proxy : relocate) flags[proxy] &= static_cast<std::uint8_t>(~kFlagRelocate);
  relocate.clear();
  insertions.clear();
  dirtyKeys.clear();
}

// Drops entries of destroyed proxies and of proxies that left this list, refreshes the boxes of
// relocated ones, appends newcomers, and restores the order.
void BroadPhase::Impl::RebuildList(int key, const std::int64_t* inserted, int insertedCount) {
  const int b = key / 2, kind = key % 2;
  const Placement placement = kind == kActiveList ? Placement::Active : Placement::Resting;
  Band& band = bands[b];
  std::vector<BandEntry>& list = band.list[kind];
  std::size_t write = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    BandEntry e = list[i];
    if (generation[e.proxy] != e.generation) continue;
    if ((flags[e.proxy] & kFlagRelocate) != 0) {
      const ProxySlot& slot = slots[e.proxy];
      if (!slot.alive || slot.placement != placement || b < slot.bandLo || b > slot.bandHi) continue;
      e = MakeEntry(e.proxy);
    }
    list[write++] = e;
  }
  list.resize(write);
  MK_ASSERT(list.capacity() >= write + static_cast<std::size_t>(insertedCount));  // Relocate grew it
  for (int i = 0; i < insertedCount; ++i) {
    list.push_back(MakeEntry(static_cast<std::int32_t>(inserted[i] & 0xFFFFFFFF)));
  }
  SortBandEntries(list, band.directSorts[kind]);
  float maxExtent = 0.0f;
  for (const BandEntry& e : list) maxExtent = std::max(maxExtent, ExtentUp(e));
  band.maxExtent[kind] = maxExtent;
  band.dirty[kind] = false;
}

void BroadPhase::Impl::Sync(const TaskSystem* tasks) {
  // Bulk creation or destruction changes the typical spread: re-evaluate at once rather than wait.
  const bool countChanged = proxyCount > 2 * countAtRebuild + 64 || 2 * proxyCount + 64 < countAtRebuild;
  // The periodic evaluation is an O(n) pass over every proxy; when nothing was created, destroyed or
  // relocated since the last one its answer cannot have changed, so a scene of static and sleeping
  // proxies skips it and an update costs nothing.
  if (layout.count == 0 || (evaluateDue && layoutStale) || countChanged) {
    evaluateDue = false;
    layoutStale = false;
    const LayoutParams ideal = IdealLayout();
    if (NeedsRebuild(ideal) || countChanged) {
      FullRebuild(ideal);
      return;
    }
  }
  if (!relocate.empty() || !dirtyKeys.empty()) Relocate(tasks);
}

}  // namespace mk
