// SPDX-License-Identifier: MIT
// The World's debugging side: drawing through DebugDraw (shapes, AABBs, contacts, joints, islands)
// and the queries tools use to find shapes (AABB query, point test). Nothing here runs in Step.
#include "core/union_find.h"
#include "minkowski/assert.h"
#include "minkowski/debug_draw.h"
#include "minkowski/distance.h"
#include "world/world_internal.h"

#include <iterator>
#include <vector>

namespace mk {

namespace {

// Island colours: distinct hues of similar brightness, so neighbouring islands stand apart.
constexpr Color kIslandPalette[] = {
    {230, 180, 110, 255}, {110, 200, 230, 255}, {230, 120, 160, 255}, {150, 220, 120, 255},
    {190, 150, 240, 255}, {240, 220, 100, 255}, {100, 220, 190, 255}, {240, 140, 100, 255},
};
constexpr int kIslandPaletteSize = static_cast<int>(sizeof(kIslandPalette) / sizeof(kIslandPalette[0]));

constexpr Color kJointColors[] = {
    {120, 220, 220, 255},  // revolute
    {220, 160, 240, 255},  // prismatic
    {240, 240, 120, 255},  // distance
    {240, 150, 120, 255},  // weld
    {150, 240, 150, 255},  // wheel
    {120, 255, 120, 255},  // mouse
    {255, 190, 80, 255},   // motor
    {170, 170, 170, 255},  // filter
};
// One colour per JointType, in its order: a joint type added without a colour fails here, not as a
// read past the table when a world with that joint is drawn.
static_assert(std::size(kJointColors) == static_cast<size_t>(JointType::Filter) + 1);

constexpr float kAxisDrawLength = 0.5f;   // m: prismatic and wheel axes drawn this far each way
constexpr float kAnchorPointSize = 5.0f;  // pixels

bool Links(const Body& body) { return body.type != BodyType::Static; }

// Island root per body slot (kNull for static bodies), from touching contacts and joints. Computed
// here rather than read from the solver because the solver keeps islands only for the step.
std::vector<int> IslandRoots(const WorldState& world) {
  const int n = world.bodyIds.Capacity();
  std::vector<int> parent(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) parent[static_cast<size_t>(i)] = i;
  for (int c = 0; c < world.contactIds.Capacity(); ++c) {
    if (!world.contactIds.IsLive(c) || !world.contacts[c].touching) continue;
    const Contact& contact = world.contacts[c];
    int a = world.shapes[contact.shapeA].body, b = world.shapes[contact.shapeB].body;
    if (world.shapes[contact.shapeA].isSensor || world.shapes[contact.shapeB].isSensor) continue;
    if (Links(world.bodies[a]) && Links(world.bodies[b])) Union(parent, a, b);
  }
  for (int j = 0; j < world.jointIds.Capacity(); ++j) {
    if (!world.jointIds.IsLive(j)) continue;
    int a = world.joints[j].edges[0].body, b = world.joints[j].edges[1].body;
    if (a != kNull && b != kNull && Links(world.bodies[a]) && Links(world.bodies[b])) Union(parent, a, b);
  }
  std::vector<int> roots(static_cast<size_t>(n), kNull);
  for (int i = 0; i < n; ++i) {
    if (world.bodyIds.IsLive(i) && Links(world.bodies[i]))
      roots[static_cast<size_t>(i)] = FindRoot(parent, i);
  }
  return roots;
}

Color BodyColor(const Body& body, int islandRoot, const DrawOptions& options) {
  if (body.type == BodyType::Static) return colors::kStatic;
  if (!body.awake && options.sleepColors) return colors::kSleeping;
  if (options.islandColors && islandRoot != kNull) {
    // Knuth's multiplicative hash spreads consecutive roots over the palette.
    auto mixed = static_cast<unsigned>(islandRoot) * 2654435761u;
    return kIslandPalette[(mixed >> 16) % kIslandPaletteSize];
  }
  return colors::kDynamic;
}

void DrawShapes(const WorldState& world, DebugDraw& draw, const DrawOptions& options) {
  std::vector<int> roots;
  if (options.islandColors) roots = IslandRoots(world);
  for (int slot = 0; slot < world.shapeIds.Capacity(); ++slot) {
    if (!world.shapeIds.IsLive(slot)) continue;
    const Shape& shape = world.shapes[slot];
    const Body& body = world.bodies[shape.body];
    if (options.shapes) {
      int root = roots.empty() ? kNull : roots[static_cast<size_t>(shape.body)];
      Color color = BodyColor(body, root, options);
      DrawShape(draw, world.geometries[slot], RelativeTo(body.xf, ToInternal(world, options.origin)), color);
    }
    if (options.aabbs) {
      const Vec2 shift = Pos{} - ToInternal(world, options.origin);  // the internal frame to the drawing's
      const Vec2 lower = shape.aabb.lower + shift, upper = shape.aabb.upper + shift;
      Vec2 box[4] = {lower, {upper.x, lower.y}, upper, {lower.x, upper.y}};
      draw.DrawPolygon(box, 4, colors::kAABB);
    }
  }
}

void DrawContacts(const WorldState& world, DebugDraw& draw, const DrawOptions& options) {
  for (int slot = 0; slot < world.contactIds.Capacity(); ++slot) {
    if (!world.contactIds.IsLive(slot)) continue;
    const Contact& contact = world.contacts[slot];
    const Manifold& m = contact.manifold;
    const WorldTransform& xfA = world.bodies[world.shapes[contact.shapeA].body].xf;
    for (int i = 0; i < m.pointCount; ++i) {
      const ManifoldPoint& p = m.points[i];
      const Vec2 point = ContactPointInWorld(xfA, p.point) - ToInternal(world, options.origin);
      if (options.contactPoints) draw.DrawPoint(point, 5.0f, colors::kContact);
      if (options.contactNormals) draw.DrawSegment(point, point + 0.3f * m.normal, colors::kNormal);
      if (options.contactImpulses) {
        draw.DrawSegment(point, point + 0.1f * p.normalImpulse * m.normal, colors::kWhite);
      }
    }
  }
}

// A joint as lines: body A's origin -> anchor A -> anchor B -> body B's origin, with the axis of
// prismatic and wheel joints and the target of a mouse joint.
void DrawJoint(const WorldState& world, const Joint& joint, DebugDraw& draw, Pos origin) {
  const Color color = kJointColors[static_cast<int>(joint.type)];
  const int a = joint.edges[0].body, b = joint.edges[1].body;
  const Transform xfB = RelativeTo(world.bodies[b].xf, origin);
  const Vec2 anchorB = TransformPoint(xfB, joint.localAnchorB);
  if (joint.type == JointType::Mouse) {
    const Vec2 target = joint.target - origin;
    draw.DrawSegment(target, anchorB, color);
    draw.DrawPoint(target, kAnchorPointSize, color);
    draw.DrawPoint(anchorB, kAnchorPointSize, color);
    return;
  }
  const Transform xfA = RelativeTo(world.bodies[a].xf, origin);
  const Vec2 anchorA = TransformPoint(xfA, joint.localAnchorA);
  draw.DrawSegment(xfA.p, anchorA, color);
  draw.DrawSegment(anchorA, anchorB, color);
  draw.DrawSegment(anchorB, xfB.p, color);
  if (joint.type == JointType::Prismatic || joint.type == JointType::Wheel) {
    Vec2 axis = Rotate(xfA.q, joint.localAxisA);
    draw.DrawSegment(anchorA - kAxisDrawLength * axis, anchorA + kAxisDrawLength * axis, color);
  }
  draw.DrawPoint(anchorA, kAnchorPointSize, color);
  draw.DrawPoint(anchorB, kAnchorPointSize, color);
}

// Continuous records (DrawOptions::continuous): translucent so the body's own drawing shows through.
constexpr Color kSweepStartColor{120, 170, 255, 110};
constexpr Color kSweepImpactColor{255, 90, 200, 200};
constexpr Color kSweepTargetColor{255, 230, 90, 140};
constexpr Color kSweepPathColor{255, 255, 255, 255};
constexpr Color kSweepBeyondColor{150, 150, 150, 255};

void DrawBodyShapes(const WorldState& world, int bodySlot, const Transform& xf, Color color,
                    DebugDraw& draw) {
  for (int s = world.bodies[bodySlot].headShape; s != kNull; s = world.shapes[s].nextShape)
    DrawShape(draw, world.geometries[s], xf, color);
}

// Start pose, path of the centre of mass (solid up to the time of impact, dimmed beyond), the pose at
// the time of impact and the shape hit there. Bodies or shapes destroyed since the Step are skipped.
void DrawContinuousRecords(const WorldState& world, DebugDraw& draw, Pos origin) {
  for (const ContinuousRecord& record : world.continuousRecords) {
    const int body = world.BodySlot(record.body);
    if (body == kNull) continue;
    const Vec2 localCenter = world.bodies[body].localCenter;
    const Transform startXf = RelativeTo(record.start, origin), impactXf = RelativeTo(record.impact, origin);
    const Vec2 start = TransformPoint(startXf, localCenter);
    const Vec2 impact = TransformPoint(impactXf, localCenter);
    const Vec2 end = TransformPoint(RelativeTo(record.end, origin), localCenter);
    if (const int target = world.ShapeSlot(record.target); target != kNull)
      DrawShape(draw, world.geometries[target], RelativeTo(record.targetImpact, origin), kSweepTargetColor);
    DrawBodyShapes(world, body, startXf, kSweepStartColor, draw);
    DrawBodyShapes(world, body, impactXf, kSweepImpactColor, draw);
    draw.DrawSegment(start, impact, kSweepPathColor);
    draw.DrawSegment(impact, end, kSweepBeyondColor);
    draw.DrawPoint(impact, kAnchorPointSize, kSweepImpactColor);
  }
}

}  // namespace

void World::Draw(DebugDraw& draw, const DrawOptions& options) const {
  const WorldLock lock(*state_, /*walk=*/false);  // the DebugDraw calls are game code
  const WorldState& world = *state_;
  if (options.shapes || options.aabbs) DrawShapes(world, draw, options);
  if (options.joints) {
    for (int slot = 0; slot < world.jointIds.Capacity(); ++slot) {
      if (world.jointIds.IsLive(slot))
        DrawJoint(world, world.joints[slot], draw, ToInternal(world, options.origin));
    }
  }
  if (options.centersOfMass) {
    for (int slot = 0; slot < world.bodyIds.Capacity(); ++slot) {
      if (world.bodyIds.IsLive(slot))
        draw.DrawTransform(
            {world.bodies[slot].center - ToInternal(world, options.origin), world.bodies[slot].xf.q}, 0.25f);
    }
  }
  if (options.contactPoints || options.contactNormals || options.contactImpulses)
    DrawContacts(world, draw, options);
  if (options.continuous) DrawContinuousRecords(world, draw, options.origin);
}

void World::QueryAABBImpl(Pos origin, const AABB& box, bool (*visit)(ShapeId, void*), void* context) const {
  const bool valid = mk::IsValid(box) && ValidPosition(origin) && visit != nullptr;
  MK_ASSERT(valid);
  if (!valid || RefuseIfWalking(*state_)) return;
  const WorldLock lock(*state_, /*walk=*/true);  // visit runs inside the broadphase walk
  struct Query {
    const WorldState* world;
    AABB box;
    bool (*visit)(ShapeId, void*);
    void* context;
  } query{state_.get(), WorldBoxToBroadphase(origin, box, state_->origin), visit, context};
  // The broadphase answers with fat boxes; the tight box filters out shapes only the margin reaches.
  auto onProxy = [](ProxyId, std::uint64_t userData, void* ctx) {
    const Query& q = *static_cast<const Query*>(ctx);
    const int slot = static_cast<int>(userData);
    if (!Overlaps(q.world->shapes[slot].aabb, q.box)) return true;
    return q.visit(q.world->MakeShapeId(slot), q.context);
  };
  state_->broadphase.QueryAABB(query.box, onProxy, &query);
}

bool World::TestPoint(ShapeId shapeId, Pos point) const {
  const WorldState& world = *state_;
  const bool valid = world.IsShape(shapeId) && IsFinite(point);
  MK_ASSERT(valid);
  if (!valid) return false;
  const int slot = world.ShapeSlot(shapeId);
  const Pos inside = ToInternal(world, point);
  const Pos frame = FrameOrigin(inside);
  const Vec2 local = inside - frame;
  DistanceInput input;
  input.proxyA = MakeProxy(world.geometries[slot]);
  input.transformA = RelativeTo(world.bodies[world.shapes[slot].body].xf, frame);
  input.proxyB = ShapeProxy{&local, 1, 0.0f};
  input.transformB = Transform{};
  return ShapesOverlap(input);
}

const BroadPhase& World::GetBroadPhase() const { return state_->broadphase; }

}  // namespace mk
