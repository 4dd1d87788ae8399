// SPDX-License-Identifier: MIT
// Internal: the SIMD width chosen at run time (issue 31). One library holds the contact and hinge
// kernels twice: on 4 lanes (wide::Float4, SSE2, the x86-64 baseline every CPU has) and, in x86-64
// builds by GCC or Clang (MK_AVX2_KERNELS), on 8 lanes (wide::Float8, AVX2). A world chooses at its
// creation (WorldDef::simdWidth, SimdLanes below); SolverArrays::lanes holds the choice and WithGraphs
// (solver/solver.h) runs the solver on the pair of graphs of that width. Both widths give the same
// bits: a colour's contacts share no moving body, so how many are solved at once changes nothing.
//
// The rule that keeps a CPU without AVX2 safe. The 8-lane kernels are compiled with -mavx2 in their
// own files, contact_graph_avx2.cpp and hinge_graph_avx2.cpp, and the compiler may use AVX encodings
// in anything those files define, inline functions included. An inline function (a std:: template, a
// math helper) that such a file emits out of line is a weak symbol, and the linker keeps one copy of
// each for the whole program: were it the AVX2 file's, baseline code calling it would crash on a CPU
// without AVX2. Even code that names the 8-lane type is not safe to share: every world's constructor
// and destructor run the 8-lane graphs' (empty) std::vector members, AVX2 or not. So the AVX2 files
// define, with external linkage, nothing but the kernels' 8-lane instantiations (the
// MK_*_KERNELS_INSTANTIATE lists), which run only once a world chose 8 lanes, which SimdLanes allows
// only where the CPU has AVX2:
//   - the kernels' helpers have internal linkage (an unnamed namespace, contact_graph_kernels.h,
//     hinge_graph_kernels.h) or are always_inline, as every lane operation is;
//   - the shared inline helpers they call are inlined: RestoreStaticSlot is always_inline, and the
//     std::span members need the optimiser, so those files are compiled with -O2 even in Debug builds
//     (at -O0 they came out as weak symbols);
//   - their data (an inline constant) holds no instruction.
// The test avx2_symbols (tests/CMakeLists.txt, cmake/CheckAvx2Symbols.cmake) checks this on every
// build that has the tests: it lists what the AVX2 objects define (nm) and fails on any other function
// symbol with external linkage.
#pragma once

#include "minkowski/world_types.h"

namespace mk {

/// True when the CPU (and the operating system, which must save the 256-bit registers) runs AVX2.
bool CpuHasAvx2();

/// The lanes a world uses for `requested`: 8 for Automatic or Lanes8 where the build has the 8-lane
/// kernels and CpuHasAvx2(), else 4.
int SimdLanes(SimdWidth requested);

}  // namespace mk
