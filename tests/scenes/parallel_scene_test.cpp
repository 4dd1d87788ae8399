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
#include "minkowski/task_system.h"
#include "scene_test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace mk;
using scenes::SceneRun;

namespace {

std::vector<std::uint64_t> Digests(const scenes::SceneInfo& info, scenes::SceneParams params, int steps,
                                   const TaskSystem* tasks) {
  SceneRun run(info, params);
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

// A task system that keeps every range of a task and runs them its own way at finish (or inline).
enum class Hostility { Reverse, Inline, ThreadPerRangeReversed, ShuffledWorkerIndex };

struct HostileScheduler {
  HostileScheduler(Hostility hostility, int workers) : mode(hostility), workerCount(workers) {}
  Hostility mode;
  int workerCount;
  std::mt19937 random{12345};
  struct Range {
    int begin, end;
  };
  TaskFn task = nullptr;
  void* context = nullptr;
  std::vector<Range> ranges;
  int tasksRun = 0;

  static void* Enqueue(TaskFn task, int itemCount, int minRange, void* taskContext, void* user) {
    auto* self = static_cast<HostileScheduler*>(user);
    ++self->tasksRun;
    self->ranges.clear();
    const int size = std::max(1, minRange);
    for (int begin = 0; begin < itemCount; begin += size)
      self->ranges.push_back({begin, std::min(itemCount, begin + size)});
    self->task = task;
    self->context = taskContext;
    if (self->mode != Hostility::Inline) return self;
    for (const Range& r : self->ranges) task(r.begin, r.end, 0, taskContext);
    return nullptr;
  }

  static void Finish(void* userTask, void* user) {
    auto* self = static_cast<HostileScheduler*>(user);
    REQUIRE(userTask == self);
    std::vector<Range> order(self->ranges.rbegin(), self->ranges.rend());
    if (self->mode == Hostility::ThreadPerRangeReversed) {
      std::vector<std::thread> threads;  // all at once, on as many threads as ranges
      for (std::size_t i = 0; i < order.size(); ++i) {
        const int worker = static_cast<int>(i % static_cast<std::size_t>(self->workerCount));
        threads.emplace_back(
            [self, r = order[i], worker] { self->task(r.begin, r.end, worker, self->context); });
      }
      for (std::thread& t : threads) t.join();
      return;
    }
    if (self->mode == Hostility::ShuffledWorkerIndex) std::shuffle(order.begin(), order.end(), self->random);
    for (const Range& r : order) {
      const int worker = static_cast<int>(self->random() % static_cast<unsigned>(self->workerCount));
      self->task(r.begin, r.end, worker, self->context);
    }
  }

  TaskSystem System() {
    return {.workerCount = workerCount, .enqueueTask = &Enqueue, .finishTask = &Finish, .userContext = this};
  }
};

// Every scene, `steps` steps (0: its full length): each worker count and hostile scheduler gives the
// serial digests after every step.
void CheckEveryScene(int steps, bool small) {
  TaskPool pool2(2), pool3(3), pool4(4), pool8(8);
  for (const scenes::SceneInfo& info : scenes::SceneTable()) {
    INFO("scene " << std::string(info.name));
    const scenes::SceneParams params = small ? test::SmallParams(info) : scenes::SceneParams{};
    const int n = steps > 0 ? std::min(steps, info.defaultSteps) : info.defaultSteps;
    const std::vector<std::uint64_t> serial = Digests(info, params, n, nullptr);
    for (TaskPool* pool : {&pool2, &pool3, &pool4, &pool8}) {
      INFO("workers " << pool->WorkerCount());
      const TaskSystem tasks = pool->GetTaskSystem();
      CHECK(FirstMismatch(serial, Digests(info, params, n, &tasks)) == -1);
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
TEST_CASE("every scene over its full length: the same states and events on 2 to 8 workers") {
  CheckEveryScene(0, /*small=*/false);
}
}  // TEST_SUITE("long")
