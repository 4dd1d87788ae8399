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

static MassData ShapeMass(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::Circle: return ComputeMass(shape.circle, shape.density).value;
    case ShapeType::Capsule: return ComputeMass(shape.capsule, shape.density).value;
    case ShapeType::Segment: return ComputeMass(shape.segment, shape.density).value;
    default: return ComputeMass(shape.polygon, shape.density).value;
  }
}

// Sums the shapes' mass properties about the body origin, then moves the inertia to the centre of
// mass (parallel axis theorem). Only dynamic bodies have mass; a dynamic body without mass gets
// 1 kg so it still falls (Box2D's convention), with no rotational inertia.
void UpdateBodyMass(WorldState& w, int bodySlot) {
  Body& body = w.bodies[bodySlot];
  body.mass = body.invMass = body.inertia = body.invInertia = 0.0f;
  body.localCenter = {0.0f, 0.0f};
  if (body.type != BodyType::Dynamic) {
    body.center = body.xf.p;
    return;
  }
  float mass = 0.0f, inertiaAtOrigin = 0.0f;
  Vec2 moment{0.0f, 0.0f};
  for (int s = body.headShape; s != kNull; s = w.shapes[s].nextShape) {
    MassData data = ShapeMass(w.shapes[s]);
    if (data.mass <= 0.0f) continue;
    mass += data.mass;
    moment += data.mass * data.center;
    inertiaAtOrigin += data.rotationalInertia + data.mass * LengthSquared(data.center);
  }
  if (mass > 0.0f) {
    body.mass = mass;
    body.invMass = 1.0f / mass;
    body.localCenter = moment * body.invMass;
    float inertia = inertiaAtOrigin - mass * LengthSquared(body.localCenter);
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
