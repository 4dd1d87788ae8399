// SPDX-License-Identifier: MIT
// Internal: MeasuredChoice, which of two ways to run a stage (on the workers, or on the calling thread
// alone) is faster here and now, learnt from the stage's own timings. Both ways give the same results,
// bit for bit; only the time differs, and it differs by machine and by hour: on two cores that share a
// cache a stage of many small hand-overs gains from a second worker, on two cores far apart (a cache
// line 400-550 ns a round trip) the same stage can take twice as long on two workers as on one
// (docs/benchmarks.md, "The sub-steps on the calling thread while that is faster").
#pragma once

#include <algorithm>
#include <cmath>

namespace mk {

/// Runs the stage the usual way, and now and then the other way (a trial); switches when
/// kTrialsToSwitch trials in a row are clearly faster, per item, than the usual runs around them
/// (below kSwitchBelow of their time), so one lucky trial does not move it. A trial clearly slower
/// (above kConfirmAbove) doubles the wait before the next (up to kMaxInterval runs), so a choice that is
/// plainly right costs about one slow run in kMaxInterval; any other trial, and a switch, starts the
/// waits again from kFirstInterval, so a machine that changed pace is followed within about
/// kMaxInterval runs. Times that are not finite and positive are ignored.
class MeasuredChoice {
 public:
  static constexpr int kWarmUpRuns = 4;        // the first runs allocate: not timed
  static constexpr int kFirstInterval = 4;     // usual runs before the first trial, and after a switch
  static constexpr int kMaxInterval = 128;     // usual runs between trials, at most
  static constexpr int kTrialsToSwitch = 3;    // trials in a row clearly faster before a switch
  static constexpr float kSwitchBelow = 0.9f;  // the other way's time per item, as a share of the usual
  static constexpr float kConfirmAbove = 1.15f;
  static constexpr double kOutlierAbove = 2.0;  // a usual run this many times the average: left out
  static constexpr int kOutliersToAccept = 3;   // ... unless this many come in a row

  /// The way the next run goes: true for the workers.
  bool NextOnWorkers() const { return trialNext_ ? !onWorkers_ : onWorkers_; }
  /// The way the usual runs go now.
  bool UsualOnWorkers() const { return onWorkers_; }

  /// The run NextOnWorkers announced took `ms` for `items` items (bodies and constraints: so that a
  /// scene that grows or settles between trials compares like with like).
  void Record(double ms, int items) {
    const double rate = ms / std::max(items, 1);
    const bool trial = trialNext_;
    trialNext_ = false;
    if (!(rate > 0.0) || !std::isfinite(rate)) return;
    if (warmUp_ < kWarmUpRuns) {
      ++warmUp_;
      return;
    }
    if (usual_ <= 0.0) {  // the first timed run is a usual one (trialNext_ starts false)
      usual_ = rate;
      countdown_ = kFirstInterval;
      return;
    }
    if (trial) {
      RecordTrial(rate);
      return;
    }
    // An average over about eight runs. A run more than twice the average is a thread the system
    // stopped, and left out (averaged in, one a few runs would inflate the usual time enough to make
    // the other way look faster); three in a row are the machine's new pace.
    const bool outlier = rate > kOutlierAbove * usual_;
    outliers_ = outlier ? outliers_ + 1 : 0;
    if (!outlier) {
      usual_ += (rate - usual_) / 8.0;
    } else if (outliers_ >= kOutliersToAccept) {
      usual_ = rate;
      outliers_ = 0;
    }
    if (--countdown_ <= 0) trialNext_ = true;
  }

  /// Forgets everything learnt (a new task system): the workers first, as before any measurement.
  void Reset() { *this = MeasuredChoice{}; }

 private:
  void RecordTrial(double rate) {
    const double ratio = rate / usual_;
    fasterTrials_ = ratio < kSwitchBelow ? fasterTrials_ + 1 : 0;
    if (fasterTrials_ >= kTrialsToSwitch) {
      onWorkers_ = !onWorkers_;
      usual_ = rate;
      fasterTrials_ = 0;
      interval_ = kFirstInterval;
    } else if (ratio > kConfirmAbove) {
      interval_ = std::min(2 * interval_, kMaxInterval);
    } else {
      interval_ = kFirstInterval;  // too close to call, or faster: look again soon
    }
    countdown_ = interval_;
  }

  bool onWorkers_ = true;
  bool trialNext_ = false;
  int warmUp_ = 0;
  int countdown_ = 0;
  int interval_ = kFirstInterval;
  int fasterTrials_ = 0;  // trials in a row clearly faster than the usual runs
  int outliers_ = 0;      // usual runs left out in a row
  double usual_ = 0.0;    // ms per item of the usual runs, a running average
};

}  // namespace mk
