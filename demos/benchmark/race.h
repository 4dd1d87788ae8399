// SPDX-License-Identifier: MIT
// The race program's engine-neutral side: a scene run that steps and reports its quality figures, so
// ours (race.cpp) and Box2D 2.4.1's ports of the same scenes (race_box2d.cpp) are driven alike.
#pragma once

#include "minkowski/math.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace mk::race {

/// One engine's copy of one scene.
class SceneRun {
 public:
  virtual ~SceneRun() = default;
  /// Step `step` (0-based) of the scene: its per-step callback, then one world step of 1/60 s.
  virtual void Step(int step) = 0;
  /// The scene's quality figures after the steps taken, e.g. "top 98.779 m, mean |dx| 0.028 m".
  virtual std::string Quality() const = 0;
};

/// Box2D 2.4.1's copy of the named scene, or null when it is not ported (or Box2D is not compared).
std::unique_ptr<SceneRun> MakeBox2DRun(std::string_view scene);

// The quality figures, from what either engine reports (positions and transforms in creation order).

/// large_pyramid (with `top`: the last box's height) and many_pyramids: mean abs(x - start x) (m).
std::string PyramidQuality(std::span<const Vec2> positions, std::span<const float> startX, bool top);
/// tumbler: boxes whose centre is inside the drum's 19 x 19 m cavity (`drum`: its transform).
std::string TumblerQuality(const Transform& drum, std::span<const Vec2> boxes);
/// smash: mean x of every dynamic body (m), and how many are awake.
std::string SmashQuality(std::span<const Vec2> positions, int awake);
/// rain: dynamic bodies below the lowest floor (y < 0).
std::string RainQuality(std::span<const Vec2> positions);
/// spinner: small bodies inside the 40 m ring about (0, 32) (the blade left out).
std::string SpinnerQuality(std::span<const Vec2> bodies);
/// joint_grid: mean and largest distance between the two anchors of its joints; `grid` holds the
/// transforms of its n x n bodies, k-major (JointGridIndex).
std::string JointGridQuality(int n, std::span<const Transform> grid);

/// The joint_grid's layout: n x n bodies at (k, -i), static at i = 0, k = n/2-3 .. n/2+3. Both
/// engines build it k-major and list only its dynamic bodies.
inline bool JointGridAnchor(int n, int k, int i) { return i == 0 && k >= n / 2 - 3 && k <= n / 2 + 3; }

}  // namespace mk::race
