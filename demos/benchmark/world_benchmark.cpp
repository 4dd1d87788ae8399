// SPDX-License-Identifier: MIT
// World benchmark: runs scenes of the shared table (demos/scenes) with the timing convention of
// Box2D v3 times its benchmark scenes, and prints CSV.
//
//   benchmark [--scene NAME|all] [--runs N] [--steps N] [--size N] [--count N] [--no-recycling] [--list]
//             [--workers N] [--lanes 4|8] [--snapshot-cost] [--scrub-cost] [--build-cost] [--figures]
//             [--offset X,Y] [--origin-at-zero] [--substeps measured|workers|caller]
//             [--pool-threads hardware|asked]
//
// Per run: build the scene, run step 0 untimed, time steps 1..N-1 (scene callback + World::Step),
// ms/step = total / (N - 1). Reported: the median over runs; the per-stage times (World::GetProfile,
// averaged over the timed steps) of the median run; counts after the last step; the final StateHash,
// which must be identical in every run (hash_ok = no otherwise, and the exit code is 2).
// --steps overrides every scene's step count (quick smoke runs), --size/--count the scene knobs
// (see --list). --scene all (the default) runs the whole table in order. --no-recycling turns contact
// recycling off (SolverSettings::enableContactRecycling), the reference every manifold is computed in.
// The last two columns are the last step's manifold queries and recycled manifolds (Counters).
// --workers N steps every world on a TaskPool of N workers (minkowski/task_system.h; default 1: the
// calling thread alone); the state hashes must not change with it. The pool runs them on at most the
// machine's hardware threads (PoolThreads::AtMostHardware), or with --pool-threads asked on a thread
// each, past the cores too (PoolThreads::AsAsked: what oversubscription costs). --lanes 4|8 creates every
// world with that SIMD width (WorldDef::simdWidth; default: the scene's, automatic); 8 on a CPU without AVX2
// runs 4 lanes and says so on stderr. The state hashes must not change with it either.
// --substeps sets where the solver's sub-steps run with workers (WorldDef::subStepWorkers: measured,
// the default; workers; caller, the calling thread alone); the last column is the share of the timed
// steps whose sub-steps ran on the workers (Profile::subStepWorkers). The hashes do not change with it.
// --offset X,Y moves every scene that far from the origin (m; SceneRun's Placement), with the world's
// float frame (WorldDef::origin) there, or at zero with --origin-at-zero: in the large-world build
// (MK_LARGE_WORLDS) the figures and the instructions per step far away, docs/design.md "Large worlds".
// In the default build the scene meets a float's spacing there (8 mm at 100 km).
//
// --snapshot-cost instead runs each scene for its steps once, then times World::SaveSnapshot into a
// reused buffer and World::RestoreSnapshot into the same World and into a fresh one (thread CPU
// time, median of 5 x --runs repetitions), and prints the snapshot's size in bytes (docs/design.md,
// Snapshots).
//
// --scrub-cost records each scene for its steps (World::StartRecording before the build), then plays
// the recording once to warm up and again with a ReplayPlayer with its default keyframes and with
// none, and prints per player:
// ms per step playing forward to the end, ms to go back one step from the end (StepTo(end - 1),
// median of --runs), and the keyframes kept and their size. hash_ok: both players' worlds after the
// step back equal the recorded hash.
//
// --build-cost instead times each scene's build (SceneRun's constructor: the world, the scene's bodies,
// shapes and joints; no step), median of --runs, and prints the counts after the first step: what a game
// pays to load a level of that size (docs/benchmarks.md, "Building a body of many shapes").
//
// --figures instead runs each scene once for its steps under a FiguresProbe (demos/scenes/
// scene_figures.h) and prints its quality figures: penetration (max over the run, final), top and
// sideways drift, escaped bodies, joint error, the step when every body sleeps (-1: never), the final
// max speed and the energy kept (n/a: the scene starts with none). docs/benchmarks.md, "Hard-case
// scenes: figures".
#include "bench_args.h"
#include "bench_clock.h"
#include "minkowski/replay.h"
#include "minkowski/world_vector.h"
#include "scene_figures.h"
#include "scenes.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using mk::scenes::SceneInfo;

struct Options {
  std::string_view scene = "all";
  int runs = 3;
  int steps = 0;  // 0 = the scene's default
  mk::scenes::SceneParams params{};
  bool list = false;
  bool recycling = true;
  bool snapshotCost = false;
  bool scrubCost = false;
  bool buildCost = false;
  bool figures = false;
  int workers = 1;
  mk::TaskPool* pool = nullptr;                                   // --workers > 1
  mk::PoolThreads poolThreads = mk::PoolThreads::AtMostHardware;  // --pool-threads
  int lanes = 0;  // --lanes: 4 or 8; 0: the scene's own WorldDef::simdWidth
  mk::WorkerUse subSteps = mk::WorkerUse::Measured;  // --substeps
  mk::scenes::Placement placement{};                 // --offset, --origin-at-zero
};

struct RunResult {
  double msPerStep = 0.0;
  double broadphase = 0.0, narrowphase = 0.0, solver = 0.0, islands = 0.0,
         continuous = 0.0;         // ms per timed step
  double subStepsOnWorkers = 0.0;  // share of the timed steps
  mk::Counters counters{};
  std::uint64_t hash = 0;
};

RunResult RunOnce(const SceneInfo& info, const Options& options, int steps) {
  mk::scenes::SceneRun run(info, options.params, false, options.placement);
  if (options.pool != nullptr) run.GetWorld().SetTaskSystem(options.pool->GetTaskSystem());
  run.GetWorld().SetSubStepWorkers(options.subSteps);
  if (!options.recycling) {
    mk::SolverSettings settings = run.GetWorld().GetSolverSettings();
    settings.enableContactRecycling = false;
    run.GetWorld().SetSolverSettings(settings);
  }
  RunResult result;
  if (steps <= 0) return result;
  run.Step();  // step 0: untimed (first pairs, first contacts, rain's first spawn)
  double total = 0.0;
  for (int i = 1; i < steps; ++i) {
    const Clock::time_point start = Clock::now();
    run.Step();
    total += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    const mk::Profile& p = run.GetWorld().GetProfile();
    result.broadphase += p.broadphase;
    result.narrowphase += p.narrowphase;
    result.solver += p.solver;
    result.islands += p.islands;
    result.continuous += p.continuous;
    if (p.subStepWorkers > 1) result.subStepsOnWorkers += 1.0;
  }
  const double timed = steps > 1 ? static_cast<double>(steps - 1) : 1.0;
  result.msPerStep = total / timed;
  result.broadphase /= timed;
  result.narrowphase /= timed;
  result.solver /= timed;
  result.islands /= timed;
  result.continuous /= timed;
  result.subStepsOnWorkers /= timed;
  result.counters = run.GetWorld().GetCounters();
  result.hash = run.GetWorld().StateHash();
  return result;
}

// Runs one scene `runs` times and prints its row; false when the final states differed.
bool RunScene(const SceneInfo& info, const Options& options) {
  const int steps = options.steps > 0 ? options.steps : info.defaultSteps;
  std::vector<RunResult> results;
  for (int r = 0; r < options.runs; ++r) results.push_back(RunOnce(info, options, steps));
  const bool hashOk = std::all_of(results.begin(), results.end(),
                                  [&](const RunResult& x) { return x.hash == results.front().hash; });
  std::sort(results.begin(), results.end(),
            [](const RunResult& a, const RunResult& b) { return a.msPerStep < b.msPerStep; });
  const RunResult& m = results[results.size() / 2];  // median (upper median for even counts)
  std::printf("%s,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%016" PRIx64 ",%s,%d,%d,%.2f\n", info.name,
              m.counters.bodies, m.counters.touchingContacts, m.counters.joints, steps, options.runs,
              m.msPerStep, m.broadphase, m.narrowphase, m.solver, m.islands, m.continuous, m.hash,
              hashOk ? "yes" : "no", m.counters.narrowphaseQueries, m.counters.manifoldsReused,
              m.subStepsOnWorkers);
  std::fflush(stdout);
  return hashOk;
}

void PrintUsage() {
  std::fprintf(
      stderr,
      "usage: benchmark [--scene NAME|all] [--runs N] [--steps N] [--size N] [--count N] [--no-recycling] "
      "[--list] [--workers N] [--lanes 4|8] [--substeps measured|workers|caller] [--snapshot-cost] "
      "[--scrub-cost] [--build-cost] [--figures] [--offset X,Y] "
      "[--origin-at-zero] [--pool-threads hardware|asked]\n");
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One scene's snapshot cost row; false when a restore failed or changed the state hash.
bool SnapshotCost(const SceneInfo& info, const Options& options) {
  const int steps = options.steps > 0 ? options.steps : info.defaultSteps;
  mk::scenes::SceneRun run(info, options.params, false, options.placement);
  for (int i = 0; i < steps; ++i) run.Step();
  mk::World& world = run.GetWorld();
  const std::uint64_t hash = world.StateHash();
  std::vector<std::byte> buffer;
  mk::SaveSnapshot(world, buffer);  // warm-up: the buffer reaches its size
  std::vector<double> save, restore, fresh;
  bool ok = true;
  for (int r = 0; r < 5 * options.runs; ++r) {
    double t0 = mk::bench::NowNs();
    mk::SaveSnapshot(world, buffer);
    double t1 = mk::bench::NowNs();
    ok = world.RestoreSnapshot(buffer).ok() && ok;
    double t2 = mk::bench::NowNs();
    mk::World other(info.worldDef);
    double t3 = mk::bench::NowNs();
    ok = other.RestoreSnapshot(buffer).ok() && other.StateHash() == hash && ok;
    double t4 = mk::bench::NowNs();
    save.push_back((t1 - t0) / 1e3);
    restore.push_back((t2 - t1) / 1e3);
    fresh.push_back((t4 - t3) / 1e3);
  }
  ok = ok && world.StateHash() == hash;
  std::printf("%s,%d,%d,%zu,%.1f,%.1f,%.1f,%s\n", info.name, world.GetCounters().bodies, steps, buffer.size(),
              Median(save), Median(restore), Median(fresh), ok ? "yes" : "no");
  std::fflush(stdout);
  return ok;
}

// One scene's replay scrubbing row; false when a player's state after the step back is not the
// recorded one.
bool ScrubCost(const SceneInfo& info, const Options& options) {
  const int steps = options.steps > 0 ? options.steps : info.defaultSteps;
  mk::World world(info.worldDef);
  world.StartRecording();
  std::unique_ptr<mk::scenes::SceneState> state =
      info.build(world, mk::scenes::ResolveParams(info, options.params));
  std::uint64_t beforeLast = 0;
  for (int i = 0; i < steps; ++i) {
    state->PreStep(world, i);
    world.Step(mk::scenes::kTimeStep);
    if (i == steps - 2) beforeLast = world.StateHash();
  }
  mk::Replay replay;
  if (mk::Replay::Load(mk::StopRecording(world), replay) != mk::ReplayError::None) return false;
  {
    // Warm-up: the first replay in a process pays for page faults and cold caches.
    mk::ReplayPlayer warm(replay);
    warm.SetKeyframes(0, 2);
    warm.PlayToEnd();
  }
  bool ok = true;
  std::printf("%s,%d", info.name, steps);
  for (const bool keyframes : {true, false}) {
    mk::ReplayPlayer player(replay);
    if (!keyframes) player.SetKeyframes(0, 2);
    double t0 = mk::bench::NowNs();
    player.PlayToEnd();
    const double forward = (mk::bench::NowNs() - t0) / 1e6 / steps;
    std::vector<double> back;
    for (int r = 0; r < options.runs; ++r) {
      player.StepTo(static_cast<std::uint64_t>(steps));
      t0 = mk::bench::NowNs();
      player.StepTo(static_cast<std::uint64_t>(steps - 1));
      back.push_back((mk::bench::NowNs() - t0) / 1e6);
      ok = ok && player.GetWorld().StateHash() == beforeLast;
    }
    std::printf(",%.3f,%.2f,%d,%.1f", forward, Median(back), player.KeyframeCount(),
                static_cast<double>(player.KeyframeBytes()) / 1e6);
  }
  std::printf(",%s\n", ok ? "yes" : "no");
  std::fflush(stdout);
  return ok;
}

// One scene's build cost row.
void BuildCost(const SceneInfo& info, const Options& options) {
  std::vector<double> ms;
  mk::Counters counters;
  for (int r = 0; r < options.runs; ++r) {
    const double t0 = mk::bench::NowNs();
    mk::scenes::SceneRun run(info, options.params, false, options.placement);
    ms.push_back((mk::bench::NowNs() - t0) / 1e6);
    run.Step();  // untimed: the counters are the first step's
    counters = run.GetWorld().GetCounters();
  }
  std::printf("%s,%d,%d,%d,%.3f\n", info.name, counters.bodies, counters.shapes, counters.joints, Median(ms));
  std::fflush(stdout);
}

// One scene's quality figures row.
void PrintFigures(const SceneInfo& info, const Options& options) {
  mk::scenes::SceneRun run(info, options.params, false, options.placement);
  const mk::scenes::SceneFigures f =
      mk::scenes::MeasureFigures(run, options.steps > 0 ? options.steps : info.defaultSteps);
  char energy[32] = "n/a";
  if (f.energyKept >= 0.0f) std::snprintf(energy, sizeof energy, "%.3f", static_cast<double>(f.energyKept));
  std::printf("%s,%s,%d,%.4f,%.4f,%.4f,%.4f,%d,%.4f,%d,%.3f,%s\n", info.name, info.category, f.steps,
              static_cast<double>(f.maxPenetration), static_cast<double>(f.finalPenetration),
              static_cast<double>(f.topDrift), static_cast<double>(f.sideDrift), f.escaped,
              static_cast<double>(f.jointError), f.sleepStep, static_cast<double>(f.finalMaxSpeed), energy);
  std::fflush(stdout);
}

bool Parse(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--list") {
      options.list = true;
    } else if (arg == "--no-recycling") {
      options.recycling = false;
    } else if (arg == "--snapshot-cost") {
      options.snapshotCost = true;
    } else if (arg == "--scrub-cost") {
      options.scrubCost = true;
    } else if (arg == "--build-cost") {
      options.buildCost = true;
    } else if (arg == "--figures") {
      options.figures = true;
    } else if (arg == "--scene" && hasValue) {
      options.scene = argv[++i];
    } else if (arg == "--runs" && hasValue) {
      if (!mk::bench::ParseInt(argv[++i], options.runs)) return false;
    } else if (arg == "--steps" && hasValue) {
      if (!mk::bench::ParseInt(argv[++i], options.steps)) return false;
    } else if (arg == "--size" && hasValue) {
      if (!mk::bench::ParseInt(argv[++i], options.params.size)) return false;
    } else if (arg == "--count" && hasValue) {
      if (!mk::bench::ParseInt(argv[++i], options.params.count)) return false;
    } else if (arg == "--offset" && hasValue) {
      double x = 0.0, y = 0.0;
      if (std::sscanf(argv[++i], "%lf,%lf", &x, &y) != 2 || !(std::fabs(x) <= mk::kMaxWorldPosition) ||
          !(std::fabs(y) <= mk::kMaxWorldPosition))
        return false;
      using Coordinate = decltype(options.placement.offset.x);
      options.placement.offset = mk::Pos{static_cast<Coordinate>(x), static_cast<Coordinate>(y)};
    } else if (arg == "--origin-at-zero") {
      options.placement.originAtOffset = false;
    } else if (arg == "--workers" && hasValue) {
      if (!mk::bench::ParseInt(argv[++i], options.workers) || options.workers < 1 ||
          options.workers > mk::kMaxWorkers)
        return false;
    } else if (arg == "--substeps" && hasValue) {
      const std::string_view use = argv[++i];
      if (use == "measured") {
        options.subSteps = mk::WorkerUse::Measured;
      } else if (use == "workers") {
        options.subSteps = mk::WorkerUse::Workers;
      } else if (use == "caller") {
        options.subSteps = mk::WorkerUse::CallingThread;
      } else {
        return false;
      }
    } else if (arg == "--pool-threads" && hasValue) {
      const std::string_view threads = argv[++i];
      if (threads == "hardware") {
        options.poolThreads = mk::PoolThreads::AtMostHardware;
      } else if (threads == "asked") {
        options.poolThreads = mk::PoolThreads::AsAsked;
      } else {
        return false;
      }
    } else if (arg == "--lanes" && hasValue) {
      if (!mk::bench::ParseInt(argv[++i], options.lanes) || (options.lanes != 4 && options.lanes != 8))
        return false;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!Parse(argc, argv, options)) {
    PrintUsage();
    return 1;
  }
  std::unique_ptr<mk::TaskPool> pool;
  if (options.workers > 1) {
    pool = std::make_unique<mk::TaskPool>(options.workers, options.poolThreads);
    options.pool = pool.get();
  }
  if (options.list) {
    for (const SceneInfo& info : mk::scenes::SceneTable()) {
      std::printf("%s,%s,%d,%s,%s\n", info.name, info.category, info.defaultSteps, info.description,
                  info.paramHelp);
    }
    return 0;
  }
  std::vector<const SceneInfo*> selected;
  if (options.scene == "all") {
    for (const SceneInfo& info : mk::scenes::SceneTable()) selected.push_back(&info);
  } else if (const SceneInfo* info = mk::scenes::FindScene(options.scene)) {
    selected.push_back(info);
  } else {
    std::fprintf(stderr, "unknown scene '%.*s' (try --list)\n", static_cast<int>(options.scene.size()),
                 options.scene.data());
    return 1;
  }
  // --lanes: the selected rows again with that width (SceneRun keeps a pointer: they live to the end).
  std::vector<SceneInfo> rows;
  if (options.lanes != 0) {
    rows.reserve(selected.size());
    for (const SceneInfo*& info : selected) {
      info = &rows.emplace_back(*info);
      rows.back().worldDef.simdWidth = options.lanes == 8 ? mk::SimdWidth::Lanes8 : mk::SimdWidth::Lanes4;
    }
    const int taken = mk::World(rows.front().worldDef).GetSimdWidth();
    if (taken != options.lanes)
      std::fprintf(stderr, "--lanes %d: this CPU or build runs %d lanes\n", options.lanes, taken);
  }
  if (options.snapshotCost) {
    std::printf("scene,bodies,steps,snapshot_bytes,save_us,restore_us,restore_fresh_us,restore_ok\n");
    bool allOk = true;
    for (const SceneInfo* info : selected) allOk = SnapshotCost(*info, options) && allOk;
    return allOk ? 0 : 2;
  }
  if (options.buildCost) {
    std::printf("scene,bodies,shapes,joints,build_ms\n");
    for (const SceneInfo* info : selected) BuildCost(*info, options);
    return 0;
  }
  if (options.figures) {
    std::printf(
        "scene,category,steps,max_penetration_m,final_penetration_m,top_drift_m,side_drift_m,escaped,"
        "joint_error_m,sleep_step,final_max_speed,energy_kept\n");
    for (const SceneInfo* info : selected) PrintFigures(*info, options);
    return 0;
  }
  if (options.scrubCost) {
    std::printf(
        "scene,steps,keyed_forward_ms_per_step,keyed_back_one_ms,keyframes,keyframe_mb,"
        "plain_forward_ms_per_step,plain_back_one_ms,plain_keyframes,plain_keyframe_mb,hash_ok\n");
    bool allOk = true;
    for (const SceneInfo* info : selected) allOk = ScrubCost(*info, options) && allOk;
    return allOk ? 0 : 2;
  }
  std::printf(
      "scene,bodies,contacts,joints,steps,runs,ms_per_step,broadphase_ms,narrowphase_ms,solver_ms,"
      "islands_ms,continuous_ms,state_hash,hash_ok,manifold_queries,manifolds_reused,substeps_on_workers\n");
  bool allOk = true;
  for (const SceneInfo* info : selected) allOk = RunScene(*info, options) && allOk;
  return allOk ? 0 : 2;
}
