// SPDX-License-Identifier: MIT
// Broadphase queries against brute force: AABB overlap and ordered ray casts.
#include "broadphase/broadphase_oracle.h"
#include "minkowski/broadphase.h"
#include "minkowski/debug_draw.h"
#include "minkowski/world_vector.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

using namespace mk;

namespace {

struct SceneProxy {
  ProxyId id;
  AABB fat;
  std::uint64_t userData;
};

// Random scene of `n` proxies (some static, sleeping, large, zero-size), moved once after the last
// update so that queries must see moves made since then.
std::vector<SceneProxy> MakeScene(BroadPhase& bp, test::Rng& rng, int n, float half) {
  std::vector<SceneProxy> scene;
  for (int i = 0; i < n; ++i) {
    Vec2 c = rng.InBox(half);
    Vec2 e{rng.LogUniform(0.02f, 1.5f), rng.LogUniform(0.02f, 1.5f)};
    if (i % 50 == 0) e = {0.0f, 0.0f};
    if (i % 97 == 0) e = {0.7f * half, 0.3f};  // large
    ProxyDef def{.aabb = {c - e, c + e}, .userData = static_cast<std::uint64_t>(i + 1)};
    if (i % 7 == 0) def.type = ProxyType::Static;
    if (i % 11 == 0) def.awake = false;
    ProxyResult r = bp.CreateProxy(def);
    REQUIRE(r.ok());
    scene.push_back({r.id, Inflate(def.aabb, bp.Margin()), def.userData});
  }
  bp.UpdatePairs();
  for (int i = 0; i < n; i += 3) {  // pending moves, not yet seen by UpdatePairs
    Vec2 c = rng.InBox(half);
    Vec2 e{0.3f, 0.4f};
    AABB tight{c - e, c + e};
    REQUIRE(bp.MoveProxy(scene[i].id, tight) == BroadPhaseError::None);
    if (!Contains(scene[i].fat, tight)) scene[i].fat = Inflate(tight, bp.Margin());
  }
  return scene;
}

// Independent ray/box test: clip the parameter interval [0, tMax] by the four half-planes of the box
// (Liang-Barsky), written without reciprocals. Returns the entry fraction or -1.
float ClipEntry(Vec2 p, Vec2 d, float tMax, const AABB& box) {
  double lo = 0.0, hi = tMax;
  const double pv[2] = {p.x, p.y}, dv[2] = {d.x, d.y};
  const double bl[2] = {box.lower.x, box.lower.y}, bu[2] = {box.upper.x, box.upper.y};
  for (int k = 0; k < 2; ++k) {
    // bl <= p + t d <= bu
    if (dv[k] == 0.0) {
      if (pv[k] < bl[k] || pv[k] > bu[k]) return -1.0f;
    } else if (dv[k] > 0.0) {
      lo = std::max(lo, (bl[k] - pv[k]) / dv[k]);
      hi = std::min(hi, (bu[k] - pv[k]) / dv[k]);
    } else {
      lo = std::max(lo, (bu[k] - pv[k]) / dv[k]);
      hi = std::min(hi, (bl[k] - pv[k]) / dv[k]);
    }
  }
  return lo <= hi ? static_cast<float>(lo) : -1.0f;
}

struct Visit {
  std::uint64_t userData;
  float entry;
};

struct RayLog {
  std::vector<Visit> visits;
  int stopAfter = -1;    // return 0 after this many visits
  float clipAt = -1.0f;  // when >= 0, return this as the new max fraction at the first visit
};

float LogRay(ProxyId, std::uint64_t userData, const RayCastInput&, float entry, void* context) {
  RayLog& log = *static_cast<RayLog*>(context);
  log.visits.push_back({userData, entry});
  if (log.stopAfter >= 0 && static_cast<int>(log.visits.size()) >= log.stopAfter) return 0.0f;
  if (log.clipAt >= 0.0f) return log.clipAt;
  return 1.0f;
}

// A cast visited exactly the expected proxies, in increasing entry, each at its oracle entry.
void CheckVisits(const RayLog& log, std::vector<Visit> expected) {
  REQUIRE(log.visits.size() == expected.size());
  for (std::size_t i = 1; i < log.visits.size(); ++i) REQUIRE(log.visits[i - 1].entry <= log.visits[i].entry);
  auto byUser = [](const Visit& a, const Visit& b) { return a.userData < b.userData; };
  std::sort(expected.begin(), expected.end(), byUser);
  std::vector<Visit> got = log.visits;
  std::sort(got.begin(), got.end(), byUser);
  for (std::size_t i = 0; i < got.size(); ++i) {
    REQUIRE(got[i].userData == expected[i].userData);
    // float slab arithmetic vs the double oracle: a few ulps of the fraction
    REQUIRE(got[i].entry == doctest::Approx(expected[i].entry).epsilon(1e-5).scale(1.0));
  }
}

// Counts what Draw emits: polygons (fat boxes) and segments (band edges and pairs), and checks that
// every pair segment joins the centres of two live proxies' fat boxes.
class CountingDraw : public DebugDraw {
 public:
  void DrawPolygon(const Vec2*, int count, Color) override { polygons += count == 4 ? 1 : 1000; }
  void DrawSolidPolygon(const Transform&, const Vec2*, int, float, Color) override { ++other; }
  void DrawCircle(Vec2, float, Color) override { ++other; }
  void DrawSolidCircle(const Transform&, float, Color) override { ++other; }
  void DrawSolidCapsule(Vec2, Vec2, float, Color) override { ++other; }
  void DrawSegment(Vec2 p1, Vec2 p2, Color) override { segments.push_back({p1, p2}); }
  void DrawTransform(const Transform&, float) override { ++other; }
  void DrawPoint(Vec2, float, Color) override { ++other; }
  void DrawString(Vec2, const char*, Color) override { ++other; }
  int polygons = 0;
  int other = 0;
  std::vector<std::pair<Vec2, Vec2>> segments;
};

// A query box centred up to 1.2 x `half` from the origin, half extents 1 cm .. 10 m (log-uniform).
AABB RandomQueryBox(test::Rng& rng, float half) {
  const Vec2 c = rng.InBox(half * 1.2f);
  const Vec2 e{rng.LogUniform(0.01f, 10.0f), rng.LogUniform(0.01f, 10.0f)};
  return {c - e, c + e};
}

// Query callback: appends each visited proxy's user data to the std::vector<std::uint64_t> in ctx.
bool CollectUserData(ProxyId, std::uint64_t user, void* ctx) {
  static_cast<std::vector<std::uint64_t>*>(ctx)->push_back(user);
  return true;
}

}  // namespace

TEST_SUITE("broadphase.query") {

TEST_CASE("debug data gives each proxy's interval on the sweep axis and every pair and Draw shows them") {
  test::Rng rng(31);
  BroadPhase bp;
  std::vector<SceneProxy> scene = MakeScene(bp, rng, 400, 12.0f);
  bp.UpdatePairs();
  const BroadPhaseLayout layout = bp.Layout();
  REQUIRE((layout.sweepAxis == 0 || layout.sweepAxis == 1));
  CHECK(layout.bandCount >= 1);
  CHECK(layout.bandHeight > 0.0f);

  std::vector<ProxyInfo> infos;
  mk::CollectProxies(bp, infos);
  REQUIRE(infos.size() == scene.size());
  int matched = 0;
  for (const ProxyInfo& info : infos) {
    for (const SceneProxy& s : scene) {
      if (!(s.id == info.id)) continue;
      ++matched;
      CHECK(info.userData == s.userData);
      CHECK(info.fatAABB.lower == s.fat.lower);
      CHECK(info.fatAABB.upper == s.fat.upper);
      CHECK(info.sweepLower == s.fat.lower[layout.sweepAxis]);
      CHECK(info.sweepUpper == s.fat.upper[layout.sweepAxis]);
    }
  }
  CHECK(matched == static_cast<int>(scene.size()));

  // Pairs: exactly the brute-force overlaps of the model's fat boxes (no filter in this scene except
  // static-static).
  std::vector<ProxyPair> pairs;
  mk::CollectPairs(bp, pairs);
  std::vector<test::ModelProxy> model;
  for (const ProxyInfo& info : infos) {
    model.push_back({.id = info.id, .fat = info.fatAABB, .userData = info.userData, .type = info.type});
  }
  CHECK(test::KeysOf(pairs) == test::OraclePairs(model, nullptr, nullptr));
  CHECK(test::InDocumentedOrder(pairs));

  CountingDraw boxesAndPairs;
  bp.Draw(boxesAndPairs, {.fatAABBs = true, .bands = false, .pairs = true});
  CHECK(boxesAndPairs.polygons == static_cast<int>(scene.size()));
  CHECK(boxesAndPairs.segments.size() == pairs.size());
  CHECK(boxesAndPairs.other == 0);
  CountingDraw bands;
  bp.Draw(bands, {.fatAABBs = false, .bands = true, .pairs = false});
  CHECK(bands.polygons == 0);
  CHECK(static_cast<int>(bands.segments.size()) == layout.bandCount - 1);
  for (const auto& [p1, p2] : bands.segments) {
    CHECK(p1[1 - layout.sweepAxis] == p2[1 - layout.sweepAxis]);  // band edges run along the sweep axis
  }
}

// The query trials: three wide scenes and three dense ones, one of each in a single band.
BroadPhaseDef TrialDef(int trial) { return trial % 3 == 2 ? BroadPhaseDef{.maxBands = 1} : BroadPhaseDef{}; }
float TrialHalf(int trial) { return trial < 3 ? 25.0f : 8.0f; }

// QueryAABB returns exactly the proxies whose fat box overlaps `box` by brute force, each once (sorted
// equality also proves no duplicates).
bool QueryMatchesBruteForce(const BroadPhase& bp, const std::vector<SceneProxy>& scene, const AABB& box) {
  std::vector<std::uint64_t> expected, got;
  for (const SceneProxy& s : scene) {
    if (Overlaps(box, s.fat)) expected.push_back(s.userData);
  }
  bp.QueryAABB(box, CollectUserData, &got);
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  return got == expected;
}

TEST_CASE("AABB queries return exactly the brute-force overlaps and each once") {
  for (int trial = 0; trial < 6; ++trial) {
    test::Rng rng(100 + trial);
    BroadPhase bp(TrialDef(trial));
    const float half = TrialHalf(trial);
    std::vector<SceneProxy> scene = MakeScene(bp, rng, 600, half);
    for (int q = 0; q < 200; ++q) {
      REQUIRE(QueryMatchesBruteForce(bp, scene, RandomQueryBox(rng, half)));
    }
  }
}

TEST_CASE("resting AABB queries return every static and sleeping overlap once and no other banded proxy") {
  for (int trial = 0; trial < 6; ++trial) {
    test::Rng rng(200 + trial);
    BroadPhase bp(TrialDef(trial));
    const float half = TrialHalf(trial);
    std::vector<SceneProxy> scene = MakeScene(bp, rng, 600, half);
    for (int q = 0; q < 200; ++q) {
      const AABB box = RandomQueryBox(rng, half);
      std::vector<std::uint64_t> resting, large, got;  // MakeScene: proxy i has userData i + 1
      for (const SceneProxy& s : scene) {
        if (!Overlaps(box, s.fat)) continue;
        const std::uint64_t i = s.userData - 1;
        if (i % 7 == 0 || i % 11 == 0) resting.push_back(s.userData);
        if (i % 97 == 0) large.push_back(s.userData);
      }
      bp.QueryRestingAABB(box, CollectUserData, &got);
      std::sort(got.begin(), got.end());
      REQUIRE(std::adjacent_find(got.begin(), got.end()) == got.end());  // each once
      for (std::uint64_t u : resting) CHECK(std::binary_search(got.begin(), got.end(), u));
      for (std::uint64_t u : got) {
        const bool isResting = std::find(resting.begin(), resting.end(), u) != resting.end();
        const bool isLarge = std::find(large.begin(), large.end(), u) != large.end();
        CHECK((isResting || isLarge));
      }
    }
  }
}

TEST_CASE("static AABB queries between moves of awake proxies return every static overlap once in order") {
  for (int trial = 0; trial < 6; ++trial) {
    test::Rng rng(300 + trial);
    BroadPhase bp(TrialDef(trial));
    const float half = TrialHalf(trial);
    std::vector<SceneProxy> scene = MakeScene(bp, rng, 600, half);
    bp.UpdatePairs();  // from here on only awake proxies move, as in a world step
    // With nothing pending, the stamp-free static query visits the resting query's proxies in its order
    // (first sightings), which the world's continuous stage relies on for its results.
    for (int q = 0; q < 50; ++q) {
      const AABB box = RandomQueryBox(rng, half);
      std::vector<std::uint64_t> stamped, unstamped;
      bp.QueryRestingAABB(box, CollectUserData, &stamped);
      bp.QueryStaticAABB(box, CollectUserData, &unstamped);
      CHECK(unstamped == stamped);
    }
    for (int q = 0; q < 200; ++q) {
      // Move a few awake proxies (MakeScene: proxy i is static when i % 7 == 0, asleep when i % 11 == 0).
      for (int m = 0; m < 5; ++m) {
        const int i = rng.Int(0, static_cast<int>(scene.size()) - 1);
        if (i % 7 == 0 || i % 11 == 0) continue;
        const Vec2 c = rng.InBox(half);
        const AABB tight{c - Vec2{0.2f, 0.2f}, c + Vec2{0.2f, 0.2f}};
        REQUIRE(bp.MoveProxy(scene[static_cast<size_t>(i)].id, tight) == BroadPhaseError::None);
        if (!Contains(scene[static_cast<size_t>(i)].fat, tight))
          scene[static_cast<size_t>(i)].fat = Inflate(tight, bp.Margin());
      }
      const AABB box = RandomQueryBox(rng, half);
      std::vector<std::uint64_t> expected, got;
      for (const SceneProxy& s : scene) {
        if ((s.userData - 1) % 7 == 0 && Overlaps(box, s.fat)) expected.push_back(s.userData);
      }
      bp.QueryStaticAABB(box, CollectUserData, &got);
      std::sort(got.begin(), got.end());
      REQUIRE(std::adjacent_find(got.begin(), got.end()) == got.end());  // each once
      for (std::uint64_t u : expected) CHECK(std::binary_search(got.begin(), got.end(), u));
    }
    // The moves it left pending are applied by the next synchronising call: a full query is exact.
    CHECK(QueryMatchesBruteForce(bp, scene, RandomQueryBox(rng, half)));
  }
}

// The band scan tests its entries in batches (ScanBandList): a stop anywhere, at a batch's edge or
// inside one, ends the query there, and what it visited is the head of the whole query's answer.
TEST_CASE("an AABB query stops when the callback returns false") {
  test::Rng rng(5);
  BroadPhase bp;
  MakeScene(bp, rng, 300, 5.0f);
  bp.UpdatePairs();  // the bands are laid out: the query walks their lists
  const AABB box{{-10, -10}, {10, 10}};
  struct Log {
    std::vector<std::uint64_t> seen;
    int stopAfter = 0;
  };
  const auto record = [](ProxyId, std::uint64_t userData, void* ctx) {
    Log& log = *static_cast<Log*>(ctx);
    log.seen.push_back(userData);
    return static_cast<int>(log.seen.size()) != log.stopAfter;
  };
  Log all;
  bp.QueryAABB(box, record, &all);
  REQUIRE(all.seen.size() == 300);
  for (int stop : {1, 3, 31, 32, 33, 64, 65, 150, 299}) {
    Log log;
    log.stopAfter = stop;
    bp.QueryAABB(box, record, &log);
    REQUIRE(static_cast<int>(log.seen.size()) == stop);
    CHECK(std::equal(log.seen.begin(), log.seen.end(), all.seen.begin()));
  }
}

// Random rays (box = false, through RayCast) or boxes of random half extents (through BoxCast) in
// random scenes against the double-precision oracle on every fat box (grown by the extents).
void CheckCastsAgainstOracle(std::uint64_t seed, bool box) {
  for (int trial = 0; trial < 6; ++trial) {
    test::Rng rng(seed + trial);
    BroadPhase bp(trial % 3 == 2 ? BroadPhaseDef{.axis = SweepAxisMode::Y} : BroadPhaseDef{});
    const float half = trial < 3 ? 25.0f : 8.0f;
    std::vector<SceneProxy> scene = MakeScene(bp, rng, 600, half);
    for (int q = 0; q < 200; ++q) {
      RayCastInput input{rng.InBox(half * 1.2f), rng.Direction() * rng.Uniform(0.1f, 3.0f * half),
                         rng.Uniform(0.2f, 1.0f)};
      if (q % 10 == 0) input.translation.y = 0.0f;  // along an axis: exercises the slab special cases
      if (q % 10 == 1) input.translation.x = 0.0f;
      Vec2 extent{0.0f, 0.0f};
      RayLog log;
      if (box) {
        if (q % 10 == 2) input.translation = {0.0f, 0.0f};  // a resting box: what it overlaps
        // Half extents from 1 mm to several bands tall, sometimes flat along one axis.
        extent = {std::exp(rng.Uniform(-7.0f, 1.5f)), std::exp(rng.Uniform(-7.0f, 1.5f))};
        if (q % 7 == 3) extent.x = 0.0f;
        if (q % 7 == 4) extent.y = 0.0f;
        bp.BoxCast(input, extent, LogRay, &log);
      } else {
        bp.RayCast(input, LogRay, &log);
      }
      std::vector<Visit> expected;
      for (const SceneProxy& s : scene) {
        const AABB grown{s.fat.lower - extent, s.fat.upper + extent};
        const float t = ClipEntry(input.origin, input.translation, input.maxFraction, grown);
        if (t >= 0.0f) expected.push_back({s.userData, t});
      }
      CheckVisits(log, expected);
    }
  }
}

TEST_CASE("ray casts visit exactly the boxes the segment touches in increasing entry fraction") {
  CheckCastsAgainstOracle(200, false);
}

TEST_CASE("box casts visit exactly the boxes the moving box touches in increasing entry fraction") {
  CheckCastsAgainstOracle(300, true);
}

TEST_CASE("ray casts stop on 0 and clip to the returned fraction") {
  test::Rng rng(9);
  BroadPhase bp;
  std::vector<SceneProxy> scene = MakeScene(bp, rng, 800, 20.0f);
  for (int q = 0; q < 100; ++q) {
    RayCastInput input{rng.InBox(20.0f), rng.Direction() * 40.0f, 1.0f};
    RayLog all;
    bp.RayCast(input, LogRay, &all);
    if (all.visits.size() < 3) continue;
    RayLog stop;
    stop.stopAfter = 2;
    bp.RayCast(input, LogRay, &stop);
    CHECK(stop.visits.size() == 2);
    // Clip at the first visit's entry: only proxies entered at that same fraction may follow.
    RayLog clip;
    clip.clipAt = std::max(all.visits[0].entry, 1e-6f);
    bp.RayCast(input, LogRay, &clip);
    std::size_t within = 0;
    for (const Visit& v : all.visits) within += v.entry <= clip.clipAt ? 1 : 0;
    CHECK(clip.visits.size() == within);
    for (const Visit& v : clip.visits) CHECK(v.entry <= clip.clipAt);
  }
}

}  // TEST_SUITE("broadphase.query")
