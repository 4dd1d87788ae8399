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
  ParsedArguments parsed =
      Parse({"--window", "900x560", "--expand-panels", "--check-layout", "--print-fps", "--paused"});
  REQUIRE(parsed.ok);
  CHECK(parsed.options.windowWidth == 900);
  CHECK(parsed.options.windowHeight == 560);
  CHECK(parsed.options.expandPanels);
  CHECK(parsed.options.checkLayout);
  CHECK(parsed.options.printFps);
  CHECK(parsed.options.paused);
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

}  // TEST_SUITE("sandbox.options")
