// SPDX-License-Identifier: MIT
// World::Step on several workers (minkowski/task_system.h, issue 31): the same state after every step
// for any worker count and any scheduling.
//
// Oracle: the same scene stepped on the calling thread alone (the serial step, which the other tests
// check against physics). Every other run must give its state hash and its events after every step:
// on a TaskPool of 2, 3, 4 and 8 workers on a thread each (PoolThreads::AsAsked: more threads than
// this machine has cores), and on hostile task systems that run the ranges backwards, all inline, one
// range per new thread in reverse order, or with a worker index that changes every range.
#include "../core/hardware_threads_as.h"
#include "alloc_counter.h"
#include "core/measured_choice.h"
#include "core/parallel.h"
#include "core/simd_dispatch.h"
#include "hostile_scheduler.h"
#include "minkowski/task_system.h"
#include "scene_test_util.h"
#include "solver/solver.h"
#include "test_util.h"
#include "world/world_state.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace mk;
using scenes::SceneRun;
using test::HostileScheduler;
using test::Hostility;

namespace {

// `tasks` (null: none) with the sub-steps always on the workers: a measured choice could leave their
// stages to the calling thread (the same results), and these cases are what checks the stages on
// workers (ThreadSanitizer).
void SetWorkers(World& world, const TaskSystem* tasks) {
  if (tasks != nullptr) REQUIRE(world.SetTaskSystem(*tasks));
  REQUIRE(world.SetSubStepWorkers(WorkerUse::Workers));
}

std::vector<std::uint64_t> Digests(const scenes::SceneInfo& info, scenes::SceneParams params, int steps,
                                   const TaskSystem* tasks, SimdWidth width = SimdWidth::Automatic) {
  scenes::SceneInfo row = info;  // the scene's own WorldDef but for the SIMD width
  if (width != SimdWidth::Automatic) row.worldDef.simdWidth = width;
  SceneRun run(row, params);
  SetWorkers(run.GetWorld(), tasks);
  std::vector<std::uint64_t> digests;
  for (int i = 0; i < steps; ++i) {
    run.Step();
    digests.push_back(test::StepDigest(run.GetWorld()));
  }
  return digests;
}

// The first step whose digest differs, or -1.
int FirstMismatch(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (a[i] != b[i]) return static_cast<int>(i);
  return a.size() == b.size() ? -1 : static_cast<int>(std::min(a.size(), b.size()));
}

// Every scene, `steps` steps (0: its full length): each worker count gives the serial digests after
// every step. With `alternateWidths` the serial run takes 4 lanes and the runs on 2 and 4 workers take
// 8 (where the CPU and build have them; SimdLanes falls back to 4): one full-length pass then checks
// the worker counts and the two SIMD widths together, which two separate passes took 2.4 times as
// long to do (the shrunk cases of both suites tell a lane mismatch from a worker one).
void CheckEveryScene(int steps, bool small, bool alternateWidths = false) {
  TaskPool pool2(2, PoolThreads::AsAsked), pool3(3, PoolThreads::AsAsked), pool4(4, PoolThreads::AsAsked),
      pool8(8, PoolThreads::AsAsked);
  for (const scenes::SceneInfo& info : scenes::SceneTable()) {
    INFO("scene " << std::string(info.name));
    const scenes::SceneParams params = small ? test::SmallParams(info) : scenes::SceneParams{};
    const int n = steps > 0 ? std::min(steps, info.defaultSteps) : info.defaultSteps;
    const SimdWidth serialWidth = alternateWidths ? SimdWidth::Lanes4 : SimdWidth::Automatic;
    const std::vector<std::uint64_t> serial = Digests(info, params, n, nullptr, serialWidth);
    for (TaskPool* pool : {&pool2, &pool3, &pool4, &pool8}) {
      const bool eightLanes = alternateWidths && (pool->WorkerCount() == 2 || pool->WorkerCount() == 4);
      const SimdWidth width = eightLanes ? SimdWidth::Lanes8 : serialWidth;
      INFO("workers " << pool->WorkerCount() << " lanes " << SimdLanes(width));
      const TaskSystem tasks = pool->GetTaskSystem();
      CHECK(FirstMismatch(serial, Digests(info, params, n, &tasks, width)) == -1);
    }
  }
}

// `digestsOn(tasks)` gives `serial` on pools of 2, 3 and 8 workers and on each hostile task system.
template <class DigestsOn>
void CheckWorkersAndHostileSchedulers(const std::vector<std::uint64_t>& serial, DigestsOn&& digestsOn) {
  TaskPool pool2(2, PoolThreads::AsAsked), pool3(3, PoolThreads::AsAsked), pool8(8, PoolThreads::AsAsked);
  for (TaskPool* pool : {&pool2, &pool3, &pool8}) {
    INFO("workers " << pool->WorkerCount());
    const TaskSystem tasks = pool->GetTaskSystem();
    CHECK(FirstMismatch(serial, digestsOn(&tasks)) == -1);
  }
  for (Hostility mode : {Hostility::Reverse, Hostility::Inline, Hostility::ThreadPerRangeReversed,
                         Hostility::ShuffledWorkerIndex}) {
    INFO("mode " << static_cast<int>(mode));
    HostileScheduler scheduler(mode, 5);
    const TaskSystem tasks = scheduler.System();
    CHECK(FirstMismatch(serial, digestsOn(&tasks)) == -1);
    CHECK(scheduler.emptyOrBadEnqueues == 0);  // at least one item, minRange at least 1
  }
}

// A room of thin static walls with static sensor strips, 64 small bodies thrown across it at 30 to 60
// m/s (each moves further than half its size a step, so the continuous stage sweeps all of them, on
// the workers when there are 32 or more), 32 of them in jointed pairs (an impact takes the partner
// back: a partner later in the order is swept again in its turn) and two bullets (swept on the calling
// thread in their turn), and a kinematic sensor bar moving through it.
World FastCrowd() {
  World world(WorldDef{.gravity = {0.0f, -10.0f}});
  const BodyId room = world.CreateBody({});
  for (const auto& [at, half] : {std::pair<Vec2, Vec2>{{0.0f, -10.0f}, {10.0f, 0.05f}},
                                 {{0.0f, 10.0f}, {10.0f, 0.05f}},
                                 {{-10.0f, 0.0f}, {0.05f, 10.0f}},
                                 {{10.0f, 0.0f}, {0.05f, 10.0f}}}) {
    world.CreateShape(room, {.restitution = 0.5f}, MakeOffsetBox(half.x, half.y, at, 0.0f).value);
  }
  for (float x : {-5.0f, 0.0f, 5.0f})
    world.CreateShape(room, {.isSensor = true}, MakeOffsetBox(0.05f, 8.0f, {x, 0.0f}, 0.0f).value);
  const BodyId bar = world.CreateBody(
      {.type = BodyType::Kinematic, .position = {0.0f, -8.0f}, .linearVelocity = {0.0f, 4.0f}});
  world.CreateShape(bar, {.isSensor = true}, MakeBox(9.0f, 0.1f).value);
  test::Rng rng(3131);
  std::vector<BodyId> bodies;
  for (int i = 0; i < 64; ++i) {
    const BodyId body = world.CreateBody({.type = BodyType::Dynamic,
                                          .position = rng.InBox(8.0f),
                                          .angle = rng.Uniform(-3.0f, 3.0f),
                                          .linearVelocity = rng.Uniform(30.0f, 60.0f) * rng.Direction(),
                                          .angularVelocity = rng.Uniform(-20.0f, 20.0f),
                                          .isBullet = i >= 62});
    // A third report hits: the gather on the workers must pass each contact's wish on, in order.
    const ShapeDef def{.enableHitEvents = i % 3 == 0};
    if (i % 2 == 0) {
      world.CreateShape(body, def, MakeBox(0.1f, 0.15f).value);
    } else {
      world.CreateShape(body, def, Circle{{0.0f, 0.0f}, 0.12f});
    }
    bodies.push_back(body);
  }
  for (int i = 0; i < 32; i += 2)
    world.CreateJoint(RevoluteJointDef{
        {.bodyA = bodies[static_cast<std::size_t>(i)], .bodyB = bodies[static_cast<std::size_t>(i + 1)]}});
  return world;
}

// FastCrowd's digest after every step (hit events included), the most fast bodies any step swept and
// the hit events of all steps.
std::vector<std::uint64_t> FastCrowdDigests(const TaskSystem* tasks, int steps, int* mostFast = nullptr,
                                            std::size_t* hits = nullptr) {
  World world = FastCrowd();
  SetWorkers(world, tasks);
  std::vector<std::uint64_t> digests;
  for (int i = 0; i < steps; ++i) {
    world.Step(1.0f / 60.0f);
    digests.push_back(test::StepDigest(world));
    if (mostFast != nullptr) *mostFast = std::max(*mostFast, world.GetCounters().fastBodies);
    if (hits != nullptr) *hits += world.GetContactHitEvents().size();
  }
  return digests;
}

// 48 boxes on a static floor, each pushed every step in turn: into the floor at 30 m/s (faster than
// the contact answers in one step, so the continuous stage stops the box where it touches and sets its
// hold flag, Body::heldAtStart), along it at 30 m/s (swept, nothing hit) or left to the solver. So the
// parallel pass's outcomes set the flag on bodies that did not have it and clear it on bodies that
// did, the latter an outcome that changes a body although its sweep hit nothing. After each step, the
// digest and the boxes' flags (state a snapshot keeps, which the digest leaves out); `held` counts
// the flags set over the run.
std::vector<std::uint64_t> PressedCrowdDigests(const TaskSystem* tasks, int steps, int* held = nullptr,
                                               int* mostFast = nullptr) {
  World world(WorldDef{.gravity = {0.0f, -10.0f}});
  const BodyId floor = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(floor, {}, MakeBox(100.0f, 1.0f).value);
  std::vector<BodyId> boxes;
  for (int i = 0; i < 48; ++i) {
    boxes.push_back(world.CreateBody(
        {.type = BodyType::Dynamic, .position = {-70.0f + 3.0f * static_cast<float>(i), 0.25f}}));
    world.CreateShape(boxes.back(), {}, MakeBox(0.25f, 0.25f).value);
  }
  SetWorkers(world, tasks);
  std::vector<std::uint64_t> digests;
  for (int step = 0; step < steps; ++step) {
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      const int turn = (step + static_cast<int>(i)) % (i % 2 == 0 ? 2 : 3);
      if (turn == 0) world.SetLinearVelocity(boxes[i], {1.0f, -30.0f});
      if (turn == 1) world.SetLinearVelocity(boxes[i], {30.0f, 0.0f});
    }
    world.Step(1.0f / 60.0f);
    digests.push_back(test::StepDigest(world));
    if (mostFast != nullptr) *mostFast = std::max(*mostFast, world.GetCounters().fastBodies);
    std::uint64_t heldBits = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      const bool flag = world.State().bodies[boxes[i].index1 - 1].heldAtStart;
      heldBits |= std::uint64_t{flag} << i;
      if (held != nullptr) *held += flag ? 1 : 0;
    }
    digests.push_back(heldBits);
  }
  return digests;
}

// A chain of 1,400 hanging bodies with every case of the joint gather: hinges between moving bodies,
// hinges to the static ground, the slots of destroyed joints, filter joints (no rows), a mouse joint, a
// disabled body's joints, and a jointed island put to sleep (neither body moves). Over 1,024 joint
// slots, so a step on workers gathers the joints in blocks (solve.cpp, GatherJointsOnWorkers).
struct GatherJoint {
  JointId id;
  BodyId a, b;  // a null for the mouse joint
  bool filter = false;
};
World JointGatherCases(std::vector<GatherJoint>* made = nullptr) {
  World world(WorldDef{.gravity = {0.0f, -10.0f}});
  std::vector<GatherJoint> joints;
  const BodyId ground = world.CreateBody({});
  std::vector<BodyId> bodies;
  for (int i = 0; i < 1400; ++i) {
    const Vec2 at{static_cast<float>(i % 70), -static_cast<float>(i / 70)};
    const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = at});
    world.CreateShape(body, {}, Circle{{0.0f, 0.0f}, 0.2f});
    bodies.push_back(body);
  }
  for (int i = 0; i < 1400; ++i) {
    const BodyId body = bodies[static_cast<std::size_t>(i)];
    const BodyId above = i < 70 ? ground : bodies[static_cast<std::size_t>(i - 70)];
    const Vec2 anchorA = i < 70 ? Vec2{static_cast<float>(i), 0.5f} : Vec2{0.0f, -0.5f};
    // The last ten columns hang from nothing: ten free chains, the last of them put to sleep below.
    if (i % 70 < 60 || i >= 70) {
      const JointId id = world.CreateJoint(RevoluteJointDef{
          {.bodyA = above, .bodyB = body, .localAnchorA = anchorA, .localAnchorB = {0.0f, 0.5f}}});
      joints.push_back({id, above, body});
    }
    if (i % 97 == 5)
      joints.push_back(
          {world.CreateJoint(FilterJointDef{{.bodyA = body, .bodyB = ground}}), body, ground, true});
  }
  for (std::size_t k = 0; k < joints.size(); k += 13) {  // slots of destroyed joints among the live
    REQUIRE(world.DestroyJoint(joints[k].id));
    joints[k].id = JointId{};
  }
  joints.push_back({world.CreateJoint(MouseJointDef{.body = bodies[700], .target = {3.0f, -8.0f}}), BodyId{},
                    bodies[700]});
  world.SetEnabled(bodies[1305], false);
  world.SetAwake(bodies[1369], false);  // column 69's chain
  REQUIRE(!world.IsAwake(bodies[1369]));
  if (made != nullptr) *made = joints;
  return world;
}

// Each step's gathered joints (the joint's slot, both sides' bits) and state digest.
std::vector<std::uint64_t> JointGatherDigests(const TaskSystem* tasks, int steps) {
  World world = JointGatherCases();
  SetWorkers(world, tasks);
  std::vector<std::uint64_t> digests;
  for (int i = 0; i < steps; ++i) {
    world.Step(1.0f / 60.0f);
    const WorldState& state = world.State();
    std::uint64_t h = test::StepDigest(world);
    const auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
    for (const JointInput& input : state.jointInputs) {
      mix(static_cast<std::uint64_t>(input.joint - static_cast<const JointData*>(state.joints.data())));
      for (const JointBody* side : {&input.bodyA, &input.bodyB}) {
        for (float v :
             {side->q.c, side->q.s, side->center.x, side->center.y, side->localCenter.x, side->localCenter.y})
          mix(std::bit_cast<std::uint32_t>(v));
        mix(static_cast<std::uint32_t>(side->index));
      }
    }
    digests.push_back(h);
  }
  return digests;
}

}  // namespace

// Scenes big enough that a colour's groups span several blocks on every worker count (a block is
// at least 4 groups, about 4 blocks per worker), at a size ThreadSanitizer steps in seconds.
struct MediumScene {
  const char* name;
  scenes::SceneParams params;
};
constexpr MediumScene kMediumScenes[] = {{"large_pyramid", {.size = 40}},
                                         {"many_pyramids", {.size = 10, .count = 3}},
                                         {"joint_grid", {.size = 30}},
                                         {"tumbler", {.count = 20}},
                                         {"rain", {.count = 6}},
                                         {"sensor_coins", {}},
                                         {"ragdolls", {}}};

// Steps of each medium scene. Under ThreadSanitizer 30: the case was that pass's critical path (148 s
// at 60 steps, while its 17 other cases took 130 s of CPU on the other core), and 30 steps still hand
// every stage to every worker count and hostile scheduler many times; the Release run keeps 60.
#ifdef MK_THREAD_SANITIZER_RUN
constexpr int kMediumSteps = 30;
#else
constexpr int kMediumSteps = 60;
#endif

// The light cases, which the ThreadSanitizer pass runs (label `threads`).
TEST_SUITE("threads") {
TEST_CASE("every scene shrunk: the same states and events on 2 to 8 workers for 30 steps") {
  CheckEveryScene(30, /*small=*/true);
}

TEST_CASE("medium scenes: the same states and events on 2 to 8 workers and on hostile task systems") {
  // Every worker in the solver's stage loop, whatever this machine's thread count: 8 at once here.
  const test::HardwareThreadsAs manyThreads(kMaxWorkers);
  TaskPool pool2(2, PoolThreads::AsAsked), pool3(3, PoolThreads::AsAsked), pool8(8, PoolThreads::AsAsked);
  for (const MediumScene& scene : kMediumScenes) {
    const scenes::SceneInfo& info = *scenes::FindScene(scene.name);
    INFO("scene " << std::string(scene.name));
    const std::vector<std::uint64_t> serial = Digests(info, scene.params, kMediumSteps, nullptr);
    for (TaskPool* pool : {&pool2, &pool3, &pool8}) {
      INFO("workers " << pool->WorkerCount());
      const TaskSystem tasks = pool->GetTaskSystem();
      CHECK(FirstMismatch(serial, Digests(info, scene.params, kMediumSteps, &tasks)) == -1);
    }
    for (Hostility mode : {Hostility::Reverse, Hostility::Inline, Hostility::ThreadPerRangeReversed,
                           Hostility::ShuffledWorkerIndex}) {
      INFO("mode " << static_cast<int>(mode));
      HostileScheduler scheduler(mode, 5);
      const TaskSystem tasks = scheduler.System();
      CHECK(FirstMismatch(serial, Digests(info, scene.params, kMediumSteps, &tasks)) == -1);
      CHECK(scheduler.tasksRun > 0);             // the step did hand its work to the scheduler
      CHECK(scheduler.emptyOrBadEnqueues == 0);  // at least one item, minRange at least 1
    }
  }
}

TEST_CASE(
    "continuous collision on workers: a crowd of fast bodies gives the serial states and events with hits") {
  int mostFast = 0;
  std::size_t hits = 0;
  const std::vector<std::uint64_t> serial = FastCrowdDigests(nullptr, 45, &mostFast, &hits);
  CHECK(mostFast >= 40);  // the parallel pass runs (from 32 fast non-bullets)
  CHECK(hits >= 20);      // and the digests hold hit events
  CheckWorkersAndHostileSchedulers(serial,
                                   [](const TaskSystem* tasks) { return FastCrowdDigests(tasks, 45); });
}

TEST_CASE(
    "continuous collision on workers: bodies pressed into the floor are held and released as serially") {
  int held = 0, mostFast = 0;
  const std::vector<std::uint64_t> serial = PressedCrowdDigests(nullptr, 30, &held, &mostFast);
  CHECK(mostFast >= 32);  // the parallel pass runs
  CHECK(held >= 40);      // and sets hold flags (80 in this run)
  CheckWorkersAndHostileSchedulers(serial,
                                   [](const TaskSystem* tasks) { return PressedCrowdDigests(tasks, 30); });
}

TEST_CASE("joints gathered on workers: the serial list in slot order with every kind of joint and body") {
  {  // the serial list itself against the public API's view of each joint made
    std::vector<GatherJoint> made;
    World world = JointGatherCases(&made);
    const auto moves = [&world](BodyId body) {
      return !body.IsNull() && world.GetBodyType(body) == BodyType::Dynamic && world.IsAwake(body) &&
             world.IsEnabled(body);
    };
    const auto enabled = [&world](BodyId body) { return body.IsNull() || world.IsEnabled(body); };
    std::size_t expected = 0, destroyed = 0, filters = 0, asleep = 0;
    for (const GatherJoint& joint : made) {
      destroyed += joint.id.IsNull() ? 1 : 0;
      filters += joint.filter && !joint.id.IsNull() ? 1 : 0;
      if (joint.id.IsNull() || joint.filter) continue;
      asleep += !joint.a.IsNull() && !world.IsAwake(joint.a) && !world.IsAwake(joint.b) ? 1 : 0;
      expected += (moves(joint.a) || moves(joint.b)) && enabled(joint.a) && enabled(joint.b) ? 1 : 0;
    }
    CHECK(destroyed > 100);
    CHECK(filters > 10);
    CHECK(asleep >= 5);
    world.Step(1.0f / 60.0f);
    const WorldState& state = world.State();
    REQUIRE(state.jointIds.Capacity() > 1024);  // more than one block of slots: the workers split it
    CHECK(state.jointInputs.size() == expected);
    const JointData* previous = nullptr;
    for (const JointInput& input : state.jointInputs) {
      CHECK(input.joint > previous);
      previous = input.joint;
      CHECK((input.bodyA.index >= 0 || input.bodyB.index >= 0));
    }
  }
  const std::vector<std::uint64_t> serial = JointGatherDigests(nullptr, 20);
  CheckWorkersAndHostileSchedulers(serial,
                                   [](const TaskSystem* tasks) { return JointGatherDigests(tasks, 20); });
}

// Boxes on a plank (a body with more contacts than colours: its contacts overflow), bouncing balls
// (restitution), and a speed cap low enough that the falling bodies reach it (their impulses dropped).
// hitEvents: every shape asks for hit events.
World ImpulseStoreCases(BodyId& sled, bool hitEvents) {
  ShapeDef plain;
  plain.enableHitEvents = hitEvents;
  const auto withRestitution = [&plain](float restitution) {
    ShapeDef def = plain;
    def.restitution = restitution;
    return def;
  };
  SolverSettings settings;
  settings.maxLinearSpeed = 6.0f;
  World world(WorldDef{.gravity = {0.0f, -10.0f}, .settings = settings});
  const BodyId ground = world.CreateBody({});
  world.CreateShape(ground, plain, MakeOffsetBox(30.0f, 0.5f, {0.0f, -0.5f}, 0.0f).value);
  const BodyId plank = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 0.3f}});
  world.CreateShape(plank, plain, MakeBox(16.0f, 0.3f).value);
  for (int i = 0; i < 40; ++i) {
    const BodyId box =
        world.CreateBody({.type = BodyType::Dynamic,
                          .position = {-15.6f + 0.8f * static_cast<float>(i), 0.95f + 0.01f * (i % 3)}});
    world.CreateShape(box, plain, MakeBox(0.35f, 0.35f).value);
  }
  for (int i = 0; i < 12; ++i) {
    const BodyId ball =
        world.CreateBody({.type = BodyType::Dynamic,
                          .position = {-22.0f + 0.9f * static_cast<float>(i % 4), 2.0f + 1.5f * (i / 4)}});
    world.CreateShape(ball, withRestitution(0.8f), Circle{{0.0f, 0.0f}, 0.3f});
  }
  // A box on the ground under a ball that bounces ten times its approach: the restitution pass throws
  // the box past the cap after the sub-steps, so its ground contact's impulses are dropped after the
  // lanes were stored.
  const BodyId anvil = world.CreateBody({.type = BodyType::Dynamic, .position = {24.0f, 0.35f}});
  world.CreateShape(anvil, plain, MakeBox(0.35f, 0.35f).value);
  const BodyId hammer = world.CreateBody({.type = BodyType::Dynamic, .position = {24.0f, 3.0f}});
  world.CreateShape(hammer, withRestitution(10.0f), Circle{{0.0f, 0.0f}, 0.3f});
  // Pushed along the ground past the cap every step (the test below): capped with contacts.
  sled = world.CreateBody({.type = BodyType::Dynamic, .position = {18.0f, 0.35f}});
  world.CreateShape(sled, plain, MakeBox(0.35f, 0.35f).value);
  return world;
}

TEST_CASE("after every step each contact's manifold holds its constraint's final impulses") {
  // Invariant: the next step warm-starts from the manifolds, so they must hold what the solver ended
  // with, after restitution and the speed cap, whichever way the impulses were stored (the coloured
  // contacts' from their lanes during the sub-steps, the others afterwards). The constraints keep
  // them only where a later pass reads them (restitution, hit events). So a witness world whose
  // shapes all ask for hit events keeps every constraint's: there each manifold must equal its
  // constraint, and in the world without hit events each manifold must equal the witness's, bit for
  // bit (hit events change no impulse).
  TaskPool pool2(2, PoolThreads::AsAsked);
  const TaskSystem tasks = pool2.GetTaskSystem();
  const auto bits = [](float value) { return std::bit_cast<std::uint32_t>(value); };
  for (const TaskSystem* system : {static_cast<const TaskSystem*>(nullptr), &tasks}) {
    INFO("workers " << (system == nullptr ? 1 : 2));
    BodyId sled, witnessSled;
    World world = ImpulseStoreCases(sled, false);
    World witness = ImpulseStoreCases(witnessSled, true);
    if (system != nullptr) REQUIRE(world.SetTaskSystem(*system));
    if (system != nullptr) REQUIRE(witness.SetTaskSystem(*system));
    std::size_t compared = 0, overflowed = 0, withRestitution = 0, bounced = 0, nonZero = 0, capped = 0;
    for (int step = 0; step < 90; ++step) {
      const Vec2 push{step % 20 < 10 ? 2000.0f : -2000.0f, 0.0f};
      world.ApplyForceToCenter(sled, push);
      witness.ApplyForceToCenter(witnessSled, push);
      world.Step(1.0f / 60.0f);
      witness.Step(1.0f / 60.0f);
      capped += std::fabs(world.GetLinearVelocity(sled).x) >= 5.9f ? 1 : 0;
      const WorldState& state = world.State();
      const WorldState& witnessState = witness.State();
      const SolverArrays& solver = witnessState.solver;
      REQUIRE(solver.contacts.size() == witnessState.contactInputs.size());
      REQUIRE(state.contactInputs.size() == witnessState.contactInputs.size());
      overflowed += WithGraphs(solver, [](auto& graph, auto&) { return graph.overflow.size(); });
      for (std::size_t i = 0; i < solver.contacts.size(); ++i) {
        const ContactConstraint& c = solver.contacts[i];
        const Manifold& witnessManifold = *witnessState.contactInputs[i].manifold;
        const Manifold& manifold = *state.contactInputs[i].manifold;
        // Bouncy (restitution may push it): restitution, and a point approaching at the threshold or
        // faster. The witness's constraints hold what PrepareContacts computed.
        bool approaching = false;
        for (int j = 0; j < c.pointCount; ++j)
          approaching = approaching || c.points[j].relativeVelocity <= -SolverSettings{}.restitutionThreshold;
        CHECK(solver.contactKeys[i].bouncy == (c.restitution != 0.0f && approaching));
        withRestitution += c.restitution != 0.0f ? 1 : 0;
        bounced += solver.contactKeys[i].bouncy ? 1 : 0;
        REQUIRE(manifold.pointCount == c.pointCount);
        for (int j = 0; j < c.pointCount; ++j) {
          CHECK(bits(witnessManifold.points[j].normalImpulse) == bits(c.points[j].normalImpulse));
          CHECK(bits(witnessManifold.points[j].tangentImpulse) == bits(c.points[j].tangentImpulse));
          CHECK(bits(manifold.points[j].normalImpulse) == bits(c.points[j].normalImpulse));
          CHECK(bits(manifold.points[j].tangentImpulse) == bits(c.points[j].tangentImpulse));
          nonZero += c.points[j].normalImpulse != 0.0f ? 1 : 0;
          ++compared;
        }
      }
    }
    CHECK(compared > 2000);
    CHECK(nonZero * 2 > compared);     // the contacts carry load
    CHECK(overflowed > 100);           // the plank's contacts beyond the colours
    CHECK(withRestitution > 50);       // the balls' contacts
    CHECK(bounced > 20);               // their landings
    CHECK(bounced < withRestitution);  // not those slower than the threshold
    CHECK(capped > 30);                // the sled at the cap, on the ground
  }
}

TEST_CASE(
    "runs of one-block solver stages are handed over with the stage before them: tumbler's drum colours") {
  // Invariant of FuseOneBlockRuns (solver_stages.h): every maximal run of consecutive one-block stages
  // is marked on its first stage with its length, and every other stage has runLength 1. The drum
  // takes a colour for each of its contacts, so a pass holds a long run of one-group colours.
  TaskPool pool(2, PoolThreads::AsAsked);
  SceneRun run(*scenes::FindScene("tumbler"), {.count = 20});
  REQUIRE(run.GetWorld().SetTaskSystem(pool.GetTaskSystem()));
  test::StepScene(run, 60);
  const std::span<const SolverStage> stages = run.GetWorld().State().solver.stages.Stages();
  REQUIRE(!stages.empty());
  int handOvers = 0, longestRun = 0;
  for (std::size_t i = 0; i < stages.size();) {
    const SolverStage& first = stages[i];
    INFO("stage " << i);
    int oneBlockRun = 0;  // how many one-block stages follow from here, counted independently
    while (i + static_cast<std::size_t>(oneBlockRun) < stages.size() &&
           stages[i + static_cast<std::size_t>(oneBlockRun)].blockCount == 1)
      ++oneBlockRun;
    CHECK(first.runLength == std::max(oneBlockRun, 1));
    for (int k = 1; k < first.runLength; ++k) CHECK(stages[i + static_cast<std::size_t>(k)].runLength == 1);
    longestRun = std::max(longestRun, first.runLength);
    ++handOvers;
    i += static_cast<std::size_t>(std::max(first.runLength, 1));
  }
  CHECK(longestRun >= 10);                                 // the drum's one-contact colours
  CHECK(handOvers * 2 < static_cast<int>(stages.size()));  // fewer than half the stages
  // A run that follows a stage of several blocks goes with that stage's hand-over
  // (RunOneBlockRunAfter): the workers are moved on once per stage of several blocks, and once more
  // only for a run the list begins with.
  int multiBlock = 0, runsAfterMultiBlock = 0;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    multiBlock += stages[i].blockCount > 1 ? 1 : 0;
    runsAfterMultiBlock += i > 0 && stages[i].blockCount == 1 && stages[i - 1].blockCount > 1 ? 1 : 0;
  }
  CHECK(runsAfterMultiBlock >= 10);  // AfterPositions every sub-step, the drum's colours every pass
  const int expected = multiBlock + (stages[0].blockCount == 1 ? 1 : 0);
  CHECK(run.GetWorld().State().solver.stages.HandOvers() == expected);
  CHECK(expected == handOvers - runsAfterMultiBlock);
}

// A task system that passes every task on to `inner` and keeps each enqueue's item count.
struct EnqueueRecorder {
  TaskSystem inner;
  std::vector<int> itemCounts;

  TaskSystem System() {
    return {.workerCount = inner.workerCount,
            .enqueueTask = &Enqueue,
            .finishTask = &Finish,
            .userContext = this};
  }
  static void* Enqueue(TaskFn task, int itemCount, int minRange, void* taskContext, void* user) {
    auto* self = static_cast<EnqueueRecorder*>(user);
    self->itemCounts.push_back(itemCount);
    return self->inner.enqueueTask(task, itemCount, minRange, taskContext, self->inner.userContext);
  }
  static void Finish(void* task, void* user) {
    auto* self = static_cast<EnqueueRecorder*>(user);
    self->inner.finishTask(task, self->inner.userContext);
  }
};

// The blocks of each stage of the last step's solver stage loop, in order.
std::vector<int> StageBlocks(const SceneRun& run) {
  std::vector<int> blocks;
  for (const SolverStage& stage : run.GetWorld().State().solver.stages.Stages())
    blocks.push_back(stage.blockCount);
  return blocks;
}

TEST_CASE(
    "the solver's stage loop holds at most the machine's hardware threads and steps the serial states") {
  // On a machine of two hardware threads, a task system of 8 workers runs the stage loop as 2 workers
  // would: its stages are cut as for 2 (about four blocks a worker) and the loop asks the task system
  // for one helper. With 8 threads, the cut is 8 workers'. The states are the serial step's either way.
  const MediumScene& scene = kMediumScenes[0];  // large_pyramid of 40 rows: colours of many groups
  const scenes::SceneInfo& info = *scenes::FindScene(scene.name);
  constexpr int kSteps = 20;
  const std::vector<std::uint64_t> serial = Digests(info, scene.params, kSteps, nullptr);
  // Each enqueue's item count, the enqueues passed on to a pool of 8. The two runs of 8 workers below
  // step the same states, so they enqueue the same parallel-fors but for the stage loop's helpers.
  TaskPool pool8(8, PoolThreads::AsAsked);
  EnqueueRecorder recorder{pool8.GetTaskSystem(), {}};
  const TaskSystem recording = recorder.System();
  const auto stepped = [&](int hardwareThreads, const TaskSystem& tasks, std::vector<int>& blocks) {
    const test::HardwareThreadsAs machine(hardwareThreads);
    SceneRun sceneRun(info, scene.params);
    SetWorkers(sceneRun.GetWorld(), &tasks);
    std::vector<std::uint64_t> digests;
    for (int i = 0; i < kSteps; ++i) {
      sceneRun.Step();
      digests.push_back(test::StepDigest(sceneRun.GetWorld()));
    }
    blocks = StageBlocks(sceneRun);
    return digests;
  };
  const auto enqueuesOf = [&recorder](int items) {
    return std::count(recorder.itemCounts.begin(), recorder.itemCounts.end(), items);
  };
  TaskPool pool2(2, PoolThreads::AsAsked);
  std::vector<int> twoWorkers, eightOnTwoThreads, eightOnEightThreads;
  CHECK(FirstMismatch(serial, stepped(2, pool2.GetTaskSystem(), twoWorkers)) == -1);
  CHECK(FirstMismatch(serial, stepped(2, recording, eightOnTwoThreads)) == -1);
  CHECK(eightOnTwoThreads == twoWorkers);
  const auto onTwoThreads = std::pair(enqueuesOf(1), enqueuesOf(7));
  recorder.itemCounts.clear();
  CHECK(FirstMismatch(serial, stepped(8, recording, eightOnEightThreads)) == -1);
  // One helper a step on two threads, seven on eight.
  CHECK(onTwoThreads.first - enqueuesOf(1) == kSteps);
  CHECK(enqueuesOf(7) - onTwoThreads.second == kSteps);
  REQUIRE(eightOnEightThreads.size() == twoWorkers.size());  // the same stages, cut finer
  CHECK(eightOnEightThreads != twoWorkers);
  for (std::size_t i = 0; i < twoWorkers.size(); ++i) CHECK(eightOnEightThreads[i] >= twoWorkers[i]);
  // One thread: the calling thread runs the stages alone and the loop asks for no helper.
  recorder.itemCounts.clear();
  std::vector<int> eightOnOneThread;
  CHECK(FirstMismatch(serial, stepped(1, recording, eightOnOneThread)) == -1);
  CHECK(onTwoThreads.first - enqueuesOf(1) == kSteps);
  CHECK(enqueuesOf(7) == onTwoThreads.second);
  CHECK(enqueuesOf(0) == 0);  // nor an empty one
}

// A game's TaskPool of more workers than the machine has threads: the pool runs them on two threads
// (PoolThreads::AtMostHardware), the world still declares eight. The states are the serial step's.
TEST_CASE("a default pool of 8 workers on a machine of two threads steps the serial states") {
  const test::HardwareThreadsAs machine(2);
  TaskPool pool8(8);
  REQUIRE(pool8.ThreadCount() == 2);
  const TaskSystem tasks = pool8.GetTaskSystem();
  for (const MediumScene& scene : {kMediumScenes[0], kMediumScenes[2]}) {
    INFO("scene " << scene.name);
    const scenes::SceneInfo& info = *scenes::FindScene(scene.name);
    constexpr int kSteps = 30;
    const std::vector<std::uint64_t> serial = Digests(info, scene.params, kSteps, nullptr);
    const std::uint64_t rangesBefore = pool8.RangesRun();
    CHECK(FirstMismatch(serial, Digests(info, scene.params, kSteps, &tasks)) == -1);
    CHECK(pool8.RangesRun() > rangesBefore);  // the pool ran the parallel stages
  }
}

// The joints' reaction forces and torques after every step, bit for bit (they are not in the state
// hash: only getters read them; the store that writes them runs on the workers).
std::vector<std::uint32_t> JointReactions(const scenes::SceneInfo& info, scenes::SceneParams params,
                                          int steps, const TaskSystem* tasks) {
  SceneRun run(info, params);
  SetWorkers(run.GetWorld(), tasks);
  std::vector<std::uint32_t> bits;
  auto put = [&bits](float value) { bits.push_back(std::bit_cast<std::uint32_t>(value)); };
  for (int i = 0; i < steps; ++i) {
    run.Step();
    for (JointId joint : run.State().joints) {
      const Vec2 force = run.GetWorld().GetJointReactionForce(joint);
      put(force.x), put(force.y), put(run.GetWorld().GetJointReactionTorque(joint));
    }
  }
  return bits;
}

TEST_CASE("joint reactions: the same forces and torques on 2 3 and 8 workers as on one") {
  TaskPool pool2(2, PoolThreads::AsAsked), pool3(3, PoolThreads::AsAsked), pool8(8, PoolThreads::AsAsked);
  for (const MediumScene& scene : {MediumScene{"joint_grid", {.size = 30}}, MediumScene{"ragdolls", {}}}) {
    const scenes::SceneInfo& info = *scenes::FindScene(scene.name);
    INFO("scene " << std::string(scene.name));
    const std::vector<std::uint32_t> serial = JointReactions(info, scene.params, 30, nullptr);
    REQUIRE(serial.size() > 1000);  // hinges in lanes and scalar joints, several ranges of the store
    std::size_t nonZero = 0;
    for (std::uint32_t b : serial) nonZero += (b << 1) != 0 ? 1 : 0;
    CHECK(nonZero * 2 > serial.size());  // the joints do carry load
    for (TaskPool* pool : {&pool2, &pool3, &pool8}) {
      INFO("workers " << pool->WorkerCount());
      const TaskSystem tasks = pool->GetTaskSystem();
      CHECK(JointReactions(info, scene.params, 30, &tasks) == serial);
    }
  }
}

// Each step's digest with the sub-steps where `useAt(step)` says, and each step's
// Profile::subStepWorkers.
template <class UseAt>
std::vector<std::uint64_t> DigestsWithSubSteps(const MediumScene& scene, int steps, const TaskSystem& tasks,
                                               UseAt&& useAt, std::vector<int>& subStepWorkers) {
  SceneRun run(*scenes::FindScene(scene.name), scene.params);
  REQUIRE(run.GetWorld().SetTaskSystem(tasks));
  std::vector<std::uint64_t> digests;
  for (int i = 0; i < steps; ++i) {
    REQUIRE(run.GetWorld().SetSubStepWorkers(useAt(i)));
    run.Step();
    digests.push_back(test::StepDigest(run.GetWorld()));
    subStepWorkers.push_back(run.GetWorld().GetProfile().subStepWorkers);
  }
  return digests;
}

namespace {

// Bodies that rest for a quarter of a second sleep, on a static floor whose top is at y = 0.
void MakeQuickSleepFloor(World& world) {
  SolverSettings settings = world.GetSolverSettings();
  settings.timeToSleep = 0.25f;
  REQUIRE(world.SetSolverSettings(settings));
  const BodyId floor = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(floor, {}, MakeBox(100.0f, 1.0f).value);
}

// A world whose island pass makes its union-find beside the continuous stage (LinkIslandsAhead) on
// workers once a body has rested long enough: two piles of three boxes on one beam locked on every
// axis (an immovable body, which links no island), the right pile's top pushed every step so that it
// never rests, and a small ball flying fast high above, so that the continuous stage has a body to
// move every step. After each step: the digest, and the boxes' awake flags in `awake` (bit i: box i).
// `ahead` counts the island passes that used links made ahead (WorldState::islandPassesLinkedAhead).
std::vector<std::uint64_t> RestingIslandsDigests(const TaskSystem* tasks, int steps,
                                                 std::vector<std::uint64_t>& awake, int& ahead) {
  World world(WorldDef{.gravity = {0.0f, -10.0f}});
  MakeQuickSleepFloor(world);
  const BodyId beam = world.CreateBody(
      {.type = BodyType::Dynamic, .position = {0.0f, 2.0f}, .motionLocks = {true, true, true}});
  world.CreateShape(beam, {}, MakeBox(6.0f, 0.25f).value);
  std::vector<BodyId> boxes;
  for (int pile = 0; pile < 2; ++pile) {
    for (int row = 0; row < 3; ++row) {
      const Vec2 position{pile == 0 ? -4.0f : 4.0f, 2.5f + 0.5f * static_cast<float>(row)};
      boxes.push_back(world.CreateBody({.type = BodyType::Dynamic, .position = position}));
      world.CreateShape(boxes.back(), {}, MakeBox(0.25f, 0.25f).value);
    }
  }
  const BodyId ball = world.CreateBody({.type = BodyType::Dynamic,
                                        .position = {-200.0f, 60.0f},
                                        .linearVelocity = {90.0f, 0.0f},
                                        .gravityScale = 0.0f});
  world.CreateShape(ball, {}, Circle{{0.0f, 0.0f}, 0.1f});
  SetWorkers(world, tasks);
  std::vector<std::uint64_t> digests;
  for (int step = 0; step < steps; ++step) {
    world.SetLinearVelocity(boxes[5], {step % 2 == 0 ? 0.5f : -0.5f, 0.0f});
    world.Step(1.0f / 60.0f);
    digests.push_back(test::StepDigest(world));
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i) bits |= std::uint64_t{world.IsAwake(boxes[i])} << i;
    awake.push_back(bits);
  }
  ahead = world.State().islandPassesLinkedAhead;
  return digests;
}

// Three piles of three boxes on a floor fall asleep; then the middle box of the first two stops
// colliding with anything (World::SetFilter, which wakes nothing): at the next Step its pairs end while
// their contacts touch, and destroying them wakes both bodies of each, so those two piles wake while
// the third sleeps on. Then 40 more steps (the middle boxes fall through, the top ones land). The
// digest after every step from the refilter on; `woken`: the piles' bodies awake after its first Step,
// one bit each. The wakes bring the sleepers' other contacts into the awake set, which the narrowphase
// after must compute on every worker count.
std::vector<std::uint64_t> RefilteredPilesDigests(const TaskSystem* tasks, std::uint64_t& woken) {
  World world(WorldDef{.gravity = {0.0f, -10.0f}});
  MakeQuickSleepFloor(world);
  std::vector<BodyId> boxes;
  std::vector<ShapeId> shapes;
  for (int pile = 0; pile < 3; ++pile) {
    for (int row = 0; row < 3; ++row) {
      const Vec2 position{-6.0f + 6.0f * static_cast<float>(pile), 0.25f + 0.5f * static_cast<float>(row)};
      boxes.push_back(world.CreateBody({.type = BodyType::Dynamic, .position = position}));
      shapes.push_back(world.CreateShape(boxes.back(), {}, MakeBox(0.25f, 0.25f).value));
    }
  }
  SetWorkers(world, tasks);
  const auto anyAwake = [&] {
    return std::any_of(boxes.begin(), boxes.end(), [&](BodyId b) { return world.IsAwake(b); });
  };
  for (int step = 0; step < 300 && anyAwake(); ++step) world.Step(1.0f / 60.0f);
  REQUIRE(!anyAwake());
  for (int pile : {0, 1}) world.SetFilter(shapes[static_cast<std::size_t>(3 * pile + 1)], {.maskBits = 0});
  std::vector<std::uint64_t> digests;
  woken = 0;
  for (int step = 0; step < 41; ++step) {
    world.Step(1.0f / 60.0f);
    digests.push_back(test::StepDigest(world));
    if (step > 0) continue;
    for (std::size_t i = 0; i < boxes.size(); ++i) woken |= std::uint64_t{world.IsAwake(boxes[i])} << i;
  }
  return digests;
}

}  // namespace

// A contact that ends while it touches wakes its bodies (DestroyContact), in the pair update: the same
// wakes and states on workers as on one, every step, on pools and on the hostile schedulers. (A try
// that destroyed the contacts beside the narrowphase, their wakes held back until it was done, failed
// here when the held wakes were dropped or the contacts they woke were not computed.)
TEST_CASE("contacts ended while touching wake their sleepers on workers as on one worker") {
  std::uint64_t wokenOne = 0;
  const std::vector<std::uint64_t> one = RefilteredPilesDigests(nullptr, wokenOne);
  CHECK(wokenOne == 0x3Fu);  // the first two piles, every body; the third asleep
  CheckWorkersAndHostileSchedulers(one, [](const TaskSystem* tasks) {
    std::uint64_t woken = 0;
    std::vector<std::uint64_t> digests = RefilteredPilesDigests(tasks, woken);
    CHECK(woken == 0x3Fu);
    return digests;
  });
}

// The island pass's union-find made ahead, beside the continuous stage's serial part (LinkIslandsAhead,
// with workers, once the last step's pass had a body rested long enough), must give the pass the
// calling thread alone makes: the same sleeps and states on 2 and 3 workers as on one, every step.
// The scene checks the rule the ahead pass decides for itself (whether some body is immovable): the
// left pile falls asleep while the right one, on the same immovable beam, stays awake; linked through
// the beam, the left pile would never sleep while the right moves.
TEST_CASE("islands linked beside the continuous stage: the one-worker sleeps and states on 2 and 3 workers") {
  constexpr int kSteps = 150;
  std::vector<std::uint64_t> awakeOne;
  int aheadOne = 0;
  const std::vector<std::uint64_t> one = RestingIslandsDigests(nullptr, kSteps, awakeOne, aheadOne);
  const bool leftSleptAlone = std::any_of(awakeOne.begin(), awakeOne.end(),
                                          [](std::uint64_t bits) { return (bits & 0x3Fu) == 0x38u; });
  CHECK(leftSleptAlone);
  CHECK(aheadOne == 0);  // one worker never links ahead
  for (int workers : {2, 3}) {
    TaskPool pool(workers, PoolThreads::AsAsked);
    const TaskSystem tasks = pool.GetTaskSystem();
    std::vector<std::uint64_t> awake;
    int ahead = 0;
    const std::vector<std::uint64_t> many = RestingIslandsDigests(&tasks, kSteps, awake, ahead);
    INFO("workers " << workers);
    CHECK(ahead > kSteps / 2);  // the union-find was made ahead on most steps
    CHECK(FirstMismatch(one, many) == -1);
    CHECK(awake == awakeOne);
  }
}

TEST_CASE("the sub-steps on the calling thread or on the workers or switching each step: the serial states") {
  // WorldDef::subStepWorkers moves only who runs the sub-steps' stages: every way, and a switch between
  // any two steps (what WorkerUse::Measured does on its own), gives the serial step's state after every
  // step, and the profile says where they ran.
  TaskPool pool2(2, PoolThreads::AsAsked), pool3(3, PoolThreads::AsAsked);
  for (const MediumScene& scene : {kMediumScenes[0], kMediumScenes[2], kMediumScenes[3], kMediumScenes[4]}) {
    INFO("scene " << std::string(scene.name));
    const std::vector<std::uint64_t> serial =
        Digests(*scenes::FindScene(scene.name), scene.params, kMediumSteps, nullptr);
    for (TaskPool* pool : {&pool2, &pool3}) {
      const int workers = pool->WorkerCount();
      INFO("workers " << workers);
      const TaskSystem tasks = pool->GetTaskSystem();
      std::vector<int> ran;
      const auto always = [](WorkerUse use) { return [use](int) { return use; }; };
      CHECK(FirstMismatch(serial, DigestsWithSubSteps(scene, kMediumSteps, tasks,
                                                      always(WorkerUse::CallingThread), ran)) == -1);
      CHECK(std::count(ran.begin(), ran.end(), 1) == kMediumSteps);
      ran.clear();
      CHECK(FirstMismatch(serial, DigestsWithSubSteps(scene, kMediumSteps, tasks, always(WorkerUse::Workers),
                                                      ran)) == -1);
      CHECK(std::count(ran.begin(), ran.end(), workers) == kMediumSteps);
      ran.clear();
      const auto alternate = [](int step) {
        return step % 2 == 0 ? WorkerUse::CallingThread : WorkerUse::Workers;
      };
      CHECK(FirstMismatch(serial, DigestsWithSubSteps(scene, kMediumSteps, tasks, alternate, ran)) == -1);
      for (int i = 0; i < kMediumSteps; ++i)
        CHECK(ran[static_cast<std::size_t>(i)] == (i % 2 == 0 ? 1 : workers));
      ran.clear();
      CHECK(FirstMismatch(serial, DigestsWithSubSteps(scene, kMediumSteps, tasks, always(WorkerUse::Measured),
                                                      ran)) == -1);
      CHECK(std::all_of(ran.begin(), ran.end(), [&](int w) { return w == 1 || w == workers; }));
    }
  }
}

TEST_CASE("a task system without callbacks runs the serial sub-steps whatever the choice") {
  // Without callbacks the step runs on the calling thread exactly as without a task system: the
  // serial solve, never the stages run at enqueue (OnCallingThread), which would cost more.
  for (WorkerUse use : {WorkerUse::Measured, WorkerUse::Workers, WorkerUse::CallingThread}) {
    INFO("use " << static_cast<int>(use));
    SceneRun run(*scenes::FindScene("large_pyramid"), {.size = 12});
    REQUIRE(run.GetWorld().SetTaskSystem({.workerCount = 2}));
    REQUIRE(run.GetWorld().SetSubStepWorkers(use));
    test::StepScene(run, 10);
    CHECK(run.GetWorld().State().solver.stages.Stages().empty());
    CHECK(run.GetWorld().GetProfile().subStepWorkers == 1);
  }
}

// A task system of two workers whose every enqueue first waits 2 ms, then runs the ranges at once:
// a machine on which handing work to the workers costs far more than doing it.
void* SlowEnqueue(TaskFn task, int itemCount, int, void* taskContext, void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  task(0, itemCount, 0, taskContext);
  return nullptr;
}
void FinishNothing(void*, void*) {}

TEST_CASE("measured sub-steps leave workers that are slow to start for the calling thread") {
  SceneRun run(*scenes::FindScene("large_pyramid"), {.size = 12});
  const TaskSystem slow{.workerCount = 2, .enqueueTask = &SlowEnqueue, .finishTask = &FinishNothing};
  REQUIRE(run.GetWorld().SetTaskSystem(slow));
  REQUIRE(run.GetWorld().GetSubStepWorkers() == WorkerUse::Measured);  // the default
  const auto onCallingThread = [&] { return run.GetWorld().GetProfile().subStepWorkers == 1; };
  // Warm-up, a first usual run and three trials kFirstInterval apart switch an idle machine to the
  // calling thread (tests/core/measured_choice_test.cpp times that exactly). On a loaded machine a
  // trial the system stopped is not clearly faster and the switch comes trials later, so this waits
  // for it: two steps in a row on the calling thread (a trial is one step), within a bound of many
  // trials.
  const int idleSwitch = MeasuredChoice::kWarmUpRuns + 1 +
                         MeasuredChoice::kTrialsToSwitch * (MeasuredChoice::kFirstInterval + 1);
  const int maxSettle = 10 * idleSwitch;
  int inARow = 0;
  for (int settle = 0; settle < maxSettle && inARow < 2; ++settle) {
    run.Step();
    inARow = onCallingThread() ? inARow + 1 : 0;
  }
  REQUIRE(inARow == 2);
  int onCaller = 0;
  constexpr int kSteps = 40;
  for (int i = 0; i < kSteps; ++i) {
    // The same task system set again, as a game may do every frame, keeps what was learnt.
    REQUIRE(run.GetWorld().SetTaskSystem(slow));
    run.Step();
    onCaller += onCallingThread() ? 1 : 0;
  }
  // The trials back on the workers, at least kFirstInterval apart, are the only steps there: a trial
  // on the workers does the calling thread's work and waits 2 ms besides, so it does not look faster.
  CHECK(onCaller >= kSteps - kSteps / (MeasuredChoice::kFirstInterval + 1) - 1);
  // Another task system starts again from the workers.
  TaskSystem other = slow;
  other.userContext = &other;
  REQUIRE(run.GetWorld().SetTaskSystem(other));
  run.Step();
  CHECK(run.GetWorld().GetProfile().subStepWorkers == 2);
}

TEST_CASE("no allocation in a step on 4 workers after warm-up") {
  TaskPool pool(4, PoolThreads::AsAsked);
  SceneRun run(*scenes::FindScene("many_pyramids"), {.count = 4});
  REQUIRE(run.GetWorld().SetTaskSystem(pool.GetTaskSystem()));
  test::StepScene(run, 100);
  const std::uint64_t rangesBefore = pool.RangesRun();
  test::StartCountingAllocations();
  test::StepScene(run, 50);
  test::StopCountingAllocations();
  INFO("bytes allocated: " << test::CountedAllocationBytes());
  CHECK(test::CountedAllocations() == 0);
  CHECK(pool.RangesRun() > rangesBefore);  // the pool did run the steps' tasks
}
}  // TEST_SUITE("threads")

TEST_SUITE("long") {
TEST_CASE(
    "every scene over its full length: the same states and events on 2 to 8 workers and 4 and 8 lanes") {
  CheckEveryScene(0, /*small=*/false, /*alternateWidths=*/true);
}
}  // TEST_SUITE("long")
