// SPDX-License-Identifier: MIT
// Support mapping: linear scan vs hill climbing from the previous answer, by polygon size.
// Decides kHillClimbMinVertices (engine/include/minkowski/geometry.h). The direction turns by a small
// random angle per query, like a warm-started GJK on a coherent pair.
//   build/release/demos/benchmark/support_benchmark
#include "minkowski/geometry.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

double MedianNsPerQuery(const std::vector<double>& samples) {
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  return sorted[sorted.size() / 2];
}

template <class Query>
double TimeQueries(const std::vector<mk::Vec2>& dirs, Query query) {
  std::vector<double> samples;
  int sink = 0;
  for (int rep = 0; rep < 7; ++rep) {
    auto start = std::chrono::steady_clock::now();
    for (mk::Vec2 d : dirs) sink += query(d);
    auto stop = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::nano>(stop - start).count() / dirs.size());
  }
  if (sink == -1) std::printf("%d", sink);  // keep the work observable
  return MedianNsPerQuery(samples);
}

}  // namespace

int main() {
  constexpr int kQueries = 200000;
  std::vector<mk::Vec2> dirs(kQueries);
  float angle = 0.0f;
  unsigned state = 12345u;
  for (mk::Vec2& d : dirs) {
    state = state * 1664525u + 1013904223u;
    angle += 0.05f * (static_cast<float>(state >> 8) / 16777216.0f - 0.3f);  // drifting direction
    d = {std::cos(angle), std::sin(angle)};
  }
  std::printf("vertices,scan_ns,hill_climb_warm_ns,hill_climb_from_0_ns,scan_over_warm\n");
  for (int count : {4, 8, 12, 16, 24, 32, 48, 64}) {
    mk::Polygon polygon = mk::MakeRegularPolygon(count, 1.0f).value;
    mk::ShapeProxy proxy = mk::MakeProxy(polygon);
    double scan = TimeQueries(dirs, [&](mk::Vec2 d) { return mk::FindSupportScan(proxy, d); });
    int last = 0;
    double climb =
        TimeQueries(dirs, [&](mk::Vec2 d) { return last = mk::FindSupportHillClimb(proxy, d, last); });
    double cold = TimeQueries(dirs, [&](mk::Vec2 d) { return mk::FindSupportHillClimb(proxy, d, 0); });
    std::printf("%d,%.2f,%.2f,%.2f,%.2f\n", count, scan, climb, cold, scan / climb);
  }
  return 0;
}
