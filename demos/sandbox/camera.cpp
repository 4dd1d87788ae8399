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

AABB VisibleBounds(const Camera& camera) {
  Vec2 a = ScreenToWorld(camera, {0.0f, camera.height});
  Vec2 b = ScreenToWorld(camera, {camera.width, 0.0f});
  return {Min(a, b), Max(a, b)};
}

}  // namespace mk::sandbox
