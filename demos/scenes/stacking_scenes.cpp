// SPDX-License-Identifier: MIT
// Stacking scenes: bodies that should come to rest on each other, and stay where they were put
// (single boxes, columns of boxes, circles and capsules, a leaning tower, a bullet into a column,
// an overfull box, ledges, dominoes, a thin ruler). Rebuilt after the descriptions of Box2D v3's
// "Stacking" samples (ideas only, no code). World defaults (the "aligned" settings) unless the
// table row says otherwise; the ground's top is y = 0.
#include "scene_helpers.h"

#include <memory>

namespace mk::scenes {

using namespace helpers;

// One 1 m box resting exactly on the ground: nothing should move, and it should fall asleep after
// SolverSettings::timeToSleep.
std::unique_ptr<SceneState> BuildSingleBox(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 10.0f);
  AddDynamic(world, *state, {.position = {0.0f, 0.5f}}, {}, MakeBox(0.5f, 0.5f).value);
  return state;
}

// size = boxes (10). A leaning tower: 1 m boxes each 5 cm to the right of the one below. Above any
// box, the boxes' mean centre is at most 0.25 m to its right, half the 0.5 m rigid statics allow, so
// the tower should stand with its top 0.45 m right of the base. (At 8 cm a box, 0.4 m of 0.5, the soft
// contacts' give under the loaded edges lets it creep over within 3 s.)
std::unique_ptr<SceneState> BuildTiltedStack(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 20.0f);
  const Polygon box = MakeBox(0.5f, 0.5f).value;
  for (int i = 0; i < params.size; ++i)
    AddDynamic(world, *state, {.position = {0.05f * F(i), 0.5f + F(i)}}, {}, box);
  return state;
}

// Ten 1 m boxes in a column beside a static wall (its face 5 cm from the column), a trough closed on
// the left at x = -32. A bullet (isBullet, circle of radius 0.25, density 1) starts at x = -30,
// 4.5 m up, at 250 m/s towards the column's fifth box. A body ending beyond the wall's face
// (x > 1) went through it: bounds. Bodies: the ten boxes bottom up, then the bullet.
std::unique_ptr<SceneState> BuildVerticalStackBullet(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 40.0f);
  AddStaticBox(world, {1.5f, 8.0f}, 0.5f, 8.0f);    // wall: face at x = 1
  AddStaticBox(world, {-32.5f, 8.0f}, 0.5f, 8.0f);  // the trough's far end
  const Polygon box = MakeBox(0.5f, 0.5f).value;
  for (int i = 0; i < 10; ++i) AddDynamic(world, *state, {.position = {0.45f, 0.5f + F(i)}}, {}, box);
  AddDynamic(world, *state, {.position = {-30.0f, 4.5f}, .linearVelocity = {250.0f, 0.0f}, .isBullet = true},
             {}, Circle{{0.0f, 0.0f}, 0.25f}, true);
  state->bounds = {{-32.0f, -1.0f}, {1.0f, 30.0f}};
  return state;
}

// size = circles (10). A column of circles of radius 0.5 m exactly touching: balanced only while
// nothing pushes it sideways. The row asks for 90 Hz contacts (a quarter of the 240 Hz sub-step
// rate is 60 Hz, the most the soft step uses at 4 sub-steps).
std::unique_ptr<SceneState> BuildCircleStack(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 20.0f);
  for (int i = 0; i < params.size; ++i)
    AddDynamic(world, *state, {.position = {0.0f, 0.5f + F(i)}}, {}, Circle{{0.0f, 0.0f}, 0.5f});
  return state;
}

// size = capsules (10). Horizontal capsules 2 m long (core 1.5 m, radius 0.25) stacked exactly
// touching: every contact is two rounded faces meeting flat.
std::unique_ptr<SceneState> BuildCapsuleStack(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 20.0f);
  const Capsule capsule{{-0.75f, 0.0f}, {0.75f, 0.0f}, 0.25f};
  for (int i = 0; i < params.size; ++i)
    AddDynamic(world, *state, {.position = {0.0f, 0.25f + 0.5f * F(i)}}, {}, capsule);
  return state;
}

// size = grid side (25). size^2 circles of radius 0.5 in a grid 0.8 m apart (overlapping by 0.2 m
// each way), no gravity, in a closed static box whose interior is 0.84 size m square: the circles'
// area is 1.1 times the room's, so they can never all separate. Bounds: the interior.
std::unique_ptr<SceneState> BuildConfined(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  const int n = params.size;
  const float half = 0.42f * F(n);
  AddRoom(world, *state, {{-half, -half}, {half, half}});
  const float x0 = -0.4f * F(n - 1);
  for (int row = 0; row < n; ++row) {
    for (int col = 0; col < n; ++col)
      AddDynamic(world, *state, {.position = {x0 + 0.8f * F(col), x0 + 0.8f * F(row)}}, {},
                 Circle{{0.0f, 0.0f}, 0.5f});
  }
  return state;
}

// Three static ledges 4 m high and 6 m long, 10 m apart, over a ground: on each, 3 m from its edge,
// a body moving at 5 m/s towards the edge with friction 0.1 (it leaves at about 4.4 m/s): a 1 m box,
// a circle of radius 0.5, a capsule (1 m core, radius 0.25). They fall 4 m and must land, not snag on
// the ledges' corners. Bodies: box, circle, capsule.
std::unique_ptr<SceneState> BuildCliff(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 30.0f);
  const ShapeDef def{.friction = 0.1f};
  for (int k = 0; k < 3; ++k) AddStaticBox(world, {-13.0f + 10.0f * F(k), 2.0f}, 3.0f, 2.0f, 0.0f, def);
  AddDynamic(world, *state, {.position = {-13.0f, 4.5f}, .linearVelocity = {5.0f, 0.0f}}, def,
             MakeBox(0.5f, 0.5f).value);
  AddDynamic(world, *state, {.position = {-3.0f, 4.5f}, .linearVelocity = {5.0f, 0.0f}}, def,
             Circle{{0.0f, 0.0f}, 0.5f});
  AddDynamic(world, *state, {.position = {7.0f, 4.25f}, .linearVelocity = {5.0f, 0.0f}}, def,
             Capsule{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.25f});
  return state;
}

// count = dominoes (15). Box2D v3's Double Domino layout: a row of dominoes 0.25 m x 1 m (density 1,
// friction 0.6), 1 m apart, the first pushed over by an impulse of 0.2 N s at its top. Each domino
// falls across the 1 m gap onto the next, and the last ones end flat on the ground: the deepest
// overlaps are a domino's far end landing at about 2.5 m/s, 4 cm a step against a 2 cm speculative
// margin and under the continuous stage's threshold. Bodies: left to right.
std::unique_ptr<SceneState> BuildDoubleDomino(World& world, const SceneParams& params) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 100.0f);
  const Polygon domino = MakeBox(0.125f, 0.5f).value;
  float x = -0.5f * F(params.count);
  for (int i = 0; i < params.count; ++i, x += 1.0f) {
    const BodyId body = AddDynamic(world, *state, {.position = {x, 0.5f}}, {}, domino);
    if (i == 0) world.ApplyLinearImpulse(body, {0.2f, 0.0f}, {x, 1.0f});
  }
  return state;
}

// A ruler 1 m long and 2 cm thick (density 1) held flat 0.1 m above the ground and dropped: it lands
// flat at 1.4 m/s. A thin body hitting face-on is where a soft contact's push-out and the linear
// slop (5 mm, a quarter of the thickness) show most.
std::unique_ptr<SceneState> BuildRuler(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  AddGroundBox(world, 10.0f);
  AddDynamic(world, *state, {.position = {0.0f, 0.11f}}, {}, MakeBox(0.5f, 0.01f).value);
  return state;
}

}  // namespace mk::scenes
