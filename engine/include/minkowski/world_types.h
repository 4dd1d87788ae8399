// SPDX-License-Identifier: MIT
// Minkowski — the plain data of the world API: ids, definitions, solver settings, events, profile.
#pragma once

#include "minkowski/export.h"
#include "minkowski/geometry.h"
#include "minkowski/math.h"
#include "minkowski/span.h"
#include "minkowski/task_system.h"

#include <cstddef>
#include <cstdint>

namespace MK_API mk {

// ---------------------------------------------------------------------------------------------
// Ids. Small handles with a generation counter and the tag of the world that made them: a destroyed
// object's id goes stale, an id from another World is foreign, and every API call detects both
// (MK_ASSERT + the documented no-op / default return). The default id is null.
// ---------------------------------------------------------------------------------------------

/// A body in a World. `index1` is the slot + 1 (0 = null); `world` is the tag of the World that made
/// it (every World gets its own, never 0, from a process-wide counter).
struct BodyId {
  std::uint32_t index1 = 0;      ///< slot + 1; 0 = null
  std::uint32_t generation = 0;  ///< the slot's generation when the id was made
  std::uint32_t world = 0;       ///< tag of the World that made it; 0 for the null id
  /// True for the null id (default-constructed). A non-null id may still be stale: World::IsValid.
  bool IsNull() const { return index1 == 0; }
  /// The same object of the same World: slot, generation and world tag equal.
  friend bool operator==(BodyId a, BodyId b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world == b.world;
  }
  friend bool operator!=(BodyId a, BodyId b) { return !(a == b); }  ///< not ==
};

/// A shape attached to a body.
struct ShapeId {
  std::uint32_t index1 = 0;      ///< slot + 1; 0 = null
  std::uint32_t generation = 0;  ///< the slot's generation when the id was made
  std::uint32_t world = 0;       ///< tag of the World that made it; 0 for the null id
  /// True for the null id (default-constructed). A non-null id may still be stale: World::IsValid.
  bool IsNull() const { return index1 == 0; }
  /// The same object of the same World: slot, generation and world tag equal.
  friend bool operator==(ShapeId a, ShapeId b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world == b.world;
  }
  friend bool operator!=(ShapeId a, ShapeId b) { return !(a == b); }  ///< not ==
};

/// A joint between two bodies.
struct JointId {
  std::uint32_t index1 = 0;      ///< slot + 1; 0 = null
  std::uint32_t generation = 0;  ///< the slot's generation when the id was made
  std::uint32_t world = 0;       ///< tag of the World that made it; 0 for the null id
  /// True for the null id (default-constructed). A non-null id may still be stale: World::IsValid.
  bool IsNull() const { return index1 == 0; }
  /// The same object of the same World: slot, generation and world tag equal.
  friend bool operator==(JointId a, JointId b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world == b.world;
  }
  friend bool operator!=(JointId a, JointId b) { return !(a == b); }  ///< not ==
};

/// A contact between two shapes (Box2D v3's b2ContactId), as the contact events name it: follow one
/// contact across steps by comparing ids, read it with World::GetContactData. A contact lives while
/// its two shapes' broadphase boxes overlap (touching or not); when it is destroyed its id goes stale
/// for good (a new contact of the same pair gets a new id). World::IsValid tells.
struct ContactId {
  std::uint32_t index1 = 0;      ///< slot + 1; 0 = null
  std::uint32_t generation = 0;  ///< the slot's generation when the id was made
  std::uint32_t world = 0;       ///< tag of the World that made it; 0 for the null id
  /// True for the null id (default-constructed). A non-null id may still be stale: World::IsValid.
  bool IsNull() const { return index1 == 0; }
  /// The same object of the same World: slot, generation and world tag equal.
  friend bool operator==(ContactId a, ContactId b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world == b.world;
  }
  friend bool operator!=(ContactId a, ContactId b) { return !(a == b); }  ///< not ==
};

/// A chain of one-sided segments on a body (World::CreateChain). Its segments are ordinary shapes
/// (ShapeId, type ChainSegment) that belong to it.
struct ChainId {
  std::uint32_t index1 = 0;      ///< slot + 1; 0 = null
  std::uint32_t generation = 0;  ///< the slot's generation when the id was made
  std::uint32_t world = 0;       ///< tag of the World that made it; 0 for the null id
  /// True for the null id (default-constructed). A non-null id may still be stale: World::IsValid.
  bool IsNull() const { return index1 == 0; }
  /// The same object of the same World: slot, generation and world tag equal.
  friend bool operator==(ChainId a, ChainId b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world == b.world;
  }
  friend bool operator!=(ChainId a, ChainId b) { return !(a == b); }  ///< not ==
};

// ---------------------------------------------------------------------------------------------
// What the world accepts. A value outside these bounds is refused at the call (MK_ASSERT, and a null
// id or no effect), or clamped where the documentation of the field says so; nothing a game passes
// can make the world's state NaN or infinite.
// ---------------------------------------------------------------------------------------------

/// The largest length the world accepts (m): body positions, joint anchors and targets, the points
/// and radii of shapes, joint lengths and translation limits, in absolute value. Box2D v3 bounds its
/// worlds by the same 100 km. Float spacing at 100 km is 8 mm, so keep the action far closer to the
/// origin than this; the bound exists so that no product of lengths (masses, inertias) overflows.
inline constexpr float kMaxWorldLength = 1e5f;

/// The farthest from the origin a world position may lie (m, each coordinate in absolute value): body
/// positions, explosion centres, mouse targets, query origins. kMaxWorldLength in the default build;
/// 1e8 m (100,000 km) in the large-world build (MK_LARGE_WORLDS), whose positions are doubles. There
/// the broadphase's float boxes grow by up to a float's spacing (1 m at 1e7 m, 8 m at 1e8 m), which
/// costs pairs, not accuracy (docs/design.md, "Large worlds"). Lengths (shape sizes, joint lengths)
/// stay bounded by kMaxWorldLength in both builds.
#if defined(MK_LARGE_WORLDS)
inline constexpr double kMaxWorldPosition = 1e8;
#else
inline constexpr float kMaxWorldPosition = kMaxWorldLength;
#endif

/// The fastest a body turns (rad/s, about 1,600 turns per second): angular speeds given to the API
/// (BodyDef, SetAngularVelocity, impulses) and those the solver computes are clamped to it, as linear
/// speeds are to SolverSettings::maxLinearSpeed. The solver's own cap is lower at ordinary rates:
/// half a turn per sub-step (754 rad/s at 60 Hz with 4 sub-steps; see SolverSettings::maxLinearSpeed).
inline constexpr float kMaxAngularSpeed = 1e4f;

/// The longest step World::Step takes (s). A longer one is refused: it is almost always a unit slip
/// (milliseconds passed as seconds), and it bounds how far a body can move in one step.
inline constexpr float kMaxTimeStep = 1.0f;

/// The shortest step World::Step takes (s): 1 microsecond. Shorter ones are refused; at a denormal
/// step the sub-step rate 1/h overflows.
inline constexpr float kMinTimeStep = 1e-6f;

/// Heaviest body the world accepts (kg) and its largest rotational inertia (kg m^2): a shape (or a
/// density) that would make its body heavier is refused (a static or kinematic body has no mass: its
/// shapes are held to these bounds one by one, and World::SetType refuses to make it dynamic while
/// they are heavier together). Impulses are masses times speeds, and these
/// bounds keep them finite at any speed the solver allows (a 1 km steel-dense box is about 1e10 kg
/// and 1.3e15 kg m^2). They also keep the joints' 2x2 solves finite: the determinant of a point
/// constraint (revolute, weld, mouse) is at least (1 / mass)^2 and that of a prismatic or wheel joint
/// at least 1 / (mass inertia), so at the bounds 1e-30 and 1e-36, well above 1 / FLT_MAX (2.9e-39).
/// (The bounds were 1e20 and 1e30: a 4.3e19 kg body on a mouse joint divided by 5e-40 and went NaN.)
///@{
inline constexpr float kMaxBodyMass = 1e15f;
inline constexpr float kMaxBodyInertia = 1e21f;
///@}

/// Largest friction or restitution coefficient a shape accepts. Friction 1,000 never slides and
/// restitution above 1 already adds energy; the bound keeps the bounce and friction impulses finite.
inline constexpr float kMaxMaterialCoefficient = 1000.0f;

/// Largest |tangent speed| a surface accepts (m/s, SurfaceMaterial::tangentSpeed): far beyond any
/// conveyor; the bound keeps the friction rows' targets finite.
inline constexpr float kMaxTangentSpeed = 1000.0f;

/// Stiffness bound (Hz) for joint springs and constraint softness (JointBase::constraintHertz,
/// spring hertz): the solver cannot resolve more than a quarter of its sub-step rate anyway, and
/// larger values would overflow the softness coefficients.
inline constexpr float kMaxHertz = 1e6f;

/// Damping ratio bound for the same springs and constraints (non-dimensional; 1 is critical).
inline constexpr float kMaxDampingRatio = 1e6f;

// ---------------------------------------------------------------------------------------------
// Bodies and shapes
// ---------------------------------------------------------------------------------------------

/// A dynamic body is "fast" in a step, and gets continuous collision (SolverSettings::enableContinuous),
/// when its motion over the step, |dp| + |w| dt turnExtent (turnExtent: its farthest core point from
/// the centre of mass; a rounding radius turns onto itself), exceeds this fraction of its smallest
/// extent (the smallest distance from a shape's core centre to its surface, over its shapes; at least
/// the linear slop). Below it a body cannot move its centre past a surface it did not already have a
/// contact with, so the speculative contacts are enough. Non-dimensional.
inline constexpr float kContinuousFastFraction = 0.5f;

/// Contact recycling (SolverSettings::enableContactRecycling): a touching contact keeps its manifold
/// (points, feature ids, impulses; each point's position and separation recomputed from where it sits
/// on the two bodies, the normal turned with A) while its two bodies' relative pose has moved less
/// than this since the manifold was computed (metres: translation plus rotation times the smaller
/// shape's extent, which bounds how far any point of one shape moved relative to the other). Two
/// fifths of the default linear slop (0.005 m): a reused point's position and separation are then
/// within this times (1 + the slope of the incident edge against the face) of a fresh computation's,
/// exact for a vertex on a face (the usual resting contact). A settling pile's bodies drift by
/// millimetres over its first second and a settled stack's by far less a step, so their manifolds are
/// computed once in many steps (docs/design.md gives the measured errors and why not 0.5 mm).
inline constexpr float kContactRecycleDistance = 0.002f;

/// Static bodies never move; kinematic bodies move by their velocity and ignore forces and contacts;
/// dynamic bodies respond to everything.
enum class BodyType : std::uint8_t { Static = 0, Kinematic, Dynamic };

/// Per-axis motion locks of a body (Box2D v3's b2MotionLocks). A locked axis is held exactly: the
/// centre of mass never moves along a locked world axis (x or y) and the rotation never changes, bit
/// for bit, whatever contacts, joints, forces and impulses do; the velocity along it stays 0. (The
/// body origin follows the centre: on a body whose centre is off its origin and that may turn, the
/// origin moves.) Rotation is locked through the rotational inertia (contacts and joints see it as
/// infinite); a linear axis is projected out of the velocity after every solver pass, a constraint
/// solved last (as v3); with both linear axes locked, the body's inverse mass is 0 as well.
struct MotionLocks {
  bool linearX = false;   ///< no motion of the centre of mass along world x
  bool linearY = false;   ///< no motion of the centre of mass along world y
  bool angularZ = false;  ///< no rotation (the same lock as BodyDef::fixedRotation)
};

/// Most characters a body name keeps (World::SetName); longer names are cut there.
inline constexpr int kMaxBodyNameLength = 31;

/// Everything needed to create a body. Defaults make a static body at the origin.
struct BodyDef {
  /// Static, kinematic or dynamic.
  BodyType type = BodyType::Static;
  Pos position{0.0f, 0.0f};         ///< world position of the body origin (m), |x|, |y| <= kMaxWorldLength
  float angle = 0.0f;               ///< radians, counter-clockwise
  Vec2 linearVelocity{0.0f, 0.0f};  ///< of the centre of mass (m/s); clamped to maxLinearSpeed
  float angularVelocity = 0.0f;     ///< rad/s; clamped to kMaxAngularSpeed
  float linearDamping = 0.0f;       ///< 1/s, >= 0; reduces linear velocity as v /= (1 + h c)
  float angularDamping = 0.0f;      ///< 1/s, >= 0
  float gravityScale = 1.0f;        ///< multiplies the world gravity for this body (finite)
  float sleepThreshold = 0.05f;     ///< m/s: the body may sleep below this speed
  /// No rotation (infinite rotational inertia): a synonym of motionLocks.angularZ; the body's
  /// rotation is locked when either is set.
  bool fixedRotation = false;
  MotionLocks motionLocks{};  ///< per-axis locks (MotionLocks)
  bool isAwake = true;        ///< start awake (a body created asleep waits to be touched)
  bool enableSleep = true;    ///< false keeps this body (and its island) awake
  bool isEnabled = true;      ///< a disabled body is out of the simulation entirely
  /// Continuous collision against dynamic bodies too. Every fast dynamic body (one that moves more
  /// than kContinuousFastFraction of its smallest extent in a step) is stopped at its time of impact
  /// with static shapes; a bullet that is fast is also stopped at its time of impact with non-bullet
  /// dynamic bodies (swept along their own motion of the step). Costs one broadphase query and a few
  /// GJK queries per fast step. Bullets do not sweep against each other or kinematic bodies.
  bool isBullet = false;
  void* userData = nullptr;  ///< yours; the engine never touches it
};

/// Every filter bit set: the default mask (accepts every category).
inline constexpr std::uint64_t kAllFilterBits = ~std::uint64_t{0};

/// Collision filtering (Box2D semantics): two shapes collide when both masks accept the other's
/// category, unless they share a non-zero group index: positive groups always collide, negative
/// groups never do. Shapes on the same body never collide. 64 categories, as Box2D v3.
struct Filter {
  std::uint64_t categoryBits = 1;           ///< the categories this shape is in (any bits)
  std::uint64_t maskBits = kAllFilterBits;  ///< the categories it collides with
  std::int32_t groupIndex = 0;  ///< 0: none; shapes of one positive group always collide, negative never
};

/// Which shapes a world query sees (as Box2D v3's b2QueryFilter): a shape is seen when
/// (shape's Filter::categoryBits & maskBits) != 0 and (categoryBits & shape's Filter::maskBits) != 0,
/// and it is not on `excludeBody`. Group indices play no part. The default sees every shape whose
/// mask accepts category 1.
struct QueryFilter {
  std::uint64_t categoryBits = 1;           ///< what the query is, tested against each shape's mask
  std::uint64_t maskBits = kAllFilterBits;  ///< which shape categories the query accepts
  /// The shapes of this body are not seen (a character's own shapes, when it casts from itself).
  /// Null (the default) excludes nothing; so does an id that names no live body of this world (a
  /// stale or foreign one), quietly: the body it named has no shapes left to exclude.
  BodyId excludeBody{};
};

/// One shape a ray or a shape cast touched (World::CastRay*, World::CastShape*). World frame.
struct CastHit {
  ShapeId shape{};          ///< the shape touched (null when hit is false)
  Pos point{0.0f, 0.0f};    ///< first point of that shape's surface touched (m)
  Vec2 normal{0.0f, 0.0f};  ///< the shape's outward unit normal there ((0, 0) for a cast starting in overlap)
  float fraction = 0.0f;    ///< where along the translation, 0..1: point = origin + fraction * translation
  bool hit = false;         ///< false: nothing touched, every other field zero
};

/// The surface of a shape (Box2D v3's b2SurfaceMaterial): what a contact mixes from its two shapes
/// when it is made. World::SetMaterial / GetMaterial, ChainDef::materials (one per segment).
/// Bad values (outside the ranges below, NaN) are refused with MK_ASSERT.
struct SurfaceMaterial {
  /// Coulomb coefficient, 0..kMaxMaterialCoefficient; pairs mix as sqrt(fA fB) (or the world's
  /// friction callback, World::SetFrictionCallback).
  float friction = 0.6f;
  /// Usually 0..1 (above 1 adds energy), at most kMaxMaterialCoefficient; pairs mix as max(eA, eB)
  /// (or World::SetRestitutionCallback).
  float restitution = 0.0f;
  /// Non-dimensional, 0..kMaxMaterialCoefficient (usually 0..1): a rolling shape feels a torque
  /// opposing its rolling of at most rollingResistance * radius * normal force (N m; the radius is the
  /// larger of the two shapes' rounding radii: a circle's or capsule's radius, 0 for polygons and
  /// segments). Pairs mix as max(rA, rB). A ball rolling on a slope of angle a stops when
  /// rollingResistance > tan(a).
  float rollingResistance = 0.0f;
  /// Conveyor belts (m/s, |v| <= kMaxTangentSpeed): the surface moves along itself at this speed,
  /// clockwise around the shape (to the right on its top face), and friction drags what touches it
  /// towards that speed. Pairs add: vA + vB.
  float tangentSpeed = 0.0f;
  std::uint64_t userMaterialId = 0;  ///< yours: handed to the mixing callbacks; the engine never reads it
  std::uint32_t customColor = 0;     ///< yours (0xRRGGBB for your debug draw); the engine never reads it
};

/// Material and behaviour of a shape. The surface fields are SurfaceMaterial's, flat (v3's
/// def.material.friction is def.friction here).
struct ShapeDef {
  float density = 1.0f;              ///< kg/m^2, >= 0
  float friction = 0.6f;             ///< SurfaceMaterial::friction
  float restitution = 0.0f;          ///< SurfaceMaterial::restitution
  float rollingResistance = 0.0f;    ///< SurfaceMaterial::rollingResistance
  float tangentSpeed = 0.0f;         ///< SurfaceMaterial::tangentSpeed (m/s)
  std::uint64_t userMaterialId = 0;  ///< SurfaceMaterial::userMaterialId
  std::uint32_t customColor = 0;     ///< SurfaceMaterial::customColor
  /// Which shapes it collides with.
  Filter filter{};
  bool isSensor = false;            ///< detects overlap (sensor events), no collision response
  bool enableContactEvents = true;  ///< report begin/end touch events for this shape
  bool enableHitEvents = false;     ///< report hit events (approach speed above the threshold)
  bool enableSensorEvents = true;   ///< this shape can be seen by sensors
  /// Contacts of this shape are shown to the World's pre-solve callback (World::SetPreSolveCallback)
  /// before they push, and may be disabled for a step there (one-way platforms). Off by default: a
  /// shape without it costs the narrowphase nothing.
  bool enablePreSolveEvents = false;
  /// Pairs with this shape are shown to the World's custom filter callback
  /// (World::SetCustomFilterCallback) before they become contacts; one of the two shapes asking is
  /// enough. Off by default: a shape without it costs the pair filter nothing.
  bool enableCustomFiltering = false;
  void* userData = nullptr;  ///< the game's pointer (World::GetUserData(ShapeId)); the world only stores it
};

/// An explosion (World::Explode): an impulse on every shape of a dynamic body near `position`.
///
/// Model (the idea of Box2D v3's b2World_Explode): for each accepted shape, c is its point closest
/// to `position` and d = |c - position|. Shapes with d > radius + falloff are untouched; the scale is
/// 1 for d <= radius, falling linearly to 0 at d = radius + falloff. The impulse is
/// impulsePerLength x w x scale (N s), where w (m) is the width the shape presents to the blast: its
/// extent, radius included, across the direction u = (c - position) / d (a circle of radius r
/// presents 2r; a box face-on its face). It acts along u at c, so it also turns the body. A shape
/// that holds `position` (d = 0) is pushed along the direction from `position` to its body's centre of
/// mass, at `position`, with its width across that direction; when that is also 0 it gets nothing.
/// Bodies hit are woken; static and kinematic bodies, sensors and disabled bodies are never pushed.
struct ExplosionDef {
  Pos position{0.0f, 0.0f};       ///< centre (m), |x|, |y| <= kMaxWorldLength
  float radius = 1.0f;            ///< full-strength radius (m), 0..kMaxWorldLength
  float falloff = 0.0f;           ///< width of the linear fade beyond the radius (m), 0..kMaxWorldLength
  float impulsePerLength = 1.0f;  ///< N s per metre of presented width, finite; negative pulls inwards
  /// Shapes whose Filter::categoryBits share a bit with this mask are pushed (group indices play no part).
  std::uint64_t maskBits = kAllFilterBits;
};

/// The shortest segment a chain accepts (m): two consecutive points (and, in a loop, the last and the
/// first) closer than this are refused as repeated. Box2D v3 refuses the same (its linear slop); a
/// shorter segment is below what the solver resolves and its normal is float noise.
inline constexpr float kMinChainSegmentLength = 0.005f;

/// A chain: a polyline (open) or polygon outline (loop) of one-sided segments, for terrain and walls
/// (World::CreateChain). Each segment collides only on its front side, the right of p[i] -> p[i + 1]
/// (so a counter-clockwise loop keeps bodies outside, a clockwise loop keeps them inside, as in Box2D
/// v3), and knows its neighbours' points (ghost vertices), so a body crossing from one segment to the
/// next feels one smooth surface. Segments have no mass and never collide with segments or other
/// chain segments.
///   open (isLoop false): points.size() >= 2, points.size() - 1 segments. The two end vertices have no
///     neighbour: each acts as a right-angled convex corner, as if the chain turned down behind itself
///     there, so a body beside an end (in front of the segment's line) is pushed back along the chain's
///     direction or off its face, and one behind it passes.
///   loop (isLoop true): points.size() >= 3, points.size() segments, the last joining p[n-1] to p[0].
/// Bad input (too few points, a non-finite point or one beyond kMaxWorldLength, consecutive points
/// closer than kMinChainSegmentLength, friction or restitution outside 0..kMaxMaterialCoefficient, a
/// bad material, a materials count other than 0, 1 or the segment count, a stale body): MK_ASSERT
/// and a null ChainId, nothing created.
struct ChainDef {
  Span<const Vec2> points;  ///< body-local (m); copied, need not outlive the call
  bool isLoop = false;
  float friction = 0.6f;     ///< every segment's, as ShapeDef::friction (when materials is empty)
  float restitution = 0.0f;  ///< every segment's, as ShapeDef::restitution (when materials is empty)
  /// Optional surface materials (copied): empty, the two fields above for every segment; one, that
  /// one for every segment; else exactly one per segment, segment i joining point i to point i + 1.
  Span<const SurfaceMaterial> materials{};
  Filter filter{};                 ///< every segment's
  bool enableSensorEvents = true;  ///< the segments can be seen by sensors
  void* userData = nullptr;        ///< every segment's shape user data (World::GetUserData(ShapeId))
  /// \var isLoop
  /// True: a closed outline, the last point joined to the first; false: an open polyline.
};

// ---------------------------------------------------------------------------------------------
// Solver settings: every number of the solver, changeable between steps (docs/design.md section 7).
// ---------------------------------------------------------------------------------------------

/// Which velocity solver runs.
enum class SolverMode : std::uint8_t {
  SoftStep = 0,  ///< sub-stepped soft constraints with relax and restitution passes (default)
  /// For comparison: Box2D 2.x's solver in one step (no sub-steps). classicIterations PGS velocity
  /// iterations with warm starting (friction, then the normal rows; a two-point manifold as one 2x2
  /// block), then three position passes that move the bodies to remove classicBaumgarte of each
  /// contact's overlap beyond linearSlop and of each joint's error (Baumgarte with slop, applied to
  /// positions: a velocity bias would stay in the bodies and throw stacks upwards). Restitution as in
  /// the soft step. At the defaults a column of 20 boxes stands (transient overlap 1 cm, at rest each
  /// contact within the slop); joint springs and motors keep their soft-step meaning, but rigid rows
  /// are rigid, so a limit is not pushed into by a motor as in the soft step.
  Classic
};

/// All solver tunables. Each field's range is in its comment; World::SetSolverSettings clamps
/// out-of-range values into it (and reports that by its return value); NaN leaves the previous value.
///
/// Mass ratios (soft step). A soft contact point is a spring of stiffness m_eff w^2 (w = 2 pi
/// contactHertz, staticContactScale times that against a static body), m_eff being the point's
/// effective mass, which under a light body is the light body's whatever rests on it. A point
/// carrying a force F rests compressed by F / (m_eff w^2): a body's own weight costs about g / w^2
/// (0.3 mm at 30 Hz), and a body N times heavier than the one it rests on sinks about N times that.
/// The spring sets this, not the iteration: more sub-steps or warm starting do not change it. Measured
/// with 1 m boxes, a heavy one placed on a 1 kg box on the ground, 10 s at the defaults (the spring
/// model in brackets): 10:1 sinks 5 mm (5 mm), 100:1 4.4 cm (4.4 cm), 300:1 13 cm (13 cm), 1000:1
/// 43 cm (44 cm; first overshoot 55 cm). The push-out cap (contactPushMaxSpeed) bounds the spring's
/// push, and so the load a deep contact carries (about 5 kN per point under a 1 kg box): from about
/// 1200:1 the heavy box crushes the light one down onto the ground (Box2D v3 from 1000:1).
/// Nothing is refused: where the sink matters keep a load path within a few hundred to one, or raise
/// contactHertz with more sub-steps (the sink falls as 1 / hertz^2; the cap is an eighth of the sub-step
/// rate). Box2D v3 has the same model and lists large mass ratios as a known limitation.
struct SolverSettings {
  /// Which velocity solver runs.
  SolverMode mode = SolverMode::SoftStep;
  int subSteps = 4;  ///< sub-steps per Step (1..64)
  /// contact stiffness (Hz, 0..1000); used up to an eighth of the sub-step rate (30 Hz at 60 Hz and 4
  /// sub-steps), and static contacts (staticContactScale times this) up to a quarter: stiffer springs
  /// than the sub-step resolves jitter instead of holding (docs/design.md, solver)
  float contactHertz = 30.0f;
  float contactDampingRatio = 10.0f;  ///< contact damping (non-dimensional, 0..1000)
  /// contacts with static bodies are this much stiffer (1..10), up to a quarter of the sub-step rate
  float staticContactScale = 2.0f;
  /// m/s (0..1000): the most a soft contact pushes overlapping shapes apart: the spring's bias is capped
  /// at this speed (as Box2D v3), so a deep overlap is pushed out no faster; it also bounds the load a
  /// deep contact carries (docs/design.md, solver: push-out and mass ratios)
  float contactPushMaxSpeed = 3.0f;
  float jointHertz = 60.0f;           ///< joint stiffness (Hz, 0..1000)
  float jointDampingRatio = 2.0f;     ///< joint damping (non-dimensional, 0..1000)
  float restitutionThreshold = 1.0f;  ///< m/s (0..1000): slower approaches do not bounce
  float hitEventThreshold = 1.0f;     ///< m/s (0..1e6): faster approaches raise hit events
  float linearSlop = 0.005f;          ///< m (0..1): allowed overlap, keeps contacts persistent
  float speculativeDistance = 0.02f;  ///< m (0..1): contacts exist up to this separation (4 x slop)
  /// m (0..10): the largest fat-AABB margin in the broadphase. Each shape's margin is the smaller of this
  /// and an eighth of its reach from its body origin (a 0.25 m box: 0.022 m), so that a crowd of small
  /// shapes keeps few pairs that never touch. A change reaches each proxy when it next leaves its fat box.
  float aabbMargin = 0.1f;
  /// m/s (0..1e5): speed cap of dynamic bodies. With it, a body turns at most half a turn per sub-step (754
  /// rad/s at 60 Hz and 4 sub-steps; more sub-steps allow more): a sub-step is linear in the rotation,
  /// and a body spun by radians within one (a few grams on a joint lever of metres) would take its
  /// constraints' impulses into levers they were not solved for and blow up. The caps apply to the
  /// motion of every sub-step and to the velocities a step ends with; a capped body's contacts and
  /// joints restart from zero impulse (no warm start), since their impulses were solved for speeds
  /// the cap took away. So finite valid input never gives a non-finite state, and no body moves or
  /// turns faster than the caps, although a constraint that asks for more is then not satisfied.
  float maxLinearSpeed = 400.0f;
  float timeToSleep = 0.5f;        ///< s (0..1e6) an island must rest before it sleeps
  bool enableWarmStarting = true;  ///< start contacts and joints from the last step's impulses
  bool enableRelax = true;         ///< the soft step's relax pass (velocities solved again without bias)
  bool enableRestitution = true;   ///< the restitution pass (bounces)
  bool enableSleep = true;         ///< islands that rest for timeToSleep fall asleep
  /// Continuous collision (docs/design.md section 7): fast dynamic bodies are moved back to their time
  /// of impact with static shapes (bullets, BodyDef::isBullet, with dynamic bodies too) after the
  /// solver moved them, so they do not pass through thin shapes. Velocities are kept.
  bool enableContinuous = true;
  /// Contact recycling (kContactRecycleDistance, docs/design.md narrowphase): a touching contact whose
  /// bodies barely moved relative to each other since its manifold was computed keeps it, placed at
  /// the current poses, instead of computing it again. New contacts, contacts without points, sensor
  /// pairs, chain segments, circles and bodies that were bullets or fast are always computed. Touching state
  /// and begin/end events stay the same as without it; false computes every manifold every step (a
  /// reference).
  bool enableContactRecycling = true;
  int classicIterations = 8;  ///< Classic mode: velocity iterations (1..256)
  /// Classic mode: fraction of the overlap beyond the slop (and of a joint's error) removed per
  /// position pass (0..1); three passes per step
  float classicBaumgarte = 0.2f;
};

/// How many contacts (or plain hinges) the solver's SIMD kernels solve at once (WorldDef::simdWidth).
/// Every width gives the same results, bit for bit (same state hashes): only the speed differs.
enum class SimdWidth : std::uint8_t {
  Automatic = 0,  ///< 8 lanes where the CPU has AVX2 and this build has the 8-lane kernels, else 4
  Lanes4,         ///< 4 lanes (SSE2 on x86-64), on every CPU
  /// 8 lanes (AVX2). Where the CPU has no AVX2, or the build has no 8-lane kernels (not x86-64, the
  /// MinGW and MK_DISABLE_SIMD builds), 4 lanes instead, as Automatic would choose: asking is safe.
  Lanes8,
};

/// World creation parameters.
struct WorldDef {
  Vec2 gravity{0.0f, -10.0f};  ///< m/s^2
  /// The solver's tunables (World::SetSolverSettings changes them later).
  SolverSettings settings{};
  void* userData = nullptr;  ///< yours (World::GetUserData()); the engine never touches it
  /// The workers Step may use (minkowski/task_system.h); the default: the calling thread alone.
  TaskSystem tasks{};
  /// Whether the solver's sub-steps use those workers (minkowski/task_system.h, WorkerUse); the same
  /// results every way. World::SetSubStepWorkers changes it later.
  WorkerUse subStepWorkers = WorkerUse::Measured;
  /// The solver kernels' lane count, fixed for the world's life (World::GetSimdWidth says what was
  /// chosen). Automatic suits a game; the others are for tests and benchmarks. Not kept by snapshots
  /// or replays: a world restored or replayed chooses again, with the same results.
  SimdWidth simdWidth = SimdWidth::Automatic;
  /// Large-world build (MK_LARGE_WORLDS): the point the broadphase measures its float boxes from
  /// (m, within kMaxWorldPosition). Put it where the action is: a box d metres from it rounds to a
  /// float's spacing at d, which only costs pairs, but near it the world steps exactly as one built
  /// at the origin (docs/design.md, "Large worlds"). The default build keeps its boxes in world
  /// coordinates and ignores it.
  Pos origin{0.0f, 0.0f};
};

// ---------------------------------------------------------------------------------------------
// Events (read after Step; valid until the next Step). Deterministic order: creation order of the
// contacts / sensors involved.
// ---------------------------------------------------------------------------------------------

/// Two shapes started touching (manifold went from 0 points to some).
struct ContactBeginEvent {
  /// The two shapes, as the contact orders them (its normal points from shapeA to shapeB).
  ///@{
  ShapeId shapeA, shapeB;
  ///@}
  /// The contact (World::GetContactData reads its manifold). Live when the event is published; stale
  /// once the contact is destroyed (its shapes' boxes parted, a shape destroyed), which may happen
  /// before the game reads the event if it destroys a shape first.
  ContactId contact;
};

/// Two shapes stopped touching, or one of them was destroyed.
struct ContactEndEvent {
  /// The two shapes, as the contact orders them (its normal points from shapeA to shapeB).
  ///@{
  ShapeId shapeA, shapeB;
  ///@}
  /// The contact that stopped touching. As in Box2D v3 it may be stale when read: a contact destroyed
  /// with the touch (shape or body destroyed or disabled, filter change, the boxes parted) is gone,
  /// while one that merely stopped touching lives on with an empty manifold. World::IsValid tells;
  /// GetContactData of a stale id is empty.
  ContactId contact;
};

/// Two shapes met with an approach speed above SolverSettings::hitEventThreshold.
struct ContactHitEvent {
  /// The two shapes, as the contact orders them (its normal points from shapeA to shapeB).
  ///@{
  ShapeId shapeA, shapeB;
  ///@}
  Pos point{0.0f, 0.0f};    ///< world point (m)
  Vec2 normal{0.0f, 0.0f};  ///< unit, from A to B
  float approachSpeed = 0;  ///< m/s, > 0
  ContactId contact;        ///< the contact that hit (live when the event is published)
};

/// A body the last Step moved (World::GetBodyMoveEvents): how a game syncs its sprites without scanning
/// every body.
struct BodyMoveEvent {
  BodyId body;               ///< the body that moved
  WorldTransform transform;  ///< the body's transform after the Step (GetTransform)
  void* userData = nullptr;  ///< the body's user data (GetUserData), as of the end of the Step
  bool fellAsleep = false;   ///< the Step put the body (and its island) to sleep: no events until it wakes
};

/// A joint whose reaction force or torque exceeded its threshold (JointBase::forceThreshold) at the
/// end of the last Step (World::GetJointEvents).
struct JointEvent {
  JointId joint;             ///< stale when `destroyed`
  void* userData = nullptr;  ///< the joint's user data
  Vec2 force{0.0f, 0.0f};    ///< its reaction force on bodyB in that Step (N)
  float torque = 0.0f;       ///< its reaction torque (N m)
  bool destroyed = false;    ///< the joint had destroyOnBreak: the world destroyed it
};

/// A shape entered a sensor.
struct SensorBeginEvent {
  /// The sensor shape and the shape that entered it.
  ///@{
  ShapeId sensorShape, visitorShape;
  ///@}
};

/// A shape left a sensor (or was destroyed).
struct SensorEndEvent {
  /// The sensor shape and the shape that left it.
  ///@{
  ShapeId sensorShape, visitorShape;
  ///@}
};

// ---------------------------------------------------------------------------------------------
// Profile and counters
// ---------------------------------------------------------------------------------------------

/// Milliseconds spent in each stage of the last Step (docs/design.md section 1).
struct Profile {
  float step = 0;         ///< the whole Step (ms)
  float broadphase = 0;   ///< pair updates for the proxies moved last step: contacts made and removed (ms)
  float narrowphase = 0;  ///< manifolds of the awake contacts, begin/end and sensor events (ms)
  float islands = 0;      ///< islands and sleeping (ms)
  float solver = 0;       ///< constraints, sub-steps, restitution, hit events, transforms, proxy moves (ms)
  float continuous = 0;   ///< time of impact of fast bodies and their moves back (ms)
  /// The workers the last Step's sub-steps ran on: 1 (the calling thread alone) or the task system's
  /// worker count (WorldDef::subStepWorkers).
  int subStepWorkers = 1;
  // No events entry: events have no stage of their own; each is recorded by the stage that finds it,
  // and its time counts there.
};

/// Sizes of the world after the last Step.
struct Counters {
  int bodies = 0;            ///< live bodies
  int awakeBodies = 0;       ///< bodies awake after the Step
  int shapes = 0;            ///< live shapes
  int contacts = 0;          ///< persistent contacts (broadphase pairs that passed filtering)
  int touchingContacts = 0;  ///< contacts with manifold points
  int joints = 0;            ///< live joints
  /// Awake islands built by the last Step; 0 when it built none because no island could sleep
  /// (sleeping off, or no body had rested for timeToSleep yet).
  int islands = 0;
  /// Manifold queries in the last Step, one per contact with an awake body (warm GJK, or SAT for a
  /// new polygon contact), sensor overlap tests included; recycled manifolds are not queries, nor are
  /// contacts whose shapes' bounding boxes are further apart than the speculative distance (their
  /// manifold is empty without a query).
  int narrowphaseQueries = 0;
  int gjkIterations = 0;  ///< GJK iterations summed over those queries (SAT and analytic pairs count 0)
  /// Manifolds reused by contact recycling in the last Step instead of computed (not counted in
  /// narrowphaseQueries; SolverSettings::enableContactRecycling).
  int manifoldsReused = 0;
  int fastBodies = 0;  ///< bodies that got continuous collision in the last Step (bullets included)
  int toiHits = 0;     ///< of those, the bodies moved back to a time of impact
};

/// What a World holds on the heap (World::GetMemoryStats), in bytes: each of its arrays' capacity
/// times its element's size, by what the arrays serve. Capacities, not live counts: the world keeps
/// the room of destroyed objects and of its busiest step for reuse (it never shrinks while it lives).
/// Not counted: the World object itself, memory the game's task system allocates, a recording's
/// buffer and snapshot scratch (their sizes are the caller's: StopRecording, SaveSnapshot).
struct MemoryStats {
  std::size_t bodies = 0;      ///< bytes: body records, names, id pool, awake set
  std::size_t shapes = 0;      ///< bytes: shape records, their geometries (vertices inline), id pool
  std::size_t contacts = 0;    ///< bytes: contact records (manifolds, caches), id pool, awake set
  std::size_t joints = 0;      ///< bytes: joint records, their body slots, id pool
  std::size_t chains = 0;      ///< bytes: chain records and their segment lists, id pool
  std::size_t broadphase = 0;  ///< bytes: proxies, sorted endpoints, pairs, the shape-pair map
  std::size_t step = 0;        ///< bytes: the step's reused scratch (solver arrays, islands, events)
  std::size_t total = 0;       ///< bytes: the sum of the above
};

}  // namespace mk
