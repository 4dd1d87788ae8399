// SPDX-License-Identifier: MIT
// Classic mode (SolverMode::Classic) at its defaults: PGS velocity iterations with warm starting, then
// position passes that remove classicBaumgarte of the overlap beyond the slop (Box2D 2.x). What that
// recipe guarantees, checked here: at rest no contact overlaps by more than the slop (the position
// pass stops there), nothing drifts sideways, the bodies stop and sleep; jointed bodies come to rest
// with the joint carrying the weight below it.
#include "minkowski/world.h"
#include "test_util.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;

WorldDef Classic() {
  WorldDef def;
  def.settings.mode = SolverMode::Classic;
  return def;
}

// Deepest overlap (m, >= 0) over all touching contacts.
float MaxPenetration(const World& world) {
  float deepest = 0.0f;
  world.ForEachTouchingContact([&](const ContactView& c) {
    for (int i = 0; i < c.manifold.pointCount; ++i)
      deepest = std::max(deepest, -c.manifold.points[i].separation);
  });
  return deepest;
}

}  // namespace

TEST_SUITE("world.classic") {

// Regression: the contact bias read the separation minus the centre offset (adjustedSeparation)
// as if it were the separation, so a resting box "saw" a gap of about its half height and sank
// until its centre reached the ground's top: 0.75 m.
TEST_CASE("classic mode: a box dropped 1 m comes to rest overlapping the ground by no more than the slop") {
  World world(Classic());
  test::AddGround(world);
  BodyId box = test::AddBox(world, {0.0f, 1.5f});
  const float slop = world.GetSolverSettings().linearSlop;
  float deepest = 0.0f;
  for (int i = 0; i < 120; ++i) {
    world.Step(kDt);
    deepest = std::max(deepest, MaxPenetration(world));
  }
  MESSAGE("deepest " << deepest * 1000.0f << " mm, at rest " << MaxPenetration(world) * 1000.0f << " mm");
  // It lands at 4.5 m/s, 7.5 cm per step: the contact appears within the speculative distance or
  // already overlapping by up to a step's travel, never more than 2 cm here.
  CHECK(deepest <= 0.02f);
  CHECK(MaxPenetration(world) <= slop + 1e-4f);
  CHECK(world.GetPosition(box).y >= 0.5f - slop - 1e-4f);
  CHECK(world.GetPosition(box).y <= 0.5f + 1e-4f);
  CHECK(Length(world.GetLinearVelocity(box)) < 1e-3f);
  CHECK(std::fabs(world.GetAngularVelocity(box)) < 1e-3f);
  for (int i = 0; i < 60; ++i) world.Step(kDt);
  CHECK_FALSE(world.IsAwake(box));
}

// Regression: the column reached 0.89 m of overlap and collapsed (top box 8.4 m sideways). Each of the
// 20 contacts may rest at up to the slop, so the top sinks at most 20 slops; it must not move sideways.
TEST_CASE(
    "classic mode: a column of 20 boxes stands for 10 s with less than 2 cm of overlap and falls asleep") {
  World world(Classic());
  test::AddGround(world);
  std::vector<BodyId> boxes;
  for (int i = 0; i < 20; ++i) boxes.push_back(test::AddBox(world, {0.0f, 0.5f + static_cast<float>(i)}));
  const float slop = world.GetSolverSettings().linearSlop;
  float deepest = 0.0f, sideways = 0.0f;
  for (int i = 0; i < 600; ++i) {
    world.Step(kDt);
    deepest = std::max(deepest, MaxPenetration(world));
    for (BodyId b : boxes) sideways = std::max(sideways, std::fabs(world.GetPosition(b).x));
  }
  const Vec2 top = world.GetPosition(boxes.back());
  MESSAGE("deepest overlap " << deepest * 100.0f << " cm, largest sideways drift " << sideways * 100.0f
                             << " cm, top sank " << (19.5f - top.y) * 100.0f << " cm");
  CHECK(deepest <= 0.02f);
  CHECK(sideways <= 0.05f);
  CHECK(MaxPenetration(world) <= slop + 5e-4f);
  CHECK(top.y <= 19.5f);
  CHECK(top.y >= 19.5f - 20.0f * (slop + 5e-4f));
  for (BodyId b : boxes) {
    CHECK(std::fabs(world.GetAngle(b)) <= 1e-3f);
    CHECK_FALSE(world.IsAwake(b));
  }
}

// Regression: joints fed their error back as a Baumgarte velocity, which kept a 5-link chain of
// mixed masses swinging with about 1 J for ever (the reaction force at the top swung between -18 N
// and 112 N around its 39 N weight). With the error removed in the position passes the chain is
// passive: damping alone brings it to rest.
TEST_CASE("classic mode: random hanging chains come to rest with the top joint carrying the whole weight") {
  test::Rng rng(20240611);  // the soft-step chain test's seed and construction
  for (int trial = 0; trial < 5; ++trial) {
    CAPTURE(trial);
    WorldDef def = Classic();
    def.settings.enableSleep = false;
    World world(def);
    BodyId previous = world.CreateBody({});
    Vec2 pivot{0.0f, 0.0f}, localA{0.0f, 0.0f};
    std::vector<BodyId> links;
    JointId top;
    for (int i = 0, n = rng.Int(2, 6); i < n; ++i) {
      float hx = rng.Uniform(0.05f, 0.4f), hy = rng.Uniform(0.2f, 0.6f);
      Vec2 anchorTop{rng.Uniform(-hx, hx), hy}, anchorBottom{rng.Uniform(-hx, hx), -hy};
      BodyId link = world.CreateBody({.type = BodyType::Dynamic,
                                      .position = pivot - anchorTop,
                                      .linearDamping = 0.5f,
                                      .angularDamping = 2.0f});
      world.CreateShape(link, {.density = rng.LogUniform(0.5f, 5.0f)}, MakeBox(hx, hy).value);
      JointId joint = world.CreateJoint(RevoluteJointDef{
          {.bodyA = previous, .bodyB = link, .localAnchorA = localA, .localAnchorB = anchorTop}});
      if (i == 0) top = joint;
      links.push_back(link);
      previous = link;
      pivot = pivot - anchorTop + anchorBottom;
      localA = anchorBottom;
    }
    for (int i = 0; i < 900; ++i) world.Step(kDt);
    float weight = 0.0f, kinetic = 0.0f;
    for (BodyId link : links) {
      weight += 10.0f * world.GetMass(link);
      float w = world.GetAngularVelocity(link);
      kinetic += 0.5f * world.GetMass(link) * LengthSquared(world.GetLinearVelocity(link)) +
                 0.5f * world.GetRotationalInertia(link) * w * w;
    }
    // Damping (0.5 /s on v, 2 /s on w) takes a swing of under 1 J to about 1e-4 J in 15 s.
    CHECK(kinetic < 1e-2f);
    // At rest each step adds g dt to v and then divides by 1 + c dt (implicit damping, c = 0.5 /s), so
    // the joints hold the chain against m g / (1 + c dt): 0.8% below the weight at dt = 1/60 s.
    Vec2 force = world.GetJointReactionForce(top);
    CHECK(force.y == doctest::Approx(weight / (1.0f + 0.5f * kDt)).epsilon(1e-3));
    CHECK(std::fabs(force.x) < 0.01f * weight);
  }
}

}  // TEST_SUITE("world.classic")
