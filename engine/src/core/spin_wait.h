// SPDX-License-Identifier: MIT
// Internal: SpinWait, the back-off of a thread waiting for another's store: a CPU pause while the wait
// is likely short, then yielding the core (more workers than cores: the thread being waited for may
// need this one's core to finish).
#pragma once

#include <thread>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mk {

class SpinWait {
 public:
  /// One pause; false once the spin budget is spent (the caller then sleeps or yields).
  bool Pause() {
    if (spins_ >= kSpinsBeforeYield) return false;
    ++spins_;
    CpuPause();
    return true;
  }
  /// A pause while the budget lasts, then a yield each call.
  void PauseOrYield() {
    if (!Pause()) std::this_thread::yield();
  }

 private:
  // About 10 to 40 microseconds of pauses: longer than a stage of a small step takes, far shorter than
  // a scheduler's time slice.
  static constexpr int kSpinsBeforeYield = 1 << 10;

  static void CpuPause() {
#if defined(__SSE2__)
    _mm_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  int spins_ = 0;
};

}  // namespace mk
