// SPDX-License-Identifier: MIT
// Brute-force oracle for broadphase tests: an independent model of every proxy (its own fat box
// logic and filter rules, written from the contract in minkowski/broadphase.h) and the O(n^2) list of
// overlapping pairs. Pairs are keyed by user data, which the tests make unique per created proxy.
#pragma once

#include "minkowski/assert.h"
#include "minkowski/broadphase.h"
#include "quiet_asserts.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

namespace mk::test {

struct ModelProxy {
  ProxyId id{};
  AABB fat{};
  std::uint64_t userData = 0;
  ProxyType type = ProxyType::Moving;
  bool awake = true;
  ProxyFilter filter{};
};

/// Pair key: (smaller user data << 32) | larger; user data in the tests fits 32 bits.
inline std::uint64_t PairKey(std::uint64_t a, std::uint64_t b) {
  return a < b ? (a << 32) | b : (b << 32) | a;
}

/// The filter rules from broadphase.h, restated independently.
inline bool ModelShouldCollide(const ModelProxy& a, const ModelProxy& b, ShouldCollideFn extra,
                               void* context) {
  if (a.type == ProxyType::Static && b.type == ProxyType::Static) return false;
  if (a.filter.bodyId != kNoBody && a.filter.bodyId == b.filter.bodyId) return false;
  const bool sameGroup = a.filter.groupIndex != 0 && a.filter.groupIndex == b.filter.groupIndex;
  if (sameGroup && a.filter.groupIndex < 0) return false;
  if (!sameGroup) {
    if ((a.filter.categoryBits & b.filter.maskBits) == 0) return false;
    if ((b.filter.categoryBits & a.filter.maskBits) == 0) return false;
  }
  // Test callbacks are symmetric, so the argument order does not matter here.
  return extra == nullptr || extra(a.userData, b.userData, context);
}

/// Sorted keys of all overlapping, filtered pairs: O(n^2) by design.
inline std::vector<std::uint64_t> OraclePairs(const std::vector<ModelProxy>& proxies, ShouldCollideFn extra,
                                              void* context) {
  std::vector<std::uint64_t> keys;
  // Structure of arrays and a branch-free mask pass, so the compiler vectorises the n^2 loop; the
  // hits (a small fraction) are collected in a second pass.
  const std::size_t n = proxies.size();
  std::vector<float> lx(n), ly(n), ux(n), uy(n);
  std::vector<std::uint8_t> hit(n);
  for (std::size_t i = 0; i < n; ++i) {
    lx[i] = proxies[i].fat.lower.x;
    ly[i] = proxies[i].fat.lower.y;
    ux[i] = proxies[i].fat.upper.x;
    uy[i] = proxies[i].fat.upper.y;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const float alx = lx[i], aly = ly[i], aux = ux[i], auy = uy[i];
    for (std::size_t j = i + 1; j < n; ++j) {
      // Branch-free & of the four comparisons (as ints: clang warns on & of bools).
      const int overlap = static_cast<int>(alx <= ux[j]) & static_cast<int>(lx[j] <= aux) &
                          static_cast<int>(aly <= uy[j]) & static_cast<int>(ly[j] <= auy);
      hit[j] = static_cast<std::uint8_t>(overlap);
    }
    for (std::size_t j = i + 1; j < n; ++j) {
      if (hit[j] != 0 && ModelShouldCollide(proxies[i], proxies[j], extra, context)) {
        keys.push_back(PairKey(proxies[i].userData, proxies[j].userData));
      }
    }
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

/// Sorted keys of a list of pairs reported by the broadphase.
inline std::vector<std::uint64_t> KeysOf(std::span<const ProxyPair> pairs) {
  std::vector<std::uint64_t> keys;
  keys.reserve(pairs.size());
  for (const ProxyPair& p : pairs) keys.push_back(PairKey(p.userDataA, p.userDataB));
  std::sort(keys.begin(), keys.end());
  return keys;
}

/// a \ b for sorted vectors.
inline std::vector<std::uint64_t> Difference(const std::vector<std::uint64_t>& a,
                                             const std::vector<std::uint64_t>& b) {
  std::vector<std::uint64_t> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

/// True when the pairs are in the documented order: (proxyA.index1, proxyB.index1) ascending, A < B.
inline bool InDocumentedOrder(std::span<const ProxyPair> pairs) {
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (pairs[i].proxyA.index1 >= pairs[i].proxyB.index1) return false;
    if (i > 0) {
      const ProxyPair& p = pairs[i - 1];
      const ProxyPair& q = pairs[i];
      if (p.proxyA.index1 > q.proxyA.index1) return false;
      if (p.proxyA.index1 == q.proxyA.index1 && p.proxyB.index1 > q.proxyB.index1) return false;
    }
  }
  return true;
}

}  // namespace mk::test
