// SPDX-License-Identifier: MIT
// The quality figures of a scene run, from the public World API: contacts through
// ForEachTouchingContact, shapes through a world-sized QueryAABB, bodies through their getters.
#include "scene_figures.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <vector>

namespace mk::scenes {

namespace {

/// A box holding every shape of a scene about `origin` (within kMaxWorldLength of it).
AABB Everywhere(Pos origin) {
  const Vec2 o = ToVec2(origin);
  return {{o.x - kMaxWorldLength, o.y - kMaxWorldLength}, {o.x + kMaxWorldLength, o.y + kMaxWorldLength}};
}

}  // namespace

// The shape's box about the scene's origin: its geometry at its body's transform taken relative to
// it, so a scene moved far away (SceneRun's offset) measures as it does at the origin (the world's own
// boxes are floats there, rounded to the float spacing at that distance).
AABB FiguresProbe::ShapeBox(const World& world, ShapeId shape) const {
  if (state_->origin == Pos{}) return world.GetAABB(shape);
  return ComputeAABB(world.GetShapeGeometry(shape),
                     RelativeTo(world.GetTransform(world.GetBody(shape)), state_->origin));
}

// A body's centre of mass about the scene's origin (m).
Vec2 FiguresProbe::Center(const World& world, BodyId body) const {
  return world.GetWorldCenterOfMass(body) - state_->origin;
}

FiguresProbe::FiguresProbe(const SceneRun& run) : state_(&run.State()) {
  const World& world = run.GetWorld();
  const std::vector<BodyId>& bodies = state_->bodies;
  std::unordered_map<std::uint32_t, int> index;  // body slot + 1 -> index in bodies
  for (std::size_t i = 0; i < bodies.size(); ++i) index[bodies[i].index1] = static_cast<int>(i);
  shapes_.resize(bodies.size());
  world.QueryAABB(Everywhere(state_->origin), [&](ShapeId shape) {
    const BodyId body = world.GetBody(shape);
    if (world.GetBodyType(body) == BodyType::Static) {
      const float bottom = ShapeBox(world, shape).lower.y;
      lowestStatic_ = hasStatic_ ? std::min(lowestStatic_, bottom) : bottom;
      hasStatic_ = true;
    }
    auto it = index.find(body.index1);
    if (it != index.end() && bodies[static_cast<std::size_t>(it->second)] == body)
      shapes_[static_cast<std::size_t>(it->second)].push_back(shape);
    return true;
  });
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    start_.push_back(Center(world, bodies[i]));
    const float top = BodyTop(world, static_cast<int>(i));
    if (highest_ < 0 || top > highestTop_) {
      highest_ = static_cast<int>(i);
      highestTop_ = top;
    }
  }
  energy0_ = Energy(world);
  figures_.jointError = JointError(world);
}

float FiguresProbe::BodyTop(const World& world, int body) const {
  float top = Center(world, state_->bodies[static_cast<std::size_t>(body)]).y;
  for (ShapeId shape : shapes_[static_cast<std::size_t>(body)])
    top = std::max(top, ShapeBox(world, shape).upper.y);
  return top;
}

float FiguresProbe::Energy(const World& world) const {
  const Vec2 g = world.GetGravity();
  double energy = 0.0;  // summed in double: hundreds of bodies' terms of mixed sign
  for (BodyId body : state_->bodies) {
    if (!world.IsValid(body)) continue;
    const double m = world.GetMass(body);
    const Vec2 v = world.GetLinearVelocity(body);
    const double w = world.GetAngularVelocity(body);
    const Vec2 c = Center(world, body) - Vec2{0.0f, state_->floorY};
    energy += 0.5 * m * static_cast<double>(Dot(v, v)) + 0.5 * world.GetRotationalInertia(body) * w * w -
              m * static_cast<double>(Dot(g, c));
  }
  return static_cast<float>(energy);
}

float FiguresProbe::Penetration(const World& world) const {
  float deepest = 0.0f;
  world.ForEachTouchingContact([&](const ContactView& view) {
    for (int i = 0; i < view.manifold.pointCount; ++i)
      deepest = std::max(deepest, -view.manifold.points[i].separation);
  });
  return deepest;
}

float FiguresProbe::JointError(const World& world) const {
  float error = 0.0f;
  for (const SceneState::PointJoint& joint : state_->pointJoints) {
    if (!world.IsValid(joint.bodyA) || !world.IsValid(joint.bodyB)) continue;
    const Pos a = TransformPoint(world.GetTransform(joint.bodyA), joint.localAnchorA);
    const Pos b = TransformPoint(world.GetTransform(joint.bodyB), joint.localAnchorB);
    error = std::max(error, Length(b - a));
  }
  return error;
}

void FiguresProbe::AfterStep(const SceneRun& run, bool late) {
  const World& world = run.GetWorld();
  ++figures_.steps;
  const float penetration = Penetration(world);
  figures_.maxPenetration = std::max(figures_.maxPenetration, penetration);
  if (late) {
    lateSum_ += penetration;
    ++lateSteps_;
  }
  figures_.jointError = std::max(figures_.jointError, JointError(world));
  if (figures_.sleepStep < 0 && !state_->bodies.empty()) {
    const bool asleep = std::none_of(state_->bodies.begin(), state_->bodies.end(),
                                     [&](BodyId b) { return world.IsValid(b) && world.IsAwake(b); });
    if (asleep) figures_.sleepStep = run.StepCount();
  }
}

SceneFigures FiguresProbe::Finish(const SceneRun& run) const {
  const World& world = run.GetWorld();
  SceneFigures f = figures_;
  f.finalPenetration = Penetration(world);
  f.lateMeanPenetration = lateSteps_ > 0 ? static_cast<float>(lateSum_ / lateSteps_) : f.finalPenetration;
  const AABB& bounds = state_->bounds;
  const bool hasBounds = bounds.lower.x <= bounds.upper.x && bounds.lower.y <= bounds.upper.y;
  for (std::size_t i = 0; i < state_->bodies.size(); ++i) {
    const BodyId body = state_->bodies[i];
    if (!world.IsValid(body)) continue;
    const Vec2 c = Center(world, body);
    f.sideDrift = std::max(f.sideDrift, std::abs(c.x - start_[i].x));
    f.finalMaxSpeed = std::max(f.finalMaxSpeed, Length(world.GetLinearVelocity(body)));
    const bool below = hasStatic_ && c.y < lowestStatic_;
    const bool outside = hasBounds && (c.x < bounds.lower.x || c.x > bounds.upper.x || c.y < bounds.lower.y ||
                                       c.y > bounds.upper.y);
    f.escaped += below || outside ? 1 : 0;
  }
  if (highest_ >= 0) f.topDrift = highestTop_ - BodyTop(world, highest_);
  f.energyKept = energy0_ > 0.0f ? Energy(world) / energy0_ : -1.0f;
  return f;
}

SceneFigures MeasureFigures(SceneRun& run, int steps) {
  FiguresProbe probe(run);
  const int firstLate = steps - std::max(1, steps / 4);
  for (int i = 0; i < steps; ++i) {
    run.Step();
    probe.AfterStep(run, i >= firstLate);
  }
  return probe.Finish(run);
}

}  // namespace mk::scenes
