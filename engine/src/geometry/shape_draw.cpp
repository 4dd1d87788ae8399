// Shapes drawn through DebugDraw. The engine knows shapes; the implementer knows pixels.
#include "minkowski/debug_draw.h"

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
    case ShapeType::Polygon:
      draw.DrawSolidPolygon(xf, shape.Points(), shape.Count(), shape.Radius(), color);
      break;
    default:
      break;
  }
}

}  // namespace mk
