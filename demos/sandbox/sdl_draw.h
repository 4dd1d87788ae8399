// SPDX-License-Identifier: MIT
// DebugDraw implemented with SDL_Renderer. Every primitive is turned into screen-space triangles in
// one vertex array and submitted with a single SDL_RenderGeometry call per frame: scenes with
// thousands of bodies would otherwise cost thousands of SDL calls (one per line or fan).
#pragma once

#include "camera.h"
#include "minkowski/debug_draw.h"

#include <SDL.h>

#include <vector>

struct ImDrawList;

namespace mk::sandbox {

/// Batching DebugDraw. Use per frame: BeginFrame, any Draw* calls, Flush.
class SdlDraw final : public DebugDraw {
 public:
  /// Starts a frame: clears the batch and takes the view. Text goes to `textList` (ImGui's
  /// background draw list, drawn with the UI); null drops text.
  void BeginFrame(const Camera& view, ImDrawList* textList);

  /// Submits the batch to `renderer` (alpha blended) and keeps it until the next BeginFrame.
  /// Returns false when SDL refused the geometry (SDL_GetError() says why).
  bool Flush(SDL_Renderer* renderer);

  /// Triangles in the current batch (for the stats panel and tests).
  int TriangleCount() const { return static_cast<int>(indexBuffer.size() / 3); }

  /// Outline width in pixels.
  float lineWidth = 1.5f;
  /// Fill opacity relative to the outline (0..1): fills are translucent so overlaps stay readable.
  float fillOpacity = 0.5f;
  /// Solid shapes smaller than this on screen (pixels, the larger side of their screen box) are drawn
  /// as one fill in the outline's colour, inset by half a pixel so neighbours keep a dark seam: at that
  /// size the outline band would cover the fill anyway, and it costs 8 of the shape's 10 triangles.
  /// Under 3 pixels there is no inset and a shape grows to 2.5 pixels (what its outline covered).
  float smallShapePixels = 6.0f;

  void DrawPolygon(const Vec2* vertices, int count, Color color) override;
  void DrawSolidPolygon(const Transform& xf, const Vec2* vertices, int count, float radius,
                        Color color) override;
  void DrawCircle(Vec2 center, float radius, Color color) override;
  void DrawSolidCircle(const Transform& xf, float radius, Color color) override;
  void DrawSolidCapsule(Vec2 p1, Vec2 p2, float radius, Color color) override;
  void DrawSegment(Vec2 p1, Vec2 p2, Color color) override;
  void DrawTransform(const Transform& xf, float axisLength) override;
  void DrawPoint(Vec2 p, float size, Color color) override;
  void DrawString(Vec2 p, const char* text, Color color) override;

 private:
  // Screen-space primitives (pixels).
  int PushVertex(Vec2 screen, SDL_Color color);
  void AddTriangle(int a, int b, int c);
  void AddLine(Vec2 a, Vec2 b, float width, SDL_Color color);
  /// Closed outline `width` pixels wide through screen points, with mitered corners.
  void AddClosedOutline(const Vec2* points, int count, float width, SDL_Color color);
  void AddConvexFill(const Vec2* points, int count, SDL_Color color);
  /// Fill translucent, then outline opaque: the look of every solid shape (small ones: see
  /// smallShapePixels). Shapes wholly off screen add nothing.
  void AddSolid(const Vec2* points, int count, Color color);
  /// True when the screen box of `points` misses the viewport; `extent` gets the box's larger side.
  bool OffScreen(const Vec2* points, int count, float& extent) const;
  /// Appends to `outline` the arc of `radius` metres around world point `center`, starting in unit
  /// direction `from` and turning `sweep` radians counter-clockwise, as screen points, with a segment
  /// count chosen for its size on screen.
  void AppendArc(Vec2 center, float radius, Vec2 from, float sweep);
  int ArcSegments(float radius, float sweep) const;

  Camera camera;
  ImDrawList* text = nullptr;
  std::vector<SDL_Vertex> vertexBuffer;
  std::vector<int> indexBuffer;
  std::vector<Vec2> outline;  // scratch: screen points of the shape being built
  std::vector<Vec2> world;    // scratch: world vertices of the polygon being built
  std::vector<Vec2> inset;    // scratch: screen points of a small shape's inset fill
};

}  // namespace mk::sandbox
