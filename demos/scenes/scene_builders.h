// Internal to mk_scenes: the builders the scene table lists.
#pragma once

#include "scenes.h"

namespace mk::scenes {

// Box2D v3 benchmark set (benchmark_scenes.cpp, rain.cpp), as Box2D v3 defines them.
std::unique_ptr<SceneState> BuildLargePyramid(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildManyPyramids(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildTumbler(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildRain(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildJointGrid(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildSmash(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildSpinner(World& world, const SceneParams& params);

// Stress scenes (stress_scenes.cpp).
std::unique_ptr<SceneState> BuildVerticalStack(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildCardHouse(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildArch(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildHighMassRatio(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildFrictionRamp(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildRestitutionRow(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildPendulumChain(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildRagdolls(World& world, const SceneParams& params);

/// Pyramid of 1 m boxes (half extent 0.5, density 1, friction 0.6), rows touching exactly: row i
/// (0-based) has base - i boxes at y = bottom + i + 0.5, the lowest row's first box centred at
/// x = left. Appends the bodies to `out`.
void AddPyramid(World& world, int base, float left, float bottom, std::vector<BodyId>& out);

}  // namespace mk::scenes
