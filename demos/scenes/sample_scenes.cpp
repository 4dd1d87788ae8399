// SPDX-License-Identifier: MIT
// Sample scenes of issue 29, each built from the behaviour Box2D v3's sample of the same name shows
// (Scissor Lift, Driving, Bridge, Gear Lift, Body Move, Joint events), through the public API only.
// Their dimensions are in sample_scenes.h, which the tests read.
#include "sample_scenes.h"

#include "scene_helpers.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace mk::scenes {

using namespace samples;
using helpers::AddDynamic;
using helpers::AddPointJoint;
using helpers::F;
using helpers::kPi;

namespace {

// A rounded box of half extents (hx, hy) centred at `center`, turned by `angle` (a gear tooth).
Polygon RoundedBoxAt(float hx, float hy, Vec2 center, float angle, float radius) {
  const Rot q = MakeRot(angle);
  const Vec2 corners[4] = {Rotate(q, {-hx, -hy}) + center, Rotate(q, {hx, -hy}) + center,
                           Rotate(q, {hx, hy}) + center, Rotate(q, {-hx, hy}) + center};
  return MakePolygon(corners, radius).value;
}

// e^x by its Taylor series in double (|x| <= 4 here): the catenary below is built from +, *, / only,
// so every compiler builds the same bridge (docs/design.md section 3).
double Exp(double x) {
  double term = 1.0, sum = 1.0;
  for (int n = 1; n < 60; ++n) {
    term *= x / n;
    sum += term;
  }
  return sum;
}
double Sinh(double x) { return 0.5 * (Exp(x) - Exp(-x)); }
double Cosh(double x) { return 0.5 * (Exp(x) + Exp(-x)); }

// --- scissor_lift ------------------------------------------------------------------------------

class ScissorLiftState : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    const float speed = LiftMotorSpeed(step);
    if (step == 0 || speed != LiftMotorSpeed(step - 1)) world.SetMotorSpeed(joints[0], speed);
    char line[96];
    std::snprintf(line, sizeof line, "lift motor %+.2f m/s   distance joint length %.2f m", speed,
                  world.GetDistanceJointLength(joints[0]));
    text = line;
  }
};

// --- driving -----------------------------------------------------------------------------------

class DrivingState : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    if (step == 0 || step == kCarThrottleSteps) {
      const float speed = step == 0 ? kCarMotorSpeed : 0.0f;  // throttle, then brake
      world.SetMotorSpeed(joints[0], speed);
      world.SetMotorSpeed(joints[1], speed);
    }
    char line[96];
    std::snprintf(line, sizeof line, "%s   x %.1f m   speed %.1f m/s",
                  step < kCarThrottleSteps ? "throttle" : "brake", world.GetPosition(bodies[0]).x,
                  Length(world.GetLinearVelocity(bodies[0])));
    text = line;
  }
};

// --- bridge ------------------------------------------------------------------------------------

class BridgeState : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    if (step != kBridgeLoadStep) return;
    for (int i = -1; i <= 1; ++i) {
      BodyId load = world.CreateBody({.type = BodyType::Dynamic, .position = {4.0f * F(i), kBridgeY + 1.0f}});
      world.CreateShape(load, {.density = 2.0f}, MakeBox(0.4f, 0.4f).value);
    }
    text = "three 1.28 kg loads dropped";
  }
};

// --- gear_lift ---------------------------------------------------------------------------------

class GearLiftState : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    if (step == kGearMotorStart) world.SetMotorSpeed(joints[0], kGearMotorSpeed);
    if (step == kGearMotorStop) world.SetMotorSpeed(joints[0], 0.0f);
    text = step >= kGearMotorStart && step < kGearMotorStop ? "driver motor on" : "driver motor holding";
  }
};

// A gear at `center`: a disc and kGearTeeth teeth, the first at angle `phase`, on a revolute joint to
// the ground (a motor at speed 0 with `motorTorque`, when not 0); the joint is appended to state.joints.
BodyId AddGear(World& world, SceneState& state, BodyId ground, Vec2 center, float phase, float motorTorque) {
  BodyId gear =
      AddDynamic(world, state, {.position = center}, {.friction = 0.1f}, Circle{{0.0f, 0.0f}, kGearRadius});
  for (int i = 0; i < kGearTeeth; ++i) {
    const float angle = phase + 2.0f * kPi * F(i) / F(kGearTeeth);
    const Vec2 at = (kGearRadius + 0.08f) * Vec2{Cos(angle), Sin(angle)};
    world.CreateShape(gear, {.friction = 0.1f}, RoundedBoxAt(0.08f, 0.07f, at, angle, 0.03f));
  }
  RevoluteJointDef hinge{
      {.bodyA = ground, .bodyB = gear, .localAnchorA = center + Vec2{0.0f, 1.0f}}};  // ground at y = -1
  hinge.enableMotor = motorTorque > 0.0f, hinge.maxMotorTorque = motorTorque;
  AddPointJoint(world, state, hinge);
  return gear;
}

// --- body_move_events --------------------------------------------------------------------------

class BodyMoveState : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    // The events of the step before this one: readable until the next Step.
    int asleep = 0;
    for (const BodyMoveEvent& e : world.GetBodyMoveEvents()) asleep += e.fellAsleep ? 1 : 0;
    const int moved = static_cast<int>(world.GetBodyMoveEvents().size());
    total_ += moved;
    fellAsleep_ += asleep;
    text = "body move events last step: " + std::to_string(moved) +
           "   fell asleep: " + std::to_string(asleep) + "   total: " + std::to_string(total_) + " (" +
           std::to_string(fellAsleep_) + " asleep)";
    if (step == kMoveEventsBallStep) {
      BodyId ball = world.CreateBody({.type = BodyType::Dynamic, .position = {0.5f, 14.0f}});
      world.CreateShape(ball, {.density = 4.0f}, Circle{{0.0f, 0.0f}, 1.0f});
    }
  }

 private:
  int total_ = 0, fellAsleep_ = 0;
};

// --- joint_events ------------------------------------------------------------------------------

class JointEventState : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    for (const JointEvent& e : world.GetJointEvents()) {
      ++events_;
      char line[128];
      const auto threshold = static_cast<float>(reinterpret_cast<std::uintptr_t>(e.userData));
      std::snprintf(line, sizeof line, "joint events: %d   last: %.0f N threshold broke at %.1f N (step %d)",
                    events_, threshold, Length(e.force), step - 1);
      text = line;
    }
    const float pull = kBreakForceRate * F(step) * kTimeStep;
    for (std::size_t i = 0; i < joints.size(); ++i) {
      if (world.IsValid(joints[i])) world.ApplyForceToCenter(bodies[i], {0.0f, -pull});
    }
  }

 private:
  int events_ = 0;
};

}  // namespace

// Down again to the build length, where the top level folds over (README, Porting from Box2D v3: Samples).
float samples::LiftMotorSpeed(int step) {
  if (step < 300) return kLiftMotorSpeed;
  if (step < 420) return 0.0f;
  if (step < 720) return -kLiftMotorSpeed;
  return 0.0f;
}

std::vector<Vec2> samples::DrivingTerrain() {
  // Flat start, two 3 m hills, bumps every 2 m, a 15% climb to a plateau.
  std::vector<Vec2> points;
  for (int i = -20; i <= 160; ++i) {
    const float x = F(i);
    float y = 0.0f;
    if (x >= 10.0f && x < 50.0f) y = 1.5f * (1.0f - Cos((x - 10.0f) * kPi / 10.0f));
    if (x >= 60.0f && x < 80.0f && i % 2 != 0) y = 0.2f;
    if (x >= 90.0f) y = 0.15f * (std::min(x, 110.0f) - 90.0f);
    points.push_back({x, y});
  }
  return points;
}

std::unique_ptr<SceneState> BuildScissorLift(World& world, const SceneParams&) {
  // Near flat, a scissor level turns its small change of width into a large change of height, and the
  // load's weight into pin forces many times larger: at the world's 60 Hz joints the pins stretch by
  // centimetres and the upper levels flatten and fold over (as Box2D v3's sample, its pins are made
  // stiffer: 240 Hz, damping ratio 20, and the scene's row runs 8 sub-steps).
  auto stiff = [](auto def) {
    def.constraintHertz = 240.0f, def.constraintDampingRatio = 20.0f;
    return def;
  };
  auto state = std::make_unique<ScissorLiftState>();
  BodyId ground = helpers::AddGroundBox(world, 20.0f);
  const float half = 0.5f * kLiftBarLength, c = Cos(kLiftStartAngle), s = Sin(kLiftStartAngle);
  const float rise = kLiftBarLength * s, rightX = kLiftLeftX + kLiftBarLength * c;
  const ShapeDef barDef{.filter = {.groupIndex = -1}};  // the linkage never collides with itself
  const Capsule bar{{-half, 0.0f}, {half, 0.0f}, 0.15f};
  // Bodies first (joints refer to them): level i's rising bar goes from (left, y) to (right, y + rise),
  // its falling bar from (left, y + rise) to (right, y).
  for (int i = 0; i < kLiftLevels; ++i) {
    const Vec2 center{kLiftLeftX + half * c, kLiftBaseY + rise * (F(i) + 0.5f)};
    AddDynamic(world, *state, {.position = center, .angle = kLiftStartAngle}, barDef, bar);
    AddDynamic(world, *state, {.position = center, .angle = -kLiftStartAngle}, barDef, bar);
  }
  const float platformY = kLiftBaseY + F(kLiftLevels) * rise + kLiftPlatformDrop;
  BodyId platform =
      AddDynamic(world, *state, {.position = {0.0f, platformY}}, barDef, MakeBox(2.6f, 0.2f).value);
  AddDynamic(world, *state, {.position = {0.5f, platformY + 0.7f}}, {.density = 2.0f},
             MakeBox(0.5f, 0.5f).value);

  // The motor first: state.joints[0]. Spring on at 0 Hz: a free length the motor drives, within limits.
  const float a = half - kLiftMotorArm, b = half + kLiftMotorArm;
  DistanceJointDef lift{{.bodyA = ground,
                         .bodyB = state->bodies[1],
                         .localAnchorA = {kLiftLeftX, 1.0f + kLiftBaseY},
                         .localAnchorB = {-kLiftMotorArm, 0.0f}}};
  lift.length = std::sqrt(a * a * c * c + b * b * s * s);
  lift.enableSpring = true, lift.hertz = 0.0f;
  lift.enableLimit = true, lift.minLength = 0.6f, lift.maxLength = 2.4f;
  lift.enableMotor = true, lift.maxMotorForce = 3000.0f;
  state->joints.push_back(world.CreateJoint(lift));

  // A pin at the left end and a slider (a wheel joint without spring: free along x, free to turn) at
  // the right, below and above every level; pins at the crossings and between levels.
  auto pin = [&](BodyId bodyA, BodyId bodyB, Vec2 anchorA, Vec2 anchorB) {
    AddPointJoint(world, *state,
                  stiff(RevoluteJointDef{
                      {.bodyA = bodyA, .bodyB = bodyB, .localAnchorA = anchorA, .localAnchorB = anchorB}}));
  };
  auto slider = [&](BodyId bodyA, BodyId bodyB, Vec2 anchorA, Vec2 anchorB) {
    WheelJointDef def{{.bodyA = bodyA, .bodyB = bodyB, .localAnchorA = anchorA, .localAnchorB = anchorB}};
    def.localAxisA = {1.0f, 0.0f}, def.enableSpring = false;
    state->joints.push_back(world.CreateJoint(stiff(def)));
  };
  BodyId belowLeft = ground, belowRight = ground;
  Vec2 anchorLeft{kLiftLeftX, 1.0f + kLiftBaseY}, anchorRight{rightX, 1.0f + kLiftBaseY};
  for (int i = 0; i < kLiftLevels; ++i) {
    BodyId risingBar = state->bodies[static_cast<std::size_t>(2 * i)];
    BodyId fallingBar = state->bodies[static_cast<std::size_t>(2 * i + 1)];
    pin(risingBar, fallingBar, {0.0f, 0.0f}, {0.0f, 0.0f});
    pin(belowLeft, risingBar, anchorLeft, {-half, 0.0f});
    if (i == 0) {
      slider(belowRight, fallingBar, anchorRight, {half, 0.0f});
    } else {
      pin(belowRight, fallingBar, anchorRight, {half, 0.0f});
    }
    belowLeft = fallingBar, belowRight = risingBar;  // the upper-left end is the falling bar's
    anchorLeft = {-half, 0.0f}, anchorRight = {half, 0.0f};
  }
  pin(platform, belowLeft, {kLiftLeftX, -kLiftPlatformDrop}, anchorLeft);
  slider(platform, belowRight, {rightX, -kLiftPlatformDrop}, anchorRight);
  state->view = {{-8.0f, -1.0f}, {8.0f, 12.0f}};
  return state;
}

std::unique_ptr<SceneState> BuildDriving(World& world, const SceneParams&) {
  auto state = std::make_unique<DrivingState>();
  std::vector<Vec2> points = DrivingTerrain();
  std::vector<Vec2> reversed(points.rbegin(), points.rend());  // solid side below: right of p[i] -> p[i+1]
  BodyId ground = world.CreateBody({});
  world.CreateChain(ground, {.points = reversed, .friction = 0.9f});

  const float chassisY = kCarWheelRadius - kCarWheelY + 0.1f;
  BodyId chassis = AddDynamic(world, *state, {.position = {0.0f, chassisY}}, {.density = 2.0f},
                              MakeRoundedBox(1.5f, 0.2f, 0.05f).value);
  world.CreateShape(chassis, {.density = 1.0f}, MakeOffsetBox(0.7f, 0.25f, {-0.2f, 0.45f}, 0.0f).value);
  for (float side : {-1.0f, 1.0f}) {
    const Vec2 anchor{side * kCarWheelX, kCarWheelY};
    BodyId wheel = AddDynamic(world, *state, {.position = Vec2{0.0f, chassisY} + anchor},
                              {.density = 2.0f, .friction = 0.9f}, Circle{{0.0f, 0.0f}, kCarWheelRadius});
    WheelJointDef axle{{.bodyA = chassis, .bodyB = wheel, .localAnchorA = anchor}};
    axle.hertz = 4.0f, axle.dampingRatio = 0.7f;
    axle.enableLimit = true, axle.lowerTranslation = -kCarSuspensionTravel,
    axle.upperTranslation = kCarSuspensionTravel;
    axle.enableMotor = true, axle.maxMotorTorque = 20.0f;
    state->joints.push_back(world.CreateJoint(axle));
  }
  state->follow = chassis;
  state->view = {{-8.0f, -4.0f}, {8.0f, 6.0f}};
  return state;
}

std::unique_ptr<SceneState> BuildBridge(World& world, const SceneParams&) {
  auto state = std::make_unique<BridgeState>();
  BodyId ground = helpers::AddGroundBox(world, 20.0f);
  const float halfSpan = 0.5f * kBridgeSpan;
  for (float side : {-1.0f, 1.0f})
    world.CreateShape(
        ground, {},
        MakeOffsetBox(0.5f, 0.5f * kBridgeY, {side * (halfSpan + 0.5f), 0.5f * kBridgeY + 1.0f}, 0.0f).value);
  // Start on the catenary of the bridge's length, so it starts nearly at rest: y = a cosh(x / a) with
  // 2 a sinh(halfSpan / a) = length (a by bisection), the joints equally spaced along the arc.
  const double length = kBridgePlanks * double{kBridgePlankLength}, h = halfSpan;
  double lo = 0.5, hi = 1000.0;
  for (int i = 0; i < 80; ++i) {
    const double mid = 0.5 * (lo + hi);
    (2.0 * mid * Sinh(h / mid) > length ? lo : hi) = mid;
  }
  const double a = 0.5 * (lo + hi);
  std::vector<Vec2> joints;
  for (int k = 0; k <= kBridgePlanks; ++k) {
    const double arc = -0.5 * length + k * double{kBridgePlankLength};  // from the lowest point
    double xlo = -h, xhi = h;
    for (int i = 0; i < 60; ++i) {
      const double mid = 0.5 * (xlo + xhi);
      (a * Sinh(mid / a) < arc ? xlo : xhi) = mid;
    }
    const double x = 0.5 * (xlo + xhi);
    joints.push_back({static_cast<float>(x), static_cast<float>(kBridgeY - a * (Cosh(h / a) - Cosh(x / a)))});
  }
  const float half = 0.5f * kBridgePlankLength;
  const Polygon plank = MakeBox(half, 0.08f).value;
  for (int k = 0; k < kBridgePlanks; ++k) {
    const Vec2 d = joints[static_cast<std::size_t>(k + 1)] - joints[static_cast<std::size_t>(k)];
    AddDynamic(world, *state,
               {.position = joints[static_cast<std::size_t>(k)] + 0.5f * d, .angle = Atan2(d.y, d.x)},
               {.density = 2.0f}, plank);
  }
  BodyId previous = ground;
  Vec2 anchor{-halfSpan, kBridgeY + 1.0f};  // the ground body sits at y = -1
  for (BodyId body : std::vector<BodyId>(state->bodies)) {
    AddPointJoint(
        world, *state,
        RevoluteJointDef{
            {.bodyA = previous, .bodyB = body, .localAnchorA = anchor, .localAnchorB = {-half, 0.0f}}});
    previous = body, anchor = {half, 0.0f};
  }
  AddPointJoint(world, *state,
                RevoluteJointDef{{.bodyA = previous,
                                  .bodyB = ground,
                                  .localAnchorA = anchor,
                                  .localAnchorB = {halfSpan, kBridgeY + 1.0f}}});
  state->view = {{-11.0f, -1.0f}, {11.0f, 11.0f}};
  return state;
}

std::unique_ptr<SceneState> BuildGearLift(World& world, const SceneParams&) {
  auto state = std::make_unique<GearLiftState>();
  BodyId ground = helpers::AddGroundBox(world, 10.0f);
  const Vec2 idlerAt{0.0f, 6.0f}, driverAt{-2.24f, 6.0f};
  // The driver's first tooth points at the idler, whose teeth sit half a pitch off it.
  const float pitchAngle = 2.0f * kPi / F(kGearTeeth);
  AddGear(world, *state, ground, driverAt, 0.0f, 150.0f);  // holds (speed 0) until the script starts it
  AddGear(world, *state, ground, idlerAt, 0.5f * pitchAngle, 0.0f);
  // The rack: a spine whose teeth reach in to kGearMeshInner from the idler's centre, spaced at the
  // gears' pitch on the circle where they mesh, and a platform at its top.
  const float pitch = pitchAngle * 0.5f * (kGearMeshInner + kGearTipRadius);
  const Vec2 rackAt{idlerAt.x + 1.39f, idlerAt.y};
  BodyId rack = AddDynamic(world, *state, {.position = rackAt}, {.friction = 0.1f},
                           MakeOffsetBox(0.15f, 3.0f, {0.0f, -2.0f}, 0.0f).value);
  for (int j = -11; j <= 1; ++j)
    world.CreateShape(rack, {.friction = 0.1f},
                      RoundedBoxAt(0.08f, 0.07f, {-0.23f, pitch * F(j)}, 0.0f, 0.03f));
  world.CreateShape(rack, {}, MakeOffsetBox(1.1f, 0.1f, {0.95f, 1.1f}, 0.0f).value);
  AddDynamic(world, *state, {.position = rackAt + Vec2{1.1f, 1.6f}}, {.density = 2.0f},
             MakeBox(0.4f, 0.4f).value);
  PrismaticJointDef slide{{.bodyA = ground, .bodyB = rack, .localAnchorA = rackAt + Vec2{0.0f, 1.0f}}};
  slide.localAxisA = {0.0f, 1.0f};
  slide.enableLimit = true, slide.lowerTranslation = -0.2f, slide.upperTranslation = 4.0f;
  state->joints.push_back(world.CreateJoint(slide));
  state->view = {{-5.0f, -0.5f}, {5.5f, 12.0f}};
  return state;
}

std::unique_ptr<SceneState> BuildBodyMoveEvents(World& world, const SceneParams&) {
  auto state = std::make_unique<BodyMoveState>();
  helpers::AddRoom(world, *state, {{-6.0f, 0.0f}, {6.0f, 20.0f}});
  for (int i = 0; i < 64; ++i) {
    const Vec2 at{-4.5f + 1.3f * F(i % 8), 3.0f + 1.6f * F(i / 8)};
    const BodyDef def{.position = at, .angle = 0.3f * F(i % 5)};
    if (i % 3 == 0) {
      AddDynamic(world, *state, def, {}, MakeBox(0.45f, 0.35f).value);
    } else if (i % 3 == 1) {
      AddDynamic(world, *state, def, {}, Circle{{0.0f, 0.0f}, 0.4f});
    } else {
      AddDynamic(world, *state, def, {}, Capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.25f});
    }
  }
  state->text = "body move events last step: 0";
  // The whole room with room above it for the text line: framed on the falling bodies, the room's top
  // was cut off and the line ran across both walls at 900 x 560.
  state->view = {{-7.0f, -1.5f}, {7.0f, 23.0f}};
  return state;
}

std::unique_ptr<SceneState> BuildJointEvents(World& world, const SceneParams&) {
  auto state = std::make_unique<JointEventState>();
  BodyId ground = helpers::AddGroundBox(world, 12.0f);
  world.CreateShape(ground, {},
                    MakeOffsetBox(11.0f, 0.25f, {0.0f, 9.25f}, 0.0f).value);  // ceiling, y = 8 below
  const float side = 0.5f, density = kBreakMass / (4.0f * side * side);
  for (std::size_t i = 0; i < std::size(kBreakThresholds); ++i) {
    const float x = -8.0f + 4.0f * F(static_cast<int>(i));
    AddDynamic(world, *state, {.position = {x, 8.0f - 1.0f - side}}, {.density = density},
               MakeBox(side, side).value);
    RevoluteJointDef hook{{.bodyA = ground,
                           .bodyB = state->bodies.back(),
                           .localAnchorA = {x, 9.0f},
                           .localAnchorB = {0.0f, side + 1.0f}}};
    hook.forceThreshold = kBreakThresholds[i], hook.destroyOnBreak = true;
    hook.userData = reinterpret_cast<void*>(static_cast<std::uintptr_t>(kBreakThresholds[i]));
    state->joints.push_back(world.CreateJoint(hook));
  }
  state->text = "joint events: 0";
  return state;
}

}  // namespace mk::scenes
