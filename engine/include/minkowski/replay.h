// SPDX-License-Identifier: MIT
// Minkowski — record and replay: a versioned, checksummed file of a world's settings and every
// mutating World call (World::StartRecording / StopRecording), and a player that replays it into a
// fresh World, step by step.
//
// What is recorded. Every World call that changes the world, with its arguments bit for bit (floats
// as their bits, whole definitions and geometries, ids): Step, SetGravity, SetSolverSettings, the
// Create* and Destroy* calls (bodies, shapes, chains with their points, joints), every body, shape
// and joint setter, the Apply* calls, Explode, EnablePreSolveEvents, SetContinuousRecording, and
// whether a pre-solve callback is set. Calls the world refuses (a NaN, a stale or foreign id) are
// recorded too: replayed, the world refuses them again with the same documented error.
//
// What is not. Pointers: user data (BodyDef, ShapeDef, ChainDef and joint defs' userData replay as
// null, and SetUserData calls are left out) and the pre-solve callback itself (only that one was set
// or cleared, and when). A world that used a pre-solve callback replays exactly only when the game
// gives the player the same callback (ReplayPlayer::SetPreSolveCallback) before playing. Getters and
// queries change nothing and are not recorded. A World move carries its recording along.
//
// Where a recording starts. World::StartRecording needs a new world: nothing was ever created in it
// (its ids then replay the same), though its gravity and settings may have been changed (the file
// holds them as they were when recording started). Starting from a world with objects needs its
// whole state in the file: the place for a world snapshot, which this format's version 1 has not.
//
// The file (little-endian): magic "MKREPLAY", version (uint32, kReplayVersion), 4 zero bytes, the
// body's size in bytes (uint64) and the FNV-1a 64-bit hash of the body (uint64); then the body:
// flags (uint8: bit 0, a pre-solve callback was set when recording started), gravity and
// SolverSettings, the record count and the Step record count (uint64 each), and the records: an
// opcode byte and its arguments (float: 4 bytes of bits, bool and enums: 1 byte, ints: 4 bytes, ids:
// index, generation and a byte saying whether the id was the recording world's own).
//
// Loading (Replay::Load) validates the whole buffer before anything is used: size, magic, version,
// checksum, and that every record decodes within the buffer with a known opcode, that the counts match
// and stay within kMaxReplayRecords, chains within kMaxReplayChainPoints and the buffer within
// kMaxReplayBytes. A refused buffer changes nothing. Loading allocates a copy of the buffer and a
// chain's points while checking it, both bounded by the buffer's size.
#pragma once

#include "minkowski/export.h"
#include "minkowski/owned_ptr.h"
#include "minkowski/span.h"
#include "minkowski/world.h"

#include <cstddef>
#include <cstdint>

namespace MK_API mk {

/// The format this build writes. It reads it, version 3 (no joint local frames: frameAngleA replays
/// at 0, no SetJointLocalFrameA / B records; no standalone chain segment records: CreateChainSegmentShape,
/// SetChainSegment), version 2 (32-bit filter bits, read zero-extended; no geometry setter records:
/// World::SetCircle and its siblings) and version 1 (also before issue 29's surface materials and joint
/// fields: those replay at their defaults).
inline constexpr std::uint32_t kReplayVersion = 4;
/// Largest replay file accepted (bytes): 1 GiB, about 200 million Step records.
inline constexpr std::uint64_t kMaxReplayBytes = std::uint64_t{1} << 30;
/// Most records a file may claim (each takes at least one byte, so the file size bounds it too).
inline constexpr std::uint64_t kMaxReplayRecords = std::uint64_t{1} << 30;
/// Most points one recorded chain may have (a recording of a longer chain cannot be loaded).
inline constexpr std::uint32_t kMaxReplayChainPoints = 1u << 20;

/// Why a replay buffer or file was refused.
enum class ReplayError : std::uint8_t {
  None = 0,
  Truncated,    ///< shorter than its header, or than the body its header announces
  BadMagic,     ///< not a replay file
  BadVersion,   ///< a version this build does not read
  BadSize,      ///< header size fields disagree with the buffer, or exceed kMaxReplayBytes
  BadChecksum,  ///< the body's hash is not the one in the header
  BadRecord,    ///< a record with an unknown opcode, a field out of its encoding, or past the end
  BadCount,     ///< the record or step counts disagree with the records, or exceed kMaxReplayRecords
  FileError,    ///< the file could not be opened, read or written
};

/// A short English name for the error ("checksum mismatch", ...).
const char* ToString(ReplayError error);

/// A validated recording: a copy of the file's bytes and what its header says.
class Replay {
 public:
  Replay();   ///< invalid: no recording loaded
  ~Replay();  ///< frees the copy of the file
  /// Copies duplicate the file's bytes (in the library); moves take them over. @{
  Replay(const Replay& other);
  Replay& operator=(const Replay& other);
  Replay(Replay&& other) noexcept;
  Replay& operator=(Replay&& other) noexcept;
  ///@}

  /// Validates `bytes` (see the file comment) and, when they are a valid recording, makes `out` a
  /// copy of them. On an error `out` is left as it was.
  static ReplayError Load(Span<const std::byte> bytes, Replay& out);
  /// Reads a file (at most kMaxReplayBytes, checked before reading) and loads it as Load does.
  static ReplayError LoadFile(const char* path, Replay& out);

  /// True once a valid recording was loaded.
  bool IsValid() const { return file_ != nullptr; }
  /// The world's gravity and solver settings when recording started.
  const WorldDef& GetWorldDef() const { return def_; }
  /// A pre-solve callback was set when recording started.
  bool StartsWithPreSolveCallback() const { return startsWithPreSolve_; }
  /// Records in the file (every recorded call, Steps included).
  std::uint64_t RecordCount() const { return recordCount_; }
  /// Step records in the file.
  std::uint64_t StepCount() const { return stepCount_; }
  /// The whole file (empty when invalid), owned by this Replay: valid while it lives unchanged.
  Span<const std::byte> Bytes() const;

  struct File;  ///< internal (engine/src/world/persistence): the bytes

 private:
  friend class ReplayPlayer;
  OwnedPtr<File> file_;  // null until a recording is loaded
  WorldDef def_{};
  bool startsWithPreSolve_ = false;
  std::uint64_t recordCount_ = 0;
  std::uint64_t stepCount_ = 0;
  std::size_t firstRecord_ = 0;             // byte offset of the first record
  std::uint32_t version_ = kReplayVersion;  // of the file (1 to kReplayVersion)
};

/// Writes a recording (World::StopRecording's bytes) to a file. FileError when it cannot.
ReplayError SaveReplayFile(const char* path, Span<const std::byte> bytes);

/// Plays a Replay into its own World, record by record, so a tool can scrub: StepTo(k) leaves the
/// world just after the k-th recorded Step, the state the recorded world had then (equal StateHash).
///
/// Keyframes make scrubbing cheap both ways. While playing forward the player keeps a world snapshot
/// (World::SaveSnapshot) every `interval` steps; StepTo restores the latest keyframe at or before its
/// target whenever that is nearer than where the world stands (going back, or jumping far ahead over
/// steps already played) and replays the records after it. Restoring a snapshot and replaying on
/// gives the same state bit for bit as replaying from the start. Memory is bounded: when
/// `maxKeyframes` are held, every second one is dropped and the interval doubles, so a long replay
/// keeps keyframes spread over all of it. Defaults: every 60 steps, at most 32 (large_pyramid's
/// snapshot is about 5 MB, so at most about 160 MB there).
class ReplayPlayer {
 public:
  static constexpr std::uint64_t kDefaultKeyframeInterval = 60;  ///< steps between keyframes at first
  static constexpr int kDefaultMaxKeyframes = 32;                ///< keyframes held at most

  /// A new World from the replay's WorldDef, no record applied yet.
  explicit ReplayPlayer(Replay replay);
  ~ReplayPlayer();  ///< destroys its World and keyframes
  /// Moving transfers the World (as World's move) and the keyframes; the moved-from player may only
  /// be destroyed or assigned to. @{
  ReplayPlayer(ReplayPlayer&& other);
  ReplayPlayer& operator=(ReplayPlayer&& other);
  ///@}

  /// The callback (and context) the player installs wherever the recording had one set. Without it,
  /// a recording made with a pre-solve callback replays without one (and is then not exact).
  void SetPreSolveCallback(PreSolveFn fn, void* context);
  /// The same with any callable that receives the world (World::SetPreSolveCallback's second form):
  /// it is handed the player's world (GetWorld()).
  void SetPreSolveCallback(PreSolveCallable fn);

  /// The world being replayed into. Its ids differ from the recorded world's only in their world tag.
  ///@{
  World& GetWorld() { return world_; }
  const World& GetWorld() const { return world_; }
  ///@}
  /// The replay being played.
  const Replay& GetReplay() const { return replay_; }

  /// Step records in the file, and those applied so far.
  ///@{
  std::uint64_t StepCount() const { return replay_.StepCount(); }
  std::uint64_t CurrentStep() const { return stepsDone_; }
  ///@}
  /// Every record was applied.
  bool AtEnd() const { return recordsDone_ == replay_.RecordCount(); }

  /// Keyframe spacing in steps (0: no keyframes; going back then replays from the start) and the
  /// most keyframes held (at least 2). Drops the keyframes held so far.
  void SetKeyframes(std::uint64_t interval, int maxKeyframes);
  /// Keyframes held now, their bytes, and the current spacing (steps; doubles as they thin out).
  ///@{
  int KeyframeCount() const;
  std::size_t KeyframeBytes() const;
  std::uint64_t KeyframeInterval() const { return interval_; }
  ///@}
  /// Records applied since the player was made (counts replayed work, for tests and tools).
  std::uint64_t RecordsApplied() const { return recordsApplied_; }

  /// Applies the next record; false at the end.
  bool ApplyNext();
  /// Applies records until `step` Step records were applied (stopping right after that one); a
  /// `step` beyond StepCount() applies every record. Going back (step < CurrentStep()) restores the
  /// nearest keyframe at or before `step`, or restarts when there is none.
  void StepTo(std::uint64_t step);
  /// Applies the records before the next Step record (at the start: the calls that built the
  /// world), so a viewer shows the world as the next step finds it. Stops at the end.
  void ApplyUntilNextStep();
  /// Applies every record left, calls after the last Step included.
  void PlayToEnd();
  /// A fresh World, no record applied.
  void Restart();

 private:
  Replay replay_;
  World world_;
  std::size_t at_ = 0;  // byte offset of the next record
  std::uint64_t recordsDone_ = 0;
  std::uint64_t stepsDone_ = 0;
  bool preSolveSet_ = false;   // the recording's callback is set at this point
  PreSolveCallable preSolve_;  // the game's callback (SetPreSolveCallback), installed where preSolveSet_
  void InstallPreSolve() { world_.SetPreSolveCallback(preSolveSet_ ? preSolve_ : PreSolveCallable{}); }

 public:
  struct Keyframe;  ///< internal (engine/src/world/persistence): a world kept at a step
  struct Scratch;   ///< internal: the keyframes and the players' other growing arrays

 private:
  void MaybeKeepKeyframe();
  void RestoreKeyframe(const Keyframe& keyframe);
  OwnedPtr<Scratch> scratch_;  // never null (but in a moved-from player)
  std::uint64_t interval_ = kDefaultKeyframeInterval;
  int maxKeyframes_ = kDefaultMaxKeyframes;
  std::uint64_t recordsApplied_ = 0;
};

}  // namespace mk
