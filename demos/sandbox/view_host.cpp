// SPDX-License-Identifier: MIT
#include "view_host.h"

#include "bullet_lab.h"
#include "chain_lab.h"
#include "distance_lab.h"
#include "gjk_lab.h"
#include "panel_ui.h"
#include "ray_lab.h"
#include "samples_browser.h"
#include "shape_gallery.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace mk::sandbox {

const std::vector<const char*>& LabNames() {
  static const std::vector<const char*> names = {"gjk_lab",      "ray_lab",   "distance_lab",
                                                 "bullet_range", "chain_lab", "shape_gallery"};
  return names;
}

std::unique_ptr<Lab> MakeLab(std::string_view name) {
  if (name == "gjk_lab") return std::make_unique<GjkLab>();
  if (name == "ray_lab") return std::make_unique<RayLab>();
  if (name == "distance_lab") return std::make_unique<DistanceLab>();
  if (name == "bullet_range") return std::make_unique<BulletLab>();
  if (name == "chain_lab") return std::make_unique<ChainLab>();
  if (name == "shape_gallery") return std::make_unique<ShapeGalleryLab>();
  return nullptr;
}

std::string ListScenesText(const std::vector<const char*>& labNames) {
  std::string text = "Scenes (--scene NAME):\n";
  for (const scenes::SceneInfo& info : scenes::SceneTable()) {
    text += "  " + std::string(info.name) + " [" + info.category + "]  " + info.description + "\n";
    if (info.paramHelp[0] != '\0') {
      const scenes::SceneParams most = KnobMaximum(info);
      text += "      size/count: " + std::string(info.paramHelp) + " (at most size " +
              std::to_string(most.size) + ", count " + std::to_string(most.count) + ")\n";
    }
  }
  text += "Labs:\n";
  for (const char* name : labNames)
    text += "  " + std::string(name) + "  " + MakeLab(name)->Description() + "\n";
  text += "Settings of world scenes (--settings key=value ...):\n";
  for (const SettingKey& key : SettingKeys()) text += "  " + std::string(key.name) + "  " + key.help + "\n";
  text +=
      "gjk_lab keys: shape_a (circle|capsule|segment|box|polygon), vertices_a, size_a, radius_a, x_a, y_a,\n"
      "  angle_a (degrees), the same with _b, warm (0/1), iteration and epa_iteration (-1 = last)\n"
      "ray_lab keys: x0, y0, x1, y1 (the ray's ends, m), all, sweep (0/1)\n"
      "bullet_range keys: thickness (m), radius (m), speed (m/s), spread (degrees), dynamic, bullet,\n"
      "  continuous (0/1)\n"
      "distance_lab keys: shape_a (star|gear|comb|spiral|c|noisy), x_a, y_a (m, -50..50), angle_a\n"
      "  (degrees), the same with _b, deform (0/1), time (s)\n"
      "chain_lab keys: track (chain|segments|ground), speed (m/s, 0..30)\n"
      "shape_gallery keys: aabbs, mass, transforms, labels (0/1)\n";
  return text;
}

// Splits every "key=value" and hands it to `apply`; stops at the first refusal.
template <class Apply>
bool ApplyEach(const std::vector<std::string>& settings, std::string& error, Apply apply) {
  for (const std::string& pair : settings) {
    std::string_view key, value;
    if (!SplitSetting(pair, key, value)) {
      error = "settings take key=value; got '" + pair + "'";
      return false;
    }
    if (!apply(key, value)) return false;
  }
  return true;
}

bool ViewHost::Load(std::string_view name, const std::vector<std::string>& settings, std::string& error) {
  std::unique_ptr<SceneView> scene;
  std::unique_ptr<Lab> lab = MakeLab(name);
  if (lab == nullptr) {
    const scenes::SceneInfo* info = scenes::FindScene(name);
    if (info == nullptr) {
      error = "unknown scene '" + std::string(name) + "' (--list-scenes names them)";
      return false;
    }
    SceneSettings s = DefaultSettings(*info);
    if (scene_ != nullptr) {  // how you look at a scene and run it carries over; its solver does not
      s.draw = scene_->Settings().draw;
      s.workers = scene_->Settings().workers;
      s.farAway = scene_->Settings().farAway;  // the far-away toggle moves any scene
      s.farFrameAtZero = scene_->Settings().farFrameAtZero;
    }
    if (!ApplyEach(settings, error,
                   [&](auto key, auto value) { return ApplySetting(s, key, value, error); }) ||
        !CheckKnobs(*info, s.params, error)) {
      return false;
    }
    scene = std::make_unique<SceneView>(*info, s);
  } else {
    if (!ApplyEach(settings, error,
                   [&](auto key, auto value) { return lab->ApplySetting(key, value, error); })) {
      return false;
    }
    lab->Update();
  }
  scene_ = std::move(scene);
  lab_ = std::move(lab);
  name_ = std::string(name);
  settings_ = settings;
  return true;
}

bool ViewHost::LoadAdjacent(int step, std::string& error) {
  return Load(Adjacent(Name(), step).name, {}, error);
}

void ViewHost::Restart() {
  if (scene_ != nullptr) {
    scene_->Restart();  // keeps the settings changed in the panels since loading
    return;
  }
  std::string error;
  Load(std::string(name_), std::vector<std::string>(settings_), error);
}

void ViewHost::StepOnce() {
  if (scene_ != nullptr) scene_->StepOnce();
  if (lab_ != nullptr) lab_->Advance(1.0f / 60.0f);
}

void ViewHost::Advance(float realSeconds) {
  if (scene_ != nullptr) scene_->Advance(realSeconds);  // clamps long frames itself, counting them
  if (lab_ != nullptr) lab_->Advance(std::min(realSeconds, SceneView::kMaxFrameSeconds));
}

void ViewHost::Update() {
  if (lab_ != nullptr) lab_->Update();
}

void ViewHost::Draw(DebugDraw& draw, const AABB& visible, float metresPerPixel) const {
  if (scene_ != nullptr) scene_->Draw(draw, visible, metresPerPixel);
  if (lab_ != nullptr) lab_->Draw(draw);
}

AABB ViewHost::Bounds() const {
  if (scene_ != nullptr) return scene_->Bounds();
  if (lab_ != nullptr) return lab_->Bounds();
  return {{-10.0f, -10.0f}, {10.0f, 10.0f}};
}

void ViewHost::MouseDown(Vec2 world, bool shift) {
  if (scene_ != nullptr) scene_->MouseDown(world, shift);
  if (lab_ != nullptr) lab_->MouseDown(world, MouseButton::kLeft, shift);
}

void ViewHost::MouseMove(Vec2 world) {
  if (scene_ != nullptr) scene_->MouseMove(world);
  if (lab_ != nullptr) lab_->MouseMove(world);
}

void ViewHost::MouseUp(Vec2 world) {
  if (scene_ != nullptr) scene_->MouseUp(world);
  if (lab_ != nullptr) lab_->MouseUp(world, MouseButton::kLeft);
}

bool ViewHost::MouseWheel(Vec2 world, float notches) {
  return lab_ != nullptr && lab_->MouseWheel(world, notches);
}

const char* ViewHost::BuildPanels(bool paused) {
  if (scene_ != nullptr) {
    scene_->paused = paused;
    return DrawScenePanels(*scene_);
  }
  BeginSidePanel();
  ImGui::TextWrapped("%s: %s", lab_->Name(), lab_->Description());
  const char* picked = nullptr;
  if (Section("Scenes", true)) {
    PushLabelRoom("search");
    picked = DrawScenePicker(lab_->Name());
    ImGui::PopItemWidth();
  }
  if (Section("Lab", true)) lab_->DrawPanel();
  HelpSection();
  EndSidePanel();
  return picked;
}

std::string ViewHost::HoverText(Vec2 world) {
  if (scene_ == nullptr) return "";
  HoverInfo info = scene_->Hover(world);
  if (info.body.IsNull()) return "";
  char text[160];
  // Static and kinematic bodies have no mass (the World reports 0 kg): say what they are instead.
  if (info.type == BodyType::Static) {
    std::snprintf(text, sizeof text, "body %u (gen %u)\nstatic", info.body.index1, info.body.generation);
    return text;
  }
  char what[32];
  if (info.type == BodyType::Kinematic) {
    std::snprintf(what, sizeof what, "kinematic");
  } else {
    std::snprintf(what, sizeof what, "mass %.3f kg", static_cast<double>(info.mass));
  }
  std::snprintf(text, sizeof text, "body %u (gen %u)\n%s\nvelocity (%.3f, %.3f) m/s\nspin %.3f rad/s",
                info.body.index1, info.body.generation, what, static_cast<double>(info.velocity.x),
                static_cast<double>(info.velocity.y), static_cast<double>(info.angularVelocity));
  return text;
}

}  // namespace mk::sandbox
