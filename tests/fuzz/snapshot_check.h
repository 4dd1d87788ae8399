// SPDX-License-Identifier: MIT
// What fuzz_snapshot checks of one input, shared with the unit test that runs the committed corpus
// (tests/fuzz/snapshot_corpus, seeds and the fuzzer's regressions) in every ctest pass, sanitizers
// included. The input is a snapshot whose header (version, layout signature, total size, checksum) is
// rewritten to match this build, so every mutation reaches the parser and the validation behind the
// checksum. Failures: an accepted snapshot whose world is not finite after 20 Steps or does not save
// and restore again, or a refused one that changed the world.
#pragma once

#include "core/byte_stream.h"
#include "minkowski/world.h"
#include "minkowski/world_vector.h"
#include "world/snapshot_world.h"
#include "world/world_state.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace mk::fuzz {

inline bool AllBodiesFinite(const World& world) {
  const WorldState& s = world.State();
  for (int i = 0; i < s.bodyIds.Capacity(); ++i) {
    if (!s.bodyIds.IsLive(i)) continue;
    const Body& b = s.bodies[i];
    if (!IsFinite(b.xf.p) || !IsFinite(b.xf.q.c) || !IsFinite(b.xf.q.s) || !IsFinite(b.linearVelocity) ||
        !std::isfinite(b.angularVelocity))
      return false;
  }
  return true;
}

/// Inputs longer than this are skipped (the seeds are about 13 kB).
inline constexpr std::size_t kMaxSnapshotFuzzInput = std::size_t{1} << 22;

/// Runs the checks on `input`. Returns an empty string when it passes, else what failed.
inline std::string CheckSnapshotInput(std::span<const std::byte> input) {
  struct Reference {  // the header fields a valid snapshot of this build has (copied from a real one)
    std::vector<std::byte> snapshot;
    std::uint64_t hash = 0;
    Reference() {
      World world;
      test::BuildSnapshotWorld(world, 20);
      snapshot = mk::SaveSnapshot(world);
      hash = world.StateHash();
    }
  };
  static const Reference reference;
  if (input.size() > kMaxSnapshotFuzzInput) return "";
  std::vector<std::byte> bytes(input.begin(), input.end());
  const std::uint64_t size = bytes.size();
  if (size >= kSnapshotHeaderBytes) {
    std::memcpy(bytes.data(), reference.snapshot.data(), 32);  // magic, version, reserved, layout
    std::memcpy(bytes.data() + 16, &size, 8);                  // total size
    const std::uint64_t sum =
        SnapshotChecksum(std::span<const std::byte>(bytes).subspan(kSnapshotHeaderBytes));
    std::memcpy(bytes.data() + 32, &sum, 8);
  }
  World world;
  if (!world.RestoreSnapshot(reference.snapshot).ok()) return "the reference snapshot does not restore";
  if (!world.RestoreSnapshot(bytes).ok()) {
    return world.StateHash() == reference.hash ? "" : "a refused snapshot changed the world";
  }
  for (int i = 0; i < 20; ++i) world.Step(1.0f / 60.0f);
  if (!AllBodiesFinite(world)) return "an accepted snapshot stepped to a non-finite state";
  World again;
  const SnapshotResult round = again.RestoreSnapshot(mk::SaveSnapshot(world));
  if (!round.ok()) {
    return std::string("an accepted world does not save and restore (") + ToString(round.error) + ": " +
           round.detail + ")";
  }
  return "";
}

}  // namespace mk::fuzz
