// SPDX-License-Identifier: MIT
// Minkowski — the scene table shared by the sandbox, the benchmark and the tests (docs/design.md section 2).
//
// A scene is a row of one explicit table (SceneTable): a name, the WorldDef it runs in, its step count,
// a builder that fills a World, and an optional per-step callback (rain spawns and destroys ragdolls).
// The Box2D v3 benchmark scenes are built as Box2D v3 builds them, at the default parameters.
//
//   const mk::scenes::SceneInfo* info = mk::scenes::FindScene("large_pyramid");
//   mk::scenes::SceneRun run(*info);          // world from info->worldDef, scene built into it
//   for (int i = 0; i < info->defaultSteps; ++i) run.Step();   // callback, then World::Step(1/60)
#pragma once

#include "minkowski/world.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mk::scenes {

/// Every scene steps at 60 Hz (as Box2D v3 benchmarks: dt = 1/60 s, 4 sub-steps from the default
/// SolverSettings).
inline constexpr float kTimeStep = 1.0f / 60.0f;

/// Two integer knobs a scene may read; 0 means "the scene's default" (SceneInfo::defaults). Their
/// meaning is per scene and spelled out in SceneInfo::paramHelp (e.g. large_pyramid: size = base).
struct SceneParams {
  int size = 0;   ///< a linear size: pyramid base, grid side, stack height, ...
  int count = 0;  ///< a number of repeats: pyramids per row, ragdoll columns, bodies, ...
};

/// What a builder leaves behind: the ids a test or tool may want, and the per-step hook. Scenes with
/// no per-step behaviour return this base as is.
class SceneState {
 public:
  virtual ~SceneState() = default;

  /// Called before World::Step of step `step` (0-based), e.g. rain's spawning. Default: nothing.
  virtual void PreStep(World& world, int step);

  /// The scene's dynamic bodies in creation order (for rain: the ragdolls created at build time
  /// only; its callback keeps its own list). Tests use them to watch positions.
  std::vector<BodyId> bodies;
  /// The scene's joints in creation order (at build time).
  std::vector<JointId> joints;
  /// Shapes the sandbox draws in its projectile colour so they stand out (smash's box).
  std::vector<ShapeId> projectiles;

  // What the figures (scene_figures.h) need to know beyond the world itself.

  /// A joint whose two anchors should coincide (revolute, weld), with the anchors it was made with
  /// (body-origin frames, metres). The World has no public getter for a joint's anchors, so the
  /// builders record them here; the figures' joint error is the largest world distance between them.
  struct PointJoint {
    BodyId bodyA, bodyB;
    Vec2 localAnchorA{0.0f, 0.0f}, localAnchorB{0.0f, 0.0f};
  };
  std::vector<PointJoint> pointJoints;
  /// Height of the ground's top surface (m): the datum of the figures' potential energy.
  float floorY = 0.0f;
  /// The box the scene's bodies should stay in (m): a body whose centre of mass ends outside it counts
  /// as escaped in the figures (as does one below the lowest static shape, always). The default is
  /// inverted, meaning "no box": only the fall below the static geometry counts.
  AABB bounds{{1.0f, 1.0f}, {-1.0f, -1.0f}};
  /// What the sandbox frames when it loads the scene (m); inverted (the default): the moving bodies
  /// with some room. Scenes whose fast bodies start far from what they hit set it.
  AABB view{{1.0f, 1.0f}, {-1.0f, -1.0f}};
  /// A line the sandbox draws in the view's top-left corner (what an event-reading scene counted);
  /// scenes that have one update it in PreStep. Empty: nothing drawn.
  std::string text;
  /// A body the sandbox's camera moves with (the car of a driving scene); null: the camera stays.
  BodyId follow{};
  /// Where the scene stands: SceneRun's offset (zero unless a run moved it away from the origin). Every
  /// position above (floorY, bounds, view) is about it.
  Pos origin{0.0f, 0.0f};
};

/// Builds a scene into an empty World that was created with SceneInfo::worldDef. `params` has its
/// zero fields already replaced by the scene's defaults.
using BuildFn = std::unique_ptr<SceneState> (*)(World& world, const SceneParams& params);

/// One row of the scene table.
struct SceneInfo {
  const char* name;  ///< unique, snake_case: the benchmark's --scene argument
  /// "benchmark" (the Box2D v3 benchmark set), "stress", or one of the hard cases after Box2D v3's
  /// sample categories: "stacking", "robustness", "continuous", "joints", "features" (SceneCategories()).
  const char* category;
  const char* description;  ///< one line for the sandbox and --help
  int defaultSteps;         ///< steps a benchmark run takes (as in Box2D v3)
  WorldDef worldDef;        ///< gravity and solver settings (sleep on/off) the scene runs with
  SceneParams defaults;     ///< the default knobs (both non-zero where the scene reads them)
  const char* paramHelp;    ///< what size and count mean for this scene ("" when unused)
  BuildFn build;
};

/// The whole table, in a fixed order (benchmark scenes first).
std::span<const SceneInfo> SceneTable();

/// Every category of the table. The sandbox's samples browser maps them, and the "features" and
/// "stress" rows one by one, onto its own list (demos/sandbox/samples_browser.h).
std::span<const char* const> SceneCategories();

/// The row with this name, or nullptr.
const SceneInfo* FindScene(std::string_view name);

/// `params` with every zero field replaced by the scene's default.
SceneParams ResolveParams(const SceneInfo& info, SceneParams params);

/// A scene loaded into its own World, with the step counter that the per-step callback sees. The
/// benchmark, the tests and the sandbox all step scenes through this, so they agree on what a
/// "step" of a scene is: PreStep(step) then World::Step(kTimeStep).
/// Where SceneRun stands a scene: moved by `offset` (m) from where its builder puts it, the world's
/// float frame (WorldDef::origin, the large-world build's) at the offset or left at zero.
struct Placement {
  Pos offset{0.0f, 0.0f};
  bool originAtOffset = true;  ///< WorldDef::origin = offset (else zero: the scene far from the frame)
};

class SceneRun {
 public:
  /// Creates a World from info.worldDef and builds the scene into it. With `record`, the world
  /// records from before the build (World::StartRecording), so the recording replays the whole run.
  /// A non-zero placement offset moves the whole scene there (docs/design.md, "Large worlds"): every
  /// body the build and the scene's callback create near the origin is moved by it, before each Step.
  explicit SceneRun(const SceneInfo& info, SceneParams params = {}, bool record = false,
                    Placement placement = {});

  /// Runs the scene callback for the current step, then World::Step(timeStep). Returns World::Step's
  /// result. Benchmarks and tests use the default; the sandbox passes its own step rate.
  bool Step(float timeStep = kTimeStep);

  World& GetWorld() { return world_; }
  const World& GetWorld() const { return world_; }
  SceneState& State() { return *state_; }
  const SceneState& State() const { return *state_; }
  const SceneInfo& Info() const { return *info_; }
  const SceneParams& Params() const { return params_; }
  int StepCount() const { return step_; }  ///< steps taken so far

 private:
  const SceneInfo* info_;
  SceneParams params_;
  World world_;
  std::unique_ptr<SceneState> state_;
  int step_ = 0;
  Pos offset_{};
  bool shiftFrame_ = false;  // the scene moved by World::ShiftOrigin (scene_table.cpp)
  void MoveNewBodies();      // with an offset: the bodies still near the origin, moved by it
};

}  // namespace mk::scenes
