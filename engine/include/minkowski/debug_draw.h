// SPDX-License-Identifier: MIT
// Minkowski — the interface through which the engine draws. The engine never sees SDL, OpenGL or
// ImGui: the sandbox (demos/sandbox) implements DebugDraw, and tests implement a recorder.
#pragma once

#include "minkowski/export.h"
#include "minkowski/geometry.h"
#include "minkowski/math.h"

#include <cstdint>

namespace MK_API mk {

/// An sRGB colour with alpha, each channel 0..255.
struct Color {
  /// Red, green, blue and alpha (255 = opaque).
  ///@{
  std::uint8_t r = 255, g = 255, b = 255, a = 255;
  ///@}
};

/// Colours the engine uses by default (the sandbox may remap them).
namespace colors {
inline constexpr Color kStatic{128, 200, 128, 255};    ///< static bodies
inline constexpr Color kDynamic{230, 180, 110, 255};   ///< dynamic and kinematic bodies
inline constexpr Color kSleeping{140, 140, 160, 255};  ///< sleeping bodies (DrawOptions::sleepColors)
inline constexpr Color kAABB{200, 100, 200, 255};      ///< shape AABBs
inline constexpr Color kContact{255, 60, 60, 255};     ///< contact points
inline constexpr Color kNormal{60, 200, 255, 255};     ///< contact normals
inline constexpr Color kWhite{255, 255, 255, 255};     ///< contact impulse arrows, broadphase tree lines
}  // namespace colors

/// Receives drawing commands in world coordinates (metres). All calls are made between the caller's
/// begin and end of a frame; pointers passed in are valid only during the call.
class DebugDraw {
 public:
  virtual ~DebugDraw() = default;

  /// Closed polygon outline through `count` world points.
  virtual void DrawPolygon(const Vec2* vertices, int count, Color color) = 0;

  /// Filled polygon given in local coordinates, placed by `xf`, rounded by `radius` metres (0 = sharp).
  virtual void DrawSolidPolygon(const Transform& xf, const Vec2* vertices, int count, float radius,
                                Color color) = 0;

  /// Circle outline.
  virtual void DrawCircle(Vec2 center, float radius, Color color) = 0;

  /// Filled circle placed by `xf` (its rotation is drawn as a radius line).
  virtual void DrawSolidCircle(const Transform& xf, float radius, Color color) = 0;

  /// Filled capsule between two world points.
  virtual void DrawSolidCapsule(Vec2 p1, Vec2 p2, float radius, Color color) = 0;

  /// Line segment.
  virtual void DrawSegment(Vec2 p1, Vec2 p2, Color color) = 0;

  /// A frame: x axis red, y axis green, `axisLength` metres long.
  virtual void DrawTransform(const Transform& xf, float axisLength) = 0;

  /// A point of `size` pixels (screen space, so it stays visible at any zoom).
  virtual void DrawPoint(Vec2 p, float size, Color color) = 0;

  /// Text anchored at a world point.
  virtual void DrawString(Vec2 p, const char* text, Color color) = 0;
};

/// Draws a shape placed by `xf` through the interface (filled, with its radius).
///@{
void DrawShape(DebugDraw& draw, const Circle& circle, const Transform& xf, Color color);
void DrawShape(DebugDraw& draw, const Capsule& capsule, const Transform& xf, Color color);
void DrawShape(DebugDraw& draw, const Segment& segment, const Transform& xf, Color color);
void DrawShape(DebugDraw& draw, const Polygon& polygon, const Transform& xf, Color color);
///@}
/// The segment, with a short tick (a fifth of its length, at most 0.25 m) from its midpoint along
/// the normal: the side that collides.
void DrawShape(DebugDraw& draw, const ChainSegment& segment, const Transform& xf, Color color);
/// Any shape; an invalid geometry (type Count) draws nothing.
void DrawShape(DebugDraw& draw, const ShapeGeometry& shape, const Transform& xf, Color color);

}  // namespace mk
