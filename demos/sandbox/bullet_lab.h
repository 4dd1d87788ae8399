// SPDX-License-Identifier: MIT
// The bullet range: a gun fires one circle at a time at a wall of any thickness, in a World of its own
// (no gravity), and counts the shots that stopped and those that tunnelled (the shot's centre crossed
// the wall's centre plane within its height, in the wall's frame). Shows each shot's path, the pose at
// its time of impact (World::GetContinuousRecords) and the live step's swept path (DrawOptions::
// continuous). Every knob (wall thickness, bullet radius and speed, angle spread, static or dynamic
// wall, isBullet, continuous collision) restarts the range. Uses only the public World API.
#pragma once

#include "lab.h"
#include "minkowski/world.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace mk::sandbox {

class BulletLab final : public Lab {
 public:
  /// What the range is set to; ApplySetting and the panel change it.
  struct Config {
    float thickness = 0.1f;    ///< wall thickness (m), [0.01, 2]
    float radius = 0.025f;     ///< bullet radius (m), [0.005, 0.5]
    float speed = 300.0f;      ///< muzzle speed (m/s), [1, 1000]
    float spread = 10.0f;      ///< shots leave within +-spread of the wall's normal (degrees), [0, 15]
    bool dynamicWall = false;  ///< a free wall (0.4 kg per 10 cm), put back at its home between shots
    bool isBullet = true;      ///< the shots' BodyDef::isBullet
    bool continuous = true;    ///< SolverSettings::enableContinuous
  };

  enum class Outcome { kFlying, kStopped, kTunnelled };

  /// One shot: a straight line from `start` along `direction` until it hits something.
  struct Shot {
    Vec2 start{0.0f, 0.0f};      ///< centre when fired (m)
    Vec2 direction{1.0f, 0.0f};  ///< unit
    Vec2 last{0.0f, 0.0f};       ///< centre at the shot's last step (m)
    bool hasImpact = false;      ///< the continuous stage moved it back at least once
    Vec2 impact{0.0f, 0.0f};     ///< its centre at the first of those times of impact (m)
    Outcome outcome = Outcome::kFlying;
  };

  BulletLab();

  const char* Name() const override { return "bullet_range"; }
  const char* Description() const override {
    return "bullets fired at a wall of any thickness: counts of shots stopped and tunnelled, swept paths";
  }
  void Advance(float seconds) override;
  void Update() override {}
  void Draw(DebugDraw& draw) const override;
  void DrawPanel() override;
  AABB Bounds() const override { return {{-5.0f, -3.0f}, {5.0f, 3.0f}}; }
  bool MouseDown(Vec2, MouseButton, bool) override { return false; }
  void MouseMove(Vec2) override {}
  void MouseUp(Vec2, MouseButton) override {}
  bool MouseWheel(Vec2, float) override { return false; }
  /// Keys: thickness, radius, speed, spread (numbers in the Config ranges), dynamic, bullet,
  /// continuous (0/1). Each restarts the range.
  bool ApplySetting(std::string_view key, std::string_view value, std::string& error) override;

  /// One world step (1/60 s): fires a shot when none is in flight, ends it after kShotSteps.
  void Step();
  /// Clears the counts and builds the range again from the configuration (same random shots).
  void Restart();

  const Config& GetConfig() const { return config_; }
  const std::vector<Shot>& Shots() const { return shots_; }
  int Fired() const { return static_cast<int>(shots_.size()); }
  int Stopped() const { return stopped_; }
  int Tunnelled() const { return tunnelled_; }
  const World& GetWorld() const { return world_; }

  static constexpr float kTimeStep = 1.0f / 60.0f;  ///< s
  static constexpr int kShotSteps = 30;             ///< steps each shot lasts
  static constexpr float kWallX = 2.0f;             ///< the wall's centre plane (m)
  static constexpr float kWallHalfHeight = 2.0f;    ///< m
  static constexpr Vec2 kMuzzle{-4.0f, 0.0f};       ///< where shots cross at the start of their step

 private:
  float Uniform();
  void Fire();
  void EndShot();
  void Track();

  Config config_;
  World world_;
  BodyId wall_;
  BodyId bullet_;
  std::mt19937 rng_;
  std::vector<Shot> shots_;
  int shotStep_ = 0;
  int stopped_ = 0, tunnelled_ = 0;
  Vec2 lastLocal_{0.0f, 0.0f};  // the bullet's centre in the wall's frame after the previous step
  float accumulator_ = 0.0f;    // s of real time not yet stepped
  bool firing_ = true;
};

}  // namespace mk::sandbox
