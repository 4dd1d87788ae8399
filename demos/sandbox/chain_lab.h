// SPDX-License-Identifier: MIT
// The chain track lab: a box and a wheel launched along a flat track of many short pieces, either one
// open chain (one-sided segments with ghost vertices) or the same pieces as two-sided segments, or for
// reference one solid ground box, with a plot of each body's vertical speed over time. On the chain
// both lines are those of the solid ground; on segments the box catches the internal edges and hops.
// The box and the wheel never touch each other (one negative collision group).
// Uses only the public World API.
#pragma once

#include "lab.h"
#include "minkowski/world.h"

#include <string>
#include <vector>

namespace mk::sandbox {

class ChainLab final : public Lab {
 public:
  ChainLab();

  const char* Name() const override { return "chain_lab"; }
  const char* Description() const override {
    return "a box and a wheel sliding along a chain track (or two-sided segments), vertical speed plotted";
  }
  void Advance(float seconds) override;
  void Update() override {}
  void Draw(DebugDraw& draw) const override;
  void DrawPanel() override;
  AABB Bounds() const override { return {{-12.0f, -2.0f}, {12.0f, 6.0f}}; }
  bool MouseDown(Vec2, MouseButton, bool) override { return false; }
  void MouseMove(Vec2) override {}
  void MouseUp(Vec2, MouseButton) override {}
  bool MouseWheel(Vec2, float) override { return false; }
  /// Keys: track (chain, segments or ground: one chain, two-sided segments, or one ground box),
  /// speed (launch speed, m/s, 0..30). Either restarts the run.
  bool ApplySetting(std::string_view key, std::string_view value, std::string& error) override;

  /// Runs one fixed step of the track (what Advance does per 1/60 s); for tests. Does nothing once the
  /// run is over (Running() false).
  void StepOnce();
  /// True until the plot is full or a body reaches the end of the track.
  bool Running() const;
  /// Vertical speed (m/s) of the box and of the wheel at every step since the launch.
  const std::vector<float>& BoxVy() const { return boxVy_; }
  const std::vector<float>& WheelVy() const { return wheelVy_; }
  const World& GetWorld() const { return world_; }

  static constexpr float kTimeStep = 1.0f / 60.0f;
  static constexpr int kPieces = 40;       // 0.5 m each, from x = -10 to 10
  static constexpr int kSettleSteps = 30;  // resting before the launch
  static constexpr int kMaxSamples = 240;  // steps plotted (4 s)

 private:
  void Restart();

  World world_;
  enum class Track { Chain, Segments, Ground };
  Track track_ = Track::Chain;
  float speed_ = 6.0f;
  BodyId box_, wheel_;
  int steps_ = 0;
  float accumulator_ = 0.0f;
  std::vector<float> boxVy_, wheelVy_;
};

}  // namespace mk::sandbox
