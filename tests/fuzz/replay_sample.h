// SPDX-License-Identifier: MIT
// A small recorded world that makes every kind of recorded World call (every Create*, Destroy*, Set*
// and Apply*, Explode, settings, gravity, a pre-solve callback set and cleared), refused calls
// included (NaN, stale and null ids). Used by the replay tests (tests/world/replay_test.cpp) and to
// make the replay fuzzer's seed corpus (tests/fuzz/replay_corpus).
#pragma once

#include "minkowski/joint_api.h"
#include "minkowski/replay.h"
#include "minkowski/world.h"
#include "minkowski/world_vector.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace mk::fuzz {

/// The sample's pre-solve callback: stateless, so a replay that installs it reproduces the run.
inline bool SamplePreSolve(ShapeId a, ShapeId b, const Manifold&, void*) {
  return (a.index1 + b.index1) % 2 == 0;
}

/// Records the sample over `steps` steps (at least 24 for every call to be made). `hashes`, when
/// given, receives the state hash after each Step. Callers silence the asserts of the refused calls.
inline std::vector<std::byte> RecordSample(int steps, std::vector<std::uint64_t>* hashes = nullptr) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  World world;
  world.SetGravity({0.5f, -9.0f});  // before recording: the file's settings
  world.StartRecording();
  SolverSettings settings = world.GetSolverSettings();
  settings.subSteps = 3;
  world.SetSolverSettings(settings);
  const BodyId ground = world.CreateBody({.userData = &world});
  world.CreateShape(ground, {.friction = 0.8f}, MakeBox(20.0f, 0.5f).value);
  const Vec2 wall[] = {{-10.0f, 8.0f}, {-10.0f, 0.5f}, {10.0f, 0.5f}, {10.0f, 8.0f}};
  const ChainId chain = world.CreateChain(ground, {.points = wall, .friction = 0.5f});
  auto dynamic = [&world](Vec2 p) { return world.CreateBody({.type = BodyType::Dynamic, .position = p}); };
  const BodyId a = dynamic({-2.0f, 2.0f}), b = dynamic({0.0f, 2.0f}), c = dynamic({2.0f, 2.0f});
  const BodyId d = dynamic({4.0f, 2.0f}), e = dynamic({-4.0f, 3.0f});
  const BodyId kinematic = world.CreateBody({.type = BodyType::Kinematic, .position = {0.0f, 6.0f}});
  world.CreateShape(a, {.restitution = 0.3f, .enablePreSolveEvents = true}, Circle{{0.0f, 0.0f}, 0.4f});
  world.CreateShape(b, {.density = 2.0f}, Capsule{{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.2f});
  const ShapeId boxShape = world.CreateShape(c, {.enableHitEvents = true}, MakeBox(0.4f, 0.3f).value);
  const ShapeId shapeOfD = world.CreateShape(d, {}, MakeBox(0.3f, 0.3f).value);
  world.CreateShape(e, {.isSensor = true}, Circle{{0.0f, 0.0f}, 1.0f});
  world.CreateShape(e, {}, Circle{{0.0f, 0.0f}, 0.3f});
  const ShapeId kinematicShape = world.CreateShape(kinematic, {}, Segment{{-1.0f, 0.0f}, {1.0f, 0.0f}});
  const JointId revolute = world.CreateJoint(
      RevoluteJointDef{{.bodyA = a, .bodyB = b, .localAnchorA = {1.0f, 0.0f}, .localAnchorB = {-1.0f, 0.0f}},
                       0.0f,
                       true,
                       -0.5f,
                       0.5f,
                       true,
                       1.0f,
                       5.0f});
  world.CreateJoint(PrismaticJointDef{{.bodyA = b, .bodyB = c}});
  const JointId distance = world.CreateJoint(DistanceJointDef{{.bodyA = c, .bodyB = d}, 2.0f});
  world.CreateJoint(WeldJointDef{{.bodyA = d, .bodyB = kinematic}, 0.0f, 2.0f});
  world.CreateJoint(WheelJointDef{{.bodyA = e, .bodyB = a}});
  const JointId mouse = world.CreateJoint(MouseJointDef{.body = e, .target = {-4.0f, 3.0f}});
  world.SetLinearVelocity(a, {nan, 0.0f});  // refused, and so in the replay
  world.DestroyBody(BodyId{});              // refused: null
  for (int i = 0; i < steps; ++i) {
    world.ApplyForce(a, {1.0f, 0.0f}, {-2.0f, 2.1f});
    world.ApplyForceToCenter(b, {0.0f, 2.0f});
    world.ApplyTorque(c, 0.5f);
    world.ApplyLinearImpulse(d, {0.01f, 0.0f}, {4.0f, 2.0f}, i % 2 == 0);
    world.ApplyLinearImpulseToCenter(e, {0.0f, 0.02f});
    world.ApplyAngularImpulse(a, 0.001f);
    world.SetMouseTarget(mouse, {-4.0f + 0.1f * static_cast<float>(i), 3.0f});
    world.SetMotorSpeed(revolute, 0.1f * static_cast<float>(i));
    switch (i) {
      case 1:
        world.SetTransform(kinematic, {0.5f, 6.0f}, 0.1f);
        world.SetAngularVelocity(kinematic, 0.2f);
        world.SetLinearDamping(b, 0.1f), world.SetAngularDamping(b, 0.2f), world.SetGravityScale(c, 0.9f);
        world.SetFixedRotation(d, true), world.SetSleepEnabled(a, false), world.SetBullet(b, true);
        break;
      case 3:
        world.SetFriction(boxShape, 0.2f), world.SetRestitution(boxShape, 0.4f),
            world.SetDensity(boxShape, 1.5f);
        world.EnablePreSolveEvents(boxShape, true);
        world.SetFilter(boxShape, {.categoryBits = 2, .maskBits = 0xFFFFu, .groupIndex = -1});
        world.SetPreSolveCallback(&SamplePreSolve, nullptr);
        world.SetContinuousRecording(true);
        break;
      case 5:
        world.Explode({.position = {0.0f, 1.0f}, .radius = 2.0f, .falloff = 1.0f, .impulsePerLength = 0.5f});
        world.SetEnabled(d, false);
        break;
      case 6:  // the body features (body_features.cpp)
        world.SetMotionLocks(c, {.linearX = true});
        world.SetMassData(e, {.mass = 2.0f, .center = {0.1f, 0.0f}, .rotationalInertia = 0.3f});
        world.SetTargetTransform(kinematic, MakeTransform({0.7f, 6.0f}, 0.2f), 1.0f / 60.0f);
        world.SetSleepThreshold(a, 0.1f), world.WakeTouching(a), world.SetName(a, "sample");
        break;
      case 7:
        world.SetType(kinematic, BodyType::Dynamic), world.ApplyMassFromShapes(e);
        break;
      case 8:
        world.SetEnabled(d, true), world.SetAwake(c, true);
        world.DestroyJoint(distance);
        world.SetUserData(a, &world);  // not recorded
        break;
      case 10:  // the geometry setters (modify_geometry.cpp): a type change, and one refused
        SetCapsule(world, shapeOfD, {{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.25f});
        SetPolygon(world, shapeOfD, MakeRegularPolygon(5, 0.35f).value);
        SetSegment(world, kinematicShape, {{-1.5f, 0.0f}, {1.5f, 0.0f}});
        SetCircle(world, shapeOfD, {{0.0f, 0.0f}, -1.0f});  // refused: a negative radius
        break;
      case 11:
        SetCircle(world, shapeOfD, {{0.05f, 0.0f}, 0.3f});
        break;
      case 12:
        world.DestroyShape(boxShape);
        world.CreateShape(c, {}, Circle{{0.0f, 0.0f}, 0.35f});
        world.SetGravity({0.0f, -10.0f});
        break;
      case 13: {  // joint local frames (joint_frames.cpp): a def from frames, both setters, one refused
        WeldJointDef weld{{.bodyA = c, .bodyB = d}};
        SetLocalFrames(weld, {{0.2f, 0.0f}, MakeRot(0.4f)}, {{-0.2f, 0.0f}, MakeRot(-0.3f)});
        world.CreateJoint(weld);
        SetJointLocalFrameB(world, revolute, {{-1.0f, 0.1f}, MakeRot(0.3f)});
        SetJointLocalFrameA(world, revolute, {{1.0f, 0.0f}, MakeRot(-0.2f)});
        SetJointLocalFrameA(world, mouse, {});  // refused: a mouse joint has no frames
        break;
      }
      case 15:
        world.DestroyChain(chain);
        world.DestroyBody(b);
        world.SetPreSolveCallback(nullptr, nullptr);
        break;
      case 18:
        world.DestroyBody(b);                                                     // stale now: refused
        world.CreateShape(dynamic({1.0f, 4.0f}), {}, MakeBox(0.2f, 0.2f).value);  // b's slot again
        world.Step(0.0f);                                                         // refused step
        if (hashes != nullptr) hashes->push_back(world.StateHash());
        break;
      default:
        break;
    }
    world.Step(1.0f / 60.0f);
    if (hashes != nullptr) hashes->push_back(world.StateHash());
  }
  return mk::StopRecording(world);
}

}  // namespace mk::fuzz
