// Manifold front end: cores of each shape type, the typed Collide* functions, the 4x4 pair table
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

Core PolygonCore(const Polygon& p) { return {p.vertices, p.normals, p.count, p.radius}; }

// The general path for cores given in their own shapes' frames: B's core is moved into A's frame.
Manifold CollideLocalCores(const Core& a, const Transform& xfA, const Core& b, const Transform& xfB,
                           SimplexCache* cache, const ManifoldSettings& settings) {
  return ToWorld(CollideCores(a, b, InvMulTransforms(xfA, xfB), cache, settings), xfA, xfB);
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

Manifold CollideCapsuleAndCircle(const Capsule& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                                 const ManifoldSettings& settings) {
  CoreBuffer ca, cb;
  return CollideLocalCores(MakeSmallCore(&a.p1, 2, a.radius, ca), xfA, MakeSmallCore(&b.center, 1, b.radius, cb),
                           xfB, nullptr, settings);
}

Manifold CollideSegmentAndCircle(const Segment& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                                 const ManifoldSettings& settings) {
  CoreBuffer ca, cb;
  return CollideLocalCores(MakeSmallCore(&a.p1, 2, 0.0f, ca), xfA, MakeSmallCore(&b.center, 1, b.radius, cb),
                           xfB, nullptr, settings);
}

Manifold CollidePolygonAndCircle(const Polygon& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                                 SimplexCache* cache, const ManifoldSettings& settings) {
  CoreBuffer cb;
  return CollideLocalCores(PolygonCore(a), xfA, MakeSmallCore(&b.center, 1, b.radius, cb), xfB, cache, settings);
}

Manifold CollideCapsules(const Capsule& a, const Transform& xfA, const Capsule& b, const Transform& xfB,
                         SimplexCache* cache, const ManifoldSettings& settings) {
  CoreBuffer ca, cb;
  return CollideLocalCores(MakeSmallCore(&a.p1, 2, a.radius, ca), xfA, MakeSmallCore(&b.p1, 2, b.radius, cb), xfB,
                           cache, settings);
}

Manifold CollideSegmentAndCapsule(const Segment& a, const Transform& xfA, const Capsule& b, const Transform& xfB,
                                  SimplexCache* cache, const ManifoldSettings& settings) {
  CoreBuffer ca, cb;
  return CollideLocalCores(MakeSmallCore(&a.p1, 2, 0.0f, ca), xfA, MakeSmallCore(&b.p1, 2, b.radius, cb), xfB,
                           cache, settings);
}

Manifold CollideSegments(const Segment& a, const Transform& xfA, const Segment& b, const Transform& xfB,
                         SimplexCache* cache, const ManifoldSettings& settings) {
  CoreBuffer ca, cb;
  return CollideLocalCores(MakeSmallCore(&a.p1, 2, 0.0f, ca), xfA, MakeSmallCore(&b.p1, 2, 0.0f, cb), xfB, cache,
                           settings);
}

Manifold CollidePolygonAndCapsule(const Polygon& a, const Transform& xfA, const Capsule& b, const Transform& xfB,
                                  SimplexCache* cache, const ManifoldSettings& settings) {
  CoreBuffer cb;
  return CollideLocalCores(PolygonCore(a), xfA, MakeSmallCore(&b.p1, 2, b.radius, cb), xfB, cache, settings);
}

Manifold CollideSegmentAndPolygon(const Segment& a, const Transform& xfA, const Polygon& b, const Transform& xfB,
                                  SimplexCache* cache, const ManifoldSettings& settings) {
  CoreBuffer ca;
  return CollideLocalCores(MakeSmallCore(&a.p1, 2, 0.0f, ca), xfA, PolygonCore(b), xfB, cache, settings);
}

Manifold CollidePolygons(const Polygon& a, const Transform& xfA, const Polygon& b, const Transform& xfB,
                         SimplexCache* cache, const ManifoldSettings& settings) {
  return CollideLocalCores(PolygonCore(a), xfA, PolygonCore(b), xfB, cache, settings);
}

// ---------------------------------------------------------------------------------------------
// The pair table
// ---------------------------------------------------------------------------------------------

namespace {

// Adapts a typed function to the table signature. `Swap` = the typed function exists only for
// (B, A): call it swapped and flip the result back.
template <class A, class B, Manifold (*F)(const A&, const Transform&, const B&, const Transform&, SimplexCache*,
                                          const ManifoldSettings&)>
Manifold Entry(const void* a, const Transform& xfA, const void* b, const Transform& xfB, SimplexCache* cache,
               const ManifoldSettings& settings) {
  return F(*static_cast<const A*>(a), xfA, *static_cast<const B*>(b), xfB, cache, settings);
}

template <class A, class B, Manifold (*F)(const B&, const Transform&, const A&, const Transform&, SimplexCache*,
                                          const ManifoldSettings&)>
Manifold SwappedEntry(const void* a, const Transform& xfA, const void* b, const Transform& xfB, SimplexCache* cache,
                      const ManifoldSettings& settings) {
  return FlipManifold(F(*static_cast<const B*>(b), xfB, *static_cast<const A*>(a), xfA, cache, settings));
}

// Uniform signatures for the functions that take no cache.
Manifold CirclesCached(const Circle& a, const Transform& xfA, const Circle& b, const Transform& xfB, SimplexCache*,
                       const ManifoldSettings& s) {
  return CollideCircles(a, xfA, b, xfB, s);
}
Manifold CapsuleCircleCached(const Capsule& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                             SimplexCache*, const ManifoldSettings& s) {
  return CollideCapsuleAndCircle(a, xfA, b, xfB, s);
}
Manifold SegmentCircleCached(const Segment& a, const Transform& xfA, const Circle& b, const Transform& xfB,
                             SimplexCache*, const ManifoldSettings& s) {
  return CollideSegmentAndCircle(a, xfA, b, xfB, s);
}

constexpr int kTypeCount = static_cast<int>(ShapeType::Count);

// Rows: A's type, columns: B's type, in ShapeType order (Circle, Capsule, Segment, Polygon).
constexpr CollideFunction kPairTable[kTypeCount][kTypeCount] = {
    {Entry<Circle, Circle, CirclesCached>, SwappedEntry<Circle, Capsule, CapsuleCircleCached>,
     SwappedEntry<Circle, Segment, SegmentCircleCached>, SwappedEntry<Circle, Polygon, CollidePolygonAndCircle>},
    {Entry<Capsule, Circle, CapsuleCircleCached>, Entry<Capsule, Capsule, CollideCapsules>,
     SwappedEntry<Capsule, Segment, CollideSegmentAndCapsule>,
     SwappedEntry<Capsule, Polygon, CollidePolygonAndCapsule>},
    {Entry<Segment, Circle, SegmentCircleCached>, Entry<Segment, Capsule, CollideSegmentAndCapsule>,
     Entry<Segment, Segment, CollideSegments>, Entry<Segment, Polygon, CollideSegmentAndPolygon>},
    {Entry<Polygon, Circle, CollidePolygonAndCircle>, Entry<Polygon, Capsule, CollidePolygonAndCapsule>,
     SwappedEntry<Polygon, Segment, CollideSegmentAndPolygon>, Entry<Polygon, Polygon, CollidePolygons>},
};

bool IsValidShape(const ShapeRef& ref) {
  if (ref.shape == nullptr || static_cast<int>(ref.type) >= kTypeCount) return false;
  if (ref.type != ShapeType::Polygon) return true;
  int count = static_cast<const Polygon*>(ref.shape)->count;
  return count >= 3 && count <= kMaxPolygonVertices;
}

}  // namespace

CollideFunction GetCollideFunction(ShapeType typeA, ShapeType typeB) {
  int a = static_cast<int>(typeA);
  int b = static_cast<int>(typeB);
  if (a < 0 || a >= kTypeCount || b < 0 || b >= kTypeCount) return nullptr;
  return kPairTable[a][b];
}

Manifold Collide(const ShapeRef& a, const Transform& xfA, const ShapeRef& b, const Transform& xfB,
                 SimplexCache* cache, const ManifoldSettings& settings) {
  // Both transforms and the margin in one 4-lane test (the check runs on every contact every step).
  bool valid = IsValidShape(a) && IsValidShape(b) && detail::FiniteTransforms(xfA, xfB, settings.speculativeDistance) &&
               settings.speculativeDistance >= 0.0f;
  MK_ASSERT(valid);
  if (!valid) return {};
  return kPairTable[static_cast<int>(a.type)][static_cast<int>(b.type)](a.shape, xfA, b.shape, xfB, cache,
                                                                         settings);
}

// ---------------------------------------------------------------------------------------------
// Compact cores (the world's narrowphase)
// ---------------------------------------------------------------------------------------------

CompactCore MakeCompactCore(const ShapeRef& shape) {
  CompactCore c;
  c.type = shape.type;
  CoreBuffer buffer;
  Core core;
  switch (shape.type) {
    case ShapeType::Circle: {
      const auto& circle = *static_cast<const Circle*>(shape.shape);
      core = MakeSmallCore(&circle.center, 1, circle.radius, buffer);
      break;
    }
    case ShapeType::Capsule: {
      const auto& capsule = *static_cast<const Capsule*>(shape.shape);
      core = MakeSmallCore(&capsule.p1, 2, capsule.radius, buffer);
      break;
    }
    case ShapeType::Segment: {
      const auto& segment = *static_cast<const Segment*>(shape.shape);
      core = MakeSmallCore(&segment.p1, 2, 0.0f, buffer);
      break;
    }
    default: core = PolygonCore(*static_cast<const Polygon*>(shape.shape));
  }
  c.count = core.count;
  c.radius = core.radius;
  if (c.Inline()) {
    for (int i = 0; i < core.count; ++i) {
      c.data[i] = core.points[i];
      // A 1-point core has no normals; its slot is left at zero.
      c.data[core.count + i] = core.count >= 2 ? core.normals[i] : Vec2{0.0f, 0.0f};
    }
  }
  return c;
}

namespace {

// Which side of the pair table's typed function a type takes: the table calls F(A, B) directly when
// A ranks at least as high as B, else F(B, A) and flips (kPairTable above).
int TableRank(ShapeType type) {
  switch (type) {
    case ShapeType::Segment: return 3;
    case ShapeType::Polygon: return 2;
    case ShapeType::Capsule: return 1;
    default: return 0;
  }
}

// The typed function's body for a direct pair (A ranks first), on cores.
Manifold CollideCompactDirect(ShapeType typeA, const Core& a, const Transform& xfA, ShapeType typeB, const Core& b,
                              const Transform& xfB, SimplexCache* cache, const ManifoldSettings& settings) {
  if (typeB == ShapeType::Circle) {
    if (typeA == ShapeType::Circle) {
      return CollideCircles(Circle{a.points[0], a.radius}, xfA, Circle{b.points[0], b.radius}, xfB, settings);
    }
    // The capsule-circle and segment-circle functions take no cache.
    if (typeA != ShapeType::Polygon) cache = nullptr;
  }
  return CollideLocalCores(a, xfA, b, xfB, cache, settings);
}

}  // namespace

Manifold CollideCompact(ShapeType typeA, const Core& a, const Transform& xfA, ShapeType typeB, const Core& b,
                        const Transform& xfB, SimplexCache* cache, const ManifoldSettings& settings) {
  if (TableRank(typeA) >= TableRank(typeB)) return CollideCompactDirect(typeA, a, xfA, typeB, b, xfB, cache, settings);
  return FlipManifold(CollideCompactDirect(typeB, b, xfB, typeA, a, xfA, cache, settings));
}

}  // namespace mk
