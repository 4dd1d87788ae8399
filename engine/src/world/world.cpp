// SPDX-License-Identifier: MIT
// World API, the world itself: creation and moves, recording (replay and continuous), gravity and
// solver settings, profile, counters, the state hash, events and contact views. Bodies are in body.cpp,
// shapes in shape.cpp, joints in joints.cpp. Every API entry validates its ids and values first (MK_ASSERT +
// neutral result on misuse), so the state below it can assume valid input.
#include "minkowski/world.h"

#include "minkowski/assert.h"
#include "world/persistence/recorder.h"
#include "world/world_internal.h"
#include "world/world_state.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace mk {

namespace {

// A tag no other World of this process has had (until 2^32 - 1 worlds were made): ids carry it, so
// a call with another world's id is caught instead of acting on whatever sits in that slot here.
std::uint32_t NextWorldTag() {
  static std::atomic<std::uint32_t> counter{0};
  std::uint32_t tag = counter.fetch_add(1, std::memory_order_relaxed) + 1;
  if (tag == 0) tag = counter.fetch_add(1, std::memory_order_relaxed) + 1;  // 0 is the null ids' tag
  return tag;
}

OwnedPtr<WorldState> NewWorldState() {
  auto state = OwnedPtr<WorldState>(new WorldState());
  state->tag = NextWorldTag();
  return state;
}

}  // namespace

World::World(const WorldDef& def) : state_(NewWorldState()) {
  MK_ASSERT(IsFinite(def.gravity));
  state_->gravity = IsFinite(def.gravity) ? def.gravity : Vec2{0.0f, -10.0f};
  SetSolverSettings(def.settings);
  state_->userData = def.userData;
  SetTaskSystem(def.tasks);
  SetSubStepWorkers(def.subStepWorkers);
  state_->solver.lanes = SimdLanes(def.simdWidth);
#if defined(MK_LARGE_WORLDS)
  MK_ASSERT(ValidPosition(def.origin));
  state_->origin = ValidPosition(def.origin) ? def.origin : Pos{};  // world_state.h says why
#endif
  state_->api = this;
}

World::~World() = default;

// The moved-from world is left empty and usable (default settings, a tag of its own) rather than
// holding no state: every call on it then behaves as on a new world instead of dereferencing null.
// A recording belongs to the state it records, so it moves with it.
// A locked world (moved from inside its own callback) is not moved: Step or the query holds its state.
World::World(World&& other) : state_(NewWorldState()) {
  state_->api = this;
  if (RefuseIfLocked(*other.state_)) return;  // this one stays a new empty world, the other intact
  std::swap(state_, other.state_);
  recorder_ = std::move(other.recorder_);
  state_->api = this;
  other.state_->api = &other;
}

World& World::operator=(World&& other) {
  if (this != &other && !RefuseIfLocked(*state_) && !RefuseIfLocked(*other.state_)) {
    OwnedPtr<WorldState> fresh = NewWorldState();
    state_ = std::move(other.state_);
    other.state_ = std::move(fresh);
    recorder_ = std::move(other.recorder_);
    state_->api = this;
    other.state_->api = &other;
  }
  return *this;
}

// --- Recording (replay.cpp reads what this writes) ---------------------------------------------------

// New: no id was ever handed out, so a fresh World given the same calls hands out the same ids. (A
// world whose objects were all destroyed has moved its generations and is not new.)
bool World::StartRecording() {
  if (RefuseIfLocked(*state_)) return false;
  const WorldState& w = *state_;
  const bool fresh = w.bodyIds.Capacity() == 0 && w.shapeIds.Capacity() == 0 && w.jointIds.Capacity() == 0 &&
                     w.chainIds.Capacity() == 0 && w.contactIds.Capacity() == 0;
  MK_ASSERT(fresh && recorder_ == nullptr);
  if (!fresh || recorder_ != nullptr) return false;
  recorder_ =
      OwnedPtr<Recorder>(new Recorder(w.tag, w.gravity, w.origin, w.settings, static_cast<bool>(w.preSolve)));
  return true;
}

Span<const std::byte> World::StopRecording() {
  if (RefuseIfLocked(*state_)) return {};
  if (recorder_ == nullptr) return {};
  state_->lastRecording = recorder_->File();
  recorder_.reset();
  return state_->lastRecording;
}

// --- Continuous recording (continuous.cpp fills the records) -------------------------------------

void World::SetContinuousRecording(bool enabled) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetContinuousRecording, enabled);
  WorldState& world = *state_;
  world.recordContinuous = enabled;
  if (enabled) {
    world.continuousRecords.reserve(kMaxContinuousRecords);
  } else {
    std::vector<ContinuousRecord>().swap(world.continuousRecords);
  }
}

bool World::IsContinuousRecording() const { return state_->recordContinuous; }

Span<const ContinuousRecord> World::GetContinuousRecords() const { return state_->continuousRecords; }

// --- Settings -------------------------------------------------------------------------------------

void World::SetGravity(Vec2 gravity) {
  if (RefuseIfLocked(*state_)) return;
  RecordCall(recorder_.get(), ReplayOp::SetGravity, gravity);
  MK_ASSERT(IsFinite(gravity));
  if (!IsFinite(gravity)) return;
  state_->gravity = gravity;
  WakeAllBodies(*state_);
}

Vec2 World::GetGravity() const { return state_->gravity; }

bool ClampSolverSettings(SolverSettings& s, const SolverSettings& requested) {
  bool exact = true;
  auto setFloat = [&exact](float& field, float value, float lo, float hi) {
    if (!IsFinite(value)) {
      exact = false;
      return;
    }
    float clamped = std::clamp(value, lo, hi);
    exact = exact && clamped == value;
    field = clamped;
  };
  auto setInt = [&exact](int& field, int value, int lo, int hi) {
    int clamped = std::clamp(value, lo, hi);
    exact = exact && clamped == value;
    field = clamped;
  };
  s.mode = requested.mode == SolverMode::Classic ? SolverMode::Classic : SolverMode::SoftStep;
  setInt(s.subSteps, requested.subSteps, 1, 64);
  setFloat(s.contactHertz, requested.contactHertz, 0.0f, 1000.0f);
  setFloat(s.contactDampingRatio, requested.contactDampingRatio, 0.0f, 1000.0f);
  setFloat(s.staticContactScale, requested.staticContactScale, 1.0f, 10.0f);
  setFloat(s.contactPushMaxSpeed, requested.contactPushMaxSpeed, 0.0f, 1000.0f);
  setFloat(s.jointHertz, requested.jointHertz, 0.0f, 1000.0f);
  setFloat(s.jointDampingRatio, requested.jointDampingRatio, 0.0f, 1000.0f);
  setFloat(s.restitutionThreshold, requested.restitutionThreshold, 0.0f, 1000.0f);
  setFloat(s.hitEventThreshold, requested.hitEventThreshold, 0.0f, 1e6f);
  setFloat(s.linearSlop, requested.linearSlop, 0.0f, 1.0f);
  setFloat(s.speculativeDistance, requested.speculativeDistance, 0.0f, 1.0f);
  setFloat(s.aabbMargin, requested.aabbMargin, 0.0f, 10.0f);
  setFloat(s.maxLinearSpeed, requested.maxLinearSpeed, 0.0f, 1e5f);
  setFloat(s.timeToSleep, requested.timeToSleep, 0.0f, 1e6f);
  s.enableWarmStarting = requested.enableWarmStarting;
  s.enableRelax = requested.enableRelax;
  s.enableRestitution = requested.enableRestitution;
  s.enableSleep = requested.enableSleep;
  s.enableContinuous = requested.enableContinuous;
  s.enableContactRecycling = requested.enableContactRecycling;
  setInt(s.classicIterations, requested.classicIterations, 1, 256);
  setFloat(s.classicBaumgarte, requested.classicBaumgarte, 0.0f, 1.0f);
  return exact;
}

bool World::SetSolverSettings(const SolverSettings& requested) {
  if (RefuseIfLocked(*state_)) return false;
  RecordCall(recorder_.get(), ReplayOp::SetSolverSettings, requested);
  if (state_->settings.enableSleep && !requested.enableSleep) {
    WakeAllBodies(*state_);
    ClearSleepTimes(*state_);  // the step no longer advances them while sleeping is off
  }
  const bool exact = ClampSolverSettings(state_->settings, requested);
  state_->broadphase.SetMargin(state_->settings.aabbMargin);
  return exact;
}

bool World::SetTaskSystem(const TaskSystem& tasks) {
  if (RefuseIfLocked(*state_)) return false;
  const bool valid = tasks.workerCount >= 1 && tasks.workerCount <= kMaxWorkers &&
                     (tasks.enqueueTask == nullptr) == (tasks.finishTask == nullptr);
  MK_ASSERT(valid);
  if (!valid) return false;
  const TaskSystem& old = state_->tasks;
  // Other workers, maybe on other cores: measure again (the same system set again, as a game may do
  // every frame, keeps what was learnt).
  if (tasks.workerCount != old.workerCount || tasks.enqueueTask != old.enqueueTask ||
      tasks.finishTask != old.finishTask || tasks.userContext != old.userContext)
    state_->subStepChoice.Reset();
  state_->tasks = tasks;
  return true;
}

const TaskSystem& World::GetTaskSystem() const { return state_->tasks; }

bool World::SetSubStepWorkers(WorkerUse use) {
  if (RefuseIfLocked(*state_)) return false;
  const bool valid =
      use == WorkerUse::Measured || use == WorkerUse::Workers || use == WorkerUse::CallingThread;
  MK_ASSERT(valid);
  if (valid) state_->subStepWorkers = use;
  return valid;
}

WorkerUse World::GetSubStepWorkers() const { return state_->subStepWorkers; }

std::uint32_t World::Tag() const { return state_->tag; }

#if !defined(MK_LARGE_WORLDS)
namespace {

// The world-space copies the last Step published (events, continuous records), moved with the world.
void ShiftPublished(WorldState& world, Vec2 d) {
  for (ContactHitEvent& e : world.hitEvents) e.point = e.point - d;
  for (BodyMoveEvent& e : world.moveEvents) e.transform.p = e.transform.p - d;
  for (ContinuousRecord& r : world.continuousRecords) {
    for (WorldTransform* xf : {&r.start, &r.end, &r.impact, &r.targetImpact}) xf->p = xf->p - d;
  }
}

}  // namespace
#endif

void World::ShiftOrigin(Pos newOrigin) {
  if (RefuseIfLocked(*state_)) return;
  WorldState& world = *state_;
  const bool valid = ValidPosition(newOrigin) && recorder_ == nullptr;
  MK_ASSERT(valid);
  if (!valid) return;
#if defined(MK_LARGE_WORLDS)
  // Positions are relative to the origin (world_state.h): moving it moves the world, exactly.
  const Pos origin{world.origin.x - newOrigin.x, world.origin.y - newOrigin.y};
  MK_ASSERT(ValidPosition(origin));
  if (!ValidPosition(origin)) return;
  world.origin = origin;
  // The published copies are world positions: each moves by -newOrigin (in double, then as they are).
  for (ContactHitEvent& e : world.hitEvents) e.point = {e.point.x - newOrigin.x, e.point.y - newOrigin.y};
  for (BodyMoveEvent& e : world.moveEvents)
    e.transform.p = {e.transform.p.x - newOrigin.x, e.transform.p.y - newOrigin.y};
  for (ContinuousRecord& r : world.continuousRecords) {
    for (WorldTransform* xf : {&r.start, &r.end, &r.impact, &r.targetImpact})
      xf->p = {xf->p.x - newOrigin.x, xf->p.y - newOrigin.y};
  }
#else
  const Vec2 d = newOrigin;
  for (int slot = 0; slot < world.bodyIds.Capacity(); ++slot) {
    if (!world.bodyIds.IsLive(slot)) continue;
    Body& body = world.bodies[slot];
    body.xf.p -= d, body.center -= d, body.center0 -= d;
    UpdateBodyShapesInBroadphase(world, slot, /*teleport=*/true);  // the boxes, from the new pose
  }
  for (int slot = 0; slot < world.jointIds.Capacity(); ++slot) {
    if (world.jointIds.IsLive(slot) && world.joints[slot].type == JointType::Mouse)
      world.joints[slot].target -= d;
  }
  // A manifold's points are world points in the default build (its anchors are relative).
  for (int slot = 0; slot < world.contactIds.Capacity(); ++slot) {
    if (!world.contactIds.IsLive(slot)) continue;
    Manifold& m = world.contacts[slot].manifold;
    for (int i = 0; i < m.pointCount; ++i) m.points[i].point -= d;
  }
  ShiftPublished(world, d);
#endif
}

const SolverSettings& World::GetSolverSettings() const { return state_->settings; }
const Profile& World::GetProfile() const { return state_->profile; }
Counters World::GetCounters() const { return state_->counters; }

Pos World::GetOrigin() const { return state_->origin; }

namespace {
template <class T>
std::size_t Bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
}  // namespace

// Capacities, read from the arrays themselves: what the allocator was asked for, which is what the
// world keeps (std::vector never gives capacity back while it lives). The contact graphs and the
// solver's stages are left out: their batches are rebuilt every step from the contacts counted here.
MemoryStats World::GetMemoryStats() const {
  const WorldState& w = *state_;
  MemoryStats m;
  m.bodies = Bytes(w.bodies) + Bytes(w.bodyNames) + Bytes(w.bodyShapeMass) + w.bodyIds.MemoryBytes() +
             Bytes(w.awakeBodyBits);
  m.shapes = Bytes(w.shapes) + Bytes(w.shapePrev) + Bytes(w.geometries) + w.shapeIds.MemoryBytes();
  m.contacts = Bytes(w.contacts) + w.contactIds.MemoryBytes() + Bytes(w.awakeContactBits);
  m.joints = Bytes(w.joints) + Bytes(w.jointEnds) + w.jointIds.MemoryBytes();
  m.chains = Bytes(w.chains) + w.chainIds.MemoryBytes();
  for (const Chain& chain : w.chains) m.chains += Bytes(chain.shapes);
  m.broadphase = w.broadphase.MemoryBytes() + w.contactByShapes.MemoryBytes();
  const SolverArrays& s = w.solver;
  m.step = Bytes(s.states) + Bytes(s.params) + Bytes(s.locks) + Bytes(s.contacts) + Bytes(s.contactKeys) +
           Bytes(s.surfaces) + Bytes(s.joints) + Bytes(s.jointPlaces) + Bytes(s.hits) +
           Bytes(w.solverBodies) + Bytes(w.lockedBodies) + Bytes(w.fastBodies) + Bytes(w.fastBullets) +
           Bytes(w.contactInputs) + Bytes(w.jointInputs) + Bytes(w.jointBlockFirstInput) +
           Bytes(w.jointSides) + Bytes(w.sleepGroupHead) + w.sleepGroupIds.MemoryBytes() +
           Bytes(w.islandParent) + Bytes(w.islandSleepTime) + Bytes(w.islandNextMember) +
           Bytes(w.islandStack) + Bytes(w.islandMembers) + Bytes(w.pendingWakes) + Bytes(w.narrowphaseSlots) +
           Bytes(w.gatherSlots) + Bytes(w.gatherKeep) + Bytes(w.narrowphaseChanges) +
           Bytes(w.narrowphaseChanged) + Bytes(w.narrowphaseAwakeBits) + Bytes(w.scatterListed) +
           Bytes(w.scatterTickets) + Bytes(w.scatterRanges) + Bytes(w.begunPairScratch) +
           Bytes(w.pairContactScratch) + Bytes(w.shapeRankScratch) + Bytes(w.rankedContactScratch) +
           Bytes(w.explosionShapes) + Bytes(w.castHits) + Bytes(w.rayHits) + Bytes(w.beginEvents) +
           Bytes(w.endEvents) + Bytes(w.hitEvents) + Bytes(w.sensorBeginEvents) + Bytes(w.sensorEndEvents) +
           Bytes(w.pendingEndEvents) + Bytes(w.pendingSensorEndEvents) + Bytes(w.moveEvents) +
           Bytes(w.jointEvents) + Bytes(w.sweptSensors) + Bytes(w.sweptSensorEnds) + Bytes(w.movedBack) +
           Bytes(w.keptFraction) + Bytes(w.jointWalk) + Bytes(w.continuousRecords) + Bytes(w.fastSweeps);
  for (const FastSweep& sweep : w.fastSweeps) m.step += Bytes(sweep.sensors);
  m.step += Bytes(s.jointPlaceKeys) + s.GraphBytes();
  m.total = m.bodies + m.shapes + m.contacts + m.joints + m.chains + m.broadphase + m.step;
  return m;
}
int World::GetSimdWidth() const { return state_->solver.lanes; }

std::uint64_t World::StateHash() const {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a offset basis
  // Floats, and the positions' doubles in the large-world build, byte by byte (little end first).
  auto mix = [&hash](auto value) {
    constexpr int kBytes = sizeof value;
    std::conditional_t<kBytes == 4, std::uint32_t, std::uint64_t> bits;
    std::memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < kBytes; ++i) {
      hash ^= (bits >> (8 * i)) & 0xFFu;
      hash *= 1099511628211ull;  // FNV prime
    }
  };
  for (int slot = 0; slot < state_->bodyIds.Capacity(); ++slot) {
    if (!state_->bodyIds.IsLive(slot)) continue;
    const Body& body = state_->bodies[slot];
    mix(body.xf.p.x), mix(body.xf.p.y), mix(body.xf.q.c), mix(body.xf.q.s);
    mix(body.linearVelocity.x), mix(body.linearVelocity.y), mix(body.angularVelocity);
  }
  return hash;
}

// --- Events and inspection ------------------------------------------------------------------------

Span<const ContactBeginEvent> World::GetContactBeginEvents() const { return state_->beginEvents; }
Span<const ContactEndEvent> World::GetContactEndEvents() const { return state_->endEvents; }
Span<const ContactHitEvent> World::GetContactHitEvents() const { return state_->hitEvents; }
Span<const SensorBeginEvent> World::GetSensorBeginEvents() const { return state_->sensorBeginEvents; }
Span<const SensorEndEvent> World::GetSensorEndEvents() const { return state_->sensorEndEvents; }
Span<const BodyMoveEvent> World::GetBodyMoveEvents() const { return state_->moveEvents; }

int World::ContactCapacity() const { return state_->contactIds.Capacity(); }

bool World::GetContactView(int slot, ContactView& out) const {
  const WorldState& world = *state_;
  if (!world.contactIds.IsLive(slot) || !world.contacts[slot].touching) return false;
  out = MakeContactView(world, slot);
  return true;
}

}  // namespace mk
