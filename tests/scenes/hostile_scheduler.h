// SPDX-License-Identifier: MIT
// Hostile task systems for the tests of the step's (and the broadphase's) work on several workers:
// every range of a task is kept and run at finish backwards, all inline inside enqueue, each range on a
// thread of its own all at once, or shuffled with a worker index that changes every range.
#pragma once

#include "minkowski/task_system.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

namespace mk::test {

// Threads kept for a scheduler's life: Run(count, job) runs job(i) on the i-th thread for every i in
// [0, count) at once (a thread is made the first time a task needs it) and returns when all are done.
// A new thread per range per task was the same hostility at a far higher price, above all under
// wine64: the suite `threads` took 446 s there (the medium scenes' case 331 s) and 46 s with the threads
// kept (2026-12-03).
class RangeThreads {
 public:
  RangeThreads() = default;
  RangeThreads(const RangeThreads&) = delete;
  RangeThreads& operator=(const RangeThreads&) = delete;
  ~RangeThreads() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }

  void Run(int count, std::function<void(int)> job) {
    while (static_cast<int>(threads_.size()) < count) {
      const int index = static_cast<int>(threads_.size());
      threads_.emplace_back([this, index, seen = generation_] { Serve(index, seen); });
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = std::move(job);
      active_ = count;
      pending_ = count;
      ++generation_;
    }
    wake_.notify_all();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
  }

 private:
  // Thread `index`: wakes on each new generation and runs its share when the task reaches it.
  void Serve(int index, std::uint64_t seen) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      if (index >= active_) continue;
      lock.unlock();
      job_(index);  // job_ changes only after every active thread is done
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::function<void(int)> job_;
  std::uint64_t generation_ = 0;
  int active_ = 0, pending_ = 0;
  bool stopping_ = false;
};

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
  // Enqueues outside the contract's promise (task_system.h): no items, or a minRange below 1.
  int emptyOrBadEnqueues = 0;
  std::unique_ptr<RangeThreads> threads;  // ThreadPerRangeReversed's, made at its first task

  static void* Enqueue(TaskFn task, int itemCount, int minRange, void* taskContext, void* user) {
    auto* self = static_cast<HostileScheduler*>(user);
    ++self->tasksRun;
    if (itemCount < 1 || minRange < 1) ++self->emptyOrBadEnqueues;
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
      // All at once, on as many threads as ranges; the last range on the first thread.
      if (!self->threads) self->threads = std::make_unique<RangeThreads>();
      self->threads->Run(static_cast<int>(order.size()), [self, &order](int i) {
        const Range r = order[static_cast<std::size_t>(i)];
        self->task(r.begin, r.end, i % self->workerCount, self->context);
      });
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
