// SPDX-License-Identifier: MIT
// CpuHasAvx2 and SimdLanes (simd_dispatch.h). Baseline code: this file is compiled without -mavx2.
#include "core/simd_dispatch.h"

#include "core/wide_float.h"

namespace mk {

bool CpuHasAvx2() {
#if defined(MK_HAS_FLOAT8)
  // GCC's and Clang's CPU model (cpuid, and XGETBV for the operating system's support of the YMM
  // state, which AVX needs besides the instructions). The runtime fills it in a constructor of its
  // own, which a game's global World may precede: __builtin_cpu_init fills it now (idempotent).
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

int SimdLanes(SimdWidth requested) {
#if defined(MK_HAS_FLOAT8)
  // Cached: every SolverArrays asks (its default), and the answer cannot change while we run.
  static const bool hasAvx2 = CpuHasAvx2();
  if (requested != SimdWidth::Lanes4 && hasAvx2) return 8;
#else
  (void)requested;
#endif
  return 4;
}

}  // namespace mk
