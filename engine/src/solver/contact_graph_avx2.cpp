// SPDX-License-Identifier: MIT
// The contact graph's kernels on 8 lanes (wide::Avx2Float8). Compiled with -mavx2 (engine/CMakeLists.txt)
// and run only on a CPU with AVX2: core/simd_dispatch.h has the rule for what this file may define
// (functions whose names include Avx2Float8, nothing else with external linkage), which the test
// avx2_symbols checks.
#include "solver/contact_graph_kernels.h"

#if defined(MK_HAS_FLOAT8)
#if !defined(__AVX2__)
#error "contact_graph_avx2.cpp must be compiled with -mavx2 (engine/CMakeLists.txt)"
#endif

namespace mk {

MK_CONTACT_KERNELS_INSTANTIATE(wide::Avx2Float8)

}  // namespace mk

#endif  // MK_HAS_FLOAT8
