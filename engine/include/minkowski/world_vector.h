// SPDX-License-Identifier: MIT
// Minkowski — std::vector conveniences over the World and BroadPhase calls that write into a Span.
//
// The compiled API passes no standard-library container (see span.h for why): the calls that fill a
// variable amount of data take a Span to write into and return how much there is. These inline
// functions wrap them for a game that wants a std::vector: they are compiled in the game's code, with
// the game's standard library and its options (debug mode included), so the vector never crosses into
// the library. This is the only public header that includes <vector>; world.h does not include it.
//
//   std::vector<std::byte> bytes = mk::SaveSnapshot(world);
//   std::vector<mk::CastHit> hits = mk::CastRayAll(world, origin, translation);
#pragma once

#include "minkowski/broadphase.h"
#include "minkowski/export.h"
#include "minkowski/world.h"

#include <cstddef>
#include <vector>

namespace MK_API mk {

/// World::SaveSnapshot into `out`, resized to the snapshot's size (its capacity is reused, so a game
/// saving every frame into one vector allocates only when the world grows).
inline void SaveSnapshot(const World& world, std::vector<std::byte>& out) {
  out.resize(out.capacity());
  const std::size_t size = world.SaveSnapshot(Span<std::byte>(out));
  if (size > out.size()) {
    out.resize(size);
    world.SaveSnapshot(Span<std::byte>(out));
  }
  out.resize(size);
}

/// World::SaveSnapshot as a new vector.
inline std::vector<std::byte> SaveSnapshot(const World& world) {
  std::vector<std::byte> out;
  SaveSnapshot(world, out);
  return out;
}

/// World::CastRayAll as a vector: every shape the ray enters, sorted by fraction (ties by shape slot).
inline std::vector<CastHit> CastRayAll(const World& world, Pos origin, Vec2 translation,
                                       const QueryFilter& filter = {}) {
  std::vector<CastHit> hits(16);
  const int count = world.CastRayAll(origin, translation, filter, hits);
  if (static_cast<std::size_t>(count) > hits.size()) {
    hits.resize(static_cast<std::size_t>(count));
    world.CastRayAll(origin, translation, filter, hits);
  }
  hits.resize(static_cast<std::size_t>(count));
  return hits;
}

/// World::GetChainSegments as a vector: the chain's segments in order (a stale id: MK_ASSERT, empty).
inline std::vector<ShapeId> GetChainSegments(const World& world, ChainId chain) {
  std::vector<ShapeId> segments(16);  // one call for most chains (and one MK_ASSERT for a stale id)
  std::size_t count = static_cast<std::size_t>(world.GetChainSegments(chain, segments));
  if (count == segments.size()) {
    segments.resize(static_cast<std::size_t>(world.GetChainSegmentCount(chain)));
    count = static_cast<std::size_t>(world.GetChainSegments(chain, segments));
  }
  segments.resize(count);
  return segments;
}

/// World::StopRecording with the bytes copied into a vector the caller owns.
inline std::vector<std::byte> StopRecording(World& world) {
  const Span<const std::byte> bytes = world.StopRecording();
  return std::vector<std::byte>(bytes.begin(), bytes.end());
}

/// BroadPhase::CollectPairs appended to `out` (sorted by (proxyA.index1, proxyB.index1)).
inline void CollectPairs(const BroadPhase& broadphase, std::vector<ProxyPair>& out) {
  const std::size_t first = out.size();
  out.resize(first + static_cast<std::size_t>(broadphase.CollectPairs({})));
  broadphase.CollectPairs(Span<ProxyPair>(out.data() + first, out.size() - first));
}

/// BroadPhase::CollectProxies appended to `out` (by slot).
inline void CollectProxies(const BroadPhase& broadphase, std::vector<ProxyInfo>& out) {
  const std::size_t first = out.size();
  out.resize(first + static_cast<std::size_t>(broadphase.CollectProxies({})));
  broadphase.CollectProxies(Span<ProxyInfo>(out.data() + first, out.size() - first));
}

}  // namespace mk
