// SPDX-License-Identifier: MIT
// World queries against brute force: the same exact per-shape test run over every shape of the world
// (no broadphase), in random scenes of every shape type, filters and sensors; bad input.
#include "minkowski/world_vector.h"
#include "scenes/alloc_counter.h"
#include "test_util.h"
#include "world/world_fixture.h"
#include "world/world_state.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

using namespace mk;

TEST_SUITE("world_queries") {
namespace {

struct Scene {
  World world;
  std::vector<ShapeId> shapes;
};

// Shapes of every type on static and dynamic bodies in a 40 m square, some sensors, categories 1, 2
// and 4 with masks that refuse some categories, a few disabled bodies; stepped so that bodies moved.
void Build(Scene& scene, std::uint64_t seed, int bodies) {
  test::Rng rng(seed);
  World& world = scene.world;
  world.SetGravity({0.0f, 0.0f});
  for (int i = 0; i < bodies; ++i) {
    const BodyType type = i % 3 == 0 ? BodyType::Static : BodyType::Dynamic;
    const BodyId body = world.CreateBody({.type = type,
                                          .position = rng.InBox(20.0f),
                                          .angle = rng.Uniform(-3.0f, 3.0f),
                                          .linearVelocity = rng.InBox(1.0f),
                                          .angularVelocity = rng.Uniform(-1.0f, 1.0f)});
    const int shapeCount = rng.Int(1, 2);
    for (int k = 0; k < shapeCount; ++k) {
      ShapeDef def;
      def.filter.categoryBits = 1u << rng.Int(0, 2);
      def.filter.maskBits = rng.Int(0, 4) == 0 ? ~def.filter.categoryBits : 0xFFFFFFFFu;
      def.isSensor = rng.Int(0, 9) == 0;
      const Vec2 offset = rng.InBox(0.5f);
      ShapeId id;
      switch (rng.Int(0, 5)) {
        case 0:
          id = world.CreateShape(body, def, MakeCircle(offset, rng.Uniform(0.1f, 1.0f)).value);
          break;
        case 1:
          id = world.CreateShape(
              body, def,
              MakeCapsule(offset, offset + rng.InBox(1.0f) + Vec2{0.3f, 0.0f}, rng.Uniform(0.05f, 0.5f))
                  .value);
          break;
        case 2:
          id = world.CreateShape(body, def,
                                 MakeSegment(offset, offset + rng.InBox(2.0f) + Vec2{0.0f, 0.3f}).value);
          break;
        case 3:
          id = world.CreateShape(body, def,
                                 MakeOffsetBox(rng.Uniform(0.1f, 1.0f), rng.Uniform(0.1f, 1.0f), offset,
                                               rng.Uniform(-1.0f, 1.0f))
                                     .value);
          break;
        case 4:
          id = world.CreateShape(body, def,
                                 MakeRegularPolygon(rng.Int(3, 8), rng.Uniform(0.2f, 1.0f),
                                                    rng.Int(0, 1) ? rng.Uniform(0.02f, 0.3f) : 0.0f)
                                     .value);
          break;
        default:
          id =
              world.CreateShape(body, def, MakeRegularPolygon(rng.Int(9, 20), rng.Uniform(0.3f, 1.2f)).value);
          break;
      }
      REQUIRE(!id.IsNull());
      scene.shapes.push_back(id);
    }
    if (i % 17 == 5) world.SetEnabled(body, false);
  }
  for (int step = 0; step < 10; ++step) world.Step(1.0f / 60.0f);
}

bool Accepts(const World& world, ShapeId id, const QueryFilter& filter) {
  const Filter f = world.GetFilter(id);
  return world.IsEnabled(world.GetBody(id)) && (f.categoryBits & filter.maskBits) != 0 &&
         (filter.categoryBits & f.maskBits) != 0;
}

bool IsSensor(const World& world, ShapeId id) {
  // Sensors were made with ShapeDef::isSensor; the world keeps the flag in the shape's state.
  return world.State().shapes[id.index1 - 1].isSensor;
}

// Every shape's ray cast, no broadphase: the hits sorted by fraction, then by shape slot.
std::vector<CastHit> BruteRay(const Scene& scene, Vec2 origin, Vec2 translation, const QueryFilter& filter) {
  std::vector<CastHit> hits;
  for (ShapeId id : scene.shapes) {
    if (!Accepts(scene.world, id, filter) || IsSensor(scene.world, id)) continue;
    const CastOutput out =
        RayCastShape(scene.world.GetShapeGeometry(id), scene.world.GetTransform(scene.world.GetBody(id)),
                     {origin, translation, 1.0f});
    if (out.hit) hits.push_back({id, out.point, out.normal, out.fraction, true});
  }
  std::sort(hits.begin(), hits.end(), [](const CastHit& a, const CastHit& b) {
    return a.fraction < b.fraction || (a.fraction == b.fraction && a.shape.index1 < b.shape.index1);
  });
  return hits;
}

QueryFilter RandomFilter(test::Rng& rng) {
  if (rng.Int(0, 2) != 0) return {};
  return {1u << rng.Int(0, 2), 1u << rng.Int(0, 2)};
}

}  // namespace

TEST_CASE("closest and all-hits ray casts equal brute force over every shape") {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    Scene scene;
    Build(scene, seed, 300);
    test::Rng rng(seed * 100);
    int hits = 0;
    for (int trial = 0; trial < 3000; ++trial) {
      const Vec2 origin = rng.InBox(25.0f);
      const Vec2 translation = rng.Uniform(0.1f, 30.0f) * rng.Direction();
      const QueryFilter filter = RandomFilter(rng);
      const std::vector<CastHit> expected = BruteRay(scene, origin, translation, filter);
      const CastHit closest = scene.world.CastRayClosest(origin, translation, filter);
      REQUIRE(closest.hit == !expected.empty());
      const std::vector<CastHit> all = mk::CastRayAll(scene.world, origin, translation, filter);
      REQUIRE(all.size() == expected.size());
      for (size_t i = 0; i < all.size(); ++i) {
        CHECK(all[i].shape == expected[i].shape);
        CHECK(all[i].fraction == expected[i].fraction);
        CHECK(all[i].point == expected[i].point);
        CHECK(all[i].normal == expected[i].normal);
        if (i > 0) CHECK(all[i - 1].fraction <= all[i].fraction);
      }
      if (!closest.hit) continue;
      ++hits;
      // Equal fractions may name either shape; the fraction is the brute-force minimum.
      CHECK(std::fabs(closest.fraction - expected[0].fraction) <= 1e-5f);
      CHECK(Accepts(scene.world, closest.shape, filter));
    }
    CHECK(hits > 1000);
  }
}

TEST_CASE("the ray callback ignores or clips or stops as it returns -1 or a fraction or 0") {
  Scene scene;
  Build(scene, 7, 300);
  test::Rng rng(77);
  for (int trial = 0; trial < 1000; ++trial) {
    const Vec2 origin = rng.InBox(25.0f);
    const Vec2 translation = 30.0f * rng.Direction();
    const std::vector<CastHit> expected = BruteRay(scene, origin, translation, {});
    // Ignoring odd slots finds the closest hit among the even ones.
    CastHit best;
    scene.world.CastRay(origin, translation, {}, [&](const CastHit& hit) {
      if (hit.shape.index1 % 2 == 1) return -1.0f;
      if (!best.hit || hit.fraction < best.fraction) best = hit;
      return hit.fraction;
    });
    const auto even = std::find_if(expected.begin(), expected.end(),
                                   [](const CastHit& hit) { return hit.shape.index1 % 2 == 0; });
    REQUIRE(best.hit == (even != expected.end()));
    if (best.hit) CHECK(best.fraction == even->fraction);
    // Stopping at the first hit gives exactly one call.
    int calls = 0;
    scene.world.CastRay(origin, translation, {}, [&](const CastHit&) {
      ++calls;
      return 0.0f;
    });
    CHECK(calls == (expected.empty() ? 0 : 1));
    // Returning 1 sees every hit once.
    int seen = 0;
    scene.world.CastRay(origin, translation, {}, [&](const CastHit&) {
      ++seen;
      return 1.0f;
    });
    CHECK(seen == static_cast<int>(expected.size()));
  }
}

TEST_CASE("closest shape casts of every shape type equal brute force over every shape") {
  Scene scene;
  Build(scene, 4, 200);
  test::Rng rng(44);
  const ShapeGeometry casts[] = {MakeCircle({0.0f, 0.0f}, 0.3f).value,
                                 MakeCapsule({-0.4f, 0.0f}, {0.4f, 0.1f}, 0.2f).value,
                                 MakeSegment({-0.5f, -0.2f}, {0.5f, 0.3f}).value,
                                 MakeBox(0.4f, 0.2f).value,
                                 MakeRegularPolygon(5, 0.5f, 0.1f).value,
                                 MakeRegularPolygon(12, 0.5f).value};
  int hits = 0;
  for (int trial = 0; trial < 1200; ++trial) {
    const ShapeGeometry& shape = casts[trial % 6];
    const Transform xf = MakeTransform(rng.InBox(25.0f), rng.Uniform(-3.0f, 3.0f));
    const Vec2 translation = rng.Uniform(0.1f, 20.0f) * rng.Direction();
    const QueryFilter filter = RandomFilter(rng);
    CastHit expected;
    for (ShapeId id : scene.shapes) {
      if (!Accepts(scene.world, id, filter) || IsSensor(scene.world, id)) continue;
      const CastOutput out =
          ShapeCast(scene.world.GetShapeGeometry(id), scene.world.GetTransform(scene.world.GetBody(id)),
                    shape, xf, translation);
      if (out.hit && (!expected.hit || out.fraction < expected.fraction))
        expected = {id, out.point, out.normal, out.fraction, true};
    }
    const CastHit got = scene.world.CastShapeClosest(shape, xf, translation, filter);
    REQUIRE(got.hit == expected.hit);
    if (!got.hit) continue;
    ++hits;
    CHECK(std::fabs(got.fraction - expected.fraction) <= 1e-5f);
    // The callback form visits hits in increasing fraction and its first is the closest.
    float previous = -1.0f;
    int calls = 0;
    scene.world.CastShape(shape, xf, translation, filter, [&](const CastHit& hit) {
      CHECK(hit.fraction >= previous);
      previous = hit.fraction;
      ++calls;
      return 1.0f;
    });
    CHECK(calls >= 1);
  }
  CHECK(hits > 300);
}

// Every shape's ShapeCast, no broadphase: the hits sorted by fraction, then by shape slot.
std::vector<CastHit> BruteShapeCast(const Scene& scene, const ShapeGeometry& shape, const Transform& xf,
                                    Vec2 translation, const QueryFilter& filter) {
  std::vector<CastHit> hits;
  for (ShapeId id : scene.shapes) {
    if (!Accepts(scene.world, id, filter) || IsSensor(scene.world, id)) continue;
    const CastOutput out =
        ShapeCast(scene.world.GetShapeGeometry(id), scene.world.GetTransform(scene.world.GetBody(id)), shape,
                  xf, translation);
    if (out.hit) hits.push_back({id, out.point, out.normal, out.fraction, true});
  }
  std::sort(hits.begin(), hits.end(), [](const CastHit& a, const CastHit& b) {
    return a.fraction < b.fraction || (a.fraction == b.fraction && a.shape.index1 < b.shape.index1);
  });
  return hits;
}

bool SameHit(const CastHit& a, const CastHit& b) {
  return a.hit == b.hit && a.shape == b.shape && a.fraction == b.fraction && a.point.x == b.point.x &&
         a.point.y == b.point.y && a.normal.x == b.normal.x && a.normal.y == b.normal.y;
}

// The casts visit candidates by where their bounding boxes meet and skip those beyond the best hit;
// the answers must be bit for bit those of ShapeCast over every shape, in crowded and sparse scenes,
// for long, short, zero and overlapping casts.
TEST_CASE("shape casts (closest and callback) are bit for bit brute force over every shape") {
  const ShapeGeometry casts[] = {
      MakeCircle({0.1f, 0.0f}, 0.25f).value,           MakeCapsule({-0.3f, 0.0f}, {0.3f, 0.1f}, 0.15f).value,
      MakeSegment({-0.5f, -0.2f}, {0.5f, 0.3f}).value, MakeBox(0.25f, 0.25f).value,
      MakeRegularPolygon(5, 0.4f, 0.1f).value,         MakeRegularPolygon(12, 0.6f).value};
  int hits = 0, reported = 0;
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    Scene scene;
    Build(scene, 70 + seed, seed == 0 ? 120 : 500);
    test::Rng rng(700 + seed);
    for (int trial = 0; trial < 600; ++trial) {
      const ShapeGeometry& shape = casts[trial % 6];
      const Transform xf = MakeTransform(rng.InBox(22.0f), rng.Uniform(-3.0f, 3.0f));
      const float length = trial % 10 == 0 ? 0.0f : rng.Uniform(0.01f, 1.0f) * rng.Uniform(0.0f, 40.0f);
      const Vec2 translation = length * rng.Direction();
      const QueryFilter filter = RandomFilter(rng);
      const std::vector<CastHit> expected = BruteShapeCast(scene, shape, xf, translation, filter);
      const CastHit got = scene.world.CastShapeClosest(shape, xf, translation, filter);
      REQUIRE(got.hit == !expected.empty());
      if (!got.hit) continue;
      ++hits;
      CHECK(SameHit(got, expected.front()));
      // The callback sees every hit in the brute-force order, or, clipped to each hit's fraction in
      // turn, the hits up to the first fraction (one hit when that is 0: returning 0 stops); a stop
      // after k calls makes k calls.
      const int mode = trial % 3;
      const std::size_t stopAfter = 1 + trial % 4;
      std::vector<CastHit> seen;
      scene.world.CastShape(shape, xf, translation, filter, [&](const CastHit& hit) {
        seen.push_back(hit);
        if (mode == 2 && seen.size() == stopAfter) return 0.0f;
        return mode == 1 ? hit.fraction : 1.0f;
      });
      std::size_t want = expected.size();
      if (mode == 1) {
        want = 0;
        while (want < expected.size() && expected[want].fraction <= expected.front().fraction) ++want;
        if (expected.front().fraction == 0.0f) want = 1;  // returning 0 stops the cast
      } else if (mode == 2) {
        want = std::min(want, stopAfter);
      }
      REQUIRE(seen.size() == want);
      for (std::size_t i = 0; i < want; ++i) CHECK(SameHit(seen[i], expected[i]));
      reported += static_cast<int>(seen.size());
    }
  }
  CHECK(hits > 600);
  CHECK(reported > 2000);
}

TEST_CASE("warm shape casts (closest and callback) allocate nothing") {
  Scene scene;
  Build(scene, 81, 300);
  test::Rng rng(810);
  const ShapeGeometry shape = MakeCapsule({-0.3f, 0.0f}, {0.3f, 0.1f}, 0.15f).value;
  std::vector<std::pair<Transform, Vec2>> casts;
  for (int i = 0; i < 200; ++i)
    casts.push_back({MakeTransform(rng.InBox(22.0f), rng.Uniform(-3.0f, 3.0f)),
                     rng.Uniform(0.0f, 40.0f) * rng.Direction()});
  int hits = 0;
  auto castAll = [&] {
    for (const auto& [xf, translation] : casts) {
      hits += scene.world.CastShapeClosest(shape, xf, translation).hit ? 1 : 0;
      scene.world.CastShape(shape, xf, translation, {}, [&hits](const CastHit&) {
        ++hits;
        return 1.0f;
      });
    }
  };
  castAll();  // warm-up: the broadphase's and the world's scratch reach their sizes
  const int warmHits = hits;
  test::StartCountingAllocations();
  castAll();
  test::StopCountingAllocations();
  CHECK(test::CountedAllocations() == 0);
  CHECK(hits == 2 * warmHits);
  CHECK(warmHits > 200);
}

TEST_CASE("overlaps of shapes and boxes and points equal brute force over every shape") {
  Scene scene;
  Build(scene, 5, 300);
  test::Rng rng(55);
  const ShapeGeometry probes[] = {MakeCircle({0.0f, 0.0f}, 0.7f).value,
                                  MakeCapsule({-1.0f, 0.0f}, {1.0f, 0.0f}, 0.3f).value,
                                  MakeSegment({-1.5f, 0.0f}, {1.5f, 0.2f}).value, MakeBox(1.0f, 0.5f).value,
                                  MakeRegularPolygon(16, 1.0f, 0.1f).value};
  auto sorted = [](std::vector<ShapeId> ids) {
    std::sort(ids.begin(), ids.end(), [](ShapeId a, ShapeId b) { return a.index1 < b.index1; });
    return ids;
  };
  int found = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const QueryFilter filter = RandomFilter(rng);
    // Shape overlap.
    const ShapeGeometry& probe = probes[trial % 5];
    const Transform xf = MakeTransform(rng.InBox(22.0f), rng.Uniform(-3.0f, 3.0f));
    std::vector<ShapeId> got, expected;
    scene.world.OverlapShape(probe, xf, filter, [&](ShapeId id) {
      got.push_back(id);
      return true;
    });
    for (ShapeId id : scene.shapes) {
      if (!Accepts(scene.world, id, filter)) continue;
      const ShapeGeometry geometry = scene.world.GetShapeGeometry(id);  // the proxy points into it
      DistanceInput in{MakeProxy(geometry), MakeProxy(probe),
                       scene.world.GetTransform(scene.world.GetBody(id)), xf};
      if (ShapeDistance(in).distance <= 0.0f) expected.push_back(id);
    }
    CHECK(sorted(got) == sorted(expected));
    found += static_cast<int>(got.size());
    // Box overlap: the box as a polygon, against each shape.
    const Vec2 lower = rng.InBox(22.0f);
    const AABB box{lower, lower + Vec2{rng.Uniform(0.01f, 3.0f), rng.Uniform(0.01f, 3.0f)}};
    got.clear();
    expected.clear();
    scene.world.OverlapAABB(box, filter, [&](ShapeId id) {
      got.push_back(id);
      return true;
    });
    const ShapeGeometry boxShape =
        MakeBox(0.5f * (box.upper.x - box.lower.x), 0.5f * (box.upper.y - box.lower.y)).value;
    for (ShapeId id : scene.shapes) {
      if (!Accepts(scene.world, id, filter)) continue;
      const ShapeGeometry geometry = scene.world.GetShapeGeometry(id);
      DistanceInput in{MakeProxy(geometry), MakeProxy(boxShape),
                       scene.world.GetTransform(scene.world.GetBody(id)), MakeTransform(Center(box), 0.0f)};
      if (ShapeDistance(in).distance <= 0.0f) expected.push_back(id);
    }
    CHECK(sorted(got) == sorted(expected));
    // The same box given about a whole-metre origin (the origin forms): the box about it is exact, so
    // the answers are the plain forms' (OverlapAABB's, and QueryAABB's tight-box test).
    const Vec2 origin{std::floor(lower.x), std::floor(lower.y)};
    const AABB about{box.lower - origin, box.upper - origin};
    std::vector<ShapeId> aboutOrigin, plainQuery, originQuery;
    scene.world.OverlapAABB(origin, about, filter,
                            [&](ShapeId id) { return aboutOrigin.push_back(id), true; });
    CHECK(sorted(aboutOrigin) == sorted(got));
    scene.world.QueryAABB(box, [&](ShapeId id) { return plainQuery.push_back(id), true; });
    scene.world.QueryAABB(origin, about, [&](ShapeId id) { return originQuery.push_back(id), true; });
    CHECK(originQuery == plainQuery);
    // Point overlap: TestPoint on every shape.
    const Vec2 point = rng.InBox(22.0f);
    got.clear();
    expected.clear();
    scene.world.OverlapPoint(point, filter, [&](ShapeId id) {
      got.push_back(id);
      return true;
    });
    for (ShapeId id : scene.shapes) {
      if (Accepts(scene.world, id, filter) && scene.world.TestPoint(id, point)) expected.push_back(id);
    }
    CHECK(sorted(got) == sorted(expected));
  }
  CHECK(found > 500);
}

TEST_CASE("an exact box overlap leaves out shapes whose bounding box alone reaches the box") {
  World world;
  const BodyId body = world.CreateBody({.angle = 0.7853982f});
  const ShapeId diamond = world.CreateShape(body, {}, MakeBox(1.0f, 1.0f).value);
  int aabbVisits = 0, exactVisits = 0;
  const AABB corner{{1.0f, 1.0f}, {1.3f, 1.3f}};  // inside the diamond's AABB, outside the diamond
  world.QueryAABB(corner, [&](ShapeId) { return ++aabbVisits, true; });
  world.OverlapAABB(corner, {}, [&](ShapeId) { return ++exactVisits, true; });
  CHECK(aabbVisits == 1);
  CHECK(exactVisits == 0);
  world.OverlapAABB({{0.9f, 0.0f}, {1.0f, 0.0f}}, {}, [&](ShapeId id) {  // a box of zero height
    CHECK(id == diamond);
    return ++exactVisits, true;
  });
  CHECK(exactVisits == 1);
}

TEST_CASE("the closest point on a shape is analytic for a circle and a box - and the target when inside") {
  World world;
  const BodyId body = world.CreateBody({.position = {2.0f, 1.0f}, .angle = 0.5f});
  const ShapeId circle = world.CreateShape(body, {}, MakeCircle({1.0f, 0.0f}, 0.5f).value);
  const ShapeId box = world.CreateShape(body, {}, MakeBox(1.0f, 2.0f).value);
  const Vec2 center = TransformPoint(world.GetTransform(body), {1.0f, 0.0f});
  const Vec2 target{10.0f, -3.0f};
  CHECK(test::Near(world.GetClosestPoint(circle, target), center + 0.5f * Normalize(target - center), 1e-5f));
  // The box's local frame: clamp the target to the half extents.
  const Vec2 local = InvTransformPoint(world.GetTransform(body), target);
  const Vec2 clamped{std::clamp(local.x, -1.0f, 1.0f), std::clamp(local.y, -2.0f, 2.0f)};
  CHECK(test::Near(world.GetClosestPoint(box, target), TransformPoint(world.GetTransform(body), clamped),
                   1e-5f));
  CHECK(world.GetClosestPoint(box, {2.1f, 1.2f}) == Vec2{2.1f, 1.2f});
}

TEST_CASE("GetShapeGeometry returns the shape as created - in its body's frame") {
  World world;
  const BodyId body = world.CreateBody({.position = {3.0f, 4.0f}});
  const Polygon polygon = MakeRegularPolygon(20, 1.0f, 0.1f).value;
  const ShapeId id = world.CreateShape(body, {}, polygon);
  const ShapeGeometry geometry = world.GetShapeGeometry(id);
  REQUIRE(geometry.Type() == ShapeType::Polygon);
  REQUIRE(geometry.Count() == 20);
  CHECK(geometry.Radius() == 0.1f);
  for (int i = 0; i < 20; ++i) {
    CHECK(geometry.Points()[i] == polygon.vertices[i]);
    CHECK(geometry.Normals()[i] == polygon.normals[i]);
  }
  const ShapeId capsule = world.CreateShape(body, {}, MakeCapsule({0.0f, 0.0f}, {1.0f, 0.0f}, 0.2f).value);
  CHECK(world.GetShapeGeometry(capsule).AsCapsule().p2 == Vec2{1.0f, 0.0f});
}

TEST_CASE("bad query input asserts and finds nothing / an empty world and a zero-length ray find nothing") {
  World empty;
  test::AssertCounter asserts;
  CHECK_FALSE(empty.CastRayClosest({0.0f, 0.0f}, {10.0f, 0.0f}).hit);
  CHECK(mk::CastRayAll(empty, {0.0f, 0.0f}, {10.0f, 0.0f}).empty());
  CHECK_FALSE(empty.CastShapeClosest(MakeBox(1.0f, 1.0f).value, Transform{}, {5.0f, 0.0f}).hit);
  CHECK(asserts.Count() == 0);

  World world;
  const BodyId body = world.CreateBody({});
  const ShapeId box = world.CreateShape(body, {}, MakeBox(1.0f, 1.0f).value);
  // A ray that goes nowhere hits nothing and is not an error.
  CHECK_FALSE(world.CastRayClosest({-5.0f, 0.0f}, {0.0f, 0.0f}).hit);
  CHECK(asserts.Count() == 0);
  REQUIRE(world.CastRayClosest({-5.0f, 0.0f}, {10.0f, 0.0f}).shape == box);

  const float nan = std::nanf(""), inf = INFINITY;
  CHECK_FALSE(world.CastRayClosest({nan, 0.0f}, {10.0f, 0.0f}).hit);
  CHECK_FALSE(world.CastRayClosest({-5.0f, 0.0f}, {10.0f, nan}).hit);
  CHECK(mk::CastRayAll(world, {-5.0f, 0.0f}, {inf, 0.0f}).empty());
  CHECK_FALSE(world.CastShapeClosest(ShapeGeometry{}, Transform{}, {5.0f, 0.0f}).hit);
  CHECK_FALSE(
      world.CastShapeClosest(MakeBox(1.0f, 1.0f).value, MakeTransform({nan, 0.0f}, 0.0f), {5.0f, 0.0f}).hit);
  int visits = 0;
  world.OverlapAABB({{1.0f, 1.0f}, {0.0f, 0.0f}}, {}, [&](ShapeId) { return ++visits, true; });  // inverted
  world.OverlapPoint({nan, 0.0f}, {}, [&](ShapeId) { return ++visits, true; });
  world.OverlapShape(ShapeGeometry{}, Transform{}, {}, [&](ShapeId) { return ++visits, true; });
  const ShapeGeometry nanCircle = Circle{{nan, 0.0f}, 1.0f};
  world.OverlapShape(nanCircle, Transform{}, {}, [&](ShapeId) { return ++visits, true; });
  CHECK(visits == 0);
  CHECK(asserts.Count() == 9);

  // A stale id.
  REQUIRE(world.DestroyShape(box));
  CHECK(world.GetShapeGeometry(box).Type() == ShapeType::Count);
  CHECK(world.GetClosestPoint(box, {5.0f, 0.0f}) == Vec2{0.0f, 0.0f});
  CHECK(asserts.Count() == 11);
  CHECK_FALSE(world.CastRayClosest({-5.0f, 0.0f}, {10.0f, 0.0f}).hit);
}

TEST_CASE("queries skip disabled bodies / casts skip sensors - overlaps report them") {
  World world;
  const BodyId body = world.CreateBody({});
  const ShapeId sensor = world.CreateShape(body, {.isSensor = true}, MakeBox(1.0f, 1.0f).value);
  CHECK_FALSE(world.CastRayClosest({-5.0f, 0.0f}, {10.0f, 0.0f}).hit);
  int visits = 0;
  world.OverlapPoint({0.0f, 0.0f}, {}, [&](ShapeId id) {
    CHECK(id == sensor);
    ++visits;
    return true;
  });
  CHECK(visits == 1);
  const BodyId other = world.CreateBody({.position = {3.0f, 0.0f}});
  world.CreateShape(other, {}, MakeCircle({0.0f, 0.0f}, 0.5f).value);
  CHECK(world.CastRayClosest({-5.0f, 0.0f}, {10.0f, 0.0f}).fraction == doctest::Approx(0.75));
  world.SetEnabled(other, false);
  CHECK_FALSE(world.CastRayClosest({-5.0f, 0.0f}, {10.0f, 0.0f}).hit);
}
}  // TEST_SUITE("world_queries")
