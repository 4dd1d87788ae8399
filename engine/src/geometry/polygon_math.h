// SPDX-License-Identifier: MIT
// Internal: area, centroid and inertia of a convex polygon, shared by shape construction and mass.
#pragma once

#include "minkowski/geometry.h"

namespace mk {

/// Mass properties of a solid convex counter-clockwise polygon (no radius) of the given density.
/// `center` is the area centroid; `rotationalInertia` is about that centroid. Degenerate (zero-area)
/// input gives mass 0 and the vertex average as centre.
MassData ComputePolygonMass(const Vec2* points, int count, float density);

}  // namespace mk
