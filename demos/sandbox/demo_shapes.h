// SPDX-License-Identifier: MIT
// The sandbox's first scene: a few shapes of every kind, built with the engine's geometry API and
// turning slowly in place, with their bounding boxes and centres of mass.
#pragma once

#include "minkowski/debug_draw.h"
#include "minkowski/geometry.h"

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

namespace mk::sandbox {

/// One shape on display: local geometry, where it sits and how fast it turns.
struct DemoShape {
  std::variant<Circle, Capsule, Segment, Polygon> shape;
  std::string label;       ///< what the shape is, drawn under it
  Vec2 position{0, 0};     ///< world position of the shape's frame (metres)
  float angularSpeed = 0;  ///< radians per second, counter-clockwise positive
  Color color = colors::kDynamic;
  MassData mass;  ///< at density 1 kg/m^2; centre in the shape's frame
};

/// Which overlays to draw.
struct DemoToggles {
  bool aabbs = true;
  bool centersOfMass = true;
  bool transforms = false;
  bool labels = true;
};

/// Builds the demo. Shapes whose constructor reports an error are left out and the error is
/// appended to `errors` (empty on success).
std::vector<DemoShape> MakeDemoShapes(std::vector<std::string>& errors);

/// Characters a label line may have: at 900 x 560 a gallery column is about 105 px, and the font's
/// 7 px a character made "rounded triangle" (112 px) run into "rounded hexagon".
inline constexpr std::size_t kLabelLineChars = 10;
/// The label as drawn: a longer one breaks at the space nearest its middle into two lines.
std::string LabelLines(const std::string& label);

/// World transform of a shape `seconds` after the start.
Transform DemoTransform(const DemoShape& shape, float seconds);

/// Draws every shape at time `seconds` with the chosen overlays.
void DrawDemoShapes(const std::vector<DemoShape>& shapes, float seconds, const DemoToggles& toggles,
                    DebugDraw& draw);

}  // namespace mk::sandbox
