// SPDX-License-Identifier: MIT
// The non-convex distance lab: two outlines (star, gear, comb, spiral, C, noisy outline) to drag and
// turn, optionally deforming every frame, and what NonConvexDistance (minkowski/nonconvex_distance.h)
// did: the hulls, both stage 1 bounds, the slab and its cells (or the overlap grid), the segments
// hashed and queried, and the exact closest pair, with the statistics in the panel.
#pragma once

#include "lab.h"
#include "minkowski/nonconvex_distance.h"

#include <string>
#include <vector>

namespace mk::sandbox {

enum class OutlineKind { Star, Gear, Comb, Spiral, C, Noisy };
inline constexpr int kOutlineKinds = 6;

/// Local outline of a kind (about 2 m across); spirals are open, the others closed.
std::vector<Vec2> MakeOutline(OutlineKind kind);
inline bool IsClosed(OutlineKind kind) { return kind != OutlineKind::Spiral; }

class DistanceLab final : public Lab {
 public:
  DistanceLab();

  const char* Name() const override { return "distance_lab"; }
  const char* Description() const override {
    return "exact distance between non-convex outlines: GJK bounds, the slab hash, the closest pair";
  }
  void Advance(float seconds) override;
  void Update() override;
  void Draw(DebugDraw& draw) const override;
  void DrawPanel() override;
  AABB Bounds() const override { return {{-6.0f, -4.0f}, {6.0f, 4.0f}}; }
  bool MouseDown(Vec2 world, MouseButton button, bool shift) override;
  void MouseMove(Vec2 world) override;
  void MouseUp(Vec2 world, MouseButton button) override;
  bool MouseWheel(Vec2 world, float notches) override;
  /// Keys: shape_a, shape_b (star, gear, comb, spiral, c, noisy), x_a, y_a, angle_a (degrees), the same
  /// with _b (metres within +-50), deform (0/1: vertices move every frame), time (seconds of deformation).
  bool ApplySetting(std::string_view key, std::string_view value, std::string& error) override;

  /// The outline as last queried (local frame, deformed if deformation is on), its placement and kind.
  const std::vector<Vec2>& Points(int which) const { return points_[which]; }
  Transform XForm(int which) const { return MakeTransform(position_[which], angle_[which]); }
  OutlineKind Kind(int which) const { return kind_[which]; }
  const NonConvexOutput& Output() const { return output_; }
  const NonConvexDebug& Debug() const { return debug_; }

 private:
  bool Inside(int which, Vec2 world) const;

  OutlineKind kind_[2] = {OutlineKind::C, OutlineKind::Star};
  Vec2 position_[2] = {{-1.5f, 0.0f}, {2.5f, 0.3f}};
  float angle_[2] = {0.0f, 0.4f};
  bool deform_ = false;
  float time_ = 0.0f;
  int grabbed_ = -1;
  Vec2 grabOffset_{0.0f, 0.0f};
  std::vector<Vec2> points_[2];
  std::vector<Vec2> hull_[2];  ///< world-frame convex hulls, counter-clockwise
  NonConvexWorkspace workspace_;
  NonConvexOutput output_;
  NonConvexDebug debug_;
};

}  // namespace mk::sandbox
