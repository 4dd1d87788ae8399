// SPDX-License-Identifier: MIT
// Manifold micro-benchmark: nanoseconds per manifold on the 10,000 random octagon pairs of
// octagon_pairs.h (A sharp, B rounded by 0.1 m; the pairs gjk_benchmark uses) placed in contact:
// overlapping up to 5 cm, touching, or apart within the 2 cm speculative distance. Timed: our
// Collide through the pair table with the default method (Auto) and no cache (a new contact: SAT),
// with a warm cache (filled by Auto one small motion earlier: GJK from the SAT seed), and with each
// method forced (GJK with a cold cache, SAT); with MK_HAVE_BOX2D also Box2D 2.4.1's b2CollidePolygons on the
// very same pairs in the same run. Each figure is the median of kRepetitions passes, interleaved (every
// repetition runs every variant once, in an order rotated per repetition, so a slow phase of a loaded machine
// hits all variants alike) and timed with the thread's CPU clock (the wall clock also counts time spent
// descheduled).
//
// Also timed: the circle-circle shortcut (CollideCircles, what the pair table uses) against the
// general path (CollideGeneral on the same two circles), on 10,000 random circle pairs in contact, and
// the polygon-circle shortcut (CollidePolygonAndCircle) against the general path on each pair's
// octagon A with a circle in contact; manifold_property_test.cpp shows them equal. A shortcut stays
// only while it is faster.
//
//   ./manifold_benchmark                      (prints a table; shapes from small pools)
//   ./manifold_benchmark --per-pair-shapes    (every pair owns its two polygons: memory-bound)
//   ./manifold_benchmark --only=warm          (one variant, for callgrind: cold, warm, gjk-cold, sat,
//                                              box2d, circles, circles-general, box-circle or
//                                              box-circle-general)
//
// Instruction counts: the polygon passes are out-of-line functions named *Pass, e.g.
//   valgrind --tool=callgrind --toggle-collect='*ColdPass*' ./manifold_benchmark --only=cold
//   (total Ir / (10,000 x 15 repetitions))
#include "bench_clock.h"
#include "minkowski/distance.h"
#include "minkowski/manifold.h"
#include "octagon_pairs.h"

#ifdef MK_HAVE_BOX2D
#include <box2d/box2d.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

using namespace mk;

namespace {

constexpr int kPairs = bench::kOctagonPairs;
constexpr int kRepetitions = 15;
constexpr float kPi = bench::kPi;
using bench::Rng;

/// Timed variants, run interleaved by Run(): the median ns per manifold of each.
struct Passes {
  std::vector<std::string> names;
  std::vector<std::function<void()>> passes;
  std::vector<double> medians;

  void Add(std::string name, std::function<void()> pass) {
    names.push_back(std::move(name));
    passes.push_back(std::move(pass));
  }
  void Run() {
    const std::size_t n = passes.size();
    std::vector<std::vector<double>> times(n);
    for (int r = 0; r < kRepetitions; ++r) {
      for (std::size_t j = 0; j < n; ++j) {
        std::size_t k = (j + std::size_t(r)) % n;
        double t0 = bench::NowNs();
        passes[k]();
        double t1 = bench::NowNs();
        times[k].push_back((t1 - t0) / kPairs);
      }
    }
    medians.assign(n, 0.0);
    for (std::size_t k = 0; k < n; ++k) {
      std::sort(times[k].begin(), times[k].end());
      medians[k] = times[k][times[k].size() / 2];
    }
  }
  /// Median of the named variant; 0 when it was not run (--only).
  double Get(std::string_view name) const {
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (names[k] == name) return medians[k];
    }
    return 0.0;
  }
};

volatile float gSink;

/// The polygon pairs as the passes read them.
struct PolygonPairs {
  const bench::OctagonPairs* set;
  std::vector<SimplexCache> caches;
};

[[gnu::noinline]] float ColdPass(const PolygonPairs& d, const ManifoldSettings& settings) {
  float sum = 0.0f;
  for (const bench::OctagonPair& p : d.set->pairs) {
    sum += Collide(d.set->shapesA[p.a], p.xfA, d.set->shapesB[p.b], p.xfB, nullptr, settings)
               .points[0]
               .separation;
  }
  return sum;
}

[[gnu::noinline]] float WarmPass(PolygonPairs& d, const ManifoldSettings& settings) {
  float sum = 0.0f;
  for (int i = 0; i < kPairs; ++i) {
    const bench::OctagonPair& p = d.set->pairs[i];
    sum += Collide(d.set->shapesA[p.a], p.xfA, d.set->shapesB[p.b], p.xfB, &d.caches[i], settings)
               .points[0]
               .separation;
  }
  return sum;
}

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
  const bench::OctagonPairs set = bench::MakeOctagonPairs(perPairShapes);
  const std::vector<Polygon>& shapesA = set.shapesA;
  const std::vector<Polygon>& shapesB = set.shapesB;
  const std::vector<bench::OctagonPair>& pairs = set.pairs;
  Rng rng{2025};  // the circle pairs

  std::vector<SimplexCache> caches0(kPairs);
  for (int i = 0; i < kPairs; ++i)
    Collide(shapesA[pairs[i].a], pairs[i].xfA, shapesB[pairs[i].b], pairs[i].xfB0, &caches0[i]);
  PolygonPairs polygonPairs{&set, std::vector<SimplexCache>(kPairs)};
  std::vector<SimplexCache>& caches = polygonPairs.caches;

  int points = 0, onePoint = 0, twoPoints = 0;
  for (const bench::OctagonPair& p : pairs) {
    int n = Collide(shapesA[p.a], p.xfA, shapesB[p.b], p.xfB, nullptr).pointCount;
    points += n;
    onePoint += n == 1;
    twoPoints += n == 2;
  }

  const ManifoldSettings automatic{};  // the default
  const ManifoldSettings gjk{.method = ManifoldMethod::Gjk};
  const ManifoldSettings sat{.method = ManifoldMethod::Sat};
  Passes passes;
  if (wanted("cold")) {
    passes.Add("cold", [&] { gSink = ColdPass(polygonPairs, automatic); });
  }
  // The warm pass restores the caches first; that copy is timed on its own and subtracted.
  passes.Add("copy", [&] {
    std::copy(caches0.begin(), caches0.end(), caches.begin());
    gSink = caches[kPairs / 2].count;
  });
  if (wanted("warm")) {
    passes.Add("warm", [&] {
      std::copy(caches0.begin(), caches0.end(), caches.begin());
      gSink = WarmPass(polygonPairs, automatic);
    });
  }
  if (wanted("gjk-cold")) {
    passes.Add("gjk-cold", [&] { gSink = ColdPass(polygonPairs, gjk); });
  }
  if (wanted("sat")) {
    passes.Add("sat", [&] { gSink = ColdPass(polygonPairs, sat); });
  }

  // Circle pairs in contact (separation -5 cm .. +2 cm), radii 0.1 .. 1 m, for the shortcut.
  struct CirclePair {
    Circle a;
    Circle b;
    Transform xfA;
    Transform xfB;
  };
  std::vector<CirclePair> circles(kPairs);
  for (CirclePair& c : circles) {
    c.a = {{rng.Uniform(-0.1f, 0.1f), rng.Uniform(-0.1f, 0.1f)}, rng.Uniform(0.1f, 1.0f)};
    c.b = {{rng.Uniform(-0.1f, 0.1f), rng.Uniform(-0.1f, 0.1f)}, rng.Uniform(0.1f, 1.0f)};
    c.xfA = MakeTransform({rng.Uniform(-10, 10), rng.Uniform(-10, 10)}, rng.Uniform(-kPi, kPi));
    float direction = rng.Uniform(-kPi, kPi);
    float gap = c.a.radius + c.b.radius + rng.Uniform(-0.05f, 0.02f);
    Transform xfB = MakeTransform({0.0f, 0.0f}, rng.Uniform(-kPi, kPi));
    Vec2 centerA = TransformPoint(c.xfA, c.a.center);
    // Place B's centre at `gap` from A's centre along `direction`.
    xfB.p = centerA + gap * Vec2{std::cos(direction), std::sin(direction)} - Rotate(xfB.q, c.b.center);
    c.xfB = xfB;
  }
  if (wanted("circles")) {
    passes.Add("circles", [&] {
      float sum = 0.0f;
      for (const CirclePair& c : circles) sum += CollideCircles(c.a, c.xfA, c.b, c.xfB).points[0].separation;
      gSink = sum;
    });
  }
  if (wanted("circles-general")) {
    passes.Add("circles-general", [&] {
      float sum = 0.0f;
      for (const CirclePair& c : circles) {
        sum += CollideGeneral(MakeProxy(c.a), c.xfA, MakeProxy(c.b), c.xfB, nullptr).points[0].separation;
      }
      gSink = sum;
    });
  }

  // A circle against each pair's octagon A (radius 0.1 .. 0.5 m), placed as the circle pairs: its
  // centre along a random direction from the octagon's centre, at the distance that gives a separation
  // of -5 cm .. +2 cm to the octagon's vertex or face there (found with the general path), for the
  // polygon-circle shortcut (CollidePolygonAndCircle: no GJK) against the general path.
  struct BoxCirclePair {
    const Polygon* a;
    Circle b;
    Transform xfA;
    Transform xfB;
  };
  std::vector<BoxCirclePair> boxCircles(kPairs);
  for (int i = 0; i < kPairs; ++i) {
    BoxCirclePair& c = boxCircles[i];
    c.a = &shapesA[pairs[i].a];
    c.b = {{0.0f, 0.0f}, rng.Uniform(0.1f, 0.5f)};
    c.xfA = pairs[i].xfA;
    const float direction = rng.Uniform(-kPi, kPi);
    const Vec2 u{std::cos(direction), std::sin(direction)};
    const float target = rng.Uniform(-0.05f, 0.02f);
    // Start 3 m out and step in by the separation the general path reports (at most a few steps).
    float reach = 3.0f;
    for (int k = 0; k < 8; ++k) {
      c.xfB = MakeTransform(c.xfA.p + reach * u, 0.0f);
      const Manifold m = CollideGeneral(MakeProxy(*c.a), c.xfA, MakeProxy(c.b), c.xfB, nullptr,
                                        ManifoldSettings{.speculativeDistance = 10.0f});
      if (m.pointCount == 0) break;
      reach -= m.points[0].separation - target;
    }
  }
  int boxCircleContacts = 0;
  for (const BoxCirclePair& c : boxCircles)
    boxCircleContacts += CollidePolygonAndCircle(*c.a, c.xfA, c.b, c.xfB, nullptr).pointCount;
  if (wanted("box-circle")) {
    passes.Add("box-circle", [&] {
      float sum = 0.0f;
      for (const BoxCirclePair& c : boxCircles)
        sum += CollidePolygonAndCircle(*c.a, c.xfA, c.b, c.xfB, nullptr).normal.x;
      gSink = sum;
    });
  }
  if (wanted("box-circle-general")) {
    passes.Add("box-circle-general", [&] {
      float sum = 0.0f;
      for (const BoxCirclePair& c : boxCircles)
        sum += CollideGeneral(MakeProxy(*c.a), c.xfA, MakeProxy(c.b), c.xfB, nullptr).normal.x;
      gSink = sum;
    });
  }

#ifdef MK_HAVE_BOX2D
  const int shapeCount = static_cast<int>(shapesA.size());
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
    const bench::OctagonPair& p = pairs[i];
    b2A[i] = &b2ShapesA[p.a];
    b2B[i] = &b2ShapesB[p.b];
    b2XfA[i].Set(b2Vec2(p.xfA.p.x, p.xfA.p.y), Angle(p.xfA.q));
    b2XfB[i].Set(b2Vec2(p.xfB.p.x, p.xfB.p.y), Angle(p.xfB.q));
    b2Manifold m;
    b2CollidePolygons(&m, b2A[i], b2XfA[i], b2B[i], b2XfB[i]);
    b2Points += m.pointCount;
  }
  if (wanted("box2d")) {
    passes.Add("box2d", [&] {
      float sum = 0.0f;
      for (int i = 0; i < kPairs; ++i) {
        b2Manifold m;
        b2CollidePolygons(&m, b2A[i], b2XfA[i], b2B[i], b2XfB[i]);
        sum += m.localNormal.x;
      }
      gSink = sum;
    });
    // Box2D's manifold is in local form; the world points the solver uses cost one more call.
    passes.Add("box2d-world", [&] {
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
  }
#endif

  passes.Run();
  const double cold = passes.Get("cold");
  const double warm = passes.Get("warm") > 0.0 ? passes.Get("warm") - passes.Get("copy") : 0.0;
  const double satTime = passes.Get("sat");

  std::printf(
      "Manifold benchmark: %d random octagon pairs (octagon_pairs.h: A sharp ~0.5 m, B rounded ~0.4 + 0.1 m) "
      "in contact,\n",
      kPairs);
  std::printf("%s\n", perPairShapes ? "every pair with its own two polygons"
                                    : "shapes drawn from pools of 64 per side");
  std::printf(
      "(separation -5 cm .. +2 cm), median of %d interleaved passes, thread CPU time; %d points: %d pairs "
      "with 1, %d with 2\n\n",
      kRepetitions, points, onePoint, twoPoints);
  std::printf("| manifold                              | ns/manifold |\n");
  std::printf("| ------------------------------------- | ----------- |\n");
  std::printf("| Minkowski Collide, new contact (SAT)  | %11.1f |\n", cold);
  std::printf("| Minkowski Collide, warm cache (GJK)   | %11.1f |\n", warm);
  std::printf("| Minkowski, GJK method, cold cache     | %11.1f |\n", passes.Get("gjk-cold"));
  std::printf("| Minkowski, SAT method                 | %11.1f |\n", satTime);
#ifdef MK_HAVE_BOX2D
  const double box2d = passes.Get("box2d");
  std::printf("| Box2D 2.4.1 b2CollidePolygons         | %11.1f |\n", box2d);
  std::printf("| Box2D 2.4.1 + b2WorldManifold         | %11.1f |\n", passes.Get("box2d-world"));
#endif
  std::printf("| circles: CollideCircles (shortcut)    | %11.1f |\n", passes.Get("circles"));
  std::printf("| circles: CollideGeneral (GJK path)    | %11.1f |\n", passes.Get("circles-general"));
  std::printf("| octagon-circle: shortcut (no GJK)     | %11.1f |\n", passes.Get("box-circle"));
  std::printf("| octagon-circle: CollideGeneral (GJK)  | %11.1f |\n", passes.Get("box-circle-general"));
#ifdef MK_HAVE_BOX2D
  std::printf(
      "\nratios (Box2D b2CollidePolygons / ours, > 1 = we are faster; target >= 1): new contact %.2f, "
      "warm %.2f, GJK method cold %.2f, SAT method %.2f\n",
      box2d / cold, box2d / warm, box2d / passes.Get("gjk-cold"), box2d / satTime);
  std::printf(
      "against Box2D with its world manifold (the form our Collide returns): new contact %.2f, warm %.2f\n",
      passes.Get("box2d-world") / cold, passes.Get("box2d-world") / warm);
  std::printf(
      "Box2D points on the same pairs: %d (ours %d; Box2D 2.4.1 keeps no speculative points beyond its "
      "radii)\n",
      b2Points, points);
#else
  std::printf("\n(Box2D 2.4.1 not found: no side-by-side figures)\n");
#endif
  std::printf("circle-circle shortcut speed-up over the general path: %.2fx\n",
              passes.Get("circles-general") / passes.Get("circles"));
  std::printf("octagon-circle shortcut speed-up over the general path: %.2fx (%d of %d pairs with a point)\n",
              passes.Get("box-circle-general") / passes.Get("box-circle"), boxCircleContacts, kPairs);
  return 0;
}
