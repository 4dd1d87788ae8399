// SPDX-License-Identifier: MIT
// Heavy bodies landing on light ones (issue 28): the soft step's contact rows must not turn a landing
// into a bounce. The bars are Box2D v3's figures for the same scenes (60 Hz, 4 sub-steps, defaults),
// with 20% tolerance, and energy: a landing with restitution 0 never leaves a body faster than it came.
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

struct Landing {
  float impact = 0.0f;      // the heavy box's fastest fall before it stopped (m/s)
  float rebound = 0.0f;     // its fastest rise after it first stopped (m/s)
  float lightExit = 0.0f;   // the light box's fastest speed after the heavy one first stopped (m/s)
  float lightDrift = 0.0f;  // how far the light box was pushed sideways (m)
  // rebound and lightExit over the first landing only: steps 0..29 (0.5 s). A heavy box that hops
  // off lands again on a corner, a different event with its own figures.
  float firstRebound = 0.0f, firstLightExit = 0.0f;
};

// A square box of `heavyHalf` (density 1) falling at `speed` from `gap` above one 1 m box (1 kg) on
// the ground, for 5 s.
Landing Land(float heavyHalf, float gap, float speed, SolverSettings settings = {}) {
  World world({.settings = settings});
  test::AddGround(world);
  const BodyId light = test::AddBox(world, {0.0f, 0.5f});
  const BodyId heavy = world.CreateBody({.type = BodyType::Dynamic,
                                         .position = {0.0f, 1.0f + gap + heavyHalf},
                                         .linearVelocity = {0.0f, -speed}});
  world.CreateShape(heavy, {.density = 1.0f}, MakeBox(heavyHalf, heavyHalf).value);
  Landing out;
  bool stopped = false;
  for (int i = 0; i < 300; ++i) {
    world.Step(kDt);
    const Vec2 v = world.GetLinearVelocity(heavy);
    stopped = stopped || v.y >= 0.0f;
    if (!stopped) out.impact = std::max(out.impact, -v.y);
    if (stopped) {
      out.rebound = std::max(out.rebound, v.y);
      out.lightExit = std::max(out.lightExit, Length(world.GetLinearVelocity(light)));
    }
    if (i == 29) {
      out.firstRebound = out.rebound;
      out.firstLightExit = out.lightExit;
    }
    out.lightDrift = std::max(out.lightDrift, std::fabs(world.GetPosition(light).x));
  }
  return out;
}

}  // namespace

TEST_SUITE("world.mass_ratio") {

// v3 HighMassRatio-style landings quoted in issue 28: a 20 m box (400 kg per m of depth, 400:1)
// dropped 2 m and 3 m onto a 1 m box. A contact deeper than its push-out cap used to become a rigid
// row separating at the cap, and both contacts under the heavy box pushed it out at the cap at once:
// rebound 5.1 and 7.9 m/s (v3: 2.0 and 2.3), the light box squeezed 2.9 m sideways. Now 1.8 and
// 2.3 m/s (the cap bounds the spring's push, and the light box's ground row is solved last).
TEST_CASE("a 400:1 box dropped on a light box does not bounce back further than Box2D v3's") {
  const Landing two = Land(10.0f, 2.0f, 0.0f);
  const Landing three = Land(10.0f, 3.0f, 0.0f);
  MESSAGE("from 2 m: impact " << two.impact << " rebound " << two.rebound << " light drift "
                              << two.lightDrift);
  MESSAGE("from 3 m: impact " << three.impact << " rebound " << three.rebound << " light drift "
                              << three.lightDrift);
  CHECK(two.impact == doctest::Approx(6.3).epsilon(0.02));
  CHECK(two.rebound <= 1.2f * 2.0f);
  CHECK(three.rebound <= 1.2f * 2.3f);
  CHECK(two.lightDrift < 0.5f);
  CHECK(three.lightDrift < 0.5f);
  // With a lower push-out cap (v3's Cart sample: 0.5 m/s) the landing must not bounce either (v3
  // 2.38 m/s).
  SolverSettings gentle;
  gentle.contactPushMaxSpeed = 0.5f;
  const Landing soft = Land(10.0f, 2.0f, 0.0f, gentle);
  MESSAGE("push-out 0.5 m/s: rebound " << soft.rebound);
  CHECK(soft.rebound <= 1.2f * 2.38f);
  // More sub-steps (v3's Cart runs 12) only help.
  SolverSettings fine;
  fine.subSteps = 12;
  CHECK(Land(10.0f, 2.0f, 0.0f, fine).rebound <= 1.2f * 1.55f);
}

// The sweep: heavy boxes of 1 to 1000 times the light box's mass landing at 2 to 20 m/s. With
// restitution 0 a landing may not give energy back: neither box leaves faster than the impact. The
// rigid push-out row broke this from 100:1 (100:1 at 20 m/s rebounded at 19 m/s, 1000:1 at 2 m/s at
// 3 m/s).
TEST_CASE("heavy boxes landing on a light box at 2 to 20 m/s never leave faster than they came") {
  for (float ratio : {1.0f, 10.0f, 100.0f, 400.0f, 1000.0f}) {
    for (float speed : {2.0f, 5.0f, 10.0f, 20.0f}) {
      const Landing l = Land(0.5f * std::sqrt(ratio), 0.05f, speed);
      INFO("mass ratio " << ratio << ", impact " << speed << " m/s: rebound " << l.rebound << ", light box "
                         << l.lightExit);
      CHECK(l.rebound < speed);
      CHECK(l.lightExit < speed);
    }
  }
}

// Box2D v3 on the same sweep (erincatto/box2d 617d32ab, measured beside this engine with the same
// geometry, settings and figures: 60 Hz, 4 sub-steps, friction 0.6, the first 0.5 s): the heavy box's
// rebound and the light box's fastest speed, m/s, for mass ratios 1, 10, 100, 400, 1000 (rows) and
// impacts 2, 5, 10, 20 m/s (columns). Both engines rebound about 2 m/s from a 10 m/s landing even at
// 1:1: the heavy box overlaps 12 cm before its contact exists (2 cm speculative margin, 17 cm of
// travel a step) and the soft contact pushes it out at up to contactPushMaxSpeed.
constexpr float kV3Rebound[5][4] = {{0.14f, 0.96f, 2.11f, 4.41f},
                                    {0.76f, 2.39f, 4.99f, 9.97f},
                                    {0.80f, 2.37f, 5.05f, 8.42f},
                                    {0.58f, 1.82f, 2.73f, 4.60f},
                                    {0.00f, 0.94f, 1.42f, 2.04f}};
constexpr float kV3LightExit[5][4] = {{0.04f, 0.08f, 0.22f, 0.46f},
                                      {0.13f, 0.36f, 0.70f, 1.31f},
                                      {0.39f, 0.93f, 2.40f, 4.46f},
                                      {0.08f, 0.44f, 0.59f, 2.26f},
                                      {0.00f, 0.17f, 0.18f, 0.42f}};

// Issue 28's bar for the sweep: at most 1.2 x Box2D v3's figure, plus 0.1 m/s for the figures near
// rest (v3's 0.04 m/s light box is resting jitter, not a landing). Before the static rows went last
// (contact_graph.h), the cap bounded the spring (contact_solver.cpp) and manifold points kept their
// order (clip.cpp), the light box left the ground at 2.2 to 9.6 m/s under 10:1 landings (v3 0.4 to
// 1.3), 3.3 m/s under 400:1 at 10 m/s (v3 0.6), and 1000:1 at 10 m/s rebounded at 2.35 m/s (v3 1.42).
TEST_CASE("the mass-ratio sweep's first landings rebound and throw no more than Box2D v3's") {
  const float ratios[5] = {1.0f, 10.0f, 100.0f, 400.0f, 1000.0f};
  const float speeds[4] = {2.0f, 5.0f, 10.0f, 20.0f};
  for (int r = 0; r < 5; ++r) {
    for (int k = 0; k < 4; ++k) {
      const Landing l = Land(0.5f * std::sqrt(ratios[r]), 0.05f, speeds[k]);
      INFO("mass ratio " << ratios[r] << ", impact " << speeds[k] << " m/s: rebound " << l.firstRebound
                         << " (v3 " << kV3Rebound[r][k] << "), light box " << l.firstLightExit << " (v3 "
                         << kV3LightExit[r][k] << ")");
      CHECK(l.firstRebound <= 1.2f * kV3Rebound[r][k] + 0.1f);
      CHECK(l.firstLightExit <= 1.2f * kV3LightExit[r][k] + 0.1f);
    }
  }
}

// Issue 28's strict bar: with restitution 0, a landing gives back at most 0.5 m/s, whatever the mass
// ratio. Box2D v3 misses it from 5 m/s on (kV3Rebound: 2.4 m/s at 10:1 from 5 m/s, 10 m/s at 10:1
// from 20 m/s). Three things meet it. The relax pass from the ground up (RelaxNormalRows,
// contact_solver.cpp): before it, 10:1 from 5 m/s rebounded 2.38 m/s and 100:1 from 10 m/s threw the
// light box at 2.1 m/s. Speculative points out to what a pair of moving bodies closes in a step
// (CollideApproaching, contacts.cpp): a 1 m box closes 33 cm a step at 20 m/s against the 2 cm
// speculative distance, so the boxes overlapped up to 30 cm before their contact existed, and pushing
// that out was a 1.0 m/s rebound at 10:1 and 0.8 m/s at 100:1. And the impact's two rows as one block
// (SolveImpactBlock): with the contact there in time, one row after the other gave the first point
// the whole impact, and at 100:1 from 20 m/s the heavy box left turning at 0.5 rad/s, rebounding
// 1.1 m/s.
TEST_CASE("heavy boxes landing on a light box rebound and throw it at most 0.5 m/s") {
  const float ratios[5] = {1.0f, 10.0f, 100.0f, 400.0f, 1000.0f};
  for (float ratio : ratios) {
    for (float speed : {2.0f, 5.0f, 10.0f, 20.0f}) {
      const Landing l = Land(0.5f * std::sqrt(ratio), 0.05f, speed);
      INFO("mass ratio " << ratio << ", impact " << speed << " m/s: rebound " << l.rebound << " (first "
                         << l.firstRebound << "), light box " << l.lightExit << " (first " << l.firstLightExit
                         << ")");
      CHECK(l.firstRebound <= 0.5f);
      CHECK(l.firstLightExit <= 0.5f);
    }
  }
}

// The deepest overlap between two shapes of the world's touching or approaching contacts after the
// last step (m, >= 0).
float DeepestOverlap(const World& world, BodyId body) {
  ContactData data[8];
  const int n = world.GetBodyContactData(body, Span<ContactData>(data, 8));
  float deepest = 0.0f;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < data[i].manifold.pointCount; ++j)
      deepest = std::max(deepest, -data[i].manifold.points[j].separation);
  return deepest;
}

// Two 1 m boxes thrown at each other (no gravity) at 5 to 40 m/s, at angles: the pair closes up to
// 67 cm a step, and before speculative points reached that far they met up to that deep (64 cm at
// 40 m/s, 30 cm at 20 m/s), the soft contact pushing it out over several steps. They must meet with
// at most two linear slops of overlap.
// And a pair that only passes by (0.2 m apart) must not be deflected by a far point's guess: the
// far points are kept only where the bodies close along the normal.
TEST_CASE("moving boxes closing at up to 40 m/s meet without overlapping and passing pairs fly on") {
  for (float speed : {5.0f, 10.0f, 20.0f, 40.0f}) {
    for (float angle : {0.0f, 0.3f, 0.785f}) {
      for (float gap : {0.03f, 0.3f, 0.6f}) {
        World world({.gravity = {0.0f, 0.0f}});
        const BodyId left = world.CreateBody({.type = BodyType::Dynamic,
                                              .position = {-0.5f - gap, 0.1f},
                                              .linearVelocity = {0.5f * speed, 0.0f}});
        world.CreateShape(left, {}, MakeBox(0.5f, 0.5f).value);
        // The turned box's nearest corner `gap` from the other's face.
        const float halfWidth = 0.5f * (std::cos(angle) + std::sin(angle));
        const BodyId right = world.CreateBody({.type = BodyType::Dynamic,
                                               .position = {halfWidth, 0.0f},
                                               .angle = angle,
                                               .linearVelocity = {-0.5f * speed, 0.0f}});
        world.CreateShape(right, {}, MakeBox(0.5f, 0.5f).value);
        // The impact: the steps until the pair's velocities change, and the one after. Later a
        // corner's impact has set both boxes turning (11 rad/s at 20 m/s) and a face swings into the
        // other, a turn between two moving bodies that this does not reach (up to 8.5 cm at 10 m/s,
        // as before).
        float deepest = 0.0f;
        int impact = -1;
        for (int i = 0; i < 30 && (impact < 0 || i <= impact + 1); ++i) {
          world.Step(kDt);
          if (impact < 0 && world.GetLinearVelocity(left).x != 0.5f * speed) impact = i;
          deepest = std::max(deepest, DeepestOverlap(world, left));
        }
        CHECK(impact >= 0);
        INFO("closing at " << speed << " m/s, angle " << angle << ", gap " << gap << ": deepest overlap "
                           << deepest);
        CHECK(deepest <= 2.0f * world.GetSolverSettings().linearSlop);
      }
    }
  }
  // Passing 7.4 cm apart (the turned box's corner under the other's face): at 80 m/s, before far
  // points needed a shape cast's yes (MeetsThisStep, contacts.cpp), the closest features' diagonal
  // normal was closing and the pair was knocked apart at 40 rad/s.
  for (float speed : {10.0f, 40.0f, 80.0f}) {
    World world({.gravity = {0.0f, 0.0f}});
    const BodyId a = world.CreateBody(
        {.type = BodyType::Dynamic, .position = {-2.0f, 0.6f}, .linearVelocity = {0.5f * speed, 0.0f}});
    world.CreateShape(a, {}, MakeBox(0.5f, 0.5f).value);
    const BodyId b = world.CreateBody({.type = BodyType::Dynamic,
                                       .position = {2.0f, -0.6f},
                                       .angle = 0.3f,
                                       .linearVelocity = {-0.5f * speed, 0.0f}});
    world.CreateShape(b, {}, MakeBox(0.5f, 0.5f).value);
    for (int i = 0; i < 60; ++i) world.Step(kDt);
    INFO("passing at " << speed << " m/s");
    CHECK(world.GetLinearVelocity(a).x == 0.5f * speed);
    CHECK(world.GetLinearVelocity(a).y == 0.0f);
    CHECK(world.GetAngularVelocity(b) == 0.0f);
  }
}

// The other half of the trade: a deep contact under a resting load carries it. The push-out cap
// bounds the spring's bias at contactPushMaxSpeed, so a contact carries at most normalMass pushMax /
// impulseScale per sub-step: 1000 kg on a 1 kg box (1 m boxes) rests 43 cm deep (Box2D v3, with the
// same cap, measured: the 1000 kg box sinks onto the ground); from about 1200 kg the load is more than
// the light box's contacts carry, and the heavy box must then end on the ground, not through it. The
// rule this cap replaced (the cap on the push's speed, not the spring) held 2000 kg at 0.86 m but
// threw heavy bodies back off light ones (docs/design.md, mass ratios).
TEST_CASE("1000 kg rests on a 1 kg box and heavier loads crush it onto the ground but never through") {
  for (float density : {1000.0f, 2000.0f}) {
    World world;
    test::AddGround(world);
    const BodyId light = test::AddBox(world, {0.0f, 0.5f}, 0.5f, {.density = 1.0f});
    const BodyId heavy = test::AddBox(world, {0.0f, 1.5f}, 0.5f, {.density = density});
    float lowestGap = 1.0f, lowestHeavy = 1.5f;
    for (int i = 0; i < 600; ++i) {
      world.Step(kDt);
      lowestGap = std::min(lowestGap, world.GetPosition(heavy).y - world.GetPosition(light).y);
      lowestHeavy = std::min(lowestHeavy, world.GetPosition(heavy).y);
    }
    MESSAGE(density << " kg: lowest centre gap " << lowestGap
                    << " m (1 m when touching), heavy box's lowest centre " << lowestHeavy
                    << " m (0.5 m on the ground)");
    if (density == 1000.0f) CHECK(lowestGap > 0.4f);
    CHECK(lowestHeavy > 0.5f - 0.02f);  // on the ground at worst, within the soft contact's give
    CHECK(std::isfinite(world.GetPosition(heavy).x));
    CHECK(std::isfinite(world.GetPosition(light).y));
  }
}

// A light box falling fast onto a heavy ball's shoulder (the case design.md gives for a swept body's
// margin; docs/benchmarks.md, "The spinner's first steps"): a 0.1 m box dropped from 9.93 to 10.23 m
// above a 0.25 m ball (density 1 both: the ball has 20 times the box's mass) rolling at 1 to 3 m/s,
// timed so that they meet near x = 0, 14 m/s apart. The box hits on a corner, spins at about 150 rad/s
// about it and swings into the ball: a turn between two moving bodies, which no speculative point
// foresees (design.md, "Closing pairs"). The bars are Box2D v3's deepest overlaps on the same 18 drops
// (60 Hz, 4 sub-steps, defaults): median 12.8 cm, worst 26.0 cm (ours when written: 7.0 and 22.8).
// The far speculative points are what keep ours there: without them, median 15.1 cm, worst 28.1 cm.
TEST_CASE("a light box dropped onto a rolling ball's shoulder overlaps it no deeper than Box2D v3") {
  std::vector<float> deepest;
  for (const float height : {9.93f, 10.0f, 10.05f, 10.11f, 10.17f, 10.23f}) {
    for (const float roll : {1.0f, 2.0f, 3.0f}) {
      CAPTURE(height);
      CAPTURE(roll);
      World world(WorldDef{});
      test::AddGround(world);
      constexpr float kRadius = 0.25f;
      const BodyId ball = world.CreateBody({.type = BodyType::Dynamic,
                                            .position = {-1.43f * roll, kRadius},  // 1.43 s: the fall
                                            .linearVelocity = {roll, 0.0f},
                                            .angularVelocity = -roll / kRadius});
      const ShapeId ballShape = world.CreateShape(ball, {}, Circle{{0.0f, 0.0f}, kRadius});
      const BodyId box =
          world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 2.0f * kRadius + height}});
      const ShapeId boxShape = world.CreateShape(box, {}, MakeBox(0.05f, 0.05f).value);
      float deepestHere = -1.0f;  // stays negative if the box never touched the ball
      for (int i = 0; i < 180; ++i) {
        world.Step(kDt);
        world.ForEachTouchingContact([&](const ContactView& c) {
          const bool pair = (c.shapeA == ballShape && c.shapeB == boxShape) ||
                            (c.shapeA == boxShape && c.shapeB == ballShape);
          for (int k = 0; pair && k < c.manifold.pointCount; ++k)
            deepestHere = std::max(deepestHere, -c.manifold.points[k].separation);
        });
      }
      CHECK(deepestHere >= 0.0f);  // they met: a drop that missed the ball would prove nothing
      deepest.push_back(deepestHere);
    }
  }
  std::sort(deepest.begin(), deepest.end());
  const float median = 0.5f * (deepest[8] + deepest[9]);
  MESSAGE("deepest box-ball overlap: median " << median << " m, worst " << deepest.back() << " m");
  CHECK(median <= 0.128f);
  CHECK(deepest.back() <= 0.260f);
}

}  // TEST_SUITE("world.mass_ratio")
