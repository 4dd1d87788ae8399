// SPDX-License-Identifier: MIT
// Internal: how far each body of the step is from the ground, counted in contacts (the relax pass's
// shock propagation, docs/design.md "The relax pass from the ground up").
#pragma once

#include "solver/solver_types.h"

#include <cstdint>
#include <span>
#include <vector>

namespace mk {

struct ContactKey;  // contact_solver.h

/// Storage ComputeSupportLevels reuses from step to step (no allocation after warm-up), and the inputs
/// of its last computation: the levels are a function of each contact's two body indices and each
/// body's "never moves", so a step with the same ones keeps the levels it has (a resting pile's
/// contacts and bodies are the same from step to step).
struct SupportLevelScratch {
  std::vector<int> start;  // per body + 1: where its neighbours begin in `neighbours`
  std::vector<int> neighbours;
  std::vector<int> queue;
  std::vector<std::uint64_t> lastPairs;  // per contact key: indexA in the high half, indexB in the low
  std::vector<std::uint8_t> lastFixed;   // per body: 1 for a body that never moves
  bool computed = false;                 // lastPairs and lastFixed hold a computation's inputs
};

/// Each solver body's support level: 0 for a body that never moves (kinematic, or locked on every
/// axis), 1 for a body with a contact with a static or sleeping body (solver index -1) or a level-0
/// body, and otherwise one more than the lowest level among the bodies it has a contact with
/// (a breadth-first search over the step's contacts). A body no such path reaches, such as a pile
/// tumbling in the air, gets kUnsupported. Deterministic: depends only on the keys' order-free
/// contents (the levels are distances). Keys and bodies the same as the last call's, in the same
/// order, with `levels` as that call left them: nothing to do.
void ComputeSupportLevels(std::span<const ContactKey> keys, std::span<const BodyParams> params,
                          std::vector<int>& levels, SupportLevelScratch& scratch);

inline constexpr int kUnsupported = 1 << 30;

/// How much each body of a contact moves in the relax pass's row: 1, and 0 for the support, the body
/// with the lower level of two moving bodies (equal levels, or no levels: both move).
struct RelaxMoves {
  float a = 1.0f, b = 1.0f;
};
inline RelaxMoves RelaxMovesOf(const int* levels, int indexA, int indexB) {
  RelaxMoves moves;
  if (levels == nullptr || indexA < 0 || indexB < 0) return moves;
  const int levelA = levels[indexA], levelB = levels[indexB];
  if (levelA < levelB) moves.a = 0.0f;
  if (levelB < levelA) moves.b = 0.0f;
  return moves;
}

}  // namespace mk
