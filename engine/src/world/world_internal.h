// SPDX-License-Identifier: MIT
// Internal: operations on WorldState shared by the API (world.cpp, body.cpp, shape.cpp, joints.cpp),
// the step (step.cpp), contacts (contacts.cpp), sleep (sleep.cpp) and the broadphase link
// (broadphase_link.cpp).
#pragma once

#include "minkowski/assert.h"
#include "world/world_frames.h"
#include "world/world_state.h"

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mk {

// The world lock (WorldState::lockDepth, walkDepth). One branch at the top of each API call, nothing
// per contact or per step stage.
/// Holds the world locked for its scope; with `walk`, also marks a broadphase walk calling game code.
class WorldLock {
 public:
  WorldLock(WorldState& world, bool walk) : world_(world), walk_(walk) {
    ++world_.lockDepth;
    if (walk_) ++world_.walkDepth;
  }
  ~WorldLock() {
    --world_.lockDepth;
    if (walk_) --world_.walkDepth;
  }
  WorldLock(const WorldLock&) = delete;
  WorldLock& operator=(const WorldLock&) = delete;

 private:
  WorldState& world_;
  bool walk_;
};

/// True (after a failed MK_ASSERT) when a mutating call must be refused: the world is locked.
inline bool RefuseIfLocked(const WorldState& world) {
  const bool worldUnlocked = world.lockDepth == 0;
  MK_ASSERT(worldUnlocked);
  return !worldUnlocked;
}

/// True (after a failed MK_ASSERT) when a query must be refused: a broadphase walk is calling game code.
inline bool RefuseIfWalking(const WorldState& world) {
  const bool noWalkRunning = world.walkDepth == 0;
  MK_ASSERT(noWalkRunning);
  return !noWalkRunning;
}

// API validation shared by body.cpp, shape.cpp and joints.cpp: a length or point the world accepts is finite
// and within kMaxWorldLength (world_types.h). Both are false for NaN and Inf.
inline bool ValidLength(float x) { return std::fabs(x) <= kMaxWorldLength; }
inline bool ValidPoint(Vec2 p) { return ValidLength(p.x) && ValidLength(p.y); }
// World positions at the API and the world's internal frame (world_state.h, WorldState::origin): the
// same in the default build; in the large-world build the internal one is relative to WorldDef::origin
// (exact in double: both are doubles far from their bounds).
inline Pos ToInternal([[maybe_unused]] const WorldState& world, Pos p) {
#if defined(MK_LARGE_WORLDS)
  return {p.x - world.origin.x, p.y - world.origin.y};
#else
  return p;
#endif
}
inline Pos ToWorld([[maybe_unused]] const WorldState& world, Pos p) {
#if defined(MK_LARGE_WORLDS)
  return {p.x + world.origin.x, p.y + world.origin.y};
#else
  return p;
#endif
}
#if defined(MK_LARGE_WORLDS)
inline WorldTransform ToInternal(const WorldState& world, const WorldTransform& xf) {
  return {ToInternal(world, xf.p), xf.q};
}
inline WorldTransform ToWorld(const WorldState& world, const WorldTransform& xf) {
  return {ToWorld(world, xf.p), xf.q};
}
#else
inline const WorldTransform& ToInternal(const WorldState&, const WorldTransform& xf) { return xf; }
inline const WorldTransform& ToWorld(const WorldState&, const WorldTransform& xf) { return xf; }
#endif

// A world position: within kMaxWorldPosition (kMaxWorldLength in the default build).
#if defined(MK_LARGE_WORLDS)
inline bool ValidPosition(Pos p) {
  return std::fabs(p.x) <= kMaxWorldPosition && std::fabs(p.y) <= kMaxWorldPosition;
}
#else
inline bool ValidPosition(Pos p) { return ValidPoint(p); }
#endif

// Bodies (body.cpp, body_features.cpp) and shapes (shape.cpp)
/// Body::locks bits (MotionLocks).
inline constexpr std::uint8_t kLockLinearX = 1, kLockLinearY = 2, kLockAngular = 4;
inline constexpr std::uint8_t kLockLinear = kLockLinearX | kLockLinearY;
inline constexpr std::uint8_t kLockAll = kLockLinear | kLockAngular;
/// The velocity with its locked components (Body::locks) zeroed.
inline Vec2 LockedVelocity(std::uint8_t locks, Vec2 v) {
  return {(locks & kLockLinearX) ? 0.0f : v.x, (locks & kLockLinearY) ? 0.0f : v.y};
}
/// Body::locks of a def's MotionLocks and fixedRotation (either locks rotation).
std::uint8_t LocksOf(const MotionLocks& locks, bool fixedRotation);
/// Changes a body's locks: velocities along locked axes zeroed, mass updated, solver lists rebuilt.
void SetBodyLocks(WorldState& world, int body, int locks);
/// Holds the locked axes of the moving bodies that have locks (WorldState::lockedBodies) exactly where
/// they were when the Step began, after the continuous stage moved bodies (solve.cpp).
void HoldLockedBodies(WorldState& world);
void UpdateBodyMass(WorldState& world, int body);
/// UpdateBodyMass after a change to the body's shapes or rotation; when its mass or inertia changed,
/// its contacts' and joints' warm-start impulses are dropped (they were solved for the old values).
void BodyMassChanged(WorldState& world, int body);
MassData ShapeMass(const WorldState& world, int shapeSlot);
/// A shape's own mass data is usable when it is finite, within kMaxBodyMass and kMaxBodyInertia,
/// and its mass and inertia, if not 0, have finite inverses. Every subset of such shapes then has too (the
/// sum's mass and central inertia are at least each member's), so destroying shapes can never leave a body
/// with an infinite inverse.
bool MassIsUsable(const MassData& data);
/// The sum over a body's shapes, added in the order the shapes were made, so that a new shape adds
/// to the sum before it exactly (AddToShapeMassSum): a dynamic body's CreateShape is O(1) in the
/// shapes the body has. Cached in WorldState::bodyShapeMass; a shape that leaves or changes makes it
/// unknown (ForgetShapeMassSum), to be summed again when next asked.
const BodyMassSum& ShapeMassSum(WorldState& world, int body);
/// A new shape's `mass` added to the body's kept sum, if it is known.
void AddToShapeMassSum(WorldState& world, int body, const MassData& mass);
/// Whether a dynamic body's shapes stay usable together (BodyMassSum::Finite) with a new shape of
/// `mass` (shape kNull) or with `shape`'s mass data replaced by `mass`. Static and kinematic bodies
/// have no mass: their shapes are only checked alone (MassIsUsable), and SetType refuses to make
/// such a body dynamic while its shapes together would not be usable. So a static body's shapes
/// never need their sum: a level of thousands of tiles on one static body builds in linear time, and
/// breaking a tile and making another costs no pass over the others (docs/benchmarks.md, "Building a
/// body of many shapes").
bool SumStaysUsable(WorldState& world, int body, int shape, const MassData& mass);
/// ShapeMassSum without caching (a const world: GetMassData).
BodyMassSum ShapeMassSumOf(const WorldState& world, int body);
/// The sum as it would be with `shape`'s mass data replaced by `mass`, in the same order (what
/// SetDensity and a new geometry check before they change the shape).
BodyMassSum ShapeMassSumWith(const WorldState& world, int body, int shape, const MassData& mass);
void ForgetShapeMassSum(WorldState& world, int body);
void DestroyShapeInternal(WorldState& world, int shape, bool updateMass);
/// DestroyShapeInternal once the shape's contacts are gone (DestroyContactsOfShapes).
void RemoveShapeWithoutContacts(WorldState& world, int shape, bool updateMass);
/// WorldState::shapePrev from the bodies' lists (Body::headShape, Shape::nextShape): after a restore.
void RebuildShapePrev(WorldState& world);
/// Adds a validated shape to a body (slot, proxy, links), without updating the body's mass. Returns the slot.
int InsertShape(WorldState& world, int bodySlot, const ShapeDef& def, const ShapeGeometry& geometry);
/// CreateShape's checks and insertion, for a standalone chain segment (shape_api.h's
/// CreateChainSegmentShape): null id after MK_ASSERT when refused.
ShapeId AddChainSegmentShape(WorldState& world, BodyId body, const ShapeDef& def,
                             const ChainSegment& segment);
/// Friction and restitution in 0..kMaxMaterialCoefficient (world_types.h); false for NaN.
bool ValidCoefficient(float x);
/// Every field of a SurfaceMaterial in its documented range (world_types.h); false for NaN.
bool ValidMaterial(const SurfaceMaterial& material);
SurfaceMaterial MaterialOf(const ShapeDef& def);
void SetShapeMaterial(WorldState& world, Shape& shape, const SurfaceMaterial& material);
SurfaceMaterial GetShapeMaterial(const Shape& shape);
/// The geometry checks CreateShape and CreateChain apply (finite, within kMaxWorldLength, what the
/// type's Make* constructor or ValidatePolygon requires); snapshots apply them too (shape.cpp).
bool ValidGeometry(const Circle& circle);
bool ValidGeometry(const Capsule& capsule);
bool ValidGeometry(const Segment& segment);
bool ValidGeometry(const Polygon& polygon);
bool ValidGeometry(const ChainSegment& segment);
/// Clamps `requested` into `settings` as World::SetSolverSettings does (NaN fields keep their value)
/// and returns whether nothing had to change; no other effect (world.cpp).
bool ClampSolverSettings(SolverSettings& settings, const SolverSettings& requested);
/// Frees the chains of a body that is being destroyed (its shapes are destroyed by the caller).
void FreeChainsOfBody(WorldState& world, int body);

// Broadphase link (broadphase_link.cpp)
void AddShapeToBroadphase(WorldState& world, int shape);
void RemoveShapeFromBroadphase(WorldState& world, int shape);
/// Recomputes the AABBs of a body's shapes and moves their proxies (teleport: force a re-sort).
void UpdateBodyShapesInBroadphase(WorldState& world, int body, bool teleport);
/// UpdateBodyShapesInBroadphase in two halves, for the parallel scatter (solve.cpp). RefitBodyProxies:
/// the body's shapes' tight boxes at its transform and their proxies' fat boxes re-centred where they
/// left them (BroadPhase::RefitProxy; writes only this body's shapes and proxies, so bodies may run side
/// by side); it returns how many it re-centred (kListedRefits + 1 for more) and lists them in shape
/// order in `refitted` when they are at most kListedRefits. QueueBodyProxies, on one thread in body
/// order: those proxies queued for the next pair update, which then equals
/// UpdateBodyShapesInBroadphase's. Claiming the listed proxies on the workers and queueing the tickets
/// in body order (BroadPhase::ClaimRefittedProxy, QueueClaimedProxies) is QueueBodyProxies without the
/// walk over the body's and its shapes' lines, which the parallel scatter's workers wrote (a ragdoll's
/// foot has two shapes).
int RefitBodyProxies(WorldState& world, int body, ScatterRefits& refitted);
void QueueBodyProxies(WorldState& world, int body);
/// Adds (enabled) or removes (disabled) all proxies of a body.
void SetBodyShapesInBroadphase(WorldState& world, int body, bool enabled);
/// Puts a body's proxies to sleep or wakes them (sleeping proxies cost the broadphase nothing).
void SetBodyProxiesAwake(WorldState& world, int body, bool awake);
/// Re-evaluates a shape's pairs after its filter changed.
void RefilterShape(WorldState& world, int shape);
/// Re-runs the broadphase filter on the pairs of a body's shapes at the next update (joints that
/// disable collision were created or destroyed).
void RefilterBodyPairs(WorldState& world, int body);
/// True when the two shapes may collide (body types, joints without collideConnected; the
/// broadphase already checked the same body and the filter bits).
bool ShouldShapesCollide(const WorldState& world, int shapeA, int shapeB);
/// The broadphase filter of a shape: its body and its Filter (broadphase_link.cpp).
ProxyFilter MakeProxyFilter(const Shape& shape);
/// Points the broadphase's extra filter at this world (ShouldShapesCollide); a restored broadphase
/// needs it (snapshot.cpp).
void AttachBroadphaseFilter(WorldState& world);
/// Runs the broadphase update and creates / destroys contacts for begun / ended pairs.
void UpdatePairs(WorldState& world);

/// Whether a world query with `filter` sees the shape in `slot` (QueryFilter): Box2D v3's rule, the
/// shape's category in the query's mask and the query's category in the shape's mask, and the shape
/// not on filter.excludeBody (compared as ids, so a stale or foreign id excludes nothing).
inline bool QueryAccepts(const WorldState& world, const QueryFilter& filter, int slot) {
  const Shape& shape = world.shapes[slot];
  return (shape.filter.categoryBits & filter.maskBits) != 0 &&
         (filter.categoryBits & shape.filter.maskBits) != 0 &&
         (filter.excludeBody.IsNull() || !(world.MakeBodyId(shape.body) == filter.excludeBody));
}

/// The body `id` names, or nullptr after an assertion for a stale id (World's body calls). The World's
/// const methods reach the state through unique_ptr, which does not propagate const, so one overload
/// serves both.
inline Body* FindBody(WorldState& world, BodyId id) {
  const bool live = world.IsBody(id);
  MK_ASSERT(live);
  return live ? &world.bodies[world.BodySlot(id)] : nullptr;
}

/// What World::ForEachTouchingContact and GetBodyContactData show of a live contact.
inline ContactView MakeContactView(const WorldState& world, int contact) {
  const Contact& c = world.contacts[contact];
  return {world.MakeShapeId(c.shapeA),
          world.MakeShapeId(c.shapeB),
          c.manifold,
          c.friction,
          c.restitution,
          c.rollingResistance,
          c.tangentSpeed,
          world.MakeContactId(contact)};
}

/// How far a shape reaches from its body origin (m), an upper bound: its box's farthest corner in
/// the body frame. Contact recycling bounds a point's motion with it (Shape::extent).
inline float ShapeExtent(const ShapeGeometry& geometry) {
  const AABB box = ComputeAABB(geometry, Transform{});
  return Length(Max(box.upper, -box.lower));
}

// Contacts (contacts.cpp)
void CreateContact(WorldState& world, int shapeA, int shapeB);
/// CreateContact in two halves, so that the step can fill many new records on its workers: the first
/// (one thread, in order) makes the contact for the pair unless it exists, with only its shapes and
/// body edges set, linked into its bodies' lists, the pair map and the awake set, and returns its slot
/// (kNull when the pair had one); the second (any thread, one per slot) sets every other field.
int CreateContactLinks(WorldState& world, int shapeA, int shapeB);
void FillNewContact(WorldState& world, int slot);
void DestroyContact(WorldState& world, int contact, bool raiseEndEvent);
void DestroyContactsOfShape(WorldState& world, int shape);
/// DestroyContactsOfShape for each of `shapes` (all of them the body's) in turn, with the same
/// results and end events in the same order, from one walk of the body's contacts instead of one walk
/// a shape: destroying a terrain body or chain of n segments with C contacts cost O(n C).
void DestroyContactsOfShapes(WorldState& world, int body, std::span<const int> shapes);
/// DestroyContactsOfShapes for all of the body's shapes, head first (DestroyBody's order).
void DestroyContactsOfBody(WorldState& world, int body);
/// A contact's mixed surface within what MixMaterials can give (a snapshot's contact is checked).
bool ValidContactMix(const Contact& contact);
/// The shape's contacts mix their materials again (its material changed), as Box2D v3 does each step,
/// and the bodies of those touching are woken.
void RemixContactsOfShape(WorldState& world, int shape);
/// The body's contacts in or out of the awake set (WorldState::awakeContactBits) after its awake flag
/// changed: a contact is in it while either body is awake.
void SetBodyContactsAwake(WorldState& world, int body);
/// Recomputes the derived contact state (the awake set, the touching count) from the contacts and
/// bodies, e.g. after the world's arrays were replaced wholesale.
void RebuildContactSets(WorldState& world);
/// Calls visit(slot) for every bit set in a slot set (one bit per slot), in slot order: 64 slots per
/// word, so a sleeping crowd costs a word test per 64 of its members. `visit` must not change the set.
template <class Visit>
void ForEachSetSlot(const std::vector<std::uint64_t>& words, Visit&& visit) {
  for (std::size_t w = 0; w < words.size(); ++w) {
    for (std::uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
      visit(static_cast<int>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
    }
  }
}
/// Calls visit(slot) for every contact in the awake set, in slot order.
template <class Visit>
void ForEachAwakeContact(const WorldState& world, Visit&& visit) {
  ForEachSetSlot(world.awakeContactBits, visit);
}
/// The awake set's contact slots in slot order, written to `out` (a list the world reuses): the step's
/// walks over contacts (the narrowphase, the solver's gather) go through such a list rather than the
/// bits, so each can look a few contacts ahead (PrefetchContactRecord).
/// Counted first, then written through a pointer: push_back's capacity check and size update in the
/// loop cost 0.2% of the tumbler's and spinner's one-worker steps (callgrind model cycles; it runs twice
/// a step).
inline void CollectAwakeContactSlots(const WorldState& world, std::vector<int>& out) {
  std::size_t count = 0;
  for (const std::uint64_t word : world.awakeContactBits)
    count += static_cast<std::size_t>(std::popcount(word));
  out.resize(count);
  int* next = out.data();
  ForEachAwakeContact(world, [&next](int slot) { *next++ = slot; });
}
/// Asks for the cache lines of a contact that the narrowphase and the gather read: its manifold's
/// point count, and its body edges, shapes, materials and flags, which lie together at the record's
/// end. A record lies at any offset in a line, so these three addresses cover every line holding
/// those fields as long as the edges and the last flag are less than a line apart (at most one line
/// boundary between them), which the assertion keeps true.
static_assert(offsetof(Contact, sensorOverlap) - offsetof(Contact, edges) < 64,
              "PrefetchContactRecord asks for two lines between the edges and the flags");
inline void PrefetchContactRecord(const Contact& contact) {
  __builtin_prefetch(&contact.manifold.pointCount);
  __builtin_prefetch(&contact.edges[0]);
  __builtin_prefetch(&contact.sensorOverlap);
}
/// The manifold of two shapes (shapeA's slot first, as contacts order them) at the given transforms.
Manifold CollideShapes(const WorldState& world, int shapeA, int shapeB, const Transform& xfA,
                       const Transform& xfB, SimplexCache* cache, const ManifoldSettings& settings);
/// True when a pre-solve callback is set and either shape asked for it (ShapeDef::enablePreSolveEvents).
bool WantsPreSolve(const WorldState& world, int shapeA, int shapeB);
/// The pre-solve callback's answer for the pair (shapeA's slot first) and its manifold.
bool PreSolveAllows(const WorldState& world, int shapeA, int shapeB, const Manifold& manifold);
/// Narrowphase: new manifolds for every contact with an awake body, touching transitions, events.
void UpdateContacts(WorldState& world);
/// The awake contacts whose manifold has points, in slot order, written to `out`. Right after the
/// narrowphase it takes them from what the narrowphase recorded, without reading the records of the
/// contacts without points; if the awake set changed since (a wake), it reads every awake record.
void CollectTouchingContactSlots(const WorldState& world, std::vector<int>& out);
/// A pair of moving bodies whose closing in one step is more than this many speculative distances
/// gets speculative points out to that closing (contacts.cpp, CollideApproaching), and a body moving
/// that far a step has its proxy box swept along its travel (broadphase_link.cpp, FitProxy). Below
/// it the overlap a pair can reach before its contact exists is a few centimetres, which the soft
/// contact takes out without a rebound, and the crowds of a tumbler or spinner (most pairs closing
/// at 1 to 5 m/s) pay nothing.
inline constexpr float kApproachFactor = 4.0f;
/// A shape's fat margin is at most this fraction of its reach (Shape::extent), and at most
/// WorldSettings::aabbMargin (broadphase_link.cpp, FitProxy).
inline constexpr float kMarginPerExtent = 0.125f;
/// What a shape's proxy holds (its tight box grown by the speculative distance, swept when its body is
/// fast) and the fat margin around it (broadphase_link.cpp).
struct ProxyFit {
  AABB box;
  float margin;
};

// Joints (joints.cpp)
/// Destroys a joint: unlinks it from its bodies, wakes them, lets their shapes collide again.
void DestroyJointInternal(WorldState& world, int joint);
void DestroyJointsOfBody(WorldState& world, int body);
/// True when a joint with collideConnected = false joins the two bodies.
bool JointBlocksCollision(const WorldState& world, int bodyA, int bodyB);
/// Before gathering bodies: sleeping bodies jointed to awake ones wake (with their sleep group).
void WakeJointPartners(WorldState& world);
/// End of Step: joints of this Step's solve past a threshold get a JointEvent; those with
/// destroyOnBreak are destroyed (joints.cpp).
void BreakJoints(WorldState& world);
/// Validation shared by CreateJoint and the joint API (joints.cpp).
bool ValidJointHertz(float hertz);
bool ValidJointDamping(float ratio);
bool ValidThreshold(float threshold);
float UnwindJointAngle(float angle);  // any finite angle into [-pi, pi]
/// Sets a joint property (joint_api.cpp; joint_api.h's setters and the replay's SetJointValue record).
enum class JointValue : std::uint8_t;
void SetJointValue(World& world, JointId joint, JointValue what, float x, float y);
/// The world's recorder (null when not recording), for the joint calls outside joint_api.cpp
/// (joint_frames.cpp).
class Recorder;
Recorder* JointRecorderOf(World& world);

// Sleep (sleep.cpp)
void WakeBody(WorldState& world, int body);
/// Puts the body's bit in the awake body set (WorldState::awakeBodyBits) in line with its state: set
/// while it is live, not static, awake and enabled. Called wherever one of those changes; marks the solver's
/// body list for a rebuild (WorldState::solverBodiesStale).
void SetBodyAwakeBit(WorldState& world, int body);
/// Recomputes the awake body set from the bodies, e.g. after the world's arrays were replaced.
void RebuildAwakeBodySet(WorldState& world);
/// Calls visit(slot) for every body in the awake body set, in slot order.
template <class Visit>
void ForEachAwakeBody(const WorldState& world, Visit&& visit) {
  ForEachSetSlot(world.awakeBodyBits, visit);
}
/// False only while no body sleeps: every sleeping body belongs to a sleep group (PutIslandToSleep
/// makes one even for a body created asleep), so no live group means nothing for WakeJointPartners
/// to wake.
inline bool MayHaveSleepers(const WorldState& world) { return world.sleepGroupIds.LiveCount() > 0; }
void WakeAllBodies(WorldState& world);
void WakeTouchingBodies(WorldState& world, int body);
/// Every body's rest time back to zero (sleeping turned off: UpdateSleep then leaves them alone).
void ClearSleepTimes(WorldState& world);
void PutIslandToSleep(WorldState& world, int body);
/// Accumulates sleep time and puts quiet islands to sleep. Returns the number of awake islands, or 0
/// when it built none because no island could sleep (sleeping off, or no body rested long enough).
int UpdateSleep(WorldState& world, float dt);
/// Whether the islands' links are worth making before UpdateSleep knows it needs them: sleeping is on
/// and the last step's island pass had a body that had rested long enough (rain's resting ragdolls,
/// every step; a tumbling crowd, never).
bool WantsIslandsAhead(const WorldState& world);
/// UpdateSleep's union-find of the islands (over the solver's contact keys and params and the joint
/// inputs, none of which the continuous stage writes), made ahead beside the continuous stage's serial
/// part; UpdateSleep then uses it instead of making it. The same parents either way.
void LinkIslandsAhead(WorldState& world);

// Solver stage (solve.cpp): gather, the solver's stages, scatter.
void SolveStep(WorldState& world, float dt);

// Continuous collision (continuous.cpp): the fast bodies ScatterBodies listed are moved back to their
// earliest time of impact (static shapes; bullets also non-bullet dynamic bodies), velocities kept
// but for repeated stops against a static surface; sensor events for the sensors their paths crossed.
// `dt`: the step (s). `beside`, when not null, runs as a task beside the stage's serial part (the fast
// bodies in body order), which stays on the calling thread: a job that shares no writes with it
// (LinkIslandsAhead).
void SolveContinuous(WorldState& world, float dt, void (*beside)(WorldState&) = nullptr);

}  // namespace mk
