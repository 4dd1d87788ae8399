// libFuzzer target for the snapshot loader (World::RestoreSnapshot). The input is a snapshot; before
// loading, the target rewrites its header's version, layout signature, total size and checksum to
// match, so every mutation reaches the parser and the validation behind the checksum (the checksum
// and header checks themselves are covered by tests/world/snapshot_test.cpp). Failures: a crash, a
// sanitizer report, a hang (-timeout), an accepted snapshot whose world is not finite after 20 Steps
// or does not save and restore again, or a refused one that changed the world. MK_ASSERT failures
// of an accepted corrupt world (e.g. a body placed beyond kMaxWorldLength) are silenced.
//
//   CXX=clang++ cmake -S . -B build/h-fuzz -DMK_BUILD_FUZZ=ON -DMK_BUILD_SANDBOX=OFF -DMK_SANITIZE=ON
//   cmake --build build/h-fuzz --target fuzz_snapshot -j2
//   build/h-fuzz/tests/fuzz/fuzz_snapshot -max_total_time=60 -timeout=10 tests/fuzz/snapshot_corpus
// The seeds are snapshots of tests/world/snapshot_world.h at a few steps; regenerate them after a
// layout change with MK_WRITE_SNAPSHOT_CORPUS=tests/fuzz/snapshot_corpus build/release/tests/mk_tests
// -tc="*snapshot fuzz seeds*".
#include "core/byte_stream.h"
#include "minkowski/assert.h"
#include "minkowski/world.h"
#include "world/snapshot_world.h"
#include "world/world_state.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

bool AllFinite(const mk::World& world) {
  const mk::WorldState& s = world.State();
  for (int i = 0; i < s.bodyIds.Capacity(); ++i) {
    if (!s.bodyIds.IsLive(i)) continue;
    const mk::Body& b = s.bodies[i];
    if (!mk::IsFinite(b.xf.p) || !mk::IsFinite(b.xf.q.c) || !mk::IsFinite(b.xf.q.s) ||
        !mk::IsFinite(b.linearVelocity) || !std::isfinite(b.angularVelocity))
      return false;
  }
  return true;
}

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_snapshot: %s\n", what);
  std::abort();
}

// The header fields a valid snapshot of this build has (copied from a real one).
struct Reference {
  std::vector<std::byte> snapshot;
  std::uint64_t hash = 0;
  Reference() {
    mk::World world;
    mk::test::BuildSnapshotWorld(world, 20);
    snapshot = world.SaveSnapshot();
    hash = world.StateHash();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const mk::AssertHandler previous = mk::SetAssertHandler([](const char*, const char*, int) {});
  (void)previous;
  static const Reference reference;
  if (size > (1u << 22)) return 0;
  std::vector<std::byte> bytes(size);
  if (size > 0) std::memcpy(bytes.data(), data, size);
  if (size >= mk::kSnapshotHeaderBytes) {
    std::memcpy(bytes.data(), reference.snapshot.data(), 32);  // magic, version, reserved, layout
    std::memcpy(bytes.data() + 16, &size, 8);                  // total size (u64; size_t is 64-bit here)
    const std::uint64_t sum =
        mk::SnapshotChecksum(std::span<const std::byte>(bytes).subspan(mk::kSnapshotHeaderBytes));
    std::memcpy(bytes.data() + 32, &sum, 8);
  }
  mk::World world;
  if (!world.RestoreSnapshot(reference.snapshot).ok()) Fail("the reference snapshot does not restore");
  const mk::SnapshotResult result = world.RestoreSnapshot(bytes);
  if (!result.ok()) {
    if (world.StateHash() != reference.hash) Fail("a refused snapshot changed the world");
    return 0;
  }
  for (int i = 0; i < 20; ++i) world.Step(1.0f / 60.0f);
  if (!AllFinite(world)) Fail("an accepted snapshot stepped to a non-finite state");
  mk::World again;
  const mk::SnapshotResult round = again.RestoreSnapshot(world.SaveSnapshot());
  if (!round.ok()) {
    std::fprintf(stderr, "fuzz_snapshot: %s: %s\n", mk::ToString(round.error), round.detail);
    Fail("an accepted world does not save and restore");
  }
  return 0;
}
