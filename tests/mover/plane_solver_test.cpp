// SPDX-License-Identifier: MIT
// SolvePlanes and ClipVector (minkowski/mover.h) against a brute-force quadratic program: in 2D the
// point of a (non-empty) intersection of half-planes nearest a target is the target itself, its
// projection onto one boundary line, or the crossing of two; the oracle tries them all.
#include "minkowski/mover.h"
#include "test_util.h"
#include "world/world_fixture.h"

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <vector>

using namespace mk;
using mk::test::Near;
using mk::test::Rng;

namespace {

struct Oracle {
  bool feasible = false;
  Vec2 point{0.0f, 0.0f};
};

// Nearest point to t with Dot(n_i, d) + o_i >= 0 for all i, in double precision.
Oracle NearestFeasible(Vec2 t, const std::vector<CollisionPlane>& planes) {
  struct D {
    double x, y;
  };
  std::vector<D> candidates{{t.x, t.y}};
  const auto n = [&](std::size_t i) { return D{planes[i].plane.normal.x, planes[i].plane.normal.y}; };
  for (std::size_t i = 0; i < planes.size(); ++i) {
    const D a = n(i);
    const double g = a.x * t.x + a.y * t.y + planes[i].plane.offset;
    candidates.push_back({t.x - g * a.x, t.y - g * a.y});
    for (std::size_t j = i + 1; j < planes.size(); ++j) {
      const D b = n(j);
      const double det = a.x * b.y - a.y * b.x;
      if (std::fabs(det) < 1e-9) continue;
      // a . d = -o_i, b . d = -o_j (Cramer's rule)
      const double ri = -planes[i].plane.offset, rj = -planes[j].plane.offset;
      candidates.push_back({(ri * b.y - a.y * rj) / det, (a.x * rj - ri * b.x) / det});
    }
  }
  Oracle best;
  double bestDistance = 1e300;
  for (const D& c : candidates) {
    bool ok = true;
    for (std::size_t i = 0; i < planes.size() && ok; ++i) {
      const D a = n(i);
      ok = a.x * c.x + a.y * c.y + planes[i].plane.offset >= -1e-6;
    }
    const double dist = (c.x - t.x) * (c.x - t.x) + (c.y - t.y) * (c.y - t.y);
    if (ok && dist < bestDistance) {
      bestDistance = dist;
      best = {true, {static_cast<float>(c.x), static_cast<float>(c.y)}};
    }
  }
  return best;
}

}  // namespace

TEST_SUITE("mover plane solver") {
TEST_CASE("the solver finds the nearest point of random plane sets as the brute-force program does") {
  Rng rng(29001);
  int compared = 0, converged = 0;
  float worst = 0.0f;
  for (int trial = 0; trial < 20000; ++trial) {
    const int count = rng.Int(1, 4);
    std::vector<CollisionPlane> planes;
    for (int i = 0; i < count; ++i) {
      planes.push_back({.plane = {rng.Direction(), rng.Uniform(-0.5f, 0.5f)}});
    }
    const Vec2 target = rng.InBox(1.0f);
    const Oracle oracle = NearestFeasible(target, planes);
    if (!oracle.feasible) continue;
    const PlaneSolverResult result = SolvePlanes(target, planes);
    ++compared;
    CHECK(result.iterationCount >= 1);
    CHECK(result.iterationCount <= kMoverMaxIterations);
    for (const CollisionPlane& p : planes) CHECK(p.push >= 0.0f);
    if (!result.converged) continue;
    ++converged;
    const float error = Distance(result.delta, oracle.point);
    worst = std::max(worst, error);
    // Converged: no push moved by more than kMoverSolverTolerance in the last sweep, or the pair
    // finish found the exact optimum; either is within a few tolerances of it.
    CHECK(error <= 10.0f * kMoverSolverTolerance);
  }
  MESSAGE("compared " << compared << " converged " << converged << " worst " << worst);
  CHECK(compared > 10000);
  CHECK(converged >= compared * 95 / 100);
}

TEST_CASE("a push limit caps the push along its plane") {
  // The floor 0.3 m above where the mover wants to be: it needs a push of 0.3 m, the limit allows 0.1.
  std::vector<CollisionPlane> planes{{.plane = {{0.0f, 1.0f}, -0.3f}, .pushLimit = 0.1f}};
  const PlaneSolverResult soft = SolvePlanes({0.5f, 0.0f}, planes);
  CHECK(soft.converged);
  CHECK(soft.delta.x == doctest::Approx(0.5f));
  CHECK(soft.delta.y == doctest::Approx(0.1f));
  CHECK(planes[0].push == doctest::Approx(0.1f));
  planes[0].pushLimit = FLT_MAX;
  const PlaneSolverResult rigid = SolvePlanes({0.5f, 0.0f}, planes);
  CHECK(rigid.delta.y == doctest::Approx(0.3f));
  CHECK(planes[0].push == doctest::Approx(0.3f));
}

TEST_CASE("a plane the target already satisfies does not push") {
  std::vector<CollisionPlane> planes{{.plane = {{0.0f, 1.0f}, 0.2f}}};
  const PlaneSolverResult result = SolvePlanes({0.3f, -0.1f}, planes);
  CHECK(result.converged);
  CHECK(result.iterationCount == 1);
  CHECK(result.delta.x == 0.3f);
  CHECK(result.delta.y == -0.1f);
  CHECK(planes[0].push == 0.0f);
}

TEST_CASE("clipping a velocity keeps the along-wall part and stops in a corner") {
  const CollisionPlane wall{.plane = {{-1.0f, 0.0f}, 0.0f}, .push = 1.0f};
  const CollisionPlane floor{.plane = {{0.0f, 1.0f}, 0.0f}, .push = 1.0f};
  const std::vector<CollisionPlane> both{wall, floor};
  CHECK(Near(ClipVector({3.0f, 2.0f}, {&wall, 1}), {0.0f, 2.0f}, 1e-6f));
  CHECK(Near(ClipVector({-3.0f, 2.0f}, {&wall, 1}), {-3.0f, 2.0f}, 0.0f));  // moving away: untouched
  CHECK(Near(ClipVector({3.0f, -2.0f}, both), {0.0f, 0.0f}, 1e-6f));        // into the corner: stops
  CHECK(Near(ClipVector({-3.0f, -2.0f}, both), {-3.0f, 0.0f}, 1e-6f));      // along the floor
  // A V-shaped valley of two 30 degree slopes: falling straight down stops.
  const float s = 0.5f, c = std::sqrt(3.0f) / 2.0f;
  const std::vector<CollisionPlane> valley{{.plane = {{s, c}, 0.0f}, .push = 1.0f},
                                           {.plane = {{-s, c}, 0.0f}, .push = 1.0f}};
  CHECK(Near(ClipVector({0.0f, -5.0f}, valley), {0.0f, 0.0f}, 1e-5f));
  // Planes that did not push, or that ask not to clip, leave the vector alone.
  CollisionPlane idle = wall;
  idle.push = 0.0f;
  CHECK(Near(ClipVector({3.0f, 2.0f}, {&idle, 1}), {3.0f, 2.0f}, 0.0f));
  CollisionPlane soft = wall;
  soft.clipVelocity = false;
  CHECK(Near(ClipVector({3.0f, 2.0f}, {&soft, 1}), {3.0f, 2.0f}, 0.0f));
}

TEST_CASE("clipping random vectors matches the brute-force cone projection") {
  Rng rng(29002);
  int compared = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    std::vector<CollisionPlane> planes;
    const int count = rng.Int(1, 3);
    for (int i = 0; i < count; ++i) planes.push_back({.plane = {rng.Direction(), 0.0f}, .push = 1.0f});
    const Vec2 v = rng.InBox(5.0f);
    const Oracle oracle = NearestFeasible(v, planes);  // offsets 0: the cone, never empty
    REQUIRE(oracle.feasible);
    const Vec2 clipped = ClipVector(v, planes);
    for (const CollisionPlane& p : planes) CHECK(Dot(p.plane.normal, clipped) >= -1e-5f);
    CHECK(Distance(clipped, oracle.point) <= 1e-5f * std::max(1.0f, Length(v)));
    ++compared;
  }
  CHECK(compared == 5000);
}

TEST_CASE("bad input is refused with an assert and leaves no NaN") {
  mk::test::AssertCounter asserts;
  std::vector<CollisionPlane> planes{{.plane = {{0.0f, 1.0f}, -0.2f}}};
  const PlaneSolverResult refused = SolvePlanes({NAN, 0.0f}, planes);
  CHECK(asserts.Count() == 1);
  CHECK(refused.iterationCount == 0);
  CHECK(refused.delta.x == 0.0f);
  // A bad plane among good ones is skipped; the good one still acts.
  planes.push_back({.plane = {{0.0f, 2.0f}, 0.0f}});                      // not unit
  planes.push_back({.plane = {{1.0f, 0.0f}, INFINITY}});                  // infinite offset
  planes.push_back({.plane = {{1.0f, 0.0f}, 0.0f}, .pushLimit = -1.0f});  // negative limit
  planes.push_back({.plane = {{1.0f, 0.0f}, 0.0f}, .pushLimit = NAN});
  const PlaneSolverResult solved = SolvePlanes({0.0f, 0.0f}, planes);
  CHECK(asserts.Count() == 2);
  CHECK(solved.delta.x == 0.0f);
  CHECK(solved.delta.y == doctest::Approx(0.2f));
  for (std::size_t i = 1; i < planes.size(); ++i) CHECK(planes[i].push == 0.0f);
  const Vec2 clipped = ClipVector({INFINITY, 0.0f}, planes);
  CHECK(asserts.Count() == 3);
  CHECK(clipped.x == 0.0f);
  CHECK(clipped.y == 0.0f);
}
}  // TEST_SUITE("mover plane solver")
