// SPDX-License-Identifier: MIT
// World::Step on several workers (minkowski/task_system.h, issue 31): the same state after every step
// for any worker count and any scheduling.
//
// Oracle: the same scene stepped on the calling thread alone (the serial step, which the other tests
// check against physics). Every other run must give its state hash and its events after every step:
// on a TaskPool of 2, 3, 4 and 8 workers (more workers than this machine has cores), and on hostile
// task systems that run the ranges backwards, all inline, one range per new thread in reverse order,
// or with a worker index that changes every range.
#include "alloc_counter.h"
#include "core/simd_dispatch.h"
#include "hostile_scheduler.h"
#include "minkowski/task_system.h"
#include "scene_test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace mk;
using scenes::SceneRun;
using test::HostileScheduler;
using test::Hostility;

namespace {

std::vector<std::uint64_t> Digests(const scenes::SceneInfo& info, scenes::SceneParams params, int steps,
                                   const TaskSystem* tasks, SimdWidth width = SimdWidth::Automatic) {
  scenes::SceneInfo row = info;  // the scene's own WorldDef but for the SIMD width
  if (width != SimdWidth::Automatic) row.worldDef.simdWidth = width;
  SceneRun run(row, params);
  if (tasks != nullptr) REQUIRE(run.GetWorld().SetTaskSystem(*tasks));
  std::vector<std::uint64_t> digests;
  for (int i = 0; i < steps; ++i) {
    run.Step();
    digests.push_back(test::StepDigest(run.GetWorld()));
  }
  return digests;
}

// The first step whose digest differs, or -1.
int FirstMismatch(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (a[i] != b[i]) return static_cast<int>(i);
  return a.size() == b.size() ? -1 : static_cast<int>(std::min(a.size(), b.size()));
}

// Every scene, `steps` steps (0: its full length): each worker count gives the serial digests after
// every step. With `alternateWidths` the serial run takes 4 lanes and the runs on 2 and 4 workers take
// 8 (where the CPU and build have them; SimdLanes falls back to 4): one full-length pass then checks
// the worker counts and the two SIMD widths together, which two separate passes took 2.4 times as
// long to do (the shrunk cases of both suites tell a lane mismatch from a worker one).
void CheckEveryScene(int steps, bool small, bool alternateWidths = false) {
  TaskPool pool2(2), pool3(3), pool4(4), pool8(8);
  for (const scenes::SceneInfo& info : scenes::SceneTable()) {
    INFO("scene " << std::string(info.name));
    const scenes::SceneParams params = small ? test::SmallParams(info) : scenes::SceneParams{};
    const int n = steps > 0 ? std::min(steps, info.defaultSteps) : info.defaultSteps;
    const SimdWidth serialWidth = alternateWidths ? SimdWidth::Lanes4 : SimdWidth::Automatic;
    const std::vector<std::uint64_t> serial = Digests(info, params, n, nullptr, serialWidth);
    for (TaskPool* pool : {&pool2, &pool3, &pool4, &pool8}) {
      const bool eightLanes = alternateWidths && (pool->WorkerCount() == 2 || pool->WorkerCount() == 4);
      const SimdWidth width = eightLanes ? SimdWidth::Lanes8 : serialWidth;
      INFO("workers " << pool->WorkerCount() << " lanes " << SimdLanes(width));
      const TaskSystem tasks = pool->GetTaskSystem();
      CHECK(FirstMismatch(serial, Digests(info, params, n, &tasks, width)) == -1);
    }
  }
}

}  // namespace

// Scenes big enough that a colour's groups span several blocks on every worker count (a block is
// at least 4 groups, about 4 blocks per worker), at a size ThreadSanitizer steps in seconds.
struct MediumScene {
  const char* name;
  scenes::SceneParams params;
};
constexpr MediumScene kMediumScenes[] = {{"large_pyramid", {.size = 40}},
                                         {"many_pyramids", {.size = 10, .count = 3}},
                                         {"joint_grid", {.size = 30}},
                                         {"tumbler", {.count = 20}},
                                         {"rain", {.count = 6}},
                                         {"sensor_coins", {}},
                                         {"ragdolls", {}}};

// The light cases, which the ThreadSanitizer pass runs (label `threads`).
TEST_SUITE("threads") {
TEST_CASE("every scene shrunk: the same states and events on 2 to 8 workers for 30 steps") {
  CheckEveryScene(30, /*small=*/true);
}

TEST_CASE("medium scenes: the same states and events on 2 to 8 workers and on hostile task systems") {
  TaskPool pool2(2), pool3(3), pool8(8);
  for (const MediumScene& scene : kMediumScenes) {
    const scenes::SceneInfo& info = *scenes::FindScene(scene.name);
    INFO("scene " << std::string(scene.name));
    const std::vector<std::uint64_t> serial = Digests(info, scene.params, 60, nullptr);
    for (TaskPool* pool : {&pool2, &pool3, &pool8}) {
      INFO("workers " << pool->WorkerCount());
      const TaskSystem tasks = pool->GetTaskSystem();
      CHECK(FirstMismatch(serial, Digests(info, scene.params, 60, &tasks)) == -1);
    }
    for (Hostility mode : {Hostility::Reverse, Hostility::Inline, Hostility::ThreadPerRangeReversed,
                           Hostility::ShuffledWorkerIndex}) {
      INFO("mode " << static_cast<int>(mode));
      HostileScheduler scheduler(mode, 5);
      const TaskSystem tasks = scheduler.System();
      CHECK(FirstMismatch(serial, Digests(info, scene.params, 60, &tasks)) == -1);
      CHECK(scheduler.tasksRun > 0);  // the step did hand its work to the scheduler
    }
  }
}

TEST_CASE("no allocation in a step on 4 workers after warm-up") {
  TaskPool pool(4);
  SceneRun run(*scenes::FindScene("many_pyramids"), {.count = 4});
  REQUIRE(run.GetWorld().SetTaskSystem(pool.GetTaskSystem()));
  test::StepScene(run, 100);
  const std::uint64_t rangesBefore = pool.RangesRun();
  test::StartCountingAllocations();
  test::StepScene(run, 50);
  test::StopCountingAllocations();
  INFO("bytes allocated: " << test::CountedAllocationBytes());
  CHECK(test::CountedAllocations() == 0);
  CHECK(pool.RangesRun() > rangesBefore);  // the pool did run the steps' tasks
}
}  // TEST_SUITE("threads")

TEST_SUITE("long") {
TEST_CASE(
    "every scene over its full length: the same states and events on 2 to 8 workers and 4 and 8 lanes") {
  CheckEveryScene(0, /*small=*/false, /*alternateWidths=*/true);
}
}  // TEST_SUITE("long")
