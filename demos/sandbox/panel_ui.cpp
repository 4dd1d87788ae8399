// SPDX-License-Identifier: MIT
#include "panel_ui.h"

#include <imgui.h>

#include <algorithm>

namespace mk::sandbox {
namespace {

bool expandAll = false;

}  // namespace

void SetExpandAllSections(bool expand) { expandAll = expand; }

void BeginSidePanel() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // Pinned and sized every frame: the panel never leaves a resized window and never runs past its
  // bottom edge; what does not fit scrolls inside it.
  const float height = std::max(display.y - 2.0f * kPanelMargin, 100.0f);
  ImGui::SetNextWindowPos(ImVec2(kPanelMargin, kPanelMargin), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, height), ImGuiCond_Always);
  // Opaque: the dark style's 94% let bullet paths and shapes show through the text.
  ImGui::SetNextWindowBgAlpha(1.0f);
  ImGui::Begin("Minkowski", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize);
}

void EndSidePanel() { ImGui::End(); }

bool Section(const char* label, bool defaultOpen) {
  if (expandAll) ImGui::SetNextItemOpen(true, ImGuiCond_Always);
  return ImGui::CollapsingHeader(label, defaultOpen ? ImGuiTreeNodeFlags_DefaultOpen : 0);
}

void PushLabelRoom(const char* longestLabel) {
  const float room = ImGui::CalcTextSize(longestLabel).x + ImGui::GetStyle().ItemInnerSpacing.x;
  ImGui::PushItemWidth(-room);
}

void HelpSection() {
  if (!Section("Help: keys and mouse", false)) return;
  ImGui::TextUnformatted(
      "space   pause / run\n"
      ". or S  single step\n"
      "R       restart the scene, refit\n"
      "F       fit the camera\n"
      "H       hide / show the panel\n"
      "[ ]     previous / next sample\n"
      "Esc     quit");
  ImGui::TextWrapped("Left drag: grab a body (labs: move a shape). In a replay a click inspects a body.");
  ImGui::TextWrapped("Shift + left drag: launch a bomb (red).");
  ImGui::TextWrapped("Right or middle drag: pan. Wheel: zoom (labs: turn a shape).");
}

}  // namespace mk::sandbox
