// SPDX-License-Identifier: MIT
// Continuous collision in the world: fast projectiles fired at 10 cm walls never cross them (the
// answer is geometric: whether the projectile's centre crossed the wall's centre plane), and
// the same shots with continuous collision off do pass, so the tests can tell.
#include "minkowski/world.h"
#include "test_util.h"
#include "world/world_state.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <span>
#include <utility>
#include <vector>

using namespace mk;

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

struct ShotSetup {
  float radius = 0.025f;     // projectile (a circle), m
  float speed = 300.0f;      // m/s
  bool dynamicWall = false;  // a free 0.4 kg wall instead of a static one
  bool isBullet = false;     // the projectile's BodyDef::isBullet
  bool bulletLater = false;  // made a bullet by World::SetBullet after it was created (isBullet false)
  bool continuous = true;    // SolverSettings::enableContinuous
};

// Fires one projectile at a wall 10 cm thick and 4 m tall centred at the origin, from `distance`
// metres along -dir from the point (0, offset); returns true when its centre crossed the wall's centre
// plane within the wall's height (its motion relative to the wall from one step's end to the next,
// each in the wall's frame of its time: a projectile that slides off an end of the wall does not count).
bool Fire(const ShotSetup& setup, Vec2 dir, float offset, float distance) {
  WorldDef def{.gravity = {0.0f, 0.0f}};
  def.settings.enableContinuous = setup.continuous;
  World world(def);
  BodyId wall = world.CreateBody({.type = setup.dynamicWall ? BodyType::Dynamic : BodyType::Static});
  world.CreateShape(wall, {}, MakeBox(0.05f, 2.0f).value);
  BodyId shot = world.CreateBody({.type = BodyType::Dynamic,
                                  .position = Vec2{0.0f, offset} - distance * dir,
                                  .linearVelocity = setup.speed * dir,
                                  .isBullet = setup.isBullet});
  world.CreateShape(shot, {}, Circle{{0.0f, 0.0f}, setup.radius});
  if (setup.bulletLater) world.SetBullet(shot, true);
  const int steps = static_cast<int>(2.0f * distance / (setup.speed / 60.0f)) + 10;
  Vec2 a = InvTransformPoint(world.GetTransform(wall), world.GetPosition(shot));
  for (int i = 0; i < steps; ++i) {
    world.Step(1.0f / 60.0f);
    const Vec2 b = InvTransformPoint(world.GetTransform(wall), world.GetPosition(shot));
    if (a.x < 0.0f && b.x >= 0.0f) {
      const float y = a.y + (b.y - a.y) * (-a.x / (b.x - a.x));
      if (std::fabs(y) <= 2.0f) return true;
    }
    a = b;
  }
  return false;
}

// `shots` random shots (angle within 60 degrees of the wall's normal, aim within 1.5 m of its
// middle, start 1 to 6 m away); returns how many passed.
int CountPasses(const ShotSetup& setup, int shots, std::uint64_t seed) {
  test::Rng rng(seed);
  int passes = 0;
  for (int i = 0; i < shots; ++i) {
    const float angle = rng.Uniform(-kPi / 3.0f, kPi / 3.0f);
    const Vec2 dir{std::cos(angle), std::sin(angle)};
    passes += Fire(setup, dir, rng.Uniform(-1.5f, 1.5f), rng.Uniform(1.0f, 6.0f)) ? 1 : 0;
  }
  return passes;
}

}  // namespace

TEST_SUITE("world.continuous") {
TEST_CASE("a 5 cm bullet at 300 m/s never passes a 10 cm static wall in 1000 random shots") {
  ShotSetup setup;
  CHECK(CountPasses(setup, 1000, 7) == 0);
  setup.continuous = false;
  const int without = CountPasses(setup, 100, 7);
  MESSAGE("without continuous collision " << without << " of 100 pass");
  CHECK(without > 50);
}

TEST_CASE("a 5 cm bullet at 300 m/s never passes a 10 cm dynamic wall in 1000 random shots") {
  ShotSetup setup{.dynamicWall = true, .isBullet = true};
  CHECK(CountPasses(setup, 1000, 11) == 0);
  // A fast non-bullet is swept against static shapes only. Against a moving wall only the closing
  // pair's far speculative points can stop it (contacts.cpp, CollideApproaching: 54 of these 100
  // shots; 1 before them), not every time: the bullet flag still matters.
  setup.isBullet = false;
  const int without = CountPasses(setup, 100, 11);
  MESSAGE("not a bullet: " << without << " of 100 pass");
  CHECK(without > 10);
}

TEST_CASE("a body made a bullet after creation (SetBullet) never passes a 10 cm dynamic wall at 300 m/s") {
  // The same 1,000 shots as above: SetBullet must give what BodyDef::isBullet gives.
  ShotSetup setup{.dynamicWall = true, .bulletLater = true};
  CHECK(CountPasses(setup, 1000, 11) == 0);
}

TEST_CASE("SetBullet and IsBullet: the flag round-trips / stale ids assert and read false") {
  World world;
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic});
  CHECK_FALSE(world.IsBullet(body));
  world.SetBullet(body, true);
  CHECK(world.IsBullet(body));
  CHECK(world.State().bodies[body.index1 - 1].isBullet);
  world.SetBullet(body, false);
  CHECK_FALSE(world.IsBullet(body));
  world.DestroyBody(body);
  test::AssertCounter asserts;
  world.SetBullet(body, true);
  CHECK_FALSE(world.IsBullet(body));
  CHECK(asserts.Count() == 2);
}

TEST_CASE("a 0.25 m ball at 20 and 40 m/s never passes a 10 cm wall") {
  for (float speed : {20.0f, 40.0f}) {
    ShotSetup setup{.radius = 0.25f, .speed = speed};
    CHECK(CountPasses(setup, 200, 3) == 0);
    setup.continuous = false;
    MESSAGE(speed << " m/s without continuous collision: " << CountPasses(setup, 200, 3) << " of 200 pass");
  }
}

TEST_CASE("a 0.25 m ball falling at 40 m/s onto a 10 cm floor stops and sinks less than 1 cm") {
  for (float speed : {20.0f, 40.0f}) {
    World world;
    BodyId floor = world.CreateBody({.position = {0.0f, -0.05f}});
    world.CreateShape(floor, {}, MakeBox(5.0f, 0.05f).value);
    BodyId ball = world.CreateBody(
        {.type = BodyType::Dynamic, .position = {0.0f, 3.0f}, .linearVelocity = {0.0f, -speed}});
    world.CreateShape(ball, {}, Circle{{0.0f, 0.0f}, 0.25f});
    float deepest = 0.0f;  // sink below resting on the surface (m)
    for (int i = 0; i < 120; ++i) {
      world.Step(1.0f / 60.0f);
      deepest = std::max(deepest, 0.25f - world.GetPosition(ball).y);
    }
    CHECK(deepest < 0.01f);
    CHECK(std::fabs(world.GetLinearVelocity(ball).y) < 0.05f);  // it stopped
  }
}

TEST_CASE("large bodies spinning fast against the ground never leave a step above the speed caps") {
  // A body stopped at a touch two steps in a row gets an inelastic impulse at the touching point
  // (continuous.cpp, StopAtTouch). On a large box turning fast with its lever arm nearly along the
  // normal that impulse is mostly linear, up to w k / 2 for a radius of gyration k: before the cap,
  // 31 of 400 such throws left a step at up to 814 times maxLinearSpeed. Invariant: every step ends
  // within maxLinearSpeed and kMaxAngularSpeed (world_types.h).
  test::Rng rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    World world;
    SolverSettings settings = world.GetSolverSettings();
    settings.maxLinearSpeed = rng.Uniform(1.0f, 50.0f);
    REQUIRE(world.SetSolverSettings(settings));
    const BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
    world.CreateShape(ground, {}, MakeBox(500.0f, 1.0f).value);
    const float half = rng.Uniform(5.0f, 200.0f);
    BodyDef def;
    def.type = BodyType::Dynamic;
    def.position = {rng.Uniform(-50.0f, 50.0f), half * rng.Uniform(0.9f, 1.5f)};
    def.angle = rng.Uniform(0.0f, 3.0f);
    def.angularVelocity = rng.Uniform(-kMaxAngularSpeed, kMaxAngularSpeed);
    const BodyId body = world.CreateBody(def);
    const float offset = rng.Uniform(0.0f, 1.0f) < 0.5f ? 0.0f : half * rng.Uniform(0.0f, 3.0f);
    const float halfHeight = half * rng.Uniform(0.05f, 1.0f);
    world.CreateShape(body, {}, MakeOffsetBox(half, halfHeight, {offset, 0.0f}, 0.0f).value);
    for (int step = 0; step < 120; ++step) {
      world.Step(1.0f / 60.0f);
      INFO("trial " << trial << " step " << step << " half-width " << half << " m");
      REQUIRE(Length(world.GetLinearVelocity(body)) <= settings.maxLinearSpeed * (1.0f + 1e-5f));
      REQUIRE(std::fabs(world.GetAngularVelocity(body)) <= kMaxAngularSpeed);
    }
  }
}

TEST_CASE("slow bodies are not swept and the counters say so") {
  World world;
  BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(ground, {}, MakeBox(50.0f, 1.0f).value);
  BodyId box = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 0.5f}});
  world.CreateShape(box, {}, MakeBox(0.5f, 0.5f).value);
  for (int i = 0; i < 60; ++i) world.Step(1.0f / 60.0f);
  CHECK(world.GetCounters().fastBodies == 0);
  CHECK(world.GetCounters().toiHits == 0);
  // Sliding fast along the ground, already touching it: swept, but not stopped by the ground.
  world.SetLinearVelocity(box, {100.0f, 0.0f});
  world.Step(1.0f / 60.0f);
  CHECK(world.GetCounters().fastBodies == 1);
  CHECK(world.GetCounters().toiHits == 0);
  CHECK(world.GetPosition(box).x > 1.0f);
}

TEST_CASE("the continuous record of a bullet hitting a wall is the analytic sweep") {
  // A 0.1 m ball at 300 m/s along +x from the origin towards a static wall whose face is at x = 2.95:
  // the solver takes it 5 m in the step, to x = 5; the time of impact leaves its surface the target
  // separation (the linear slop, 5 mm) short of the face, within the tolerance (a quarter of that).
  World world(WorldDef{.gravity = {0.0f, 0.0f}});
  world.SetContinuousRecording(true);
  const BodyId wall = world.CreateBody({.position = {3.0f, 0.0f}});
  const ShapeId wallShape = world.CreateShape(wall, {}, MakeBox(0.05f, 1.0f).value);
  const BodyId ball =
      world.CreateBody({.type = BodyType::Dynamic, .linearVelocity = {300.0f, 0.0f}, .isBullet = true});
  const ShapeId ballShape = world.CreateShape(ball, {}, Circle{{0.0f, 0.0f}, 0.1f});
  world.Step(1.0f / 60.0f);
  const std::span<const ContinuousRecord> records = world.GetContinuousRecords();
  REQUIRE(records.size() == 1);
  const ContinuousRecord& r = records[0];
  CHECK(r.body == ball);
  CHECK(r.shape == ballShape);
  CHECK(r.target == wallShape);
  const float slop = world.GetSolverSettings().linearSlop;
  const float contactX = 2.95f - 0.1f - slop;  // analytic centre at the target separation
  CHECK(test::Near(r.start.p, {0.0f, 0.0f}, 1e-6f));
  CHECK(test::Near(r.end.p, {5.0f, 0.0f}, 1e-4f));
  CHECK(std::fabs(r.impact.p.x - contactX) <= 0.25f * slop + 1e-5f);
  CHECK(std::fabs(r.impact.p.y) < 1e-6f);
  CHECK(r.fraction == doctest::Approx(r.impact.p.x / 5.0f).epsilon(1e-5));
  CHECK(test::Near(r.targetImpact.p, {3.0f, 0.0f}, 1e-6f));
  CHECK(test::Near(world.GetPosition(ball), r.impact.p, 1e-6f));  // the step left it there
}

namespace {

// Keeps the segments drawn.
class SegmentRecorder final : public DebugDraw {
 public:
  std::vector<std::pair<Vec2, Vec2>> segments;
  void DrawPolygon(const Vec2*, int, Color) override {}
  void DrawSolidPolygon(const Transform&, const Vec2*, int, float, Color) override {}
  void DrawCircle(Vec2, float, Color) override {}
  void DrawSolidCircle(const Transform&, float, Color) override {}
  void DrawSolidCapsule(Vec2, Vec2, float, Color) override {}
  void DrawSegment(Vec2 p1, Vec2 p2, Color) override { segments.emplace_back(p1, p2); }
  void DrawTransform(const Transform&, float) override {}
  void DrawPoint(Vec2, float, Color) override {}
  void DrawString(Vec2, const char*, Color) override {}
};

}  // namespace

TEST_CASE("continuous records: drawn as the path / cleared every step / off by default / never regrown") {
  World world(WorldDef{.gravity = {0.0f, 0.0f}});
  const BodyId wall = world.CreateBody({.position = {3.0f, 0.0f}});
  world.CreateShape(wall, {}, MakeBox(0.05f, 1.0f).value);
  const BodyId ball = world.CreateBody({.type = BodyType::Dynamic, .linearVelocity = {300.0f, 0.0f}});
  world.CreateShape(ball, {}, Circle{{0.0f, 0.0f}, 0.1f});
  CHECK_FALSE(world.IsContinuousRecording());
  world.Step(1.0f / 60.0f);
  CHECK(world.GetCounters().toiHits == 1);
  CHECK(world.GetContinuousRecords().empty());  // not recording: nothing kept

  // Again from the start, recording: the path is drawn from the start centre to the TOI centre.
  world.SetTransform(ball, {0.0f, 0.0f}, 0.0f);
  world.SetLinearVelocity(ball, {300.0f, 0.0f});
  world.SetContinuousRecording(true);
  world.Step(1.0f / 60.0f);
  REQUIRE(world.GetContinuousRecords().size() == 1);
  const ContinuousRecord* data = world.GetContinuousRecords().data();
  const Vec2 impact = world.GetContinuousRecords()[0].impact.p;
  SegmentRecorder draw;
  world.Draw(draw, DrawOptions{.shapes = false, .continuous = true});
  int paths = 0;
  for (const auto& [a, b] : draw.segments)
    paths += test::Near(a, {0.0f, 0.0f}, 1e-6f) && test::Near(b, impact, 1e-6f);
  CHECK(paths == 1);
  SegmentRecorder hidden;
  world.Draw(hidden, DrawOptions{.shapes = false});
  CHECK(hidden.segments.empty());

  // The next step the speculative contact stops the ball: no continuous record, same memory.
  world.Step(1.0f / 60.0f);
  CHECK(world.GetContinuousRecords().empty());
  world.SetTransform(ball, {0.0f, 0.0f}, 0.0f);
  world.SetLinearVelocity(ball, {300.0f, 0.0f});
  world.Step(1.0f / 60.0f);
  REQUIRE(world.GetContinuousRecords().size() == 1);
  CHECK(world.GetContinuousRecords().data() == data);
  world.SetContinuousRecording(false);
  CHECK(world.GetContinuousRecords().empty());
}
}  // TEST_SUITE("world.continuous")
