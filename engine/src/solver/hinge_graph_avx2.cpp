// SPDX-License-Identifier: MIT
// The hinge graph's kernels on 8 lanes (wide::Avx2Float8). Compiled with -mavx2 (engine/CMakeLists.txt)
// and run only on a CPU with AVX2, under the rule of core/simd_dispatch.h (checked by the test
// avx2_symbols).
#include "solver/hinge_graph_kernels.h"

#if defined(MK_HAS_FLOAT8)
#if !defined(__AVX2__)
#error "hinge_graph_avx2.cpp must be compiled with -mavx2 (engine/CMakeLists.txt)"
#endif

namespace mk {

MK_HINGE_KERNELS_INSTANTIATE(wide::Avx2Float8)

}  // namespace mk

#endif  // MK_HAS_FLOAT8
