// SPDX-License-Identifier: MIT
// A sandbox "lab": an interactive view that is not a physics world (the GJK lab is the first). The
// application hosts either a world scene or a lab; a lab draws through DebugDraw, shows its own ImGui
// panel, takes the mouse in world coordinates and reads `--settings key=value` pairs, so every lab also
// runs headless. Labs use the engine only through its public API.
#pragma once

#include "minkowski/debug_draw.h"
#include "minkowski/math.h"

#include <string>
#include <string_view>

namespace mk::sandbox {

/// Mouse buttons as the application reports them to a lab.
enum class MouseButton { kLeft, kMiddle, kRight };

class Lab {
 public:
  virtual ~Lab() = default;

  /// Scene-table style name (snake_case), e.g. "gjk_lab": the --scene argument that selects the lab.
  virtual const char* Name() const = 0;
  /// One line for the Scenes panel and --help.
  virtual const char* Description() const = 0;

  /// Real time passing (seconds, already scaled and zero while paused), for labs that animate.
  virtual void Advance(float /*seconds*/) {}
  /// Recomputes whatever the lab shows after its inputs changed. Called once per frame before Draw.
  virtual void Update() = 0;
  /// Draws the lab in world coordinates (metres).
  virtual void Draw(DebugDraw& draw) const = 0;
  /// ImGui widgets of the lab, drawn inside a window the application has already begun.
  virtual void DrawPanel() = 0;
  /// World rectangle that shows everything of interest (the application's fit-to-view).
  virtual AABB Bounds() const = 0;

  /// Mouse input in world coordinates. MouseDown returns true when the lab takes the press (then the
  /// application does not pan or pick with it). MouseWheel returns true when the lab uses the notches
  /// (e.g. to rotate a grabbed shape) instead of the camera zooming.
  virtual bool MouseDown(Vec2 world, MouseButton button, bool shift) = 0;
  virtual void MouseMove(Vec2 world) = 0;
  virtual void MouseUp(Vec2 world, MouseButton button) = 0;
  virtual bool MouseWheel(Vec2 world, float notches) = 0;

  /// Applies one `--settings key=value` pair. Returns false with `error` set when the key is unknown to
  /// the lab or the value is out of range; the lab is unchanged then.
  virtual bool ApplySetting(std::string_view key, std::string_view value, std::string& error) = 0;
};

}  // namespace mk::sandbox
