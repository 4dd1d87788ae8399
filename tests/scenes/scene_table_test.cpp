// SPDX-License-Identifier: MIT
#include "ragdoll.h"
#include "scene_test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>

using namespace mk;
using scenes::SceneInfo;
using scenes::SceneRun;

namespace {

int LiveBodies(const World& world) { return world.State().bodyIds.LiveCount(); }

int ValidJoints(const World& world, const scenes::SceneState& state) {
  int n = 0;
  for (JointId joint : state.joints) n += world.IsValid(joint) ? 1 : 0;
  return n;
}

void RunEveryScene(bool small) {
  for (const SceneInfo& info : scenes::SceneTable()) {
    const std::string sceneName = info.name;
    CAPTURE(sceneName);
    SceneRun run(info, small ? test::SmallParams(info) : scenes::SceneParams{});
    test::StepScene(run, 60);
    CHECK(run.StepCount() == 60);
    CHECK(LiveBodies(run.GetWorld()) > 0);
    CHECK(test::AllBodiesFinite(run.GetWorld()));
  }
}

}  // namespace

TEST_SUITE("scenes.table") {

TEST_CASE("scene names are unique and FindScene finds each row by name") {
  std::set<std::string> names;
  for (const SceneInfo& info : scenes::SceneTable()) {
    const std::string sceneName = info.name;
    CAPTURE(sceneName);
    CHECK(names.insert(info.name).second);
    CHECK(scenes::FindScene(info.name) == &info);
    CHECK(info.defaultSteps > 0);
    const bool hasBuilder = info.build != nullptr;
    CHECK(hasBuilder);
    const std::string_view category = info.category;
    const std::span<const char* const> categories = scenes::SceneCategories();
    CHECK(std::count(categories.begin(), categories.end(), category) == 1);
  }
  CHECK(names.size() == scenes::SceneTable().size());
  CHECK(scenes::FindScene("no_such_scene") == nullptr);
  CHECK(scenes::FindScene("") == nullptr);
}

TEST_CASE("the table holds the whole Box2D v3 benchmark set with Box2D v3's step counts") {
  const std::pair<const char*, int> expected[] = {
      {"large_pyramid", 500}, {"many_pyramids", 200}, {"tumbler", 750}, {"rain", 1000},
      {"joint_grid", 500},    {"smash", 300},         {"spinner", 500}};
  for (auto [name, steps] : expected) {
    const std::string sceneName = name;
    CAPTURE(sceneName);
    const SceneInfo* info = scenes::FindScene(name);
    REQUIRE(info != nullptr);
    CHECK(std::string_view(info->category) == "benchmark");
    CHECK(info->defaultSteps == steps);
  }
  // Sleep flags and gravity (as Box2D v3 sets them): sleeping off for the pyramids and the joint grid, smash
  // in zero gravity.
  CHECK_FALSE(scenes::FindScene("large_pyramid")->worldDef.settings.enableSleep);
  CHECK_FALSE(scenes::FindScene("many_pyramids")->worldDef.settings.enableSleep);
  CHECK_FALSE(scenes::FindScene("joint_grid")->worldDef.settings.enableSleep);
  CHECK(scenes::FindScene("tumbler")->worldDef.settings.enableSleep);
  CHECK(scenes::FindScene("rain")->worldDef.settings.enableSleep);
  CHECK(scenes::FindScene("spinner")->worldDef.settings.enableSleep);
  CHECK(scenes::FindScene("smash")->worldDef.settings.enableSleep);
  CHECK(scenes::FindScene("smash")->worldDef.gravity.y == 0.0f);
  CHECK(scenes::FindScene("large_pyramid")->worldDef.gravity.y == -10.0f);
}

TEST_CASE(
    "every category has scenes and the hard cases run at the aligned settings unless they say otherwise") {
  for (const char* category : scenes::SceneCategories()) {
    const std::string name = category;
    CAPTURE(name);
    CHECK(std::any_of(scenes::SceneTable().begin(), scenes::SceneTable().end(),
                      [&](const SceneInfo& info) { return name == info.category; }));
  }
  // The aligned settings are the defaults: 4 sub-steps, contacts 30 Hz / 10 / 3 m/s, joints 60 Hz / 2.
  const SolverSettings defaults{};
  CHECK(defaults.subSteps == 4);
  CHECK(defaults.contactHertz == 30.0f);
  CHECK(defaults.contactDampingRatio == 10.0f);
  CHECK(defaults.contactPushMaxSpeed == 3.0f);
  CHECK(defaults.jointHertz == 60.0f);
  CHECK(defaults.jointDampingRatio == 2.0f);
  CHECK((defaults.enableSleep && defaults.enableWarmStarting && defaults.enableContinuous));
  for (const char* name : {"high_mass_ratio_1", "high_mass_ratio_2", "high_mass_ratio_3", "heavy_on_light",
                           "speculative_fallback", "speculative_sliver", "vertical_stack_bullet", "drop",
                           "soft_body", "cliff", "double_domino", "ruler", "sensor_coins"}) {
    const std::string sceneName = name;
    CAPTURE(sceneName);
    const SceneInfo* info = scenes::FindScene(name);
    REQUIRE(info != nullptr);
    CHECK(info->worldDef.gravity.y == -10.0f);
    CHECK(info->worldDef.settings.subSteps == 4);
    CHECK(info->worldDef.settings.contactHertz == 30.0f);
  }
  const SolverSettings& cart = scenes::FindScene("cart")->worldDef.settings;
  CHECK(cart.subSteps == 12);
  CHECK(cart.jointHertz == 240.0f);
  CHECK(cart.jointDampingRatio == 0.0f);
  CHECK(scenes::FindScene("circle_stack")->worldDef.settings.contactHertz == 90.0f);
  for (const char* name : {"confined", "bounce_house"})
    CHECK(scenes::FindScene(name)->worldDef.gravity == Vec2{0.0f, 0.0f});
}

TEST_CASE("every scene builds and runs 60 steps with finite body states at a small size") {
  RunEveryScene(true);
}

TEST_CASE("every scene builds and runs 60 steps with finite body states at full size" *
          doctest::test_suite("long")) {
  RunEveryScene(false);
}

TEST_CASE("the benchmark scenes have Box2D v3's body and joint counts at full size" *
          doctest::test_suite("long")) {
  struct Expected {
    const char* name;
    int bodies;  // including static bodies
    int joints;
  };
  const Expected expected[] = {{"large_pyramid", 5051, 0}, {"many_pyramids", 22001, 0},
                               {"tumbler", 2027, 1},       {"joint_grid", 10000, 19800},
                               {"smash", 9601, 0},         {"spinner", 6078, 1}};
  for (const Expected& e : expected) {
    const std::string sceneName = e.name;
    CAPTURE(sceneName);
    SceneRun run(*scenes::FindScene(e.name));
    CHECK(LiveBodies(run.GetWorld()) == e.bodies);
    CHECK(ValidJoints(run.GetWorld(), run.State()) == e.joints);
  }
  // Rain builds only its floors; its callback adds 25 ragdolls every 8 steps up to 40 columns, then
  // replaces one column per event: 1000 ragdolls = 11000 bodies + the ground, 10000 joints.
  SceneRun rain(*scenes::FindScene("rain"));
  CHECK(LiveBodies(rain.GetWorld()) == 1);
  for (int step = 0; step < 400; ++step)
    rain.State().PreStep(rain.GetWorld(), step);  // no World::Step needed
  CHECK(LiveBodies(rain.GetWorld()) == 11001);
  CHECK(rain.GetWorld().State().shapeIds.LiveCount() == 5 * 501 + 1000 * 13);  // 11 capsules + 2 feet each
}

TEST_CASE("the rain ragdoll has 11 bodies and 10 joints and 13 shapes") {
  World world;
  scenes::Ragdoll ragdoll = scenes::CreateRagdoll(world, {0, 0}, -1);
  int bodies = 0, joints = 0;
  for (BodyId b : ragdoll.bodies) bodies += world.IsValid(b) ? 1 : 0;
  for (JointId j : ragdoll.joints) joints += world.IsValid(j) ? 1 : 0;
  CHECK(bodies == 11);
  CHECK(joints == 10);
  CHECK(world.State().shapeIds.LiveCount() == 13);
  // The hip sits 0.95 m above the base; the head 1.475 m.
  CHECK(world.GetPosition(ragdoll.bodies[0]).y == doctest::Approx(0.95f));
  CHECK(world.GetPosition(ragdoll.bodies[2]).y == doctest::Approx(1.475f));
  scenes::DestroyRagdoll(world, ragdoll);
  CHECK(world.State().bodyIds.LiveCount() == 0);
  CHECK(world.State().shapeIds.LiveCount() == 0);
}

}  // TEST_SUITE("scenes.table")
