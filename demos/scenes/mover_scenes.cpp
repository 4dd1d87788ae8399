// SPDX-License-Identifier: MIT
// Feature scenes for character movers (minkowski/mover.h): a capsule character moved by the game, not
// by the solver, through World::CollideMover, SolvePlanes, World::CastMover and ClipVector only.
#include "minkowski/mover.h"
#include "scene_builders.h"

#include <cmath>
#include <memory>

namespace mk::scenes {

namespace {

constexpr float kGravity = 10.0f;     // m/s^2, the character's own (the world's is for bodies)
constexpr float kWalkSpeed = 4.0f;    // m/s
constexpr float kJumpSpeed = 6.0f;    // m/s
constexpr float kMaxWalkable = 0.9f;  // radians (52 degrees): a flatter plane under the capsule is ground
constexpr int kMaxPlanes = 8;
constexpr int kMoveRounds = 4;        // collide, solve, cast rounds per step
constexpr float kHalfHeight = 0.45f;  // the capsule's core, about its position (m)
constexpr float kRadius = 0.3f;
constexpr std::uint32_t kCharacterCategory = 0x2;
constexpr QueryFilter kMoverFilter{.categoryBits = kCharacterCategory, .maskBits = ~kCharacterCategory};
// The platform (half width 1.4 m) patrols at this speed (m/s) between the ledge (x <= 11) and the
// landing (x >= 18), stopping 5 cm short of each.
constexpr float kPlatformHalfWidth = 1.4f, kPlatformSpeed = 2.0f;
constexpr float kPlatformLeft = 11.05f + kPlatformHalfWidth, kPlatformRight = 17.95f - kPlatformHalfWidth;

// The script's phases, advanced by where the character is.
enum class Phase { WalkAndJump, ClimbSteps, StandOnSlope, WaitForPlatform, Ride, Leave };

class CharacterMoverState final : public SceneState {
 public:
  BodyId character, platform;
  Vec2 position{-6.0f, kHalfHeight + kRadius + kMoverSkin};
  Vec2 velocity{0.0f, 0.0f};
  Phase phase = Phase::WalkAndJump;
  int phaseStart = 0;

  void PreStep(World& world, int step) override {
    Patrol(world);
    // Ground: a plane flat enough, within two skins, under the capsule.
    PlaneResult found[kMaxPlanes];
    const int n = world.CollideMover(Mover(position), kMoverFilter, found);
    bool grounded = false;
    Vec2 carried{0.0f, 0.0f};
    for (int i = 0; i < n; ++i) {
      if (found[i].plane.normal.y < mk::Cos(kMaxWalkable) || found[i].separation > 2.0f * kMoverSkin)
        continue;
      grounded = true;
      if (world.GetBody(found[i].shape) == platform) carried = world.GetLinearVelocity(platform);
    }
    const float walk = Script(step, grounded, world);
    if (grounded) {
      velocity = {walk * kWalkSpeed, 0.0f};
      if (phase == Phase::WalkAndJump && step == 30) velocity.y = kJumpSpeed;
    } else {
      velocity.x += 0.1f * (walk * kWalkSpeed - velocity.x);  // some air control
      velocity.y -= kTimeStep * kGravity;
    }
    Move(world, position + kTimeStep * (velocity + carried));
    world.SetTransform(character, position, 0.0f);
  }

 private:
  static Capsule Mover(Vec2 p) { return {p - Vec2{0.0f, kHalfHeight}, p + Vec2{0.0f, kHalfHeight}, kRadius}; }

  // Up to kMoveRounds of: the planes here, the nearest change satisfying them, as far along it as the
  // cast allows. Then the velocity loses what points into the planes.
  void Move(const World& world, Vec2 target) {
    CollisionPlane planes[kMaxPlanes];
    int count = 0;
    for (int round = 0; round < kMoveRounds; ++round) {
      PlaneResult found[kMaxPlanes];
      count = world.CollideMover(Mover(position), kMoverFilter, found);
      for (int i = 0; i < count; ++i) planes[i] = {.plane = found[i].plane};
      const PlaneSolverResult solved =
          SolvePlanes(target - position, {planes, static_cast<std::size_t>(count)});
      const float fraction = world.CastMover(Mover(position), solved.delta, kMoverFilter);
      position += fraction * solved.delta;
      if (LengthSquared(fraction * solved.delta) < 1e-10f) break;
    }
    velocity = ClipVector(velocity, {planes, static_cast<std::size_t>(count)});
  }

  void Patrol(World& world) {
    const float x = world.GetPosition(platform).x;
    const float v = world.GetLinearVelocity(platform).x;
    if (x >= kPlatformRight && v > 0.0f) world.SetLinearVelocity(platform, {-kPlatformSpeed, 0.0f});
    if (x <= kPlatformLeft && v < 0.0f) world.SetLinearVelocity(platform, {kPlatformSpeed, 0.0f});
  }

  void Enter(Phase next, int step) {
    phase = next;
    phaseStart = step;
  }

  // The walking input (-1..1) of this step: walk and jump, up the steps and the slope, stand on the
  // slope for 1.5 s, wait for the platform to come, step on, ride it for 2 s, walk off to the far side.
  float Script(int step, bool grounded, const World& world) {
    const float platformX = world.GetPosition(platform).x;
    const float platformV = world.GetLinearVelocity(platform).x;
    switch (phase) {
      case Phase::WalkAndJump:
        if (position.x > -1.0f) Enter(Phase::ClimbSteps, step);
        return 1.0f;
      case Phase::ClimbSteps:
        if (position.x > 7.5f && grounded) Enter(Phase::StandOnSlope, step);
        return 1.0f;
      case Phase::StandOnSlope:
        if (step - phaseStart > 90) Enter(Phase::WaitForPlatform, step);
        return 0.0f;
      case Phase::WaitForPlatform:
        if (position.x < 10.6f) return 1.0f;
        if (platformX <= kPlatformLeft + 0.1f && platformV > 0.0f) Enter(Phase::Ride, step);
        return 0.0f;
      case Phase::Ride:
        if (step - phaseStart < 40) return 1.0f;  // step on
        if (step - phaseStart > 120 && platformX >= kPlatformRight - 0.2f) Enter(Phase::Leave, step);
        return 0.0f;
      case Phase::Leave:
        return position.x < 21.0f ? 1.0f : 0.0f;
    }
    return 0.0f;
  }
};

ShapeId AddStaticBox(World& world, BodyId ground, float left, float right, float bottom, float top) {
  return world.CreateShape(ground, {},
                           MakeOffsetBox(0.5f * (right - left), 0.5f * (top - bottom),
                                         {0.5f * (left + right), 0.5f * (bottom + top)}, 0.0f)
                               .value);
}

}  // namespace

std::unique_ptr<SceneState> BuildCharacterMover(World& world, const SceneParams&) {
  auto state = std::make_unique<CharacterMoverState>();
  const BodyId ground = world.CreateBody({});
  AddStaticBox(world, ground, -10.0f, 6.0f, -1.0f, 0.0f);
  // Three 0.1 m steps, then a 25 degree slope up to a ledge, a gap the platform crosses, and a landing.
  for (int i = 0; i < 3; ++i) AddStaticBox(world, ground, 2.0f + 0.8f * i, 6.0f, 0.0f, 0.1f * (i + 1));
  const float slope = 0.436f, rise = 3.0f * mk::Sin(slope) / mk::Cos(slope);
  const Vec2 foot{6.0f, 0.3f}, head{9.0f, 0.3f + rise};
  const Vec2 ramp[] = {foot, head, {9.0f, -1.0f}, {6.0f, -1.0f}};
  world.CreateShape(ground, {}, MakePolygon(ramp).value);
  AddStaticBox(world, ground, 9.0f, 11.0f, -1.0f, head.y);
  AddStaticBox(world, ground, 18.0f, 24.0f, -1.0f, head.y);
  AddStaticBox(world, ground, 23.5f, 24.0f, head.y, head.y + 3.0f);  // a wall at the far end
  state->platform = world.CreateBody({.type = BodyType::Kinematic,
                                      .position = {kPlatformRight, head.y - 0.15f},
                                      .linearVelocity = {-kPlatformSpeed, 0.0f}});
  world.CreateShape(state->platform, {}, MakeBox(kPlatformHalfWidth, 0.15f).value);
  state->character = world.CreateBody({.type = BodyType::Kinematic, .position = state->position});
  world.CreateShape(state->character, {.filter = {.categoryBits = kCharacterCategory, .maskBits = 0}},
                    MakeCapsule({0.0f, -kHalfHeight}, {0.0f, kHalfHeight}, kRadius).value);
  state->bodies.push_back(state->character);
  state->view = {{-11.0f, -2.0f}, {25.0f, 8.0f}};
  return state;
}

}  // namespace mk::scenes
