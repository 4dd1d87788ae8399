// SPDX-License-Identifier: MIT
// The geometry of the sample scenes of issue 29 (sample_scenes.cpp: scissor_lift, driving, bridge,
// gear_lift, body_move_events, joint_events), shared with their tests so that a test's independent
// answer (the linkage's height, the catenary, the gear ratio) starts from the same dimensions.
#pragma once

#include "minkowski/math.h"

#include <vector>

namespace mk::scenes::samples {

// --- scissor_lift ------------------------------------------------------------------------------
// kLiftLevels levels of two crossed bars of length kLiftBarLength pinned at their centres; every left
// end stays on x = kLiftLeftX, the right ends slide. With the bars at angle theta to the horizontal
// the top pivots are kLiftLevels * L * sin(theta) above the bottom ones (y = kLiftBaseY), and the
// platform's origin kLiftPlatformDrop above those. The distance joint (state.joints[0]) runs from the
// ground's left pivot (kLiftLeftX, kLiftBaseY) to the bottom falling bar (state.bodies[1]) at
// kLiftMotorArm from its centre towards its upper end, so its length d gives theta:
// d^2 = (L/2 - arm)^2 cos^2(theta) + (L/2 + arm)^2 sin^2(theta).
// Bodies: rising and falling bar of each level from the bottom (2 * levels), the platform, the load.
inline constexpr int kLiftLevels = 3;
inline constexpr float kLiftBarLength = 4.0f;      // m
inline constexpr float kLiftLeftX = -2.0f;         // m
inline constexpr float kLiftBaseY = 0.5f;          // m
inline constexpr float kLiftMotorArm = 1.5f;       // m
inline constexpr float kLiftPlatformDrop = 0.35f;  // m
inline constexpr float kLiftStartAngle = 0.15f;    // rad
inline constexpr float kLiftMotorSpeed = 0.3f;     // m/s of the distance joint's length
/// The lift's script: the distance joint's motor speed (m/s) in step `step`: up for 5 s, hold 2 s,
/// down for 5 s, hold.
float LiftMotorSpeed(int step);

// --- driving -----------------------------------------------------------------------------------
/// The terrain's points, left to right (the chain lists them right to left, its solid side below).
std::vector<Vec2> DrivingTerrain();
inline constexpr float kCarWheelRadius = 0.4f;        // m
inline constexpr float kCarWheelX = 1.1f;             // m, either side of the chassis origin
inline constexpr float kCarWheelY = -0.45f;           // m, below the chassis origin
inline constexpr float kCarSuspensionTravel = 0.25f;  // m, the wheel joints' limits are +-this
inline constexpr int kCarThrottleSteps = 600;         // steps the motors drive, then brake
inline constexpr float kCarMotorSpeed = -20.0f;       // rad/s (clockwise: forward, +x)
// Bodies: chassis, rear wheel, front wheel. Joints: rear and front wheel joint.

// --- bridge ------------------------------------------------------------------------------------
// kBridgePlanks planks of kBridgePlankLength, end to end by revolute joints, hung between static
// anchors kBridgeSpan apart at height kBridgeY: longer than the span, so it hangs in a catenary.
// Loads (three boxes) are created above it at step kBridgeLoadStep. Bodies: the planks, left to right.
inline constexpr int kBridgePlanks = 44;
inline constexpr float kBridgePlankLength = 0.4f;  // m
inline constexpr float kBridgeSpan = 16.0f;        // m
inline constexpr float kBridgeY = 8.0f;            // m
inline constexpr int kBridgeLoadStep = 240;

// --- gear_lift ---------------------------------------------------------------------------------
// A driver gear (motor) meshes with an idler gear, which meshes with a vertical rack on a prismatic
// joint carrying a platform and a load. Gears: a disc of kGearRadius with kGearTeeth rounded box teeth
// whose tips reach kGearTipRadius; the teeth of a neighbour reach in to kGearMeshInner from a gear's
// centre, so every contact between a tooth and what it drives is between those radii: the rack moves
// between kGearMeshInner and kGearTipRadius metres per radian of the driver.
// Bodies: driver, idler, rack, load. Joints: driver's revolute, idler's revolute, rack's prismatic.
inline constexpr float kGearRadius = 1.0f;
inline constexpr int kGearTeeth = 16;
inline constexpr float kGearTipRadius = 1.19f;                    // disc + tooth (0.16) + rounding (0.03)
inline constexpr float kGearMeshInner = 1.05f;                    // centre distance (2.24) - kGearTipRadius
inline constexpr int kGearMotorStart = 60, kGearMotorStop = 420;  // the motor turns in [start, stop)
inline constexpr float kGearMotorSpeed = -0.5f;                   // rad/s (clockwise)

// --- body_move_events --------------------------------------------------------------------------
/// The step whose PreStep drops a heavy ball on the (by then sleeping) pile.
inline constexpr int kMoveEventsBallStep = 420;

// --- joint_events ------------------------------------------------------------------------------
// Boxes of kBreakMass hang from the ceiling by revolute joints with force thresholds
// kBreakThresholds; each step a downward force kBreakForceRate * t (t = step * kTimeStep) pulls on
// each box's centre until its joint breaks (destroyOnBreak). Bodies and joints in threshold order.
inline constexpr float kBreakMass = 1.0f;        // kg
inline constexpr float kBreakForceRate = 27.0f;  // N/s (0.45 N a step: no step lands on a threshold)
inline constexpr float kBreakThresholds[] = {40.0f, 80.0f, 120.0f, 160.0f, 200.0f};  // N

}  // namespace mk::scenes::samples
