// SPDX-License-Identifier: MIT
// Internal: slot allocation with generation counters, for the ids of bodies, shapes and joints.
// Freed slots are reused, lowest first, so a create/destroy cycle never grows the arrays and a world
// that created and destroyed objects lays out new ones exactly like a fresh world (determinism: the
// solver visits objects in slot order). Each reuse bumps the slot's generation so old ids go stale.
//
// The free slots are a bit per slot, and a summary bit per word of those bits that has one set, so the
// lowest free slot is two count-trailing-zeros away (after skipping the summary's empty words, which a
// lower bound remembers). A min-heap of free slots gave the same order for 2 log n unpredictable
// compares a pop: tumbler makes and ends about 1,100 contacts a step, and the heap's mispredictions
// were most of what making one cost the calling thread.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace mk {

class IdPool {
 public:
  /// A free slot (the lowest, if any), else a new one at the end.
  int Allocate() {
    if (freeCount_ == 0) {
      const int slot = Capacity();
      generations_.push_back(1);
      const std::size_t words = static_cast<std::size_t>(slot) / 64 + 1;
      if (freeBits_.size() < words) freeBits_.push_back(0);
      if (summary_.size() < (words + 63) / 64) summary_.push_back(0);
      return slot;
    }
    while (summary_[firstSummary_] == 0) ++firstSummary_;  // a free slot lies at or after it
    const std::size_t word =
        firstSummary_ * 64 + static_cast<std::size_t>(std::countr_zero(summary_[firstSummary_]));
    const int bit = std::countr_zero(freeBits_[word]);
    freeBits_[word] &= freeBits_[word] - 1;
    if (freeBits_[word] == 0) summary_[word / 64] &= ~(std::uint64_t{1} << (word % 64));
    --freeCount_;
    return static_cast<int>(word * 64) + bit;
  }

  /// Releases a live slot and makes its current generation stale.
  void Free(int slot) {
    ++generations_[static_cast<std::size_t>(slot)];
    const std::size_t word = static_cast<std::size_t>(slot) / 64;
    freeBits_[word] |= std::uint64_t{1} << (slot % 64);
    summary_[word / 64] |= std::uint64_t{1} << (word % 64);
    firstSummary_ = std::min(firstSummary_, word / 64);
    ++freeCount_;
  }

  /// True when `slot` is live with generation `generation`.
  bool IsLive(int slot, std::uint32_t generation) const {
    return IsLive(slot) && generations_[static_cast<std::size_t>(slot)] == generation;
  }

  bool IsLive(int slot) const {
    return slot >= 0 && slot < Capacity() &&
           (freeBits_[static_cast<std::size_t>(slot) / 64] >> (slot % 64) & 1) == 0;
  }
  std::uint32_t Generation(int slot) const { return generations_[static_cast<std::size_t>(slot)]; }
  int Capacity() const { return static_cast<int>(generations_.size()); }
  int LiveCount() const { return Capacity() - freeCount_; }
  /// Bytes held on the heap (World::GetMemoryStats): generations and the free bits.
  std::size_t MemoryBytes() const {
    return generations_.capacity() * sizeof(std::uint32_t) +
           (freeBits_.capacity() + summary_.capacity()) * sizeof(std::uint64_t);
  }

  // Snapshots (world/persistence/snapshot.cpp) store the generations and the free slots, so a restored
  // world hands out the same slots in the same order.
  const std::vector<std::uint32_t>& Generations() const { return generations_; }
  /// The free slots, ascending (a min-heap, as the snapshot format has always stored them).
  std::vector<int> FreeSlots() const {
    std::vector<int> slots;
    slots.reserve(static_cast<std::size_t>(freeCount_));
    for (std::size_t word = 0; word < freeBits_.size(); ++word) {
      for (std::uint64_t bits = freeBits_[word]; bits != 0; bits &= bits - 1)
        slots.push_back(static_cast<int>(word * 64) + std::countr_zero(bits));
    }
    return slots;
  }
  /// Rebuilds a pool from a snapshot's parts: liveness follows from the free list. False (pool
  /// unchanged) unless every free slot is in range, listed once, and the list is a min-heap (the
  /// format's promise since the pool kept one).
  bool Assign(std::vector<std::uint32_t> generations, const std::vector<int>& freeSlots) {
    const int capacity = static_cast<int>(generations.size());
    const std::size_t words = (generations.size() + 63) / 64;
    std::vector<std::uint64_t> freeBits(words, 0);
    for (int slot : freeSlots) {
      if (slot < 0 || slot >= capacity) return false;
      std::uint64_t& bits = freeBits[static_cast<std::size_t>(slot) / 64];
      const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
      if ((bits & bit) != 0) return false;
      bits |= bit;
    }
    if (!std::is_heap(freeSlots.begin(), freeSlots.end(), std::greater<int>())) return false;
    std::vector<std::uint64_t> summary((words + 63) / 64, 0);
    for (std::size_t word = 0; word < words; ++word) {
      if (freeBits[word] != 0) summary[word / 64] |= std::uint64_t{1} << (word % 64);
    }
    generations_ = std::move(generations);
    freeBits_ = std::move(freeBits);
    summary_ = std::move(summary);
    firstSummary_ = 0;
    freeCount_ = static_cast<int>(freeSlots.size());
    return true;
  }

 private:
  std::vector<std::uint32_t> generations_;
  std::vector<std::uint64_t> freeBits_;  // bit s % 64 of word s / 64: slot s is free
  std::vector<std::uint64_t> summary_;   // bit w % 64 of word w / 64: freeBits_[w] has a free slot
  std::size_t firstSummary_ = 0;         // every summary_ word before it is 0
  int freeCount_ = 0;
};

}  // namespace mk
