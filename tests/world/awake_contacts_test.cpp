// SPDX-License-Identifier: MIT
// The awake contact set (WorldState::awakeContactBits) and the touching count against brute force:
// after every API call and every step of random churn, bit `slot` is set exactly for the live
// contacts with an awake body, and the count equals the live contacts that touch. The same for the
// awake body set (WorldState::awakeBodyBits): live, not static, awake, enabled. And the joints' ends.
#include "minkowski/task_system.h"
#include "minkowski/world.h"
#include "minkowski/world_vector.h"
#include "test_util.h"
#include "world/world_internal.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace mk;

namespace {

// Mismatches between the world's derived contact state and a recount over every contact slot.
int CountMismatches(const WorldState& world) {
  int mismatches = 0, touching = 0;
  for (int slot = 0; slot < world.contactIds.Capacity(); ++slot) {
    const bool live = world.contactIds.IsLive(slot);
    bool expected = false;
    if (live) {
      const Contact& c = world.contacts[slot];
      expected = world.bodies[c.edges[0].body].awake || world.bodies[c.edges[1].body].awake;
      touching += c.touching ? 1 : 0;
    }
    const std::size_t word = static_cast<std::size_t>(slot) / 64;
    const bool bit =
        word < world.awakeContactBits.size() && ((world.awakeContactBits[word] >> (slot % 64)) & 1u) != 0;
    mismatches += bit == expected ? 0 : 1;
  }
  // No bit beyond the contact slots.
  for (std::size_t word = 0; word < world.awakeContactBits.size(); ++word) {
    for (int bit = 0; bit < 64; ++bit) {
      const int slot = static_cast<int>(word * 64) + bit;
      if (slot >= world.contactIds.Capacity() && ((world.awakeContactBits[word] >> bit) & 1u) != 0)
        ++mismatches;
    }
  }
  return mismatches + (touching == world.touchingContactCount ? 0 : 1);
}

bool InAwakeBodySet(const WorldState& world, int slot) {
  const std::size_t word = static_cast<std::size_t>(slot) / 64;
  return word < world.awakeBodyBits.size() && ((world.awakeBodyBits[word] >> (slot % 64)) & 1u) != 0;
}

// Mismatches between the awake body set (WorldState::awakeBodyBits) and a recount over every body
// slot, plus the invariants the gather relies on: a body holds a solver index only while the solver
// body list names it there; unless the list is marked stale it is exactly the awake body set in
// slot order; and no body sleeps while MayHaveSleepers is false.
int CountBodyMismatches(const WorldState& world) {
  int mismatches = 0;
  std::vector<int> moving;
  const int words = static_cast<int>(world.awakeBodyBits.size());
  for (int slot = 0; slot < std::max(world.bodyIds.Capacity(), 64 * words); ++slot) {
    const bool live = world.bodyIds.IsLive(slot);
    const Body* body = live ? &world.bodies[static_cast<std::size_t>(slot)] : nullptr;
    const bool expected = live && body->type != BodyType::Static && body->awake && body->enabled;
    mismatches += InAwakeBodySet(world, slot) == expected ? 0 : 1;
    if (live && !body->awake && body->type != BodyType::Static && !MayHaveSleepers(world)) ++mismatches;
    if (live && body->solverIndex != kNull) {
      const auto index = static_cast<std::size_t>(body->solverIndex);
      mismatches += index < world.solverBodies.size() && world.solverBodies[index] == slot ? 0 : 1;
    }
    if (expected) moving.push_back(slot);
  }
  if (!world.solverBodiesStale) {
    mismatches += world.solverBodies == moving ? 0 : 1;
    for (const int slot : world.solverBodies) {
      const auto index = static_cast<std::size_t>(world.bodies[static_cast<std::size_t>(slot)].solverIndex);
      mismatches += index < world.solverBodies.size() && world.solverBodies[index] == slot ? 0 : 1;
    }
  }
  return mismatches;
}

// A wall of 0.5 m boxes standing on the ground (test::AddGround) from x = 0, bottom row first.
std::vector<BodyId> AddWall(World& world, int rows, int columns, bool awake) {
  std::vector<BodyId> wall;
  for (int row = 0; row < rows; ++row)
    for (int column = 0; column < columns; ++column) {
      const BodyId b = world.CreateBody(
          {.type = BodyType::Dynamic,
           .position = {0.5f * static_cast<float>(column), 0.25f + 0.5f * static_cast<float>(row)},
           .isAwake = awake});
      world.CreateShape(b, {}, MakeBox(0.25f, 0.25f).value);
      wall.push_back(b);
    }
  return wall;
}

}  // namespace

TEST_SUITE("world.awake_contacts") {

TEST_CASE("the awake contact and body sets and the touching count equal a recount through random churn") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    CAPTURE(seed);
    World world;
    test::AssertCounter asserts;  // stale ids from destroyed bodies are refused, not crashes
    test::AddGround(world);
    test::Rng rng(seed);
    std::vector<BodyId> bodies;
    for (int i = 0; i < 40; ++i)
      bodies.push_back(test::AddBox(world, {rng.Uniform(-5.0f, 5.0f), rng.Uniform(0.5f, 8.0f)}, 0.4f));
    const WorldState& state = world.State();
    int mismatches = 0, sleeps = 0, wakes = 0, maxAsleep = 0;
    int keptLists = 0;  // checks that found the solver body list kept from an earlier step
    for (int step = 0; step < 600; ++step) {
      const BodyId body = bodies[static_cast<std::size_t>(rng.Int(0, static_cast<int>(bodies.size()) - 1))];
      switch (rng.Int(0, 9)) {
        case 0:
          world.SetAwake(body, false);
          ++sleeps;
          break;
        case 1:
          world.SetAwake(body, true);
          ++wakes;
          break;
        case 2:
          world.SetEnabled(body, !world.IsEnabled(body));
          break;
        case 3:
          world.DestroyBody(body);
          bodies.push_back(test::AddBox(world, {rng.Uniform(-5.0f, 5.0f), rng.Uniform(2.0f, 8.0f)}, 0.3f));
          break;
        case 4:
          world.ApplyLinearImpulseToCenter(body, {rng.Uniform(-3.0f, 3.0f), rng.Uniform(0.0f, 5.0f)}, true);
          break;
        default:
          break;
      }
      mismatches += CountMismatches(state) + CountBodyMismatches(state);
      keptLists += state.solverBodiesStale ? 0 : 1;
      world.Step(1.0f / 60.0f);
      mismatches += CountMismatches(state) + CountBodyMismatches(state);
      keptLists += state.solverBodiesStale ? 0 : 1;
      int asleep = 0;
      for (const BodyId b : bodies) asleep += world.IsValid(b) && !world.IsAwake(b) ? 1 : 0;
      maxAsleep = asleep > maxAsleep ? asleep : maxAsleep;
    }
    CHECK(mismatches == 0);
    // A restored world rebuilds both sets; a world with more body slots restores into fewer.
    World restored;
    for (int i = 0; i < 100; ++i) test::AddBox(restored, {static_cast<float>(i), 1.0f}, 0.4f);
    restored.Step(1.0f / 60.0f);
    REQUIRE(restored.RestoreSnapshot(mk::SaveSnapshot(world)).ok());
    CHECK(CountMismatches(restored.State()) + CountBodyMismatches(restored.State()) == 0);
    restored.Step(1.0f / 60.0f);
    world.Step(1.0f / 60.0f);
    CHECK(restored.StateHash() == world.StateHash());
    CHECK(CountMismatches(restored.State()) + CountBodyMismatches(restored.State()) == 0);
    CHECK(sleeps > 20);
    CHECK(wakes > 20);
    CHECK(maxAsleep > 10);   // islands did fall asleep, so the set had bits to clear
    CHECK(keptLists > 200);  // the list was kept between steps, so its invariant was checked
  }
}

// WorldState::jointEnds, the copy of each joint's two body slots that the solver's gather reads,
// against the joints' own edges: through random joint and body churn (a destroyed body takes its
// joints; freed slots are reused) and a restore into a world with more joint slots.
TEST_CASE("each live joint's ends equal its edges through joint churn and a restore") {
  const auto countMismatches = [](const WorldState& s) {
    int mismatches = 0;
    for (int slot = 0; slot < s.jointIds.Capacity(); ++slot) {
      if (!s.jointIds.IsLive(slot)) continue;
      const Joint& j = s.joints[static_cast<std::size_t>(slot)];
      const WorldState::JointEnds& ends = s.jointEnds[static_cast<std::size_t>(slot)];
      mismatches += ends.a == j.edges[0].body && ends.b == j.edges[1].body ? 0 : 1;
    }
    return mismatches;
  };
  World world;
  test::AssertCounter asserts;  // joints on destroyed bodies are refused, not crashes
  const BodyId ground = test::AddGround(world);
  test::Rng rng(7);
  std::vector<BodyId> bodies;
  std::vector<JointId> joints;
  for (int i = 0; i < 30; ++i)
    bodies.push_back(test::AddBox(world, {rng.Uniform(-8.0f, 8.0f), rng.Uniform(1.0f, 8.0f)}, 0.3f));
  const auto pick = [&]() {
    return bodies[static_cast<std::size_t>(rng.Int(0, static_cast<int>(bodies.size()) - 1))];
  };
  int mismatches = 0, mice = 0, destroyed = 0;
  for (int step = 0; step < 400; ++step) {
    switch (rng.Int(0, 4)) {
      case 0:
      case 1: {
        const BodyId a = rng.Int(0, 3) == 0 ? ground : pick();
        const BodyId b = pick();
        if (a == b) break;
        joints.push_back(world.CreateJoint(RevoluteJointDef{{.bodyA = a, .bodyB = b}}));
        break;
      }
      case 2:
        joints.push_back(world.CreateJoint(MouseJointDef{.body = pick(), .target = rng.InBox(5.0f)}));
        ++mice;
        break;
      case 3:
        if (!joints.empty()) {
          const std::size_t k = static_cast<std::size_t>(rng.Int(0, static_cast<int>(joints.size()) - 1));
          destroyed += world.DestroyJoint(joints[k]) ? 1 : 0;
          joints.erase(joints.begin() + static_cast<std::ptrdiff_t>(k));
        }
        break;
      default: {
        const std::size_t k = static_cast<std::size_t>(rng.Int(0, static_cast<int>(bodies.size()) - 1));
        world.DestroyBody(bodies[k]);
        bodies[k] = test::AddBox(world, {rng.Uniform(-8.0f, 8.0f), rng.Uniform(1.0f, 8.0f)}, 0.3f);
        break;
      }
    }
    mismatches += countMismatches(world.State());
    world.Step(1.0f / 60.0f);
  }
  CHECK(mismatches == 0);
  CHECK(world.GetCounters().joints > 20);
  CHECK(mice > 40);
  CHECK(destroyed > 40);
  World restored;
  for (int i = 0; i < 60; ++i) {
    const BodyId b = test::AddBox(restored, {static_cast<float>(i), 2.0f}, 0.3f);
    restored.CreateJoint(MouseJointDef{.body = b, .target = {static_cast<float>(i), 3.0f}});
  }
  REQUIRE(restored.RestoreSnapshot(mk::SaveSnapshot(world)).ok());
  CHECK(countMismatches(restored.State()) == 0);
  restored.Step(1.0f / 60.0f);
  world.Step(1.0f / 60.0f);
  CHECK(restored.StateHash() == world.StateHash());
}

TEST_CASE("a sleeping wall hit by a box: only contacts with an awake body are updated") {
  World world;
  test::AddGround(world);
  const std::vector<BodyId> wall = AddWall(world, 10, 10, /*awake=*/false);
  world.Step(1.0f / 60.0f);
  const WorldState& state = world.State();
  CHECK(CountMismatches(state) == 0);
  CHECK(world.GetCounters().narrowphaseQueries == 0);  // asleep: nothing is computed
  const BodyId ball = world.CreateBody(
      {.type = BodyType::Dynamic, .position = {-3.0f, 1.0f}, .linearVelocity = {20.0f, 0.0f}});
  world.CreateShape(ball, {.density = 10.0f}, MakeCircle({0.0f, 0.0f}, 0.3f).value);
  int awakeBefore = 0;
  for (int step = 0; step < 120; ++step) {
    world.Step(1.0f / 60.0f);
    CHECK(CountMismatches(state) == 0);
    CHECK(CountBodyMismatches(state) == 0);
    int awake = 0;
    for (const BodyId b : wall) awake += world.IsAwake(b) ? 1 : 0;
    awakeBefore = awake > awakeBefore ? awake : awakeBefore;
  }
  CHECK(awakeBefore > 0);  // the hit woke the wall
}

// The solver's gather takes the touching contacts from what the narrowphase recorded while the awake
// set is the one the narrowphase walked (CollectTouchingContactSlots). A wall asleep on the ground
// and hit by a ball wakes after the narrowphase (the touch is found there), so its resting contacts
// join the awake set between the narrowphase and the solver: they must still be solved that step, or
// the whole wall falls freely for one step (-g dt = -0.16 m/s).
TEST_CASE("a wall woken by the narrowphase's touch has its resting contacts solved in that step") {
  for (const int workers : {1, 2}) {
    CAPTURE(workers);
    TaskPool pool(workers, PoolThreads::AsAsked);
    World world;
    world.SetTaskSystem(pool.GetTaskSystem());
    test::AddGround(world);
    const std::vector<BodyId> wall = AddWall(world, 8, 6, /*awake=*/true);
    // Settled, then asleep (an island at rest keeps its contacts' manifolds while it sleeps).
    for (int step = 0; step < 60; ++step) world.Step(1.0f / 60.0f);
    for (const BodyId b : wall) world.SetAwake(b, false);
    world.Step(1.0f / 60.0f);
    const BodyId ball = world.CreateBody(
        {.type = BodyType::Dynamic, .position = {-1.5f, 0.25f}, .linearVelocity = {12.0f, 0.0f}});
    world.CreateShape(ball, {.density = 2.0f}, MakeCircle({0.0f, 0.0f}, 0.2f).value);
    int wokenSteps = 0;
    float slowestFall = 0.0f;  // the most negative vertical speed of a box far from the ball
    for (int step = 0; step < 60 && wokenSteps == 0; ++step) {
      const bool asleep = !world.IsAwake(wall.back());
      world.Step(1.0f / 60.0f);
      if (!asleep || !world.IsAwake(wall.back())) continue;
      ++wokenSteps;
      // The top row, far from the ball's row: held by its contacts, not falling.
      for (std::size_t i = wall.size() - 6; i < wall.size(); ++i)
        slowestFall = std::min(slowestFall, world.GetLinearVelocity(wall[i]).y);
    }
    CHECK(wokenSteps == 1);
    CHECK(slowestFall > -0.02f);
  }
}

}  // TEST_SUITE("world.awake_contacts")
