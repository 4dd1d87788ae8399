// SPDX-License-Identifier: MIT
// The GJK lab's model: shapes, queries, mouse and settings. Drawing and the panel are in
// gjk_lab_draw.cpp.
#include "gjk_lab.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

namespace mk::sandbox {
namespace {

constexpr float kWheelRotation = 5.0f * std::numbers::pi_v<float> / 180.0f;  // radians per wheel notch
constexpr float kMaxCoordinate = 1000.0f;  // m: positions the settings accept
constexpr float kMaxSize = 100.0f;         // m: sizes and radii the settings accept

bool ParseNumber(std::string_view text, double& out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(out);
}

bool ParseShapeType(std::string_view text, LabShapeType& out) {
  for (LabShapeType t : {LabShapeType::Circle, LabShapeType::Capsule, LabShapeType::Segment,
                         LabShapeType::Box, LabShapeType::Polygon}) {
    if (text == ToString(t)) return out = t, true;
  }
  return false;
}

// Convex hull, counter-clockwise, collinear points dropped (Andrew's monotone chain). The engine's
// ComputeHull stops at kMaxPolygonVertices, but the difference of two 64-gons has up to 128
// vertices. Degenerate input gives 1 or 2 points.
std::vector<Vec2> ConvexHull(std::vector<Vec2> points) {
  std::sort(points.begin(), points.end(),
            [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.size() < 3) return points;
  std::vector<Vec2> hull(2 * points.size());
  size_t k = 0;
  auto turnsLeft = [&hull, &k](Vec2 p) { return Cross(hull[k - 1] - hull[k - 2], p - hull[k - 2]) > 0.0f; };
  for (Vec2 p : points) {  // lower chain
    while (k >= 2 && !turnsLeft(p)) --k;
    hull[k++] = p;
  }
  for (size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {  // upper chain
    while (k >= lower && !turnsLeft(points[i])) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);  // the last point repeats the first
  return hull;
}

}  // namespace

const char* ToString(LabShapeType type) {
  switch (type) {
    case LabShapeType::Circle:
      return "circle";
    case LabShapeType::Capsule:
      return "capsule";
    case LabShapeType::Segment:
      return "segment";
    case LabShapeType::Box:
      return "box";
    case LabShapeType::Polygon:
      return "polygon";
  }
  return "?";
}

void GiveCapsuleRadius(LabShape& shape) {
  if (shape.type == LabShapeType::Capsule && shape.radius < 0.01f) shape.radius = kDefaultCapsuleRadius;
}

GjkLab::GjkLab() : result_(std::make_unique<GjkLabResult>()) {
  // A separated start: a box and a hexagon side by side above the origin, so the Minkowski
  // difference (centred at position A - position B) sits below them, left of the origin.
  shapes[0] = {.type = LabShapeType::Box, .size = 1.0f, .position = {-3.0f, 4.0f}, .angle = 0.0f};
  shapes[1] = {.type = LabShapeType::Polygon,
               .vertices = 6,
               .size = 1.2f,
               .radius = 0.1f,
               .position = {0.6f, 4.6f},
               .angle = 0.3f};
  Rebuild(0);
  Rebuild(1);
  Update();
}

// Builds the engine shape for shapes[which]. Sizes were validated by ApplySetting or the panel; a
// constructor that still refuses (e.g. a radius of 0 for a capsule) gets the smallest valid value.
void GjkLab::Rebuild(int which) {
  LabShape& s = shapes[which];
  s.size = std::clamp(s.size, 0.01f, kMaxSize);
  s.radius = std::clamp(s.radius, 0.0f, kMaxSize);
  s.vertices = std::clamp(s.vertices, 3, kMaxPolygonVertices);
  switch (s.type) {
    case LabShapeType::Circle:
      geometry_[which] = MakeCircle({0.0f, 0.0f}, s.size).value;
      break;
    case LabShapeType::Capsule:
      geometry_[which] = MakeCapsule({-s.size, 0.0f}, {s.size, 0.0f}, std::max(s.radius, 0.01f)).value;
      break;
    case LabShapeType::Segment:
      geometry_[which] = MakeSegment({-s.size, 0.0f}, {s.size, 0.0f}).value;
      break;
    case LabShapeType::Box:
      geometry_[which] =
          s.radius > 0.0f ? MakeRoundedBox(s.size, s.size, s.radius).value : MakeBox(s.size, s.size).value;
      break;
    case LabShapeType::Polygon:
      geometry_[which] = MakeRegularPolygon(s.vertices, s.size, s.radius).value;
      break;
  }
}

void GjkLab::Update() {
  Rebuild(0);
  Rebuild(1);
  GjkLabResult& r = *result_;
  DistanceInput input{MakeProxy(geometry_[0]), MakeProxy(geometry_[1]), XForm(0), XForm(1)};

  DistanceOutput cold = ShapeDistance(input);
  r.coldIterations = cold.iterations;
  if (!warmStart) cache_ = {};
  r.distance = ShapeDistance(input, &cache_, &r.gjk);

  r.penetration = {};
  r.epa.count = 0;
  if (r.distance.coresOverlap) r.penetration = ShapePenetration(input, &cache_, &r.epa);
  r.manifold = Collide(geometry_[0], XForm(0), geometry_[1], XForm(1), nullptr);

  // The difference of the cores is the hull of all pairwise vertex differences (William Bittle,
  // "GJK (Gilbert-Johnson-Keerthi)").
  std::vector<Vec2> points;
  for (int i = 0; i < input.proxyA.count; ++i) {
    for (int j = 0; j < input.proxyB.count; ++j) {
      points.push_back(TransformPoint(input.transformA, input.proxyA.points[i]) -
                       TransformPoint(input.transformB, input.proxyB.points[j]));
    }
  }
  r.radiusSum = input.proxyA.radius + input.proxyB.radius;
  r.difference = ConvexHull(std::move(points));
}

Vec2 GjkLab::DifferenceSupport(Vec2 d) const {
  auto farthest = [](const ShapeProxy& proxy, const Transform& xf, Vec2 direction) {
    Vec2 best = TransformPoint(xf, proxy.points[0]);
    for (int i = 1; i < proxy.count; ++i) {
      const Vec2 p = TransformPoint(xf, proxy.points[i]);
      if (Dot(p, direction) > Dot(best, direction)) best = p;
    }
    return best;
  };
  return farthest(MakeProxy(geometry_[0]), XForm(0), d) - farthest(MakeProxy(geometry_[1]), XForm(1), -d);
}

GjkStepReadout GjkLab::StepReadout(int step) const {
  GjkStepReadout out;
  if (step < 0 || step >= result_->gjk.count) return out;
  const Vec2 v = result_->gjk.steps[step].closestPoint;
  out.closestPoint = v;
  out.upperBound = Length(v);
  if (out.upperBound > 0.0f) {
    out.lowerBound = Dot(v, DifferenceSupport(-v)) / out.upperBound;
    out.gap = out.upperBound - out.lowerBound;
  }
  return out;
}

int GjkLab::ShownGjkStep() const {
  const int count = result_->gjk.count;
  if (count == 0) return -1;
  return gjkStep < 0 || gjkStep >= count ? count - 1 : gjkStep;
}

int GjkLab::ShownEpaStep() const {
  const int count = result_->epa.count;
  if (count == 0) return -1;
  return epaStep < 0 || epaStep >= count ? count - 1 : epaStep;
}

AABB GjkLab::Bounds() const {
  AABB box{{0.0f, 0.0f}, {0.0f, 0.0f}};  // the origin is always in view
  for (int i = 0; i < 2; ++i) {
    const AABB b = ComputeAABB(geometry_[i], XForm(i));
    box = {Min(box.lower, b.lower), Max(box.upper, b.upper)};
  }
  const float r = result_->radiusSum;
  for (Vec2 p : result_->difference) box = {Min(box.lower, p - Vec2{r, r}), Max(box.upper, p + Vec2{r, r})};
  return box;
}

bool GjkLab::Contains(int which, Vec2 point) const {
  DistanceInput input{MakeProxy(geometry_[which]), ShapeProxy{&point, 1, 0.0f}, XForm(which), Transform{}};
  return ShapesOverlap(input);
}

bool GjkLab::MouseDown(Vec2 world, MouseButton button, bool) {
  if (button != MouseButton::kLeft) return false;
  for (int i = 1; i >= 0; --i) {  // B is drawn on top: it wins where they overlap
    if (Contains(i, world)) {
      grabbed_ = i;
      grabOffset_ = shapes[i].position - world;
      return true;
    }
  }
  return false;
}

void GjkLab::MouseMove(Vec2 world) {
  if (grabbed_ >= 0) shapes[grabbed_].position = world + grabOffset_;
}

void GjkLab::MouseUp(Vec2, MouseButton button) {
  if (button == MouseButton::kLeft) grabbed_ = -1;
}

bool GjkLab::MouseWheel(Vec2 world, float notches) {
  int target = grabbed_;
  for (int i = 1; i >= 0 && target < 0; --i) {
    if (Contains(i, world)) target = i;
  }
  if (target < 0) return false;
  shapes[target].angle += notches * kWheelRotation;
  return true;
}

// Keys: shape_a, vertices_a, size_a, radius_a, x_a, y_a, angle_a (degrees), the same with _b, and
// warm (0/1), iteration and epa_iteration (-1 = last).
bool GjkLab::ApplySetting(std::string_view key, std::string_view value, std::string& error) {
  auto fail = [&](const char* what) {
    error = "gjk_lab setting '" + std::string(key) + "' needs " + what + "; got '" + std::string(value) + "'";
    return false;
  };
  double number = 0.0;
  const bool isNumber = ParseNumber(value, number);
  if (key == "warm") {
    if (value != "0" && value != "1") return fail("0 or 1");
    warmStart = value == "1";
    return true;
  }
  if (key == "iteration" || key == "epa_iteration") {
    if (!isNumber || number != std::floor(number) || number < -1 || number > kGjkMaxIterations) {
      return fail("a whole number from -1 (the last) up");
    }
    (key == "iteration" ? gjkStep : epaStep) = static_cast<int>(number);
    return true;
  }
  if (key.size() < 3 || (!key.ends_with("_a") && !key.ends_with("_b"))) {
    error = "unknown gjk_lab setting '" + std::string(key) +
            "' (keys: shape_a, vertices_a, size_a, radius_a, "
            "x_a, y_a, angle_a, the same with _b, warm, iteration, epa_iteration)";
    return false;
  }
  LabShape& s = shapes[key.back() == 'a' ? 0 : 1];
  const std::string_view name = key.substr(0, key.size() - 2);
  if (name == "shape") {
    if (!ParseShapeType(value, s.type)) return fail("circle, capsule, segment, box or polygon");
    GiveCapsuleRadius(s);
  } else if (name == "vertices") {
    if (!isNumber || number != std::floor(number) || number < 3 || number > kMaxPolygonVertices) {
      return fail("a whole number from 3 to 64");
    }
    s.vertices = static_cast<int>(number);
  } else if (name == "size") {
    if (!isNumber || number < 0.01 || number > kMaxSize) return fail("a size from 0.01 to 100 m");
    s.size = static_cast<float>(number);
  } else if (name == "radius") {
    if (!isNumber || number < 0 || number > kMaxSize) return fail("a radius from 0 to 100 m");
    s.radius = static_cast<float>(number);
  } else if (name == "x" || name == "y") {
    if (!isNumber || std::abs(number) > kMaxCoordinate) return fail("a coordinate within 1000 m");
    (name == "x" ? s.position.x : s.position.y) = static_cast<float>(number);
  } else if (name == "angle") {
    if (!isNumber || std::abs(number) > 1e6) return fail("an angle in degrees");
    s.angle = static_cast<float>(number * std::numbers::pi / 180.0);
  } else {
    error = "unknown gjk_lab setting '" + std::string(key) + "'";
    return false;
  }
  return true;
}

}  // namespace mk::sandbox
