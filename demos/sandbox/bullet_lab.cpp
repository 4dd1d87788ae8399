// SPDX-License-Identifier: MIT
#include "bullet_lab.h"

#include "fixed_step.h"
#include "panel_ui.h"

#include <imgui.h>

#include <charconv>
#include <cmath>
#include <numbers>
#include <string>

namespace mk::sandbox {

namespace {

constexpr std::uint32_t kSeed = 2024;   // the same shots after every restart
constexpr int kMaxStepsPerAdvance = 8;  // a slow frame drops time rather than falling behind
constexpr int kShotsDrawn = 24;         // the latest shots' paths stay on screen
constexpr float kDegrees = std::numbers::pi_v<float> / 180.0f;
constexpr Color kGunColor{170, 170, 190, 255};
constexpr Color kStoppedColor{120, 220, 120, 255};
constexpr Color kTunnelColor{255, 80, 80, 255};
constexpr Color kImpactColor{255, 90, 200, 255};

// A number in [lo, hi], or false.
bool ParseNumber(std::string_view text, float lo, float hi, float& out) {
  float number = 0.0f;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || ptr != text.data() + text.size() || !(number >= lo && number <= hi)) return false;
  out = number;
  return true;
}

}  // namespace

BulletLab::BulletLab() { Restart(); }

void BulletLab::Restart() {
  WorldDef def{.gravity = {0.0f, 0.0f}};
  def.settings.enableContinuous = config_.continuous;
  world_ = World(def);
  world_.SetContinuousRecording(true);
  // The range's floor, below every shot (the spread reaches 1.6 m off the axis at the wall).
  const BodyId floor = world_.CreateBody({.position = {0.0f, -2.75f}});
  world_.CreateShape(floor, {}, MakeBox(6.0f, 0.25f).value);
  wall_ = world_.CreateBody(
      {.type = config_.dynamicWall ? BodyType::Dynamic : BodyType::Static, .position = {kWallX, 0.0f}});
  world_.CreateShape(wall_, {}, MakeBox(0.5f * config_.thickness, kWallHalfHeight).value);
  bullet_ = {};
  rng_.seed(kSeed);
  shots_.clear();
  shotStep_ = 0;
  stopped_ = tunnelled_ = 0;
  accumulator_ = 0.0f;
}

// Uniform in [0, 1) from the lab's own generator (same sequence on every standard library).
float BulletLab::Uniform() { return static_cast<float>(rng_() >> 8) * (1.0f / 16777216.0f); }

void BulletLab::Fire() {
  const float angle = (2.0f * Uniform() - 1.0f) * config_.spread * kDegrees;
  Shot shot;
  shot.direction = {std::cos(angle), std::sin(angle)};
  // Fired at a random moment of a step: the shot starts up to one step's travel behind the muzzle, so
  // where the steps end relative to the wall differs from shot to shot.
  shot.start = kMuzzle - Uniform() * config_.speed * kTimeStep * shot.direction;
  shot.last = shot.start;
  bullet_ = world_.CreateBody({.type = BodyType::Dynamic,
                               .position = shot.start,
                               .linearVelocity = config_.speed * shot.direction,
                               .isBullet = config_.isBullet});
  world_.CreateShape(bullet_, {}, Circle{{0.0f, 0.0f}, config_.radius});
  lastLocal_ = InvTransformPoint(world_.GetTransform(wall_), shot.start);
  shots_.push_back(shot);
  shotStep_ = 0;
}

// After a step: the first time of impact of the shot, and whether it crossed the wall's centre plane
// within the wall's height (in the wall's frame, so a pushed dynamic wall is judged where it is).
void BulletLab::Track() {
  Shot& shot = shots_.back();
  const Vec2 centre = ToVec2(world_.GetPosition(bullet_));  // the lab stands at the origin: exact
  shot.last = centre;
  for (const ContinuousRecord& record : world_.GetContinuousRecords()) {
    if (record.body == bullet_ && !shot.hasImpact) {
      shot.hasImpact = true;
      shot.impact = ToVec2(record.impact.p);
    }
  }
  const Vec2 local = InvTransformPoint(world_.GetTransform(wall_), centre);
  if (shot.outcome == Outcome::kFlying && lastLocal_.x < 0.0f && local.x >= 0.0f) {
    const float y = lastLocal_.y + (local.y - lastLocal_.y) * (-lastLocal_.x / (local.x - lastLocal_.x));
    if (std::fabs(y) <= kWallHalfHeight) {
      shot.outcome = Outcome::kTunnelled;
      ++tunnelled_;
    }
  }
  lastLocal_ = local;
}

void BulletLab::EndShot() {
  Shot& shot = shots_.back();
  if (shot.outcome == Outcome::kFlying) {
    shot.outcome = Outcome::kStopped;
    ++stopped_;
  }
  world_.DestroyBody(bullet_);
  bullet_ = {};
  if (config_.dynamicWall) {  // home again for the next shot
    world_.SetTransform(wall_, {kWallX, 0.0f}, 0.0f);
    world_.SetLinearVelocity(wall_, {0.0f, 0.0f});
    world_.SetAngularVelocity(wall_, 0.0f);
  }
}

void BulletLab::Step() {
  if (bullet_.IsNull()) Fire();
  world_.Step(kTimeStep);
  Track();
  if (++shotStep_ >= kShotSteps) EndShot();
}

void BulletLab::Advance(float seconds) {
  if (!firing_ || !(seconds > 0.0f)) return;
  accumulator_ += seconds;
  RunFixedSteps(accumulator_, kTimeStep, kMaxStepsPerAdvance, [this] { Step(); });
}

void BulletLab::Draw(DebugDraw& draw) const {
  world_.Draw(draw, DrawOptions{.continuous = true});  // the live step's sweep, when it had one
  draw.DrawSolidCapsule(kMuzzle - Vec2{0.8f, 0.0f}, kMuzzle, 0.12f, kGunColor);
  const size_t first = shots_.size() > kShotsDrawn ? shots_.size() - kShotsDrawn : 0;
  for (size_t i = first; i < shots_.size(); ++i) {
    const Shot& shot = shots_[i];
    const Color color = shot.outcome == Outcome::kTunnelled ? kTunnelColor : kStoppedColor;
    // The path from the muzzle to where the shot is (or ended); a shot stopped by continuous collision
    // shows its time-of-impact pose. Its first step starts inside the gun (up to a step's travel behind
    // the muzzle, 5 m at 300 m/s: under the panel), which is not drawn.
    const Vec2 end = shot.hasImpact ? shot.impact : shot.last;
    if (Dot(end - kMuzzle, shot.direction) <= 0.0f) continue;  // not out of the gun yet
    draw.DrawSegment(kMuzzle, end, color);
    if (shot.hasImpact) draw.DrawCircle(shot.impact, config_.radius, kImpactColor);
    draw.DrawCircle(shot.last, config_.radius, color);
  }
}

void BulletLab::DrawPanel() {
  ImGui::TextWrapped("fired %d   stopped %d   tunnelled %d", Fired(), stopped_, tunnelled_);
  ImGui::TextWrapped("green: stopped, red: tunnelled, magenta: pose at the time of impact");
  ImGui::Checkbox("firing", &firing_);
  Config c = config_;
  PushLabelRoom("wall thickness (m)");
  bool changed = ImGui::SliderFloat("wall thickness (m)", &c.thickness, 0.01f, 2.0f, "%.3f",
                                    ImGuiSliderFlags_Logarithmic);
  changed |=
      ImGui::SliderFloat("bullet radius (m)", &c.radius, 0.005f, 0.5f, "%.3f", ImGuiSliderFlags_Logarithmic);
  changed |= ImGui::SliderFloat("speed (m/s)", &c.speed, 1.0f, 1000.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
  changed |= ImGui::SliderFloat("angle spread (deg)", &c.spread, 0.0f, 15.0f, "%.1f");
  ImGui::PopItemWidth();
  changed |= ImGui::Checkbox("dynamic wall", &c.dynamicWall);
  changed |= ImGui::Checkbox("isBullet", &c.isBullet);
  changed |= ImGui::Checkbox("continuous collision", &c.continuous);
  if (changed) {
    config_ = c;
    Restart();
  }
  if (ImGui::Button("restart")) Restart();
}

bool BulletLab::ApplySetting(std::string_view key, std::string_view value, std::string& error) {
  bool* flag = key == "dynamic"      ? &config_.dynamicWall
               : key == "bullet"     ? &config_.isBullet
               : key == "continuous" ? &config_.continuous
                                     : nullptr;
  if (flag != nullptr) {
    if (value != "0" && value != "1") {
      error = "bullet_range setting '" + std::string(key) + "' takes 0 or 1";
      return false;
    }
    *flag = value == "1";
    Restart();
    return true;
  }
  struct Range {
    const char* name;
    float* field;
    float lo, hi;
  };
  const Range ranges[] = {{"thickness", &config_.thickness, 0.01f, 2.0f},
                          {"radius", &config_.radius, 0.005f, 0.5f},
                          {"speed", &config_.speed, 1.0f, 1000.0f},
                          {"spread", &config_.spread, 0.0f, 15.0f}};
  for (const Range& range : ranges) {
    if (key != range.name) continue;
    if (!ParseNumber(value, range.lo, range.hi, *range.field)) {
      error = "bullet_range setting '" + std::string(key) + "' takes a number in [" +
              std::to_string(range.lo) + ", " + std::to_string(range.hi) + "]";
      return false;
    }
    Restart();
    return true;
  }
  error = "unknown bullet_range setting '" + std::string(key) +
          "' (keys: thickness, radius, speed, spread, dynamic, bullet, continuous)";
  return false;
}

}  // namespace mk::sandbox
