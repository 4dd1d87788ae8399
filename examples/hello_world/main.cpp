// SPDX-License-Identifier: MIT
// Hello world: a 1 m box falls 4 m onto the ground and comes to rest on it. Units are metres,
// kilograms, seconds and radians throughout.
#include <cmath>
#include <cstdio>
#include <minkowski/world.h>

int main() {
  mk::World world;  // the default WorldDef: gravity (0, -10) m/s^2, 4 sub-steps a step

  // The ground: a static body (the default body type) holding a 100 m x 2 m box whose top is y = 0.
  mk::BodyDef groundDef;
  groundDef.position = {0.0f, -1.0f};
  const mk::BodyId ground = world.CreateBody(groundDef);
  world.CreateShape(ground, mk::ShapeDef{}, mk::MakeBox(50.0f, 1.0f).value);

  // A dynamic 1 m x 1 m box whose centre starts 4 m up, with density 1 kg/m^2 (so 1 kg).
  mk::BodyDef boxDef;
  boxDef.type = mk::BodyType::Dynamic;
  boxDef.position = {0.0f, 4.0f};
  const mk::BodyId box = world.CreateBody(boxDef);
  mk::ShapeDef boxShape;
  boxShape.density = 1.0f;
  boxShape.friction = 0.6f;
  world.CreateShape(box, boxShape, mk::MakeBox(0.5f, 0.5f).value);

  // Two seconds at 60 Hz: the box falls for about 0.8 s, lands, settles and falls asleep.
  const float timeStep = 1.0f / 60.0f;
  for (int step = 1; step <= 120; ++step) {
    world.Step(timeStep);
    if (step % 15 == 0) {
      const mk::Vec2 p = world.GetPosition(box);
      std::printf("t = %4.2f s   box at (%5.2f, %5.2f) m   angle %5.2f rad   %s\n", step * timeStep, p.x, p.y,
                  world.GetAngle(box), world.IsAwake(box) ? "awake" : "asleep");
    }
  }

  // Resting on the ground, the box's centre is half its height above y = 0 (less the few millimetres
  // of overlap the solver allows, the linear slop).
  const float restingHeight = world.GetPosition(box).y;
  const bool resting = std::fabs(restingHeight - 0.5f) < 0.01f && !world.IsAwake(box);
  std::printf("hello world: the box %s at y = %.3f m\n", resting ? "rests" : "does NOT rest", restingHeight);
  return resting ? 0 : 1;
}
