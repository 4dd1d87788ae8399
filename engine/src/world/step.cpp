// World::Step: one function call per pipeline stage (DESIGN.md section 1), each timed into Profile.
#include "minkowski/assert.h"
#include "world/world_internal.h"

#include <chrono>

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

void CountObjects(WorldState& w) {
  Counters& c = w.counters;
  c.bodies = w.bodyIds.LiveCount();
  c.shapes = w.shapeIds.LiveCount();
  c.contacts = w.contactIds.LiveCount();
  c.joints = w.jointIds.LiveCount();
  c.awakeBodies = static_cast<int>(w.solverBodies.size());
}

// End events raised since the last Step (by destroy calls in between, then by this Step's stages)
// become the ones the game reads; swapping keeps both lists' capacity, so nothing is allocated.
void PublishEndEvents(WorldState& w) {
  w.endEvents.swap(w.pendingEndEvents);
  w.pendingEndEvents.clear();
  w.sensorEndEvents.swap(w.pendingSensorEndEvents);
  w.pendingSensorEndEvents.clear();
}

}  // namespace

bool World::Step(float timeStep) {
  const bool valid = timeStep >= kMinTimeStep && timeStep <= kMaxTimeStep;  // false for NaN
  MK_ASSERT(valid);
  if (!valid) return false;
  WorldState& w = *state_;
  StageTimer total;
  w.beginEvents.clear();
  w.hitEvents.clear();
  w.sensorBeginEvents.clear();

  StageTimer broadphase;
  UpdatePairs(w);  // pairs begun / ended since the last step -> contacts created / destroyed
  w.profile.broadphase = broadphase.Ms();

  StageTimer narrowphase;
  UpdateContacts(w);  // GJK / EPA / clipping -> manifolds, begin / end events
  w.profile.narrowphase = narrowphase.Ms();

  StageTimer solver;
  SolveStep(w, timeStep);  // sub-stepped soft contacts; moves bodies and their proxies
  w.profile.solver = solver.Ms();

  StageTimer islands;
  w.counters.islands = UpdateSleep(w, timeStep);  // union-find islands; quiet ones sleep
  w.profile.islands = islands.Ms();

  PublishEndEvents(w);
  CountObjects(w);
  w.profile.step = total.Ms();
  return true;
}

}  // namespace mk
