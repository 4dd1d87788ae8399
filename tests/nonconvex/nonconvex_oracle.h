// SPDX-License-Identifier: MIT
// Brute-force oracle and random outlines for the non-convex distance tests. The oracle is written
// apart from the engine's code: every pair of segments, each in double on the same world-frame points
// (the transform applied the same way the query documents), crossing by sign tests, otherwise the
// least endpoint-to-segment distance.
#pragma once

#include "minkowski/nonconvex_distance.h"
#include "test_util.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace mk::test {

struct D2 {
  double x;
  double y;
};

inline std::vector<D2> WorldPoints(const std::vector<Vec2>& local, const Transform& xf) {
  std::vector<D2> out;
  const double c = xf.q.c, s = xf.q.s;
  for (Vec2 p : local) {
    const double x = p.x, y = p.y;
    out.push_back({c * x - s * y + xf.p.x, s * x + c * y + xf.p.y});
  }
  return out;
}

inline double SideOf(D2 a, D2 b, D2 p) { return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x); }

/// Squared distance from p to segment a-b (squares until the end: the oracle runs ~1e9 pairs in "long").
inline double PointToSegment2(D2 p, D2 a, D2 b) {
  const double ex = b.x - a.x, ey = b.y - a.y;
  const double len2 = ex * ex + ey * ey;
  double t = len2 > 0 ? ((p.x - a.x) * ex + (p.y - a.y) * ey) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  const double dx = p.x - (a.x + t * ex), dy = p.y - (a.y + t * ey);
  return dx * dx + dy * dy;
}
inline double PointToSegment(D2 p, D2 a, D2 b) { return std::sqrt(PointToSegment2(p, a, b)); }

inline bool OnBox(D2 a, D2 b, D2 p) {
  return p.x >= std::min(a.x, b.x) && p.x <= std::max(a.x, b.x) && p.y >= std::min(a.y, b.y) &&
         p.y <= std::max(a.y, b.y);
}

/// Squared distance of two segments; 0 exactly when they share a point.
inline double SegmentsDistance2(D2 a0, D2 a1, D2 b0, D2 b1) {
  const double s1 = SideOf(a0, a1, b0), s2 = SideOf(a0, a1, b1);
  const double s3 = SideOf(b0, b1, a0), s4 = SideOf(b0, b1, a1);
  if (s1 * s2 < 0 && s3 * s4 < 0) return 0.0;
  if ((s1 == 0 && OnBox(a0, a1, b0)) || (s2 == 0 && OnBox(a0, a1, b1)) || (s3 == 0 && OnBox(b0, b1, a0)) ||
      (s4 == 0 && OnBox(b0, b1, a1))) {
    return 0.0;
  }
  return std::min({PointToSegment2(b0, a0, a1), PointToSegment2(b1, a0, a1), PointToSegment2(a0, b0, b1),
                   PointToSegment2(a1, b0, b1)});
}

inline int SegmentCount(const std::vector<D2>& p, bool closed) {
  return closed ? static_cast<int>(p.size()) : static_cast<int>(p.size()) - 1;
}
inline D2 SegEnd(const std::vector<D2>& p, int i) { return p[(static_cast<std::size_t>(i) + 1) % p.size()]; }

/// Least distance over all segment pairs.
inline double BruteForceDistance(const std::vector<D2>& a, bool closedA, const std::vector<D2>& b,
                                 bool closedB) {
  double best = std::numeric_limits<double>::infinity();
  const int na = SegmentCount(a, closedA), nb = SegmentCount(b, closedB);
  for (int i = 0; i < na; ++i) {
    for (int j = 0; j < nb; ++j)
      best = std::min(best, SegmentsDistance2(a[i], SegEnd(a, i), b[j], SegEnd(b, j)));
  }
  return std::sqrt(best);
}

/// Even-odd rule (p not on the outline).
inline bool InsideOutline(const std::vector<D2>& poly, D2 p) {
  bool inside = false;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const D2 u = poly[i], v = poly[j];
    if ((u.y > p.y) != (v.y > p.y) && p.x < u.x + (p.y - u.y) * (v.x - u.x) / (v.y - u.y)) inside = !inside;
  }
  return inside;
}

// ---------------------------------------------------------------------------------------------
// Random outlines (local frame, centred near the origin, reach about `radius`)
// ---------------------------------------------------------------------------------------------

/// Star: `n` (even) vertices alternating between the outer radius and a random inner one.
inline std::vector<Vec2> Star(Rng& rng, int n, float radius) {
  n += n & 1;
  const float inner = radius * rng.Uniform(0.3f, 0.8f);
  std::vector<Vec2> p;
  for (int i = 0; i < n; ++i) {
    const double a = 6.283185307179586 * i / n;
    const float r = (i & 1) != 0 ? inner * rng.Uniform(0.9f, 1.0f) : radius * rng.Uniform(0.95f, 1.0f);
    p.push_back({r * static_cast<float>(std::cos(a)), r * static_cast<float>(std::sin(a))});
  }
  return p;
}

/// Circle of `n` vertices with radial noise.
inline std::vector<Vec2> NoisyCircle(Rng& rng, int n, float radius, float noise) {
  std::vector<Vec2> p;
  for (int i = 0; i < n; ++i) {
    const double a = 6.283185307179586 * i / n;
    const float r = radius * (1.0f + rng.Uniform(-noise, noise));
    p.push_back({r * static_cast<float>(std::cos(a)), r * static_cast<float>(std::sin(a))});
  }
  return p;
}

/// Comb: a bar with about (n - 2) / 4 teeth, closed, 2 + 4 teeth segments.
inline std::vector<Vec2> Comb(Rng& rng, int n, float radius) {
  const int teeth = std::max(1, (n - 2) / 4);
  const float pitch = 2.0f * radius / teeth, base = -radius + 0.3f * radius * rng.Uniform(0.5f, 1.0f);
  std::vector<Vec2> p{{-radius, -radius}, {radius, -radius}};
  for (int k = teeth - 1; k >= 0; --k) {
    const float x0 = -radius + k * pitch, top = radius * rng.Uniform(0.6f, 1.0f);
    p.push_back({x0 + pitch, base});
    p.push_back({x0 + 0.5f * pitch, base});
    p.push_back({x0 + 0.5f * pitch, top});
    p.push_back({x0, top});
  }
  p[2].x = radius;  // the first gap starts at the bar's right end (the same x as p[1], a vertical edge)
  return p;
}

/// Open Archimedean spiral of n points reaching `radius` after 2..5 turns.
inline std::vector<Vec2> Spiral(Rng& rng, int n, float radius) {
  const double turns = rng.Uniform(2.0f, 5.0f);
  std::vector<Vec2> p;
  for (int i = 0; i < n; ++i) {
    const double u = static_cast<double>(i + 1) / n, a = 6.283185307179586 * turns * u;
    p.push_back({static_cast<float>(radius * u * std::cos(a)), static_cast<float>(radius * u * std::sin(a))});
  }
  return p;
}

/// Spiky radial outline (issue 33): n (even) points on a circle of `radius`, every other one pulled in
/// to 0.05 radius.
inline std::vector<Vec2> Spiky(int n, float radius) {
  n += n & 1;
  std::vector<Vec2> p;
  for (int i = 0; i < n; ++i) {
    const double a = 6.283185307179586 * i / n, r = radius * ((i & 1) != 0 ? 0.05 : 1.0);
    p.push_back({static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))});
  }
  return p;
}

/// Koch snowflake of circumradius 1 at `level` (3 4^level segments), every segment then cut into
/// `split` equal parts.
inline std::vector<Vec2> Koch(int level, int split = 1) {
  std::vector<D2> p{{0.0, 1.0}, {0.8660254037844386, -0.5}, {-0.8660254037844386, -0.5}};
  for (int l = 0; l < level; ++l) {
    std::vector<D2> q;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const D2 a = p[i], b = p[(i + 1) % p.size()], d{(b.x - a.x) / 3.0, (b.y - a.y) / 3.0};
      const D2 u{a.x + d.x, a.y + d.y};
      const D2 tip{u.x + 0.5 * d.x + 0.8660254037844386 * d.y, u.y + 0.5 * d.y - 0.8660254037844386 * d.x};
      q.insert(q.end(), {a, u, tip, {a.x + 2.0 * d.x, a.y + 2.0 * d.y}});
    }
    p = std::move(q);
  }
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const D2 a = p[i], b = p[(i + 1) % p.size()];
    for (int k = 0; k < split; ++k) {
      const double t = static_cast<double>(k) / split;
      out.push_back({static_cast<float>(a.x + t * (b.x - a.x)), static_cast<float>(a.y + t * (b.y - a.y))});
    }
  }
  return out;
}

struct TestShape {
  std::vector<Vec2> points;
  bool closed = true;
  float reach = 0.0f;  ///< largest |point|
};

/// One of the four families with about `n` segments.
inline TestShape RandomShape(Rng& rng, int n, float radius) {
  TestShape s;
  switch (rng.Int(0, 3)) {
    case 0:
      s.points = Star(rng, n, radius);
      break;
    case 1:
      s.points = NoisyCircle(rng, n, radius, rng.Uniform(0.0f, 0.3f));
      break;
    case 2:
      s.points = Comb(rng, n, radius);
      break;
    default:
      s.points = Spiral(rng, n + 1, radius);
      s.closed = false;
      break;
  }
  for (Vec2 p : s.points) s.reach = std::max(s.reach, Length(p));
  return s;
}

}  // namespace mk::test
