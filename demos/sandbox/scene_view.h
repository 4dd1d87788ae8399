// SPDX-License-Identifier: MIT
// A world scene in the sandbox: the scene-table row running in its own World at a fixed step rate,
// decoupled from rendering, plus everything the user does to it (grab with a mouse joint, launch
// bombs, hover) and what the panels read (profile history, solver readouts). No SDL or ImGui here:
// tests drive it directly. The ImGui panels live in scene_panels.cpp.
#pragma once

#include "minkowski/debug_draw.h"
#include "minkowski/replay.h"
#include "minkowski/task_system.h"
#include "scenes.h"
#include "settings.h"
#include "worker_load.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mk::sandbox {

/// Rolling history of one per-step figure, for ImGui::PlotLines.
struct History {
  static constexpr int kSize = 240;  ///< samples kept (4 s at 60 Hz)
  std::array<float, kSize> values{};
  int next = 0;  ///< where the next sample goes (the oldest sample is here once full)
  int count = 0;
  void Push(float value);
  float Latest() const;
  float Average() const;  ///< over the samples held (the last kSize at most)
  float Max() const;      ///< over the same window; 0 when empty
};

/// Bombs and scene projectiles (smash's box) are drawn in this colour over the world's own drawing, so
/// they stand out from the bodies.
inline constexpr Color kBombColor{240, 50, 40, 255};

/// How fast simulated time runs against real time: the share of real time the fixed steps covered
/// (1 = real time; below when frames take longer than the steps can catch up with, see
/// SceneView::Advance), measured over windows of kWindowSeconds, and the steps dropped to stay live.
struct RealTimeMeter {
  static constexpr float kWindowSeconds = 1.0f;
  /// One frame: `realSeconds` passed, `simulatedSeconds` were stepped, `droppedSeconds` given up.
  void Add(float realSeconds, float simulatedSeconds, float droppedSeconds);
  float factor = 1.0f;        ///< simulated / real seconds over the last complete window
  float droppedSteps = 0.0f;  ///< steps given up since the scene loaded (in steps of the current rate)
  float stepHertz = 60.0f;    ///< to count dropped time in steps
  float windowReal = 0.0f;    ///< real seconds in the current window
  float windowSimulated = 0.0f;
};

/// Colours of the broadphase view (its legend in the Draw panel names them).
namespace sweep_colors {
inline constexpr Color kSweepAxis{230, 230, 230, 255};
inline constexpr Color kSweepEnter{80, 220, 100, 255};   ///< tick at a box's lower end: it enters
inline constexpr Color kSweepLeave{240, 80, 80, 255};    ///< tick at a box's upper end: it leaves
inline constexpr Color kSweepLine{255, 220, 0, 255};     ///< the sweep position
inline constexpr Color kSweepActive{255, 150, 40, 255};  ///< boxes in the active set
inline constexpr Color kSweepBox{110, 110, 130, 255};    ///< other fat boxes in view
inline constexpr Color kSweepPair{255, 255, 255, 200};   ///< pairs found that involve the active set
}  // namespace sweep_colors

/// What the broadphase view showed in the last Draw (for the legend in the Draw panel).
struct SweepView {
  int axis = 0;           ///< sweep axis: 0 = x, 1 = y
  float position = 0.0f;  ///< m: where the sweep line stands on the axis (follows the mouse)
  int inView = 0;         ///< proxies whose fat box meets the view
  int shown = 0;          ///< of those, the ones drawn (the kMaxSweepShown nearest the sweep line)
  int active = 0;         ///< shown intervals that hold the sweep position: the active set
  int pairsFound = 0;     ///< pairs of shown proxies both entered by the sweep line, one of them active
  int bandCount = 1;      ///< bands across the axis, each swept on its own
};

/// Per-step figures the Profile panel shows. No EPA figures: World::Step never runs EPA (overlapping
/// cores take SAT in the manifold code), so they would always read 0; the GJK lab shows EPA per query.
struct ProfileHistory {
  History step, broadphase, narrowphase, islands, solver, continuous;
  History narrowphaseQueries;  ///< narrowphase queries per step
  History gjkIterations;       ///< average GJK iterations per query, per step
};

/// One row of the Profile's metrics table: a stage's name and its timings (ms per step).
struct StageHistory {
  const char* name;
  const History* history;
};
/// The metrics table's stages in its order: broadphase, narrowphase, solver, continuous, islands,
/// then the whole step.
std::array<StageHistory, 6> Stages(const ProfileHistory& profile);
/// The metrics table as lines of fixed width (panel_text.h): its head, one row per stage with the
/// latest, average and largest time over the window History keeps, and how many steps that window
/// holds.
std::vector<std::string> MetricsLines(const ProfileHistory& profile);

/// Solver-lab readouts, measured after every step.
struct Readouts {
  float maxPenetration = 0.0f;  ///< m: deepest overlap among touching contacts (0 when none)
  /// J: sum of 1/2 m v^2 + 1/2 I w^2 over the scene's bodies and the bombs still in the world (in a
  /// replay: over every dynamic body)
  float kineticEnergy = 0.0f;
  float drift = 0.0f;           ///< m: largest displacement of those bodies since the reference
  float referenceTime = -1.0f;  ///< s of simulated time when the reference was taken (< 0: not yet)
};

/// The divergence check of a replay. A recording made in the sandbox names, after every step, one of
/// its bodies "hash:" and the world's StateHash in hex (World::SetName, recorded like any call: the
/// replay format has no field for it). Playing it, the sandbox compares its own world's StateHash
/// after each step with the recorded one: on the build that recorded it they are equal by design, so
/// a difference means this build (or machine) simulates differently.
struct ReplayCheck {
  bool hashesRecorded = false;       ///< the recording names its steps' hashes
  std::uint64_t checkedThrough = 0;  ///< the furthest step compared
  std::uint64_t divergedAt = 0;      ///< the first step whose hashes differed; 0: none yet
  std::uint64_t recorded = 0;        ///< at divergedAt: the recorded hash
  std::uint64_t replayed = 0;        ///< and this build's
};
/// The check's lines for the panel and the exit message (each within kPanelColumns), at `step`.
std::vector<std::string> ReplayCheckLines(const ReplayCheck& check, std::uint64_t step);
/// "hash:" and 16 hex digits (21 characters, within kMaxBodyNameLength); ParseStateHashName reads
/// one back (false for any other name).
std::string StateHashName(std::uint64_t hash);
bool ParseStateHashName(std::string_view name, std::uint64_t& hash);

/// What hovering shows about a body.
struct HoverInfo {
  BodyId body{};  ///< null when nothing is under the cursor
  BodyType type = BodyType::Static;
  float mass = 0.0f;  ///< kg; 0 for static and kinematic bodies, which have none
  Vec2 velocity{0.0f, 0.0f};
  float angularVelocity = 0.0f;
};

/// A scene-table scene running in the sandbox.
class SceneView {
 public:
  /// Drift is measured from the scene's state this long after loading (s): long enough for a
  /// dropped scene to land, as in the stability tests.
  static constexpr float kDriftReferenceTime = 1.0f;
  /// Bombs: circles of this radius (m) and density (kg/m^2); velocity per metre of drag (1/s).
  static constexpr float kBombRadius = 0.25f;
  static constexpr float kBombDensity = 20.0f;
  static constexpr float kBombSpeedPerMetre = 8.0f;
  /// The mouse joint pulls with up to this many times the body's weight (Box2D's samples use the same
  /// rule of thumb: strong enough to lift, weak enough not to tear joints apart).
  static constexpr float kMouseForcePerWeight = 100.0f;

  /// Loads `info` with `settings` (params and solver settings applied). The world exists at once.
  SceneView(const scenes::SceneInfo& info, const SceneSettings& settings);

  /// Rebuilds the scene from scratch with the current settings (R).
  void Restart();
  /// Applies changed settings. Solver settings and gravity take effect at once; changed scene knobs
  /// (size, count) restart the scene. Returns false when the world clamped a value (see `settings`).
  bool SetSettings(const SceneSettings& settings);
  const SceneSettings& Settings() const { return settings_; }

  /// Advances real time: runs as many fixed steps of 1/stepHertz as have accumulated (at most
  /// kMaxStepsPerFrame, so a slow frame does not snowball; a frame longer than kMaxFrameSeconds counts
  /// as that long). Time given up either way is counted in RealTime(). Returns the steps taken.
  int Advance(float realSeconds);
  static constexpr float kMaxFrameSeconds = 0.1f;
  /// One step now, whatever the accumulator holds (single stepping while paused).
  void StepOnce();
  static constexpr int kMaxStepsPerFrame = 4;

  bool paused = false;

  /// Mouse, in view coordinates (Frame()). MouseDown grabs the dynamic body under `point` (true if it
  /// did), or, with shift, starts aiming a bomb; in a replay, and in a live run while paused, a click
  /// without shift picks the body to inspect instead (true if it found one; a live run keeps it
  /// inspected when it runs on). MouseUp releases the grab or launches the bomb.
  bool MouseDown(Vec2 point, bool shift);
  void MouseMove(Vec2 point);
  void MouseUp(Vec2 point);
  bool IsGrabbing() const;

  /// The dynamic (or kinematic) body whose shape contains `point`, preferring dynamic bodies; null
  /// if none. Static bodies are found only when nothing else is there.
  BodyId PickBody(Vec2 point);
  HoverInfo Hover(Vec2 point);

  /// Draws the world with the current toggles, every point relative to Frame() (DrawOptions::origin).
  /// `visible` is the view rectangle on screen and `metresPerPixel` the current zoom, for the
  /// screen-edge broadphase intervals.
  void Draw(DebugDraw& draw, const AABB& visible, float metresPerPixel) const;
  /// World rectangle around every shape (fat AABBs), for fit-to-view.
  AABB Bounds() const;

  // --- Record and replay (minkowski/replay.h) ------------------------------------------------
  // Recording restarts the scene with its world recording from before the build, so the file holds
  // the whole run: the scene's own calls, every step, grab and bomb. Replaying shows a ReplayPlayer's
  // world instead of the scene's: stepping moves through the recording (ScrubTo jumps, going back
  // through the player's keyframes), the mouse does nothing, and of the settings only the drawing
  // ones apply (the recording holds the solver settings it ran with).

  /// Restarts the scene, recording. Stops a replay first.
  void StartRecording();
  bool IsRecording() const { return GetWorld().IsRecording(); }
  /// Stops recording and returns the file's bytes (empty when not recording). The scene runs on.
  std::vector<std::byte> StopRecording();
  /// Stops recording and writes the file to `path`; false with `message` saying why when it cannot.
  /// On success `message` says what was written.
  bool StopRecordingAndSave(const std::string& path, std::string& message);
  /// Replays `replay` from its start. The scene stays loaded behind it (LeaveReplay restarts it).
  void PlayReplay(Replay replay);
  /// Loads a replay file and plays it; false with `message` saying why when it cannot.
  bool PlayReplayFile(const std::string& path, std::string& message);
  bool IsReplaying() const { return player_ != nullptr; }
  /// The player while replaying, else null.
  const ReplayPlayer* Player() const { return player_.get(); }
  /// Moves the replay to just after its `step`-th step (clamped to its length).
  void ScrubTo(std::uint64_t step);
  /// Back to the live scene, restarted: the scene the replay recorded when its file names one (see
  /// kSceneNamePrefix), else the scene shown before. It runs: TakeResumeRequest() says so once.
  void LeaveReplay();
  /// The scene-table row the replay's file names (kSceneNamePrefix), or null: not replaying, or a
  /// recording that names no scene of this table. While it is known, Info() is that row.
  const scenes::SceneInfo* ReplayedScene() const { return player_ != nullptr ? replayedScene_ : nullptr; }
  /// The body the inspector shows: in a replay or while paused, a left click picks it (PickBody:
  /// static bodies too); null when none was picked. Cleared when the scene loads, a replay starts or
  /// is left.
  BodyId Inspected() const { return inspected_; }
  /// The inspected body's outline colour over the world's drawing.
  static constexpr Color kInspectColor{90, 220, 255, 255};
  /// The replay's divergence check so far (ReplayCheck); empty when not replaying.
  const ReplayCheck& Check() const { return check_; }
  /// True once after a replay started or was left: what is shown changed, so the camera should fit
  /// it again.
  bool TakeRefitRequest();
  /// True once after the replay was left: the live scene starts running (a pause belonged to the
  /// replay).
  bool TakeResumeRequest();
  /// A recording names its scene on one of its bodies (World::SetName, recorded like any call, so the
  /// file carries it; the first unnamed body by index): "scene:" then the scene's name.
  static constexpr const char* kSceneNamePrefix = "scene:";
  /// After each recorded step another body (the next unnamed one) is named "hash:" and the world's
  /// StateHash (ReplayCheck).
  static constexpr const char* kStateHashPrefix = "hash:";
  /// How far the scene's followed body (scenes::SceneState::follow) moved since the last call (m):
  /// the camera moves with it. Zero in a replay, without a followed body, and on the first call.
  Vec2 TakeFollowShift();

  /// The world point the view's coordinates are measured from (m): where the scene stands, its
  /// far-away offset (SceneSettings::farAway; zero at the origin). Every point SceneView takes and
  /// gives as a Vec2 (the mouse, Bounds, the points it hands a DebugDraw) is relative to it, so the
  /// camera and the drawing work in the same small floats however far away the scene is.
  Pos Frame() const { return frame_; }
  /// A view point as a world position, and back.
  Pos ToWorld(Vec2 view) const { return OffsetPos(frame_, view); }
  Vec2 ToView(Pos world) const { return PosDelta(frame_, world); }

  World& GetWorld() { return player_ != nullptr ? player_->GetWorld() : run_->GetWorld(); }
  const World& GetWorld() const { return player_ != nullptr ? player_->GetWorld() : run_->GetWorld(); }
  const scenes::SceneInfo& Info() const { return *info_; }
  /// Steps of the scene since it loaded, or of the replay where it stands.
  int StepCount() const {
    return player_ != nullptr ? static_cast<int>(player_->CurrentStep()) : run_->StepCount();
  }
  float SimulatedTime() const { return static_cast<float>(StepCount()) / settings_.stepHertz; }
  const ProfileHistory& Profile() const { return profile_; }
  /// How busy each of the step's workers was in the last step, by stage (worker_load.h).
  const WorkerLoad& Workers() const { return workerLoad_; }
  /// The threads the step's workers run on: the pool's (at most the machine's); 0 without a pool (one
  /// worker: the step runs on the calling thread).
  int WorkerThreads() const { return activePool_ != nullptr ? activePool_->ThreadCount() : 0; }
  const Readouts& GetReadouts() const { return readouts_; }
  const RealTimeMeter& RealTime() const { return realTime_; }
  /// The broadphase view's figures from the last Draw with draw.broadphase on.
  const SweepView& Sweep() const { return sweep_; }
  /// Broadphase view: at most this many proxies (those in view whose intervals lie nearest the line).
  static constexpr int kMaxSweepShown = 400;
  /// Bombs launched since the scene loaded (ids may have gone stale if a scene destroyed them).
  const std::vector<BodyId>& Bombs() const { return bombs_; }
  /// Takes the drift reference now (the Solver lab's "reset drift" button).
  void ResetDriftReference();

 private:
  void Load(bool record = false);
  void NameRecordedScene();
  void RecordStateHash();
  void FindRecordedHashBody();
  void CheckRecordedHash();
  void FindReplayedScene();
  void ResetInteraction();
  void ApplyWorldSettings();
  void ApplyWorkers(World& world);
  void ShowReplaySettings();
  void AfterStep(std::int64_t stepEndNs);
  void MeasureReadouts();
  void DrawBroadphase(DebugDraw& draw, const AABB& visible, float metresPerPixel) const;
  void DrawInspected(DebugDraw& draw) const;
  std::vector<BodyId> WatchedBodies() const;
  bool IsBomb(BodyId body) const;

  const scenes::SceneInfo* info_;
  SceneSettings settings_;
  Pos frame_{};  // Frame(): the run's placement
  // The step's workers: a pool per worker count, made when first asked for and kept (idle threads
  // sleep), so that no world (the scene's, a replay's) is ever left holding a pool that is gone.
  // Declared before the worlds, so they outlive them.
  std::array<std::unique_ptr<TimedTaskPool>, kMaxSandboxWorkers + 1> pools_;
  TimedTaskPool* activePool_ = nullptr;  // the pool the worlds step on; null for one worker
  std::unique_ptr<scenes::SceneRun> run_;
  std::unique_ptr<ReplayPlayer> player_;              // while replaying
  const scenes::SceneInfo* replayedScene_ = nullptr;  // the scene the replay names, if any
  bool refitRequested_ = false;
  bool resumeRequested_ = false;
  AABB worldBox_{};          // a bomb whose centre leaves it has left the world: the readouts drop it
  bool followSeen_ = false;  // followLast_ holds the followed body's position at the last call
  Vec2 followLast_{0.0f, 0.0f};
  float accumulator_ = 0.0f;
  ProfileHistory profile_;
  WorkerLoad workerLoad_;
  Readouts readouts_;
  RealTimeMeter realTime_;
  mutable SweepView sweep_;  // written by Draw, read by the panel
  Vec2 mouse_{0.0f, 0.0f};
  bool mouseSeen_ = false;
  std::vector<BodyId> bombs_;
  std::vector<ShapeId> bombShapes_;
  // WatchedBodies() at the reference time and where they were (a replay's bodies come and go).
  std::vector<BodyId> referenceBodies_;
  std::vector<Vec2> referencePositions_;
  JointId mouseJoint_{};
  Vec2 mouseTarget_{0.0f, 0.0f};
  bool aiming_ = false;
  Vec2 aimStart_{0.0f, 0.0f};
  Vec2 aimEnd_{0.0f, 0.0f};
  BodyId inspected_{};  // the body the inspector shows (picked in a replay or while paused)
  // The divergence check: recording, the body whose name carries each step's hash; replaying, the
  // same body in the player's world (found at step 0; null when the recording names none).
  BodyId hashBody_{};
  BodyId replayHashBody_{};
  ReplayCheck check_;
};

/// The Scenes, Solver, Draw and Profile panels of a world scene (scene_panels.cpp, ImGui). Returns
/// the name of a scene or lab the user picked in the Scenes panel, or nullptr.
const char* DrawScenePanels(SceneView& view);

/// The samples browser's picker (samples_browser.h): a search field, then a list of the scenes and
/// labs it matches by category with `current` highlighted and each description in a tooltip, and
/// where `current` stands ("Stacking, 3 of 12"). Returns the picked name or nullptr.
const char* DrawScenePicker(const char* current);

/// The replay's Inspector section: the inspected body's lines (inspector.h), or how to pick one.
void DrawInspector(const SceneView& view);

/// The Profile's metrics table (MetricsLines) and a plot per stage (ImGui).
void DrawMetricsTable(const ProfileHistory& profile);

}  // namespace mk::sandbox
