// SPDX-License-Identifier: MIT
#include "layout_check.h"

#include <imgui.h>
#include <imgui_internal.h>  // ImGuiContext::Windows

#include <cstdio>
#include <string>
#include <vector>

namespace mk::sandbox {

std::string CheckLayout() {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  const ImVec2 display = g.IO.DisplaySize;
  std::vector<const ImGuiWindow*> shown;
  for (const ImGuiWindow* w : g.Windows) {
    const ImGuiWindowFlags skip =
        ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup;
    if (w->WasActive && !w->Hidden && (w->Flags & skip) == 0) shown.push_back(w);
  }
  std::string failures;
  char line[256];
  for (size_t i = 0; i < shown.size(); ++i) {
    const ImGuiWindow* w = shown[i];
    const ImVec2 lo = w->Pos, hi = ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y);
    if (lo.x < 0.0f || lo.y < 0.0f || hi.x > display.x || hi.y > display.y) {
      std::snprintf(line, sizeof line, "window '%s' (%.0f,%.0f)-(%.0f,%.0f) leaves the %.0fx%.0f display\n",
                    w->Name, lo.x, lo.y, hi.x, hi.y, display.x, display.y);
      failures += line;
    }
    // ContentSize excludes the window padding; the inner rectangle includes it on both sides.
    const float innerWidth = w->InnerRect.GetWidth() - 2.0f * w->WindowPadding.x;
    if (!w->Collapsed && w->ContentSize.x > innerWidth + 0.5f) {
      std::snprintf(line, sizeof line, "window '%s': content %.0f px wide in %.0f px (text cut off)\n",
                    w->Name, w->ContentSize.x, innerWidth);
      failures += line;
    }
    for (size_t j = i + 1; j < shown.size(); ++j) {
      const ImGuiWindow* o = shown[j];
      const bool apart = hi.x <= o->Pos.x || o->Pos.x + o->Size.x <= lo.x || hi.y <= o->Pos.y ||
                         o->Pos.y + o->Size.y <= lo.y;
      if (!apart) failures += std::string("windows '") + w->Name + "' and '" + o->Name + "' overlap\n";
    }
  }
  if (shown.empty()) failures += "no window is shown\n";
  return failures;
}

}  // namespace mk::sandbox
