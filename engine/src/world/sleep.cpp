// SPDX-License-Identifier: MIT
// Islands and sleeping. Each step, awake dynamic bodies joined by touching contacts or joints are grouped by
// union-find (cheap: near-linear, no persistent graph to maintain); an island whose bodies have all
// been slower than their threshold for SolverSettings::timeToSleep goes to sleep as a whole. A
// sleeping island remembers its members (a "sleep group") so touching any of them wakes all of them,
// and only them.
#include "core/parallel.h"
#include "core/union_find.h"
#include "solver/solver_types.h"
#include "world/world_internal.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <utility>
#include <vector>

namespace mk {

namespace {

// After a body's awake flag changed: its bit in the awake body set, its proxies and its contacts.
void BodyAwakeChanged(WorldState& world, int slot) {
  SetBodyAwakeBit(world, slot);
  SetBodyProxiesAwake(world, slot, world.bodies[slot].awake);
  SetBodyContactsAwake(world, slot);
}

// Puts the listed bodies to sleep as one group.
template <class ForEachMember>
void SleepGroup(WorldState& world, ForEachMember forEachMember) {
  int group = world.sleepGroupIds.Allocate();
  if (group >= static_cast<int>(world.sleepGroupHead.size())) world.sleepGroupHead.resize(group + 1);
  world.sleepGroupHead[group] = kNull;
  forEachMember([&](int slot) {
    Body& body = world.bodies[slot];
    body.awake = false;
    BodyAwakeChanged(world, slot);
    body.linearVelocity = {0.0f, 0.0f};
    body.angularVelocity = 0.0f;
    body.force = {0.0f, 0.0f};
    body.torque = 0.0f;
    body.sleepGroup = group;
    body.nextInSleepGroup = world.sleepGroupHead[group];
    world.sleepGroupHead[group] = slot;
  });
}

}  // namespace

void WakeBody(WorldState& world, int slot) {
  Body& body = world.bodies[slot];
  if (body.awake || body.type == BodyType::Static) return;
  int group = body.sleepGroup;
  if (group == kNull) {
    body.awake = true;
    body.sleepTime = 0.0f;
    BodyAwakeChanged(world, slot);
    return;
  }
  for (int b = world.sleepGroupHead[group]; b != kNull;) {
    Body& member = world.bodies[b];
    int next = member.nextInSleepGroup;
    member.awake = true;
    member.sleepTime = 0.0f;
    BodyAwakeChanged(world, b);
    member.sleepGroup = kNull;
    member.nextInSleepGroup = kNull;
    b = next;
  }
  world.sleepGroupIds.Free(group);
}

void SetBodyAwakeBit(WorldState& world, int slot) {
  const std::size_t word = static_cast<std::size_t>(slot) / 64;
  if (world.awakeBodyBits.size() <= word) world.awakeBodyBits.resize(word + 1, 0);
  const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
  const bool live = world.bodyIds.IsLive(slot);
  const Body& body = world.bodies[slot];
  const bool moving = live && body.type != BodyType::Static && body.awake && body.enabled;
  world.awakeBodyBits[word] = moving ? world.awakeBodyBits[word] | bit : world.awakeBodyBits[word] & ~bit;
  world.solverBodiesStale = true;
}

void RebuildAwakeBodySet(WorldState& world) {
  world.awakeBodyBits.assign(static_cast<std::size_t>(world.bodyIds.Capacity()) / 64 + 1, 0);
  for (int slot = 0; slot < world.bodyIds.Capacity(); ++slot) SetBodyAwakeBit(world, slot);
}

void WakeAllBodies(WorldState& world) {
  for (int slot = 0; slot < world.bodyIds.Capacity(); ++slot) {
    if (world.bodyIds.IsLive(slot)) WakeBody(world, slot);
  }
}

void ClearSleepTimes(WorldState& world) {
  for (int slot = 0; slot < world.bodyIds.Capacity(); ++slot) {
    if (world.bodyIds.IsLive(slot)) world.bodies[slot].sleepTime = 0.0f;
  }
}

void WakeTouchingBodies(WorldState& world, int slot) {
  for (int key = world.bodies[slot].headContactEdge; key != kNull;) {
    const Contact& c = world.contacts[key >> 1];
    if (c.touching) WakeBody(world, c.edges[(key & 1) ^ 1].body);
    key = c.edges[key & 1].next;
  }
}

void PutIslandToSleep(WorldState& world, int start) {
  if (!world.bodies[start].awake || world.bodies[start].type == BodyType::Static) return;
  // Depth-first search over touching contacts between dynamic bodies, collecting the island.
  std::vector<int>& stack = world.islandStack;
  std::vector<int>& members = world.islandMembers;  // reused: no allocation once warm
  members.clear();
  stack.assign(1, start);
  world.bodies[start].awake = false;  // marks "visited"; SleepGroup sets the rest
  while (!stack.empty()) {
    int slot = stack.back();
    stack.pop_back();
    members.push_back(slot);
    for (int key = world.bodies[slot].headContactEdge; key != kNull;) {
      const Contact& c = world.contacts[key >> 1];
      int other = c.edges[(key & 1) ^ 1].body;
      Body& body = world.bodies[other];
      if (c.touching && body.awake && body.type == BodyType::Dynamic) {
        body.awake = false;
        stack.push_back(other);
      }
      key = c.edges[key & 1].next;
    }
    for (int key = world.bodies[slot].headJointEdge; key != kNull;) {  // joints tie islands like contacts
      const Joint& j = world.joints[key >> 1];
      int other = j.edges[(key & 1) ^ 1].body;
      if (other != kNull && j.type != JointType::Filter) {  // a filter joint ties nothing
        Body& body = world.bodies[other];
        if (body.awake && body.enabled && body.type == BodyType::Dynamic) {
          body.awake = false;
          stack.push_back(other);
        }
      }
      key = j.edges[key & 1].next;
    }
  }
  SleepGroup(world, [&](auto sleep) {
    for (int slot : members) sleep(slot);
  });
}

namespace {

// Solver body i is immovable (NeverMoves). It links no island, as a static body links none: it would
// join islands that cannot act on each other through it. A dynamic body with only its linear axes
// locked still turns, so it is linked (a pinwheel and what lies on it, a hub and its pendulum, sleep
// and wake as one).
bool Immovable(const SolverArrays& solver, int i) {
  return NeverMoves(solver.params[static_cast<std::size_t>(i)]);
}

struct SleepScan {
  bool candidate = false;     // some body has rested for timeToSleep
  bool anyImmovable = false;  // some solver body is Immovable
};

// Sleep times of the moving bodies, one step on, also copied by solver index into `sleepTimes` (what
// the island pass reads: a contiguous array instead of a Body line each). `candidate` when some
// body has rested for timeToSleep: without one no island can sleep (an island sleeps when all its
// bodies have), so the islands need not be built at all. `anyImmovable`: without one, the island
// pass need not test the links' ends. On the workers: each body writes only its own times, and both
// answers are ORs, the same whoever finds them (rain, two workers: this loop's Body lines were about
// half of UpdateSleep's samples, 2.5% of the calling thread's).
SleepScan AdvanceSleepTimes(WorldState& world, float dt, std::vector<float>& sleepTimes) {
  sleepTimes.resize(world.solverBodies.size());
  std::atomic<bool> candidate{false}, anyImmovable{false};
  ParallelFor(
      &world.tasks, static_cast<int>(world.solverBodies.size()), kMinBodiesPerBlock, [&](int begin, int end) {
        bool found = false, immovable = false;
        for (int i = begin; i < end; ++i) {
          immovable = immovable || Immovable(world.solver, i);
          Body& body = world.bodies[world.solverBodies[i]];
          float speed =
              std::max(Length(body.linearVelocity), body.maxExtent * std::fabs(body.angularVelocity));
          bool quiet = body.enableSleep && speed < body.sleepThreshold;
          body.sleepTime = quiet ? body.sleepTime + dt : 0.0f;
          // A moving kinematic body keeps itself and whatever touches it awake. Any velocity
          // counts, not `speed`: a kinematic body has no mass update, so its maxExtent stays
          // 0, and a platform turning in place (no linear velocity) slept after timeToSleep
          // and stopped.
          const bool moving =
              body.linearVelocity.x != 0.0f || body.linearVelocity.y != 0.0f || body.angularVelocity != 0.0f;
          if (body.type == BodyType::Kinematic && moving) body.sleepTime = 0.0f;
          sleepTimes[i] = body.sleepTime;
          found = found || body.sleepTime >= world.settings.timeToSleep;
        }
        if (found) candidate.store(true, std::memory_order_relaxed);
        if (immovable) anyImmovable.store(true, std::memory_order_relaxed);
      });
  return {candidate.load(std::memory_order_relaxed), anyImmovable.load(std::memory_order_relaxed)};
}

// visit(a, b) for every link between two simulated bodies (solver indices, kNull for a static or
// sleeping side): touching contacts, then joints (a joint ties its bodies into one island, so a chain
// sleeps and wakes as a whole). The contacts' 12-byte keys, not their 168-byte constraints: the same
// solver indices, a fourteenth of the lines. The joint inputs, not solver.joints: a coloured hinge has
// no constraint there.
template <class Visit>
void ForEachLink(const WorldState& world, Visit&& visit) {
  for (const ContactKey& c : world.solver.contactKeys) visit(c.indexA, c.indexB);
  for (const JointInput& j : world.jointInputs) visit(j.bodyA.index, j.bodyB.index);
}

// The islands' union-find over the solver bodies (world.islandParent). An Immovable body links no
// island; without one (most worlds), the links' ends are not read.
void LinkIslands(WorldState& world, bool anyImmovable) {
  const SolverArrays& s = world.solver;
  std::vector<int>& parent = world.islandParent;
  parent.resize(world.solverBodies.size());
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<int>(i);
  if (anyImmovable) {
    ForEachLink(world, [&](int a, int b) {
      if (a == kNull || b == kNull) return;
      if (Immovable(s, a) || Immovable(s, b)) return;
      Union(parent, a, b);
    });
  } else {
    ForEachLink(world, [&](int a, int b) {
      if (a != kNull && b != kNull) Union(parent, a, b);
    });
  }
}

}  // namespace

bool WantsIslandsAhead(const WorldState& world) {
  return world.settings.enableSleep && world.sleepCandidateLastStep;
}

void LinkIslandsAhead(WorldState& world) {
  bool anyImmovable = false;
  for (std::size_t i = 0; i < world.solver.params.size() && !anyImmovable; ++i)
    anyImmovable = Immovable(world.solver, static_cast<int>(i));
  LinkIslands(world, anyImmovable);
  world.islandsLinkedAhead = true;
}

int UpdateSleep(WorldState& world, float dt) {
  // No island work when nothing can sleep (as Box2D v3 skips its island pass then): with sleeping
  // off the sleep times stay zero (SetSolverSettings clears them when it turns sleeping off).
  // minSleepTime[i]: body i's own sleep time, then for each root its island's least (a body that is
  // no root is never written after this, so its entry keeps its own time while the roots gather).
  std::vector<float>& minSleepTime = world.islandSleepTime;
  const bool linkedAhead = std::exchange(world.islandsLinkedAhead, false);
  world.sleepCandidateLastStep = false;
  if (!world.settings.enableSleep) return 0;
  const SleepScan scan = AdvanceSleepTimes(world, dt, minSleepTime);
  world.sleepCandidateLastStep = scan.candidate;
  if (!scan.candidate) return 0;
  const SolverArrays& s = world.solver;
  const std::vector<int>& bodies = world.solverBodies;  // solver index -> body slot
  const int n = static_cast<int>(bodies.size());
  std::vector<int>& parent = world.islandParent;
  if (!linkedAhead) LinkIslands(world, scan.anyImmovable);
  world.islandPassesLinkedAhead += linkedAhead ? 1 : 0;
  int islands = 0;
  for (int i = 0; i < n; ++i) {
    int root = FindRoot(parent, i);
    islands += root == i ? 1 : 0;
    minSleepTime[root] = std::min(minSleepTime[root], minSleepTime[i]);
  }
  // Immovable bodies touching an island keep it awake through their own sleep time (a moving
  // kinematic body's stays 0, AdvanceSleepTimes).
  if (scan.anyImmovable)
    ForEachLink(world, [&](int a, int b) {
      if (a == kNull || b == kNull) return;
      for (int k : {a, b}) {
        int other = k == a ? b : a;
        if (Immovable(s, k)) {
          int root = FindRoot(parent, other);
          minSleepTime[root] = std::min(minSleepTime[root], world.bodies[bodies[k]].sleepTime);
        }
      }
    });
  // A body that has rested long enough is often in an island that has not (rain's ragdolls land on
  // the pile every step): then no island sleeps, and the member lists below are not made (they were
  // a pass over every body for nothing, on the calling thread alone).
  auto sleeps = [&](int root) { return minSleepTime[root] >= world.settings.timeToSleep; };
  bool anySleeps = false;
  for (int i = 0; i < n && !anySleeps; ++i) anySleeps = parent[i] == i && sleeps(i);
  if (!anySleeps) return islands;
  // Each sleeping island's members as a list in ascending solver index, its root first (a root is
  // its island's smallest index, Union). Walking down and inserting each member right after its root
  // builds the lists in one pass; a scan of the bodies per sleeping island was quadratic (8,000 lone
  // boxes falling asleep together took a 14 ms step, seven normal ones).
  std::vector<int>& nextMember = world.islandNextMember;
  nextMember.assign(n, kNull);
  for (int j = n - 1; j >= 0; --j) {
    const int root = FindRoot(parent, j);
    if (root == j || !sleeps(root)) continue;
    nextMember[j] = nextMember[root];
    nextMember[root] = j;
  }
  for (int i = 0; i < n; ++i) {
    if (parent[i] != i || !sleeps(i)) continue;
    SleepGroup(world, [&](auto sleep) {
      for (int j = i; j != kNull; j = nextMember[j]) sleep(bodies[j]);
    });
  }
  return islands;
}

}  // namespace mk
