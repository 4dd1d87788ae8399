// SPDX-License-Identifier: MIT
// The pair set both narrowphase benchmarks race on (gjk_benchmark and manifold_benchmark), so their
// figures describe the same 10,000 queries: random octagons, A sharp (~0.5 m) and B rounded
// (~0.4 m core + 0.1 m radius), B placed against A along a random direction at a random angle.
//
// Poses per pair:
//   xfB   the pose queried: surface separation uniform in -5 cm .. +2 cm, what a contact in a game
//         sees (overlapping a little, touching, or apart within the 2 cm speculative distance);
//   xfB0  one step earlier, 5 mm and 0.01 rad away: it fills the warm caches;
//   xfDeep the same pair pushed deeper, cores overlapping by 2 .. 30 cm: the EPA queries.
//
// Shapes come from pools of kPoolShapes per side, shared by the pairs, so the working set stays in
// cache for both engines (our Polygon has room for kMaxPolygonVertices, about 1 KB, Box2D's for 8);
// with perPairShapes every pair owns its two polygons and the timing is mostly memory traffic.
#pragma once

#include "minkowski/distance.h"
#include "minkowski/geometry.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace mk::bench {

inline constexpr int kOctagonPairs = 10000;
inline constexpr int kPoolShapes = 64;
inline constexpr float kPi = 3.14159265f;

/// Deterministic generator (SplitMix64): every run sees the same pairs.
struct Rng {
  std::uint64_t state;
  std::uint64_t Next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  float Uniform(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>((Next() >> 40) * 0x1.0p-24);
  }
};

/// A random convex octagon: 8 jittered angles on a circle of jittered radius.
inline Polygon RandomOctagon(Rng& rng, float size, float radius) {
  for (;;) {
    Vec2 points[8];
    for (int i = 0; i < 8; ++i) {
      float a = 2.0f * kPi * (static_cast<float>(i) + rng.Uniform(0.0f, 0.4f)) / 8.0f;
      float r = size * rng.Uniform(0.8f, 1.0f);
      points[i] = {r * std::cos(a), r * std::sin(a)};
    }
    GeometryResult<Polygon> p = MakePolygon(points, radius);
    if (p.ok() && p.value.count == 8) return p.value;
  }
}

struct OctagonPair {
  int a = 0;  ///< index into OctagonPairs::shapesA
  int b = 0;  ///< index into OctagonPairs::shapesB
  Transform xfA;
  Transform xfB;     ///< queried pose (surfaces -5 .. +2 cm apart)
  Transform xfB0;    ///< one small motion earlier (warm caches)
  Transform xfDeep;  ///< cores overlapping (EPA)
};

struct OctagonPairs {
  std::vector<Polygon> shapesA;  ///< sharp
  std::vector<Polygon> shapesB;  ///< rounded by 0.1 m
  std::vector<OctagonPair> pairs;
};

/// Signed distance between the surfaces (negative = overlap depth).
inline float SurfaceSeparation(const Polygon& a, const Polygon& b, const Transform& xfA,
                               const Transform& xfB) {
  return ShapeSeparation({MakeProxy(a), MakeProxy(b), xfA, xfB}).separation;
}

/// Moves B along `dir` from A's origin until the surface separation is `target` (bisection).
inline Transform PlaceAt(const Polygon& a, const Polygon& b, const Transform& xfA, Vec2 dir, float angle,
                         float target) {
  float lo = 0.0f, hi = 4.0f;
  for (int k = 0; k < 40; ++k) {
    float mid = 0.5f * (lo + hi);
    float s = SurfaceSeparation(a, b, xfA, MakeTransform(xfA.p + mid * dir, angle));
    (s < target ? lo : hi) = mid;
  }
  return MakeTransform(xfA.p + hi * dir, angle);
}

inline OctagonPairs MakeOctagonPairs(bool perPairShapes) {
  OctagonPairs set;
  const int shapeCount = perPairShapes ? kOctagonPairs : kPoolShapes;
  Rng rng{2024};
  set.shapesA.resize(shapeCount);
  set.shapesB.resize(shapeCount);
  for (int i = 0; i < shapeCount; ++i) {
    set.shapesA[i] = RandomOctagon(rng, 0.5f, 0.0f);
    set.shapesB[i] = RandomOctagon(rng, 0.4f, 0.1f);
  }
  set.pairs.resize(kOctagonPairs);
  for (int i = 0; i < kOctagonPairs; ++i) {
    OctagonPair& p = set.pairs[i];
    p.a = perPairShapes ? i : static_cast<int>(rng.Next() % kPoolShapes);
    p.b = perPairShapes ? i : static_cast<int>(rng.Next() % kPoolShapes);
    const Polygon& a = set.shapesA[p.a];
    const Polygon& b = set.shapesB[p.b];
    p.xfA = MakeTransform({rng.Uniform(-10, 10), rng.Uniform(-10, 10)}, rng.Uniform(-kPi, kPi));
    float direction = rng.Uniform(-kPi, kPi);
    Vec2 dir{std::cos(direction), std::sin(direction)};
    float angle = rng.Uniform(-kPi, kPi);
    p.xfB = PlaceAt(a, b, p.xfA, dir, angle, rng.Uniform(-0.05f, 0.02f));
    p.xfB0 = MakeTransform(p.xfB.p + Vec2{rng.Uniform(-0.005f, 0.005f), rng.Uniform(-0.005f, 0.005f)},
                           angle + rng.Uniform(-0.01f, 0.01f));
    // Core overlap 2 .. 30 cm: surface separation = -(overlap + B's radius).
    p.xfDeep = PlaceAt(a, b, p.xfA, dir, angle, -(rng.Uniform(0.02f, 0.3f) + b.radius));
  }
  return set;
}

}  // namespace mk::bench
