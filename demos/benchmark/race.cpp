// SPDX-License-Identifier: MIT
// The race (issue 14): every scene of the Box2D v3 benchmark set, timed on one thread side by side
// with Box2D 2.4.1 (when compared, MK_COMPARE_BOX2D), with each scene's quality figures, as a Markdown
// table (docs/benchmarks.md keeps one).
//
//   race [--scene NAME|all] [--runs N] [--steps N] [--engine both|ours|box2d]
//
// Per run: build the scene, run step 0 untimed, time steps 1..N-1 (scene callback + world step) with
// the thread's CPU clock (bench_clock.h), ms/step = total / (N - 1). The engines' runs interleave
// (ours, Box2D, ours, ...) so that a change of machine load hits both alike; printed is the median
// over --runs. The quality figures are taken after the last run's final step (both engines are
// deterministic, so every run ends alike). --steps overrides each scene's step count (smoke runs).
//
// Instructions per step: run one engine under callgrind, counting only inside its step function, over
// the first 100 steps, and divide the total Ir by 100:
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='mk::World::Step(float)'
//       build/release/demos/benchmark/race --engine ours --scene large_pyramid --runs 1 --steps 100
//   (Box2D 2.4.1: --engine box2d and --toggle-collect='b2World::Step(float, int, int)')
// valgrind prints "Collected : <Ir>" at the end.
#include "race.h"

#include "bench_args.h"
#include "bench_clock.h"
#include "scenes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mk::race {

std::string Figure(const char* name, double value, const char* unit, int decimals) {
  char text[96];
  std::snprintf(text, sizeof text, "%s %.*f%s%s", name, decimals, value, unit[0] ? " " : "", unit);
  return text;
}

namespace {

// The scenes of the table, in its order.
constexpr std::string_view kScenes[] = {"large_pyramid", "many_pyramids", "tumbler", "smash",
                                        "rain",          "joint_grid",    "spinner"};

// Every live dynamic body of the world (rain's ragdolls are not all in the scene's lists).
std::vector<BodyId> DynamicBodies(const World& world) {
  std::vector<BodyId> bodies;
  std::set<std::uint32_t> seen;
  const float reach = static_cast<float>(kMaxWorldPosition);
  const AABB everything{{-reach, -reach}, {reach, reach}};
  world.QueryAABB(everything, [&](ShapeId shape) {
    const BodyId body = world.GetBody(shape);
    if (world.GetBodyType(body) == BodyType::Dynamic && seen.insert(body.index1).second)
      bodies.push_back(body);
    return true;
  });
  return bodies;
}

}  // namespace

std::string PyramidQuality(std::span<const Vec2> positions, std::span<const float> startX, bool top) {
  double sum = 0.0;
  for (std::size_t i = 0; i < positions.size(); ++i) sum += std::fabs(positions[i].x - startX[i]);
  std::string text = Figure("mean abs dx", sum / static_cast<double>(positions.size()), "m", 3);
  return top ? Figure("top", positions.back().y, "m", 3) + ", " + text : text;
}

std::string TumblerQuality(const Transform& drum, std::span<const Vec2> boxes) {
  int inside = 0;
  for (Vec2 p : boxes) {
    const Vec2 local = InvTransformPoint(drum, p);
    inside += std::fabs(local.x) < 9.5f && std::fabs(local.y) < 9.5f ? 1 : 0;
  }
  return Figure("inside", inside, "", 0) + Figure(" of", static_cast<double>(boxes.size()), "", 0);
}

std::string SmashQuality(std::span<const Vec2> positions, int awake) {
  double sum = 0.0;
  for (Vec2 p : positions) sum += p.x;
  return Figure("mean x", sum / static_cast<double>(positions.size()), "m", 2) + ", " +
         Figure("awake", awake, "", 0);
}

std::string RainQuality(std::span<const Vec2> positions) {
  int below = 0;
  for (Vec2 p : positions) below += p.y < 0.0f ? 1 : 0;
  return Figure("bodies below the floors", below, "", 0) +
         Figure(" of", static_cast<double>(positions.size()), "", 0);
}

std::string SpinnerQuality(std::span<const Vec2> bodies) {
  int inside = 0;
  for (Vec2 p : bodies) inside += Distance(p, Vec2{0.0f, 32.0f}) <= 40.0f ? 1 : 0;
  return Figure("inside", inside, "", 0) + Figure(" of", static_cast<double>(bodies.size()), "", 0);
}

std::string JointGridQuality(int n, std::span<const Transform> grid) {
  double sum = 0.0, worst = 0.0;
  int joints = 0;
  auto gap = [&](int a, Vec2 anchorA, int b, Vec2 anchorB) {
    const double d = Distance(TransformPoint(grid[static_cast<std::size_t>(a)], anchorA),
                              TransformPoint(grid[static_cast<std::size_t>(b)], anchorB));
    sum += d, worst = std::max(worst, d), ++joints;
  };
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < n; ++i) {  // the joints in the order the scene makes them
      if (i > 0) gap(k * n + i - 1, {0.0f, -0.5f}, k * n + i, {0.0f, 0.5f});
      if (k > 0) gap((k - 1) * n + i, {0.5f, 0.0f}, k * n + i, {-0.5f, 0.0f});
    }
  }
  return Figure("mean gap", sum / joints, "m", 3) + ", " + Figure("max gap", worst, "m", 3);
}

namespace {

class OursRun final : public SceneRun {
 public:
  explicit OursRun(const scenes::SceneInfo& info) : run_(info), name_(info.name) {
    for (BodyId body : run_.State().bodies) startX_.push_back(Position(body).x);
  }

  void Step(int) override { run_.Step(); }

  std::string Quality() const override {
    const World& world = run_.GetWorld();
    const std::vector<BodyId>& bodies = run_.State().bodies;
    std::vector<Vec2> positions;
    for (BodyId body : bodies) positions.push_back(Position(body));
    if (name_ == "large_pyramid" || name_ == "many_pyramids")
      return PyramidQuality(positions, startX_, name_ == "large_pyramid");
    if (name_ == "tumbler")  // bodies[0] is the drum
      return TumblerQuality(RelativeTo(world.GetTransform(bodies[0]), run_.State().origin),
                            std::span(positions).subspan(1));
    if (name_ == "smash") {
      int awake = 0;
      for (BodyId body : bodies) awake += world.IsAwake(body) ? 1 : 0;
      return SmashQuality(positions, awake);
    }
    if (name_ == "rain") {  // every ragdoll now alive, not only the first ones the scene lists
      positions.clear();
      for (BodyId body : DynamicBodies(world)) positions.push_back(Position(body));
      return RainQuality(positions);
    }
    if (name_ == "joint_grid") return JointGridQuality(run_.Params().size, GridTransforms());
    if (name_ == "spinner") return SpinnerQuality(std::span(positions).subspan(1));  // [0]: the blade
    return "";
  }

 private:
  // A body's position about the scene's origin (where a large-world run placed it; zero otherwise).
  Vec2 Position(BodyId body) const { return run_.GetWorld().GetPosition(body) - run_.State().origin; }

  // The grid's transforms, k-major, with its static anchors where the scene made them.
  std::vector<Transform> GridTransforms() const {
    const int n = run_.Params().size;
    std::vector<Transform> grid;
    std::size_t next = 0;
    for (int k = 0; k < n; ++k) {
      for (int i = 0; i < n; ++i) {
        grid.push_back(
            JointGridAnchor(n, k, i)
                ? MakeTransform({static_cast<float>(k), 0.0f}, 0.0f)
                : RelativeTo(run_.GetWorld().GetTransform(run_.State().bodies[next++]), run_.State().origin));
      }
    }
    return grid;
  }

  scenes::SceneRun run_;
  std::string_view name_;
  std::vector<float> startX_;
};

struct Options {
  std::string_view scene = "all";
  int runs = 3;
  int steps = 0;  // 0 = the scene's default
  bool ours = true, box2d = true;
};

struct EngineResult {
  std::vector<double> msPerStep;
  std::string quality;
  double Median() {
    std::sort(msPerStep.begin(), msPerStep.end());
    return msPerStep.empty() ? 0.0 : msPerStep[msPerStep.size() / 2];
  }
};

// One timed run: step 0 untimed, steps 1..steps-1 timed; the quality figures after the last step.
void TimeRun(SceneRun& run, int steps, EngineResult& out) {
  run.Step(0);
  double ns = 0.0;
  for (int i = 1; i < steps; ++i) {
    const double start = bench::NowNs();
    run.Step(i);
    ns += bench::NowNs() - start;
  }
  out.msPerStep.push_back(ns * 1e-6 / std::max(1, steps - 1));
  out.quality = run.Quality();
}

void RaceScene(const scenes::SceneInfo& info, const Options& options) {
  const int steps = options.steps > 0 ? options.steps : info.defaultSteps;
  EngineResult ours, box2d;
  bool box2dRan = false;
  for (int r = 0; r < options.runs; ++r) {
    if (options.ours) {
      OursRun run(info);
      TimeRun(run, steps, ours);
    }
    if (options.box2d) {
      if (std::unique_ptr<SceneRun> run = MakeBox2DRun(info.name)) {
        TimeRun(*run, steps, box2d);
        box2dRan = true;
      }
    }
  }
  char ratio[32] = "-";
  const double oursMs = ours.Median(), box2dMs = box2d.Median();
  if (options.ours && box2dRan && oursMs > 0.0) std::snprintf(ratio, sizeof ratio, "%.2fx", box2dMs / oursMs);
  char oursText[32] = "-", box2dText[32] = "-";
  if (options.ours) std::snprintf(oursText, sizeof oursText, "%.2f", oursMs);
  if (box2dRan) std::snprintf(box2dText, sizeof box2dText, "%.2f", box2dMs);
  std::printf("| %s | %d | %s | %s | %s | %s | %s |\n", info.name, steps, oursText, box2dText, ratio,
              options.ours ? ours.quality.c_str() : "-", box2dRan ? box2d.quality.c_str() : "-");
  std::fflush(stdout);
}

bool Parse(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--scene" && hasValue) {
      options.scene = argv[++i];
    } else if (arg == "--runs" && hasValue) {
      if (!bench::ParseInt(argv[++i], options.runs)) return false;
    } else if (arg == "--steps" && hasValue) {
      if (!bench::ParseInt(argv[++i], options.steps)) return false;
    } else if (arg == "--engine" && hasValue) {
      const std::string_view engine = argv[++i];
      if (engine != "both" && engine != "ours" && engine != "box2d") return false;
      options.ours = engine != "box2d";
      options.box2d = engine != "ours";
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace
}  // namespace mk::race

int main(int argc, char** argv) {
  using namespace mk::race;
  Options options;
  if (!Parse(argc, argv, options)) {
    std::fprintf(stderr,
                 "usage: race [--scene NAME|all] [--runs N] [--steps N] [--engine both|ours|box2d]\n");
    return 1;
  }
  std::vector<const mk::scenes::SceneInfo*> selected;
  for (std::string_view name : kScenes) {
    if (options.scene == "all" || options.scene == name) selected.push_back(mk::scenes::FindScene(name));
  }
  if (selected.empty()) {
    std::fprintf(stderr,
                 "unknown scene '%.*s' (the race's scenes: large_pyramid, many_pyramids, tumbler, "
                 "smash, rain, joint_grid, spinner)\n",
                 static_cast<int>(options.scene.size()), options.scene.data());
    return 1;
  }
  std::printf(
      "| scene | steps | ours ms/step | Box2D 2.4.1 ms/step | 2.4.1 / ours | ours quality | "
      "Box2D 2.4.1 quality |\n| --- | --- | --- | --- | --- | --- | --- |\n");
  for (const mk::scenes::SceneInfo* info : selected) RaceScene(*info, options);
  return 0;
}
