// SPDX-License-Identifier: MIT
// Minkowski — broadphase: proxies, the persistent pair set, UpdatePairs.
// [SECTION] Impl: ids, filter, pair nodes, moved-proxy processing
// [SECTION] BroadPhase: public API
#include "broadphase/broadphase_impl.h"
#include "core/parallel.h"
#include "minkowski/assert.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace mk {

// ---------------------------------------------------------------------------------------------
// [SECTION] Impl: ids, filter, pair nodes, moved-proxy processing
// ---------------------------------------------------------------------------------------------

bool BroadPhase::Impl::Live(ProxyId id) const {
  if (id.index1 == 0 || id.index1 > slots.size()) return false;
  const std::uint32_t index = id.index1 - 1;
  return slots[index].alive && generation[index] == id.generation;
}

std::int32_t BroadPhase::Impl::Checked(ProxyId id) const {
  const bool live = Live(id);
  MK_ASSERT(live);
  return live ? static_cast<std::int32_t>(id.index1 - 1) : -1;
}

ProxyId BroadPhase::Impl::IdOf(std::int32_t proxy) const {
  return {static_cast<std::uint32_t>(proxy) + 1u, generation[proxy]};
}

bool BroadPhase::Impl::SetListFlag(std::int32_t proxy, std::uint8_t flag) {
  const bool unlisted = (flags[proxy] & flag) == 0;
  flags[proxy] |= flag;
  return unlisted;
}

void BroadPhase::Impl::MarkMoved(std::int32_t proxy) {
  if (SetListFlag(proxy, kFlagQueued)) moved.push_back(proxy);
}

void BroadPhase::Impl::MarkRelocate(std::int32_t proxy) {
  layoutStale = true;
  if (SetListFlag(proxy, kFlagRelocate)) relocate.push_back(proxy);
}

std::uint32_t BroadPhase::Impl::NextTag() {
  if (++tag == 0) {  // wrapped after 2^32 tags: clear old stamps so none can match by accident
    std::fill(stamp.begin(), stamp.end(), 0u);
    tag = 1;
  }
  return tag;
}

// Order of rules documented on ProxyFilter. The group rule follows Box2D's documented semantics.
bool BroadPhase::Impl::PassesFilters(std::int32_t a, std::int32_t b) const {
  const ProxySlot& pa = slots[a];
  const ProxySlot& pb = slots[b];
  if (pa.type == ProxyType::Static && pb.type == ProxyType::Static) return false;
  const ProxyFilter& fa = pa.filter;
  const ProxyFilter& fb = pb.filter;
  if (fa.bodyId != kNoBody && fa.bodyId == fb.bodyId) return false;
  return FiltersAllowPair(fa, fb);
}

bool BroadPhase::Impl::ShouldCollide(std::int32_t a, std::int32_t b) const {
  if (!PassesFilters(a, b)) return false;
  const ProxySlot& pa = slots[a];
  const ProxySlot& pb = slots[b];
  if (shouldCollide != nullptr) {
    // Call with the lower slot first, so the answer cannot depend on which proxy moved.
    return a < b ? shouldCollide(pa.userData, pb.userData, shouldCollideContext)
                 : shouldCollide(pb.userData, pa.userData, shouldCollideContext);
  }
  return true;
}

ProxyPair BroadPhase::Impl::MakePair(const PairNode& node) const {
  return {IdOf(node.a), IdOf(node.b), slots[node.a].userData, slots[node.b].userData};
}

namespace {

// The link fields of `node` that belong to `proxy`'s list.
std::int32_t& NextOf(PairNode& node, std::int32_t proxy) { return node.a == proxy ? node.nextA : node.nextB; }
std::int32_t& PrevOf(PairNode& node, std::int32_t proxy) { return node.a == proxy ? node.prevA : node.prevB; }

bool PairLess(const ProxyPair& x, const ProxyPair& y) {
  if (x.proxyA.index1 != y.proxyA.index1) return x.proxyA.index1 < y.proxyA.index1;
  if (x.proxyB.index1 != y.proxyB.index1) return x.proxyB.index1 < y.proxyB.index1;
  if (x.proxyA.generation != y.proxyA.generation) return x.proxyA.generation < y.proxyA.generation;
  return x.proxyB.generation < y.proxyB.generation;
}

// Sorts `pairs` into PairLess's order. Each pair becomes one 64-bit key, its two indices side by side
// above its position in the list; the keys are sorted least significant byte first over the index bits
// (a pass where every key has the same byte is skipped), the pairs gathered in the keys' order and
// copied back, and each run of equal indices sorted by generation (a slot reused while its old pair is
// still reported: rare, and a run of one needs nothing). std::sort on the pairs themselves took 1.6% of
// tumbler's one-worker step (callgrind, model cycles: its compares are coin flips for the branch
// predictor, and it moves 32-byte records); the radix passes move 8 bytes and branch on no data.
void SortPairs(std::vector<ProxyPair>& pairs, PairSortScratch& scratch) {
  constexpr std::size_t kComparisonSortBelow = 64;
  const std::size_t n = pairs.size();
  std::uint32_t indices = 0;
  for (const ProxyPair& p : pairs) indices |= p.proxyA.index1 | p.proxyB.index1;
  const int indexBits = std::bit_width(indices);
  const int positionBits = std::bit_width(n);
  if (n < kComparisonSortBelow || 2 * indexBits + positionBits > 64) {
    std::sort(pairs.begin(), pairs.end(), PairLess);
    return;
  }
  std::vector<std::uint64_t>& keys = scratch.keys;
  std::vector<std::uint64_t>& other = scratch.otherKeys;
  keys.resize(n);
  other.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t indexKey =
        (std::uint64_t{pairs[i].proxyA.index1} << indexBits) | pairs[i].proxyB.index1;
    keys[i] = (indexKey << positionBits) | i;
  }
  const int keyBits = 2 * indexBits + positionBits;
  for (int shift = positionBits; shift < keyBits; shift += 8) {
    std::array<std::uint32_t, 256> start{};
    for (const std::uint64_t key : keys) ++start[(key >> shift) & 0xFF];
    if (std::find(start.begin(), start.end(), n) != start.end()) continue;  // one byte for all
    std::uint32_t sum = 0;
    for (std::uint32_t& bucket : start) sum += std::exchange(bucket, sum);
    for (const std::uint64_t key : keys) other[start[(key >> shift) & 0xFF]++] = key;
    keys.swap(other);
  }
  std::vector<ProxyPair>& sorted = scratch.pairs;
  sorted.resize(n);
  const std::uint64_t positionMask = (std::uint64_t{1} << positionBits) - 1;
  for (std::size_t i = 0; i < n; ++i) sorted[i] = pairs[keys[i] & positionMask];
  std::copy(sorted.begin(), sorted.end(), pairs.begin());  // a swap would pass buffers between lists
  for (std::size_t i = 0; i < n;) {
    std::size_t end = i + 1;
    while (end < n && keys[end] >> positionBits == keys[i] >> positionBits) ++end;
    if (end - i > 1)
      std::sort(pairs.begin() + static_cast<std::ptrdiff_t>(i),
                pairs.begin() + static_cast<std::ptrdiff_t>(end), PairLess);
    i = end;
  }
}

}  // namespace

void BroadPhase::Impl::AddPair(std::int32_t a, std::int32_t b) {
  if (b < a) std::swap(a, b);
  std::int32_t n;
  if (pairFree != -1) {
    n = pairFree;
    pairFree = pairs[n].nextA;
  } else {
    n = static_cast<std::int32_t>(pairs.size());
    pairs.emplace_back();
  }
  PairNode& node = pairs[n];
  node = {a, b, slots[a].pairHead, -1, slots[b].pairHead, -1};
  if (node.nextA != -1) PrevOf(pairs[node.nextA], a) = n;
  if (node.nextB != -1) PrevOf(pairs[node.nextB], b) = n;
  slots[a].pairHead = n;
  slots[b].pairHead = n;
  ++pairCount;
  ++pairChurn;
  begun.push_back(MakePair(node));
}

void BroadPhase::Impl::RemovePair(std::int32_t n) {
  PairNode& node = pairs[n];
  for (std::int32_t proxy : {node.a, node.b}) {
    const std::int32_t next = NextOf(node, proxy);
    const std::int32_t prev = PrevOf(node, proxy);
    if (prev != -1) {
      NextOf(pairs[prev], proxy) = next;
    } else {
      slots[proxy].pairHead = next;
    }
    if (next != -1) PrevOf(pairs[next], proxy) = prev;
  }
  node = PairNode{};
  node.nextA = pairFree;
  pairFree = n;
  --pairCount;
  ++pairChurn;
}

// One walk of every list numbers the nodes (each in its `a` proxy's turn, so a node is numbered once),
// one pass over the pool moves them with their links renumbered, and the unused rest becomes the free
// list in ascending order (new pairs then take the next nodes in memory). Node numbers are internal:
// every list keeps its order, so the walks, reports and ShouldCollideFn calls are as before.
void BroadPhase::Impl::CompactPairs() {
  const std::size_t size = pairs.size();
  pairRemap.assign(size, -1);
  std::int32_t used = 0;
  for (std::int32_t p = 0; p < static_cast<std::int32_t>(slots.size()); ++p) {
    for (std::int32_t n = slots[p].pairHead; n != -1;) {
      const PairNode& node = pairs[n];
      if (node.a == p) {
        pairRemap[n] = used++;
        n = node.nextA;
      } else {
        n = node.nextB;
      }
    }
  }
  const auto renumber = [this](std::int32_t n) { return n == -1 ? -1 : pairRemap[n]; };
  // The pool's capacity, not just its size: swapped in, the scratch must grow as far as the pool could
  // have before it needs an allocation.
  pairScratch.reserve(pairs.capacity());
  pairScratch.resize(size);
  for (std::size_t n = 0; n < size; ++n) {
    const PairNode& node = pairs[n];
    if (node.a == -1) continue;
    pairScratch[pairRemap[n]] = {node.a,
                                 node.b,
                                 renumber(node.nextA),
                                 renumber(node.prevA),
                                 renumber(node.nextB),
                                 renumber(node.prevB)};
  }
  for (ProxySlot& slot : slots) slot.pairHead = renumber(slot.pairHead);
  pairFree = -1;
  for (std::int32_t n = static_cast<std::int32_t>(size) - 1; n >= used; --n) {
    pairScratch[n] = PairNode{};
    pairScratch[n].nextA = pairFree;
    pairFree = n;
  }
  pairs.swap(pairScratch);
  pairChurn = 0;
  if (pairCompactions < std::numeric_limits<int>::max()) ++pairCompactions;  // a statistic: saturates
}

// A moved proxy's pairs: keep the partners still overlapping (stamped with a fresh tag), end the
// others, then every overlapping candidate without the tag is a new pair. A pair of two moved
// proxies is handled by whichever comes first; the second finds it stamped.
template <bool kRecord, class ForEachCandidate>
void BroadPhase::Impl::ProcessMovedWith(std::int32_t m, ForEachCandidate&& forEachCandidate) {
  const std::uint32_t t = NextTag();
  const AABB box = fat[m];
  const bool refilter = (flags[m] & kFlagRefilter) != 0;
  for (std::int32_t n = slots[m].pairHead; n != -1;) {
    PairNode& node = pairs[n];
    const std::int32_t other = node.a == m ? node.b : node.a;
    const std::int32_t next = NextOf(node, m);
    if (!Overlaps(box, fat[other]) || (refilter && !ShouldCollide(m, other))) {
      ended.push_back(MakePair(node));
      RemovePair(n);
    } else {
      stamp[other] = t;
    }
    n = next;
  }
  stamp[m] = t;
  forEachCandidate([&](std::int32_t other) {
    if (stamp[other] != t) {
      stamp[other] = t;
      if constexpr (kRecord) {
        OfferPair(m, other);
      } else if (ShouldCollide(m, other)) {
        AddPair(m, other);
      }
    }
    return true;
  });
}

void BroadPhase::Impl::OfferPair(std::int32_t m, std::int32_t other) {
  if (ShouldCollide(m, other)) {
    AddPair(m, other);
  } else if (!shouldCollidePure && (flags[other] & kFlagQueued) != 0) {
    // other is a moved proxy still to come: the serial update would offer it the pair again. Only the
    // merge of an impure filter reads refusals (MergeMoved); a pure filter's merge skips the empty
    // answers without clearing their flags, so `queued` would not mean "still to come" there.
    rejections.push_back({m, rejectHead[other]});
    rejectHead[other] = static_cast<std::int32_t>(rejections.size() - 1);
  }
}

bool BroadPhase::Impl::Refused(std::int32_t first, std::int32_t m) const {
  for (std::int32_t r = rejectHead[m]; r != -1; r = rejections[r].next)
    if (rejections[r].proxy == first) return true;
  return false;
}

// What the serial code would do for m, from the answer that the search split off (FindSplitAnswer): end
// the listed pair nodes, then offer each new candidate in the query's order. A candidate ~c is a moved
// proxy processed before m that was offered the pair first: the serial m finds it among its partners
// (and asks nothing) unless c's ShouldCollide refused, when m asks again.
void BroadPhase::Impl::MergeMoved(std::int32_t m, const FoundRange& range) {
  const std::int32_t* answer = found.data() + range.begin;
  for (std::int32_t k = 0; k < range.removed; ++k) {
    ended.push_back(MakePair(pairs[answer[k]]));
    RemovePair(answer[k]);
  }
  for (std::int32_t k = range.removed; k < range.count; ++k) {
    const std::int32_t other = answer[k];
    if (shouldCollidePure) {  // FindSplitAnswer asked every filter already
      AddPair(m, other);
    } else if (other >= 0) {
      OfferPair(m, other);
    } else if (Refused(~other, m)) {
      OfferPair(m, ~other);
    }
  }
}

namespace {

constexpr std::int32_t kFull = -2;  // an answer did not fit in the buffer

// Appends one moved proxy's answer to `found` in chunks claimed from the shared cursor as it needs
// room; an answer stays contiguous (a full chunk's partial answer moves to the next chunk).
class AnswerWriter {
 public:
  AnswerWriter(std::vector<std::int32_t>& found, std::atomic<std::int64_t>& cursor)
      : out_(found.data()), capacity_(static_cast<std::int64_t>(found.size())), cursor_(cursor) {}
  void Begin() { start_ = pos_; }
  /// False when the buffer cannot give room; then Abandon.
  bool Put(std::int32_t value) {
    if (pos_ == chunkEnd_ && !Claim()) return false;
    out_[pos_++] = value;
    return true;
  }
  void Abandon() { pos_ = chunkEnd_ = 0; }
  std::int32_t Start() const { return static_cast<std::int32_t>(start_); }
  std::int32_t Count() const { return static_cast<std::int32_t>(pos_ - start_); }

 private:
  bool Claim() {
    constexpr std::int64_t kChunk = 256;  // about 30 moved proxies' answers
    const std::int64_t have = pos_ - start_;
    const std::int64_t want = std::max(kChunk, 2 * have);
    const std::int64_t at = cursor_.fetch_add(want, std::memory_order_relaxed);
    if (at + want > capacity_) return false;
    std::copy(out_ + start_, out_ + pos_, out_ + at);
    start_ = at;
    pos_ = at + have;
    chunkEnd_ = at + want;
    return true;
  }

  std::int32_t* out_;
  std::int64_t capacity_;
  std::atomic<std::int64_t>& cursor_;
  std::int64_t start_ = 0, pos_ = 0, chunkEnd_ = 0;  // the answer [start_, pos_) in [.., chunkEnd_)
};

// A moved proxy processed before m this update: every live proxy flagged queued is in `moved`, which
// Update takes in slot order, and the flags do not change until the merge.
bool EarlierMoved(const BroadPhase::Impl& s, std::int32_t other, std::int32_t m) {
  return other < m && (s.flags[other] & kFlagQueued) != 0;
}

// The query's candidates as they are (each once; the serial code's tags would skip repeats).
bool FindRawAnswer(const BroadPhase::Impl& s, std::int32_t m, AnswerWriter& w) {
  return s.ForEachOverlap<true>(s.fat[m], [&](std::int32_t other) { return other == m || w.Put(other); });
}

// A range's dedupe stamps, as the serial code's `stamp` and `tag`: a fresh tag per moved proxy, and a
// proxy stamped with it is a kept partner or a candidate already seen.
class WorkerStamps {
 public:
  explicit WorkerStamps(StampSet& set) : set_(set) {}
  std::uint32_t Next() {
    if (++set_.tag == 0) {  // wrapped: clear old stamps so none can match by accident
      std::fill(set_.stamp.begin(), set_.stamp.end(), 0u);
      set_.tag = 1;
    }
    return set_.tag;
  }
  std::uint32_t& operator[](std::int32_t proxy) { return set_.stamp[static_cast<std::size_t>(proxy)]; }

 private:
  StampSet& set_;
};

// m's split answer: the pair nodes that m's walk will end, then the candidates that m will offer a pair
// (MergeMoved). A pair of m and an earlier moved proxy is that one's to end or make (the serial walk of
// the earlier one ends it when the boxes do not overlap; Overlaps is symmetric, and so is the query, so
// the earlier one's answer holds m). Kept partners (stamped in the walk), repeats in the query's answer
// and candidates that the filters refuse are left out; with a pure ShouldCollideFn, so are candidates it
// refuses and earlier moved ones. Returns how many nodes end, or kFull.
int FindSplitAnswer(const BroadPhase::Impl& s, std::int32_t m, const ScanStarts& starts, AnswerWriter& w,
                    WorkerStamps& stamp) {
  const std::uint32_t t = stamp.Next();
  const AABB box = s.fat[m];
  for (std::int32_t n = s.slots[m].pairHead; n != -1;) {
    const PairNode& node = s.pairs[n];
    const std::int32_t other = node.a == m ? node.b : node.a;
    if (Overlaps(box, s.fat[other])) {
      stamp[other] = t;
    } else if (!EarlierMoved(s, other, m) && !w.Put(n)) {
      return kFull;
    }
    n = node.a == m ? node.nextA : node.nextB;
  }
  stamp[m] = t;
  const std::int32_t removed = w.Count();
  const bool stored = s.ForEachOverlap(
      box,
      [&](std::int32_t other) {
        if (stamp[other] == t) return true;
        stamp[other] = t;
        if (s.shouldCollidePure) {
          // The earlier proxy's answer holds m (as above): it makes the pair, or the filter refuses it and
          // would refuse m too. Any other candidate the filter passes, the merge only adds.
          if (EarlierMoved(s, other, m) || !s.ShouldCollide(m, other)) return true;
          return w.Put(other);
        }
        if (!s.PassesFilters(m, other)) return true;
        return w.Put(EarlierMoved(s, other, m) ? ~other : other);
      },
      false, &starts);
  return stored ? removed : kFull;
}

}  // namespace

// The search reads only what Sync left (band lists, the large list, fat boxes, pair lists, flags,
// `moved`) and writes only its items' FoundRange, the chunks it claimed and the stamp set it holds, so
// ranges may run on any threads in any order. When the buffer cannot give room, the proxy is marked
// (count -1) and the merge searches for it on the calling thread: the same answer.
void BroadPhase::Impl::FindCandidates(int begin, int end, std::atomic<std::int64_t>& cursor, bool split,
                                      std::atomic<int>& answered) {
  AnswerWriter w(found, cursor);
  // A task system that runs more ranges at once than it has workers (the contract forbids it) leaves a
  // range without a stamp set: its answers are raw, and the merge runs the serial code: the same result.
  const int set = split ? AcquireStampSet() : -1;
  split = set >= 0;
  StampSet unused;
  WorkerStamps stamps(split ? stampSets[static_cast<std::size_t>(set)] : unused);
  ScanStarts starts[kScanBatch];  // a batch's scan starts, as in Update
  int answeredHere = 0;
  for (int i = begin; i < end; ++i) {
    const std::int32_t m = moved[i];
    // Only the split answers scan from the starts; the raw ones (a re-filtering update) walk the pairs.
    if (split && (i - begin) % kScanBatch == 0)
      FindScanStarts(moved.data() + i, std::min(kScanBatch, end - i), starts);
    // Dead, or a repeat of a reused slot (SortMoved leaves repeats side by side): the merge skips it.
    if (!slots[m].alive || (i > 0 && moved[i - 1] == m)) {
      foundRanges[i] = {};
      continue;
    }
    ++answeredHere;
    w.Begin();
    const int removed = split ? FindSplitAnswer(*this, m, starts[(i - begin) % kScanBatch], w, stamps)
                              : (FindRawAnswer(*this, m, w) ? kRawCandidates : kFull);
    if (removed == kFull) {
      foundRanges[i] = {0, -1, 0};
      w.Abandon();
    } else {
      foundRanges[i] = {w.Start(), w.Count(), removed};
    }
  }
  // Release: the next range to take the set sees every stamp this one wrote.
  if (set >= 0) stampSetBusy[static_cast<std::size_t>(set)].store(false, std::memory_order_release);
  answered.fetch_add(answeredHere, std::memory_order_relaxed);
}

// On the calling thread before the search: a set of stamps (one per slot) for each worker, growing
// only with the slots and the workers.
void BroadPhase::Impl::SizeStampSets(int workers) {
  const std::size_t count = static_cast<std::size_t>(workers);
  if (stampSets.size() < count) {
    stampSets.resize(count);
    stampSetBusy = std::vector<std::atomic<bool>>(count);  // atomics do not move: a new array, all free
  }
  for (StampSet& set : stampSets) {
    if (set.stamp.size() < slots.size()) set.stamp.resize(slots.size(), 0u);
  }
}

int BroadPhase::Impl::AcquireStampSet() {
  for (std::size_t i = 0; i < stampSetBusy.size(); ++i) {
    bool expected = false;
    // Acquire: this range sees every stamp that the set's last holder wrote.
    if (stampSetBusy[i].compare_exchange_strong(expected, true, std::memory_order_acquire))
      return static_cast<int>(i);
  }
  return -1;
}

// A comparison sort costs about log2(n) compares per entry; one bit per slot and a scan of the words
// costs capacity / 64 words plus the entries. When most proxies are queued (a swinging net, a falling
// pile, rain's relocations: 5,700 of 10,400 proxies an update) the bits win by far.
bool BroadPhase::Impl::QueueWantsBits(std::size_t queued) const {
  return queued >= 64 && slots.size() / 64 <= queued * 4;
}

void BroadPhase::Impl::ListQueueByBits(std::vector<std::int32_t>& queue) {
  queueBits.assign((slots.size() + 63) / 64, 0);
  for (std::int32_t proxy : queue) queueBits[static_cast<std::size_t>(proxy) / 64] |= 1ull << (proxy % 64);
  queue.clear();
  for (std::size_t word = 0; word < queueBits.size(); ++word) {
    for (std::uint64_t bits = queueBits[word]; bits != 0; bits &= bits - 1)
      queue.push_back(
          static_cast<std::int32_t>(word * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
  }
}

// Duplicates (a slot freed and reused while queued) collapse into one entry with the bits, and stay
// side by side with the sort, which Update skips once the first has cleared kFlagQueued.
void BroadPhase::Impl::SortMoved() {
  if (QueueWantsBits(moved.size())) {
    ListQueueByBits(moved);
  } else {
    std::sort(moved.begin(), moved.end());
  }
}

void BroadPhase::Impl::Update(const TaskSystem* tasks) {
  ++updateCount;
  if (updateCount % static_cast<std::uint64_t>(reevaluateInterval) == 0) evaluateDue = true;
  begun.clear();
  ended.clear();
  ended.swap(pendingEnded);
  Sync(tasks);
  // Slot order: independent of the order of MoveProxy calls. (Band-then-sweep order was tried: faster
  // on the drift benchmark, slower on the pile, where creation order is already spatially coherent.)
  SortMoved();
  int processed = 0;
  // Below this many moved proxies a parallel-for costs more than the searches it would share.
  constexpr int kMinMovedForWorkers = 64;
  constexpr int kMinMovedPerRange = 32;
  const int movedCount = static_cast<int>(moved.size());
  if (HasWorkers(tasks) && movedCount >= kMinMovedForWorkers) {
    // Find on the workers, then merge here in `moved` order: the searches also do the reading part of
    // each proxy's processing (FindSplitAnswer), the merge only the edits, so every pair node, free
    // list link, report and ShouldCollideFn call is the serial update's (a pure ShouldCollideFn is
    // asked in the searches instead: the same answers, so the same edits). With a re-filter (its walk
    // asks ShouldCollideFn) every proxy gets the serial code fed its stored candidates.
    const bool split = std::none_of(moved.begin(), moved.end(),
                                    [&](std::int32_t proxy) { return (flags[proxy] & kFlagRefilter) != 0; });
    foundRanges.resize(moved.size());
    if (found.empty()) found.resize(1024);  // small: the first updates grow it to what they claim
    if (rejectHead.size() < slots.size()) rejectHead.resize(slots.size(), -1);
    SizeStampSets(tasks->workerCount);
    std::atomic<std::int64_t> cursor{0};
    std::atomic<int> answered{0};
    ParallelFor(tasks, movedCount, kMinMovedPerRange,
                [&](int begin, int end) { FindCandidates(begin, end, cursor, split, answered); });
    // With a pure filter the merge of an empty answer edits nothing (no pair ends or begins, and no
    // refusal is kept: OfferPair), so it is skipped without reading the proxy's slot or flags: most
    // moved proxies keep their pairs (tumbler: 83% of 1,900 a step; joint_grid: all of 5,600, whose
    // merge was 0.05 ms a step of reads on the calling thread). The flags are cleared below.
    // Only a split answer: an empty raw one (a range left without a stamp set) means no proxy overlaps,
    // and the serial code it feeds still ends the proxy's pairs.
    const bool skipEmpty = split && shouldCollidePure;
    processed = answered.load(std::memory_order_relaxed);
    bool overflowed = false;
    for (int i = 0; i < movedCount; ++i) {
      if (skipEmpty && foundRanges[i].count == 0 && foundRanges[i].removed != kRawCandidates) continue;
      const std::int32_t proxy = moved[i];
      if (!slots[proxy].alive || (flags[proxy] & kFlagQueued) == 0) continue;
      flags[proxy] &= static_cast<std::uint8_t>(~kFlagQueued);
      const FoundRange range = foundRanges[i];
      if (range.count < 0) {
        overflowed = true;
        ProcessMovedWith<true>(proxy, [&](auto&& fn) { ForEachOverlap(fat[proxy], fn); });
      } else if (range.removed == kRawCandidates) {
        const std::int32_t* candidates = found.data() + range.begin;
        ProcessMovedWith<true>(proxy, [&](auto&& fn) {
          for (std::int32_t k = 0; k < range.count; ++k) fn(candidates[k]);
        });
      } else {
        MergeMoved(proxy, range);
      }
      rejectHead[proxy] = -1;  // its refusals are read: none is left for the next update
    }
    rejections.clear();
    // Room for what this update claimed, so the next one (on any schedule) stores everything.
    if (overflowed) found.resize(static_cast<std::size_t>(2 * cursor.load(std::memory_order_relaxed)));
  } else {
    // The scans' starts a batch of proxies at a time, their searches side by side (FindScanStarts):
    // one search's chain of loads left the processor waiting. Spinner, one worker, perf record: the
    // update's share of the cycles 16.6-17.2% with each search issued one proxy ahead, 15.7-16.1% in
    // batches; with the continuous stage's static queries, 19.4-20.4% before either, 17.7-18.1% now.
    ScanStarts starts[kScanBatch];
    for (int i = 0; i < movedCount; ++i) {
      const std::int32_t proxy = moved[i];
      if (i % kScanBatch == 0) FindScanStarts(moved.data() + i, std::min(kScanBatch, movedCount - i), starts);
      if (!slots[proxy].alive || (flags[proxy] & kFlagQueued) == 0) continue;
      flags[proxy] &= static_cast<std::uint8_t>(~kFlagQueued);  // also skips duplicates of reused slots
      ProcessMovedWith(proxy,
                       [&](auto&& fn) { ForEachOverlap(fat[proxy], fn, false, &starts[i % kScanBatch]); });
      ++processed;
    }
  }
  for (std::int32_t proxy : moved) flags[proxy] &= static_cast<std::uint8_t>(~(kFlagQueued | kFlagRefilter));
  moved.clear();
  movedLastUpdate = processed;
  // Compacting costs a walk of every slot and pair, so it waits until as many pairs have changed
  // (amortised: a constant per pair made or ended). The spinner and tumbler scenes then compact every
  // seven steps or so, rain every 38; a settled world, however many pairs it holds, never.
  const std::int64_t compactAt =
      std::max<std::int64_t>(pairCount, static_cast<std::int64_t>(slots.size() / 4));
  if (pairChurn > 0 && pairChurn >= compactAt) CompactPairs();

  SortPairs(begun, pairSortScratch);
  SortPairs(ended, pairSortScratch);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] BroadPhase: public API
// ---------------------------------------------------------------------------------------------

BroadPhase::BroadPhase(const BroadPhaseDef& def) : impl_(OwnedPtr<Impl>(new Impl())) {
  const bool marginOk = std::isfinite(def.margin) && def.margin >= 0.0f;
  MK_ASSERT(marginOk);
  MK_ASSERT(def.reevaluateInterval >= 1);
  MK_ASSERT(def.maxBands >= 0 && def.maxBands <= kMaxBroadPhaseBands);
  impl_->margin = marginOk ? def.margin : 0.1f;
  impl_->axisMode = def.axis;
  impl_->maxBands = std::clamp(def.maxBands, 0, kMaxBroadPhaseBands);
  impl_->reevaluateInterval = std::max(1, def.reevaluateInterval);
  impl_->shouldCollide = def.shouldCollide;
  impl_->shouldCollideContext = def.shouldCollideContext;
}

BroadPhase::~BroadPhase() = default;
BroadPhase::BroadPhase(BroadPhase&&) noexcept = default;
BroadPhase& BroadPhase::operator=(BroadPhase&&) noexcept = default;

ProxyResult BroadPhase::CreateProxy(const ProxyDef& def) {
  const bool valid = mk::IsValid(def.aabb);
  MK_ASSERT(valid);
  if (!valid) return {ProxyId{}, BroadPhaseError::InvalidAABB};
  Impl& s = *impl_;
  std::int32_t proxy;
  if (s.freeHead != -1) {
    proxy = s.freeHead;
    s.freeHead = s.slots[proxy].nextFree;
  } else {
    proxy = static_cast<std::int32_t>(s.slots.size());
    s.slots.emplace_back();
    s.fat.emplace_back();
    s.generation.push_back(1);
    s.flags.push_back(0);
    s.stamp.push_back(0);
  }
  ProxySlot& slot = s.slots[proxy];
  slot = ProxySlot{};
  s.fat[proxy] = Inflate(def.aabb, s.MarginOr(def.margin));
  slot.userData = def.userData;
  slot.filter = def.filter;
  slot.type = def.type;
  slot.awake = def.type == ProxyType::Static ? true : def.awake;
  slot.alive = true;
  s.flags[proxy] = 0;
  s.MarkMoved(proxy);
  s.MarkRelocate(proxy);
  ++s.proxyCount;
  return {s.IdOf(proxy), BroadPhaseError::None};
}

BroadPhaseError BroadPhase::DestroyProxy(ProxyId id) {
  Impl& s = *impl_;
  const std::int32_t proxy = s.Checked(id);
  if (proxy < 0) return BroadPhaseError::StaleId;
  ProxySlot& slot = s.slots[proxy];
  while (slot.pairHead != -1) {
    s.pendingEnded.push_back(s.MakePair(s.pairs[slot.pairHead]));
    s.RemovePair(slot.pairHead);
  }
  // Band entries are dropped lazily (their generation no longer matches); the lists are marked dirty.
  if (slot.placement == Placement::Large) {
    s.large.erase(std::find(s.large.begin(), s.large.end(), proxy));
  } else {
    s.MarkDirty(slot.placement, slot.bandLo, slot.bandHi);
  }
  slot.alive = false;
  slot.placement = Placement::None;
  // A refit never queued is not a live proxy's; nor is a re-filter (its pairs are gone).
  s.flags[proxy] &= static_cast<std::uint8_t>(~(kFlagRefitted | kFlagRefilter));
  s.layoutStale = true;
  slot.nextFree = s.freeHead;
  s.freeHead = proxy;
  if (++s.generation[proxy] == 0) s.generation[proxy] = 1;
  --s.proxyCount;
  return BroadPhaseError::None;
}

// MoveProxy's and RefitProxy's work, with what to do for a proxy whose tight box left its fat box
// once the fat box is re-centred: queue it now (MoveProxy) or mark it for QueueRefittedProxy.
template <class OnRefitted>
[[gnu::always_inline]] inline BroadPhaseError BroadPhase::Impl::Refit(ProxyId id, const AABB& tightAABB,
                                                                      float proxyMargin,
                                                                      OnRefitted&& onRefitted) {
  const std::int32_t proxy = Checked(id);
  if (proxy < 0) return BroadPhaseError::StaleId;
  AABB& box = fat[proxy];
  // The common case first, and cheaply: a box inside the fat box (whose bounds are finite) with lower
  // <= upper has finite bounds, so it is valid, and nothing moves. Anything else gets the full check.
  if (Contains(box, tightAABB) && tightAABB.lower.x <= tightAABB.upper.x &&
      tightAABB.lower.y <= tightAABB.upper.y) {
    return BroadPhaseError::None;
  }
  const bool valid = mk::IsValid(tightAABB);
  MK_ASSERT(valid);
  if (!valid) return BroadPhaseError::InvalidAABB;
  box = Inflate(tightAABB, MarginOr(proxyMargin));
  onRefitted(proxy);
  return BroadPhaseError::None;
}

BroadPhaseError BroadPhase::MoveProxy(ProxyId id, const AABB& tightAABB) {
  return MoveProxy(id, tightAABB, -1.0f);
}

BroadPhaseError BroadPhase::MoveProxy(ProxyId id, const AABB& tightAABB, float margin) {
  Impl& s = *impl_;
  return s.Refit(id, tightAABB, margin, [&s](std::int32_t proxy) {
    s.MarkMoved(proxy);
    s.MarkRelocate(proxy);
  });
}

BroadPhaseError BroadPhase::RefitProxy(ProxyId id, const AABB& tightAABB, bool& refitted) {
  return RefitProxy(id, tightAABB, -1.0f, refitted);
}

BroadPhaseError BroadPhase::RefitProxy(ProxyId id, const AABB& tightAABB, float margin, bool& refitted) {
  Impl& s = *impl_;
  refitted = false;
  // This proxy's box and flag only: the queueing waits for QueueRefittedProxy, on one thread.
  return s.Refit(id, tightAABB, margin, [&s, &refitted](std::int32_t proxy) {
    s.flags[proxy] |= kFlagRefitted;
    refitted = true;
  });
}

// A ticket (ClaimRefittedProxy): the proxy's index + 1 above two bits, whether it goes on `moved` and
// whether on `relocate` (each list takes a proxy once: the flags said which still needed it).
constexpr std::uint64_t kTicketMoved = 1, kTicketRelocate = 2;
constexpr int kTicketShift = 2;

BroadPhaseError BroadPhase::ClaimRefittedProxy(ProxyId id, std::uint64_t& ticket) {
  Impl& s = *impl_;
  ticket = 0;
  // Only a live proxy carries kFlagRefitted (RefitProxy sets it through Checked, DestroyProxy clears
  // it), so with the flag and the generation the slot need not be read: its line, 64 bytes a proxy,
  // was most of the queueing's time when the workers' scatter had refitted thousands (joint_grid).
  const std::uint32_t index = id.index1 - 1;
  const bool flagged = id.index1 != 0 && index < s.slots.size() && s.generation[index] == id.generation &&
                       (s.flags[index] & kFlagRefitted) != 0;
  const std::int32_t proxy = flagged ? static_cast<std::int32_t>(index) : s.Checked(id);
  if (proxy < 0) return BroadPhaseError::StaleId;
  if ((s.flags[proxy] & kFlagRefitted) == 0) return BroadPhaseError::None;
  s.flags[proxy] &= static_cast<std::uint8_t>(~kFlagRefitted);
  // MarkMoved's and MarkRelocate's flags; their appends wait for QueueClaimedProxies.
  const std::uint64_t moved = s.SetListFlag(proxy, kFlagQueued) ? kTicketMoved : 0;
  const std::uint64_t relocate = s.SetListFlag(proxy, kFlagRelocate) ? kTicketRelocate : 0;
  ticket = (static_cast<std::uint64_t>(proxy) + 1) << kTicketShift | moved | relocate;
  return BroadPhaseError::None;
}

void BroadPhase::QueueClaimedProxies(Span<const std::uint64_t> tickets) {
  Impl& s = *impl_;
  for (const std::uint64_t ticket : tickets) {
    if (ticket == 0) continue;
    const auto proxy = static_cast<std::int32_t>((ticket >> kTicketShift) - 1);
    if (ticket & kTicketMoved) s.moved.push_back(proxy);
    if (ticket & kTicketRelocate) s.relocate.push_back(proxy);
    s.layoutStale = true;  // as MarkRelocate, whether or not the proxy was listed already
  }
}

BroadPhaseError BroadPhase::QueueRefittedProxy(ProxyId id) {
  std::uint64_t ticket = 0;
  const BroadPhaseError error = ClaimRefittedProxy(id, ticket);
  if (ticket != 0) QueueClaimedProxies(Span<const std::uint64_t>(&ticket, 1));
  return error;
}

BroadPhaseError BroadPhase::SetProxyAwake(ProxyId id, bool awake) {
  Impl& s = *impl_;
  const std::int32_t proxy = s.Checked(id);
  if (proxy < 0) return BroadPhaseError::StaleId;
  ProxySlot& slot = s.slots[proxy];
  if (slot.type == ProxyType::Static || slot.awake == awake) return BroadPhaseError::None;
  slot.awake = awake;
  s.MarkRelocate(proxy);  // changes lists only: the fat box, hence every pair, is unchanged
  return BroadPhaseError::None;
}

BroadPhaseError BroadPhase::SetProxyFilter(ProxyId id, const ProxyFilter& filter) {
  Impl& s = *impl_;
  const std::int32_t proxy = s.Checked(id);
  if (proxy < 0) return BroadPhaseError::StaleId;
  s.slots[proxy].filter = filter;
  return RefilterProxy(id);
}

BroadPhaseError BroadPhase::RefilterProxy(ProxyId id) {
  Impl& s = *impl_;
  const std::int32_t proxy = s.Checked(id);
  if (proxy < 0) return BroadPhaseError::StaleId;
  // A proxy without pairs has none to re-filter (pairs are made only in Update, each asking the
  // filter as it is then): queued, its query offers every candidate to the new filter. Flagged, it
  // would turn the whole update on workers into raw answers that the calling thread merges with the
  // serial code; rain joins the parts of new ragdolls, proxies made that step, every eighth step.
  if (s.slots[proxy].pairHead != -1) s.flags[proxy] |= kFlagRefilter;
  s.MarkMoved(proxy);
  return BroadPhaseError::None;
}

void BroadPhase::SetShouldCollide(ShouldCollideFn fn, void* context, bool pure) {
  impl_->shouldCollide = fn;
  impl_->shouldCollideContext = context;
  impl_->shouldCollidePure = pure;
}

void BroadPhase::UpdatePairs() { impl_->Update(); }

void BroadPhase::UpdatePairs(const TaskSystem& tasks) { impl_->Update(&tasks); }

Span<const ProxyPair> BroadPhase::BegunPairs() const { return impl_->begun; }

Span<const ProxyPair> BroadPhase::EndedPairs() const { return impl_->ended; }

bool BroadPhase::IsValid(ProxyId id) const { return impl_->Live(id); }

AABB BroadPhase::GetFatAABB(ProxyId id) const { return impl_->Live(id) ? impl_->fat[id.index1 - 1] : AABB{}; }

std::uint64_t BroadPhase::GetUserData(ProxyId id) const {
  return impl_->Live(id) ? impl_->slots[id.index1 - 1].userData : 0u;
}

float BroadPhase::Margin() const { return impl_->margin; }

void BroadPhase::SetMargin(float margin) {
  const bool valid = std::isfinite(margin) && margin >= 0.0f;
  MK_ASSERT(valid);
  if (valid) impl_->margin = margin;
}

std::size_t BroadPhase::MemoryBytes() const {
  // What CapacityBytes counts (every array a step may grow), plus CollectPairs' scratch, which only
  // that inspection call grows (so CapacityBytes, the no-growth proof, leaves it out).
  return CapacityBytes() + impl_->collectScratch.capacity() * sizeof(ProxyPair);
}

BroadPhaseStats BroadPhase::Stats() const {
  const Impl& s = *impl_;
  return {s.proxyCount,     s.pairCount, s.movedLastUpdate, s.fullRebuilds, static_cast<int>(s.large.size()),
          s.pairCompactions};
}

BroadPhaseLayout BroadPhase::Layout() const {
  const LayoutParams& l = impl_->layout;
  return {l.axis, static_cast<float>(l.origin), static_cast<float>(l.height), std::max(1, l.count)};
}

int BroadPhase::CollectPairs(Span<ProxyPair> out) const {
  Impl& s = *impl_;
  std::vector<ProxyPair>& sorted = s.collectScratch;
  sorted.clear();
  for (const PairNode& node : s.pairs) {
    if (node.a >= 0) sorted.push_back(s.MakePair(node));
  }
  SortPairs(sorted, s.pairSortScratch);
  std::copy_n(sorted.begin(), std::min(sorted.size(), out.size()), out.begin());
  return static_cast<int>(sorted.size());
}

int BroadPhase::CollectProxies(Span<ProxyInfo> out) const {
  const Impl& s = *impl_;
  const int axis = s.layout.axis;
  std::size_t count = 0;
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(s.slots.size()); ++i) {
    const ProxySlot& slot = s.slots[i];
    if (!slot.alive) continue;
    const AABB& fat = s.fat[i];
    if (count < out.size()) {
      out[count] = {s.IdOf(i),       fat,
                    slot.userData,   slot.type,
                    slot.awake,      fat.lower[axis],
                    fat.upper[axis], slot.placement == Placement::Large};
    }
    ++count;
  }
  return static_cast<int>(count);
}

std::size_t BroadPhase::CapacityBytes() const {
  const Impl& s = *impl_;
  auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  std::size_t total =
      bytes(s.slots) + bytes(s.fat) + bytes(s.generation) + bytes(s.flags) + bytes(s.stamp) + bytes(s.bands) +
      bytes(s.large) + bytes(s.dirtyKeys) + bytes(s.insertions) + bytes(s.dirtyRuns) + bytes(s.relocate) +
      bytes(s.relocateInserted) + bytes(s.relocateDirtied) + bytes(s.relocateLarge) + bytes(s.pairs) +
      bytes(s.pairScratch) + bytes(s.pairRemap) + bytes(s.moved) + bytes(s.queueBits) + bytes(s.begun) +
      bytes(s.ended) + bytes(s.pendingEnded) + bytes(s.heap) + bytes(s.foundRanges) + bytes(s.found) +
      bytes(s.rejectHead) + bytes(s.rejections) + bytes(s.stampSets) + bytes(s.stampSetBusy);
  for (const StampSet& set : s.stampSets) total += bytes(set.stamp);
  for (const Band& band : s.bands) total += bytes(band.list[0]) + bytes(band.list[1]);
  total += bytes(s.spareLists) + bytes(s.listSizes) + bytes(s.listOrder);
  for (const auto& list : s.spareLists) total += bytes(list);
  return total;
}

}  // namespace mk
