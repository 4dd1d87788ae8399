// SPDX-License-Identifier: MIT
// Shapes drawn through DebugDraw. The engine knows shapes; the implementer knows pixels.
#include "minkowski/debug_draw.h"

#include <cmath>

namespace mk {

void DrawShape(DebugDraw& draw, const Circle& circle, const Transform& xf, Color color) {
  draw.DrawSolidCircle({TransformPoint(xf, circle.center), xf.q}, circle.radius, color);
}

void DrawShape(DebugDraw& draw, const Capsule& capsule, const Transform& xf, Color color) {
  draw.DrawSolidCapsule(TransformPoint(xf, capsule.p1), TransformPoint(xf, capsule.p2), capsule.radius,
                        color);
}

void DrawShape(DebugDraw& draw, const Segment& segment, const Transform& xf, Color color) {
  draw.DrawSegment(TransformPoint(xf, segment.p1), TransformPoint(xf, segment.p2), color);
}

void DrawShape(DebugDraw& draw, const Polygon& polygon, const Transform& xf, Color color) {
  draw.DrawSolidPolygon(xf, polygon.vertices, polygon.count, polygon.radius, color);
}

void DrawShape(DebugDraw& draw, const ChainSegment& chainSegment, const Transform& xf, Color color) {
  const Vec2 p1 = TransformPoint(xf, chainSegment.segment.p1);
  const Vec2 p2 = TransformPoint(xf, chainSegment.segment.p2);
  draw.DrawSegment(p1, p2, color);
  const float tick = std::fmin(0.2f * Distance(p1, p2), 0.25f);
  const Vec2 middle = 0.5f * (p1 + p2);
  draw.DrawSegment(middle, middle + tick * Normalize(RightPerp(p2 - p1)), color);
}

void DrawShape(DebugDraw& draw, const ShapeGeometry& shape, const Transform& xf, Color color) {
  switch (shape.Type()) {
    case ShapeType::Circle:
      DrawShape(draw, shape.AsCircle(), xf, color);
      break;
    case ShapeType::Capsule:
      DrawShape(draw, shape.AsCapsule(), xf, color);
      break;
    case ShapeType::Segment:
      DrawShape(draw, shape.AsSegment(), xf, color);
      break;
    case ShapeType::ChainSegment:
      DrawShape(draw, shape.AsChainSegment(), xf, color);
      break;
    case ShapeType::Polygon:
      draw.DrawSolidPolygon(xf, shape.Points(), shape.Count(), shape.Radius(), color);
      break;
    default:
      break;
  }
}

}  // namespace mk
