// SPDX-License-Identifier: MIT
// World::Step: one function call per pipeline stage (docs/design.md section 1), each timed into Profile.
#include "core/parallel.h"
#include "minkowski/assert.h"
#include "solver/solver_types.h"
#include "world/persistence/recorder.h"
#include "world/world_internal.h"

#include <chrono>
#include <vector>

namespace mk {

namespace {

class StageTimer {
 public:
  StageTimer() : start_(std::chrono::steady_clock::now()) {}
  float Ms() const {
    return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

void CountObjects(WorldState& world) {
  Counters& c = world.counters;
  c.bodies = world.bodyIds.LiveCount();
  c.shapes = world.shapeIds.LiveCount();
  c.contacts = world.contactIds.LiveCount();
  c.joints = world.jointIds.LiveCount();
  c.awakeBodies = static_cast<int>(world.solverBodies.size());
}

// End events raised since the last Step (by destroy calls in between, then by this Step's stages)
// become the ones the game reads; swapping keeps both lists' capacity, so nothing is allocated. The
// ends of the sensors fast bodies crossed within this Step wait for the next (continuous.cpp,
// SweepSensors), so a game reads their begin events before them.
void PublishEndEvents(WorldState& world) {
  world.endEvents.swap(world.pendingEndEvents);
  world.pendingEndEvents.clear();
  world.sensorEndEvents.swap(world.pendingSensorEndEvents);
  world.pendingSensorEndEvents.clear();
  world.pendingSensorEndEvents.insert(world.pendingSensorEndEvents.end(), world.sweptSensorEnds.begin(),
                                      world.sweptSensorEnds.end());
  world.sweptSensorEnds.clear();
}

// Every body this Step simulated: the solver's body list, which UpdateSleep leaves in place (a body it
// put to sleep is still listed, now asleep). Written after continuous collision, so the transforms are
// final. On the workers: a Body line per event, a load that misses for every body of a large scene
// (joint_grid, 10,000 bodies: 2.4% of a two-worker step's samples, all on the calling thread).
void PublishMoveEvents(WorldState& world) {
  const std::vector<int>& slots = world.solverBodies;
  world.moveEvents.resize(slots.size());
  BodyMoveEvent* out = world.moveEvents.data();
  ParallelFor(&world.tasks, static_cast<int>(slots.size()), kMinBodiesPerBlock, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      const int slot = slots[i];
      const Body& body = world.bodies[slot];
      // Field by field: g++ 12 built the braced event on the stack and copied it out with loads that
      // straddled its stores (failed store-to-load forwards: three quarters of this loop's samples).
      BodyMoveEvent& event = out[i];
      event.body = world.MakeBodyId(slot);
      event.transform = ToWorld(world, body.xf);
      event.userData = body.userData;
      event.fellAsleep = !body.awake;
    }
  });
}

}  // namespace

bool World::Step(float timeStep) {
  if (RefuseIfLocked(*state_)) return false;
  RecordCall(recorder_.get(), ReplayOp::Step, timeStep);
  const bool valid = timeStep >= kMinTimeStep && timeStep <= kMaxTimeStep;  // false for NaN
  MK_ASSERT(valid);
  if (!valid) return false;
  WorldState& world = *state_;
  const WorldLock lock(world, /*walk=*/false);  // the callbacks below may read the world, not change it
  StageTimer total;
  world.beginEvents.clear();
  world.hitEvents.clear();
  world.sensorBeginEvents.clear();

  StageTimer broadphase;
  UpdatePairs(world);  // pairs begun / ended since the last step -> contacts created / destroyed
  world.profile.broadphase = broadphase.Ms();

  StageTimer narrowphase;
  world.narrowphaseDt = timeStep;
  UpdateContacts(world);  // GJK / EPA / clipping -> manifolds, begin / end events
  world.profile.narrowphase = narrowphase.Ms();

  StageTimer solver;
  SolveStep(world, timeStep);  // sub-stepped soft contacts; moves bodies and their proxies
  world.profile.solver = solver.Ms();

  StageTimer continuous;
  {
    // Its pre-solve calls come from inside its broadphase walks, which a query would disturb.
    const WorldLock walk(world, /*walk=*/true);
    // The island pass's union-find beside the continuous stage's serial part, when the last step's
    // island pass needed one and that part has bodies to move (rain: 0.06-0.08 ms each, both on the
    // calling thread while the other workers waited).
    const bool islandsAhead = HasWorkers(&world.tasks) && WantsIslandsAhead(world) &&
                              !(world.fastBodies.empty() && world.fastBullets.empty());
    SolveContinuous(world, timeStep, islandsAhead ? &LinkIslandsAhead : nullptr);
  }  // fast bodies back to their time of impact with what they would pass
  if (!world.lockedBodies.empty()) HoldLockedBodies(world);
  world.profile.continuous = continuous.Ms();

  StageTimer islands;
  world.counters.islands = UpdateSleep(world, timeStep);  // union-find islands; quiet ones sleep
  world.profile.islands = islands.Ms();

  BreakJoints(world);  // joints past their thresholds: events, and those that break are destroyed

  PublishEndEvents(world);
  PublishMoveEvents(world);
  CountObjects(world);
  world.profile.step = total.Ms();
  return true;
}

}  // namespace mk
