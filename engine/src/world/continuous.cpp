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
// along the ground) gets one more chance: its core centre, as a point, is swept against the same
// shape, so it may slide but its centre never crosses the surface (a centre already that close to a
// static surface stays put if it moves towards it). A pair the game screens with the pre-solve
// callback is asked at the pose where the body would stop; if it says no, the body passes that shape
// this step (a one-way platform). Kinematic bodies and sensors are
// not swept against, and bullets not against each other.
#include "minkowski/time_of_impact.h"
#include "world/recorder.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace mk {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

Sweep MakeBodySweep(const Body& body) {
  Sweep sweep;
  sweep.localCenter = body.localCenter;
  sweep.c2 = body.center;
  sweep.a2 = Angle(body.xf.q);
  if (body.type == BodyType::Static || body.solverIndex == kNull) {  // did not move this step
    sweep.c1 = sweep.c2;
    sweep.a1 = sweep.a2;
  } else {
    // The step's turn relative to the start: what the solver integrated, within half a turn.
    sweep.c1 = body.center0;
    sweep.a1 = sweep.a2 - Angle(InvMulRot(body.q0, body.xf.q));
  }
  return sweep;
}

// Mean of a shape's core points (local frame): the point continuous collision tracks.
Vec2 CoreCentre(const ShapeGeometry& geometry) {
  Vec2 centre{0.0f, 0.0f};
  for (int i = 0; i < geometry.Count(); ++i) centre += geometry.Points()[i];
  return (1.0f / static_cast<float>(geometry.Count())) * centre;
}

// Chain segments are one-sided: a shape whose core centre starts the step behind one (or on its
// line) ignores it, as the narrowphase does.
bool BehindChainSegment(const ShapeGeometry& chain, const Transform& chainXf, const ShapeGeometry& geometry,
                        const Sweep& sweep) {
  const Vec2 centre = TransformPoint(GetSweepTransform(sweep, 0.0f), CoreCentre(geometry));
  const Vec2 local = InvTransformPoint(chainXf, centre);
  return Dot(local - chain.Points()[0], chain.Normals()[0]) <= 0.0f;
}

struct SweepContext {
  WorldState* world = nullptr;
  int body = kNull;   // the fast body
  int shape = kNull;  // its shape being swept
  bool bullet = false;
  // Made when the first candidate arrives (most fast bodies meet none; the sweep costs two atan2):
  bool sweepReady = false;  // sweep, for the body
  bool sweptReady = false;  // swept, for `shape`
  Sweep sweep;
  AABB swept{};  // tight box of the swept shape over the step (with the turn's bulge and the tolerance)
  float target = kToiDefaultTarget;
  float fraction = 1.0f;  // earliest time of impact so far
  int hitShape = kNull;   // the body's shape and the shape it hits at `fraction` (for the record)
  int hitTarget = kNull;
  // Set when a static surface holds the body at its start pose (HoldsAgainstStatic): the surface's
  // normal there, from the surface towards the body.
  bool held = false;
  Vec2 holdNormal{0.0f, 0.0f};
  // The sweep of the last candidate's body: neighbouring candidates are mostly shapes of one body
  // (a static ground, a ring of segments), and each sweep costs an atan2.
  int otherBody = kNull;
  Sweep otherSweep;
};

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

// Keeps the earliest time of impact and who made it.
void TakeEarlier(SweepContext& context, float fraction, int otherShape) {
  if (!(fraction < context.fraction)) return;
  context.fraction = fraction;
  context.hitShape = context.shape;
  context.hitTarget = otherShape;
}

// The end poses' boxes miss what a turning shape sweeps between them: a point r from the centre of
// mass leaves the chord between its end positions by at most r (1 - cos(turn / 2)) (m).
float TurnBulge(float maxExtent, float turn) { return maxExtent * (1.0f - Cos(0.5f * turn)); }

// The fast body's sweep (once) and the box its current shape sweeps: its start and end boxes, the
// bulge of its turn and the time of impact's tolerance.
void MakeSweptBox(SweepContext& context) {
  const WorldState& world = *context.world;
  const Body& body = world.bodies[context.body];
  if (!context.sweepReady) {
    context.sweep = MakeBodySweep(body);
    context.sweepReady = true;
  }
  const Shape& shape = world.shapes[context.shape];
  const float turn = std::min(std::fabs(context.sweep.a2 - context.sweep.a1), kPi);
  const float pad = TurnBulge(body.maxExtent, turn) + 1.25f * context.target;
  AABB& swept = context.swept;
  swept = ComputeAABB(world.geometries[context.shape], GetSweepTransform(context.sweep, 0.0f));
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
  const Transform start{body.center0 - Rotate(body.q0, body.localCenter), body.q0};
  const float cosTurn = std::clamp(InvMulRot(body.q0, body.xf.q).c, -1.0f, 1.0f);
  const float bulge = body.maxExtent * (1.0f - std::sqrt(0.5f * (1.0f + cosTurn)));  // 1 - cos(turn / 2)
  const float scale = std::max({std::fabs(body.center0.x), std::fabs(body.center0.y), body.maxExtent});
  const float slack = 0.001f + 1e-5f * scale;
  const float pad = bulge + 1.25f * context.target + slack;
  AABB box = ComputeAABB(world.geometries[context.shape], start);
  box.lower = Min(box.lower, shape.aabb.lower) - Vec2{pad, pad};
  box.upper = Max(box.upper, shape.aabb.upper) + Vec2{pad, pad};
  return box;
}

bool SweepShapeAgainst(ProxyId, std::uint64_t userData, void* contextPtr) {
  SweepContext& context = *static_cast<SweepContext*>(contextPtr);
  WorldState& world = *context.world;
  if (!context.sweptReady) MakeSweptBox(context);
  const int otherShape = static_cast<int>(userData);
  const Shape& other = world.shapes[otherShape];
  // The broadphase matched fat boxes; the tight ones reject most neighbours before any GJK.
  if (other.body == context.body || other.isSensor || !Overlaps(context.swept, other.aabb)) return true;
  const Body& otherBody = world.bodies[other.body];
  const bool isStatic = otherBody.type == BodyType::Static;
  const bool sweepable =
      isStatic || (context.bullet && otherBody.type == BodyType::Dynamic && !otherBody.isBullet);
  if (!sweepable) return true;
  const Shape& shape = world.shapes[context.shape];
  if (!FiltersAllowPair(MakeProxyFilter(shape), MakeProxyFilter(other))) return true;
  if (!ShouldShapesCollide(world, context.shape, otherShape)) return true;
  const bool askPreSolve = WantsPreSolve(world, context.shape, otherShape);

  const ShapeGeometry& geometry = world.geometries[context.shape];
  if (other.chain != kNull &&
      BehindChainSegment(world.geometries[otherShape], otherBody.xf, geometry, context.sweep)) {
    return true;
  }
  ToiInput input;
  input.proxyA = MakeProxy(world.geometries[otherShape]);
  input.proxyB = MakeProxy(geometry);
  if (other.body != context.otherBody) {
    context.otherBody = other.body;
    context.otherSweep = MakeBodySweep(otherBody);
  }
  input.sweepA = context.otherSweep;
  input.sweepB = context.sweep;
  input.maxFraction = context.fraction;
  input.target = context.target;
  input.tolerance = 0.25f * context.target;
  ToiOutput out = TimeOfImpact(input);
  if (out.fraction == 0.0f && (out.status == ToiStatus::Overlapping || out.status == ToiStatus::Hit)) {
    if (isStatic && HoldsAgainstStatic(context, otherShape, input, askPreSolve)) {
      TakeEarlier(context, 0.0f, otherShape);
      // A chain's one-sided segments are left out: the distance normal at a chain's vertex makes a
      // shape sliding along the chain look as if it moved into the next segment, step after step.
      context.held = context.held || world.shapes[otherShape].chain == kNull;
      return false;  // nothing is earlier than the start
    }
    // Already touching: sweep the core centre instead (see the top of the file).
    Vec2 centre = CoreCentre(geometry);
    input.proxyB = ShapeProxy{&centre, 1, 0.0f};
    out = TimeOfImpact(input);
    if (isStatic && out.fraction == 0.0f && out.status != ToiStatus::InvalidInput) {
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
      if (holds) TakeEarlier(context, 0.0f, otherShape);
      return true;
    }
  }
  const bool stops = out.status == ToiStatus::Hit || out.status == ToiStatus::IterationCap;
  if (stops && out.fraction > 0.0f && out.fraction < context.fraction &&
      (!askPreSolve || PreSolveStopsAt(context, otherShape, input, out.fraction))) {
    TakeEarlier(context, out.fraction, otherShape);
  }
  return context.fraction > 0.0f;  // nothing is earlier than the start
}

// Lists the body about to be moved back to `impact` (World::SetContinuousRecording), while there is
// room in the reserved list.
void Record(WorldState& world, const SweepContext& context, const Transform& impact) {
  const size_t size = world.continuousRecords.size();
  if (size >= static_cast<size_t>(kMaxContinuousRecords) || size >= world.continuousRecords.capacity())
    return;
  const int targetBody = world.shapes[context.hitTarget].body;
  ContinuousRecord record;
  record.body = world.MakeBodyId(context.body);
  record.shape = world.MakeShapeId(context.hitShape);
  record.target = world.MakeShapeId(context.hitTarget);
  record.start = GetSweepTransform(context.sweep, 0.0f);
  record.end = world.bodies[context.body].xf;
  record.impact = impact;
  record.targetImpact = GetSweepTransform(MakeBodySweep(world.bodies[targetBody]), context.fraction);
  record.fraction = context.fraction;
  world.continuousRecords.push_back(record);
}

// Sweeps one fast body's shapes; returns true when it was moved back.
bool SolveContinuousBody(WorldState& world, int bodySlot) {
  Body& body = world.bodies[bodySlot];
  SweepContext context;
  context.world = &world;
  context.body = bodySlot;
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
  }
  StopRepeatedHold(body, context.held, context.holdNormal);
  if (!(context.fraction < 1.0f)) return false;
  const Transform xf = GetSweepTransform(context.sweep, context.fraction);
  if (world.recordContinuous) Record(world, context, xf);
  body.xf = xf;
  body.center = TransformPoint(xf, body.localCenter);
  UpdateBodyShapesInBroadphase(world, bodySlot, /*teleport=*/false);
  return true;
}

}  // namespace

void SolveContinuous(WorldState& world) {
  world.continuousRecords.clear();
  int hits = 0;
  for (int body : world.fastBodies) hits += SolveContinuousBody(world, body) ? 1 : 0;
  for (int body : world.fastBullets) hits += SolveContinuousBody(world, body) ? 1 : 0;
  world.counters.fastBodies = static_cast<int>(world.fastBodies.size() + world.fastBullets.size());
  world.counters.toiHits = hits;
}

void World::SetContinuousRecording(bool enabled) {
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

std::span<const ContinuousRecord> World::GetContinuousRecords() const { return state_->continuousRecords; }

}  // namespace mk
