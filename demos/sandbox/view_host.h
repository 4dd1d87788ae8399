// SPDX-License-Identifier: MIT
// What the sandbox window shows: either a scene of the scene table (SceneView) or a lab (GjkLab,
// ShapeGalleryLab). The application forwards time, mouse and drawing to it without caring which.
// No SDL here (ImGui only in BuildPanels), so tests can load scenes and labs with settings.
#pragma once

#include "lab.h"
#include "panel_ui.h"
#include "scene_view.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mk::sandbox {

/// The scene the sandbox opens without --scene.
inline constexpr const char* kDefaultScene = "large_pyramid";
/// Width of the side panel plus its margins (pixels): the camera fits scenes into the rest.
inline constexpr float kPanelPixels = kPanelWidth + 2.0f * kPanelMargin;

/// The labs, by name, in panel order.
const std::vector<const char*>& LabNames();
/// A new lab by name, or nullptr.
std::unique_ptr<Lab> MakeLab(std::string_view name);

/// The --list-scenes text: scenes by category with their knobs, labs, and every settings key.
std::string ListScenesText(const std::vector<const char*>& labNames);

class ViewHost {
 public:
  /// Loads the scene or lab `name` and applies `settings` ("key=value") in order. On an unknown name
  /// or a refused setting returns false with `error` set, and keeps what was loaded before.
  /// Draw toggles carry over from the previous world scene.
  bool Load(std::string_view name, const std::vector<std::string>& settings, std::string& error);

  /// Loads the sample `step` places after the one shown in the samples browser's order, wrapping
  /// (samples_browser.h; the [ and ] keys: -1 and +1). False with `error` set when it cannot.
  bool LoadAdjacent(int step, std::string& error);

  /// Rebuilds the current scene or lab as it was loaded (with the same settings).
  void Restart();
  void StepOnce();
  void Advance(float realSeconds);
  void Update();

  void Draw(DebugDraw& draw, const AABB& visible, float metresPerPixel) const;
  AABB Bounds() const;

  void MouseDown(Vec2 world, bool shift);
  void MouseMove(Vec2 world);
  void MouseUp(Vec2 world);
  /// True when the view used the wheel (e.g. to turn a lab shape); the camera zooms otherwise.
  bool MouseWheel(Vec2 world, float notches);

  /// The side panel (ImGui). Returns a scene or lab name the user picked, or nullptr.
  const char* BuildPanels(bool paused);
  /// Tooltip text for the body under `world` ("" when none, or in a lab).
  std::string HoverText(Vec2 world);

  SceneView* Scene() { return scene_.get(); }
  Lab* GetLab() { return lab_.get(); }
  /// What is shown: the lab's name, or the scene's (a replay's own scene once it named one).
  std::string Name() const { return scene_ != nullptr ? std::string(scene_->Info().name) : name_; }

 private:
  std::unique_ptr<SceneView> scene_;
  std::unique_ptr<Lab> lab_;
  std::string name_;
  std::vector<std::string> settings_;  // as loaded, for Restart
};

}  // namespace mk::sandbox
