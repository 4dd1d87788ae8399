// SPDX-License-Identifier: MIT
// The GJK lab's picture and panel. The Minkowski difference is drawn around the world origin (the
// shapes sit above it by default), so "the closest point of A - B to the origin" is literal.
#include "gjk_lab.h"

#include <imgui.h>

#include <cstdio>

namespace mk::sandbox {
namespace {

constexpr float kDirectionLength = 0.8f;  // m: drawn length of the unit search direction
constexpr float kOriginArm = 0.2f;        // m: half-length of the origin cross

Color Faded(Color c, std::uint8_t alpha) { return {c.r, c.g, c.b, alpha}; }

void DrawArrow(DebugDraw& draw, Vec2 from, Vec2 to, Color color) {
  draw.DrawSegment(from, to, color);
  Vec2 d = to - from;
  float length = Length(d);
  if (length <= 0.0f) return;
  Vec2 u = d / length, n = LeftPerp(u);
  float head = std::min(0.15f, 0.4f * length);
  draw.DrawSegment(to, to - head * u + 0.5f * head * n, color);
  draw.DrawSegment(to, to - head * u - 0.5f * head * n, color);
}

void DrawSimplex(DebugDraw& draw, const Simplex& simplex, Color color) {
  Vec2 w[3];
  for (int i = 0; i < simplex.count; ++i) w[i] = simplex.vertices[i].w;
  if (simplex.count == 3) draw.DrawPolygon(w, 3, color);
  if (simplex.count == 2) draw.DrawSegment(w[0], w[1], color);
  for (int i = 0; i < simplex.count; ++i) draw.DrawPoint(w[i], 7.0f, color);
}

}  // namespace

void GjkLab::DrawMinkowski(DebugDraw& draw) const {
  const GjkLabResult& r = *result_;
  const auto count = static_cast<int>(r.difference.size());
  if (count >= 3) {
    // The full difference (cores + radius sum) translucent, the core difference as an outline.
    if (r.radiusSum > 0.0f) {
      draw.DrawSolidPolygon(Transform{}, r.difference.data(), count, r.radiusSum,
                            Faded(lab_colors::kDifference, 110));
    }
    draw.DrawPolygon(r.difference.data(), count, lab_colors::kDifference);
  } else if (count == 2) {
    if (r.radiusSum > 0.0f)
      draw.DrawSolidCapsule(r.difference[0], r.difference[1], r.radiusSum,
                            Faded(lab_colors::kDifference, 110));
    draw.DrawSegment(r.difference[0], r.difference[1], lab_colors::kDifference);
  } else if (count == 1) {
    draw.DrawCircle(r.difference[0], r.radiusSum, lab_colors::kDifference);
  }
  if (count > 0) draw.DrawString(r.difference[0] + Vec2{0.1f, -0.3f}, "A - B", lab_colors::kDifference);
  draw.DrawSegment({-kOriginArm, 0.0f}, {kOriginArm, 0.0f}, lab_colors::kOrigin);
  draw.DrawSegment({0.0f, -kOriginArm}, {0.0f, kOriginArm}, lab_colors::kOrigin);
  draw.DrawString({0.15f, -0.15f}, "origin", lab_colors::kOrigin);
}

void GjkLab::DrawGjkStep(DebugDraw& draw) const {
  const int k = ShownGjkStep();
  if (k < 0) return;
  const GjkStep& step = result_->gjk.steps[k];
  DrawSimplex(draw, step.simplex, lab_colors::kSimplex);
  draw.DrawPoint(step.closestPoint, 6.0f, lab_colors::kOrigin);
  float d = Length(step.searchDirection);
  if (d > 0.0f) {
    DrawArrow(draw, step.closestPoint, step.closestPoint + (kDirectionLength / d) * step.searchDirection,
              lab_colors::kSearchDirection);
  }
  // The support points this simplex was built from, on the shapes themselves.
  for (int i = 0; i < step.simplex.count; ++i) {
    const SimplexVertex& v = step.simplex.vertices[i];
    draw.DrawPoint(v.pointA, 7.0f, lab_colors::kSimplex);
    draw.DrawPoint(v.pointB, 7.0f, lab_colors::kSimplex);
  }
}

void GjkLab::DrawEpa(DebugDraw& draw) const {
  const GjkLabResult& r = *result_;
  const int k = ShownEpaStep();
  if (k >= 0) {
    const EpaStep& step = r.epa.steps[k];
    draw.DrawPolygon(step.vertices, step.count, lab_colors::kEpa);
    if (step.count >= 2) {
      Vec2 a = step.vertices[step.closestEdge], b = step.vertices[(step.closestEdge + 1) % step.count];
      draw.DrawSegment(a, b, lab_colors::kSimplex);
      draw.DrawPoint(step.closestPoint, 6.0f, lab_colors::kEpa);
    }
  }
  // The penetration vector: moving B by t shifts the difference A - B by -t, so the cores separate
  // once t leaves A - B. The shortest such t, coreDepth * normal, runs from the origin to the nearest
  // boundary point of the difference (EPA's closest edge).
  if (r.penetration.status == PenetrationStatus::Epa ||
      r.penetration.status == PenetrationStatus::SatFallback) {
    const Vec2 tip = r.penetration.coreDepth * r.penetration.normal;
    DrawArrow(draw, {0.0f, 0.0f}, tip, lab_colors::kEpa);
    // Labelled: the arrow is the cores' depth; the panel's surface depth adds both radii.
    char label[64];
    std::snprintf(label, sizeof label, "core depth %.3f m", static_cast<double>(r.penetration.coreDepth));
    draw.DrawString(0.5f * tip + Vec2{0.1f, -0.3f}, label, lab_colors::kEpa);
  }
}

void GjkLab::Draw(DebugDraw& draw) const {
  const GjkLabResult& r = *result_;
  // The shapes.
  const Color shapeColors[2] = {lab_colors::kShapeA, lab_colors::kShapeB};
  for (int i = 0; i < 2; ++i) {
    DrawShape(draw, geometry_[i], XForm(i), shapeColors[i]);
    draw.DrawString(shapes[i].position, i == 0 ? "A" : "B", lab_colors::kOrigin);
  }
  DrawMinkowski(draw);
  DrawGjkStep(draw);
  if (r.distance.coresOverlap) DrawEpa(draw);

  // The manifold the pair produces: points, normal, feature ids (A's feature : B's feature).
  for (int i = 0; i < r.manifold.pointCount; ++i) {
    const ManifoldPoint& p = r.manifold.points[i];
    draw.DrawPoint(p.point, 8.0f, lab_colors::kManifold);
    DrawArrow(draw, p.point, p.point + 0.5f * r.manifold.normal, lab_colors::kManifold);
    char label[48];
    std::snprintf(label, sizeof label, "id %02x:%02x  s %.3f", FeatureOfA(p.id), FeatureOfB(p.id),
                  static_cast<double>(p.separation));
    // Labels stack below the lower shape's bounds so they never sit on the points or each other.
    draw.DrawString(p.point + Vec2{0.15f, -0.25f - 0.35f * static_cast<float>(i)}, label,
                    lab_colors::kManifoldLabel);
  }

  // Closest points last, so nothing covers them.
  if (!r.distance.coresOverlap && r.distance.status != DistanceStatus::InvalidInput) {
    draw.DrawSegment(r.distance.pointA, r.distance.pointB, lab_colors::kClosestPoint);
    draw.DrawPoint(r.distance.pointA, kClosestPointPixels, lab_colors::kClosestPoint);
    draw.DrawPoint(r.distance.pointB, kClosestPointPixels, lab_colors::kClosestPoint);
    char label[32];
    std::snprintf(label, sizeof label, "d = %.4f m", static_cast<double>(r.distance.distance));
    draw.DrawString(0.5f * (r.distance.pointA + r.distance.pointB) + Vec2{-0.4f, 0.45f}, label,
                    lab_colors::kClosestPoint);
  }
}

void GjkLab::DrawPanel() {
  const GjkLabResult& r = *result_;
  static const char* kTypes[] = {"circle", "capsule", "segment", "box", "polygon"};
  for (int i = 0; i < 2; ++i) {
    LabShape& s = shapes[i];
    ImGui::PushID(i);
    ImGui::TextColored(i == 0 ? ImVec4(0.9f, 0.63f, 0.35f, 1) : ImVec4(0.4f, 0.63f, 0.94f, 1), "shape %s",
                       i == 0 ? "A" : "B");
    int type = static_cast<int>(s.type);
    if (ImGui::Combo("type", &type, kTypes, IM_ARRAYSIZE(kTypes))) {
      s.type = static_cast<LabShapeType>(type);
      GiveCapsuleRadius(s);
    }
    if (s.type == LabShapeType::Polygon) ImGui::SliderInt("vertices", &s.vertices, 3, kMaxPolygonVertices);
    ImGui::SliderFloat("size m", &s.size, 0.05f, 4.0f, "%.2f");
    if (s.type != LabShapeType::Circle && s.type != LabShapeType::Segment) {
      ImGui::SliderFloat("radius m", &s.radius, 0.0f, 1.0f, "%.2f");
    }
    ImGui::SliderAngle("angle", &s.angle, -180.0f, 180.0f);
    ImGui::PopID();
  }
  ImGui::Separator();
  ImGui::Checkbox("warm start (keep simplex cache)", &warmStart);
  ImGui::Text("iterations: %d (cold: %d)", r.distance.iterations, r.coldIterations);
  if (r.distance.iterations == 0 && !r.distance.coresOverlap) {
    // Not a failure: GJK checks its start point (a vertex pair) before any support query.
    ImGui::TextWrapped(
        "0 iterations: the start simplex already has a bound gap within tolerance (its "
        "vertex pair is the closest), so GJK stops before its first support query.");
  }
  if (r.gjk.count > 0) {
    int shown = ShownGjkStep();
    if (ImGui::SliderInt("GJK step", &shown, 0, r.gjk.count - 1))
      gjkStep = shown == r.gjk.count - 1 ? -1 : shown;
    const GjkStepReadout step = StepReadout(shown);
    ImGui::Text("simplex: %d point(s)", r.gjk.steps[shown].simplex.count);
    ImGui::Text("closest point v (%.4f, %.4f)", static_cast<double>(step.closestPoint.x),
                static_cast<double>(step.closestPoint.y));
    if (step.upperBound > 0.0f) {
      ImGui::Text("|v| %.5f m (upper bound)", static_cast<double>(step.upperBound));
      ImGui::Text("v.w/|v| %.5f m (lower bound)", static_cast<double>(step.lowerBound));
      ImGui::Text("bound gap %.2e m", static_cast<double>(step.gap));
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            "w: support point of A - B towards the origin (direction -v).\n"
            "The core distance lies between the bounds; GJK stops once\n"
            "the gap is within its tolerance.");
      }
    } else {
      ImGui::TextWrapped("v = 0: the origin lies in the simplex, so the cores overlap.");
    }
  } else {
    ImGui::TextWrapped("No GJK step was recorded.");
  }
  if (r.distance.coresOverlap) {
    ImGui::TextWrapped("cores overlap (%s, %d EPA iterations):",
                       r.penetration.status == PenetrationStatus::SatFallback ? "SAT fallback" : "EPA",
                       r.penetration.iterations);
    // The arrow drawn is the cores' depth; the surfaces overlap by the radii more.
    // Lines with numbers are short and unwrapped: ImGui wraps after a '.', splitting "0." from "000".
    ImGui::Text("core depth %.4f m (the red arrow)", static_cast<double>(r.penetration.coreDepth));
    ImGui::Text("surface depth %.4f m", static_cast<double>(r.penetration.depth));
    ImGui::Text("  = core depth + radii %.4f m", static_cast<double>(r.radiusSum));
    if (r.epa.count > 0) {
      int shown = ShownEpaStep();
      if (ImGui::SliderInt("EPA step", &shown, 0, r.epa.count - 1))
        epaStep = shown == r.epa.count - 1 ? -1 : shown;
    }
  } else {
    ImGui::Text("distance %.5f m", static_cast<double>(r.distance.distance));
    ImGui::Text("  cores %.5f m", static_cast<double>(r.distance.coreDistance));
  }
  ImGui::Text("manifold: %d point(s)", r.manifold.pointCount);
  ImGui::Text("  normal (%.3f, %.3f)", static_cast<double>(r.manifold.normal.x),
              static_cast<double>(r.manifold.normal.y));
  ImGui::TextWrapped("Left-drag a shape to move it; wheel over a shape to turn it.");
}

}  // namespace mk::sandbox
