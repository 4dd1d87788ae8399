// Body mass from shapes, shape AABBs, shape destruction.
#include "minkowski/assert.h"
#include "world/world_internal.h"

#include <algorithm>

namespace mk {

AABB ComputeShapeAABB(const Shape& shape, const Transform& xf) {
  switch (shape.type) {
    case ShapeType::Circle: return ComputeAABB(shape.circle, xf);
    case ShapeType::Capsule: return ComputeAABB(shape.capsule, xf);
    case ShapeType::Segment: return ComputeAABB(shape.segment, xf);
    default: return ComputeAABB(shape.polygon, xf);
  }
}

MassData ShapeMass(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::Circle: return ComputeMass(shape.circle, shape.density).value;
    case ShapeType::Capsule: return ComputeMass(shape.capsule, shape.density).value;
    case ShapeType::Segment: return ComputeMass(shape.segment, shape.density).value;
    default: return ComputeMass(shape.polygon, shape.density).value;
  }
}

void BodyMassSum::Add(const MassData& data) {
  if (data.mass <= 0.0f) return;
  mass += data.mass;
  moment += data.mass * data.center;
  inertiaAtOrigin += data.rotationalInertia + data.mass * LengthSquared(data.center);
}

BodyMassSum SumShapeMasses(const WorldState& w, int bodySlot, int skipShape) {
  BodyMassSum sum;
  for (int s = w.bodies[bodySlot].headShape; s != kNull; s = w.shapes[s].nextShape) {
    if (s != skipShape) sum.Add(ShapeMass(w.shapes[s]));
  }
  return sum;
}

// Mass, centre and inertia about it from the sum about the origin (parallel axis theorem).
static void ResolveMass(const BodyMassSum& sum, float& mass, Vec2& localCenter, float& inertia) {
  mass = sum.mass;
  localCenter = sum.mass > 0.0f ? sum.moment * (1.0f / sum.mass) : Vec2{0.0f, 0.0f};
  inertia = sum.inertiaAtOrigin - sum.mass * LengthSquared(localCenter);
}

// Mass and inertia within the world's bounds (world_types.h) with finite inverses when not 0.
static bool MassInBounds(float mass, float inertia) {
  return mass <= kMaxBodyMass && inertia <= kMaxBodyInertia && (mass == 0.0f || IsFinite(1.0f / mass)) &&
         (inertia <= 0.0f || IsFinite(1.0f / inertia));
}

bool MassIsUsable(const MassData& data) {
  return IsFinite(data.mass) && IsFinite(data.center) && IsFinite(data.rotationalInertia) &&
         MassInBounds(data.mass, data.rotationalInertia);
}

bool BodyMassSum::Finite() const {
  float m, i;
  Vec2 c;
  ResolveMass(*this, m, c, i);
  return IsFinite(m) && IsFinite(c) && IsFinite(i) && MassInBounds(m, i);
}

// Sums the shapes' mass properties about the body origin, then moves the inertia to the centre of
// mass. Only dynamic bodies have mass; a dynamic body without mass gets 1 kg so it still falls
// (Box2D's convention), with no rotational inertia.
void UpdateBodyMass(WorldState& w, int bodySlot) {
  Body& body = w.bodies[bodySlot];
  body.mass = body.invMass = body.inertia = body.invInertia = 0.0f;
  body.localCenter = {0.0f, 0.0f};
  if (body.type != BodyType::Dynamic) {
    body.center = body.xf.p;
    return;
  }
  float mass, inertia;
  ResolveMass(SumShapeMasses(w, bodySlot, kNull), mass, body.localCenter, inertia);
  if (mass > 0.0f) {
    body.mass = mass;
    body.invMass = 1.0f / mass;
    if (inertia > 0.0f && !body.fixedRotation) {
      body.inertia = inertia;
      body.invInertia = 1.0f / inertia;
    }
  } else {
    body.mass = 1.0f;
    body.invMass = 1.0f;
  }
  // Keep the body origin fixed; the centre of mass moves with the new local centre.
  body.center = TransformPoint(body.xf, body.localCenter);
  body.maxExtent = 0.0f;
  for (int s = body.headShape; s != kNull; s = w.shapes[s].nextShape) {
    AABB box = ComputeShapeAABB(w.shapes[s], Transform{});
    Vec2 far = Max(box.upper - body.localCenter, body.localCenter - box.lower);
    body.maxExtent = std::max(body.maxExtent, Length(far));
  }
}

void DestroyShapeInternal(WorldState& w, int shapeSlot, bool updateMass) {
  Shape& shape = w.shapes[shapeSlot];
  DestroyContactsOfShape(w, shapeSlot);
  RemoveShapeFromBroadphase(w, shapeSlot);
  Body& body = w.bodies[shape.body];
  // Unlink from the body's singly linked shape list.
  if (body.headShape == shapeSlot) {
    body.headShape = shape.nextShape;
  } else {
    int s = body.headShape;
    while (s != kNull && w.shapes[s].nextShape != shapeSlot) s = w.shapes[s].nextShape;
    MK_ASSERT(s != kNull);
    if (s != kNull) w.shapes[s].nextShape = shape.nextShape;
  }
  int bodySlot = shape.body;
  shape.body = kNull;
  w.shapeIds.Free(shapeSlot);
  if (updateMass) UpdateBodyMass(w, bodySlot);
}

}  // namespace mk
