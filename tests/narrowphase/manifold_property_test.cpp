// SPDX-License-Identifier: MIT
// Manifold properties on random pairs of every type pair, against the brute-force oracle in
// oracle.h (the GJK tests' double-precision oracle, shared read-only): unit normal, at most 2 points, and the
// deepest point's separation equal to the exact signed distance (separated cores) or the exact SAT
// penetration (overlapping polygons).
#include "minkowski/manifold.h"
#include "narrowphase/manifold_internal.h"
#include "narrowphase/oracle.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <vector>

using namespace mk;

namespace {

// Separations come from float geometry on coordinates of a few metres: 2e-5 m covers the rounding.
constexpr double kSeparationTol = 2e-5;
// The engine picks A's face as reference unless B's separates by more than 1e-4 m (so parallel faces
// do not flicker, kReferenceTolerance in manifold_internal.h); the deepest point can then be short of the
// exact SAT value by up to that much. A designed bound, not float noise.
constexpr double kSatTol = 1e-4 + kSeparationTol;
// Cores closer than 1e-4 m take the SAT branch (kCoreOverlapDistance, manifold_internal.h), where a
// vertex-vertex pair gets a face axis: exactness is promised only beyond that.
constexpr double kExactBeyond = 2e-4;

// A random shape of the given type; `sharp` forces a polygon's radius to 0 (the draws stay the same).
ShapeGeometry RandomShape(test::Rng& rng, ShapeType type, bool sharp = false) {
  ShapeGeometry s;
  Vec2 p1 = rng.InBox(0.4f);
  Vec2 p2 = p1 + rng.Uniform(0.1f, 1.2f) * rng.Direction();
  switch (type) {
    case ShapeType::Circle:
      s = Circle{rng.InBox(0.2f), rng.LogUniform(0.05f, 0.6f)};
      break;
    case ShapeType::Capsule:
      s = Capsule{p1, p2, rng.Uniform(0.02f, 0.4f)};
      break;
    case ShapeType::Segment:
      s = Segment{p1, p2};
      break;
    default:
      for (;;) {
        int count = rng.Int(3, 8);
        std::vector<Vec2> ring(count);
        float size = rng.Uniform(0.2f, 1.0f);
        for (int i = 0; i < count; ++i) {
          double a = 2.0 * std::numbers::pi * (i + 0.45 * rng.Unit()) / count;
          float r = size * rng.Uniform(0.6f, 1.0f);
          ring[i] = {static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))};
        }
        float radius = rng.Int(0, 1) == 0 ? 0.0f : rng.Uniform(0.02f, 0.15f);
        GeometryResult<Polygon> p = MakePolygon(ring, sharp ? 0.0f : radius);
        if (p.ok()) {
          s = p.value;
          break;
        }
      }
  }
  return s;
}

// A random pose for A within `box` of the origin and one for B up to `reach` (metres) from A's
// centre, both turned by up to `angle` radians either way.
struct Poses {
  Transform xfA, xfB;
};
Poses RandomPoses(test::Rng& rng, float reach, float box = 1.0f, float angle = 3.0f) {
  Poses p;
  p.xfA = MakeTransform(rng.InBox(box), rng.Uniform(-angle, angle));
  p.xfB = MakeTransform(p.xfA.p + rng.Uniform(0.0f, reach) * rng.Direction(), rng.Uniform(-angle, angle));
  return p;
}

struct Stats {
  int separated = 0;
  int overlappingPolygons = 0;
  int overlappingOther = 0;
};

// Random placements of random shapes of the given types, kept when within `margin`.
void RunPairs(ShapeType typeA, ShapeType typeB, int wanted, std::uint64_t seed,
              const ManifoldSettings& settings, Stats& stats) {
  test::Rng rng(seed);
  const double margin = settings.speculativeDistance;
  int kept = 0;
  for (int attempt = 0; kept < wanted && attempt < 200 * wanted; ++attempt) {
    ShapeGeometry a = RandomShape(rng, typeA);
    ShapeGeometry b = RandomShape(rng, typeB);
    auto [xfA, xfB] = RandomPoses(rng, 2.0f, 1.0f, 3.2f);
    oracle::WorldShape oa = oracle::Place(MakeProxy(a), xfA);
    oracle::WorldShape ob = oracle::Place(MakeProxy(b), xfB);
    double coreDistance = oracle::CoreDistance(oa, ob);
    double distance = coreDistance - oa.radius - ob.radius;
    if (distance > margin) continue;
    ++kept;
    Manifold m = Collide(a, xfA, b, xfB, nullptr, settings);
    CAPTURE(kept);
    CAPTURE(coreDistance);
    CAPTURE(distance);
    // Every pair within the margin (less a hair for rounding) must make contact.
    if (distance < margin - 1e-5) REQUIRE(m.pointCount >= 1);
    REQUIRE(m.pointCount <= 2);
    if (m.pointCount == 0) continue;
    CHECK(std::fabs(Length(m.normal) - 1.0f) <= 1e-5f);
    double minSeparation = 1e300;
    for (int k = 0; k < m.pointCount; ++k) {
      REQUIRE(IsFinite(m.points[k].point));
      minSeparation = std::min(minSeparation, static_cast<double>(m.points[k].separation));
      CHECK(m.points[k].separation <= margin + kSeparationTol);
    }
    CAPTURE(minSeparation);
    bool polygons = typeA == ShapeType::Polygon && typeB == ShapeType::Polygon;
    if (coreDistance > kExactBeyond) {
      ++stats.separated;
      // Both methods are exact here (SAT hands vertex-vertex pairs to GJK).
      CHECK(std::fabs(minSeparation - distance) <= kSeparationTol);
    } else if (coreDistance == 0.0 && polygons) {
      ++stats.overlappingPolygons;
      double exact = -oracle::PolygonPenetration(oa, ob) - oa.radius - ob.radius;
      CHECK(std::fabs(minSeparation - exact) <= kSatTol);
    } else if (coreDistance == 0.0) {
      ++stats.overlappingOther;
      // Overlapping cores: the surfaces overlap by at least the two radii.
      CHECK(minSeparation <= -(oa.radius + ob.radius) + kSeparationTol);
    }
  }
  CHECK(kept == wanted);
}

// Every type pair, `perPair` kept placements each, checking that every branch was exercised.
void RunAllTypePairs(int perPair, std::uint64_t seed, int minSeparated, int minOverlapping) {
  Stats stats;
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      CAPTURE(a);
      CAPTURE(b);
      RunPairs(static_cast<ShapeType>(a), static_cast<ShapeType>(b), perPair, seed + 10 * a + b, {}, stats);
    }
  }
  CHECK(stats.separated > minSeparated);
  CHECK(stats.overlappingPolygons > minOverlapping);
  CHECK(stats.overlappingOther > minOverlapping);
}

}  // namespace

TEST_SUITE("narrowphase.manifold") {

TEST_CASE("random pairs of every type pair: unit normal and <= 2 points and exact deepest separation" *
          doctest::test_suite("long")) {
  RunAllTypePairs(1500, 1000, 10000, 200);
}

TEST_CASE("random pairs of every type pair: a short run for the sanitizer pass") {
  RunAllTypePairs(40, 7000, 250, 5);
}

TEST_CASE("SAT method on polygon and capsule pairs: the same exact separations" *
          doctest::test_suite("long")) {
  Stats stats;
  ManifoldSettings sat{.method = ManifoldMethod::Sat};
  RunPairs(ShapeType::Polygon, ShapeType::Polygon, 4000, 4242, sat, stats);
  RunPairs(ShapeType::Polygon, ShapeType::Capsule, 1000, 4343, sat, stats);
  RunPairs(ShapeType::Capsule, ShapeType::Segment, 1000, 4444, sat, stats);
  CHECK(stats.overlappingPolygons > 500);
  CHECK(stats.separated > 1000);
}

TEST_CASE("GJK method on every type pair: the same exact separations" * doctest::test_suite("long")) {
  // The default (Auto) answers cold polygon-like pairs by SAT; this runs the GJK-only path on them.
  Stats stats;
  ManifoldSettings gjk{.method = ManifoldMethod::Gjk};
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      CAPTURE(a);
      CAPTURE(b);
      RunPairs(static_cast<ShapeType>(a), static_cast<ShapeType>(b), 300, 9000 + 10 * a + b, gjk, stats);
    }
  }
  CHECK(stats.separated > 2000);
  CHECK(stats.overlappingPolygons > 50);
}

TEST_CASE("Auto seeds the cache from SAT: the next query is warm and agrees with the GJK method") {
  test::Rng rng(77);
  const ManifoldSettings gjk{.method = ManifoldMethod::Gjk};
  int contacts = 0, seededIterations = 0, coldIterations = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    ShapeType tb = rng.Int(0, 1) == 0 ? ShapeType::Polygon : ShapeType::Capsule;
    ShapeGeometry a = RandomShape(rng, ShapeType::Polygon);
    ShapeGeometry b = RandomShape(rng, tb);
    auto [xfA, xfB] = RandomPoses(rng, 2.0f);
    SimplexCache cache;
    Manifold cold = Collide(a, xfA, b, xfB, &cache);  // Auto, empty cache: SAT
    REQUIRE(cache.count >= 1);  // seeded (2 points) or, for a vertex-vertex pair, GJK's simplex
    // A small motion, then the warm query (GJK from the seed) against the GJK method run cold.
    xfB.p += rng.InBox(0.005f);
    xfB.q = MulRot(MakeRot(rng.Uniform(-0.01f, 0.01f)), xfB.q);
    Manifold warm = Collide(a, xfA, b, xfB, &cache);
    seededIterations += cache.iterations;
    SimplexCache fresh;
    Manifold reference = Collide(a, xfA, b, xfB, &fresh, gjk);
    coldIterations += fresh.iterations;
    REQUIRE(warm.pointCount == reference.pointCount);
    if (warm.pointCount == 0 || cold.pointCount == 0) continue;
    ++contacts;
    CHECK(test::Near(warm.normal, reference.normal, 1e-4f));
    for (int k = 0; k < warm.pointCount; ++k) {
      CHECK(std::fabs(warm.points[k].separation - reference.points[k].separation) <= 2e-5f);
      CHECK(warm.points[k].id == reference.points[k].id);
    }
  }
  CHECK(contacts > 300);
  // For pairs in contact the seed is usually GJK's terminal simplex already; pairs up to 2 m apart
  // are included, where it is only a start. Measured: 1,095 iterations against 4,193 cold.
  CHECK(seededIterations * 3 < coldIterations);
}

TEST_CASE("Auto sends overlapping cores straight to SAT and back to GJK once they part") {
  test::Rng rng(78);
  const ManifoldSettings gjk{.method = ManifoldMethod::Gjk};
  int overlapping = 0, parted = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    // Sharp, so that the cores themselves overlap.
    ShapeGeometry a = RandomShape(rng, ShapeType::Polygon, true);
    ShapeGeometry b = RandomShape(rng, ShapeType::Polygon, true);
    auto [xfA, xfB] = RandomPoses(rng, 0.3f);
    oracle::WorldShape oa = oracle::Place(MakeProxy(a), xfA);
    if (oracle::CoreDistance(oa, oracle::Place(MakeProxy(b), xfB)) > 0.0) continue;
    ++overlapping;
    SimplexCache cache;
    Collide(a, xfA, b, xfB, &cache);
    CHECK(cache.count == 3);  // the overlap marker
    // Still overlapping after a small motion: SAT again (no GJK iteration), the GJK method's answer.
    xfB.p += rng.InBox(0.002f);
    Manifold again = Collide(a, xfA, b, xfB, &cache);
    CHECK(cache.iterations == 0);
    Manifold reference = Collide(a, xfA, b, xfB, nullptr, gjk);
    REQUIRE(again.pointCount == reference.pointCount);
    CHECK(test::Near(again.normal, reference.normal, 1e-6f));
    for (int k = 0; k < again.pointCount; ++k) {
      CHECK(std::fabs(again.points[k].separation - reference.points[k].separation) <= 1e-6f);
      CHECK(again.points[k].id == reference.points[k].id);
    }
    // Pulled 3 m apart along the centre line: SAT finds the cores apart and seeds a pair for GJK.
    Vec2 away = xfB.p - xfA.p;
    xfB.p += (3.0f / std::max(Length(away), 1e-3f)) * away;
    if (oracle::CoreDistance(oa, oracle::Place(MakeProxy(b), xfB)) <= 0.0) continue;
    ++parted;
    Collide(a, xfA, b, xfB, &cache);
    CHECK(cache.count <= 2);
  }
  CHECK(overlapping > 300);
  CHECK(parted > 300);
}

// The typed function for a pair, called the way manifold.h documents the table: directly when one
// exists for (A, B), else for (B, A) and flipped. Written out here independently of kPairTable.
Manifold CollideTypedReference(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                               const Transform& xfB, SimplexCache* cache) {
  using T = ShapeType;
  auto flip = [&](const Manifold& m) { return FlipManifold(m); };
  const T ta = a.Type(), tb = b.Type();
  if (ta == T::Circle && tb == T::Circle) return CollideCircles(a.AsCircle(), xfA, b.AsCircle(), xfB);
  if (ta == T::Capsule && tb == T::Circle)
    return CollideCapsuleAndCircle(a.AsCapsule(), xfA, b.AsCircle(), xfB);
  if (ta == T::Circle && tb == T::Capsule)
    return flip(CollideCapsuleAndCircle(b.AsCapsule(), xfB, a.AsCircle(), xfA));
  if (ta == T::Segment && tb == T::Circle)
    return CollideSegmentAndCircle(a.AsSegment(), xfA, b.AsCircle(), xfB);
  if (ta == T::Circle && tb == T::Segment)
    return flip(CollideSegmentAndCircle(b.AsSegment(), xfB, a.AsCircle(), xfA));
  if (ta == T::Polygon && tb == T::Circle) {
    return CollidePolygonAndCircle(a.AsPolygon(), xfA, b.AsCircle(), xfB, cache);
  }
  if (ta == T::Circle && tb == T::Polygon) {
    return flip(CollidePolygonAndCircle(b.AsPolygon(), xfB, a.AsCircle(), xfA, cache));
  }
  if (ta == T::Capsule && tb == T::Capsule)
    return CollideCapsules(a.AsCapsule(), xfA, b.AsCapsule(), xfB, cache);
  if (ta == T::Segment && tb == T::Capsule) {
    return CollideSegmentAndCapsule(a.AsSegment(), xfA, b.AsCapsule(), xfB, cache);
  }
  if (ta == T::Capsule && tb == T::Segment) {
    return flip(CollideSegmentAndCapsule(b.AsSegment(), xfB, a.AsCapsule(), xfA, cache));
  }
  if (ta == T::Segment && tb == T::Segment)
    return CollideSegments(a.AsSegment(), xfA, b.AsSegment(), xfB, cache);
  if (ta == T::Polygon && tb == T::Capsule) {
    return CollidePolygonAndCapsule(a.AsPolygon(), xfA, b.AsCapsule(), xfB, cache);
  }
  if (ta == T::Capsule && tb == T::Polygon) {
    return flip(CollidePolygonAndCapsule(b.AsPolygon(), xfB, a.AsCapsule(), xfA, cache));
  }
  if (ta == T::Segment && tb == T::Polygon) {
    return CollideSegmentAndPolygon(a.AsSegment(), xfA, b.AsPolygon(), xfB, cache);
  }
  if (ta == T::Polygon && tb == T::Segment) {
    return flip(CollideSegmentAndPolygon(b.AsSegment(), xfB, a.AsPolygon(), xfA, cache));
  }
  return CollidePolygons(a.AsPolygon(), xfA, b.AsPolygon(), xfB, cache);
}

TEST_CASE("the pair table on geometries answers bit for bit like the typed functions") {
  // The world calls the table's entries on its ShapeGeometry; games may call the typed functions. The
  // two must agree exactly, swaps, caches and the circle shortcut included, for inline and
  // out-of-line (more than kInlinePoints vertices) polygons alike.
  test::Rng rng(123);
  int contacts = 0, large = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    ShapeGeometry a = RandomShape(rng, static_cast<ShapeType>(rng.Int(0, 3)));
    ShapeGeometry b = RandomShape(rng, static_cast<ShapeType>(rng.Int(0, 3)));
    if (trial % 10 == 0) {  // a polygon beyond the inline capacity
      a = MakeRegularPolygon(12 + rng.Int(0, 20), rng.Uniform(0.2f, 1.0f), rng.Uniform(0.0f, 0.1f)).value;
      ++large;
    }
    CHECK(a.IsInline() == (a.Count() <= ShapeGeometry::kInlinePoints));
    auto [xfA, xfB] = RandomPoses(rng, 2.0f);
    SimplexCache cacheTable, cacheTyped;
    for (int step = 0; step < 2; ++step) {  // cold, then warm from the caches each call left
      Manifold expected = CollideTypedReference(a, xfA, b, xfB, &cacheTyped);
      Manifold actual = GetCollideFunction(a.Type(), b.Type())(a, xfA, b, xfB, &cacheTable, {});
      REQUIRE(actual.pointCount == expected.pointCount);
      CHECK(actual.normal == expected.normal);
      for (int k = 0; k < actual.pointCount; ++k) {
        CHECK(actual.points[k].point == expected.points[k].point);
        CHECK(actual.points[k].anchorA == expected.points[k].anchorA);
        CHECK(actual.points[k].anchorB == expected.points[k].anchorB);
        CHECK(actual.points[k].separation == expected.points[k].separation);
        CHECK(actual.points[k].id == expected.points[k].id);
      }
      CHECK(cacheTable.count == cacheTyped.count);
      contacts += actual.pointCount > 0;
      xfB.p += rng.InBox(0.005f);
    }
  }
  CHECK(contacts > 2000);
  CHECK(large > 500);
}

TEST_CASE("the table's swapped entries are exact flips of the direct ones") {
  test::Rng rng(99);
  int contacts = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    ShapeType ta = static_cast<ShapeType>(rng.Int(0, 3));
    ShapeType tb = static_cast<ShapeType>(rng.Int(0, 3));
    if (ta == tb) continue;
    ShapeGeometry a = RandomShape(rng, ta);
    ShapeGeometry b = RandomShape(rng, tb);
    auto [xfA, xfB] = RandomPoses(rng, 1.5f);
    Manifold ab = Collide(a, xfA, b, xfB, nullptr);
    Manifold ba = FlipManifold(Collide(b, xfB, a, xfA, nullptr));
    REQUIRE(ab.pointCount == ba.pointCount);
    contacts += ab.pointCount > 0;
    if (ab.pointCount == 0) continue;
    CHECK(ab.normal == ba.normal);
    for (int k = 0; k < ab.pointCount; ++k) {
      CHECK(ab.points[k].point == ba.points[k].point);
      CHECK(ab.points[k].anchorA == ba.points[k].anchorA);
      CHECK(ab.points[k].anchorB == ba.points[k].anchorB);
      CHECK(ab.points[k].separation == ba.points[k].separation);
      CHECK(ab.points[k].id == ba.points[k].id);
    }
  }
  CHECK(contacts > 500);
}

TEST_CASE("the circle-circle shortcut equals the general path") {
  test::Rng rng(5);
  int contacts = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    Circle a{rng.InBox(0.3f), rng.LogUniform(0.05f, 1.0f)};
    Circle b{rng.InBox(0.3f), rng.LogUniform(0.05f, 1.0f)};
    auto [xfA, xfB] = RandomPoses(rng, 2.5f, 2.0f);
    Manifold fast = CollideCircles(a, xfA, b, xfB);
    Manifold general = CollideGeneral(MakeProxy(a), xfA, MakeProxy(b), xfB, nullptr);
    REQUIRE(fast.pointCount == general.pointCount);
    if (fast.pointCount == 0) continue;
    ++contacts;
    CHECK(test::Near(fast.normal, general.normal, 1e-5f));
    CHECK(test::Near(fast.points[0].point, general.points[0].point, 1e-5f));
    CHECK(test::Near(fast.points[0].anchorA, general.points[0].anchorA, 1e-5f));
    CHECK(test::Near(fast.points[0].anchorB, general.points[0].anchorB, 1e-5f));
    CHECK(std::fabs(fast.points[0].separation - general.points[0].separation) <= 1e-5f);
    CHECK(fast.points[0].id == general.points[0].id);
  }
  CHECK(contacts > 1000);
}

// The circle functions (CollideCoreAndCircle: the face of largest separation, then its ends) against
// the general path (GJK for a 1-point core): the same manifold to rounding. Where the two may name the
// feature differently by design (the general path calls a witness within a thousandth of an edge's
// length of its end a vertex, and cores closer than 1e-4 m take SAT), the normals still agree.
TEST_CASE("the shape-circle shortcut equals the general path for segments capsules and polygons") {
  test::Rng rng(77);
  int contacts = 0, differentIds = 0;
  for (ShapeType type : {ShapeType::Segment, ShapeType::Capsule, ShapeType::Polygon}) {
    for (int trial = 0; trial < 6000; ++trial) {
      ShapeGeometry a = RandomShape(rng, type);
      ShapeGeometry b = RandomShape(rng, ShapeType::Circle);
      auto [xfA, xfB] = RandomPoses(rng, 2.0f, 2.0f);
      const ManifoldSettings settings;
      Manifold fast = Collide(a, xfA, b, xfB, nullptr, settings);
      Manifold swapped = FlipManifold(Collide(b, xfB, a, xfA, nullptr, settings));
      Manifold general = CollideGeneral(MakeProxy(a), xfA, MakeProxy(b), xfB, nullptr, settings);
      // A pair at the speculative distance to rounding may have a point in one and not the other.
      const float near = fast.pointCount > 0 ? fast.points[0].separation
                                             : (general.pointCount > 0 ? general.points[0].separation : 1.0f);
      if (std::fabs(near - settings.speculativeDistance) < 1e-4f) continue;
      REQUIRE(fast.pointCount == general.pointCount);
      REQUIRE(swapped.pointCount == fast.pointCount);
      if (fast.pointCount == 0) continue;
      ++contacts;
      CHECK(fast.pointCount == 1);
      CHECK(std::fabs(fast.points[0].separation - general.points[0].separation) <= kSeparationTol);
      // The same feature: the same normal and point to rounding. Named otherwise (the boundary zones
      // above, where a vertex direction and a face normal are nearly the same): close.
      const bool sameFeature = fast.points[0].id == general.points[0].id;
      const float tolerance = sameFeature ? 1e-4f : 2e-3f;
      CHECK(test::Near(fast.normal, general.normal, tolerance));
      CHECK(test::Near(fast.points[0].point, general.points[0].point, tolerance));
      differentIds += !sameFeature;
      // The swapped entry is the same computation flipped.
      CHECK(swapped.normal == fast.normal);
      CHECK(swapped.points[0].point == fast.points[0].point);
      CHECK(swapped.points[0].id == fast.points[0].id);
    }
  }
  MESSAGE("contacts " << contacts << ", different ids " << differentIds);
  CHECK(contacts > 3000);
  CHECK(differentIds * 200 <= contacts);  // only in the boundary zones above
}

TEST_CASE("a warm simplex cache gives the same manifolds as a cold query") {
  test::Rng rng(31);
  int contacts = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    ShapeGeometry a = RandomShape(rng, ShapeType::Polygon);
    ShapeGeometry b = RandomShape(rng, ShapeType::Polygon);
    auto [xfA, xfB] = RandomPoses(rng, 2.0f);
    SimplexCache cache;
    Collide(a, xfA, b, xfB, &cache);
    // A small motion, then the warm query must match the cold one.
    xfB.p += rng.InBox(0.01f);
    xfB.q = MulRot(MakeRot(rng.Uniform(-0.02f, 0.02f)), xfB.q);
    Manifold warm = Collide(a, xfA, b, xfB, &cache);
    Manifold cold = Collide(a, xfA, b, xfB, nullptr);
    REQUIRE(warm.pointCount == cold.pointCount);
    if (warm.pointCount == 0) continue;
    ++contacts;
    CHECK(test::Near(warm.normal, cold.normal, 1e-4f));
    for (int k = 0; k < warm.pointCount; ++k) {
      CHECK(std::fabs(warm.points[k].separation - cold.points[k].separation) <= 2e-5f);
      CHECK(warm.points[k].id == cold.points[k].id);
    }
  }
  CHECK(contacts > 200);
}

}  // TEST_SUITE("narrowphase.manifold")
