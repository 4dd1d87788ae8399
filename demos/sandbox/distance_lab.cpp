// SPDX-License-Identifier: MIT
#include "distance_lab.h"

#include "panel_ui.h"

#include <imgui.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace mk::sandbox {

namespace {

constexpr float kTau = 2.0f * std::numbers::pi_v<float>;
constexpr float kWheelRotation = 5.0f * std::numbers::pi_v<float> / 180.0f;  // radians per wheel notch
constexpr float kMaxCoordinate = 50.0f;
constexpr int kMaxDrawnCells = 400;  // cells drawn at most (a fine grid would only paint the screen)
const char* const kKindNames[kOutlineKinds] = {"star", "gear", "comb", "spiral", "c", "noisy"};

constexpr Color kColorA{230, 160, 90, 255};
constexpr Color kColorB{100, 160, 240, 255};
constexpr Color kHull{110, 110, 120, 255};
constexpr Color kLower{60, 220, 220, 255};
constexpr Color kSlab{200, 200, 90, 255};
constexpr Color kCell{120, 120, 70, 255};
constexpr Color kHashed{230, 90, 230, 255};
constexpr Color kQueried{80, 230, 110, 255};

Vec2 Polar(float radius, float angle) { return {radius * std::cos(angle), radius * std::sin(angle)}; }

/// Andrew's monotone chain (counter-clockwise, collinear points dropped).
std::vector<Vec2> ConvexHull(std::vector<Vec2> p) {
  std::sort(p.begin(), p.end(), [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  const int n = static_cast<int>(p.size());
  if (n < 3) return p;
  std::vector<Vec2> h(2 * p.size());
  int k = 0;
  auto turnsLeft = [&](Vec2 q) { return Cross(h[k - 1] - h[k - 2], q - h[k - 2]) > 0.0f; };
  for (int i = 0; i < n; ++i) {  // lower chain
    while (k >= 2 && !turnsLeft(p[i])) --k;
    h[k++] = p[i];
  }
  for (int i = n - 2, lower = k + 1; i >= 0; --i) {  // upper chain
    while (k >= lower && !turnsLeft(p[i])) --k;
    h[k++] = p[i];
  }
  h.resize(static_cast<std::size_t>(k - 1));  // the last point repeats the first
  return h;
}

}  // namespace

std::vector<Vec2> MakeOutline(OutlineKind kind) {
  std::vector<Vec2> p;
  switch (kind) {
    case OutlineKind::Star:
      for (int i = 0; i < 14; ++i) p.push_back(Polar(i % 2 == 0 ? 1.6f : 0.7f, kTau * i / 14));
      break;
    case OutlineKind::Gear:  // 12 teeth, each a trapezoid from 1.2 m to 1.6 m
      for (int t = 0; t < 12; ++t) {
        const float a = kTau * t / 12, w = kTau / 12;
        for (auto [r, f] : {std::pair{1.2f, 0.0f}, {1.6f, 0.15f}, {1.6f, 0.45f}, {1.2f, 0.6f}}) {
          p.push_back(Polar(r, a + f * w));
        }
      }
      break;
    case OutlineKind::Comb:  // a bar with 8 teeth pointing up
      p = {{-1.6f, -1.0f}, {1.6f, -1.0f}};
      for (int k = 7; k >= 0; --k) {
        const float x0 = -1.6f + 0.4f * k;
        p.insert(p.end(), {{x0 + 0.4f, -0.6f}, {x0 + 0.2f, -0.6f}, {x0 + 0.2f, 1.0f}, {x0, 1.0f}});
      }
      p.erase(p.begin() + 2);  // the first gap starts at the bar's corner
      p.insert(p.begin() + 2, Vec2{1.6f, -0.6f});
      break;
    case OutlineKind::Spiral:  // open, three turns out to 1.6 m
      for (int i = 1; i <= 180; ++i) p.push_back(Polar(1.6f * i / 180, 3.0f * kTau * i / 180));
      break;
    case OutlineKind::C:
      p = {{-1.5f, -1.5f},  {1.5f, -1.5f}, {1.5f, -0.75f}, {-0.75f, -0.75f},
           {-0.75f, 0.75f}, {1.5f, 0.75f}, {1.5f, 1.5f},   {-1.5f, 1.5f}};
      break;
    case OutlineKind::Noisy: {
      std::uint32_t state = 12345;  // a fixed LCG: the same outline every run
      for (int i = 0; i < 400; ++i) {
        state = state * 1664525u + 1013904223u;
        const float noise = static_cast<float>(state >> 8) / 16777216.0f;
        p.push_back(Polar(1.3f + 0.25f * std::sin(5.0f * kTau * i / 400) + 0.08f * noise, kTau * i / 400));
      }
      break;
    }
  }
  return p;
}

DistanceLab::DistanceLab() { Update(); }

void DistanceLab::Advance(float seconds) {
  if (deform_) time_ += seconds;
}

void DistanceLab::Update() {
  for (int i = 0; i < 2; ++i) {
    points_[i] = MakeOutline(kind_[i]);
    if (deform_) {
      // Every vertex breathes radially with its own phase: new vertices every frame, nothing reused.
      for (std::size_t k = 0; k < points_[i].size(); ++k) {
        points_[i][k] *= 1.0f + 0.08f * std::sin(2.0f * time_ + 0.7f * static_cast<float>(k) + 1.3f * i);
      }
    }
    std::vector<Vec2> world;
    for (Vec2 p : points_[i]) world.push_back(TransformPoint(XForm(i), p));
    hull_[i] = ConvexHull(world);
  }
  const NonConvexInput input{{points_[0].data(), static_cast<int>(points_[0].size()), IsClosed(kind_[0])},
                             {points_[1].data(), static_cast<int>(points_[1].size()), IsClosed(kind_[1])},
                             XForm(0),
                             XForm(1)};
  output_ = NonConvexDistance(input, workspace_, &debug_);
}

void DistanceLab::Draw(DebugDraw& draw) const {
  for (int i = 0; i < 2; ++i) draw.DrawPolygon(hull_[i].data(), static_cast<int>(hull_[i].size()), kHull);
  const NonConvexOutput& out = output_;
  const NonConvexDebug& d = debug_;
  if (out.path == NonConvexPath::SlabHash || out.path == NonConvexPath::GjkExact) {
    draw.DrawSegment(d.hullPointA, d.hullPointB, kLower);  // the lower bound: the hulls' distance
  }
  if (out.path == NonConvexPath::SlabHash) {
    const Vec2 along = LeftPerp(d.normal);
    const float t0 = d.cellOrigin, t1 = d.cellOrigin + static_cast<float>(d.cellCount) * d.cellSize;
    auto at = [&](float z, float t) { return (d.planeOffset + z) * d.normal + t * along; };
    draw.DrawSegment(at(d.slabMinZ, t0), at(d.slabMinZ, t1), kSlab);
    draw.DrawSegment(at(d.slabMaxZ, t0), at(d.slabMaxZ, t1), kSlab);
    for (int k = 0; k <= std::min(d.cellCount, kMaxDrawnCells); ++k) {
      const float t = t0 + static_cast<float>(k) * d.cellSize;
      draw.DrawSegment(at(d.slabMinZ, t), at(d.slabMaxZ, t), kCell);
    }
  } else if (out.path == NonConvexPath::OverlapGrid) {
    const float h = d.gridCellSize;
    for (std::size_t k = 0; k + 1 < d.gridCells.size() && k < 2 * kMaxDrawnCells; k += 2) {
      const Vec2 lo = d.gridOrigin + Vec2{h * static_cast<float>(d.gridCells[k]),
                                          h * static_cast<float>(d.gridCells[k + 1])};
      const Vec2 box[4] = {lo, lo + Vec2{h, 0.0f}, lo + Vec2{h, h}, lo + Vec2{0.0f, h}};
      draw.DrawPolygon(box, 4, kCell);
    }
  }
  for (int i = 0; i < 2; ++i) {
    const Transform xf = XForm(i);
    const std::vector<Vec2>& p = points_[i];
    const int segments = IsClosed(kind_[i]) ? static_cast<int>(p.size()) : static_cast<int>(p.size()) - 1;
    for (int s = 0; s < segments; ++s) {
      draw.DrawSegment(TransformPoint(xf, p[s]), TransformPoint(xf, p[(s + 1) % p.size()]),
                       i == 0 ? kColorA : kColorB);
    }
  }
  // Hashed (A) and queried (B) segments over the outlines.
  auto mark = [&](int which, Span<const int> ids, Color color) {
    const std::vector<Vec2>& p = points_[which];
    for (int s : ids) {
      draw.DrawSegment(TransformPoint(XForm(which), p[s]),
                       TransformPoint(XForm(which), p[(s + 1) % p.size()]), color);
    }
  };
  if (out.path != NonConvexPath::GjkExact) {
    mark(0, d.hashedSegments, kHashed);
    mark(1, d.queriedSegments, kQueried);
  }
  if (out.status != NonConvexStatus::InvalidInput) {
    draw.DrawSegment(out.pointA, out.pointB, colors::kContact);
    draw.DrawPoint(out.pointA, 7.0f, colors::kContact);
    draw.DrawPoint(out.pointB, 7.0f, colors::kContact);
  }
}

void DistanceLab::DrawPanel() {
  PushLabelRoom("shape A");
  for (int i = 0; i < 2; ++i) {
    ImGui::PushID(i);
    int kind = static_cast<int>(kind_[i]);
    if (ImGui::Combo(i == 0 ? "shape A" : "shape B", &kind, kKindNames, kOutlineKinds)) {
      kind_[i] = static_cast<OutlineKind>(kind);
    }
    ImGui::SliderAngle("angle", &angle_[i], -180.0f, 180.0f);
    ImGui::PopID();
  }
  ImGui::PopItemWidth();
  ImGui::Checkbox("deform every frame", &deform_);
  const NonConvexOutput& out = output_;
  static const char* const kStatus[] = {"separated", "intersecting", "contained", "invalid input"};
  static const char* const kPath[] = {"none", "stage 1 (bounds met)", "slab hash", "overlap grid"};
  ImGui::TextWrapped("distance %.5f m (%s)", static_cast<double>(out.distance),
                     kStatus[static_cast<int>(out.status)]);
  ImGui::Text("answered by: %s", kPath[static_cast<int>(out.path)]);
  ImGui::TextWrapped("bounds: lower %.5f, upper %.5f", static_cast<double>(out.lowerBound),
                     static_cast<double>(out.upperBound));
  ImGui::Text("closest segments: A %d, B %d", out.segmentA, out.segmentB);
  ImGui::TextWrapped("GJK iterations %d, pairs tested %d (cells proposed %d)", out.stats.gjkIterations,
                     out.stats.pairsTested, out.stats.pairsFromCells);
  ImGui::TextWrapped("cells %d, rehashes %d, hashed %d, queried %d", out.stats.cells, out.stats.rehashes,
                     out.stats.hashedSegments, out.stats.queriedSegments);
  ImGui::TextWrapped(
      "Grey: hulls. Cyan: lower bound. Yellow: the slab and its cells (or the overlap grid). Magenta: A's "
      "hashed "
      "segments; green: B's queried segments. Red: the exact closest pair. Left-drag a shape to move it; "
      "wheel over a shape to turn it.");
}

bool DistanceLab::Inside(int which, Vec2 world) const {
  const std::vector<Vec2>& h = hull_[which];
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (Cross(h[(i + 1) % h.size()] - h[i], world - h[i]) < 0.0f) return false;
  }
  return h.size() >= 3;
}

bool DistanceLab::MouseDown(Vec2 world, MouseButton button, bool) {
  if (button != MouseButton::kLeft) return false;
  for (int i = 1; i >= 0; --i) {  // B is drawn on top: it wins where the hulls overlap
    if (Inside(i, world)) {
      grabbed_ = i;
      grabOffset_ = position_[i] - world;
      return true;
    }
  }
  return false;
}

void DistanceLab::MouseMove(Vec2 world) {
  if (grabbed_ >= 0 && IsFinite(world)) position_[grabbed_] = world + grabOffset_;
}

void DistanceLab::MouseUp(Vec2, MouseButton button) {
  if (button == MouseButton::kLeft) grabbed_ = -1;
}

bool DistanceLab::MouseWheel(Vec2 world, float notches) {
  int target = grabbed_;
  for (int i = 1; i >= 0 && target < 0; --i) {
    if (Inside(i, world)) target = i;
  }
  if (target < 0) return false;
  angle_[target] += notches * kWheelRotation;
  return true;
}

bool DistanceLab::ApplySetting(std::string_view key, std::string_view value, std::string& error) {
  const std::string k(key);
  if (k == "shape_a" || k == "shape_b") {
    for (int i = 0; i < kOutlineKinds; ++i) {
      if (value == kKindNames[i]) {
        kind_[k == "shape_a" ? 0 : 1] = static_cast<OutlineKind>(i);
        return true;
      }
    }
    error = "distance_lab setting '" + k + "' takes star, gear, comb, spiral, c or noisy";
    return false;
  }
  if (k == "deform") {
    if (value != "0" && value != "1") {
      error = "distance_lab setting 'deform' takes 0 or 1";
      return false;
    }
    deform_ = value == "1";
    return true;
  }
  float* target = k == "x_a"       ? &position_[0].x
                  : k == "y_a"     ? &position_[0].y
                  : k == "angle_a" ? &angle_[0]
                  : k == "x_b"     ? &position_[1].x
                  : k == "y_b"     ? &position_[1].y
                  : k == "angle_b" ? &angle_[1]
                  : k == "time"    ? &time_
                                   : nullptr;
  if (target == nullptr) {
    error = "unknown distance_lab setting '" + k +
            "' (keys: shape_a, x_a, y_a, angle_a, the same with _b, deform, time)";
    return false;
  }
  float number = 0.0f;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (ec != std::errc() || ptr != value.data() + value.size() || !IsFinite(number) ||
      number < -kMaxCoordinate || number > kMaxCoordinate) {
    error = "distance_lab setting '" + k + "' takes a number in [-50, 50]";
    return false;
  }
  const bool isAngle = k == "angle_a" || k == "angle_b";
  *target = isAngle ? number * std::numbers::pi_v<float> / 180.0f : number;
  return true;
}

}  // namespace mk::sandbox
