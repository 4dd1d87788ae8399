// SPDX-License-Identifier: MIT
#include "minkowski/world.h"
#include "test_util.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace mk;

TEST_SUITE("world.motion") {

TEST_CASE("free fall matches x0 + v0 t + g t^2 / 2 after 1 s at 60 Hz") {
  World world;  // gravity (0, -10)
  BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {1, 10}, .linearVelocity = {3, 2}});
  world.CreateShape(body, {}, Circle{{0, 0}, 0.5f});
  for (int i = 0; i < 60; ++i) world.Step(1.0f / 60.0f);
  Vec2 p = world.GetPosition(body);
  CHECK(std::fabs(p.x - (1.0f + 3.0f)) <= 1e-4f);
  CHECK(std::fabs(p.y - (10.0f + 2.0f - 5.0f)) <= 1e-4f);
  CHECK(std::fabs(world.GetLinearVelocity(body).y - (2.0f - 10.0f)) <= 1e-4f);
}

TEST_CASE("gravity scale and damping and fixed rotation act as documented") {
  World world;
  BodyId floating = world.CreateBody({.type = BodyType::Dynamic, .gravityScale = 0.0f});
  world.CreateShape(floating, {}, Circle{{0, 0}, 0.5f});
  BodyId damped = world.CreateBody({.type = BodyType::Dynamic,
                                    .position = {0, 5},
                                    .linearVelocity = {10, 0},
                                    .linearDamping = 1.0f,
                                    .gravityScale = 0.0f});
  world.CreateShape(damped, {}, Circle{{0, 0}, 0.5f});
  BodyId fixed = world.CreateBody(
      {.type = BodyType::Dynamic, .position = {0, -5}, .gravityScale = 0.0f, .fixedRotation = true});
  world.CreateShape(fixed, {}, MakeBox(0.5f, 0.5f).value);
  world.ApplyTorque(fixed, 10.0f);
  for (int i = 0; i < 60; ++i) world.Step(1.0f / 60.0f);
  CHECK(world.GetPosition(floating) == Vec2(0, 0));
  // Implicit damping per sub-step: v = 10 / (1 + h)^240 with h = 1/240, close to 10 e^-1.
  CHECK(world.GetLinearVelocity(damped).x ==
        doctest::Approx(10.0 / std::pow(1.0 + 1.0 / 240.0, 240.0)).epsilon(1e-4));
  CHECK(world.GetAngularVelocity(fixed) == 0.0f);
  CHECK(world.GetAngle(fixed) == 0.0f);
}

TEST_CASE("an impulse at a point changes linear and angular velocity by J/m and r x J / I") {
  World world({.gravity = {0, 0}});
  BodyId box = world.CreateBody({.type = BodyType::Dynamic});
  world.CreateShape(box, {.density = 1.0f}, MakeBox(1.0f, 0.5f).value);  // m = 2, I = 2 (4 + 1) / 12
  world.ApplyLinearImpulse(box, {0, 4}, {1, 0});
  CHECK(test::Near(world.GetLinearVelocity(box), {0, 2}, 1e-6f));
  CHECK(world.GetAngularVelocity(box) == doctest::Approx(4.0f / (2.0f * 5.0f / 12.0f)));
}

TEST_CASE("same scene twice gives the same state hash") {
  auto run = [] {
    World world;
    test::AddGround(world);
    for (int row = 0; row < 8; ++row) {
      for (int i = 0; i < 8 - row; ++i) test::AddBox(world, {i - 4.0f + 0.5f * row, 0.5f + row});
    }
    for (int i = 0; i < 200; ++i) world.Step(1.0f / 60.0f);
    return world.StateHash();
  };
  CHECK(run() == run());
}

TEST_CASE("creating and destroying unrelated bodies first does not change the hash") {
  auto run = [](bool churn) {
    World world;
    if (churn) {
      BodyId extra[10];
      for (BodyId& b : extra) b = test::AddBox(world, {50, 50});
      for (BodyId b : extra) world.DestroyBody(b);
    }
    test::AddGround(world);
    for (int i = 0; i < 10; ++i) test::AddBox(world, {0.1f * i, 0.5f + 1.0f * i});
    for (int i = 0; i < 120; ++i) world.Step(1.0f / 60.0f);
    return world.StateHash();
  };
  CHECK(run(false) == run(true));
}

}  // TEST_SUITE("world.motion")
