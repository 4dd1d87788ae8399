// World::Step: one function call per pipeline stage (DESIGN.md section 1), each timed into Profile.
#include "minkowski/assert.h"
#include "minkowski/debug_draw.h"
#include "world/world_internal.h"

#include <chrono>

namespace mk {

namespace {

class StageTimer {
 public:
  StageTimer() : start_(std::chrono::steady_clock::now()) {}
  float Ms() const {
    return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

void CountObjects(WorldState& w) {
  Counters& c = w.counters;
  c.bodies = w.bodyIds.LiveCount();
  c.shapes = w.shapeIds.LiveCount();
  c.contacts = w.contactIds.LiveCount();
  c.joints = w.jointIds.LiveCount();
  c.awakeBodies = static_cast<int>(w.solver.bodies.size());
}

}  // namespace

bool World::Step(float timeStep) {
  MK_ASSERT(IsFinite(timeStep) && timeStep > 0.0f);
  if (!IsFinite(timeStep) || !(timeStep > 0.0f)) return false;
  WorldState& w = *state_;
  StageTimer total;
  w.beginEvents.clear();
  w.endEvents.clear();
  w.hitEvents.clear();

  StageTimer broadphase;
  UpdatePairs(w);  // pairs begun / ended since the last step -> contacts created / destroyed
  w.profile.broadphase = broadphase.Ms();

  StageTimer narrowphase;
  UpdateContacts(w);  // GJK / EPA / clipping -> manifolds, begin / end events
  w.profile.narrowphase = narrowphase.Ms();

  StageTimer solver;
  SolveStep(w, timeStep);  // sub-stepped soft contacts; moves bodies and their proxies
  w.profile.solver = solver.Ms();

  StageTimer islands;
  w.counters.islands = UpdateSleep(w, timeStep);  // union-find islands; quiet ones sleep
  w.profile.islands = islands.Ms();

  w.profile.events = 0.0f;  // events are recorded in place by the stages above
  CountObjects(w);
  w.profile.step = total.Ms();
  return true;
}

void World::Draw(DebugDraw& draw, const DrawOptions& options) const {
  const WorldState& w = *state_;
  for (int slot = 0; slot < w.shapeIds.Capacity(); ++slot) {
    if (!w.shapeIds.IsLive(slot)) continue;
    const Shape& shape = w.shapes[slot];
    const Body& body = w.bodies[shape.body];
    Color color = body.type == BodyType::Static ? colors::kStatic
                  : (!body.awake && options.sleepColors) ? colors::kSleeping
                                                         : colors::kDynamic;
    if (options.shapes) {
      switch (shape.type) {
        case ShapeType::Circle: DrawShape(draw, shape.circle, body.xf, color); break;
        case ShapeType::Capsule: DrawShape(draw, shape.capsule, body.xf, color); break;
        case ShapeType::Segment: DrawShape(draw, shape.segment, body.xf, color); break;
        default: DrawShape(draw, shape.polygon, body.xf, color); break;
      }
    }
    if (options.aabbs) {
      Vec2 box[4] = {shape.aabb.lower, {shape.aabb.upper.x, shape.aabb.lower.y}, shape.aabb.upper,
                     {shape.aabb.lower.x, shape.aabb.upper.y}};
      draw.DrawPolygon(box, 4, colors::kAABB);
    }
  }
  if (options.centersOfMass) {
    for (int slot = 0; slot < w.bodyIds.Capacity(); ++slot) {
      if (w.bodyIds.IsLive(slot)) draw.DrawTransform({w.bodies[slot].center, w.bodies[slot].xf.q}, 0.25f);
    }
  }
  if (options.contactPoints || options.contactNormals || options.contactImpulses) {
    for (int slot = 0; slot < w.contactIds.Capacity(); ++slot) {
      if (!w.contactIds.IsLive(slot)) continue;
      const Manifold& m = w.contacts[slot].manifold;
      for (int i = 0; i < m.pointCount; ++i) {
        const ManifoldPoint& p = m.points[i];
        if (options.contactPoints) draw.DrawPoint(p.point, 5.0f, colors::kContact);
        if (options.contactNormals) draw.DrawSegment(p.point, p.point + 0.3f * m.normal, colors::kNormal);
        if (options.contactImpulses) {
          draw.DrawSegment(p.point, p.point + 0.1f * p.normalImpulse * m.normal, colors::kWhite);
        }
      }
    }
  }
}

}  // namespace mk
