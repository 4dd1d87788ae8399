// SPDX-License-Identifier: MIT
// Internal: the broadphase's part of a world snapshot (world/persistence/snapshot.cpp). The whole persistent
// state is copied as it is (proxies, band lists in their sorted order, the pair nodes and their
// lists, the moved and relocate queues, the update counter that times layout re-evaluation), since
// list order decides query order and the re-evaluation schedule decides when the layout changes; a
// rebuilt broadphase would answer the same pair set but could visit proxies in another order.
// Scratch (the ray cast heap) is not saved; the extra filter callback stays the receiver's own.
#pragma once

#include "core/byte_stream.h"
#include "minkowski/broadphase.h"

#include <cstdint>

namespace mk {

struct BroadPhaseSnapshot {
  static void Save(const BroadPhase& broadphase, ByteWriter& out);

  /// Reads a broadphase written by Save into `broadphase` (replacing its state, keeping its
  /// ShouldCollideFn) and validates it so that no later call can index out of range, loop or sort
  /// non-finite keys: every index in range, every list walked with a bound, every pair node in exactly
  /// its two proxies' lists, every fat box and band entry finite. At most `maxCount` elements in any
  /// array. False on anything else (then `broadphase` holds a partial state: load into a scratch one).
  static bool Load(ByteReader& in, BroadPhase& broadphase, std::uint32_t maxCount);

  /// True when the live proxy `id` has this filter and type (the world checks its proxies against its
  /// shapes after Load).
  static bool ProxyIs(const BroadPhase& broadphase, ProxyId id, const ProxyFilter& filter, ProxyType type);
};

}  // namespace mk
