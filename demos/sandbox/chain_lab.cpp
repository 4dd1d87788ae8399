// SPDX-License-Identifier: MIT
#include "chain_lab.h"

#include "panel_ui.h"

#include <imgui.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

namespace mk::sandbox {

namespace {

constexpr Color kBoxColor{255, 170, 80, 255};
constexpr Color kWheelColor{120, 200, 255, 255};
constexpr Color kAxisColor{140, 140, 140, 255};
constexpr Vec2 kPlotOrigin{-10.0f, 3.5f};  // left end of the plot's zero line (m)
constexpr float kPlotWidth = 20.0f;        // m for kMaxSamples steps
constexpr float kPlotScale = 1.0f;         // m of plot per m/s of vertical speed
constexpr float kMaxSpeed = 30.0f;
constexpr float kWheelRadius = 0.4f;
constexpr float kTrackEnd = 9.0f;  // m: the run stops when a body's centre passes this x
// The track's friction; the box has none (mixed sqrt(0 x 0.6) = 0: it slides without slowing), the
// wheel 0.6 (it rolls).
constexpr float kTrackFriction = 0.6f;

// The flat track, right to left so that the chain's front (its normal) points up.
std::vector<Vec2> TrackPoints() {
  std::vector<Vec2> points;
  for (int i = 0; i <= ChainLab::kPieces; ++i) points.push_back({10.0f - 0.5f * static_cast<float>(i), 0.0f});
  return points;
}

}  // namespace

ChainLab::ChainLab() { Restart(); }

void ChainLab::Restart() {
  world_ = World();
  const BodyId ground = world_.CreateBody({});
  const std::vector<Vec2> points = TrackPoints();
  if (track_ == Track::Chain) {
    world_.CreateChain(ground, {.points = points, .friction = kTrackFriction});
  } else if (track_ == Track::Segments) {
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
      world_.CreateShape(ground, {.friction = kTrackFriction}, Segment{points[i], points[i + 1]});
    }
  } else {
    world_.CreateShape(ground, {.friction = kTrackFriction},
                       MakeOffsetBox(10.0f, 1.0f, {0.0f, -1.0f}, 0.0f).value);
  }
  // The wheel starts 1.5 m ahead of the box at the same speed, but the track slows them unequally
  // (on two-sided segments the box's hops stop it, the wheel's bumps slow it; at 30 m/s the wheel
  // falls behind on the chain too), so one would catch the other. They share a negative collision
  // group instead: they never touch, and each plot shows the track alone (they may pass through
  // each other on screen).
  const Filter apart{.groupIndex = -1};
  box_ = world_.CreateBody({.type = BodyType::Dynamic, .position = {-9.0f, 0.4f}});
  world_.CreateShape(box_, {.friction = 0.0f, .filter = apart}, MakeBox(0.4f, 0.4f).value);
  wheel_ = world_.CreateBody({.type = BodyType::Dynamic, .position = {-7.5f, kWheelRadius}});
  world_.CreateShape(wheel_, {.friction = kTrackFriction, .filter = apart},
                     Circle{{0.0f, 0.0f}, kWheelRadius});
  steps_ = 0;
  accumulator_ = 0.0f;
  boxVy_.clear();
  wheelVy_.clear();
}

bool ChainLab::Running() const {
  // The plot ends when it is full or a body nears the end of the track (beyond it, it would fall).
  const float lead = std::max(ToVec2(world_.GetPosition(box_)).x, ToVec2(world_.GetPosition(wheel_)).x);
  return static_cast<int>(boxVy_.size()) < kMaxSamples && lead < kTrackEnd;
}

void ChainLab::StepOnce() {
  if (!Running()) return;
  if (steps_ == kSettleSteps) {
    world_.SetLinearVelocity(box_, {speed_, 0.0f});
    world_.SetLinearVelocity(wheel_, {speed_, 0.0f});
    world_.SetAngularVelocity(wheel_, -speed_ / kWheelRadius);  // rolling from the start
  }
  world_.Step(kTimeStep);
  ++steps_;
  if (steps_ > kSettleSteps) {
    boxVy_.push_back(world_.GetLinearVelocity(box_).y);
    wheelVy_.push_back(world_.GetLinearVelocity(wheel_).y);
  }
}

void ChainLab::Advance(float seconds) {
  accumulator_ = std::min(accumulator_ + seconds, 0.25f);
  while (accumulator_ >= kTimeStep) {
    accumulator_ -= kTimeStep;
    StepOnce();
  }
}

void ChainLab::Draw(DebugDraw& draw) const {
  world_.Draw(draw);
  const Vec2 axisEnd = kPlotOrigin + Vec2{kPlotWidth, 0.0f};
  draw.DrawSegment(kPlotOrigin, axisEnd, kAxisColor);
  draw.DrawSegment(kPlotOrigin + Vec2{0.0f, -kPlotScale}, kPlotOrigin + Vec2{0.0f, kPlotScale}, kAxisColor);
  const float dx = kPlotWidth / static_cast<float>(kMaxSamples);
  auto plot = [&](const std::vector<float>& vy, Color color) {
    for (std::size_t i = 1; i < vy.size(); ++i) {
      const float x0 = dx * static_cast<float>(i - 1), x1 = dx * static_cast<float>(i);
      const float y0 = std::clamp(kPlotScale * vy[i - 1], -2.0f, 2.0f);
      const float y1 = std::clamp(kPlotScale * vy[i], -2.0f, 2.0f);
      draw.DrawSegment(kPlotOrigin + Vec2{x0, y0}, kPlotOrigin + Vec2{x1, y1}, color);
    }
  };
  plot(boxVy_, kBoxColor);
  plot(wheelVy_, kWheelColor);
}

void ChainLab::DrawPanel() {
  int track = static_cast<int>(track_);
  PushLabelRoom("launch speed (m/s)");
  if (ImGui::Combo("track", &track, "one chain\0two-sided segments\0one ground box\0")) {
    track_ = static_cast<Track>(track);
    Restart();
  }
  if (ImGui::SliderFloat("launch speed (m/s)", &speed_, 0.0f, kMaxSpeed)) Restart();
  ImGui::PopItemWidth();
  if (ImGui::Button("restart")) Restart();
  auto peak = [](const std::vector<float>& vy) {
    float m = 0.0f;
    for (float v : vy) m = std::max(m, std::fabs(v));
    return m;
  };
  ImGui::TextWrapped(
      "plot: vertical speed, 1 m per m/s; box (orange) peak %.4f m/s, wheel (blue) peak %.4f m/s",
      peak(boxVy_), peak(wheelVy_));
}

bool ChainLab::ApplySetting(std::string_view key, std::string_view value, std::string& error) {
  if (key == "track") {
    if (value != "chain" && value != "segments" && value != "ground") {
      error = "chain_lab setting 'track' takes chain, segments or ground";
      return false;
    }
    track_ = value == "chain" ? Track::Chain : value == "segments" ? Track::Segments : Track::Ground;
    Restart();
    return true;
  }
  if (key != "speed") {
    error = "unknown chain_lab setting '" + std::string(key) + "' (keys: track, speed)";
    return false;
  }
  float number = 0.0f;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (ec != std::errc() || ptr != value.data() + value.size() || !IsFinite(number) || number < 0.0f ||
      number > kMaxSpeed) {
    error = "chain_lab setting 'speed' takes m/s in [0, 30]";
    return false;
  }
  speed_ = number;
  Restart();
  return true;
}

}  // namespace mk::sandbox
