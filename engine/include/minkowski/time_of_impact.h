// SPDX-License-Identifier: MIT
// Minkowski — time of impact between two moving convex shapes, for continuous collision (fast bodies
// that would otherwise pass through thin shapes between two steps).
//
// Each shape moves along a sweep: its body's centre of mass moves in a straight line and its angle
// changes linearly over the fraction t in [0, 1] of the step. TimeOfImpact finds the first t at which
// the surfaces (cores plus radii) come within a target separation, by conservative advancement
// (Mirtich, "Impulse-based dynamic simulation of rigid body systems", 1996) on GJK distance: at a
// safe t the distance d and its normal n give a bound on how fast the shapes can approach, so t may
// advance by (d - target) / bound and still be safe (the bound is derived in time_of_impact.cpp).
// Nothing allocates.
#pragma once

#include "minkowski/distance.h"
#include "minkowski/export.h"
#include "minkowski/geometry.h"
#include "minkowski/math.h"

#include <cstdint>

namespace MK_API mk {

/// Target surface separation (m) TimeOfImpact stops at by default: the default linear slop, so a body
/// moved back to its time of impact sits just inside the speculative contact distance (2 cm) and the
/// contact solver takes over at the next step.
inline constexpr float kToiDefaultTarget = 0.005f;

/// Default tolerance (m) around the target: a hit is reported once the separation is within
/// target + tolerance; shapes closer than target - tolerance at t = 0 are reported as overlapping.
inline constexpr float kToiDefaultTolerance = 0.25f * kToiDefaultTarget;

/// TimeOfImpact gives up after this many advancement steps (one GJK distance query each). Straight
/// motion converges in 2-4; a long bar turning fast against a wall needs a few tens, since the bound
/// counts its whole length's turning speed.
inline constexpr int kToiMaxIterations = 64;

/// The motion of a body over one step, as TimeOfImpact sees it: the centre of mass moves in a
/// straight line from c1 to c2 and the angle changes linearly from a1 to a2.
struct Sweep {
  Vec2 localCenter{0.0f, 0.0f};  ///< centre of mass in the body frame (m)
  Vec2 c1{0.0f, 0.0f};           ///< world centre of mass at t = 0 (m)
  Vec2 c2{0.0f, 0.0f};           ///< world centre of mass at t = 1 (m)
  float a1 = 0.0f;               ///< body angle at t = 0 (rad)
  float a2 = 0.0f;               ///< body angle at t = 1 (rad)
};

/// The body transform (origin and rotation) of a sweep at fraction t (usually in [0, 1]).
Transform GetSweepTransform(const Sweep& sweep, float t);

/// Two shapes (cores in their body frames, see MakeProxy) and the sweeps of their bodies.
struct ToiInput {
  ShapeProxy proxyA;                       ///< A's core in its body frame
  ShapeProxy proxyB;                       ///< B's core in its body frame
  Sweep sweepA;                            ///< A's body motion over the step
  Sweep sweepB;                            ///< B's body motion over the step
  float maxFraction = 1.0f;                ///< search t in [0, maxFraction] (0..1)
  float target = kToiDefaultTarget;        ///< surface separation to stop at (m, >= 0)
  float tolerance = kToiDefaultTolerance;  ///< accepted error around the target (m, > 0)
};

/// How a time-of-impact query ended.
enum class ToiStatus : std::uint8_t {
  Hit,           ///< the shapes come within target +- tolerance at `fraction`
  Separated,     ///< they stay farther apart than the target over [0, maxFraction]; fraction = maxFraction
  Overlapping,   ///< closer than target - tolerance already at t = 0; fraction = 0
  IterationCap,  ///< kToiMaxIterations reached; `fraction` is still safe (farther than the target)
  InvalidInput   ///< null or empty proxy, non-finite sweep (NaN or Inf), maxFraction outside [0, 1],
                 ///< or a negative / non-finite target or tolerance; fraction = 0
};

/// Result of TimeOfImpact.
struct ToiOutput {
  float fraction = 0.0f;  ///< t in [0, maxFraction] (see the status)
  /// core distance minus both radii at `fraction` (m): < 0 when the surfaces overlap, -(rA + rB) when
  /// the cores do; 0 for InvalidInput
  float separation = 0.0f;
  int iterations = 0;                          ///< advancement steps taken (GJK distance queries minus one)
  ToiStatus status = ToiStatus::InvalidInput;  ///< how the query ended
};

/// First fraction of the sweeps at which the shapes' surfaces come within input.target (conservative
/// advancement on ShapeDistance, at most kToiMaxIterations steps). Every fraction before the reported
/// one is free of contact closer than target - tolerance, so the pose at `fraction` is a safe place
/// to stop a body. A turn of more than half a revolution within the sweep is followed as given
/// (a1 to a2), not reduced.
ToiOutput TimeOfImpact(const ToiInput& input);

}  // namespace mk
