// SPDX-License-Identifier: MIT
// TaskPool (minkowski/task_system.h): ThreadCount() - 1 threads and the thread that calls Finish run the
// ranges of one task at a time. The pool threads sleep on a condition variable between tasks, after
// spinning briefly, since the step enqueues its tasks back to back.
//
// Each thread has a share of the task's ranges, a contiguous run of them: thread t starts with the t-th
// share and then helps with the others' (from t + 1 on). The step's stages index the same bodies and
// contacts from step to step and stage to stage, so a worker mostly gets back the items whose data its
// own cache holds; with one shared queue each stage dealt them out anew.
//
// A share is claimed from one atomic word holding the task's generation, the share's end and its next
// range: a thread that woke late, or still looks for work in a task that has ended, fails its claim
// (the generation moved on) instead of reading the next task's fields while Enqueue writes them. A
// claimed range keeps its task's fields stable, since Finish waits for every range to return.
#include "core/parallel.h"
#include "core/spin_wait.h"
#include "minkowski/assert.h"
#include "minkowski/task_system.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace mk {

namespace {

// Ranges per worker a task is cut into (at least its minRange): enough that a worker that starts late
// or is slowed by another process leaves its share to the others. A worker done first takes the next
// range of another's share, whose items' data is in the other core's cache, so a range is also the
// least that moves: eight rather than four took two workers' steps 1-3% down (large_pyramid 0.97,
// many_pyramids 0.99, spinner 0.97, tumbler 0.99, rain 1.01; docs/benchmarks.md, "Two workers, one
// data each").
constexpr int kRangesPerWorker = 8;

// How long a pool thread spins for the next task before it sleeps. The step enqueues a dozen tasks
// with serial work between them (up to a few hundred microseconds on a large world); a thread asleep
// on the condition variable takes a futex wake and tens of microseconds to run again, each time, while
// the calling thread works alone. Spinning through the step's gaps costs a core for this long after
// the step's last task, once per step.
constexpr std::chrono::microseconds kSpinBeforeSleep{1000};

// A share's claim word: generation (bits 40..63), end of the share (20..39), next range (0..19). A
// task has at most kMaxWorkers * kRangesPerWorker + 1 ranges, far below 2^20.
constexpr int kEndShift = 20, kGenerationShift = 40;
constexpr std::uint64_t kFieldMask = (std::uint64_t{1} << 20) - 1;
// The generation's bits in the word; a thread would have to sleep through 2^24 tasks to mistake one.
constexpr std::uint64_t kGenerationMask = (std::uint64_t{1} << 24) - 1;

std::uint64_t ClaimWord(std::uint64_t generation, int begin, int end) {
  return (generation << kGenerationShift) | (static_cast<std::uint64_t>(end) << kEndShift) |
         static_cast<std::uint64_t>(begin);
}

}  // namespace

struct TaskPool::Impl {
  // One worker's share, on a cache line of its own: the owner's claims do not slow the others'. Declared
  // here, not in the file's anonymous namespace: in a unity batch (a game's CMAKE_UNITY_BUILD, or
  // MK_UNITY_ENGINE) this file is included, and g++ warns of a named class holding a file-local type
  // (-Wsubobject-linkage).
  struct alignas(64) Share {
    std::atomic<std::uint64_t> claim{0};
  };

  // The task being run: written by Enqueue while no range runs, then published by the shares' claims.
  TaskFn task = nullptr;
  void* taskContext = nullptr;
  int itemCount = 0;
  int rangeSize = 1;

  Share shares[kMaxWorkers];
  std::atomic<int> rangesDone{0};
  int rangeCount = 0;                       // the caller's copy (Finish)
  std::uint64_t generation = 0;             // the caller's count of tasks
  std::atomic<std::uint64_t> published{0};  // what the sleeping threads wait on
  std::atomic<std::uint64_t> rangesRun{0};
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::condition_variable wake;
  std::vector<std::thread> threads;
  int workerCount = 1;  // what the pool declares (TaskSystem::workerCount)
  int threadCount = 1;  // what runs its ranges, the calling thread included: one share each

  // Claims and runs ranges of task `gen`, its own share first, until none is left or the pool has
  // moved to another task. `worker`: the thread's index, which is the worker its ranges are run as.
  void RunRanges(std::uint64_t gen, int worker) {
    for (int k = 0; k < threadCount; ++k) {
      const int share = worker + k < threadCount ? worker + k : worker + k - threadCount;
      if (!RunShare(gen, shares[share].claim, worker)) return;
    }
  }

  // Runs the ranges of one share; false when the pool has moved past task `gen`.
  bool RunShare(std::uint64_t gen, std::atomic<std::uint64_t>& claim, int worker) {
    std::uint64_t word = claim.load(std::memory_order_acquire);
    for (;;) {
      if ((word >> kGenerationShift) != (gen & kGenerationMask)) return false;
      const int next = static_cast<int>(word & kFieldMask);
      if (next >= static_cast<int>((word >> kEndShift) & kFieldMask)) return true;
      if (!claim.compare_exchange_weak(word, word + 1, std::memory_order_acq_rel, std::memory_order_acquire))
        continue;  // `word` reloaded
      const int begin = next * rangeSize;
      task(begin, std::min(itemCount, begin + rangeSize), worker, taskContext);
      rangesRun.fetch_add(1, std::memory_order_relaxed);
      rangesDone.fetch_add(1, std::memory_order_acq_rel);
      word = claim.load(std::memory_order_acquire);
    }
  }

  // A pool thread: waits for a new task (spinning for up to kSpinBeforeSleep, then asleep) and runs
  // its ranges. In a pool of more threads than the machine has (`oversubscribed`) it gives its core
  // away between every two looks instead of after a round of pauses: a round is 10 to 40 us in which a
  // thread with work may wait for this one's core (on two cores, 8 workers ran rain's step 6% and
  // large_pyramid's 5% faster this way; docs/benchmarks.md, "More workers than cores").
  void ThreadLoop(int worker, bool oversubscribed) {
    std::uint64_t seen = 0;
    for (;;) {
      SpinWait spin;
      const auto sleepAt = std::chrono::steady_clock::now() + kSpinBeforeSleep;
      while (published.load(std::memory_order_acquire) == seen && !stopping.load(std::memory_order_acquire)) {
        if (!oversubscribed && spin.Pause()) continue;
        if (std::chrono::steady_clock::now() < sleepAt) {
          // Another round of pauses (oversubscribed: another look), after giving the core away: with
          // more threads than cores, the thread holding the task's last range may be waiting for this
          // one's core (8 workers on 2 cores ran the step at half the speed of one worker). With a core
          // each, nothing else is ready to run and the yield returns at once.
          std::this_thread::yield();
          spin = SpinWait{};
          continue;
        }
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] {
          return published.load(std::memory_order_acquire) != seen ||
                 stopping.load(std::memory_order_acquire);
        });
      }
      if (stopping.load(std::memory_order_acquire)) return;
      seen = published.load(std::memory_order_acquire);
      RunRanges(seen, worker);
    }
  }
};

TaskPool::TaskPool(int workerCount) : TaskPool(workerCount, PoolThreads::AtMostHardware) {}

// A pool of more threads than the machine runs at once (8 on 2 cores) has them take turns on the cores,
// and every parallel-for's ranges, with their data, move between threads that wait for a core: 8
// workers on 8 threads took 1.09-1.25 times 8 workers on 2 (docs/benchmarks.md, "The pool's threads
// held to the hardware's"). Which threads run the ranges changes no result.
TaskPool::TaskPool(int workerCount, PoolThreads threads) : impl_(new Impl) {
  impl_->workerCount = std::clamp(workerCount, 1, kMaxWorkers);
  MK_ASSERT(threads == PoolThreads::AtMostHardware || threads == PoolThreads::AsAsked);  // else: the default
  const bool asAsked = threads == PoolThreads::AsAsked;
  impl_->threadCount = asAsked ? impl_->workerCount : std::min(impl_->workerCount, HardwareThreads());
  const bool oversubscribed = impl_->threadCount > HardwareThreads();
  for (int worker = 1; worker < impl_->threadCount; ++worker)
    impl_->threads.emplace_back(
        [this, worker, oversubscribed] { impl_->ThreadLoop(worker, oversubscribed); });
}

TaskPool::~TaskPool() {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->stopping.store(true, std::memory_order_release);
  }
  impl_->wake.notify_all();
  for (std::thread& thread : impl_->threads) thread.join();
  delete impl_;
}

int TaskPool::WorkerCount() const { return impl_->workerCount; }

int TaskPool::ThreadCount() const { return impl_->threadCount; }

std::uint64_t TaskPool::RangesRun() const { return impl_->rangesRun.load(std::memory_order_relaxed); }

namespace {

void* EnqueueOnPool(TaskFn task, int itemCount, int minRange, void* taskContext, void* userContext) {
  auto* impl = static_cast<TaskPool::Impl*>(userContext);
  if (itemCount <= 0) return nullptr;
  const int pieces = impl->threadCount * kRangesPerWorker;
  impl->task = task;
  impl->taskContext = taskContext;
  impl->itemCount = itemCount;
  impl->rangeSize = std::max({1, minRange, (itemCount + pieces - 1) / pieces});
  impl->rangeCount = (itemCount + impl->rangeSize - 1) / impl->rangeSize;
  impl->rangesDone.store(0, std::memory_order_relaxed);
  const std::uint64_t gen = ++impl->generation;
  const int shares = impl->threadCount;
  for (int t = 0; t < shares; ++t) {  // thread t's share: ranges [t n / T, (t + 1) n / T)
    const int begin = t * impl->rangeCount / shares, end = (t + 1) * impl->rangeCount / shares;
    impl->shares[t].claim.store(ClaimWord(gen & kGenerationMask, begin, end), std::memory_order_release);
  }
  if (impl->threads.empty()) {  // one thread: run it here
    impl->RunRanges(gen, 0);
    return nullptr;
  }
  {
    std::lock_guard<std::mutex> lock(impl->mutex);  // a thread between its test and its wait sees it
    impl->published.store(gen, std::memory_order_release);
  }
  impl->wake.notify_all();
  return impl;
}

// The calling thread is worker 0: it runs ranges too, then waits for the ranges other threads hold.
void FinishOnPool(void* userTask, void* userContext) {
  auto* impl = static_cast<TaskPool::Impl*>(userContext);
  if (userTask == nullptr) return;
  impl->RunRanges(impl->generation, 0);
  SpinWait spin;
  while (impl->rangesDone.load(std::memory_order_acquire) < impl->rangeCount) spin.PauseOrYield();
}

}  // namespace

TaskSystem TaskPool::GetTaskSystem() {
  TaskSystem system;
  system.workerCount = impl_->workerCount;
  system.enqueueTask = &EnqueueOnPool;
  system.finishTask = &FinishOnPool;
  system.userContext = impl_;
  return system;
}

}  // namespace mk
