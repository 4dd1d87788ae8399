// SPDX-License-Identifier: MIT
// Sandbox camera: world metres (y up) <-> screen pixels (y down). Pure value type with no SDL, so
// it can be unit-tested and reused by every view.
#pragma once

#include "minkowski/math.h"

namespace mk::sandbox {

/// A 2D orthographic view onto the world.
struct Camera {
  Vec2 center{0.0f, 0.0f};       ///< world point (metres) shown at the middle of the viewport
  float pixelsPerMetre = 40.0f;  ///< zoom: screen pixels per world metre (> 0)
  float width = 1280.0f;         ///< viewport width, pixels
  float height = 720.0f;         ///< viewport height, pixels
};

/// Zoom limits (pixels per metre): wide enough for a 1 km level and a 1 mm part.
inline constexpr float kMinPixelsPerMetre = 0.5f;
inline constexpr float kMaxPixelsPerMetre = 20000.0f;

/// World point (metres) to screen point (pixels, origin top left, y down).
Vec2 WorldToScreen(const Camera& camera, Vec2 world);

/// Screen point (pixels) to world point (metres); the inverse of WorldToScreen.
Vec2 ScreenToWorld(const Camera& camera, Vec2 screen);

/// The camera moved so the world follows a mouse drag of `screenDelta` pixels.
Camera Pan(const Camera& camera, Vec2 screenDelta);

/// The camera zoomed by `factor` (> 1 zooms in) about a screen point, which keeps showing the same
/// world point; the zoom is clamped to [kMinPixelsPerMetre, kMaxPixelsPerMetre].
Camera ZoomAt(const Camera& camera, Vec2 screenPoint, float factor);

/// The camera centred on `bounds` (metres) at the largest zoom that shows all of it with `margin`
/// (a fraction of the viewport, e.g. 0.05) free on every side; the zoom is clamped as in ZoomAt. An
/// invalid or empty box leaves the camera unchanged.
Camera FitBounds(const Camera& camera, const AABB& bounds, float margin = 0.05f);

/// FitBounds into the part of the viewport right of `leftPixels` (where a side panel covers the
/// left edge); the camera keeps its full viewport.
Camera FitBoundsBeside(const Camera& camera, const AABB& bounds, float leftPixels, float margin = 0.05f);

/// The world rectangle the viewport shows (metres).
AABB VisibleBounds(const Camera& camera);

}  // namespace mk::sandbox
