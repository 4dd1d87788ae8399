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
// static surface stays put if it moves towards it). Kinematic bodies and sensors are
// not swept against, and bullets not against each other.
#include "minkowski/time_of_impact.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
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
  Sweep sweep;
  AABB swept{};  // tight box of the swept shape over the step
  float target = kToiDefaultTarget;
  float fraction = 1.0f;  // earliest time of impact so far
};

bool SweepShapeAgainst(ProxyId, std::uint64_t userData, void* contextPtr) {
  SweepContext& context = *static_cast<SweepContext*>(contextPtr);
  WorldState& world = *context.world;
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

  const ShapeGeometry& geometry = world.geometries[context.shape];
  if (other.chain != kNull &&
      BehindChainSegment(world.geometries[otherShape], otherBody.xf, geometry, context.sweep)) {
    return true;
  }
  ToiInput input;
  input.proxyA = MakeProxy(world.geometries[otherShape]);
  input.proxyB = MakeProxy(geometry);
  input.sweepA = MakeBodySweep(otherBody);
  input.sweepB = context.sweep;
  input.maxFraction = context.fraction;
  input.target = context.target;
  input.tolerance = 0.25f * context.target;
  ToiOutput out = TimeOfImpact(input);
  if (out.fraction == 0.0f && (out.status == ToiStatus::Overlapping || out.status == ToiStatus::Hit)) {
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
      if (d.coresOverlap || Dot(d.normal, motion) < 0.0f) context.fraction = 0.0f;
      return true;
    }
  }
  const bool stops = out.status == ToiStatus::Hit || out.status == ToiStatus::IterationCap;
  if (stops && out.fraction > 0.0f && out.fraction < context.fraction) context.fraction = out.fraction;
  return context.fraction > 0.0f;  // nothing is earlier than the start
}

// Sweeps one fast body's shapes; returns true when it was moved back.
bool SolveContinuousBody(WorldState& world, int bodySlot) {
  Body& body = world.bodies[bodySlot];
  SweepContext context;
  context.world = &world;
  context.body = bodySlot;
  context.bullet = body.isBullet;
  context.sweep = MakeBodySweep(body);
  // A slop of 0 would leave the advancement creeping towards contact: 1 mm is the floor.
  context.target = std::max(world.settings.linearSlop, 0.001f);
  const Transform start = GetSweepTransform(context.sweep, 0.0f);
  // The end poses' boxes miss what a turning shape sweeps between them: a point r from the centre of
  // mass leaves the chord between its end positions by at most r (1 - cos(turn / 2)).
  const float turn = std::min(std::fabs(context.sweep.a2 - context.sweep.a1), kPi);
  const float bulge = body.maxExtent * (1.0f - std::cos(0.5f * turn));
  for (int s = body.headShape; s != kNull; s = world.shapes[s].nextShape) {
    const Shape& shape = world.shapes[s];
    if (shape.isSensor || shape.proxy.IsNull()) continue;
    context.shape = s;
    AABB& swept = context.swept;
    swept = ComputeAABB(world.geometries[s], start);
    swept.lower = Min(swept.lower, shape.aabb.lower);
    swept.upper = Max(swept.upper, shape.aabb.upper);
    const Vec2 reach{bulge + 1.25f * context.target, bulge + 1.25f * context.target};  // + tolerance
    swept.lower -= reach;
    swept.upper += reach;
    // Non-bullets only sweep against static shapes, which the broadphase keeps with the sleeping
    // proxies, apart from the crowd of awake ones.
    if (context.bullet) {
      world.broadphase.QueryAABB(swept, SweepShapeAgainst, &context);
    } else {
      world.broadphase.QueryRestingAABB(swept, SweepShapeAgainst, &context);
    }
  }
  if (!(context.fraction < 1.0f)) return false;
  const Transform xf = GetSweepTransform(context.sweep, context.fraction);
  body.xf = xf;
  body.center = TransformPoint(xf, body.localCenter);
  UpdateBodyShapesInBroadphase(world, bodySlot, /*teleport=*/false);
  return true;
}

}  // namespace

void SolveContinuous(WorldState& world) {
  int hits = 0;
  for (int body : world.fastBodies) hits += SolveContinuousBody(world, body) ? 1 : 0;
  for (int body : world.fastBullets) hits += SolveContinuousBody(world, body) ? 1 : 0;
  world.counters.fastBodies = static_cast<int>(world.fastBodies.size() + world.fastBullets.size());
  world.counters.toiHits = hits;
}

}  // namespace mk
