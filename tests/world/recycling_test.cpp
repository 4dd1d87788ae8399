// Contact recycling (SolverSettings::enableContactRecycling, kContactRecycleDistance): every manifold
// the world holds against a fresh computation at the pose it was made for, and the world's touching
// state and begin / end events against a brute-force oracle over all shape pairs.
#include "minkowski/manifold.h"
#include "minkowski/world.h"
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
std::set<std::uint64_t> EventPairs(std::span<const Event> events) {
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

// Faces within this angle of the fresh normal are candidates for the reference face (radians).
constexpr float kNearTie = 0.02f;

// A fresh normal this close to a face's normal is that face's (radians; float rounding only).
constexpr float kSameDirection = 1e-4f;

// Calls visit(sign * world normal) for each face of a polygon or capsule core (none for a circle).
template <class Visit>
void ForEachFaceNormal(const ShapeGeometry& g, const Transform& xf, float sign, Visit&& visit) {
  if (g.Count() < 2) return;
  for (int i = 0; i < g.Count(); ++i) visit(sign * Rotate(xf.q, g.Normals()[i]));
}

struct Errors {
  long reused = 0, points = 0, renamed = 0;
  float position = 0.0f;                        // m
  float separation = 0.0f, normalRatio = 0.0f;  // error / its bound
  float extraSeparation = 1.0f;  // smallest separation of a fresh point no reused point matches
};

// The fresh point a reused point stands for: the one with its feature id, else the nearest one. (A
// lone point on a face is named after the end of the face it is clipped at, and which end that is
// can differ between two computations of the same contact, with or without recycling; such a point
// counts as renamed.) -1 when the fresh manifold is empty.
int Counterpart(const Manifold& fresh, const ManifoldPoint& p, Errors& e) {
  int nearest = -1;
  for (int j = 0; j < fresh.pointCount; ++j) {
    if (fresh.points[j].id == p.id) return j;
    if (nearest < 0 ||
        Distance(p.point, fresh.points[j].point) < Distance(p.point, fresh.points[nearest].point))
      nearest = j;
  }
  ++e.renamed;
  return nearest;
}

// The bound a reused manifold keeps (kContactRecycleDistance = d, docs/design.md narrowphase): the
// bodies' relative pose moved by at most d (any point of the smaller shape relative to the other)
// since it was computed, so against what the same Step would compute fresh at the same pose:
//  - each point lies within d of the fresh one (its ends are fixed on the bodies, which moved at most
//    d relative to each other), and its separation within d (1 + k), k the slope of the incident edge
//    against the reference face (the fresh point is where the edge is clipped, the reused one may have
//    slid up to d along the edge);
//  - a fresh point with no reused one was beyond the speculative distance when the manifold was
//    computed, and came at most d closer: its separation is above speculativeDistance - 2 d;
//  - the normal (turned with A) is within the relative rotation, d / (the smaller shape's extent), of
//    the fresh one when that is a face's normal; otherwise it joins two features (circle, capsule end,
//    corner) and the line between them turns by up to d / (rA + rB + separation) more.
// Asleep bodies, and contacts computed this Step, are not looked at (nothing was reused for them).
void CheckReused(const WorldState& state, const Snapshot& snap, Errors& e) {
  const float d = kContactRecycleDistance;
  for (int slot = 0; slot < state.contactIds.Capacity(); ++slot) {
    if (!state.contactIds.IsLive(slot) || !state.contacts[slot].recycled) continue;
    const Contact& c = state.contacts[slot];
    const Manifold& m = c.manifold;
    const Manifold fresh = Fresh(state, snap, c.shapeA, c.shapeB, slot);
    ++e.reused;
    const ShapeGeometry& ga = state.geometries[c.shapeA];
    const ShapeGeometry& gb = state.geometries[c.shapeB];
    float minSeparation = 1.0f;
    bool matched[2] = {false, false};
    const long renamedBefore = e.renamed;
    // Two fresh points are the ends of an incident edge clipped to the reference face; a reused point
    // is a fixed point of that edge, which may have slid up to d along it, where the separation
    // changes by the edge's slope against the face.
    float slope = 0.0f;
    if (fresh.pointCount == 2) {
      const float run = std::fabs(Cross(fresh.normal, fresh.points[1].point - fresh.points[0].point));
      slope = std::fabs(fresh.points[1].separation - fresh.points[0].separation) / std::max(run, 1e-6f);
    }
    for (int i = 0; i < m.pointCount; ++i) {
      const ManifoldPoint& p = m.points[i];
      const int j = Counterpart(fresh, p, e);
      if (j < 0) continue;
      matched[j] = true;
      ++e.points;
      e.position = std::max(e.position, Distance(p.point, fresh.points[j].point));
      e.separation =
          std::max(e.separation, std::fabs(p.separation - fresh.points[j].separation) / (d * (1.0f + slope)));
      minSeparation = std::min(minSeparation, fresh.points[j].separation);
    }
    // A fresh point without a reused one was beyond the speculative distance when the manifold was
    // computed, and came at most d closer since.
    for (int j = 0; j < fresh.pointCount; ++j) {
      if (!matched[j]) e.extraSeparation = std::min(e.extraSeparation, fresh.points[j].separation);
    }
    // Nearly parallel faces touching flush are a near tie for the reference face: the manifold may
    // have been computed with A's face and the fresh one with B's (same ids), or the reverse. Then the
    // reused normal is within the bound of the other face's normal, which is within a few mrad of
    // the fresh one (the faces' angle, whatever the motion).
    float angle = Angle(m.normal, fresh.normal);
    bool faceNormal = false;
    const auto candidate = [&](Vec2 n) {
      faceNormal = faceNormal || Angle(n, fresh.normal) < kSameDirection;
      if (Angle(n, fresh.normal) < kNearTie) angle = std::min(angle, Angle(m.normal, n));
    };
    ForEachFaceNormal(ga, snap.poses[state.shapes[c.shapeA].body], 1.0f, candidate);
    ForEachFaceNormal(gb, snap.poses[state.shapes[c.shapeB].body], -1.0f, candidate);
    float bound = d / std::min(Extent(ga), Extent(gb));
    if (!faceNormal) bound += d / std::max(ga.Radius() + gb.Radius() + minSeparation, 1e-6f);
    if (e.renamed == renamedBefore) e.normalRatio = std::max(e.normalRatio, angle / bound);
  }
}

}  // namespace

TEST_SUITE("world.recycling") {

TEST_CASE("reused manifolds stay within the recycling bound of a fresh computation at the same pose") {
  // Ten bins of 60 mixed bodies falling onto the floor and ramp, tumbling, sliding and settling.
  const float d = kContactRecycleDistance;
  Errors e;
  for (std::uint64_t seed = 7; seed < 17; ++seed) {
    Bin bin;
    BuildBin(bin, seed, 60, true);
    WorldState& state = bin.world.State();
    for (int step = 0; step < 400; ++step) {
      const Snapshot snap = Take(state);
      bin.world.Step(kDt);
      CheckReused(state, snap, e);
    }
  }
  MESSAGE("reused " << e.reused << " manifolds, " << e.points << " points (" << e.renamed
                    << " renamed): position error " << e.position << " m, separation error up to "
                    << e.separation << " of its bound, normal angle up to " << e.normalRatio
                    << " of its bound, unmatched fresh points from " << e.extraSeparation << " m");
  CHECK(e.reused > 10000);  // the scenes exercise recycling
  CHECK(e.position <= d);
  CHECK(e.separation <= 1.0f);
  CHECK(e.normalRatio <= 1.0f);
  CHECK(e.extraSeparation > kDefaultSpeculativeDistance - 2.0f * d);
  CHECK(e.renamed * 100 < e.points);  // renaming is rare (and warm starting then restarts that point)
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
  CHECK(bin.world.GetCounters().manifoldsReused > bin.world.GetCounters().touchingContacts / 2);
}

}  // TEST_SUITE("world.recycling")
