// SPDX-License-Identifier: MIT
// Contact recycling (SolverSettings::enableContactRecycling, kContactRecycleDistance): every manifold
// the world holds against a fresh computation at the pose it was made for, and the world's touching
// state and begin / end events against a brute-force oracle over all shape pairs.
#include "minkowski/manifold.h"
#include "minkowski/world.h"
#include "narrowphase/oracle.h"
#include "test_util.h"
#include "world/world_state.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <set>
#include <span>
#include <vector>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kPi = 3.14159265f;

// One random dynamic body at `position`: a box, a convex polygon (sharp or rounded), a capsule or a
// circle, 0.1 to 0.6 m across.
BodyId AddRandomBody(World& world, test::Rng& rng, Vec2 position, float friction) {
  const BodyId body =
      world.CreateBody({.type = BodyType::Dynamic, .position = position, .angle = rng.Uniform(-kPi, kPi)});
  const ShapeDef def{.friction = friction};
  switch (rng.Int(0, 3)) {
    case 0:
      world.CreateShape(body, def, MakeBox(rng.Uniform(0.1f, 0.5f), rng.Uniform(0.1f, 0.5f)).value);
      break;
    case 1: {
      Vec2 points[6];
      for (Vec2& p : points) p = rng.InBox(0.4f);
      const GeometryResult<Polygon> polygon = MakePolygon(points, rng.Unit() < 0.5 ? 0.0f : 0.05f);
      world.CreateShape(body, def, polygon.ok() ? polygon.value : MakeBox(0.3f, 0.2f).value);
      break;
    }
    case 2: {
      const float half = rng.Uniform(0.1f, 0.4f);
      world.CreateShape(body, def, MakeCapsule({-half, 0.0f}, {half, 0.0f}, rng.Uniform(0.05f, 0.2f)).value);
      break;
    }
    default:
      world.CreateShape(body, def, MakeCircle({0.0f, 0.0f}, rng.Uniform(0.1f, 0.3f)).value);
      break;
  }
  return body;
}

// A bin (floor y = 0, walls at x = +-6), a ramp of slope 0.3 rad in it, and `count` random bodies
// dropped from a grid above: they fall, tumble, slide down the ramp (every third is slippery,
// friction 0.05) and settle.
struct Bin {
  World world;
  BodyId floor, ramp;
  std::vector<BodyId> bodies;  // every body, static ones included
};

void BuildBin(Bin& bin, std::uint64_t seed, int count, bool recycling) {
  World& world = bin.world;
  SolverSettings settings = world.GetSolverSettings();
  settings.enableContactRecycling = recycling;
  world.SetSolverSettings(settings);
  bin.floor = test::AddGround(world);
  bin.bodies.push_back(bin.floor);
  for (float x : {-6.5f, 6.5f}) {
    const BodyId wall = world.CreateBody({.position = {x, 5.0f}});
    world.CreateShape(wall, {}, MakeBox(0.5f, 5.0f).value);
    bin.bodies.push_back(wall);
  }
  bin.ramp = world.CreateBody({.position = {-2.0f, 2.0f}, .angle = -0.3f});
  world.CreateShape(bin.ramp, {}, MakeBox(3.0f, 0.2f).value);
  bin.bodies.push_back(bin.ramp);
  test::Rng rng(seed);
  for (int i = 0; i < count; ++i) {
    const Vec2 position{-5.0f + 1.1f * static_cast<float>(i % 10), 4.0f + 1.1f * static_cast<float>(i / 10)};
    bin.bodies.push_back(AddRandomBody(world, rng, position, i % 3 == 0 ? 0.05f : 0.6f));
  }
}

// What the narrowphase of the next Step starts from: every body's pose and every contact's GJK cache
// (by slot), so a test can compute exactly what that Step would compute for any contact.
struct Snapshot {
  std::vector<Transform> poses;
  std::vector<SimplexCache> caches;
};

Snapshot Take(const WorldState& state) {
  Snapshot snap;
  for (const Body& b : state.bodies) snap.poses.push_back(b.xf);
  for (const Contact& c : state.contacts) snap.caches.push_back(c.cache);
  return snap;
}

// The manifold a Step that started at `snap` would compute for shapes a and b (slots): the pair's
// own warm cache when a contact held one, cold otherwise. With recycling off this is bit for bit
// what the world computes.
Manifold Fresh(const WorldState& state, const Snapshot& snap, int a, int b, int contactSlot) {
  SimplexCache cache = contactSlot >= 0 ? snap.caches[contactSlot] : SimplexCache{};
  ManifoldSettings settings;
  settings.speculativeDistance = state.settings.speculativeDistance;
  return Collide(state.geometries[a], snap.poses[state.shapes[a].body], state.geometries[b],
                 snap.poses[state.shapes[b].body], &cache, settings);
}

// Farthest point of a shape from its body origin (m), as the recycling bound measures it.
float Extent(const ShapeGeometry& g) {
  const AABB box = ComputeAABB(g, Transform{});
  return Length(Max(box.upper, -box.lower));
}

// The broadphase's key of a shape pair (lower slot first), as the world's contact map uses it.
std::uint64_t PairKey(int a, int b) { return PairMap::Key(a, b); }

// The shape pairs (PairKey of slots, lower slot first) a fresh computation finds touching at the poses
// of `snap`: every pair of shapes on different bodies, one of them dynamic, by brute force (the
// pair's warm cache when a contact held one before the Step, cold otherwise).
std::set<std::uint64_t> OracleTouching(const WorldState& state, const Snapshot& snap) {
  std::set<std::uint64_t> touching;
  for (int a = 0; a < state.shapeIds.Capacity(); ++a) {
    if (!state.shapeIds.IsLive(a)) continue;
    for (int b = a + 1; b < state.shapeIds.Capacity(); ++b) {
      if (!state.shapeIds.IsLive(b) || state.shapes[a].body == state.shapes[b].body) continue;
      if (state.bodies[state.shapes[a].body].type != BodyType::Dynamic &&
          state.bodies[state.shapes[b].body].type != BodyType::Dynamic)
        continue;
      const int contact = state.contactByShapes.Find(PairKey(a, b));
      const int cached = contact < static_cast<int>(snap.caches.size()) ? contact : -1;
      if (Fresh(state, snap, a, b, cached).pointCount > 0) touching.insert(PairKey(a, b));
    }
  }
  return touching;
}

// The pairs the world holds as touching, by its contacts.
std::set<std::uint64_t> WorldTouching(const WorldState& state) {
  std::set<std::uint64_t> touching;
  for (int slot = 0; slot < state.contactIds.Capacity(); ++slot) {
    const Contact& c = state.contacts[slot];
    if (state.contactIds.IsLive(slot) && c.touching) touching.insert(PairKey(c.shapeA, c.shapeB));
  }
  return touching;
}

template <class Event>
std::set<std::uint64_t> EventPairs(Span<const Event> events) {
  std::set<std::uint64_t> pairs;
  for (const Event& e : events)
    pairs.insert(PairKey(static_cast<int>(e.shapeA.index1) - 1, static_cast<int>(e.shapeB.index1) - 1));
  return pairs;
}

std::set<std::uint64_t> Minus(const std::set<std::uint64_t>& a, const std::set<std::uint64_t>& b) {
  std::set<std::uint64_t> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

// Angle between two unit vectors (radians).
float Angle(Vec2 a, Vec2 b) { return std::acos(std::clamp(Dot(a, b), -1.0f, 1.0f)); }

// Signed distance between the two shapes' surfaces at the given poses (metres; negative: the depth
// of overlap), by brute force in double: the exact core distance, or the separating-axis depth when
// the cores overlap, minus the radii. Independent of the narrowphase.
double ExactSeparation(const WorldState& state, const Snapshot& snap, int a, int b) {
  const oracle::WorldShape sa =
      oracle::Place(MakeProxy(state.geometries[a]), snap.poses[state.shapes[a].body]);
  const oracle::WorldShape sb =
      oracle::Place(MakeProxy(state.geometries[b]), snap.poses[state.shapes[b].body]);
  const double core = oracle::CoreDistance(sa, sb);
  const double signedCore = core > 0.0 ? core : -oracle::CorePenetration(sa, sb);
  return signedCore - sa.radius - sb.radius;
}

float MinSeparation(const Manifold& m) {
  float s = INFINITY;
  for (int i = 0; i < m.pointCount; ++i) s = std::min(s, m.points[i].separation);
  return s;
}

struct Errors {
  long reused = 0, decisionChanges = 0, points = 0;
  float position = 0.0f, separation = 0.0f, normalRatio = 0.0f;  // error / its bound
  double computedDepthError = 0.0;  // m, |min separation - exact| of computed manifolds
  double depthExcess = -INFINITY;   // m, reused error - (its origin's error + bound)
};

// Per contact slot, the depth error (|min separation - exact separation|, m) of the manifold the world
// last computed for it: the error a reused manifold inherits.
using OriginErrors = std::vector<double>;

// The bounds a reused manifold keeps (kContactRecycleDistance = d, docs/design.md narrowphase). The
// relative pose moved by at most d since the manifold was computed: no point of the smaller shape moved
// more than d in the larger one's frame, and the normal turned with A by at most d / (the smaller
// extent). Checked every step the world reuses a manifold, at the pose that step's narrowphase saw:
//  1. Always, against brute force: its deepest separation is within d (2 + |s| / smaller extent) of
//     the exact separation of the shapes, beyond the error the computation it came from had (the
//     exact separation changes by at most d, each reused separation by at most d + |s| times the turn).
//  2. Where the same step computing it fresh keeps the decisions it made (the same points by feature
//     id, a normal within the turn): each point within d sqrt(1 + k^2) of the fresh one and its
//     separation within d (1 + k), k the slope of the incident edge against the reference face (the
//     fresh point of a clipped end is where the moved edge crosses the side plane: the edge moved at
//     most d across that plane, so the crossing slid up to d / cos(atan k) = d sqrt(1 + k^2) along the
//     edge), and the normal within the turn (plus d / (rA + rB + separation) for a normal joining two
//     rounded features).
//  Where a fresh computation changes a decision under this motion (a near tie between two reference
//  faces or between a face and a corner, where the narrowphase itself jumps), only 1 applies; those
//  cases must stay rare.
// Asleep bodies, and contacts computed this Step, are not looked at (nothing was reused for them).
void CheckReused(const WorldState& state, const Snapshot& snap, OriginErrors& origin, Errors& e) {
  const float d = kContactRecycleDistance;
  if (origin.size() < state.contacts.size()) origin.resize(state.contacts.size(), 0.0);
  for (int slot = 0; slot < state.contactIds.Capacity(); ++slot) {
    if (!state.contactIds.IsLive(slot)) continue;
    const Contact& c = state.contacts[slot];
    const Manifold& m = c.manifold;
    if (m.pointCount == 0) continue;
    const Body& bodyA = state.bodies[state.shapes[c.shapeA].body];
    const Body& bodyB = state.bodies[state.shapes[c.shapeB].body];
    if (!bodyA.awake && !bodyB.awake) continue;
    const double depthError = std::fabs(MinSeparation(m) - ExactSeparation(state, snap, c.shapeA, c.shapeB));
    if (!c.recycled) {
      origin[slot] = depthError;
      e.computedDepthError = std::max(e.computedDepthError, depthError);
      continue;
    }
    ++e.reused;
    const ShapeGeometry& ga = state.geometries[c.shapeA];
    const ShapeGeometry& gb = state.geometries[c.shapeB];
    const float smallerExtent = std::min(Extent(ga), Extent(gb));
    float largestSeparation = 0.0f;
    for (int i = 0; i < m.pointCount; ++i)
      largestSeparation = std::max(largestSeparation, std::fabs(m.points[i].separation));
    const double depthBound = d * (2.0 + largestSeparation / smallerExtent) + 1e-5;  // + float rounding
    e.depthExcess = std::max(e.depthExcess, depthError - (origin[slot] + depthBound));

    const Manifold fresh = Fresh(state, snap, c.shapeA, c.shapeB, slot);
    float normalBound = d / smallerExtent;
    if (fresh.pointCount == 1 || ga.Count() < 2 || gb.Count() < 2)
      normalBound += d / std::max(ga.Radius() + gb.Radius() + MinSeparation(fresh), 1e-6f);
    bool same = fresh.pointCount == m.pointCount && Angle(m.normal, fresh.normal) <= normalBound;
    int counterpart[2] = {-1, -1};
    for (int i = 0; same && i < m.pointCount; ++i) {
      for (int j = 0; j < fresh.pointCount; ++j)
        if (fresh.points[j].id == m.points[i].id) counterpart[i] = j;
      same = counterpart[i] >= 0;
    }
    if (!same) {
      ++e.decisionChanges;
      continue;
    }
    // Two fresh points are the ends of an incident edge clipped to the reference face: the slope.
    float slope = 0.0f;
    if (fresh.pointCount == 2) {
      const float run = std::fabs(Cross(fresh.normal, fresh.points[1].point - fresh.points[0].point));
      slope = std::fabs(fresh.points[1].separation - fresh.points[0].separation) / std::max(run, 1e-6f);
    }
    for (int i = 0; i < m.pointCount; ++i) {
      const ManifoldPoint& p = m.points[i];
      const ManifoldPoint& q = fresh.points[counterpart[i]];
      ++e.points;
      e.position = std::max(e.position, Distance(p.point, q.point) / (d * std::sqrt(1.0f + slope * slope)));
      e.separation = std::max(e.separation, std::fabs(p.separation - q.separation) / (d * (1.0f + slope)));
    }
    e.normalRatio = std::max(e.normalRatio, Angle(m.normal, fresh.normal) / normalBound);
  }
}

}  // namespace

TEST_SUITE("world.recycling") {

TEST_CASE("reused manifolds stay within the recycling bound of exact separation and of a fresh computation") {
  // Ten bins of 60 mixed bodies falling onto the floor and ramp, tumbling, sliding and settling.
  Errors e;
  for (std::uint64_t seed = 7; seed < 17; ++seed) {
    Bin bin;
    BuildBin(bin, seed, 60, true);
    WorldState& state = bin.world.State();
    OriginErrors origin;
    for (int step = 0; step < 400; ++step) {
      const Snapshot snap = Take(state);
      bin.world.Step(kDt);
      CheckReused(state, snap, origin, e);
    }
  }
  MESSAGE(
      "reused " << e.reused << " manifolds (" << e.decisionChanges
                << " where a fresh computation changed a decision): depth error of computed manifolds up to "
                << e.computedDepthError << " m, reused ones exceed theirs plus the bound by at most "
                << e.depthExcess << " m; " << e.points << " points compared: position error up to "
                << e.position << " of its bound, separation error up to " << e.separation
                << " of its bound, normal angle up to " << e.normalRatio << " of its bound");
  CHECK(e.reused > 10000);  // the scenes exercise recycling
  CHECK(e.depthExcess <= 0.0);
  CHECK(e.position <= 1.0f);
  CHECK(e.separation <= 1.0f);
  CHECK(e.normalRatio <= 1.0f);
  CHECK(e.decisionChanges * 100 < e.reused);  // the narrowphase's own jumps are rare
}

TEST_CASE("touching state and begin and end events equal a brute-force oracle with recycling on and off") {
  // Three bins (seeds), each with recycling off and on: 60 mixed bodies fall onto the ramp and floor and
  // settles (most fall asleep); at step 200 the ramp is destroyed and what rested on it falls to the floor
  // and settles again. Each step the world's touching pairs must be exactly those a fresh computation finds
  // touching at the pose the step's narrowphase saw, its begin events the pairs that started touching and its
  // end events those that stopped (the ramp's among them).
  for (int run = 0; run < 6; ++run) {
    const bool recycling = run % 2 == 1;
    const std::uint64_t seed = 11 + run / 2;
    CAPTURE(recycling);
    CAPTURE(seed);
    Bin bin;
    BuildBin(bin, seed, 60, recycling);
    WorldState& state = bin.world.State();
    std::set<std::uint64_t> before;
    long begins = 0, ends = 0, reused = 0, mismatches = 0;
    for (int step = 0; step < 450; ++step) {
      if (step == 200) bin.world.DestroyBody(bin.ramp);
      const Snapshot snap = Take(state);
      bin.world.Step(kDt);
      const std::set<std::uint64_t> now = OracleTouching(state, snap);
      mismatches += WorldTouching(state) == now ? 0 : 1;
      CHECK(bin.world.GetCounters().touchingContacts == static_cast<int>(now.size()));
      const std::set<std::uint64_t> begun = EventPairs(bin.world.GetContactBeginEvents());
      const std::set<std::uint64_t> ended = EventPairs(bin.world.GetContactEndEvents());
      CHECK(begun == Minus(now, before));
      CHECK(ended == Minus(before, now));
      CHECK(bin.world.GetContactBeginEvents().size() == begun.size());  // each pair once
      CHECK(bin.world.GetContactEndEvents().size() == ended.size());
      begins += static_cast<long>(begun.size());
      ends += static_cast<long>(ended.size());
      reused += bin.world.GetCounters().manifoldsReused;
      before = now;
    }
    MESSAGE("seed " << seed << " recycling " << recycling << ": " << begins << " begin and " << ends
                    << " end events, " << reused << " manifolds reused");
    CHECK(mismatches == 0);
    CHECK(begins > 100);
    CHECK(ends > 20);
    if (recycling) CHECK(reused > 5000);
  }
}

TEST_CASE("with recycling off no manifold is reused and turned on it reuses them") {
  Bin bin;
  BuildBin(bin, 21, 60, false);
  CHECK_FALSE(bin.world.GetSolverSettings().enableContactRecycling);
  const WorldState& state = bin.world.State();
  long reused = 0, flagged = 0;
  for (int step = 0; step < 300; ++step) {
    bin.world.Step(kDt);
    reused += bin.world.GetCounters().manifoldsReused;
    for (int slot = 0; slot < state.contactIds.Capacity(); ++slot)
      flagged +=
          state.contactIds.IsLive(slot) && (state.contacts[slot].recycled || state.contacts[slot].recyclable);
  }
  CHECK(reused == 0);
  CHECK(flagged == 0);
  // Turned on, the settled bin (woken) reuses manifolds from the second step: the first stores them.
  SolverSettings settings = bin.world.GetSolverSettings();
  settings.enableContactRecycling = true;
  CHECK(bin.world.SetSolverSettings(settings));
  CHECK(bin.world.GetSolverSettings().enableContactRecycling);
  for (BodyId body : bin.bodies) bin.world.SetAwake(body, true);
  bin.world.Step(kDt);
  CHECK(bin.world.GetCounters().manifoldsReused == 0);
  bin.world.Step(kDt);
  // Contacts with a circle are never reused (UpdateManifold), so they are not counted.
  int eligible = 0;
  for (int slot = 0; slot < state.contactIds.Capacity(); ++slot) {
    if (!state.contactIds.IsLive(slot) || state.contacts[slot].manifold.pointCount == 0) continue;
    const Contact& c = state.contacts[slot];
    eligible += state.geometries[c.shapeA].Type() != ShapeType::Circle &&
                state.geometries[c.shapeB].Type() != ShapeType::Circle;
  }
  MESSAGE(bin.world.GetCounters().manifoldsReused << " of " << eligible
                                                  << " touching contacts without a circle reused");
  CHECK(eligible > 20);
  CHECK(bin.world.GetCounters().manifoldsReused > eligible / 2);
}

// Issue 28 (v3 Confined): circles packed tighter than their size in a box too small for them, no
// gravity. Their contacts push out for ever and every normal impulse runs through the circles'
// centres, so nothing turns them. Reused manifolds turned their points and normals with the circles,
// a lever on every push-out impulse, and the crowd spun (0.1 to 0.3 rad/s after 10 s, never asleep).
// Circles' manifolds are computed every step; the crowd stops turning and sleeps (v3: step 112 for
// 625 circles).
TEST_CASE("a crowd of circles jammed in a box stops turning and sleeps") {
  World world({.gravity = {0.0f, 0.0f}});
  constexpr int kSide = 10;
  constexpr float kSpacing = 0.8f, kHalf = 0.5f * kSide * kSpacing;  // circles of radius 0.5
  const BodyId walls = world.CreateBody({});
  world.CreateShape(walls, {}, MakeOffsetBox(kHalf + 1.0f, 1.0f, {0.0f, -kHalf - 1.0f}, 0.0f).value);
  world.CreateShape(walls, {}, MakeOffsetBox(kHalf + 1.0f, 1.0f, {0.0f, kHalf + 1.0f}, 0.0f).value);
  world.CreateShape(walls, {}, MakeOffsetBox(1.0f, kHalf + 1.0f, {-kHalf - 1.0f, 0.0f}, 0.0f).value);
  world.CreateShape(walls, {}, MakeOffsetBox(1.0f, kHalf + 1.0f, {kHalf + 1.0f, 0.0f}, 0.0f).value);
  std::vector<BodyId> circles;
  for (int i = 0; i < kSide * kSide; ++i) {
    const Vec2 p{-kHalf + kSpacing * (static_cast<float>(i % kSide) + 0.5f),
                 -kHalf + kSpacing * (static_cast<float>(i / kSide) + 0.5f)};
    circles.push_back(world.CreateBody({.type = BodyType::Dynamic, .position = p}));
    world.CreateShape(circles.back(), {}, Circle{{0.0f, 0.0f}, 0.5f});
  }
  int asleepAt = -1;
  float fastestTurn = 0.0f;
  for (int step = 0; step < 600 && asleepAt < 0; ++step) {
    world.Step(kDt);
    bool awake = false;
    for (BodyId c : circles) {
      awake = awake || world.IsAwake(c);
      if (step >= 60) fastestTurn = std::max(fastestTurn, std::fabs(world.GetAngularVelocity(c)));
    }
    if (!awake) asleepAt = step;
  }
  MESSAGE("asleep at step " << asleepAt << ", fastest turn after 1 s " << fastestTurn << " rad/s");
  CHECK(asleepAt >= 0);
  CHECK(asleepAt <= 112);
  CHECK(fastestTurn < 0.05f);
}

}  // TEST_SUITE("world.recycling")
