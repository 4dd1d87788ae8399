// SPDX-License-Identifier: MIT
// Helpers for the scene tests: run a scene, read every live body's state.
#pragma once

#include "scenes.h"
#include "world/world_state.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace mk::test {

/// Steps `run` `steps` more times (scene callback + World::Step each).
inline void StepScene(scenes::SceneRun& run, int steps) {
  for (int i = 0; i < steps; ++i) run.Step();
}

/// True when every live body of the world has a finite position, rotation and velocity.
inline bool AllBodiesFinite(const World& world) {
  const WorldState& state = world.State();
  for (int slot = 0; slot < state.bodyIds.Capacity(); ++slot) {
    if (!state.bodyIds.IsLive(slot)) continue;
    const Body& b = state.bodies[static_cast<std::size_t>(slot)];
    if (!IsFinite(b.xf.p) || !IsFinite(b.xf.q.c) || !IsFinite(b.xf.q.s) || !IsFinite(b.linearVelocity) ||
        !IsFinite(b.angularVelocity)) {
      return false;
    }
  }
  return true;
}

/// The scene's default knobs shrunk to a few dozen bodies, for the sanitizer pass.
inline scenes::SceneParams SmallParams(const scenes::SceneInfo& info) {
  scenes::SceneParams p = scenes::ResolveParams(info, {});
  if (p.size > 0) p.size = std::min(p.size, 8);
  if (p.count > 0) p.count = std::min(p.count, 2);
  return p;
}

/// The step's observable result: the state hash, then every event list in order (ids and counts).
inline std::uint64_t StepDigest(const World& world) {
  std::uint64_t h = world.StateHash();
  auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  for (const ContactBeginEvent& e : world.GetContactBeginEvents())
    mix(e.contact.index1 ^ (std::uint64_t{e.shapeA.index1} << 32));
  for (const ContactEndEvent& e : world.GetContactEndEvents())
    mix(e.shapeB.index1 ^ (std::uint64_t{e.shapeA.index1} << 32));
  for (const ContactHitEvent& e : world.GetContactHitEvents()) mix(e.contact.index1);
  for (const SensorBeginEvent& e : world.GetSensorBeginEvents()) mix(e.visitorShape.index1 + 7);
  for (const SensorEndEvent& e : world.GetSensorEndEvents()) mix(e.visitorShape.index1 + 11);
  // The move events, written on the workers: each body's id, final transform (its bytes) and sleep.
  for (const BodyMoveEvent& e : world.GetBodyMoveEvents()) {
    std::uint32_t words[sizeof(WorldTransform) / 4];
    static_assert(sizeof(WorldTransform) % 4 == 0);
    std::memcpy(words, &e.transform, sizeof(words));
    mix(e.body.index1 + (e.fellAsleep ? 1ull << 40 : 0));
    for (std::uint32_t w : words) mix(w);
  }
  mix(static_cast<std::uint64_t>(world.GetCounters().touchingContacts));
  return h;
}

}  // namespace mk::test
