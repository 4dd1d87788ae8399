// SPDX-License-Identifier: MIT
// Internal: the step's parallel-for over the game's task system (minkowski/task_system.h).
#pragma once

#include "minkowski/task_system.h"

#include <type_traits>

namespace mk {

/// True when `tasks` gives the step more than the calling thread: two or more workers and both
/// callbacks (World::SetTaskSystem refuses one callback without the other).
inline bool HasWorkers(const TaskSystem* tasks) {
  return tasks != nullptr && tasks->workerCount > 1 && tasks->enqueueTask != nullptr &&
         tasks->finishTask != nullptr;
}

/// How many threads the machine runs at once: std::thread::hardware_concurrency(), read once (kMaxWorkers
/// when the machine does not say), or what SetHardwareThreadsForTesting set. The solver's stage loop
/// and TaskPool's thread count and waiting threads size themselves by it; no result depends on it.
int HardwareThreads();

/// Tests: behave as on a machine of `threads` hardware threads (at most kMaxWorkers); 0 returns to the
/// machine's own count. Read by each stage loop as it starts and by each TaskPool as it is made.
void SetHardwareThreadsForTesting(int threads);

/// `tasks` with its worker count (so every stage cuts its work as on the workers) but run here: each
/// enqueue runs all of its items on the calling thread before it returns, which the TaskSystem
/// contract allows. A stage given it does the workers' work alone, with the same results.
TaskSystem OnCallingThread(const TaskSystem& tasks);

/// fn(begin, end) over the items [0, count) in ranges of at least minRange, on the workers; on the
/// calling thread alone, as one range, without workers or when count <= minRange. Returns when every
/// range has. fn must write only what its own items own.
template <class Fn>
void ParallelFor(const TaskSystem* tasks, int count, int minRange, Fn&& fn) {
  if (count <= 0) return;
  if (!HasWorkers(tasks) || count <= minRange) {
    fn(0, count);
    return;
  }
  using F = std::remove_reference_t<Fn>;
  const TaskFn trampoline = [](int begin, int end, int /*worker*/, void* context) {
    (*static_cast<F*>(context))(begin, end);
  };
  void* task = tasks->enqueueTask(trampoline, count, minRange,
                                  const_cast<void*>(static_cast<const void*>(&fn)), tasks->userContext);
  if (task != nullptr) tasks->finishTask(task, tasks->userContext);
}

/// first() and second() side by side on two workers (or one after the other on the calling thread,
/// or in one range, as the task system chooses): two serial jobs that share no writes.
template <class First, class Second>
void RunSideBySide(const TaskSystem* tasks, First&& first, Second&& second) {
  ParallelFor(tasks, 2, 1, [&](int begin, int end) {
    for (int job = begin; job < end; ++job) {
      if (job == 0) {
        first();
      } else {
        second();
      }
    }
  });
}

/// here() on the calling thread while beside() runs as a task of one item, which the task system may
/// give a worker, or run on the calling thread itself (inside enqueue, before here(), or in finish,
/// after it): two serial jobs that share no writes, the first kept on the calling thread (it may call
/// the game back where the API promises the calling thread).
template <class Here, class Beside>
void RunBeside(const TaskSystem* tasks, Here&& here, Beside&& beside) {
  if (!HasWorkers(tasks)) {
    here();
    beside();
    return;
  }
  using B = std::remove_reference_t<Beside>;
  const TaskFn trampoline = [](int, int, int /*worker*/, void* context) { (*static_cast<B*>(context))(); };
  void* task = tasks->enqueueTask(trampoline, 1, 1, const_cast<void*>(static_cast<const void*>(&beside)),
                                  tasks->userContext);
  here();
  if (task != nullptr) tasks->finishTask(task, tasks->userContext);
}

}  // namespace mk
