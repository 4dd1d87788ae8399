// SPDX-License-Identifier: MIT
#include "demo_shapes.h"

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace mk::sandbox {
namespace {

constexpr float kDensity = 1.0f;             // kg/m^2
constexpr float kColumnSpacing = 3.9f;       // metres between shapes in a row
constexpr float kFirstColumn = 0.5f;         // x of the first column, metres
constexpr Vec2 kLabelOffset{-1.2f, -1.75f};  // label anchor (its top left) from the shape's position, metres
constexpr float kCenterPointSize = 6.0f;     // pixels

constexpr Color kPolygonColor{230, 180, 110, 255};
constexpr Color kRoundedColor{120, 190, 240, 255};
constexpr Color kCurvedColor{240, 130, 150, 255};
constexpr Color kHullColor{170, 220, 120, 255};
constexpr Color kCenterColor{255, 255, 80, 255};

template <class T>
void Add(std::vector<DemoShape>& shapes, std::vector<std::string>& errors, const char* label,
         GeometryResult<T> made, Vec2 position, float angularSpeed, Color color) {
  if (!made.ok()) {
    errors.push_back(std::string(label) + ": " + ToString(made.error));
    return;
  }
  GeometryResult<MassData> mass = ComputeMass(made.value, kDensity);
  if (!mass.ok()) {
    errors.push_back(std::string(label) + " mass: " + ToString(mass.error));
    return;
  }
  shapes.push_back({made.value, label, position, angularSpeed, color, mass.value});
}

Vec2 Cell(int column, int row) {
  return {kFirstColumn + kColumnSpacing * static_cast<float>(column), 4.5f - 4.5f * static_cast<float>(row)};
}

}  // namespace

std::vector<DemoShape> MakeDemoShapes(std::vector<std::string>& errors) {
  std::vector<DemoShape> shapes;
  // Row 0: sharp polygons.
  Add(shapes, errors, "box", MakeBox(1.2f, 0.8f), Cell(0, 0), 0.35f, kPolygonColor);
  Add(shapes, errors, "triangle", MakeRegularPolygon(3, 1.3f), Cell(1, 0), -0.3f, kPolygonColor);
  Add(shapes, errors, "pentagon", MakeRegularPolygon(5, 1.2f), Cell(2, 0), 0.25f, kPolygonColor);
  Add(shapes, errors, "offset box", MakeOffsetBox(0.9f, 0.4f, {0.5f, 0.3f}, 0.4f), Cell(3, 0), 0.4f,
      kPolygonColor);
  // Row 1: rounded polygons (core + radius).
  Add(shapes, errors, "rounded box", MakeRoundedBox(0.9f, 0.5f, 0.3f), Cell(0, 1), -0.35f, kRoundedColor);
  Add(shapes, errors, "rounded triangle", MakeRegularPolygon(3, 0.9f, 0.35f), Cell(1, 1), 0.3f,
      kRoundedColor);
  Add(shapes, errors, "rounded hexagon", MakeRegularPolygon(6, 0.9f, 0.25f), Cell(2, 1), -0.25f,
      kRoundedColor);
  Add(shapes, errors, "64-gon", MakeRegularPolygon(kMaxPolygonVertices, 1.2f), Cell(3, 1), 0.2f,
      kRoundedColor);
  // Row 2: curved shapes, a segment, and hulls of a point cloud.
  Add(shapes, errors, "circle", MakeCircle({0.0f, 0.0f}, 1.1f), Cell(0, 2), 0.5f, kCurvedColor);
  Add(shapes, errors, "capsule", MakeCapsule({-0.9f, 0.0f}, {0.9f, 0.0f}, 0.5f), Cell(1, 2), 0.3f,
      kCurvedColor);
  Add(shapes, errors, "segment", MakeSegment({-1.3f, -0.4f}, {1.3f, 0.4f}), Cell(2, 2), -0.4f, kCurvedColor);
  // A fixed cloud (interior and collinear points included) that ComputeHull reduces to its hull.
  const std::array<Vec2, 10> cloud = {{{-1.2f, -0.6f},
                                       {0.2f, -1.1f},
                                       {1.1f, -0.3f},
                                       {0.9f, 0.8f},
                                       {-0.1f, 1.2f},
                                       {-1.0f, 0.5f},
                                       {0.0f, 0.0f},
                                       {0.3f, 0.2f},
                                       {0.55f, 0.25f},
                                       {-0.5f, -0.3f}}};
  Add(shapes, errors, "hull of 10 points", MakePolygon(cloud), Cell(3, 2), 0.25f, kHullColor);
  Add(shapes, errors, "rounded hull", MakePolygon(cloud, 0.2f), Cell(4, 1), -0.3f, kHullColor);
  Add(shapes, errors, "offset circle", MakeCircle({0.6f, 0.0f}, 0.6f), Cell(4, 0), 0.6f, kCurvedColor);
  Add(shapes, errors, "tilted capsule", MakeCapsule({-0.4f, -0.7f}, {0.5f, 0.6f}, 0.35f), Cell(4, 2), -0.45f,
      kCurvedColor);
  return shapes;
}

std::string LabelLines(const std::string& label) {
  if (label.size() <= kLabelLineChars) return label;
  const std::size_t middle = label.size() / 2;
  std::size_t best = std::string::npos;
  for (std::size_t i = label.find(' '); i != std::string::npos; i = label.find(' ', i + 1)) {
    const auto off = [middle](std::size_t at) { return at > middle ? at - middle : middle - at; };
    if (best == std::string::npos || off(i) < off(best)) best = i;
  }
  if (best == std::string::npos) return label;
  std::string lines = label;
  lines[best] = '\n';  // the debug draw's strings go to ImGui's AddText, which breaks lines there
  return lines;
}

Transform DemoTransform(const DemoShape& shape, float seconds) {
  return MakeTransform(shape.position, shape.angularSpeed * seconds);
}

void DrawDemoShapes(const std::vector<DemoShape>& shapes, float seconds, const DemoToggles& toggles,
                    DebugDraw& draw) {
  for (const DemoShape& s : shapes) {
    Transform xf = DemoTransform(s, seconds);
    std::visit([&](const auto& shape) { DrawShape(draw, shape, xf, s.color); }, s.shape);
    if (toggles.aabbs) {
      AABB box = std::visit([&](const auto& shape) { return ComputeAABB(shape, xf); }, s.shape);
      const Vec2 corners[4] = {box.lower, {box.upper.x, box.lower.y}, box.upper, {box.lower.x, box.upper.y}};
      draw.DrawPolygon(corners, 4, colors::kAABB);
    }
    if (toggles.transforms) draw.DrawTransform(xf, 0.5f);
    if (toggles.centersOfMass)
      draw.DrawPoint(TransformPoint(xf, s.mass.center), kCenterPointSize, kCenterColor);
    if (toggles.labels)
      draw.DrawString(s.position + kLabelOffset, LabelLines(s.label).c_str(), colors::kWhite);
  }
}

}  // namespace mk::sandbox
