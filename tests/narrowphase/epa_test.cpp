// SPDX-License-Identifier: MIT
#include "minkowski/distance.h"
#include "narrowphase/gjk_internal.h"
#include "narrowphase/oracle.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace mk;
using oracle::Kind;
using oracle::TestShape;

namespace {

DistanceInput Input(const ShapeProxy& a, const Transform& xfA, const ShapeProxy& b, const Transform& xfB) {
  return {a, b, xfA, xfB};
}

// Checks one overlapping polygon pair against the SAT oracle: depth within 1e-4 relative (plus the
// float floor of the coordinates), the witness points consistent with it, and pushing B by
// depth x normal leaves the pair touching (distance >= 0 within tolerance, and no deeper overlap).
bool CheckPenetration(const DistanceInput& in, const PenetrationOutput& out, double size) {
  oracle::WorldShape a = oracle::Place(in.proxyA, in.transformA);
  oracle::WorldShape b = oracle::Place(in.proxyB, in.transformB);
  double exact = oracle::PolygonPenetration(a, b);
  // Float coordinates of size ~s carry ~1e-7 s rounding; 1e-5 s covers the transforms and dot products.
  double floor = 1e-5 * size;
  bool ok = true;
  auto fail = [&](const char* what) {
    INFO(what << ": exact depth " << exact << " got " << out.coreDepth << " status "
              << static_cast<int>(out.status));
    CHECK(false);
    ok = false;
  };
  if (out.status != PenetrationStatus::Epa && out.status != PenetrationStatus::SatFallback) fail("status");
  if (std::fabs(out.coreDepth - exact) > 1e-4 * exact + floor) fail("depth");
  if (std::fabs(Length(out.normal) - 1.0f) > 1e-5f) fail("unit normal");
  Vec2 gap = out.corePointA - out.corePointB;
  if (Distance(gap, out.coreDepth * out.normal) > floor) fail("witness points");
  if (std::fabs(oracle::SignedDistanceToCore(a, oracle::ToD(out.corePointA))) > floor) fail("witness A on A");
  if (std::fabs(oracle::SignedDistanceToCore(b, oracle::ToD(out.corePointB))) > floor) fail("witness B on B");
  // Push B out by the reported depth: the cores must then just touch, in the oracle's double math.
  Transform moved = in.transformB;
  moved.p += out.coreDepth * out.normal;
  oracle::WorldShape b2 = oracle::Place(in.proxyB, moved);
  double after = oracle::CoreDistance(a, b2);
  double residual = after > 0.0 ? -after : oracle::PolygonPenetration(a, b2);
  if (residual > floor) fail("still overlapping after the push");
  if (after > floor) fail("pushed too far");
  return ok;
}

}  // namespace

TEST_SUITE("narrowphase.epa") {

TEST_CASE("Bittle's GJK article's overlapping triangle and quadrilateral: depth equals the SAT minimum") {
  Polygon a = MakePolygon(std::vector<Vec2>{{4, 11}, {9, 9}, {4, 5}}).value;
  Polygon b = MakePolygon(std::vector<Vec2>{{5, 7}, {12, 7}, {10, 2}, {7, 3}}).value;
  DistanceInput in = Input(MakeProxy(a), {}, MakeProxy(b), {});
  SimplexCache cache;
  REQUIRE(ShapeDistance(in, &cache).coresOverlap);
  static EpaHistory history;
  PenetrationOutput out = ShapePenetration(in, &cache, &history);
  CHECK(out.status == PenetrationStatus::Epa);
  CheckPenetration(in, out, 12.0);
  CHECK(history.count >= 1);
  CHECK(history.count <= out.iterations + 1);
  CHECK(history.steps[0].count >= 3);
}

TEST_CASE("EPA matches the SAT oracle on 100000 random overlapping polygon pairs" *
          doctest::test_suite("long")) {
  test::Rng rng(0xE9A);
  EpaCounters counters;  // this test's own tally, from the outputs of its ShapePenetration calls
  int checked = 0, failures = 0;
  while (checked < 100000 && failures < 10) {
    float radiusA = rng.Int(0, 1) ? 0.0f : 0.1f;
    Polygon pa = oracle::RandomPolygon(rng, rng.LogUniform(0.05f, 20.0f), 10, radiusA);
    Polygon pb = oracle::RandomPolygon(rng, rng.LogUniform(0.05f, 20.0f), 10, 0.0f);
    float reach = 0.0f;
    for (int i = 0; i < pa.count; ++i) reach = std::max(reach, Length(pa.vertices[i]));
    for (int i = 0; i < pb.count; ++i) reach = std::max(reach, Length(pb.vertices[i]));
    Transform xfA{rng.InBox(10.0f), MakeRot(rng.Uniform(-3.1416f, 3.1416f))};
    Transform xfB{xfA.p + rng.Uniform(0.0f, 0.8f) * reach * rng.Direction(),
                  MakeRot(rng.Uniform(-3.1416f, 3.1416f))};
    DistanceInput in = Input(MakeProxy(pa), xfA, MakeProxy(pb), xfB);
    oracle::WorldShape wa = oracle::Place(in.proxyA, xfA);
    oracle::WorldShape wb = oracle::Place(in.proxyB, xfB);
    if (oracle::CoreDistance(wa, wb) > 0.0) continue;  // only overlapping cores
    SimplexCache cache;
    ShapeDistance(in, &cache);
    PenetrationOutput out = ShapePenetration(in, &cache);
    counters.Add(out);
    CHECK(out.depth == doctest::Approx(out.coreDepth + radiusA));
    failures += CheckPenetration(in, out, 1.0 + reach) ? 0 : 1;
    ++checked;
  }
  CHECK(failures == 0);
  MESSAGE("EPA calls " << counters.calls << ", iterations " << counters.iterations << ", SAT fallbacks "
                       << counters.satFallbacks << ", failures " << counters.failures);
  // Every pair the oracle calls overlapping must have run EPA (a Separated answer would not count).
  CHECK(counters.calls == static_cast<std::uint64_t>(checked));
  CHECK(counters.failures == 0);
  CHECK(counters.iterations >= counters.calls);           // random pairs rarely start on the boundary
  CHECK(counters.satFallbacks * 1000 <= counters.calls);  // fallbacks are rare (< 0.1%)
}

TEST_CASE("EpaCounters counts the calls that ran EPA - their expansions and how they ended") {
  Polygon big = MakeRegularPolygon(64, 1.0f).value;
  Polygon box = MakeBox(1.0f, 1.0f).value;
  EpaCounters counters;
  // No EPA: cores apart, or input refused.
  counters.Add(ShapePenetration(Input(MakeProxy(box), {}, MakeProxy(box), Transform{{3.0f, 0.0f}, {}})));
  counters.Add(ShapePenetration(Input(ShapeProxy{}, {}, MakeProxy(box), {})));
  CHECK(counters.calls == 0);
  CHECK(counters.iterations == 0);
  // Two overlapping 64-gons: EPA needs several expansions, and the tally is their sum.
  PenetrationOutput first =
      ShapePenetration(Input(MakeProxy(big), {}, MakeProxy(big), Transform{{0.5f, 0.2f}, {}}));
  PenetrationOutput second =
      ShapePenetration(Input(MakeProxy(big), {}, MakeProxy(big), Transform{{-0.3f, 0.6f}, MakeRot(0.01f)}));
  REQUIRE(first.status == PenetrationStatus::Epa);
  REQUIRE(second.status == PenetrationStatus::Epa);
  CHECK(first.iterations >= 3);
  counters.Add(first);
  counters.Add(second);
  CHECK(counters.calls == 2);
  CHECK(counters.iterations == static_cast<std::uint64_t>(first.iterations + second.iterations));
  CHECK(counters.satFallbacks == 0);
  CHECK(counters.failures == 0);
  // EPA practically never fails (see the SAT fallback test below), so the failing ends are written out.
  counters.Add({.iterations = 7, .status = PenetrationStatus::SatFallback});
  counters.Add({.iterations = 2, .status = PenetrationStatus::Failed});
  CHECK(counters.calls == 4);
  CHECK(counters.iterations == static_cast<std::uint64_t>(first.iterations + second.iterations + 9));
  CHECK(counters.satFallbacks == 1);
  CHECK(counters.failures == 1);
}

TEST_CASE("degenerate EPA starts: the origin on a vertex or an edge of the difference") {
  Polygon box = MakeBox(1.0f, 0.5f).value;
  // Identical boxes: GJK's first vertex pair is the same corner, w = 0 (a 1-point start on the
  // origin). The difference is the 4 x 2 box around the origin: depth 1 along y.
  DistanceInput same = Input(MakeProxy(box), {}, MakeProxy(box), {});
  PenetrationOutput out = ShapePenetration(same);
  CHECK(out.coreDepth == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(std::fabs(out.normal.y) == doctest::Approx(1.0).epsilon(1e-6));
  CheckPenetration(same, out, 2.0);
  // Shifted by exactly half a width: A - B's corner vertex sits on the origin's line.
  DistanceInput half = Input(MakeProxy(box), {}, MakeProxy(box), Transform{{1.0f, 0.0f}, {}});
  out = ShapePenetration(half);
  CHECK(out.coreDepth == doctest::Approx(1.0).epsilon(1e-6));
  CheckPenetration(half, out, 3.0);
  // Touching along an edge: depth 0.
  DistanceInput edge = Input(MakeProxy(box), {}, MakeProxy(box), Transform{{2.0f, 0.25f}, {}});
  out = ShapePenetration(edge);
  CHECK(out.coreDepth <= 1e-6f);
  CHECK(test::Near(out.normal, {1, 0}, 1e-5f));
}

TEST_CASE(
    "EPA on 1- and 2-point cores: a circle centre in a box and a capsule across a box and concentric "
    "circles") {
  Polygon box = MakeBox(1.0f, 1.0f).value;
  Circle circle{{0, 0}, 0.5f};
  // Circle centre 0.25 inside the right face: core depth 0.25, surface depth 0.75, normal (-1, 0)?
  // No: normal points from A (box) to B (circle), and moving B by depth x normal separates: +x.
  DistanceInput in = Input(MakeProxy(box), {}, MakeProxy(circle), Transform{{0.75f, 0.1f}, {}});
  PenetrationOutput out = ShapePenetration(in);
  CHECK(out.coreDepth == doctest::Approx(0.25).epsilon(1e-6));
  CHECK(out.depth == doctest::Approx(0.75).epsilon(1e-6));
  CHECK(test::Near(out.normal, {1, 0}, 1e-6f));
  CHECK(test::Near(out.pointB, {0.25f, 0.1f}, 1e-6f));
  // Capsule core across the box, horizontal at y = 0.8: must go up by 0.2.
  Capsule capsule{{-3, 0}, {3, 0}, 0.1f};
  in = Input(MakeProxy(box), {}, MakeProxy(capsule), Transform{{0.0f, 0.8f}, {}});
  out = ShapePenetration(in);
  CHECK(out.coreDepth == doctest::Approx(0.2).epsilon(1e-5));
  CHECK(test::Near(out.normal, {0, 1}, 1e-6f));
  // Circle-circle with the same centre: depth is the radii, any unit normal.
  in = Input(MakeProxy(circle), {}, MakeProxy(circle), {});
  out = ShapePenetration(in);
  CHECK(out.depth == doctest::Approx(1.0));
  CHECK(Length(out.normal) == doctest::Approx(1.0));
}

TEST_CASE("separated cores give status Separated and ShapeSeparation is signed") {
  Polygon box = MakeBox(1.0f, 1.0f).value;
  DistanceInput apart = Input(MakeProxy(box), {}, MakeProxy(box), Transform{{3.0f, 0.0f}, {}});
  CHECK(ShapePenetration(apart).status == PenetrationStatus::Separated);
  SeparationOutput s = ShapeSeparation(apart);
  CHECK(s.valid);
  CHECK(s.separation == doctest::Approx(1.0));
  DistanceInput deep = Input(MakeProxy(box), {}, MakeProxy(box), Transform{{1.5f, 0.0f}, {}});
  s = ShapeSeparation(deep);
  CHECK(s.separation == doctest::Approx(-0.5));
  CHECK(test::Near(s.normal, {1, 0}, 1e-6f));
}

TEST_CASE("EPA on two 64-gons (many iterations) matches the SAT oracle") {
  test::Rng rng(21);
  Polygon big = MakeRegularPolygon(64, 1.0f).value;
  for (int i = 0; i < 500; ++i) {
    Transform xfB{0.8f * rng.InBox(1.0f), MakeRot(rng.Uniform(-3.0f, 3.0f))};
    DistanceInput in = Input(MakeProxy(big), Transform{{0, 0}, MakeRot(0.3f)}, MakeProxy(big), xfB);
    CheckPenetration(in, ShapePenetration(in), 2.0);
  }
}

TEST_CASE("the SAT fallback on its own matches the oracle for polygons and capsules and segments") {
  // EPA practically never fails, so the fallback is called directly (engine internals, A's frame).
  test::Rng rng(23);
  for (int i = 0; i < 3000; ++i) {
    Kind kb = i % 3 == 0 ? Kind::SharpPolygon : (i % 3 == 1 ? Kind::Capsule : Kind::Segment);
    TestShape a = oracle::RandomShape(rng, Kind::SharpPolygon, 0.5f, 2.0f);
    TestShape b = oracle::RandomShape(rng, kb, 0.5f, 2.0f);
    Transform xfA{rng.InBox(2.0f), MakeRot(rng.Uniform(-3.0f, 3.0f))};
    Transform xfB{xfA.p + 0.5f * a.size * rng.InBox(1.0f), MakeRot(rng.Uniform(-3.0f, 3.0f))};
    DistanceInput in = Input(a.Proxy(), xfA, b.Proxy(), xfB);
    oracle::WorldShape wa = oracle::Place(in.proxyA, xfA);
    oracle::WorldShape wb = oracle::Place(in.proxyB, xfB);
    if (oracle::CoreDistance(wa, wb) > 0.0) continue;
    detail::LocalPenetration sat = detail::RunSat(detail::MakeLocalPair(in));
    CHECK(sat.status == PenetrationStatus::SatFallback);
    // Oracle over both sides of 2-point cores: PolygonPenetration only takes outward polygon
    // normals, so for a segment B compare with the two-sided minimum computed here.
    double exact = oracle::PolygonPenetration(wa, wb);
    if (wb.points.size() == 2) {
      oracle::WorldShape flipped = wb;
      std::swap(flipped.points[0], flipped.points[1]);
      exact = std::min(exact, oracle::PolygonPenetration(wa, flipped));
    }
    CHECK(sat.depth == doctest::Approx(exact).epsilon(1e-4).scale(1.0));
    PenetrationOutput epa = ShapePenetration(in);
    CHECK(epa.coreDepth == doctest::Approx(sat.depth).epsilon(1e-4).scale(1.0));
  }
}

}  // TEST_SUITE("narrowphase.epa")
