// SPDX-License-Identifier: MIT
// The clock the benchmark programs time with. By default the calling thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID): on a loaded machine the wall clock also counts the time the thread sits
// descheduled while other processes run, which inflated one pass or another by 2-5x at random.
#pragma once

#include <chrono>
#include <ctime>

namespace mk::bench {

/// Nanoseconds: the thread's CPU time, or the steady wall clock with `wall`.
inline double NowNs(bool wall = false) {
  if (wall) {
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

}  // namespace mk::bench
