// SPDX-License-Identifier: MIT
// Minkowski — what World::Draw and the continuous stage's recording take and give: DrawOptions and
// ContinuousRecord (included by world.h).
#pragma once

#include "minkowski/export.h"
#include "minkowski/math.h"
#include "minkowski/world_types.h"

namespace MK_API mk {

/// Toggles for World::Draw.
struct DrawOptions {
  /// The world point drawn at the DebugDraw's (0, 0): World::Draw passes every point relative to it,
  /// so a camera far from the origin (a large-world build, MK_LARGE_WORLDS) still draws in small
  /// floats. Zero (the default) draws world coordinates as they are.
  Pos origin{0.0f, 0.0f};
  bool shapes = true;            ///< outlines and fills of every shape
  bool aabbs = false;            ///< each shape's AABB
  bool contactPoints = false;    ///< every contact's manifold points
  bool contactNormals = false;   ///< contact normals at those points
  bool contactImpulses = false;  ///< arrows scaled by the normal impulse
  bool centersOfMass = false;    ///< each body's centre-of-mass frame
  bool sleepColors = true;       ///< draw sleeping bodies in a muted colour
  bool joints = false;           ///< anchors and the lines joining them, coloured by joint type
  /// Colour awake dynamic bodies by island (bodies joined by touching contacts and joints share a
  /// colour); sleeping bodies keep the muted colour. Costs a union-find pass per Draw call.
  bool islandColors = false;
  /// What the last Step's continuous stage did (World::SetContinuousRecording must be on before that
  /// Step, or there is nothing to draw): for each body it moved back, the body at its start pose, the
  /// path of its centre of mass to where the solver took it (the part beyond the time of impact
  /// dimmed), the body at its time-of-impact pose, and the shape it hit at that time.
  bool continuous = false;
};

/// One body the last Step's continuous stage moved back to its time of impact (World::
/// GetContinuousRecords). Poses place the body origin, as Body transforms do.
struct ContinuousRecord {
  BodyId body;              ///< the fast body
  ShapeId shape;            ///< its shape that would have passed first
  ShapeId target;           ///< the shape it would have passed (static, or dynamic when `body` is a bullet)
  WorldTransform start{};   ///< the body's pose when the Step began
  WorldTransform end{};     ///< where the solver took it (where it would be without continuous collision)
  WorldTransform impact{};  ///< its pose at the time of impact: where the Step left it
  WorldTransform targetImpact{};  ///< the target body's pose at the time of impact (its start pose if static)
  float fraction = 0.0f;          ///< time of impact as a fraction of the step, in [0, 1)
};

/// Most ContinuousRecords one Step keeps (the first bodies the stage moves back, in its order:
/// non-bullets, then bullets). The list's memory is reserved when recording is switched on.
inline constexpr int kMaxContinuousRecords = 256;

}  // namespace mk
