// SPDX-License-Identifier: MIT
// The world-API fuzzer's programs (tests/fuzz/world_program.h) from seeded random bytes, so every
// build runs a few thousand of them, under the sanitizers too: no crash, no sanitizer report, and a
// finite world after every Step.
#include "fuzz/world_program.h"
#include "test_util.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace mk;

namespace {

// Runs `programs` random programs of up to `length` bytes; returns how many steps they took.
int RunRandomPrograms(std::uint64_t seed, int programs, int length) {
  test::AssertCounter silence;  // the programs pass bad values on purpose
  test::Rng rng(seed);
  int steps = 0;
  std::vector<std::uint8_t> bytes;
  for (int p = 0; p < programs; ++p) {
    bytes.resize(static_cast<std::size_t>(rng.Int(16, length)));
    for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(rng.Next());
    fuzz::WorldProgram program;
    const char* failure = program.Run(bytes);
    INFO("seed " << seed << " program " << p << ": " << std::string(failure ? failure : ""));
    REQUIRE(failure == nullptr);
    steps += program.Steps();
  }
  return steps;
}

}  // namespace

TEST_SUITE("world.fuzz") {

TEST_CASE("every program of the committed fuzz corpus runs clean") {
  // The corpus holds the fuzzer's seeds and every input that once failed (regression_*), replayed
  // here in every build, with the sanitizers in the ASan pass.
  test::AssertCounter silence;
  int programs = 0, regressions = 0;
  for (const auto& entry : std::filesystem::directory_iterator(MK_WORLD_CORPUS_DIR)) {
    std::ifstream file(entry.path(), std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                          std::istreambuf_iterator<char>());
    fuzz::WorldProgram program;
    const char* failure = program.Run(bytes);
    INFO(entry.path().filename().string() << ": " << std::string(failure ? failure : ""));
    CHECK(failure == nullptr);
    ++programs;
    regressions += entry.path().filename().string().starts_with("regression_") ? 1 : 0;
  }
  CHECK(programs >= 7);
  CHECK(regressions >= 1);
}

TEST_CASE("random world programs never crash and leave every body finite") {
  // 400 programs: each op the fuzzer learns (issue 29 added 30) makes a Step op rarer, and the
  // programs must still really step their worlds.
  const int steps = RunRandomPrograms(2026, 400, 2000);
  CHECK(steps > 3000);
}

TEST_CASE("random world programs at length stay finite" * doctest::test_suite("long")) {
  const int steps = RunRandomPrograms(11, 3000, 4000);
  CHECK(steps > 30000);
}

}  // TEST_SUITE("world.fuzz")
