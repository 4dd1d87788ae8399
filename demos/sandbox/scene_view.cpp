// SPDX-License-Identifier: MIT
#include "scene_view.h"

#include "fixed_step.h"
#include "minkowski/world_vector.h"
#include "panel_text.h"
#include "view_host.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mk::sandbox {
namespace {

// A broadphase box (measured from the world's origin, World::GetOrigin) in view coordinates (from
// `frame`): the same floats in the large-world build with the world's frame at the scene.
AABB BroadphaseToView(const AABB& box, Vec2 shift) { return {box.lower + shift, box.upper + shift}; }

// The broadphase's proxies with their boxes and sweep intervals in view coordinates.
std::vector<ProxyInfo> ProxiesInView(const World& world, Pos frame) {
  std::vector<ProxyInfo> proxies;
  mk::CollectProxies(world.GetBroadPhase(), proxies);
  const Vec2 shift = PosDelta(frame, world.GetOrigin());
  const float along = world.GetBroadPhase().Layout().sweepAxis == 0 ? shift.x : shift.y;
  for (ProxyInfo& p : proxies) {
    p.fatAABB = BroadphaseToView(p.fatAABB, shift);
    p.sweepLower += along;
    p.sweepUpper += along;
  }
  return proxies;
}

// The box around every shape's fat AABB, in the broadphase's coordinates (inverted when the world has
// none).
AABB ShapesBox(const World& world) {
  std::vector<ProxyInfo> proxies;
  mk::CollectProxies(world.GetBroadPhase(), proxies);
  AABB box{{1.0f, 1.0f}, {-1.0f, -1.0f}};
  for (size_t i = 0; i < proxies.size(); ++i) {
    const AABB& b = proxies[i].fatAABB;
    box = i == 0 ? b : AABB{Min(box.lower, b.lower), Max(box.upper, b.upper)};
  }
  return box;
}

// Every body with a shape, by index: the World lists no bodies, but the broadphase holds every shape.
std::vector<BodyId> BodiesWithShapes(const World& world) {
  std::vector<BodyId> bodies;
  AABB box = ShapesBox(world);
  if (box.lower.x > box.upper.x) return bodies;
  // QueryAABB takes world floats: far from zero they round (1 m at 1e7 m), so pad by more than that.
  const Vec2 origin = ToVec2(world.GetOrigin());
  const float pad = 1.0f + 1e-6f * std::max(std::fabs(origin.x), std::fabs(origin.y));
  box = {box.lower + origin - Vec2{pad, pad}, box.upper + origin + Vec2{pad, pad}};
  world.QueryAABB(box, [&](ShapeId shape) {
    bodies.push_back(world.GetBody(shape));
    return true;
  });
  auto byIndex = [](BodyId a, BodyId b) { return a.index1 < b.index1; };
  std::sort(bodies.begin(), bodies.end(), byIndex);
  bodies.erase(
      std::unique(bodies.begin(), bodies.end(), [](BodyId a, BodyId b) { return a.index1 == b.index1; }),
      bodies.end());
  return bodies;
}

// `body` in `world` again after the world was made anew with the same bodies (a replay player that
// restarted to go back: its ids carry a new world tag): the live body with the same slot and
// generation. As it was when it is live already, or when no such body lives (destroyed at this step).
BodyId SameBody(const World& world, BodyId body) {
  if (body.IsNull() || world.IsValid(body)) return body;
  for (BodyId live : BodiesWithShapes(world)) {
    if (live.index1 == body.index1 && live.generation == body.generation) return live;
  }
  return body;
}

bool Contains(const AABB& box, Vec2 p) {
  return box.lower.x <= p.x && p.x <= box.upper.x && box.lower.y <= p.y && p.y <= box.upper.y;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// History
// ---------------------------------------------------------------------------------------------

void History::Push(float value) {
  values[static_cast<size_t>(next)] = value;
  next = (next + 1) % kSize;
  count = std::min(count + 1, kSize);
}

float History::Latest() const {
  return count == 0 ? 0.0f : values[static_cast<size_t>((next + kSize - 1) % kSize)];
}

float History::Average() const {
  if (count == 0) return 0.0f;
  double sum = 0.0;
  for (int i = 0; i < count; ++i) sum += values[static_cast<size_t>((next + kSize - 1 - i) % kSize)];
  return static_cast<float>(sum / count);
}

float History::Max() const {
  if (count == 0) return 0.0f;
  float most = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < count; ++i)
    most = std::max(most, values[static_cast<size_t>((next + kSize - 1 - i) % kSize)]);
  return most;
}

std::array<StageHistory, 6> Stages(const ProfileHistory& p) {
  return {{{"broadphase", &p.broadphase},
           {"narrowphase", &p.narrowphase},
           {"solver", &p.solver},
           {"continuous", &p.continuous},
           {"islands", &p.islands},
           {"step", &p.step}}};
}

std::vector<std::string> MetricsLines(const ProfileHistory& profile) {
  std::vector<std::string> lines = {MetricsHeader()};
  for (const StageHistory& stage : Stages(profile)) {
    const History& h = *stage.history;
    lines.push_back(MetricsRow(stage.name, h.Latest(), h.Average(), h.Max()));
  }
  lines.push_back(MetricsWindowLine(profile.step.count));
  return lines;
}

std::string StateHashName(std::uint64_t hash) {
  char text[32];
  std::snprintf(text, sizeof text, "%s%016llx", SceneView::kStateHashPrefix,
                static_cast<unsigned long long>(hash));
  return text;
}

bool ParseStateHashName(std::string_view name, std::uint64_t& hash) {
  const std::string_view prefix = SceneView::kStateHashPrefix;
  if (name.size() != prefix.size() + 16 || !name.starts_with(prefix)) return false;
  const std::string_view digits = name.substr(prefix.size());
  return std::from_chars(digits.data(), digits.data() + digits.size(), hash, 16).ptr ==
         digits.data() + digits.size();
}

std::vector<std::string> ReplayCheckLines(const ReplayCheck& check, std::uint64_t step) {
  auto number = [](std::uint64_t n) { return Trimmed(FixedNumber(static_cast<double>(n), 10, 0)); };
  auto hex = [](std::uint64_t h) {
    return StateHashName(h).substr(std::string_view(SceneView::kStateHashPrefix).size());
  };
  if (check.divergedAt != 0) {
    return {"DIVERGED at step " + number(check.divergedAt), "  recorded hash " + hex(check.recorded),
            "  this build    " + hex(check.replayed)};
  }
  if (step == 0 && !check.hashesRecorded) return {"state hashes: checked from step 1"};
  if (!check.hashesRecorded) return {"no state hashes in the recording"};
  return {"hashes match through step " + number(check.checkedThrough)};
}

void RealTimeMeter::Add(float realSeconds, float simulatedSeconds, float droppedSeconds) {
  droppedSteps += droppedSeconds * stepHertz;
  windowReal += realSeconds;
  windowSimulated += simulatedSeconds;
  if (windowReal < kWindowSeconds) return;
  factor = windowSimulated / windowReal;
  windowReal = 0.0f;
  windowSimulated = 0.0f;
}

// ---------------------------------------------------------------------------------------------
// Loading and settings
// ---------------------------------------------------------------------------------------------

SceneView::SceneView(const scenes::SceneInfo& info, const SceneSettings& settings)
    : info_(&info), settings_(settings) {
  Load();
}

void SceneView::Load(bool record) {
  player_.reset();
  const scenes::Placement placement{Pos{settings_.farAway, settings_.farAway}, !settings_.farFrameAtZero};
  run_ = std::make_unique<scenes::SceneRun>(*info_, settings_.params, record, placement);
  frame_ = run_->State().origin;
  if (record) NameRecordedScene();
  followSeen_ = false;
  ApplyWorldSettings();
  ResetInteraction();
  // The world a bomb can leave: everything built, with as much room again on every side (a bomb
  // beyond flies on for ever and would swamp the readouts: 2.4e5 J and 2,737 m of drift for one).
  const AABB shapes =
      BroadphaseToView(ShapesBox(run_->GetWorld()), PosDelta(frame_, run_->GetWorld().GetOrigin()));
  const Vec2 room = 0.5f * (shapes.upper - shapes.lower) + Vec2{10.0f, 10.0f};
  worldBox_ = {shapes.lower - room, shapes.upper + room};
}

// What belongs to the run shown: timing, figures, grabs and bombs.
void SceneView::ResetInteraction() {
  accumulator_ = 0.0f;
  profile_ = {};
  readouts_ = {};
  realTime_ = {};
  realTime_.stepHertz = settings_.stepHertz;
  bombs_.clear();
  bombShapes_.clear();
  referenceBodies_.clear();
  referencePositions_.clear();
  mouseJoint_ = {};
  aiming_ = false;
  inspected_ = {};
  replayHashBody_ = {};
  check_ = {};
}

void SceneView::Restart() {
  if (player_ != nullptr) {
    ScrubTo(0);
    return;
  }
  Load(IsRecording());  // a restart while recording starts a new recording
}

// The world steps on the pool of settings_.workers workers (none for 1).
void SceneView::ApplyWorkers(World& world) {
  world.SetSubStepWorkers(static_cast<WorkerUse>(std::clamp(settings_.subStepWorkers, 0, 2)));
  const int workers = std::clamp(settings_.workers, 1, kMaxSandboxWorkers);
  if (workers == 1) {
    activePool_ = nullptr;
    world.SetTaskSystem(TaskSystem{});
    return;
  }
  std::unique_ptr<TimedTaskPool>& pool = pools_[static_cast<std::size_t>(workers)];
  if (pool == nullptr) pool = std::make_unique<TimedTaskPool>(workers);
  activePool_ = pool.get();
  world.SetTaskSystem(pool->GetTaskSystem());
}

void SceneView::ApplyWorldSettings() {
  World& world = GetWorld();
  // The world keeps its continuous records only while they are drawn (no effect on the motion).
  world.SetContinuousRecording(settings_.draw.continuous);
  ApplyWorkers(world);             // replays too: the worker count changes no result
  if (player_ != nullptr) return;  // a replay runs with the settings it recorded
  world.SetGravity(settings_.gravity);
  if (!world.SetSolverSettings(settings_.solver)) settings_.solver = world.GetSolverSettings();
}

bool SceneView::SetSettings(const SceneSettings& settings) {
  const bool knobsChanged =
      settings.params.size != settings_.params.size || settings.params.count != settings_.params.count ||
      settings.farAway != settings_.farAway || settings.farFrameAtZero != settings_.farFrameAtZero;
  if (settings.stepHertz != settings_.stepHertz) accumulator_ = 0.0f;  // time owed at the old rate
  settings_ = settings;
  realTime_.stepHertz = settings_.stepHertz;
  if (knobsChanged && player_ == nullptr) {
    Load(IsRecording());
  } else {
    ApplyWorldSettings();
  }
  SceneSettings applied = settings;
  applied.solver = run_->GetWorld().GetSolverSettings();
  return FormatSettings(applied) == FormatSettings(settings);
}

// ---------------------------------------------------------------------------------------------
// Stepping
// ---------------------------------------------------------------------------------------------

int SceneView::Advance(float realSeconds) {
  if (paused || !(realSeconds > 0.0f)) return 0;
  const float dt = 1.0f / settings_.stepHertz;
  const float counted = std::min(realSeconds, kMaxFrameSeconds);
  accumulator_ += counted;
  const float owed = accumulator_;
  const int steps = RunFixedSteps(accumulator_, dt, kMaxStepsPerFrame, [this] { StepOnce(); });
  const float stepped = static_cast<float>(steps) * dt;
  // What the step cap cut from the accumulator, and what the frame clamp never put in.
  const float dropped = (owed - stepped - accumulator_) + (realSeconds - counted);
  realTime_.Add(realSeconds, stepped, std::max(dropped, 0.0f));
  return steps;
}

void SceneView::StepOnce() {
  if (activePool_ != nullptr) activePool_->ClearTasks();
  // The time each Step returns, read at once: the per-worker load dates the Step's stages from it.
  // (A replay's step may save a keyframe after World::Step, every few hundred steps: that step's
  // tasks then date early and may count in the stage before theirs; the totals stay right.)
  if (player_ != nullptr) {
    if (player_->AtEnd()) return;
    player_->StepTo(player_->CurrentStep() + 1);
    const std::int64_t stepEnd = NowNs();
    CheckRecordedHash();
    ShowReplaySettings();
    AfterStep(stepEnd);
    return;
  }
  if (!mouseJoint_.IsNull() && GetWorld().IsValid(mouseJoint_))
    GetWorld().SetMouseTarget(mouseJoint_, ToWorld(mouseTarget_));
  run_->Step(1.0f / settings_.stepHertz);  // World::Step is the last thing it calls
  const std::int64_t stepEnd = NowNs();
  RecordStateHash();
  AfterStep(stepEnd);
}

void SceneView::AfterStep(std::int64_t stepEndNs) {
  const World& world = GetWorld();
  const mk::Profile& p = world.GetProfile();
  static const std::vector<TimedTask> kNoTasks;
  workerLoad_ = MeasureWorkerLoad(activePool_ != nullptr ? activePool_->ThreadCount() : 1, p, stepEndNs,
                                  activePool_ != nullptr ? activePool_->Tasks() : kNoTasks);
  profile_.step.Push(p.step);
  profile_.broadphase.Push(p.broadphase);
  profile_.narrowphase.Push(p.narrowphase);
  profile_.islands.Push(p.islands);
  profile_.solver.Push(p.solver);
  profile_.continuous.Push(p.continuous);
  const Counters counters = world.GetCounters();
  profile_.narrowphaseQueries.Push(static_cast<float>(counters.narrowphaseQueries));
  profile_.gjkIterations.Push(counters.narrowphaseQueries > 0
                                  ? static_cast<float>(counters.gjkIterations) /
                                        static_cast<float>(counters.narrowphaseQueries)
                                  : 0.0f);
  if (!mouseJoint_.IsNull() && !world.IsValid(mouseJoint_)) mouseJoint_ = {};  // its body was destroyed
  MeasureReadouts();
}

// ---------------------------------------------------------------------------------------------
// Record and replay
// ---------------------------------------------------------------------------------------------

void SceneView::StartRecording() { Load(true); }

std::vector<std::byte> SceneView::StopRecording() {
  if (player_ != nullptr) return {};
  return mk::StopRecording(run_->GetWorld());
}

bool SceneView::StopRecordingAndSave(const std::string& path, std::string& message) {
  if (!IsRecording()) {
    message = "not recording";
    return false;
  }
  const std::vector<std::byte> bytes = StopRecording();
  const ReplayError error = SaveReplayFile(path.c_str(), bytes);
  if (error != ReplayError::None) {
    message = "cannot write " + path + ": " + ToString(error);
    return false;
  }
  char text[160];
  std::snprintf(text, sizeof text, "saved %d steps (%.1f KB) to ", run_->StepCount(),
                static_cast<double>(bytes.size()) / 1024.0);
  message = text + path;
  return true;
}

// The first unnamed body names the scene; the next one carries the state hash, named now with the
// built state's (so a player knows from step 0 that the recording has them) and after every step
// (a scene of one body records no hashes).
void SceneView::NameRecordedScene() {
  World& world = run_->GetWorld();
  hashBody_ = {};
  bool sceneNamed = false;
  for (BodyId body : BodiesWithShapes(world)) {
    if (world.GetName(body)[0] != '\0') continue;  // the scene's own name (a platform, a ball)
    if (sceneNamed) {
      hashBody_ = body;
      RecordStateHash();
      return;
    }
    world.SetName(body, (std::string(kSceneNamePrefix) + info_->name).c_str());
    sceneNamed = true;
  }
}

// Right after a recorded step, so in the file the name is the record after the Step's. A name
// changes nothing the simulation reads: the run stays as it was.
void SceneView::RecordStateHash() {
  World& world = run_->GetWorld();
  if (!world.IsRecording() || hashBody_.IsNull() || !world.IsValid(hashBody_)) return;
  world.SetName(hashBody_, StateHashName(world.StateHash()).c_str());
}

// At step 0, once the recorded build is applied: the body named with the build's hash, if any.
void SceneView::FindRecordedHashBody() {
  const World& world = player_->GetWorld();
  std::uint64_t ignored = 0;
  for (BodyId body : BodiesWithShapes(world)) {
    if (ParseStateHashName(world.GetName(body), ignored)) replayHashBody_ = body;
  }
}

// Right after the player's Step k: this build's hash, then the one record after the Step, which in a
// recording with hashes is that step's name (applying only it keeps the world at the state just
// after the step, as a replay shows it).
void SceneView::CheckRecordedHash() {
  World& world = player_->GetWorld();
  // Destroyed (by the scene) at or before this step: the recording stopped naming hashes with it.
  if (replayHashBody_.IsNull() || !world.IsValid(replayHashBody_)) return;
  const std::uint64_t step = player_->CurrentStep();
  const std::uint64_t own = world.StateHash();
  player_->ApplyNext();
  std::uint64_t recorded = 0;
  if (!ParseStateHashName(world.GetName(replayHashBody_), recorded)) return;
  check_.hashesRecorded = true;
  check_.checkedThrough = std::max(check_.checkedThrough, step);
  if (recorded == own || (check_.divergedAt != 0 && check_.divergedAt <= step)) return;
  check_.divergedAt = step;
  check_.recorded = recorded;
  check_.replayed = own;
}

// The panels then name the replayed scene and show its description, and leaving the replay loads it
// (at its default knobs: the file does not say which knobs built it). A file naming no scene of the
// table leaves the scene shown before.
void SceneView::FindReplayedScene() {
  replayedScene_ = nullptr;
  const World& world = player_->GetWorld();
  const std::string_view prefix = kSceneNamePrefix;
  for (BodyId body : BodiesWithShapes(world)) {
    const std::string_view name = world.GetName(body);
    if (!name.starts_with(prefix)) continue;
    replayedScene_ = scenes::FindScene(name.substr(prefix.size()));
    break;
  }
  if (replayedScene_ == nullptr || replayedScene_ == info_) return;
  const DrawToggles draw = settings_.draw;
  const int workers = settings_.workers, subStepWorkers = settings_.subStepWorkers;
  info_ = replayedScene_;
  settings_ = DefaultSettings(*info_);
  settings_.draw = draw;
  settings_.workers = workers;
  settings_.subStepWorkers = subStepWorkers;
}

void SceneView::PlayReplay(Replay replay) {
  if (IsRecording()) mk::StopRecording(run_->GetWorld());
  player_ = std::make_unique<ReplayPlayer>(std::move(replay));
  ResetInteraction();
  ScrubTo(0);
  FindReplayedScene();
  refitRequested_ = true;
}

bool SceneView::PlayReplayFile(const std::string& path, std::string& message) {
  Replay replay;
  const ReplayError error = Replay::LoadFile(path.c_str(), replay);
  if (error != ReplayError::None) {
    message = "cannot load " + path + ": " + ToString(error);
    return false;
  }
  char text[160];
  std::snprintf(text, sizeof text, "replaying %llu steps from ",
                static_cast<unsigned long long>(replay.StepCount()));
  message = text + path;
  PlayReplay(std::move(replay));
  return true;
}

void SceneView::ScrubTo(std::uint64_t step) {
  if (player_ == nullptr) return;
  player_->StepTo(std::min(step, player_->StepCount()));
  replayHashBody_ = SameBody(player_->GetWorld(), replayHashBody_);
  inspected_ = SameBody(player_->GetWorld(), inspected_);
  if (player_->CurrentStep() == 0) {
    player_->ApplyUntilNextStep();  // the recorded build: something to look at
    if (replayHashBody_.IsNull()) FindRecordedHashBody();
  } else {
    CheckRecordedHash();
  }
  ShowReplaySettings();
  // Back before the drift reference: it is taken again when the replay passes its time.
  if (SimulatedTime() < readouts_.referenceTime) readouts_.referenceTime = -1.0f;
  MeasureReadouts();
}

// The panels show the settings the replay runs with now (a recording may change them), and its
// world keeps continuous records while they are drawn, as a scene's does.
void SceneView::ShowReplaySettings() {
  World& world = GetWorld();
  settings_.solver = world.GetSolverSettings();
  settings_.gravity = world.GetGravity();
  world.SetContinuousRecording(settings_.draw.continuous);
}

bool SceneView::TakeRefitRequest() { return std::exchange(refitRequested_, false); }

bool SceneView::TakeResumeRequest() { return std::exchange(resumeRequested_, false); }

Vec2 SceneView::TakeFollowShift() {
  const BodyId body = run_->State().follow;
  if (player_ != nullptr || body.IsNull() || !run_->GetWorld().IsValid(body)) return {0.0f, 0.0f};
  const Vec2 p = ToView(run_->GetWorld().GetPosition(body));
  const Vec2 shift = followSeen_ ? p - followLast_ : Vec2{0.0f, 0.0f};
  followSeen_ = true, followLast_ = p;
  return shift;
}

void SceneView::LeaveReplay() {
  if (player_ == nullptr) return;
  Load();
  refitRequested_ = true;
  resumeRequested_ = true;
}

// Live: the scene's bodies and the bombs still in the world. In a replay the scene's ids would name
// bodies of the scene's world, not the player's: every dynamic body of the player's world.
std::vector<BodyId> SceneView::WatchedBodies() const {
  const World& world = GetWorld();
  if (player_ != nullptr) {
    std::vector<BodyId> bodies = BodiesWithShapes(world);
    std::erase_if(bodies, [&](BodyId b) { return world.GetBodyType(b) != BodyType::Dynamic; });
    return bodies;
  }
  std::vector<BodyId> bodies = run_->State().bodies;
  for (BodyId bomb : bombs_) {
    if (world.IsValid(bomb) && Contains(worldBox_, ToView(world.GetPosition(bomb)))) bodies.push_back(bomb);
  }
  return bodies;
}

void SceneView::MeasureReadouts() {
  const World& world = GetWorld();
  float deepest = 0.0f;
  world.ForEachTouchingContact([&deepest](const ContactView& contact) {
    for (int i = 0; i < contact.manifold.pointCount; ++i)
      deepest = std::max(deepest, -contact.manifold.points[i].separation);
  });
  readouts_.maxPenetration = deepest;

  const std::vector<BodyId> bodies = WatchedBodies();
  double energy = 0.0;
  for (BodyId body : bodies) {
    if (!world.IsValid(body)) continue;
    Vec2 v = world.GetLinearVelocity(body);
    float w = world.GetAngularVelocity(body);
    energy += 0.5 * world.GetMass(body) * Dot(v, v) + 0.5 * world.GetRotationalInertia(body) * w * w;
  }
  readouts_.kineticEnergy = static_cast<float>(energy);

  if (readouts_.referenceTime < 0.0f && SimulatedTime() >= kDriftReferenceTime) ResetDriftReference();
  float drift = 0.0f;
  for (size_t i = 0; i < referenceBodies_.size(); ++i) {
    const BodyId body = referenceBodies_[i];
    // A body destroyed since, or a bomb that left the world, no longer counts.
    if (!world.IsValid(body) || (IsBomb(body) && !Contains(worldBox_, ToView(world.GetPosition(body)))))
      continue;
    drift = std::max(drift, Length(ToView(world.GetPosition(body)) - referencePositions_[i]));
  }
  readouts_.drift = drift;
}

bool SceneView::IsBomb(BodyId body) const {
  return std::find(bombs_.begin(), bombs_.end(), body) != bombs_.end();
}

void SceneView::ResetDriftReference() {
  const World& world = GetWorld();
  referenceBodies_.clear();
  referencePositions_.clear();
  for (BodyId body : WatchedBodies()) {
    if (!world.IsValid(body)) continue;
    referenceBodies_.push_back(body);
    referencePositions_.push_back(ToView(world.GetPosition(body)));
  }
  readouts_.referenceTime = SimulatedTime();
  readouts_.drift = 0.0f;
}

// ---------------------------------------------------------------------------------------------
// Mouse
// ---------------------------------------------------------------------------------------------

BodyId SceneView::PickBody(Vec2 point) {
  World& world = GetWorld();
  BodyId best{};
  bool bestIsStatic = true;
  // A world position, not a float box: exact far from the origin too.
  world.OverlapPoint(ToWorld(point), QueryFilter{}, [&](ShapeId shape) {
    BodyId body = world.GetBody(shape);
    bool isStatic = world.GetBodyType(body) == BodyType::Static;
    if (best.IsNull() || (bestIsStatic && !isStatic)) {
      best = body;
      bestIsStatic = isStatic;
    }
    return bestIsStatic;  // a movable body ends the search
  });
  return best;
}

HoverInfo SceneView::Hover(Vec2 point) {
  HoverInfo info;
  info.body = PickBody(point);
  if (info.body.IsNull()) return info;
  const World& world = GetWorld();
  info.type = world.GetBodyType(info.body);
  info.mass = world.GetMass(info.body);
  info.velocity = world.GetLinearVelocity(info.body);
  info.angularVelocity = world.GetAngularVelocity(info.body);
  return info;
}

bool SceneView::MouseDown(Vec2 point, bool shift) {
  if (player_ != nullptr) {  // a replay only plays what was recorded: a click inspects, no bombs
    if (!shift) inspected_ = PickBody(point);
    return !shift && !inspected_.IsNull();
  }
  if (paused && !shift) {  // paused, a grab could not move anything: a click inspects
    inspected_ = PickBody(point);
    return !inspected_.IsNull();
  }
  if (shift) {
    aiming_ = true;
    aimStart_ = aimEnd_ = point;
    return true;
  }
  BodyId body = PickBody(point);
  World& world = GetWorld();
  if (body.IsNull() || world.GetBodyType(body) != BodyType::Dynamic) return false;
  float weight = world.GetMass(body) * std::max(Length(settings_.gravity), 1.0f);
  mouseTarget_ = point;
  mouseJoint_ = world.CreateJoint(MouseJointDef{.body = body,
                                                .target = ToWorld(point),
                                                .hertz = 5.0f,
                                                .dampingRatio = 0.7f,
                                                .maxForce = kMouseForcePerWeight * weight});
  world.SetAwake(body, true);
  return !mouseJoint_.IsNull();
}

void SceneView::MouseMove(Vec2 point) {
  mouse_ = point;
  mouseSeen_ = true;
  if (aiming_) aimEnd_ = point;
  if (IsGrabbing()) {
    mouseTarget_ = point;
    GetWorld().SetMouseTarget(mouseJoint_, ToWorld(point));
  }
}

void SceneView::MouseUp(Vec2 point) {
  if (player_ != nullptr) return;
  World& world = GetWorld();
  if (IsGrabbing()) world.DestroyJoint(mouseJoint_);
  mouseJoint_ = {};
  if (!aiming_) return;
  aiming_ = false;
  // Slingshot: the bomb starts where the drag began and flies along the drag.
  BodyId bomb = world.CreateBody({.type = BodyType::Dynamic,
                                  .position = ToWorld(aimStart_),
                                  .linearVelocity = kBombSpeedPerMetre * (point - aimStart_),
                                  .isBullet = true});
  bombShapes_.push_back(world.CreateShape(bomb, {.density = kBombDensity, .friction = 0.6f},
                                          MakeCircle({0.0f, 0.0f}, kBombRadius).value));
  bombs_.push_back(bomb);
}

bool SceneView::IsGrabbing() const { return !mouseJoint_.IsNull() && GetWorld().IsValid(mouseJoint_); }

// ---------------------------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------------------------

AABB SceneView::Bounds() const {
  if (run_ != nullptr) {  // the scene's own view (scenes.h: SceneState::view)
    const AABB& view = run_->State().view;
    if (view.lower.x <= view.upper.x && view.lower.y <= view.upper.y) return view;
  }
  const std::vector<ProxyInfo> proxies = ProxiesInView(GetWorld(), frame_);
  // Frame what moves, with room around it: static ground often reaches far beyond the action.
  // Scenes with nothing movable frame everything.
  bool anyMoving = std::any_of(proxies.begin(), proxies.end(),
                               [](const ProxyInfo& p) { return p.type != ProxyType::Static; });
  bool first = true;
  AABB box{{-10.0f, -10.0f}, {10.0f, 10.0f}};
  for (const ProxyInfo& p : proxies) {
    if (anyMoving && p.type == ProxyType::Static) continue;
    box = first ? p.fatAABB : AABB{Min(box.lower, p.fatAABB.lower), Max(box.upper, p.fatAABB.upper)};
    first = false;
  }
  // Nothing moves yet (rain before its first spawn): frame everything with the same room, so what
  // appears above the top floor is in view too.
  constexpr float kRoom = 0.25f;  // fraction of the framed extent added on every side
  Vec2 room = kRoom * (box.upper - box.lower) + Vec2{1.0f, 1.0f};
  return {box.lower - room, box.upper + room};
}

void SceneView::Draw(DebugDraw& draw, const AABB& visible, float metresPerPixel) const {
  const DrawToggles& t = settings_.draw;
  DrawOptions options;
  options.shapes = t.shapes;
  options.aabbs = t.aabbs;
  options.contactPoints = t.contactPoints;
  options.contactNormals = t.contactNormals;
  options.contactImpulses = t.contactImpulses;
  options.joints = t.joints;
  options.centersOfMass = t.centersOfMass;
  options.islandColors = t.islands;
  options.continuous = t.continuous;
  options.origin = frame_;
  GetWorld().Draw(draw, options);
  if (t.shapes && player_ == nullptr) {
    const World& world = GetWorld();
    const scenes::SceneState& state = run_->State();
    for (const std::vector<ShapeId>* list : {&state.projectiles, &bombShapes_}) {
      for (ShapeId shape : *list) {
        if (!world.IsValid(shape)) continue;
        DrawShape(draw, world.GetShapeGeometry(shape),
                  RelativeTo(world.GetTransform(world.GetBody(shape)), frame_), kBombColor);
      }
    }
  }
  if (run_ != nullptr &&
      !run_->State().text.empty()) {  // the scene's own line (SceneState::text), right of the panel
    const Vec2 corner{visible.lower.x + (kPanelPixels + 12.0f) * metresPerPixel,
                      visible.upper.y - 12.0f * metresPerPixel};
    draw.DrawString(corner, run_->State().text.c_str(), {255, 255, 255, 255});
  }
  if (t.broadphase) DrawBroadphase(draw, visible, metresPerPixel);
  DrawInspected(draw);
  if (IsGrabbing()) draw.DrawPoint(mouseTarget_, 6.0f, {120, 255, 120, 255});
  if (aiming_) {
    draw.DrawSegment(aimStart_, aimEnd_, {255, 120, 80, 255});
    draw.DrawCircle(aimStart_, kBombRadius, kBombColor);
  }
}

// The inspected body's shapes outlined again in their own colour, over the world's drawing.
void SceneView::DrawInspected(DebugDraw& draw) const {
  const World& world = GetWorld();
  if (inspected_.IsNull() || !world.IsValid(inspected_)) return;
  std::vector<ShapeId> shapes(static_cast<size_t>(world.GetShapeCount(inspected_)));
  shapes.resize(static_cast<size_t>(world.GetShapes(inspected_, shapes)));
  const Transform xf = RelativeTo(world.GetTransform(inspected_), frame_);
  for (ShapeId shape : shapes) DrawShape(draw, world.GetShapeGeometry(shape), xf, kInspectColor);
}

// The sweep-and-prune picture, for the proxies whose fat boxes meet the view: the sweep axis as an
// arrow along the bottom (x) or left (y) edge with every shown box's sorted endpoints as ticks (green:
// enters, red: leaves), the sweep line at the mouse (or the view's centre), the active set (boxes
// whose interval holds the sweep position) outlined orange, and the pairs the sweep has found that
// involve the active set as white lines between box centres. The Draw panel carries the legend.
void SceneView::DrawBroadphase(DebugDraw& draw, const AABB& visible, float metresPerPixel) const {
  const BroadPhase& broadphase = GetWorld().GetBroadPhase();
  const BroadPhaseLayout layout = broadphase.Layout();
  const int axis = layout.sweepAxis, across = 1 - axis;
  auto at = [axis](float along, float other) { return axis == 0 ? Vec2{along, other} : Vec2{other, along}; };
  auto on = [](Vec2 v, int i) { return i == 0 ? v.x : v.y; };

  std::vector<ProxyInfo> proxies = ProxiesInView(GetWorld(), frame_);
  std::erase_if(proxies, [&](const ProxyInfo& p) { return !Overlaps(p.fatAABB, visible); });
  sweep_ = {};
  sweep_.axis = axis;
  sweep_.bandCount = layout.bandCount;
  sweep_.inView = static_cast<int>(proxies.size());

  const Vec2 centre = 0.5f * (visible.lower + visible.upper);
  const bool mouseInView = mouseSeen_ && Overlaps(AABB{mouse_, mouse_}, visible);
  const float sweepAt = on(mouseInView ? mouse_ : centre, axis);
  sweep_.position = sweepAt;
  // Too many to read: keep those whose intervals lie nearest the sweep line (the active set first).
  if (proxies.size() > static_cast<size_t>(kMaxSweepShown)) {
    auto gap = [sweepAt](const ProxyInfo& p) {
      return std::max({p.sweepLower - sweepAt, sweepAt - p.sweepUpper, 0.0f});
    };
    std::nth_element(proxies.begin(), proxies.begin() + kMaxSweepShown, proxies.end(),
                     [&](const ProxyInfo& x, const ProxyInfo& y) { return gap(x) < gap(y); });
    proxies.resize(kMaxSweepShown);
  }
  std::sort(proxies.begin(), proxies.end(),
            [](const ProxyInfo& x, const ProxyInfo& y) { return x.sweepLower < y.sweepLower; });
  sweep_.shown = static_cast<int>(proxies.size());
  const float lo = on(visible.lower, axis), hi = on(visible.upper, axis);
  const float px = metresPerPixel;

  // The axis with its sorted endpoints: along the bottom edge for x, the right edge for y (the side
  // panel covers the left), ticks for entering ends pointing into the view.
  const float inward = axis == 0 ? 1.0f : -1.0f;
  const float baseline = (axis == 0 ? visible.lower.y : visible.upper.x) + inward * 14.0f * px;
  const float tick = inward * 8.0f * px;
  draw.DrawSegment(at(lo, baseline), at(hi - 2.0f * px, baseline), sweep_colors::kSweepAxis);
  draw.DrawSegment(at(hi - 10.0f * px, baseline + 4.0f * px), at(hi - 2.0f * px, baseline),
                   sweep_colors::kSweepAxis);
  draw.DrawSegment(at(hi - 10.0f * px, baseline - 4.0f * px), at(hi - 2.0f * px, baseline),
                   sweep_colors::kSweepAxis);
  const Vec2 axisLabel =
      axis == 0 ? at(hi - 100.0f * px, baseline + 30.0f * px) : at(hi - 12.0f * px, baseline - 110.0f * px);
  draw.DrawString(axisLabel, axis == 0 ? "sweep axis x" : "sweep axis y", sweep_colors::kSweepAxis);
  std::vector<bool> active(proxies.size());
  for (size_t i = 0; i < proxies.size(); ++i) {
    const ProxyInfo& p = proxies[i];
    draw.DrawSegment(at(p.sweepLower, baseline), at(p.sweepLower, baseline + tick),
                     sweep_colors::kSweepEnter);
    draw.DrawSegment(at(p.sweepUpper, baseline), at(p.sweepUpper, baseline - tick),
                     sweep_colors::kSweepLeave);
    active[i] = p.sweepLower <= sweepAt && sweepAt <= p.sweepUpper;
    sweep_.active += active[i] ? 1 : 0;
    const Vec2 box[4] = {p.fatAABB.lower,
                         {p.fatAABB.upper.x, p.fatAABB.lower.y},
                         p.fatAABB.upper,
                         {p.fatAABB.lower.x, p.fatAABB.upper.y}};
    draw.DrawPolygon(box, 4, active[i] ? sweep_colors::kSweepActive : sweep_colors::kSweepBox);
  }

  // The sweep line across the whole view: it is the one long line, and it is labelled.
  draw.DrawSegment(at(sweepAt, on(visible.lower, across)), at(sweepAt, on(visible.upper, across)),
                   sweep_colors::kSweepLine);
  // Labelled beside the axis strip, away from the scene's centre.
  const Vec2 lineLabel = axis == 0 ? at(sweepAt + 4.0f * px, visible.upper.y - 8.0f * px)
                                   : at(sweepAt + 16.0f * px, visible.upper.x - 110.0f * px);
  draw.DrawString(lineLabel, "sweep line", sweep_colors::kSweepLine);

  // Pairs found so far (both boxes entered) that involve the active set.
  std::unordered_map<std::uint32_t, size_t> shownIndex;
  for (size_t i = 0; i < proxies.size(); ++i) shownIndex.emplace(proxies[i].id.index1, i);
  std::vector<ProxyPair> pairs;
  mk::CollectPairs(broadphase, pairs);
  for (const ProxyPair& pair : pairs) {
    auto a = shownIndex.find(pair.proxyA.index1), b = shownIndex.find(pair.proxyB.index1);
    if (a == shownIndex.end() || b == shownIndex.end()) continue;
    const ProxyInfo& pa = proxies[a->second];
    const ProxyInfo& pb = proxies[b->second];
    if (std::max(pa.sweepLower, pb.sweepLower) > sweepAt || !(active[a->second] || active[b->second]))
      continue;
    ++sweep_.pairsFound;
    draw.DrawSegment(0.5f * (pa.fatAABB.lower + pa.fatAABB.upper),
                     0.5f * (pb.fatAABB.lower + pb.fatAABB.upper), sweep_colors::kSweepPair);
  }
}

}  // namespace mk::sandbox
