// SPDX-License-Identifier: MIT
// Continuous collision: the stage of World::Step after the solver (docs/design.md section 7).
//
// The solver moves every body by its velocity over the step; a body that moves further than about
// half its thickness can start a step in front of a thin shape and end it behind, with no contact
// ever made (the speculative contacts only exist for pairs whose fat boxes overlapped when the step
// began). ScatterBodies lists the bodies that moved that far ("fast", kContinuousFastFraction). Each
// is swept here from its start pose to its end pose against what it must not pass: static shapes, and
// for bullets also non-bullet dynamic bodies (swept along their own motion of the step, after the
// non-bullet fast bodies have been moved back, so they are where they end). The body goes back to its
// earliest time of impact, velocity kept; the speculative contact made at the next step stops it.
//
// A shape that already touches what it sweeps against (time of impact 0, e.g. a box sliding fast
// along the ground, or a long box that landed on one end and spins its other end down) is swept
// again shrunk a little under its surface (MakeInsetProxy), so it may sink that far but no part of it
// may swing or slide through; deeper in already, it may not go deeper. Failing that, its far corners
// and its core centre are swept, so its centre never crosses the surface (a centre already that
// close to a static surface stays put if it moves towards it). A pair the game screens with the
// pre-solve callback is asked at the pose where the body would stop; if it says no, the body passes
// that shape this step (a one-way platform). Kinematic bodies are not swept against, and bullets not
// against each other. Sensors are not swept against either, but the sensors a fast body's path
// crosses within the step get their sensor events (SweepSensors).
#include "core/parallel.h"
#include "minkowski/time_of_impact.h"
#include "world/body_sweep.h"
#include "world/continuous_sweep.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <span>
#include <utility>
#include <vector>

namespace mk {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// What the pre-solve callback says of the fast shape against `otherShape` at the sweeps' pose at
// `fraction` (World::SetPreSolveCallback), shown the manifold there with the pair ordered as a
// contact's. Like the narrowphase, it is shown only manifolds with points: at a pose without any
// (possible only when the advancement stopped short of its target) the ordinary rule applies.
enum class PreSolveAnswer : std::uint8_t { NotAsked, Keep, Disable };

PreSolveAnswer AskPreSolveAt(const SweepContext& context, int otherShape, const ToiInput& input,
                             float fraction, Vec2& towardsSelf) {
  const WorldState& world = *context.world;
  const Transform xfOther = GetSweepTransform(input.sweepA, fraction);
  const Transform xfSelf = GetSweepTransform(input.sweepB, fraction);
  ManifoldSettings settings;
  settings.speculativeDistance = world.settings.speculativeDistance;
  const bool selfFirst = context.shape < otherShape;
  const int shapeA = selfFirst ? context.shape : otherShape;
  const int shapeB = selfFirst ? otherShape : context.shape;
  const Manifold m = CollideShapes(world, shapeA, shapeB, selfFirst ? xfSelf : xfOther,
                                   selfFirst ? xfOther : xfSelf, nullptr, settings);
  if (m.pointCount == 0) return PreSolveAnswer::NotAsked;
  towardsSelf = selfFirst ? -m.normal : m.normal;  // from the other shape to the fast one
  return PreSolveAllows(world, shapeA, shapeB, m) ? PreSolveAnswer::Keep : PreSolveAnswer::Disable;
}

// True when a time of impact at `fraction` stops the fast shape: unless the game disables the pair
// there.
bool PreSolveStopsAt(const SweepContext& context, int otherShape, const ToiInput& input, float fraction) {
  Vec2 towardsSelf{0.0f, 0.0f};
  return AskPreSolveAt(context, otherShape, input, fraction, towardsSelf) != PreSolveAnswer::Disable;
}

// A fast shape already touching a static one that the game screens: held at its start pose when the
// callback keeps the contact and the shape moves against the manifold's normal (into the other shape
// as the contact sees it). The centre rule (`centreRule`, used when the callback was not asked) would
// hold a body whose centre is inside a one-way platform while it leaves through the top.
bool PreSolveHoldsAtStart(const SweepContext& context, int otherShape, const ToiInput& input, Vec2 motion,
                          bool centreRule) {
  Vec2 towardsSelf{0.0f, 0.0f};
  switch (AskPreSolveAt(context, otherShape, input, 0.0f, towardsSelf)) {
    case PreSolveAnswer::Disable:
      return false;
    case PreSolveAnswer::Keep:
      return Dot(towardsSelf, motion) < 0.0f;
    default:
      return centreRule;
  }
}

// A shape that touches a static surface at the start of the step and went into it further than the
// speculative distance: its contact was there and did not hold it (the solver met more push than it
// could answer in one step), so it stays at its start pose, velocity kept, for the contact to stop it
// next step. Without this rule its core centre was swept instead, which let the shape sink until its
// centre reached the surface: measured on the spinner, a box flung at 100 m/s into the ring by the
// crowd behind it went 0.42 m in and stopped with its centre 5 cm inside the ring's line, and the
// crowd then pressed it through the one-sided ring (one body of 6,076 in the coloured solver; solve
// order decides which box is crushed where). Sliding along a surface, or moving less than the
// speculative distance into it, the centre sweep below still applies.
bool HoldsAgainstStatic(SweepContext& context, int otherShape, const ToiInput& input, bool askPreSolve) {
  const Transform xf0 = GetSweepTransform(input.sweepB, 0.0f);
  const DistanceOutput d =
      ShapeDistance({input.proxyA, input.proxyB, GetSweepTransform(input.sweepA, 0.0f), xf0});
  if (d.coresOverlap) return false;  // no reliable normal: the centre sweep decides
  const Vec2 motion = input.sweepB.c2 - input.sweepB.c1;
  const bool into = Dot(d.normal, motion) < -context.world->settings.speculativeDistance;
  const bool holds =
      askPreSolve ? into && PreSolveHoldsAtStart(context, otherShape, input, motion, into) : into;
  if (holds) context.holdNormal = d.normal;
  return holds;
}

// A body held at its start pose a second step in a row loses the part of its velocity that goes into
// the surface holding it (an inelastic stop, the rest kept). Kept whole, that velocity carried the
// body into the surface again every step: the contact did not stop it, the hold did, step after
// step, while whatever pushed it (a ragdoll's joints, a crowd) kept adding velocity the body never
// used. Measured on rain: bodies held for up to 88 steps in a row with their velocity growing, then
// flung at 15 m/s when a hold finally failed, one ragdoll knocked off the end of its floor. A single
// hold keeps the velocity whole (the contact may yet stop it).
void StopRepeatedHold(Body& body, bool held, Vec2 normal) {
  const bool repeated = held && body.heldAtStart;
  body.heldAtStart = held;
  const float into = Dot(body.linearVelocity, normal);
  if (repeated && into < 0.0f) body.linearVelocity -= into * normal;
}

// How far (in linear slops) a fast shape touching what it sweeps against may sink into it
// (SweepShapeAgainst), so that sliding along a surface is not stopped by the contact's own overlap; the next
// contact pushes it out. 2 slops (1.0-1.4 cm deep) took 4 steps to push out; 1 held fast spinners at 1% of a
// step (design.md).
constexpr float kInsetDepthSlops = 1.5f;

// A time of impact at the very start: the shape already touches (or overlaps) what it sweeps against.
bool TouchesAtStart(const ToiOutput& out) {
  return out.fraction == 0.0f && (out.status == ToiStatus::Overlapping || out.status == ToiStatus::Hit);
}

// A body stopped a second step in a row by a static shape it already touched when the step began (or
// held the step before): its contact was there and did not hold it (the body turns or is pushed
// faster than the contact's linearisation follows), so the point that reached the surface stops
// approaching it, an inelastic impulse at that point (no friction). Kept, the velocity took the body
// into the surface again at once, every step: measured, a 1.8 m box spinning at 135 rad/s on its
// corner (a 185 m/s throw) was stopped at 1% to 3% of four steps in a row, sinking 2.3 cm, while its
// contact point, moving away at the start of each step, never pushed. The first such stop keeps the
// velocity, as any time of impact does: the contact made at the stop pose usually holds (a 4 m box
// falling flat at 100 m/s onto a wedge, stopped as it turned onto the wedge's low end; an impulse at
// that end alone bounced it off the wedge).
// The stop is capped like any velocity of a step (maxLinearSpeed, kMaxAngularSpeed): on a large body
// spinning fast, the stop at a point far from its centre with the lever arm nearly along the normal is
// mostly linear, up to w k / 2 for a radius of gyration k (libFuzzer: a 1e9 kg body turning at 754
// rad/s left the step at 1.3e6 m/s with maxLinearSpeed 1.7 m/s; the snapshot loader refused it).
void StopAtTouch(Body& body, Pos origin, Vec2 point, Vec2 normal, float maxLinearSpeed) {
  const Vec2 r = point - (body.center - origin);
  const float approach = Dot(body.linearVelocity + Cross(body.angularVelocity, r), normal);
  if (!(approach < 0.0f)) return;
  const float rn = Cross(r, normal);
  const float k = body.invMass + body.invInertia * rn * rn;
  if (!(k > 0.0f)) return;
  const float impulse = -approach / k;
  body.linearVelocity =
      ClampLinearSpeed(body.linearVelocity + (impulse * body.invMass) * normal, maxLinearSpeed);
  body.angularVelocity = ClampAngularSpeed(body.angularVelocity + impulse * body.invInertia * rn);
}

// Keeps the earliest time of impact and who made it.
void TakeEarlier(SweepContext& context, float fraction, int otherShape) {
  if (!(fraction < context.fraction)) return;
  context.fraction = fraction;
  context.touchStop = false;
  context.hitShape = context.shape;
  context.hitTarget = otherShape;
}

// The fast body's sweep (once) and the box its current shape sweeps: its start and end boxes, the
// bulge of its turn and the time of impact's tolerance.
void MakeSweptBox(SweepContext& context) {
  const WorldState& world = *context.world;
  const Body& body = world.bodies[context.body];
  if (!context.sweepReady) {
    context.sweep = MakeBodySweep(body, context.dt, context.origin);
    context.sweepReady = true;
  }
  const Shape& shape = world.shapes[context.shape];
  const float turn = std::min(std::fabs(context.sweep.a2 - context.sweep.a1), kPi);
  const float pad = TurnBulge(body.maxExtent, turn) + 1.25f * context.target;
  AABB& swept = context.swept;
  swept = FrameBoxToBroadphase(
      ComputeAABB(world.geometries[context.shape], GetSweepTransform(context.sweep, 0.0f)), context.origin);
  swept.lower = Min(swept.lower, shape.aabb.lower) - Vec2{pad, pad};
  swept.upper = Max(swept.upper, shape.aabb.upper) + Vec2{pad, pad};
  context.sweptReady = true;
}

// A box holding MakeSweptBox's for the current shape, without the sweep: the start pose from the
// body's start rotation rather than the sweep's angle (the same up to rounding, which `slack` covers),
// the turn's cosine from the relative rotation. What the broadphase is asked for.
AABB QueryBox(const SweepContext& context) {
  const WorldState& world = *context.world;
  const Body& body = world.bodies[context.body];
  const Shape& shape = world.shapes[context.shape];
  const Transform start{(body.center0 - context.origin) - Rotate(body.q0, body.localCenter), body.q0};
  // 1 - cos(turn / 2); a body that may have turned half a turn or more (StepTurn) gets the whole arm.
  const bool halfTurn = std::fabs(body.angularVelocity * context.dt) > 0.75f * kPi;
  const float bulge = halfTurn ? body.maxExtent : ChordBulge(body.maxExtent, body.q0, body.xf.q);
  // The boxes' rounding grows with their coordinates (the internal frame's, world/world_frames.h).
  const float scale = std::max({static_cast<float>(std::fabs(body.center0.x)),
                                static_cast<float>(std::fabs(body.center0.y)), body.maxExtent});
  const float slack = 0.001f + 1e-5f * scale;
  const float pad = bulge + 1.25f * context.target + slack;
  AABB box = FrameBoxToBroadphase(ComputeAABB(world.geometries[context.shape], start), context.origin);
  box.lower = Min(box.lower, shape.aabb.lower) - Vec2{pad, pad};
  box.upper = Max(box.upper, shape.aabb.upper) + Vec2{pad, pad};
  return box;
}

// A time of impact that stops the body: a hit, or the last safe fraction when the advancement hit its
// cap, after the start.
bool Stops(const ToiOutput& out) {
  return (out.status == ToiStatus::Hit || out.status == ToiStatus::IterationCap) && out.fraction > 0.0f;
}

// Keeps `out` as the body's time of impact if it stops the body earlier than any before, unless the
// game's pre-solve callback disables the pair there.
// `touching`: the sweep that found it was one for a shape already touching a static `otherShape`
// (input.proxyB is then what was swept), which StopAtTouch answers.
void TakeIfStops(SweepContext& context, int otherShape, const ToiInput& input, const ToiOutput& out,
                 bool askPreSolve, bool touching = false) {
  if (!Stops(out) || !(out.fraction < context.fraction) ||
      (askPreSolve && !PreSolveStopsAt(context, otherShape, input, out.fraction))) {
    return;
  }
  TakeEarlier(context, out.fraction, otherShape);
  if (!touching) return;
  const DistanceOutput d =
      ShapeDistance({input.proxyA, input.proxyB, GetSweepTransform(input.sweepA, out.fraction),
                     GetSweepTransform(input.sweepB, out.fraction)});
  if (d.coresOverlap) return;
  context.touchStop = true;
  context.touchPoint = d.pointB;
  context.touchNormal = d.normal;
}

// The earliest time of impact of the shape's corners (its core points, with its radius) that start the
// step at least `beyond` (m) from the other shape, and the corner's proxy; a Separated output at
// input.maxFraction when none stops. The nearer corners are the contact's: its manifold holds them. A
// corner the other shape separates from the core centre (the line between them crosses it) is on the
// far side of what the shape straddles, on its way out: a box rising through a one-way platform,
// centre above it, would otherwise be stopped by its bottom corners reaching the platform from below.
struct CornerImpact {
  ToiOutput out;
  ShapeProxy proxy;
};

CornerImpact SweepFarCorners(ToiInput input, const ShapeGeometry& geometry, float beyond) {
  CornerImpact earliest;
  earliest.out.status = ToiStatus::Separated;
  earliest.out.fraction = input.maxFraction;
  const Transform xfA = GetSweepTransform(input.sweepA, 0.0f), xfB = GetSweepTransform(input.sweepB, 0.0f);
  const Vec2 centre = CoreCentre(geometry);
  for (int i = 0; i < geometry.Count(); ++i) {
    input.proxyB = ShapeProxy{geometry.Points() + i, 1, geometry.Radius()};
    const DistanceOutput d = ShapeDistance({input.proxyA, input.proxyB, xfA, xfB});
    if (d.coresOverlap || d.distance < beyond) continue;
    const Vec2 arm[2] = {centre, geometry.Points()[i]};
    if (ShapeDistance({input.proxyA, ShapeProxy{arm, 2, 0.0f}, xfA, xfB}).coresOverlap) continue;
    input.maxFraction = earliest.out.fraction;
    const ToiOutput out = TimeOfImpact(input);
    if (Stops(out) && out.fraction < earliest.out.fraction) earliest = {out, input.proxyB};
  }
  return earliest;
}

// A sensor in the fast shape's swept box: kept for SweepSensors if the pair would raise sensor events
// (the rules of CreateContact and the broadphase: the visitor's flag, filters, joints).
void NoteSensor(SweepContext& context, int sensorShape) {
  WorldState& world = *context.world;
  const Shape& shape = world.shapes[context.shape];
  if (!shape.enableSensorEvents || shape.isSensor) return;
  if (!FiltersAllowPair(MakeProxyFilter(shape), MakeProxyFilter(world.shapes[sensorShape]))) return;
  if (!ShouldShapesCollide(world, context.shape, sensorShape)) return;
  context.sensors->push_back({context.shape, sensorShape});
}

bool SweepShapeAgainst(ProxyId, std::uint64_t userData, void* contextPtr) {
  SweepContext& context = *static_cast<SweepContext*>(contextPtr);
  WorldState& world = *context.world;
  if (!context.sweptReady) MakeSweptBox(context);
  const int otherShape = static_cast<int>(userData);
  const Shape& other = world.shapes[otherShape];
  // The broadphase matched fat boxes; the tight ones reject most neighbours before any GJK.
  if (other.body == context.body || !Overlaps(context.swept, other.aabb)) return true;
  const Body& otherBody = world.bodies[other.body];
  if (other.isSensor) {
    // A moving sensor's box may be moved by a fast body swept earlier in the serial order: out of
    // order, this body's sweep is redone on the calling thread in its turn.
    if (context.outOfOrder && otherBody.type != BodyType::Static) {
      context.redoInOrder = true;
      return false;
    }
    NoteSensor(context, otherShape);
    return true;
  }
  const bool isStatic = otherBody.type == BodyType::Static;
  const bool sweepable =
      isStatic || (context.bullet && otherBody.type == BodyType::Dynamic && !otherBody.isBullet);
  if (!sweepable) return true;
  const Shape& shape = world.shapes[context.shape];
  if (!FiltersAllowPair(MakeProxyFilter(shape), MakeProxyFilter(other))) return true;
  if (!ShouldShapesCollide(world, context.shape, otherShape)) return true;
  const bool askPreSolve = WantsPreSolve(world, context.shape, otherShape);

  const ShapeGeometry& geometry = world.geometries[context.shape];
  if (other.oneSided &&
      BehindChainSegment(world.geometries[otherShape], RelativeTo(otherBody.xf, context.origin), geometry,
                         context.sweep)) {
    return true;
  }
  ToiInput input;
  input.proxyA = MakeProxy(world.geometries[otherShape]);
  input.proxyB = MakeProxy(geometry);
  if (other.body != context.otherBody) {
    context.otherBody = other.body;
    context.otherSweep = MakeBodySweep(otherBody, context.dt, context.origin);
  }
  input.sweepA = context.otherSweep;
  input.sweepB = context.sweep;
  input.maxFraction = context.fraction;
  input.target = context.target;
  input.tolerance = 0.25f * context.target;
  // Against a static segment, a shape that stays clear of its line over the whole sweep cannot reach
  // it: the time of impact would advance to the end and find nothing (bodies sliding along a wall
  // ask this of its segments step after step). The body's own rotations stand for the sweep's (equal
  // up to rounding); one more tolerance covers that and the rounding of both tests.
  const Body& body = world.bodies[context.body];
  const StillSegment segment{input.proxyA, RelativeTo(otherBody.xf, context.origin)};
  const float clearance = input.target + 2.0f * input.tolerance;
  const auto clearOfSegment = [&](const ShapeProxy& proxy) {
    return isStatic && SweepClearOfSegmentLine(segment, proxy, input.sweepB, body.q0, body.xf.q, clearance);
  };
  if (clearOfSegment(input.proxyB)) return context.fraction > 0.0f;
  ToiOutput out = TimeOfImpact(input);
  if (!TouchesAtStart(out)) {
    TakeIfStops(context, otherShape, input, out, askPreSolve);
    return context.fraction > 0.0f;
  }
  // Already touching. The shape may sink up to kInsetDepthSlops further in, which the next step's
  // contact pushes out, but it may not swing or slide through (see the top of the file). Already in
  // deeper than that, it may not go deeper than it is (by more than the tolerance).
  Vec2 insetPoints[kMaxPolygonVertices];
  float depth = (kInsetDepthSlops + 1.0f) * context.target;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const InsetProxy inset = MakeInsetProxy(geometry, depth, insetPoints);
    if (!(inset.depth > context.target + input.tolerance)) break;
    input.proxyB = inset.proxy;
    if (clearOfSegment(input.proxyB)) return context.fraction > 0.0f;
    out = TimeOfImpact(input);
    input.proxyB = MakeProxy(geometry);
    // A sweep that starts barely above its target creeps when the body turns fast (the advancement
    // bound counts the whole arm's turning speed), and the cap would stop the body at a small
    // fraction step after step: measured, a 1 m box spinning at 220 rad/s on its corner hovered 1.4
    // cm deep for 4 steps. The corner and centre sweeps below decide instead.
    if (out.status == ToiStatus::IterationCap) break;
    if (!TouchesAtStart(out)) {
      input.proxyB = inset.proxy;
      TakeIfStops(context, otherShape, input, out, askPreSolve, isStatic);
      return context.fraction > 0.0f;
    }
    // The inset's separation says how deep the shape is (unless the inset's core is in too).
    if (!(out.separation > 0.0f) || inset.depth < depth) break;
    depth = inset.depth + context.target + 2.0f * input.tolerance - out.separation;
  }
  if (isStatic && HoldsAgainstStatic(context, otherShape, input, askPreSolve)) {
    TakeEarlier(context, 0.0f, otherShape);
    // One-sided chain segments are left out: the distance normal at a chain's vertex makes a
    // shape sliding along the chain look as if it moved into the next segment, step after step.
    context.held = context.held || !world.shapes[otherShape].oneSided;
    return false;  // nothing is earlier than the start
  }
  // In deeper than that: the shape's corners that start beyond the speculative distance (the contact
  // sees the nearer ones) may not reach the other shape, and its core centre may not cross it.
  const CornerImpact corner = SweepFarCorners(input, geometry, world.settings.speculativeDistance);
  Vec2 centre = CoreCentre(geometry);
  input.proxyB = ShapeProxy{&centre, 1, 0.0f};
  const ToiOutput centreOut = TimeOfImpact(input);
  out = corner.out;
  if (isStatic && centreOut.fraction == 0.0f && centreOut.status != ToiStatus::InvalidInput) {
    // The centre itself is already within the target of a static surface: it must not go further
    // in. Moving towards the surface (against the normal from the other shape to the centre) it
    // stays where the step began; sliding along or moving away it goes on. (Not against a moving
    // body: staying would not keep that from moving in.)
    const Transform xf0 = GetSweepTransform(input.sweepB, 0.0f);
    const DistanceOutput d =
        ShapeDistance({input.proxyA, input.proxyB, GetSweepTransform(input.sweepA, 0.0f), xf0});
    const Vec2 motion =
        TransformPoint(GetSweepTransform(input.sweepB, 1.0f), centre) - TransformPoint(xf0, centre);
    const bool centreRule = d.coresOverlap || Dot(d.normal, motion) < 0.0f;
    const bool holds =
        askPreSolve ? PreSolveHoldsAtStart(context, otherShape, input, motion, centreRule) : centreRule;
    if (holds) {
      TakeEarlier(context, 0.0f, otherShape);
      return false;
    }
  }
  if (Stops(centreOut) && centreOut.fraction < out.fraction) {
    out = centreOut;
  } else {
    input.proxyB = corner.proxy;
  }
  TakeIfStops(context, otherShape, input, out, askPreSolve, isStatic);
  return context.fraction > 0.0f;  // nothing is earlier than the start
}

// Sensor events for the sensors the fast body's path crossed this step that neither its start pose nor
// its end pose overlaps (docs/design.md, continuous collision): without them a body passing through a
// sensor within one step was never seen by it (the narrowphase looks at step ends only). The begin
// event is this step's; the end event waits for the next step's list, as the end of an overlap that
// began this step would, so a game sees a begin then an end. Overlapping at the start, the pair is
// the narrowphase's already; overlapping at the end, the next step's narrowphase begins it. A pair
// whose end from such a crossing is still waiting (it crossed the sensor last step too) gets no
// second begin: that end is dropped and a new one waits, so the overlap reads as one. "Crossed"
// means the swept shape, shrunk by a quarter of the linear slop, came within that much of the sensor
// (the time of impact's tolerance around a target of 0), so the shape itself overlapped it, before
// the body's final fraction of the step.
void SweepSensors(WorldState& world, const SweepContext& context,
                  std::span<const std::pair<int, int>> pairs) {
  for (const auto& [shape, sensor] : pairs) {
    const int contact =
        world.contactByShapes.Find(PairMap::Key(std::min(shape, sensor), std::max(shape, sensor)));
    if (contact != -1 && world.contacts[contact].sensorOverlap) continue;
    ToiInput input;
    input.proxyA = MakeProxy(world.geometries[sensor]);
    input.sweepA = MakeBodySweep(world.bodies[world.shapes[sensor].body], context.dt, context.origin);
    input.sweepB = context.sweep;
    input.maxFraction = context.fraction;
    input.target = 0.0f;
    input.tolerance = 0.25f * context.target;
    // The shape shrunk by the tolerance comes within it of the sensor only where the shape itself
    // overlaps it: a path that ends just short of the sensor is not a crossing. (A segment, with no
    // inside, is swept as it is.) Overlapping at the start, the pair is the narrowphase's.
    Vec2 insetPoints[kMaxPolygonVertices];
    input.proxyB = MakeInsetProxy(world.geometries[shape], input.tolerance, insetPoints).proxy;
    const ToiOutput out = TimeOfImpact(input);
    if (out.status != ToiStatus::Hit || !(out.fraction > 0.0f)) continue;
    input.proxyB = MakeProxy(world.geometries[shape]);
    const DistanceOutput end =
        ShapeDistance({input.proxyA, input.proxyB, GetSweepTransform(input.sweepA, context.fraction),
                       GetSweepTransform(input.sweepB, context.fraction)});
    if (end.coresOverlap || end.coreDistance < input.proxyA.radius + input.proxyB.radius) continue;
    const SensorEndEvent ended{world.MakeShapeId(sensor), world.MakeShapeId(shape)};
    std::vector<SensorEndEvent>& waiting = world.pendingSensorEndEvents;
    const auto same = std::find_if(waiting.begin(), waiting.end(), [&](const SensorEndEvent& e) {
      return e.sensorShape == ended.sensorShape && e.visitorShape == ended.visitorShape;
    });
    if (same != waiting.end()) {
      waiting.erase(same);
    } else {
      world.sensorBeginEvents.push_back({ended.sensorShape, ended.visitorShape});
    }
    world.sweptSensorEnds.push_back(ended);
  }
}

// Lists the body about to be moved back to `impact` (World::SetContinuousRecording), while there is
// room in the reserved list.
void Record(WorldState& world, const SweepContext& context, const WorldTransform& impact) {
  const size_t size = world.continuousRecords.size();
  if (size >= static_cast<size_t>(kMaxContinuousRecords) || size >= world.continuousRecords.capacity())
    return;
  const int targetBody = world.shapes[context.hitTarget].body;
  ContinuousRecord record;
  record.body = world.MakeBodyId(context.body);
  record.shape = world.MakeShapeId(context.hitShape);
  record.target = world.MakeShapeId(context.hitTarget);
  // Published in world coordinates (the internal frame's differ in the large-world build).
  record.start = ToWorld(world, FrameToWorld(GetSweepTransform(context.sweep, 0.0f), context.origin));
  record.end = ToWorld(world, world.bodies[context.body].xf);
  record.impact = ToWorld(world, impact);
  record.targetImpact = ToWorld(
      world,
      FrameToWorld(GetSweepTransform(MakeBodySweep(world.bodies[targetBody], context.dt, context.origin),
                                     context.fraction),
                   context.origin));
  record.fraction = context.fraction;
  world.continuousRecords.push_back(record);
}

// The fraction of this step's motion a body kept (1 when the stage has not moved it back).
float KeptFraction(const WorldState& world, int bodySlot) {
  return world.keptFraction[static_cast<std::size_t>(bodySlot)];
}

// `fraction` < 1 (a time of impact's, or a partner's): the body is listed in movedBack the first time.
void SetKeptFraction(WorldState& world, int bodySlot, float fraction) {
  float& kept = world.keptFraction[static_cast<std::size_t>(bodySlot)];
  if (kept == 1.0f) world.movedBack.push_back(bodySlot);
  kept = fraction;
}

// Back to "nothing moved back" for the next step.
void ClearMovedBack(WorldState& world) {
  for (int slot : world.movedBack) world.keptFraction[static_cast<std::size_t>(slot)] = 1.0f;
  world.movedBack.clear();
}

// A body moved back to its time of impact takes the bodies jointed to it (and theirs) back to the same
// fraction of the step, each along its own motion. Moved back alone, it tore its joints by up to a
// step's travel: issue 28's soft body (v3's Soft Body sample: 7 capsules welded in a ring, landing at
// 13 m/s) opened its welds by 0.48 m where Box2D v3 opens 77 mm; with continuous collision off, 36 mm.
// Only dynamic partners that moved this step follow; a partner already further back stays (and
// stops the walk there).
void MoveJointPartnersBack(WorldState& world, int bodySlot, float fraction, float dt) {
  world.jointWalk.assign(1, bodySlot);
  while (!world.jointWalk.empty()) {
    const int slot = world.jointWalk.back();
    world.jointWalk.pop_back();
    for (int key = world.bodies[slot].headJointEdge; key != kNull;) {
      const Joint& joint = world.joints[key >> 1];
      const int other = joint.edges[(key & 1) ^ 1].body;
      key = joint.edges[key & 1].next;
      if (other == kNull) continue;
      Body& partner = world.bodies[other];
      if (partner.type != BodyType::Dynamic || partner.solverIndex == kNull) continue;
      const float kept = KeptFraction(world, other);
      if (!(fraction < kept)) continue;
      // Its sweep runs from the step's start to where it is now, `kept` of the step.
      const Pos origin = FrameOrigin(partner.center0);
      partner.xf =
          FrameToWorld(GetSweepTransform(MakeBodySweep(partner, dt, origin), fraction / kept), origin);
      partner.center = TransformPoint(partner.xf, partner.localCenter);
      UpdateBodyShapesInBroadphase(world, other, /*teleport=*/false);
      SetKeptFraction(world, other, fraction);
      world.jointWalk.push_back(other);
    }
  }
}

// The sweep of one fast body's shapes into `context`, which says where its sensor pairs go. Reads the
// world and writes nothing else, so the sweeps that SolveContinuous runs out of order (non-bullets:
// static shapes and their own state are all their sweeps read) run on any thread.
void SweepFastBody(WorldState& world, int bodySlot, float dt, SweepContext& context) {
  const Body& body = world.bodies[bodySlot];
  context.world = &world;
  context.dt = dt;
  context.body = bodySlot;
  context.origin = FrameOrigin(body.center0);
  context.bullet = body.isBullet;
  // A slop of 0 would leave the advancement creeping towards contact: 1 mm is the floor.
  context.target = std::max(world.settings.linearSlop, 0.001f);
  for (int s = body.headShape; s != kNull; s = world.shapes[s].nextShape) {
    const Shape& shape = world.shapes[s];
    if (shape.isSensor || shape.proxy.IsNull()) continue;
    context.shape = s;
    context.sweptReady = false;
    const AABB box = QueryBox(context);
    // Non-bullets only sweep against static shapes, which the broadphase keeps with the sleeping
    // proxies, apart from the crowd of awake ones. Static proxies do not change during a Step, so the
    // query need not first apply the moves of the solver and of this stage (one band-list rebuild per
    // body moved back, before): UpdatePairs applies them all at once at the next Step. Bullets see
    // dynamic bodies, so their query applies every move first.
    if (context.bullet) {
      world.broadphase.QueryAABB(box, SweepShapeAgainst, &context);
    } else {
      world.broadphase.QueryStaticAABB(box, SweepShapeAgainst, &context);
    }
    if (context.redoInOrder) return;
  }
}

// Applies a fast body's sweep (SweepFastBody): its holds and stops, the sensors its path crossed, and,
// when it hit something, its move back to the time of impact with its joint group. Returns true when
// it was moved back.
bool ApplyFastSweep(WorldState& world, const SweepContext& context,
                    std::span<const std::pair<int, int>> sensors) {
  const int bodySlot = context.body;
  Body& body = world.bodies[bodySlot];
  const float dt = context.dt;
  const bool stoppedBefore = body.heldAtStart;
  StopRepeatedHold(body, context.held, context.holdNormal);
  if (!sensors.empty() && context.fraction > 0.0f) SweepSensors(world, context, sensors);
  if (!(context.fraction < 1.0f)) return false;
  const WorldTransform xf = FrameToWorld(GetSweepTransform(context.sweep, context.fraction), context.origin);
  if (world.recordContinuous) Record(world, context, xf);
  body.xf = xf;
  body.center = TransformPoint(xf, body.localCenter);
  if (context.touchStop) {
    if (stoppedBefore)
      StopAtTouch(body, context.origin, context.touchPoint, context.touchNormal,
                  world.settings.maxLinearSpeed);
    body.heldAtStart = true;
  }
  UpdateBodyShapesInBroadphase(world, bodySlot, /*teleport=*/false);
  // A first impact takes the body's joint group back with it; a body held where it already touched
  // does not (its group would be held with it, step after step). Only jointed bodies are listed in
  // movedBack: nothing walks to a body without joints.
  if (body.headJointEdge == kNull) return true;
  const float kept = KeptFraction(world, bodySlot) * context.fraction;
  SetKeptFraction(world, bodySlot, kept);
  if (!context.touchStop && !context.held) MoveJointPartnersBack(world, bodySlot, kept, dt);
  return true;
}

// Sweeps one fast body's shapes and applies the result, on the calling thread; returns true when it
// was moved back.
bool SolveContinuousBody(WorldState& world, int bodySlot, float dt) {
  SweepContext context;
  world.sweptSensors.clear();
  context.sensors = &world.sweptSensors;
  SweepFastBody(world, bodySlot, dt, context);
  return ApplyFastSweep(world, context, world.sweptSensors);
}

// Below this many fast bodies a parallel-for costs more than the sweeps it would share.
constexpr int kMinFastBodiesForWorkers = 32;
constexpr int kMinFastBodiesPerRange = 8;

// The parallel pass: every fast non-bullet swept on the workers, each into its own FastSweep
// (world.fastSweeps, parallel to world.fastBodies). A body's sweep reads static shapes and its own
// state only (a moving sensor sends it back to the calling thread), and no other body's sweep changes
// them. Another body's outcome may: a jointed body hit takes its joint group back
// (MoveJointPartnersBack), and a partner later in the order then starts from elsewhere; SolveContinuous
// sweeps such a partner again in its turn. Every outcome applied is the one the serial stage computes.
void SweepFastBodiesOnWorkers(WorldState& world, float dt) {
  const int count = static_cast<int>(world.fastBodies.size());
  if (world.fastSweeps.size() < world.fastBodies.size()) world.fastSweeps.resize(world.fastBodies.size());
  ParallelFor(&world.tasks, count, kMinFastBodiesPerRange, [&world, dt](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      FastSweep& item = world.fastSweeps[static_cast<std::size_t>(i)];
      item.sensors.clear();
      item.context = SweepContext{};
      item.context.sensors = &item.sensors;
      item.context.outOfOrder = true;
      const int body = world.fastBodies[static_cast<std::size_t>(i)];
      SweepFastBody(world, body, dt, item.context);
      item.swept = !item.context.redoInOrder;
      // ApplyFastSweep's no-op: no time of impact (a hold is one, at 0), no sensor, and a hold flag
      // that StopRepeatedHold would set to the false it holds. Nothing before the body's turn writes
      // that flag: a partner's impact moves the body back, and then it is swept again in its turn.
      item.noOutcome = item.swept && !(item.context.fraction < 1.0f) && item.sensors.empty() &&
                       !world.bodies[static_cast<std::size_t>(body)].heldAtStart;
    }
  });
}

// The workers' sweep of fast body i, or null when it must be swept in its turn: not swept there, or
// moved back by a partner's impact since (its sweep started from where it no longer is).
const FastSweep* UsableSweep(const WorldState& world, std::size_t i) {
  const FastSweep& item = world.fastSweeps[i];
  return item.swept && KeptFraction(world, world.fastBodies[i]) == 1.0f ? &item : nullptr;
}

}  // namespace

void SolveContinuous(WorldState& world, float dt, void (*beside)(WorldState&)) {
  world.continuousRecords.clear();
  int hits = 0;
  if (world.keptFraction.size() < world.bodies.size()) world.keptFraction.resize(world.bodies.size(), 1.0f);
  const bool onWorkers = HasWorkers(&world.tasks) && world.fastBodies.size() >= kMinFastBodiesForWorkers;
  if (onWorkers) SweepFastBodiesOnWorkers(world, dt);
  // In body order, as the serial stage: the bodies swept on the workers apply their outcome in their
  // turn, the others (see UsableSweep) and the bullets, which see the bodies moved before them, sweep
  // here, on the calling thread (world.h promises the pre-solve calls of this loop there).
  const auto inBodyOrder = [&] {
    for (std::size_t i = 0; i < world.fastBodies.size(); ++i) {
      const FastSweep* swept = onWorkers ? UsableSweep(world, i) : nullptr;
      // Rain: thousands of falling bodies a step, whose records the other core wrote last (the
      // scatter) and reads next (the sleep times): reading each here cost this thread 0.04 ms a step
      // while the other waited (perf at 10 kHz, two workers: 445 samples in ApplyFastSweep, now 25).
      if (swept != nullptr && swept->noOutcome) continue;
      const bool movedBack = swept != nullptr ? ApplyFastSweep(world, swept->context, swept->sensors)
                                              : SolveContinuousBody(world, world.fastBodies[i], dt);
      hits += movedBack ? 1 : 0;
    }
    for (int body : world.fastBullets) hits += SolveContinuousBody(world, body, dt) ? 1 : 0;
  };
  if (beside != nullptr) {
    RunBeside(&world.tasks, inBodyOrder, [&world, beside] { beside(world); });
  } else {
    inBodyOrder();
  }
  ClearMovedBack(world);
  world.counters.fastBodies = static_cast<int>(world.fastBodies.size() + world.fastBullets.size());
  world.counters.toiHits = hits;
}

}  // namespace mk
