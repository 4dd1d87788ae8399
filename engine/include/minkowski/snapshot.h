// SPDX-License-Identifier: MIT
// Minkowski — world snapshots: what World::SaveSnapshot writes and World::RestoreSnapshot reports.
//
// A snapshot is the complete state of a World between two Steps (bodies, shapes with their
// geometry, contacts with manifolds, impulses and GJK caches, joints, chains, id pools with their
// generations and free lists, the broadphase with its sorted lists and pair set, sleep groups and
// timers, settings, gravity, the last Step's events and the pending end events): a world restored
// from it continues bit for bit as the original would have. Layout (docs/design.md, Snapshots):
//
//   header, 40 bytes: magic "MKSNAP01" (8), format version (u32), reserved (u32, 0), total size in
//   bytes including the header (u64), layout signature (u64), checksum of the payload (u64)
//   payload: the state, most of it as the engine's own structs' bytes
//
// The bytes are the engine's in-memory representation: a snapshot is read back only by a build of
// the same engine version on the same kind of machine (the layout signature, a hash of the struct
// sizes, refuses others). It is for rollback, save-and-reload within a game and reproducible bug
// reports, not a long-term file format.
#pragma once

#include "minkowski/export.h"

#include <cstddef>
#include <cstdint>

namespace MK_API mk {

/// Format version of World::SaveSnapshot; RestoreSnapshot refuses any other.
inline constexpr std::uint32_t kSnapshotVersion = 4;

/// Size of the snapshot header (bytes).
inline constexpr std::size_t kSnapshotHeaderBytes = 40;

/// Largest snapshot RestoreSnapshot reads (bytes, 1 GiB): a header claiming more is refused before
/// anything is allocated.
inline constexpr std::uint64_t kMaxSnapshotBytes = 1ull << 30;

/// Most elements RestoreSnapshot accepts in any one array (bodies, shapes, contacts, joints, proxies,
/// pair nodes, events, ...). Every count is also capped by the bytes left in the input, so memory
/// allocated while loading stays within a small multiple of the snapshot's size.
inline constexpr std::uint32_t kMaxSnapshotCount = 1u << 24;

/// Why RestoreSnapshot refused a snapshot. A refused snapshot leaves the world unchanged.
enum class SnapshotError : std::uint8_t {
  None = 0,
  Truncated,       ///< shorter than the header, or than the size the header claims
  BadMagic,        ///< not a Minkowski snapshot
  BadVersion,      ///< another format version
  LayoutMismatch,  ///< written by a build whose structs differ (another engine version or platform)
  SizeMismatch,    ///< the header's total size is not the input's size, or exceeds kMaxSnapshotBytes
  BadChecksum,     ///< the payload's checksum differs from the header's
  Oversized,       ///< a count above kMaxSnapshotCount or above what the remaining bytes can hold
  Malformed,       ///< the payload ends early, or bytes are left over after it
  Inconsistent,    ///< an index out of range, a broken or cyclic list, objects that disagree
  InvalidValue,    ///< a non-finite or out-of-range number, an invalid geometry or enum
  WhileRecording,  ///< the world is recording (World::StartRecording): stop it first (MK_ASSERT)
  WhileLocked      ///< called from inside Step or a query callback (World's lock): restore between Steps
};

/// A short English description of the error, e.g. "checksum mismatch".
const char* ToString(SnapshotError error);

/// RestoreSnapshot's answer: the error, and for Inconsistent / InvalidValue which check failed (a
/// static string, for logs and bug reports).
struct SnapshotResult {
  SnapshotError error = SnapshotError::None;  ///< None on success
  const char* detail = "";                    ///< the failed check (static string); "" otherwise

  /// True when the world now holds the snapshot's state.
  bool ok() const { return error == SnapshotError::None; }
};

}  // namespace mk
