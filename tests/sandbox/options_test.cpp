// SPDX-License-Identifier: MIT
#include "options.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace mk::sandbox;

namespace {
ParsedArguments Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "sandbox");
  return ParseArguments(static_cast<int>(args.size()), args.data());
}
}  // namespace

TEST_SUITE("sandbox.options") {

TEST_CASE("no arguments open the interactive window until it is closed") {
  ParsedArguments parsed = Parse({});
  REQUIRE(parsed.ok);
  CHECK_FALSE(parsed.options.headless);
  CHECK(parsed.options.frames == 0);
  CHECK(parsed.options.screenshotPath.empty());
}

TEST_CASE("the headless form is parsed in any order") {
  ParsedArguments parsed = Parse({"--screenshot", "out.png", "--frames", "30", "--headless"});
  REQUIRE(parsed.ok);
  CHECK(parsed.options.headless);
  CHECK(parsed.options.frames == 30);
  CHECK(parsed.options.screenshotPath == "out.png");
}

TEST_CASE("the window size and the layout options are parsed") {
  ParsedArguments parsed = Parse({"--window", "900x560", "--expand-panels", "--check-layout", "--print-fps",
                                  "--paused", "--print-hash"});
  REQUIRE(parsed.ok);
  CHECK(parsed.options.windowWidth == 900);
  CHECK(parsed.options.windowHeight == 560);
  CHECK(parsed.options.expandPanels);
  CHECK(parsed.options.checkLayout);
  CHECK(parsed.options.printFps);
  CHECK(parsed.options.paused);
  CHECK(parsed.options.printHash);
  CHECK_FALSE(Parse({}).options.printHash);
  ParsedArguments defaults = Parse({});
  CHECK(defaults.options.windowWidth == kWindowWidth);
  CHECK(defaults.options.windowHeight == kWindowHeight);
  for (const char* bad :
       {"900", "900x", "x560", "900x560x2", "639x400", "640x399", "-900x560", "20000x600", ""}) {
    CAPTURE(bad);
    CHECK_FALSE(Parse({"--window", bad}).ok);
  }
  CHECK_FALSE(Parse({"--window"}).ok);
  CHECK(Parse({"--window", "640x400"}).ok);
}

TEST_CASE("bad arguments are refused with a reason") {
  CHECK_FALSE(Parse({"--frames"}).ok);
  CHECK_FALSE(Parse({"--frames", "0"}).ok);
  CHECK_FALSE(Parse({"--frames", "-3"}).ok);
  CHECK_FALSE(Parse({"--frames", "12x"}).ok);
  CHECK_FALSE(Parse({"--frames", "99999999999999"}).ok);
  CHECK_FALSE(Parse({"--screenshot"}).ok);
  CHECK_FALSE(Parse({"--screenshot", ""}).ok);
  CHECK_FALSE(Parse({"--fullscreen"}).ok);
  ParsedArguments endless = Parse({"--headless"});
  CHECK_FALSE(endless.ok);
  CHECK(endless.error.find("--frames") != std::string::npos);
}

TEST_CASE("a recording or a replay file is named and never both") {
  ParsedArguments record = Parse({"--scene", "rain", "--record", "run.mkreplay"});
  REQUIRE(record.ok);
  CHECK(record.options.recordPath == "run.mkreplay");
  ParsedArguments replay = Parse({"--replay", "run.mkreplay", "--headless", "--frames", "3"});
  REQUIRE(replay.ok);
  CHECK(replay.options.replayPath == "run.mkreplay");
  CHECK_FALSE(Parse({"--record"}).ok);
  CHECK_FALSE(Parse({"--replay", ""}).ok);
  CHECK_FALSE(Parse({"--record", "a", "--replay", "b"}).ok);
}

TEST_CASE("the usage text shows the headless form") {
  CHECK(UsageText("sandbox").find("--headless --frames N --screenshot out.png") != std::string::npos);
}

// --print-fps printed the whole run's median (smash: 49.7 while the panel showed 12 to 13).
TEST_CASE("the fps report gives the recent frames' rate besides the whole run's") {
  std::vector<double> frames(kFpsWarmUpFrames, 1.0);    // slow warm-up frames: left out
  frames.insert(frames.end(), 200, 0.02);               // 50 fps for most of the run
  frames.insert(frames.end(), kFpsRecentFrames, 0.08);  // then 12.5 fps
  const std::string report = FpsReport(frames, "smash");
  CHECK(report.find("fps: 12.5 over the last 60 frames") == 0);
  CHECK(report.find("50.0 over the run") != std::string::npos);
  CHECK(report.find("smash") != std::string::npos);
  CHECK(FpsReport(std::vector<double>(kFpsWarmUpFrames, 0.01), "x").find("too few frames") !=
        std::string::npos);
  // A short run: the recent window is the whole run.
  CHECK(FpsReport(std::vector<double>(kFpsWarmUpFrames + 5, 0.025), "x")
            .find("fps: 40.0 over the last 5 frames") == 0);
}

// The browser page reads these figures as numbers (app.cpp, mk_web_status).
TEST_CASE("the frame-time medians leave out the warm-up and take the recent window") {
  CHECK_FALSE(MeasureFrameTimes(std::vector<double>(kFpsWarmUpFrames, 0.01)).ok);
  std::vector<double> frames(kFpsWarmUpFrames, 1.0);
  for (int i = 0; i < 100; ++i) frames.push_back(i % 2 == 0 ? 0.02 : 0.03);  // run median: 0.02 or 0.03
  frames.insert(frames.end(), kFpsRecentFrames - 1, 0.05);
  frames.push_back(0.5);  // one slow frame does not move a median
  const FrameTimes times = MeasureFrameTimes(frames);
  REQUIRE(times.ok);
  CHECK(times.recentFrames == kFpsRecentFrames);
  CHECK(times.runFrames == 100 + kFpsRecentFrames);
  CHECK(times.recentMedian == doctest::Approx(0.05));
  CHECK(times.runMedian == doctest::Approx(0.03));  // 50 at 0.02, 50 at 0.03, 60 above: the middle is 0.03
}
}  // TEST_SUITE("sandbox.options")
