// SPDX-License-Identifier: MIT
// Joint local frames (Box2D v3.2's localFrameA / localFrameB; joint_types.h, joint_api.h), each
// against an independent answer: the joint angle against the frames' relative angle computed from the
// body transforms, a slide against the analytic axis, a weld's pose against the frames' relative pose,
// a runtime frame against a limit's analytic stop, round trips against the world anchors and angles,
// frames against the equivalent anchors / axis / referenceAngle (bit-identical steps), refused input
// against the joint before, and a recording against its replay.
#include "minkowski/joint_api.h"
#include "minkowski/replay.h"
#include "minkowski/world.h"
#include "minkowski/world_vector.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

using namespace mk;

namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr float kDt = 1.0f / 60.0f;

// [-pi, pi] of any angle.
float Wrap(float angle) { return std::remainder(angle, 2.0f * kPi); }

BodyId AddDynamicBox(World& world, Vec2 position, float angle = 0.0f) {
  const BodyId body = world.CreateBody(
      {.type = BodyType::Dynamic, .position = position, .angle = angle, .enableSleep = false});
  world.CreateShape(body, {}, MakeBox(0.25f, 0.5f).value);
  return body;
}

// Frame f of `body` in world coordinates.
Transform WorldFrame(const World& world, BodyId body, const Transform& f) {
  const Transform xf = world.GetTransform(body);
  return {TransformPoint(xf, f.p), MulRot(xf.q, f.q)};
}

// The joint angle v3.2 defines: frame B's world angle relative to frame A's.
float FrameAngle(const World& world, BodyId a, const Transform& fa, BodyId b, const Transform& fb) {
  return Angle(InvMulRot(WorldFrame(world, a, fa).q, WorldFrame(world, b, fb).q));
}

// Two frames act alike: the same world anchors and relative angle on the current body poses and,
// where `axis`, the same frame A x axis in the world.
void CheckEquivalent(const World& world, BodyId a, BodyId b, const Transform& fa, const Transform& fb,
                     const Transform& ga, const Transform& gb, bool axis) {
  const Transform wa = WorldFrame(world, a, fa), wb = WorldFrame(world, b, fb);
  const Transform va = WorldFrame(world, a, ga), vb = WorldFrame(world, b, gb);
  CHECK(Length(wa.p - va.p) < 1e-5f);
  CHECK(Length(wb.p - vb.p) < 1e-5f);
  CHECK(std::fabs(Wrap(Angle(InvMulRot(wa.q, wb.q)) - Angle(InvMulRot(va.q, vb.q)))) < 1e-5f);
  if (axis) CHECK(Length(Vec2{wa.q.c - va.q.c, wa.q.s - va.q.s}) < 1e-5f);
}

// Without gravity: a static body at `groundPose` (position, angle) and a box at `boxPose`, and a
// def of type Def between them.
template <class Def>
Def WeightlessPair(World& world, Transform groundPose, Transform boxPose) {
  world.SetGravity({0.0f, 0.0f});
  Def def;
  def.bodyA = world.CreateBody({.position = groundPose.p, .angle = Angle(groundPose.q)});
  def.bodyB = AddDynamicBox(world, boxPose.p, Angle(boxPose.q));
  return def;
}

bool SameTransform(const Transform& a, const Transform& b) {
  return a.p.x == b.p.x && a.p.y == b.p.y && a.q.c == b.q.c && a.q.s == b.q.s;
}

}  // namespace

TEST_SUITE("world.joint_frames") {
TEST_CASE("a revolute joint built from rotated frames measures the relative angle of its frames") {
  World world;
  const BodyId ground = world.CreateBody({.position = {0.0f, 5.0f}, .angle = 0.3f});
  const Transform fa{{1.0f, 0.5f}, MakeRot(0.7f)};
  const Transform fb{{0.0f, 0.8f}, MakeRot(-0.4f)};
  // Body B placed so that its anchor sits on frame A's origin, turned 1.1 rad.
  const Transform wa = WorldFrame(world, ground, fa);
  const Rot qB = MakeRot(1.1f);
  const BodyId box = AddDynamicBox(world, wa.p - Rotate(qB, fb.p), 1.1f);
  RevoluteJointDef def;
  def.bodyA = ground, def.bodyB = box;
  REQUIRE(SetLocalFrames(def, fa, fb));
  const JointId joint = world.CreateJoint(def);
  REQUIRE(world.IsValid(joint));
  // At rest: (0.3 + 0.7) to (1.1 - 0.4), analytically -0.3 rad.
  CHECK(world.GetRevoluteAngle(joint) == doctest::Approx(-0.3f).epsilon(1e-5));
  float worst = 0.0f;
  for (int i = 0; i < 120; ++i) {  // swinging under gravity: the angle follows the frames
    world.Step(kDt);
    worst = std::max(worst,
                     std::fabs(Wrap(world.GetRevoluteAngle(joint) - FrameAngle(world, ground, fa, box, fb))));
  }
  CHECK(worst < 1e-5f);
  CHECK(std::fabs(world.GetAngularVelocity(box)) > 0.1f);  // it did swing
}

TEST_CASE("a prismatic joint with a rotated frame A slides along the analytic axis") {
  for (float theta : {0.4f, -1.2f, 2.5f}) {
    CAPTURE(theta);
    World world;
    const BodyId ground = world.CreateBody({.position = {0.0f, 0.0f}});
    const BodyId box = AddDynamicBox(world, {2.0f, 3.0f});
    PrismaticJointDef def;
    def.bodyA = ground, def.bodyB = box;
    REQUIRE(SetLocalFrames(def, {{2.0f, 3.0f}, MakeRot(theta)}, {{0.0f, 0.0f}, MakeRot(theta)}));
    REQUIRE(world.IsValid(world.CreateJoint(def)));
    const Vec2 axis{std::cos(theta), std::sin(theta)};
    const Vec2 start = world.GetPosition(box);
    float drift = 0.0f;
    for (int i = 0; i < 300; ++i) {
      world.Step(kDt);
      const Vec2 d = world.GetPosition(box) - start;
      drift = std::max(drift, std::fabs(Cross(axis, d)));
    }
    const Vec2 d = world.GetPosition(box) - start;
    // A free slide under gravity's component g along the axis; the sub-steps integrate it as
    // symplectic Euler with step h: N h^2 (N + 1) / 2 g = 1/2 g t (t + h).
    const float h = kDt / static_cast<float>(world.GetSolverSettings().subSteps);
    const float t = 300.0f * kDt, g = Dot(world.GetGravity(), axis);
    CHECK(drift < 1e-3f);
    CHECK(Dot(axis, d) == doctest::Approx(0.5f * g * t * (t + h)).epsilon(1e-4));
    CHECK(std::fabs(Wrap(world.GetAngle(box))) < 1e-4f);  // no relative rotation: frames at 0
  }
}

TEST_CASE("a wheel joint built from frames suspends along frame A's x axis") {
  World world;
  const BodyId ground = world.CreateBody({});
  const BodyId wheel = AddDynamicBox(world, {0.0f, 2.0f});
  WheelJointDef def;
  def.bodyA = ground, def.bodyB = wheel, def.enableSpring = false;
  // v3.2's upright suspension: frame A turned by pi / 2 (our default axis (0, 1)).
  REQUIRE(SetLocalFrames(def, {{0.0f, 2.0f}, MakeRot(0.5f * kPi)}, {{0.0f, 0.0f}, Rot{}}));
  CHECK(def.localAxisA.x == doctest::Approx(0.0f).epsilon(1e-6));
  CHECK(def.localAxisA.y == doctest::Approx(1.0f));
  REQUIRE(world.IsValid(world.CreateJoint(def)));
  for (int i = 0; i < 120; ++i) world.Step(kDt);
  // Free fall along the axis, nothing across it.
  CHECK(std::fabs(world.GetPosition(wheel).x) < 1e-4f);
  CHECK(world.GetPosition(wheel).y < 2.0f - 0.5f * 10.0f * 1.9f * 1.9f);
}

TEST_CASE("a weld built from frames holds the bodies at the frames' relative pose") {
  World world;  // box B starts away from the welded pose
  WeldJointDef def = WeightlessPair<WeldJointDef>(world, MakeTransform({1.0f, 1.0f}, -0.2f),
                                                  MakeTransform({3.0f, 0.0f}, 0.9f));
  const BodyId ground = def.bodyA, box = def.bodyB;
  const Transform fa{{0.5f, 1.0f}, MakeRot(0.6f)};
  const Transform fb{{-0.3f, 0.2f}, MakeRot(-0.25f)};
  REQUIRE(SetLocalFrames(def, fa, fb));
  REQUIRE(world.IsValid(world.CreateJoint(def)));
  for (int i = 0; i < 600; ++i) world.Step(kDt);
  // Welded: frame B's world pose equals frame A's, so body B = frameA_world * inverse(fb).
  const Transform wa = WorldFrame(world, ground, fa), wb = WorldFrame(world, box, fb);
  CHECK(Length(wa.p - wb.p) < 1e-3f);
  CHECK(std::fabs(Angle(InvMulRot(wa.q, wb.q))) < 1e-3f);
  const float expected = -0.2f + 0.6f + 0.25f;
  CHECK(std::fabs(Wrap(world.GetAngle(box) - expected)) < 1e-3f);
}

TEST_CASE("a motor joint built from frames drives frame B onto frame A") {
  World world;
  MotorJointDef def = WeightlessPair<MotorJointDef>(world, {}, {});
  const BodyId ground = def.bodyA, box = def.bodyB;
  def.maxForce = 1000.0f, def.maxTorque = 1000.0f;
  const Transform fa{{2.0f, 1.0f}, MakeRot(0.8f)};
  const Transform fb{{0.5f, 0.0f}, MakeRot(0.3f)};
  REQUIRE(SetLocalFrames(def, fa, fb));
  CHECK(def.linearOffset.x == 0.0f);
  REQUIRE(world.IsValid(world.CreateJoint(def)));
  for (int i = 0; i < 600; ++i) world.Step(kDt);
  const Transform wa = WorldFrame(world, ground, fa), wb = WorldFrame(world, box, fb);
  CHECK(Length(wa.p - wb.p) < 1e-3f);
  CHECK(world.GetAngle(box) == doctest::Approx(0.5f).epsilon(1e-3));  // 0.8 - 0.3
}

TEST_CASE("a frame set at runtime moves the revolute limit's reference") {
  World world;
  RevoluteJointDef def = WeightlessPair<RevoluteJointDef>(world, {}, {});
  const BodyId box = def.bodyB;
  def.enableLimit = true, def.lowerAngle = -0.1f, def.upperAngle = 0.1f;
  def.enableMotor = true, def.motorSpeed = 2.0f, def.maxMotorTorque = 50.0f;  // pushes to the upper stop
  const JointId joint = world.CreateJoint(def);
  for (int i = 0; i < 120; ++i) world.Step(kDt);
  CHECK(world.GetAngle(box) == doctest::Approx(0.1f).epsilon(0.02));
  // Frame B turned by -0.5 rad: the joint angle is the body's + (-0.5), so the stop is at 0.6.
  SetJointLocalFrameB(world, joint, {{0.0f, 0.0f}, MakeRot(-0.5f)});
  CHECK(world.GetRevoluteAngle(joint) == doctest::Approx(world.GetAngle(box) - 0.5f).epsilon(1e-5));
  for (int i = 0; i < 240; ++i) world.Step(kDt);
  CHECK(world.GetAngle(box) == doctest::Approx(0.6f).epsilon(0.02));
  CHECK(world.GetRevoluteAngle(joint) == doctest::Approx(0.1f).epsilon(0.02));
}

TEST_CASE("set then get returns an equivalent pair for every joint type with frames") {
  World world;
  const BodyId a = world.CreateBody({.position = {1.0f, 2.0f}, .angle = 0.4f});
  const BodyId b = AddDynamicBox(world, {2.0f, 1.0f}, -0.7f);
  const Transform fa{{0.3f, -0.2f}, MakeRot(1.3f)}, fb{{-0.1f, 0.4f}, MakeRot(-2.9f)};
  std::vector<std::pair<JointId, bool>> joints;  // (joint, frame A's axis acts)
  JointBase base;
  base.bodyA = a, base.bodyB = b;
  joints.emplace_back(world.CreateJoint(RevoluteJointDef{base}), false);
  joints.emplace_back(world.CreateJoint(PrismaticJointDef{base}), true);
  joints.emplace_back(world.CreateJoint(DistanceJointDef{base}), false);
  joints.emplace_back(world.CreateJoint(WeldJointDef{base}), false);
  joints.emplace_back(world.CreateJoint(WheelJointDef{base}), true);
  joints.emplace_back(world.CreateJoint(MotorJointDef{base}), false);
  joints.emplace_back(world.CreateJoint(FilterJointDef{base}), false);
  for (const auto& entry : joints) {
    const JointId joint = entry.first;  // not a structured binding: clang 14 cannot capture one (CAPTURE)
    const bool axis = entry.second;
    CAPTURE(static_cast<int>(world.GetJointType(joint)));
    // Both orders: B then A, and A then B, give the pair set.
    SetJointLocalFrameB(world, joint, fb);
    SetJointLocalFrameA(world, joint, fa);
    CheckEquivalent(world, a, b, fa, fb, GetJointLocalFrameA(world, joint), GetJointLocalFrameB(world, joint),
                    true);
    const Transform ga{{-0.5f, 0.1f}, MakeRot(-0.6f)}, gb{{0.2f, 0.2f}, MakeRot(2.0f)};
    SetJointLocalFrameA(world, joint, ga);
    SetJointLocalFrameB(world, joint, gb);
    CheckEquivalent(world, a, b, ga, gb, GetJointLocalFrameA(world, joint), GetJointLocalFrameB(world, joint),
                    axis);
    // A get fed back to its setter changes nothing.
    const Transform backA = GetJointLocalFrameA(world, joint), backB = GetJointLocalFrameB(world, joint);
    SetJointLocalFrameA(world, joint, backA);
    SetJointLocalFrameB(world, joint, backB);
    CheckEquivalent(world, a, b, backA, backB, GetJointLocalFrameA(world, joint),
                    GetJointLocalFrameB(world, joint), true);
  }
  // The motor joint's frame A origin includes its linear offset.
  const JointId motor = joints[5].first;
  SetMotorLinearOffset(world, motor, {1.0f, -1.0f});
  CHECK(GetJointLocalFrameA(world, motor).p.x == doctest::Approx(-0.5f + 1.0f));
  // Defs: the helper's frames come back from the created joint.
  RevoluteJointDef revolute{base};
  REQUIRE(SetLocalFrames(revolute, fa, fb));
  const JointId made = world.CreateJoint(revolute);
  CheckEquivalent(world, a, b, fa, fb, GetJointLocalFrameA(world, made), GetJointLocalFrameB(world, made),
                  true);
}

TEST_CASE("a joint built from frames steps bit-identically to one built from the equivalent fields") {
  const float theta = 0.9f, alpha = -0.35f;
  auto run = [&](bool frames, int type) {
    World world;
    const BodyId ground = world.CreateBody({.position = {0.0f, 4.0f}});
    const BodyId box = AddDynamicBox(world, {1.0f, 3.0f}, 0.2f);
    const Transform fa{{1.0f, -1.0f}, MakeRot(theta)}, fb{{0.1f, 0.2f}, MakeRot(alpha)};
    JointBase base;
    base.bodyA = ground, base.bodyB = box, base.localAnchorA = fa.p, base.localAnchorB = fb.p;
    const float reference = theta - alpha;
    const Vec2 axis{std::cos(theta), std::sin(theta)};
    if (type == 0) {
      RevoluteJointDef d{base};
      d.enableLimit = true, d.lowerAngle = -0.3f, d.upperAngle = 0.3f;
      frames ? (void)SetLocalFrames(d, fa, fb) : (void)(d.referenceAngle = reference);
      world.CreateJoint(d);
    } else if (type == 1) {
      PrismaticJointDef d{base};
      d.enableSpring = true, d.hertz = 2.0f, d.dampingRatio = 0.3f;
      frames ? (void)SetLocalFrames(d, fa, fb) : (void)(d.localAxisA = axis, d.referenceAngle = reference);
      world.CreateJoint(d);
    } else if (type == 2) {
      WheelJointDef d{base};
      frames ? (void)SetLocalFrames(d, fa, fb) : (void)(d.localAxisA = axis);
      world.CreateJoint(d);
    } else {
      WeldJointDef d{base};
      d.angularHertz = 3.0f;
      frames ? (void)SetLocalFrames(d, fa, fb) : (void)(d.referenceAngle = reference);
      world.CreateJoint(d);
    }
    for (int i = 0; i < 90; ++i) world.Step(kDt);
    return world.StateHash();
  };
  for (int type = 0; type < 4; ++type) {
    CAPTURE(type);
    CHECK(run(true, type) == run(false, type));
  }
}

TEST_CASE("refused frames leave the joint unchanged") {
  World world;
  const BodyId ground = world.CreateBody({});
  const BodyId box = AddDynamicBox(world, {0.0f, -1.0f});
  RevoluteJointDef def;
  def.bodyA = ground, def.bodyB = box;
  REQUIRE(SetLocalFrames(def, {{0.5f, 0.0f}, MakeRot(0.3f)}, {{0.0f, 1.0f}, MakeRot(0.1f)}));
  const JointId joint = world.CreateJoint(def);
  const JointId mouse = world.CreateJoint(MouseJointDef{.body = box, .target = {0.0f, -1.0f}});
  const Transform beforeA = GetJointLocalFrameA(world, joint), beforeB = GetJointLocalFrameB(world, joint);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const Transform bad[] = {
      {{nan, 0.0f}, Rot{}},
      {{0.0f, inf}, Rot{}},
      {{2.0f * kMaxWorldLength, 0.0f}, Rot{}},
      {{0.0f, 0.0f}, {nan, 0.0f}},
      {{0.0f, 0.0f}, {0.0f, 0.0f}},
      {{0.0f, 0.0f}, {1.0f, 0.1f}},  // |q|^2 = 1.01
      {{0.0f, 0.0f}, {inf, 0.0f}},
  };
  test::AssertCounter asserts;
  int expected = 0;
  for (const Transform& frame : bad) {
    SetJointLocalFrameA(world, joint, frame);
    SetJointLocalFrameB(world, joint, frame);
    RevoluteJointDef copy = def;
    CHECK_FALSE(SetLocalFrames(copy, frame, Transform{}));
    CHECK(copy.referenceAngle == def.referenceAngle);
    CHECK(copy.localAnchorA.x == def.localAnchorA.x);
    expected += 3;
  }
  CHECK(SameTransform(GetJointLocalFrameA(world, joint), beforeA));
  CHECK(SameTransform(GetJointLocalFrameB(world, joint), beforeB));
  // The mouse joint has no frames; a stale id has nothing.
  SetJointLocalFrameA(world, mouse, Transform{});
  CHECK(SameTransform(GetJointLocalFrameB(world, mouse), Transform{}));
  world.DestroyJoint(joint);
  SetJointLocalFrameB(world, joint, Transform{});
  CHECK(SameTransform(GetJointLocalFrameA(world, joint), Transform{}));
  expected += 4;
  // A def with a non-finite frame angle is refused by CreateJoint.
  RevoluteJointDef hostile = def;
  hostile.frameAngleA = nan;
  CHECK(world.CreateJoint(hostile).IsNull());
  expected += 1;
  CHECK(asserts.Count() == expected);
  // A nearly unit rotation is normalised.
  const JointId fresh = world.CreateJoint(def);
  SetJointLocalFrameA(world, fresh, {{0.0f, 0.0f}, {1.0004f, 0.0f}});
  CHECK(GetJointLocalFrameA(world, fresh).q.c == 1.0f);
  CHECK(asserts.Count() == expected);
}

TEST_CASE("frames set at runtime replay to the same state hashes") {
  World world;
  world.StartRecording();
  const BodyId ground = world.CreateBody({.position = {0.0f, 5.0f}});
  const BodyId box = AddDynamicBox(world, {1.0f, 5.0f});
  RevoluteJointDef def;
  def.bodyA = ground, def.bodyB = box, def.enableLimit = true, def.lowerAngle = -0.2f, def.upperAngle = 0.4f;
  REQUIRE(SetLocalFrames(def, {{0.0f, 0.0f}, MakeRot(0.5f)}, {{-1.0f, 0.0f}, MakeRot(0.2f)}));
  const JointId joint = world.CreateJoint(def);
  std::vector<std::uint64_t> hashes;
  for (int i = 0; i < 90; ++i) {
    if (i == 20) SetJointLocalFrameB(world, joint, {{-0.8f, 0.1f}, MakeRot(-0.6f)});
    if (i == 50) SetJointLocalFrameA(world, joint, {{0.2f, 0.0f}, MakeRot(1.5f)});
    world.Step(kDt);
    hashes.push_back(world.StateHash());
  }
  const std::vector<std::byte> file = mk::StopRecording(world);
  Replay replay;
  REQUIRE(Replay::Load(file, replay) == ReplayError::None);
  ReplayPlayer player(std::move(replay));
  // The frame B set at step 20 is measured from frame A's rotation (the def's frameAngleA): a replay
  // that lost it would turn the reference by 0.5 rad there.
  CHECK(test::ReplayMismatches(player, hashes) == 0);
}

TEST_CASE("a snapshot keeps the frames and steps to the same state") {
  World world;
  const BodyId ground = world.CreateBody({.position = {0.0f, 5.0f}});
  const BodyId box = AddDynamicBox(world, {1.0f, 5.0f});
  RevoluteJointDef def;
  def.bodyA = ground, def.bodyB = box;
  REQUIRE(SetLocalFrames(def, {{0.0f, 0.0f}, MakeRot(0.5f)}, {{-1.0f, 0.0f}, MakeRot(0.2f)}));
  const JointId joint = world.CreateJoint(def);
  SetJointLocalFrameB(world, joint, {{-1.0f, 0.0f}, MakeRot(-0.3f)});
  for (int i = 0; i < 10; ++i) world.Step(kDt);
  World copy;
  REQUIRE(copy.RestoreSnapshot(mk::SaveSnapshot(world)).ok());
  const JointId adopted = copy.AdoptId(joint);
  CHECK(SameTransform(GetJointLocalFrameA(copy, adopted), GetJointLocalFrameA(world, joint)));
  CHECK(SameTransform(GetJointLocalFrameB(copy, adopted), GetJointLocalFrameB(world, joint)));
  for (int i = 0; i < 30; ++i) world.Step(kDt), copy.Step(kDt);
  CHECK(copy.StateHash() == world.StateHash());
}
}  // TEST_SUITE("world.joint_frames")
