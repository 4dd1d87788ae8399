// SPDX-License-Identifier: MIT
// Scene knobs in the sandbox: each scene's own range, through --settings and through the Scenes
// panel, which clamps them every frame.
#include "panel_harness.h"
#include "settings.h"
#include "view_host.h"

#include <doctest/doctest.h>

#include <cctype>
#include <string>

using namespace mk;
using namespace mk::sandbox;

namespace {

// The first whole number in `text` ("... churning 6076 mixed bodies" -> 6076), or -1.
int FirstNumber(const std::string& text) {
  const size_t at = text.find_first_of("0123456789");
  return at == std::string::npos ? -1 : std::stoi(text.substr(at));
}

}  // namespace

TEST_SUITE("sandbox.scene_knobs") {
// The Scenes panel clamped count to 0..1000 every frame, so spinner restarted with 1,000 bodies.
TEST_CASE("spinner at its default count runs the bodies its description names with the panels drawn") {
  const scenes::SceneInfo& info = *scenes::FindScene("spinner");
  const int described = FirstNumber(info.description);
  REQUIRE(described > 1000);
  ViewHost host;
  std::string error;
  REQUIRE(host.Load("spinner", {}, error));
  test::PanelHarness panels;
  for (int frame = 0; frame < 3; ++frame) panels.Frame(host);
  host.StepOnce();
  // The small bodies, the blade and the ground with the ring.
  CHECK(host.Scene()->Settings().params.count == described);
  CHECK(host.Scene()->GetWorld().GetCounters().bodies == described + 2);
}

TEST_CASE("every scene's default knobs lie in its range and --settings holds the knobs to it") {
  for (const scenes::SceneInfo& info : scenes::SceneTable()) {
    INFO(info.name);
    const scenes::SceneParams most = KnobMaximum(info);
    CHECK(most.size >= info.defaults.size);
    CHECK(most.count >= info.defaults.count);
    CHECK(ClampKnobs(info, info.defaults).size == info.defaults.size);
    CHECK(ClampKnobs(info, info.defaults).count == info.defaults.count);
    CHECK(ClampKnobs(info, {most.size + 1, -1}).size == most.size);
    CHECK(ClampKnobs(info, {most.size + 1, -1}).count == 0);
  }
  ViewHost host;
  std::string error;
  CHECK(host.Load("spinner", {"count=6076"}, error));
  CHECK_FALSE(host.Load("spinner", {"count=6077"}, error));
  CHECK(error.find("6076") != std::string::npos);
  CHECK_FALSE(host.Load("large_pyramid", {"size=1001"}, error));
  CHECK(error.find("1000") != std::string::npos);
  CHECK(host.Load("large_pyramid", {"size=20"}, error));
}
}  // TEST_SUITE("sandbox.scene_knobs")
