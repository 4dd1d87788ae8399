// SPDX-License-Identifier: MIT
// Body integration driven without a World (solver_rig.h).
#include "solver_rig.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace mk;
using namespace mk::test;

TEST_SUITE("solver.body_integrator") {

TEST_CASE("a body with no constraint follows the exact parabola x0 + v0 t + g t^2 / 2") {
  SolverRig rig;
  const int body = rig.AddBody({1.0f, 2.0f}, 1.0f, 1.0f);
  rig.bodies[body].v = {3.0f, 4.0f};
  constexpr float kDt = 1.0f / 60.0f;
  for (int i = 0; i < 60; ++i) rig.Step(kDt);
  const float t = 60.0f * kDt;
  CHECK(rig.bodies[body].center.x == doctest::Approx(1.0f + 3.0f * t).epsilon(1e-5).scale(0));
  const float y = 2.0f + 4.0f * t - 5.0f * t * t;
  CHECK(rig.bodies[body].center.y == doctest::Approx(y).epsilon(1e-5).scale(0));
  CHECK(rig.bodies[body].v.y == doctest::Approx(4.0f - 10.0f * t).epsilon(1e-5).scale(0));
}

TEST_CASE("linear damping c scales the velocity by 1 / (1 + h c) per sub-step") {
  SolverRig rig;
  rig.gravity = {0.0f, 0.0f};
  const int body = rig.AddBody({0.0f, 0.0f}, 1.0f, 1.0f);
  rig.bodies[body].v = {2.0f, 0.0f};
  constexpr float kDt = 1.0f / 60.0f, kDamping = 3.0f;
  const int n = rig.settings.subSteps;
  const float h = kDt / static_cast<float>(n);
  rig.Prepare(kDt);
  rig.solver.params[0] =
      MakeBodyParams({.invMass = 1.0f, .invInertia = 1.0f, .linearDamping = kDamping}, rig.context);
  RunSubSteps(rig.solver, rig.context);
  rig.Finish();
  const float expected = 2.0f * std::pow(1.0f + h * kDamping, -static_cast<float>(n));
  CHECK(rig.bodies[body].v.x == doctest::Approx(expected).epsilon(1e-6).scale(0));
}

}  // TEST_SUITE("solver.body_integrator")
