// SPDX-License-Identifier: MIT
// Internal: what continuous collision (continuous.cpp) sweeps for a body and its shapes: the body's
// sweep over the step (start and end centre and angle, whole turns included), the point of a shape it
// tracks, the shape shrunk under its surface for a body that already touches, and the bulge of a turn
// that the end poses' boxes miss.
#pragma once

#include "minkowski/time_of_impact.h"
#include "world/world_state.h"

namespace mk {

/// The body's turn over the step (rad), whole turns included (see body_sweep.cpp).
float StepTurn(const Body& body, float dt);

/// The body's sweep over the step: from its pose at the start of the step to its pose now (a body
/// that did not move this step, static or resting, sweeps in place), its centres relative to `origin`
/// (FrameOrigin: zero in the default build, so the sweep is in the world frame there).
Sweep MakeBodySweep(const Body& body, float dt, Pos origin);

/// Mean of a shape's core points (local frame): the point continuous collision tracks.
Vec2 CoreCentre(const ShapeGeometry& geometry);

/// A shape shrunk under its surface (MakeInsetProxy): the proxy, and how far under the surface it
/// really is (m; 0: it is the shape).
struct InsetProxy {
  ShapeProxy proxy;
  float depth = 0.0f;
};

/// The shape shrunk up to `depth` (m) under its surface; `points`: room for kMaxPolygonVertices.
InsetProxy MakeInsetProxy(const ShapeGeometry& geometry, float depth, Vec2* points);

/// True when the shape's core centre starts the step behind a chain segment (or on its line), which
/// the shape then ignores, as the narrowphase does.
bool BehindChainSegment(const ShapeGeometry& chain, const Transform& chainXf, const ShapeGeometry& geometry,
                        const Sweep& sweep);

/// A segment that does not move over the step: its core (two points, in its body frame, and its
/// radius) and its body's transform in the sweeps' frame.
struct StillSegment {
  ShapeProxy core;
  Transform xf;
};

/// True when `proxy` (a shape's core in its body frame), swept by `sweep` from rotation `start` to
/// `end` (the sweep's a1 and a2 as rotations, from the body: no trigonometry here), stays more than
/// `clearance` (m) from the line through `segment` on one side over the whole step. A time of impact
/// whose target and tolerance sum to less than `clearance` finds no hit then.
bool SweepClearOfSegmentLine(const StillSegment& segment, const ShapeProxy& proxy, const Sweep& sweep,
                             Rot start, Rot end, float clearance);

/// How far (m) a point `arm` from the centre of mass leaves the chord between its end positions when
/// the body turns from `start` to `end` by at most half a turn: arm (1 - cos(turn / 2)), cos(turn / 2)
/// from the relative rotation's cosine (no trigonometry).
float ChordBulge(float arm, Rot start, Rot end);

/// How far (m) a point `maxExtent` from the centre of mass leaves the chord between its end
/// positions when the body turns by `turn` (rad).
float TurnBulge(float maxExtent, float turn);

}  // namespace mk
