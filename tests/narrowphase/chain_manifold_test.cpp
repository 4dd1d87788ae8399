// SPDX-License-Identifier: MIT
// Chain segment manifolds (ghost vertices, one-sidedness) against independent answers: at a flat
// vertex the two segments together are a flat floor (every normal the face normal, the deepest
// separation the shape's lowest point); at a convex vertex every normal lies in the vertex's cone and
// the deepest separation is the GJK distance to the solid corner; at a concave vertex only the two
// face normals appear; a shape whose centroid is behind gets nothing; the typed functions, Collide and
// the swapped table entries agree.
#include "minkowski/distance.h"
#include "minkowski/manifold.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace mk;

TEST_SUITE("chain_manifold") {
namespace {

// A random convex shape of size ~0.1..0.4 m: circle, capsule, box, rounded box or random polygon.
ShapeGeometry RandomShape(test::Rng& rng) {
  switch (rng.Int(0, 4)) {
    case 0:
      return Circle{{0.0f, 0.0f}, rng.Uniform(0.05f, 0.3f)};
    case 1:
      return Capsule{
          {-rng.Uniform(0.05f, 0.3f), 0.0f}, {rng.Uniform(0.05f, 0.3f), 0.0f}, rng.Uniform(0.05f, 0.2f)};
    case 2:
      return MakeBox(rng.Uniform(0.05f, 0.3f), rng.Uniform(0.05f, 0.3f)).value;
    case 3:
      return MakeRoundedBox(rng.Uniform(0.05f, 0.2f), rng.Uniform(0.05f, 0.2f), rng.Uniform(0.02f, 0.1f))
          .value;
    default: {
      std::vector<Vec2> cloud;
      for (int i = 0; i < 8; ++i) cloud.push_back(rng.InBox(0.3f));
      GeometryResult<Polygon> polygon = MakePolygon(cloud, rng.Int(0, 1) == 0 ? 0.0f : 0.05f);
      return polygon.ok() ? ShapeGeometry(polygon.value) : ShapeGeometry(MakeBox(0.2f, 0.1f).value);
    }
  }
}

// The lowest point of the shape (core point minus radius) under xf: its y.
float LowestY(const ShapeGeometry& shape, const Transform& xf) {
  float lowest = 1e30f;
  for (int i = 0; i < shape.Count(); ++i) lowest = std::fmin(lowest, TransformPoint(xf, shape.Points()[i]).y);
  return lowest - shape.Radius();
}

Vec2 CentroidOf(const ShapeGeometry& shape, const Transform& xf) {
  Vec2 sum{0.0f, 0.0f};
  for (int i = 0; i < shape.Count(); ++i) sum += shape.Points()[i];
  return TransformPoint(xf, (1.0f / static_cast<float>(shape.Count())) * sum);
}

// Two chain segments meeting at the origin: a from (1, 0) to (0, 0) (normal up), b from (0, 0) to `far`.
struct Corner {
  ChainSegment a, b;
};

Corner MakeCorner(Vec2 far) {
  Corner c;
  c.a = {{2.0f, 0.0f}, {{1.0f, 0.0f}, {0.0f, 0.0f}}, far};
  c.b = {{1.0f, 0.0f}, {{0.0f, 0.0f}, far}, far + (far - Vec2{0.0f, 0.0f})};
  return c;
}

// A random pose whose centroid is in front of both segments, near the vertex, with the lowest
// point within [lo, hi] of the floor y = 0 (flat case) — the caller filters further.
Transform RandomPose(test::Rng& rng, const ShapeGeometry& shape, float lo, float hi) {
  Transform xf{{rng.Uniform(-0.5f, 0.5f), 0.0f}, MakeRot(rng.Uniform(-3.14f, 3.14f))};
  xf.p.y = rng.Uniform(lo, hi) - LowestY(shape, xf);
  return xf;
}

struct Both {
  Manifold a, b;
};

Both CollideCorner(const Corner& c, const ShapeGeometry& shape, const Transform& xf) {
  const Transform identity{};
  return {Collide(ShapeGeometry(c.a), identity, shape, xf, nullptr),
          Collide(ShapeGeometry(c.b), identity, shape, xf, nullptr)};
}

float Deepest(const Both& m, Vec2* normal = nullptr) {
  float deepest = 1e30f;
  for (const Manifold* mf : {&m.a, &m.b}) {
    for (int k = 0; k < mf->pointCount; ++k) {
      if (mf->points[k].separation < deepest) {
        deepest = mf->points[k].separation;
        if (normal) *normal = mf->normal;
      }
    }
  }
  return deepest;
}

}  // namespace

TEST_CASE("at a flat vertex two chain segments are one flat floor: face normal only - exact separation") {
  test::Rng rng(91);
  const Corner corner = MakeCorner({-1.0f, 0.0f});
  int contacts = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const ShapeGeometry shape = RandomShape(rng);
    const Transform xf = RandomPose(rng, shape, -0.1f, 0.019f);
    if (CentroidOf(shape, xf).y <= 0.0f) continue;
    const Both m = CollideCorner(corner, shape, xf);
    CAPTURE(trial);
    for (const Manifold* mf : {&m.a, &m.b}) {
      if (mf->pointCount > 0) CHECK(Distance(mf->normal, Vec2{0.0f, 1.0f}) <= 1e-6f);
    }
    REQUIRE(m.a.pointCount + m.b.pointCount > 0);
    CHECK(std::fabs(Deepest(m) - LowestY(shape, xf)) <= 2e-5f);
    ++contacts;
  }
  CHECK(contacts > 10000);
}

// A face lying across a flat vertex is held by its own ends: the two segments' manifolds hold B's two
// bottom corners and no point at the vertex (chain_segment.cpp, DropFlatVertexPoints). Boxes of random
// width and pose across the vertex at the origin, flat or tilted by up to 0.01 rad, resting or
// hovering within the speculative margin; the answer is analytic: the corners' x, and every point's
// distance from the vertex at least the corner's.
TEST_CASE("a box lying across a flat vertex is held by its two corners and no point at the vertex") {
  test::Rng rng(0xF1A7);
  const Corner corner = MakeCorner({-1.0f, 0.0f});
  for (int trial = 0; trial < 2000; ++trial) {
    const float halfWidth = rng.Uniform(0.05f, 0.4f);
    const float offset = rng.Uniform(-0.8f, 0.8f) * halfWidth;  // the vertex inside the bottom face
    const float angle = rng.Uniform(-0.01f, 0.01f);
    const ShapeGeometry box = MakeBox(halfWidth, 0.2f).value;
    Transform xf{{offset, 0.0f}, MakeRot(angle)};
    xf.p.y = rng.Uniform(-0.004f, 0.004f) - LowestY(box, xf);
    CAPTURE(trial);
    const Both m = CollideCorner(corner, box, xf);
    const Vec2 left = TransformPoint(xf, {-halfWidth, -0.2f}), right = TransformPoint(xf, {halfWidth, -0.2f});
    int points = 0;
    for (const Manifold* mf : {&m.a, &m.b}) {
      for (int k = 0; k < mf->pointCount; ++k) {
        const float x = mf->points[k].point.x;
        CHECK(std::fmin(std::fabs(x - left.x), std::fabs(x - right.x)) <= 1e-4f);
        ++points;
      }
    }
    CHECK(points == 2);
    CHECK(std::fabs(Deepest(m) - LowestY(box, xf)) <= 2e-5f);
  }
}

TEST_CASE(
    "at a convex vertex every normal lies in the vertex's cone / the deepest separation is the distance") {
  test::Rng rng(92);
  const Corner corner = MakeCorner({-1.0f, -1.0f});  // the floor turns down-left: convex
  const Vec2 nA{0.0f, 1.0f};
  const Vec2 nB = Normalize(Vec2{-1.0f, 1.0f});
  // The solid corner as a polygon (counter-clockwise), for the GJK distance oracle.
  const Vec2 solidPoints[4] = {{-1.0f, -1.0f}, {1.0f, -1.0f}, {1.0f, 0.0f}, {0.0f, 0.0f}};
  const Polygon solid = MakePolygon(solidPoints).value;
  int checked = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const ShapeGeometry shape = RandomShape(rng);
    const Transform xf = RandomPose(rng, shape, -0.02f, 0.06f);
    const DistanceOutput d = ShapeDistance({MakeProxy(solid), MakeProxy(shape), Transform{}, xf});
    if (d.coresOverlap) continue;
    const Vec2 c = CentroidOf(shape, xf);
    if (c.y <= 0.0f || c.y <= c.x) continue;  // in front of both
    const Both m = CollideCorner(corner, shape, xf);
    CAPTURE(trial);
    for (const Manifold* mf : {&m.a, &m.b}) {
      if (mf->pointCount == 0) continue;
      // In the cone from nA counter-clockwise to nB, up to the documented 0.01 sine beyond either
      // face normal (kConeSine: a vertex admits that much beyond its neighbour's face normal).
      CHECK(Cross(nA, mf->normal) >= -0.0101f);
      CHECK(Cross(mf->normal, nB) >= -0.0101f);
    }
    if (d.distance > 0.001f && d.distance < 0.015f) {
      REQUIRE(m.a.pointCount + m.b.pointCount > 0);
      Vec2 normal{};
      CHECK(std::fabs(Deepest(m, &normal) - d.distance) <= 2e-5f);
      CHECK(Distance(normal, d.normal) <= 2e-3f);
      ++checked;
    }
  }
  MESSAGE(checked << " poses within the speculative distance checked against the distance");
  CHECK(checked > 500);
}

TEST_CASE("at a concave vertex only the two face normals appear") {
  test::Rng rng(93);
  const Corner corner = MakeCorner({-1.0f, 1.0f});  // the floor turns up-left: concave
  const Vec2 nA{0.0f, 1.0f};
  const Vec2 nB = Normalize(Vec2{1.0f, 1.0f});
  int contacts = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const ShapeGeometry shape = RandomShape(rng);
    Transform xf = RandomPose(rng, shape, -0.05f, 0.3f);
    const Vec2 c = CentroidOf(shape, xf);
    if (c.y <= 0.0f || Dot(c, nB) <= 0.0f) continue;
    const Both m = CollideCorner(corner, shape, xf);
    CAPTURE(trial);
    if (m.a.pointCount > 0) CHECK(Distance(m.a.normal, nA) <= 1e-6f);
    if (m.b.pointCount > 0) CHECK(Distance(m.b.normal, nB) <= 1e-6f);
    contacts += m.a.pointCount + m.b.pointCount > 0 ? 1 : 0;
  }
  CHECK(contacts > 5000);
}

TEST_CASE("one-sided: a shape whose centroid is behind the segment gets no manifold") {
  test::Rng rng(94);
  const ChainSegment segment{{2.0f, 0.0f}, {{1.0f, 0.0f}, {-1.0f, 0.0f}}, {-2.0f, 0.0f}};
  const Segment twoSided{{1.0f, 0.0f}, {-1.0f, 0.0f}};
  int wouldTouch = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const ShapeGeometry shape = RandomShape(rng);
    Transform xf{{rng.Uniform(-0.8f, 0.8f), rng.Uniform(-0.4f, -1e-3f)}, MakeRot(rng.Uniform(-3.14f, 3.14f))};
    const Vec2 offset = CentroidOf(shape, xf) - xf.p;  // put the centroid itself below the line
    xf.p.y -= std::fmax(offset.y, 0.0f);
    CHECK(Collide(ShapeGeometry(segment), Transform{}, shape, xf, nullptr).pointCount == 0);
    wouldTouch += Collide(ShapeGeometry(twoSided), Transform{}, shape, xf, nullptr).pointCount > 0 ? 1 : 0;
  }
  CHECK(wouldTouch > 2500);  // the two-sided segment would have pushed most of them
}

TEST_CASE("typed chain functions - Collide and the swapped entries agree bit for bit") {
  test::Rng rng(95);
  const ChainSegment chain{{1.5f, 0.3f}, {{1.0f, 0.0f}, {-1.0f, 0.0f}}, {-1.6f, -0.2f}};
  const Transform xfA{{0.3f, -0.2f}, MakeRot(0.4f)};
  auto same = [](const Manifold& x, const Manifold& y) {
    bool equal = x.pointCount == y.pointCount && x.normal.x == y.normal.x && x.normal.y == y.normal.y;
    for (int k = 0; equal && k < x.pointCount; ++k) {
      equal = x.points[k].separation == y.points[k].separation && x.points[k].id == y.points[k].id &&
              x.points[k].point.x == y.points[k].point.x && x.points[k].point.y == y.points[k].point.y;
    }
    return equal;
  };
  int touching = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Transform xfB{TransformPoint(xfA, {rng.Uniform(-1.2f, 1.2f), rng.Uniform(-0.3f, 0.6f)}),
                        MakeRot(rng.Uniform(-3.0f, 3.0f))};
    const Circle circle{{0.0f, 0.0f}, 0.2f};
    const Capsule capsule{{-0.2f, 0.0f}, {0.2f, 0.0f}, 0.1f};
    const Polygon box = MakeRoundedBox(0.2f, 0.1f, 0.05f).value;
    const Manifold c = CollideChainSegmentAndCircle(chain, xfA, circle, xfB, nullptr);
    const Manifold k = CollideChainSegmentAndCapsule(chain, xfA, capsule, xfB, nullptr);
    const Manifold p = CollideChainSegmentAndPolygon(chain, xfA, box, xfB, nullptr);
    CHECK(same(c, Collide(chain, xfA, circle, xfB, nullptr)));
    CHECK(same(k, Collide(chain, xfA, capsule, xfB, nullptr)));
    CHECK(same(p, Collide(chain, xfA, box, xfB, nullptr)));
    CHECK(same(FlipManifold(p), Collide(box, xfB, chain, xfA, nullptr)));
    CHECK(same(FlipManifold(c), Collide(circle, xfB, chain, xfA, nullptr)));
    CHECK(Collide(chain, xfA, Segment{{0.0f, 0.0f}, {1.0f, 0.0f}}, xfB, nullptr).pointCount == 0);
    CHECK(Collide(chain, xfA, chain, xfB, nullptr).pointCount == 0);
    touching += p.pointCount > 0 ? 1 : 0;
  }
  CHECK(touching > 300);
}
}  // TEST_SUITE("chain_manifold")
