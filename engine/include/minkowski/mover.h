// SPDX-License-Identifier: MIT
// Minkowski — character movers: the plane solver and velocity clip a kinematic character uses
// (docs/design.md, Movers).
//
// A mover is a capsule the game moves itself (no body, no solver). Each frame it asks the world for
// the planes around the capsule (World::CollideMover), finds the position change nearest to the one
// it wants that keeps it on the free side of every plane (SolvePlanes), moves as far along that change
// as nothing blocks (World::CastMover), and takes from its velocity what points into the planes
// (ClipVector). These two functions are pure: they read only their arguments.
//
//   mk::PlaneResult found[8];
//   const int n = world.CollideMover(capsule, filter, found);
//   mk::CollisionPlane planes[8];
//   for (int i = 0; i < n; ++i) planes[i] = {.plane = found[i].plane};
//   const mk::PlaneSolverResult solved = mk::SolvePlanes(velocity * dt, {planes, std::size_t(n)});
//   const float f = world.CastMover(capsule, solved.delta, filter);
//   position += f * solved.delta;
//   velocity = mk::ClipVector(velocity, {planes, std::size_t(n)});
#pragma once

#include "minkowski/export.h"
#include "minkowski/math.h"
#include "minkowski/span.h"
#include "minkowski/world_types.h"

#include <cfloat>

namespace MK_API mk {

/// The gap (m) a mover keeps from what it touches: CollideMover's planes sit this far off the shapes,
/// and CastMover stops this far from a shape it was at least this far from.
inline constexpr float kMoverSkin = 0.01f;

/// CollideMover reports every shape whose surface lies within this distance (m) of the capsule's
/// surface (or overlaps it).
inline constexpr float kMoverCollideDistance = 0.05f;

/// CastMover lets a mover already nearer than kMoverSkin to a shape move while it gets no nearer than
/// its start separation minus this (m): sliding along a surface it touches is not blocked, and no move
/// deepens an overlap by more than this.
inline constexpr float kMoverEncroach = 2.0e-4f;

/// SolvePlanes stops after this many sweeps over the planes (its bound: at most this times the plane
/// count plane updates).
inline constexpr int kMoverMaxIterations = 20;

/// SolvePlanes stops early once a sweep changes no plane's push by more than this (m).
inline constexpr float kMoverSolverTolerance = 1.0e-5f;

/// A plane: the points p with Dot(normal, p) = offset. For a mover plane, Dot(normal, delta) + offset
/// is how far (m) the mover would be on the free side of it after moving by delta.
struct Plane {
  Vec2 normal{0.0f, 1.0f};  ///< unit
  float offset = 0.0f;      ///< metres
};

/// One shape near a mover (World::CollideMover). World frame.
struct PlaneResult {
  /// normal: unit, from the shape to the mover; offset: separation - kMoverSkin, so that a move by
  /// delta with Dot(normal, delta) + offset >= 0 keeps the mover at least kMoverSkin off the shape
  /// (exactly for a flat face; conservatively for a corner or a curve, since the plane through the
  /// closest points separates two convex shapes).
  Plane plane;
  Vec2 point{0.0f, 0.0f};   ///< the shape's surface point nearest the mover (m)
  float separation = 0.0f;  ///< signed distance between the surfaces (m); < 0 is overlap
  ShapeId shape{};          ///< the shape (its body tells a moving platform's velocity)
};

/// A constraint for SolvePlanes and ClipVector, usually made from a PlaneResult.
struct CollisionPlane {
  Plane plane;  ///< the plane to stay on the positive side of (unit normal, offset in m)
  /// Most the solver may push the mover along the normal (m), >= 0: FLT_MAX is rigid, smaller values
  /// make the plane soft (a character pushing through a crowd).
  float pushLimit = FLT_MAX;
  /// Written by SolvePlanes: how far it pushed along the normal (m), 0..pushLimit. ClipVector only
  /// clips against planes that pushed.
  float push = 0.0f;
  bool clipVelocity = true;  ///< false: ClipVector ignores the plane (soft planes)
};

/// What SolvePlanes found.
struct PlaneSolverResult {
  Vec2 delta{0.0f, 0.0f};  ///< the position change to make (m)
  int iterationCount = 0;  ///< sweeps run, 1..kMoverMaxIterations (0 for refused input)
  bool converged = false;  ///< false when kMoverMaxIterations ran out first
};

/// The position change nearest to `targetDelta` (m) with Dot(n, delta) + offset >= 0 for every plane
/// (within its push limit): the Euclidean projection of targetDelta onto the intersection of the
/// planes' half-planes. Each plane's `push` receives its multiplier. Bounded: at most
/// kMoverMaxIterations sweeps (Hildreth's method, a Gauss-Seidel on the multipliers); planes that
/// conflict (a gap narrower than the mover, or push limits) give the best compromise the sweeps reach.
/// Refused (MK_ASSERT): a targetDelta with a component non-finite or beyond kMaxWorldLength (returns
/// zero delta, iterationCount 0); a plane with a non-finite normal or one not of unit length (within
/// 1e-3), an offset non-finite or beyond kMaxWorldLength, or a negative or NaN pushLimit is skipped
/// (push 0).
PlaneSolverResult SolvePlanes(Vec2 targetDelta, Span<CollisionPlane> planes);

/// `vector` (a velocity, m/s, or any vector) without its components into the planes: the vector
/// nearest it with Dot(n, v) >= 0 for every plane with push > 0 and clipVelocity set (the projection
/// onto their cone: exact, O(planes^2), no iteration). Sliding along a wall keeps the along-wall component;
/// in a corner it stops. A vector with a component non-finite or beyond kMaxWorldLength gives zero;
/// invalid planes (as SolvePlanes's) are skipped; both fail an MK_ASSERT.
Vec2 ClipVector(Vec2 vector, Span<const CollisionPlane> planes);

}  // namespace mk
