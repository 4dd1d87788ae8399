// SPDX-License-Identifier: MIT
// The solver stage of World::Step: gathers the awake bodies, touching contacts and joints into the
// solver's inputs, runs the solver's stages (engine/src/solver, which sees no World), and scatters
// velocities, transforms, hit events and joint reactions back.
#include "core/parallel.h"
#include "solver/solver.h"
#include "world/world_internal.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

namespace mk {

namespace {

// Lists the moving bodies (the awake body set: awake, enabled, not static) in slot order and gives
// each its solver index. Only the old list's bodies can hold one.
void RebuildSolverBodies(WorldState& world) {
  for (int slot : world.solverBodies) world.bodies[slot].solverIndex = kNull;
  world.solverBodies.clear();
  world.lockedBodies.clear();
  ForEachAwakeBody(world, [&](int slot) {
    world.bodies[slot].solverIndex = static_cast<int>(world.solverBodies.size());
    world.solverBodies.push_back(slot);
    if (world.bodies[slot].locks != 0) world.lockedBodies.push_back(slot);
  });
  world.solverBodiesStale = false;
}

// The moving bodies [begin, end)'s velocities and parameters into the solver's rows (GatherBodies);
// with `joints`, their joint sides too (a template argument: one loop each, no test per body).
template <bool joints>
void GatherBodyRange(WorldState& world, const StepContext& context, int begin, int end) {
  SolverArrays& solver = world.solver;
  for (std::size_t i = static_cast<std::size_t>(begin); i < static_cast<std::size_t>(end); ++i) {
    const int slot = world.solverBodies[i];
    const Body& body = world.bodies[slot];
    if constexpr (joints) {
      WorldState::JointSideOf& side = world.jointSides[slot];
      side.side.q = body.xf.q;
      side.side.center = body.center;
      side.side.localCenter = body.localCenter;
      side.side.index = body.solverIndex;
      side.stamp = world.gatherStamp;
    }
    BodyState& state = solver.states[i];  // filled in place (see GatherJoints)
    state = BodyState{};
    state.v = body.linearVelocity;
    state.w = body.angularVelocity;
    BodyParams& params = solver.params[i];
    params = BodyParams{};  // kinematic: no mass, no acceleration
    if (body.type == BodyType::Dynamic) {
      params = MakeBodyParams({.invMass = body.invMass,
                               .invInertia = body.invInertia,
                               .gravity = body.gravityScale * world.gravity,
                               .force = body.force,
                               .torque = body.torque,
                               .linearDamping = body.linearDamping,
                               .angularDamping = body.angularDamping},
                              context);
    }
  }
}

// The moving bodies' velocities and parameters into the solver's body arrays, by solver index. The
// list of them persists between steps (WorldState::solverBodies) and is rebuilt only when the set
// changed, so a step where no body sleeps, wakes, appears or goes visits nothing but that list.
// When there are joints, notes what GatherJoints needs of each moving body (WorldState::jointSides).
void GatherBodies(WorldState& world, const StepContext& context) {
  if (world.solverBodiesStale) RebuildSolverBodies(world);
  SolverArrays& solver = world.solver;
  const std::size_t count = world.solverBodies.size();
  solver.states.resize(count);
  solver.params.resize(count);
  const bool joints = world.jointIds.LiveCount() > 0;
  if (joints) {
    world.jointSides.resize(world.bodies.size());
    if (++world.gatherStamp == 0) {  // wrapped (after 2^32 steps): no old entry may look fresh
      for (WorldState::JointSideOf& side : world.jointSides) side.stamp = 0;
      world.gatherStamp = 1;
    }
  }
  // Each body writes its own rows (and its own joint side): the workers share the bodies.
  ParallelFor(context.tasks, static_cast<int>(count), kMinBodiesPerBlock, [&](int begin, int end) {
    if (joints) {
      GatherBodyRange<true>(world, context, begin, end);
    } else {
      GatherBodyRange<false>(world, context, begin, end);
    }
  });
  solver.locks.clear();
  for (int slot : world.lockedBodies) {
    const Body& body = world.bodies[slot];
    solver.locks.push_back({body.solverIndex, body.locks});
  }
}

// Field by field, into the input in place: g++ 12 built a returned ContactBody on the stack with
// narrow stores and copied it out with wide loads, and each wide load waited for the narrow stores
// (a failed store-to-load forward, some 12 cycles): 8% of many_pyramids' step.
void SetContactSide(ContactBody& side, const Body& body) {
  side.center = body.center;
  side.linearVelocity = body.linearVelocity;
  side.angularVelocity = body.angularVelocity;
  side.index = body.solverIndex;
#if defined(MK_LARGE_WORLDS)
  side.originToCenter = body.center - body.xf.p;
#endif
}

// The two bodies of a contact: the edges name them (a shape never changes body) without a Shape read.
const Body& BodyA(const WorldState& world, const Contact& contact) {
  return world.bodies[contact.edges[0].body];
}
const Body& BodyB(const WorldState& world, const Contact& contact) {
  return world.bodies[contact.edges[1].body];
}

// A touching contact (manifold points) makes a solver input when one of its bodies moves.
bool EitherMoves(const Body& bodyA, const Body& bodyB) {
  return bodyA.solverIndex != kNull || bodyB.solverIndex != kNull;
}

// A contact's solver input. Without surface shapes (anySurface false) it leaves the rolling
// resistance and tangent speed as they are: 0 in a fresh input.
void FillContactInput(ContactInput& input, Contact& contact, const Body& bodyA, const Body& bodyB, int slot,
                      bool anySurface) {
  input.manifold = &contact.manifold;
  SetContactSide(input.bodyA, bodyA);
  SetContactSide(input.bodyB, bodyB);
  input.friction = contact.friction;
  input.restitution = contact.restitution;
  if (anySurface) {
    input.rollingResistance = contact.rollingResistance;
    input.tangentSpeed = contact.tangentSpeed;
  }
  input.id = slot;
  input.enableHitEvents = contact.enableHitEvents;
}

// GatherContacts on the workers: each touching contact's input filled in its place, in one pass that
// also marks the contacts without a moving body (a byte each, the hit-event wish in its second bit);
// those are rare (a touching contact is awake, so one of its bodies is), and only then are the inputs
// compacted here, in order. Two passes (mark, then fill the kept) read every record twice.
void GatherContactsOnWorkers(WorldState& world, const TaskSystem* tasks) {
  std::vector<int>& slots = world.gatherSlots;
  std::vector<std::uint8_t>& keep = world.gatherKeep;
  CollectTouchingContactSlots(world, slots);
  const std::size_t count = slots.size();
  keep.resize(count);
  std::vector<ContactInput>& inputs = world.contactInputs;
  inputs.resize(count);
  const bool anySurface = world.maySurfaceShapes;
  std::atomic<bool> anyDropped{false};
  std::atomic<std::uint8_t> wishes{0};
  ParallelFor(tasks, static_cast<int>(count), kMinContactsPerRange, [&](int begin, int end) {
    bool dropped = false;
    std::uint8_t rangeWishes = 0;
    for (int k = begin; k < end; ++k) {
      Contact& contact = world.contacts[slots[k]];
      const Body& bodyA = BodyA(world, contact);
      const Body& bodyB = BodyB(world, contact);
      const bool makes = EitherMoves(bodyA, bodyB);
      keep[k] = static_cast<std::uint8_t>(makes ? 1 + (contact.enableHitEvents ? 2 : 0) : 0);
      dropped = dropped || !makes;
      rangeWishes |= keep[k];
      if (!makes) continue;
      inputs[k] = ContactInput{};  // kept from an earlier step: fresh, as the serial gather's are
      FillContactInput(inputs[k], contact, bodyA, bodyB, slots[k], anySurface);
    }
    if (dropped) anyDropped.store(true, std::memory_order_relaxed);
    wishes.fetch_or(rangeWishes, std::memory_order_relaxed);
  });
  world.contactInputsWantHits = (wishes.load(std::memory_order_relaxed) & 2) != 0;
  if (!anyDropped.load(std::memory_order_relaxed)) return;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (keep[i] == 0) continue;
    if (kept != i) inputs[kept] = inputs[i];  // kept <= i: compacts in place, in slot order
    ++kept;
  }
  inputs.resize(kept);
}

// Touching contacts (manifold points) with at least one moving body, in slot order: the awake set's
// (a contact of two sleeping or static bodies has none).
void GatherContacts(WorldState& world, const TaskSystem* tasks) {
  if (HasWorkers(tasks)) {
    GatherContactsOnWorkers(world, tasks);
    return;
  }
  std::vector<ContactInput>& inputs = world.contactInputs;
  inputs.clear();
  const bool anySurface = world.maySurfaceShapes;
  bool anyHitEvents = false;
  // The slots first, so the walk can look ahead: a contact's bodies and its materials are three or
  // four cache lines of a record among tens of thousands (the spinner's 46,000), and without the
  // prefetch each was a wait.
  std::vector<int>& slots = world.gatherSlots;
  CollectTouchingContactSlots(world, slots);
  const std::size_t count = slots.size();
  for (std::size_t i = 0; i < count; ++i) {
    if (i + 8 < count) PrefetchContactRecord(world.contacts[slots[i + 8]]);
    Contact& contact = world.contacts[slots[i]];
    const Body& bodyA = BodyA(world, contact);
    const Body& bodyB = BodyB(world, contact);
    if (!EitherMoves(bodyA, bodyB)) continue;
    FillContactInput(inputs.emplace_back(), contact, bodyA, bodyB, slots[i], anySurface);  // fresh
    anyHitEvents |= contact.enableHitEvents;
  }
  world.contactInputsWantHits = anyHitEvents;
}

// What GatherJoints reads of a body that does not move this step (static, asleep or disabled).
JointBody StillSide(const Body& body) { return {body.xf.q, body.center, body.localCenter, kNull}; }

// Whether GatherJoints lists joint `slot`: live, not a filter joint, at least one of its bodies moving
// this step (`fresh`: GatherBodies' stamp), and no disabled body. movingA / movingB say which move.
[[gnu::always_inline]] inline bool JointToSolve(const WorldState& world, int slot, std::uint32_t fresh,
                                                bool& movingA, bool& movingB) {
  if (!world.jointIds.IsLive(slot)) return false;
  const auto [a, b] = world.jointEnds[slot];  // not the Joint's edges: a cache line less per joint
  if (b == kNull) return false;               // a filter joint: no rows (joints.cpp, NewJoint)
  const std::vector<WorldState::JointSideOf>& sides = world.jointSides;  // GatherBodies wrote the moving
  movingA = a != kNull && sides[a].stamp == fresh;
  movingB = sides[b].stamp == fresh;
  if (!movingA && !movingB) return false;  // neither body moves: nothing to solve
  // A disabled body's joints do nothing.
  return !((a != kNull && !movingA && !world.bodies[a].enabled) || (!movingB && !world.bodies[b].enabled));
}

// Joint `slot`'s input, every field written (the parallel gather fills entries left from the last step).
// Field by field: GCC builds a braced temporary on the stack with narrow stores and copies it out with
// wide loads, which cannot be forwarded from those stores (a stall per input; perf showed 10% of
// joint_grid's time on those copies).
[[gnu::always_inline]] inline void FillJointInput(WorldState& world, int slot, bool movingA, bool movingB,
                                                  JointInput& input) {
  const auto [a, b] = world.jointEnds[slot];
  const std::vector<WorldState::JointSideOf>& sides = world.jointSides;
  Joint& j = world.joints[slot];
  input.joint = &j;
  if (movingA) {
    input.bodyA = sides[a].side;
  } else if (a != kNull) {
    input.bodyA = StillSide(world.bodies[a]);
  } else {  // a mouse joint: its target, as a body that does not move
    input.bodyA.q = Rot{};
    input.bodyA.center = j.target;
    input.bodyA.localCenter = {0.0f, 0.0f};
    input.bodyA.index = kNull;
  }
  input.bodyB = movingB ? sides[b].side : StillSide(world.bodies[b]);
}

// Joint slots per block of the gather on workers: fixed, so the blocks (and the inputs' order, slot
// order) do not depend on the worker count.
constexpr int kJointSlotsPerBlock = 1024;

// GatherJoints on the workers: each block counts its joints, the counts become each block's first
// input, then each block fills its inputs in slot order. Writing joint_grid's 20,000 inputs (64 bytes
// each, a cache line written per joint) was a third of the calling thread's own solver time on two
// workers. The inputs' size usually equals the last step's, so the resize writes nothing.
void GatherJointsOnWorkers(WorldState& world, const TaskSystem* tasks) {
  const std::uint32_t fresh = world.gatherStamp;
  const int capacity = world.jointIds.Capacity();
  const int blocks = (capacity + kJointSlotsPerBlock - 1) / kJointSlotsPerBlock;
  std::vector<int>& firstInput = world.jointBlockFirstInput;
  firstInput.resize(static_cast<std::size_t>(blocks) + 1);
  const auto blockSlots = [&](int block) {
    return std::pair{block * kJointSlotsPerBlock, std::min(capacity, (block + 1) * kJointSlotsPerBlock)};
  };
  ParallelFor(tasks, blocks, 1, [&](int begin, int end) {
    for (int block = begin; block < end; ++block) {
      int count = 0;
      bool movingA = false, movingB = false;
      for (auto [slot, last] = blockSlots(block); slot < last; ++slot)
        count += JointToSolve(world, slot, fresh, movingA, movingB) ? 1 : 0;
      firstInput[static_cast<std::size_t>(block) + 1] = count;
    }
  });
  firstInput[0] = 0;
  for (int block = 0; block < blocks; ++block) firstInput[block + 1] += firstInput[block];
  std::vector<JointInput>& inputs = world.jointInputs;
  inputs.resize(static_cast<std::size_t>(firstInput[blocks]));
  ParallelFor(tasks, blocks, 1, [&](int begin, int end) {
    for (int block = begin; block < end; ++block) {
      JointInput* out = inputs.data() + firstInput[block];
      bool movingA = false, movingB = false;
      for (auto [slot, last] = blockSlots(block); slot < last; ++slot)
        if (JointToSolve(world, slot, fresh, movingA, movingB))
          FillJointInput(world, slot, movingA, movingB, *out++);
    }
  });
}

// Joints of enabled bodies with at least one moving body, in slot order. A mouse joint's body A is
// its target.
void GatherJoints(WorldState& world, const TaskSystem* tasks) {
  if (HasWorkers(tasks) && world.jointIds.Capacity() > kJointSlotsPerBlock) {
    GatherJointsOnWorkers(world, tasks);
    return;
  }
  std::vector<JointInput>& inputs = world.jointInputs;
  inputs.clear();
  const std::uint32_t fresh = world.gatherStamp;
  for (int slot = 0; slot < world.jointIds.Capacity(); ++slot) {
    bool movingA = false, movingB = false;
    if (JointToSolve(world, slot, fresh, movingA, movingB))
      FillJointInput(world, slot, movingA, movingB, inputs.emplace_back());
  }
}

void ReportHits(WorldState& world) {
  for (const ContactHit& hit : world.solver.hits) {
    const Contact& contact = world.contacts[hit.id];
    world.hitEvents.push_back(
        {world.MakeShapeId(contact.shapeA), world.MakeShapeId(contact.shapeB),
         ToWorld(world, ContactPointInWorld(world.bodies[world.shapes[contact.shapeA].body].xf,
                                            contact.manifold.points[hit.point].point)),
         contact.manifold.normal, hit.approachSpeed, world.MakeContactId(hit.id)});
  }
}

// How ScatterBody lists a body for continuous collision (the low bits), with kPivotBit when it pivots
// (BodyMotion::Pivoting): not listed for that, but counted for the narrowphase (anyPivoting).
enum class Fast : std::uint8_t { No, Body, Bullet };
inline constexpr std::uint8_t kFastBits = 3;
inline constexpr std::uint8_t kPivotBit = 4;
// A ticket in the parallel scatter's list for a body whose proxies the calling thread walks
// (QueueBodyProxies), its solver index below: above any broadphase ticket, whose top bit is clear.
inline constexpr std::uint64_t kWalkBodyTicket = std::uint64_t{1} << 63;

// Solver body i's velocities and the step's motion (dp, dq) back into its Body, its shapes' tight boxes
// recomputed. The start pose is kept for continuous collision; a dynamic body that moved far for its
// size this step is reported fast (one comparison per body when nothing is fast). Writes only the
// body and its shapes' boxes, so the parallel scatter may run it for many bodies at once.
[[gnu::always_inline]] inline std::uint8_t ScatterBody(WorldState& world, const StepContext& context,
                                                       std::size_t i) {
  Body& body = world.bodies[world.solverBodies[i]];
  const BodyState& state = world.solver.states[i];
  body.center0 = body.center;
  body.q0 = body.xf.q;
  body.motion = BodyMotion::Slow;
  std::uint8_t fast = static_cast<std::uint8_t>(Fast::No);
  if (context.settings.enableContinuous && body.type == BodyType::Dynamic) {
    // A turn moves the surface by at most |w| dt times the farthest core point's distance: the
    // rounding radius turns onto itself (a wheel rolling at 7.5 m/s was listed by its rim speed).
    const float turn = std::fabs(state.w) * context.dt * body.turnExtent;
    const float shift = Length(state.dp);
    const float motion = shift + turn;
    // Which bodies pivot (their touching still pairs grow next step, BodyMotion::Pivoting). Never one
    // with a joint: a ring member stopped early by a grown point holds its partners back with it
    // (soft_body's welded ring slept 104 steps later). A slow body when its turn could close the
    // speculative distance between a far point and the touching one, which the solver holds: a
    // translation moves both alike, a turn each by at most `turn`. A fast one only when its turn outweighs
    // its translation: a box tipping over on a corner at 135 to 240 rad/s (the thin throws' residuals) is
    // one; a body flying past a wall, mostly translating, is swept by the continuous stage, and growing its
    // pairs cost spinner 1% of its step (docs/design.md, issue 28's residuals).
    if (motion > kContinuousFastFraction * body.minExtent) {
      fast = static_cast<std::uint8_t>(body.isBullet ? Fast::Bullet : Fast::Body);
      // Its contacts are computed afresh next step (no recycling).
      const bool pivots = turn > shift && body.headJointEdge == kNull;
      body.motion = pivots ? BodyMotion::FastPivoting : BodyMotion::Fast;
      if (pivots) fast |= kPivotBit;
    } else if (2.0f * turn > context.settings.speculativeDistance && body.headJointEdge == kNull) {
      body.motion = BodyMotion::Pivoting;
      fast = kPivotBit;
    }
  }
  // A listed body's hold is decided by continuous.cpp.
  if (!MovedFast(body.motion)) body.heldAtStart = false;
  body.linearVelocity = state.v;
  body.angularVelocity = state.w;
  body.center += state.dp;
  body.xf.q = MulRot(state.dq, body.xf.q);
  // Renormalise so rounding never accumulates into a non-unit rotation over long runs.
  float inv = 1.0f / std::sqrt(body.xf.q.c * body.xf.q.c + body.xf.q.s * body.xf.q.s);
  body.xf.q = {body.xf.q.c * inv, body.xf.q.s * inv};
  body.xf.p = body.center - Rotate(body.xf.q, body.localCenter);
  body.force = {0.0f, 0.0f};
  body.torque = 0.0f;
  return fast;
}

void ListFast(WorldState& world, std::size_t i, std::uint8_t report) {
  if (report == 0) return;
  if (report & kPivotBit) world.anyPivoting = true;
  const Fast fast = static_cast<Fast>(report & kFastBits);
  if (fast != Fast::No)
    (fast == Fast::Bullet ? world.fastBullets : world.fastBodies).push_back(world.solverBodies[i]);
}

// Velocities and the step's motion back to the bodies; their proxies follow (ScatterBody).
void ScatterBodies(WorldState& world, const StepContext& context) {
  world.fastBodies.clear();
  world.fastBullets.clear();
  world.anyPivoting = false;
  const std::size_t count = world.solverBodies.size();
  if (!HasWorkers(context.tasks)) {
    for (std::size_t i = 0; i < count; ++i) {
      ListFast(world, i, ScatterBody(world, context, i));
      UpdateBodyShapesInBroadphase(world, world.solverBodies[i], /*teleport=*/false);
    }
    return;
  }
  // On the workers: the bodies, their shapes' boxes and their proxies' fat boxes, and the claims of the
  // proxies that left their fat boxes (flags only: BroadPhase::ClaimRefittedProxy); each range lists
  // its fast and pivoting bodies and its tickets from its first body's place. Then, on this thread,
  // the ranges in body order: the fast lists, and the tickets appended to the broadphase's move list in
  // the order of UpdateBodyShapesInBroadphase's moves above. A body hands over the proxies it
  // re-centred (up to kListedRefits), so that no thread need read the body's and its shapes' lines
  // again (rain's ragdolls' feet, two shapes each, were walked until 2026-12-05); the claims moved to
  // the workers on 2026-12-06 (joint_grid: the loop over every body was 0.03 ms of the calling thread
  // alone a step).
  std::vector<ListedBody>& listed = world.scatterListed;
  std::vector<std::uint64_t>& tickets = world.scatterTickets;
  std::vector<ScatterRange>& ranges = world.scatterRanges;
  listed.resize(count);
  tickets.resize(2 * count);  // kListedRefits tickets a body, or one walk
  ranges.resize(count);
  static_assert(kListedRefits <= 2);
  ParallelFor(context.tasks, static_cast<int>(count), kMinBodiesPerBlock, [&](int begin, int end) {
    ScatterRange range{end, 0, 0};
    std::uint64_t* rangeTickets = tickets.data() + 2 * static_cast<std::size_t>(begin);
    for (int i = begin; i < end; ++i) {
      const std::size_t body = static_cast<std::size_t>(i);
      const std::uint8_t report = ScatterBody(world, context, body);
      if (report != 0) listed[static_cast<std::size_t>(begin + range.listed++)] = {i, report};
      ScatterRefits refitted;
      const int refits = RefitBodyProxies(world, world.solverBodies[body], refitted);
      if (refits > kListedRefits) {
        rangeTickets[range.tickets++] = kWalkBodyTicket | body;
        continue;
      }
      for (int k = 0; k < refits; ++k) {
        std::uint64_t ticket = 0;
        world.broadphase.ClaimRefittedProxy(refitted.proxy[k], ticket);
        if (ticket != 0) rangeTickets[range.tickets++] = ticket;
      }
    }
    ranges[static_cast<std::size_t>(begin)] = range;
  });
  for (std::size_t begin = 0; begin < count; begin = static_cast<std::size_t>(ranges[begin].end)) {
    const ScatterRange& range = ranges[begin];
    for (int k = 0; k < range.listed; ++k) {
      const ListedBody& entry = listed[begin + static_cast<std::size_t>(k)];
      ListFast(world, static_cast<std::size_t>(entry.body), entry.report);
    }
    // The tickets in runs between the bodies whose proxies are walked here.
    const std::uint64_t* rangeTickets = tickets.data() + 2 * begin;
    int run = 0;
    for (int k = 0; k <= range.tickets; ++k) {
      if (k < range.tickets && (rangeTickets[k] & kWalkBodyTicket) == 0) continue;
      world.broadphase.QueueClaimedProxies(Span<const std::uint64_t>(rangeTickets + run, k - run));
      if (k < range.tickets)
        QueueBodyProxies(world,
                         world.solverBodies[static_cast<std::size_t>(rangeTickets[k] & ~kWalkBodyTicket)]);
      run = k + 1;
    }
  }
}

}  // namespace

// The continuous stage moves bodies along their sweeps (rebuilt from angles), and the solver's scatter
// renormalises every rotation: both may move a locked axis by a rounding. Each locked body's held
// axes go back to their values at the start of the Step, exactly.
void HoldLockedBodies(WorldState& world) {
  for (int slot : world.lockedBodies) {
    Body& body = world.bodies[slot];
    const Pos center = body.center;
    const Rot q = body.xf.q;
    if (body.locks & kLockLinearX) body.center.x = body.center0.x;
    if (body.locks & kLockLinearY) body.center.y = body.center0.y;
    if (body.locks & kLockAngular) body.xf.q = body.q0;
    if (center.x == body.center.x && center.y == body.center.y && q.c == body.xf.q.c && q.s == body.xf.q.s)
      continue;
    body.xf.p = body.center - Rotate(body.xf.q, body.localCenter);
    UpdateBodyShapesInBroadphase(world, slot, /*teleport=*/false);
  }
}

namespace {

// Whether this step's sub-steps go to the workers (WorldDef::subStepWorkers); the world has workers.
bool SubStepsOnWorkers(const WorldState& world) {
  switch (world.subStepWorkers) {
    case WorkerUse::Workers:
      return true;
    case WorkerUse::CallingThread:
      return false;
    case WorkerUse::Measured:
      break;
  }
  return world.subStepChoice.NextOnWorkers();
}

// Measured's timing: from the sub-steps to the scatter, which reads what they wrote and so pays for
// the lines that stayed in the other core's cache (the same stages the choice moves, and what they
// leave to the next: docs/benchmarks.md, "The sub-steps on the calling thread while that is faster").
void RecordSubStepTime(WorldState& world, std::chrono::steady_clock::time_point start) {
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const std::size_t items = world.solverBodies.size() + world.contactInputs.size() + world.jointInputs.size();
  world.subStepChoice.Record(ms, static_cast<int>(std::min<std::size_t>(items, INT32_MAX)));
}

}  // namespace

// The stage list of the solver step (the sub-steps' own list is RunSubSteps, solver/solver.cpp).
void SolveStep(WorldState& world, float dt) {
  StepContext context = MakeStepContext(dt, world.settings);
  context.tasks = &world.tasks;
  SolverArrays& solver = world.solver;
  WakeJointPartners(world);
  GatherBodies(world, context);
  GatherContacts(world, context.tasks);
  GatherJoints(world, context.tasks);
  PrepareContacts(world.contactInputs, solver, context, world.maySurfaceShapes);
  PrepareJoints(world.jointInputs, solver, context);
  // The sub-steps, restitution and the caps on the workers or on this thread alone (WorkerUse): the
  // stages are cut for the workers either way, so the results are the same.
  const bool workers = HasWorkers(&world.tasks);
  const bool subStepsOnWorkers = workers && SubStepsOnWorkers(world);
  const TaskSystem here = OnCallingThread(world.tasks);
  if (workers && !subStepsOnWorkers) context.tasks = &here;
  const auto start = std::chrono::steady_clock::now();
  RunSubSteps(solver, context, world.contactInputs);
  if (context.settings.enableRestitution) ApplyRestitution(solver, context);
  if (CapSpeeds(solver, context)) DropCappedImpulses(solver, world.contactInputs);
  ApplyMotionLocks(solver);  // restitution may have moved a locked velocity
  context.tasks = &world.tasks;
  StoreContactImpulses(world.contactInputs, solver, context);
  if (world.contactInputsWantHits) {
    ListContactHits(world.contactInputs, solver, context);
  } else {
    solver.hits.clear();  // no input asks: skip the pass over every input
  }
  StoreJointImpulses(world.jointInputs, solver, context);
  ReportHits(world);
  ScatterBodies(world, context);
  world.profile.subStepWorkers = subStepsOnWorkers ? world.tasks.workerCount : 1;
  if (workers && world.subStepWorkers == WorkerUse::Measured) RecordSubStepTime(world, start);
}

}  // namespace mk
