// SPDX-License-Identifier: MIT
// libFuzzer target for the world API: the bytes are a program of World calls (world_program.h). A
// crash, a hang (-timeout), a sanitizer report or a non-finite body state after a Step is a failure.
// MK_ASSERT failures are expected (the program passes bad values on purpose) and are silenced.
//
//   CXX=clang++ cmake -S . -B build/h-fuzz -DMK_BUILD_FUZZ=ON -DMK_BUILD_SANDBOX=OFF -DMK_SANITIZE=ON
//   cmake --build build/h-fuzz --target fuzz_world -j2
//   build/h-fuzz/tests/fuzz/fuzz_world -max_total_time=60 -timeout=10 /tmp/world-corpus
#include "fuzz/world_program.h"
#include "minkowski/assert.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const mk::AssertHandler previous = mk::SetAssertHandler([](const char*, const char*, int) {});
  (void)previous;
  mk::fuzz::WorldProgram program;
  if (const char* failure = program.Run({data, size})) {
    std::fprintf(stderr, "fuzz_world: %s\n", failure);
    std::abort();
  }
  return 0;
}
