// SPDX-License-Identifier: MIT
#include "minkowski/world.h"
#include "test_util.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;

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

TEST_SUITE("world.contact") {

TEST_CASE("a box dropped on the ground comes to rest within the slop and falls asleep by 3 s") {
  World world;
  test::AddGround(world);
  BodyId box = test::AddBox(world, {0, 2});
  for (int i = 0; i < 120; ++i) world.Step(kDt);
  CHECK(Length(world.GetLinearVelocity(box)) < 1e-3f);
  CHECK(std::fabs(world.GetAngularVelocity(box)) < 1e-3f);
  CHECK(MaxPenetration(world) <= world.GetSolverSettings().linearSlop + 1e-3f);
  CHECK(std::fabs(world.GetPosition(box).y - 0.5f) <= 0.005f + 1e-3f);
  for (int i = 0; i < 60; ++i) world.Step(kDt);
  CHECK_FALSE(world.IsAwake(box));
}

TEST_CASE("a ball with restitution 0.5 dropped from 1 m rebounds to 0.25 m and with 0 does not bounce") {
  for (float e : {0.5f, 0.0f}) {
    World world;
    test::AddGround(world);
    const float r = 0.25f;
    BodyId ball = world.CreateBody({.type = BodyType::Dynamic, .position = {0, 1.0f + r}});
    world.CreateShape(ball, {.restitution = e}, Circle{{0, 0}, r});
    bool hitGround = false;
    float apex = 0.0f;
    for (int i = 0; i < 120; ++i) {
      world.Step(kDt);
      float y = world.GetPosition(ball).y - r;
      if (world.GetLinearVelocity(ball).y > 0.0f) hitGround = true;
      if (hitGround) apex = std::max(apex, y);
    }
    if (e > 0.0f) {
      CHECK(apex == doctest::Approx(0.25f).epsilon(0.05));
    } else {
      CHECK(apex < 0.01f);
    }
  }
}

// Two 10 cm boxes closing head-on faster than 4 speculative distances a step (the narrowphase then
// gives the pair points out to its closing distance, CollideApproaching), each below the speed at
// which its proxy box is swept (4.8 m/s at 60 Hz): their fat margins, small for shapes this size,
// still grow with each body's travel so that the pair exists the step before they meet, and the
// contact stops them with no more overlap than the solver's push-out leaves. With a margin of an
// eighth of their reach alone (0.009 m) the pair was found a step late and the boxes met 1 to 9 cm
// deep. (Closing slower, between 1 and 4 speculative distances a step, a pair can still meet up to
// 4 cm deep, with either margin: points come only within the speculative distance.)
TEST_CASE("small bodies closing fast but each below the sweep speed meet without a deep overlap") {
  for (const float speed : {2.5f, 3.0f, 4.0f, 4.5f}) {
    for (const float start : {0.5f, 0.53f, 0.57f, 0.61f}) {  // the gap's phase against the step
      CAPTURE(speed);
      CAPTURE(start);
      World world({.gravity = {0, 0}});
      const BodyId a = world.CreateBody(
          {.type = BodyType::Dynamic, .position = {-start, 0}, .linearVelocity = {speed, 0}});
      const BodyId b = world.CreateBody(
          {.type = BodyType::Dynamic, .position = {start, 0}, .linearVelocity = {-speed, 0}});
      world.CreateShape(a, {}, MakeBox(0.05f, 0.05f).value);
      world.CreateShape(b, {}, MakeBox(0.05f, 0.05f).value);
      float deepest = 0.0f;
      for (int i = 0; i < 30; ++i) {
        world.Step(kDt);
        world.ForEachTouchingContact([&](const ContactView& v) {
          for (int k = 0; k < v.manifold.pointCount; ++k)
            deepest = std::max(deepest, -v.manifold.points[k].separation);
        });
      }
      CHECK(world.GetLinearVelocity(a).x < 0.5f * speed);  // they did meet
      CHECK(deepest < 0.01f);
    }
  }
}

// Bodies fast enough to have their boxes swept (docs/design.md, "Closing pairs"): a 10 or 20 cm box
// thrown at another, head-on or at a still one, closing 0.17 to 0.67 m a step, at twelve phases of
// the gap against the step and two angles of the target, always squarely enough to hit it. Each must
// meet its target: a pair whose fat boxes first overlap in the step the bodies pass each other has no
// contact to stop them. A swept box with only the shape's small margin ahead (in place of the
// world's) let 10 cm boxes through in 12 of these 24 throws at 40 m/s head-on and in 6 at 20 m/s
// against a still one.
TEST_CASE("small fast boxes thrown at each other or at a still box never pass through it") {
  struct Throw {
    float closing;  // m/s
    bool still;     // the target waits; else both move, each at half the closing speed
  };
  for (const float half : {0.05f, 0.1f}) {
    for (const Throw t :
         {Throw{10, false}, Throw{20, false}, Throw{40, false}, Throw{10, true}, Throw{20, true}}) {
      int missed = 0;
      for (int phase = 0; phase < 12; ++phase) {
        for (const float angle : {0.0f, 0.4f}) {
          World world(WorldDef{.gravity = {0, 0}});
          const float start = 1.0f + static_cast<float>(phase) * t.closing * kDt / 12.0f;
          const float speed = t.still ? t.closing : 0.5f * t.closing;
          const BodyId a =
              world.CreateBody({.type = BodyType::Dynamic,
                                .position = {-start, 0.2f * half * static_cast<float>(phase) / 12.0f},
                                .linearVelocity = {speed, 0}});
          const BodyId b = world.CreateBody({.type = BodyType::Dynamic,
                                             .position = {start, 0},
                                             .angle = angle,
                                             .linearVelocity = {t.still ? 0.0f : -speed, 0}});
          world.CreateShape(a, {}, MakeBox(half, half).value);
          world.CreateShape(b, {}, MakeBox(half, half).value);
          for (int i = 0; i < 60; ++i) world.Step(kDt);
          if (world.GetLinearVelocity(a).x == speed) ++missed;  // flew on untouched
        }
      }
      CAPTURE(half);
      CAPTURE(t.closing);
      CAPTURE(t.still);
      CHECK(missed == 0);
    }
  }
}

TEST_CASE("a head-on collision in zero gravity conserves linear momentum") {
  World world({.gravity = {0, 0}});
  BodyId a = world.CreateBody({.type = BodyType::Dynamic, .position = {-2, 0}, .linearVelocity = {3, 0.1f}});
  world.CreateShape(a, {.density = 1.0f, .restitution = 0.3f}, MakeBox(0.5f, 0.5f).value);
  BodyId b = world.CreateBody({.type = BodyType::Dynamic, .position = {2, 0}, .linearVelocity = {-1, 0}});
  world.CreateShape(b, {.density = 3.0f}, Circle{{0, 0}, 0.6f});
  Vec2 before = world.GetMass(a) * world.GetLinearVelocity(a) + world.GetMass(b) * world.GetLinearVelocity(b);
  bool collided = false;
  for (int i = 0; i < 120; ++i) {
    world.Step(kDt);
    collided = collided || world.GetLinearVelocity(b).x > -1.0f + 1e-3f;
  }
  Vec2 after = world.GetMass(a) * world.GetLinearVelocity(a) + world.GetMass(b) * world.GetLinearVelocity(b);
  CHECK(collided);
  CHECK(Length(after - before) <= 1e-4f * Length(before));
}

TEST_CASE(
    "friction holds a box on a slope flatter than atan(mu) and lets it slide at g (sin - mu cos) beyond") {
  auto slope = [](float angle, float mu, float& creep, float& acceleration) {
    World world;
    world.SetSolverSettings({.enableSleep = false});
    BodyId ground = world.CreateBody({.angle = angle});
    world.CreateShape(ground, {.friction = mu}, MakeBox(20.0f, 1.0f).value);  // top surface through (0,0)+n
    Vec2 down{std::cos(angle), std::sin(angle)};  // along the slope, pointing up-hill
    Vec2 normal{-std::sin(angle), std::cos(angle)};
    BodyId box = world.CreateBody({.type = BodyType::Dynamic, .position = normal * 1.5f, .angle = angle});
    world.CreateShape(box, {.friction = mu}, MakeBox(0.5f, 0.5f).value);
    Vec2 start = world.GetPosition(box);
    float v1 = 0.0f;
    for (int i = 1; i <= 120; ++i) {
      world.Step(1.0f / 60.0f);
      if (i == 30) v1 = Dot(world.GetLinearVelocity(box), -down);
    }
    float v2 = Dot(world.GetLinearVelocity(box), -down);
    creep = Length(world.GetPosition(box) - start);
    acceleration = (v2 - v1) / 1.5f;
  };
  float creep = 0, acceleration = 0;
  slope(20.0f * std::numbers::pi_v<float> / 180.0f, 0.6f, creep, acceleration);  // tan 20 deg = 0.36 < 0.6
  CHECK(creep < 1e-3f);
  const float angle = 30.0f * std::numbers::pi_v<float> / 180.0f, mu = 0.2f;  // tan 30 deg = 0.58 > 0.2
  slope(angle, mu, creep, acceleration);
  CHECK(acceleration == doctest::Approx(10.0f * (std::sin(angle) - mu * std::cos(angle))).epsilon(0.05));
}

TEST_CASE("a scripted drop produces exactly one begin and one hit event and after a launch one end event") {
  World world;
  test::AddGround(world);
  BodyId box = test::AddBox(world, {0, 2.5f}, 0.5f, {.enableHitEvents = true});  // bottom 2 m up
  int begins = 0, hits = 0, ends = 0;
  float hitSpeed = 0.0f;
  for (int i = 0; i < 90; ++i) {
    world.Step(kDt);
    begins += static_cast<int>(world.GetContactBeginEvents().size());
    ends += static_cast<int>(world.GetContactEndEvents().size());
    for (const ContactHitEvent& hit : world.GetContactHitEvents()) {
      ++hits;
      hitSpeed = hit.approachSpeed;
      CHECK(test::Near(hit.normal, {0, 1}, 1e-4f));  // ground (A, created first) -> box (B)
    }
  }
  CHECK(begins == 1);
  CHECK(hits == 1);
  CHECK(ends == 0);
  CHECK(hitSpeed == doctest::Approx(std::sqrt(2.0f * 10.0f * 2.0f)).epsilon(0.05));  // fell 2 m
  world.ApplyLinearImpulseToCenter(box, {0, 10});                                    // 1 kg: 10 m/s up
  for (int i = 0; i < 30; ++i) {
    world.Step(kDt);
    ends += static_cast<int>(world.GetContactEndEvents().size());
    begins += static_cast<int>(world.GetContactBeginEvents().size());
  }
  CHECK(ends == 1);
  CHECK(begins == 1);
}

TEST_CASE(
    "a ball falling through a sensor raises one begin and one end exactly when it overlaps and falls "
    "freely") {
  World world;
  BodyId holder = world.CreateBody({});
  // Sensor slab spanning y in [-0.5, 0.5]; a ball of radius 0.25 overlaps it while -0.75 < y < 0.75.
  ShapeId sensor = world.CreateShape(holder, {.isSensor = true}, MakeBox(1.0f, 0.5f).value);
  const float y0 = 3.0f, r = 0.25f;
  BodyId ball = world.CreateBody({.type = BodyType::Dynamic, .position = {0, y0}});
  ShapeId visitor = world.CreateShape(ball, {}, Circle{{0, 0}, r});
  // Overlap is evaluated at the start of a step on the positions the previous step left, so step k
  // (1-based) reports the state after k - 1 steps: y = y0 - g ((k - 1) dt)^2 / 2, exact for a ballistic
  // body (the free-fall test). First k with y < 0.75 is 42, first with y < -0.75 is 53.
  auto yAfter = [&](int steps) { return y0 - 5.0f * (steps * kDt) * (steps * kDt); };
  int beginStep = -1, endStep = -1, begins = 0, ends = 0, contactEvents = 0;
  for (int k = 1; k <= 70; ++k) {
    world.Step(kDt);
    for (const SensorBeginEvent& e : world.GetSensorBeginEvents()) {
      ++begins;
      beginStep = k;
      CHECK(e.sensorShape == sensor);
      CHECK(e.visitorShape == visitor);
    }
    for (const SensorEndEvent& e : world.GetSensorEndEvents()) {
      ++ends;
      endStep = k;
      CHECK(e.sensorShape == sensor);
      CHECK(e.visitorShape == visitor);
    }
    contactEvents +=
        static_cast<int>(world.GetContactBeginEvents().size() + world.GetContactEndEvents().size());
    CHECK(world.GetCounters().touchingContacts == 0);
  }
  CHECK(begins == 1);
  CHECK(ends == 1);
  CHECK(contactEvents == 0);
  CHECK(yAfter(beginStep - 2) >= 0.75f);  // just before the begin step the ball was still above
  CHECK(yAfter(beginStep - 1) < 0.75f);
  CHECK(yAfter(endStep - 2) >= -0.75f);
  CHECK(yAfter(endStep - 1) < -0.75f);
  CHECK(beginStep == 42);
  CHECK(endStep == 53);
  // No collision response: the ball is exactly where free fall puts it.
  CHECK(std::fabs(world.GetPosition(ball).y - yAfter(70)) <= 1e-4f);
  CHECK(std::fabs(world.GetLinearVelocity(ball).y + 10.0f * 70 * kDt) <= 1e-4f);
}

TEST_CASE(
    "destroying a visitor inside a sensor raises its end event and shapes with sensor events off are not "
    "seen") {
  World world({.gravity = {0, 0}});
  BodyId holder = world.CreateBody({});
  ShapeId sensor = world.CreateShape(holder, {.isSensor = true}, Circle{{0, 0}, 1.0f});
  BodyId seen = world.CreateBody({.type = BodyType::Dynamic, .position = {0.5f, 0}});
  ShapeId seenShape = world.CreateShape(seen, {}, Circle{{0, 0}, 0.25f});
  BodyId unseen = world.CreateBody({.type = BodyType::Dynamic, .position = {-0.5f, 0}});
  world.CreateShape(unseen, {.enableSensorEvents = false}, Circle{{0, 0}, 0.25f});
  int begins = 0;
  for (int i = 0; i < 3; ++i) {
    world.Step(kDt);
    begins += static_cast<int>(world.GetSensorBeginEvents().size());
  }
  CHECK(begins == 1);
  CHECK(world.GetPosition(seen) == Vec2(0.5f, 0));  // overlapping from the start, never pushed
  CHECK(world.GetPosition(unseen) == Vec2(-0.5f, 0));
  world.DestroyBody(seen);
  // Raised between Steps, reported with the next Step's events (the last Step's list is untouched).
  CHECK(world.GetSensorEndEvents().empty());
  world.Step(kDt);
  REQUIRE(world.GetSensorEndEvents().size() == 1);
  CHECK(world.GetSensorEndEvents()[0].sensorShape == sensor);
  CHECK(world.GetSensorEndEvents()[0].visitorShape == seenShape);
  CHECK(world.GetSensorBeginEvents().empty());
  world.Step(kDt);
  CHECK(world.GetSensorEndEvents().empty());
}

TEST_CASE("a vertical stack of 20 boxes stands for 10 s" * doctest::test_suite("long")) {
  World world;
  test::AddGround(world);
  BodyId boxes[20];
  for (int i = 0; i < 20; ++i) boxes[i] = test::AddBox(world, {0, 0.5f + 1.0f * i});
  for (int i = 0; i < 600; ++i) world.Step(kDt);
  CHECK(std::fabs(world.GetPosition(boxes[19]).x) < 0.02f);
  CHECK(world.GetPosition(boxes[19]).y > 19.0f);
}

// Mass ratios (SolverSettings, "Mass ratios"): a soft contact's stiffness is its effective mass times
// w^2, and the effective mass of a contact under a light body is the light body's, whatever rests on
// it. So at rest each contact point is compressed by its load / (m_eff w^2): for 1000 kg on a 1 kg box
// 35 cm between the boxes and 9 cm into the static ground (twice the hertz there). The push-out cap
// bounds the spring's push and with it the load a deep contact carries (about 5 kN per point under a
// 1 kg box): 1000 kg is within it (1200 kg is not: mass_ratio_test.cpp). Regression: with the cap on
// biasRate s instead of massScale biasRate s (this engine before aa02c1b), a contact carried 6% less
// (4.7 kN per point), and this box overshot to 0.76 m and squeezed the light box out after 9.7 s.
// The relax pass from the ground up (RelaxNormalRows, contact_solver.cpp) takes the sinking speed out
// of the heavy box every sub-step, so it creeps down to the springs' rest instead of falling onto
// them (it peaked near 0.5 m and swayed before): with sleeping off it is there within 10% after 60 s,
// never beyond; with sleeping on the pair falls asleep a few cm deep, long before.
TEST_CASE(
    "a 1000 kg box resting on a 1 kg box creeps down to where the soft-contact springs say and never "
    "through") {
  SolverSettings noSleep;
  noSleep.enableSleep = false;
  World world({.settings = noSleep});
  test::AddGround(world);
  BodyId light = test::AddBox(world, {0.0f, 0.5f}, 0.5f, {.density = 1.0f});
  BodyId heavy = test::AddBox(world, {0.0f, 1.5f}, 0.5f, {.density = 1000.0f});
  const SolverSettings& s = world.GetSolverSettings();
  const float g = -world.GetGravity().y;
  const float hertz = std::min(s.contactHertz, 0.25f * static_cast<float>(s.subSteps) / kDt);
  const float omega = 2.0f * std::numbers::pi_v<float> * hertz, omegaFloor = s.staticContactScale * omega;
  const float m = world.GetMass(light), M = world.GetMass(heavy);
  const float invI = 1.0f / world.GetRotationalInertia(light),
              invIM = 1.0f / world.GetRotationalInertia(heavy);
  // Two points per contact, each at r x n = 0.5 m from both centres, each carrying half the load.
  const float massFloor = 1.0f / (1.0f / m + 0.25f * invI);
  const float massBoxes = 1.0f / (1.0f / m + 1.0f / M + 0.25f * (invI + invIM));
  const float sinkFloor = 0.5f * (m + M) * g / (massFloor * omegaFloor * omegaFloor);
  const float sinkBoxes = 0.5f * M * g / (massBoxes * omega * omega);
  const float atRest = sinkFloor + sinkBoxes;
  float peak = 0.0f, offset = 0.0f, tilt = 0.0f, lowestGap = 1.0f;
  for (int i = 0; i < 3600; ++i) {
    world.Step(kDt);
    const Vec2 pHeavy = world.GetPosition(heavy), pLight = world.GetPosition(light);
    peak = std::max(peak, 1.5f - pHeavy.y);
    offset = std::max(offset, std::fabs(pHeavy.x - pLight.x));
    tilt = std::max(tilt, std::fabs(world.GetAngle(light)));
    lowestGap = std::min(lowestGap, pHeavy.y - pLight.y);
  }
  const float sink = 1.5f - world.GetPosition(heavy).y;
  MESSAGE("model " << atRest << " m at rest (" << sinkBoxes << " between the boxes), measured " << sink
                   << " m after 60 s, peak " << peak << " m; the pair sways by up to " << offset << " m and "
                   << tilt << " rad");
  CHECK(atRest == doctest::Approx(0.44f).epsilon(0.01));  // for the record
  CHECK(sink == doctest::Approx(atRest).epsilon(0.1));
  CHECK(peak <= 1.02f * atRest);  // a creep: no overshoot past the springs' rest
  // Never through and never squeezed out: the heavy box's bottom stays above the light box's centre,
  // and its centre above the light box.
  CHECK(lowestGap > 0.5f);
  CHECK(offset < 0.5f);

  // Sleeping on (the default): the creep is slower than the sleep threshold, so the pair rests where
  // it is long before the springs' rest; it must still be asleep on the light box, not in it.
  World sleepy;
  test::AddGround(sleepy);
  test::AddBox(sleepy, {0.0f, 0.5f}, 0.5f, {.density = 1.0f});
  const BodyId heavy2 = test::AddBox(sleepy, {0.0f, 1.5f}, 0.5f, {.density = 1000.0f});
  for (int i = 0; i < 300; ++i) sleepy.Step(kDt);
  MESSAGE("sleeping on: asleep " << !sleepy.IsAwake(heavy2) << " at " << 1.5f - sleepy.GetPosition(heavy2).y
                                 << " m deep");
  CHECK_FALSE(sleepy.IsAwake(heavy2));
  CHECK(1.5f - sleepy.GetPosition(heavy2).y < 0.25f * atRest);
}

TEST_CASE("sleeping: a ball dropped on one of two resting piles wakes that pile only") {
  World world;
  test::AddGround(world);
  BodyId left[3], right[3];
  for (int i = 0; i < 3; ++i) {
    left[i] = test::AddBox(world, {-5, 0.5f + i});
    right[i] = test::AddBox(world, {5, 0.5f + i});
  }
  for (int i = 0; i < 180; ++i) world.Step(kDt);
  for (int i = 0; i < 3; ++i) {
    CHECK_FALSE(world.IsAwake(left[i]));
    CHECK_FALSE(world.IsAwake(right[i]));
  }
  BodyId ball = world.CreateBody({.type = BodyType::Dynamic, .position = {-5, 5}});
  world.CreateShape(ball, {}, Circle{{0, 0}, 0.25f});
  bool leftWoke = false, rightWoke = false;
  for (int i = 0; i < 60; ++i) {
    world.Step(kDt);
    leftWoke = leftWoke || world.IsAwake(left[0]);
    rightWoke = rightWoke || world.IsAwake(right[0]) || world.IsAwake(right[2]);
  }
  CHECK(leftWoke);
  CHECK_FALSE(rightWoke);
}

TEST_CASE("sleeping: a touch wakes the touched body only - and the wake spreads one contact per step") {
  // A row of boxes created asleep, touching exactly, no gravity; an awake box slides into its first.
  // Each box is its own sleep group and its contacts with its neighbours have never been updated, so
  // a box woken by a contact that began touching this step reaches its next neighbour only through a
  // contact updated next step: the row wakes exactly one box per step (it woke in one pass when the
  // wake took effect inside the contact update).
  World world({.gravity = {0.0f, 0.0f}});
  constexpr int kRow = 10;
  BodyId row[kRow];
  for (int i = 0; i < kRow; ++i) {
    row[i] = world.CreateBody(
        {.type = BodyType::Dynamic, .position = {static_cast<float>(i), 0.0f}, .isAwake = false});
    world.CreateShape(row[i], {}, MakeBox(0.5f, 0.5f).value);
  }
  BodyId striker = world.CreateBody(
      {.type = BodyType::Dynamic, .position = {-3.0f, 0.0f}, .linearVelocity = {30.0f, 0.0f}});
  world.CreateShape(striker, {}, MakeBox(0.5f, 0.5f).value);
  std::vector<int> awakeAfterStep;
  for (int step = 0; step < 40; ++step) {
    world.Step(kDt);
    int awake = 0;
    for (BodyId body : row) awake += world.IsAwake(body) ? 1 : 0;
    awakeAfterStep.push_back(awake);
  }
  const auto first = std::find_if(awakeAfterStep.begin(), awakeAfterStep.end(), [](int n) { return n > 0; });
  REQUIRE(first != awakeAfterStep.end());
  for (auto it = first; it != awakeAfterStep.end(); ++it) {
    CHECK(*it == std::min(1 + static_cast<int>(it - first), kRow));
  }
}

TEST_CASE("the GJK iteration counter sums the narrowphase's iterations and drops once contacts are warm") {
  // Circles resting on a polygon need no GJK (the face of largest separation and its ends): ten balls
  // on a box ground, ten queries and no iteration.
  World onBox;
  test::AddGround(onBox);
  // Circles on a chain run GJK (the chain's one-sided rules start from the closest points), cold on
  // the first step.
  World onChain;
  const Vec2 chainPoints[] = {{30.0f, 0.0f}, {25.0f, 0.0f}, {-25.0f, 0.0f}, {-30.0f, 0.0f}};  // normal +y
  ChainDef chain;
  chain.points = chainPoints;
  onChain.CreateChain(onChain.CreateBody({}), chain);
  const Circle ball{{0.0f, 0.0f}, 0.5f};
  std::vector<Vec2> ballPositions;
  for (int i = 0; i < 10; ++i) {
    // 2 cm above the ground: within the speculative distance, so every pair is queried from the first step.
    const Vec2 p{-18.0f + 4.0f * static_cast<float>(i), 0.52f};
    for (World* world : {&onBox, &onChain}) {
      world->CreateShape(world->CreateBody({.type = BodyType::Dynamic, .position = p}), {}, ball);
    }
    ballPositions.push_back(p);
  }
  onBox.Step(kDt);
  CHECK(onBox.GetCounters().narrowphaseQueries == 10);
  CHECK(onBox.GetCounters().gjkIterations == 0);

  onChain.Step(kDt);
  Counters first = onChain.GetCounters();
  REQUIRE(first.narrowphaseQueries == 10);
  // The first step's sum is exactly the cold iterations of the ten segment-circle queries, asked here
  // of ShapeDistance.
  int expected = 0;
  const Segment middle{chainPoints[1], chainPoints[2]};
  for (Vec2 p : ballPositions) {
    expected +=
        ShapeDistance({MakeProxy(middle), MakeProxy(ball), Transform{}, MakeTransform(p, 0.0f)}).iterations;
  }
  CHECK(expected >= 10);  // a cold segment-circle query needs at least one support query
  CHECK(first.gjkIterations == expected);
  long later = 0;
  for (int i = 0; i < 30; ++i) {
    onChain.Step(kDt);
    later += onChain.GetCounters().gjkIterations;
  }
  // Resting contacts re-query from their caches: far fewer iterations per step than the cold start.
  CHECK(later < 30L * first.gjkIterations / 2);
}

}  // TEST_SUITE("world.contact")
