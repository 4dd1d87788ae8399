// SPDX-License-Identifier: MIT
// GJK where float rounding is most dangerous: shapes far larger than the distance between them (a
// 400 m ground segment against a 1 m stick, issue 2) and nearly collinear polygon vertices, where a
// chord across them is as close as the true edge to float resolution but has another normal (issue 3).
// Every answer is checked against the exact oracle (oracle.h: double precision on the float inputs).
//
// Accuracy is measured against size = max(1 m, Extent(A), Extent(B)), where Extent is a shape's reach
// from its body origin, max |core point| + radius in its own frame (oracle.h): the float coordinates
// the query works with are only as fine as eps x size. Required: distances within 1e-5 x size,
// penetration depths within 1e-4 x size, and the distance normal within 1e-5 rad wherever the
// separating direction is determined. It is unique whenever the cores are apart (the closest point of
// a convex set to the origin is), but float inputs only fix it as well as it is conditioned: two
// vertices 1 mm apart give their direction only to eps x size / 1 mm. So "determined" here means: the
// exact direction (oracle::Closest) moves by less than 1e-6 rad when B is moved by 1e-6 x size (about
// 8 float ulps of the coordinates) along x or y either way, or turned by that much at its reach.
// Nearly collinear vertices leave the direction determined: such a motion keeps the closest point on
// the same edge unless it lies within 8 ulps of the edge's end (issue 3's lies 1.4 mm inside).
#include "minkowski/distance.h"
#include "narrowphase/oracle.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

using namespace mk;
using oracle::Kind;
using oracle::TestShape;

namespace {

constexpr double kDistanceTolerance = 1e-5;     // x size
constexpr double kPenetrationTolerance = 1e-4;  // x size
constexpr double kNormalTolerance = 1e-5;       // rad
constexpr double kPerturbation = 1e-6;          // x size: "determined" moves B by this much
constexpr double kDeterminedAngle = 1e-6;       // rad: and the exact direction by less than this

double Size(const DistanceInput& in) {
  return std::max({1.0, oracle::Extent(in.proxyA), oracle::Extent(in.proxyB)});
}

double Angle(Vec2 n, oracle::DVec2 m) {
  oracle::DVec2 d = oracle::ToD(n);
  return std::fabs(std::atan2(oracle::DCross(d, m), oracle::DDot(d, m)));
}

/// True when the exact separating direction of the placed, separated cores moves by less than
/// kDeterminedAngle when B is moved by kPerturbation x size along +-x, +-y or turned by that much at
/// its reach about its body origin (see the top of the file).
bool Determined(const oracle::WorldShape& a, const oracle::WorldShape& b, const DistanceInput& in,
                double size) {
  const double delta = kPerturbation * size;
  const oracle::DVec2 n = oracle::Closest(a, b).Normal();
  const oracle::DVec2 origin = oracle::ToD(in.transformB.p);
  const double turn = delta / std::max(oracle::Extent(in.proxyB), 1e-3);
  const oracle::DVec2 shifts[6] = {{delta, 0.0},  {-delta, 0.0}, {0.0, delta},
                                   {0.0, -delta}, {turn, 0.0},   {-turn, 0.0}};
  for (int k = 0; k < 6; ++k) {
    oracle::WorldShape moved = b;
    for (oracle::DVec2& p : moved.points) {
      if (k < 4) {
        p = p + shifts[k];
      } else {
        const double c = std::cos(shifts[k].x);
        const double s = std::sin(shifts[k].x);
        const oracle::DVec2 r = p - origin;
        p = origin + oracle::DVec2{c * r.x - s * r.y, s * r.x + c * r.y};
      }
    }
    if (!(oracle::CoreDistance(a, moved) > 0.0)) return false;
    const oracle::DVec2 m = oracle::Closest(a, moved).Normal();
    if (std::fabs(std::atan2(oracle::DCross(n, m), oracle::DDot(n, m))) >= kDeterminedAngle) return false;
  }
  return true;
}

/// Overlap of the placed cores along a unit axis n (double): max over A of n.a - min over B of n.b.
double OverlapAlong(const oracle::WorldShape& a, const oracle::WorldShape& b, oracle::DVec2 n) {
  double maxA = -INFINITY;
  double minB = INFINITY;
  for (oracle::DVec2 p : a.points) maxA = std::max(maxA, oracle::DDot(n, p));
  for (oracle::DVec2 p : b.points) minB = std::min(minB, oracle::DDot(n, p));
  return maxA - minB;
}

/// What a property test saw; the first few mismatches are reported in full.
struct Tally {
  int failures = 0;
  int separated = 0;
  int overlapping = 0;
  int normals = 0;
  double worstDistance = 0.0;  // / size
  double worstDepth = 0.0;     // / size
  double worstAngle = 0.0;     // rad

  void Fail(const std::string& what, const DistanceInput& in) {
    if (++failures > 8) return;
    char pose[300];
    std::snprintf(
        pose, sizeof pose,
        " (A: %d points, radius %.9g, at %.9g %.9g rot %.9g %.9g; B: %d points, radius %.9g, at %.9g %.9g "
        "rot %.9g %.9g)",
        in.proxyA.count, in.proxyA.radius, in.transformA.p.x, in.transformA.p.y, in.transformA.q.c,
        in.transformA.q.s, in.proxyB.count, in.proxyB.radius, in.transformB.p.x, in.transformB.p.y,
        in.transformB.q.c, in.transformB.q.s);
    FAIL_CHECK(what << pose);
  }
};

/// Every query on one pair against the oracle: ShapeDistance cold and warm (the cache of the cold
/// query at the same pose), CoresOverlap, ShapesOverlap and ShapePenetration. Pairs within the
/// tolerance of touching are only checked for sane output: either answer is right there.
void CheckPair(const DistanceInput& in, Tally& tally) {
  const double size = Size(in);
  const double tolD = kDistanceTolerance * size;
  const double tolP = kPenetrationTolerance * size;
  const oracle::WorldShape a = oracle::Place(in.proxyA, in.transformA);
  const oracle::WorldShape b = oracle::Place(in.proxyB, in.transformB);
  const double radii = a.radius + b.radius;
  // ShapeDistance calls surfaces within 64 ulps of the pair's scale (largest Minkowski coordinate in
  // A's frame, at most max |a - b|, plus the radii) Touching: within that band only the opposite
  // status is wrong.
  double largestW = 0.0;
  for (oracle::DVec2 p : a.points) {
    for (oracle::DVec2 q : b.points) largestW = std::max(largestW, oracle::DLength(p - q));
  }
  const double touching = std::max(tolD, 64.0 * FLT_EPSILON * (largestW + radii));
  const double core = oracle::CoreDistance(a, b);
  const double depth = core == 0.0 ? oracle::CorePenetration(a, b) : 0.0;
  const bool apart = core > tolD;
  const bool overlapping = core == 0.0 && depth > tolD;
  const oracle::ClosestPair closest = apart ? oracle::Closest(a, b) : oracle::ClosestPair{};
  const bool normalDetermined = apart && Determined(a, b, in, size);
  auto text = [](const char* what, double got, double expected) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "%s: got %.9g, exact %.9g", what, got, expected);
    return std::string(buffer);
  };

  SimplexCache cache;
  const DistanceOutput cold = ShapeDistance(in, &cache);
  const DistanceOutput warm = ShapeDistance(in, &cache);
  for (const DistanceOutput* o : {&cold, &warm}) {
    const char* which = o == &cold ? "cold " : "warm ";
    if (o->status == DistanceStatus::InvalidInput || o->status == DistanceStatus::IterationCap ||
        !IsFinite(o->normal) || !std::isfinite(o->coreDistance)) {
      tally.Fail(std::string(which) + "bad status or non-finite output", in);
      continue;
    }
    if (apart) {
      if (o->coresOverlap)
        tally.Fail(text((std::string(which) + "cores reported overlapping").c_str(), 0.0, core), in);
      const double error = std::fabs(o->coreDistance - core);
      tally.worstDistance = std::max(tally.worstDistance, error / size);
      if (error > tolD)
        tally.Fail(text((std::string(which) + "core distance").c_str(), o->coreDistance, core), in);
      const double surface = core - radii;
      if (std::fabs(o->distance - std::max(0.0, surface)) > tolD) {
        tally.Fail(text((std::string(which) + "surface distance").c_str(), o->distance, surface), in);
      }
      if (surface > tolD && (surface > touching ? o->status != DistanceStatus::Separated
                                                : o->status == DistanceStatus::Overlapping)) {
        tally.Fail(text((std::string(which) + "status should be Separated (got " +
                         std::to_string(static_cast<int>(o->status)) + "), surface distance")
                            .c_str(),
                        o->distance, surface),
                   in);
      }
      if (surface < -tolD && (surface < -touching ? o->status != DistanceStatus::Overlapping
                                                  : o->status == DistanceStatus::Separated)) {
        tally.Fail(text((std::string(which) + "status should be Overlapping (got " +
                         std::to_string(static_cast<int>(o->status)) + "), surface distance")
                            .c_str(),
                        -o->penetration, surface),
                   in);
      }
      if (normalDetermined) {
        const double angle = Angle(o->normal, closest.Normal());
        tally.worstAngle = std::max(tally.worstAngle, angle);
        if (angle > kNormalTolerance)
          tally.Fail(text((std::string(which) + "normal angle").c_str(), angle, 0.0), in);
      }
    } else if (overlapping && !o->coresOverlap) {
      tally.Fail(text((std::string(which) + "overlapping cores reported apart, distance").c_str(),
                      o->coreDistance, -depth),
                 in);
    }
  }
  tally.normals += apart && normalDetermined;

  const bool coresOverlap = CoresOverlap(in);
  const bool shapesOverlap = ShapesOverlap(in);
  const PenetrationOutput pen = ShapePenetration(in);
  if (apart) {
    ++tally.separated;
    if (coresOverlap) tally.Fail(text("CoresOverlap says overlapping, core distance", 0.0, core), in);
    if (pen.status != PenetrationStatus::Separated)
      tally.Fail(text("ShapePenetration not Separated, core distance", 0.0, core), in);
    const double surface = core - radii;
    if (surface > touching && shapesOverlap)
      tally.Fail(text("ShapesOverlap says overlapping, surface distance", 0.0, surface), in);
    if (surface < -tolD && !shapesOverlap)
      tally.Fail(text("ShapesOverlap says apart, surface distance", 0.0, surface), in);
  } else if (overlapping) {
    ++tally.overlapping;
    if (!coresOverlap) tally.Fail(text("CoresOverlap says apart, depth", 0.0, depth), in);
    if (!shapesOverlap) tally.Fail(text("ShapesOverlap says apart, depth", 0.0, depth), in);
    if (pen.status != PenetrationStatus::Epa && pen.status != PenetrationStatus::SatFallback) {
      tally.Fail(text("ShapePenetration failed or Separated, depth", 0.0, depth), in);
    } else {
      const double error = std::fabs(pen.coreDepth - depth);
      tally.worstDepth = std::max(tally.worstDepth, error / size);
      if (error > tolP) tally.Fail(text("penetration depth", pen.coreDepth, depth), in);
      // The normal is a minimum-translation direction: the overlap along it is the depth.
      const double along = OverlapAlong(a, b, oracle::ToD(pen.normal));
      if (std::fabs(along - depth) > tolP)
        tally.Fail(text("overlap along the penetration normal", along, depth), in);
    }
  }
}

void Report(const Tally& tally, const char* name) {
  MESSAGE(std::string(name) << ": " << tally.separated << " apart, " << tally.overlapping << " overlapping, "
                            << tally.normals << " normals checked; worst errors: distance "
                            << tally.worstDistance << " x size, depth " << tally.worstDepth
                            << " x size, normal " << tally.worstAngle << " rad");
  CHECK(tally.failures == 0);
}

// ---------------------------------------------------------------------------------------------
// Large against small
// ---------------------------------------------------------------------------------------------

/// A shape 50 m .. 1 km long: a segment, a capsule, a thin box or a large polygon (sharp or rounded),
/// or a circle of that diameter, its core a little off its body origin.
TestShape LargeShape(test::Rng& rng, Kind kind) {
  TestShape s;
  s.kind = kind;
  const float length = rng.LogUniform(50.0f, 1000.0f);
  s.size = length;
  const Vec2 center = rng.InBox(0.05f * length);
  const Vec2 half = 0.5f * length * rng.Direction();
  const float radius = kind == Kind::SharpPolygon ? 0.0f : rng.LogUniform(0.01f, 2.0f);
  switch (kind) {
    case Kind::Circle:
      s.geometry = Circle{center, 0.5f * length};
      break;
    case Kind::Capsule:
      s.geometry = Capsule{center - half, center + half, radius};
      break;
    case Kind::Segment:
      s.geometry = Segment{center - half, center + half};
      break;
    default:
      if (rng.Unit() < 0.6) {
        Polygon box =
            MakeOffsetBox(0.5f * length, rng.LogUniform(0.05f, 5.0f), center, rng.Uniform(-3.1416f, 3.1416f))
                .value;
        box.radius = radius;
        s.geometry = box;
      } else {
        s.geometry = oracle::RandomPolygon(rng, 0.5f * length, 10, radius);
      }
      break;
  }
  return s;
}

/// A point on the large shape's surface (its own frame): on the core, pushed out by the radius for a
/// circle (for the others the small shape's random offset covers the radius).
Vec2 SurfacePoint(test::Rng& rng, const TestShape& s) {
  if (s.kind == Kind::Circle) return s.geometry.Points()[0] + s.geometry.Radius() * rng.Direction();
  const ShapeProxy p = s.Proxy();
  const int i = rng.Int(0, p.count - 1);
  return Lerp(p.points[i], p.points[(i + 1) % p.count], rng.Uniform(0.0f, 1.0f));
}

/// One random pair: a large shape and a small one (5 cm .. 2 m) placed across, on or near its
/// surface, either order.
DistanceInput LargeSmallPair(test::Rng& rng, int trial, TestShape& large, TestShape& small) {
  large = LargeShape(rng, static_cast<Kind>(trial % 5));
  small = oracle::RandomShape(rng, static_cast<Kind>((trial / 5) % 5), 0.05f, 2.0f);
  const Transform xfLarge{rng.InBox(100.0f), MakeRot(rng.Uniform(-3.1416f, 3.1416f))};
  const Vec2 anchor = TransformPoint(xfLarge, SurfacePoint(rng, large));
  const float reach = small.size + (large.kind == Kind::SharpPolygon ? 0.0f : large.Proxy().radius);
  const Transform xfSmall{anchor + rng.Uniform(0.0f, 1.5f) * reach * rng.Direction(),
                          MakeRot(rng.Uniform(-3.1416f, 3.1416f))};
  if ((trial / 25) % 2 == 0) return {large.Proxy(), small.Proxy(), xfLarge, xfSmall};
  return {small.Proxy(), large.Proxy(), xfSmall, xfLarge};
}

void RunLargeSmall(std::uint64_t seed, int trials, const char* name) {
  test::Rng rng(seed);
  Tally tally;
  TestShape large;
  TestShape small;
  for (int trial = 0; trial < trials && tally.failures < 50; ++trial) {
    CheckPair(LargeSmallPair(rng, trial, large, small), tally);
  }
  Report(tally, name);
  CHECK(tally.separated > trials / 5);
  CHECK(tally.overlapping > trials / 10);
  CHECK(tally.normals > trials / 10);
}

// ---------------------------------------------------------------------------------------------
// Nearly collinear vertices
// ---------------------------------------------------------------------------------------------

/// The polygon of issue 3, made as a Hull by hand (ComputeHull drops such nearly collinear points):
/// a straight bottom edge from (-1, 0) to (1, 0) and eight top vertices on the flat parabola
/// y = 0.00155 (1 - x^2).
Polygon IssueThreePolygon() {
  const Vec2 points[] = {{-1.0f, 0.0f},
                         {1.0f, 0.0f},
                         {0.777778268f, 0.000613506592f},
                         {0.555556178f, 0.00107363681f},
                         {0.33333382f, 0.00138039037f},
                         {0.111111291f, 0.00153376721f},
                         {-0.111111291f, 0.00153376721f},
                         {-0.33333382f, 0.00138039037f},
                         {-0.555556178f, 0.00107363681f},
                         {-0.777778268f, 0.000613506592f}};
  Hull hull;
  hull.count = 10;
  for (int i = 0; i < hull.count; ++i) hull.points[i] = points[i];
  GeometryResult<Polygon> polygon = MakePolygon(hull);
  REQUIRE(polygon.ok());
  return polygon.value;
}

/// True when MakePolygon will take the hull: every turn strictly left in float (as it checks).
bool TurnsLeft(const Hull& hull) {
  for (int i = 0; i < hull.count; ++i) {
    Vec2 prev = hull.points[(i + hull.count - 1) % hull.count];
    Vec2 next = hull.points[(i + 1) % hull.count];
    if (!(Cross(hull.points[i] - prev, next - hull.points[i]) > 0.0f)) return false;
  }
  return true;
}

/// Like issue 3's polygon, at random: a straight bottom edge from (-L, 0) to (L, 0) (L 0.5 .. 2 m) and
/// 3..62 evenly spaced top vertices on a flat parabola whose turn at each vertex is 1e-4 .. 1e-2 rad,
/// so a chord that skips a vertex is off the true edge by half that angle (and rises above it by
/// ~1e-6 .. 1e-3 m, which float resolves).
Polygon FlatArcPolygon(test::Rng& rng, float radius, float& halfLength, float& height) {
  for (;;) {
    const int count = rng.Int(5, kMaxPolygonVertices);
    halfLength = rng.Uniform(0.5f, 2.0f);
    const float spacing = 2.0f * halfLength / static_cast<float>(count - 1);
    const float turn = rng.LogUniform(1e-4f, 1e-2f);
    height = turn * halfLength * halfLength / (2.0f * spacing);
    Hull hull;
    hull.count = count;
    hull.points[0] = {-halfLength, 0.0f};
    hull.points[1] = {halfLength, 0.0f};
    for (int k = 2; k < count; ++k) {
      const float x = halfLength - static_cast<float>(k - 1) * spacing;
      const float u = x / halfLength;
      hull.points[k] = {x, height * (1.0f - u * u)};
    }
    if (!TurnsLeft(hull)) continue;
    GeometryResult<Polygon> polygon = MakePolygon(hull, radius);
    if (polygon.ok()) return polygon.value;
  }
}

void RunFlatArcs(std::uint64_t seed, int trials, const char* name) {
  test::Rng rng(seed);
  Tally tally;
  for (int trial = 0; trial < trials && tally.failures < 50; ++trial) {
    TestShape arc;
    arc.kind = trial % 2 == 0 ? Kind::SharpPolygon : Kind::RoundedPolygon;
    float halfLength = 1.0f;
    float height = 0.0f;
    const Polygon polygon = FlatArcPolygon(
        rng, arc.kind == Kind::SharpPolygon ? 0.0f : rng.LogUniform(0.01f, 0.2f), halfLength, height);
    TestShape small = oracle::RandomShape(rng, static_cast<Kind>((trial / 2) % 5), 0.02f, 0.3f);
    // Above the top chain (mostly apart): half the time anywhere along it and a little beyond its
    // ends, half the time just beside one of its vertices, where a chord ending at that vertex is
    // closest to the true edge.
    arc.geometry = polygon;
    const int k = rng.Int(2, polygon.count - 1);
    const float spacing = Distance(polygon.vertices[2], polygon.vertices[3]);
    const float side = rng.Unit() < 0.5 ? -1.0f : 1.0f;
    const float x = trial % 8 < 4 ? rng.Uniform(-1.2f, 1.2f) * halfLength
                                  : polygon.vertices[k].x + side * rng.LogUniform(1e-4f, 0.5f) * spacing;
    const Vec2 local{x, height + rng.LogUniform(0.005f, 2.0f) * halfLength};
    const Transform xfArc{rng.InBox(5.0f), MakeRot(rng.Uniform(-3.1416f, 3.1416f))};
    const Transform xfSmall{TransformPoint(xfArc, local), MakeRot(rng.Uniform(-3.1416f, 3.1416f))};
    if (trial % 4 < 2) {
      CheckPair({arc.Proxy(), small.Proxy(), xfArc, xfSmall}, tally);
    } else {
      CheckPair({small.Proxy(), arc.Proxy(), xfSmall, xfArc}, tally);
    }
  }
  Report(tally, name);
  CHECK(tally.normals > trials / 3);
}

}  // namespace

TEST_SUITE("narrowphase.gjk_precision") {
// Issue 2, first repro. B's end (0.5, 0) lands at y = 0.5 s + t.y = 0.2249 m above the ground's
// line and its other end 0.32 m below, both within the ground's x range: the segments cross. The
// least translation that parts them is along the ground's normal, by that end's height (the other
// axes, the stick's normal both ways and the ground's normal downwards, need 0.32 m or more;
// checked in exact rational arithmetic when the issue was triaged).
TEST_CASE("issue 2: a 1 m stick crossing a 400 m ground segment overlaps by its end's height") {
  const Segment ground{{-200.0f, 0.0f}, {200.0f, 0.0f}};
  const Segment stick{{-0.5f, 0.0f}, {0.5f, 0.0f}};
  const Transform xf = MakeTransform({-31.3465061f, -0.0478960536f}, 0.577019513f);
  const double depth = 0.5 * static_cast<double>(xf.q.s) + static_cast<double>(xf.p.y);  // 0.22486815229...
  CHECK(depth == doctest::Approx(0.2248681523).epsilon(1e-9));
  for (int swap = 0; swap < 2; ++swap) {
    DistanceInput in{MakeProxy(ground), MakeProxy(stick), {}, xf};
    if (swap) in = {MakeProxy(stick), MakeProxy(ground), xf, {}};
    CAPTURE(swap);
    SimplexCache cache;
    for (int warm = 0; warm < 2; ++warm) {
      DistanceOutput out = ShapeDistance(in, &cache);
      CHECK(out.coresOverlap);
      CHECK(out.coreDistance == 0.0f);
      CHECK(out.status == DistanceStatus::Overlapping);
    }
    CHECK(CoresOverlap(in));
    CHECK(ShapesOverlap(in));
    PenetrationOutput pen = ShapePenetration(in);
    REQUIRE(pen.status != PenetrationStatus::Separated);
    // Every coordinate involved is within 0.5 m of the ground's line but for x, which the normal
    // (0, +-1) does not see: the depth is exact to float rounding of the stick's end.
    CHECK(std::fabs(pen.coreDepth - depth) <= 1e-6);
    CHECK(test::Near(pen.normal, swap ? Vec2{0.0f, 1.0f} : Vec2{0.0f, -1.0f}, 1e-6f));
    SeparationOutput separation = ShapeSeparation(in);
    CHECK(separation.separation == doctest::Approx(-depth).epsilon(1e-5));
  }
}

// Issue 2, second repro. The box's lowest corner is its closest point to the ground (all four corners
// are within the ground's x range, above it): distance = min over corners of y, computed in double
// from the float rotation and translation (0.000939760357...). The closest features are a corner
// and the ground's edge, so the normal is the ground's (0, 1).
TEST_CASE("issue 2: a 1 m box 0.94 mm above a 400 m ground segment is reported at that distance") {
  const Segment ground{{-200.0f, 0.0f}, {200.0f, 0.0f}};
  const Polygon box = MakeBox(0.5f, 0.5f).value;
  const Transform xf = MakeTransform({43.4540138f, 0.549681187f}, -1.4678359f);
  double exact = INFINITY;
  for (int i = 0; i < 4; ++i) {
    const Vec2 v = box.vertices[i];
    exact = std::min(exact, double{xf.q.s} * v.x + double{xf.q.c} * v.y + double{xf.p.y});
  }
  CHECK(exact == doctest::Approx(0.000939760357).epsilon(1e-8));
  for (int swap = 0; swap < 2; ++swap) {
    DistanceInput in{MakeProxy(ground), MakeProxy(box), {}, xf};
    if (swap) in = {MakeProxy(box), MakeProxy(ground), xf, {}};
    CAPTURE(swap);
    SimplexCache cache;
    for (int warm = 0; warm < 2; ++warm) {
      DistanceOutput out = ShapeDistance(in, &cache);
      CHECK_FALSE(out.coresOverlap);
      // 0.94 mm is inside the Touching band at this scale (64 ulps of the 244 m Minkowski coordinates,
      // 1.9 mm), so either status is right; Overlapping is not.
      CHECK((out.status == DistanceStatus::Separated || out.status == DistanceStatus::Touching));
      // Ground as A: the only large coordinates are along x, which the normal does not see, so the
      // distance is float-exact. Ground as B: its ends are rotated into the box's frame, each coordinate
      // rounded to an ulp at 200 m (1.5e-5 m), which moves its line by up to that much.
      CHECK(std::fabs(out.coreDistance - exact) <= (swap ? 1.5e-5 : 1e-7));
      CHECK(test::Near(out.normal, swap ? Vec2{0.0f, -1.0f} : Vec2{0.0f, 1.0f}, 1e-6f));
    }
    CHECK_FALSE(CoresOverlap(in));
    CHECK_FALSE(ShapesOverlap(in));
    CHECK(ShapePenetration(in).status == PenetrationStatus::Separated);
  }
}

// Issue 3. The circle's centre projects onto the edge from vertex 7 (-0.333, 0.00138) to vertex 8
// (-0.556, 0.00107), 1.4 mm inside it from vertex 7, so the separating direction is that edge's
// outward normal (computed here in double); a chord from vertex 7 to vertex 9 is as close to float
// resolution but 3.5e-4 rad off.
TEST_CASE("issue 3: the distance normal over nearly collinear vertices is the true edge normal") {
  const Polygon polygon = IssueThreePolygon();
  const Circle circle{{-0.337119251f, 1.70749176f}, 0.1f};
  const oracle::DVec2 v7 = oracle::ToD(polygon.vertices[7]);
  const oracle::DVec2 v8 = oracle::ToD(polygon.vertices[8]);
  const oracle::DVec2 c = oracle::ToD(circle.center);
  const oracle::DVec2 e = v8 - v7;
  const double t = oracle::DDot(c - v7, e) / oracle::DDot(e, e);
  REQUIRE(t * oracle::DLength(e) == doctest::Approx(0.00143).epsilon(0.01));
  const oracle::DVec2 normal = (1.0 / oracle::DLength(e)) * oracle::DVec2{e.y, -e.x};
  const double exact = oracle::DDot(c - v7, normal);
  // The oracle agrees and calls the direction determined.
  const DistanceInput input{MakeProxy(polygon), MakeProxy(circle), {}, {}};
  const oracle::WorldShape a = oracle::Place(input.proxyA, {});
  const oracle::WorldShape b = oracle::Place(input.proxyB, {});
  REQUIRE(oracle::Closest(a, b).distance == doctest::Approx(exact).epsilon(1e-12));
  REQUIRE(Determined(a, b, input, Size(input)));

  for (int swap = 0; swap < 2; ++swap) {
    DistanceInput in{MakeProxy(polygon), MakeProxy(circle), {}, {}};
    if (swap) in = {MakeProxy(circle), MakeProxy(polygon), {}, {}};
    CAPTURE(swap);
    SimplexCache cache;
    for (int warm = 0; warm < 2; ++warm) {
      DistanceOutput out = ShapeDistance(in, &cache);
      CHECK(out.status == DistanceStatus::Separated);
      CHECK(std::fabs(out.coreDistance - exact) <= 1e-6);
      const oracle::DVec2 expected = swap ? oracle::DVec2{-normal.x, -normal.y} : normal;
      CHECK(Angle(out.normal, expected) <= 1e-6);
    }
  }
}

TEST_CASE("a vertex 1e-19 m from the origin does not end GJK: a mm triangle over a segment's end overlaps") {
  // Narrowphase fuzzer: GJK's first support gap was 2.4e-23 and its square (with |p|^2 = 1e-38)
  // underflowed, so the query stopped on that vertex and reported the cores 1e-19 m apart while
  // they overlap by 0.12 mm (tests/fuzz/corpus/regression_tiny_point_gap_underflow).
  const Vec2 triangle[3] = {
      {0.0f, 1.08420217e-19f}, {2.26839339e-30f, -0.000238637425f}, {0.00138039037f, 0.00214471319f}};
  const Vec2 segment[2] = {{0.0f, 0.0f}, {1.0f, 0.0f}};
  const DistanceInput input{{triangle, 3, 0.0f}, {segment, 2, 0.0f}, {}, {}};
  const oracle::WorldShape a = oracle::Place(input.proxyA, {});
  const oracle::WorldShape b = oracle::Place(input.proxyB, {});
  REQUIRE(oracle::CoreDistance(a, b) == 0.0);
  const double depth = oracle::CorePenetration(a, b);
  REQUIRE(depth == doctest::Approx(1.196e-4).epsilon(0.01));
  const DistanceOutput distance = ShapeDistance(input, nullptr);
  CHECK(distance.coresOverlap);
  CHECK(distance.status == DistanceStatus::Overlapping);
  CHECK(CoresOverlap(input, nullptr));
  const PenetrationOutput pen = ShapePenetration(input, nullptr);
  REQUIRE((pen.status == PenetrationStatus::Epa || pen.status == PenetrationStatus::SatFallback));
  CHECK(std::fabs(pen.depth - depth) <= 1e-4);
}

TEST_CASE("long segments and large polygons against small shapes agree with the exact oracle") {
  RunLargeSmall(0x1A26E5EEDull, 4000, "large against small");
}

TEST_CASE("the distance normal over nearly collinear polygon vertices is the exact direction") {
  RunFlatArcs(0xF1A7A6C5ull, 3000, "flat arcs");
}

TEST_CASE("long segments and large polygons against small shapes: 1000000 pairs" *
          doctest::test_suite("long")) {
  RunLargeSmall(0xB16B16ull, 1000000, "large against small (long)");
}

TEST_CASE("nearly collinear polygon vertices against small shapes: 300000 pairs" *
          doctest::test_suite("long")) {
  RunFlatArcs(0xC011EA4ull, 300000, "flat arcs (long)");
}

}  // TEST_SUITE("narrowphase.gjk_precision")
