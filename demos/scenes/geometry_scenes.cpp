// SPDX-License-Identifier: MIT
// Feature scenes for the shape API (issue 29, minkowski/shape_api.h), built from the behaviour the
// calls promise, not from any other engine's samples:
//   modify_geometry: a body on the ground whose one shape becomes a circle, a capsule, a box and a
//     pulsing hexagon in turn (SetCircle, SetCapsule, SetPolygon), with boxes dropped on it again at
//     each change: they land on the new shape and rest on it or slide off;
//   chain_segment: standalone chain segments (CreateChainSegmentShape, SetChainSegment): a hill of
//     16 pieces, each given its neighbours as ghosts, that a box and a wheel cross without bumps; a
//     one-way ledge a ball jumps up through and lands on; a ramp tilted back and forth.
#include "scene_builders.h"
#include "scenes.h"

#include <cmath>
#include <memory>
#include <numbers>

namespace mk::scenes {

namespace {

constexpr int kPhaseSteps = 90;  // 1.5 s per shape

// Cycles the changer's shape every kPhaseSteps: circle, capsule, box, hexagon. During the hexagon's
// phase it is scaled every 10 steps, between 0.8 and 1.5 m circumradius, so the scaled polygon shows.
class ModifyGeometryState final : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    const int phase = (step / kPhaseSteps) % 4;
    const int inPhase = step % kPhaseSteps;
    if (inPhase == 0 && step > 0) {  // the boxes go back on top, to land on the new shape
      for (std::size_t i = 1; i < bodies.size(); ++i) {
        const float k = static_cast<float>(i - 1);
        world.SetTransform(bodies[i], {-0.6f + 0.4f * k, 3.2f + 0.6f * k}, 0.0f);
        world.SetLinearVelocity(bodies[i], {0.0f, 0.0f});
        world.SetAngularVelocity(bodies[i], 0.0f);
      }
    }
    if (phase == 3) {
      if (inPhase % 10 != 0) return;
      const float s =
          0.8f + 0.7f * 0.5f * (1.0f - mk::Cos(2.0f * std::numbers::pi_v<float> * inPhase / kPhaseSteps));
      SetPolygon(world, shape, MakeRegularPolygon(6, s, 0.05f).value);
      return;
    }
    if (inPhase != 0 || step == 0) return;
    if (phase == 0) SetCircle(world, shape, {{0.0f, 0.0f}, 1.1f});
    if (phase == 1) SetCapsule(world, shape, {{-1.4f, 0.0f}, {1.4f, 0.0f}, 0.5f});
    if (phase == 2) SetPolygon(world, shape, MakeBox(1.6f, 0.6f).value);
  }
  ShapeId shape;
};

// chain_segment's moving parts: the ball kicked up through the ledge and the hill's riders launched
// again every kCycleSteps, the ramp rocked.
constexpr int kCycleSteps = 180;  // 3 s
constexpr Vec2 kRampCentre{-6.0f, 6.0f};
constexpr float kRampHalfLength = 3.0f;
constexpr float kRampTilt = 0.15f;  // rad

// The ramp at `angle` (radians): front side up (points right to left), each end a corner onto a ghost
// half a metre below it.
ChainSegment RampAt(float angle) {
  const Vec2 half{kRampHalfLength * mk::Cos(angle), kRampHalfLength * mk::Sin(angle)};
  const Vec2 right = kRampCentre + half, left = kRampCentre - half;
  return {right + Vec2{0.0f, -0.5f}, {right, left}, left + Vec2{0.0f, -0.5f}};
}

class ChainSegmentState final : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    const int inCycle = step % kCycleSteps;
    if (inCycle == 0) {  // the ball from the floor under the ledge, straight up at 10 m/s
      world.SetTransform(ball, {6.0f, 0.45f}, 0.0f);
      world.SetLinearVelocity(ball, {0.0f, 10.0f});
      world.SetAngularVelocity(ball, 0.0f);
    }
    if (inCycle == 60) {  // the hill's riders from before its left foot, rightwards: a box, a wheel
      const float speed[2] = {9.0f, 6.5f};  // m/s: over the 1 m top (the box loses more to friction)
      for (int i = 0; i < 2; ++i) {
        world.SetTransform(riders[i], {-12.0f + 0.8f * i, 0.41f}, 0.0f);
        world.SetLinearVelocity(riders[i], {speed[i], 0.0f});
        world.SetAngularVelocity(riders[i], 0.0f);
      }
    }
    // The ramp rocks +-0.15 rad with a 4 s period, moved every other step: its ends move at most 1.2 cm
    // a step, so the boxes on it stay in front of it (a jump past a box's centre would leave the box
    // behind the one-sided segment, and it would fall through).
    if (step % 2 == 0) {
      const float phase = 2.0f * std::numbers::pi_v<float> * static_cast<float>(step) / 240.0f;
      SetChainSegment(world, ramp, RampAt(kRampTilt * mk::Sin(phase)));
    }
  }
  BodyId ball, riders[2];
  ShapeId ramp;
};

}  // namespace

std::unique_ptr<SceneState> BuildChainSegment(World& world, const SceneParams&) {
  auto state = std::make_unique<ChainSegmentState>();
  const BodyId ground = world.CreateBody({});
  world.CreateShape(ground, {}, MakeOffsetBox(13.0f, 1.0f, {0.0f, -1.0f}, 0.0f).value);
  world.CreateShape(ground, {}, MakeOffsetBox(0.25f, 5.0f, {-12.75f, 5.0f}, 0.0f).value);
  world.CreateShape(ground, {}, MakeOffsetBox(0.25f, 5.0f, {12.75f, 5.0f}, 0.0f).value);
  // The hill: x from -1 down to -11 (right to left, so the front side is up), 1 m high, on the
  // floor; piece i's ghosts are the points either side of it, and the end pieces' the floor's line
  // (points[0] and points[kPieces + 2], a sixteenth beyond the feet).
  constexpr int kPieces = 16;
  Vec2 points[kPieces + 3];
  for (int i = 0; i <= kPieces + 2; ++i) {
    const float t = static_cast<float>(i - 1) / kPieces;
    points[i] = {-1.0f - 10.0f * t, std::fmax(0.0f, 1.0f * mk::Sin(std::numbers::pi_v<float> * t))};
  }
  for (int i = 1; i <= kPieces; ++i) {
    CreateChainSegmentShape(world, ground, {.friction = 0.4f},
                            ChainSegment{points[i - 1], {points[i], points[i + 1]}, points[i + 2]});
  }
  // The one-way ledge: one piece at y = 3 from x = 9 to 3, its ends corners.
  CreateChainSegmentShape(world, ground, {},
                          ChainSegment{{9.0f, 2.5f}, {{9.0f, 3.0f}, {3.0f, 3.0f}}, {3.0f, 2.5f}});
  // The ramp, between two posts that keep its boxes on it.
  state->ramp = CreateChainSegmentShape(world, ground, {.friction = 0.1f}, RampAt(0.0f));
  world.CreateShape(ground, {}, MakeOffsetBox(0.2f, 1.2f, {-9.3f, 6.3f}, 0.0f).value);
  world.CreateShape(ground, {}, MakeOffsetBox(0.2f, 1.2f, {-2.7f, 6.3f}, 0.0f).value);

  state->ball = world.CreateBody({.type = BodyType::Dynamic, .position = {6.0f, 0.45f}});
  world.SetName(state->ball, "ball");
  world.CreateShape(state->ball, {}, Circle{{0.0f, 0.0f}, 0.4f});
  state->bodies.push_back(state->ball);
  state->riders[0] = world.CreateBody({.type = BodyType::Dynamic, .position = {-12.0f, 0.41f}});
  world.CreateShape(state->riders[0], {.friction = 0.2f}, MakeBox(0.4f, 0.4f).value);
  state->riders[1] = world.CreateBody({.type = BodyType::Dynamic, .position = {-11.2f, 0.41f}});
  world.CreateShape(state->riders[1], {.friction = 0.4f, .rollingResistance = 0.02f},
                    Circle{{0.0f, 0.0f}, 0.4f});
  for (BodyId rider : state->riders) state->bodies.push_back(rider);
  for (int i = 0; i < 3; ++i) {
    const BodyId box = world.CreateBody({.type = BodyType::Dynamic, .position = {-7.5f + 1.5f * i, 7.2f}});
    world.CreateShape(box, {.friction = 0.1f}, MakeBox(0.3f, 0.3f).value);
    state->bodies.push_back(box);
  }
  state->floorY = 0.0f;
  state->bounds = {{-12.5f, -0.5f}, {12.5f, 12.0f}};
  return state;
}

std::unique_ptr<SceneState> BuildModifyGeometry(World& world, const SceneParams&) {
  auto state = std::make_unique<ModifyGeometryState>();
  const BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(ground, {}, MakeBox(8.0f, 1.0f).value);
  // Walls keep what the changer throws off near it. The changer does not turn (fixedRotation), so the
  // boxes stay on its flat shapes.
  world.CreateShape(ground, {}, MakeOffsetBox(0.25f, 3.0f, {-7.75f, 4.0f}, 0.0f).value);
  world.CreateShape(ground, {}, MakeOffsetBox(0.25f, 3.0f, {7.75f, 4.0f}, 0.0f).value);
  const BodyId changer =
      world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 1.1f}, .fixedRotation = true});
  world.SetName(changer, "changer");
  state->shape = world.CreateShape(changer, {.friction = 0.8f}, Circle{{0.0f, 0.0f}, 1.1f});
  state->bodies.push_back(changer);
  for (int i = 0; i < 4; ++i) {
    const BodyId box =
        world.CreateBody({.type = BodyType::Dynamic, .position = {-0.9f + 0.6f * i, 2.8f + 0.9f * i}});
    world.CreateShape(box, {.friction = 0.8f}, MakeBox(0.25f, 0.25f).value);
    state->bodies.push_back(box);
  }
  state->floorY = 0.0f;
  state->bounds = {{-7.5f, -0.5f}, {7.5f, 12.0f}};
  return state;
}

}  // namespace mk::scenes
