// SPDX-License-Identifier: MIT
// ShapeGeometry: any shape's core (points, edge normals, radius) in one value.
#include "geometry/polygon_math.h"
#include "minkowski/assert.h"

#include <algorithm>

namespace mk {

void ShapeGeometry::Store(ShapeType type, const Vec2* points, const Vec2* normals, int count, float radius) {
  type_ = type;
  count_ = count;
  radius_ = radius;
  Vec2* storage = inline_;
  FreeOutOfLine(outOfLine_);
  outOfLine_ = nullptr;
  if (count > kInlinePoints) {
    outOfLine_ = new Vec2[2 * static_cast<std::size_t>(count)];
    storage = outOfLine_;
  }
  std::copy(points, points + count, storage);
  std::copy(normals, normals + count, storage + count);
}

Vec2* ShapeGeometry::CloneOutOfLine(const Vec2* storage, int count) {
  Vec2* copy = new Vec2[2 * static_cast<std::size_t>(count)];
  std::copy(storage, storage + 2 * count, copy);
  return copy;
}

void ShapeGeometry::FreeOutOfLine(Vec2* storage) { delete[] storage; }

ShapeGeometry::ShapeGeometry(const Circle& circle) {
  // A point has no edges: its normal slot stays zero and is never read.
  const Vec2 noNormal{0.0f, 0.0f};
  Store(ShapeType::Circle, &circle.center, &noNormal, 1, circle.radius);
}

namespace {

// The two faces of a 2-point core: face 0 runs p1 -> p2, face 1 runs back (the same normals the
// capsule's mass and every manifold use).
struct TwoPointCore {
  Vec2 points[2];
  Vec2 normals[2];
};

TwoPointCore MakeTwoPointCore(Vec2 p1, Vec2 p2) {
  const Vec2 side = Normalize(RightPerp(p2 - p1));
  return {{p1, p2}, {side, -side}};
}

}  // namespace

ShapeGeometry::ShapeGeometry(const Capsule& capsule) {
  const TwoPointCore core = MakeTwoPointCore(capsule.p1, capsule.p2);
  Store(ShapeType::Capsule, core.points, core.normals, 2, capsule.radius);
}

ShapeGeometry::ShapeGeometry(const Segment& segment) {
  const TwoPointCore core = MakeTwoPointCore(segment.p1, segment.p2);
  Store(ShapeType::Segment, core.points, core.normals, 2, 0.0f);
}

ShapeGeometry::ShapeGeometry(const ChainSegment& chainSegment) {
  const TwoPointCore core = MakeTwoPointCore(chainSegment.segment.p1, chainSegment.segment.p2);
  Store(ShapeType::ChainSegment, core.points, core.normals, 2, 0.0f);
  // The ghosts go after the two points and two normals, still inside the inline block (Ghosts()).
  inline_[4] = chainSegment.ghost1;
  inline_[5] = chainSegment.ghost2;
}

ShapeGeometry::ShapeGeometry(const Polygon& polygon) {
  // A count the arrays cannot hold gives the invalid geometry (type Count), which Collide and the
  // queries refuse; a small bad count (< 3) is stored for them to refuse by count.
  if (polygon.count < 0 || polygon.count > kMaxPolygonVertices) return;
  Store(ShapeType::Polygon, polygon.vertices, polygon.normals, polygon.count, polygon.radius);
}

Circle ShapeGeometry::AsCircle() const {
  MK_ASSERT(type_ == ShapeType::Circle);
  return {Points()[0], radius_};
}

Capsule ShapeGeometry::AsCapsule() const {
  MK_ASSERT(type_ == ShapeType::Capsule);
  return {Points()[0], Points()[1], radius_};
}

Segment ShapeGeometry::AsSegment() const {
  MK_ASSERT(type_ == ShapeType::Segment);
  return {Points()[0], Points()[1]};
}

ChainSegment ShapeGeometry::AsChainSegment() const {
  MK_ASSERT(type_ == ShapeType::ChainSegment);
  if (type_ != ShapeType::ChainSegment) return {};
  return {inline_[4], {inline_[0], inline_[1]}, inline_[5]};
}

Polygon ShapeGeometry::AsPolygon() const {
  MK_ASSERT(type_ == ShapeType::Polygon);
  Polygon polygon;
  if (type_ != ShapeType::Polygon) return polygon;
  polygon.count = count_;
  polygon.radius = radius_;
  std::copy(Points(), Points() + count_, polygon.vertices);
  std::copy(Normals(), Normals() + count_, polygon.normals);
  polygon.centroid = ComputePolygonMass(polygon.vertices, polygon.count, 1.0f).center;
  return polygon;
}

}  // namespace mk
