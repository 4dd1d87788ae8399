// SPDX-License-Identifier: MIT
// OnCallingThread (parallel.h): a task system of the same worker count whose tasks run at enqueue.
#include "core/parallel.h"

namespace mk {

namespace {

// Worker 0: nothing else runs while it does, so its per-worker scratch is free.
void* RunAtEnqueue(TaskFn task, int itemCount, int /*minRange*/, void* taskContext, void* /*user*/) {
  task(0, itemCount, 0, taskContext);
  return nullptr;  // every range ran: finish is never called
}

void NothingToFinish(void* /*userTask*/, void* /*userContext*/) {}

}  // namespace

TaskSystem OnCallingThread(const TaskSystem& tasks) {
  TaskSystem here = tasks;
  here.enqueueTask = &RunAtEnqueue;
  here.finishTask = &NothingToFinish;
  here.userContext = nullptr;
  return here;
}

}  // namespace mk
