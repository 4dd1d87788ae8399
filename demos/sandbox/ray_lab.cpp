// SPDX-License-Identifier: MIT
#include "ray_lab.h"

#include "minkowski/world_vector.h"

#include <imgui.h>

#include <charconv>
#include <string>

namespace mk::sandbox {

namespace {

constexpr float kGrabRadius = 0.75f;   // m: a press this close to an end of the ray grabs it
constexpr float kNormalLength = 0.6f;  // m: drawn normals
constexpr float kMaxCoordinate = 50.0f;
constexpr Color kRayColor{255, 220, 90, 255};
constexpr Color kSweepColor{120, 170, 255, 255};

}  // namespace

RayLab::RayLab() {
  const BodyId body = world_.CreateBody({});
  world_.CreateShape(body, {}, MakeCircle({-5.0f, 0.5f}, 1.0f).value);
  world_.CreateShape(body, {}, MakeCapsule({-2.5f, -2.0f}, {-1.0f, -0.5f}, 0.5f).value);
  world_.CreateShape(body, {}, MakeSegment({0.5f, 2.5f}, {1.5f, -1.0f}).value);
  world_.CreateShape(body, {}, MakeOffsetBox(0.8f, 0.5f, {3.5f, 1.5f}, 0.5f).value);
  world_.CreateShape(body, {}, MakeRoundedBox(0.6f, 0.4f, 0.3f).value);
  const BodyId hexagon = world_.CreateBody({.position = {5.0f, -2.0f}, .angle = 0.3f});
  world_.CreateShape(hexagon, {}, MakeRegularPolygon(6, 1.0f, 0.15f).value);
  const BodyId many = world_.CreateBody({.position = {-4.0f, -3.5f}});
  world_.CreateShape(many, {}, MakeRegularPolygon(16, 0.9f).value);
  Update();
}

void RayLab::Update() {
  const Vec2 translation = end_ - start_;
  hits_.clear();
  if (all_) {
    hits_ = mk::CastRayAll(world_, start_, translation);
  } else if (const CastHit hit = world_.CastRayClosest(start_, translation); hit.hit) {
    hits_.push_back(hit);
  }
  sweep_ = {};
  if (sweepEnabled_) {
    sweep_ = world_.CastShapeClosest(MakeBox(kSweepHalfWidth, kSweepHalfHeight).value,
                                     MakeWorldTransform(start_, 0.0f), translation);
  }
}

void RayLab::Draw(DebugDraw& draw) const {
  world_.Draw(draw);
  const float reach = hits_.empty() || all_ ? 1.0f : hits_.front().fraction;
  draw.DrawSegment(start_, start_ + reach * (end_ - start_), kRayColor);
  if (reach < 1.0f) draw.DrawSegment(start_ + reach * (end_ - start_), end_, colors::kSleeping);
  draw.DrawPoint(start_, 8.0f, kRayColor);
  draw.DrawPoint(end_, 6.0f, kRayColor);
  for (const CastHit& hit : hits_) {
    const Vec2 point = ToVec2(hit.point);  // the lab stands at the origin: exact
    draw.DrawPoint(point, 7.0f, colors::kContact);
    draw.DrawSegment(point, point + kNormalLength * hit.normal, colors::kNormal);
  }
  if (sweepEnabled_) {
    const Polygon box = MakeBox(kSweepHalfWidth, kSweepHalfHeight).value;
    DrawShape(draw, box, MakeTransform(start_, 0.0f), kSweepColor);
    if (sweep_.hit) {
      DrawShape(draw, box, MakeTransform(start_ + sweep_.fraction * (end_ - start_), 0.0f), kSweepColor);
      const Vec2 point = ToVec2(sweep_.point);
      draw.DrawPoint(point, 7.0f, colors::kContact);
      draw.DrawSegment(point, point + kNormalLength * sweep_.normal, colors::kNormal);
    }
  }
}

void RayLab::DrawPanel() {
  ImGui::TextWrapped("Drag either end of the ray with the left button.");
  ImGui::Checkbox("all hits", &all_);
  ImGui::Checkbox("sweep a box", &sweepEnabled_);
  ImGui::TextWrapped("ray (%.2f, %.2f) -> (%.2f, %.2f)", start_.x, start_.y, end_.x, end_.y);
  for (const CastHit& hit : hits_) {
    ImGui::TextWrapped("shape %u: fraction %.4f, point (%.3f, %.3f), normal (%.3f, %.3f)", hit.shape.index1,
                       hit.fraction, hit.point.x, hit.point.y, hit.normal.x, hit.normal.y);
  }
  if (hits_.empty()) ImGui::TextUnformatted("no hit");
  if (sweepEnabled_) {
    if (sweep_.hit) {
      ImGui::TextWrapped("box touches shape %u at fraction %.4f", sweep_.shape.index1, sweep_.fraction);
    } else {
      ImGui::TextUnformatted("box touches nothing");
    }
  }
}

bool RayLab::MouseDown(Vec2 world, MouseButton button, bool) {
  if (button != MouseButton::kLeft) return false;
  const float toStart = Distance(world, start_), toEnd = Distance(world, end_);
  if (toStart > kGrabRadius && toEnd > kGrabRadius) return false;
  dragging_ = toStart <= toEnd ? 0 : 1;
  return true;
}

void RayLab::MouseMove(Vec2 world) {
  if (dragging_ < 0 || !IsFinite(world)) return;
  (dragging_ == 0 ? start_ : end_) = world;
}

void RayLab::MouseUp(Vec2, MouseButton button) {
  if (button == MouseButton::kLeft) dragging_ = -1;
}

bool RayLab::ApplySetting(std::string_view key, std::string_view value, std::string& error) {
  if (key == "all" || key == "sweep") {
    if (value != "0" && value != "1") {
      error = "ray_lab setting '" + std::string(key) + "' takes 0 or 1";
      return false;
    }
    (key == "all" ? all_ : sweepEnabled_) = value == "1";
    return true;
  }
  float* target = key == "x0"   ? &start_.x
                  : key == "y0" ? &start_.y
                  : key == "x1" ? &end_.x
                  : key == "y1" ? &end_.y
                                : nullptr;
  if (target == nullptr) {
    error = "unknown ray_lab setting '" + std::string(key) + "' (keys: x0, y0, x1, y1, all, sweep)";
    return false;
  }
  float number = 0.0f;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (ec != std::errc() || ptr != value.data() + value.size() || !IsFinite(number) ||
      number < -kMaxCoordinate || number > kMaxCoordinate) {
    error = "ray_lab setting '" + std::string(key) + "' takes a number of metres in [-50, 50]";
    return false;
  }
  *target = number;
  return true;
}

}  // namespace mk::sandbox
