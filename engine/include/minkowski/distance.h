// SPDX-License-Identifier: MIT
// Minkowski — distance queries between convex shapes: GJK distance (with warm start and an optional
// step-by-step history), the GJK boolean overlap test, and EPA penetration (with a SAT fallback for
// polygon pairs).
//
// Every query works on the *cores* of the shapes (ShapeProxy points) and adds the radii afterwards
// (docs/design.md section 4). The Minkowski difference is A - B: a Minkowski point is
// w = support(A, d) - support(B, -d) (William Bittle's GJK articles; "GJK Algorithm"), so the cores
// overlap exactly when the
// difference contains the origin, and the closest point of the difference to the origin is
// pointA - pointB.
//
// Nothing here allocates. Histories are fixed-size and only written when a pointer is passed.
#pragma once

#include "minkowski/export.h"
#include "minkowski/geometry.h"

#include <cstdint>

namespace MK_API mk {

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

/// GJK gives up after this many iterations (one support query each). In 2D a polygon pair needs at
/// most (countA + countB) distinct Minkowski vertices to converge on an exact point set; 2 x 64
/// vertices plus slack for curved-free rounding noise. Real pairs converge in 1-6.
inline constexpr int kGjkMaxIterations = 140;

/// EPA gives up after this many expansions. Each adds one Minkowski vertex; the difference of two
/// 64-gons has at most 128 vertices, so exact convergence never needs more.
inline constexpr int kEpaMaxIterations = 128;

/// Largest EPA polytope (vertices): the start triangle plus one vertex per iteration.
inline constexpr int kEpaMaxVertices = kEpaMaxIterations + 3;

// ---------------------------------------------------------------------------------------------
// Input, cache, output
// ---------------------------------------------------------------------------------------------

/// Two shapes (core + radius) placed in the world. The proxies point into the shapes' storage.
struct DistanceInput {
  ShapeProxy proxyA;     ///< A's core and radius in its local frame
  ShapeProxy proxyB;     ///< B's core and radius in its local frame
  Transform transformA;  ///< places A in the world
  Transform transformB;  ///< places B in the world
};

/// GJK warm-start state, one per shape pair, kept by the caller between queries (zero-initialise it;
/// count 0 = cold start). After a query it holds the vertex indices of the terminal simplex. Any
/// content is safe: indices out of range for the current shapes are detected and the cache ignored,
/// and in-range indices from another pair only cost iterations, never accuracy.
struct SimplexCache {
  std::uint8_t count = 0;       ///< number of cached vertices, 0..3
  std::uint8_t indexA[3] = {};  ///< core vertex indices on A
  std::uint8_t indexB[3] = {};  ///< core vertex indices on B
  /// GJK iterations of the last distance query that used this cache (diagnostics for profiles;
  /// saturates at 255; 0 when the warm fast path answered without iterating).
  std::uint8_t iterations = 0;
};

/// One vertex of a GJK simplex (world frame, metres).
struct SimplexVertex {
  Vec2 pointA{0.0f, 0.0f};  ///< support point on A's core
  Vec2 pointB{0.0f, 0.0f};  ///< support point on B's core
  Vec2 w{0.0f, 0.0f};       ///< Minkowski point pointA - pointB
  float lambda = 0.0f;      ///< barycentric weight of this vertex in the closest point (sums to 1)
  int indexA = 0;           ///< vertex index on A
  int indexB = 0;           ///< vertex index on B
};

/// A GJK simplex: 1 (point), 2 (segment) or 3 (triangle) vertices.
struct Simplex {
  SimplexVertex vertices[3];  ///< the first `count` are valid
  int count = 0;              ///< 1, 2 or 3
};

/// One GJK iteration, for replay in the sandbox (world frame).
struct GjkStep {
  Simplex simplex;                   ///< the simplex after this iteration's reduction
  Vec2 searchDirection{0.0f, 0.0f};  ///< direction the next support is searched in (towards the origin)
  Vec2 closestPoint{0.0f, 0.0f};     ///< point of the simplex closest to the origin
};

/// Every iteration of one GJK query (pass a pointer to record; nullptr = no cost). Fixed size.
struct GjkHistory {
  GjkStep steps[kGjkMaxIterations + 1];  ///< steps[0] is the start simplex, then one per iteration
  int count = 0;                         ///< valid entries in `steps`
};

/// How a distance query ended.
enum class DistanceStatus : std::uint8_t {
  Separated,     ///< surfaces apart: distance > 0
  Touching,      ///< surfaces in contact within tolerance (distance and penetration both ~0)
  Overlapping,   ///< surfaces overlap (see `coresOverlap` and `penetration`)
  IterationCap,  ///< GJK hit kGjkMaxIterations: the result is the best found (an upper bound)
  InvalidInput   ///< null/empty proxy, count > kMaxPolygonVertices, non-finite or negative radius,
                 ///< non-finite transform, or coordinates so large that float arithmetic overflowed
};

/// Result of ShapeDistance. Points and normal in the world frame.
struct DistanceOutput {
  Vec2 pointA{0.0f, 0.0f};  ///< closest point on A's surface (core point pushed out by radiusA)
  Vec2 pointB{0.0f, 0.0f};  ///< closest point on B's surface
  /// closest point on A's core (a convex combination of the simplex, as in William Bittle, "GJK -
  /// Distance & Closest Points")
  Vec2 corePointA{0.0f, 0.0f};
  Vec2 corePointB{0.0f, 0.0f};  ///< closest point on B's core
  Vec2 normal{0.0f, 0.0f};      ///< unit normal from A to B; (0, 0) when the cores overlap
  float coreDistance = 0.0f;    ///< distance between the cores (metres); 0 when they overlap
  float distance = 0.0f;        ///< distance between the surfaces, max(0, coreDistance - rA - rB)
  /// Overlap depth of the surfaces when the cores are apart: max(0, rA + rB - coreDistance), exact.
  /// When the cores overlap it is the lower bound rA + rB; ask ShapePenetration for the depth.
  float penetration = 0.0f;
  int iterations = 0;         ///< GJK iterations (support queries after the start simplex)
  int simplexCount = 0;       ///< vertices in the terminal simplex (3 = cores overlap)
  bool coresOverlap = false;  ///< the cores intersect (origin inside the Minkowski difference)
  DistanceStatus status = DistanceStatus::InvalidInput;  ///< how the query ended
};

// ---------------------------------------------------------------------------------------------
// GJK
// ---------------------------------------------------------------------------------------------

/// GJK distance between two convex shapes (Gilbert, Johnson, Keerthi 1988), with the 2D signed-area
/// sub-algorithm (Montanari, Petrinic, Barbieri 2017). `cache` (may be nullptr) warm-starts the query
/// and receives the terminal simplex. `history` (may be nullptr) records every iteration.
/// Accuracy: the float rounding of the shapes' coordinates (in A's frame), however much larger the
/// shapes are than the distance (a 400 m segment against a 1 m box); tested to 1e-5 x the larger
/// shape's reach from its body origin, and the normal to 1e-5 rad wherever float inputs determine it.
DistanceOutput ShapeDistance(const DistanceInput& input, SimplexCache* cache = nullptr,
                             GjkHistory* history = nullptr);

/// Boolean GJK (William Bittle, "GJK (Gilbert-Johnson-Keerthi)"; "GJK Algorithm"): true when the
/// *cores* intersect or touch (origin in the closed
/// Minkowski difference, within the GJK tolerance). Radii are ignored. Invalid input gives false.
/// ShapeDistance's loop, left at the first separating axis: the two agree on coresOverlap except
/// for cores within rounding of touching.
bool CoresOverlap(const DistanceInput& input, SimplexCache* cache = nullptr);

/// True when the full shapes (cores + radii) overlap or touch. For radius-free pairs this is
/// CoresOverlap; otherwise a GJK distance that stops as soon as a bound decides.
bool ShapesOverlap(const DistanceInput& input, SimplexCache* cache = nullptr);

/// The simplex a cache describes, rebuilt for the given shapes (world frame); count 0 if the cache
/// is empty or stale (an index out of range). Used by EPA and the sandbox.
Simplex MakeSimplexFromCache(const DistanceInput& input, const SimplexCache& cache);

// ---------------------------------------------------------------------------------------------
// EPA (penetration of overlapping cores)
// ---------------------------------------------------------------------------------------------

/// How a penetration query ended.
enum class PenetrationStatus : std::uint8_t {
  Separated,    ///< the cores do not overlap: nothing to do (use ShapeDistance)
  Epa,          ///< EPA converged
  SatFallback,  ///< EPA failed (cap or degenerate polytope); SAT over the edge normals answered
  Failed,       ///< both failed (float overflow on huge coordinates): geometric outputs zero, not NaN
  InvalidInput  ///< as DistanceStatus::InvalidInput
};

/// Result of ShapePenetration. World frame.
struct PenetrationOutput {
  Vec2 normal{0.0f, 0.0f};  ///< unit normal from A to B: moving B by coreDepth * normal separates the cores
  Vec2 pointA{0.0f, 0.0f};  ///< deepest point of A's surface inside B (core witness + radiusA * normal)
  Vec2 pointB{0.0f, 0.0f};  ///< deepest point of B's surface inside A (core witness - radiusB * normal)
  Vec2 corePointA{0.0f, 0.0f};  ///< witness on A's core boundary
  Vec2 corePointB{0.0f, 0.0f};  ///< witness on B's core (corePointA - corePointB = coreDepth * normal)
  float coreDepth = 0.0f;       ///< penetration depth of the cores (metres, >= 0)
  float depth = 0.0f;           ///< penetration depth of the surfaces: coreDepth + rA + rB
  /// EPA expansions (support points added to the polytope), also when EPA then failed (status
  /// SatFallback or Failed); 0 when EPA did not run (Separated, InvalidInput)
  int iterations = 0;
  PenetrationStatus status = PenetrationStatus::InvalidInput;  ///< how the query ended
};

/// One EPA iteration for the sandbox: the polytope (world Minkowski points, counter-clockwise) and
/// the edge chosen for expansion.
struct EpaStep {
  Vec2 vertices[kEpaMaxVertices];  ///< the first `count` are valid
  int count = 0;                   ///< polytope vertices
  int closestEdge = 0;             ///< edge closestEdge -> closestEdge + 1 is closest to the origin
  Vec2 closestPoint{0.0f, 0.0f};   ///< closest point of that edge to the origin
};

/// Most EPA iterations an EpaHistory records.
inline constexpr int kEpaHistorySteps = 32;
/// EPA history (fixed size, about 34 KB: keep one, not one per pair). Only the first kEpaHistorySteps
/// iterations are recorded; `count` stops there.
struct EpaHistory {
  EpaStep steps[kEpaHistorySteps];  ///< one per recorded iteration
  int count = 0;                    ///< valid entries in `steps`
};

/// A tally of EPA activity over ShapePenetration calls, kept by whoever runs the queries (a test, a
/// tool panel): the library keeps no counters of its own, so worlds and threads never share one.
/// Add each call's output; the status says whether EPA ran (Epa, SatFallback, Failed) and how it ended.
struct EpaCounters {
  std::uint64_t calls = 0;         ///< ShapePenetration calls that ran EPA (the cores overlapped)
  std::uint64_t iterations = 0;    ///< EPA expansions summed over those calls
  std::uint64_t satFallbacks = 0;  ///< EPA failures answered by SAT (status SatFallback)
  std::uint64_t failures = 0;      ///< calls with no answer at all (status Failed)

  /// Counts one ShapePenetration result; Separated and InvalidInput outputs (no EPA run) add nothing.
  void Add(const PenetrationOutput& out) {
    if (out.status == PenetrationStatus::Separated || out.status == PenetrationStatus::InvalidInput) return;
    ++calls;
    iterations += static_cast<std::uint64_t>(out.iterations);
    satFallbacks += out.status == PenetrationStatus::SatFallback ? 1u : 0u;
    failures += out.status == PenetrationStatus::Failed ? 1u : 0u;
  }
};

/// Penetration of overlapping cores by the Expanding Polytope Algorithm, starting from the simplex in
/// `cache` (as left by ShapeDistance; an empty or stale cache is fine, GJK is re-run). Handles
/// degenerate starts (1- or 2-point simplex, origin on an edge or vertex of the difference). Falls
/// back to SAT over the edge normals of both cores (exact for polygons; segments count both sides)
/// when EPA fails; the status records it (EpaCounters tallies outputs). `history` (may be nullptr)
/// records the polytope steps.
PenetrationOutput ShapePenetration(const DistanceInput& input, const SimplexCache* cache = nullptr,
                                   EpaHistory* history = nullptr);

// ---------------------------------------------------------------------------------------------
// Combined
// ---------------------------------------------------------------------------------------------

/// Signed separation of two shapes: GJK distance, then EPA only when the cores overlap.
struct SeparationOutput {
  Vec2 normal{0.0f, 0.0f};  ///< unit normal from A to B ((1, 0) if undefined, e.g. invalid input)
  Vec2 pointA{0.0f, 0.0f};  ///< point on A's surface (world)
  Vec2 pointB{0.0f, 0.0f};  ///< point on B's surface (world)
  float separation = 0.0f;  ///< signed surface distance along normal (metres): < 0 is overlap
  bool valid = false;       ///< false for invalid input
};

/// Signed separation: exact for every pair whose cores are apart; EPA (SAT fallback) when they overlap.
SeparationOutput ShapeSeparation(const DistanceInput& input, SimplexCache* cache = nullptr);

}  // namespace mk
