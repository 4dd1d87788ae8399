// SPDX-License-Identifier: MIT
// The mover's plane solver and velocity clip (minkowski/mover.h).
//
// Both find the point nearest a target inside an intersection of half-planes,
//   minimise |d - t|^2 / 2  subject to  Dot(n_i, d) + o_i >= 0,
// by Hildreth's method (C. Hildreth, "A quadratic programming procedure", Naval Research Logistics
// Quarterly 4, 1957): Gauss-Seidel on the dual. With d = t + sum_i lambda_i n_i and unit normals, the
// best lambda_i with the others fixed is lambda_i - (Dot(n_i, d) + o_i), clamped to [0, pushLimit_i];
// each update is exact for its plane, so no sweep moves away from the optimum and the sweeps converge
// for any set of planes (slowly for nearly parallel ones, hence the bound). lambda_i is the plane's
// push: how far (m) the solution was pushed along its normal.
#include "minkowski/assert.h"
#include "minkowski/mover.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace mk {

namespace {

bool IsValidPlane(const CollisionPlane& p) {
  const bool unit = IsFinite(p.plane.normal) && std::fabs(p.plane.offset) <= kMaxWorldLength &&
                    std::fabs(LengthSquared(p.plane.normal) - 1.0f) <= 2.0e-3f;
  return unit && p.pushLimit >= 0.0f;  // FLT_MAX or +Inf: no limit; NaN fails
}

// In 2D the optimum has at most two planes pushing within their limits (the others push nothing or
// their whole limit). When the sweeps have found two such planes, the optimum for that guess is the
// crossing of their lines, with pushes from a 2x2 solve; if it satisfies every plane's conditions
// (planes pushing nothing are satisfied, planes at their limit still pressed, pushes within [0, limit])
// it is the exact answer. This ends the slow zig-zag of Gauss-Seidel in a narrow wedge (two nearly
// parallel planes) after the sweep that finds the pair. Returns false (nothing changed) otherwise.
template <class Take, class Offset, class Limit, class Push>
bool FinishPair(Vec2 target, std::span<const CollisionPlane> planes, Take take, Offset offset, Limit limit,
                Push push, Vec2& d) {
  const int count = static_cast<int>(planes.size());
  int pair[2] = {-1, -1}, found = 0;
  Vec2 pressed = target;  // the target moved by the planes pushing their whole limit
  for (int i = 0; i < count; ++i) {
    if (!take(i) || push(i) <= 0.0f) continue;
    if (push(i) >= limit(i)) {
      pressed += limit(i) * planes[static_cast<std::size_t>(i)].plane.normal;
    } else {
      if (found == 2) return false;
      pair[found++] = i;
    }
  }
  if (found != 2) return false;
  const Vec2 a = planes[static_cast<std::size_t>(pair[0])].plane.normal;
  const Vec2 b = planes[static_cast<std::size_t>(pair[1])].plane.normal;
  // In double: two nearly parallel lines cross far away, and float would lose the crossing's digits.
  const double det = static_cast<double>(a.x) * b.y - static_cast<double>(a.y) * b.x;
  if (std::fabs(det) < 1e-6) return false;
  // Dot(a, x) = -offsetA, Dot(b, x) = -offsetB (Cramer), then x - pressed = la a + lb b.
  const double ra = -offset(pair[0]), rb = -offset(pair[1]);
  const double xx = (ra * b.y - a.y * rb) / det, xy = (a.x * rb - ra * b.x) / det;
  const double rx = xx - pressed.x, ry = xy - pressed.y;
  const float la = static_cast<float>((rx * b.y - ry * b.x) / det);
  const float lb = static_cast<float>((a.x * ry - a.y * rx) / det);
  const Vec2 x{static_cast<float>(xx), static_cast<float>(xy)};
  if (!(la >= 0.0f && la <= limit(pair[0]) && lb >= 0.0f && lb <= limit(pair[1]))) return false;
  constexpr float kSlack = kMoverSolverTolerance;
  for (int i = 0; i < count; ++i) {
    if (!take(i) || i == pair[0] || i == pair[1]) continue;
    const float gap = Dot(planes[static_cast<std::size_t>(i)].plane.normal, x) + offset(i);
    const bool atLimit = push(i) > 0.0f;
    if (atLimit ? gap > kSlack : gap < -kSlack) return false;
  }
  push(pair[0]) = la;
  push(pair[1]) = lb;
  d = x;
  return true;
}

// Sweeps the planes `take` accepts until no push changes by more than kMoverSolverTolerance, the
// pair finish succeeds, or kMoverMaxIterations ran. offset(i), limit(i) and push(i) (a float&, zero
// on entry) describe plane i.
template <class Take, class Offset, class Limit, class Push>
PlaneSolverResult SweepPlanes(Vec2 target, std::span<const CollisionPlane> planes, Take take, Offset offset,
                              Limit limit, Push push) {
  PlaneSolverResult result;
  Vec2 d = target;
  const int count = static_cast<int>(planes.size());
  for (int iteration = 1; iteration <= kMoverMaxIterations; ++iteration) {
    float largest = 0.0f;
    for (int i = 0; i < count; ++i) {
      if (!take(i)) continue;
      const Vec2 n = planes[static_cast<std::size_t>(i)].plane.normal;
      float& lambda = push(i);
      const float next = std::clamp(lambda - (Dot(n, d) + offset(i)), 0.0f, limit(i));
      const float change = next - lambda;
      lambda = next;
      d += change * n;
      largest = std::max(largest, std::fabs(change));
    }
    result.iterationCount = iteration;
    if (largest <= kMoverSolverTolerance || FinishPair(target, planes, take, offset, limit, push, d)) {
      result.converged = true;
      break;
    }
  }
  result.delta = d;
  return result;
}

}  // namespace

PlaneSolverResult SolvePlanes(Vec2 targetDelta, Span<CollisionPlane> planes) {
  const bool validTarget =
      std::fabs(targetDelta.x) <= kMaxWorldLength && std::fabs(targetDelta.y) <= kMaxWorldLength;
  MK_ASSERT(validTarget);
  if (!validTarget) return {};
  bool allValid = true;
  for (CollisionPlane& p : planes) {
    p.push = 0.0f;
    allValid = allValid && IsValidPlane(p);
  }
  MK_ASSERT(allValid);
  const auto take = [&](int i) { return allValid || IsValidPlane(planes[static_cast<std::size_t>(i)]); };
  const auto offset = [&](int i) { return planes[static_cast<std::size_t>(i)].plane.offset; };
  const auto limit = [&](int i) { return planes[static_cast<std::size_t>(i)].pushLimit; };
  const auto push = [&](int i) -> float& { return planes[static_cast<std::size_t>(i)].push; };
  return SweepPlanes(targetDelta, planes, take, offset, limit, push);
}

// The cone {v : Dot(n_i, v) >= 0} is, in 2D, an angle with its apex at the origin (or a half-plane,
// or the origin alone), so the vector of it nearest `vector` is `vector` itself, its projection onto
// one plane's line, or the origin: the nearest of those that lies in the cone. Exact, O(planes^2).
Vec2 ClipVector(Vec2 vector, Span<const CollisionPlane> planes) {
  const bool validVector = std::fabs(vector.x) <= kMaxWorldLength && std::fabs(vector.y) <= kMaxWorldLength;
  MK_ASSERT(validVector);
  if (!validVector) return {0.0f, 0.0f};
  bool allValid = true;
  for (const CollisionPlane& p : planes) allValid = allValid && IsValidPlane(p);
  MK_ASSERT(allValid);
  const auto take = [&](const CollisionPlane& p) {
    return p.clipVelocity && p.push > 0.0f && (allValid || IsValidPlane(p));
  };
  // Each candidate may stray by rounding; the same slack decides membership for all.
  const float slack = 1e-6f * Length(vector);
  const auto inCone = [&](Vec2 v) {
    for (const CollisionPlane& p : planes) {
      if (take(p) && Dot(p.plane.normal, v) < -slack) return false;
    }
    return true;
  };
  if (inCone(vector)) return vector;
  Vec2 best{0.0f, 0.0f};
  float bestDistance = LengthSquared(vector);
  for (const CollisionPlane& p : planes) {
    if (!take(p)) continue;
    const Vec2 n = p.plane.normal;
    const Vec2 v = vector - Dot(n, vector) * n;
    const float distance = DistanceSquared(v, vector);
    if (distance < bestDistance && inCone(v)) {
      best = v;
      bestDistance = distance;
    }
  }
  return best;
}

}  // namespace mk
