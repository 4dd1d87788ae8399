// SPDX-License-Identifier: MIT
// The API boundary (minkowski/span.h, owned_ptr.h, world_vector.h): Span's conversions and checks, the
// calls that write into a Span (too small, empty, exact size) against their std::vector forms, and the
// pre-solve callable's storage.
#include "broadphase/broadphase_oracle.h"
#include "minkowski/replay.h"
#include "minkowski/span.h"
#include "minkowski/world.h"
#include "minkowski/world_vector.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

using namespace mk;

TEST_SUITE("span_api") {
namespace {

struct Scene {
  World world;
  ChainId chain;
};

// A row of 6 circles on the x axis, a chain of 5 segments, a few boxes touching the ground.
void Build(Scene& s) {
  World& world = s.world;
  const BodyId ground = world.CreateBody({.position = {0.0f, -5.0f}});
  world.CreateShape(ground, {}, MakeBox(40.0f, 0.5f).value);
  for (int i = 0; i < 6; ++i)
    world.CreateShape(world.CreateBody({.position = {2.0f * static_cast<float>(i), 0.0f}}), {},
                      Circle{{}, 0.5f});
  const std::array<Vec2, 6> points{{{-30, -3}, {-25, -4}, {-20, -4}, {-15, -4}, {-10, -3}, {-8, -2}}};
  s.chain = world.CreateChain(ground, {.points = points});
  for (int i = 0; i < 3; ++i)
    world.CreateShape(world.CreateBody({.type = BodyType::Dynamic, .position = {-5.0f + 2.0f * i, -4.0f}}),
                      {}, MakeBox(0.5f, 0.5f).value);
  world.Step(1.0f / 60.0f);
}

}  // namespace

TEST_CASE("a span views vectors and arrays and std::span and C arrays and a const span views a mutable one") {
  std::vector<int> v{1, 2, 3};
  std::array<int, 2> a{4, 5};
  int c[4] = {6, 7, 8, 9};
  const Span<int> fromVector = v;
  const Span<const int> fromArray = a;
  const Span<const int> fromStd = std::span<int>(v);
  const Span<int> fromC = c;
  const Span<const int> constFromMutable = fromVector;
  CHECK(fromVector.size() == 3);
  CHECK(fromVector.data() == v.data());
  CHECK(fromArray[1] == 5);
  CHECK(fromStd.size() == 3);
  CHECK(fromC.size() == 4);
  CHECK(constFromMutable.data() == v.data());
  int sum = 0;
  for (int x : fromC) sum += x;
  CHECK(sum == 30);
  fromVector[0] = 10;
  CHECK(v[0] == 10);
  const std::span<const int> back = constFromMutable;  // and back to std::span (C++20 game code)
  CHECK(back.size() == 3);
  CHECK(Span<int>().empty());
  CHECK(Span<int>().data() == nullptr);
}

TEST_CASE("a span of a null pointer and a count asserts and is empty and an index out of range asserts") {
  test::QuietAsserts asserts;
  const Span<int> bad(nullptr, 3);
  CHECK(asserts.Count() == 1);
  CHECK(bad.empty());
  CHECK(bad.data() == nullptr);
  int x[2] = {1, 2};
  const Span<int> s = x;
  CHECK(s[1] == 2);
  CHECK(asserts.Count() == 1);
  CHECK(s.first(5).size() == 2);
  CHECK(asserts.Count() == 2);
}

TEST_CASE("SaveSnapshot writes only into a span large enough and returns the size either way") {
  Scene s;
  Build(s);
  const std::vector<std::byte> expected = SaveSnapshot(s.world);
  const std::size_t size = s.world.SaveSnapshot({});
  CHECK(size == expected.size());
  std::vector<std::byte> small(size - 1, std::byte{0x5a});
  CHECK(s.world.SaveSnapshot(Span<std::byte>(small)) == size);
  CHECK(std::all_of(small.begin(), small.end(), [](std::byte b) { return b == std::byte{0x5a}; }));
  std::vector<std::byte> exact(size);
  CHECK(s.world.SaveSnapshot(Span<std::byte>(exact)) == size);
  CHECK(exact == expected);
  std::vector<std::byte> large(size + 10, std::byte{0x5a});
  CHECK(s.world.SaveSnapshot(Span<std::byte>(large)) == size);
  CHECK(std::equal(expected.begin(), expected.end(), large.begin()));
  CHECK(large.back() == std::byte{0x5a});
  std::vector<std::byte> reused(3 * size);
  SaveSnapshot(s.world, reused);
  CHECK(reused == expected);
}

// A std::vector passed where the old calls filled one is refused at compile time (it would convert to
// a Span of its current size and silently receive nothing); an array or an explicit Span is fine.
template <class T, class C, class = void>
struct CanSave : std::false_type {};
template <class T, class C>
struct CanSave<T, C, std::void_t<decltype(std::declval<const T&>().SaveSnapshot(std::declval<C&>()))>>
    : std::true_type {};
template <class C, class = void>
struct CanCollect : std::false_type {};
template <class C>
struct CanCollect<C,
                  std::void_t<decltype(std::declval<const BroadPhase&>().CollectPairs(std::declval<C&>()))>>
    : std::true_type {};
static_assert(!CanSave<World, std::vector<std::byte>>::value);
static_assert(CanSave<World, Span<std::byte>>::value);
static_assert(CanSave<World, std::array<std::byte, 8>>::value);
static_assert(!CanCollect<std::vector<ProxyPair>>::value);
static_assert(CanCollect<std::array<ProxyPair, 4>>::value);

TEST_CASE("CastRayAll returns the total and writes the nearest hits that fit in order") {
  Scene s;
  Build(s);
  const Vec2 origin{-3.0f, 0.0f}, translation{20.0f, 0.0f};
  const std::vector<CastHit> all = CastRayAll(s.world, origin, translation);
  REQUIRE(all.size() == 6);
  std::array<CastHit, 2> two{};
  CHECK(s.world.CastRayAll(origin, translation, {}, two) == 6);
  CHECK(two[0].shape == all[0].shape);
  CHECK(two[1].shape == all[1].shape);
  CHECK(s.world.CastRayAll(origin, translation, {}, {}) == 6);
  std::vector<CastHit> exact(6);
  CHECK(s.world.CastRayAll(origin, translation, {}, exact) == 6);
  CHECK(exact.back().shape == all.back().shape);
  CHECK(s.world.CastRayAll({-3.0f, 30.0f}, translation, {}, exact) == 0);
}

TEST_CASE("GetChainSegments writes at most the span's size and returns how many it wrote") {
  Scene s;
  Build(s);
  const std::vector<ShapeId> all = GetChainSegments(s.world, s.chain);
  REQUIRE(all.size() == 5);
  std::array<ShapeId, 3> three{};
  CHECK(s.world.GetChainSegments(s.chain, three) == 3);
  CHECK(three[2] == all[2]);
  CHECK(s.world.GetChainSegments(s.chain, {}) == 0);
  std::array<ShapeId, 8> more{};
  CHECK(s.world.GetChainSegments(s.chain, more) == 5);
  CHECK(more[5].IsNull());
}

TEST_CASE("the broadphase collectors return the totals and write what fits") {
  Scene s;
  Build(s);
  const BroadPhase& bp = s.world.GetBroadPhase();
  std::vector<ProxyPair> pairs;
  CollectPairs(bp, pairs);
  std::vector<ProxyInfo> proxies{ProxyInfo{}};  // appended after what is there
  CollectProxies(bp, proxies);
  CHECK(static_cast<int>(pairs.size()) == bp.Stats().pairCount);
  CHECK(static_cast<int>(proxies.size()) == 1 + bp.Stats().proxyCount);
  REQUIRE(pairs.size() >= 2);
  std::array<ProxyPair, 1> one{};
  CHECK(bp.CollectPairs(one) == static_cast<int>(pairs.size()));
  CHECK(one[0].proxyA == pairs[0].proxyA);
  CHECK(one[0].proxyB == pairs[0].proxyB);
  CHECK(bp.CollectProxies({}) == bp.Stats().proxyCount);
}

TEST_CASE("StopRecording's span lives until the next recording call and matches its vector form") {
  World world;
  REQUIRE(world.StartRecording());
  world.CreateBody({.type = BodyType::Dynamic});
  world.Step(1.0f / 60.0f);
  const Span<const std::byte> bytes = world.StopRecording();
  REQUIRE(!bytes.empty());
  const std::vector<std::byte> copy(bytes.begin(), bytes.end());
  Replay replay;
  CHECK(Replay::Load(bytes, replay) == ReplayError::None);
  CHECK(world.StopRecording().empty());  // not recording
  World other;
  REQUIRE(other.StartRecording());
  other.CreateBody({.type = BodyType::Dynamic});
  other.Step(1.0f / 60.0f);
  CHECK(StopRecording(other) == copy);
}

TEST_CASE("the pre-solve callable stores small captures inline and large ones on the heap and copies both") {
  int calls = 0;
  std::array<double, 16> large{};
  large[3] = 1.0;
  PreSolveCallable small = [&calls](const World&, ShapeId, ShapeId, const Manifold&) {
    ++calls;
    return true;
  };
  PreSolveCallable big = [&calls, large](const World&, ShapeId, ShapeId, const Manifold&) {
    calls += static_cast<int>(large[3]) * 10;
    return false;
  };
  PreSolveCallable copyOfBig = big;
  PreSolveCallable moved = static_cast<PreSolveCallable&&>(big);
  CHECK_FALSE(static_cast<bool>(big));
  CHECK_FALSE(static_cast<bool>(PreSolveCallable{}));
  World world;
  const Manifold manifold{};
  CHECK(small(world, {}, {}, manifold));
  CHECK_FALSE(copyOfBig(world, {}, {}, manifold));
  CHECK_FALSE(moved(world, {}, {}, manifold));
  CHECK(calls == 21);
  copyOfBig = small;
  CHECK(copyOfBig(world, {}, {}, manifold));
  CHECK(calls == 22);
  copyOfBig = nullptr;
  CHECK_FALSE(static_cast<bool>(copyOfBig));
}

}  // TEST_SUITE("span_api")
