// SPDX-License-Identifier: MIT
// Internal: the recording a World writes while World::StartRecording is on (minkowski/replay.h).
// World API entries call RecordCall first thing; with no recorder that is one null test.
#pragma once

#include "world/persistence/replay_format.h"

#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace mk {

class Recorder {
 public:
  /// Starts an empty recording of a world with this tag, gravity, settings and callback state.
  Recorder(std::uint32_t tag, Vec2 gravity, Pos origin, const SolverSettings& settings, bool preSolveSet);

  /// Appends one record: the opcode, then each argument (definitions through their Fields).
  template <class... Args>
  void Write(ReplayOp op, const Args&... args) {
    ReplayWriter out(records_, tag_);
    out(static_cast<std::uint8_t>(op));
    (Put(out, args), ...);
    ++recordCount_;
    if (op == ReplayOp::Step) ++stepCount_;
  }

  /// The whole file: header, settings, counts and the records so far.
  std::vector<std::byte> File() const;

 private:
  template <class T>
  static void Put(ReplayWriter& out, const T& value) {
    if constexpr (requires { out(value); }) {
      out(value);
    } else if constexpr (std::is_same_v<T, ChainDef>) {
      out(static_cast<std::uint32_t>(value.points.size()));  // kMaxReplayChainPoints applies on loading
      for (Vec2 p : value.points) out(p);
      Fields(out, value);
      out(static_cast<std::uint32_t>(value.materials.size()));
      for (const SurfaceMaterial& m : value.materials) Fields(out, m);
    } else {
      Fields(out, value);
    }
  }

  std::uint32_t tag_;
  Vec2 gravity_;
  Pos origin_;  // WorldDef::origin (recorded by the large-world build only)
  SolverSettings settings_;
  bool preSolveSet_;
  std::vector<std::byte> records_;
  std::uint64_t recordCount_ = 0;
  std::uint64_t stepCount_ = 0;
};

/// Detaches the recorder for the scope of a call that makes other World calls (ApplyForceToCenter,
/// Explode): the call itself is the record.
class PauseRecording {
 public:
  explicit PauseRecording(OwnedPtr<Recorder>& slot) : slot_(slot), held_(std::move(slot)) {}
  ~PauseRecording() { slot_ = std::move(held_); }
  PauseRecording(const PauseRecording&) = delete;
  PauseRecording& operator=(const PauseRecording&) = delete;

 private:
  OwnedPtr<Recorder>& slot_;
  OwnedPtr<Recorder> held_;
};

/// Records the call when `recorder` is non-null (World::recorder_).
template <class... Args>
inline void RecordCall(Recorder* recorder, ReplayOp op, const Args&... args) {
  if (recorder != nullptr) [[unlikely]]
    recorder->Write(op, args...);
}

}  // namespace mk
