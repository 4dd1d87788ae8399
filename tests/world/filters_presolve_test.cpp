// SPDX-License-Identifier: MIT
// 64-bit filter bits, QueryFilter::excludeBody and the pre-solve callback that sees the world
// (issue 29). Independent answers: free fall against resting on a box, the filter rule evaluated
// over every shape the unfiltered query finds, the same queries in a copy of the world with the
// excluded body disabled, and the same pre-solve rule written as a plain function.
#include "minkowski/replay.h"
#include "minkowski/world.h"
#include "minkowski/world_vector.h"
#include "test_util.h"
#include "world/world_state.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr std::uint64_t kBit40 = std::uint64_t{1} << 40;
constexpr QueryFilter kSeeAll{.categoryBits = kAllFilterBits, .maskBits = kAllFilterBits};

// A box dropped on a static box whose category is `category` (or on nothing); the falling box's mask
// is `mask`.
// Returns the falling box's height after one second.
float DropOnto(std::uint64_t category, std::uint64_t mask, bool withBase = true) {
  World world;
  if (withBase) {
    const BodyId base = world.CreateBody({});
    world.CreateShape(base, {.filter = {.categoryBits = category}}, MakeBox(2.0f, 0.5f).value);
  }
  const BodyId box = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 2.0f}});
  world.CreateShape(box, {.filter = {.maskBits = mask}}, MakeBox(0.5f, 0.5f).value);
  for (int i = 0; i < 60; ++i) world.Step(kDt);
  return world.GetPosition(box).y;
}

// Bodies with one to three shapes each in a 16 m square, categories spread over all 64 bits.
struct FilterScene {
  World world;
  std::vector<BodyId> bodies;
  std::vector<ShapeId> shapes;
};

void BuildFilterScene(FilterScene& scene, std::uint64_t seed) {
  test::Rng rng(seed);
  World& world = scene.world;
  world.SetGravity({0.0f, 0.0f});
  for (int i = 0; i < 60; ++i) {
    const BodyType type = i % 4 == 0 ? BodyType::Static : BodyType::Dynamic;
    const BodyId body =
        world.CreateBody({.type = type, .position = rng.InBox(8.0f), .angle = rng.Uniform(-3.0f, 3.0f)});
    scene.bodies.push_back(body);
    for (int k = rng.Int(1, 3); k > 0; --k) {
      ShapeDef def;
      def.filter.categoryBits = std::uint64_t{1} << rng.Int(0, 63);
      def.filter.maskBits = rng.Int(0, 2) == 0 ? ~(std::uint64_t{1} << rng.Int(0, 63)) : kAllFilterBits;
      const Vec2 offset = rng.InBox(0.6f);
      ShapeId id = rng.Int(0, 1) == 0
                       ? world.CreateShape(body, def, MakeCircle(offset, rng.Uniform(0.2f, 0.8f)).value)
                       : world.CreateShape(body, def,
                                           MakeOffsetBox(rng.Uniform(0.2f, 0.8f), rng.Uniform(0.2f, 0.8f),
                                                         offset, rng.Uniform(-1.0f, 1.0f))
                                               .value);
      REQUIRE(!id.IsNull());
      scene.shapes.push_back(id);
    }
  }
}

// The rule QueryFilter documents, written out here.
bool Sees(const World& world, const QueryFilter& q, ShapeId s) {
  const Filter f = world.GetFilter(s);
  return (f.categoryBits & q.maskBits) != 0 && (q.categoryBits & f.maskBits) != 0 &&
         !(world.GetBody(s) == q.excludeBody);
}

QueryFilter RandomQuery(test::Rng& rng, const FilterScene& scene) {
  QueryFilter q;
  q.categoryBits = rng.Int(0, 1) ? std::uint64_t{1} << rng.Int(0, 63) : rng.Next();
  q.maskBits = rng.Int(0, 1) ? rng.Next() | rng.Next() : ~(std::uint64_t{1} << rng.Int(32, 63));
  if (rng.Int(0, 3) != 0) q.excludeBody = scene.bodies[static_cast<std::size_t>(rng.Int(0, 59))];
  return q;
}

std::vector<std::uint32_t> Sorted(std::vector<std::uint32_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::uint32_t> OverlapsOf(const World& world, const AABB& box, const QueryFilter& q) {
  std::vector<std::uint32_t> found;
  world.OverlapAABB(box, q, [&](ShapeId s) {
    found.push_back(s.index1);
    return true;
  });
  return Sorted(found);
}

std::vector<std::uint32_t> ShapeOverlapsOf(const World& world, const Circle& c, const QueryFilter& q) {
  std::vector<std::uint32_t> found;
  world.OverlapShape(ShapeGeometry(c), Transform{}, q, [&](ShapeId s) {
    found.push_back(s.index1);
    return true;
  });
  return Sorted(found);
}

std::vector<std::uint32_t> PointOverlapsOf(const World& world, Vec2 p, const QueryFilter& q) {
  std::vector<std::uint32_t> found;
  world.OverlapPoint(p, q, [&](ShapeId s) {
    found.push_back(s.index1);
    return true;
  });
  return Sorted(found);
}

std::vector<std::uint32_t> CastHitsOf(const World& world, const Circle& c, Vec2 translation,
                                      const QueryFilter& q) {
  std::vector<std::uint32_t> found;
  world.CastShape(ShapeGeometry(c), Transform{}, translation, q, [&](const CastHit& hit) {
    found.push_back(hit.shape.index1);
    return 1.0f;
  });
  return Sorted(found);
}

std::vector<std::uint32_t> Keep(const World& world, const std::vector<std::uint32_t>& all,
                                const QueryFilter& q) {
  std::vector<std::uint32_t> kept;
  for (std::uint32_t index1 : all) {
    if (Sees(world, q, world.State().MakeShapeId(static_cast<int>(index1 - 1)))) kept.push_back(index1);
  }
  return kept;
}

// The plain-function form of the pre-solve rule below: disable a contact while the dynamic body in
// it rises (the other body's velocity, read through the world).
struct RuleContext {
  const World* world = nullptr;
  int calls = 0;
};

bool RisingPassesRule(const World& world, ShapeId a, ShapeId b) {
  const BodyId bodyA = world.GetBody(a), bodyB = world.GetBody(b);
  const BodyId mover = world.GetBodyType(bodyA) == BodyType::Dynamic ? bodyA : bodyB;
  return world.GetLinearVelocity(mover).y <= 0.0f;
}

bool RisingPassesFn(ShapeId a, ShapeId b, const Manifold&, void* context) {
  RuleContext& rule = *static_cast<RuleContext*>(context);
  ++rule.calls;
  return RisingPassesRule(*rule.world, a, b);
}

// A platform at y = 3 (top 3.1) and boxes launched up through it from below.
void BuildPlatformScene(World& world) {
  test::AddGround(world);
  const BodyId platform = world.CreateBody({.position = {0.0f, 3.0f}});
  world.CreateShape(platform, {.enablePreSolveEvents = true}, MakeBox(4.0f, 0.1f).value);
  for (int i = 0; i < 3; ++i) {
    world.CreateBody({.type = BodyType::Dynamic,
                      .position = {-2.0f + 2.0f * static_cast<float>(i), 1.0f},
                      .linearVelocity = {0.0f, 9.0f + static_cast<float>(i)}});
  }
  for (int i = 0; i < 3; ++i) {
    // body slots 2..4 are the boxes (0 ground, 1 platform)
    world.CreateShape(world.State().MakeBodyId(2 + i), {}, MakeBox(0.3f, 0.3f).value);
  }
}

}  // namespace

TEST_SUITE("world.filters") {
TEST_CASE("a category bit above 32 filters contacts: the box falls through or rests on top") {
  // Free fall from y = 2 for 1 s: y = 2 - g t^2 / 2 = -3 (the step integrates a constant
  // acceleration exactly, up to rounding), and bit for bit what a world without the base gives.
  const float fallen = 2.0f - 10.0f * 0.5f;
  const float withoutBase = DropOnto(0, 0, /*withBase=*/false);
  CHECK(test::Near(withoutBase, fallen, 1e-3f));
  CHECK(DropOnto(kBit40, ~kBit40) == withoutBase);
  CHECK(test::Near(DropOnto(kBit40, kBit40), 1.0f, 0.01f));  // rests: base top 0.5 + 0.5
  CHECK(test::Near(DropOnto(kBit40, kAllFilterBits), 1.0f, 0.01f));
  CHECK(DropOnto(1, kBit40) == withoutBase);  // the mask wants only bit 40
  // The defaults accept every category, bit 63 included.
  CHECK(test::Near(DropOnto(std::uint64_t{1} << 63, Filter{}.maskBits), 1.0f, 0.01f));
}

TEST_CASE(
    "queries with 64-bit filters and excludeBody see what the rule says of every shape found unfiltered") {
  test::AssertCounter asserts;
  FilterScene scene;
  BuildFilterScene(scene, 64);
  const World& world = scene.world;
  test::Rng rng(640);
  int seen = 0, excludedSeen = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const QueryFilter q = RandomQuery(rng, scene);
    const Vec2 p = rng.InBox(8.0f);
    const AABB box{p - Vec2{2.0f, 1.5f}, p + Vec2{2.0f, 1.5f}};
    const Circle circle{p, rng.Uniform(0.3f, 1.5f)};
    const Vec2 translation = rng.InBox(6.0f);
    CHECK(OverlapsOf(world, box, q) == Keep(world, OverlapsOf(world, box, kSeeAll), q));
    CHECK(ShapeOverlapsOf(world, circle, q) == Keep(world, ShapeOverlapsOf(world, circle, kSeeAll), q));
    CHECK(PointOverlapsOf(world, p, q) == Keep(world, PointOverlapsOf(world, p, kSeeAll), q));
    CHECK(CastHitsOf(world, circle, translation, q) ==
          Keep(world, CastHitsOf(world, circle, translation, kSeeAll), q));
    // Ray casts keep their order: the filtered hits are the unfiltered ones the rule keeps.
    std::vector<std::uint32_t> rayAll, rayFiltered;
    for (const CastHit& hit : mk::CastRayAll(world, p, translation, kSeeAll)) {
      if (Sees(world, q, hit.shape)) rayAll.push_back(hit.shape.index1);
    }
    for (const CastHit& hit : mk::CastRayAll(world, p, translation, q))
      rayFiltered.push_back(hit.shape.index1);
    CHECK(rayFiltered == rayAll);
    const CastHit closest = world.CastRayClosest(p, translation, q);
    CHECK(closest.hit == !rayAll.empty());
    if (closest.hit) CHECK(closest.shape.index1 == rayAll.front());
    seen += static_cast<int>(OverlapsOf(world, box, q).size());
    if (!q.excludeBody.IsNull()) {
      const std::vector<std::uint32_t> unexcluded = [&] {
        QueryFilter bitsOnly = q;
        bitsOnly.excludeBody = {};
        return OverlapsOf(world, box, bitsOnly);
      }();
      excludedSeen += static_cast<int>(unexcluded.size() - OverlapsOf(world, box, q).size());
    }
  }
  CHECK(seen > 100);         // the filters let shapes through
  CHECK(excludedSeen > 10);  // and excludeBody took some away
  CHECK(asserts.Count() == 0);
}

TEST_CASE("excludeBody equals disabling that body in a copy for every query and both mover calls") {
  test::AssertCounter asserts;
  FilterScene scene;
  BuildFilterScene(scene, 65);
  test::Rng rng(650);
  const std::vector<std::byte> snapshot = mk::SaveSnapshot(scene.world);
  int excludedNear = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const BodyId excluded = scene.bodies[static_cast<std::size_t>(rng.Int(0, 59))];
    World copy;
    REQUIRE(copy.RestoreSnapshot(snapshot).ok());
    copy.SetEnabled(copy.AdoptId(excluded), false);
    const QueryFilter withExclude{.excludeBody = excluded};
    const QueryFilter none{};
    // Aimed at the excluded body, so that it matters.
    const Vec2 target = scene.world.GetPosition(excluded);
    const Vec2 from = target + 3.0f * rng.Direction();
    const Capsule mover{from, from + Vec2{0.0f, 0.5f}, 0.4f};
    const Vec2 translation = target - from;
    CHECK(scene.world.CastMover(mover, translation, withExclude) == copy.CastMover(mover, translation, none));
    std::vector<PlaneResult> planesA(32), planesB(32);
    const Capsule nearMover{target + Vec2{0.3f, 0.0f}, target + Vec2{0.3f, 0.4f}, 0.5f};
    const int countA = scene.world.CollideMover(nearMover, withExclude, planesA);
    const int countB = copy.CollideMover(nearMover, none, planesB);
    REQUIRE(countA == countB);
    std::vector<std::uint32_t> shapesA, shapesB;
    for (int i = 0; i < countA; ++i) shapesA.push_back(planesA[static_cast<std::size_t>(i)].shape.index1);
    for (int i = 0; i < countB; ++i) shapesB.push_back(planesB[static_cast<std::size_t>(i)].shape.index1);
    CHECK(Sorted(shapesA) == Sorted(shapesB));
    const AABB box{target - Vec2{1.5f, 1.5f}, target + Vec2{1.5f, 1.5f}};
    CHECK(OverlapsOf(scene.world, box, withExclude) == OverlapsOf(copy, box, none));
    const Circle circle{from, 0.3f};
    CHECK(CastHitsOf(scene.world, circle, translation, withExclude) ==
          CastHitsOf(copy, circle, translation, none));
    const CastHit a = scene.world.CastRayClosest(from, translation, withExclude);
    const CastHit b = copy.CastRayClosest(from, translation, none);
    CHECK(a.hit == b.hit);
    CHECK(a.shape.index1 == b.shape.index1);
    CHECK(a.fraction == b.fraction);
    excludedNear +=
        OverlapsOf(scene.world, box, none).size() != OverlapsOf(scene.world, box, withExclude).size();
  }
  CHECK(excludedNear == 40);  // every trial's box held shapes of the excluded body
  // A stale or foreign excludeBody excludes nothing, quietly.
  World other;
  const AABB everything{{-20.0f, -20.0f}, {20.0f, 20.0f}};
  const std::size_t all = OverlapsOf(scene.world, everything, {}).size();
  CHECK(OverlapsOf(scene.world, everything, {.excludeBody = other.CreateBody({})}).size() == all);
  const BodyId doomed = scene.world.CreateBody({});
  scene.world.DestroyBody(doomed);
  CHECK(OverlapsOf(scene.world, everything, {.excludeBody = doomed}).size() == all);
  CHECK(asserts.Count() == 0);
}
}  // TEST_SUITE("world.filters")

TEST_SUITE("world.presolve_callable") {
TEST_CASE("a callable pre-solve reading the world gives the plain function's steps bit for bit") {
  World plain, callable;
  BuildPlatformScene(plain);
  BuildPlatformScene(callable);
  RuleContext context{&plain};
  plain.SetPreSolveCallback(&RisingPassesFn, &context);
  int calls = 0;
  const World* seenWorld = nullptr;
  callable.SetPreSolveCallback([&calls, &seenWorld](const World& w, ShapeId a, ShapeId b, const Manifold&) {
    ++calls;
    seenWorld = &w;
    return RisingPassesRule(w, a, b);
  });
  for (int step = 0; step < 180; ++step) {
    plain.Step(kDt);
    callable.Step(kDt);
    REQUIRE(plain.StateHash() == callable.StateHash());
  }
  CHECK(calls == context.calls);
  CHECK(calls > 0);
  CHECK(seenWorld == &callable);
  // The rule let every box through from below: each rests on the platform's top (3.1 + 0.3).
  for (int i = 0; i < 3; ++i)
    CHECK(test::Near(callable.GetPosition(callable.State().MakeBodyId(2 + i)).y, 3.4f, 0.01f));
}

TEST_CASE("a moved world hands the callable its new self and a cleared callable is not called") {
  World first;
  BuildPlatformScene(first);
  const World* seenWorld = nullptr;
  int calls = 0;
  first.SetPreSolveCallback([&](const World& w, ShapeId a, ShapeId b, const Manifold&) {
    seenWorld = &w;
    ++calls;
    return RisingPassesRule(w, a, b);  // the boxes pass, land on the platform and touch it again
  });
  World moved(std::move(first));
  for (int step = 0; step < 30; ++step) moved.Step(kDt);
  CHECK(calls > 0);
  CHECK(seenWorld == &moved);
  World assigned;
  assigned = std::move(moved);
  seenWorld = nullptr;
  for (int step = 0; step < 120 && seenWorld == nullptr; ++step) assigned.Step(kDt);  // boxes land again
  CHECK(seenWorld == &assigned);
  assigned.SetPreSolveCallback(PreSolveCallable{});
  const int before = calls;
  for (int step = 0; step < 10; ++step) assigned.Step(kDt);
  CHECK(calls == before);
  // The plain form with a null function clears too.
  assigned.SetPreSolveCallback([&](const World&, ShapeId, ShapeId, const Manifold&) { return ++calls > 0; });
  assigned.SetPreSolveCallback(nullptr, nullptr);
  assigned.Step(kDt);
  CHECK(calls == before);
}

TEST_CASE("a replay player with a callable pre-solve replays a recording made with one exactly") {
  const auto rule = [](const World& w, ShapeId a, ShapeId b, const Manifold&) {
    return RisingPassesRule(w, a, b);
  };
  World recorded;
  REQUIRE(recorded.StartRecording());
  recorded.SetPreSolveCallback(rule);
  BuildPlatformScene(recorded);
  for (int step = 0; step < 120; ++step) recorded.Step(kDt);
  const std::uint64_t hash = recorded.StateHash();
  const std::vector<std::byte> file = mk::StopRecording(recorded);
  Replay replay;
  REQUIRE(Replay::Load(file, replay) == ReplayError::None);
  ReplayPlayer player(std::move(replay));
  const World* seenWorld = nullptr;
  player.SetPreSolveCallback([&](const World& w, ShapeId a, ShapeId b, const Manifold& m) {
    seenWorld = &w;
    return rule(w, a, b, m);
  });
  player.PlayToEnd();
  CHECK(player.GetWorld().StateHash() == hash);
  CHECK(seenWorld == &player.GetWorld());
}
}  // TEST_SUITE("world.presolve_callable")
