// SPDX-License-Identifier: MIT
// Minkowski — convex shapes (core + radius), convex hulls, mass properties, bounding boxes and
// support mapping. Pure functions on plain values: nothing here allocates or keeps state.
//
// Every shape is a *core* point set plus a *radius* (docs/design.md section 4):
//   circle  = 1 point  + radius > 0        capsule = 2 points + radius > 0
//   segment = 2 points + 0                 polygon = 3..kMaxPolygonVertices points + radius >= 0
// GJK and EPA only ever see the core; the radius is added afterwards, which keeps curved shapes exact
// and cheap.
//
// Constructors that take raw data return a GeometryResult: either a valid shape or an error naming
// the reason. They never crash and never return a silently wrong shape.
#pragma once

#include "minkowski/export.h"
#include "minkowski/math.h"
#include "minkowski/span.h"

#include <cstdint>

namespace MK_API mk {

/// Largest polygon the engine accepts (Box2D caps at 8; games ask for more).
inline constexpr int kMaxPolygonVertices = 64;

/// Longest point cloud ComputeHull (and MakePolygon from points) accepts; longer input is refused
/// with TooManyPoints before any work, so a bad call costs microseconds, not seconds. 16 points per
/// possible hull vertex leaves room for dense outlines; thin a longer outline first.
inline constexpr int kMaxHullInputPoints = 16 * kMaxPolygonVertices;

/// Why a geometry constructor refused its input.
enum class GeometryError : std::uint8_t {
  None = 0,
  TooFewPoints,        ///< fewer than 3 distinct points (1, 2, or all duplicates; closer than 1e-12 m is one)
  Collinear,           ///< 3+ distinct points, but all on one line: no area
  NonFinite,           ///< a coordinate, radius, size or density is NaN or infinite
  NegativeRadius,      ///< radius < 0 (or <= 0 where the shape needs a radius, e.g. a circle)
  NonPositiveSize,     ///< a half extent, length or vertex count that must be > 0 is not
  TooManyVertices,     ///< the hull has more than kMaxPolygonVertices vertices
  NegativeDensity,     ///< density < 0 (zero is allowed: a massless shape)
  DegenerateSegment,   ///< the two end points of a segment or capsule coincide
  NotConvex,           ///< a Hull passed to MakePolygon is not strictly convex and counter-clockwise
  TooManyPoints,       ///< a point cloud longer than kMaxHullInputPoints (refused before any work)
  InconsistentPolygon  ///< a Polygon's normals or centroid are not those of its vertices
};

/// A short English description of the error, e.g. "fewer than 3 distinct points".
const char* ToString(GeometryError error);

/// Either a value or the reason it could not be made. `value` is default-constructed on error.
template <class T>
struct GeometryResult {
  T value{};                                  ///< the result; T{} on error
  GeometryError error = GeometryError::None;  ///< None on success

  /// True when `value` is valid.
  bool ok() const { return error == GeometryError::None; }
};

/// A solid circle. Local coordinates, metres.
struct Circle {
  Vec2 center{0.0f, 0.0f};  ///< centre (m)
  float radius = 0.5f;      ///< radius (m, > 0)
};

/// A solid capsule: the segment p1-p2 swept by a disc of `radius`. Local coordinates, metres.
struct Capsule {
  Vec2 p1{0.0f, -0.5f};  ///< first end of the core segment (m)
  Vec2 p2{0.0f, 0.5f};   ///< second end of the core segment (m)
  float radius = 0.25f;  ///< radius (m, > 0)
};

/// A line segment with no thickness (massless; for static geometry). Local coordinates, metres.
struct Segment {
  Vec2 p1{0.0f, 0.0f};  ///< first end (m)
  Vec2 p2{1.0f, 0.0f};  ///< second end (m)
};

/// One segment of a chain (World::CreateChain): the segment p1 -> p2 with its neighbours' far points,
/// the *ghost vertices* (ghost1 before p1, ghost2 after p2), as in Box2D's chain shape. It is
/// one-sided: only the front side collides, the side of the normal RightPerp(p2 - p1) (so a
/// counter-clockwise loop keeps bodies outside it, a clockwise loop keeps them inside). The ghosts
/// only shape the manifold's normal at p1 and p2, so that a body crossing from one segment to the
/// next feels one smooth surface (docs/design.md, narrowphase). No thickness, no mass. Local
/// coordinates, metres. Chains make these; a hand-made one needs p1 != p2 and ghosts that are not
/// on the segment's end points.
struct ChainSegment {
  Vec2 ghost1{-1.0f, 0.0f};  ///< the previous segment's far point, before p1 (m)
  Segment segment{};         ///< the segment itself, p1 -> p2
  Vec2 ghost2{2.0f, 0.0f};   ///< the next segment's far point, after p2 (m)
};

/// A strictly convex, counter-clockwise point set: the output of ComputeHull.
struct Hull {
  Vec2 points[kMaxPolygonVertices];  ///< the first `count` are valid (m)
  int count = 0;                     ///< 3..kMaxPolygonVertices (0 in a refused or default hull)
};

/// A solid convex polygon, optionally rounded by `radius`. Local coordinates, metres.
/// Invariants (guaranteed by the Make* functions): 3 <= count <= kMaxPolygonVertices, vertices
/// strictly convex and counter-clockwise, normals[i] is the outward unit normal of the edge
/// vertices[i] -> vertices[i + 1], centroid is the area centroid of the core.
struct Polygon {
  Vec2 vertices[kMaxPolygonVertices];  ///< core vertices, counter-clockwise (m)
  Vec2 normals[kMaxPolygonVertices];   ///< outward unit normal of edge i -> i + 1
  Vec2 centroid{0.0f, 0.0f};           ///< area centroid of the core (m)
  float radius = 0.0f;                 ///< rounding radius (m, >= 0)
  int count = 0;                       ///< vertices in use
};

/// The kinds of shape, in the order the narrowphase's pair table uses.
enum class ShapeType : std::uint8_t { Circle = 0, Capsule, Segment, Polygon, ChainSegment, Count };

/// A shape of any type in one value: the one form the world stores, the pair table dispatches on and
/// queries take. It holds the core (docs/design.md section 4): the points, the outward unit normal of
/// every edge (edge i runs points[i] -> points[(i + 1) % count]) and the radius.
///   circle  = 1 point, no edges          capsule, segment = 2 points, 2 edges (the segment seen from
///   polygon = its vertices and normals                                    either side: face 0 runs
///                                                                         p1 -> p2, face 1 p2 -> p1)
///   chain segment = like a segment (2 points, 2 normals; face 0 is the front), plus its two ghost
///                   vertices (Ghosts()), stored after the normals
/// Cores of up to kInlinePoints points (every circle, capsule and segment, boxes, up to octagons) are
/// stored inline, so the narrowphase reads a shape from one contiguous block; larger polygons keep
/// their points and normals out of line, in storage the geometry owns (copying one allocates).
/// Converts implicitly from each shape type (no validation: the Make* functions and World::CreateShape
/// validate); a default-constructed geometry has type Count and is invalid.
class ShapeGeometry {
 public:
  /// Cores with at most this many points live inside the value (8 points + 8 normals = 128 bytes).
  static constexpr int kInlinePoints = 8;

  ShapeGeometry() = default;
  /// The geometry of a typed shape, copied without validation.
  ///@{
  ShapeGeometry(const Circle& circle);    // NOLINT(google-explicit-constructor): converts like a view
  ShapeGeometry(const Capsule& capsule);  // NOLINT(google-explicit-constructor)
  ShapeGeometry(const Segment& segment);  // NOLINT(google-explicit-constructor)
  ShapeGeometry(const Polygon& polygon);  // NOLINT(google-explicit-constructor)
  ShapeGeometry(const ChainSegment& chainSegment);  // NOLINT(google-explicit-constructor)
  ///@}
  /// Copies duplicate the out-of-line storage of a large polygon (allocated and freed by the library,
  /// never by the game's allocator); moves take it over, leaving a moved-from large polygon a default
  /// geometry (type Count) and any other source unchanged. @{
  ShapeGeometry(const ShapeGeometry& other)
      : type_(other.type_), count_(other.count_), radius_(other.radius_), outOfLine_(nullptr) {
    for (int i = 0; i < 2 * kInlinePoints; ++i) inline_[i] = other.inline_[i];
    if (other.outOfLine_ != nullptr) outOfLine_ = CloneOutOfLine(other.outOfLine_, count_);
  }
  ShapeGeometry(ShapeGeometry&& other) noexcept
      : type_(other.type_), count_(other.count_), radius_(other.radius_), outOfLine_(other.outOfLine_) {
    for (int i = 0; i < 2 * kInlinePoints; ++i) inline_[i] = other.inline_[i];
    if (other.outOfLine_ != nullptr) other.Forget();
  }
  ShapeGeometry& operator=(const ShapeGeometry& other) {
    if (this != &other) *this = ShapeGeometry(other);
    return *this;
  }
  ShapeGeometry& operator=(ShapeGeometry&& other) noexcept {
    if (this != &other) {
      if (outOfLine_ != nullptr) FreeOutOfLine(outOfLine_);
      type_ = other.type_;
      count_ = other.count_;
      radius_ = other.radius_;
      outOfLine_ = other.outOfLine_;
      for (int i = 0; i < 2 * kInlinePoints; ++i) inline_[i] = other.inline_[i];
      if (other.outOfLine_ != nullptr) other.Forget();
    }
    return *this;
  }
  ~ShapeGeometry() {
    if (outOfLine_ != nullptr) FreeOutOfLine(outOfLine_);
  }

  /// The shape type (Count when default-constructed).
  ShapeType Type() const { return type_; }
  ///@}
  /// Core points: 1 (circle), 2 (capsule, segment, chain segment) or the polygon's vertex count.
  int Count() const { return count_; }
  /// Rounding radius (metres): the circle's or capsule's radius, 0 for a segment, >= 0 for a polygon.
  float Radius() const { return radius_; }
  /// The core points, in the shape's local frame (metres), counter-clockwise for polygons.
  const Vec2* Points() const { return IsInline() ? inline_ : outOfLine_; }
  /// The outward unit normal of each edge (Count() of them; unused and zero for a circle).
  const Vec2* Normals() const { return Points() + count_; }
  /// A chain segment's ghost vertices (ghost1, ghost2), in the local frame; null for other types.
  const Vec2* Ghosts() const { return type_ == ShapeType::ChainSegment ? inline_ + 4 : nullptr; }
  /// True when the core is stored in the value itself (Count() <= kInlinePoints).
  bool IsInline() const { return count_ <= kInlinePoints; }

  /// The typed shapes back (each valid only for its own type; asserts on another).
  ///@{
  Circle AsCircle() const;
  Capsule AsCapsule() const;
  Segment AsSegment() const;
  Polygon AsPolygon() const;
  ChainSegment AsChainSegment() const;
  ///@}

 private:
  // Copies `count` points and normals into inline or out-of-line storage.
  void Store(ShapeType type, const Vec2* points, const Vec2* normals, int count, float radius);
  // The library's allocation of a large polygon's 2 * count points and normals: a copy, and freeing
  // (null is fine). Out of line, so memory the library allocates is always the library's to free.
  static Vec2* CloneOutOfLine(const Vec2* storage, int count);
  static void FreeOutOfLine(Vec2* storage);
  // A moved-from large polygon: its storage went to another geometry; it becomes a default one.
  void Forget() {
    type_ = ShapeType::Count;
    count_ = 0;
    radius_ = 0.0f;
    outOfLine_ = nullptr;
  }

  ShapeType type_ = ShapeType::Count;
  int count_ = 0;
  float radius_ = 0.0f;
  Vec2 inline_[2 * kInlinePoints];  // points[0..count), then normals[0..count), when inline
  Vec2* outOfLine_ = nullptr;       // the same layout for larger polygons (2 * count_); null otherwise
};

// ---------------------------------------------------------------------------------------------
// Construction
// ---------------------------------------------------------------------------------------------

/// Convex hull of a point cloud: welds points closer than a tolerance, drops collinear points, and
/// returns the strictly convex counter-clockwise hull. The tolerance is relative to the cloud's size
/// (kHullRelativeTolerance x extent, and never below the float resolution of its coordinates), so
/// hulls from 1 mm to 1 km behave the same. Errors: TooManyPoints (more than kMaxHullInputPoints
/// points, checked first), NonFinite, TooFewPoints, Collinear, TooManyVertices.
GeometryResult<Hull> ComputeHull(Span<const Vec2> points);

/// Polygon from a hull (as returned by ComputeHull, or made by hand) and a rounding radius >= 0
/// (metres). The hull is checked, not re-computed: every output of ComputeHull is accepted as is.
/// Errors: NegativeRadius, NonFinite, TooFewPoints / TooManyVertices (count outside
/// 3..kMaxPolygonVertices), NotConvex (also an MK_ASSERT: a hand-made hull that is not strictly
/// convex, counter-clockwise and simple is a programmer error).
GeometryResult<Polygon> MakePolygon(const Hull& hull, float radius = 0.0f);

/// Polygon from an arbitrary point cloud: ComputeHull followed by MakePolygon.
GeometryResult<Polygon> MakePolygon(Span<const Vec2> points, float radius = 0.0f);

/// Checks the Polygon invariants of a polygon built by hand (the Make* functions guarantee them):
/// count in 3..kMaxPolygonVertices, every value finite, radius >= 0, vertices strictly convex and
/// counter-clockwise (NotConvex), and normals and centroid those of the vertices within 1e-4
/// (relative to the polygon's size for the centroid; InconsistentPolygon). None when valid. Does not
/// assert: World::CreateShape calls it and asserts once itself.
GeometryError ValidatePolygon(const Polygon& polygon);

/// Axis-aligned box centred on the origin, half extents in metres (> 0).
GeometryResult<Polygon> MakeBox(float halfWidth, float halfHeight);

/// Box with half extents, centred at `center` and rotated by `angle` radians in the body frame.
GeometryResult<Polygon> MakeOffsetBox(float halfWidth, float halfHeight, Vec2 center, float angle);

/// Box whose core has the given half extents, rounded by `radius` (outer half extent = h + radius).
GeometryResult<Polygon> MakeRoundedBox(float halfWidth, float halfHeight, float radius);

/// Regular polygon with `count` (3..kMaxPolygonVertices) vertices on a circle of `circumradius`
/// metres around the origin, first vertex at angle 0, optionally rounded by `radius`.
GeometryResult<Polygon> MakeRegularPolygon(int count, float circumradius, float radius = 0.0f);

/// Circle; errors for a non-finite centre or a radius that is not > 0.
GeometryResult<Circle> MakeCircle(Vec2 center, float radius);

/// Capsule; errors for non-finite input, radius <= 0, or coincident end points.
GeometryResult<Capsule> MakeCapsule(Vec2 p1, Vec2 p2, float radius);

/// Segment; errors for non-finite input or coincident end points.
GeometryResult<Segment> MakeSegment(Vec2 p1, Vec2 p2);

// ---------------------------------------------------------------------------------------------
// Mass properties
// ---------------------------------------------------------------------------------------------

/// Mass (kg), centre of mass (local, metres) and rotational inertia about the centre of mass
/// (kg m^2) of a shape of uniform density.
struct MassData {
  float mass = 0.0f;               ///< kg
  Vec2 center{0.0f, 0.0f};         ///< centre of mass (local, m)
  float rotationalInertia = 0.0f;  ///< about the centre of mass (kg m^2)
};

/// Mass properties for a density in kg/m^2 (>= 0). Rounded polygons and capsules are exact: the
/// core polygon, the rectangles swept by its edges and the disc sectors at its vertices.
/// Errors: NegativeDensity, NonFinite.
///@{
GeometryResult<MassData> ComputeMass(const Circle& circle, float density);
GeometryResult<MassData> ComputeMass(const Capsule& capsule, float density);
GeometryResult<MassData> ComputeMass(const Polygon& polygon, float density);
///@}
/// Segments have no area: mass 0, centre at the midpoint.
GeometryResult<MassData> ComputeMass(const Segment& segment, float density);
/// Chain segments, like segments: mass 0, centre at the midpoint.
GeometryResult<MassData> ComputeMass(const ChainSegment& segment, float density);
/// Mass properties of any shape: the same numbers as the typed overload for its type.
GeometryResult<MassData> ComputeMass(const ShapeGeometry& shape, float density);

// ---------------------------------------------------------------------------------------------
// Bounding boxes
// ---------------------------------------------------------------------------------------------

/// Tight world AABB of the shape (including its radius) under the transform.
///@{
AABB ComputeAABB(const Circle& circle, const Transform& xf);
AABB ComputeAABB(const Capsule& capsule, const Transform& xf);
AABB ComputeAABB(const Segment& segment, const Transform& xf);
AABB ComputeAABB(const Polygon& polygon, const Transform& xf);
///@}
AABB ComputeAABB(const ChainSegment& segment, const Transform& xf);  ///< the segment's (ghosts not included)
/// Any shape: the AABB of its type's overload (ghosts not included).
AABB ComputeAABB(const ShapeGeometry& shape, const Transform& xf);

// ---------------------------------------------------------------------------------------------
// Support mapping
// ---------------------------------------------------------------------------------------------

/// The view of a shape that GJK and EPA work on: its core points (local frame, counter-clockwise
/// for polygons) and its radius. Points to the shape's own storage: the shape must outlive it.
struct ShapeProxy {
  const Vec2* points = nullptr;  ///< `count` core points, not owned; null for an empty proxy
  int count = 0;                 ///< 1..kMaxPolygonVertices; 0 = empty (refused by every query)
  float radius = 0.0f;           ///< rounding radius (m, >= 0)
};

/// A proxy on the shape's core points and radius (polygon: vertices and radius; capsule: p1, p2 and
/// radius). Points into the shape, which must outlive the proxy.
///@{
ShapeProxy MakeProxy(const Circle& circle);
ShapeProxy MakeProxy(const Capsule& capsule);
ShapeProxy MakeProxy(const Segment& segment);
ShapeProxy MakeProxy(const Polygon& polygon);
///@}
ShapeProxy MakeProxy(const ChainSegment& segment);  ///< the segment p1-p2 (GJK sees it two-sided)
/// A proxy on any shape's core (ShapeGeometry::Points(), Count(), Radius()); a chain segment's ghosts
/// are left out. Points into the geometry, which must outlive the proxy.
ShapeProxy MakeProxy(const ShapeGeometry& shape);
/// A proxy on raw core points (Box2D v3's b2MakeProxy, without the copy): `count` points in the
/// caller's storage, which must outlive the proxy, and a rounding radius (m). A point (count 1,
/// radius 0) casts or measures a point; 2 points are a segment (rounded: a capsule); 3 or more must be
/// strictly convex and counter-clockwise (as ComputeHull returns them), since support mapping climbs
/// around them. Refused (MK_ASSERT and an empty proxy, which every query reports as invalid input):
/// null points, count outside 1..kMaxPolygonVertices, a non-finite point, a radius that is negative
/// or not finite, 3+ points that are not strictly convex and counter-clockwise.
ShapeProxy MakeProxy(const Vec2* points, int count, float radius);

/// Polygons with at least this many vertices use hill climbing from a start vertex instead of a linear
/// scan. Measured by demos/benchmark/support_benchmark (drifting direction, median of 7): warm hill
/// climbing beats the scan by 2x at 12 vertices (7 vs 15 ns) and 8x at 64; at 8 it is a toss-up, and
/// climbing from an arbitrary start is never slower than the scan from about 12 on.
inline constexpr int kHillClimbMinVertices = 12;

/// Index of the core point farthest along `localDir` (local frame; need not be unit length), by a
/// linear scan. Ties go to the lowest index.
int FindSupportScan(const ShapeProxy& proxy, Vec2 localDir);

/// Same answer (up to ties) by hill climbing over neighbouring vertices from `startIndex` ("3D Convex
/// Collision Detection, Part One: GJK"):
/// the projection along a direction is unimodal around a convex polygon, so walking uphill reaches
/// the maximum. Cost O(distance walked); ideal when the previous answer is a good start.
int FindSupportHillClimb(const ShapeProxy& proxy, Vec2 localDir, int startIndex);

/// Support index, choosing the scan or hill climbing by vertex count. `startIndex` is a hint.
int FindSupport(const ShapeProxy& proxy, Vec2 localDir, int startIndex = 0);

/// Farthest point of the whole shape (core + radius) along a world direction, in world coordinates:
/// the direction is rotated into the local frame, the core support is found, the result is rotated
/// back and pushed out by the radius along the unit direction ("3D Convex Collision Detection, Part
/// One: GJK").
Vec2 SupportPoint(const ShapeProxy& proxy, const Transform& xf, Vec2 worldDir);

}  // namespace mk
