// SPDX-License-Identifier: MIT
// The Profile's per-worker table (worker_load.h): tasks dated into the Step's stages, the Step's thread
// busy all but its waits, the pool's threads busy while in ranges; on a real scene with two workers
// both work and together stay within two Steps' time; with one worker one row; lines that fit.
#include "worker_load.h"

#include "panel_text.h"
#include "scene_view.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

constexpr std::int64_t kMs = 1000000;  // ns

// A task of the Step that began at `start`: from `from` to `to` ms into it, `w1` ms in ranges on
// worker 1 and `wait` ms of the Step's thread waiting in finish.
TimedTask Task(std::int64_t start, double from, double to, double w1, double wait) {
  TimedTask t;
  t.enqueuedNs = start + static_cast<std::int64_t>(from * kMs);
  t.finishedNs = start + static_cast<std::int64_t>(to * kMs);
  t.rangeNs[1] = static_cast<std::int64_t>(w1 * kMs);
  t.callerWaitNs = static_cast<std::int64_t>(wait * kMs);
  return t;
}

}  // namespace

TEST_SUITE("sandbox.worker_load") {

TEST_CASE("tasks count in the stage their middle falls in and the Step's thread loses its waits") {
  Profile p;
  p.step = 10.0f;  // broadphase 0..1 ms, narrowphase 1..3, solver 3..8, the rest 8..10
  p.broadphase = 1.0f;
  p.narrowphase = 2.0f;
  p.solver = 5.0f;
  const std::int64_t end = 1000 * kMs, start = end - 10 * kMs;
  const std::vector<TimedTask> tasks = {
      Task(start, -3.0, -1.0, 5.0, 0.2),  // an earlier Step's: not this one's
      Task(start, 0.1, 0.9, 0.4, 0.1),    // broadphase
      // narrowphase, though it starts 0.2 ms before the stage's estimated start: its middle is inside
      Task(start, 0.8, 2.8, 1.0, 0.3), Task(start, 3.5, 7.5, 3.8, 0.5),  // solver
  };
  const WorkerLoad load = MeasureWorkerLoad(2, p, end, tasks);
  REQUIRE(load.workers == 2);
  CHECK(load.stepMs == 10.0f);
  CHECK(load.busyMs[0][kStageBroadphase] == doctest::Approx(0.9));
  CHECK(load.busyMs[0][kStageNarrowphase] == doctest::Approx(1.7));
  CHECK(load.busyMs[0][kStageSolver] == doctest::Approx(4.5));
  CHECK(load.busyMs[0][kStageOther] == doctest::Approx(2.0));
  CHECK(load.busyMs[1][kStageBroadphase] == doctest::Approx(0.4));
  CHECK(load.busyMs[1][kStageNarrowphase] == doctest::Approx(1.0));
  CHECK(load.busyMs[1][kStageSolver] == doctest::Approx(3.8));
  CHECK(load.busyMs[1][kStageOther] == 0.0f);
  CHECK(load.BusyMs(1) == doctest::Approx(5.2));
}

TEST_CASE("two workers on a big scene both work and stay within two steps of time") {
  const scenes::SceneInfo& info = *scenes::FindScene("large_pyramid");
  SceneSettings s = DefaultSettings(info);
  s.workers = 2;
  SceneView view(info, s);
  CHECK(view.Workers().workers == 0);  // no step yet: no table
  // A loaded machine may leave the pool's thread asleep through a whole step (the Step's thread then
  // runs every range): both working is asked of some step, the bounds of every one.
  int bothBusy = 0;
  for (int i = 0; i < 20; ++i) {
    view.StepOnce();
    const WorkerLoad& load = view.Workers();
    REQUIRE(load.workers == 2);
    CHECK(load.stepMs == view.GetWorld().GetProfile().step);
    const float slack = 0.01f;  // ms: the sandbox's clock reads against the engine's stage timers
    CHECK(load.BusyMs(0) <= load.stepMs + slack);
    CHECK(load.BusyMs(1) <= load.stepMs + slack);
    CHECK(load.BusyMs(0) + load.BusyMs(1) <= 2.0f * load.stepMs + slack);
    if (load.BusyMs(0) > 0.0f && load.BusyMs(1) > 0.0f) ++bothBusy;
    CHECK(WorkerLoadLines(load).size() == 3);  // the head and two rows
  }
  CHECK(bothBusy > 0);
  // The pool's thread's ranges are counted in the stage they ran in: in the rest of the Step (the
  // sleep times and the move events are parallel-fors there) it cannot have been busy for longer
  // than that rest lasted; its solver ranges, counted there, would be far longer.
  const Profile& p = view.GetWorld().GetProfile();
  const float restMs = p.step - p.broadphase - p.narrowphase - p.solver;
  CHECK(view.Workers().busyMs[1][kStageOther] <= std::max(0.0f, restMs) + 0.01f);
}

TEST_CASE("one worker shows one row that is the profile's stages") {
  const scenes::SceneInfo& info = *scenes::FindScene("large_pyramid");
  SceneSettings s = DefaultSettings(info);
  s.params.size = 20;
  SceneView view(info, s);
  for (int i = 0; i < 3; ++i) view.StepOnce();
  const WorkerLoad& load = view.Workers();
  const Profile& p = view.GetWorld().GetProfile();
  REQUIRE(load.workers == 1);
  CHECK(load.busyMs[0][kStageBroadphase] == p.broadphase);
  CHECK(load.busyMs[0][kStageNarrowphase] == p.narrowphase);
  CHECK(load.busyMs[0][kStageSolver] == p.solver);
  CHECK(load.BusyMs(0) == doctest::Approx(p.step));
  const std::vector<std::string> lines = WorkerLoadLines(load);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].rfind("w0 ", 0) == 0);
}

TEST_CASE("the worker lines fit the panel and keep a space between figures") {
  WorkerLoad load;
  load.workers = kMaxSandboxWorkers;
  load.stepMs = 1234.5f;
  for (auto& row : load.busyMs) row = {123.456f, 12.345f, 99999.0f, 0.000341f};
  const std::vector<std::string> lines = WorkerLoadLines(load);
  REQUIRE(lines.size() == static_cast<size_t>(kMaxSandboxWorkers) + 1);
  CHECK(lines[0] == "ms   broad narrow solver  other    all");
  for (const std::string& line : lines) {
    CAPTURE(line);
    CHECK(line.size() <= static_cast<size_t>(kPanelColumns));
    CHECK(line.find('#') == std::string::npos);
    std::istringstream words(line);  // a label and five figures, none run into another
    std::vector<std::string> fields{std::istream_iterator<std::string>(words), {}};
    CHECK(fields.size() == 6);
  }
  std::string lastLabel = "w";  // (appended: GCC 12 warns falsely on "w" + std::string)
  lastLabel += std::to_string(kMaxSandboxWorkers - 1);
  lastLabel += ' ';
  CHECK(lines.back().rfind(lastLabel, 0) == 0);
  CHECK(lines.back().find(" 123.46 12.345  99999  0.000 100135") != std::string::npos);
}

}  // TEST_SUITE("sandbox.worker_load")
