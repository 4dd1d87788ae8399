// SPDX-License-Identifier: MIT
// Random solver bodies for the coloured-solver tests (contact_graph_test.cpp, hinge_graph_test.cpp):
// moving, turned a little this step, with masses and inertias of any size a scene makes; and the mark
// those tests tell a kept colouring by.
#pragma once

#include "../test_util.h"
#include "core/simd_dispatch.h"
#include "solver/solver.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <utility>

namespace mk::test {

/// A value no colouring writes into a graph's bodyColors (it sets one bit a colour, of at most
/// kGraphColorCount): the keep tests fill bodyColors with it, and a colouring made again overwrites it.
inline constexpr std::uint32_t kKeptMark = 0xA5A5A5A5u;
static_assert(kGraphColorCount <= 24);  // the mark has bit 24 set

/// Appends `count` bodies to solver.states and solver.params. hugeInertiaOdds > 0: about one body in
/// hugeInertiaOdds gets an inverse inertia of 1e30 (a joint's K then overflows float).
inline void AddRandomBodies(Rng& rng, int count, SolverArrays& solver, int hugeInertiaOdds = 0) {
  for (int i = 0; i < count; ++i) {
    BodyState s;
    s.v = rng.InBox(5.0f);
    s.w = rng.Uniform(-4.0f, 4.0f);
    s.dp = rng.InBox(0.05f);
    const float angle = rng.Uniform(-0.1f, 0.1f);
    s.dq = {std::cos(angle), std::sin(angle)};
    solver.states.push_back(s);
    BodyParams p;
    p.invMass = rng.LogUniform(0.01f, 10.0f);
    p.invInertia =
        hugeInertiaOdds > 0 && rng.Int(0, hugeInertiaOdds) == 0 ? 1e30f : rng.LogUniform(0.01f, 50.0f);
    solver.params.push_back(p);
  }
}

/// The two solver indices of random constraint `i` among `bodyCount` bodies (-1: a static side),
/// never one body twice nor two static sides. The first `hubCount` constraints join body 0 to the
/// others in turn: a hub with more constraints than there are colours, whose last ones overflow.
inline std::pair<int, int> RandomPair(Rng& rng, int bodyCount, int i, int hubCount) {
  int a = rng.Int(-1, bodyCount - 1), b = rng.Int(-1, bodyCount - 1);
  if (a == b) a = -1;
  if (a < 0 && b < 0) b = 0;
  if (i < hubCount) a = 0, b = 1 + i % (bodyCount - 1);
  return {a, b};
}

/// A constraint's bodies and their inverse masses and inertias (zero for a static side).
template <class Constraint>
void SetBodies(Constraint& c, const SolverArrays& solver, int a, int b) {
  c.indexA = a;
  c.indexB = b;
  c.invMassA = a < 0 ? 0.0f : solver.params[a].invMass;
  c.invIA = a < 0 ? 0.0f : solver.params[a].invInertia;
  c.invMassB = b < 0 ? 0.0f : solver.params[b].invMass;
  c.invIB = b < 0 ? 0.0f : solver.params[b].invInertia;
}

/// Calls check.template operator()<F>() for each lane type the solver's graphs come in: wide::Float4
/// and, where the build has the 8-lane kernels, wide::Float8. `runsKernels`: the check runs the 8-lane
/// kernels, which only a CPU with AVX2 can; elsewhere that width is skipped (said in the log).
template <class Check>
void ForEachGraphWidth(bool runsKernels, Check&& check) {
  check.template operator()<wide::Float4>();
#if defined(MK_HAS_FLOAT8)
  if (!runsKernels || CpuHasAvx2()) {
    check.template operator()<wide::Float8>();
  } else {
    MESSAGE("skipped on 8 lanes: this CPU has no AVX2");
  }
#else
  (void)runsKernels;
#endif
}

/// SolverArrays::hinges or hinges8: the hinge graph of lane type F.
template <class F>
HingeGraph<F>& HingesOf(SolverArrays& solver) {
#if defined(MK_HAS_FLOAT8)
  if constexpr (F::kLanes == 8) return solver.hinges8;
#endif
  if constexpr (F::kLanes == 4) return solver.hinges;
}

}  // namespace mk::test
