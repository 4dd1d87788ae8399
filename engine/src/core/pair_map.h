// SPDX-License-Identifier: MIT
// Internal: an open-addressing hash map from a 64-bit pair key to an int, for finding the contact of
// a shape pair. Linear probing with backward-shift deletion (no tombstones), power-of-two capacity
// kept at most half full. After it has grown to a scene's peak pair count, inserts and erases never
// allocate, which std::unordered_map (one node per insert) cannot promise.
//
// A key and its value share one 16-byte entry, so a probe reads one cache line where separate key and
// value arrays read two: the step looks up every pair that begins or ends (tumbler: about 1,100 of each
// a step), and after the solver the table is cold.
#pragma once

#include <cstdint>
#include <vector>

namespace mk {

class PairMap {
 public:
  static constexpr std::uint64_t kEmpty = ~0ull;

  /// Key of an unordered pair of non-negative ints (smaller first).
  static std::uint64_t Key(int a, int b) {
    std::uint32_t lo = static_cast<std::uint32_t>(a < b ? a : b);
    std::uint32_t hi = static_cast<std::uint32_t>(a < b ? b : a);
    return (static_cast<std::uint64_t>(lo) << 32) | hi;
  }

  /// The value for `key`, or -1.
  int Find(std::uint64_t key) const {
    if (entries_.empty()) return -1;
    for (std::size_t i = Home(key);; i = (i + 1) & mask_) {
      if (entries_[i].key == key) return entries_[i].value;
      if (entries_[i].key == kEmpty) return -1;
    }
  }

  /// Asks the CPU to bring `key`'s home slot into cache: a loop over many keys that prefetches a few
  /// ahead overlaps the table's cache misses instead of waiting on each in turn.
  void Prefetch(std::uint64_t key) const {
    if (entries_.empty()) return;
    __builtin_prefetch(entries_.data() + Home(key));
  }

  /// Inserts or overwrites.
  void Insert(std::uint64_t key, int value) {
    bool added = false;
    Emplace(key, added) = value;
  }

  /// The value of `key`, added as -1 when absent (`added` says which): one probe where Find then
  /// Insert take two. The reference is good until the next Insert, Emplace or Erase.
  int& Emplace(std::uint64_t key, bool& added) {
    if (2 * (size_ + 1) > entries_.size()) Grow();
    for (std::size_t i = Home(key);; i = (i + 1) & mask_) {
      Entry& entry = entries_[i];
      if (entry.key == key) {
        added = false;
        return entry.value;
      }
      if (entry.key == kEmpty) {
        entry = {key, -1};
        ++size_;
        added = true;
        return entry.value;
      }
    }
  }

  /// Removes `key` if present; returns whether it was.
  bool Erase(std::uint64_t key) {
    if (entries_.empty()) return false;
    std::size_t i = Home(key);
    while (entries_[i].key != key) {
      if (entries_[i].key == kEmpty) return false;
      i = (i + 1) & mask_;
    }
    // Backward shift: pull later entries of the probe run into the hole when their home allows it.
    std::size_t hole = i;
    for (std::size_t j = (hole + 1) & mask_; entries_[j].key != kEmpty; j = (j + 1) & mask_) {
      std::size_t home = Home(entries_[j].key);
      bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        entries_[hole] = entries_[j];
        hole = j;
      }
    }
    entries_[hole].key = kEmpty;
    --size_;
    return true;
  }

  std::size_t Size() const { return size_; }
  /// Bytes held on the heap (World::GetMemoryStats): the table's entries.
  std::size_t MemoryBytes() const { return entries_.capacity() * sizeof(Entry); }

 private:
  std::size_t Home(std::uint64_t key) const {
    key ^= key >> 33;  // murmur3 finaliser: spreads sequential shape indices over the table
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return static_cast<std::size_t>(key) & mask_;
  }

  struct Entry {
    std::uint64_t key = kEmpty;
    int value = -1;
  };

  void Grow() {
    std::vector<Entry> old = std::move(entries_);
    const std::size_t capacity = old.empty() ? 64 : 2 * old.size();
    entries_.assign(capacity, Entry{});
    mask_ = capacity - 1;
    size_ = 0;
    for (const Entry& entry : old) {
      if (entry.key != kEmpty) Insert(entry.key, entry.value);
    }
  }

  std::vector<Entry> entries_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace mk
