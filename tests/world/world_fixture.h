// SPDX-License-Identifier: MIT
// Helpers for world tests: an assert counter and small scene builders.
#pragma once

#include "minkowski/assert.h"
#include "minkowski/replay.h"
#include "minkowski/world.h"
#include "minkowski/world_vector.h"

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace mk::test {

/// Counts MK_ASSERT failures while alive (and silences the default handler's output).
class AssertCounter {
 public:
  AssertCounter() : previous_(SetAssertHandler(&Count)) { count_ = 0; }
  ~AssertCounter() { SetAssertHandler(previous_); }
  int Count() const { return count_; }

 private:
  static void Count(const char*, const char*, int) { ++count_; }
  static inline int count_ = 0;
  AssertHandler previous_;
};

/// Static ground: a box 100 m wide whose top surface is y = 0.
inline BodyId AddGround(World& world, float friction = 0.6f) {
  BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(ground, {.friction = friction}, MakeBox(50.0f, 1.0f).value);
  return ground;
}

/// Dynamic box with half extent h at `position`.
inline BodyId AddBox(World& world, Vec2 position, float h = 0.5f, ShapeDef shape = {}) {
  BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = position});
  world.CreateShape(body, shape, MakeBox(h, h).value);
  return body;
}

/// Stops the world's recording, loads it (REQUIRE: no error) and plays it to its end: a player whose
/// world should now equal `world`.
inline ReplayPlayer ReplayToEnd(World& world) {
  const std::vector<std::byte> recording = mk::StopRecording(world);
  Replay replay;
  REQUIRE(Replay::Load(recording, replay) == ReplayError::None);
  ReplayPlayer player(std::move(replay));
  player.PlayToEnd();
  return player;
}

/// Replays step by step; the number of steps whose hash differs from the recorded one.
inline int ReplayMismatches(ReplayPlayer& player, const std::vector<std::uint64_t>& hashes) {
  int mismatches = 0;
  for (std::size_t k = 1; k <= hashes.size(); ++k) {
    player.StepTo(k);
    mismatches += player.GetWorld().StateHash() == hashes[k - 1] ? 0 : 1;
  }
  return mismatches;
}

}  // namespace mk::test
