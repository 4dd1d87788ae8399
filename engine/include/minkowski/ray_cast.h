// SPDX-License-Identifier: MIT
// Minkowski — casts against one shape: a ray against any shape (exact for every type), and one convex
// core translated against another (conservative advancement on GJK distance). Pure functions on
// plain values; nothing here allocates. The World's queries (world.h) run these on the shapes the
// broadphase finds. The input and output types are in cast_types.h, with the rule for which shape
// view (ShapeProxy or ShapeGeometry) each query takes.
#pragma once

#include "minkowski/cast_types.h"
#include "minkowski/export.h"
#include "minkowski/geometry.h"
#include "minkowski/math.h"

namespace MK_API mk {

/// Largest coordinate of a cast's origin, translation or transform a cast accepts (m, absolute value):
/// four times the world's bound (kMaxWorldLength, world_types.h), so a ray may cross the whole world
/// from anywhere in it, and every product a cast forms stays finite.
inline constexpr float kMaxCastLength = 4e5f;

/// Ray (origin + t * translation, t in [0, input.maxFraction]) against a shape placed by `xf`.
/// Exact for every type up to float rounding: circles by the closest approach of the ray to the
/// centre, sharp polygons by clipping the ray against every edge's half-plane (Cyrus and Beck;
/// Ericson, "Real-Time Collision Detection", 5.3.8), segments by a two-sided line intersection, and
/// rounded shapes (capsules, rounded polygons) as the union of the rectangles swept by the core's
/// edges and the discs at its points: the earliest entry into an edge pushed out by the radius or
/// into a disc. The hit is where the ray enters the solid shape from outside: a ray whose origin lies
/// inside the shape reports no hit (as Box2D's rays do), and a ray along a segment's line never hits
/// it. A chain segment is one-sided: only a ray whose origin is strictly in front of it (on the
/// side of its normal) hits it, from the front. A zero translation hits nothing (not an error). Non-finite
/// input, coordinates beyond kMaxCastLength, a negative maxFraction or an invalid geometry (type Count):
/// MK_ASSERT and no hit.
CastOutput RayCastShape(const ShapeGeometry& shape, const Transform& xf, const RayCastInput& input);

/// Conservative advancement stops when the surfaces are this close (m): the reported hit lies within
/// this distance of the true first contact, measured along the normal.
inline constexpr float kShapeCastTolerance = 1e-4f;

/// Conservative advancement gives up after this many GJK distance queries and reports no hit. A
/// straight approach to a flat face takes one step; curved and grazing approaches take more.
inline constexpr int kShapeCastMaxIterations = 40;

/// Translates core B (input.proxyB, placed by transformB at t = 0) by t * translationB, t in
/// [0, maxFraction], against core A (proxyA, placed by transformA, fixed), without rotation. The
/// output is the first t where the surfaces (cores plus radii) come within kShapeCastTolerance; its
/// point lies on A's surface and its normal is A's outward normal there (it points towards B). Shapes
/// that already overlap or touch at t = 0 hit at fraction 0 with the normal of their closest points,
/// or (0, 0) when their cores overlap; a cast that starts apart always has a unit normal. For large
/// shapes or far from the origin the stop is as close as float resolves: within kShapeCastTolerance
/// or about 16 float ulps of the pair's size and position, whichever is larger (GJK's touching band).
/// A point cast is a one-point proxy of radius 0 (MakeProxy(&point, 1, 0.0f)).
///
/// Conservative advancement (B. Mirtich, "Impulse-based dynamic simulation of rigid body systems",
/// section 3): the distance between two convex sets is a convex function of a translation, so the
/// distance at t, minus the rate it falls along the GJK normal, never overestimates how far B can
/// move; each step advances by that much and never passes the first contact. Invalid input (a null
/// or empty proxy, more than kMaxPolygonVertices points, a point or transform beyond kMaxCastLength
/// or not finite, a negative or non-finite radius or maxFraction): MK_ASSERT and no hit. Hitting
/// kShapeCastMaxIterations reports no hit.
CastOutput ShapeCast(const ShapeCastInput& input);

/// ShapeCast on two shapes of any type: their proxies (MakeProxy), then the call above. A chain
/// segment is cast two-sided, as the World's CastShape does (rays and movers honour its one side).
/// An invalid geometry (type Count) is refused like an invalid proxy.
CastOutput ShapeCast(const ShapeGeometry& shapeA, const Transform& xfA, const ShapeGeometry& shapeB,
                     const Transform& xfB, Vec2 translationB, float maxFraction = 1.0f);

}  // namespace mk
