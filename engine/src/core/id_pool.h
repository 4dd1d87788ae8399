// SPDX-License-Identifier: MIT
// Internal: slot allocation with generation counters, for the ids of bodies, shapes and joints.
// Freed slots are reused, lowest first, so a create/destroy cycle never grows the arrays and a world
// that created and destroyed objects lays out new ones exactly like a fresh world (determinism: the
// solver visits objects in slot order). Each reuse bumps the slot's generation so old ids go stale.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace mk {

class IdPool {
 public:
  /// A free slot (reused if possible, else a new one at the end).
  int Allocate() {
    if (!free_.empty()) {
      std::pop_heap(free_.begin(), free_.end(), std::greater<int>());
      int slot = free_.back();
      free_.pop_back();
      live_[slot] = true;
      return slot;
    }
    generations_.push_back(1);
    live_.push_back(true);
    return static_cast<int>(generations_.size()) - 1;
  }

  /// Releases a live slot and makes its current generation stale.
  void Free(int slot) {
    live_[slot] = false;
    ++generations_[slot];
    free_.push_back(slot);
    std::push_heap(free_.begin(), free_.end(), std::greater<int>());
  }

  /// True when `slot` is live with generation `generation`.
  bool IsLive(int slot, std::uint32_t generation) const {
    return slot >= 0 && slot < Capacity() && live_[slot] && generations_[slot] == generation;
  }

  bool IsLive(int slot) const { return slot >= 0 && slot < Capacity() && live_[slot]; }
  std::uint32_t Generation(int slot) const { return generations_[slot]; }
  int Capacity() const { return static_cast<int>(generations_.size()); }
  int LiveCount() const { return Capacity() - static_cast<int>(free_.size()); }
  /// Bytes held on the heap (World::GetMemoryStats): generations, free list, and the live bits.
  std::size_t MemoryBytes() const {
    return generations_.capacity() * sizeof(std::uint32_t) + free_.capacity() * sizeof(int) +
           (live_.capacity() + 7) / 8;
  }

  // Snapshots (world/persistence/snapshot.cpp) copy the pool as it is, free heap included, so a restored
  // world hands out the same slots in the same order.
  const std::vector<std::uint32_t>& Generations() const { return generations_; }
  const std::vector<int>& FreeSlots() const { return free_; }
  /// Rebuilds a pool from a snapshot's parts: liveness follows from the free list. False (pool
  /// unchanged) unless every free slot is in range, listed once, and the list is the min-heap
  /// Allocate expects.
  bool Assign(std::vector<std::uint32_t> generations, std::vector<int> freeSlots) {
    const int capacity = static_cast<int>(generations.size());
    std::vector<bool> live(generations.size(), true);
    for (int slot : freeSlots) {
      if (slot < 0 || slot >= capacity || !live[slot]) return false;
      live[slot] = false;
    }
    if (!std::is_heap(freeSlots.begin(), freeSlots.end(), std::greater<int>())) return false;
    generations_ = std::move(generations);
    live_ = std::move(live);
    free_ = std::move(freeSlots);
    return true;
  }

 private:
  std::vector<std::uint32_t> generations_;
  std::vector<bool> live_;
  std::vector<int> free_;
};

}  // namespace mk
