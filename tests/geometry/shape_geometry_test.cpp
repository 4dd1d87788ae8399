// SPDX-License-Identifier: MIT
// ShapeGeometry: the one value every shape type is stored, dispatched and queried as. Checked against
// the typed shapes it is made from (points, radius, and normals recomputed here from the edges) and
// against the typed overloads of mass, bounding box and proxy, bit for bit.
#include "minkowski/geometry.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <vector>

using namespace mk;

namespace {

// Outward unit normal of edge p -> q of a counter-clockwise core, in double.
Vec2 EdgeNormal(Vec2 p, Vec2 q) {
  const double dx = static_cast<double>(q.x) - p.x, dy = static_cast<double>(q.y) - p.y;
  const double length = std::sqrt(dx * dx + dy * dy);
  return {static_cast<float>(dy / length), static_cast<float>(-dx / length)};
}

// Every edge normal of the geometry is the unit outward normal of its edge, within float rounding.
void CheckNormals(const ShapeGeometry& g) {
  if (g.Count() < 2) return;
  for (int i = 0; i < g.Count(); ++i) {
    const Vec2 expected = EdgeNormal(g.Points()[i], g.Points()[(i + 1) % g.Count()]);
    CHECK(test::Near(g.Normals()[i], expected, 1e-6f));
  }
}

// A random convex polygon of exactly `count` vertices: points at jittered angles on one circle are
// all hull vertices. Rounded half the time.
Polygon RandomPolygon(test::Rng& rng, int count) {
  const float r = rng.Uniform(0.5f, 1.5f);
  std::vector<Vec2> ring(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const double a = 2.0 * std::numbers::pi * (i + 0.4 * rng.Unit()) / count;
    ring[static_cast<std::size_t>(i)] = {static_cast<float>(r * std::cos(a)),
                                         static_cast<float>(r * std::sin(a))};
  }
  GeometryResult<Polygon> polygon = MakePolygon(ring, rng.Int(0, 1) == 0 ? 0.0f : rng.Uniform(0.01f, 0.3f));
  REQUIRE(polygon.ok());
  REQUIRE(polygon.value.count == count);
  return polygon.value;
}

void CheckSameMass(const GeometryResult<MassData>& a, const GeometryResult<MassData>& b) {
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.value.mass == b.value.mass);
  CHECK(a.value.center == b.value.center);
  CHECK(a.value.rotationalInertia == b.value.rotationalInertia);
}

void CheckSameAABB(const AABB& a, const AABB& b) {
  CHECK(a.lower == b.lower);
  CHECK(a.upper == b.upper);
}

}  // namespace

TEST_SUITE("geometry.shape_geometry") {

TEST_CASE("a circle and a capsule and a segment keep their points and radius and edge normals") {
  const ShapeGeometry circle = Circle{{0.25f, -0.5f}, 0.75f};
  CHECK(circle.Type() == ShapeType::Circle);
  CHECK(circle.Count() == 1);
  CHECK(circle.Radius() == 0.75f);
  CHECK(circle.Points()[0] == Vec2{0.25f, -0.5f});
  CHECK(circle.AsCircle().center == Vec2{0.25f, -0.5f});

  const ShapeGeometry capsule = Capsule{{-1.0f, 0.0f}, {1.0f, 0.0f}, 0.25f};
  CHECK(capsule.Type() == ShapeType::Capsule);
  CHECK(capsule.Count() == 2);
  CHECK(capsule.Radius() == 0.25f);
  // Face 0 runs p1 -> p2 (outward normal down for a left-to-right segment), face 1 back.
  CHECK(capsule.Normals()[0] == Vec2{0.0f, -1.0f});
  CHECK(capsule.Normals()[1] == Vec2{0.0f, 1.0f});
  CHECK(capsule.AsCapsule().p2 == Vec2{1.0f, 0.0f});

  const ShapeGeometry segment = Segment{{0.0f, 0.0f}, {3.0f, 4.0f}};
  CHECK(segment.Type() == ShapeType::Segment);
  CHECK(segment.Radius() == 0.0f);
  CHECK(test::Near(segment.Normals()[0], Vec2{0.8f, -0.6f}, 1e-7f));
  CheckNormals(segment);
  CHECK(segment.AsSegment().p2 == Vec2{3.0f, 4.0f});
}

TEST_CASE("a chain segment is a segment core plus its two ghost vertices / no mass - the segment's box") {
  const ChainSegment chain{{-1.0f, 2.0f}, {{0.0f, 0.0f}, {3.0f, 4.0f}}, {5.0f, 5.0f}};
  const ShapeGeometry g = chain;
  CHECK(g.Type() == ShapeType::ChainSegment);
  CHECK(g.Count() == 2);
  CHECK(g.Radius() == 0.0f);
  CHECK(g.IsInline());
  // The front (face 0) is the right of p1 -> p2, as a segment's.
  CHECK(test::Near(g.Normals()[0], Vec2{0.8f, -0.6f}, 1e-7f));
  CheckNormals(g);
  REQUIRE(g.Ghosts() != nullptr);
  CHECK(g.Ghosts()[0] == chain.ghost1);
  CHECK(g.Ghosts()[1] == chain.ghost2);
  const ChainSegment back = g.AsChainSegment();
  CHECK(back.ghost1 == chain.ghost1);
  CHECK(back.segment.p2 == chain.segment.p2);
  CHECK(back.ghost2 == chain.ghost2);
  CHECK(ShapeGeometry(chain.segment).Ghosts() == nullptr);
  const Transform xf{{1.0f, -2.0f}, MakeRot(0.7f)};
  CheckSameAABB(ComputeAABB(g, xf), ComputeAABB(chain.segment, xf));
  CheckSameAABB(ComputeAABB(chain, xf), ComputeAABB(chain.segment, xf));
  const GeometryResult<MassData> mass = ComputeMass(g, 3.0f);
  REQUIRE(mass.ok());
  CHECK(mass.value.mass == 0.0f);
  CHECK(mass.value.center == Vec2{1.5f, 2.0f});
  CHECK(MakeProxy(chain).count == 2);
}

TEST_CASE("polygons up to kInlinePoints vertices are inline - larger ones out of line - both exact") {
  test::Rng rng(7);
  for (int count = 3; count <= kMaxPolygonVertices; ++count) {
    const Polygon polygon = RandomPolygon(rng, count);
    const ShapeGeometry g = polygon;
    CAPTURE(count);
    CHECK(g.Type() == ShapeType::Polygon);
    CHECK(g.Count() == count);
    CHECK(g.IsInline() == (count <= ShapeGeometry::kInlinePoints));
    CHECK(g.Radius() == polygon.radius);
    for (int i = 0; i < count; ++i) {
      CHECK(g.Points()[i] == polygon.vertices[i]);
      CHECK(g.Normals()[i] == polygon.normals[i]);
    }
    CheckNormals(g);
    const Polygon back = g.AsPolygon();
    CHECK(back.count == count);
    CHECK(ValidatePolygon(back) == GeometryError::None);
    CHECK(test::Near(back.centroid, polygon.centroid, 1e-6f));
  }
}

TEST_CASE("a copy of an out-of-line geometry owns its points: the original can go") {
  const Polygon polygon = MakeRegularPolygon(20, 2.0f).value;
  ShapeGeometry copy;
  {
    const ShapeGeometry original = polygon;
    REQUIRE(!original.IsInline());
    copy = original;
    CHECK(copy.Points() != original.Points());
  }  // original's storage is freed here; ASan would flag a read through a shared pointer
  for (int i = 0; i < 20; ++i) CHECK(copy.Points()[i] == polygon.vertices[i]);
  ShapeGeometry moved = std::move(copy);
  CHECK(moved.Count() == 20);
  CHECK(moved.Points()[19] == polygon.vertices[19]);
  // Assigning a small shape over a large one goes back inline.
  moved = Circle{{1.0f, 2.0f}, 0.5f};
  CHECK(moved.IsInline());
  CHECK(moved.Points()[0] == Vec2{1.0f, 2.0f});
}

TEST_CASE("a polygon count the arrays cannot hold gives the invalid geometry") {
  Polygon polygon = MakeBox(1.0f, 1.0f).value;
  polygon.count = kMaxPolygonVertices + 1;
  CHECK(ShapeGeometry(polygon).Type() == ShapeType::Count);
  polygon.count = -1;
  CHECK(ShapeGeometry(polygon).Type() == ShapeType::Count);
  CHECK(ShapeGeometry().Type() == ShapeType::Count);
  CHECK(ShapeGeometry().Count() == 0);
  CHECK(ComputeMass(ShapeGeometry(), 1.0f).error != GeometryError::None);
}

TEST_CASE("mass and bounding box and proxy of a geometry are the typed overloads' bit for bit") {
  test::Rng rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    const float density = rng.Uniform(0.1f, 10.0f);
    const Transform xf = MakeTransform(rng.InBox(10.0f), rng.Uniform(-3.0f, 3.0f));
    const Vec2 p1 = rng.InBox(1.0f), p2 = p1 + rng.Uniform(0.1f, 2.0f) * rng.Direction();
    const Circle circle{p1, rng.Uniform(0.05f, 1.0f)};
    const Capsule capsule{p1, p2, rng.Uniform(0.05f, 1.0f)};
    const Segment segment{p1, p2};
    const Polygon polygon = RandomPolygon(rng, rng.Int(3, 20));
    CheckSameMass(ComputeMass(ShapeGeometry(circle), density), ComputeMass(circle, density));
    CheckSameMass(ComputeMass(ShapeGeometry(capsule), density), ComputeMass(capsule, density));
    CheckSameMass(ComputeMass(ShapeGeometry(segment), density), ComputeMass(segment, density));
    CheckSameMass(ComputeMass(ShapeGeometry(polygon), density), ComputeMass(polygon, density));
    CheckSameAABB(ComputeAABB(ShapeGeometry(circle), xf), ComputeAABB(circle, xf));
    CheckSameAABB(ComputeAABB(ShapeGeometry(capsule), xf), ComputeAABB(capsule, xf));
    CheckSameAABB(ComputeAABB(ShapeGeometry(segment), xf), ComputeAABB(segment, xf));
    CheckSameAABB(ComputeAABB(ShapeGeometry(polygon), xf), ComputeAABB(polygon, xf));
    const ShapeGeometry g = polygon;
    const ShapeProxy proxy = MakeProxy(g);
    CHECK(proxy.count == polygon.count);
    CHECK(proxy.radius == polygon.radius);
    CHECK(proxy.points == g.Points());
  }
}

}  // TEST_SUITE("geometry.shape_geometry")
