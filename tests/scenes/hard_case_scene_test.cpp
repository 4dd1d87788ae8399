// SPDX-License-Identifier: MIT
// The hard-case scenes (stacking, robustness, continuous, joints): what each must let us measure is
// there (joints recorded for the joint error, sensors that fire), and the figures that hold today
// keep holding (no body lost, a resting box sleeps on time). The full figures table is in
// docs/benchmarks.md ("Hard-case scenes: figures").
#include "scene_figures.h"
#include "scene_test_util.h"

#include <doctest/doctest.h>

#include <cmath>
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

// Issue 28's bars: Box2D v3's figures for the same samples (60 Hz, 4 sub-steps, the aligned defaults),
// with 20% tolerance. Soft Body: 7 capsules welded in a ring with 5 Hz angular springs, landing at
// 13 m/s; the continuous stage moved the first capsule to hit back alone and tore the welds (0.48 m
// in a ring of our own, 0.22 m here) where v3 opens them 77 mm and sleeps at step 484.
TEST_CASE("soft_body keeps its welds within Box2D v3's opening and sleeps") {
  SceneRun run(*scenes::FindScene("soft_body"));
  const SceneFigures f = scenes::MeasureFigures(run, run.Info().defaultSteps);
  MESSAGE("joint error " << f.jointError << " m, asleep at step " << f.sleepStep);
  CHECK(f.jointError <= 1.2f * 0.077f);
  CHECK(f.sleepStep > 0);
  CHECK(f.sleepStep <= 1.2f * 484.0f);
}

// HighMassRatio2 and 3 (a 20 m box dropped onto two small boxes or triangles 18 m apart): v3 ends 1.0 m
// and 0.12 m off centre and sleeps (HighMassRatio2 at step 313); the deep contacts' rigid push-out
// row rocked the big box off one small box (3.7 m and 3.0 m, never asleep). Confined (625 circles
// jammed in a box): v3 sleeps at step 112. Cart (a 500 kg chassis dropped on two 1.6 kg wheels, 12
// sub-steps, joints 240 Hz undamped): v3's joints open 93 mm, asleep at step 92, upright.
TEST_CASE("high mass ratios and a jammed crowd come to rest as Box2D v3's do") {
  const auto figures = [](const char* name) {
    SceneRun run(*scenes::FindScene(name));
    return scenes::MeasureFigures(run, run.Info().defaultSteps);
  };
  const SceneFigures two = figures("high_mass_ratio_2");
  CHECK(two.sideDrift <= 1.2f * 1.0f);
  CHECK(two.sleepStep > 0);
  CHECK(two.sleepStep <= 1.2f * 313.0f);
  CHECK(figures("high_mass_ratio_3").sideDrift <= 1.2f * 0.12f);
  const SceneFigures confined = figures("confined");
  CHECK(confined.sleepStep > 0);
  CHECK(confined.sleepStep <= 112);
  const SceneFigures cart = figures("cart");
  CHECK(cart.jointError <= 1.2f * 0.093f);
  CHECK(cart.sleepStep > 0);
  CHECK(cart.sleepStep <= 1.2f * 92.0f);
}

// Bullets into stacks (issue 28 item 4). Drop: a 0.125 m bullet at 200 m/s into five boxes by a wall,
// v3's deepest overlap 59 mm; Vertical Stack with a 0.25 m bullet at 250 m/s, v3 0.16 m. The boxes
// between the bullet and the wall were pressed into the wall: with the wall's rows solved before the
// bullet's, each sub-step ended with the bullet's contact pushing them back in (drop: 123 mm, for 8
// steps); solved last, the wall has the final say (contact_graph.h).
TEST_CASE("bullets fired into stacks wedge no deeper than Box2D v3's") {
  const auto figures = [](const char* name) {
    SceneRun run(*scenes::FindScene(name));
    return scenes::MeasureFigures(run, run.Info().defaultSteps);
  };
  const SceneFigures drop = figures("drop");
  MESSAGE("drop: deepest overlap " << drop.maxPenetration << " m");
  CHECK(drop.maxPenetration <= 1.2f * 0.059f);
  CHECK(drop.escaped == 0);
  const SceneFigures stack = figures("vertical_stack_bullet");
  MESSAGE("vertical_stack_bullet: deepest overlap " << stack.maxPenetration << " m");
  CHECK(stack.maxPenetration <= 1.2f * 0.16f);
  CHECK(stack.escaped == 0);
}

// Double Domino (a row of 0.25 m x 1 m dominoes 1 m apart, the first pushed): Box2D v3 run beside ours
// on this layout overlaps 11.2 mm at most (the figure, 11 mm, was on its own sample). The last
// domino's far end came down flat at 4 cm a step, beyond the speculative distance, and met the ground
// 13.6 mm deep until a pivoting body's touching static pairs were grown (contacts.cpp,
// CollidePivoting). Held to v3's figure within 1%.
TEST_CASE("double_domino overlaps no deeper than Box2D v3 on the same layout") {
  SceneRun run(*scenes::FindScene("double_domino"));
  const SceneFigures f = scenes::MeasureFigures(run, run.Info().defaultSteps);
  MESSAGE("double_domino: deepest overlap " << f.maxPenetration << " m");
  CHECK(f.maxPenetration <= 1.01f * 0.0112f);
  CHECK(f.escaped == 0);
}

}  // TEST_SUITE("scenes.hard_cases")
