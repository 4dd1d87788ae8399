// SPDX-License-Identifier: MIT
// Stress scenes: small set-ups that each push one weakness of an iterative solver (tall stacks,
// balance on corners, arches held by friction alone, mass ratios, friction and restitution
// thresholds, long joint chains, jointed bodies with limits and springs). Our own designs: each
// builder documents its geometry, and the tests in tests/scenes check what it should do.
#include "ragdoll.h"
#include "scene_builders.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

namespace mk::scenes {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

/// Static ground whose top surface is y = 0 (a box 2 * halfWidth wide, 2 m thick).
BodyId AddGround(World& world, float halfWidth, float friction = 0.6f, float restitution = 0.0f) {
  BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(ground, {.friction = friction, .restitution = restitution},
                    MakeBox(halfWidth, 1.0f).value);
  return ground;
}

BodyId AddBody(World& world, Vec2 position, float angle, const ShapeDef& def, const Polygon& polygon,
               std::vector<BodyId>& out) {
  BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = position, .angle = angle});
  world.CreateShape(body, def, polygon);
  out.push_back(body);
  return body;
}

float F(int i) { return static_cast<float>(i); }

}  // namespace

// size = number of 1 m boxes (20), stacked exactly touching on the ground at x = 0.
std::unique_ptr<SceneState> BuildVerticalStack(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  AddGround(world, 20.0f);
  const Polygon box = MakeBox(0.5f, 0.5f).value;
  for (int i = 0; i < params.size; ++i) AddBody(world, {0.0f, 0.5f + F(i)}, 0.0f, {}, box, state->bodies);
  return state;
}

// size = levels (4). Cards 1 m x 2 cm lean in pairs ("A-frames", 15 degrees off vertical, outer top
// corners at height H) with a flat card bridging each two neighbouring A-frames; the next level's
// A-frames stand on those flat cards. A symmetric A-frame stands while tan(15 deg) = 0.27 <= 2 mu
// (moments about a foot: top thrust = W tan(theta) / 2 against base friction mu W). Bodies: first the
// leaning cards of level 0 left to right (left card, right card), then its flat cards, then level 1 ...
std::unique_ptr<SceneState> BuildCardHouse(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  AddGround(world, 20.0f, 0.7f);
  constexpr float kHalfLength = 0.5f, kHalfThickness = 0.01f;
  const float theta = 15.0f * kPi / 180.0f;
  const float s = Sin(theta), c = Cos(theta);
  // Leaning card centre: its lowest corner on the floor, its inner top corner on the A-frame's axis.
  const float centerY = kHalfLength * c + kHalfThickness * s;
  const float centerX = kHalfLength * s + kHalfThickness * c;
  const float frameHeight = 2.0f * centerY;  // outer top corners
  const float spacing = 0.8f;                // between A-frame axes; a flat card (1 m) bridges two
  const Polygon card = MakeBox(kHalfThickness, kHalfLength).value;
  const Polygon flat = MakeBox(kHalfLength, kHalfThickness).value;
  const ShapeDef def{.density = 1.0f, .friction = 0.7f};
  const int levels = params.size;
  float floorY = 0.0f;
  for (int level = 0; level < levels; ++level) {
    const int frames = levels - level;
    const float firstX = -0.5f * spacing * F(frames - 1);
    for (int f = 0; f < frames; ++f) {
      const float x = firstX + spacing * F(f);
      AddBody(world, {x - centerX, floorY + centerY}, -theta, def, card, state->bodies);  // top leans right
      AddBody(world, {x + centerX, floorY + centerY}, theta, def, card, state->bodies);
    }
    floorY += frameHeight;
    for (int f = 0; f + 1 < frames; ++f) {
      AddBody(world, {firstX + spacing * (F(f) + 0.5f), floorY + kHalfThickness}, 0.0f, def, flat,
              state->bodies);
    }
    floorY += 2.0f * kHalfThickness;
  }
  return state;
}

// size = number of voussoirs (odd, 13). A semicircular arch of inner radius 4 m and outer 5 m on the
// ground, centred at x = 0: equal wedges with radial joints, no mortar. Thickness / mean radius = 0.22,
// twice Heyman's minimum for a semicircular arch under its own weight (0.106), so the thrust line
// stays inside and friction (0.6) holds the radial joints.
std::unique_ptr<SceneState> BuildArch(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  AddGround(world, 20.0f);
  constexpr float kInner = 4.0f, kOuter = 5.0f;
  const int n = params.size;
  const ShapeDef def{.density = 1.0f, .friction = 0.6f};
  for (int i = 0; i < n; ++i) {
    // Wedge i spans angles from pi (1 - (i+1)/n) to pi (1 - i/n): the first stands on the right foot.
    const float a0 = kPi * F(i) / F(n), a1 = kPi * F(i + 1) / F(n);
    const Vec2 d0{Cos(a0), Sin(a0)}, d1{Cos(a1), Sin(a1)};
    const Vec2 corners[4] = {kInner * d0, kOuter * d0, kOuter * d1, kInner * d1};
    const Vec2 center = 0.25f * (corners[0] + corners[1] + corners[2] + corners[3]);
    Vec2 local[4];
    for (int k = 0; k < 4; ++k) local[k] = corners[k] - center;
    // The feet rest on y = 0 exactly: sin(0) = 0 and sin(pi) ~ -9e-8, a sub-micron overlap.
    AddBody(world, center, 0.0f, def, MakePolygon(local).value, state->bodies);
  }
  return state;
}

// Two stacks of four 1 m boxes: at x = -3 three 1 kg boxes carry a 100 kg box (bodies[3]); at x = +3
// a 100 kg box (bodies[4]) carries three 1 kg boxes. size, count unused.
std::unique_ptr<SceneState> BuildHighMassRatio(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGround(world, 20.0f);
  const Polygon box = MakeBox(0.5f, 0.5f).value;
  const ShapeDef light{.density = 1.0f}, heavy{.density = 100.0f};
  for (int i = 0; i < 4; ++i)
    AddBody(world, {-3.0f, 0.5f + F(i)}, 0.0f, i == 3 ? heavy : light, box, state->bodies);
  for (int i = 0; i < 4; ++i)
    AddBody(world, {3.0f, 0.5f + F(i)}, 0.0f, i == 0 ? heavy : light, box, state->bodies);
  return state;
}

// count = ramps (5). Ramp k (a static plank 8 m long at 30 degrees) and its 0.5 m box both have
// friction mu_k = 0.2 k, so the mixed coefficient sqrt(mu mu) is mu_k: boxes with mu_k >= tan 30 deg
// = 0.577 (k >= 3) hold, the others slide down at g (sin 30 - mu_k cos 30). bodies[k] is box k.
std::unique_ptr<SceneState> BuildFrictionRamp(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  AddGround(world, 40.0f);
  const float angle = 30.0f * kPi / 180.0f;
  const Vec2 along{Cos(angle), Sin(angle)}, up{-Sin(angle), Cos(angle)};
  const Polygon plank = MakeBox(4.0f, 0.1f).value;
  const Polygon box = MakeBox(0.25f, 0.25f).value;
  for (int k = 0; k < params.count; ++k) {
    const float mu = 0.2f * F(k);
    const Vec2 rampCenter{-6.0f * F(params.count - 1) * 0.5f + 6.0f * F(k) - 4.0f, 3.0f};
    BodyId ramp = world.CreateBody({.position = rampCenter, .angle = angle});
    world.CreateShape(ramp, {.friction = mu}, plank);
    // The box sits 2 m up the plank, resting on its surface (0.1 + 0.25 above the centre line).
    AddBody(world, rampCenter + 2.0f * along + 0.35f * up, angle, {.friction = mu}, box, state->bodies);
  }
  return state;
}

// count = balls (11). Balls of radius 0.5 m dropped from 4 m (bottom to floor) with restitution
// e_k = k / (count - 1) onto a floor with restitution 0 (mixing takes the max): bodies[k] is ball k.
std::unique_ptr<SceneState> BuildRestitutionRow(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  AddGround(world, 40.0f);
  const int n = params.count;
  for (int k = 0; k < n; ++k) {
    const float e = n > 1 ? F(k) / F(n - 1) : 0.0f;
    BodyId ball =
        world.CreateBody({.type = BodyType::Dynamic, .position = {1.5f * (F(k) - 0.5f * F(n - 1)), 4.5f}});
    world.CreateShape(ball, {.restitution = e}, Circle{{0.0f, 0.0f}, 0.5f});
    state->bodies.push_back(ball);
  }
  return state;
}

// count = links (20). A chain of 1 m capsules (radius 0.1) hanging from a static pivot at (0, 22),
// released horizontally: link i spans x = i .. i+1, hinged at x = i to the previous link (or the
// pivot). Links collide with each other (except neighbours), not with the pivot. Every hinge is in
// pointJoints (the figures' joint error).
std::unique_ptr<SceneState> BuildPendulumChain(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  AddGround(world, 40.0f);
  const float height = 22.0f;
  BodyId previous = world.CreateBody({.position = {0.0f, height}});
  const Capsule link{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.1f};
  for (int i = 0; i < params.count; ++i) {
    BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {F(i) + 0.5f, height}});
    world.CreateShape(body, {.density = 1.0f}, link);
    RevoluteJointDef joint;
    joint.bodyA = previous;
    joint.bodyB = body;
    joint.localAnchorA = i == 0 ? Vec2{0.0f, 0.0f} : Vec2{0.5f, 0.0f};
    joint.localAnchorB = {-0.5f, 0.0f};
    state->joints.push_back(world.CreateJoint(joint));
    state->pointJoints.push_back({previous, body, joint.localAnchorA, joint.localAnchorB});
    state->bodies.push_back(body);
    previous = body;
  }
  // Framed for the whole swing, not the start pose: the chain sweeps a half disc of its length
  // below the pivot (down to the ground), 1 m of room around it.
  const float length = F(params.count);
  state->view = {{-length - 1.0f, std::max(height - length, 0.0f) - 1.0f}, {length + 1.0f, height + 1.0f}};
  return state;
}

// size = ragdolls per row (5), count = rows (3). The rain ragdoll (limits, joint friction, springs)
// dropped in staggered rows onto the ground and a few static steps; every ragdoll has its own group,
// so ragdolls collide with each other. Bodies: 11 per ragdoll, row by row.
std::unique_ptr<SceneState> BuildRagdolls(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  BodyId ground = AddGround(world, 40.0f);
  for (int i = 0; i < 4; ++i) {  // steps 0.5 m high and 2 m deep up to x = 8 (ground origin at y = -1)
    const float halfHeight = 0.25f * F(i + 1);
    world.CreateShape(ground, {},
                      MakeOffsetBox(4.0f - F(i), halfHeight, {4.0f + F(i), 1.0f + halfHeight}, 0.0f).value);
  }
  int group = 0;
  for (int row = 0; row < params.count; ++row) {
    for (int k = 0; k < params.size; ++k) {
      const Vec2 base{-5.0f + 2.5f * F(k) + 0.8f * F(row % 2), 3.0f + 2.5f * F(row)};
      Ragdoll ragdoll = CreateRagdoll(world, base, -(++group));
      state->bodies.insert(state->bodies.end(), ragdoll.bodies.begin(), ragdoll.bodies.end());
      state->joints.insert(state->joints.end(), ragdoll.joints.begin(), ragdoll.joints.end());
    }
  }
  return state;
}

}  // namespace mk::scenes
