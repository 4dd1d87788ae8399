// SPDX-License-Identifier: MIT
#include "camera.h"

#include <algorithm>

namespace mk::sandbox {

Vec2 WorldToScreen(const Camera& camera, Vec2 world) {
  Vec2 d = world - camera.center;
  return {0.5f * camera.width + d.x * camera.pixelsPerMetre,
          0.5f * camera.height - d.y * camera.pixelsPerMetre};
}

Vec2 ScreenToWorld(const Camera& camera, Vec2 screen) {
  float metresPerPixel = 1.0f / camera.pixelsPerMetre;
  return {camera.center.x + (screen.x - 0.5f * camera.width) * metresPerPixel,
          camera.center.y - (screen.y - 0.5f * camera.height) * metresPerPixel};
}

Camera Pan(const Camera& camera, Vec2 screenDelta) {
  // Dragging right moves the world right, i.e. the centre left; screen y is flipped.
  Camera moved = camera;
  moved.center.x -= screenDelta.x / camera.pixelsPerMetre;
  moved.center.y += screenDelta.y / camera.pixelsPerMetre;
  return moved;
}

Camera ZoomAt(const Camera& camera, Vec2 screenPoint, float factor) {
  if (!(factor > 0.0f) || !IsFinite(factor)) return camera;
  Vec2 anchor = ScreenToWorld(camera, screenPoint);
  Camera zoomed = camera;
  zoomed.pixelsPerMetre = std::clamp(camera.pixelsPerMetre * factor, kMinPixelsPerMetre, kMaxPixelsPerMetre);
  // Shift the centre so the anchor lands back under the same pixel.
  Vec2 drift = ScreenToWorld(zoomed, screenPoint) - anchor;
  zoomed.center -= drift;
  return zoomed;
}

Camera FitBounds(const Camera& camera, const AABB& bounds, float margin) {
  if (!IsValid(bounds) || !(margin >= 0.0f && margin < 0.5f)) return camera;
  Vec2 size = bounds.upper - bounds.lower;
  float usable = 1.0f - 2.0f * margin;
  // The tighter of the two axes decides; a zero extent on one axis leaves the other to decide.
  float zoomX = size.x > 0.0f ? usable * camera.width / size.x : kMaxPixelsPerMetre;
  float zoomY = size.y > 0.0f ? usable * camera.height / size.y : kMaxPixelsPerMetre;
  if (size.x <= 0.0f && size.y <= 0.0f) return camera;
  Camera fitted = camera;
  fitted.center = 0.5f * (bounds.lower + bounds.upper);
  fitted.pixelsPerMetre = std::clamp(std::min(zoomX, zoomY), kMinPixelsPerMetre, kMaxPixelsPerMetre);
  return fitted;
}

Camera FitBoundsBeside(const Camera& camera, const AABB& bounds, float leftPixels, float margin) {
  if (!IsValid(bounds)) return camera;
  if (!(leftPixels >= 0.0f && leftPixels < camera.width)) return FitBounds(camera, bounds, margin);
  Camera part = camera;
  part.width = camera.width - leftPixels;
  Camera fitted = FitBounds(part, bounds, margin);
  // The part's centre is leftPixels / 2 right of the full viewport's centre.
  fitted.center.x -= 0.5f * leftPixels / fitted.pixelsPerMetre;
  fitted.width = camera.width;
  return fitted;
}

AABB VisibleBounds(const Camera& camera) {
  Vec2 a = ScreenToWorld(camera, {0.0f, camera.height});
  Vec2 b = ScreenToWorld(camera, {camera.width, 0.0f});
  return {Min(a, b), Max(a, b)};
}

}  // namespace mk::sandbox
