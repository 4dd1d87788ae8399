// libFuzzer target for the narrowphase: arbitrary bytes become shapes, transforms and a warm-start
// cache (floats taken raw, so NaN, infinities, denormals and huge values all occur) and go through
// GJK distance, the overlap tests, EPA and manifold generation. A crash, a hang (libFuzzer's
// -timeout) or a NaN/infinite output is a failure: the engine must answer bad input with a status.
//
// Build and run (clang only; see tests/fuzz/CMakeLists.txt):
//   CXX=clang++ cmake -S . -B build/h-fuzz -DMK_BUILD_FUZZ=ON -DMK_BUILD_SANDBOX=OFF -DMK_SANITIZE=ON
//   cmake --build build/h-fuzz --target fuzz_narrowphase -j2
//   build/h-fuzz/tests/fuzz/fuzz_narrowphase -max_total_time=60 -timeout=5 tests/fuzz/corpus
// (pass a scratch directory first, e.g. `/tmp/corpus tests/fuzz/corpus`, to keep new inputs out of git;
// MK_FUZZ_NO_MANIFOLD=1 skips Collide and fuzzes GJK/EPA/SAT only.)
#include "minkowski/distance.h"
#include "minkowski/manifold.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mk;

namespace {

/// Reads the input front to back; past the end it yields zeros.
struct Reader {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t at = 0;

  std::uint8_t Byte() { return at < size ? data[at++] : 0; }
  float Float() {
    std::uint8_t bytes[4] = {Byte(), Byte(), Byte(), Byte()};
    float f;
    std::memcpy(&f, bytes, sizeof f);
    return f;
  }
  Vec2 Point() {
    float x = Float();
    return {x, Float()};
  }
};

void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_narrowphase: %s\n", what);
  std::abort();
}

/// A shape of any type made from the bytes. Polygons go through MakePolygon (which validates); a
/// shape that fails validation falls back to a default one, so the queries still run.
struct FuzzShape {
  ShapeType type = ShapeType::Circle;
  Circle circle;
  Capsule capsule;
  Segment segment;
  Polygon polygon;
  // A raw proxy over arbitrary points (unchecked, possibly non-convex or non-finite) for GJK/EPA.
  Vec2 raw[kMaxPolygonVertices];
  ShapeProxy rawProxy;

  ShapeRef Ref() const {
    switch (type) {
      case ShapeType::Circle: return ShapeRef(circle);
      case ShapeType::Capsule: return ShapeRef(capsule);
      case ShapeType::Segment: return ShapeRef(segment);
      default: return ShapeRef(polygon);
    }
  }
  ShapeProxy Proxy() const {
    switch (type) {
      case ShapeType::Circle: return MakeProxy(circle);
      case ShapeType::Capsule: return MakeProxy(capsule);
      case ShapeType::Segment: return MakeProxy(segment);
      default: return MakeProxy(polygon);
    }
  }
};

void ReadShape(Reader& r, FuzzShape& s) {
  std::uint8_t tag = r.Byte();
  s.type = static_cast<ShapeType>(tag % 4);
  int count = 1 + r.Byte() % kMaxPolygonVertices;
  for (int i = 0; i < count; ++i) s.raw[i] = r.Point();
  float radius = r.Float();
  s.rawProxy = {s.raw, count, radius};
  switch (s.type) {
    case ShapeType::Circle: {
      auto c = MakeCircle(s.raw[0], radius);
      s.circle = c.ok() ? c.value : Circle{};
      break;
    }
    case ShapeType::Capsule: {
      auto c = MakeCapsule(s.raw[0], s.raw[count > 1 ? 1 : 0], radius);
      s.capsule = c.ok() ? c.value : Capsule{};
      break;
    }
    case ShapeType::Segment: {
      auto c = MakeSegment(s.raw[0], s.raw[count > 1 ? 1 : 0]);
      s.segment = c.ok() ? c.value : Segment{};
      break;
    }
    default: {
      auto c = MakePolygon(std::span<const Vec2>(s.raw, static_cast<std::size_t>(count)), radius);
      if (!c.ok()) c = MakePolygon(std::span<const Vec2>(s.raw, static_cast<std::size_t>(count)), 0.0f);
      s.polygon = c.ok() ? c.value : MakeBox(0.5f, 0.5f).value;
      break;
    }
  }
}

Transform ReadTransform(Reader& r) {
  Vec2 p = r.Point();
  float angle = r.Float();
  // Half the time a raw (possibly non-unit, non-finite) rotation, half a proper one.
  if (r.Byte() & 1) return {p, {r.Float(), r.Float()}};
  return {p, std::isfinite(angle) ? MakeRot(angle) : Rot{angle, angle}};
}

bool Finite(const DistanceOutput& o) {
  return IsFinite(o.pointA) && IsFinite(o.pointB) && IsFinite(o.corePointA) && IsFinite(o.corePointB) &&
         IsFinite(o.normal) && std::isfinite(o.distance) && std::isfinite(o.coreDistance) &&
         std::isfinite(o.penetration);
}

bool Finite(const PenetrationOutput& o) {
  return IsFinite(o.pointA) && IsFinite(o.pointB) && IsFinite(o.corePointA) && IsFinite(o.corePointB) &&
         IsFinite(o.normal) && std::isfinite(o.depth) && std::isfinite(o.coreDepth);
}

bool Finite(const Manifold& m) {
  if (!IsFinite(m.normal) || m.pointCount < 0 || m.pointCount > 2) return false;
  for (int i = 0; i < m.pointCount; ++i) {
    const ManifoldPoint& p = m.points[i];
    if (!IsFinite(p.point) || !IsFinite(p.anchorA) || !IsFinite(p.anchorB) || !std::isfinite(p.separation)) return false;
  }
  return true;
}

constexpr float kWorldLimit = 1.0e6f;  // metres

bool Physical(Vec2 v) { return std::fabs(v.x) <= kWorldLimit && std::fabs(v.y) <= kWorldLimit; }

bool Physical(const Transform& xf) {
  return Physical(xf.p) && std::fabs(xf.q.c * xf.q.c + xf.q.s * xf.q.s - 1.0f) <= 1e-3f;
}

bool Physical(const FuzzShape& s) {
  ShapeProxy p = s.Proxy();
  for (int i = 0; i < p.count; ++i) {
    if (!Physical(p.points[i])) return false;
  }
  return p.radius <= kWorldLimit;
}

void Query(const DistanceInput& in, SimplexCache cache) {
  DistanceOutput d = ShapeDistance(in, &cache);
  if (!Finite(d)) Fail("ShapeDistance produced a non-finite output");
  if (cache.count > 3) Fail("cache count > 3");
  if (d.status != DistanceStatus::InvalidInput && (d.distance < 0.0f || d.coreDistance < 0.0f)) {
    Fail("negative distance");
  }
  SimplexCache copy = cache;
  CoresOverlap(in, &copy);
  ShapesOverlap(in, &cache);
  PenetrationOutput p = ShapePenetration(in, &cache);
  if (!Finite(p)) Fail("ShapePenetration produced a non-finite output");
  SeparationOutput s = ShapeSeparation(in, &cache);
  if (!IsFinite(s.normal) || !std::isfinite(s.separation) || !IsFinite(s.pointA) || !IsFinite(s.pointB)) {
    Fail("ShapeSeparation produced a non-finite output");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader r{data, size};
  static FuzzShape a;
  static FuzzShape b;
  ReadShape(r, a);
  ReadShape(r, b);
  Transform xfA = ReadTransform(r);
  Transform xfB = ReadTransform(r);
  SimplexCache cache;
  cache.count = r.Byte();
  for (int i = 0; i < 3; ++i) {
    cache.indexA[i] = r.Byte();
    cache.indexB[i] = r.Byte();
  }

  // Raw point sets (unvalidated) and the validated shapes.
  Query({a.rawProxy, b.rawProxy, xfA, xfB}, cache);
  Query({a.Proxy(), b.Proxy(), xfA, xfB}, cache);

  // Manifolds on validated shapes. GJK/EPA above must survive anything; Collide is held to a finite
  // manifold for physical input: unit rotations and coordinates within kWorldLimit (a 2000 km
  // world), because its clipping arithmetic may legitimately overflow on 1e30 m coordinates or a
  // rotation of length 1e36 (a Transform's rotation must be unit: a programmer error).
  // MK_FUZZ_NO_MANIFOLD=1 in the environment fuzzes distance queries only (to isolate a failure).
  static const bool noManifold = std::getenv("MK_FUZZ_NO_MANIFOLD") != nullptr;
  if (noManifold) return 0;
  SimplexCache manifoldCache = cache;
  Manifold m = Collide(a.Ref(), xfA, b.Ref(), xfB, &manifoldCache);
  if (Physical(a) && Physical(b) && Physical(xfA) && Physical(xfB) && !Finite(m)) {
    Fail("Collide produced a non-finite manifold for physical input");
  }
  return 0;
}
