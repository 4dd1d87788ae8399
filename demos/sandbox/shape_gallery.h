// SPDX-License-Identifier: MIT
// The shape gallery lab: one shape of every kind built with the engine's geometry API, turning in
// place, with bounding boxes, centres of mass and labels (the sandbox's first scene).
#pragma once

#include "demo_shapes.h"
#include "lab.h"

#include <string>
#include <vector>

namespace mk::sandbox {

class ShapeGalleryLab final : public Lab {
 public:
  ShapeGalleryLab();

  const char* Name() const override { return "shape_gallery"; }
  const char* Description() const override {
    return "every shape kind, turning, with AABBs and centres of mass";
  }
  void Advance(float seconds) override { seconds_ += speed_ * seconds; }
  void Update() override {}
  void Draw(DebugDraw& draw) const override { DrawDemoShapes(shapes_, seconds_, toggles_, draw); }
  void DrawPanel() override;
  AABB Bounds() const override;
  bool MouseDown(Vec2, MouseButton, bool) override { return false; }
  void MouseMove(Vec2) override {}
  void MouseUp(Vec2, MouseButton) override {}
  bool MouseWheel(Vec2, float) override { return false; }
  bool ApplySetting(std::string_view key, std::string_view value, std::string& error) override;

  /// Constructor errors of shapes left out (empty when all were built).
  const std::vector<std::string>& Errors() const { return errors_; }

 private:
  std::vector<std::string> errors_;
  std::vector<DemoShape> shapes_;
  DemoToggles toggles_;
  float seconds_ = 0.0f;
  float speed_ = 1.0f;
};

}  // namespace mk::sandbox
