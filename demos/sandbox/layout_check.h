// SPDX-License-Identifier: MIT
// The layout check (--check-layout), on the current ImGui context after a frame: the sandbox runs it
// after its last frame, the tests after frames of the panel harness (tests/sandbox/panel_harness.h).
#pragma once

#include <string>

namespace mk::sandbox {

/// Every visible top-level window (not tooltips, popups or child regions) lies inside the display, no
/// two overlap, and none has content wider than its inner area (ImGui measures content from the widest
/// item, so a cut-off label or line of text shows up there). Returns the failures, one line each;
/// empty when the layout is sound. Needs two frames at least: ImGui sizes content from the frame before.
std::string CheckLayout();

}  // namespace mk::sandbox
