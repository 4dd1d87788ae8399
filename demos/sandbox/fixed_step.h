// SPDX-License-Identifier: MIT
// Fixed-rate stepping from real time, shared by world scenes and labs that simulate.
#pragma once

#include <algorithm>

namespace mk::sandbox {

/// Calls `step()` once per whole `dt` (s) in `accumulator` (real seconds owed, reduced accordingly),
/// at most `maxSteps` times. Behind by more than the cap, the backlog is dropped to at most one step
/// rather than falling further behind every frame. Returns the steps taken.
template <class Step>
int RunFixedSteps(float& accumulator, float dt, int maxSteps, Step&& step) {
  int steps = 0;
  while (accumulator >= dt && steps < maxSteps) {
    step();
    accumulator -= dt;
    ++steps;
  }
  if (steps == maxSteps) accumulator = std::min(accumulator, dt);
  return steps;
}

}  // namespace mk::sandbox
