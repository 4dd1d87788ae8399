// SPDX-License-Identifier: MIT
// Non-convex distance (minkowski/nonconvex_distance.h): the 2D counterpart of the Table 1 benchmark of
// the GJK-bounds + spatial-hashing distance paper. Two wavy, noisy outlines of n segments each, centres
// 2.7 R apart (reach at most 1.25 R, so the hulls stay apart as in the paper's scenes), each rotating
// randomly about its centre every frame; in the deforming variant every vertex also moves radially
// every frame. A third variant, pocket, puts a small deforming blob of n segments, rotating about its
// centre, in a pocket of a deeply lobed outline: the hulls overlap (beyond the paper). Issue 33's
// families, both rotating: spiky radial outlines (n points on the unit circle, every other one at
// radius 0.05) and Koch snowflakes (level 4..7 by size), apart (centres 2.2 apart) and crossing (B at
// (0.5, 0.1), turned 1 rad at the start); smooth blobs apart (the wavy outline without noise); closed
// self-crossing random walks of n steps, apart (just beyond both reaches) and crossing (B at (0.3, 0.1)).
// Average ms per query, for
//   (a) NonConvexDistance (GJK bounds + slab hash),
//   (b) brute force over all segment pairs,
//   (c) a bounding-volume hierarchy over each outline's segments (AABB tree, median split), rebuilt
//       every frame, and best-first traversal of the pair of trees (the deformable-fair baseline),
//   (d) a consecutive-segment BVH: a binary tree over runs of 4 consecutive segments of the outline,
//       boxes built bottom-up in O(n) every frame, the same best-first pair traversal,
// with (a)'s pairs tested (exact distances), pairs the cells proposed (before the box cull), rehashes
// and cells, (c)'s and (d)'s pairs tested; every frame's answers are compared
// (relative 1e-9).
//   build/<dir>/demos/benchmark/nonconvex_benchmark [frames [brute_pairs_budget [sizes...]]]
// frames defaults to 1000 (for a and c); brute force runs as many of the first frames as fit in
// 2e9 segment pairs per size (at least 1; none with brute_pairs 0), and the table says how many. Sizes
// default to 1k 4k 16k 64k. Timing: the thread's CPU clock (bench_clock.h).
#include "bench_clock.h"
#include "minkowski/nonconvex_distance.h"
#include "octagon_pairs.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <queue>
#include <string>
#include <vector>

namespace {

using mk::Transform;
using mk::Vec2;

struct P {
  double x;
  double y;
};

/// Uniform in [0, 1) from the benchmarks' SplitMix64 (octagon_pairs.h).
double Unit(mk::bench::Rng& rng) { return static_cast<double>(rng.Next() >> 11) * 0x1.0p-53; }

/// Wavy outline r(a) = R (1 + lobes sin 5a + 0.05 sin 23a) (1 + noise), closed, n vertices.
std::vector<Vec2> Outline(int n, double radius, double phase, double noise, double lobes,
                          mk::bench::Rng& rng) {
  std::vector<Vec2> p(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const double a = 6.283185307179586 * i / n;
    const double r = radius * (1 + lobes * std::sin(5 * a + phase) + 0.05 * std::sin(23 * a)) *
                     (1 + noise * (2 * Unit(rng) - 1));
    p[i] = {static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))};
  }
  return p;
}

void ToWorld(const std::vector<Vec2>& local, const Transform& xf, std::vector<P>& out) {
  out.resize(local.size());
  for (std::size_t i = 0; i < local.size(); ++i) {
    const double x = local[i].x, y = local[i].y;
    out[i] = {xf.q.c * x - xf.q.s * y + xf.p.x, xf.q.s * x + xf.q.c * y + xf.p.y};
  }
}

/// Squared distance of two segments: 0 when they cross (sign tests), else the least endpoint-to-
/// segment distance; the same work per pair as the engine's kernel.
double PointSegment2(P p, P a, P b) {
  const double ex = b.x - a.x, ey = b.y - a.y;
  double t = ((p.x - a.x) * ex + (p.y - a.y) * ey) / (ex * ex + ey * ey);
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  const double dx = p.x - a.x - t * ex, dy = p.y - a.y - t * ey;
  return dx * dx + dy * dy;
}
double Side(P a, P b, P p) { return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x); }
double Segments2(P a0, P a1, P b0, P b1) {
  if (Side(a0, a1, b0) * Side(a0, a1, b1) < 0 && Side(b0, b1, a0) * Side(b0, b1, a1) < 0) return 0.0;
  return std::min(std::min(PointSegment2(b0, a0, a1), PointSegment2(b1, a0, a1)),
                  std::min(PointSegment2(a0, b0, b1), PointSegment2(a1, b0, b1)));
}

double BruteForce(const std::vector<P>& a, const std::vector<P>& b, std::int64_t& pairs) {
  double best = std::numeric_limits<double>::infinity();
  const std::size_t na = a.size(), nb = b.size();
  for (std::size_t i = 0; i < na; ++i) {
    const P a0 = a[i], a1 = a[i + 1 == na ? 0 : i + 1];
    for (std::size_t j = 0; j < nb; ++j)
      best = std::min(best, Segments2(a0, a1, b[j], b[j + 1 == nb ? 0 : j + 1]));
  }
  pairs += static_cast<std::int64_t>(na * nb);
  return std::sqrt(best);
}

// ---------------------------------------------------------------------------------------------
// (c) BVH over segments, rebuilt every frame, best-first pair traversal
// ---------------------------------------------------------------------------------------------

struct Node {
  P lo, hi;
  int first, count;  ///< leaf: segments order[first..first+count); inner: count 0, children first, first+1
};

struct Tree {
  std::vector<Node> nodes;
  std::vector<int> order;
  std::vector<P> centre;
  const std::vector<P>* pts = nullptr;

  P Start(int s) const { return (*pts)[s]; }
  P End(int s) const { return (*pts)[static_cast<std::size_t>(s) + 1 == pts->size() ? 0 : s + 1]; }

  void Build(const std::vector<P>& points) {
    pts = &points;
    const int n = static_cast<int>(points.size());
    order.resize(n);
    centre.resize(n);
    for (int i = 0; i < n; ++i) {
      order[i] = i;
      centre[i] = {0.5 * (Start(i).x + End(i).x), 0.5 * (Start(i).y + End(i).y)};
    }
    nodes.clear();
    nodes.reserve(2 * n / 2 + 2);
    nodes.push_back({});
    Split(0, 0, n);
  }

  static constexpr int kLeaf = 4;

  void Split(int node, int first, int count) {
    P lo{1e300, 1e300}, hi{-1e300, -1e300};
    for (int k = first; k < first + count; ++k) {
      for (P p : {Start(order[k]), End(order[k])}) {
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
      }
    }
    nodes[node].lo = lo;
    nodes[node].hi = hi;
    if (count <= kLeaf) {
      nodes[node].first = first;
      nodes[node].count = count;
      return;
    }
    const bool xAxis = hi.x - lo.x >= hi.y - lo.y;
    const int half = count / 2;
    std::nth_element(
        order.begin() + first, order.begin() + first + half, order.begin() + first + count,
        [&](int u, int v) { return xAxis ? centre[u].x < centre[v].x : centre[u].y < centre[v].y; });
    const int child = static_cast<int>(nodes.size());
    nodes[node].first = child;
    nodes[node].count = 0;
    nodes.push_back({});
    nodes.push_back({});
    Split(child, first, half);
    Split(child + 1, first + half, count - half);
  }
};

double BoxDistance2(const Node& a, const Node& b) {
  const double dx = std::max({0.0, a.lo.x - b.hi.x, b.lo.x - a.hi.x});
  const double dy = std::max({0.0, a.lo.y - b.hi.y, b.lo.y - a.hi.y});
  return dx * dx + dy * dy;
}

struct Pending {
  double d2;
  int a, b;
  bool operator<(const Pending& o) const { return d2 > o.d2; }  // min-heap
};

double BvhDistance(Tree& ta, Tree& tb, const std::vector<P>& a, const std::vector<P>& b, std::int64_t& pairs,
                   std::vector<Pending>& heap) {
  ta.Build(a);
  tb.Build(b);
  double best = std::numeric_limits<double>::infinity();
  heap.clear();
  heap.push_back({BoxDistance2(ta.nodes[0], tb.nodes[0]), 0, 0});
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end());
    const Pending top = heap.back();
    heap.pop_back();
    if (top.d2 >= best) break;  // best-first: nothing left can be closer
    const Node& na = ta.nodes[top.a];
    const Node& nb = tb.nodes[top.b];
    if (na.count > 0 && nb.count > 0) {
      for (int i = na.first; i < na.first + na.count; ++i) {
        const int sa = ta.order[i];
        for (int j = nb.first; j < nb.first + nb.count; ++j) {
          const int sb = tb.order[j];
          best = std::min(best, Segments2(ta.Start(sa), ta.End(sa), tb.Start(sb), tb.End(sb)));
          ++pairs;
        }
      }
      continue;
    }
    // Descend the larger inner node (by box perimeter), or the only inner one.
    const bool splitA = nb.count > 0 || (na.count == 0 && (na.hi.x - na.lo.x + na.hi.y - na.lo.y) >=
                                                              (nb.hi.x - nb.lo.x + nb.hi.y - nb.lo.y));
    for (int c = 0; c < 2; ++c) {
      const int ca = splitA ? na.first + c : top.a, cb = splitA ? top.b : nb.first + c;
      const double d2 = BoxDistance2(ta.nodes[ca], tb.nodes[cb]);
      if (d2 < best) {
        heap.push_back({d2, ca, cb});
        std::push_heap(heap.begin(), heap.end());
      }
    }
  }
  return std::sqrt(best);
}

// ---------------------------------------------------------------------------------------------
// (d) Consecutive-segment BVH: the outline's order as the spatial sort, rebuilt bottom-up in O(n)
// ---------------------------------------------------------------------------------------------

/// Implicit complete binary tree over runs of kRun consecutive segments: leaves at [leaves, 2 leaves)
/// (leaves a power of two, empty runs get an inverted box), node i's children 2i and 2i + 1.
struct RunTree {
  static constexpr int kRun = 4;
  std::vector<P> lo, hi;
  int leaves = 1;
  int segments = 0;

  void Build(const std::vector<P>& pts) {
    segments = static_cast<int>(pts.size());
    const int runs = (segments + kRun - 1) / kRun;
    leaves = 1;
    while (leaves < runs) leaves *= 2;
    lo.assign(2 * static_cast<std::size_t>(leaves), P{1e300, 1e300});
    hi.assign(2 * static_cast<std::size_t>(leaves), P{-1e300, -1e300});
    for (int s = 0; s < segments; ++s) {
      const int leaf = leaves + s / kRun;
      for (const P& p : {pts[s], pts[s + 1 == segments ? 0 : s + 1]}) {
        lo[leaf] = {std::min(lo[leaf].x, p.x), std::min(lo[leaf].y, p.y)};
        hi[leaf] = {std::max(hi[leaf].x, p.x), std::max(hi[leaf].y, p.y)};
      }
    }
    for (int i = leaves - 1; i >= 1; --i) {
      lo[i] = {std::min(lo[2 * i].x, lo[2 * i + 1].x), std::min(lo[2 * i].y, lo[2 * i + 1].y)};
      hi[i] = {std::max(hi[2 * i].x, hi[2 * i + 1].x), std::max(hi[2 * i].y, hi[2 * i + 1].y)};
    }
  }
  bool Empty(int i) const { return lo[i].x > hi[i].x; }
  double Gap2(int i, const RunTree& o, int j) const {
    const double dx = std::max({0.0, lo[i].x - o.hi[j].x, o.lo[j].x - hi[i].x});
    const double dy = std::max({0.0, lo[i].y - o.hi[j].y, o.lo[j].y - hi[i].y});
    return dx * dx + dy * dy;
  }
  double Size(int i) const { return hi[i].x - lo[i].x + hi[i].y - lo[i].y; }
};

/// Best-first descent of the two run trees (a min-heap of node pairs by box distance), bounded by the best
/// distance so far: it stops when the nearest pending pair cannot beat it (at once after a crossing).
double RunBvhDistance(RunTree& ta, RunTree& tb, const std::vector<P>& a, const std::vector<P>& b,
                      std::int64_t& pairs, std::vector<Pending>& heap) {
  ta.Build(a);
  tb.Build(b);
  double best = std::numeric_limits<double>::infinity();
  heap.clear();
  heap.push_back({ta.Gap2(1, tb, 1), 1, 1});
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end());
    const Pending top = heap.back();
    heap.pop_back();
    if (top.d2 >= best) break;
    const bool leafA = top.a >= ta.leaves, leafB = top.b >= tb.leaves;
    if (leafA && leafB) {
      const int a0 = (top.a - ta.leaves) * RunTree::kRun, b0 = (top.b - tb.leaves) * RunTree::kRun;
      for (int i = a0; i < std::min(a0 + RunTree::kRun, ta.segments); ++i) {
        const P p0 = a[i], p1 = a[i + 1 == ta.segments ? 0 : i + 1];
        for (int j = b0; j < std::min(b0 + RunTree::kRun, tb.segments); ++j) {
          best = std::min(best, Segments2(p0, p1, b[j], b[j + 1 == tb.segments ? 0 : j + 1]));
          ++pairs;
        }
      }
      continue;
    }
    const bool splitA = leafB || (!leafA && ta.Size(top.a) >= tb.Size(top.b));
    for (int c = 0; c < 2; ++c) {
      const int ca = splitA ? 2 * top.a + c : top.a, cb = splitA ? top.b : 2 * top.b + c;
      if (ta.Empty(ca) || tb.Empty(cb)) continue;
      const double d2 = ta.Gap2(ca, tb, cb);
      if (d2 < best) {
        heap.push_back({d2, ca, cb});
        std::push_heap(heap.begin(), heap.end());
      }
    }
  }
  return std::sqrt(best);
}

struct Row {
  int segments = 0;
  double msA = 0, msB = 0, msC = 0, msD = 0;
  double pairsA = 0, cellPairs = 0, rehashes = 0, cells = 0, pairsC = 0, pairsD = 0;
  int framesB = 0;
  int mismatches = 0;
};

enum class Variant {
  Rotating,
  Deforming,
  Pocket,
  SpikyApart,
  SpikyCrossing,
  KochApart,
  KochCrossing,
  BlobApart,
  WalkApart,
  WalkCrossing
};

const char* Name(Variant v) {
  constexpr const char* kNames[] = {"rotating",       "deforming",    "pocket",        "spiky_apart",
                                    "spiky_crossing", "koch_apart",   "koch_crossing", "blob_apart",
                                    "walk_apart",     "walk_crossing"};
  return kNames[static_cast<int>(v)];
}

/// Spiky radial outline (issue 33): n points on the unit circle, every other one pulled in to 0.05.
std::vector<Vec2> Spiky(int n) {
  std::vector<Vec2> p(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const double a = 6.283185307179586 * i / n, r = (i & 1) != 0 ? 0.05 : 1.0;
    p[i] = {static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))};
  }
  return p;
}

/// Koch snowflake of the given level (3 4^level segments), circumradius 1, centred on the origin.
std::vector<Vec2> Koch(int level) {
  std::vector<P> p{{0, 1}, {0.8660254037844386, -0.5}, {-0.8660254037844386, -0.5}};
  for (int l = 0; l < level; ++l) {
    std::vector<P> q;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const P a = p[i], b = p[(i + 1) % p.size()], d{(b.x - a.x) / 3, (b.y - a.y) / 3};
      const P u{a.x + d.x, a.y + d.y}, w{a.x + 2 * d.x, a.y + 2 * d.y};
      // The bump points outwards (the outline runs clockwise): d turned by -60 degrees.
      const P tip{u.x + 0.5 * d.x + 0.8660254037844386 * d.y, u.y + 0.5 * d.y - 0.8660254037844386 * d.x};
      q.insert(q.end(), {a, u, tip, w});
    }
    p = std::move(q);
  }
  std::vector<Vec2> out;
  for (P x : p) out.push_back({static_cast<float>(x.x), static_cast<float>(x.y)});
  return out;
}

/// Closed random walk (issue 33's self-crossing family): n steps of length 1.5 / sqrt(n) in random
/// directions, centred on the mean point, the closing segment back to the start included.
std::vector<Vec2> Walk(int n, mk::bench::Rng& rng) {
  std::vector<P> p(static_cast<std::size_t>(n));
  P at{0, 0}, mean{0, 0};
  const double step = 1.5 / std::sqrt(static_cast<double>(n));
  for (int i = 0; i < n; ++i) {
    p[i] = at;
    mean = {mean.x + at.x / n, mean.y + at.y / n};
    const double a = 6.283185307179586 * Unit(rng);
    at = {at.x + step * std::cos(a), at.y + step * std::sin(a)};
  }
  std::vector<Vec2> out;
  for (P x : p) out.push_back({static_cast<float>(x.x - mean.x), static_cast<float>(x.y - mean.y)});
  return out;
}

/// Largest distance of a point from the origin.
double Reach(const std::vector<Vec2>& p) {
  double r = 0;
  for (Vec2 x : p) r = std::max(r, std::hypot(static_cast<double>(x.x), static_cast<double>(x.y)));
  return r;
}

/// Koch level with about n segments (1k: 4, 4k: 5, 16k: 6, 64k: 7).
int KochLevel(int n) { return std::max(1, static_cast<int>(std::lround(std::log(n / 3.0) / std::log(4.0)))); }

Row Run(int n, int frames, double bruteBudget, Variant variant) {
  mk::bench::Rng rng{static_cast<std::uint64_t>(n) * 7919u + static_cast<std::uint64_t>(variant)};
  const bool deform = variant == Variant::Deforming || variant == Variant::Pocket;
  const bool pocket = variant == Variant::Pocket;
  const bool spiky = variant == Variant::SpikyApart || variant == Variant::SpikyCrossing;
  const bool koch = variant == Variant::KochApart || variant == Variant::KochCrossing;
  const bool walk = variant == Variant::WalkApart || variant == Variant::WalkCrossing;
  const bool crossing = variant == Variant::SpikyCrossing || variant == Variant::KochCrossing ||
                        variant == Variant::WalkCrossing;
  const double radius = 1.0;
  // Pocket: B, a blob of radius 0.08 R, sits in a pocket of a deeply lobed A (r = R (1 + 0.3 sin 5a)) at
  // 0.95 R from A's centre, inside A's hull but off its outline: the overlap path answers.
  // Smooth blobs (the first table): no noise, lobes 0.15 only.
  const double noise = variant == Variant::BlobApart ? 0.0 : 0.02;
  std::vector<Vec2> restA = Outline(n, radius, 0.0, noise, pocket ? 0.3 : 0.15, rng);
  std::vector<Vec2> restB = Outline(n, pocket ? 0.08 * radius : radius, 1.0, noise, 0.15, rng);
  // Spiky and Koch (reach 1): crossing as in issue 33, B at (0.5, 0.1) turned 1 rad; apart, B at 2.2.
  if (spiky) restA = restB = Spiky(n);
  if (koch) restA = restB = Koch(KochLevel(n));
  if (walk) {
    restA = Walk(n, rng);
    restB = Walk(n, rng);
  }
  n = static_cast<int>(restA.size());
  const double walkApart = walk ? Reach(restA) + Reach(restB) + 0.2 : 0.0;
  const double pocketAngle = -0.3141592653589793;  // sin(5 a) = -1: A's outline at 0.7 R
  std::vector<Vec2> a = restA, b = restB;
  std::vector<P> wa, wb;
  mk::NonConvexWorkspace ws;
  Tree ta, tb;
  std::vector<Pending> heap;
  Row row;
  const int bruteFrames =
      bruteBudget <= 0 ? 0 : std::max(1, std::min(frames, static_cast<int>(bruteBudget / (double(n) * n))));
  double angleA = 0, angleB = crossing ? 1.0 : 0.0;
  RunTree ra, rb;
  for (int f = 0; f < frames; ++f) {
    // Random rotation about each centre (a random walk of up to 0.2 rad per frame).
    angleA = pocket ? 0.02 * (Unit(rng) - 0.5) : angleA + 0.4 * (Unit(rng) - 0.5);
    angleB += 0.4 * (Unit(rng) - 0.5);
    if (deform) {
      // Each vertex breathes radially by up to 4 % with its own phase.
      for (int i = 0; i < n; ++i) {
        const float s = static_cast<float>(1 + 0.04 * std::sin(0.1 * f + 0.37 * i));
        a[i] = s * restA[i];
        b[i] = static_cast<float>(2.0 - s) * restB[i];
      }
    }
    const Transform xa = mk::MakeTransform({0, 0}, static_cast<float>(angleA));
    Vec2 centreB{static_cast<float>(2.7 * radius), 0.0f};
    if (pocket)
      centreB = {static_cast<float>(0.95 * std::cos(pocketAngle)),
                 static_cast<float>(0.95 * std::sin(pocketAngle))};
    if (spiky || koch) centreB = crossing ? Vec2{0.5f, 0.1f} : Vec2{2.2f, 0.0f};
    // Walks: crossing near the centres, apart just beyond both reaches.
    if (walk) centreB = crossing ? Vec2{0.3f, 0.1f} : Vec2{static_cast<float>(walkApart), 0.0f};
    const Transform xb = mk::MakeTransform(centreB, static_cast<float>(angleB));
    const mk::NonConvexInput in{{a.data(), n, true}, {b.data(), n, true}, xa, xb};

    double t0 = mk::bench::NowNs();
    const mk::NonConvexOutput out = mk::NonConvexDistance(in, ws);
    double t1 = mk::bench::NowNs();
    row.msA += (t1 - t0) * 1e-6;
    row.pairsA += out.stats.pairsTested;
    row.cellPairs += out.stats.pairsFromCells;
    row.rehashes += out.stats.rehashes;
    row.cells += out.stats.cells;

    // A baseline's time includes the transform to the world frame, as (a)'s does.
    auto timed = [&](auto&& query, double& ms, double& pairs) {
      const double start = mk::bench::NowNs();
      ToWorld(a, xa, wa);
      ToWorld(b, xb, wb);
      std::int64_t counted = 0;
      const double d = query(counted);
      ms += (mk::bench::NowNs() - start) * 1e-6;
      pairs += static_cast<double>(counted);
      return d;
    };
    const double dc =
        timed([&](std::int64_t& p) { return BvhDistance(ta, tb, wa, wb, p, heap); }, row.msC, row.pairsC);
    const double dd =
        timed([&](std::int64_t& p) { return RunBvhDistance(ra, rb, wa, wb, p, heap); }, row.msD, row.pairsD);
    bool agree = std::fabs(dc - out.distance) <= 1e-6 * dc && std::fabs(dd - dc) <= 1e-9 * dc;
    if (f < bruteFrames) {
      double bruteHere = 0.0;
      const double db = timed([&](std::int64_t& p) { return BruteForce(wa, wb, p); }, row.msB, bruteHere);
      ++row.framesB;
      agree = agree && std::fabs(db - dc) <= 1e-9 * db;  // same kernel: equal up to rounding
    }
    if (!agree)
      std::fprintf(stderr, "mismatch n=%d frame %d: hash %.9g bvh %.9g status %d\n", n, f, out.distance, dc,
                   static_cast<int>(out.status));
    row.mismatches += agree ? 0 : 1;
  }
  row.msA /= frames;
  row.msC /= frames;
  row.msD /= frames;
  row.pairsD /= frames;
  row.segments = n;
  row.msB = row.framesB > 0 ? row.msB / row.framesB : 0.0;
  row.pairsA /= frames;
  row.cellPairs /= frames;
  row.rehashes /= frames;
  row.cells /= frames;
  row.pairsC /= frames;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  const int frames = argc > 1 ? std::max(1, std::atoi(argv[1])) : 1000;
  const double budget = argc > 2 ? std::atof(argv[2]) : 2e9;
  std::vector<int> sizes;
  for (int i = 3; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {1000, 4000, 16000, 64000};
  std::printf(
      "variant,segments_per_shape,frames,ms_engine,ms_brute,brute_frames,ms_median_bvh,ms_run_bvh,"
      "brute_over_engine,median_bvh_over_engine,run_bvh_over_engine,pairs_engine,cell_pairs,rehashes,cells,"
      "pairs_median_bvh,pairs_run_bvh,pairs_brute,mismatches\n");
  for (Variant v : {Variant::Rotating, Variant::Deforming, Variant::Pocket, Variant::SpikyApart,
                    Variant::SpikyCrossing, Variant::KochApart, Variant::KochCrossing, Variant::BlobApart,
                    Variant::WalkApart, Variant::WalkCrossing}) {
    // NC_FAMILY=<name> runs one family only (profiling).
    const char* only = std::getenv("NC_FAMILY");
    if (only != nullptr && std::string(only) != Name(v)) continue;
    for (int n : sizes) {
      const Row r = Run(n, frames, budget, v);
      const double nn = double(r.segments) * r.segments;
      std::printf("%s,%d,%d,%.4f,%.3f,%d,%.4f,%.4f,%.1f,%.2f,%.2f,%.0f,%.0f,%.2f,%.1f,%.0f,%.0f,%.0f,%d\n",
                  Name(v), r.segments, frames, r.msA, r.msB, r.framesB, r.msC, r.msD, r.msB / r.msA,
                  r.msC / r.msA, r.msD / r.msA, r.pairsA, r.cellPairs, r.rehashes, r.cells, r.pairsC,
                  r.pairsD, nn, r.mismatches);
      std::fflush(stdout);
    }
  }
  return 0;
}
