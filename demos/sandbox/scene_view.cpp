#include "scene_view.h"

#include "fixed_step.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mk::sandbox {

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

void SceneView::Load() {
  run_ = std::make_unique<scenes::SceneRun>(*info_, settings_.params);
  ApplyWorldSettings();
  accumulator_ = 0.0f;
  profile_ = {};
  readouts_ = {};
  realTime_ = {};
  realTime_.stepHertz = settings_.stepHertz;
  bombs_.clear();
  bombShapes_.clear();
  referencePositions_.clear();
  mouseJoint_ = {};
  aiming_ = false;
}

void SceneView::Restart() { Load(); }

void SceneView::ApplyWorldSettings() {
  World& world = run_->GetWorld();
  world.SetGravity(settings_.gravity);
  if (!world.SetSolverSettings(settings_.solver)) settings_.solver = world.GetSolverSettings();
  // The world keeps its continuous records only while they are drawn.
  world.SetContinuousRecording(settings_.draw.continuous);
}

bool SceneView::SetSettings(const SceneSettings& settings) {
  const bool knobsChanged =
      settings.params.size != settings_.params.size || settings.params.count != settings_.params.count;
  if (settings.stepHertz != settings_.stepHertz) accumulator_ = 0.0f;  // time owed at the old rate
  settings_ = settings;
  realTime_.stepHertz = settings_.stepHertz;
  if (knobsChanged) {
    Load();
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
  if (!mouseJoint_.IsNull() && GetWorld().IsValid(mouseJoint_))
    GetWorld().SetMouseTarget(mouseJoint_, mouseTarget_);
  run_->Step(1.0f / settings_.stepHertz);
  AfterStep();
}

void SceneView::AfterStep() {
  const World& world = GetWorld();
  const mk::Profile& p = world.GetProfile();
  profile_.step.Push(p.step);
  profile_.broadphase.Push(p.broadphase);
  profile_.narrowphase.Push(p.narrowphase);
  profile_.islands.Push(p.islands);
  profile_.solver.Push(p.solver);
  const Counters counters = world.GetCounters();
  profile_.narrowphaseQueries.Push(static_cast<float>(counters.narrowphaseQueries));
  profile_.gjkIterations.Push(counters.narrowphaseQueries > 0
                                  ? static_cast<float>(counters.gjkIterations) /
                                        static_cast<float>(counters.narrowphaseQueries)
                                  : 0.0f);
  if (!mouseJoint_.IsNull() && !world.IsValid(mouseJoint_)) mouseJoint_ = {};  // its body was destroyed
  MeasureReadouts();
}

std::vector<BodyId> SceneView::WatchedBodies() const {
  std::vector<BodyId> bodies = run_->State().bodies;
  bodies.insert(bodies.end(), bombs_.begin(), bombs_.end());
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
  for (size_t i = 0; i < referencePositions_.size() && i < bodies.size(); ++i) {
    if (world.IsValid(bodies[i]))
      drift = std::max(drift, Length(world.GetPosition(bodies[i]) - referencePositions_[i]));
  }
  readouts_.drift = drift;
}

void SceneView::ResetDriftReference() {
  const World& world = GetWorld();
  referencePositions_.clear();
  for (BodyId body : WatchedBodies()) {
    referencePositions_.push_back(world.IsValid(body) ? world.GetPosition(body) : Vec2{0.0f, 0.0f});
  }
  readouts_.referenceTime = SimulatedTime();
  readouts_.drift = 0.0f;
}

// ---------------------------------------------------------------------------------------------
// Mouse
// ---------------------------------------------------------------------------------------------

BodyId SceneView::PickBody(Vec2 point) {
  World& world = GetWorld();
  constexpr float kPickHalfSize = 0.001f;  // m: the query box around the cursor
  BodyId best{};
  bool bestIsStatic = true;
  world.QueryAABB({point - Vec2{kPickHalfSize, kPickHalfSize}, point + Vec2{kPickHalfSize, kPickHalfSize}},
                  [&](ShapeId shape) {
                    if (!world.TestPoint(shape, point)) return true;
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
  info.mass = world.GetMass(info.body);
  info.velocity = world.GetLinearVelocity(info.body);
  info.angularVelocity = world.GetAngularVelocity(info.body);
  return info;
}

bool SceneView::MouseDown(Vec2 point, bool shift) {
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
                                                .target = point,
                                                .hertz = 5.0f,
                                                .dampingRatio = 0.7f,
                                                .maxForce = kMouseForcePerWeight * weight});
  world.SetAwake(body, true);
  return !mouseJoint_.IsNull();
}

void SceneView::MouseMove(Vec2 point) {
  if (aiming_) aimEnd_ = point;
  if (IsGrabbing()) {
    mouseTarget_ = point;
    GetWorld().SetMouseTarget(mouseJoint_, point);
  }
}

void SceneView::MouseUp(Vec2 point) {
  World& world = GetWorld();
  if (IsGrabbing()) world.DestroyJoint(mouseJoint_);
  mouseJoint_ = {};
  if (!aiming_) return;
  aiming_ = false;
  // Slingshot: the bomb starts where the drag began and flies along the drag.
  BodyId bomb = world.CreateBody({.type = BodyType::Dynamic,
                                  .position = aimStart_,
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
  std::vector<ProxyInfo> proxies;
  GetWorld().GetBroadPhase().CollectProxies(proxies);
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
  GetWorld().Draw(draw, options);
  if (t.shapes) {
    const World& world = GetWorld();
    const scenes::SceneState& state = run_->State();
    for (const std::vector<ShapeId>* list : {&state.projectiles, &bombShapes_}) {
      for (ShapeId shape : *list) {
        if (!world.IsValid(shape)) continue;
        DrawShape(draw, world.GetShapeGeometry(shape), world.GetTransform(world.GetBody(shape)), kBombColor);
      }
    }
  }
  if (t.broadphase) DrawBroadphase(draw, visible, metresPerPixel);
  if (IsGrabbing()) draw.DrawPoint(mouseTarget_, 6.0f, {120, 255, 120, 255});
  if (aiming_) {
    draw.DrawSegment(aimStart_, aimEnd_, {255, 120, 80, 255});
    draw.DrawCircle(aimStart_, kBombRadius, kBombColor);
  }
}

// The sweep-and-prune picture: every proxy's interval on the sweep axis, stacked in rows along the
// bottom (x axis) or left (y axis) edge of the screen so that overlapping intervals sit in different
// rows (greedy interval colouring: the number of rows is the deepest overlap, SAP's cost driver),
// plus the broadphase's own drawing of fat boxes, band edges and pairs.
void SceneView::DrawBroadphase(DebugDraw& draw, const AABB& visible, float metresPerPixel) const {
  const BroadPhase& broadphase = GetWorld().GetBroadPhase();
  broadphase.Draw(draw, {.fatAABBs = true, .bands = true, .pairs = true});
  std::vector<ProxyInfo> proxies;
  broadphase.CollectProxies(proxies);
  std::sort(proxies.begin(), proxies.end(),
            [](const ProxyInfo& a, const ProxyInfo& b) { return a.sweepLower < b.sweepLower; });
  const int axis = broadphase.Layout().sweepAxis;
  constexpr int kMaxRows = 48;        // rows drawn; deeper overlaps share the last row
  constexpr float kRowPixels = 4.0f;  // spacing of the rows on screen
  std::array<float, kMaxRows> rowEnd;
  rowEnd.fill(-std::numeric_limits<float>::max());
  for (const ProxyInfo& p : proxies) {
    int row = 0;
    while (row < kMaxRows - 1 && rowEnd[static_cast<size_t>(row)] >= p.sweepLower) ++row;
    rowEnd[static_cast<size_t>(row)] = std::max(rowEnd[static_cast<size_t>(row)], p.sweepUpper);
    const float offset = (6.0f + kRowPixels * static_cast<float>(row)) * metresPerPixel;
    const Color color = p.type == ProxyType::Static ? colors::kStatic
                        : p.awake                   ? colors::kAABB
                                                    : colors::kSleeping;
    Vec2 a, b;
    if (axis == 0) {
      a = {p.sweepLower, visible.lower.y + offset};
      b = {p.sweepUpper, visible.lower.y + offset};
    } else {
      a = {visible.lower.x + offset, p.sweepLower};
      b = {visible.lower.x + offset, p.sweepUpper};
    }
    draw.DrawSegment(a, b, color);
  }
}

}  // namespace mk::sandbox
