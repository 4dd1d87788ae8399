// SPDX-License-Identifier: MIT
// MeasuredChoice (core/measured_choice.h): which way to run a stage, learnt from timings. Oracle: a
// simulated stage whose time per item each way is known (with seeded noise, and spikes of a thread
// the system stopped), so the right way is known; the choice must settle on it within a bound of
// runs, stay there, and spend few runs on the wrong way once settled.
#include "core/measured_choice.h"

#include "test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace mk;

namespace {

// A stage whose run takes `workersMs` or `callerMs` per item, times a noise factor in [1 - noise,
// 1 + noise], and now and then (one run in `spikeEvery`) ten times as long.
struct SimulatedStage {
  double workersMs = 1.0, callerMs = 1.0, noise = 0.1;
  int items = 1000, spikeEvery = 0;
  test::Rng rng{31};
  int run = 0;

  // One run the way `choice` says; returns whether it went on the workers.
  bool Run(MeasuredChoice& choice) {
    const bool onWorkers = choice.NextOnWorkers();
    double ms = (onWorkers ? workersMs : callerMs) * items * (1.0 + noise * (2.0 * rng.Unit() - 1.0));
    if (spikeEvery > 0 && ++run % spikeEvery == 0) ms *= 10.0;
    choice.Record(ms, items);
    return onWorkers;
  }
};

// Runs until the usual way is `onWorkers` (at most `limit` runs); returns the runs taken, or -1.
int RunsUntilUsual(MeasuredChoice& choice, SimulatedStage& stage, bool onWorkers, int limit) {
  for (int i = 1; i <= limit; ++i) {
    stage.Run(choice);
    if (choice.UsualOnWorkers() == onWorkers) return i;
  }
  return -1;
}

}  // namespace

TEST_CASE("MeasuredChoice starts on the workers and leaves them when the calling thread is clearly faster") {
  for (double callerShare : {0.3, 0.5, 0.8}) {
    INFO("caller's time over the workers' " << callerShare);
    MeasuredChoice choice;
    CHECK(choice.NextOnWorkers());
    SimulatedStage stage{.workersMs = 1.0, .callerMs = callerShare};
    // Warm-up, the first usual run, then trials kFirstInterval usual runs apart, kTrialsToSwitch of them.
    const int bound = MeasuredChoice::kWarmUpRuns + 1 +
                      MeasuredChoice::kTrialsToSwitch * (MeasuredChoice::kFirstInterval + 1);
    const int taken = RunsUntilUsual(choice, stage, false, 1000);
    CHECK(taken > 0);
    CHECK(taken <= bound);
    // Once there it stays. Trials back on the workers are never closer than kFirstInterval runs, and
    // where every trial is clear (twice as slow or more, beyond the noise) they thin out to one in
    // kMaxInterval runs, plus the doublings that lead up to it.
    int onWorkers = 0;
    for (int i = 0; i < 2000; ++i) onWorkers += stage.Run(choice) ? 1 : 0;
    CHECK_FALSE(choice.UsualOnWorkers());
    CHECK(onWorkers <= 2000 / (MeasuredChoice::kFirstInterval + 1) + 1);
    if (callerShare <= 0.5) CHECK(onWorkers <= 2000 / MeasuredChoice::kMaxInterval + 3 + 6);
  }
}

TEST_CASE("MeasuredChoice keeps the workers when they are faster or when the two ways are too close") {
  for (double callerShare : {1.6, 3.0, 0.95, 1.0}) {
    INFO("caller's time over the workers' " << callerShare);
    MeasuredChoice choice;
    SimulatedStage stage{.workersMs = 1.0, .callerMs = callerShare, .noise = 0.03};
    int onCaller = 0;
    for (int i = 0; i < 3000; ++i) onCaller += stage.Run(choice) ? 0 : 1;
    CHECK(choice.UsualOnWorkers());
    if (callerShare > 1.5) CHECK(onCaller <= 3000 / MeasuredChoice::kMaxInterval + 3 + 6);
  }
}

TEST_CASE("MeasuredChoice rarely switches between two ways equally fast") {
  // Noise of +-20% a run: a trial lands below kSwitchBelow of the usual average about one time in
  // four, so a switch on one trial would come every few trials; it takes kTrialsToSwitch in a row
  // (about one in 60 trials here). Bound: one switch in 25 trials.
  MeasuredChoice choice;
  SimulatedStage stage{.workersMs = 1.0, .callerMs = 1.0, .noise = 0.2};
  int switches = 0, trials = 0;
  bool usual = choice.UsualOnWorkers();
  for (int i = 0; i < 5000; ++i) {
    trials += choice.NextOnWorkers() != usual ? 1 : 0;
    stage.Run(choice);
    switches += choice.UsualOnWorkers() != usual ? 1 : 0;
    usual = choice.UsualOnWorkers();
  }
  CHECK(trials > 500);  // too close to call: trials stay kFirstInterval apart
  CHECK(switches * 25 <= trials);
}

TEST_CASE("MeasuredChoice follows the machine when the faster way changes") {
  MeasuredChoice choice;
  SimulatedStage stage{.workersMs = 1.0, .callerMs = 2.0};
  for (int i = 0; i < 1000; ++i) stage.Run(choice);
  REQUIRE(choice.UsualOnWorkers());
  stage.callerMs = 0.4;  // the cores grew far apart: the workers now take 2.5 times as long
  // The next trial comes within kMaxInterval runs; it and one more a few runs later move the average.
  const int toCaller = RunsUntilUsual(choice, stage, false, 1000);
  CHECK(toCaller > 0);
  CHECK(toCaller <= MeasuredChoice::kMaxInterval + 2 * (MeasuredChoice::kFirstInterval + 1) + 2);
  for (int i = 0; i < 1000; ++i) stage.Run(choice);
  stage.workersMs = 0.2;  // and back: the workers at half the caller's time
  const int toWorkers = RunsUntilUsual(choice, stage, true, 1000);
  CHECK(toWorkers > 0);
  CHECK(toWorkers <= MeasuredChoice::kMaxInterval + 2 * (MeasuredChoice::kFirstInterval + 1) + 2);
}

TEST_CASE("MeasuredChoice is not moved by runs the system stopped or by a scene that grows") {
  SUBCASE("one run in seven ten times as long, the workers 1.5 times faster") {
    MeasuredChoice choice;
    SimulatedStage stage{.workersMs = 1.0, .callerMs = 1.5, .spikeEvery = 7};
    for (int i = 0; i < 3000; ++i) stage.Run(choice);
    CHECK(choice.UsualOnWorkers());
  }
  SUBCASE("the items anywhere from 100 to 1,000 a run while the workers stay 1.5 times faster per item") {
    MeasuredChoice choice;
    SimulatedStage stage{.workersMs = 1.0, .callerMs = 1.5};
    test::Rng items(77);
    int onCaller = 0;
    for (int i = 0; i < 3000; ++i) {
      stage.items = items.Int(100, 1000);
      stage.Run(choice);
      onCaller += choice.UsualOnWorkers() ? 0 : 1;
    }
    CHECK(onCaller == 0);
  }
}

TEST_CASE("MeasuredChoice ignores times that are not finite and positive") {
  MeasuredChoice choice;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 200; ++i) {
    for (double bad : {nan, inf, -1.0, 0.0}) choice.Record(bad, 10);
  }
  CHECK(choice.UsualOnWorkers());
  // Afterwards it learns from good times as a new choice would (the bad ones left nothing behind).
  SimulatedStage stage{.workersMs = 1.0, .callerMs = 0.4};
  MeasuredChoice fresh;
  SimulatedStage freshStage{.workersMs = 1.0, .callerMs = 0.4};
  CHECK(RunsUntilUsual(choice, stage, false, 1000) == RunsUntilUsual(fresh, freshStage, false, 1000));
  // Zero or negative items count as one, and Reset forgets everything.
  choice.Record(5.0, 0);
  choice.Record(5.0, -3);
  choice.Reset();
  CHECK(choice.UsualOnWorkers());
  CHECK(choice.NextOnWorkers());
}
