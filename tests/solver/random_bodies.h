// Random solver bodies for the coloured-solver tests (contact_graph_test.cpp, hinge_graph_test.cpp):
// moving, turned a little this step, with masses and inertias of any size a scene makes.
#pragma once

#include "../test_util.h"
#include "solver/solver.h"

#include <cmath>

namespace mk::test {

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

}  // namespace mk::test
