// GJK / EPA micro-benchmark: nanoseconds per query on 10,000 random octagon pairs (A sharp, B rounded
// by 0.1 m), cold (empty cache) and warm (cache from the previous pose, after a small motion), plus
// EPA on overlapping pairs. With MK_HAVE_BOX2D, Box2D 2.4.1's b2Distance runs on the very same pairs
// in the same process. Each figure is the median of kRepetitions passes.
//
//   ./gjk_benchmark            (prints a table)
#include "minkowski/distance.h"

#ifdef MK_HAVE_BOX2D
#include <box2d/b2_distance.h>
#include <box2d/box2d.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

using namespace mk;

namespace {

constexpr int kPairs = 10000;
constexpr int kRepetitions = 7;

/// Small deterministic generator (SplitMix64), so every run sees the same pairs.
struct Rng {
  std::uint64_t state;
  std::uint64_t Next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  float Uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>((Next() >> 40) * 0x1.0p-24); }
};

struct Pair {
  Transform xfA;
  Transform xfB;   // pose queried
  Transform xfB0;  // pose one small motion earlier (fills the warm cache)
};

template <class F>
double MedianNs(F&& pass) {
  std::vector<double> times;
  for (int r = 0; r < kRepetitions; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    pass();
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / kPairs);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

volatile float gSink;

}  // namespace

int main() {
  Polygon sharp = MakeRegularPolygon(8, 0.5f).value;
  Polygon rounded = MakeRegularPolygon(8, 0.4f, 0.1f).value;
  ShapeProxy proxyA = MakeProxy(sharp);
  ShapeProxy proxyB = MakeProxy(rounded);

  Rng rng{12345};
  std::vector<Pair> pairs(kPairs);
  for (Pair& p : pairs) {
    p.xfA = MakeTransform({rng.Uniform(-10, 10), rng.Uniform(-10, 10)}, rng.Uniform(-3.14f, 3.14f));
    float angle = rng.Uniform(-3.14f, 3.14f);
    float reach = rng.Uniform(1.0f, 2.0f);  // centre distance 1..2 m: mostly separated, some touching
    p.xfB0 = MakeTransform(p.xfA.p + reach * Vec2{std::cos(angle), std::sin(angle)}, rng.Uniform(-3.14f, 3.14f));
    // A small motion: 1 cm and 0.01 rad, what a body does in a step.
    p.xfB = MakeTransform(p.xfB0.p + Vec2{rng.Uniform(-0.01f, 0.01f), rng.Uniform(-0.01f, 0.01f)},
                          Angle(p.xfB0.q) + rng.Uniform(-0.01f, 0.01f));
  }

  // Warm caches from the earlier pose; each pass copies them so every pass measures one warm query.
  std::vector<SimplexCache> caches0(kPairs);
  for (int i = 0; i < kPairs; ++i) ShapeDistance({proxyA, proxyB, pairs[i].xfA, pairs[i].xfB0}, &caches0[i]);
  std::vector<SimplexCache> caches(kPairs);

  long coldIterations = 0, warmIterations = 0;
  for (int i = 0; i < kPairs; ++i) {
    DistanceInput in{proxyA, proxyB, pairs[i].xfA, pairs[i].xfB};
    coldIterations += ShapeDistance(in).iterations;
    SimplexCache c = caches0[i];
    warmIterations += ShapeDistance(in, &c).iterations;
  }

  double cold = MedianNs([&] {
    float sum = 0.0f;
    for (const Pair& p : pairs) sum += ShapeDistance({proxyA, proxyB, p.xfA, p.xfB}).distance;
    gSink = sum;
  });
  double warm = MedianNs([&] {
    std::copy(caches0.begin(), caches0.end(), caches.begin());
    float sum = 0.0f;
    for (int i = 0; i < kPairs; ++i) sum += ShapeDistance({proxyA, proxyB, pairs[i].xfA, pairs[i].xfB}, &caches[i]).distance;
    gSink = sum;
  });
  // The cache copy is part of the warm pass; time it alone and take it out.
  double copy = MedianNs([&] { std::copy(caches0.begin(), caches0.end(), caches.begin()); gSink = caches[kPairs / 2].count; });
  warm -= copy;

  // EPA: the same octagons (both sharp) pushed into each other.
  Polygon sharpB = MakeRegularPolygon(8, 0.5f).value;
  ShapeProxy proxyB2 = MakeProxy(sharpB);
  std::vector<Pair> deep(kPairs);
  std::vector<SimplexCache> deepCaches(kPairs);
  long epaIterations = 0;
  for (int i = 0; i < kPairs; ++i) {
    deep[i] = pairs[i];
    float angle = rng.Uniform(-3.14f, 3.14f);
    deep[i].xfB.p = deep[i].xfA.p + rng.Uniform(0.05f, 0.8f) * Vec2{std::cos(angle), std::sin(angle)};
    DistanceInput in{proxyA, proxyB2, deep[i].xfA, deep[i].xfB};
    ShapeDistance(in, &deepCaches[i]);
    epaIterations += ShapePenetration(in, &deepCaches[i]).iterations;
  }
  double epa = MedianNs([&] {
    float sum = 0.0f;
    for (int i = 0; i < kPairs; ++i) {
      sum += ShapePenetration({proxyA, proxyB2, deep[i].xfA, deep[i].xfB}, &deepCaches[i]).depth;
    }
    gSink = sum;
  });

  std::printf("GJK benchmark: %d random octagon pairs (A sharp r=0.5, B rounded 0.4 + 0.1), median of %d\n\n",
              kPairs, kRepetitions);
  std::printf("| query                       | ns/query | iterations |\n");
  std::printf("| --------------------------- | -------- | ---------- |\n");
  std::printf("| Minkowski GJK cold          | %8.1f | %10.2f |\n", cold, double(coldIterations) / kPairs);
  std::printf("| Minkowski GJK warm          | %8.1f | %10.2f |\n", warm, double(warmIterations) / kPairs);
  std::printf("| Minkowski EPA (overlapping) | %8.1f | %10.2f |\n", epa, double(epaIterations) / kPairs);

#ifdef MK_HAVE_BOX2D
  b2DistanceProxy b2A;
  b2DistanceProxy b2B;
  b2Vec2 va[8];
  b2Vec2 vb[8];
  for (int i = 0; i < 8; ++i) {
    va[i] = {sharp.vertices[i].x, sharp.vertices[i].y};
    vb[i] = {rounded.vertices[i].x, rounded.vertices[i].y};
  }
  b2A.Set(va, 8, 0.0f);
  b2B.Set(vb, 8, 0.1f);
  auto ToB2 = [](const Transform& xf) {
    b2Transform t;
    t.p = {xf.p.x, xf.p.y};
    t.q.c = xf.q.c;
    t.q.s = xf.q.s;
    return t;
  };
  std::vector<b2DistanceInput> inputs(kPairs);
  std::vector<b2SimplexCache> b2Caches0(kPairs);
  std::vector<b2SimplexCache> b2Caches(kPairs);
  long b2Cold = 0, b2Warm = 0;
  double maxDiff = 0.0;
  for (int i = 0; i < kPairs; ++i) {
    b2DistanceInput& in = inputs[i];
    in.proxyA = b2A;
    in.proxyB = b2B;
    in.transformA = ToB2(pairs[i].xfA);
    in.transformB = ToB2(pairs[i].xfB0);
    in.useRadii = true;
    b2DistanceOutput out;
    b2Caches0[i].count = 0;
    b2Distance(&out, &b2Caches0[i], &in);
    in.transformB = ToB2(pairs[i].xfB);
    b2SimplexCache c;
    c.count = 0;
    b2Distance(&out, &c, &in);
    b2Cold += out.iterations;
    double ours = ShapeDistance({proxyA, proxyB, pairs[i].xfA, pairs[i].xfB}).distance;
    maxDiff = std::max(maxDiff, std::fabs(ours - out.distance));
    c = b2Caches0[i];
    b2Distance(&out, &c, &in);
    b2Warm += out.iterations;
  }
  double b2ColdNs = MedianNs([&] {
    float sum = 0.0f;
    b2DistanceOutput out;
    for (const b2DistanceInput& in : inputs) {
      b2SimplexCache c;
      c.count = 0;
      b2Distance(&out, &c, &in);
      sum += out.distance;
    }
    gSink = sum;
  });
  double b2WarmNs = MedianNs([&] {
    std::copy(b2Caches0.begin(), b2Caches0.end(), b2Caches.begin());
    float sum = 0.0f;
    b2DistanceOutput out;
    for (int i = 0; i < kPairs; ++i) {
      b2Distance(&out, &b2Caches[i], &inputs[i]);
      sum += out.distance;
    }
    gSink = sum;
  });
  double b2Copy = MedianNs([&] { std::copy(b2Caches0.begin(), b2Caches0.end(), b2Caches.begin()); gSink = b2Caches[0].count; });
  b2WarmNs -= b2Copy;
  std::printf("| Box2D 2.4.1 b2Distance cold | %8.1f | %10.2f |\n", b2ColdNs, double(b2Cold) / kPairs);
  std::printf("| Box2D 2.4.1 b2Distance warm | %8.1f | %10.2f |\n", b2WarmNs, double(b2Warm) / kPairs);
  std::printf("\nratio Box2D/ours: cold %.2fx, warm %.2fx (targets: cold >= 1.0x, warm >= 1.5x)\n",
              b2ColdNs / cold, b2WarmNs / warm);
  std::printf("largest |distance difference| to Box2D: %.3g m\n", maxDiff);
#else
  std::printf("\n(Box2D 2.4.1 not found: no side-by-side figures)\n");
#endif
  return 0;
}
