// SPDX-License-Identifier: MIT
// Internal: an open-addressing hash map from a 64-bit pair key to an int, for finding the contact of
// a shape pair. Linear probing with backward-shift deletion (no tombstones), power-of-two capacity
// kept at most half full. After it has grown to a scene's peak pair count, inserts and erases never
// allocate, which std::unordered_map (one node per insert) cannot promise.
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
    if (keys_.empty()) return -1;
    for (std::size_t i = Home(key);; i = (i + 1) & mask_) {
      if (keys_[i] == key) return values_[i];
      if (keys_[i] == kEmpty) return -1;
    }
  }

  /// Asks the CPU to bring `key`'s home slot into cache: a loop over many keys that prefetches a few
  /// ahead overlaps the table's cache misses instead of waiting on each in turn.
  void Prefetch(std::uint64_t key) const {
    if (keys_.empty()) return;
    const std::size_t home = Home(key);
    __builtin_prefetch(keys_.data() + home);
    __builtin_prefetch(values_.data() + home);
  }

  /// Inserts or overwrites.
  void Insert(std::uint64_t key, int value) {
    if (2 * (size_ + 1) > keys_.size()) Grow();
    for (std::size_t i = Home(key);; i = (i + 1) & mask_) {
      if (keys_[i] == key) {
        values_[i] = value;
        return;
      }
      if (keys_[i] == kEmpty) {
        keys_[i] = key;
        values_[i] = value;
        ++size_;
        return;
      }
    }
  }

  /// Removes `key` if present; returns whether it was.
  bool Erase(std::uint64_t key) {
    if (keys_.empty()) return false;
    std::size_t i = Home(key);
    while (keys_[i] != key) {
      if (keys_[i] == kEmpty) return false;
      i = (i + 1) & mask_;
    }
    // Backward shift: pull later entries of the probe run into the hole when their home allows it.
    std::size_t hole = i;
    for (std::size_t j = (hole + 1) & mask_; keys_[j] != kEmpty; j = (j + 1) & mask_) {
      std::size_t home = Home(keys_[j]);
      bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        keys_[hole] = keys_[j];
        values_[hole] = values_[j];
        hole = j;
      }
    }
    keys_[hole] = kEmpty;
    --size_;
    return true;
  }

  std::size_t Size() const { return size_; }
  /// Bytes held on the heap (World::GetMemoryStats): the table's keys and values.
  std::size_t MemoryBytes() const {
    return keys_.capacity() * sizeof(std::uint64_t) + values_.capacity() * sizeof(int);
  }

 private:
  std::size_t Home(std::uint64_t key) const {
    key ^= key >> 33;  // murmur3 finaliser: spreads sequential shape indices over the table
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return static_cast<std::size_t>(key) & mask_;
  }

  void Grow() {
    std::vector<std::uint64_t> oldKeys = std::move(keys_);
    std::vector<int> oldValues = std::move(values_);
    std::size_t capacity = oldKeys.empty() ? 64 : 2 * oldKeys.size();
    keys_.assign(capacity, kEmpty);
    values_.assign(capacity, -1);
    mask_ = capacity - 1;
    size_ = 0;
    for (std::size_t i = 0; i < oldKeys.size(); ++i) {
      if (oldKeys[i] != kEmpty) Insert(oldKeys[i], oldValues[i]);
    }
  }

  std::vector<std::uint64_t> keys_;
  std::vector<int> values_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace mk
