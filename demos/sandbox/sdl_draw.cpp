// SPDX-License-Identifier: MIT
#include "sdl_draw.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace mk::sandbox {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr float kTwoPi = 2.0f * kPi;
// Largest gap, in pixels, between a true arc and the chords drawn for it.
constexpr float kArcTolerancePixels = 0.25f;
constexpr int kMinCircleSegments = 8;
// Sharper corners than this get their miter cut so a thin spike cannot shoot out of an outline.
constexpr float kMinMiterCosine = 0.5f;
constexpr int kMaxCircleSegments = 128;
constexpr float kMinLinePixels = 0.5f;
constexpr float kMaxPointMetres = 0.25f;
constexpr float kMinInsetPixels = 3.0f;
constexpr float kMinShapePixels = 2.5f;
constexpr float kShortLineWidthPerLength = 0.2f;  // a segment is at least 5 times as long as wide

SDL_Color ToSdl(Color c) { return {c.r, c.g, c.b, c.a}; }

SDL_Color Translucent(Color c, float opacity) {
  float a = std::clamp(static_cast<float>(c.a) * opacity, 0.0f, 255.0f);
  return {c.r, c.g, c.b, static_cast<Uint8>(a + 0.5f)};
}

// Unit direction of b - a, or `fallback` when the points coincide.
Vec2 DirectionOr(Vec2 a, Vec2 b, Vec2 fallback) {
  Vec2 d = b - a;
  float lengthSquared = LengthSquared(d);
  return lengthSquared > 1e-12f ? d * (1.0f / std::sqrt(lengthSquared)) : fallback;
}

}  // namespace

void SdlDraw::BeginFrame(const Camera& view, ImDrawList* textList) {
  camera = view;
  text = textList;
  vertexBuffer.clear();
  indexBuffer.clear();
}

bool SdlDraw::Flush(SDL_Renderer* renderer) {
  if (indexBuffer.empty()) return true;
  // Without a texture, SDL_RenderGeometry blends with the renderer's draw blend mode.
  SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
  return SDL_RenderGeometry(renderer, nullptr, vertexBuffer.data(), static_cast<int>(vertexBuffer.size()),
                            indexBuffer.data(), static_cast<int>(indexBuffer.size())) == 0;
}

int SdlDraw::PushVertex(Vec2 screen, SDL_Color color) {
  vertexBuffer.push_back({{screen.x, screen.y}, color, {0.0f, 0.0f}});
  return static_cast<int>(vertexBuffer.size()) - 1;
}

void SdlDraw::AddTriangle(int a, int b, int c) {
  indexBuffer.push_back(a);
  indexBuffer.push_back(b);
  indexBuffer.push_back(c);
}

void SdlDraw::AddLine(Vec2 a, Vec2 b, float width, SDL_Color color) {
  Vec2 d = b - a;
  float length = Length(d);
  if (length < 1e-4f) return;
  // A quad around the segment, extended by half the width at both ends (square caps) so the lines
  // of a polyline overlap at its corners instead of leaving notches.
  Vec2 u = d * (1.0f / length);
  Vec2 along = u * (0.5f * width);
  Vec2 side = LeftPerp(u) * (0.5f * width);
  int i0 = PushVertex(a - along + side, color);
  int i1 = PushVertex(a - along - side, color);
  int i2 = PushVertex(b + along - side, color);
  int i3 = PushVertex(b + along + side, color);
  AddTriangle(i0, i1, i2);
  AddTriangle(i0, i2, i3);
}

void SdlDraw::AddClosedOutline(const Vec2* points, int count, float width, SDL_Color color) {
  if (count < 2) return;
  // A band of two vertices per point, offset along the corner's miter direction so neighbouring
  // edges share vertices: 2 vertices and 2 triangles per edge, no overlaps, no notches.
  const int base = static_cast<int>(vertexBuffer.size());
  const float halfWidth = 0.5f * width;
  for (int i = 0; i < count; ++i) {
    Vec2 prev = points[i == 0 ? count - 1 : i - 1];
    Vec2 next = points[i + 1 == count ? 0 : i + 1];
    Vec2 e1 = DirectionOr(points[i], next, {1.0f, 0.0f});
    Vec2 e0 = DirectionOr(prev, points[i], e1);
    Vec2 n0 = LeftPerp(e0);
    Vec2 n1 = LeftPerp(e1);
    Vec2 miter = DirectionOr({0.0f, 0.0f}, n0 + n1, n1);
    // The miter reaches halfWidth / cos(half the turn) to keep both edges halfWidth thick.
    float offset = halfWidth / std::max(Dot(miter, n1), kMinMiterCosine);
    PushVertex(points[i] + offset * miter, color);
    PushVertex(points[i] - offset * miter, color);
  }
  for (int i = 0; i < count; ++i) {
    int a = base + 2 * i;
    int b = base + 2 * (i + 1 == count ? 0 : i + 1);
    AddTriangle(a, a + 1, b + 1);
    AddTriangle(a, b + 1, b);
  }
}

void SdlDraw::AddConvexFill(const Vec2* points, int count, SDL_Color color) {
  if (count < 3) return;
  int base = PushVertex(points[0], color);
  for (int i = 1; i < count; ++i) PushVertex(points[i], color);
  for (int i = 1; i + 1 < count; ++i) AddTriangle(base, base + i, base + i + 1);
}

bool SdlDraw::OffScreen(const Vec2* points, int count, float& extent) const {
  Vec2 lo = points[0], hi = points[0];
  for (int i = 1; i < count; ++i) {
    lo = Min(lo, points[i]);
    hi = Max(hi, points[i]);
  }
  extent = std::max(hi.x - lo.x, hi.y - lo.y);
  const float pad = lineWidth;  // the outline reaches half a line beyond the points
  return hi.x < -pad || hi.y < -pad || lo.x > camera.width + pad || lo.y > camera.height + pad;
}

void SdlDraw::AddSolid(const Vec2* points, int count, Color color) {
  if (count < 1) return;
  float extent = 0.0f;
  if (OffScreen(points, count, extent)) return;
  if (extent < smallShapePixels && count >= 3) {
    // Inset towards the vertex average (convex: it lies inside) by half a pixel, for a dark seam
    // between neighbours. Shapes under kMinInsetPixels (an inset would erase them) keep their size
    // but grow to kMinShapePixels, about what their outline alone covered, so a floor of tiny boxes
    // keeps its weight.
    Vec2 centre{0.0f, 0.0f};
    for (int i = 0; i < count; ++i) centre += points[i];
    centre = centre * (1.0f / static_cast<float>(count));
    float scale = 1.0f;
    if (extent >= kMinInsetPixels) {
      scale = (extent - 1.0f) / extent;
    } else {
      scale = std::max(extent, kMinShapePixels) / std::max(extent, 1e-3f);
    }
    inset.clear();
    for (int i = 0; i < count; ++i) inset.push_back(centre + scale * (points[i] - centre));
    AddConvexFill(inset.data(), count, ToSdl(color));
    return;
  }
  AddConvexFill(points, count, Translucent(color, fillOpacity));
  AddClosedOutline(points, count, lineWidth, ToSdl(color));
}

int SdlDraw::ArcSegments(float radius, float sweep) const {
  // Chord count so the sagitta r (1 - cos(step / 2)) stays under the pixel tolerance.
  float r = radius * camera.pixelsPerMetre;
  int full = kMinCircleSegments;
  if (r > kArcTolerancePixels) {
    float step = 2.0f * std::acos(1.0f - kArcTolerancePixels / r);
    if (step > 0.0f)
      full = std::clamp(static_cast<int>(std::ceil(kTwoPi / step)), kMinCircleSegments, kMaxCircleSegments);
  }
  return std::max(1, static_cast<int>(std::ceil(static_cast<float>(full) * sweep / kTwoPi)));
}

void SdlDraw::AppendArc(Vec2 center, float radius, Vec2 from, float sweep) {
  if (sweep < 1e-4f) {  // no turn: one point, not a zero-length edge
    outline.push_back(WorldToScreen(camera, center + radius * from));
    return;
  }
  // Walk the arc by repeated rotation: one sin/cos per arc instead of one per point.
  int n = ArcSegments(radius, sweep);
  Rot step = MakeRot(sweep / static_cast<float>(n));
  Vec2 d = from;
  for (int k = 0; k <= n; ++k) {
    outline.push_back(WorldToScreen(camera, center + radius * d));
    d = Rotate(step, d);
  }
}

void SdlDraw::DrawPolygon(const Vec2* vertices, int count, Color color) {
  outline.clear();
  for (int i = 0; i < count; ++i) outline.push_back(WorldToScreen(camera, vertices[i]));
  AddClosedOutline(outline.data(), count, lineWidth, ToSdl(color));
}

void SdlDraw::DrawSolidPolygon(const Transform& xf, const Vec2* vertices, int count, float radius,
                               Color color) {
  if (count <= 0) return;
  outline.clear();
  if (radius <= 0.0f) {
    for (int i = 0; i < count; ++i) outline.push_back(WorldToScreen(camera, TransformPoint(xf, vertices[i])));
  } else {
    // A rounded convex polygon is the core offset by `radius`: straight edges pushed out along their
    // normals, joined at each vertex by an arc from the previous edge's normal to the next edge's.
    // The result is convex, so one fan fills it.
    world.clear();
    for (int i = 0; i < count; ++i) world.push_back(TransformPoint(xf, vertices[i]));
    Vec2 n0 = DirectionOr({0.0f, 0.0f}, RightPerp(world[0] - world[count - 1]), {1.0f, 0.0f});
    for (int i = 0; i < count; ++i) {
      Vec2 next = world[i + 1 == count ? 0 : i + 1];
      Vec2 n1 = DirectionOr({0.0f, 0.0f}, RightPerp(next - world[i]), n0);
      // Counter-clockwise and convex: the normal turns left by less than pi at every vertex.
      float sweep = std::max(0.0f, std::atan2(Cross(n0, n1), Dot(n0, n1)));
      AppendArc(world[i], radius, n0, sweep);
      n0 = n1;
    }
  }
  AddSolid(outline.data(), static_cast<int>(outline.size()), color);
}

void SdlDraw::DrawCircle(Vec2 center, float radius, Color color) {
  outline.clear();
  AppendArc(center, radius, {1.0f, 0.0f}, kTwoPi);
  outline.pop_back();  // the last point repeats the first
  AddClosedOutline(outline.data(), static_cast<int>(outline.size()), lineWidth, ToSdl(color));
}

void SdlDraw::DrawSolidCircle(const Transform& xf, float radius, Color color) {
  outline.clear();
  AppendArc(xf.p, radius, {1.0f, 0.0f}, kTwoPi);
  outline.pop_back();
  AddSolid(outline.data(), static_cast<int>(outline.size()), color);
  // The radius line shows the rotation (not on a dot too small to show it).
  if (2.0f * radius * camera.pixelsPerMetre < smallShapePixels) return;
  Vec2 rim = xf.p + radius * Vec2{xf.q.c, xf.q.s};
  AddLine(WorldToScreen(camera, xf.p), WorldToScreen(camera, rim), lineWidth, ToSdl(color));
}

void SdlDraw::DrawSolidCapsule(Vec2 p1, Vec2 p2, float radius, Color color) {
  Vec2 u = DirectionOr(p1, p2, {1.0f, 0.0f});
  outline.clear();
  // Counter-clockwise: the half disc around p2, then the one around p1.
  AppendArc(p2, radius, RightPerp(u), kPi);
  AppendArc(p1, radius, LeftPerp(u), kPi);
  AddSolid(outline.data(), static_cast<int>(outline.size()), color);
}

void SdlDraw::DrawSegment(Vec2 p1, Vec2 p2, Color color) {
  const Vec2 a = WorldToScreen(camera, p1), b = WorldToScreen(camera, p2);
  // Short segments get thinner (down to kMinLinePixels): zoomed out, a dense net of joints would
  // otherwise fill the gaps between its bodies and read as one solid sheet.
  const float width = std::clamp(kShortLineWidthPerLength * Length(b - a), kMinLinePixels, lineWidth);
  AddLine(a, b, width, ToSdl(color));
}

void SdlDraw::DrawTransform(const Transform& xf, float axisLength) {
  Vec2 origin = WorldToScreen(camera, xf.p);
  Vec2 xAxis = WorldToScreen(camera, TransformPoint(xf, {axisLength, 0.0f}));
  Vec2 yAxis = WorldToScreen(camera, TransformPoint(xf, {0.0f, axisLength}));
  AddLine(origin, xAxis, lineWidth, {230, 50, 50, 255});
  AddLine(origin, yAxis, lineWidth, {50, 210, 50, 255});
}

void SdlDraw::DrawPoint(Vec2 p, float size, Color color) {
  Vec2 c = WorldToScreen(camera, p);
  // Zoomed far out, a marker never spans more than kMaxPointMetres: the anchors of a dense joint net
  // would otherwise merge into one solid sheet.
  const float pixels = std::clamp(kMaxPointMetres * camera.pixelsPerMetre, kMinLinePixels, size);
  float h = 0.5f * pixels;
  SDL_Color sdl = ToSdl(color);
  int i0 = PushVertex({c.x - h, c.y - h}, sdl);
  int i1 = PushVertex({c.x + h, c.y - h}, sdl);
  int i2 = PushVertex({c.x + h, c.y + h}, sdl);
  int i3 = PushVertex({c.x - h, c.y + h}, sdl);
  AddTriangle(i0, i1, i2);
  AddTriangle(i0, i2, i3);
}

void SdlDraw::DrawString(Vec2 p, const char* message, Color color) {
  if (text == nullptr || message == nullptr) return;
  Vec2 s = WorldToScreen(camera, p);
  text->AddText(ImVec2(s.x, s.y), IM_COL32(color.r, color.g, color.b, color.a), message);
}

}  // namespace mk::sandbox
