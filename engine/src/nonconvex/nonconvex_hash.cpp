// SPDX-License-Identifier: MIT
// Non-convex distance, stage 2: the slab hash between separated hulls. See docs/nonconvex.md.
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

}  // namespace mk::detail::nc
