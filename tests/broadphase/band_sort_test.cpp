// SPDX-License-Identifier: MIT
// A band list's sort (SortBandEntries, engine/src/broadphase/sweep_and_prune.cpp) against the test's own
// sort by (lo, slot): the insertion sort that finishes, the one that gives up and leaves its list a few
// sorts that go straight to std::sort, and those sorts. Each entry must come out whole (all its fields).
#include "broadphase/broadphase_impl.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

using namespace mk;

namespace {

// n entries with unique slots, lo on a coarse grid (ties between slots are common) and the other
// fields derived from the slot, so a torn entry shows.
std::vector<BandEntry> RandomEntries(int n, std::mt19937& random) {
  std::vector<std::int32_t> proxies(static_cast<std::size_t>(n));
  std::iota(proxies.begin(), proxies.end(), 0);
  std::shuffle(proxies.begin(), proxies.end(), random);
  std::uniform_int_distribution<int> grid(0, std::max(1, n / 3));
  std::vector<BandEntry> list;
  for (std::int32_t proxy : proxies) {
    const float lo = 0.25f * static_cast<float>(grid(random));
    list.push_back({.lo = lo,
                    .hi = lo + 0.5f + 0.001f * static_cast<float>(proxy),
                    .crossLo = static_cast<float>(-proxy),
                    .crossHi = static_cast<float>(proxy),
                    .proxy = proxy,
                    .generation = static_cast<std::uint32_t>(proxy * 7 + 1)});
  }
  return list;
}

std::vector<BandEntry> Expected(std::vector<BandEntry> list) {
  std::sort(list.begin(), list.end(), [](const BandEntry& a, const BandEntry& b) {
    return a.lo != b.lo ? a.lo < b.lo : a.proxy < b.proxy;
  });
  return list;
}

bool SameEntries(const std::vector<BandEntry>& a, const std::vector<BandEntry>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].lo != b[i].lo || a[i].hi != b[i].hi || a[i].crossLo != b[i].crossLo ||
        a[i].crossHi != b[i].crossHi || a[i].proxy != b[i].proxy || a[i].generation != b[i].generation)
      return false;
  }
  return true;
}

// A sorted list with a few neighbours swapped: the coherent motion the insertion sort is for.
std::vector<BandEntry> NearlySorted(int n, std::mt19937& random) {
  std::vector<BandEntry> list = Expected(RandomEntries(n, random));
  for (int k = 0; k + 1 < n; k += 9)
    std::swap(list[static_cast<std::size_t>(k)], list[static_cast<std::size_t>(k + 1)]);
  return list;
}

}  // namespace

TEST_SUITE("broadphase.pairs") {
TEST_CASE("band lists sort by lo then slot whether the insertion sort finishes or gives up and is skipped") {
  std::mt19937 random(20261203);
  int gaveUp = 0, skipped = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = static_cast<int>(random() % 400);
    INFO("trial " << trial << " entries " << n);
    // Coherent motion: the insertion sort finishes and leaves no skips.
    std::uint8_t directSorts = 0;
    std::vector<BandEntry> list = NearlySorted(n, random);
    std::vector<BandEntry> expected = Expected(list);
    SortBandEntries(list, directSorts);
    CHECK(SameEntries(list, expected));
    CHECK(directSorts == 0);
    // A shuffle: past about 30 entries its insertion sort needs more than 8 shifts an entry and gives
    // up; the list then skips the insertion sort a few times, one fewer each sort.
    list = RandomEntries(n, random);
    expected = Expected(list);
    SortBandEntries(list, directSorts);
    CHECK(SameEntries(list, expected));
    if (n >= 100) CHECK(directSorts > 0);
    if (directSorts > 0) ++gaveUp;
    // Bounded: a count that never fell would fail here, not hang.
    for (int sort = 0; sort < 16 && directSorts > 0; ++sort) {
      const std::uint8_t before = directSorts;
      // The skipped sorts on lists of either kind, nearly sorted included.
      list = (sort % 2 == 0) ? RandomEntries(n, random) : NearlySorted(n, random);
      expected = Expected(list);
      SortBandEntries(list, directSorts);
      CHECK(SameEntries(list, expected));
      CHECK(directSorts == before - 1);
      ++skipped;
    }
    CHECK(directSorts == 0);
  }
  CHECK(gaveUp > 200);
  CHECK(skipped >= gaveUp);
}

// LowerBound against a count: in a list sorted by lo, the first entry with lo >= key is
// at the number of entries whose lo is below the key. Lists of 0 to 99 entries with ties; keys on the
// entries' grid (equal to some lo), between it, beyond both ends, infinite and NaN (index 0, as
// std::lower_bound gives).
TEST_CASE("a band list's lower bound is the count of entries below the key") {
  std::mt19937 random(20261203);
  std::uniform_real_distribution<float> offGrid(-1.0f, 30.0f);
  int checked = 0;
  for (int n = 0; n < 100; ++n) {
    const std::vector<BandEntry> list = Expected(RandomEntries(n, random));
    std::vector<float> keys = {-std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::infinity(), -1.0f, 1e6f};
    for (int k = 0; k < 40; ++k)
      keys.push_back(k % 2 == 0 ? 0.25f * static_cast<float>(k / 2) : offGrid(random));
    for (float key : keys) {
      const auto below =
          std::count_if(list.begin(), list.end(), [key](const BandEntry& e) { return e.lo < key; });
      CHECK(LowerBound(list, key) == static_cast<int>(below));
      ++checked;
    }
    CHECK(LowerBound(list, std::numeric_limits<float>::quiet_NaN()) == 0);
  }
  CHECK(checked == 100 * 44);
}

// LowerBounds (the searches of a batch side by side) against LowerBound and the count: batches of 1
// to kMaxLowerBounds searches over lists of 0 to 1,500 entries (the deepest search sets the levels of
// all, so short lists share batches with long ones), null lists among them, keys on the grid, between
// it, beyond both ends, infinite and NaN.
TEST_CASE("a batch of band list searches gives each search's lower bound") {
  std::mt19937 random(20261204);
  std::vector<std::vector<BandEntry>> lists;
  for (int n : {0, 1, 2, 3, 7, 8, 9, 31, 64, 100, 500, 1500})
    lists.push_back(Expected(RandomEntries(n, random)));
  std::uniform_int_distribution<std::size_t> pickList(0, lists.size());  // lists.size(): a null list
  std::uniform_int_distribution<int> pickCount(1, kMaxLowerBounds);
  const float specials[] = {-std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN()};
  int checked = 0, nonZero = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int count = pickCount(random);
    const std::vector<BandEntry>* batch[kMaxLowerBounds];
    float keys[kMaxLowerBounds];
    int first[kMaxLowerBounds];
    for (int k = 0; k < count; ++k) {
      const std::size_t l = pickList(random);
      batch[k] = l < lists.size() ? &lists[l] : nullptr;
      // Keys over the list's own range, one past each end: on an entry's lo, between entries, outside.
      const float top = batch[k] != nullptr && !batch[k]->empty() ? batch[k]->back().lo : 0.0f;
      const int form = static_cast<int>(random() % 8);
      if (form == 0) {
        keys[k] = specials[random() % 3];
      } else if (form < 4 && top > 0.0f) {
        keys[k] = (*batch[k])[random() % batch[k]->size()].lo;
      } else {
        keys[k] = std::uniform_real_distribution<float>(-1.0f, top + 1.0f)(random);
      }
    }
    LowerBounds(batch, keys, count, first);
    for (int k = 0; k < count; ++k) {
      const std::vector<BandEntry> empty;
      const std::vector<BandEntry>& list = batch[k] != nullptr ? *batch[k] : empty;
      const auto below =
          std::count_if(list.begin(), list.end(), [&](const BandEntry& e) { return e.lo < keys[k]; });
      CHECK(first[k] == static_cast<int>(below));
      CHECK(first[k] == LowerBound(list, keys[k]));
      ++checked;
      nonZero += first[k] > 0 && first[k] < static_cast<int>(list.size());
    }
  }
  CHECK(checked > 3000 * 4);     // batches of 4.5 searches on average
  CHECK(nonZero > checked / 3);  // most answers inside their lists, not at an end
}
}  // TEST_SUITE("broadphase.pairs")
