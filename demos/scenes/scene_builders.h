// SPDX-License-Identifier: MIT
// Internal to mk_scenes: the builders the scene table lists.
#pragma once

#include "scenes.h"

#include <memory>
#include <vector>

namespace mk::scenes {

// Box2D v3 benchmark set (benchmark_scenes.cpp, rain.cpp), as Box2D v3 defines them.
std::unique_ptr<SceneState> BuildLargePyramid(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildConveyorBelt(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildRollingResistance(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildCustomFilter(World& world, const SceneParams& params);
// Feature scenes (joint_feature_scenes.cpp).
std::unique_ptr<SceneState> BuildMotorJointFeature(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildFilterJointFeature(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildBreakable(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildDoor(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildTopDownFriction(World& world, const SceneParams& params);
// Joint local frames (frame_scenes.cpp).
std::unique_ptr<SceneState> BuildJointFrames(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildManyPyramids(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildTumbler(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildKinematicDrum(World& world, const SceneParams& params);
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

// Hard cases after Box2D v3's sample categories (stacking_scenes.cpp, robustness_scenes.cpp,
// continuous_scenes.cpp, joint_scenes.cpp).
std::unique_ptr<SceneState> BuildSingleBox(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildTiltedStack(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildVerticalStackBullet(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildCircleStack(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildCapsuleStack(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildConfined(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildCliff(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildDoubleDomino(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildRuler(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildHighMassRatio1(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildHighMassRatio2(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildHighMassRatio3(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildHeavyOnLight(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildCart(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildOverlapRecovery(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildTinyPyramid(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildWedge(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildSpeculativeFallback(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildSpeculativeSliver(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildSpeculativeGhost(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildDrop(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildBounceHouse(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildSensorCoins(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildChainDrop(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildChainSlide(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildSegmentSlide(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildGhostBumps(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildPinball(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildPixelImperfect(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildRestitutionThreshold(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildSkinnyBox(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildSoftBody(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildMultiplePrismatic(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildCharacterMover(World& world, const SceneParams& params);  // mover_scenes.cpp
// Body features (body_scenes.cpp)
std::unique_ptr<SceneState> BuildMotionLocks(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildBodyType(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildKinematic(World& world, const SceneParams& params);
// Geometry changed in place (geometry_scenes.cpp)
std::unique_ptr<SceneState> BuildModifyGeometry(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildChainSegment(World& world, const SceneParams& params);

// Samples of issue 29 (sample_scenes.cpp; their dimensions in sample_scenes.h).
std::unique_ptr<SceneState> BuildScissorLift(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildDriving(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildBridge(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildGearLift(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildBodyMoveEvents(World& world, const SceneParams& params);
std::unique_ptr<SceneState> BuildJointEvents(World& world, const SceneParams& params);

/// Pyramid of 1 m boxes (half extent 0.5, density 1, friction 0.6), rows touching exactly: row i
/// (0-based) has base - i boxes at y = bottom + i + 0.5, the lowest row's first box centred at
/// x = left. Appends the bodies to `out`.
void AddPyramid(World& world, int base, float left, float bottom, std::vector<BodyId>& out);

}  // namespace mk::scenes
