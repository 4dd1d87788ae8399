// SPDX-License-Identifier: MIT
// Persistent contacts: created when the broadphase reports a new pair of fat AABBs, updated by the
// narrowphase every step while one of their bodies is awake, destroyed when the pair ends.
#include "core/parallel.h"
#include "geometry/segment_box.h"
#include "minkowski/assert.h"
#include "minkowski/distance.h"
#include "world/world_internal.h"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace mk {

namespace {

// A contact's two ends in its bodies' contact lists.
void LinkContact(WorldState& world, int contact) {
  for (int side = 0; side < 2; ++side) {
    LinkEdge(world.contacts, world.bodies[world.contacts[contact].edges[side].body].headContactEdge, contact,
             side);
  }
}

void UnlinkContact(WorldState& world, int contact) {
  for (int side = 0; side < 2; ++side) {
    UnlinkEdge(world.contacts, world.bodies[world.contacts[contact].edges[side].body].headContactEdge,
               contact, side);
  }
}

// Carries the impulses of points whose feature ids survive into the new manifold (warm starting).
void CarryImpulses(const Manifold& old, Manifold& fresh) {
  for (int i = 0; i < fresh.pointCount; ++i) {
    ManifoldPoint& p = fresh.points[i];
    for (int j = 0; j < old.pointCount; ++j) {
      if (old.points[j].id == p.id) {
        p.normalImpulse = old.points[j].normalImpulse;
        p.tangentImpulse = old.points[j].tangentImpulse;
        break;
      }
    }
  }
}

// The sensor and visitor of a sensor pair (contacts order their shapes by slot, not by role).
template <class Event>
Event MakeSensorEvent(const WorldState& world, const Contact& c) {
  const bool sensorIsA = world.shapes[c.shapeA].isSensor;
  return {world.MakeShapeId(sensorIsA ? c.shapeA : c.shapeB),
          world.MakeShapeId(sensorIsA ? c.shapeB : c.shapeA)};
}

Manifold CollideShapes(const WorldState& world, const Contact& c, const Transform& xfA, const Transform& xfB,
                       SimplexCache* cache, const ManifoldSettings& settings) {
  return CollideShapes(world, c.shapeA, c.shapeB, xfA, xfB, cache, settings);
}

// Sensor pairs ask only "do the shapes overlap?": a manifold without the speculative margin has a point
// exactly when the shapes touch, and overlap means some point is strictly inside (separation < 0).
bool SensorOverlaps(const WorldState& world, Contact& c, const WorldTransform& xfA,
                    const WorldTransform& xfB) {
  ManifoldSettings settings;
  settings.speculativeDistance = 0.0f;
  const Manifold m =
      CollideShapes(world, c, ContactTransformA(xfA), ContactTransformB(xfA, xfB), &c.cache, settings);
  bool overlap = false;
  for (int i = 0; i < m.pointCount; ++i) overlap = overlap || m.points[i].separation < 0.0f;
  return overlap;
}

// A sensor pair's begin or end event when its overlap changed to `overlap`.
// A sensor pair's begin event (`begun`) or end event, when its overlap changed.
void ReportSensorChange(WorldState& world, const Contact& c, bool begun) {
  if (begun) {
    world.sensorBeginEvents.push_back(MakeSensorEvent<SensorBeginEvent>(world, c));
  } else {
    world.pendingSensorEndEvents.push_back(MakeSensorEvent<SensorEndEvent>(world, c));
  }
}

void UpdateSensorOverlap(WorldState& world, Contact& c, const WorldTransform& xfA,
                         const WorldTransform& xfB) {
  const bool overlap = SensorOverlaps(world, c, xfA, xfB);
  if (overlap != c.sensorOverlap) ReportSensorChange(world, c, overlap);
  c.sensorOverlap = overlap;
}

// Contact recycling: a touching contact whose bodies barely moved relative to each other keeps its
// manifold, placed at their current poses, instead of computing it again. The idea is the persistent
// manifold of PhysX, by way of Box2D v3's contact recycling; docs/design.md (narrowphase) gives the
// bound and why touching state stays exact.

// Keeps what recycling needs of a freshly computed manifold: the relative pose it was computed at and
// each point's two surface ends (the point is midway between them along the normal) in the bodies'
// frames. Shape transforms are body transforms (as ContactTransforms gives them).
[[gnu::always_inline]] inline void StoreManifoldOrigin(Contact& c, const Transform& xfA,
                                                       const Transform& xfB) {
  const Manifold& m = c.manifold;
  ManifoldOrigin& o = c.origin;
  o.relativePose = InvMulTransforms(xfA, xfB);
  o.localNormal = InvRotate(xfA.q, m.normal);
  for (int i = 0; i < m.pointCount; ++i) {
    const Vec2 half = (0.5f * m.points[i].separation) * m.normal;
    o.localPointA[i] = InvTransformPoint(xfA, m.points[i].point - half);
    o.localPointB[i] = InvTransformPoint(xfB, m.points[i].point + half);
  }
  c.recyclable = m.pointCount > 0;
}

// How far any point of one shape can have moved relative to the other between relative poses `then`
// and `now` (B in A's frame): a point x of B moves by (now.p - then.p) + (R(now) - R(then)) x in A's
// frame, and |(R(now) - R(then)) x| = |now.q - then.q| |x| (the rotation's chord, 2 sin(dAngle / 2)).
// The same holds for A's points in B's frame; the smaller shape's extent gives the tighter bound.
[[gnu::always_inline]] inline float RelativeMotion(const Transform& now, const Transform& then, float extentA,
                                                   float extentB) {
  const float chord = Length(Vec2{now.q.c - then.q.c, now.q.s - then.q.s});
  if (extentB <= extentA) return Length(now.p - then.p) + chord * extentB;
  return Length(InvRotate(now.q, now.p) - InvRotate(then.q, then.p)) + chord * extentA;  // A's origin in B
}

// Reuses the contact's manifold when recycling allows it (see SolverSettings::enableContactRecycling):
// points, ids and impulses kept, each point's position and separation recomputed from its stored ends
// at the current poses, the normal turned with A. False (manifold untouched) when it must be computed.
[[gnu::always_inline]] inline bool RecycleManifold(Contact& c, const Body& bodyA, const Body& bodyB,
                                                   float extentA, float extentB, float speculativeDistance) {
  if (!c.recyclable || bodyA.isBullet || bodyB.isBullet || MovedFast(bodyA.motion) || MovedFast(bodyB.motion))
    return false;
  const auto& xfA = ContactTransformA(bodyA.xf);
  const auto& xfB = ContactTransformB(bodyA.xf, bodyB.xf);
  const ManifoldOrigin& o = c.origin;
  if (RelativeMotion(InvMulTransforms(xfA, xfB), o.relativePose, extentA, extentB) > kContactRecycleDistance)
    return false;
  Manifold& m = c.manifold;
  const Vec2 normal = Rotate(xfA.q, o.localNormal);
  Vec2 pA[2], pB[2];
  float separation[2];
  for (int i = 0; i < m.pointCount; ++i) {
    pA[i] = TransformPoint(xfA, o.localPointA[i]);
    pB[i] = TransformPoint(xfB, o.localPointB[i]);
    separation[i] = Dot(pB[i] - pA[i], normal);
    // Within the bound of the speculative distance a fresh computation might drop the point (or, for
    // the last one, end the touch): compute it then, so touching state and events stay exact.
    if (separation[i] > speculativeDistance - kContactRecycleDistance) return false;
  }
  m.normal = normal;
  for (int i = 0; i < m.pointCount; ++i) {
    ManifoldPoint& p = m.points[i];
    p.separation = separation[i];
    p.point = 0.5f * (pA[i] + pB[i]);
    p.anchorA = p.point - xfA.p;
    p.anchorB = p.point - xfB.p;
  }
  return true;
}

// Puts the contact in the awake set while either of its bodies is awake (static bodies never are).
void SetContactAwake(WorldState& world, int slot) {
  const Contact& c = world.contacts[slot];
  const bool awake = world.bodies[c.edges[0].body].awake || world.bodies[c.edges[1].body].awake;
  std::uint64_t& word = world.awakeContactBits[static_cast<std::size_t>(slot) / 64];
  const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
  word = awake ? (word | bit) : (word & ~bit);
}

// How UpdateManifold got the contact's manifold.
// Approached: computed out to the distance a moving pair closes this step (CollideApproaching).
enum class ManifoldUpdate { Computed, Reused, Apart, Approached };

// True when the shapes' tight boxes (current poses) are further apart than `distance` along x or y:
// the shapes are then at least that far apart, and every manifold point's separation is at least the
// shapes' distance, so a computed manifold would have no point. Pairs stay contacts while their fat
// boxes overlap (the broadphase margin, 0.1 m by default), so in a moving crowd most contacts are such
// near misses; this skips their GJK (Box2D v3 tests its fat boxes the same way before colliding).
bool BoxesApart(const AABB& a, const AABB& b, float distance) {
  return a.lower.x - b.upper.x > distance || b.lower.x - a.upper.x > distance ||
         a.lower.y - b.upper.y > distance || b.lower.y - a.upper.y > distance;
}

// A body pivoting on a still shape it touches (a domino tipping over, a thin box tipping onto a
// platform: BodyMotion::Pivoting) brings its far end down from beyond the speculative distance within
// one step, before any point exists there, and too slowly for the continuous stage to sweep it; the
// soft contact then meets the far end already deep (2.45 cm for 4 steps, a 2.1 m x 0.2 m box; 13.6 mm
// in double_domino). For such a pair the manifold is computed at the distance the pair can close
// within this step, dt (|w| turnExtent + the approach along the last normal), at most the broadphase
// margin, so the far points exist, speculative, before the end arrives. Touching stays "a point within
// the speculative distance": a grown manifold without one is emptied, so touching counts, begin / end
// events and pre-solve calls are those of the base distance. It keeps no origin: a reuse could not
// add the far points. Only still partners (static, or not moving): a pair of moving bodies would
// count both turns and grew crowds' contacts for little gain (docs/design.md, issue 28's residuals).
// Out of line: other pairs pay only the test in UpdateManifold. False when the pair does not grow.
[[gnu::noinline]] bool CollidePivoting(const WorldState& world, Contact& c, const Body& bodyA,
                                       const Body& bodyB, const ManifoldSettings& settings) {
  const bool pivotA = Pivots(bodyA.motion);
  const Body& moving = pivotA ? bodyA : bodyB;
  const Body& still = pivotA ? bodyB : bodyA;
  if (still.type == BodyType::Dynamic || still.angularVelocity != 0.0f || still.linearVelocity.x != 0.0f ||
      still.linearVelocity.y != 0.0f)
    return false;
  // The manifold's normal points from A to B.
  const float along = Dot(moving.linearVelocity, c.manifold.normal);
  const float approach = std::max(0.0f, pivotA ? along : -along);
  const float closing = std::fabs(moving.angularVelocity) * moving.turnExtent + approach;
  const float distance = std::min(world.narrowphaseDt * closing, world.settings.aabbMargin);
  if (!(distance > settings.speculativeDistance)) return false;
  ManifoldSettings grown = settings;
  grown.speculativeDistance = distance;
  Manifold manifold = CollideShapes(world, c, ContactTransformA(bodyA.xf),
                                    ContactTransformB(bodyA.xf, bodyB.xf), &c.cache, grown);
  bool touches = false;
  for (int i = 0; i < manifold.pointCount; ++i)
    touches = touches || manifold.points[i].separation <= settings.speculativeDistance;
  if (!touches) manifold.pointCount = 0;
  CarryImpulses(c.manifold, manifold);
  c.manifold = manifold;
  c.recyclable = false;
  return true;
}

// The velocity of the body's material point at `anchor` (relative to the body origin, world
// orientation).
Vec2 PointVelocity(const Body& body, Vec2 anchor) {
  return body.linearVelocity + Cross(body.angularVelocity, anchor - Rotate(body.xf.q, body.localCenter));
}

// A pair of moving bodies closing fast: B's travel relative to A's this step (turns left out) and its
// length, the distance the pair can close. A pair closing faster than the speculative distance a step
// (a 1 m box falling at 20 m/s onto another closes 33 cm, against 2 cm) overlaps before its contact
// exists, by up to what it closes in a step, and the soft contact then pushes that overlap out as a
// rebound (issue 28: a 10:1 landing at 20 m/s rebounded 1 m/s from a 30 cm overlap).
struct Approach {
  Vec2 travel{0.0f, 0.0f};
  float reach = 0.0f;  // |travel|; 0 when the pair is not approaching fast (FastApproach)
};

// The pair's Approach when its relative travel this step is more than kApproachFactor speculative
// distances; reach 0 otherwise. Static partners are the continuous stage's (it sweeps fast bodies
// against them), and chain segments keep their exact manifolds. No cap on the reach: MeetsThisStep
// and the points' own closing test keep far points to pairs that meet (capped at the smaller body's
// size, a 10 cm box falling at 14 m/s onto a rolling ball still met it 8.6 cm deep).
Approach FastApproach(const WorldState& world, const Body& bodyA, const Body& bodyB,
                      float speculativeDistance) {
  const Vec2 travel = world.narrowphaseDt * (bodyB.linearVelocity - bodyA.linearVelocity);
  const float squared = LengthSquared(travel);
  const float least = kApproachFactor * speculativeDistance;
  if (!(squared > least * least)) return {};  // most pairs: no root, and no look at the types
  if (bodyA.type == BodyType::Static || bodyB.type == BodyType::Static) return {};
  return {travel, std::sqrt(squared)};
}

// Whether box `b` moved along `travel` (any fraction of it) comes within `tolerance` of box `a`: the
// segment of b's centre against a grown by b's half extents and the tolerance (SegmentEntry, as the
// broadphase's box casts). The shapes lie inside their boxes, so when this is false they do not come
// within `tolerance` of each other along `travel` either.
bool SweptBoxMeets(const AABB& a, const AABB& b, Vec2 travel, float tolerance) {
  const Vec2 half = 0.5f * (b.upper - b.lower) + Vec2{tolerance, tolerance};
  return SegmentEntry(0.5f * (b.lower + b.upper), travel, 1.0f, AABB{a.lower - half, a.upper + half}) >= 0.0f;
}

// Iterations of ComesWithin's advancement; a pair still undecided after them is taken as meeting (its
// far points then keep only those whose gaps close within the step).
constexpr int kMeetIterations = 8;

// Whether shape B moved along `travel` (any fraction of it) comes within `within` of shape A, turns
// left out: conservative advancement (the distance falls at most as fast as the travel along the
// closest direction, so a step to where that bound reaches within / 2 never passes the meeting),
// warm started from the contact's simplex cache. ShapeCast does the same to 1e-4 m; "within the
// speculative distance" is all the far points need and takes fewer iterations.
bool ComesWithin(const WorldState& world, const Contact& c, const Transform& xfA, const Transform& xfB,
                 Vec2 travel, float within) {
  DistanceInput input{MakeProxy(world.geometries[c.shapeA]), MakeProxy(world.geometries[c.shapeB]), xfA, xfB};
  SimplexCache cache = c.cache;
  float t = 0.0f;
  for (int iteration = 0; iteration < kMeetIterations; ++iteration) {
    input.transformB.p = xfB.p + t * travel;
    const DistanceOutput distance = ShapeDistance(input, &cache);
    if (distance.status == DistanceStatus::InvalidInput) return false;
    if (distance.coresOverlap || distance.distance <= within) return true;
    const float rate = Dot(travel, distance.normal);  // d(t + dt) >= d(t) + dt rate
    if (rate >= 0.0f) return false;                   // not approaching along the closest direction
    t += (distance.distance - 0.5f * within) / -rate;
    if (t > 1.0f) return false;
  }
  return true;
}

// Whether the pair's shapes come within the speculative distance within this step as their bodies
// move now (ComesWithin). The far points' normals are guesses from the closest features; two boxes
// passing 7 cm apart at 80 m/s had their diagonal normal closing and were knocked aside. Only a pair
// that will meet gets far points. The tight boxes first (SweptBoxMeets): in a flung crowd most fast
// pairs pass by.
[[gnu::noinline]] bool MeetsThisStep(const WorldState& world, const Contact& c, const Body& bodyA,
                                     const Body& bodyB, Vec2 travel, float speculativeDistance) {
  if (!SweptBoxMeets(world.shapes[c.shapeA].aabb, world.shapes[c.shapeB].aabb, travel, speculativeDistance))
    return false;
  return ComesWithin(world, c, ContactTransformA(bodyA.xf), ContactTransformB(bodyA.xf, bodyB.xf), travel,
                     speculativeDistance);
}

// The manifold of a pair of moving bodies that was not touching and closes more than kApproachFactor
// speculative distances this step (FastApproach) and meets within it (MeetsThisStep): computed out
// to `reach`, then each point beyond the speculative
// distance kept only if its bodies close that point's gap within the step (relative velocity along
// the normal, turns included), so a pair passing by keeps no far point. The far points are ordinary
// speculative points: the solver lets the gap close this step and no further, so the bodies meet
// without the overlap. Touching stays "a point within the speculative distance" (UpdateTouching):
// far points alone are solved but raise no begin event, join no island and are not listed as
// touching; they do wake a sleeping partner, which must take its share of the impact. No origin is
// kept (a reuse could not add or drop far points). Out of line: most contacts never get here.
[[gnu::noinline]] ManifoldUpdate CollideApproaching(const WorldState& world, Contact& c, const Body& bodyA,
                                                    const Body& bodyB, const ManifoldSettings& settings,
                                                    float reach) {
  ManifoldSettings grown = settings;
  grown.speculativeDistance = reach;
  Manifold manifold = CollideShapes(world, c, ContactTransformA(bodyA.xf),
                                    ContactTransformB(bodyA.xf, bodyB.xf), &c.cache, grown);
  int kept = 0;
  for (int i = 0; i < manifold.pointCount; ++i) {
    const ManifoldPoint& p = manifold.points[i];
    // The normal points from A to B: A's point closing on B's along it shortens the gap.
    const float closing =
        Dot(PointVelocity(bodyA, p.anchorA) - PointVelocity(bodyB, p.anchorB), manifold.normal);
    if (p.separation <= settings.speculativeDistance || p.separation <= world.narrowphaseDt * closing)
      manifold.points[kept++] = p;
  }
  manifold.pointCount = kept;
  if (kept == 0) manifold.normal = {0.0f, 0.0f};
  CarryImpulses(c.manifold, manifold);
  c.manifold = manifold;
  c.recyclable = false;
  return ManifoldUpdate::Approached;
}

// The contact's manifold at the bodies' current poses: reused, or empty when the shapes are apart by
// more than the speculative distance, or computed (impulses of surviving feature ids carried).
// Inlined into both narrowphase loops, with RecycleManifold, RelativeMotion and StoreManifoldOrigin: called
// out of line (GCC's choice once it has two callers), the serial loop took 1.4% more instructions a step
// (large_pyramid, callgrind: the calls' setup and the spills around them, per contact).
template <bool kPivots>
[[gnu::always_inline]] inline ManifoldUpdate UpdateManifold(const WorldState& world, Contact& c,
                                                            const Body& bodyA, const Body& bodyB,
                                                            const ManifoldSettings& settings,
                                                            bool recycling) {
  const Shape& shapeA = world.shapes[c.shapeA];
  const Shape& shapeB = world.shapes[c.shapeB];
  // Chain segments (a chain's or standalone) are always computed: one-sided, with normals confined to
  // their vertices' cones, their manifolds can change abruptly with a small motion (a body's centre
  // crossing the segment's line, a normal leaving a cone), which the motion bound does not cover.
  const bool chain = shapeA.oneSided || shapeB.oneSided;
  c.recycled = recycling && !chain &&
               RecycleManifold(c, bodyA, bodyB, shapeA.extent, shapeB.extent, settings.speculativeDistance);
  if (c.recycled) return ManifoldUpdate::Reused;
  if (!c.touching && !chain) {
    const Approach approach = FastApproach(world, bodyA, bodyB, settings.speculativeDistance);
    if (approach.reach > 0.0f && !BoxesApart(shapeA.aabb, shapeB.aabb, approach.reach) &&
        MeetsThisStep(world, c, bodyA, bodyB, approach.travel, settings.speculativeDistance)) [[unlikely]]
      return CollideApproaching(world, c, bodyA, bodyB, settings, approach.reach);
  }
  // After the reuse test, which passes only for shapes within the speculative distance.
  if (BoxesApart(shapeA.aabb, shapeB.aabb, settings.speculativeDistance)) {
    c.manifold.pointCount = 0;  // what a computation gives; its warm-start impulses go with its points
    c.recyclable = false;
    return ManifoldUpdate::Apart;
  }
  if (kPivots && c.touching && (Pivots(bodyA.motion) || Pivots(bodyB.motion))) [[unlikely]] {
    if (CollidePivoting(world, c, bodyA, bodyB, settings)) return ManifoldUpdate::Computed;
  }
  Manifold manifold = CollideShapes(world, c, ContactTransformA(bodyA.xf),
                                    ContactTransformB(bodyA.xf, bodyB.xf), &c.cache, settings);
  CarryImpulses(c.manifold, manifold);
  c.manifold = manifold;
  // Kept only while recycling is on: a contact computed with it off holds no origin to reuse. Nor
  // with a circle: its contact lies on the line through its centre, whatever it turns, where a reused
  // manifold turns its points and normal with the bodies. Within the reuse bound that is a lever of
  // up to kContactRecycleDistance for every normal impulse, and a jammed crowd's push-out impulses
  // spun its circles for ever (issue 28: 625 circles confined in a box too small for them, 0.3 rad/s
  // after 10 s and never asleep; computed each step, they sleep at step 47). A circle's manifold is
  // the cheapest to compute anyway.
  const bool circle = world.geometries[c.shapeA].Type() == ShapeType::Circle ||
                      world.geometries[c.shapeB].Type() == ShapeType::Circle;
  if (recycling && !circle) {
    StoreManifoldOrigin(c, ContactTransformA(bodyA.xf), ContactTransformB(bodyA.xf, bodyB.xf));
  } else {
    c.recyclable = false;
  }
  return ManifoldUpdate::Computed;
}

}  // namespace

// The pair table's entry, called directly (the same result as Collide; the shapes were validated
// when they were made).
Manifold CollideShapes(const WorldState& world, int shapeA, int shapeB, const Transform& xfA,
                       const Transform& xfB, SimplexCache* cache, const ManifoldSettings& settings) {
  const ShapeGeometry& a = world.geometries[shapeA];
  const ShapeGeometry& b = world.geometries[shapeB];
  return GetCollideFunction(a.Type(), b.Type())(a, xfA, b, xfB, cache, settings);
}

bool WantsPreSolve(const WorldState& world, int shapeA, int shapeB) {
  return static_cast<bool>(world.preSolve) &&
         (world.shapes[shapeA].enablePreSolveEvents || world.shapes[shapeB].enablePreSolveEvents);
}

// Not inlined: the call through PreSolveCallable's pointer passes the World, two ShapeIds by value and
// the manifold, and that setup inlined into UpdateContacts's loop cost the loop a spilled register per
// contact even with no callback set (+2% of UpdateContacts, callgrind, large_pyramid).
[[gnu::noinline]] bool PreSolveAllows(const WorldState& world, int shapeA, int shapeB,
                                      const Manifold& manifold) {
  return world.preSolve(*world.api, world.MakeShapeId(shapeA), world.MakeShapeId(shapeB), manifold);
}

namespace {

// The pair's surface, as SurfaceMaterial documents it (Box2D v3 mixes the same way). Rolling
// resistance becomes an angular impulse bound per unit normal impulse (m): the larger coefficient
// times the larger rounding radius, the lever the resisting torque acts through.
// A callback's answer outside 0..kMaxMaterialCoefficient is refused for the default mix.
float Mix(MixFn fn, float valueA, std::uint64_t materialA, float valueB, std::uint64_t materialB,
          float fallback) {
  if (fn == nullptr) return fallback;
  const float mixed = fn(valueA, materialA, valueB, materialB);
  MK_ASSERT(ValidCoefficient(mixed));
  return ValidCoefficient(mixed) ? mixed : fallback;
}

void MixMaterials(const WorldState& world, Contact& c, const Shape& a, const Shape& b) {
  c.friction = Mix(world.frictionFn, a.friction, a.userMaterialId, b.friction, b.userMaterialId,
                   std::sqrt(a.friction * b.friction));
  c.restitution = Mix(world.restitutionFn, a.restitution, a.userMaterialId, b.restitution, b.userMaterialId,
                      std::max(a.restitution, b.restitution));
  const float radius = std::max(world.geometries[c.shapeA].Radius(), world.geometries[c.shapeB].Radius());
  c.rollingResistance = std::max(a.rollingResistance, b.rollingResistance) * radius;
  c.tangentSpeed = a.tangentSpeed + b.tangentSpeed;
}

}  // namespace

int CreateContactLinks(WorldState& world, int shapeA, int shapeB) {
  // Order the pair by shape slot so A/B (and the manifold normal) do not depend on report order.
  if (shapeB < shapeA) std::swap(shapeA, shapeB);
  bool added = false;
  int& entry = world.contactByShapes.Emplace(PairMap::Key(shapeA, shapeB), added);
  if (!added) return kNull;
  const int slot = world.contactIds.Allocate();
  entry = slot;  // before anything else can insert into the table
  if (slot >= static_cast<int>(world.contacts.size())) world.contacts.resize(slot + 1);
  Contact& c = world.contacts[slot];
  c.shapeA = shapeA;
  c.shapeB = shapeB;
  c.edges[0].body = world.shapes[shapeA].body;
  c.edges[1].body = world.shapes[shapeB].body;
  LinkContact(world, slot);
  const std::size_t words = static_cast<std::size_t>(slot) / 64 + 1;
  if (world.awakeContactBits.size() < words) world.awakeContactBits.resize(words, 0);
  SetContactAwake(world, slot);
  return slot;
}

void FillNewContact(WorldState& world, int slot) {
  Contact& c = world.contacts[slot];
  const BodyEdge edges[2] = {c.edges[0], c.edges[1]};
  const int shapeA = c.shapeA, shapeB = c.shapeB;
  c = Contact{};  // every other field at its default, whatever the slot held before
  c.edges[0] = edges[0];
  c.edges[1] = edges[1];
  c.shapeA = shapeA;
  c.shapeB = shapeB;
  const Shape& a = world.shapes[shapeA];
  const Shape& b = world.shapes[shapeB];
  MixMaterials(world, c, a, b);
  c.enableContactEvents = a.enableContactEvents || b.enableContactEvents;
  c.enableHitEvents = a.enableHitEvents || b.enableHitEvents;
  c.sensorEvents = a.isSensor != b.isSensor && (a.isSensor ? b.enableSensorEvents : a.enableSensorEvents);
}

void CreateContact(WorldState& world, int shapeA, int shapeB) {
  const int slot = CreateContactLinks(world, shapeA, shapeB);
  if (slot != kNull) FillNewContact(world, slot);
}

void DestroyContact(WorldState& world, int slot, bool raiseEndEvent) {
  Contact& c = world.contacts[slot];
  // Whatever a touching contact held (a box resting on the shape, a stack leaning on it) must be free
  // to move once it is gone, whichever way it went: shape or body destroyed, body disabled, filter
  // changed, or the pair's boxes parted.
  if (c.touching) {
    WakeBody(world, c.edges[0].body);
    WakeBody(world, c.edges[1].body);
  }
  if (raiseEndEvent && c.touching && c.enableContactEvents) {
    world.pendingEndEvents.push_back(
        {world.MakeShapeId(c.shapeA), world.MakeShapeId(c.shapeB), world.MakeContactId(slot)});
  }
  if (raiseEndEvent && c.sensorOverlap)
    world.pendingSensorEndEvents.push_back(MakeSensorEvent<SensorEndEvent>(world, c));
  world.contactByShapes.Erase(PairMap::Key(c.shapeA, c.shapeB));
  if (c.touching) --world.touchingContactCount;
  world.awakeContactBits[static_cast<std::size_t>(slot) / 64] &= ~(std::uint64_t{1} << (slot % 64));
  UnlinkContact(world, slot);
  world.contactIds.Free(slot);
}

void DestroyContactsOfShape(WorldState& world, int shape) {
  Body& body = world.bodies[world.shapes[shape].body];
  int key = body.headContactEdge;
  while (key != kNull) {
    int contact = key >> 1;
    int next = world.contacts[contact].edges[key & 1].next;
    const Contact& c = world.contacts[contact];
    if (c.shapeA == shape || c.shapeB == shape) DestroyContact(world, contact, true);
    key = next;
  }
}

namespace {

// The body's contacts whose shape has a place in world.shapeRankScratch (set by the caller, -1 for
// every other shape), destroyed in the order one walk per shape, shape by shape, would destroy them:
// by the shape's place, then by the contact's place in the body's list.
void DestroyRankedContacts(WorldState& world, int bodySlot) {
  const std::vector<int>& rank = world.shapeRankScratch;
  std::vector<WorldState::RankedContact>& ranked = world.rankedContactScratch;
  ranked.clear();
  std::uint32_t place = 0;
  for (int key = world.bodies[bodySlot].headContactEdge; key != kNull; ++place) {
    const int contact = key >> 1;
    const Contact& c = world.contacts[static_cast<std::size_t>(contact)];
    const int shape = (key & 1) == 0 ? c.shapeA : c.shapeB;  // this body's end of the contact
    const int r = rank[static_cast<std::size_t>(shape)];
    if (r >= 0) ranked.push_back({(std::uint64_t{static_cast<std::uint32_t>(r)} << 32) | place, contact});
    key = c.edges[key & 1].next;
  }
  std::sort(ranked.begin(), ranked.end(),
            [](const WorldState::RankedContact& x, const WorldState::RankedContact& y) {
              return x.order < y.order;
            });
  for (const WorldState::RankedContact& r : ranked) DestroyContact(world, r.contact, true);
}

// world.shapeRankScratch covers every shape slot (-1 where unset).
std::vector<int>& ShapeRanks(WorldState& world) {
  std::vector<int>& rank = world.shapeRankScratch;
  if (rank.size() < world.shapes.size()) rank.resize(world.shapes.size(), -1);
  return rank;
}

// Ranks the shapes forEachShape visits by the order it visits them in, destroys their contacts
// (DestroyRankedContacts) and leaves every rank -1 again. forEachShape(visit) calls visit(shape) for
// each shape, in the same order both times.
template <typename ForEachShape>
void DestroyContactsOfShapesInOrder(WorldState& world, int bodySlot, ForEachShape forEachShape) {
  std::vector<int>& rank = ShapeRanks(world);
  int place = 0;
  forEachShape([&](int shape) { rank[static_cast<std::size_t>(shape)] = place++; });
  DestroyRankedContacts(world, bodySlot);
  forEachShape([&](int shape) { rank[static_cast<std::size_t>(shape)] = -1; });
}

}  // namespace

void DestroyContactsOfShapes(WorldState& world, int bodySlot, std::span<const int> shapes) {
  if (shapes.size() == 1) {
    DestroyContactsOfShape(world, shapes[0]);  // one walk, no sort
    return;
  }
  DestroyContactsOfShapesInOrder(world, bodySlot, [&](auto visit) {
    for (int shape : shapes) visit(shape);
  });
}

void DestroyContactsOfBody(WorldState& world, int bodySlot) {
  const int head = world.bodies[bodySlot].headShape;
  if (head == kNull) return;
  if (world.shapes[head].nextShape == kNull) {
    DestroyContactsOfShape(world, head);  // one walk, no sort
    return;
  }
  DestroyContactsOfShapesInOrder(world, bodySlot, [&](auto visit) {
    for (int s = head; s != kNull; s = world.shapes[s].nextShape) visit(s);
  });
}

bool ValidContactMix(const Contact& c) {
  // The mixed rolling resistance is a coefficient times a radius (<= kMaxWorldLength); NaN fails.
  return ValidCoefficient(c.friction) && ValidCoefficient(c.restitution) && c.rollingResistance >= 0.0f &&
         c.rollingResistance <= kMaxMaterialCoefficient * kMaxWorldLength &&
         std::fabs(c.tangentSpeed) <= 2.0f * kMaxTangentSpeed;
}

void RemixContactsOfShape(WorldState& world, int shape) {
  for (int key = world.bodies[world.shapes[shape].body].headContactEdge; key != kNull;) {
    Contact& c = world.contacts[key >> 1];
    const int next = c.edges[key & 1].next;
    if (c.shapeA == shape || c.shapeB == shape) {
      MixMaterials(world, c, world.shapes[c.shapeA], world.shapes[c.shapeB]);
      // What rests on a surface that changed (a belt switched on) must feel it: wake it.
      if (c.touching) {
        WakeBody(world, c.edges[0].body);
        WakeBody(world, c.edges[1].body);
      }
    }
    key = next;
  }
}

void SetBodyContactsAwake(WorldState& world, int body) {
  for (int key = world.bodies[body].headContactEdge; key != kNull;) {
    SetContactAwake(world, key >> 1);
    key = world.contacts[key >> 1].edges[key & 1].next;
  }
}

void RebuildContactSets(WorldState& world) {
  const int capacity = world.contactIds.Capacity();
  world.awakeContactBits.assign(static_cast<std::size_t>(capacity) / 64 + 1, 0);
  world.touchingContactCount = 0;
  for (int slot = 0; slot < capacity; ++slot) {
    if (!world.contactIds.IsLive(slot)) continue;
    SetContactAwake(world, slot);
    if (world.contacts[slot].touching) ++world.touchingContactCount;
  }
}

namespace {

// The contact's manifold (UpdateManifold), counted in `queries` (with its GJK iterations) or `reused`,
// then the pre-solve callback's say: the game may disable the contact for this step, and it is then
// not touching (World::SetPreSolveCallback). True when it touches: a point within the speculative
// distance (an approached manifold's far points do not touch). Both narrowphase loops inline it.
template <bool kPivots>
[[gnu::always_inline]] inline bool UpdateTouching(const WorldState& world, Contact& c, const Body& bodyA,
                                                  const Body& bodyB, const ManifoldSettings& settings,
                                                  bool recycling, int& queries, int& iterations,
                                                  int& reused) {
  bool approached = false;
  switch (UpdateManifold<kPivots>(world, c, bodyA, bodyB, settings, recycling)) {
    case ManifoldUpdate::Computed:
      ++queries;
      iterations += c.cache.iterations;
      break;
    case ManifoldUpdate::Reused:
      ++reused;
      break;
    case ManifoldUpdate::Apart:
      break;
    case ManifoldUpdate::Approached:
      ++queries;
      iterations += c.cache.iterations;
      approached = true;
      break;
  }
  Manifold& manifold = c.manifold;
  if (manifold.pointCount > 0 && WantsPreSolve(world, c.shapeA, c.shapeB) &&
      !PreSolveAllows(world, c.shapeA, c.shapeB, manifold)) {
    manifold.pointCount = 0;
    c.recyclable = false;
  }
  if (approached) [[unlikely]] {
    bool within = false;
    for (int i = 0; i < manifold.pointCount; ++i)
      within = within || manifold.points[i].separation <= settings.speculativeDistance;
    return within;
  }
  return manifold.pointCount > 0;
}

// Prefetches what the narrowphase reads for the contacts a few places after `i` in `slots`: a contact
// points at its shapes and a shape at its body, in no order memory can guess, so the loop would wait
// on each load in turn. In three waves, each reading only what the wave before brought in: the contact
// eight ahead, its shapes and geometries four ahead, their bodies two ahead.
[[gnu::always_inline]] inline void PrefetchContactInputs(const WorldState& world, const int* slots, int i,
                                                         int count) {
  if (i + 8 < count) PrefetchContactRecord(world.contacts[slots[i + 8]]);
  if (i + 4 < count) {
    const Contact& c = world.contacts[slots[i + 4]];
    __builtin_prefetch(&world.shapes[c.shapeA]);
    __builtin_prefetch(&world.shapes[c.shapeB]);
    if (!c.recyclable) {  // to be computed, not reused: the shapes' geometry will be read too
      __builtin_prefetch(&world.geometries[c.shapeA]);
      __builtin_prefetch(&world.geometries[c.shapeB]);
    }
  }
  if (i + 2 < count) {
    const Contact& c = world.contacts[slots[i + 2]];
    __builtin_prefetch(&world.bodies[world.shapes[c.shapeA].body].xf);
    __builtin_prefetch(&world.bodies[world.shapes[c.shapeB].body].xf);
  }
}

// What the parallel narrowphase found for one contact, for the pass after it (UpdateContactsParallel).
enum ContactChange : std::uint8_t {
  kTouchChanged = 1,   // `touching` flipped (its new value is in the contact)
  kSensorChanged = 2,  // `sensorOverlap` flipped
  kWakeA = 4,          // touching a sleeping body: wake it
  kWakeB = 8,
  kHasPoints = 16,  // the manifold has points: not a change, for the solver's gather
};

// The byte of a contact whose manifold has points, for CollectTouchingContactSlots.
inline std::uint8_t PointsBit(const Contact& c) { return c.manifold.pointCount > 0 ? kHasPoints : 0; }

// The narrowphase's awake slots, and the set they came from (CollectTouchingContactSlots compares it).
void CollectNarrowphaseSlots(WorldState& world) {
  CollectAwakeContactSlots(world, world.narrowphaseSlots);
  world.narrowphaseAwakeBits = world.awakeContactBits;  // the same size from step to step: no allocation
  world.narrowphaseChanges.resize(world.narrowphaseSlots.size());
}

// The contact at awake position `i`: its manifold (or sensor overlap) at the current poses, written to
// the contact alone, and what changed, for the ordered pass. Counts queries, GJK iterations and reuses.
template <bool kPivots>
std::uint8_t UpdateOneContact(const WorldState& world, Contact& c, const ManifoldSettings& settings,
                              bool recycling, int counts[3]) {
  const Shape& shapeA = world.shapes[c.shapeA];
  const Shape& shapeB = world.shapes[c.shapeB];
  const Body& bodyA = world.bodies[shapeA.body];
  const Body& bodyB = world.bodies[shapeB.body];
  if (shapeA.isSensor || shapeB.isSensor) {
    if (!c.sensorEvents) return PointsBit(c);
    ++counts[0];
    const bool overlap = SensorOverlaps(world, c, bodyA.xf, bodyB.xf);
    const bool changed = overlap != c.sensorOverlap;
    c.sensorOverlap = overlap;
    return static_cast<std::uint8_t>((changed ? kSensorChanged : 0) | PointsBit(c));
  }
  const bool nowTouching =
      UpdateTouching<kPivots>(world, c, bodyA, bodyB, settings, recycling, counts[0], counts[1], counts[2]);
  std::uint8_t change = nowTouching != c.touching ? kTouchChanged : 0;
  c.touching = nowTouching;
  if (c.manifold.pointCount > 0) {  // as UpdateContacts: the wakes wait for the pass after
    if (!bodyA.awake && bodyA.type != BodyType::Static) change |= kWakeA;
    if (!bodyB.awake && bodyB.type != BodyType::Static) change |= kWakeB;
  }
  return change | PointsBit(c);
}

// UpdateContacts on the workers: the contacts' manifolds in parallel (each writes its own contact),
// then one pass in slot order raises the events, counts the touches and lists the wakes, so the
// events come in the order the serial update gives, whatever the worker count.
void UpdateContactsParallel(WorldState& world, const ManifoldSettings& settings, bool recycling) {
  CollectNarrowphaseSlots(world);
  const std::vector<int>& slots = world.narrowphaseSlots;
  std::vector<std::uint8_t>& changes = world.narrowphaseChanges;
  std::atomic<int> totals[3] = {0, 0, 0};  // queries, GJK iterations, reused: sums, in any order
  ParallelFor(&world.tasks, static_cast<int>(slots.size()), kMinContactsPerRange, [&](int begin, int end) {
    int counts[3] = {0, 0, 0};
    if (world.anyPivoting) {
      for (int i = begin; i < end; ++i) {
        PrefetchContactInputs(world, slots.data(), i, end);
        changes[i] = UpdateOneContact<true>(world, world.contacts[slots[i]], settings, recycling, counts);
      }
    } else {
      for (int i = begin; i < end; ++i) {
        PrefetchContactInputs(world, slots.data(), i, end);
        changes[i] = UpdateOneContact<false>(world, world.contacts[slots[i]], settings, recycling, counts);
      }
    }
    for (int k = 0; k < 3; ++k) totals[k].fetch_add(counts[k], std::memory_order_relaxed);
  });
  // The changed positions first, then their records, each asked for a few ahead: a changed contact's
  // record is cold after the workers wrote it, and the spinner changes thousands a step (this pass
  // waiting on each record was 1.1% of its two-worker samples, perf).
  std::vector<int>& changed = world.narrowphaseChanged;
  changed.clear();
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if ((changes[i] & ~kHasPoints) != 0) changed.push_back(static_cast<int>(i));
  }
  constexpr std::size_t kLookahead = 8;
  for (std::size_t k = 0; k < changed.size(); ++k) {
    if (k + kLookahead < changed.size())
      PrefetchContactRecord(world.contacts[static_cast<std::size_t>(slots[changed[k + kLookahead]])]);
    const std::size_t i = static_cast<std::size_t>(changed[k]);
    const std::uint8_t change = changes[i];
    const Contact& c = world.contacts[slots[i]];
    if (change & kSensorChanged) ReportSensorChange(world, c, c.sensorOverlap);  // already the new value
    if ((change & kTouchChanged) && c.enableContactEvents) {
      const ContactBeginEvent e{world.MakeShapeId(c.shapeA), world.MakeShapeId(c.shapeB),
                                world.MakeContactId(slots[i])};
      if (c.touching) {
        world.beginEvents.push_back(e);
      } else {
        world.pendingEndEvents.push_back({e.shapeA, e.shapeB, e.contact});
      }
    }
    if (change & kTouchChanged) world.touchingContactCount += c.touching ? 1 : -1;
    if (change & kWakeA) world.pendingWakes.push_back(world.shapes[c.shapeA].body);
    if (change & kWakeB) world.pendingWakes.push_back(world.shapes[c.shapeB].body);
  }
  world.counters.narrowphaseQueries = totals[0].load(std::memory_order_relaxed);
  world.counters.gjkIterations = totals[1].load(std::memory_order_relaxed);
  world.counters.manifoldsReused = totals[2].load(std::memory_order_relaxed);
}

// UpdateContacts on the calling thread. `kPivots` (some body pivoted last step, WorldState::anyPivoting)
// adds the pivoting test to each computed contact; without it the loop is the one it was before.
template <bool kPivots>
void UpdateContactsSerial(WorldState& world) {
  ManifoldSettings settings;
  settings.speculativeDistance = world.settings.speculativeDistance;
  const bool recycling = world.settings.enableContactRecycling;
  int queries = 0, iterations = 0, reused = 0;
  // Contacts of two sleeping (or static) bodies are not in the awake set: frozen as they were.
  CollectNarrowphaseSlots(world);
  const std::vector<int>& slots = world.narrowphaseSlots;
  std::uint8_t* const hasPoints = world.narrowphaseChanges.data();
  const int count = static_cast<int>(slots.size());
  for (int i = 0; i < count; ++i) {
    PrefetchContactInputs(world, slots.data(), i, count);
    Contact& c = world.contacts[slots[i]];
    hasPoints[i] = PointsBit(c);  // a sensor's manifold stays empty
    const Shape& shapeA = world.shapes[c.shapeA];
    const Shape& shapeB = world.shapes[c.shapeB];
    const Body& bodyA = world.bodies[shapeA.body];
    const Body& bodyB = world.bodies[shapeB.body];
    if (shapeA.isSensor || shapeB.isSensor) {  // sensors never push: the manifold stays empty
      if (c.sensorEvents) {
        ++queries;
        UpdateSensorOverlap(world, c, bodyA.xf, bodyB.xf);
      }
      continue;
    }
    const bool nowTouching =
        UpdateTouching<kPivots>(world, c, bodyA, bodyB, settings, recycling, queries, iterations, reused);
    // The contact's slot from its address, not the loop's `slot`: keeping that live to here cost the
    // loop a spill per contact (callgrind, large_pyramid), and events are rare.
    if (nowTouching != c.touching && c.enableContactEvents) {
      const ContactBeginEvent e{world.MakeShapeId(c.shapeA), world.MakeShapeId(c.shapeB),
                                world.MakeContactId(static_cast<int>(&c - world.contacts.data()))};
      if (nowTouching) {
        world.beginEvents.push_back(e);
      } else {
        world.pendingEndEvents.push_back({e.shapeA, e.shapeB, e.contact});
      }
    }
    if (nowTouching != c.touching) world.touchingContactCount += nowTouching ? 1 : -1;
    c.touching = nowTouching;
    hasPoints[i] = PointsBit(c);
    if (c.manifold.pointCount > 0) {  // touching, or about to (CollideApproaching)
      // An awake body touching a sleeping one wakes the sleeper's island, after this pass: woken
      // here, the sleeper's other contacts later in the pass would be updated too and could wake
      // their sleepers in turn, so one touch would spread through a whole resting crowd at once.
      // Deferred, a wake reaches the touched island this step and spreads as new contacts begin
      // (and the awake set does not change while it is visited).
      if (!bodyA.awake && bodyA.type != BodyType::Static) world.pendingWakes.push_back(shapeA.body);
      if (!bodyB.awake && bodyB.type != BodyType::Static) world.pendingWakes.push_back(shapeB.body);
    }
  }
  for (int slot : world.pendingWakes) WakeBody(world, slot);  // the body's sleep group, once
  world.pendingWakes.clear();
  world.counters.touchingContacts = world.touchingContactCount;
  world.counters.narrowphaseQueries = queries;
  world.counters.gjkIterations = iterations;
  world.counters.manifoldsReused = reused;
}

}  // namespace

// In a moving crowd most awake contacts are near misses without points (the tumbler's 11,000 against
// about 4,000 with points; 17,000 before the margins scaled with the shapes), and reading each one's
// record again for its point count was most of the solver's gather. Branch-free: whether a contact
// has points does not follow a pattern.
void CollectTouchingContactSlots(const WorldState& world, std::vector<int>& out) {
  const std::vector<int>& slots = world.narrowphaseSlots;
  const std::size_t count = slots.size();
  if (world.narrowphaseAwakeBits == world.awakeContactBits && world.narrowphaseChanges.size() == count) {
    const std::uint8_t* changes = world.narrowphaseChanges.data();
    out.resize(count);
    int* next = out.data();
    for (std::size_t i = 0; i < count; ++i) {
      *next = slots[i];
      next += (changes[i] & kHasPoints) != 0 ? 1 : 0;
    }
    out.resize(static_cast<std::size_t>(next - out.data()));
    return;
  }
  CollectAwakeContactSlots(world, out);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (i + 8 < out.size()) __builtin_prefetch(&world.contacts[out[i + 8]].manifold.pointCount);
    if (world.contacts[out[i]].manifold.pointCount > 0) out[kept++] = out[i];  // kept <= i: in place
  }
  out.resize(kept);
}

void UpdateContacts(WorldState& world) {
  if (HasWorkers(&world.tasks)) {
    ManifoldSettings settings;
    settings.speculativeDistance = world.settings.speculativeDistance;
    {
      // Pre-solve callbacks run on the workers at once: queries, which share the broadphase's
      // scratch, are refused from them, as from the continuous stage's calls (world.h).
      const WorldLock walk(world, /*walk=*/true);
      UpdateContactsParallel(world, settings, world.settings.enableContactRecycling);
    }
    for (int slot : world.pendingWakes) WakeBody(world, slot);
    world.pendingWakes.clear();
    world.counters.touchingContacts = world.touchingContactCount;
    return;
  }
  if (world.anyPivoting) {
    UpdateContactsSerial<true>(world);
  } else {
    UpdateContactsSerial<false>(world);
  }
}

}  // namespace mk
