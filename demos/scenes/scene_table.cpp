// SPDX-License-Identifier: MIT
// The one explicit scene table, and SceneRun (how every tool steps a scene).
#include "minkowski/joint_api.h"
#include "scene_builders.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>

namespace mk::scenes {

namespace {

constexpr WorldDef kSleepOn{};
constexpr WorldDef kSleepOff{.settings = {.enableSleep = false}};
constexpr WorldDef kZeroGravity{.gravity = {0.0f, 0.0f}};
// The hard cases run at the "aligned" settings, which are our SolverSettings defaults: 4 sub-steps,
// contacts 30 Hz / damping ratio 10 / push-out 3 m/s, joints 60 Hz / damping 2, sleeping, warm starting
// and continuous on. Rows that differ say so.
constexpr WorldDef kCart{.settings = {.subSteps = 12, .jointHertz = 240.0f, .jointDampingRatio = 0.0f}};
constexpr WorldDef kStiffContacts{.settings = {.contactHertz = 90.0f}};
constexpr WorldDef kEightSubSteps{.settings = {.subSteps = 8}};

constexpr const char* kCategories[] = {"benchmark",  "stress", "stacking", "robustness",
                                       "continuous", "joints", "features"};

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
  SceneInfo{"vertical_stack", "stacking", "20 boxes stacked in one column", 600, kSleepOn, {.size = 20},
            "size = boxes", &BuildVerticalStack},
  SceneInfo{"card_house", "stacking", "house of cards: leaning pairs and flat cards, 4 levels", 600, kSleepOn,
            {.size = 4}, "size = levels", &BuildCardHouse},
  SceneInfo{"arch", "stacking", "semicircular arch of 13 dry-stone voussoirs", 600, kSleepOn, {.size = 13},
            "size = voussoirs", &BuildArch},
  SceneInfo{"high_mass_ratio", "robustness", "100 kg box on 1 kg boxes, and the reverse", 300, kSleepOn, {},
            "", &BuildHighMassRatio},
  SceneInfo{"friction_ramp", "stress", "boxes on 30 degree ramps with friction 0, 0.2, ... 0.8", 300, kSleepOn,
            {.count = 5}, "count = ramps", &BuildFrictionRamp},
  SceneInfo{"kinematic_drum", "stress", "kinematic box drum turning 400 small boxes", 600, kSleepOn,
            {.count = 20}, "count = side of the grid of small boxes", &BuildKinematicDrum},
  SceneInfo{"restitution_row", "stress", "balls dropped with restitution 0, 0.1, ... 1", 300, kSleepOn,
            {.count = 11}, "count = balls", &BuildRestitutionRow},
  SceneInfo{"pendulum_chain", "joints", "chain of 20 hinged capsules released horizontally", 600, kSleepOn,
            {.count = 20}, "count = links", &BuildPendulumChain},
  SceneInfo{"ragdolls", "stress", "15 rain ragdolls (limits, joint friction, springs) dropped on steps", 600,
            kSleepOn, {.size = 5, .count = 3}, "size = ragdolls per row, count = rows", &BuildRagdolls},
  // Hard cases after Box2D v3's sample categories (our own builds of the ideas).
  SceneInfo{"single_box", "stacking", "one 1 m box resting on the ground", 300, kSleepOn, {}, "", &BuildSingleBox},
  SceneInfo{"tilted_stack", "stacking", "leaning tower of 10 boxes, each 5 cm right of the one below", 600,
            kSleepOn, {.size = 10}, "size = boxes", &BuildTiltedStack},
  SceneInfo{"vertical_stack_bullet", "stacking", "a 0.25 m bullet at 250 m/s into 10 boxes stacked by a wall",
            300, kSleepOn, {}, "", &BuildVerticalStackBullet},
  SceneInfo{"circle_stack", "stacking", "column of 10 circles, 90 Hz contacts", 600, kStiffContacts,
            {.size = 10}, "size = circles", &BuildCircleStack},
  SceneInfo{"capsule_stack", "stacking", "10 horizontal capsules stacked", 600, kSleepOn, {.size = 10},
            "size = capsules", &BuildCapsuleStack},
  SceneInfo{"confined", "stacking", "625 overlapping circles in a box too small for them, no gravity", 300,
            kZeroGravity, {.size = 25}, "size = side of the grid of circles", &BuildConfined},
  SceneInfo{"cliff", "stacking", "box, circle and capsule sliding off 4 m ledges", 300, kSleepOn, {}, "",
            &BuildCliff},
  SceneInfo{"double_domino", "stacking", "a row of 15 dominoes 1 m apart, the first pushed over", 600,
            kSleepOn, {.count = 15}, "count = dominoes", &BuildDoubleDomino},
  SceneInfo{"ruler", "stacking", "a 1 m x 2 cm ruler landing flat at 1.4 m/s", 300, kSleepOn, {}, "",
            &BuildRuler},
  SceneInfo{"high_mass_ratio_1", "robustness", "three 10-box pyramids topped by 10x, 100x, 300x boxes", 600,
            kSleepOn, {}, "", &BuildHighMassRatio1},
  SceneInfo{"high_mass_ratio_2", "robustness", "20 m box (400 kg) dropped from 16 m onto two 1 m boxes", 600,
            kSleepOn, {}, "", &BuildHighMassRatio2},
  SceneInfo{"high_mass_ratio_3", "robustness", "20 m box (400 kg) dropped from 4 m onto two small triangles",
            400, kSleepOn, {}, "", &BuildHighMassRatio3},
  SceneInfo{"heavy_on_light", "robustness", "20 m box (400 kg) dropped 2 m onto one 1 m box (400:1)", 600,
            kSleepOn, {}, "", &BuildHeavyOnLight},
  SceneInfo{"cart", "robustness", "500 kg chassis on 1.6 kg wheels dropped 1.75 m, 12 sub-steps, joints 240 Hz",
            600, kCart, {}, "", &BuildCart},
  SceneInfo{"overlap_recovery", "robustness", "pyramid of 10 boxes created overlapping by a quarter", 300,
            kSleepOn, {}, "", &BuildOverlapRecovery},
  SceneInfo{"tiny_pyramid", "robustness", "pyramid of 55 boxes of 2.5 cm", 600, kSleepOn, {}, "",
            &BuildTinyPyramid},
  SceneInfo{"wedge", "robustness", "a 1 m box wedged into a V of two segments", 300, kSleepOn, {}, "",
            &BuildWedge},
  SceneInfo{"speculative_fallback", "continuous", "4 m x 0.1 m box at 50 m/s onto a thin platform", 300,
            kSleepOn, {}, "", &BuildSpeculativeFallback},
  SceneInfo{"speculative_sliver", "continuous", "thin triangle at 90 m/s down onto a segment", 300, kSleepOn,
            {}, "", &BuildSpeculativeSliver},
  SceneInfo{"speculative_ghost", "continuous", "box sliding at 20 m/s over 80 segments end to end", 300,
            kSleepOn, {}, "", &BuildSpeculativeGhost},
  SceneInfo{"drop", "continuous", "a 0.125 m bullet at 200 m/s into 5 boxes by a wall, small shapes dropped",
            300, kSleepOn, {}, "", &BuildDrop},
  SceneInfo{"bounce_house", "continuous", "4 m bullet box, restitution 1, bouncing in a room, no gravity", 600,
            kZeroGravity, {}, "", &BuildBounceHouse},
  SceneInfo{"sensor_coins", "continuous", "capsule at 80 m/s through 5 sensor coins", 300, kSleepOn, {}, "",
            &BuildSensorCoins},
  SceneInfo{"chain_drop", "continuous", "circle, box and capsule thrown at 50 m/s onto a chain", 300, kSleepOn,
            {}, "", &BuildChainDrop},
  SceneInfo{"chain_slide", "continuous", "three shapes sliding over 100 chain segments", 600, kSleepOn, {}, "",
            &BuildChainSlide},
  SceneInfo{"segment_slide", "continuous", "boxes sliding down a ramp of loose segments", 600, kSleepOn, {}, "",
            &BuildSegmentSlide},
  SceneInfo{"ghost_bumps", "continuous", "three shapes sliding over a floor of 40 boxes", 400, kSleepOn, {}, "",
            &BuildGhostBumps},
  SceneInfo{"conveyor_belt", "features", "two belts (tangent speed) carry boxes right then back left", 600,
            kSleepOn, {}, "", &BuildConveyorBelt},
  SceneInfo{"rolling_resistance", "features", "balls rolled up a slope with rolling resistance 0 to 0.4", 600,
            kSleepOn, {}, "", &BuildRollingResistance},
  SceneInfo{"custom_filter", "features", "a custom filter lets odd-numbered balls through the shelf", 300,
            kSleepOn, {}, "", &BuildCustomFilter},
  SceneInfo{"pinball", "continuous", "ball and two motorised flippers in a chain-loop table", 600, kSleepOn,
            {}, "", &BuildPinball},
  SceneInfo{"pixel_imperfect", "continuous", "box and circle sliding over 1 mm-misaligned 10 cm pixels", 400,
            kSleepOn, {}, "", &BuildPixelImperfect},
  SceneInfo{"restitution_threshold", "continuous", "restitution-1 balls hitting at 0.5, 0.9, 1.1, 2 m/s", 300,
            kSleepOn, {}, "", &BuildRestitutionThreshold},
  SceneInfo{"skinny_box", "continuous", "two 2 m x 4 cm boxes at 40 m/s onto the ground, one spinning", 300,
            kSleepOn, {}, "", &BuildSkinnyBox},
  SceneInfo{"soft_body", "joints", "ring of 7 capsules welded with 5 Hz angular springs, dropped", 600, kSleepOn,
            {}, "", &BuildSoftBody},
  SceneInfo{"multiple_prismatic", "joints", "10 boxes hanging on a chain of limited prismatic joints", 300,
            kSleepOn, {.count = 10}, "count = boxes", &BuildMultiplePrismatic},
  // Features (issue 29): each shows one game-facing API.
  SceneInfo{"character_mover", "features", "scripted capsule character: walk, jump, steps, slope, moving platform",
            900, kSleepOn, {}, "", &BuildCharacterMover},
  SceneInfo{"motion_locks", "features", "bodies locked in x, y, rotation and x+y, pushed each second", 600,
            kSleepOn, {}, "", &BuildMotionLocks},
  SceneInfo{"body_type", "features", "platform of boxes switched kinematic, dynamic, static every 2 s", 720,
            kSleepOn, {}, "", &BuildBodyType},
  SceneInfo{"kinematic", "features", "kinematic platform on a figure of eight by SetTargetTransform", 600,
            kSleepOn, {}, "", &BuildKinematic},
  // Feature scenes (issue 29), named after Box2D v3's samples.
  SceneInfo{"motor_joint", "features", "Motor Joint: a platform driven on a figure of eight by a motor joint", 600,
            kSleepOn, {}, "", &BuildMotorJointFeature},
  SceneInfo{"filter_joint", "features", "Filter Joint: overlapping pairs, the filtered ones pass through", 300,
            kSleepOn, {}, "", &BuildFilterJointFeature},
  SceneInfo{"breakable", "features", "Breakable: welded bridge whose welds break past 600 N under a weight", 300,
            kSleepOn, {}, "", &BuildBreakable},
  SceneInfo{"door", "features", "Door: hinge with limits and motor friction knocked open by a ball", 300,
            kSleepOn, {}, "", &BuildDoor},
  SceneInfo{"top_down_friction", "features", "Top Down Friction: motor joints to the ground as friction", 400,
            kZeroGravity, {}, "", &BuildTopDownFriction},
  // Samples (issue 29), named after Box2D v3's samples and built from what they show.
  SceneInfo{"scissor_lift", "features", "Scissor Lift: 3-level linkage raised and lowered by a distance joint motor",
            840, kEightSubSteps, {}, "", &BuildScissorLift},
  SceneInfo{"driving", "features", "Driving: a car on wheel joints (springs, motors) over a chain terrain", 900,
            kSleepOn, {}, "", &BuildDriving},
  SceneInfo{"bridge", "features", "Bridge: 44 hinged planks hanging between two posts, loads dropped at 4 s", 600,
            kSleepOn, {}, "", &BuildBridge},
  SceneInfo{"gear_lift", "features", "Gear Lift: a motor gear turns an idler gear that lifts a rack, teeth by contact",
            600, kSleepOn, {}, "", &BuildGearLift},
  SceneInfo{"body_move_events", "features", "Body Move: 64 bodies settle, the text counts World::GetBodyMoveEvents",
            600, kSleepOn, {}, "", &BuildBodyMoveEvents},
  SceneInfo{"joint_events", "features", "Joint events: hooks break past 40-200 N under growing pulls", 480, kSleepOn,
            {}, "", &BuildJointEvents},
  SceneInfo{"modify_geometry", "features", "Modify Geometry: a body cycles circle, capsule, box, pulsing hexagon under resting boxes",
            720, kSleepOn, {}, "", &BuildModifyGeometry},
  SceneInfo{"joint_frames", "features", "Joint Frames: hinges and slides built from rotated local frames, slide frames turned every 2 s",
            720, kSleepOn, {}, "", &BuildJointFrames},
  SceneInfo{"chain_segment", "features", "Chain Segment: a hill of standalone one-sided segments, a one-way ledge, a ramp tilted by SetChainSegment",
            720, kSleepOn, {}, "", &BuildChainSegment},
};
// clang-format on

}  // namespace

void SceneState::PreStep(World&, int) {}

std::span<const SceneInfo> SceneTable() { return kTable; }

std::span<const char* const> SceneCategories() { return kCategories; }

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

namespace {}  // namespace

SceneRun::SceneRun(const SceneInfo& info, SceneParams params, bool record, Placement placement)
    : info_(&info), params_(ResolveParams(info, params)), world_(info.worldDef), offset_(placement.offset) {
  if (record) world_.StartRecording();  // a new world: always accepted
  state_ = info.build(world_, params_);
  state_->origin = offset_;
  // Large-world build, the frame at the scene: built around zero, then the whole world moved, which
  // there moves only its float frame (World::ShiftOrigin: O(1), exact), so the run steps bit for bit as
  // at the origin. The callback runs with the world moved back, so what it spawns is exact too.
  // Otherwise (the default build, a recording, or the frame left at zero) the bodies are moved.
  shiftFrame_ = kLargeWorlds && placement.originAtOffset && !record && !(offset_ == Pos{});
  if (shiftFrame_) {
    world_.ShiftOrigin(Pos{-offset_.x, -offset_.y});
  } else {
    MoveNewBodies();
  }
}

bool SceneRun::Step(float timeStep) {
  if (shiftFrame_) {
    world_.ShiftOrigin(offset_);
    state_->PreStep(world_, step_);
    world_.ShiftOrigin(Pos{-offset_.x, -offset_.y});
  } else {
    state_->PreStep(world_, step_);
    MoveNewBodies();
  }
  ++step_;
  return world_.Step(timeStep);
}

// Scenes build at the origin. With an offset, the bodies within kMaxWorldLength of the origin are the
// ones built or spawned since the last call (the moved ones are far away): those with shapes, found
// through the broadphase, and the shapeless ones jointed to them (a hinge's ground). Each is moved by
// the offset, its velocity kept. The callbacks of the scenes run this way only change velocities,
// motor speeds and forces at points they read from the world, which move with it.
void SceneRun::MoveNewBodies() {
  if (offset_ == Pos{}) return;
  // A body still in the scene's own coordinates stands nearer the origin than half the offset: what
  // was moved stands about the offset. Within kMaxWorldLength too, which is all that matters for the
  // large-world offsets (1e6 m and beyond); a smaller offset (the sandbox's 1e3 and 1e4 m) must not
  // count a body it already moved as new, or each step would move it again.
  const double reach = std::min(
      static_cast<double>(kMaxWorldLength),
      0.5 * std::max(std::fabs(static_cast<double>(offset_.x)), std::fabs(static_cast<double>(offset_.y))));
  std::vector<BodyId> found;
  auto add = [&](BodyId body) {
    const Pos p = world_.GetPosition(body);
    const bool nearOrigin = std::fabs(p.x) <= reach && std::fabs(p.y) <= reach;
    if (nearOrigin && std::find(found.begin(), found.end(), body) == found.end()) found.push_back(body);
  };
  const float r = static_cast<float>(reach);
  const AABB nearOrigin{{-r, -r}, {r, r}};
  world_.QueryAABB(nearOrigin, [&](ShapeId shape) {
    add(world_.GetBody(shape));
    return true;
  });
  std::vector<JointId> joints;
  for (std::size_t i = 0; i < found.size(); ++i) {
    joints.resize(static_cast<std::size_t>(world_.GetJointCount(found[i])));
    world_.GetJoints(found[i], Span<JointId>(joints.data(), joints.size()));
    for (JointId joint : joints) {
      for (BodyId other : {GetJointBodyA(world_, joint), GetJointBodyB(world_, joint)})
        if (world_.IsValid(other)) add(other);
    }
  }
  // In slot order (creation order, as the broadphase first met them), not the broadphase walk's.
  std::sort(found.begin(), found.end(), [](BodyId a, BodyId b) { return a.index1 < b.index1; });
  for (BodyId body : found) {
    const WorldTransform xf = world_.GetTransform(body);
    const bool asleep = !world_.IsAwake(body);  // SetTransform wakes it; smash builds its wall asleep
    world_.SetTransform(body, Pos{xf.p.x + offset_.x, xf.p.y + offset_.y}, Angle(xf.q));
    if (asleep) world_.SetAwake(body, false);
  }
}

}  // namespace mk::scenes
