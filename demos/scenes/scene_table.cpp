// The one explicit scene table, and SceneRun (how every tool steps a scene).
#include "scene_builders.h"

#include <array>

namespace mk::scenes {

namespace {

constexpr WorldDef kSleepOn{};
constexpr WorldDef kSleepOff{.settings = {.enableSleep = false}};
constexpr WorldDef kZeroGravity{.gravity = {0.0f, 0.0f}};

// clang-format off
const std::array kTable = {
  // The Box2D v3 benchmark set, release-build sizes by default.
  SceneInfo{"large_pyramid", "benchmark", "pyramid of 5050 boxes, base 100, sleep off", 500, kSleepOff,
            {.size = 100}, "size = pyramid base", &BuildLargePyramid},
  SceneInfo{"many_pyramids", "benchmark", "20 x 20 pyramids of 55 boxes on 20 segments, sleep off", 200,
            kSleepOff, {.size = 10, .count = 20}, "size = pyramid base, count = pyramids per row and rows",
            &BuildManyPyramids},
  SceneInfo{"tumbler", "benchmark", "motorised box drum turning 2025 small boxes", 750, kSleepOn,
            {.count = 45}, "count = side of the grid of small boxes", &BuildTumbler},
  SceneInfo{"rain", "benchmark", "ragdolls raining on five floors, spawned and destroyed every 8 steps", 1000,
            kSleepOn, {.count = 40}, "count = ragdoll columns", &BuildRain},
  SceneInfo{"joint_grid", "benchmark", "100 x 100 net of revolute joints hanging from 7 anchors", 500, kSleepOff,
            {.size = 100}, "size = side of the grid", &BuildJointGrid},
  SceneInfo{"smash", "benchmark", "a 512 kg box smashes a sleeping wall of 9600 boxes, no gravity", 300,
            kZeroGravity, {.size = 120, .count = 80}, "size = wall columns, count = wall rows", &BuildSmash},
  SceneInfo{"spinner", "benchmark", "motorised blade churning 6076 mixed bodies in a ring (segments)", 500,
            kSleepOn, {.count = 6076}, "count = small bodies", &BuildSpinner},
  // Stress scenes.
  SceneInfo{"vertical_stack", "stress", "20 boxes stacked in one column", 600, kSleepOn, {.size = 20},
            "size = boxes", &BuildVerticalStack},
  SceneInfo{"card_house", "stress", "house of cards: leaning pairs and flat cards, 4 levels", 600, kSleepOn,
            {.size = 4}, "size = levels", &BuildCardHouse},
  SceneInfo{"arch", "stress", "semicircular arch of 13 dry-stone voussoirs", 600, kSleepOn, {.size = 13},
            "size = voussoirs", &BuildArch},
  SceneInfo{"high_mass_ratio", "stress", "100 kg box on 1 kg boxes, and the reverse", 300, kSleepOn, {},
            "", &BuildHighMassRatio},
  SceneInfo{"friction_ramp", "stress", "boxes on 30 degree ramps with friction 0, 0.2, ... 0.8", 300, kSleepOn,
            {.count = 5}, "count = ramps", &BuildFrictionRamp},
  SceneInfo{"restitution_row", "stress", "balls dropped with restitution 0, 0.1, ... 1", 300, kSleepOn,
            {.count = 11}, "count = balls", &BuildRestitutionRow},
  SceneInfo{"pendulum_chain", "stress", "chain of 20 hinged capsules released horizontally", 600, kSleepOn,
            {.count = 20}, "count = links", &BuildPendulumChain},
  SceneInfo{"ragdolls", "stress", "15 rain ragdolls (limits, joint friction, springs) dropped on steps", 600,
            kSleepOn, {.size = 5, .count = 3}, "size = ragdolls per row, count = rows", &BuildRagdolls},
};
// clang-format on

}  // namespace

void SceneState::PreStep(World&, int) {}

std::span<const SceneInfo> SceneTable() { return kTable; }

const SceneInfo* FindScene(std::string_view name) {
  for (const SceneInfo& info : kTable) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

SceneParams ResolveParams(const SceneInfo& info, SceneParams params) {
  if (params.size <= 0) params.size = info.defaults.size;
  if (params.count <= 0) params.count = info.defaults.count;
  return params;
}

SceneRun::SceneRun(const SceneInfo& info, SceneParams params, bool record)
    : info_(&info), params_(ResolveParams(info, params)), world_(info.worldDef) {
  if (record) world_.StartRecording();  // a new world: always accepted
  state_ = info.build(world_, params_);
}

bool SceneRun::Step(float timeStep) {
  state_->PreStep(world_, step_);
  ++step_;
  return world_.Step(timeStep);
}

}  // namespace mk::scenes
