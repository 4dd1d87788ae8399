// SPDX-License-Identifier: MIT
// Every narrowphase kernel on wide floats (gjk_internal.h, face_scan.h, manifold_internal.h) run on
// each lane type: the SSE2 instance against its scalar twin bit for bit, and each against a plain
// scalar loop (the oracle) on every count and remainder, with ties and float edge cases.
#include "core/lane_test_util.h"
#include "minkowski/geometry.h"
#include "narrowphase/face_scan.h"
#include "narrowphase/gjk_internal.h"
#include "narrowphase/manifold_internal.h"
#include "narrowphase/oracle.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace mk;
using test::SameBits;

namespace {

using Twin = wide::ScalarFloat<4>;

/// A coordinate for kernel inputs: ordinary values, repeats of earlier ones (ties), -0 and +0,
/// integers, tiny, subnormal and large values, small enough that no dot product overflows (no NaN).
float KernelFloat(test::Rng& rng, const Vec2* earlier, int count) {
  switch (rng.Int(0, 9)) {
    case 0:
      return rng.Int(0, 1) == 0 ? 0.0f : -0.0f;
    case 1:
    case 2:
      return count > 0 ? earlier[rng.Int(0, count - 1)].x : 1.0f;
    case 3:
      return static_cast<float>(rng.Int(-2, 2));
    case 4:
      return rng.Uniform(-1.0f, 1.0f) * 1e-20f;
    case 5:
      return rng.Uniform(-1.0f, 1.0f) * 1e-40f;
    case 6:
      return rng.Uniform(-1.0f, 1.0f) * 1e12f;
    default:
      return rng.Uniform(-10.0f, 10.0f);
  }
}

/// count points: random, or (one trial in four) copies of a few, so whole groups tie.
void RandomPoints(test::Rng& rng, Vec2* points, int count) {
  const bool fewDistinct = rng.Int(0, 3) == 0;
  const int distinct = fewDistinct ? rng.Int(1, 3) : count;
  for (int i = 0; i < count; ++i) {
    if (i >= distinct) {
      points[i] = points[rng.Int(0, distinct - 1)];
      continue;
    }
    const float x = KernelFloat(rng, points, i);
    const float y = KernelFloat(rng, points, i);
    points[i] = {x, y};
  }
}

/// A direction: random unit, an axis (ties along edges of axis-aligned points), or zero.
Vec2 RandomDirection(test::Rng& rng) {
  switch (rng.Int(0, 5)) {
    case 0:
      return {0.0f, 1.0f};
    case 1:
      return {-1.0f, -0.0f};
    case 2:
      return {0.0f, 0.0f};
    default:
      return rng.Direction();
  }
}

/// Points and a direction for the scans; the count cycles through 1..kMaxPolygonVertices with the trial.
struct ScanInput {
  Vec2 points[kMaxPolygonVertices];
  int count;
  Vec2 d;
};

ScanInput RandomScanInput(test::Rng& rng, int trial) {
  ScanInput in;
  in.count = 1 + trial % kMaxPolygonVertices;
  RandomPoints(rng, in.points, in.count);
  in.d = RandomDirection(rng);
  return in;
}

int ScalarArgMaxDot(const Vec2* v, int count, Vec2 d) {
  int best = 0;
  for (int i = 1; i < count; ++i) best = Dot(v[i], d) > Dot(v[best], d) ? i : best;
  return best;
}

float ScalarMinDot(const Vec2* v, int count, Vec2 d) {
  float best = Dot(v[0], d);
  for (int i = 1; i < count; ++i) best = Dot(v[i], d) < best ? Dot(v[i], d) : best;
  return best;
}

SatResult ScalarMaxFaceSeparation(const Core& a, const Core& b) {
  SatResult best;
  const int faces = a.count < 2 ? 0 : a.count;
  for (int i = 0; i < faces; ++i) {
    const float s = ScalarMinDot(b.points, b.count, a.normals[i]) - Dot(a.points[i], a.normals[i]);
    if (s > best.separation) best = {s, i, false};
  }
  return best;
}

/// Two cores for the face scan: random arrays (normals of any length, ties) or, one trial in
/// three, convex polygons with their unit normals. Counts 1..kMaxPolygonVertices each.
struct CorePair {
  Vec2 pointsA[kMaxPolygonVertices], normalsA[kMaxPolygonVertices];
  Vec2 pointsB[kMaxPolygonVertices], normalsB[kMaxPolygonVertices];
  Core a, b;
};

void RandomCore(test::Rng& rng, Vec2* points, Vec2* normals, Core& core) {
  int count = rng.Int(1, kMaxPolygonVertices);
  if (rng.Int(0, 2) == 0) {
    const Polygon polygon = oracle::RandomPolygon(rng, rng.Uniform(0.1f, 5.0f), kMaxPolygonVertices, 0.0f);
    count = polygon.count;
    for (int i = 0; i < count; ++i) {
      points[i] = polygon.vertices[i] + Vec2{rng.Uniform(-3.0f, 3.0f), 0.0f};
      normals[i] = polygon.normals[i];
    }
  } else {
    RandomPoints(rng, points, count);
    RandomPoints(rng, normals, count);
  }
  core = {points, normals, count, 0.0f};
}

CorePair RandomCorePair(test::Rng& rng) {
  CorePair p;
  RandomCore(rng, p.pointsA, p.normalsA, p.a);
  RandomCore(rng, p.pointsB, p.normalsB, p.b);
  return p;
}

}  // namespace

TEST_SUITE("narrowphase.lanes") {

TEST_CASE("Dots gives Dot's bits for every point of the register") {
  test::ForEachLaneType([]<class F>() {
    test::Rng rng(21);
    int mismatches = 0;
    for (int trial = 0; trial < 5000; ++trial) {
      Vec2 points[F::kLanes];
      RandomPoints(rng, points, F::kLanes);
      const Vec2 d = RandomDirection(rng);
      const auto dots = test::ToArray(detail::Dots(points, F::SplatPair(d.x, d.y)));
      for (int i = 0; i < F::kLanes; ++i) mismatches += SameBits(dots[i], Dot(points[i], d)) ? 0 : 1;
    }
    CHECK_MESSAGE(mismatches == 0, std::string(test::LaneTypeName<F>()));
  });
}

TEST_CASE("the argmax scan picks the scalar scan's index on every count and the twins agree") {
  test::Rng rng(22);
  int mismatches = 0;
  std::string first;
  for (int trial = 0; trial < 30000; ++trial) {
    const ScanInput in = RandomScanInput(rng, trial);
    const Vec2* points = in.points;
    const int count = in.count;
    const Vec2 d = in.d;
    const int expected = ScalarArgMaxDot(points, count, d);
    const int geometryScan = FindSupportScan({points, count, 0.0f}, d);
    const int twin = detail::ArgMaxDot<Twin>(points, count, d);
    test::ForEachLaneType([&]<class F>() {
      const int index = detail::ArgMaxDot<F>(points, count, d);
      // Bit for bit against the twin; against the scalar scans by value.
      const bool ok = index == expected && index == geometryScan && (F::kLanes != 4 || index == twin);
      if (!ok && mismatches++ == 0) {
        first = std::string(test::LaneTypeName<F>()) + " count " + std::to_string(count) + " trial " +
                std::to_string(trial) + ": " + std::to_string(index) + " instead of " +
                std::to_string(expected);
      }
    });
    // The engine's entry (this build's Float4) agrees too.
    if (count < kHillClimbMinVertices) mismatches += detail::Support(points, count, d, 0) == expected ? 0 : 1;
  }
  CHECK_MESSAGE(mismatches == 0, mismatches << " mismatches, first " << first);
}

TEST_CASE("MinDot gives the scalar minimum on every count and the twins agree bit for bit") {
  test::Rng rng(23);
  int mismatches = 0;
  for (int trial = 0; trial < 30000; ++trial) {
    const ScanInput in = RandomScanInput(rng, trial);
    const float expected = ScalarMinDot(in.points, in.count, in.d);
    const float twin = MinDot<Twin>(in.points, in.count, in.d);
    test::ForEachLaneType([&]<class F>() {
      const float value = MinDot<F>(in.points, in.count, in.d);
      mismatches += value == expected && (F::kLanes != 4 || SameBits(value, twin)) ? 0 : 1;
    });
  }
  CHECK(mismatches == 0);
}

TEST_CASE("the SAT face scan picks the scalar scan's face and separation and the twins agree bit for bit") {
  test::Rng rng(24);
  int mismatches = 0;
  std::string first;
  for (int trial = 0; trial < 20000; ++trial) {
    const CorePair p = RandomCorePair(rng);
    const SatResult expected = ScalarMaxFaceSeparation(p.a, p.b);
    const SatResult twin = MaxFaceSeparation<Twin>(p.a, p.b, true);
    test::ForEachLaneType([&]<class F>() {
      const SatResult r = MaxFaceSeparation<F>(p.a, p.b, true);
      const bool sameAsTwin =
          F::kLanes != 4 || (r.face == twin.face && SameBits(r.separation, twin.separation));
      const bool ok = r.face == expected.face && r.separation == expected.separation && r.onB && sameAsTwin;
      if (!ok && mismatches++ == 0) {
        first = std::string(test::LaneTypeName<F>()) + " faces " + std::to_string(p.a.count) + " points " +
                std::to_string(p.b.count) + " trial " + std::to_string(trial) + ": face " +
                std::to_string(r.face) + " separation " + std::to_string(r.separation) + " instead of " +
                std::to_string(expected.face) + " " + std::to_string(expected.separation) + " (twin " +
                std::to_string(twin.separation) + ")";
      }
    });
  }
  CHECK_MESSAGE(mismatches == 0, mismatches << " mismatches, first " << first);
}

TEST_CASE("TransformVectors gives TransformPoint's and Rotate's bits on every count") {
  test::Rng rng(25);
  int mismatches = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int count = rng.Int(2, kMaxPolygonVertices);
    Vec2 in[kMaxPolygonVertices];
    RandomPoints(rng, in, count);
    const Transform xf =
        trial % 5 == 0 ? Transform{} : MakeTransform(rng.InBox(100.0f), rng.Uniform(-4.0f, 4.0f));
    const bool translate = trial % 2 == 0;
    test::ForEachLaneType([&]<class F>() {
      if (count < F::kLanes / 2) return;
      Vec2 out[kMaxPolygonVertices];
      TransformVectors<F>(in, out, count, xf, translate);
      for (int i = 0; i < count; ++i) {
        // Without translation the kernel adds +0 (-0 + 0 is +0).
        const Vec2 expected = translate ? TransformPoint(xf, in[i]) : Rotate(xf.q, in[i]) + Vec2{0.0f, 0.0f};
        mismatches += SameBits(out[i], expected) ? 0 : 1;
      }
    });
  }
  CHECK(mismatches == 0);
}

TEST_CASE("the finiteness probes agree with std::isfinite whichever lane holds the infinity or NaN") {
  test::Rng rng(26);
  const float bad[3] = {INFINITY, -INFINITY, std::nanf("")};
  int mismatches = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    float v[9];
    for (float& x : v) x = rng.Uniform(-1e30f, 1e30f);
    if (trial % 4 != 0) v[rng.Int(0, 8)] = bad[rng.Int(0, 2)];
    bool finite = true;
    for (float x : v) finite = finite && std::isfinite(x);
    const Transform a{{v[0], v[1]}, {v[2], v[3]}};
    const Transform b{{v[4], v[5]}, {v[6], v[7]}};
    test::ForEachFourLaneType([&]<class F>() {
      mismatches += detail::FiniteTransforms<F>(a, b, v[8]) == finite ? 0 : 1;
      const bool outputs = std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]) &&
                           std::isfinite(v[3]) && std::isfinite(v[4]) && std::isfinite(v[5]) &&
                           std::isfinite(v[6]);
      mismatches +=
          detail::FiniteOutputs<F>({v[0], v[1]}, {v[2], v[3]}, {v[4], v[5]}, v[6]) == outputs ? 0 : 1;
    });
  }
  CHECK(mismatches == 0);
}

}  // TEST_SUITE("narrowphase.lanes")
