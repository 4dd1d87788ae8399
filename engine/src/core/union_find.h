// SPDX-License-Identifier: MIT
// Union-find over slot indices in a plain vector (parent[i] == i marks a root). Used for islands
// (world/sleep.cpp) and for the island colours of the debug draw (world/world_debug.cpp).
#pragma once

#include <algorithm>
#include <vector>

namespace mk {

/// The root of i's set, halving the path on the way.
inline int FindRoot(std::vector<int>& parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];  // path halving
    i = parent[i];
  }
  return i;
}

/// Joins the sets of a and b. The smaller root wins, so roots do not depend on the order of unions.
inline void Union(std::vector<int>& parent, int a, int b) {
  a = FindRoot(parent, a);
  b = FindRoot(parent, b);
  if (a != b) parent[std::max(a, b)] = std::min(a, b);
}

}  // namespace mk
