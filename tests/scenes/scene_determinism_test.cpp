// SPDX-License-Identifier: MIT
// Determinism (same scene twice, same StateHash) and no allocation in World::Step after warm-up.
#include "alloc_counter.h"
#include "scene_test_util.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using namespace mk;
using scenes::SceneRun;

namespace {

std::uint64_t ManyPyramidsHash(int count, int steps) {
  SceneRun run(*scenes::FindScene("many_pyramids"), {.count = count});
  test::StepScene(run, steps);
  return run.GetWorld().StateHash();
}

void CheckDeterminism(int count) {
  SceneRun first(*scenes::FindScene("many_pyramids"), {.count = count});
  const std::uint64_t built = first.GetWorld().StateHash();
  test::StepScene(first, 300);
  const std::uint64_t hashA = first.GetWorld().StateHash();
  const std::uint64_t hashB = ManyPyramidsHash(count, 300);
  CHECK(hashA == hashB);
  CHECK(hashA != built);  // the state did evolve (gravity, contacts), so the equality means something
  // One step fewer gives another hash: the hash sees the motion of the last step.
  CHECK(ManyPyramidsHash(count, 299) != hashA);
}

// Steps 100..200 of many_pyramids must not touch the heap (docs/design.md section 8: no allocation in Step
// after warm-up). Set MK_ALLOC_BACKTRACE=1 to print where an allocation comes from.
void CheckNoAllocation(int count) {
  SceneRun run(*scenes::FindScene("many_pyramids"), {.count = count});
  test::StepScene(run, 100);
  test::StartCountingAllocations();
  test::StepScene(run, 101);  // steps 100..200
  test::StopCountingAllocations();
  CHECK(run.StepCount() == 201);
  INFO("bytes allocated: " << test::CountedAllocationBytes());
  CHECK(test::CountedAllocations() == 0);
}

}  // namespace

TEST_SUITE("scenes.determinism") {

TEST_CASE("the counting allocator hook sees an allocation while counting and none after stopping") {
  // Through volatile pointers, so the compiler cannot elide the new/delete pairs (C++14 allows it, and
  // clang drops an unused vector's allocation).
  static std::uint64_t* volatile sink = nullptr;
  static int* volatile grownData = nullptr;
  test::StartCountingAllocations();
  sink = new std::uint64_t[16];
  std::vector<int> grown(100);
  grownData = grown.data();
  test::StopCountingAllocations();
  CHECK(grownData != nullptr);
  CHECK(test::CountedAllocations() == 2);
  CHECK(test::CountedAllocationBytes() == 16 * sizeof(std::uint64_t) + 100 * sizeof(int));
  delete[] sink;
  sink = new std::uint64_t[4];
  CHECK(test::CountedAllocations() == 2);
  delete[] sink;
}

// The issue asks for the full scene (400 pyramids): that is 600 steps of 22000 bodies, about 50 s in
// Release today, past the 20 s budget of one test. 100 pyramids (5500 bodies, 14500 contacts) keep
// every code path; the full size is checked by `benchmark --scene many_pyramids --steps 300 --runs 2`
// (its hash_ok column compares the final StateHash of the runs).
TEST_CASE("many_pyramids (100 pyramids) run twice for 300 steps gives the same state hash" *
          doctest::test_suite("long")) {
  CheckDeterminism(10);
}

TEST_CASE("many_pyramids with 1 pyramid run twice for 300 steps gives the same state hash") {
  CheckDeterminism(1);
}

TEST_CASE("steps 100 to 200 of many_pyramids (22000 bodies) allocate nothing" * doctest::test_suite("long")) {
  CheckNoAllocation(20);
}

TEST_CASE("steps 100 to 200 of many_pyramids with 4 pyramids allocate nothing") { CheckNoAllocation(2); }

}  // TEST_SUITE("scenes.determinism")
