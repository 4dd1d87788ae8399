// SPDX-License-Identifier: MIT
// Minkowski — TaskSystem, how World::Step runs on the game's own job system (the idea of Box2D v3's
// enqueue / finish callbacks), and TaskPool, a small thread pool for a game that has none.
//
// The step hands its parallel stages to the game as parallel-fors: "call this function over the items
// [0, itemCount), in ranges of at least minRange items, on any threads", then waits for each with
// finish. The results do not depend on how the game splits the ranges, on which threads or in which
// order they run, or on the worker count: every stage writes each result to its own slot, and what
// must be combined (events, counters) is combined in item order afterwards. A world stepped with 1, 2
// or 16 workers holds the same bits after every step.
//
//   mk::TaskPool pool(4);                      // 4 workers: the calling thread and up to 3 threads
//   mk::WorldDef def;
//   def.tasks = pool.GetTaskSystem();
//   mk::World world(def);                      // Step now uses the 4 workers
//
// A game's own job system implements the two callbacks (see TaskSystem). Without them (the default)
// the step runs on the calling thread alone, exactly as it would with one worker.
#pragma once

#include "minkowski/export.h"

#include <cstdint>

namespace MK_API mk {

/// The most workers a TaskSystem may declare (per-worker scratch is sized by the count).
inline constexpr int kMaxWorkers = 64;

/// A range of a parallel-for: process the items [begin, end). `worker` is in [0, workerCount) and no
/// other range running at the same moment has the same one (the engine keeps per-worker scratch by
/// it). `taskContext` is the engine's, passed back unchanged.
using TaskFn = void (*)(int begin, int end, int worker, void* taskContext);

/// Starts a parallel-for: `task` must be called for ranges that cover [0, itemCount) exactly once
/// each, every range at least `minRange` items long except possibly the last, on any threads and in
/// any order, the calling thread included. Returns a handle that FinishTaskFn receives, or nullptr when
/// every range already ran (a task system may run them all inline, here). The engine always asks for
/// at least one item, with a minRange of at least 1. `userContext`: TaskSystem::userContext.
using EnqueueTaskFn = void* (*)(TaskFn task, int itemCount, int minRange, void* taskContext,
                                void* userContext);

/// Waits until every range of the task `userTask` (a non-null EnqueueTaskFn result) has returned.
/// Called once per enqueued task, from the thread that enqueued it.
using FinishTaskFn = void (*)(void* userTask, void* userContext);

/// How many workers the step may use and how it asks for them. With `workerCount` 1, or either
/// callback null, the step runs on the calling thread alone and never calls them.
///
/// The engine calls the callbacks only from inside World::Step, from the thread that called it, and
/// finishes every task it enqueued before the next one starts. The solver's task holds its workers
/// for the whole solve: the calling thread and the task's items are workers that loop over the
/// solver's stages, waiting (spinning, then yielding) while another worker finishes a stage. It has
/// one item fewer than `workerCount` or than the machine's hardware threads
/// (std::thread::hardware_concurrency()), whichever is less: workers that wait for each other lose
/// more than they give once the system must stop some to run the others. Those items should run at
/// the same time for speed; if the task system runs them one after the other, or all on one thread,
/// the first does all the work and the others return at once: slower, never stuck.
struct TaskSystem {
  int workerCount = 1;                  ///< 1..kMaxWorkers (out of range: refused, the world keeps 1)
  EnqueueTaskFn enqueueTask = nullptr;  ///< starts a parallel-for (null: no workers)
  FinishTaskFn finishTask = nullptr;    ///< waits for one (null: no workers)
  void* userContext = nullptr;          ///< passed to both callbacks
};

/// Whether the solver's sub-steps (the soft step's passes, about 80 stages a sub-step, each handed from
/// worker to worker) use the workers (WorldDef::subStepWorkers, World::SetSubStepWorkers). Every
/// choice gives the same results, bit for bit: only who runs the work changes, and so the time. With
/// one worker, or no task system, the sub-steps run on the calling thread whatever the choice.
enum class WorkerUse : std::uint8_t {
  /// The default: on the workers while that is faster than the calling thread alone, judged from the
  /// sub-steps' own time per body and constraint, tried the other way now and then (after a few
  /// steps, then at most every 128 steps while the answer stays clear). Where the workers' cores pass
  /// data slowly, a small scene's sub-steps run faster on one thread (docs/design.md section 8b).
  Measured = 0,
  Workers,        ///< always on the workers
  CallingThread,  ///< always on the calling thread alone (the step's other stages keep the workers)
};

/// How many threads a TaskPool runs its workers' ranges on.
enum class PoolThreads : std::uint8_t {
  /// The default: at most the machine's hardware threads (std::thread::hardware_concurrency()), the
  /// calling thread included. The pool still declares every worker asked for (the world cuts its work
  /// as for them, with the same results), and its threads run their ranges as those workers. Threads
  /// beyond the cores only take turns on them: on 2 cores, 8 workers on 8 threads took 1.09-1.25 times
  /// the time a step of 8 workers on 2 (docs/benchmarks.md, "The pool's threads held to the hardware's").
  AtMostHardware = 0,
  /// A thread for every worker, past the machine's hardware threads too (tests that need that many
  /// threads at once, tools that measure oversubscription).
  AsAsked,
};

/// A fixed pool of threads with a parallel-for, for a game (or a test, a tool) without a job system of
/// its own: ThreadCount() threads, the thread that calls Finish and ThreadCount() - 1 pool threads, run
/// the ranges of WorkerCount() declared workers. Thread t (0: the caller) takes the ranges of the t-th
/// of ThreadCount() equal parts of the items first, then helps with the others' parts: the step's
/// stages index the same bodies and contacts from stage to stage and step to step, so each thread
/// mostly meets items whose data is in its own cache. Between tasks a thread spins for up to 1 ms (the
/// step's tasks come a few hundred microseconds apart at most, and a sleeping thread takes tens of
/// microseconds to wake; in a pool of more threads than the machine's hardware threads, it yields its
/// core between looks), then waits on a condition variable, so an idle pool costs nothing. One World
/// (or one task at a time) per pool; the pool must outlive every World that uses its TaskSystem. Not
/// copyable.
class TaskPool {
 public:
  /// workerCount: clamped to 1..kMaxWorkers; the threads: at most the machine's hardware threads
  /// (PoolThreads::AtMostHardware). A count of 1, or a machine of one hardware thread, starts no thread.
  explicit TaskPool(int workerCount);
  /// `threads`: AtMostHardware as above, or AsAsked, a thread for each worker (an invalid value asserts
  /// and is taken as AtMostHardware).
  TaskPool(int workerCount, PoolThreads threads);
  ~TaskPool();  ///< stops and joins the threads
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  /// The workers it declares (TaskSystem::workerCount): the count asked for, clamped.
  int WorkerCount() const;
  /// The threads that run their ranges: the calling thread and the pool's.
  int ThreadCount() const;
  /// Callbacks that run the engine's tasks on this pool (WorldDef::tasks, World::SetTaskSystem).
  TaskSystem GetTaskSystem();

  /// How many ranges the pool ran since it was made (what tests and the sandbox count).
  std::uint64_t RangesRun() const;

  struct Impl;  ///< (the pool's state; opaque)

 private:
  Impl* impl_;
};

}  // namespace mk
