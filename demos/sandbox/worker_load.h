// SPDX-License-Identifier: MIT
// How busy each of the step's workers was in the last Step, stage by stage (issue 31: "per-stage time
// per worker"), measured by the sandbox around its TaskPool: the engine hands its parallel stages to
// the task system as parallel-fors, and the sandbox's task system (TimedTaskPool) times every range on
// the worker that runs it. The engine is not asked for anything but its Profile. No ImGui here: tests
// check the figures and the lines.
#pragma once

#include "minkowski/task_system.h"
#include "minkowski/world_types.h"
#include "settings.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mk::sandbox {

/// The per-worker table's stages: the broadphase, the narrowphase and the solver, then the rest of the
/// Step (continuous collision, whose sweeps also run on the workers when a step has 32 fast bodies or
/// more, then islands and sleep, events: the sleep times and the move events are parallel-fors),
/// which is mostly the Step's thread's.
enum WorkerStage { kStageBroadphase, kStageNarrowphase, kStageSolver, kStageOther, kWorkerStageCount };

/// The last Step's load: ms each worker was busy in each stage. Worker 0 is the thread that calls
/// Step (TaskPool runs ranges there too, while it waits in finish): busy all the Step but the time it
/// waited for other workers' ranges. Workers 1.. are the pool's threads: busy while running ranges
/// (the solver's ranges include the time a worker waits inside them for the others to finish one of
/// the solver's stages, since that wait is the solver's, not the pool's).
struct WorkerLoad {
  int workers = 0;         ///< rows; 0 before the first Step
  float stepMs = 0.0f;     ///< the whole Step (Profile::step)
  int subStepWorkers = 1;  ///< the workers its sub-steps ran on (Profile::subStepWorkers)
  std::array<std::array<float, kWorkerStageCount>, kMaxSandboxWorkers> busyMs{};
  float BusyMs(int worker) const;  ///< summed over the stages
};

/// One parallel-for as the sandbox's task system saw it. Times are steady_clock nanoseconds.
struct TimedTask {
  std::int64_t enqueuedNs = 0;  ///< when the engine enqueued it
  std::int64_t finishedNs = 0;  ///< when finish returned
  /// Time each worker spent inside the task's ranges.
  std::array<std::int64_t, kMaxSandboxWorkers> rangeNs{};
  /// Time the Step's thread spent in finish waiting for ranges other workers held (finish's time less
  /// the ranges it ran itself).
  std::int64_t callerWaitNs = 0;
};

/// The steady_clock's time in nanoseconds (TimedTask's clock).
std::int64_t NowNs();

/// The load of the Step that returned at `stepEndNs` with `profile`, from the tasks it ran on
/// `workers` workers (TaskPool's threads: a range runs as its thread's index). Tasks that ended
/// before that Step began (earlier Steps) are ignored.
///
/// Which stage a task belongs to: the engine's TaskSystem does not say, but Step runs its stages in a
/// fixed order (broadphase, narrowphase, solver, continuous, islands; step.cpp) and Profile gives each
/// one's length, so the Step's start (its end less Profile::step) and those lengths cut the Step into
/// stage intervals, and a task goes to the interval holding its midpoint. The intervals are off from the
/// true ones by what lies outside the stage timers (event bookkeeping, the call's return: well under a
/// microsecond), while a task lasts microseconds and lies inside its stage, so its midpoint does not
/// cross a boundary.
WorkerLoad MeasureWorkerLoad(int workers, const Profile& profile, std::int64_t stepEndNs,
                             const std::vector<TimedTask>& tasks);

/// A TaskPool whose TaskSystem times each range by worker: the engine's task and context are wrapped
/// in a task of its own that reads the clock around them. The same ranges on the same threads as the
/// pool's own TaskSystem, so the results do not change. One World steps on it at a time.
class TimedTaskPool {
 public:
  explicit TimedTaskPool(int workerCount);
  TimedTaskPool(const TimedTaskPool&) = delete;
  TimedTaskPool& operator=(const TimedTaskPool&) = delete;

  int WorkerCount() const { return pool_.WorkerCount(); }
  /// The threads that run them: at most the machine's hardware threads (PoolThreads::AtMostHardware,
  /// what a game's TaskPool does), so workers past them have no thread and no row in the table.
  int ThreadCount() const { return pool_.ThreadCount(); }
  TaskSystem GetTaskSystem();
  /// The tasks enqueued since the last ClearTasks (MeasureWorkerLoad reads them), at most kMaxTasks:
  /// a replay scrubbed over thousands of steps starts the list again when it is full.
  const std::vector<TimedTask>& Tasks() const { return tasks_; }
  void ClearTasks() { tasks_.clear(); }
  static constexpr std::size_t kMaxTasks = 256;  ///< a Step enqueues a handful

 private:
  static void* Enqueue(TaskFn task, int itemCount, int minRange, void* taskContext, void* userContext);
  static void Finish(void* userTask, void* userContext);
  static void RunTimed(int begin, int end, int worker, void* context);

  TaskPool pool_;
  TaskSystem inner_;  // the pool's own callbacks
  // The task running now: the engine finishes each task before it enqueues the next (task_system.h),
  // so one is enough.
  TaskFn task_ = nullptr;
  void* taskContext_ = nullptr;
  TimedTask* current_ = nullptr;  // its record, in tasks_
  std::vector<TimedTask> tasks_;
};

/// The table's lines, each within kPanelColumns: a head ("ms", the stages, "all"), then one row per
/// worker ("w0", its busy ms per stage and in all).
std::vector<std::string> WorkerLoadLines(const WorkerLoad& load);

}  // namespace mk::sandbox
