// SPDX-License-Identifier: MIT
// Union-find against a brute-force connectivity oracle (graph search over the unions made).
#include "core/union_find.h"

#include "test_util.h"

#include <doctest/doctest.h>

#include <utility>
#include <vector>

using namespace mk;

namespace {

// Component labels by depth-first search over the edges: label[i] = smallest node reachable from i.
std::vector<int> Components(int n, const std::vector<std::pair<int, int>>& edges) {
  std::vector<std::vector<int>> adjacent(n);
  for (auto [a, b] : edges) {
    adjacent[a].push_back(b);
    adjacent[b].push_back(a);
  }
  std::vector<int> label(n, -1);
  for (int start = 0; start < n; ++start) {  // in increasing order: the first node seen is the smallest
    if (label[start] >= 0) continue;
    std::vector<int> stack{start};
    label[start] = start;
    while (!stack.empty()) {
      const int node = stack.back();
      stack.pop_back();
      for (int next : adjacent[node]) {
        if (label[next] < 0) {
          label[next] = start;
          stack.push_back(next);
        }
      }
    }
  }
  return label;
}

}  // namespace

TEST_SUITE("core.union_find") {

TEST_CASE("random unions: same root exactly when connected - and the root is the smallest member") {
  test::Rng rng(42);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = rng.Int(1, 200);
    CAPTURE(trial);
    CAPTURE(n);
    std::vector<int> parent(n);
    for (int i = 0; i < n; ++i) parent[i] = i;
    std::vector<std::pair<int, int>> edges;
    const int unions = rng.Int(0, 2 * n);
    for (int u = 0; u < unions; ++u) {
      const int a = rng.Int(0, n - 1), b = rng.Int(0, n - 1);
      edges.push_back({a, b});
      Union(parent, a, b);
    }
    const std::vector<int> label = Components(n, edges);
    for (int i = 0; i < n; ++i) REQUIRE(FindRoot(parent, i) == label[i]);
    for (int k = 0; k < 200; ++k) {
      const int a = rng.Int(0, n - 1), b = rng.Int(0, n - 1);
      REQUIRE((FindRoot(parent, a) == FindRoot(parent, b)) == (label[a] == label[b]));
    }
  }
}

TEST_CASE("the roots do not depend on the order of the unions") {
  const std::vector<std::pair<int, int>> edges{{5, 3}, {3, 8}, {1, 2}, {8, 0}, {2, 6}};
  std::vector<int> forward(10), backward(10);
  for (int i = 0; i < 10; ++i) forward[i] = backward[i] = i;
  for (auto [a, b] : edges) Union(forward, a, b);
  for (auto it = edges.rbegin(); it != edges.rend(); ++it) Union(backward, it->second, it->first);
  for (int i = 0; i < 10; ++i) CHECK(FindRoot(forward, i) == FindRoot(backward, i));
  CHECK(FindRoot(forward, 8) == 0);
  CHECK(FindRoot(forward, 6) == 1);
  CHECK(FindRoot(forward, 9) == 9);
}

}  // TEST_SUITE("core.union_find")
