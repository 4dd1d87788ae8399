// SPDX-License-Identifier: MIT
// Minkowski — the value types every cast shares: a ray (RayCastInput: the broadphase's, a shape's and
// the world's ray casts), a shape cast between two cores (ShapeCastInput) and what a cast reports
// (CastOutput). One header so that each level of the API names a ray and a hit the same way.
//
// Which shape view each query takes (the rule a port from Box2D v3 can rely on):
//  - pair queries on cores (ShapeDistance, ShapeCast, TimeOfImpact, CollideGeneral) take ShapeProxy:
//    core points and a radius, made by MakeProxy from any shape or from raw points;
//  - per-shape queries that need the exact type (RayCastShape, ComputeAABB, ComputeMass) and the
//    World's queries take ShapeGeometry (any shape type converts to it);
//  - a point is a one-point core of radius 0: MakeProxy(&point, 1, 0.0f), or ShapeGeometry(Circle{point,
//    0.0f}) for the World's casts. MakeCircle and CreateShape refuse a zero radius because a body's
//    shape needs an area; every query accepts it.
#pragma once

#include "minkowski/export.h"
#include "minkowski/geometry.h"
#include "minkowski/math.h"

namespace MK_API mk {

/// A ray segment: points origin + t * translation for t in [0, maxFraction].
struct RayCastInput {
  Vec2 origin{0.0f, 0.0f};       ///< start point, metres
  Vec2 translation{0.0f, 0.0f};  ///< end point minus start point, metres
  float maxFraction = 1.0f;      ///< initial upper bound on t
};

/// Core B (placed by transformB at t = 0) translated by t * translationB, t in [0, maxFraction],
/// against core A (placed by transformA, fixed), without rotation: the input of ShapeCast, named as
/// DistanceInput and ToiInput name theirs. The proxies point into the caller's storage.
struct ShapeCastInput {
  ShapeProxy proxyA;              ///< core A in its local frame
  ShapeProxy proxyB;              ///< core B in its local frame
  Transform transformA;           ///< places A (fixed)
  Transform transformB;           ///< places B at t = 0
  Vec2 translationB{0.0f, 0.0f};  ///< metres
  float maxFraction = 1.0f;       ///< search t in [0, maxFraction] (>= 0)
};

/// Where a cast first touches a shape. World frame.
struct CastOutput {
  Vec2 point{0.0f, 0.0f};   ///< the first point of the shape's surface touched (metres)
  Vec2 normal{0.0f, 0.0f};  ///< the shape's outward unit surface normal there; (0, 0) when undefined
  float fraction = 0.0f;    ///< t in [0, maxFraction]: the cast stopped at origin + t * translation
  int iterations = 0;       ///< conservative-advancement steps (ShapeCast); 0 for a ray
  bool hit = false;         ///< false: nothing touched; the other fields are zero
};

}  // namespace mk
