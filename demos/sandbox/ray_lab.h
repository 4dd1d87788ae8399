// SPDX-License-Identifier: MIT
// The ray-cast lab: a World holding one static shape of every kind, a ray whose two ends the mouse
// drags, and its closest hit or every hit with the surface normals; optionally a box swept along the
// same ray (World::CastShapeClosest) drawn where it first touches. Uses only the public query API.
#pragma once

#include "lab.h"
#include "minkowski/world.h"

#include <string>
#include <vector>

namespace mk::sandbox {

class RayLab final : public Lab {
 public:
  RayLab();

  const char* Name() const override { return "ray_lab"; }
  const char* Description() const override {
    return "a ray (drag its ends) against every shape kind: closest or all hits, normals, a swept box";
  }
  void Update() override;
  void Draw(DebugDraw& draw) const override;
  void DrawPanel() override;
  AABB Bounds() const override { return {{-8.0f, -5.0f}, {8.0f, 5.0f}}; }
  bool MouseDown(Vec2 world, MouseButton button, bool shift) override;
  void MouseMove(Vec2 world) override;
  void MouseUp(Vec2 world, MouseButton button) override;
  bool MouseWheel(Vec2, float) override { return false; }
  /// Keys: x0, y0, x1, y1 (the ray's ends, metres, within +-50), all (0/1: every hit instead of the
  /// closest), sweep (0/1: the swept box).
  bool ApplySetting(std::string_view key, std::string_view value, std::string& error) override;

  /// The hits of the last Update: the closest (at most one) or all, sorted by fraction.
  const std::vector<CastHit>& Hits() const { return hits_; }
  /// Where the swept box first touches (hit false when it touches nothing or sweep is off).
  const CastHit& SweepHit() const { return sweep_; }
  const World& GetWorld() const { return world_; }

  /// The box swept along the ray: half extents (m).
  static constexpr float kSweepHalfWidth = 0.4f;
  static constexpr float kSweepHalfHeight = 0.25f;

 private:
  World world_;
  Vec2 start_{-7.0f, 3.5f};
  Vec2 end_{7.0f, -2.0f};
  bool all_ = false;
  bool sweepEnabled_ = false;
  int dragging_ = -1;  // 0: the start, 1: the end, -1: none
  std::vector<CastHit> hits_;
  CastHit sweep_;
};

}  // namespace mk::sandbox
