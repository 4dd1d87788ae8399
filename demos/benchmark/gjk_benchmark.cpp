// SPDX-License-Identifier: MIT
// GJK / EPA micro-benchmark: nanoseconds per query on the 10,000 random octagon pairs of
// octagon_pairs.h (A sharp, B rounded by 0.1 m; the pairs manifold_benchmark uses), cold (empty cache)
// and warm (cache from the pose one small motion earlier), plus EPA on the same pairs pushed into
// overlap. With MK_HAVE_BOX2D, Box2D 2.4.1's b2Distance runs on the very same pairs in the same
// process, interleaved with ours.
//
//   ./gjk_benchmark                        (prints a table: median of --reps interleaved passes)
//   ./gjk_benchmark --reps 101             (more passes, steadier medians on a loaded machine)
//   ./gjk_benchmark --wall                 (wall-clock time instead of thread CPU time)
//   ./gjk_benchmark --per-pair-shapes      (every pair owns its two octagons: memory-bound)
//   ./gjk_benchmark --only ours-warm       (one pass kind only, for callgrind; kinds: ours-cold,
//                                           ours-warm, b2-cold, b2-warm, epa)
//
// Instruction counts per query with callgrind (the pass functions are named *Pass):
//   valgrind --tool=callgrind --toggle-collect='*::OursWarmPass(*' ./gjk_benchmark --only ours-warm --reps 1
//   (total Ir / 10,000; the pattern must not also match the RunOurs<...OursWarmPass> wrapper, whose
//   entry would toggle collection back off)
//
// Fairness: both engines get the same poses, read their shapes through their own proxies, read their
// per-pair inputs from an array of their own input structs (DistanceInput, 64 bytes; b2DistanceInput,
// 108 bytes), and warm-start the same way: a per-query copy of the cache filled at the earlier pose,
// no cache copy outside the timing.
//
// Timing: each pass is timed with the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) by default. On a
// loaded machine the wall clock also counts the time the thread sits descheduled while other
// processes run, which inflated one pass or another by 2-5x at random (see the report in git log).
#include "bench_clock.h"
#include "minkowski/distance.h"
#include "octagon_pairs.h"

#ifdef MK_HAVE_BOX2D
#include <box2d/b2_distance.h>
#include <box2d/box2d.h>
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

using namespace mk;

namespace {

constexpr int kPairs = bench::kOctagonPairs;

struct OursData {
  std::vector<DistanceInput> inputs;      // at xfB, like Box2D's array of b2DistanceInput
  std::vector<SimplexCache> caches0;      // filled at xfB0
  std::vector<DistanceInput> deepInputs;  // at xfDeep (cores overlap)
  std::vector<SimplexCache> deepCaches;   // GJK's terminal simplex there, EPA's start
};

bool gWall = false;

double NowNs() { return bench::NowNs(gWall); }

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

volatile float gSink;

// The timed passes, out of line so callgrind can attribute them (--toggle-collect='*Pass*').
[[gnu::noinline]] float OursColdPass(const OursData& d) {
  float sum = 0.0f;
  for (const DistanceInput& in : d.inputs) sum += ShapeDistance(in).distance;
  return sum;
}

[[gnu::noinline]] float OursWarmPass(const OursData& d) {
  float sum = 0.0f;
  for (int i = 0; i < kPairs; ++i) {
    SimplexCache c = d.caches0[i];
    sum += ShapeDistance(d.inputs[i], &c).distance;
  }
  return sum;
}

[[gnu::noinline]] float OursEpaPass(const OursData& d) {
  float sum = 0.0f;
  for (int i = 0; i < kPairs; ++i) {
    sum += ShapePenetration(d.deepInputs[i], &d.deepCaches[i]).depth;
  }
  return sum;
}

#ifdef MK_HAVE_BOX2D
struct B2Data {
  std::vector<std::array<b2Vec2, 8>> va;  // per pool shape; the proxies point into these
  std::vector<std::array<b2Vec2, 8>> vb;
  std::vector<b2DistanceInput> inputs;  // at xfB
  std::vector<b2SimplexCache> caches0;  // filled at xfB0
};

[[gnu::noinline]] float B2ColdPass(const B2Data& d) {
  float sum = 0.0f;
  b2DistanceOutput out;
  for (const b2DistanceInput& in : d.inputs) {
    b2SimplexCache c;
    c.count = 0;
    b2Distance(&out, &c, &in);
    sum += out.distance;
  }
  return sum;
}

[[gnu::noinline]] float B2WarmPass(const B2Data& d) {
  float sum = 0.0f;
  b2DistanceOutput out;
  for (int i = 0; i < kPairs; ++i) {
    b2SimplexCache c = d.caches0[i];
    b2Distance(&out, &c, &d.inputs[i]);
    sum += out.distance;
  }
  return sum;
}

b2Transform ToB2(const Transform& xf) {
  b2Transform t;
  t.p = {xf.p.x, xf.p.y};
  t.q.c = xf.q.c;
  t.q.s = xf.q.s;
  return t;
}
#endif

struct Kind {
  const char* name;
  float (*run)(const void*);
  const void* data;
};

template <float (*F)(const OursData&)>
float RunOurs(const void* d) {
  return F(*static_cast<const OursData*>(d));
}
#ifdef MK_HAVE_BOX2D
template <float (*F)(const B2Data&)>
float RunB2(const void* d) {
  return F(*static_cast<const B2Data*>(d));
}
#endif

}  // namespace

int main(int argc, char** argv) {
  int reps = 31;
  const char* only = nullptr;
  bool perPairShapes = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--reps" && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (arg == "--per-pair-shapes") {
      perPairShapes = true;
    } else if (arg == "--wall") {
      gWall = true;
    } else {
      std::fprintf(stderr,
                   "usage: gjk_benchmark [--reps N] [--wall] [--per-pair-shapes] [--only "
                   "ours-cold|ours-warm|b2-cold|b2-warm|epa]\n");
      return 2;
    }
  }

  const bench::OctagonPairs set = bench::MakeOctagonPairs(perPairShapes);
  std::vector<ShapeProxy> proxiesA, proxiesB;
  for (const Polygon& p : set.shapesA) proxiesA.push_back(MakeProxy(p));
  for (const Polygon& p : set.shapesB) proxiesB.push_back(MakeProxy(p));

  OursData ours;
  ours.caches0.resize(kPairs);
  ours.deepCaches.resize(kPairs);
  long coldIterations = 0, warmIterations = 0, epaIterations = 0, overlapping = 0;
  for (int i = 0; i < kPairs; ++i) {
    const bench::OctagonPair& p = set.pairs[i];
    const ShapeProxy& a = proxiesA[p.a];
    const ShapeProxy& b = proxiesB[p.b];
    ours.inputs.push_back({a, b, p.xfA, p.xfB});
    ShapeDistance({a, b, p.xfA, p.xfB0}, &ours.caches0[i]);
    coldIterations += ShapeDistance(ours.inputs[i]).iterations;
    SimplexCache c = ours.caches0[i];
    warmIterations += ShapeDistance(ours.inputs[i], &c).iterations;
    // EPA starts from GJK's terminal simplex, which the caller's cache holds after ShapeDistance.
    ours.deepInputs.push_back({a, b, p.xfA, p.xfDeep});
    overlapping +=
        ShapeDistance(ours.deepInputs[i], &ours.deepCaches[i]).status == DistanceStatus::Overlapping;
    epaIterations += ShapePenetration(ours.deepInputs[i], &ours.deepCaches[i]).iterations;
  }

  std::vector<Kind> kinds = {{"ours-cold", RunOurs<OursColdPass>, &ours},
                             {"ours-warm", RunOurs<OursWarmPass>, &ours},
                             {"epa", RunOurs<OursEpaPass>, &ours}};

#ifdef MK_HAVE_BOX2D
  B2Data b2;
  std::vector<b2DistanceProxy> b2ProxiesA(set.shapesA.size()), b2ProxiesB(set.shapesB.size());
  b2.va.resize(set.shapesA.size());
  b2.vb.resize(set.shapesB.size());
  for (std::size_t s = 0; s < set.shapesA.size(); ++s) {
    for (int k = 0; k < 8; ++k) {
      b2.va[s][k] = {set.shapesA[s].vertices[k].x, set.shapesA[s].vertices[k].y};
      b2.vb[s][k] = {set.shapesB[s].vertices[k].x, set.shapesB[s].vertices[k].y};
    }
    b2ProxiesA[s].Set(b2.va[s].data(), 8, set.shapesA[s].radius);
    b2ProxiesB[s].Set(b2.vb[s].data(), 8, set.shapesB[s].radius);
  }
  b2.inputs.resize(kPairs);
  b2.caches0.resize(kPairs);
  long b2Cold = 0, b2Warm = 0;
  double maxDiff = 0.0, maxWarmDiff = 0.0;
  for (int i = 0; i < kPairs; ++i) {
    const bench::OctagonPair& p = set.pairs[i];
    b2DistanceInput& in = b2.inputs[i];
    in.proxyA = b2ProxiesA[p.a];
    in.proxyB = b2ProxiesB[p.b];
    in.transformA = ToB2(p.xfA);
    in.transformB = ToB2(p.xfB0);
    in.useRadii = true;
    b2DistanceOutput out;
    b2.caches0[i].count = 0;
    b2Distance(&out, &b2.caches0[i], &in);
    in.transformB = ToB2(p.xfB);
    b2SimplexCache c;
    c.count = 0;
    b2Distance(&out, &c, &in);
    b2Cold += out.iterations;
    maxDiff = std::max(maxDiff, double(std::fabs(ShapeDistance(ours.inputs[i]).distance - out.distance)));
    SimplexCache ourCache = ours.caches0[i];
    maxWarmDiff = std::max(
        maxWarmDiff, double(std::fabs(ShapeDistance(ours.inputs[i], &ourCache).distance - out.distance)));
    c = b2.caches0[i];
    b2Distance(&out, &c, &in);
    b2Warm += out.iterations;
  }
  kinds.push_back({"b2-cold", RunB2<B2ColdPass>, &b2});
  kinds.push_back({"b2-warm", RunB2<B2WarmPass>, &b2});
#endif

  if (only != nullptr) {
    auto it = std::find_if(kinds.begin(), kinds.end(),
                           [&](const Kind& k) { return std::strcmp(k.name, only) == 0; });
    if (it == kinds.end()) {
      std::fprintf(stderr, "unknown pass kind '%s'\n", only);
      return 2;
    }
    for (int r = 0; r < reps; ++r) gSink = it->run(it->data);
    return 0;
  }

  // Interleaved: every repetition runs every kind once, in an order rotated per repetition, so slow
  // phases of the machine hit all kinds alike.
  std::vector<std::vector<double>> times(kinds.size());
  for (int r = 0; r < reps; ++r) {
    for (std::size_t j = 0; j < kinds.size(); ++j) {
      const Kind& k = kinds[(j + std::size_t(r)) % kinds.size()];
      double t0 = NowNs();
      gSink = k.run(k.data);
      double t1 = NowNs();
      times[(j + std::size_t(r)) % kinds.size()].push_back((t1 - t0) / kPairs);
    }
  }
  std::vector<double> ns(kinds.size());
  for (std::size_t j = 0; j < kinds.size(); ++j) ns[j] = Median(times[j]);

  std::printf(
      "GJK benchmark: %d random octagon pairs (octagon_pairs.h: A sharp ~0.5 m, B rounded ~0.4 + 0.1 m,\n"
      "surfaces -5 .. +2 cm apart; %s), median of %d interleaved passes, %s time.\n"
      "EPA: the same pairs with the cores overlapping 2 .. 30 cm (%ld of %d reported overlapping).\n\n",
      kPairs, perPairShapes ? "every pair with its own two octagons" : "shapes from pools of 64 per side",
      reps, gWall ? "wall-clock" : "thread CPU", overlapping, kPairs);
  std::printf("| query                       | ns/query | iterations |\n");
  std::printf("| --------------------------- | -------- | ---------- |\n");
  std::printf("| Minkowski GJK cold          | %8.1f | %10.2f |\n", ns[0], double(coldIterations) / kPairs);
  std::printf("| Minkowski GJK warm          | %8.1f | %10.2f |\n", ns[1], double(warmIterations) / kPairs);
  std::printf("| Minkowski EPA (overlapping) | %8.1f | %10.2f |\n", ns[2], double(epaIterations) / kPairs);
#ifdef MK_HAVE_BOX2D
  std::printf("| Box2D 2.4.1 b2Distance cold | %8.1f | %10.2f |\n", ns[3], double(b2Cold) / kPairs);
  std::printf("| Box2D 2.4.1 b2Distance warm | %8.1f | %10.2f |\n", ns[4], double(b2Warm) / kPairs);
  std::printf("\nratio Box2D/ours: cold %.2fx, warm %.2fx (targets: cold >= 1.0x, warm >= 1.5x)\n",
              ns[3] / ns[0], ns[4] / ns[1]);
  std::printf("largest |distance difference| to Box2D: cold %.3g m, warm %.3g m\n", maxDiff, maxWarmDiff);
#else
  std::printf("\n(Box2D 2.4.1 not found: no side-by-side figures)\n");
#endif
  return 0;
}
