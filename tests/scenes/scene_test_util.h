// SPDX-License-Identifier: MIT
// Helpers for the scene tests: run a scene, read every live body's state.
#pragma once

#include "scenes.h"
#include "world/world_state.h"

#include <algorithm>

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

}  // namespace mk::test
