// SPDX-License-Identifier: MIT
// Manifold front end: cores of each shape type, the typed Collide* functions, the 5x5 pair table
// and input validation. The geometry itself lives in collide_cores.cpp and clip.cpp.
#include "minkowski/assert.h"
#include "narrowphase/manifold_internal.h"

namespace mk {

// ---------------------------------------------------------------------------------------------
// Cores
// ---------------------------------------------------------------------------------------------

const Core& TransformCore(const Core& source, const Transform& xf, CoreBuffer& out) {
  if (source.count >= wide::Float4::kLanes / 2) {
    TransformVectors(source.points, out.points, source.count, xf, true);
    TransformVectors(source.normals, out.normals, source.count, xf, false);
    out.core = {out.points, out.normals, source.count, source.radius};
    return out.core;
  }
  for (int i = 0; i < source.count; ++i) {
    out.points[i] = TransformPoint(xf, source.points[i]);
    out.normals[i] = Rotate(xf.q, source.normals[i]);
  }
  out.core = {out.points, out.normals, source.count, source.radius};
  return out.core;
}

const Core& MakeSmallCore(const Vec2* points, int count, float radius, CoreBuffer& out) {
  out.points[0] = points[0];
  if (count == 2) {
    out.points[1] = points[1];
    Vec2 n = Normalize(RightPerp(points[1] - points[0]));
    out.normals[0] = n;
    out.normals[1] = -n;
  }
  out.core = {out.points, out.normals, count, radius};
  return out.core;
}

Manifold ToWorld(const LocalManifold& local, const Transform& xfA, const Transform& xfB) {
  Manifold m;
  m.pointCount = local.count;
  if (local.count == 0) return m;
  m.normal = Rotate(xfA.q, local.normal);
  const Vec2 offset = xfA.p - xfB.p;
  // Both slots are converted whatever the count (an unused one holds a default LocalPoint, so the
  // work is defined): one or two points is a coin flip on contacts, and a loop bounded by it would
  // mispredict about every other call.
  for (int k = 0; k < 2; ++k) {
    const LocalPoint& lp = local.points[k];
    ManifoldPoint& mp = m.points[k];
    mp.anchorA = Rotate(xfA.q, lp.point);
    mp.anchorB = mp.anchorA + offset;
    mp.point = mp.anchorA + xfA.p;
    mp.separation = lp.separation;
    mp.id = lp.id;
  }
  return m;
}

Manifold FlipManifold(const Manifold& manifold) {
  Manifold m = manifold;
  m.normal = -manifold.normal;
  for (int k = 0; k < manifold.pointCount; ++k) {
    m.points[k].anchorA = manifold.points[k].anchorB;
    m.points[k].anchorB = manifold.points[k].anchorA;
    m.points[k].id = FlipFeatureId(manifold.points[k].id);
  }
  return m;
}

namespace {

// The general path for cores given in their own shapes' frames: B's core is moved into A's frame.
Manifold CollideLocalCores(const Core& a, const Transform& xfA, const Core& b, const Transform& xfB,
                           SimplexCache* cache, const ManifoldSettings& settings) {
  return ToWorld(CollideCores(a, b, InvMulTransforms(xfA, xfB), cache, settings), xfA, xfB);
}

// The core of each typed shape. A polygon's is a view of its arrays; a 1- or 2-point core is built in
// `buffer` (2-point cores need their normals), with the same values as the ShapeGeometry of the shape.
Core CoreOf(const Circle& circle, CoreBuffer& buffer) {
  return MakeSmallCore(&circle.center, 1, circle.radius, buffer);
}
Core CoreOf(const Capsule& capsule, CoreBuffer& buffer) {
  return MakeSmallCore(&capsule.p1, 2, capsule.radius, buffer);
}
Core CoreOf(const Segment& segment, CoreBuffer& buffer) {
  return MakeSmallCore(&segment.p1, 2, 0.0f, buffer);
}
Core CoreOf(const Polygon& polygon, CoreBuffer&) {
  return {polygon.vertices, polygon.normals, polygon.count, polygon.radius};
}

// Every typed function without a circle: both cores through the general path. Typed shapes are
// not turned into ShapeGeometry here, as a large polygon's would allocate.
template <class A, class B>
Manifold CollideTyped(const A& a, const Transform& xfA, const B& b, const Transform& xfB, SimplexCache* cache,
                      const ManifoldSettings& settings) {
  CoreBuffer bufferA;
  CoreBuffer bufferB;
  return CollideLocalCores(CoreOf(a, bufferA), xfA, CoreOf(b, bufferB), xfB, cache, settings);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Typed functions
// ---------------------------------------------------------------------------------------------

Manifold CollideCircles(const Circle& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                        const ManifoldSettings& settings) {
  Manifold m;
  Vec2 centerA = TransformPoint(xfA, a.center);
  Vec2 centerB = TransformPoint(xfB, b.center);
  float distance = Distance(centerA, centerB);
  float separation = distance - a.radius - b.radius;
  if (separation > settings.speculativeDistance) return m;
  // Same coincidence threshold as the general path (collide_cores.cpp), so both agree everywhere.
  Vec2 normal = distance < 1e-4f ? Vec2{0.0f, 1.0f} : (1.0f / distance) * (centerB - centerA);
  Vec2 surfaceA = centerA + a.radius * normal;
  Vec2 surfaceB = centerB - b.radius * normal;
  m.normal = normal;
  m.pointCount = 1;
  ManifoldPoint& p = m.points[0];
  p.point = 0.5f * (surfaceA + surfaceB);
  p.anchorA = p.point - xfA.p;
  p.anchorB = p.point - xfB.p;
  p.separation = separation;
  p.id = MakeFeatureId(VertexFeature(0), VertexFeature(0));
  return m;
}

Manifold CollideGeneral(const ShapeProxy& a, const Transform& xfA, const ShapeProxy& b, const Transform& xfB,
                        SimplexCache* cache, const ManifoldSettings& settings) {
  // Proxies carry no normals: compute them (this entry point is the reference, not the fast path).
  CoreBuffer bufferA;
  CoreBuffer bufferB;
  auto makeCore = [](const ShapeProxy& proxy, CoreBuffer& buffer) -> const Core& {
    if (proxy.count <= 2) return MakeSmallCore(proxy.points, proxy.count, proxy.radius, buffer);
    for (int i = 0; i < proxy.count; ++i) {
      buffer.points[i] = proxy.points[i];
      Vec2 next = proxy.points[i + 1 == proxy.count ? 0 : i + 1];
      buffer.normals[i] = Normalize(RightPerp(next - proxy.points[i]));
    }
    buffer.core = {buffer.points, buffer.normals, proxy.count, proxy.radius};
    return buffer.core;
  };
  return CollideLocalCores(makeCore(a, bufferA), xfA, makeCore(b, bufferB), xfB, cache, settings);
}

namespace {

// A core against a circle (CollideCoreAndCircle): the circle's centre taken into A's frame.
Manifold CollideWithCircle(const Core& a, const Transform& xfA, Vec2 centerB, float radiusB,
                           const Transform& xfB, const ManifoldSettings& settings) {
  const Vec2 center = TransformPoint(InvMulTransforms(xfA, xfB), centerB);
  return ToWorld(CollideCoreAndCircle(a, center, radiusB, settings.speculativeDistance), xfA, xfB);
}

// A typed shape against a circle.
template <class A>
Manifold CollideTypedWithCircle(const A& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                                const ManifoldSettings& settings) {
  CoreBuffer buffer;
  return CollideWithCircle(CoreOf(a, buffer), xfA, b.center, b.radius, xfB, settings);
}

}  // namespace

// The circle functions need no GJK (CollideCoreAndCircle), so no cache: the polygon's is left as is.
Manifold CollideCapsuleAndCircle(const Capsule& a, const Transform& xfA, const Circle& b,
                                 const Transform& xfB, const ManifoldSettings& settings) {
  return CollideTypedWithCircle(a, xfA, b, xfB, settings);
}

Manifold CollideSegmentAndCircle(const Segment& a, const Transform& xfA, const Circle& b,
                                 const Transform& xfB, const ManifoldSettings& settings) {
  return CollideTypedWithCircle(a, xfA, b, xfB, settings);
}

Manifold CollidePolygonAndCircle(const Polygon& a, const Transform& xfA, const Circle& b,
                                 const Transform& xfB, SimplexCache*, const ManifoldSettings& settings) {
  return CollideTypedWithCircle(a, xfA, b, xfB, settings);
}

Manifold CollideCapsules(const Capsule& a, const Transform& xfA, const Capsule& b, const Transform& xfB,
                         SimplexCache* cache, const ManifoldSettings& settings) {
  return CollideTyped(a, xfA, b, xfB, cache, settings);
}

Manifold CollideSegmentAndCapsule(const Segment& a, const Transform& xfA, const Capsule& b,
                                  const Transform& xfB, SimplexCache* cache,
                                  const ManifoldSettings& settings) {
  return CollideTyped(a, xfA, b, xfB, cache, settings);
}

Manifold CollideSegments(const Segment& a, const Transform& xfA, const Segment& b, const Transform& xfB,
                         SimplexCache* cache, const ManifoldSettings& settings) {
  return CollideTyped(a, xfA, b, xfB, cache, settings);
}

Manifold CollidePolygonAndCapsule(const Polygon& a, const Transform& xfA, const Capsule& b,
                                  const Transform& xfB, SimplexCache* cache,
                                  const ManifoldSettings& settings) {
  return CollideTyped(a, xfA, b, xfB, cache, settings);
}

Manifold CollideSegmentAndPolygon(const Segment& a, const Transform& xfA, const Polygon& b,
                                  const Transform& xfB, SimplexCache* cache,
                                  const ManifoldSettings& settings) {
  return CollideTyped(a, xfA, b, xfB, cache, settings);
}

Manifold CollidePolygons(const Polygon& a, const Transform& xfA, const Polygon& b, const Transform& xfB,
                         SimplexCache* cache, const ManifoldSettings& settings) {
  return CollideTyped(a, xfA, b, xfB, cache, settings);
}

namespace {

// A chain segment A against typed shape B: B's core through the chain path (chain_segment.cpp).
template <class B>
Manifold CollideChainTyped(const ChainSegment& a, const Transform& xfA, const B& b, const Transform& xfB,
                           SimplexCache* cache, const ManifoldSettings& settings) {
  CoreBuffer bufferB;
  const LocalManifold local = CollideChainSegmentCore(
      ShapeGeometry(a), CoreOf(b, bufferB), InvMulTransforms(xfA, xfB), cache, settings.speculativeDistance);
  return ToWorld(local, xfA, xfB);
}

}  // namespace

Manifold CollideChainSegmentAndCircle(const ChainSegment& a, const Transform& xfA, const Circle& b,
                                      const Transform& xfB, SimplexCache* cache,
                                      const ManifoldSettings& settings) {
  return CollideChainTyped(a, xfA, b, xfB, cache, settings);
}

Manifold CollideChainSegmentAndCapsule(const ChainSegment& a, const Transform& xfA, const Capsule& b,
                                       const Transform& xfB, SimplexCache* cache,
                                       const ManifoldSettings& settings) {
  return CollideChainTyped(a, xfA, b, xfB, cache, settings);
}

Manifold CollideChainSegmentAndPolygon(const ChainSegment& a, const Transform& xfA, const Polygon& b,
                                       const Transform& xfB, SimplexCache* cache,
                                       const ManifoldSettings& settings) {
  return CollideChainTyped(a, xfA, b, xfB, cache, settings);
}

// ---------------------------------------------------------------------------------------------
// The pair table
// ---------------------------------------------------------------------------------------------

namespace {

Core CoreOf(const ShapeGeometry& shape) {
  return {shape.Points(), shape.Normals(), shape.Count(), shape.Radius()};
}

// The table's entries, on the cores of the two geometries. Swapped: the typed function exists only for
// (B, A), so the entry computes that and flips the result back, exactly as the typed call would.
Manifold CirclesEntry(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                      const Transform& xfB, SimplexCache*, const ManifoldSettings& settings) {
  return CollideCircles(a.AsCircle(), xfA, b.AsCircle(), xfB, settings);
}

Manifold CoresEntry(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                    const Transform& xfB, SimplexCache* cache, const ManifoldSettings& settings) {
  return CollideLocalCores(CoreOf(a), xfA, CoreOf(b), xfB, cache, settings);
}

// A segment, capsule or polygon A against a circle B, and the same swapped (CollideCoreAndCircle).
Manifold CircleEntry(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                     const Transform& xfB, SimplexCache*, const ManifoldSettings& settings) {
  return CollideWithCircle(CoreOf(a), xfA, b.Points()[0], b.Radius(), xfB, settings);
}

Manifold SwappedCircleEntry(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                            const Transform& xfB, SimplexCache* cache, const ManifoldSettings& settings) {
  return FlipManifold(CircleEntry(b, xfB, a, xfA, cache, settings));
}

Manifold SwappedEntry(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                      const Transform& xfB, SimplexCache* cache, const ManifoldSettings& settings) {
  return FlipManifold(CollideLocalCores(CoreOf(b), xfB, CoreOf(a), xfA, cache, settings));
}

// A chain segment A against a circle, capsule or polygon B, and the same swapped.
Manifold ChainEntry(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                    const Transform& xfB, SimplexCache* cache, const ManifoldSettings& settings) {
  const LocalManifold local =
      CollideChainSegmentCore(a, CoreOf(b), InvMulTransforms(xfA, xfB), cache, settings.speculativeDistance);
  return ToWorld(local, xfA, xfB);
}

Manifold SwappedChainEntry(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b,
                           const Transform& xfB, SimplexCache* cache, const ManifoldSettings& settings) {
  return FlipManifold(ChainEntry(b, xfB, a, xfA, cache, settings));
}

// Chain segments never touch segments or chain segments (two surfaces without inside; the world makes
// no such contacts either).
Manifold NoContactEntry(const ShapeGeometry&, const Transform&, const ShapeGeometry&, const Transform&,
                        SimplexCache*, const ManifoldSettings&) {
  return {};
}

constexpr int kTypeCount = static_cast<int>(ShapeType::Count);

// Rows: A's type, columns: B's type, in ShapeType order (Circle, Capsule, Segment, Polygon,
// ChainSegment). The typed functions put chain segments first, then segments, then polygons, then
// capsules, then circles; below the diagonal of that order an entry is swapped.
constexpr CollideFunction kPairTable[kTypeCount][kTypeCount] = {
    {CirclesEntry, SwappedCircleEntry, SwappedCircleEntry, SwappedCircleEntry, SwappedChainEntry},
    {CircleEntry, CoresEntry, SwappedEntry, SwappedEntry, SwappedChainEntry},
    {CircleEntry, CoresEntry, CoresEntry, CoresEntry, NoContactEntry},
    {CircleEntry, CoresEntry, SwappedEntry, CoresEntry, SwappedChainEntry},
    {ChainEntry, ChainEntry, NoContactEntry, ChainEntry, NoContactEntry},
};

// The core counts each type has (Make* guarantee them; a hand-made Polygon may not).
bool IsValidShape(const ShapeGeometry& shape) {
  switch (shape.Type()) {
    case ShapeType::Circle:
      return shape.Count() == 1;
    case ShapeType::Capsule:
    case ShapeType::Segment:
    case ShapeType::ChainSegment:
      return shape.Count() == 2;
    case ShapeType::Polygon:
      return shape.Count() >= 3 && shape.Count() <= kMaxPolygonVertices;
    default:
      return false;
  }
}

}  // namespace

CollideFunction GetCollideFunction(ShapeType typeA, ShapeType typeB) {
  int a = static_cast<int>(typeA);
  int b = static_cast<int>(typeB);
  if (a < 0 || a >= kTypeCount || b < 0 || b >= kTypeCount) return nullptr;
  return kPairTable[a][b];
}

Manifold Collide(const ShapeGeometry& a, const Transform& xfA, const ShapeGeometry& b, const Transform& xfB,
                 SimplexCache* cache, const ManifoldSettings& settings) {
  // Both transforms and the margin in one 4-lane test.
  bool valid = IsValidShape(a) && IsValidShape(b) &&
               detail::FiniteTransforms(xfA, xfB, settings.speculativeDistance) &&
               settings.speculativeDistance >= 0.0f;
  MK_ASSERT(valid);
  if (!valid) return {};
  return kPairTable[static_cast<int>(a.Type())][static_cast<int>(b.Type())](a, xfA, b, xfB, cache, settings);
}

}  // namespace mk
