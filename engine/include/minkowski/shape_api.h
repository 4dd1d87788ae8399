// SPDX-License-Identifier: MIT
// Minkowski — a shape's geometry changed in place, and read back by type, as free functions on a World
// (Box2D v3's b2Shape_SetCircle(id, &circle) is SetCircle(world, id, circle)), as the runtime joint
// API is (joint_api.h): World's class stays the core; and standalone chain segments
// (CreateChainSegmentShape, SetChainSegment). Implemented in world/modify_geometry.cpp.
//
// A setter replaces the shape's geometry (body-local, metres), which may change its type (a circle
// shape becomes a polygon), as in v3. The geometry passes CreateShape's checks (finite, within
// kMaxWorldLength, what its Make* constructor or ValidatePolygon requires; its mass, and a dynamic
// body's with it, finite and within kMaxBodyMass and kMaxBodyInertia). Then:
//   - the shape's contacts are destroyed: touching ones raise their end events with the next Step
//     and wake both bodies (a pair that still touches reports an end and a begin event, as in v3);
//   - its broadphase proxy is made again at the new box, so the next Step makes the contacts the
//     shape now has (begin events for those touching); queries see the new extent at once;
//   - the body is woken, and when it is static, so are the sleeping bodies within the new box;
//   - unlike v3, the body's mass is recomputed from its shapes at once (v3 waits for
//     b2Body_ApplyMassFromShapes), as CreateShape and SetDensity do here; a SetMassData override is
//     dropped.
// The shape keeps its id, material, filter, density, flags and user data. Refused (MK_ASSERT, nothing
// changes): a stale id, invalid geometry, a chain's own segment (its geometry belongs to its chain; a
// standalone chain segment is any shape's equal), a locked world (inside Step or a callback). Each call is
// recorded in a replay.
#pragma once

#include "minkowski/export.h"
#include "minkowski/geometry.h"
#include "minkowski/world_types.h"

namespace MK_API mk {

class World;

/// Replaces the shape's geometry with the given one, of that type (the checks and effects: above).
///@{
void SetCircle(World& world, ShapeId shape, const Circle& circle);
void SetCapsule(World& world, ShapeId shape, const Capsule& capsule);
void SetSegment(World& world, ShapeId shape, const Segment& segment);
void SetPolygon(World& world, ShapeId shape, const Polygon& polygon);
///@}
/// Makes the shape a standalone chain segment (below), or moves one: as the setters above, with
/// CreateChainSegmentShape's geometry checks. Any shape but a chain's own segment may become one (a
/// circle shape turns into a one-sided segment, its mass becoming 0); SetCircle and its siblings turn
/// a standalone chain segment into another type. Box2D v3's b2Shape_SetChainSegment.
void SetChainSegment(World& world, ShapeId shape, const ChainSegment& segment);

/// Creates a standalone chain segment on the body: one shape of type ChainSegment that belongs to no
/// chain (World::GetChain returns null), as Box2D v3's b2CreateChainSegmentShape. It collides exactly
/// as a chain's segment with the same points: one-sided (front side the right of p1 -> p2), smooth
/// across its ends through the ghost vertices, which the caller chooses (a neighbour's far point, or a
/// point behind the end for a corner, as an open chain's ends have: ChainDef); it never collides with
/// segments or chain segments; ray casts from behind and movers behind it do not see it. Geometry
/// body-local (metres): p1, p2 finite, within kMaxWorldLength and at least kMinChainSegmentLength apart;
/// each ghost finite, within 4 kMaxWorldLength and not equal to its end point (the checks CreateChain's
/// segments pass). It has no mass whatever def.density (which must still be valid); the def's
/// material, filter, events, user data and isSensor apply as to any shape (a sensor chain segment
/// reports the shapes that overlap it from its front side: sensors use the one-sided manifold).
/// World::DestroyShape destroys it alone; destroying the body destroys it. Refused (MK_ASSERT, null
/// id, nothing created): a stale body, bad geometry or def, a locked world. Recorded in a replay.
ShapeId CreateChainSegmentShape(World& world, BodyId body, const ShapeDef& def, const ChainSegment& segment);

/// The shape's geometry, body-local (metres). A stale id or a shape of another type
/// (World::GetShapeType): MK_ASSERT and the type's default value (Circle{}, Capsule{}, Segment{}, a
/// Polygon of count 0, ChainSegment{}). GetPolygon's centroid is recomputed from the vertices.
/// World::GetShapeGeometry reads any type.
///@{
Circle GetCircle(const World& world, ShapeId shape);
Capsule GetCapsule(const World& world, ShapeId shape);
Segment GetSegment(const World& world, ShapeId shape);
Polygon GetPolygon(const World& world, ShapeId shape);
ChainSegment GetChainSegment(const World& world, ShapeId shape);
///@}

}  // namespace mk
