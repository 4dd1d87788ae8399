// GJK / EPA micro-benchmark: nanoseconds per query on 10,000 random octagon pairs (A sharp, B rounded
// by 0.1 m), cold (empty cache) and warm (cache from the previous pose, after a small motion), plus
// EPA on overlapping pairs. With MK_HAVE_BOX2D, Box2D 2.4.1's b2Distance runs on the very same pairs
// in the same process, interleaved with ours.
//
//   ./gjk_benchmark                        (prints a table: median of --reps interleaved passes)
//   ./gjk_benchmark --reps 101             (more passes, steadier medians on a loaded machine)
//   ./gjk_benchmark --wall                 (wall-clock time instead of thread CPU time)
//   ./gjk_benchmark --only ours-warm       (one pass kind only, for callgrind; kinds: ours-cold,
//                                           ours-warm, b2-cold, b2-warm, epa)
//
// Instruction counts per query with callgrind (the pass functions are named *Pass):
//   valgrind --tool=callgrind --toggle-collect='*OursWarmPass*' ./gjk_benchmark --only ours-warm --reps 1
//   (total Ir / 10,000)
//
// Fairness: both engines get the same poses, read their shapes through their own proxies (shared
// vertex arrays, a few hundred bytes that stay in L1), read their per-pair inputs from an array of
// their own input structs (DistanceInput, 64 bytes; b2DistanceInput, 108 bytes), and warm-start the
// same way: a per-query copy of the cache filled at the earlier pose, no cache copy outside the timing.
//
// Timing: each pass is timed with the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) by default. On a
// loaded machine the wall clock also counts the time the thread sits descheduled while other
// processes run, which inflated one pass or another by 2-5x at random (see the report in git log).
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
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string_view>
#include <vector>

using namespace mk;

namespace {

constexpr int kPairs = 10000;

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

struct OursData {
  ShapeProxy proxyA;
  ShapeProxy proxyB;
  ShapeProxy proxyB2;  // sharp B for EPA
  std::vector<Pair> pairs;
  std::vector<DistanceInput> inputs;  // at xfB, like Box2D's array of b2DistanceInput
  std::vector<SimplexCache> caches0;  // filled at xfB0
  std::vector<Pair> deep;             // overlapping poses for EPA
  std::vector<SimplexCache> deepCaches;
};

bool gWall = false;

double NowNs() {
  if (gWall) {
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

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
    sum += ShapePenetration({d.proxyA, d.proxyB2, d.deep[i].xfA, d.deep[i].xfB}, &d.deepCaches[i]).depth;
  }
  return sum;
}

#ifdef MK_HAVE_BOX2D
struct B2Data {
  b2Vec2 va[8];
  b2Vec2 vb[8];
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
float RunOurs(const void* d) { return F(*static_cast<const OursData*>(d)); }
#ifdef MK_HAVE_BOX2D
template <float (*F)(const B2Data&)>
float RunB2(const void* d) { return F(*static_cast<const B2Data*>(d)); }
#endif

}  // namespace

int main(int argc, char** argv) {
  int reps = 31;
  const char* only = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--reps" && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (arg == "--wall") {
      gWall = true;
    } else {
      std::fprintf(stderr, "usage: gjk_benchmark [--reps N] [--wall] [--only ours-cold|ours-warm|b2-cold|b2-warm|epa]\n");
      return 2;
    }
  }

  Polygon sharp = MakeRegularPolygon(8, 0.5f).value;
  Polygon rounded = MakeRegularPolygon(8, 0.4f, 0.1f).value;
  Polygon sharpB = MakeRegularPolygon(8, 0.5f).value;
  OursData ours;
  ours.proxyA = MakeProxy(sharp);
  ours.proxyB = MakeProxy(rounded);
  ours.proxyB2 = MakeProxy(sharpB);

  Rng rng{12345};
  ours.pairs.resize(kPairs);
  for (Pair& p : ours.pairs) {
    p.xfA = MakeTransform({rng.Uniform(-10, 10), rng.Uniform(-10, 10)}, rng.Uniform(-3.14f, 3.14f));
    float angle = rng.Uniform(-3.14f, 3.14f);
    float reach = rng.Uniform(1.0f, 2.0f);  // centre distance 1..2 m: mostly separated, some touching
    p.xfB0 = MakeTransform(p.xfA.p + reach * Vec2{std::cos(angle), std::sin(angle)}, rng.Uniform(-3.14f, 3.14f));
    // A small motion: 1 cm and 0.01 rad, what a body does in a step.
    p.xfB = MakeTransform(p.xfB0.p + Vec2{rng.Uniform(-0.01f, 0.01f), rng.Uniform(-0.01f, 0.01f)},
                          Angle(p.xfB0.q) + rng.Uniform(-0.01f, 0.01f));
  }
  ours.caches0.resize(kPairs);
  for (const Pair& p : ours.pairs) ours.inputs.push_back({ours.proxyA, ours.proxyB, p.xfA, p.xfB});
  long coldIterations = 0, warmIterations = 0;
  for (int i = 0; i < kPairs; ++i) {
    const Pair& p = ours.pairs[i];
    ShapeDistance({ours.proxyA, ours.proxyB, p.xfA, p.xfB0}, &ours.caches0[i]);
    DistanceInput in{ours.proxyA, ours.proxyB, p.xfA, p.xfB};
    coldIterations += ShapeDistance(in).iterations;
    SimplexCache c = ours.caches0[i];
    warmIterations += ShapeDistance(in, &c).iterations;
  }

  // EPA: the same octagons (both sharp) pushed into each other.
  ours.deep = ours.pairs;
  ours.deepCaches.resize(kPairs);
  long epaIterations = 0;
  for (int i = 0; i < kPairs; ++i) {
    float angle = rng.Uniform(-3.14f, 3.14f);
    ours.deep[i].xfB.p = ours.deep[i].xfA.p + rng.Uniform(0.05f, 0.8f) * Vec2{std::cos(angle), std::sin(angle)};
    DistanceInput in{ours.proxyA, ours.proxyB2, ours.deep[i].xfA, ours.deep[i].xfB};
    ShapeDistance(in, &ours.deepCaches[i]);
    epaIterations += ShapePenetration(in, &ours.deepCaches[i]).iterations;
  }

  std::vector<Kind> kinds = {{"ours-cold", RunOurs<OursColdPass>, &ours},
                             {"ours-warm", RunOurs<OursWarmPass>, &ours},
                             {"epa", RunOurs<OursEpaPass>, &ours}};

#ifdef MK_HAVE_BOX2D
  B2Data b2;
  for (int i = 0; i < 8; ++i) {
    b2.va[i] = {sharp.vertices[i].x, sharp.vertices[i].y};
    b2.vb[i] = {rounded.vertices[i].x, rounded.vertices[i].y};
  }
  b2DistanceProxy b2A;
  b2DistanceProxy b2B;
  b2A.Set(b2.va, 8, 0.0f);
  b2B.Set(b2.vb, 8, 0.1f);
  b2.inputs.resize(kPairs);
  b2.caches0.resize(kPairs);
  long b2Cold = 0, b2Warm = 0;
  double maxDiff = 0.0, maxWarmDiff = 0.0;
  for (int i = 0; i < kPairs; ++i) {
    const Pair& p = ours.pairs[i];
    b2DistanceInput& in = b2.inputs[i];
    in.proxyA = b2A;
    in.proxyB = b2B;
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
    DistanceInput ourIn{ours.proxyA, ours.proxyB, p.xfA, p.xfB};
    maxDiff = std::max(maxDiff, double(std::fabs(ShapeDistance(ourIn).distance - out.distance)));
    SimplexCache ourCache = ours.caches0[i];
    maxWarmDiff = std::max(maxWarmDiff, double(std::fabs(ShapeDistance(ourIn, &ourCache).distance - out.distance)));
    c = b2.caches0[i];
    b2Distance(&out, &c, &in);
    b2Warm += out.iterations;
  }
  kinds.push_back({"b2-cold", RunB2<B2ColdPass>, &b2});
  kinds.push_back({"b2-warm", RunB2<B2WarmPass>, &b2});
#endif

  if (only != nullptr) {
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const Kind& k) { return std::strcmp(k.name, only) == 0; });
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

  std::printf("GJK benchmark: %d random octagon pairs (A sharp r=0.5, B rounded 0.4 + 0.1), median of %d "
              "interleaved passes, %s time\n\n",
              kPairs, reps, gWall ? "wall-clock" : "thread CPU");
  std::printf("| query                       | ns/query | iterations |\n");
  std::printf("| --------------------------- | -------- | ---------- |\n");
  std::printf("| Minkowski GJK cold          | %8.1f | %10.2f |\n", ns[0], double(coldIterations) / kPairs);
  std::printf("| Minkowski GJK warm          | %8.1f | %10.2f |\n", ns[1], double(warmIterations) / kPairs);
  std::printf("| Minkowski EPA (overlapping) | %8.1f | %10.2f |\n", ns[2], double(epaIterations) / kPairs);
#ifdef MK_HAVE_BOX2D
  std::printf("| Box2D 2.4.1 b2Distance cold | %8.1f | %10.2f |\n", ns[3], double(b2Cold) / kPairs);
  std::printf("| Box2D 2.4.1 b2Distance warm | %8.1f | %10.2f |\n", ns[4], double(b2Warm) / kPairs);
  std::printf("\nratio Box2D/ours: cold %.2fx, warm %.2fx (targets: cold >= 1.0x, warm >= 1.5x)\n", ns[3] / ns[0],
              ns[4] / ns[1]);
  std::printf("largest |distance difference| to Box2D: cold %.3g m, warm %.3g m\n", maxDiff, maxWarmDiff);
#else
  std::printf("\n(Box2D 2.4.1 not found: no side-by-side figures)\n");
#endif
  return 0;
}
