// SPDX-License-Identifier: MIT
// Record and replay over the scene table: every scene, recorded while it runs (its build, its
// per-step callback's creations and destructions, every Step), replays into a fresh World with the
// same state hash after every step; and recording changes nothing in the recorded world.
#include "minkowski/replay.h"
#include "minkowski/world_vector.h"
#include "scenes.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

using namespace mk;

namespace {

struct Recorded {
  std::vector<std::uint64_t> hashes;  // after each step
  std::vector<std::byte> file;
};

// Runs the scene as SceneRun does (build, then PreStep(i) and Step), recording from the empty world.
Recorded RecordScene(const scenes::SceneInfo& info, int steps) {
  World world(info.worldDef);
  REQUIRE(world.StartRecording());
  std::unique_ptr<scenes::SceneState> state = info.build(world, scenes::ResolveParams(info, {}));
  Recorded out;
  for (int i = 0; i < steps; ++i) {
    state->PreStep(world, i);
    world.Step(scenes::kTimeStep);
    out.hashes.push_back(world.StateHash());
  }
  out.file = mk::StopRecording(world);
  return out;
}

// The same run without recording: the hashes a recording must not change.
std::vector<std::uint64_t> RunScene(const scenes::SceneInfo& info, int steps) {
  scenes::SceneRun run(info);
  std::vector<std::uint64_t> hashes;
  for (int i = 0; i < steps; ++i) {
    run.Step();
    hashes.push_back(run.GetWorld().StateHash());
  }
  return hashes;
}

void CheckRoundTrip(const scenes::SceneInfo& info, int steps) {
  INFO(std::string(info.name));
  const Recorded recorded = RecordScene(info, steps);
  CHECK(recorded.hashes == RunScene(info, steps));

  Replay replay;
  REQUIRE(Replay::Load(recorded.file, replay) == ReplayError::None);
  CHECK(replay.StepCount() == static_cast<std::uint64_t>(steps));
  ReplayPlayer player(std::move(replay));
  int mismatches = 0;
  for (int k = 1; k <= steps; ++k) {
    player.StepTo(static_cast<std::uint64_t>(k));
    REQUIRE(player.CurrentStep() == static_cast<std::uint64_t>(k));
    mismatches += player.GetWorld().StateHash() == recorded.hashes[static_cast<std::size_t>(k - 1)] ? 0 : 1;
  }
  CHECK(mismatches == 0);
  CHECK(player.AtEnd());
  // Scrubbing back replays from the start to the same state.
  player.StepTo(static_cast<std::uint64_t>(steps / 2));
  CHECK(player.GetWorld().StateHash() == recorded.hashes[static_cast<std::size_t>(steps / 2 - 1)]);
}

}  // namespace

TEST_SUITE("replay") {

TEST_CASE("every scene replays with the recorded state hash after every step") {
  for (const scenes::SceneInfo& info : scenes::SceneTable()) CheckRoundTrip(info, 10);
}

}  // TEST_SUITE("replay")

// Long: 15 ragdoll churns (about 5 s in Release, a minute under ASan); the quick set's every-scene
// round trip covers rain's first churn, and the replay fuzzer hostile creation and destruction orders.
TEST_CASE("rain replays its ragdoll churn over 120 steps" * doctest::test_suite("long")) {
  // Rain creates and destroys ragdolls every 8 steps: creation and destruction records, reused ids.
  CheckRoundTrip(*scenes::FindScene("rain"), 120);
}

TEST_CASE("scenes replay over their full step count" * doctest::test_suite("long")) {
  for (const char* name : {"rain", "ragdolls", "card_house", "pendulum_chain", "restitution_row"}) {
    const scenes::SceneInfo& info = *scenes::FindScene(name);
    CheckRoundTrip(info, info.defaultSteps);
  }
}

// Long: about 40 s in Release (every jump replays up to 80 steps of rain), minutes under ASan; the
// sample recording's scrubbing test (tests/world/replay_test.cpp) covers keyframes in the quick set.
TEST_CASE("scrubbing rain through keyframes gives the recorded states with bounded memory" *
          doctest::test_suite("long")) {
  const int steps = 240;
  const Recorded recorded = RecordScene(*scenes::FindScene("rain"), steps);
  Replay replay;
  REQUIRE(Replay::Load(recorded.file, replay) == ReplayError::None);
  ReplayPlayer player(std::move(replay));
  // Every 20 steps, at most 4: by step 240 the spacing has doubled twice (20, 40, 80).
  player.SetKeyframes(20, 4);
  player.PlayToEnd();
  CHECK(player.KeyframeCount() == 3);  // 80, 160, 240
  CHECK(player.KeyframeInterval() == 80);
  std::uint64_t random = 7;
  int mismatches = 0;
  for (int jump = 0; jump < 60; ++jump) {
    random = random * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t k = 1 + (random >> 33) % steps;
    player.StepTo(k);
    REQUIRE(player.CurrentStep() == k);
    mismatches += player.GetWorld().StateHash() == recorded.hashes[k - 1] ? 0 : 1;
  }
  CHECK(mismatches == 0);
  // Stepping back one step at a time from the end replays from the keyframe at step 160, where a
  // player without keyframes replays from the start: about a third of the records.
  const auto stepBack = [&](ReplayPlayer& p) {
    p.StepTo(steps);
    const std::uint64_t before = p.RecordsApplied();
    for (std::uint64_t k = steps - 1; k >= steps - 10; --k) {
      p.StepTo(k);
      mismatches += p.GetWorld().StateHash() == recorded.hashes[k - 1] ? 0 : 1;
    }
    return p.RecordsApplied() - before;
  };
  Replay again;
  REQUIRE(Replay::Load(recorded.file, again) == ReplayError::None);
  ReplayPlayer plain(std::move(again));
  plain.SetKeyframes(0, 2);
  const std::uint64_t withKeyframes = stepBack(player);
  const std::uint64_t fromStart = stepBack(plain);
  CHECK(mismatches == 0);
  CHECK(2 * withKeyframes < fromStart);
}
