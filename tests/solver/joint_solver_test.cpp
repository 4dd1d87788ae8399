// SPDX-License-Identifier: MIT
// The joint solver driven without a World (solver_rig.h): a pendulum on a rigid distance joint.
#include "solver_rig.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

using namespace mk;
using namespace mk::test;

TEST_SUITE("solver.joint") {

TEST_CASE("a pendulum on a distance joint keeps its length and swings with period 2 pi sqrt(L / g)") {
  constexpr float kDt = 1.0f / 60.0f, kG = 10.0f, kL = 1.0f, kTheta0 = 0.1f;  // rad
  SolverRig rig;
  const int pivot = rig.AddBody({0.0f, 0.0f}, 0.0f, 0.0f);
  // A point mass: the joint holds the bob's centre (its rotation plays no part).
  const int bob = rig.AddBody({kL * std::sin(kTheta0), -kL * std::cos(kTheta0)}, 1.0f, 0.01f);
  RigJoint joint{pivot, bob};
  joint.data.type = JointType::Distance;
  joint.data.length = kL;  // anchors at the pivot and the bob's centre (both local (0, 0))
  rig.joints.push_back(joint);

  // Times at which the bob crosses the vertical moving left (x from + to -), interpolated.
  std::vector<float> crossings;
  float maxStretch = 0.0f;
  float previousX = rig.bodies[bob].center.x;
  for (int i = 1; i <= 720; ++i) {  // 12 s, six periods
    rig.Step(kDt);
    const Vec2 p = rig.bodies[bob].center;
    maxStretch = std::max(maxStretch, std::fabs(Length(p) - kL));
    if (previousX > 0.0f && p.x <= 0.0f) {
      crossings.push_back((static_cast<float>(i) - p.x / (p.x - previousX) - 1.0f) * kDt);
    }
    previousX = p.x;
  }
  REQUIRE(crossings.size() >= 5);
  const float period = (crossings.back() - crossings.front()) / static_cast<float>(crossings.size() - 1);
  // Small-angle period with the first amplitude correction (1 + theta0^2 / 16).
  const float expected =
      2.0f * std::numbers::pi_v<float> * std::sqrt(kL / kG) * (1.0f + kTheta0 * kTheta0 / 16.0f);
  CHECK(period == doctest::Approx(expected).epsilon(0.002).scale(0));
  // The rod is a soft constraint at jointHertz (60 Hz, a quarter of the sub-step rate): the tension at
  // the bottom, m g (1 + theta0^2), stretches it by (T / m) / (2 pi 60)^2 = 7.1e-5 m; the swing's
  // dynamics add a little (measured 7.4e-5 m).
  const float omega = 2.0f * std::numbers::pi_v<float> * rig.settings.jointHertz;
  CHECK(maxStretch < 1.1f * kG * (1.0f + kTheta0 * kTheta0) / (omega * omega));
}

}  // TEST_SUITE("solver.joint")
