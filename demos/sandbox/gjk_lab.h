// SPDX-License-Identifier: MIT
// The GJK lab: two shapes you drag (left button) and rotate (wheel over a shape), and what the
// narrowphase does with them, step by step:
//  - the Minkowski difference A - B of the cores (hull of the vertex differences) with the radius sum
//    drawn as its rounding, and the origin;
//  - the GJK simplex of any iteration (slider), its search direction and closest point to the origin,
//    the support points it came from on A and B;
//  - the closest points on the shapes and their distance;
//  - when the cores overlap, the EPA polytope of any iteration (slider), the penetration vector, and
//    the manifold the pair produces (points, normal, feature ids).
// Everything is computed with the engine's public narrowphase API (distance.h, manifold.h).
#pragma once

#include "lab.h"
#include "minkowski/distance.h"
#include "minkowski/manifold.h"

#include <memory>
#include <string>
#include <vector>

namespace mk::sandbox {

/// Colours with a meaning (tests look for them in screenshots).
namespace lab_colors {
inline constexpr Color kShapeA{230, 160, 90, 255};
inline constexpr Color kShapeB{100, 160, 240, 255};
inline constexpr Color kDifference{170, 170, 185, 255};
inline constexpr Color kSimplex{255, 225, 0, 255};
inline constexpr Color kSearchDirection{0, 230, 255, 255};
inline constexpr Color kClosestPoint{0, 255, 140, 255};  ///< closest points on the shapes (and their segment)
inline constexpr Color kEpa{255, 90, 60, 255};
inline constexpr Color kManifold{255, 50, 120, 255};
/// The manifold's feature-id labels: a pale tint of kManifold. The magenta itself read poorly over
/// shape B's half-opaque fill (contrast about 1.9 to 1); the tint has about 4.5 to 1 there, 4 over A's.
inline constexpr Color kManifoldLabel{255, 200, 220, 255};
inline constexpr Color kOrigin{255, 255, 255, 255};
}  // namespace lab_colors

/// Pixel size of the closest-point markers.
inline constexpr float kClosestPointPixels = 11.0f;

/// The kinds of shape the lab offers.
enum class LabShapeType { Circle, Capsule, Segment, Box, Polygon };

/// One of the two shapes: its kind, its size and where it is.
struct LabShape {
  LabShapeType type = LabShapeType::Box;
  int vertices = 6;  ///< polygon: 3..kMaxPolygonVertices
  float size =
      1.0f;  ///< m: circle radius, capsule/segment half-length, box half-extent, polygon circumradius
  float radius = 0.0f;  ///< m: rounding of boxes and polygons, capsule radius (> 0 for capsules)
  Vec2 position{0.0f, 0.0f};
  float angle = 0.0f;  ///< radians
};

/// One GJK iteration as the panel reads it: the simplex's closest point v to the origin, |v| (an
/// upper bound on the core distance), the lower bound v.w / |v| from the support point w of A - B in
/// direction -v, and their gap, which GJK drives to its tolerance before it stops.
struct GjkStepReadout {
  Vec2 closestPoint{0.0f, 0.0f};
  float upperBound = 0.0f;  ///< |v|, m
  float lowerBound = 0.0f;  ///< v.w / |v|, m (0 when v = 0: the origin is in the simplex)
  float gap = 0.0f;         ///< upperBound - lowerBound, m
};

/// Everything the lab computed for the current configuration.
struct GjkLabResult {
  DistanceOutput distance;
  GjkHistory gjk;                 ///< the query's iterations (warm or cold, as chosen)
  int coldIterations = 0;         ///< iterations of a cold query on the same configuration
  PenetrationOutput penetration;  ///< valid when distance.coresOverlap
  EpaHistory epa;
  Manifold manifold;
  std::vector<Vec2> difference;  ///< hull of the core vertex differences, CCW (1 or 2 points if degenerate)
  float radiusSum = 0.0f;
};

class GjkLab final : public Lab {
 public:
  GjkLab();

  const char* Name() const override { return "gjk_lab"; }
  const char* Description() const override {
    return "two shapes, their Minkowski difference, GJK and EPA step by step";
  }
  void Update() override;
  void Draw(DebugDraw& draw) const override;
  void DrawPanel() override;
  AABB Bounds() const override;
  bool MouseDown(Vec2 world, MouseButton button, bool shift) override;
  void MouseMove(Vec2 world) override;
  void MouseUp(Vec2 world, MouseButton button) override;
  bool MouseWheel(Vec2 world, float notches) override;
  bool ApplySetting(std::string_view key, std::string_view value, std::string& error) override;

  /// The shapes (0 = A, 1 = B). Change them, then call Update.
  LabShape shapes[2];
  /// Keep the simplex cache between updates (warm start) instead of starting cold every time.
  bool warmStart = false;
  /// GJK step shown (index into result.gjk.steps; -1 = the last).
  int gjkStep = -1;
  /// EPA step shown (-1 = the last recorded).
  int epaStep = -1;

  const GjkLabResult& Result() const { return *result_; }
  /// The geometry of shape `which` (0 = A, 1 = B) in its local frame.
  const ShapeGeometry& Geometry(int which) const { return geometry_[which]; }
  Transform XForm(int which) const { return MakeTransform(shapes[which].position, shapes[which].angle); }
  /// The support point of the core difference A - B in direction `d` (world frame): the vertex of A
  /// farthest along d minus the vertex of B farthest along -d.
  Vec2 DifferenceSupport(Vec2 d) const;
  /// The readout of GJK step `step` (index into Result().gjk.steps).
  GjkStepReadout StepReadout(int step) const;
  /// The GJK step the panel and picture show (-1 when the query recorded none).
  int ShownGjkStep() const;
  /// True when the world point lies in shape `which` (0 = A, 1 = B).
  bool Contains(int which, Vec2 point) const;

 private:
  void Rebuild(int which);
  int ShownEpaStep() const;
  void DrawMinkowski(DebugDraw& draw) const;
  void DrawGjkStep(DebugDraw& draw) const;
  void DrawEpa(DebugDraw& draw) const;

  ShapeGeometry geometry_[2];
  std::unique_ptr<GjkLabResult> result_;  // large (histories): on the heap
  SimplexCache cache_{};
  int grabbed_ = -1;
  Vec2 grabOffset_{0.0f, 0.0f};
};

/// A capsule of radius 0 is a segment: a shape switched to capsule with no radius gets
/// kDefaultCapsuleRadius (what the panel then shows is what the lab builds).
inline constexpr float kDefaultCapsuleRadius = 0.3f;
void GiveCapsuleRadius(LabShape& shape);

/// Names of the shape kinds as the settings and the panel spell them.
const char* ToString(LabShapeType type);

}  // namespace mk::sandbox
