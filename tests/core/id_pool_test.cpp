// SPDX-License-Identifier: MIT
// IdPool: slots reused lowest first, generations that make old ids stale, capacity that only grows
// when no slot is free; checked by hand and against a brute-force model on random operations.
#include "core/id_pool.h"

#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

using namespace mk;

TEST_SUITE("core.id_pool") {

TEST_CASE("freed slots are reused lowest first - then the pool grows") {
  IdPool pool;
  for (int i = 0; i < 10; ++i) CHECK(pool.Allocate() == i);
  pool.Free(7);
  pool.Free(3);
  pool.Free(5);
  CHECK(pool.LiveCount() == 7);
  CHECK(pool.Allocate() == 3);
  CHECK(pool.Allocate() == 5);
  CHECK(pool.Allocate() == 7);
  CHECK(pool.Allocate() == 10);
  CHECK(pool.Capacity() == 11);
}

TEST_CASE("freeing bumps the generation - so an id of the old generation is stale") {
  IdPool pool;
  const int slot = pool.Allocate();
  const std::uint32_t first = pool.Generation(slot);
  CHECK(pool.IsLive(slot, first));
  pool.Free(slot);
  CHECK(pool.Generation(slot) == first + 1);
  CHECK_FALSE(pool.IsLive(slot));
  CHECK_FALSE(pool.IsLive(slot, first));
  CHECK(pool.Allocate() == slot);
  CHECK(pool.IsLive(slot, first + 1));
  CHECK_FALSE(pool.IsLive(slot, first));  // the old id stays stale after the slot is reused
}

TEST_CASE("out-of-range slots are never live and create-destroy cycles do not grow the capacity") {
  IdPool pool;
  CHECK_FALSE(pool.IsLive(0));
  CHECK_FALSE(pool.IsLive(-1));
  for (int i = 0; i < 4; ++i) pool.Allocate();
  CHECK_FALSE(pool.IsLive(4));
  CHECK_FALSE(pool.IsLive(-1, 1));
  for (int cycle = 0; cycle < 100; ++cycle) pool.Free(pool.Allocate());
  CHECK(pool.Capacity() == 5);
  CHECK(pool.LiveCount() == 4);
}

TEST_CASE("random allocations and frees match a brute-force model of slots and generations") {
  test::Rng rng(20240612);
  IdPool pool;
  std::vector<std::uint32_t> generation;  // model: per slot
  std::vector<bool> live;
  for (int op = 0; op < 20000; ++op) {
    const int liveCount = static_cast<int>(std::count(live.begin(), live.end(), true));
    if (liveCount == 0 || rng.Int(0, 99) < 55) {
      // Model: the lowest dead slot, else a new one at the end.
      int expected = static_cast<int>(live.size());
      for (int s = 0; s < static_cast<int>(live.size()); ++s) {
        if (!live[s]) {
          expected = s;
          break;
        }
      }
      if (expected == static_cast<int>(live.size())) {
        live.push_back(false);
        generation.push_back(1);
      }
      live[expected] = true;
      REQUIRE(pool.Allocate() == expected);
    } else {
      int pick = rng.Int(0, liveCount - 1), slot = 0;
      for (; slot < static_cast<int>(live.size()); ++slot) {
        if (live[slot] && pick-- == 0) break;
      }
      live[slot] = false;
      ++generation[slot];
      pool.Free(slot);
    }
    if (op % 97 == 0) {
      REQUIRE(pool.Capacity() == static_cast<int>(live.size()));
      REQUIRE(pool.LiveCount() == static_cast<int>(std::count(live.begin(), live.end(), true)));
      for (int s = 0; s < pool.Capacity(); ++s) {
        REQUIRE(pool.Generation(s) == generation[s]);
        REQUIRE(pool.IsLive(s) == live[s]);
        REQUIRE(pool.IsLive(s, generation[s]) == live[s]);
        REQUIRE_FALSE(pool.IsLive(s, generation[s] - 1));
      }
    }
  }
}

// Past 4,096 slots the free bits' summary has more than one word: frees far below and far above the
// lowest free slot, and runs of allocations that empty whole words, against a set of free slots.
TEST_CASE("a pool of 20000 slots reuses the lowest free slot as a set of free slots does") {
  test::Rng rng(77031);
  IdPool pool;
  std::set<int> free;  // model
  int capacity = 0;
  for (int i = 0; i < 20000; ++i) REQUIRE(pool.Allocate() == capacity++);
  for (int round = 0; round < 200; ++round) {
    const int frees = rng.Int(0, 300);
    for (int k = 0; k < frees; ++k) {
      // Half the frees in one 64-slot word picked for the round, so words empty and fill whole.
      const int slot =
          k % 2 == 0 ? rng.Int(0, capacity - 1) : (round * 97 % (capacity / 64)) * 64 + rng.Int(0, 63);
      if (!pool.IsLive(slot)) continue;
      pool.Free(slot);
      free.insert(slot);
    }
    const int allocations = rng.Int(0, 320);
    for (int k = 0; k < allocations; ++k) {
      int expected = capacity;
      if (!free.empty()) {
        expected = *free.begin();
        free.erase(free.begin());
      } else {
        ++capacity;
      }
      REQUIRE(pool.Allocate() == expected);
    }
    REQUIRE(pool.Capacity() == capacity);
    REQUIRE(pool.LiveCount() == capacity - static_cast<int>(free.size()));
    REQUIRE(pool.FreeSlots() == std::vector<int>(free.begin(), free.end()));
  }
}

TEST_CASE("Assign rebuilds the free slots and refuses out-of-range and repeated and non-heap lists") {
  IdPool pool;
  CHECK(pool.Assign(std::vector<std::uint32_t>(5000, 3u), {7, 4100, 4099}));  // a min-heap
  CHECK(pool.LiveCount() == 4997);
  CHECK_FALSE(pool.IsLive(4100));
  CHECK(pool.IsLive(4098));
  CHECK(pool.Allocate() == 7);
  CHECK(pool.Allocate() == 4099);
  CHECK(pool.Allocate() == 4100);
  CHECK(pool.Allocate() == 5000);
  CHECK(pool.Generation(4099) == 3u);
  IdPool other;
  CHECK_FALSE(other.Assign(std::vector<std::uint32_t>(10, 1u), {10}));    // out of range
  CHECK_FALSE(other.Assign(std::vector<std::uint32_t>(10, 1u), {2, 2}));  // listed twice
  CHECK_FALSE(other.Assign(std::vector<std::uint32_t>(10, 1u), {5, 1}));  // not a min-heap
  CHECK(other.Capacity() == 0);                                           // unchanged
}

}  // TEST_SUITE("core.id_pool")
