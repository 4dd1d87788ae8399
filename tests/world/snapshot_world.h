// SPDX-License-Identifier: MIT
// A small world with a bit of everything a snapshot holds, for the snapshot tests and the snapshot
// fuzzer's seeds: static, kinematic, dynamic, sleeping, disabled and bullet bodies; circle, capsule,
// segment, box and a 12-gon (out-of-line geometry) shapes; a chain, a sensor; revolute, distance,
// prismatic, weld, wheel and mouse joints; touching contacts with impulses and caches.
#pragma once

#include "minkowski/world.h"

#include <array>

namespace mk::test {

/// Fills `world` and steps it `steps` times at 60 Hz.
inline void BuildSnapshotWorld(World& world, int steps = 90) {
  const BodyId ground = world.CreateBody({});
  world.CreateShape(ground, {}, MakeBox(20.0f, 0.5f).value);
  const std::array<Vec2, 4> hill{{{-19.0f, 0.5f}, {-12.0f, 2.0f}, {-8.0f, 0.5f}, {-4.0f, 0.5f}}};
  world.CreateChain(ground, {.points = hill});
  const BodyId sensor = world.CreateBody({.position = {6.0f, 1.5f}});
  world.CreateShape(sensor, {.isSensor = true}, MakeBox(1.0f, 1.0f).value);

  for (int i = 0; i < 6; ++i) {  // a stack of boxes and a tumbling pile of other shapes
    const BodyId box = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 1.0f + 1.01f * i}});
    world.CreateShape(box, {.enableHitEvents = true}, MakeBox(0.5f, 0.5f).value);
  }
  const BodyId ball = world.CreateBody({.type = BodyType::Dynamic, .position = {5.5f, 3.0f}});
  world.CreateShape(ball, {.restitution = 0.5f}, Circle{{0.0f, 0.0f}, 0.4f});
  const BodyId pill =
      world.CreateBody({.type = BodyType::Dynamic, .position = {-10.0f, 5.0f}, .angle = 0.3f});
  world.CreateShape(pill, {}, Capsule{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.25f});
  const BodyId gon =
      world.CreateBody({.type = BodyType::Dynamic, .position = {3.0f, 2.0f}, .isBullet = true});
  world.CreateShape(gon, {}, MakeRegularPolygon(12, 0.8f).value);
  const BodyId stick = world.CreateBody({.type = BodyType::Dynamic, .position = {-3.0f, 4.0f}});
  world.CreateShape(stick, {.density = 0.0f}, Segment{{-0.5f, 0.0f}, {0.5f, 0.0f}});
  world.CreateShape(stick, {}, MakeOffsetBox(0.3f, 0.1f, {0.0f, 0.2f}, 0.0f).value);
  const BodyId off =
      world.CreateBody({.type = BodyType::Dynamic, .position = {12.0f, 3.0f}, .isEnabled = false});
  world.CreateShape(off, {}, MakeBox(0.5f, 0.5f).value);
  const BodyId sleeper = world.CreateBody({.type = BodyType::Dynamic, .position = {15.0f, 1.0f}});
  world.CreateShape(sleeper, {}, MakeBox(0.5f, 0.5f).value);
  world.SetAwake(sleeper, false);  // asleep from the start, in a sleep group of its own
  const BodyId mover = world.CreateBody({.type = BodyType::Kinematic,
                                         .position = {-15.0f, 6.0f},
                                         .linearVelocity = {1.0f, 0.0f},
                                         .angularVelocity = 0.5f});
  world.CreateShape(mover, {}, MakeBox(1.0f, 0.2f).value);

  // Joints: a hinged pair, a rope, a slider, a weld, a wheel and a mouse.
  const BodyId arm1 = world.CreateBody({.type = BodyType::Dynamic, .position = {8.0f, 6.0f}});
  world.CreateShape(arm1, {}, MakeBox(0.5f, 0.1f).value);
  const BodyId arm2 = world.CreateBody({.type = BodyType::Dynamic, .position = {9.0f, 6.0f}});
  world.CreateShape(arm2, {}, MakeBox(0.5f, 0.1f).value);
  RevoluteJointDef hinge;
  hinge.bodyA = ground, hinge.bodyB = arm1, hinge.localAnchorA = {7.5f, 6.5f},
  hinge.localAnchorB = {-0.5f, 0.0f};
  world.CreateJoint(hinge);
  RevoluteJointDef elbow;
  elbow.bodyA = arm1, elbow.bodyB = arm2, elbow.localAnchorA = {0.5f, 0.0f},
  elbow.localAnchorB = {-0.5f, 0.0f};
  elbow.enableLimit = true, elbow.lowerAngle = -1.0f, elbow.upperAngle = 1.0f;
  world.CreateJoint(elbow);
  DistanceJointDef rope;
  rope.bodyA = ground, rope.bodyB = ball, rope.localAnchorA = {5.5f, 6.0f}, rope.length = 3.0f;
  world.CreateJoint(rope);
  PrismaticJointDef slider;
  slider.bodyA = ground, slider.bodyB = pill, slider.localAnchorA = {-10.0f, 5.0f};
  slider.enableLimit = true, slider.lowerTranslation = -2.0f, slider.upperTranslation = 2.0f;
  slider.enableMotor = true, slider.motorSpeed = 0.5f, slider.maxMotorForce = 10.0f;
  world.CreateJoint(slider);
  WeldJointDef weld;
  weld.bodyA = stick, weld.bodyB = gon;
  world.CreateJoint(weld);
  WheelJointDef wheel;
  const BodyId tire = world.CreateBody({.type = BodyType::Dynamic, .position = {9.5f, 5.0f}});
  world.CreateShape(tire, {}, Circle{{0.0f, 0.0f}, 0.3f});
  wheel.bodyA = arm2, wheel.bodyB = tire, wheel.localAnchorA = {0.5f, -1.0f};
  world.CreateJoint(wheel);
  world.CreateJoint(MouseJointDef{.body = pill, .target = {-9.0f, 6.0f}, .maxForce = 50.0f});

  for (int i = 0; i < steps; ++i) world.Step(1.0f / 60.0f);
}

/// The world fuzzer's finding of issue 28: a 5 cm hexagon (fixed rotation, moving fast) created deep
/// inside a static rounded box, stepped `steps` times at 60 Hz. Its contact's recycling origin holds two
/// surface ends 2.8 m apart, which the snapshot loader once refused.
inline void BuildDeepOverlapWorld(World& world, int steps = 4) {
  const BodyId wall = world.CreateBody({.position = {26.0f, 37.0f}, .angle = 3.47f});
  world.CreateShape(wall, {}, MakeRoundedBox(2.80f, 2.80f, 0.467f).value);
  const BodyId hexagon = world.CreateBody({.type = BodyType::Dynamic,
                                           .position = {26.47f, 37.35f},
                                           .angle = 3.53f,
                                           .linearVelocity = {-19.2f, -19.2f},
                                           .fixedRotation = true});
  world.CreateShape(hexagon, {.density = 0.2f}, MakeRegularPolygon(6, 0.05f, 0.0f).value);
  for (int i = 0; i < steps; ++i) world.Step(1.0f / 60.0f);
}

}  // namespace mk::test
