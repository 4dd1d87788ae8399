// The hard-case scenes (stacking, robustness, continuous, joints): what each must let us measure is
// there (joints recorded for the joint error, sensors that fire), and the figures that hold today
// keep holding (no body lost, a resting box sleeps on time). The full figures table is in
// docs/benchmarks.md ("Hard-case scenes: figures").
#include "scene_figures.h"
#include "scene_test_util.h"

#include <doctest/doctest.h>

#include <string>
#include <string_view>

using namespace mk;
using scenes::SceneFigures;
using scenes::SceneInfo;
using scenes::SceneRun;

namespace {

bool IsHardCase(const SceneInfo& info) {
  const std::string_view category = info.category;
  return category != "benchmark" && category != "stress";
}

}  // namespace

TEST_SUITE("scenes.hard_cases") {

TEST_CASE("no hard-case scene loses a body over its full run and every state stays finite") {
  int scenesRun = 0;
  for (const SceneInfo& info : scenes::SceneTable()) {
    if (!IsHardCase(info)) continue;
    const std::string sceneName = info.name;
    CAPTURE(sceneName);
    SceneRun run(info);
    const SceneFigures f = scenes::MeasureFigures(run, info.defaultSteps);
    CHECK(f.escaped == 0);
    CHECK(test::AllBodiesFinite(run.GetWorld()));
    ++scenesRun;
  }
  CHECK(scenesRun >= 30);
}

TEST_CASE("the jointed hard cases record every point joint for the joint error") {
  for (const char* name : {"cart", "soft_body", "pinball"}) {
    const std::string sceneName = name;
    CAPTURE(sceneName);
    SceneRun run(*scenes::FindScene(name));
    CHECK(run.State().pointJoints.size() == run.State().joints.size());
    CHECK(!run.State().joints.empty());
    const SceneFigures built = scenes::FiguresProbe(run).Finish(run);
    CHECK(built.jointError < 1e-4f);  // every joint is made with its anchors together
  }
}

TEST_CASE("single_box rests where it was put and sleeps after timeToSleep") {
  SceneRun run(*scenes::FindScene("single_box"));
  const SceneFigures f = scenes::MeasureFigures(run, run.Info().defaultSteps);
  CHECK(f.maxPenetration < 0.005f);
  CHECK(std::abs(f.topDrift) < 0.005f);
  CHECK(f.sideDrift < 1e-4f);
  CHECK(f.sleepStep >= 30);
  CHECK(f.sleepStep <= 40);
}

TEST_CASE("the capsule of sensor_coins at 80 m/s enters and leaves each of the five coins") {
  SceneRun run(*scenes::FindScene("sensor_coins"));
  int begins = 0, ends = 0;
  for (int i = 0; i < run.Info().defaultSteps; ++i) {
    run.Step();
    begins += static_cast<int>(run.GetWorld().GetSensorBeginEvents().size());
    ends += static_cast<int>(run.GetWorld().GetSensorEndEvents().size());
  }
  CHECK(begins == 5);
  CHECK(ends == 5);
}

}  // TEST_SUITE("scenes.hard_cases")
