// SPDX-License-Identifier: MIT
// World::GetMemoryStats against independent counts: the bytes the heap was asked for while the world
// was built and stepped (scenes/alloc_counter.h), and the records the world must hold for its objects.
#include "minkowski/world.h"
#include "scenes/alloc_counter.h"
#include "solver/contact_graph.h"
#include "solver/contact_solver.h"
#include "world/world_state.h"

#include <doctest/doctest.h>

#include <cstddef>
#include <type_traits>

using namespace mk;

namespace {

std::size_t SumOfParts(const MemoryStats& m) {
  return m.bodies + m.shapes + m.contacts + m.joints + m.chains + m.broadphase + m.step;
}

// A pile of `n` boxes on a ground, in columns of 10 so they touch.
void AddBoxes(World& world, int n) {
  for (int i = 0; i < n; ++i) {
    const Vec2 at{static_cast<float>(i / 10) * 1.5f, 0.5f + static_cast<float>(i % 10) * 1.0f};
    const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = at});
    world.CreateShape(body, {}, MakeBox(0.5f, 0.5f).value);
  }
}

// A ground and `n` boxes on it, stepped 10 times.
void AddSettlingPile(World& world, int n) {
  const BodyId ground = world.CreateBody({});
  world.CreateShape(ground, {}, MakeBox(200.0f, 0.5f).value);
  AddBoxes(world, n);
  for (int i = 0; i < 10; ++i) world.Step(1.0f / 60.0f);
}

}  // namespace

TEST_SUITE("world.memory") {

TEST_CASE("the memory figure holds at least every body shape and contact record and sums its parts") {
  World world;
  AddSettlingPile(world, 500);
  const MemoryStats m = world.GetMemoryStats();
  const Counters c = world.GetCounters();
  REQUIRE(c.bodies == 501);
  REQUIRE(c.contacts > 0);
  CHECK(m.total == SumOfParts(m));
  CHECK(m.bodies >= static_cast<std::size_t>(c.bodies) * sizeof(Body));
  CHECK(m.shapes >= static_cast<std::size_t>(c.shapes) * (sizeof(Shape) + sizeof(ShapeGeometry)));
  CHECK(m.contacts >= static_cast<std::size_t>(c.contacts) * sizeof(Contact));
  CHECK(m.broadphase > 0);
  CHECK(m.step > 0);                                 // the solver's arrays for the awake boxes
  CHECK(m.joints == world.GetMemoryStats().joints);  // reading changes nothing
}

// The contact graph's packed groups are the step's largest array after the constraints; a count that
// left them out would under-report a crowd's memory by a quarter.
TEST_CASE("the step part holds every solver constraint and the contact graph's packed groups") {
  World world;
  AddSettlingPile(world, 500);
  const SolverArrays& solver = world.State().solver;
  const std::size_t constraints = solver.contacts.size();
  REQUIRE(constraints > 0);
  // Every coloured contact takes a lane; the groups hold at least the lanes over the lane width.
  const std::size_t groupBytes = WithGraphs(solver, [constraints](const auto& graph, const auto&) {
    using Group = typename std::decay_t<decltype(graph.groups)>::value_type;
    return (constraints - graph.overflow.size()) / Group::kLanes * sizeof(Group);
  });
  const MemoryStats m = world.GetMemoryStats();
  INFO("step " << m.step << " bytes, constraints " << constraints);
  const std::size_t perContact = sizeof(ContactConstraint) + sizeof(ContactKey) + sizeof(ContactInput);
  const std::size_t perBody = sizeof(BodyState) + sizeof(BodyParams);
  CHECK(m.step >= constraints * perContact + solver.params.size() * perBody + groupBytes);
}

TEST_CASE("the memory figure never exceeds what the heap was asked for while the world was built") {
  test::StartCountingAllocations();
  std::size_t held = 0;
  {
    World world;
    AddSettlingPile(world, 300);
    held = world.GetMemoryStats().total;
    test::StopCountingAllocations();
  }
  // Every byte counted is a capacity the world asked the heap for after counting began.
  INFO("held " << held << " bytes, requested " << test::CountedAllocationBytes());
  CHECK(held > 0);
  CHECK(held <= test::CountedAllocationBytes());
}

TEST_CASE("the memory figure grows as bodies are added and starts small") {
  World world;
  const MemoryStats empty = world.GetMemoryStats();
  AddBoxes(world, 100);
  const MemoryStats hundred = world.GetMemoryStats();
  AddBoxes(world, 1000);
  const MemoryStats more = world.GetMemoryStats();
  CHECK(hundred.bodies > empty.bodies);
  CHECK(more.bodies > hundred.bodies);
  CHECK(more.shapes > hundred.shapes);
  CHECK(more.total > hundred.total);
  CHECK(more.bodies >= 1100 * sizeof(Body));
  CHECK(empty.total < 1100 * sizeof(Body));
}

}  // TEST_SUITE("world.memory")
