// SPDX-License-Identifier: MIT
// libFuzzer target for the snapshot loader (World::RestoreSnapshot): the checks of
// tests/fuzz/snapshot_check.h on every input (a crash, a sanitizer report or a hang (-timeout) fail
// too). The checksum and header checks themselves are covered by tests/world/snapshot_test.cpp.
// MK_ASSERT failures of an accepted corrupt world (e.g. a body placed beyond kMaxWorldLength) are
// silenced.
//
//   CXX=clang++ cmake -S . -B build/h-fuzz -DMK_BUILD_FUZZ=ON -DMK_BUILD_SANDBOX=OFF -DMK_SANITIZE=ON
//   cmake --build build/h-fuzz --target fuzz_snapshot -j2
//   build/h-fuzz/tests/fuzz/fuzz_snapshot -max_total_time=60 -timeout=10 tests/fuzz/snapshot_corpus
// The seeds are snapshots of tests/world/snapshot_world.h at a few steps; regenerate them after a
// layout change with MK_WRITE_SNAPSHOT_CORPUS=tests/fuzz/snapshot_corpus build/release/tests/mk_tests
// -tc="*snapshot fuzz seeds*". Inputs that once failed are kept there as regression_* files; the
// unit tests run the whole folder through the same checks.
#include "fuzz/snapshot_check.h"
#include "minkowski/assert.h"

#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const mk::AssertHandler previous = mk::SetAssertHandler([](const char*, const char*, int) {});
  (void)previous;
  const std::string failure = mk::fuzz::CheckSnapshotInput({reinterpret_cast<const std::byte*>(data), size});
  if (!failure.empty()) {
    std::fprintf(stderr, "fuzz_snapshot: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
