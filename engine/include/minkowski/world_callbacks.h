// SPDX-License-Identifier: MIT
// Minkowski — the types a World hands to game code: contact views (World::ForEachTouchingContact,
// GetBodyContactData) and the signatures of its callbacks (pre-solve, friction and restitution mixing,
// custom pair filter), and the world lock under which all of them run.
//
// The world lock. Step, and every call that hands control to game code while it walks the world's
// arrays (the pre-solve callback; the visitors of QueryAABB, CastRay, CastShape, OverlapShape,
// OverlapAABB, OverlapPoint; the DebugDraw of Draw), hold the world locked until they return. A call
// that would change the world made while it is locked fails an MK_ASSERT and is ignored, returning
// its error value (a null id, false, an empty vector, SnapshotError::WhileLocked) and recording
// nothing: Step, SetGravity, SetSolverSettings, RestoreSnapshot, every Create* and Destroy*, every
// body, shape and joint setter, the Apply* calls, Explode, SetPreSolveCallback,
// SetContinuousRecording, StartRecording, StopRecording and moving the World. (Box2D v3 refuses the
// same; a game notes what it wants done and does it after the call returns.) Allowed while locked:
// every getter, IsValid, AdoptId, SaveSnapshot (inside Step it saves the world mid-step, which no
// later Step reproduces: save between Steps), the SetUserData calls (a pointer the engine never
// reads), and queries, with one exception: a query that walks the broadphase is refused (MK_ASSERT,
// nothing found) while another walk is calling game code, since both would use the broadphase's one
// scratch: from a QueryAABB, CastRay or CastShape visitor, and from the pre-solve calls of Step's
// continuous stage. OverlapShape, OverlapAABB and OverlapPoint collect their candidates first, and
// the narrowphase's pre-solve calls come outside any walk, so queries from those work.
// ForEachTouchingContact takes no lock: it rereads the world for every contact, so any call is safe
// from its visitor. Destroying the World from its own callback is undefined.
#pragma once

#include "minkowski/export.h"
#include "minkowski/manifold.h"
#include "minkowski/world_types.h"

#include <cstdint>
#include <functional>

namespace MK_API mk {

class World;

/// Read-only view of one contact, for debugging tools and tests.
struct ContactView {
  /// The contact's two shapes, in the manifold's order (its normal points from shapeA to shapeB).
  ///@{
  ShapeId shapeA, shapeB;
  ///@}
  Manifold manifold;  ///< world points, normal A->B, impulses from the last step
  /// The pair's mixed surface (SurfaceMaterial, World::SetFrictionCallback): friction and restitution
  /// coefficients, rolling resistance as its angular impulse bound per unit normal impulse (m: the
  /// coefficient times the larger rounding radius), tangent speed (m/s).
  ///@{
  float friction = 0.0f, restitution = 0.0f, rollingResistance = 0.0f, tangentSpeed = 0.0f;
  ///@}
  ContactId contact;  ///< the contact's id (World::GetContactData), null in an empty view
};

/// One contact (World::GetContactData, Box2D v3's b2ContactData) or one touching contact of a body
/// (World::GetBodyContactData): the same fields as ContactView.
using ContactData = ContactView;

/// The pre-solve callback (World::SetPreSolveCallback). `shapeA`, `shapeB` and the manifold (world
/// points, unit normal from A to B) are ordered as the contact's (shapeA has the lower slot). Return
/// false to disable the contact for this step. `context` is the pointer given with the callback. It
/// runs inside Step, so the world is locked (world_callbacks.h): it may read the world and query it, but
/// every call that would change the world fails an MK_ASSERT and is ignored.
using PreSolveFn = bool (*)(ShapeId shapeA, ShapeId shapeB, const Manifold& manifold, void* context);

/// The pre-solve callback as any callable (World::SetPreSolveCallback's second form): the same
/// calls, at the same points of Step, in the same order, with the same arguments and answer as
/// PreSolveFn, plus the World that steps, first, as a const reference (it is locked, so only getters
/// and queries are possible), and state captured by the callable instead of a context pointer. Box2D
/// v3 has only the function-and-context form; this one lets a rule read the world (a body's
/// velocity, a query) without a global or a context pointing back at the world. Setting either form
/// replaces the other (one callback at a time); an empty callable clears it. The world keeps a
/// copy (std::function: setting one may allocate, as a capture of more than two pointers does;
/// calling it never does).
using PreSolveCallable =
    std::function<bool(const World& world, ShapeId shapeA, ShapeId shapeB, const Manifold& manifold)>;

/// Friction and restitution mixing (World::SetFrictionCallback, SetRestitutionCallback, as Box2D
/// v3's b2FrictionCallback): the two shapes' coefficients and SurfaceMaterial::userMaterialId, in
/// the contact's order (shapeA has the lower slot). The result must be in 0..kMaxMaterialCoefficient
/// (anything else, NaN included, fails an MK_ASSERT and the default mix is used). Called when a
/// contact is made or a shape's material changes, inside Step too (the world is locked: read only).
using MixFn = float (*)(float valueA, std::uint64_t materialA, float valueB, std::uint64_t materialB);

/// The custom pair filter (World::SetCustomFilterCallback, as Box2D v3's b2CustomFilterFcn): called
/// for two shapes whose Filter bits and body rules let them collide, when one of them has
/// ShapeDef::enableCustomFiltering, before their contact is made; false and the pair never makes a
/// contact (asked again only when their boxes part and meet again). Read only, like MixFn.
using CustomFilterFn = bool (*)(ShapeId shapeA, ShapeId shapeB, void* context);

}  // namespace mk
