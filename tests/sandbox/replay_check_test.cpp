// SPDX-License-Identifier: MIT
// The replay's divergence check (ReplayCheck): recordings made in the sandbox name every step's state
// hash, a replay on the same build matches them all, a recording whose hashes differ from this build's
// is caught at the first step that differs, and one without hashes says so.
#include "minkowski/world_vector.h"
#include "panel_text.h"
#include "scene_view.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

const scenes::SceneInfo& Info(const char* name) { return *scenes::FindScene(name); }

// A recording made by hand (as a game or another build would), with `name(step, hash)` naming the
// scene's second body after the build (step 0) and after each of `steps` steps, as the sandbox does;
// an empty name names nothing.
template <class Name>
Replay HandMade(int steps, Name name) {
  scenes::SceneRun run(Info("vertical_stack"), {}, true);
  World& world = run.GetWorld();
  world.SetName(run.State().bodies[0], "scene:vertical_stack");
  for (int step = 0; step <= steps; ++step) {
    if (step > 0) run.Step();
    const std::string text = name(step, world.StateHash());  // step 0: the built state
    if (!text.empty()) world.SetName(run.State().bodies[1], text.c_str());
  }
  Replay replay;
  REQUIRE(Replay::Load(mk::StopRecording(world), replay) == ReplayError::None);
  return replay;
}

void PlayThrough(SceneView& view, int steps) {
  for (int i = 0; i < steps; ++i) view.StepOnce();
}

}  // namespace

TEST_SUITE("sandbox.replay_check") {
TEST_CASE("a sandbox recording with a bomb replays with every step's state hash matching") {
  SceneView view(Info("vertical_stack"), DefaultSettings(Info("vertical_stack")));
  view.StartRecording();
  PlayThrough(view, 20);
  const std::uint64_t liveAt20 = view.GetWorld().StateHash();
  // A bomb between two steps: its records follow step 20's hash name. The check applies that name
  // alone, so the replay still shows the state just after step 20, without the bomb.
  REQUIRE(view.MouseDown({-3.0f, 2.0f}, true));
  view.MouseUp({-1.0f, 2.0f});
  PlayThrough(view, 40);
  Replay replay;
  REQUIRE(Replay::Load(view.StopRecording(), replay) == ReplayError::None);
  view.PlayReplay(std::move(replay));
  PlayThrough(view, 60);
  CHECK(view.Check().hashesRecorded);
  CHECK(view.Check().checkedThrough == 60);
  CHECK(view.Check().divergedAt == 0);
  view.ScrubTo(20);  // back through a keyframe
  CHECK(view.GetWorld().StateHash() == liveAt20);
  PlayThrough(view, 10);
  CHECK(view.Check().divergedAt == 0);
  CHECK(ReplayCheckLines(view.Check(), 30).front().find("60") != std::string::npos);
}

TEST_CASE("recording the hashes leaves the scene's motion as it is") {
  SceneView view(Info("vertical_stack"), DefaultSettings(Info("vertical_stack")));
  view.StartRecording();
  PlayThrough(view, 60);
  scenes::SceneRun plain(Info("vertical_stack"));
  for (int i = 0; i < 60; ++i) plain.Step();
  CHECK(view.GetWorld().StateHash() == plain.GetWorld().StateHash());
}

TEST_CASE("a recording whose hashes differ from this build's diverges at the first step that differs") {
  constexpr int kFirstOff = 17;
  std::vector<std::uint64_t> recordedHashes(31);
  Replay replay = HandMade(30, [&](int step, std::uint64_t hash) {
    recordedHashes[static_cast<size_t>(step)] = hash;
    return StateHashName(step >= kFirstOff ? hash + 1 : hash);  // another build from step 17 on
  });
  SceneView view(Info("vertical_stack"), DefaultSettings(Info("vertical_stack")));
  view.PlayReplay(std::move(replay));
  PlayThrough(view, 30);
  const ReplayCheck& check = view.Check();
  CHECK(check.checkedThrough == 30);
  CHECK(check.divergedAt == kFirstOff);
  CHECK(check.replayed == recordedHashes[kFirstOff]);
  CHECK(check.recorded == recordedHashes[kFirstOff] + 1);
  CHECK(ReplayCheckLines(check, 30).front() == "DIVERGED at step 17");
}

TEST_CASE("a recording that names no hashes is played without a check and says so") {
  SceneView view(Info("vertical_stack"), DefaultSettings(Info("vertical_stack")));
  view.PlayReplay(HandMade(10, [](int, std::uint64_t) { return std::string(); }));
  CHECK(ReplayCheckLines(view.Check(), 0).front().find("from step 1") != std::string::npos);
  PlayThrough(view, 10);
  CHECK_FALSE(view.Check().hashesRecorded);
  CHECK(view.Check().divergedAt == 0);
  CHECK(ReplayCheckLines(view.Check(), 10).front() == "no state hashes in the recording");
}

TEST_CASE("hash names read back and the check's lines fit the panel") {
  for (std::uint64_t hash : {std::uint64_t{0}, std::uint64_t{0x243b131c92aadc1e}, UINT64_MAX}) {
    const std::string name = StateHashName(hash);
    CHECK(name.size() <= static_cast<size_t>(kMaxBodyNameLength));
    std::uint64_t back = 1;
    REQUIRE(ParseStateHashName(name, back));
    CHECK(back == hash);
  }
  std::uint64_t ignored = 0;
  for (const char* other : {"scene:rain", "hash:", "hash:xyz0000000000000", "hash:0123456789abcdef0", ""})
    CHECK_FALSE(ParseStateHashName(other, ignored));
  const ReplayCheck extreme{true, UINT64_MAX, UINT64_MAX, UINT64_MAX, 0};
  for (const ReplayCheck& check : {extreme, ReplayCheck{true, UINT64_MAX}, ReplayCheck{}}) {
    for (const std::string& line : ReplayCheckLines(check, UINT64_MAX))
      CHECK_MESSAGE(line.size() <= static_cast<size_t>(kPanelColumns), "'" << line << "'");
  }
}
}  // TEST_SUITE("sandbox.replay_check")
