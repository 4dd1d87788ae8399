// SPDX-License-Identifier: MIT
// Minkowski — the World: bodies, shapes, and the step that moves them.
//
// A World owns everything created in it and hands out ids (world_types.h). Calls with a stale or
// null id, an id made by another World, or values outside what the call documents (NaN/Inf, lengths
// beyond kMaxWorldLength, ...) fail an MK_ASSERT and are otherwise ignored (setters) or return a
// neutral value (getters: zero, identity, null): the world always stays valid and finite. Not
// thread-safe: use one World from one thread at a time. Step itself may use several workers, through
// the game's job system or a TaskPool (WorldDef::tasks, minkowski/task_system.h), with the same
// results for any worker count.
//
// Including this header gives the whole world API: geometry, joints, events, DebugDraw and the
// assert hook (SetAssertHandler).
//
//   mk::World world;                                             // gravity (0, -10) m/s^2
//   mk::BodyId ground = world.CreateBody({});                    // static
//   world.CreateShape(ground, {}, mk::MakeBox(50, 1).value);
//   mk::BodyId box = world.CreateBody({.type = mk::BodyType::Dynamic, .position = {0, 4}});
//   world.CreateShape(box, {.density = 1, .friction = 0.6f}, mk::MakeBox(0.5f, 0.5f).value);
//   for (int i = 0; i < 60; ++i) world.Step(1.0f / 60.0f);
#pragma once

#include "minkowski/assert.h"
#include "minkowski/broadphase.h"
#include "minkowski/debug_draw.h"
#include "minkowski/draw_options.h"
#include "minkowski/geometry.h"
#include "minkowski/joint_types.h"
#include "minkowski/manifold.h"
#include "minkowski/math.h"
#include "minkowski/mover.h"
#include "minkowski/owned_ptr.h"
#include "minkowski/ray_cast.h"
#include "minkowski/snapshot.h"
#include "minkowski/span.h"
#include "minkowski/world_callbacks.h"
#include "minkowski/world_types.h"

#include <cstddef>
#include <cstdint>

namespace MK_API mk {

struct WorldState;  // internal (engine/src/world/world_state.h)
class Recorder;     // internal (engine/src/world/persistence/recorder.h)

/// A world of bodies, shapes and joints (see the top of world.h). The world lock, which refuses
/// changes while it steps or runs game code: minkowski/world_callbacks.h.
class World {
 public:
  explicit World(const WorldDef& def = {});  ///< an empty world with the def's gravity, settings, user data
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  /// Moving transfers the bodies, shapes and joints with their ids. The moved-from World is left as
  /// a new empty one (default settings, a tag of its own): ids from before the move are foreign to
  /// it, and every call on it is safe. (Not noexcept: that empty world is allocated.) A locked world
  /// is not moved (MK_ASSERT): the new World is empty and the locked one keeps its state. @{
  World(World&&);
  World& operator=(World&&);
  ///@}
  // --- Simulation -------------------------------------------------------------------------------

  /// Advances the world by `timeStep` seconds (kMinTimeStep..kMaxTimeStep; otherwise MK_ASSERT
  /// and nothing happens, returning false). Events of this step are readable until the next Step.
  bool Step(float timeStep);

  /// Moves the world's coordinates so that `newOrigin` (m, world) becomes the origin: every position
  /// the world holds or reports afterwards is the old one minus `newOrigin` (bodies, joint targets,
  /// contact points, the last Step's events). For a game that keeps its action near zero as it travels
  /// (a floating origin, as Box2D v2's b2World::ShiftOrigin). In the large-world build (MK_LARGE_WORLDS)
  /// positions are kept relative to WorldDef::origin, so this only moves that origin: O(1), exact,
  /// and the world steps on bit for bit as before. In the default build every position is moved (O(n),
  /// rounded to float). Refused (MK_ASSERT, no effect) while recording (a replay could not repeat it),
  /// inside Step or a callback, or for a newOrigin beyond kMaxWorldPosition.
  void ShiftOrigin(Pos newOrigin);
  /// The world's float frame (m, world): WorldDef::origin moved by every ShiftOrigin in the large-world
  /// build, where the world keeps its positions relative to it; always zero in the default build, whose
  /// ShiftOrigin moves the positions instead. The broadphase's boxes (GetBroadPhase, CollectProxies)
  /// are measured from it in both builds.
  Pos GetOrigin() const;

  /// World gravity (m/s^2). @{
  void SetGravity(Vec2 gravity);
  Vec2 GetGravity() const;
  ///@}
  /// Solver tunables; apply between steps. Out-of-range fields are clamped to their documented range
  /// and NaN fields keep their previous value; returns false if anything had to be changed. @{
  bool SetSolverSettings(const SolverSettings& settings);
  const SolverSettings& GetSolverSettings() const;
  ///@}
  const Profile& GetProfile() const;  ///< milliseconds per stage of the last Step
  /// The workers Step uses from the next Step on (WorldDef::tasks). A workerCount outside
  /// 1..kMaxWorkers, or one callback without the other, is refused (MK_ASSERT, false) and the world
  /// keeps its task system. The results do not change with it: same state after every step. Not kept
  /// by snapshots or replays (pointers). @{
  bool SetTaskSystem(const TaskSystem& tasks);
  const TaskSystem& GetTaskSystem() const;
  ///@}
  /// Whether the solver's sub-steps use the workers (WorldDef::subStepWorkers), from the next Step on.
  /// A value outside WorkerUse is refused (MK_ASSERT, false) and the choice kept. The results do not
  /// change with it. Not kept by snapshots or replays. @{
  bool SetSubStepWorkers(WorkerUse use);
  WorkerUse GetSubStepWorkers() const;
  ///@}

  Counters GetCounters() const;  ///< object counts after the last Step
  /// The bytes the world holds on the heap now (MemoryStats): capacities, not sizes, so it includes
  /// room reserved and kept for reuse. O(1) in the number of objects; changes nothing.
  MemoryStats GetMemoryStats() const;
  /// The lanes the solver's SIMD kernels use, 4 or 8: WorldDef::simdWidth as this CPU and build allow.
  int GetSimdWidth() const;

  /// 64-bit FNV-1a hash of every live body's position, rotation and velocities (bit patterns), in
  /// creation-slot order. Same inputs and binary give the same hash (determinism tests).
  std::uint64_t StateHash() const;

  // --- Snapshots (world/persistence; format and limits: minkowski/snapshot.h) ---------------------------

  /// The complete state of the world as bytes (snapshot.h; sizes: docs/design.md, Snapshots), taken
  /// between Steps; changes nothing. Returns its size in bytes and writes it to `out` only when `out`
  /// holds that many (else `out` is untouched: an empty Span asks the size). Made in reused scratch,
  /// then copied: no allocation once warmed up. Into a std::vector: mk::SaveSnapshot (world_vector.h).
  std::size_t SaveSnapshot(Span<std::byte> out) const;
  /// Refused (a std::vector would convert to an empty Span): mk::SaveSnapshot fills one (world_vector.h).
  template <class C, class = std::enable_if_t<detail::IsResizable<C>::value>>
  std::size_t SaveSnapshot(C& container) const = delete;

  /// Replaces the whole state with a snapshot's, all or nothing: the bytes are parsed and validated
  /// completely into a new state (every index in range, every list acyclic, every number finite
  /// where the engine needs it, every geometry valid, counts capped; snapshot.h) and only then
  /// swapped in. On any error (SnapshotResult) the world is unchanged. A hand-made snapshot with a
  /// correct checksum is validated the same way: it is refused or gives a world that steps safely.
  /// Ids: the world keeps its own tag. Restoring into the World that saved the snapshot keeps every
  /// id the game holds meaningful: an id names what it named when the snapshot was taken (an object
  /// created since is gone and its id stale; one destroyed since is back). Restoring into another
  /// World gives the same slots and generations under that world's tag: ids of the saving world are
  /// foreign to it (MK_ASSERT), and World::AdoptId turns them into this world's.
  /// Not restored, the receiver's own: the pre-solve callback and its context, continuous recording
  /// (its records are cleared), the profile. userData pointers are restored as the values they had:
  /// meaningful only within the process that saved them. A recording world refuses it
  /// (SnapshotError::WhileRecording): a replay starts from an empty world and holds calls only. A
  /// locked world (inside Step or a callback) refuses it too (SnapshotError::WhileLocked).
  SnapshotResult RestoreSnapshot(Span<const std::byte> snapshot);

  /// An id of another World (one whose snapshot this world restored) as this world's: the same slot
  /// and generation with this world's tag. Null stays null. Whether it names a live object here is
  /// for IsValid to say. @{
  BodyId AdoptId(BodyId id) const { return {id.index1, id.generation, id.IsNull() ? 0u : Tag()}; }
  ShapeId AdoptId(ShapeId id) const { return {id.index1, id.generation, id.IsNull() ? 0u : Tag()}; }
  JointId AdoptId(JointId id) const { return {id.index1, id.generation, id.IsNull() ? 0u : Tag()}; }
  ChainId AdoptId(ChainId id) const { return {id.index1, id.generation, id.IsNull() ? 0u : Tag()}; }
  ContactId AdoptId(ContactId id) const { return {id.index1, id.generation, id.IsNull() ? 0u : Tag()}; }
  ///@}
  // --- Bodies -----------------------------------------------------------------------------------

  /// Creates a body; returns a null id (and MK_ASSERT) for non-finite or negative def values.
  BodyId CreateBody(const BodyDef& def);

  /// Destroys a body with its shapes and contacts (contact end events are raised). False if stale.
  bool DestroyBody(BodyId body);

  /// True when the id refers to a live body.
  bool IsValid(BodyId body) const;

  BodyType GetBodyType(BodyId body) const;         ///< the body's type (Static for a stale id)
  Pos GetPosition(BodyId body) const;              ///< body origin (m)
  float GetAngle(BodyId body) const;               ///< radians
  WorldTransform GetTransform(BodyId body) const;  ///< body origin (m) and rotation
  /// Teleports the body (wakes it; contacts are re-evaluated next step).
  void SetTransform(BodyId body, Pos position, float angle);

  Vec2 GetLinearVelocity(BodyId body) const;           ///< of the centre of mass (m/s)
  void SetLinearVelocity(BodyId body, Vec2 velocity);  ///< clamped to maxLinearSpeed; non-zero wakes
  float GetAngularVelocity(BodyId body) const;         ///< rad/s
  void SetAngularVelocity(BodyId body, float omega);   ///< rad/s, clamped; non-zero wakes

  /// Force (N) at a world point, accumulated until the end of the next Step.
  void ApplyForce(BodyId body, Vec2 force, Pos worldPoint, bool wake = true);
  void ApplyForceToCenter(BodyId body, Vec2 force, bool wake = true);  ///< N, at the centre of mass
  void ApplyTorque(BodyId body, float torque, bool wake = true);       ///< N m
  /// Impulse (N s) at a world point: changes velocity immediately.
  void ApplyLinearImpulse(BodyId body, Vec2 impulse, Pos worldPoint, bool wake = true);
  /// Impulse (N s) at the centre of mass.
  void ApplyLinearImpulseToCenter(BodyId body, Vec2 impulse, bool wake = true);
  void ApplyAngularImpulse(BodyId body, float impulse, bool wake = true);  ///< N m s

  float GetMass(BodyId body) const;               ///< kg (0 for static and kinematic bodies)
  float GetRotationalInertia(BodyId body) const;  ///< kg m^2 about the centre of mass
  Pos GetWorldCenterOfMass(BodyId body) const;    ///< world frame (m)
  Vec2 GetLocalCenterOfMass(BodyId body) const;   ///< body frame (m)

  void SetLinearDamping(BodyId body, float damping);   ///< 1/s, >= 0
  void SetAngularDamping(BodyId body, float damping);  ///< 1/s, >= 0
  void SetGravityScale(BodyId body, float scale);      ///< multiplies gravity for this body; finite
  void SetFixedRotation(BodyId body, bool fixed);      ///< locks or frees rotation (MotionLocks::angularZ)
  void SetAwake(BodyId body, bool awake);              ///< wakes it, or puts its island to sleep
  bool IsAwake(BodyId body) const;                     ///< true while awake; false for a stale id
  void SetSleepEnabled(BodyId body, bool enabled);     ///< false wakes it and keeps it awake
  /// Makes the body a bullet or not (BodyDef::isBullet), from the next Step on. Any body type may
  /// carry the flag; only dynamic bodies use it.
  void SetBullet(BodyId body, bool bullet);
  bool IsBullet(BodyId body) const;  ///< the bullet flag; false for a stale id
  /// A disabled body keeps its state but has no broadphase proxies, no contacts, and does not move.
  void SetEnabled(BodyId body, bool enabled);
  bool IsEnabled(BodyId body) const;              ///< false while disabled and for a stale id
  void SetUserData(BodyId body, void* userData);  ///< the game's pointer; the world only stores it
  void* GetUserData(BodyId body) const;           ///< BodyDef::userData; null for a stale id, quietly

  // --- Bodies: locks, type, mass data, kinematic targets, helpers (body_features.cpp) ------------

  /// Per-axis motion locks (MotionLocks: held exactly; velocities along locked axes become 0 now).
  /// SetFixedRotation(b, f) is SetMotionLocks with angularZ = f and the linear locks kept.
  void SetMotionLocks(BodyId body, MotionLocks locks);
  MotionLocks GetMotionLocks(BodyId body) const;  ///< the locks set (none for a stale id)
  /// Changes the body's type now (Box2D v3's b2Body_SetType). The mass is recomputed from the shapes
  /// (a SetMassData override is dropped); contacts the new type may not have (static or kinematic
  /// against static or kinematic) are destroyed with their end events, and those it may have come
  /// from the next Step's broadphase; joints are kept. Static: velocities, forces and sleep state
  /// cleared, and the bodies it touched or is jointed to are woken. Kinematic or dynamic: awake.
  /// A static or kinematic body's shapes give it no mass and are checked alone when made; making it
  /// dynamic while its shapes together are heavier than kMaxBodyMass or kMaxBodyInertia is refused
  /// (MK_ASSERT; the body keeps its type).
  void SetType(BodyId body, BodyType type);
  /// Mass (kg), centre of mass (body frame, m) and rotational inertia about that centre (kg m^2):
  /// what the solver uses (zero mass and inertia for static and kinematic bodies).
  MassData GetMassData(BodyId body) const;
  /// Overrides a dynamic body's mass data with `data` (mass > 0 and <= kMaxBodyMass, inertia >= 0 and
  /// <= kMaxBodyInertia, |center| <= kMaxWorldLength, all finite; else MK_ASSERT, unchanged). The
  /// body origin stays; the centre of mass moves. As in v3, a later change to the shapes (creating,
  /// destroying, SetDensity) or SetType recomputes from the shapes and drops the override; motion
  /// locks keep it (a rotation lock makes the inertia count as infinite, and unlocking restores it).
  /// Static and kinematic bodies: ignored (MK_ASSERT).
  void SetMassData(BodyId body, const MassData& data);
  /// Drops a SetMassData override: the mass data is the shapes' again.
  void ApplyMassFromShapes(BodyId body);
  /// Sets a kinematic (or dynamic) body's velocities so that the next Step of `timeStep` s takes it
  /// (free of other influences) to `target` (its origin's pose) exactly up to float rounding; the
  /// turn, the shorter way, accounts for the sub-steps' rotation integration (so w is not quite
  /// turn / timeStep). Wakes the body. Velocities beyond the solver's limits are clamped. A static
  /// body, a non-finite or out-of-range target, a timeStep outside kMinTimeStep..kMaxTimeStep:
  /// MK_ASSERT, ignored.
  void SetTargetTransform(BodyId body, const WorldTransform& target, float timeStep);
  bool IsSleepEnabled(BodyId body) const;  ///< BodyDef::enableSleep or SetSleepEnabled's
  /// The speed (m/s, finite, >= 0; else MK_ASSERT, unchanged) below which the body may sleep. @{
  void SetSleepThreshold(BodyId body, float threshold);
  float GetSleepThreshold(BodyId body) const;  ///@}
  /// Wakes the bodies touching this one (touching contacts, not sensors); static bodies too.
  void WakeTouching(BodyId body);
  /// The body's shape count; its shapes written into `out` (at most out.size(); returns how many),
  /// most recent first. A stale id: MK_ASSERT and 0. Joints likewise. @{
  int GetShapeCount(BodyId body) const;
  int GetShapes(BodyId body, Span<ShapeId> out) const;
  int GetJointCount(BodyId body) const;
  int GetJoints(BodyId body, Span<JointId> out) const;
  ///@}
  /// Frame conversions (m): a world point to the body frame and back, and vectors (rotation only). @{
  Vec2 GetLocalPoint(BodyId body, Pos worldPoint) const;
  Pos GetWorldPoint(BodyId body, Vec2 localPoint) const;
  Vec2 GetLocalVector(BodyId body, Vec2 worldVector) const;
  Vec2 GetWorldVector(BodyId body, Vec2 localVector) const;  ///@}
  /// Velocity (m/s, world frame) of the body's material point at a body-frame or a world point:
  /// v + w x (p - centre of mass). @{
  Vec2 GetLocalPointVelocity(BodyId body, Vec2 localPoint) const;
  Vec2 GetWorldPointVelocity(BodyId body, Pos worldPoint) const;  ///@}
  /// A name for tools, copied (cut at kMaxBodyNameLength characters; null clears). GetName: the
  /// world's copy ("" if none), valid until that body's next SetName or destruction. @{
  void SetName(BodyId body, const char* name);
  const char* GetName(BodyId body) const;
  ///@}
  // --- Shapes -----------------------------------------------------------------------------------

  /// Attaches a copy of the shape (body-local coordinates) and updates the body's mass. Null id
  /// (and MK_ASSERT) for a stale body or invalid def (negative density or friction, NaN). @{
  ShapeId CreateShape(BodyId body, const ShapeDef& def, const Circle& circle);
  ShapeId CreateShape(BodyId body, const ShapeDef& def, const Capsule& capsule);
  ShapeId CreateShape(BodyId body, const ShapeDef& def, const Segment& segment);
  ShapeId CreateShape(BodyId body, const ShapeDef& def, const Polygon& polygon);
  ///@}
  /// Destroys a shape (contacts end; the body's mass is updated). False if stale. A chain's segment
  /// cannot be destroyed alone: MK_ASSERT and false (destroy the chain).
  bool DestroyShape(ShapeId shape);
  bool IsValid(ShapeId shape) const;  ///< true when the id refers to a live shape

  BodyId GetBody(ShapeId shape) const;          ///< the body it is attached to; null for a stale id
  ShapeType GetShapeType(ShapeId shape) const;  ///< the geometry's type (Count for a stale id)
  /// Friction and restitution, 0..kMaxMaterialCoefficient (else MK_ASSERT, unchanged). A contact
  /// mixes its shapes' values when it is made, and the shape's contacts mix again when one changes. @{
  void SetFriction(ShapeId shape, float friction);
  float GetFriction(ShapeId shape) const;
  void SetRestitution(ShapeId shape, float restitution);
  float GetRestitution(ShapeId shape) const;  ///@}
  /// The whole surface material (SurfaceMaterial's ranges; a bad one: MK_ASSERT, unchanged); the
  /// shape's contacts mix again. GetMaterial of a stale id: SurfaceMaterial{}. @{
  void SetMaterial(ShapeId shape, const SurfaceMaterial& material);
  SurfaceMaterial GetMaterial(ShapeId shape) const;  ///@}
  void SetDensity(ShapeId shape, float density);     ///< kg/m^2; updates the body's mass
  /// ShapeDef::enablePreSolveEvents, from the next Step on.
  void EnablePreSolveEvents(ShapeId shape, bool enable);
  bool IsPreSolveEnabled(ShapeId shape) const;          ///< the flag above; false for a stale id
  void SetFilter(ShapeId shape, const Filter& filter);  ///< its pairs are filtered again now
  Filter GetFilter(ShapeId shape) const;                ///< the shape's filter (Filter{} for a stale id)
  void SetUserData(ShapeId shape, void* userData);      ///< the game's pointer; the world only stores it
  void* GetUserData(ShapeId shape) const;               ///< ShapeDef::userData; null for a stale id, quietly
  AABB GetAABB(ShapeId shape) const;                    ///< tight world AABB as of the last step
  /// The same box about `origin` (m, world): in the large-world build a float world box is as coarse as
  /// a float's spacing where the shape is (1 m at 10,000 km), a box about a nearby origin is not (the
  /// broadphase box moved by origin's offset from the world's float frame, rounded outwards). An
  /// origin beyond kMaxWorldPosition asserts and gives AABB{}.
  AABB GetAABB(ShapeId shape, Pos origin) const;
  // Geometry changed in place (SetCircle, ..., GetPolygon): minkowski/shape_api.h, free functions.

  // --- Chains (chain.cpp) --------------------------------------------------------------------------

  /// Creates a chain of one-sided segment shapes on the body (see ChainDef for the rules, the open
  /// ends and the errors: MK_ASSERT and a null id, nothing created). Each segment is an ordinary
  /// shape of type ChainSegment: contacts, events, filters and queries see it; it has no mass.
  ChainId CreateChain(BodyId body, const ChainDef& def);
  /// Destroys the chain and its segments (their contacts end). False (and MK_ASSERT) if stale.
  /// Destroying the body destroys its chains.
  bool DestroyChain(ChainId chain);
  bool IsValid(ChainId chain) const;  ///< true when the id refers to a live chain
  /// The chain's segments in order (segment i joins points i and i + 1), at most out.size() written to
  /// `out`; returns how many (as GetShapes; stale id: MK_ASSERT, 0). Vector: mk::GetChainSegments.
  int GetChainSegments(ChainId chain, Span<ShapeId> out) const;
  int GetChainSegmentCount(ChainId chain) const;  ///< number of segments (stale: MK_ASSERT, 0)
  /// The chain a segment belongs to; null for a standalone chain segment (CreateChainSegmentShape) or
  /// any other shape (a stale shape id: MK_ASSERT).
  ChainId GetChain(ShapeId shape) const;
  BodyId GetBody(ChainId chain) const;  ///< the chain's body (a stale id: MK_ASSERT and null)

  // --- Joints -----------------------------------------------------------------------------------

  /// Creates a joint; null id (and MK_ASSERT) for stale bodies, the same body twice, or invalid
  /// values (NaN, negative lengths / torques / forces, lower > upper). Wakes both bodies. @{
  JointId CreateJoint(const RevoluteJointDef& def);
  JointId CreateJoint(const PrismaticJointDef& def);
  JointId CreateJoint(const DistanceJointDef& def);
  JointId CreateJoint(const WeldJointDef& def);
  JointId CreateJoint(const WheelJointDef& def);
  JointId CreateJoint(const MouseJointDef& def);
  JointId CreateJoint(const MotorJointDef& def);   ///< maxForce, maxTorque finite >= 0; factor in 0..1
  JointId CreateJoint(const FilterJointDef& def);  ///< only stops the two bodies' shapes colliding
  // The runtime setters and getters of every joint type: minkowski/joint_api.h (free functions).
  ///@}
  /// Destroys a joint (wakes its bodies; their shapes may collide again). False if stale.
  bool DestroyJoint(JointId joint);
  bool IsValid(JointId joint) const;                ///< true when the id refers to a live joint
  JointType GetJointType(JointId joint) const;      ///< the joint's type (Revolute for a stale id)
  void SetUserData(JointId joint, void* userData);  ///< the game's pointer; the world only stores it
  void* GetUserData(JointId joint) const;           ///< the def's userData; null for a stale id, quietly

  /// Constraint force (N) that the joint applied to bodyB during the last step, at its anchor.
  Vec2 GetJointReactionForce(JointId joint) const;
  float GetJointReactionTorque(JointId joint) const;  ///< torque (N m) on bodyB during the last step

  /// Revolute: joint angle (rad, angleB - angleA - referenceAngle).
  float GetRevoluteAngle(JointId joint) const;
  /// Prismatic: translation of anchor B along the axis from anchor A (m).
  float GetPrismaticTranslation(JointId joint) const;
  float GetDistanceJointLength(JointId joint) const;  ///< distance joint: current anchor distance (m)

  /// Motor speed of a revolute (rad/s), prismatic (m/s), distance (m/s) or wheel (rad/s) joint.
  void SetMotorSpeed(JointId joint, float speed);
  void SetMouseTarget(JointId joint, Pos target);  ///< mouse joint target (m, world)

  // --- Events and inspection ----------------------------------------------------------------------

  /// The events of the last Step, in a deterministic order. Owned by the world; a span stays valid,
  /// and its contents unchanged, until the next Step whatever the game calls meanwhile (destroying
  /// bodies while iterating is safe). End events raised by calls between two Steps (destroying a
  /// touching shape or body, a filter change, disabling a body) are reported with the next Step's
  /// events, before those the Step itself raises, as Box2D v3 does. An event's ids may be stale by
  /// the time it is read (the shape was destroyed): compare them, IsValid() them before use. @{
  Span<const ContactBeginEvent> GetContactBeginEvents() const;
  Span<const ContactEndEvent> GetContactEndEvents() const;
  Span<const ContactHitEvent> GetContactHitEvents() const;
  ///@}
  /// A shape with enableSensorEvents began / stopped overlapping a sensor shape (ShapeDef::isSensor) of
  /// another body. Sensors push nothing and raise no contact events; two sensors do not see each
  /// other; a sensor, like any contact, needs a dynamic body on one side. Destroying either shape
  /// while they overlap raises the end event (reported with the next Step's events, as above). A
  /// fast body (SolverSettings::enableContinuous) whose path crosses a sensor within one Step, so that
  /// it overlaps it at neither end of the Step, gets the begin event in that Step and the end event in
  /// the next (continuous collision sees static and sleeping sensors, bullets every sensor). @{
  Span<const SensorBeginEvent> GetSensorBeginEvents() const;
  Span<const SensorEndEvent> GetSensorEndEvents() const;
  ///@}
  /// One event per body the last Step simulated, in solver order (the awake set's slot order): every
  /// dynamic or kinematic body awake and enabled when the solver ran (those that rested without
  /// moving too, and those a new contact woke), with its transform after continuous collision; a body
  /// the Step put to sleep has fellAsleep set (Box2D v3's body move events). A body that did not take
  /// part has none: asleep, disabled or static, or woken only after the solver ran (by a fast body's
  /// impact), which does not move it. Nor does a body moved between Steps (SetTransform): read it
  /// where you set it. Not kept by snapshots: a restored world has none until it steps.
  Span<const BodyMoveEvent> GetBodyMoveEvents() const;
  /// Joints past their force or torque threshold at the end of the last Step, in slot order.
  Span<const JointEvent> GetJointEvents() const;

  /// Sets (or, with a null `fn`, clears) the pre-solve callback; `context` is passed back to it.
  ///
  /// During Step, after the narrowphase, `fn` is called for every contact that has manifold points
  /// and a shape with ShapeDef::enablePreSolveEvents (sensor pairs never), in contact slot order. With
  /// several workers (WorldDef::tasks) those calls come from the workers, at the same time and in any
  /// order: `fn` must then be safe to call concurrently, and its answers must not depend on the order
  /// of the calls (or the results will depend on the scheduling). The world's getters are safe; its
  /// queries are refused from those calls (as from the continuous stage's).
  /// Returning false disables the contact for this step (as in Box2D v3): its manifold is emptied, so
  /// it is not touching this step. It then applies no impulse, raises no begin or hit event (an end
  /// event if it touched the step before), is absent from ForEachTouchingContact and
  /// GetBodyContactData, joins no island and wakes nobody. It is asked again every step.
  ///
  /// The continuous stage asks too: when a fast body (or a bullet) would be stopped at its time of
  /// impact against a shape of such a pair, `fn` gets the manifold at the time-of-impact pose (the
  /// start pose when the body already touches), and false lets the body pass that shape for this
  /// step; so a one-way platform lets a fast body through from below. (The callback only ever sees
  /// manifolds with points: a pose without any, possible only when the sweep stopped short of contact,
  /// is not shown, and the body stops there as it would without the callback.) Those calls come after the
  /// narrowphase's, in the order of the fast bodies (slot order, bullets last), then the broadphase's;
  /// with several workers and at least 32 fast bodies, those of fast bodies that are not bullets come
  /// from the workers, at the same time and in any order, as the narrowphase's, and a body's sweep may
  /// be asked again in its turn on the calling thread (it met a moving sensor, or a jointed partner's
  /// impact moved it back): answer from the arguments only, and the answers hold for any worker count.
  ///
  /// `fn` may read the world (getters, queries; not queries from the continuous stage's calls), and
  /// every call that would change it is refused: the world is locked (world_callbacks.h).
  void SetPreSolveCallback(PreSolveFn fn, void* context);
  /// The same with any callable that also gets the world (PreSolveCallable); empty clears.
  void SetPreSolveCallback(PreSolveCallable fn);

  /// How contacts mix friction / restitution from then on (MixFn); null restores the defaults,
  /// sqrt(fA fB) and max(eA, eB). Contacts that exist keep their mix until a material of theirs
  /// changes. Not recorded in replays; snapshots do not hold them (pointers): RestoreSnapshot keeps
  /// the world's own, and the contacts it restores keep the values they had. @{
  void SetFrictionCallback(MixFn fn);
  void SetRestitutionCallback(MixFn fn);  ///@}
  /// The custom pair filter (CustomFilterFn) and its context; null removes it. Pairs already made
  /// stay. Replays and snapshots treat it as the mixing callbacks.
  void SetCustomFilterCallback(CustomFilterFn fn, void* context);
  /// WorldDef::userData unless changed. Not kept by snapshots (a pointer): RestoreSnapshot keeps the
  /// world's own. @{
  void SetUserData(void* userData);
  void* GetUserData() const;
  ///@}
  /// A live contact? (ContactId; quiet: a stale, null or foreign id gives false, no MK_ASSERT.)
  bool IsValid(ContactId contact) const;
  /// Box2D v3's b2Contact_GetData: shapes, manifold (last Step; no points when not touching), mixed
  /// surface. A stale, null or foreign id: ContactData{} (null ids, pointCount 0), quietly.
  ContactData GetContactData(ContactId contact) const;

  /// An upper bound on the number of touching contacts of a body: the contacts it has (touching or
  /// not, sensor pairs included). 0 and MK_ASSERT for a stale id.
  int GetBodyContactCapacity(BodyId body) const;

  /// Writes the body's touching contacts (a point within the speculative distance; the same contacts
  /// ForEachTouchingContact visits for this body) into `out` and returns how many it wrote, at most
  /// out.size(). Walks the body's own contact list, not the world's: most recently made contact first.
  /// Manifolds as of the last Step (points in world coordinates, normal from shapeA to shapeB, impulses). A
  /// stale id: MK_ASSERT and 0.
  int GetBodyContactData(BodyId body, Span<ContactData> out) const;

  /// An upper bound on GetSensorOverlaps's count for a sensor shape: the shapes it has a sensor pair
  /// with (their boxes overlap). 0 for a shape that is not a sensor; 0 and MK_ASSERT for a stale id.
  int GetSensorCapacity(ShapeId sensor) const;

  /// Writes the shapes that overlap the sensor into `out` and returns how many it wrote, at most
  /// out.size(). The set is exactly the one the sensor events describe: a shape is listed from the
  /// Step whose SensorBeginEvent reported it until the one whose SensorEndEvent does, with the same
  /// rules (a visitor with enableSensorEvents on another body, filters, overlap as of the narrowphase
  /// of the last Step, before that Step moved the bodies). Calls between Steps that end an overlap
  /// (destroying either shape, a filter change, disabling a body) remove it at once; their end events
  /// come with the next Step. A shape that crossed the sensor within one Step (see
  /// GetSensorBeginEvents) is not listed: it overlapped at no narrowphase. Order: the sensor body's
  /// contact list, most recent first. Not a sensor: 0. A stale id: MK_ASSERT and 0.
  int GetSensorOverlaps(ShapeId sensor, Span<ShapeId> out) const;

  /// Applies an explosion's impulses now (model and units: ExplosionDef). Invalid values (non-finite,
  /// negative radius or falloff, lengths beyond kMaxWorldLength) fail an MK_ASSERT and do nothing.
  /// Shapes are found through the broadphase and pushed in slot order.
  void Explode(const ExplosionDef& def);

  /// Calls `visit` for every touching contact (a manifold point within the speculative distance; a
  /// fast-closing pair's farther speculative points alone do not touch), in creation order.
  template <class Visitor>
  void ForEachTouchingContact(Visitor&& visit) const;

  /// Draws bodies, shapes, contacts and joints through the interface. The world is locked while it
  /// draws: a DebugDraw method may read the world but not change it.
  void Draw(DebugDraw& draw, const DrawOptions& options = {}) const;

  /// Recording of the continuous stage (off by default, then it costs nothing): while on, every Step
  /// lists the bodies its continuous stage moves back (ContinuousRecord, at most
  /// kMaxContinuousRecords), for DrawOptions::continuous and for tools. The list is cleared at the
  /// start of each Step's continuous stage and kept in memory reserved here, so Step still allocates
  /// nothing. Switching off empties the list and frees it. @{
  void SetContinuousRecording(bool enabled);
  bool IsContinuousRecording() const;  ///@}
  /// The last Step's records, in the stage's order. Valid until the next Step or
  /// SetContinuousRecording call.
  Span<const ContinuousRecord> GetContinuousRecords() const;

  // --- Queries ------------------------------------------------------------------------------------

  /// Calls `visit(ShapeId)` for every enabled shape whose tight AABB (as of the last step, or its
  /// creation) overlaps `box` (metres), in broadphase order. `visit` returns false to stop early.
  /// A non-finite or inverted box asserts and visits nothing. Const, but see BroadPhase::QueryAABB:
  /// two queries must not run at the same time. The world is locked while `visit` runs (world_callbacks.h):
  /// changes and queries that walk the broadphase are refused.
  template <class Visitor>
  void QueryAABB(const AABB& box, Visitor&& visit) const;
  /// QueryAABB with the box in metres about the world point `origin` (as Box2D v3's b2World_OverlapAABB
  /// takes one): the way to give a box far from zero in the large-world build, where a float box is as
  /// coarse as a float's spacing there. An origin beyond kMaxWorldPosition asserts and visits nothing.
  template <class Visitor>
  void QueryAABB(Pos origin, const AABB& box, Visitor&& visit) const;

  /// True when the world point (metres) lies inside the shape or on its boundary (radius included).
  /// False for a stale id or a non-finite point.
  bool TestPoint(ShapeId shape, Pos point) const;

  // --- World queries (queries.cpp) -------------------------------------------------------------
  //
  // Every query runs through the broadphase, then tests each candidate exactly (RayCastShape,
  // ShapeCast, GJK overlap), against the shapes as they are now: bodies as of the last Step or the
  // last SetTransform. Shapes of disabled bodies are never seen; a QueryFilter picks the rest. Ray and
  // shape casts skip sensor shapes (a sensor has no surface to hit); overlap and point queries report
  // them. Queries are const and change nothing, but share the broadphase's scratch (see
  // BroadPhase::QueryAABB): two queries on one World must not run at the same time. The world is
  // locked while a callback runs (world_callbacks.h): a call that would change it is refused, and so is a
  // query from a CastRay or CastShape callback. Invalid input (non-finite values, coordinates beyond
  // kMaxCastLength, an invalid ShapeGeometry) fails an MK_ASSERT and finds nothing.

  /// The first shape the ray origin + t * translation (metres, t in [0, 1]) enters, or a hit of
  /// false. A shape whose inside holds the origin is not hit (see RayCastShape). A zero translation
  /// hits nothing and is not an error. Equal fractions go to the shape the broadphase visits first.
  CastHit CastRayClosest(Pos origin, Vec2 translation, const QueryFilter& filter = {}) const;

  /// Every shape the ray enters, sorted by fraction (ties by shape slot): returns how many, writes the
  /// nearest min(that, out.size()) to `out` in order (sorted in the world's scratch: no allocation once
  /// warmed up). Into a std::vector: mk::CastRayAll (world_vector.h).
  int CastRayAll(Pos origin, Vec2 translation, const QueryFilter& filter, Span<CastHit> out) const;

  /// Calls `float fn(const CastHit&)` for shapes the ray enters, nearest broadphase box first (not
  /// strictly by fraction). What fn returns steers the cast, as in Box2D: a value < 0 ignores this
  /// hit and goes on unchanged, 0 stops at once, f > 0 clips the ray to fractions <= f (return
  /// hit.fraction to find the closest hit, 1 to see every hit).
  template <class Fn>
  void CastRay(Pos origin, Vec2 translation, const QueryFilter& filter, Fn&& fn) const;

  /// The first shape that `shape` (any ShapeGeometry, a point as Circle{p, 0}; placed by `xf`) touches
  /// when translated by t * translation (m, t in [0, 1], no rotation), by ShapeCast (kShapeCastTolerance):
  /// point and normal on the shape hit. A shape it overlaps at t = 0 is hit at fraction 0. Equal
  /// fractions go to the lowest shape slot. The broadphase walks the boxes the shape's bounding box
  /// meets in order and stops past the best hit, so the cost grows with what lies before the hit.
  CastHit CastShapeClosest(const ShapeGeometry& shape, const WorldTransform& xf, Vec2 translation,
                           const QueryFilter& filter = {}) const;

  /// Calls `float fn(const CastHit&)` for the shapes the cast touches, in increasing fraction (ties
  /// by shape slot), steered by its return value as in CastRay. A hit waits in the world's reused
  /// scratch until no shape left can come before it: no allocation once warmed up.
  template <class Fn>
  void CastShape(const ShapeGeometry& shape, const WorldTransform& xf, Vec2 translation,
                 const QueryFilter& filter, Fn&& fn) const;

  /// Calls `bool visit(ShapeId)` for every shape that overlaps or touches `shape` (placed by `xf`):
  /// exact, by GJK on the two shapes, radii included. `visit` returns false to stop.
  template <class Visitor>
  void OverlapShape(const ShapeGeometry& shape, const WorldTransform& xf, const QueryFilter& filter,
                    Visitor&& visit) const;

  /// Calls `bool visit(ShapeId)` for every shape that overlaps or touches the box (metres): exact,
  /// the shape itself against the box, not its bounding box (compare QueryAABB). A box of zero width
  /// or height (a segment, a point) is fine; an inverted or non-finite one asserts. `visit` returns
  /// false to stop.
  template <class Visitor>
  void OverlapAABB(const AABB& box, const QueryFilter& filter, Visitor&& visit) const;
  /// OverlapAABB with the box in metres about the world point `origin` (see QueryAABB's origin form):
  /// exact wherever the box is, as the test runs in a float frame at `origin`.
  template <class Visitor>
  void OverlapAABB(Pos origin, const AABB& box, const QueryFilter& filter, Visitor&& visit) const;

  /// Calls `bool visit(ShapeId)` for every shape that contains the world point (metres), boundary and
  /// radius included (TestPoint's answer). `visit` returns false to stop.
  template <class Visitor>
  void OverlapPoint(Pos point, const QueryFilter& filter, Visitor&& visit) const;

  // --- Movers (mover_queries.cpp; the solver and the clip: minkowski/mover.h) ------------------
  //
  // A mover is a capsule given in world coordinates (radius > 0, points within kMaxCastLength) that
  // the game moves itself. Both calls see what the other queries see (the filter; no sensors) and one
  // side of a chain segment only (a mover whose centre is behind a chain does not see it). A non-finite
  // or out-of-range mover or translation fails an MK_ASSERT and finds nothing (CastMover returns 0);
  // so does a call from a CastRay, CastShape or QueryAABB callback. Neither calls game code.

  /// The planes around the mover: one PlaneResult for every shape whose surface is within
  /// kMoverCollideDistance of the mover's, or overlaps it (separation by GJK, by EPA when the
  /// mover's core is inside the shape), written to `out`; returns how many it wrote (at most
  /// out.size(); when more shapes are near, the nearest are kept). Planes sit kMoverSkin off the
  /// shapes (PlaneResult). Order: the broadphase's.
  int CollideMover(const Capsule& mover, const QueryFilter& filter, Span<PlaneResult> out) const;

  /// The fraction (0..1) of `translation` (m) the mover can move before coming within kMoverSkin of a
  /// shape it starts at least that far from; a shape it starts nearer to (or overlapping) may be
  /// approached by at most kMoverEncroach more, so sliding along it is free. A shape the mover
  /// overlaps by nearly its radius or more is ignored (SolvePlanes must push the mover out). A zero
  /// translation gives 1. Exact up to kShapeCastTolerance (conservative advancement, ShapeCast); a
  /// grazing cast that would need more than kShapeCastMaxIterations steps is not stopped by that shape.
  float CastMover(const Capsule& mover, Vec2 translation, const QueryFilter& filter = {}) const;

  /// The point of the shape (solid, radius included) closest to `target` (world, metres): `target`
  /// itself when it lies inside the shape. A stale id or a non-finite target: MK_ASSERT and (0, 0).
  Pos GetClosestPoint(ShapeId shape, Pos target) const;

  /// A copy of the shape's geometry in its body's frame (the world's own copy stays untouched;
  /// copying a polygon of more than ShapeGeometry::kInlinePoints points allocates). Place it with
  /// GetTransform(GetBody(shape)). A stale id: MK_ASSERT and a default geometry (type Count).
  ShapeGeometry GetShapeGeometry(ShapeId shape) const;

  /// The world's broadphase, read-only: its layout, proxies and pairs for debugging tools. A proxy's
  /// user data is the shape's slot (ShapeId::index1 - 1).
  const BroadPhase& GetBroadPhase() const;

  // --- Recording (replay.h: the file, what is and is not recorded, ReplayPlayer) ------------------

  /// Starts recording every mutating call into a new recording. Only a new world records: nothing
  /// was ever created in it (gravity and settings may have changed; the recording starts from them).
  /// Otherwise, or when already recording: MK_ASSERT and false. Costs one test per call while off.
  bool StartRecording();
  /// Stops and returns the recording (a replay file: Replay::Load reads it; empty when not recording),
  /// kept by the World until its next Start/StopRecording or its end. Copy: mk::StopRecording.
  Span<const std::byte> StopRecording();
  bool IsRecording() const { return recorder_ != nullptr; }  ///< between StartRecording and StopRecording

  /// Internal state, for tests and tools that live next to the engine (engine/src/world). @{
  WorldState& State() { return *state_; }
  const WorldState& State() const { return *state_; }
  ///@}
 private:
  friend struct JointAccess;  // the joint API (joint_api.h) records its calls
  friend struct ShapeAccess;  // so does the shape API (shape_api.h)
  std::uint32_t Tag() const;
  void QueryAABBImpl(Pos origin, const AABB& box, bool (*visit)(ShapeId, void*), void* context) const;
  void CastRayImpl(Pos origin, Vec2 translation, const QueryFilter& filter,
                   float (*fn)(const CastHit&, void*), void* context) const;
  void CastShapeImpl(const ShapeGeometry& shape, const WorldTransform& xf, Vec2 translation,
                     const QueryFilter& filter, float (*fn)(const CastHit&, void*), void* context) const;
  // Exactly one of shape and box is non-null: the query shape placed by xf, or a box about xf.p.
  void OverlapShapeImpl(const ShapeGeometry* shape, const WorldTransform& xf, const AABB* box,
                        const QueryFilter& filter, bool (*visit)(ShapeId, void*), void* context) const;
  int ContactCapacity() const;
  // The contact at `slot` when it is live and touching (a point within the speculative distance).
  bool GetContactView(int slot, ContactView& out) const;

  OwnedPtr<WorldState> state_;
  OwnedPtr<Recorder> recorder_;  // non-null while recording; moves with the state
};

}  // namespace mk

#include "minkowski/joint_api.h"        // the joint setters and getters, free functions on a World
#include "minkowski/shape_api.h"        // geometry changed in place, free functions on a World
#include "minkowski/world_templates.h"  // the member templates' definitions (queries that take any callable)
