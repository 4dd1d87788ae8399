// SPDX-License-Identifier: MIT
// Issue 29's joint features, each against an independent answer: zero damping per joint (undamped
// oscillator energy), the motor joint (the force cap's acceleration bound), the filter joint
// (contacts), runtime setters (limits, distance motor speed and force bound, spring force bounds,
// motor force readout) and breakable joints (the analytic time a growing load crosses the threshold).
#include "minkowski/joint_api.h"
#include "minkowski/world.h"
#include "test_util.h"
#include "world/world_state.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

using namespace mk;

namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr float kDt = 1.0f / 60.0f;

// A 1 kg disc (radius 1 / sqrt(pi): area 1 at density 1) at `position` that never sleeps (a slow
// oscillator would fall asleep at a turning point).
BodyId AddUnitDisc(World& world, Vec2 position) {
  BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = position, .enableSleep = false});
  world.CreateShape(body, {.density = 1.0f}, Circle{{0.0f, 0.0f}, 1.0f / std::sqrt(kPi)});
  return body;
}

// A distance joint from a static point at the origin to a 1 kg disc released stretched by `x0` along
// x, without gravity: an undamped oscillator along x of stiffness k = m (2 pi f)^2 (the static side
// adds no mass, the anchors sit at the centres so the disc does not turn). Returns the largest
// relative change of the energy 1/2 m v^2 + 1/2 k x^2 over `seconds` and the number of times x
// crossed zero upwards (periods).
struct Oscillation {
  float maxEnergyChange = 0.0f;
  int periods = 0;
};

Oscillation RunOscillator(const DistanceJointDef& shape, float hertz, float seconds, int subSteps = 4) {
  World world({.gravity = {0.0f, 0.0f}});
  SolverSettings settings = world.GetSolverSettings();
  settings.subSteps = subSteps;
  world.SetSolverSettings(settings);
  const float length = 2.0f, x0 = 0.2f;
  BodyId anchor = world.CreateBody({});
  BodyId disc = AddUnitDisc(world, {length + x0, 0.0f});
  DistanceJointDef def = shape;
  def.bodyA = anchor, def.bodyB = disc, def.length = length;
  REQUIRE_FALSE(world.CreateJoint(def).IsNull());
  const float k = std::pow(2.0f * kPi * hertz, 2.0f);  // m = 1 kg
  const float e0 = 0.5f * k * x0 * x0;
  Oscillation out;
  float previous = x0;
  for (int i = 0; i < static_cast<int>(seconds / kDt); ++i) {
    world.Step(kDt);
    const float x = world.GetPosition(disc).x - length;
    const Vec2 v = world.GetLinearVelocity(disc);
    const float e = 0.5f * LengthSquared(v) + 0.5f * k * x * x;
    out.maxEnergyChange = std::max(out.maxEnergyChange, std::fabs(e - e0) / e0);
    if (previous < 0.0f && x >= 0.0f) ++out.periods;
    previous = x;
  }
  return out;
}

}  // namespace

TEST_CASE("an undamped distance spring keeps its energy within 1% over 10 s") {
  // Damping 0 runs the spring as velocity Verlet (joint_solver.h, UndampedSpring): no drift, and the
  // energy at a step's end differs from the start's by at most (h w)^2 / 4, h the sub-step, w = 2 pi f
  // (Verlet's conserved energy is 1/2 v^2 + 1/2 w^2 x^2 (1 - (h w)^2 / 4)). The soft spring it
  // replaces lost 96% of the energy in 10 s at 1 Hz and 4 sub-steps (about 2 (h w)^2 a sub-step).
  for (const float hertz : {0.1f, 1.0f, 5.0f, 10.0f}) {
    CAPTURE(hertz);
    DistanceJointDef spring;
    spring.enableSpring = true, spring.hertz = hertz, spring.dampingRatio = 0.0f;
    const Oscillation o = RunOscillator(spring, hertz, 10.0f);  // 60 Hz, 4 sub-steps: the defaults
    const float hOmega = 2.0f * kPi * hertz * kDt / 4.0f;
    MESSAGE(hertz << " Hz: largest energy change " << o.maxEnergyChange << ", Verlet bound "
                  << hOmega * hOmega / 4.0f);
    CHECK(o.maxEnergyChange <= 1.05f * hOmega * hOmega / 4.0f + 1e-5f);  // + float rounding of e
    if (hertz <= 5.0f) CHECK(o.maxEnergyChange < 0.01f);
    // The period is Verlet's, 2 asin(h w / 2) / h for w: within 0.3% of 1 / f up to 10 Hz.
    CHECK(std::abs(o.periods - static_cast<int>(10.0f * hertz)) <= 1);
  }
  // The smallest damping ratio there is, 0.01, takes 1 - exp(-2 zeta w t) = 12% in 10.5 s at 0.1 Hz
  // (the soft spring, 16 sub-steps so that its own numerical loss stays under 1%).
  DistanceJointDef damped;
  damped.enableSpring = true, damped.hertz = 0.1f, damped.dampingRatio = 0.01f;
  const float expected = 1.0f - std::exp(-2.0f * 0.01f * 2.0f * kPi * 0.1f * 10.5f);
  CHECK(RunOscillator(damped, 0.1f, 10.5f, 16).maxEnergyChange > expected);
}

TEST_CASE("an undamped spring too stiff for Verlet stays soft and never gains energy") {
  // Above h w = 0.5 (joint_solver.cpp, kMaxVerletHOmega: 19 Hz at 4 sub-steps) the undamped spring runs
  // soft, which is stable at any stiffness: the energy only falls.
  for (const float hertz : {25.0f, 60.0f, 400.0f}) {
    CAPTURE(hertz);
    World world({.gravity = {0.0f, 0.0f}});
    BodyId anchor = world.CreateBody({});
    BodyId disc = AddUnitDisc(world, {2.2f, 0.0f});
    DistanceJointDef def;
    def.bodyA = anchor, def.bodyB = disc, def.length = 2.0f;
    def.enableSpring = true, def.hertz = hertz, def.dampingRatio = 0.0f;
    world.CreateJoint(def);
    const float k = std::pow(2.0f * kPi * hertz, 2.0f), e0 = 0.5f * k * 0.2f * 0.2f;
    float largest = 0.0f;
    for (int i = 0; i < 600; ++i) {
      world.Step(kDt);
      const float x = world.GetPosition(disc).x - 2.0f;
      largest = std::max(largest, 0.5f * LengthSquared(world.GetLinearVelocity(disc)) + 0.5f * k * x * x);
    }
    CHECK(largest <= e0 * 1.0001f);
  }
}

TEST_CASE("undamped revolute and prismatic springs keep their energy") {
  // The same Verlet rows drive the revolute joint's angular spring and the prismatic (and wheel)
  // joint's axial spring: a disc on a pivot twisted 0.5 rad, and a disc on a slider pulled 0.2 m,
  // each at 2 Hz for 10 s with the default 4 sub-steps. Bound: (h w)^2 / 4 as above.
  const float hertz = 2.0f, hOmega = 2.0f * kPi * hertz * kDt / 4.0f;
  const float stiffnessPerMass = std::pow(2.0f * kPi * hertz, 2.0f);
  for (const bool angular : {true, false}) {
    CAPTURE(angular);
    World world({.gravity = {0.0f, 0.0f}});
    BodyId ground = world.CreateBody({});
    BodyId disc = AddUnitDisc(world, {0.0f, 0.0f});
    const float inertia = world.GetRotationalInertia(disc), x0 = angular ? 0.5f : 0.2f;
    if (angular) {
      RevoluteJointDef def{{.bodyA = ground, .bodyB = disc}};
      def.enableSpring = true, def.hertz = hertz, def.dampingRatio = 0.0f, def.referenceAngle = -x0;
      world.CreateJoint(def);
    } else {
      PrismaticJointDef def{{.bodyA = ground, .bodyB = disc, .localAnchorA = {-x0, 0.0f}}};
      def.enableSpring = true, def.hertz = hertz, def.dampingRatio = 0.0f;
      world.CreateJoint(def);
    }
    const float mass = angular ? inertia : 1.0f;  // the row's effective mass (the ground adds none)
    const float e0 = 0.5f * mass * stiffnessPerMass * x0 * x0;
    float change = 0.0f;
    for (int i = 0; i < 600; ++i) {
      world.Step(kDt);
      const float x = angular ? world.GetAngle(disc) + x0 : world.GetPosition(disc).x + x0;
      const float speed = angular ? world.GetAngularVelocity(disc) : world.GetLinearVelocity(disc).x;
      const float e = 0.5f * mass * speed * speed + 0.5f * mass * stiffnessPerMass * x * x;
      change = std::max(change, std::fabs(e - e0) / e0);
    }
    MESSAGE("largest energy change " << change);
    CHECK(change <= 1.05f * hOmega * hOmega / 4.0f + 1e-5f);
  }
}

TEST_CASE("constraint damping 0 is its own value and kUseWorldSetting is the world's") {
  // Before kUseWorldSetting, 0 meant "the world's value": a joint could not ask for no damping.
  // Same trajectory as the world's value written out, another with 0 (a pendulum on a soft hinge).
  auto run = [](float hertz, float ratio) {
    World world;
    BodyId pivot = world.CreateBody({});
    BodyId bob = test::AddBox(world, {2.0f, 0.0f}, 0.25f);
    RevoluteJointDef def{{.bodyA = pivot, .bodyB = bob, .localAnchorB = {-2.0f, 0.0f}}};
    def.constraintHertz = hertz, def.constraintDampingRatio = ratio;
    REQUIRE_FALSE(world.CreateJoint(def).IsNull());
    for (int i = 0; i < 120; ++i) world.Step(kDt);
    return world.GetPosition(bob);
  };
  const SolverSettings settings;
  const Vec2 worldValue = run(kUseWorldSetting, kUseWorldSetting);
  const Vec2 written = run(settings.jointHertz, settings.jointDampingRatio);
  const Vec2 undamped = run(settings.jointHertz, 0.0f);
  CHECK(worldValue.x == written.x);
  CHECK(worldValue.y == written.y);
  CHECK((undamped.x != written.x || undamped.y != written.y));
  test::AssertCounter asserts;
  World world;
  BodyId a = world.CreateBody({}), b = test::AddBox(world, {1.0f, 0.0f});
  RevoluteJointDef bad{{.bodyA = a, .bodyB = b, .constraintDampingRatio = -0.5f}};
  CHECK(world.CreateJoint(bad).IsNull());  // negative and not kUseWorldSetting
  CHECK(asserts.Count() == 1);
}

TEST_CASE("a motor joint reaches its target no sooner than its force cap allows and settles there") {
  // No gravity, a 1 kg disc driven from the origin to a linear offset d with maxForce F: its
  // acceleration never exceeds a = F / m, so its speed after t is at most a t and it first reaches
  // the target no sooner than sqrt(2 d / a); a saturated drive reaches it at that time. Discretely
  // (symplectic Euler over sub-steps h), x after t = n h is a h^2 n (n + 1) / 2 = a t (t + h) / 2.
  World world({.gravity = {0.0f, 0.0f}});
  BodyId ground = world.CreateBody({});
  BodyId disc = AddUnitDisc(world, {0.0f, 0.0f});
  const float d = 4.0f, force = 2.0f, a = force / 1.0f, kSub = kDt / 4.0f;
  MotorJointDef def{{.bodyA = ground, .bodyB = disc}};
  def.linearOffset = {d, 0.0f}, def.angularOffset = 0.5f, def.maxForce = force, def.maxTorque = 0.5f;
  const JointId motor = world.CreateJoint(def);
  REQUIRE_FALSE(motor.IsNull());
  const float inertia = world.GetRotationalInertia(disc);  // 1/2 m r^2 about the centre
  float arrival = -1.0f, previousSpeed = 0.0f, previousSpin = 0.0f;
  for (int i = 1; i <= 600; ++i) {
    world.Step(kDt);
    const float t = i * kDt;
    const float speed = Length(world.GetLinearVelocity(disc));
    const float spin = std::fabs(world.GetAngularVelocity(disc));
    CHECK(speed - previousSpeed <= a * kDt * 1.0001f);  // the force cap, every step
    CHECK(spin - previousSpin <= 0.5f / inertia * kDt * 1.0001f);
    previousSpeed = speed, previousSpin = spin;
    const float x = world.GetPosition(disc).x;
    CHECK(x <= 0.5f * a * t * (t + kSub) * 1.0001f);
    if (arrival < 0.0f && x >= d - 0.01f) arrival = t;
  }
  const float fastest = 0.5f * (-kSub + std::sqrt(kSub * kSub + 8.0f * (d - 0.01f) / a));
  MESSAGE("arrival " << arrival << " s, bound " << fastest << " s");
  CHECK(arrival >= fastest);
  // It brakes in time (motor_joint.cpp): it arrives near the shortest rest-to-rest time 2 sqrt(d / a).
  const float restToRest = 2.0f * std::sqrt(d / a);
  MESSAGE("rest to rest " << restToRest << " s");
  CHECK(arrival <= 1.1f * restToRest);
  CHECK(test::Near(world.GetPosition(disc), {d, 0.0f}, 0.01f));  // settled on the target after 10 s
  CHECK(std::fabs(world.GetAngle(disc) - 0.5f) < 0.01f);
  CHECK(Length(world.GetLinearVelocity(disc)) < 0.01f);
  // Runtime changes: a new offset and the getters.
  SetMotorLinearOffset(world, motor, {0.0f, 1.0f});
  SetMotorMaxForce(world, motor, 100.0f);
  SetMotorCorrectionFactor(world, motor, 0.5f);
  CHECK(GetMotorLinearOffset(world, motor).y == 1.0f);
  CHECK(GetMotorMaxForce(world, motor) == 100.0f);
  CHECK(GetMotorCorrectionFactor(world, motor) == 0.5f);
  for (int i = 0; i < 300; ++i) world.Step(kDt);
  CHECK(test::Near(world.GetPosition(disc), {0.0f, 1.0f}, 0.01f));
}

TEST_CASE("two overlapping bodies with a filter joint get no contact until it is destroyed") {
  World world({.gravity = {0.0f, 0.0f}});
  BodyId a = test::AddBox(world, {0.0f, 0.0f}), b = test::AddBox(world, {0.5f, 0.0f});  // overlap 0.5 m
  const JointId filter = world.CreateJoint(FilterJointDef{{.bodyA = a, .bodyB = b}});
  REQUIRE_FALSE(filter.IsNull());
  for (int i = 0; i < 30; ++i) world.Step(kDt);
  CHECK(world.GetCounters().touchingContacts == 0);
  CHECK(world.GetPosition(a).x == 0.0f);  // no contact and no constraint: nothing moved them
  CHECK(world.GetPosition(b).x == 0.5f);
  CHECK(world.DestroyJoint(filter));
  world.Step(kDt);
  world.Step(kDt);
  CHECK(world.GetCounters().touchingContacts == 1);
  CHECK(world.GetPosition(b).x - world.GetPosition(a).x > 0.5f);  // pushed apart
}

TEST_CASE("revolute limits changed at runtime hold the new range") {
  // A horizontal arm under gravity, pinned at its end: it swings down until the limit stops it.
  World world;
  BodyId pivot = world.CreateBody({});
  BodyId arm = world.CreateBody({.type = BodyType::Dynamic, .position = {1.0f, 0.0f}});
  world.CreateShape(arm, {}, MakeBox(1.0f, 0.1f).value);
  RevoluteJointDef def{{.bodyA = pivot, .bodyB = arm, .localAnchorB = {-1.0f, 0.0f}}};
  const JointId hinge = world.CreateJoint(def);
  EnableJointLimit(world, hinge, true);
  SetJointLimits(world, hinge, -0.25f, 0.25f);
  CHECK(IsJointLimitEnabled(world, hinge));
  CHECK(GetJointLowerLimit(world, hinge) == -0.25f);
  CHECK(GetJointUpperLimit(world, hinge) == 0.25f);
  float lowest = 0.0f;
  for (int i = 0; i < 120; ++i) {
    world.Step(kDt);
    lowest = std::min(lowest, world.GetRevoluteAngle(hinge));
  }
  CHECK(lowest >= -0.25f - 0.02f);
  CHECK(test::Near(world.GetRevoluteAngle(hinge), -0.25f, 0.01f));
  SetJointLimits(world, hinge, -1.0f, -0.75f);  // lower: it falls to the new lower limit
  for (int i = 0; i < 180; ++i) world.Step(kDt);
  CHECK(test::Near(world.GetRevoluteAngle(hinge), -1.0f, 0.01f));
  EnableJointLimit(world, hinge, false);  // free: it hangs straight down
  for (int i = 0; i < 600; ++i) world.Step(kDt);
  CHECK(world.GetRevoluteAngle(hinge) < -1.2f);
  // A property the type has not, and a bad value: refused, nothing changed.
  test::AssertCounter asserts;
  SetDistanceLength(world, hinge, 2.0f);
  SetJointLimits(world, hinge, 1.0f, 0.0f);
  CHECK(asserts.Count() == 2);
  CHECK(GetJointLowerLimit(world, hinge) == -1.0f);
}

TEST_CASE("a distance motor changes the length at its speed while its force bound allows") {
  World world({.gravity = {0.0f, 0.0f}});
  BodyId anchor = world.CreateBody({});
  BodyId disc = AddUnitDisc(world, {2.0f, 0.0f});
  DistanceJointDef def{{.bodyA = anchor, .bodyB = disc}, 2.0f};
  def.enableSpring = true, def.hertz = 0.0f;  // no spring force: only the motor acts
  const JointId joint = world.CreateJoint(def);
  world.SetMotorSpeed(joint, 0.5f);
  SetJointMaxMotorForce(world, joint, 1000.0f);
  EnableJointMotor(world, joint, true);
  CHECK(GetJointMotorSpeed(world, joint) == 0.5f);
  for (int i = 0; i < 120; ++i) world.Step(kDt);
  CHECK(test::Near(world.GetDistanceJointLength(joint), 2.0f + 0.5f * 2.0f, 0.01f));  // 2 s at 0.5 m/s
  // A weak motor (1 N on 1 kg) accelerates at 1 m/s^2: 1/2 a t (t + h) in t until it reaches speed.
  world.SetMotorSpeed(joint, -10.0f);
  SetJointMaxMotorForce(world, joint, 1.0f);
  const float start = world.GetDistanceJointLength(joint);
  const float speed0 = 0.5f;  // moving outwards at the old speed
  const float t = 1.0f, h = kDt / 4.0f;
  for (int i = 0; i < 60; ++i) world.Step(kDt);
  const float expected = start + speed0 * t - 0.5f * 1.0f * t * (t + h);
  CHECK(test::Near(world.GetDistanceJointLength(joint), expected, 0.01f));
  CHECK(test::Near(GetJointMotorForce(world, joint), -1.0f, 1e-4f));  // saturated at the bound
}

TEST_CASE("distance spring force bounds cap the spring force") {
  World world({.gravity = {0.0f, 0.0f}});
  BodyId anchor = world.CreateBody({});
  BodyId disc = AddUnitDisc(world, {3.0f, 0.0f});  // stretched 1 m
  DistanceJointDef def{{.bodyA = anchor, .bodyB = disc}, 2.0f};
  def.enableSpring = true, def.hertz = 5.0f, def.dampingRatio = 0.0f;
  const JointId joint = world.CreateJoint(def);
  SetDistanceSpringForceRange(world, joint, -3.0f, 0.0f);  // pulls with at most 3 N, never pushes
  CHECK(GetDistanceLowerSpringForce(world, joint) == -3.0f);
  CHECK(GetDistanceUpperSpringForce(world, joint) == 0.0f);
  // Uncapped the pull would be k x = (2 pi 5)^2 N: capped, the 1 kg disc accelerates at 3 m/s^2.
  for (int i = 0; i < 30; ++i) {
    world.Step(kDt);
    CHECK(Length(world.GetJointReactionForce(joint)) <= 3.0f * 1.0001f);
  }
  const float t = 0.5f, h = kDt / 4.0f;
  CHECK(test::Near(world.GetPosition(disc).x, 3.0f - 0.5f * 3.0f * t * (t + h), 1e-3f));
}

TEST_CASE("a prismatic motor against a heavier load reports its force bound") {
  World world;  // g = 10: a 1 kg box weighs 10 N, the motor lifts with at most 4 N
  BodyId ground = world.CreateBody({});
  BodyId box = AddUnitDisc(world, {0.0f, 1.0f});
  PrismaticJointDef def{{.bodyA = ground, .bodyB = box, .localAnchorA = {0.0f, 1.0f}}};
  def.localAxisA = {0.0f, 1.0f};
  const JointId slider = world.CreateJoint(def);
  EnableJointMotor(world, slider, true);
  SetJointMaxMotorForce(world, slider, 4.0f);
  world.SetMotorSpeed(slider, 1.0f);
  CHECK(GetJointMaxMotorForce(world, slider) == 4.0f);
  for (int i = 0; i < 30; ++i) world.Step(kDt);
  CHECK(test::Near(GetJointMotorForce(world, slider), 4.0f, 1e-4f));
  // Net 6 N down on 1 kg: falls at 6 m/s^2.
  CHECK(test::Near(world.GetLinearVelocity(box).y, -6.0f * 0.5f, 0.01f));
}

TEST_CASE("a joint loaded past its threshold breaks within one step of the analytic time") {
  // A 1 kg disc hanging at its centre from a static pivot on a revolute joint, pulled down by a force
  // growing at c N/s: the joint holds m g + c t, which crosses the threshold T at t* = (T - m g) / c.
  // A second disc under the same load with a threshold above it never breaks.
  World world;
  const float g = 10.0f, c = 20.0f, threshold = 40.0f;
  BodyId pivot = world.CreateBody({});
  BodyId disc = AddUnitDisc(world, {0.0f, 0.0f});
  BodyId other = AddUnitDisc(world, {5.0f, 0.0f});
  RevoluteJointDef def{{.bodyA = pivot, .bodyB = disc, .forceThreshold = threshold, .destroyOnBreak = true}};
  int tag = 7;
  def.userData = &tag;
  const JointId breaking = world.CreateJoint(def);
  def.bodyB = other, def.localAnchorA = {5.0f, 0.0f}, def.forceThreshold = 1000.0f;
  const JointId holding = world.CreateJoint(def);
  const float crossing = (threshold - 1.0f * g) / c;  // 1.5 s
  float broke = -1.0f;
  for (int i = 1; i <= 180; ++i) {
    const float t = i * kDt;
    world.ApplyForceToCenter(disc, {0.0f, -c * t}, true);
    world.ApplyForceToCenter(other, {0.0f, -c * t}, true);
    world.Step(kDt);
    for (const JointEvent& e : world.GetJointEvents()) {
      CHECK(e.joint == breaking);
      CHECK(e.userData == &tag);
      CHECK(e.destroyed);
      CHECK(Length(e.force) > threshold);
      broke = t;
    }
  }
  MESSAGE("broke at " << broke << " s, analytic " << crossing << " s");
  CHECK(std::fabs(broke - crossing) <= kDt);
  CHECK_FALSE(world.IsValid(breaking));
  CHECK(world.IsValid(holding));
  CHECK(world.IsAwake(disc));
  CHECK(world.GetPosition(disc).y < -1.0f);  // falling since it broke
}

namespace {

// Records the colour and end points of every segment drawn; the rest is ignored.
struct SegmentRecorder final : DebugDraw {
  struct Segment {
    Vec2 p1, p2;
    Color color;
  };
  std::vector<Segment> segments;
  void DrawPolygon(const Vec2*, int, Color) override {}
  void DrawSolidPolygon(const Transform&, const Vec2*, int, float, Color) override {}
  void DrawCircle(Vec2, float, Color) override {}
  void DrawSolidCircle(const Transform&, float, Color) override {}
  void DrawSolidCapsule(Vec2, Vec2, float, Color) override {}
  void DrawSegment(Vec2 p1, Vec2 p2, Color color) override { segments.push_back({p1, p2, color}); }
  void DrawTransform(const Transform&, float) override {}
  void DrawPoint(Vec2, float, Color) override {}
  void DrawString(Vec2, const char*, Color) override {}
};

bool SameColor(Color a, Color b) { return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a; }

}  // namespace

// The fuzzer found the joint colour table one entry per joint type short once motor and filter
// joints existed (a read past it under UBSan). Every type must draw, in one colour of its own.
TEST_CASE("every joint type draws in a colour of its own and reaches body B anchor") {
  std::vector<Color> typeColors;
  for (int type = 0; type <= static_cast<int>(JointType::Filter); ++type) {
    CAPTURE(type);
    World world;
    const BodyId a = AddUnitDisc(world, {0.0f, 0.0f});
    const BodyId b = AddUnitDisc(world, {3.0f, 1.0f});
    const JointBase base{.bodyA = a, .bodyB = b, .localAnchorA = {1.0f, 0.0f}, .localAnchorB = {-1.0f, 0.0f}};
    switch (static_cast<JointType>(type)) {
      case JointType::Revolute:
        world.CreateJoint(RevoluteJointDef{base});
        break;
      case JointType::Prismatic:
        world.CreateJoint(PrismaticJointDef{base});
        break;
      case JointType::Distance:
        world.CreateJoint(DistanceJointDef{base});
        break;
      case JointType::Weld:
        world.CreateJoint(WeldJointDef{base});
        break;
      case JointType::Wheel:
        world.CreateJoint(WheelJointDef{base});
        break;
      case JointType::Mouse:
        world.CreateJoint(MouseJointDef{.body = b, .target = {2.0f, 1.0f}});
        break;
      case JointType::Motor:
        world.CreateJoint(MotorJointDef{base});
        break;
      case JointType::Filter:
        world.CreateJoint(FilterJointDef{base});
        break;
    }
    SegmentRecorder recorder;
    world.Draw(recorder, {.shapes = false, .joints = true});
    REQUIRE_FALSE(recorder.segments.empty());
    for (const SegmentRecorder::Segment& s : recorder.segments)
      CHECK(SameColor(s.color, recorder.segments[0].color));
    const Vec2 anchorB{2.0f, 1.0f};  // b's origin (3, 1) + its local anchor (-1, 0); the mouse grabs here too
    const bool reachesAnchorB = std::any_of(
        recorder.segments.begin(), recorder.segments.end(),
        [&](const auto& s) { return Length(s.p1 - anchorB) < 1e-5f || Length(s.p2 - anchorB) < 1e-5f; });
    CHECK(reachesAnchorB);
    for (const Color& seen : typeColors) CHECK_FALSE(SameColor(seen, recorder.segments[0].color));
    typeColors.push_back(recorder.segments[0].color);
  }
}
