// Manifold micro-benchmark: nanoseconds per manifold on 10,000 random octagon pairs (A sharp, B
// rounded by 0.1 m) placed in contact: overlapping up to 5 cm, touching, or apart within the 2 cm
// speculative distance. Timed: our Collide through the pair table with a cold cache, with a warm
// cache (filled one small motion earlier), and with the SAT method; with MK_HAVE_BOX2D also Box2D
// 2.4.1's b2CollidePolygons on the very same pairs in the same run. Each figure is the median of
// kRepetitions passes.
//
//   ./manifold_benchmark                      (prints a table; shapes from small pools)
//   ./manifold_benchmark --per-pair-shapes    (every pair owns its two polygons: memory-bound)
//   ./manifold_benchmark --only=warm          (one variant, for callgrind: cold, warm, sat or box2d)
#include "minkowski/distance.h"
#include "minkowski/manifold.h"

#ifdef MK_HAVE_BOX2D
#include <box2d/box2d.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <vector>

using namespace mk;

namespace {

constexpr int kPairs = 10000;
constexpr int kRepetitions = 9;
constexpr float kPi = 3.14159265f;

/// Deterministic generator (SplitMix64): every run sees the same pairs.
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

/// A random convex octagon: 8 jittered angles on a circle of jittered radius.
Polygon RandomOctagon(Rng& rng, float size, float radius) {
  for (;;) {
    Vec2 points[8];
    for (int i = 0; i < 8; ++i) {
      float a = 2.0f * kPi * (i + rng.Uniform(0.0f, 0.4f)) / 8.0f;
      float r = size * rng.Uniform(0.8f, 1.0f);
      points[i] = {r * std::cos(a), r * std::sin(a)};
    }
    GeometryResult<Polygon> p = MakePolygon(points, radius);
    if (p.ok() && p.value.count == 8) return p.value;
  }
}

// Shapes come from pools of kShapes per side, shared by the pairs, so the working set of shapes stays
// in cache for both engines: a Polygon holds room for kMaxPolygonVertices (about 1 KB) while Box2D's
// holds 8, and with one shape per pair the timing would mostly measure memory traffic (see the
// --per-pair-shapes option, which gives every pair its own two polygons).
constexpr int kShapes = 64;

struct Pair {
  int a;
  int b;
  Transform xfA;
  Transform xfB;   // pose queried
  Transform xfB0;  // pose one small motion earlier (fills the warm cache)
};

float Separation(const Polygon& a, const Polygon& b, const Transform& xfA, const Transform& xfB) {
  return ShapeSeparation({MakeProxy(a), MakeProxy(b), xfA, xfB}).separation;
}

/// Moves B along `dir` from A's centre until the signed separation is `target` (bisection).
Transform PlaceAt(const Polygon& a, const Polygon& b, const Transform& xfA, Vec2 dir, float angle, float target) {
  float lo = 0.0f, hi = 4.0f;
  for (int k = 0; k < 40; ++k) {
    float mid = 0.5f * (lo + hi);
    float s = Separation(a, b, xfA, MakeTransform(xfA.p + mid * dir, angle));
    (s < target ? lo : hi) = mid;
  }
  return MakeTransform(xfA.p + hi * dir, angle);
}

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

int main(int argc, char** argv) {
  bool perPairShapes = false;
  std::string_view only;  // --only=cold|warm|sat|box2d: time one variant (for callgrind instruction counts)
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--per-pair-shapes") perPairShapes = true;
    if (arg.substr(0, 7) == "--only=") only = arg.substr(7);
  }
  auto wanted = [&](std::string_view name) { return only.empty() || only == name; };
  const int shapeCount = perPairShapes ? kPairs : kShapes;
  Rng rng{2024};
  std::vector<Polygon> shapesA(shapeCount), shapesB(shapeCount);
  for (int i = 0; i < shapeCount; ++i) {
    shapesA[i] = RandomOctagon(rng, 0.5f, 0.0f);
    shapesB[i] = RandomOctagon(rng, 0.4f, 0.1f);
  }
  std::vector<Pair> pairs(kPairs);
  for (int i = 0; i < kPairs; ++i) {
    Pair& p = pairs[i];
    p.a = perPairShapes ? i : static_cast<int>(rng.Next() % kShapes);
    p.b = perPairShapes ? i : static_cast<int>(rng.Next() % kShapes);
    p.xfA = MakeTransform({rng.Uniform(-10, 10), rng.Uniform(-10, 10)}, rng.Uniform(-kPi, kPi));
    float direction = rng.Uniform(-kPi, kPi);
    float angle = rng.Uniform(-kPi, kPi);
    float target = rng.Uniform(-0.05f, 0.02f);
    p.xfB = PlaceAt(shapesA[p.a], shapesB[p.b], p.xfA, {std::cos(direction), std::sin(direction)}, angle, target);
    // One step earlier: 5 mm and 0.01 rad away.
    p.xfB0 = MakeTransform(p.xfB.p + Vec2{rng.Uniform(-0.005f, 0.005f), rng.Uniform(-0.005f, 0.005f)},
                           angle + rng.Uniform(-0.01f, 0.01f));
  }

  std::vector<SimplexCache> caches0(kPairs);
  for (int i = 0; i < kPairs; ++i) Collide(shapesA[pairs[i].a], pairs[i].xfA, shapesB[pairs[i].b], pairs[i].xfB0, &caches0[i]);
  std::vector<SimplexCache> caches(kPairs);

  int points = 0, onePoint = 0, twoPoints = 0;
  for (const Pair& p : pairs) {
    int n = Collide(shapesA[p.a], p.xfA, shapesB[p.b], p.xfB, nullptr).pointCount;
    points += n;
    onePoint += n == 1;
    twoPoints += n == 2;
  }

  const ManifoldSettings gjk{};
  const ManifoldSettings sat{.method = ManifoldMethod::Sat};
  double cold = !wanted("cold") ? 0.0 : MedianNs([&] {
    float sum = 0.0f;
    for (const Pair& p : pairs) sum += Collide(shapesA[p.a], p.xfA, shapesB[p.b], p.xfB, nullptr, gjk).points[0].separation;
    gSink = sum;
  });
  double copy = MedianNs([&] {
    std::copy(caches0.begin(), caches0.end(), caches.begin());
    gSink = caches[kPairs / 2].count;
  });
  double warm = !wanted("warm") ? 0.0 : MedianNs([&] {
    std::copy(caches0.begin(), caches0.end(), caches.begin());
    float sum = 0.0f;
    for (int i = 0; i < kPairs; ++i) {
      const Pair& p = pairs[i];
      sum += Collide(shapesA[p.a], p.xfA, shapesB[p.b], p.xfB, &caches[i], gjk).points[0].separation;
    }
    gSink = sum;
  }) - copy;
  double satTime = !wanted("sat") ? 0.0 : MedianNs([&] {
    float sum = 0.0f;
    for (const Pair& p : pairs) sum += Collide(shapesA[p.a], p.xfA, shapesB[p.b], p.xfB, nullptr, sat).points[0].separation;
    gSink = sum;
  });

  std::printf("Manifold benchmark: %d random octagon pairs (A sharp ~0.5 m, B rounded ~0.4 + 0.1 m) in contact,\n",
              kPairs);
  std::printf("%s\n", perPairShapes ? "every pair with its own two polygons" : "shapes drawn from pools of 64 per side");
  std::printf("(separation -5 cm .. +2 cm), median of %d passes; %d points: %d pairs with 1, %d with 2\n\n",
              kRepetitions, points, onePoint, twoPoints);
  std::printf("| manifold                              | ns/manifold |\n");
  std::printf("| ------------------------------------- | ----------- |\n");
  std::printf("| Minkowski Collide, GJK, cold cache    | %11.1f |\n", cold);
  std::printf("| Minkowski Collide, GJK, warm cache    | %11.1f |\n", warm);
  std::printf("| Minkowski Collide, SAT                | %11.1f |\n", satTime);

#ifdef MK_HAVE_BOX2D
  std::vector<b2PolygonShape> b2ShapesA(shapeCount), b2ShapesB(shapeCount);
  for (int i = 0; i < shapeCount; ++i) {
    b2Vec2 va[8], vb[8];
    for (int k = 0; k < 8; ++k) {
      va[k].Set(shapesA[i].vertices[k].x, shapesA[i].vertices[k].y);
      vb[k].Set(shapesB[i].vertices[k].x, shapesB[i].vertices[k].y);
    }
    b2ShapesA[i].Set(va, 8);
    b2ShapesB[i].Set(vb, 8);
    b2ShapesA[i].m_radius = shapesA[i].radius;
    b2ShapesB[i].m_radius = shapesB[i].radius;
  }
  std::vector<const b2PolygonShape*> b2A(kPairs), b2B(kPairs);
  std::vector<b2Transform> b2XfA(kPairs), b2XfB(kPairs);
  int b2Points = 0;
  for (int i = 0; i < kPairs; ++i) {
    const Pair& p = pairs[i];
    b2A[i] = &b2ShapesA[p.a];
    b2B[i] = &b2ShapesB[p.b];
    b2XfA[i].Set(b2Vec2(p.xfA.p.x, p.xfA.p.y), Angle(p.xfA.q));
    b2XfB[i].Set(b2Vec2(p.xfB.p.x, p.xfB.p.y), Angle(p.xfB.q));
    b2Manifold m;
    b2CollidePolygons(&m, b2A[i], b2XfA[i], b2B[i], b2XfB[i]);
    b2Points += m.pointCount;
  }
  double box2d = !wanted("box2d") ? 0.0 : MedianNs([&] {
    float sum = 0.0f;
    for (int i = 0; i < kPairs; ++i) {
      b2Manifold m;
      b2CollidePolygons(&m, b2A[i], b2XfA[i], b2B[i], b2XfB[i]);
      sum += m.localNormal.x;
    }
    gSink = sum;
  });
  // Box2D's manifold is in local form; the world points the solver uses cost one more call.
  double box2dWorld = !wanted("box2d") ? 0.0 : MedianNs([&] {
    float sum = 0.0f;
    for (int i = 0; i < kPairs; ++i) {
      b2Manifold m;
      b2CollidePolygons(&m, b2A[i], b2XfA[i], b2B[i], b2XfB[i]);
      b2WorldManifold wm;
      wm.Initialize(&m, b2XfA[i], b2A[i]->m_radius, b2XfB[i], b2B[i]->m_radius);
      sum += wm.separations[0];
    }
    gSink = sum;
  });
  std::printf("| Box2D 2.4.1 b2CollidePolygons        | %11.1f |\n", box2d);
  std::printf("| Box2D 2.4.1 + b2WorldManifold        | %11.1f |\n", box2dWorld);
  std::printf("\nratios (Box2D b2CollidePolygons / ours, > 1 = we are faster): cold %.2f, warm %.2f, SAT %.2f\n",
              box2d / cold, box2d / warm, box2d / satTime);
  std::printf("Box2D points on the same pairs: %d (ours %d)\n", b2Points, points);
#else
  std::printf("\n(Box2D 2.4.1 not found: no side-by-side figures)\n");
#endif
  return 0;
}
