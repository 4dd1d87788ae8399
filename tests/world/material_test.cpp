// SPDX-License-Identifier: MIT
// Surface materials (issue 29): rolling resistance against the analytic stopping distance of a ball
// rolling up to rest on a slope, tangent speed (a conveyor) against the analytic Coulomb ride, per
// segment chain materials against the analytic stopping point, the API (set, get, mix, refusals).
#include "minkowski/world_vector.h"
#include "test_util.h"
#include "world/world_fixture.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

using namespace mk;

TEST_SUITE("world_materials") {
namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kG = 10.0f;

struct Roll {
  float distance = 0.0f;  // travelled along the slope, down-slope positive (m)
  float speed = 0.0f;     // at the end (m/s)
  float creep = 0.0f;     // moved during the last 2 s (m)
};

// A solid disc (radius r, I = m r^2 / 2) launched rolling without slip down a slope of angle `slope`
// (friction 1 on both sides, far above what rolling needs) at v0, with rolling resistance `c`.
Roll RollDownSlope(float slope, float c, float v0) {
  World world;
  const BodyId ground = world.CreateBody({.angle = -slope});
  world.CreateShape(ground, {.friction = 1.0f}, MakeBox(50.0f, 1.0f).value);
  const Vec2 n{std::sin(slope), std::cos(slope)};   // the slope's normal
  const Vec2 u{std::cos(slope), -std::sin(slope)};  // down the slope
  const float r = 0.5f;
  const Vec2 start = (1.0f + r) * n - 20.0f * u;
  const BodyId ball = world.CreateBody(
      {.type = BodyType::Dynamic, .position = start, .linearVelocity = v0 * u, .angularVelocity = -v0 / r});
  world.CreateShape(ball, {.friction = 1.0f, .rollingResistance = c}, Circle{{0.0f, 0.0f}, r});
  Roll roll;
  Vec2 before{};
  for (int i = 0; i < 600; ++i) {
    if (i == 480) before = world.GetPosition(ball);
    world.Step(kDt);
  }
  roll.distance = Dot(world.GetPosition(ball) - start, u);
  roll.speed = Length(world.GetLinearVelocity(ball));
  roll.creep = Length(world.GetPosition(ball) - before);
  return roll;
}

}  // namespace

TEST_CASE("a ball rolling down a slope with rolling resistance stops at the analytic distance") {
  // Rolling without slip, the resisting torque c r N (N = m g cos a) opposes the spin: with
  // m a = m g sin a - F and I alpha = F r - c r N, a = alpha r, the ball decelerates at
  // g (c cos a - sin a) / (1 + I / (m r^2)) = g (c cos a - sin a) / 1.5, so from v0 it stops after
  // v0^2 / (2 dec), and then stays (c > tan a: the resistance holds it, as static friction would).
  const float slope = 0.1f, c = 0.3f, v0 = 3.0f;
  const float dec = kG * (c * std::cos(slope) - std::sin(slope)) / 1.5f;
  const float expected = v0 * v0 / (2.0f * dec);
  const Roll roll = RollDownSlope(slope, c, v0);
  MESSAGE("stopped after " << roll.distance << " m (analytic " << expected << " m), speed " << roll.speed
                           << " m/s, last 2 s " << roll.creep << " m");
  CHECK(std::fabs(roll.distance - expected) <= 0.02f * expected);
  CHECK(roll.speed <= 1e-3f);
  CHECK(roll.creep <= 1e-3f);
}

TEST_CASE("without rolling resistance the same ball accelerates down the slope at g sin a over 1.5") {
  // The control: no resistance, no stop. After 10 s at g sin a / 1.5 it has gone v0 t + a t^2 / 2.
  const float slope = 0.1f, v0 = 3.0f, t = 10.0f;
  const float a = kG * std::sin(slope) / 1.5f;
  const float expected = v0 * t + 0.5f * a * t * t;
  const Roll roll = RollDownSlope(slope, 0.0f, v0);
  MESSAGE("went " << roll.distance << " m (analytic " << expected << " m)");
  CHECK(std::fabs(roll.distance - expected) <= 0.01f * expected);
}

TEST_CASE("a box on a conveyor is dragged up to the belt speed as Coulomb friction predicts") {
  // A static box whose surface moves at s (tangentSpeed: to the right on its top face) carries a box
  // resting on it: friction mu m g accelerates it at mu g until it moves with the belt at t1 = s / (mu
  // g), having lost s t1 / 2 = s^2 / (2 mu g) of ground on the belt; then it rides at s.
  World world;
  const float s = 2.0f, mu = 0.5f;
  const BodyId belt = world.CreateBody({.position = {0.0f, -1.0f}});
  const ShapeId beltShape = world.CreateShape(belt, {.friction = mu}, MakeBox(50.0f, 1.0f).value);
  const BodyId box = test::AddBox(world, {0.0f, 0.5f}, 0.5f, {.friction = mu});
  for (int i = 0; i < 30; ++i) world.Step(kDt);  // settle on the still belt
  const float x0 = world.GetPosition(box).x;
  world.SetMaterial(beltShape, {.friction = mu, .tangentSpeed = s});
  CHECK(world.GetMaterial(beltShape).tangentSpeed == s);
  float vHalf = 0.0f;
  for (int i = 1; i <= 60; ++i) {
    world.Step(kDt);
    if (i == 12) vHalf = world.GetLinearVelocity(box).x;  // t = 0.2 s = t1 / 2
  }
  const float t1 = s / (mu * kG);
  const float expectedX = s * 1.0f - s * t1 / 2.0f;  // at t = 1 s
  const float x = world.GetPosition(box).x - x0;
  MESSAGE("v(0.2 s) " << vHalf << " m/s (analytic " << mu * kG * 0.2f << "), v(1 s) "
                      << world.GetLinearVelocity(box).x << ", x(1 s) " << x << " m (analytic " << expectedX
                      << ")");
  CHECK(std::fabs(vHalf - mu * kG * 0.2f) <= 0.01f * s);
  CHECK(std::fabs(world.GetLinearVelocity(box).x - s) <= 1e-3f * s);
  // The belt's speed is reached within a step of t1: the position lags by at most s dt.
  CHECK(std::fabs(x - expectedX) <= s * kDt);
}

TEST_CASE("a box slides over a frictionless chain segment and stops on a rough one at the analytic point") {
  // Chain floor along y = 0 from x = 10 to x = -10 (normals up): segment 0 (x from 10 to 0) rough,
  // segment 1 (x from 0 to -10) frictionless. A box launched at v0 along +x from x = -6 keeps v0 up to
  // the junction x = 0, then decelerates at mu g (mu = sqrt(1 * 0.25) = 0.5: the box's friction is 1)
  // and stops v0^2 / (2 mu g) past it. While it straddles the junction (its width w) only part of its
  // weight rests on the rough segment, so its centre stops within w / 2 of that point.
  World world;
  const BodyId ground = world.CreateBody({});
  const Vec2 points[] = {{10.0f, 0.0f}, {0.0f, 0.0f}, {-10.0f, 0.0f}};
  const SurfaceMaterial materials[] = {{.friction = 0.25f}, {.friction = 0.0f}};
  const ChainId chain = world.CreateChain(ground, {.points = points, .materials = materials});
  REQUIRE(!chain.IsNull());
  const std::vector<ShapeId> segments = mk::GetChainSegments(world, chain);
  REQUIRE(segments.size() == 2);
  CHECK(world.GetFriction(segments[0]) == 0.25f);
  CHECK(world.GetFriction(segments[1]) == 0.0f);
  const float h = 0.1f, v0 = 4.0f;
  const BodyId box = test::AddBox(world, {-6.0f, h}, h, {.friction = 1.0f});
  for (int i = 0; i < 30; ++i) world.Step(kDt);
  world.SetLinearVelocity(box, {v0, 0.0f});
  for (int i = 0; i < 300; ++i) world.Step(kDt);
  const float expected = v0 * v0 / (2.0f * 0.5f * kG);
  const float x = world.GetPosition(box).x;
  MESSAGE("stopped at x = " << x << " m (analytic " << expected << " m, box width " << 2.0f * h << ")");
  CHECK(std::fabs(x - expected) <= h);
  CHECK(Length(world.GetLinearVelocity(box)) <= 1e-3f);
}

TEST_CASE("materials round trip and mix as documented and bad ones are refused") {
  World world;
  const BodyId ground = world.CreateBody({});
  const SurfaceMaterial m{.friction = 0.4f,
                          .restitution = 0.2f,
                          .rollingResistance = 0.3f,
                          .tangentSpeed = -1.5f,
                          .userMaterialId = 0x1234567890ull,
                          .customColor = 0xFF8000u};
  const ShapeId a = world.CreateShape(ground, {}, MakeBox(5.0f, 0.5f).value);
  world.SetMaterial(a, m);
  const SurfaceMaterial back = world.GetMaterial(a);
  CHECK(back.friction == m.friction);
  CHECK(back.restitution == m.restitution);
  CHECK(back.rollingResistance == m.rollingResistance);
  CHECK(back.tangentSpeed == m.tangentSpeed);
  CHECK(back.userMaterialId == m.userMaterialId);
  CHECK(back.customColor == m.customColor);
  // A ball (radius 0.25, friction 0.9, restitution 0.5, rolling 0.1, belt 0.5 m/s) resting on it.
  const BodyId ball = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 0.75f}});
  world.CreateShape(ball,
                    {.friction = 0.9f, .restitution = 0.5f, .rollingResistance = 0.1f, .tangentSpeed = 0.5f},
                    Circle{{0.0f, 0.0f}, 0.25f});
  world.Step(kDt);
  ContactData data[2];
  REQUIRE(world.GetBodyContactData(ball, data) == 1);
  CHECK(data[0].friction == doctest::Approx(std::sqrt(0.4f * 0.9f)));
  CHECK(data[0].restitution == 0.5f);
  CHECK(data[0].rollingResistance == doctest::Approx(0.3f * 0.25f));  // max coefficient x larger radius
  CHECK(data[0].tangentSpeed == doctest::Approx(-1.0f));
  // A changed material mixes again at once.
  world.SetFriction(a, 0.1f);
  REQUIRE(world.GetBodyContactData(ball, data) == 1);
  CHECK(data[0].friction == doctest::Approx(std::sqrt(0.1f * 0.9f)));
  test::AssertCounter asserts;
  const float nan = std::nanf("");
  for (const SurfaceMaterial& bad :
       {SurfaceMaterial{.friction = -1.0f}, SurfaceMaterial{.restitution = nan},
        SurfaceMaterial{.rollingResistance = 2.0f * kMaxMaterialCoefficient},
        SurfaceMaterial{.tangentSpeed = 2.0f * kMaxTangentSpeed}, SurfaceMaterial{.tangentSpeed = nan}}) {
    world.SetMaterial(a, bad);
    CHECK(world
              .CreateShape(ground,
                           {.rollingResistance = bad.rollingResistance, .tangentSpeed = bad.tangentSpeed},
                           Circle{{0.0f, 0.0f}, 1.0f})
              .IsNull() == (bad.rollingResistance != 0.0f || bad.tangentSpeed != 0.0f));
  }
  CHECK(world.GetMaterial(a).friction == 0.1f);  // unchanged by the refused calls
  CHECK(world.GetMaterial(a).tangentSpeed == m.tangentSpeed);
  // Chains: a materials count other than 0, 1 or the segment count is refused.
  const Vec2 points[] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {2.0f, 0.0f}, {3.0f, 0.0f}};
  const SurfaceMaterial two[] = {{}, {}};
  CHECK(world.CreateChain(ground, {.points = points, .materials = two}).IsNull());
  const SurfaceMaterial badOne[] = {{.rollingResistance = nan}};
  CHECK(world.CreateChain(ground, {.points = points, .materials = badOne}).IsNull());
  const SurfaceMaterial one[] = {{.friction = 0.7f, .tangentSpeed = 3.0f}};
  const ChainId chain = world.CreateChain(ground, {.points = points, .materials = one});
  REQUIRE(!chain.IsNull());
  for (ShapeId s : mk::GetChainSegments(world, chain)) CHECK(world.GetMaterial(s).tangentSpeed == 3.0f);
  CHECK(world.GetMaterial(ShapeId{}).friction == SurfaceMaterial{}.friction);  // a stale id: the defaults
  CHECK(asserts.Count() == 5 + 3 + 2 + 1);
}

namespace {

// Mixing rules a game might write: materials 7 and 7 (ice on ice) get 0.01, others the smaller
// friction; restitution the mean.
float IceFriction(float a, std::uint64_t ma, float b, std::uint64_t mb) {
  return ma == 7 && mb == 7 ? 0.01f : std::min(a, b);
}
float MeanRestitution(float a, std::uint64_t, float b, std::uint64_t) { return 0.5f * (a + b); }
float BadMix(float, std::uint64_t, float, std::uint64_t) { return -1.0f; }

// The shapes' user data are their numbers; pairs where either number is odd are refused.
int filterCalls = 0;
bool EvenOnly(ShapeId a, ShapeId b, void* context) {
  ++filterCalls;
  World& world = *static_cast<World*>(context);
  const auto number = [&](ShapeId s) { return reinterpret_cast<std::intptr_t>(world.GetUserData(s)); };
  return number(a) % 2 == 0 && number(b) % 2 == 0;
}

}  // namespace

TEST_CASE("friction and restitution callbacks decide the mix read back through contact data") {
  World world;
  world.SetFrictionCallback(IceFriction);
  world.SetRestitutionCallback(MeanRestitution);
  const BodyId ground = world.CreateBody({});
  world.CreateShape(ground, {.friction = 0.8f, .restitution = 0.2f, .userMaterialId = 7},
                    MakeBox(20.0f, 0.5f).value);
  struct Case {
    float friction, restitution;
    std::uint64_t material;
    float expectedFriction, expectedRestitution;
  };
  const Case cases[] = {
      {0.9f, 0.6f, 7, 0.01f, 0.4f}, {0.3f, 0.0f, 3, 0.3f, 0.1f}, {0.9f, 1.0f, 0, 0.8f, 0.6f}};
  std::vector<BodyId> balls;
  std::vector<ShapeId> ballShapes;
  for (int i = 0; i < 3; ++i) {
    balls.push_back(world.CreateBody({.type = BodyType::Dynamic, .position = {-5.0f + 5.0f * i, 0.75f}}));
    ballShapes.push_back(world.CreateShape(balls.back(),
                                           {.friction = cases[i].friction,
                                            .restitution = cases[i].restitution,
                                            .userMaterialId = cases[i].material},
                                           Circle{{0.0f, 0.0f}, 0.25f}));
  }
  world.Step(kDt);
  for (int i = 0; i < 3; ++i) {
    ContactData data[2];
    REQUIRE(world.GetBodyContactData(balls[i], data) == 1);
    CHECK(data[0].friction == cases[i].expectedFriction);
    CHECK(data[0].restitution == doctest::Approx(cases[i].expectedRestitution));
  }
  // Back to the default mix (sqrt(fA fB)) once a material changes after the callback is removed;
  // a callback answering outside the range is refused for the default mix.
  world.SetFrictionCallback(nullptr);
  world.SetFriction(ballShapes[0], 0.5f);
  ContactData data[2];
  REQUIRE(world.GetBodyContactData(balls[0], data) == 1);
  CHECK(data[0].friction == doctest::Approx(std::sqrt(0.5f * 0.8f)));
  test::AssertCounter asserts;
  world.SetFrictionCallback(BadMix);
  world.SetFriction(ballShapes[1], 0.2f);
  REQUIRE(world.GetBodyContactData(balls[1], data) == 1);
  CHECK(data[0].friction == doctest::Approx(std::sqrt(0.2f * 0.8f)));
  CHECK(asserts.Count() == 1);
}

TEST_CASE("a custom filter refusing odd shapes leaves exactly the brute-force expected contacts") {
  // 60 discs at rest without gravity, placed (fixed seed) so every pair clearly overlaps or is
  // clearly apart. Every third shape enables custom filtering; a pair is refused when one of the
  // two enables it and one of the two numbers is odd. Oracle: every pair, by hand.
  test::Rng rng(29);
  constexpr int n = 60;
  std::vector<Vec2> centres;
  std::vector<float> radii;
  while (static_cast<int>(centres.size()) < n) {
    const Vec2 c = rng.InBox(6.0f);
    const float r = rng.Uniform(0.3f, 0.8f);
    bool clear = true;
    for (std::size_t j = 0; j < centres.size(); ++j) {
      const float gap = Distance(c, centres[j]) - r - radii[j];
      if (gap > -0.05f && gap < 0.5f) clear = false;
    }
    if (clear) centres.push_back(c), radii.push_back(r);
  }
  World world({.gravity = {0.0f, 0.0f}});
  world.SetCustomFilterCallback(EvenOnly, &world);
  filterCalls = 0;
  std::vector<ShapeId> shapes;
  for (int i = 0; i < n; ++i) {
    const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = centres[i]});
    shapes.push_back(world.CreateShape(body,
                                       {.enableCustomFiltering = i % 3 == 0,
                                        .userData = reinterpret_cast<void*>(static_cast<std::intptr_t>(i))},
                                       Circle{{0.0f, 0.0f}, radii[i]}));
  }
  world.Step(kDt);
  std::set<std::pair<int, int>> expected, found;
  int asked = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (Distance(centres[i], centres[j]) >= radii[i] + radii[j]) continue;
      const bool filtered = i % 3 == 0 || j % 3 == 0;
      asked += filtered;
      if (!filtered || (i % 2 == 0 && j % 2 == 0)) expected.insert({i, j});
    }
  }
  for (int i = 0; i < n; ++i) {
    ContactData data[n];
    const int count = world.GetBodyContactData(world.GetBody(shapes[i]), data);
    for (int k = 0; k < count; ++k) {
      const int a = static_cast<int>(reinterpret_cast<std::intptr_t>(world.GetUserData(data[k].shapeA)));
      const int b = static_cast<int>(reinterpret_cast<std::intptr_t>(world.GetUserData(data[k].shapeB)));
      found.insert({std::min(a, b), std::max(a, b)});
    }
  }
  MESSAGE(expected.size() << " contacts expected, " << asked << " overlapping pairs shown to the filter");
  CHECK(expected.size() > 10);
  CHECK(asked > 5);
  CHECK(found == expected);
  CHECK(filterCalls >= asked);  // every overlapping filtered pair was asked (and fat boxes add a few)
}

TEST_CASE("world user data comes from the def and can be changed") {
  int a = 0, b = 0;
  World world({.userData = &a});
  CHECK(world.GetUserData() == &a);
  world.SetUserData(&b);
  CHECK(world.GetUserData() == &b);
}

}  // TEST_SUITE("world_materials")
