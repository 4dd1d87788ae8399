// SPDX-License-Identifier: MIT
// Body features (issue 29, Box2D v3's body API): motion locks, SetType, mass data, kinematic targets and
// the small helpers, each against an independent answer (analytic values, a world built from scratch,
// the bits of the state before the call).
#include "minkowski/replay.h"
#include "minkowski/shape_api.h"
#include "minkowski/world.h"
#include "minkowski/world_vector.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numbers>
#include <random>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

using namespace mk;
using mk::test::AddBox;
using mk::test::AddGround;
using mk::test::AssertCounter;

namespace {

constexpr float kDt = 1.0f / 60.0f;

bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// One locked body and the bits its locks must keep.
struct Locked {
  BodyId body;
  MotionLocks locks;
  Vec2 center;
  Rot q;
  float freeMotion = 0.0f;  // largest change seen on a free axis (m or rad)
};

// Boxes rain on four locked bodies, two of them jointed to free ones, while random impulses, torques
// and fast shots hit everything: the locked axes keep their bits, their velocities stay 0, and the free
// axes move.
void RunLockedWorld(SolverMode mode) {
  World world;
  SolverSettings settings = world.GetSolverSettings();
  settings.mode = mode;
  world.SetSolverSettings(settings);
  AddGround(world);
  std::vector<Locked> locked;
  const std::array<MotionLocks, 4> kinds{
      MotionLocks{.linearX = true}, MotionLocks{.linearY = true, .angularZ = true},
      MotionLocks{.angularZ = true}, MotionLocks{.linearX = true, .linearY = true}};
  for (int i = 0; i < 4; ++i) {
    const BodyId body = world.CreateBody({.type = BodyType::Dynamic,
                                          .position = {-6.0f + 4.0f * i, 1.5f + 0.3f * i},
                                          .angle = 0.3f * i,
                                          .motionLocks = kinds[i]});
    world.CreateShape(body, {}, MakeBox(0.8f, 0.4f).value);
    locked.push_back({body, kinds[i], world.GetWorldCenterOfMass(body), world.GetTransform(body).q});
  }
  // A free box hangs from the rotation-free pinned body and another from the x-locked one.
  for (int i : {0, 3}) {
    const BodyId partner = AddBox(world, world.GetPosition(locked[i].body) + Vec2{1.5f, 0.0f}, 0.3f);
    RevoluteJointDef joint;
    joint.bodyA = locked[i].body;
    joint.bodyB = partner;
    joint.localAnchorA = {0.8f, 0.0f};
    joint.localAnchorB = {-0.7f, 0.0f};
    world.CreateJoint(joint);
  }
  std::vector<BodyId> boxes;
  for (int i = 0; i < 24; ++i)
    boxes.push_back(AddBox(world, {-7.0f + 0.6f * i, 5.0f + 0.7f * (i % 5)}, 0.25f));
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (int step = 0; step < 1000; ++step) {
    for (const Locked& l : locked) {
      const Vec2 point = world.GetWorldCenterOfMass(l.body) + Vec2{0.5f * unit(rng), 0.3f * unit(rng)};
      world.ApplyLinearImpulse(l.body, {40.0f * unit(rng), 40.0f * unit(rng)}, point);
      world.ApplyTorque(l.body, 200.0f * unit(rng));
    }
    if (step % 50 == 0) {  // a fast shot into a locked body (continuous collision) and a reshuffle
      const BodyId shot = boxes[static_cast<std::size_t>(step / 50) % boxes.size()];
      const Locked& target = locked[static_cast<std::size_t>(step / 50) % locked.size()];
      world.SetTransform(shot, world.GetWorldCenterOfMass(target.body) + Vec2{0.0f, 3.0f}, 0.0f);
      world.SetLinearVelocity(shot, {0.0f, -150.0f});
    }
    world.Step(kDt);
    for (Locked& l : locked) {
      const Vec2 c = world.GetWorldCenterOfMass(l.body);
      const Rot q = world.GetTransform(l.body).q;
      const Vec2 v = world.GetLinearVelocity(l.body);
      if (l.locks.linearX) REQUIRE((SameBits(c.x, l.center.x) && v.x == 0.0f));
      if (l.locks.linearY) REQUIRE((SameBits(c.y, l.center.y) && v.y == 0.0f));
      if (l.locks.angularZ)
        REQUIRE((SameBits(q.c, l.q.c) && SameBits(q.s, l.q.s) && world.GetAngularVelocity(l.body) == 0.0f));
      if (!l.locks.linearX) l.freeMotion = std::max(l.freeMotion, std::fabs(c.x - l.center.x));
      if (!l.locks.linearY) l.freeMotion = std::max(l.freeMotion, std::fabs(c.y - l.center.y));
      if (!l.locks.angularZ) l.freeMotion = std::max(l.freeMotion, std::fabs(Angle(InvMulRot(l.q, q))));
    }
  }
  for (const Locked& l : locked) CHECK(l.freeMotion > 0.1f);
  // Both linear locks: contacts and joints see an infinite mass (the inverse is 0), the mass stays.
  CHECK(world.GetMass(locked[3].body) == doctest::Approx(1.6f * 0.8f));
}

}  // namespace

TEST_SUITE("body features") {
TEST_CASE("motion locks keep the locked axes bit exact under impulses and contacts and joints") {
  RunLockedWorld(SolverMode::SoftStep);
}

TEST_CASE("motion locks keep the locked axes bit exact in classic mode") {
  RunLockedWorld(SolverMode::Classic);
}

TEST_CASE("motion locks and fixed rotation are one rotation lock") {
  World world;
  const BodyId a =
      world.CreateBody({.type = BodyType::Dynamic, .angularVelocity = 3.0f, .fixedRotation = true});
  world.CreateShape(a, {}, MakeBox(0.5f, 0.5f).value);
  CHECK(world.GetMotionLocks(a).angularZ);
  CHECK(world.GetAngularVelocity(a) == 0.0f);
  CHECK(world.GetRotationalInertia(a) == 0.0f);
  world.SetMotionLocks(a, {.linearY = true});  // unlocks rotation, locks y
  CHECK_FALSE(world.GetMotionLocks(a).angularZ);
  CHECK(world.GetRotationalInertia(a) ==
        doctest::Approx(1.0f * (1.0f + 1.0f) / 12.0f));  // m (w^2 + h^2) / 12
  world.SetLinearVelocity(a, {2.0f, 3.0f});
  CHECK(world.GetLinearVelocity(a).x == 2.0f);
  CHECK(world.GetLinearVelocity(a).y == 0.0f);  // gravity does not move it either
  for (int i = 0; i < 30; ++i) world.Step(kDt);
  CHECK(world.GetPosition(a).y == 0.0f);
  CHECK(world.GetPosition(a).x == doctest::Approx(2.0f * 30 * kDt));
  world.SetFixedRotation(a, true);
  CHECK(world.GetMotionLocks(a).linearY);
  CHECK(world.GetMotionLocks(a).angularZ);
}

TEST_CASE("SetType gives the mass and contacts of a world built with that type") {
  const auto build = [](World& world, BodyType platformType, std::vector<BodyId>& bodies) {
    AddGround(world);
    const BodyId platform = world.CreateBody({.type = platformType, .position = {0.0f, 2.0f}});
    world.CreateShape(platform, {}, MakeBox(2.0f, 0.25f).value);
    world.CreateShape(platform, {.density = 3.0f}, Circle{{1.0f, 0.5f}, 0.2f});
    bodies = {platform, AddBox(world, {0.0f, 2.75f}), AddBox(world, {3.0f, 0.5f}),
              AddBox(world, {-1.0f, 1.24f})};
  };
  const auto touchingPairs = [](const World& world) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> pairs;
    world.ForEachTouchingContact([&](const ContactView& c) {
      pairs.insert({c.shapeA.index1, c.shapeB.index1});
    });
    return pairs;
  };
  for (BodyType from : {BodyType::Static, BodyType::Kinematic, BodyType::Dynamic}) {
    for (BodyType to : {BodyType::Static, BodyType::Kinematic, BodyType::Dynamic}) {
      if (from == to) continue;
      CAPTURE(static_cast<int>(from));
      CAPTURE(static_cast<int>(to));
      World changed, fresh;
      std::vector<BodyId> a, b;
      build(changed, from, a);
      build(fresh, to, b);
      changed.Step(kDt);
      changed.SetType(a[0], to);
      for (std::size_t i = 0; i < a.size(); ++i) {  // the fresh world's bodies where the others are now
        fresh.SetTransform(b[i], changed.GetPosition(a[i]), changed.GetAngle(a[i]));
        CHECK(changed.IsAwake(a[i]) == (changed.GetBodyType(a[i]) != BodyType::Static));
      }
      CHECK(SameBits(changed.GetMass(a[0]), fresh.GetMass(b[0])));
      CHECK(SameBits(changed.GetRotationalInertia(a[0]), fresh.GetRotationalInertia(b[0])));
      CHECK(changed.GetLocalCenterOfMass(a[0]).x == fresh.GetLocalCenterOfMass(b[0]).x);
      changed.Step(kDt);
      fresh.Step(kDt);
      CHECK(touchingPairs(changed) == touchingPairs(fresh));
      CHECK(changed.GetCounters().contacts == fresh.GetCounters().contacts);
    }
  }
}

TEST_CASE("a dynamic body made static stops and holds what rests on it and a static one made dynamic falls") {
  World world;
  AddGround(world);
  const BodyId platform = world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 5.0f}});
  world.CreateShape(platform, {}, MakeBox(2.0f, 0.25f).value);
  const BodyId rider = AddBox(world, {0.0f, 5.75f});
  for (int i = 0; i < 10; ++i) world.Step(kDt);
  world.SetType(platform, BodyType::Static);
  CHECK(world.GetLinearVelocity(platform).y == 0.0f);
  CHECK(world.GetMass(platform) == 0.0f);
  const Transform held = world.GetTransform(platform);
  for (int i = 0; i < 120; ++i) world.Step(kDt);
  CHECK(SameBits(world.GetPosition(platform).y, held.p.y));
  // The rider rests on the platform's top: 0.25 above its centre, plus the box's half height.
  CHECK(world.GetPosition(rider).y == doctest::Approx(held.p.y + 0.75f).epsilon(0.01f));
  CHECK(std::fabs(world.GetLinearVelocity(rider).y) < 0.01f);
  // Made dynamic again in the air, it falls freely: y = y0 - g t^2 / 2 (the ballistic path is exact)
  // until it lands on the ground; the rider falls with it.
  world.SetTransform(platform, {20.0f, 10.0f}, 0.0f);
  world.SetType(platform, BodyType::Dynamic);
  CHECK(world.IsAwake(platform));
  const float steps = 30.0f;
  for (int i = 0; i < 30; ++i) world.Step(kDt);
  const float t = steps * kDt;
  CHECK(world.GetPosition(platform).y == doctest::Approx(10.0f - 0.5f * 10.0f * t * t).epsilon(1e-4f));
}

namespace {

// One shape of a body's history as the test made it: a box (half sizes, centre, angle) or a circle.
struct MadeShape {
  ShapeId id;
  bool circle = false;
  Vec2 center{0.0f, 0.0f};
  float hx = 0.0f, hy = 0.0f, angle = 0.0f;  // box
  float radius = 0.0f;                       // circle
  float density = 1.0f;
};

ShapeId MakeShape(World& world, BodyId body, const MadeShape& s) {
  const ShapeDef def{.density = s.density};
  if (s.circle) return world.CreateShape(body, def, Circle{s.center, s.radius});
  return world.CreateShape(body, def, MakeOffsetBox(s.hx, s.hy, s.center, s.angle).value);
}

MadeShape RandomShape(std::mt19937& rng) {
  std::uniform_real_distribution<float> pos(-2.0f, 2.0f), size(0.1f, 1.0f), density(0.5f, 3.0f),
      angle(-3.0f, 3.0f);
  MadeShape s;
  s.circle = rng() % 3 == 0;
  s.center = {pos(rng), pos(rng)};
  s.hx = size(rng), s.hy = size(rng), s.angle = angle(rng);
  s.radius = size(rng);
  s.density = density(rng);
  return s;
}

// The body's mass data from the shapes in the order made, in double precision: mass, centre and
// inertia about the centre (a box's about its own centre m (w^2 + h^2) / 12, a circle's m r^2 / 2).
MassData AnalyticMass(const std::vector<MadeShape>& shapes) {
  double mass = 0.0, mx = 0.0, my = 0.0, inertiaAtOrigin = 0.0;
  for (const MadeShape& s : shapes) {
    const double r = s.radius, hx = s.hx, hy = s.hy;
    const double m = s.density * (s.circle ? std::numbers::pi * r * r : 4.0 * hx * hy);
    const double own = s.circle ? 0.5 * m * r * r : m * (hx * hx + hy * hy) / 3.0;
    mass += m;
    mx += m * s.center.x;
    my += m * s.center.y;
    inertiaAtOrigin += own + m * (double{s.center.x} * s.center.x + double{s.center.y} * s.center.y);
  }
  const double cx = mx / mass, cy = my / mass;
  return {static_cast<float>(mass),
          {static_cast<float>(cx), static_cast<float>(cy)},
          static_cast<float>(inertiaAtOrigin - mass * (cx * cx + cy * cy))};
}

}  // namespace

TEST_CASE("a body's mass is its shapes' in the order made whatever happened to it before") {
  // The world keeps each body's mass sum and adds a new shape to it (so that thousands of shapes on
  // one body build in linear time); what it keeps must always be what a body built afresh from the
  // same shapes, in the same order, has: after destroyed shapes, new densities and geometries, a
  // static body's shapes made dynamic, a snapshot restored. Bit for bit against that fresh body, and
  // within float rounding of the double-precision sum.
  std::mt19937 rng(2026);
  int compared = 0;
  for (int trial = 0; trial < 60; ++trial) {
    CAPTURE(trial);
    World world;
    const bool startStatic = trial % 3 == 0;
    const BodyId body = world.CreateBody({.type = startStatic ? BodyType::Static : BodyType::Dynamic});
    std::vector<MadeShape> live;
    std::vector<std::byte> snapshot;
    std::vector<MadeShape> saved;
    for (int op = 0; op < 80; ++op) {
      const unsigned kind = rng() % 12;
      if (kind < 6 || live.empty()) {
        MadeShape s = RandomShape(rng);
        s.id = MakeShape(world, body, s);
        REQUIRE(!s.id.IsNull());
        live.push_back(s);
      } else if (kind < 8) {  // any shape, not only the newest: the sum is the others' again
        const std::size_t i = rng() % live.size();
        REQUIRE(world.DestroyShape(live[i].id));
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
      } else if (kind == 8) {
        MadeShape& s = live[rng() % live.size()];
        s.density = RandomShape(rng).density;
        world.SetDensity(s.id, s.density);
      } else if (kind == 9) {  // a new geometry of the same kind, the shape keeping its place
        MadeShape& s = live[rng() % live.size()];
        const MadeShape g = RandomShape(rng);
        s.center = g.center, s.hx = g.hx, s.hy = g.hy, s.angle = g.angle, s.radius = g.radius;
        if (s.circle) {
          SetCircle(world, s.id, Circle{s.center, s.radius});
        } else {
          SetPolygon(world, s.id, MakeOffsetBox(s.hx, s.hy, s.center, s.angle).value);
        }
      } else if (kind == 10 && (snapshot.empty() || rng() % 2 == 0)) {
        SaveSnapshot(world, snapshot);
        saved = live;
      } else if (kind == 10) {  // back to the saved shapes, whatever came since
        REQUIRE(world.RestoreSnapshot(snapshot).ok());
        live = saved;
      } else {
        world.SetType(body, BodyType::Static);
        world.SetType(body, BodyType::Dynamic);
      }
      if (op % 8 != 7) continue;
      if (world.GetBodyType(body) != BodyType::Dynamic) world.SetType(body, BodyType::Dynamic);
      World fresh;
      const BodyId twin = fresh.CreateBody({.type = BodyType::Dynamic});
      for (const MadeShape& s : live) REQUIRE(!MakeShape(fresh, twin, s).IsNull());
      const MassData got = world.GetMassData(body), want = fresh.GetMassData(twin);
      CHECK(SameBits(got.mass, want.mass));
      CHECK(SameBits(got.center.x, want.center.x));
      CHECK(SameBits(got.center.y, want.center.y));
      CHECK(SameBits(got.rotationalInertia, want.rotationalInertia));
      ++compared;
      if (live.empty()) {  // a dynamic body without mass weighs 1 kg (Box2D's convention)
        CHECK(got.mass == 1.0f);
        continue;
      }
      const MassData exact = AnalyticMass(live);
      CHECK(got.mass == doctest::Approx(exact.mass).epsilon(1e-5));
      CHECK(got.center.x == doctest::Approx(exact.center.x).epsilon(1e-4).scale(1.0));
      CHECK(got.center.y == doctest::Approx(exact.center.y).epsilon(1e-4).scale(1.0));
      CHECK(got.rotationalInertia == doctest::Approx(exact.rotationalInertia).epsilon(1e-4));
    }
  }
  CHECK(compared == 60 * 10);
}

namespace {

// The body's shapes as GetShapes lists them.
std::vector<ShapeId> ListedShapes(const World& world, BodyId body) {
  std::vector<ShapeId> out(static_cast<std::size_t>(world.GetShapeCount(body)));
  out.resize(static_cast<std::size_t>(world.GetShapes(body, out)));
  return out;
}

std::vector<ShapeId> Segments(const World& world, ChainId chain) {
  std::vector<ShapeId> out(static_cast<std::size_t>(world.GetChainSegmentCount(chain)));
  out.resize(static_cast<std::size_t>(world.GetChainSegments(chain, out)));
  return out;
}

// The touching contacts of `shapes` (in that order, each's as GetBodyContactData lists the body's):
// the end events that destroying those shapes one by one, in that order, raises.
std::vector<ContactId> TouchingInShapeOrder(const World& world, BodyId body,
                                            const std::vector<ShapeId>& shapes) {
  std::vector<ContactData> data(static_cast<std::size_t>(world.GetBodyContactCapacity(body)));
  data.resize(static_cast<std::size_t>(world.GetBodyContactData(body, data)));
  std::vector<ContactId> order;
  for (ShapeId shape : shapes) {
    for (const ContactData& c : data)
      if (c.shapeA == shape || c.shapeB == shape) order.push_back(c.contact);
  }
  return order;
}

std::vector<ContactId> EndedContacts(const World& world) {
  std::vector<ContactId> out;
  for (const ContactEndEvent& e : world.GetContactEndEvents()) out.push_back(e.contact);
  return out;
}

// A static body with a row of `tiles` boxes and, below it, a chain of `points` points, and a box
// resting on each tile and one on the chain every 1.5 m: settled, every tile and many segments touching.
struct Terrain {
  World world;
  BodyId ground;
  ChainId chain;
  Terrain(int tiles, int points) {
    ground = world.CreateBody({});
    for (int i = 0; i < tiles; ++i)
      world.CreateShape(ground, {},
                        MakeOffsetBox(0.5f, 0.5f, {1.0f * static_cast<float>(i), 0.0f}, 0.0f).value);
    std::vector<Vec2> p;  // right to left: a chain segment's front is to the right of p1 -> p2, up here
    for (int i = points - 1; i >= 0; --i) p.push_back({0.5f * static_cast<float>(i), -10.0f});
    chain = world.CreateChain(ground, {.points = {p.data(), p.size()}});
    for (int i = 0; i < tiles; ++i) test::AddBox(world, {1.0f * static_cast<float>(i) + 0.3f, 1.0f}, 0.3f);
    for (int i = 2; i < points - 2; i += 3) test::AddBox(world, {0.5f * static_cast<float>(i), -9.6f}, 0.3f);
    for (int s = 0; s < 60; ++s) world.Step(kDt);
  }
};

}  // namespace

TEST_CASE(
    "a body's shapes stay listed most recent first whatever is destroyed with chains and snapshots too") {
  // Each shape knows the one before it in its body's list, so that it leaves the list at once (not
  // after a walk from the head); that link is not saved, so a restored snapshot makes it again. Random
  // histories on two bodies against a model of each list: GetShapes after every operation.
  std::mt19937 rng(31);
  int checked = 0;
  for (int trial = 0; trial < 40; ++trial) {
    CAPTURE(trial);
    World world;
    const BodyId bodies[2] = {world.CreateBody({}),
                              world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 4.0f}})};
    std::vector<ShapeId> model[2];                // most recent first, as GetShapes
    std::vector<std::pair<ChainId, int>> chains;  // and the body each is on
    std::vector<std::byte> snapshot;
    std::vector<ShapeId> savedModel[2];
    std::vector<std::pair<ChainId, int>> savedChains;
    std::uniform_real_distribution<float> pos(-3.0f, 3.0f);
    for (int op = 0; op < 120; ++op) {
      const unsigned kind = rng() % 11;
      const int b = static_cast<int>(rng() % 2);
      std::vector<ShapeId> loose;  // the body's shapes that are not a chain's
      for (ShapeId s : model[b])
        if (world.GetChain(s).IsNull()) loose.push_back(s);
      if (kind < 4) {
        const ShapeId s =
            world.CreateShape(bodies[b], {}, MakeOffsetBox(0.2f, 0.2f, {pos(rng), pos(rng)}, 0.0f).value);
        REQUIRE(!s.IsNull());
        model[b].insert(model[b].begin(), s);
      } else if (kind < 7 && !loose.empty()) {  // any shape of the list: head, middle or tail
        const ShapeId s = loose[rng() % loose.size()];
        REQUIRE(world.DestroyShape(s));
        model[b].erase(std::find(model[b].begin(), model[b].end(), s));
      } else if (kind == 7) {
        std::vector<Vec2> p;
        const Vec2 start{pos(rng), pos(rng)};
        for (int i = 0; i < 4 + static_cast<int>(rng() % 5); ++i)
          p.push_back({start.x + 0.5f * static_cast<float>(i), start.y});
        const ChainId chain = world.CreateChain(bodies[b], {.points = {p.data(), p.size()}});
        REQUIRE(!chain.IsNull());
        const std::vector<ShapeId> segments = Segments(world, chain);
        model[b].insert(model[b].begin(), segments.rbegin(), segments.rend());  // each made at the head
        chains.emplace_back(chain, b);
      } else if (kind == 8 && !chains.empty()) {
        const std::size_t i = rng() % chains.size();
        const std::vector<ShapeId> segments = Segments(world, chains[i].first);
        REQUIRE(world.DestroyChain(chains[i].first));
        std::vector<ShapeId>& list = model[chains[i].second];
        for (ShapeId s : segments) list.erase(std::find(list.begin(), list.end(), s));
        chains.erase(chains.begin() + static_cast<std::ptrdiff_t>(i));
      } else if (kind == 9 && (snapshot.empty() || rng() % 2 == 0)) {
        SaveSnapshot(world, snapshot);
        savedModel[0] = model[0], savedModel[1] = model[1], savedChains = chains;
      } else if (kind == 9) {  // back to the saved lists: the links made again from them
        REQUIRE(world.RestoreSnapshot(snapshot).ok());
        model[0] = savedModel[0], model[1] = savedModel[1], chains = savedChains;
      } else {
        world.Step(kDt);  // contacts between the bodies' shapes, for the destroys to end
      }
      for (int k = 0; k < 2; ++k) {
        CHECK(ListedShapes(world, bodies[k]) == model[k]);
        ++checked;
      }
    }
  }
  CHECK(checked == 40 * 120 * 2);
}

TEST_CASE(
    "a body destroyed or disabled or retyped and a chain destroyed end their contacts as their shapes would "
    "one by one") {
  // Each finds its shapes' contacts in one walk of the body's contact list (a terrain of thousands
  // of segments walked that list once a segment), and must still end them as taking the shapes out
  // one at a time would: shape by shape in the order they go (a body's head first, a chain's segments
  // in order), each shape's touching contacts as the body lists them.
  SUBCASE("a body") {
    Terrain t(12, 30);
    const std::vector<ShapeId> shapes = ListedShapes(t.world, t.ground);  // the order DestroyBody takes them
    const std::vector<ContactId> want = TouchingInShapeOrder(t.world, t.ground, shapes);
    CHECK(want.size() >= 12 + 9);  // every tile's box (on two tiles) and the chain's
    REQUIRE(t.world.DestroyBody(t.ground));
    t.world.Step(kDt);
    CHECK(EndedContacts(t.world) == want);
  }
  SUBCASE("a body disabled, or made dynamic: its shapes leave the broadphase with their contacts") {
    for (const bool disable : {true, false}) {
      CAPTURE(disable);
      Terrain t(12, 30);
      const std::vector<ContactId> want =
          TouchingInShapeOrder(t.world, t.ground, ListedShapes(t.world, t.ground));
      CHECK(want.size() >= 12 + 9);
      if (disable) {
        t.world.SetEnabled(t.ground, false);
      } else {
        t.world.SetType(t.ground, BodyType::Dynamic);
      }
      for (ContactId c : want) CHECK(!t.world.IsValid(c));
      t.world.Step(kDt);
      CHECK(EndedContacts(t.world) == want);
    }
  }
  SUBCASE("a chain, the body's tiles staying") {
    Terrain t(12, 30);
    const std::vector<ShapeId> segments = Segments(t.world, t.chain);
    const std::vector<ContactId> want = TouchingInShapeOrder(t.world, t.ground, segments);
    CHECK(want.size() >= 9);  // each box on the chain touches one or two segments
    REQUIRE(t.world.DestroyChain(t.chain));
    for (ContactId c : want) CHECK(!t.world.IsValid(c));
    t.world.Step(kDt);
    CHECK(EndedContacts(t.world) == want);
    // The tiles' contacts stay: each box still rests on its tile.
    CHECK(TouchingInShapeOrder(t.world, t.ground, ListedShapes(t.world, t.ground)).size() >= 12);
  }
}

TEST_CASE("SetMassData gives the analytic accelerations and ApplyMassFromShapes restores the shapes") {
  World world({.gravity = {0.0f, 0.0f}});
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = {1.0f, 2.0f}, .angle = 0.5f});
  world.CreateShape(body, {.density = 2.0f}, MakeBox(1.0f, 0.5f).value);
  const MassData shapes = world.GetMassData(body);
  CHECK(shapes.mass == doctest::Approx(2.0f * 2.0f * 1.0f));
  CHECK(shapes.rotationalInertia == doctest::Approx(4.0f * (4.0f + 1.0f) / 12.0f));
  const MassData data{.mass = 3.0f, .center = {0.4f, -0.2f}, .rotationalInertia = 0.75f};
  world.SetMassData(body, data);
  const MassData got = world.GetMassData(body);
  CHECK((got.mass == data.mass && got.center.x == data.center.x && got.center.y == data.center.y &&
         got.rotationalInertia == data.rotationalInertia));
  const Vec2 center = world.GetWorldCenterOfMass(body);
  const Vec2 expectedCenter = TransformPoint(MakeTransform({1.0f, 2.0f}, 0.5f), data.center);
  CHECK(center.x == doctest::Approx(expectedCenter.x));
  CHECK(center.y == doctest::Approx(expectedCenter.y));
  // One step of a torque T and a force F at the centre: w = T dt / I, v = F dt / m.
  world.ApplyTorque(body, 1.5f);
  world.ApplyForceToCenter(body, {6.0f, -3.0f});
  world.Step(kDt);
  CHECK(world.GetAngularVelocity(body) == doctest::Approx(1.5f * kDt / 0.75f));
  CHECK(world.GetLinearVelocity(body).x == doctest::Approx(6.0f * kDt / 3.0f));
  CHECK(world.GetLinearVelocity(body).y == doctest::Approx(-3.0f * kDt / 3.0f));
  // The override survives a rotation lock and unlock, and goes with ApplyMassFromShapes.
  world.SetFixedRotation(body, true);
  CHECK(world.GetMassData(body).rotationalInertia == 0.75f);
  CHECK(world.GetRotationalInertia(body) == 0.0f);
  world.SetFixedRotation(body, false);
  CHECK(world.GetRotationalInertia(body) == 0.75f);
  world.ApplyMassFromShapes(body);
  const MassData back = world.GetMassData(body);
  CHECK((SameBits(back.mass, shapes.mass) && SameBits(back.rotationalInertia, shapes.rotationalInertia) &&
         SameBits(back.center.x, shapes.center.x) && SameBits(back.center.y, shapes.center.y)));
  // A new shape recomputes from the shapes (the override goes, as in v3).
  world.SetMassData(body, data);
  world.CreateShape(body, {.density = 1.0f}, Circle{{0.0f, 0.0f}, 0.1f});
  CHECK(world.GetMass(body) == doctest::Approx(4.0f + std::numbers::pi_v<float> * 0.01f));
  // Refused: non-positive or non-finite mass, negative inertia, static bodies.
  AssertCounter asserts;
  world.SetMassData(body, {.mass = 0.0f});
  world.SetMassData(body, {.mass = -1.0f});
  world.SetMassData(body, {.mass = 1.0f, .rotationalInertia = -1.0f});
  world.SetMassData(body, {.mass = std::nanf(""), .rotationalInertia = 1.0f});
  world.SetMassData(world.CreateBody({}), {.mass = 1.0f});
  CHECK(asserts.Count() == 5);
  CHECK(world.GetMass(body) == doctest::Approx(4.0f + std::numbers::pi_v<float> * 0.01f));
}

TEST_CASE("SetTargetTransform reaches random targets at the end of the step") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (SolverMode mode : {SolverMode::SoftStep, SolverMode::Classic}) {
    World world;
    SolverSettings settings = world.GetSolverSettings();
    settings.mode = mode;
    world.SetSolverSettings(settings);
    const BodyId body = world.CreateBody({.type = BodyType::Kinematic, .position = {1.0f, 1.0f}});
    world.CreateShape(body, {}, MakeBox(1.0f, 0.5f).value);
    world.CreateShape(body, {}, Circle{{1.5f, 0.3f}, 0.4f});  // centre of mass off the origin
    for (int i = 0; i < 200; ++i) {
      const float dt = i % 2 == 0 ? kDt : 1.0f / 30.0f;
      const Vec2 p = world.GetPosition(body) + Vec2{2.0f * unit(rng), 2.0f * unit(rng)};
      const float angle = world.GetAngle(body) + 1.2f * unit(rng);
      const Transform target = MakeTransform(p, angle);
      world.SetTargetTransform(body, target, dt);
      world.Step(dt);
      const Transform xf = world.GetTransform(body);
      CHECK(std::fabs(xf.p.x - p.x) < 2e-5f * (1.0f + std::fabs(p.x)));
      CHECK(std::fabs(xf.p.y - p.y) < 2e-5f * (1.0f + std::fabs(p.y)));
      CHECK(std::fabs(Angle(InvMulRot(target.q, xf.q))) < 2e-6f);
    }
  }
}

TEST_CASE("boxes resting on a kinematic platform driven by SetTargetTransform ride it") {
  World world;
  AddGround(world);
  const BodyId platform = world.CreateBody({.type = BodyType::Kinematic, .position = {0.0f, 2.0f}});
  world.CreateShape(platform, {.friction = 0.8f}, MakeBox(3.0f, 0.25f).value);
  const BodyId box = AddBox(world, {0.0f, 2.75f}, 0.5f, {.friction = 0.8f});
  for (int i = 0; i < 30; ++i) world.Step(kDt);
  const Vec2 start = world.GetPosition(box);
  const Vec2 platformStart = world.GetPosition(platform);
  // Slowly along a sine path, 1.5 m right and back up 0.5 m.
  for (int i = 1; i <= 180; ++i) {
    const float s = static_cast<float>(i) / 180.0f;
    const Vec2 p =
        platformStart + Vec2{1.5f * (0.5f - 0.5f * std::cos(std::numbers::pi_v<float> * s)), 0.5f * s};
    world.SetTargetTransform(platform, {p, Rot{}}, kDt);
    world.Step(kDt);
  }
  const Vec2 moved = world.GetPosition(platform) - platformStart;
  CHECK(moved.x == doctest::Approx(1.5f).epsilon(1e-4f));
  CHECK(moved.y == doctest::Approx(0.5f).epsilon(1e-4f));
  const Vec2 rode = world.GetPosition(box) - start;
  CHECK(std::fabs(rode.x - moved.x) < 0.02f);
  CHECK(std::fabs(rode.y - moved.y) < 0.02f);
}

TEST_CASE("a kinematic body turning in place keeps turning and keeps what it carries awake") {
  // A wheel turning about its own centre has no linear velocity, and a kinematic body has no mass
  // update, so its speed measured as maxExtent * |w| was 0: it slept after timeToSleep, its angular
  // velocity was zeroed and the box on its rim stopped with it (found by the kinematic drum scene).
  World world;
  const float w = 0.8f;  // rad/s: 2.4 m/s at the 3 m rim
  const BodyId wheel = world.CreateBody({.type = BodyType::Kinematic, .angularVelocity = w});
  world.CreateShape(wheel, {.friction = 0.8f}, Circle{{0.0f, 0.0f}, 3.0f});
  const BodyId box = AddBox(world, {0.0f, 3.5f}, 0.5f, {.friction = 0.8f});
  const float timeToSleep = world.GetSolverSettings().timeToSleep;
  const int steps = static_cast<int>(4.0f * timeToSleep / kDt);
  for (int i = 0; i < steps; ++i) world.Step(kDt);
  CHECK(world.IsAwake(wheel));
  CHECK(world.GetAngularVelocity(wheel) == w);  // kinematic: exactly as set
  // Integrated at w for every step (the solver's rotation integration, so within float rounding).
  const float turned = static_cast<float>(steps) * kDt * w;
  CHECK(std::fabs(Angle(InvMulRot(world.GetTransform(wheel).q, MakeRot(turned)))) < 1e-3f);
  CHECK(world.IsAwake(box));  // touched by a moving kinematic body (or thrown off it): awake
  // A kinematic body at rest still sleeps, as before.
  world.SetAngularVelocity(wheel, 0.0f);
  for (int i = 0; i < steps && world.IsAwake(wheel); ++i) world.Step(kDt);
  CHECK_FALSE(world.IsAwake(wheel));
}

TEST_CASE("a body with both linear axes locked shares its island with what it is jointed to") {
  // A hub that can only turn, a pendulum swinging from its centre: the joint's force passes through
  // the hub's centre, so the hub stays at rest while the bob swings. The island pass took any body
  // with inverse mass 0 for kinematic and left the hub out of the bob's island: the hub slept alone
  // every timeToSleep and was woken again through the joint (asleep at step 29 while the bob swung).
  World world;
  const BodyId hub = world.CreateBody({.type = BodyType::Dynamic,
                                       .position = {0.0f, 5.0f},
                                       .motionLocks = {.linearX = true, .linearY = true}});
  world.CreateShape(hub, {}, MakeBox(0.5f, 0.5f).value);
  const BodyId bob = AddBox(world, {0.0f, 3.0f}, 0.25f);
  world.SetLinearVelocity(bob, {3.0f, 0.0f});
  RevoluteJointDef def;
  def.bodyA = hub;
  def.bodyB = bob;
  def.localAnchorB = {0.0f, 2.0f};  // the hub's centre
  world.CreateJoint(def);
  const int steps = static_cast<int>(6.0f * world.GetSolverSettings().timeToSleep / kDt);
  int apart = 0;
  for (int i = 0; i < steps; ++i) {
    world.Step(kDt);
    apart += world.IsAwake(hub) != world.IsAwake(bob) ? 1 : 0;
  }
  CHECK(apart == 0);
  CHECK(world.IsAwake(hub));  // the undamped pendulum never rests
  // A body locked on every axis cannot be moved by anything: like a static body it links no island,
  // so two boxes resting on it sleep and wake on their own.
  World frozen;
  const BodyId table = frozen.CreateBody(
      {.type = BodyType::Dynamic, .motionLocks = {.linearX = true, .linearY = true, .angularZ = true}});
  frozen.CreateShape(table, {}, MakeBox(4.0f, 0.5f).value);
  const BodyId left = AddBox(frozen, {-2.0f, 1.0f}), right = AddBox(frozen, {2.0f, 1.0f});
  for (int i = 0; i < steps && (frozen.IsAwake(left) || frozen.IsAwake(right)); ++i) frozen.Step(kDt);
  REQUIRE_FALSE(frozen.IsAwake(left));
  REQUIRE_FALSE(frozen.IsAwake(right));
  frozen.SetLinearVelocity(left, {0.5f, 0.0f});
  CHECK(frozen.IsAwake(left));
  CHECK_FALSE(frozen.IsAwake(right));
}

TEST_CASE("islands that fall asleep in the same step each sleep and wake as a whole") {
  // Columns of 1 to 4 boxes, far enough apart never to touch, settling at once (most of them fall
  // asleep in one step, the rest in the next): every column is an island of its own, so after they
  // sleep, waking one column's top box wakes exactly that column.
  World world;
  AddGround(world);
  std::mt19937 rng(31);
  std::vector<std::vector<BodyId>> columns;
  for (int c = 0; c < 40; ++c) {
    const int height = 1 + static_cast<int>(rng() % 4);
    std::vector<BodyId>& column = columns.emplace_back();
    for (int k = 0; k < height; ++k) column.push_back(AddBox(world, {-48.0f + 2.4f * c, 0.5f + 1.0f * k}));
  }
  auto awakeCount = [&] {
    int awake = 0;
    for (const auto& column : columns)
      for (BodyId b : column) awake += world.IsAwake(b) ? 1 : 0;
    return awake;
  };
  int mostAtOnce = 0;  // bodies put to sleep by one step
  for (int i = 0, before = awakeCount(); i < 600 && before > 0; ++i) {
    world.Step(kDt);
    const int now = awakeCount();
    mostAtOnce = std::max(mostAtOnce, before - now);
    before = now;
  }
  REQUIRE(awakeCount() == 0);
  CHECK(2 * mostAtOnce > static_cast<int>(world.GetCounters().bodies));  // many islands in one step
  for (int pick : {0, 17, 39, 5}) {
    world.ApplyLinearImpulseToCenter(columns[pick].back(), {0.0f, 0.01f});
    for (std::size_t c = 0; c < columns.size(); ++c)
      for (BodyId b : columns[c]) CHECK(world.IsAwake(b) == (static_cast<int>(c) == pick));
    for (int i = 0; i < 600 && awakeCount() > 0; ++i) world.Step(kDt);
    REQUIRE(awakeCount() == 0);
  }
}

TEST_CASE("sleep threshold and WakeTouching follow their definitions") {
  World world({.gravity = {0.0f, 0.0f}});
  const BodyId slow = world.CreateBody({.type = BodyType::Dynamic, .linearVelocity = {0.5f, 0.0f}});
  world.CreateShape(slow, {}, Circle{{0.0f, 0.0f}, 0.5f});
  CHECK(world.IsSleepEnabled(slow));
  CHECK(world.GetSleepThreshold(slow) == 0.05f);
  for (int i = 0; i < 60; ++i) world.Step(kDt);
  CHECK(world.IsAwake(slow));  // 0.5 m/s is above the default threshold
  world.SetSleepThreshold(slow, 1.0f);
  CHECK(world.GetSleepThreshold(slow) == 1.0f);
  const float timeToSleep = world.GetSolverSettings().timeToSleep;
  int steps = 0;
  while (world.IsAwake(slow) && steps < 600) {
    world.Step(kDt);
    ++steps;
  }
  CHECK(steps == static_cast<int>(std::ceil(timeToSleep / kDt - 1e-3f)));
  world.SetSleepEnabled(slow, false);
  CHECK_FALSE(world.IsSleepEnabled(slow));
  AssertCounter asserts;
  world.SetSleepThreshold(slow, -1.0f);
  world.SetSleepThreshold(slow, std::nanf(""));
  CHECK(asserts.Count() == 2);
  CHECK(world.GetSleepThreshold(slow) == 1.0f);

  World resting;
  const BodyId ground = AddGround(resting);
  const BodyId box = AddBox(resting, {0.0f, 0.5f});
  const BodyId far = AddBox(resting, {0.0f, 20.0f});
  resting.SetGravityScale(far, 0.0f);
  for (int i = 0; i < 200 && (resting.IsAwake(box) || resting.IsAwake(far)); ++i) resting.Step(kDt);
  REQUIRE_FALSE(resting.IsAwake(box));
  REQUIRE_FALSE(resting.IsAwake(far));
  resting.WakeTouching(ground);
  CHECK(resting.IsAwake(box));
  CHECK_FALSE(resting.IsAwake(far));
}

TEST_CASE("GetShapes and GetJoints list exactly the body's shapes and joints") {
  World world;
  const BodyId a = world.CreateBody({.type = BodyType::Dynamic});
  const BodyId b = AddBox(world, {3.0f, 0.0f});
  std::set<std::uint32_t> made;
  for (int i = 0; i < 5; ++i) made.insert(world.CreateShape(a, {}, Circle{{0.3f * i, 0.0f}, 0.2f}).index1);
  std::array<ShapeId, 8> shapes{};
  CHECK(world.GetShapeCount(a) == 5);
  const int n = world.GetShapes(a, shapes);
  CHECK(n == 5);
  std::set<std::uint32_t> listed;
  for (int i = 0; i < n; ++i) listed.insert(shapes[static_cast<std::size_t>(i)].index1);
  CHECK(listed == made);
  CHECK(world.GetShapes(a, std::span<ShapeId>(shapes.data(), 2)) == 2);
  DistanceJointDef distance;
  distance.bodyA = a;
  distance.bodyB = b;
  distance.length = 3.0f;
  const JointId j1 = world.CreateJoint(distance);
  WeldJointDef weld;
  weld.bodyA = b;
  weld.bodyB = a;
  const JointId j2 = world.CreateJoint(weld);
  std::array<JointId, 4> joints{};
  CHECK(world.GetJointCount(a) == 2);
  CHECK(world.GetJoints(a, joints) == 2);
  CHECK(((joints[0] == j2 && joints[1] == j1) || (joints[0] == j1 && joints[1] == j2)));
  world.DestroyJoint(j1);
  CHECK(world.GetJointCount(b) == 1);
  CHECK(world.GetJoints(b, joints) == 1);
  CHECK(joints[0] == j2);
}

TEST_CASE("frame conversions and point velocities match the rigid motion formulas") {
  World world({.gravity = {0.0f, 0.0f}});
  const float angle = 0.7f;
  const Vec2 origin{2.0f, -1.0f};
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic,
                                        .position = origin,
                                        .angle = angle,
                                        .linearVelocity = {1.0f, 2.0f},
                                        .angularVelocity = 3.0f});
  world.CreateShape(body, {}, Circle{{0.5f, 0.0f}, 0.25f});  // centre of mass at local (0.5, 0)
  const float c = std::cos(angle), s = std::sin(angle);
  const Vec2 local{1.0f, 0.5f};
  const Vec2 worldPoint{origin.x + c * local.x - s * local.y, origin.y + s * local.x + c * local.y};
  CHECK(world.GetWorldPoint(body, local).x == doctest::Approx(worldPoint.x));
  CHECK(world.GetWorldPoint(body, local).y == doctest::Approx(worldPoint.y));
  CHECK(world.GetLocalPoint(body, worldPoint).x == doctest::Approx(local.x));
  CHECK(world.GetLocalPoint(body, worldPoint).y == doctest::Approx(local.y));
  CHECK(world.GetWorldVector(body, {1.0f, 0.0f}).x == doctest::Approx(c));
  CHECK(world.GetWorldVector(body, {1.0f, 0.0f}).y == doctest::Approx(s));
  CHECK(world.GetLocalVector(body, {c, s}).x == doctest::Approx(1.0f));
  CHECK(world.GetLocalVector(body, {c, s}).y == doctest::Approx(0.0f).epsilon(1e-6f));
  // v + w x r, r from the centre of mass: r = R (local - (0.5, 0)).
  const Vec2 r{c * 0.5f - s * 0.5f, s * 0.5f + c * 0.5f};
  const Vec2 expected{1.0f - 3.0f * r.y, 2.0f + 3.0f * r.x};
  CHECK(world.GetLocalPointVelocity(body, local).x == doctest::Approx(expected.x));
  CHECK(world.GetLocalPointVelocity(body, local).y == doctest::Approx(expected.y));
  CHECK(world.GetWorldPointVelocity(body, worldPoint).x == doctest::Approx(expected.x));
  CHECK(world.GetWorldPointVelocity(body, worldPoint).y == doctest::Approx(expected.y));
}

TEST_CASE("body names are copied and cut at the maximum length") {
  World world;
  const BodyId a = world.CreateBody({});
  CHECK(std::string(world.GetName(a)).empty());
  std::string name = "platform";
  world.SetName(a, name.c_str());
  name[0] = 'X';  // the world keeps its own copy
  CHECK(std::string(world.GetName(a)) == "platform");
  const std::string longName(100, 'n');
  world.SetName(a, longName.c_str());
  CHECK(std::string(world.GetName(a)) == longName.substr(0, kMaxBodyNameLength));
  world.SetName(a, nullptr);
  CHECK(std::string(world.GetName(a)).empty());
  world.SetName(a, "gone");
  world.DestroyBody(a);
  const BodyId b = world.CreateBody({});  // reuses the slot: no name
  CHECK(std::string(world.GetName(b)).empty());
}

TEST_CASE("snapshots and replays keep locks thresholds mass overrides and names") {
  World world;
  REQUIRE(world.StartRecording());
  AddGround(world);
  const BodyId a = AddBox(world, {0.0f, 3.0f});
  const BodyId b = AddBox(world, {0.2f, 5.0f});
  const BodyId k = world.CreateBody({.type = BodyType::Kinematic, .position = {4.0f, 1.0f}});
  world.CreateShape(k, {}, MakeBox(1.0f, 0.2f).value);
  world.SetMotionLocks(a, {.linearX = true, .angularZ = true});
  world.SetMassData(b, {.mass = 5.0f, .center = {0.1f, 0.0f}, .rotationalInertia = 0.4f});
  world.SetSleepThreshold(b, 0.2f);
  world.SetName(a, "locked");
  for (int i = 0; i < 20; ++i) {
    world.SetTargetTransform(k, MakeTransform({4.0f + 0.05f * i, 1.0f}, 0.02f * i), kDt);
    world.ApplyLinearImpulseToCenter(a, {1.0f, 0.0f});
    world.Step(kDt);
  }
  world.SetType(b, BodyType::Kinematic);
  world.SetType(b, BodyType::Dynamic);
  world.SetMassData(b, {.mass = 5.0f, .center = {0.1f, 0.0f}, .rotationalInertia = 0.4f});
  world.WakeTouching(a);
  const std::vector<std::byte> snapshot = mk::SaveSnapshot(world);
  World restored;
  REQUIRE(restored.RestoreSnapshot(snapshot).ok());
  CHECK(std::string(restored.GetName(restored.AdoptId(a))) == "locked");
  CHECK(restored.GetMass(restored.AdoptId(b)) == 5.0f);
  CHECK(restored.GetSleepThreshold(restored.AdoptId(b)) == 0.2f);
  CHECK(restored.GetMotionLocks(restored.AdoptId(a)).linearX);
  for (int i = 0; i < 60; ++i) {
    world.Step(kDt);
    restored.Step(kDt);
  }
  CHECK(world.StateHash() == restored.StateHash());
  ReplayPlayer player = test::ReplayToEnd(world);
  CHECK(player.GetWorld().StateHash() == world.StateHash());
  CHECK(std::string(player.GetWorld().GetName(player.GetWorld().AdoptId(a))) == "locked");
}
}  // TEST_SUITE("body features")
