// SPDX-License-Identifier: MIT
// Minkowski — 2D vector math on glm::vec2: rotations, transforms, AABBs.
//
// Conventions (docs/design.md section 3), shared by the whole engine:
//  - Units: metres, kilograms, seconds, radians.
//  - Right-handed: x right, y up, counter-clockwise angles are positive.
//  - Cross(a, b) = a.x * b.y - a.y * b.x (the z of the 3D cross product).
//  - LeftPerp(v) = (-v.y, v.x) is v turned +90 degrees; RightPerp(v) = (v.y, -v.x) is -90 degrees.
//  - Polygons wind counter-clockwise, so an edge's outward normal is RightPerp(edge) / |edge|.
//  - Rotations are stored as (cos, sin); angles appear only at the API edge.
//  - Contact normals point from shape A to shape B; separation < 0 means overlap.
#pragma once

#include "minkowski/export.h"

#include <glm/vec2.hpp>

#include <type_traits>
#if !defined(__GNUC__) && !defined(__clang__)
#include <cmath>  // math.h's detail::BuiltinSqrt and BuiltinIsFinite (GCC and Clang use their builtins)
#endif

/// Minkowski's public API: the World, its ids and defs, geometry, and the queries it is built on.
namespace MK_API mk {

/// A 2D vector or point (m unless stated): GLM's, so games pass their own glm::vec2 straight in.
using Vec2 = glm::vec2;

// The ABI guard. The compiled library was built with GLM's default glm::vec2: two floats, 8 bytes,
// aligned as a float, trivially copyable. glm::vec2 is the only GLM type in the API (Vec2, in every
// def, event and result struct). GLM_FORCE_DEFAULT_ALIGNED_GENTYPES together with SIMD
// (GLM_FORCE_INTRINSICS, or GLM_FORCE_SSE2, GLM_FORCE_AVX2 ...) aligns it to 8 bytes, which moves the
// fields of BodyDef, WorldDef, Manifold, CastHit ... in the game's code but not in the library's.
// GLM_FORCE_CTOR_INIT gives it a user-provided copy constructor, so a Vec2 argument or result goes
// through memory in the game's code and in registers in the library's (measured: a segfault in
// GetLinearVelocity). Every other GLM_FORCE_* setting (swizzles, XYZW_ONLY, INTRINSICS alone,
// precision, handedness, depth range) keeps both and is allowed (README, "GLM configuration").
static_assert(sizeof(glm::vec2) == 2 * sizeof(float) && alignof(glm::vec2) == alignof(float),
              "Minkowski needs GLM's default glm::vec2 layout (8 bytes aligned as a float), the one the "
              "library was compiled with. This file's GLM configuration changes it, which would silently "
              "corrupt every struct the engine passes: do not define GLM_FORCE_DEFAULT_ALIGNED_GENTYPES "
              "(or define GLM_FORCE_PURE) in files that include Minkowski's headers. See the README, "
              "section \"GLM configuration\".");
static_assert(
    std::is_trivially_copyable_v<glm::vec2>,
    "Minkowski needs a trivially copyable glm::vec2, as GLM makes it by default and as the library "
    "was compiled with. GLM_FORCE_CTOR_INIT makes its copy constructor user-provided, which changes "
    "how every call passes or returns a Vec2: do not define GLM_FORCE_CTOR_INIT in files that "
    "include Minkowski's headers. See the README, section \"GLM configuration\".");
// GLM_FORCE_SWIZZLE where the compiler allows anonymous structs (with GLM_FORCE_INTRINSICS, say)
// turns the swizzles into union members holding chars: size, alignment and copying stay, but the
// x86-64 calling convention then passes a Vec2 in integer registers instead of SSE ones, so every call
// reads garbage (a falling box that does not move). The function swizzles (v.xy()) are fine.
static_assert(GLM_CONFIG_SWIZZLE != GLM_SWIZZLE_OPERATOR,
              "Minkowski needs glm::vec2 without GLM's swizzle operator members, as the library was "
              "compiled: GLM_FORCE_SWIZZLE together with GLM_FORCE_INTRINSICS (or another setting that "
              "enables anonymous structs) changes how every call passes a Vec2. Use GLM_FORCE_SWIZZLE "
              "without SIMD (function swizzles, v.xy()) or no swizzles in files that include Minkowski's "
              "headers. See the README, section \"GLM configuration\".");

/// Dot product.
inline float Dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }

/// 2D cross product: the signed area of the parallelogram (a, b); > 0 when b is counter-clockwise of a.
inline float Cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

/// Cross of a vector with a scalar angular velocity w (z axis): v x w = (w * v.y, -w * v.x).
inline Vec2 Cross(Vec2 v, float w) { return {w * v.y, -w * v.x}; }

/// Cross of a scalar angular velocity w (z axis) with a vector: w x v = (-w * v.y, w * v.x).
inline Vec2 Cross(float w, Vec2 v) { return {-w * v.y, w * v.x}; }

/// v rotated +90 degrees (counter-clockwise).
inline Vec2 LeftPerp(Vec2 v) { return {-v.y, v.x}; }

/// v rotated -90 degrees (clockwise).
inline Vec2 RightPerp(Vec2 v) { return {v.y, -v.x}; }

namespace detail {
// The two <cmath> calls the inline math needs, without <cmath> (20,000 preprocessed lines, most of
// world.h's include cost): the compiler's builtins, which std::sqrt(float) and std::isfinite are on
// GCC and Clang (the same instruction, so the same bits); <cmath> elsewhere.
#if defined(__GNUC__) || defined(__clang__)
inline float BuiltinSqrt(float x) { return __builtin_sqrtf(x); }        ///< std::sqrt(float). Internal.
inline bool BuiltinIsFinite(float x) { return __builtin_isfinite(x); }  ///< std::isfinite(float). Internal.
inline bool BuiltinIsFiniteDouble(double x) { return __builtin_isfinite(x); }  ///< std::isfinite. Internal.
#else
inline float BuiltinSqrt(float x) { return std::sqrt(x); }                ///< std::sqrt(float). Internal.
inline bool BuiltinIsFinite(float x) { return std::isfinite(x); }         ///< std::isfinite(float). Internal.
inline bool BuiltinIsFiniteDouble(double x) { return std::isfinite(x); }  ///< std::isfinite. Internal.
#endif
}  // namespace detail

/// Squared length.
inline float LengthSquared(Vec2 v) { return v.x * v.x + v.y * v.y; }

/// Euclidean length.
inline float Length(Vec2 v) { return detail::BuiltinSqrt(v.x * v.x + v.y * v.y); }

/// Distance between two points.
inline float Distance(Vec2 a, Vec2 b) { return Length(b - a); }

/// Squared distance between two points.
inline float DistanceSquared(Vec2 a, Vec2 b) { return LengthSquared(b - a); }

/// Unit vector along v, or (0, 0) when |v| is too small to normalise safely.
inline Vec2 Normalize(Vec2 v) {
  float length = Length(v);
  if (length < 1e-20f) return {0.0f, 0.0f};
  float inv = 1.0f / length;
  return {v.x * inv, v.y * inv};
}

/// Linear interpolation a + t (b - a).
inline Vec2 Lerp(Vec2 a, Vec2 b, float t) { return {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)}; }

/// Component-wise minimum and maximum.
///@{
inline Vec2 Min(Vec2 a, Vec2 b) { return {a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y}; }
inline Vec2 Max(Vec2 a, Vec2 b) { return {a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y}; }
///@}

/// True when x is neither NaN nor infinite.
inline bool IsFinite(float x) { return detail::BuiltinIsFinite(x); }

/// True when both components are finite.
inline bool IsFinite(Vec2 v) { return detail::BuiltinIsFinite(v.x) && detail::BuiltinIsFinite(v.y); }

/// The engine's own sine, cosine and arctangent (radians), used wherever the engine needs them: built
/// from + - * / only (engine/src/core/trig.cpp), so they give the same bits with every compiler, flag
/// and C library, which std::sin and friends do not promise. Rounded from a double evaluation: the
/// correctly rounded float in all of the millions of arguments tested, for |radians| <= 1e6 (beyond,
/// the angle is folded deterministically but inexactly). NaN and +-Inf give NaN; Atan2 follows C's
/// atan2 for zeros and infinities of either sign.
///@{
float Sin(float radians);
float Cos(float radians);
///@}
/// The angle of the vector (x, y) from the +x axis, in [-pi, pi] radians.
float Atan2(float y, float x);

/// A rotation stored as cosine and sine of the angle (unit length).
struct Rot {
  float c = 1.0f;  ///< cos(angle)
  float s = 0.0f;  ///< sin(angle)
};

/// Rotation for an angle in radians (counter-clockwise positive): {Cos(angle), Sin(angle)}.
Rot MakeRot(float angle);

/// The angle of a rotation in radians, in [-pi, pi] (-pi only for a sine of -0).
inline float Angle(Rot q) { return Atan2(q.s, q.c); }

/// Rotate v by q.
inline Vec2 Rotate(Rot q, Vec2 v) { return {q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y}; }

/// Rotate v by the inverse of q.
inline Vec2 InvRotate(Rot q, Vec2 v) { return {q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y}; }

/// Composition q * r: rotate by r, then by q.
inline Rot MulRot(Rot q, Rot r) { return {q.c * r.c - q.s * r.s, q.s * r.c + q.c * r.s}; }

/// Composition inverse(q) * r.
inline Rot InvMulRot(Rot q, Rot r) { return {q.c * r.c + q.s * r.s, q.c * r.s - q.s * r.c}; }

/// A rigid transform: rotate by q, then translate by p (metres).
struct Transform {
  Vec2 p{0.0f, 0.0f};  ///< translation (m)
  Rot q{};             ///< rotation
};

/// Transform for a position (metres) and an angle (radians).
inline Transform MakeTransform(Vec2 position, float angle) { return {position, MakeRot(angle)}; }

/// Local point to world: q * v + p.
inline Vec2 TransformPoint(const Transform& xf, Vec2 v) { return Rotate(xf.q, v) + xf.p; }

/// World point to local: inverse(q) * (v - p).
inline Vec2 InvTransformPoint(const Transform& xf, Vec2 v) { return InvRotate(xf.q, v - xf.p); }

/// Composition a * b: apply b, then a.
inline Transform MulTransforms(const Transform& a, const Transform& b) {
  return {Rotate(a.q, b.p) + a.p, MulRot(a.q, b.q)};
}

/// Composition inverse(a) * b: b expressed in a's frame.
inline Transform InvMulTransforms(const Transform& a, const Transform& b) {
  return {InvRotate(a.q, b.p - a.p), InvMulRot(a.q, b.q)};
}

// ---------------------------------------------------------------------------------------------
// World positions (docs/design.md, "Large worlds")
// ---------------------------------------------------------------------------------------------

#if defined(MK_LARGE_WORLDS)
/// True in the large-world build (CMake option MK_LARGE_WORLDS), where world positions are doubles.
inline constexpr bool kLargeWorlds = true;

/// A world position (m). In the large-world build two doubles, so a body 10,000 km from the origin
/// is placed to a few nanometres (a float's spacing there is 1 m); in the default build it is Vec2.
/// Write a game against Pos, WorldTransform, OffsetPos and PosDelta and it compiles in both builds.
/// A Vec2 converts to a Pos exactly; a Pos to a Vec2 only through ToVec2 (it rounds).
struct Pos {
  double x = 0.0;  ///< metres
  double y = 0.0;  ///< metres
  constexpr Pos() = default;
  constexpr Pos(double px, double py) : x(px), y(py) {}  ///< from coordinates (m)
  constexpr Pos(Vec2 v) : x(v.x), y(v.y) {}              ///< from a float point: exact
};

/// The position moved by a displacement d (m).
inline Pos operator+(Pos p, Vec2 d) {
  return {p.x + static_cast<double>(d.x), p.y + static_cast<double>(d.y)};
}
/// The position moved by -d (m).
inline Pos operator-(Pos p, Vec2 d) {
  return {p.x - static_cast<double>(d.x), p.y - static_cast<double>(d.y)};
}
/// The displacement from b to a (m), rounded to float once: exact to a float's precision of the
/// distance between them, however far both are from the origin.
inline Vec2 operator-(Pos a, Pos b) { return {static_cast<float>(a.x - b.x), static_cast<float>(a.y - b.y)}; }
/// Moves the position by d (m).
inline Pos& operator+=(Pos& p, Vec2 d) { return p = p + d; }
/// Exact equality of both coordinates.
inline bool operator==(Pos a, Pos b) { return a.x == b.x && a.y == b.y; }

/// The nearest float point (rounds: 1 m steps at 10,000 km).
inline Vec2 ToVec2(Pos p) { return {static_cast<float>(p.x), static_cast<float>(p.y)}; }

/// True when both coordinates are finite.
inline bool IsFinite(Pos p) {
  return detail::BuiltinIsFiniteDouble(p.x) && detail::BuiltinIsFiniteDouble(p.y);
}

/// Places a body or shape in the world: rotate by q, then translate by p. Transform, the local and
/// relative placement, keeps a float translation.
struct WorldTransform {
  Pos p{};  ///< translation (m)
  Rot q{};  ///< rotation
};

/// Local point to world: q * v + p.
inline Pos TransformPoint(const WorldTransform& xf, Vec2 v) { return xf.p + Rotate(xf.q, v); }

/// World point to local: inverse(q) * (v - p).
inline Vec2 InvTransformPoint(const WorldTransform& xf, Pos v) { return InvRotate(xf.q, v - xf.p); }

/// Composition a * b: b (a placement in a's frame) placed in the world.
inline WorldTransform MulTransforms(const WorldTransform& a, const Transform& b) {
  return {a.p + Rotate(a.q, b.p), MulRot(a.q, b.q)};
}

/// Composition inverse(a) * b: b expressed in a's frame (float: relative placements are small).
inline Transform InvMulTransforms(const WorldTransform& a, const WorldTransform& b) {
  return {InvRotate(a.q, b.p - a.p), InvMulRot(a.q, b.q)};
}

/// The transform with its translation taken relative to `origin`: the float placement the
/// narrowphase and the queries work with near `origin`.
inline Transform RelativeTo(const WorldTransform& xf, Pos origin) { return {xf.p - origin, xf.q}; }
#else
/// True in the large-world build (CMake option MK_LARGE_WORLDS), where world positions are doubles.
inline constexpr bool kLargeWorlds = false;

/// A world position (m): Vec2 in the default build, two doubles in the large-world build (CMake
/// option MK_LARGE_WORLDS). Write a game against Pos, WorldTransform, OffsetPos and PosDelta and it
/// compiles in both builds.
using Pos = Vec2;

/// Places a body or shape in the world: Transform in the default build, a double translation and a
/// float rotation in the large-world build.
using WorldTransform = Transform;

/// The nearest float point: the position itself in the default build.
inline Vec2 ToVec2(Pos p) { return p; }

/// The transform with its translation taken relative to `origin`.
inline Transform RelativeTo(const WorldTransform& xf, Pos origin) { return {xf.p - origin, xf.q}; }
#endif

/// WorldTransform for a position (metres) and an angle (radians).
inline WorldTransform MakeWorldTransform(Pos position, float angle) { return {position, MakeRot(angle)}; }

/// The position p moved by the displacement d (m), in either build.
inline Pos OffsetPos(Pos p, Vec2 d) { return p + d; }

/// The displacement from `from` to `to` (m, float), in either build.
inline Vec2 PosDelta(Pos from, Pos to) { return to - from; }

/// Axis-aligned bounding box in world or local coordinates (metres). Valid when lower <= upper.
struct AABB {
  Vec2 lower{0.0f, 0.0f};  ///< minimum corner (m)
  Vec2 upper{0.0f, 0.0f};  ///< maximum corner (m)
};

/// True when the boxes overlap or touch.
inline bool Overlaps(const AABB& a, const AABB& b) {
  return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y && b.lower.y <= a.upper.y;
}

/// True when `outer` contains `inner` entirely.
inline bool Contains(const AABB& outer, const AABB& inner) {
  return outer.lower.x <= inner.lower.x && outer.lower.y <= inner.lower.y && inner.upper.x <= outer.upper.x &&
         inner.upper.y <= outer.upper.y;
}

/// Smallest box holding both.
inline AABB Union(const AABB& a, const AABB& b) { return {Min(a.lower, b.lower), Max(a.upper, b.upper)}; }

/// The box grown by `margin` metres on every side.
inline AABB Inflate(const AABB& a, float margin) {
  return {{a.lower.x - margin, a.lower.y - margin}, {a.upper.x + margin, a.upper.y + margin}};
}

/// Perimeter in metres (the cost metric of tree broadphases).
inline float Perimeter(const AABB& a) { return 2.0f * ((a.upper.x - a.lower.x) + (a.upper.y - a.lower.y)); }

/// Centre point.
inline Vec2 Center(const AABB& a) { return 0.5f * (a.lower + a.upper); }

/// True when all bounds are finite and lower <= upper on both axes.
inline bool IsValid(const AABB& a) {
  return IsFinite(a.lower) && IsFinite(a.upper) && a.lower.x <= a.upper.x && a.lower.y <= a.upper.y;
}

}  // namespace mk
