// SPDX-License-Identifier: MIT
// Internal: a byte writer and a bounds-checked byte reader for snapshots (world/persistence/snapshot.cpp and
// broadphase/broadphase_snapshot.cpp). Values are copied as their object bytes (memcpy), so a
// snapshot is only read back by the same engine build on the same kind of machine: the header's
// layout signature (world/persistence/snapshot.cpp) refuses any other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

namespace mk {

/// Appends values to a caller's byte vector.
class ByteWriter {
 public:
  explicit ByteWriter(std::vector<std::byte>& out) : out_(out) {}

  template <class T>
  void Put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t at = out_.size();
    out_.resize(at + sizeof(T));
    std::memcpy(out_.data() + at, &value, sizeof(T));
  }

  /// A count (u32), then the elements' bytes.
  template <class T>
  void PutArray(std::span<const T> values) {
    static_assert(std::is_trivially_copyable_v<T>);
    Put(static_cast<std::uint32_t>(values.size()));
    const std::size_t at = out_.size();
    out_.resize(at + values.size_bytes());
    if (!values.empty()) std::memcpy(out_.data() + at, values.data(), values.size_bytes());
  }
  template <class T>
  void PutArray(const std::vector<T>& values) {
    PutArray(std::span<const T>(values));
  }

  std::size_t Size() const { return out_.size(); }

 private:
  std::vector<std::byte>& out_;
};

/// Reads values back; every read checks the bytes left, and a failed read leaves the reader failed
/// (every later read fails too), so a caller may check once after a group of reads.
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

  template <class T>
  bool Get(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (failed_ || bytes_.size() - at_ < sizeof(T)) return Fail();
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }

  /// A count written by ByteWriter::PutArray: refused (false) above `maxCount` or when the bytes left
  /// cannot hold that many elements of `elementBytes` each, so a count never asks for more memory than
  /// the input could fill.
  bool GetCount(std::uint32_t& count, std::uint32_t maxCount, std::size_t elementBytes) {
    if (!Get(count)) return false;
    if (count > maxCount || (elementBytes > 0 && count > (bytes_.size() - at_) / elementBytes)) {
      countRefused_ = true;
      return Fail();
    }
    return true;
  }

  template <class T>
  bool GetArray(std::vector<T>& values, std::uint32_t maxCount) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::uint32_t count = 0;
    if (!GetCount(count, maxCount, sizeof(T))) return false;
    values.resize(count);
    if (count > 0) std::memcpy(values.data(), bytes_.data() + at_, count * sizeof(T));
    at_ += count * sizeof(T);
    return true;
  }

  bool Failed() const { return failed_; }
  /// True when the failure was a count over its cap or over what the bytes left could hold.
  bool CountRefused() const { return countRefused_; }
  std::size_t Remaining() const { return bytes_.size() - at_; }

 private:
  bool Fail() {
    failed_ = true;
    return false;
  }

  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
  bool failed_ = false;
  bool countRefused_ = false;
};

/// The snapshot checksum: FNV-1a's xor-then-multiply step applied to 64-bit words instead of bytes,
/// in four interleaved lanes (the multiplies of one lane wait for each other; four lanes keep the
/// multiplier busy), folded at the end; the tail bytes go through byte-wise FNV-1a. About 8 bytes a
/// cycle where byte-wise FNV-1a does one in four. Not cryptographic: it catches corruption, not
/// forgery, and the loader validates everything it reads anyway.
inline std::uint64_t SnapshotChecksum(std::span<const std::byte> bytes) {
  constexpr std::uint64_t kPrime = 1099511628211ull;  // the 64-bit FNV prime
  std::uint64_t lane[4] = {14695981039346656037ull, 0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full,
                           0x165667b19e3779f9ull};
  const std::size_t blocks = bytes.size() / 32;
  for (std::size_t i = 0; i < blocks; ++i) {
    for (int k = 0; k < 4; ++k) {
      std::uint64_t word;
      std::memcpy(&word, bytes.data() + 32 * i + 8 * k, 8);
      lane[k] = (lane[k] ^ word) * kPrime;
    }
  }
  std::uint64_t hash = 14695981039346656037ull;
  for (std::uint64_t l : lane) hash = (hash ^ l ^ (l >> 29)) * kPrime;
  for (std::size_t i = 32 * blocks; i < bytes.size(); ++i) {
    hash = (hash ^ static_cast<std::uint64_t>(bytes[i])) * kPrime;
  }
  hash ^= static_cast<std::uint64_t>(bytes.size());
  return (hash ^ (hash >> 32)) * kPrime;
}

/// The object byte of a bool field is 0 or 1 (a copied-in bool holding another byte would be
/// undefined behaviour to read as bool; this reads it as a byte).
inline bool BoolByteOk(const bool& field) {
  unsigned char byte;
  std::memcpy(&byte, &field, 1);
  return byte <= 1;
}

/// An enum field's underlying byte is below `count`, read as bytes for the same reason.
template <class E>
bool EnumOk(const E& field, int count) {
  std::underlying_type_t<E> raw;
  std::memcpy(&raw, &field, sizeof raw);
  return static_cast<long long>(raw) >= 0 && static_cast<long long>(raw) < count;
}

}  // namespace mk
