// SPDX-License-Identifier: MIT
// TaskPool and the task interface (minkowski/task_system.h): every item of a parallel-for runs exactly
// once, ranges respect minRange, worker indices are in range and never shared by two ranges running
// at once; a pool starts at most the machine's hardware threads unless asked for a thread a worker;
// World::SetTaskSystem refuses what it documents.
#include "../world/world_fixture.h"
#include "core/parallel.h"
#include "hardware_threads_as.h"
#include "minkowski/task_system.h"
#include "minkowski/world.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

using namespace mk;

namespace {

struct CoverageProbe {
  std::vector<std::atomic<int>> hits;
  std::atomic<int> busy[kMaxWorkers] = {};
  std::atomic<int> badWorker{0}, sharedWorker{0}, shortRange{0};
  int workerCount = 1, itemCount = 0, minRange = 1;

  explicit CoverageProbe(int items) : hits(static_cast<std::size_t>(items)) {}

  static void Task(int begin, int end, int worker, void* context) {
    auto* self = static_cast<CoverageProbe*>(context);
    if (worker < 0 || worker >= self->workerCount) {
      self->badWorker.fetch_add(1);
      return;
    }
    if (self->busy[worker].fetch_add(1) != 0) self->sharedWorker.fetch_add(1);
    if (end - begin < self->minRange && end != self->itemCount) self->shortRange.fetch_add(1);
    for (int i = begin; i < end; ++i) self->hits[static_cast<std::size_t>(i)].fetch_add(1);
    volatile int spin = 0;  // long enough that ranges overlap in time on several threads
    for (int k = 0; k < 200 * (end - begin); ++k) spin = spin + 1;
    self->busy[worker].fetch_sub(1);
  }
};

}  // namespace

TEST_SUITE("threads") {
TEST_CASE("a pool's parallel-for runs every item once in ranges of at least minRange") {
  std::mt19937 random(2026);
  for (int workers : {1, 2, 3, 8}) {
    TaskPool pool(workers, PoolThreads::AsAsked);
    CHECK(pool.WorkerCount() == workers);
    const TaskSystem tasks = pool.GetTaskSystem();
    for (int trial = 0; trial < 40; ++trial) {
      const int items = static_cast<int>(random() % 3000);
      CoverageProbe probe(items);
      probe.workerCount = workers;
      probe.itemCount = items;
      probe.minRange = 1 + static_cast<int>(random() % 50);
      void* task = tasks.enqueueTask(&CoverageProbe::Task, items, probe.minRange, &probe, tasks.userContext);
      if (task != nullptr) tasks.finishTask(task, tasks.userContext);
      int wrong = 0;
      for (const std::atomic<int>& h : probe.hits) wrong += h.load() != 1 ? 1 : 0;
      INFO("workers " << workers << ", items " << items << ", minRange " << probe.minRange);
      CHECK(wrong == 0);
      CHECK(probe.badWorker.load() == 0);
      CHECK(probe.sharedWorker.load() == 0);
      CHECK(probe.shortRange.load() == 0);
    }
  }
}

// The solver's levels and colouring go through RunSideBySide: each job must run exactly once on any
// schedule, and on two threads at once when the pool's thread takes the second (it does in most
// trials: the first job waits up to 20 ms for the second to start, so a late pool thread still meets it).
TEST_CASE("RunSideBySide runs each job once and side by side on a pool of two") {
  TaskPool pool(2, PoolThreads::AsAsked);
  const TaskSystem tasks = pool.GetTaskSystem();
  int overlapped = 0;
  for (int trial = 0; trial < 20; ++trial) {
    std::atomic<int> first{0}, second{0};
    std::atomic<bool> secondStarted{false};
    bool sawSecond = false;
    RunSideBySide(
        &tasks,
        [&] {
          first.fetch_add(1);
          const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
          while (!secondStarted.load() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
          sawSecond = secondStarted.load();
        },
        [&] {
          secondStarted.store(true);
          second.fetch_add(1);
        });
    CHECK(first.load() == 1);
    CHECK(second.load() == 1);
    overlapped += sawSecond ? 1 : 0;
  }
  CHECK(overlapped >= 10);
  int a = 0, b = 0;  // without a task system: one after the other, here
  RunSideBySide(
      nullptr, [&] { ++a; }, [&] { ++b; });
  CHECK(a == 1);
  CHECK(b == 1);
}

namespace {

// Which items each worker ran first, and whether it ran any of its own share's.
struct ShareProbe {
  int workerCount = 1, itemCount = 0;
  std::atomic<int> firstBegin[kMaxWorkers];
  std::atomic<bool> ranOwn[kMaxWorkers] = {};

  ShareProbe(int workers, int items) : workerCount(workers), itemCount(items) {
    for (std::atomic<int>& f : firstBegin) f.store(-1);
  }
  bool InShare(int item, int worker) const {
    return item >= worker * itemCount / workerCount && item < (worker + 1) * itemCount / workerCount;
  }
  static void Task(int begin, int end, int worker, void* context) {
    auto* self = static_cast<ShareProbe*>(context);
    int none = -1;
    self->firstBegin[worker].compare_exchange_strong(none, begin);
    if (self->InShare(begin, worker)) self->ranOwn[worker].store(true);
    volatile int spin = 0;
    for (int k = 0; k < 300 * (end - begin); ++k) spin = spin + 1;
  }
};

}  // namespace

// TaskPool's documented schedule: thread t takes the ranges of the t-th of ThreadCount() equal parts
// of the items first, then helps with the others' (a thread for each worker here, AsAsked). A worker
// that ran any range of its own part began there (it may find its part taken by the others when it
// starts late, and then begins elsewhere).
TEST_CASE("each pool worker starts with its own part of a parallel-for's items") {
  for (int workers : {2, 3, 4}) {
    TaskPool pool(workers, PoolThreads::AsAsked);
    const TaskSystem tasks = pool.GetTaskSystem();
    for (int trial = 0; trial < 60; ++trial) {
      const int items = workers * 8 * (1 + trial % 7) * 5;  // 8 ranges a worker, 5 to 35 items each
      ShareProbe probe(workers, items);
      void* task = tasks.enqueueTask(&ShareProbe::Task, items, 1, &probe, tasks.userContext);
      if (task != nullptr) tasks.finishTask(task, tasks.userContext);
      for (int w = 0; w < workers; ++w) {
        if (!probe.ranOwn[w].load()) continue;
        INFO("workers " << workers << ", items " << items << ", worker " << w << " began at item "
                        << probe.firstBegin[w].load());
        CHECK(probe.InShare(probe.firstBegin[w].load(), w));
      }
    }
  }
}

namespace {

// Which worker ran each range; the pool thread sleeps in the first range of its own share.
struct StallProbe {
  int itemCount = 0;
  std::vector<std::atomic<int>> ranBy;
  std::atomic<int> stalls{0};

  explicit StallProbe(int items) : itemCount(items), ranBy(static_cast<std::size_t>(items)) {
    for (std::atomic<int>& r : ranBy) r.store(-1);
  }
  static void Task(int begin, int end, int worker, void* context) {
    auto* self = static_cast<StallProbe*>(context);
    for (int i = begin; i < end; ++i) self->ranBy[static_cast<std::size_t>(i)].store(worker);
    if (worker == 1 && begin == self->itemCount / 2) {  // its share's first range: stopped by the system
      self->stalls.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    } else if (worker == 0 && begin == 0) {  // time for the pool thread to wake and begin its share
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
};

}  // namespace

// A worker stopped by the system in the middle of its share does not hold the task up: the calling
// thread, done with its own share, takes the rest of it (task_pool.cpp, kRangesPerWorker). Here the
// pool thread sleeps 20 ms in its share's first range, while the calling thread sleeps 5 ms in its own
// first, so that the pool thread has begun its share.
TEST_CASE("a pool thread stopped in its share leaves the rest of it to the calling thread") {
  TaskPool pool(2, PoolThreads::AsAsked);
  const TaskSystem tasks = pool.GetTaskSystem();
  int stalledTrials = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const int items = 2 * 8 * 10;  // 8 ranges of 10 items a worker
    StallProbe probe(items);
    void* task = tasks.enqueueTask(&StallProbe::Task, items, 10, &probe, tasks.userContext);
    if (task != nullptr) tasks.finishTask(task, tasks.userContext);
    if (probe.stalls.load() == 0) continue;  // the calling thread took the whole share before it woke
    ++stalledTrials;
    int byPoolThread = 0;
    for (int i = items / 2; i < items; ++i)
      byPoolThread += probe.ranBy[static_cast<std::size_t>(i)].load() == 1 ? 1 : 0;
    INFO("trial " << trial);
    CHECK(byPoolThread == 10);  // its first range alone: the seven after it ran on the calling thread
  }
  CHECK(stalledTrials > 0);
}

TEST_CASE("a pool clamps its worker count to 1..kMaxWorkers") {
  CHECK(TaskPool(0).WorkerCount() == 1);
  CHECK(TaskPool(-5).WorkerCount() == 1);
  CHECK(TaskPool(kMaxWorkers + 10).WorkerCount() == kMaxWorkers);
  CHECK(TaskPool(0, PoolThreads::AsAsked).ThreadCount() == 1);
  CHECK(TaskPool(kMaxWorkers + 10, PoolThreads::AsAsked).ThreadCount() == kMaxWorkers);
}

namespace {

// The threads that ran a task's ranges and the highest worker index they were given.
struct ThreadProbe {
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::atomic<int> highestWorker{-1};
  std::atomic<int> items{0};

  static void Task(int begin, int end, int worker, void* context) {
    auto* self = static_cast<ThreadProbe*>(context);
    {
      std::lock_guard<std::mutex> lock(self->mutex);
      self->threads.insert(std::this_thread::get_id());
    }
    int seen = self->highestWorker.load();
    while (worker > seen && !self->highestWorker.compare_exchange_weak(seen, worker)) {
    }
    self->items.fetch_add(end - begin);
    volatile int spin = 0;  // long enough that every thread finds ranges to run
    for (int k = 0; k < 2000 * (end - begin); ++k) spin = spin + 1;
  }
};

// Runs one parallel-for of `items` items on `pool`, `probe` noting what ran it.
void RunProbe(TaskPool& pool, int items, ThreadProbe& probe) {
  const TaskSystem tasks = pool.GetTaskSystem();
  void* task = tasks.enqueueTask(&ThreadProbe::Task, items, 1, &probe, tasks.userContext);
  if (task != nullptr) tasks.finishTask(task, tasks.userContext);
}

}  // namespace

TEST_CASE("a pool runs its workers on at most the machine's hardware threads unless asked for each") {
  for (int hardware : {1, 2, 3, 8}) {
    const test::HardwareThreadsAs machine(hardware);
    for (int workers : {1, 2, 3, 8}) {
      INFO("hardware threads " << hardware << ", workers " << workers);
      TaskPool held(workers);
      CHECK(held.WorkerCount() == workers);  // declared as asked: the world cuts its work for them
      CHECK(held.GetTaskSystem().workerCount == workers);
      CHECK(held.ThreadCount() == std::min(workers, hardware));
      TaskPool each(workers, PoolThreads::AsAsked);
      CHECK(each.WorkerCount() == workers);
      CHECK(each.ThreadCount() == workers);
      for (TaskPool* pool : {&held, &each}) {
        for (int trial = 0; trial < 5; ++trial) {
          ThreadProbe probe;
          RunProbe(*pool, 400, probe);
          CHECK(probe.items.load() == 400);
          // Ranges run as the threads' own indices, so never past the threads, and on no more threads.
          CHECK(probe.highestWorker.load() < pool->ThreadCount());
          CHECK(static_cast<int>(probe.threads.size()) <= pool->ThreadCount());
        }
      }
    }
  }
  // The machine's own count: a pool of kMaxWorkers starts no more threads than it has.
  const unsigned reported = std::thread::hardware_concurrency();
  const int machine = reported == 0 ? kMaxWorkers : std::min(static_cast<int>(reported), kMaxWorkers);
  CHECK(TaskPool(kMaxWorkers).ThreadCount() == machine);
}

TEST_CASE("a pool given a PoolThreads value outside the enum asserts and holds its threads") {
  const test::HardwareThreadsAs machine(2);
  test::AssertCounter asserts;
  TaskPool pool(8, static_cast<PoolThreads>(7));
  CHECK(asserts.Count() == 1);
  CHECK(pool.WorkerCount() == 8);
  CHECK(pool.ThreadCount() == 2);
}

TEST_CASE("World::SetTaskSystem refuses a bad worker count or one callback alone") {
  TaskPool pool(3, PoolThreads::AsAsked);
  World world;
  test::AssertCounter asserts;
  TaskSystem bad = pool.GetTaskSystem();
  bad.workerCount = 0;
  CHECK_FALSE(world.SetTaskSystem(bad));
  bad.workerCount = kMaxWorkers + 1;
  CHECK_FALSE(world.SetTaskSystem(bad));
  bad = pool.GetTaskSystem();
  bad.finishTask = nullptr;
  CHECK_FALSE(world.SetTaskSystem(bad));
  CHECK(asserts.Count() == 3);
  CHECK(world.GetTaskSystem().workerCount == 1);  // kept the default
  CHECK(world.SetTaskSystem(pool.GetTaskSystem()));
  CHECK(world.GetTaskSystem().workerCount == 3);
  // Stepping an empty world and a small one on the pool works, and the callbacks are not required
  // for a workerCount of 1.
  CHECK(world.Step(1.0f / 60.0f));
  CHECK(world.SetTaskSystem({.workerCount = 1}));
  CHECK(world.Step(1.0f / 60.0f));
}

TEST_CASE("World::SetSubStepWorkers refuses a value outside WorkerUse and keeps its choice") {
  World world(WorldDef{.subStepWorkers = WorkerUse::CallingThread});
  CHECK(world.GetSubStepWorkers() == WorkerUse::CallingThread);
  test::AssertCounter asserts;
  CHECK_FALSE(world.SetSubStepWorkers(static_cast<WorkerUse>(3)));
  CHECK_FALSE(world.SetSubStepWorkers(static_cast<WorkerUse>(255)));
  CHECK(asserts.Count() == 2);
  CHECK(world.GetSubStepWorkers() == WorkerUse::CallingThread);
  for (WorkerUse use : {WorkerUse::Measured, WorkerUse::Workers, WorkerUse::CallingThread}) {
    CHECK(world.SetSubStepWorkers(use));
    CHECK(world.GetSubStepWorkers() == use);
  }
  // Without workers the sub-steps run on the calling thread, whatever the choice.
  CHECK(world.SetSubStepWorkers(WorkerUse::Workers));
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic});
  world.CreateShape(body, {}, Circle{{0.0f, 0.0f}, 0.5f});
  CHECK(world.Step(1.0f / 60.0f));
  CHECK(world.GetProfile().subStepWorkers == 1);
}
}  // TEST_SUITE("threads")
