// SPDX-License-Identifier: MIT
// Joints under abuse: valid but extreme definitions (bodies of a few grams, anchors metres apart,
// stiff constraints, motors and limits fighting) must leave the world finite, and no body faster than
// the solver's documented caps: maxLinearSpeed and kMaxRotation per sub-step (solver/contact_solver.h).
#include "minkowski/world.h"
#include "solver/contact_solver.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;

// Largest speeds seen over a run, and whether every state stayed finite.
struct Extremes {
  bool finite = true;
  float speed = 0.0f;         // m/s
  float angularSpeed = 0.0f;  // rad/s
};

void Observe(const World& world, BodyId body, Extremes& e) {
  const Vec2 v = world.GetLinearVelocity(body);
  const float w = world.GetAngularVelocity(body);
  const Transform xf = world.GetTransform(body);
  if (!IsFinite(v) || !std::isfinite(w) || !IsFinite(xf.p) || !std::isfinite(xf.q.c) ||
      !std::isfinite(xf.q.s)) {
    e.finite = false;
    return;
  }
  e.speed = std::max(e.speed, Length(v));
  e.angularSpeed = std::max(e.angularSpeed, std::fabs(w));
}

// The caps, with float rounding of the clamp (v * (max / |v|) may land an ulp above max).
void CheckWithinCaps(const World& world, const Extremes& e) {
  const SolverSettings& s = world.GetSolverSettings();
  CHECK(e.finite);
  CHECK(e.speed <= s.maxLinearSpeed * 1.0001f);
  CHECK(e.angularSpeed <= kMaxRotation * static_cast<float>(s.subSteps) / kDt * 1.0001f);
}

// One random joint of the four kinds with valid random parameters, between a small dynamic body and
// a static or dynamic one placed anywhere within 20 m, moving and spinning; then `steps` steps.
Extremes RandomJointRun(test::Rng& rng, int steps) {
  World world;
  auto body = [&](bool dynamic) {
    BodyId b = world.CreateBody({.type = dynamic ? BodyType::Dynamic : BodyType::Static,
                                 .position = rng.InBox(10.0f),
                                 .angle = rng.Uniform(-3.14f, 3.14f),
                                 .linearVelocity = dynamic ? rng.InBox(20.0f) : Vec2{0.0f, 0.0f},
                                 .angularVelocity = dynamic ? rng.Uniform(-10.0f, 10.0f) : 0.0f});
    // Radius 1 cm .. 1 m off the body origin by up to 1 m, density 0.1 .. 10: 3e-5 kg .. 30 kg.
    world.CreateShape(b,
                      {.density = rng.LogUniform(0.1f, 10.0f),
                       .friction = rng.Uniform(0.0f, 1.0f),
                       .restitution = rng.Uniform(0.0f, 1.0f)},
                      Circle{rng.InBox(1.0f), rng.LogUniform(0.01f, 1.0f)});
    return b;
  };
  const BodyId a = body(true);
  const BodyId b = body(rng.Unit() < 0.5);
  const JointBase base{
      .bodyA = a,
      .bodyB = b,
      .localAnchorA = rng.InBox(1.0f),
      .localAnchorB = rng.InBox(1.0f),
      .collideConnected = rng.Unit() < 0.5,
      .constraintHertz = rng.Unit() < 0.3 ? kUseWorldSetting : rng.Uniform(1.0f, 100.0f),
      .constraintDampingRatio = rng.Unit() < 0.3 ? kUseWorldSetting : rng.Uniform(0.1f, 5.0f)};
  const float lower = rng.Uniform(-3.0f, 1.0f), upper = lower + rng.Uniform(0.0f, 3.0f);
  Vec2 axis = rng.InBox(1.0f);  // not unit: CreateJoint normalises it
  if (LengthSquared(axis) < 1e-4f) axis = {1.0f, 0.0f};
  const int type = rng.Int(0, 3);
  const bool spring = rng.Unit() < 0.5, limit = rng.Unit() < 0.5, motor = rng.Unit() < 0.5;
  const float hertz = rng.Uniform(0.0f, 10.0f), zeta = rng.Uniform(0.0f, 2.0f);
  const float motorSpeed = rng.Uniform(-10.0f, 10.0f), maxMotor = rng.LogUniform(0.1f, 1000.0f);
  JointId joint;
  if (type == 0) {
    WheelJointDef d{base};
    d.localAxisA = axis;
    d.enableSpring = spring, d.hertz = hertz, d.dampingRatio = zeta;
    d.enableLimit = limit, d.lowerTranslation = lower, d.upperTranslation = upper;
    d.enableMotor = motor, d.motorSpeed = motorSpeed, d.maxMotorTorque = maxMotor;
    joint = world.CreateJoint(d);
  } else if (type == 1) {
    PrismaticJointDef d{base};
    d.localAxisA = axis;
    d.referenceAngle = rng.Uniform(-3.0f, 3.0f);
    d.enableSpring = spring, d.hertz = hertz, d.dampingRatio = zeta;
    d.enableLimit = limit, d.lowerTranslation = lower, d.upperTranslation = upper;
    d.enableMotor = motor, d.motorSpeed = motorSpeed, d.maxMotorForce = maxMotor;
    joint = world.CreateJoint(d);
  } else if (type == 2) {
    RevoluteJointDef d{base};
    d.referenceAngle = rng.Uniform(-3.0f, 3.0f);
    d.enableSpring = spring, d.hertz = hertz, d.dampingRatio = zeta;
    d.enableLimit = limit, d.lowerAngle = lower, d.upperAngle = upper;
    d.enableMotor = motor, d.motorSpeed = motorSpeed, d.maxMotorTorque = maxMotor;
    joint = world.CreateJoint(d);
  } else {
    DistanceJointDef d{base};
    d.length = rng.Uniform(0.1f, 5.0f);
    d.enableSpring = spring, d.hertz = hertz, d.dampingRatio = zeta;
    d.enableLimit = limit, d.minLength = rng.Uniform(0.0f, 2.0f),
    d.maxLength = d.minLength + rng.Uniform(0.0f, 4.0f);
    joint = world.CreateJoint(d);
  }
  REQUIRE(!joint.IsNull());
  Extremes e;
  for (int i = 0; i < steps && e.finite; ++i) {
    world.Step(kDt);
    Observe(world, a, e);
    Observe(world, b, e);
  }
  CheckWithinCaps(world, e);
  return e;
}

void CheckRandomJoints(std::uint64_t seed, int trials, int steps) {
  test::Rng rng(seed);
  int nonFinite = 0;
  for (int trial = 0; trial < trials; ++trial) {
    CAPTURE(trial);
    if (!RandomJointRun(rng, steps).finite) ++nonFinite;
  }
  CHECK(nonFinite == 0);
}

}  // namespace

TEST_SUITE("world.joint_fuzz") {

// Regression (fuzzer): 511 m/s after one step, 9e7 m/s after two, NaN after three. The 0.03 kg body
// (radius of gyration 3.5 cm) starts with its wheel axis 16 m from the static anchor; every
// correction through that lever spun it by radians per sub-step, and warm starting re-applied the
// impulses through levers that had changed a hundredfold.
TEST_CASE("the fuzzed wheel joint on a 0.03 kg body stays finite and within the speed caps for 50 s") {
  World world;
  BodyId a = world.CreateBody({.type = BodyType::Dynamic,
                               .position = {-7.49966f, -4.47265f},
                               .angle = -3.98914f,
                               .linearVelocity = {-20, -20},
                               .angularVelocity = -10});
  BodyId g =
      world.CreateBody({.type = BodyType::Static, .position = {-7.17647f, 12.1176f}, .angle = -0.956863f});
  world.CreateShape(a, {.density = 3.80392f, .friction = 0.38f, .restitution = 0.38f},
                    Circle{{-1, -0.960937f}, 0.05f});
  WheelJointDef d;
  d.bodyA = a, d.bodyB = g, d.localAnchorA = {0.77261f, 0.996094f}, d.localAnchorB = {1, -0.34377f};
  d.collideConnected = true, d.constraintHertz = 39.0588f, d.localAxisA = {-0.34902f, -0.34902f};
  d.enableSpring = true, d.hertz = 4.94118f, d.dampingRatio = 0.329412f;
  d.enableLimit = true, d.lowerTranslation = -2.50588f, d.upperTranslation = 0.494118f;
  d.enableMotor = true, d.motorSpeed = -6.70588f, d.maxMotorTorque = 164.706f;
  REQUIRE(!world.CreateJoint(d).IsNull());
  Extremes first, all;
  for (int i = 0; i < 3000 && all.finite; ++i) {
    world.Step(kDt);
    Observe(world, a, all);
    if (i < 3) Observe(world, a, first);
  }
  MESSAGE("first 3 steps: up to " << first.speed << " m/s, " << first.angularSpeed << " rad/s; 50 s: up to "
                                  << all.speed << " m/s, " << all.angularSpeed << " rad/s");
  CheckWithinCaps(world, all);
}

TEST_CASE(
    "random wheel / prismatic / revolute and distance joints on small bodies stay finite and within the "
    "caps") {
  CheckRandomJoints(20250301, 200, 120);
}

TEST_CASE("random joints on small bodies: 4000 more for 5 s each" * doctest::test_suite("long")) {
  CheckRandomJoints(77, 4000, 300);
}

}  // TEST_SUITE("world.joint_fuzz")
