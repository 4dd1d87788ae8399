// SPDX-License-Identifier: MIT
// The persistent pair set against an O(n^2) oracle, on random scenes with every kind of change.
#include "broadphase/pair_scenario.h"
#include "minkowski/broadphase.h"
#include "minkowski/world_vector.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

using namespace mk;
using mk::test::ModelProxy;
using mk::test::Scenario;

TEST_SUITE("broadphase.pairs") {

TEST_CASE("200 proxies x 200 updates: pairs and begun and ended lists equal the brute-force oracle") {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    Scenario scenario({.proxies = 200, .updates = 200, .seed = seed});
    scenario.Run();
    CHECK_FALSE(scenario.Failed());
    CHECK(scenario.SleepingPairsSeen() > 0);
    // The oracle's check covered pair nodes laid out again (CompactPairs) between updates.
    CHECK(scenario.GetBroadPhase().Stats().pairCompactions > 0);
  }
}

TEST_CASE("2000 proxies x 1000 updates: pairs and begun and ended lists equal the brute-force oracle" *
          doctest::test_suite("long")) {
  Scenario scenario({.proxies = 2000, .updates = 1000, .seed = 7});
  scenario.Run();
  CHECK_FALSE(scenario.Failed());
  CHECK(scenario.SleepingPairsSeen() > 0);
  CHECK(scenario.GetBroadPhase().Stats().pairCompactions > 0);
}

TEST_CASE("reports do not depend on the order of MoveProxy calls") {
  Scenario ordered({.proxies = 300, .updates = 120, .seed = 11});
  Scenario shuffled({.proxies = 300, .updates = 120, .seed = 11, .shuffleMoves = true});
  const std::uint64_t a = ordered.Run();
  const std::uint64_t b = shuffled.Run();
  CHECK_FALSE(ordered.Failed());
  CHECK_FALSE(shuffled.Failed());
  CHECK(a == b);
}

TEST_CASE("pairs between sleeping proxies persist and a teleported sleeper's pairs follow it") {
  BroadPhase bp;
  auto box = [](float x, float y) { return AABB{{x - 0.5f, y - 0.5f}, {x + 0.5f, y + 0.5f}}; };
  ProxyId a = bp.CreateProxy({.aabb = box(0, 0), .userData = 1}).id;
  ProxyId b = bp.CreateProxy({.aabb = box(0.9f, 0), .userData = 2}).id;
  bp.UpdatePairs();
  REQUIRE(bp.BegunPairs().size() == 1);
  REQUIRE(bp.SetProxyAwake(a, false) == BroadPhaseError::None);
  REQUIRE(bp.SetProxyAwake(b, false) == BroadPhaseError::None);
  for (int i = 0; i < 5; ++i) {
    bp.UpdatePairs();
    CHECK(bp.BegunPairs().empty());
    CHECK(bp.EndedPairs().empty());
    CHECK(bp.Stats().pairCount == 1);
    CHECK(bp.Stats().movedLastUpdate == 0);  // sleeping proxies cost nothing
  }
  // A moving proxy reaching a sleeping one begins a pair (the world wakes the sleeper from it).
  ProxyId c = bp.CreateProxy({.aabb = box(5, 0), .userData = 3}).id;
  bp.UpdatePairs();
  CHECK(bp.BegunPairs().empty());
  REQUIRE(bp.MoveProxy(c, box(1.8f, 0)) == BroadPhaseError::None);
  bp.UpdatePairs();
  REQUIRE(bp.BegunPairs().size() == 1);
  CHECK(bp.BegunPairs()[0].userDataA == 2);
  CHECK(bp.BegunPairs()[0].userDataB == 3);
  // Teleporting a sleeper anyway brings its pairs up to date.
  REQUIRE(bp.MoveProxy(a, box(-10, 0)) == BroadPhaseError::None);
  bp.UpdatePairs();
  REQUIRE(bp.EndedPairs().size() == 1);
  CHECK(bp.EndedPairs()[0].proxyA == a);
  CHECK(bp.EndedPairs()[0].proxyB == b);
}

TEST_CASE("a scene of static and sleeping proxies processes nothing per update") {
  BroadPhase bp;
  test::Rng rng(21);
  std::vector<ProxyId> ids;
  for (int i = 0; i < 2000; ++i) {
    Vec2 c = rng.InBox(30.0f);
    ProxyDef def{.aabb = {c, c + Vec2{1.0f, 1.0f}}, .userData = static_cast<std::uint64_t>(i + 1)};
    if (i % 2 == 0)
      def.type = ProxyType::Static;
    else
      def.awake = false;
    ids.push_back(bp.CreateProxy(def).id);
  }
  bp.UpdatePairs();
  const BroadPhaseStats start = bp.Stats();
  const std::size_t bytes = bp.CapacityBytes();
  CHECK(start.pairCount > 100);
  bool quiet = true;
  for (int update = 0; update < 200; ++update) {
    bp.UpdatePairs();
    const BroadPhaseStats now = bp.Stats();
    quiet = quiet && now.movedLastUpdate == 0 && now.pairCount == start.pairCount &&
            now.fullRebuilds == start.fullRebuilds && bp.BegunPairs().empty() && bp.EndedPairs().empty();
  }
  CHECK(quiet);
  CHECK(bp.CapacityBytes() == bytes);
  // Waking one and moving it processes exactly that one.
  REQUIRE(bp.SetProxyAwake(ids[1], true) == BroadPhaseError::None);
  const AABB fat = bp.GetFatAABB(ids[1]);
  REQUIRE(bp.MoveProxy(ids[1], {fat.lower + Vec2{1.0f, 0.0f}, fat.upper + Vec2{1.0f, 0.0f}}) ==
          BroadPhaseError::None);
  bp.UpdatePairs();
  CHECK(bp.Stats().movedLastUpdate == 1);
}

TEST_CASE("filter rules: static pairs / same body / groups / categories / callback and RefilterProxy") {
  BroadPhase bp;
  const AABB unit{{0, 0}, {1, 1}};
  auto make = [&](std::uint64_t user, ProxyType type, ProxyFilter filter) {
    return bp.CreateProxy({.aabb = unit, .userData = user, .type = type, .filter = filter}).id;
  };
  make(1, ProxyType::Static, {});
  make(2, ProxyType::Static, {});  // static-static: never
  make(3, ProxyType::Moving, {.bodyId = 7});
  make(4, ProxyType::Moving, {.bodyId = 7});  // same body as 3: never
  make(5, ProxyType::Moving, {.categoryBits = 2, .maskBits = 0, .groupIndex = 9});
  make(6, ProxyType::Moving, {.categoryBits = 2, .maskBits = 0, .groupIndex = 9});  // group > 0 wins
  make(7, ProxyType::Moving, {.categoryBits = 4, .maskBits = 4, .groupIndex = -3});
  make(8, ProxyType::Moving, {.categoryBits = 4, .maskBits = 4, .groupIndex = -3});  // group < 0: never
  bp.UpdatePairs();
  std::vector<std::uint64_t> got = test::KeysOf(bp.BegunPairs());
  auto has = [&](std::uint64_t a, std::uint64_t b) {
    return std::binary_search(got.begin(), got.end(), test::PairKey(a, b));
  };
  CHECK_FALSE(has(1, 2));
  CHECK_FALSE(has(3, 4));
  CHECK(has(5, 6));
  CHECK_FALSE(has(7, 8));
  CHECK_FALSE(has(7, 3));  // 7's mask 4 excludes 3's category 1
  CHECK_FALSE(has(7, 1));  // ... and 1's
  CHECK(has(2, 4));
  CHECK(has(1, 3));        // default filters: everything pairs
  CHECK_FALSE(has(5, 1));  // 5's mask is 0

  // A joint disabling collision between 3 and 1: the callback changes, then RefilterProxy ends it.
  static int forbidden = 0;
  forbidden = 4;  // 1 + 3
  bp.SetShouldCollide(
      [](std::uint64_t a, std::uint64_t b, void*) { return a + b != std::uint64_t(forbidden); }, nullptr);
  bp.UpdatePairs();
  CHECK(bp.EndedPairs().empty());  // no refilter yet: existing pairs stay
  std::vector<ProxyInfo> infos;
  mk::CollectProxies(bp, infos);
  REQUIRE(bp.RefilterProxy(infos[0].id) == BroadPhaseError::None);
  bp.UpdatePairs();
  REQUIRE(bp.EndedPairs().size() == 1);
  CHECK(test::PairKey(bp.EndedPairs()[0].userDataA, bp.EndedPairs()[0].userDataB) == test::PairKey(1, 3));
  forbidden = 0;
  REQUIRE(bp.RefilterProxy(infos[2].id) == BroadPhaseError::None);
  bp.UpdatePairs();
  REQUIRE(bp.BegunPairs().size() == 1);
  CHECK(test::PairKey(bp.BegunPairs()[0].userDataA, bp.BegunPairs()[0].userDataB) == test::PairKey(1, 3));
}

}  // TEST_SUITE("broadphase.pairs")
