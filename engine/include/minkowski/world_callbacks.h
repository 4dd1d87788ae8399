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

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

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
/// copy.
///
/// Its layout is fixed (three pointers and kInlineBytes of storage) whatever the standard library or
/// its debug mode, unlike std::function. A callable of at most kInlineBytes, nothrow-movable, is
/// stored inside; a larger one is copied to the heap. Constructing, copying and destroying it are
/// templates instantiated in the code that makes the callable (the game's), reached through a
/// function pointer: the engine never runs a copy of game code compiled by itself. Calling it is one
/// indirect call; calling an empty one is a programmer error (check it with operator bool first).
class PreSolveCallable {
 public:
  /// Bytes of callable stored without allocating: a capture of up to four pointers.
  static constexpr std::size_t kInlineBytes = 4 * sizeof(void*);

  PreSolveCallable() = default;           ///< empty (no callback)
  PreSolveCallable(decltype(nullptr)) {}  ///< empty, as `= nullptr` reads

  /// Wraps a copy of `fn`, any callable as `bool fn(const World&, ShapeId, ShapeId, const Manifold&)`.
  template <class F, class D = std::decay_t<F>,
            class = std::enable_if_t<!std::is_same_v<D, PreSolveCallable> &&
                                     std::is_invocable_r_v<bool, const D&, const World&, ShapeId, ShapeId,
                                                           const Manifold&>>>
  PreSolveCallable(F&& fn) {  // NOLINT: implicit, as std::function's
    if constexpr (kStoredInline<D>) {
      ::new (static_cast<void*>(storage_)) D(static_cast<F&&>(fn));
    } else {
      heap_ = new D(static_cast<F&&>(fn));
    }
    call_ = &Call<D>;
    manage_ = &Manage<D>;
  }

  /// Copies and moves copy or move the callable (through the function the constructor chose). @{
  PreSolveCallable(const PreSolveCallable& other) { CopyFrom(other, Op::Copy); }
  PreSolveCallable(PreSolveCallable&& other) noexcept { CopyFrom(other, Op::Move); }
  PreSolveCallable& operator=(const PreSolveCallable& other) {
    if (this != &other) {
      PreSolveCallable copy(other);
      Clear();
      CopyFrom(copy, Op::Move);
    }
    return *this;
  }
  PreSolveCallable& operator=(PreSolveCallable&& other) noexcept {
    if (this != &other) {
      Clear();
      CopyFrom(other, Op::Move);
    }
    return *this;
  }
  ///@}
  ~PreSolveCallable() { Clear(); }  ///< destroys the callable

  explicit operator bool() const { return call_ != nullptr; }  ///< true when it holds a callable

  /// Calls the callable (it must not be empty).
  bool operator()(const World& world, ShapeId shapeA, ShapeId shapeB, const Manifold& manifold) const {
    return call_(*this, world, shapeA, shapeB, manifold);
  }

 private:
  enum class Op { Copy, Move, Destroy };
  using CallFn = bool (*)(const PreSolveCallable& self, const World&, ShapeId, ShapeId, const Manifold&);
  // Copy and Move make `to` hold `from`'s callable (Move leaves `from` destroyable); Destroy destroys
  // `to`'s.
  using ManageFn = void (*)(Op op, PreSolveCallable& to, PreSolveCallable* from);

  template <class D>
  static constexpr bool kStoredInline =
      sizeof(D) <= kInlineBytes && alignof(D) <= alignof(void*) && std::is_nothrow_move_constructible_v<D>;

  template <class D>
  static D* ObjectOf(const PreSolveCallable& c) {
    if constexpr (kStoredInline<D>) {
      return static_cast<D*>(const_cast<void*>(static_cast<const void*>(c.storage_)));
    } else {
      return static_cast<D*>(c.heap_);
    }
  }

  template <class D>
  static bool Call(const PreSolveCallable& self, const World& world, ShapeId a, ShapeId b,
                   const Manifold& m) {
    return (*static_cast<const D*>(ObjectOf<D>(self)))(world, a, b, m);
  }

  template <class D>
  static void Manage(Op op, PreSolveCallable& to, PreSolveCallable* from) {
    if (op == Op::Destroy) {
      if constexpr (kStoredInline<D>) {
        ObjectOf<D>(to)->~D();
      } else {
        delete ObjectOf<D>(to);
      }
      return;
    }
    if constexpr (kStoredInline<D>) {
      if (op == Op::Copy) {
        ::new (static_cast<void*>(to.storage_)) D(*ObjectOf<D>(*from));
      } else {
        ::new (static_cast<void*>(to.storage_)) D(static_cast<D&&>(*ObjectOf<D>(*from)));
      }
    } else if (op == Op::Copy) {
      to.heap_ = new D(*ObjectOf<D>(*from));
    } else {
      to.heap_ = from->heap_;  // the heap object changes owner; `from` must not delete it
      from->heap_ = nullptr;
      from->manage_ = nullptr;
      from->call_ = nullptr;
    }
    to.call_ = &Call<D>;
    to.manage_ = &Manage<D>;
  }

  void CopyFrom(const PreSolveCallable& other, Op op) {
    if (other.manage_ != nullptr) other.manage_(op, *this, const_cast<PreSolveCallable*>(&other));
  }

  void Clear() {
    if (manage_ != nullptr) manage_(Op::Destroy, *this, nullptr);
    call_ = nullptr;
    manage_ = nullptr;
    heap_ = nullptr;
  }

  CallFn call_ = nullptr;
  ManageFn manage_ = nullptr;
  void* heap_ = nullptr;  // the callable when it is not stored inline
  alignas(void*) unsigned char storage_[kInlineBytes] = {};
};

/// Friction and restitution mixing (World::SetFrictionCallback, SetRestitutionCallback, as Box2D
/// v3's b2FrictionCallback): the two shapes' coefficients and SurfaceMaterial::userMaterialId, in
/// the contact's order (shapeA has the lower slot). The result must be in 0..kMaxMaterialCoefficient
/// (anything else, NaN included, fails an MK_ASSERT and the default mix is used). Called when a
/// contact is made or a shape's material changes, inside Step too (the world is locked: read only).
using MixFn = float (*)(float valueA, std::uint64_t materialA, float valueB, std::uint64_t materialB);

/// The custom pair filter (World::SetCustomFilterCallback, as Box2D v3's b2CustomFilterFcn): called
/// for two shapes whose Filter bits and body rules let them collide, when one of them has
/// ShapeDef::enableCustomFiltering, before their contact is made; false and the pair never makes a
/// contact (asked again only when their boxes part and meet again). Read only, like MixFn. Continuous
/// collision asks it too, for what a fast body would pass: with several workers (WorldDef::tasks)
/// some of those calls come from the workers at the same time, so it must then be safe to call
/// concurrently and answer the same whatever the order.
using CustomFilterFn = bool (*)(ShapeId shapeA, ShapeId shapeB, void* context);

}  // namespace mk
