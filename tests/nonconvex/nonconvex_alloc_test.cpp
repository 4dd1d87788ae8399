// SPDX-License-Identifier: MIT
// NonConvexDistance allocates nothing once its workspace has seen queries of the same size (counted
// by the suite's global operator new, tests/scenes/alloc_counter.h).
#include "minkowski/nonconvex_distance.h"
#include "nonconvex/nonconvex_oracle.h"
#include "scenes/alloc_counter.h"

#include <doctest/doctest.h>

#include <vector>

namespace mk::test {

TEST_SUITE("nonconvex") {
TEST_CASE("a warm workspace makes queries without allocating - in every stage") {
  Rng rng(5);
  const std::vector<Vec2> a = Star(rng, 400, 2.0f), b = Comb(rng, 300, 1.0f);
  const NonConvexInput base{
      {a.data(), static_cast<int>(a.size()), true}, {b.data(), static_cast<int>(b.size()), true}, {}, {}};
  // Far (slab hash or stage 1), in a pocket of the star (overlap grid), crossing.
  std::vector<Transform> poses;
  for (int i = 0; i < 30; ++i)
    poses.push_back(MakeTransform(rng.Uniform(0.0f, 5.0f) * rng.Direction(), rng.Uniform(-3, 3)));
  NonConvexWorkspace ws;
  int paths[4] = {};
  for (const Transform& xf : poses) {
    NonConvexInput in = base;
    in.transformB = xf;
    ++paths[static_cast<int>(NonConvexDistance(in, ws).path)];
  }
  CHECK(paths[static_cast<int>(NonConvexPath::SlabHash)] > 0);
  CHECK(paths[static_cast<int>(NonConvexPath::OverlapGrid)] > 0);
  StartCountingAllocations();
  for (const Transform& xf : poses) {
    NonConvexInput in = base;
    in.transformB = xf;
    (void)NonConvexDistance(in, ws);
  }
  StopCountingAllocations();
  CHECK(CountedAllocations() == 0);
}
}  // TEST_SUITE("nonconvex")

}  // namespace mk::test
