// SPDX-License-Identifier: MIT
// What minkowski/replay.h keeps behind pointers (so its classes' layout does not depend on the standard
// library's), and the record player that replay.cpp and replay_player.cpp share.
#pragma once

#include "minkowski/replay.h"
#include "world/persistence/replay_format.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mk {

// A loaded Replay's copy of the file.
struct Replay::File {
  std::vector<std::byte> bytes;
};

// The world just after Step record `step`, and where the records stood then.
struct ReplayPlayer::Keyframe {
  std::uint64_t step = 0;
  std::size_t at = 0;
  std::uint64_t recordsDone = 0;
  bool preSolveSet = false;
  std::vector<std::byte> snapshot;
};

// The player's growing arrays.
struct ReplayPlayer::Scratch {
  std::vector<Vec2> chainPoints;                     // for CreateChain records
  std::vector<Keyframe> keyframes;                   // in step order
  std::vector<std::vector<std::byte>> spareBuffers;  // of keyframes thinned out, for the next ones
};

// One record: reads its opcode and arguments and, with a world, makes its call. `preSolve` receives
// a SetPreSolveCallback record's flag (the player installs its own callback). False when the record
// does not decode (unknown opcode, a field outside its encoding, past the end).
bool PlayRecord(ReplayReader& in, World* w, std::vector<Vec2>& chainPoints, ReplayOp& op, bool& preSolve);

}  // namespace mk
