// SPDX-License-Identifier: MIT
#include "shape_gallery.h"

#include <imgui.h>

#include <string>

namespace mk::sandbox {

ShapeGalleryLab::ShapeGalleryLab() : shapes_(MakeDemoShapes(errors_)) {}

AABB ShapeGalleryLab::Bounds() const {
  AABB box{{0.0f, 0.0f}, {0.0f, 0.0f}};
  bool first = true;
  for (const DemoShape& s : shapes_) {
    // A turning shape stays inside the circle its farthest point sweeps; 1.5 m covers every demo
    // shape (the largest reaches 1.2 m from its frame) and its label below it.
    constexpr float kReach = 2.0f;
    AABB b{s.position - Vec2{kReach, kReach}, s.position + Vec2{kReach, kReach}};
    box = first ? b : AABB{Min(box.lower, b.lower), Max(box.upper, b.upper)};
    first = false;
  }
  return box;
}

void ShapeGalleryLab::DrawPanel() {
  ImGui::SliderFloat("speed", &speed_, 0.0f, 4.0f, "%.2fx");
  ImGui::Checkbox("AABBs", &toggles_.aabbs);
  ImGui::Checkbox("centres of mass", &toggles_.centersOfMass);
  ImGui::Checkbox("transforms", &toggles_.transforms);
  ImGui::Checkbox("labels", &toggles_.labels);
  for (const std::string& error : errors_) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", error.c_str());
}

bool ShapeGalleryLab::ApplySetting(std::string_view key, std::string_view value, std::string& error) {
  bool* toggle = key == "aabbs"        ? &toggles_.aabbs
                 : key == "mass"       ? &toggles_.centersOfMass
                 : key == "transforms" ? &toggles_.transforms
                 : key == "labels"     ? &toggles_.labels
                                       : nullptr;
  if (toggle == nullptr) {
    error =
        "unknown shape_gallery setting '" + std::string(key) + "' (keys: aabbs, mass, transforms, labels)";
    return false;
  }
  if (value != "0" && value != "1") {
    error = "shape_gallery setting '" + std::string(key) + "' needs 0 or 1";
    return false;
  }
  *toggle = value == "1";
  return true;
}

}  // namespace mk::sandbox
