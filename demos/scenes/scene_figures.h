// SPDX-License-Identifier: MIT
// Minkowski — quality figures of a scene run (the hard cases: penetration, drift, escapes, joint
// error, sleep, speed, energy), measured through the public World API only. `benchmark --figures`
// prints them for every scene (docs/benchmarks.md, "Hard-case scenes: figures").
//
//   mk::scenes::SceneRun run(*mk::scenes::FindScene("heavy_on_light"));
//   mk::scenes::SceneFigures f = mk::scenes::MeasureFigures(run, run.Info().defaultSteps);
#pragma once

#include "scenes.h"

#include <vector>

namespace mk::scenes {

/// What a run of a scene did. "Bodies" are SceneState::bodies (the scene's dynamic bodies at build
/// time); positions are centres of mass.
struct SceneFigures {
  int steps = 0;  ///< steps measured
  /// Deepest overlap over the run (m): the most negative manifold point separation of any touching
  /// contact after any step, negated; 0 when nothing ever overlapped.
  float maxPenetration = 0.0f;
  float finalPenetration = 0.0f;  ///< the same after the last step only (m)
  /// The deepest overlap after each of the last quarter of the steps MeasureFigures runs, averaged (m;
  /// finalPenetration where no step was marked late): what a scene that never comes to rest (a crowd,
  /// a drum) holds, without the luck of one instant (tumbler's last step alone spreads 0.08 to 0.19 m
  /// over seven runs that took other paths, this mean 0.085 to 0.105 m).
  float lateMeanPenetration = 0.0f;
  /// How far the top of the body whose top was highest at the start (its shapes' AABB) fell by the
  /// end (m; negative when it rose). For stacks: how much the column sagged or fell.
  float topDrift = 0.0f;
  float sideDrift = 0.0f;  ///< max over bodies of |x_end - x_start| (m)
  /// Bodies that end below the lowest static shape (its AABB's bottom) or outside SceneState::bounds
  /// (when the scene sets them): passed through something, or thrown out.
  int escaped = 0;
  /// Max over the run (the built state included) and over SceneState::pointJoints of the world
  /// distance between a joint's two anchors (m); 0 for scenes without such joints.
  float jointError = 0.0f;
  int sleepStep = -1;          ///< the first step (1-based) after which every body sleeps; -1 if never
  float finalMaxSpeed = 0.0f;  ///< max over bodies of |v| after the last step (m/s)
  /// Final over initial mechanical energy: kinetic (linear and angular) plus gravitational potential
  /// m (-g) . (c - (0, SceneState::floorY)), bodies' gravity scale taken as 1 (every table scene). In
  /// zero gravity that is kinetic only. Negative when there was no energy to start with.
  float energyKept = -1.0f;
};

/// Watches one run: construct it on a freshly built run (before its first step), call AfterStep after
/// every SceneRun::Step, then Finish. Allocates only while constructed.
class FiguresProbe {
 public:
  explicit FiguresProbe(const SceneRun& run);
  /// `late`: the step counts towards SceneFigures::lateMeanPenetration.
  void AfterStep(const SceneRun& run, bool late = false);
  SceneFigures Finish(const SceneRun& run) const;

 private:
  float Energy(const World& world) const;
  float Penetration(const World& world) const;
  float JointError(const World& world) const;
  float BodyTop(const World& world, int body) const;
  AABB ShapeBox(const World& world, ShapeId shape) const;
  Vec2 Center(const World& world, BodyId body) const;

  const SceneState* state_;
  std::vector<Vec2> start_;                   // centre of mass of each body at the start
  std::vector<std::vector<ShapeId>> shapes_;  // each body's shapes
  int highest_ = -1;                          // the body whose top was highest, or -1 without bodies
  float highestTop_ = 0.0f;
  float lowestStatic_ = 0.0f;
  bool hasStatic_ = false;
  float energy0_ = 0.0f;
  double lateSum_ = 0.0;  // the late steps' deepest overlaps (m)
  int lateSteps_ = 0;
  SceneFigures figures_;
};

/// Steps `run` `steps` times under a FiguresProbe and returns its figures.
SceneFigures MeasureFigures(SceneRun& run, int steps);

}  // namespace mk::scenes
