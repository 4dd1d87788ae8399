// SPDX-License-Identifier: MIT
// libFuzzer target for the narrowphase: arbitrary bytes become shapes, transforms and a warm-start
// cache (floats taken raw, so NaN, infinities, denormals and huge values all occur) and go through
// GJK distance, the overlap tests, EPA and manifold generation. A crash, a hang (libFuzzer's
// -timeout) or a NaN/infinite output is a failure: the engine must answer bad input with a status.
// On physical input the queries must also agree with each other and, for validated shapes, with the
// exact oracle of the tests (tests/narrowphase/oracle.h).
//
// Build and run (clang only; see tests/fuzz/CMakeLists.txt):
//   CXX=clang++ cmake -S . -B build/h-fuzz -DMK_BUILD_FUZZ=ON -DMK_BUILD_SANDBOX=OFF -DMK_SANITIZE=ON
//   cmake --build build/h-fuzz --target fuzz_narrowphase -j2
//   build/h-fuzz/tests/fuzz/fuzz_narrowphase -max_total_time=60 -timeout=5 tests/fuzz/corpus
// (pass a scratch directory first, e.g. `/tmp/corpus tests/fuzz/corpus`, to keep new inputs out of git;
// MK_FUZZ_NO_MANIFOLD=1 skips Collide and fuzzes GJK/EPA/SAT only.)
#include "minkowski/assert.h"
#include "minkowski/distance.h"
#include "minkowski/manifold.h"
#include "minkowski/ray_cast.h"
#include "narrowphase/oracle.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>

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
  ShapeGeometry geometry;
  // A raw proxy over arbitrary points (unchecked, possibly non-convex or non-finite) for GJK/EPA.
  Vec2 raw[kMaxPolygonVertices];
  ShapeProxy rawProxy;

  ShapeProxy Proxy() const { return MakeProxy(geometry); }
};

void ReadShape(Reader& r, FuzzShape& s) {
  std::uint8_t tag = r.Byte();
  const auto type = static_cast<ShapeType>(tag % 4);
  int count = 1 + r.Byte() % kMaxPolygonVertices;
  for (int i = 0; i < count; ++i) s.raw[i] = r.Point();
  float radius = r.Float();
  s.rawProxy = {s.raw, count, radius};
  switch (type) {
    case ShapeType::Circle: {
      auto c = MakeCircle(s.raw[0], radius);
      s.geometry = c.ok() ? c.value : Circle{};
      break;
    }
    case ShapeType::Capsule: {
      auto c = MakeCapsule(s.raw[0], s.raw[count > 1 ? 1 : 0], radius);
      s.geometry = c.ok() ? c.value : Capsule{};
      break;
    }
    case ShapeType::Segment: {
      auto c = MakeSegment(s.raw[0], s.raw[count > 1 ? 1 : 0]);
      s.geometry = c.ok() ? c.value : Segment{};
      break;
    }
    default: {
      auto c = MakePolygon(std::span<const Vec2>(s.raw, static_cast<std::size_t>(count)), radius);
      if (!c.ok()) c = MakePolygon(std::span<const Vec2>(s.raw, static_cast<std::size_t>(count)), 0.0f);
      s.geometry = c.ok() ? c.value : MakeBox(0.5f, 0.5f).value;
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
    if (!IsFinite(p.point) || !IsFinite(p.anchorA) || !IsFinite(p.anchorB) || !std::isfinite(p.separation))
      return false;
  }
  return true;
}

constexpr float kWorldLimit = 1.0e6f;  // metres

bool Physical(Vec2 v) { return std::fabs(v.x) <= kWorldLimit && std::fabs(v.y) <= kWorldLimit; }

bool Physical(const Transform& xf) {
  return Physical(xf.p) && std::fabs(xf.q.c * xf.q.c + xf.q.s * xf.q.s - 1.0f) <= 1e-3f;
}

bool Physical(const ShapeProxy& p) {
  for (int i = 0; i < p.count; ++i) {
    if (!Physical(p.points[i])) return false;
  }
  return p.radius <= kWorldLimit;
}

/// The coordinate scale GJK works at in A's frame (metres): both cores' reach from their body
/// origins plus the distance between the origins. Its rounding is a few ulps of this.
double Scale(const DistanceInput& in) {
  double reach = 0.0;
  for (const ShapeProxy* p : {&in.proxyA, &in.proxyB}) {
    double m = 0.0;
    for (int i = 0; i < p->count; ++i) m = std::max(m, oracle::DLength(oracle::ToD(p->points[i])));
    reach += m;
  }
  return reach + oracle::DLength(oracle::ToD(in.transformB.p) - oracle::ToD(in.transformA.p));
}

/// The queries against each other on physical input, and against the exact oracle when `convex`
/// (validated shapes) and both rotations are unit. ShapeDistance, CoresOverlap and ShapePenetration
/// run one GJK loop from the same start here, so they may disagree only within rounding of touching
/// (kBand x scale: GJK's origin tolerance is 16 ulps of its coordinates); the distance must match the
/// oracle to 1e-5 x scale and the depth to 1e-4 x scale (as gjk_precision_test.cpp requires). Catches
/// issue 2's repros (tests/fuzz/corpus/issue2_*): a 400 m segment crossing a 1 m one reported apart
/// by ShapeDistance and overlapping by CoresOverlap, and a box 0.94 mm above it reported 4 cm away.
void CheckConsistency(const DistanceInput& in, const SimplexCache& start, const DistanceOutput& d,
                      bool convex) {
  constexpr double kBand = 128.0 * FLT_EPSILON;
  if (d.status == DistanceStatus::InvalidInput || d.status == DistanceStatus::IterationCap) return;
  const double scale = std::max(1.0, Scale(in));
  const double band = kBand * scale;
  SimplexCache copy = start;
  const bool cores = CoresOverlap(in, &copy);
  const PenetrationOutput pen = ShapePenetration(in, &start);
  const bool apart = !d.coresOverlap && d.coreDistance > band;
  if (apart && cores) Fail("ShapeDistance says the cores are apart, CoresOverlap that they overlap");
  if (apart && pen.status != PenetrationStatus::Separated) {
    Fail("ShapeDistance says apart, ShapePenetration not");
  }
  // The oracle places the shapes by their transforms as given; GJK inverts A's rotation by its
  // transpose, which is only its inverse for a unit rotation (as MakeRot makes them, to ~1 ulp).
  auto unit = [](Rot q) { return std::fabs(q.c * q.c + q.s * q.s - 1.0f) <= 1e-6f; };
  if (!convex || !unit(in.transformA.q) || !unit(in.transformB.q)) return;
  const oracle::WorldShape a = oracle::Place(in.proxyA, in.transformA);
  const oracle::WorldShape b = oracle::Place(in.proxyB, in.transformB);
  const double core = oracle::CoreDistance(a, b);
  if (d.coresOverlap ? core > 1e-5 * scale : std::fabs(d.coreDistance - core) > 1e-5 * scale) {
    Fail("ShapeDistance's core distance differs from the exact oracle");
  }
  if (d.coresOverlap && !cores && core == 0.0 && std::isfinite(oracle::CorePenetration(a, b)) &&
      oracle::CorePenetration(a, b) > band) {
    Fail("CoresOverlap says apart, but the cores overlap");
  }
  // (A core far smaller than its distance from the world origin collapses to a point once placed,
  // even in double, and leaves the oracle no axis: an infinite depth, not an answer.)
  if (core == 0.0 && std::isfinite(oracle::CorePenetration(a, b))) {
    const double depth = oracle::CorePenetration(a, b);
    const bool answered =
        pen.status == PenetrationStatus::Epa || pen.status == PenetrationStatus::SatFallback;
    // An answer of "touching" is within the required 1e-4 x scale of any shallower depth (a mm-size
    // triangle 45 um across the end of a 1 m segment: tests/fuzz/corpus/regression_shallow_tip_overlap).
    if (depth > 1e-4 * scale && !answered) Fail("overlapping cores, but ShapePenetration gave no depth");
    if (answered && std::fabs(pen.coreDepth - depth) > 1e-4 * scale) {
      Fail("ShapePenetration's depth differs from the oracle");
    }
  }
}

void Query(const DistanceInput& in, SimplexCache cache, bool convex) {
  const SimplexCache start = cache;
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
  if (Physical(in.proxyA) && Physical(in.proxyB) && Physical(in.transformA) && Physical(in.transformB)) {
    CheckConsistency(in, start, d, convex);
  }
}

// MK_ASSERT is how MakeProxy and ShapeCast refuse bad input: silent while `expectAsserts` is set,
// reported as by the default handler elsewhere.
bool expectAsserts = false;

void OnAssert(const char* expression, const char* file, int line) {
  if (!expectAsserts)
    std::fprintf(stderr, "minkowski: assertion failed: %s (%s:%d)\n", expression, file, line);
}

/// MakeProxy on the raw points and a ShapeCast between them: a proxy it accepts is the input as given,
/// and a cast answers with finite values, a fraction in [0, maxFraction], or no hit (an empty proxy,
/// refused, gives no hit).
void CheckCasts(Reader& r, const FuzzShape& a, const FuzzShape& b, const Transform& xfA,
                const Transform& xfB) {
  expectAsserts = true;
  ShapeCastInput cast;
  cast.proxyA = MakeProxy(a.raw, a.rawProxy.count, a.rawProxy.radius);
  cast.proxyB = MakeProxy(b.raw, b.rawProxy.count, b.rawProxy.radius);
  cast.transformA = xfA;
  cast.transformB = xfB;
  cast.translationB = r.Point();
  cast.maxFraction = r.Float();
  for (const ShapeProxy* p : {&cast.proxyA, &cast.proxyB}) {
    if (p->count != 0 && (p->count != (p == &cast.proxyA ? a : b).rawProxy.count)) {
      Fail("MakeProxy changed the points it accepted");
    }
  }
  const CastOutput out = ShapeCast(cast);
  expectAsserts = false;
  if (!out.hit) return;
  if (!IsFinite(out.point) || !IsFinite(out.normal) || !std::isfinite(out.fraction)) {
    Fail("ShapeCast hit with a non-finite point, normal or fraction");
  }
  if (out.fraction < 0.0f || out.fraction > cast.maxFraction)
    Fail("ShapeCast's fraction is outside [0, max]");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const AssertHandler previous = SetAssertHandler(OnAssert);
  (void)previous;
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
  Query({a.rawProxy, b.rawProxy, xfA, xfB}, cache, false);
  Query({a.Proxy(), b.Proxy(), xfA, xfB}, cache, true);

  CheckCasts(r, a, b, xfA, xfB);

  // Manifolds on validated shapes. GJK/EPA above must survive anything; Collide is held to a finite
  // manifold for physical input: unit rotations and coordinates within kWorldLimit (a 2000 km
  // world), because its clipping arithmetic may legitimately overflow on 1e30 m coordinates or a
  // rotation of length 1e36 (a Transform's rotation must be unit: a programmer error).
  // MK_FUZZ_NO_MANIFOLD=1 in the environment fuzzes distance queries only (to isolate a failure).
  static const bool noManifold = std::getenv("MK_FUZZ_NO_MANIFOLD") != nullptr;
  if (noManifold) return 0;
  SimplexCache manifoldCache = cache;
  Manifold m = Collide(a.geometry, xfA, b.geometry, xfB, &manifoldCache);
  if (Physical(a.Proxy()) && Physical(b.Proxy()) && Physical(xfA) && Physical(xfB) && !Finite(m)) {
    Fail("Collide produced a non-finite manifold for physical input");
  }
  return 0;
}
