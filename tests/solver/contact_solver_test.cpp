// SPDX-License-Identifier: MIT
// The contact solver driven without a World (solver_rig.h): two-body cases with analytic answers, and
// warm starting against a cold start.
#include "solver_rig.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <utility>
#include <vector>

using namespace mk;
using namespace mk::test;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kG = 10.0f;
constexpr float kPi = std::numbers::pi_v<float>;

// A box of mass m and half extents hx, hy resting on a static ground whose top is y = 0.
struct BoxOnGround {
  SolverRig rig;
  int box = -1;
  float hx, hy;

  BoxOnGround(float mass, float halfWidth, float halfHeight, float inertia, Vec2 velocity = {0.0f, 0.0f})
      : hx(halfWidth), hy(halfHeight) {
    const int ground = rig.AddBody({0.0f, -1.0f}, 0.0f, 0.0f);
    box = rig.AddBody({0.0f, halfHeight}, mass, inertia);
    rig.bodies[box].v = velocity;
    rig.contacts.push_back({ground, box});
    rig.updateManifolds = [this](SolverRig& r) {
      BoxOnFace(r.contacts[0].manifold, 0.0f, r.bodies[box].center, r.bodies[box].q, hx, hy);
    };
  }
};

}  // namespace

TEST_SUITE("solver.contact") {

TEST_CASE(
    "a box resting on a static body carries m g dt per step and sinks to the soft contact's static sag") {
  const float m = 2.0f, hx = 0.5f, hy = 0.5f;
  const float inertia = m * (4.0f * hx * hx + 4.0f * hy * hy) / 12.0f;
  BoxOnGround scene(m, hx, hy, inertia);
  SolverRig& rig = scene.rig;
  for (int i = 0; i < 180; ++i) rig.Step(kDt);

  // At rest the contact's impulse cancels what gravity adds each sub-step: m g h, so m g dt per step
  // (the stored impulse is the per-sub-step one, applied again by every sub-step's warm start).
  const int n = rig.settings.subSteps;
  CHECK(rig.NormalImpulse(0) * static_cast<float>(n) == doctest::Approx(m * kG * kDt).epsilon(1e-3).scale(0));

  // The sag. One soft row with spring rate omega over a sub-step h (MakeSoftness: biasRate
  // = omega / (2 zeta + h omega), massScale = h omega (2 zeta + h omega) / (1 + h omega (2 zeta + h omega)),
  // impulseScale = 1 / (1 + h omega (2 zeta + h omega))). At rest the sub-step ends with vn = 0, so the
  // soft pass finds vn = 0 after the warm start and applies nothing:
  //   0 = -m_eff massScale biasRate s - impulseScale lambda,   lambda = load h
  //   => s = -(impulseScale / (massScale biasRate)) lambda / m_eff = -(load / m_eff) / omega^2.
  // Each corner carries half the weight; its effective mass along the normal is
  // 1 / (1/m + (r x n)^2 / I) with r x n = +-hx. Against a static body the spring is staticContactScale
  // times contactHertz (below a quarter of the sub-step rate here: 30 Hz < 60 Hz).
  const SolverSettings& s = rig.settings;
  const float subStepRate = static_cast<float>(n) / kDt;
  const float hertz = s.staticContactScale * std::min(s.contactHertz, 0.25f * subStepRate);
  const float omega = 2.0f * kPi * hertz;
  const float mEff = 1.0f / (1.0f / m + hx * hx / inertia);
  const float sag = (0.5f * m * kG / mEff) / (omega * omega);  // 8.8e-5 m
  const Manifold& manifold = rig.contacts[0].manifold;
  const float depth = -0.5f * (manifold.points[0].separation + manifold.points[1].separation);
  CHECK(depth == doctest::Approx(sag).epsilon(0.01).scale(0));
  CHECK(std::fabs(rig.bodies[scene.box].v.y) < 1e-5f);
}

// The separation the rows track through the sub-steps (CurrentSeparation) from the lever arms alone
// must be the gap between the anchors moved rigidly with their bodies, which the oracle computes in
// double from the rotated anchors themselves.
TEST_CASE("a contact's tracked separation is the gap between its anchors moved with their bodies") {
  std::mt19937 rng(20261130);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  double worst = 0.0;
  for (int trial = 0; trial < 20000; ++trial) {
    const float normalAngle = kPi * unit(rng);
    ContactConstraint c;
    c.normal = {std::cos(normalAngle), std::sin(normalAngle)};
    ContactConstraintPoint cp;
    cp.rA = {3.0f * unit(rng), 3.0f * unit(rng)};
    cp.rB = {3.0f * unit(rng), 3.0f * unit(rng)};
    const float separation = 0.1f * unit(rng);
    // What PrepareContacts stores, by the fields' definitions (contact_solver.h).
    const Vec2 tangent = RightPerp(c.normal);
    cp.rnA = Cross(cp.rA, c.normal), cp.rnB = Cross(cp.rB, c.normal);
    cp.rtA = Cross(cp.rA, tangent), cp.rtB = Cross(cp.rB, tangent);
    cp.adjustedSeparation = separation - Dot(cp.rB - cp.rA, c.normal);
    BodyState a, b;
    const float turnA = 0.8f * unit(rng), turnB = 0.8f * unit(rng);  // up to 46 degrees in a step
    a.dq = {std::cos(turnA), std::sin(turnA)}, b.dq = {std::cos(turnB), std::sin(turnB)};
    a.dp = {0.5f * unit(rng), 0.5f * unit(rng)}, b.dp = {0.5f * unit(rng), 0.5f * unit(rng)};
    // Oracle: each anchor rotated by its body's turn and carried by its shift, in double.
    auto moved = [](const BodyState& s, Vec2 r) {
      const double ca = s.dq.c, sa = s.dq.s;
      return std::pair<double, double>{s.dp.x + ca * r.x - sa * r.y, s.dp.y + sa * r.x + ca * r.y};
    };
    const auto [ax, ay] = moved(a, cp.rA);
    const auto [bx, by] = moved(b, cp.rB);
    const double shiftX = (bx - ax) - (double(cp.rB.x) - cp.rA.x),
                 shiftY = (by - ay) - (double(cp.rB.y) - cp.rA.y);
    const double expected = separation + shiftX * c.normal.x + shiftY * c.normal.y;
    const double error = std::fabs(CurrentSeparation(c, cp, a, b) - expected);
    worst = std::max(worst, error);
    CAPTURE(trial);
    REQUIRE(error < 4e-6);  // a few float roundings of terms up to about 5 m
  }
  MESSAGE("worst error " << worst << " m");
}

TEST_CASE("two equal bodies meeting head-on leave with the 1D collision's velocities for restitution e") {
  for (float e : {0.0f, 0.3f, 0.8f, 1.0f}) {
    CAPTURE(e);
    SolverRig rig;
    rig.gravity = {0.0f, 0.0f};
    const float r = 0.5f, m = 1.0f, u = 5.0f;
    const int a = rig.AddBody({-r, 0.0f}, m, 0.5f * m * r * r);
    const int b = rig.AddBody({r, 0.0f}, m, 0.5f * m * r * r);
    rig.bodies[a].v = {u, 0.0f};
    rig.bodies[b].v = {-u, 0.0f};
    rig.contacts.push_back({a, b, {}, 0.0f, e});
    rig.updateManifolds = [&](SolverRig& s) {  // two circles: one point on the line of centres
      Manifold& manifold = s.contacts[0].manifold;
      const Vec2 ca = s.bodies[a].center, cb = s.bodies[b].center;
      manifold.normal = {1.0f, 0.0f};
      manifold.pointCount = 1;
      manifold.points[0].separation = (cb.x - ca.x) - 2.0f * r;
      manifold.points[0].point = {0.5f * (ca.x + cb.x), 0.0f};
    };
    rig.Step(kDt);
    // Momentum conserved, relative velocity reversed and scaled by e:
    //   vA' = ((1 - e) vA + (1 + e) vB) / 2,  vB' = ((1 + e) vA + (1 - e) vB) / 2.
    const float expectedA = 0.5f * ((1.0f - e) * u + (1.0f + e) * -u);
    const float expectedB = 0.5f * ((1.0f + e) * u + (1.0f - e) * -u);
    CHECK(rig.bodies[a].v.x == doctest::Approx(expectedA).epsilon(1e-4).scale(u));
    CHECK(rig.bodies[b].v.x == doctest::Approx(expectedB).epsilon(1e-4).scale(u));
    CHECK(std::fabs(rig.bodies[a].v.y) + std::fabs(rig.bodies[b].v.y) < 1e-6f);
  }
}

TEST_CASE("a body sliding on a static body decelerates at mu g and then stays put") {
  const float mu = 0.4f;
  // Fixed rotation (no inertia), so the friction at the base cannot tip the box.
  BoxOnGround scene(1.0f, 0.5f, 0.5f, 0.0f, {4.0f, 0.0f});
  SolverRig& rig = scene.rig;
  rig.contacts[0].friction = mu;
  const RigBody& box = rig.bodies[scene.box];
  // Stops after v0 / (mu g) = 1 s = 60 steps; measure while it slides, after the first steps have
  // built up the normal impulse the friction limit is read from.
  for (int i = 0; i < 5; ++i) rig.Step(kDt);
  const float v5 = box.v.x;
  for (int i = 5; i < 45; ++i) rig.Step(kDt);
  const float v45 = box.v.x;
  const float deceleration = (v5 - v45) / (40.0f * kDt);
  CHECK(deceleration == doctest::Approx(mu * kG).epsilon(0.005).scale(0));
  for (int i = 45; i < 120; ++i) rig.Step(kDt);
  CHECK(std::fabs(box.v.x) < 1e-4f);
}

TEST_CASE("warm starting leaves a resting stack's first iteration a smaller residual than a cold start") {
  // A column of five unit boxes on the ground, settled with warm starting on.
  SolverRig rig;
  const int ground = rig.AddBody({0.0f, -1.0f}, 0.0f, 0.0f);
  const float m = 1.0f, h = 0.5f, inertia = m * (8.0f * h * h) / 12.0f;
  std::vector<int> boxes;
  for (int i = 0; i < 5; ++i) {
    boxes.push_back(rig.AddBody({0.0f, h + 2.0f * h * static_cast<float>(i)}, m, inertia));
    rig.contacts.push_back({i == 0 ? ground : boxes[i - 1], boxes[i]});
  }
  rig.updateManifolds = [&](SolverRig& s) {
    for (size_t i = 0; i < boxes.size(); ++i) {
      const float faceTop = i == 0 ? 0.0f : s.bodies[boxes[i - 1]].center.y + h;
      BoxOnFace(s.contacts[i].manifold, faceTop, s.bodies[boxes[i]].center, s.bodies[boxes[i]].q, h, h);
    }
  };
  for (int i = 0; i < 240; ++i) rig.Step(kDt);

  // The first iteration of the next step's first sub-step, from the same state warm and cold; its
  // residual is what a second iteration still changes (the sum of |delta lambda| over the points).
  auto firstIterationResidual = [&](bool warm) {
    SolverRig copy = rig;
    copy.settings.enableWarmStarting = warm;  // cold: PrepareContacts starts every impulse at zero
    copy.Prepare(kDt);
    IntegrateVelocities(copy.solver, copy.context);
    if (warm) WarmStartContacts(copy.solver);
    SolveContacts(copy.solver, copy.context);
    std::vector<float> first;
    for (const ContactConstraint& c : copy.solver.contacts) {
      for (int j = 0; j < c.pointCount; ++j) first.push_back(c.points[j].normalImpulse);
    }
    SolveContacts(copy.solver, copy.context);
    float residual = 0.0f;
    size_t k = 0;
    for (const ContactConstraint& c : copy.solver.contacts) {
      for (int j = 0; j < c.pointCount; ++j) residual += std::fabs(c.points[j].normalImpulse - first[k++]);
    }
    return residual;
  };
  const float warm = firstIterationResidual(true);
  const float cold = firstIterationResidual(false);
  CAPTURE(warm);
  CAPTURE(cold);
  // Cold, one Gauss-Seidel pass carries each box's weight only one contact down: the second pass
  // still moves a good part of the column's weight per sub-step (5 m g h = 0.21 N s; measured 0.086;
  // warm 7e-6).
  CHECK(cold > 0.1f * 5.0f * m * kG * kDt / 4.0f);
  CHECK(warm < 0.01f * cold);
}

}  // TEST_SUITE("solver.contact")
