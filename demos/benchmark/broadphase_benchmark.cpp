// SPDX-License-Identifier: MIT
// Broadphase: Minkowski's banded sweep-and-prune against brute force and Box2D 2.4.1's b2BroadPhase
// (dynamic AABB tree), all driven the same way: every step each proxy gets its tight AABB (MoveProxy),
// then UpdatePairs. Only that loop is timed; the motion is generated beforehand into a buffer.
//
// Motions (docs/design.md section 6):
//   drift  boxes 0.5-1.5 m drifting at up to 3 m/s in a square (density 0.25 / m^2), bouncing
//   pile   a pyramid of 1 m boxes (like Box2D's large_pyramid), each jittering +-10 cm around rest
//   line   1 m boxes on one horizontal line, 1.1 m apart, jittering +-10 cm; also with the sweep axis
//          forced to y (every interval overlaps) with bands, and as classic single-list SAP
// Output: CSV, one row per (motion, n, engine): median of `runs` runs of ms per step, build time
// (create all + first update), pairs (Minkowski, brute: pairs in the set; Box2D: AddPair calls per
// step, its pairs of moved proxies; brute force at 10k runs 10 steps, so its count is of an earlier
// state of the drift and line motions), then the scaling exponent from 1k to 100k, and Box2D's time
// over ours per (motion, n) with the targets (> 1 on drift and pile at 10k and 100k, > 0.5
// on the one-line worst case).
//   build/<dir>/demos/benchmark/broadphase_benchmark [runs [motion [engine [n [wall]]]]]
// runs defaults to 3; motion and engine filter by name ("all" = every one), n to one size (0 = all):
// e.g. `broadphase_benchmark 1 drift minkowski 100000` for a profiler.
//
// Fairness: the engines run interleaved (run 1 of each engine, then run 2 of each, ...) on identical
// generated motion, so a slow phase of a shared machine hits all of them. Box2D's side does less
// than ours: its AddPair callback only counts (b2ContactManager would look the pair up in the
// body's contact list, and its Collide re-tests every contact's fat boxes each step to find the
// ended ones), while ours maintains the persistent set and reports begun and ended pairs.
//
// Timing: the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) by default, as in gjk_benchmark: on a
// loaded machine the wall clock also counts time spent descheduled. Pass `wall` to use steady_clock.
#include "bench_clock.h"
#include "minkowski/broadphase.h"

#if defined(MK_HAVE_BOX2D)
#include <box2d/b2_broad_phase.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using mk::AABB;
using mk::Vec2;
bool gWall = false;

// Milliseconds on the thread's CPU clock (or the wall clock with `wall`).
double NowMs() { return mk::bench::NowNs(gWall) * 1e-6; }

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  float Uniform(float lo, float hi) {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * static_cast<float>(state_ >> 40) * (1.0f / 16777216.0f);
  }

 private:
  std::uint64_t state_;
};

enum class Motion { Drift, Pile, Line };

// Generates the tight AABBs of every step, identically for every engine.
class Scene {
 public:
  Scene(Motion motion, int n) : motion_(motion), rng_(1234567u + static_cast<std::uint64_t>(n)) {
    if (motion == Motion::Drift) {
      half_ = 0.5f * std::sqrt(4.0f * n);
      for (int i = 0; i < n; ++i) {
        rest_.push_back({rng_.Uniform(-half_, half_), rng_.Uniform(-half_, half_)});
        size_.push_back({rng_.Uniform(0.25f, 0.75f), rng_.Uniform(0.25f, 0.75f)});
        float angle = rng_.Uniform(0.0f, 6.2831853f), speed = rng_.Uniform(0.0f, 3.0f);
        velocity_.push_back({speed * std::cos(angle), speed * std::sin(angle)});
      }
    } else if (motion == Motion::Pile) {
      int base = 1;
      while (base * (base + 1) / 2 < n) ++base;
      for (int row = 0; row < base && static_cast<int>(rest_.size()) < n; ++row) {
        const int count = base - row;
        for (int i = 0; i < count && static_cast<int>(rest_.size()) < n; ++i) {
          rest_.push_back(
              {static_cast<float>(i) - 0.5f * static_cast<float>(count - 1), 0.5f + static_cast<float>(row)});
          size_.push_back({0.5f, 0.5f});
        }
      }
    } else {
      for (int i = 0; i < n; ++i) {
        rest_.push_back({1.1f * static_cast<float>(i), 0.0f});
        size_.push_back({0.5f, 0.5f});
      }
    }
    position_ = rest_;
    if (motion != Motion::Drift) Jitter();  // fat boxes fitted away from rest, so jitter leaves them
    if (velocity_.empty()) velocity_.assign(rest_.size(), Vec2{0.0f, 0.0f});
    aabbs_.resize(rest_.size());
    displacement_.resize(rest_.size());
    Fill();
  }

  int Count() const { return static_cast<int>(rest_.size()); }
  const std::vector<AABB>& AABBs() const { return aabbs_; }
  const std::vector<Vec2>& Displacements() const { return displacement_; }

  void Advance() {
    constexpr float kDt = 1.0f / 60.0f;
    for (std::size_t i = 0; i < position_.size(); ++i) {
      Vec2 old = position_[i];
      if (motion_ == Motion::Drift) {
        Vec2& v = velocity_[i];
        Vec2& p = position_[i];
        if ((p.x > half_ && v.x > 0) || (p.x < -half_ && v.x < 0)) v.x = -v.x;
        if ((p.y > half_ && v.y > 0) || (p.y < -half_ && v.y < 0)) v.y = -v.y;
        p += kDt * v;
      } else {
        position_[i] = rest_[i] + Vec2{rng_.Uniform(-kJitter, kJitter), rng_.Uniform(-kJitter, kJitter)};
      }
      displacement_[i] = position_[i] - old;
    }
    Fill();
  }

 private:
  void Jitter() {
    for (std::size_t i = 0; i < position_.size(); ++i) {
      position_[i] = rest_[i] + Vec2{rng_.Uniform(-kJitter, kJitter), rng_.Uniform(-kJitter, kJitter)};
    }
  }

  static constexpr float kJitter = 0.1f;  // metres: the margin, so a re-fit happens now and then

  void Fill() {
    for (std::size_t i = 0; i < position_.size(); ++i)
      aabbs_[i] = {position_[i] - size_[i], position_[i] + size_[i]};
  }

  Motion motion_;
  Rng rng_;
  float half_ = 0.0f;
  std::vector<Vec2> rest_, size_, velocity_, position_, displacement_;
  std::vector<AABB> aabbs_;
};

struct RunResult {
  double buildMs = 0.0;
  double stepMs = 0.0;
  double pairs = 0.0;
  double moved = 0.0;  // proxies processed per step (Minkowski only)
};

// Each engine: Build(scene) creates every proxy and runs the first update; Step(scene) moves all and
// updates; Pairs() reports its pair figure.
struct MinkowskiEngine {
  mk::BroadPhase bp;
  std::vector<mk::ProxyId> ids;
  explicit MinkowskiEngine(const mk::BroadPhaseDef& def) : bp(def) {}
  void Build(const Scene& scene) {
    for (int i = 0; i < scene.Count(); ++i) {
      ids.push_back(bp.CreateProxy({.aabb = scene.AABBs()[i], .userData = static_cast<std::uint64_t>(i)}).id);
    }
    bp.UpdatePairs();
  }
  void Step(const Scene& scene) {
    const std::vector<AABB>& aabbs = scene.AABBs();
    for (std::size_t i = 0; i < ids.size(); ++i) bp.MoveProxy(ids[i], aabbs[i]);
    bp.UpdatePairs();
  }
  double Pairs() const { return bp.Stats().pairCount; }
  long movedTotal = 0;
  void CountMoved() { movedTotal += bp.Stats().movedLastUpdate; }
  double Moved(int steps) const { return static_cast<double>(movedTotal) / steps; }
};

struct BruteEngine {
  std::vector<AABB> fat;
  double pairs = 0.0;
  void Build(const Scene& scene) {
    for (const AABB& box : scene.AABBs()) fat.push_back(mk::Inflate(box, 0.1f));
    Count();
  }
  void Step(const Scene& scene) {
    const std::vector<AABB>& aabbs = scene.AABBs();
    for (std::size_t i = 0; i < fat.size(); ++i) {
      if (!mk::Contains(fat[i], aabbs[i])) fat[i] = mk::Inflate(aabbs[i], 0.1f);
    }
    Count();
  }
  void Count() {
    long count = 0;
    for (std::size_t i = 0; i < fat.size(); ++i) {
      for (std::size_t j = i + 1; j < fat.size(); ++j) count += mk::Overlaps(fat[i], fat[j]) ? 1 : 0;
    }
    pairs = static_cast<double>(count);
  }
  double Pairs() const { return pairs; }
};

#if defined(MK_HAVE_BOX2D)
struct Box2DEngine {
  b2BroadPhase bp;
  std::vector<int32> ids;
  long addPairCalls = 0;
  long steps = 0;
  void AddPair(void*, void*) { ++addPairCalls; }
  static b2AABB Convert(const AABB& box) {
    b2AABB out;
    out.lowerBound.Set(box.lower.x, box.lower.y);
    out.upperBound.Set(box.upper.x, box.upper.y);
    return out;
  }
  void Build(const Scene& scene) {
    for (int i = 0; i < scene.Count(); ++i) {
      ids.push_back(
          bp.CreateProxy(Convert(scene.AABBs()[i]), reinterpret_cast<void*>(static_cast<std::intptr_t>(i))));
    }
    bp.UpdatePairs(this);
    addPairCalls = 0;
  }
  // As b2World does: the tight AABB and the body's displacement (used to predict the fat box).
  void Step(const Scene& scene) {
    const std::vector<AABB>& aabbs = scene.AABBs();
    const std::vector<Vec2>& d = scene.Displacements();
    for (std::size_t i = 0; i < ids.size(); ++i)
      bp.MoveProxy(ids[i], Convert(aabbs[i]), b2Vec2(d[i].x, d[i].y));
    bp.UpdatePairs(this);
    ++steps;
  }
  double Pairs() const { return steps > 0 ? static_cast<double>(addPairCalls) / steps : 0.0; }
};
#endif

template <class Engine>
RunResult RunOnce(Motion motion, int n, int steps, std::function<Engine*()> make) {
  Scene scene(motion, n);
  Engine* engine = make();
  RunResult r;
  const double t0 = NowMs();
  engine->Build(scene);
  r.buildMs = NowMs() - t0;
  double total = 0.0;
  for (int s = 0; s < steps; ++s) {
    scene.Advance();
    const double a = NowMs();
    engine->Step(scene);
    total += NowMs() - a;
    if constexpr (requires { engine->CountMoved(); }) engine->CountMoved();
  }
  r.stepMs = total / steps;
  if constexpr (requires { engine->Moved(steps); }) r.moved = engine->Moved(steps);
  r.pairs = engine->Pairs();
  delete engine;
  return r;
}

RunResult Median(std::vector<RunResult> results) {
  std::sort(results.begin(), results.end(),
            [](const RunResult& a, const RunResult& b) { return a.stepMs < b.stepMs; });
  return results[results.size() / 2];
}

// One engine in the comparison: a name and how to run it once.
struct EngineCase {
  const char* name;
  std::function<RunResult(Motion, int, int)> run;
};

struct Row {
  std::string motion, engine;
  int n;
  RunResult r;
};

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  const std::string onlyMotion = argc > 2 ? argv[2] : "all";
  const std::string onlyEngine = argc > 3 ? argv[3] : "all";
  const int onlyN = argc > 4 ? std::atoi(argv[4]) : 0;
  gWall = argc > 5 && std::string(argv[5]) == "wall";
  struct MotionCase {
    const char* name;
    Motion motion;
  };
  const MotionCase motions[] = {{"drift", Motion::Drift}, {"pile", Motion::Pile}, {"line", Motion::Line}};
  const int sizes[] = {1000, 10000, 100000};
  std::vector<Row> rows;
  std::printf("# %s clock, median of %d interleaved runs\n", gWall ? "wall" : "thread CPU", runs);
  std::printf("motion,n,engine,step_ms,build_ms,pairs,moved_per_step\n");
  auto wanted = [&](const char* engine) { return onlyEngine == "all" || onlyEngine == engine; };
  auto minkowski = [](mk::BroadPhaseDef def) {
    return [def](Motion motion, int n, int steps) {
      return RunOnce<MinkowskiEngine>(motion, n, steps, [def] { return new MinkowskiEngine(def); });
    };
  };
  for (const MotionCase& m : motions) {
    if (onlyMotion != "all" && onlyMotion != m.name) continue;
    for (int n : sizes) {
      if (onlyN != 0 && n != onlyN) continue;
      const int steps = n <= 1000 ? 300 : n <= 10000 ? 60 : 12;
      std::vector<EngineCase> engines;
      engines.push_back({"minkowski", minkowski({})});
      if (m.motion == Motion::Line)
        engines.push_back({"minkowski_y_axis", minkowski({.axis = mk::SweepAxisMode::Y})});
      // Classic SAP on the bad axis is quadratic here: 100k would take minutes.
      if (m.motion == Motion::Line && n <= 10000) {
        engines.push_back({"classic_sap_y_axis", minkowski({.axis = mk::SweepAxisMode::Y, .maxBands = 1})});
      }
#if defined(MK_HAVE_BOX2D)
      engines.push_back({"box2d_2.4.1_tree", [](Motion motion, int count, int stepCount) {
                           return RunOnce<Box2DEngine>(motion, count, stepCount,
                                                       [] { return new Box2DEngine(); });
                         }});
#endif
      if (n <= 10000) {
        engines.push_back({"brute_force", [](Motion motion, int count, int stepCount) {
                             return RunOnce<BruteEngine>(motion, count, count <= 1000 ? stepCount : 10,
                                                         [] { return new BruteEngine(); });
                           }});
      }
      std::erase_if(engines, [&](const EngineCase& e) { return !wanted(e.name); });
      std::vector<std::vector<RunResult>> results(engines.size());
      for (int run = 0; run < runs; ++run) {
        for (std::size_t e = 0; e < engines.size(); ++e)
          results[e].push_back(engines[e].run(m.motion, n, steps));
      }
      for (std::size_t e = 0; e < engines.size(); ++e) {
        const RunResult r = Median(results[e]);
        std::printf("%s,%d,%s,%.4f,%.2f,%.0f,%.0f\n", m.name, n, engines[e].name, r.stepMs, r.buildMs,
                    r.pairs, r.moved);
        std::fflush(stdout);
        rows.push_back({m.name, engines[e].name, n, r});
      }
    }
  }
  std::printf("\nmotion,engine,scaling_exponent_1k_to_100k\n");
  for (const Row& a : rows) {
    if (a.n != 1000) continue;
    for (const Row& b : rows) {
      if (b.n == 100000 && b.motion == a.motion && b.engine == a.engine) {
        std::printf("%s,%s,%.2f\n", a.motion.c_str(), a.engine.c_str(),
                    std::log(b.r.stepMs / a.r.stepMs) / std::log(100.0));
      }
    }
  }
  // Box2D's step time over ours (> 1: we are faster) and the target for it.
  bool header = false;
  for (const Row& a : rows) {
    if (a.engine != "minkowski") continue;
    for (const Row& b : rows) {
      if (b.engine != "box2d_2.4.1_tree" || b.motion != a.motion || b.n != a.n) continue;
      if (!header) std::printf("\nmotion,n,box2d_over_minkowski,target,met\n");
      header = true;
      const double ratio = b.r.stepMs / a.r.stepMs;
      const bool targeted = a.n >= 10000;
      const double target = a.motion == "line" ? 0.5 : 1.0;
      std::printf("%s,%d,%.2f,%s,%s\n", a.motion.c_str(), a.n, ratio,
                  targeted ? (target == 1.0 ? "> 1" : "> 0.5") : "-",
                  targeted ? (ratio > target ? "yes" : "NO") : "-");
    }
  }
  return 0;
}
