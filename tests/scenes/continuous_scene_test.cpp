// SPDX-License-Identifier: MIT
// Continuous collision in the spinner scene (demos/scenes): the bodies the rotating bar flings at the
// 40 m closed chain (one-sided, normals inwards) must all stay inside it for the whole run, as in Box2D
// v3. The bar (hinged 20 m from the ring's centre, 20.2 m from hinge to tip) reaches 0.2 m past the
// ring when it points down and presses bodies into it; the chain pushes back any body whose centre is
// still inside, and continuous collision keeps fast ones from crossing. Measured: no body outside at
// any of the 500 steps (with the two-sided segments the scene used before chains: 21 outside at the
// end); without continuous collision 526 end outside.
#include "scene_test_util.h"
#include "scenes.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace mk;

namespace {

// Bodies whose centre is farther than the ring's radius from its centre (0, 32).
int CountOutside(const World& world) {
  const WorldState& state = world.State();
  int outside = 0;
  for (int slot = 0; slot < state.bodyIds.Capacity(); ++slot) {
    if (!state.bodyIds.IsLive(slot) || state.bodies[slot].type != BodyType::Dynamic) continue;
    outside += Distance(state.bodies[slot].center, Vec2{0.0f, 32.0f}) > 40.0f ? 1 : 0;
  }
  return outside;
}

struct Escapes {
  int atEnd = 0;       // outside after 500 steps
  int mostAtOnce = 0;  // the most outside at any step
};

// Bodies outside the ring during 500 steps of the spinner, with continuous collision on or off.
Escapes SpinnerEscapes(bool continuous) {
  scenes::SceneRun run(*scenes::FindScene("spinner"));
  SolverSettings settings = run.GetWorld().GetSolverSettings();
  settings.enableContinuous = continuous;
  run.GetWorld().SetSolverSettings(settings);
  Escapes escapes;
  for (int step = 0; step < 500; ++step) {
    test::StepScene(run, 1);
    escapes.atEnd = CountOutside(run.GetWorld());
    escapes.mostAtOnce = std::max(escapes.mostAtOnce, escapes.atEnd);
  }
  return escapes;
}

// Rain (the Box2D v3 benchmark set; demos/scenes): ragdolls spawn 40 m above the floor of their row
// r (y = 45 r, the floor boxes' centre line; top surface 45 r + 0.25) and 5 m below the next floor.
// The row of a body is the floor below where it was first seen (spawn heights 40.4..41.6 m above a
// floor, so y / 45 rounds down to r). The criterion: at the end of every step, every live ragdoll
// body's centre of mass is above the top surface of its row's floor. A body resting on the floor has
// its centre at least its smallest radius (the 3 cm forearm) minus the allowed overlap above that
// surface, so this catches a body halfway into the floor, one through it, and one that fell off its
// end.
struct RainWatch {
  std::vector<std::uint32_t> generation;  // per body slot: the generation whose row is known
  std::vector<int> row;
  int below = 0;          // body-steps below the criterion
  float lowest = 1e9f;    // smallest centre height above the row's floor top seen (m)
  int ragdollBodies = 0;  // distinct ragdoll bodies seen
};

void WatchRain(const World& world, RainWatch& watch) {
  constexpr float kRowSpacing = 45.0f, kFloorTop = 0.25f;
  const WorldState& state = world.State();
  const auto slots = static_cast<size_t>(state.bodyIds.Capacity());
  watch.generation.resize(slots, 0u);
  watch.row.resize(slots, -1);
  for (size_t slot = 0; slot < slots; ++slot) {
    const int s = static_cast<int>(slot);
    if (!state.bodyIds.IsLive(s) || state.bodies[slot].type != BodyType::Dynamic) continue;
    const Vec2 c = state.bodies[slot].center;
    if (watch.row[slot] < 0 || watch.generation[slot] != state.bodyIds.Generation(s)) {
      watch.generation[slot] = state.bodyIds.Generation(s);
      watch.row[slot] = static_cast<int>(std::floor(c.y / kRowSpacing));
      ++watch.ragdollBodies;
    }
    const float height = c.y - (kRowSpacing * static_cast<float>(watch.row[slot]) + kFloorTop);
    watch.lowest = std::min(watch.lowest, height);
    watch.below += height > 0.0f ? 0 : 1;
  }
}

}  // namespace

TEST_SUITE("scenes.continuous") {
TEST_CASE("rain: no ragdoll body ends a step below the floor of its row in 1000 steps" *
          doctest::test_suite("long")) {
  scenes::SceneRun run(*scenes::FindScene("rain"));
  RainWatch watch;
  for (int i = 0; i < 1000; ++i) {
    run.Step();
    WatchRain(run.GetWorld(), watch);
  }
  MESSAGE("rain: " << watch.ragdollBodies << " ragdoll bodies, lowest centre " << watch.lowest
                   << " m above its floor's top, " << watch.below << " body-steps below it");
  CHECK(watch.ragdollBodies == 125 * 275);  // a spawn of 25 ragdolls every 8 steps, steps 0..999
  CHECK(watch.below == 0);
  CHECK(watch.lowest > 0.0f);
}

TEST_CASE("all of the spinner's bodies stay inside its closed chain for the 500 steps" *
          doctest::test_suite("long")) {
  const Escapes with = SpinnerEscapes(true);
  const Escapes without = SpinnerEscapes(false);
  MESSAGE("most bodies outside the chain at any step: "
          << with.mostAtOnce << " (without continuous collision " << without.mostAtOnce << ", "
          << without.atEnd << " at the end)");
  CHECK(with.mostAtOnce == 0);
  // The control, that the scene tests continuous collision at all: without it hundreds of bodies end
  // outside (526 with the contacts solved in input order, 498 in colour order, 207 with the contacts
  // against static bodies solved last: the count depends on the solve order, the hundreds do not).
  CHECK(without.atEnd > 150);
}
}  // TEST_SUITE("scenes.continuous")
