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
// without AVX2. So:
//   1. Code that names the 8-lane type (wide::Avx2Float8 in its signature, hence in its symbol name)
//      runs only once a world chose 8 lanes, which SimdLanes allows only where the CPU has AVX2; any
//      copy of such a function, AVX-encoded or not, is safe.
//   2. The AVX2 files define, with external linkage, nothing but functions that name Avx2Float8: their
//      helpers have internal linkage (an unnamed namespace, contact_graph_kernels.h) or are
//      always_inline templates on the lane type, and the shared inline helpers they call (BodyState
//      copies, std::span) are inlined. Their data (an inline constant) holds no instruction.
// The test avx2_symbols (engine/CMakeLists.txt, cmake/CheckAvx2Symbols.cmake) checks 2 on every build:
// it lists what the AVX2 objects define (nm) and fails on any function symbol with external linkage
// that does not name Avx2Float8. Those files are compiled with -O2 even in Debug builds, where nothing
// would be inlined otherwise.
#pragma once

#include "minkowski/world_types.h"

namespace mk {

/// True when the CPU (and the operating system, which must save the 256-bit registers) runs AVX2.
bool CpuHasAvx2();

/// The lanes a world uses for `requested`: 8 for Automatic or Lanes8 where the build has the 8-lane
/// kernels and CpuHasAvx2(), else 4.
int SimdLanes(SimdWidth requested);

}  // namespace mk
