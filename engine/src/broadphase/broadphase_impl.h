// SPDX-License-Identifier: MIT
// Minkowski — broadphase internals (see minkowski/broadphase.h for the contract).
//
// Data layout: "banded" sweep-and-prune. One axis (the sweep axis, chosen by spread) is sorted; the
// other (the cross axis) is cut into bands a few proxy sizes tall, each band holding its own sorted
// list. Plain single-axis SAP degrades to O(n^1.5) per update for 2D scenes (a moved proxy's sweep
// window holds every proxy in a column of the world; a pyramid's columns are hundreds of boxes tall);
// bands bound that column to a few proxies, the idea behind PhysX's multi-box-pruning regions
// (Terdiman, "Box pruning revisited") and segmented SAP (Tracy, Buss, Woods 2009), with bands instead
// of a 2D grid so each list stays one sorted array.
//
// Each band has two lists: Active (awake moving proxies) and Resting (static and sleeping). Lists are
// arrays of BandEntry sorted by `lo`, holding a copy of the fat box so scans are linear in memory.
// A list is only rebuilt (refresh copies, drop stale entries, append newcomers, insertion sort) when
// marked dirty by a proxy moving in or out, so a settled scene costs nothing and coherent motion costs
// O(entries of touched lists + swaps). Insertion sort bails out to std::sort past a work budget: the
// full re-sort path for teleports and bulk creation; a list that bailed sorts with std::sort at once
// for its next few rebuilds (SortBandEntries).
//
// Proxies that would make scans slow (sweep extent far above typical, or spanning many bands) live in
// one `large` list, tested directly by every moved proxy and every query.
//
// Pairs: a pool of nodes, each in two intrusive doubly linked lists (one per proxy), so a moved
// proxy walks only its own pairs. Pairs that begin and end scatter a proxy's nodes over the pool, and
// the walk's next load waits on the last (a chain of cache misses: a third of the moved proxies' samples
// on the spinner scene); once as many pairs have changed as there are, CompactPairs lays each proxy's
// nodes out side by side again, in list order. New pairs of a moved proxy m: stamp m's current partners with
// a fresh tag, query the lists, and every candidate without the tag is new. No hash set needed.
#pragma once

#include "core/float_bits.h"
#include "minkowski/assert.h"
#include "minkowski/broadphase.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <vector>

namespace mk {

/// One proxy's fat box inside a band list. `generation` detects entries of destroyed proxies.
struct BandEntry {
  float lo = 0.0f;       ///< sweep-axis lower bound
  float hi = 0.0f;       ///< sweep-axis upper bound
  float crossLo = 0.0f;  ///< cross-axis lower bound
  float crossHi = 0.0f;  ///< cross-axis upper bound
  std::int32_t proxy = -1;
  std::uint32_t generation = 0;
};

/// One level of the band lists' binary search (LowerBound, LowerBounds): the answer lies in [base, base + n];
/// keeps the half of it that holds the answer. Once n is 1 a step moves nothing (half = 0).
inline void HalveSearch(const BandEntry*& base, std::size_t& n, float key) {
  const std::size_t half = n / 2;
  base = base[half].lo < key ? base + half : base;
  n -= half;
}

/// The search's answer once its range is down to the one entry at `base`.
inline int SearchAnswer(const BandEntry* begin, const BandEntry* base, float key) {
  return static_cast<int>(base - begin) + static_cast<int>(base->lo < key);
}

/// Index of the first entry whose lo is >= key (0 for a NaN key). A binary search whose step is a
/// conditional move, not a branch: the moved proxies' keys fall anywhere in their lists, so each
/// halving was a coin toss for the branch predictor (the search, some 7,000 a step on the spinner, took
/// 3.3% of its one-worker cycles for 0.45% of its instructions). Branch-free, it waits on its loads
/// instead, one level after another; the update runs a batch of them side by side (LowerBounds).
inline int LowerBound(const std::vector<BandEntry>& list, float key) {
  const BandEntry* base = list.data();
  std::size_t n = list.size();
  if (n == 0) return 0;
  while (n > 1) HalveSearch(base, n, key);
  return SearchAnswer(list.data(), base, key);
}

/// The most searches LowerBounds takes at once.
inline constexpr int kMaxLowerBounds = 8;

/// first[k] = LowerBound(*lists[k], keys[k]) for k < count <= kMaxLowerBounds (a null list is empty),
/// the searches run side by side so that their loads overlap (sweep_and_prune.cpp).
void LowerBounds(const std::vector<BandEntry>* const* lists, const float* keys, int count, int* first);

/// Conservative scan start for a window starting at `queryLo`: every entry whose interval reaches
/// queryLo has lo >= this key (maxExtent is rounded up; the subtraction is rounded down).
inline float ScanKey(float queryLo, float maxExtent) { return NextDown(queryLo - maxExtent); }

/// Where a proxy's entries live.
enum class Placement : std::uint8_t { None = 0, Active, Resting, Large };

/// List kinds inside a band (index into Band::list).
inline constexpr int kActiveList = 0;
inline constexpr int kRestingList = 1;

struct Band {
  std::vector<BandEntry> list[2];
  float maxExtent[2] = {0.0f, 0.0f};  ///< conservative max (hi - lo) over the list's entries
  bool dirty[2] = {false, false};
  /// Rebuilds left that sort the list at once (its last insertion sort gave up: sweep_and_prune.cpp).
  /// A hint for speed only, not saved: either sort gives the same order.
  std::uint8_t directSorts[2] = {0, 0};
};

/// Per-slot proxy data. Hot data lives in parallel arrays: `fat` (read for every pair partner and
/// candidate; 16 bytes a slot keeps those random reads in cache), `generation` and `flags`.
struct ProxySlot {
  std::uint64_t userData = 0;
  ProxyFilter filter{};
  std::int32_t pairHead = -1;  ///< first pair node, -1 = none
  std::int32_t bandLo = 0;     ///< band range of the entries (Active/Resting placements)
  std::int32_t bandHi = -1;
  std::int32_t nextFree = -1;
  ProxyType type = ProxyType::Moving;
  Placement placement = Placement::None;
  bool alive = false;
  bool awake = true;
};

/// A pair node: proxies a < b, and the links of the two per-proxy lists.
struct PairNode {
  std::int32_t a = -1;  ///< -1 marks a free node
  std::int32_t b = -1;
  std::int32_t nextA = -1, prevA = -1;
  std::int32_t nextB = -1, prevB = -1;
};

/// Band layout in double precision (band lookups must be monotonic in the coordinate).
struct LayoutParams {
  int axis = 0;
  double origin = 0.0;
  double height = 1.0;
  int count = 0;              ///< 0 = not built yet
  float largeExtent = 1e30f;  ///< sweep extent above which a proxy goes to the large list
};

/// Where a query's scans of its first band begin, one index per list kind (FindScanStarts). `band` -1:
/// none found (no layout yet).
struct ScanStarts {
  int band = -1;
  int first[2] = {0, 0};
};

/// How many queries FindScanStarts searches side by side.
inline constexpr int kScanBatch = 8;

/// Per-slot flag bits.
inline constexpr std::uint8_t kFlagQueued = 1;    ///< in `moved`: pairs recomputed at UpdatePairs
inline constexpr std::uint8_t kFlagRelocate = 2;  ///< in `relocate`: entries refreshed at Sync
inline constexpr std::uint8_t kFlagRefilter = 4;  ///< re-run the filter on existing pairs
inline constexpr std::uint8_t kFlagRefitted = 8;  ///< fat box re-centred by RefitProxy, not yet queued

/// Where the parallel search of UpdatePairs put one moved proxy's answer, `found[begin, begin + count)`:
/// with `removed` >= 0 the pair nodes to end (`removed` of them) then the new candidates (a slot, or ~slot
/// for a pair that an earlier moved proxy was offered first: see MergeMoved); with `removed` ==
/// kRawCandidates (an update with a re-filter) the query's candidates as they are, for the serial code. count
/// -1 when the buffer was full (the merge then searches for that proxy itself).
struct FoundRange {
  std::int32_t begin = 0;
  std::int32_t count = 0;
  std::int32_t removed = 0;
};
inline constexpr std::int32_t kRawCandidates = -1;

/// A new pair that the merge's ShouldCollide refused while its other proxy was still to be processed:
/// that proxy asks again (as the serial update does), so it finds these in its list (`rejectHead`).
struct Rejection {
  std::int32_t proxy = -1;  ///< the proxy processed first
  std::int32_t next = -1;
};

/// One set of the search's dedupe stamps: a stamp per slot and the last tag given. On a cache line of
/// its own: two workers bumping the tags of neighbouring sets took a third of the search's time in
/// the line's moves between their cores (perf annotate, rain on two workers).
struct alignas(64) StampSet {
  std::vector<std::uint32_t> stamp;
  std::uint32_t tag = 0;
};

/// SortPairs' buffers (broadphase.cpp), kept so that sorting the reports allocates nothing once they
/// have held the busiest update's.
struct PairSortScratch {
  std::vector<std::uint64_t> keys;       ///< a pair's indices over its position
  std::vector<std::uint64_t> otherKeys;  ///< the radix passes' other buffer
  std::vector<ProxyPair> pairs;          ///< the pairs gathered in order
};

struct RayItem {
  float t;
  std::int32_t proxy;
};

struct MK_HIDDEN BroadPhase::Impl {  // hidden: not part of a shared library's exports
  // Settings.
  float margin = 0.1f;
  SweepAxisMode axisMode = SweepAxisMode::Auto;
  int maxBands = 0;
  int reevaluateInterval = 32;
  ShouldCollideFn shouldCollide = nullptr;
  void* shouldCollideContext = nullptr;
  bool shouldCollidePure = false;  // SetShouldCollide's `pure`: the searches on the workers ask it

  // Proxies.
  std::vector<ProxySlot> slots;
  std::vector<AABB> fat;                  ///< parallel to slots: fat AABB, metres
  std::vector<std::uint32_t> generation;  ///< parallel to slots
  std::vector<std::uint8_t> flags;        ///< parallel to slots
  std::vector<std::uint32_t> stamp;       ///< parallel to slots: dedupe tag (not state: saved as 0)
  std::uint32_t tag = 0;
  std::int32_t freeHead = -1;
  int proxyCount = 0;

  // Structure.
  LayoutParams layout{};
  std::vector<Band> bands;
  /// Band lists not in use, kept with their storage: a full rebuild hands every list's storage back
  /// here and out again (largest to the fullest list), so a layout change does not allocate.
  std::vector<std::vector<BandEntry>> spareLists;
  std::vector<std::int32_t> listSizes;  ///< full-rebuild scratch: entries per list key (band * 2 + kind)
  std::vector<std::int32_t> listOrder;  ///< full-rebuild scratch: list keys, fullest first
  std::vector<std::int32_t> large;
  std::vector<std::int32_t> dirtyKeys;   ///< band * 2 + list kind
  std::vector<std::int64_t> insertions;  ///< (key << 32) | proxy, sorted before use
  std::vector<std::int32_t> dirtyRuns;   ///< Relocate's scratch: dirty list k's insertions start at [k]
  std::vector<std::int32_t> relocate;
  // RelocateOnWorkers' outputs, written through shared cursors: only grown, so that a step writes only
  // what it finds (a resize down and up again would zero them each step).
  std::vector<std::int64_t> relocateInserted;  ///< insertions, in no order
  std::vector<std::int32_t> relocateDirtied;   ///< list keys the workers marked dirty, in no order
  std::vector<std::int32_t> relocateLarge;     ///< proxies that joined or left the large list
  bool evaluateDue = true;
  bool layoutStale = true;  ///< a proxy was created, destroyed or relocated since the last evaluation
  int countAtRebuild = 0;
  int fullRebuilds = 0;

  // Pairs.
  std::vector<PairNode> pairs;
  std::int32_t pairFree = -1;
  int pairCount = 0;
  std::int64_t pairChurn = 0;           ///< pairs made or ended since the last CompactPairs
  int pairCompactions = 0;              ///< CompactPairs calls so far (saturates)
  std::vector<PairNode> pairScratch;    ///< CompactPairs' scratch (the pool's last layout)
  std::vector<std::int32_t> pairRemap;  ///< CompactPairs' scratch: old node -> new node
  std::vector<std::int32_t> moved;
  std::vector<std::uint64_t> queueBits;  ///< scratch of ListQueueByBits: one bit per slot
  std::vector<ProxyPair> begun;
  std::vector<ProxyPair> ended;
  std::vector<ProxyPair> collectScratch;  // BroadPhase::CollectPairs sorts here, reused
  PairSortScratch pairSortScratch;        // SortPairs' buffers (begun, ended, CollectPairs)
  std::vector<ProxyPair> pendingEnded;    ///< pairs of proxies destroyed since the last update
  int movedLastUpdate = 0;
  // Parallel search scratch (Update with workers), kept between updates so a step does not allocate.
  std::vector<FoundRange> foundRanges;   ///< parallel to `moved`
  std::vector<std::int32_t> found;       ///< candidates, in chunks that the search's ranges claim
  std::vector<std::int32_t> rejectHead;  ///< parallel to slots: first Rejection of the proxy, -1 = none
  /// The search's dedupe stamps (the serial `stamp` and `tag`, but ranges running at once must not share
  /// them): one set per worker, each taken by one range at a time (`stampSetBusy`); no part of the state.
  std::vector<StampSet> stampSets;
  std::vector<std::atomic<bool>> stampSetBusy;  ///< parallel to stampSets
  std::vector<Rejection> rejections;            ///< this update's, cleared at its end
  std::uint64_t updateCount = 0;

  // Ray cast scratch.
  std::vector<RayItem> heap;

  // --- proxies and pairs (broadphase.cpp)
  bool Live(ProxyId id) const;
  /// Slot of a live id; -1 after an MK_ASSERT for a stale one (a programmer error).
  std::int32_t Checked(ProxyId id) const;
  ProxyId IdOf(std::int32_t proxy) const;
  /// Sets `flag` (kFlagQueued: on `moved`; kFlagRelocate: on `relocate`); true when it was clear, so
  /// that the proxy still needs appending to the flag's list (MarkMoved, MarkRelocate, and
  /// ClaimRefittedProxy, whose appends wait for QueueClaimedProxies).
  bool SetListFlag(std::int32_t proxy, std::uint8_t flag);
  void MarkMoved(std::int32_t proxy);
  void MarkRelocate(std::int32_t proxy);
  std::uint32_t NextTag();
  /// MoveProxy's check and fat-box work; `onRefitted(proxy)` for a box that left its fat box
  /// (broadphase.cpp).
  template <class OnRefitted>
  BroadPhaseError Refit(ProxyId id, const AABB& tightAABB, float proxyMargin, OnRefitted&& onRefitted);
  /// A proxy's own margin (ProxyDef::margin, MoveProxy's), or the broadphase's when it is negative or
  /// not finite (MK_ASSERT for the latter).
  float MarginOr(float proxyMargin) const {
    if (proxyMargin >= 0.0f && std::isfinite(proxyMargin)) return proxyMargin;
    MK_ASSERT(std::isfinite(proxyMargin));  // negative: the default; NaN or infinite: refused
    return margin;
  }
  bool ShouldCollide(std::int32_t a, std::int32_t b) const;
  /// ShouldCollide's rules before the callback (static pairs, same body, filters): any thread.
  bool PassesFilters(std::int32_t a, std::int32_t b) const;
  ProxyPair MakePair(const PairNode& node) const;
  void AddPair(std::int32_t a, std::int32_t b);  ///< links a new pair node and reports it begun
  void RemovePair(std::int32_t node);
  /// Renumbers the pair nodes so that each proxy's nodes where it is `a` are adjacent, in its list's
  /// order, the free nodes after them: the lists' order (the walks' order) is unchanged.
  void CompactPairs();
  /// A moved proxy's processing (its pairs kept or ended, the new ones made) with the candidates from
  /// `forEachCandidate(fn)`, which calls fn(other) for the proxies ForEachOverlap(fat[proxy], ...)
  /// would visit, in its order (duplicates and proxy itself may be left out: the tag skips them).
  /// Defined in broadphase.cpp, its only user.
  /// kRecord: note the refused pairs of proxies still queued (Rejection), for the update on workers.
  template <bool kRecord = false, class ForEachCandidate>
  void ProcessMovedWith(std::int32_t proxy, ForEachCandidate&& forEachCandidate);
  /// The search half of ProcessMovedWith for moved[begin, end) (any thread; it writes only its outputs and
  /// a stamp set it holds): each alive moved
  /// proxy's answer (FoundRange) into `found` at chunks claimed from `cursor`; foundRanges[i] says
  /// where. split false: every answer raw (the update runs the serial code on all). Adds the number of
  /// proxies it answered for (alive, each once) to `answered`.
  void FindCandidates(int begin, int end, std::atomic<std::int64_t>& cursor, bool split,
                      std::atomic<int>& answered);
  /// The pair edits of one moved proxy from its split answer, on the calling thread in slot order.
  void MergeMoved(std::int32_t proxy, const FoundRange& range);
  void SizeStampSets(int workers);
  /// A stamp set no other range holds (any thread), or -1 when every one is taken.
  int AcquireStampSet();
  /// ShouldCollide(proxy, other) and the new pair when it allows it; a refusal noted when other is
  /// still queued and the filter is not pure (only the merge of an impure filter reads refusals).
  void OfferPair(std::int32_t proxy, std::int32_t other);
  bool Refused(std::int32_t first, std::int32_t proxy) const;
  /// tasks null or without workers: the serial update.
  void Update(const TaskSystem* tasks = nullptr);
  /// Whether a queue of `queued` proxies is put in order faster by ListQueueByBits than by a sort.
  bool QueueWantsBits(std::size_t queued) const;
  /// A queue of proxies in ascending order, each once, through one bit per slot (`queueBits`).
  void ListQueueByBits(std::vector<std::int32_t>& queue);
  /// `moved` in slot order (Update's processing order), duplicates collapsed when it uses the bits.
  void SortMoved();

  // --- structure (sweep_and_prune.cpp)
  /// The band of a cross-axis coordinate. Monotonic in the coordinate (one double expression), so a
  /// box's band range always contains the band of every point inside it, and overlapping boxes share a
  /// band. Out-of-range coordinates clamp to the end bands, which is still correct, only slower.
  /// Inline: every moved proxy's query asks it twice.
  int BandOf(float crossCoordinate) const {
    const double t = (static_cast<double>(crossCoordinate) - layout.origin) / layout.height;
    if (!(t >= 0.0)) return 0;
    if (t >= static_cast<double>(layout.count)) return layout.count - 1;
    return static_cast<int>(t);
  }
  /// Brings the lists up to date with the proxies' boxes; tasks (optional) share the list rebuilds.
  void Sync(const TaskSystem* tasks = nullptr);
  LayoutParams IdealLayout() const;
  bool NeedsRebuild(const LayoutParams& ideal) const;
  void FullRebuild(const LayoutParams& ideal);
  void RecycleBandLists();
  void GrowList(std::vector<BandEntry>& list, std::size_t needed);
  void PlaceProxy(std::int32_t proxy);
  void Relocate(const TaskSystem* tasks);
  void RelocateInOrder();
  void RelocateOnWorkers(const TaskSystem* tasks);
  void MarkDirty(Placement placement, int bandLo, int bandHi);
  void JoinOrLeaveLarge(std::int32_t proxy);
  /// Touches only list `key` (its band's entry for that kind), which must have room for its entries
  /// and the insertions (Relocate grows it first): the rebuilds of different lists may run at once.
  void RebuildList(int key, const std::int64_t* inserted, int insertedCount);
  BandEntry MakeEntry(std::int32_t proxy) const;

  /// Calls fn(proxy) for every proxy whose fat box overlaps `box`, possibly more than once (a proxy
  /// in several bands); fn returns false to stop. Returns false when stopped. restingOnly skips the
  /// bands' active lists (awake moving proxies); large proxies are visited whatever their kind.
  /// kOnce: each live proxy once, where it is first seen, and no entry of a destroyed one, without
  /// stamps (below), so it writes nothing and threads may run it side by side. `starts`: where the
  /// scans of the box's first band begin, if found beforehand (FindScanStarts), else searched here.
  template <bool kOnce = false, class Fn>
  bool ForEachOverlap(const AABB& box, Fn&& fn, bool restingOnly = false,
                      const ScanStarts* starts = nullptr) const;
  /// Where ForEachOverlap(fat[proxies[q]]) starts its scans of its first band, for q < count <=
  /// kScanBatch, into out[q]: the same answers as LowerBound, searched side by side (sweep_and_prune.cpp).
  void FindScanStarts(const std::int32_t* proxies, int count, ScanStarts* out) const;

  // --- queries (broadphase_query.cpp)
  /// The ray cast's band walk; kBox: a box cast of half extents `extent` (ignored for a ray, so the
  /// ray's walk pays nothing for boxes).
  template <bool kBox>
  void RayCast(const RayCastInput& input, Vec2 extent, RayCastFn fn, void* context);
};

/// Sorts a band list by (lo, proxy). `directSorts`: the list's count of sorts left that go straight to
/// std::sort, set when the insertion sort gives up (sweep_and_prune.cpp); the order is the same either
/// way.
void SortBandEntries(std::vector<BandEntry>& list, std::uint8_t& directSorts);

/// Visits, in list order, the entries of `list` from index `first` on whose sweep interval reaches
/// qlo and starts at or before qhi and whose cross interval meets [clo, chi]; stops at the first visit
/// that returns false, and returns false then. The entries are tested a batch at a time without
/// branches, their indices kept when all three tests pass, and the batch's hits visited after: a
/// moving crowd's scan passes about one entry in three, an outcome no branch predictor guesses (the
/// spinner's moved proxies scan some 300,000 entries a step).
template <class Visit>
bool ScanBandList(const std::vector<BandEntry>& list, int first, float qlo, float qhi, float clo, float chi,
                  Visit&& visit) {
  constexpr int kBatch = 32;
  std::int32_t hits[kBatch];
  const int n = static_cast<int>(list.size());
  int i = first;
  while (i < n && list[i].lo <= qhi) {
    const int end = std::min(n, i + kBatch);
    int count = 0;
    for (; i < end && list[i].lo <= qhi; ++i) {
      const BandEntry& e = list[i];
      hits[count] = i;
      count += static_cast<int>(e.hi >= qlo) & static_cast<int>(e.crossLo <= chi) &
               static_cast<int>(e.crossHi >= clo);
    }
    for (int k = 0; k < count; ++k) {
      if (!visit(list[hits[k]])) return false;
    }
  }
  return true;
}

template <bool kOnce, class Fn>
bool BroadPhase::Impl::ForEachOverlap(const AABB& box, Fn&& fn, bool restingOnly,
                                      const ScanStarts* starts) const {
  const int s = layout.axis;
  const int c = 1 - s;
  const float qlo = box.lower[s], qhi = box.upper[s], clo = box.lower[c], chi = box.upper[c];
  if (layout.count > 0) {
    const int b0 = BandOf(clo), b1 = BandOf(chi);
    for (int b = b0; b <= b1; ++b) {
      for (int kind = restingOnly ? kRestingList : kActiveList; kind < 2; ++kind) {
        const std::vector<BandEntry>& list = bands[b].list[kind];
        const int first = starts != nullptr && b == starts->band
                              ? starts->first[kind]
                              : LowerBound(list, ScanKey(qlo, bands[b].maxExtent[kind]));
        const bool whole = ScanBandList(list, first, qlo, qhi, clo, chi, [&](const BandEntry& e) {
          if constexpr (kOnce) {
            // A proxy has an entry, with the same box, in every band of [bandLo, bandHi] (placed at
            // the last Sync; a later move or destruction changes neither until the next), so the
            // query first meets it in band max(b0, bandLo): an entry in a later band is a repeat.
            if (e.generation != generation[e.proxy]) return true;  // destroyed since the last Sync
            if (b > b0 && slots[e.proxy].bandLo < b) return true;
          }
          return static_cast<bool>(fn(e.proxy));
        });
        if (!whole) return false;
      }
    }
  }
  for (std::int32_t proxy : large) {
    if (Overlaps(box, fat[proxy]) && !fn(proxy)) return false;
  }
  return true;
}

}  // namespace mk
