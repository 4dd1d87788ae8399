// SPDX-License-Identifier: MIT
// Internal: the World's data. Plain arrays indexed by slot; ids are slot + 1 with a generation.
//
// Layout for speed (docs/design.md sections 1 and 8): bodies, shapes and contacts live in contiguous
// vectors that only grow to a scene's peak size; per-step solver data (solver/solver.h) is rebuilt
// into reused arrays, so Step allocates nothing after warm-up. Objects refer to each other by index.
#pragma once

#include "core/id_pool.h"
#include "core/measured_choice.h"
#include "core/pair_map.h"
#include "minkowski/broadphase.h"
#include "minkowski/distance.h"
#include "minkowski/manifold.h"
#include "minkowski/world.h"
#include "solver/solver.h"
#include "world/continuous_sweep.h"
#include "world/persistence/replay_format.h"  // BodyName

#include <utility>
#include <vector>

namespace mk {

inline constexpr int kNull = -1;

/// How the last step moved a body, for this step's narrowphase (decided in solve.cpp, ScatterBody).
/// Two bits: Fast (listed for continuous collision) and Pivoting (its touching still pairs grow).
enum class BodyMotion : std::uint8_t {
  Slow = 0,
  Fast = 1,  ///< listed for continuous collision: its contacts are computed afresh (not reused)
  /// Its turn can bring a point from beyond the speculative distance into what it touches within a
  /// step: a body tipping over on what it touches brings its far end down before any contact point
  /// exists there. Its touching pairs with still bodies are computed at a grown distance (contacts.cpp,
  /// CollidePivoting). Never a body with a joint (ScatterBody says why).
  Pivoting = 2,
  FastPivoting = 3,  ///< both: a fast body whose turn moved it further than its translation
};

/// The Fast bit of a BodyMotion.
[[nodiscard]] inline bool MovedFast(BodyMotion m) { return (static_cast<unsigned>(m) & 1u) != 0; }
/// The Pivoting bit of a BodyMotion.
[[nodiscard]] inline bool Pivots(BodyMotion m) { return (static_cast<unsigned>(m) & 2u) != 0; }

/// A body. `center` is the world centre of mass; `xf` places the body origin.
struct Body {
  WorldTransform xf{};
  Pos center{0.0f, 0.0f};
  Vec2 localCenter{0.0f, 0.0f};
  Vec2 linearVelocity{0.0f, 0.0f};
  float angularVelocity = 0.0f;
  Vec2 force{0.0f, 0.0f};
  float torque = 0.0f;
  float mass = 0.0f, invMass = 0.0f;
  float inertia = 0.0f, invInertia = 0.0f;  // about the centre of mass
  float linearDamping = 0.0f, angularDamping = 0.0f;
  float gravityScale = 1.0f;
  float sleepThreshold = 0.05f;
  float sleepTime = 0.0f;  // seconds below the threshold
  void* userData = nullptr;
  int headShape = kNull;         // linked through Shape::nextShape (and WorldState::shapePrev)
  int headContactEdge = kNull;   // doubly linked contact edges: (contact << 1) | side
  int headJointEdge = kNull;     // doubly linked joint edges: (joint << 1) | side
  int solverIndex = kNull;       // index in WorldState::solverBodies while listed there, else kNull
  int sleepGroup = kNull;        // island id while asleep (all bodies of an island sleep and wake together)
  int nextInSleepGroup = kNull;  // singly linked list of the sleeping island's bodies
  float maxExtent = 0.0f;        // farthest shape point from the centre of mass (m), for the sleep test
  float minExtent = 0.0f;        // smallest core centre to surface distance over the shapes (m), >= slop
  // Farthest core point (circle centre, capsule or segment end, polygon vertex) from the centre of
  // mass (m): how far a turn moves the body's surface. A rolling wheel's is 0, so its spin never makes
  // it fast for continuous collision (maxExtent would count the rim's speed as motion).
  float turnExtent = 0.0f;
  Pos center0{0.0f, 0.0f};  // centre of mass at the start of the last step (continuous collision)
  Rot q0{};                 // rotation at the start of the last step
  // World::SetMassData's values, which replace the shapes' while massOverride.mass > 0 (a mass of 0
  // means no override: SetMassData refuses it).
  MassData massOverride{};
  BodyType type = BodyType::Static;
  bool awake = true;
  bool enabled = true;
  std::uint8_t locks = 0;  // MotionLocks as kLock* bits (world_internal.h); kLockAngular is fixed rotation
  bool enableSleep = true;
  bool isBullet = false;
  BodyMotion motion = BodyMotion::Slow;  // how the last step moved it (ScatterBody, solve.cpp)
  bool heldAtStart = false;  // kept at its start pose, or stopped by what it touched at the start, by
                             // continuous collision last step (continuous.cpp)
};

/// A shape on a body: everything but its geometry, which lives in WorldState::geometries under the
/// same slot (the narrowphase streams through geometries without pulling these fields into cache).
struct Shape {
  Filter filter{};
  AABB aabb{};  // tight world AABB as of the last step
  float density = 1.0f;
  float friction = 0.6f;
  float restitution = 0.0f;
  float rollingResistance = 0.0f;
  float tangentSpeed = 0.0f;  // m/s
  std::uint64_t userMaterialId = 0;
  std::uint32_t customColor = 0;
  void* userData = nullptr;
  int body = kNull;
  int nextShape = kNull;
  ProxyId proxy{};      // broadphase proxy (null while the body is disabled)
  int chain = kNull;    // the chain this segment belongs to (WorldState::chains); kNull for other shapes
                        // and standalone chain segments (CreateChainSegmentShape)
  float extent = 0.0f;  // farthest point of the shape from its body origin (m), for contact recycling
  bool isSensor = false;
  bool enableContactEvents = true;
  bool enableHitEvents = false;
  bool enableSensorEvents = true;
  bool enablePreSolveEvents = false;
  bool enableCustomFiltering = false;
  // The geometry is a ChainSegment (a chain's or a standalone one): one-sided. A copy of the type for
  // the paths that hold only the Shape (contact recycling, the pair rules, continuous collision), so
  // they need not read the geometry; InsertShape and ModifyGeometry set it, a snapshot derives it.
  bool oneSided = false;
};
static_assert(sizeof(Shape) <= 128, "a Shape stays within two cache lines");

/// A chain (World::CreateChain): its body and its segment shapes in order.
struct Chain {
  int body = kNull;
  std::vector<int> shapes;
};

/// One end of a contact or a joint, linked into its body's list of them (Body::headContactEdge or
/// headJointEdge). An edge is named by key = (object << 1) | side, so prev and next name the
/// neighbouring objects' edges. A mouse joint has only edges[1] (its body); its edges[0].body stays
/// kNull and is not linked.
struct BodyEdge {
  int body = kNull;
  int prev = kNull;
  int next = kNull;
};

/// Links end `side` of objects[index] (a Contact or a Joint) at the head of its body's list `head`.
template <class Object>
void LinkEdge(std::vector<Object>& objects, int& head, int index, int side) {
  BodyEdge& edge = objects[index].edges[side];
  const int key = (index << 1) | side;
  edge.prev = kNull;
  edge.next = head;
  if (head != kNull) objects[head >> 1].edges[head & 1].prev = key;
  head = key;
}

/// Unlinks end `side` of objects[index] from its body's list `head`.
template <class Object>
void UnlinkEdge(std::vector<Object>& objects, int& head, int index, int side) {
  BodyEdge& edge = objects[index].edges[side];
  if (edge.prev != kNull) {
    objects[edge.prev >> 1].edges[edge.prev & 1].next = edge.next;
  } else {
    head = edge.next;
  }
  if (edge.next != kNull) objects[edge.next >> 1].edges[edge.next & 1].prev = edge.prev;
  edge.prev = edge.next = kNull;
}

/// What contact recycling (UpdateContacts, docs/design.md narrowphase) keeps of the last manifold
/// it computed: the pose it was computed at and its points fixed in the bodies' frames, so a later
/// step can place the same points at the bodies' current poses instead of computing them again.
struct ManifoldOrigin {
  Transform relativePose{};  // B's body origin in A's body frame when the manifold was computed
  Vec2 localNormal{0.0f, 0.0f};
  Vec2 localPointA[2];  // each point's end on A's surface, in A's body frame (m)
  Vec2 localPointB[2];  // and on B's surface, in B's body frame (m)
};

/// A persistent contact between two shapes whose fat AABBs overlap. Created and destroyed by the
/// broadphase pair reports; keeps the GJK cache and the manifold (with impulses) between steps.
struct Contact {
  Manifold manifold{};
  ManifoldOrigin origin{};  // valid while `recyclable`
  SimplexCache cache{};
  BodyEdge edges[2];
  int shapeA = kNull, shapeB = kNull;
  float friction = 0.0f;     // mixed: sqrt(fA fB)
  float restitution = 0.0f;  // mixed: max(eA, eB)
  // Mixed when made (MixMaterials): max(rA, rB) times the larger rounding radius (m), and vA + vB (m/s).
  float rollingResistance = 0.0f;
  float tangentSpeed = 0.0f;
  bool touching = false;
  bool recyclable = false;  // the manifold was computed (not reused) with points: `origin` holds it
  bool recycled = false;    // the last update reused the manifold instead of computing it
  bool enableContactEvents = false;
  bool enableHitEvents = false;
  // Exactly one shape is a sensor and the other can be seen by sensors: the pair reports overlap as
  // sensor events instead of touching (its manifold stays empty, so it never pushes or wakes).
  bool sensorEvents = false;
  bool sensorOverlap = false;  // the shapes overlapped at the last narrowphase update
};

/// A joint: the solver's JointData (the definition's values, anchors relative to the body origins,
/// and the impulses carried between steps for warm starting) plus its place in the bodies' joint
/// lists. One struct for every type keeps joints in one contiguous array; fields a type does not use
/// stay at their defaults. Ranges (lower/upper) mean angle for revolute, translation for prismatic and
/// wheel, length for distance.
struct Joint : JointData {
  BodyEdge edges[2];
  Pos target{0.0f, 0.0f};  // mouse: world target (m); the solver sees it as body A's centre
  void* userData = nullptr;
  float forceThreshold = kNoThreshold, torqueThreshold = kNoThreshold;  // breaking (N, N m)
  bool collideConnected = false;
  bool destroyOnBreak = false;
};

/// The proxies the parallel scatter re-centred for one body, in shape order, for its worker to claim
/// (RefitBodyProxies, world_internal.h).
inline constexpr int kListedRefits = 2;
struct ScatterRefits {
  ProxyId proxy[kListedRefits];
};

/// What one range [begin, end) of the parallel scatter left for the calling thread (stored at `begin`,
/// ScatterBodies): its end, its broadphase tickets and its listed bodies, each from the range's place.
struct ScatterRange {
  int end = 0;
  int tickets = 0;  // in scatterTickets from 2 * begin
  int listed = 0;   // in scatterListed from begin: the fast and the pivoting bodies
};

/// A body the parallel scatter lists: its solver index and how it moved (ScatterBody's report: Fast,
/// kPivotBit; never 0).
struct ListedBody {
  int body = 0;
  std::uint8_t report = 0;
};

/// A body's shapes' mass properties summed about its origin, for UpdateBodyMass and for the checks
/// that a new shape or density keeps them finite (the world refuses what would overflow).
struct BodyMassSum {
  float mass = 0.0f;
  Vec2 moment{0.0f, 0.0f};
  float inertiaAtOrigin = 0.0f;
  void Add(const MassData& data);
  /// Mass, centre, inertia and their inverses would all be finite, and within kMaxBodyMass and
  /// kMaxBodyInertia.
  bool Finite() const;
};

/// A body's BodyMassSum as WorldState::bodyShapeMass caches it.
struct KnownMassSum {
  BodyMassSum sum;
  bool known = false;
};

struct WorldState {
  Vec2 gravity{0.0f, -10.0f};
  SolverSettings settings{};
  Profile profile{};
  Counters counters{};

  BroadPhase broadphase;
  IdPool bodyIds, shapeIds, contactIds, jointIds, chainIds;
  std::vector<Body> bodies;
  /// Per body slot, its name (World::SetName); grown only by SetName, so it may be shorter than bodies.
  std::vector<BodyName> bodyNames;
  /// Per body slot, its shapes' mass sum (ShapeMassSum, world_internal.h) while known: derived, not
  /// saved; any slot past the end, or marked unknown, is summed again when asked.
  std::vector<KnownMassSum> bodyShapeMass;
  std::vector<Shape> shapes;
  /// Per shape slot, the shape before it in its body's list (kNull for the list's head): derived, not
  /// saved (a snapshot's Shape records keep only `nextShape`; MoveIn rebuilds this from them). With it
  /// a shape leaves its body's list at once: walking the list to its predecessor made destroying a
  /// chain, or a level's tiles oldest first, quadratic (16,000 segments: 0.4 s; docs/benchmarks.md).
  std::vector<int> shapePrev;
  /// Per shape slot, the shape's geometry (its one copy, in body coordinates): what the narrowphase,
  /// mass, bounding boxes and debug drawing read.
  std::vector<ShapeGeometry> geometries;
  std::vector<Contact> contacts;
  std::vector<Joint> joints;
  /// Per joint slot, its two body slots (edges[0].body, kNull for a mouse joint's world, and
  /// edges[1].body) in 8 bytes, so the gather can pick the joints to solve without reading a third
  /// cache line of every Joint (perf showed that load as a third of SolveStep's own time in
  /// joint_grid). A joint's bodies never change; written by NewJoint and on restore.
  struct JointEnds {
    int a = kNull, b = kNull;
  };
  std::vector<JointEnds> jointEnds;
  std::vector<Chain> chains;
  PairMap contactByShapes;  // PairMap::Key(shapeA, shapeB) -> contact slot
  // The awake set: bit `slot` is set while contact `slot` is live and either of its bodies is awake.
  // The narrowphase and the solver's gather visit only these, in slot order (ForEachAwakeContact), so
  // sleeping bodies' contacts cost nothing per step. Derived state, kept by CreateContact,
  // DestroyContact and SetBodyContactsAwake (called wherever a body's awake flag changes); recomputed
  // by RebuildContactSets.
  std::vector<std::uint64_t> awakeContactBits;
  // The awake body set: bit `slot` is set while body `slot` moves: live, not static, awake and enabled.
  // The solver's gather lists only these, in slot order, so sleeping, disabled and static bodies cost
  // nothing per step (a word test per 64). Derived state, kept by SetBodyAwakeBit wherever a body is
  // created, destroyed, put to sleep, woken, enabled or disabled; recomputed by RebuildAwakeBodySet.
  std::vector<std::uint64_t> awakeBodyBits;
  int touchingContactCount = 0;  // live contacts with `touching` set (Counters::touchingContacts)

  // Events the game reads after a Step (World::Get*Events). Only Step writes these, so the spans a
  // game holds stay valid whatever it calls before the next Step. Begin and hit events arise only
  // inside Step; end events also arise between Steps (destroying a touching shape, body or filter
  // change), so those go to the pending lists, which Step publishes at its end (Box2D v3 reports
  // end events from destroy calls the same way, with the next step's events).
  std::vector<ContactBeginEvent> beginEvents;
  std::vector<ContactEndEvent> endEvents;
  std::vector<ContactHitEvent> hitEvents;
  std::vector<SensorBeginEvent> sensorBeginEvents;
  std::vector<SensorEndEvent> sensorEndEvents;
  std::vector<ContactEndEvent> pendingEndEvents;       // raised since the last Step published
  std::vector<SensorEndEvent> pendingSensorEndEvents;  // raised since the last Step published
  std::vector<BodyMoveEvent> moveEvents;               // the bodies the last Step simulated (step.cpp)
  std::vector<JointEvent> jointEvents;                 // joints past a threshold in the last Step
  // Some live joint has (or had) a finite force or torque threshold: only then does Step look for
  // joints to break (joints.cpp, BreakJoints). Derived: set by the calls that give one, recomputed on
  // restore.
  bool mayBreakJoints = false;

  // The solver's data, reused (solve.cpp gathers, the solver prepares and solves).
  // The moving bodies (awake, enabled, not static) in slot order: solver index -> body slot, with
  // Body::solverIndex the other way. The list and the solver's body arrays (SolverArrays::states,
  // params) persist between steps: a body keeps its solver index while the set of moving bodies
  // stays the same, and the gather rebuilds the list (from the awake body set) only when
  // `solverBodiesStale` says that set changed. The flag is raised by SetBodyAwakeBit (create,
  // destroy, sleep, wake, enable, disable, restore); the list is never edited inside a step, so a
  // step's stages all see the list its gather made.
  std::vector<int> solverBodies;
  bool solverBodiesStale = true;
  // Some shape has (or had) rolling resistance or tangent speed: raised by SetShapeMaterial, never
  // lowered, recomputed on restore. While false no contact has either, and the gather and prepare
  // skip them (contact_solver.h: PrepareContacts).
  bool maySurfaceShapes = false;
  // The listed bodies with motion locks (Body::locks), as body slots; rebuilt with solverBodies (a lock
  // change marks that list stale), so a world without locks pays nothing per body for them.
  std::vector<int> lockedBodies;
  std::vector<int> fastBodies;   // continuous collision: fast non-bullet body slots of this step
  std::vector<int> fastBullets;  // and fast bullets, swept after the others have moved
  // The continuous stage's parallel pass (continuous.cpp): one sweep per fast non-bullet body, in the
  // order of fastBodies; kept between steps (each keeps its sensor list's capacity).
  std::vector<FastSweep> fastSweeps;
  // Continuous collision's sensors (continuous.cpp, SweepSensors): the (fast shape, sensor shape) pairs
  // in one fast body's swept box, and the end events of the sensors fast bodies crossed this step,
  // which PublishEndEvents leaves waiting for the next step. Both empty between steps.
  std::vector<std::pair<int, int>> sweptSensors;
  std::vector<SensorEndEvent> sweptSensorEnds;
  // Continuous collision's joint groups (continuous.cpp, MoveJointPartnersBack): the slots of the
  // bodies moved back this step, the fraction of the step each body kept (per body slot: 1 unless
  // listed in movedBack; sized by the stage to the body slots), and the walk's stack. movedBack and
  // jointWalk are empty between steps, keptFraction all ones.
  std::vector<int> movedBack;
  std::vector<float> keptFraction;
  std::vector<int> jointWalk;
  // World::SetContinuousRecording: the bodies the continuous stage moved back in the last Step.
  // Capacity kMaxContinuousRecords is reserved when recording starts; never grown by Step.
  bool recordContinuous = false;
  std::vector<ContinuousRecord> continuousRecords;
  std::vector<ContactInput> contactInputs;
  bool contactInputsWantHits = false;  // GatherContacts: some input has enableHitEvents
  std::vector<JointInput> jointInputs;
  // Per body slot, what GatherJoints reads of a body, written by GatherBodies while it visits the
  // body anyway (only when the world has joints): 32 bytes in a row instead of three cache lines of
  // a Body for each of a joint's bodies. `stamp` is the gather's (gatherStamp) when GatherBodies
  // wrote the entry for a moving body this step; any other entry is stale, and GatherJoints reads
  // that body (static, asleep or disabled) itself.
  struct JointSideOf {
    JointBody side;
    std::uint32_t stamp = 0;
  };
  std::vector<JointSideOf> jointSides;
  std::uint32_t gatherStamp = 0;          // counts GatherBodies calls; never 0 after the first
  std::vector<int> jointBlockFirstInput;  // GatherJoints on workers: per block of slots, its first input
  SolverArrays solver;
  IdPool sleepGroupIds;
  std::vector<int> sleepGroupHead;      // sleep group -> first body
  std::vector<int> islandParent;        // union-find scratch over solver indices
  bool islandsLinkedAhead = false;      // islandParent holds this step's links (LinkIslandsAhead)
  bool sleepCandidateLastStep = false;  // the last island pass had a body rested long enough
  int islandPassesLinkedAhead = 0;      // island passes that used links made ahead (tests observe it)
  std::vector<float> islandSleepTime;   // per solver index: its sleep time, then its island's least at roots
  std::vector<int> islandNextMember;    // per solver index: the next member of its sleeping island, or kNull
  std::vector<int> islandStack;         // scratch for PutIslandToSleep
  std::vector<int> islandMembers;       // scratch for PutIslandToSleep
  std::vector<int> pendingWakes;        // sleeping bodies touched in the contact update, woken after it
  // The step being taken (s), for the narrowphase's grown distance of pivoting bodies (contacts.cpp,
  // CollidePivoting); written by World::Step before the narrowphase, so a snapshot need not keep it.
  float narrowphaseDt = 0.0f;
  // Some body was BodyMotion::Pivoting after the last step (ScatterBodies): the narrowphase then runs
  // its loop with the pivoting test, else the loop without it. Conservative: a loaded snapshot sets it,
  // and both loops give the same manifolds when no body pivots.
  bool anyPivoting = false;
  // The parallel narrowphase's scratch (contacts.cpp, UpdateContactsParallel): the awake contacts'
  // slots, and what changed for each, for the ordered pass after.
  // Both narrowphase loops also mark, in each position's byte, the contacts whose manifold has points,
  // and keep the awake set they walked: the solver's gather then reads only those contacts' records
  // while the set is unchanged (CollectTouchingContactSlots).
  std::vector<int> narrowphaseSlots;
  std::vector<std::uint8_t> narrowphaseChanges;
  std::vector<int> narrowphaseChanged;  // positions in narrowphaseSlots whose change is not 0
  std::vector<std::uint64_t> narrowphaseAwakeBits;
  // GatherContacts: the touching contacts' slots (on the workers, then the kept ones, compacted) and,
  // on the workers, a byte each (makes an input; wants hit events).
  std::vector<int> gatherSlots;
  std::vector<std::uint8_t> gatherKeep;
  // The parallel scatter's (solve.cpp), each range's part from its first body's place: the bodies
  // that report a move (solver index and ScatterBody's report) and the tickets of the proxies claimed
  // (BroadPhase::ClaimRefittedProxy, or a body whose proxies the calling thread walks), in body order;
  // per range, where it ends and how many of each.
  std::vector<ListedBody> scatterListed;
  std::vector<std::uint64_t> scatterTickets;
  std::vector<ScatterRange> scatterRanges;
  std::vector<std::uint64_t> begunPairScratch;
  std::vector<int> pairContactScratch;  // UpdatePairs: the contacts to destroy, then those it made
  // DestroyContactsOfShapes and DestroyContactsOfBody: per shape slot, the shape's place among the shapes
  // going (-1 for every other shape, as it is left after each call), and their contacts with those places.
  struct RankedContact {
    std::uint64_t order;  // (the shape's place) << 32 | (the contact's place in the body's list)
    int contact;
  };
  std::vector<int> shapeRankScratch;
  std::vector<RankedContact> rankedContactScratch;
  std::vector<int> explosionShapes;        // World::Explode's candidates, reused
  std::vector<CastHit> castHits;           // CastShape's hits waiting for their turn, reused (queries.cpp)
  std::vector<CastHit> rayHits;            // CastRayAll's hits, sorted before they are copied out, reused
  std::vector<std::byte> snapshotScratch;  // SaveSnapshot writes here first, then copies out, reused
  std::vector<std::byte> lastRecording;    // what StopRecording returned (its Span views this)

  // The pre-solve callback (World::SetPreSolveCallback; a PreSolveFn with its context is kept wrapped
  // in a callable of two pointers, which PreSolveCallable stores inline); empty when unset.
  // `api` is the World that owns this state, handed to the callable (World's constructors and moves
  // keep it current).
  PreSolveCallable preSolve;
  const World* api = nullptr;
  // The mixing and pair filter callbacks (World::SetFrictionCallback, ...); null when unset.
  MixFn frictionFn = nullptr;
  MixFn restitutionFn = nullptr;
  CustomFilterFn customFilterFn = nullptr;
  void* customFilterContext = nullptr;
  void* userData = nullptr;  // WorldDef::userData
  TaskSystem tasks{};        // WorldDef::tasks, World::SetTaskSystem: the step's workers
  WorkerUse subStepWorkers = WorkerUse::Measured;  // WorldDef::subStepWorkers, World::SetSubStepWorkers
  MeasuredChoice subStepChoice;                    // Measured's timings (SolveStep); reset with `tasks`

  // The world lock (World's class comment; docs/design.md 6b). While lockDepth > 0 (inside Step, and
  // inside a query, Draw or other call that hands control to game code) every mutating API call fails
  // an MK_ASSERT and is ignored: Step and the query walks hold indices and references into the arrays
  // those calls grow, free or reorder. While walkDepth > 0 a broadphase walk is calling game code (the
  // CastRay, CastShape and QueryAABB callbacks, the continuous stage's pre-solve calls): a query from
  // there would restamp, re-sort and clear the broadphase scratch that walk is using, so queries that
  // walk the broadphase are refused too. Counters, not flags, because the scopes nest.
  int lockDepth = 0;
  int walkDepth = 0;

  /// This world's tag, written into every id it makes (World::World draws it from a process-wide
  /// counter), so an id from another world is told apart from one of ours.
  std::uint32_t tag = 0;

  /// The slot an id names, or kNull when the id is null, from another world, out of range or stale.
  /// Unsigned arithmetic throughout: any 32-bit pattern a caller passes is safe to look up.
  template <class Id>
  int SlotOf(const Id& id, const IdPool& pool) const {
    if (id.world != tag || id.index1 == 0 || id.index1 > static_cast<std::uint32_t>(pool.Capacity()))
      return kNull;
    const int slot = static_cast<int>(id.index1 - 1u);
    return pool.IsLive(slot, id.generation) ? slot : kNull;
  }
  int BodySlot(BodyId id) const { return SlotOf(id, bodyIds); }
  int ShapeSlot(ShapeId id) const { return SlotOf(id, shapeIds); }
  int JointSlot(JointId id) const { return SlotOf(id, jointIds); }
  int ChainSlot(ChainId id) const { return SlotOf(id, chainIds); }
  bool IsChain(ChainId id) const { return ChainSlot(id) != kNull; }
  ChainId MakeChainId(int slot) const {
    return {static_cast<std::uint32_t>(slot + 1), chainIds.Generation(slot), tag};
  }
  bool IsBody(BodyId id) const { return BodySlot(id) != kNull; }
  bool IsShape(ShapeId id) const { return ShapeSlot(id) != kNull; }
  bool IsJoint(JointId id) const { return JointSlot(id) != kNull; }
  JointId MakeJointId(int slot) const {
    return {static_cast<std::uint32_t>(slot + 1), jointIds.Generation(slot), tag};
  }
  BodyId MakeBodyId(int slot) const {
    return {static_cast<std::uint32_t>(slot + 1), bodyIds.Generation(slot), tag};
  }
  ShapeId MakeShapeId(int slot) const {
    return {static_cast<std::uint32_t>(slot + 1), shapeIds.Generation(slot), tag};
  }
  int ContactSlot(ContactId id) const { return SlotOf(id, contactIds); }
  ContactId MakeContactId(int slot) const {
    return {static_cast<std::uint32_t>(slot + 1), contactIds.Generation(slot), tag};
  }
  // Large-world build: WorldDef::origin. The world keeps every position relative to it (bodies, joint
  // targets, the broadphase's boxes) and converts at the API (world_internal.h, ToInternal/ToWorld):
  // near it the world steps exactly as one built at the origin. Zero, and unused, in the default build.
  Pos origin{0.0f, 0.0f};
};

}  // namespace mk
