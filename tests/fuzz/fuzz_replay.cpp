// SPDX-License-Identifier: MIT
// libFuzzer target for the replay loader (minkowski/replay.h): the first byte's bit 0 says whether to
// write the right checksum into the rest before loading (so mutations reach the record decoder, not
// only the checksum test); the rest is the replay file. A load must either be refused or give a
// replay that plays to its end with every body finite, and scrubbing through keyframes (one kept
// every step, thinned to four) must give the states of a plain replay: going back to the middle
// step equals a player without keyframes there, and playing on ends on the same state. A crash, a
// hang (-timeout), a sanitizer report, an allocation beyond -rss_limit_mb or -malloc_limit_mb, a
// non-finite body or a state that differs is a failure.
// MK_ASSERT failures are expected (a corrupt file replays refused calls) and are silenced.
// A failure also prints the input in base64 on one line, so that a CI log (which keeps no files) is
// enough to reproduce it: base64 -d > crash <<< '...' && build/fuzz/tests/fuzz/fuzz_replay crash
//
//   CXX=clang++ cmake -S . -B build/h-fuzz -DMK_BUILD_FUZZ=ON -DMK_BUILD_SANDBOX=OFF -DMK_SANITIZE=ON
//   cmake --build build/h-fuzz --target fuzz_replay -j2
//   build/h-fuzz/tests/fuzz/fuzz_replay -max_total_time=60 -timeout=10 /tmp/replay-corpus
#include "minkowski/assert.h"
#include "minkowski/replay.h"
#include "world/persistence/replay_format.h"
#include "world/world_state.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

bool AllFinite(const mk::World& world) {
  const mk::WorldState& state = world.State();
  for (int slot = 0; slot < state.bodyIds.Capacity(); ++slot) {
    if (!state.bodyIds.IsLive(slot)) continue;
    const mk::Body& b = state.bodies[static_cast<std::size_t>(slot)];
    if (!mk::IsFinite(b.xf.p) || !std::isfinite(b.xf.q.c) || !std::isfinite(b.xf.q.s) ||
        !mk::IsFinite(b.linearVelocity) || !std::isfinite(b.angularVelocity)) {
      return false;
    }
  }
  return true;
}

// The input being run, for Fail.
const std::uint8_t* g_input = nullptr;
std::size_t g_inputSize = 0;

void PrintBase64(const std::uint8_t* data, std::size_t size) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (std::size_t i = 0; i < size; i += 3) {
    const std::size_t n = size - i < 3 ? size - i : 3;
    std::uint32_t bits = static_cast<std::uint32_t>(data[i]) << 16;
    if (n > 1) bits |= static_cast<std::uint32_t>(data[i + 1]) << 8;
    if (n > 2) bits |= data[i + 2];
    for (std::size_t k = 0; k < 4; ++k)
      std::fputc(k <= n ? kDigits[(bits >> (18 - 6 * k)) & 63] : '=', stderr);
  }
  std::fputc('\n', stderr);
}

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_replay: %s\nfuzz_replay: the input, %zu bytes, base64: ", what, g_inputSize);
  PrintBase64(g_input, g_inputSize);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const mk::AssertHandler previous = mk::SetAssertHandler([](const char*, const char*, int) {});
  (void)previous;
  if (size == 0) return 0;
  g_input = data;
  g_inputSize = size;
  std::vector<std::byte> file(size - 1);
  for (std::size_t i = 1; i < size; ++i) file[i - 1] = static_cast<std::byte>(data[i]);
  if ((data[0] & 1) != 0 && file.size() >= mk::kReplayHeaderBytes) {
    const std::uint64_t sum =
        mk::ReplayChecksum(std::span<const std::byte>(file).subspan(mk::kReplayHeaderBytes));
    for (int i = 0; i < 8; ++i)
      file[24 + static_cast<std::size_t>(i)] = static_cast<std::byte>((sum >> (8 * i)) & 0xFF);
  }
  mk::Replay replay;
  if (mk::Replay::Load(file, replay) != mk::ReplayError::None) {
    if (replay.IsValid()) Fail("a refused load changed the replay");
    return 0;
  }
  const std::uint64_t middle = replay.StepCount() / 2;
  mk::ReplayPlayer plain(replay);
  plain.SetKeyframes(0, 2);
  plain.StepTo(middle);
  const std::uint64_t middleHash = plain.GetWorld().StateHash();
  mk::ReplayPlayer player(std::move(replay));
  player.SetKeyframes(1, 4);
  player.PlayToEnd();
  if (!AllFinite(player.GetWorld())) Fail("a non-finite body after the replay");
  const std::uint64_t endHash = player.GetWorld().StateHash();
  player.StepTo(middle);
  if (player.GetWorld().StateHash() != middleHash) Fail("going back through keyframes gave another state");
  player.PlayToEnd();
  if (player.GetWorld().StateHash() != endHash) Fail("playing on from a keyframe ended on another state");
  return 0;
}
