// SPDX-License-Identifier: MIT
// The replay player (minkowski/replay.h): plays a loaded recording's records into its own World
// (PlayRecord, replay.cpp) and keeps the keyframes that make scrubbing cheap.
#include "minkowski/assert.h"
#include "minkowski/replay.h"
#include "minkowski/world_vector.h"
#include "world/persistence/replay_format.h"
#include "world/persistence/replay_internal.h"
#include "world/world_state.h"

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

namespace mk {

// --- Playing ---------------------------------------------------------------------------------------

ReplayPlayer::ReplayPlayer(Replay replay)
    : replay_(std::move(replay)), world_(replay_.GetWorldDef()), scratch_(OwnedPtr<Scratch>(new Scratch())) {
  Restart();
}

ReplayPlayer::~ReplayPlayer() = default;
ReplayPlayer::ReplayPlayer(ReplayPlayer&&) = default;
ReplayPlayer& ReplayPlayer::operator=(ReplayPlayer&&) = default;

int ReplayPlayer::KeyframeCount() const { return static_cast<int>(scratch_->keyframes.size()); }

void ReplayPlayer::SetPreSolveCallback(PreSolveFn fn, void* context) {
  if (fn == nullptr) return SetPreSolveCallback(PreSolveCallable{});
  SetPreSolveCallback(
      [fn, context](const World&, ShapeId a, ShapeId b, const Manifold& m) { return fn(a, b, m, context); });
}

void ReplayPlayer::SetPreSolveCallback(PreSolveCallable fn) {
  preSolve_ = std::move(fn);
  if (preSolveSet_) InstallPreSolve();
}

void ReplayPlayer::Restart() {
  world_ = World(replay_.GetWorldDef());
  at_ = replay_.firstRecord_;
  recordsDone_ = 0;
  stepsDone_ = 0;
  preSolveSet_ = replay_.StartsWithPreSolveCallback();
  if (preSolveSet_) InstallPreSolve();
}

bool ReplayPlayer::ApplyNext() {
  if (AtEnd()) return false;
  const Span<const std::byte> bytes = replay_.Bytes();
  ReplayReader in(std::span<const std::byte>(bytes.data(), bytes.size()), at_, world_.State().tag);
  in.version = replay_.version_;
  ReplayOp op{};
  bool preSolve = false;
  const bool decoded = PlayRecord(in, &world_, scratch_->chainPoints, op, preSolve);
  MK_ASSERT(decoded);  // Replay::Load checked every record
  at_ = in.Offset();
  ++recordsDone_;
  ++recordsApplied_;
  if (op == ReplayOp::SetPreSolveCallback) {
    preSolveSet_ = preSolve;
    InstallPreSolve();
  }
  if (op == ReplayOp::Step) {
    ++stepsDone_;
    MaybeKeepKeyframe();
  }
  return true;
}

void ReplayPlayer::SetKeyframes(std::uint64_t interval, int maxKeyframes) {
  interval_ = interval;
  maxKeyframes_ = std::max(maxKeyframes, 2);
  scratch_->keyframes.clear();
  scratch_->spareBuffers.clear();
}

std::size_t ReplayPlayer::KeyframeBytes() const {
  std::size_t bytes = 0;
  for (const Keyframe& k : scratch_->keyframes) bytes += k.snapshot.size();
  return bytes;
}

// Called right after a Step record: keeps the world when the step is on the interval and past every
// keyframe held (steps replayed again after going back are already covered).
void ReplayPlayer::MaybeKeepKeyframe() {
  if (interval_ == 0 || stepsDone_ % interval_ != 0) return;
  if (!scratch_->keyframes.empty() && scratch_->keyframes.back().step >= stepsDone_) return;
  if (static_cast<int>(scratch_->keyframes.size()) == maxKeyframes_) {
    // Thin out: keep the keyframes on the doubled interval; the others' buffers become spares.
    interval_ *= 2;
    std::vector<Keyframe> kept;
    kept.reserve(scratch_->keyframes.size());
    for (Keyframe& k : scratch_->keyframes) {
      if (k.step % interval_ == 0) {
        kept.push_back(std::move(k));
      } else {
        scratch_->spareBuffers.push_back(std::move(k.snapshot));
      }
    }
    scratch_->keyframes = std::move(kept);
    if (stepsDone_ % interval_ != 0) return;
  }
  // A buffer that already holds memory: a snapshot is megabytes, and growing a fresh vector to that
  // size costs page faults that dwarf the copy (about 100 ms for smash's 17 MB on a virtual machine,
  // against 3 ms into a reused buffer). New buffers are reserved at the last snapshot's size.
  std::vector<std::byte> buffer;
  if (!scratch_->spareBuffers.empty()) {
    buffer = std::move(scratch_->spareBuffers.back());
    scratch_->spareBuffers.pop_back();
  } else if (!scratch_->keyframes.empty()) {
    const std::size_t last = scratch_->keyframes.back().snapshot.size();
    buffer.reserve(last + last / 8);
  }
  mk::SaveSnapshot(world_, buffer);
  scratch_->keyframes.push_back({stepsDone_, at_, recordsDone_, preSolveSet_, std::move(buffer)});
}

void ReplayPlayer::RestoreKeyframe(const Keyframe& keyframe) {
  const SnapshotResult restored = world_.RestoreSnapshot(keyframe.snapshot);
  MK_ASSERT(restored.ok());  // the player's own world saved it
  if (!restored.ok()) {
    Restart();
    return;
  }
  at_ = keyframe.at;
  recordsDone_ = keyframe.recordsDone;
  stepsDone_ = keyframe.step;
  preSolveSet_ = keyframe.preSolveSet;
  InstallPreSolve();
}

void ReplayPlayer::StepTo(std::uint64_t step) {
  const std::uint64_t target = std::min(step, replay_.StepCount());
  // The latest keyframe at or before the target, used when it is ahead of the world or the world
  // must go back.
  const Keyframe* nearest = nullptr;
  for (const Keyframe& k : scratch_->keyframes) {
    if (k.step > target) break;
    nearest = &k;
  }
  const bool back = target < stepsDone_;
  if (nearest != nullptr && (back || nearest->step > stepsDone_)) {
    RestoreKeyframe(*nearest);
  } else if (back) {
    Restart();
  }
  while (stepsDone_ < step && ApplyNext()) {
  }
}

void ReplayPlayer::ApplyUntilNextStep() {
  // A record starts with its opcode byte (Replay::Load checked every one).
  while (!AtEnd() && static_cast<ReplayOp>(replay_.Bytes()[at_]) != ReplayOp::Step && ApplyNext()) {
  }
}

void ReplayPlayer::PlayToEnd() {
  while (ApplyNext()) {
  }
}

}  // namespace mk
