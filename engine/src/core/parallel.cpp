// SPDX-License-Identifier: MIT
// OnCallingThread (parallel.h): a task system of the same worker count whose tasks run at enqueue;
// HardwareThreads.
#include "core/parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace mk {

namespace {

// Worker 0: nothing else runs while it does, so its per-worker scratch is free.
void* RunAtEnqueue(TaskFn task, int itemCount, int /*minRange*/, void* taskContext, void* /*user*/) {
  task(0, itemCount, 0, taskContext);
  return nullptr;  // every range ran: finish is never called
}

void NothingToFinish(void* /*userTask*/, void* /*userContext*/) {}

std::atomic<int> hardwareThreadsForTesting{0};  // 0: the machine's own

int MachineThreads() {
  static const int threads = [] {
    const unsigned reported = std::thread::hardware_concurrency();
    return reported == 0 ? kMaxWorkers : static_cast<int>(std::min<unsigned>(reported, kMaxWorkers));
  }();
  return threads;
}

}  // namespace

int HardwareThreads() {
  const int forced = hardwareThreadsForTesting.load(std::memory_order_relaxed);
  return forced > 0 ? forced : MachineThreads();
}

void SetHardwareThreadsForTesting(int threads) {
  hardwareThreadsForTesting.store(std::clamp(threads, 0, kMaxWorkers), std::memory_order_relaxed);
}

TaskSystem OnCallingThread(const TaskSystem& tasks) {
  TaskSystem here = tasks;
  here.enqueueTask = &RunAtEnqueue;
  here.finishTask = &NothingToFinish;
  here.userContext = nullptr;
  return here;
}

}  // namespace mk
