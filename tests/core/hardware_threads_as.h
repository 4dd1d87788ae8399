// SPDX-License-Identifier: MIT
// HardwareThreadsAs: a test's machine of a chosen number of hardware threads (core/parallel.h).
#pragma once

#include "core/parallel.h"

namespace mk::test {

/// For its life, the engine behaves as on a machine of `threads` hardware threads: the solver's stage
/// loop holds that many workers at most, and a TaskPool made meanwhile starts that many threads at most
/// (PoolThreads::AtMostHardware). So a case can hold 8 workers in the loop on a machine of 2, or a pool
/// to 2 threads on a machine of more.
class HardwareThreadsAs {
 public:
  explicit HardwareThreadsAs(int threads) { SetHardwareThreadsForTesting(threads); }
  ~HardwareThreadsAs() { SetHardwareThreadsForTesting(0); }
  HardwareThreadsAs(const HardwareThreadsAs&) = delete;
  HardwareThreadsAs& operator=(const HardwareThreadsAs&) = delete;
};

}  // namespace mk::test
