// SPDX-License-Identifier: MIT
// Hostile task systems for the tests of the step's (and the broadphase's) work on several workers:
// every range of a task is kept and run at finish backwards, all inline inside enqueue, one new thread
// per range in reverse order, or shuffled with a worker index that changes every range.
#pragma once

#include "minkowski/task_system.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <thread>
#include <vector>

namespace mk::test {

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

}  // namespace mk::test
