// SPDX-License-Identifier: MIT
// The side panel's frame, shared by world scenes and labs: one window pinned to the left edge and
// sized from the display every frame (so it fits any window and follows resizes; its content scrolls),
// collapsing sections, label room for sliders, and the keys help as the panel's last section (so no
// second window ever covers the scene). ImGui only, no SDL.
#pragma once

namespace mk::sandbox {

/// Width of the side panel (pixels) and its gap to the window edges.
inline constexpr float kPanelWidth = 300.0f;
inline constexpr float kPanelMargin = 10.0f;

/// Opens every section (--expand-panels: screenshots and the layout test show everything).
void SetExpandAllSections(bool expand);

/// Begins the side panel window ("Minkowski") at the left edge, as tall as the display allows.
void BeginSidePanel();
void EndSidePanel();

/// A collapsing section; returns true when open. `defaultOpen` is its state on first show.
bool Section(const char* label, bool defaultOpen);

/// Item width for the widgets that follow: the panel's width less room for `longestLabel` (the
/// longest label among them), so no label is cut off. Pair with ImGui::PopItemWidth().
void PushLabelRoom(const char* longestLabel);

/// The "Help: keys and mouse" section (closed by default).
void HelpSection();

}  // namespace mk::sandbox
