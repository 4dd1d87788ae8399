// SPDX-License-Identifier: MIT
// Internal: one fast body's sweep in the continuous stage (continuous.cpp). WorldState keeps one per
// fast body (FastSweep) so that the stage's parallel pass can leave each body's outcome in its own
// slot, for the calling thread to apply in body order.
#pragma once

#include "minkowski/math.h"
#include "minkowski/time_of_impact.h"

#include <utility>
#include <vector>

namespace mk {

struct WorldState;

struct SweepContext {
  WorldState* world = nullptr;
  float dt = 0.0f;  // the step (s)
  int body = -1;    // the fast body
  Pos origin{};     // FrameOrigin of its start centre: the sweeps' frame (the world's in the default build)
  int shape = -1;   // its shape being swept
  bool bullet = false;
  // Made when the first candidate arrives (most fast bodies meet none; the sweep costs two atan2):
  bool sweepReady = false;  // sweep, for the body
  bool sweptReady = false;  // swept, for `shape`
  Sweep sweep;
  AABB swept{};  // tight box of the swept shape over the step (with the turn's bulge and the tolerance)
  float target = kToiDefaultTarget;
  float fraction = 1.0f;  // earliest time of impact so far
  int hitShape = -1;      // the body's shape and the shape it hits at `fraction` (for the record)
  int hitTarget = -1;
  // Set when a static surface holds the body at its start pose (HoldsAgainstStatic): the surface's
  // normal there, from the surface towards the body.
  bool held = false;
  Vec2 holdNormal{0.0f, 0.0f};
  // Set when the earliest time of impact is against a static shape the body already touched at the
  // start (the inset or corner sweeps): where and along which normal (from that shape towards the
  // body) the swept proxy reached it, for StopAtTouch.
  bool touchStop = false;
  Vec2 touchPoint{0.0f, 0.0f};
  Vec2 touchNormal{0.0f, 0.0f};
  // The sweep of the last candidate's body: neighbouring candidates are mostly shapes of one body
  // (a static ground, a ring of segments), and each sweep costs an atan2.
  int otherBody = -1;
  Sweep otherSweep;
  // Where the (fast shape, sensor shape) pairs in the swept boxes go: WorldState::sweptSensors on the
  // calling thread, the body's FastSweep::sensors in the parallel pass.
  std::vector<std::pair<int, int>>* sensors = nullptr;
  // Swept by the parallel pass, ahead of the bodies before it (SolveContinuous); set when the sweep met
  // what such a body may not read (a moving sensor): the body is then swept again in its turn.
  bool outOfOrder = false;
  bool redoInOrder = false;
};

/// A fast body's sweep done by the continuous stage's parallel pass (SolveContinuous), kept between
/// steps so that its sensor list keeps its capacity.
struct FastSweep {
  SweepContext context;
  std::vector<std::pair<int, int>> sensors;
  bool swept = false;  ///< false: the body is swept on the calling thread, in order
  /// Swept, and applying it would change nothing: no time of impact, no hold now or at the start, no
  /// sensor crossed (most falling bodies). Its turn skips the body's lines (SolveContinuous).
  bool noOutcome = false;
};

}  // namespace mk
