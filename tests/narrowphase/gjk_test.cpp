// SPDX-License-Identifier: MIT
#include "minkowski/distance.h"
#include "narrowphase/gjk_internal.h"
#include "narrowphase/oracle.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace mk;
using oracle::Kind;
using oracle::TestShape;

namespace {

Polygon Poly(std::vector<Vec2> points, float radius = 0.0f) {
  GeometryResult<Polygon> p = MakePolygon(points, radius);
  REQUIRE(p.ok());
  return p.value;
}

DistanceInput Input(const ShapeProxy& a, const Transform& xfA, const ShapeProxy& b, const Transform& xfB) {
  return {a, b, xfA, xfB};
}

bool Finite(const DistanceOutput& o) {
  return IsFinite(o.pointA) && IsFinite(o.pointB) && IsFinite(o.normal) && std::isfinite(o.distance) &&
         std::isfinite(o.coreDistance) && std::isfinite(o.penetration);
}

// Oracle check of one query; returns false (with a message) on the first mismatch.
struct PairCheck {
  bool ok = true;
  bool separated = false;
  bool overlapping = false;
};

PairCheck CheckAgainstOracle(const DistanceInput& in, const DistanceOutput& out, double tolerance) {
  PairCheck c;
  oracle::WorldShape a = oracle::Place(in.proxyA, in.transformA);
  oracle::WorldShape b = oracle::Place(in.proxyB, in.transformB);
  double core = oracle::CoreDistance(a, b);
  double surface = core - a.radius - b.radius;  // only meaningful when core > 0
  auto fail = [&](const char* what) {
    INFO(what << ": core " << core << " got core " << out.coreDistance << " status "
              << static_cast<int>(out.status));
    CHECK(false);
    c.ok = false;
  };
  if (!Finite(out) || out.status == DistanceStatus::InvalidInput ||
      out.status == DistanceStatus::IterationCap) {
    fail("bad status or NaN");
    return c;
  }
  if (core > tolerance) {
    if (out.coresOverlap) fail("cores reported overlapping");
    if (std::fabs(out.coreDistance - core) > tolerance) fail("core distance");
    double expected = surface > 0.0 ? surface : 0.0;
    if (std::fabs(out.distance - expected) > tolerance) fail("surface distance");
    // Witness points on their cores and surfaces, as far apart as reported.
    if (std::fabs(oracle::SignedDistanceToCore(a, oracle::ToD(out.corePointA))) > tolerance)
      fail("corePointA");
    if (std::fabs(oracle::SignedDistanceToCore(b, oracle::ToD(out.corePointB))) > tolerance)
      fail("corePointB");
    if (std::fabs(Distance(out.corePointA, out.corePointB) - out.coreDistance) > tolerance)
      fail("core witness gap");
    if (std::fabs(Length(out.normal) - 1.0f) > 1e-5f) fail("unit normal");
    if (surface > tolerance) {
      c.separated = true;
      if (out.status != DistanceStatus::Separated) fail("status should be Separated");
      if (std::fabs(oracle::SignedDistanceToSurface(a, oracle::ToD(out.pointA))) > tolerance) fail("pointA");
      if (std::fabs(oracle::SignedDistanceToSurface(b, oracle::ToD(out.pointB))) > tolerance) fail("pointB");
      if (std::fabs(Distance(out.pointA, out.pointB) - out.distance) > tolerance) fail("witness gap");
    } else if (surface < -tolerance) {
      c.overlapping = true;
      if (out.status != DistanceStatus::Overlapping) fail("status should be Overlapping");
      if (std::fabs(out.penetration + surface) > tolerance) fail("penetration");
    } else if (out.status == DistanceStatus::Separated && out.distance > tolerance) {
      fail("touching pair reported apart");
    }
  } else if (core == 0.0) {
    c.overlapping = true;
    if (a.radius + b.radius > 0.0 && out.status != DistanceStatus::Overlapping)
      fail("status should be Overlapping");
    if (!out.coresOverlap && out.coreDistance > tolerance) fail("overlapping cores reported apart");
  }
  return c;
}

// B placed around A: offset along a random direction, scaled so that separated, touching and
// overlapping pairs all occur. Touching pairs are made by bisection on the oracle (double).
Transform PlaceB(test::Rng& rng, const TestShape& a, const Transform& xfA, const TestShape& b,
                 bool touching) {
  Vec2 dir = rng.Direction();
  float reach = a.size + b.size;
  Transform xfB{xfA.p + rng.Uniform(0.0f, 1.4f) * reach * dir, MakeRot(rng.Uniform(-3.1416f, 3.1416f))};
  if (!touching) return xfB;
  ShapeProxy pa = a.Proxy();
  ShapeProxy pb = b.Proxy();
  oracle::WorldShape wa = oracle::Place(pa, xfA);
  double lo = 0.0;
  double hi = 3.0 * reach;
  for (int i = 0; i < 60; ++i) {
    double mid = 0.5 * (lo + hi);
    Transform t = xfB;
    t.p = xfA.p + static_cast<float>(mid) * dir;
    oracle::WorldShape wb = oracle::Place(pb, t);
    double surface = oracle::CoreDistance(wa, wb) - wa.radius - wb.radius;
    (surface > 0.0 ? hi : lo) = mid;
  }
  xfB.p = xfA.p + static_cast<float>(hi) * dir;
  return xfB;
}

}  // namespace

TEST_SUITE("narrowphase.gjk") {

// Seed 000: triangle (4,5), (9,9), (4,11) and quadrilateral (8,6), (15,6), (13,1), (10,2). The
// Minkowski difference's closest feature is the edge (-4,-1)-(1,3) at t = 24/41, so the closest
// points are (8,6) on B and (4,5) + 24/41 (5,4) on A, distance |(-44/41, 55/41)| = 11/sqrt(41).
TEST_CASE(
    "Bittle's distance article's separated triangle and quadrilateral: exact distance and closest points") {
  Polygon a = Poly({{4, 5}, {9, 9}, {4, 11}});
  Polygon b = Poly({{8, 6}, {15, 6}, {13, 1}, {10, 2}});
  DistanceInput in = Input(MakeProxy(a), {}, MakeProxy(b), {});
  for (int warm = 0; warm < 2; ++warm) {
    SimplexCache cache;
    DistanceOutput out = ShapeDistance(in, &cache);
    if (warm) out = ShapeDistance(in, &cache);
    const double exact = 11.0 / std::sqrt(41.0);  // 1.7179114
    CHECK(out.status == DistanceStatus::Separated);
    CHECK(std::fabs(out.distance - exact) <= 2e-6);
    CHECK(std::fabs(out.coreDistance - exact) <= 2e-6);
    CHECK(test::Near(out.pointB, {8.0f, 6.0f}, 2e-6f));
    Vec2 expectedA = Vec2{4.0f, 5.0f} + (24.0f / 41.0f) * Vec2{5.0f, 4.0f};
    CHECK(test::Near(out.pointA, expectedA, 4e-6f));
    CHECK(test::Near(out.normal, Normalize(Vec2{8.0f, 6.0f} - expectedA), 2e-6f));
    CHECK(out.iterations <= 4);
  }
}

// Seed 004: triangle (4,11), (9,9), (4,5) and quadrilateral (5,7), (12,7), (10,2), (7,3). (5,7) is
// strictly inside the triangle (cross products 6, 18, 6 with its CCW edges), so they overlap.
TEST_CASE("Bittle's GJK article's triangle and quadrilateral overlap") {
  Polygon a = Poly({{4, 11}, {9, 9}, {4, 5}});
  Polygon b = Poly({{5, 7}, {12, 7}, {10, 2}, {7, 3}});
  DistanceInput in = Input(MakeProxy(a), {}, MakeProxy(b), {});
  CHECK(CoresOverlap(in));
  CHECK(ShapesOverlap(in));
  DistanceOutput out = ShapeDistance(in);
  CHECK(out.status == DistanceStatus::Overlapping);
  CHECK(out.coresOverlap);
  CHECK(out.simplexCount == 3);
  // Moved by (5, 0) (triangle x <= 9, quad x >= 10): apart; the distance is the oracle's.
  DistanceInput apart = Input(MakeProxy(a), {}, MakeProxy(b), Transform{{5.0f, 0.0f}, {}});
  CHECK_FALSE(CoresOverlap(apart));
  double exact =
      oracle::CoreDistance(oracle::Place(apart.proxyA, {}), oracle::Place(apart.proxyB, apart.transformB));
  CHECK(ShapeDistance(apart).distance == doctest::Approx(exact).epsilon(1e-6));
}

// Seed 002's point sets: A = {(1,1), (2,1)}, B = {(-2,2), (-1,2)}. A - B = {(3,-1), (2,-1), (4,-1),
// (3,-1)}: a segment from (2,-1) to (4,-1), so no overlap and distance |(2,-1)| = sqrt(5), between
// (1,1) on A and (-1,2) on B.
TEST_CASE("the 2D GJK tutorial's point sets: Minkowski difference misses the origin by sqrt(5)") {
  Segment a{{1, 1}, {2, 1}};
  Segment b{{-2, 2}, {-1, 2}};
  DistanceInput in = Input(MakeProxy(a), {}, MakeProxy(b), {});
  CHECK_FALSE(CoresOverlap(in));
  DistanceOutput out = ShapeDistance(in);
  CHECK(out.distance == doctest::Approx(std::sqrt(5.0)).epsilon(1e-6));
  CHECK(test::Near(out.pointA, {1, 1}, 1e-6f));
  CHECK(test::Near(out.pointB, {-1, 2}, 1e-6f));
}

TEST_CASE("the oracle agrees with GJK on 100000 random pairs of every shape type" *
          doctest::test_suite("long")) {
  test::Rng rng(0x61C0FFEEull);
  int separated = 0, overlapping = 0, touching = 0, failures = 0;
  for (int trial = 0; trial < 100000 && failures < 10; ++trial) {
    Kind ka = static_cast<Kind>(trial % 5);
    Kind kb = static_cast<Kind>((trial / 5) % 5);
    TestShape a = oracle::RandomShape(rng, ka, 0.05f, 20.0f);
    TestShape b = oracle::RandomShape(rng, kb, 0.05f, 20.0f);
    Transform xfA{rng.InBox(20.0f), MakeRot(rng.Uniform(-3.1416f, 3.1416f))};
    bool makeTouching = trial % 7 == 0;
    Transform xfB = PlaceB(rng, a, xfA, b, makeTouching);
    DistanceInput in = Input(a.Proxy(), xfA, b.Proxy(), xfB);
    DistanceOutput out = ShapeDistance(in);
    double size = std::max(a.size, b.size);
    PairCheck c = CheckAgainstOracle(in, out, 1e-5 * (1.0 + size));
    failures += c.ok ? 0 : 1;
    separated += c.separated;
    overlapping += c.overlapping;
    touching += makeTouching;
    // The boolean tests agree with the distance query.
    bool surfacesMeet = out.status != DistanceStatus::Separated;
    if (c.separated) CHECK_FALSE(ShapesOverlap(in));
    if (c.overlapping) CHECK(ShapesOverlap(in));
    if (c.separated && in.proxyA.radius == 0.0f && in.proxyB.radius == 0.0f) CHECK_FALSE(CoresOverlap(in));
    // (Touching pairs are left out: with the origin on the difference's boundary, to within
    // rounding, either answer is right.)
    if (!makeTouching && out.coresOverlap && out.simplexCount == 3) CHECK(CoresOverlap(in));
    (void)surfacesMeet;
  }
  CHECK(failures == 0);
  CHECK(separated > 30000);
  CHECK(overlapping > 20000);
  CHECK(touching > 10000);
}

TEST_CASE("warm start gives the cold answer in fewer iterations after small motions") {
  test::Rng rng(77);
  long coldIterations = 0, warmIterations = 0;
  const int trials = 5000;
  for (int trial = 0; trial < trials; ++trial) {
    TestShape a = oracle::RandomShape(rng, Kind::SharpPolygon, 0.5f, 2.0f);
    TestShape b = oracle::RandomShape(rng, static_cast<Kind>(trial % 5), 0.5f, 2.0f);
    Transform xfA{rng.InBox(5.0f), MakeRot(rng.Uniform(-3.0f, 3.0f))};
    Transform xfB = PlaceB(rng, a, xfA, b, false);
    SimplexCache cache;
    ShapeDistance(Input(a.Proxy(), xfA, b.Proxy(), xfB), &cache);
    for (int step = 0; step < 4; ++step) {
      xfB.p += 0.01f * rng.Direction();
      xfB.q = MulRot(MakeRot(rng.Uniform(-0.02f, 0.02f)), xfB.q);
      DistanceInput in = Input(a.Proxy(), xfA, b.Proxy(), xfB);
      DistanceOutput warm = ShapeDistance(in, &cache);
      CHECK(cache.iterations == warm.iterations);  // the cache reports its query's iterations
      DistanceOutput cold = ShapeDistance(in);
      warmIterations += warm.iterations;
      coldIterations += cold.iterations;
      CHECK(warm.coresOverlap == cold.coresOverlap);
      CHECK(std::fabs(warm.coreDistance - cold.coreDistance) <= 1e-5f * 4.0f);
      CHECK(std::fabs(warm.distance - cold.distance) <= 1e-5f * 4.0f);
      if (!cold.coresOverlap && cold.coreDistance > 1e-3f) CHECK(test::Near(warm.normal, cold.normal, 1e-3f));
    }
  }
  MESSAGE("average iterations: cold " << double(coldIterations) / (4 * trials) << ", warm "
                                      << double(warmIterations) / (4 * trials));
  CHECK(warmIterations * 2 < coldIterations);
}

// The warm fast path (a cached point or segment simplex that one support query confirms) is
// written out apart from the general loop; querying again at the same pose must take it and give
// the cold answer to rounding, on every shape type and both vertex-edge orders.
TEST_CASE("a warm query at an unchanged pose gives the cold answer") {
  test::Rng rng(2024);
  int fastPath = 0;
  const int trials = 4000;
  for (int trial = 0; trial < trials; ++trial) {
    TestShape a = oracle::RandomShape(rng, static_cast<Kind>(trial % 5), 0.2f, 3.0f);
    TestShape b = oracle::RandomShape(rng, static_cast<Kind>((trial / 5) % 5), 0.2f, 3.0f);
    Transform xfA{rng.InBox(10.0f), MakeRot(rng.Uniform(-3.1416f, 3.1416f))};
    Transform xfB = PlaceB(rng, a, xfA, b, trial % 9 == 0);
    DistanceInput in = Input(a.Proxy(), xfA, b.Proxy(), xfB);
    SimplexCache cache;
    DistanceOutput cold = ShapeDistance(in, &cache);
    SimplexCache before = cache;
    DistanceOutput warm = ShapeDistance(in, &cache);
    if (cold.coresOverlap) continue;
    double scale = 1.0 + a.size + b.size + 10.0;
    double tolerance = 2e-6 * scale;
    CHECK(warm.status == cold.status);
    CHECK(warm.coresOverlap == cold.coresOverlap);
    CHECK(warm.simplexCount == cold.simplexCount);
    CHECK(std::fabs(warm.coreDistance - cold.coreDistance) <= tolerance);
    CHECK(std::fabs(warm.distance - cold.distance) <= tolerance);
    CHECK(std::fabs(warm.penetration - cold.penetration) <= tolerance);
    CHECK(test::Near(warm.corePointA, cold.corePointA, static_cast<float>(tolerance)));
    CHECK(test::Near(warm.corePointB, cold.corePointB, static_cast<float>(tolerance)));
    CHECK(test::Near(warm.pointA, cold.pointA, static_cast<float>(tolerance)));
    CHECK(test::Near(warm.pointB, cold.pointB, static_cast<float>(tolerance)));
    if (cold.coreDistance > 1e-3f) CHECK(test::Near(warm.normal, cold.normal, 1e-5f));
    CheckAgainstOracle(in, warm, 1e-5 * scale);
    // The terminal simplex confirmed itself: no iteration, same cache.
    if (warm.iterations == 0 && cache.count == before.count) ++fastPath;
  }
  MESSAGE("warm queries ending without an iteration: " << fastPath);
  CHECK(fastPath > trials / 2);
}

// The support scan (four lanes at a time from 4 points on, lane_kernels_test.cpp) must pick exactly the
// scalar scan's vertex, ties to the lowest index.
TEST_CASE("the support scan picks the scalar scan's vertex and the lowest index on ties") {
  test::Rng rng(99);
  for (int trial = 0; trial < 20000; ++trial) {
    int count = 1 + trial % (kHillClimbMinVertices - 1);
    Vec2 points[kHillClimbMinVertices];
    for (int i = 0; i < count; ++i) points[i] = rng.InBox(2.0f);
    if (trial % 3 == 0 && count > 1) points[rng.Int(0, count - 1)] = points[rng.Int(0, count - 1)];  // ties
    Vec2 dir = trial % 7 == 0 ? Vec2{0.0f, 1.0f} : rng.Direction();
    if (trial % 11 == 0) {
      for (int i = 0; i < count; ++i) points[i].y = 1.0f;  // all tied along (0, 1)
      dir = {0.0f, 1.0f};
    }
    int expected = 0;
    for (int i = 1; i < count; ++i) {
      if (Dot(points[i], dir) > Dot(points[expected], dir)) expected = i;
    }
    CHECK(detail::Support(points, count, dir, 0) == expected);
  }
}

TEST_CASE("a stale cache (indices out of range or from another pair) still gives the exact answer") {
  test::Rng rng(5);
  for (int trial = 0; trial < 2000; ++trial) {
    TestShape a = oracle::RandomShape(rng, static_cast<Kind>(trial % 5), 0.1f, 5.0f);
    TestShape b = oracle::RandomShape(rng, static_cast<Kind>((trial / 5) % 5), 0.1f, 5.0f);
    Transform xfA{rng.InBox(3.0f), MakeRot(rng.Uniform(-3.0f, 3.0f))};
    Transform xfB = PlaceB(rng, a, xfA, b, false);
    DistanceInput in = Input(a.Proxy(), xfA, b.Proxy(), xfB);
    DistanceOutput cold = ShapeDistance(in);

    SimplexCache garbage;
    garbage.count = static_cast<std::uint8_t>(rng.Int(0, 255));
    for (int i = 0; i < 3; ++i) {
      garbage.indexA[i] = static_cast<std::uint8_t>(rng.Int(0, 255));
      garbage.indexB[i] = static_cast<std::uint8_t>(rng.Int(0, 12));
    }
    SimplexCache other;  // a cache from an unrelated pair of octagons
    Polygon o1 = MakeRegularPolygon(8, 1.0f).value;
    Polygon o2 = MakeRegularPolygon(8, 1.0f).value;
    ShapeDistance(Input(MakeProxy(o1), {}, MakeProxy(o2), Transform{rng.InBox(1.0f), MakeRot(1.0f)}), &other);

    for (SimplexCache* cache : {&garbage, &other}) {
      DistanceOutput out = ShapeDistance(in, cache);
      CheckAgainstOracle(in, out, 1e-5 * (1.0 + 10.0));
      CHECK(out.coresOverlap == cold.coresOverlap);
      CHECK(std::fabs(out.coreDistance - cold.coreDistance) <= 1e-5f * 6.0f);
      CHECK(cache->count <= 3);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Degenerate cases
// ---------------------------------------------------------------------------------------------

TEST_CASE("identical shapes at the same place overlap") {
  Polygon box = MakeBox(1.0f, 0.5f).value;
  Capsule capsule;
  Circle circle;
  Segment segment;
  for (ShapeProxy p : {MakeProxy(box), MakeProxy(capsule), MakeProxy(circle), MakeProxy(segment)}) {
    DistanceOutput out = ShapeDistance(Input(p, {}, p, {}));
    CHECK(Finite(out));
    CHECK(out.coresOverlap);
    CHECK(out.coreDistance == 0.0f);
    // Sharp cores overlapping in area are Overlapping; a segment on itself has no area: Touching.
    if (p.radius > 0.0f || p.count >= 3) CHECK(out.status == DistanceStatus::Overlapping);
    CHECK(CoresOverlap(Input(p, {}, p, {})));
  }
}

TEST_CASE("boxes touching at a vertex report Touching with zero distance") {
  Polygon box = MakeBox(1.0f, 1.0f).value;
  // B's corner (-1,-1) rotated 45 degrees becomes (0, -sqrt2): put it exactly on A's corner (1, 1)?
  // Use axis-aligned boxes meeting corner to corner instead: A's (1,1) = B's (-1,-1).
  DistanceInput in = Input(MakeProxy(box), {}, MakeProxy(box), Transform{{2.0f, 2.0f}, {}});
  DistanceOutput out = ShapeDistance(in);
  CHECK(Finite(out));
  CHECK(out.status == DistanceStatus::Touching);
  CHECK(out.distance == 0.0f);
  CHECK(out.penetration <= 1e-6f);
  CHECK(test::Near(out.pointA, {1, 1}, 1e-6f));
  CHECK(test::Near(out.pointB, {1, 1}, 1e-6f));
  CHECK(CoresOverlap(in));  // closed sets: touching counts as overlapping
}

TEST_CASE("boxes touching along an edge report Touching") {
  Polygon box = MakeBox(1.0f, 1.0f).value;
  DistanceInput in = Input(MakeProxy(box), {}, MakeProxy(box), Transform{{2.0f, 0.5f}, {}});
  DistanceOutput out = ShapeDistance(in);
  CHECK(Finite(out));
  CHECK(out.status == DistanceStatus::Touching);
  CHECK(out.distance == 0.0f);
  CHECK(std::fabs(out.pointA.x - 1.0f) <= 1e-6f);
  // Separated by a hair: exact distance and normal (1, 0).
  in.transformB.p.x = 2.001f;
  out = ShapeDistance(in);
  CHECK(out.status == DistanceStatus::Separated);
  CHECK(out.distance == doctest::Approx(0.001).epsilon(1e-3));
  CHECK(test::Near(out.normal, {1, 0}, 1e-6f));
}

TEST_CASE("origin exactly on a Minkowski edge: a segment lying on a box's edge") {
  Polygon box = MakeBox(1.0f, 1.0f).value;
  Segment segment{{-0.5f, 1.0f}, {0.5f, 1.0f}};  // on the top edge
  DistanceInput in = Input(MakeProxy(box), {}, MakeProxy(segment), {});
  DistanceOutput out = ShapeDistance(in);
  CHECK(Finite(out));
  CHECK(out.status == DistanceStatus::Touching);
  CHECK(out.distance == 0.0f);
  PenetrationOutput pen = ShapePenetration(in);
  CHECK(pen.coreDepth <= 1e-6f);
  CHECK(test::Near(pen.normal, {0, 1}, 1e-5f));
}

TEST_CASE("collinear simplex: segments on one line apart and overlapping") {
  Segment a{{0, 0}, {1, 0}};
  Segment b{{2, 0}, {3, 0}};
  DistanceOutput out = ShapeDistance(Input(MakeProxy(a), {}, MakeProxy(b), {}));
  CHECK(out.status == DistanceStatus::Separated);
  CHECK(out.distance == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(test::Near(out.normal, {1, 0}, 1e-6f));
  Segment c{{0.5f, 0}, {3, 0}};
  out = ShapeDistance(Input(MakeProxy(a), {}, MakeProxy(c), {}));
  CHECK(Finite(out));
  CHECK(out.distance == 0.0f);
  CHECK(out.status == DistanceStatus::Touching);  // no area: the segments share a piece of line
}

TEST_CASE("zero-area segment versus segment: crossing and T-junction and parallel") {
  Segment a{{-1, 0}, {1, 0}};
  // Crossing segments: A - B is a 2 x 2 square around the origin, so they do overlap, by depth 1
  // (shift the cross by 1 along x or y and they only touch).
  Segment cross{{0, -1}, {0, 1}};
  DistanceInput crossing = Input(MakeProxy(a), {}, MakeProxy(cross), {});
  DistanceOutput out = ShapeDistance(crossing);
  CHECK(Finite(out));
  CHECK(out.distance == 0.0f);
  CHECK(out.status == DistanceStatus::Overlapping);
  CHECK(ShapePenetration(crossing).coreDepth == doctest::Approx(1.0).epsilon(1e-6));
  // T-junction: the end of one segment on the other: the origin is on the difference's boundary.
  Segment tee{{0, 0}, {0, 1}};
  out = ShapeDistance(Input(MakeProxy(a), {}, MakeProxy(tee), {}));
  CHECK(out.distance == 0.0f);
  CHECK(out.status == DistanceStatus::Touching);
  Segment parallel{{-0.5f, 0.25f}, {3, 0.25f}};
  out = ShapeDistance(Input(MakeProxy(a), {}, MakeProxy(parallel), {}));
  CHECK(out.status == DistanceStatus::Separated);
  CHECK(out.distance == doctest::Approx(0.25).epsilon(1e-6));
}

TEST_CASE("very thin polygons: 1e-3 aspect slivers against boxes") {
  Polygon sliver = Poly({{-1, 0}, {1, 0}, {0, 0.002f}});
  Polygon box = MakeBox(0.5f, 0.5f).value;
  test::Rng rng(3);
  for (int i = 0; i < 2000; ++i) {
    Transform xfB{rng.InBox(1.5f), MakeRot(rng.Uniform(-3.0f, 3.0f))};
    DistanceInput in = Input(MakeProxy(sliver), Transform{{0, 0}, MakeRot(0.3f)}, MakeProxy(box), xfB);
    CheckAgainstOracle(in, ShapeDistance(in), 1e-5 * 3.0);
  }
}

TEST_CASE("coordinates far from the origin (1e4 m) keep the near-field accuracy of float") {
  Polygon box = MakeBox(0.5f, 0.5f).value;
  Circle circle{{0, 0}, 0.25f};
  Vec2 far{1.0e4f, -1.0e4f};
  // Box at far, circle 1 m to its right: surface distance 0.25 m. Float spacing at 1e4 is ~1e-3.
  DistanceInput in =
      Input(MakeProxy(box), Transform{far, {}}, MakeProxy(circle), Transform{far + Vec2{1.0f, 0}, {}});
  DistanceOutput out = ShapeDistance(in);
  CHECK(out.status == DistanceStatus::Separated);
  CHECK(out.distance == doctest::Approx(0.25).epsilon(1e-5));
  CHECK(test::Near(out.normal, {1, 0}, 1e-6f));
  test::Rng rng(11);
  for (int i = 0; i < 1000; ++i) {
    TestShape a = oracle::RandomShape(rng, static_cast<Kind>(i % 5), 0.5f, 2.0f);
    TestShape b = oracle::RandomShape(rng, static_cast<Kind>((i / 5) % 5), 0.5f, 2.0f);
    Transform xfA{far + rng.InBox(1.0f), MakeRot(rng.Uniform(-3.0f, 3.0f))};
    Transform xfB = PlaceB(rng, a, xfA, b, false);
    DistanceInput q = Input(a.Proxy(), xfA, b.Proxy(), xfB);
    // Float resolution at 1.4e4 m is 1e-3 m, and every input coordinate carries that rounding.
    CheckAgainstOracle(q, ShapeDistance(q), 4e-3);
  }
}

TEST_CASE("tiny (1e-3 m) and large (1e3 m) shapes scale their accuracy") {
  for (float scale : {1e-3f, 1e3f}) {
    test::Rng rng(13);
    for (int i = 0; i < 1000; ++i) {
      TestShape a = oracle::RandomShape(rng, static_cast<Kind>(i % 5), scale, 2.0f * scale);
      TestShape b = oracle::RandomShape(rng, static_cast<Kind>((i / 5) % 5), scale, 2.0f * scale);
      Transform xfA{scale * rng.InBox(2.0f), MakeRot(rng.Uniform(-3.0f, 3.0f))};
      Transform xfB = PlaceB(rng, a, xfA, b, i % 3 == 0);
      DistanceInput in = Input(a.Proxy(), xfA, b.Proxy(), xfB);
      CheckAgainstOracle(in, ShapeDistance(in), 1e-5 * scale * 5.0);
    }
  }
}

TEST_CASE("invalid input gives InvalidInput and not NaN or a crash") {
  Polygon box = MakeBox(1.0f, 1.0f).value;
  ShapeProxy good = MakeProxy(box);
  ShapeProxy empty{};
  CHECK(ShapeDistance(Input(empty, {}, good, {})).status == DistanceStatus::InvalidInput);
  ShapeProxy tooMany{box.vertices, 65, 0.0f};
  CHECK(ShapeDistance(Input(tooMany, {}, good, {})).status == DistanceStatus::InvalidInput);
  ShapeProxy negative{box.vertices, 4, -1.0f};
  CHECK(ShapeDistance(Input(negative, {}, good, {})).status == DistanceStatus::InvalidInput);
  Transform nan{{NAN, 0}, {}};
  CHECK(ShapeDistance(Input(good, nan, good, {})).status == DistanceStatus::InvalidInput);
  Transform infiniteRotation{{0, 0}, {INFINITY, 0.0f}};
  CHECK(ShapeDistance(Input(good, {}, good, infiniteRotation)).status == DistanceStatus::InvalidInput);
  ShapeProxy infiniteRadius{box.vertices, 4, INFINITY};
  CHECK(ShapeDistance(Input(good, {}, infiniteRadius, {})).status == DistanceStatus::InvalidInput);
  ShapeProxy nullPoints{nullptr, 4, 0.0f};
  CHECK(ShapeDistance(Input(good, {}, nullPoints, {})).status == DistanceStatus::InvalidInput);
  // Far but finite positions are valid input, not an overflow.
  Transform far{{3e30f, -3e30f}, {}};
  CHECK(ShapeDistance(Input(good, far, good, Transform{{3e30f, -3e30f + 5.0f}, {}})).status !=
        DistanceStatus::InvalidInput);
  Vec2 bad[3] = {{0, 0}, {INFINITY, 0}, {0, 1}};
  ShapeProxy infinite{bad, 3, 0.0f};
  DistanceOutput out = ShapeDistance(Input(infinite, {}, good, Transform{{5, 0}, {}}));
  CHECK((out.status == DistanceStatus::InvalidInput || Finite(out)));
  CHECK(Finite(out));
  CHECK_FALSE(CoresOverlap(Input(empty, {}, good, {})));
  CHECK(ShapePenetration(Input(empty, {}, good, {})).status == PenetrationStatus::InvalidInput);
}

TEST_CASE("history records every iteration: the start simplex then one step per support") {
  Polygon a = Poly({{4, 5}, {9, 9}, {4, 11}});
  Polygon b = Poly({{8, 6}, {15, 6}, {13, 1}, {10, 2}});
  DistanceInput in = Input(MakeProxy(a), {}, MakeProxy(b), Transform{{0.5f, 0.0f}, MakeRot(0.1f)});
  static GjkHistory history;
  DistanceOutput out = ShapeDistance(in, nullptr, &history);
  DistanceOutput plain = ShapeDistance(in);
  CHECK(out.distance == plain.distance);
  CHECK(history.count == out.iterations + 1);
  const GjkStep& last = history.steps[history.count - 1];
  // The last step's closest point is A - B of the reported core points, in world coordinates.
  CHECK(test::Near(last.closestPoint, out.corePointA - out.corePointB, 1e-5f));
  for (int i = 0; i < history.count; ++i) {
    const Simplex& s = history.steps[i].simplex;
    REQUIRE(s.count >= 1);
    float lambdaSum = 0.0f;
    for (int k = 0; k < s.count; ++k) {
      const SimplexVertex& v = s.vertices[k];
      CHECK(test::Near(v.w, v.pointA - v.pointB, 1e-5f));
      // Support points are real vertices of the placed shapes.
      CHECK(test::Near(v.pointA, TransformPoint(in.transformA, a.vertices[v.indexA]), 1e-5f));
      CHECK(test::Near(v.pointB, TransformPoint(in.transformB, b.vertices[v.indexB]), 1e-5f));
      lambdaSum += v.lambda;
    }
    CHECK(lambdaSum == doctest::Approx(1.0f));
    // Distances to the origin never increase.
    if (i > 0)
      CHECK(Length(history.steps[i].closestPoint) <= Length(history.steps[i - 1].closestPoint) + 1e-6f);
  }
}

TEST_CASE("large polygons (64 vertices) use hill climbing and stay exact") {
  Polygon big = MakeRegularPolygon(64, 2.0f).value;
  Polygon other = MakeRegularPolygon(40, 1.0f, 0.1f).value;
  test::Rng rng(17);
  SimplexCache cache;
  for (int i = 0; i < 500; ++i) {
    Transform xfB{rng.InBox(4.0f), MakeRot(rng.Uniform(-3.0f, 3.0f))};
    DistanceInput in = Input(MakeProxy(big), Transform{{0, 0}, MakeRot(0.2f)}, MakeProxy(other), xfB);
    CheckAgainstOracle(in, ShapeDistance(in, i % 2 ? &cache : nullptr), 1e-5 * 5.0);
  }
}

}  // TEST_SUITE("narrowphase.gjk")
