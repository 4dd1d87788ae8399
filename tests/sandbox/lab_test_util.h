// SPDX-License-Identifier: MIT
// Helpers for the lab tests.
#pragma once

#include "lab.h"
#include "minkowski/debug_draw.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace mk::sandbox {

/// A DebugDraw that ignores every call: a test's recorder overrides the calls it watches.
struct NullDraw : DebugDraw {
  void DrawPolygon(const Vec2*, int, Color) override {}
  void DrawSolidPolygon(const Transform&, const Vec2*, int, float, Color) override {}
  void DrawCircle(Vec2, float, Color) override {}
  void DrawSolidCircle(const Transform&, float, Color) override {}
  void DrawSolidCapsule(Vec2, Vec2, float, Color) override {}
  void DrawSegment(Vec2, Vec2, Color) override {}
  void DrawTransform(const Transform&, float) override {}
  void DrawPoint(Vec2, float, Color) override {}
  void DrawString(Vec2, const char*, Color) override {}
};

/// Applies each "key=value" through Lab::ApplySetting (every one must be accepted), then Lab::Update.
inline void ApplyLabSettings(Lab& lab, const std::vector<std::string>& pairs) {
  for (const std::string& s : pairs) {
    std::string error;
    const size_t eq = s.find('=');
    REQUIRE_MESSAGE(lab.ApplySetting(s.substr(0, eq), s.substr(eq + 1), error), error);
  }
  lab.Update();
}

}  // namespace mk::sandbox
