// SPDX-License-Identifier: MIT
#include "worker_load.h"

#include "panel_text.h"

#include <algorithm>
#include <chrono>
#include <string_view>

namespace mk::sandbox {

float WorkerLoad::BusyMs(int worker) const {
  float sum = 0.0f;
  for (float ms : busyMs[static_cast<std::size_t>(worker)]) sum += ms;
  return sum;
}

std::int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

WorkerLoad MeasureWorkerLoad(int workers, const Profile& profile, std::int64_t stepEndNs,
                             const std::vector<TimedTask>& tasks) {
  WorkerLoad load;
  load.workers = std::clamp(workers, 1, kMaxSandboxWorkers);
  load.stepMs = profile.step;
  load.subStepWorkers = profile.subStepWorkers;
  const float stageMs[kWorkerStageCount] = {
      profile.broadphase, profile.narrowphase, profile.solver,
      std::max(0.0f, profile.step - profile.broadphase - profile.narrowphase - profile.solver)};
  // The Step's thread is busy for every stage's length, less its waits in finish (subtracted below).
  for (int s = 0; s < kWorkerStageCount; ++s) load.busyMs[0][static_cast<std::size_t>(s)] = stageMs[s];

  constexpr double kNsPerMs = 1e6;
  const double stepStartNs = static_cast<double>(stepEndNs) - static_cast<double>(profile.step) * kNsPerMs;
  for (const TimedTask& task : tasks) {
    const double middle = 0.5 * static_cast<double>(task.enqueuedNs + task.finishedNs);
    if (middle < stepStartNs) continue;  // an earlier Step's
    // The stage whose interval holds the middle (the last one takes what lies beyond the others).
    int stage = 0;
    double stageEnd = stepStartNs + static_cast<double>(stageMs[0]) * kNsPerMs;
    while (stage < kStageOther && middle >= stageEnd) {
      ++stage;
      stageEnd += static_cast<double>(stageMs[stage]) * kNsPerMs;
    }
    auto& worker0 = load.busyMs[0][static_cast<std::size_t>(stage)];
    worker0 = std::max(0.0f, worker0 - static_cast<float>(static_cast<double>(task.callerWaitNs) / kNsPerMs));
    for (int w = 1; w < load.workers; ++w) {
      load.busyMs[static_cast<std::size_t>(w)][static_cast<std::size_t>(stage)] +=
          static_cast<float>(static_cast<double>(task.rangeNs[static_cast<std::size_t>(w)]) / kNsPerMs);
    }
  }
  return load;
}

TimedTaskPool::TimedTaskPool(int workerCount) : pool_(std::min(workerCount, kMaxSandboxWorkers)) {
  inner_ = pool_.GetTaskSystem();
  tasks_.reserve(kMaxTasks);
}

TaskSystem TimedTaskPool::GetTaskSystem() {
  TaskSystem system = inner_;
  system.enqueueTask = &Enqueue;
  system.finishTask = &Finish;
  system.userContext = this;
  return system;
}

// A range of the engine's task, timed on the worker that runs it. Each worker writes only its own
// slot, and finish returns only after every range did (the pool counts them done after this returns).
void TimedTaskPool::RunTimed(int begin, int end, int worker, void* context) {
  auto* self = static_cast<TimedTaskPool*>(context);
  const std::int64_t start = NowNs();
  self->task_(begin, end, worker, self->taskContext_);
  self->current_->rangeNs[static_cast<std::size_t>(worker)] += NowNs() - start;
}

void* TimedTaskPool::Enqueue(TaskFn task, int itemCount, int minRange, void* taskContext, void* userContext) {
  auto* self = static_cast<TimedTaskPool*>(userContext);
  if (self->tasks_.size() == kMaxTasks) self->tasks_.clear();  // no allocation: older Steps' tasks go
  // Written before the pool sees the task, so its threads read them settled.
  self->task_ = task;
  self->taskContext_ = taskContext;
  self->current_ = &self->tasks_.emplace_back();
  self->current_->enqueuedNs = NowNs();
  void* handle = self->inner_.enqueueTask(&RunTimed, itemCount, minRange, self, self->inner_.userContext);
  if (handle == nullptr) self->current_->finishedNs = NowNs();  // every range ran here already
  return handle;
}

void TimedTaskPool::Finish(void* userTask, void* userContext) {
  auto* self = static_cast<TimedTaskPool*>(userContext);
  TimedTask& task = *self->current_;
  const std::int64_t ownBefore = task.rangeNs[0];  // the Step's thread is worker 0 in TaskPool
  const std::int64_t start = NowNs();
  self->inner_.finishTask(userTask, self->inner_.userContext);
  task.finishedNs = NowNs();
  task.callerWaitNs = std::max<std::int64_t>(0, (task.finishedNs - start) - (task.rangeNs[0] - ownBefore));
}

std::vector<std::string> WorkerLoadLines(const WorkerLoad& load) {
  // A label of 3 ("w15") and 5 columns of a space and 6 characters: 38, kPanelColumns. The space is
  // its own, so a figure that fills its 6 ("12.345") never runs into the one before it.
  constexpr std::size_t kLabel = 3, kFigure = 6;
  // (Appended, not "a" + b: GCC 12 warns falsely (-Wrestrict) on operator+ of a literal and a string.)
  auto column = [](std::string_view text) {
    std::string out(kFigure + 1 - text.size(), ' ');
    out += text;
    return out;
  };
  auto figure = [](float ms) {
    std::string out(1, ' ');
    out += FixedNumber(ms, static_cast<int>(kFigure), 3);
    return out;
  };
  std::string head = PaddedTo("ms", kLabel);
  for (const char* name : {"broad", "narrow", "solver", "other", "all"}) head += column(name);
  std::vector<std::string> lines{head};
  for (int w = 0; w < load.workers; ++w) {
    std::string row = "w";
    row += std::to_string(w);
    row = PaddedTo(row, kLabel);
    for (float ms : load.busyMs[static_cast<std::size_t>(w)]) row += figure(ms);
    row += figure(load.BusyMs(w));
    lines.push_back(row);
  }
  return lines;
}

}  // namespace mk::sandbox
