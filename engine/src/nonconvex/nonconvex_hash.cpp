// SPDX-License-Identifier: MIT
// Non-convex distance, stage 2 (the slab hash between separated hulls) and the overlap grid (hulls
// overlap, beyond the paper). See minkowski/nonconvex_distance.h for the method.
#include "nonconvex/nonconvex_internal.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mk::detail::nc {
namespace {

// ---------------------------------------------------------------------------------------------
// Stage 2: the slab row
// ---------------------------------------------------------------------------------------------

/// Slab coordinates: z across (0 on the mid plane, A below, B above), t along the separating line.
struct SlabFrame {
  DVec normal;
  DVec along;
  double mid;
  double Z(DVec p) const { return Dot(p, normal) - mid; }
  double T(DVec p) const { return Dot(p, along); }
};

/// The slab box of segment p0-p1: the t-range of its part with z >= limit (keepAbove, A) or z <= limit
/// (!keepAbove, B) and its whole z-range; false when no part is inside.
bool MakeSlabBox(const SlabFrame& f, int segment, DVec p0, DVec p1, double limit, bool keepAbove,
                 SlabBox& box) {
  const double z0 = f.Z(p0), z1 = f.Z(p1);
  const double s = keepAbove ? 1.0 : -1.0;  // flip B's side so that "inside" is z s >= limit s
  const bool in0 = s * z0 >= s * limit, in1 = s * z1 >= s * limit;
  if (!in0 && !in1) return false;
  double t0 = f.T(p0), t1 = f.T(p1);
  if (!in0) t0 = t0 + (limit - z0) / (z1 - z0) * (t1 - t0);
  if (!in1) t1 = t1 + (limit - z1) / (z0 - z1) * (t0 - t1);
  box = {segment, std::min(t0, t1), std::max(t0, t1), std::min(z0, z1), std::max(z0, z1)};
  return true;
}

/// Squared lower bound of the distance between two segments from their slab boxes (a segment's part
/// outside the slab is farther than d_up from the other shape, so the clipped t-range is enough).
double BoxDistanceSquared(const SlabBox& a, const SlabBox& b) {
  const double dt = std::max({0.0, b.tLow - a.tHigh, a.tLow - b.tHigh});
  const double dz = std::max({0.0, b.zLow - a.zHigh, a.zLow - b.zHigh});
  return dt * dt + dz * dz;
}

/// The row of cells and the bounds that sized it.
struct SlabRow {
  double gap;
  double upper;
  double cell;
  double origin;
  int cells;
  int Cell(double t) const {
    const double k = std::floor((t - origin) / cell);
    return k < 0.0 ? 0 : (k >= cells ? cells - 1 : static_cast<int>(k));
  }
};

/// Hashes A's candidates into the row for the current upper bound, dropping those that left the slab
/// (it only narrows, so they never come back). The paper's cell sizes: across, 2 d_up - d_low (the
/// whole slab, so one cell: a row); along, sqrt(d_up^2 - d_low^2), the most two points closer than d_up
/// can differ along the separating line when they differ by at least d_low across; not below the
/// average edge length, the paper's optimisation, so no segment spans many cells.
void BuildRow(const HashInput& in, const SlabFrame& f, SlabRow& row, NonConvexWorkspace::Buffers& b,
              NonConvexStats& stats) {
  const double zMin = 0.5 * row.gap - row.upper - in.slack;
  std::vector<SlabBox>& cand = b.candidatesA;
  int kept = 0;
  double tMin = 0.0, tMax = 0.0;
  for (const SlabBox& old : cand) {
    SlabBox box;
    const int s = old.segment;
    if (!MakeSlabBox(f, s, in.A.Start(s), in.A.End(s), zMin, true, box)) continue;
    tMin = kept == 0 ? box.tLow : std::min(tMin, box.tLow);
    tMax = kept == 0 ? box.tHigh : std::max(tMax, box.tHigh);
    cand[kept++] = box;
  }
  cand.resize(kept);
  const double across = std::max(row.upper * row.upper - row.gap * row.gap, 0.0);
  row.cell = std::max(std::sqrt(across), in.averageEdge) + in.slack;
  row.origin = tMin;
  // Cells never exceed ~2 per candidate: a wider row only means longer cells, still conservative.
  const double span = tMax - tMin;
  row.cell = std::max(row.cell, span / (2.0 * kept + 1.0));
  row.cells = kept == 0 ? 0 : static_cast<int>(std::floor(span / row.cell)) + 1;
  std::vector<int>& start = b.cellStart;
  start.assign(static_cast<std::size_t>(row.cells) + 1, 0);
  for (const SlabBox& box : cand) {
    for (int c = row.Cell(box.tLow); c <= row.Cell(box.tHigh); ++c) ++start[c + 1];
  }
  for (int c = 0; c < row.cells; ++c) start[c + 1] += start[c];
  b.cellEntries.resize(static_cast<std::size_t>(start[row.cells]));
  std::vector<int>& fill = b.cellFill;
  fill.assign(start.begin(), start.end() - 1);
  for (const SlabBox& box : cand) {
    for (int c = row.Cell(box.tLow); c <= row.Cell(box.tHigh); ++c) b.cellEntries[fill[c]++] = box;
  }
  stats.cells = row.cells;
  stats.hashedSegments = kept;
}

}  // namespace

void SlabHashDistance(const HashInput& in, DVec normal, double supportA, double supportB, int startB,
                      BestPair& best, NonConvexWorkspace::Buffers& b, NonConvexStats& stats,
                      NonConvexDebug* debug) {
  const SlabFrame f{normal, {-normal.y, normal.x}, 0.5 * (supportA + supportB)};
  SlabRow row{supportB - supportA, std::sqrt(best.distanceSquared), 0.0, 0.0, 0};
  b.candidatesA.resize(static_cast<std::size_t>(in.A.segmentCount));
  for (int s = 0; s < in.A.segmentCount; ++s) b.candidatesA[s].segment = s;
  b.stamp.assign(static_cast<std::size_t>(in.A.segmentCount), -1);
  BuildRow(in, f, row, b, stats);
  if (debug != nullptr) b.debugQueriedSegments.clear();

  // B from the segment at its support point outwards (start, start + 1, start - 1, ...): the closest
  // pair is usually near the supports, so d_up drops early and the later queries see small cells.
  const int n = in.B.segmentCount;
  for (int k = 0; k < n; ++k) {
    const int offset = (k & 1) != 0 ? (k + 1) / 2 : -(k / 2);
    const int s = ((startB + offset) % n + n) % n;
    SlabBox box;
    const double zMax = row.upper - 0.5 * row.gap + in.slack;
    if (row.cells == 0 || !MakeSlabBox(f, s, in.B.Start(s), in.B.End(s), zMax, false, box)) continue;
    ++stats.queriedSegments;
    if (debug != nullptr) b.debugQueriedSegments.push_back(s);
    const int c0 = std::max(row.Cell(box.tLow) - 1, 0), c1 = std::min(row.Cell(box.tHigh) + 1, row.cells - 1);
    bool improved = false;
    for (int e = b.cellStart[c0]; e < b.cellStart[c1 + 1]; ++e) {
      const SlabBox& entry = b.cellEntries[e];
      // Beyond the paper: the boxes' distance culls most pairs the cells let through (cheaper than the
      // exact test, and it tightens as d_up falls between rehashes).
      if (b.stamp[entry.segment] == s) continue;
      b.stamp[entry.segment] = s;
      ++stats.pairsFromCells;
      if (BoxDistanceSquared(entry, box) >= best.distanceSquared) continue;
      improved |= TestPair(in.A, in.B, entry.segment, s, best, stats.pairsTested);
    }
    // Rehash on every improvement (the paper's second optimisation): the slab and the cells shrink.
    if (improved) {
      row.upper = std::sqrt(best.distanceSquared);
      BuildRow(in, f, row, b, stats);
      ++stats.rehashes;
    }
  }
  if (debug != nullptr) {
    debug->normal = ToFloat(normal);
    debug->planeOffset = static_cast<float>(f.mid);
    debug->slabMinZ = static_cast<float>(0.5 * row.gap - row.upper);
    debug->slabMaxZ = static_cast<float>(row.upper - 0.5 * row.gap);
    debug->cellOrigin = static_cast<float>(row.origin);
    debug->cellSize = static_cast<float>(row.cell);
    debug->cellCount = row.cells;
    b.debugHashedSegments.clear();
    for (const SlabBox& box : b.candidatesA) b.debugHashedSegments.push_back(box.segment);
  }
}

namespace {

// ---------------------------------------------------------------------------------------------
// Overlap grid
// ---------------------------------------------------------------------------------------------

struct Box {
  DVec lo;
  DVec hi;
};

Box Bounds(const WorldChain& c) {
  Box b{c.points[0], c.points[0]};
  for (int i = 1; i < c.pointCount; ++i) {
    b.lo = {std::min(b.lo.x, c.points[i].x), std::min(b.lo.y, c.points[i].y)};
    b.hi = {std::max(b.hi.x, c.points[i].x), std::max(b.hi.y, c.points[i].y)};
  }
  return b;
}

Box SegmentBox(const WorldChain& c, int s) {
  const DVec p = c.Start(s), q = c.End(s);
  return {{std::min(p.x, q.x), std::min(p.y, q.y)}, {std::max(p.x, q.x), std::max(p.y, q.y)}};
}

/// Squared distance between two boxes: a lower bound for anything inside them.
double BoxDistanceSquared(const Box& a, const Box& b) {
  const double dx = std::max({0.0, b.lo.x - a.hi.x, a.lo.x - b.hi.x});
  const double dy = std::max({0.0, b.lo.y - a.hi.y, a.lo.y - b.hi.y});
  return dx * dx + dy * dy;
}

/// Clips segment p0-p1 to the box (Liang-Barsky); false when it misses.
bool ClipToBox(const Box& box, DVec& p0, DVec& p1) {
  double t0 = 0.0, t1 = 1.0;
  const DVec d = p1 - p0;
  const double p[4] = {-d.x, d.x, -d.y, d.y};
  const double q[4] = {p0.x - box.lo.x, box.hi.x - p0.x, p0.y - box.lo.y, box.hi.y - p0.y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0.0) {
      if (q[i] < 0.0) return false;
      continue;
    }
    const double r = q[i] / p[i];
    if (p[i] < 0.0)
      t0 = std::max(t0, r);
    else
      t1 = std::min(t1, r);
  }
  if (t0 > t1) return false;
  const DVec a = p0 + t0 * d, c = p0 + t1 * d;
  p0 = a;
  p1 = c;
  return true;
}

struct Grid {
  DVec origin;
  double cell;
  int columns;
  int rows;
  int Column(double x) const {
    return std::clamp(static_cast<int>(std::floor((x - origin.x) / cell)), 0, columns - 1);
  }
  int Row(double y) const {
    return std::clamp(static_cast<int>(std::floor((y - origin.y) / cell)), 0, rows - 1);
  }
  static std::uint64_t Key(int column, int row) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(column)) << 32) |
           static_cast<std::uint32_t>(row);
  }
};

/// Calls visit(column, row) for every cell segment p0-p1 (inside the grid) passes through, column by
/// column; each column's row range is widened by a hair so that rounding at a cell corner never drops
/// a cell the segment touches.
template <typename Visit>
void RasterizeSegment(const Grid& g, DVec p0, DVec p1, Visit&& visit) {
  if (p1.x < p0.x) std::swap(p0, p1);
  const int c0 = g.Column(p0.x), c1 = g.Column(p1.x);
  const double dx = p1.x - p0.x, hair = 1e-9 * g.cell;
  for (int c = c0; c <= c1; ++c) {
    const double xa = std::max(p0.x, g.origin.x + c * g.cell),
                 xb = std::min(p1.x, g.origin.x + (c + 1) * g.cell);
    double ya = p0.y, yb = p1.y;
    if (dx > 0.0) {
      ya = p0.y + (xa - p0.x) / dx * (p1.y - p0.y);
      yb = p0.y + (xb - p0.x) / dx * (p1.y - p0.y);
    }
    const int r0 = g.Row(std::min(ya, yb) - hair), r1 = g.Row(std::max(ya, yb) + hair);
    for (int r = r0; r <= r1; ++r) visit(c, r);
  }
}

/// One pass at cell size h: every pair of segments closer than h (<= h) is tested, so the pass is exact
/// when the best pair found is within h. Returns whether it is.
bool GridPass(const HashInput& in, const Box& overlap, double h, BestPair& best,
              NonConvexWorkspace::Buffers& b, NonConvexStats& stats, NonConvexDebug* debug) {
  // Two points closer than h lie in this box: A's point is in A's box and within h of B's, so within h
  // of the boxes' overlap, and the same for B's point.
  const Box region{{overlap.lo.x - h, overlap.lo.y - h}, {overlap.hi.x + h, overlap.hi.y + h}};
  const double width = region.hi.x - region.lo.x, height = region.hi.y - region.lo.y;
  // Keep the index range in int: cells no smaller than 1/2^30 of the region.
  const double cell = std::max({h, width * 0x1.0p-30, height * 0x1.0p-30});
  const Grid g{region.lo, cell, static_cast<int>(width / cell) + 1, static_cast<int>(height / cell) + 1};
  b.grid.clear();
  int hashed = 0;
  for (int s = 0; s < in.A.segmentCount; ++s) {
    DVec p0 = in.A.Start(s), p1 = in.A.End(s);
    if (!ClipToBox(region, p0, p1)) continue;
    ++hashed;
    RasterizeSegment(g, p0, p1, [&](int c, int r) { b.grid.push_back({Grid::Key(c, r), s}); });
  }
  std::sort(b.grid.begin(), b.grid.end(), [](const GridEntry& x, const GridEntry& y) {
    return x.key < y.key || (x.key == y.key && x.segment < y.segment);
  });
  b.grid.erase(std::unique(b.grid.begin(), b.grid.end(),
                           [](const GridEntry& x, const GridEntry& y) {
                             return x.key == y.key && x.segment == y.segment;
                           }),
               b.grid.end());
  stats.hashedSegments = hashed;
  stats.cells = 0;
  for (std::size_t i = 0; i < b.grid.size(); ++i) stats.cells += i == 0 || b.grid[i].key != b.grid[i - 1].key;
  b.stamp.assign(static_cast<std::size_t>(in.A.segmentCount), -1);
  for (int s = 0; s < in.B.segmentCount; ++s) {
    DVec p0 = in.B.Start(s), p1 = in.B.End(s);
    if (!ClipToBox(region, p0, p1)) continue;
    const Box boxB = SegmentBox(in.B, s);
    ++stats.queriedSegments;
    if (debug != nullptr) b.debugQueriedSegments.push_back(s);
    RasterizeSegment(g, p0, p1, [&](int c, int r) {
      for (int dc = -1; dc <= 1; ++dc) {
        for (int dr = -1; dr <= 1; ++dr) {
          if (c + dc < 0 || c + dc >= g.columns || r + dr < 0 || r + dr >= g.rows) continue;
          const std::uint64_t key = Grid::Key(c + dc, r + dr);
          auto it = std::lower_bound(b.grid.begin(), b.grid.end(), key,
                                     [](const GridEntry& x, std::uint64_t k) { return x.key < k; });
          for (; it != b.grid.end() && it->key == key; ++it) {
            if (b.stamp[it->segment] == s) continue;
            b.stamp[it->segment] = s;
            ++stats.pairsFromCells;
            // The boxes' distance culls pairs the (coarse, late-pass) cells let through.
            if (BoxDistanceSquared(SegmentBox(in.A, it->segment), boxB) >= best.distanceSquared) continue;
            TestPair(in.A, in.B, it->segment, s, best, stats.pairsTested);
          }
        }
      }
    });
  }
  if (debug != nullptr) {
    debug->gridOrigin = ToFloat(g.origin);
    debug->gridCellSize = static_cast<float>(g.cell);
    b.debugGridCells.clear();
    for (std::size_t i = 0; i < b.grid.size(); ++i) {
      if (i > 0 && b.grid[i].key == b.grid[i - 1].key) continue;
      b.debugGridCells.push_back(static_cast<std::int32_t>(b.grid[i].key >> 32));
      b.debugGridCells.push_back(static_cast<std::int32_t>(b.grid[i].key & 0xffffffffu));
    }
    b.debugHashedSegments.clear();
    for (const GridEntry& e : b.grid) b.debugHashedSegments.push_back(e.segment);
  }
  return best.distanceSquared <= h * h;
}

}  // namespace

void OverlapGridDistance(const HashInput& in, BestPair& best, NonConvexWorkspace::Buffers& b,
                         NonConvexStats& stats, NonConvexDebug* debug) {
  const Box boxA = Bounds(in.A), boxB = Bounds(in.B);
  // Overlapping hulls have overlapping boxes; clamping keeps the box valid if rounding says otherwise.
  Box overlap{{std::max(boxA.lo.x, boxB.lo.x), std::max(boxA.lo.y, boxB.lo.y)},
              {std::min(boxA.hi.x, boxB.hi.x), std::min(boxA.hi.y, boxB.hi.y)}};
  overlap.hi = {std::max(overlap.hi.x, overlap.lo.x), std::max(overlap.hi.y, overlap.lo.y)};
  if (debug != nullptr) b.debugQueriedSegments.clear();
  // Start at the average edge length (a segment then spans a few cells); when a pass finds nothing
  // within its cell, the next uses the best distance found (exact at once) or four times the cell.
  double h = in.averageEdge + in.slack;
  // Ends: h at least quadruples until a pair is found (a pass whose cell spans the whole overlap tests
  // every pair in it), and the pass after a find is exact. The cap is a guard against NaN only.
  for (int pass = 0; pass < 200; ++pass) {
    if (pass > 0) ++stats.rehashes;
    if (GridPass(in, overlap, h, best, b, stats, debug)) return;
    h = std::isfinite(best.distanceSquared) ? std::sqrt(best.distanceSquared) * (1.0 + 1e-12) + in.slack
                                            : 4.0 * h;
  }
}

}  // namespace mk::detail::nc
