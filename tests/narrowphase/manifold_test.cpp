// SPDX-License-Identifier: MIT
// Manifolds against analytic answers: resting boxes, vertex-face, edge-edge, curved shapes, the
// pair table's symmetry, feature-id stability and bad input.
#include "minkowski/manifold.h"

#include "minkowski/assert.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace mk;

namespace {

constexpr float kTol = 1e-5f;

Polygon Box(float hx, float hy) { return MakeBox(hx, hy).value; }

// Index of the manifold point nearest to `p`, for order-independent comparisons.
int Nearest(const Manifold& m, Vec2 p) {
  int best = 0;
  for (int k = 1; k < m.pointCount; ++k)
    if (Distance(m.points[k].point, p) < Distance(m.points[best].point, p)) best = k;
  return best;
}

// Expects a point at `p` with separation `s`.
void CheckPoint(const Manifold& m, Vec2 p, float s, float tol = kTol) {
  REQUIRE(m.pointCount > 0);
  const ManifoldPoint& mp = m.points[Nearest(m, p)];
  CHECK(test::Near(mp.point, p, tol));
  CHECK(std::fabs(mp.separation - s) <= tol);
}

std::vector<FeatureId> SortedIds(const Manifold& m) {
  std::vector<FeatureId> ids;
  for (int k = 0; k < m.pointCount; ++k) ids.push_back(m.points[k].id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Swapping A and B negates the normal, keeps the points and separations, swaps the anchors and
// flips the ids.
void CheckSwapSymmetric(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                        const Transform& xfB) {
  Manifold ab = Collide(a, xfA, b, xfB, nullptr);
  Manifold ba = Collide(b, xfB, a, xfA, nullptr);
  REQUIRE(ab.pointCount == ba.pointCount);
  CHECK(test::Near(ab.normal, -ba.normal, kTol));
  for (int k = 0; k < ab.pointCount; ++k) {
    const ManifoldPoint& p = ab.points[k];
    const ManifoldPoint& q = ba.points[Nearest(ba, p.point)];
    CHECK(test::Near(p.point, q.point, kTol));
    CHECK(std::fabs(p.separation - q.separation) <= kTol);
    CHECK(test::Near(p.anchorA, q.anchorB, kTol));
    CHECK(p.id == FlipFeatureId(q.id));
  }
}

// Feature ids under many small perturbations of B (up to 1 mm and 0.01 rad) equal the unperturbed ids.
void CheckIdsStable(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                    const Transform& xfB, int expectedCount) {
  Manifold base = Collide(a, xfA, b, xfB, nullptr);
  REQUIRE(base.pointCount == expectedCount);
  std::vector<FeatureId> ids = SortedIds(base);
  test::Rng rng(7);
  int mismatches = 0;
  for (int trial = 0; trial < 500; ++trial) {
    Transform xf = xfB;
    xf.p += Vec2{rng.Uniform(-1e-3f, 1e-3f), rng.Uniform(-1e-3f, 1e-3f)};
    xf.q = MulRot(MakeRot(rng.Uniform(-0.01f, 0.01f)), xfB.q);
    Manifold m = Collide(a, xfA, b, xf, nullptr);
    if (m.pointCount != expectedCount || SortedIds(m) != ids) ++mismatches;
  }
  CHECK(mismatches == 0);
}

}  // namespace

TEST_SUITE("narrowphase.manifold") {

TEST_CASE("a box resting flat on a box gives two points with normal +y and zero separation") {
  Polygon ground = Box(2.0f, 0.5f);
  Polygon box = Box(0.5f, 0.5f);
  Transform xfA{};
  Transform xfB{{0.3f, 1.0f}, {}};
  Manifold m = Collide(ground, xfA, box, xfB, nullptr);
  REQUIRE(m.pointCount == 2);
  CHECK(test::Near(m.normal, {0.0f, 1.0f}, kTol));
  CheckPoint(m, {-0.2f, 0.5f}, 0.0f);
  CheckPoint(m, {0.8f, 0.5f}, 0.0f);
  CHECK(m.points[0].id != m.points[1].id);
  for (int k = 0; k < 2; ++k) {
    // Ids name each end by its vertex pair: a vertex of the ground's top edge (2 or 3) and one of
    // the box's bottom vertices (0 or 1).
    CHECK((FeatureOfA(m.points[k].id) & kFeatureEdge) == 0);
    CHECK((FeatureOfA(m.points[k].id) == 2 || FeatureOfA(m.points[k].id) == 3));
    CHECK((FeatureOfB(m.points[k].id) == 0 || FeatureOfB(m.points[k].id) == 1));
    CHECK(test::Near(m.points[k].anchorA, m.points[k].point - xfA.p, kTol));
    CHECK(test::Near(m.points[k].anchorB, m.points[k].point - xfB.p, kTol));
    CHECK(m.points[k].normalImpulse == 0.0f);
    CHECK(m.points[k].tangentImpulse == 0.0f);
  }
  CheckSwapSymmetric(ground, xfA, box, xfB);
}

TEST_CASE("a rotated box on the ground touches with its lowest corner") {
  Polygon ground = Box(3.0f, 0.5f);
  Polygon box = Box(0.5f, 0.5f);
  const float angle = 0.3f;
  const float depth = 0.01f;
  float s = std::sin(angle), c = std::cos(angle);
  // The lowest corner is local (-0.5, -0.5): its height below the centre is 0.5 (sin + cos).
  Vec2 center{0.2f, 0.5f + 0.5f * (s + c) - depth};
  Transform xfB = MakeTransform(center, angle);
  Vec2 corner = TransformPoint(xfB, {-0.5f, -0.5f});
  Manifold m = Collide(ground, Transform{}, box, xfB, nullptr);
  // The other bottom corner is sin(angle) - depth = 0.29 m up: beyond the speculative distance.
  REQUIRE(m.pointCount == 1);
  CHECK(test::Near(m.normal, {0.0f, 1.0f}, kTol));
  CheckPoint(m, {corner.x, 0.5f - 0.5f * depth}, -depth);
  CheckSwapSymmetric(ground, Transform{}, box, xfB);

  SUBCASE("a slightly rotated box keeps both bottom corners as speculative points") {
    const float small = 0.01f;
    Transform xf = MakeTransform({0.2f, 0.5f + 0.5f * (std::sin(small) + std::cos(small))}, small);
    Manifold m2 = Collide(ground, Transform{}, box, xf, nullptr);
    REQUIRE(m2.pointCount == 2);
    Vec2 low = TransformPoint(xf, {-0.5f, -0.5f});
    Vec2 high = TransformPoint(xf, {0.5f, -0.5f});
    float highSep = high.y - 0.5f;  // = sin(0.01) = 0.01 m
    CheckPoint(m2, {low.x, 0.5f}, 0.0f);
    CheckPoint(m2, {high.x, 0.5f + 0.5f * highSep}, highSep);
  }
}

TEST_CASE("vertex against face: a triangle's apex below a box makes one point with the reference face on B") {
  Polygon triangle = MakePolygon(std::vector<Vec2>{{-0.5f, -0.6f}, {0.5f, -0.6f}, {0.1f, 0.0f}}).value;
  Polygon box = Box(1.0f, 0.25f);
  for (float gap : {0.005f, -0.005f}) {
    CAPTURE(gap);
    Transform xfB{{0.0f, 0.25f + gap}, {}};
    Manifold m = Collide(triangle, Transform{}, box, xfB, nullptr);
    REQUIRE(m.pointCount == 1);
    CHECK(test::Near(m.normal, {0.0f, 1.0f}, kTol));
    CheckPoint(m, {0.1f, 0.5f * gap}, gap);
    // A's feature is the apex vertex (index 2 of the hull), B's a vertex of its bottom edge.
    CHECK(FeatureOfA(m.points[0].id) == 2);
    CHECK((FeatureOfB(m.points[0].id) & kFeatureEdge) == 0);
    CheckSwapSymmetric(triangle, Transform{}, box, xfB);
  }
}

TEST_CASE("parallel edges overlapping in part give the two ends of the common interval") {
  Polygon box = Box(0.5f, 0.5f);
  for (float gap : {0.01f, 0.0f, -0.01f}) {
    CAPTURE(gap);
    Transform xfB{{0.6f, 1.0f + gap}, {}};
    Manifold m = Collide(box, Transform{}, box, xfB, nullptr);
    REQUIRE(m.pointCount == 2);
    CHECK(test::Near(m.normal, {0.0f, 1.0f}, kTol));
    CheckPoint(m, {0.1f, 0.5f + 0.5f * gap}, gap);
    CheckPoint(m, {0.5f, 0.5f + 0.5f * gap}, gap);
    // One point is B's corner on A's edge, the other A's corner on B's edge.
    std::vector<FeatureId> ids = SortedIds(m);
    CHECK(ids[0] != ids[1]);
    CheckSwapSymmetric(box, Transform{}, box, xfB);
  }
  SUBCASE("side by side: the normal is (1, 0)") {
    Transform xfB{{1.0f + 0.004f, 0.3f}, {}};
    Manifold m = Collide(box, Transform{}, box, xfB, nullptr);
    REQUIRE(m.pointCount == 2);
    CHECK(test::Near(m.normal, {1.0f, 0.0f}, kTol));
    CheckPoint(m, {0.502f, -0.2f}, 0.004f);
    CheckPoint(m, {0.502f, 0.5f}, 0.004f);
  }
}

TEST_CASE("shapes farther apart than the speculative distance give no points") {
  Polygon box = Box(0.5f, 0.5f);
  Manifold m = Collide(box, Transform{}, box, Transform{{0.0f, 1.021f}, {}}, nullptr);
  CHECK(m.pointCount == 0);
  ManifoldSettings wide{.speculativeDistance = 0.05f};
  m = Collide(box, Transform{}, box, Transform{{0.0f, 1.021f}, {}}, nullptr, wide);
  CHECK(m.pointCount == 2);
}

TEST_CASE("a circle on a box: one point midway with the exact separation") {
  Polygon box = Box(1.0f, 0.5f);
  Circle circle{{0.0f, 0.0f}, 0.25f};
  for (float gap : {0.01f, 0.0f, -0.03f}) {
    CAPTURE(gap);
    Transform xfB{{0.3f, 0.75f + gap}, {}};
    Manifold m = Collide(box, Transform{}, circle, xfB, nullptr);
    REQUIRE(m.pointCount == 1);
    CHECK(test::Near(m.normal, {0.0f, 1.0f}, kTol));
    CheckPoint(m, {0.3f, 0.5f + 0.5f * gap}, gap);
    CheckSwapSymmetric(box, Transform{}, circle, xfB);
  }
  SUBCASE("near a corner the normal points from the corner to the centre") {
    Vec2 dir = Normalize(Vec2{1.0f, 1.0f});
    Transform xfB{Vec2{1.0f, 0.5f} + (0.25f + 0.01f) * dir, {}};
    Manifold m = Collide(box, Transform{}, circle, xfB, nullptr);
    REQUIRE(m.pointCount == 1);
    CHECK(test::Near(m.normal, dir, kTol));
    CheckPoint(m, Vec2{1.0f, 0.5f} + 0.005f * dir, 0.01f);
  }
}

TEST_CASE("circles: analytic point and normal") {
  Circle a{{0.1f, 0.0f}, 0.5f};
  Circle b{{0.0f, 0.0f}, 0.3f};
  Transform xfB{{0.1f + 0.6f, 0.8f}, {}};  // centre distance 1.0, separation 0.2
  Manifold m = Collide(a, Transform{}, b, xfB, nullptr, {.speculativeDistance = 0.3f});
  REQUIRE(m.pointCount == 1);
  CHECK(test::Near(m.normal, {0.6f, 0.8f}, kTol));
  CheckPoint(m, Vec2{0.1f, 0.0f} + 0.6f * Vec2{0.6f, 0.8f}, 0.2f);
  CHECK(Collide(a, Transform{}, b, xfB, nullptr).pointCount == 0);
}

TEST_CASE("a capsule lying on a box gives two points at its segment ends") {
  Polygon box = Box(1.0f, 0.5f);
  Capsule capsule{{-0.4f, 0.0f}, {0.4f, 0.0f}, 0.2f};
  for (float gap : {0.015f, -0.01f}) {
    CAPTURE(gap);
    Transform xfB{{0.1f, 0.7f + gap}, {}};
    Manifold m = Collide(box, Transform{}, capsule, xfB, nullptr);
    REQUIRE(m.pointCount == 2);
    CHECK(test::Near(m.normal, {0.0f, 1.0f}, kTol));
    CheckPoint(m, {-0.3f, 0.5f + 0.5f * gap}, gap);
    CheckPoint(m, {0.5f, 0.5f + 0.5f * gap}, gap);
    CheckSwapSymmetric(box, Transform{}, capsule, xfB);
  }
}

TEST_CASE("a capsule lying on a capsule: two points clipped at the lower capsule's end") {
  Capsule lower{{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.3f};
  Capsule upper{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.2f};
  for (float gap : {0.01f, -0.02f}) {
    CAPTURE(gap);
    Transform xfB{{0.8f, 0.5f + gap}, {}};
    Manifold m = Collide(lower, Transform{}, upper, xfB, nullptr);
    REQUIRE(m.pointCount == 2);
    CHECK(test::Near(m.normal, {0.0f, 1.0f}, kTol));
    CheckPoint(m, {0.3f, 0.3f + 0.5f * gap}, gap);
    CheckPoint(m, {1.0f, 0.3f + 0.5f * gap}, gap);
    CheckSwapSymmetric(lower, Transform{}, upper, xfB);
  }
  SUBCASE("crossed at a right angle: one point") {
    Capsule vertical{{0.0f, -0.5f}, {0.0f, 0.5f}, 0.2f};
    Transform xfB{{0.3f, 1.0f + 0.01f}, {}};
    Manifold m = Collide(lower, Transform{}, vertical, xfB, nullptr);
    REQUIRE(m.pointCount == 1);
    CHECK(test::Near(m.normal, {0.0f, 1.0f}, kTol));
    CheckPoint(m, {0.3f, 0.305f}, 0.01f);
  }
}

TEST_CASE("rounded boxes: flat contact on the rounded faces and one exact point corner to corner") {
  Polygon lower = MakeRoundedBox(1.0f, 0.4f, 0.1f).value;  // outer top at y = 0.5
  Polygon upper = MakeRoundedBox(0.4f, 0.3f, 0.1f).value;
  for (float gap : {0.01f, -0.01f}) {
    CAPTURE(gap);
    Transform xfB{{0.2f, 0.9f + gap}, {}};
    Manifold m = Collide(lower, Transform{}, upper, xfB, nullptr);
    REQUIRE(m.pointCount == 2);
    CHECK(test::Near(m.normal, {0.0f, 1.0f}, kTol));
    CheckPoint(m, {-0.2f, 0.5f + 0.5f * gap}, gap);
    CheckPoint(m, {0.6f, 0.5f + 0.5f * gap}, gap);
    CheckSwapSymmetric(lower, Transform{}, upper, xfB);
  }
  SUBCASE("corner to corner") {
    Vec2 dir = Normalize(Vec2{1.0f, 1.0f});
    const float coreGap = 0.21f;  // surface gap 0.21 - 2 x 0.1 = 0.01
    Vec2 cornerA{1.0f, 0.4f};
    Transform xfB{cornerA + coreGap * dir + Vec2{0.4f, 0.3f}, {}};
    Manifold m = Collide(lower, Transform{}, upper, xfB, nullptr);
    REQUIRE(m.pointCount == 1);
    CHECK(test::Near(m.normal, dir, kTol));
    CheckPoint(m, cornerA + 0.5f * coreGap * dir, 0.01f);
    CheckSwapSymmetric(lower, Transform{}, upper, xfB);
  }
}

TEST_CASE("segments against polygons and circles") {
  Segment ground{{-2.0f, 0.0f}, {2.0f, 0.0f}};
  Polygon box = Box(0.5f, 0.25f);
  Transform xfB{{0.5f, 0.25f + 0.005f}, {}};
  Manifold m = Collide(ground, Transform{}, box, xfB, nullptr);
  REQUIRE(m.pointCount == 2);
  CHECK(test::Near(m.normal, {0.0f, 1.0f}, kTol));
  CheckPoint(m, {0.0f, 0.0025f}, 0.005f);
  CheckPoint(m, {1.0f, 0.0025f}, 0.005f);
  CheckSwapSymmetric(ground, Transform{}, box, xfB);
  // A circle below the segment: the segment's other side.
  Circle ball{{0.0f, 0.0f}, 0.1f};
  Manifold below = Collide(ground, Transform{}, ball, Transform{{-1.0f, -0.11f}, {}}, nullptr);
  REQUIRE(below.pointCount == 1);
  CHECK(test::Near(below.normal, {0.0f, -1.0f}, kTol));
  CheckPoint(below, {-1.0f, -0.005f}, 0.01f);
}

TEST_CASE("feature ids stay the same under 1 mm / 0.01 rad perturbations of resting contacts") {
  Polygon ground = Box(5.0f, 0.5f);
  Polygon box = Box(0.5f, 0.5f);
  SUBCASE("box on ground") { CheckIdsStable(ground, Transform{}, box, Transform{{0.3f, 1.0f}, {}}, 2); }
  SUBCASE("box on tilted ground") {
    Transform xfA = MakeTransform({0.0f, 0.0f}, 0.2f);
    Transform xfB{TransformPoint(xfA, {0.7f, 1.0f}), xfA.q};
    CheckIdsStable(ground, xfA, box, xfB, 2);
  }
  SUBCASE("rounded box on box") {
    Polygon rounded = MakeRoundedBox(0.4f, 0.4f, 0.1f).value;
    CheckIdsStable(ground, Transform{}, rounded, Transform{{-1.0f, 1.0f}, {}}, 2);
  }
  SUBCASE("capsule on box") {
    Capsule capsule{{-0.6f, 0.0f}, {0.6f, 0.0f}, 0.2f};
    CheckIdsStable(ground, Transform{}, capsule, Transform{{0.0f, 0.7f}, {}}, 2);
  }
  SUBCASE("circle on box") {
    Circle circle{{0.0f, 0.0f}, 0.3f};
    CheckIdsStable(ground, Transform{}, circle, Transform{{2.0f, 0.8f}, {}}, 1);
  }
  SUBCASE("box on capsule") {
    Capsule log{{-2.0f, 0.0f}, {2.0f, 0.0f}, 0.5f};
    CheckIdsStable(log, Transform{}, box, Transform{{0.5f, 1.0f}, {}}, 2);
  }
  SUBCASE("rotated box resting on its corner") {
    // Corner (-0.5, -0.5) on the ground's top (y = 0.5); the other bottom corner is sin(0.3) = 0.30 m
    // higher, far beyond the speculative distance under any of the perturbations.
    const float angle = 0.3f;
    Vec2 center{0.2f, 0.5f + 0.5f * (std::sin(angle) + std::cos(angle))};
    CheckIdsStable(ground, Transform{}, box, MakeTransform(center, angle), 1);
  }
  SUBCASE("capsule lying on capsule") {
    Capsule lower{{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.3f};
    Capsule upper{{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.2f};
    CheckIdsStable(lower, Transform{}, upper, Transform{{0.2f, 0.5f}, {}}, 2);
  }
  SUBCASE("box on segment") {
    Segment floor{{-3.0f, 0.0f}, {3.0f, 0.0f}};
    CheckIdsStable(floor, Transform{}, box, Transform{{0.4f, 0.5f}, {}}, 2);
  }
}

TEST_CASE("the pair table has an entry for every pair and none for invalid types") {
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      CHECK((GetCollideFunction(static_cast<ShapeType>(a), static_cast<ShapeType>(b)) != CollideFunction{}));
  CHECK((GetCollideFunction(ShapeType::Count, ShapeType::Circle) == CollideFunction{}));
  CHECK((GetCollideFunction(ShapeType::Polygon, ShapeType::Count) == CollideFunction{}));
}

TEST_CASE("bad input gives an empty manifold and reports an assert but never crashes") {
  static int asserts = 0;
  AssertHandler previous = SetAssertHandler([](const char*, const char*, int) { ++asserts; });
  Polygon box = Box(0.5f, 0.5f);
  Transform near{{0.0f, 1.0f}, {}};
  const float nan = std::nanf("");
  const float inf = INFINITY;
  int expected = 0;
  auto check = [&](const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b, const Transform& xfB,
                   const ManifoldSettings& settings) {
    Manifold m = Collide(a, xfA, b, xfB, nullptr, settings);
    CHECK(m.pointCount == 0);
    CHECK(asserts == ++expected);
  };
  check(box, Transform{{nan, 0.0f}, {}}, box, near, {});
  check(box, Transform{}, box, Transform{{0.0f, 1.0f}, {nan, 0.0f}}, {});
  check(box, Transform{}, box, Transform{{inf, 1.0f}, {}}, {});
  ShapeGeometry invalid;  // type Count
  check(invalid, Transform{}, box, near, {});
  Polygon tooMany = box;  // more vertices than a Polygon holds: the geometry is invalid (type Count)
  tooMany.count = kMaxPolygonVertices + 1;
  check(box, Transform{}, tooMany, near, {});
  Polygon negative = box;
  negative.count = -3;
  check(negative, Transform{}, box, near, {});
  Polygon twoPoints = box;  // a polygon's core needs 3 points
  twoPoints.count = 2;
  check(twoPoints, Transform{}, box, near, {});
  Polygon empty;  // count 0
  check(empty, Transform{}, box, near, {});
  check(box, Transform{}, box, near, {.speculativeDistance = -1.0f});
  check(box, Transform{}, box, near, {.speculativeDistance = nan});
  SetAssertHandler(previous);
  // Valid input does not assert.
  Manifold ok = Collide(box, Transform{}, box, near, nullptr);
  CHECK(ok.pointCount == 2);
  CHECK(asserts == expected);
}

}  // TEST_SUITE("narrowphase.manifold")
