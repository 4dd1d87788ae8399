// SPDX-License-Identifier: MIT
// Feature scenes of surface materials and filters (issue 29): a conveyor belt, rolling resistance,
// a custom pair filter. Built from the behaviour each feature promises (world_types.h).
#include "scene_builders.h"
#include "scene_helpers.h"

#include <cstdint>
#include <memory>

namespace mk::scenes {

using namespace helpers;

// Two belts (static boxes with tangent speed, friction 0.8): the upper one carries a row of boxes to
// the right and drops them onto the lower one, which runs back to the left into a wall. Bodies: the
// boxes, left to right.
std::unique_ptr<SceneState> BuildConveyorBelt(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  const BodyId ground = world.CreateBody({});
  world.CreateShape(ground, {}, MakeOffsetBox(20.0f, 0.5f, {0.0f, -0.5f}, 0.0f).value);
  world.CreateShape(ground, {}, MakeOffsetBox(0.5f, 4.0f, {-14.5f, 3.5f}, 0.0f).value);
  world.CreateShape(ground, {.friction = 0.8f, .tangentSpeed = 3.0f},
                    MakeOffsetBox(8.0f, 0.25f, {-4.0f, 6.0f}, 0.0f).value);
  world.CreateShape(ground, {.friction = 0.8f, .tangentSpeed = -2.0f},
                    MakeOffsetBox(9.0f, 0.25f, {0.0f, 2.0f}, 0.0f).value);
  for (int i = 0; i < 8; ++i) {
    AddDynamic(world, *state, {.position = {-11.0f + 1.5f * F(i), 6.75f}}, {.friction = 0.8f},
               MakeBox(0.5f, 0.5f).value);
  }
  state->bounds = {{-16.0f, -1.0f}, {16.0f, 12.0f}};
  state->view = {{-16.0f, -1.5f}, {16.0f, 9.0f}};  // both belts end to end: the boxes ride them
  return state;
}

// Five balls rolled at 6 m/s up the same gentle slope (0.1 rad) with rolling resistance 0, 0.05, 0.1,
// 0.2 and 0.4: each stops sooner (v0^2 1.5 / (2 g (c cos a + sin a)) up the slope), and the two with c >
// tan a stay where they stop; the others roll back. Bodies: the balls, c ascending.
std::unique_ptr<SceneState> BuildRollingResistance(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  const float slope = 0.1f;
  const Vec2 up{Cos(slope), Sin(slope)};
  const Vec2 n{-Sin(slope), Cos(slope)};
  const float resistances[] = {0.0f, 0.05f, 0.1f, 0.2f, 0.4f};
  for (int i = 0; i < 5; ++i) {
    const float lane = 3.0f * F(i);  // each ball on its own ramp, stacked vertically
    const BodyId ramp = world.CreateBody({.position = {0.0f, lane}, .angle = slope});
    world.CreateShape(ramp, {.friction = 1.0f}, MakeBox(20.0f, 0.25f).value);
    const Vec2 start = Vec2{0.0f, lane} + 0.75f * n - 15.0f * up;
    AddDynamic(world, *state, {.position = start, .linearVelocity = 6.0f * up, .angularVelocity = -12.0f},
               {.friction = 1.0f, .rollingResistance = resistances[i]}, Circle{{0.0f, 0.0f}, 0.5f});
  }
  state->bounds = {{-21.0f, -3.0f}, {21.0f, 16.0f}};
  return state;
}

namespace {

// Shapes whose user data is odd refuse each other (and only each other): red-marked balls fall
// through the red-marked shelf, the rest land on it.
bool OddRefusesOdd(ShapeId a, ShapeId b, void* context) {
  const World& world = *static_cast<const World*>(context);
  const auto odd = [&](ShapeId s) {
    return (reinterpret_cast<std::uintptr_t>(world.GetUserData(s)) & 1) != 0;
  };
  return !(odd(a) && odd(b));
}

}  // namespace

// A shelf (user data 1: odd) over the ground and 20 balls dropped on it, numbered 2..21 in their
// user data: the custom filter lets the odd ones through the shelf to the ground. Bodies: the balls.
std::unique_ptr<SceneState> BuildCustomFilter(World& world, const SceneParams&) {
  auto state = std::make_unique<SceneState>();
  world.SetCustomFilterCallback(OddRefusesOdd, &world);
  const BodyId ground = world.CreateBody({});
  world.CreateShape(ground, {}, MakeOffsetBox(15.0f, 0.5f, {0.0f, -0.5f}, 0.0f).value);
  world.CreateShape(
      ground,
      {.customColor = 0xE04040u, .enableCustomFiltering = true, .userData = reinterpret_cast<void*>(1)},
      MakeOffsetBox(12.0f, 0.25f, {0.0f, 4.0f}, 0.0f).value);
  for (int i = 0; i < 20; ++i) {
    const std::uintptr_t number = static_cast<std::uintptr_t>(i) + 2;
    AddDynamic(world, *state, {.position = {-10.0f + 1.05f * F(i), 8.0f + 0.5f * F(i % 3)}},
               {.customColor = (number & 1) ? 0xE04040u : 0u,
                .enableCustomFiltering = true,
                .userData = reinterpret_cast<void*>(number)},
               Circle{{0.0f, 0.0f}, 0.4f});
  }
  state->bounds = {{-16.0f, -1.0f}, {16.0f, 12.0f}};
  return state;
}

}  // namespace mk::scenes
