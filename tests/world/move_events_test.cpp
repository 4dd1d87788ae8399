// SPDX-License-Identifier: MIT
// Body move events (issue 29): after every Step, World::GetBodyMoveEvents against a brute-force scan
// of every body's transform, in random worlds where bodies fall asleep, are woken, teleported,
// disabled, created and destroyed between Steps.
#include "minkowski/world.h"
#include "minkowski/world_vector.h"
#include "test_util.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;

bool SameTransform(const Transform& a, const Transform& b) {
  return std::memcmp(&a, &b, sizeof(Transform)) == 0;  // bit for bit: the event copies the body's
}

struct Tracked {
  BodyId id;
  Transform before{};      // as of the scan just before the Step
  bool wasMoving = false;  // awake, enabled and not static just before the Step
};

BodyId AddRandomBody(World& world, test::Rng& rng, int& userTag) {
  const bool kinematic = rng.Unit() < 0.1;
  BodyDef def{.type = kinematic ? BodyType::Kinematic : BodyType::Dynamic,
              .position = {rng.Uniform(-15.0f, 15.0f), rng.Uniform(0.5f, 12.0f)},
              .angle = rng.Uniform(-3.0f, 3.0f)};
  if (kinematic) def.linearVelocity = {rng.Uniform(-1.0f, 1.0f), 0.0f};
  const BodyId body = world.CreateBody(def);
  const double pick = rng.Unit();
  if (pick < 0.4) {
    world.CreateShape(body, {}, MakeBox(rng.Uniform(0.1f, 0.8f), rng.Uniform(0.1f, 0.8f)).value);
  } else if (pick < 0.7) {
    world.CreateShape(body, {}, Circle{{0.0f, 0.0f}, rng.Uniform(0.1f, 0.6f)});
  } else {
    world.CreateShape(body, {}, Capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, rng.Uniform(0.05f, 0.3f)});
  }
  world.SetUserData(body, reinterpret_cast<void*>(static_cast<std::uintptr_t>(++userTag)));
  return body;
}

// What a game might do between two Steps: wake, push, teleport, disable, destroy, create.
void Disturb(World& world, test::Rng& rng, std::vector<Tracked>& bodies, int& userTag) {
  if (bodies.empty()) return;
  Tracked& t = bodies[static_cast<size_t>(rng.Int(0, static_cast<int>(bodies.size()) - 1))];
  const double what = rng.Unit();
  if (what < 0.3) {
    world.SetAwake(t.id, true);
  } else if (what < 0.5) {
    world.ApplyLinearImpulseToCenter(t.id, {rng.Uniform(-3.0f, 3.0f), 2.0f});
  } else if (what < 0.6) {
    world.SetTransform(t.id, {rng.Uniform(-15.0f, 15.0f), 6.0f}, 0.5f);
  } else if (what < 0.7) {
    world.SetEnabled(t.id, !world.IsEnabled(t.id));
  } else if (what < 0.75) {
    world.SetAwake(t.id, false);
  } else if (what < 0.85) {
    world.DestroyBody(t.id);
    t = bodies.back();
    bodies.pop_back();
  } else {
    bodies.push_back({AddRandomBody(world, rng, userTag)});
  }
}

struct Totals {
  long events = 0, moved = 0, fellAsleep = 0, steps = 0;
};

// One Step checked against the scan: every body that moved has an event with its exact transform and
// user data; every body that was moving before the Step and still is has one; no event twice, none for
// a static, disabled or destroyed body; fellAsleep exactly where the body is now asleep.
void StepAndCheck(World& world, std::vector<Tracked>& bodies, Totals& totals) {
  for (Tracked& t : bodies) {
    t.before = world.GetTransform(t.id);
    t.wasMoving = world.IsAwake(t.id) && world.IsEnabled(t.id) && world.GetBodyType(t.id) != BodyType::Static;
  }
  REQUIRE(world.Step(kDt));
  ++totals.steps;
  std::map<std::uint64_t, BodyMoveEvent> byBody;
  const auto key = [](BodyId id) { return (static_cast<std::uint64_t>(id.generation) << 32) | id.index1; };
  for (const BodyMoveEvent& e : world.GetBodyMoveEvents()) {
    CHECK(byBody.emplace(key(e.body), e).second);  // once per body
    REQUIRE(world.IsValid(e.body));
    CHECK(SameTransform(e.transform, world.GetTransform(e.body)));
    CHECK(e.userData == world.GetUserData(e.body));
    CHECK(e.fellAsleep == !world.IsAwake(e.body));
    CHECK(world.IsEnabled(e.body));
    CHECK(world.GetBodyType(e.body) != BodyType::Static);
    totals.fellAsleep += e.fellAsleep ? 1 : 0;
  }
  totals.events += static_cast<long>(byBody.size());
  for (const Tracked& t : bodies) {
    const bool moved = !SameTransform(t.before, world.GetTransform(t.id));
    const bool listed = byBody.count(key(t.id)) != 0;
    if (moved) {
      ++totals.moved;
      CHECK(listed);
    }
    if (t.wasMoving && world.IsEnabled(t.id)) CHECK(listed);
  }
}

}  // namespace

TEST_SUITE("world.move_events") {

TEST_CASE("body move events equal a scan of every body's transform after every step") {
  Totals totals;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    test::Rng rng(seed * 7919);
    World world;
    test::AddGround(world);
    int userTag = 0;
    std::vector<Tracked> bodies;
    for (int i = 0; i < 40; ++i) bodies.push_back({AddRandomBody(world, rng, userTag)});
    for (int step = 0; step < 240; ++step) {
      if (step % 7 == 0) Disturb(world, rng, bodies, userTag);
      StepAndCheck(world, bodies, totals);
    }
  }
  MESSAGE(totals.steps << " steps: " << totals.events << " events, " << totals.moved << " bodies moved, "
                       << totals.fellAsleep << " fell asleep");
  // The worlds exercised what the events must report: motion, sleep and waking.
  CHECK(totals.moved > 10000);
  CHECK(totals.fellAsleep > 20);
  CHECK(totals.events >= totals.moved);
}

TEST_CASE("a box that falls asleep reports it once and then no more events until woken") {
  World world;
  test::AddGround(world);
  const BodyId box = test::AddBox(world, {0.0f, 0.5f});
  int asleepStep = -1;
  for (int step = 0; step < 120 && asleepStep < 0; ++step) {
    REQUIRE(world.Step(kDt));
    const auto events = world.GetBodyMoveEvents();
    REQUIRE(events.size() == 1);
    CHECK(events[0].body == box);
    if (events[0].fellAsleep) asleepStep = step;
  }
  // timeToSleep 0.5 s: the box rests from the first steps and sleeps about 30 steps in.
  CHECK(asleepStep >= 29);
  CHECK(asleepStep <= 40);
  CHECK_FALSE(world.IsAwake(box));
  REQUIRE(world.Step(kDt));
  CHECK(world.GetBodyMoveEvents().empty());
  world.SetAwake(box, true);
  REQUIRE(world.Step(kDt));
  REQUIRE(world.GetBodyMoveEvents().size() == 1);
  CHECK_FALSE(world.GetBodyMoveEvents()[0].fellAsleep);
}

TEST_CASE("a restored snapshot has no move events until it steps") {
  World world;
  test::AddGround(world);
  test::AddBox(world, {0.0f, 3.0f});
  REQUIRE(world.Step(kDt));
  const std::vector<std::byte> snapshot = mk::SaveSnapshot(world);
  World restored;
  REQUIRE(restored.RestoreSnapshot(snapshot).ok());
  CHECK(restored.GetBodyMoveEvents().empty());
  REQUIRE(restored.Step(kDt));
  CHECK(restored.GetBodyMoveEvents().size() == 1);
}

}  // TEST_SUITE("world.move_events")
