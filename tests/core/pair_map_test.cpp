// SPDX-License-Identifier: MIT
// PairMap: an open-addressing map with backward-shift deletion, checked against std::unordered_map
// on random inserts, overwrites, emplaces, finds and erases (dense keys, so probe runs collide and wrap).
#include "core/pair_map.h"

#include "test_util.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <unordered_map>

using namespace mk;

TEST_SUITE("core.pair_map") {

TEST_CASE("Key is symmetric and tells pairs apart") {
  CHECK(PairMap::Key(3, 9) == PairMap::Key(9, 3));
  CHECK(PairMap::Key(3, 9) != PairMap::Key(3, 10));
  CHECK(PairMap::Key(0, 1) != PairMap::Key(1, 1));
  CHECK(PairMap::Key(0x7fffffff, 0) == (std::uint64_t{0} << 32 | 0x7fffffffu));
}

TEST_CASE("an empty map finds nothing and erases nothing") {
  PairMap map;
  CHECK(map.Find(PairMap::Key(1, 2)) == -1);
  CHECK_FALSE(map.Erase(PairMap::Key(1, 2)));
  CHECK(map.Size() == 0);
}

TEST_CASE("random inserts and overwrites and emplaces and finds and erases match std::unordered_map") {
  for (int shapes : {12, 40, 300}) {  // key space: pairs of `shapes` shape indices
    CAPTURE(shapes);
    test::Rng rng(static_cast<std::uint64_t>(shapes) * 7919u);
    PairMap map;
    std::unordered_map<std::uint64_t, int> oracle;
    for (int op = 0; op < 30000; ++op) {
      const int a = rng.Int(0, shapes - 1), b = rng.Int(0, shapes - 1);
      const std::uint64_t key = PairMap::Key(a, b);
      const int kind = rng.Int(0, 9);
      if (kind < 3) {
        const int value = rng.Int(0, 1000000);
        map.Insert(key, value);
        oracle[key] = value;
      } else if (kind < 4) {  // Emplace: adds -1 when absent, else returns the present value
        bool added = false;
        int& value = map.Emplace(key, added);
        const auto [it, inserted] = oracle.try_emplace(key, -1);
        REQUIRE(added == inserted);
        REQUIRE(value == it->second);
        if (added) value = it->second = rng.Int(0, 1000000);
      } else if (kind < 8) {
        REQUIRE(map.Erase(key) == (oracle.erase(key) == 1));
      } else {
        const auto it = oracle.find(key);
        REQUIRE(map.Find(key) == (it == oracle.end() ? -1 : it->second));
      }
      REQUIRE(map.Size() == oracle.size());
      if (op % 1000 == 999) {  // every key of the space, present or not
        for (int i = 0; i < shapes; ++i) {
          for (int j = i; j < shapes; ++j) {
            const auto it = oracle.find(PairMap::Key(i, j));
            REQUIRE(map.Find(PairMap::Key(i, j)) == (it == oracle.end() ? -1 : it->second));
          }
        }
      }
    }
  }
}

TEST_CASE("erasing every key in insertion order leaves an empty map that still finds nothing") {
  PairMap map;
  for (int i = 0; i < 500; ++i) map.Insert(PairMap::Key(i, i + 1), i);
  for (int i = 0; i < 500; ++i) {
    REQUIRE(map.Erase(PairMap::Key(i, i + 1)));
    // The keys after it are still found (backward shift moved them, never lost them).
    for (int j = i + 1; j < 500; j += 37) REQUIRE(map.Find(PairMap::Key(j, j + 1)) == j);
  }
  CHECK(map.Size() == 0);
  CHECK(map.Find(PairMap::Key(10, 11)) == -1);
}

}  // TEST_SUITE("core.pair_map")
