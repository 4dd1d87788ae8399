// SPDX-License-Identifier: MIT
// Minkowski — the definitions of World's member templates (ForEachTouchingContact and the queries
// that take any callable: QueryAABB, CastRay, CastShape, OverlapShape, OverlapAABB, OverlapPoint),
// documented where world.h declares them. Each wraps the callable in a plain function and a context
// pointer and forwards to a non-template call compiled in the library. Included by world.h; including
// this header includes world.h.
#pragma once

#include "minkowski/export.h"
#include "minkowski/world.h"

#include <type_traits>
#include <utility>

namespace MK_API mk {

template <class Visitor>
void World::ForEachTouchingContact(Visitor&& visit) const {
  for (int i = 0, n = ContactCapacity(); i < n; ++i) {
    ContactView view;
    if (GetContactView(i, view)) visit(view);
  }
}

template <class Visitor>
void World::QueryAABB(const AABB& box, Visitor&& visit) const {
  QueryAABB(Pos{}, box, std::forward<Visitor>(visit));
}

template <class Visitor>
void World::QueryAABB(Pos origin, const AABB& box, Visitor&& visit) const {
  using V = std::remove_reference_t<Visitor>;
  auto thunk = [](ShapeId id, void* context) -> bool { return (*static_cast<V*>(context))(id); };
  QueryAABBImpl(origin, box, thunk, const_cast<void*>(static_cast<const void*>(&visit)));
}

template <class Fn>
void World::CastRay(Pos origin, Vec2 translation, const QueryFilter& filter, Fn&& fn) const {
  using F = std::remove_reference_t<Fn>;
  auto thunk = [](const CastHit& hit, void* context) -> float { return (*static_cast<F*>(context))(hit); };
  CastRayImpl(origin, translation, filter, thunk, const_cast<void*>(static_cast<const void*>(&fn)));
}

template <class Fn>
void World::CastShape(const ShapeGeometry& shape, const WorldTransform& xf, Vec2 translation,
                      const QueryFilter& filter, Fn&& fn) const {
  using F = std::remove_reference_t<Fn>;
  auto thunk = [](const CastHit& hit, void* context) -> float { return (*static_cast<F*>(context))(hit); };
  CastShapeImpl(shape, xf, translation, filter, thunk, const_cast<void*>(static_cast<const void*>(&fn)));
}

template <class Visitor>
void World::OverlapShape(const ShapeGeometry& shape, const WorldTransform& xf, const QueryFilter& filter,
                         Visitor&& visit) const {
  using V = std::remove_reference_t<Visitor>;
  auto thunk = [](ShapeId id, void* context) -> bool { return (*static_cast<V*>(context))(id); };
  OverlapShapeImpl(&shape, xf, nullptr, filter, thunk, const_cast<void*>(static_cast<const void*>(&visit)));
}

template <class Visitor>
void World::OverlapAABB(const AABB& box, const QueryFilter& filter, Visitor&& visit) const {
  OverlapAABB(Pos{}, box, filter, std::forward<Visitor>(visit));
}

template <class Visitor>
void World::OverlapAABB(Pos origin, const AABB& box, const QueryFilter& filter, Visitor&& visit) const {
  using V = std::remove_reference_t<Visitor>;
  auto thunk = [](ShapeId id, void* context) -> bool { return (*static_cast<V*>(context))(id); };
  OverlapShapeImpl(nullptr, WorldTransform{origin, Rot{}}, &box, filter, thunk,
                   const_cast<void*>(static_cast<const void*>(&visit)));
}

template <class Visitor>
void World::OverlapPoint(Pos point, const QueryFilter& filter, Visitor&& visit) const {
  using V = std::remove_reference_t<Visitor>;
  auto thunk = [](ShapeId id, void* context) -> bool { return (*static_cast<V*>(context))(id); };
  const AABB box{};  // about the point (OverlapShapeImpl)
  OverlapShapeImpl(nullptr, WorldTransform{point, Rot{}}, &box, filter, thunk,
                   const_cast<void*>(static_cast<const void*>(&visit)));
}

}  // namespace mk
