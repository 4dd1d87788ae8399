// SPDX-License-Identifier: MIT
// Internal: the tolerance a hull is cleaned with, shared by ComputeHull and the polygon validation.
#pragma once

#include "minkowski/geometry.h"

#include <cfloat>
#include <span>

namespace mk {

/// Points closer than this fraction of the cloud's extent are welded, and vertices closer than it to
/// the line through their neighbours are dropped. 1e-4 keeps edge normals accurate to ~1e-4 rad
/// while accepting any shape a game would draw.
inline constexpr float kHullRelativeTolerance = 1e-4f;

/// Far from the origin, float spacing limits what can be resolved: never weld below this many ulps
/// of the largest coordinate.
inline constexpr float kHullCoordinateUlps = 64.0f;

inline constexpr float kFloatEpsilon = FLT_EPSILON;

/// Points closer than this (metres) are one point whatever the scale: an edge shorter than this has
/// a direction float arithmetic cannot resolve (its squared length is subnormal well before 1e-19 m,
/// and the narrowphase squares such lengths). World shapes never come near it. The world-API fuzzer
/// found a triangle with edges of 1e-20 m whose normals came out as zero vectors.
inline constexpr float kMinFeatureLength = 1e-12f;

/// The weld / collinearity tolerance (metres) for this point cloud. `points` must be non-empty.
float HullTolerance(std::span<const Vec2> points);

}  // namespace mk
