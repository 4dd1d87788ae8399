// SPDX-License-Identifier: MIT
// The sandbox's ImGui panels drawn without a window: an ImGui context with a display size and a built
// font atlas (nothing is rendered), so a test runs the panels' per-frame code (the knob clamps, what
// they hand back through SceneView::SetSettings) as the sandbox does every frame.
#pragma once

#include "panel_ui.h"
#include "view_host.h"

#include <imgui.h>

namespace mk::sandbox::test {

class PanelHarness {
 public:
  PanelHarness(float width = 1280.0f, float height = 720.0f) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(width, height);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the atlas NewFrame requires
    SetExpandAllSections(true);
  }
  ~PanelHarness() {
    SetExpandAllSections(false);
    ImGui::DestroyContext();
  }
  PanelHarness(const PanelHarness&) = delete;
  PanelHarness& operator=(const PanelHarness&) = delete;

  /// One frame of the side panel for `host`; returns the scene or lab picked (always null here).
  const char* Frame(ViewHost& host, bool paused = false) {
    const char* picked = nullptr;
    FrameOf([&] { picked = host.BuildPanels(paused); });
    return picked;
  }

  /// One frame whose widgets `build` adds (e.g. one panel section inside BeginSidePanel).
  template <class Build>
  void FrameOf(Build build) {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    build();
    ImGui::Render();
  }
};

}  // namespace mk::sandbox::test
