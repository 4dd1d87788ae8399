// SPDX-License-Identifier: MIT
// ComputeSupportLevels (solver/support_levels.h): each body's distance from the ground in contacts.
//
// Oracle: the levels' definition relaxed to its fixed point (Bellman-Ford on unit edges): a body that
// never moves is 0; any other is the least of 1 (a contact with a static or sleeping body, index -1)
// and one more than each contact partner's level. The search must give exactly that, also when its
// scratch keeps the last call's inputs and skips a call whose inputs did not change.
#include "solver/support_levels.h"

#include "solver/contact_solver.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <span>
#include <vector>

using namespace mk;
using mk::test::Rng;

namespace {

std::vector<int> OracleLevels(std::span<const ContactKey> keys, std::span<const BodyParams> params) {
  const int n = static_cast<int>(params.size());
  std::vector<int> level(params.size(), kUnsupported);
  auto fixed = [&](int i) { return params[i].invMass == 0.0f && params[i].invInertia == 0.0f; };
  for (int i = 0; i < n; ++i)
    if (fixed(i)) level[i] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (const ContactKey& key : keys) {
      for (auto [self, other] : {std::pair{key.indexA, key.indexB}, std::pair{key.indexB, key.indexA}}) {
        if (self < 0 || fixed(self)) continue;
        const int candidate =
            other < 0 ? 1 : (level[other] == kUnsupported ? kUnsupported : level[other] + 1);
        if (candidate < level[self]) level[self] = candidate, changed = true;
      }
    }
  }
  return level;
}

struct Inputs {
  std::vector<ContactKey> keys;
  std::vector<BodyParams> params;
};

// Chains and clumps: few ground contacts, so that levels run deep and some clumps float.
Inputs RandomInputs(Rng& rng) {
  Inputs in;
  const int bodies = rng.Int(1, 60);
  in.params.resize(static_cast<std::size_t>(bodies));
  for (BodyParams& p : in.params) {
    const bool fixed = rng.Int(0, 15) == 0;
    p.invMass = fixed ? 0.0f : 1.0f;
    p.invInertia = fixed ? 0.0f : rng.Uniform(0.5f, 2.0f);
  }
  const int contacts = rng.Int(0, 2 * bodies);
  for (int i = 0; i < contacts; ++i) {
    ContactKey key;
    key.indexA = rng.Int(0, bodies - 1);
    key.indexB = rng.Int(0, 12) == 0 ? -1 : rng.Int(0, bodies - 1);
    if (key.indexA == key.indexB) continue;
    if (rng.Int(0, 1) == 1) std::swap(key.indexA, key.indexB);
    in.keys.push_back(key);
  }
  return in;
}

// One of the changes a step can bring, or none.
void Mutate(Rng& rng, Inputs& in) {
  const int bodies = static_cast<int>(in.params.size());
  switch (rng.Int(0, 5)) {
    case 0:  // a contact ends
      if (!in.keys.empty()) in.keys.erase(in.keys.begin() + rng.Int(0, static_cast<int>(in.keys.size()) - 1));
      break;
    case 1: {  // a contact begins, or one changes partner at the same place in the order
      ContactKey key{.indexA = rng.Int(0, bodies - 1), .indexB = rng.Int(-1, bodies - 1)};
      if (key.indexA == key.indexB) break;
      if (!in.keys.empty() && rng.Int(0, 1) == 1) {
        in.keys[static_cast<std::size_t>(rng.Int(0, static_cast<int>(in.keys.size()) - 1))] = key;
      } else {
        in.keys.push_back(key);
      }
      break;
    }
    case 2: {  // a body becomes fixed or free
      BodyParams& p = in.params[static_cast<std::size_t>(rng.Int(0, bodies - 1))];
      const bool fixed = p.invMass == 0.0f && p.invInertia == 0.0f;
      p.invMass = fixed ? 1.0f : 0.0f;
      p.invInertia = fixed ? 1.0f : 0.0f;
      break;
    }
    case 3:  // a rotation-locked body: still moves
      in.params[static_cast<std::size_t>(rng.Int(0, bodies - 1))].invInertia = 0.0f;
      break;
    default:  // nothing changed
      break;
  }
}

}  // namespace

TEST_SUITE("solver.levels") {

TEST_CASE("support levels are the ground distances of the definition on random contact graphs") {
  Rng rng(2811);
  for (int trial = 0; trial < 500; ++trial) {
    const Inputs in = RandomInputs(rng);
    std::vector<int> levels;
    SupportLevelScratch scratch;
    ComputeSupportLevels(in.keys, in.params, levels, scratch);
    REQUIRE(levels == OracleLevels(in.keys, in.params));
  }
}

TEST_CASE("support levels kept from the last call are those of the new inputs after any change") {
  Rng rng(2812);
  int sameInputs = 0, changedInputs = 0;
  auto same = [](const Inputs& x, const Inputs& y) {
    auto sameKey = [](const ContactKey& p, const ContactKey& q) {
      return p.indexA == q.indexA && p.indexB == q.indexB;
    };
    auto sameBody = [](const BodyParams& p, const BodyParams& q) {
      return p.invMass == q.invMass && p.invInertia == q.invInertia;
    };
    return std::equal(x.keys.begin(), x.keys.end(), y.keys.begin(), y.keys.end(), sameKey) &&
           std::equal(x.params.begin(), x.params.end(), y.params.begin(), y.params.end(), sameBody);
  };
  for (int trial = 0; trial < 100; ++trial) {
    Inputs in = RandomInputs(rng);
    std::vector<int> levels;
    SupportLevelScratch scratch;
    for (int call = 0; call < 40; ++call) {
      INFO("trial " << trial << " call " << call);
      const Inputs last = in;
      Mutate(rng, in);
      if (rng.Int(0, 19) == 0) levels.clear();  // a step without the relax pass (solve.cpp)
      ComputeSupportLevels(in.keys, in.params, levels, scratch);
      REQUIRE(levels == OracleLevels(in.keys, in.params));
      (same(last, in) ? sameInputs : changedInputs) += 1;
    }
  }
  // Calls with the last call's inputs (the kept levels' path, unless the levels were cleared) and
  // with changed ones both occurred often.
  CHECK(sameInputs > 500);
  CHECK(changedInputs > 500);
}

}  // TEST_SUITE("solver.levels")
