// SPDX-License-Identifier: MIT
// Snapshots of every scene: a world restored from a snapshot continues bit for bit as the original.
//
// Oracle: a second run of the same scene that is never snapshotted. The run under test takes
// snapshots at a few steps; at each it lets the world run on alone (World::Step, no scene callback)
// for a horizon, recording the state hash of every step, then (a) restores the snapshot into the same
// World and (b) into a fresh World, and both must reproduce every recorded hash. Then it restores the
// snapshot once more and goes on with the scene (callbacks included: rain spawns and destroys
// ragdolls), and its hash must equal the oracle's after every step to the end.
#include "alloc_counter.h"
#include "minkowski/world_vector.h"
#include "scene_test_util.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

using namespace mk;
using scenes::SceneRun;

namespace {

// The world alone for `steps` steps, hashing each.
std::vector<std::uint64_t> RunOn(World& world, int steps) {
  std::vector<std::uint64_t> hashes;
  for (int i = 0; i < steps; ++i) {
    world.Step(scenes::kTimeStep);
    hashes.push_back(world.StateHash());
  }
  return hashes;
}

// Restores and requires success, naming the failed check if not.
void RequireRestored(World& world, std::span<const std::byte> snapshot) {
  const SnapshotResult restored = world.RestoreSnapshot(snapshot);
  INFO(std::string(ToString(restored.error)) << ": " << std::string(restored.detail));
  REQUIRE(restored.ok());
}

int CountMismatches(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  int mismatches = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) mismatches += a[i] != b[i] ? 1 : 0;
  return mismatches + static_cast<int>(a.size() > b.size() ? a.size() - b.size() : b.size() - a.size());
}

void CheckScene(const scenes::SceneInfo& info, scenes::SceneParams params, std::vector<int> snapshotSteps,
                int horizon, int lastStep) {
  INFO("scene " << std::string(info.name));
  SceneRun run(info, params), oracle(info, params);
  std::vector<std::byte> snapshot;
  std::size_t next = 0;
  for (int step = 0; step < lastStep; ++step) {
    if (next < snapshotSteps.size() && snapshotSteps[next] == step) {
      ++next;
      INFO("snapshot at step " << step);
      World& world = run.GetWorld();
      mk::SaveSnapshot(world, snapshot);
      CHECK(world.StateHash() == oracle.GetWorld().StateHash());
      const std::vector<std::uint64_t> original = RunOn(world, horizon);

      // (a) the same World, after it ran on.
      RequireRestored(world, snapshot);
      CHECK(world.StateHash() == oracle.GetWorld().StateHash());
      CHECK(CountMismatches(RunOn(world, horizon), original) == 0);

      // (b) a fresh World (another tag, nothing created in it).
      World fresh(info.worldDef);
      RequireRestored(fresh, snapshot);
      CHECK(CountMismatches(RunOn(fresh, horizon), original) == 0);

      // Back to the snapshot, to go on with the scene.
      RequireRestored(world, snapshot);
    }
    run.Step();
    oracle.Step();
    REQUIRE(run.GetWorld().StateHash() == oracle.GetWorld().StateHash());
  }
  CHECK(test::AllBodiesFinite(run.GetWorld()));
}

}  // namespace

TEST_SUITE("scenes.snapshot") {

TEST_CASE("every scene shrunk restores from snapshots at steps 0 7 and 30 bit for bit") {
  for (const scenes::SceneInfo& info : scenes::SceneTable()) {
    CheckScene(info, test::SmallParams(info), {0, 7, 30}, 12, 50);
  }
}

TEST_CASE("saving a snapshot into a buffer it already filled allocates nothing") {
  SceneRun run(*scenes::FindScene("many_pyramids"), {.count = 2});
  test::StepScene(run, 30);
  std::vector<std::byte> buffer;
  mk::SaveSnapshot(run.GetWorld(), buffer);
  const std::size_t size = buffer.size();
  test::StartCountingAllocations();
  mk::SaveSnapshot(run.GetWorld(), buffer);
  test::StopCountingAllocations();
  CHECK(test::CountedAllocations() == 0);
  CHECK(buffer.size() == size);
}

// Full size: the Box2D benchmark scenes whose state is richest (sleeping, joints, spawning and
// destruction, a large polygon count), snapshots early and late.
TEST_CASE("large_pyramid rain joint_grid smash and tumbler at full size restore bit for bit" *
          doctest::test_suite("long")) {
  for (const char* name : {"large_pyramid", "rain", "joint_grid", "smash", "tumbler"}) {
    const scenes::SceneInfo& info = *scenes::FindScene(name);
    CheckScene(info, {}, {25, 160}, 40, 220);
  }
}

TEST_CASE("every scene at full size restores bit for bit from a snapshot at step 90" *
          doctest::test_suite("long")) {
  for (const scenes::SceneInfo& info : scenes::SceneTable()) {
    CheckScene(info, {}, {90}, 30, 125);
  }
}

}  // TEST_SUITE("scenes.snapshot")
