// SPDX-License-Identifier: MIT
// Broadphase on degenerate and bad input: zero-size boxes, everything at one point or on one line,
// NaN/Inf boxes, stale ids, create/destroy churn, and no allocation after warm-up.
#include "broadphase/broadphase_oracle.h"
#include "minkowski/broadphase.h"
#include "minkowski/world_vector.h"
#include "scenes/alloc_counter.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace mk;
using mk::test::ModelProxy;

namespace {

// Updates the pairs and checks them, and the begun and ended lists against `previous` (the oracle's
// pairs at the update before, replaced by this update's), against the brute-force oracle.
void UpdateAndCheck(BroadPhase& bp, const std::vector<ModelProxy>& model,
                    std::vector<std::uint64_t>& previous) {
  bp.UpdatePairs();
  std::vector<std::uint64_t> oracle = test::OraclePairs(model, nullptr, nullptr);
  std::vector<ProxyPair> pairs;
  mk::CollectPairs(bp, pairs);
  REQUIRE(test::KeysOf(pairs) == oracle);
  REQUIRE(test::KeysOf(bp.BegunPairs()) == test::Difference(oracle, previous));
  REQUIRE(test::KeysOf(bp.EndedPairs()) == test::Difference(previous, oracle));
  previous = std::move(oracle);
}

// Creates proxies from `boxes`, moves them by `motion(i, step)` for a few updates, and checks the pair
// set (and begun/ended) against the oracle after each update.
template <class Motion>
void CheckAgainstOracle(const BroadPhaseDef& def, const std::vector<AABB>& boxes, int updates,
                        Motion motion) {
  BroadPhase bp(def);
  std::vector<ModelProxy> model;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    ModelProxy m;
    m.userData = i + 1;
    m.type = i % 5 == 0 ? ProxyType::Static : ProxyType::Moving;
    m.id = bp.CreateProxy({.aabb = boxes[i], .userData = m.userData, .type = m.type}).id;
    m.fat = Inflate(boxes[i], bp.Margin());
    model.push_back(m);
  }
  std::vector<std::uint64_t> previous;
  for (int step = 0; step < updates; ++step) {
    if (step > 0) {
      for (std::size_t i = 0; i < model.size(); ++i) {
        AABB tight = motion(boxes[i], static_cast<int>(i), step);
        REQUIRE(bp.MoveProxy(model[i].id, tight) == BroadPhaseError::None);
        if (!Contains(model[i].fat, tight)) model[i].fat = Inflate(tight, bp.Margin());
      }
    }
    UpdateAndCheck(bp, model, previous);
  }
}

AABB Shift(const AABB& box, Vec2 d) { return {box.lower + d, box.upper + d}; }

}  // namespace

TEST_SUITE("broadphase.degenerate") {

TEST_CASE("zero-size boxes pair exactly when their fat boxes touch") {
  test::Rng rng(1);
  std::vector<AABB> boxes;
  for (int i = 0; i < 300; ++i) {
    Vec2 p = rng.InBox(3.0f);
    boxes.push_back({p, p});
  }
  CheckAgainstOracle({}, boxes, 20, [&](const AABB& b, int, int) { return Shift(b, rng.InBox(0.3f)); });
  // Margin 0: zero-size points pair only when they coincide.
  BroadPhase bp({.margin = 0.0f});
  bp.CreateProxy({.aabb = {{1, 1}, {1, 1}}, .userData = 1});
  bp.CreateProxy({.aabb = {{1, 1}, {1, 1}}, .userData = 2});
  bp.CreateProxy({.aabb = {{1, 2}, {1, 2}}, .userData = 3});
  bp.UpdatePairs();
  REQUIRE(bp.BegunPairs().size() == 1);
  CHECK(test::PairKey(bp.BegunPairs()[0].userDataA, bp.BegunPairs()[0].userDataB) == test::PairKey(1, 2));
}

TEST_CASE("all proxies at one point give every allowed pair: n(n-1)/2 minus static-static") {
  std::vector<AABB> boxes(200, AABB{{2, 3}, {2, 3}});
  CheckAgainstOracle({}, boxes, 4, [](const AABB& b, int, int) { return b; });
  BroadPhase bp;
  for (int i = 0; i < 200; ++i) bp.CreateProxy({.aabb = {{2, 3}, {2, 3}}, .userData = std::uint64_t(i)});
  bp.UpdatePairs();
  CHECK(bp.Stats().pairCount == 200 * 199 / 2);
}

TEST_CASE("all proxies on one line along the sweep axis: good and bad axis with bands and as classic SAP") {
  std::vector<AABB> boxes;
  for (int i = 0; i < 400; ++i) boxes.push_back({{1.1f * i, -0.5f}, {1.1f * i + 1.0f, 0.5f}});
  test::Rng rng(3);
  auto jitter = [&](const AABB& b, int, int) { return Shift(b, rng.InBox(0.15f)); };
  for (SweepAxisMode axis : {SweepAxisMode::Auto, SweepAxisMode::X, SweepAxisMode::Y}) {
    for (int maxBands : {0, 1}) {
      CheckAgainstOracle({.axis = axis, .maxBands = maxBands}, boxes, 12, jitter);
    }
  }
  // The automatic choice sweeps along the line (x), where intervals barely overlap.
  BroadPhase bp;
  for (const AABB& b : boxes) bp.CreateProxy({.aabb = b});
  bp.UpdatePairs();
  CHECK(bp.Layout().sweepAxis == 0);
  // A vertical line flips it.
  BroadPhase tall;
  for (const AABB& b : boxes) tall.CreateProxy({.aabb = {{b.lower.y, b.lower.x}, {b.upper.y, b.upper.x}}});
  tall.UpdatePairs();
  CHECK(tall.Layout().sweepAxis == 1);
}

TEST_CASE("NaN and infinite boxes are rejected with an error and the structure is unchanged") {
  test::QuietAsserts asserts;
  BroadPhase bp;
  ProxyId a = bp.CreateProxy({.aabb = {{0, 0}, {1, 1}}, .userData = 1}).id;
  ProxyId b = bp.CreateProxy({.aabb = {{0.5f, 0.5f}, {2, 2}}, .userData = 2}).id;
  bp.UpdatePairs();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const AABB bad[] = {
      {{nan, 0}, {1, 1}},
      {{0, 0}, {1, nan}},
      {{-inf, 0}, {1, 1}},
      {{0, 0}, {inf, 1}},
      // Inverted boxes inside a's fat box: MoveProxy's fast path (inside the fat box) must still refuse them.
      {{1, 1}, {0, 0}},
      {{0, 1}, {1, 0}},
      {{1, 0}, {0, 1}}};
  const AABB fatBefore = bp.GetFatAABB(a);
  const std::size_t bytesBefore = bp.CapacityBytes();
  int expectedAsserts = 0;
  for (const AABB& box : bad) {
    ProxyResult r = bp.CreateProxy({.aabb = box});
    CHECK(r.error == BroadPhaseError::InvalidAABB);
    CHECK(r.id.IsNull());
    CHECK(bp.MoveProxy(a, box) == BroadPhaseError::InvalidAABB);
    bool refitted = true;
    CHECK(bp.RefitProxy(a, box, refitted) == BroadPhaseError::InvalidAABB);
    CHECK_FALSE(refitted);
    CHECK(bp.QueueRefittedProxy(a) == BroadPhaseError::None);  // nothing refitted: nothing queued
    expectedAsserts += 3;
  }
  CHECK(asserts.Count() == expectedAsserts);
  CHECK(bp.Stats().proxyCount == 2);
  CHECK(bp.GetFatAABB(a).lower == fatBefore.lower);
  CHECK(bp.GetFatAABB(a).upper == fatBefore.upper);
  CHECK(bp.CapacityBytes() == bytesBefore);
  bp.UpdatePairs();
  CHECK(bp.BegunPairs().empty());
  CHECK(bp.EndedPairs().empty());
  CHECK(bp.Stats().pairCount == 1);
  CHECK(bp.IsValid(b));
  // Non-finite queries visit nothing (and assert).
  int visits = 0;
  bp.QueryAABB(
      {{nan, 0}, {1, 1}}, [](ProxyId, std::uint64_t, void* c) { return ++*static_cast<int*>(c) > 0; },
      &visits);
  bp.RayCast(
      {{0, 0}, {inf, 0}, 1.0f},
      [](ProxyId, std::uint64_t, const RayCastInput&, float, void* c) {
        ++*static_cast<int*>(c);
        return 1.0f;
      },
      &visits);
  CHECK(visits == 0);
}

// ProxyDef::margin and the margin of MoveProxy / RefitProxy: each proxy's fat box is its tight box grown
// by its own margin (the broadphase's when negative), checked box by box and through the pairs against
// the brute-force oracle, for random boxes on a random walk, half of the moves made by RefitProxy.
TEST_CASE("a margin per proxy: fat boxes and pairs equal the oracle's") {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    CAPTURE(seed);
    test::Rng rng(seed);
    BroadPhase bp;
    std::vector<ModelProxy> model;
    std::vector<float> margins;
    std::vector<AABB> boxes;
    for (int i = 0; i < 300; ++i) {
      const Vec2 lower{rng.Uniform(-20.0f, 20.0f), rng.Uniform(-20.0f, 20.0f)};
      const float size = rng.Uniform(0.05f, 1.0f);
      boxes.push_back({lower, lower + Vec2{size, size}});
      margins.push_back(i % 4 == 0 ? -1.0f : rng.Uniform(0.0f, 0.3f));
      ModelProxy m;
      m.userData = static_cast<std::uint64_t>(i) + 1;
      m.type = i % 7 == 0 ? ProxyType::Static : ProxyType::Moving;
      m.id = bp.CreateProxy(
                   {.aabb = boxes.back(), .userData = m.userData, .type = m.type, .margin = margins.back()})
                 .id;
      m.fat = Inflate(boxes.back(), margins.back() < 0.0f ? bp.Margin() : margins.back());
      model.push_back(m);
    }
    std::vector<std::uint64_t> previous;
    int refits = 0;
    for (int step = 0; step < 40; ++step) {
      for (std::size_t i = 0; i < model.size(); ++i) {
        if (model[i].type == ProxyType::Static) continue;
        const Vec2 d{rng.Uniform(-0.2f, 0.2f), rng.Uniform(-0.2f, 0.2f)};
        boxes[i] = Shift(boxes[i], d);
        if (i % 2 == 0) {
          REQUIRE(bp.MoveProxy(model[i].id, boxes[i], margins[i]) == BroadPhaseError::None);
        } else {
          bool refitted = false;
          REQUIRE(bp.RefitProxy(model[i].id, boxes[i], margins[i], refitted) == BroadPhaseError::None);
          REQUIRE(bp.QueueRefittedProxy(model[i].id) == BroadPhaseError::None);
          refits += refitted ? 1 : 0;
        }
        if (!Contains(model[i].fat, boxes[i]))
          model[i].fat = Inflate(boxes[i], margins[i] < 0.0f ? bp.Margin() : margins[i]);
        REQUIRE(bp.GetFatAABB(model[i].id).lower == model[i].fat.lower);
        REQUIRE(bp.GetFatAABB(model[i].id).upper == model[i].fat.upper);
      }
      UpdateAndCheck(bp, model, previous);
    }
    CHECK(refits > 1000);  // the refitted half did re-centre boxes with their own margins
  }
}

TEST_CASE("a NaN or infinite proxy margin asserts and takes the broadphase's") {
  test::QuietAsserts asserts;
  BroadPhase bp;
  const AABB box{{0, 0}, {1, 1}};
  const float bad[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()};
  for (const float margin : bad) {
    const ProxyId id = bp.CreateProxy({.aabb = box, .margin = margin}).id;
    REQUIRE(bp.IsValid(id));
    CHECK(bp.GetFatAABB(id).upper == Vec2{1.0f + bp.Margin(), 1.0f + bp.Margin()});
    const AABB moved = Shift(box, {5.0f, 0.0f});
    CHECK(bp.MoveProxy(id, moved, margin) == BroadPhaseError::None);
    CHECK(bp.GetFatAABB(id).lower == Vec2{5.0f - bp.Margin(), -bp.Margin()});
  }
  CHECK(asserts.Count() == 4);
}

// Found by fuzz_snapshot (a snapshot's maxBands is the def's): an unbounded band limit let two far
// apart boxes of small size ask for billions of bands, one allocation of 4 GiB.
TEST_CASE("a band limit beyond kMaxBroadPhaseBands asserts and is clamped") {
  test::QuietAsserts asserts;
  BroadPhase bp({.maxBands = std::numeric_limits<int>::max()});
  CHECK(asserts.Count() == 1);
  // Small boxes 1e9 m apart across the sweep axis: range / size would be about 1e11 bands.
  for (int i = 0; i < 8; ++i) {
    const float y = (i % 2 == 0 ? -5e8f : 5e8f) + 0.01f * static_cast<float>(i);
    REQUIRE(!bp.CreateProxy({.aabb = {{0.0f, y}, {0.01f, y + 0.01f}}}).id.IsNull());
  }
  bp.UpdatePairs();
  CHECK(bp.Layout().bandCount >= 1);
  CHECK(bp.Layout().bandCount <= kMaxBroadPhaseBands);
  CHECK(asserts.Count() == 1);
}

TEST_CASE("destroying twice or using a stale id asserts and returns StaleId") {
  test::QuietAsserts asserts;
  BroadPhase bp;
  ProxyId a = bp.CreateProxy({.aabb = {{0, 0}, {1, 1}}, .userData = 1}).id;
  ProxyId b = bp.CreateProxy({.aabb = {{0, 0}, {1, 1}}, .userData = 2}).id;
  bp.UpdatePairs();
  REQUIRE(bp.DestroyProxy(a) == BroadPhaseError::None);
  CHECK(asserts.Count() == 0);
  CHECK(bp.DestroyProxy(a) == BroadPhaseError::StaleId);
  CHECK(asserts.Count() == 1);
  // The slot is reused with a new generation: the old id stays stale.
  ProxyId c = bp.CreateProxy({.aabb = {{5, 5}, {6, 6}}, .userData = 3}).id;
  CHECK(c.index1 == a.index1);
  CHECK(c.generation != a.generation);
  CHECK(bp.MoveProxy(a, {{0, 0}, {1, 1}}) == BroadPhaseError::StaleId);
  CHECK(bp.SetProxyAwake(a, false) == BroadPhaseError::StaleId);
  CHECK(bp.RefilterProxy(a) == BroadPhaseError::StaleId);
  bool refitted = true;
  CHECK(bp.RefitProxy(a, {{9, 9}, {10, 10}}, refitted) == BroadPhaseError::StaleId);
  CHECK_FALSE(refitted);
  CHECK(bp.QueueRefittedProxy(a) == BroadPhaseError::StaleId);
  CHECK(bp.DestroyProxy(ProxyId{}) == BroadPhaseError::StaleId);
  CHECK(bp.DestroyProxy(ProxyId{999, 1}) == BroadPhaseError::StaleId);
  CHECK(asserts.Count() == 8);
  CHECK(bp.IsValid(c));
  CHECK(bp.GetUserData(c) == 3);
  bp.UpdatePairs();
  // a's pair with b ended (reported with a's stale id and user data); c is far away.
  REQUIRE(bp.EndedPairs().size() == 1);
  CHECK(bp.EndedPairs()[0].proxyA == a);
  CHECK(bp.EndedPairs()[0].proxyB == b);
  CHECK(bp.EndedPairs()[0].userDataA == 1);
  CHECK(bp.BegunPairs().empty());
}

// QueueRefittedProxy tells a live refitted proxy by its refit flag and generation without reading its
// slot; a proxy destroyed between its refit and its queueing (a broken contract, but an id must never
// queue a dead slot) must leave no flag that its slot's next generation could match.
TEST_CASE("QueueRefittedProxy after the refitted proxy was destroyed returns StaleId for any generation") {
  test::QuietAsserts asserts;
  BroadPhase bp;
  const ProxyId a = bp.CreateProxy({.aabb = {{0, 0}, {1, 1}}}).id;
  bool refitted = false;
  REQUIRE(bp.RefitProxy(a, {{20, 0}, {21, 1}}, refitted) == BroadPhaseError::None);
  REQUIRE(refitted);
  REQUIRE(bp.DestroyProxy(a) == BroadPhaseError::None);
  for (const std::uint32_t generation : {a.generation, a.generation + 1}) {  // + 1: the slot's next proxy's
    CHECK(bp.QueueRefittedProxy(ProxyId{a.index1, generation}) == BroadPhaseError::StaleId);
  }
  CHECK(asserts.Count() == 2);
  CHECK(bp.Stats().proxyCount == 0);
}

// A proxy joins the move and relocate lists once per update however often it leaves its fat box
// before the update, by MoveProxy or by a refit then queued (whole or claimed as a ticket): the lists'
// storage stays what one move takes, and the pairs are the oracle's.
TEST_CASE("a proxy moved thousands of times between updates is listed once") {
  BroadPhase bp;
  std::vector<ModelProxy> model(2);
  const AABB boxes[2] = {{{0, 0}, {1, 1}}, {{0.5f, 0.5f}, {1.5f, 1.5f}}};
  for (std::size_t i = 0; i < 2; ++i) {
    model[i].userData = i + 1;
    model[i].id = bp.CreateProxy({.aabb = boxes[i], .userData = model[i].userData}).id;
    model[i].fat = Inflate(boxes[i], bp.Margin());
  }
  std::vector<std::uint64_t> previous;
  UpdateAndCheck(bp, model, previous);
  // The three ways of moving take turns putting the proxy 40 m away and back; the last move of each
  // round leaves it apart from its partner or over it.
  const auto moveRound = [&](int moves, float landX) {
    for (int k = 0; k < moves; ++k) {
      const float x = k + 1 == moves ? landX : (k % 2 == 0 ? 40.0f : 0.0f);
      const AABB tight = Shift(boxes[0], {x, 0.0f});
      bool refitted = false;
      std::uint64_t ticket = 0;
      switch (k % 3) {
        case 0:
          REQUIRE(bp.MoveProxy(model[0].id, tight) == BroadPhaseError::None);
          break;
        case 1:
          REQUIRE(bp.RefitProxy(model[0].id, tight, refitted) == BroadPhaseError::None);
          REQUIRE(bp.QueueRefittedProxy(model[0].id) == BroadPhaseError::None);
          break;
        default:
          REQUIRE(bp.RefitProxy(model[0].id, tight, refitted) == BroadPhaseError::None);
          REQUIRE(bp.ClaimRefittedProxy(model[0].id, ticket) == BroadPhaseError::None);
          bp.QueueClaimedProxies(Span<const std::uint64_t>(&ticket, 1));
          break;
      }
      const bool leaves = !Contains(model[0].fat, tight);
      if (k % 3 != 0) REQUIRE(refitted == leaves);
      if (leaves) model[0].fat = Inflate(tight, bp.Margin());
    }
  };
  moveRound(3, 40.0f);  // warm-up: each list has held the proxy once
  UpdateAndCheck(bp, model, previous);
  const std::size_t warmBytes = bp.CapacityBytes();
  for (const float landX : {0.0f, 40.0f, 0.2f}) {
    moveRound(3000, landX);
    UpdateAndCheck(bp, model, previous);
    CHECK(bp.Stats().movedLastUpdate == 1);
  }
  CHECK(bp.CapacityBytes() == warmBytes);
}

TEST_CASE("thousands of create/destroy cycles reuse ids and do not grow memory") {
  BroadPhase bp;
  test::Rng rng(4);
  std::vector<ProxyId> live;
  for (int i = 0; i < 100; ++i)
    live.push_back(bp.CreateProxy({.aabb = {rng.InBox(5), rng.InBox(5) + Vec2{12, 12}}}).id);
  bp.UpdatePairs();
  std::size_t warmBytes = 0;
  std::uint32_t maxIndex = 0;
  for (int cycle = 0; cycle < 5000; ++cycle) {
    std::size_t k = rng.Next() % live.size();
    REQUIRE(bp.DestroyProxy(live[k]) == BroadPhaseError::None);
    Vec2 c = rng.InBox(5);
    live[k] = bp.CreateProxy({.aabb = {c, c + Vec2{0.5f, 0.5f}}}).id;
    if (cycle % 3 == 0) bp.UpdatePairs();  // churn both with and without updates in between
    if (cycle == 500) warmBytes = bp.CapacityBytes();
    maxIndex = std::max(maxIndex, live[k].index1);
  }
  bp.UpdatePairs();
  CHECK(maxIndex <= 100);  // slots reused: never more slots than live proxies
  CHECK(bp.Stats().proxyCount == 100);
  CHECK(bp.CapacityBytes() == warmBytes);
}

TEST_CASE("coherent motion allocates nothing after warm-up") {
  BroadPhase bp;
  test::Rng rng(8);
  std::vector<ProxyId> ids;
  std::vector<Vec2> pos, vel;
  for (int i = 0; i < 1000; ++i) {
    pos.push_back(rng.InBox(20));
    vel.push_back(rng.Direction() * 3.0f);
    ids.push_back(bp.CreateProxy({.aabb = {pos.back(), pos.back() + Vec2{0.8f, 0.8f}}}).id);
  }
  std::size_t warmBytes = 0;
  for (int step = 0; step < 600; ++step) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (std::fabs(pos[i].x) > 20) vel[i].x = std::copysign(std::fabs(vel[i].x), -pos[i].x);
      if (std::fabs(pos[i].y) > 20) vel[i].y = std::copysign(std::fabs(vel[i].y), -pos[i].y);
      pos[i] += vel[i] / 60.0f;
      bp.MoveProxy(ids[i], {pos[i], pos[i] + Vec2{0.8f, 0.8f}});
    }
    bp.UpdatePairs();
    if (step == 300) warmBytes = bp.CapacityBytes();
  }
  CHECK(warmBytes > 0);
  CHECK(bp.CapacityBytes() == warmBytes);
}

}  // TEST_SUITE("broadphase.degenerate")

// A crowd that spreads out and gathers again changes the band layout three times a cycle (the band
// count goes 2, 22, 43 and back). A full rebuild hands the old lists' storage to the new lists and a
// list that outgrows its storage trades it for a larger spare, so storage is never dropped: the
// allocations fall cycle by cycle (153, 8, 7, 5, ... measured) and stop (none from cycle 18 on; before
// this, a shrink dropped the lost bands' lists and every cycle regrew them entry by entry, and a soak
// of 100,000 steps saw allocations inside World::Step from this). Long: 3.6 million proxy moves
// (about 4 s in Release, minutes under ASan, which adds nothing to an allocation count).
TEST_CASE("layout changes reuse band storage so a crowd that spreads and gathers stops allocating" *
          doctest::test_suite("long")) {
  BroadPhase bp;
  test::Rng rng(21);
  constexpr int kCount = 1000;
  constexpr float kSize = 0.5f;
  std::vector<ProxyId> ids;
  std::vector<Vec2> home;
  for (int i = 0; i < kCount; ++i) {
    home.push_back({rng.Uniform(-1.0f, 1.0f), rng.Uniform(-1.0f, 1.0f)});
    const Vec2 p = home.back() * 2.0f;
    ids.push_back(bp.CreateProxy({.aabb = {p, p + Vec2{kSize, kSize}}}).id);
  }
  // Half-width from 2 m out to 60 m and back in 128 updates.
  auto cycle = [&] {
    for (int k = 0; k < 128; ++k) {
      const float t = static_cast<float>(k < 64 ? k : 127 - k) / 63.0f;
      for (int i = 0; i < kCount; ++i) {
        const Vec2 p = home[static_cast<std::size_t>(i)] * (2.0f + 58.0f * t);
        bp.MoveProxy(ids[static_cast<std::size_t>(i)], {p, p + Vec2{kSize, kSize}});
      }
      bp.UpdatePairs();
    }
  };
  for (int warmUp = 0; warmUp < 24; ++warmUp) cycle();
  const int rebuildsBefore = bp.Stats().fullRebuilds;
  const std::size_t bytesBefore = bp.CapacityBytes();
  test::StartCountingAllocations();
  for (int counted = 0; counted < 4; ++counted) cycle();
  test::StopCountingAllocations();
  CHECK(bp.Stats().fullRebuilds - rebuildsBefore >= 12);
  CHECK(test::CountedAllocations() == 0);
  CHECK(bp.CapacityBytes() == bytesBefore);
}
